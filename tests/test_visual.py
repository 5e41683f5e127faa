"""The visual tier: the CD diagram as a reader meets it, checked for its geometry.

The TikZ diagrams (``cd_diagram.tikz``) of the bundled examples and of the extremes (k = 2, 3
and 78 learners, the best 30 of 78, 40-character names, one clique of every learner, many
cliques) are compiled by pdflatex in one two-column article, one to a page in a column
figure as a paper sets them, and two of them also on their own (``cd_diagram_tikz.tex``);
the drawn CD and control diagrams (PNG, SVG, PDF) are laid out by matplotlib, at their own
width and a column's. Each is reduced to its words and lines (:mod:`visual_geometry`) and
checked: no label overlaps another, no line crosses a label, nothing outside the page or the
file's canvas, no two clique bars of one level touching, every learner of the data named or
said (by the figure's caption) to be left out. The diagram the package wrote before (its
left labels struck through by their own lines) is kept in ``tests/data/visual`` and must be
reported.

Run it alone with ``python -m pytest -m visual`` (about 20 s of processor time; without
pdflatex, TikZ or pdftotext the TikZ tests skip and say so; ``.ci/run`` installs them).
"""

import shutil
import subprocess
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from rankwise import PosthocOptions, Presentation, compare, load_example
from rankwise.report.diagrams import (cd_diagram, draw, figure_bytes, figure_width,
                                      shown_figure_inputs)
from rankwise.report.folder import tikz_files
from rankwise.report.tikz import cd_diagram_tikz, fitted

from visual_geometry import (Box, Label, Scene, Segment, figure_scene, pdf_scenes, problems,
                             synthetic)

pytestmark = pytest.mark.visual

DATA = Path(__file__).parent / "data" / "visual"
HAVE_TIKZ = (all(shutil.which(tool) for tool in ("pdflatex", "kpsewhich", "pdftotext",
                                                  "pdftoppm"))
             and subprocess.run(["kpsewhich", "tikz.sty"], capture_output=True).returncode == 0)
needs_tex = pytest.mark.skipif(
    not HAVE_TIKZ, reason="no TeX with TikZ or no pdftotext/pdftoppm here: install Debian's"
    " texlive-latex-base, texlive-latex-recommended, texlive-pictures, lmodern and"
    " poppler-utils (.ci/run does)")

#: 40-character learner names.
LONG = [f"gradient_boosted_trees_config_{j:03d}_tuned" for j in range(8)]


def nemenyi(frame, top=30, **options):
    return compare(frame, posthoc=PosthocOptions(family="all", procedures=("nemenyi",),
                                                 **options), effects=False,
                   presentation=Presentation(top=top))


@pytest.fixture(scope="module")
def comparisons():
    """The comparisons whose CD diagrams are checked, by name."""
    every = nemenyi(synthetic(78, 40, 0.05), top=0)
    out = {
        "garcia2008": compare(load_example("garcia2008"), posthoc="all"),
        "demsar2006": compare(load_example("demsar2006_table6"), posthoc="all"),
        "k3": nemenyi(synthetic(3, 12, 0.8)),
        "k78": every,
        "k78_best30": every.with_options(top=30),   # --top's default: 48 left out
        "long_names": nemenyi(synthetic(8, 20, 0.4, LONG)),
        "one_clique": nemenyi(synthetic(6, 10, 0.0, seed=3), force=True),
        "many_cliques": nemenyi(synthetic(24, 30, 0.12)),
    }
    cliques = {name: out[name].figures["cd_diagram"].cliques
               for name in ("one_clique", "many_cliques")}
    assert [len(g) for g in cliques["one_clique"]] == [6] and len(cliques["many_cliques"]) >= 8
    return out


def two_learners():
    """k = 2 (compare draws no diagram for two learners, but the diagram functions take
    them): one clique, its CD."""
    plan = SimpleNamespace(cliques=(("first learner", "second learner"),),
                           critical_difference=0.6)
    return plan, np.array([1.35, 1.65]), ["first learner", "second learner"]


def caption(cmp, name="cd_diagram") -> str:
    """The caption the reports (and the paper fragment) set under the figure ``name``."""
    from rankwise.report.blocks import Figure
    from rankwise.report.document import build, figure_caption

    return next(figure_caption(b.plan) for b in build(cmp).blocks
                if isinstance(b, Figure) and b.name == name)


def pdflatex(folder: Path, name: str) -> Path:
    out = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", name],
                         cwd=folder, capture_output=True, text=True, timeout=180)
    assert out.returncode == 0, out.stdout[-3000:]
    return folder / name.replace(".tex", ".pdf")


#: Streams written as text, for :func:`visual_geometry.pdf_scenes` (the layout is the same).
UNCOMPRESSED = "\\pdfcompresslevel=0 \\pdfobjcompresslevel=0\n"


def article(inputs) -> str:
    """A two-column article (uncompressed, for the geometry), each input in a column figure
    on a page of its own."""
    body = "".join(f"\\begin{{figure}}\n\\centering\n\\input{{{name}.tikz}}\n"
                   f"\\caption{{{name.replace('_', ' ')}}}\n\\end{{figure}}\n\\clearpage\n"
                   for name in inputs)
    return (UNCOMPRESSED + "\\documentclass[twocolumn]{article}\n"
            "\\usepackage[T1]{fontenc}\n\\usepackage{lmodern}\n\\usepackage{tikz}\n"
            "\\usepackage{graphicx}\n\\pagestyle{empty}\n\\begin{document}\n" + body
            + "\\end{document}\n")


@pytest.fixture(scope="module")
def compiled(comparisons, tmp_path_factory):
    """``{name: (Scene, learner names, caption)}``: every diagram compiled in the two-column
    article (``struck``: the old diagram), and ``standalone NAME`` for the diagrams that also
    compile on their own; the names are every learner of the data."""
    folder = tmp_path_factory.mktemp("visual")
    named, standalone = {}, ("k78", "long_names")
    for name, cmp in comparisons.items():
        files = tikz_files(cmp)
        (folder / f"{name}.tikz").write_text(files["cd_diagram.tikz"], encoding="utf-8")
        named[name] = (list(cmp.table.learners), caption(cmp))
        if name in standalone:   # as written, uncompressed
            page = UNCOMPRESSED + files["cd_diagram_tikz.tex"]
            (folder / f"{name}_alone.tex").write_text(page, encoding="utf-8")
    plan, ranks, names = two_learners()
    (folder / "k2.tikz").write_text(fitted(cd_diagram_tikz(plan, ranks, names)))
    named["k2"] = (names, None)
    shutil.copy(DATA / "cd_diagram_struck.tikz", folder / "struck.tikz")
    named["struck"] = named["garcia2008"]
    (folder / "article.tex").write_text(article(named), encoding="utf-8")
    pdf = pdflatex(folder, "article.tex")
    # the pages as a reader sees them, to look at where a check fails (page-01.png, ...)
    subprocess.run(["pdftoppm", "-png", "-r", "100", str(pdf), str(folder / "page")],
                   check=True)
    assert len(list(folder.glob("page-*.png"))) == len(named)
    scenes = dict(zip(named, pdf_scenes(pdf)))
    out = {name: (scenes[name], *named[name]) for name in named}
    for name in standalone:
        out[f"standalone {name}"] = (pdf_scenes(pdflatex(folder, f"{name}_alone.tex"))[0],
                                     *named[name])
    return out


CHECKED = ["garcia2008", "demsar2006", "k2", "k3", "k78", "k78_best30", "long_names",
           "one_clique", "many_cliques", "standalone k78", "standalone long_names"]


@needs_tex
@pytest.mark.subprocess
@pytest.mark.parametrize("name", CHECKED)
def test_the_compiled_tikz_diagram_has_no_collisions(compiled, name):
    scene, names, note = compiled[name]
    assert problems(scene, names, note) == []
    shown = 30 if name.endswith("best30") else len(names)
    assert len(scene.labels) >= shown + 2   # the learners, the ticks, the CD


@needs_tex
@pytest.mark.subprocess
def test_a_cut_diagram_without_its_caption_is_reported(compiled):
    scene, names, _ = compiled["k78_best30"]
    assert any("48 learners are neither drawn nor said to be left out" in p
               for p in problems(scene, names))


@needs_tex
@pytest.mark.subprocess
def test_the_old_struck_through_diagram_is_reported(compiled):
    scene, names, note = compiled["struck"]
    found = problems(scene, names, note)
    for left in ("C4.5", "NaiveBayes"):   # struck by their own lines (CN2's ends at it)
        assert any("crosses label" in p and left in p for p in found), (left, found)
    assert not any("Kernel" in p or "1-NN" in p for p in found)   # the right side was right


def test_the_tikz_leader_lines_turn_outwards():
    """Each learner's line ends beyond the axis on its side, its label outside that end."""
    cmp = compare(load_example("garcia2008"), posthoc="all")
    picture = tikz_files(cmp)["cd_diagram.tikz"]
    ends = [line.split("|- (")[1].split(",")[0] for line in picture.splitlines() if "|-" in line]
    sides = ["left" if "node[left]" in line else "right"
             for line in picture.splitlines() if "|-" in line]
    for end, side in zip(ends, sides):
        assert float(end) < 1 if side == "left" else float(end) > 5


# --- the drawn figures -----------------------------------------------------------------------

def drawn(cmp, name, width):
    """The figure ``name`` as the reports draw it, every learner of the data, its caption."""
    names, ranks, restrict = shown_figure_inputs(cmp)
    fig = draw(restrict(cmp.figures[name]), ranks, names, width=width)
    return fig, list(cmp.table.learners), caption(cmp, name)


def blank_edges(png: bytes) -> bool:
    """Is the outermost pixel frame of the image white (nothing cut at the file's edge)?"""
    import io

    from matplotlib.image import imread

    img = imread(io.BytesIO(png))[:, :, :3].mean(axis=2)
    return min(img[0].min(), img[-1].min(), img[:, 0].min(), img[:, -1].min()) > 0.95


@pytest.mark.figures
@pytest.mark.parametrize("width", [None, "column"])
def test_the_drawn_diagrams_have_no_collisions(comparisons, width):
    inches = figure_width(width)
    for case, cmp in comparisons.items():
        for name in ("cd_diagram", "control_diagram"):
            if name not in cmp.figures or not cmp.figures[name].drawn:
                continue
            fig, names, note = drawn(cmp, name, inches)
            assert problems(figure_scene(fig, f"{case} {name} at {width}"), names, note) == []
            assert blank_edges(figure_bytes(fig, "png")), (case, name, width)
    plan, ranks, names = two_learners()
    fig = cd_diagram(ranks, names, cd=plan.critical_difference, groups=[(0, 1)],
                     width=inches)
    assert problems(figure_scene(fig), names) == []
    assert blank_edges(figure_bytes(fig, "png"))


@pytest.mark.figures
@pytest.mark.subprocess
@needs_tex
def test_the_vector_files_keep_every_label_whole(comparisons, tmp_path):
    """The PDF (as the SVG) is cut to a box measured at the PNG's resolution: measured at
    72 dpi the longest bold label of a column-wide control diagram lost "(1." in the PDF while
    the PNG was whole. Each PDF drawn at a column's width, rasterised, has a blank edge."""
    import subprocess

    inches = figure_width("column")
    for case, cmp in comparisons.items():
        for name in ("cd_diagram", "control_diagram"):
            if name not in cmp.figures or not cmp.figures[name].drawn:
                continue
            fig, _, _ = drawn(cmp, name, inches)
            pdf = tmp_path / f"{case}_{name}.pdf"
            pdf.write_bytes(figure_bytes(fig, "pdf"))
            subprocess.run(["pdftoppm", "-r", "150", "-png", "-singlefile", str(pdf),
                            str(pdf.with_suffix(""))], check=True)
            assert blank_edges(pdf.with_suffix(".png").read_bytes()), (case, name)


def test_the_drawn_diagram_keeps_two_cliques_apart(comparisons, monkeypatch):
    """García's two cliques 2.10-3.12 and 3.25-4.33 shared a level with 0.2 pixels between
    them at column width: one bar from C4.5 to Kernel (which differ significantly). The check
    sees it, and the diagram now puts them on levels of their own."""
    from rankwise.report import diagrams

    cmp = comparisons["garcia2008"]
    fig, names, _ = drawn(cmp, "cd_diagram", figure_width("column"))
    assert problems(figure_scene(fig), names) == []
    monkeypatch.setattr(diagrams, "_bar_levels", lambda fig, ax, x_of, r, g, levels: levels)
    fig, names, _ = drawn(cmp, "cd_diagram", figure_width("column"))
    assert any("touch" in p for p in problems(figure_scene(fig), names))


def test_the_figure_check_sees_a_struck_label(comparisons):
    cmp = comparisons["garcia2008"]
    fig, names, _ = drawn(cmp, "cd_diagram", None)
    label = next(t for t in fig.rankwise_labels if "C4.5" in t.get_text())
    x, y = label.get_position()
    fig.axes[0].plot([x - 0.2, x + 0.05], [y, y], color="black", lw=0.7)
    assert any("crosses label '(2.10) C4.5'" in p for p in problems(figure_scene(fig), names))


# --- the checker itself ----------------------------------------------------------------------

def test_the_checker_on_drawn_shapes():
    canvas = Box(0, 0, 100, 100)
    a, b = Label("first", Box(10, 10, 30, 18)), Label("second", Box(25, 12, 45, 20))
    assert any("overlaps" in p for p in problems(Scene(canvas, [a, b], [])))
    ends_at_it = Segment(60, 14, 30.2, 14, 0.4)   # a leader line that ends at its label
    through = Segment(5, 14, 35, 14, 0.4)
    assert problems(Scene(canvas, [a], [ends_at_it])) == []
    assert any("crosses" in p for p in problems(Scene(canvas, [a], [through])))
    outside = Label("off", Box(95, 50, 110, 58))
    assert any("outside" in p for p in problems(Scene(canvas, [outside], [])))
    bars = [Segment(10, 50, 40, 50, 2), Segment(40.5, 50, 60, 50, 2), Segment(0, 0, 1, 0, 0.4)]
    assert any("touch" in p for p in problems(Scene(canvas, [], bars)))
    assert problems(Scene(canvas, [a], []), ["first", "third"]) != []
    assert problems(Scene(canvas, [a], []), ["first", "third"],
                    note="The figures show the best 1 of 2 learners (1 left out).") == []


def test_tied_learners_drop_their_own_lines_in_the_drawn_and_the_tikz_diagram():
    """Two tied pairs (2.5 and 3.5 of four learners): each learner's line down from the axis
    stands apart from its twin's, 3 points, in the drawn diagram and in the TikZ one (one
    line served two learners, and their two labels read as hanging from one point)."""
    from matplotlib.lines import Line2D

    from rankwise.analysis.results import FigurePlan
    from rankwise.report.diagrams import DROP_SEP
    from rankwise.report.tikz import DROP_SEP_CM

    ranks, names = np.array([1.0, 2.5, 2.5, 4.0]), ["a", "b", "c", "d"]
    fig = cd_diagram(ranks, names, cd=3.5)
    drops = sorted(line.get_xdata()[0] for line in fig.axes[0].get_lines()
                   if isinstance(line, Line2D) and len(line.get_xdata()) == 3)
    gaps = np.diff(drops) * fig.get_figwidth()
    assert len(drops) == 4 and gaps.min() >= DROP_SEP * 0.99, gaps
    plan = FigurePlan(name="cd_diagram", drawn=True, headline=False, procedure="nemenyi",
                      family="all", ranking="friedman", alpha=0.05, caption="",
                      cliques=(("a", "b", "c", "d"),), critical_difference=3.5)
    picture = cd_diagram_tikz(plan, ranks, names)
    xs = sorted(float(line.split("\\draw (")[1].split(",")[0])
                for line in picture.splitlines() if "|-" in line)
    unit = 8.0 / 3   # cm per rank: the axis 1 to 4 over WIDTH_CM
    assert np.diff(xs).min() * unit >= DROP_SEP_CM * 0.99, xs
