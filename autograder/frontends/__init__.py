"""The front ends: what students, instructors and CI run.

`cli` (`python -m autograder ...`), the batch grader (`batch`) and its Dask runner (`cluster`),
nbgrader's preprocessors (`nbgrader`) with the engine's shared knobs (`settings`), the check cells
(`check`) and the students' lab (`lab`), the class `report` with its `integrity` view (similar
submissions, found by `similarity` on the code `fingerprints` makes and the wrong answers
`observations` compares, cut off by `report_settings`, exported by `similarity_export`; and flagged
code), the `gradebook` import and the student `bundle`.

May import anything below: the judging, the engine, the probe side, the course.
"""
