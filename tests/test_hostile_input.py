"""Every option and reader under fire, as a hurried user tries them: a mistake gets one
``rankwise: error:`` line and exit 2 (no traceback, nothing written, changed or lost), and an odd
but valid input a correct analysis. The command line runs in this process (fast); the full-disk
cases run it as a process with a file-size limit."""

import hashlib
import json
import os
import resource
import sqlite3
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

import rankwise as rw
from rankwise.errors import RankwiseError
from rankwise.experiment.store import Store


T6 = ("--example", "demsar2006_table6")
POWER = ("power", *T6, "--draws", "20", "--bias", "0,10", "--sample-size", "10")


def refused(result, *words):
    code, out, err = result
    lines = err.strip().splitlines()
    assert code == 2, (code, err)
    assert len(lines) == 1 and lines[0].startswith("rankwise: error:"), err
    for word in words:
        assert word in err, (word, err)
    return err


def md5(path):
    return hashlib.md5(path.read_bytes()).hexdigest()


# -- numbers: text, fractions for whole numbers, negatives, NaN and infinities -----------------

BAYES = ("--bayesian", "sign")
NUMBERS = [
    (("compare", *T6), "--alpha", ["abc", "nan", "inf", "-1", "0", "1"]),
    (("compare", *T6), "--decimals", ["abc", "1.5", "-1", "nan", "inf", "16"]),
    (("compare", *T6), "--bh-time-budget", ["abc", "-1", "nan", "-inf"]),
    (("compare", *T6), "--confidence", ["abc", "nan", "inf", "-1", "1"]),
    (("compare", *T6, *BAYES), "--rope", ["abc", "-1", "nan", "inf"]),
    (("compare", *T6, *BAYES), "--draws", ["abc", "1.5", "-1", "nan", "inf", "5"]),
    (("compare", *T6), "--seed", ["abc", "1.5", "-1", "nan", "inf"]),
    (("compare", *T6, *BAYES), "--threshold", ["abc", "nan", "inf", "-1", "0.3", "1"]),
    (("compare", *T6), "--top", ["abc", "1.5", "-1", "nan", "inf"]),
    (("compare", *T6), "--digits", ["abc", "1.5", "-1", "nan", "inf", "13"]),
    (POWER, "--draws", ["abc", "1.5", "-1", "nan", "inf", "1"]),
    (POWER, "--seed", ["abc", "1.5", "-1"]),
    (POWER, "--alpha", ["abc", "nan", "-1", "1"]),
    (POWER, "--power", ["abc", "nan", "1.5", "0"]),
    (POWER, "--jobs", ["abc", "1.5", "-1"]),
    (POWER, "--sample-size", ["abc", "-1", "1.5", "nan", "1", "100"]),
    (POWER, "--bias", ["abc", "nan", "inf"]),
]


@pytest.mark.parametrize("base, option, values", NUMBERS, ids=[f"{b[0]}{o}" for b, o, _ in NUMBERS])
def test_every_number_option_refuses_what_is_not_a_valid_number(capsys, base, option, values, cli):
    for value in values:
        refused(cli(*base, option, value))


def test_click_parse_errors_are_one_line_with_the_suggestion(capsys, cli):
    refused(cli("compare", *T6, "--alpah", "0.1"), "No such option: --alpah", "--alpha",
            "see rankwise compare --help")
    refused(cli("compar"), "Did you mean 'compare'?")
    refused(cli("compare", *T6, "--pair", "C4.5"), "--pair", "2 arguments")
    refused(cli("compare", *T6, "--top", "1.5"), "'--top'", "valid integer")
    code, out, _ = cli("compare", "--help")
    assert code == 0 and "Usage" in out


# -- what raised a traceback ----------------------------------------------------------------------

def test_skillings_mack_with_an_empty_cell_charts_it_as_no_values(capsys, cli):
    code, out, err = cli("compare", "--example", "amlb", "--criterion", "result",
                         "--missing", "skillings-mack")
    assert code == 0 and not err and "no values" in out
    doc = json.loads(cli("compare", "--example", "amlb", "--criterion", "result",
                         "--missing", "skillings-mack", "-f", "json")[1])
    empty = [r for rows in doc["report"]["quartiles"]["per_dataset"].values() for r in rows
             if r["n"] == 0]
    assert empty and all(r["median"] is None for r in empty)


def fold_table(path, identical=True):
    rng = np.random.default_rng(0)
    rows = []
    for d in range(6):
        for f in range(10):
            v = rng.random()
            rows += [(f"d{d}", "A", f, v), (f"d{d}", "B", f, v if identical else v + 0.01)]
    pd.DataFrame(rows, columns=["dataset", "learner", "fold", "value"]).to_csv(path, index=False)
    return path


def test_bayesian_tests_of_identical_learners(capsys, tmp_path, cli):
    path = fold_table(tmp_path / "same.csv")
    code, out, err = cli("compare", path, "--bayesian", "correlated-t", "--verdict",
                         "bayesian")
    assert code == 0 and "B and A do not differ (every difference is 0)" in " ".join(out.split())
    from rankwise.stats.bayesian import BAYESIAN

    for test in ("sign", "signed-rank"):  # no warning (errors here), and no side favoured
        r = BAYESIAN[test](np.arange(10.0), np.arange(10.0))
        assert (r.p_a, r.p_rope, r.p_b, r.decision) == (0.5, 0.0, 0.5, "undecided")
        assert "every difference is 0" in r.details["note"]


def test_negative_seeds_and_an_empty_example_name(capsys, cli):
    refused(cli("compare", "--example", "folds_demo", "-c", "accuracy", "--groups",
                "scott-knott-bootstrap", "--seed", "-1"), "seed must be a whole number")
    refused(cli(*POWER, "--seed", "-5"), "seed")
    refused(cli("compare", "--example", ""), "no bundled example named ''")
    refused(cli("power", "--example", ""), "no bundled example named ''")
    from rankwise.power import power_study

    with pytest.raises(RankwiseError, match="seed"):
        power_study(rw.load_example("demsar2006_table6"), seed=-1, draws=10)


def test_a_dask_scheduler_that_is_neither_file_nor_address(capsys, tmp_path, cli):
    pytest.importorskip("distributed")
    refused(cli(*POWER, "--dask-scheduler", tmp_path / "gone.json"),
            "neither a scheduler file that exists nor an address")


def test_scores_near_the_largest_double_are_refused_with_the_cell(capsys, tmp_path, cli):
    x = np.random.default_rng(0).uniform(-1, 1, (8, 4)) * 1.7e308
    frame = pd.DataFrame(x, columns=list("ABCD"))
    frame.insert(0, "dataset", [f"d{i}" for i in range(8)])
    frame.to_csv(tmp_path / "huge.csv", index=False)
    refused(cli("compare", tmp_path / "huge.csv"), "at most 1e+307", "for 'A' on 'd0'")
    refused(cli("power", tmp_path / "huge.csv"), "at most 1e+307")
    with pytest.raises(RankwiseError, match="at most 1e"):
        rw.friedman(np.full((4, 3), 1e308) * [[1, -1, 0.5]])


@pytest.mark.figures
def test_scores_up_to_the_bound_give_every_analysis_without_a_warning():
    """At ±1e307 (warnings are errors here): every test, family, effect size, Bayesian test,
    pool view and power study, and every format."""
    from rankwise.power import power_study
    from rankwise.report.power import json_report, text_report

    rng = np.random.default_rng(0)
    x = rng.uniform(-1, 1, (12, 4)) * 1e307
    x[:, 0] = rng.choice([-1, 1], 12) * 1e307
    table = rw.ScoreTable(values=x, datasets=tuple(f"d{i}" for i in range(12)),
                          learners=tuple("ABCD"))
    for options in ({"pair": ("A", "B"), "posthoc": "all", "effects": "all",
                     "bayesian": "signed-rank", "samples": 500},
                    {"bayesian": "sign", "samples": 500, "groups": "scott-knott-esd",
                     "mcm": "holm", "pool_check": True},
                    {"posthoc": "both", "rankings": "friedman,friedman_aligned,quade,wilcoxon,"
                     "sign,anova,friedman_conover", "procedures": "holm,nemenyi,shaffer"}):
        cmp = rw.compare(table, **options)
        cmp.to_text(), cmp.to_json(), cmp.to_latex(), cmp.to_html(), cmp.to_markdown()
    study = power_study(table, draws=20, biases=[0, 5], procedures="holm")
    text_report(study), json_report(study)


def test_python_api_mistakes_are_rankwise_errors():
    with pytest.raises(RankwiseError, match="an array of scores must be 2-D"):
        rw.compare(np.zeros((4, 3, 2)))  # a 2-D array is read (tests/test_input_contract.py)
    frame = rw.load_example("demsar2006_table6")
    with pytest.raises(RankwiseError, match="threshold"):
        rw.compare(frame, bayesian="sign", threshold="abc")
    for params in (None, [1, 2], "abc"):
        with pytest.raises(RankwiseError, match=r"cv_results_\['params'\] must be a list"):
            rw.from_search({"d": {"params": params, "split0_test_score": [0.1, 0.2]}})
    complex_table = rw.ScoreTable(values=np.ones((4, 3)) + 1j, datasets=tuple("abcd"),
                                  learners=tuple("xyz"))
    with pytest.raises(RankwiseError, match="real numbers"):
        rw.compare(complex_table)
    with pytest.raises(RankwiseError, match="real numbers"):
        rw.friedman(np.ones((4, 3)) + 1j)


# -- what was misread without a word -------------------------------------------------------------

def test_a_wide_table_saved_without_its_names(capsys, tmp_path, cli):
    path = tmp_path / "nonames.csv"
    path.write_text("A,B,C\n0.81,0.80,0.7\n0.9,0.85,0.8\n0.7,0.72,0.6\n")
    refused(cli("compare", path), "the first column, 'A', holds scores such as 0.81")
    ids = tmp_path / "ids.csv"  # whole numbers are names: OpenML task ids
    ids.write_text("task,B,C\n3,0.80,0.7\n31,0.85,0.8\n37,0.72,0.6\n")
    assert rw.load_table(ids).datasets == ("3", "31", "37")


def test_a_value_column_that_contradicts_the_criterion(capsys, cli):
    refused(cli("compare", "--example", "amlb", "--criterion", "auc", "--columns",
                "value=logloss"), "'auc' is higher-is-better", "'logloss', which is lower")
    code, out, _ = cli("compare", "--example", "amlb", "--criterion", "auc",
                       "--columns", "value=logloss", "--lower-is-better")
    assert code == 0 and "lower is better (option)" in out


def test_p_best_sentence_names_a_rival_with_the_larger_probability():
    from rankwise.analysis.bayes_verdict import BayesianVerdict, _p_best_sentence

    p_best = {"C": 0.258, "D": 0.25, "A": 0.25, "B": 0.242}
    tied = BayesianVerdict("bradley-terry", "D", 0.95, (), p_best, True, "")
    text = _p_best_sentence(tied)
    assert "but C the largest probability of being the best" in text
    assert "(others: C 0.26, A 0.25, B 0.24)" in text and "D 0.25)" not in text
    clear = BayesianVerdict("bradley-terry", "C", 0.95, (), p_best, True, "")
    assert _p_best_sentence(clear) == ("C is the best learner with probability 0.26 (next:"
                                       " D 0.25, A 0.25, B 0.24).")


def test_latex_never_makes_mathematics_of_a_name():
    x = np.random.default_rng(0).random((6, 3))
    table = rw.ScoreTable(values=x, datasets=tuple("abcdef"),
                          learners=("alpha", "chi2", "k = 5"))
    tex = rw.compare(table).to_latex()
    assert "$\\alpha$ &" not in tex and "$\\chi^2$ &" not in tex
    assert "alpha & chi2 & k = 5" in tex
    assert "$\\alpha = 0.05$" in tex  # the level is still typeset


def test_bookkeeping_columns_are_no_criterion(capsys, cli):
    for example in ("amlb", "amlb_older"):
        err = refused(cli("compare", "--example", example, "--criterion", "seed"),
                      "'seed' is a bookkeeping column")
        assert "_row" not in err


def test_settings_that_nothing_reads_are_refused(capsys, cli):
    refused(cli("compare", *T6, "--posthoc", "all", "--control", "C4.5"),
            "--posthoc both")
    refused(cli("compare", *T6, "--rope", "0.01"), "add --bayesian")
    refused(cli("compare", *T6, "--threshold", "0.9"), "add --bayesian")
    refused(cli("compare", *T6, "--bayesian", "plackett-luce", "--rope", "-1"), "ROPE")
    refused(cli("compare", *T6, "--bayesian", "plackett-luce", "--rope", "0.01"),
            "no region of practical equivalence")
    refused(cli("compare", *T6, "--bayesian", "bradley-terry", "--draws", "5"),
            "draws its own posterior")
    refused(cli("compare", *T6, "--bayesian", "correlated-t", "--draws", "1000"),
            "closed form")
    refused(cli("compare", *T6, "--bh-time-budget", "-1"), "seconds")


# -- files -----------------------------------------------------------------------------------------

def test_a_foreign_sqlite_file_is_left_as_it_was(capsys, tmp_path, cli):
    path = tmp_path / "other.sqlite"
    db = sqlite3.connect(path)
    db.execute("create table users (id int, name text)")
    db.execute("insert into users values (1, 'x')")
    db.commit()
    db.close()
    before = md5(path)
    refused(cli("run", "--example", "demo", "--results", path),
            "an SQLite database of something else (its tables: users)")
    assert md5(path) == before and sorted(p.name for p in tmp_path.iterdir()) == ["other.sqlite"]
    assert sqlite3.connect(path).execute("pragma journal_mode").fetchone()[0] == "delete"


def test_destinations_are_checked_before_any_work(capsys, tmp_path, cli):
    os.chdir(tmp_path)
    (tmp_path / "afile").write_text("mine")
    refused(cli("compare", *T6, "--report", ""), "--report needs the name of a folder")
    refused(cli("compare", *T6, "--report", "afile"), "is a file; give a folder")
    refused(cli("compare", *T6, "-o", "afile/x.txt"), "afile is a file, not a folder")
    refused(cli("compare", *T6, "--report", "new", "--latex-fragment"),
            "--latex-fragment goes with --format latex")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile"]
    db = results_db(tmp_path / "r.sqlite", 2)
    refused(cli("export", db, "-o", "afile/x.csv"), "afile is a file, not a folder")


def results_db(path, datasets):
    store = Store(path)
    try:
        for d in range(datasets):
            for fold in range(10):
                for learner in ("A", "B", "C"):
                    store.record((f"data set {d}", 0, fold, learner), "done",
                                 {"accuracy": (0.5 + 0.01 * fold, None),
                                  "f1": (0.4 + 0.01 * d, None)})
    finally:
        store.close()
    return path


#: The command line in a process that may write files of at most LIMIT bytes: beyond, the
#: disk is full (writes fail with EFBIG instead of the process being killed by SIGXFSZ). Set in
#: the child itself, so that this process (which may hold JAX's threads) never forks.
LIMITED = ("import resource, runpy, signal, sys; limit = int(sys.argv.pop(1));"
           " signal.signal(signal.SIGXFSZ, signal.SIG_IGN);"
           " resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit));"
           " sys.argv[0] = 'rankwise'; runpy.run_module('rankwise.cli', run_name='__main__')")


def limited(*args, limit=40_000):
    """``rankwise ARGS`` with a full disk beyond ``limit`` bytes a file."""
    return subprocess.run([sys.executable, "-c", LIMITED, str(limit), *map(str, args)],
                          capture_output=True, text=True, timeout=300)


@pytest.mark.subprocess
@pytest.mark.skipif(not hasattr(resource, "RLIMIT_FSIZE"), reason="needs a file-size limit")
def test_a_full_disk_leaves_no_truncated_file(tmp_path):
    old = tmp_path / "report.html"
    old.write_text("the report of yesterday")
    out = limited("compare", *T6, "-f", "html", "-o", old)
    assert out.returncode == 2 and "nothing was written" in out.stderr, out.stderr
    assert old.read_text() == "the report of yesterday"
    folder = tmp_path / "rep"
    folder.mkdir()
    (folder / "report.txt").write_text("kept")
    out = limited("compare", *T6, "--report", folder)
    assert out.returncode == 2 and "nothing in it was changed" in out.stderr, out.stderr
    assert sorted(p.name for p in folder.iterdir()) == ["report.txt"]
    assert (folder / "report.txt").read_text() == "kept"
    db = results_db(tmp_path / "r.sqlite", 40)
    csv = tmp_path / "x.csv"
    csv.write_text("old export")
    out = limited("export", db, "-o", csv)
    assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
    assert csv.read_text() == "old export"
    left = sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("r.sqlite"))
    assert left == ["rep", "report.html", "x.csv"]  # no temporary file left behind


# -- warnings, hangs, unclear errors ------------------------------------------------------------

def test_bayesian_pairs_are_bounded_like_the_effect_sizes():
    x = np.round(np.random.default_rng(0).random((12, 101)), 3)  # 5,050 pairs
    table = rw.ScoreTable(values=x, datasets=tuple(f"d{i}" for i in range(12)),
                          learners=tuple(f"L{j}" for j in range(101)))
    cmp = rw.compare(table, posthoc="all", bayesian="sign", samples=200)
    assert len(cmp.bayesian) == 100
    assert any("not on all 5,050 pairs" in note for note in cmp.notes)


def test_unclear_messages_made_plain(capsys, tmp_path, cli):
    (tmp_path / "r.json").write_text('{"schema": "rankwise.compare/2"}')
    refused(cli("compare", tmp_path / "r.json"), "a JSON file")
    (tmp_path / "inf.csv").write_text("dataset,A,B\nd1,inf,1\nd2,1,2\n")
    err = refused(cli("compare", tmp_path / "inf.csv"), "the value inf is infinite")
    assert "np.float64" not in err
    (tmp_path / "long.csv").write_text("ds,algo,score\nd1,A,0.8\nd1,B,0.7\nd2,A,0.8\n"
                                       "d2,B,0.6\n")
    refused(cli("compare", tmp_path / "long.csv"),
            "--columns dataset=ds,learner=algo,value=score")
    err = refused(cli("compare", tmp_path / "long.csv", "--columns", "value=score"),
                  "the table's columns are ds, algo, score")
    assert "_row" not in err
    x = np.random.default_rng(0).random((60, 12))
    with pytest.raises(RankwiseError, match="--friedman-method monte-carlo"):
        rw.friedman(x, method="exact")


# --- outputs that would destroy inputs, and writes that replace what they should write into --

def _small_results(tmp_path):
    from rankwise.experiment.design import experiment_from_dict
    from rankwise.experiment.driver import run_experiment

    db = tmp_path / "results.sqlite"
    run_experiment(experiment_from_dict({
        "experiment": {"repeats": 1, "folds": 2, "seed": 1, "criteria": ["accuracy"]},
        "datasets": [{"source": "sklearn", "name": "iris"}, {"source": "sklearn", "name": "wine"}],
        "learners": [{"name": "NB", "estimator": "sklearn.naive_bayes.GaussianNB"},
                     {"name": "CART", "estimator": "sklearn.tree.DecisionTreeClassifier"}]}),
        db, jobs=0)
    return db


@pytest.fixture
def table_file(tmp_path):
    t = rw.load_example("garcia2008")
    path = tmp_path / "in.csv"
    pd.DataFrame(t.values, index=t.datasets, columns=t.learners).to_csv(
        path, index_label="dataset")
    return path


def _untouched(cli, args, paths, words):
    """The command refuses in one line, exit 2, and every file in ``paths`` keeps its bytes."""
    before = {p: p.read_bytes() for p in paths if p.exists()}
    listing = sorted(p.name for p in paths[0].parent.iterdir())
    code, out, err = cli(*args)
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert err.startswith("rankwise: error:") and words in err, err
    assert {p: p.read_bytes() for p in before} == before
    assert sorted(p.name for p in paths[0].parent.iterdir()) == listing  # nothing written


@pytest.mark.parametrize("spelled", ["same", "relative", "symlink", "hardlink"])
@pytest.mark.parametrize("option", ["-o", "--pairs"])
def test_compare_never_writes_over_its_input(cli, table_file, spelled, option):
    tmp = table_file.parent
    (tmp / "sub").mkdir()
    target = {"same": table_file, "relative": tmp / "sub" / ".." / "in.csv",
              "symlink": tmp / "link.csv", "hardlink": tmp / "hard.csv"}[spelled]
    if spelled == "symlink":
        target.symlink_to(table_file)
    if spelled == "hardlink":
        os.link(table_file, target)
    extra = ["--posthoc", "all"] if option == "--pairs" else []
    _untouched(cli, ["compare", table_file, *extra, option, target], [table_file],
               "writing it would replace what is read")


def test_two_outputs_of_one_command_never_share_a_file(cli, table_file):
    same = table_file.parent / "same.csv"
    _untouched(cli, ["compare", table_file, "--posthoc", "all", "--pairs", same, "-o", same],
               [table_file], "-o and --pairs name the same file")
    _untouched(cli, ["race", table_file, "-o", table_file.parent / "r.svg", "--figure",
                     table_file.parent / "r.svg"], [table_file], "name the same file")
    folder = table_file.parent / "rep"
    folder.mkdir()
    for command in (["power", table_file, "--draws", "20"], ["compare", table_file]):
        _untouched(cli, [*command, "--report", folder, "-o", folder / "report.txt"],
                   [table_file], "which is written")
    # the power study's folder writes power.txt and power.json: -o cannot be one of them
    for name in ("power.txt", "power.json"):
        _untouched(cli, ["power", table_file, "--draws", "20", "--report", folder, "-o",
                         folder / name], [table_file], "which is written")


@pytest.mark.figures
def test_a_report_folder_never_writes_over_an_input(cli, tmp_path, table_file):
    inside = tmp_path / "rep"
    inside.mkdir()
    kept = inside / "report.csv"
    kept.write_bytes(table_file.read_bytes())
    _untouched(cli, ["compare", kept, "--report", inside], [kept], "would write over the input")
    # a table beside the report under a name the report does not write is fine
    other = inside / "scores.csv"
    other.write_bytes(table_file.read_bytes())
    assert cli("compare", other, "--report", inside).code == 0
    assert other.read_bytes() == table_file.read_bytes()


@pytest.mark.experiment
def test_race_power_export_and_leaderboard_never_write_over_their_input(cli, tmp_path, table_file):
    _untouched(cli, ["race", table_file, "-o", table_file], [table_file], "is the input")
    _untouched(cli, ["race", table_file, "--figure", table_file], [table_file], "is the input")
    _untouched(cli, ["power", table_file, "--draws", "20", "-o", table_file], [table_file],
               "is the pool")
    _untouched(cli, ["leaderboard", table_file, "--draws", "5", "-o", table_file],
               [table_file], "is the input")
    _untouched(cli, ["leaderboard", table_file, "--draws", "5", "--figure", table_file],
               [table_file], "is the input")
    _untouched(cli, ["leaderboard", table_file, "--draws", "5", "--figure",
                     tmp_path / "a.svg", "--matrix-figure", tmp_path / "a.svg"], [table_file],
               "name the same file")
    db = _small_results(tmp_path)
    for fmt in ("csv", "weka", "parquet"):
        _untouched(cli, ["export", db, "-f", fmt, "-o", db], [db, table_file],
                   "is the results database")


#: Every command's files, each written where it would replace what the command reads (or,
#: for a folder the command reads, inside it): ``(input name, arguments, the words refused)``;
#: ``IN`` is the input's path, ``DIR`` the folder a report or a file lands in.
OWN_INPUT = {
    "compare -o": ("in.csv", ["compare", "IN", "-o", "IN"], "is the input"),
    "compare --report": ("rep/report.csv", ["compare", "IN", "--report", "DIR"],
                         "would write over the input"),
    "items -o": ("items.csv", ["compare", "IN", "--items", "-o", "IN"], "is the input"),
    "items --report in the folder": ("lm", ["compare", "IN", "--items", "--report",
                                            "IN/rep"], "is inside the input folder"),
    "items -o in the folder": ("lm", ["compare", "IN", "--items", "-o", "IN/x.txt"],
                               "is inside the input folder"),
    "fronts -o": ("crit.csv", ["compare", "IN", "--criteria", "accuracy,fit_time", "-o",
                               "IN"], "is the input"),
    "fronts --report": ("rep/report.csv", ["compare", "IN", "--criteria", "accuracy,fit_time",
                                           "--report", "DIR"], "would write over the input"),
    "leaderboard --matrix-figure": ("in.csv", ["leaderboard", "IN", "--matrix-figure", "IN"],
                                    "is the input"),
    "leaderboard --report": ("rep/board.csv", ["leaderboard", "IN", "--report", "DIR"],
                             "would write over the input"),
    "leaderboard --report in the folder": ("lm", ["leaderboard", "IN", "--report", "IN/rep"],
                                           "is inside the input folder"),
    "leaderboard --figure in the folder": ("lm", ["leaderboard", "IN", "--figure",
                                                  "IN/f.svg"], "is inside the input folder"),
    "curves -o": ("curves.csv", ["curves", "IN", "-o", "IN"], "is the curves"),
    "curves --export -o": ("curves.csv", ["curves", "IN", "--export", "aocc", "-o", "IN"],
                           "is the curves"),
    "curves --figure": ("curves.csv", ["curves", "IN", "--figure", "IN"], "is the curves"),
    "curves --cd-figure": ("curves.csv", ["curves", "IN", "--cd-figure", "IN"],
                           "is the curves"),
    "curves --report": ("rep/report.csv", ["curves", "IN", "--report", "DIR"],
                        "would write over the curves"),
    "curves --report in the folder": ("ioh", ["curves", "IN", "--report", "IN/rep"],
                                      "is inside the input folder"),
    "race --report": ("rep/report.csv", ["race", "IN", "--report", "DIR"],
                      "would write over the input"),
    "audit -o": ("board.md", ["audit", "IN", "-o", "IN"], "is the board"),
    "audit --report": ("rep/report.md", ["audit", "IN", "--report", "DIR"],
                       "would write over the board"),
    "power --report": ("rep/power.txt", ["power", "IN", "--report", "DIR"],
                       "would write over the pool"),
}


@pytest.mark.parametrize("case", sorted(OWN_INPUT))
def test_no_command_writes_over_or_into_what_it_reads(cli, tmp_path, case):
    """-o, every figure option and --report DIR of every command: refused in one line, exit 2,
    before anything is written, when the file is the command's input or lies in the folder it
    reads (a report inside an IOHprofiler folder would be read with it the next time)."""
    import shutil
    from pathlib import Path

    examples = Path(rw.__file__).parent / "examples"
    data = Path(__file__).parent / "data"
    sources = {"in.csv": examples / "garcia2008_table2_accuracy.csv",
               "items.csv": examples / "evals_items.csv",
               "crit.csv": examples / "demo_results.csv",
               "curves.csv": examples / "learning_curves.csv",
               "board.md": data / "items" / "board_to_markdown.md",
               "lm": data / "items" / "lm_eval", "ioh": data / "curves" / "ioh"}
    name, args, words = OWN_INPUT[case]
    given = tmp_path / name
    given.parent.mkdir(exist_ok=True)
    kind = {"compare": "in.csv", "race": "in.csv", "power": "in.csv", "leaderboard": "in.csv",
            "curves": "curves.csv", "audit": "board.md"}[args[0]]
    kind = "crit.csv" if "--criteria" in args else "items.csv" if "--items" in args else kind
    source = sources.get(name, sources[kind])
    if source.is_dir():
        shutil.copytree(source, given)
    else:
        shutil.copy(source, given)
    args = [str(given) + a[2:] if a.startswith("IN") else str(given.parent) if a == "DIR"
            else a for a in args]
    before = {p: (p.read_bytes() if p.is_file() else None) for p in tmp_path.rglob("*")}
    refused(cli(*args), words)
    assert {p: (p.read_bytes() if p.is_file() else None) for p in tmp_path.rglob("*")} == before


def test_an_output_that_is_a_link_a_pipe_or_a_device_stays_what_it_is(cli, tmp_path,
                                                                       table_file):
    import stat
    import threading

    target = tmp_path / "target.txt"
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    assert cli("compare", table_file, "-o", link).code == 0
    assert link.is_symlink() and target.read_text().startswith("rankwise report")
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    got = {}
    reader = threading.Thread(target=lambda: got.setdefault("text", pipe.read_text()))
    reader.start()
    assert cli("compare", table_file, "-o", pipe).code == 0
    reader.join(10)
    assert got["text"].startswith("rankwise report") and stat.S_ISFIFO(os.stat(pipe).st_mode)
    if os.path.exists("/dev/full"):
        code, _, err = cli("compare", table_file, "-o", "/dev/full")
        assert code == 2 and "No space left on device" in err
        assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


@pytest.mark.figures
def test_written_files_get_the_umask_mode_or_keep_their_own(cli, tmp_path, table_file):
    old = os.umask(0o022)
    try:
        fresh = tmp_path / "fresh.txt"
        assert cli("compare", table_file, "-o", fresh).code == 0
        assert oct(os.stat(fresh).st_mode & 0o777) == oct(0o644)
        os.chmod(fresh, 0o640)
        assert cli("compare", table_file, "-o", fresh).code == 0
        assert oct(os.stat(fresh).st_mode & 0o777) == oct(0o640)
        report = tmp_path / "report"
        assert cli("compare", table_file, "--report", report).code == 0
        assert {oct(p.stat().st_mode & 0o777) for p in report.iterdir()} == {oct(0o644)}
        pairs = tmp_path / "pairs.csv"
        assert cli("compare", table_file, "--posthoc", "all", "--pairs", pairs).code == 0
        assert oct(os.stat(pairs).st_mode & 0o777) == oct(0o644)
    finally:
        os.umask(old)


SEED_COMMANDS = (["race"], ["compare", "--rank-sets", "ranks"], ["power", "--draws", "20"])


@pytest.mark.parametrize("seed", [-1, float("nan"), True])
def test_every_seed_option_refuses_a_bad_seed_in_one_line(cli, table_file, seed):
    with pytest.raises(RankwiseError, match="seed"):
        rw.race(rw.load_example("garcia2008"), seed=seed)
    if isinstance(seed, int) and not isinstance(seed, bool):
        for command in SEED_COMMANDS:
            code, _, err = cli(command[0], table_file, *command[1:], "--seed", seed)
            assert code == 2 and len(err.strip().splitlines()) == 1 and "seed" in err, err


#: Every command with a seed, on a bundled input (the curves', items' and fronts' included).
EVERY_SEED_COMMAND = {
    "compare": ["compare", "--example", "garcia2008", "--rank-sets", "ranks"],
    "items": ["compare", "--example", "evals"],
    "fronts": ["compare", "--example", "demo_results", "-c", "accuracy,fit_time"],
    "curves": ["curves", "--example", "learning"],
    "leaderboard": ["leaderboard", "--example", "garcia2008", "--draws", "5"],
    "race": ["race", "--example", "garcia2008"],
    "power": ["power", "--example", "garcia2008", "--draws", "20"],
    "gate": ["gate", "--example", "nightly", "--test", "permutation", "--draws", "100"],
}


@pytest.mark.parametrize("seed", [-1, 2 ** 64, 2 ** 70])
@pytest.mark.parametrize("command", sorted(EVERY_SEED_COMMAND))
def test_every_seed_option_refuses_a_seed_outside_0_to_2_64_minus_1(cli, command, seed):
    """One range for every seed, 0 to 2**64 - 1 (rankwise.defaults.SEED_MAX): outside it,
    one line before any work, in every command."""
    refused(cli(*EVERY_SEED_COMMAND[command], "--seed", seed),
            "--seed must be a whole number from 0 to 2**64 - 1")


def test_the_largest_seed_is_a_seed_of_every_command(cli, table_file):
    from rankwise.defaults import SEED_MAX

    assert SEED_MAX == 2 ** 64 - 1
    for command in SEED_COMMANDS:
        code, _, err = cli(command[0], table_file, *command[1:], "--seed", SEED_MAX)
        assert code == 0, err


def _seeded_calls() -> dict:
    """Every public function with a seed, on a small bundled input."""
    from pathlib import Path

    from rankwise.power import power_study
    from rankwise.stats.exact import friedman_permutation_pvalue
    from rankwise.stats.ranking import rank_within_datasets

    t = rw.load_example("garcia2008")
    x, ranks = t.values, rank_within_datasets(t.values)
    holes = x.copy()
    holes[0, 0] = holes[3, 2] = np.nan
    examples = Path(rw.__file__).parent / "examples"
    return {
        "race": lambda s: rw.race(t, seed=s),
        "leaderboard": lambda s: rw.leaderboard(t, draws=5, seed=s),
        "kendalls_w": lambda s: rw.kendalls_w(t, seed=s),
        "mean_rank_intervals": lambda s: rw.mean_rank_intervals(ranks, draws=50, seed=s),
        "mean_rank_sets": lambda s: rw.mean_rank_sets(ranks, draws=100, seed=s),
        "skillings_mack": lambda s: rw.skillings_mack(holes, permutation=True,
                                                      replicates=50, seed=s),
        "friedman_permutation_pvalue": lambda s: friedman_permutation_pvalue(
            ranks, method="monte-carlo", replicates=50, seed=s),
        "bayesian_sign_test": lambda s: rw.bayesian_sign_test(x[:, 0], x[:, 1], seed=s),
        "compare_items": lambda s: rw.compare_items(
            rw.read_items(examples / "evals_items.csv"), seed=s),
        "compare_curves": lambda s: rw.compare_curves(
            examples / "learning_curves.csv", higher_is_better=True, draws=20, seed=s),
        "compare_criteria": lambda s: rw.compare_criteria(
            [rw.load_example("demo_results", criterion=c) for c in ("accuracy", "fit_time")],
            ["accuracy", "fit_time"], draws=20, seed=s),
        "power_study": lambda s: power_study(t, draws=10, biases=[0], sample_size=[10],
                                             seed=s),
    }


@pytest.mark.parametrize("name", sorted(_seeded_calls()))
def test_every_function_takes_seeds_from_0_to_2_64_minus_1(name):
    """The top of the range is a seed of every function with one; one more, and -1, are
    refused in one line (mean_rank_intervals, skillings_mack and the Friedman Monte Carlo
    gave numpy's ValueError for -1)."""
    from rankwise.defaults import SEED_MAX

    call = _seeded_calls()[name]
    assert call(SEED_MAX) is not None
    for bad in (-1, SEED_MAX + 1):
        with pytest.raises(RankwiseError, match="seed must be a whole number from 0 to 2"):
            call(bad)


def test_race_checks_every_option_before_it_speaks(cli, table_file):
    for options, words in ((["--alpha", "0"], "alpha"), (["--goal", "top:99"], "goal"),
                           (["--seed", "-1"], "seed")):
        code, _, err = cli("race", table_file, *options)
        assert code == 2 and len(err.strip().splitlines()) == 1 and words in err, err


def test_ragged_rows_and_complex_scores_are_refused_in_one_line():
    with pytest.raises(RankwiseError, match="different lengths"):
        rw.compare([[0.1, 0.2, 0.3], [0.4, 0.5]])
    frame = pd.DataFrame({"a": [1 + 1j, 2, 3, 4], "b": [1, 2, 3, 5], "c": [2, 2, 2, 2]})
    with pytest.raises(RankwiseError, match="complex numbers"):
        rw.compare(frame)


def test_the_removed_dict_and_tuple_access_says_what_to_use_instead():
    """0.5's forms (deprecated in 0.6, removed in 0.9): every one of them raises a TypeError
    that names the attributes and to_dict()."""
    table = rw.load_example("garcia2008")
    results = [rw.critical_difference(5, 30), rw.win_tie_loss(table.values[:, 0],
                                                              table.values[:, 1])]
    forms = [lambda r: r["cd"], lambda r: list(r), lambda r: len(r), lambda r: r.values(),
             lambda r: r.keys(), lambda r: r.items(), lambda r: r.get("cd"), lambda r: "cd" in r,
             lambda r: tuple(r)]
    for result in results:
        assert bool(result)
        for form in forms:
            with pytest.raises(TypeError, match=r"is read by its attributes \(\..*\) or"
                                                r" \.to_dict\(\)"):
                form(result)


@pytest.mark.experiment
def test_parquet_and_feather_are_read_wherever_a_csv_is(cli, tmp_path, table_file):
    frame = pd.read_csv(table_file)
    frame.to_parquet(tmp_path / "t.parquet", index=False)
    frame.to_feather(tmp_path / "t.feather")
    frame.set_index("dataset").to_parquet(tmp_path / "indexed.parquet")
    want = rw.compare(str(table_file)).tests["friedman"].pvalue
    for name in ("t.parquet", "t.feather", "indexed.parquet"):
        got = rw.compare(str(tmp_path / name))
        assert got.tests["friedman"].pvalue == want and got.table.n_datasets == 30
        assert list(got.table.datasets) == list(frame["dataset"])
    # rankwise's own export reads back as the results database does
    db = _small_results(tmp_path)
    assert cli("export", db, "-f", "parquet", "-o", tmp_path / "long.parquet").code == 0
    back = rw.load_table(str(tmp_path / "long.parquet"), criterion="accuracy")
    same = rw.load_table(str(db), criterion="accuracy")
    assert back.learners == same.learners and np.array_equal(back.values, same.values)
    code, out, err = cli("race", tmp_path / "t.parquet", "--order", "given")
    assert code == 0, err
    code, _, err = cli("compare", tmp_path / "t.parquet", "--sep", ";")
    assert code == 2 and "no separator or decimal mark" in err


def test_a_grid_criterion_the_input_does_not_have_is_refused(cli, table_file):
    with pytest.raises(RankwiseError, match="names the criterion 'nope', which the input does"
                                            " not have"):
        rw.compare(rw.load_example("folds_demo", criterion="accuracy"),
                   multiverse={"criterion": ["accuracy", "nope"]})
    grid = table_file.parent / "grid.toml"
    grid.write_text('[grid]\ncriterion = ["nope"]\n')
    code, _, err = cli("compare", table_file, "--multiverse", grid)
    assert code == 2 and "the input does not have" in err and len(err.strip().splitlines()) == 1


def test_the_dataset_check_refuses_names_that_do_not_fit_and_scores_for_ranks():
    t = rw.load_example("garcia2008")
    ranks = rw.rank_within_datasets(t)
    with pytest.raises(RankwiseError, match="5 learners, but 30 data set and 2 learner names"):
        rw.dataset_check(ranks, ["a", "b"], t.datasets)
    with pytest.raises(RankwiseError, match="not scores"):
        rw.dataset_check(t.values, t.learners, t.datasets)
    with pytest.raises(RankwiseError, match="matrix of ranks"):
        rw.dataset_check(ranks[0], t.learners, t.datasets)


# Every entry point of the API that takes a matrix or two vectors, with a ragged list, a wrong
# shape and a wrong kind of values: one RankwiseError line each, never numpy's ValueError, an
# IndexError or a ComplexWarning (the ranks and p-value matrices included).
_RANKS = [[1, 2, 3], [2, 1, 3], [1, 3, 2], [3, 2, 1], [1, 2, 3]]
_P = [[1, 0.01, 0.2], [0.01, 1, 0.3], [0.2, 0.3, 1]]
MATRIX_ENTRY_POINTS = {
    **{name: (lambda name: lambda x: getattr(rw, name)(x))(name) for name in (
        "compare", "race", "friedman", "iman_davenport", "friedman_aligned", "quade", "rm_anova",
        "mean_ranks", "rank_within_datasets", "pairwise_statistics", "mean_rank_intervals",
        "mean_rank_sets", "contrast_estimation", "skillings_mack", "aligned_ranks",
        "quade_weights")},
    "multi_comparison_matrix": lambda x: rw.multi_comparison_matrix(x, ["a", "b", "c"]),
    "scott_knott_esd": lambda x: rw.scott_knott_esd(x, ["a", "b", "c"]),
    "tukey_dunnett": lambda x: rw.tukey_dunnett(x, 0),
    "multiple_sign_test": lambda x: rw.multiple_sign_test(x, 0),
    "dataset_check": lambda x: rw.dataset_check(x, ["a", "b", "c"], list("vwxyz")),
    "bergmann_hommel": lambda x: rw.bergmann_hommel(x),
}
BAD_MATRICES = {"ragged": [[0.1, 0.2, 0.3], [0.4, 0.5]], "ragged-arrays": [np.ones(3), np.ones(2)],
                "1-D": [0.1, 0.2, 0.3, 0.4], "3-D": np.ones((3, 4, 2)),
                "strings": [["a", "b", "c"]] * 5, "complex": np.ones((5, 3)) * (1 + 1j),
                "empty": np.zeros((0, 3))}
PAIR_ENTRY_POINTS = ("wilcoxon", "sign_test", "paired_ttest", "cliffs_delta", "cohens_dz",
                     "hodges_lehmann", "win_tie_loss", "probability_of_superiority",
                     "effect_sizes", "bayesian_sign_test", "bayesian_signed_rank_test",
                     "correlated_t_test")
_V = np.linspace(0.5, 0.9, 8)
BAD_PAIRS = {"unequal": (_V, _V[:5]), "2-D": (np.ones((4, 2)), np.ones((4, 2))),
             "strings": (["a"] * 8, ["b"] * 8), "complex": (_V * 1j, _V), "empty": ([], [])}


def _refused_in_one_line(call):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")     # a ComplexWarning or RuntimeWarning fails the test
        with pytest.raises(RankwiseError) as caught:
            call()
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("name", sorted(MATRIX_ENTRY_POINTS))
def test_every_matrix_entry_point_refuses_bad_matrices_in_one_line(name):
    call = MATRIX_ENTRY_POINTS[name]
    good = _P if name == "bergmann_hommel" else _RANKS
    call(good)   # the call itself is right: what follows fails on the matrix alone
    for what, x in BAD_MATRICES.items():
        _refused_in_one_line(lambda: call(x))


@pytest.mark.parametrize("name", PAIR_ENTRY_POINTS)
def test_every_two_learner_entry_point_refuses_bad_vectors_in_one_line(name):
    fn = getattr(rw, name)
    extra = {"folds": 4} if name == "correlated_t_test" else {}
    fn(_V, _V[::-1], **extra)
    for what, (a, b) in BAD_PAIRS.items():
        _refused_in_one_line(lambda: fn(a, b, **extra))
