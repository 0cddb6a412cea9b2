"""Keep TensorFlow's log lines out of graded cells without hiding real errors.

nbgrader 0.9.6 gives zero points to a test cell with any stderr output, and TensorFlow logs to
stderr from C++ and from Python. Real errors still surface: they are exceptions, which become
error outputs; whatever was written to stderr meanwhile is relayed on stdout, labelled.

TF 2.21 also writes a few lines while it is imported, before absl's logging reads
`TF_CPP_MIN_LOG_LEVEL` (absl's "before InitializeLog" warning, the oneDNN and cudart notices),
and an `E0000 ... failed call to cuInit` line when it first looks for a GPU on a machine without
one. In a Jupyter kernel they show on red, and look like a failure to a student. So the first
import of `autograder.check` in a kernel imports TensorFlow and lists its GPUs with fd 2 captured,
drops exactly those known lines, and writes anything else back to stderr (`import_tensorflow_quietly`).
"""
from __future__ import annotations

import contextlib
import io
import logging
import os
import re
import sys
import tempfile
from typing import Iterator

# Hides C++ INFO and WARNING lines; keeps ERROR. Memory growth lets one GPU host several kernels.
KERNEL_ENV = {
    "TF_CPP_MIN_LOG_LEVEL": "2",
    "TF_FORCE_GPU_ALLOW_GROWTH": "true",
    "PYTHONWARNINGS": "ignore::DeprecationWarning",
}


# What TensorFlow 2.21 writes to fd 2 on import and on its first look for a GPU, whatever the log
# level: nothing here is ever a student's or a grader's problem on a CPU machine.
IMPORT_NOISE = re.compile("|".join((
    r"^WARNING: All log messages before absl::InitializeLog\(\) is called are written to STDERR$",
    r"^[IWE]\d{4} [\d:. ]+\d+ cudart_stub\.cc:\d+\] Could not find cuda drivers",
    r"^[IWE]\d{4} [\d:. ]+\d+ cuda_(platform|executor|diagnostics)\.cc:\d+\] .*(cuInit|kernel driver|CUDA_ERROR_NO_DEVICE)",
    r"oneDNN custom operations are on\.",
    r"^To turn them off, set the environment variable `TF_ENABLE_ONEDNN_OPTS=0`",
    r"Unable to register cu(DNN|FFT|BLAS) factory",
    r"computation placer already registered",
    r"This TensorFlow binary is optimized to use available CPU instructions",
    r"^To enable the following instructions: .* in other operations, rebuild TensorFlow",
)))


def quiet_environment() -> None:
    """Set the kernel environment variables, keeping any value the user chose; in a Jupyter kernel,
    also import TensorFlow without its import-time noise (see the module's docstring)."""
    for key, value in KERNEL_ENV.items():
        os.environ.setdefault(key, value)
    if "ipykernel" in sys.modules:
        import_tensorflow_quietly()


def without_import_noise(text: str) -> str:
    """`text` without TensorFlow's known import-time lines (`IMPORT_NOISE`), every other line kept."""
    return "".join(line for line in text.splitlines(keepends=True) if not IMPORT_NOISE.search(line.rstrip("\n")))


def import_tensorflow_quietly() -> None:
    """Import TensorFlow and list its GPUs (which calls cuInit once per process) with fd 2 captured;
    relay to stderr whatever was not known noise. Does nothing if TensorFlow is already imported."""
    if "tensorflow" in sys.modules:
        return
    with captured_stderr() as sink:
        try:
            import tensorflow as tf

            tf.config.list_physical_devices("GPU")
        except Exception:  # a broken install: the notebook's own `import tensorflow` shows the error
            pass
    rest = without_import_noise(sink[0])
    if rest:
        sys.stderr.write(rest)
        sys.stderr.flush()


def quiet_python_logging() -> None:
    """Raise TensorFlow's Python logger to ERROR (its deprecation notices are WARNING)."""
    logging.getLogger("tensorflow").setLevel(logging.ERROR)


MAX_CAPTURED = 64_000
"""The most of stderr `captured_stderr` keeps, in characters: a probe sends it with its observations,
which must stay far below the grader's message limit however much an exercise writes."""


class CappedText(io.TextIOBase):
    """A text sink that keeps the first `limit` characters written to it and drops the rest."""

    def __init__(self, limit: int):
        self.kept: list[str] = []
        self.room = limit

    def write(self, text: str) -> int:  # noqa: D102 (a stream's)
        if self.room > 0:
            self.kept.append(text[:self.room])
            self.room -= len(self.kept[-1])
        return len(text)

    def writable(self) -> bool:  # noqa: D102 (a stream's)
        return True

    def getvalue(self) -> str:
        """What was kept."""
        return "".join(self.kept)


@contextlib.contextmanager
def captured_stderr() -> Iterator[list[str]]:
    """Capture what is written to stderr, by Python or by C++ through fd 2, up to `MAX_CAPTURED`
    characters of each.

    Yields a list that holds the captured text (one string) once the block exits.
    """
    sink: list[str] = []
    sys.stderr.flush()
    with tempfile.TemporaryFile(mode="w+b") as tmp:
        saved_fd = os.dup(2)
        os.dup2(tmp.fileno(), 2)
        buffer = CappedText(MAX_CAPTURED)
        try:
            with contextlib.redirect_stderr(buffer):
                yield sink
        finally:
            os.dup2(saved_fd, 2)
            os.close(saved_fd)
            tmp.seek(0)
            text = buffer.getvalue() + tmp.read(MAX_CAPTURED).decode("utf-8", "replace")
            sink.append(text)

