"""Text that came from a submission (a folder's name, an exception's type, a value it returned),
made safe to write where a line means something: `.txt` feedback, the terminal, `grades.csv`.

A student controls such text, so a newline in it could forge a "PASS" line in feedback, and an
escape sequence could rewrite the instructor's terminal. `one_line` shows every control or format
character (C0, C1, DEL, bidi overrides, zero-width marks) as a visible escape instead, so what the
student wrote stays readable and can never act. HTML is escaped where HTML is written.
"""
from __future__ import annotations

import unicodedata
from typing import Any

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _shown(char: str) -> str:
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def one_line(value: Any) -> str:
    """`value` as text on one line: control and format characters (category Cc, Cf, and the line
    and paragraph separators) written as escapes like `\\x1b`, `\\n`, `\\u202e`."""
    text = str(value)
    if text.isprintable():  # the common case, fast: no character to escape
        return text
    return "".join(_shown(c) if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") else c for c in text)
