"""Curves (``rankwise curves``, :func:`rankwise.compare_curves`) and fronts (``rankwise compare
--criteria``, :func:`rankwise.compare_criteria`) on the one analysis protocol: the schema key
first, ``to_dict`` behind the JSON, every section of the document in every format, the figures
in the HTML page, the command's every format equal to the report folder's file of it, and the
fronts' best set decided by the analysis and named in the verdict."""

import json

import numpy as np
import pytest

import rankwise
from rankwise.report.document import Heading

FILES = {"text": "report.txt", "markdown": "report.md", "latex": "report.tex",
         "html": "report.html", "json": "report.json"}
#: The sections the curves text always had; Markdown, LaTeX and HTML left these four out.
CURVE_SECTIONS = ("Does more budget help?", "Where the decisions settle",
                  "Fixed targets and ECDF", "Profiles")


@pytest.fixture(scope="module")
def curves():
    return rankwise.compare_curves(rankwise.load_curves_example())


@pytest.fixture(scope="module")
def fronts():
    criteria = ["accuracy", "fit_time"]
    tables = [rankwise.load_example("demo_results", criterion=c) for c in criteria]
    return rankwise.compare_criteria(tables, criteria, draws=200)


def _headings(result) -> list:
    return [b.text for b in result.document().blocks if isinstance(b, Heading)]


def _shown(heading: str, fmt: str) -> str:
    """A heading as each format writes it (HTML escapes the apostrophe)."""
    return {"markdown": f"## {heading}", "latex": f"\\section*{{{heading}}}",
            "html": f"<h2>{heading.replace(chr(39), '&#x27;')}</h2>"}.get(fmt, heading)


@pytest.mark.parametrize("which, schema, first", [
    ("curves", "rankwise.curves/2", "source"), ("fronts", "rankwise.fronts/2", "learners")])
def test_schema_first_then_the_version_then_to_dict(which, schema, first, request):
    r = request.getfixturevalue(which)
    assert isinstance(r, rankwise.protocol.Analysis) and r.schema == schema
    data = json.loads(r.to_json())
    assert list(data)[:3] == ["schema", "rankwise_version", first]
    assert data["schema"] == schema and "kind" not in data
    own = json.loads(json.dumps(r.to_dict(), allow_nan=False))
    body = {k: v for k, v in data.items() if k not in ("schema", "rankwise_version")}
    # the fronts' JSON adds the verdict's sentences (the report words them); nothing else
    assert {k: v for k, v in body.items() if k != "verdict"} == own
    assert list(body).index("notes") == len(body) - 1 and isinstance(r.settings, dict)


def test_every_curves_section_in_text_markdown_and_latex(curves):
    headings = _headings(curves)
    assert set(CURVE_SECTIONS) <= set(headings) and headings[0] == "Rank over budget"
    for fmt in ("text", "markdown", "latex"):
        out = curves.render(fmt)
        for heading in headings:
            assert _shown(heading, fmt) in out, (fmt, heading)
    text = curves.to_text()
    assert "significant at alpha = 0.05 for 4 of 4" in text   # Page's trend, per learner
    assert "From fraction 0.25 on, every checkpoint decides as the last" in " ".join(
        text.split())
    assert curves.helped == tuple(n for n, t in curves.trend.items() if t.pvalue < 0.05)


def test_every_fronts_section_in_text_markdown_and_latex(fronts):
    headings = _headings(fronts)
    # the demo's one caution (four data sets: no test can reject) opens the verdict: no notes
    assert headings == ["Verdict", "Front", "Generalized stochastic dominance", "Figures",
                        "Conventions"]
    for fmt in ("text", "markdown", "latex"):
        out = fronts.render(fmt)
        for heading in headings:
            assert _shown(heading, fmt) in out, (fmt, heading)


def test_the_best_set_is_the_analysis_and_the_verdict_names_its_procedure(fronts):
    """Tied with the best on a criterion: not significantly worse than the best point in the
    Holm-adjusted pairwise test, decided once in the analysis; the words name the procedure."""
    for c, best in enumerate(fronts.best_sets):
        sign = 1 if fronts.maximize[c] else -1
        top = int(np.argmax(fronts.points[:, c] * sign))
        assert best.best == fronts.learners[top] and best.learners[0] == best.best
        assert set(best.learners) == {fronts.learners[i] for i in range(len(fronts.learners))
                                      if i == top or not fronts.better[c, top, i]}
        assert best.procedure == "against-best" and best.scope == fronts.criteria[c]
    data = json.loads(fronts.to_json())
    assert data["best_sets"][0]["procedure"] == "against-best"
    assert data["best_sets"][0]["learners"] == list(fronts.best_sets[0].learners)
    said = [s for s in data["verdict"] if s.startswith("Best on accuracy")]
    assert said and "by pairwise tests against the best, adjusted (Wilcoxon signed-rank" in said[0]


@pytest.mark.figures
@pytest.mark.parametrize("which, figures", [("curves", ("curves", "checkpoints")),
                                            ("fronts", ("front", "gsd"))])
def test_html_and_notebook_embed_the_figures_under_every_heading(which, figures, request):
    r = request.getfixturevalue(which)
    for html in (r.to_html(), r._repr_html_()):
        assert html.count("<svg") == len(figures)
        for name in figures:
            assert f'<figure id="{name}"><svg' in html
        for heading in _headings(r):
            assert _shown(heading, "html") in html, heading
    assert r._repr_html_().startswith("<div")


def _every_format_equals_the_folder(cli, tmp_path, args):
    folder = tmp_path / "report"
    ran = cli(*args, "-f", "json", "--report", folder)
    assert ran.code == 0 and f"wrote {len(list(folder.iterdir()))} files" in ran.err
    for fmt, name in FILES.items():
        out = ran.out if fmt == "json" else cli(*args, "-f", fmt).out
        written = (folder / name).read_text(encoding="utf-8")
        if fmt in ("markdown", "latex"):   # the folder's place the figure files
            assert _without_figures(out, fmt) == _without_figures(written, fmt), fmt
        else:
            assert out == written, fmt
    return folder


def _without_figures(text: str, fmt: str) -> list:
    """The lines but those of the Figures section (from its heading to the next one)."""
    lines = text.splitlines()
    start = lines.index(_shown("Figures", fmt))
    heading = "## " if fmt == "markdown" else "\\section*{"
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith(heading)),
               len(lines) - (fmt == "latex"))   # LaTeX: up to \end{document}
    return lines[:start] + lines[end:]


@pytest.mark.figures
def test_curves_command_every_format_and_report(cli, tmp_path):
    folder = _every_format_equals_the_folder(cli, tmp_path, ("curves", "--example", "learning"))
    assert {p.name for p in folder.iterdir()} == set(FILES.values()) | {
        f"{name}.{ext}" for name in ("curves", "checkpoints") for ext in ("svg", "pdf", "png")
    } | {"report_interactive.html"}
    assert "](curves.svg)" in (folder / "report.md").read_text()
    assert "keepaspectratio]{checkpoints.pdf}" in \
        (folder / "report.tex").read_text()


@pytest.mark.figures
@pytest.mark.parametrize("example, criteria, figures", [
    ("demo_results", "accuracy,fit_time", ("front", "gsd")),
    ("tabarena", "metric_error,time_train_s", ("front",))])   # 78 learners: no GSD
def test_fronts_command_every_format_and_report(cli, tmp_path, example, criteria, figures):
    folder = _every_format_equals_the_folder(
        cli, tmp_path, ("compare", "--example", example, "--criteria", criteria))
    assert {p.name for p in folder.iterdir()} == set(FILES.values()) | {
        f"{name}.{ext}" for name in figures for ext in ("svg", "pdf", "png")} | {"report_interactive.html"}
    assert json.loads((folder / "report.json").read_text())["schema"] == "rankwise.fronts/2"


@pytest.mark.parametrize("args, said", [
    (("--export", "aocc"), "--report writes the report; --export"),
    (("-o", "{folder}/report.txt"), "would write over -o"),
])
def test_curves_report_refusals_are_one_line(cli, tmp_path, args, said):
    folder = tmp_path / "rep"
    folder.mkdir()
    ran = cli("curves", "--example", "learning", "--report", folder,
              *(a.format(folder=folder) for a in args))
    assert ran.code == 2 and said in ran.err and len(ran.err.strip().splitlines()) == 1, ran
    assert not list(folder.iterdir())   # refused before any work


@pytest.mark.figures
def test_the_bars_of_neighbouring_checkpoints_stand_apart(curves):
    """The learning curves' checkpoints 0.05, 0.1, 0.25, 0.5 and 1 crowd the start of a
    linear axis, and the bars of 0.05 and 0.1 ran together: the budget axis is logarithmic,
    ticked at the checkpoints as written, and each checkpoint's bars stand apart from the
    next one's."""
    import numpy as np
    from matplotlib.collections import LineCollection

    from rankwise.report.curves import curves_figure

    fig = curves_figure(curves)
    fig.canvas.draw()
    ax = fig.axes[0]
    assert ax.get_xscale() == "log"
    assert [t.get_text() for t in ax.get_xticklabels()] == ["0.05", "0.1", "0.25", "0.5", "1"]
    xs = np.array([[c.get_transform().transform(seg[0])[0] for seg in c.get_segments()]
                   for c in ax.collections if isinstance(c, LineCollection)])  # learner x cp
    left, right = xs.min(axis=0), xs.max(axis=0)
    assert (left[1:] - right[:-1] > 5).all(), (left, right)
