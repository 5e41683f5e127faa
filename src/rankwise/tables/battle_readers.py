"""The readers of the vote logs other tools write (FastChat/LMArena battles, MT-Bench
judgments, arena-hard-auto judgments), each turned into :class:`rankwise.tables.battles.Votes`
with what it read, mapped or left out said in ``notes``; and :func:`read_votes`, the one entry
point of every vote log."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import RankwiseError
from . import registry
from .battles import Votes, build, from_frame, outcome_codes, read_table
from .guard import reading
from .frames import as_pandas

#: arena-human-preference-55k's one-hot winner columns and the outcome each means.
ONE_HOT = (("winner_model_a", 0), ("winner_model_b", 1), ("winner_tie", 2))
#: MT-Bench pairwise judgments: a judgment that failed to parse (FastChat leaves it out).
MT_ERROR = "error"
#: The ways of reading MT-Bench's two orders of a pair (see :func:`rankwise.read_votes`).
PAIRS = ("agree", "each")
#: arena-hard-auto's verdicts: label -> (outcome for assistant A and B as shown, strong?).
VERDICTS = {"A>B": (0, False), "A>>B": (0, True), "B<A": (0, False), "B<<A": (0, True),
            "B>A": (1, False), "B>>A": (1, True), "A<B": (1, False), "A<<B": (1, True),
            "A=B": (2, False), "B=A": (2, False)}
#: arena-hard-auto's baselines (utils/judge_utils.py ``JUDGE_SETTINGS``) by category; a file
#: of v0.1 has no category and its baseline was gpt-4-0314 (show_result.py of v0.1).
ARENA_HARD_BASELINES = {"hard_prompt": "o3-mini-2025-01-31", "coding": "o3-mini-2025-01-31",
                        "math": "o3-mini-2025-01-31", "creative_writing": "gemini-2.0-flash-001",
                        "arena-hard-v0.1": "gpt-4-0314"}
ARENA_HARD_V01_BASELINE = "gpt-4-0314"


def read_frame(frame: pd.DataFrame, kind: str, *, where: str, missing_winner: str,
               pairs: str = "agree") -> Votes:
    """The votes of a frame read by the reader ``kind`` (``votes``, ``arena``, ``mt-bench``)."""
    if kind == "arena-hard":
        raise RankwiseError(f"{where}: arena-hard judgments are read from their files"
                            f" (model_judgment/<judge>/<model>.jsonl), not from a frame")
    lower = {str(c).strip().lower() for c in frame.columns}
    if kind == "mt-bench" and {"model_1", "model_2", "g1_winner"} <= lower:
        return mt_bench_pairs(frame, where=where, missing_winner=missing_winner, pairs=pairs)
    if kind == "arena":
        return arena(frame, where=where, missing_winner=missing_winner)
    notes = [f"read as {'MT-Bench human judgments' if kind == 'mt-bench' else 'a vote log'}:"
             f" {len(frame)} rows."]
    return from_frame(frame, where=where, reader=kind, notes=notes,
                      missing_winner=missing_winner)


# --------------------------------------------------------------------------- arena

def _feature_value(value) -> float:
    """A conv_metadata entry as one number: a count per kind (``{"h1": 2, "h2": 0}``) summed,
    as FastChat's style control sums it; anything else not a number is NaN."""
    if isinstance(value, dict):
        parts = [v for v in value.values() if isinstance(v, (int, float))
                 and not isinstance(v, bool)]
        return float(sum(parts)) if parts else np.nan
    if isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool):
        return float(value)
    return np.nan


def _metadata_features(column) -> tuple:
    """The features of a ``conv_metadata`` column (dicts, or JSON text): one per key, in the
    order the first battle lists them."""
    records = [json.loads(m) if isinstance(m, str) else m for m in column]
    records = [m if isinstance(m, dict) else {} for m in records]
    names = list(dict.fromkeys(k for m in records for k in m))
    if not names:
        return None, ()
    matrix = np.array([[_feature_value(m.get(k)) for k in names] for m in records],
                      dtype=float).reshape(len(records), len(names))
    return matrix, tuple(names)


def arena(frame: pd.DataFrame, *, where: str, missing_winner: str) -> Votes:
    """FastChat/LMArena battles: clean_battle_data's records, chatbot_arena_conversations,
    arena-human-preference (``winner`` or one-hot ``winner_model_a/b/tie``)."""
    lower = {str(c).strip().lower(): c for c in frame.columns}
    notes = [f"read as LMArena battles: {len(frame)} rows."]
    if "winner" not in lower and all(c in lower for c, _ in ONE_HOT):
        hot = np.column_stack([pd.to_numeric(frame[lower[c]], errors="coerce").to_numpy(
            dtype=float, na_value=np.nan) for c, _ in ONE_HOT])
        bad = ~(np.nansum(hot == 1, axis=1) == 1) | np.isnan(hot).any(axis=1)
        if bad.any():
            row = int(np.flatnonzero(bad)[0])
            raise RankwiseError(f"{where}: row {row + 1} has winner_model_a, winner_model_b,"
                                f" winner_tie = {hot[row].tolist()}; exactly one of them must be"
                                f" 1 ({int(bad.sum())} such rows)")
        frame = frame.assign(winner=np.array(["model_a", "model_b", "tie"])[hot.argmax(axis=1)])
        frame = frame.drop(columns=[lower[c] for c, _ in ONE_HOT])
        notes.append("winner from the columns winner_model_a, winner_model_b, winner_tie"
                     " (arena-human-preference).")
    features, names = None, ()
    if "conv_metadata" in lower:
        features, names = _metadata_features(frame[lower["conv_metadata"]])
        frame = frame.drop(columns=[lower["conv_metadata"]])
        if names:
            notes.append(f"features from conv_metadata (a count per kind summed):"
                         f" {', '.join(names)}.")
    if "anony" in lower:
        named = int((~frame[lower["anony"]].astype(bool)).sum())
        if named:
            notes.append(f"{named} battles are not anonymous (anony false): read, labelled"
                         f" 'anony' (a leaderboard counts only the anonymous ones, as"
                         f" FastChat's does, unless told otherwise).")
    return from_frame(frame, where=where, reader="arena", notes=notes,
                      missing_winner=missing_winner, features=features, feature_names=names)


# --------------------------------------------------------------------------- MT-Bench

def mt_bench_pairs(frame: pd.DataFrame, *, where: str, missing_winner: str,
                   pairs: str) -> Votes:
    """MT-Bench pairwise judgments: each pair judged twice (``g1``: model_1 shown first;
    ``g2``: the order swapped, its winner written back in model_1/model_2 terms)."""
    if pairs not in PAIRS:
        raise RankwiseError(f"pairs must be agree or each; got {pairs!r}")
    lower = {str(c).strip().lower(): c for c in frame.columns}
    absent = [c for c in ("model_1", "model_2", "g1_winner", "g2_winner") if c not in lower]
    if absent:
        raise RankwiseError(f"{where}: MT-Bench pairwise judgments need the columns model_1,"
                            f" model_2, g1_winner, g2_winner; missing {', '.join(absent)}")
    m1, m2 = frame[lower["model_1"]], frame[lower["model_2"]]
    spell = {"model_1": "model_a", "model_2": "model_b"}
    g1 = frame[lower["g1_winner"]].astype(object).map(lambda w: spell.get(w, w))
    g2 = frame[lower["g2_winner"]].astype(object).map(lambda w: spell.get(w, w))
    error = (g1 == MT_ERROR).to_numpy() | (g2 == MT_ERROR).to_numpy()
    notes = [f"read as MT-Bench pairwise judgments: {len(frame)} rows."]
    if error.any():
        notes.append(f"{int(error.sum())} judgments with an 'error' verdict left out, as"
                     f" FastChat's show_result.py leaves them out.")
    keep = ~error
    rows = np.flatnonzero(keep)
    c1 = outcome_codes(g1[keep], m1[keep].to_numpy(), m2[keep].to_numpy(), where, rows)
    c2 = outcome_codes(g2[keep], m1[keep].to_numpy(), m2[keep].to_numpy(), where, rows)
    labels = {name: frame[lower[col]][keep].map(_label).to_numpy(dtype=object)
              for name, col in (("judge", "judge"), ("prompt", "question_id"), ("turn", "turn"))
              if col in lower}
    if pairs == "agree":
        # show_result.py: a tie unless both orders name the same winner (g1 a tie is a tie)
        code = np.where((c1 == c2) & (c1 != 2), c1, 2)
        code = np.where((c1 < 0) | (c2 < 0), -1, code)
        split = int(((c1 != c2) & (c1 >= 0) & (c2 >= 0)).sum())
        notes.append(f"each pair is one vote, FastChat's rule (show_result.py): a win when both"
                     f" orders name the same winner, else a tie ({split} pairs split by the"
                     f" order, counted as ties).")
        return build(m1[keep].to_numpy(), m2[keep].to_numpy(), code, where=where,
                     reader="mt-bench", notes=notes, labels=labels,
                     missing_winner=missing_winner, rows=rows)
    # each order its own vote: g2 showed model_2 first, so its pair is (model_2, model_1)
    flip = np.array([1, 0, 2, 3])
    code = np.concatenate([c1, np.where(c2 >= 0, flip[np.maximum(c2, 0)], -1)])
    notes.append("each order of a pair is a vote of its own (pairs='each'); the second"
                 " with model_2 shown first.")
    both = {k: np.concatenate([v, v]) for k, v in labels.items()}
    return build(np.concatenate([m1[keep].to_numpy(), m2[keep].to_numpy()]),
                 np.concatenate([m2[keep].to_numpy(), m1[keep].to_numpy()]), code,
                 where=where, reader="mt-bench", notes=notes, labels=both,
                 missing_winner=missing_winner, rows=np.concatenate([rows, rows]))


def _label(value):
    """A label cell as text: MT-Bench's judge ``["gpt-4", "pair-v2"]`` joined by '/'."""
    if isinstance(value, (list, tuple, np.ndarray)):
        return "/".join(str(v) for v in value)
    return value


# --------------------------------------------------------------------------- arena-hard

def judgment_files(path: Path) -> list:
    """The judgment files of arena-hard-auto under ``path`` (a file, a judge's folder, or
    model_judgment with a folder per judge), sorted."""
    if path.is_file():
        return [path]
    files = sorted(p for p in path.rglob("*.jsonl") if p.is_file())
    if not files:
        raise RankwiseError(f"{path}: no judgment files (*.jsonl) in this folder; arena-hard-auto"
                            f" writes model_judgment/<judge>/<model>.jsonl")
    return files


def _records(p: Path) -> list:
    out = []
    with reading(p, "arena-hard-auto judgments"):
        for number, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip():
                try:
                    out.append((number, json.loads(line)))
                except json.JSONDecodeError as exc:
                    raise RankwiseError(f"{p}, line {number}: not JSON ({exc.msg})") from None
    return out


def arena_hard(path: Path, *, baseline, weight: float, first_game_only: bool,
               missing_winner: str) -> Votes:
    """arena-hard-auto's judgments as votes, following its show_result.py: in game 1 the
    baseline is assistant A and the judged model B, in game 2 the reverse; a strong verdict
    (``>>``) counts ``weight`` votes; a judgment with a game without a verdict is left out
    whole (counted)."""
    if not (np.isfinite(weight) and weight > 0):
        raise RankwiseError(f"strong_weight must be a number above 0; got {weight!r}")
    files = judgment_files(path)
    a, b, code, w, judge, prompt, category = [], [], [], [], [], [], []
    null, defaulted, stripped = 0, {}, 0
    for p in files:
        for number, rec in _records(p):
            games = rec.get("games") if isinstance(rec, dict) else None
            if "model" not in rec or not isinstance(games, list) or len(games) < 1:
                raise RankwiseError(f"{p}, line {number}: no 'model' and 'games'; not an"
                                    f" arena-hard-auto judgment")
            used = games[:1] if first_game_only else games[:2]
            scores = [g.get("score") if isinstance(g, dict) else None for g in used]
            if len(used) < (1 if first_game_only else 2) or any(s is None for s in scores):
                null += 1
                continue
            model = str(rec["model"]).split("/")[-1]
            stripped += model != str(rec["model"])
            cat = rec.get("category")
            base = baseline or rec.get("baseline") or ARENA_HARD_BASELINES.get(
                cat, ARENA_HARD_V01_BASELINE)
            if baseline is None and rec.get("baseline") is None:
                defaulted[base] = defaulted.get(base, 0) + 1
            for game, score in enumerate(scores):
                if score not in VERDICTS:
                    raise RankwiseError(f"{p}, line {number}: game {game + 1} has verdict"
                                        f" {score!r}, none of {', '.join(VERDICTS)}")
                outcome, strong = VERDICTS[score]
                first, second = (base, model) if game == 0 else (model, base)
                a.append(first)
                b.append(second)
                code.append(outcome)
                w.append(weight if strong else 1.0)
                judge.append(rec.get("judge") or p.parent.name)
                prompt.append(rec.get("uid", rec.get("question_id")))
                category.append(cat)
    notes = [f"read as arena-hard-auto judgments: {len(files)} files, {len(a)} games; the"
             f" baseline is assistant A in game 1 and B in game 2 (show_result.py)."]
    notes.append(f"a strong verdict (A>>B, B>>A) counts as {weight:g} votes"
                 f" (show_result.py's WEIGHT is 3; set strong_weight).")
    for base, count in sorted(defaulted.items()):
        notes.append(f"baseline {base!r} assumed for {count} judgments (arena-hard-auto's"
                     f" baseline of their category; give baseline= if it was another).")
    if null:
        notes.append(f"{null} judgments with a game without a verdict left out whole, as"
                     f" show_result.py leaves them out.")
    if stripped:
        notes.append(f"{stripped} model names given as paths: their last part kept, as"
                     f" show_result.py does.")
    if first_game_only:
        notes.append("only the first game of each judgment read (first_game_only).")
    if not a:
        raise RankwiseError(f"{path}: no judgment with a verdict in its games")
    labels = {"judge": np.array(judge, dtype=object), "prompt": np.array(prompt, dtype=object)}
    if any(c is not None for c in category):
        labels["category"] = np.array(category, dtype=object)
    return build(np.array(a, dtype=object), np.array(b, dtype=object), np.array(code),
                 where=str(path), reader="arena-hard", notes=notes, weight=np.array(w),
                 labels=labels, missing_winner=missing_winner)


# --------------------------------------------------------------------------- the entry point

def read_votes(data, *, source: str = "auto", missing_winner: str = "refuse",
               baseline: str | None = None, strong_weight: float = 3.0,
               first_game_only: bool = False, pairs: str = "agree",
               sep: str | None = None) -> Votes:
    """Read a log of pairwise votes (arena battles, judge verdicts) into :class:`Votes`.

    Each vote is reduced to the models ``a`` and ``b`` (as shown) and an outcome: 0 = ``a``
    wins, 1 = ``b`` wins, 2 = tie (``tie`` and ``tie (bothbad)`` both; the kind is kept).
    These are the Bradley-Terry model's data: :math:`P(a \\succ b) = 1 / (1 + e^{-(\\theta_a -
    \\theta_b)})`, a tie counted as half a win to each (:meth:`Votes.win_matrix`).

    Parameters
    ----------
    data : path or pandas.DataFrame
        A file, a folder (arena-hard-auto's ``model_judgment``), or a frame of votes.
    source : {"auto", "arena", "mt-bench", "arena-hard", "votes"}
        Which layout; ``auto`` tells them apart by the file's name, content or header.
        ``votes``: ``model_a, model_b, winner`` (``model_a``/``model_b``/``tie``/``tie
        (bothbad)``, ``a``/``b``/``both_bad``, or the winning model's name) with optional
        ``judge``, ``question_id``/``prompt``, ``category``, ``turn``, ``language``,
        ``weight`` and numeric features; or ``model_a, model_b, wins_a, wins_b, ties``.
        ``arena``: FastChat's clean battles (JSON), ``chatbot_arena_conversations`` or
        ``arena-human-preference`` Parquet (``winner_model_a``/``winner_model_b``/
        ``winner_tie``); ``conv_metadata`` becomes the features (a count per kind, as
        ``{"h1": 2, "h2": 1}``, summed as FastChat's style control sums it).
        ``mt-bench``: ``gpt-4_pair.jsonl`` or the human judgments.
        ``arena-hard``: judgment files with ``games`` verdicts ``A>>B`` ... ``B>>A``.
    missing_winner : {"refuse", "drop"}
        A vote without a winner is refused in one line naming it, or left out and counted.
    baseline : str, optional
        arena-hard: the model every judged model was compared with (its files do not name
        it). Default: arena-hard-auto's own baseline of each category (``gpt-4-0314`` for
        v0.1's files, which have no category), said in the notes.
    strong_weight : float
        arena-hard: a strong verdict (``A>>B``) counts as this many votes, as arena-hard-auto's
        ``show_result.py`` counts it (its ``WEIGHT``, 3); 1 counts it as one vote.
    first_game_only : bool
        arena-hard: read only the first game of each judgment (the baseline shown first).
    pairs : {"agree", "each"}
        mt-bench pairwise judgments (each pair judged in both orders): ``agree`` follows
        FastChat's ``show_result.py``: a win when both orders name the same winner, else a
        tie; ``each`` counts each order as a vote of its own.
    sep : str, optional
        A text table's separator (sniffed when not given).

    Returns
    -------
    Votes

    References
    ----------
    Zheng, L. et al. (2023). Judging LLM-as-a-judge with MT-Bench and Chatbot Arena.
    NeurIPS Datasets and Benchmarks. Chiang, W.-L. et al. (2024). Chatbot Arena: an open
    platform for evaluating LLMs by human preference. ICML. Li, T. et al. (2024). From
    crowdsourced data to high-quality benchmarks: Arena-Hard and BenchBuilder pipeline.
    arXiv:2406.11939.

    Examples
    --------
    >>> import pandas as pd
    >>> from rankwise import read_votes
    >>> v = read_votes(pd.DataFrame({"model_a": ["x", "y"], "model_b": ["y", "z"],
    ...                              "wins_a": [3, 1], "wins_b": [1, 0], "ties": [0, 2]}))
    >>> v.models, v.total_weight
    (('x', 'y', 'z'), 7.0)
    >>> [c.tolist() for c in v.cells()]
    [[0, 0, 1, 1], [1, 1, 2, 2], [0, 1, 0, 2], [3.0, 1.0, 1.0, 2.0]]
    """
    registry.check(source, "votes")
    data = as_pandas(data)
    if isinstance(data, pd.DataFrame):
        kind = source if source != "auto" else (
            registry.which("votes", columns=list(data.columns), by=("header",)) or "votes")
        return read_frame(data, kind, where="DataFrame",
                                         missing_winner=missing_winner, pairs=pairs)
    path = Path(data)
    if not path.exists():
        raise RankwiseError(f"{path}: no such file or folder")
    kind = source if source != "auto" else registry.vote_kind(path)
    if kind == "arena-hard":
        return arena_hard(path, baseline=baseline, weight=strong_weight,
                                         first_game_only=first_game_only,
                                         missing_winner=missing_winner)
    if path.is_dir():
        raise RankwiseError(f"{path}: a folder; give the vote log's file (a folder is read"
                            f" only as arena-hard-auto's model_judgment)")
    frame = read_table(path, sep)
    return read_frame(frame, kind, where=str(path), missing_winner=missing_winner,
                                     pairs=pairs)
