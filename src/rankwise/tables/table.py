"""The clean table every analysis starts from: one score per (data set, learner)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..errors import RankwiseError


@dataclass(frozen=True)
class ScoreTable:
    """A clean table of scores: one value per (data set, learner).

    Attributes
    ----------
    values : ndarray, shape (n, k)
        Rows are data sets, columns are learners.
    datasets, learners : tuple of str
        Labels in input order.
    higher_is_better : bool
    direction_source : str
        ``"default"``, ``"option"``, ``"criterion"`` or ``"source"`` (the input's format
        decided it, e.g. the AutoML benchmark's ``result`` over several metrics): where the
        direction came from.
    direction_word : str or None
        The word of the criterion name that set the direction (``"error"`` in ``test_error``).
    criterion : str or None
    aggregate : str or None
        How several values per cell (repeats × folds) were combined, or None if there was one.
    cells : str or None
        What each cell is, in words, where it is not the ``aggregate`` of repeats × folds (``a
        model's mean over a task's items``); the reports say it in place of repeats × folds.
    counts : ndarray of int, shape (n, k)
        Number of values behind each cell (int8 for a wide table, whose cells hold one value at
        most).
    dropped_datasets, dropped_learners : tuple of str
        What the missing-value policy removed.
    missing_cells : tuple of (dataset, learner)
        Cells that had no value before anything was dropped.
    filled_cells : tuple of (dataset, learner)
        Missing cells filled by ``missing="worst"`` or ``"impute:LEARNER"`` (their values are in
        ``values``).
    warnings : tuple of str
    source : str
    reading : Reading or None
        How the input's columns were read (:class:`rankwise.tables.sources.Reading`).

    Examples
    --------
    >>> import numpy as np
    >>> from rankwise import ScoreTable, friedman
    >>> t = ScoreTable(values=np.array([[0.1, 0.2], [0.3, 0.2], [0.25, 0.3]]),
    ...                datasets=('d1', 'd2', 'd3'), learners=('A', 'B'),
    ...                higher_is_better=False)
    >>> t.n_datasets, t.n_learners, t.column('B').tolist()
    (3, 2, [0.2, 0.2, 0.3])
    """

    values: np.ndarray
    datasets: tuple
    learners: tuple
    higher_is_better: bool = True
    direction_source: str = "default"
    direction_word: str | None = None
    criterion: str | None = None
    aggregate: str | None = None
    counts: np.ndarray | None = None
    dropped_datasets: tuple = ()
    dropped_learners: tuple = ()
    missing_cells: tuple = ()
    warnings: tuple = ()
    source: str = "table"
    missing_policy: str = "refuse"
    filled_cells: tuple = ()
    # long input: every (dataset, learner, value[, repeat, fold]) behind a cell
    raw: pd.DataFrame | None = None
    # how the input's columns were read (tables.sources.Reading), for the report's input line
    reading: object | None = None
    # every criterion of a long input (the one read is ``criterion``), for the multiverse
    criteria: tuple = ()
    # what each cell is, where it is not the aggregate of repeats x folds (see the docstring)
    cells: str | None = None
    # the input read again with other options (``reread(criterion=...)``), when the table came
    # from a file, a DataFrame or an example; its keywords are the options it was read with
    reread: object | None = field(default=None, repr=False, compare=False)

    @property
    def n_datasets(self) -> int:
        return self.values.shape[0]

    @property
    def n_learners(self) -> int:
        return self.values.shape[1]

    def column(self, learner: str) -> np.ndarray:
        try:
            return self.values[:, self.learners.index(learner)]
        except ValueError:
            raise RankwiseError(f"no learner named {learner!r}; the learners are "
                                f"{', '.join(self.learners)}") from None

    def to_frame(self, backend: str = "pandas"):
        """The scores as a frame, data sets × learners: a pandas DataFrame indexed by data set,
        or with ``backend="polars"`` or ``"pyarrow"`` that library's table (the data sets in
        a first column ``dataset``)."""
        frame = pd.DataFrame(self.values, index=list(self.datasets), columns=list(self.learners))
        if backend == "pandas":
            return frame
        from .frames import to_backend

        return to_backend(frame.rename_axis("dataset"), backend)

    def __arrow_c_stream__(self, requested_schema=None):
        """The Arrow PyCapsule interface: ``polars.DataFrame(table)`` and ``pyarrow.table(table)``
        read :meth:`to_frame` (the data sets in a first column ``dataset``; needs pyarrow)."""
        return self.to_frame("pyarrow").__arrow_c_stream__(requested_schema)
