"""One set of knobs: nbgrader_config.py's `c.Engine` and the grade command's flags set the same values."""
from pathlib import Path

from autograder import COURSE_ROOT
from autograder.engine.limits import Limits
from autograder.frontends.cli import parser
from autograder.frontends.settings import FLAGS, Engine, engine, load_config


def test_defaults_are_the_engines_limits():
    assert Engine().limits() == Limits()
    assert engine(load_config(COURSE_ROOT / "nbgrader_config.py")).limits() == Limits()


def test_config_file_then_flags(tmp_path: Path):
    config = tmp_path / "nbgrader_config.py"
    config.write_text("c = get_config()\nc.Engine.cell_timeout = 12\nc.Engine.memory_mb = 999\nc.Engine.jobs = 3\n")
    settings = engine(load_config(config), {"memory_mb": 1234, "jobs": None})
    assert (settings.cell_timeout, settings.memory_mb, settings.jobs) == (12, 1234, 3)
    assert settings.limits() == Limits(cell_timeout=12, memory_mb=1234)


def test_every_setting_has_a_flag_that_parses_to_it():
    argv = ["grade", "x.ipynb", "--out", "o", "--cell-timeout", "5", "--timeout", "50", "--memory-mb", "100",
            "--output-bytes", "1000", "--scratch-mb", "64", "--file-mb", "8", "--jobs", "4"]
    args = parser().parse_args(argv)
    assert {name: getattr(args, name) for name in FLAGS} == {
        "cell_timeout": 5.0, "notebook_timeout": 50.0, "memory_mb": 100, "output_bytes": 1000, "scratch_mb": 64,
        "file_mb": 8, "jobs": 4}
    assert set(FLAGS) | {"sandbox", "run_all"} == set(Engine.class_own_traits(config=True))  # store_true flags
