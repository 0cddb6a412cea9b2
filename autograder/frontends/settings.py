"""The grading engine's knobs, one set for every front end.

`Engine` is a traitlets configurable, like nbgrader's own steps: `nbgrader_config.py` sets it
(`c.Engine.cell_timeout = 60`), the nbgrader preprocessor reads it, and `python -m autograder
grade` reads the same file and then lets its flags (`FLAGS`) override single values.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from traitlets import Bool, Float, Integer
from traitlets.config import Config, Configurable, PyFileConfigLoader

from autograder.engine.limits import Limits

DEFAULTS = Limits()


class Engine(Configurable):
    """Limits on each graded kernel, whether to sandbox it, and how many to grade at once."""

    cell_timeout = Float(DEFAULTS.cell_timeout, help="Seconds one cell may run.").tag(config=True)
    notebook_timeout = Float(DEFAULTS.notebook_timeout, help="Seconds one notebook may run.").tag(config=True)
    memory_mb = Integer(DEFAULTS.memory_mb,
                        help="Memory one kernel may hold, its child processes included (MB).").tag(config=True)
    output_bytes = Integer(DEFAULTS.output_bytes, help="Output kept per cell (bytes).").tag(config=True)
    scratch_mb = Integer(DEFAULTS.scratch_mb, help="Size of each kernel's private scratch tmpfs (MB).").tag(config=True)
    file_mb = Integer(DEFAULTS.file_mb, help="Largest file a kernel may write (MB).").tag(config=True)
    sandbox = Bool(DEFAULTS.sandbox, help=(
        "Run each kernel in bubblewrap. False grades with process isolation only: a submission can then "
        "read and change what the grader can. With True, grading refuses to run where bubblewrap "
        "cannot build a sandbox.")).tag(config=True)
    run_all = Bool(DEFAULTS.run_all, help=(
        "Run every cell of a submission. By default only the cells its grade depends on run: the setup "
        "cell, the cells the student wrote or changed, the exercise cells and the unchanged cells whose "
        "definitions those read; the verdicts are the same either way.")).tag(config=True)
    jobs = Integer(1, help=(
        "Submissions graded at once by `python -m autograder grade`. `nbgrader autograde` grades "
        "its notebooks one after another, whatever this says.")).tag(config=True)

    def limits(self) -> Limits:
        """The `Limits` these settings describe."""
        return Limits(self.cell_timeout, self.notebook_timeout, self.memory_mb, self.output_bytes, self.sandbox,
                      self.scratch_mb, self.file_mb, self.run_all)


# The command line's flag for each setting (`python -m autograder grade --cell-timeout 60`).
FLAGS = {"cell_timeout": "--cell-timeout", "notebook_timeout": "--timeout", "memory_mb": "--memory-mb",
         "output_bytes": "--output-bytes", "scratch_mb": "--scratch-mb", "file_mb": "--file-mb", "jobs": "--jobs"}


def load_config(path: Path | None) -> Config:
    """The configuration in an nbgrader-style config file (`c = get_config()`), or an empty one."""
    if path is None or not path.is_file():
        return Config()
    return PyFileConfigLoader(path.name, str(path.parent.resolve())).load_config()


def engine(config: Config | None = None, overrides: Mapping[str, Any] | None = None) -> Engine:
    """Settings from `config` (its `Engine` section), then `overrides` (None values ignored)."""
    merged = Config(config or {})
    merged.merge(Config({"Engine": {k: v for k, v in (overrides or {}).items() if v is not None}}))
    return Engine(config=merged)
