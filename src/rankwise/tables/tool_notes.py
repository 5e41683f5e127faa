"""What the optimisation tools' files hold besides the logged points, for the readers of
:mod:`.curves`: Optuna's trials that did not complete and the values it stores as infinities,
each counted in the notes, never dropped without a word; the objectives of an IOHprofiler file
that logs several (one is chosen, or the file is refused in one line)."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from ..errors import RankwiseError

#: Optuna's trial states that are not logged points, as the notes name them.
TRIAL_STATES = {"PRUNED": "pruned", "FAIL": "failed", "RUNNING": "running",
                "WAITING": "waiting"}
#: Places named in a note (the rest are counted).
PLACES_SHOWN = 3


def trials_left_out(states) -> list:
    """The note counting the trials that are not complete, by state (``[]`` for none): only
    complete trials are logged points, and the trial budget counts them alone."""
    words = pd.Series(states, dtype=object).astype(str).str.upper().str.replace(
        "TRIALSTATE.", "", regex=False)
    if words.empty:
        return []
    counts = words.value_counts(sort=False)
    parts = ", ".join(f"{n} {TRIAL_STATES.get(s, s.lower())}" for s, n in counts.items())
    n = len(words)
    return [f"{n} {'trial' if n == 1 else 'trials'} not complete ({parts}) {_points(n)}; the"
            " trial budget counts complete trials"]


def infinite_values(values, places) -> list:
    """The note counting the trial values stored as +inf or -inf, and where (``[]`` for none):
    they are not logged points (the run keeps its previous best there)."""
    values = np.asarray(values, dtype=float)
    if not values.size:
        return []
    signs = " and ".join(f"{int(n)} as {s}" for s, n in
                         (("+inf", (values > 0).sum()), ("-inf", (values < 0).sum())) if n)
    shown = ", ".join(list(places)[:PLACES_SHOWN])
    more = f" and {values.size - PLACES_SHOWN} more" if values.size > PLACES_SHOWN else ""
    n = values.size
    return [f"{n} trial {'value' if n == 1 else 'values'} stored as infinite ({signs}: {shown}"
            f"{more}) {_points(n)} (the run keeps its previous best there)"]


def _points(n: int) -> str:
    return "is not a logged point" if n == 1 else "are not logged points"
#: IOHprofiler's columns of further objectives (IOHinspector's multi-objective data: raw_y is
#: the first objective, F2, F3, ... the others).
IOH_OBJECTIVE = re.compile(r"F\d+$")


def ioh_value(header, criterion, where: str, notes: list) -> str:
    """The column of an IOHprofiler ``.dat`` header read as the value: ``raw_y``, or the
    objective ``criterion`` names; a file of several objectives without one chosen is
    refused in one line naming them."""
    objectives = ["raw_y"] * ("raw_y" in header) + [c for c in header if IOH_OBJECTIVE.match(c)]
    if criterion is not None:
        if criterion not in header:
            raise RankwiseError(f"{where}: no column {criterion!r} to read as the value (the"
                                f" columns are {', '.join(header)})")
        note = (f"IOHprofiler: the value is {criterion}, one of the objectives"
                f" {', '.join(objectives)}")
        if len(objectives) > 1 and note not in notes:
            notes.append(note)
        return criterion
    if len(objectives) > 1:
        raise RankwiseError(f"{where}: {len(objectives)} objectives ({', '.join(objectives)}:"
                            " multi-objective data as IOHinspector reads it); rankwise compares"
                            f" one at a time: choose one with --criterion {objectives[0]} (or"
                            f" {', '.join(objectives[1:])})")
    if "raw_y" not in header:
        raise RankwiseError(f"{where}: no raw_y column (the columns are {', '.join(header)});"
                            " choose the value with --criterion")
    return "raw_y"
