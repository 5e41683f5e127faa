"""Every Eval Ever records (schema 0.3.0) and OpenEval item records (v0.1.0): the bundled item
examples and score tables written and read back without loss, what is written valid against the
published JSON Schemas (copies in tests/data/eval_records, sources in its README), published
example records read, and a record without a required field refused in one line."""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import rankwise
from rankwise import RankwiseError, write_every_eval_ever_items, write_every_eval_ever
from rankwise.examples import load_gate_example

jsonschema = pytest.importorskip("jsonschema")

DATA = Path(__file__).parent / "data" / "eval_records"
#: What describes the input rather than the analysis (the reader, where the direction came
#: from, the report's sentences about them): the rest of compare's JSON must not change.
ABOUT_THE_INPUT = ("source", "input", "direction_source", "direction_word", "report", "notes",
                   "warnings", "reader", "metric")


def _validator(name):
    schema = json.loads((DATA / name).read_text(encoding="utf-8"))
    return jsonschema.Draft7Validator(schema)


def _analysis(json_text):
    def strip(value):
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in ABOUT_THE_INPUT}
        return value

    return strip(json.loads(json_text))


def _same(a, b):
    """Equal, numbers to the last bits a sum's order may change (a wide table's scores are
    held column by column, a long table's row by row; the scores themselves are equal)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and isinstance(b, float):
        return a == pytest.approx(b, rel=1e-12, abs=1e-300, nan_ok=True)
    return a == b


def _item_examples():
    base, cand = load_gate_example()
    return {"evals": rankwise.load_items_example("evals"), "nightly-baseline": base,
            "nightly-candidate": cand}


@pytest.mark.parametrize("name", ["evals", "nightly-baseline", "nightly-candidate"])
def test_bundled_items_round_trip_without_loss(tmp_path, name):
    items = _item_examples()[name]
    path = write_every_eval_ever_items(items, tmp_path / f"{name}_samples.jsonl", timestamp=0)
    validator = _validator("instance_level_eval.schema.json")
    for line in path.read_text(encoding="utf-8").splitlines():
        validator.validate(json.loads(line))
    back = rankwise.read_items(path)
    assert back.reader == "every-eval-ever-items"
    pd.testing.assert_frame_equal(back.frame, items.frame)
    assert (back.models, back.tasks) == (items.models, items.tasks)
    if "repeat" in items.frame:       # the trials are kept, not averaged
        assert back.frame["repeat"].tolist() == items.frame["repeat"].tolist()
    if len(items.models) > 1:
        assert _same(_analysis(rankwise.compare_items(back).to_json()),
                     _analysis(rankwise.compare_items(items).to_json()))


@pytest.mark.parametrize("name", ["garcia2010", "demsar2006_table6", "folds_demo"])
def test_bundled_tables_round_trip_without_loss(tmp_path, name):
    options = {"criterion": "accuracy"} if name == "folds_demo" else {}
    table = rankwise.load_example(name, **options)
    written = write_every_eval_ever(table, tmp_path, timestamp=0)
    assert len(written) == table.n_learners
    validator = _validator("eval.schema.json")
    for path in written:
        validator.validate(json.loads(path.read_text(encoding="utf-8")))
    back = rankwise.load_table(tmp_path)
    assert back.reading.source == "every-eval-ever"
    assert (back.learners, back.datasets) == (table.learners, table.datasets)
    np.testing.assert_array_equal(back.values, table.values)
    assert (back.higher_is_better, back.criterion) == (table.higher_is_better, table.criterion)
    if name == "folds_demo":   # one score per cell: the values behind it are not in the schema
        return
    assert _same(_analysis(rankwise.compare(back).to_json()),
                 _analysis(rankwise.compare(table).to_json()))


def test_a_lower_is_better_table_keeps_its_direction(tmp_path):
    table = rankwise.load_table(pd.DataFrame({"dataset": ["a", "b", "c"], "x": [0.3, 0.2, 0.1],
                                              "y": [0.1, 0.4, 0.2]}), criterion="error")
    write_every_eval_ever(table, tmp_path, timestamp=0)
    back = rankwise.load_table(tmp_path)
    assert back.higher_is_better is False and back.criterion == "error"


def test_the_published_reference_records_are_read():
    validator = _validator("eval.schema.json")
    aggregate = DATA / "f3a1c0de-4b2e-4c1a-9f6d-1b7e5a2c8d40.json"
    validator.validate(json.loads(aggregate.read_text(encoding="utf-8")))
    frame = rankwise.tables.eval_records.aggregate_frame(aggregate)
    assert frame[["model_id", "evaluation_name", "metric", "value"]].values.tolist() == [
        ["demo-org/demo-model", "demo-source.demo_bench", "accuracy", 0.75]]
    samples = DATA / "f3a1c0de-4b2e-4c1a-9f6d-1b7e5a2c8d40_samples.jsonl"
    _validator("instance_level_eval.schema.json").validate(
        json.loads(samples.read_text(encoding="utf-8")))
    items = rankwise.read_items(samples)
    assert items.reader == "every-eval-ever-items"
    assert items.frame[["model", "task", "item", "score"]].astype(object).values.tolist() == [
        ["demo-org/demo-model", "demo-source.demo_bench", "demo_0001", 1.0]]


def test_a_leaderboard_record_of_schema_0_2_is_a_score_table():
    table = rankwise.load_table(DATA / "hfopenllm_v2_98ea850e-7019-4728-a558-8b1819ec47c2.json",
                                missing="refuse", min_learners=1)
    assert table.learners == ("TencentARC/LLaMA-Pro-8B-Instruct",)
    assert table.datasets[:2] == ("IFEval", "BBH") and table.values[0, 0] == 0.4486
    assert table.higher_is_better and table.direction_source == "source"


def test_openeval_example_items_are_read():
    items = rankwise.read_items(DATA / "openeval_item_examples.json")
    assert items.reader == "openeval"
    assert items.frame[["model", "task", "item", "score"]].astype(object).values.tolist() == [
        ["Gemini-3-Pro-Preview", "WildBench", "wildbench_20260220T224823Z_0", 8.0],
        ["text-davinci-002", "Truthful_QA", "truthful-qa_20260221T020401Z_0", 0.0]]
    assert any("wildbench_score" in n for n in items.notes)
    chosen = rankwise.read_items(DATA / "openeval_item_examples.json",
                                 metric="wildbench_score_rescaled,exact_match")
    assert chosen.frame["score"].tolist() == [0.7777777777777778, 0.0]


def _one_record(tmp_path, drop):
    line = json.loads((DATA / "f3a1c0de-4b2e-4c1a-9f6d-1b7e5a2c8d40_samples.jsonl").read_text())
    parent, _, key = drop.rpartition(".")
    (line[parent] if parent else line).pop(key)
    path = tmp_path / "bad_samples.jsonl"
    path.write_text("\n" + json.dumps(line) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("field", ["sample_id", "evaluation.score", "answer_attribution"])
def test_an_instance_record_without_a_required_field_is_named(tmp_path, field):
    path = _one_record(tmp_path, field)
    with pytest.raises(RankwiseError, match=rf"bad_samples.jsonl, line 2: .*'{field}'"):
        rankwise.read_items(path, reader="every-eval-ever-items")


def test_an_aggregate_record_without_a_required_field_is_named(tmp_path):
    record = json.loads((DATA / "f3a1c0de-4b2e-4c1a-9f6d-1b7e5a2c8d40.json").read_text())
    del record["evaluation_results"][0]["metric_config"]["lower_is_better"]
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    with pytest.raises(RankwiseError, match=r"record.json, evaluation_results\[0\].*"
                                            r"'lower_is_better'"):
        rankwise.load_table(path, min_learners=1)


def test_writing_into_a_folder_of_records_is_refused(tmp_path):
    table = rankwise.load_example("garcia2010")
    write_every_eval_ever(table, tmp_path)
    with pytest.raises(RankwiseError, match="already holds .json files"):
        write_every_eval_ever(table, tmp_path)


def test_the_cli_reads_records_and_refuses_a_bad_one(tmp_path, cli):
    write_every_eval_ever_items(rankwise.load_items_example("evals"), tmp_path / "e_samples.jsonl")
    assert cli("compare", tmp_path / "e_samples.jsonl", "--format", "json").code == 0
    ran = cli("compare", _one_record(tmp_path, "evaluation.is_correct"), "--items")
    assert ran.code == 2
    assert "line 2" in ran.err and "'evaluation.is_correct'" in ran.err
    assert "Traceback" not in ran.err
