"""The one registry behind every ``--source`` (tables/registry.py, names.SOURCES): every bundled
and test file is detected as it was when each reader kept its own rules, every detecting source
meets a file it detects, and --help and the one-line error list exactly the registry's names."""

import re
import sqlite3
from pathlib import Path

import pandas as pd
import pytest

from rankwise import RankwiseError, load_table, names, read_curves, read_items
from rankwise.option_table import LINES
from rankwise.tables import registry
from rankwise.tables.curves import is_curve_file
from rankwise.tables.delimited import read_delimited
from rankwise.tables.items import is_item_file
from rankwise.tables.sources import detect

ROOT = Path(__file__).parents[1]
WALKED = (ROOT / "tests" / "data", ROOT / "src" / "rankwise" / "examples")

#: What detection says of every file and folder under WALKED (anything left out: nothing).
#: ``table``: the other tool's format of its header; ``is_items``: compare takes it as scored
#: items; ``items``: the reader a folder's file is read with; ``curves``: the curve reader, by
#: its shape or, for a table, its header. A file added under WALKED that some reader detects
#: belongs here.
DETECTED = {
    # the bundled folder holds Every Eval Ever samples (eval-records) and ioh's files
    "src/rankwise/examples": {"is_items": True, "curves": "ioh"},
    "src/rankwise/examples/eval_records_samples.jsonl": {"is_items": True,
                                                         "items": "every-eval-ever-items"},
    "src/rankwise/examples/bbob": {"curves": "ioh"},
    "src/rankwise/examples/bbob/DE": {"curves": "ioh"},
    "src/rankwise/examples/bbob/DE/IOHprofiler_f10_EllipsoidRotated.json": {"curves": "ioh"},
    "src/rankwise/examples/bbob/DE/IOHprofiler_f15_RastriginRotated.json": {"curves": "ioh"},
    "src/rankwise/examples/bbob/DE/IOHprofiler_f1_Sphere.json": {"curves": "ioh"},
    "src/rankwise/examples/bbob/DE/IOHprofiler_f20_Schwefel.json": {"curves": "ioh"},
    "src/rankwise/examples/bbob/DE/IOHprofiler_f2_Ellipsoid.json": {"curves": "ioh"},
    "src/rankwise/examples/bbob/DE/IOHprofiler_f3_Rastrigin.json": {"curves": "ioh"},
    "src/rankwise/examples/bbob/DE/IOHprofiler_f6_AttractiveSector.json": {"curves": "ioh"},
    "src/rankwise/examples/bbob/DE/IOHprofiler_f8_Rosenbrock.json": {"curves": "ioh"},
    "src/rankwise/examples/bbob/OnePlusOneES": {"curves": "ioh"},
    "src/rankwise/examples/bbob/OnePlusOneES/IOHprofiler_f10_EllipsoidRotated.json": {"curves": "ioh"},
    "src/rankwise/examples/bbob/OnePlusOneES/IOHprofiler_f15_RastriginRotated.json": {"curves": "ioh"},
    "src/rankwise/examples/bbob/OnePlusOneES/IOHprofiler_f1_Sphere.json": {"curves": "ioh"},
    "src/rankwise/examples/bbob/OnePlusOneES/IOHprofiler_f20_Schwefel.json": {"curves": "ioh"},
    "src/rankwise/examples/bbob/OnePlusOneES/IOHprofiler_f2_Ellipsoid.json": {"curves": "ioh"},
    "src/rankwise/examples/bbob/OnePlusOneES/IOHprofiler_f3_Rastrigin.json": {"curves": "ioh"},
    "src/rankwise/examples/bbob/OnePlusOneES/IOHprofiler_f6_AttractiveSector.json": {"curves": "ioh"},
    "src/rankwise/examples/bbob/OnePlusOneES/IOHprofiler_f8_Rosenbrock.json": {"curves": "ioh"},
    "src/rankwise/examples/bbob/PatternSearch": {"curves": "ioh"},
    "src/rankwise/examples/bbob/PatternSearch/IOHprofiler_f10_EllipsoidRotated.json": {"curves": "ioh"},
    "src/rankwise/examples/bbob/PatternSearch/IOHprofiler_f15_RastriginRotated.json": {"curves": "ioh"},
    "src/rankwise/examples/bbob/PatternSearch/IOHprofiler_f1_Sphere.json": {"curves": "ioh"},
    "src/rankwise/examples/bbob/PatternSearch/IOHprofiler_f20_Schwefel.json": {"curves": "ioh"},
    "src/rankwise/examples/bbob/PatternSearch/IOHprofiler_f2_Ellipsoid.json": {"curves": "ioh"},
    "src/rankwise/examples/bbob/PatternSearch/IOHprofiler_f3_Rastrigin.json": {"curves": "ioh"},
    "src/rankwise/examples/bbob/PatternSearch/IOHprofiler_f6_AttractiveSector.json": {"curves": "ioh"},
    "src/rankwise/examples/bbob/PatternSearch/IOHprofiler_f8_Rosenbrock.json": {"curves": "ioh"},
    "src/rankwise/examples/bbob/RandomSearch": {"curves": "ioh"},
    "src/rankwise/examples/bbob/RandomSearch/IOHprofiler_f10_EllipsoidRotated.json": {"curves": "ioh"},
    "src/rankwise/examples/bbob/RandomSearch/IOHprofiler_f15_RastriginRotated.json": {"curves": "ioh"},
    "src/rankwise/examples/bbob/RandomSearch/IOHprofiler_f1_Sphere.json": {"curves": "ioh"},
    "src/rankwise/examples/bbob/RandomSearch/IOHprofiler_f20_Schwefel.json": {"curves": "ioh"},
    "src/rankwise/examples/bbob/RandomSearch/IOHprofiler_f2_Ellipsoid.json": {"curves": "ioh"},
    "src/rankwise/examples/bbob/RandomSearch/IOHprofiler_f3_Rastrigin.json": {"curves": "ioh"},
    "src/rankwise/examples/bbob/RandomSearch/IOHprofiler_f6_AttractiveSector.json": {"curves": "ioh"},
    "src/rankwise/examples/bbob/RandomSearch/IOHprofiler_f8_Rosenbrock.json": {"curves": "ioh"},
    "tests/data": {"is_items": True, "curves": "ioh"},
    "tests/data/curves": {"curves": "ioh"},
    "tests/data/curves/ioh": {"curves": "ioh"},
    "tests/data/curves/ioh/HC": {"curves": "ioh"},
    "tests/data/curves/ioh/HC/IOHprofiler_f1_Sphere.json": {"curves": "ioh"},
    "tests/data/curves/ioh/HC/IOHprofiler_f2_Ellipsoid.json": {"curves": "ioh"},
    "tests/data/curves/ioh/RS": {"curves": "ioh"},
    "tests/data/curves/ioh/RS/IOHprofiler_f1_Sphere.json": {"curves": "ioh"},
    "tests/data/curves/ioh/RS/IOHprofiler_f2_Ellipsoid.json": {"curves": "ioh"},
    "tests/data/curves/optuna_studies.db": {"curves": "optuna"},
    "tests/data/curves/optuna_trials.csv": {"curves": "optuna"},
    "tests/data/eval_records": {"is_items": True},
    "tests/data/eval_records/f3a1c0de-4b2e-4c1a-9f6d-1b7e5a2c8d40_samples.jsonl": {
        "is_items": True, "items": "every-eval-ever-items"},
    "tests/data/eval_records/openeval_item_examples.json": {"is_items": True,
                                                            "items": "openeval"},
    "tests/data/items": {"is_items": True},
    "tests/data/items/helm": {"is_items": True},
    "tests/data/items/helm/simple_classification": {"is_items": True},
    "tests/data/items/helm/simple_classification/per_instance_stats.json":
        {"is_items": True, "items": "helm"},
    "tests/data/items/helm/simple_mcqa": {"is_items": True},
    "tests/data/items/helm/simple_mcqa/per_instance_stats.json":
        {"is_items": True, "items": "helm"},
    "tests/data/items/inspect": {"is_items": True},
    "tests/data/items/inspect/2025-02-11T15-17-00-05-00_popularity_dPiJifoWeEQBrfWsAopzWr.eval":
        {"is_items": True, "items": "inspect"},
    "tests/data/items/inspect/2025-02-11T15-18-04-05-00_popularity_mj7khqpMM4GBCfVQozKgzB.eval":
        {"is_items": True, "items": "inspect"},
    "tests/data/items/inspect/2025-05-12T20-28-13-04-00_popularity.json":
        {"is_items": True, "items": "inspect"},
    "tests/data/items/lm_eval": {"is_items": True},
    "tests/data/items/lm_eval/model-a": {"is_items": True},
    "tests/data/items/lm_eval/model-a/samples_quiz_gen_2026-11-28T11-44-04.326063.jsonl":
        {"is_items": True, "items": "lm-eval"},
    "tests/data/items/lm_eval/model-a/samples_quiz_mc_2026-11-28T11-44-04.326063.jsonl":
        {"is_items": True, "items": "lm-eval"},
    "tests/data/items/lm_eval/model-b": {"is_items": True},
    "tests/data/items/lm_eval/model-b/samples_quiz_gen_2026-11-28T11-44-22.839501.jsonl":
        {"is_items": True, "items": "lm-eval"},
    "tests/data/items/lm_eval/model-b/samples_quiz_mc_2026-11-28T11-44-22.839501.jsonl":
        {"is_items": True, "items": "lm-eval"},
    "tests/data/items/swe_bench": {"is_items": True},
    "tests/data/items/swe_bench/agent-a.run1.json": {"is_items": True, "items": "swe-bench"},
    "tests/data/items/swe_bench/agent-b.run1.json": {"is_items": True, "items": "swe-bench"},
    "tests/data/real": {"is_items": True, "curves": "ioh"},
    "tests/data/real/inspect": {"is_items": True},
    "tests/data/real/inspect/2026-12-06T18-11-39-00-00_quiz_HwEq67PHRspGFomzF4ncxv.eval":
        {"is_items": True, "items": "inspect"},
    "tests/data/real/inspect/2026-12-06T18-11-42-00-00_quiz-flaky_5uWzVaayMCvpZwrBYmv6gR.eval":
        {"is_items": True, "items": "inspect"},
    "tests/data/real/inspect/2026-12-06T18-11-43-00-00_quiz-flaky_NH5HLxB2XbhYxMFwCaiJ38.eval":
        {"is_items": True, "items": "inspect"},
    "tests/data/real/inspect/2026-12-06T18-11-45-00-00_quiz_9SyLUhdNofK9ivS7NqbfTj.json":
        {"is_items": True, "items": "inspect"},
    "tests/data/real/ioh": {"curves": "ioh"},
    "tests/data/real/ioh/LS": {"curves": "ioh"},
    "tests/data/real/ioh/LS/IOHprofiler_f1121_pymoo_ZDT1.json": {"curves": "ioh"},
    "tests/data/real/ioh/LS/IOHprofiler_f1122_pymoo_ZDT2.json": {"curves": "ioh"},
    "tests/data/real/ioh/RS": {"curves": "ioh"},
    "tests/data/real/ioh/RS/IOHprofiler_f1121_pymoo_ZDT1.json": {"curves": "ioh"},
    "tests/data/real/ioh/RS/IOHprofiler_f1122_pymoo_ZDT2.json": {"curves": "ioh"},
    "tests/data/real/lm_eval": {"is_items": True},
    "tests/data/real/lm_eval/acme__other-lm": {"is_items": True},
    "tests/data/real/lm_eval/acme__other-lm/samples_cloze_2026-12-06T18-20-14.043449.jsonl":
        {"is_items": True, "items": "lm-eval"},
    "tests/data/real/lm_eval/acme__other-lm/samples_pages_2026-12-06T18-20-14.043449.jsonl":
        {"is_items": True, "items": "lm-eval"},
    "tests/data/real/lm_eval/acme__other-lm/samples_quiz_mc_2026-12-06T18-20-14.043449.jsonl":
        {"is_items": True, "items": "lm-eval"},
    "tests/data/real/lm_eval/acme__tiny-lm": {"is_items": True},
    "tests/data/real/lm_eval/acme__tiny-lm/samples_cloze_2026-12-06T18-19-38.909250.jsonl":
        {"is_items": True, "items": "lm-eval"},
    "tests/data/real/lm_eval/acme__tiny-lm/samples_cloze_2026-12-06T18-20-46.860460.jsonl":
        {"is_items": True, "items": "lm-eval"},
    "tests/data/real/lm_eval/acme__tiny-lm/samples_pages_2026-12-06T18-19-38.909250.jsonl":
        {"is_items": True, "items": "lm-eval"},
    "tests/data/real/lm_eval/acme__tiny-lm/samples_quiz_mc_2026-12-06T18-19-38.909250.jsonl":
        {"is_items": True, "items": "lm-eval"},
    "tests/data/real/optuna/studies.db": {"curves": "optuna"},
    "tests/data/real/optuna/trials.csv": {"curves": "optuna"},
    "tests/data/real/swe_bench": {"is_items": True},
    "tests/data/real/swe_bench/acme__coder-7b.lite-run2.json":
        {"is_items": True, "items": "swe-bench"},
    "tests/data/real/votes/arena_hard_auto/arena_hard_battles.jsonl": {"votes": "votes"},
    "tests/data/real/votes/arena_hard_auto/model_judgment": {"votes": "arena-hard"},
    "tests/data/real/votes/arena_hard_auto/model_judgment/scripted-judge":
        {"votes": "arena-hard"},
    "tests/data/real/votes/arena_hard_auto/model_judgment/scripted-judge/alpha-chat.jsonl":
        {"votes": "arena-hard"},
    "tests/data/real/votes/arena_hard_auto/model_judgment/scripted-judge/beta-chat.jsonl":
        {"votes": "arena-hard"},
    "tests/data/real/votes/arena_hard_auto/model_judgment/scripted-judge/gamma-chat.jsonl":
        {"votes": "arena-hard"},
    "tests/data/real/votes/fastchat/clean_battle.json": {"votes": "arena"},
    "tests/data/real/votes/fastchat/gpt-4_pair.jsonl": {"votes": "mt-bench"},
    "tests/data/sources/mlflow_runs.csv": {"table": "mlflow"},
    "tests/data/sources/mlr3_repeated_rows.csv": {"table": "mlr3"},
    "tests/data/sources/wandb_export.csv": {"table": "wandb"},
    "tests/data/weka/weka_5x2.arff": {"table": "weka"},
    "tests/data/weka/weka_split66x10.arff": {"table": "weka"},
    "src/rankwise/examples/amlb_older_results.csv": {"table": "amlb"},
    "src/rankwise/examples/arena_votes.csv": {"votes": "votes"},
    "src/rankwise/examples/amlb_reruns_results.csv": {"table": "amlb"},
    "src/rankwise/examples/amlb_results.csv": {"table": "amlb"},
    "src/rankwise/examples/evals_items.csv": {"is_items": True},
    "src/rankwise/examples/gate_baseline.csv": {"is_items": True},
    "src/rankwise/examples/gate_candidate.csv": {"is_items": True},
    "src/rankwise/examples/mlr3_benchmark.csv": {"table": "mlr3"},
    "src/rankwise/examples/openml_evaluations.csv": {"table": "openml"},
    "src/rankwise/examples/tabarena_results_per_split.csv": {"table": "tabarena"},
    "src/rankwise/examples/weka_cv10x5.arff": {"table": "weka"},
}


def _header(path: Path):
    """A table file's columns as load_table reads them (ARFF too), or None."""
    if path.suffix not in (".csv", ".arff"):
        return None
    try:
        return read_delimited(path).columns
    except (RankwiseError, ValueError):
        return None


def detected(path: Path) -> dict:
    """What every family's detection says of ``path`` (nothing said is left out), checked
    against the readers' public entry points."""
    out = {}
    columns = _header(path)
    if columns is not None:
        table = registry.table_format(columns)
        assert detect(columns) == table
        if table:
            out["table"] = table
        if registry.curve_kind_of_table(columns) != "curves":
            out["curves"] = registry.curve_kind_of_table(columns)
    assert is_item_file(path) == registry.is_items(path)
    if registry.is_items(path):
        out["is_items"] = True
    if path.is_file() and registry.item_kind_in_folder(path):
        out["items"] = registry.item_kind_in_folder(path)
    shape = registry.curve_kind(path)
    assert is_curve_file(path) == (shape is not None)
    if shape:
        out["curves"] = shape
    votes = registry.which("votes", path)
    if votes:
        out["votes"] = votes
    return out


def _walk():
    for base in WALKED:
        for path in sorted([base, *base.rglob("*")]):
            if "__pycache__" not in path.parts:
                yield path


def test_every_bundled_and_test_file_is_detected_as_before():
    found = {path.relative_to(ROOT).as_posix(): detected(path) for path in _walk()}
    found = {rel: said for rel, said in found.items() if said}
    assert found == DETECTED


def _rankwise_db(path: Path) -> Path:
    con = sqlite3.connect(path)
    con.execute("create table results (x integer)")
    con.commit()
    con.close()
    return path


def test_every_detecting_source_detects_a_file(tmp_path):
    """Walk the registry: each source with a detector meets a file or folder it detects (a
    results database of rankwise run is made here: no test file holds one)."""
    db = _rankwise_db(tmp_path / "results.db")
    said = {(family, name) for entry in DETECTED.values() for family, name in (
        ("table", entry.get("table")), ("items", entry.get("items")),
        ("curves", entry.get("curves")), ("votes", entry.get("votes")))}
    long_items = ROOT / "src/rankwise/examples/evals_items.csv"   # is_items by its header
    said.add(("items", registry.which("items", long_items, by=("header",))))
    # Every Eval Ever aggregate records: by the header of the table their results are read into
    from rankwise.tables.eval_records import aggregate_frame

    record = ROOT / "tests/data/eval_records/f3a1c0de-4b2e-4c1a-9f6d-1b7e5a2c8d40.json"
    said.add(("table", registry.table_format(aggregate_frame(record).columns)))
    said |= {("curves", registry.curve_kind(db)), ("curves", registry.curve_kind(tmp_path))}
    detecting = {(e.family, e.name) for e in registry.REGISTRY if e.detectors}
    assert detecting <= said, detecting - said
    assert registry.curve_kind(db) == registry.curve_kind(tmp_path) == "rankwise"


def test_the_registry_is_names_sources_and_every_choice_comes_from_it():
    assert tuple((e.name, e.family, e.description) for e in registry.REGISTRY) == tuple(
        (s.name, s.family, s.description) for s in names.SOURCES)
    assert names.SOURCE_FORMATS == registry.choices("table", "items")
    assert ("auto",) + names.CURVE_SOURCES == registry.choices("curves")
    assert names.ITEM_SOURCES == tuple(e.name for e in registry.entries("items"))
    undetected = {e.name for e in registry.REGISTRY if not e.detectors}
    assert undetected == {"rankwise", "items-stream", "items-duckdb", "curves"}


def test_a_file_read_as_items_goes_by_name_then_content_then_as_a_long_table(tmp_path):
    data = ROOT / "tests" / "data" / "items"
    assert registry.item_kind(data / "swe_bench" / "agent-a.run1.json") == "swe-bench"
    assert registry.item_kind(next((data / "inspect").glob("*.json"))) == "inspect"
    assert registry.item_kind(data / "lm_eval" / "quiz.jsonl") == "items"
    other = tmp_path / "scores.json"
    other.write_text('{"a": 1}')
    with pytest.raises(RankwiseError, match=r"scores.json: not a file of scored items rankwise"
                       r" knows \(inspect: .*; swe-bench: .*\); say which with --source"):
        registry.item_kind(other)
    assert registry.item_kind_in_folder(other) is None
    with pytest.raises(RankwiseError, match="no file of scored items in this folder"
                                            r" \(looked for lm-eval: .*swe-bench: .*\)$"):
        read_items(tmp_path)


def test_routing_of_a_table_commands_source():
    items = ROOT / "src/rankwise/examples/evals_items.csv"
    table = ROOT / "src/rankwise/examples/amlb_results.csv"
    assert registry.reads_items(table, "lm-eval") and registry.reads_items(items, "auto")
    assert not registry.reads_items(items, "rankwise") and not registry.reads_items(table, "auto")
    assert not registry.reads_items(None, "auto")


def _listed(help_text: str) -> list:
    """The names a --source help lists: ``LEAD: auto (how); name (what); ...`` or, where they
    are many, ``LEAD: auto (how); family: name, name; family: name (guide: input)``."""
    body = help_text.split(": ", 1)[1].rstrip(".").replace(" (guide: input)", "")
    names = []
    for part in body.split("; "):
        family = re.match(r"^(table|items|curves|votes): ", part)
        names += (part[family.end():].split(", ") if family else [part.split(" (", 1)[0]])
    return names


SOURCE_OPTIONS = [(command, o) for command, options in LINES.items() for o in options
                  if o.flag == "--source"]


@pytest.mark.parametrize("command, option", SOURCE_OPTIONS,
                         ids=[command for command, _ in SOURCE_OPTIONS])
def test_the_help_lists_exactly_the_registrys_sources(command, option):
    families = {"curves": ("curves",), "leaderboard": ("table", "items", "votes")}.get(
        command, ("table", "items"))
    assert option.choices == registry.choices(*families)
    assert _listed(option.help) == list(registry.choices(*families))
    if len(option.choices) <= 9:    # few: each with what it reads (many: the guide's table)
        for entry in registry.entries(*families):
            assert f"{entry.name} ({entry.description})" in option.help


def _choices_of(message: str) -> list:
    found = re.fullmatch(r"--source must be one of (.+); got 'bogus'", message)
    assert found, message
    return found.group(1).split(", ")


def test_an_unknown_source_gets_one_line_listing_exactly_the_registrys_names(tmp_path):
    frame = pd.DataFrame({"model": ["a"], "task": ["t"], "item": [1], "score": [1.0]})
    calls = {("table", "items"): lambda: load_table(frame, source_format="bogus"),
             ("items",): lambda: read_items(frame, reader="bogus"),
             ("curves",): lambda: read_curves(frame, reader="bogus")}
    for families, call in calls.items():
        with pytest.raises(RankwiseError) as caught:
            call()
        assert "\n" not in str(caught.value)
        assert _choices_of(str(caught.value)) == list(registry.choices(*families))


def test_the_command_line_says_the_same_line(cli, tmp_path):
    table = ROOT / "src/rankwise/examples/garcia2008_table2_accuracy.csv"
    for command, families in (("compare", ("table", "items")), ("curves", ("curves",))):
        ran = cli(command, table, "--source", "bogus")
        assert ran.code == 2
        line = ran.err.strip().removeprefix("rankwise: error: ")
        assert _choices_of(line) == list(registry.choices(*families))


@pytest.mark.parametrize("kind", ["table", "items table", "inspect .json log"])
def test_is_items_tries_each_name_detector_once(tmp_path, monkeypatch, kind):
    """is_items asked the name detectors once through item_kind_in_folder and once more
    itself (a file's name is read once, then its content or header)."""
    entry = next(e for e in registry.REGISTRY if (e.family, e.name) == ("items", "lm-eval"))
    seen = []
    named = entry.detectors["name"]
    monkeypatch.setitem(entry.detectors, "name", lambda probe: seen.append(probe) or named(probe))
    logs = ROOT / "tests" / "data" / "items" / "inspect"
    path = {"table": tmp_path / "wide.csv", "items table": tmp_path / "items.csv",
            "inspect .json log": next(logs.glob("*.json"))}[kind]
    if kind == "table":
        path.write_text("dataset,A,B\nd1,0.5,0.6\n")
    elif kind == "items table":
        path.write_text("model,task,item,score\nm,t,1,1\n")
    assert registry.is_items(path) is (kind != "table")
    assert len(seen) == 1, kind
