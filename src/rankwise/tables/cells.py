"""Cells of a results table: names as text, numbers parsed strictly, the spellings of "missing".

Shared by every reader (rankwise's own tables and other tools' formats), so that a cell means
the same thing whichever route it comes by.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..errors import RankwiseError

#: What a missing cell may say (compared in lower case).
MISSING_TOKENS = {"", "na", "n/a", "nan", "null", "none", "?"}
#: The usual spellings of those tokens, for pandas' parser (any other spelling takes the text path).
NA_SPELLINGS = sorted({v for t in MISSING_TOKENS for v in (t, t.upper(), t.capitalize())})


def by_lower_name(frame: pd.DataFrame) -> dict:
    """The frame's columns by their stripped, lower-case names (how a tool's columns are
    found whatever their case).

    Examples
    --------
    >>> import pandas as pd
    >>> from rankwise.tables.cells import by_lower_name
    >>> by_lower_name(pd.DataFrame(columns=[" Task", "result"]))
    {'task': ' Task', 'result': 'result'}
    """
    return {str(c).strip().lower(): c for c in frame.columns}


def text(cells: pd.Series) -> pd.Series:
    """Names as stripped text; a missing name is an empty string."""
    if pd.api.types.is_string_dtype(cells.dtype) and cells.dtype != object:
        return cells.fillna("").str.strip()
    return cells.where(cells.notna(), "").astype(str).str.strip()


def is_number_column(cells: pd.Series) -> bool:
    return pd.api.types.is_numeric_dtype(cells.dtype) and not pd.api.types.is_bool_dtype(
        cells.dtype)


def number_columns(frame: pd.DataFrame) -> dict:
    """``{column: is_number_column}`` from the frame's dtypes in one pass (a table of ten
    thousand learner columns costs no Series per column)."""
    return {col: pd.api.types.is_numeric_dtype(dtype) and not pd.api.types.is_bool_dtype(dtype)
            for col, dtype in zip(frame.columns, frame.dtypes)}


def finite(values: np.ndarray, where, shown) -> np.ndarray:
    """``values`` when none is infinite; otherwise an error that names the first."""
    inf = np.flatnonzero(np.isinf(values))
    if inf.size:
        i = int(inf[0])
        value = shown(i)
        value = f"{float(value):g}" if isinstance(value, (float, np.floating)) else repr(value)
        raise RankwiseError(f"{where(i)}: the value {value} is infinite; scores must be"
                            " finite numbers")
    return values


def parse_numbers(cells: pd.Series, where) -> np.ndarray:
    """Numbers from a column: a numeric column as it is; text cells parsed, with empty/NA tokens
    as NaN and anything else an error that names the first bad cell."""
    if is_number_column(cells):
        values = cells.to_numpy(dtype=float)
        return finite(values, where, lambda i: values[i])
    written = text(cells)
    is_missing = written.str.lower().isin(MISSING_TOKENS)
    numbers = pd.to_numeric(written.where(~is_missing, None), errors="coerce")
    bad = numbers.isna() & ~is_missing
    if bad.any():
        i = int(np.flatnonzero(bad.to_numpy())[0])
        raise RankwiseError(f"{where(i)}: {written.iloc[i]!r} is not a number ({int(bad.sum())}"
                            " non-numeric cells); use a number, or leave the cell empty if missing")
    return finite(numbers.to_numpy(dtype=float), where, lambda i: written.iloc[i])
