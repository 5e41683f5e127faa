"""Learning curves from a results database: the runs of ``rankwise run --budgets`` as curves.

Each (repeat, fold) of a learner on a data set is one run; its budget is the fraction of the
training part it was trained on, its value the criterion on the same test part. A fraction's
value is used as logged (``raw``: a learning curve need not rise), never as a running best.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import RankwiseError
from .criteria import CRITERIA
from .store import Store


def read_store_curves(path, *, criterion: str | None = None, grid=None):
    """The learning curves a budgeted run stored, as :class:`rankwise.Curves`."""
    from ..tables.curves import build

    path = Path(path)
    if path.is_dir():
        path = path / "results.db"
    store = Store(path, readonly=True)
    try:
        frame = store.curve_table()
        design = store.meta().get("design", {})
    finally:
        store.close()
    if frame.empty:
        raise RankwiseError(f"{path}: no learning curves in this results file; run the"
                            " experiment with --budgets 0.1,0.25,0.5,1.0 (or budgets = [...] in"
                            " its [experiment] table)")
    criteria = [c for c in design.get("criteria", []) if c in set(frame.criterion)]
    if criterion is None:
        criterion = criteria[0] if criteria else str(frame.criterion.iloc[0])
    if criterion not in set(frame.criterion):
        raise RankwiseError(f"{path}: no criterion {criterion!r} in its learning curves; it has"
                            f" {', '.join(sorted(set(frame.criterion)))}")
    rows = frame[frame.criterion == criterion]
    missing = rows.value.isna()
    notes = [f"the criterion is {criterion}"]
    if missing.any():
        notes.append(f"{int(missing.sum())} undefined values (e.g. no positive example in a"
                     " test part) are not logged points")
        rows = rows[~missing]
    run = rows["repeat"].astype(str) + "/" + rows["fold"].astype(str)
    return build(rows.learner.to_numpy(), rows.dataset.to_numpy(), run.to_numpy(),
                 rows.budget.to_numpy(), rows.value.to_numpy(),
                 maximize=CRITERIA.get(criterion, True), value_kind="raw", grid=grid,
                 budget_name="fraction", source=str(path), reader="rankwise", notes=notes)
