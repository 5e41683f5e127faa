"""Results of an experiment in an embedded SQLite database (WAL mode).

One row per (data set, repeat, fold, learner, criterion) in ``results``, one per task in
``tasks`` (with the task's *identity*: a hash of the data set's content, the seed, the folds, the
learner's estimator and parameters and the criteria, so that a result is reused only for the
very task that produced it), and the run's design, seeds, data-set hashes and library versions
in ``meta``. Only the driver writes, one transaction per finished task, so a killed run (even
``kill -9``) keeps every task it committed and nothing of the one it was writing; readers (a
report) can open the file while the run goes on. One driver at a time: a writer holds an
exclusive lock on the file (``flock``), which the kernel releases when the process ends, however
it ends.
"""

from __future__ import annotations

import json
import re
import sqlite3
import time
from pathlib import Path

import pandas as pd

from ..errors import RankwiseError
from .._text import brief

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tasks (
    dataset TEXT NOT NULL, repeat INTEGER NOT NULL, fold INTEGER NOT NULL, learner TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('done', 'failed')), error TEXT,
    finished REAL NOT NULL, warnings TEXT, identity TEXT,
    PRIMARY KEY (dataset, repeat, fold, learner));
CREATE TABLE IF NOT EXISTS results (
    dataset TEXT NOT NULL, repeat INTEGER NOT NULL, fold INTEGER NOT NULL, learner TEXT NOT NULL,
    criterion TEXT NOT NULL, value REAL, reason TEXT,
    PRIMARY KEY (dataset, repeat, fold, learner, criterion));
CREATE TABLE IF NOT EXISTS curve_results (
    dataset TEXT NOT NULL, repeat INTEGER NOT NULL, fold INTEGER NOT NULL, learner TEXT NOT NULL,
    budget REAL NOT NULL, criterion TEXT NOT NULL, value REAL, reason TEXT,
    PRIMARY KEY (dataset, repeat, fold, learner, budget, criterion));
"""


def is_sqlite(path) -> bool:
    try:
        with open(path, "rb") as fh:
            return fh.read(16) == b"SQLite format 3\x00"
    except OSError:
        return False


class Store:
    """The results database of one run."""

    def __init__(self, path, readonly: bool = False):
        self.path = Path(path)
        self._lock = None
        if readonly:
            if not self.path.exists():
                raise RankwiseError(f"{self.path}: no such file")
            if self.path.is_dir():
                raise RankwiseError(f"{self.path}: is a folder, not a results database")
            if not is_sqlite(self.path):
                hint = (f"; it looks like an experiment file: rankwise run {self.path} --results"
                        " RESULTS.sqlite" if self.path.suffix.lower() == ".toml" else "")
                raise RankwiseError(f"{self.path}: not a rankwise results database{hint}")
            self.db = open_readonly(self.path)
            # Every reader checks the whole file first: a command that reads only some tables
            # (status reads no results) must not call a damaged file sound.
            problem = damage(self.db)
            if problem:
                self.close()
                raise RankwiseError(f"{self.path}: the results file is damaged ({problem}); its"
                                    " results cannot all be read; run the experiment into a new"
                                    " --results file")
            return
        check_writable(self.path)
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None)
            self._lock = _lock(self.path)
            self.db.execute("PRAGMA journal_mode=WAL")
            # NORMAL in WAL mode: a commit survives the death of the process (not of the OS),
            # without an fsync per task.
            self.db.execute("PRAGMA synchronous=NORMAL")
            existing = self.db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
            if existing:  # a run to continue: its pages must be sound first
                problem = damage(self.db)
                if problem:
                    raise RankwiseError(f"{self.path}: the results file is damaged ({problem});"
                                        " nothing was changed; continue the experiment into a"
                                        " new --results file")
            self.db.executescript(SCHEMA)
            columns = {r[1] for r in self.db.execute("PRAGMA table_info(tasks)")}
            if "identity" not in columns:  # a file of rankwise 0.1
                self.db.execute("ALTER TABLE tasks ADD COLUMN identity TEXT")
        except RankwiseError:
            self.close()
            raise
        except sqlite3.DatabaseError as exc:
            self.close()
            raise RankwiseError(f"{self._not_results(exc)}; choose another --results"
                                " file") from None

    def _not_results(self, exc) -> str:
        return f"{self.path}: not a rankwise results database ({brief(exc, self.path)})"

    def close(self):
        if getattr(self, "db", None) is not None:
            self.db.close()
            self.db = None
        if self._lock is not None:
            self._lock.close()  # releases the lock
            self._lock = None

    # -- meta
    def meta(self) -> dict:
        try:
            rows = self.db.execute("SELECT key, value FROM meta").fetchall()
        except sqlite3.DatabaseError as exc:
            raise RankwiseError(self._not_results(exc)) from None
        out = {}
        for key, value in rows:
            try:
                out[key] = json.loads(value)
            except (TypeError, ValueError):
                raise RankwiseError(f"{self.path}: the results database is damaged (meta value"
                                    f" {key!r} is not JSON); start a new results file") from None
        return out

    def set_meta(self, values: dict):
        with self.db:
            self.db.execute("BEGIN")
            self.db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)",
                                [(k, json.dumps(v, sort_keys=True)) for k, v in values.items()])

    # -- tasks
    def finished(self) -> dict:
        """{(dataset, repeat, fold, learner): status} of every committed task."""
        return {key: status for key, (status, _) in self.tasks().items()}

    def tasks(self) -> dict:
        """{(dataset, repeat, fold, learner): (status, identity)} of every committed task."""
        try:
            return {tuple(r[:4]): (r[4], r[5]) for r in self.db.execute(
                "SELECT dataset, repeat, fold, learner, status, identity FROM tasks")}
        except sqlite3.DatabaseError as exc:
            raise RankwiseError(self._not_results(exc)) from None

    def set_identities(self, identities: dict):
        """Fill in the identity of tasks stored without one (files of rankwise 0.1)."""
        with self.db:
            self.db.execute("BEGIN")
            self.db.executemany("UPDATE tasks SET identity=? WHERE dataset=? AND repeat=? AND"
                                " fold=? AND learner=? AND identity IS NULL",
                                [(ident, *key) for key, ident in identities.items()])

    def delete(self, keys):
        """Remove tasks and their results (one transaction)."""
        keys = list(keys)
        if not keys:
            return
        with self.db:
            self.db.execute("BEGIN")
            for table in ("results", "curve_results", "tasks"):
                self.db.executemany(f"DELETE FROM {table} WHERE dataset=? AND repeat=? AND"
                                    " fold=? AND learner=?", keys)

    def record(self, key, status: str, values: dict, error: str | None = None,
               warnings: list | None = None, identity: str | None = None,
               curve: dict | None = None):
        """Commit one finished task and its criteria in a single transaction.

        ``values`` maps criterion -> (value or None, reason or None); ``warnings`` are the
        learner's warnings (kept as a JSON list). A retried failure replaces
        its earlier record; a done task is never written twice (primary keys forbid it).
        """
        dataset, repeat, fold, learner = key
        self.db.execute("BEGIN IMMEDIATE")
        try:
            for table in ("results", "curve_results"):
                self.db.execute(f"DELETE FROM {table} WHERE dataset=? AND repeat=? AND fold=?"
                                " AND learner=?", key)
            self.db.execute("INSERT OR REPLACE INTO tasks (dataset, repeat, fold, learner, status,"
                            " error, finished, warnings, identity) VALUES (?, ?, ?, ?, ?, ?, ?,"
                            " ?, ?)",
                            (dataset, repeat, fold, learner, status, error, time.time(),
                             json.dumps(warnings) if warnings else None, identity))
            self.db.executemany(
                "INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(dataset, repeat, fold, learner, c, v, r) for c, (v, r) in values.items()])
            if curve:  # the learning curve, in the same transaction as the task
                self.db.executemany(
                    "INSERT INTO curve_results VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    [(dataset, repeat, fold, learner, float(b), c, v, r)
                     for b, vals in curve.items() for c, (v, r) in vals.items()])
            self.db.execute("COMMIT")
        except BaseException as exc:
            if self.db.in_transaction:  # SQLite may have rolled back already (disk full)
                self.db.execute("ROLLBACK")
            if isinstance(exc, sqlite3.OperationalError) and is_full(exc):
                raise StoreFull(str(exc)) from None
            if isinstance(exc, sqlite3.DatabaseError):
                raise write_error(self.path, exc) from None
            raise

    # -- one data set, for a race
    def dataset_tasks(self, dataset: str) -> dict:
        """``{(repeat, fold, learner): status}`` of the committed tasks of ``dataset``."""
        rows = self.db.execute("SELECT repeat, fold, learner, status FROM tasks WHERE"
                               " dataset = ?", (dataset,))
        return {(r[0], r[1], r[2]): r[3] for r in rows}

    def dataset_values(self, dataset: str, criterion: str) -> dict:
        """``{learner: [value or None, ...]}``: ``criterion`` on ``dataset``, done tasks only."""
        out: dict = {}
        for learner, value in self.db.execute(
                "SELECT r.learner, r.value FROM results r JOIN tasks t ON t.dataset = r.dataset"
                " AND t.repeat = r.repeat AND t.fold = r.fold AND t.learner = r.learner WHERE"
                " r.dataset = ? AND r.criterion = ? AND t.status = 'done' ORDER BY r.repeat,"
                " r.fold", (dataset, criterion)):
            out.setdefault(learner, []).append(value)
        return out

    # -- reading
    def _query(self, sql: str) -> pd.DataFrame:
        """A query read whole; a damaged file is named as such, in one line."""
        try:
            return pd.read_sql_query(sql, self.db)
        except (sqlite3.DatabaseError, pd.errors.DatabaseError) as exc:
            problem = damage(self.db)
            if problem:
                raise RankwiseError(f"{self.path}: the results file is damaged ({problem}); its"
                                    " results cannot all be read; run the experiment into a new"
                                    " --results file") from None
            raise RankwiseError(self._not_results(exc)) from None

    def long_table(self) -> pd.DataFrame:
        """``dataset, repeat, fold, learner, criterion, value`` (value NaN where undefined)."""
        return self._query("SELECT dataset, repeat, fold, learner, criterion, value FROM results"
                           " ORDER BY rowid")

    def curve_table(self) -> pd.DataFrame:
        """``dataset, repeat, fold, learner, budget, criterion, value`` of a run with
        ``budgets`` (empty otherwise, and for a file written before budgets existed)."""
        tables = {r[0] for r in self.db.execute("SELECT name FROM sqlite_master")}
        if "curve_results" not in tables:
            return pd.DataFrame(columns=["dataset", "repeat", "fold", "learner", "budget",
                                         "criterion", "value"])
        return self._query("SELECT c.dataset, c.repeat, c.fold, c.learner, c.budget,"
                           " c.criterion, c.value FROM curve_results c JOIN tasks t ON"
                           " t.dataset = c.dataset AND t.repeat = c.repeat AND t.fold = c.fold"
                           " AND t.learner = c.learner WHERE t.status = 'done' ORDER BY c.rowid")

    def failures(self) -> pd.DataFrame:
        return self._query("SELECT dataset, repeat, fold, learner, error FROM tasks"
                           " WHERE status = 'failed' ORDER BY rowid")

    def task_table(self) -> pd.DataFrame:
        """Every committed task: key, status, error and warnings (a JSON list or null)."""
        return self._query("SELECT dataset, repeat, fold, learner, status, error, warnings"
                           " FROM tasks ORDER BY rowid")


class StoreFull(RankwiseError):
    """The disk (or the file system's quota) is full: what was committed is kept."""


def write_error(path, exc: Exception) -> RankwiseError:
    """The one line for a results file that could not be written."""
    return RankwiseError(f"{path}: cannot write the results ({brief(exc, path)}); the tasks"
                         " committed before are kept: fix the cause and run the same command to"
                         " continue")


def is_full(exc: Exception) -> bool:
    text = str(exc).lower()
    return "full" in text or "no space" in text or "quota" in text


def open_readonly(path: Path) -> sqlite3.Connection:
    """A connection that never writes. On read-only storage SQLite cannot create the shared-memory
    file that WAL mode needs, so the file is then opened as immutable, which is safe only when no
    write-ahead log is pending: a pending one is refused, not ignored."""
    uri = Path(path).resolve().as_uri()
    db = sqlite3.connect(f"{uri}?mode=ro", uri=True)
    try:
        db.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return db
    except sqlite3.OperationalError:
        db.close()
    wal = Path(f"{path}-wal")
    if wal.exists() and wal.stat().st_size > 0:
        raise RankwiseError(f"{path}: cannot be read where it is: it is on read-only storage and"
                            f" its last writes are still in {wal.name}; copy both files to"
                            " writable storage and read the copy")
    return sqlite3.connect(f"{uri}?immutable=1", uri=True)


def damage(db: sqlite3.Connection) -> str | None:
    """The first problem ``PRAGMA quick_check`` finds, or None for a sound file."""
    try:
        rows = db.execute("PRAGMA quick_check(5)").fetchall()
    except sqlite3.DatabaseError as exc:
        return str(exc)
    problems = [r[0] for r in rows if r[0] != "ok"]
    if not problems:
        return None
    lines = [line.strip() for line in problems[0].splitlines() if line.strip()
             and not line.startswith("***")]
    first = " ".join((lines or [problems[0]])[0].split())
    return first if len(first) <= 120 else first[:117] + "..."


def check_writable(path: Path) -> None:
    """A results path a run can write: a SQLite file, or a new file in an existing folder."""
    if path.is_dir():
        raise RankwiseError(f"{path}: is a folder; give a results file such as {path}/results.sqlite")
    if not path.parent.exists():
        raise RankwiseError(f"{path}: the folder {path.parent} does not exist; create it first")
    if path.exists() and path.stat().st_size > 0 and not is_sqlite(path):
        raise RankwiseError(f"{path}: exists and is not a results database (not SQLite); choose"
                            " another --results file, or remove this one if it is yours to lose")
    if path.exists() and path.stat().st_size > 0:
        other = _foreign_tables(path)
        if other:
            raise RankwiseError(f"{path}: an SQLite database of something else (its tables:"
                                f" {', '.join(other[:5])}{', ...' if len(other) > 5 else ''});"
                                " nothing was changed; give rankwise a --results file of its own")


#: The tables of a rankwise results database; a database with any other is not one.
#: The tables rankwise makes (read off the schema, so a new one is never taken for a foreign one).
TABLES = tuple(re.findall(r"CREATE TABLE IF NOT EXISTS (\w+)", SCHEMA))


def _foreign_tables(path: Path) -> list:
    """The tables of the SQLite file ``path`` that rankwise did not make, read without writing
    (no journal switch, no lock): empty for a results database or an empty one."""
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type ="
                                              " 'table' ORDER BY name")]
        finally:
            db.close()
    except sqlite3.DatabaseError:
        return []  # unreadable: the damage check says what is wrong
    return [n for n in names if n not in TABLES and not n.startswith("sqlite_")]


def _lock(path: Path):
    """An exclusive lock on the file, held while the returned handle is open. The kernel drops it
    when the process ends, so a killed run leaves no stale lock."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - no flock on this platform: no protection
        return None
    handle = open(path, "rb")
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        raise RankwiseError(f"{path}: another rankwise run is writing to this results file; wait"
                            " for it to finish (rankwise status shows it), or use another"
                            " --results file") from None
    except OSError:  # a file system without flock: run unprotected rather than not at all
        return handle
    return handle


def is_locked(path) -> bool:
    """True when a run holds the results file now."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover
        return False
    try:
        with open(path, "rb") as handle:
            fcntl.flock(handle.fileno(), fcntl.LOCK_SH | fcntl.LOCK_NB)
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
    except BlockingIOError:
        return True
    except OSError:
        return False
    return False
