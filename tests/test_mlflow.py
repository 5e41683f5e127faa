"""Experiment trackers (issue 67): MLflow's runs read from a tracking store and from its CSV
export as one table, a comparison logged back to MLflow, and a Weights & Biases runs table."""

import builtins
import json
import os
from pathlib import Path

import pandas as pd
import pytest

import rankwise
from rankwise import RankwiseError
from rankwise.tables import registry

mlflow = pytest.importorskip("mlflow")

DATA = Path(__file__).parent / "data" / "sources"
EXPERIMENTS = ("baseline", "rerun", "seeds")
MODELS = {"random_forest": 0.86, "svm": 0.83, "logreg": 0.80, "knn": 0.78}
DATASETS = [f"uci_{i}" for i in range(10)]


@pytest.fixture(autouse=True)
def _elsewhere(tmp_path, monkeypatch):
    """MLflow's defaults (./mlflow.db, ./mlruns) land in the test's folder, never the checkout."""
    monkeypatch.chdir(tmp_path)


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """An SQLite tracking store made by MLflow itself: 3 experiments x 4 models x 10 data sets,
    params model and dataset, metrics accuracy and rmse; and its runs exported as users do,
    ``search_runs(...).to_csv(path)``."""
    from mlflow.entities import Metric, Param

    folder = tmp_path_factory.mktemp("mlflow")
    uri = f"sqlite:///{folder / 'mlflow.db'}"
    client = mlflow.MlflowClient(uri)
    stamp = 1_700_000_000_000
    for e, name in enumerate(EXPERIMENTS):
        eid = client.create_experiment(name, artifact_location=(folder / "art").as_uri())
        for m, (model, base) in enumerate(MODELS.items()):
            for d, dataset in enumerate(DATASETS):
                run = client.create_run(eid, run_name=f"{model}-{dataset}")
                accuracy = base + 0.01 * ((d * 7 + m * 3 + e) % 5) - 0.002 * d
                client.log_batch(run.info.run_id, metrics=[
                    Metric("accuracy", accuracy, stamp, 0),
                    Metric("rmse", 1 - accuracy, stamp, 0)],
                    params=[Param("model", model), Param("dataset", dataset)])
                client.set_terminated(run.info.run_id)
    previous = mlflow.get_tracking_uri()
    mlflow.set_tracking_uri(uri)
    try:
        runs = mlflow.search_runs(search_all_experiments=True)
    finally:
        mlflow.set_tracking_uri(previous)
    runs.to_csv(folder / "runs.csv")                    # pandas' default: with its index
    runs.to_csv(folder / "runs_no_index.csv", index=False)
    return folder, uri


def test_the_store_and_its_csv_export_are_one_table(store):
    folder, uri = store
    tables = [rankwise.load_table(source, criterion="accuracy") for source in (
        folder / "mlflow.db", uri, folder / "runs.csv", folder / "runs_no_index.csv")]
    first = tables[0]
    assert set(first.learners) == set(MODELS) and set(first.datasets) == set(DATASETS)
    assert first.reading.source == "mlflow" and first.reading.columns["repeat"] == "experiment_id"
    assert "3 experiments" in first.reading.sentence()
    for other in tables[1:]:
        assert other.learners == first.learners and other.datasets == first.datasets
        assert (other.values == first.values).all()
    reports = [json.loads(rankwise.compare(t).to_json()) for t in tables]
    for report in reports[1:]:
        different = {k for k in report if report[k] != reports[0][k]}
        assert different <= {"source", "input"}   # the path read, and pandas' index noted
    assert rankwise.load_table(uri, criterion="rmse").higher_is_better is False


def test_detection_of_the_store_and_its_export(store):
    folder, _ = store
    assert registry.which("table", folder / "mlflow.db", by=("content",)) == "mlflow"
    columns = pd.read_csv(folder / "runs_no_index.csv", nrows=0).columns
    assert registry.table_format(columns) == "mlflow"


def test_columns_where_and_duplicates_apply_to_the_runs(store):
    folder, uri = store
    one = rankwise.load_table(uri, criterion="accuracy", where="experiment_id=1")
    assert "repeat" not in one.reading.columns and one.values.shape == (10, 4)
    # the experiment as the learner's level would be a mapping; as duplicates, refused
    with pytest.raises(RankwiseError, match="repeat the same.*--duplicates last"):
        rankwise.load_table(folder / "runs.csv", criterion="accuracy",
                            columns="repeat=tags.mlflow.runName")
    kept = rankwise.load_table(folder / "runs.csv", criterion="accuracy", duplicates="last",
                               columns="repeat=tags.mlflow.runName")
    assert any("--duplicates last" in w for w in kept.warnings)
    named = rankwise.load_table(uri, columns="learner=params.model,dataset=params.dataset",
                                criterion="accuracy", where="experiment_id=2")
    assert (named.values == rankwise.load_table(uri, criterion="accuracy",
                                                where="experiment_id=2").values).all()
    # no param names the model: the run's name does
    runs = pd.read_csv(folder / "runs_no_index.csv").drop(columns="params.model")
    runs["tags.mlflow.runName"] = runs["tags.mlflow.runName"].str.split("-").str[0]
    by_name = rankwise.load_table(runs, criterion="accuracy")
    assert set(by_name.learners) == set(MODELS)
    assert "the run name" in by_name.reading.columns["learner"]
    with pytest.raises(RankwiseError, match="several criteria .*rmse.*--criterion"):
        rankwise.load_table(uri)


def test_compare_reads_a_store_on_the_command_line(store, cli):
    folder, _ = store
    ran = cli("compare", folder / "mlflow.db", "--criterion", "accuracy", "--format", "json")
    assert ran.code == 0, ran.err
    assert json.loads(ran.out)["input"]["source"] == "mlflow"
    ran = cli("compare", folder / "mlflow.db")
    assert ran.code == 2 and "choose one with --criterion" in ran.err


def test_unfinished_runs_are_a_note_not_silent():
    table = rankwise.load_table(DATA / "mlflow_runs.csv", criterion="accuracy")
    assert "1 run(s) did not finish" in table.reading.sentence()
    assert any("svm on spambase (FAILED)" in w for w in table.warnings)


def test_without_mlflow_a_store_says_how_to_install_it_and_the_export_reads(store,
                                                                             monkeypatch):
    folder, uri = store
    real = builtins.__import__

    def no_mlflow(name, *args, **kwargs):
        if name == "mlflow" or name.startswith("mlflow."):
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_mlflow)
    with pytest.raises(RankwiseError, match=r"needs the mlflow package: pip install"
                                            r" 'rankwise\[mlflow\]'"):
        rankwise.load_table(uri, criterion="accuracy")
    with pytest.raises(RankwiseError, match="logging to MLflow needs the mlflow package"):
        rankwise.log_to_mlflow(rankwise.compare(rankwise.load_example("garcia2010")))
    assert rankwise.load_table(folder / "runs.csv", criterion="accuracy").values.shape == (10, 4)


@pytest.mark.figures
def test_a_comparison_logged_back_is_a_run_mlflow_reads(store):
    folder, _ = store
    uri = f"sqlite:///{folder / 'log.db'}"
    client = mlflow.MlflowClient(uri)
    # artifacts in the test's folder (MLflow's default for an SQLite store: ./mlruns)
    client.create_experiment("rankwise", artifact_location=(folder / "logged").as_uri())
    result = rankwise.compare(rankwise.load_example("garcia2010"))
    run_id = rankwise.log_to_mlflow(result, "rankwise", tracking_uri=uri, run_name="garcia")
    run = client.get_run(run_id)
    files = {Path(a.path).name for a in client.list_artifacts(run_id, "report")}
    assert {"report.json", "report.html", "report.txt", "cd_diagram.svg"} <= files
    metrics = run.data.metrics
    assert metrics["pvalue"] == pytest.approx(result.verdict.gate.pvalue)
    assert metrics["mean_rank.PDFC"] == json.loads(result.to_json())["mean_ranks"]["PDFC"]
    assert "mean_rank.IS-CHC_1NN" in metrics            # '+' is no key character of MLflow's
    assert run.data.tags["rankwise.best"] == "PDFC" and run.info.run_name == "garcia"
    assert run.data.params["criterion"] == "accuracy" and run.info.status == "FINISHED"
    board = rankwise.leaderboard(rankwise.load_example("garcia2010"))
    run = client.get_run(rankwise.log_to_mlflow(board, "rankwise", tracking_uri=uri))
    assert "elo.PDFC" in run.data.metrics and "pvalue" in run.data.metrics


def test_a_wandb_export_is_read_with_its_criterion_chosen():
    # The web UI's runs-table export: Name, State, Notes, User, Tags, Created, Runtime, Sweep,
    # then the config and summary keys as plain columns (W&B's documentation of the runs table)
    path = DATA / "wandb_export.csv"
    with pytest.raises(RankwiseError, match=r"several criteria \(batch_size, lr, accuracy,"
                                            r" loss\)"):
        rankwise.load_table(path)
    table = rankwise.load_table(path, criterion="accuracy", missing="drop-datasets")
    assert table.learners == ("resnet18", "vit_tiny", "mlp")
    assert table.reading.columns["learner"] == "model"
    assert any("vit_tiny on stl10 (crashed)" in w for w in table.warnings)


def test_a_wandb_api_frame_is_read_from_its_summary(tmp_path):
    # The frame of W&B's export guide: name, config and summary (dicts) of Api().runs(),
    # saved with to_csv as the guide does
    export = pd.read_csv(DATA / "wandb_export.csv")
    frame = pd.DataFrame({
        "summary": [{"accuracy": a, "loss": b, "_step": 49} for a, b in zip(export.accuracy,
                                                                           export.loss)],
        "config": [{"model": m, "dataset": d, "lr": 0.001} for m, d in zip(export.model,
                                                                          export.dataset)],
        "name": export.Name})
    frame.to_csv(tmp_path / "project.csv")
    with pytest.raises(RankwiseError, match=r"several criteria \(accuracy, loss\)"):
        rankwise.load_table(tmp_path / "project.csv")     # W&B's own _step is no criterion
    from_file = rankwise.load_table(tmp_path / "project.csv", criterion="accuracy",
                                    missing="drop-datasets")
    assert from_file.reading.columns["learner"] == "config.model"
    in_memory = rankwise.load_table(frame, criterion="summary.accuracy", missing="drop-datasets")
    assert (from_file.values == in_memory.values).all()


@pytest.mark.figures
def test_report_mlflow_logs_the_run_from_the_command_line(store, cli, monkeypatch):
    """``--report mlflow:NAME`` logs the run where MLFLOW_TRACKING_URI says; a failure to log
    leaves no -o file behind."""
    folder, _ = store
    uri = f"sqlite:///{folder / 'cli.db'}"
    client = mlflow.MlflowClient(uri)
    client.create_experiment("from-cli", artifact_location=(folder / "cli-art").as_uri())
    monkeypatch.setenv("MLFLOW_TRACKING_URI", uri)
    out = folder / "cli-report.txt"
    ran = cli("compare", "--example", "garcia2010", "--report", "mlflow:from-cli", "-o", out)
    assert ran.code == 0, ran.err
    run_id = ran.err.split("as run ")[1].split()[0]
    run = client.get_run(run_id)
    assert run.data.tags["rankwise.best"] == "PDFC" and out.is_file()
    assert {"report.json", "report.html"} <= {
        Path(a.path).name for a in client.list_artifacts(run_id, "report")}
    assert not (folder / "mlflow:from-cli").exists()      # no folder of that name
    monkeypatch.setattr("rankwise.report.tracking.log_to_mlflow", _refuse)
    out.unlink()
    ran = cli("compare", "--example", "garcia2010", "--report", "mlflow:from-cli", "-o", out)
    assert ran.code == 2 and "cannot log" in ran.err and not out.exists()


def _refuse(*args, **kwargs):
    raise RankwiseError("cannot log: the tracking server refused")


@pytest.mark.figures
def test_inside_an_active_run_the_analysis_is_its_child(store, monkeypatch):
    folder, _ = store
    uri = f"sqlite:///{folder / 'nested.db'}"
    mlflow.set_tracking_uri(uri)
    client = mlflow.MlflowClient(uri)
    experiment = client.create_experiment("nested", artifact_location=(folder / "nested-art")
                                          .as_uri())
    try:
        with mlflow.start_run(experiment_id=experiment) as parent:
            child = rankwise.log_to_mlflow(rankwise.compare(rankwise.load_example("garcia2008")))
    finally:
        mlflow.set_tracking_uri(None)
    run = client.get_run(child)
    assert run.data.tags["mlflow.parentRunId"] == parent.info.run_id
    assert run.info.experiment_id == experiment and run.info.status == "FINISHED"


def test_an_old_mlruns_folder_is_read_as_its_sqlite_store_would_be(tmp_path, monkeypatch):
    """MLflow 3 opens a folder store only when asked (MLFLOW_ALLOW_FILE_STORE); reading an old
    mlruns/ asks for the read alone and leaves the setting as it was."""
    monkeypatch.setenv("MLFLOW_ALLOW_FILE_STORE", "true")
    uri = (tmp_path / "mlruns").as_uri()
    client = mlflow.MlflowClient(uri)
    experiment = client.create_experiment("old")
    for model, shift in (("ridge", 0.0), ("forest", 0.1)):
        for d in range(4):
            run = client.create_run(experiment)
            client.log_param(run.info.run_id, "model", model)
            client.log_param(run.info.run_id, "dataset", f"d{d}")
            client.log_metric(run.info.run_id, "accuracy", 0.6 + shift + 0.01 * d)
            client.set_terminated(run.info.run_id)
    monkeypatch.delenv("MLFLOW_ALLOW_FILE_STORE")
    table = rankwise.load_table(tmp_path / "mlruns", criterion="accuracy")
    assert set(table.learners) == {"ridge", "forest"} and table.values.shape == (4, 2)
    assert "MLFLOW_ALLOW_FILE_STORE" not in os.environ
