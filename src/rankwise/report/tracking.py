"""An analysis logged to an MLflow tracking server as one run: its report folder as the run's
artifacts, its headline numbers as metrics, its options as params.

Any analysis result (:class:`rankwise.protocol.Analysis`) is logged the same way, through what
every result has: its report folder (:meth:`~rankwise.protocol.Analysis.write_report`) and the
JSON contract in it (``report.json``), whose numbers are found by their keys, not by the
result's class.
"""

from __future__ import annotations

import json
import logging
import os
import re
import tempfile
from pathlib import Path

from .._text import brief
from ..errors import RankwiseError
from ..names import TESTS

#: Tests whose p-value is a headline: the omnibus tests (not the pairs of a post-hoc family).
OMNIBUS = frozenset(n for n, t in TESTS.items() if t.kind != "two_learners")
#: A board's per-learner columns logged as metrics, and their metric names.
BOARD_COLUMNS = {"rank": "mean_rank", "elo": "elo", "winrate": "winrate"}
#: MLflow's keys allow letters, digits, ``_ - . / :`` and spaces; anything else becomes ``_``.
KEY_UNSAFE = re.compile(r"[^\w\-./: ]", re.ASCII)
#: What MLflow takes in one batch, and the longest param value every version stores.
MAX_METRICS, MAX_PARAMS, MAX_VALUE = 1000, 100, 500


def log_to_mlflow(result, experiment: str | None = None, *, tracking_uri: str | None = None,
                  run_name: str | None = None, figure_width=None) -> str:
    """Log an analysis to MLflow as one run; return the run's id.

    The run's artifacts are the result's report folder (under ``report/``: every format and
    figure, as ``--report DIR`` writes them), its metrics the headline numbers of the JSON
    report (each omnibus test's p-value as ``pvalue.TEST``, the verdict's gate as ``pvalue``,
    each learner's mean rank as ``mean_rank.LEARNER``, a board's Elo and win rate), its params
    the analysis's settings and options, and its tags the kind of analysis and the best
    learner (``rankwise.best``). Names are fitted to the characters MLflow allows (others
    become ``_``); ``report/report.json`` keeps them as they are.

    Parameters
    ----------
    result : an analysis result
        What :func:`rankwise.compare`, :func:`rankwise.leaderboard` and the other analyses
        return.
    experiment : str, optional
        The MLflow experiment's name, created when it does not exist; default:
        ``MLFLOW_EXPERIMENT_NAME``, else MLflow's ``Default`` experiment.
    tracking_uri : str, optional
        Where to log (``sqlite:///mlflow.db``, ``http://host:5000``); default: MLflow's own
        (``MLFLOW_TRACKING_URI``).
    run_name : str, optional
        The run's name; default: ``rankwise KIND``. Inside ``with mlflow.start_run():``
        (and no ``tracking_uri``) the run is a child of the active run, in its experiment
        unless ``experiment`` names another.
    figure_width : float or str, optional
        The figures' width, as ``--figure-width`` takes it.

    Examples
    --------
    >>> import tempfile, pathlib, rankwise
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> result = rankwise.compare(rankwise.load_example("garcia2010"))
    >>> run_id = rankwise.log_to_mlflow(  # doctest: +SKIP
    ...     result, "benchmarks", tracking_uri=f"sqlite:///{folder / 'mlflow.db'}")
    >>> headline(json.loads(result.to_json()))[0]["mean_rank.PDFC"]
    1.7708333333333333
    """
    mlflow = _mlflow()
    # MLflow's own INFO lines (a new store's tables created) are not the user's business here
    quiet, level = logging.getLogger("mlflow"), logging.getLogger("mlflow").level
    quiet.setLevel(max(level, logging.WARNING))
    try:
        return _log(mlflow, result, experiment, tracking_uri, run_name, figure_width)
    finally:
        quiet.setLevel(level)


def _log(mlflow, result, experiment, tracking_uri, run_name, figure_width) -> str:
    from mlflow.entities import Metric, Param

    client = mlflow.MlflowClient(tracking_uri)
    with tempfile.TemporaryDirectory() as folder:
        result.write_report(folder, figure_width=figure_width)
        data = json.loads(Path(folder, "report.json").read_text(encoding="utf-8"))
        metrics, tags = headline(data)
        params = settings(data)
        tags = {"rankwise.kind": str(getattr(result, "kind", "")), **tags}
        # inside ``with mlflow.start_run():`` the analysis is a child run of that run, in its
        # experiment unless another is named, as MLflow's own autologging nests its runs
        active = mlflow.active_run() if tracking_uri is None else None
        if active is not None:
            tags["mlflow.parentRunId"] = active.info.run_id
        run = None
        try:
            run = client.create_run(active.info.experiment_id if active is not None and
                                    experiment is None else _experiment_id(client, experiment),
                                    run_name=run_name or f"rankwise {result.kind}", tags=tags)
            run_id = run.info.run_id
            stamp = run.info.start_time
            items = [Metric(k, v, stamp, 0) for k, v in metrics.items()]
            for i in range(0, len(items), MAX_METRICS):
                client.log_batch(run_id, metrics=items[i:i + MAX_METRICS])
            items = [Param(k, v) for k, v in params.items()]
            for i in range(0, len(items), MAX_PARAMS):
                client.log_batch(run_id, params=items[i:i + MAX_PARAMS])
            client.log_artifacts(run_id, folder, artifact_path="report")
            if "rankwise.verdict" in tags:   # MLflow shows it as the run's description
                client.set_tag(run_id, "mlflow.note.content", tags["rankwise.verdict"])
            client.set_terminated(run_id, "FINISHED")
        except Exception as exc:  # noqa: BLE001 - MLflow's own errors, in one line
            if run is not None:
                client.set_terminated(run.info.run_id, "FAILED")
            raise RankwiseError(f"logging to MLflow failed ({brief(exc)}); check the tracking"
                                " URI and that the store is writable") from None
    return run_id


def _mlflow():
    try:
        import mlflow
    except ImportError:
        raise RankwiseError("logging to MLflow needs the mlflow package: pip install"
                            " 'rankwise[mlflow]'") from None
    return mlflow


def _experiment_id(client, name):
    """The experiment's id, created when missing; no name: ``MLFLOW_EXPERIMENT_NAME``, else
    MLflow's default experiment (of the store logged to, not of the global tracking URI)."""
    name = name or os.environ.get("MLFLOW_EXPERIMENT_NAME") or "Default"
    found = client.get_experiment_by_name(name)
    return found.experiment_id if found is not None else client.create_experiment(name)


def key(name) -> str:
    """``name`` in the characters MLflow allows in a key.

    Examples
    --------
    >>> key("mean_rank.IS-CHC+1NN")
    'mean_rank.IS-CHC_1NN'
    """
    return KEY_UNSAFE.sub("_", str(name))


def _nodes(data, path=()):
    """Every dict and list of the JSON with the keys that lead to it, in document order."""
    yield path, data
    children = data.items() if isinstance(data, dict) else (
        enumerate(data) if isinstance(data, list) else ())
    for k, child in children:
        if isinstance(child, (dict, list)):
            yield from _nodes(child, path + (str(k),))


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value == value


def headline(data: dict) -> tuple:
    """``(metrics, tags)`` of a JSON report: the p-value of each omnibus test (and of the
    verdict's gate), each learner's mean rank (or a board's rank, Elo and win rate), and the
    best learner and the verdict as tags; found by their keys in any analysis's JSON."""
    metrics, tags, per_learner = {}, {}, {}
    for path, node in _nodes(data):
        if isinstance(node, dict):
            test = node.get("test")
            if test in OMNIBUS and _number(node.get("pvalue")):
                metrics.setdefault(f"pvalue.{test}", node["pvalue"])
                if path and path[-1] == "gate":
                    metrics.setdefault("pvalue", node["pvalue"])
            if path and path[-1] == "mean_ranks" and node and all(
                    _number(v) for v in node.values()):
                for learner, value in node.items():
                    per_learner.setdefault(("mean_rank", learner), value)
            if "verdict" in path[-1:] and isinstance(node.get("best"), str):
                tags.setdefault("rankwise.best", node["best"])
                if isinstance(node.get("text"), str):
                    tags.setdefault("rankwise.verdict", node["text"])
        elif node and all(isinstance(r, dict) and "learner" in r for r in node):
            for row in node:   # a board: one row per learner
                for column, name in BOARD_COLUMNS.items():
                    if _number(row.get(column)):
                        per_learner.setdefault((name, row["learner"]), row[column])
            if "rankwise.best" not in tags:
                tags["rankwise.best"] = str(node[0]["learner"])
    if "pvalue" not in metrics and metrics:
        metrics["pvalue"] = next(iter(metrics.values()))
    for (name, learner), value in per_learner.items():
        metrics.setdefault(key(f"{name}.{learner}"), float(value))
    return {key(k): float(v) for k, v in metrics.items()}, {
        k: v[:MAX_VALUE * 10] for k, v in tags.items()}


def settings(data: dict) -> dict:
    """The params of a JSON report: its ``settings`` (nested keys joined by dots) and its
    other top-level values that are not lists or tables (criterion, alpha, source...)."""
    out = {}

    def flat(node, prefix):
        for k, v in node.items():
            if isinstance(v, dict):
                flat(v, f"{prefix}{k}.")
            elif not isinstance(v, list):
                out[key(prefix + str(k))] = str(v)[:MAX_VALUE]

    flat(data.get("settings") or {}, "")
    flat({k: v for k, v in data.items() if k != "settings" and not isinstance(v, dict)}, "")
    return out
