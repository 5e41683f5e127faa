"""The small result object that every test returns."""

from __future__ import annotations

import contextlib
import contextvars
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

_SCALARS = frozenset({str, int, bool, type(None)})
_NUMBERS = frozenset({float, int, bool, type(None)})

#: The smallest p-value rankwise states as a number. Below it (the far tail of a z of 37 or
#: more; double precision itself ends near 1e-308) a p-value is a bound: the text formats print
#: ``< 1e-300`` and the JSON writes 1e-300 under its ``pvalue_floor`` key. Computations keep the
#: smaller values (and log p where it matters); only what is written is bounded.
PVALUE_FLOOR = 1e-300
#: How every text format writes a p-value below ``PVALUE_FLOOR``.
BELOW_FLOOR = f"< {PVALUE_FLOOR:.0e}"


def clip_to_floor(values) -> np.ndarray:
    """An array of p-values with those below ``PVALUE_FLOOR`` written as the floor."""
    values = np.asarray(values, float)
    return np.where(values < PVALUE_FLOOR, PVALUE_FLOOR, values)


def p_phrase(p) -> str:
    """A p-value in prose: ``p = 0.000458`` (3 significant digits), or ``p < 1e-300`` below
    ``PVALUE_FLOOR``."""
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return "p = n/a"
    return f"p {BELOW_FLOOR}" if p < PVALUE_FLOOR else f"p = {p:.3g}"


#: JSON keys that hold other things although their names begin like a p-value's.
_NOT_P = frozenset({"pvalue_heatmap"})


def is_pvalue_key(key) -> bool:
    """``pvalue``, ``pvalues``, ``pvalue_…``, ``…_pvalue``, ``apv`` and ``apv_…``."""
    if type(key) is not str or key in _NOT_P:
        return False
    return (key in ("pvalue", "pvalues", "apv") or key.endswith("_pvalue")
            or key.startswith(("pvalue_", "apv_")))


def floor_pvalues(value, inside: bool = False):
    """JSON data with every p-value below ``PVALUE_FLOOR`` written as the floor; in place for
    dicts and lists, returned. A p-value is any number under a key that :func:`is_pvalue_key`
    names (and everything nested in it: ``apv: {procedure: [...]}``)."""
    kind = type(value)
    if kind is dict:
        for key, item in value.items():
            value[key] = floor_pvalues(item, inside or is_pvalue_key(key))
        return value
    if kind is list:
        kinds = set(map(type, value))
        if kinds <= _NUMBERS:
            if inside and float in kinds and min(value if len(kinds) == 1 else
                                                 (v for v in value if type(v) is float)) \
                    < PVALUE_FLOOR:
                return [v if type(v) is not float or v >= PVALUE_FLOOR else PVALUE_FLOOR
                        for v in value]
            return value
        if kinds <= _SCALARS:
            return value
        for i, item in enumerate(value):
            value[i] = floor_pvalues(item, inside)
        return value
    if inside:
        if kind is float:
            return value if value >= PVALUE_FLOOR else PVALUE_FLOOR
        if kind is int and value == 0:
            return PVALUE_FLOOR
        if isinstance(value, np.ndarray) and value.dtype.kind == "f":
            return clip_to_floor(value)
    return value


#: While set (:func:`arrays_kept`), numeric arrays of at least ``ARRAY_KEPT`` numbers stay numpy
#: arrays in the JSON data, for a writer that formats them in one pass
#: (:mod:`rankwise.report.json_text`) instead of a Python float object per number.
_KEEP_ARRAYS = contextvars.ContextVar("rankwise_keep_arrays", default=False)
ARRAY_KEPT = 1024


@contextlib.contextmanager
def arrays_kept():
    token = _KEEP_ARRAYS.set(True)
    try:
        yield
    finally:
        _KEEP_ARRAYS.reset(token)


def jsonable(value: Any) -> Any:
    """Plain JSON types: numpy scalars become Python numbers, NaN and ±inf become ``None``.

    Reports nest results that are already plain, so the common types are recognised by their
    exact type first and a finite float array becomes nested lists without a second walk.
    """
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is float:
        return value if math.isfinite(value) else None
    if kind is dict:
        return {k if type(k) is str else str(k): jsonable(v) for k, v in value.items()}
    if kind is list or kind is tuple:
        kinds = set(map(type, value))
        if kinds <= _SCALARS:  # names, counts, flags: nothing to convert
            return list(value)
        if kinds <= _NUMBERS:  # a column of numbers: one C-level pass unless one is not finite
            floats = [v for v in value if type(v) is float] if len(kinds) > 1 else value
            if all(map(math.isfinite, floats)):
                return list(value)
        return [jsonable(v) for v in value]
    if isinstance(value, np.ndarray) and value.dtype.kind in "fiub":
        if value.size >= ARRAY_KEPT and value.ndim and _KEEP_ARRAYS.get():
            return value  # the writer formats it (non-finite numbers as null)
        if value.dtype.kind != "f" or np.isfinite(value).all():
            return value.tolist()
        return jsonable(value.tolist())
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if hasattr(value, "tolist"):  # numpy scalars and other arrays
        return jsonable(value.tolist())
    if isinstance(value, (bool, str, int)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    return str(value)


class AttributesOnly:
    """A result read by its attributes and ``to_dict()``. Its dict and tuple access of 0.5
    (``res["cd"]``, ``cd, q = ...``), deprecated in 0.6, were removed in 0.9: using them says
    what to use instead, in the error."""

    def _removed(self, *_):
        fields = ", ".join(f".{f}" for f in getattr(self, "__dataclass_fields__", {}))
        raise TypeError(f"{type(self).__name__} is read by its attributes ({fields}) or"
                        " .to_dict(); its dict and tuple access (res['key'], unpacking) was"
                        " removed in rankwise 0.9 (deprecated since 0.6)")

    __getitem__ = __iter__ = __len__ = keys = values = items = get = _removed

    def __contains__(self, _):
        self._removed()

    def __bool__(self) -> bool:   # a result is there (not its length, which it has none of)
        return True


class DetailsAsAttributes:
    """The keys of a result's ``details`` dict read as attributes (``result.r_plus``)."""

    def __getattr__(self, name: str):
        details = self.__dict__.get("details", {})
        if name in details:
            return details[name]
        raise AttributeError(f"{type(self).__name__} has no attribute {name!r}")


#: The extras of ``details`` that ``TestResult`` declares as fields.
COMMON_EXTRAS = ("n", "k", "mean_ranks", "alternative", "variant")


@dataclass(frozen=True)
class TestResult(DetailsAsAttributes):
    """Outcome of one statistical test.

    Attributes
    ----------
    test : str
        Registry name of the test (``"friedman"``, ``"wilcoxon"``, ...).
    statistic, pvalue : float
        The test statistic and its p-value under the stated ``method``.
    method : str
        How the p-value was obtained (``"exact"``, ``"normal"``, ``"chi2"``, ``"F"``, ...).
    convention : str
        ``"default"`` (the statistically exact formulas) or ``"paper"`` (the formulas as printed).
    df : tuple of float, optional
        Degrees of freedom of the reference distribution, if it has any.
    details : dict
        Everything the test reports beyond these fields, in the order the JSON writes it
        (counts, z, corrections...); the keys below are declared, the others can be read as
        attributes too: ``result.r_plus``.
    notes : tuple of str
        Warnings and explanations a reader of the result should see.
    n : int or None
        Number of data sets (paired differences for the two-learner tests) the test used.
    k : int or None
        Number of learners (None for the two-learner tests).
    mean_ranks : ndarray or None
        The learners' mean ranks under the test's own ranking (the rank-based omnibus tests).
    alternative : str or None
        ``"two-sided"``, ``"greater"`` or ``"less"`` (the two-learner tests).
    variant : str or None
        Which form of the statistic the ``convention`` chose (``"tie-corrected"``, ``"keel"``,
        ``"greenhouse-geisser"``...; the omnibus tests).

    Examples
    --------
    >>> from rankwise import friedman, load_example
    >>> res = friedman(load_example("garcia2010"))
    >>> round(res.statistic, 3), res.df, res.method, res.convention
    (16.361, (3,), 'chi2', 'default')
    >>> res.k, res.n
    (4, 24)
    """

    __test__ = False  # not a pytest test class

    test: str
    statistic: float
    pvalue: float
    method: str
    convention: str
    df: tuple | None = None
    details: dict = field(default_factory=dict)
    notes: tuple = ()
    # The extras most tests share, declared; read from ``details``, which keeps the order the
    # JSON has always had.
    n: int | None = field(init=False, default=None, repr=False, compare=False)
    k: int | None = field(init=False, default=None, repr=False, compare=False)
    mean_ranks: Any = field(init=False, default=None, repr=False, compare=False)
    alternative: str | None = field(init=False, default=None, repr=False, compare=False)
    variant: str | None = field(init=False, default=None, repr=False, compare=False)

    def __post_init__(self):
        for name in COMMON_EXTRAS:
            object.__setattr__(self, name, self.details.get(name))

    def reject(self, alpha: float) -> bool:
        """True when the null hypothesis is rejected at level ``alpha`` (p ≤ α)."""
        return bool(self.pvalue <= alpha) if math.isfinite(self.pvalue) else False

    def to_dict(self, alpha: float | None = None) -> dict:
        out = {"test": self.test, "statistic": self.statistic, "pvalue": self.pvalue,
               "method": self.method, "convention": self.convention}
        if self.df is not None:
            out["df"] = list(self.df)
        if alpha is not None:
            out["reject"] = self.reject(alpha)
        out.update(self.details)
        out["notes"] = list(self.notes)
        return jsonable(out)
