"""A race inside the runner (``rankwise run --race``): the data sets are taken one at a time, in
the race's order; each is run for the learners still in the race, whose scores on it then go to
the race of :mod:`rankwise.stats.racing`, and a learner it eliminates is never run on a later
data set.

- **Nothing is trusted from the file.** The race is recomputed from the stored results, in the
  stored order, whenever a run starts and whenever a reader looks, so a run killed at any moment
  (even ``kill -9``) continues to exactly the state an uninterrupted one reaches: a task's
  result depends on its seeds, never on when it ran. The record the runner writes after each
  data set (``meta["race"]``) is this computation's output, kept for readers of the file.
- **One data set at a time.** A data set is taken once every task of the learners still in the
  race has been committed, and the next one starts only then, so an eliminated learner never
  runs on a later data set. Workers may wait at the end of each data set: the price of a race
  whose course does not depend on timing.
- **A learner's score on a data set** is the median of its R × F values of the race's criterion
  (``rankwise compare``'s default aggregate), rounded to 12 decimals, with the criterion's own
  direction. A learner with a failed task on a data set, or no defined value there, has no score
  on it: its pairs get no outcome from that data set, and the race counts them as missing.

The experiment wing reaches :mod:`rankwise.stats` only here, inside functions: the race's
statistics are the replay's (``rankwise race``), not a copy.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import RankwiseError
from .criteria import CRITERIA

#: Scores are rounded to this many decimals before two learners are compared, as in compare.
DECIMALS = 12


@dataclass(frozen=True)
class RaceSettings:
    """How ``rankwise run --race`` races the learners: on ``criterion`` (None: the experiment's
    first), eliminating with an overall error of at most ``alpha``, until ``goal`` learners are
    left, taking the data sets in a random order seeded by the experiment's seed or in the
    experiment file's order (``order="given"``).

    Examples
    --------
    >>> from rankwise.experiment import RaceSettings
    >>> RaceSettings("accuracy", alpha=0.05, goal=1).order
    'random'
    """

    criterion: str | None = None
    alpha: float = 0.05
    goal: int = 1
    order: str = "random"

    def describe(self, experiment) -> dict:
        """The race's full description (what is stored and compared on a resume), checked
        against ``experiment``; every mistake is one line."""
        from .._validate import alpha as check_alpha
        from ..stats.racing import ORDERS, race_order, race_threshold

        k, names = len(experiment.learners), [d.name for d in experiment.datasets]
        criterion = self.criterion or experiment.criteria[0]
        if criterion not in experiment.all_criteria:
            raise RankwiseError(f"--race {criterion}: the experiment does not record it; race"
                                f" on one of {', '.join(experiment.all_criteria)}")
        if k < 2:
            raise RankwiseError("a race needs at least two learners")
        goal = self.goal
        if isinstance(goal, bool) or not isinstance(goal, (int, np.integer)) or \
                not 1 <= goal < k:
            raise RankwiseError(f"--goal: a race of {k} learners keeps from 1 to {k - 1} of"
                                f" them; got {goal!r}")
        if self.order not in ORDERS:
            raise RankwiseError(f"--order must be random or given; got {self.order!r}")
        a = check_alpha(self.alpha)
        race_threshold(k, a)  # refused now, before the run starts
        rows = race_order(len(names), self.order, experiment.seed)
        return {"criterion": criterion, "higher_is_better": CRITERIA[criterion],
                "aggregate": "median", "decimals": DECIMALS, "alpha": a, "goal": int(goal),
                "order_rule": self.order, "seed": int(experiment.seed),
                "order": [names[i] for i in rows],
                "learners": [lrn.name for lrn in experiment.learners]}


def settings_from(race, experiment) -> dict | None:
    """The description of ``race`` (None, True, a criterion's name or RaceSettings)."""
    if race is None or race is False:
        return None
    if race is True:
        race = RaceSettings()
    elif isinstance(race, str):
        race = RaceSettings(race)
    elif not isinstance(race, RaceSettings):
        raise RankwiseError(f"race must be True, a criterion's name or RaceSettings; got"
                            f" {type(race).__name__}")
    return race.describe(experiment)


class RunRace:
    """The race of one results file, advanced data set by data set from its stored results."""

    def __init__(self, settings: dict, per_cell: int):
        from ..stats.racing import Racer

        self.settings, self.per_cell = settings, per_cell
        self.learners, self.order = settings["learners"], settings["order"]
        self.racer = Racer(len(self.learners), len(self.order), settings["alpha"],
                           settings["goal"])
        self.out = []

    @property
    def finished(self) -> bool:
        """Settled (the goal reached) or every data set taken."""
        return self.racer.settled or self.racer.steps == len(self.order)

    @property
    def next_dataset(self) -> str | None:
        return None if self.finished else self.order[self.racer.steps]

    @property
    def alive(self) -> list:
        return [n for n, a in zip(self.learners, self.racer.alive) if a]

    def advance(self, store, pending=frozenset()) -> int:
        """Take every data set whose tasks (of the learners still in the race) are all
        committed and none of them in ``pending``; returns how many were taken."""
        taken = 0
        while not self.finished:
            row = self._scores(store, self.next_dataset, pending)
            if row is None:
                break
            dataset = self.next_dataset
            for j, by, step, evalue in self.racer.step(row):
                self.out.append({"learner": self.learners[j], "by": self.learners[by],
                                 "step": step, "dataset": dataset, "evalue": evalue,
                                 "wins": int(self.racer.wins[by, j]),
                                 "losses": int(self.racer.losses[by, j])})
            taken += 1
        return taken

    def _scores(self, store, dataset, pending):
        """The scores (higher is better) of the learners still in the race on ``dataset``, or
        None while any of their tasks there is to run."""
        from ..stats.ranking import round_scores

        alive = set(self.alive)
        if any(key[0] == dataset and key[3] in alive for key in pending):
            return None
        status = store.dataset_tasks(dataset)
        counts = {n: 0 for n in alive}
        failed = set()
        for (_, _, learner), state in status.items():
            if learner in alive:
                counts[learner] += 1
                if state == "failed":
                    failed.add(learner)
        if any(c < self.per_cell for c in counts.values()):
            return None
        values = store.dataset_values(dataset, self.settings["criterion"])
        row = np.full(len(self.learners), np.nan)
        for j, name in enumerate(self.learners):
            mine = values.get(name)
            if name in alive and name not in failed and mine is not None:
                defined = [v for v in mine if v is not None and np.isfinite(v)]
                row[j] = np.median(defined) if defined else np.nan
        sign = 1.0 if self.settings["higher_is_better"] else -1.0
        return round_scores(row, self.settings["decimals"]) * sign

    def not_needed(self) -> int:
        """Tasks of the full design the race has decided not to run."""
        n, steps = len(self.order), self.racer.steps
        out = sum(n - e["step"] for e in self.out)
        if self.racer.settled:
            out += len(self.alive) * (n - steps)
        return out * self.per_cell

    def record(self) -> dict:
        """What the race has decided so far, with its evidence (stored, shown, exported)."""
        from ..stats.racing import guarantee_text

        r = self.racer
        k = len(self.learners)
        return {"settings": self.settings, "steps": r.steps, "datasets": len(self.order),
                "taken": self.order[:r.steps], "next": self.next_dataset,
                "finished": self.finished, "settled": r.settled, "threshold": r.threshold,
                "eliminations": list(self.out), "survivors": self.alive,
                "ties": r.ties, "missing": r.missing, "tasks_not_needed": self.not_needed(),
                "guarantee": guarantee_text(self.settings["alpha"], k, r.threshold)}

    def as_race(self):
        """The race as a :class:`rankwise.stats.racing.Race`, for the replay's text, JSON and
        figure (``rankwise race RESULTS.sqlite`` on a raced file)."""
        from ..stats.racing import Elimination, Race, log_evalue

        r, s = self.racer, self.settings
        return Race(tuple(self.learners), tuple(self.order), s["alpha"], s["goal"],
                    r.threshold, r.steps, r.settled,
                    tuple(Elimination(e["learner"], e["by"], e["step"], e["evalue"])
                          for e in self.out),
                    tuple(self.alive), r.evaluated.copy(),
                    np.exp(log_evalue(r.wins, r.losses)), r.ties,
                    s["seed"] if s["order_rule"] == "random" else None)


def cannot_eliminate(settings: dict) -> str | None:
    """A note when the race has too few data sets to eliminate anyone, even a learner that
    loses every one of them (None otherwise)."""
    from ..stats.racing import wins_needed, race_threshold

    k, n = len(settings["learners"]), len(settings["order"])
    threshold = race_threshold(k, settings["alpha"])
    fewest = int(wins_needed(n, float(np.log(threshold)))[0])
    if fewest <= n:
        return None
    return (f"with {n} data set(s) the race cannot eliminate any learner: even a learner"
            f" beaten on every data set needs more to reach e = k(k - 1)/alpha ="
            f" {threshold:,.0f}; the whole design runs (a larger alpha, or more data sets,"
            " let the race decide)")


def skipped_cells(record: dict) -> set:
    """The (data set, learner) cells the race has decided not to run."""
    order, n = record["settings"]["order"], record["datasets"]
    out = {(d, e["learner"]) for e in record["eliminations"] for d in order[e["step"]:n]}
    if record["settled"]:
        out |= {(d, lrn) for lrn in record["survivors"] for d in order[record["steps"]:]}
    return out


def _state(store, meta: dict) -> RunRace | None:
    settings = meta.get("race_settings")
    if not settings:
        return None
    design = meta.get("design", {})
    state = RunRace(settings, design.get("repeats", 0) * design.get("folds", 0))
    state.advance(store)
    return state


def race_progress(store, meta: dict) -> dict | None:
    """The race a results file holds, recomputed from its stored results (None: not raced)."""
    state = _state(store, meta)
    return None if state is None else state.record()


def recorded_race(path) -> tuple | None:
    """``(Race, record)`` of a raced results file, recomputed from its results; None for any
    other file (a table, or a results file run without a race)."""
    from .store import Store, is_sqlite

    if not is_sqlite(path):
        return None
    store = Store(path, readonly=True)
    try:
        state = _state(store, store.meta())
    finally:
        store.close()
    return None if state is None else (state.as_race(), state.record())


def _count(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "es" if word.endswith("s") else "s")


def race_lines(record: dict, width: int = 80) -> list:
    """The race in a few lines of text, for ``run`` and ``status``."""
    import textwrap

    s = record["settings"]
    from ..stats.racing import goal_text

    goal = goal_text(s["goal"])
    head = (f"Race on {s['criterion']} (alpha = {s['alpha']:g}, goal: {goal}, data sets in"
            + (f" a random order, seed {s['seed']}" if s["order_rule"] == "random" else
               " the experiment file's order") + f"): {record['steps']} of"
            f" {record['datasets']} data sets taken; "
            + ("settled" if record["settled"] else "finished, not settled" if
               record["finished"] else f"next: {record['next']}") + ".")
    out = textwrap.wrap(head, width)
    for e in record["eliminations"]:
        out += textwrap.wrap(
            f"{e['learner']} eliminated after {e['step']} data sets ({e['dataset']}) by"
            f" {e['by']}: {_count(e['wins'], 'win')}, {_count(e['losses'], 'loss')},"
            f" e = {e['evalue']:,.0f}", width, initial_indent="  ", subsequent_indent="    ")
    out += textwrap.wrap(f"Left: {', '.join(record['survivors'])}. Tasks the race did not need:"
                         f" {record['tasks_not_needed']:,}. Outcomes missing (a failed task):"
                         f" {record['missing']}; ties: {record['ties']}.", width)
    return out
