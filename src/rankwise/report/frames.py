"""Every result as one data frame (``result.to_frame(backend=...)``): its main table, one row
per learner (and per subset, task, budget or criterion where it has them), with the unrounded
numbers of its JSON under the JSON's names, so that a frame and the JSON never disagree.

Declared once per kind in :data:`FRAMES`; :func:`result_frame` is the one entry point;
``to_frame`` turns its pandas frame into the user's library
(:func:`rankwise.tables.frames.to_backend`).
"""

from __future__ import annotations

import io

import numpy as np
import pandas as pd


def _compare(cmp) -> pd.DataFrame:
    """One row per learner, best mean rank first: mean rank and its interval, mean score, the
    verdict's decision against the best and the adjusted p-value behind it."""
    t, v = cmp.table, cmp.verdict
    order = np.argsort(cmp.mean_ranks, kind="stable")
    ci = cmp.mean_rank_intervals
    names = [t.learners[j] for j in order]
    return pd.DataFrame({
        "learner": names,
        "mean_rank": cmp.mean_ranks[order],
        "mean_rank_low": np.nan if ci is None else ci[order, 0],
        "mean_rank_high": np.nan if ci is None else ci[order, 1],
        "mean": np.nanmean(t.values, axis=0)[order] if t.n_datasets else np.nan,
        "decision": v.decisions(names),
        "pvalue_vs_best": [v.apv.get(n, np.nan) for n in names]})


def _board(lb) -> pd.DataFrame:
    """Every learner of every board, as the report folder's ``board.csv`` holds it (read from
    the same writer, so the two never differ)."""
    from .board import extras

    text = ("subset", "learner", "elo_bound")     # an empty one is "", not missing
    csv = extras(lb)["board.csv"]
    numbers = [c for c in csv.split("\n", 1)[0].split(",") if c not in text]
    return pd.read_csv(io.StringIO(csv), dtype={c: str for c in text}, keep_default_na=False,
                       na_values={c: [""] for c in numbers})


def _items(r) -> pd.DataFrame:
    """One row per task and learner (score, its SE and interval, whether it is the task's best
    or tied with it), then the macro-average's rows (task ``macro``)."""
    d = r.to_dict()
    rows = []
    for task in d["per_dataset"]:
        tied = set(task["tied_with_best"])
        for i, name in enumerate(task["learners"]):
            rows.append({"task": task["dataset"], "learner": name, "score": task["score"][i],
                         "se": task["se"][i], "low": task["low"][i], "high": task["high"][i],
                         "best": name == task["best"], "tied_with_best": name in tied})
    macro = d["macro"]
    if macro:
        tied = set(macro["tied_with_best"])
        for i, name in enumerate(d["learners"]):
            rows.append({"task": "macro", "learner": name, "score": macro["mean"][i],
                         "se": np.nan, "low": macro["low"][i], "high": macro["high"][i],
                         "best": name == macro["best"], "tied_with_best": name in tied})
    return pd.DataFrame(rows)


def _curves(r) -> pd.DataFrame:
    """One row per checkpoint budget and learner: the mean rank there, whether it is the best
    and among the winners (not significantly worse than the best)."""
    rows = []
    d = r.to_dict()
    for point in d["checkpoints"]:
        winners = set(point["winners"] or ())
        ranks = point["mean_ranks"]
        for name, rank in (ranks.items() if isinstance(ranks, dict) else zip(d["learners"], ranks)):
            rows.append({"budget": point["budget"], "learner": name, "mean_rank": rank,
                         "best": name == point["best"], "winner": name in winners})
    return pd.DataFrame(rows)


def _fronts(r) -> pd.DataFrame:
    """One row per learner and criterion: its summary and interval, with whether it is on the
    front and which learners outdo it."""
    rows = []
    front, outdone = set(r.front_learners), r.outdone_learners
    for n, criterion in enumerate(r.criteria):
        for j, name in enumerate(r.learners):
            rows.append({"learner": name, "criterion": criterion,
                         "summary": r.summaries[n], "value": float(r.points[j, n]),
                         "low": float(r.low[j, n]), "high": float(r.high[j, n]),
                         "on_front": name in front,
                         "outdone_by": ", ".join(outdone.get(name, ()))})
    return pd.DataFrame(rows)


def _rows(key: str, first=None):
    """A frame of the JSON's list of rows ``key`` (plus the row ``first``, a dict, on top)."""
    def frame(r) -> pd.DataFrame:
        d = r.to_dict()
        rows = ([dict(d[first], dataset="overall")] if first and d.get(first) else []) + list(d[key])
        return pd.DataFrame([{k: (", ".join(map(str, v)) if isinstance(v, (list, tuple)) else v)
                              for k, v in row.items() if not isinstance(v, dict)}
                             for row in rows])
    return frame


def _audit(a) -> pd.DataFrame:
    """One row per task and learner: the score read off the board, its interval from the
    task's item count, whether it is the task's best or tied with it."""
    d = a.to_dict()
    rows = []
    for task in d["per_dataset"]:
        tied = set(task["tied_with_best"])
        for i, name in enumerate(d["learners"]):
            rows.append({"task": task["dataset"], "learner": name, "n": task["n"],
                         "count": task["count"], "score": task["score"][i],
                         "low": task["low"][i], "high": task["high"][i],
                         "best": name == task["best"], "tied_with_best": name in tied})
    return pd.DataFrame(rows)


def _race(r) -> pd.DataFrame:
    """One row per learner: the tasks it was run on, and when and by whom it was eliminated."""
    out = {e.learner: e for e in r.eliminations}
    return pd.DataFrame({
        "learner": list(r.learners),
        "evaluated": [int(x) for x in r.evaluated],
        "survivor": [n in set(r.survivors) for n in r.learners],
        "eliminated_by": [out[n].by if n in out else "" for n in r.learners],
        "step": [out[n].step if n in out else np.nan for n in r.learners],
        "evalue": [out[n].evalue if n in out else np.nan for n in r.learners]})


def _plan(p) -> pd.DataFrame:
    """The D-study: one row per design on the way to the budget (precision against cost), the
    sizes of its facets as ``n_<facet>`` columns."""
    rows = []
    for row in p.to_dict()["precision_against_cost"]:
        sizes = row.get("sizes", {})
        rows.append({**{k: v for k, v in row.items() if k != "sizes"},
                     **{f"n_{facet}": n for facet, n in sizes.items()}})
    return pd.DataFrame(rows)


#: kind -> its frame. Every kind of :mod:`rankwise.report.kinds` and ``compare`` has one.
FRAMES = {"compare": _compare, "leaderboard": _board, "items": _items, "curves": _curves,
          "fronts": _fronts, "gate": _rows("per_dataset", first="overall"),
          "audit": _audit, "power": _rows("results"), "race": _race,
          "plan": _plan}


def result_frame(result) -> pd.DataFrame:
    """``result``'s main table as a pandas DataFrame (``result.to_frame(backend=...)`` gives it
    in another library).

    Examples
    --------
    >>> import rankwise
    >>> from rankwise.report.frames import result_frame
    >>> frame = result_frame(rankwise.compare(rankwise.load_example("garcia2010")))
    >>> list(frame.columns[:3]), frame["learner"].iloc[0], frame.shape[0]
    (['learner', 'mean_rank', 'mean_rank_low'], 'PDFC', 4)
    """
    from ..errors import RankwiseError

    from ..stats.results import clip_to_floor, is_pvalue_key

    make = FRAMES.get(getattr(result, "kind", None))
    if make is None:
        raise RankwiseError(f"{type(result).__name__} has no frame; the kinds that have one"
                            f" are {', '.join(FRAMES)}")
    frame = make(result)
    for column in frame.columns:   # a p-value as the JSON writes it (its rule, its floor)
        if is_pvalue_key(column):
            frame[column] = clip_to_floor(frame[column])
    return frame
