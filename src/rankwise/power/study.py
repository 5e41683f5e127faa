"""The power and replicability study of Demšar (2006, §4) and García et al. (2010, §6).

For each bias k and each of ``draws`` samples, N data sets are drawn from the pool with Demšar's
weights (see :mod:`.sampling`), the requested tests and post-hoc procedures are run on the
sample with the same functions as ``rankwise compare``, and their p-values and decisions are
recorded. Per test (or procedure) and bias the study reports the rejection rate at alpha with its
Monte Carlo interval, the p-values' mean and quartiles, and two replicabilities: Bouckaert's
R(e), the probability that two independent samples lead to the same decision, estimated without
bias as (r(r − 1) + a(a − 1)) / (D(D − 1)) from r rejections and a acceptances in D draws, and
Demšar's R(p) = 1 − 2·var(p). Formulas and choices: ``docs/reference/power.md``.

Draws are split into fixed chunks of ``CHUNK`` draws, each with its own seed derived from
(seed, sample size, bias, chunk), so the results do not depend on how many processes run them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from ..defaults import POWER_DRAWS, POWER_SAMPLE_SIZE, POWER_SEED
from .. import _validate as check
from ..protocol import Analysis
from ..errors import RankwiseError
from ..names import CONTROL_PROCEDURES, OMNIBUS_TESTS, OPTIONAL_PROCEDURES, TWO_LEARNER_TESTS
from ..stats.adjust import adjust
from ..stats.anova import rm_anova
from ..stats.effects import wilson_interval
from ..stats.omnibus import friedman, friedman_aligned, iman_davenport, quade
from ..stats.pairwise import pairwise_statistics
from ..stats.ranking import DEFAULT_DECIMALS, round_scores
from ..stats.results import jsonable
from ..stats.two_learners import paired_ttest, sign_test, wilcoxon
from .sampling import draw_samples, selection_weights

SCHEMA = "rankwise.power/1"
#: Demšar's biases run to about 15-20 for accuracies; eleven values from 0 to 20.
DEFAULT_BIASES = tuple(float(b) for b in range(0, 21, 2))
DEFAULT_DRAWS = POWER_DRAWS
DEFAULT_SAMPLE_SIZE = POWER_SAMPLE_SIZE
DEFAULT_SEED = POWER_SEED
DEFAULT_TWO = ("wilcoxon", "sign", "ttest")
#: Draws per unit of work: fixed, so that the seeds and results do not depend on --jobs.
CHUNK = 50
PROCEDURES = CONTROL_PROCEDURES + OPTIONAL_PROCEDURES


def _omnibus(name, x, hib, decimals, alpha):
    # The chi-square / F p-values of the papers' studies: the permutation p-values that compare
    # uses below 20 data sets would cost seconds per draw.
    if name == "friedman":
        return friedman(x, higher_is_better=hib, decimals=decimals, method="chi2").pvalue
    if name == "iman_davenport":
        return iman_davenport(x, higher_is_better=hib, decimals=decimals, method="chi2").pvalue
    if name == "friedman_aligned":
        return friedman_aligned(x, higher_is_better=hib, decimals=decimals).pvalue
    if name == "quade":
        return quade(x, higher_is_better=hib, decimals=decimals).pvalue
    return rm_anova(x, alpha=alpha, decimals=decimals).pvalue


def _two(name, a, b, hib, decimals):
    if name == "wilcoxon":
        return wilcoxon(a, b, higher_is_better=hib, decimals=decimals).pvalue
    if name == "sign":
        return sign_test(a, b, higher_is_better=hib, decimals=decimals).pvalue
    return paired_ttest(a, b, higher_is_better=hib, decimals=decimals,
                        relative=name == "ttest_relative").pvalue


def run_chunk(job: dict) -> dict:
    """One chunk of draws (a module-level function, so that worker processes can run it)."""
    rng = np.random.default_rng(np.random.SeedSequence(job["entropy"]))
    rows = draw_samples(job["weights"], job["size"], job["draws"], rng)
    values, hib, dec, alpha = job["values"], job["hib"], job["decimals"], job["alpha"]
    k = values.shape[1]
    out = {name: np.empty(len(rows)) for name in job["tests"]}
    procs = {name: np.empty((len(rows), 3)) for name in job["procedures"]}
    control = job["control"]
    for i, r in enumerate(rows):
        x = values[r]
        for name in job["tests"]:
            out[name][i] = (_two(name, x[:, 0], x[:, 1], hib, dec) if k == 2 else
                            _omnibus(name, x, hib, dec, alpha))
        if procs:
            p = pairwise_statistics(x, "friedman", higher_is_better=hib, decimals=dec).pvalues
            p = np.delete(p[control], control)
            for name in procs:
                apv = adjust(p, name, k=k)
                procs[name][i] = ((apv <= alpha).sum(), apv.min(), apv.mean())
    return {"tests": out, "procedures": procs}


@dataclass(frozen=True)
class PowerEntry:
    """The behaviour of one test (or procedure) at one bias and sample size over the draws.

    Examples
    --------
    >>> import rankwise
    >>> from rankwise.power import power_study
    >>> study = power_study(rankwise.load_example("garcia2008"), learners="C4.5,Kernel",
    ...                     sample_size="10", biases=[10], draws=50, tests="wilcoxon")
    >>> entry = study.results[0]
    >>> entry.test, entry.sample_size, entry.draws
    ('wilcoxon', 10, 50)
    >>> entry.ci_low <= entry.rejection_rate <= entry.ci_high
    True
    """

    test: str
    kind: str                  # "test" or "procedure"
    bias: float
    sample_size: int
    draws: int
    rejection_rate: float
    ci_low: float
    ci_high: float
    replicability: float       # Bouckaert's R(e)
    replicability_p: float     # Demšar's R(p) = 1 − 2 var(p)
    p_mean: float
    p_q1: float
    p_median: float
    p_q3: float
    undefined: int = 0         # draws whose p-value is undefined (counted as not rejecting)
    mean_rejected: float | None = None
    mean_apv: float | None = None

    def to_dict(self) -> dict:
        out = {"test": self.test, "kind": self.kind, "bias": self.bias,
               "sample_size": self.sample_size, "rejection_rate": self.rejection_rate,
               "ci_low": self.ci_low, "ci_high": self.ci_high,
               "replicability": self.replicability, "replicability_p": self.replicability_p,
               "p_mean": self.p_mean, "p_q1": self.p_q1, "p_median": self.p_median,
               "p_q3": self.p_q3, "undefined": self.undefined}
        if self.kind == "procedure":
            out.update(mean_rejected=self.mean_rejected, mean_apv=self.mean_apv)
        return jsonable(out)


@dataclass(frozen=True, repr=False)
class PowerStudy(Analysis):
    """Everything a power study computed, with the settings that produced it;
    :mod:`rankwise.report.power` presents it in every format with its two figures.

    Examples
    --------
    >>> import rankwise
    >>> from rankwise.power import power_study
    >>> study = power_study(rankwise.load_example("garcia2008"), learners="C4.5,Kernel",
    ...                     sample_size="10", biases=[0, 10], draws=50)
    >>> study.learners, study.sample_sizes, study.biases, study.tests
    (('C4.5', 'Kernel'), (10,), (0.0, 10.0), ('wilcoxon', 'sign', 'ttest'))
    >>> study.schema, study.settings["draws"]
    ('rankwise.power/1', 50)
    """

    kind: ClassVar[str] = "power"
    version: ClassVar[int] = 1   # SCHEMA

    source: str
    criterion: str | None
    higher_is_better: bool
    learners: tuple
    control: str | None
    difference: str
    pool_size: int
    sample_sizes: tuple
    biases: tuple
    draws: int
    seed: int
    alpha: float
    tests: tuple
    procedures: tuple
    results: tuple
    target_power: float
    planning: tuple = ()
    notes: tuple = ()
    weights: dict = field(default_factory=dict, repr=False)  # bias -> selection weights

    @property
    def settings(self) -> dict:
        """The options the study ran with (each is also a key of its own in the JSON)."""
        size = self.sample_sizes[0] if len(self.sample_sizes) == 1 else list(self.sample_sizes)
        return {"learners": list(self.learners), "control": self.control,
                "sample_size": size, "biases": list(self.biases), "draws": self.draws,
                "seed": self.seed, "alpha": self.alpha, "tests": list(self.tests),
                "procedures": list(self.procedures), "target_power": self.target_power}

    def to_dict(self) -> dict:
        size = self.sample_sizes[0] if len(self.sample_sizes) == 1 else list(self.sample_sizes)
        return jsonable({
            "schema": SCHEMA, "source": self.source, "criterion": self.criterion,
            "higher_is_better": self.higher_is_better, "learners": list(self.learners),
            "control": self.control, "difference": self.difference,
            "pool_size": self.pool_size, "draws": self.draws, "sample_size": size,
            "seed": self.seed, "alpha": self.alpha, "biases": list(self.biases),
            "tests": list(self.tests), "procedures": list(self.procedures),
            "results": [e.to_dict() for e in self.results],
            "target_power": self.target_power,
            "planning": [dict(p) for p in self.planning], "settings": self.settings,
            "notes": list(self.notes)})

    def entry(self, test: str, bias: float, sample_size: int | None = None) -> PowerEntry:
        size = self.sample_sizes[0] if sample_size is None else sample_size
        for e in self.results:
            if e.test == test and e.bias == bias and e.sample_size == size:
                return e
        raise KeyError((test, bias, size))


def summarise(name, kind, bias, size, p, alpha, extra=None) -> PowerEntry:
    """A :class:`PowerEntry` from the draws' p-values (the smallest APV for a procedure)."""
    d = p.size
    undefined = int(np.isnan(p).sum())
    rejected = np.nan_to_num(p, nan=1.0) <= alpha
    r = int(rejected.sum())
    acc = d - r
    rep = (r * (r - 1) + acc * (acc - 1)) / (d * (d - 1)) if d > 1 else math.nan
    ok = p[~np.isnan(p)]
    q1, med, q3 = (np.quantile(ok, [0.25, 0.5, 0.75]) if ok.size else (math.nan,) * 3)
    low, high = wilson_interval(r / d, d)
    rep_p = 1.0 - 2.0 * float(np.var(ok, ddof=1)) if ok.size > 1 else math.nan
    kw = {}
    if extra is not None:
        kw = {"mean_rejected": float(extra[:, 0].mean()), "mean_apv": float(extra[:, 2].mean())}
    return PowerEntry(name, kind, float(bias), int(size), d, r / d, low, high, rep, rep_p,
                      float(ok.mean()) if ok.size else math.nan, float(q1), float(med),
                      float(q3), undefined, **kw)


def _differences(x, hib, control, k):
    """d_i in favour of the first learner (k = 2) or of the control over the mean of the
    others (k > 2), in the criterion's direction."""
    sign = 1.0 if hib else -1.0
    if k == 2:
        return sign * (x[:, 0] - x[:, 1])
    others = np.delete(x, control, axis=1).mean(axis=1)
    return sign * (x[:, control] - others)


def parse_sample_sizes(value) -> tuple:
    """``10``, ``"10"`` or ``"5:20"`` (every size from 5 to 20)."""
    if isinstance(value, (list, tuple)):
        sizes = tuple(int(v) for v in value)
    else:
        text = str(value).strip()
        try:
            if ":" in text:
                lo, hi = (int(v) for v in text.split(":", 1))
                sizes = tuple(range(lo, hi + 1))
            else:
                sizes = (int(text),)
        except ValueError:
            raise RankwiseError(f"--sample-size takes a number (10) or a range (5:20); got"
                                f" {value!r}") from None
    if not sizes:
        raise RankwiseError(f"--sample-size {value!r} is an empty range; write it low:high")
    return sizes


def parse_biases(value) -> tuple:
    if value is None:
        return DEFAULT_BIASES
    items = check.parse_list(value if isinstance(value, (list, tuple)) else str(value))
    try:
        biases = tuple(float(v) for v in items if str(v).strip() != "")
    except ValueError:
        raise RankwiseError(f"--bias takes numbers separated by commas (0,2,4); got"
                            f" {value!r}") from None
    if not biases or any(not math.isfinite(b) for b in biases):
        raise RankwiseError(f"--bias needs at least one finite number; got {value!r}")
    return biases


def _names(value, default, allowed, what) -> tuple:
    if value is None:
        return tuple(default)
    items = tuple(str(v).strip() for v in check.parse_list(value) if str(v).strip())
    for v in items:
        if v not in allowed:
            raise RankwiseError(f"unknown {what} {v!r}; choose from {', '.join(allowed)}")
    return items


def power_study(pool, *, learners=None, control: str | None = None, sample_size=None,
                biases=None, draws: int = DEFAULT_DRAWS, seed: int = DEFAULT_SEED, tests=None,
                procedures=None, alpha: float = 0.05, target_power: float = 0.8,
                decimals: int | None = DEFAULT_DECIMALS, jobs: int = 1,
                dask_scheduler: str | None = None, **load_options) -> PowerStudy:
    """Run the study on ``pool`` (anything :func:`rankwise.load_table` reads, or a ScoreTable).

    Parameters
    ----------
    learners : sequence of str, optional
        The learners compared (default: all of the pool). With two, the difference behind the
        weights is first − second; with more, the control's over the mean of the others.
    control : str, optional
        The control with three or more learners (default: the first of ``learners`` when they
        are given, else the best mean rank over the whole pool).
    sample_size : int, str or sequence
        N data sets per draw (default 10), or a range ``"5:20"`` for planning.
    biases : sequence of float
        The biases k (default 0, 2, …, 20).
    tests, procedures : sequence of str
        Tests (keys of ``compare``'s ``tests``; default ``wilcoxon``, ``sign``, ``ttest`` for
        two learners and the five omnibus tests for more) and control procedures on the
        Friedman ranking (default none; three or more learners).
    target_power : float
        With several sample sizes: report the smallest one whose rejection rate reaches it.
    jobs, dask_scheduler : parallelism (the results do not depend on it).

    Examples
    --------
    >>> import rankwise
    >>> from rankwise.power import power_study
    >>> study = power_study(rankwise.load_example("garcia2008"), learners="C4.5,Kernel",
    ...                     sample_size="10", biases=[0, 10], draws=50)
    >>> [(e.test, e.bias, round(e.rejection_rate, 2)) for e in study.results][:3]
    [('wilcoxon', 0.0, 0.94), ('sign', 0.0, 0.66), ('ttest', 0.0, 0.92)]
    """
    from ..tables import ScoreTable, load_table

    table = pool if isinstance(pool, ScoreTable) else load_table(pool, **load_options)
    check.real_scores(table.values, names=(table.datasets, table.learners))
    if np.isnan(table.values).any():
        raise RankwiseError("the power study draws complete samples; the pool has missing cells:"
                            " read it with missing='drop-datasets' or 'drop-learners'")
    alpha = check.alpha(alpha)
    seed = check.seed(seed)
    decimals = check.decimals(decimals)
    if not 0 < float(target_power) < 1:
        raise RankwiseError(f"--power must be between 0 and 1; got {target_power!r}")
    names = list(table.learners)
    chosen = list(_names(learners, names, names, "learner"))
    if len(chosen) < 2 or len(set(chosen)) != len(chosen):
        raise RankwiseError("--learners needs at least two different learners of the pool")
    x = round_scores(table.values[:, [names.index(n) for n in chosen]], decimals)
    k, hib = len(chosen), table.higher_is_better
    ctrl = _control(x, hib, decimals, chosen, control, learners is not None)
    tests, procedures = _what(tests, procedures, k)
    sizes = parse_sample_sizes(DEFAULT_SAMPLE_SIZE if sample_size is None else sample_size)
    n_pool = table.n_datasets
    bad = [s for s in sizes if not 2 <= s <= n_pool]
    if bad:
        raise RankwiseError(f"the sample size must be between 2 and the pool's {n_pool} data"
                            f" sets; got {bad[0]}")
    biases = parse_biases(biases)
    draws = check.whole("draws", draws, 2)
    c_index = chosen.index(ctrl) if ctrl is not None else 0
    weights = {b: selection_weights(_differences(x, hib, c_index, k), b) for b in biases}
    notes = [f"pool: {w}" for w in table.warnings]
    if max(sizes) > 0.5 * n_pool:
        notes.append(f"samples of up to {max(sizes)} of {n_pool} data sets overlap a lot, so the"
                     " bias changes them little and the draws are far from independent")
    common = {"values": x, "hib": hib, "decimals": decimals, "alpha": alpha, "tests": tests,
              "procedures": procedures, "control": c_index}
    results = _simulate(common, weights, sizes, biases, draws, int(seed), jobs, dask_scheduler)
    undefined = sorted({e.test for e in results if e.undefined})
    if undefined:
        notes.append(f"some draws gave no p-value for {', '.join(undefined)} (e.g. all"
                     " differences equal); they count as not rejecting and are left out of the"
                     " p-value summaries")
    planning = _plan(results, tests + procedures, biases, sizes, target_power) \
        if len(sizes) > 1 else ()
    difference = (f"{chosen[0]} − {chosen[1]}" if k == 2 else
                  f"{ctrl} − mean of the other {k - 1}")
    return PowerStudy(source=table.source, criterion=table.criterion, higher_is_better=hib,
                      learners=tuple(chosen), control=ctrl, difference=difference,
                      pool_size=n_pool, sample_sizes=sizes, biases=biases, draws=draws,
                      seed=int(seed), alpha=alpha, tests=tests, procedures=procedures,
                      results=tuple(results), target_power=float(target_power),
                      planning=planning, notes=tuple(notes), weights=weights)


def _control(x, hib, decimals, chosen, control, named: bool):
    """The control of three or more learners: the one asked for, else the first of the named
    learners, else the best mean rank over the pool; None for two learners."""
    if len(chosen) == 2:
        if control is not None:
            raise RankwiseError("--control is for three or more learners; with two, the"
                                " difference is the first minus the second of --learners")
        return None
    if control is not None:
        if control not in chosen:
            raise RankwiseError(f"the control {control!r} is not among the learners"
                                f" {', '.join(chosen)}")
        return control
    if named:
        return chosen[0]
    from ..stats.ranking import mean_ranks

    return chosen[int(np.argmin(mean_ranks(x, hib, decimals)))]


def _what(tests, procedures, k: int) -> tuple:
    """``(tests, procedures)`` of the study, checked."""
    tests = _names(tests, DEFAULT_TWO if k == 2 else OMNIBUS_TESTS,
                   TWO_LEARNER_TESTS if k == 2 else OMNIBUS_TESTS, "test")
    procedures = _names(procedures, (), PROCEDURES, "procedure")
    if procedures and k == 2:
        raise RankwiseError("post-hoc procedures compare three or more learners with a control;"
                            " with two learners the tests are the comparison")
    if not tests and not procedures:
        raise RankwiseError("nothing to study: give at least one test or procedure")
    return tests, procedures


def _simulate(common: dict, weights, sizes, biases, draws, seed, jobs, dask_scheduler) -> list:
    """Every (sample size, bias) as chunks of draws, each chunk seeded by its position, run
    sequentially or in parallel (the results do not depend on it), then summarised."""
    from .parallel import run_all

    jobs_list = []
    for si, size in enumerate(sizes):
        for bi, bias in enumerate(biases):
            for ci, start in enumerate(range(0, draws, CHUNK)):
                jobs_list.append({**common, "weights": weights[bias], "size": size,
                                  "draws": min(CHUNK, draws - start),
                                  "entropy": (seed, si, bi, ci)})
    chunks = run_all(run_chunk, jobs_list, jobs=jobs, dask_scheduler=dask_scheduler)
    results, per, alpha = [], len(range(0, draws, CHUNK)), common["alpha"]
    for si, size in enumerate(sizes):
        for bi, bias in enumerate(biases):
            part = chunks[(si * len(biases) + bi) * per:(si * len(biases) + bi + 1) * per]
            for name in common["tests"]:
                p = np.concatenate([c["tests"][name] for c in part])
                results.append(summarise(name, "test", bias, size, p, alpha))
            for name in common["procedures"]:
                m = np.concatenate([c["procedures"][name] for c in part])
                results.append(summarise(name, "procedure", bias, size, m[:, 1], alpha, m))
    return results


def _plan(results, names, biases, sizes, target) -> tuple:
    """For each test and bias: the smallest sample size whose rejection rate reaches
    ``target`` (None when none of the sizes does)."""
    out = []
    for name in names:
        for bias in biases:
            found = None
            for size in sizes:
                e = next(r for r in results if r.test == name and r.bias == bias
                         and r.sample_size == size)
                if e.rejection_rate >= target:
                    found = e
                    break
            out.append({"test": name, "bias": bias,
                        "sample_size": None if found is None else found.sample_size,
                        "rejection_rate": None if found is None else found.rejection_rate})
    return tuple(out)
