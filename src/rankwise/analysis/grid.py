"""The multiverse's grid: the dimensions it can vary and the values of each, read from a dict
or a TOML file's ``[grid]`` table and checked before any analysis runs (see
:mod:`rankwise.analysis.multiverse`)."""

from __future__ import annotations

from pathlib import Path

from ..errors import RankwiseError
from ..names import AGGREGATES
from .._text import brief

#: The bases of the verdict the grid can vary, with what each is called in a report.
BASES = {
    "friedman-holm": "Friedman mean ranks, Holm (two learners: the Wilcoxon test)",
    "wilcoxon-holm": "pairwise Wilcoxon, Holm",
    "sign-holm": "pairwise sign tests, Holm",
    "mcm": "multi-comparison matrix (Wilcoxon, Holm)",
    "plackett-luce": "Plackett-Luce posterior",
}
DIMENSIONS = ("criterion", "aggregate", "decimals", "missing", "basis")


def read_grid(grid) -> dict | None:
    """A grid from a TOML file's ``[grid]`` table or a dict (None: the default grid)."""
    if grid is None or grid is True or grid == "default":
        return None
    if isinstance(grid, (str, Path)):
        path = Path(grid)
        if path.is_dir():
            raise RankwiseError(f"{path}: is a folder; --multiverse takes a TOML grid file (or"
                                " nothing, for the default grid)")
        if not path.is_file():
            raise RankwiseError(f"{path}: no such grid file (a TOML file with a [grid] table;"
                                " --multiverse alone uses the default grid)")
        try:
            import tomllib
        except ModuleNotFoundError:  # Python 3.10
            import tomli as tomllib
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise RankwiseError(f"{path}: not a TOML file ({brief(exc, path)})") from None
        grid = data.get("grid", data)
    if not isinstance(grid, dict):
        raise RankwiseError("the multiverse grid must be a table of lists, e.g."
                            " {'decimals': [12, 3], 'basis': ['friedman-holm', 'mcm']}")
    unknown = [k for k in grid if k not in DIMENSIONS]
    if unknown:
        raise RankwiseError(f"unknown dimension {unknown[0]!r} in the multiverse grid; the"
                            f" dimensions are {', '.join(DIMENSIONS)}")
    out = {}
    for key, values in grid.items():
        values = list(values) if isinstance(values, (list, tuple)) else [values]
        if not values:
            raise RankwiseError(f"the multiverse grid's {key} has no values")
        out[key] = _checked(key, values)
    return out


def _checked(key, values) -> list:
    if key == "basis":
        bad = [v for v in values if v not in BASES]
        if bad:
            raise RankwiseError(f"unknown basis {bad[0]!r} in the multiverse grid; choose from"
                                f" {', '.join(BASES)}")
    if key == "aggregate":
        bad = [v for v in values if v not in AGGREGATES]
        if bad:
            raise RankwiseError(f"unknown aggregate {bad[0]!r}; choose from"
                                f" {', '.join(AGGREGATES)}")
    if key == "decimals":
        if any(isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 15
               for v in values):
            raise RankwiseError("the multiverse grid's decimals must be whole numbers from 0"
                                " to 15")
    return list(dict.fromkeys(values))
