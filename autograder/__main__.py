"""`python -m autograder ...`: see `autograder.frontends.cli`."""
import sys

# jsonschema, which nbformat imports, loads `rfc3987_syntax` when it is installed (jupyter-events'
# `jsonschema[format-nongpl]` brings it) to check the "iri" string formats, and that module compiles
# a grammar as it is imported: 2 s of every grading run's start. Notebook schemas use no such format.
sys.modules.setdefault("rfc3987_syntax", None)

from autograder.frontends.cli import main  # noqa: E402

sys.exit(main())
