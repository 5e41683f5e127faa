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


def refused(ran, *words, folder=None):
    """Exit 2, one ``rankwise: error:`` line holding every word, no traceback, and (when
    ``folder`` is given) nothing written there but the inputs."""
    code, out, err = ran
    lines = err.strip().splitlines()
    assert code == 2, (code, err[-2000:])
    assert len(lines) == 1 and lines[0].startswith("rankwise: error:"), err[-2000:]
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
