"""Helpers the lessons' own cells import: pictures of graphs, checked claims, the timing harnesses
(timing; pipeline_timing for lesson 06), lesson 05's data and resumable training loop (regression)
and readers of the checkpoints and event files a run leaves (run_files), and lesson 07's schedules
drawn in one run (schedules), its plateau rules outside the graph (plateau) and its race of
schedules on one network (schedule_race).

They run in the student's kernel, beside the lesson, and import nothing else of `autograder`: a
lesson that shows a graph or states a measured fact needs only these.
"""
