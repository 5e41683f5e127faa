"""JSON text of plain data, the same bytes as ``json.dumps(doc, indent=..., ensure_ascii=False,
allow_nan=False)`` but much faster for reports.

The standard library encodes indented JSON in pure Python, one generator step per value; a
report holds a few long lists of names and numbers, which are written here with one join each.
"""

from __future__ import annotations

import json
import math

import numpy as np

_encode_string = json.encoder.encode_basestring  # the C version when available
_float_repr = float.__repr__
_int_repr = int.__repr__


def dumps(value, indent: int | None = 2) -> str:
    """``value`` (plain JSON data: dict, list, str, int, float, bool, None; numpy arrays are
    written as nested lists, non-finite numbers as null) as JSON text."""
    if indent is None:
        return json.dumps(value, ensure_ascii=False, allow_nan=False, default=_plain)
    out: list = []
    _write(value, 0, " " * indent, out)
    return "".join(out)


def _scalar(value) -> str:
    kind = type(value)
    if kind is str:
        return _encode_string(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if kind is float:
        if not math.isfinite(value):
            raise ValueError(f"Out of range float values are not JSON compliant: {value!r}")
        return _float_repr(value)
    if kind is int:
        return _int_repr(value)
    # subclasses and anything else: whatever the standard encoder makes of it
    return json.dumps(value, ensure_ascii=False, allow_nan=False)


def _write(value, level: int, step: str, out: list) -> None:
    kind = type(value)
    if kind is dict:
        if not value:
            out.append("{}")
            return
        inner = "\n" + step * (level + 1)
        out.append("{")
        first = True
        for key, item in value.items():
            if type(key) is not str:
                # the standard encoder's key rules (numbers, booleans, None become text)
                key = json.loads(json.dumps({key: 0}))
                key = next(iter(key))
            out.append(("" if first else ",") + inner + _encode_string(key) + ": ")
            first = False
            _write(item, level + 1, step, out)
        out.append("\n" + step * level + "}")
    elif kind is list or kind is tuple:
        if not value:
            out.append("[]")
            return
        inner = "\n" + step * (level + 1)
        if all(type(v) in _FLAT for v in value):
            out.append("[" + inner + ("," + inner).join(map(_scalar, value)) + "\n"
                       + step * level + "]")
            return
        out.append("[")
        first = True
        for item in value:
            out.append(("" if first else ",") + inner)
            first = False
            _write(item, level + 1, step, out)
        out.append("\n" + step * level + "]")
    elif isinstance(value, np.ndarray):
        if value.ndim == 0:
            _write(value.item(), level, step, out)
        elif value.ndim == 1:
            row = value.tolist()
            if value.dtype.kind == "f" and not np.isfinite(value).all():
                row = [v if math.isfinite(v) else None for v in row]
            _write(row, level, step, out)
        else:  # one row (one Python list) at a time
            _write(list(value), level, step, out)
    else:
        out.append(_scalar(value))


_FLAT = frozenset({str, int, float, bool, type(None)})


def _plain(value):
    if isinstance(value, np.ndarray):
        from ..stats.results import jsonable

        return jsonable(value)
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")
