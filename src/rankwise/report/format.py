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


#: A column is printed in scientific notation when its fixed layout would need more than this
#: many characters for a number (values over about a million), or more than 6 decimals.
COLUMN_WIDTH_MAX = 10


def column_format(values, significant: int = 4):
    """One format for a column of numbers, so that its numbers line up and read alike: fixed
    decimals that give its smallest value (in magnitude, 0 aside) ``significant`` digits, or
    scientific notation for the whole column where fixed decimals would be wider than
    ``COLUMN_WIDTH_MAX``. Returns a function from a number to its text ("-" for NaN).

    Examples
    --------
    >>> from rankwise.report.format import column_format
    >>> f = column_format([58.92, 9.706, 56.8, 13.0])
    >>> [f(v) for v in (58.92, 9.706, 56.8, 13.0)]
    ['58.920', '9.706', '56.800', '13.000']
    >>> f = column_format([3.237, 18810.0, 2.569])
    >>> [f(v) for v in (3.237, 18810.0)]
    ['3.237', '18810.000']
    >>> f = column_format([3.237, 1881000.0])
    >>> [f(v) for v in (3.237, 1881000.0)]
    ['3.237e+00', '1.881e+06']
    >>> f = column_format([2e-9, 5.0])
    >>> [f(v) for v in (2e-9, 5.0)]
    ['2.000e-09', '5.000e+00']
    """
    v = np.asarray(values, dtype=float).ravel()
    v = np.abs(v[np.isfinite(v)])
    nonzero = v[v > 0]
    decimals = 0
    if nonzero.size:
        decimals = max(0, significant - 1 - math.floor(math.log10(nonzero.min())))
    largest = float(v.max()) if v.size else 0.0
    # more than 6 decimals (a smallest value far below 1) is as unreadable as a wide number
    wide = decimals > 6 or len(f"{-largest:.{decimals}f}") > COLUMN_WIDTH_MAX
    spec = f".{significant - 1}e" if wide else f".{decimals}f"

    def text(x) -> str:
        x = float(x)
        if math.isnan(x):
            return "-"
        if math.isinf(x):
            return "inf" if x > 0 else "-inf"
        return format(x, spec)

    return text
