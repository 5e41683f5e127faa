"""The effect sizes of many pairs as the JSON's columns (schema 2), from an
:class:`~rankwise.stats.effects_all.EffectsTable`'s arrays or from one
:class:`~rankwise.stats.effects.PairEffects` per pair."""

from __future__ import annotations

import numpy as np

from ..stats.effects import cliff_magnitude
from ..stats.effects_all import EffectsTable

def effects_columns(effects, learners) -> dict:
    """The effect sizes of many pairs as the JSON's columns (schema 2): ``a`` and ``b`` as
    indices into ``learners``, ``n``, ``confidence``, and per effect its ``estimate``,
    ``ci_low``, ``ci_high`` and ``method`` arrays plus the details every pair has (Hodges-Lehmann:
    ``n_zeros``, ``tied``, ``achieved_confidence`` or null; probability of superiority: ``a_wins``,
    ``ties``, ``b_wins``; Cliff's δ: ``magnitude``), and ``a12``."""
    index = {name: i for i, name in enumerate(learners)}
    if isinstance(effects, EffectsTable) and len(effects) and not effects.extra["reference"]:
        return _table_columns(effects, index)  # from the arrays: no object per pair
    effects = list(effects)
    m = len(effects)
    if not m:
        return {"a": [], "b": [], "n": [], "confidence": None}

    def estimates(which, extra=()):
        items = [getattr(e, which) for e in effects]
        out = {"estimate": np.array([x.estimate for x in items], dtype=float),
               "ci_low": np.array([x.ci_low for x in items], dtype=float),
               "ci_high": np.array([x.ci_high for x in items], dtype=float),
               "method": [x.method for x in items]}
        for key in extra:
            out[key] = [x.details.get(key) for x in items]
        return out

    cd = estimates("cliffs_delta")
    cd["magnitude"] = [e.cliffs_delta.magnitude for e in effects]
    return {"a": [index[e.a] for e in effects], "b": [index[e.b] for e in effects],
            "n": [int(e.n) for e in effects], "confidence": effects[0].confidence,
            "hodges_lehmann": estimates("hodges_lehmann",
                                        ("n_zeros", "tied", "achieved_confidence")),
            "probability_of_superiority": estimates("probability_of_superiority",
                                                    ("a_wins", "ties", "b_wins")),
            "cohens_dz": estimates("cohens_dz"),
            "cliffs_delta": cd,
            "a12": np.array([e.a12 for e in effects], dtype=float)}


def _table_columns(t: EffectsTable, index: dict) -> dict:
    """``effects_columns`` of an :class:`EffectsTable` read from its arrays (the same values
    as through its :class:`PairEffects`; the tests compare the two)."""
    a, x, n = t.arrays, t.extra, t.n
    undefined = x["dz_method"] == "undefined"
    exact = x["exact"]
    wins, ties = x["wins"], x["ties"]
    delta = a["delta"]
    return {"a": [index[name] for name in t.a], "b": [index[name] for name in t.b],
            "n": n.tolist(), "confidence": t.confidence,
            "hodges_lehmann": {"estimate": a["hl"], "ci_low": a["hl_low"],
                               "ci_high": a["hl_high"],
                               "method": np.where(exact, "exact", "normal").tolist(),
                               "n_zeros": x["n_zeros"].tolist(), "tied": x["tied"].tolist(),
                               "achieved_confidence": [float(v) if e else None for v, e in
                                                       zip(x["achieved"].tolist(), exact)]},
            "probability_of_superiority": {"estimate": a["ps"], "ci_low": a["ps_low"],
                                           "ci_high": a["ps_high"],
                                           "method": ["wilson"] * len(t),
                                           "a_wins": wins.tolist(), "ties": ties.tolist(),
                                           "b_wins": (n - wins - ties).tolist()},
            "cohens_dz": {"estimate": np.where(undefined, np.nan, a["dz"]),
                          "ci_low": np.where(undefined, np.nan, a["dz_low"]),
                          "ci_high": np.where(undefined, np.nan, a["dz_high"]),
                          "method": x["dz_method"].tolist()},
            "cliffs_delta": {"estimate": delta, "ci_low": a["delta_low"],
                             "ci_high": a["delta_high"], "method": ["cliff"] * len(t),
                             "magnitude": [cliff_magnitude(v) for v in delta.tolist()]},
            "a12": (delta + 1.0) / 2.0}
