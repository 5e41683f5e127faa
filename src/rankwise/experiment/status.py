"""``rankwise status RESULTS``: what a results file holds and how far its run got, read-only."""

from __future__ import annotations

import json
from collections import Counter

from .racing import race_lines, race_progress, skipped_cells
from .store import Store, is_locked

SCHEMA = "rankwise.status/1"


def status(path) -> dict:
    """Design, progress per (data set, learner), failures, learner warnings grouped by message,
    library versions, and whether a run holds the file now."""
    store = Store(path, readonly=True)
    try:
        meta = store.meta()
        tasks = store.task_table()
        race = race_progress(store, meta)
    finally:
        store.close()
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
                   "datasets": datasets, "learners": learners},
        "total_tasks": total, "done": done, "failed": failed,
        "not_needed": not_needed, "to_do": max(0, total - done - failed - not_needed),
        "complete": done + failed + not_needed >= total > 0, "race": race,
        "cells": cells, "failures": failures,
        "warnings": [{"learner": lrn, "message": msg, "tasks": n}
                     for (lrn, msg), n in sorted(warned.items(), key=lambda kv: -kv[1])],
        "versions": meta.get("versions", {}), "forced_changes": meta.get("forced_changes", []),
    }


def status_text(info: dict, max_rows: int = 50) -> str:
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
    if info["race"]:
        out += race_lines(info["race"]) + [""]
    raced = bool(info["race"])
    rows = [[c["dataset"], c["learner"], str(c["done"]), str(c["failed"]), str(c["to_do"])]
            + ([str(c["not_needed"])] if raced else []) for c in info["cells"]]
    header = ["data set", "learner", "done", "failed", "to do"] + (["not needed"] if raced
                                                                  else [])
    widths = [max(len(r[i]) for r in [header] + rows) for i in range(len(header))]
    for r in [header] + rows:
        out.append("  ".join(c.ljust(w) if i < 2 else c.rjust(w)
                             for i, (c, w) in enumerate(zip(r, widths))).rstrip())
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
    return "\n".join(out) + "\n"
