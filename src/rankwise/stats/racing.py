"""Anytime-valid racing: take the data sets one at a time and eliminate a learner as soon as
another one beats it, with an error guarantee that holds whenever the race is stopped.

Racing (F-Race, Birattari et al. 2002; irace, López-Ibáñez et al. 2016) drops candidates
that repeated Friedman tests find worse, but a test repeated after every data set rejects a
true null far more often than its level. Here each ordered pair of learners (a, b) keeps a
*test martingale* against

    H0(a, b): on a data set drawn like these, a beats b with probability at most 1/2

(Ramdas, Grünwald, Vovk & Shafer 2023; Waudby-Smith & Ramdas 2024). After a data set on which
a beats b it is multiplied by 1 + λ, after one on which b beats a by 1 − λ, and a tie leaves it
as it is; its e-value is the average over the bets λ in :data:`BETS` (an average of test
martingales is one). Under H0 its expectation never grows, so by Ville's inequality it ever
reaches 1/δ with probability at most δ. Learner b is eliminated as soon as a learner a still in
the race has e(a, b) ≥ k(k − 1)/α: Bonferroni over the k(k − 1) ordered pairs, so with
probability at least 1 − α no learner is ever eliminated by one that is not better than it, at
whatever data set the race is stopped or looked at.

Why wins and losses: the outcome of a data set is then scale-free (no bound on score
differences is needed), robust to outliers, and H0 is exactly the sign test's null; ties carry
no evidence and are counted. Ranks among all learners would make a pair's evidence depend on
which other learners are still in the race. The data sets are assumed to be independent draws,
as for every test in rankwise. An eliminated learner is not evaluated on later data sets (the
runner does not run it), so its pairs stop there; a stopped test martingale keeps its
guarantee.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from .._validate import alpha as check_alpha, real_scores, score_input, score_matrix
from .._validate import seed as check_seed
from ..defaults import DEFAULT_DECIMALS, DEFAULT_SEED
from ..protocol import Analysis
from ..errors import RankwiseError
from .ranking import round_scores

#: The bets λ whose test martingales are averaged: small ones gain slowly and safely, large
#: ones quickly when one learner wins nearly always.
BETS = np.round(np.linspace(0.05, 0.95, 19), 2)
ORDERS = ("random", "given")
#: The largest threshold a race may use: an e-value stops growing once its pair is decided,
#: at most (1 + max(BETS)) times the threshold, so every e-value stays a finite double.
MAX_THRESHOLD = 1e300


@dataclass(frozen=True)
class Elimination:
    """``learner`` left the race after ``step`` data sets, beaten by ``by`` with e-value
    ``evalue`` (at least the race's threshold)."""

    learner: str
    by: str
    step: int
    evalue: float


@dataclass(frozen=True, repr=False)
class Race(Analysis):
    """A race replayed over a finished table (:func:`race`); :mod:`rankwise.report.race`
    presents it in every format (``to_text()``, ``render(fmt)``, ``write_report(folder)``).

    ``order`` holds every data set in the order the race takes them; the race used the first
    ``steps``. ``eliminations`` in the order they happened; ``survivors`` are the learners
    left when it stopped (``settled``: the goal, at most ``goal`` learners left, was reached).
    ``evaluated[j]`` is how many data sets learner j was evaluated on; ``evidence[a, b]`` the
    e-value of "a beats b" when the race stopped; ``ties`` the tied outcomes of pairs.

    Examples
    --------
    >>> import numpy as np
    >>> from rankwise.stats.racing import race
    >>> rng = np.random.default_rng(0)
    >>> x = rng.normal(size=(60, 4)) + [1.5, 1.5, 0.0, 0.0]   # two learners clearly worse
    >>> r = race(x, learners=["A", "B", "C", "D"], order="given")
    >>> [(e.learner, e.by, e.step) for e in r.eliminations]
    [('C', 'B', 11), ('D', 'B', 32)]
    >>> r.survivors, r.settled, r.steps   # A and B are alike: one cannot be left
    (('A', 'B'), False, 60)
    >>> r.schema, r.settings["order"]
    ('rankwise.race/2', 'given')
    """

    kind: ClassVar[str] = "race"
    version: ClassVar[int] = 2   # 1: {"rankwise": "race/1", ...}

    learners: tuple
    order: tuple
    alpha: float
    goal: int
    threshold: float
    steps: int
    settled: bool
    eliminations: tuple
    survivors: tuple
    evaluated: np.ndarray
    evidence: np.ndarray
    ties: int
    seed: int | None
    source: str = ""     # the table raced (a file, an example), for the reports' title
    notes: tuple = ()

    @property
    def settings(self) -> dict:
        """The options the race ran with (``order``: random, with ``seed``, or given)."""
        return {"alpha": self.alpha, "goal": self.goal,
                "order": "given" if self.seed is None else "random", "seed": self.seed}

    @property
    def tasks_used(self) -> int:
        """(learner, data set) evaluations the race needed."""
        return int(self.evaluated.sum())

    @property
    def tasks_full(self) -> int:
        """(learner, data set) evaluations of the whole table."""
        return len(self.learners) * len(self.order)

    @property
    def saved(self) -> float:
        """The share of the full experiment the race did not need."""
        return 1.0 - self.tasks_used / self.tasks_full if self.tasks_full else 0.0

    def guarantee(self) -> str:
        return guarantee_text(self.alpha, len(self.learners), self.threshold)

    def to_dict(self) -> dict:
        return {"learners": list(self.learners), "order": list(self.order),
                "alpha": self.alpha, "goal": self.goal, "threshold": self.threshold,
                "steps": self.steps, "settled": self.settled,
                "eliminations": [{"learner": e.learner, "by": e.by, "step": e.step,
                                  "evalue": e.evalue} for e in self.eliminations],
                "survivors": list(self.survivors),
                "evaluated": dict(zip(self.learners, map(int, self.evaluated))),
                "tasks_used": self.tasks_used, "tasks_full": self.tasks_full,
                "saved": self.saved, "ties": self.ties, "seed": self.seed,
                "bets": BETS.tolist(), "guarantee": self.guarantee(), "source": self.source,
                "settings": self.settings, "notes": list(self.notes)}


def race_threshold(k: int, alpha: float) -> float:
    """k(k − 1)/α, the e-value an elimination needs; refused in one line where it would
    reach :data:`MAX_THRESHOLD` (every e-value of the race then stays finite)."""
    threshold = k * (k - 1) / alpha
    if not threshold < MAX_THRESHOLD:
        raise RankwiseError(f"alpha = {alpha:g} is too small for {k} learners: the threshold"
                            f" k(k - 1)/alpha must stay below {MAX_THRESHOLD:g}")
    return threshold


def goal_text(goal: int) -> str:
    """``the best`` or ``the top M``, as the reports name a race's goal."""
    return "the best" if goal == 1 else f"the top {goal}"


def guarantee_text(alpha: float, k: int, threshold: float) -> str:
    """The race's guarantee in words (the replay's and the runner's)."""
    return (f"With probability at least {1 - alpha:g}, no learner was eliminated by one that is"
            " not better than it (better: wins on more than half of the data sets), whenever"
            f" the race is stopped: each of the {k * (k - 1)} ordered pairs needs an e-value of"
            f" at least {threshold:,.0f} = k(k - 1)/alpha (Ville's inequality, Bonferroni over"
            " the pairs); the data sets are taken as independent draws.")


def race_order(n: int, order="random", seed: int = DEFAULT_SEED) -> np.ndarray:
    """The data sets' order: ``"random"`` (a permutation drawn with ``seed``), ``"given"``
    (the table's), or a sequence of the n row indices."""
    if isinstance(order, str):
        if order not in ORDERS:
            raise RankwiseError(f"order must be random, given or a list of rows; got {order!r}")
        if order == "given":
            return np.arange(n)
        return np.random.default_rng(seed).permutation(n)
    rows = np.asarray(order)
    if rows.ndim != 1 or sorted(rows.tolist()) != list(range(n)):
        raise RankwiseError(f"order must list each of the {n} data sets once (rows 0 to"
                            f" {n - 1})")
    return rows.astype(np.int64)


def _named(fn):
    """The race names the table it ran on (a ScoreTable's ``source``) for its reports' title:
    the score matrix the function receives has lost it."""
    import functools
    from dataclasses import replace

    @functools.wraps(fn)
    def wrapper(x, *args, **kwargs):
        result = fn(x, *args, **kwargs)
        # a ScoreTable (known by its fields: stats does not import tables); a DataFrame's
        # attribute of that name would be a column, never a str
        source = getattr(x, "source", None) if hasattr(x, "learners") else None
        return replace(result, source=source) if isinstance(source, str) else result

    return wrapper


@_named
@score_input
def race(x, learners=None, datasets=None, *, alpha: float = 0.05, goal: int = 1,
         order="random", seed: int = DEFAULT_SEED, higher_is_better: bool | None = None,
         decimals: int | None = DEFAULT_DECIMALS) -> Race:
    """Replay a race over a finished table: how many data sets would have settled it?

    Parameters
    ----------
    x : array_like, pandas.DataFrame or ScoreTable, shape (n, k)
        Scores: one row per data set, one column per learner (a ScoreTable brings its
        direction and names).
    learners, datasets : sequences of str, optional
        Names (default: from a ScoreTable or a DataFrame, else numbers).
    alpha : float, default 0.05
        The chance, over the whole race, that any learner is eliminated by one that is not
        better than it.
    goal : int, default 1
        Stop when at most this many learners are left (``--goal best`` is 1, ``top:M`` is M).
    order : {"random", "given"} or sequence of int, default "random"
        The order in which the data sets are taken.
    seed : int
        Seed of the random order.
    higher_is_better : bool, default True
        Direction of the scores.
    decimals : int or None
        Scores are rounded to this many decimals first, so that printed ties are ties.

    Returns
    -------
    Race
        The eliminations (who, by whom, after how many data sets), the survivors, the share of
        the experiment not needed, and the evidence when the race stopped.

    Examples
    --------
    García & Herrera's five classifiers over their 30 data sets in the table's order:

    >>> import rankwise
    >>> r = rankwise.race(rankwise.load_example("garcia2008"), order="given")
    >>> [(e.learner, e.by, e.step) for e in r.eliminations]
    [('Kernel', 'C4.5', 16)]
    >>> r.survivors, round(r.saved, 3)
    (('C4.5', '1-NN', 'NaiveBayes', 'CN2'), 0.093)
    """
    holes = int(np.isnan(real_scores(x)).sum())
    if holes:
        raise RankwiseError(f"a race needs every learner's score on every data set ({holes}"
                            " missing); drop the data sets or learners with gaps first"
                            " (--missing drop-datasets or drop-learners)")
    scores = score_matrix(x, min_rows=1)
    n, k = scores.shape
    learners = _names(learners, k, "learners", "learner")
    datasets = _names(datasets, n, "datasets", "data set")
    a = check_alpha(alpha)
    if isinstance(goal, bool) or not isinstance(goal, (int, np.integer)) or not 1 <= goal < k:
        raise RankwiseError(f"goal must be a whole number from 1 to {k - 1} (the learners to"
                            f" keep); got {goal!r}")
    rows = race_order(n, order, check_seed(seed) if order == "random" else seed)
    signed = round_scores(scores, decimals) * (1.0 if higher_is_better else -1.0)
    run = _run(signed[rows], a, int(goal))
    eliminations = tuple(Elimination(learners[j], learners[by], step, e)
                         for j, by, step, e in run["out"])
    return Race(tuple(learners), tuple(datasets[i] for i in rows), a, int(goal),
                run["threshold"], run["steps"], run["settled"], eliminations,
                tuple(n for n, keep in zip(learners, run["alive"]) if keep), run["evaluated"],
                run["evidence"], run["ties"], seed if isinstance(order, str) and
                order == "random" else None)


def _names(given, size: int, what: str, one: str) -> list:
    if given is None:
        return [f"{one} {i + 1}" for i in range(size)]
    names = [str(g) for g in given]
    if len(names) != size or len(set(names)) != size:
        raise RankwiseError(f"{what} must be {size} distinct names; got {len(names)}"
                            f" ({len(set(names))} distinct)")
    return names


def _run(x: np.ndarray, alpha: float, goal: int) -> dict:
    """The race over the rows of ``x`` (in order, higher is better)."""
    racer = Racer(x.shape[1], x.shape[0], alpha, goal)
    for row in x:
        racer.step(row)
        if racer.settled:
            break
    return racer.state()


class Racer:
    """The race one data set at a time, for :func:`race` and for the runner, which feeds it
    each data set's scores as they are computed. A pair's wealth at bet λ is
    (1 + λ)^W (1 − λ)^L for its W wins and L losses so far, so the racer keeps the counts
    and, once, the fewest wins that reach the threshold after each number of losses
    (``n``: the most data sets the race may take). A missing score (NaN) gives its pairs no
    outcome on that data set; such outcomes are counted in ``missing``."""

    def __init__(self, k: int, n: int, alpha: float, goal: int):
        self.threshold = race_threshold(k, alpha)
        self.goal = goal
        self.needed = wins_needed(n, np.log(self.threshold))
        self.wins = np.zeros((k, k), dtype=np.int64)
        self.losses = np.zeros((k, k), dtype=np.int64)
        self.alive = np.ones(k, dtype=bool)
        self.evaluated = np.zeros(k, dtype=np.int64)
        self.out, self.ties, self.missing, self.steps = [], 0, 0, 0

    @property
    def settled(self) -> bool:
        return bool(self.alive.sum() <= self.goal)

    def step(self, row) -> list:
        """Take one data set's scores (higher is better; NaN: missing); returns the
        eliminations it caused as ``(learner, by, step, evalue)`` column indices."""
        row = np.asarray(row, dtype=float)
        alive = self.alive
        self.steps += 1
        both = alive[:, None] & alive[None, :]
        self.evaluated[alive] += 1
        with np.errstate(invalid="ignore"):
            diff = row[:, None] - row[None, :]
        self.wins += (diff > 0) & both
        self.losses += (diff < 0) & both
        self.ties += int(np.triu((diff == 0) & both, 1).sum())
        self.missing += int(np.triu(np.isnan(diff) & both, 1).sum())
        reached = (self.wins >= self.needed[self.losses]) & both
        beaten = np.flatnonzero(reached.any(axis=0))
        new = []
        for b in beaten:  # the strongest evidence names the eliminator
            rivals = np.flatnonzero(reached[:, b])
            log_e = log_evalue(self.wins[rivals, b], self.losses[rivals, b])
            best = int(np.argmax(log_e))
            new.append((int(b), int(rivals[best]), self.steps, float(np.exp(log_e[best]))))
        self.alive[beaten] = False
        self.out += new
        return new

    def state(self) -> dict:
        return {"threshold": self.threshold, "steps": self.steps, "settled": self.settled,
                "out": self.out, "alive": self.alive, "evaluated": self.evaluated,
                "ties": self.ties, "missing": self.missing,
                "evidence": np.exp(log_evalue(self.wins, self.losses))}


def log_evalue(wins, losses) -> np.ndarray:
    """log of the average over the bets of (1 + λ)^wins (1 − λ)^losses, without overflow."""
    w = np.asarray(wins, dtype=float)[..., None]
    l = np.asarray(losses, dtype=float)[..., None]
    log_wealth = w * np.log1p(BETS) + l * np.log1p(-BETS)
    top = log_wealth.max(axis=-1)
    return top + np.log(np.exp(log_wealth - top[..., None]).mean(axis=-1))


def wins_needed(n: int, log_threshold: float) -> np.ndarray:
    """For each number of losses 0…n, the fewest wins whose e-value reaches the threshold
    (n + 1 where none up to n does): the e-value grows with the wins and falls with the
    losses, so a binary search per number of losses finds it."""
    losses = np.arange(n + 1)
    lo = np.zeros(n + 1, dtype=np.int64)           # e(lo) may be below
    hi = np.full(n + 1, n + 1, dtype=np.int64)      # e(hi) reaches it, or hi = n + 1
    while np.any(hi - lo > 1):
        mid = (lo + hi) // 2
        ok = log_evalue(mid, losses) >= log_threshold
        hi = np.where(ok & (hi - lo > 1), mid, hi)
        lo = np.where(~ok & (hi - lo > 1), mid, lo)
    reach0 = log_evalue(np.zeros(n + 1), losses) >= log_threshold
    return np.where(reach0, 0, hi)


# ---------------------------------------------------------------- the baseline and the study

def repeated_friedman_race(x, alpha: float = 0.05, first_test: int = 5) -> list:
    """The F-Race rule (Birattari et al. 2002), for comparison only: after each data set from
    the ``first_test``-th on, a Friedman test of the learners still in the race; when it
    rejects at ``alpha``, every learner that Conover's t-test finds worse than the best (the
    smallest rank sum) at ``alpha`` is dropped. Returns ``(step, learner)`` per elimination.
    Each look is a test at ``alpha``, so over many looks a true null is rejected far more
    often than ``alpha`` (:func:`null_error_rates` shows it).

    Examples
    --------
    >>> import numpy as np
    >>> from rankwise.stats.racing import repeated_friedman_race
    >>> x = np.random.default_rng(10).normal(size=(40, 5))   # five equal learners
    >>> repeated_friedman_race(x)   # yet two are dropped after 9 data sets
    [(9, 0), (9, 1)]
    """
    from scipy.stats import rankdata, t as student

    from .omnibus import friedman_from_ranks
    from .pairwise import conover_scores

    x = np.asarray(x, dtype=float)
    n, k = x.shape
    alive = list(range(k))
    out = []
    for step in range(first_test, n + 1):
        if len(alive) < 2:
            break
        r = rankdata(-x[:step, alive], axis=1)
        # rankwise's own tie-corrected Friedman test and Conover's t-tests on these ranks
        if step < 2 or friedman_from_ranks(r, "default", "chi2").pvalue > alpha:
            continue
        means, se, df, _ = conover_scores(x[:step, alive], "friedman_conover", True,
                                           "default", None, ranks=r)
        best = int(np.argmin(means))
        with np.errstate(divide="ignore", invalid="ignore"):  # se = 0: every gap decisive
            tstat = (means - means[best]) / se
        worse = student.sf(tstat, df) * 2 <= alpha
        worse[best] = False
        out += [(step, alive[j]) for j in np.flatnonzero(worse)]
        alive = [a for j, a in enumerate(alive) if not worse[j]]
    return out


def null_error_rates(k: int = 10, n: int = 100, reps: int = 1000, alpha: float = 0.05,
                     seed: int = DEFAULT_SEED) -> dict:
    """Races on tables of ``k`` equal learners (every score an independent standard normal)
    over ``n`` data sets: the share of ``reps`` races that eliminate any learner by each data
    set, for the anytime-valid race and for the repeated Friedman tests of F-Race. Under this
    complete null every elimination is wrong. ``{"steps", "anytime", "frace"}``, the last two
    arrays of cumulative rates by data set.

    Examples
    --------
    >>> from rankwise.stats.racing import null_error_rates
    >>> rates = null_error_rates(k=5, n=40, reps=100, seed=1)
    >>> float(rates["anytime"][-1]) <= 0.05 < float(rates["frace"][-1])
    True
    """
    rng = np.random.default_rng(seed)
    first = {"anytime": [], "frace": []}
    for _ in range(reps):
        x = rng.normal(size=(n, k))
        run = _run(x, alpha, 1)
        first["anytime"].append(min((s for _, _, s, _ in run["out"]), default=n + 1))
        found = repeated_friedman_race(x, alpha)
        first["frace"].append(min((s for s, _ in found), default=n + 1))
    steps = np.arange(1, n + 1)
    return {"steps": steps, **{name: (np.asarray(v)[None, :] <= steps[:, None]).mean(axis=1)
                               for name, v in first.items()}}


def sample_size_comparison(k: int = 10, shift: float = 1.0, n_max: int = 200,
                           reps: int = 200, alpha: float = 0.05,
                           seed: int = DEFAULT_SEED) -> dict:
    """What the race saves against a fixed-size analysis of the same power, on tables where
    learner 0 is better than the other k − 1 (equal) learners by ``shift`` (every score normal
    with unit variance): the race (goal: the best) settles, correctly, in a share of ``reps``
    races within ``n_max`` data sets, after ``race_mean`` data sets on average; a fixed-size
    Friedman test followed by Holm's procedure against learner 0 (mean-rank z-tests) reaches
    the same share of "0 is better than every other" at ``fixed_n`` data sets (None: not
    within ``n_max``). ``race_tasks`` and ``fixed_tasks`` count (learner, data set)
    evaluations: the race stops evaluating a learner once it is out.

    Examples
    --------
    >>> from rankwise.stats.racing import sample_size_comparison
    >>> out = sample_size_comparison(k=5, shift=1.5, n_max=80, reps=40, seed=3)
    >>> out["race_power"], round(out["race_mean"], 1), out["fixed_n"]   # data sets
    (1.0, 35.9, 26)
    >>> round(out["race_tasks"]), out["fixed_tasks"]   # (learner, data set) evaluations
    (138, 130)
    """
    from scipy.stats import chi2, norm, rankdata

    from .adjust import adjust

    rng = np.random.default_rng(seed)
    tables = rng.normal(size=(reps, n_max, k))
    tables[:, :, 0] += shift
    steps, tasks = [], []
    for x in tables:
        run = _run(x, alpha, 1)
        ok = run["settled"] and bool(run["alive"][0])
        steps.append(run["steps"] if ok else n_max + 1)
        tasks.append(int(run["evaluated"].sum()))
    steps, tasks = np.asarray(steps), np.asarray(tasks)
    power = float((steps <= n_max).mean())
    ranks = rankdata(-tables, axis=2)
    grid = np.unique(np.linspace(3, n_max, 40).astype(int))
    fixed_power = []
    for n in grid:
        r = ranks[:, :n, :].mean(axis=1)
        stat = 12 * n / (k * (k + 1)) * ((r - (k + 1) / 2) ** 2).sum(axis=1)
        gate = chi2.sf(stat, k - 1) <= alpha
        z = (r[:, 1:] - r[:, :1]) / np.sqrt(k * (k + 1) / (6 * n))
        p = 2 * norm.sf(np.abs(z))
        holm = np.array([adjust(row, "holm") for row in p])
        fixed_power.append(float((gate & (holm <= alpha).all(axis=1) & (z > 0).all(axis=1))
                                 .mean()))
    fixed_power = np.asarray(fixed_power)
    reach = np.flatnonzero(fixed_power >= power)
    fixed_n = int(grid[reach[0]]) if reach.size else None
    return {"race_power": power, "race_mean": float(steps[steps <= n_max].mean())
            if power else float("nan"), "race_steps": steps,
            "race_tasks": float(tasks.mean()), "grid": grid, "fixed_power": fixed_power,
            "fixed_n": fixed_n, "fixed_tasks": None if fixed_n is None else fixed_n * k}
