"""A parser for KEEL ``.dat`` files (the format of the KEEL data-set repository).

Grammar (keywords are case-insensitive; ``%`` starts a comment line)::

    @relation NAME
    @attribute NAME real|integer [MIN, MAX]     (the range is optional)
    @attribute NAME {value1, value2, ...}       (nominal)
    @inputs NAME, NAME, ...                     (optional: default all but the last attribute)
    @outputs NAME                               (optional: default the last attribute)
    @data
    v1, v2, ..., class
    ...

``?`` and ``<null>`` mark missing values. The single output is the class; a row whose class is
missing is an error (it cannot be used to train or to test).
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import RankwiseError

MISSING = {"?", "<null>"}


@dataclass
class KeelAttribute:
    name: str
    kind: str                      # "real", "integer" or "nominal"
    values: list = field(default_factory=list)   # nominal values
    bounds: tuple | None = None    # declared [min, max], if any


@dataclass
class KeelData:
    relation: str
    attributes: list
    inputs: list
    output: str
    X: pd.DataFrame                # inputs: floats for real/integer, strings for nominal
    y: np.ndarray                  # class labels (strings)

    @property
    def nominal(self) -> list:
        kinds = {a.name: a.kind for a in self.attributes}
        return [c for c in self.inputs if kinds[c] == "nominal"]


def _split_list(text: str) -> list:
    return [t.strip().strip("'\"") for t in next(csv.reader([text], skipinitialspace=True))
            if t.strip()]


_ATTR = re.compile(r"^@attribute\s+('[^']*'|\"[^\"]*\"|\S+)\s*(.*)$", re.IGNORECASE)


def parse_keel(text: str, where: str = "KEEL file") -> KeelData:
    """Parse the text of a KEEL ``.dat`` file; errors name the line and what to fix."""
    relation = None
    attributes: list[KeelAttribute] = []
    inputs = outputs = None
    rows = []
    in_data = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("%"):
            continue
        here = f"{where}, line {number}"
        if in_data:
            rows.append((number, line))
            continue
        lower = line.lower()
        if lower.startswith("@relation"):
            relation = line[len("@relation"):].strip().strip("'\"")
        elif lower.startswith("@attribute"):
            attributes.append(_parse_attribute(line, here))
        elif lower.startswith("@inputs"):
            inputs = _split_list(line[len("@inputs"):])
        elif lower.startswith("@outputs") or lower.startswith("@output"):
            outputs = _split_list(line.split(None, 1)[1] if " " in line else "")
        elif lower.startswith("@data"):
            in_data = True
        else:
            raise RankwiseError(f"{here}: expected @relation, @attribute, @inputs, @outputs or"
                                f" @data before the data, found {line[:40]!r}")
    if not attributes:
        raise RankwiseError(f"{where}: no @attribute declarations; is this a KEEL .dat file?")
    if not in_data:
        raise RankwiseError(f"{where}: no @data section")
    names = [a.name for a in attributes]
    by_name = {a.name: a for a in attributes}
    if outputs is None:
        outputs = [names[-1]]
    if inputs is None:
        inputs = [n for n in names if n not in outputs]
    for declared in inputs + outputs:
        if declared not in by_name:
            raise RankwiseError(f"{where}: @inputs/@outputs names {declared!r}, which no @attribute"
                                " declares")
    if len(outputs) != 1:
        raise RankwiseError(f"{where}: exactly one output (the class) is supported; found"
                            f" {len(outputs)}")
    if not rows:
        raise RankwiseError(f"{where}: the @data section is empty")
    columns = {n: [] for n in names}
    for number, line in rows:
        fields = [f.strip() for f in next(csv.reader([line], skipinitialspace=True))]
        if len(fields) != len(names):
            raise RankwiseError(f"{where}, line {number}: {len(fields)} values but {len(names)}"
                                " attributes are declared")
        for attr, value in zip(attributes, fields):
            columns[attr.name].append(_parse_value(attr, value, f"{where}, line {number}"))
    output = outputs[0]
    y = columns[output]
    missing_class = [number for (number, _), v in zip(rows, y) if v is None]
    if missing_class:
        raise RankwiseError(f"{where}, line {missing_class[0]}: the class ({output}) is missing;"
                            " remove the row or give its class")
    frame = pd.DataFrame({n: pd.Series(columns[n], dtype=float if by_name[n].kind != "nominal"
                                       else object) for n in inputs})
    return KeelData(relation or Path(where).stem, attributes, inputs, output, frame,
                    np.array([str(v) for v in y], dtype=object))


def _parse_attribute(line: str, here: str) -> KeelAttribute:
    m = _ATTR.match(line)
    if not m:
        raise RankwiseError(f"{here}: cannot read the @attribute declaration")
    name, rest = m.group(1).strip("'\""), m.group(2).strip()
    if rest.startswith("{"):
        if not rest.endswith("}"):
            raise RankwiseError(f"{here}: nominal values of {name!r} must end with '}}'")
        values = _split_list(rest[1:-1])
        if not values:
            raise RankwiseError(f"{here}: the nominal attribute {name!r} has no values")
        return KeelAttribute(name, "nominal", values=values)
    kind_match = re.match(r"^(real|integer)\s*(\[(.*)\])?\s*$", rest, re.IGNORECASE)
    if not kind_match:
        raise RankwiseError(f"{here}: unknown type {rest!r} for attribute {name!r}; use real,"
                            " integer (optionally with [min, max]) or {values}")
    bounds = None
    if kind_match.group(3) is not None:
        try:
            lo, hi = (float(v) for v in kind_match.group(3).split(","))
        except ValueError:
            raise RankwiseError(f"{here}: the range of {name!r} must be [min, max]") from None
        bounds = (lo, hi)
    return KeelAttribute(name, kind_match.group(1).lower(), bounds=bounds)


def _parse_value(attr: KeelAttribute, value: str, here: str):
    if value in MISSING or value.lower() == "<null>":
        return None
    value = value.strip("'\"")
    if attr.kind == "nominal":
        if value not in attr.values:
            raise RankwiseError(f"{here}: {value!r} is not one of the declared values of"
                                f" {attr.name!r} ({', '.join(attr.values)})")
        return value
    try:
        number = float(value)
    except ValueError:
        raise RankwiseError(f"{here}: {value!r} is not a number (attribute {attr.name!r} is"
                            f" {attr.kind})") from None
    if attr.kind == "integer" and not number.is_integer():
        raise RankwiseError(f"{here}: {value!r} is not an integer (attribute {attr.name!r})")
    return number


def read_keel(path) -> KeelData:
    path = Path(path)
    if not path.exists():
        raise RankwiseError(f"{path}: no such KEEL file")
    try:
        text = path.read_text(encoding="utf-8", errors="strict")
    except UnicodeDecodeError:
        text = path.read_text(encoding="latin-1")
    return parse_keel(text, str(path))
