"""Names as text that cannot act: control characters made visible, spreadsheet formulas
defused. Every output format escapes names with :func:`visible` before its own escaping."""

from __future__ import annotations

import re

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t", "\x1b": "\\e"}
# C0 controls, DEL and the C1 controls (a terminal acts on ESC, CSI, OSC...), and the Unicode
# line and paragraph separators and bidirectional overrides, which reorder what a reader sees.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def visible(text) -> str:
    """``text`` with every control character shown as an escape (``\\e``, ``\\n``,
    ``\\x07``, ``\\u202e``), so that a name can neither move a terminal's cursor nor break a
    line, a table row or a code block."""
    def show(m):
        c = m.group(0)
        if c in _NAMED:
            return _NAMED[c]
        return f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}"

    return _CONTROL.sub(show, str(text))


def spreadsheet_safe(text) -> str:
    """A text cell that a spreadsheet will not run as a formula: a leading ``=``, ``+``,
    ``-``, ``@``, tab or carriage return gets a ``'`` in front (OWASP's rule for CSV)."""
    text = str(text)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def counted(n: int, word: str, plural: str | None = None) -> str:
    """``3 tasks``, ``1 task``: a count with its noun in the number it takes (``plural``: one
    that is not ``word + s``); every output words its counts with it.

    Examples
    --------
    >>> counted(1, "decimal"), counted(12, "decimal"), counted(1, "pair differs", "pairs differ")
    ('1 decimal', '12 decimals', '1 pair differs')
    """
    return f"{n:,} {word if n == 1 else (plural or word + 's')}"


def brief(exc, *paths, limit: int = 100) -> str:
    """A library's error, as the clause in brackets of a one-line message that has already
    named the file: whitespace folded, each of ``paths`` given as its file name (pyarrow
    names the whole path twice), and, past ``limit`` characters, only the last of its
    ``: ``-separated parts that fit (the library's most specific words: "no such table:
    tasks" after the SQL that failed), cut at a word if even the last is too long.

    Examples
    --------
    >>> brief(ValueError("Execution failed on sql 'SELECT dataset, repeat, fold, learner,"
    ...                  " status, error, warnings FROM tasks ORDER BY rowid': no such table:"
    ...                  " tasks"))
    '...no such table: tasks'
    >>> brief(OSError("Could not open Parquet input source '/tmp/a/t.parquet': bad footer"),
    ...       "/tmp/a/t.parquet")
    "Could not open Parquet input source 't.parquet': bad footer"
    """
    from pathlib import PurePath

    text = " ".join(str(exc).split()) or type(exc).__name__
    for path in paths:
        if str(path) and PurePath(path).name:
            text = text.replace(str(path), PurePath(path).name)
    if len(text) <= limit:
        return text
    parts = text.split(": ")
    for i in range(1, len(parts)):
        tail = ": ".join(parts[i:])
        if len(tail) + 3 <= limit:
            return "..." + tail
    return text[:limit - 3].rsplit(" ", 1)[0] + "..."
