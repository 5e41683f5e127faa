"""The small result object that every test returns."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

_SCALARS = frozenset({str, int, bool, type(None)})


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
        return [jsonable(v) for v in value]
    if isinstance(value, np.ndarray) and value.dtype.kind in "fiub":
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


class DetailsAsAttributes:
    """The keys of a result's ``details`` dict read as attributes (``result.r_plus``)."""

    def __getattr__(self, name: str):
        details = self.__dict__.get("details", {})
        if name in details:
            return details[name]
        raise AttributeError(f"{type(self).__name__} has no attribute {name!r}")


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
        Whatever else the test reports (counts, mean ranks, z, corrections...). Its keys can also be
        read as attributes: ``result.r_plus``.
    notes : tuple of str
        Warnings and explanations a reader of the result should see.
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
