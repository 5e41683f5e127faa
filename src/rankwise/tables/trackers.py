"""Runs of experiment trackers as score tables: MLflow and Weights & Biases.

``mlflow``
    The MLflow runs table: what ``mlflow.search_runs()`` returns (columns ``run_id``,
    ``experiment_id``, ``status``, ..., ``metrics.X``, ``params.Y``, ``tags.Z``), saved as CSV,
    or read from a tracking store (an ``mlflow.db`` SQLite file, an ``mlruns/`` folder or a
    tracking URI), which is the same table: the store's runs are fetched with
    ``search_runs`` and read by the one reader of that layout, as if exported. Learner = the
    first of the params ``model``, ``model_name``, ``learner``, ... (else the run name,
    ``tags.mlflow.runName``); data set = the param ``dataset`` (or ``dataset_name``,
    ``data``, ``task``...; else each experiment is a data set); criterion = each
    ``metrics.*`` column (``--criterion accuracy``); fold = the param ``fold``. Runs of several
    experiments are repeats of one study: an experiment is a repeat of each (data set, learner)
    and the repeats are aggregated (``--aggregate``); ``--where experiment_id=ID`` reads one
    experiment. Runs that did not finish (FAILED, KILLED, RUNNING) are not read, and a note
    lists them.
``wandb``
    A Weights & Biases runs table: the CSV the web UI's runs table exports (``Name``,
    ``State``, ``Notes``, ``User``, ``Tags``, ``Created``, ``Runtime``, ``Sweep``, then the
    config and summary keys as plain columns, not told apart), or the frame of
    ``wandb.Api().runs()`` built as W&B's export guide builds it (columns ``name``,
    ``config``, ``summary`` holding dicts, or ``config.K`` and ``summary.K`` columns).
    Learner = a config key ``model`` (the same names as MLflow's params), else the run's
    name; data set = a config key ``dataset`` (or ``--columns dataset=COLUMN``); criterion =
    a summary key (in the UI's export every other numeric column, config values included:
    choose with ``--criterion``). Runs whose state is not ``finished`` are not read, with a
    note.

``--columns`` maps any column over these choices (``learner=params.algo``). Repeated
(data set, learner, repeat, fold) runs follow ``--duplicates`` (refused by default).
"""

from __future__ import annotations

import ast
import io
import os
import re
from pathlib import Path

import pandas as pd

from ..errors import RankwiseError
from .._text import brief
from .cells import by_lower_name, text

#: The params (MLflow) or config keys (W&B) that name the learner, in the order tried.
LEARNER_KEYS = ("model", "model_name", "model_type", "learner", "algorithm", "estimator",
                "classifier", "regressor", "method")
#: ... and the data set.
DATASET_KEYS = ("dataset", "dataset_name", "data_set", "data", "task", "dataset_id")
#: The run name MLflow keeps as a tag.
RUN_NAME = "tags.mlflow.runName"
#: Runs in other states did not finish: their metrics may be partial.
FINISHED = {"mlflow": "finished", "wandb": "finished"}
#: Unfinished runs named in the note (the rest are counted).
UNFINISHED_SHOWN = 3
#: The W&B web UI export's columns about a run, not config or summary keys (lower case).
WANDB_META = ("name", "state", "notes", "user", "tags", "created", "runtime", "sweep", "id",
              "group", "job type", "updated", "hostname", "commit", "github")
#: How ``to_csv`` writes the dict cells of W&B's ``Api().runs()`` frame.
WANDB_DICTS = ("config", "summary")
MLFLOW_INSTALL = "pip install 'rankwise[mlflow]'"
#: A bare NaN or infinity in the text of a dict (not inside a quoted key or value).
BARE = re.compile(r"(?<![\w'\"])-?(nan|inf)(?![\w'\"])")


def _first(low: dict, prefix: str, keys) -> str | None:
    return next((low[prefix + k] for k in keys if prefix + k in low), None)


# --------------------------------------------------------------------------- MLflow

def mlflow_runs(frame, criterion, label, mapping=None):
    """The MLflow runs table as rankwise's long table (an adapter of
    :func:`rankwise.tables.sources.read_as`): ``(frame, built, describe, notes, criterion,
    extra)``."""
    mapping = mapping or {}
    low = by_lower_name(frame)
    built, describe, notes = {}, {}, []
    learner = _first(low, "params.", LEARNER_KEYS)
    if learner is None and RUN_NAME.lower() in low:
        learner = low[RUN_NAME.lower()]
        describe["learner"] = f"{learner} (the run name: no param names the model)"
    if learner is None and "learner" not in mapping:
        raise RankwiseError(f"{label}: no param names the model ({', '.join(LEARNER_KEYS)})"
                            " and the runs have no name; say which column with --columns"
                            " learner=params.NAME")
    if learner is not None:
        built["learner"] = learner
    experiment = low.get("experiment_id")
    dataset = _first(low, "params.", DATASET_KEYS)
    if dataset is None and experiment is not None:
        dataset = experiment
        describe["dataset"] = f"{experiment} (each experiment a data set: no param names one)"
    if dataset is not None:
        built["dataset"] = dataset
    fold = _first(low, "params.", ("fold",))
    if fold is not None:
        built["fold"] = fold
    frame, failed = _unfinished(frame, low.get("status"), "mlflow", {**built, **mapping},
                                label)
    if experiment is not None and dataset != experiment and "repeat" not in mapping:
        ids = sorted(set(text(frame[experiment])), key=lambda i: (len(i), i))
        if len(ids) > 1:
            built["repeat"] = experiment
            notes.append(f"The runs are in {len(ids)} experiments (ids {', '.join(ids)}): each"
                         " is read as a repeat of the study, aggregated per data set and"
                         " learner (--aggregate); --where experiment_id=ID reads one"
                         " experiment.")
    metrics = [c for c in frame.columns if str(c).startswith("metrics.")]
    frame, criterion, extra = _criteria(frame, metrics, "metrics.", criterion, mapping, label,
                                        built, describe)
    extra["failed"] = failed
    return frame, built, describe, tuple(notes), criterion, extra


def _criteria(frame, columns, prefix, criterion, mapping, label, built, describe):
    """``(frame, criterion, extra)``: each of ``columns`` a criterion (named without
    ``prefix``), the runs stacked once per criterion, so that the long table's reader chooses
    one (``--criterion``) or several (``--criteria``) as it does in any long table; nothing
    stacked when ``--columns value=COLUMN`` names the scores."""
    names = [str(c)[len(prefix):] for c in columns]
    if "value" in mapping:
        return frame, criterion, {"criteria": tuple(names)}
    if not columns:
        raise RankwiseError(f"{label}: the runs have no {prefix.rstrip('.') or 'numeric'}"
                            " columns to compare; name the scores with --columns value=COLUMN")
    if criterion is not None:
        want = str(criterion)
        want = want[len(prefix):] if prefix and want.startswith(prefix) else want
        hits = [n for n in names if n == want] or [n for n in names if n.lower() == want.lower()]
        if not hits:
            raise RankwiseError(f"{label}: no metric {criterion!r}; the runs have"
                                f" {', '.join(names)}")
        criterion = hits[0]
    keep = [c for c in frame.columns if c not in columns]
    long = frame.melt(id_vars=keep, value_vars=columns, var_name="_criterion",
                      value_name="_value")
    long["_criterion"] = long["_criterion"].str.slice(len(prefix))
    built.update(value="_value", criterion="_criterion")
    describe.update(value=f"the {prefix}* columns" if prefix else "the numeric columns",
                    criterion=f"each {prefix}* column" if prefix else "each numeric column")
    return long, criterion, {"criteria": tuple(names)}


def _unfinished(frame, status, tool: str, roles: dict, label):
    """``(finished runs, sentence or None)``: runs in another state are left out (a killed
    run's metrics stop where it stopped), and the sentence lists them by learner and data
    set."""
    if status is None:
        return frame, None
    states = text(frame[status])
    done = (states.str.lower() == FINISHED[tool]).to_numpy()
    if done.all():
        return frame, None
    if not done.any():
        raise RankwiseError(f"{label}: no run finished (states: {_counts(states)}); rankwise"
                            " compares the metrics of finished runs")
    left = frame[~done]
    learner, dataset = roles.get("learner"), roles.get("dataset")
    shown = []
    for i in range(min(UNFINISHED_SHOWN, len(left))):
        row = left.iloc[i]
        what = " on ".join(str(row[c]) for c in (learner, dataset) if c is not None)
        shown.append(f"{what or 'row ' + str(row.get('_row', ''))} ({row[status]})")
    more = len(left) - len(shown)
    return frame[done], (f"{len(left)} run(s) did not finish and were not read"
                         f" ({_counts(states[~done])}): {'; '.join(shown)}"
                         + (f"; and {more} more" if more > 0 else "") + ".")


def _counts(states) -> str:
    return ", ".join(f"{s or 'no state'}: {n}" for s, n in states.value_counts().items())


# --------------------------------------------------------------------------- the store

def is_store(source) -> bool:
    """Whether ``source`` is an MLflow tracking store: a tracking URI, an SQLite file with
    MLflow's tables, or an ``mlruns/`` folder."""
    from .registry import which

    if not isinstance(source, (str, Path)):
        return False
    if _uri(source) is not None:
        return True
    path = Path(source)
    return path.exists() and which("table", path, by=("folder", "content")) == "mlflow"


#: A tracking URI's scheme; a command line's path has ``sqlite:///x`` as ``sqlite:/x``.
URI = re.compile(r"^(sqlite|file|https?|databricks|postgresql|mysql)(\+\w+)?:/")


def _uri(source) -> str | None:
    """The tracking URI ``source`` is, or None for a path."""
    written = str(source)
    match = URI.match(written)
    if match is None:
        return None
    if "://" in written or match.group(1) == "databricks":
        return written
    # a command line's Path folded the slashes: the file it names, absolute or relative
    rest = written[match.end() - 1:]
    if match.group(1) == "sqlite":
        for path in (Path(rest), Path(rest.lstrip("/"))):
            if path.exists():
                return f"sqlite:///{path.resolve()}"
        return f"sqlite:///{rest.lstrip('/')}"
    return f"{match.group(0)}/{rest}"


def mlflow_module(what: str):
    """The ``mlflow`` package, or the one line that says how to install it."""
    try:
        import mlflow
    except ImportError:
        raise RankwiseError(f"{what} needs the mlflow package: {MLFLOW_INSTALL} (a CSV"
                            " export of the runs, mlflow.search_runs(...).to_csv(...), is read"
                            " without it)") from None
    return mlflow


def store_uri(source) -> str:
    """The tracking URI of a store given as a URI, an SQLite file or an ``mlruns/`` folder."""
    uri = _uri(source)
    if uri is None:
        path = Path(source).resolve()
        return path.as_uri() if path.is_dir() else f"sqlite:///{path}"
    if uri.startswith("sqlite:///"):   # SQLite would create a missing file as a new store
        path = Path(uri[len("sqlite:///"):])
        if not path.exists():
            raise RankwiseError(f"{source}: no such file; give the path of the tracking"
                                " store's SQLite file (mlflow.db)")
    return uri


def read_store(source) -> bytes:
    """Every run of an MLflow tracking store, as the CSV ``search_runs(...).to_csv()`` writes:
    the store and its export are one table, read by one reader."""
    mlflow = mlflow_module(f"{source}: reading an MLflow tracking store")
    uri = store_uri(source)
    previous = mlflow.get_tracking_uri()
    # MLflow 3 refuses to open a folder store unless asked: reading an old mlruns/ is what
    # its opt-out is for (nothing is written to it)
    allowed = os.environ.get("MLFLOW_ALLOW_FILE_STORE")
    os.environ["MLFLOW_ALLOW_FILE_STORE"] = "true"
    try:
        mlflow.set_tracking_uri(uri)
        runs = mlflow.search_runs(search_all_experiments=True)
    except Exception as exc:  # noqa: BLE001 - MLflow's own errors: a store it cannot read
        raise RankwiseError(f"{source}: MLflow cannot read the runs of this tracking store"
                            f" ({brief(exc, source)})") from None
    finally:
        mlflow.set_tracking_uri(previous)
        if allowed is None:
            os.environ.pop("MLFLOW_ALLOW_FILE_STORE", None)
        else:
            os.environ["MLFLOW_ALLOW_FILE_STORE"] = allowed
    if runs.empty:
        raise RankwiseError(f"{source}: the tracking store has no runs")
    buffer = io.StringIO()
    runs.to_csv(buffer, index=False)
    return buffer.getvalue().encode("utf-8")


# --------------------------------------------------------------------------- W&B

def wandb_runs(frame, criterion, label, mapping=None):
    """A W&B runs table (the web UI's export, or ``Api().runs()``'s frame) as rankwise's long
    table: ``(frame, built, describe, notes, criterion, extra)``."""
    mapping = mapping or {}
    frame = _flattened(frame, label)
    low = by_lower_name(frame)
    api = any(k.startswith("summary.") for k in low)
    prefix = "config." if api else ""
    built, describe, notes = {}, {}, []
    learner = _first(low, prefix, LEARNER_KEYS)
    if learner is None:
        learner = low.get("name")
        describe["learner"] = f"{learner} (the run's name: no config key names the model)"
    built["learner"] = learner
    dataset = _first(low, prefix, DATASET_KEYS)
    if dataset is None and "dataset" not in mapping:
        raise RankwiseError(f"{label}: no config key names the data set"
                            f" ({', '.join(DATASET_KEYS)}); say which column with --columns"
                            " dataset=COLUMN")
    if dataset is not None:
        built["dataset"] = dataset
    fold = _first(low, prefix, ("fold",))
    if fold is not None:
        built["fold"] = fold
    frame, failed = _unfinished(frame, low.get("state"), "wandb", {**built, **mapping}, label)
    used = set(built.values()) | set(mapping.values())
    if api:
        columns = [c for c in frame.columns if str(c).startswith("summary.")
                   and not str(c).startswith("summary._") and c not in used]
    else:   # the UI's export does not tell config from summary: every numeric column
        columns = [c for k, c in by_lower_name(frame).items() if k not in WANDB_META
                   and c not in used and c != "_row" and not k.startswith("_")
                   and pd.to_numeric(frame[c], errors="coerce").notna().any()]
        notes.append("The W&B export does not tell config values from summary metrics: each"
                     " numeric column is a criterion (choose one with --criterion).")
    columns = [c for c in columns if pd.to_numeric(frame[c], errors="coerce").notna().any()]
    frame, criterion, extra = _criteria(frame, columns, "summary." if api else "", criterion,
                                        mapping, label, built, describe)
    extra["failed"] = failed
    return frame, built, describe, tuple(notes), criterion, extra


def _flattened(frame, label):
    """``Api().runs()``'s ``config`` and ``summary`` columns (dicts, or their text in a CSV)
    as ``config.K`` and ``summary.K`` columns (nested keys joined by dots)."""
    low = by_lower_name(frame)
    if not all(k in low for k in WANDB_DICTS):
        return frame
    parts = [frame.drop(columns=[low[k] for k in WANDB_DICTS])]
    for key in WANDB_DICTS:
        cells = [_as_dict(v, label, key, i) for i, v in enumerate(frame[low[key]])]
        flat = pd.json_normalize(cells, sep=".")
        flat.columns = [f"{key}.{c}" for c in flat.columns]
        flat.index = frame.index
        parts.append(flat)
    return pd.concat(parts, axis=1)


def _as_dict(cell, label, column, i) -> dict:
    if isinstance(cell, dict):
        return cell
    if cell is None or (isinstance(cell, float) and cell != cell) or str(cell).strip() == "":
        return {}
    try:
        # a summary's NaN or infinity is written bare (nan, inf), which literal_eval refuses
        value = ast.literal_eval(BARE.sub("None", str(cell)))
    except (ValueError, SyntaxError):
        value = None
    if not isinstance(value, dict):
        raise RankwiseError(f"{label}: row {i + 2}, column {column!r} is not a dict of"
                            f" {column} keys ({str(cell)[:40]!r}); write the runs' {column}"
                            " as W&B's export guide does, or one column per key")
    return value
