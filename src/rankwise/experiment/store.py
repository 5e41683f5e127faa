"""Results of an experiment in an embedded SQLite database (WAL mode).

One row per (data set, repeat, fold, learner, criterion) in ``results``, one per task in
``tasks``, and the run's design, seeds, data-set hashes and library versions in ``meta``. Only
the driver writes, one transaction per finished task, so a killed run (even ``kill -9``) keeps
every task it committed and nothing of the one it was writing; readers (a report) can open the
file while the run goes on.
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

import pandas as pd

from ..errors import RankwiseError

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tasks (
    dataset TEXT NOT NULL, repeat INTEGER NOT NULL, fold INTEGER NOT NULL, learner TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('done', 'failed')), error TEXT,
    finished REAL NOT NULL, warnings TEXT,
    PRIMARY KEY (dataset, repeat, fold, learner));
CREATE TABLE IF NOT EXISTS results (
    dataset TEXT NOT NULL, repeat INTEGER NOT NULL, fold INTEGER NOT NULL, learner TEXT NOT NULL,
    criterion TEXT NOT NULL, value REAL, reason TEXT,
    PRIMARY KEY (dataset, repeat, fold, learner, criterion));
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
        if readonly:
            if not is_sqlite(self.path):
                raise RankwiseError(f"{self.path}: not a rankwise results database")
            self.db = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)
        else:
            self.db = sqlite3.connect(self.path, isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            # NORMAL in WAL mode: a commit survives the death of the process (not of the OS),
            # without an fsync per task.
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.executescript(SCHEMA)

    def close(self):
        self.db.close()

    # -- meta
    def meta(self) -> dict:
        try:
            rows = self.db.execute("SELECT key, value FROM meta").fetchall()
        except sqlite3.DatabaseError as exc:
            raise RankwiseError(f"{self.path}: not a rankwise results database ({exc})") from None
        return {k: json.loads(v) for k, v in rows}

    def set_meta(self, values: dict):
        with self.db:
            self.db.execute("BEGIN")
            self.db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)",
                                [(k, json.dumps(v, sort_keys=True)) for k, v in values.items()])

    # -- tasks
    def finished(self) -> dict:
        """{(dataset, repeat, fold, learner): status} of every committed task."""
        return {tuple(r[:4]): r[4] for r in self.db.execute(
            "SELECT dataset, repeat, fold, learner, status FROM tasks")}

    def record(self, key, status: str, values: dict, error: str | None = None,
               warnings: list | None = None):
        """Commit one finished task and its criteria in a single transaction.

        ``values`` maps criterion -> (value or None, reason or None); ``warnings`` are the
        learner's warnings (kept as a JSON list). A retried failure replaces
        its earlier record; a done task is never written twice (primary keys forbid it).
        """
        dataset, repeat, fold, learner = key
        self.db.execute("BEGIN IMMEDIATE")
        try:
            self.db.execute("DELETE FROM results WHERE dataset=? AND repeat=? AND fold=? AND"
                            " learner=?", key)
            self.db.execute("INSERT OR REPLACE INTO tasks VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                            (dataset, repeat, fold, learner, status, error, time.time(),
                             json.dumps(warnings) if warnings else None))
            self.db.executemany(
                "INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(dataset, repeat, fold, learner, c, v, r) for c, (v, r) in values.items()])
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise

    # -- reading
    def long_table(self) -> pd.DataFrame:
        """``dataset, repeat, fold, learner, criterion, value`` (value NaN where undefined)."""
        return pd.read_sql_query(
            "SELECT dataset, repeat, fold, learner, criterion, value FROM results"
            " ORDER BY rowid", self.db)

    def failures(self) -> pd.DataFrame:
        return pd.read_sql_query("SELECT dataset, repeat, fold, learner, error FROM tasks"
                                 " WHERE status = 'failed' ORDER BY rowid", self.db)


def read_results(path) -> tuple:
    """(long table, meta, status) of a results database, for ``rankwise compare``."""
    store = Store(path, readonly=True)
    try:
        meta = store.meta()
        table = store.long_table()
        done = store.finished()
        failed = store.failures()
    finally:
        store.close()
    design = meta.get("design", {})
    d_order = {d["name"]: i for i, d in enumerate(design.get("datasets", []))}
    l_order = {l["name"]: i for i, l in enumerate(design.get("learners", []))}
    c_order = {c: i for i, c in enumerate(design.get("criteria", []))}
    if len(table):
        # The design's order, not the order in which tasks happened to finish.
        keys = (table["dataset"].map(d_order), table["repeat"], table["fold"],
                table["learner"].map(l_order), table["criterion"].map(c_order))
        table = table.assign(_d=keys[0], _l=keys[3], _c=keys[4]).sort_values(
            ["_d", "repeat", "fold", "_l", "_c"], kind="stable").drop(columns=["_d", "_l", "_c"])
        table = table.reset_index(drop=True)
    total = meta.get("total_tasks")
    status = {"total_tasks": total, "finished_tasks": len(done),
              "failed_tasks": int(len(failed)), "complete": total is not None and
              len(done) >= total}
    return table, meta, status
