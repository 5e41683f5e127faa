"""Figures and boards a person can read: every learner drawn up to a stated limit (and, above
it, the figure and the notes say so), axes on a log scale where the values span orders of
magnitude, names that do not overprint, and the leaderboard's text within 80 columns with the
tied-with-#1 set marked in every format."""

import csv
import io

import numpy as np
import pandas as pd
import pytest

import rankwise
from rankwise.analysis.figures import axis_scale, profile_tau_end
from rankwise.analysis.leaderboard import FIGURE_MOST, leaderboard
from rankwise.errors import RankwiseError


@pytest.fixture(scope="module")
def board():
    return leaderboard(rankwise.load_example("tabarena"), draws=20)


@pytest.fixture(scope="module")
def board_of_tabarena_file():
    from importlib.resources import as_file

    from rankwise.examples import example_path

    with as_file(example_path("tabarena")) as path:   # the file: times and imputed columns
        return leaderboard(path, criterion="metric_error", draws=20)


def _texts(fig) -> list:
    return [t.get_text() for t in fig.texts]


# -- the leaderboard's figures: every learner up to the limit --------------------------------


@pytest.mark.figures
def test_the_elo_and_matrix_figures_draw_every_one_of_78_learners(board):
    from rankwise.report.board import board_figure, matrix_figure

    n = len(board.board.learners)
    assert n == 78 and board.figure_shown("elo") == board.figure_shown("winrate_matrix") == n
    elo = board_figure(board)
    assert len([t for t in elo.axes[0].get_yticklabels() if t.get_text()]) == n
    matrix = matrix_figure(board)
    ax = matrix.axes[0]
    assert len(ax.get_xticklabels()) == len(ax.get_yticklabels()) == n
    assert not any("shown" in t for t in _texts(elo) + _texts(matrix))
    assert not any("figure" in note for note in board.notes)


@pytest.mark.figures
def test_fewer_than_the_board_is_said_in_the_figure_and_in_the_notes(board):
    from rankwise.report.board import board_figure, matrix_figure, render

    small = leaderboard(rankwise.load_example("tabarena"), draws=20, figure_top=20)
    said = [n for n in small.notes if "best 20 of 78" in n]
    assert len(said) == 2 and all("--figure-top" in n for n in said)
    elo, matrix = board_figure(small), matrix_figure(small)
    assert len(elo.axes[0].get_yticklabels()) == 20
    assert len(matrix.axes[0].get_xticklabels()) == 20
    for fig in (elo, matrix):
        assert any("the best 20 of 78 learners shown" in t for t in _texts(fig))
    assert "the best 20 of 78 learners (see the notes)" in render(small, "text", None)
    assert small.to_dict()["settings"]["figure_top"] == 20


def test_figure_top_is_a_whole_number_up_to_the_limit():
    table = rankwise.load_example("garcia2008")
    for bad in (0, FIGURE_MOST + 1, 2.5):
        with pytest.raises(RankwiseError, match="figure_top must be a whole number"):
            leaderboard(table, draws=5, figure_top=bad)


def test_the_command_takes_figure_top(cli):
    ran = cli("leaderboard", "--example", "garcia2008", "--draws", "5", "--figure-top", "3",
              "-f", "json")
    assert ran.code == 0 and '"figure_top": 3' in ran.out


# -- the leaderboard's text: 80 columns, the tied set marked everywhere ----------------------


def test_the_text_board_fits_80_columns_and_says_where_the_other_columns_are(
        board_of_tabarena_file):
    from rankwise.report.board import render

    text = render(board_of_tabarena_file, "text", 80)
    lines = text.splitlines()[1:]   # the title: the file's path, never broken
    assert max(len(line) for line in lines) <= 80
    assert not any(line.startswith("(columns ") for line in lines)   # one block, not three
    head = next(line for line in lines if line.lstrip().startswith("#  learner"))
    assert head.split()[-6:] == ["Elo", "95%", "interval", "tied", "win", "rate"]
    assert "-f csv" in text and "mean rank" in text
    wide = render(board_of_tabarena_file, "text", 300)   # a wide terminal: every column
    assert "norm. err." in wide and "more columns" not in wide


def test_tied_with_first_is_marked_in_text_markdown_csv_and_html(board):
    from rankwise.report.board import board_csv, render

    tied = set(board.board.tied_with_first)
    assert 1 < len(tied) < len(board.board.learners)
    rows = list(csv.DictReader(io.StringIO(board_csv(board))))
    assert {r["learner"] for r in rows if r["tied_with_first"] == "true"} == tied
    assert {r["tied_with_first"] for r in rows} == {"true", "false"}
    text = render(board, "text", 80).splitlines()
    marked = {name for name in board.board.learners
              for line in text if f" {name} " in line and "yes" in line.split()}
    assert marked == tied
    markdown = render(board, "markdown")
    assert "| tied |" in markdown.replace("  ", " ")
    assert sum(1 for line in markdown.splitlines() if "| yes |" in line) == len(tied)
    html = render(board, "html")
    assert "<th>tied</th>" in html and html.count("<td>yes</td>") == len(tied)


# -- curves: the checkpoint left out, the learners left out, the profile's range -------------


@pytest.fixture(scope="module")
def curves():
    return rankwise.compare_curves(rankwise.load_curves_example())


@pytest.mark.figures
def test_a_checkpoint_without_a_cd_diagram_is_said_in_the_figure_and_the_notes(curves):
    from rankwise.report.curves import checkpoint_figure

    note = curves.cd_left_out()
    assert note is not None and "fraction 0.1" in note and note in curves.notes
    fig = checkpoint_figure(curves)
    titles = _texts(fig)
    assert len(titles) == len(curves.checkpoints)   # every checkpoint keeps its place
    assert any(t.startswith("fraction 0.1: no CD diagram") for t in titles)


def _many_curves(k: int):
    rng = np.random.default_rng(3)
    rows = [(f"L{i:02d}", f"p{p}", 0, b, i * 0.01 + b + rng.normal(0, 0.05))
            for i in range(k) for p in range(6) for b in (1, 10, 100)]
    return pd.DataFrame(rows, columns=["learner", "problem", "run", "budget", "value"])


@pytest.mark.figures
def test_more_learners_than_the_curves_figure_draws_is_said(curves):
    from rankwise.analysis.curves import FIGURE_LEARNERS
    from rankwise.report.curves import curves_figure

    assert curves.figure_left_out() is None
    many = rankwise.compare_curves(_many_curves(FIGURE_LEARNERS + 2), draws=50,
                                   higher_is_better=True)
    said = many.figure_left_out()
    assert f"the best {FIGURE_LEARNERS} of {FIGURE_LEARNERS + 2}" in said and said in many.notes
    fig = curves_figure(many)
    assert fig.get_suptitle() == said
    assert len(fig.legends[0].get_texts()) == FIGURE_LEARNERS


@pytest.mark.figures
def test_the_performance_profile_runs_on_a_log2_axis_to_where_every_learner_has_arrived(
        curves):
    from rankwise.report.curves import curves_figure

    fig = curves_figure(curves)
    profile = fig.axes[3]
    assert profile.get_xscale() == "log"
    taus = curves.performance[0]
    assert profile.get_xlim() == (1.0, profile_tau_end(taus)) and profile_tau_end(taus) >= 2
    assert "log" in profile.get_xlabel()
    # the bands are bars at the checkpoints, not areas that cover one another
    assert not fig.axes[0].collections or all(
        type(c).__name__ == "LineCollection" for c in fig.axes[0].collections)


def test_the_tau_axis_and_the_log_rule():
    assert profile_tau_end([1.0]) == 2.0 and profile_tau_end([1.0, 3.0]) == 4.0
    assert profile_tau_end([1.0, 4.0, np.inf]) == 8.0
    assert axis_scale([9.3, 160_000]) == "log" and axis_scale([1, 100]) == "log"
    assert axis_scale([1, 99]) == "linear" and axis_scale([-1, 1e6]) == "linear"
    assert axis_scale([np.nan, 2.0]) == "linear"


# -- fronts: log axes where the values span orders of magnitude, names that do not overprint -


@pytest.fixture(scope="module")
def tabarena_front():
    criteria = ["metric_error", "time_train_s"]
    tables = [rankwise.load_example("tabarena", criterion=c) for c in criteria]
    return rankwise.compare_criteria(tables, criteria, draws=50)


def _boxes_overlap(a, b) -> bool:
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


@pytest.mark.figures
def test_the_tabarena_front_is_on_log_axes_with_names_that_do_not_overprint(tabarena_front):
    from matplotlib.text import Text

    from rankwise.report.fronts import front_figure

    r = tabarena_front
    fig = front_figure(r)
    ax = fig.axes[0]
    # metric_error's scales differ 1.45e7-fold across the data sets: by default the front reads
    # it by its mean rank (1 to 78, a linear axis); the times are on a log axis
    assert r.summaries == ("rank", "mean")
    assert ax.get_xscale() == "linear" and "mean rank" in ax.get_xlabel()
    assert ax.get_yscale() == "log" and "log scale" in ax.get_ylabel()
    # the raw means (--summary mean) span orders of magnitude on both axes
    tables = [rankwise.load_example("tabarena", criterion=c) for c in r.criteria]
    raw = front_figure(rankwise.compare_criteria(tables, list(r.criteria), draws=20,
                                                 summary="mean")).axes[0]
    assert raw.get_xscale() == raw.get_yscale() == "log"
    assert "log scale" in raw.get_xlabel() and "log scale" in raw.get_ylabel()
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    names = [t for t in ax.texts if t.get_text()]
    assert sorted(t.get_text() for t in names) == sorted(r.front_learners)
    boxes = [Text.get_window_extent(t, renderer) for t in names]   # the name, not its line
    assert not any(_boxes_overlap(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:])
    # the figure and the notes say who is not named
    said = r.figure_left_out()
    assert said in r.notes and any(t.get_text() == said for t in fig.texts)


@pytest.mark.figures
def test_a_small_front_keeps_linear_axes_and_names_every_learner():
    from rankwise.report.diagrams import figure_bytes
    from rankwise.report.fronts import front_figure

    criteria = ["accuracy", "fit_time"]
    tables = [rankwise.load_example("demo_results", criterion=c) for c in criteria]
    r = rankwise.compare_criteria(tables, criteria, draws=50)
    fig = front_figure(r)
    assert figure_bytes(fig, "svg")
    ax = fig.axes[0]
    assert ax.get_xscale() == "linear"
    assert sorted(t.get_text() for t in ax.texts) == sorted(r.learners)
    assert r.figure_left_out() is None


# -- compare's group box plots: a cut said ---------------------------------------------------


def test_the_groups_figure_says_how_many_it_shows():
    from rankwise.analysis.figures import GROUPS_FIGURE_MAX

    rng = np.random.default_rng(0)
    k = GROUPS_FIGURE_MAX + 4
    table = pd.DataFrame(rng.normal(size=(12, k)) + np.arange(k) * 0.05,
                         columns=[f"L{i}" for i in range(k)],
                         index=[f"d{i}" for i in range(12)])
    cmp = rankwise.compare(table, groups="scott-knott-esd-np", effects="none")
    plan = cmp.figures["groups"]
    assert f"the best {GROUPS_FIGURE_MAX} of {k} learners shown" in plan.caption
    assert plan.matrix[3] in plan.caption


def _overfitting_curves():
    """Learning curves that rise and then fall (as a validation score of an overfitting
    learner): the running best and the values as logged part after the peak."""
    rng = np.random.default_rng(4)
    budgets = [1, 2, 4, 8, 16, 32]
    rows = [(learner, f"p{p}", run, b, top - (np.log2(b) - peak) ** 2 * 0.02
             + rng.normal(0, 0.002))
            for learner, top, peak in (("A", 0.9, 2), ("B", 0.85, 3), ("C", 0.8, 4))
            for p in range(5) for run in range(2) for b in budgets]
    return pd.DataFrame(rows, columns=["learner", "problem", "run", "budget", "value"])


@pytest.mark.parametrize("curve", ["running-best", "values"])
def test_the_convergence_panel_draws_the_curves_the_aocc_is_over(curve):
    """The AOCC takes each run's running best (default) or the values as logged
    (--aocc-curve values); the convergence panel draws the same, and its label says which."""
    from rankwise.analysis.curves import AoccOptions
    from rankwise.report.curves import curves_figure

    r = rankwise.compare_curves(_overfitting_curves(), draws=50, higher_is_better=True,
                                aocc=AoccOptions(curve=curve))
    panel = curves_figure(r).axes[1]
    medians = [np.asarray(line.get_ydata(), float) for line in panel.get_lines()]
    assert len(medians) == 3
    falls = [bool((np.diff(m[np.isfinite(m)]) < -1e-9).any()) for m in medians]
    if curve == "running-best":   # a running best never falls, and the label says so
        assert not any(falls) and "running best" in panel.get_ylabel()
        assert "normalised running best" in r.to_text()
    else:                         # the values as logged fall past each learner's peak
        assert all(falls) and "as logged" in panel.get_ylabel()
        assert "normalised value as logged" in r.to_text()
