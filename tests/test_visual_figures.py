"""The visual tier beyond the CD diagrams: every figure every command draws, checked for its
geometry as the reader meets it (``tests/test_visual.py`` compiles the TikZ diagrams).

For each command (compare and its optional figures, compare --items, leaderboard, curves,
race, power) the figures are drawn on the bundled example and on synthetic extremes (k = 2,
78 and 300 learners where the command takes that many, 40-character names, one data set) as
the reports draw them, reduced to their texts and data lines
(:func:`visual_geometry.drawn_scene`) and checked: no text overlaps another, no line crosses a
text, nothing outside the file's canvas, every learner of the data named on the figure or said
(by the figure or its caption) to be left out, and no two legend entries alike. Then each
command's HTML report opens in Chromium at 1280 and 390 pixels: no image wider than the
window outside a box that scrolls, no two texts of a table on one another.

The fronts figure (``compare --criteria``) is not here yet. ``RANKWISE_SHOTS=DIR`` writes a
PNG of every figure and page of the bundled examples into DIR, to look at.

Run it with ``python -m pytest -m visual``.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import rankwise
from rankwise import PosthocOptions, Presentation, RankwiseError, load_example
from rankwise.report.diagrams import draw, draw_all, figure_bytes

from visual_geometry import drawn_scene, problems, synthetic

pytestmark = pytest.mark.visual

#: Where the PNGs of the bundled examples go, when asked (never into the repository).
SHOTS = os.environ.get("RANKWISE_SHOTS")

#: 40-character learner names.
LONG = [f"gradient_boosted_trees_config_{j:03d}_tuned" for j in range(8)]


def shot(name: str, png: bytes) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        (Path(SHOTS) / f"{name}.png").write_bytes(png)


def captions(result) -> dict:
    """``{figure name: caption}`` as every report prints them under the figure."""
    from rankwise.report import build_document
    from rankwise.report.blocks import Figure
    from rankwise.report.document import figure_caption

    return {b.name: figure_caption(b.plan) for b in build_document(result).blocks
            if isinstance(b, Figure)}


def said(fig) -> str:
    """Every sentence the figure itself sets (what it leaves out, say)."""
    return " ".join(t.get_text() for t in fig.texts)


def look_alike(fig) -> list:
    """Legend entries drawn alike (colour and dashes): a reader cannot tell them apart."""
    from matplotlib.colors import to_hex

    found = []
    for legend in [ax.get_legend() for ax in fig.axes] + list(fig.legends):
        if legend is None:
            continue
        seen = {}
        for handle, text in zip(legend.legend_handles, legend.get_texts()):
            colour = getattr(handle, "get_color", None) or getattr(handle, "get_facecolor")
            c = colour()
            c = to_hex(c if isinstance(c, str) or np.ndim(c) == 1 else c[0])
            style = str(getattr(handle, "get_linestyle", lambda: "")())
            marker = str(getattr(handle, "get_marker", lambda: "")())
            key = (c, style, marker)
            if key in seen:
                found.append(f"legend entries {seen[key]!r} and {text.get_text()!r} look alike")
            seen.setdefault(key, text.get_text())
    return found


def check(tag, figs: dict, names, notes: dict | None = None, save: bool = False,
          unnamed: tuple = ()) -> list:
    """Every defect of every figure of ``figs``; ``names``: the learners each must name or say
    it leaves out (``unnamed``: figures that draw every learner without names)."""
    found = []
    for name, fig in figs.items():
        note = " ".join([(notes or {}).get(name, ""), said(fig)])
        scene = drawn_scene(fig, f"{tag} {name}")
        found += problems(scene, () if name in unnamed else names, note)
        found += [f"{tag} {name}: {p}" for p in look_alike(fig)]
        png = figure_bytes(fig, "png")   # as written: nothing cut at the file's edge
        if not blank_edges(png):
            found.append(f"{tag} {name}: something is cut at the edge of the PNG")
        if save:
            shot(f"{tag}_{name}", png)
    return found


def blank_edges(png: bytes) -> bool:
    """Is the outermost pixel frame of the image white?"""
    import io

    from matplotlib.image import imread

    img = imread(io.BytesIO(png))[:, :, :3].mean(axis=2)
    return min(img[0].min(), img[-1].min(), img[:, 0].min(), img[:, -1].min()) > 0.95


# --- compare ---------------------------------------------------------------------------------

def nemenyi(frame, top=30, **options):
    """A comparison of every pair by Nemenyi (at k = 300 the reports' Bergmann-Hommel takes
    seconds; the figures are the same kind)."""
    return rankwise.compare(frame, posthoc=PosthocOptions(family="both",
                                                          procedures=("nemenyi", "holm")),
                            effects=False, presentation=Presentation(top=top), **options)


#: Every optional figure of compare, on a table of scores (the Bayesian models' P(best)
#: samples a posterior, the multiverse reruns a grid and the per-data-set forest needs the
#: folds: their figures are checked on the examples below).
EXTRAS = dict(mcm=True, groups="scott-knott-esd", rank_sets=True, bayesian="sign")


@pytest.fixture(scope="module")
def comparisons():
    """``{case: (Comparison, save)}``: the bundled examples (every optional figure drawn)
    and the extremes."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)   # the flat keywords, the same thing
        return {
            "compare_garcia2008": (rankwise.compare(load_example("garcia2008"), posthoc="all",
                                                    rank_intervals=True, **EXTRAS), True),
            "compare_demsar2006": (rankwise.compare(load_example("demsar2006_table6"),
                                                    posthoc="all"), True),
            "compare_folds_demo": (rankwise.compare(load_example("folds_demo",
                                                                 criterion="accuracy"),
                                                    per_dataset="corrected"), True),
            "compare_k3": (nemenyi(synthetic(3, 12, 0.8), mcm=True, groups="scott-knott-esd",
                                   rank_sets=True), False),
            "compare_k78": (nemenyi(synthetic(78, 30, 0.05), mcm=True,
                                    groups="scott-knott-esd", rank_sets=True), False),
            "compare_k300": (nemenyi(synthetic(300, 20, 0.02)), False),
            "compare_long_names": (nemenyi(synthetic(6, 20, 0.4, LONG[:6]), **EXTRAS), False),
        }


@pytest.mark.figures
@pytest.mark.parametrize("case", ["compare_garcia2008", "compare_demsar2006",
                                  "compare_folds_demo", "compare_k3", "compare_k78",
                                  "compare_k300", "compare_long_names"])
def test_compare_figures(comparisons, case):
    cmp, save = comparisons[case]
    figs = draw_all(cmp)
    assert figs
    # past 60 learners the every-learner figure numbers them (the tables name them)
    unnamed = ("rank_intervals",) if cmp.table.n_learners > 60 else ()
    found = check(case, figs, list(cmp.table.learners), captions(cmp), save, unnamed)
    assert found == [], '\n'.join(found)


def test_compare_with_two_learners_or_one_data_set():
    """k = 2: the two-learner tests answer, nothing to draw (the CD diagram of two is in
    test_visual); one data set: refused in one line."""
    assert draw_all(rankwise.compare(synthetic(2, 20, 0.5))) == {}
    with pytest.raises(RankwiseError, match="at least two"):
        rankwise.compare(synthetic(5, 1, 0.5))


# --- compare --items -------------------------------------------------------------------------

def synthetic_items(models, tasks=3, items=40, seed=0):
    rng = np.random.default_rng(seed)
    rows = [(m, f"task{t}", f"t{t}-{i:03d}", float(rng.random() < 0.8 - 0.02 * j))
            for j, m in enumerate(models) for t in range(tasks) for i in range(items)]
    return rankwise.read_items(pd.DataFrame(rows, columns=["model", "task", "item", "score"]))


@pytest.mark.figures
@pytest.mark.parametrize("case", ["items_evals", "items_k2", "items_k30", "items_long_names",
                                  "items_one_task"])
def test_items_figures(case):
    from rankwise.report.generic import figures

    items = {"items_evals": lambda: rankwise.load_items_example("evals"),
             "items_k2": lambda: synthetic_items(["first", "second"]),
             "items_k30": lambda: synthetic_items([f"M{j}" for j in range(30)], items=20),
             "items_long_names": lambda: synthetic_items(LONG[:6]),
             "items_one_task": lambda: synthetic_items(["a", "b", "c"], tasks=1)}[case]()
    r = rankwise.compare_items(items)
    figs = figures(r)
    assert "macro" in figs
    found = check(case, figs, list(r.models), captions(r), case == "items_evals")
    assert found == [], '\n'.join(found)


# --- leaderboard -----------------------------------------------------------------------------

def board_frame(names, n, folds=2, seed=0):
    rng = np.random.default_rng(seed)
    rows = [{"dataset": f"d{d}", "fold": f, "method": m,
             "metric_error": round(abs(0.3 + 0.01 * j + rng.normal(0, 0.05)), 3)}
            for d in range(n) for f in range(folds) for j, m in enumerate(names)]
    return pd.DataFrame(rows)


@pytest.fixture(scope="module")
def boards():
    from importlib.resources import as_file

    from rankwise.examples import CRITERIA, example_path

    with as_file(example_path("tabarena")) as source:
        tabarena = rankwise.leaderboard(source, criterion=CRITERIA.get("tabarena"), draws=100)
    return {"leaderboard_tabarena": tabarena,   # 78 methods
            "leaderboard_k2": rankwise.leaderboard(board_frame(["m0", "m1"], 10), draws=50),
            "leaderboard_long_names": rankwise.leaderboard(board_frame(LONG, 10), draws=50),
            # a board of votes: the arena example and its figures, read as a score board's
            "leaderboard_votes": rankwise.leaderboard(rankwise.load_votes_example("arena"),
                                                      draws=50, vote_check=False)}


@pytest.mark.figures
@pytest.mark.parametrize("case", ["leaderboard_tabarena", "leaderboard_k2",
                                  "leaderboard_long_names", "leaderboard_votes"])
def test_leaderboard_figures(boards, case):
    from rankwise.report.generic import figures

    lb = boards[case]
    figs = figures(lb)
    assert set(figs) == {"elo", "winrate_matrix"}
    found = check(case, figs, list(lb.board.learners), captions(lb),
                 case == "leaderboard_tabarena")
    assert found == [], '\n'.join(found)


def test_leaderboard_of_one_data_set_is_refused():
    with pytest.raises(RankwiseError, match="at least two"):
        rankwise.leaderboard(board_frame(["a", "b", "c"], 1, folds=3), draws=10)


# --- curves ----------------------------------------------------------------------------------

def long_curves(names, problems=4, runs=1, budgets=(1, 2, 5, 10, 20, 50, 100), seed=0):
    """Curves that rise to 1 on a log budget, each learner a little slower than the last."""
    rng = np.random.default_rng(seed)
    rows = []
    for j, name in enumerate(names):
        for p in range(problems):
            for r in range(runs):
                v = 0.0
                for b in budgets:
                    v = max(v, 1 - np.exp(-b / (10 + 2 * j)) + rng.normal(0, 0.02))
                    rows.append((name, f"p{p}", r, b, round(v, 4)))
    return pd.DataFrame(rows, columns=["learner", "problem", "run", "budget", "value"])


@pytest.mark.figures
@pytest.mark.parametrize("case", ["curves_learning", "curves_k2", "curves_k14",
                                  "curves_long_names"])
def test_curves_figures(case):
    """The four panels and the CD diagram of every checkpoint (each checked as drawn before
    it is placed in the stacked figure, whose titles are checked too). At k = 14 the panels
    draw the best 12 (the curves' own limit); k = 78 takes minutes to compare."""
    from rankwise.report.generic import figures

    if case == "curves_learning":
        r = rankwise.compare_curves(rankwise.load_curves_example())
    else:
        names = {"curves_k2": ["first", "second"], "curves_k14": [f"L{j}" for j in range(14)],
                 "curves_long_names": LONG[:5]}[case]
        r = rankwise.compare_curves(long_curves(names), higher_is_better=True, draws=200)
    figs = figures(r)
    learners = list(r.curves.learners)
    found = check(case, {"curves": figs["curves"]}, learners, captions(r),
                  case == "curves_learning")
    if "checkpoints" in figs:
        found += check(case, {"checkpoints": figs["checkpoints"]}, (), None,
                       case == "curves_learning")
        for cp in r.checkpoints:
            plan = cp.comparison.figures.get("cd_diagram")
            sub = draw(plan, cp.comparison.mean_ranks, cp.comparison.table.learners) \
                if plan is not None else None
            if sub is not None:
                found += check(f"{case} at {cp.budget:g}", {"cd_diagram": sub}, learners)
    assert found == [], '\n'.join(found)


def test_curves_of_one_problem_are_refused():
    with pytest.raises(RankwiseError, match="one problem"):
        rankwise.compare_curves(long_curves(["a", "b"], problems=1), higher_is_better=True)


# --- race ------------------------------------------------------------------------------------

@pytest.mark.figures
@pytest.mark.parametrize("case", ["race_garcia2008", "race_k2", "race_k78", "race_k300",
                                  "race_long_names", "race_one_dataset"])
def test_race_figure(case):
    from rankwise.report.generic import figures
    from rankwise.stats.racing import race

    if case == "race_garcia2008":
        r = race(load_example("garcia2008"))
    else:
        frame = {"race_k2": lambda: synthetic(2, 30, 0.5),
                 "race_k78": lambda: synthetic(78, 40, 0.3),
                 "race_k300": lambda: synthetic(300, 30, 0.3),
                 "race_long_names": lambda: synthetic(8, 30, 0.5, LONG),
                 "race_one_dataset": lambda: synthetic(4, 1, 0.5)}[case]()
        r = race(frame.set_index("dataset"), higher_is_better=True)
    figs = figures(r)
    # the figure file alone (race --figure) says what it leaves out
    found = check(case, figs, list(r.learners), None, case == "race_garcia2008")
    assert found == [], '\n'.join(found)


# --- power -----------------------------------------------------------------------------------

@pytest.mark.figures
@pytest.mark.parametrize("case", ["power_garcia2008", "power_k2_sizes", "power_procedures"])
def test_power_figures(case):
    """One line per test (and sample size): every one drawn apart from the others."""
    from rankwise.power import power_study
    from rankwise.report.generic import figures

    pool = load_example("garcia2008")
    study = {"power_garcia2008": lambda: power_study(pool, biases=[0, 10], draws=40),
             "power_k2_sizes": lambda: power_study(pool, learners=["C4.5", "CN2"],
                                                   sample_size=[10, 20, 30], biases=[0, 10],
                                                   draws=30),
             "power_procedures": lambda: power_study(
                 pool, biases=[0, 10], draws=30, sample_size=[10, 20],
                 procedures=["holm", "hochberg", "finner", "li"])}[case]()
    figs = figures(study)
    assert set(figs) == {"power_rejection", "power_replicability"}
    found = check(case, figs, (), None, case == "power_garcia2008")
    assert found == [], '\n'.join(found)


# --- the HTML reports in a browser -----------------------------------------------------------

import test_browser  # noqa: E402

CHROME, DRIVER, HAVE_SELENIUM = (test_browser.CHROME, test_browser.DRIVER,
                                 test_browser.HAVE_SELENIUM)
browser = test_browser.browser   # its fixture: one Chromium for the pages of this module

needs_browser = pytest.mark.skipif(
    not (CHROME and DRIVER and HAVE_SELENIUM),
    reason="no browser driver here: install Debian's 'chromium' and 'chromium-driver' and "
           "selenium (.ci/run does)")

#: What the page shows a reader, measured: an image (or inline SVG) wider than the window and
#: in no box that scrolls sideways within the window, and two texts of one table that overlap.
GEOMETRY = """
const view = document.documentElement.clientWidth;
const wide = [];
for (const img of document.querySelectorAll('img, svg')) {
  if (img.closest('svg') !== img && img.tagName.toLowerCase() === 'svg') continue;
  const r = img.getBoundingClientRect();
  if (r.width === 0 || r.right <= view + 1) continue;
  let box = img.parentElement, scrolls = false;
  while (box && box !== document.body) {
    const s = getComputedStyle(box);
    if (['auto', 'scroll'].includes(s.overflowX)) {
      scrolls = box.getBoundingClientRect().right <= view + 1; break; }
    box = box.parentElement;
  }
  if (!scrolls) wide.push((img.getAttribute('src') || img.tagName).slice(0, 60) + ' '
                          + Math.round(r.width) + ' px');
}
const overlaps = [];
for (const table of document.querySelectorAll('table')) {
  const boxes = [];
  for (const cell of table.querySelectorAll('th, td, caption')) {
    const range = document.createRange();
    range.selectNodeContents(cell);
    for (const r of range.getClientRects()) {
      if (r.width > 0 && r.height > 0) boxes.push([cell.textContent.trim().slice(0, 30), r]);
    }
  }
  for (let i = 0; i < boxes.length && overlaps.length < 10; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [ta, a] = boxes[i], [tb, b] = boxes[j];
      if (a.left + 0.5 < b.right && b.left + 0.5 < a.right && a.top + 0.5 < b.bottom
          && b.top + 0.5 < a.bottom && !(ta === tb && a === b)) {
        if (boxes[i][0] !== boxes[j][0] || a.top !== b.top) overlaps.push(ta + ' / ' + tb);
      }
    }
  }
}
return {wide: wide, overlaps: overlaps, scroll: document.documentElement.scrollWidth,
        view: view};
"""


def page_problems(driver, page: Path, name: str, save: bool) -> list:
    found = []
    for width in (1280, 390):
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 600})
        driver.get(page.as_uri())
        seen = driver.execute_script(GEOMETRY)
        found += [f"{name} at {width} px: image {w} wider than the window, in no scroll box"
                  for w in seen["wide"]]
        found += [f"{name} at {width} px: table texts overlap: {o}" for o in seen["overlaps"]]
        if seen["scroll"] > seen["view"]:
            found.append(f"{name} at {width} px: the page scrolls sideways"
                         f" ({seen['scroll']} > {seen['view']})")
        if save and SHOTS:
            height = driver.execute_script("return document.documentElement.scrollHeight")
            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": width, "height": min(height, 12000), "deviceScaleFactor": 1,
                "mobile": width < 600})
            Path(SHOTS).mkdir(parents=True, exist_ok=True)
            driver.save_screenshot(str(Path(SHOTS) / f"{name}_html_{width}.png"))
    return found


def _report_of(command: str):
    """The result whose ``-f html`` (report.html of ``--report``) a command writes for its
    bundled example."""
    if command == "compare":
        return rankwise.compare(load_example("garcia2008"), posthoc="all")
    if command == "items":
        return rankwise.compare_items(rankwise.load_items_example("evals"))
    if command == "leaderboard":
        from importlib.resources import as_file

        from rankwise.examples import CRITERIA, example_path

        with as_file(example_path("tabarena")) as source:
            return rankwise.leaderboard(source, criterion=CRITERIA.get("tabarena"), draws=100)
    if command == "curves":
        return rankwise.compare_curves(rankwise.load_curves_example())
    if command == "race":
        from rankwise.stats.racing import race

        return race(load_example("garcia2008"))
    if command == "power":
        from rankwise.power import power_study

        return power_study(load_example("garcia2008"), biases=[0, 10], draws=40)
    from rankwise.analysis.audit import audit

    return audit(Path(__file__).parent / "data" / "items" / "board_to_markdown.md",
                 counts={"MATH": 5000})


@needs_browser
@pytest.mark.figures
@pytest.mark.parametrize("command", ["compare", "items", "leaderboard", "curves", "race",
                                     "power", "audit"])
def test_html_report_in_a_browser(browser, tmp_path, command):
    from rankwise.report import render

    page = tmp_path / "report.html"
    page.write_text(render(_report_of(command), "html"), encoding="utf-8")
    found = page_problems(browser, page, command, save=True)
    assert found == [], '\n'.join(found)
