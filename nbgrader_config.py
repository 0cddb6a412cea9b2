"""nbgrader's configuration for this course: sources in solutions/, releases in notebooks/."""
import os

c = get_config()  # noqa: F821  (provided by nbgrader when it loads this file)

c.CourseDirectory.root = os.path.dirname(os.path.abspath(__file__))
c.CourseDirectory.course_id = "tfgraph-course"
c.CourseDirectory.source_directory = "solutions"
c.CourseDirectory.release_directory = "notebooks"
c.CourseDirectory.submitted_directory = "submitted"
c.CourseDirectory.autograded_directory = "autograded"
c.CourseDirectory.feedback_directory = "feedback"

# Generous per-cell limit: a check cell may have to build the reference on first use.
c.Execute.timeout = 900

# nbgrader gives zero to a test cell that writes anything to stderr, and TensorFlow logs there.
# Kernels inherit this process's environment: hide TensorFlow's INFO/WARNING lines, keep ERRORs.
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ.setdefault("TF_FORCE_GPU_ALLOW_GROWTH", "true")
