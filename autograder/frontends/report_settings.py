"""The class report's knobs: how similar two submissions must be to be listed.

`Report` is a traitlets configurable like the engine's: `nbgrader_config.py` sets it
(`c.Report.threshold = 0.6`), and `python -m autograder report` reads the same file and lets its
flags (`FLAGS`) override single values. What each weighs is said in `similarity`.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from traitlets import Float
from traitlets.config import Config, Configurable


class Report(Configurable):
    """Cut-offs of the similarity pass (shares are fractions, matches are fingerprints' weight)."""

    threshold = Float(0.5, help="Share of one side's notebook code two submissions must have in common.").tag(config=True)
    min_match = Float(30.0, help="Fingerprints (about a token each) a notebook match must share to count.").tag(config=True)
    much = Float(120.0, help="Fingerprints shared that list a pair of notebooks whatever the share.").tag(config=True)
    exercise_threshold = Float(0.8, help="Share of both sides' code of one exercise that lists a pair.").tag(config=True)
    exercise_min_match = Float(8.0, help="Fingerprints' weight one exercise's match must share to count.").tag(config=True)
    exercise_min_length = Float(40.0, help=(
        "Fingerprints (about a token each) the common code of one exercise must span, whatever they weigh: "
        "shorter answers are too short to tell a copy from two students who found the same.")).tag(config=True)
    common_share = Float(0.35, help=(
        "Share of the class at which code is an idiom and weighs nothing (it weighs less from three "
        "students on); never fewer than three students.")).tag(config=True)
    rare_share = Float(0.1, help=(
        "Share of the class (never fewer than two students) up to which failing an exercise the same "
        "way is evidence.")).tag(config=True)
    leak_threshold = Float(0.7, help="Share of a submission's exercise code that is the solution's (and rare "
                                     "in the class) at which it is listed as close to the solution.").tag(config=True)


# The command line's flag for each setting (`python -m autograder report RESULTS --threshold 0.6`).
FLAGS = {name: "--" + name.replace("_", "-") for name in Report.class_trait_names(config=True)}


def report_settings(config_file: Path | None, overrides: Mapping[str, Any] | None = None) -> Report:
    """Settings from `config_file` (its `Report` section), then `overrides` (None values ignored)."""
    from autograder.frontends.settings import load_config

    merged = Config(load_config(config_file))
    merged.merge(Config({"Report": {k: v for k, v in (overrides or {}).items() if v is not None}}))
    return Report(config=merged)
