"""The probe side: the only code of the grader that runs inside the student's kernel.

`probe` calls an exercise's probe on the requested cases and displays plain JSON; `probes/` holds
each lesson's probes, and `probing` the helpers they share; `integrity` catches patched tools; `quiet` keeps
TensorFlow's start-up lines out of graded cells. Everything here runs beside code that may be
hostile, so it trusts nothing it finds there and knows no expected value.

May import: itself, `autograder.course.spec` and `autograder.course.lessons` (to find a lesson's
probes), the standard library, NumPy, TensorFlow and IPython. Nothing else
(tests/test_architecture.py).
"""
