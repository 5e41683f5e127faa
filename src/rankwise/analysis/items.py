"""Models compared item by item within each task, and across tasks.

:func:`compare_items` runs both levels on an :class:`~rankwise.tables.items.ItemTable`:

- per task, every pair of models on the same items (McNemar's test for 0/1 scores, the sign-flip
  permutation test otherwise or when items are clustered), the p-values adjusted across the
  task's pairs, each model's score with its interval (Wilson and Clopper–Pearson for 0/1 scores;
  the t interval from the clustered standard error otherwise), and the models tied with the
  task's #1;
- across tasks, the task-level table (mean per model and task) through :func:`rankwise.compare`
  (Friedman, post-hoc, rank sets, the data-set check: everything), the macro-average with a
  two-level bootstrap interval (tasks, then items within tasks) and the models tied with #1.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from scipy import stats

from .. import _validate as check
from ..defaults import ITEM_DRAWS, ITEM_SEED
from ..errors import RankwiseError
from ..stats.adjust import adjust
from ..stats.items import (cluster_codes, cluster_summer, clustered_se, is_binary,
                           normal_adequate, paired_items, proportion_interval)
from ..stats.resample import bootstrap_counts
from ..stats.results import PVALUE_FLOOR, floor_pvalues
from ..tables.items import TASK_CELLS, ItemTable, read_items
from .best import BestSet, reconcile
from .item_trials import task_trials
from ..protocol import Analysis


@dataclass(frozen=True)
class TaskComparison:
    """One task: each model's score with its interval, and every pair of models.

    ``interval`` names how ``low``/``high`` were made (``wilson``, or ``t`` from the clustered
    standard error); ``clopper_pearson`` holds the exact interval for 0/1 scores;
    ``normal_ok`` says per model where the normal interval would have been adequate. ``pairs``
    is a :class:`rankwise.stats.items.PairedItems`; ``adjusted`` its p-values adjusted across
    the task's pairs by ``procedure``; ``tied`` the models not significantly below ``best``.
    """

    task: str
    models: tuple
    n_items: int
    n_clusters: int
    repeats: int
    dropped: int
    score: np.ndarray
    se: np.ndarray
    low: np.ndarray
    high: np.ndarray
    interval: str
    clopper_pearson: tuple | None
    normal_ok: np.ndarray | None
    pairs: object
    adjusted: np.ndarray
    best: str
    tied: tuple
    n_pairs: int = 0

    @property
    def dataset(self) -> str:
        """The task's name: a data set, as the JSON and every analysis name it."""
        return self.task

    @property
    def learners(self) -> tuple:
        """The models: the learners, as the JSON and every analysis name them."""
        return self.models

    def significant(self, alpha: float):
        """Indices of the pairs whose adjusted p-value is at most ``alpha``."""
        return np.flatnonzero(self.adjusted <= alpha)


@dataclass(frozen=True, repr=False)
class ItemComparison(Analysis):
    """Both levels of an item-level comparison (:func:`compare_items`).

    Attributes
    ----------
    items : ItemTable
    tasks : tuple of TaskComparison
    table : ScoreTable
        The task-level table: mean score per task (rows) and model.
    across : Comparison or None
        :func:`rankwise.compare` on ``table`` (None with fewer than two tasks, said in the notes).
    macro, macro_low, macro_high : ndarray
        The macro-average (mean over tasks of each task's mean) and its two-level bootstrap
        interval.
    best : str
        The model with the highest macro-average.
    tied : tuple of str
        The models whose macro-average is not significantly below ``best``'s (one-sided
        simultaneous bootstrap test at ``alpha``, max-t over the other models).
    settings : dict
    notes : tuple of str
    trials : tuple of TaskTrials
        Where some item was tried more than once (repeats): per task, each model's trials per
        item, mean, pass@k and pass^k (k = 1 and the task's fewest trials of an item) and the
        within- and between-item variances (:mod:`rankwise.analysis.item_trials`); empty
        otherwise.

    Examples
    --------
    >>> import rankwise
    >>> r = rankwise.compare_items(rankwise.load_items_example("evals"))
    >>> r.best, len(r.tasks), r.schema
    ('delta', 4, 'rankwise.items/3')
    >>> r.best_set.learners, r.best_set.procedure
    (('delta', 'gamma'), 'max-t')
    """

    kind: ClassVar[str] = "items"
    # 3: compare's words for the keys (learners, datasets, per_dataset, dataset); 2: models,
    # tasks, task; 1: {"kind": "items", ...}, no schema and no version
    version: ClassVar[int] = 3

    items: ItemTable
    tasks: tuple
    table: object
    across: object
    macro: np.ndarray
    macro_low: np.ndarray
    macro_high: np.ndarray
    best: str
    tied: tuple
    settings: dict
    notes: tuple
    trials: tuple = ()

    @property
    def models(self) -> tuple:
        return self.items.models

    @property
    def learners(self) -> tuple:
        """The models compared: the learners, as the JSON and every analysis name them."""
        return self.items.models

    @property
    def best_set(self) -> BestSet:
        """The report's one best set: the macro-average's, by the max-t test (``tied``)."""
        return BestSet("max-t", self.best, self.tied,
                       f"one-sided, simultaneous over the other models, alpha ="
                       f" {self.settings['alpha']}", "the macro-average")

    @property
    def across_best_set(self) -> BestSet | None:
        """The across-task comparison's winners as a best set (None without it)."""
        return None if self.across is None else across_best_set(self.across)

    @property
    def reconciled(self) -> str | None:
        """Why the across-task best set differs from the report's (None when they agree)."""
        other = self.across_best_set
        return None if other is None else reconcile(self.best_set, other)

    def to_dict(self) -> dict:
        """Everything, every pair included, as JSON-ready data (the JSON's ``across`` is the
        across-task comparison's whole JSON report; here its ``to_dict()``). The keys are
        compare's words: the models are ``learners``, the tasks ``datasets`` (their names, as
        compare lists them) and each task's comparison is an entry of ``per_dataset``;
        p-values below ``pvalue_floor`` are written as it, as compare writes them."""
        out = {"source": self.items.source, "reader": self.items.reader,
               "metric": self.items.metric, "learners": list(self.learners),
               "datasets": [t.task for t in self.tasks],
               "per_dataset": [_task_dict(t) for t in self.tasks],
               "trials": [t.to_dict() for t in self.trials],
               "pvalue_floor": PVALUE_FLOOR,
               "macro": {"mean": _floats(self.macro), "low": _floats(self.macro_low),
                         "high": _floats(self.macro_high), "best": self.best,
                         "tied_with_best": list(self.tied),
                         "interval": "two-level bootstrap: tasks, then items within tasks",
                         "tied_test": "one-sided simultaneous bootstrap (max-t) against the"
                                      " best"},
               "best_set": self.best_set.to_dict(),
               "across_best_set": (None if self.across_best_set is None
                                   else self.across_best_set.to_dict()),
               "best_sets_differ": self.reconciled,
               "settings": dict(self.settings), "notes": list(self.notes)}
        if self.across is not None:
            out["across"] = self.across.to_dict()
        return out


def across_best_set(cmp) -> BestSet:
    """The winners of the across-task comparison ``cmp``'s verdict as a :class:`BestSet`."""
    from ..names import procedure_title, ranking_title, test_title

    v = cmp.verdict
    # two models and no decision name no best: the better mean rank is the set's first
    best = v.best or cmp.table.learners[int(np.argmin(cmp.mean_ranks))]

    if v.procedure is None:      # two models: the two-learner test decided
        detail = f"the two-learner test at alpha = {v.alpha}"
    elif not v.detected:         # the omnibus gate: nobody is declared worse
        test = test_title(v.gate.test) if v.gate is not None else "the omnibus test"
        detail = f"{test} does not reject at alpha = {v.alpha}, so none is declared worse"
    else:
        detail = (f"{procedure_title(v.procedure)} on {ranking_title(v.ranking)}, alpha ="
                  f" {v.alpha}")
    winners = sorted(v.winners, key=lambda name: name != best)   # the best first
    return BestSet("against-best", best, tuple(winners), detail, "the tasks")


def _floats(a):
    """A column of numbers for the JSON (NaN and ±inf as null), as every report writes one."""
    from ..stats.results import jsonable

    return jsonable(np.asarray(a, dtype=float))


def _task_dict(t) -> dict:
    """One task's models, intervals and every pair, JSON-ready, in compare's words (``dataset``,
    ``learners``); p-values, adjusted or not, below ``PVALUE_FLOOR`` written as the floor."""
    p = t.pairs
    names = np.asarray(t.models, dtype=object)
    entry = {
        "dataset": t.task, "n_items": t.n_items, "n_clusters": t.n_clusters,
        "repeats": t.repeats, "dropped_items": t.dropped, "test": p.test,
        "interval": t.interval, "pair_interval": p.interval,
        "learners": list(t.models), "score": _floats(t.score), "se": _floats(t.se),
        "low": _floats(t.low), "high": _floats(t.high),
        "best": t.best, "tied_with_best": list(t.tied), "n_pairs": t.n_pairs,
        "pairs_kept": "all" if len(p.first) == t.n_pairs else "significant",
        "pairs": {"first": names[p.first].tolist(), "second": names[p.second].tolist(),
                  "difference": _floats(p.difference), "se": _floats(p.se),
                  "low": _floats(p.low), "high": _floats(p.high),
                  "pvalue": floor_pvalues(_floats(p.pvalue), True),
                  "adjusted": floor_pvalues(_floats(t.adjusted), True),
                  "method": np.asarray(p.method).astype(str).tolist()},
    }
    if t.clopper_pearson is not None:
        entry["clopper_pearson"] = {"low": _floats(t.clopper_pearson[0]),
                                    "high": _floats(t.clopper_pearson[1])}
        entry["normal_adequate"] = [bool(v) for v in t.normal_ok]
    if p.b is not None:
        entry["pairs"]["discordant"] = np.column_stack([p.b, p.c]).astype(int).tolist()
    return entry


def _task(t, *, alpha, procedure, test, mcnemar_method, interval, confidence, draws, seed,
          keep: str = "all") -> TaskComparison:
    name = t.name
    x = t.scores
    pairs = paired_items(x, clusters=t.clusters, weights=t.weights, test=test,
                         mcnemar_method=mcnemar_method, interval=interval,
                         confidence=confidence, draws=draws, seed=seed)
    adjusted = adjust(pairs.pvalue, procedure) if len(pairs.pvalue) else pairs.pvalue
    w = np.ones(len(t.items)) if t.weights is None else t.weights
    score = w @ x / w.sum()
    se = clustered_se(x, clusters=t.clusters, weights=t.weights)
    plain = is_binary(x) and t.clusters is None and t.weights is None
    cp = ok = None
    if plain:
        n = len(t.items)
        hits = np.rint(score * n)
        low, high = proportion_interval(hits, n, confidence=confidence, method="wilson")
        cp = proportion_interval(hits, n, confidence=confidence, method="clopper_pearson")
        ok = normal_adequate(hits, n)
        how = "wilson"
    else:
        df = max(pairs.n_clusters - 1, 1)
        q = stats.t.ppf(0.5 + confidence / 2, df)
        low, high = score - q * se, score + q * se
        how = "t"
    k = len(t.models)
    best = int(np.argmax(score))
    others = np.array([j for j in range(k) if j != best], dtype=np.int64)
    a, b = np.minimum(best, others), np.maximum(best, others)
    index = a * k - a * (a + 1) // 2 + (b - a - 1)       # the pair's place in triu order
    tied = [best] + others[np.asarray(adjusted)[index] > alpha].tolist()
    tied_names = tuple(t.models[i] for i in sorted(tied, key=lambda i: -score[i]))
    adjusted = np.asarray(adjusted)
    n_pairs = len(adjusted)
    if keep == "significant":      # a stream keeps what a reader reads: the pairs that differ
        from dataclasses import replace

        kept = np.flatnonzero(adjusted <= alpha)
        pairs = replace(pairs, **{f: (getattr(pairs, f)[kept] if getattr(pairs, f) is not None
                                      else None)
                                  for f in ("first", "second", "difference", "se", "low",
                                            "high", "pvalue", "method", "b", "c")})
        adjusted = adjusted[kept]
    return TaskComparison(name, t.models, len(t.items), pairs.n_clusters, t.repeats, t.dropped,
                          score, se, np.asarray(low), np.asarray(high), how, cp, ok, pairs,
                          adjusted, t.models[best], tied_names, n_pairs)


def _item_bootstrap(t, draws: int, rng) -> np.ndarray:
    """draws × models: each model's mean score on the task's items resampled (whole clusters when
    the items are clustered)."""
    n = len(t.items)
    w = np.ones(n) if t.weights is None else t.weights
    codes, c = cluster_codes(t.clusters, n)
    summer = cluster_summer(codes, c)
    sums = np.asarray(summer @ (t.scores * w[:, None]), dtype=np.float64)
    wsum = np.asarray(summer @ w, dtype=np.float64)
    counts = bootstrap_counts(draws, c, rng).astype(np.float32)
    # float32 products: the resampled means need 7 digits, not 16, and take half the time
    means = (counts @ sums.astype(np.float32)) / (counts @ wsum.astype(np.float32))[:, None]
    return means.astype(np.float64)


def _macro(boot: np.ndarray, draws: int, rng, confidence: float):
    """The two-level bootstrap of the macro-average: ``boot`` (tasks × draws × models) holds
    each task's item-resampled means; each draw then resamples the tasks."""
    m = boot.shape[0]
    pick = rng.integers(0, m, size=(draws, m))
    macro_r = boot[pick, np.arange(draws)[:, None], :].mean(axis=1)                  # R × k
    a = (1 - confidence) / 2
    low, high = np.quantile(macro_r, [a, 1 - a], axis=0)
    return macro_r, low, high


def _tied_with_best(macro: np.ndarray, macro_r: np.ndarray, alpha: float, models: tuple):
    """The models not significantly below the best: the one-sided max-t test of
    macro(best) − macro(j) > 0 over the other models at once, the differences studentised by
    their bootstrap standard deviations and centred at the observed ones."""
    best = int(np.argmax(macro))
    others = [j for j in range(len(models)) if j != best]
    if not others:
        return models[best], (models[best],)
    d = macro[best] - macro[others]
    dr = macro_r[:, [best]] - macro_r[:, others]
    sd = dr.std(axis=0, ddof=1)
    spread = sd > 0
    # a difference the bootstrap never moves (every draw gives the same gap: one task, items
    # all right for one model and all wrong for the other) is decided by its sign alone: a
    # gap above 0 in every draw is below the best, a gap of 0 ties (an infinite spread here
    # once tied a model scoring 0.0 with one scoring 1.0)
    t = np.where(spread, d / np.where(spread, sd, 1.0), np.where(d > 0, np.inf, 0.0))
    if spread.any():
        null_max = ((d - dr)[:, spread] / sd[spread]).max(axis=1)
        crit = np.quantile(null_max, 1 - alpha)
    else:
        crit = 0.0
    tied = [best] + [j for j, tj in zip(others, t) if not tj > crit]
    order = sorted(tied, key=lambda j: -macro[j])
    return models[best], tuple(models[j] for j in order)


def compare_items(items, *, alpha: float = 0.05, procedures: str = "holm", test: str = "auto",
                  mcnemar: str = "auto", interval: str = "auto", confidence: float | None = None,
                  draws: int = ITEM_DRAWS, seed: int = ITEM_SEED, across: bool = True,
                  **read_options) -> ItemComparison:
    """Compare models item by item within each task and across tasks.

    Parameters
    ----------
    items : ItemTable, pandas.DataFrame or path
        Scored items (see :func:`rankwise.read_items`, which reads anything else given with
        ``read_options``: ``reader``, ``metric``, ``filter``, ``cluster``, ``missing``).
    alpha : float
        Level of every decision.
    procedures : str
        How each task's pairwise p-values are adjusted across its pairs (any procedure of
        :func:`rankwise.adjust` for all pairs: ``holm``, ``bonferroni``, ``benjamini_hochberg``…).
    test : {"auto", "mcnemar", "permutation"}
        The paired test; ``auto``: McNemar's for 0/1 scores on independent items, the sign-flip
        permutation test (whole clusters flipped) otherwise.
    mcnemar : {"auto", "exact", "chi2", "chi2_corrected"}
        McNemar's p-value; ``auto`` is exact below 25 discordant items.
    interval : {"auto", "normal", "bootstrap"}
        The interval of each pair's difference; ``auto``: normal from the paired standard error
        for 0/1 scores, percentile paired bootstrap otherwise.
    confidence : float, optional
        Level of every interval; default 1 − alpha, as in :func:`rankwise.compare` (0.95 at
        the default alpha). Given, it is also the across-task comparison's.
    draws, seed : int
        Permutation and bootstrap draws per task and for the macro-average, and their seed.
    across : bool or dict
        Also run :func:`rankwise.compare` on the task-level table; a dict gives it keywords
        (``{"rank_sets": True, "dataset_check": True, "posthoc": "all"}``; ``alpha`` and
        ``seed`` are this function's unless the dict sets them).

    Returns
    -------
    ItemComparison

    References
    ----------
    Miller, E. (2024). Adding error bars to evals: a statistical approach to language model
    evaluations. arXiv:2411.00640. McNemar, Q. (1947). Psychometrika 12, 153–157. Bowyer, S.,
    Aitchison, L. & Ivanova, D. (2025). Position: don't use the CLT in LLM evals with fewer than a
    few hundred datapoints. ICML.

    Examples
    --------
    >>> import rankwise
    >>> r = rankwise.compare_items(rankwise.load_items_example("evals"), across=False)
    >>> r.tasks[0].pairs.test, r.tied
    ('mcnemar', ('delta', 'gamma'))
    """
    from .._validate import renamed
    from ..tables.items import ItemStream

    # one word per idea: compare's adjustment is procedures (procedure= works until 0.10)
    procedures = renamed(procedures, read_options.pop("procedure", None), "procedure",
                         "procedures")
    # every option before the items are read
    alpha = check.alpha(alpha)
    given = {} if confidence is None else {"confidence": check.confidence(confidence)}
    confidence = 1 - alpha if confidence is None else given["confidence"]
    draws = check.whole("draws", draws, 100)
    seed = check.seed(seed)
    if not isinstance(items, (ItemTable, ItemStream)):
        items = read_items(items, **read_options)
    elif read_options:
        raise RankwiseError(f"{', '.join(read_options)} apply when reading; the items are"
                            f" already read")
    if len(items.models) < 2:
        raise RankwiseError(f"{items.source}: one model ({items.models[0]}); comparing needs two"
                            f" or more")
    keep = "significant" if getattr(items, "reader", "") == "items-stream" else "all"
    rng = np.random.default_rng(seed)
    binary = items.binary
    tasks, boot, means, counts, trials = [], [], [], [], []
    for name in items.tasks:     # one pass per task: a stream reads each task once
        matrix = items.task_matrix(name)
        tasks.append(_task(matrix, alpha=alpha, procedure=procedures, test=test,
                           mcnemar_method=mcnemar, interval=interval, confidence=confidence,
                           draws=draws, seed=seed, keep=keep))
        trials.append(task_trials(matrix, binary))
        boot.append(_item_bootstrap(matrix, draws, rng).astype(np.float32))
        means.append(tasks[-1].score)
        counts.append([len(matrix.items)] * len(items.models))
    tasks = tuple(tasks)
    from ..tables.table import ScoreTable

    table = ScoreTable(values=np.array(means), datasets=items.tasks, learners=items.models,
                       higher_is_better=True, direction_source="source",
                       criterion=items.metric or "score", aggregate="mean",
                       counts=np.array(counts), source=items.source, cells=TASK_CELLS)
    notes = list(items.notes)
    result_across = None
    if across:
        if len(items.tasks) < 2:
            notes.append("one task: nothing to compare across tasks")
        else:
            from . import compare

            options = {"alpha": alpha, "seed": seed, **given,
                       **(across if isinstance(across, dict) else {})}
            result_across = compare(table, **options)
    macro = table.values.mean(axis=0)
    macro_r, low, high = _macro(np.stack(boot), draws, rng, confidence)
    best, tied = _tied_with_best(macro, macro_r, alpha, items.models)
    settings = {"alpha": alpha, "procedures": procedures, "test": test, "mcnemar": mcnemar,
                "interval": interval, "confidence": confidence, "draws": draws, "seed": seed,
                "missing": items.missing}
    # the repeats each task averages, kept where any item was tried more than once
    repeated = any(t.repeats > 1 for t in tasks)
    return ItemComparison(items, tasks, table, result_across, macro, low, high, best, tied,
                          settings, tuple(notes), tuple(trials) if repeated else ())
