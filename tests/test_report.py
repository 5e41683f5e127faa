"""Reports: golden files, quartile charts, verdict, CD diagrams, HTML in a browser, LaTeX."""

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from rankwise import ScoreTable, compare, load_example
from rankwise.report.diagrams import (assign_levels, cd_diagram, control_diagram, figure_bytes,
                                      pvalue_heatmap)
from rankwise.analysis.figures import cliques
from rankwise.report import figures, latex_report, markdown_report, text_report
from rankwise.stats.summary import (QuartileRow, format_quartile_chart, quartile_bar,
                                    quartile_charts, win_tie_loss_matrix)
from rankwise.analysis.verdict import verdict

GOLDEN = Path(__file__).parent / "golden"
REGENERATE = os.environ.get("RANKWISE_REGENERATE_GOLDEN") == "1"

CASES = {
    "garcia2010": lambda: compare(load_example("garcia2010"), posthoc="both"),
    "garcia2008_paper": lambda: compare(load_example("garcia2008"), posthoc="all",
                                        convention="paper"),
    "demsar2006_table2": lambda: compare(load_example("demsar2006_table2")),
    "folds_demo_runtime": lambda: compare(load_example("folds_demo", criterion="runtime")),
}
RENDERERS = {"txt": text_report, "md": markdown_report, "tex": latex_report}


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("ext", RENDERERS)
def test_golden_files(case, ext):
    """Regenerate with RANKWISE_REGENERATE_GOLDEN=1 after a deliberate change, and review the diff."""
    text = RENDERERS[ext](CASES[case]())
    path = GOLDEN / f"{case}.{ext}"
    if REGENERATE:
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


def test_quartile_bar_layout():
    row = QuartileRow("bc", 0.0, 2.0, 5.0, 8.0, 10.0, 10)
    assert quartile_bar(row, 0.0, 10.0, width=11) == "[  ---|+++  ]"
    lines = format_quartile_chart("Overall", [row, QuartileRow("fc", 1, 1, 1, 1, 1, 1)], 0, 10,
                                  digits=1, width=11)
    assert lines == ["----| Overall |-----",
                     "bc, 0.0, 2.0, 5.0, 8.0, 10.0, [  ---|+++  ]",
                     "fc, 1.0, 1.0, 1.0, 1.0,  1.0, [ |         ]"]


def test_a_quartile_chart_names_its_columns_and_its_bar():
    """The text (and the LaTeX, which prints the same lines) says what each number and each
    character of the bar is: a header line aligned with the columns, and a legend with the
    bars' scale; every line within 80 columns."""
    from rankwise.stats.summary import quartile_chart_lines

    lines = quartile_chart_lines(load_example("garcia2008"))
    assert lines[2].startswith("(bars on one scale from 0.098 to 0.994:")
    assert "| the median" in lines[3]
    head, first = lines[5], lines[6]
    assert head.split(", ")[0].strip() == "learner" and head.endswith(", bar")
    assert [c.strip() for c in head.split(",")[1:6]] == ["min", "q1", "median", "q3", "max"]
    assert [m.end() for m in re.finditer(",", head)] == \
        [m.end() for m in re.finditer(",", first)][:6]
    assert max(map(len, lines)) <= 80


def test_quartile_charts_use_fold_values_and_the_overall_rule():
    t = load_example("folds_demo", criterion="accuracy")
    charts = quartile_charts(t)
    assert charts["fold_level"] and [r.n for r in charts["overall"]] == [50] * 4
    assert set(charts["per_dataset"]) == set(t.datasets)
    assert all(r.n == 10 for rows in charts["per_dataset"].values() for r in rows)
    assert charts["overall_enough"] == all(v >= 0.6 for v in charts["agreement"].values())
    # A data set that reverses the order is "strikingly different": its chart must be shown.
    raw = t.raw.copy()
    flip = raw["dataset"] == "iris"
    raw.loc[flip, "value"] = 2 - raw.loc[flip, "value"]
    from dataclasses import replace
    flipped = quartile_charts(replace(t, raw=raw))
    assert flipped["agreement"]["iris"] < 0 and not flipped["overall_enough"]


def test_win_tie_loss_matrix():
    x = np.array([[1, 2, 2], [3, 1, 3], [0.3 - 0.2, 0.2 - 0.1, 0]])
    w = win_tie_loss_matrix(x)
    assert w[0, 1].tolist() == [1, 1, 1]  # the third row is a tie after rounding
    assert w[1, 0].tolist() == [1, 1, 1]
    assert (w[:, :, 0] == w.transpose(1, 0, 2)[:, :, 2]).all()
    assert win_tie_loss_matrix(x, higher_is_better=False)[0, 1].tolist() == [1, 1, 1]


def test_verdict_winners_losers_and_not_detected():
    v = verdict(compare(load_example("garcia2010")))
    assert v["best"] == "PDFC" and not v["tie"] and v["difference_detected"]
    assert v["winners"] == ["PDFC", "NNEP", "IS-CHC+1NN"] and v["losers"] == ["FH-GBML"]
    assert "Holm's procedure" in v["text"] and "alpha = 0.05" in v["text"]
    rng = np.random.default_rng(0)
    null = ScoreTable(values=rng.normal(size=(8, 3)), datasets=tuple("abcdefgh"),
                      learners=("A", "B", "C"))
    none = compare(null)
    assert not none.verdict.detected and none.verdict.tie  # "tie" is the 0.1 name, kept in JSON
    assert none.verdict.text.startswith("No significant difference detected at alpha = 0.05")
    assert "tie" not in none.verdict.text and "equivalent" not in none.verdict.text
    two = verdict(compare(load_example("demsar2006_table2")))
    assert two["winners"] == ["C4.5+m"] and "Wilcoxon" in two["text"]


def test_methods_paragraph_reports_choices_and_drops(tmp_path):
    p = tmp_path / "t.csv"
    p.write_text("dataset,A,B,C\nd1,1,2,\nd2,2,3,1\nd3,3,1,2\nd4,1,3,2\n")
    text = compare(p, missing="drop-datasets").to_text()
    assert "1 result(s) were missing; 1 data set(s) (d1) were dropped." in text
    assert "tie-corrected" in text and "rounded to 12 decimals" in text


# --- critical-difference diagrams -------------------------------------------------------------

def decisions(cmp, procedure):
    names = list(cmp.table.learners)
    k = len(names)
    sig = np.zeros((k, k), dtype=bool)
    for row in cmp.posthoc.rankings["friedman"].families["all_pairs"].comparisons:
        a, b = names.index(row.a), names.index(row.b)
        sig[a, b] = sig[b, a] = row.apv[procedure] <= cmp.alpha
    # The typed family says the same, and so does the 0.1 dict interface.
    fam = cmp.posthoc.rankings["friedman"].families["all_pairs"]
    assert (fam.significant(procedure, cmp.alpha, names) == sig).all()
    assert len(cmp.posthoc["friedman"]["all_pairs"]) == len(fam.comparisons)
    return sig


def test_cliques_garcia2008_bergmann_hommel_groups():
    """García & Herrera (2008): Bergmann-Hommel separates {C4.5, NaiveBayes}, {1-NN, CN2} and
    Kernel."""
    cmp = compare(load_example("garcia2008"), posthoc="all", convention="paper")
    names = list(cmp.table.learners)
    groups = cliques(cmp.mean_ranks, decisions(cmp, "bergmann_hommel"))
    assert [{names[i] for i in g} for g in groups] == [{"C4.5", "NaiveBayes"}, {"1-NN", "CN2"}]
    fig = cd_diagram(cmp.mean_ranks, names, decisions(cmp, "bergmann_hommel"))
    assert fig.rankwise_cliques == groups


def test_cliques_demsar_nemenyi():
    """Demšar (2006) Fig. 1: with CD(0.10) = 1.12, C4.5 differs from C4.5+m and C4.5+m+cf."""
    t = load_example("demsar2006_table6_tiebreak")
    cmp = compare(t, convention="paper")
    names = list(t.learners)
    r = cmp.mean_ranks
    for alpha, expected in [(0.10, [{"C4.5+m+cf", "C4.5+m", "C4.5+cf"}, {"C4.5+cf", "C4.5"}]),
                            (0.05, [set(names)])]:
        from rankwise import critical_difference
        cd = critical_difference(4, 14, alpha).cd
        groups = cliques(r, np.abs(r[:, None] - r[None, :]) >= cd)
        assert [{names[i] for i in g} for g in groups] == expected


def test_clique_bars_never_overlap_on_a_level():
    rng = np.random.default_rng(1)
    for _ in range(200):
        k = int(rng.integers(3, 15))
        r = np.sort(rng.uniform(1, k, size=k))
        sig = np.abs(r[:, None] - r[None, :]) >= rng.uniform(0.5, 3)
        groups = cliques(r, sig)
        spans = [(r[g[0]], r[g[-1]]) for g in groups]
        levels = assign_levels(spans)
        for i in range(len(spans)):
            for j in range(i + 1, len(spans)):
                if levels[i] == levels[j]:
                    assert spans[i][1] < spans[j][0] or spans[j][1] < spans[i][0]
        for g in groups:  # cliques are mutually non-significant and maximal
            assert not sig[np.ix_(g, g)].any()
            others = [u for u in range(k) if u not in g]
            assert all(sig[u, list(g)].any() for u in others)


def ink(png: bytes) -> float:
    from matplotlib.image import imread
    import io
    img = imread(io.BytesIO(png))
    return float((img[:, :, :3].mean(axis=2) < 0.9).mean())


def test_label_widths_are_matplotlibs_extents_to_the_last_bit():
    """The diagrams' label widths trace only the curves that can reach an end of the outline:
    the same float as matplotlib's full ``get_extents`` on names of every kind, both weights,
    sizes from 5 to 100 points."""
    import random

    from matplotlib.font_manager import FontProperties
    from matplotlib.path import Path
    from matplotlib.textpath import TextPath

    from rankwise.report.fonts import outline_width

    rng = random.Random(7)
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.()[] ωΨ∫éüßjfgQ"
    names = ["(00.00) a_configuration_with_a_long_name_07 [control]", "(1.00) C4.5", "W", "i",
             ".", "(0.00) ∫ ω-Ψ", "—"] + ["".join(rng.choice(letters)
                                                   for _ in range(rng.randint(1, 40)))
                                          for _ in range(30)]
    for weight in ("normal", "bold"):
        for name in names:
            size = rng.choice([5, 6, 7.5, 9, 12, 100])
            path = TextPath((0, 0), name, size=size, prop=FontProperties(weight=weight))
            assert outline_width(path) == path.get_extents().width, (name, size, weight)
    square = Path([(0, 0), (2, 0), (2, 1), (0, 0)], [1, 2, 2, 79])   # no curves
    assert outline_width(square) == square.get_extents().width == 2


@pytest.mark.figures
def test_every_figure_renders_to_a_nontrivial_png():
    cmp = compare(load_example("garcia2010"), posthoc="both")
    figs = figures(cmp)
    assert set(figs) == {"cd_diagram", "control_diagram", "pvalue_heatmap"}
    for name, fig in figs.items():
        png = figure_bytes(fig, "png")
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        assert 0.005 < ink(png) < 0.6, name
        assert figure_bytes(fig, "svg") == figure_bytes(fig, "svg")  # reproducible
        assert figure_bytes(fig, "pdf")[:5] == b"%PDF-"


def test_fifty_learners_labels_do_not_overlap():
    rng = np.random.default_rng(2)
    k = 50
    r = np.sort(rng.uniform(1, k, size=k))
    names = [f"a-rather-long-learner-name-{i:02d}" for i in range(k)]
    for fig in (cd_diagram(r, names, cd=6.0), control_diagram(r, names, 0, cd=6.0)):
        renderer = fig.canvas.get_renderer()
        boxes = [t.get_window_extent(renderer) for t in fig.rankwise_labels]
        fw, fh = fig.canvas.get_width_height()
        for i, a in enumerate(boxes):
            assert a.x0 >= 0 and a.x1 <= fw and a.y0 >= 0 and a.y1 <= fh  # inside the figure
            for b in boxes[i + 1:]:
                assert not a.overlaps(b)


@pytest.mark.figures
def test_heatmap_and_control_diagram_show_names_literally():
    names = ["50% & $x_1$", "<b>", "c"]
    fig = pvalue_heatmap(np.array([[1, .01, .5], [.01, 1, .2], [.5, .2, 1]]), names, [1, 2, 3])
    svg = figure_bytes(fig, "svg").decode()
    assert "50% &amp; $x_1$" in svg and "&lt;b&gt;" in svg


# --- HTML, LaTeX, Jupyter, --report ----------------------------------------------------------

EVIL = ("<script>alert(1)</script>", "50% & $x_1$", "plain")


def evil_comparison():
    rng = np.random.default_rng(3)
    x = rng.normal(size=(12, 3)) + [0, 0.6, 1.5]
    return compare(ScoreTable(values=x, datasets=tuple(f"d{i}" for i in range(12)),
                              learners=EVIL), posthoc="both")


@pytest.mark.figures
def test_html_escapes_names_and_is_self_contained():
    from rankwise.report.page import JS

    page = evil_comparison().to_html()
    assert "<script" not in page.lower()
    live = evil_comparison().to_html(interactive=True)   # the one script is the page's own
    assert live.lower().count("<script") == 1 and live.count(f"<script>{JS}</script>") == 1
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in live
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "50% &amp; $x_1$" in page
    assert not re.search(r'(src|href)="(https?:)?//', page)  # no external resources
    assert page.count("<figure") == 3 and page.count('<svg class="quartiles"') == 1


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


@pytest.mark.subprocess
@pytest.mark.skipif(chromium() is None, reason="no Chromium here: install Debian's 'chromium'"
                    " (.ci/run does) to check the HTML report in a real browser")
@pytest.mark.figures
def test_html_report_in_headless_chromium(tmp_path):
    page = tmp_path / "report.html"
    page.write_text(evil_comparison().to_html(), encoding="utf-8")
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             f"--user-data-dir={tmp_path / 'profile'}"]
    dom = subprocess.run([chromium(), *flags, "--dump-dom", page.as_uri()], capture_output=True,
                         text=True, timeout=120).stdout
    assert "Verdict" in dom and 'id="cd_diagram"' in dom and "<svg" in dom
    assert "<script" not in dom  # the learner named <script> stayed text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in dom and "50% &amp; $x_1$" in dom
    shot = tmp_path / "shot.png"
    subprocess.run([chromium(), *flags, f"--screenshot={shot}", "--window-size=1200,1600",
                    page.as_uri()], capture_output=True, timeout=120)
    assert shot.exists() and 0.01 < ink(shot.read_bytes()) < 0.6


@pytest.mark.subprocess
@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="no TeX here: install Debian's"
                    " texlive-latex-base and texlive-latex-recommended (.ci/run does)")
def test_latex_report_compiles(tmp_path):
    for cmp in (evil_comparison(), compare(load_example("garcia2008"), posthoc="all")):
        tex = tmp_path / "report.tex"
        tex.write_text(cmp.to_latex(), encoding="utf-8")
        out = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error",
                              tex.name], cwd=tmp_path, capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stdout[-2000:]
        assert (tmp_path / "report.pdf").stat().st_size > 1000


def test_latex_escapes_names():
    tex = evil_comparison().to_latex()
    assert r"50\% \& \$x\_1\$" in tex and r"\textless{}script\textgreater{}" in tex


@pytest.mark.figures
def test_jupyter_displays_a_scoped_fragment_with_cached_figures(monkeypatch):
    from rankwise.report import diagrams

    cmp = compare(load_example("garcia2010"))
    calls = []
    real = diagrams.draw_all
    monkeypatch.setattr(diagrams, "draw_all", lambda c: calls.append(1) or real(c))
    first = cmp._repr_html_()
    assert cmp._repr_html_() == first and len(calls) == 1  # figures rendered once
    assert first.startswith('<div class="rankwise-report">') and "<!DOCTYPE" not in first
    css = re.search(r"<style>(.*?)</style>", first, re.S).group(1)
    selectors = [rule.split("{")[0] for rule in css.replace("\n", "").split("}") if "{" in rule]
    assert selectors and all(part.strip().startswith(".rankwise-report")
                             for sel in selectors for part in sel.split(","))
    assert first.count("<figure") == 3 and first.count('<svg class="quartiles"') == 1
    text = repr(cmp)
    assert len(text) < 400 and len(text.splitlines()) <= 4
    assert "k = 4" in text and "N = 24" in text and "FH-GBML" in text
    assert cmp.verdict.losers == ("FH-GBML",)


@pytest.mark.figures
def test_report_folder(tmp_path):
    from typer.testing import CliRunner
    from rankwise.cli import app

    res = CliRunner().invoke(app, ["compare", "--example", "garcia2010", "--posthoc", "all",
                                   "--report", str(tmp_path / "out"), "-f", "markdown"])
    assert res.exit_code == 0, res.output
    files = {p.name for p in (tmp_path / "out").iterdir()}
    assert files == {f"{n}.{e}" for n in ("cd_diagram", "control_diagram", "pvalue_heatmap")
                     for e in ("svg", "pdf", "png")} | {
        "report.txt", "report.md", "report.tex", "report_fragment.tex", "report.html",
        "report_interactive.html", "pairs.csv", "report.json", "cd_diagram.tikz",
        "cd_diagram_tikz.tex"}
    doc = json.loads((tmp_path / "out" / "report.json").read_text())
    assert doc["report"]["verdict"]["losers"] == ["FH-GBML"]
    assert res.stdout.startswith("# rankwise report")


def test_markdown_shows_names_literally():
    md = evil_comparison().to_markdown()
    outside_code = re.sub(r"```.*?```", "", md, flags=re.S)  # code blocks are literal already
    assert "<script>" not in outside_code and "&lt;script&gt;alert(1)&lt;/script&gt;" in md
    assert r"50% &amp; \$x\_1\$" in md


@pytest.mark.figures
def test_report_diagram_procedure(tmp_path):
    cmp = compare(load_example("garcia2008"), convention="paper")
    cmp.write_report(tmp_path, "bergmann_hommel")
    svg = (tmp_path / "cd_diagram.svg").read_text()
    assert "CD =" not in svg  # the CD is drawn only for Nemenyi, whose decisions it makes
    plan = json.loads((tmp_path / "report.json").read_text())["report"]["figures"]["cd_diagram"]
    assert plan["procedure"] == "bergmann_hommel" and "Bergmann-Hommel" in plan["caption"]
    from rankwise import RankwiseError
    with pytest.raises(RankwiseError, match="diagram procedure must be one of"):
        cmp.write_report(tmp_path, "li")


def test_reports_of_large_tables_and_restricted_comparisons():
    rng = np.random.default_rng(5)
    n, k = 300, 12
    t = ScoreTable(values=np.round(rng.normal(size=(n, k)), 2),
                   datasets=tuple(f"d{i}" for i in range(n)),
                   learners=tuple(f"L{j}" for j in range(k)))
    cmp = compare(t, tests=["friedman"])  # the verdict computes its own gate test
    assert verdict(cmp)["gate"]["test"] == "iman_davenport"
    assert "100 more data sets" in cmp.to_markdown() and "100 more data sets" in cmp.to_text()
    w = win_tie_loss_matrix(t.values)
    assert w.shape == (k, k, 3) and (w.sum(axis=2)[~np.eye(k, dtype=bool)] == n).all()


def test_win_tie_loss_matrix_against_rounded_differences():
    """Comparing rounded scores gives the signs of the rounded differences (0.3 − 0.2 and
    0.2 − 0.1 included), for either direction and several roundings."""
    from rankwise.stats.ranking import round_scores

    rng = np.random.default_rng(9)
    for _ in range(100):
        n, k = int(rng.integers(1, 25)), int(rng.integers(2, 6))
        x = np.round(rng.normal(size=(n, k)), int(rng.integers(0, 3))) + rng.choice(
            [0.0, 0.1, 0.2, 0.3], size=(n, k))
        for hib in (True, False):
            for dec in (12, 1, None):
                w = win_tie_loss_matrix(x, hib, dec)
                r = round_scores(x, dec)
                for a in range(k):
                    for b in range(k):
                        d = round_scores(r[:, a] - r[:, b], dec) * (1 if hib else -1)
                        assert w[a, b].tolist() == [(d > 0).sum(), (d == 0).sum(), (d < 0).sum()]
    # compare() hands its own ranks over: the same matrix as from the scores
    x = np.round(rng.uniform(size=(40, 6)), 2)
    for hib in (True, False):
        cmp = compare(ScoreTable(values=x, datasets=tuple(map(str, range(40))),
                                 learners=tuple("ABCDEF"), higher_is_better=hib), decimals=2)
        assert np.array_equal(cmp.summary.win_tie_loss, win_tie_loss_matrix(x, hib, 2))


@pytest.mark.figures
def test_html_text_blocks_keep_their_line_breaks():
    """The quartile chart's "As text" block breaks lines where the chart does: before 0.9 it
    showed every line break as a literal backslash-n (names are made inert line by line)."""
    import re

    import rankwise

    cmp = rankwise.compare(rankwise.load_example("folds_demo", criterion="accuracy"))
    pre = re.search(r"<summary>As text</summary><pre>(.*?)</pre>", cmp.to_html(), re.S).group(1)
    assert "\\n" not in pre and pre.count("\n") >= 5
    assert pre.splitlines()[1] == "Criteria accuracy"


def test_quartile_chart_lines_fit_in_80_columns():
    """Many decimals (an items report prints six) or long names: the bars narrow, all
    alike, so that every line of the chart fits in 80 columns; a chart that fits keeps them."""
    from rankwise.stats.summary import BAR_WIDTH, quartile_chart_lines

    t = load_example("garcia2008")
    lines = quartile_chart_lines(t, digits=4)
    assert max(len(x) for x in lines) <= 80
    bars = [x[x.index("["):] for x in lines if x.endswith("]")]
    assert len({len(b) for b in bars}) == 1 and len(bars[0]) < BAR_WIDTH + 2
    short = quartile_chart_lines(t, digits=0)  # 80 columns with the header's "median"
    assert [len(x[x.index("["):]) for x in short if x.endswith("]")][0] == BAR_WIDTH + 2


def test_an_option_name_in_latex_keeps_its_two_hyphens():
    """TeX sets "--" as an en dash: "--summary mean" printed as "–summary mean"."""
    from rankwise.report.latex import latex_escape

    assert latex_escape("give --summary mean") == "give -{}-summary mean"
    assert "--" not in latex_escape("a---b ----") and latex_escape("x-y") == "x-y"


def test_table_digits_in_one_pass_equal_the_allclose_rule():
    """The decimals a report prints the table with: as many as the scores have (at most 6),
    NaN and ±inf aside; the same answer as np.allclose of the table against each rounding."""
    from rankwise.report.format import digits

    def by_allclose(values):
        for d in range(0, 7):
            if np.allclose(values, np.round(values, d), atol=1e-12, rtol=0, equal_nan=True):
                return max(d, 1)
        return 6

    rng = np.random.default_rng(5)
    cases = [np.zeros((0, 3)), np.array([[np.nan, np.inf], [-np.inf, 1.0]]),
             np.array([[1e300, 2.5]]), np.array([[1e305, 0.1]]), np.array([[0.1 + 0.2]])]
    for places in range(0, 9):
        for n in (3, 5000):
            x = np.round(rng.normal(0, 10, (n, 4)), places)
            x[rng.random(x.shape) < 0.01] = np.nan
            cases.append(x)
            for last in (0.1234567891, x[-1, 0] + 5e-13, x[-1, 0] + 2e-12):
                y = x.copy()
                y[-1, -1] = last      # after the first few thousand values
                cases.append(y)
    for values in cases:
        assert digits(values) == by_allclose(values)


@pytest.mark.figures
def test_the_html_cells_carry_the_star_their_legend_names():
    """The legend says "* = p <= 0.05" in every format; the HTML once only coloured the cell."""
    html = compare(load_example("garcia2008"), posthoc="all").render("html")
    assert "* = " in html
    marked = re.findall(r'<td[^>]*class="[^"]*sig[^"]*"[^>]*>(.*?)</td>', html)
    assert marked and all(cell.endswith("<sup>*</sup>") for cell in marked)


def test_the_quartile_charts_fit_80_columns_with_long_names_and_four_digits():
    """Eight learners named up to 18 characters, scores printed to four decimals: the chart's
    lines ran to 82 columns (its bar could not narrow below 20); every line now fits 80."""
    import pandas as pd

    rng = np.random.default_rng(62)
    names = ["LogisticRegression", "GradientBoosting", "RandomForest", "SVM-RBF", "kNN-15",
             "NaiveBayes", "MLP", "DecisionTree"]
    frame = pd.DataFrame(np.round(0.7 + 0.02 * np.arange(8) + rng.normal(0, 0.05, (20, 8)), 4),
                         columns=names, index=[f"d{i}" for i in range(20)])
    text = compare(frame, posthoc="all").render("text", width=80)
    assert max(len(line) for line in text.splitlines()) <= 80
