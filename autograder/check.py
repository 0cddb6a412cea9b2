"""The check cells' public name: `from autograder.check import Checker` (see `autograder.frontends.check`).

Released notebooks import it under this name, so it stays here while the front end lives with the others.
"""
from autograder.frontends.check import Checker

__all__ = ["Checker"]
