"""scikit-learn's results as the long table that :func:`rankwise.compare` takes.

Neither function imports scikit-learn: they read the plain dictionaries that
``sklearn.model_selection.cross_validate`` returns and the ``cv_results_`` of a fitted search
(``GridSearchCV``, ``RandomizedSearchCV``, ``HalvingGridSearchCV``...).

scikit-learn's scorers are all higher-is-better (losses are negated: ``neg_log_loss``), so each
criterion is named as the scorer is (``score`` for a single default scorer): rankwise reads
``neg_...`` names as higher-is-better and ``score`` as higher-is-better. Every split is a fold
(repeat 0): with a repeated splitter the splits of all repeats are folds of one run, which
changes nothing in the analysis (the cells are the median over the splits). Fit and score
times are left out unless asked for (``times=True``; criteria ``fit_time`` and
``score_time``, lower-is-better).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import numpy as np
import pandas as pd

from ..errors import RankwiseError

COLUMNS = ["dataset", "learner", "criterion", "repeat", "fold", "value"]
_SPLIT = re.compile(r"^split(\d+)_test_(.+)$")


def _values(array, where: str) -> np.ndarray:
    try:
        out = np.asarray(array, dtype=float).ravel()
    except (TypeError, ValueError):
        raise RankwiseError(f"{where}: the scores are not numbers") from None
    return out


def from_cross_validate(results: Mapping, *, times: bool = False) -> pd.DataFrame:
    """The long table of ``{dataset: {learner: cross_validate(...)}}``.

    Parameters
    ----------
    results : mapping
        For each data set, for each learner, the dictionary ``cross_validate`` returned
        (``test_score`` or ``test_<scorer>`` arrays, one value per split).
    times : bool, default False
        Also the criteria ``fit_time`` and ``score_time``.

    Returns
    -------
    pandas.DataFrame
        Columns ``dataset``, ``learner``, ``criterion``, ``repeat``, ``fold``, ``value``: one row
        per split and criterion. With one scorer there is one criterion; with several, choose
        one in :func:`rankwise.compare` (``criterion="accuracy"``).

    Examples
    --------
    >>> import numpy as np
    >>> cv = {"iris": {"tree": {"test_score": np.array([0.9, 0.95])},
    ...                "knn": {"test_score": np.array([0.96, 0.97])}}}
    >>> from_cross_validate(cv)
      dataset learner criterion  repeat  fold  value
    0    iris    tree     score       0     0   0.90
    1    iris    tree     score       0     1   0.95
    2    iris     knn     score       0     0   0.96
    3    iris     knn     score       0     1   0.97
    """
    if not isinstance(results, Mapping) or not results:
        raise RankwiseError("from_cross_validate takes {dataset: {learner: cross_validate"
                            " result}}, a non-empty mapping")
    rows = []
    for dataset, learners in results.items():
        if not isinstance(learners, Mapping) or not learners:
            raise RankwiseError(f"from_cross_validate: data set {dataset!r} needs a mapping"
                                " {learner: cross_validate result}")
        for learner, cv in learners.items():
            where = f"from_cross_validate: {dataset!r} / {learner!r}"
            if not isinstance(cv, Mapping):
                raise RankwiseError(f"{where}: expected the dictionary that cross_validate"
                                    f" returns; got {type(cv).__name__}")
            keys = [k for k in cv if str(k).startswith("test_")]
            if times:
                keys += [k for k in ("fit_time", "score_time") if k in cv]
            if not any(str(k).startswith("test_") for k in keys):
                raise RankwiseError(f"{where}: no test scores (keys test_score or"
                                    f" test_<scorer>); the keys are {', '.join(map(str, cv))}")
            for key in keys:
                name = str(key)[len("test_"):] if str(key).startswith("test_") else str(key)
                for fold, value in enumerate(_values(cv[key], f"{where}, {key}")):
                    rows.append((str(dataset), str(learner), name, 0, fold, value))
    return pd.DataFrame(rows, columns=COLUMNS)


def configuration_name(params: Mapping) -> str:
    """``"C=1, kernel=rbf"``: a search configuration named from its parameters (sorted)."""
    parts = []
    for key in sorted(params):
        value = params[key]
        if isinstance(value, np.generic):
            value = value.item()
        if isinstance(value, (str, int, float, bool)) or value is None:
            shown = str(value)
        else:  # an estimator or another object: its repr, unless that is only an address
            shown = type(value).__name__ if " at 0x" in repr(value) else repr(value)
        parts.append(f"{key}={shown}")
    return ", ".join(parts) or "default"


def from_search(results: Mapping) -> pd.DataFrame:
    """The long table of ``{dataset: search.cv_results_}``: each configuration a learner, named
    from its parameters (:func:`configuration_name`), each split a fold.

    Parameters
    ----------
    results : mapping
        For each data set, the ``cv_results_`` of a fitted search over the same parameter
        grid; a configuration missing on a data set is a missing cell (``missing=``). A
        successive-halving search (``HalvingGridSearchCV``, ``HalvingRandomSearchCV``: an
        ``iter`` key) contributes each configuration's last, largest-resource evaluation.

    Returns
    -------
    pandas.DataFrame
        Columns ``dataset``, ``learner``, ``criterion``, ``repeat``, ``fold``, ``value``; its
        ``attrs["rankwise_notes"]`` say what was chosen (successive halving), and
        :func:`rankwise.load_table` puts them in the report's input line.

    Examples
    --------
    >>> res = {"params": [{"C": 1}, {"C": 10}], "split0_test_score": [0.8, 0.9],
    ...        "split1_test_score": [0.7, 0.85]}
    >>> from_search({"iris": res})[["learner", "fold", "value"]]
      learner  fold  value
    0     C=1     0   0.80
    1     C=1     1   0.70
    2    C=10     0   0.90
    3    C=10     1   0.85
    """
    if not isinstance(results, Mapping) or not results:
        raise RankwiseError("from_search takes {dataset: search.cv_results_}, a non-empty"
                            " mapping")
    rows, notes = [], []
    for dataset, cv in results.items():
        where = f"from_search: {dataset!r}"
        if not isinstance(cv, Mapping) or "params" not in cv:
            raise RankwiseError(f"{where}: expected a fitted search's cv_results_ (a mapping"
                                " with 'params' and split<i>_test_<scorer> keys)")
        params = cv["params"]
        if not isinstance(params, (list, tuple, np.ndarray)) \
                or not all(isinstance(p, Mapping) for p in params):
            raise RankwiseError(f"{where}: cv_results_['params'] must be a list of parameter"
                                f" dicts, one per configuration; got {repr(params)[:60]}")
        names = [configuration_name(p) for p in params]
        chosen = _last_iteration(cv, names, where, notes)
        seen = {}
        for i in chosen:
            n = names[i]
            if n in seen:
                raise RankwiseError(f"{where}: configurations {seen[n]} and {i} have the same"
                                    f" parameters ({n})")
            seen[n] = i
        splits = sorted(((int(m.group(1)), m.group(2), key) for key in cv
                         if (m := _SPLIT.match(str(key)))), key=lambda t: (t[1], t[0]))
        if not splits:
            raise RankwiseError(f"{where}: no split<i>_test_<scorer> keys in cv_results_")
        for j in chosen:
            for fold, scorer, key in splits:
                values = _values(cv[key], f"{where}, {key}")
                if len(values) != len(names):
                    raise RankwiseError(f"{where}: {key} has {len(values)} values for"
                                        f" {len(names)} configurations")
                rows.append((str(dataset), names[j], scorer, 0, fold, values[j]))
    frame = pd.DataFrame(rows, columns=COLUMNS)
    if notes:
        frame.attrs["rankwise_notes"] = tuple(dict.fromkeys(notes))
    return frame


def _last_iteration(cv, names, where, notes) -> list:
    """The rows of ``cv_results_`` to read: all of them, or for successive halving
    (``HalvingGridSearchCV``, ``HalvingRandomSearchCV``: an ``iter`` key, a configuration once
    per iteration it reached) each configuration's last, largest-resource evaluation."""
    if "iter" not in cv:
        return list(range(len(names)))
    iters = _values(cv["iter"], f"{where}, iter")
    if len(iters) != len(names):
        raise RankwiseError(f"{where}: iter has {len(iters)} values for {len(names)} rows")
    last = {}
    for i, (name, it) in enumerate(zip(names, iters)):
        if name not in last or it >= iters[last[name]]:
            last[name] = i
    chosen = sorted(last.values())
    resources = (_values(cv["n_resources"], f"{where}, n_resources")
                 if "n_resources" in cv else None)
    spread = ""
    if resources is not None:
        used = sorted({float(resources[i]) for i in chosen})
        spread = (f"; they were evaluated with {used[0]:g} to {used[-1]:g} resources, so those"
                  " eliminated early are compared on fewer" if len(used) > 1 else "")
    notes.append(f"Successive halving: each configuration's last (largest-resource)"
                 f" evaluation was read ({len(chosen)} configurations from {len(names)} rows of"
                 f" cv_results_){spread}.")
    return chosen
