"""Helpers the lessons' own cells import: pictures of graphs, checked claims, and the timing
harness of lesson 06 (pipeline_timing).

They run in the student's kernel, beside the lesson, and import nothing else of `autograder`: a
lesson that shows a graph or states a measured fact needs only these.
"""
