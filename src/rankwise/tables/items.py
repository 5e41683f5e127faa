"""Model evaluations scored item by item: the long table ``model, task, item, score`` and the
readers of the files evaluation tools write.

An :class:`ItemTable` holds one row per scored item (optionally per repeat, with a ``cluster``
and a ``weight``). Its :meth:`ItemTable.task_matrix` gives one task as an items × models matrix
(repeats averaged) for the paired statistics of :mod:`rankwise.stats.items`;
:meth:`ItemTable.task_table` the mean per model and task as a :class:`ScoreTable`, so everything
``compare`` does applies across tasks.

Readers (:func:`read_items`, ``source=`` or detected):

- ``items``: a CSV/TSV/Parquet file or DataFrame with the columns ``model, task, item, score`` and
  optionally ``cluster``, ``weight``, ``repeat``;
- ``lm-eval``: lm-evaluation-harness ``--log_samples`` files ``samples_<task>_<date>.jsonl``
  (one per task and model; the model is the folder lm-eval writes them into, named after it);
- ``inspect``: inspect_ai logs, ``.json`` and ``.eval`` (a zip of ``header.json`` and
  ``samples/*.json``);
- ``helm``: HELM's ``per_instance_stats.json`` in a run folder (model and scenario from its
  ``run_spec.json``);
- ``swe-bench``: SWE-bench's per-model run report (``resolved_ids`` among the ids it names) or a
  ``results.json`` of lists (``resolved`` among them).
"""

from __future__ import annotations

import contextlib
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import RankwiseError
from . import registry
from .guard import reading
from .item_readers import (CorpusLevel, every_eval_ever_items, helm, inspect_log, lm_eval,
                           lm_eval_corpus, lm_eval_runs, openeval, swe_bench, swe_bench_missing)
from .._text import brief
from .frames import as_pandas

#: What to do with an item some model of its task has no score for.
ITEM_MISSING = ("refuse", "common")
#: The columns of the long table (the first four required).
ITEM_COLUMNS = ("model", "task", "item", "score", "cluster", "weight", "repeat")
#: Up to this many rows, repeated (model, task, item) rows are refused when the table is read.
EAGER_DUPLICATE_CHECK = 1_000_000
#: What a cell of the task-level table is (its compare reports say it, not repeats x folds).
TASK_CELLS = "a model's mean over a task's items (the tasks are the data sets)"


@dataclass(frozen=True)
class ItemTask:
    """One task as the paired statistics need it: ``scores`` items × models (repeats averaged,
    weights and clusters per item), ``items`` the item labels, ``dropped`` the items left out
    because some model had no score (``missing="common"``). ``trials``: where some item was
    tried more than once, each item's number of trials, their sum and their sum of squares
    (three items × models arrays, for pass@k and the variance split); None where every item
    has one trial (then they are 1, ``scores`` and ``scores ** 2``)."""

    name: str
    scores: np.ndarray
    items: tuple
    models: tuple
    clusters: np.ndarray | None
    weights: np.ndarray | None
    repeats: int
    dropped: int = 0
    trials: tuple | None = None


@dataclass(frozen=True)
class ItemTable:
    """Scores of models on the items of tasks (one row per item, model and repeat).

    Attributes
    ----------
    frame : pandas.DataFrame
        Columns ``model, task, item, score`` and, where given, ``cluster, weight, repeat``.
    source : str
        What was read (a path or ``"DataFrame"``).
    reader : str
        Which reader (one of ``ITEM_SOURCES``).
    notes : tuple of str
        What the reader decided (the metric and filter it took, unresolved and missing items).
    missing : str
        ``refuse`` (an item some model of its task lacks is an error naming it) or ``common``
        (each task keeps the items every model answered; the others are counted).

    Examples
    --------
    >>> import pandas as pd
    >>> from rankwise.tables.items import ItemTable
    >>> t = ItemTable.from_frame(pd.DataFrame({
    ...     "model": ["a", "a", "b", "b"], "task": ["t"] * 4,
    ...     "item": [1, 2, 1, 2], "score": [1, 0, 1, 1]}))
    >>> t.models, t.tasks, t.task_table().values.tolist()
    (('a', 'b'), ('t',), [[0.5, 1.0]])
    """

    frame: pd.DataFrame
    source: str = "DataFrame"
    reader: str = "items"
    notes: tuple = ()
    missing: str = "refuse"
    metric: str | None = None
    _tasks: dict = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_frame(cls, frame: pd.DataFrame, *, source: str = "DataFrame", reader: str = "items",
                   notes=(), missing: str = "refuse", metric: str | None = None) -> "ItemTable":
        """Check a long frame and build the table (one line naming the problem if it is bad)."""
        lower = _roles(frame.columns, source, missing)
        keep = list(lower)
        f = pd.DataFrame({c: frame[lower[c]] for c in keep})
        for c in ("model", "task", "item"):
            f[c] = _labels(f[c], c, source)
        if f.empty:
            raise RankwiseError(f"{source}: no scored items")
        score = f["score"]
        if not pd.api.types.is_numeric_dtype(score) or pd.api.types.is_bool_dtype(score):
            score = pd.to_numeric(score, errors="coerce")
        values = score.to_numpy(dtype=float, na_value=np.nan)
        from .._validate import MAX_ABS_SCORE

        with np.errstate(invalid="ignore"):
            bad = ~(np.abs(values) <= MAX_ABS_SCORE)
        if bad.any():
            row = int(np.flatnonzero(bad)[0])
            raise _bad_score(source, row, int(bad.sum()), str(frame[lower['score']].iloc[row]))
        f["score"] = values
        if "weight" in f:
            w = pd.to_numeric(f["weight"], errors="coerce")
            bad = ~(np.isfinite(w.to_numpy(dtype=float, na_value=np.nan)) & (w > 0).to_numpy())
            if bad.any():
                row = int(np.flatnonzero(bad)[0])
                raise _bad_weight(source, row, int(bad.sum()),
                                  str(frame[lower['weight']].iloc[row]))
            f["weight"] = w.astype(float)
        if "cluster" in f:
            f["cluster"] = f["cluster"].astype("category")
        if "repeat" not in f and len(f) <= EAGER_DUPLICATE_CHECK:
            # (above this size each task's matrix finds them, with the same message, when it
            # is built: a hash of every row would double the memory of a large table)
            codes = [f[c].cat.codes.to_numpy().astype(np.int64) for c in ("task", "item", "model")]
            sizes = [len(f[c].cat.categories) for c in ("task", "item", "model")]
            key = (codes[0] * sizes[1] + codes[1]) * sizes[2] + codes[2]
            twice = pd.Series(key).duplicated().to_numpy()
            if twice.any():
                row = f.iloc[int(np.flatnonzero(twice)[0])]
                raise _repeated(source, row["model"], row["item"], row["task"])
        return cls(f, source, reader, tuple(notes), missing, metric)

    @property
    def models(self) -> tuple:
        if "_models" not in self._tasks:
            self._tasks["_models"] = _in_order(self.frame["model"])
        return self._tasks["_models"]

    def align(self, models) -> "ItemTable":
        """The table with its models given (in that order): a model without rows has every
        item missing. Used where a table holds one task of a larger set."""
        self._tasks["_models"] = tuple(models)
        return self

    @property
    def tasks(self) -> tuple:
        if "_task_names" not in self._tasks:
            self._tasks["_task_names"] = _in_order(self.frame["task"])
        return self._tasks["_task_names"]

    @property
    def binary(self) -> bool:
        s = self.frame["score"].to_numpy()
        return bool(np.all((s == 0) | (s == 1)))

    @property
    def n_outcomes(self) -> int:
        return len(self.frame)

    def _rows_by_task(self) -> dict:
        if "_rows" not in self._tasks:
            codes = self.frame["task"].cat.codes.to_numpy()
            order = np.argsort(codes, kind="stable")
            bounds = np.searchsorted(codes[order], np.arange(len(self.frame["task"].cat
                                                                 .categories) + 1))
            cats = self.frame["task"].cat.categories
            self._tasks["_rows"] = {cats[i]: order[bounds[i]:bounds[i + 1]]
                                    for i in range(len(cats))}
        return self._tasks["_rows"]

    def task_matrix(self, task: str) -> ItemTask:
        """The task's items × models matrix (repeats averaged per item), with the missing-item
        policy applied. Built from integer codes (a bincount), not a pivot: 20 million outcomes
        take seconds."""
        if task in self._tasks:
            return self._tasks[task]
        models = self.models
        rows = self._rows_by_task().get(task)
        if rows is None or not len(rows):
            raise RankwiseError(f"no task {task!r}; the tasks are {', '.join(self.tasks[:10])}")
        f = self.frame
        model_pos = {m: i for i, m in enumerate(models)}
        model_cats = f["model"].cat.categories
        remap = np.array([model_pos.get(str(m), -1) for m in model_cats])
        col = remap[f["model"].cat.codes.to_numpy()[rows]]
        item_codes, item_labels = pd.factorize(f["item"].cat.codes.to_numpy()[rows], sort=False)
        item_labels = f["item"].cat.categories[item_labels]
        k, m = len(models), len(item_labels)
        cell = item_codes.astype(np.int64) * k + col
        count = np.bincount(cell, minlength=m * k).reshape(m, k)
        total = np.bincount(cell, weights=f["score"].to_numpy()[rows],
                            minlength=m * k).reshape(m, k)
        if "repeat" not in f and (count > 1).any():
            i, j = np.argwhere(count > 1)[0]
            raise _repeated(self.source, models[j], item_labels[i], task)
        repeats = int(count.max())
        with np.errstate(invalid="ignore", divide="ignore"):
            scores = total / count
        absent = count == 0
        dropped = 0
        keep = np.ones(m, bool)
        if absent.any():
            if self.missing == "refuse":
                j = int(absent.sum(axis=0).argmax())
                n_absent = int(absent[:, j].sum())
                item = item_labels[int(np.flatnonzero(absent[:, j])[0])]
                raise RankwiseError(f"model {models[j]!r} has no score for {n_absent} item(s) of"
                                    f" task {task!r} (first: {item!r}); paired tests need every"
                                    f" model on the same items: give --missing common to keep"
                                    f" each task's items every model answered")
            keep = ~absent.any(axis=1)
            dropped = int((~keep).sum())
            if not keep.any():
                raise RankwiseError(f"task {task!r} has no item that every model answered")
        scores = scores[keep]
        items = tuple(item_labels[keep])
        first = np.full(m, -1, dtype=np.int64)       # each item's first row, for its labels
        first[item_codes[::-1]] = rows[::-1]
        first = first[keep]
        clusters = None
        if "cluster" in f:
            labels = f["cluster"].to_numpy()[first]
            text = pd.Series(labels, dtype=object).astype(str).str.strip()
            blank = pd.isna(labels) | (text == "").to_numpy() | (text == "nan").to_numpy()
            if not blank.all():
                # an item without a cluster label is a cluster of its own
                clusters = np.where(blank, "item:" + pd.Index(items).astype(str),
                                    "cluster:" + text.to_numpy().astype(str)).astype(str)
        weights = f["weight"].to_numpy(dtype=float)[first] if "weight" in f else None
        trials = None
        if repeats > 1:
            squares = np.bincount(cell, weights=f["score"].to_numpy()[rows] ** 2,
                                  minlength=m * k).reshape(m, k)
            trials = (count[keep], total[keep], squares[keep])
        out = ItemTask(task, scores, items, models, clusters, weights, repeats, dropped, trials)
        self._tasks[task] = out
        return out

    def task_table(self, criterion: str | None = None):
        """The mean score per task (rows) and model (columns) as a :class:`ScoreTable` (higher
        is better; the items each cell averages in ``counts``)."""
        from .table import ScoreTable

        tasks = [self.task_matrix(t) for t in self.tasks]
        values = np.array([task_means(t) for t in tasks])
        counts = np.array([[len(t.items)] * len(self.models) for t in tasks])
        return ScoreTable(values=values, datasets=self.tasks, learners=self.models,
                          higher_is_better=True, direction_source="source",
                          criterion=criterion or self.metric or "score", aggregate="mean",
                          counts=counts, source=self.source, cells=TASK_CELLS)


def _repeated(source, model, item, task) -> RankwiseError:
    """The one line for a (model, task, item) given twice without a ``repeat`` column, whether
    the table's read finds it or, above ``EAGER_DUPLICATE_CHECK`` rows, the task's matrix."""
    return RankwiseError(f"{source}: model {model!r} has several scores for item {item!r} of"
                         f" task {task!r}; add a 'repeat' column if they are repeated samples")


def _roles(columns, source, missing: str) -> dict:
    """Each role a long table has → its column (any case), or the line for what is wrong."""
    if missing not in ITEM_MISSING:
        raise RankwiseError(f"--missing for items must be {' or '.join(ITEM_MISSING)};"
                            f" got {missing!r}")
    lower = {str(c).lower(): c for c in columns}
    absent = [c for c in ITEM_COLUMNS[:4] if c not in lower]
    if absent:
        raise RankwiseError(f"{source}: an item table needs the columns model, task, item,"
                            f" score; missing {', '.join(absent)} (its columns are"
                            f" {', '.join(map(str, list(columns)[:8]))})")
    return {c: lower[c] for c in ITEM_COLUMNS if c in lower}


def _bad_score(source, row: int, count: int, shown: str) -> RankwiseError:
    """The line for scores not finite (``row`` from 0, ``shown`` as pandas prints it)."""
    from .._validate import MAX_ABS_SCORE

    return RankwiseError(f"{source}: row {row + 1} has score {shown!r}, not a finite number of"
                         f" at most {MAX_ABS_SCORE:.0e} in magnitude ({count} such rows); give"
                         f" each scored item a number (0/1 for right/wrong)")


def _bad_weight(source, row: int, count: int, shown: str) -> RankwiseError:
    """The one line for weights that are not finite numbers above 0, as :func:`_bad_score`."""
    return RankwiseError(f"{source}: weights must be finite numbers above 0; row {row + 1} has"
                         f" {shown!r} ({count} such rows)")


def _no_label(source, row: int, name: str) -> RankwiseError:
    """The one line for a row (from 0) without a model, task or item."""
    return RankwiseError(f"{source}: row {row + 1} has no {name}; every row needs a model, a"
                         f" task and an item")


def _labels(column: pd.Series, name: str, source: str) -> pd.Series:
    """A label column as a categorical of strings (the labels are stored once, the rows as
    codes), or one line naming a row without one."""
    if column.isna().any():
        raise _no_label(source, int(np.flatnonzero(column.isna().to_numpy())[0]), name)
    if isinstance(column.dtype, pd.CategoricalDtype):
        # unused categories may stay: every use goes through the codes present
        cats = column.cat.categories.astype(str)
        if cats.duplicated().any():
            return column.astype(str).astype("category")
        return column.cat.rename_categories(cats)
    return column.astype(str).astype("category")


def _in_order(column: pd.Series) -> tuple:
    """The categories of a categorical column in the order they first appear (one hash pass
    over the codes, no sort)."""
    cats = column.cat.categories
    return tuple(str(cats[c]) for c in pd.unique(column.cat.codes.to_numpy()))


def task_means(task: ItemTask) -> np.ndarray:
    w = np.ones(len(task.items)) if task.weights is None else task.weights
    return w @ task.scores / w.sum()


# --------------------------------------------------------------------------- readers

def read_items(source, *, reader: str = "auto", metric: str | None = None,
               filter: str | None = None, cluster: str | None = None,
               missing: str = "refuse", sep: str | None = None, decimal: str | None = None,
               columns: dict | str | None = None, duplicates: str | None = None) -> ItemTable:
    """Read scored items from a file, a folder of tool outputs, or a DataFrame.

    Parameters
    ----------
    source : path, list of paths or pandas.DataFrame
        A long table (CSV/TSV/Parquet), or the files an evaluation tool wrote; a folder is
        searched for every file the reader knows (``samples_*.jsonl``, inspect logs,
        ``per_instance_stats.json``, SWE-bench reports).
    reader : {"auto", "items", "lm-eval", "inspect", "helm", "swe-bench", "items-stream", ...}
        Which format (``auto``: by name and content). ``items-stream``: Parquet read a task at
        a time by Dask (:class:`ItemStream`); ``items-duckdb``: a Parquet file queried in place
        (:class:`ItemQuery`, also ``auto`` from ``item_sql.QUERY_ROWS`` rows), same numbers.
    metric : str, optional
        Which per-item metric to take where a file has several (lm-eval's ``acc`` or
        ``acc_norm``, an inspect scorer, a HELM statistic); default: the first the file lists
        (said in the notes). lm-eval: a comma-separated list takes, in each file, the first
        it has (``acc_norm,exact_match`` over a multiple-choice and a generation task).
    filter : str, optional
        lm-eval logs one record per document and filter (``strict-match``,
        ``flexible-extract``...); each document is counted once, under this filter (default:
        the first logged).
    cluster : str, optional
        A field of each item's metadata (lm-eval's ``doc``, inspect's ``metadata``) whose value
        groups items that share a context; clustered standard errors and tests then use it.
    missing : {"refuse", "common"}
        See :class:`ItemTable`.
    sep, decimal : str, optional
        A long text table's separator and decimal mark (sniffed when not given), read by the
        one delimited-text opener of every reader.
    columns : dict or str, optional
        A long table's own column names for the roles ``model``, ``task``, ``item``, ``score``
        (``cluster``, ``weight``, ``repeat``), as ``{"model": "system"}`` or the ``--columns``
        text ``"model=system,task=benchmark"``: the one renaming rule of every long table.
    duplicates : {"refuse", "last", "first"}, optional
        lm-eval writes a rerun's samples beside the earlier run's in the model's folder: two
        files of one task are refused with their names (default), or the newest (``last``) or
        the oldest (``first``) is read (said in the notes).

    Examples
    --------
    >>> import pandas as pd
    >>> from rankwise.tables.items import read_items
    >>> t = read_items(pd.DataFrame({"model": ["a", "b"], "task": ["t", "t"],
    ...                              "item": ["q1", "q1"], "score": [1, 0]}))
    >>> t.reader, t.models
    ('items', ('a', 'b'))
    """
    registry.check(reader, "items")
    source = as_pandas(source)
    if isinstance(source, pd.DataFrame):
        frame = _clustered(_renamed(source, columns, "DataFrame"), cluster, filter, "DataFrame")
        return ItemTable.from_frame(frame, missing=missing)
    if reader == "items-stream":
        if missing not in ITEM_MISSING:
            raise RankwiseError(f"--missing for items must be {' or '.join(ITEM_MISSING)};"
                                f" got {missing!r}")
        for flag, value in (("--item-filter", filter), ("--cluster", cluster)):
            if value is not None:
                raise RankwiseError(f"{source}: {flag} is not read by --source items-stream"
                                    " (name the table's columns model, task, item, score,"
                                    " cluster)")
        with reading(source, "a Parquet table of items"):
            return ItemStream(Path(source), missing=missing)
    paths = [Path(p) for p in (source if isinstance(source, (list, tuple)) else [source])]
    files = []
    for p in paths:
        if p.is_dir():
            files += registry.item_files(p)
        elif p.is_file():
            files.append(p)
        else:
            raise RankwiseError(f"{p}: no such file or folder")
    kinds = {f: (reader if reader != "auto" else registry.item_kind(f)) for f in files}
    used = sorted(set(kinds.values()))
    if len(used) > 1:
        raise RankwiseError(f"{paths[0]}: the files are of different kinds ({', '.join(used)});"
                            f" read one kind at a time")
    kind = used[0]
    notes: list = []
    if kind in ("items", "items-duckdb"):
        if len(files) != 1:
            raise RankwiseError("give one long item table at a time")
        options = {"sep": sep, "decimal": decimal, "columns": columns, "cluster": cluster,
                   "filter": filter, "missing": missing}
        query = _queried(files[0], reader, options)
        return query if query is not None else _long_table(files[0], **options)
    if columns is not None:
        raise RankwiseError(f"{paths[0]}: --columns names a long item table's columns; {kind}"
                            " files have their own fields (--metric, --cluster choose among"
                            " them)")
    if filter is not None and kind != "lm-eval":
        raise RankwiseError(f"{paths[0]}: --item-filter {filter} chooses among lm-eval's"
                            f" filters; {kind} files have none (leave it out)")
    read = {"lm-eval": lm_eval, "inspect": inspect_log, "helm": helm, "swe-bench": swe_bench,
            "every-eval-ever-items": every_eval_ever_items, "openeval": openeval}[kind]
    if kind == "lm-eval":
        files = lm_eval_runs(files, duplicates, notes)
    frames, metrics, corpus, logged = [], [], [], set()
    for f in files:
        # inspect keeps errored samples in its log: --missing says whether to leave them out
        also = ({"missing": missing} if kind == "inspect" else
                {"filters": logged} if kind == "lm-eval" else {})
        try:
            with reading(f, f"{kind} files"):
                frame, chosen = read(f, metric=metric, filter=filter, cluster=cluster,
                                     notes=notes, **also)
        except CorpusLevel as exc:      # lm-eval's perplexities: never averaged as items
            corpus.append(exc)
            continue
        frames.append(frame)
        metrics.append(chosen)
    if filter is not None and kind == "lm-eval" and filter not in logged:
        raise RankwiseError(f"{paths[0]}: --item-filter {filter}: no file logs it (the filters"
                            f" logged: {', '.join(sorted(map(str, logged)))})")
    lm_eval_corpus(corpus, len(frames), str(paths[0]), notes)
    chosen = ",".join(dict.fromkeys(m for m in metrics if m))
    frame = pd.concat(frames, ignore_index=True)
    if kind == "swe-bench":
        frame = swe_bench_missing(frame, notes)
    shown = str(paths[0]) if len(paths) == 1 else f"{paths[0]} and {len(paths) - 1} more"
    return ItemTable.from_frame(frame, source=shown, reader=kind, notes=_unique(notes),
                                missing=missing, metric=chosen)


def _long_table(path: Path, *, sep, decimal, columns, cluster, filter, missing) -> ItemTable:
    """A long item table read whole into pandas (``--source items``)."""
    notes: list = []
    with reading(path, "a long item table"):
        frame = _read_long(path, sep, decimal, notes)
    frame = _clustered(_renamed(frame, columns, str(path)), cluster, filter, str(path))
    return ItemTable.from_frame(frame, source=str(path), missing=missing, notes=_unique(notes))


def _queried(path: Path, reader: str, options: dict):
    """The table queried in place (:func:`rankwise.tables.item_sql.plan_query`), or None."""
    from .item_sql import plan_query

    def roles_of(columns):      # the roles as the whole read finds them, on the columns alone
        empty = pd.DataFrame(columns=pd.Index(columns, dtype=object))
        renamed = _clustered(_renamed(empty, options["columns"], str(path)),
                             options["cluster"], options["filter"], str(path)).columns
        place = {name: i for i, name in enumerate(renamed)}
        return {role: columns[place[name]] for role, name in
                _roles(renamed, str(path), options["missing"]).items()}

    planned = plan_query(path, reader, roles_of)
    return None if planned is None else ItemQuery.open(path, *planned, options)


def _renamed(frame: pd.DataFrame, columns, label: str) -> pd.DataFrame:
    """The long table with its columns renamed to the roles ``columns`` maps them to."""
    from .sources import mapping_of

    given = mapping_of(columns, frame.columns, label, ITEM_COLUMNS)
    return frame.rename(columns={column: role for role, column in given.items()})


def _clustered(frame: pd.DataFrame, cluster, filter, label: str) -> pd.DataFrame:
    """A long table with ``cluster`` (a column's name) as its cluster column; one line when it
    names no column, or when a filter is asked of a table (only lm-eval logs filters)."""
    if filter is not None:
        raise RankwiseError(f"{label}: --item-filter {filter} chooses among lm-eval's filters;"
                            " a long item table has none (leave it out)")
    if cluster is None:
        return frame
    found = [c for c in frame.columns if str(c) == cluster] or \
        [c for c in frame.columns if str(c).lower() == cluster.lower()]
    if not found:
        raise RankwiseError(f"{label}: --cluster {cluster}: no such column to cluster on; the"
                            f" columns are {', '.join(map(str, frame.columns[:12]))}")
    if str(found[0]).lower() == "cluster":
        return frame
    lower = {str(c).lower(): c for c in frame.columns}
    if "cluster" in lower:
        raise RankwiseError(f"{label}: --cluster {cluster} and the table's own cluster column:"
                            " give one (leave --cluster out to use the column)")
    return frame.rename(columns={found[0]: "cluster"})


def _unique(notes):
    return tuple(dict.fromkeys(notes))


def is_item_file(path) -> bool:
    """Whether ``path`` looks like scored items (for ``compare``'s detection): see
    :func:`rankwise.tables.registry.is_items`."""
    return registry.is_items(path)


def _read_long(p: Path, sep, decimal=None, notes=None) -> pd.DataFrame:
    """A long item table: Parquet (labels as dictionaries), or delimited text through the one
    opener every reader shares (separator and decimal mark sniffed or given, said in notes)."""
    if p.suffix.lower() != ".parquet":
        from .delimited import read_delimited

        return read_delimited(p, sep=sep, decimal=decimal, text="infer", notes=notes)
    try:
        import pyarrow.parquet as pq

        # labels read as dictionaries (pandas categoricals): 20 million rows of repeated
        # model, task and item names stay a few hundred megabytes
        names = {c.lower(): c for c in pq.read_schema(p).names}
        labels = [names[c] for c in ("model", "task", "item", "cluster") if c in names]
        return pq.read_table(p, read_dictionary=labels).to_pandas()
    except ImportError:
        raise RankwiseError(f"{p}: reading Parquet needs pyarrow: pip install"
                            f" 'rankwise[parquet]'") from None
    except (OSError, ValueError) as exc:
        raise RankwiseError(f"{p}: cannot be read as a table ({str(exc).splitlines()[0]})") from None


# --------------------------------------------------------------------------- streams
# Scored items beyond one machine's memory: a Parquet file or folder read one task at a time
# through Dask DataFrame (``rankwise[dask]``), so that only one task's items × models matrix is
# ever in memory.
# :class:`ItemStream` answers what :func:`rankwise.compare_items` asks of an item table — the
# models, the tasks, each task's matrix, the task-level table — by reading, for each task, only
# the Parquet row groups whose ``task`` matches (Dask pushes the filter down to the files). The
# task's matrix is then built by the same code as in memory (:meth:`ItemTable.task_matrix`), so
# both paths give the same numbers; ``tests/test_items.py`` checks it on a scaled-down table.
# rankwise compare items_parquet/ --items --source items-stream

@contextlib.contextmanager
def _quiet():
    """Dask's own deprecation notices about pandas (its internals, not the user's table) are
    not the user's business."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", module=r"dask(\.|$)")
        warnings.filterwarnings("ignore", category=DeprecationWarning)
        warnings.filterwarnings("ignore", category=FutureWarning)
        yield


@dataclass
class ItemStream:
    """Scored items in Parquet, read task by task (Dask DataFrame).

    Models and tasks are listed in sorted order (a stream has no "first appearance" without
    reading everything in order). ``pairs`` of the comparison: ``"significant"`` (each task keeps
    only the pairs that differ; a task of 2,000 models has 1,999,000 pairs).

    Examples
    --------
    >>> import tempfile, pathlib, rankwise
    >>> from rankwise.tables.items import ItemStream
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> rankwise.load_items_example("evals").frame.to_parquet(folder / "items.parquet")
    >>> s = ItemStream(folder / "items.parquet")
    >>> s.tasks, s.models
    (('arith', 'code', 'reading', 'trivia'), ('alpha', 'beta', 'delta', 'gamma'))
    """

    path: Path
    missing: str = "refuse"
    reader: str = "items-stream"
    notes: tuple = ()
    metric: str | None = None
    _cache: dict = field(default_factory=dict, repr=False)

    def __post_init__(self):
        self.path = Path(self.path)
        if not self.path.exists():
            raise RankwiseError(f"{self.path}: no such file or folder")
        try:
            import dask.dataframe  # noqa: F401  (only: is it installed?)
        except ImportError:
            raise RankwiseError("reading items task by task needs Dask: pip install"
                                " 'rankwise[dask,parquet]'") from None
        columns = self._columns()
        absent = [c for c in ITEM_COLUMNS[:4] if c not in columns]
        if absent:
            raise RankwiseError(f"{self.path}: an item table needs the columns model, task,"
                                f" item, score; missing {', '.join(absent)}")
        self.notes = tuple(self.notes) + (
            "read task by task from Parquet (Dask): models and tasks in sorted order; each"
            " task keeps only the pairs that differ",)

    @property
    def source(self) -> str:
        return str(self.path)

    def _columns(self) -> list:
        import pyarrow.dataset as ds

        try:
            names = ds.dataset(str(self.path), format="parquet", partitioning="hive").schema.names
        except (OSError, ValueError) as exc:   # pyarrow's ArrowInvalid is a ValueError
            raise RankwiseError(f"{self.path}: not a Parquet file or folder"
                                f" ({brief(exc, self.path)})") from None
        if not names:
            raise RankwiseError(f"{self.path}: no .parquet file in this folder")
        return [c for c in names if c in ITEM_COLUMNS]

    def _frame(self, columns, filters=None):
        import dask.dataframe as dd

        # categories=[]: no column is made a categorical of known categories up front. A
        # folder that pandas wrote with categorical columns partitioned by one of them
        # (ItemTable.frame.to_parquet(folder, partition_cols=["task"])) lists in its pandas
        # metadata a category the files lack, and Dask's default stopped on it ("Not all
        # columns are categoricals"); the rows read keep their dtypes, which every use reads
        # as labels (from_frame) or as text (astype(str)).
        return dd.read_parquet(str(self.path), columns=columns, filters=filters, categories=[])

    def _unique(self, column: str) -> tuple:
        if column not in self._cache:
            with _quiet():
                values = self._frame([column])[column].astype(str).unique().compute()
            self._cache[column] = tuple(sorted(values))
        return self._cache[column]

    @property
    def models(self) -> tuple:
        return self._unique("model")

    @property
    def tasks(self) -> tuple:
        return self._unique("task")

    @property
    def n_outcomes(self) -> int:
        if "n" not in self._cache:
            with _quiet():
                self._cache["n"] = int(self._frame(["task"]).shape[0].compute())
        return self._cache["n"]

    @property
    def binary(self) -> bool:
        if "binary" not in self._cache:
            with _quiet():
                s = self._frame(["score"])["score"]
            with _quiet():
                self._cache["binary"] = bool((~s.isin([0, 1])).sum().compute() == 0)
        return self._cache["binary"]

    def task_items(self, task: str) -> ItemTable:
        """The task's rows as an in-memory :class:`ItemTable` whose models are all the
        stream's (a model without rows in the task has every item missing)."""
        if task not in self.tasks:
            raise RankwiseError(f"no task {task!r}; the tasks are {', '.join(self.tasks[:10])}")
        columns = self._columns()
        with _quiet():
            part = self._frame(columns, filters=[("task", "==", task)]).compute()
        table = ItemTable.from_frame(part.reset_index(drop=True), source=self.source,
                                     reader=self.reader, missing=self.missing)
        return table.align(self.models)

    def task_matrix(self, task: str):
        return self.task_items(task).task_matrix(task)

    def task_table(self, criterion: str | None = None):
        """The mean score per task and model, one task read at a time."""
        from .table import ScoreTable

        if "table" not in self._cache:
            rows, counts = [], []
            for t in self.tasks:
                m = self.task_matrix(t)
                rows.append(task_means(m))
                counts.append([len(m.items)] * len(self.models))
            self._cache["table"] = ScoreTable(
                values=np.array(rows), datasets=self.tasks, learners=self.models,
                higher_is_better=True, direction_source="source",
                criterion=criterion or self.metric or "score", aggregate="mean",
                counts=np.array(counts), source=self.source, cells=TASK_CELLS)
        return self._cache["table"]


# --------------------------------------------------------------------------- queries
class ItemQuery(ItemTable):
    """Scored items in a Parquet file queried in place by DuckDB (``rankwise[duckdb]``, the SQL
    in :mod:`rankwise.tables.item_sql`), one task in memory at a time: what
    :func:`rankwise.compare_items` asks of an :class:`ItemTable` comes from the file, with the
    whole read's numbers, notes and messages (``reader`` is ``items``; ``engine`` ``duckdb``);
    ``frame`` (the gate, the planner) loads the table whole, as ``--source items`` does.

    Examples
    --------
    >>> import tempfile, pathlib, rankwise
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "items.parquet"
    >>> rankwise.load_items_example("evals").frame.to_parquet(path)
    >>> t = rankwise.read_items(path, reader="items-duckdb")
    >>> t.engine, t.models, t.task_matrix("arith").scores.shape
    ('duckdb', ('alpha', 'beta', 'gamma', 'delta'), (120, 4))
    """

    engine = "duckdb"

    def __init__(self, sql, source: str, options: dict, found: dict):
        # a frozen dataclass's fields, set once here; ``frame`` is a property (loaded on use)
        for name, value in (("sql", sql), ("source", source), ("reader", "items"), ("notes", ()),
                            ("missing", options["missing"]), ("metric", None), ("_options", options),
                            ("_found", found), ("_tasks", {})):
            object.__setattr__(self, name, value)

    @classmethod
    def open(cls, path: Path, roles: dict, layout, options: dict) -> "ItemQuery":
        """Query ``path`` (``roles``: role → its column) and make the checks of a long table,
        each failing with the line :meth:`ItemTable.from_frame` gives."""
        from .item_sql import ItemSQL, engine_errors

        source = str(path)
        with engine_errors(source):
            sql = ItemSQL(path, roles, layout)
            found = sql.findings(EAGER_DUPLICATE_CHECK)
        for name, row in found["no_label"].items():
            if row is not None:
                raise _no_label(source, row, name)
        if not found["rows"]:
            raise RankwiseError(f"{source}: no scored items")
        for problem, bad in (("score", _bad_score), ("weight", _bad_weight)):
            if found[problem]:
                raise bad(source, *found[problem])
        if found["repeated"]:             # at most EAGER_DUPLICATE_CHECK rows, as in memory
            raise _repeated(source, *found["repeated"])
        return cls(sql, source, options, found)

    def __repr__(self) -> str:
        return f"ItemQuery({self.source!r}, engine='duckdb')"

    __eq__, __hash__ = object.__eq__, object.__hash__

    @property
    def frame(self) -> pd.DataFrame:
        """The whole table in pandas, as ``--source items`` reads it (for the analyses that
        read every row: the gate, the planner)."""
        if "_frame" not in self._tasks:
            self._tasks["_frame"] = _long_table(Path(self.source), **self._options).frame
        return self._tasks["_frame"]

    @property
    def models(self) -> tuple:
        return self.sql.in_order("model")

    @property
    def tasks(self) -> tuple:
        return self.sql.in_order("task")

    @property
    def binary(self) -> bool:
        return self._found["binary"]

    @property
    def n_outcomes(self) -> int:
        return self._found["rows"]

    def task_matrix(self, task: str) -> ItemTask:
        """The task's matrix, from its rows alone (not kept: a task at a time in memory)."""
        if task not in self.tasks:
            raise RankwiseError(f"no task {task!r}; the tasks are {', '.join(self.tasks[:10])}")
        table = ItemTable(self.sql.task_frame(task), self.source, self.reader, self.notes,
                          self.missing, self.metric)
        return table.align(self.models).task_matrix(task)
