"""ARFF files (WEKA's format) read as a frame of text cells, for the readers of :mod:`.sources`
(the export writes them: :mod:`rankwise.experiment.weka`).

Only what WEKA's Experimenter writes is read: a header of ``@attribute NAME TYPE`` lines and
dense ``@data`` rows of comma-separated values, quoted with ``'`` (or ``"``) and escaped with a
backslash; ``?`` is a missing value; ``%`` starts a comment. Sparse rows (``{...}``) are
refused with the reason.
"""

from __future__ import annotations

import csv

import pandas as pd

from ..errors import RankwiseError


def looks_like_arff(first_line: str, suffix: str) -> bool:
    return suffix.lower() == ".arff" or first_line.lstrip().lower().startswith("@relation")


def _attribute(line: str, label: str, number: int) -> tuple:
    """``(name, type)`` of an ``@attribute`` line; the type is ``numeric`` (also ``real`` and
    ``integer``), ``string``, ``date`` or ``nominal`` (a ``{...}`` list)."""
    rest = line.strip()[len("@attribute"):].strip()
    if not rest:
        raise RankwiseError(f"{label}: line {number}: an @attribute without a name")
    if rest[0] in "'\"":
        end = rest.find(rest[0], 1)
        while end > 0 and rest[end - 1] == "\\":
            end = rest.find(rest[0], end + 1)
        if end < 0:
            raise RankwiseError(f"{label}: line {number}: an attribute name's quote is not"
                                " closed")
        name, after = rest[1:end].replace("\\" + rest[0], rest[0]), rest[end + 1:]
    else:
        name = rest.split()[0]
        after = rest[len(name):]
    after = after.strip().lower()
    if after.startswith("{"):
        return name, "nominal"
    word = after.split()[0] if after else ""
    return name, "numeric" if word in ("numeric", "real", "integer") else word


def read_arff(text: str, label: str) -> pd.DataFrame:
    """The ARFF ``text`` as a frame: one column per attribute (text, ``?`` as missing), and the
    row numbers of the file in ``_row``."""
    lines = text.splitlines()
    names, start, types = [], None, {}
    for number, line in enumerate(lines, 1):
        low = line.strip().lower()
        if not low or low.startswith("%"):
            continue
        if low.startswith("@attribute"):
            name, declared = _attribute(line, label, number)
            names.append(name)
            types[name] = declared
        elif low.startswith("@data"):
            start = number
            break
        elif not low.startswith("@relation"):
            raise RankwiseError(f"{label}: line {number} is neither @relation, @attribute nor"
                                " @data; not an ARFF header")
    if start is None or not names:
        raise RankwiseError(f"{label}: an ARFF file needs @attribute lines and @data")
    rows, numbers = [], []
    body = [(n, line) for n, line in enumerate(lines[start:], start + 1)
            if line.strip() and not line.lstrip().startswith("%")]
    for (number, line), cells in zip(body, csv.reader(
            (line for _, line in body), quotechar="'", escapechar="\\",
            skipinitialspace=True)):
        if line.lstrip().startswith("{"):
            raise RankwiseError(f"{label}: line {number} is a sparse ARFF row; rankwise reads"
                                " the dense rows WEKA's Experimenter writes")
        if len(cells) != len(names):
            raise RankwiseError(f"{label}: line {number} has {len(cells)} values for"
                                f" {len(names)} attributes")
        rows.append(cells)
        numbers.append(number)
    frame = pd.DataFrame(rows, columns=names, dtype=object)
    frame = frame.mask(frame == "?")
    frame["_row"] = numbers
    frame.attrs["arff_types"] = types   # what the header declares, as WEKA reads it
    return frame
