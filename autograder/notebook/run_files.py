"""What a training run left on disk, read back for lesson 05's demos.

    checkpoint_steps(directory)     # steps the `checkpoint` state file lists, oldest first
    checkpoints_on_disk(directory)  # steps whose .index file exists, whatever the state file says
    read_events(path)               # {tag: {step: summary value}} of one event file

The two checkpoint lists differ when a Saver's bookkeeping and the files part ways (a resumed
process, `write_state=False`, two Savers in one directory): lesson 05 shows each case.
"""
from __future__ import annotations

import os

import tensorflow as tf

tf1 = tf.compat.v1


def checkpoint_steps(directory: str, latest_filename: str | None = None) -> list[int]:
    """Steps of the checkpoints that the state file of `directory` lists (oldest first)."""
    state = tf1.train.get_checkpoint_state(directory, latest_filename)
    return [int(path.rsplit("-", 1)[1]) for path in state.all_model_checkpoint_paths] if state else []


def checkpoints_on_disk(directory: str) -> list[int]:
    """Steps of the checkpoints whose files are in `directory`, whatever the state file says."""
    return sorted(int(name.rsplit("-", 1)[1].split(".")[0]) for name in os.listdir(directory)
                  if name.endswith(".index"))


def read_events(path: str) -> dict:
    """{tag: {step: value}} of the event file at `path`, read with `tf1.train.summary_iterator`.

    A scalar's value is its `simple_value`, a histogram's its `HistogramProto` (`min`, `max`, ...),
    an image's its `Summary.Image` (`height`, `width`, `encoded_image_string`: a PNG).
    """
    found: dict = {}
    for event in tf1.train.summary_iterator(path):
        for value in event.summary.value:
            kind = value.WhichOneof("value")
            found.setdefault(value.tag, {})[event.step] = getattr(value, kind)
    return found
