"""Front ends of the grading engine that need a framework of their own (nbgrader's preprocessors).

`settings.Engine` holds the engine's knobs as traitlets, shared by `nbgrader_config.py` and the
command line; `nbgrader` has the preprocessors `nbgrader autograde` runs in place of its own.
"""
