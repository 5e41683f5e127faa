"""Results as other tools write them: a column mapping, and the formats of the AutoML benchmark,
OpenML's evaluation listings and mlr3's benchmark tables.

Every route ends in rankwise's own long table (``dataset``, ``learner``, ``value`` and optionally
``criterion``, ``repeat``, ``fold``), read by the same code as any long table, and a
:class:`Reading` that says how each column was taken, for the report's input line. Folds are
always folds: no format maps them to data sets.

Recognised formats (detected from the header; ``source_format=`` / ``--source`` names one, and
``columns=`` / ``--columns`` overrides any of its choices):

``amlb``
    The AutoML benchmark's ``results.csv`` and ``scores/*.csv``: data set = ``task``, learner =
    ``framework`` (with the ``constraint`` appended when the file holds several), fold =
    ``fold``, criterion = ``metric``, value = ``result``. Rows with an empty ``result`` are
    failed jobs: their values are missing and their ``info`` messages are reported. When the
    tasks were scored on different metrics, ``--criterion NAME`` analyses the tasks of one
    metric, ``--criterion result`` every task on its own metric (lower-is-better metrics
    negated, so that higher is better throughout, as the benchmark's ``neg_`` metrics are), and
    ``--criterion acc`` (any of the file's metric columns) that column for every task.
``openml``
    An OpenML evaluation listing saved as CSV: data set = ``data_name`` (with the task id
    appended when a data set has several tasks; ``task_id`` without names), learner =
    ``flow_name`` (with the setup id appended when a flow has several setups), criterion =
    ``function``, value = ``value``, and several runs of one setup on one task as repeats.
``mlr3``
    An mlr3 (or mlr3benchmark) table exported as CSV: data set = ``task_id``, learner =
    ``learner_id``, fold = ``iteration``, and one column per measure, chosen with
    ``--criterion`` (the direction comes from the measure's name: ``classif.ce`` is an error).
``mlflow``, ``wandb``
    Runs of experiment trackers: MLflow's runs table (a tracking store or its CSV export) and
    Weights & Biases' runs table (:mod:`rankwise.tables.trackers`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..errors import RankwiseError
from ..names import SOURCE_FORMATS  # noqa: F401  (re-exported)
from .cells import MISSING_TOKENS, by_lower_name, parse_numbers, text
from .direction import direction_of
from .registry import AMLB_METRICS, table_format
from .eval_records import AGGREGATE_COLUMNS, every_eval_ever_table
from .trackers import mlflow_runs, wandb_runs

#: What a column can be to rankwise.
ROLES = ("dataset", "learner", "value", "criterion", "repeat", "fold")
REQUIRED = ("dataset", "learner", "value")
#: ``source_format=`` / ``--source``: ``auto`` detects a format from the header; ``rankwise``
#: reads the table as rankwise's own wide or long table.
TITLES = {"amlb": "an AutoML-benchmark results file", "openml": "an OpenML evaluation listing",
          "weka": "a WEKA Experimenter result file",
          "tabarena": "a TabArena per-split results table",
          "mlr3": "an mlr3 benchmark table", "columns": "a long table with a column mapping",
          "every-eval-ever": "Every Eval Ever aggregate records",
          "mlflow": "MLflow's runs table", "wandb": "a Weights & Biases runs table"}
#: Messages of failed rows named in the notes (the rest are counted).
FAILED_SHOWN = 3
#: Characters of a failed job's message shown (the benchmark's ``info`` may hold a traceback).
MESSAGE_SHOWN = 160


@dataclass(frozen=True)
class Reading:
    """How the input's columns were read: ``columns`` maps each role to the input's column or
    to how it was built from several."""

    source: str  # "wide", "long", "results-db", "amlb", "openml", "mlr3" or "columns"
    columns: dict = field(default_factory=dict)
    detected: bool = False
    notes: tuple = ()
    higher_is_better: bool | None = None  # when the format decides the direction
    direction_reason: str | None = None
    failed: str | None = None  # the failed jobs and their messages (also a warning)
    criteria: tuple = ()  # every criterion (measure column) the input has
    test_train_ratio: dict | None = None  # data set -> test over training instances (WEKA)

    def sentence(self) -> str:
        if self.source == "wide":
            return " ".join(["Input read as a wide table: one row per data set (named in the"
                             " first column), one column per learner.", *self.notes])
        if self.source == "results-db":
            what = "a results database of rankwise run"
        elif self.source == "long":
            what = "a long table"
        else:
            how = ("recognised from its header; --source rankwise reads it as a plain table"
                   if self.detected else "as asked")
            what = f"{TITLES[self.source]} ({how})"
        roles = [f"{_ROLE_WORDS[r]} = {self.columns[r]}" for r in ROLES if r in self.columns]
        text = f"Input read as {what}: {', '.join(roles)}."
        if "fold" not in self.columns and "repeat" not in self.columns:
            text += " No fold or repeat column: one value per data set and learner."
        return " ".join([text, *self.notes] + ([self.failed] if self.failed else []))

    def to_dict(self) -> dict:
        return {"source": self.source, "detected": self.detected,
                "columns": {role: str(col) for role, col in self.columns.items()},
                "notes": list(self.notes), "failed": self.failed, "sentence": self.sentence()}


_ROLE_WORDS = {"dataset": "data set", "learner": "learner", "value": "value",
               "criterion": "criterion", "repeat": "repeat", "fold": "fold"}


def parse_columns(text: str | None) -> dict | None:
    """``"dataset=task,learner=framework"`` → ``{"dataset": "task", "learner": "framework"}``
    (the ``--columns`` option), with a one-line error for anything else."""
    if text is None:
        return None
    out = {}
    for part in str(text).split(","):
        part = part.strip()
        if not part:
            continue
        role, sep, column = part.partition("=")
        if not sep or not role.strip() or not column.strip():
            raise RankwiseError(f"--columns takes ROLE=COLUMN pairs separated by commas (e.g."
                                f" dataset=task,learner=framework,value=result); got {part!r}")
        if role.strip() in out:
            raise RankwiseError(f"--columns gives the role {role.strip()!r} twice; give each"
                                " role one column")
        out[role.strip()] = column.strip()
    if not out:
        raise RankwiseError("--columns is empty; give ROLE=COLUMN pairs, e.g."
                            " dataset=task,learner=framework,value=result")
    return out


def detect(columns) -> str | None:
    """The format a header belongs to, or None for rankwise's own tables (the registry's
    header detectors, :func:`rankwise.tables.registry.table_format`)."""
    return table_format(columns)


#: The columns each format cannot do without (any case).
FORMAT_COLUMNS = {"amlb": ("task", "framework", "result"),
                  "openml": ("flow_name", "function", "value"),
                  "mlr3": ("task_id", "learner_id"),
                  "weka": ("Key_Dataset", "Key_Run", "Key_Scheme"),
                  "tabarena": ("method", "metric_error"),
                  "every-eval-ever": AGGREGATE_COLUMNS,
                  "mlflow": ("run_id",), "wandb": ("name",)}


def _check_format(name: str, columns, label: str) -> None:
    lower = {str(c).strip().lower() for c in columns}
    need = [c for c in FORMAT_COLUMNS[name] if c.lower() not in lower]
    if name == "openml" and not lower & {"data_name", "task_id"}:
        need.append("data_name or task_id")
    if name == "tabarena" and not lower & {"dataset", "task"}:
        need.append("dataset or task")
    if need:
        raise RankwiseError(f"{label}: --source {name} needs the columns"
                            f" {', '.join(FORMAT_COLUMNS[name])}; missing {', '.join(need)}"
                            f" (the table's columns are"
                            f" {', '.join(str(c) for c in columns if c != '_row')})")


def mapping_of(columns, table_columns, label: str, roles=ROLES) -> dict:
    """The one column-renaming rule of every long-table reader (score tables, curves, items):
    ``columns`` as ``{role: column}`` or as the ``--columns`` text ``"role=column,..."``,
    checked against the table's columns and the reader's ``roles`` (``{}`` for None)."""
    if columns is None:
        return {}
    if isinstance(columns, str):
        columns = parse_columns(columns)
    return check_mapping(columns, table_columns, label, roles)


def check_mapping(mapping: dict, columns, label: str, roles=ROLES) -> dict:
    """``mapping`` (role → column) checked against the table's ``columns``: known roles, columns
    that exist (a different case is accepted when unambiguous), no column used twice."""
    if not isinstance(mapping, dict):
        raise RankwiseError(f"columns must map roles to column names, e.g. {{'dataset': 'task',"
                            f" 'value': 'result'}}; got {type(mapping).__name__}")
    names = [str(c) for c in columns]
    by_lower = {}
    for c in names:
        by_lower.setdefault(c.strip().lower(), []).append(c)
    out, used = {}, {}
    for role, column in mapping.items():
        if role not in roles:
            raise RankwiseError(f"unknown role {role!r} in the column mapping; the roles are"
                                f" {', '.join(roles)}")
        column = str(column).strip()
        if column not in names:
            found = by_lower.get(column.lower(), [])
            if len(found) != 1:
                raise RankwiseError(f"{label}: no column {column!r} (mapped to {role}); the"
                                    f" table's columns are {', '.join(names)}")
            column = found[0]
        if column in used:
            raise RankwiseError(f"{label}: column {column!r} is mapped twice ({used[column]} and"
                                f" {role}); each role needs its own column")
        used[column] = role
        out[role] = column
    return out


def to_long(frame: pd.DataFrame, mapping: dict, label: str) -> tuple:
    """``(frame, mapping)``: the columns of ``mapping`` under their roles' names, with the rows'
    numbers in the input (``_row``), and the mapping completed: roles left out are taken from
    columns of the role's own name."""
    lower = {str(c).strip().lower(): c for c in frame.columns}
    full = dict(mapping)
    taken = set(full.values())
    for role in ROLES:
        if role not in full and role in lower and lower[role] not in taken:
            full[role] = lower[role]
    missing = [r for r in REQUIRED if r not in full]
    if missing:
        raise RankwiseError(f"{label}: the column mapping needs {', '.join(missing)} as well"
                            f" (e.g. --columns {missing[0]}=COLUMN); the table's columns are"
                            f" {', '.join(str(c) for c in frame.columns if c != '_row')}")
    out = pd.DataFrame({role: frame[col] for role, col in full.items()})
    if "_row" in frame:
        out["_row"] = frame["_row"].to_numpy()
    return out, full


def read_as(frame: pd.DataFrame, *, source_format: str, columns: dict | None, criterion,
            label: str, duplicates: str | None = None):
    """``(long frame, Reading, criterion)`` for a table in a named or detected format or with
    a column mapping; ``None`` when neither applies (rankwise reads the table itself).
    ``duplicates``: how repeated rows will be resolved (the AutoML benchmark's failed jobs that
    a re-run replaced are not reported as failures)."""
    name = source_format
    detected = False
    if name == "auto":
        name = detect(frame.columns)
        detected = name is not None
    if name == "rankwise":
        name = None
    if name is None and columns is None:
        return None
    frame = frame.copy(deep=False)
    original = [str(c) for c in frame.columns if c != "_row"]
    if "_row" not in frame:  # (a --where filter has numbered the rows already)
        frame["_row"] = np.arange(len(frame)) + 2
    notes, extra, built, describe = (), {}, {}, {}
    if name is not None and not detected:
        _check_format(name, frame.columns, label)
    mapping = {}
    if columns is not None:  # checked against the input's own columns
        mapping = mapping_of(columns, original, label)
    if name == "amlb":
        frame, built, describe, notes, criterion, extra = _amlb(frame, criterion, label,
                                                                mapping, duplicates)
    elif name == "weka":
        frame, built, describe, notes, criterion, extra = _weka(frame, criterion, label,
                                                                duplicates)
    elif name in TRACKERS:   # the user's mapping goes in: it may name the scores
        frame, built, describe, notes, criterion, extra = TRACKERS[name](frame, criterion, label,
                                                                         mapping)
    elif name is not None:
        adapter = {"openml": _openml, "mlr3": _mlr3, "tabarena": _tabarena,
                   "every-eval-ever": every_eval_ever_table}[name]
        frame, built, describe, notes, criterion, extra = adapter(frame, criterion, label)
    # a format's own choices, then the user's mapping over them
    plan = {role: col for role, col in built.items() if role not in mapping}
    plan.update(mapping)
    plan = check_mapping(plan, [c for c in frame.columns if c != "_row"], label)
    long, full = to_long(frame, plan, label)
    shown = {role: describe.get(role, col) for role, col in full.items()}
    shown.update(mapping)
    reading = Reading(name or "columns", shown, detected, notes, **extra)
    return long, reading, criterion


#: The experiment trackers' runs tables (:mod:`.trackers`).
TRACKERS = {"mlflow": mlflow_runs, "wandb": wandb_runs}


#: How each format reads repeated rows by default: the AutoML benchmark appends a re-run job to
#: its results file, and the later row replaces the earlier one; every other table refuses them.
FORMAT_DUPLICATES = {"amlb": "last"}


def duplicates_policy(source: str | None, given: str | None) -> str:
    """``given``, or the default of the input's format (``refuse`` for rankwise's own)."""
    return given or FORMAT_DUPLICATES.get(source, "refuse")


#: The AutoML benchmark's columns that say how a job ran, not how well: never a criterion.
AMLB_NOT_CRITERIA = frozenset({"id", "constraint", "fold", "type", "mode", "version", "params",
                               "app_version", "utc", "seed", "info", "tag"})


def _amlb(frame, criterion, label, mapping=None, duplicates=None):
    low = by_lower_name(frame)
    task, framework, result = (low[c] for c in ("task", "framework", "result"))
    mapping = mapping or {}
    notes, extra = [], {}
    learner_desc = _amlb_learners(frame, low, framework, mapping, notes, label)
    failed = text(frame[result]).str.lower().isin(MISSING_TOKENS)
    named = mapping.get("value")
    if criterion is None and named is not None and named not in (task, framework, result):
        # --columns value=auc names the scores: that metric column is the criterion
        criterion = named.strip().lower()
    if "metric" in low:
        metric = low["metric"]
        metrics = text(frame[metric])
    else:
        metric, metrics = "_metric", _older_metrics(frame, low, task, result, failed, label,
                                                    notes)
        frame["_metric"] = metrics
    metrics = _metrics_filled(frame, metrics, task, result, failed, label, notes)
    found = list(dict.fromkeys(metrics[metrics != ""]))
    policy = duplicates_policy("amlb", duplicates)
    if policy in ("last", "first"):  # a failed job that a re-run replaced is no failure
        key = [task, "_learner"] + ([low["fold"]] if "fold" in low else [])
        failed = failed & ~frame.duplicated(key, keep=policy)
    built = {"dataset": task, "learner": "_learner", "value": "_value"}
    describe = {"learner": learner_desc, "value": result,
                "criterion": metric if metric != "_metric" else "the metric column equal to"
                                                                 f" {result}"}
    if "fold" in low:
        built["fold"] = low["fold"]
    frame["_value"] = frame[result]
    if criterion is None:
        if len(found) > 1:
            listed = ", ".join(f"{m} ({_n_tasks(frame, task, metrics, m)} tasks)"
                               for m in found)
            raise RankwiseError(f"{label}: the tasks were scored on several metrics ({listed});"
                                " choose one with --criterion METRIC, or --criterion result to"
                                " rank every task on its own metric")
        criterion = found[0] if found else None
        frame["_criterion"] = metrics
        built["criterion"] = "_criterion"
    elif criterion in found:
        frame["_criterion"] = metrics
        built["criterion"] = "_criterion"
    elif criterion == "result":
        extra = _each_task_on_its_metric(frame, task, result, metrics, found, label, notes)
        frame["_criterion"] = "result"
        built["criterion"] = "_criterion"
        describe["criterion"] = "result (each task's own metric)"
    elif criterion in AMLB_NOT_CRITERIA and criterion in low:
        scores = [c for c in low if c not in AMLB_NOT_CRITERIA and not c.startswith("_")
                  and c not in ("task", "framework", "result", "metric", "models")]
        raise RankwiseError(f"{label}: {criterion!r} is a bookkeeping column of the AutoML"
                            f" benchmark, not a criterion; the scores are in"
                            f" {', '.join(scores)}, or --criterion result")
    elif criterion in low and criterion not in (task, framework, result, metric):
        built["value"] = low[criterion]
        frame["_criterion"] = criterion
        built["criterion"] = "_criterion"
        describe.update(criterion=f"{low[criterion]} (a metric column)", value=low[criterion])
        failed = text(frame[low[criterion]]).str.lower().isin(MISSING_TOKENS) & failed
    else:
        raise RankwiseError(f"{label}: no metric {criterion!r}; the tasks were scored on"
                            f" {', '.join(found)} (or --criterion result for every task on its"
                            " own metric)")
    if criterion in found:
        keep = (metrics == criterion).to_numpy()
        failed = failed[keep]
        frame = frame[keep]
    n_failed = int(failed.sum())
    if n_failed:
        extra["failed"] = _failures(frame[failed.to_numpy()], task,
                                    low.get("fold"), low.get("info"), n_failed)
    return frame, built, describe, tuple(notes), criterion, extra


def _amlb_learners(frame, low, framework, mapping, notes, label) -> str:
    """The learners (``_learner``): the framework, with the constraint appended when the file
    holds several and the user's mapping does not say what the constraint is (what the user
    states wins over what is inferred); returns how it was built."""
    frame["_learner"] = text(frame[framework])
    if "constraint" not in low:
        return framework
    constraint = text(frame[low["constraint"]])
    if constraint.nunique() <= 1 or low["constraint"] in mapping.values():
        return framework   # one constraint, or the user said what the constraint is
    if mapping.get("learner") == framework:
        # the user named the learner; the constraints would make two results of one cell
        raise RankwiseError(
            f"{label}: --columns learner={framework}: the file holds"
            f" {constraint.nunique()} constraints ({', '.join(dict.fromkeys(constraint))}), so"
            " each framework has a result per constraint for each task and fold; read one with"
            f" --where {low['constraint']}=NAME, make them repeats with --columns"
            f" learner={framework},repeat={low['constraint']}, or leave learner out (each"
            " framework under each constraint is then a learner)")
    if "learner" in mapping:
        return framework   # another column of the user's is the learner
    frame["_learner"] = frame["_learner"] + " (" + constraint + ")"
    notes.append(f"The file holds {constraint.nunique()} constraints"
                 f" ({', '.join(dict.fromkeys(constraint))}): each framework under each"
                 " constraint is a learner; --where constraint=NAME reads one.")
    return f"{framework} (constraint)"


def _each_task_on_its_metric(frame, task, result, metrics, found, label, notes) -> dict:
    """``--criterion result``: every task's result on its own metric, the lower-is-better ones
    negated (``_value``); returns the direction this sets."""
    unknown = [m for m in found if direction_of(m).higher_is_better is None]
    if unknown:
        raise RankwiseError(f"{label}: cannot tell which way the metric {unknown[0]!r}"
                            " points, so its tasks cannot be ranked with the others;"
                            f" analyse it alone with --criterion {unknown[0]}")
    lower = [m for m in found if direction_of(m).higher_is_better is False]
    flip = metrics.isin(lower).to_numpy()
    rows = frame["_row"].to_numpy()
    numbers = parse_numbers(frame[result],
                            lambda i: f"{label}: row {rows[i]}, column {result!r}").copy()
    numbers[flip] = -numbers[flip]
    frame["_value"] = numbers
    if lower:
        notes.append(f"Values of the lower-is-better metric(s) {', '.join(lower)} were"
                     " negated, so that higher is better for every task.")
    per = ", ".join(f"{m} for {_n_tasks(frame, task, metrics, m)} tasks" for m in found)
    notes.append(f"Each task is ranked on its own metric ({per}).")
    return {"higher_is_better": True,
            "direction_reason": "every task on its own metric, oriented so that higher is better"}


def _older_metrics(frame, low, task, result, failed, label, notes) -> pd.Series:
    """Each row's metric in the benchmark's older results (no ``metric`` column): the metric
    column that equals ``result`` on the most completed jobs of the task, at least half of them
    (auc for binary tasks, logloss for multi-class ones, ...). The benchmark's own files have
    re-run rows whose result sits in another metric's column; the result is what is read, and
    the report counts those rows."""
    columns = [low[m] for m in AMLB_METRICS if m in low]
    if not columns:
        raise RankwiseError(f"{label}: an AutoML-benchmark file needs a metric column, or the"
                            f" metric columns of its older format ({', '.join(AMLB_METRICS[:4])},"
                            " ...), to know what its result measures")
    tasks = text(frame[task])
    done = ~failed.to_numpy()
    value = pd.to_numeric(text(frame[result]), errors="coerce").to_numpy()
    # per column: whether it equals the result, on every row (read once, not per task)
    equal = {col: np.isclose(pd.to_numeric(text(frame[col]), errors="coerce").to_numpy(),
                             value, rtol=1e-9, atol=0) for col in columns}
    chosen, astray = {}, 0
    for name in dict.fromkeys(tasks):
        rows = (tasks == name).to_numpy() & done
        if not rows.any():
            continue  # only failed jobs: their metric is unknown, and they have no result
        counts = {col: int(equal[col][rows].sum()) for col in columns}
        best = max(counts.values())
        if 2 * best < rows.sum():
            raise RankwiseError(f"{label}: task {name!r}: no metric column"
                                f" ({', '.join(columns)}) equals its {result} on most of its"
                                " jobs, so its metric is unknown; analyse a metric column with"
                                " --criterion NAME")
        chosen[name] = _prefer([col for col in columns if counts[col] == best])
        astray += int(rows.sum()) - best
    per = {}
    for name, col in chosen.items():
        per.setdefault(col, []).append(name)
    notes.append("The file is the AutoML benchmark's older results format (no metric column):"
                 f" each task's metric is the metric column equal to its {result} ("
                 + ", ".join(f"{col} for {len(names)} task(s)" for col, names in per.items())
                 + ")." + (f" In {astray} completed job(s) that column differs from {result}"
                           f" (the value sits in another metric's column); their {result} was"
                           " read." if astray else ""))
    return tasks.map(lambda t: chosen.get(t, "")).astype(str)


def _prefer(hits):
    """Of the metric columns equal to the result equally often (a perfect score on both, or one
    alone): the benchmark's own choice, auc for binary and logloss for multi-class tasks."""
    for name in ("auc", "logloss", "rmse", "r2"):
        for col in hits:
            if col.lower() == name:
                return col
    return hits[0]


def _metrics_filled(frame, metrics, task, result, failed, label, notes) -> pd.Series:
    """Rows with an empty metric take their task's metric when the task has exactly one; a row
    with a result but no knowable metric is an error (never dropped without a word)."""
    empty = (metrics == "").to_numpy()
    if not empty.any():
        return metrics
    tasks = text(frame[task])
    known = pd.Series(metrics.to_numpy(), index=tasks.to_numpy())[~empty]
    per_task = known.groupby(level=0).agg(lambda v: tuple(dict.fromkeys(v)))
    filled = metrics.copy()
    rows = frame["_row"].to_numpy()
    n_filled = 0
    for i in np.flatnonzero(empty):
        options = per_task.get(tasks.iloc[i], ())
        if len(options) == 1:
            filled.iloc[i] = options[0]
            n_filled += 1
        elif not failed.iloc[i]:
            raise RankwiseError(f"{label}: row {rows[i]} has a result ({frame[result].iloc[i]})"
                                f" but no metric, and task {tasks.iloc[i]!r} has"
                                f" {'no other rows' if not options else 'several metrics'} to"
                                " take it from; fill its metric, or remove the row")
    if n_filled:
        notes.append(f"{n_filled} row(s) with an empty metric took their task's metric.")
    return filled


def _failures(rows, task, fold, info, n_failed) -> str:
    """One sentence: the failed jobs grouped by learner, task and message, folds listed."""
    groups = {}
    for _, r in rows.iterrows():
        message = (str(r[info]).strip() if info is not None and pd.notna(r[info]) else "") \
            or "no message"
        if len(message) > MESSAGE_SHOWN:  # a traceback: its start says what failed
            message = message[:MESSAGE_SHOWN].rstrip() + "…"
        key = (r["_learner"], str(r[task]), message)
        groups.setdefault(key, []).append(str(r[fold]) if fold is not None else None)
    parts = []
    for (learner, where, message), folds in list(groups.items())[:FAILED_SHOWN]:
        folds = [f for f in folds if f is not None]
        said = (f" fold{'s' if len(folds) > 1 else ''} {', '.join(folds)}" if folds else "")
        parts.append(f"{learner} on {where}{said}: {message}")
    more = len(groups) - FAILED_SHOWN
    tail = f"; and {more} more group(s) of failures" if more > 0 else ""
    return (f"{n_failed} job(s) failed and their results are missing (" + "; ".join(parts)
            + tail + ").")


def _n_tasks(frame, task, metrics, m) -> int:
    return int(frame.loc[(metrics == m).to_numpy(), task].nunique())


def _qualified(names: pd.Series, ids: pd.Series, word: str) -> tuple:
    """``(labels, qualified)``: ``names``, with `` (word id)`` appended to each name that goes
    with several ids (one data set with several tasks, one flow with several setups)."""
    several = ids.groupby(names).transform("nunique") > 1
    if not several.any():
        return names, False
    return names.where(~several, names + f" ({word} " + ids + ")"), True


def _openml(frame, criterion, label):
    low = by_lower_name(frame)
    built = {"criterion": low["function"], "value": low["value"], "dataset": "_dataset",
             "learner": "_learner"}
    if "data_name" in low:
        frame["_dataset"], split = _qualified(text(frame[low["data_name"]]),
                                              text(frame[low["task_id"]]) if "task_id" in low
                                              else pd.Series("", index=frame.index), "task")
        desc = low["data_name"] + (" (task_id where a data set has several tasks)" if split
                                   else "")
    else:
        frame["_dataset"] = "task " + text(frame[low["task_id"]])
        desc = low["task_id"]
    flows = text(frame[low["flow_name"]])
    frame["_learner"], split = _qualified(flows, text(frame[low["setup_id"]]) if "setup_id"
                                          in low else pd.Series("", index=frame.index), "setup")
    ldesc = low["flow_name"] + (" (setup_id where a flow has several setups)" if split else "")
    if "run_id" in low:
        built["repeat"] = low["run_id"]
    describe = {"dataset": desc, "learner": ldesc}
    notes = ("OpenML's value is each run's score over all of its folds (the per-fold values"
             " of the listing are not read); several runs of one setup on one task are"
             " repeats.",) if "run_id" in low else ()
    return frame, built, describe, notes, criterion, {}


#: Columns of mlr3's benchmark tables that are not measures.
MLR3_META = {"uhash", "nr", "task", "task_id", "learner", "learner_id", "resampling",
             "resampling_id", "iteration", "iters", "prediction", "prediction_test",
             "warnings", "errors", "resample_result", "task_hash", "learner_hash",
             "resampling_hash", "param_values", "learner_param_vals"}


def _mlr3(frame, criterion, label):
    low = by_lower_name(frame)
    built = {"dataset": low["task_id"], "learner": low["learner_id"]}
    if "iteration" in low:
        built["fold"] = low["iteration"]
    measures = []
    for key, col in low.items():
        if key in MLR3_META or col == "_row":
            continue
        numbers = pd.to_numeric(frame[col], errors="coerce")
        if numbers.notna().any():
            measures.append(col)
    if not measures:
        raise RankwiseError(f"{label}: the mlr3 table has no measure column (numbers besides"
                            f" {', '.join(sorted(k for k in low if k in MLR3_META))})")
    if criterion is None:
        if len(measures) > 1:
            raise RankwiseError(f"{label}: the mlr3 table has several measures"
                                f" ({', '.join(measures)}); choose one with --criterion")
        chosen = measures[0]
    else:
        hits = [m for m in measures if m == criterion or m.lower() == str(criterion).lower()]
        if not hits:
            raise RankwiseError(f"{label}: no measure {criterion!r}; the mlr3 table has"
                                f" {', '.join(measures)}")
        chosen = hits[0]
    built["value"] = chosen
    frame["_criterion"] = chosen
    built["criterion"] = "_criterion"
    describe = {"criterion": f"{chosen} (a measure column)"}
    return frame, built, describe, (), chosen, {"criteria": tuple(measures)}


#: WEKA's result columns that are not measures of a learner.
WEKA_KEYS = ("key_dataset", "key_run", "key_fold", "key_scheme", "key_scheme_options",
             "key_scheme_version_id", "date_time", "number_of_training_instances",
             "number_of_testing_instances", "summary")
#: The direction of WEKA's measures whose names do not say it (the others: their words).
WEKA_DIRECTIONS = {"percent_correct": True, "percent_incorrect": False,
                   "percent_unclassified": False, "number_correct": True,
                   "number_incorrect": False, "area_under_prc": True,
                   "true_positive_rate": True, "false_positive_rate": False,
                   "true_negative_rate": True, "false_negative_rate": False,
                   "weighted_avg_true_positive_rate": True,
                   "weighted_avg_false_positive_rate": False,
                   "weighted_avg_area_under_prc": True, "serialized_model_size": False,
                   "serialized_train_set_size": False, "serialized_test_set_size": False,
                   "kb_information": True, "kb_mean_information": True,
                   "kb_relative_information": True, "sf_entropy_gain": True,
                   "sf_mean_entropy_gain": True, "sf_scheme_entropy": False,
                   "sf_mean_scheme_entropy": False}
#: WEKA's Experimenter compares this column by default.
WEKA_DEFAULT = "Percent_correct"


def _weka(frame, criterion, label, duplicates=None):
    """WEKA's Experimenter result file (ARFF or CSV): data set = ``Key_Dataset``, learner =
    ``Key_Scheme`` without ``weka.classifiers.`` (with its options when one scheme ran with
    several), repeat = ``Key_Run``, fold = ``Key_Fold``, criterion = a measure column
    (``Percent_correct`` by default, as in WEKA); the test-to-training ratio of each data set
    comes from the instance counts. A file without ``Key_Fold`` is WEKA's random-split design
    (``RandomSplitResultProducer``): each run is one train/test split, read as fold 1 of that
    run."""
    low = by_lower_name(frame)
    measures = [col for key, col in low.items() if key not in WEKA_KEYS and col != "_row"
                and pd.to_numeric(frame[col], errors="coerce").notna().any()]
    chosen = _weka_measure(measures, criterion, label)
    declared = frame.attrs.get("arff_types", {}).get(chosen, "numeric")
    if declared != "numeric":   # WEKA's tester refuses it; a number-looking label is no score
        raise RankwiseError(f"{label}: the measure {chosen} is declared {declared} in the ARFF"
                            " header, and WEKA tests numeric measures only; declare it"
                            f" '@attribute {chosen} numeric'")
    scheme = text(frame[low["key_scheme"]]).str.replace("weka.classifiers.", "", regex=False)
    options = (text(frame[low["key_scheme_options"]]).fillna("")
               if "key_scheme_options" in low else pd.Series("", index=frame.index))
    several = options.groupby(scheme).nunique() > 1
    frame["_learner"] = [f"{s} {o}".strip() if several.get(s, False) else s
                         for s, o in zip(scheme, options)]
    if duplicates is None:
        _weka_relations(frame, low, label)
    built = {"dataset": low["key_dataset"], "learner": "_learner", "repeat": low["key_run"],
             "value": chosen}
    frame["_criterion"] = chosen
    built["criterion"] = "_criterion"
    describe = {"learner": f"{low['key_scheme']} (and its options where one scheme ran with"
                           " several)", "criterion": f"{chosen} (a measure column)"}
    if "key_fold" in low:
        built["fold"] = low["key_fold"]
    else:   # the Experimenter's default design: each run is one random train/test split
        frame["_fold"] = "1"
        built["fold"] = "_fold"
        describe["fold"] = ("1 in every run (no Key_Fold: WEKA's random-split design, each"
                            " Key_Run one train/test split)")
    extra = {"criteria": tuple(measures), "test_train_ratio": _weka_ratios(frame, low)}
    way = WEKA_DIRECTIONS.get(chosen.lower())
    if way is not None:
        extra.update(higher_is_better=way, direction_reason=f"WEKA's measure {chosen}")
    return frame, built, describe, (), chosen, extra


#: TabArena's own columns beside the error that are not criteria.
TABARENA_KEYS = ("dataset", "task", "fold", "method", "metric", "problem_type", "imputed",
                 "impute_method", "method_type", "method_subtype", "config_type", "ta_name",
                 "ta_suite", "seed", "repeat")


def _tabarena(frame, criterion, label):
    """TabArena's per-split results (``results_per_split``, as its evaluation and bencheval
    write them; bencheval's own input names the data set ``task`` and the split ``seed``):
    data set = ``dataset`` (or ``task``), learner = ``method``, fold = ``fold`` (or ``seed``), value =
    ``metric_error`` (each data set's own metric, in ``metric``, as an error: lower is
    better), or another numeric column named by the criterion (``time_train_s``)."""
    low = by_lower_name(frame)
    numeric = [col for key, col in low.items() if key not in TABARENA_KEYS and col != "_row"
               and pd.to_numeric(frame[col], errors="coerce").notna().any()]
    want = "metric_error" if criterion is None else str(criterion)
    hits = [c for c in numeric if str(c).lower() == want.lower()]
    if not hits:
        raise RankwiseError(f"{label}: no numeric column {want!r} to read as the scores; the"
                            f" TabArena table has {', '.join(map(str, numeric))}")
    chosen = hits[0]
    built = {"dataset": low.get("dataset", low.get("task")), "learner": low["method"],
             "value": chosen}
    split = low.get("fold", low.get("seed"))   # bencheval's seed_column, TabArena's fold
    if split is not None:
        built["fold"] = split
    if "repeat" in low:
        built["repeat"] = low["repeat"]
    describe = {"value": f"{chosen}" + (" (each data set's metric, in the metric column, as"
                                        " an error)" if str(chosen).lower() == "metric_error"
                                        else "")}
    extra = {"criteria": tuple(numeric)}
    if str(chosen).lower() == "metric_error":
        extra.update(higher_is_better=False,
                     direction_reason="TabArena's metric_error (an error: lower is better)")
    return frame, built, describe, (), chosen, extra


def _weka_relations(frame, low, label) -> None:
    """One line for data sets whose rows repeat every key (scheme, run, fold): WEKA names a
    data set by its ARFF ``@relation``, so two data sets that share one are told apart by
    renaming one (keeping the last or first row of each key would drop one of them)."""
    key = [low["key_dataset"], "_learner", low["key_run"]] + [low[k] for k in ("key_fold",)
                                                              if k in low]
    twice = frame.duplicated(key, keep=False).to_numpy()
    if not twice.any():
        return
    names = list(dict.fromkeys(text(frame.loc[twice, low["key_dataset"]])))
    rows = frame[twice].groupby(key, sort=False)["_row"].apply(list).iloc[0]
    raise RankwiseError(f"{label}: {', '.join(map(repr, names))}"
                        f" {'names' if len(names) == 1 else 'each name'} two data sets (rows"
                        f" {' and '.join(map(str, rows))} repeat a scheme, run and fold): WEKA"
                        " names a data set by its ARFF @relation, and two data sets of the"
                        " experiment share one; give each its own @relation (or rename one data"
                        " set's Key_Dataset in this file) and read it again (--duplicates last"
                        " would keep one of them and drop the other)")


def _weka_measure(measures, criterion, label) -> str:
    if not measures:
        raise RankwiseError(f"{label}: the WEKA result file has no measure column")
    want = WEKA_DEFAULT if criterion is None else str(criterion)
    hits = [m for m in measures if m.lower() == want.lower()]
    if not hits:
        if criterion is None:
            raise RankwiseError(f"{label}: no {WEKA_DEFAULT} column; choose a measure with"
                                f" --criterion (one of {', '.join(measures)})")
        raise RankwiseError(f"{label}: no measure {criterion!r}; the WEKA result file has"
                            f" {', '.join(measures)}")
    return hits[0]


def _weka_ratios(frame, low) -> dict | None:
    """``{data set: Σ test instances / Σ training instances}`` over its folds (WEKA's n₂/n₁)."""
    train, test = low.get("number_of_training_instances"), low.get("number_of_testing_instances")
    if train is None or test is None:
        return None
    sums = pd.DataFrame({"dataset": text(frame[low["key_dataset"]]),
                         "train": pd.to_numeric(frame[train], errors="coerce"),
                         "test": pd.to_numeric(frame[test], errors="coerce")}
                        ).groupby("dataset", sort=False)[["train", "test"]].sum()
    return {str(d): float(row.test / row.train) for d, row in sums.iterrows() if row.train > 0}
