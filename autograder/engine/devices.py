"""One device per grading worker: each worker slot owns a GPU when there are any, else the CPU.

The grader itself never imports TensorFlow, so GPUs are found with `nvidia-smi -L` (or an explicit
`CUDA_VISIBLE_DEVICES`). A kernel sees only its slot's GPU, through `CUDA_VISIBLE_DEVICES`, and
starts with memory growth on (see `quiet.KERNEL_ENV`); it records the device it used.
"""
from __future__ import annotations

import contextlib
import os
import queue
import re
import shutil
import subprocess
from typing import Iterator


def visible_gpus() -> list[str]:
    """GPU indices this machine offers: `CUDA_VISIBLE_DEVICES` if set, else what nvidia-smi lists."""
    explicit = os.environ.get("CUDA_VISIBLE_DEVICES")
    if explicit is not None:
        return [d.strip() for d in explicit.split(",") if d.strip() and d.strip() != "-1"]
    smi = shutil.which("nvidia-smi")
    if not smi:
        return []
    try:
        listing = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.TimeoutExpired):
        return []
    return re.findall(r"^GPU (\d+):", listing, flags=re.MULTILINE)


class DeviceSlots:
    """A pool of `jobs` worker slots; slot i gets GPU i mod (number of GPUs), or the CPU."""

    def __init__(self, jobs: int, gpus: list[str] | None = None):
        gpus = visible_gpus() if gpus is None else gpus
        self._free: queue.Queue[dict[str, str]] = queue.Queue()
        for slot in range(max(1, jobs)):
            self._free.put({"CUDA_VISIBLE_DEVICES": gpus[slot % len(gpus)]} if gpus else {})

    @contextlib.contextmanager
    def slot(self) -> Iterator[dict[str, str]]:
        """Hold a slot while grading one submission; yields the environment that pins its device."""
        env = self._free.get()
        try:
            yield env
        finally:
            self._free.put(env)
