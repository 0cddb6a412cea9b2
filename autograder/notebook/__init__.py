"""Helpers the lessons' own cells import: pictures of graphs, checked claims, the timing
harness of lesson 06 (pipeline_timing), and lesson 05's data and resumable training loop
(regression) and readers of the checkpoints and event files a run leaves (run_files).

They run in the student's kernel, beside the lesson, and import nothing else of `autograder`: a
lesson that shows a graph or states a measured fact needs only these.
"""
