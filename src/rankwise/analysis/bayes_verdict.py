"""The verdict in posterior terms (``verdict="bayesian"``, ``--verdict bayesian``).

Every other learner is set against one reference learner, as the frequentist verdict sets them
against the best-ranked one:

- with a model of the whole table, the reference is the model's best (largest expected
  Plackett-Luce weight, largest mean Bradley-Terry ability), and the verdict also gives each
  learner's posterior probability of being the best (the share of draws in which its weight or
  ability is the largest);
- with a pairwise test (sign, signed-rank, correlated t, hierarchical), the reference is the
  best-ranked learner, and the verdict reads the test's pairs with it.

For each other learner the verdict gives P(worse than the reference), P(practically equivalent)
and P(better), and decides the outcome whose probability reaches the threshold (0.95 by
default, ``threshold=`` / ``--threshold``), else "undecided". Plackett-Luce has no region of
practical equivalence: it gives P(the reference's weight is larger), and "worse" means "weaker"
in that sense. A posterior whose chains did not converge decides nothing.

The frequentist verdict's winners and losers (which the figures and post-hoc tables show) are
kept as they are; the Bayesian verdict is stated first and the frequentist one follows it,
named as such, so that the paragraph and the figures never disagree unannounced.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ..stats.results import jsonable
from .verdict import VERDICT_LIST_MAX, some_names

#: Learners named after the best in the P(best) clause (the rest are summed).
P_BEST_NAMED = 3

OUTCOMES = ("worse", "equivalent", "better")
#: Measured in the slow coverage tests (tests/test_bayes_coverage.py); see the user guide.
OVERCONFIDENT = ("The model counts every pair's wins as independent although all pairs share"
                 " the data sets, so its probabilities are somewhat overconfident.")


@dataclass(frozen=True)
class BayesianVerdict:
    """Every learner against ``reference``: posterior probabilities and the decision."""

    source: str  # the model or test it reads
    reference: str
    threshold: float
    rows: tuple  # dicts: learner, p_worse, p_equivalent (None: no ROPE), p_better, decision
    p_best: dict | None  # learner -> P(best), whole-table models only
    converged: bool
    statement: str

    def to_dict(self) -> dict:
        return jsonable({"source": self.source, "reference": self.reference,
                         "threshold": self.threshold, "converged": self.converged,
                         "p_best": self.p_best, "learners": list(self.rows),
                         "statement": self.statement})


def _decision(p_worse, p_equivalent, p_better, threshold) -> str:
    trio = (p_worse, -1.0 if p_equivalent is None else p_equivalent, p_better)
    best = int(np.argmax(trio))
    return OUTCOMES[best] if trio[best] >= threshold else "undecided"


def _row(name, p_worse, p_equivalent, p_better, decision) -> dict:
    return {"learner": name, "p_worse": float(p_worse),
            "p_equivalent": None if p_equivalent is None else float(p_equivalent),
            "p_better": float(p_better), "decision": decision}


def from_model(model, threshold: float) -> BayesianVerdict:
    """The verdict of a Plackett-Luce or Bradley-Terry posterior: every learner against the one
    of largest posterior mean strength (weight or ability), in that order."""
    learners = list(model.learners)
    converged = model.diagnostics.converged
    draws = model.strengths
    centre = draws.mean(axis=0)
    ref = int(np.argmax(centre))
    against = {p["smaller"]: p for p in getattr(model, "pairs", ())
               if p["larger"] == learners[ref]}
    rows = []
    for j in np.argsort(-centre, kind="stable"):
        if j == ref:
            continue
        if not model.HAS_ROPE:  # P(the best's strength is the larger)
            weaker = float((draws[:, ref] > draws[:, j]).mean())
            trio = (weaker, None, 1.0 - weaker)
        else:
            pair = against[learners[j]]
            trio = (pair["p_a_better"], pair["p_equivalent"], pair["p_b_better"])
        decision = _decision(*trio, threshold) if converged else "undecided"
        rows.append(_row(learners[j], *trio, decision))
    p_best = {learners[j]: float(model.p_best[j])
              for j in np.argsort(-model.p_best, kind="stable")}
    v = BayesianVerdict(model.MODEL, learners[ref], float(threshold), tuple(rows), p_best,
                        converged, "")
    return replace(v, statement=_statement(v, model.diagnostics.sentence()))


def from_pairs(results, reference: str, order, threshold: float) -> BayesianVerdict:
    """The verdict of a pairwise Bayesian test: its pairs with ``reference``, in ``order``."""
    found = {}
    converged = True
    for r in results:
        if reference not in (r.a, r.b) or r.a == r.b:
            continue
        other = r.b if r.a == reference else r.a
        worse, better = (r.p_a, r.p_b) if r.a == reference else (r.p_b, r.p_a)
        ok = r.details.get("diagnostics", {}).get("converged", True)
        converged &= bool(ok)
        # the test's own decision, read from the reference's side (decided once, read here)
        side = {"a": "worse", "b": "better"} if r.a == reference else \
            {"a": "better", "b": "worse"}
        found[other] = _row(other, worse, r.p_rope if r.rope > 0 else None, better,
                            side.get(r.decision, r.decision))
    rows = tuple(found[name] for name in order if name in found)
    source = results[0].test if results else "none"
    rope = results[0].rope if results else 0.0
    v = BayesianVerdict(source, reference, float(threshold), rows, None, converged, "")
    return replace(v, statement=_statement(v, None, rope))


TITLES = {"plackett-luce": "the Plackett-Luce model of the rankings",
          "bradley-terry": "Wainer's Bradley-Terry model of the wins",
          "sign": "the Bayesian sign test", "signed-rank": "the Bayesian signed-rank test",
          "correlated-t": "the Bayesian correlated t-test",
          "hierarchical": "the hierarchical Bayesian correlated t-test"}


def _one(row, ref) -> str:
    name, d = row["learner"], row["decision"]
    ropeless = row["p_equivalent"] is None
    if d == "worse":
        return (f"{name} is weaker than {ref} ({row['p_worse']:.2f})" if ropeless else
                f"{name} is practically worse ({row['p_worse']:.2f})")
    if d == "better":
        return f"{name} is practically better ({row['p_better']:.2f})"
    if d == "equivalent" and ropeless:  # only a posterior with no spread at 0 gets here
        return f"{name} and {ref} do not differ (every difference is 0)"
    if d == "equivalent":
        return f"{name} and {ref} are practically equivalent ({row['p_equivalent']:.2f})"
    if ropeless:
        return f"{name}: undecided (weaker than {ref} with probability {row['p_worse']:.2f})"
    trio = (f"worse {row['p_worse']:.2f}, equivalent {row['p_equivalent']:.2f}, better"
            f" {row['p_better']:.2f}")
    return f"{name}: undecided ({trio})"


def _p_best_sentence(v: BayesianVerdict) -> str:
    """The reference's probability of being the best, then the others' by that probability.
    The reference is the learner of largest mean strength; where (with near ties) another has
    the larger probability of being the best, the sentence says so rather than hide it."""
    ref = v.reference
    names = [n for n in v.p_best if n != ref]  # by P(best), largest first
    others = [f"{n} {v.p_best[n]:.2f}" for n in names[:P_BEST_NAMED]]
    rest = sum(v.p_best[n] for n in names[P_BEST_NAMED:])
    if rest > 0:
        others.append(f"the other {len(names) - P_BEST_NAMED} together {rest:.2f}")
    rival = names[0] if names and v.p_best[names[0]] > v.p_best[ref] else None
    listed = f" ({'others' if rival else 'next'}: {', '.join(others)})" if others else ""
    if rival:
        return (f"{ref} has the largest posterior mean strength, but {rival} the largest"
                f" probability of being the best: {ref} is the best with probability"
                f" {v.p_best[ref]:.2f}{listed}.")
    return f"{ref} is the best learner with probability {v.p_best[ref]:.2f}{listed}."


def _statement(v: BayesianVerdict, sampling: str | None, rope: float | None = None) -> str:
    ref = v.reference
    head = f"Bayesian verdict, by {TITLES.get(v.source, v.source)}"
    if v.source == "bradley-terry":
        from ..bayes.bradley_terry import PWIN_ROPE

        low, high = PWIN_ROPE
        head += (f" (practically equivalent: a probability of winning on a new data set from"
                 f" {low:g} to {high:g})")
    if rope is not None:
        head += f" (ROPE {rope:g} in the criterion's units)" if rope > 0 else \
            " (no ROPE: equivalence is not assessed)"
    head += f"; a decision needs a posterior probability of at least {v.threshold:g}"
    if not v.converged:
        why = f" Sampling: {sampling}" if sampling else ""
        return (head + ". The posterior's chains did not converge, so no Bayesian decision is"
                " drawn from them." + why)
    parts = [head + "."]
    if v.source == "bradley-terry":
        parts.append(OVERCONFIDENT)
    if v.p_best is not None:
        parts.append(_p_best_sentence(v))
    else:
        parts.append(f"Against the best-ranked learner, {ref}:")
    if not v.rows:
        return " ".join(parts)
    if len(v.rows) + 1 > VERDICT_LIST_MAX:
        counts = {}
        for r in v.rows:
            counts.setdefault(r["decision"], []).append(r["learner"])
        words = {"worse": "practically worse" if v.rows[0]["p_equivalent"] is not None
                 else "weaker", "equivalent": "practically equivalent",
                 "better": "practically better", "undecided": "undecided"}
        said = [f"{len(counts[d]):,} {words[d]}" + (f" ({some_names(counts[d])})"
                                                   if d in ("equivalent", "better") else "")
                for d in ("worse", "equivalent", "better", "undecided") if d in counts]
        lead = "Against it" if v.p_best is not None else ""
        parts.append((lead + ": " if lead else "") + "; ".join(said)
                     + " (each learner's probabilities: verdict.bayesian in the JSON).")
    else:
        lead = "Against it: " if v.p_best is not None else ""
        parts.append(lead + "; ".join(_one(r, ref) for r in v.rows) + ".")
    return " ".join(parts)


def speak_bayesian(verdict, bv: BayesianVerdict):
    """The verdict with the Bayesian statement first and the frequentist one after it."""
    statement = f"{bv.statement} Frequentist view (the tables and figures): {verdict.statement}"
    return replace(verdict, statement=statement, basis="bayesian", bayesian=bv,
                   text=" ".join([statement, *verdict.caveats, verdict.direction]))
