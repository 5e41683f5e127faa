"""A leaderboard of a log of pairwise votes (arena battles, judge verdicts): the same board as a
score table's (:mod:`rankwise.analysis.leaderboard`), read the same way, from other evidence.

- ``elo``: Bradley–Terry maximum likelihood on the votes (:func:`rankwise.stats.battles.fit`),
  scale 400, base 10, mean 1000 (or ``anchor`` at 1000); a tie is half a win to each side
  (``ties="half"``, FastChat's and LMArena's convention), or a tie of Davidson's or
  Rao–Kupper's model (named);
- ``elo_low``, ``elo_high``: the quantiles of the bootstrap ratings
  (:func:`rankwise.stats.battles.bootstrap`): over the votes (a multinomial on the unique
  pair-outcome counts, LMArena's bootstrap), or over prompts when prompts repeat (``auto``:
  votes on one prompt are not independent, and a bootstrap over votes is then too narrow);
- ``rank_low``, ``rank_high``: the simultaneous rank confidence set of each model, from the
  same draws (:func:`rankwise.analysis.board_common.rank_sets`); tied with #1 = its set
  holds place 1, as on every board;
- ``winrate``: the share of its votes a model won (a tie half), ``votes``: the weight of the
  votes it took part in, ``ties``: the share of those that were ties;
- ``style_elo``, ``style_rank_change``: with ``style``, the ratings controlled for the
  named features (LMArena's style control, :func:`rankwise.stats.battle_styles.style_fit`)
  and the places each model gains (+) or loses (−) under control;
- the matrix: P(row beats column) under the fit, with its bootstrap interval (JSON);
- the vote check: the fewest votes found whose removal changes #1, confirmed by a refit
  (:func:`rankwise.stats.vote_flip.fewest_votes_to_flip`; Huang, Shen, Wei & Broderick 2025).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..errors import RankwiseError
from ..stats import battles as bs
from ..stats.threads import one_blas_thread
from .board_common import quantiles, rank_sets, separation
from .board_result import FIGURE_MOST, FIGURES, Board, Leaderboard

#: ``bootstrap_over``: what a bootstrap round resamples.
OVER = ("auto", "battles", "prompts")
#: The style features LMArena controls for, when the log has them (FastChat's names).
STYLE_AUTO = "auto"


def _prompts(votes) -> np.ndarray | None:
    """The prompt code of every vote, or None when some vote has none."""
    if "prompt" not in votes.labels:
        return None
    codes = votes.labels["prompt"][0]
    return None if (codes < 0).any() else codes


def _over(over: str, prompts) -> tuple:
    """``(over used, why)``."""
    repeat = prompts is not None and np.bincount(prompts).max(initial=0) > 1
    if over == "auto":
        if repeat:
            return "prompts", "prompts repeat, and votes on one prompt are not independent"
        return "battles", ("no prompt repeats" if prompts is not None else
                           "the log names no prompt")
    if over == "prompts" and prompts is None:
        raise RankwiseError("--bootstrap-over prompts needs a prompt id for every vote (a"
                            " question_id or prompt column); use --bootstrap-over battles")
    return over, "as asked"


def _feature_pairs(names) -> dict:
    """``{feature: (column of a, column of b)}``: the columns whose names differ in one word,
    ``a`` against ``b`` (``len_a``/``len_b``; FastChat's ``sum_assistant_a_tokens``), named
    without it."""
    out = {}
    for name in names:
        words = name.split("_")
        for i, word in enumerate(words):
            other = "_".join(words[:i] + ["b"] + words[i + 1:])
            if word == "a" and other in names:
                out["_".join(words[:i] + words[i + 1:])] = (name, other)
    return dict(sorted(out.items()))


def _style_columns(votes, style) -> tuple:
    """``(names, features_a, features_b)`` of the style features asked (``auto``: every pair
    ``X_a``/``X_b`` of the log's features)."""
    names = list(votes.feature_names)
    pairs = _feature_pairs(names)
    if style == STYLE_AUTO:
        chosen = list(pairs)
    else:
        chosen = [s.strip() for s in style] if not isinstance(style, str) else \
            [s.strip() for s in style.split(",") if s.strip()]
        unknown = [s for s in chosen if s not in pairs]
        if unknown:
            raise RankwiseError(f"--style {unknown[0]!r}: not a feature of the votes; they have"
                                f" {', '.join(pairs) or 'none (a feature is a pair of columns'}"
                                + ("" if pairs else " X_a, X_b)"))
    if not chosen:
        raise RankwiseError("--style: the votes have no style features (a feature is a pair of"
                            " numeric columns X_a, X_b, or FastChat's conv_metadata)")
    f = votes.features
    fa = np.column_stack([f[:, names.index(pairs[n][0])] for n in chosen])
    fb = np.column_stack([f[:, names.index(pairs[n][1])] for n in chosen])
    if not (np.isfinite(fa).all() and np.isfinite(fb).all()):
        raise RankwiseError(f"--style: some votes lack a value of {', '.join(chosen)}; style"
                            " control needs every vote's features")
    return chosen, fa, fb


def vote_board(votes, *, anchor=None, draws: int, seed: int, confidence: float,
               ties: str = "half", over: str = "auto", style=None, vote_check: bool = True,
               subset=None) -> Board:
    """The board of one log of votes (the module docstring)."""
    k_all = len(votes.models)
    took_part = (np.bincount(votes.a, minlength=k_all) + np.bincount(votes.b, minlength=k_all)) > 0
    names = tuple(m for m, t in zip(votes.models, took_part) if t)
    where = f"subset {subset!r}" if subset else "the log"
    if len(names) < 2:
        raise RankwiseError(f"a leaderboard needs votes between at least two models; {where}"
                            f" has {len(names)}")
    index = np.cumsum(took_part) - 1            # old model index -> index among those voting
    a, b = index[votes.a], index[votes.b]
    k = len(names)
    if anchor is not None and anchor not in names:
        raise RankwiseError(f"--anchor {anchor!r} is not a model of {where}; its models are"
                            f" {', '.join(names[:8])}" + (", ..." if k > 8 else ""))
    at = None if anchor is None else names.index(anchor)
    c = bs.cells(a, b, votes.outcome, votes.weight, k)
    prompts = _prompts(votes)
    used, why = _over(over, prompts)
    with one_blas_thread():
        fitted = bs.fit(c, k, ties=ties, anchor=at)
        draws_elo = bs.bootstrap(c, k, rounds=draws, seed=seed, ties=ties, over=used,
                                 prompt=prompts, anchor=at)
    point = fitted.elo
    lo, hi = quantiles(draws_elo, confidence)
    cols = {"elo": point, "elo_low": np.minimum(lo, point), "elo_high": np.maximum(hi, point)}
    low, high = rank_sets(point, draws_elo, list(names), confidence, seed)
    cols["rank_low"], cols["rank_high"] = low.astype(float), high.astype(float)
    w = votes.weight
    tie = votes.outcome == 2
    kept = np.ix_(took_part, took_part)
    half, decided = votes.win_matrix()[kept], votes.win_matrix(tie=0.0)[kept]
    played = (half + half.T).sum(axis=1)
    cols["winrate"] = half.sum(axis=1) / played          # a tie half a win
    cols["votes"] = played
    cols["ties"] = 2.0 * (half - decided).sum(axis=1) / played
    style_said = None
    if style:
        chosen, fa, fb = _style_columns(votes, style)
        from ..stats.battle_styles import style_fit

        with one_blas_thread():
            sf = style_fit((a, b, votes.outcome), fa, fb, weight=w, k=k, anchor=at)
        cols["style_elo"], cols["style_rank_change"] = sf.elo, sf.rank_change.astype(float)
        style_said = {"features": chosen, "beta": dict(zip(chosen, map(float, sf.beta))),
                      "normalisation": "(f_a - f_b) / (f_a + f_b + 1), standardised"
                                       " (LMArena's style control)"}
    order = np.lexsort((np.arange(k), -point))
    probability = bs.win_probability(point, draws_elo, confidence)
    check = None
    if vote_check:
        from ..stats.vote_flip import fewest_votes_to_flip

        with one_blas_thread():
            flip = fewest_votes_to_flip(c.a, c.b, c.outcome, c.n, k)
        check = {"claim": f"#1 = {names[flip.first]} ahead of {names[flip.challenger]}",
                 "first": names[flip.first], "challenger": names[flip.challenger],
                 "found": bool(flip.found), "votes": int(flip.votes), "of": float(c.n.sum()),
                 "share": float(flip.share), "confirmed": bool(flip.confirmed),
                 "exact": bool(flip.exact), "lower": int(flip.lower),
                 "minimal": bool(flip.minimal), "method": flip.method,
                 "elo_after": [float(x) for x in flip.elo_after]}
    ordered = {name: np.asarray(v, dtype=float)[order] for name, v in cols.items()}
    learners = tuple(names[j] for j in order)
    tied = tuple(n for n, r in zip(learners, ordered["rank_low"]) if r == 1)
    n_prompts = 0 if prompts is None else int(len(np.unique(prompts)))
    evidence = {"votes": float(w.sum()), "rows": int(len(a)),
                "ties": float(w[tie].sum()),
                "both_bad": float(w[votes.tie_kind == 1].sum()), "prompts": n_prompts,
                "bootstrap_over": used, "bootstrap_why": why, "ties_model": ties,
                "tie_parameter": None if np.isnan(fitted.tie) else float(fitted.tie),
                "win_probability_low": probability.lower[np.ix_(order, order)],
                "win_probability_high": probability.upper[np.ix_(order, order)],
                "vote_check": check, "style": style_said}
    notes = [fitted.note] if fitted.note else []
    left = [m for m, t in zip(votes.models, took_part) if not t]
    if left:
        notes.append(f"{len(left)} model(s) with no vote in {where} left off the board:"
                     f" {', '.join(left[:5])}" + (" ..." if len(left) > 5 else ""))
    board = Board(subset, learners, ordered, fitted.bound[order], n_prompts, int(len(a)), True,
                  tied, (), {"test": None, "note": "votes: no Friedman test (no data sets)"},
                  probability.p[np.ix_(order, order)], tuple(notes), (), "elo",
                  votes=evidence)
    return replace(board, sentences=tuple(_sentences(board, confidence)))


def _sentences(board, confidence) -> list:
    c, ev = board.columns, board.votes
    level = f"{confidence:.0%}"
    first = board.learners[0]
    mark = {1: "≥ ", 2: "≥ ", -1: "≤ "}.get(int(board.bound[0]), "")
    s = [f"#1 by Elo: {first} ({mark}{c['elo'][0]:.1f} [{c['elo_low'][0]:.1f},"
         f" {c['elo_high'][0]:.1f}])."]
    others = [n for n in board.tied_with_first if n != first]
    over = "prompts" if ev["bootstrap_over"] == "prompts" else "votes"
    if others:
        s.append(f"Statistically tied with #1 at {level} (simultaneous rank confidence sets"
                 f" from the bootstrap over {over}): {', '.join(others[:8])}"
                 + (f" and {len(others) - 8} more" if len(others) > 8 else "")
                 + "; the order among them is not established.")
    else:
        s.append(f"No other model is tied with #1 at {level} (simultaneous rank confidence"
                 f" sets from the bootstrap over {over}).")
    s = separation(board, "vote", "models") + s   # the caution first, as on every board
    check = ev["vote_check"]
    if check is not None:
        if check["found"]:
            s.append(f"How many votes decide #1: removing {check['votes']:,} of"
                     f" {check['of']:,.0f} votes ({check['share']:.3%}) puts"
                     f" {check['challenger']} at or above {check['first']}"
                     + (" (a refit confirms it; " if check["confirmed"] else " (")
                     + ("the fewest possible)." if check["exact"] else
                        "the fewest found, an upper bound on the fewest).")
                     + (" #1 rests on a handful of votes." if check["share"] < 0.001 else ""))
        else:
            s.append("How many votes decide #1: no removal that changes #1 was found within"
                     " the search's budget.")
    if ev["style"] is not None:
        moved = [(n, int(v)) for n, v in zip(board.learners, c["style_rank_change"]) if v]
        feats = ", ".join(ev["style"]["features"])
        s.append(f"With style control ({feats}): " + (
            "; ".join(f"{n} {v:+d}" for n, v in moved[:6])
            + (f" and {len(moved) - 6} more" if len(moved) > 6 else "")
            + " place(s) (+ climbs under control)." if moved else
            "no model changes place."))
    if ev["bootstrap_over"] == "battles" and ev["bootstrap_why"] == "as asked" \
            and ev["prompts"] and ev["prompts"] < ev["rows"]:
        s.append("The votes share prompts but the bootstrap resamples votes, as LMArena's"
                 " does: the intervals and rank sets may be too narrow (--bootstrap-over"
                 " prompts resamples prompts).")
    return s


def _where(votes, where):
    """The votes whose labels have the values ``where`` asks (and the anonymous battles only
    where the log marks them and ``where`` does not name ``anony``)."""
    from ..tables.read import parse_where

    asked = parse_where(where)
    if "anony" in votes.labels and "anony" not in asked:
        values = votes.labels["anony"][1]
        if len(values) > 1 and "True" in values:
            asked["anony"] = ["True"]
            votes = replace(votes, notes=votes.notes + (
                "Only the anonymous battles are counted, as FastChat's leaderboard counts them"
                " (--where 'anony=True|False' counts every battle).",))
    for label, values in asked.items():
        key = {"question_id": "prompt"}.get(label.lower(), label.lower())
        if key not in votes.labels:
            raise RankwiseError(f"--where {label}=...: the votes have no such label; they have"
                                f" {', '.join(votes.labels) or 'none'}")
        text = votes.label(key).astype(str)
        unknown = [v for v in values if v not in set(votes.labels[key][1])]
        if unknown:
            raise RankwiseError(f"--where {label}={unknown[0]}: no vote has it; its values are"
                                f" {', '.join(votes.labels[key][1][:8])}")
        votes = votes.select(np.isin(text, values), f"{key} = {' or '.join(values)}")
    return votes


def vote_leaderboard(votes, *, anchor=None, draws: int, seed: int, confidence: float,
                     alpha: float = 0.05, by: str | None = None, ties: str = "half",
                     over: str = "auto", style=None, vote_check: bool = True,
                     figure_top: int = FIGURE_MOST, where=None) -> Leaderboard:
    """The leaderboard of a log of votes, and one per value of the label ``by`` (a judge, a
    category, a language: :attr:`rankwise.Votes.labels`); ``where`` keeps the votes whose
    labels have the values given (``{"judge": ["gpt-4"]}`` or ``"judge=gpt-4"``). A log that
    marks anonymous battles (``anony``) is read as FastChat's leaderboard reads it, the
    anonymous ones only, unless ``where`` names ``anony``; said in the notes.

    Elo is the Bradley–Terry maximum-likelihood rating, P(i beats j) = 1 / (1 +
    10^((Elo_j − Elo_i)/400)), mean 1000 (or ``anchor`` at 1000); the board's columns are
    those of the module docstring. :func:`rankwise.leaderboard` calls it for a vote log.

    Parameters
    ----------
    votes : Votes
    anchor : str, optional
    draws, seed : int
        Bootstrap rounds and their seed.
    confidence : float
        Level of the intervals and the rank sets.
    alpha : float
        Echoed in the settings (a log of votes has no Friedman test).
    by : str, optional
        A label of the votes: one more board per value.
    ties : {"half", "davidson", "rao-kupper"}
    over : {"auto", "battles", "prompts"}
    style : str or list of str, optional
        Style features to control for, or ``"auto"``.
    vote_check : bool
        Search for the fewest votes that change #1.
    figure_top : int
    where : str or dict, optional

    Returns
    -------
    Leaderboard

    References
    ----------
    Chiang, W.-L. et al. (2024). Chatbot Arena: an open platform for evaluating LLMs by human
    preference. ICML. Huang, J. Y., Shen, Y., Wei, D. & Broderick, T. (2025). Dropping just a
    handful of preferences can change top large language model rankings. arXiv:2508.11847.

    Examples
    --------
    >>> from rankwise import load_votes_example
    >>> from rankwise.analysis.vote_board import vote_leaderboard
    >>> votes = load_votes_example("arena")
    >>> lb = vote_leaderboard(votes, draws=20, seed=0, confidence=0.95, vote_check=False)
    >>> lb.board.learners[0], lb.settings["bootstrap"]["over"]
    ('orca', 'prompts')
    """
    from .. import _validate as check

    check.choice("ties", ties, bs.TIES)
    check.choice("bootstrap_over", over, OVER)
    votes = _where(votes, where)
    parts = [(None, votes)]
    if by is not None:
        label = {"question_id": "prompt"}.get(by.lower(), by.lower())
        if label not in votes.labels:
            raise RankwiseError(f"--by {by!r}: the votes have no such label; they have"
                                f" {', '.join(votes.labels) or 'none'}")
        codes, values = votes.labels[label]
        parts += [(str(v), votes.select(codes == j, f"{label} = {v}"))
                  for j, v in enumerate(values)]
    boards = tuple(vote_board(v, anchor=anchor, draws=draws, seed=seed, confidence=confidence,
                              ties=ties, over=over, style=style, vote_check=vote_check,
                              subset=name) for name, v in parts)
    ev = boards[0].votes
    settings = {"elo": {"model": "Bradley-Terry maximum likelihood on votes", "ties": ties,
                        "scale": bs.SCALE, "base": bs.BASE, "initial": bs.INITIAL,
                        "anchor": anchor,
                        "battles": "one per vote, its weight; " + {
                            "half": "a tie half a win to each side",
                            "davidson": "a tie of Davidson's model",
                            "rao-kupper": "a tie of Rao and Kupper's model"}[ties]},
                "bootstrap": {"over": ev["bootstrap_over"], "draws": draws, "seed": seed,
                              "confidence": float(confidence)},
                "alpha": alpha, "by": by, "order": "elo", "figure_top": figure_top,
                "votes": {"reader": votes.reader, "vote_check": vote_check,
                          "style": None if ev["style"] is None else ev["style"]["features"]}}
    lb = Leaderboard(boards, votes.source, None, True, settings, tuple(votes.notes))
    cut = [x for x in map(lb.figure_left_out, FIGURES) if x]
    return replace(lb, notes=lb.notes + tuple(cut)) if cut else lb


def votes_in(source, source_format: str = "auto", sep=None):
    """The :class:`~rankwise.Votes` of ``source`` when it is a vote log (a Votes, a file or
    frame a vote reader recognises, or ``source_format`` naming one), else None: the one
    place a leaderboard tells votes from scores.

    Examples
    --------
    >>> import pandas as pd
    >>> from rankwise.analysis.vote_board import votes_in
    >>> log = pd.DataFrame({"model_a": ["x"], "model_b": ["y"], "winner": ["tie"]})
    >>> votes_in(log).models
    ('x', 'y')
    >>> votes_in(pd.DataFrame({"dataset": ["d"], "learner": ["x"], "value": [0.5]})) is None
    True
    """
    from pathlib import Path

    import pandas as pd

    from ..names import VOTE_SOURCES
    from ..tables import registry
    from ..tables.battle_readers import read_votes
    from ..tables.battles import Votes

    if isinstance(source, Votes):
        return source
    if source_format in VOTE_SOURCES:
        return read_votes(source, source=source_format, sep=sep)
    if source_format != "auto":
        return None
    if isinstance(source, pd.DataFrame):
        kind = registry.which("votes", columns=list(source.columns), by=("header",))
    elif isinstance(source, (str, Path)) and Path(source).exists():
        kind = registry.which("votes", source)
    else:
        return None
    return None if kind is None else read_votes(source, source=kind, sep=sep)
