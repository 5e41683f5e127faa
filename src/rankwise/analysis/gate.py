"""Is the candidate worse than the baseline? A regression gate between two runs.

:func:`gate` matches two runs unit by unit (the items of each task of two item files, or the
data sets of two score tables; :mod:`rankwise.analysis.gate_runs`), and answers one question,
stated in every output:

- ``regression`` (the default): H0 "the candidate is not worse than the baseline by more than
  the margin" (δ ≥ −m) against δ < −m; the gate fails when the overall test, or any task's test
  after Holm's adjustment over the tasks, rejects H0;
- ``non-inferiority``: H0 δ ≤ −m against δ > −m; the gate passes when the overall test rejects;
- ``equivalence``: two one-sided tests (TOST) of −m < δ < m; passes when both reject;
- ``superiority``: H0 δ ≤ m against δ > m; passes when the overall test rejects.

δ is the candidate's mean score minus the baseline's (a larger score better; a score table of
lower-is-better values is turned round), per task the mean over its items of the per-item
difference of the runs' means over their trials, overall the mean over the tasks (each task
weighs the same, as lm-eval's and inspect_ai's macro-averages). The margin m is in the score's
units, or relative (a share of the baseline's score).

Tests per task (``test``): ``mcnemar`` (exact, on the discordant items: 0/1 scores, one trial per
item, margin 0), ``t`` (paired t on the per-item differences; the standard error clustered
when items share a context), ``wilcoxon`` (signed ranks, zeros split: Demšar's convention; the
default for data sets). ``auto`` takes McNemar where it applies, Wilcoxon for data sets and
the paired t otherwise; equivalence is always the paired t (TOST). Overall: with one task, the
task's test; with several, a z test of the macro-average, its standard error from the tasks'
(independent tasks).

Intervals at ``confidence``: Tango's score interval for the difference of paired proportions
(McNemar's case), the t interval otherwise, a normal interval overall; for equivalence the
1 − 2α interval, whose inclusion in (−m, m) is the TOST.

Valid however often it is asked: each run is one look; its e-value
(:func:`rankwise.stats.gate.regression_evalue` and its mirror) measures the evidence on the
item differences scaled into [−1, 1], and the e-process, the product of the looks' e-values
(``earlier``: the looks of a ledger, :mod:`rankwise.analysis.ledger`), reaches 1/α under H0
with probability at most α over all looks (Ville's inequality), so a team that asks after
every commit keeps its false-alarm rate. The fixed-n answer stands beside it, named so.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import ClassVar

import numpy as np
import pandas as pd
from scipy import special, stats

from .. import _validate as check
from .. import defaults
from .._text import counted
from ..errors import RankwiseError
from ..protocol import Analysis
from ..stats import gate as gs
from ..stats.adjust import adjust
from ..stats.results import PVALUE_FLOOR, jsonable
from .gate_runs import UNMATCHED, Matched, match_items, match_tables, unmatched_count

#: The questions a gate answers, each its null hypothesis and what makes it pass.
QUESTIONS = ("regression", "non-inferiority", "equivalence", "superiority")
#: The per-task tests.
TESTS = ("auto", "t", "wilcoxon", "mcnemar", "permutation")
#: A question's null, as every output words it (m the margin).
NULLS = {"regression": "H0: the candidate is not worse by more than the margin (d at least -m)",
         "non-inferiority": "H0: the candidate is worse by the margin or more (d at most -m)",
         "equivalence": "H0: the difference is the margin or more either way (|d| at least m)",
         "superiority": "H0: the candidate is not better by more than the margin (d at most m)"}
#: How many regressed and improved items the text lists per task (the JSON lists them all).
LISTED = 5


@dataclass(frozen=True)
class TaskGate:
    """One task (or the overall macro-average): its units, each run's mean, the difference
    (candidate − baseline) with its standard error and interval, the one-sided p-value of the
    question and its Holm-adjusted value over the tasks, the test, whether the question's
    alternative is shown, and the items that regressed and improved."""

    task: str
    n: int
    clusters: int
    baseline: float
    candidate: float
    difference: float
    se: float
    low: float
    high: float
    margin: float
    p: float
    p_holm: float
    test: str
    shown: bool
    regressed: tuple = ()
    improved: tuple = ()
    evalue: float | None = None

    def to_dict(self) -> dict:
        return {"dataset": self.task, "n": self.n, "clusters": self.clusters,
                "baseline": self.baseline, "candidate": self.candidate,
                "difference": self.difference, "se": self.se, "low": self.low,
                "high": self.high, "margin": self.margin, "p": self.p,
                "p_holm": self.p_holm, "test": self.test, "shown": self.shown,
                "regressed": list(self.regressed), "improved": list(self.improved),
                "evalue": self.evalue}


@dataclass(frozen=True)
class Trials:
    """Repeated trials of one task: per run the trials per item (fewest, most), the mean, pass@k
    and pass^k for each k, the within- and between-item variances; the paired difference of
    pass@k (candidate − baseline) over the items with its t interval."""

    task: str
    trials: dict
    mean: dict
    pass_at: dict
    pass_all: dict
    within: dict
    between: dict
    difference: dict
    low: dict
    high: dict

    def to_dict(self) -> dict:
        return jsonable({"dataset": self.task, "trials": self.trials, "mean": self.mean,
                         "pass_at_k": self.pass_at, "pass_hat_k": self.pass_all,
                         "within_item_variance": self.within,
                         "between_item_variance": self.between,
                         "pass_at_k_difference": self.difference,
                         "pass_at_k_low": self.low, "pass_at_k_high": self.high})


@dataclass(frozen=True, repr=False)
class Gate(Analysis):
    """The gate's answer (:func:`gate`): the per-task and overall tests of the question, the
    decision (``passed``; ``exit_code`` 0 or 1 as the command line exits), the repeated trials,
    this look's e-value and, with a ledger, every look's e-process.

    Examples
    --------
    >>> import pandas as pd
    >>> from rankwise import gate, ItemTable
    >>> rows = lambda model, right: pd.DataFrame({"model": model, "task": "qa",
    ...     "item": range(100), "score": [1] * right + [0] * (100 - right)})
    >>> g = gate(ItemTable.from_frame(rows("v1", 80)), ItemTable.from_frame(rows("v2", 60)))
    >>> g.passed, g.exit_code, g.overall.test, round(g.overall.difference, 2)
    (False, 1, 'mcnemar', -0.2)
    """

    kind: ClassVar[str] = "gate"
    version: ClassVar[int] = 1

    baseline: str
    candidate: str
    sources: tuple
    units: str
    question: str
    alpha: float
    confidence: float
    tasks: tuple
    overall: TaskGate
    passed: bool
    decided_by: str
    trials: tuple
    evalue: float | None
    looks: tuple
    unmatched: dict
    notes: tuple
    settings: dict = field(default_factory=dict)

    @property
    def json_one_line(self) -> bool:
        """Above 10,000 listed items the JSON is written on one line (docs/json.md)."""
        return sum(len(t.regressed) + len(t.improved) for t in self.tasks) > 10_000

    @property
    def exit_code(self) -> int:
        """0 when the gate passes (for ``regression``: no regression shown), 1 when it fails."""
        return 0 if self.passed else 1

    @property
    def learners(self) -> tuple:
        return (self.baseline, self.candidate)

    @property
    def datasets(self) -> tuple:
        return tuple(t.task for t in self.tasks)

    @property
    def eprocess(self) -> float | None:
        return self.looks[-1]["eprocess"] if self.looks else None

    def to_dict(self) -> dict:
        return {"kind": "gate", "baseline": self.baseline, "candidate": self.candidate,
                "sources": list(self.sources), "units": self.units,
                "question": self.question, "null": NULLS[self.question],
                "alpha": self.alpha, "confidence": self.confidence,
                "passed": self.passed, "exit_code": self.exit_code,
                "decided_by": self.decided_by,
                "overall": jsonable(self.overall.to_dict()),
                "per_dataset": [jsonable(t.to_dict()) for t in self.tasks],
                "trials": [t.to_dict() for t in self.trials],
                "evalue": jsonable(self.evalue), "looks": jsonable(list(self.looks)),
                "unmatched": {run: {task: list(items) for task, items in only.items()}
                              for run, only in self.unmatched.items()},
                "settings": jsonable(self.settings), "notes": list(self.notes)}


def gate(baseline, candidate, *, question: str = "regression", margin: float = 0.0,
         relative: bool = False, alpha: float = 0.05, confidence: float = 0.95,
         test: str = "auto", k=None, score_range=None, unmatched: str = "refuse",
         baseline_learner: str | None = None, candidate_learner: str | None = None,
         earlier=(), when: str | None = None, draws: int = 10_000,
         seed: int = defaults.ITEM_SEED) -> Gate:
    """Gate ``candidate`` against ``baseline``: two runs of scored items
    (:class:`~rankwise.tables.items.ItemTable`) or two score tables
    (:class:`~rankwise.tables.ScoreTable`), matched item by item (data set by data set).

    Parameters
    ----------
    question : {"regression", "non-inferiority", "equivalence", "superiority"}
        What is asked (see the module's text): the null, the test's side, what passes.
    margin : float
        m ≥ 0 in the score's units (``relative``: a share of the baseline's score, 0.02 is 2 %);
        non-inferiority and equivalence need m > 0.
    alpha, confidence : float
        The level of every decision; the level of the intervals.
    test : {"auto", "t", "wilcoxon", "mcnemar", "permutation"}
        The per-task test (``auto``: McNemar for 0/1 items with one trial and m = 0, Wilcoxon
        for data sets, the paired t otherwise; equivalence: the paired t; ``permutation``:
        the paired sign-flip test of the differences shifted by the margin, the clusters'
        sums flipped together, with ``draws`` flips from ``seed``).
    k : tuple of int or None
        Repeated trials: pass@k and pass^k for each k (at most the fewest trials of an item;
        None: 1 and the fewest trials of an item).
    score_range : (low, high) or None
        The scores' bounds for the e-value (0/1 or [0, 1] scores need none).
    unmatched : {"refuse", "drop"}
        An item (data set) only one run has: an error, or left out and counted.
    baseline_learner, candidate_learner : str or None
        The learner of a run that holds several.
    earlier : sequence of dict
        The looks before this one (a ledger's, :func:`rankwise.analysis.ledger.read`): the
        e-process continues from them.

    Returns
    -------
    Gate

    Examples
    --------
    The bundled pair: a candidate as good on two tasks and worse on code (five trials an item):

    >>> from rankwise import gate
    >>> from rankwise.examples import load_gate_example
    >>> g = gate(*load_gate_example("nightly"))
    >>> g.passed, [t.task for t in g.tasks if t.shown], g.tasks[0].test
    (False, ['code'], 't')
    >>> eq = gate(*load_gate_example("nightly"), question="equivalence", margin=0.05)
    >>> eq.passed, eq.exit_code
    (True, 0)

    References
    ----------
    Schuirmann (1987), two one-sided tests; Tango (1998), Stat. Med. 17:891 (the paired
    difference's score interval); McNemar (1947); Chen et al. (2021), arXiv 2107.03374
    (pass@k); Yao et al. (2024), arXiv 2406.12045 (pass^k); Ramdas et al. (2023), Stat. Sci.
    38:576 (game-theoretic statistics, e-processes).
    """
    from ..tables.items import ItemTable

    _check(question, margin, alpha, confidence, test, unmatched, k, score_range)
    check.whole("draws", draws, 100)
    seed = check.seed(seed)
    if isinstance(baseline, ItemTable) and isinstance(candidate, ItemTable):
        matched = match_items(baseline, candidate, baseline_learner=baseline_learner,
                              candidate_learner=candidate_learner, unmatched=unmatched)
    elif isinstance(baseline, ItemTable) or isinstance(candidate, ItemTable):
        raise RankwiseError("the baseline and the candidate must be of one shape: two runs of"
                            " scored items, or two score tables (learners x data sets)")
    else:
        matched = match_tables(baseline, candidate, baseline_learner=baseline_learner,
                               candidate_learner=candidate_learner, unmatched=unmatched)
    return _gate(matched, question=question, margin=float(margin), relative=bool(relative),
                 alpha=float(alpha), confidence=float(confidence), test=test,
                 k=None if k is None else tuple(int(v) for v in k), score_range=score_range, earlier=tuple(earlier),
                 when=when, draws=int(draws), seed=seed,
                 sources=(getattr(baseline, "source", "baseline"),
                                     getattr(candidate, "source", "candidate")))


def _check(question, margin, alpha, confidence, test, unmatched, k, score_range) -> None:
    check.choice("question", question, QUESTIONS)
    check.choice("test", test, TESTS)
    check.choice("unmatched", unmatched, UNMATCHED)
    check.level("alpha", alpha)
    check.level("confidence", confidence)
    check.finite("margin", margin, 0)
    if question in ("non-inferiority", "equivalence") and not margin > 0:
        raise RankwiseError(f"{question} needs a margin above 0: --margin 0.02 (in the score's"
                            " units) or --margin 2% (of the baseline's score)")
    if k is not None and (not k or any(int(v) != v or v < 1 for v in k)):
        raise RankwiseError(f"k (pass@k) must be whole numbers of at least 1; got {list(k)}")
    if score_range is not None:
        low, high = score_range
        if not (np.isfinite(low) and np.isfinite(high) and low < high):
            raise RankwiseError(f"the score range must be two finite numbers LOW < HIGH; got"
                                f" {low}, {high}")


def _gate(m: Matched, *, question, margin, relative, alpha, confidence, test, k, score_range,
          earlier, when, sources, draws, seed) -> Gate:
    d = m.difference()
    f = m.frame
    codes = f["task"].cat.codes.to_numpy()
    names = m.tasks
    T = len(names)
    base = f["b_s"].to_numpy() / f["b_n"].to_numpy()
    cand = f["c_s"].to_numpy() / f["c_n"].to_numpy()
    n = np.bincount(codes, minlength=T)
    # the frame is grouped by task (gate_runs): each task's units are one slice
    bounds = np.r_[0, np.cumsum(n)]
    b_mean = np.bincount(codes, base, T) / n
    c_mean = np.bincount(codes, cand, T) / n
    diff = c_mean - b_mean
    margins = margin * np.abs(b_mean) if relative else np.full(T, margin)
    one_trial = bool((f["b_n"] == 1).all() and (f["c_n"] == 1).all())
    chosen = _test(test, question, m, one_trial, margin)
    se, df, n_clusters = _errors(d, codes, f["cluster"] if m.clustered else None, T, diff, n)
    flips = (d, f["cluster"].to_numpy(), draws, seed) if chosen == "permutation" else None
    p = _p_values(chosen, question, d, codes, bounds, diff, se, df, margins, T, flips)
    p_holm = adjust(p, "holm") if T > 1 else p.copy()
    low, high = _intervals(chosen, question, d, codes, diff, se, df, T, confidence, alpha)
    item = f["item"].to_numpy()
    # per task, the largest drops (rises) first, then as read
    down = np.lexsort((np.arange(len(d)), d, codes))
    up = np.lexsort((np.arange(len(d)), -d, codes))
    worse = np.bincount(codes, d < 0, T).astype(int)
    better = np.bincount(codes, d > 0, T).astype(int)
    tasks = []
    for t in range(T):
        shown = bool(p_holm[t] <= alpha) if np.isfinite(p_holm[t]) else False
        lo = bounds[t]
        tasks.append(TaskGate(
            names[t], int(n[t]), int(n_clusters[t]), float(b_mean[t]), float(c_mean[t]),
            float(diff[t]), float(se[t]), float(low[t]), float(high[t]), float(margins[t]),
            float(p[t]), float(p_holm[t]), chosen, shown,
            tuple(item[down[lo:lo + worse[t]]]), tuple(item[up[lo:lo + better[t]]])))
    evalue, task_evalues = _evalue(m, d, bounds, question, margin if not relative else None,
                                   score_range)
    if task_evalues is not None:
        tasks = [replace(t, evalue=float(e)) for t, e in zip(tasks, task_evalues)]
    overall = tasks[0] if T == 1 else _overall(question, tasks, margin, relative, alpha,
                                               confidence)
    passed, decided_by = _decide(question, overall, tasks, alpha)
    looks = _looks(earlier, evalue, alpha, question, when, m, overall, passed, decided_by)
    if looks and looks[-1]["eprocess"] is not None:
        passed, decided_by = _anytime(question, looks, alpha, passed, decided_by)
    if looks:
        looks[-1]["decision"] = "pass" if passed else "fail"
    _enough_trials(m, k)
    trial_rows = tuple(_trials(m, k)) if m.trials else ()
    notes = list(m.notes) + _unmatched_notes(m)
    if looks and looks[-1].get("repeat_of"):
        notes.append(f"this look compares the same two runs as look {looks[-1]['repeat_of']}"
                     " (the same units and scores): it adds no evidence, and its e-value is"
                     " taken as 1")
    if relative and evalue is None and earlier:
        notes.append("a relative margin has no e-value (its size is not known before the"
                     " look); the ledger records the fixed-n answer only")
    settings = {"question": question, "margin": margin, "relative": relative, "alpha": alpha,
                "confidence": confidence, "test": chosen, "test_asked": test,
                "draws": draws if chosen == "permutation" else None,
                "seed": seed if chosen == "permutation" else None, "k": None if k is None else list(k),
                "score_range": None if score_range is None else list(score_range),
                "units": m.units, "criterion": m.criterion}
    return Gate(m.baseline, m.candidate, tuple(map(str, sources)), m.units, question, alpha,
                confidence, tuple(tasks), overall, passed, decided_by, trial_rows, evalue,
                looks, {"baseline": m.only_baseline, "candidate": m.only_candidate},
                tuple(notes), settings)


def _test(test: str, question: str, m: Matched, one_trial: bool, margin: float) -> str:
    mcnemar_ok = m.binary and one_trial and margin == 0 and question != "equivalence"
    if test == "mcnemar" and not mcnemar_ok:
        raise RankwiseError("McNemar's test takes 0/1 scores with one trial per item, a margin"
                            " of 0 and not equivalence; give --test t")
    if question == "equivalence":
        if test == "wilcoxon":
            raise RankwiseError("equivalence is decided by two one-sided paired t tests (TOST);"
                                " give --test t or auto")
        return "t"
    if test == "permutation" and question == "equivalence":
        return "t"
    if test != "auto":
        return test
    if mcnemar_ok and m.units == "items":
        return "mcnemar"
    return "wilcoxon" if m.units == "datasets" else "t"


def _errors(d, codes, cluster, T: int, diff, n):
    """Per task: the standard error of the mean difference, clustered where items share a
    cluster (SE² = G/(G − 1) Σ_g (Σ_{i∈g} (d_i − d̄))² / n², the sandwich of
    :func:`rankwise.stats.items.clustered_se`; with one item a cluster (``cluster`` None) it
    is the plain s/√n), its degrees of freedom (clusters − 1) and the number of clusters G."""
    resid = d - diff[codes]
    with np.errstate(divide="ignore", invalid="ignore"):
        if cluster is None:
            G = n.copy()
            se = np.sqrt(np.bincount(codes, resid ** 2, T) / (n - 1) / n)
        else:
            labels = pd.factorize(cluster.to_numpy())[0].astype(np.int64)
            groups, uniq = pd.factorize(codes.astype(np.int64) * (labels.max() + 1) + labels)
            g_task = uniq // (labels.max() + 1)
            G = np.bincount(g_task, minlength=T)
            sums = np.bincount(groups, resid, len(uniq))
            se = np.sqrt(G / (G - 1) * np.bincount(g_task, sums ** 2, T)
                         / n.astype(float) ** 2)
    se = np.where(G >= 2, se, np.nan)
    df = np.where(G >= 2, G - 1.0, np.nan)
    return se, df, G


def _sides(question: str, margins):
    """The one-sided alternatives of the question: (side, threshold) pairs, side "below" for
    H1 d < threshold and "above" for H1 d > threshold; equivalence has both."""
    return {"regression": [("below", -margins)],
            "non-inferiority": [("above", -margins)],
            "superiority": [("above", margins)],
            "equivalence": [("above", -margins), ("below", margins)]}[question]


def _p_values(test, question, d, codes, bounds, diff, se, df, margins, T, flips=None):
    out = np.zeros(T)
    for side, thr in _sides(question, margins):
        if test == "permutation":
            _, cluster, draws, seed = flips
            p = np.array([_permutation_p(d[bounds[t]:bounds[t + 1]] - thr[t],
                                         cluster[bounds[t]:bounds[t + 1]], side, draws,
                                         seed + t) for t in range(T)])
        elif test == "mcnemar":
            p = _mcnemar_p(d, codes, T, side)
        elif test == "wilcoxon":
            p = np.array([_wilcoxon_p(d[bounds[t]:bounds[t + 1]] - thr[t], side)
                          for t in range(T)])
        else:
            p = _t_p(diff - thr, se, df, side)
        out = np.maximum(out, p)
    return np.clip(out, PVALUE_FLOOR, 1.0)


def _t_p(excess, se, df, side):
    """One-sided p of a mean ``excess`` over the threshold with standard error ``se``; a zero
    standard error decides by the sign alone; too few units (nan) give p = 1."""
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(se > 0, excess / np.where(se > 0, se, 1.0),
                     np.sign(excess) * np.inf)
    z = np.where(np.isnan(se), np.nan, z)
    dist = np.where(np.isfinite(df), df, np.inf)
    p = stats.t.cdf(z, dist) if side == "below" else stats.t.sf(z, dist)
    return np.where(np.isnan(p), 1.0, p)


def _mcnemar_p(d, codes, T, side):
    """Exact one-sided McNemar: of the b + c discordant items, regressions ~ Binomial(b + c,
    1/2) under H0 (equal rates)."""
    b = np.bincount(codes, d < 0, T).astype(np.int64)
    c = np.bincount(codes, d > 0, T).astype(np.int64)
    return np.atleast_1d(gs.one_sided_mcnemar(b, c) if side == "below"
                         else gs.one_sided_mcnemar(c, b)).astype(float)


def _permutation_p(x, cluster, side, draws: int, seed: int) -> float:
    """One-sided paired sign-flip test of the differences ``x`` (shifted by the margin):
    under H0 (at its boundary, symmetric about 0) each cluster's sum is as likely flipped; the
    p-value counts the flips at least as extreme, the observed one among them
    ((1 + count)/(1 + draws))."""
    sums = np.bincount(pd.factorize(cluster)[0], x)
    if not np.any(sums):
        return 1.0
    rng = np.random.default_rng(seed)
    total = np.empty(draws)
    for start in range(0, draws, 1000):     # flips in blocks: memory of 1,000 x clusters
        stop = min(start + 1000, draws)
        signs = rng.integers(0, 2, size=(stop - start, len(sums)), dtype=np.int8) * 2.0 - 1.0
        total[start:stop] = signs @ sums
    observed = sums.sum()
    tol = 1e-9 * np.abs(sums).sum()
    extreme = total <= observed + tol if side == "below" else total >= observed - tol
    return float((1 + extreme.sum()) / (1 + draws))


def _wilcoxon_p(x, side) -> float:
    """One-sided signed-rank p with zeros split (Demšar's convention; differences rounded to
    12 decimals so rounding noise is a zero): exact up to 50 differences without ties or zeros,
    the normal approximation otherwise (scipy's exact test with ties permutes, slowly)."""
    x = np.round(np.asarray(x, float), 12)
    if len(x) < 2 or np.all(x == 0):
        return 1.0
    plain = len(x) <= 50 and not (x == 0).any() and len(np.unique(np.abs(x))) == len(x)
    return float(stats.wilcoxon(x, zero_method="zsplit", method="exact" if plain else "approx",
                                alternative="less" if side == "below" else "greater").pvalue)


def _intervals(test, question, d, codes, diff, se, df, T, confidence, alpha):
    level = 1 - 2 * alpha if question == "equivalence" else confidence
    if test == "mcnemar":
        b = np.bincount(codes, d < 0, T).astype(int)
        c = np.bincount(codes, d > 0, T).astype(int)
        n = np.bincount(codes, minlength=T)
        # first = the candidate: (candidate right, baseline wrong) = the improvements c
        low, high = gs.paired_difference_interval(c, b, n, confidence=level, method="tango")
        return np.asarray(low, float), np.asarray(high, float)
    q = stats.t.ppf(0.5 + level / 2, np.where(np.isfinite(df), df, np.inf))
    return diff - q * se, diff + q * se


def _overall(question, tasks, margin, relative, alpha, confidence) -> TaskGate:
    """The macro-average over the tasks: its standard error from the tasks' (independent),
    a z test of the question, a normal interval."""
    diff = np.mean([t.difference for t in tasks])
    se = np.sqrt(np.sum([t.se ** 2 for t in tasks])) / len(tasks)
    b = float(np.mean([t.baseline for t in tasks]))
    m = margin * abs(b) if relative else margin
    p = 0.0
    for side, thr in _sides(question, np.array([m])):
        p = max(p, float(_t_p(np.array([diff - thr[0]]), np.array([se]), np.array([np.inf]),
                              side)[0]))
    p = float(np.clip(p, PVALUE_FLOOR, 1.0))
    level = 1 - 2 * alpha if question == "equivalence" else confidence
    q = stats.norm.ppf(0.5 + level / 2)
    return TaskGate("overall", sum(t.n for t in tasks), sum(t.clusters for t in tasks), b,
                    float(np.mean([t.candidate for t in tasks])), float(diff), float(se),
                    float(diff - q * se), float(diff + q * se), float(m), p, p, "z",
                    p <= alpha)   # its items are the tasks' (listed there)


def _decide(question, overall, tasks, alpha):
    """Whether the gate passes, and what decided it (the fixed-n answer)."""
    if question == "regression":
        regressed = [t.task for t in tasks if t.shown] if len(tasks) > 1 else []
        if overall.shown:
            return False, "the overall test shows a regression"
        if regressed:
            return False, (f"{counted(len(regressed), 'task')} regressed after Holm's"
                           f" adjustment ({', '.join(regressed[:LISTED])})")
        return True, "no regression shown, overall or in any task"
    word = {"non-inferiority": "non-inferiority", "equivalence": "equivalence",
            "superiority": "superiority"}[question]
    if overall.shown:
        return True, f"the overall test shows {word}"
    return False, f"{word} is not shown by the overall test"


def _evalue(m: Matched, d, bounds, question, margin, score_range):
    """This look's e-value of the question's null on the item differences scaled into
    [−1, 1], and each task's; (None, None) where the scores' range is not known or the margin
    is relative (its size is not known before the look).

    A regression is gated per task and overall, so its e-value is the mean of the tasks' (an
    e-value for "no task regressed", which implies the macro-average did not: a task's e-value
    of T/α alone raises the alarm). Non-inferiority, equivalence and superiority bet on the
    items pooled over the tasks (their micro-average), as the report says."""
    if margin is None:
        return None, None
    if score_range is not None:
        width = score_range[1] - score_range[0]
    else:
        f = m.frame
        means = np.concatenate([f["b_s"] / f["b_n"], f["c_s"] / f["c_n"]])
        if means.min() < 0 or means.max() > 1:
            return None, None
        width = 1.0
    x = np.clip(d / width, -1.0, 1.0)
    mm = margin / width
    T = len(m.tasks)
    if question == "regression":
        logs = np.array([gs.regression_evalue(x[bounds[t]:bounds[t + 1]], mm, log=True)
                         for t in range(T)], dtype=float)
        mean = float(special.logsumexp(logs) - np.log(T))
        return _capped(mean), np.array([_capped(v) for v in logs])
    if question == "non-inferiority":
        return _capped(gs.noninferiority_evalue(x, mm, log=True)), None
    # H0 d <= m (superiority) or d >= m (equivalence's upper side): d - m scaled by 1 + m
    # stays in [-1, 1] and has mean <= 0 (>= 0) exactly under H0
    above = (x - mm) / (1 + mm)
    if question == "superiority":
        return _capped(gs.noninferiority_evalue(above, 0.0, log=True)), None
    low = gs.noninferiority_evalue(x, mm, log=True)
    high = gs.regression_evalue(above, 0.0, log=True)
    return _capped(min(low, high)), None


#: The largest log e-value kept (e^700 ≈ 1e304): beyond it a float overflows, and the
#: evidence is past any threshold 1/alpha anyway.
LOG_EVALUE_CAP = 700.0


def _capped(log_e) -> float:
    """An e-value from its log, at most e^LOG_EVALUE_CAP (no overflow reaches the user)."""
    return float(np.exp(min(float(log_e), LOG_EVALUE_CAP)))


def _looks(earlier, evalue, alpha, question, when, m, overall, passed, decided_by) -> tuple:
    """The ledger's looks with this one appended (none without a ledger)."""
    from .ledger import look

    if not earlier and when is None:
        return ()
    return (*earlier, look(earlier, evalue, alpha, question, when, m, overall, passed,
                           decided_by))


def _anytime(question, looks, alpha, passed, decided_by):
    """With a ledger the e-process decides: a regression alarm (or the evidence a pass needs)
    stands from the first look where the e-process reached 1/α."""
    first = next((i for i, lk in enumerate(looks) if lk["eprocess"] is not None
                  and lk["eprocess"] >= 1 / alpha), None)
    if question == "regression":
        if first is None:
            return True, ("no regression alarm: the e-process is below 1/alpha at every look"
                          f" ({decided_by} at this look alone, fixed n)")
        return False, f"the e-process reached 1/alpha at look {looks[first]['look']}"
    if first is None:
        return False, (f"the e-process has not reached 1/alpha ({decided_by} at this look"
                       " alone, fixed n)")
    return True, f"the e-process reached 1/alpha at look {looks[first]['look']}"


def _enough_trials(m: Matched, ks) -> None:
    """pass@k and pass^k need k trials of every item: a larger k is refused (its estimate
    would be silently wrong, or left out)."""
    if ks is None or max(ks) <= 1:
        return
    f = m.frame
    for run, name in (("b", "baseline"), ("c", "candidate")):
        n = f[f"{run}_n"].to_numpy()
        i = int(np.argmin(n))
        if n[i] < max(ks):
            raise RankwiseError(f"pass@{max(ks)} needs at least {max(ks)} trials of every item;"
                                f" item {f['item'].iloc[i]!r} of task {f['task'].iloc[i]!r}"
                                f" has {int(n[i])} in the {name}: give --k at most {int(n[i])}")


def _trials(m: Matched, ks):
    """Per task with repeated trials: pass@k, pass^k, the variance split, and the paired
    difference of pass@k over the items (pass@k computed for every item at once)."""
    f = m.frame
    T = len(m.tasks)
    codes = f["task"].cat.codes.to_numpy()
    bounds = np.r_[0, np.cumsum(np.bincount(codes, minlength=T))]
    runs = {name: (f[f"{r}_n"].to_numpy(), f[f"{r}_s"].to_numpy(), f[f"{r}_q"].to_numpy())
            for r, name in (("b", "baseline"), ("c", "candidate"))}
    fewest = np.minimum.reduceat(np.minimum(runs["baseline"][0], runs["candidate"][0]),
                                 bounds[:-1]).astype(int)
    usable = [sorted({1, int(v)}) if ks is None else [k for k in ks if k <= v] for v in fewest]
    at, hat = {}, {}
    if m.binary:
        for k in sorted({k for u in usable for k in u}):
            rows = np.repeat(fewest >= k, np.diff(bounds))
            for name, (nn, s, _) in runs.items():
                nn_i, c = nn[rows].astype(int), np.rint(s[rows]).astype(int)
                at[name, k] = _full(rows, gs.pass_at_k(nn_i, c, k))
                hat[name, k] = _full(rows, gs.pass_hat_k(nn_i, c, k))
    for t, task in enumerate(m.tasks):
        part = slice(bounds[t], bounds[t + 1])
        out = {key: {} for key in ("trials", "mean", "pass_at", "pass_all", "within",
                                   "between", "difference", "low", "high")}
        for name, (nn, s, q) in runs.items():
            nn, s, q = nn[part], s[part], q[part]
            out["trials"][name] = [int(nn.min()), int(nn.max())]
            out["mean"][name] = float(np.mean(s / nn))
            if len(nn) > 1 and nn.sum() > len(nn):
                split = gs.trial_variance_from_sums(nn, s, q)
                out["within"][name] = float(split.within)
                out["between"][name] = float(split.between)
            else:
                out["within"][name] = out["between"][name] = float("nan")
            for k in usable[t] if m.binary else ():
                out["pass_at"].setdefault(name, {})[k] = float(at[name, k][part].mean())
                out["pass_all"].setdefault(name, {})[k] = float(hat[name, k][part].mean())
        for k in usable[t] if m.binary else ():
            dk = at["candidate", k][part] - at["baseline", k][part]
            mean = float(dk.mean())
            se = float(dk.std(ddof=1) / np.sqrt(len(dk))) if len(dk) > 1 else np.nan
            q = stats.t.ppf(0.975, max(len(dk) - 1, 1))
            out["difference"][k], out["low"][k], out["high"][k] = (
                mean, mean - q * se, mean + q * se)
        yield Trials(task, out["trials"], out["mean"], out["pass_at"], out["pass_all"],
                     out["within"], out["between"], out["difference"], out["low"], out["high"])


def _full(rows, values) -> np.ndarray:
    """``values`` of the rows ``rows`` selects, in an array of every row (NaN elsewhere)."""
    out = np.full(len(rows), np.nan)
    out[rows] = values
    return out


def _unmatched_notes(m: Matched) -> list:
    notes = []
    unit = "item" if m.units == "items" else "data set"
    for run, only in (("baseline", m.only_baseline), ("candidate", m.only_candidate)):
        n = unmatched_count(only)
        if n:
            notes.append(f"{counted(n, unit)} only the {run} has"
                         f" {'was' if n == 1 else 'were'} left out (--unmatched drop; the JSON"
                         f" lists them)")
    return notes
