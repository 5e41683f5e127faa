"""Files written by the tools themselves (tests/data/real, each folder's README.md says which
version and command wrote them): each is read as its tool means it, or refused in one line that
says why and what to do."""

import json
import re
import shutil
from pathlib import Path

import numpy as np
import pytest

from rankwise.errors import RankwiseError
from rankwise.tables.items import read_items

REAL = Path(__file__).parent / "data" / "real"


# --- SWE-bench ------------------------------------------------------------------------------

SWE_REPORT = REAL / "swe_bench" / "acme__coder-7b.lite-run2.json"


def test_a_swe_bench_run_report_counts_instances_not_docker_images():
    """The harness's report of a run with a Docker client lists the images it left and the
    containers it did not stop: they are not instances."""
    report = json.loads(SWE_REPORT.read_text())
    assert report["unremoved_images"] and report["unstopped_containers"]
    t = read_items(SWE_REPORT)
    assert t.models == ("acme/coder-7b",)
    assert len(t.frame) == report["total_instances"]
    assert set(t.frame["item"]) == set(report["submitted_ids"] + report["incomplete_ids"])
    assert t.frame["score"].mean() == pytest.approx(
        report["resolved_instances"] / report["total_instances"])


@pytest.mark.parametrize("value, said", [("django__django-11099", "a string"),
                                         (5, "a number (5)")])
def test_a_swe_bench_report_whose_ids_are_not_a_list_gets_one_line(tmp_path, value, said):
    report = json.loads(SWE_REPORT.read_text())
    report["resolved_ids"] = value
    path = tmp_path / "acme__coder-7b.lite-run2.json"
    path.write_text(json.dumps(report))
    with pytest.raises(RankwiseError, match=f"'resolved_ids' is {re.escape(said)}.*not a list"
                                            " of instance ids") as caught:
        read_items(path)
    assert "\n" not in str(caught.value)


# --- Optuna ---------------------------------------------------------------------------------

OPTUNA = REAL / "optuna"


def _optuna_both():
    from rankwise.tables.curves import read_curves

    return (read_curves(OPTUNA / "studies.db"),
            read_curves(OPTUNA / "trials.csv", higher_is_better=False))


def test_optuna_pruned_and_failed_trials_are_counted_on_both_paths():
    import pandas as pd

    rows = pd.read_csv(OPTUNA / "trials.csv")
    assert rows.state.value_counts().to_dict() == {"COMPLETE": 28, "PRUNED": 8, "FAIL": 4}
    for curves in _optuna_both():
        assert any(n.startswith("12 trials not complete (8 pruned, 4 failed) are not logged"
                                " points") for n in curves.notes), curves.notes
    storage, frame = _optuna_both()
    order = [frame.learners.index(name) for name in storage.learners]
    assert storage.values.tolist() == frame.values[order].tolist()


def test_an_infinite_value_optuna_stored_is_counted_and_placed():
    for curves, where in zip(_optuna_both(), ("study tpe/quadratic/1 trial 7",
                                              "tpe/quadratic/1 trial 7")):
        assert any(n.startswith(f"1 trial value stored as infinite (1 as +inf: {where}) is"
                                " not a logged point") for n in curves.notes), curves.notes


# --- IOHprofiler ----------------------------------------------------------------------------

IOH_MO = REAL / "ioh"


def test_multi_objective_ioh_data_is_refused_naming_the_objectives():
    from rankwise.tables.curves import read_curves

    meta = json.loads(next(IOH_MO.rglob("IOHprofiler_*.json")).read_text())
    assert meta["attributes"] == ["evaluations", "raw_y", "F2"]
    with pytest.raises(RankwiseError, match=r"2 objectives \(raw_y, F2.*choose one with"
                                            r" --criterion raw_y \(or F2\)") as caught:
        read_curves(IOH_MO)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("objective, column", [("raw_y", 1), ("F2", 2)])
def test_an_objective_chosen_of_multi_objective_ioh_data_is_read_and_said(objective, column):
    from rankwise.tables.curves import read_curves

    curves = read_curves(IOH_MO, criterion=objective)
    assert f"IOHprofiler: the value is {objective}, one of the objectives raw_y, F2" in \
        curves.notes
    dat = IOH_MO / "RS" / "data_f1121_pymoo_ZDT1" / "IOHprofiler_f1121_DIM5.dat"
    runs = dat.read_text().split("evaluations")[1:]
    first = [float(line.split()[column]) for line in runs[0].splitlines()[1:] if line.strip()]
    l, p = curves.learners.index("RS"), curves.problems.index("pymoo_ZDT1-5D")
    assert curves.values[l, p, 0, -1] == pytest.approx(min(first))   # its running best


# --- inspect_ai -----------------------------------------------------------------------------

INSPECT = REAL / "inspect"
QUIZ = next(INSPECT.glob("*_quiz_*.eval"))
QUIZ_JSON = next(INSPECT.glob("*_quiz_*.json"))


def _mock_scores(wrong_every, ids):
    """What the mock model scored (run.py): right on every question but multiples of n."""
    return [float(i % wrong_every != 0) for i in ids]


def test_an_inspect_eval_log_compressed_with_zstandard_is_read():
    import zipfile

    with zipfile.ZipFile(QUIZ) as z:
        assert {i.compress_type for i in z.infolist()} == {93}   # inspect_ai's default
    t = read_items(QUIZ)
    assert t.reader == "inspect" and t.models == ("mockllm/model",) and t.tasks == ("quiz",)
    ids = [int(i) for i in t.frame["item"]]
    assert sorted(ids) == list(range(1, 11))
    assert t.frame["score"].tolist() == _mock_scores(3, ids)
    by_topic = read_items(QUIZ, cluster="topic").frame
    assert by_topic["cluster"].astype(str).tolist() == ["even" if i % 2 == 0 else "odd"
                                                       for i in ids]


def test_without_zstandard_an_eval_log_gets_one_line_naming_the_package(monkeypatch):
    import sys

    if sys.version_info >= (3, 14):
        pytest.skip("Python 3.14's zipfile reads Zstandard itself")
    monkeypatch.setitem(sys.modules, "zstandard", None)
    with pytest.raises(RankwiseError, match="Zstandard.*pip install zstandard") as caught:
        read_items(QUIZ)
    assert "\n" not in str(caught.value)


def test_a_single_inspect_json_log_is_detected_by_its_content(cli):
    from rankwise.tables.items import is_item_file

    assert is_item_file(QUIZ_JSON)
    t = read_items(QUIZ_JSON)
    assert t.reader == "inspect" and len(t.frame) == 4
    ran = cli("compare", QUIZ_JSON)
    assert ran.code != 0 and "reads tables as CSV" not in ran.err
    assert "one model (mockllm/model)" in ran.err     # read as items: one model cannot compare


FLAKY = sorted(INSPECT.glob("*_quiz-flaky_*.eval"))   # mockllm/model (sample 7 errored), other


def test_an_errored_inspect_sample_is_refused_in_one_line_that_says_what_to_do():
    with pytest.raises(RankwiseError, match=r"1 of 10 samples errored and has no score \(sample"
                                            r" 7: RuntimeError.*give --missing common") as caught:
        read_items(FLAKY[0])
    assert "\n" not in str(caught.value)


def test_errored_inspect_samples_are_left_out_and_counted_under_missing_common(cli, tmp_path):
    t = read_items(FLAKY, missing="common")
    assert any("mockllm/model on quiz_flaky: 1 of 10 samples errored and is left out (sample 7"
               in n for n in t.notes), t.notes
    mine = t.frame[t.frame.model == "mockllm/model"]
    assert sorted(int(i) for i in mine["item"]) == [1, 2, 3, 4, 5, 6, 8, 9, 10]
    task = t.task_matrix("quiz_flaky")
    assert len(task.items) == 9 and task.dropped == 1       # every model on the same 9 items
    # the command line: the default says what to do; --missing common compares the 9 items
    for log in FLAKY:
        shutil.copy(log, tmp_path)
    refused = cli("compare", tmp_path)
    assert refused.code != 0 and "give --missing common" in refused.err
    assert len(refused.err.strip().splitlines()) == 1
    ran = cli("compare", tmp_path, "--missing", "common", "-f", "json")
    assert ran.code == 0, ran.err
    assert any("samples errored" in n for n in json.loads(ran.out)["notes"])


def _json_logs(tmp_path, change):
    """The JSON quiz log as two models' logs in ``tmp_path``; ``change(samples)`` alters
    mockllm/model's samples."""
    log = json.loads(QUIZ_JSON.read_text())
    for model in ("mockllm/model", "mockllm/other"):
        log["eval"]["model"] = model
        samples = [dict(s) for s in log["samples"]]
        if model == "mockllm/model":
            change(samples)
        (tmp_path / f"{model.split('/')[1]}.json").write_text(
            json.dumps({**log, "samples": samples}))
    return tmp_path


def _unscored_third(samples):
    samples[2]["scores"] = None          # never scored (inspect eval --no-score), no error


def test_an_unscored_inspect_sample_says_what_to_do_and_missing_common_leaves_it_out(cli,
                                                                                   tmp_path):
    logs = _json_logs(tmp_path, _unscored_third)
    refused = cli("compare", logs)
    assert refused.code == 2 and len(refused.err.strip().splitlines()) == 1
    assert re.search(r"1 of 4 samples has no score \(sample 3; log status 'success'\);"
                     r" give --missing common .*inspect score", refused.err), refused.err
    ran = cli("compare", logs, "--missing", "common")
    assert ran.code == 0, ran.err
    said = " ".join(ran.out.split())
    assert ("mockllm/model on quiz: 1 of 4 samples has no score and is left out (sample 3;"
            " --missing common)" in said), said
    assert "3 items; 1 item left out (not answered by every model)" in said


def test_an_inspect_json_log_with_an_errored_sample_works_under_missing_common(cli, tmp_path):
    def errored_third(samples):
        samples[2]["scores"] = None
        samples[2]["error"] = {"message": "RuntimeError('boom')", "traceback": ""}

    logs = _json_logs(tmp_path, errored_third)
    refused = cli("compare", logs)
    assert refused.code == 2 and "errored" in refused.err and "--missing common" in refused.err
    ran = cli("compare", logs, "--missing", "common", "-f", "json")
    assert ran.code == 0, ran.err
    assert any("1 of 4 samples errored and is left out" in n
               for n in json.loads(ran.out)["notes"])


def test_an_inspect_log_none_of_whose_samples_is_scored_says_to_score_it(cli, tmp_path):
    def none_scored(samples):
        for s in samples:
            s["scores"] = {}

    logs = _json_logs(tmp_path, none_scored)
    for missing in ("refuse", "common"):       # leaving every sample out leaves nothing
        ran = cli("compare", logs, "--missing", missing)
        assert ran.code == 2 and "none of its 4 samples has a score" in ran.err
        assert "inspect score" in ran.err


# --- lm-evaluation-harness ------------------------------------------------------------------

LM_EVAL = REAL / "lm_eval"
#: acme/tiny-lm's second run of the task cloze (a rerun into the same model folder).
RERUN = "2026-12-06T18-20-46.860460"


def _lm_eval_runs(tmp_path, *tasks):
    """The two models' folders of the first runs (without the rerun), with these tasks."""
    for model in ("acme__other-lm", "acme__tiny-lm"):
        (tmp_path / model).mkdir()
        for path in (LM_EVAL / model).glob("samples_*.jsonl"):
            if RERUN not in path.name and any(path.name.startswith(f"samples_{t}_")
                                              for t in tasks):
                shutil.copy(path, tmp_path / model)
    return tmp_path


def _lines(path):
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_lm_eval_perplexity_is_never_averaged_as_an_item_score(tmp_path):
    """lambada's layout: each document's 'perplexity' is its log-likelihood, and lm-eval's
    perplexity the exp of minus their mean; the task is read on its per-item acc."""
    folder = _lm_eval_runs(tmp_path, "cloze", "quiz_mc")
    samples = next((folder / "acme__tiny-lm").glob("samples_cloze_*.jsonl"))
    results = json.loads(next((LM_EVAL / "acme__tiny-lm").glob("results_*18-19-38*")).read_text())
    ll = [r["perplexity"] for r in _lines(samples)]
    assert np.exp(-np.mean(ll)) == pytest.approx(results["results"]["cloze"]["perplexity,none"])
    t = read_items(folder)
    assert t.metric == "acc" and set(t.tasks) == {"cloze", "quiz_mc"}
    table = t.task_table()
    row, col = table.datasets.index("cloze"), table.learners.index("acme__tiny-lm")
    assert table.values[row, col] == pytest.approx(np.mean([r["acc"] for r in _lines(samples)]))
    assert any("'acc' taken of perplexity, acc" in n and "corpus-level" in n for n in t.notes)
    with pytest.raises(RankwiseError, match="'perplexity' is a corpus-level metric of task"
                                            " 'cloze'.*choose a per-item one") as caught:
        read_items(folder, metric="perplexity")
    assert "\n" not in str(caught.value)


def test_lm_eval_tasks_of_corpus_level_metrics_alone_are_left_out_with_a_note(tmp_path, cli):
    """wikitext's layout (loglikelihood_rolling): word_perplexity, byte_perplexity and
    bits_per_byte, each a (log-likelihood, length) pair per document."""
    folder = _lm_eval_runs(tmp_path, "cloze", "pages", "quiz_mc")
    t = read_items(folder)
    assert set(t.tasks) == {"cloze", "quiz_mc"}
    assert any(n.startswith("lm-eval: left out pages: only corpus-level metrics (pages:"
                            " word_perplexity, byte_perplexity, bits_per_byte)") for n in t.notes)
    ran = cli("compare", folder, "-f", "json")
    assert ran.code == 0, ran.err
    assert any("left out pages" in n for n in json.loads(ran.out)["notes"])
    (tmp_path / "only").mkdir()
    only = _lm_eval_runs(tmp_path / "only", "pages")
    with pytest.raises(RankwiseError, match=r"every task has only corpus-level metrics \(pages:"
                       ) as caught:
        read_items(only)
    assert "\n" not in str(caught.value)


def test_an_lm_eval_rerun_names_the_files_that_clash_and_what_to_do(cli):
    with pytest.raises(RankwiseError, match=r"acme__tiny-lm: task 'cloze' was run 2 times.*"
                                            r"samples_cloze_2026-12-06T18-19-38.909250.jsonl,"
                                            r" samples_cloze_2026-12-06T18-20-46.860460.jsonl.*"
                                            r"--duplicates last.*or move") as caught:
        read_items(LM_EVAL)
    assert "\n" not in str(caught.value) and "'repeat' column" not in str(caught.value)
    newest, oldest = (read_items(LM_EVAL, duplicates=d) for d in ("last", "first"))
    for table, stamp in ((newest, RERUN), (oldest, "2026-12-06T18-19-38.909250")):
        samples = LM_EVAL / "acme__tiny-lm" / f"samples_cloze_{stamp}.jsonl"
        part = table.frame[(table.frame.model == "acme__tiny-lm") & (table.frame.task == "cloze")]
        assert part["score"].tolist() == [float(r["acc"]) for r in _lines(samples)]
        assert any(f"{samples.name}, is read" in n for n in table.notes), table.notes
    refused = cli("compare", LM_EVAL)
    assert refused.code != 0 and "--duplicates last" in refused.err
    ran = cli("compare", LM_EVAL, "--duplicates", "last", "-f", "json")
    assert ran.code == 0, ran.err


# --- WEKA -----------------------------------------------------------------------------------

def test_two_weka_data_sets_sharing_a_relation_name_get_advice_that_keeps_both(tmp_path):
    """WEKA's Experimenter names each data set by its ARFF @relation: the result file of
    tests/data/weka with its Glass rows named iris, as two data sets that share the relation
    name 'iris' give them."""
    from rankwise.tables import load_table

    text = (Path(__file__).parent / "data" / "weka" / "weka_5x2.arff").read_text()
    head, rows = text.split("@data", 1)
    clash = tmp_path / "clash.arff"
    clash.write_text(head + "@data" + rows.replace("\nGlass,", "\niris,"))
    with pytest.raises(RankwiseError, match=r"'iris' names two data sets \(rows \d+ and \d+"
                                            r" repeat a scheme, run and fold\): WEKA names a"
                                            r" data set by its ARFF @relation") as caught:
        load_table(clash)
    message = str(caught.value)
    assert "\n" not in message and "give each its own @relation" in message
    assert "keep the last or the first of each" not in message     # that would drop one
    # an explicit --duplicates is the user's choice, as for every table
    assert load_table(clash, duplicates="last").datasets == ("iris", "breast-cancer")
    # the advice, followed: one data set's rows renamed, both are read
    renamed = tmp_path / "renamed.arff"
    renamed.write_text(head + "@data" + rows.replace("\nGlass,", "\niris2,"))
    assert len(load_table(renamed).datasets) == 3
