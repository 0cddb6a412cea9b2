"""nbgrader's configuration for this course: sources in solutions/, releases in notebooks/."""
import os
import sys

c = get_config()  # noqa: F821  (provided by nbgrader when it loads this file)

c.CourseDirectory.root = os.path.dirname(os.path.abspath(__file__))
c.CourseDirectory.course_id = "tfgraph-course"
c.CourseDirectory.source_directory = "solutions"
c.CourseDirectory.release_directory = "notebooks"
c.CourseDirectory.submitted_directory = "submitted"
c.CourseDirectory.autograded_directory = "autograded"
c.CourseDirectory.feedback_directory = "feedback"

# `nbgrader autograde` grades through the course's engine, as `python -m autograder grade` does: each
# submission in a sandboxed kernel forked from a warm one, its exercises observed there on public
# and hidden cases and judged in this process (autograder/frontends/nbgrader.py). Only the first
# step of each list differs from nbgrader 0.9.6's defaults.
# Only when nbgrader reads this file: `python -m autograder grade` reads it for c.Engine alone, and
# importing nbgrader would cost every batch 0.8 s before its first kernel starts.
if "nbgrader" in sys.modules:
    from autograder.engine.sandbox import OtherPackage, require_own_package

    # A course copied elsewhere and run with another checkout's venv refuses here, before nbgrader
    # records anyone: an exception would only be logged, and nbgrader would go on with its defaults.
    try:
        require_own_package()
    except OtherPackage as exc:
        sys.exit(f"error: {exc}")

    from nbconvert.preprocessors import ClearMetadataPreprocessor, CSSHTMLHeaderPreprocessor
    from nbgrader.preprocessors import (
        AssignLatePenalties,
        CheckCellMetadata,
        ClearOutput,
        DeduplicateIds,
        GetGrades,
        IgnorePattern,
        LimitOutput,
        OverwriteKernelspec,
        SaveAutoGrades,
    )

    from autograder.frontends.nbgrader import GradeInSandbox, RestoreHiddenTests
    from autograder.frontends.nbgrader_guard import RepairGradeCells, SanitizeHTML, install

    # One student's notebook fails only that student's grading, and gets the batch grader's verdict: a
    # renamed notebook is graded as the lesson, a broken timestamp.txt is ignored with a warning
    # (autograder/frontends/nbgrader_guard.py).
    install()
    c.Autograde.sanitize_preprocessors = [
        RepairGradeCells,  # nbgrader metadata as released: odd, duplicated, re-flagged, added or deleted cells
        ClearOutput, DeduplicateIds, OverwriteKernelspec,
        RestoreHiddenTests,  # in place of OverwriteCells: no false checksum warnings (nbgrader#1961)
        CheckCellMetadata]
    c.Autograde.autograde_preprocessors = [
        GradeInSandbox,  # in place of Execute: nothing in the student's kernel decides a mark
        SanitizeHTML,  # what the student wrote cannot run in formgrader or the feedback page
        IgnorePattern, ClearMetadataPreprocessor, LimitOutput, SaveAutoGrades, AssignLatePenalties, CheckCellMetadata]
    c.GenerateFeedback.preprocessors = [GetGrades, CSSHTMLHeaderPreprocessor, SanitizeHTML]
    # `nbgrader export`: quoted cells, none a spreadsheet would run as a formula (a student id `=HYPERLINK(...)`).
    from autograder.frontends.nbgrader_export import SafeCsvExportPlugin
    c.ExportApp.plugin_class = SafeCsvExportPlugin

# The engine's knobs, shared with `python -m autograder grade` (which reads this file; its flags
# override single values). These are the defaults.
c.Engine.cell_timeout = 60.0       # seconds one cell may run
c.Engine.notebook_timeout = 600.0  # seconds one notebook may run
c.Engine.memory_mb = 4096          # memory one kernel may hold, its child processes included
c.Engine.output_bytes = 200_000    # output kept per cell
c.Engine.jobs = 1                  # submissions graded at once by `python -m autograder grade`
c.Engine.sandbox = True            # False: process isolation only (grading refuses without bubblewrap)
c.Engine.run_all = False           # True: run every cell, not only those a grade depends on (same verdicts)

# Only for nbgrader's own Execute, should a course put it back: a check cell may have to build the
# reference on first use.
c.Execute.timeout = 900

# nbgrader gives zero to a test cell that writes anything to stderr, and TensorFlow logs there.
# Kernels inherit this process's environment: hide TensorFlow's INFO/WARNING lines, keep ERRORs.
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ.setdefault("TF_FORCE_GPU_ALLOW_GROWTH", "true")
