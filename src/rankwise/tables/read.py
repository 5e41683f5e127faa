"""Reading result tables: wide or long CSV/TSV files and pandas DataFrames.

Everything a user can get wrong in a table is checked here, with a one-line message that names
the place and the fix. The statistical modules receive a clean :class:`ScoreTable`.
"""

from __future__ import annotations

import os
from dataclasses import replace
from functools import partial

import numpy as np
import pandas as pd

from .. import _validate as check
from ..errors import RankwiseError
from ..names import (AGGREGATES, BOARD_MISSING, DECIMAL_MARKS, DUPLICATES,  # noqa: F401
                     MISSING_IMPUTE, MISSING_KEEP, MISSING_POLICIES, SHAPES, imputed_from)
from .cells import MISSING_TOKENS, NA_SPELLINGS  # noqa: F401  (re-exported)
from .cells import number_columns
from .cells import parse_numbers as _parse_numbers
from .cells import text as _text
from ..names import ITEM_SOURCES
from . import registry, trackers
from .sources import ROLES, Reading, duplicates_policy, read_as
from .delimited import MAX_CELL, check_header, looks_long as _looks_long, read_delimited
from .finish import finish as _finish
from .table import ScoreTable
from .eval_records import aggregate_frame, is_aggregate_path
from .._text import brief
from .frames import as_pandas

LONG_REQUIRED = ("dataset", "learner", "value")
LONG_OPTIONAL = ("criterion", "repeat", "fold")


def load_table(source, *, shape: str = "auto", criterion: str | None = None,
               higher_is_better: bool | None = None, aggregate: str = "median",
               missing: str = "refuse", sep: str | None = None, columns: dict | None = None,
               source_format: str = "auto", duplicates: str | None = None,
               where: dict | str | None = None, decimal: str | None = None,
               min_learners: int = 2) -> ScoreTable:
    """Read a table of results into a :class:`ScoreTable`.

    Parameters
    ----------
    source : path, pandas.DataFrame or 2-D array
        A CSV/TSV file, a DataFrame or an array (rows data sets, columns learners; named
        D1…DN and L1…Lk, said in the notes). *Wide*: the first column names the data set, every
        other column is a learner. *Long*: columns ``dataset``, ``learner``, ``value`` and optionally
        ``criterion``, ``repeat``, ``fold`` (names are case-insensitive).
    shape : {"auto", "wide", "long"}
        ``auto`` reads a table as long when it has ``learner`` and ``value`` columns.
    criterion : str, optional
        Which criterion to analyse when a long table has a ``criterion`` column; also sets the
        direction for known names (``error``, ``pf``, ``runtime``... are lower-is-better).
    higher_is_better : bool, optional
        Overrides the direction. Default: from the criterion if known, else True.
    aggregate : {"median", "mean"}
        How repeats × folds of one (data set, learner) are combined. Folds are never data sets.
    missing : {"refuse", "drop-datasets", "drop-learners", "skillings-mack", "worst", \
"impute:LEARNER"}
        What to do with cells that have no value. Dropped names are recorded in the result.
        ``skillings-mack`` keeps every available cell (missing ones stay NaN) for the
        Skillings-Mack test and pairwise tests on the data sets each pair shares. ``worst``
        fills a missing cell with the worst score on its data set; ``impute:LEARNER`` with
        that learner's score on the data set (the AutoML benchmark's rule for a failed job,
        with its constant predictor as the learner). Filled cells are listed in the report.
    sep : str, optional
        Field separator; by default a tab for ``.tsv``/``.tab`` files or a first line with tabs
        and no commas, a semicolon for a first line with semicolons and no commas, else a
        comma (what was taken is stated when it is not a comma).
    decimal : {".", ","}, optional
        Decimal mark of the numbers; by default a comma when the separator is a semicolon and
        the numbers are written with decimal commas (stated in the report), else a point.
    min_learners : int, default 2
        The fewest learners a table may have (a comparison needs two; one run of the
        regression gate, :func:`rankwise.gate`, has one).
    duplicates : {"refuse", "last", "first"}, optional
        Rows that repeat a (data set, learner, repeat, fold): refuse them (naming the pairs of
        rows), or keep the last or the first of each. Default: ``last`` for the AutoML
        benchmark's results (re-runs appended to a results file replace the earlier job, as the
        benchmark itself reads them), ``refuse`` for every other table. Kept rows are stated.
    where : dict or str, optional
        Keep only the rows whose columns hold these values, before anything else is read:
        ``{"constraint": "1h8c_gp3"}`` or ``"constraint=1h8c_gp3,framework=RandomForest|TPOT"``
        (``|`` separates the values a column may have). Any format, any column.
    columns : dict, optional
        Which of the table's columns plays which role: ``{"dataset": "task", "learner":
        "framework", "value": "result", "fold": "fold", "criterion": "metric"}`` (roles
        ``dataset``, ``learner``, ``value``, ``criterion``, ``repeat``, ``fold``); roles left
        out are taken from columns of their own name. The table is then read as a long table.
    source_format : {"auto", "rankwise", "amlb", "openml", "mlr3", "weka", "tabarena", ...}
        A format written by another tool (:mod:`rankwise.tables.sources`; every ``--source`` is
        in :mod:`rankwise.tables.registry`): ``auto`` recognises the AutoML benchmark's
        results, OpenML's evaluation listings, mlr3's benchmark tables, WEKA's result files,
        TabArena's results and the runs of MLflow and Weights & Biases
        (:mod:`rankwise.tables.trackers`) from their headers, Every Eval Ever aggregate
        records (a ``.json`` file or a folder of them) from their keys; ``rankwise`` reads the
        table as rankwise's own. ``source`` may also be an MLflow tracking store: a tracking
        URI (``sqlite:///mlflow.db``), its SQLite file or an ``mlruns/`` folder (the mlflow
        extra).
        ``columns`` overrides any choice the format makes.

    Examples
    --------
    >>> import pandas as pd
    >>> from rankwise import load_table
    >>> frame = pd.DataFrame({"dataset": ["iris", "wine", "glass"],
    ...                       "tree": [0.93, 0.90, 0.66], "knn": [0.95, 0.94, 0.70]})
    >>> t = load_table(frame)
    >>> t.learners, t.datasets, t.higher_is_better
    (('tree', 'knn'), ('iris', 'wine', 'glass'), True)
    >>> errors = frame.rename(columns={"tree": "tree_error"})
    >>> load_table(errors, criterion="error").higher_is_better
    False
    """
    check.choice("shape", shape, SHAPES)
    check.choice("aggregate", aggregate, AGGREGATES)
    missing = missing_policy(missing)
    registry.check(source_format, "table", "items")
    if source_format in ITEM_SOURCES:
        raise RankwiseError(f"--source {source_format} is scored item by item: read it with"
                            f" rankwise.read_items (rankwise compare FILE --items), which"
                            f" compares the models item by item and across tasks")
    _check_reading(duplicates, decimal)
    conditions = parse_where(where)
    run_status = None
    file_notes: list = []
    source = as_pandas(source)      # a Polars, Arrow or DuckDB table: read as pandas reads it
    if isinstance(source, (np.ndarray, list, tuple)):
        source = _array_frame(source)
    if not isinstance(source, (pd.DataFrame, str, os.PathLike)):
        raise RankwiseError(f"a table is read from a file path, a data frame (pandas, Polars,"
                            f" PyArrow, DuckDB...), a 2-D array or a ScoreTable; got"
                            f" {type(source).__name__}")
    if isinstance(source, pd.DataFrame):
        frame, label = _named(source), "DataFrame"
        file_notes += list(source.attrs.get("rankwise_notes", ()))
    elif trackers.is_store(source):   # the runs as their CSV export has them
        frame, label = _read_store(source, file_notes), str(source)
    elif _is_results_db(source):
        if columns is not None or source_format not in ("auto", "rankwise"):
            raise RankwiseError(f"{source}: a results database has its own columns; --columns"
                                " and --source apply to tables")
        frame, run_status = _read_results_db(source)
        label, shape = str(source), "long"
    else:
        frame, label = _read_file(source, sep, decimal, file_notes), str(source)
    if conditions:
        frame = _filtered(frame, conditions, label, file_notes)
    reading = None
    found = None if run_status is not None else read_as(
        frame.reset_index(drop=True), source_format=source_format, columns=columns,
        criterion=criterion, label=label, duplicates=duplicates)
    if found is not None:
        if shape == "wide":
            raise RankwiseError(f"{label}: --shape wide cannot go with a column mapping or"
                                " another tool's format, which are long tables")
        frame, reading, criterion = found
        shape = "long"
    elif isinstance(source, pd.DataFrame):
        frame = _arranged(frame)
    scores = None   # the criterion's column, read as the values
    if found is None and shape != "wide":
        frame, scores = _criterion_as_value(frame, criterion, file_notes)
    lower = {c.strip().lower(): c for c in frame.columns if c != "_row"}
    is_long = _looks_long(frame.columns) if shape == "auto" else shape == "long"
    duplicates = duplicates_policy(reading.source if reading is not None else None, duplicates)
    if is_long:
        table = _from_long(frame, lower, criterion, aggregate, label,
                           shown=reading.columns if reading is not None else None,
                           duplicates=duplicates)
    else:
        # the columns a --where filter read are not learners of a wide table
        filters = {k.lower() for k in conditions}
        used = [c for c in frame.columns[1:] if c == "_row" or str(c).strip().lower() in filters]
        table = _from_wide(frame.drop(columns=used), label, forced=shape == "wide")
    if reading is None:
        source_kind = "results-db" if run_status is not None else (
            "long" if is_long else "wide")
        reading = Reading(source_kind, {r: scores if r == "value" and scores else lower[r]
                                        for r in ROLES if r in lower} if is_long else {})
    if file_notes:
        reading = replace(reading, notes=tuple(file_notes) + tuple(reading.notes))
    table = replace(table, reading=reading, warnings=table.warnings + (
        (reading.failed,) if reading.failed else ()),
        criteria=reading.criteria or table.criteria)
    policy = missing
    if run_status is not None:
        table, policy = _of_a_run(table, run_status, missing)
    return replace(_finish(table, criterion, higher_is_better, policy, min_learners),
                   reread=partial(load_table, source, shape=shape, criterion=criterion,
                                  higher_is_better=higher_is_better, aggregate=aggregate,
                                  missing=missing, sep=sep, columns=columns,
                                  source_format=source_format, duplicates=duplicates,
                                  where=where, decimal=decimal, min_learners=min_learners))


def _check_reading(duplicates, decimal) -> None:
    if duplicates is not None:
        check.choice("duplicates", duplicates, DUPLICATES)
    if decimal is not None and decimal not in DECIMAL_MARKS:
        raise RankwiseError(f"decimal must be '.' or ','; got {decimal!r}")


def _of_a_run(table: ScoreTable, run_status: dict, missing: str) -> tuple:
    """``(table, missing)`` of a results database: the learners in the experiment's order, and
    what the run's state means for the analysis (unfinished, failed tasks, raced)."""
    table = _design_order(table, run_status.get("learners", ()))
    if not run_status["complete"] and not run_status.get("race"):
        table = replace(table, warnings=table.warnings + (
            f"the run is unfinished: {run_status['finished_tasks']} of"
            f" {run_status['total_tasks']} tasks are done ({run_status['failed_tasks']} failed);"
            " results may change when it completes",))
    elif run_status["failed_tasks"]:
        table = replace(table, warnings=table.warnings + (
            f"{run_status['failed_tasks']} task(s) failed; their values are missing",))
    if run_status.get("race"):
        return _raced(table, run_status["race"], missing)
    return table, missing


def _design_order(table: ScoreTable, learners) -> ScoreTable:
    """The learners in the experiment's order (a raced or failed learner may first appear on
    a later data set of the file)."""
    rank = {name: i for i, name in enumerate(learners)}
    idx = sorted(range(len(table.learners)),
                 key=lambda j: (rank.get(table.learners[j], len(rank)), j))
    if idx == list(range(len(table.learners))):
        return table
    return replace(table, values=table.values[:, idx], counts=table.counts[:, idx],
                   learners=tuple(table.learners[j] for j in idx))


def _raced(table: ScoreTable, race: dict, missing: str) -> tuple:
    """``(table, missing)`` for a raced results file: the learners the race eliminated were
    not run on later data sets, so by default (``missing="refuse"``) only the data sets on
    which every learner ran are analysed (``drop-datasets``), and the notes say so; an explicit
    policy is kept (``drop-learners``: the survivors on every data set the race took)."""
    s = race["settings"]
    said = (f"This results file was raced on {s['criterion']} (rankwise run --race, alpha ="
            f" {s['alpha']:g}): ")
    out = race["eliminations"]
    said += (", ".join(f"{e['learner']} was eliminated by {e['by']} after {e['step']} data"
                       f" sets" for e in out) + "; " if out else "no learner was eliminated; ")
    said += (f"the race took {race['steps']} of {race['datasets']} data sets"
             + ("" if race["finished"] else " so far (it is unfinished: results may change"
                " when it completes)") + f" and left {race['tasks_not_needed']} tasks unrun.")
    if missing == "refuse":
        missing = "drop-datasets"
        said += (" Only the data sets on which every learner ran are analysed here; --missing"
                 " drop-learners analyses the learners left on every data set taken.")
    return replace(table, warnings=table.warnings + (said,)), missing


def board_policy(missing: str) -> str:
    """The policy a leaderboard's ``missing`` reads the table with: ``keep`` keeps the cells
    (``skillings-mack`` here), the others are compare's; Skillings-Mack's test is not the
    board's (:data:`rankwise.names.BOARD_MISSING`)."""
    if missing == MISSING_KEEP:
        return "skillings-mack"
    if missing in BOARD_MISSING or (isinstance(missing, str) and imputed_from(missing)):
        return missing_policy(missing)
    raise RankwiseError(f"missing must be one of {', '.join(BOARD_MISSING)} or"
                        f" impute:LEARNER; got {missing!r}")


def missing_policy(missing: str) -> str:
    """``missing`` checked: one of ``MISSING_POLICIES`` or ``impute:LEARNER``."""
    if isinstance(missing, str) and imputed_from(missing) is not None:
        name = imputed_from(missing).strip()
        if not name:
            raise RankwiseError("missing=impute: needs the learner whose score fills a missing"
                                " cell, e.g. --missing impute:constantpredictor")
        return MISSING_IMPUTE + name
    if missing not in MISSING_POLICIES:
        raise RankwiseError(f"missing must be one of {', '.join(MISSING_POLICIES)} or"
                            f" impute:LEARNER; got {missing!r}")
    return missing


def parse_where(where) -> dict:
    """``"col=a|b,other=c"`` or ``{col: value or [values]}`` → ``{col: [values as text]}``."""
    if where is None:
        return {}
    if isinstance(where, str):
        out = {}
        for part in where.split(","):
            if not part.strip():
                continue
            column, sep, values = part.partition("=")
            if not sep or not column.strip():
                raise RankwiseError(f"--where takes COLUMN=VALUE conditions separated by commas"
                                    f" (e.g. constraint=1h8c_gp3); got {part.strip()!r}")
            out.setdefault(column.strip(), []).extend(v.strip() for v in values.split("|"))
        if not out:
            raise RankwiseError("--where is empty; give COLUMN=VALUE, e.g. constraint=1h8c_gp3")
        return out
    if isinstance(where, dict):
        return {str(c).strip(): [str(v).strip() for v in (vals if isinstance(vals, (list, tuple,
                set)) else [vals])] for c, vals in where.items()}
    raise RankwiseError(f"where must map columns to values, e.g. {{'constraint': '1h8c_gp3'}};"
                        f" got {type(where).__name__}")


def _filtered(frame: pd.DataFrame, conditions: dict, label: str, notes: list) -> pd.DataFrame:
    """The rows that meet every condition, each keeping its row number in the input."""
    frame = frame.copy(deep=False)  # the index stays: a DataFrame may keep its data sets there
    if "_row" not in frame:
        frame["_row"] = np.arange(len(frame)) + 2
    names = [c for c in frame.columns if c != "_row"]
    by_lower = {str(c).strip().lower(): c for c in names}
    keep = np.ones(len(frame), dtype=bool)
    said = []
    for column, values in conditions.items():
        col = column if column in names else by_lower.get(column.lower())
        if col is None:
            raise RankwiseError(f"{label}: --where names no column {column!r}; the table's"
                                f" columns are {', '.join(map(str, names))}")
        cells = _text(frame[col])
        hit = cells.isin(values).to_numpy()
        if not hit.any():
            found = _in_order(cells)
            shown = ", ".join(found[:8]) + (f" and {len(found) - 8} more" if len(found) > 8
                                             else "")
            raise RankwiseError(f"{label}: no row has {col} = {' or '.join(values)}; the column"
                                f" holds {shown}")
        keep &= hit
        said.append(f"{col} = {' or '.join(values)}")
    if not keep.any():
        raise RankwiseError(f"{label}: no row meets every condition of --where"
                            f" ({'; '.join(said)})")
    notes.append(f"Only the rows with {' and '.join(said)} were read ({int(keep.sum())} of"
                 f" {len(frame)}; --where).")
    return frame[keep]


def _is_results_db(source) -> bool:
    from ..experiment.store import is_sqlite

    return isinstance(source, (str, os.PathLike)) and is_sqlite(source)


def _read_results_db(path):
    """A results database as a long table (values of undefined criteria are empty)."""
    from ..experiment.status import read_results

    table, _, status = read_results(path)
    return table.astype({"repeat": str, "fold": str}), status


def _read_store(source, notes: list) -> pd.DataFrame:
    """An MLflow tracking store's runs, read by the reader of their CSV export."""
    return read_delimited(trackers.read_store(source), label=str(source), suffix=".csv",
                          notes=notes)


def read_frame(source, *, sep: str | None = None, decimal: str | None = None,
               where=None) -> tuple:
    """``(frame, label, notes)``: the input's rows as :func:`load_table` reads them before
    it looks at their roles (a file, a DataFrame), filtered by ``where``; ``frame`` is None
    for a results database, which :func:`load_table` reads itself."""
    notes: list = []
    if isinstance(source, pd.DataFrame):
        frame, label = _named(source), "DataFrame"
    elif trackers.is_store(source):
        frame, label = _read_store(source, notes), str(source)
    elif isinstance(source, (str, os.PathLike)) and not _is_results_db(source):
        frame, label = _read_file(source, sep, decimal, notes), str(source)
    else:
        return None, str(source), ()
    conditions = parse_where(where)
    if conditions:
        frame = _filtered(frame, conditions, label, notes)
    return frame, label, tuple(notes)


def _read_file(path, sep: str | None, decimal: str | None = None,
               notes: list | None = None) -> pd.DataFrame:
    """The file as a frame of its columns; what was sniffed or left out goes to ``notes``."""
    notes = [] if notes is None else notes
    if is_aggregate_path(path):   # Every Eval Ever records: a long table of their results
        return aggregate_frame(path)
    binary = _arrow_format(path)
    if binary is not None:   # what rankwise itself writes (export, --pairs) it also reads
        return _read_arrow(path, binary, sep, decimal)
    frame = read_delimited(path, sep=sep, decimal=decimal, notes=notes)
    return _row_names(frame, str(path), notes)


#: The first bytes of the binary tables read: Parquet, and Feather (Arrow IPC, version 2).
ARROW_MAGIC = {b"PAR1": "parquet", b"ARROW1": "feather"}


def _arrow_format(path) -> str | None:
    """``"parquet"`` or ``"feather"`` when the file starts as one, else None."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(6)
    except OSError:
        return None
    return next((kind for magic, kind in ARROW_MAGIC.items() if head.startswith(magic)), None)


def _read_arrow(path, kind: str, sep, decimal) -> pd.DataFrame:
    if sep is not None or decimal is not None:
        raise RankwiseError(f"{path}: a {kind.title()} file has no separator or decimal mark;"
                            " leave out --sep and --decimal")
    try:
        frame = pd.read_parquet(path) if kind == "parquet" else pd.read_feather(path)
    except ImportError:
        raise RankwiseError(f"{path}: reading {kind.title()} needs pyarrow: pip install"
                            " 'rankwise[parquet]'") from None
    except Exception as exc:  # pyarrow's own errors: a damaged file
        raise RankwiseError(f"{path}: cannot read it as {kind.title()}"
                            f" ({brief(exc, path)})") from None
    frame.columns = [str(c) for c in frame.columns]
    if frame.index.name is not None or not isinstance(frame.index, pd.RangeIndex):
        frame = frame.reset_index()   # a named index (data sets) is a column of the table
    return frame


def _row_names(frame: pd.DataFrame, label: str, notes: list) -> pd.DataFrame:
    """R's ``write.csv`` writes its row names as a first column with an empty name: row numbers
    (1, 2, ...) are left out; other names are the data sets of a wide table."""
    if not len(frame.columns) or frame.columns[0] != "":
        return frame
    names = _text(frame.iloc[:, 0])
    lowered = [str(c).strip().lower() for c in frame.columns[1:]]
    numbers = names.tolist() == [str(i) for i in range(1, len(frame) + 1)]
    if names.tolist() == [str(i) for i in range(len(frame))] and registry.table_format(
            frame.columns[1:]) is not None:   # a tool's frame saved by pandas with its index
        notes.append("The first, unnamed column holds pandas' row numbers (to_csv) and was"
                     " left out; to_csv(..., index=False) writes the table without it.")
        return frame.iloc[:, 1:]
    if "dataset" not in lowered and not _looks_long(frame.columns[1:]):
        # a wide table: its rows are the data sets, and R's row names are their names
        what = "row numbers" if numbers else "row names"
        notes.append(f"The first, unnamed column (R's {what}, write.csv) was read as the"
                     " data-set names.")
        return frame.rename(columns={"": "dataset"})
    if numbers:
        notes.append("The first, unnamed column holds R's row numbers (write.csv) and was left"
                     " out; write.csv(..., row.names = FALSE) writes the table without it.")
        return frame.iloc[:, 1:]
    raise RankwiseError(f"{label}: column 1 has no name and holds names, not row numbers"
                        " (R's row names?); name it in the header, or write the table with"
                        " write.csv(..., row.names = FALSE)")



def _array_frame(x) -> pd.DataFrame:
    """A 2-D array of scores (rows data sets, columns learners) as a wide DataFrame whose
    learners are L1…Lk and data sets D1…DN, with a note saying so."""
    if isinstance(x, (list, tuple)):
        lengths = sorted({len(row) if isinstance(row, (list, tuple, np.ndarray)) else 1
                          for row in x})
        if len(lengths) > 1:
            raise RankwiseError(f"the rows of the scores have different lengths"
                                f" ({', '.join(map(str, lengths))}); give every data set one"
                                " score per learner (NaN where one is missing)")
    if np.ndim(x) != 2 or np.shape(x)[1] == 0:
        raise RankwiseError(f"an array of scores must be 2-D (rows data sets, columns learners);"
                            f" got shape {np.shape(x)}")
    n, k = np.shape(x)
    frame = pd.DataFrame(np.asarray(x), columns=[f"L{j + 1}" for j in range(k)])
    frame.insert(0, "dataset", [f"D{i + 1}" for i in range(n)])
    frame.attrs["rankwise_notes"] = (
        f"The scores came as an array: learners L1-L{k} are its columns and data sets D1-D{n}"
        " its rows (a DataFrame with named columns and index gives them names).",)
    return frame


def _named(df: pd.DataFrame) -> pd.DataFrame:
    """The user's DataFrame with its column names as stripped text (each once); numeric columns
    stay numeric, and the index stays (a wide table may keep its data sets there)."""
    df = df.copy(deep=False)
    df.columns = [str(c).strip() for c in df.columns]
    check_header(list(df.columns), "DataFrame")
    complex_ = [c for c in df.columns if pd.api.types.is_complex_dtype(df[c])]
    if complex_:
        raise RankwiseError(f"DataFrame: column {complex_[0]!r} holds complex numbers; scores"
                            " are real (take .real or abs() of it first)")
    return df


def _arranged(df: pd.DataFrame) -> pd.DataFrame:
    """A DataFrame of rankwise's own shape: a wide one gets its data-set column first."""
    lowered = [c.lower() for c in df.columns]
    if _looks_long(df.columns):
        pass  # long
    elif "dataset" in lowered:
        # Wide with a named data-set column: put it first, where wide tables keep it.
        name = df.columns[lowered.index("dataset")]
        df = df[[name] + [c for c in df.columns if c != name]]
    elif len(df.columns) == 0 or pd.api.types.is_numeric_dtype(df.iloc[:, 0]):
        # Wide with the data sets in the index.
        df.insert(0, "dataset", [str(i) for i in df.index])
    return df.reset_index(drop=True)


def check_cell_lengths(frame: pd.DataFrame, columns, label: str, rows=None,
                       shown: str | None = None) -> None:
    """The cells rankwise reads (names, numbers) are at most ``MAX_CELL`` characters: a longer
    one means the wrong file or a broken quote. Columns it does not read are not checked.
    ``shown``: the input's name of the (one) column, where rankwise built it from others."""
    dtypes = dict(zip(frame.columns, frame.dtypes))
    for col in columns:
        if dtypes[col] != object and not pd.api.types.is_string_dtype(dtypes[col]):
            continue
        lengths = frame[col].astype(str).str.len().to_numpy()
        if lengths.size and lengths.max() > MAX_CELL:
            i = int(np.argmax(lengths))
            row = int(rows[i]) if rows is not None else i + 2
            raise RankwiseError(f"{label}: row {row}, column {shown or col!r} has a cell of"
                                f" {int(lengths[i]):,} characters; names and numbers are at"
                                f" most {MAX_CELL:,}, so check that this is the right file")


def _not_scores(first: pd.Series, name, label: str) -> None:
    """A wide table's first column names the data sets: a column of fractional numbers there is
    a table saved without its names, whose first learner would silently become them. (Whole
    numbers are read as names: OpenML's task and data set ids are such names.) A first name
    that is not a number settles it without parsing the others."""
    if len(first) and pd.isna(pd.to_numeric(first.iloc[:1], errors="coerce").iloc[0]):
        return
    numbers = pd.to_numeric(first, errors="coerce")
    if len(first) and numbers.notna().all() and (numbers % 1 != 0).any():
        example = first.iloc[int(np.flatnonzero((numbers % 1 != 0).to_numpy())[0])]
        raise RankwiseError(f"{label}: the first column, {name!r}, holds scores such as"
                            f" {example}, not data-set names; a wide table's first column names"
                            " the data sets: add such a column (or, for a long table, name its"
                            " columns with --columns)")


def _criterion_as_value(frame: pd.DataFrame, criterion, notes: list) -> tuple:
    """A long table whose scores are in a column named after the criterion
    (``dataset,learner,fold,accuracy`` with ``--criterion accuracy``): that column is the
    value column, said in a note. Only where the table has dataset and learner columns and no
    value or criterion column, so the reading is not a guess. Returns ``(frame, the column or
    None)``."""
    if criterion is None:
        return frame, None
    lower = {str(c).strip().lower(): c for c in frame.columns if c != "_row"}
    if not {"dataset", "learner"} <= set(lower) or lower.keys() & {"value", "criterion"}:
        return frame, None
    column = lower.get(str(criterion).strip().lower())
    if column is None or column in (lower["dataset"], lower["learner"]):
        return frame, None
    notes.append(f"The scores are column {column!r}, named by --criterion (the table has no"
                 " value column).")
    return frame.rename(columns={column: "value"}), column


def _not_long(frame: pd.DataFrame, label: str, forced: bool) -> None:
    """A learner column of nothing but names is a long table whose columns have other names
    than dataset, learner and value (or ``--shape wide`` was ``forced`` on it): say how to read
    it instead of blaming its cells."""
    cols = list(frame.columns)
    # Only a column pandas did not read as numbers can hold names: the usual wide table of
    # numbers (a thousand learners) costs one dtype look per column, not a parse.
    numbers = number_columns(frame)
    texts = [c for c in cols[1:] if not numbers[c]]
    filled = {c: _text(frame[c]) != "" for c in texts}
    names = [c for c in texts if filled[c].any()
             and pd.to_numeric(frame[c][filled[c]], errors="coerce").isna().all()]
    if not names:
        return
    scores = [c for c in cols[1:] if c not in names
              and (numbers[c]
                   or pd.to_numeric(frame[c], errors="coerce").notna().any())]
    if names and scores:
        why = "--shape wide" if forced else "it has no learner and value columns"
        mapping = (f"dataset={cols[0]},learner={names[0]},value={scores[0]}"
                   if len(cols) == 3 else "dataset=COLUMN,learner=COLUMN,value=COLUMN")
        raise RankwiseError(f"{label}: read as a wide table ({why}), but column {names[0]!r}"
                            f" holds names such as"
                            f" {_text(frame[names[0]])[filled[names[0]]].iloc[0]!r}; if it is a"
                            f" long table, name its columns: --columns {mapping}")


def _from_wide(frame: pd.DataFrame, label: str, forced: bool = False) -> ScoreTable:
    cols = list(frame.columns)
    check_cell_lengths(frame, cols, label)
    if len(cols) < 2:
        raise RankwiseError(f"{label}: a wide table needs a data-set column and at least two"
                            " learner columns; found only one column (check the separator:"
                            " --sep)")
    datasets = _text(frame.iloc[:, 0])
    _not_scores(frame.iloc[:, 0], cols[0], label)
    _not_long(frame, label, forced)
    if (datasets == "").any():
        row = int(np.flatnonzero((datasets == "").to_numpy())[0]) + 2
        raise RankwiseError(f"{label}: row {row} has no data-set name in the first column")
    dup = datasets[datasets.duplicated()]
    if len(dup):
        raise RankwiseError(f"{label}: data set {dup.iloc[0]!r} appears in more than one row;"
                            " each data set needs exactly one row in a wide table (use a long"
                            " table with repeat/fold columns for several values)")
    learners = cols[1:]
    block = frame.iloc[:, 1:]
    values = None
    numbers = number_columns(block)
    if all(numbers.values()):  # one conversion for all
        values = block.to_numpy(dtype=float)
        if np.isinf(values).any():
            values = None  # the column by column path names the cell
    if values is None:
        values = np.column_stack([
            _parse_numbers(frame[c], lambda i, c=c: f"{label}: row {i + 2}, column {c!r}")
            for c in learners])
    return ScoreTable(values=values, datasets=tuple(datasets.tolist()), learners=tuple(learners),
                      counts=(~np.isnan(values)).astype(np.int8), source=label)


def _from_long(frame, lower, criterion, aggregate, label, shown=None,
               duplicates: str = "refuse") -> ScoreTable:
    """``shown``: the input's names of the roles' columns, for the messages (mapped tables)."""
    shown = shown or {}
    missing_cols = [c for c in LONG_REQUIRED if c not in lower]
    if missing_cols:
        raise RankwiseError(f"{label}: a long table needs the columns dataset, learner, value;"
                            f" missing {', '.join(missing_cols)}")
    col = {name: lower[name] for name in LONG_REQUIRED + LONG_OPTIONAL if name in lower}
    rows_in = frame["_row"].to_numpy() if "_row" in frame else np.arange(len(frame)) + 2
    for name, src in col.items():
        check_cell_lengths(frame, [src], label, rows_in, str(shown.get(name, src)))
    df = pd.DataFrame({name: frame[src] if name == "value" else _text(frame[src])
                       for name, src in col.items()})
    for name in ("dataset", "learner"):
        empty = (df[name] == "").to_numpy()
        if empty.any():
            raise RankwiseError(f"{label}: row {int(np.flatnonzero(empty)[0]) + 2} has an empty"
                                f" {name}")
    df["row"] = frame["_row"].to_numpy() if "_row" in frame else np.arange(len(df)) + 2
    found = ()
    if "criterion" in df:
        found = _in_order(df["criterion"])
        if criterion is None:
            if len(found) > 1:
                raise RankwiseError(f"{label}: the table has several criteria ({', '.join(found)});"
                                    " choose one with --criterion")
            criterion = found[0] if found else None
        elif criterion not in found:
            raise RankwiseError(f"{label}: no rows for criterion {criterion!r}; the table has"
                                f" {', '.join(found)}")
        df = df[df["criterion"] == criterion]
    if df.empty:
        raise RankwiseError(f"{label}: the table has no rows")
    key = ["dataset", "learner"] + [c for c in ("repeat", "fold") if c in df]
    for budget in ("budget", "fraction"):  # curves: the repeated keys differ in this column
        if budget in frame.columns and budget not in df and len(df) == len(frame.loc[df.index]):
            df[budget] = frame.loc[df.index, budget].to_numpy()
    df, dropped = _without_duplicates(df, key, duplicates, label, shown)
    rows = df["row"].to_numpy()
    value_name = str(shown.get("value", lower.get("value", "value")))
    df["value"] = _parse_numbers(df["value"],
                                 lambda i: f"{label}: row {rows[i]}, column {value_name!r}")
    _within_bound(df["value"].to_numpy(dtype=float), rows, label, value_name)
    warnings = [dropped] if dropped else []
    n_nan = int(df["value"].isna().sum())
    if n_nan:
        warnings.append(f"{n_nan} value(s) in the long table are missing and were left out of"
                        " their cell's aggregate")
    values, counts, datasets, learners = _cells(df, aggregate)
    present = counts[counts > 0]
    if present.size and present.min() != present.max():
        warnings.append(f"cells are aggregated from unequal numbers of values ({present.min()} to"
                        f" {present.max()})")
    several = bool(present.size and present.max() > 1)
    kept = ["dataset", "learner", "value"] + [c for c in ("repeat", "fold") if c in df]
    raw = df.loc[df["value"].notna(), kept].reset_index(drop=True)
    return ScoreTable(values=values, datasets=tuple(datasets),
                      learners=tuple(learners), criterion=criterion,
                      aggregate=aggregate if several else None, counts=counts,
                      warnings=tuple(warnings), source=label, raw=raw if several else None,
                      criteria=tuple(str(c) for c in found))


def _cells(df: pd.DataFrame, aggregate: str) -> tuple:
    """``(values, counts, datasets, learners)``: the n × k aggregates of the long table's rows,
    how many values (not NaN) each cell has, and the names in the order they first appear.
    Where no cell has two rows, each row's value is its cell's (the median or mean of one value
    is that value), put in place at once; else by groupby."""
    d, datasets = pd.factorize(df["dataset"])
    j, learners = pd.factorize(df["learner"])
    datasets, learners = datasets.tolist(), learners.tolist()
    n, k = len(datasets), len(learners)
    key = d * k + j
    value = df["value"].to_numpy(dtype=float)
    if np.bincount(key, minlength=n * k).max(initial=0) <= 1:
        values = np.full(n * k, np.nan)
        values[key] = value
        counts = np.zeros(n * k, dtype=int)
        counts[key] = ~np.isnan(value)
        return values.reshape(n, k), counts.reshape(n, k), datasets, learners
    grouped = df.groupby(["dataset", "learner"], sort=False)["value"]
    agg = grouped.agg(aggregate).unstack("learner").reindex(index=datasets, columns=learners)
    counts = grouped.count().unstack("learner").reindex(index=datasets, columns=learners)
    return (agg.to_numpy(dtype=float), counts.fillna(0).to_numpy(dtype=int), datasets,
            learners)


def _in_order(cells: pd.Series) -> list:
    """The distinct names of a column in the order they first appear (``Series.unique``, which
    a million names of pandas' string type cost 0.04 s, where iterating them cost 2.7 s)."""
    return cells.unique().tolist()


def _within_bound(values: np.ndarray, rows, label: str, column: str) -> None:
    """Each value of a long table finite and within the scores' bound before its cell is
    aggregated (a mean of values near the largest double overflows to inf, with numpy's
    warnings, and the error would name a value that is not in the file)."""
    from .._validate import MAX_ABS_SCORE

    with np.errstate(invalid="ignore"):
        bad = ~np.isnan(values) & ~(np.abs(values) <= MAX_ABS_SCORE)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise RankwiseError(f"{label}: row {rows[i]}, column {column!r}: {values[i]:g} is not a"
                            f" finite score of at most {MAX_ABS_SCORE:.0e} in magnitude (their"
                            f" means and differences must not overflow; divide them by a power"
                            f" of ten) ({int(bad.sum())} such rows)")


#: Repeated keys named in the error.
DUPLICATES_SHOWN = 3


def _without_duplicates(df, key, policy: str, label: str, shown) -> tuple:
    """``(rows, note)``: every (key) once. ``refuse`` names the first repeated keys with their
    rows; ``last``/``first`` keep one row of each and say how many were left out."""
    dup = df.duplicated(key, keep=False).to_numpy()
    if not dup.any():
        return df, None
    shown = shown or {}
    names = [str(shown.get(k, k)) for k in key]
    repeated = df[dup].groupby(key, sort=False)["row"].apply(list)
    parts = []
    for values, rows in list(repeated.items())[:DUPLICATES_SHOWN]:
        values = values if isinstance(values, tuple) else (values,)
        what = ", ".join(f"{n} = {v}" for n, v in zip(names, values))
        parts.append(f"rows {', '.join(map(str, rows[:-1]))} and {rows[-1]} ({what})")
    budget = next((c for c in ("budget", "fraction") if c in df.columns
                   and df.loc[dup].groupby(key, sort=False)[c].nunique().gt(1).any()), None)
    if budget is not None:  # learning curves: the rows differ in their budget, not repeats
        raise RankwiseError(f"{label}: the rows of each ({', '.join(names)}) differ in the"
                            f" {budget} column (curves over a budget); compare one budget with"
                            f" --where {budget}=VALUE, or along the budget with rankwise curves")
    if policy == "refuse":
        more = len(repeated) - DUPLICATES_SHOWN
        tail = f"; and {more} more repeated key(s)" if more > 0 else ""
        hint = ("" if len(key) > 2 else "; if these are repeated measurements, add repeat/fold"
                " columns to tell them apart")
        raise RankwiseError(f"{label}: {'; '.join(parts)}{tail} repeat the same"
                            f" ({', '.join(names)}){hint}; keep the last or the first of each"
                            " with --duplicates last|first (a re-run appended to a results"
                            " file: last)")
    keep = ~df.duplicated(key, keep=policy).to_numpy()
    n_left = int((~keep).sum())
    note = (f"{n_left} row(s) repeated the ({', '.join(names)}) of an earlier or later row"
            f" ({len(repeated)} key(s); first: {parts[0]}); the {policy} row of each was kept"
            f" (--duplicates {policy})")
    return df[keep], note

