"""A published board of proportions or percentages (``rankwise audit BOARD``), read as it is
printed: CSV, TSV, space-separated text or a Markdown table."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import RankwiseError
from .delimited import pipe_table
from .._text import brief
from .frames import as_pandas


def read_board(board, source) -> tuple:
    """A published board as printed: a CSV, TSV or space-separated file, a Markdown (pipe)
    table or a DataFrame, models in the first column and one proportion or percentage per
    task; returns ``(models, texts, values)`` (the cells as printed, without ``%``, and as
    numbers). Each mistake is one line naming the file and how to fix it."""
    board = as_pandas(board)
    if isinstance(board, pd.DataFrame):
        frame = board.astype(str)
    else:
        path = Path(board)
        if path.is_dir():
            raise RankwiseError(f"{path}: is a folder; give the board's CSV file")
        if not path.is_file():
            raise RankwiseError(f"{path}: no such file")
        data = path.read_bytes().strip()
        if not data:
            raise RankwiseError(f"{path}: the file is empty; give the board as printed (models"
                                " in the first column, a column per task)")
        # a BOM is not part of the first cell: a Markdown board saved with one is still one
        first = data.splitlines()[0].decode("utf-8-sig", "replace")
        frame = _pipe_table(data, path) if first.startswith("|") else _delimited(path, first)
    if frame.shape[1] < 2 or frame.shape[0] < 2:
        raise RankwiseError(f"{source}: a board needs a column of model names and at least one"
                            f" task column, and two or more models")
    models = tuple(frame.iloc[:, 0].astype(str).str.strip())
    _refuse_repeats(source, "model", models, "row")
    _refuse_repeats(source, "task", [str(c).strip() for c in frame.columns[1:]], "column")
    texts = frame.iloc[:, 1:].apply(lambda c: c.astype(str).str.strip().str.rstrip("%"))
    values = texts.apply(pd.to_numeric, errors="coerce")
    if values.isna().any().any():
        r, c = np.argwhere(values.isna().to_numpy())[0]
        raise RankwiseError(f"{source}: {texts.iloc[r, c]!r} for {models[r]!r} on"
                            f" {texts.columns[c]!r} is not a number; a board holds one"
                            f" proportion or percentage per model and task")
    return models, texts, values


def _refuse_repeats(source, what: str, labels, where: str) -> None:
    """One line naming a model or task printed twice: which of the two rows or columns is
    meant cannot be told, and averaging them would audit a board nobody printed."""
    seen = set()
    for label in labels:
        if label in seen:
            raise RankwiseError(f"{source}: {what} {label!r} is on the board twice (a {where}"
                                f" each); give each {what} once")
        seen.add(label)


def _delimited(path, first: str) -> pd.DataFrame:
    """A board as CSV, TSV or space-separated text (``first``: its first line)."""
    try:   # pandas sniffs the first line for any delimiter, a letter included
        csv.Sniffer().sniff(first, delimiters=",;\t| ")
    except csv.Error:
        raise RankwiseError(f"{path}: one column ({first[:40]!r}); a board needs the models"
                            " in the first column and a column per task, separated by"
                            " commas, tabs or spaces") from None
    try:
        # the header read as cells: pandas renames a repeated column (MATH, MATH.1)
        frame = pd.read_csv(path, sep=None, engine="python", dtype=str, header=None,
                            encoding="utf-8-sig")
        header = frame.iloc[0].fillna("").astype(str).str.strip()
        frame = frame.iloc[1:].reset_index(drop=True)
        frame.columns = list(header)
        return frame
    except (ValueError, pd.errors.ParserError, csv.Error) as exc:
        # (UnicodeDecodeError is a ValueError) the last line of the parser's message
        message = str(exc).strip().splitlines()[-1] if str(exc).strip() else \
            type(exc).__name__
        raise RankwiseError(f"{path}: cannot be read as a table ({message})") from None


def _pipe_table(data: bytes, path) -> pd.DataFrame:
    """A board printed as a Markdown (pipe) table, as READMEs and ``DataFrame.to_markdown``
    write it (the one reader of such tables, :func:`rankwise.tables.delimited.pipe_table`)."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise RankwiseError(f"{path}: cannot be read as a table ({brief(exc, path)})") from None
    return pipe_table(text, path)
