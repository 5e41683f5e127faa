"""Scored items queried in place: a long Parquet table ``model, task, item, score`` read by
DuckDB (``rankwise[duckdb]``) a task at a time, instead of loaded whole into pandas.

:class:`rankwise.tables.items.ItemQuery` asks this module what the analysis needs of an item
table: what the checks of :meth:`~rankwise.tables.items.ItemTable.from_frame` look for (rows
without a label, scores that are not finite numbers, weights not above 0, an item given twice),
found by one SQL pass over ``read_parquet``; the models, tasks and items in the order they first
appear; and, per task, its rows in file order as integer codes and scores. The task's matrix is
then built from those rows by the in-memory code, so the sums of an item's repeats are numpy's,
in row order, and every number is the pandas path's to the bit.

Only the column types whose conversion to text and to numbers is known to match pandas' are
read here (labels as text or whole numbers; scores and weights as numbers or booleans; see
:func:`unsupported`); any other table is read by the pandas path.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from .._text import brief
from ..errors import RankwiseError

#: Which role's column holds labels (read as text), numbers, or is only looked for.
LABEL_ROLES = ("model", "task", "item", "cluster")
NUMBER_ROLES = ("score", "weight")
#: The NumPy dtypes pandas reads a score or weight column as, whose conversion to float64 (and
#: to text, for a message) is plain NumPy's; a column pandas restores as one of its own dtypes
#: (``Int64``, ``boolean``...) is left to the pandas path.
PLAIN_NUMBERS = {"bool", "float32", "float64", *(f"{s}int{b}" for s in ("", "u")
                                                  for b in (8, 16, 32, 64))}
INSTALL = "--source items-duckdb needs DuckDB: pip install 'rankwise[duckdb]'"
#: From this many rows a Parquet item table whose reader is detected (``--source auto``) is
#: queried in place where DuckDB is installed: the same numbers in a fraction of the memory
#: (benchmarks/items.py). ``--source items`` reads any table whole, ``items-duckdb`` queries
#: any Parquet table.
QUERY_ROWS = 1_000_000


def have_duckdb() -> bool:
    """Whether DuckDB can be imported (the automatic choice of the in-place path needs it)."""
    try:
        import duckdb  # noqa: F401  (only: is it installed?)
    except ImportError:
        return False
    return True


@dataclass(frozen=True)
class ParquetLayout:
    """A Parquet file's columns as pandas would show them (an index pandas stored is not a
    column), their Arrow types, the dtype pandas' metadata restores, and the number of rows."""

    columns: tuple
    types: dict
    numpy_types: dict
    rows: int


def parquet_layout(path) -> ParquetLayout:
    """The layout of ``path`` from its footer (no row is read); pyarrow's error as it is."""
    import pyarrow.parquet as pq

    meta = pq.ParquetFile(path).metadata
    schema = meta.schema.to_arrow_schema()
    pandas = schema.pandas_metadata or {}
    index = {c for c in pandas.get("index_columns", ()) if isinstance(c, str)}
    numpy_types = {c.get("field_name", c.get("name")): c.get("numpy_type")
                   for c in pandas.get("columns", ())}
    columns = tuple(n for n in schema.names if n not in index)
    return ParquetLayout(columns, {n: schema.field(n).type for n in columns}, numpy_types,
                         meta.num_rows)


def kind_of(arrow_type, role: str, numpy_type) -> str | None:
    """``text``, ``int``, ``bool``, ``float32``, ``float64`` or None (not read in place) for a
    column of ``role``."""
    import pyarrow as pa

    t = arrow_type
    if pa.types.is_dictionary(t):
        if role not in LABEL_ROLES:
            return None
        t = t.value_type
    if role in NUMBER_ROLES and numpy_type is not None and numpy_type not in PLAIN_NUMBERS:
        return None
    if role == "cluster" and numpy_type is not None and numpy_type[:1].isupper():
        return None
    if pa.types.is_integer(t):
        return "int"
    if role in LABEL_ROLES:
        text = pa.types.is_string(t) or pa.types.is_large_string(t) or \
            getattr(pa.types, "is_string_view", lambda _: False)(t)
        return "text" if text else None
    if pa.types.is_boolean(t):
        return "bool"
    if pa.types.is_float32(t) or pa.types.is_float64(t):
        return "float32" if pa.types.is_float32(t) else "float64"
    return None


def unsupported(layout: ParquetLayout, roles: dict) -> str | None:
    """None when every column ``roles`` names (role → column) is read in place; otherwise
    which column is not, and its type."""
    for role, column in roles.items():
        if role != "repeat" and kind_of(layout.types[column], role,
                                        layout.numpy_types.get(column)) is None:
            return f"its {role} column {column!r} is {layout.types[column]}"
    return None


def plan_query(path: Path, reader: str, roles_of):
    """(the roles' columns, the layout) to query ``path`` in place, or None to read it whole:
    ``reader`` ``items-duckdb`` queries a Parquet file (one line when it cannot), ``auto`` one
    of ``QUERY_ROWS`` rows or more whose columns are all of types read in place, where DuckDB
    is installed. ``roles_of(columns)``: role → column, as the whole read renames them."""
    asked = reader == "items-duckdb"
    if not asked and (reader != "auto" or path.suffix.lower() != ".parquet"
                      or not have_duckdb()):
        return None
    if asked and not have_duckdb():
        raise RankwiseError(INSTALL)
    if asked and path.suffix.lower() != ".parquet":
        raise RankwiseError(f"{path}: --source items-duckdb queries a Parquet file in place;"
                            f" read a text table with --source items")
    try:
        layout = parquet_layout(path)
    except ImportError:
        raise RankwiseError(f"{path}: reading Parquet needs pyarrow: pip install"
                            f" 'rankwise[parquet]'") from None
    except (OSError, ValueError) as exc:    # pyarrow's ArrowInvalid is a ValueError
        if not asked:
            return None          # the whole read says what is wrong with the file
        raise RankwiseError(f"{path}: cannot be read as a table"
                            f" ({str(exc).splitlines()[0]})") from None
    if not asked and layout.rows < QUERY_ROWS:
        return None
    roles = roles_of(list(layout.columns))
    why = unsupported(layout, roles)
    if why is not None and asked:
        raise RankwiseError(f"{path}: --source items-duckdb reads labels as text or whole"
                            f" numbers and scores as numbers; {why}: read it with --source"
                            f" items")
    return None if why is not None else (roles, layout)


@contextlib.contextmanager
def engine_errors(source: str):
    """DuckDB's own error while querying the file, as one line."""
    import duckdb

    try:
        yield
    except duckdb.Error as exc:
        raise RankwiseError(f"{source}: cannot be read as a long item table"
                            f" ({type(exc).__name__}: {brief(exc, source)})") from None


def _quoted(name: str) -> str:
    return '"' + str(name).replace('"', '""') + '"'


def _shown(value, kind: str, has_nulls: bool) -> str:
    """A value of a score or weight column as pandas prints the cell of the whole column it
    is in (a message quotes it): a column of whole numbers with a missing value is float64 in
    pandas, a boolean one object (its missing value ``None``), a float32 one float32."""
    if value is None:
        return "None" if kind == "bool" else "nan"
    if kind == "bool":
        return str(bool(value))
    if kind == "int":
        return str(float(value)) if has_nulls else str(int(value))
    return str(np.float32(value)) if kind == "float32" else str(float(value))


@dataclass
class ItemSQL:
    """One Parquet file of scored items as DuckDB views: ``rows`` holds the file's row number
    ``rn`` and one column per role (labels as text, numbers as DOUBLE)."""

    path: Path
    roles: dict
    layout: ParquetLayout
    _codes: dict = field(default_factory=dict, repr=False)

    def __post_init__(self):
        import duckdb

        self.kinds = {r: kind_of(self.layout.types[c], r, self.layout.numpy_types.get(c))
                      for r, c in self.roles.items()}
        self.con = duckdb.connect()
        self.scan = (f"read_parquet('{str(self.path).replace(chr(39), chr(39) * 2)}',"
                     f" file_row_number = true)")
        select = ["file_row_number AS rn"]
        for role, column in self.roles.items():
            q = _quoted(column)
            if role in NUMBER_ROLES:
                select.append(f"CAST({q} AS DOUBLE) AS {role}")
            elif role in LABEL_ROLES[:3]:
                # a whole number's text is the same in DuckDB and Python (no exponent, no
                # rounding); a label is text in every use
                select.append(f"CAST({q} AS VARCHAR) AS {role}")
            elif role == "cluster":      # raw: its text is made as pandas makes it
                select.append(f"{q} AS cluster")
        self.con.execute(f"CREATE VIEW rows AS SELECT {', '.join(select)} FROM {self.scan}")

    def findings(self, eager_limit: int) -> dict:
        """What the checks of a long table look for, in one pass: per label the first row
        without one, the number of rows, the first bad score and weight (row, count, the value
        as pandas shows it), the first repeated (model, task, item) where the table has no
        ``repeat`` column and at most ``eager_limit`` rows, and whether every score is 0/1."""
        bad_score = "NOT coalesce(isfinite(score) AND abs(score) <= $max, false)"
        bad_weight = ("NOT coalesce(isfinite(weight) AND weight > 0, false)"
                      if "weight" in self.roles else "false")
        parts = [f"min(rn) FILTER (WHERE {c} IS NULL)" for c in LABEL_ROLES[:3]] + [
            "count(*)", f"count(*) FILTER (WHERE {bad_score})",
            f"min(rn) FILTER (WHERE {bad_score})", f"count(*) FILTER (WHERE {bad_weight})",
            f"min(rn) FILTER (WHERE {bad_weight})",
            "count(*) FILTER (WHERE NOT (score = 0 OR score = 1))"]
        from .._validate import MAX_ABS_SCORE

        got = self.con.execute(f"SELECT {', '.join(parts)} FROM rows",
                               {"max": MAX_ABS_SCORE}).fetchone()
        out = {"no_label": dict(zip(LABEL_ROLES[:3], got[:3])), "rows": int(got[3]),
               "score": self._bad("score", got[5], got[4]),
               "weight": self._bad("weight", got[7], got[6]) if got[6] else None,
               "binary": got[8] == 0, "repeated": None}
        if "repeat" not in self.roles and 0 < out["rows"] <= eager_limit:
            # the first row whose (task, item, model) an earlier row has: the row pandas'
            # duplicated() flags first
            out["repeated"] = self.con.execute(
                "SELECT model, item, task FROM (SELECT rn, model, item, task, row_number()"
                " OVER (PARTITION BY task, item, model ORDER BY rn) AS k FROM rows)"
                " WHERE k = 2 ORDER BY rn LIMIT 1").fetchone()
        return out

    def _bad(self, role: str, row, count):
        """(row, count, the value as pandas shows it) of the first bad value of ``role``."""
        if not count:
            return None
        q = _quoted(self.roles[role])
        value, nulls = self.con.execute(
            f"SELECT (SELECT {q} FROM {self.scan} WHERE file_row_number = $row),"
            f" (SELECT count(*) - count({q}) FROM {self.scan})", {"row": row}).fetchone()
        return int(row), int(count), _shown(value, self.kinds[role], nulls > 0)

    def in_order(self, role: str) -> tuple:
        """The labels of ``role`` in the order they first appear in the file."""
        if ("order", role) not in self._codes:
            with engine_errors(str(self.path)):
                self._codes["order", role] = tuple(r[0] for r in self.con.execute(
                    f"SELECT {role} FROM rows GROUP BY {role} ORDER BY min(rn)").fetchall())
        return self._codes["order", role]

    def _coded(self, role: str) -> None:
        """A table of ``role``'s labels and their codes (first appearance order), for the joins
        that give each row its codes."""
        if role not in self._codes:
            self.con.execute(f"CREATE TEMP TABLE {role}_codes AS SELECT {role} AS label,"
                             f" (row_number() OVER (ORDER BY min(rn)) - 1)::INTEGER AS code"
                             f" FROM rows GROUP BY {role}")
            self._codes[role] = True

    def cluster_texts(self) -> tuple:
        """(codes table made, the text of each cluster code as pandas makes it): the cluster
        cell of an item's first row becomes ``str`` of NumPy's value of the whole column,
        which is float64 for whole numbers with a missing value."""
        if "cluster" not in self._codes:
            self.con.execute("CREATE TEMP TABLE cluster_codes AS SELECT cluster AS label,"
                             " (row_number() OVER (ORDER BY cluster) - 1)::INTEGER AS code"
                             " FROM (SELECT DISTINCT cluster FROM rows WHERE cluster IS NOT"
                             " NULL)")
            labels = [r[0] for r in self.con.execute(
                "SELECT label FROM cluster_codes ORDER BY code").fetchall()]
            nulls = self.con.execute(
                "SELECT count(*) - count(cluster) FROM rows").fetchone()[0] > 0
            float_text = self.kinds["cluster"] == "int" and nulls
            self._codes["cluster"] = tuple(str(float(v)) if float_text else str(v)
                                           for v in labels)
        return self._codes["cluster"]

    def task_rows(self, task: str) -> dict:
        """The rows of ``task`` in file order: ``model`` and ``item`` codes (first appearance
        order over the whole file), ``score``, and where given ``weight`` and ``cluster``
        (a code of :meth:`cluster_texts`, -1 for none)."""
        for role in ("model", "item"):
            self._coded(role)
        picks = ["m.code AS model", "i.code AS item", "r.score"]
        joins = ["JOIN model_codes m ON r.model = m.label",
                 "JOIN item_codes i ON r.item = i.label"]
        if "weight" in self.roles:
            picks.append("r.weight")
        if "cluster" in self.roles:
            self.cluster_texts()
            picks.append("coalesce(c.code, -1) AS cluster")
            joins.append("LEFT JOIN cluster_codes c ON r.cluster = c.label")
        rows = self.con.execute(f"SELECT {', '.join(picks)}, r.rn FROM rows r"
                                f" {' '.join(joins)} WHERE r.task = $task",
                                {"task": task}).fetchnumpy()
        # file order by a stable sort here: DuckDB's ORDER BY took most of a task's time, and
        # the rows mostly come back in order already (then nothing is moved)
        rn = np.asarray(rows.pop("rn"))
        if rn.size > 1 and not (np.diff(rn) > 0).all():
            order = np.argsort(rn, kind="stable")
            rows = {name: np.asarray(values)[order] for name, values in rows.items()}
        return rows

    def labels(self, role: str) -> list:
        """The labels of ``role`` by code (the categories of :meth:`task_rows`' codes)."""
        self._coded(role)
        return [r[0] for r in self.con.execute(
            f"SELECT label FROM {role}_codes ORDER BY code").fetchall()]

    def task_frame(self, task: str) -> pd.DataFrame:
        """The rows of ``task`` in file order as a long frame of categoricals (model and item
        categories in first appearance order over the file; a cluster's text as pandas makes
        it), as :meth:`rankwise.tables.items.ItemTable.task_matrix` reads one."""
        with engine_errors(str(self.path)):
            rows = self.task_rows(task)
            if "dtypes" not in self._codes:
                self._codes["dtypes"] = {r: pd.CategoricalDtype(self.labels(r))
                                         for r in ("model", "item")}
            texts = self.cluster_texts() if "cluster" in self.roles else ()
        dtypes = self._codes["dtypes"]
        n = len(rows["score"])
        part = {"model": pd.Categorical.from_codes(rows["model"], dtype=dtypes["model"]),
                "task": pd.Categorical.from_codes(np.zeros(n, np.int8), [task]),
                "item": pd.Categorical.from_codes(rows["item"], dtype=dtypes["item"]),
                "score": np.asarray(rows["score"], dtype=float)}
        if "cluster" in self.roles:
            # two raw labels may share a text (whole numbers past 2**53 as floats): one category
            codes, unique = pd.factorize(pd.Index(texts, dtype=object))
            at = np.asarray(rows["cluster"])
            part["cluster"] = pd.Categorical.from_codes(
                np.where(at >= 0, codes[np.maximum(at, 0)], -1), unique.astype(object))
        if "weight" in self.roles:
            part["weight"] = np.asarray(rows["weight"], dtype=float)
        if "repeat" in self.roles:
            part["repeat"] = np.zeros(n, np.int8)   # only its presence is read: repeats allowed
        return pd.DataFrame(part)
