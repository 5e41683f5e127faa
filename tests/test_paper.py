"""Outputs for papers: LaTeX a journal accepts, figures without in-figure titles, the TikZ CD
diagram, and a command line whose --help lists the choices."""

import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from rankwise import compare, load_example

HAVE_TEX = shutil.which("pdflatex") is not None
needs_tex = pytest.mark.skipif(not HAVE_TEX, reason="no TeX here: install Debian's"
                               " texlive-latex-base, texlive-latex-recommended, texlive-pictures"
                               " and lmodern (.ci/run does)")


def six_learners():
    rng = np.random.default_rng(1)
    names = ["abalone", "adult-income", "australian", "autos", "balance-scale",
             "breast-cancer", "bupa-liver", "car", "cleveland", "contraceptive", "crx",
             "dermatology"]
    frame = pd.DataFrame(np.round(rng.uniform(0.6, 0.95, (12, 6)), 3),
                         columns=["C4.5", "1-NN", "NaiveBayes", "Kernel", "CN2", "RandomForest"])
    frame.insert(0, "dataset", names)
    return frame


def pdflatex(folder, name="report.tex"):
    out = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", name],
                         cwd=folder, capture_output=True, text=True, timeout=180)
    assert out.returncode == 0, out.stdout[-3000:]
    return (folder / name.replace(".tex", ".log")).read_text(errors="replace")


@pytest.mark.subprocess
@needs_tex
@pytest.mark.skipif(shutil.which("pdffonts") is None, reason="no pdffonts (poppler-utils)")
@pytest.mark.figures
def test_compiled_report_has_vector_fonts_and_includes_the_cd_diagram(tmp_path):
    cmp = compare(load_example("garcia2008"), posthoc="all")
    cmp.write_report(tmp_path)
    log = pdflatex(tmp_path)
    # included (the TikZ picture where TikZ is installed, else the PDF), not only mentioned
    assert "cd_diagram.tikz" in log or "cd_diagram.pdf" in log
    fonts = subprocess.run(["pdffonts", "report.pdf"], cwd=tmp_path, capture_output=True,
                           text=True).stdout
    rows = fonts.splitlines()[2:]
    assert rows and not any("Type 3" in row for row in rows), fonts
    assert "Overfull" not in log


@pytest.mark.subprocess
@needs_tex
def test_a_six_learner_rank_table_is_set_at_the_body_font(tmp_path):
    cmp = compare(six_learners())
    tex = cmp.to_latex()
    assert r"\resizebox" not in tex
    table = tex[:tex.index("dataset & C4.5")]
    opening = table[table.rindex(r"\begin{center}"):]
    assert not re.search(r"\\(small|footnotesize|scriptsize|tiny)\b", opening)
    assert not table.rstrip().endswith(r"\begin{landscape}")
    cmp.write_report(tmp_path)
    log = pdflatex(tmp_path)
    assert "Overfull" not in log


@pytest.mark.subprocess
@needs_tex
@pytest.mark.figures
def test_the_fragment_compiles_inside_a_two_column_paper(tmp_path):
    cmp = compare(load_example("garcia2010"), posthoc="all")
    cmp.write_report(tmp_path)
    fragment = (tmp_path / "report_fragment.tex").read_text()
    assert r"\documentclass" not in fragment and r"\begin{document}" not in fragment
    assert r"\label{fig:rankwise-cd-diagram}" in fragment and r"\label{tab:rankwise-" in fragment
    assert "$\\alpha = 0.05$" in fragment
    (tmp_path / "paper.tex").write_text(
        "\\documentclass[twocolumn]{article}\n\\usepackage[T1]{fontenc}\n\\usepackage{lmodern}\n"
        "\\usepackage{booktabs}\n\\usepackage{graphicx}\n\\begin{document}\nText.\n"
        "\\input{report_fragment}\n\\end{document}\n")
    pdflatex(tmp_path, "paper.tex")


def test_latex_maths_and_marks():
    tex = compare(load_example("garcia2008"), posthoc="all").to_latex()
    assert "alpha = 0.05" not in tex.replace("$\\alpha = 0.05$", "")
    assert "$k = 5$" in tex and "$N = 30$" in tex and "$\\le$" in tex
    assert "\\usepackage{lmodern}" in tex and "\\usepackage{booktabs}" in tex
    assert "$$" not in tex  # a mark never sits next to another formula
    assert tex.count("{}^{*}") > 0


@pytest.mark.subprocess
@needs_tex
@pytest.mark.skipif(not HAVE_TEX or subprocess.run(["kpsewhich", "tikz.sty"], capture_output=True)
                    .returncode != 0, reason="no TikZ here: install Debian's texlive-pictures")
@pytest.mark.figures
def test_the_tikz_cd_diagram_compiles_on_its_own_and_matches_the_plan(tmp_path):
    cmp = compare(load_example("garcia2008"), posthoc="all")
    cmp.write_report(tmp_path)
    picture = (tmp_path / "cd_diagram.tikz").read_text()
    plan = cmp.figures["cd_diagram"]
    assert f"CD = {plan.critical_difference:.4f}" in picture
    assert picture.count("line width=2pt") == len(plan.cliques)
    for name, rank in zip(cmp.table.learners, cmp.mean_ranks):
        assert f"({rank:.2f}) {name}" in picture or f"{name} ({rank:.2f})" in picture
    pdflatex(tmp_path, "cd_diagram_tikz.tex")
    assert (tmp_path / "cd_diagram_tikz.pdf").stat().st_size > 1000
    log = pdflatex(tmp_path)
    assert "cd_diagram.tikz" in log


@pytest.mark.figures
def test_figures_have_no_title_unless_asked():
    from rankwise.report.diagrams import draw_all, figure_bytes

    cmp = compare(load_example("garcia2008"), posthoc="all")
    svg = figure_bytes(draw_all(cmp)["cd_diagram"], "svg").decode()
    assert "All pairs" not in svg and "Nemenyi" not in svg and "alpha" not in svg
    titled = cmp.with_options(figure_title=True)
    svg = figure_bytes(draw_all(titled)["cd_diagram"], "svg").decode()
    assert "All pairs" in svg and "Nemenyi" in svg


def test_heat_map_classes_and_neutral_diagonal():
    from rankwise.report.plots import P_BOUNDS, pvalue_heatmap

    fig = pvalue_heatmap(np.array([[1, 0.0005, 0.03], [0.0005, 1, 0.2], [0.03, 0.2, 1]]),
                         ["a", "b", "c"], np.array([1.0, 2.0, 3.0]))
    image = fig.axes[0].images[0]
    data = image.get_array()
    assert data.mask.diagonal().all()  # the diagonal is not coloured like p = 1
    assert list(image.norm.boundaries) == list(P_BOUNDS)
    colours = {tuple(image.cmap(image.norm(v))) for v in (0.0005, 0.005, 0.03, 0.07, 0.5)}
    assert len(colours) == 5


@pytest.mark.figures
def test_html_titles_with_the_file_name_and_draws_quartile_charts(tmp_path):
    import xml.dom.minidom

    path = tmp_path / "deep" / "folder"
    path.mkdir(parents=True)
    table = path / "results.csv"
    table.write_text(load_example("garcia2010").to_frame().rename_axis("dataset").to_csv())
    cmp = compare(table)
    page = cmp.to_html()
    assert "<h1>rankwise report: results.csv</h1>" in page and str(path) not in page.split(
        "</h1>")[0]
    assert cmp.to_dict()["source"] == str(table)  # the JSON keeps the whole path
    svg = re.search(r'<svg class="quartiles".*?</svg>', page, re.S).group(0)
    xml.dom.minidom.parseString(svg)
    rows = cmp.summary.quartiles["overall"]
    assert svg.count("<rect") == len(rows) and all(r.learner in svg for r in rows)
    lo, hi = cmp.summary.quartiles["lo"], cmp.summary.quartiles["hi"]
    assert f">{lo:.3f}</text>" in svg and f">{hi:.3f}</text>" in svg  # the shared scale
    assert "<details><summary>As text</summary><pre>" in page


def _help(*args):
    import os
    import sys

    env = {**os.environ, "COLUMNS": "220"}  # no wrapping inside the choice lists
    return subprocess.run([sys.executable, "-m", "rankwise.cli", *args, "--help"],
                          capture_output=True, text=True, env=env).stdout


@pytest.mark.subprocess
def test_every_choice_is_listed_in_help_and_completed_by_the_shell():
    import os
    import sys

    from rankwise import names
    from rankwise.stats import omnibus, two_learners
    from rankwise.tables import read

    # the library validates with the very lists that --help shows
    assert read.SHAPES is names.SHAPES and read.MISSING_POLICIES is names.MISSING_POLICIES
    assert omnibus.FRIEDMAN_METHODS is names.FRIEDMAN_METHODS
    assert two_learners.ZERO_METHODS is names.ZERO_METHODS
    text = _help("compare")
    for value in names.MISSING_POLICIES + ("impute:LEARNER",):  # a name too: listed in words
        assert value in " ".join(text.split()), value
    for values in (names.AGGREGATES, names.SHAPES, names.DUPLICATES, names.CONVENTIONS,
                   names.ALTERNATIVES, names.ZERO_METHODS, names.WILCOXON_METHODS,
                   names.SIGN_TIES, names.FRIEDMAN_METHODS, names.POSTHOC_FAMILIES,
                   names.REPORT_FORMATS, names.ALL_PAIRS_PROCEDURES):
        assert "[" + "|".join(values) + "]" in text, values
    # a list too long for one line is listed under its option
    assert "One of: " + ", ".join(names.BAYESIAN_TESTS + names.BAYESIAN_MODELS) in " ".join(
        text.split()) or "[" + "|".join(names.BAYESIAN_TESTS + names.BAYESIAN_MODELS) + "]" in text
    for value in names.CONTROL_PROCEDURES + names.OPTIONAL_PROCEDURES + tuple(names.RANKINGS_ALL):
        assert value in text, value
    for panel in ("Input", "Tests", "Post-hoc", "Effect sizes and Bayesian", "Output"):
        assert f"─ {panel} (guide: " in text
    assert text.count("<bool>") == 1  # only --help's own; the flags show as flags
    assert "[default: median]" in text and "[default: holm]" in text
    narrow = subprocess.run([sys.executable, "-m", "rankwise.cli", "compare", "--help"],
                            capture_output=True, text=True,
                            env={**os.environ, "COLUMNS": "100"}).stdout
    # two screens and a little, with --source's list of every reader and what it reads
    assert len(narrow.splitlines()) <= 160
    for width in ("80", "100", "120", "160"):  # no option name or help text cut short
        shown = subprocess.run([sys.executable, "-m", "rankwise.cli", "compare", "--help"],
                               capture_output=True, text=True,
                               env={**os.environ, "COLUMNS": width}).stdout
        assert "…" not in shown, width
    from pathlib import Path

    script = Path(sys.executable).parent / "rankwise"  # the console script names the variable
    if not script.exists():
        pytest.skip("the rankwise console script is not installed next to this Python")
    done = subprocess.run([str(script)], capture_output=True, text=True,
                          env={**os.environ, "_RANKWISE_COMPLETE": "complete_bash",
                               "COMP_WORDS": "rankwise compare --missing dr", "COMP_CWORD": "3"})
    assert done.stdout.split() == ["drop-datasets", "drop-learners"]
    from rankwise import names

    assert "[" + "|".join(names.REPORT_FORMATS) + "]" in _help("power")


def _overfull_points(log: str) -> list:
    return [float(v) for v in re.findall(r"Overfull \\hbox \(([\d.]+)pt too wide\)", log)]


@pytest.mark.subprocess
@needs_tex
@pytest.mark.skipif(not HAVE_TEX or subprocess.run(["kpsewhich", "tikz.sty"], capture_output=True)
                    .returncode != 0, reason="no TikZ here: install Debian's texlive-pictures")
@pytest.mark.parametrize("source", ["garcia2008", "garcia2010", "demsar2006_table6", "k30"])
@pytest.mark.figures
def test_fragment_and_tikz_fit_a_two_column_paper(tmp_path, source):
    """A two-column article (TikZ loaded) that inputs report_fragment.tex and, in a figure of
    one column, cd_diagram.tikz: nothing sticks out of its column or page by more than 1 pt."""
    if source == "k30":
        rng = np.random.default_rng(30)
        x = np.round(0.7 + np.linspace(0, 0.05, 30) + rng.normal(0, 0.03, (40, 30)), 3)
        data = pd.DataFrame(x, columns=[f"config_{j:02d}" for j in range(30)],
                            index=[f"dataset_{i:02d}" for i in range(40)])
    else:
        data = load_example(source)
    compare(data, posthoc="all").write_report(tmp_path)
    assert r"\rankwisefit" in (tmp_path / "cd_diagram.tikz").read_text()
    (tmp_path / "paper.tex").write_text(
        "\\documentclass[twocolumn]{article}\n\\usepackage[T1]{fontenc}\n\\usepackage{lmodern}\n"
        "\\usepackage{booktabs}\n\\usepackage{graphicx}\n\\usepackage{tikz}\n"
        "\\begin{document}\nText.\n\\input{report_fragment}\n"
        "\\begin{figure}\\centering\\input{cd_diagram.tikz}\\caption{CD}\\end{figure}\n"
        "\\end{document}\n")
    log = pdflatex(tmp_path, "paper.tex")
    assert "cd_diagram.tikz" in log
    assert all(points <= 1.0 for points in _overfull_points(log)), _overfull_points(log)


@pytest.mark.subprocess
@needs_tex
def test_a_board_of_78_learners_fits_its_page_both_ways(tmp_path):
    """TabArena's 78 learners: the board once ran 8.7 pt off a landscape page in \\tiny (its
    width under-estimated); now its columns sit closer in \\tiny and none runs off, and a
    table of many rows takes a size whose rows fit the page's height."""
    import rankwise.examples
    from rankwise import leaderboard

    # the file, as the command reads it: the times and imputed shares are columns too
    board = leaderboard(Path(rankwise.examples.__file__).parent
                        / "tabarena_results_per_split.csv", draws=10)
    (tmp_path / "report.tex").write_text(board.to_latex())
    log = pdflatex(tmp_path)
    assert "Overfull" not in log
    # every column kept, closer together in \tiny, rather than some left out
    assert "more columns" not in board.to_latex() and "med. rank" in board.to_latex()


@pytest.mark.subprocess
@needs_tex
@pytest.mark.figures
def test_a_tall_figure_is_scaled_to_the_page_not_run_off_it(tmp_path):
    """The Elo figure of 78 learners is taller than a page: the report once set it at the
    page's width, 717 pt too tall ("Float too large"), its last 35 learners off the page."""
    import rankwise.examples
    from rankwise import leaderboard

    board = leaderboard(Path(rankwise.examples.__file__).parent
                        / "tabarena_results_per_split.csv", draws=10)
    board.write_report(tmp_path)
    log = pdflatex(tmp_path)
    assert "elo.pdf" in log
    assert "Float too large" not in log and "Overfull" not in log


def eight_learners():
    """The paper author's table of the documentation walk: 8 learners with long names on 20
    data sets (its report turned 7 tables sideways and orphaned their headings)."""
    rng = np.random.default_rng(4)
    names = ["RandomForest", "GradientBoosting", "LogisticRegression", "SVM-RBF", "kNN-15",
             "NaiveBayes", "MLP", "DecisionTree"]
    frame = pd.DataFrame(np.round(rng.uniform(0.6, 0.99, (20, 8)), 4), columns=names)
    frame.insert(0, "dataset", [f"dataset_{i:02d}" for i in range(20)])
    return frame


def test_a_heading_a_caption_or_a_paragraph_stays_with_its_landscape_table():
    """In the report, nothing is left alone on a page by a table set sideways: the heading
    (and its paragraphs) before it go to its landscape page, the paragraph after it stays
    there, and a caption is in the table's minipage (it ran onto the next page)."""
    tex = compare(eight_learners(), posthoc="all").to_latex()
    assert tex.count(r"\begin{landscape}") >= 3
    for before in tex.split(r"\begin{landscape}")[:-1]:
        tail = before.rstrip().splitlines()[-1]
        assert not tail.startswith(r"\section") and not tail.startswith(r"\subsection"), tail
    for between in re.findall(r"\\end\{landscape\}(.*?)\\begin\{landscape\}", tex, re.S):
        assert not between.strip(), between
    for body in re.findall(r"\\begin\{minipage\}\{\\linewidth\}(.*?)\\end\{minipage\}", tex,
                           re.S):
        assert r"\end{tabular}" in body
    assert tex.count(r"\begin{tabular}") == tex.count(r"\begin{minipage}{\linewidth}")


@pytest.mark.subprocess
@needs_tex
@pytest.mark.visual
def test_the_width_a_table_is_placed_by_is_tex_s_within_a_few_percent(tmp_path):
    """The width that decides portrait, landscape and the font size is TeX's own, measured,
    within 0 to 8% over (never under: a table that overflows is worse): an average letter
    made it up to 19% over, and tables that fit a portrait page were turned sideways."""
    from rankwise.report import latex as L
    from rankwise.report.blocks import Table
    from rankwise.report.document import build

    tables = {}
    for name, cmp in (("walk", compare(eight_learners(), posthoc="all")),
                      ("g10", compare(load_example("garcia2010"), posthoc="both"))):
        token = L._NAMES.set(L._names_pattern(cmp.table.learners + cmp.table.datasets))
        try:
            for i, block in enumerate(build(cmp).blocks):
                if isinstance(block, Table):
                    kept, _ = L._narrowed(block)
                    tables[f"{name}{i}"] = (sum(L._width(kept)), L._tabular(kept))
        finally:
            L._NAMES.reset(token)
    lines = [r"\documentclass{article}", r"\usepackage[T1]{fontenc}", r"\usepackage{lmodern}",
             r"\usepackage{booktabs}", r"\begin{document}"]
    lines += [r"\setbox0\hbox{" + "\n".join(t) + r"}\typeout{WIDTH " + key + r" \the\wd0}"
              for key, (_, t) in tables.items()]
    (tmp_path / "widths.tex").write_text("\n".join(lines + [r"\end{document}"]))
    log = pdflatex(tmp_path, "widths.tex")
    real = {m[0]: float(m[1]) for m in re.findall(r"WIDTH (\S+) ([\d.]+)pt", log)}
    assert set(real) == set(tables) and len(real) >= 15
    for key, (estimate, _) in tables.items():
        assert 1.0 <= estimate / real[key] <= 1.08, (key, estimate, real[key])
