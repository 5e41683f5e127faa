"""compare_items, compare --items and rankwise audit: both levels, every option given and
inferred, outputs read against each other, and the null simulation that is the reason for the
feature (slow)."""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import rankwise
from rankwise.analysis.audit import audit, smallest_denominator
from rankwise.errors import RankwiseError
from rankwise.stats.items import paired_items

EXAMPLE = Path(rankwise.__file__).parent / "examples" / "evals_items.csv"
DATA = Path(__file__).parent / "data" / "items"


@pytest.fixture(scope="module")
def evals():
    return rankwise.compare_items(rankwise.load_items_example("evals"))


def test_two_levels_agree_with_each_other(evals):
    table = evals.table
    for i, task in enumerate(evals.tasks):
        assert np.allclose(task.score, table.values[i])       # one mean, read twice
        assert task.best == task.models[int(np.argmax(task.score))]
        assert task.best in task.tied
    assert np.allclose(evals.macro, table.values.mean(axis=0))
    assert evals.best == "delta" and evals.best in evals.tied
    assert all(evals.macro_low <= evals.macro) and all(evals.macro <= evals.macro_high)
    # the across-task analysis is compare() on the same table
    again = rankwise.compare(table, seed=evals.settings["seed"])
    assert again.verdict.text == evals.across.verdict.text


def test_clustered_task_uses_the_permutation_test_and_t_intervals(evals):
    reading = next(t for t in evals.tasks if t.task == "reading")
    assert reading.n_clusters == 60 and reading.pairs.test == "permutation"
    assert reading.interval == "t" and reading.clopper_pearson is None
    code = next(t for t in evals.tasks if t.task == "code")
    assert code.pairs.test == "mcnemar" and code.interval == "wilson"


def test_json_holds_every_pair_and_matches_the_text(evals, cli):
    from rankwise.report.items import render_items

    data = json.loads(render_items(evals, "json"))
    assert data["schema"] == "rankwise.items/3" and data["macro"]["best"] == "delta"
    assert len(data["per_dataset"][0]["pairs"]["first"]) == 6
    assert data["across"]["report"]["verdict"]["text"] == evals.across.verdict.text
    text = render_items(evals, "text")
    for task in data["per_dataset"]:
        assert f"Tied with #1 ({task['best']}): {', '.join(task['tied_with_best'])}." in \
            text.replace("\n", " ")
    ran = cli("compare", "--example", "evals", "-f", "json")
    assert ran.code == 0 and json.loads(ran.out)["macro"] == data["macro"]


def test_items_given_explicitly_and_inferred_read_the_same(cli):
    inferred = cli("compare", EXAMPLE, "-f", "json")
    explicit = cli("compare", EXAMPLE, "--items", "-f", "json")
    source = cli("compare", EXAMPLE, "--source", "items", "-f", "json")
    assert inferred.code == explicit.code == source.code == 0
    a, b, c = (json.loads(r.out) for r in (inferred, explicit, source))
    assert a["macro"] == b["macro"] == c["macro"]
    inspect_log = next((DATA / "inspect").glob("*mj7khqpMM4GBCfVQozKgzB.eval"))
    for src, path in (("helm", DATA / "helm"), ("inspect", inspect_log)):
        # one model each: read alike, and compare says why it cannot compare, in one line
        assert rankwise.read_items(path).frame.equals(
            rankwise.read_items(path, reader=src).frame)
        auto, given = cli("compare", path), cli("compare", path, "--source", src)
        assert auto.code == given.code == 2 and auto.err == given.err
        assert "one model" in auto.err and "Traceback" not in auto.err
    for src, folder in (("lm-eval", DATA / "lm_eval"), ("swe-bench", DATA / "swe_bench")):
        auto, given = cli("compare", folder, "-f", "json"), cli("compare", folder, "--source",
                                                                 src, "-f", "json")
        assert auto.code == given.code == 0, (auto.err, given.err)
        assert json.loads(auto.out)["per_dataset"] == json.loads(given.out)["per_dataset"]
    md = cli("compare", "--example", "evals", "-f", "markdown")
    assert md.code == 0 and md.out.startswith("# rankwise items")


def test_a_seed_given_is_used_even_when_it_equals_compares_default(cli):
    """--seed given explicitly is the user's, whatever its value; without it the items take
    their own seed (ITEM_SEED), and giving that seed reads the same as leaving it out."""
    from rankwise.defaults import DEFAULT_SEED, ITEM_SEED

    def run(*seed):
        ran = cli("compare", "--example", "evals", "-f", "json", *seed)
        assert ran.code == 0, ran.err
        return json.loads(ran.out)

    inferred, own = run(), run("--seed", ITEM_SEED)
    explicit = run("--seed", DEFAULT_SEED)
    # without --seed both levels take the items' seed, as compare_items does
    from rankwise.report.items import render_items

    assert inferred["settings"]["seed"] == ITEM_SEED and inferred == own
    api = render_items(rankwise.compare_items(rankwise.load_items_example("evals")), "json")
    assert json.loads(api) == inferred
    assert explicit["across"]["concordance"]["seed"] == DEFAULT_SEED   # its bootstrap
    assert explicit["settings"]["seed"] == DEFAULT_SEED
    # the seed reaches the draws: the macro-average's bootstrap interval moves with it
    assert explicit["macro"] != inferred["macro"]
    again = rankwise.compare_items(rankwise.load_items_example("evals"), seed=DEFAULT_SEED)
    assert explicit["macro"]["low"] == [float(x) for x in again.macro_low]


def test_confidence_defaults_to_one_minus_alpha_as_in_compare(cli):
    """Every interval of the items is at 1 - alpha unless --confidence is given, as compare's
    are (the help says so); the command and the function agree, given and inferred."""
    table = rankwise.load_items_example("evals")
    loose = rankwise.compare_items(table, alpha=0.1, across=False)
    assert loose.settings["confidence"] == 0.9
    assert loose.macro_low.tolist() == rankwise.compare_items(
        table, alpha=0.1, confidence=0.9, across=False).macro_low.tolist()
    assert rankwise.compare_items(table, across=False).settings["confidence"] == 0.95
    ran = cli("compare", "--example", "evals", "-f", "json", "--alpha", "0.1")
    given = cli("compare", "--example", "evals", "-f", "json", "--alpha", "0.1",
                "--confidence", "0.9")
    inferred, explicit = json.loads(ran.out), json.loads(given.out)
    assert inferred["settings"]["confidence"] == explicit["settings"]["confidence"] == 0.9
    assert inferred["macro"] == explicit["macro"]
    assert inferred["per_dataset"] == explicit["per_dataset"]
    with pytest.raises(RankwiseError, match="confidence must be between 0 and 1"):
        rankwise.compare_items(table, confidence=95, across=False)


def test_item_options_refused_without_items_and_bad_formats(cli):
    ran = cli("compare", "--example", "garcia2008", "--metric", "acc")
    assert ran.code == 2 and "--metric goes with scored items" in ran.err
    ran = cli("compare", "--example", "evals", "-f", "csv")
    assert ran.code == 2 and "--format must be one of" in ran.err
    ran = cli("compare", DATA / "lm_eval", "--missing", "worst")
    assert ran.code == 2 and "refuse or common" in ran.err
    assert "Traceback" not in ran.err


def test_permutation_p_at_the_extremes_and_determinism():
    x = np.zeros((400, 3))
    x[:, 0] = 1
    r = paired_items(x, test="permutation", draws=500)
    assert r.pvalue[0] == pytest.approx(1 / 501) and r.pvalue[2] == 1.0
    again = paired_items(x, test="permutation", draws=500)
    assert np.array_equal(r.pvalue, again.pvalue)


def test_two_hundred_models_in_one_pass():
    rng = np.random.default_rng(5)
    x = (rng.random((300, 200)) < 0.6).astype(float)
    r = paired_items(x)
    assert len(r.first) == 19_900
    a, b = 17, 123
    i = np.flatnonzero((r.first == a) & (r.second == b))[0]
    assert r.b[i] == ((x[:, a] == 1) & (x[:, b] == 0)).sum()


def test_audit_recovers_counts_and_says_what_it_cannot():
    assert smallest_denominator([0.5, 0.25, 0.75], 0.0005) == 4
    board = pd.DataFrame({"model": ["A", "B", "C"],
                          "exact": ["61.59", "54.88", "48.17"],     # k/164 to 2 decimals
                          "coarse": ["62", "55", "48"],
                          "mixed": ["0.12345", "0.67891", "0.31416"]})
    a = audit(board, alpha=0.05)
    by = {t.task: t for t in a.tasks}
    assert by["exact"].n == 164 and by["exact"].how == "recovered"
    assert by["coarse"].how == "lower bound"
    assert any("coarse" in n and "too coarse" in n for n in a.notes)
    mixed = audit(board[["model", "mixed"]], max_count=500).tasks[0]
    assert mixed.how == "unknown"
    given = audit(board, counts={"coarse": 1000}).tasks[1]
    assert given.n == 1000 and given.how == "given"
    with pytest.raises(RankwiseError, match="not on the board"):
        audit(board, counts={"nope": 3})


def test_audit_command(cli, tmp_path):
    path = tmp_path / "board.csv"
    path.write_text("model,MATH,HumanEval\nGalleon,65.5,83.5\nDreadnought,63.0,86.6\n")
    ran = cli("audit", path, "--counts", "MATH=5000,HumanEval=164")
    assert ran.code == 0 and "Items: 5000 (given)" in ran.out
    data = json.loads(cli("audit", path, "--counts", "MATH=5000", "-f", "json").out)
    assert data["per_dataset"][0]["tied_with_best"] == ["Galleon"]
    bad = cli("audit", path, "--counts", "MATH=x")
    assert bad.code == 2 and "TASK=N" in bad.err
    missing = cli("audit", tmp_path / "absent.csv")
    assert missing.code == 2 and "no such file" in missing.err


def test_audit_reads_a_board_printed_as_a_markdown_table(cli, tmp_path):
    """A board as READMEs print it: DataFrame.to_markdown's pipe table (tabulate 0.10.0 wrote
    tests/data/items/board_to_markdown.md) reads as the same board written as CSV."""
    board = DATA / "board_to_markdown.md"
    as_csv = tmp_path / "board.csv"
    as_csv.write_text("model,MATH,HumanEval\nGalleon-7B,65.5,83.6\nDreadnought-13B,63,86.7\n"
                      "Corvette-3B,41.2,52.4\n")
    ran, same = (cli("audit", path, "--counts", "MATH=5000", "-f", "json")
                 for path in (board, as_csv))
    assert ran.code == same.code == 0, ran.err
    mine, theirs = json.loads(ran.out), json.loads(same.out)
    assert mine["per_dataset"] == theirs["per_dataset"]
    assert mine["learners"] == theirs["learners"]
    ragged = tmp_path / "ragged.md"
    ragged.write_text("| model | MATH |\n|---|---:|\n| A | 65.5 |\n| B | 63 | 1 |\n")
    bad = cli("audit", ragged)
    assert bad.code == 2 and "line 4 of the Markdown table has 3 cells, its header 2" in bad.err


@pytest.mark.parametrize("content, said", [
    (b"", "the file is empty"), (b"  \n\n", "the file is empty"),
    (b"a\nb\nc\n", "one column ('a')"), (b"model\nA\nB\n", "one column ('model')"),
    (b"\xff\xfe\x00a,b\n", "cannot be read as a table"), (None, "is a folder"),
    (b"|---|---|\n", "a Markdown table with no header and no rows")])
def test_audit_refuses_a_board_it_cannot_read_in_one_line(cli, tmp_path, content, said):
    """An empty file stopped with the csv module's traceback, a folder was "no such file",
    and a one-column file was split on a letter (pandas sniffs any delimiter)."""
    path = tmp_path / "board.csv"
    if content is None:
        path.mkdir()
    else:
        path.write_bytes(content)
    ran = cli("audit", path)
    assert ran.code == 2 and said in ran.err and len(ran.err.strip().splitlines()) == 1, ran


@pytest.mark.slow
@pytest.mark.simulation
def test_null_simulation_paired_clustered_hold_alpha_and_the_others_do_not():
    """Two equally good models on clustered, correlated items: the paired test that flips whole
    clusters keeps its level; McNemar's test (items taken as independent) and the unpaired
    z-test reject far too often -- the reason for the feature, shown (gallery:
    plot_items_null)."""
    from rankwise.stats.items import null_rejections

    reps, alpha = 800, 0.05
    r = null_rejections(reps, interaction=1.0, alpha=alpha, seed=48)
    bound = alpha + 2 * np.sqrt(alpha * (1 - alpha) / reps)
    assert r["paired, clustered"]["rate"] <= bound, r
    assert r["McNemar, items independent"]["rate"] > bound, r
    assert r["unpaired z-test"]["rate"] > bound, r


def test_leaderboard_of_items_is_the_board_of_the_task_table(cli):
    board = rankwise.leaderboard(rankwise.load_items_example("evals").task_table())
    ran = cli("leaderboard", "--example", "evals", "-f", "json")
    assert ran.code == 0, ran.err
    data = json.loads(ran.out)
    assert data["boards"] == json.loads(json.dumps(board.to_dict()))["boards"]
    explicit = cli("leaderboard", EXAMPLE, "--source", "items", "-f", "json")
    inferred = cli("leaderboard", EXAMPLE, "-f", "json")
    assert explicit.code == inferred.code == 0
    assert json.loads(explicit.out)["boards"] == json.loads(inferred.out)["boards"]
    two = cli("leaderboard", DATA / "swe_bench")
    assert two.code == 0 and "Traceback" not in two.err and "Warning" not in two.err


def test_compare_options_flow_into_the_across_task_comparison(cli):
    ran = cli("compare", "--example", "evals", "--dataset-check", "--rank-sets", "ranks",
              "--posthoc", "all", "-f", "json")
    assert ran.code == 0, ran.err
    across = json.loads(ran.out)["across"]
    assert across["dataset_check"] and across["rank_sets"]
    assert across["posthoc"]["families"] == ["all_pairs"]
    plain = rankwise.compare(rankwise.load_items_example("evals").task_table(),
                             dataset_check=True, rank_sets="ranks", posthoc="all")
    assert across["report"]["verdict"]["text"] == plain.verdict.text
    refused = cli("compare", "--example", "evals", "--pairs", "p.csv")
    assert refused.code == 2 and "-f json" in refused.err


def test_out_of_core_stream_equals_the_in_memory_analysis(tmp_path, cli):
    """The 2-billion-outcome path (Parquet read one task at a time through Dask), on the bundled
    example written as a partitioned Parquet folder: the same numbers as in memory."""
    from rankwise.tables.items import ItemStream

    frame = rankwise.load_items_example("evals").frame
    frame = frame.sort_values(["task", "model"], kind="stable").reset_index(drop=True)
    folder = tmp_path / "items"
    plain = frame.copy()
    for c in ("model", "task", "item", "cluster"):
        plain[c] = plain[c].astype(str).replace("nan", "")
    plain.to_parquet(folder, partition_cols=["task"], index=False)
    stream = rankwise.read_items(folder, reader="items-stream")
    assert isinstance(stream, ItemStream) and stream.tasks == tuple(sorted(stream.tasks))
    memory = rankwise.compare_items(rankwise.read_items(plain))
    streamed = rankwise.compare_items(stream)
    assert streamed.items.n_outcomes == len(frame)
    assert memory.items.models == streamed.items.models
    assert np.allclose(memory.macro, streamed.macro)
    assert np.allclose(memory.macro_low, streamed.macro_low, atol=1e-6)
    assert memory.tied == streamed.tied
    for m, s in zip(memory.tasks, streamed.tasks):
        assert m.task == s.task and m.tied == s.tied and m.n_pairs == s.n_pairs
        assert np.allclose(m.score, s.score) and np.allclose(m.se, s.se)
        kept = np.flatnonzero(m.adjusted <= 0.05)
        assert np.array_equal(m.pairs.first[kept], s.pairs.first)
        assert np.allclose(m.adjusted[kept], s.adjusted)
    assert memory.across.verdict.text == streamed.across.verdict.text
    ran = cli("compare", folder, "--source", "items-stream", "-f", "json")
    assert ran.code == 0, ran.err
    assert json.loads(ran.out)["per_dataset"][0]["pairs_kept"] in ("significant", "all")


@pytest.mark.parametrize("partition", [None, "task", "model"])
def test_a_stream_of_the_item_tables_own_parquet_with_categorical_columns(tmp_path, cli,
                                                                        partition):
    """ItemTable.frame as pandas writes it (model, task, item and cluster categorical), one
    file or a folder partitioned by a label: --source items-stream reads it (a folder
    partitioned by a categorical column stopped with Dask's traceback "Not all columns are
    categoricals"), and its task table is the in-memory one."""
    table = rankwise.load_items_example("evals")
    frame = table.frame
    assert isinstance(frame["task"].dtype, pd.CategoricalDtype)
    target = tmp_path / ("items.parquet" if partition is None else "items")
    frame.to_parquet(target, **({} if partition is None else {"partition_cols": [partition]}))
    stream = rankwise.read_items(target, reader="items-stream")
    assert stream.tasks == tuple(sorted(table.tasks))
    assert stream.models == tuple(sorted(table.models))
    memory = table.task_table()
    rows = [list(memory.datasets).index(t) for t in stream.tasks]
    cols = [list(memory.learners).index(m) for m in stream.models]
    assert np.allclose(stream.task_table().values, memory.values[np.ix_(rows, cols)])
    if partition == "task":   # the reported case, through the command line
        ran = cli("compare", target, "--items", "--source", "items-stream", "-f", "json")
        assert ran.code == 0 and "Traceback" not in ran.err, ran.err


def test_an_output_inside_an_input_folder_is_refused(cli, tmp_path):
    import shutil

    folder = tmp_path / "lm"
    shutil.copytree(DATA / "lm_eval", folder)
    target = next((folder / "model-a").glob("samples_quiz_mc_*.jsonl"))
    before = target.read_bytes()
    for command in (("compare",), ("leaderboard",)):
        ran = cli(*command, folder, "-o", target)
        assert ran.code == 2 and "inside the input folder" in ran.err
        assert target.read_bytes() == before
    ran = cli("compare", folder, "-o", tmp_path / "report.txt")
    assert ran.code == 0 and (tmp_path / "report.txt").read_text().startswith("rankwise items")


def test_a_gap_the_bootstrap_never_moves_is_not_a_tie():
    """One task, A right on every item and B wrong on every one: every bootstrap draw gives the
    same gap of 1.0, so B is below the best (a zero spread once counted as an infinite one and
    tied B, scoring 0.0, with A, scoring 1.0); C, right on half the items, varies and is below
    too; two models with equal items tie."""
    rows = [dict(model=m, task="t1", item=i, score=s)
            for i in range(20)
            for m, s in (("A", 1.0), ("B", 0.0), ("C", float(i % 2)), ("D", 1.0))]
    best = rankwise.compare_items(pd.DataFrame(rows)).to_dict()["best_set"]
    assert best["best"] in ("A", "D")
    assert sorted(best["learners"]) == ["A", "D"]


def test_one_task_is_said_in_the_singular():
    rows = [dict(model=m, task="t1", item=i, score=float((i + j) % 2))
            for i in range(10) for j, m in enumerate("AB")]
    text = rankwise.compare_items(pd.DataFrame(rows)).render("text")
    assert "1 task (data sets)" in text and "1 tasks" not in text
