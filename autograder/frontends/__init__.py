"""The front ends: what students, instructors and CI run.

`cli` (`python -m autograder ...`), the batch grader (`batch`) and its Dask runner (`cluster`),
nbgrader's preprocessors (`nbgrader`) with the engine's shared knobs (`settings`), the check cells
(`check`) and the students' lab (`lab`), the class `report` with its `integrity` view (similar
submissions, found by `similarity`, and flagged code), the `gradebook` import and the student `bundle`.

May import anything below: the judging, the engine, the probe side, the course.
"""
