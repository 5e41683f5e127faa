"""Data set by data set: the tests of two learners on each data set's cross-validation folds, as
WEKA's Experimenter reports them.

For each data set and each learner against the base learner (the verdict's best, or
``control``; WEKA's "test base"), from the results of every fold (matched by repeat and fold):
the mean (sd) over folds, the corrected resampled t-test (:mod:`rankwise.stats.per_dataset`),
with ``tests="5x2cv"`` also Dietterich's 5×2cv t and Alpaydın's F (only on a 5 × 2-fold design),
and the Bayesian correlated t-test beside them with its ROPE. A learner is marked ``v`` on a
data set where it is significantly better than the base (in the criterion's direction) and
``*`` where it is worse; the ``(v/ /*)`` row counts them. With the all-pairs family every pair
is tested too (in the JSON).

Each run may also be one random train/test split (WEKA's default design, read as one fold per
run): the same tests apply, with the Bayesian test's correlation ρ = n₂/(n₁ + n₂) instead of
1/folds. The test-to-training ratio n₂/n₁ comes from WEKA's instance counts, from the cross-validation
of a results database (k folds: exactly 1/(k − 1)), from ``test_fraction`` f (f/(1 − f)), or
is assumed to be 1/(k − 1) for k distinct folds, which the report says.

These counts describe the data sets one at a time; they are not a test across data sets
(Demšar 2006, §3): the verdict's test is the one whose conclusion generalises.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from ..errors import RankwiseError
from ..stats.adjust import adjust
from ..stats.bayesian import correlated_t_test
from ..stats.per_dataset import corrected_resampled_ttest, five_by_two_f, five_by_two_t
from ..stats.results import jsonable
from .bayesian import correlation, fold_blocks

#: ``per_dataset=`` choices: the corrected t-test, or the 5×2cv tests (with it where it applies).
PER_DATASET_TESTS = ("corrected", "5x2cv")
PER_DATASET_ADJUST = ("none", "holm")
#: What v and * mark: ``better``/worse in the criterion's direction (the default), or
#: ``weka``: a higher/lower value, as WEKA's Experimenter marks them whatever the measure.
PER_DATASET_MARKS = ("better", "weka")


@dataclass(frozen=True)
class PairOnDataset:
    """One learner against another on one data set."""

    dataset: str
    base: str
    learner: str
    n: int
    corrected: object            # TestResult
    five_by_two_t: object = None
    five_by_two_f: object = None
    bayesian: object = None      # BayesianResult of the correlated t-test
    adjusted: float | None = None  # the corrected p-value adjusted across data sets
    mark: str = ""               # "v" better than the base, "*" worse, "" neither

    def to_dict(self) -> dict:
        def test(r):
            return None if r is None else {"statistic": r.statistic, "pvalue": r.pvalue,
                                           "df": list(r.df), **r.details}
        return {"dataset": self.dataset, "base": self.base, "learner": self.learner,
                "n": self.n, "corrected_t": test(self.corrected),
                "five_by_two_t": test(self.five_by_two_t),
                "five_by_two_f": test(self.five_by_two_f),
                "bayesian": None if self.bayesian is None else self.bayesian.to_dict(),
                "adjusted_pvalue": self.adjusted, "mark": self.mark}


@dataclass(frozen=True)
class PerDataset:
    """The per-data-set tests of a comparison (see the module docstring)."""

    base: str
    learners: tuple          # the table's columns: the base first
    datasets: tuple
    means: np.ndarray        # datasets × learners, over folds
    sds: np.ndarray
    folds: np.ndarray        # datasets × learners: how many fold results
    against_base: tuple      # PairOnDataset, learner by learner, data set by data set
    all_pairs: tuple = ()
    settings: dict = field(default_factory=dict)
    notes: tuple = ()

    def marks(self) -> dict:
        return {(p.dataset, p.learner): p.mark for p in self.against_base}

    def totals(self) -> dict:
        """``{learner: (better, neither, worse)}`` against the base over the data sets."""
        out = {}
        for name in self.learners[1:]:
            mine = [p.mark for p in self.against_base if p.learner == name]
            out[name] = (mine.count("v"), mine.count(""), mine.count("*"))
        return out

    def sentence(self) -> str:
        totals = self.totals()
        shown = "; ".join(f"{name} {v}/{t}/{w}" for name, (v, t, w) in totals.items())
        s = self.settings
        adjusted = (" (Holm-adjusted over the data sets)" if s["adjust"] == "holm" else
                    " (not adjusted over the data sets, as in WEKA)")
        return (f"Data set by data set, against {self.base} by the corrected resampled t-test"
                f" at alpha = {s['alpha']}{adjusted}, better/neither/worse: {shown}. These"
                " counts describe the data sets one at a time; they are not a test across data"
                " sets, and the verdict's test is the one whose conclusion generalises"
                " (Demšar 2006, §3).")

    def to_dict(self) -> dict:
        return jsonable({
            "base": self.base, "learners": list(self.learners),
            "datasets": list(self.datasets),
            "means": self.means, "sds": self.sds, "folds": self.folds,
            "totals": {k: {"better": v, "neither": t, "worse": w}
                       for k, (v, t, w) in self.totals().items()},
            "against_base": [p.to_dict() for p in self.against_base],
            "all_pairs": [p.to_dict() for p in self.all_pairs],
            "settings": self.settings, "notes": list(self.notes)})


def test_train_ratios(table, folds: int, test_fraction) -> tuple:
    """``({data set: n₂/n₁}, how)``: WEKA's counts, a results database's k-fold design, the
    given test fraction, or the k-fold assumption."""
    if test_fraction is not None:
        f = float(test_fraction)
        ratio = f / (1.0 - f)
        return {d: ratio for d in table.datasets}, f"given: test fraction {f:g} (n2/n1 = {ratio:.4g})"
    reading = getattr(table, "reading", None)
    given = getattr(reading, "test_train_ratio", None)
    if given:
        return {d: given.get(d) for d in table.datasets}, "from WEKA's instance counts"
    if folds < 2:
        raise RankwiseError("the per-data-set tests need the test-to-training ratio: the results"
                            " have one fold per run (hold-out), so give --test-fraction F (the"
                            " share of instances tested on)")
    ratio = 1.0 / (folds - 1)
    if reading is not None and reading.source == "results-db":
        return {d: ratio for d in table.datasets}, f"from the design: {folds}-fold cross-validation"
    return ({d: ratio for d in table.datasets},
            f"assumed: {folds}-fold cross-validation, n2/n1 = 1/{folds - 1} (--test-fraction"
            " sets it)")


def per_dataset(table, base: str, *, alpha: float, tests: str = "corrected",
                adjust_over: str = "none", test_fraction=None, rope: float = 0.0,
                threshold: float = 0.95, decimals=None, all_pairs: bool = False,
                marks: str = "better") -> PerDataset:
    """Every learner against ``base`` on every data set (and every pair with ``all_pairs``)."""
    blocks, _ = fold_blocks(table, "--per-dataset")
    folds = int(table.raw["fold"].nunique())
    repeats = int(table.raw["repeat"].nunique()) if "repeat" in table.raw else 1
    if tests == "5x2cv" and (repeats, folds) != (5, 2):
        raise RankwiseError(f"the 5x2cv tests need 5 repetitions of 2-fold cross-validation;"
                            f" these results have {repeats} repetition(s) of {folds} fold(s)"
                            " (--per-dataset corrected fits any design)")
    ratios, how = test_train_ratios(table, folds, test_fraction)
    learners = (base,) + tuple(n for n in table.learners if n != base)
    datasets = tuple(d for d in table.datasets if d in blocks)
    means = np.full((len(datasets), len(learners)), np.nan)
    sds, counts = means.copy(), np.zeros(means.shape, dtype=int)
    for i, d in enumerate(datasets):
        wide = blocks[d]
        for j, name in enumerate(learners):
            if name in wide:
                v = wide[name].dropna().to_numpy(dtype=float)
                counts[i, j] = v.size
                if v.size:
                    means[i, j] = v.mean()
                    sds[i, j] = v.std(ddof=1) if v.size > 1 else np.nan
    common = dict(hib=table.higher_is_better, ratios=ratios, tests=tests, folds=folds, rope=rope,
                  threshold=threshold, decimals=decimals)
    # WEKA's marks say higher/lower: for a lower-is-better measure they are the other way round
    higher = marks == "weka" and not table.higher_is_better
    against = tuple(_marked([_pair(blocks[d], d, base, name, **common) for name in learners[1:]
                       for d in datasets], alpha, adjust_over, higher))
    pairs = ()
    if all_pairs:
        names = list(table.learners)
        pairs = tuple(_marked([_pair(blocks[d], d, a, b, **common) for x, a in enumerate(names)
                               for b in names[x + 1:] for d in datasets], alpha, adjust_over,
                              higher))
    settings = {"test": "corrected resampled t-test (Nadeau & Bengio 2003)", "tests": tests,
                "alpha": alpha, "adjust": adjust_over, "marks": marks, "test_train_ratio": how,
                "ratios": ratios, "repeats": repeats, "folds": folds,
                "bayesian": {"test": "correlated-t", "rope": rope, "threshold": threshold}}
    if folds == 1:   # only the settings of this design change: CV outputs stay as they were
        settings["design"] = (f"random train/test splits: {repeats} runs of one split each"
                              " (the correlated t-test's rho = n2/(n1 + n2))")
    return PerDataset(base, learners, datasets, means, sds, counts, against, pairs, settings)


def _pair(wide, dataset, a, b, *, hib, ratios, tests, folds, rope, threshold, decimals):
    """b against a on one data set, on the folds both have (None when fewer than two)."""
    if a not in wide or b not in wide:
        return None
    both = wide[[a, b]].dropna()
    if len(both) < 2:
        return None
    x, y = both[a].to_numpy(dtype=float), both[b].to_numpy(dtype=float)
    ratio = ratios.get(dataset)
    corrected = corrected_resampled_ttest(x, y, test_train_ratio=ratio, higher_is_better=hib,
                                          decimals=decimals)
    t = f = None
    if tests == "5x2cv":
        t = five_by_two_t(x.reshape(5, 2), y.reshape(5, 2), higher_is_better=hib,
                          decimals=decimals)
        f = five_by_two_f(x.reshape(5, 2), y.reshape(5, 2), higher_is_better=hib,
                          decimals=decimals)
    bayes = correlated_t_test(x, y, **correlation(folds, ratio), rope=rope, names=(a, b),
                              higher_is_better=hib, threshold=threshold, decimals=decimals)
    return PairOnDataset(dataset, a, b, len(both), corrected, t, f, bayes)


def _marked(pairs, alpha, adjust_over, flipped: bool = False) -> list:
    """The pairs with their marks (v better, * worse; ``flipped``: v a higher value of a
    lower-is-better measure, WEKA's marks); with ``holm`` the corrected p-values of one learner
    are adjusted over the data sets first."""
    out = [p for p in pairs if p is not None]
    if adjust_over == "holm":
        groups = {}
        for i, p in enumerate(out):
            groups.setdefault((p.base, p.learner), []).append(i)
        adjusted = [None] * len(out)
        for rows in groups.values():
            for i, v in zip(rows, adjust([out[i].corrected.pvalue for i in rows], "holm")):
                adjusted[i] = float(v)
    else:
        adjusted = [p.corrected.pvalue for p in out]
    marked = []
    for p, apv in zip(out, adjusted):
        mark = ""
        if apv <= alpha:
            mark = "v" if (p.corrected.details["mean_difference"] > 0) != flipped else "*"
        marked.append(replace(p, adjusted=apv if adjust_over == "holm" else None, mark=mark))
    return marked
