"""Helpers the lessons' own cells import: pictures of graphs, and checked claims.

They run in the student's kernel, beside the lesson, and import nothing else of `autograder`: a
lesson that shows a graph or states a measured fact needs only these.
"""
