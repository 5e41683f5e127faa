"""The item readers on files the evaluation tools wrote (tests/data/items/README.md), with the
expected numbers recomputed from the raw files; bad files get one line."""

import json
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import rankwise
from rankwise.errors import RankwiseError
from rankwise.stats.items import clustered_se
from rankwise.tables.items import is_item_file, read_items

DATA = Path(__file__).parent / "data" / "items"


def _records(path):
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_lm_eval_samples_each_document_once_under_the_first_filter():
    t = read_items(DATA / "lm_eval")
    assert t.reader == "lm-eval"
    assert t.models == ("model-a", "model-b")
    assert set(t.tasks) == {"quiz_gen", "quiz_mc"}
    gen = t.frame[(t.frame.task == "quiz_gen") & (t.frame.model == "model-a")]
    assert len(gen) == 12          # 24 records: 12 documents x 2 filters
    assert any("strict-match" in n and "flexible-extract" in n for n in t.notes)
    # the mean of acc per model on quiz_mc, recomputed from the raw records
    for model in ("model-a", "model-b"):
        raw = _records(next((DATA / "lm_eval" / model).glob("samples_quiz_mc_*.jsonl")))
        table = t.task_table()
        row = table.datasets.index("quiz_mc")
        col = table.learners.index(model)
        assert table.values[row, col] == pytest.approx(np.mean([r["acc"] for r in raw]))
    assert any("'acc' taken of acc, acc_norm" in n for n in t.notes)


def test_lm_eval_metric_filter_and_cluster_explicit():
    t = read_items(DATA / "lm_eval", metric="acc_norm,exact_match", reader="lm-eval",
                   cluster="topic")
    assert t.metric == "exact_match,acc_norm"
    raw = _records(next((DATA / "lm_eval" / "model-b").glob("samples_quiz_mc_*.jsonl")))
    mc = t.frame[(t.frame.task == "quiz_mc") & (t.frame.model == "model-b")]
    assert mc["score"].tolist() == [r["acc_norm"] for r in raw]
    assert mc["cluster"].tolist() == [r["doc"]["topic"] for r in raw]
    g = read_items(DATA / "lm_eval", metric="acc,exact_match", filter="flexible-extract")
    assert any("under filter 'flexible-extract'" in n for n in g.notes)
    raw = [r for r in _records(next((DATA / "lm_eval" / "model-a").glob("samples_quiz_gen*")))
           if r["filter"] == "flexible-extract"]
    gen = g.frame[(g.frame.task == "quiz_gen") & (g.frame.model == "model-a")]
    assert gen["score"].tolist() == [r["exact_match"] for r in raw]
    with pytest.raises(RankwiseError, match="no record under filter 'other'"):
        read_items(DATA / "lm_eval", metric="acc,exact_match", filter="other")
    with pytest.raises(RankwiseError, match="no metric 'nope'"):
        read_items(DATA / "lm_eval", metric="nope")


def test_inspect_eval_log_equals_the_metrics_inspect_wrote():
    path = next((DATA / "inspect").glob("*mj7khqpMM4GBCfVQozKgzB.eval"))
    t = read_items(path)
    assert t.reader == "inspect" and t.models == ("openai/gpt-4o-mini",)
    with zipfile.ZipFile(path) as z:
        header = json.loads(z.read("header.json"))
    metrics = header["results"]["scores"][0]["metrics"]
    scores = t.frame["score"].to_numpy()
    assert scores.mean() == pytest.approx(metrics["accuracy"]["value"])
    assert clustered_se(scores) == pytest.approx(metrics["stderr"]["value"])
    assert read_items(path, reader="inspect").frame.equals(t.frame)


def test_inspect_json_log_and_an_unscored_one():
    path = next((DATA / "inspect").glob("*popularity.json"))
    t = read_items(path)
    data = json.loads(path.read_text())
    assert len(t.frame) == len(data["samples"]) == 3
    assert t.frame["score"].mean() == pytest.approx(
        data["results"]["scores"][0]["metrics"]["accuracy"]["value"])
    unscored = next((DATA / "inspect").glob("*dPiJifoWeEQBrfWsAopzWr.eval"))
    with pytest.raises(RankwiseError, match=r"none of its 10 samples has a score .*inspect score"):
        read_items(unscored)
    with pytest.raises(RankwiseError, match="none of its 10 samples"):     # nothing to keep
        read_items(unscored, missing="common")


def test_swe_bench_run_reports():
    t = read_items(DATA / "swe_bench")
    assert t.reader == "swe-bench" and t.models == ("agent-a", "agent-b")
    for model in t.models:
        report = json.loads((DATA / "swe_bench" / f"{model}.run1.json").read_text())
        part = t.frame[t.frame.model == model]
        assert len(part) == report["total_instances"]
        assert part["score"].sum() == report["resolved_instances"]
        assert set(part.loc[part.score == 1, "item"]) == set(report["resolved_ids"])
    assert any("agent-a: 7 resolved, 5 named but not resolved" in n for n in t.notes)
    r = rankwise.compare_items(t, across=False)
    assert r.tasks[0].pairs.test == "mcnemar"


def test_swe_bench_absent_instances_are_missing_not_unresolved(tmp_path):
    a = json.loads((DATA / "swe_bench" / "agent-a.run1.json").read_text())
    b = json.loads((DATA / "swe_bench" / "agent-b.run1.json").read_text())
    gone = b["unresolved_ids"][:2]
    for key in list(b):
        if isinstance(b[key], list):
            b[key] = [i for i in b[key] if i not in gone]
    (tmp_path / "agent-a.run1.json").write_text(json.dumps(a))
    (tmp_path / "agent-b.run1.json").write_text(json.dumps(b))
    with pytest.raises(RankwiseError, match="agent-b.*no score for 2 item"):
        rankwise.compare_items(read_items(tmp_path))
    t = read_items(tmp_path, missing="common")
    assert any("absent from its run: missing, not unresolved" in n for n in t.notes)
    r = rankwise.compare_items(t, across=False)
    assert r.tasks[0].n_items == 10 and r.tasks[0].dropped == 2


def test_long_table_csv_parquet_and_frame_agree(tmp_path):
    t = rankwise.load_items_example("evals")
    t.frame.to_parquet(tmp_path / "items.parquet")
    t.frame.to_csv(tmp_path / "items.csv", index=False)
    for path in (tmp_path / "items.parquet", tmp_path / "items.csv"):
        assert is_item_file(path)
        other = read_items(path)
        assert np.allclose(other.task_table().values, t.task_table().values)
    assert not is_item_file(Path(rankwise.__file__).parent / "examples" /
                            "garcia2008_table2_accuracy.csv")


@pytest.mark.parametrize("frame, message", [
    (pd.DataFrame({"model": ["a"], "task": ["t"], "item": [1]}), "missing score"),
    (pd.DataFrame({"model": ["a"], "task": ["t"], "item": [1], "score": ["x"]}),
     "row 1 has score 'x'"),
    (pd.DataFrame({"model": ["a", "a"], "task": ["t", "t"], "item": [1, 1], "score": [1, 0]}),
     "several scores for item '1'"),
])
def test_bad_long_tables_get_one_line(frame, message):
    with pytest.raises(RankwiseError, match=message):
        read_items(frame)


def test_bad_files_name_the_file_and_line(tmp_path):
    bad = tmp_path / "m" / "samples_t_2024-01-01T00-00-00.000000.jsonl"
    bad.parent.mkdir()
    bad.write_text('{"doc_id": 0, "acc": 1.0}\n{not json\n')
    with pytest.raises(RankwiseError, match=r"samples_t_.*line 2: not JSON"):
        read_items(bad)
    with pytest.raises(RankwiseError, match="no such file"):
        read_items(tmp_path / "absent.csv")
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(RankwiseError, match="no file of scored items"):
        read_items(empty)


def test_load_table_refuses_an_item_source_with_the_way():
    with pytest.raises(RankwiseError, match="compare FILE --items"):
        rankwise.load_table(DATA / "swe_bench" / "agent-a.run1.json", source_format="swe-bench")


def test_helm_per_instance_stats_equal_helm_aggregate():
    t = read_items(DATA / "helm")
    assert t.reader == "helm" and t.models == ("simple/model1",)
    assert set(t.tasks) == {"simple_mcqa", "simple_classification"}
    assert t.metric == "exact_match"
    for task in t.tasks:
        stats = json.loads((DATA / "helm" / task / "stats.json").read_text())
        mean = [s["mean"] for s in stats if s["name"]["name"] == "exact_match"
                and s["name"].get("split") == "test" and not s["name"].get("perturbation")][0]
        part = t.frame[t.frame.task == task]
        assert len(part) == 10 and part["score"].mean() == pytest.approx(mean)
    q = read_items(DATA / "helm", metric="num_prompt_tokens")
    assert q.metric == "num_prompt_tokens" and not q.binary


def test_a_long_item_table_takes_columns_and_decimal_commas_as_every_long_table(tmp_path):
    """The one reading rule: a ';'-separated item table with decimal commas (sniffed) and its
    own column names (--columns, as for score tables and curves) reads as the plain table."""
    import pandas as pd

    plain = pd.DataFrame({"model": ["a", "b"] * 3, "task": ["t"] * 6,
                          "item": ["q1", "q1", "q2", "q2", "q3", "q3"],
                          "score": [1.0, 0.5, 0.25, 1.0, 0.0, 1.0]})
    own = plain.rename(columns={"model": "system", "task": "benchmark"})
    path = tmp_path / "items.csv"
    path.write_text(own.to_csv(sep=";", decimal=",", index=False))
    read = read_items(path, columns="model=system,task=benchmark")
    expected = read_items(plain)
    assert read.models == expected.models and read.tasks == expected.tasks
    assert (read.task_matrix("t").scores == expected.task_matrix("t").scores).all()
    assert any("decimal mark" in n for n in read.notes)
    with pytest.raises(RankwiseError, match="no column 'sys'"):
        read_items(path, columns="model=sys")


def test_the_command_line_reads_an_item_table_with_its_own_column_names(cli, tmp_path):
    import pandas as pd

    frame = pd.DataFrame({"system": ["a", "b"] * 4, "benchmark": ["t"] * 4 + ["u"] * 4,
                          "item": ["q1", "q1", "q2", "q2"] * 2,
                          "score": [1, 0, 1, 1, 0, 0, 1, 0]})
    path = tmp_path / "runs.csv"
    frame.to_csv(path, index=False)
    ran = cli("compare", str(path), "--items", "--columns", "model=system,task=benchmark",
              "-f", "json")
    assert ran.code == 0, ran.err
    import json

    assert json.loads(ran.out)["learners"] == ["a", "b"]


def test_the_leaderboard_reads_an_item_table_as_compare_does(cli, tmp_path):
    """The same item table, with its own column names, is read by both commands."""
    import pandas as pd

    frame = pd.DataFrame({"system": ["a", "b", "c"] * 4, "benchmark": ["t"] * 6 + ["u"] * 6,
                          "item": ["q1"] * 3 + ["q2"] * 3 + ["q1"] * 3 + ["q2"] * 3,
                          "score": [1, 0, 0, 1, 1, 0, 1, 0, 1, 0, 1, 0]})
    path = tmp_path / "runs.csv"
    frame.to_csv(path, index=False)
    mapping = ("--source", "items", "--columns", "model=system,task=benchmark")
    ran = cli("leaderboard", str(path), *mapping, "--draws", "5", "-f", "json")
    assert ran.code == 0, ran.err
    assert sorted(r["learner"] for r in json.loads(ran.out)["boards"][0]["rows"]) == \
        ["a", "b", "c"]


def test_a_markdown_board_saved_with_a_byte_order_mark_is_read(tmp_path):
    from rankwise.tables.board import read_board

    text = "| model | MATH |\n|---|---|\n| a | 50.0 |\n| b | 40.0 |\n"
    plain, bom = tmp_path / "plain.md", tmp_path / "bom.md"
    plain.write_text(text, encoding="utf-8")
    bom.write_text(text, encoding="utf-8-sig")
    assert read_board(bom, "bom.md")[0] == read_board(plain, "plain.md")[0] == ("a", "b")


def test_an_item_example_is_read_by_the_source_named(cli):
    """--source with --example: the bundled file read by that reader (refused where it is not
    that tool's file), never silently by the example's own."""
    ran = cli("compare", "--example", "evals", "--items", "--source", "lm-eval")
    assert ran.code == 2 and "lm-evaluation-harness" in ran.err
    ran = cli("compare", "--example", "evals", "--items", "--source", "items", "-f", "json")
    assert ran.code == 0 and '"reader": "items"' in ran.out
