"""A leaderboard's result, whatever its evidence (a score table's splits or a log of votes):
one :class:`Board` per subset, in a :class:`Leaderboard` that every format renders
(:mod:`rankwise.report.board`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from ..defaults import LEADERBOARD_FIGURE_MOST
from ..protocol import Analysis
from ..stats.results import jsonable


#: Learners up to which the win-rate matrix is computed and kept (k × k numbers).
MATRIX_MAX = 300
#: The figures draw every learner up to this many (the board's best beyond; ``figure_top``
#: fewer): a row (a row and a column) each, sized so that its name can be read.
FIGURE_MOST = LEADERBOARD_FIGURE_MOST
#: The leaderboard's figures: name -> what its sentence calls it.
FIGURES = {"elo": "The Elo figure", "winrate_matrix": "The win-rate matrix figure"}
#: The board's columns, in the order every format shows them.
COLUMNS = ("elo", "elo_low", "elo_high", "rank", "winrate", "improvability",
           "improvability_low", "improvability_high", "mrr", "rank_1", "rank_2", "rank_3",
           "rank_4_plus", "normalized_error", "imputed", "median_rank", "time_train_s",
           "time_infer_s", "borda", "copeland", "kemeny", "rank_low", "rank_high", "votes",
           "ties", "style_elo", "style_rank_change")
#: Columns read from the table when it has them (TabArena's names, any case).
EXTRA_COLUMNS = ("imputed", "time_train_s", "time_infer_s")


@dataclass(frozen=True)
class Board:
    """One board: the learners best first (by Elo) and their columns."""

    subset: str | None           # None: the whole table; else the --by value
    learners: tuple
    columns: dict                # name -> array over ``learners``
    bound: np.ndarray            # per learner: 0, or +1/-1 where Elo is a lower/upper bound
    datasets: int
    splits: int
    complete: bool
    tied_with_first: tuple
    winners: tuple               # not significantly worse than the mean-rank best (post-hoc)
    friedman: dict               # the omnibus test's name, statistic and p-value
    matrix: np.ndarray | None = None    # win rates, row against column, board order
    notes: tuple = ()
    sentences: tuple = ()
    rule: str = "elo"            # the order of the board (--aggregate-rule)
    condorcet: str | None = None  # the Condorcet winner of the data sets' majorities
    cycles: tuple = ()           # groups of learners whose majorities go round
    kemeny_exact: bool = True
    votes: dict | None = None    # a board of votes: counts, bootstrap, vote check, style

    def to_dict(self) -> dict:
        rows = []
        for j, name in enumerate(self.learners):
            row = {"learner": name}
            for col in COLUMNS:
                if col in self.columns:
                    row[col] = self.columns[col][j]
            row["elo_bound"] = {0: None, 1: "lower", 2: "lower", -1: "upper"}[
                int(self.bound[j])]
            rows.append(row)
        return jsonable({
            "subset": self.subset, "datasets": self.datasets, "splits": self.splits,
            "complete": self.complete, "rows": rows,
            "tied_with_first": list(self.tied_with_first),
            "posthoc_winners": list(self.winners), "friedman": self.friedman,
            "order": self.rule, "condorcet_winner": self.condorcet,
            "majority_cycles": [list(c) for c in self.cycles],
            "kemeny": "exact" if self.kemeny_exact else "heuristic (a local optimum)",
            "winrate_matrix": None if self.matrix is None or self.votes else self.matrix,
            "notes": list(self.notes), "sentences": list(self.sentences),
            **({} if self.votes is None else {"votes": {**self.votes,
                                                        "win_probability": self.matrix}})})


@dataclass(frozen=True, repr=False)
class Leaderboard(Analysis):
    """:func:`leaderboard`'s result: the board of the whole table, then one per subset.

    Examples
    --------
    >>> import rankwise
    >>> board = rankwise.leaderboard(rankwise.load_example("garcia2008"), draws=20)
    >>> len(board.boards), board.board.subset, board.settings["bootstrap"]["draws"]
    (1, None, 20)
    >>> sorted(board.to_dict()["boards"][0]["rows"][0])[:4]
    ['borda', 'copeland', 'elo', 'elo_bound']
    """

    kind: ClassVar[str] = "leaderboard"
    version: ClassVar[int] = 2   # 1: {"rankwise": "leaderboard/1", ...}

    boards: tuple
    source: str
    criterion: str | None
    higher_is_better: bool
    settings: dict = field(default_factory=dict)
    notes: tuple = ()

    @property
    def board(self) -> Board:
        return self.boards[0]

    def figure_shown(self, name: str) -> int:
        """How many learners the figure ``name`` (``elo``, ``winrate_matrix``) draws: the
        whole table's board's best, every learner up to ``figure_top`` (0 for a matrix that was
        not kept)."""
        if name == "winrate_matrix" and self.board.matrix is None:
            return 0
        return min(len(self.board.learners), self.settings.get("figure_top", FIGURE_MOST))

    def figure_left_out(self, name: str) -> str | None:
        """The sentence the figure ``name`` prints in itself and the notes carry when it
        draws fewer learners than the board has (None when it draws them all)."""
        from .figures import left_out

        shown, of = self.figure_shown(name), len(self.board.learners)
        if not shown:
            return None
        change = (f"--figure-top N to change (up to {FIGURE_MOST})"
                  if shown < FIGURE_MOST else f"{FIGURE_MOST} is the most it draws")
        return left_out(FIGURES[name], shown, of,
                        change + "; the CSV and JSON hold every learner")

    def to_dict(self) -> dict:
        """Everything, as JSON-ready values (``rankwise.report.board`` writes every format)."""
        return jsonable({"source": self.source, "criterion": self.criterion,
                         "higher_is_better": self.higher_is_better, "settings": self.settings,
                         "notes": list(self.notes),
                         "boards": [b.to_dict() for b in self.boards]})
