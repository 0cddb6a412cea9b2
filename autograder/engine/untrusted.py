"""Read what a graded kernel could have written, without trusting it.

A kernel can replace a file it can reach with a symlink to a host file, a FIFO that blocks for
ever, or something huge. So: never follow a symlink, accept only a regular file, never block, and
never read more than asked. And text a kernel sent (an exception's name, a device's) is capped; an
exception raised on a hidden case is never named (`exception_name`); text a submission
controls is written on one line (`one_line`). Pure text and stat calls: the check cells' judge uses
it too, so it ships in the student bundle.
"""
from __future__ import annotations

import os
import stat
import unicodedata
from pathlib import Path
from typing import Any, Iterable


def read_tail(path: Path, max_bytes: int = 4096, end: int | None = None) -> str | None:
    """At most the last `max_bytes` before offset `end` (default: the end) of the regular file at
    `path`, decoded leniently; None when it is missing, a symlink, or not a regular file."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None
        stop = info.st_size if end is None else min(end, info.st_size)
        start = max(0, stop - max_bytes)
        return os.pread(fd, stop - start, start).decode("utf-8", "replace")
    finally:
        os.close(fd)


def size_of(path: Path) -> int:
    """The size of the regular file at `path` (0 when it is missing or anything else)."""
    try:
        info = os.lstat(path)
    except OSError:
        return 0
    return info.st_size if stat.S_ISREG(info.st_mode) else 0


# What feedback says of an exception raised while hidden inputs were in play. Even a built-in type
# can be chosen by a hidden value (`raise [ValueError, KeyError, ...][int(x * 10)]`): a few bits of
# the input per exercise. So only the names the grader itself gives are shown.
UNNAMED_EXCEPTION = "an exception (its type and message stay hidden: they came while hidden inputs were in play)"


def exception_name(name: object, also: Iterable[str] = ()) -> str:
    """`name` when it is one of `also`, names the grader itself gives (a time limit, a missing
    definition), else `UNNAMED_EXCEPTION`: never a name the kernel chose."""
    if isinstance(name, str) and name in also:
        return name
    return UNNAMED_EXCEPTION


def capped(text: object, limit: int) -> str:
    """`text` as a string of at most `limit` characters: for any text that came from a kernel."""
    text = str(text)
    return text if len(text) <= limit else text[:max(0, limit - 3)] + "..."


# Text a submission controls (a folder's name, an exception's type, a value it returned), written
# where a line means something (`.txt` feedback, the terminal, `grades.csv`): a newline in it could
# forge a "PASS" line, an escape sequence rewrite the instructor's terminal. `one_line` shows every
# control or format character (C0, C1, DEL, bidi overrides, zero-width marks) as a visible escape,
# so what the student wrote stays readable and can never act. HTML is escaped where HTML is written.
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
