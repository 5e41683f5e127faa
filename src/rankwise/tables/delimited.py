"""The one opener of delimited text under every reader: score tables, curves, scored items and
published boards.

:func:`read_delimited` takes a path or the file's bytes and returns its rows as a DataFrame:
the separator by the suffix (``.tsv``/``.tab``: a tab) or the first line (tabs and no commas:
a tab; semicolons and no commas: ``;``; else a comma) unless ``sep`` is given; the decimal mark
a comma when a ``;``-separated file writes its numbers so, unless ``decimal`` is given; a
Markdown (pipe) table as READMEs and ``DataFrame.to_markdown`` print it; ARFF. What it sniffed
is said in ``notes``. Every mistake (no such file, not UTF-8, a JSON or experiment file,
control characters, a record with the wrong number of fields, a nameless or repeated column)
is one line. ``text`` says which columns stay text: ``"table"`` (a score table's rule: every
column of a long table but ``value``, a wide table's first), ``"all"`` (a board as printed, whose
decimals are counted) or ``"infer"`` (pandas' own types, for curves and items).
"""

from __future__ import annotations

import csv
import io
import os
import re
from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import RankwiseError
from ..names import DECIMAL_MARKS
from .arff import looks_like_arff, read_arff
from .cells import NA_SPELLINGS

#: Which columns stay text (see the module's docstring).
TEXT_MODES = ("table", "all", "infer")


def looks_long(columns) -> bool:
    """A table with ``learner`` and ``value`` columns (any case) is long."""
    return {"learner", "value"} <= {str(c).strip().lower() for c in columns}


def read_delimited(source, *, sep: str | None = None, decimal: str | None = None,
                   text: str = "table", notes: list | None = None,
                   label: str | None = None, suffix: str = "") -> pd.DataFrame:
    """The rows of a delimited text file (a path, or its bytes named by ``label``) as a
    DataFrame; what was sniffed from the file is appended to ``notes``.

    Examples
    --------
    >>> from rankwise.tables.delimited import read_delimited
    >>> notes = []
    >>> read_delimited(b"learner;problem;value\\nA;p;0,5\\n", text="infer",
    ...                notes=notes)["value"].tolist()
    [0.5]
    >>> notes
    ["Read with ';' as the separator and ',' as the decimal mark, sniffed from the file (--sep and --decimal set them)."]
    """
    if text not in TEXT_MODES:
        raise ValueError(f"text must be one of {', '.join(TEXT_MODES)}")
    if decimal is not None and decimal not in DECIMAL_MARKS:
        raise RankwiseError(f"decimal must be '.' or ','; got {decimal!r}")
    if sep is not None and (not isinstance(sep, str) or len(sep) != 1 or sep in "\"\r\n"):
        raise RankwiseError(f"sep must be one character (',', ';', a tab...); got {sep!r}")
    data, label, suffix = _bytes(source, label, suffix)
    frame, sniffed = _read_text(data, label, suffix.lower(), sep, decimal, text)
    if sniffed and notes is not None:
        notes.append(f"Read with {' and '.join(sniffed)}, sniffed from the file (--sep and"
                     " --decimal set them).")
    return frame


def read_header(path, sep: str | None = None) -> list:
    """The column names of a delimited file's first line, by the separator
    :func:`read_delimited` would take (``[]`` for a file it cannot read)."""
    p = Path(path)
    try:
        with open(p, "rb") as fh:
            first = _first_line(fh.read(1 << 16).decode("utf-8-sig"))
    except (OSError, UnicodeDecodeError):
        return []
    if first.startswith("|"):
        return [c.strip() for c in first.strip("|").split("|")]
    sep = sep or _sniffed_separator(first, p.suffix.lower())
    return [c.strip().strip('"') for c in first.split(sep)]


def _bytes(source, label, suffix) -> tuple:
    """``(data, label, suffix)`` of a path or of bytes."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source), label or "<bytes>", suffix
    path = Path(os.fspath(source))
    if not path.exists():
        raise RankwiseError(f"{path}: no such file")
    if path.is_dir():
        raise RankwiseError(f"{path}: is a folder, expected a CSV or TSV file")
    try:
        return path.read_bytes(), label or str(path), suffix or path.suffix
    except OSError as exc:
        raise RankwiseError(f"{path}: cannot read it ({exc.strerror})") from None


def _sniffed_separator(first: str, suffix: str) -> str:
    tabbed = suffix in (".tsv", ".tab") or ("\t" in first and "," not in first)
    semicolons = not tabbed and ";" in first and "," not in first
    return "\t" if tabbed else ";" if semicolons else ","


def _first_text(data: bytes, path) -> tuple:
    """``(text or None, first line)``: ASCII is valid UTF-8, so only other files are decoded
    now (the plain path never needs the whole text, which would be another copy of the file)."""
    try:
        text = None if data.isascii() else data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise RankwiseError(f"{path}: not a UTF-8 text file (expected CSV or TSV)") from None
    head = data.rfind(b"\n", 0, 1 << 16) if text is None else -1
    first = _first_line(data[:head].decode("ascii")) if head > 0 else ""
    if not first:
        text = data.decode("utf-8-sig") if text is None else text
        first = _first_line(text)
    if not first:
        raise RankwiseError(f"{path}: the file is empty")
    return text, first


def _not_a_table(path, suffix: str, first: str) -> None:
    if suffix == ".toml" or first in ("[experiment]", "[[datasets]]", "[[learners]]"):
        raise RankwiseError(f"{path}: is an experiment file, not a table of results; run it with"
                            f" rankwise run {path} --results RESULTS.sqlite, then compare"
                            " RESULTS.sqlite")
    if suffix == ".json" or first.lstrip().startswith(("{", "[{", "[[")):
        raise RankwiseError(f"{path}: a JSON file; rankwise reads tables as CSV or TSV (or a"
                            " results database); a rankwise JSON report is an output, not an"
                            " input, and pandas' DataFrame.to_csv writes a table it reads")


def _read_text(data: bytes, path, suffix: str, sep, decimal, mode: str) -> tuple:
    """``(frame, what was sniffed)``."""
    text, first = _first_text(data, path)
    _not_a_table(path, suffix, first)
    if looks_like_arff(first, suffix):
        text = data.decode("utf-8-sig") if text is None else text
        return read_arff(text, str(path)), []
    lines = _Lines(data)
    _check_characters(data, lines, path)
    if first.startswith("|") and sep is None:
        frame = pipe_table(data.decode("utf-8-sig") if text is None else text, path)
        return (_inferred(frame) if mode == "infer" else frame), []
    sniffed = []
    if sep is None:
        sep = _sniffed_separator(first, suffix)
        if sep == ";":
            sniffed.append("';' as the separator")
    if decimal is None:
        decimal = "."
        if sep == ";" and _DECIMAL_COMMA.search(data[:1 << 20]):
            decimal = ","
            sniffed.append("',' as the decimal mark")
    if decimal == "," and sep == ",":
        raise RankwiseError(f"{path}: a decimal comma needs another separator (--sep ';')")
    if mode == "infer":
        return _read_inferred(data, sep, path, decimal), sniffed
    if b'"' not in data and (lines.longest() <= MAX_CELL
                             or _longest_field(lines.raw, sep) <= MAX_CELL):
        frame = _read_plain(data, lines, sep, path, decimal, mode)
    else:
        frame = _read_quoted(data.decode("utf-8-sig") if text is None else text, sep, path,
                             decimal)
    return frame, sniffed


def _read_inferred(data: bytes, sep: str, path, decimal: str) -> pd.DataFrame:
    """pandas' own parser and types (curves and items read their labels and numbers so)."""
    try:
        return pd.read_csv(io.BytesIO(data), sep=sep, decimal=decimal, encoding="utf-8-sig")
    except (ValueError, pd.errors.ParserError, csv.Error) as exc:
        message = str(exc).strip().splitlines()[-1] if str(exc).strip() else \
            type(exc).__name__
        raise RankwiseError(f"{path}: cannot be read as a table ({message}); check the"
                            " separator and the quoting") from None


def _inferred(frame: pd.DataFrame) -> pd.DataFrame:
    """Text cells that are all numbers as numbers (a pipe table read with ``text="infer"``)."""
    out = frame.copy()
    for col in out.columns:
        numbers = pd.to_numeric(out[col], errors="coerce")
        if numbers.notna().all():
            out[col] = numbers
    return out


#: A cell of a Markdown table's rule row: ``---``, ``:--``, ``--:``, ``:-:``.
_RULE = re.compile(r"^:?-+:?$")


def pipe_table(text: str, path) -> pd.DataFrame:
    """A table printed as Markdown (pipe) text, as READMEs and ``DataFrame.to_markdown`` write
    it: the cells between ``|`` as text, the rule row left out."""
    rows = [(number, [cell.strip() for cell in line.strip().strip("|").split("|")])
            for number, line in enumerate(text.splitlines(), start=1) if line.strip()]
    rows = [(n, row) for n, row in rows if not all(_RULE.match(cell) for cell in row)]
    if not rows:
        raise RankwiseError(f"{path}: a Markdown table with no header and no rows; give its"
                            " header row and a row per line")
    header = rows[0][1]
    for number, row in rows[1:]:
        if len(row) != len(header):
            raise RankwiseError(f"{path}: line {number} of the Markdown table has {len(row)}"
                                f" cells, its header {len(header)}; give every row a cell per"
                                " column")
    return pd.DataFrame([row for _, row in rows[1:]], columns=header, dtype=str)


#: The longest cell a table may have (a learner or data-set name, a number).
MAX_CELL = 1000
_CHARACTER_NAMES = {"\x0c": "a form feed", "\x0b": "a vertical tab", "\x00": "a NUL byte",
                    "\x85": "a next-line character (U+0085)",
                    "\u2028": "a line separator (U+2028)", "\u2029": "a paragraph separator (U+2029)"}



#: A cell of a semicolon-separated file that is a number with a decimal comma: 0,25 or -1,5e-3.
_DECIMAL_COMMA = re.compile(rb'(?:^|;)\s*"?-?\d+,\d+(?:[eE][-+]?\d+)?"?\s*(?=;|\r?$)', re.M)


def _first_line(text: str) -> str:
    """The first line that is not blank, stripped ("" if there is none)."""
    start = 0
    while start <= len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        line = text[start:end].strip()
        if line:
            return line
        start = end + 1
    return ""


class _Lines:
    """Where each physical line of a file starts and ends, found at once on the raw bytes."""

    def __init__(self, data: bytes):
        self.raw = np.frombuffer(data, dtype=np.uint8)
        # One pass finds every byte below 32 (line feeds among them, and what the character
        # check needs); the line ends are the line feeds among those few positions.
        where = np.flatnonzero(self.raw < 32)
        self.low = self.raw[where]
        ends = where[self.low == 10]
        if self.raw.size and self.raw[-1] != 10:
            ends = np.append(ends, self.raw.size)
        self.ends = ends
        self.starts = np.concatenate([[0], ends[:-1] + 1]).astype(ends.dtype)

    def line_of(self, offset: int) -> int:
        """The 1-based line number of a byte offset."""
        return int(np.searchsorted(self.ends, offset, side="left")) + 1

    def longest(self) -> int:
        return int((self.ends - self.starts).max()) if self.ends.size else 0

    def count(self, byte: int) -> np.ndarray:
        """How often ``byte`` occurs on each line."""
        where = np.flatnonzero(self.raw == byte)
        return np.searchsorted(where, self.ends) - np.searchsorted(where, self.starts)


def _check_characters(data: bytes, lines: _Lines, path) -> None:
    """Control characters and Unicode line breaks have no place in a table (tab, LF and CR
    excepted): they break the reports that print the names."""
    raw = lines.raw
    # The usual case, proved at once: every byte below 32 is a tab, LF or CR, there is no DEL,
    # and the text is ASCII (so it has none of the multi-byte line breaks).
    low = lines.low
    if b"\x7f" not in data and data.isascii() and np.isin(low, (9, 10, 13)).all():
        return
    control = np.flatnonzero(((raw < 32) & (raw != 9) & (raw != 10) & (raw != 13)) | (raw == 127))
    found = []
    if control.size:
        found.append((int(control[0]), chr(raw[control[0]])))
    for char, encoded in (("\x85", b"\xc2\x85"), ("\u2028", b"\xe2\x80\xa8"),
                          ("\u2029", b"\xe2\x80\xa9")):
        at = data.find(encoded)
        if at >= 0:
            found.append((at, char))
    if found:
        offset, char = min(found)
        what = _CHARACTER_NAMES.get(char, f"the control character U+{ord(char):04X}")
        raise RankwiseError(f"{path}: line {lines.line_of(offset)} contains {what}; a table holds"
                            " plain text and numbers, so remove it")


def _longest_field(raw: np.ndarray, sep: str) -> int:
    """The longest run of bytes between separators and line ends (a wide table of a thousand
    learners has long lines of short cells, which the parser reads as well as short lines)."""
    ends = np.flatnonzero((raw == ord(sep)) | (raw == 10) | (raw == 13))
    if not ends.size:
        return int(raw.size)
    bounds = np.concatenate([[-1], ends, [raw.size]])
    return int((np.diff(bounds) - 1).max())


def _read_plain(data: bytes, lines: _Lines, sep: str, path, decimal: str = ".",
                text: str = "table") -> pd.DataFrame:
    """No quotes and no cell longer than ``MAX_CELL``: one record per line, read by pandas' C
    parser (numbers without a string round trip). Every record must have the header's number
    of fields."""
    raw, starts, ends = lines.raw, lines.starts, lines.ends
    last = raw[np.maximum(ends - 1, 0)]
    lengths = ends - starts - ((last == 13) & (ends > starts))  # without the CR of a CRLF
    records = np.flatnonzero(lengths > 0)
    first = records[0]
    head = raw[starts[first]:starts[first] + lengths[first]].tobytes().decode("utf-8-sig")
    header = [h.strip() for h in head.split(sep)]
    check_header(header, str(path))
    width = len(header)
    # The field counts are proved at once when the file holds exactly width − 1 separators per
    # record: the parser refuses a record with too many fields (or, if it is the first, makes an
    # index of it, which is checked below), and no record can have too few without another
    # having too many. Otherwise the records are counted one by one.
    blanks = None
    if np.count_nonzero(raw == ord(sep)) != (width - 1) * records.size:
        blanks = _wrong_field_counts(lines, records, lengths, sep, width, path)
    is_long = looks_long(header) or text == "all"
    if text == "all":
        text_columns = list(range(width))
    elif is_long:  # every column but the values is text
        text_columns = [i for i, h in enumerate(header) if h.lower() != "value"]
    else:  # wide: the data-set names
        text_columns = [0]
    numeric = [i for i in range(width) if i not in text_columns]
    source = io.BytesIO(data) if blanks is None or not blanks.size else io.StringIO(
        "\n".join(line for line in data.decode("utf-8-sig").split("\n") if line.strip()))
    # No skipinitialspace: the parser reads " 0.5" as a number anyway, names are stripped
    # later, and a padded missing-value token (" NA") sends its column to the text path, which
    # strips it.
    options = dict(sep=sep, header=0, names=list(range(width)), encoding="utf-8-sig",
                   skip_blank_lines=True, keep_default_na=False, decimal=decimal)
    # The text columns of a long table are read as text. The data-set names of a wide table are
    # left to the parser, which keeps a column of names as the very strings of the file; only a
    # column it turned into numbers or booleans ("007" → 7) is read again as text.
    # A wide table's missing-value spellings are given once for every column (a dict of ten
    # thousand columns costs the parser seconds); the names' column, if it took one of them
    # for a missing value, is read again as text below.
    na_values = {i: NA_SPELLINGS for i in numeric} if is_long else list(NA_SPELLINGS)
    try:
        frame = pd.read_csv(source, dtype={i: str for i in text_columns} if is_long else None,
                            na_values=na_values, **options)
        if not is_long and (frame[0].dtype.kind in "biufcmM" or frame[0].isna().any()):
            source.seek(0)
            frame[0] = pd.read_csv(source, usecols=[0], dtype={0: str}, **options)[0]
    except (pd.errors.ParserError, ValueError) as exc:  # wrong field counts, named below
        _wrong_field_counts(lines, records, lengths, sep, width, path)
        raise RankwiseError(f"{path}: {str(exc).strip().splitlines()[-1]}; check the separator"
                            " and the quoting") from None
    if not isinstance(frame.index, pd.RangeIndex):
        _wrong_field_counts(lines, records, lengths, sep, width, path)
    frame.columns = header
    return frame


def _wrong_field_counts(lines: _Lines, records, lengths, sep: str, width: int, path):
    """Count the fields of every record: an error names the first line whose count differs
    from the header's; lines of spaces (returned) are blank."""
    raw, starts = lines.raw, lines.starts
    counts = lines.count(ord(sep)) + 1
    wrong = records[counts[records] != width]
    for line in wrong:
        if raw[starts[line]:starts[line] + lengths[line]].tobytes().strip():
            raise RankwiseError(f"{path}: line {line + 1} has {counts[line]} fields but the"
                                f" header has {width}; check the separator and the quoting")
    return wrong


def _read_quoted(text: str, sep: str, path, decimal: str = ".") -> pd.DataFrame:
    """Quoted fields (which may hold separators and newlines) or long lines: a record at a
    time, every record's field count checked (the length of the cells rankwise reads is
    checked where they are read: a long message in a column it never reads is no error)."""
    reader = csv.reader(io.StringIO(text), delimiter=sep, skipinitialspace=True)
    rows = []
    # The csv module's field limit is global and other libraries change it: parse with a high
    # limit, restore it, and apply this reader's own rule on cell length.
    limit = csv.field_size_limit(2 ** 31 - 1)
    try:
        for fields in reader:
            if not any(f.strip() for f in fields):
                continue  # a blank line
            if rows and len(fields) != len(rows[0]):
                raise RankwiseError(f"{path}: line {reader.line_num} has {len(fields)} fields but"
                                    f" the header has {len(rows[0])}; check the separator and the"
                                    " quoting")
            rows.append(fields)
    except csv.Error as exc:
        raise RankwiseError(f"{path}: line {reader.line_num}: {exc}; check the quoting") from None
    finally:
        csv.field_size_limit(limit)
    header = [h.strip() for h in rows[0]]
    check_header(header, str(path))
    frame = pd.DataFrame(rows[1:], columns=header, dtype=object) if len(rows) > 1 else \
        pd.DataFrame(columns=header, dtype=object)
    frame = frame.apply(lambda col: col.str.strip()) if len(frame) else frame
    if decimal == ",":  # cells that are numbers with a decimal comma become 0.25 etc.
        frame = frame.apply(lambda col: col.where(~col.str.fullmatch(_COMMA_NUMBER),
                                                  col.str.replace(",", ".", regex=False)))
    return frame


_COMMA_NUMBER = r"-?\d+,\d+(?:[eE][-+]?\d+)?"


def check_header(header, where: str):
    """Every column named (but an R row-names column first), each name once."""
    seen = set()
    for i, h in enumerate(header):
        if not h and i == 0 and len(header) > 1:
            continue  # R's row names (write.csv): see _row_names
        if not h:
            raise RankwiseError(f"{where}: column {i + 1} has no name in the header row")
        if h in seen:
            raise RankwiseError(f"{where}: column name {h!r} appears twice in the header; give"
                                " every learner a unique name")
        seen.add(h)
