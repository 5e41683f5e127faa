"""How numbers are printed, in one place, so that every format prints the same digits."""

from __future__ import annotations

import math

import numpy as np

from ..stats.results import BELOW_FLOOR, PVALUE_FLOOR


def fmt_p(p) -> str:
    """A p-value in tables: 4 decimals, or 4 significant digits below 1e-4; below
    ``PVALUE_FLOOR`` (where double precision runs out) the bound ``< 1e-300``."""
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return "n/a"
    if p < PVALUE_FLOOR:
        return BELOW_FLOOR
    return f"{p:.4f}" if p >= 1e-4 else f"{p:.3e}"


def p_words(p) -> str:
    """A p-value in a sentence: 3 significant digits, or the bound ``< 1e-300`` below
    ``PVALUE_FLOOR`` (the items', curves' and fronts' reports write it so)."""
    return BELOW_FLOOR if p < PVALUE_FLOOR else f"{p:.3g}"


def literal(name) -> str:
    """A learner name as matplotlib should print it: '$' would otherwise start mathtext, and a
    control character would make the SVG invalid."""
    from .._text import visible

    return visible(name).replace("$", r"\$")


def fmt_num(v) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "n/a"
    if isinstance(v, float) and math.isinf(v):
        return "inf" if v > 0 else "-inf"
    if float(v).is_integer() and abs(v) < 1e12:
        return str(int(v))
    return f"{v:.4f}" if abs(v) >= 1e-3 else f"{v:.4g}"


def fmt_cd(v) -> str:
    """A critical difference, as every report prints it and every figure draws it."""
    return f"{v:.4f}"


def fmt_rank(r) -> str:
    """Mid-ranks are whole or halves: 1, 2.5."""
    return f"{r:g}"


def digits(values) -> int:
    """Decimals needed to print the table as it was given (at most 6): the fewest d with every
    finite value within 1e-12 of itself rounded to d decimals (NaN and ±inf round to
    themselves). The first few thousand values are tried first, so a d they refute costs no
    pass over a large table."""
    values = np.asarray(values, dtype=float).ravel()
    finite = values[np.isfinite(values)]
    head = finite[:4096]
    for d in range(0, 7):
        if _within(head, d) and (finite.size <= head.size or _within(finite, d)):
            return max(d, 1)
    return 6


def _within(values, d) -> bool:
    """Whether every value is within 1e-12 of itself rounded to ``d`` decimals."""
    if not values.size:
        return True
    off = np.round(values, d)
    np.subtract(values, off, out=off)
    return bool(np.abs(off, out=off).max() <= 1e-12)
