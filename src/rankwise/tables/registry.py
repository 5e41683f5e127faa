"""The one registry behind every ``--source``: which sources there are, which one a file or a
table's header is, and the one message for a source that is not one of them.

The sources are declared once, in :data:`rankwise.names.SOURCES` (name, family, what it reads);
this module gives each its detectors and is the only place that tells them apart. Four
families, each with its reader:

- ``table`` (:func:`rankwise.load_table`): rankwise's own tables and other tools' formats,
  recognised from the header (:mod:`.sources`), and an MLflow tracking store from an SQLite
  file's tables or a folder's files (:mod:`.trackers`);
- ``items`` (:func:`rankwise.read_items`): scored items, recognised from the file's name, its
  first bytes, or a long table's header;
- ``curves`` (:func:`rankwise.read_curves`): performance over a budget, recognised from a
  folder's files, the file's name, an SQLite file's tables, or a table's header;
- ``votes`` (:func:`rankwise.read_votes`): pairwise votes, recognised from a folder's judgment
  files (arena-hard-auto), a JSON file's first bytes, or a table's header.

A detector looks at one thing (:data:`KINDS`): a folder's files, a file's name, a file's first
bytes (its content), or a table's header. :func:`which` answers "which source of this family
is this path or header?": it tries the kinds in the order asked and, for each kind, the family's
sources in the registry's order; the first that says yes is the answer. Each reader asks it
with the kinds it uses (the table formats by header, an MLflow store by folder and content;
curves by folder, name and content before the file is read, and by header after), so that
every detection is the same as when each reader kept its own rules.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from ..errors import RankwiseError
from ..names import ITEM_SOURCES, SOURCES, Source, source_names
from .._text import brief
from .eval_records import looks_instance

#: What a detector looks at, in the order :func:`which` asks by default.
KINDS = ("folder", "name", "content", "header")
#: The first characters of a file that a content detector reads.
HEAD_CHARS = 4096
#: The suffixes of a file whose header the item detector reads.
HEADER_SUFFIXES = (".csv", ".tsv", ".txt", ".parquet")
#: The suffixes of an SQLite file the curve readers open (Optuna's storage, a results database).
SQLITE_SUFFIXES = (".db", ".sqlite", ".sqlite3")
#: The metric columns the AutoML benchmark writes beside ``result`` (lower case).
AMLB_METRICS = ("acc", "auc", "balacc", "logloss", "mae", "mse", "r2", "rmse", "rmsle", "f1",
                "precision", "recall", "mape", "smape", "mase", "wape", "rmsse", "sql", "wql")


class Probe:
    """What the detectors look at, each read once and only when one of them asks: a path (a
    file or a folder), and a table's header (given, or read from the file)."""

    def __init__(self, path=None, columns=None):
        self.path = None if path is None else Path(path)
        self.given = None if columns is None else list(columns)

    @cached_property
    def is_dir(self) -> bool:
        return self.path is not None and self.path.is_dir()

    @cached_property
    def head(self) -> str:
        """The file's first characters (UTF-8); one line if it cannot be read."""
        try:
            with open(self.path, encoding="utf-8") as fh:
                return fh.read(HEAD_CHARS)
        except OSError as exc:
            raise RankwiseError(f"{self.path}: cannot be read ({exc.strerror})") from None

    @cached_property
    def sqlite_tables(self) -> frozenset | None:
        """The tables of an SQLite file (None for any other file)."""
        if self.path.suffix not in SQLITE_SUFFIXES:
            return None
        with open(self.path, "rb") as fh:
            if fh.read(16) != b"SQLite format 3\x00":
                return None
        try:
            con = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, timeout=1.0)
            try:
                return frozenset(r[0] for r in con.execute("select name from sqlite_master"))
            finally:
                con.close()
        except sqlite3.Error as exc:
            why = ("locked by another program; try again when it is done" if "locked" in
                   str(exc) else f"a damaged SQLite file ({brief(exc, self.path)})")
            raise RankwiseError(f"{self.path}: {why}") from None

    @cached_property
    def columns(self) -> list | None:
        """The header given, or the header of a CSV/TSV/text/Parquet file (None when there is
        none or it cannot be read: the table's reader will say what is wrong)."""
        if self.given is not None:
            return self.given
        if self.path is None or self.is_dir or self.path.suffix.lower() not in HEADER_SUFFIXES:
            return None
        try:
            if self.path.suffix.lower() == ".parquet":
                import pyarrow.parquet as pq

                return list(pq.read_schema(self.path).names)
            import pandas as pd

            return list(pd.read_csv(self.path, nrows=0, sep=None, engine="python",
                                   encoding="utf-8-sig").columns)
        except Exception:  # noqa: BLE001 - the table reader will say what is wrong
            return None

    @cached_property
    def lower(self) -> set:
        """The header's names stripped and in lower case (the table formats' rule)."""
        return {str(c).strip().lower() for c in self.columns or ()}


# --------------------------------------------------------------------------- the detectors
# Each takes a Probe and says whether it is its source. The table formats by header:

def _amlb(probe) -> bool:
    lower = probe.lower
    return {"task", "framework", "result", "metric"} <= lower or (
        # the benchmark's older results: no metric column
        {"task", "framework", "result", "fold"} <= lower and bool(lower & set(AMLB_METRICS)))


def _openml(probe) -> bool:
    return {"flow_name", "function", "value"} <= probe.lower and bool(
        probe.lower & {"data_name", "task_id"})


def _tabarena(probe) -> bool:
    # TabArena's per-split results, or bencheval's input (task, seed)
    return {"method", "metric_error"} <= probe.lower and bool(probe.lower & {"dataset", "task"})


#: The tables of an MLflow tracking store's SQLite file (MLflow's schema has more).
MLFLOW_TABLES = frozenset({"experiments", "runs", "metrics", "params"})


def _mlflow_header(probe) -> bool:
    # search_runs()'s frame: the run's id, then metrics.X / params.Y columns
    return "run_id" in probe.lower and any(c.startswith(("metrics.", "params."))
                                           for c in probe.lower)


def _mlflow_content(probe) -> bool:
    tables = probe.sqlite_tables
    return tables is not None and MLFLOW_TABLES <= tables


def _mlruns_folder(probe) -> bool:
    """MLflow's file store: a folder per experiment, each with its meta.yaml."""
    for meta in sorted(probe.path.glob("*/meta.yaml"))[:3]:
        try:
            if "artifact_location" in meta.read_text(encoding="utf-8", errors="replace"):
                return True
        except OSError:
            continue
    return False


def _wandb_header(probe) -> bool:
    lower = probe.lower
    # the web UI's export of a runs table, or the frame of Api().runs() (dicts or flattened)
    return ({"name", "state"} <= lower and bool(lower & {"created", "runtime", "sweep"})) or (
        "name" in lower and ({"config", "summary"} <= lower
                             or any(c.startswith("summary.") for c in lower)))


# ... scored items by the file's name, its first bytes (JSON) or a long table's header:

def _json_head(probe) -> str:
    return probe.head if probe.path.suffix.lower() == ".json" else ""


def _inspect_content(probe) -> bool:
    head = _json_head(probe)
    return '"eval"' in head and ('"samples"' in head or '"version"' in head)


def _items_header(probe) -> bool:
    columns = probe.columns
    return columns is not None and {"model", "task", "item", "score"} <= {
        str(c).lower() for c in columns}


# ... and curves by a folder's files, the file's name, an SQLite file's tables or the header.

def _optuna_content(probe) -> bool:
    tables = probe.sqlite_tables
    return tables is not None and {"studies", "trials", "trial_values"} <= tables


# ... and vote logs by a folder's judgment files, the file's first bytes (JSON) or the header.

#: The suffixes of a JSON or JSON-lines file whose first bytes a vote detector reads.
VOTE_JSON = (".json", ".jsonl")


def _vote_head(probe) -> str:
    return probe.head if probe.path.suffix.lower() in VOTE_JSON else ""


def _arena_hard_content(probe) -> bool:
    head = _vote_head(probe)
    return '"games"' in head and '"model"' in head


def _arena_hard_folder(probe) -> bool:
    """arena-hard-auto's model_judgment (a folder per judge) or one judge's folder: judgment
    files at most two levels down."""
    for pattern in ("*.jsonl", "*/*.jsonl"):
        for found in sorted(probe.path.glob(pattern))[:3]:
            if _arena_hard_content(Probe(found)):
                return True
    return False


def _arena_content(probe) -> bool:
    head = _vote_head(probe)
    return '"model_a"' in head and ('"anony"' in head or '"conv_metadata"' in head)


def _arena_header(probe) -> bool:
    lower = probe.lower
    return {"model_a", "model_b", "winner_model_a", "winner_model_b"} <= lower or (
        {"model_a", "model_b", "winner"} <= lower and bool(lower & {"anony",
                                                                     "conv_metadata"}))


def _mt_bench_content(probe) -> bool:
    head = _vote_head(probe)
    return '"g1_winner"' in head and '"model_1"' in head


def _votes_header(probe) -> bool:
    lower = probe.lower
    return {"model_a", "model_b"} <= lower and ("winner" in lower
                                                or {"wins_a", "wins_b"} <= lower)


def _votes_content(probe) -> bool:
    head = _vote_head(probe)
    return '"model_a"' in head and '"model_b"' in head and '"winner"' in head


def _records_head(probe) -> str:
    """The first characters of a JSON or JSON-lines file (the shared schemas' records)."""
    return probe.head if probe.path.suffix.lower() in (".json", ".jsonl") else ""


#: Each source's detectors by what they look at; a source without one is only read when named
#: (``rankwise``'s own table is what a table of no other format is; ``items-stream`` and
#: ``curves`` are read when asked, ``items`` and ``curves`` also when nothing else fits).
DETECTORS = {
    ("table", "amlb"): {"header": _amlb},
    ("table", "openml"): {"header": _openml},
    ("table", "mlr3"): {"header": lambda p: {"task_id", "learner_id"} <= p.lower},
    ("table", "weka"): {"header": lambda p: {"key_dataset", "key_run", "key_scheme"} <= p.lower},
    ("table", "tabarena"): {"header": _tabarena},
    ("table", "mlflow"): {"folder": _mlruns_folder, "content": _mlflow_content,
                          "header": _mlflow_header},
    ("table", "wandb"): {"header": _wandb_header},
    ("items", "items"): {"header": _items_header},
    ("items", "lm-eval"): {"name": lambda p: re.match(r"samples_.+\.jsonl$", p.path.name)
                           is not None},
    ("items", "inspect"): {"name": lambda p: p.path.suffix == ".eval",
                           "content": _inspect_content},
    ("items", "helm"): {"name": lambda p: p.path.name == "per_instance_stats.json"},
    ("items", "swe-bench"): {"content": lambda p: "resolved" in _json_head(p)},
    ("curves", "ioh"): {"folder": lambda p: next(p.path.rglob("IOHprofiler_*.json"), None)
                        is not None,
                        "name": lambda p: p.path.name.startswith("IOHprofiler_")
                        and p.path.suffix == ".json"},
    ("curves", "optuna"): {"content": _optuna_content,
                           # as study.trials_dataframe() names them (their own case)
                           "header": lambda p: {"number", "value", "state"}
                           <= set(p.columns or ())},
    ("curves", "rankwise"): {"folder": lambda p: (p.path / "results.db").exists(),
                             "content": lambda p: p.sqlite_tables is not None
                             and "results" in p.sqlite_tables},
    ("votes", "arena"): {"content": _arena_content, "header": _arena_header},
    ("votes", "mt-bench"): {"content": _mt_bench_content,
                            "header": lambda p: {"model_1", "model_2", "g1_winner"} <= p.lower},
    ("votes", "arena-hard"): {"folder": _arena_hard_folder, "content": _arena_hard_content},
    ("votes", "votes"): {"content": _votes_content, "header": _votes_header},
    # shared schemas: by a JSON file's first bytes (the schema's keys), and the aggregate
    # records by the header of the table tables/eval_records.py reads them into
    ("table", "every-eval-ever"): {"header": lambda p: {"evaluation_id", "model_id",
                                                        "evaluation_name", "lower_is_better",
                                                        "value"} <= p.lower},
    ("items", "every-eval-ever-items"): {"name": lambda p: p.path.name.endswith(
        "_samples.jsonl") and looks_instance(_records_head(p)),
        "content": lambda p: looks_instance(_records_head(p))},
    ("items", "openeval"): {"content": lambda p: '"item_id"' in _records_head(p) and any(
        f'"{key}"' in _records_head(p) for key in ("item_metadata", "item_content"))},
}


@dataclass(frozen=True)
class Entry:
    """A registered source: its declaration and its detectors (kind -> test of a Probe)."""

    source: Source
    detectors: dict

    @property
    def name(self) -> str:
        return self.source.name

    @property
    def family(self) -> str:
        return self.source.family

    @property
    def description(self) -> str:
        return self.source.description


REGISTRY = tuple(Entry(s, DETECTORS.get((s.family, s.name), {})) for s in SOURCES)
assert set(DETECTORS) <= {(e.family, e.name) for e in REGISTRY}
assert all(set(e.detectors) <= set(KINDS) for e in REGISTRY)


def entries(*families: str) -> tuple:
    """The registered sources of ``families``, in the registry's order."""
    return tuple(e for e in REGISTRY if e.family in families)


# --------------------------------------------------------------------------- which source

def which(family: str, path=None, *, columns=None, by=KINDS) -> str | None:
    """The source of ``family`` that ``path`` (a file or a folder) or a table's ``columns``
    is, or None when no detector says so. The kinds in ``by`` are tried in their order (a
    folder's files for a folder; a file's name and content for a file; the header given, or
    a file's), and for each kind the family's sources in the registry's order."""
    probe = Probe(path, columns)
    for kind in by:
        if kind == "folder" and not probe.is_dir:
            continue
        if kind in ("name", "content") and (probe.path is None or probe.is_dir):
            continue
        for entry in entries(family):
            test = entry.detectors.get(kind)
            if test is not None and test(probe):
                return entry.name
    return None


def table_format(columns) -> str | None:
    """The other tool's format a table's header belongs to, or None for rankwise's own."""
    return which("table", columns=columns, by=("header",))


def item_kind(path) -> str:
    """The item reader of one file given by the user: by its name, then a JSON file by its
    content (one line when no reader knows it), any other file a long table."""
    p = Path(path)
    kind = which("items", p, by=("name", "content"))
    if kind is None and p.suffix.lower() == ".json":
        raise RankwiseError(f"{p}: not a file of scored items rankwise knows"
                            f" ({_described('items', 'content')}); say which with --source")
    return kind or "items"


def _described(family: str, *kinds: str) -> str:
    """``name: what it reads; ...`` of the sources of ``family`` with a detector of ``kinds``
    (what detection looked for, in a message)."""
    return "; ".join(f"{e.name}: {e.description}" for e in entries(family)
                     if set(kinds) & set(e.detectors))


def item_kind_in_folder(path) -> str | None:
    """The item reader of a file met in a folder: by its name, or a JSON file by its content
    (others, such as lm-eval's results_*.json, are not items and are passed over)."""
    p = Path(path)
    if p.suffix.lower() == ".json" and not p.name.startswith("results_"):
        try:
            return which("items", p, by=("name", "content"))
        except RankwiseError:
            return None
    return which("items", p, by=("name",))


def item_files(folder) -> list:
    """The files of scored items under ``folder``, sorted (one line when there is none)."""
    found = sorted(q for q in Path(folder).rglob("*") if q.is_file() and item_kind_in_folder(q))
    if not found:
        raise RankwiseError(f"{folder}: no file of scored items in this folder (looked for"
                            f" {_described('items', 'name', 'content')})")
    return found


def is_items(path) -> bool:
    """Whether ``path`` is scored items: a folder with a file of scored items, a file named
    as one or (a JSON file) known by its content, or a long table with the columns model,
    task, item, score."""
    p = Path(path)
    if p.is_dir():
        return any(item_kind_in_folder(q) for q in p.rglob("*") if q.is_file())
    # a single inspect log or SWE-bench report is known by its content, as in a folder (whose
    # test has tried the file's name already); a table by its header
    return (item_kind_in_folder(p) is not None
            or which("items", p, by=("header",)) is not None)


def curve_kind(path) -> str | None:
    """The curve reader of a file or folder by its shape alone, before it is read (None: a
    table, or nothing the curve readers know)."""
    return which("curves", path, by=("folder", "name", "content"))


def curve_kind_of_table(columns) -> str:
    """The curve reader of a table by its header: Optuna's trials, or a long table."""
    return which("curves", columns=columns, by=("header",)) or "curves"


def vote_kind(path) -> str:
    """The vote reader of a file or folder: arena-hard-auto's judgment folder, then a JSON
    file by its content, then a table by its header (one line when no reader knows it)."""
    p = Path(path)
    kind = which("votes", p)
    if kind is None:
        raise RankwiseError(f"{p}: not a vote log rankwise knows (looked for"
                            f" {_described('votes', *KINDS)}); say which with source=")
    return kind


# --------------------------------------------------------------------------- routing

def choices(*families: str) -> tuple:
    """What ``--source`` takes for ``families``: ``auto``, then their sources."""
    return ("auto",) + source_names(*families)


def check(source, *families: str) -> str:
    """``source`` if ``--source`` of ``families`` takes it; otherwise the one line that lists
    what it takes."""
    allowed = choices(*families)
    if source not in allowed:
        raise RankwiseError(f"--source must be one of {', '.join(allowed)}; got {source!r}")
    return source


def reads_items(path, source: str) -> bool:
    """Whether a table command's ``--source`` (``compare``, ``leaderboard``) goes to the item
    readers: an item source named, or ``auto`` and a path that is scored items."""
    if source in ITEM_SOURCES:
        return True
    if source != "auto" or path is None or not Path(path).exists():
        return False
    # an MLflow store's folder holds the runs' artifacts, whatever files they are
    return which("table", path, by=("folder",)) is None and is_items(path)
