"""Every Eval Ever records: read as score tables, written from score tables and item tables.

Every Eval Ever is the EvalEval coalition's shared format for evaluation results
(https://github.com/evaleval/every_eval_ever). Its two JSON Schemas, version 0.3.0
(``every_eval_ever/schemas/eval.schema.json`` and ``instance_level_eval.schema.json``):

- an aggregate record (``.json``): one model (``model_info``) and its ``evaluation_results``,
  one score per benchmark and metric, read by :func:`rankwise.load_table` as learner =
  ``model_info.id``, data set = ``evaluation_name``, criterion = ``metric_config.metric_id``
  (or ``metric_name``), value = ``score_details.score``, the direction from
  ``metric_config.lower_is_better``;
- an instance-level record (a line of ``<uuid>_samples.jsonl``): one model's score on one
  sample, read by :func:`rankwise.read_items` (``tables/item_readers.py``).

The writers fill what the schema requires from what rankwise holds and nothing more: the texts
of a sample (its input, the model's output, the extracted answer) are not in a score table,
so they are written empty, and the metadata rankwise does not know (the model's developer,
how it was deployed) takes the schema's ``unknown``.
"""

from __future__ import annotations

import json
import math
import re
import time
from pathlib import Path

import pandas as pd

from .._version import __version__
from ..errors import RankwiseError
from .._text import brief

#: The schema version the writers declare and the readers were written against.
SCHEMA_VERSION = "0.3.0"
SCHEMA_HOME = "https://github.com/evaleval/every_eval_ever (every_eval_ever/schemas)"
#: The fields every aggregate record has (eval.schema.json's ``required``) ...
AGGREGATE_REQUIRED = ("schema_version", "evaluation_id", "retrieved_timestamp",
                      "source_metadata", "model_info", "eval_library", "evaluation_results")
#: ... each of its results ...
RESULT_REQUIRED = ("evaluation_name", "source_data", "metric_config", "score_details")
#: ... and every instance-level record (instance_level_eval.schema.json's ``required``).
INSTANCE_REQUIRED = ("schema_version", "evaluation_id", "model_id", "evaluation_name",
                     "sample_id", "interaction_type", "input", "answer_attribution",
                     "evaluation")
#: The columns of an item table beside model, task, item and score that an instance record
#: keeps in its ``metadata`` (a map of strings; the schema has no field of its own for them).
ITEM_METADATA = {"repeat": "rankwise.repeat", "cluster": "rankwise.cluster",
                 "weight": "rankwise.weight"}
#: The columns of the long table an aggregate file is read into (sources.py reads it).
#: (``value``, not ``score``: a criterion's own name says its direction, never the column's)
AGGREGATE_COLUMNS = ("evaluation_id", "model_id", "evaluation_name", "metric",
                     "lower_is_better", "value")


def need(record, dotted: str, where: str, what: str):
    """The value of ``dotted`` (``"evaluation.score"``) in ``record``, or one line naming the
    file, the line and the field a record of the schema cannot do without."""
    value = record
    for part in dotted.split("."):
        if not isinstance(value, dict) or value.get(part) is None:
            raise RankwiseError(f"{where}: {what} has no {dotted!r}, which the schema"
                                f" ({SCHEMA_VERSION}, {SCHEMA_HOME}) requires; fix or leave out"
                                f" this record")
        value = value[part]
    return value


def need_number(record, dotted: str, where: str, what: str) -> float:
    value = need(record, dotted, where, what)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise RankwiseError(f"{where}: {what} has {dotted} = {value!r}, not a number")
    return float(value)


def looks_aggregate(head: str) -> bool:
    """Whether a JSON file's first characters are an Every Eval Ever aggregate record (not
    the JSON Schema that names its fields)."""
    return '"schema_version"' in head and '"$schema"' not in head and any(
        f'"{key}"' in head for key in ("evaluation_results", "model_info", "eval_library"))


def looks_instance(head: str) -> bool:
    """Whether a JSON-lines file's first characters are Every Eval Ever instance records."""
    return '"$schema"' not in head and all(
        f'"{key}"' in head for key in ("schema_version", "evaluation_id", "sample_id", "model_id"))


def _head(path: Path) -> str:
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read(4096)
    except (OSError, UnicodeDecodeError):
        return ""


def is_aggregate_path(path) -> bool:
    """A ``.json``/``.jsonl`` file of aggregate records, or a folder with one."""
    p = Path(path)
    if p.is_dir():
        return any(looks_aggregate(_head(q)) for q in sorted(p.rglob("*.json"))[:20])
    return p.suffix.lower() in (".json", ".jsonl") and looks_aggregate(_head(p))


def json_records(path: Path, what: str, lines: bool = False):
    """``(where, record)`` of each record of a file, ``where`` naming the file and the line or
    record: a ``.jsonl`` file holds one record a line, a ``.json`` file one record or a list of
    them, a file of another name one a line where ``lines`` (else a document); ``what`` names
    the records in the one line a file that breaks gets."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RankwiseError(f"{path}: cannot be read as UTF-8 text ({brief(exc, path)}); {what}"
                            " are UTF-8 JSON") from None
    suffix = path.suffix.lower()
    if suffix == ".jsonl" or (lines and suffix != ".json"):
        for number, line in enumerate(text.splitlines(), 1):
            if line.strip():
                try:
                    yield f"{path}, line {number}", json.loads(line)
                except json.JSONDecodeError as exc:
                    raise RankwiseError(f"{path}, line {number}: not JSON ({exc.msg}); {what}"
                                        " are one JSON object a line") from None
        return
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RankwiseError(f"{path}: not JSON ({exc.msg}, line {exc.lineno})") from None
    many = isinstance(data, list)
    for number, record in enumerate(data if many else [data], 1):
        yield (f"{path}, record {number}" if many else str(path)), record


def aggregate_frame(path) -> pd.DataFrame:
    """The aggregate records of a file or folder as a long table (:data:`AGGREGATE_COLUMNS`),
    one row per result, in the files' and the results' order."""
    p = Path(path)
    files = [q for q in sorted(p.rglob("*.json")) if looks_aggregate(_head(q))] if p.is_dir() \
        else [p]
    rows = []
    for f in files:
        for where, rec in json_records(f, "Every Eval Ever records"):
            rows += _result_rows(rec, where)
    if not rows:
        raise RankwiseError(f"{path}: no Every Eval Ever result to read")
    return pd.DataFrame(rows, columns=list(AGGREGATE_COLUMNS))


def _result_rows(rec, where: str) -> list:
    what = "an Every Eval Ever aggregate record"
    if not isinstance(rec, dict):
        raise RankwiseError(f"{where}: not {what} (a JSON object)")
    # a record of 0.3.0 has every field its schema requires; an older one (0.2.0 lacks
    # eval_library) is read on the fields read
    for key in AGGREGATE_REQUIRED if _current(rec) else ("evaluation_results",):
        need(rec, key, where, what)
    model = str(need(rec, "model_info.id", where, what))
    results = rec["evaluation_results"]
    if not isinstance(results, list):
        raise RankwiseError(f"{where}: evaluation_results is not a list")
    rows = []
    for number, res in enumerate(results):
        at, it = f"{where}, evaluation_results[{number}]", "a result"
        for key in RESULT_REQUIRED if _current(rec) else ("evaluation_name",):
            need(res, key, at, it)
        config = res["metric_config"]
        lower = need(config, "lower_is_better", at + ".metric_config", "its metric_config")
        metric = config.get("metric_id") or config.get("metric_name")
        rows.append((rec.get("evaluation_id"), model, str(res["evaluation_name"]),
                     None if metric is None else str(metric), bool(lower),
                     need_number(res, "score_details.score", at, it)))
    return rows


def _current(rec: dict) -> bool:
    return str(rec.get("schema_version", "")).startswith(SCHEMA_VERSION.rpartition(".")[0])


def every_eval_ever_table(frame, criterion, label):
    """The adapter of :func:`rankwise.tables.sources.read_as`: data set = ``evaluation_name``,
    learner = ``model_id``, criterion = ``metric``, value = the score, and the direction the
    records give the criterion read (``metric_config.lower_is_better``)."""
    built = {"dataset": "evaluation_name", "learner": "model_id", "value": "value"}
    # (said here, not as the value's column: "score" in its name would say a direction)
    notes = ["Each value is a result's score_details.score, its direction the result's"
             " metric_config.lower_is_better."]
    metric = frame["metric"]
    if metric.notna().any():
        if metric.isna().any():
            notes.append(f"{int(metric.isna().sum())} results name no metric (metric_id or"
                         " metric_name): read as the criterion 'score'")
            frame = frame.assign(metric=metric.fillna("score"))
        built["criterion"] = "metric"
    names = tuple(dict.fromkeys(frame["metric"].dropna()))
    chosen = criterion if criterion is not None else (names[0] if len(names) == 1 else None)
    extra = {"criteria": names}
    rows = frame if chosen is None or "criterion" not in built else frame[
        frame["metric"].astype(str) == str(chosen)]
    ways = set(rows["lower_is_better"])
    if len(ways) > 1:
        raise RankwiseError(f"{label}: the results of {chosen or 'the records'} disagree on"
                            " metric_config.lower_is_better; read one direction at a time"
                            " (--where) or say it with --higher-is-better/--lower-is-better")
    if len(ways) == 1 and (chosen is not None or "criterion" not in built):
        extra.update(higher_is_better=not ways.pop(),
                     direction_reason="the records' metric_config.lower_is_better")
    describe = {"dataset": "evaluation_name", "learner": "model_info.id",
                "value": "value", "criterion": "metric_config.metric_id"}
    return frame, built, {r: describe[r] for r in built}, tuple(notes), chosen, extra


# --------------------------------------------------------------------------- the writers

def _stamp(timestamp) -> str:
    return str(time.time() if timestamp is None else timestamp)


def _slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("_")[:60] or "model"


def _source_metadata(organization: str, source_type: str) -> dict:
    if source_type not in ("documentation", "evaluation_run"):
        raise RankwiseError(f"source_type must be 'documentation' or 'evaluation_run' (the"
                            f" schema's choices); got {source_type!r}")
    return {"source_name": "rankwise", "source_type": source_type,
            "source_organization_name": organization, "evaluator_relationship": "other",
            "additional_details": {"written_by": f"rankwise {__version__}"}}


def _model_info(model: str) -> dict:
    # rankwise knows a model by its name only: its id is that name, the rest unknown
    return {"name": model, "id": model,
            "additional_details": {"deployment_type": "unknown", "model_availability": "unknown"}}


def write_every_eval_ever(table, folder, *, organization: str = "unknown",
                    source_type: str = "documentation", timestamp=None) -> list:
    """Write a score table as Every Eval Ever aggregate records (schema 0.3.0): one file per
    learner, in the table's order, each holding its scores on every data set.

    Parameters
    ----------
    table : ScoreTable
        What :func:`rankwise.load_table` read; a missing cell is written as no result.
    folder : path
        Created if needed; it must hold no ``.json`` file yet (reading it back reads every
        record in it). Files are named ``0001_<learner>.json``, so that reading the folder
        keeps the learners' order.
    organization : str
        ``source_metadata.source_organization_name``: who provides the scores.
    source_type : {"documentation", "evaluation_run"}
        Whether the scores come from a published table or from a run of your own.
    timestamp : str or float, optional
        ``retrieved_timestamp`` (Unix time; default: now).

    Returns
    -------
    list of pathlib.Path
        The files written. ``rankwise.load_table(folder)`` reads them back: learner =
        ``model_info.id``, data set = ``evaluation_name``, criterion = ``metric_id`` (the
        table's criterion, when it has one), the direction from ``lower_is_better``.

    Examples
    --------
    >>> import tempfile
    >>> import rankwise
    >>> from rankwise import write_every_eval_ever
    >>> table = rankwise.load_example("garcia2010")
    >>> folder = tempfile.mkdtemp()
    >>> len(write_every_eval_ever(table, folder, timestamp=0))
    4
    >>> rankwise.load_table(folder).values.tolist() == table.values.tolist()
    True
    """
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    if any(out.glob("*.json")):
        raise RankwiseError(f"{out}: already holds .json files; write the records into an empty"
                            " folder (reading it back reads every record in it)")
    stamp, written = _stamp(timestamp), []
    for j, learner in enumerate(table.learners):
        results = []
        for i, dataset in enumerate(table.datasets):
            value = float(table.values[i, j])
            if math.isnan(value):
                continue
            results.append(_result(table, dataset, value, i, j))
        record = {"schema_version": SCHEMA_VERSION,
                  "evaluation_id": f"rankwise/{learner}/{stamp}", "retrieved_timestamp": stamp,
                  "source_metadata": _source_metadata(organization, source_type),
                  "eval_library": {"name": "unknown", "version": "unknown"},
                  "model_info": _model_info(str(learner)), "evaluation_results": results}
        path = out / f"{j + 1:04d}_{_slug(str(learner))}.json"
        path.write_text(json.dumps(record, indent=2, ensure_ascii=False) + "\n",
                        encoding="utf-8")
        written.append(path)
    return written


def _result(table, dataset, value: float, i: int, j: int) -> dict:
    config = {"lower_is_better": not table.higher_is_better}
    if table.criterion is not None:
        config.update(metric_id=str(table.criterion), metric_name=str(table.criterion))
    score = {"score": value}
    count = None if table.counts is None else int(table.counts[i, j])
    if count is not None and count > 1:
        # the cell's own values are not kept by the schema: say how the score was made
        score["details"] = {"rankwise_cell": f"{table.aggregate or 'mean'} of {count} values"}
    return {"evaluation_result_id": _result_id(dataset, table.criterion),
            "evaluation_name": str(dataset),
            "source_data": {"dataset_name": str(dataset), "source_type": "other"},
            "metric_config": config, "score_details": score}


def _result_id(task, criterion) -> str:
    return str(task) if criterion is None else f"{task}::{criterion}"


def write_every_eval_ever_items(items, path, *, timestamp=None) -> Path:
    """Write an item table as Every Eval Ever instance-level records (schema 0.3.0): one JSON
    line per model, task, item (and repeat).

    Each line is a ``single_turn`` record: ``model_id`` = the model, ``evaluation_name`` (and
    ``evaluation_result_id``) = the task, ``sample_id`` = the item, ``evaluation.score`` = the
    score; ``is_correct`` is ``score == 1`` where every score is 0 or 1, else false with
    ``metadata.is_correct_applicable = "false"`` (as the schema's own OpenEval adapter writes
    it). A ``repeat``, ``cluster`` or ``weight`` is kept in ``metadata`` (``rankwise.repeat``
    ...). The texts (input, output, extracted answer) are not in an item table: empty.
    ``evaluation_id`` is ``rankwise/<model>/<timestamp>``, as :func:`write_every_eval_ever` names
    the aggregate record of the same model and timestamp.

    Parameters
    ----------
    items : ItemTable
        What :func:`rankwise.read_items` read.
    path : path
        The ``.jsonl`` file to write (EEE's datastore names it ``<uuid>_samples.jsonl``).
    timestamp : str or float, optional
        Part of ``evaluation_id`` (default: now).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> import rankwise
    >>> from rankwise import write_every_eval_ever_items
    >>> items = rankwise.load_items_example("evals")
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "evals_samples.jsonl"
    >>> _ = write_every_eval_ever_items(items, path, timestamp=0)
    >>> back = rankwise.read_items(path)
    >>> back.reader, back.models == items.models, len(back.frame) == len(items.frame)
    ('every-eval-ever-items', True, True)
    """
    frame = getattr(items, "frame", None)
    if not isinstance(frame, pd.DataFrame):
        raise RankwiseError("write_every_eval_ever_items writes an ItemTable (rankwise.read_items); a"
                            " streamed table is read one task at a time: read it whole")
    stamp, out = _stamp(timestamp), Path(path)
    scores = frame["score"].to_numpy(dtype=float)
    binary = bool(((scores == 0) | (scores == 1)).all())
    extra = [c for c in ITEM_METADATA if c in frame]
    columns = [frame[c].astype(object).tolist() for c in ("model", "task", "item", "score")]
    more = {c: frame[c].astype(object).tolist() for c in extra}
    with open(out, "w", encoding="utf-8") as fh:
        for row, (model, task, item, score) in enumerate(zip(*columns)):
            meta = {ITEM_METADATA[c]: _text(more[c][row]) for c in extra
                    if not _blank(more[c][row])}
            if not binary:
                meta["is_correct_applicable"] = "false"
            record = {"schema_version": SCHEMA_VERSION,
                      "evaluation_id": f"rankwise/{model}/{stamp}", "model_id": str(model),
                      "evaluation_name": str(task), "evaluation_result_id": str(task),
                      "sample_id": str(item), "interaction_type": "single_turn",
                      "input": {"raw": "", "reference": []}, "output": {"raw": []},
                      "answer_attribution": [],
                      "evaluation": {"score": float(score),
                                     "is_correct": binary and float(score) == 1.0}}
            if meta:
                record["metadata"] = meta
            fh.write(json.dumps(record, ensure_ascii=False) + "\n")
    return out


def _blank(value) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def _text(value) -> str:
    # repr of a float round-trips exactly; an integer repeat stays an integer
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return repr(value) if isinstance(value, float) else str(value)
