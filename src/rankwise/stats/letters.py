"""Compact letter display of the all-pairs decisions (Piepho 2004): learners that share a letter
are not significantly different; two learners that are significantly different share none.

The letters come from Piepho's insert-and-absorb algorithm: start with one letter for every
learner; for each significantly different pair, split every letter that holds both into one
without the first and one without the second; then drop every letter whose learners another
letter holds too. What is left is the set of the largest groups of mutually not different
learners (the maximal cliques of the "not different" graph), so the display does not depend on
the order of the pairs. Letters are named in the order of the first learner (best first) they
hold: ``a``, ``b``, … ``z``, ``A`` … ``Z``, then ``aa``, ``ab``, ….
"""

from __future__ import annotations

import string
from dataclasses import dataclass

import numpy as np

from ..errors import RankwiseError
from .results import jsonable

#: More letters than this means the decisions do not make a display a person can read.
MAX_LETTERS = 200


@dataclass(frozen=True)
class LetterDisplay:
    """``letters[i]``: the letters of ``learners[i]`` (in the order given, best first);
    ``groups``: each letter with its learners.

    Examples
    --------
    >>> import rankwise
    >>> cmp = rankwise.compare(rankwise.load_example("garcia2008"), posthoc="all")
    >>> dict(zip(cmp.letters.learners, cmp.letters.letters))
    {'C4.5': 'a', 'NaiveBayes': 'ab', 'CN2': 'ab', '1-NN': 'bc', 'Kernel': 'c'}
    """

    learners: tuple
    letters: tuple
    groups: dict

    def to_dict(self) -> dict:
        return jsonable({"letters": dict(zip(self.learners, self.letters)),
                         "groups": {k: list(v) for k, v in self.groups.items()}})


def letter_name(index: int) -> str:
    """``a`` … ``z``, ``A`` … ``Z``, then two letters: ``aa``, ``ab``, …."""
    alphabet = string.ascii_lowercase + string.ascii_uppercase
    if index < len(alphabet):
        return alphabet[index]
    index -= len(alphabet)
    return alphabet[index // len(alphabet)] + alphabet[index % len(alphabet)]


def compact_letters(learners, different) -> LetterDisplay:
    """The compact letter display of ``different`` (k × k, symmetric: True where the pair is
    significantly different), for ``learners`` in display order (best first).

    Examples
    --------
    A differs from C and D, B from D:

    >>> import numpy as np
    >>> from rankwise.stats.letters import compact_letters
    >>> d = np.zeros((4, 4), bool)
    >>> for i, j in [(0, 2), (0, 3), (1, 3)]:
    ...     d[i, j] = d[j, i] = True
    >>> compact_letters("ABCD", d).letters
    ('a', 'ab', 'bc', 'c')
    """
    learners = tuple(str(n) for n in learners)
    k = len(learners)
    different = np.asarray(different, dtype=bool)
    if different.shape != (k, k):
        raise RankwiseError(f"the decisions must be a {k} × {k} matrix; got {different.shape}")
    if not (different == different.T).all():
        raise RankwiseError("the decisions must be symmetric (a pair is different or not)")
    columns = {(1 << k) - 1} if k else set()
    for i, j in zip(*np.nonzero(np.triu(different, 1))):
        split = set()
        for col in columns:
            if col >> int(i) & 1 and col >> int(j) & 1:
                split |= {col & ~(1 << int(i)), col & ~(1 << int(j))}
            else:
                split.add(col)
        columns = _absorbed(split)
        if len(columns) > MAX_LETTERS:
            raise RankwiseError(f"the decisions need more than {MAX_LETTERS} letters; a letter"
                                " display of them cannot be read")
    ordered = sorted(columns, key=lambda c: _members(c, k))
    groups = {letter_name(n): tuple(learners[m] for m in _members(c, k))
              for n, c in enumerate(ordered)}
    letters = tuple("".join(name for name, members in groups.items() if learner in members)
                    for learner in learners)
    return LetterDisplay(learners, letters, groups)


def _absorbed(columns: set) -> set:
    """The columns that no other column contains."""
    return {c for c in columns if not any(c != d and c & d == c for d in columns)}


def _members(column: int, k: int) -> tuple:
    return tuple(m for m in range(k) if column >> m & 1)
