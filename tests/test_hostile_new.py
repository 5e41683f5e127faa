"""Hostile input by class, through the command line and the Python functions: a wrong
analysis that exited 0, an option silently ignored, a traceback, partial output left behind
an error, valid input refused. Each case of the command line must end with exit 2, exactly
one line on stderr that names the option or the path, no traceback, and no file written."""

import json
import shutil
import sqlite3
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import rankwise as rw
from rankwise.errors import RankwiseError

DATA = Path(__file__).parent / "data"
LEARNING = ("curves", "--example", "learning")
FOLDS = ("compare", "--example", "folds_demo")


#: The longest an error may be: three lines of an 80-column terminal, wrapped at spaces (each
#: path counted as its file name: the user chose its folders' names).
ERROR_LINES_AT_80 = 3


def fits_a_terminal(line: str) -> None:
    """The rule for every error line: on an 80-column terminal it wraps (rankwise wraps it
    there, at spaces) into at most three lines, and the wrapped lines hold the whole line."""
    import re

    from rankwise.cli.driver import error_lines

    named = re.sub(r"(?<![\w.])/(?:[^/\s]+/)+", "", line)
    wrapped = error_lines(named, 80)
    assert len(wrapped) <= ERROR_LINES_AT_80, "\n".join(wrapped)
    assert " ".join(w.strip() for w in wrapped) == named


def refused(ran, *words, folder=None):
    """Exit 2, one ``rankwise: error:`` line holding every word and fitting three lines of an
    80-column terminal, no traceback, and (when ``folder`` is given) nothing written there but
    the inputs."""
    code, out, err = ran
    lines = err.strip().splitlines()
    assert code == 2, (code, err[-2000:])
    assert len(lines) == 1 and lines[0].startswith("rankwise: error:"), err[-2000:]
    fits_a_terminal(lines[0])
    assert "Traceback" not in err + out
    for word in words:
        assert str(word) in lines[0], (word, lines[0])
    if folder is not None:
        left = sorted(p.name for p in Path(folder).rglob("*") if p.name.startswith(("out",
                                                                                   ".")))
        assert not left, left
    return lines[0]


# -- inputs shared by the cases: written into the test's folder ----------------------------------

def item_table(folder: Path, **columns) -> Path:
    rng = np.random.default_rng(0)
    rows = [(m, t, i, int(rng.random() < 0.5), i % 3) for m in "ABC" for t in ("t1", "t2")
            for i in range(20)]
    frame = pd.DataFrame(rows, columns=["model", "task", "item", "score", "grp"])
    for name, values in columns.items():
        frame[name] = values
    path = folder / "items.csv"
    frame.to_csv(path, index=False)
    return path


def board(folder: Path, text: str, name: str = "board.csv") -> Path:
    path = folder / name
    path.write_text(text)
    return path


def wide_table(folder: Path) -> Path:
    rng = np.random.default_rng(1)
    path = folder / "wide.csv"
    pd.DataFrame({"dataset": [f"d{i}" for i in range(6)], **{k: rng.random(6) for k in "ABC"}}
                 ).to_csv(path, index=False)
    return path


# -- wrong analysis, exit 0: every such option or input is now one line ---------------------------

WRONG_OPTIONS = [
    (LEARNING + ("--aocc-bounds", "1,0"), "--aocc-bounds"),
    (LEARNING + ("--aocc-bounds", "0,1", "--value-scale", "log"), "--aocc-bounds"),
    (LEARNING + ("--tolerance", "-1"), "--tolerance"),
    (LEARNING + ("--tolerance", "nan"), "--tolerance"),
    (LEARNING + ("--targets", "nan"), "--targets"),
    (LEARNING + ("--targets", "0"), "--targets"),
    (LEARNING + ("--budgets", "nan"), "--budgets"),
    (LEARNING + ("--budgets", "0.5,inf"), "--budgets"),
    (LEARNING + ("--export", "nan"), "--export"),
    (LEARNING + ("--export", "-1"), "--export"),
    (LEARNING + ("--alpha", "0"), "--alpha"),
    (LEARNING + ("--confidence", "1"), "--confidence"),
    (LEARNING + ("--aocc-budget", "-1"), "--aocc-budget"),
    (LEARNING + ("--aocc-budget", "nan"), "--aocc-budget"),
    (("leaderboard", "--example", "garcia2008", "--alpha", "0"), "alpha"),
    (("compare", "--example", "evals", "--alpha", "0"), "alpha"),
    (FOLDS + ("--criteria", "accuracy,runtime", "--alpha", "0"), "alpha"),
    (("compare", "--example", "garcia2008", "--alpha", "0.1", "--alpha", "0.2"), "--alpha"),
]


@pytest.mark.parametrize("args, word", WRONG_OPTIONS, ids=[" ".join(a[1:]) for a, _ in
                                                           WRONG_OPTIONS])
def test_an_option_that_made_a_wrong_analysis_is_refused(cli, tmp_path, args, word):
    refused(cli(*args, "-o", tmp_path / "out.txt"), word, folder=tmp_path)


BOARDS = {
    "duplicate model": ("model,MATH,GSM\nA,0.500,0.25\nB,0.250,0.75\nA,0.750,0.5\n", (),
                        "model 'A'"),
    "duplicate task": ("model,MATH,MATH\nA,0.500,0.25\nB,0.250,0.75\nC,0.750,0.5\n", (),
                       "task 'MATH'"),
    "duplicate task, markdown": ("| model | MATH | MATH |\n|---|---|---|\n| A | 0.5 | 0.25 |\n"
                                 "| B | 0.25 | 0.75 |\n", (), "task 'MATH'"),
    "repeated count": ("model,MATH,GSM\nA,0.500,0.25\nB,0.250,0.75\nC,0.750,0.5\n",
                       ("--counts", "MATH=4,MATH=8"), "MATH twice"),
    "repeated --counts": ("model,MATH,GSM\nA,0.500,0.25\nB,0.250,0.75\nC,0.750,0.5\n",
                          ("--counts", "MATH=4", "--counts", "MATH=8"), "--counts"),
    "count no score fits": ("model,MATH,GSM\nA,0.333,0.25\nB,0.200,0.75\nC,0.700,0.5\n",
                            ("--counts", "MATH=4"), "MATH=4"),
    "fractional count": ("model,MATH,GSM\nA,0.500,0.25\nB,0.250,0.75\nC,0.750,0.5\n",
                         ("--counts", "MATH=4.5"), "--counts"),
}


@pytest.mark.parametrize("case", sorted(BOARDS))
def test_an_audit_of_a_contradictory_board_is_refused(cli, tmp_path, case):
    text, options, word = BOARDS[case]
    name = "board.md" if text.startswith("|") else "board.csv"
    refused(cli("audit", board(tmp_path, text, name), *options, "-o", tmp_path / "out.txt"),
            word, folder=tmp_path)


def test_a_count_every_printed_score_fits_is_taken():
    frame = pd.DataFrame({"model": ["A", "B", "C"], "MATH": ["0.500", "0.250", "0.750"],
                          "GSM": ["0.25", "0.75", "0.5"]})
    from rankwise.analysis.audit import audit

    assert audit(frame, counts={"MATH": 8}).tasks[0].n == 8
    assert audit(frame, counts={"MATH": 8.0}).tasks[0].n == 8


def test_items_options_that_pick_nothing_are_refused(cli, tmp_path):
    items = item_table(tmp_path)
    refused(cli("compare", items, "--items", "--cluster", "nope"), "--cluster", "nope",
            str(items))
    refused(cli("compare", items, "--items", "--item-filter", "strict"), "--item-filter")
    lm_eval = DATA / "items" / "lm_eval"
    refused(cli("compare", lm_eval, "--item-filter", "nope"), "nope", "strict-match")
    # a column named by --cluster is the clusters
    code, out, err = cli("compare", items, "--items", "--cluster", "grp", "-f", "json")
    assert code == 0, err
    assert "3 clusters" in cli("compare", items, "--items", "--cluster", "grp")[1]


def test_non_finite_weights_are_refused(cli, tmp_path):
    weights = np.ones(120)
    weights[5] = np.inf
    items = item_table(tmp_path, weight=weights)
    refused(cli("compare", items, "--items"), "weights", str(items))
    from rankwise.stats.items import clustered_se, paired_items

    x = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    for call in (lambda: paired_items(x, weights=[1, np.inf, 1]),
                 lambda: clustered_se(x, weights=[1, np.nan, 1]),
                 lambda: paired_items(x, weights=[1, 1])):
        with pytest.raises(RankwiseError, match="weights"):
            call()


def test_learner_columns_are_no_criteria_of_a_front(cli, tmp_path):
    wide = wide_table(tmp_path)
    refused(cli("compare", wide, "--criteria", "A,B"), str(wide), "--criteria", "A, B")
    with pytest.raises(RankwiseError, match="wide table"):
        rw.compare_criteria(wide, ["A", "B"])


# -- options ignored: each one now does what it says or is refused -------------------------------

def test_options_that_were_ignored(cli, tmp_path):
    refused(cli(*FOLDS, "--criteria", "accuracy,runtime", "--criterion", "accuracy"),
            "--criterion", "--criteria")
    refused(cli("curves", DATA / "curves" / "optuna_trials.csv", "--criterion", "x",
                "--lower-is-better"), "--criterion")
    refused(cli(*LEARNING, "--export", "aocc", "-f", "markdown"), "--export")
    out = tmp_path / "aocc.json"
    code, _, err = cli(*LEARNING, "--export", "aocc", "-f", "json", "-o", out)
    assert code == 0, err
    doc = json.loads(out.read_text())
    assert len(doc["learners"]) == 4 and len(doc["values"]) == len(doc["datasets"])
    assert cli(*LEARNING, "--export", "aocc")[1].startswith("dataset,")


# -- tracebacks: a damaged, empty, locked or mistaken file is one line naming it -----------------

def _copy(src: Path, folder: Path, name: str) -> Path:
    out = folder / name
    (shutil.copytree if src.is_dir() else shutil.copy)(src, out)
    return out


def _optuna(folder: Path, sql: str) -> Path:
    path = _copy(DATA / "curves" / "optuna_studies.db", folder, "study.db")
    con = sqlite3.connect(path)
    con.executescript(sql)
    con.commit()
    con.close()
    return path


def _header_only(folder):
    path = folder / "curves.csv"
    path.write_text("learner,problem,run,budget,value\n")
    return path, ("--lower-is-better",)


def _ioh_json(folder):
    path = _copy(DATA / "curves" / "ioh", folder, "ioh")
    (path / "HC" / "IOHprofiler_f1_Sphere.json").write_text("{not json")
    return path, ()


def _ioh_dat(folder):
    path = _copy(DATA / "curves" / "ioh", folder, "ioh")
    dat = next((path / "RS").rglob("*.dat"))
    lines = dat.read_text().splitlines()
    lines[1] = "12 x"
    dat.write_text("\n".join(lines) + "\n")
    return path, ()


def _corrupt_db(folder):
    path = folder / "study.db"
    data = (DATA / "curves" / "optuna_studies.db").read_bytes()
    path.write_bytes(data[:100] + b"\0" * 5000 + data[5100:])
    return path, ()


def _bad_attribute(folder):
    sql = ("insert into study_user_attributes (study_id, key, value_json)"
           " select study_id, 'learner', '{bad' from studies;")
    return _optuna(folder, sql), ()


CURVE_FILES = {
    "header-only table": _header_only,
    "broken IOH JSON": _ioh_json,
    "broken IOH .dat": _ioh_dat,
    "Optuna without directions": lambda f: (_optuna(f, "delete from study_directions;"), ()),
    "Optuna bad value_json": _bad_attribute,
    "Optuna corrupt": _corrupt_db,
    "Optuna all trials failed": lambda f: (_optuna(f, "update trials set state='FAIL';"), ()),
    "--source optuna on a plain table": lambda f: (_header_plain(f), ("--source", "optuna",
                                                                      "--lower-is-better")),
    "trials table all failed": lambda f: (_failed_trials(f), ("--lower-is-better",)),
}


def _header_plain(folder):
    path = folder / "plain.csv"
    path.write_text("learner,problem,run,budget,value\nA,p,0,1,0.5\nB,p,0,1,0.6\n")
    return path


def _failed_trials(folder):
    frame = pd.read_csv(DATA / "curves" / "optuna_trials.csv")
    frame["state"] = "FAIL"
    path = folder / "trials.csv"
    frame.to_csv(path, index=False)
    return path


@pytest.mark.parametrize("case", sorted(CURVE_FILES))
def test_a_broken_curve_file_is_one_line(cli, tmp_path, case):
    path, options = CURVE_FILES[case](tmp_path)
    refused(cli("curves", path, *options, "-o", tmp_path / "out.txt"), str(path).split("/")[-1],
            folder=tmp_path)


def test_a_locked_optuna_storage_is_one_line(cli, tmp_path):
    path = _copy(DATA / "curves" / "optuna_studies.db", tmp_path, "study.db")
    con = sqlite3.connect(path)
    con.execute("BEGIN EXCLUSIVE")
    try:
        refused(cli("curves", path), str(path), "locked")
    finally:
        con.rollback()
        con.close()


def _lm_eval(folder, change):
    path = _copy(DATA / "items" / "lm_eval", folder, "lm")
    for sample in sorted(path.rglob("samples_*.jsonl"))[:1]:
        sample.write_bytes(change(sample.read_bytes()))
    return path


def _inspect(folder, change):
    doc = json.loads((DATA / "items" / "inspect" /
                      "2025-05-12T20-28-13-04-00_popularity.json").read_text())
    change(doc)
    path = folder / "log.json"
    path.write_text(json.dumps(doc))
    return path


def _no_values(doc):
    for sample in doc["samples"]:
        for score in sample["scores"].values():
            score.pop("value")


def _helm(folder):
    path = _copy(DATA / "items" / "helm", folder, "helm")
    (path / "simple_classification" / "run_spec.json").write_text("{broken")
    return path


def _list_log(folder):
    path = folder / "log.json"
    path.write_text("[1, 2]")
    return path


ITEM_FILES = {
    "lm-eval not UTF-8": (lambda f: _lm_eval(f, lambda b: b"\xff\xfe" + b[:50]), "lm-eval"),
    "lm-eval truncated gzip": (lambda f: _lm_eval(f, lambda b: __import__("gzip").compress(b)
                                                  [:40]), "lm-eval"),
    "inspect score without value": (lambda f: _inspect(f, _no_values), "inspect"),
    "inspect epoch 'first'": (lambda f: _inspect(f, lambda d: [s.__setitem__("epoch", "first")
                                                                for s in d["samples"]]),
                              "inspect"),
    "inspect log that is a list": (_list_log, "inspect"),
    "HELM broken run_spec.json": (_helm, "helm"),
}


@pytest.mark.parametrize("case", sorted(ITEM_FILES))
def test_a_broken_item_file_is_one_line(cli, tmp_path, case):
    make, source = ITEM_FILES[case]
    path = make(tmp_path)
    refused(cli("compare", path, "--source", source, "-o", tmp_path / "out.txt"), str(path),
            folder=tmp_path)


def test_gzipped_lm_eval_samples_are_read(cli, tmp_path):
    import gzip

    path = _lm_eval(tmp_path, gzip.compress)
    plain = cli("compare", DATA / "items" / "lm_eval", "-f", "json")
    packed = cli("compare", path, "-f", "json")
    assert packed.code == 0, packed.err
    assert json.loads(packed.out)["learners"] == json.loads(plain.out)["learners"]


def test_items_stream_reads_a_folder_the_item_table_wrote(cli, tmp_path):
    table = rw.read_items(item_table(tmp_path), cluster="grp")
    folder = tmp_path / "parquet"
    folder.mkdir()
    table.frame.to_parquet(folder / "part.parquet")
    code, out, err = cli("compare", folder, "--source", "items-stream")
    assert code == 0 and "Traceback" not in err, err


SEEDS = [("curves", "--example", "learning"), ("compare", "--example", "evals"),
         FOLDS + ("--criteria", "accuracy,runtime")]


@pytest.mark.parametrize("args", SEEDS, ids=lambda a: a[0] + " " + a[2])
def test_a_negative_seed_is_one_line_in_every_command(cli, tmp_path, args):
    refused(cli(*args, "--seed", "-1", "-o", tmp_path / "out.txt"), "--seed", folder=tmp_path)


# -- the Python functions: the same checks as the command line, in one wording per kind ----------

def _api_cases():
    from rankwise.analysis.audit import audit
    from rankwise.analysis.curves import AoccOptions

    curves = rw.load_curves_example()
    garcia = rw.load_example("garcia2008")
    printed = pd.DataFrame({"model": ["A", "B", "C"], "MATH": ["0.500", "0.250", "0.750"],
                            "GSM": ["0.25", "0.75", "0.5"]})
    empty = pd.DataFrame(columns=["learner", "problem", "run", "budget", "value"])
    return {
        "curves: an empty frame": (lambda: rw.compare_curves(empty, higher_is_better=True),
                                   "no rows"),
        "curves: draws=0": (lambda: rw.compare_curves(curves, draws=0), "draws must be a whole"),
        "curves: seed=-1": (lambda: rw.compare_curves(curves, seed=-1), "seed must be a whole"),
        "curves: NaN targets": (lambda: rw.compare_curves(curves, targets=[float("nan")]),
                                "targets must be a finite"),
        "curves: a negative budget": (lambda: rw.compare_curves(
            curves, aocc=AoccOptions(budget=-1)), "aocc budget must be a finite number > 0"),
        "curves: reversed bounds": (lambda: rw.compare_curves(
            curves, aocc=AoccOptions(bounds=(1, 0))), "LOW < HIGH"),
        "curves: text tolerance": (lambda: rw.compare_curves(curves, tolerance="x"),
                                   "tolerance must be a finite"),
        "audit: counts 10.5": (lambda: audit(printed, counts={"MATH": 10.5}),
                               "must be a whole number"),
        "audit: counts a list": (lambda: audit(printed, counts=[1]), "counts must map"),
        "audit: text confidence": (lambda: audit(printed, confidence="x"),
                                   "confidence must be between 0 and 1"),
        "items: seed=-1": (lambda: rw.compare_items(rw.load_items_example("evals"), seed=-1),
                           "seed must be a whole"),
        "items: text alpha": (lambda: rw.compare_items(rw.load_items_example("evals"), alpha="x"),
                              "alpha must be between 0 and 1"),
        "leaderboard: text confidence": (lambda: rw.leaderboard(garcia, confidence="x"),
                                         "confidence must be between 0 and 1"),
        "fronts: seed=-1 before reading": (lambda: rw.compare_criteria("absent.csv", ["a", "b"],
                                                                       seed=-1),
                                           "seed must be a whole"),
        "fronts: text draws": (lambda: rw.compare_criteria(
            [garcia, garcia], ["a", "b"], draws="x"), "draws must be a whole"),
    }


@pytest.mark.parametrize("case", sorted(_api_cases()))
def test_every_python_function_refuses_a_bad_argument_in_one_line(case):
    call, words = _api_cases()[case]
    with pytest.raises(RankwiseError, match=words):
        call()


def test_one_wording_per_kind_of_check():
    from rankwise import _validate as check

    for call, words in ((lambda: check.whole("--draws", 0), "--draws must be a whole number ≥ 1"),
                        (lambda: check.whole("draws", 1.5, 100, 200),
                         "draws must be a whole number from 100 to 200"),
                        (lambda: check.level("--alpha", float("nan")),
                         "--alpha must be between 0 and 1 (exclusive)"),
                        (lambda: check.finite("x", "inf"), "x must be a finite number"),
                        (lambda: check.ordered_pair("b", (2, 1)), "LOW < HIGH"),
                        (lambda: check.seed(-1), "seed must be a whole number from 0 to"),
                        (lambda: check.counts("counts", {"a": True}), "whole number")):
        with pytest.raises(RankwiseError, match=words.replace("(", r"\(").replace(")", r"\)")):
            call()
    assert check.whole("n", 10.0) == 10 and check.counts("c", {"a": 3}) == {"a": 3}
    assert check.seed(2 ** 64 - 1) == 2 ** 64 - 1   # one range for every seed: 0 to 2**64 - 1


# -- valid input that was refused, and warnings before an error -----------------------------------

def test_a_leaderboard_with_one_missing_result(cli, tmp_path):
    """Three data sets, one result missing: some resamples draw only the data set A lacks."""
    path = tmp_path / "board.csv"
    path.write_text("dataset,A,B,C\nd0,,0.5,0.6\nd1,0.7,0.2,0.3\nd2,0.4,0.9,0.1\n")
    board = rw.leaderboard(path).board
    assert np.isfinite(board.columns["elo_low"]).all()
    assert any("without a battle" in note and "A in" in note for note in board.notes)
    code, out, err = cli("leaderboard", path)
    assert code == 0 and "without a battle" in " ".join(out.split()), err


def test_an_item_csv_with_a_byte_order_mark_is_read_as_items(cli, tmp_path):
    plain = item_table(tmp_path)
    marked = tmp_path / "marked.csv"
    marked.write_bytes(b"\xef\xbb\xbf" + plain.read_bytes())
    code, out, err = cli("compare", marked, "-f", "json")
    assert code == 0, err
    assert json.loads(out)["learners"] == json.loads(cli("compare", plain, "-f", "json")[1]
                                                     )["learners"]


def _big_items(folder):
    path = item_table(folder)
    frame = pd.read_csv(path)
    frame["score"] = frame["score"].astype(float)
    frame.loc[0, "score"] = 1e308
    frame.to_csv(path, index=False)
    return path, ()


def _big_long(folder, options=("--aggregate", "mean")):
    path = folder / "long.csv"
    rows = [(f"d{d}", learner, fold, 1.7e308) for d in range(4) for learner in "ABC"
            for fold in range(2)]
    pd.DataFrame(rows, columns=["dataset", "learner", "fold", "value"]).to_csv(path,
                                                                               index=False)
    return path, options


def _big_wide(folder):
    path = folder / "wide.csv"
    path.write_text("dataset,A,B,C\n" + "".join(f"d{d},1e308,-1e308,1\n" for d in range(5)))
    return path, ()


HUGE = {"items": ("compare", _big_items), "long table, mean": ("compare", _big_long),
        "long table, leaderboard": ("leaderboard", lambda f: _big_long(f, ())),
        "wide table, leaderboard": ("leaderboard", _big_wide)}


@pytest.mark.parametrize("case", sorted(HUGE))
def test_scores_near_the_largest_double_are_one_line_without_warnings(cli, tmp_path, case):
    command, make = HUGE[case]
    path, options = make(tmp_path)
    line = refused(cli(command, path, *options, "-o", tmp_path / "out.txt"), "1e+307",
                   folder=tmp_path)
    assert "Warning" not in line


# -- no partial output: every file staged, renamed into place only when all were written ---------

def _left(folder: Path) -> list:
    """What a command left in ``folder`` (the inputs aside)."""
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*")
                  if not p.name.endswith(".csv") or p.parent != folder)


def _fail(monkeypatch, target: str, when=lambda *a, **k: True):
    """Make ``target`` (module:attribute) raise one line when ``when(*args)`` holds."""
    import importlib

    module, name = target.split(":")
    module = importlib.import_module(module)
    original = getattr(module, name)

    def failing(*args, **kwargs):
        if when(*args, **kwargs):
            raise RankwiseError(f"{name} failed")
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, failing)


BOARD = ("leaderboard", "--example", "garcia2008")


@pytest.mark.figures
def test_a_failing_second_figure_leaves_no_first_one(cli, tmp_path, monkeypatch):
    _fail(monkeypatch, "rankwise.cli.leaderboard:matrix_figure_of")
    refused(cli(*BOARD, "--figure", tmp_path / "a.svg", "--matrix-figure", tmp_path / "b.svg",
                "--report", tmp_path / "rep", "-o", tmp_path / "out.txt"), "failed")
    assert _left(tmp_path) == []


@pytest.mark.figures
def test_a_failing_output_leaves_no_report_and_no_figure(cli, tmp_path, monkeypatch):
    from rankwise.cli import staging

    out = tmp_path / "out.txt"
    original = staging.Staging.file

    def full_disk(self, path, data, said=None):
        if Path(path) == out:
            raise OSError(28, "No space left on device")
        return original(self, path, data, said)

    monkeypatch.setattr(staging.Staging, "file", full_disk)
    refused(cli(*BOARD, "--figure", tmp_path / "a.svg", "--report", tmp_path / "rep", "-o",
                out), str(out), "nothing was written")
    assert _left(tmp_path) == []


def test_a_figure_error_prints_no_report_first(cli, tmp_path, monkeypatch):
    _fail(monkeypatch, "rankwise.report.curves:curves_figure")
    code, out, err = cli(*LEARNING, "--figure", tmp_path / "curves.svg", "--report",
                         tmp_path / "rep")
    refused((code, out, err), "failed")
    assert out == "" and _left(tmp_path) == []


def test_an_unwritable_destination_is_refused_before_any_work(cli, tmp_path, monkeypatch):
    import os

    locked = tmp_path / "locked"
    locked.mkdir()
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda p, mode, **k: Path(p) != locked and
                        real_access(p, mode, **k))
    for args, word in (((*BOARD, "-o", locked / "out.txt"), "not writable"),
                       ((*BOARD, "--report", locked / "rep"), "not writable"),
                       ((*BOARD, "--figure", locked / "a.svg"), "not writable")):
        refused(cli(*args), word, str(locked))
    assert list(locked.iterdir()) == []


@pytest.mark.subprocess
def test_sigterm_during_a_report_leaves_nothing(tmp_path):
    import subprocess
    import sys

    script = (
        "import os, signal, sys\n"
        "import rankwise.report.diagrams as d\n"
        "orig, n = d.figure_bytes, [0]\n"
        "def slow(fig, fmt):\n"
        "    n[0] += 1\n"
        "    if n[0] == 3:\n"
        "        os.kill(os.getpid(), signal.SIGTERM)\n"
        "    return orig(fig, fmt)\n"
        "d.figure_bytes = slow\n"
        "sys.argv = ['rankwise'] + sys.argv[1:]\n"
        "from rankwise.cli import run\n"
        "run()\n")
    ran = subprocess.run([sys.executable, "-c", script, *FOLDS, "--criteria",
                          "accuracy,runtime", "--report", str(tmp_path / "rep")],
                         capture_output=True, text=True, timeout=600)
    assert ran.returncode == 130, ran.stderr[-2000:]
    assert "Traceback" not in ran.stderr and ran.stdout == ""
    assert _left(tmp_path) == []


# -- every reader and command under fire, by class ------------------------------------------------
# Each case: (command, how to make its input in the test's folder, more options). Every one must
# be exit 2, one line naming the input, no traceback and no file written (-o where it takes one).

WIDE = "dataset,A,B,C\nd1,0.1,0.2,0.3\nd2,0.3,0.1,0.2\nd3,0.2,0.3,0.1\nd4,0.5,0.4,0.6\n"
CURVE = "learner,problem,run,budget,value\nA,p,0,1,1\nB,p,0,1,2\n"
ITEMS = "model,task,item,score\nA,t,1,1\nB,t,1,0\n"
BOARD_TEXT = "model,MATH\nA,0.5\nB,0.25\n"


def _file(name, data):
    def make(folder):
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        (path.write_bytes if isinstance(data, bytes) else path.write_text)(data)
        return path
    return make


def _noise(size):
    return bytes(np.random.default_rng(size).integers(0, 256, size, dtype=np.uint8))


def _locked_results(folder):
    path = folder / "results.sqlite"
    con = sqlite3.connect(path)
    con.execute("create table meta (key text, value text)")
    con.commit()
    con.close()
    return path


HOSTILE_CLASSES = {
    "damaged": [
        ("compare", _file("t.csv", _noise(2000)), ()),
        ("compare", _file("t.parquet", b"PAR1" + _noise(100)), ()),
        ("compare", _file("t.arff", "@relation x\n@attribute a numeric\n@data\n1,2,3\n"), ()),
        ("curves", _file("c.db", b"SQLite format 3\x00" + _noise(3000)), ()),
        ("compare", _file("x.eval", b"PK\x03\x04" + _noise(300)), ()),
        ("compare", _file("s/p.parquet", b"PAR1" + _noise(100)), ("--source", "items-stream")),
        ("status", _file("r.sqlite", _noise(500)), ()),
        ("export", _file("r.sqlite", _noise(500)), ()),
    ],
    "empty": [
        ("compare", _file("t.csv", b""), ()), ("race", _file("t.csv", b""), ()),
        ("power", _file("t.csv", WIDE.splitlines()[0] + "\n"), ()),
        ("leaderboard", _file("t.csv", WIDE.splitlines()[0] + "\n"), ()),
        ("audit", _file("b.csv", b""), ()), ("curves", _file("c.csv", b""), ()),
        ("compare", _file("y.eval", b""), ()), ("status", _file("r.sqlite", b""), ()),
    ],
    "wrong type": [
        ("compare", _file("img.csv", b"\x89PNG\r\n\x1a\n" + _noise(200)), ()),
        ("compare", _file("report.json", '{"schema": "rankwise.compare/1"}'), ()),
        ("compare", _file("helm/run/per_instance_stats.json", "{}"), ()),
        ("curves", _file("c.csv", ITEMS), ("--source", "optuna", "--lower-is-better")),
        ("status", lambda f: DATA / "curves" / "optuna_studies.db", ()),
        ("compare", lambda f: DATA / "curves" / "optuna_studies.db", ()),
    ],
    "wrong encoding": [
        ("compare", _file("t.csv", WIDE.encode("utf-16")), ()),
        ("compare", _file("t.csv", WIDE.replace("d1", "caf\xe9").encode("latin-1")), ()),
        ("leaderboard", _file("t.csv", WIDE.encode("utf-16")), ()),
        ("audit", _file("b.csv", BOARD_TEXT.encode("utf-16")), ()),
        ("curves", _file("c.csv", CURVE.encode("utf-16")), ()),
        ("compare", _file("i.csv", ITEMS.encode("utf-16")), ("--items",)),
        ("compare", _file("lm/m/samples_t_2026-01-01T00-00-00.jsonl", _noise(300)), ()),
    ],
    "locked": [
        ("status", _locked_results, ()),
    ],
    "extreme values": [
        ("compare", _file("t.csv", WIDE.replace("0.1", "1e308")), ()),
        ("race", _file("t.csv", WIDE.replace("0.1", "-1e308")), ()),
        ("leaderboard", _file("t.csv", WIDE.replace("0.1", "1.7e308")), ()),
        ("audit", _file("b.csv", "model,MATH\nA,150\nB,25\n"), ()),
        ("compare", _file("i.csv", ITEMS.replace("A,t,1,1", "A,t,1,1e308")), ("--items",)),
    ],
    "duplicated": [
        ("compare", _file("t.csv", "dataset,A,A,C\nd1,0.1,0.2,0.3\nd2,0.3,0.1,0.2\n"), ()),
        ("compare", _file("t.csv", WIDE + "d1,0.1,0.2,0.3\n"), ()),
        ("leaderboard", _file("t.csv", WIDE + "d1,0.1,0.2,0.3\n"), ()),
        ("compare", _file("i.csv", ITEMS + "A,t,1,0\n"), ("--items",)),
        ("audit", _file("b.csv", BOARD_TEXT + "A,0.75\n"), ()),
    ],
    "contradictory": [
        ("compare", _file("t.csv", WIDE), ("--criteria", "A,B")),
        ("compare", _file("t.csv", WIDE), ("--items", "--cluster", "grp")),
        ("audit", _file("b.csv", "model,MATH\nA,0.333\nB,0.200\n"), ("--counts", "MATH=4")),
        ("curves", _file("c.csv", CURVE), ("--criterion", "x", "--lower-is-better")),
        ("curves", lambda f: _copy(DATA / "curves" / "ioh", f, "ioh"), ("--higher-is-better",)),
        ("compare", _file("t.csv", WIDE), ("--alpha", "0.1", "--alpha", "0.2")),
    ],
}
HOSTILE_CASES = [(kind, i, *case) for kind, cases in HOSTILE_CLASSES.items()
                 for i, case in enumerate(cases)]


@pytest.mark.parametrize("kind, i, command, make, options", HOSTILE_CASES,
                         ids=[f"{kind}-{i}-{command}" for kind, i, command, _, _ in
                              HOSTILE_CASES])
def test_every_reader_and_command_under_fire(cli, tmp_path, kind, i, command, make, options):
    path = make(tmp_path)
    out = () if command == "status" else ("-o", tmp_path / "out.txt")
    con = None
    if kind == "locked":
        con = sqlite3.connect(path)
        con.execute("BEGIN EXCLUSIVE")
    try:
        line = refused(cli(command, path, *options, *out), folder=tmp_path)
    finally:
        if con is not None:
            con.rollback()
            con.close()
    named = [str(path), path.name] + [o for o in options if str(o).startswith("--")]
    assert any(str(word) in line for word in named), line
    assert not (tmp_path / "out.txt").exists()
