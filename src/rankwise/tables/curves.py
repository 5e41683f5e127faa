"""Performance over a budget: the long table ``learner, problem, run, budget, value`` and the
readers of the files optimisation tools write.

A :class:`Curves` holds every run as a step function on one budget grid (the union of the
logged budgets unless a grid is given): ``values[l, p, r, g]`` is the value learner l's run r
on problem p last logged at or before ``grid[g]`` (NaN before its first log), ``final[l, p, r]``
the run's own budget. ``value_kind`` says whether the values were taken as logged (``raw``:
a learning curve, anytime scores) or as each run's running best (``running-best``: an
optimiser's trace, best-so-far by construction).

Readers (:func:`read_curves`, ``source=`` or detected):

- ``curves``: a CSV/TSV/Parquet file or DataFrame with the columns ``learner, problem, run,
  budget, value`` (aliases in :data:`CURVE_ALIASES`);
- ``ioh``: an IOHprofiler folder (IOHexperimenter's ``IOHprofiler_*.json`` files beside the
  ``.dat`` files they name; ``raw_y`` over ``evaluations``, each run's budget its ``evals``);
- ``optuna``: an Optuna RDB storage file (SQLite ``.db``; one study per learner, problem and run)
  or ``study.trials_dataframe()`` rows as CSV with ``learner, problem, run`` columns added;
  the budget is the trial count or the seconds since the run's first trial started;
- ``rankwise``: a results database of ``rankwise run --budgets`` (the training fraction).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import RankwiseError
from . import registry
from .delimited import read_delimited
from .sources import mapping_of
from .._text import brief
from .frames import as_pandas

#: How each value is taken: as logged, or each run's running best.
VALUE_KINDS = ("raw", "running-best")
#: The long table's columns and the other names each is read under (first match wins).
CURVE_ALIASES = {
    "learner": ("learner", "algorithm", "algorithm_name", "optimizer", "solver", "sampler",
                "model", "configuration"),
    "problem": ("problem", "function", "function_name", "dataset", "task"),
    "run": ("run", "seed", "repeat", "instance", "study", "trial_run"),
    "budget": ("budget", "evaluations", "evals", "fraction", "time", "seconds", "iteration",
               "trials", "epoch"),
    "value": ("value", "raw_y", "y", "score", "objective", "loss", "best"),
}
#: The roles a column mapping (``columns=``) may name.
CURVE_ROLES = tuple(CURVE_ALIASES) + ("criterion",)
#: Above this many cells (learners × problems × runs × grid points) the union of the logged
#: budgets is not used as the grid unless asked; a grid of CURVE_GRID_POINTS is.
CURVE_MAX_CELLS = 400_000_000
CURVE_GRID_POINTS = 200
#: Values of the cube per block of learners in a pass over it (:meth:`Curves.blocks`).
BLOCK_CELLS = 4_000_000


class DirectionMissing(RankwiseError):
    """A table of curves that does not say which way its values point. Its message names the
    Python parameter; the command line words it with its flags (``source``: where it was
    read)."""

    def __init__(self, source: str, how: str = "higher_is_better=True or False"):
        self.source = source
        super().__init__(f"{source}: say whether higher values are better ({how})")


@dataclass(frozen=True)
class Curves:
    """Runs of learners on problems, each a curve over one budget grid.

    Attributes
    ----------
    learners, problems : tuple of str
    grid : numpy.ndarray
        The budgets (sorted).
    values : numpy.ndarray, shape (learners, problems, runs, grid)
        In the values' own units; NaN before a run's first log and where a run is absent.
    final : numpy.ndarray, shape (learners, problems, runs)
        Each run's budget (NaN where absent).
    maximize : bool
        Whether higher values are better.
    value_kind : {"raw", "running-best"}
    budget_name : str
        What the budget counts (``evaluations``, ``trials``, ``seconds``, ``fraction``…).
    source, reader : str
    notes : tuple of str
        What the reader decided.
    dimensions : numpy.ndarray or None
        Each problem's dimension where the files say it.
    exact : bool
        Whether the grid holds every logged budget (so areas and running times are exact).

    Examples
    --------
    >>> import rankwise
    >>> c = rankwise.load_curves_example()
    >>> c.budget_name, c.value_kind, c.maximize, c.exact
    ('fraction', 'raw', True, True)
    >>> c.at_budget(0.05).values.shape  # problems x learners, for compare
    (12, 4)
    """

    learners: tuple
    problems: tuple
    grid: np.ndarray
    values: np.ndarray
    final: np.ndarray
    maximize: bool
    value_kind: str = "raw"
    budget_name: str = "budget"
    source: str = "DataFrame"
    reader: str = "curves"
    notes: tuple = ()
    dimensions: np.ndarray | None = None
    exact: bool = True
    rows: int = 0
    runs_per_cell: np.ndarray | None = field(default=None, repr=False)

    @property
    def higher_is_better(self) -> bool:
        """Whether higher values are better (the word every table of rankwise uses; the
        field is ``maximize``)."""
        return self.maximize

    @property
    def runs(self) -> int:
        return self.values.shape[2]

    def oriented(self) -> np.ndarray:
        """The values with higher = better (a minimised value negated)."""
        return self.values if self.maximize else -self.values

    def means(self) -> np.ndarray:
        """The mean over runs at each budget, (learners, problems, grid), higher = better;
        NaN where no run has logged yet."""
        out = np.empty((self.values.shape[0],) + self.values.shape[1:2] + self.values.shape[3:])
        for b in self.blocks():  # bounded temporaries
            v = self.values[b]
            count = (~np.isnan(v)).sum(axis=2)
            total = np.nansum(v, axis=2)
            with np.errstate(invalid="ignore", divide="ignore"):
                mean = np.where(count > 0, total / np.maximum(count, 1), np.nan)
            out[b] = mean if self.maximize else -mean
        return out

    def blocks(self):
        """Slices of learners whose part of the cube is about BLOCK_CELLS values: every pass
        over the cube takes it a block at a time, so no temporary is the cube's size."""
        per = max(1, int(BLOCK_CELLS // max(1, np.prod(self.values.shape[1:]))))
        for start in range(0, self.values.shape[0], per):
            yield slice(start, start + per)

    def index_at(self, budgets) -> np.ndarray:
        """The grid index of each budget: the last grid point at or before it."""
        b = np.asarray(budgets, dtype=float)
        idx = np.searchsorted(self.grid, b, side="right") - 1
        if (idx < 0).any():
            raise RankwiseError(f"budget {b[idx < 0][0]:g} is before the first logged budget"
                                f" ({self.grid[0]:g})")
        return idx

    def at_budget(self, budget: float, criterion: str | None = None):
        """The mean over runs at one budget as a :class:`ScoreTable` (problems × learners), so
        everything ``compare`` does applies to it."""
        from .table import ScoreTable

        g = int(self.index_at([budget])[0])
        v = self.values[..., g]
        count = (~np.isnan(v)).sum(axis=2)
        with np.errstate(invalid="ignore"):
            mean = np.where(count > 0, np.nansum(v, axis=2) / np.maximum(count, 1), np.nan)
        return ScoreTable(values=mean.T, datasets=self.problems, learners=self.learners,
                          higher_is_better=self.maximize, direction_source="source",
                          criterion=criterion or f"value at {self.budget_name} {budget:g}",
                          aggregate="mean", counts=count.T, source=self.source,
                          cells=f"a learner's mean over its runs at {self.budget_name}"
                                f" {budget:g} (the problems are the data sets)")


# ---------------------------------------------------------------------------------------------
# building the cube


def _codes(labels) -> tuple:
    codes, uniques = pd.factorize(pd.Series(labels), sort=False)
    return codes.astype(np.int64), tuple(str(u) for u in uniques)


def _run_index(cell: np.ndarray, run_codes: np.ndarray) -> tuple:
    """Dense run numbers 0..R−1 within each cell, in order of first appearance of the label."""
    n_run = int(run_codes.max()) + 1 if run_codes.size else 1
    key = cell * n_run + run_codes
    uniq, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    ucell = uniq // n_run
    # order the runs of a cell by where they first appear
    order = np.lexsort((first, ucell))
    rank = np.empty_like(order)
    starts = np.r_[0, np.flatnonzero(np.diff(ucell[order])) + 1]
    pos = np.arange(order.size)
    rank[order] = pos - np.repeat(starts, np.diff(np.r_[starts, order.size]))
    return rank[inverse], int(rank.max()) + 1 if rank.size else 0


def build(learner, problem, run, budget, value, *, maximize: bool, value_kind: str = "raw",
          grid=None, final=None, budget_name: str = "budget", source: str = "DataFrame",
          reader: str = "curves", notes=(), dimensions=None, learners=None,
          problems=None) -> Curves:
    """A :class:`Curves` from one row per logged point (arrays of equal length)."""
    if value_kind not in VALUE_KINDS:
        raise RankwiseError(f"value kind {value_kind!r}: use one of {', '.join(VALUE_KINDS)}")
    budget = np.asarray(budget, dtype=float)
    value = np.asarray(value, dtype=float)
    bad = ~np.isfinite(budget)
    if bad.any():
        raise RankwiseError(f"{source}: {int(bad.sum())} rows have no budget (row"
                            f" {int(np.flatnonzero(bad)[0]) + 1}); every logged point needs one")
    lc, lnames = _codes(learner)
    pc, pnames = _codes(problem)
    if learners is not None:
        lnames_all = tuple(learners)
        lc = np.array([lnames_all.index(n) for n in lnames], dtype=np.int64)[lc]
        lnames = lnames_all
    if problems is not None:
        pnames_all = tuple(problems)
        pc = np.array([pnames_all.index(n) for n in pnames], dtype=np.int64)[pc]
        pnames = pnames_all
    rc_global, _ = _codes(run)
    n_l, n_p = len(lnames), len(pnames)
    cell = lc * n_p + pc
    rc, n_r = _run_index(cell, rc_global)
    union = np.unique(budget)
    exact = grid is None
    if grid is None:
        if n_l * n_p * n_r * union.size > CURVE_MAX_CELLS:
            grid = np.unique(np.linspace(union[0], union[-1], CURVE_GRID_POINTS))
            exact = False
            notes = tuple(notes) + (f"{union.size:,} distinct budgets: the curves are read on a"
                                    f" grid of {grid.size} evenly spaced budgets (give a grid"
                                    " to choose it)",)
        else:
            grid = union
    grid = np.unique(np.asarray(grid, dtype=float))
    exact = exact or np.isin(union, grid).all()
    # a log at budget b sets every grid point at or after b: its first one is where it goes
    g = np.searchsorted(grid, budget, side="left")
    beyond = g >= grid.size
    if beyond.any():
        notes = tuple(notes) + (f"{int(beyond.sum())} logged points after the grid's last"
                                f" budget ({grid[-1]:g}) are left out",)
        keep = ~beyond
        g, cell, rc, value, budget = g[keep], cell[keep], rc[keep], value[keep], budget[keep]
        if final is not None:
            final = np.asarray(final, dtype=float)[keep]
    slot = (cell * n_r + rc) * grid.size + g
    oriented = value if maximize else -value
    # keep one value per slot: the last logged (raw) or the best (running best)
    second = oriented if value_kind == "running-best" else budget
    s, v = _one_per_slot(slot, value, second)
    cube = np.full(n_l * n_p * n_r * grid.size, np.nan)
    cube[s] = v
    cube = cube.reshape(n_l, n_p, n_r, grid.size)
    _fill(cube, maximize, value_kind)
    run_final = np.full(n_l * n_p * n_r, np.nan)
    np.fmax.at(run_final, cell * n_r + rc, budget)
    run_final = run_final.reshape(n_l, n_p, n_r)
    if final is not None:  # the run's budget as its tool recorded it
        given = np.full(n_l * n_p * n_r, np.nan)  # one per row: the run's, on each of its rows
        given[cell * n_r + rc] = np.asarray(final, dtype=float)
        given = given.reshape(n_l, n_p, n_r)
        run_final = np.where(np.isnan(given), run_final, np.fmax(given, run_final))
    per_cell = (~np.isnan(run_final)).sum(axis=2)
    return Curves(learners=lnames, problems=pnames, grid=grid, values=cube, final=run_final,
                  maximize=bool(maximize), value_kind=value_kind, budget_name=budget_name,
                  source=source, reader=reader, notes=tuple(notes),
                  dimensions=None if dimensions is None else np.asarray(dimensions),
                  exact=bool(exact), rows=int(budget.size), runs_per_cell=per_cell)


def _one_per_slot(slot: np.ndarray, value: np.ndarray, second: np.ndarray) -> tuple:
    """``(slots, values)``: one value per slot of the cube, the one with the largest
    ``second`` (its budget: the last logged; its oriented value: the best)."""
    order = np.lexsort((np.nan_to_num(second, nan=-np.inf), slot))
    s = slot[order]
    last = np.r_[s[1:] != s[:-1], True]
    return s[last], value[order][last]


def _fill(cube: np.ndarray, maximize: bool, value_kind: str) -> None:
    """Carry each run's last value forward along the grid (its running best with
    ``running-best``), in place, a learner at a time (bounded temporaries)."""
    for l in range(cube.shape[0]):
        block = cube[l]
        if value_kind == "running-best":
            acc = np.fmax if maximize else np.fmin
            block[...] = acc.accumulate(block, axis=-1)
        else:
            present = ~np.isnan(block)
            idx = np.where(present, np.arange(block.shape[-1]), 0)
            np.maximum.accumulate(idx, axis=-1, out=idx)
            block[...] = np.take_along_axis(block, idx, axis=-1)


# ---------------------------------------------------------------------------------------------
# readers


def _column(frame: pd.DataFrame, name: str, source: str, given: dict) -> str:
    if name in given:
        if given[name] not in frame.columns:
            raise RankwiseError(f"{source}: no column {given[name]!r} (given for the {name});"
                                f" the columns are {', '.join(map(str, frame.columns))}")
        return given[name]
    lower = {str(c).lower(): c for c in frame.columns}
    for alias in CURVE_ALIASES[name]:
        if alias in lower:
            return lower[alias]
    raise RankwiseError(f"{source}: no {name} column (looked for"
                        f" {', '.join(CURVE_ALIASES[name])}); the columns are"
                        f" {', '.join(map(str, frame.columns))}; rename one to {name} (from"
                        f" Python, columns={{'{name}': ...}} names it)")


def from_frame(frame: pd.DataFrame, *, maximize: bool | None = None, value_kind: str = "raw",
               grid=None, columns: dict | None = None, source: str = "DataFrame",
               reader: str = "curves", notes=(), criterion: str | None = None) -> Curves:
    """A :class:`Curves` from a long table (one row per learner, problem, run and budget).

    A ``criterion`` column (several criteria, as ``rankwise export --curves`` writes) is
    filtered to ``criterion`` (needed when it holds more than one); ``repeat`` and ``fold``
    columns without a ``run`` column make the run ``repeat/fold``. ``columns``: which column
    plays which role, ``{role: column}`` or ``"role=column,..."`` (roles ``CURVE_ROLES``)."""
    given = mapping_of(columns, frame.columns, source, CURVE_ROLES)
    if "criterion" in given and given["criterion"] != "criterion":
        frame = frame.rename(columns={given["criterion"]: "criterion"})
    given.pop("criterion", None)
    if "criterion" in frame.columns:
        found = list(dict.fromkeys(frame["criterion"].astype(str)))
        if criterion is None and len(found) > 1:
            raise RankwiseError(f"{source}: the table has several criteria"
                                f" ({', '.join(found)}); choose one with --criterion")
        criterion = criterion or found[0]
        if criterion not in found:
            raise RankwiseError(f"{source}: no rows for criterion {criterion!r}; the table has"
                                f" {', '.join(found)}")
        frame = frame[frame["criterion"].astype(str) == criterion]
        notes = tuple(notes) + (f"the criterion is {criterion}",)
        if maximize is None:
            from ..experiment.criteria import CRITERIA

            maximize = CRITERIA.get(criterion)
    elif criterion is not None:
        raise RankwiseError(f"{source}: the table has no criterion column, so --criterion"
                            f" {criterion} picks nothing; leave it out (the values are read as"
                            f" they are)")
    if frame.empty:
        raise RankwiseError(f"{source}: no rows (only a header); a table of curves needs one"
                            " row per logged point: learner, problem, run, budget, value")
    names = {k: _column(frame, k, source, given) for k in ("learner", "problem", "budget",
                                                           "value")}
    lower = {str(c).lower(): c for c in frame.columns}
    try:
        if "run" not in given and "run" not in lower and {"repeat", "fold"} <= set(lower):
            run = (frame[lower["repeat"]].astype(str) + "/"
                   + frame[lower["fold"]].astype(str)).to_numpy()
        else:
            names["run"] = _column(frame, "run", source, given)
            run = frame[names["run"]].to_numpy()
    except RankwiseError:
        run = np.zeros(len(frame), dtype=np.int64)
        notes = tuple(notes) + ("no run column: one run per learner and problem",)
    if maximize is None:
        raise DirectionMissing(source)
    value = pd.to_numeric(frame[names["value"]], errors="coerce").to_numpy(dtype=float)
    budget = pd.to_numeric(frame[names["budget"]], errors="coerce").to_numpy(dtype=float)
    missing = np.isnan(value)
    if missing.any():
        notes = tuple(notes) + (f"{int(missing.sum())} rows without a value are not logged"
                                " points (a run is at its previous value there)",)
    keep = ~missing
    return build(frame[names["learner"]].to_numpy()[keep], frame[names["problem"]].to_numpy()[keep],
                 run[keep], budget[keep], value[keep], maximize=maximize,
                 value_kind=value_kind, grid=grid, budget_name=str(names["budget"]),
                 source=source, reader=reader, notes=notes)


def _store_curves(path: Path, *, criterion: str | None = None, grid=None) -> Curves:
    """The learning curves of a results database of ``rankwise run --budgets``: each (repeat,
    fold) of a learner on a data set is a run, its budget the fraction of the training part, its
    value the criterion on the same test part, used as logged (a learning curve need not
    rise)."""
    from ..experiment.criteria import CRITERIA
    from ..experiment.store import Store

    if path.is_dir():
        path = path / "results.db"
    store = Store(path, readonly=True)
    try:
        frame = store.curve_table()
        design = store.meta().get("design", {})
    finally:
        store.close()
    if frame.empty:
        raise RankwiseError(f"{path}: no learning curves in this results file; run the"
                            " experiment with --budgets 0.1,0.25,0.5,1.0 (or budgets = [...] in"
                            " its [experiment] table)")
    criteria = [c for c in design.get("criteria", []) if c in set(frame.criterion)]
    if criterion is None:
        criterion = criteria[0] if criteria else str(frame.criterion.iloc[0])
    if criterion not in set(frame.criterion):
        raise RankwiseError(f"{path}: no criterion {criterion!r} in its learning curves; it has"
                            f" {', '.join(sorted(set(frame.criterion)))}")
    rows = frame[frame.criterion == criterion]
    missing = rows.value.isna()
    notes = [f"the criterion is {criterion}"]
    if missing.any():
        notes.append(f"{int(missing.sum())} undefined values (e.g. no positive example in a"
                     " test part) are not logged points")
        rows = rows[~missing]
    run = rows["repeat"].astype(str) + "/" + rows["fold"].astype(str)
    return build(rows.learner.to_numpy(), rows.dataset.to_numpy(), run.to_numpy(),
                 rows.budget.to_numpy(), rows.value.to_numpy(),
                 maximize=CRITERIA.get(criterion, True), value_kind="raw", grid=grid,
                 budget_name="fraction", source=str(path), reader="rankwise", notes=notes)


def is_curve_file(path) -> bool:
    """Whether a path is a trajectory file or folder this module reads by its shape alone
    (:func:`rankwise.tables.registry.curve_kind`)."""
    try:
        return registry.curve_kind(path) is not None
    except (OSError, ValueError):
        return False


#: A Parquet file of more rows than this is read in batches into the cube (never whole).
PARQUET_BATCH = 2_000_000


def _labels(column) -> tuple:
    """(codes into this batch's labels, the labels) of a pyarrow column, dictionary or not."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks()
    if not pa.types.is_dictionary(column.type):
        column = pc.dictionary_encode(column)
    if column.null_count:
        raise RankwiseError("a learner, problem or run label is empty")
    return (column.indices.to_numpy(zero_copy_only=False).astype(np.int64),
            [str(v) for v in column.dictionary.to_pylist()])


def _pieces(pf, columns):
    """The file's rows, a row group at a time (read whole, without pre-buffering: reading
    them through ``iter_batches`` keeps hundreds of MB in pyarrow's pool on a large file); a
    row group beyond 4 x PARQUET_BATCH rows in batches of PARQUET_BATCH."""
    for i in range(pf.num_row_groups):
        if pf.metadata.row_group(i).num_rows <= 4 * PARQUET_BATCH:
            yield pf.read_row_group(i, columns=columns, use_threads=False)
        else:
            yield from pf.iter_batches(batch_size=PARQUET_BATCH, row_groups=[i],
                                       columns=columns, use_threads=False)


def _parquet_curves(p: Path, *, maximize, value_kind: str, grid, columns, notes) -> Curves:
    """A large Parquet file read in batches: one pass for the labels and budgets, one that
    writes each batch into the cube (the file is never held whole)."""
    import pyarrow.parquet as pq

    if maximize is None:
        raise DirectionMissing(str(p))
    pf = pq.ParquetFile(p, pre_buffer=False)
    empty = pd.DataFrame(columns=pf.schema_arrow.names)
    given = mapping_of(columns, empty.columns, str(p), CURVE_ROLES)
    names = {k: _column(empty, k, str(p), given) for k in ("learner", "problem", "run",
                                                           "budget", "value")}
    order = [names[k] for k in ("learner", "problem", "run", "budget", "value")]
    found = {"learner": {}, "problem": {}, "run": {}}
    budgets = []
    for batch in _pieces(pf, order[:4]):
        for i, key in enumerate(("learner", "problem", "run")):
            for label in _labels(batch.column(i))[1]:
                found[key].setdefault(label, len(found[key]))
        budgets.append(np.unique(batch.column(3).to_numpy(zero_copy_only=False)))
    union = np.unique(np.concatenate(budgets)).astype(float)
    grid = union if grid is None else np.unique(np.asarray(grid, dtype=float))
    n_l, n_p, n_r = (len(found[k]) for k in ("learner", "problem", "run"))
    if n_l * n_p * n_r * grid.size > CURVE_MAX_CELLS:
        raise RankwiseError(f"{p}: {n_l:,} learners x {n_p:,} problems x {n_r:,} run labels x"
                            f" {grid.size:,} budgets is more than {CURVE_MAX_CELLS:,} values;"
                            " give a coarser grid, or number the runs 0, 1, ... within each"
                            " learner and problem")
    cube = np.full(n_l * n_p * n_r * grid.size, np.nan)
    final = np.full(n_l * n_p * n_r, np.nan)
    oriented_best = value_kind == "running-best"
    for batch in _pieces(pf, order):
        codes = []
        for i, key in enumerate(("learner", "problem", "run")):
            local, labels = _labels(batch.column(i))
            codes.append(np.array([found[key][x] for x in labels], dtype=np.int64)[local])
        budget = batch.column(3).to_numpy(zero_copy_only=False).astype(float)
        value = batch.column(4).to_numpy(zero_copy_only=False).astype(float)
        keep = ~np.isnan(value)
        run_id = ((codes[0] * n_p + codes[1]) * n_r + codes[2])
        np.fmax.at(final, run_id, budget)
        g = np.searchsorted(grid, budget, side="left")
        keep &= g < grid.size
        slot = (run_id * grid.size + g)[keep]
        value = value[keep]
        if slot.size and not (np.diff(slot) > 0).all():  # repeated or unsorted: as build()
            second = (value if maximize else -value) if oriented_best else budget[keep]
            slot, value = _one_per_slot(slot, value, second)
        if oriented_best:
            old = cube[slot]
            cube[slot] = np.fmax(old, value) if maximize else np.fmin(old, value)
        else:
            cube[slot] = value
    cube = cube.reshape(n_l, n_p, n_r, grid.size)
    _fill(cube, bool(maximize), value_kind)
    final = final.reshape(n_l, n_p, n_r)
    return Curves(learners=tuple(found["learner"]), problems=tuple(found["problem"]),
                  grid=grid, values=cube, final=final, maximize=bool(maximize),
                  value_kind=value_kind, budget_name=str(names["budget"]), source=str(p),
                  reader="curves", notes=tuple(notes), exact=bool(np.isin(union, grid).all()),
                  rows=int(pf.metadata.num_rows),
                  runs_per_cell=(~np.isnan(final)).sum(axis=2))


def _table(p: Path, sep, decimal, notes: list) -> pd.DataFrame:
    if p.suffix == ".parquet":
        if sep is not None or decimal is not None:
            raise RankwiseError(f"{p}: a Parquet file has no separator or decimal mark; leave"
                                " out --sep and --decimal")
        return pd.read_parquet(p)
    return read_delimited(p, sep=sep, decimal=decimal, text="infer", notes=notes)


def _no_criterion(kind: str, criterion, name: str) -> None:
    """``criterion`` picks among a table's or a results database's criteria, or among the
    objectives an IOHprofiler file logs (raw_y, F2, ...: its reader checks the name); Optuna
    files log one objective, so a criterion given for them would pick nothing."""
    if criterion is not None and kind == "optuna":
        raise RankwiseError(f"{name}: {kind} files log one objective and no criterion column,"
                            f" so --criterion {criterion} picks nothing; leave it out")


def read_curves(source, *, reader: str = "auto", higher_is_better: bool | None = None,
                value_kind: str | None = None, grid=None, budget: str = "trials",
                columns: dict | str | None = None, criterion: str | None = None,
                sep: str | None = None, decimal: str | None = None,
                maximize: bool | None = None) -> Curves:
    """Read curves from a long table, an IOHprofiler folder, an Optuna storage or trials table,
    or a results database of ``rankwise run --budgets``.

    Parameters
    ----------
    source : path or pandas.DataFrame
    reader : {"auto", "curves", "ioh", "optuna", "rankwise"}
        ``auto`` tells the tool files apart by their shape; a table is ``curves`` unless it has
        Optuna's ``number``, ``value`` and ``state`` columns.
    higher_is_better : bool, optional
        Whether higher values are better; IOHprofiler and Optuna files say it themselves
        (``maximize=``, its name before 0.9, still works with a FutureWarning).
    value_kind : {"raw", "running-best"}, optional
        ``raw`` (the long table's default): values as logged; ``running-best``: each run's
        running best (the default of the IOHprofiler and Optuna readers).
    grid : sequence of float, optional
        The budgets to read the curves at; default: every logged budget.
    budget : {"trials", "seconds"}
        Optuna's budget axis.
    columns : dict or str, optional
        Which column is which, e.g. ``{"learner": "sampler", "budget": "n_trials"}`` or
        ``"learner=sampler,budget=n_trials"`` (the rule of ``load_table``'s ``columns``; roles
        ``learner``, ``problem``, ``run``, ``budget``, ``value``, ``criterion``).
    sep, decimal : str, optional
        A text table's separator and decimal mark, as :func:`rankwise.load_table` takes them
        (default: sniffed, a tab for ``.tsv``, ``;`` and a decimal comma when the file says so).
    criterion : str, optional
        A results database's criterion (default: the run's first), the one to keep of a
        table's ``criterion`` column, or the objective of IOHprofiler files that log several
        (``raw_y``, ``F2``, ...: refused without one).

    Examples
    --------
    >>> import pandas as pd, rankwise
    >>> frame = pd.DataFrame({"learner": ["A", "A", "B", "B"], "problem": "p", "run": 0,
    ...                       "budget": [1, 10, 1, 10], "value": [0.5, 0.8, 0.6, 0.7]})
    >>> c = rankwise.read_curves(frame, higher_is_better=True)
    >>> c.learners, c.grid.tolist(), c.values[:, 0, 0, -1].tolist()
    (('A', 'B'), [1.0, 10.0], [0.8, 0.7])
    """
    from .._validate import renamed
    from .guard import reading

    # one word per idea: the direction is higher_is_better everywhere (Curves keeps its field)
    maximize = renamed(higher_is_better, maximize, "maximize", "higher_is_better")
    source = as_pandas(source)
    with reading("DataFrame" if isinstance(source, pd.DataFrame) else source,
                 f"curves ({reader})"):
        return _read_curves(source, reader, maximize, value_kind, grid, budget, columns,
                            criterion, sep, decimal)


def _read_curves(source, reader, maximize, value_kind, grid, budget, columns, criterion, sep,
                 decimal) -> Curves:
    notes: list = []
    registry.check(reader, "curves")
    if isinstance(source, pd.DataFrame):
        frame, name = source, "DataFrame"
        kind = reader if reader != "auto" else registry.curve_kind_of_table(frame.columns)
    else:
        p = Path(source)
        if not p.exists():
            raise RankwiseError(f"{p}: no such file or folder")
        name = str(p)
        shape = registry.curve_kind(p) if reader in ("auto", "optuna") else None
        kind = reader if reader != "auto" else (shape or "curves")
        frame = None
        _no_criterion(kind, criterion, name)
        if kind == "ioh":
            from .curve_readers import ioh

            return build(**ioh(p, criterion=criterion, notes=notes),
                         value_kind=value_kind or "running-best", grid=grid, source=str(p),
                         reader="ioh", notes=notes)
        if kind == "optuna" and shape == "optuna":
            from .curve_readers import optuna_db

            return build(**optuna_db(p, budget=budget, notes=notes), value_kind="running-best",
                         grid=grid, source=str(p), reader="optuna", notes=notes)
        if kind == "rankwise":
            return _store_curves(p, grid=grid, criterion=criterion)
        if p.is_dir():
            raise RankwiseError(f"{p}: a folder, but no IOHprofiler_*.json in it and no"
                                " results.db; give the table of curves itself")
        if p.suffix == ".parquet" and kind == "curves":
            import pyarrow.parquet as pq

            if pq.ParquetFile(p).metadata.num_rows > PARQUET_BATCH:
                return _parquet_curves(p, maximize=maximize, value_kind=value_kind or "raw",
                                       grid=grid, columns=columns, notes=notes)
        try:
            frame = _table(p, sep, decimal, notes)
        except RankwiseError:
            raise
        except (ValueError, UnicodeDecodeError, pd.errors.ParserError) as exc:
            raise RankwiseError(f"{p}: not a table of curves ({brief(exc, p)})") from None
        if reader == "auto" and registry.curve_kind_of_table(frame.columns) == "optuna":
            kind = "optuna"
    _no_criterion(kind, criterion, name)
    if kind == "optuna":
        from dataclasses import replace

        from .curve_readers import optuna_frame

        trials = optuna_frame(frame, budget=budget, source=name, notes=notes, maximize=maximize)
        return replace(from_frame(trials, maximize=maximize, value_kind="running-best",
                                  grid=grid, source=name, reader="optuna", notes=notes),
                       budget_name=budget)
    if kind != "curves":
        raise RankwiseError(f"{name}: a table, not {kind} files")
    return from_frame(frame, maximize=maximize, value_kind=value_kind or "raw", grid=grid,
                      columns=columns, source=name, notes=notes, criterion=criterion)
