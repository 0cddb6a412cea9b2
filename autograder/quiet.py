"""Keep TensorFlow's log lines out of graded cells without hiding real errors.

nbgrader 0.9.6 gives zero points to a test cell with any stderr output, and TensorFlow logs to
stderr from C++ and from Python. Real errors still surface: they are exceptions, which become
error outputs; whatever was written to stderr meanwhile is relayed on stdout, labelled.
"""
from __future__ import annotations

import contextlib
import io
import logging
import os
import sys
import tempfile
from typing import Iterator

# Hides C++ INFO and WARNING lines; keeps ERROR. Memory growth lets one GPU host several kernels.
KERNEL_ENV = {
    "TF_CPP_MIN_LOG_LEVEL": "2",
    "TF_FORCE_GPU_ALLOW_GROWTH": "true",
    "PYTHONWARNINGS": "ignore::DeprecationWarning",
}


def quiet_environment() -> None:
    """Set the kernel environment variables, keeping any value the user chose."""
    for key, value in KERNEL_ENV.items():
        os.environ.setdefault(key, value)


def quiet_python_logging() -> None:
    """Raise TensorFlow's Python logger to ERROR (its deprecation notices are WARNING)."""
    logging.getLogger("tensorflow").setLevel(logging.ERROR)


@contextlib.contextmanager
def captured_stderr() -> Iterator[list[str]]:
    """Capture everything written to stderr, by Python or by C++ through fd 2.

    Yields a list that holds the captured text (one string) once the block exits.
    """
    sink: list[str] = []
    sys.stderr.flush()
    with tempfile.TemporaryFile(mode="w+b") as tmp:
        saved_fd = os.dup(2)
        os.dup2(tmp.fileno(), 2)
        buffer = io.StringIO()
        try:
            with contextlib.redirect_stderr(buffer):
                yield sink
        finally:
            os.dup2(saved_fd, 2)
            os.close(saved_fd)
            tmp.seek(0)
            text = buffer.getvalue() + tmp.read().decode("utf-8", "replace")
            sink.append(text)

