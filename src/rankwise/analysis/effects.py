"""Which pairs get effect sizes (and the Bayesian tests of :mod:`.bayesian`), the effect sizes
themselves, and the verdict's sentence on their size, computed once for every output to read.

The family is the verdict's (each learner against the best-ranked one), plus the post-hoc
family when one is asked for: each learner against the control with ``posthoc="control"``, all
pairs with ``posthoc="all"`` or ``"both"``; with two learners, the pair. Against one learner the
pair is (learner, reference), so that differences read "learner − reference"; all pairs are
(earlier, later) in the table's order. A ``pair=`` given with three or more learners is added.
Each unordered pair appears once. Every pair uses the data sets where both have values.
"""

from __future__ import annotations

import numpy as np

from ..errors import RankwiseError
from ..names import EFFECTS_MODES
from .verdict import VERDICT_LIST_MAX
from ..stats.effects import effect_sizes
from ..stats.effects_all import effect_sizes_all

#: Above this many data sets effects are computed only on request (they cost N log N per pair
#: and the listing of Walsh averages grows with N²); the report says so.
EFFECTS_AUTO_MAX_N = 10_000
#: By default the post-hoc family gets effects up to this many pairs (k = 100 for all pairs);
#: above, only the pairs the verdict speaks of (each O(N²) for Hodges-Lehmann).
EFFECTS_AUTO_MAX_PAIRS = 5_000


def effects_mode(value) -> str:
    """The ``effects`` option as one of auto, all, verdict, none (True = all, False = none)."""
    if value is None:
        return "auto"
    if value is True or value is False:
        return "all" if value else "none"
    if value not in EFFECTS_MODES:
        raise RankwiseError(f"effects must be one of {', '.join(EFFECTS_MODES)}; got {value!r}")
    return value


def effect_pairs(learners, mean_ranks, pair, posthoc, control, verdict) -> list:
    """The (a, b) pairs of the family (see the module docstring)."""
    learners = list(learners)
    if len(learners) == 2:
        return [tuple(pair) if pair else tuple(learners)]
    order = [learners[j] for j in np.argsort(mean_ranks, kind="stable")]
    best = verdict.best if verdict is not None and verdict.best is not None else order[0]
    out = [(name, best) for name in order if name != best]
    if posthoc in ("control", "both") and control not in (None, "best", best):
        out += [(name, control) for name in order if name != control]
    every = posthoc in ("all", "both")
    if pair and not every:  # with all pairs, the pair is one of them already
        out.append(tuple(pair))
    seen, kept = set(), []
    for a, b in out:  # one entry per unordered pair, the first orientation met
        if frozenset((a, b)) not in seen:
            seen.add(frozenset((a, b)))
            kept.append((a, b))
    if every:  # 499,500 pairs at k = 1,000: index pairs, not a set per pair
        index = {name: i for i, name in enumerate(learners)}
        taken = {(min(index[a], index[b]), max(index[a], index[b])) for a, b in kept}
        k = len(learners)
        kept += [(learners[i], learners[j]) for i in range(k) for j in range(i + 1, k)
                 if (i, j) not in taken]
    return kept


def columns_of(table, x, a, b):
    """The scores of ``a`` and ``b`` on the data sets where both have values."""
    ia, ib = table.learners.index(a), table.learners.index(b)
    rows = ~(np.isnan(x[:, ia]) | np.isnan(x[:, ib]))
    return x[rows, ia], x[rows, ib]


def compute_effects(table, x, pairs, *, confidence, decimals):
    """Effect sizes of ``pairs`` (names): on a complete table all at once (an
    :class:`~rankwise.stats.effects_all.EffectsTable`), else pair by pair on shared data sets."""
    if not pairs:
        return ()
    index = {name: i for i, name in enumerate(table.learners)}
    if not np.isnan(x).any():
        if x.shape[0] < 2:
            a, b = pairs[0]
            raise RankwiseError(f"{a} and {b} share {x.shape[0]} data set(s) with values; effect"
                                " sizes need at least two")
        return effect_sizes_all(x, [(index[a], index[b]) for a, b in pairs],
                                list(table.learners), confidence=confidence, decimals=decimals)
    out = []
    for a, b in pairs:
        u, v = columns_of(table, x, a, b)
        if u.size < 2:
            raise RankwiseError(f"{a} and {b} share {u.size} data set(s) with values; effect"
                                " sizes need at least two")
        out.append(effect_sizes(u, v, names=(a, b), confidence=confidence, decimals=decimals))
    return tuple(out)


def effects_against(effects, ref) -> dict:
    """``{learner: PairEffects of learner − ref}`` for every pair of ``effects`` with ``ref``
    (the first met; an :class:`EffectsTable` makes objects only for those pairs)."""
    if hasattr(effects, "a"):  # an EffectsTable: find the rows by name first
        effects = [effects[i] for i, (a, b) in enumerate(zip(effects.a, effects.b))
                   if ref in (a, b)]
    found = {}
    for e in effects:
        if ref in (e.a, e.b) and e.a != e.b:
            found.setdefault(e.a if e.b == ref else e.b, e if e.b == ref else e.reversed())
    return found


def magnitude_sentence(effects, verdict, confidence) -> str:
    """What the verdict says about the size of each difference it speaks of."""
    if not effects:
        return ""
    level = f"{100 * confidence:g}%"

    def one(e):
        hl, cd = e.hodges_lehmann, e.cliffs_delta
        return (f"median difference {hl.estimate:.3g} [{hl.ci_low:.3g}, {hl.ci_high:.3g}],"
                f" Cliff's δ = {cd.estimate:.2f}, {cd.magnitude}")

    if len(effects) == 1 and verdict.family is None:
        e = effects[0]
        return (f"Size of the difference {e.a} − {e.b} ({level} intervals, in the criterion's"
                f" units): {one(e)}.")
    ref = verdict.best
    if len(verdict.winners) + len(verdict.losers) > VERDICT_LIST_MAX:
        return ""  # the headline verdict: the reports' verdict table gives the sizes
    order = list(verdict.winners) + list(verdict.losers)
    found = effects_against(effects, ref)
    parts = []
    for name in sorted(found, key=lambda n: order.index(n) if n in order else len(order)):
        e = found[name]
        state = f"is worse than {ref}" if name in verdict.losers else "(no difference detected)"
        parts.append(f"{name} {state}: {one(e)}")
    if not parts:
        return ""
    return (f"Size of each difference from {ref} (learner − {ref}, in the criterion's units;"
            f" {level} intervals, each pair on its own, not adjusted for multiplicity, so they"
            f" need not agree with the adjusted decisions): " + "; ".join(parts) + ".")
