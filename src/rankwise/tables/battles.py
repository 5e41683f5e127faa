"""Vote logs as the arenas and judges write them: one row per vote ``model_a, model_b, winner``,
read into one :class:`Votes` (models indexed 0..k-1, one outcome per vote).

The convention of every vote inside rankwise: ``outcome`` 0 = ``a`` wins, 1 = ``b`` wins,
2 = a tie; FastChat's ``tie`` and ``tie (bothbad)`` are both ties, and which kind each tie was
is kept in ``tie_kind`` (0 ``tie``, 1 ``bothbad``, -1 not a tie) for reporting. A vote's pair
is kept in the order it was voted (``a`` shown first); :meth:`Votes.cells` reduces the log to
unique (a, b, outcome) cells with their summed weight.

Readers (:func:`rankwise.read_votes`, ``source=`` or detected):

- ``votes``: a long CSV/TSV/Parquet/JSON-lines table, one row per vote, with ``model_a,
  model_b, winner``, or the counts layout ``model_a, model_b, wins_a, wins_b, ties`` (one row
  per pair, turned into weighted votes);
- ``arena``: FastChat/LMArena battles (``clean_battle_data.py``'s JSON, the
  ``chatbot_arena_conversations`` and ``arena-human-preference`` Parquet layouts);
- ``mt-bench``: MT-Bench pairwise judgments (``gpt-4_pair.jsonl``) and human judgments;
- ``arena-hard``: arena-hard-auto judgment files (``model_judgment/<judge>/<model>.jsonl``).

The readers of the tool formats and :func:`rankwise.read_votes` are in :mod:`.battle_readers`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import RankwiseError
from .guard import reading

#: The vote outcomes (``Votes.outcome``).
OUTCOMES = ("a wins", "b wins", "tie")
#: The kinds of tie a log may tell apart (``Votes.tie_kind``).
TIE_KINDS = ("tie", "bothbad")
#: The spellings of a winner and what each means: 0 a wins, 1 b wins, 2 a tie, 3 a tie in
#: which both were bad (FastChat's ``tie (bothbad)``). Compared stripped and in lower case.
WINNERS = {"model_a": 0, "a": 0, "model_b": 1, "b": 1, "tie": 2, "draw": 2,
           "tie (bothbad)": 3, "tie(bothbad)": 3, "both_bad": 3, "bothbad": 3}
#: How the accepted spellings are listed in a message.
ACCEPTED = "model_a, model_b, tie, tie (bothbad) (or a, b, both_bad, or the winning model's name)"
#: What to do with a vote whose winner is missing.
MISSING_WINNER = ("refuse", "drop")
#: The columns of a vote that label it (name in the Votes -> the spellings a table uses).
LABELS = {"judge": ("judge", "annotator", "rater"),
          "prompt": ("question_id", "prompt_id", "prompt", "uid", "id"),
          "category": ("category",), "turn": ("turn",), "language": ("language",),
          "anony": ("anony",)}
#: Columns that are neither a role, a label nor a feature, even when numeric (read past and
#: named in the notes, as every other column not read).
NOT_FEATURES = ("tstamp", "timestamp", "conversation_a", "conversation_b", "response_a",
                "response_b", "evaluation_order", "dedup_tag", "category_tag",
                "openai_moderation", "toxic_chat_tag", "is_code", "is_refusal")
#: The counts layout: one row per pair.
COUNT_COLUMNS = ("wins_a", "wins_b", "ties")


@dataclass(frozen=True, eq=False)
class Votes:
    """A log of pairwise votes between models, one entry per vote.

    Attributes
    ----------
    models : tuple of str
        The model names, sorted (index ``i`` of ``a`` and ``b``).
    a, b : numpy.ndarray of int64
        The two models of each vote, in the order voted (``a`` was shown first).
    outcome : numpy.ndarray of int8
        0 = ``a`` wins, 1 = ``b`` wins, 2 = tie.
    weight : numpy.ndarray of float64
        Each vote's weight (1 unless the log counts or weighs votes: a counts table, an
        arena-hard strong verdict).
    tie_kind : numpy.ndarray of int8
        -1 not a tie, 0 a tie (``tie``), 1 both bad (``tie (bothbad)``): :data:`TIE_KINDS`.
    labels : dict
        ``name -> (codes, names)`` for the labels the log has (``judge``, ``prompt``,
        ``category``, ``turn``, ``language``, ``anony``): int64 codes per vote into the
        sorted names (-1 where a vote has none).
    features : numpy.ndarray or None
        A float matrix, one row per vote, of numeric features (style control's token counts
        and markdown counts of each side); NaN where a vote has none.
    feature_names : tuple of str
    source : str
        What was read (a path or ``"DataFrame"``).
    reader : str
        Which reader (a ``votes`` source of :data:`rankwise.names.SOURCES`).
    notes : tuple of str
        What the reader decided, with counts: rows left out and why, spellings mapped.

    Examples
    --------
    >>> import pandas as pd
    >>> from rankwise import read_votes
    >>> v = read_votes(pd.DataFrame({"model_a": ["x", "y", "x"], "model_b": ["y", "x", "y"],
    ...                              "winner": ["model_a", "tie (bothbad)", "y"]}))
    >>> v.models, v.a.tolist(), v.outcome.tolist(), v.tie_kind.tolist()
    (('x', 'y'), [0, 1, 0], [0, 2, 1], [-1, 1, -1])
    """

    models: tuple
    a: np.ndarray
    b: np.ndarray
    outcome: np.ndarray
    weight: np.ndarray
    tie_kind: np.ndarray
    labels: dict = field(default_factory=dict)
    features: np.ndarray | None = None
    feature_names: tuple = ()
    source: str = "DataFrame"
    reader: str = "votes"
    notes: tuple = ()

    @property
    def n_votes(self) -> int:
        """The number of votes (rows of the log kept)."""
        return len(self.a)

    @property
    def total_weight(self) -> float:
        """The sum of the weights: the number of votes a fit sees."""
        return float(self.weight.sum())

    def label(self, name: str) -> np.ndarray:
        """Each vote's ``name`` label as its text (``None`` where the vote has none)."""
        if name not in self.labels:
            raise RankwiseError(f"the votes have no {name!r} label; they have"
                                f" {', '.join(self.labels) or 'none'}")
        codes, names = self.labels[name]
        out = np.asarray(names + (None,), dtype=object)
        return out[codes]

    def select(self, keep, why: str) -> "Votes":
        """The votes where ``keep`` (a boolean array, one per vote) is true, with the same
        models (a model may be left without votes) and a note saying ``why`` and how many.

        Examples
        --------
        >>> import pandas as pd
        >>> from rankwise import read_votes
        >>> v = read_votes(pd.DataFrame({"model_a": ["x", "y"], "model_b": ["y", "x"],
        ...                              "winner": ["x", "x"], "category": ["math", "chat"]}))
        >>> v.select(v.label("category") == "math", "math only").n_votes
        1
        """
        keep = np.asarray(keep, dtype=bool)
        if keep.shape != self.a.shape:
            raise RankwiseError(f"select needs one true/false per vote ({self.n_votes});"
                                f" got {keep.shape[0] if keep.ndim else 'a scalar'}")
        labels = {name: (codes[keep], names) for name, (codes, names) in self.labels.items()}
        note = f"{int(keep.sum())} of {self.n_votes} votes kept: {why}."
        return Votes(self.models, self.a[keep], self.b[keep], self.outcome[keep],
                     self.weight[keep], self.tie_kind[keep], labels,
                     None if self.features is None else self.features[keep],
                     self.feature_names, self.source, self.reader, self.notes + (note,))

    def cells(self) -> tuple:
        """The log reduced to unique cells ``(a, b, outcome, n)``: ``n`` the summed weight of
        the votes of each cell, sorted by (a, b, outcome). ``a`` vs ``b`` and ``b`` vs ``a``
        are different cells (the order voted).

        Examples
        --------
        >>> import pandas as pd
        >>> from rankwise import read_votes
        >>> v = read_votes(pd.DataFrame({"model_a": ["x", "x", "y"], "model_b": ["y", "y", "x"],
        ...                              "winner": ["model_a", "model_a", "tie"]}))
        >>> [c.tolist() for c in v.cells()]
        [[0, 1], [1, 0], [0, 2], [2.0, 1.0]]
        """
        k = len(self.models)
        key = (self.a * k + self.b) * 3 + self.outcome.astype(np.int64)
        unique, inverse = np.unique(key, return_inverse=True)
        n = np.bincount(inverse, weights=self.weight, minlength=len(unique))
        return (unique // 3 // k, unique // 3 % k, (unique % 3).astype(np.int8), n)

    def win_matrix(self, tie: float = 0.5) -> np.ndarray:
        """``w[i, j]``: the weight of the votes ``i`` won against ``j``, a tie counted as
        ``tie`` of a win to each (the Bradley-Terry input ``w`` of
        :func:`rankwise.stats.elo.fit`, battles ``n = w + w.T``).

        Examples
        --------
        >>> import pandas as pd
        >>> from rankwise import read_votes
        >>> v = read_votes(pd.DataFrame({"model_a": ["x", "y"], "model_b": ["y", "x"],
        ...                              "winner": ["model_a", "tie"]}))
        >>> v.win_matrix().tolist()
        [[0.0, 1.5], [0.5, 0.0]]
        """
        k = len(self.models)
        won = np.where(self.outcome == 1, self.b, self.a)
        lost = np.where(self.outcome == 1, self.a, self.b)
        decided = self.outcome != 2
        # one bincount a kind of vote (np.add.at is many times slower on millions of votes)
        w = np.bincount(won[decided] * k + lost[decided], weights=self.weight[decided],
                        minlength=k * k).reshape(k, k)
        t = np.bincount(self.a[~decided] * k + self.b[~decided],
                        weights=tie * self.weight[~decided], minlength=k * k).reshape(k, k)
        return w + t + t.T


# --------------------------------------------------------------------------- building

def _text(values) -> np.ndarray:
    """A few names or labels as stripped text (None where missing), for messages."""
    s = pd.Series(np.asarray(values, dtype=object), dtype=object)
    missing = s.isna().to_numpy()
    out = s.astype(str).str.strip().to_numpy(dtype=object)
    out[missing] = None
    return out


def factor(values) -> tuple:
    """``(codes, names)``: each value's code into its distinct values, as stripped text (two
    that differ only by spaces keep their own codes; the callers merge equal names), -1 where
    it is missing or blank. Hashed once (``pandas.factorize``), then only the distinct
    values are cleaned: a million votes of a few hundred models take a fraction of a second.

    Examples
    --------
    >>> from rankwise.tables.battles import factor
    >>> codes, names = factor(["gpt ", "claude", None, "gpt", ""])
    >>> codes.tolist(), names.tolist()
    ([0, 1, -1, 2, -1], ['gpt', 'claude', 'gpt', ''])
    """
    codes, uniques = pd.factorize(pd.Series(np.asarray(values, dtype=object), dtype=object))
    names = _text(uniques)
    blank = np.append(pd.Series(names, dtype=object).isna().to_numpy() | (names == ""), True)
    codes = codes.astype(np.int64)
    codes[blank[np.where(codes >= 0, codes, len(names))]] = -1
    return codes, names


def _sorted_codes(values) -> tuple:
    """``(codes, names)`` of a label column: names distinct and sorted as text, -1 where
    missing."""
    codes, names = factor(values)
    used = np.array([n is not None and n != "" for n in names], dtype=bool)
    order, inverse = np.unique(names[used].astype(str), return_inverse=True) if used.any() \
        else (np.array([], dtype=str), np.zeros(0, np.int64))
    remap = np.full(len(names), -1, dtype=np.int64)
    remap[np.flatnonzero(used)] = inverse
    out = np.where(codes >= 0, remap[np.maximum(codes, 0)], -1)
    return out.astype(np.int64), tuple(str(n) for n in order)


def _row(position, rows) -> str:
    """How a message names a vote: its row (1-based, header not counted)."""
    return f"row {int(rows[position]) + 1}" if rows is not None else f"row {position + 1}"


def outcome_codes(winner, model_a, model_b, where: str, rows=None) -> np.ndarray:
    """The code of each winner (:data:`WINNERS`; a model's name means that model won): 0, 1,
    2 (tie) or 3 (both bad), -1 where the winner is missing; an unknown winner is one line
    naming its row and the accepted values.

    Examples
    --------
    >>> from rankwise.tables.battles import outcome_codes
    >>> outcome_codes(["model_a", "B", "tie (bothbad)", "y", None], ["x"] * 5, ["y"] * 5,
    ...               "log").tolist()
    [0, 1, 3, 1, -1]
    """
    codes, names = factor(winner)
    lower = pd.Series(names, dtype=object).str.lower()
    spelled = np.array(lower.map(WINNERS).to_numpy(dtype=float, na_value=np.nan))
    spelled[(lower == "nan").to_numpy(dtype=bool)] = -1
    spelled = np.append(spelled, -1.0)          # code -1 (missing) reads the last entry
    code = spelled[np.where(codes >= 0, codes, len(names))]
    unknown = np.flatnonzero(np.isnan(code))
    if unknown.size:        # a model's name: compared with the two names of those rows only
        said = names[codes[unknown]]
        code[unknown[said == _text(np.asarray(model_a, dtype=object)[unknown])]] = 0
        code[unknown[said == _text(np.asarray(model_b, dtype=object)[unknown])]] = 1
    bad = np.isnan(code)
    if bad.any():
        first = int(np.flatnonzero(bad)[0])
        raise RankwiseError(f"{where}: {_row(first, rows)} has winner"
                            f" {names[codes[first]]!r}, which is none of {ACCEPTED}"
                            f" ({int(bad.sum())} such rows); correct it or leave it out of"
                            f" the log")
    return code.astype(np.int64)


def named_winners(winner, code) -> int:
    """How many winners are given as a model's name (not one of :data:`WINNERS`)."""
    codes, names = factor(winner)
    spelling = np.append(pd.Series(names, dtype=object).str.lower().isin(WINNERS).to_numpy(),
                         True)
    return int(((code >= 0) & ~spelling[np.where(codes >= 0, codes, len(names))]).sum())


def build(model_a, model_b, code, *, where: str, reader: str, notes: list, weight=None,
          labels=None, features=None, feature_names=(), missing_winner: str = "refuse",
          rows=None) -> Votes:
    """The :class:`Votes` of per-vote arrays (``code`` from :func:`outcome_codes`): empty
    names, a model battling itself and a missing winner are refused in one line naming the
    row (a missing winner left out, counted, under ``missing_winner="drop"``)."""
    if missing_winner not in MISSING_WINNER:
        raise RankwiseError(f"missing_winner must be refuse or drop; got {missing_winner!r}")
    code = np.asarray(code, dtype=np.int64)
    n = len(code)
    weight = np.ones(n) if weight is None else np.asarray(weight, dtype=float)
    if n == 0:
        raise RankwiseError(f"{where}: no votes in the log")
    a_codes, a_names = factor(model_a)
    b_codes, b_names = factor(model_b)
    for side, codes in (("model_a", a_codes), ("model_b", b_codes)):
        empty = codes < 0
        if empty.any():
            first = int(np.flatnonzero(empty)[0])
            raise RankwiseError(f"{where}: {_row(first, rows)} has no {side} name"
                                f" ({int(empty.sum())} such rows); every vote needs the names"
                                f" of both models")
    names, inverse = np.unique(np.concatenate([a_names, b_names]).astype(str),
                               return_inverse=True)
    a = inverse[a_codes].astype(np.int64)
    b = inverse[len(a_names) + b_codes].astype(np.int64)
    itself = a == b
    if itself.any():
        first = int(np.flatnonzero(itself)[0])
        raise RankwiseError(f"{where}: {_row(first, rows)} has model {str(names[a[first]])!r}"
                            f" battling itself ({int(itself.sum())} such rows); a vote compares"
                            f" two different models: correct or remove these rows")
    bad_weight = ~(np.isfinite(weight) & (weight > 0))
    if bad_weight.any():
        first = int(np.flatnonzero(bad_weight)[0])
        raise RankwiseError(f"{where}: {_row(first, rows)} has weight {weight[first]!r};"
                            f" weights must be finite numbers above 0")
    keep = code >= 0
    if not keep.all():
        absent = int((~keep).sum())
        if missing_winner == "refuse":
            first = int(np.flatnonzero(~keep)[0])
            raise RankwiseError(f"{where}: {_row(first, rows)} has no winner ({absent} such"
                                f" rows); give each vote one of {ACCEPTED}, or leave these"
                                f" rows out with missing_winner='drop'")
        notes.append(f"{absent} of {n} rows have no winner and are left out"
                     f" (missing_winner='drop').")
    if not keep.any():
        raise RankwiseError(f"{where}: no vote has a winner")
    a, b, code, weight = a[keep], b[keep], code[keep], weight[keep]
    # a model whose only votes had no winner is not one of the models
    used = np.zeros(len(names), dtype=bool)
    used[a] = used[b] = True
    if not used.all():
        notes.append(f"{int((~used).sum())} models left without votes once the votes without"
                     f" a winner are left out: {', '.join(map(str, names[~used][:5]))}.")
        remap = np.cumsum(used) - 1
        a, b, names = remap[a], remap[b], names[used]
    if len(names) < 2:
        raise RankwiseError(f"{where}: only one model ({str(names[0])!r}); votes compare two or"
                            f" more models")
    out_labels = {name: _sorted_codes(np.asarray(values, dtype=object)[keep])
                  for name, values in (labels or {}).items()}
    if features is not None:
        features = np.asarray(features, dtype=float)[keep]
    bothbad = int((code == 3).sum())
    if bothbad:
        notes.append(f"{bothbad} ties are 'both bad' (tie (bothbad)): counted as ties,"
                     f" their kind kept in tie_kind.")
    return Votes(models=tuple(str(x) for x in names), a=a.astype(np.int64),
                 b=b.astype(np.int64), outcome=np.minimum(code, 2).astype(np.int8),
                 weight=weight, tie_kind=np.where(code >= 2, code - 2, -1).astype(np.int8),
                 labels=out_labels, features=features, feature_names=tuple(feature_names),
                 source=where, reader=reader, notes=tuple(notes))


# --------------------------------------------------------------------------- the long table

def _column(lower: dict, *spellings):
    for s in spellings:
        if s in lower:
            return lower[s]
    return None


def from_frame(frame: pd.DataFrame, *, where: str, reader: str = "votes", notes=None,
               missing_winner: str = "refuse", extra_labels=None, features=None,
               feature_names=()) -> Votes:
    """The votes of a long table (one row per vote) or of the counts layout (one row per
    pair: ``wins_a, wins_b, ties``, optionally ``bothbad``)."""
    notes = list(notes or [])
    lower = {str(c).strip().lower(): c for c in frame.columns}
    found = ", ".join(map(str, list(frame.columns)[:12]))
    if "model_a" not in lower or "model_b" not in lower:
        raise RankwiseError(f"{where}: a vote log needs the columns model_a, model_b and"
                            f" winner (or wins_a, wins_b, ties); its columns are {found}")
    if {"wins_a", "wins_b"} <= set(lower) and "winner" not in lower:
        return _from_counts(frame, lower, where=where, reader=reader, notes=notes)
    if "winner" not in lower:
        raise RankwiseError(f"{where}: a vote log needs the columns model_a, model_b and"
                            f" winner (or wins_a, wins_b, ties); missing winner (its columns"
                            f" are {found})")
    a, b = frame[lower["model_a"]].to_numpy(dtype=object), frame[lower["model_b"]].to_numpy(
        dtype=object)
    code = outcome_codes(frame[lower["winner"]], a, b, where)
    named = named_winners(frame[lower["winner"]], code)
    if named:
        notes.append(f"{named} winners are given as the winning model's name.")
    weight = None
    used = {"model_a", "model_b", "winner"}
    if "weight" in lower:
        weight = pd.to_numeric(frame[lower["weight"]], errors="coerce").to_numpy(dtype=float)
        used.add("weight")
    labels = dict(extra_labels or {})
    for name, spellings in LABELS.items():
        col = _column(lower, *spellings)
        if col is not None and name not in labels:
            labels[name] = frame[col].to_numpy(dtype=object)
            used.add(str(col).strip().lower())
    if features is None:
        features, feature_names, skipped = _numeric_features(frame, lower, used)
        if feature_names:
            notes.append(f"numeric features read: {', '.join(feature_names)}.")
        if skipped:
            notes.append(f"columns not read (not a role, a label or a numeric feature):"
                         f" {', '.join(skipped)}.")
    return build(a, b, code, where=where, reader=reader, notes=notes, weight=weight,
                 labels=labels, features=features, feature_names=feature_names,
                 missing_winner=missing_winner)


def _numeric_features(frame, lower: dict, used: set) -> tuple:
    cols, skipped = [], []
    for name, col in lower.items():
        if name in used:
            continue
        if name in NOT_FEATURES:        # a number such as a time stamp is no feature either
            skipped.append(str(col))
            continue
        series = frame[col]
        if pd.api.types.is_numeric_dtype(series) and not pd.api.types.is_bool_dtype(series):
            cols.append(col)
        else:
            skipped.append(str(col))
    if not cols:
        return None, (), skipped
    matrix = np.column_stack([frame[c].to_numpy(dtype=float, na_value=np.nan) for c in cols])
    return matrix, tuple(str(c) for c in cols), skipped


def _from_counts(frame, lower, *, where, reader, notes) -> Votes:
    roles = [("wins_a", 0), ("wins_b", 1), ("ties", 2), ("bothbad", 3)]
    present = [(lower[c], code) for c, code in roles if c in lower]
    counts = np.column_stack([pd.to_numeric(frame[c], errors="coerce").to_numpy(
        dtype=float, na_value=np.nan) for c, _ in present])
    bad = ~(np.isfinite(counts) & (counts >= 0))
    if bad.any():
        row, col = np.argwhere(bad)[0]
        raise RankwiseError(f"{where}: row {row + 1} has {present[col][0]}"
                            f" {frame[present[col][0]].iloc[row]!r}; counts must be numbers of"
                            f" votes, 0 or more")
    n_pairs = len(frame)
    a = np.repeat(frame[lower["model_a"]].to_numpy(dtype=object), len(present))
    b = np.repeat(frame[lower["model_b"]].to_numpy(dtype=object), len(present))
    code = np.tile([c for _, c in present], n_pairs)
    weight = counts.reshape(-1)
    keep = weight > 0
    notes.append(f"counts layout: {n_pairs} pairs read as {int(keep.sum())} cells of"
                 f" {weight.sum():g} votes (columns {', '.join(str(c) for c, _ in present)}).")
    if not keep.any():
        raise RankwiseError(f"{where}: every count is 0; no votes in the log")
    return build(a[keep], b[keep], code[keep], where=where, reader=reader, notes=notes,
                 weight=weight[keep], rows=np.repeat(np.arange(n_pairs), len(present))[keep])


def read_table(path: Path, sep=None) -> pd.DataFrame:
    """A CSV/TSV/Parquet/JSON/JSON-lines file as a frame (one line when it cannot be read)."""
    suffix = path.suffix.lower()
    with reading(path, "a vote log"):
        if suffix == ".parquet":
            return pd.read_parquet(path)
        if suffix in (".jsonl", ".json"):
            import json

            text = path.read_text(encoding="utf-8")
            if suffix == ".json" and text.lstrip().startswith("["):
                return pd.DataFrame(json.loads(text))
            records = []
            for number, line in enumerate(text.splitlines(), 1):
                if line.strip():
                    try:
                        records.append(json.loads(line))
                    except json.JSONDecodeError as exc:
                        raise RankwiseError(f"{path}, line {number}: not JSON ({exc.msg}); a"
                                            f" JSON-lines vote log has one object per"
                                            f" line") from None
            return pd.DataFrame(records)
        from .delimited import read_delimited

        return read_delimited(path, sep=sep, text="infer")
