"""A pilot experiment as a design and its scores: a score table (one score per learner and data
set), the folds of its repeats behind each cell (a long table, a results database, another
tool's per-fold results), or scored items (tasks × items, with repeated trials).

:func:`from_table` and :func:`from_items` give a :class:`Pilot`: the design (its facets and
their sizes), the scores one row per observation, and, where every cell has the same levels,
the array the ANOVA reads; the top facet's table (data sets or tasks × learners) the rank
analyses read; per-repeat benchmark scores for the signal-to-noise ratio.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .design import LEARNER, Design, Facet


@dataclass(frozen=True)
class Pilot:
    """The scores of a pilot in the design's terms.

    ``frame``: one row per observation, a column per facet of ``design`` (learner first) and
    ``value``; ``array``: the scores as the design's axes where the design is balanced (else
    None: every cell's levels must be the same for the ANOVA); ``top``: the outermost facet
    (``dataset`` or ``task``) and ``table`` its levels × learners means (each learner's mean
    over what is nested in a level); ``replicates``: top × learners × inner observations
    (balanced designs), the per-data-set rank's uncertainty; ``repeats``: learners × repeats
    (or trials) benchmark scores, where the pilot has them."""

    design: Design
    frame: pd.DataFrame
    array: np.ndarray | None
    learners: tuple
    levels: tuple
    top: str
    table: np.ndarray
    replicates: np.ndarray | None
    repeats: np.ndarray | None
    what: str

    @property
    def balanced(self) -> bool:
        return self.array is not None


def from_table(table) -> Pilot:
    """The pilot of a :class:`~rankwise.ScoreTable`: its folds within repeats where it was read
    from a long table (its ``raw`` rows, the ones of its data sets and learners), else its
    cells (learners × data sets)."""
    learners, datasets = tuple(table.learners), tuple(table.datasets)
    raw = table.raw
    inner = []
    if raw is not None:
        inner = [c for c in ("repeat", "fold") if c in raw.columns and raw[c].nunique() > 1]
    if not inner:
        values = np.asarray(table.values, dtype=float).T
        rows = [(l, d, values[i, j]) for i, l in enumerate(learners)
                for j, d in enumerate(datasets) if np.isfinite(values[i, j])]
        frame = pd.DataFrame(rows, columns=[LEARNER, "dataset", "value"])
        what = "one score per learner and data set"
    else:
        keep = raw["learner"].isin(learners) & raw["dataset"].isin(datasets)
        frame = raw.loc[keep, ["learner", "dataset", *inner, "value"]].copy()
        frame = frame[np.isfinite(frame["value"].to_numpy(dtype=float))]
        what = " x ".join({"repeat": "repeats", "fold": "folds"}[c] for c in inner) + \
            " of each data set"
    frame["value"] = frame["value"].astype(float)
    facets = [Facet("dataset", 0)]
    if "repeat" in inner:
        facets.append(Facet("repeat", 0, ("dataset",)))
    if "fold" in inner:
        facets.append(Facet("fold", 0, tuple(f.name for f in facets)))
    return _pilot(frame, learners, datasets, facets, "dataset", "repeat" if "repeat" in inner
                  else None, what)


def from_items(items) -> Pilot:
    """The pilot of scored items (:class:`~rankwise.tables.items.ItemTable`): learners ×
    (items within tasks), with the trials of each learner on each item as replicates."""
    frame = items.frame
    cols = {"model": LEARNER, "task": "task", "item": "item", "score": "value"}
    trials = "repeat" in frame.columns and frame.groupby(
        ["model", "task", "item"], sort=False).size().max() > 1
    if trials:
        cols["repeat"] = "trial"
    out = frame[list(cols)].rename(columns=cols).copy()
    out = out[np.isfinite(out["value"].to_numpy(dtype=float))]
    out["value"] = out["value"].astype(float)
    facets = [Facet("task", 0), Facet("item", 0, ("task",))]
    if trials:
        facets.append(Facet("trial", 0, (LEARNER, "task", "item")))
    what = "items of each task" + (", repeated trials" if trials else "")
    learners = tuple(str(m) for m in items.models)
    out[LEARNER] = out[LEARNER].astype(str)
    tasks = tuple(str(t) for t in items.tasks)
    out["task"] = out["task"].astype(str)
    return _pilot(out, learners, tasks, facets, "task", "trial" if trials else None, what)


def from_curves(curves, budget: float | None = None) -> Pilot:
    """The pilot of curves (:class:`~rankwise.Curves`) at ``budget`` (default: the last of
    the grid): learners × problems with each learner's runs replicated (an optimizer's runs
    are its own, not shared with the others; runs that were paired, as the folds of a
    learning curve, are taken as unpaired, which overstates a difference's error a little)."""
    g = len(curves.grid) - 1 if budget is None else int(curves.index_at([budget])[0])
    v = curves.values[..., g]                            # learners x problems x runs
    l, d, r = np.nonzero(np.isfinite(v))
    learners = tuple(str(x) for x in curves.learners)
    problems = tuple(str(x) for x in curves.problems)
    frame = pd.DataFrame({LEARNER: np.asarray(learners, dtype=object)[l],
                          "problem": np.asarray(problems, dtype=object)[d], "run": r,
                          "value": v[l, d, r].astype(float)})
    runs = curves.values.shape[2] > 1
    facets = [Facet("problem", 0)]
    if runs:
        facets.append(Facet("run", 0, (LEARNER, "problem")))
    at = f"{curves.budget_name} {curves.grid[g]:g}"
    what = f"the runs of each problem at {at}" if runs else f"one run per problem at {at}"
    return _pilot(frame, learners, problems, facets, "problem", "run" if runs else None,
                  what)


def _pilot(frame, learners, levels, facets, top, repeat, what) -> Pilot:
    names = [LEARNER] + [f.name for f in facets]
    within = {LEARNER: (), **{f.name: tuple(f.within) for f in facets}}
    codes, sizes = {}, {}
    for name in names:
        parents = [p for p in names if p in within[name]]
        if parents:   # the level within each level of what it is nested in
            label = pd.factorize(frame[name].astype(str), sort=True)[0]
            keys = pd.DataFrame({"parent": _combined(codes, parents), "label": label})
            codes[name] = keys.groupby("parent", sort=False)["label"].rank(
                method="dense").to_numpy(dtype=np.int64) - 1
            sizes[name] = _typical(keys.groupby("parent", sort=False)["label"]
                                   .nunique().to_numpy())
        else:
            order = learners if name == LEARNER else levels if name == top else None
            cat = pd.Categorical(frame[name], categories=order) if order is not None else \
                pd.Categorical(frame[name])
            codes[name] = np.asarray(cat.codes, dtype=np.int64)
            sizes[name] = len(cat.categories)
    design = Design(sizes[LEARNER], tuple(Facet(f.name, sizes[f.name], f.within)
                                          for f in facets))
    array = _balanced(frame, names, codes, within)
    table = _top_table(frame, codes, learners, levels, top)
    replicates = None
    paired = not any(LEARNER in f.within for f in facets)   # trials, runs: each learner's
    if array is not None and len(names) > 2 and paired:
        # top level × learner × every inner observation (the folds of its repeats)
        moved = np.moveaxis(array, 0, 1)
        replicates = moved.reshape(moved.shape[0], moved.shape[1], -1)
    repeats = _repeats(frame, learners, top, repeat)
    return Pilot(design=design, frame=frame.assign(**{f"{n}_code": codes[n] for n in names}),
                 array=array, learners=learners, levels=levels, top=top, table=table,
                 replicates=replicates, repeats=repeats, what=what)


def _combined(codes: dict, names: list) -> np.ndarray:
    """One integer per observation for the combination of ``names``' codes, numbered in the
    order of the combinations (a mixed-radix key, factorised by hashing: two million rows in
    a tenth of a second, where a row-wise unique sorts them)."""
    key = np.zeros(len(codes[names[0]]), dtype=np.int64)
    for n in names:
        key = key * (int(codes[n].max()) + 1 if len(key) else 1) + codes[n]
    return pd.factorize(key, sort=True)[0].astype(np.int64)


def _typical(counts: np.ndarray) -> int:
    """A nested facet's size: the same in every parent (balanced), else the harmonic mean of
    its sizes rounded (what a D-study of an unbalanced nested facet uses; Brennan 2001, §7)."""
    if counts.min() == counts.max():
        return int(counts[0])
    return max(1, int(round(len(counts) / np.sum(1.0 / counts))))


def _balanced(frame, names, codes, within):
    """The scores as an array of the design's axes when every cell has the same levels of
    every facet and one score each; else None."""
    shape = []
    for name in names:
        parents = [p for p in names if p in within[name]]
        if parents:
            counts = pd.Series(codes[name]).groupby(_combined(codes, parents)).nunique()
            if counts.min() != counts.max():
                return None
            shape.append(int(counts.iloc[0]))
        else:
            shape.append(int(codes[name].max()) + 1 if len(frame) else 0)
    if len(frame) != int(np.prod(shape)):
        return None
    array = np.full(shape, np.nan)
    array[tuple(codes[n] for n in names)] = frame["value"].to_numpy()
    if np.isnan(array).any():
        return None
    return array


def _top_table(frame, codes, learners, levels, top) -> np.ndarray:
    """Levels of the top facet × learners: each learner's mean there (NaN where it has no
    score)."""
    n, k = len(levels), len(learners)
    total = np.zeros((n, k))
    count = np.zeros((n, k))
    np.add.at(total, (codes[top], codes[LEARNER]), frame["value"].to_numpy())
    np.add.at(count, (codes[top], codes[LEARNER]), 1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(count > 0, total / np.where(count > 0, count, 1), np.nan)


def _repeats(frame, learners, top, repeat):
    """Learners × repeats (or trials): each learner's benchmark score in each repeat, the mean
    over the top facet's levels of its mean there; None without repeats, or where some
    learner lacks some repeat."""
    if repeat is None:
        return None
    labels, which = np.unique(frame[repeat].to_numpy().astype(str), return_inverse=True)
    if len(labels) < 2:
        return None
    cells = frame.groupby([frame[LEARNER], frame[top], which.reshape(-1)])["value"].mean()
    out = cells.groupby(level=[0, 2]).mean().unstack().reindex(
        index=list(learners), columns=range(len(labels))).to_numpy(dtype=float)
    return None if np.isnan(out).any() else out


def effect_codes(pilot: Pilot) -> dict:
    """For REML: each effect but the residual → the level of each observation (the effect's
    facets' labels combined, a nested facet with what it is nested in)."""
    design = pilot.design
    out = {}
    for s in design.effect_sets():
        name = design.effect_name(s)
        if name == "residual":
            continue
        cols = [n for n in design.names if n in s]
        out[name] = _combined({n: pilot.frame[f"{n}_code"].to_numpy(dtype=np.int64)
                               for n in cols}, cols)
    return out
