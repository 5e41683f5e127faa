"""A leaderboard as the benchmarks publish one (TabArena, LMArena): Elo with a data-set
bootstrap interval, win rate and the win-rate matrix, mean and median rank, rank counts, mean
reciprocal rank, improvability with its interval, normalized error, the share of imputed
results and the times — and what the board means: who is tied with #1, and what the
Friedman test and its post-hoc say beside it.

Every column is computed split by split (a data set's fold or seed: TabArena's "unit"), then
averaged over the splits of each data set, then over the data sets, so that every data set
weighs 1 however many splits it ran (bencheval's ``seed_column`` convention):

- ``rank``: the mean of the average ranks (1 = best, ties share the mean of their places);
  ``median_rank``: their median over the data sets;
- ``winrate``: the share of the other learners beaten on a split (a tie is half a win),
  averaged; the matrix: learner i against j alone;
- ``rank_1``, ``rank_2``, ``rank_3``, ``rank_4_plus``: on how many data sets a learner took
  place 1, 2, 3 or a later one (a tie over places splits its one place equally);
- ``mrr``: the mean of 1/rank;
- ``improvability``: the mean of 1 − (best error on the split) / (the learner's error), 0 for
  0/0 (an error measure only: lower is better and never below 0), with the bootstrap interval
  of the same data-set resamples as Elo's;
- ``normalized_error``: the mean of (error − best)/(worst − best) on the split, 0 for 0/0;
- ``imputed``: the share of the learner's results marked imputed (a column ``imputed``);
- ``time_train_s``, ``time_infer_s``: the mean of the times, when the table has them;
- ``elo``: :mod:`rankwise.stats.elo`.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..errors import RankwiseError
from ..names import MISSING_KEEP
from ..stats import elo as bt
from ..stats.aggregation import RULES, aggregate, majorities
from ..stats.ranking import DEFAULT_DECIMALS, round_scores
from ..stats.resample import sorted_choice_counts
from ..stats.threads import one_blas_thread
from .board_common import quantiles, separation, tied_with_first
from .board_result import (  # noqa: F401  (the board's names, where they were declared)
    COLUMNS, EXTRA_COLUMNS, FIGURE_MOST, FIGURES, MATRIX_MAX, Board, Leaderboard)


def _units(table):
    """``(values, unit_dataset)``: the scores of every split (rows) and learner (columns),
    NaN where a learner has no result, and the data set of each split."""
    raw = table.raw
    learners = list(table.learners)
    datasets = list(table.datasets)
    if raw is None:
        return np.asarray(table.values, dtype=float), np.arange(len(datasets))
    keys = ["dataset"] + [c for c in ("repeat", "fold") if c in raw]
    wide = raw.pivot_table(index=keys, columns="learner", values="value", aggfunc="first",
                           sort=False).reindex(columns=learners)
    order = {d: i for i, d in enumerate(datasets)}
    unit_dataset = np.array([order[k[0] if isinstance(k, tuple) else k] for k in wide.index])
    keep = np.argsort(unit_dataset, kind="stable")
    return wide.to_numpy(dtype=float)[keep], unit_dataset[keep]


def average_ranks(err: np.ndarray) -> tuple:
    """``(average, lowest, highest)`` ranks of each row (1 = smallest), NaN stays NaN.

    Examples
    --------
    >>> import numpy as np
    >>> from rankwise.analysis.leaderboard import average_ranks
    >>> [r.tolist() for r in average_ranks(np.array([[0.1, 0.3, 0.1]]))]
    [[[1.5, 3.0, 1.5]], [[1.0, 3.0, 1.0]], [[2.0, 3.0, 2.0]]]
    """
    from scipy.stats import rankdata

    filled = np.where(np.isnan(err), np.inf, err)
    missing = np.isnan(err)
    out = []
    for method in ("average", "min", "max"):
        r = rankdata(filled, method=method, axis=1).astype(float)
        r[missing] = np.nan
        out.append(r)
    return tuple(out)


def _by_dataset(m: np.ndarray, unit_dataset: np.ndarray, n_datasets: int) -> np.ndarray:
    """The mean over each data set's splits (NaN where a learner has none). The splits of a
    data set are next to each other (:func:`_units`); they are added one after another, the
    first split of every data set at once, then the second, and so on."""
    present = ~np.isnan(m)
    values = np.where(present, m, 0.0)
    splits = np.bincount(unit_dataset, minlength=n_datasets)
    first = np.cumsum(splits) - splits
    sums = np.zeros((n_datasets, m.shape[1]))
    counts = np.zeros((n_datasets, m.shape[1]))
    for s in range(int(splits.max(initial=0))):
        has = np.flatnonzero(splits > s)
        sums[has] += values[first[has] + s]
        counts[has] += present[first[has] + s]
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(counts > 0, sums / np.maximum(counts, 1), np.nan)


def _nanmean(m: np.ndarray, axis=0) -> np.ndarray:
    present = ~np.isnan(m)
    n = present.sum(axis=axis)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(n > 0, np.where(present, m, 0.0).sum(axis=axis) / np.maximum(n, 1),
                        np.nan)


def _pairs(units) -> tuple:
    """``(w, n)`` per data set: weighted wins of row over column (a tie half) and weighted
    battles, shapes (data sets, k, k): the majority matrix of each data set's splits."""
    w = majorities(units.err, units.unit_dataset, units.n_datasets, units.dataset_weight)
    return w, w + np.transpose(w, (0, 2, 1))


def _improvability(raw_err: np.ndarray) -> np.ndarray:
    best = np.nanmin(np.where(np.isnan(raw_err), np.inf, raw_err), axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = 1.0 - best / raw_err
    out[(raw_err == 0) & (best == 0)] = 0.0
    out[np.isnan(raw_err)] = np.nan
    return out


def _normalized(err: np.ndarray) -> np.ndarray:
    filled_low = np.where(np.isnan(err), np.inf, err)
    filled_high = np.where(np.isnan(err), -np.inf, err)
    best = filled_low.min(axis=1, keepdims=True)
    worst = filled_high.max(axis=1, keepdims=True)
    span = worst - best
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.where(span > 0, (err - best) / np.where(span > 0, span, 1.0), 0.0)
    out[np.isnan(err)] = np.nan
    return out


def compute_board(table, *, anchor, draws, seed, confidence, alpha, subset=None,
                  extras=None, rule: str = "elo", decimals: int | None = DEFAULT_DECIMALS) -> Board:
    """The board of one ScoreTable (see the module docstring)."""
    learners = list(table.learners)
    k, datasets = len(learners), list(table.datasets)
    if k < 2:
        raise RankwiseError(f"a leaderboard needs at least two learners; "
                            f"{'subset ' + repr(subset) + ' has' if subset else 'the table has'}"
                            f" {k}")
    if anchor is not None and anchor not in learners:
        raise RankwiseError(f"--anchor {anchor!r} is not a learner of the"
                            f"{' subset ' + repr(subset) if subset else ''} table; its"
                            f" learners are {', '.join(learners[:8])}"
                            + (", ..." if k > 8 else ""))
    from .._validate import real_scores

    real_scores(table.values, names=(datasets, learners))   # finite, within the bound
    values, unit_dataset = _units(table)
    # the errors: lower is better (scores are turned round, never changed otherwise)
    raw_err = values if not table.higher_is_better else -values
    # ranks, wins and pairs compare the errors rounded to the decimals every analysis compares
    # at, so that a difference below them ties here as it does in compare; the normalized
    # error, improvability and the imputed share read the values as given (bencheval's numbers)
    err = round_scores(raw_err, decimals)
    units = _Units(err, unit_dataset, len(datasets))
    cols, rank_d, matrix, fit, fit_rounds = _battle_columns(units, raw_err, k)
    # the bootstrap's data sets are drawn in sorted-name order, as bencheval draws them
    order = np.argsort(np.array(datasets, dtype=object), kind="stable")
    theta, bound = fit(np.ones(units.n_datasets))
    point = bt.to_elo(theta)
    counts = sorted_choice_counts(units.n_datasets, order, draws, seed)
    with one_blas_thread():
        elo_draws = _elo_draws(fit_rounds, counts, theta, point)
    error_like = not table.higher_is_better and np.nanmin(values) >= 0
    _elo_columns(cols, point, elo_draws, confidence,
                 0.0 if anchor is None else bt.INITIAL - point[learners.index(anchor)])
    if error_like:
        _improvability_columns(cols, units.by(_improvability(values)), counts, confidence)
    for name, m in (extras or {}).items():
        cols[name] = _nanmean(m)
    winners, friedman = _posthoc(table, alpha)
    rules = aggregate(rank_d)
    cols["borda"], cols["copeland"] = rules.borda, rules.copeland
    kemeny_position = np.empty(k)
    kemeny_position[rules.kemeny] = np.arange(1, k + 1)
    cols["kemeny"] = kemeny_position
    key = {"elo": -cols["elo"], "borda": -cols["borda"], "copeland": -cols["copeland"],
           "kemeny": kemeny_position}[rule]
    board_order = np.lexsort((np.arange(k), -cols["elo"], key))
    with one_blas_thread():
        in_board = set(tied_with_first(point, elo_draws, learners, confidence, seed))
    tied = tuple(learners[j] for j in board_order if learners[j] in in_board)
    ordered = {name: np.asarray(v, dtype=float)[board_order] for name, v in cols.items()}
    names = tuple(learners[j] for j in board_order)
    if matrix is not None:
        matrix = matrix[np.ix_(board_order, board_order)]
    notes = list(_notes(names, bound[board_order], units.complete, units.present, table,
                        error_like)) + _lacking(elo_draws, learners)
    board = Board(subset, names, ordered, bound[board_order], units.n_datasets,
                  int(err.shape[0]), units.complete, tied, winners, friedman, matrix,
                  tuple(notes), (), rule,
                  None if rules.condorcet is None else learners[rules.condorcet],
                  tuple(tuple(learners[i] for i in c) for c in rules.cycles),
                  rules.kemeny_exact)
    return _with_sentences(board, rank_d, learners, confidence)


class _Units:
    """The splits (units) of a board: errors, which data set each belongs to, its weight
    (1/splits of its data set) and the mean over a data set's splits (``by``)."""

    def __init__(self, err, unit_dataset, n_datasets):
        self.err, self.unit_dataset, self.n_datasets = err, unit_dataset, n_datasets
        self.present = ~np.isnan(err)
        self.complete = bool(self.present.all())
        splits_of = np.bincount(unit_dataset, minlength=n_datasets)
        self.dataset_weight = 1.0 / np.maximum(splits_of, 1)   # a battle: 1/splits
        self.weight = self.dataset_weight[unit_dataset]

    def by(self, m):
        return _by_dataset(m, self.unit_dataset, self.n_datasets)


def _battle_columns(units, raw_err, k) -> tuple:
    """Ranks, rank counts, normalized error, win rate and the win-rate matrix; and the
    Bradley-Terry fit of the battles, as a function of the data sets' bootstrap counts."""
    err, present = units.err, units.present
    rank, low, high = average_ranks(err)
    rank_d = units.by(rank)
    cols = {"rank": _nanmean(rank_d), "median_rank": np.nanmedian(rank_d, axis=0),
            "mrr": _nanmean(units.by(1.0 / rank))}
    tie = high - low + 1.0
    place = {p: np.where(present, ((low <= p) & (high >= p)) / tie, np.nan) for p in (1, 2, 3)}
    for p in (1, 2, 3):
        cols[f"rank_{p}"] = np.nansum(units.by(place[p]), axis=0)
    cols["rank_4_plus"] = np.nansum(units.by(np.where(present, 1.0 - place[1] - place[2]
                                                      - place[3], np.nan)), axis=0)
    cols["normalized_error"] = _nanmean(units.by(_normalized(raw_err)))
    matrix, w_d, n_d = None, None, None
    if units.complete:
        n_present = present.sum(axis=1, keepdims=True)
        totals_d = units.by(n_present - rank)   # per data set: mean over splits of the wins
        cols["winrate"] = totals_d.mean(axis=0) / (k - 1)
    if not units.complete or k <= MATRIX_MAX:
        w_d, n_d = _pairs(units)
        with np.errstate(invalid="ignore", divide="ignore"):
            n_all = n_d.sum(axis=0)
            matrix = np.where(n_all > 0, w_d.sum(axis=0) / np.where(n_all > 0, n_all, 1.0),
                              np.nan)
        np.fill_diagonal(matrix, np.nan)
        if not units.complete:
            cols["winrate"] = _nanmean(matrix, axis=1)
    lightest = float(units.weight.min())

    def fit(c, start=None):
        if units.complete:   # each data set weighs 1: the mean over its splits
            return bt.fit_totals(c @ totals_d, c.sum(), lightest, start)
        w, n = np.tensordot(c, w_d, axes=1), np.tensordot(c, n_d, axes=1)
        met = n.sum(axis=1) > 0
        if met.all() or met.sum() < 2:
            return bt.fit(w, n, lightest, start)
        # a resample that left a learner without a battle: the others' fit, it NaN
        theta, bound = np.full(k, np.nan), np.zeros(k, dtype=int)
        keep = np.ix_(met, met)
        theta[met], bound[met] = bt.fit(w[keep], n[keep], lightest,
                                        None if start is None else start[met])
        return theta, bound

    def fit_rounds(counts, start):
        """The log-strengths of every resample (rows of ``counts``), from ``start``."""
        if units.complete:   # every round at once; c @ totals_d round by round, as fit has it
            totals = np.stack([c @ totals_d for c in counts])
            return bt.fit_totals_rounds(totals, counts.sum(axis=1), lightest, start)[0]
        return np.stack([fit(c, start)[0] for c in counts])

    return cols, rank_d, matrix, fit, fit_rounds


def _elo_draws(fit_rounds, counts, theta, point) -> np.ndarray:
    """Each resample's Elo ratings; a learner the resample left without a battle is NaN there,
    and the others are centred at the mean of their own point ratings (not at 1000: the
    ratings of a draw and of the board stay on one scale)."""
    t = fit_rounds(counts, theta)
    met = np.isfinite(t)
    whole = met.all(axis=1)
    out = np.full(t.shape, np.nan)
    out[whole] = bt.to_elo(t[whole])
    for r in np.flatnonzero(~whole & (met.sum(axis=1) >= 2)):   # rare: a learner lacked
        out[r, met[r]] = bt.to_elo(t[r, met[r]]) - bt.INITIAL + point[met[r]].mean()
    return out


def _lacking(elo_draws: np.ndarray, learners) -> list:
    """The note naming each learner some resamples left without a battle (a learner with one
    result missing, or few results: every data set it has a result on left out)."""
    lacking = np.isnan(elo_draws).sum(axis=0)
    if not lacking.any():
        return []
    shown = ", ".join(f"{name} in {int(n)}" for name, n in zip(learners, lacking) if n)
    return [f"Of {len(elo_draws)} bootstrap resamples, some left a learner without a battle"
            f" (every data set it has a result on left out): {shown}; its Elo interval is over"
            f" the other resamples, and the tied-with-#1 set takes its point rating there."]


def _elo_columns(cols, point, draws, confidence, offset) -> None:
    lo, hi = quantiles(draws, confidence)
    cols["elo"] = point + offset
    cols["elo_low"] = np.minimum(lo, point) + offset     # bencheval clips a negative width
    cols["elo_high"] = np.maximum(hi, point) + offset


def _improvability_columns(cols, improv_d, counts, confidence) -> None:
    cols["improvability"] = _nanmean(improv_d)
    ok = ~np.isnan(improv_d)
    improv_draws = (counts @ np.where(ok, improv_d, 0.0)) / np.maximum(counts @ ok, 1)
    cols["improvability_low"], cols["improvability_high"] = quantiles(improv_draws,
                                                                        confidence)


def _posthoc(table, alpha) -> tuple:
    """``(winners, omnibus)``: the learners the Friedman post-hoc (Holm against the
    best-ranked learner, on the data sets' aggregated scores: the CD diagram's question) does
    not find significantly worse, and the omnibus test it was gated by."""
    from .compare import compare

    if np.isnan(table.values).any():
        return (), {"test": None, "note": "missing cells: see the Skillings-Mack test of"
                    " rankwise compare --missing skillings-mack"}
    # the CD diagram's question only: its gate and Holm against the best mean rank
    cmp = compare(table, effects="none", tests=("friedman", "iman_davenport"))
    v = cmp.verdict
    gate = v.gate
    if gate is None:        # two learners: no omnibus test gates the comparison
        return tuple(v.winners), {"test": None, "note": "two learners: no omnibus test; see"
                                  " the two-learner tests of rankwise compare"}
    return tuple(v.winners), {"test": gate.test, "statistic": gate.statistic,
                              "pvalue": gate.pvalue, "alpha": gate.alpha,
                              "rejected": bool(gate.passed), "best": v.best}


def _notes(names, bound, complete, present, table, error_like) -> list:
    out = []
    if not complete:
        out.append(f"{int((~present).sum())} results are missing: two learners battle on the"
                   " splits where both have one, and each column is averaged over the"
                   " learner's own data sets.")
    if not error_like:
        why = ("higher is better" if table.higher_is_better else "some values are negative")
        out.append(f"Improvability (1 - best error / error) needs an error measure (lower is"
                   f" better, never below 0); here {why}, so it is left out.")
    return out


def _with_sentences(board, rank_d, learners, confidence) -> Board:
    c = board.columns
    top = int(np.lexsort((np.arange(len(board.learners)), -c["elo"]))[0])
    first = board.learners[top]
    level = f"{confidence:.0%}"
    mark = {1: "≥ ", 2: "≥ ", -1: "≤ "}.get(int(board.bound[top]), "")
    s = separation(board)
    s.append(f"#1 by Elo: {first} ({mark}{c['elo'][top]:.1f} [{c['elo_low'][top]:.1f},"
             f" {c['elo_high'][top]:.1f}]).")
    others = [n for n in board.tied_with_first if n != first]
    if others:
        s.append(f"Statistically tied with #1 at {level} (simultaneous rank confidence sets"
                 f" from the same bootstrap): {', '.join(others)}; the order among them is not"
                 " established.")
    else:
        s.append(f"No other learner is tied with #1 at {level} (simultaneous rank confidence"
                 " sets from the same bootstrap).")
    mean_rank = c["rank"]
    by_rank = list(np.array(board.learners)[np.lexsort((np.arange(len(mean_rank)),
                                                        mean_rank))])
    if board.complete:
        s.append("The table is complete, so the Bradley-Terry likelihood depends on the data"
                 " only through each learner's wins, which are k minus its rank summed over"
                 " the splits: the Elo order is the mean-rank order, and Elo adds a scale and"
                 " an interval, not a different ranking.")
    else:
        swapped = [(a, b) for i, a in enumerate(board.learners) for b in board.learners[i + 1:]
                   if by_rank.index(a) > by_rank.index(b)]
        if swapped:
            shown = "; ".join(f"{a} above {b}" for a, b in swapped[:5])
            s.append(f"With missing results the Elo order and the mean-rank order differ:"
                     f" {shown}" + (f" (and {len(swapped) - 5} more pairs)"
                                    if len(swapped) > 5 else "") + ".")
    if board.condorcet is not None:
        s.append(f"{board.condorcet} is the Condorcet winner: it beats every other learner on"
                 " most data sets.")
    else:
        s.append("There is no Condorcet winner: no learner beats every other one on most data"
                 " sets" + (f"; the majorities go round among {len(board.cycles)} group(s) of"
                            f" learners ({', '.join(board.cycles[0][:4])}"
                            + (", ..." if len(board.cycles[0]) > 4 else "") + ")"
                            if board.cycles else "") + ".")
    if board.rule != "elo":
        s.append(f"The board is ordered by the {board.rule.capitalize()} rule"
                 + (" (a heuristic Kemeny order: a local optimum)" if board.rule == "kemeny"
                    and not board.kemeny_exact else "") + ".")
    f = board.friedman
    if f.get("test"):
        verdict = "rejects" if f["rejected"] else "does not reject"
        winners = [n for n in board.winners if n != f["best"]]
        from ..names import test_title

        s.append(f"Beside it, the CD diagram's question: {test_title(f['test'])}"
                 f" {verdict} that all learners perform alike (p = {f['pvalue']:.3g});"
                 f" by Holm's procedure against the best mean rank, {f['best']}, "
                 + (f"not significantly worse: {', '.join(winners)}." if winners else
                    "every other learner is significantly worse.")
                 + " The two answers need not coincide: the tied set compares Elo ratings with"
                 " a bootstrap over data sets, the post-hoc tests mean ranks pair by pair.")
    return replace(board, sentences=tuple(s))


def _extras(frame, table) -> dict:
    """The columns of ``EXTRA_COLUMNS`` the input has, as data sets × learners means."""
    if frame is None:
        return {}
    import pandas as pd

    lower = {str(c).strip().lower(): c for c in frame.columns}
    roles = dict(table.reading.columns) if table.reading is not None else {}
    d_col = roles.get("dataset", lower.get("dataset"))
    l_col = roles.get("learner", lower.get("learner"))
    if d_col not in frame.columns or l_col not in frame.columns:
        return {}
    out = {}
    for name in EXTRA_COLUMNS:
        if name not in lower:
            continue
        col = frame[lower[name]]
        values = pd.to_numeric(col, errors="coerce")
        if name == "imputed" and values.isna().all():   # True/False as text
            values = col.astype(str).str.strip().str.lower().map(
                {"true": 1.0, "false": 0.0, "1": 1.0, "0": 0.0})
        means = (pd.DataFrame({"d": frame[d_col].astype(str).str.strip(),
                               "l": frame[l_col].astype(str).str.strip(), "v": values})
                 .groupby(["d", "l"], sort=False)["v"].mean().unstack("l"))
        out[name] = means.reindex(index=list(table.datasets),
                                  columns=list(table.learners)).to_numpy(dtype=float)
    return out


def _load_part(part, read: dict, label: str):
    """The score table of one part of a file read as a frame; an error names the file (the
    reader only sees a DataFrame)."""
    from ..tables.read import load_table

    try:
        return load_table(part.reset_index(drop=True), **read)
    except RankwiseError as error:
        said = str(error)
        if said.startswith("DataFrame") and label != "DataFrame":
            raise RankwiseError(label + said[len("DataFrame"):]) from None
        raise


def leaderboard(source, *, anchor: str | None = None, draws: int = bt.ROUNDS,
                seed: int = bt.SEED, confidence: float = 0.95, alpha: float = 0.05,
                by: str | None = None, rule: str = "elo", criterion: str | None = None,
                higher_is_better: bool | None = None, columns: dict | None = None,
                source_format: str = "auto", where=None, sep: str | None = None,
                decimal: str | None = None, duplicates: str | None = None,
                decimals: int | None = DEFAULT_DECIMALS, figure_top: int = FIGURE_MOST,
                missing: str = MISSING_KEEP, rounds: int | None = None, ties: str = "half",
                bootstrap_over: str = "auto", style=None,
                vote_check: bool = True) -> Leaderboard:
    """The leaderboard of a table of results split by split (module docstring).

    Parameters
    ----------
    source : path, DataFrame, ScoreTable or Votes
        A log of pairwise votes (:func:`rankwise.read_votes`: arena battles, judge verdicts)
        gives a board of votes (:mod:`rankwise.analysis.vote_board`; ``ties``,
        ``bootstrap_over``, ``style`` and ``vote_check`` are its options). Otherwise scores,
        read as :func:`rankwise.load_table` reads it (TabArena's ``results_per_split``
        included), with the splits (folds, repeats) kept; a data set's splits are averaged
        (the mean) into the tests beside the board. A ScoreTable holds the scores only: the
        columns a file or DataFrame may have beside them (TabArena's imputed share and
        train/infer times) reach the board from the file or DataFrame, as the command reads
        it (``rankwise leaderboard --example tabarena`` reads the file).
    anchor : str, optional
        The learner whose Elo is set to 1000 (TabArena anchors ``"RF (default)"``); without
        it the mean Elo is 1000.
    draws : int, default 100
        Bootstrap resamples of the data sets (TabArena's default), for the intervals of Elo
        and improvability and the rank sets.
    seed : int, default 0
        Seed of the resamples (TabArena's: bencheval draws with ``default_rng(0)``).
    confidence : float, default 0.95
        Level of the intervals and of the tied-with-#1 set.
    alpha : float, default 0.05
        Level of the Friedman test and its post-hoc beside the board.
    by : str, optional
        A column of the input (``problem_type``): one more board per value.
    rule : {"elo", "borda", "copeland", "kemeny"}, default "elo"
        The order of the board (:mod:`rankwise.stats.aggregation`); every rule's score is in
        the JSON and CSV whatever the order.
    decimals : int or None, default 12
        Scores are rounded to this many decimals before learners are ranked and battles
        decided, as :func:`rankwise.compare` rounds them, so that a difference below them is
        a tie in both; None compares the values as given (TabArena's bencheval does, and its
        boards are then reproduced to the last bit). The normalized error and improvability
        always read the values as given.
    figure_top : int, default 300
        The figures (:func:`rankwise.report.board.board_figure` and ``matrix_figure``) draw the
        board's best ``figure_top`` learners, every one up to it (from 1 to 300); fewer than
        the board has, the figure and the notes say so.
    missing : {"keep", "refuse", "drop-datasets", "drop-learners", "worst"} or \
"impute:LEARNER", default "keep"
        A missing result: ``keep`` it, two learners battle where both have a result (the
        tests beside the board need a complete table); the others as
        :func:`rankwise.load_table` takes them, said in the notes. A ScoreTable brings the
        policy it was read with: another one is refused where it has missing cells.

    Returns
    -------
    Leaderboard

    References
    ----------
    Bradley, R. A. and Terry, M. E. (1952). Rank analysis of incomplete block designs I.
    Biometrika 39, 324–345. Erickson, N. et al. (2025). TabArena: a living benchmark for
    machine learning on tabular data. arXiv 2506.16791. Mogstad, M. et al. (2023). Inference
    for ranks. Rev. Econ. Stud. 91, 476–518.

    Examples
    --------
    >>> import rankwise
    >>> board = rankwise.leaderboard(rankwise.load_example("garcia2008"), draws=20)
    >>> board.board.learners[0], round(float(board.board.columns["rank"][0]), 3)
    ('C4.5', 2.1)
    """
    from .. import _validate as check
    from ..tables.read import board_policy, load_table, read_frame

    draws = check.whole("draws", check.renamed(draws, rounds, "rounds", "draws"), 1, 100_000)
    figure_top = check.whole("figure_top", figure_top, 1, FIGURE_MOST)
    decimals = check.decimals(decimals)
    check.choice("rule", rule, RULES)
    check.seed(seed)
    check.alpha(alpha)
    check.confidence(confidence)
    from ..tables.frames import as_pandas
    from .vote_board import vote_leaderboard, votes_in

    # a Polars, Arrow or DuckDB table once, here: the vote check, the rows read for --by
    # and load_table all read the same pandas frame
    source = as_pandas(source)
    votes = votes_in(source, source_format, sep)
    if votes is not None:
        return vote_leaderboard(votes, anchor=anchor, draws=draws, seed=seed, alpha=alpha,
                                confidence=float(confidence), by=by, ties=ties,
                                over=bootstrap_over, style=style, vote_check=vote_check,
                                figure_top=figure_top, where=where)
    read = dict(criterion=criterion, higher_is_better=higher_is_better, columns=columns,
                source_format=source_format, duplicates=duplicates, aggregate="mean",
                missing=board_policy(missing))
    if hasattr(source, "values") and hasattr(source, "learners"):   # a ScoreTable
        if by is not None:
            raise RankwiseError("--by needs the input's columns: give the file or DataFrame,"
                                " not a ScoreTable")
        if missing != MISSING_KEEP and np.isnan(np.asarray(source.values, float)).any():
            raise RankwiseError(f"missing={missing!r}: a ScoreTable's missing cells were kept"
                                f" when it was read; read it with load_table(...,"
                                f" missing={missing!r}), or give the file or DataFrame")
        tables, frames, label, notes = [(None, source)], [None], source.source, ()
    else:
        frame, label, notes = read_frame(source, sep=sep, decimal=decimal, where=where)
        if frame is None:
            tables, frames = [(None, load_table(source, where=where, **read))], [None]
        else:
            parts = [(None, frame)]
            if by is not None:
                found = [c for c in frame.columns if str(c).strip().lower() == by.lower()]
                if not found:
                    raise RankwiseError(f"{label}: no column {by!r} for --by; the columns are"
                                        f" {', '.join(map(str, frame.columns))}")
                values = frame[found[0]].astype(str).str.strip()
                parts += [(str(v), frame[values == v]) for v in sorted(values.unique())]
            tables = [(name, _load_part(part, read, label)) for name, part in parts]
            frames = [part.reset_index(drop=True) for _, part in parts]
    boards = tuple(compute_board(t, anchor=anchor, draws=draws, seed=seed,
                                 confidence=float(confidence), alpha=alpha, subset=name,
                                 extras=_extras(f, t), rule=rule, decimals=decimals)
                   for (name, t), f in zip(tables, frames))
    table = tables[0][1]
    settings = {"elo": {"model": "Bradley-Terry maximum likelihood", "scale": bt.SCALE,
                        "base": bt.BASE, "initial": bt.INITIAL, "anchor": anchor,
                        "battles": "every pair on every split; a tie is half a win; a battle"
                                   " weighs 1/(splits of its data set)"},
                "bootstrap": {"over": "data sets", "draws": draws, "seed": seed,
                              "confidence": float(confidence)},
                "alpha": alpha, "by": by, "aggregate": "mean over a data set's splits",
                "order": rule, "decimals": decimals, "figure_top": figure_top,
                "missing": missing}
    reading = [table.reading.sentence()] if table.reading is not None else []
    few = ([f"With {draws} bootstrap resamples the {confidence:.0%} interval of Elo is a little"
            " narrow: in a simulation (5 learners, 30 data sets) the intervals of 100"
            " resamples held the true rating in 92% of the cases, those of 1,000 in 95%"
            " (docs: leaderboards). Give --draws 1000 for intervals that keep their level; 100"
            " is TabArena's default, kept so that the numbers equal TabArena's."]
           if draws < 1000 else [])
    kept = [w.replace("kept for the Skillings-Mack test", "kept (each pair battles where both"
                      " have a result)") for w in table.warnings]   # no Skillings-Mack here
    lb = Leaderboard(boards, label, table.criterion, bool(table.higher_is_better),
                     settings, tuple([*few, *notes, *reading, *kept]))
    cut = [x for x in map(lb.figure_left_out, FIGURES) if x]
    return replace(lb, notes=lb.notes + tuple(cut)) if cut else lb
