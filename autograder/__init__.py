"""Checks and grades the TensorFlow graph-mechanics course.

Public checks run in the student's notebook; the batch grader executes each submission in its own
kernel, observes the exercises there and judges the observations here, against references it
computes from `solutions/`.
"""
from pathlib import Path

__version__ = "0.1.0"

COURSE_ROOT = Path(__file__).resolve().parents[1]
"""The course checkout this package was installed from (editable install)."""
