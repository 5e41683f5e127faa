"""The Bayesian analyses of :func:`rankwise.compare`: the pairwise Bayesian tests of the
verdict's and the post-hoc family's pairs (:mod:`rankwise.stats.bayesian`: sign, signed-rank and
correlated t-tests; the hierarchical test of :mod:`rankwise.bayes`), and the models of the whole
table (Plackett-Luce, Bradley-Terry). The verdict in their terms is :mod:`.bayes_verdict`.
"""

from __future__ import annotations

from dataclasses import replace

from ..errors import RankwiseError
from ..stats.bayesian import BAYESIAN, correlated_t_test
from .effects import columns_of


def compute_bayesian(table, x, pairs, *, test, rope, draws, seed, threshold,
                     decimals) -> tuple:
    if test == "correlated-t":  # (compare() has checked the name)
        return _correlated_t_by_dataset(table, pairs, rope=rope, threshold=threshold,
                                        decimals=decimals)
    if test == "hierarchical":
        return _hierarchical_pairs(table, pairs, rope=rope, seed=seed, threshold=threshold)
    run = BAYESIAN[test]
    out = []
    for a, b in pairs:
        u, v = columns_of(table, x, a, b)
        out.append(run(u, v, rope=rope, names=(a, b), higher_is_better=table.higher_is_better,
                       draws=draws, seed=seed, threshold=threshold, decimals=decimals,
                       keep_samples=True))
    return tuple(out)


def _correlated_t_by_dataset(table, pairs, *, rope, threshold, decimals) -> tuple:
    """The correlated t-test of every pair on every data set, from the fold-level results kept
    by the reader (a results database or a long table with repeat/fold columns). Folds are
    matched by (repeat, fold); the number of folds is the number of distinct fold labels."""
    blocks, _ = fold_blocks(table, "the correlated t-test")
    raw = table.raw
    ratios = getattr(getattr(table, "reading", None), "test_train_ratio", None) or {}
    out = []
    for dataset, wide in blocks.items():
        folds = int(raw.loc[raw["dataset"].astype(str) == dataset, "fold"].nunique())
        if folds == 1 and ratios.get(dataset) is None:
            raise RankwiseError(f"the correlated t-test on data set {dataset!r}: its results"
                                " have one fold per run (train/test splits) and no instance"
                                " counts to give the test fraction; use --per-dataset with"
                                " --test-fraction F, or a cross-validation")
        for a, b in pairs:
            if a not in wide or b not in wide:
                continue
            both = wide[[a, b]].dropna()
            if len(both) < 2:
                continue
            r = correlated_t_test(both[a].to_numpy(), both[b].to_numpy(),
                                  **correlation(folds, ratios.get(dataset)), rope=rope,
                                  names=(a, b), higher_is_better=table.higher_is_better,
                                  threshold=threshold, decimals=decimals)
            out.append(replace(r, details={"dataset": str(dataset), **r.details}))
    order = {name: i for i, name in enumerate(table.datasets)}
    return tuple(sorted(out, key=lambda r: (order.get(r.details["dataset"], len(order)),)))


def correlation(folds: int, ratio) -> dict:
    """The correlated t-test's keyword for the design: ``folds`` for a cross-validation,
    ``test_fraction`` n₂/(n₁ + n₂) from the test-to-training ratio n₂/n₁ for one random
    train/test split per run (WEKA's default design)."""
    if folds == 1 and ratio is not None:
        return {"test_fraction": ratio / (1.0 + ratio)}
    return {"folds": folds}


def fold_blocks(table, what: str):
    """``(wide fold tables per data set, folds per run)`` of a table read from per-fold results,
    folds matched by (repeat, fold)."""
    raw = table.raw
    if raw is None or "fold" not in raw:
        raise RankwiseError(f"{what} reads the results of each fold: give a results database of"
                            " `rankwise run` or a long table with repeat and fold columns (this"
                            " table has one value per cell)")
    key = ["repeat", "fold"] if "repeat" in raw else ["fold"]
    blocks = {str(d): rows.pivot_table(index=key, columns="learner", values="value",
                                       aggfunc="first")
              for d, rows in raw.groupby("dataset", sort=False)}
    return blocks, int(raw["fold"].nunique())


def bayesian_model(table, name: str, *, seed: int):
    """A Bayesian model of the whole table (the ``bayes`` extra): Plackett-Luce over the
    rankings, or Wainer's Bradley-Terry over the wins, with the paired local ROPE when the
    table was read from fold-level results."""
    from ..bayes import bradley_terry, plackett_luce

    if name == "plackett-luce":
        return plackett_luce(table.values, table.learners,
                             higher_is_better=table.higher_is_better, seed=seed)
    raw = table.raw
    if raw is not None and "fold" in raw:
        blocks, _ = fold_blocks(table, "the Bradley-Terry model")
        folds = [wide[list(table.learners)].dropna().to_numpy() for wide in blocks.values()
                 if all(name in wide for name in table.learners)]
        return bradley_terry(folds=[f for f in folds if len(f)], learners=table.learners,
                             higher_is_better=table.higher_is_better, seed=seed)
    return bradley_terry(table.values, table.learners, higher_is_better=table.higher_is_better,
                         seed=seed)


def _hierarchical_pairs(table, pairs, *, rope, seed, threshold) -> tuple:
    """The hierarchical correlated t-test (the ``bayes`` extra) of every pair over the data
    sets, from the fold-level results; data sets where a pair lacks a fold are left out of that
    pair (and counted). Its decision is ``undecided`` when the chains did not converge."""
    from ..bayes import hierarchical_test
    from ..stats.bayesian import BayesianResult, decide as bayes_decide

    blocks, folds = fold_blocks(table, "the hierarchical test")
    if folds == 1:
        raise RankwiseError("the hierarchical test models k-fold cross-validation (rho ="
                            " 1/folds); these results have one train/test split per run: use"
                            " --bayesian correlated-t or --per-dataset, which take the split's"
                            " test fraction")
    out = []
    for a, b in pairs:
        rows_a, rows_b, names, left_out = [], [], [], 0
        for dataset, wide in blocks.items():
            if a not in wide or b not in wide:
                left_out += 1
                continue
            both = wide[[a, b]].dropna()
            if len(both) < 2 or (rows_a and len(both) != len(rows_a[0])):
                left_out += 1
                continue
            rows_a.append(both[a].to_numpy())
            rows_b.append(both[b].to_numpy())
            names.append(dataset)
        if not rows_a:
            continue
        h = hierarchical_test(rows_a, rows_b, folds=folds, rope=rope, names=(a, b),
                              datasets=names, seed=seed)
        # δ = b − a in the scores' direction: a is practically better when δ < −r
        if table.higher_is_better:
            p_a, p_b = h.share_left, h.share_right
        else:
            p_a, p_b = h.share_right, h.share_left
        decision = (bayes_decide(p_a, h.share_rope, p_b, threshold, a, b)
                    if h.diagnostics.converged else "undecided")
        d = h.diagnostics
        out.append(BayesianResult(
            "hierarchical", a, b, rope, p_a, h.share_rope, p_b, d.chains * d.draws, seed,
            threshold, decision,
            details={"n_datasets": len(names), "datasets_left_out": left_out,
                     "predictive": {"p_left": h.p_left, "p_rope": h.p_rope,
                                    "p_right": h.p_right},
                     "shrunk_means": dict(zip(names, h.shrunk_means.tolist())),
                     "population_mean": h.population_mean,
                     "population_interval": list(h.population_interval),
                     "diagnostics": d.to_dict()}))
    return tuple(out)
