"""The course content: each lesson's exercises and checks (`lessons`, with its probes in
`autograder.inkernel.probes`, since they run in the student's kernel), its hidden cases
(`hidden`, instructor only), the public expected values the check cells compare with
(`public_expected/`), and the vocabulary they are written in (`spec`, `compare`).

May import: itself and the probes it names (`autograder.inkernel.probes`, `autograder.inkernel.probing`).
"""
from pathlib import Path


def public_expected_path(assignment: str) -> Path:
    """Where the public expected values of `assignment` live (shipped with the package)."""
    return Path(__file__).parent / "public_expected" / f"{assignment}.json"
