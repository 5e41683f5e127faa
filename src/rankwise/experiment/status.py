"""``rankwise status RESULTS``: what a results file holds and how far its run got, read-only;
and the results themselves with that state, for ``rankwise compare`` (:func:`read_results`)."""

from __future__ import annotations

import json
from collections import Counter

from .racing import race_lines, race_progress, skipped_cells
from .store import Store, is_locked

SCHEMA = "rankwise.status/1"


def _read(path, read) -> tuple:
    """``(meta, race, read(store))`` of a results file opened read-only (the race recomputed
    from the stored results), closed again whatever happens."""
    store = Store(path, readonly=True)
    try:
        meta = store.meta()
        return meta, race_progress(store, meta), read(store)
    finally:
        store.close()


def status(path) -> dict:
    """Design, progress per (data set, learner), failures, learner warnings grouped by message,
    library versions, and whether a run holds the file now."""
    meta, race, tasks = _read(path, lambda store: store.task_table())
    design = meta.get("design", {})
    per_cell = design.get("repeats", 0) * design.get("folds", 0)
    datasets = [d["name"] for d in design.get("datasets", [])]
    learners = [d["name"] for d in design.get("learners", [])]
    skipped = skipped_cells(race) if race else set()
    cells = []
    for d in datasets:
        for lrn in learners:
            mine = tasks[(tasks["dataset"] == d) & (tasks["learner"] == lrn)]
            done = int((mine["status"] == "done").sum())
            failed = int((mine["status"] == "failed").sum())
            left = max(0, per_cell - done - failed)
            out = left if (d, lrn) in skipped else 0
            cells.append({"dataset": d, "learner": lrn, "done": done, "failed": failed,
                          "to_do": left - out, "not_needed": out})
    failures = [{k: (int(v) if k in ("repeat", "fold") else v) for k, v in row.items()}
                for row in tasks.loc[tasks["status"] == "failed",
                                     ["dataset", "repeat", "fold", "learner", "error"]]
                .to_dict("records")]
    warned = Counter()
    for row in tasks.loc[tasks["warnings"].notna(), ["learner", "warnings"]].itertuples():
        for message in json.loads(row.warnings):
            warned[(row.learner, message)] += 1
    total = meta.get("total_tasks", len(datasets) * len(learners) * per_cell)
    done = int((tasks["status"] == "done").sum())
    failed = int((tasks["status"] == "failed").sum())
    not_needed = sum(c["not_needed"] for c in cells)
    return {
        "schema": SCHEMA, "results": str(path), "running": is_locked(path),
        "format": meta.get("format", 1),
        "design": {"repeats": design.get("repeats"), "folds": design.get("folds"),
                   "seed": design.get("seed"), "criteria": design.get("criteria", []),
                   "budgets": design.get("budgets", []),
                   "datasets": datasets, "learners": learners},
        "total_tasks": total, "done": done, "failed": failed,
        "not_needed": not_needed, "to_do": max(0, total - done - failed - not_needed),
        "complete": done + failed + not_needed >= total > 0, "race": race,
        "cells": cells, "failures": failures,
        "warnings": [{"learner": lrn, "message": msg, "tasks": n}
                     for (lrn, msg), n in sorted(warned.items(), key=lambda kv: -kv[1])],
        "versions": meta.get("versions", {}), "forced_changes": meta.get("forced_changes", []),
    }


def status_text(info: dict, max_rows: int = 50, width: int = 80) -> str:
    """The status as text: every line of prose wrapped to ``width`` columns (continuation lines
    indented), the table of cells as it is."""
    d = info["design"]
    out = [f"rankwise status: {info['results']}",
           f"experiment: {d['repeats']} repeats x {d['folds']} folds, seed {d['seed']};"
           f" {len(d['datasets'])} data set(s), {len(d['learners'])} learner(s); criteria:"
           f" {', '.join(d['criteria'])}",
           f"tasks: {info['total_tasks']} in all: {info['done']} done, {info['failed']} failed,"
           + (f" {info['not_needed']} not needed (the race)," if info["race"] else "")
           + f" {info['to_do']} to do; "
           + ("a run is writing to this file now" if info["running"] else
              "no run holds this file" + ("" if info["complete"] else
                                          " (run the same command again to continue)")),
           ""]
    if d.get("budgets"):
        out[-1:-1] = [f"learning curves: each learner also trained on"
                      f" {', '.join(f'{b:g}' for b in d['budgets'] if b < 1)} of every"
                      f" training part (rankwise curves {info['results']})"]
    if info["race"]:
        out += race_lines(info["race"], width) + [""]
    raced = bool(info["race"])
    rows = [[c["dataset"], c["learner"], str(c["done"]), str(c["failed"]), str(c["to_do"])]
            + ([str(c["not_needed"])] if raced else []) for c in info["cells"]]
    header = ["data set", "learner", "done", "failed", "to do"] + (["not needed"] if raced
                                                                  else [])
    widths = [max(len(r[i]) for r in [header] + rows) for i in range(len(header))]
    table = ["  ".join(c.ljust(w) if i < 2 else c.rjust(w)
                       for i, (c, w) in enumerate(zip(r, widths))).rstrip()
             for r in [header] + rows]
    out += table
    table = set(table)
    if info["failures"]:
        out += ["", f"Failures ({len(info['failures'])}):"]
        for f in info["failures"][:max_rows]:
            out.append(f"  {f['dataset']} / repeat {f['repeat']} / fold {f['fold']} /"
                       f" {f['learner']}: {f['error']}")
        if len(info["failures"]) > max_rows:
            out.append(f"  ... {len(info['failures']) - max_rows} more (--format json lists all)")
    if info["warnings"]:
        out += ["", "Learner warnings (number of tasks):"]
        out += [f"  {w['learner']}: {w['message']} ({w['tasks']})"
                for w in info["warnings"][:max_rows]]
    if info["versions"]:
        out += ["", "Library versions: " + ", ".join(f"{k} {v}" for k, v in
                                                     info["versions"].items())]
    for change in info["forced_changes"]:
        out.append("Continued with --force after: " + "; ".join(change))
    return "\n".join(_wrapped(line, width, table) for line in out) + "\n"


def _wrapped(line: str, width: int, table: set) -> str:
    """A line of prose wrapped to ``width``, its continuation lines indented two spaces more
    than it; the table's rows (``table``) are kept whole."""
    import textwrap

    if line in table or len(line) <= width:
        return line
    indent = " " * (len(line) - len(line.lstrip()))
    return "\n".join(textwrap.wrap(line, width, subsequent_indent=indent + "  ",
                                    break_long_words=False, break_on_hyphens=False))


def read_results(path) -> tuple:
    """(long table, meta, status) of a results database, for ``rankwise compare``: the stored
    results in the design's order and the run's state (with the race recomputed)."""
    meta, race, (table, failed, done) = _read(
        path, lambda store: (store.long_table(), store.failures(), store.finished()))
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
    not_needed = race["tasks_not_needed"] if race else 0
    status = {"total_tasks": total, "finished_tasks": len(done),
              "failed_tasks": int(len(failed)), "complete": total is not None and
              (len(done) >= total if race is None else race["finished"]),
              "race": race, "not_needed": not_needed,
              "learners": [lrn["name"] for lrn in design.get("learners", [])]}
    return table, meta, status
