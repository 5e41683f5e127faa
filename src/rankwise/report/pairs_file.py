"""``--pairs FILE``: every pair's numbers in a file, Parquet or CSV by its extension.

Up to 1,000 learners the file is ``pairs.csv`` (:mod:`.pairs`): every pair in the table's order.
Above, every pair of a streamed all-pairs family (``--posthoc all``) is written block by block
as it is computed, most significant first, so 50 million pairs never sit in memory: the columns
are ``position`` (1 = smallest p), ``a`` and ``b`` (a before b in the table), their scores on
the ranking (``score_a``, ``score_b``: mean ranks for Friedman), ``difference`` (the size of
score_a − score_b), ``statistic`` (score_a − score_b)/SE, ``p`` and one column of adjusted p-values per
procedure. p-values below 1e-300 are written as 1e-300, a bound, as in the JSON. With several
rankings, one file each: ``NAME_RANKING.EXT``. ``significant_only``: the pairs that some
procedure rejects at alpha.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from ..errors import RankwiseError
from ..stats.results import clip_to_floor

SUFFIXES = (".parquet", ".csv")


def check_pairs_path(path) -> Path:
    """``path`` when it names a .parquet or .csv file in an existing folder (before any work)."""
    path = Path(path)
    if path.suffix.lower() not in SUFFIXES:
        raise RankwiseError(f"--pairs {path}: name a .parquet or .csv file (e.g. pairs.parquet)")
    if path.is_dir():
        raise RankwiseError(f"--pairs {path}: is a folder; give a file name")
    if not path.parent.exists():
        raise RankwiseError(f"--pairs {path}: the folder {path.parent} does not exist; create"
                            " it first")
    return path


def streamed_families(cmp) -> list:
    """``[(ranking, family)]``: the all-pairs families that were streamed, not held."""
    if cmp.posthoc is None:
        return []
    out = []
    for ranking, entry in cmp.posthoc.rankings.items():
        fam = None if entry.skipped else entry.families.get("all_pairs")
        if fam is not None and getattr(fam, "complete", True) is False:
            out.append((ranking, fam))
    return out


def write_pairs(cmp, path, significant_only: bool = False) -> list:
    """Write the pairs file(s) (see the module docstring); return the paths written.

    Examples
    --------
    >>> import tempfile, pathlib, rankwise
    >>> import pandas as pd
    >>> from rankwise.report.pairs_file import write_pairs
    >>> cmp = rankwise.compare(rankwise.load_example("garcia2008"), posthoc="all")
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     [path] = write_pairs(cmp, pathlib.Path(folder) / 'pairs.csv')
    ...     pairs = pd.read_csv(path)
    >>> len(pairs), list(pairs.columns[:4])
    (10, ['a', 'b', 'mean_rank_a', 'mean_rank_b'])
    """
    path = check_pairs_path(path)
    parquet = path.suffix.lower() == ".parquet"
    streamed = streamed_families(cmp)
    if not streamed:
        if cmp.table.n_learners > _limit():
            missing = needs_all_pairs(cmp.table.n_learners, cmp.options.get("posthoc"))
            raise RankwiseError(missing or (
                f"--pairs with {cmp.table.n_learners:,} learners writes the pairs of the"
                " all-pairs family, which was not computed: the omnibus test did not reject"
                " (the papers' gate); add --force-posthoc to test every pair anyway"))
        from .pairs import pairs_columns

        cols = pairs_columns(cmp)
        if significant_only:
            cols = _significant_rows(cols, cmp.alpha)
        _write_whole(cols, path, parquet)
        return [path]
    written = []
    for ranking, fam in streamed:
        target = path if len(streamed) == 1 else path.with_name(
            f"{path.stem}_{ranking}{path.suffix}")
        _write_stream(fam, cmp.table.learners, target, parquet, significant_only)
        written.append(target)
    return written


def folder_pairs(cmp, folder: Path) -> list:
    """The pairs file of ``--report DIR`` when the all-pairs family was streamed: every pair,
    as pairs.parquet (with pyarrow) or pairs.csv; [] when pairs.csv (:mod:`.pairs`) holds
    them."""
    if not streamed_families(cmp):
        return []
    try:
        import pyarrow  # noqa: F401

        name = "pairs.parquet"
    except ImportError:
        name = "pairs.csv"
    return write_pairs(cmp, Path(folder) / name)


def needs_all_pairs(k: int, family) -> str | None:
    """Why ``--pairs`` cannot be written for ``k`` learners and this post-hoc family, known
    before any work (None: it can, unless the gate later stops the family)."""
    if k > _limit() and family not in ("all", "both"):
        return (f"--pairs with {k:,} learners writes the pairs of --posthoc all (every pair is"
                " tested only then); add --posthoc all")
    return None


def _limit() -> int:
    from ..defaults import PAIR_MATRIX_MAX_LEARNERS

    return PAIR_MATRIX_MAX_LEARNERS


def _significant_rows(cols: dict, alpha: float) -> dict:
    """The rows of pairs.csv's columns where some adjusted p-value is at most ``alpha``."""
    from ..names import PROCEDURES

    procedures = tuple(f"_{name}" for name in (*PROCEDURES, "nemenyi"))
    apv = [name for name in cols if name.endswith(procedures) and not name.startswith("effect_")]
    keep = np.zeros(len(cols["a"]), dtype=bool)
    for name in apv:
        values = np.array([float(v) if v else np.nan for v in cols[name]])
        keep |= values <= alpha
    return {name: [v for v, k in zip(column, keep) if k] for name, column in cols.items()}


def _write_whole(cols: dict, path: Path, parquet: bool) -> None:
    if not parquet:
        from .._files import write_atomic
        from .pairs import columns_csv

        write_atomic(path, columns_csv(cols))
        return
    pa, pq = _arrow()
    table = pa.table({name: _typed(column) for name, column in cols.items()})
    with _replaced(path) as tmp:
        pq.write_table(table, tmp)


def _typed(column: list):
    """A pairs.csv column as numbers where every cell is one (empty: missing), else text."""
    try:
        return np.array([float(v) if v != "" else np.nan for v in column])
    except (TypeError, ValueError):
        return list(column)


def _write_stream(fam, learners, path: Path, parquet: bool, significant_only: bool) -> None:
    pa, pq = _arrow() if parquet else (None, None)
    names = np.asarray(list(learners), dtype=object)
    scores = fam.stream.scores
    with _replaced(path) as tmp:
        sink = None
        try:
            for block in fam.stream.blocks():
                rows = np.arange(len(block))
                if significant_only:
                    hit = np.zeros(len(block), dtype=bool)
                    for proc in fam.procedures:
                        hit |= block.apv[proc] <= fam.alpha
                    rows = np.flatnonzero(hit)
                a, b = block.a[rows], block.b[rows]
                cols = {"position": block.start + 1 + rows,
                        "a": a if parquet else names[a], "b": b if parquet else names[b],
                        "score_a": scores[block.a[rows]], "score_b": scores[block.b[rows]],
                        "difference": block.difference[rows],
                        "statistic": block.statistic[rows], "p": clip_to_floor(block.pvalue[rows]),
                        **{proc: clip_to_floor(block.apv[proc][rows])
                           for proc in fam.procedures}}
                sink = _append(sink, cols, tmp, pa, pq, names)
            if sink is None:  # not one row: the header (or schema) alone
                none = np.empty(0, dtype=np.int64)
                sink = _append(None, {"position": none, "a": none if parquet else [],
                                      "b": none if parquet else [],
                                      **{c: np.empty(0) for c in ("score_a", "score_b",
                                                                  "difference", "statistic",
                                                                  "p", *fam.procedures)}},
                               tmp, pa, pq, names)
        finally:
            if sink is not None:
                sink.close()


def _append(sink, cols: dict, path: Path, pa, pq, names):
    """Write one block: a Parquet row group (the names as a dictionary of the learners, read
    back as text), or CSV lines (the header with the first)."""
    if pq is not None:
        dictionary = pa.array(list(names), pa.string())
        table = pa.table({name: (pa.DictionaryArray.from_arrays(
            pa.array(np.asarray(v, dtype=np.int32)), dictionary) if name in ("a", "b") else v)
            for name, v in cols.items()})
        if sink is None:
            sink = pq.ParquetWriter(str(path), table.schema, use_dictionary=["a", "b"])
        sink.write_table(table)
        return sink
    import pandas as pd

    first = sink is None
    if first:
        sink = open(path, "w", encoding="utf-8", newline="")
    pd.DataFrame(cols).to_csv(sink, index=False, header=first, lineterminator="\n")
    return sink


class _replaced:
    """A temporary file beside ``path`` that replaces it on success (a failure half-way
    leaves no half-written file). As :func:`rankwise._files.write_atomic`: a symbolic link's
    target is replaced, not the link; a path that is not a regular file (``/dev/stdout``, a
    pipe) is written into; the file keeps the replaced file's mode, or the umask's."""

    def __init__(self, path: Path):
        from .._files import file_mode, written_through

        self.through = written_through(path)
        self.given = Path(path)
        self.path = Path(os.path.realpath(path))
        self.tmp = self.path.with_name(f".{self.path.name}.partial")
        self.mode = file_mode(self.path)

    def __enter__(self) -> Path:
        return self.given if self.through else self.tmp

    def __exit__(self, kind, value, tb):
        if self.through:
            return False
        if kind is None:
            os.chmod(self.tmp, self.mode)
            os.replace(self.tmp, self.path)
        else:
            self.tmp.unlink(missing_ok=True)
        return False


def _arrow():
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise RankwiseError("Parquet needs pyarrow: pip install 'rankwise[parquet]' (or name"
                            " a .csv file)") from None
    return pa, pq
