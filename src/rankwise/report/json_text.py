"""JSON text of plain data, indented like ``json.dumps(doc, indent=..., ensure_ascii=False,
allow_nan=False)`` except that a list of numbers (or of booleans) is written on one line, and
much faster for reports.

The standard library encodes indented JSON in pure Python, one generator step per value, one line
per number; a report at 1,000 learners holds columns of 499,500 numbers, which are written here
with one join each, a column per line (a third of the bytes of one number per line). The data
read back are the same: ``json.loads(dumps(doc)) == json.loads(json.dumps(doc))``.
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
        kinds = set(map(type, value))
        if kinds <= _ONE_LINE:
            out.append("[" + ",".join(_numbers(value, kinds)) + "]")
            return
        if kinds <= _FLAT:
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
        elif value.ndim == 1 and value.dtype.kind in "fiub":
            out.append("[")
            first = True
            for start in range(0, value.size, _CHUNK):  # a bounded list of floats at a time
                part = _array_text(value[start:start + _CHUNK])
                out.append(part if first else "," + part)
                first = False
            out.append("]")
        elif value.ndim == 1:
            _write(value.tolist(), level, step, out)
        elif value.ndim == 2 and value.dtype.kind in "fiub" and value.size:
            inner = "\n" + step * (level + 1)
            rows = max(1, _CHUNK // max(value.shape[1], 1))
            out.append("[")
            for start in range(0, value.shape[0], rows):
                lines = ["[" + _array_text(row) + "]" for row in value[start:start + rows]]
                out.append(("" if start == 0 else ",") + inner + ("," + inner).join(lines))
            out.append("\n" + step * level + "]")
        else:  # one row (one Python list) at a time
            _write(list(value), level, step, out)
    else:
        out.append(_scalar(value))


#: Numbers of an array formatted at once (bounds the Python objects alive at one time).
_CHUNK = 1 << 16


def _array_text(values: np.ndarray) -> str:
    """The numbers of a 1-D numeric array as JSON, comma-separated (non-finite: null)."""
    kind = values.dtype.kind
    if kind == "b":
        return ",".join("true" if v else "false" for v in values.tolist())
    if kind in "iu":
        return ",".join(map(_int_repr, values.tolist()))
    items = values.astype(float, copy=False).tolist()
    if np.isfinite(values).all():
        return ",".join(map(_float_repr, items))
    return ",".join(_float_repr(v) if math.isfinite(v) else "null" for v in items)


_FLAT = frozenset({str, int, float, bool, type(None)})
#: Lists of these are written on one line (numbers, and the nulls of numbers not defined).
_ONE_LINE = frozenset({int, float, bool, type(None)})


def _numbers(value, kinds):
    """The JSON text of each item of a list of numbers, booleans and None."""
    if kinds == {float}:
        if all(map(math.isfinite, value)):
            return map(_float_repr, value)
    elif kinds == {int}:
        return map(_int_repr, value)
    return map(_scalar, value)


def _plain(value):
    if isinstance(value, np.ndarray):
        from ..stats.results import jsonable

        return jsonable(value)
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")
