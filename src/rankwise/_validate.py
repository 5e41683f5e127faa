"""Input checks shared by every statistical function (one place, one wording)."""

from __future__ import annotations

import numpy as np

from .defaults import SEED_MAX
from .errors import RankwiseError
from .names import ALTERNATIVES, CONVENTIONS  # noqa: F401  (re-exported)


#: Scores larger than this in magnitude are refused: differences, sums and the spread of two
#: scores must stay finite in double precision (which ends near 1.8e308).
MAX_ABS_SCORE = 1e307


def real_array(values) -> np.ndarray:
    """``values`` as a float array, or one line that says why not: rows of different lengths
    (numpy's "inhomogeneous shape"), complex numbers (numpy would drop the imaginary part with
    only a warning), or something that is not a number."""
    if isinstance(values, (list, tuple)):
        lengths = sorted({len(row) if isinstance(row, (list, tuple)) or np.ndim(row) else -1
                          for row in values}) if all(isinstance(row, (list, tuple)) or
                                                     np.ndim(row) < 2 for row in values) else []
        if len(lengths) > 1:
            shown = ", ".join("a single number" if n < 0 else str(n) for n in lengths)
            raise RankwiseError(f"the rows of the scores have different lengths ({shown});"
                                " give every data set one score per learner (NaN where one is"
                                " missing)")
    try:
        if np.iscomplexobj(values):
            raise RankwiseError("scores must be real numbers; got complex values (take their"
                                " real part or modulus first)")
        return np.asarray(values, dtype=float)
    except (TypeError, ValueError) as exc:
        raise RankwiseError(f"scores must be numbers: {exc}") from None


def real_scores(values, missing_ok: bool = True, names=None) -> np.ndarray:
    """``values`` as a float array of real scores (NaN, a missing cell, where ``missing_ok``),
    none infinite and none beyond ``MAX_ABS_SCORE``; else a one-line error naming a cell (by
    ``names``, (data sets, learners), when given)."""
    x = real_array(values)
    if x.size:
        # the common case in one pass: every score finite and within the bound (a NaN makes
        # the maximum NaN, which fails the test and takes the cell-by-cell check below)
        top = np.max(np.abs(x))
        if top <= MAX_ABS_SCORE:
            return x
    present = ~np.isnan(x) if missing_ok else np.ones(x.shape, bool)
    for bad, what in ((present & ~np.isfinite(x), "finite"),
                      (present & (np.abs(np.nan_to_num(x)) > MAX_ABS_SCORE),
                       f"at most {MAX_ABS_SCORE:.0e} in magnitude (their differences must not"
                       " overflow; divide them by a power of ten)")):
        if bad.any():
            where = np.argwhere(bad)[0]
            cell = (f" at row {where[0] + 1}, column {where[1] + 1}" if x.ndim == 2 else
                    f" at position {where[0] + 1}" if x.ndim == 1 else "")
            if names is not None and x.ndim == 2:
                cell = f" for {names[1][where[1]]!r} on {names[0][where[0]]!r}"
            raise RankwiseError(f"scores must be {what}: {x[tuple(where)]:g}{cell}"
                                f" ({int(bad.sum())} such cells)")
    return x


def score_input(fn):
    """Let a function of a score matrix ``x`` (its first argument) take what the
    documentation promises: an array, a DataFrame of numbers or a :class:`ScoreTable`.

    A ScoreTable brings its values, its direction (``higher_is_better`` left out, None, takes
    the table's, and an array's or DataFrame's is higher; one that contradicts the table is
    refused: a lower-is-better table is never read the other way round without a word) and, where the function takes ``learners`` and
    ``datasets``, their names, as a DataFrame brings its columns' and index's. A file name
    is refused in one line that says how to read it first.
    """
    import functools
    import inspect

    sig = inspect.signature(fn)
    first = next(iter(sig.parameters))
    takes = {name: name in sig.parameters
             for name in ("higher_is_better", "learners", "datasets")}

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        bound = sig.bind_partial(*args, **kwargs)
        if first in bound.arguments:
            bound.arguments.update(_as_scores(fn.__name__, bound.arguments[first], first,
                                              bound.arguments, takes))
        if takes["higher_is_better"] and bound.arguments.get("higher_is_better") is None:
            bound.arguments["higher_is_better"] = True   # no table said otherwise: higher
        return fn(*bound.args, **bound.kwargs)

    return wrapper


def _as_scores(name: str, x, first: str, given: dict, takes: dict) -> dict:
    """The arguments that replace ``x`` (and fill ``higher_is_better``, ``learners`` and
    ``datasets``)."""
    import os

    if isinstance(x, (str, bytes, os.PathLike)):
        raise RankwiseError(f"{name}() takes scores (an array or DataFrame of numbers, rows data"
                            " sets, columns learners) or a ScoreTable, not a file name; read the"
                            f" file first: {name}(rankwise.load_table({str(x)!r}))")
    out, names, rows = {}, None, None
    if all(hasattr(x, a) for a in ("values", "higher_is_better", "learners", "datasets")):
        hib = bool(x.higher_is_better)
        if takes["higher_is_better"]:
            said = given.get("higher_is_better")
            if said is not None and bool(said) != hib:
                word = "higher" if hib else "lower"
                raise RankwiseError(f"{name}(): the ScoreTable was read as {word} is better;"
                                    " leave higher_is_better out to use it, or read the table"
                                    " again with load_table(..., higher_is_better=...)")
            out["higher_is_better"] = hib
        names, rows, x = list(x.learners), list(x.datasets), x.values
    elif hasattr(x, "columns") and hasattr(x, "dtypes"):  # a pandas DataFrame
        from pandas.api.types import is_numeric_dtype

        text = [c for c, t in zip(x.columns, x.dtypes) if not is_numeric_dtype(t)]
        if text:
            raise RankwiseError(f"{name}(): the DataFrame's column {str(text[0])!r} is not"
                                " numbers; make it the index (df.set_index(...)) or read the"
                                " frame with rankwise.load_table(df)")
        names, rows = [str(c) for c in x.columns], [str(i) for i in x.index]
        x = x.to_numpy(dtype=float)
    else:
        if isinstance(x, (list, tuple)) or hasattr(x, "__array__"):
            x = real_array(x)
        if np.ndim(x) != 2:
            score_matrix(x)  # refused, in its words
    if 0 in np.shape(x):
        raise RankwiseError(f"{name}(): the scores are empty (shape {np.shape(x)}); give at"
                            " least one data set and one learner")
    out[first] = x
    if takes["learners"] and names is not None and given.get("learners") is None:
        out["learners"] = names
    if takes["datasets"] and rows is not None and given.get("datasets") is None:
        out["datasets"] = rows
    return out


def score_matrix(x, min_rows: int = 2, min_cols: int = 2) -> np.ndarray:
    """An n × k float matrix of finite scores (n data sets, k learners)."""
    if np.ndim(x) != 2:
        kind = type(x).__name__
        got = (f"{np.ndim(x)}-D" if isinstance(x, (np.ndarray, list, tuple)) or np.ndim(x)
               else f"{'an' if kind[0] in 'aeiou' else 'a'} {kind}")
        raise RankwiseError("scores must be a 2-D table (data sets × learners: an array, a"
                            f" DataFrame of numbers or a ScoreTable), got {got}")
    n, k = np.shape(x)
    if n < min_rows:
        raise RankwiseError(f"need at least {min_rows} data sets, got {n}")
    if k < min_cols:
        raise RankwiseError(f"need at least {min_cols} learners, got {k}")
    return real_scores(x, missing_ok=False)


def score_pair(a, b, min_rows: int = 2):
    """Two equally long vectors of finite scores, as one n × 2 matrix."""
    a, b = real_array(a), real_array(b)
    if a.ndim > 1 or b.ndim > 1:   # ravelled, a matrix would pair cells of different rows
        raise RankwiseError(f"each learner's scores must be one vector (one score per data"
                            f" set); got shapes {a.shape} and {b.shape}")
    a, b = a.ravel(), b.ravel()
    if a.shape != b.shape:
        raise RankwiseError(f"the two learners need one score per data set each; got {a.size}"
                            f" and {b.size}")
    return score_matrix(np.column_stack([a, b]), min_rows=min_rows)


def choice(name: str, value, options) -> str:
    if value not in options:
        raise RankwiseError(f"{name} must be one of {', '.join(map(str, options))}; got {value!r}")
    return value


def convention(value) -> str:
    return choice("convention", value, CONVENTIONS)


def alternative(value) -> str:
    return choice("alternative", value, ALTERNATIVES)


def decimals(value):
    """Decimal places to round scores to: None (no rounding) or a whole number from 0 to 15
    (a float64 carries about 15 significant digits, so more places round nothing away)."""
    if value is None:
        return None
    whole = isinstance(value, int) or (hasattr(value, "is_integer") and value.is_integer())
    if isinstance(value, bool) or not whole or not 0 <= int(value) <= 15:
        raise RankwiseError(f"decimals must be a whole number from 0 to 15, or None for no"
                            f" rounding; got {value!r}")
    return int(value)


def alpha(value) -> float:
    return level("alpha", value)


def _number(value) -> float:
    """``value`` as a float, NaN when it is not a number (text, None, a complex number)."""
    if isinstance(value, (bool, complex, np.complexfloating)):
        return float("nan")
    try:
        return float(value)
    except (TypeError, ValueError):
        return float("nan")


def threshold(value) -> float:
    """The posterior probability at which a Bayesian decision is taken."""
    t = _number(value)
    if not 0.5 < t < 1.0:
        raise RankwiseError(f"the decision threshold must be between 0.5 and 1; got {value!r}")
    return t


def fraction(value) -> float:
    """A share strictly between 0 and 1 (the test fraction of a hold-out design)."""
    f = _number(value)
    if not 0 < f < 1:
        raise RankwiseError(f"the test fraction must be a share between 0 and 1 (e.g."
                            f" --test-fraction 0.3); got {value!r}")
    return f


def rope(value) -> float:
    """Half-width of a region of practical equivalence: a finite number ≥ 0."""
    r = _number(value)
    if not (r >= 0 and np.isfinite(r)):
        raise RankwiseError(f"the ROPE must be a number ≥ 0 in the criterion's units (e.g."
                            f" --rope 0.01); got {value!r}")
    return r


def seed(value, name: str = "seed") -> int:
    """A seed of numpy's generators: a whole number from 0 to :data:`~rankwise.defaults.SEED_MAX`
    (2**64 − 1), one range for every command and function."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) \
            or not 0 <= value <= SEED_MAX:
        raise RankwiseError(f"{name} must be a whole number from 0 to 2**64 - 1; got"
                            f" {value!r}")
    return int(value)


# -- one wording per kind of check: the command line's declared checks
# (:attr:`rankwise.option_table.Option.check`) and the Python functions' call these, the
# command line with the flag as ``name`` (``--draws``), Python with the keyword (``draws``).

def whole(name: str, value, low: int = 1, high: int | None = None) -> int:
    """A whole number from ``low`` (to ``high``): an int, or a float that is one (10.0); not
    10.5, not True, not text."""
    integral = isinstance(value, (int, np.integer)) or (
        isinstance(value, (float, np.floating)) and np.isfinite(value)
        and float(value).is_integer())
    if isinstance(value, (bool, np.bool_)) or not integral or value < low or (
            high is not None and value > high):
        span = f"from {low:,} to {high:,}" if high is not None else f"≥ {low:,}"
        raise RankwiseError(f"{name} must be a whole number {span}; got {value!r}")
    return int(value)


def finite(name: str, value, low: float | None = None, *, strict: bool = False) -> float:
    """A finite real number (≥ ``low``, or > ``low`` where ``strict``); not NaN, not text."""
    x = _number(value)
    bad = not np.isfinite(x) or (low is not None and (x <= low if strict else x < low))
    if bad:
        bound = "" if low is None else f" {'>' if strict else '≥'} {low:g}"
        raise RankwiseError(f"{name} must be a finite number{bound}; got {value!r}")
    return x


def positive(name: str, value) -> float:
    """A finite number above 0."""
    return finite(name, value, 0, strict=True)


def level(name: str, value) -> float:
    """A level or share strictly between 0 and 1 (alpha, a confidence)."""
    x = _number(value)
    if not 0.0 < x < 1.0:
        raise RankwiseError(f"{name} must be between 0 and 1 (exclusive); got {value!r}")
    return x


def numbers(name: str, values, low: float | None = None, *, strict: bool = False) -> list:
    """A non-empty sequence of finite numbers (each ≥ ``low``, > where ``strict``)."""
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        values = [values]
    out = [finite(name, v, low, strict=strict) for v in values]
    if not out:
        raise RankwiseError(f"{name} must name at least one number; got none")
    return out


def ordered_pair(name: str, value) -> tuple:
    """Two finite numbers LOW, HIGH with LOW < HIGH."""
    pair = list(value) if isinstance(value, (list, tuple, np.ndarray)) else None
    if pair is None or len(pair) != 2 or not all(np.isfinite(_number(v)) for v in pair) \
            or not _number(pair[0]) < _number(pair[1]):
        raise RankwiseError(f"{name} must be two finite numbers LOW,HIGH with LOW < HIGH; got"
                            f" {value!r}")
    return float(pair[0]), float(pair[1])


def counts(name: str, value) -> dict:
    """A mapping of names to whole numbers ≥ 1 (item counts)."""
    if value is None:
        return {}
    if not hasattr(value, "items"):
        raise RankwiseError(f"{name} must map names to whole numbers (e.g. {{'MATH': 5000}});"
                            f" got {type(value).__name__}")
    return {str(k): whole(f"{name}[{k!r}]", v) for k, v in value.items()}


def seconds(name: str, value) -> float:
    """A time budget: a number of seconds ≥ 0 (inf: no limit)."""
    t = _number(value)
    if not t >= 0:
        raise RankwiseError(f"{name} must be a number of seconds ≥ 0; got {value!r}")
    return t


def confidence(value) -> float:
    return level("confidence", value)


def a_seed(name: str, value) -> int:
    """:func:`seed` with the name first, as the other checks take it."""
    return seed(value, name)


def parse_list(value) -> list | None:
    """A list of names from ``"a, b"`` or a sequence (None stays None)."""
    if value is None:
        return None
    if isinstance(value, str):
        return [v.strip() for v in value.split(",") if v.strip()]
    return list(value)


def renamed(value, old_value, old: str, new: str):
    """``value``, or ``old_value`` given under the keyword's name before 0.9 (``old=``), with a
    FutureWarning: one word per idea across rankwise (``draws`` for every number of random
    draws, ``confidence`` for every confidence level)."""
    if old_value is None:
        return value
    import warnings

    warnings.warn(f"{old}= is {new}= since rankwise 0.9 (one word per idea across rankwise);"
                  f" {old}= goes in 0.10", FutureWarning, stacklevel=3)
    return old_value
