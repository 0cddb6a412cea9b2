"""What makes two code cells the same code, and the Python IPython runs for a cell.

Light on purpose (no engine, no nbformat): the lean cut, the screen and the students' check cell
all use it.
"""
from __future__ import annotations

import functools
import io
import tokenize


@functools.lru_cache(maxsize=4096)
def code_key(source: str) -> tuple:
    """What makes two cells the same code: their tokens as IPython runs them, without white space,
    blank lines or comments (a cell that does not tokenize: its stripped lines). A released cell a
    student re-spaced or commented is still the course's: not read as theirs, not run for them."""
    try:
        tokens = tokenize.generate_tokens(io.StringIO(as_python(source)).readline)
        return tuple((t.type, t.string) for t in tokens if t.type not in _NOT_CODE)
    except (tokenize.TokenError, IndentationError, SyntaxError, ValueError):
        return tuple(line.strip() for line in source.splitlines() if line.strip())


_NOT_CODE = {tokenize.COMMENT, tokenize.NL, tokenize.ENCODING, tokenize.ENDMARKER}


def as_python(source: str) -> str:
    """The Python IPython runs for a cell's source (its own input transformers)."""
    from IPython.core.inputtransformer2 import TransformerManager

    return TransformerManager().transform_cell(source)
