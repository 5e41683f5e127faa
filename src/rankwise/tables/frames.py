"""Data frames of every library, read through one path.

A table may come as a pandas DataFrame or as any frame narwhals knows (a Polars DataFrame or
LazyFrame, a PyArrow Table, a DuckDB relation, a Modin or cuDF frame...): :func:`as_pandas`
turns the others into one pandas DataFrame (a lazy one is collected first, so a DuckDB query
runs in DuckDB and only its result is converted), and every reader then reads it as it reads a
pandas DataFrame: the same analysis, the same JSON, whichever library held the scores.
:func:`to_backend` gives a pandas DataFrame back in the user's library.
"""

from __future__ import annotations

import os

import numpy as np
import pandas as pd

from ..errors import RankwiseError

#: The libraries :func:`to_backend` converts to (narwhals' names of them).
BACKENDS = ("pandas", "polars", "pyarrow")


def as_pandas(source):
    """``source`` as a pandas DataFrame when it is a data frame of another library; anything
    else (a path, a pandas DataFrame, an array) as it is.

    Examples
    --------
    >>> import pyarrow as pa
    >>> from rankwise.tables.frames import as_pandas
    >>> as_pandas(pa.table({"dataset": ["a", "b"], "A": [0.5, 0.7]})).shape
    (2, 2)
    >>> as_pandas("results.csv")
    'results.csv'
    """
    if isinstance(source, (pd.DataFrame, str, bytes, os.PathLike, np.ndarray, list, tuple,
                           dict)) or source is None:
        return source
    if type(source).__module__.split(".")[0] == "rankwise":   # a ScoreTable, an ItemTable:
        return source     # read as themselves (their Arrow stream is for other libraries)
    try:
        import narwhals as nw
    except ImportError:            # narwhals is a dependency; an install without it reads
        return source              # pandas frames only
    try:
        frame = nw.from_native(source)
    except TypeError:   # not a frame narwhals knows; any Arrow stream (the PyCapsule interface)
        return _arrow_stream(source)
    if isinstance(frame, nw.LazyFrame):
        frame = frame.collect()
    if not isinstance(frame, nw.DataFrame):     # a series: not a table
        return source
    try:
        return frame.to_pandas()
    except Exception as exc:   # the library's own error (a missing pyarrow, a type pandas lacks)
        raise RankwiseError(f"a {type(source).__name__} could not be read as a table:"
                            f" {exc}") from None


def _arrow_stream(source):
    """``source`` as a pandas DataFrame where it exports an Arrow stream
    (``__arrow_c_stream__``: nanoarrow, a rankwise result, a newer library's table), else as
    it is."""
    if not hasattr(source, "__arrow_c_stream__"):
        return source
    import pyarrow as pa

    try:
        return pa.table(source).to_pandas()
    except (pa.ArrowException, TypeError, ValueError):   # a stream of one column: a series,
        return source                                     # which the reader refuses


def to_backend(frame: pd.DataFrame, backend: str = "pandas"):
    """``frame`` in ``backend``'s own type: ``pandas`` (as it is), ``polars`` or ``pyarrow``
    (through narwhals; the library must be installed).

    Examples
    --------
    >>> import pandas as pd
    >>> from rankwise.tables.frames import to_backend
    >>> type(to_backend(pd.DataFrame({"a": [1]}), "pyarrow")).__name__
    'Table'
    """
    if backend not in BACKENDS:
        raise RankwiseError(f"backend must be one of {', '.join(BACKENDS)}; got {backend!r}")
    if backend == "pandas":
        return frame
    import narwhals as nw

    native = nw.from_native(frame.reset_index() if _named_index(frame) else frame)
    try:
        return native.to_polars() if backend == "polars" else native.to_arrow()
    except ImportError:
        raise RankwiseError(f"backend {backend!r} needs the {backend} package: pip install"
                            f" {backend}") from None


def _named_index(frame: pd.DataFrame) -> bool:
    """Whether the index holds labels (data sets, learners) that a library without an index
    would lose: then it becomes the first column."""
    return not isinstance(frame.index, pd.RangeIndex)
