"""A results database as a WEKA Experimenter result file (ARFF), for users who analyse in WEKA.

One row per data set, run, fold and learner, with WEKA's key columns (``Key_Dataset``,
``Key_Run``, ``Key_Fold``, ``Key_Scheme``, ``Key_Scheme_options``, ``Key_Scheme_version_ID``)
and ``Number_of_training_instances`` / ``Number_of_testing_instances`` (which WEKA's corrected
t-test reads for n₂/n₁), then every criterion under WEKA's name for it where WEKA has one
(accuracy as ``Percent_correct`` in percent, the fit and predict times as
``Elapsed_Time_training`` and ``_testing``) and under its own name otherwise. Runs and folds count from 1, as in WEKA.

The instance counts are those of the design's folds: each data set is loaded again and split
as the run split it (the folds depend only on the seed, the data set's name and the
repetition). A data set that cannot be loaded here gets missing counts, and the caller is told.
"""

from __future__ import annotations

import io
import re

import numpy as np

from ..errors import RankwiseError

#: rankwise's criteria under WEKA's names, with the factor WEKA's unit needs.
#: (Only where the two mean the same: WEKA's per-class measures, AUC among them, are those of
#: its first class, rankwise's of the positive class or averaged; they keep rankwise's names.)
WEKA_NAMES = {"accuracy": ("Percent_correct", 100.0),
              "fit_time": ("Elapsed_Time_training", 1.0),
              "predict_time": ("Elapsed_Time_testing", 1.0)}


def fold_sizes(design: dict) -> tuple:
    """``({(data set, repeat, fold): (train, test)}, notes)`` from the design's folds."""
    from .datasets import DatasetSpec, load_dataset
    from .tasks import fold_indices

    sizes, notes = {}, []
    for spec in design.get("datasets", []):
        try:
            data = load_dataset(DatasetSpec(**spec))
        except (RankwiseError, OSError, ValueError) as exc:
            notes.append(f"data set {spec.get('name')} could not be loaded here ({exc}); its"
                         " instance counts are written as missing, and WEKA's corrected"
                         " t-test needs them")
            continue
        for repeat in range(int(design["repeats"])):
            splits = fold_indices(data.y, int(design["seed"]), data.name, repeat,
                                  int(design["folds"]))
            for fold, (train, test) in enumerate(splits):
                sizes[(data.name, repeat, fold)] = (len(train), len(test))
    return sizes, notes


def weka_results(table, meta: dict) -> tuple:
    """``(ARFF text, rows, notes)`` of a results database's long table and meta."""
    design = meta.get("design", {})
    if not len(table):
        raise RankwiseError("the results database has no results to export")
    sizes, notes = fold_sizes(design)
    wide = table.pivot_table(index=["dataset", "repeat", "fold", "learner"],
                             columns="criterion", values="value", aggfunc="first",
                             sort=False)
    criteria = [c for c in design.get("criteria", []) if c in wide.columns] + [
        c for c in wide.columns if c not in design.get("criteria", [])]
    measures = {c: WEKA_NAMES.get(c, (_attribute(c), 1.0)) for c in criteria}
    datasets = list(dict.fromkeys(wide.index.get_level_values("dataset")))
    learners = list(dict.fromkeys(wide.index.get_level_values("learner")))
    repeats = sorted({int(r) for r in wide.index.get_level_values("repeat")})
    folds = sorted({int(f) for f in wide.index.get_level_values("fold")})
    columns = {"Key_Dataset": datasets, "Key_Run": [str(r + 1) for r in repeats],
               "Key_Fold": [str(f + 1) for f in folds], "Key_Scheme": learners,
               "Key_Scheme_options": [""], "Key_Scheme_version_ID": ["0"],
               "Date_time": "numeric", "Number_of_training_instances": "numeric",
               "Number_of_testing_instances": "numeric",
               **{name: "numeric" for name, _ in measures.values()}}
    rows = []
    for (dataset, repeat, fold, learner), values in wide.iterrows():
        train, test = sizes.get((dataset, int(repeat), int(fold)), (None, None))
        rows.append([dataset, str(int(repeat) + 1), str(int(fold) + 1), learner, "", "0", None,
                     train, test] + [None if not np.isfinite(values.get(c, np.nan)) else
                                     float(values[c]) * factor
                                     for c, (_, factor) in measures.items()])
    return write_arff("rankwise_results", columns, rows), len(rows), notes


def _attribute(name: str) -> str:
    """A criterion's name as an ARFF attribute (letters, digits and underscores)."""
    return re.sub(r"\W+", "_", str(name)).strip("_") or "value"


def write_arff(relation: str, columns: dict, rows: list) -> str:
    """An ARFF file: ``columns`` maps each attribute to ``"numeric"`` or a list of its nominal
    values; ``rows`` are lists of values (None: missing)."""
    out = io.StringIO()
    out.write(f"@relation {_quoted(relation)}\n\n")
    for name, kind in columns.items():
        kind = kind if isinstance(kind, str) else "{" + ",".join(_quoted(v) for v in kind) + "}"
        out.write(f"@attribute {_quoted(name)} {kind}\n")
    out.write("\n@data\n\n")
    for row in rows:
        out.write(",".join(_cell(v) for v in row) + "\n")
    return out.getvalue()


def _cell(value) -> str:
    if value is None:
        return "?"
    if isinstance(value, str):
        return _quoted(value)
    if float(value).is_integer() and abs(value) < 2 ** 53:
        return str(int(value))
    return repr(float(value))


def _quoted(value) -> str:
    value = str(value)
    if value and all(c.isalnum() or c in "._-" for c in value):
        return value
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"
