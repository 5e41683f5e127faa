"""The best set ("tied with #1") of an analysis, by one of the named procedures of
:data:`rankwise.names.BEST_SETS`, and the sentence that reconciles two of them.

Every analysis that names a best set builds one :class:`BestSet`, so its JSON (``best_set``)
and its verdict say which procedure decided it; where a report holds two (the items'
macro-average and the comparison across tasks), :func:`reconcile` says why they differ.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import RankwiseError
from ..names import BEST_SETS


@dataclass(frozen=True)
class BestSet:
    """``learners`` tied with #1 (``best`` first) by ``procedure`` (a key of
    :data:`~rankwise.names.BEST_SETS`); ``detail`` names its settings in words ("Holm's
    procedure at alpha = 0.05", "95% simultaneous")."""

    procedure: str
    best: str | None
    learners: tuple
    detail: str = ""
    scope: str = ""   # what the set is over ("the macro-average", "the data sets")

    def __post_init__(self):
        if self.procedure not in BEST_SETS:
            raise RankwiseError(f"unknown best-set procedure {self.procedure!r}; the procedures"
                                f" are {', '.join(BEST_SETS)}")

    @property
    def title(self) -> str:
        return BEST_SETS[self.procedure].title

    def how(self) -> str:
        """"by <title> (<detail>)": the words every output puts beside the set."""
        return f"by {self.title}" + (f" ({self.detail})" if self.detail else "")

    def sentence(self) -> str:
        """One sentence: the best, who is tied with it, and the procedure that decided it."""
        scope = f" on {self.scope}" if self.scope else ""
        others = [x for x in self.learners if x != self.best]
        if self.best is None:
            return f"No best learner{scope} is named {self.how()}."
        if not others:
            return (f"Best{scope}: {self.best}, alone: no other learner is tied with it"
                    f" {self.how()}.")
        return (f"Best{scope}: {self.best}; tied with it {self.how()}: {', '.join(others)}"
                " (the order among them is not established).")

    def to_dict(self) -> dict:
        return {"procedure": self.procedure, "title": self.title, "detail": self.detail,
                "scope": self.scope, "best": self.best, "learners": list(self.learners),
                "meaning": BEST_SETS[self.procedure].explanation}


def reconcile(first: BestSet, second: BestSet) -> str | None:
    """None when the two sets agree; otherwise the sentence that says how they differ and why
    (they answer different questions, or the same with different power), naming which the
    report's verdict goes by (``first``)."""
    a, b = set(first.learners), set(second.learners)
    if a == b and first.best == second.best:
        return None
    only_second = [x for x in second.learners if x not in a]
    only_first = [x for x in first.learners if x not in b]
    where = f"On {second.scope}, " if second.scope else "By the other procedure, "
    parts = []
    if only_second:
        parts.append(f"{', '.join(only_second)} {'is' if len(only_second) == 1 else 'are'}"
                     " also tied with #1")
    if only_first:
        parts.append(f"{', '.join(only_first)} {'is' if len(only_first) == 1 else 'are'} not")
    if first.best != second.best:
        parts.append(f"{second.best} ranks first")
    return (where + "; ".join(parts) + f" {second.how()}. They answer different questions:"
            f" by {first.title} a learner is tied with #1 when"
            f" {BEST_SETS[first.procedure].explanation}; by {second.title}, when"
            f" {BEST_SETS[second.procedure].explanation}. The verdict goes by the first.")
