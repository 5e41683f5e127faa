"""What the optimisation tools' files hold besides the logged points, for the readers of
:mod:`.curves`: Optuna's trials that did not complete, counted in the notes, never dropped
without a word."""

from __future__ import annotations

import pandas as pd

#: Optuna's trial states that are not logged points, as the notes name them.
TRIAL_STATES = {"PRUNED": "pruned", "FAIL": "failed", "RUNNING": "running",
                "WAITING": "waiting"}


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


def _points(n: int) -> str:
    return "is not a logged point" if n == 1 else "are not logged points"
