"""Hostile names through every output: control characters shown, never acted on; Markdown
fences and tables intact; HTML without markup from names; LaTeX that compiles; SVG that parses;
CSV cells that a spreadsheet will not run."""

import json
import re
import shutil
import subprocess
import sys
import xml.dom.minidom

import numpy as np
import pandas as pd
import pytest

from rankwise import ScoreTable, compare
from rankwise._text import spreadsheet_safe, visible

HOSTILE = ("plain", "a\n```\n<script>alert(1)</script>", "\x1b[31mred\x1b[0m", "cr\rname",
           "=cmd|' /C calc'!A0", "pi|pe ``` `x`", "bell\x07\x00nul", "rtl\u202egnp.exe",
           "$x_1$ & 50% #{}", "+1-2@")


def hostile_comparison(**options):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(10, len(HOSTILE))) + np.arange(len(HOSTILE)) * 0.4
    datasets = tuple(["d\x1b]0;title\x07", "line\nbreak"] + [f"d{i}" for i in range(8)])
    return compare(ScoreTable(values=x, datasets=datasets, learners=HOSTILE), posthoc="all",
                   force_posthoc=True, **options)


def test_visible_and_spreadsheet_safe():
    assert visible("a\x1b[2Jb\r\n\t\x07\u202e") == "a\\e[2Jb\\r\\n\\t\\x07\\u202e"
    assert visible("plain é ü 名前") == "plain é ü 名前"
    assert [spreadsheet_safe(v) for v in ("=1+1", "+1", "-x", "@SUM", "\tx", "ok", "")] == \
        ["'=1+1", "'+1", "'-x", "'@SUM", "'\tx", "ok", ""]


@pytest.mark.figures
def test_no_control_character_reaches_any_format():
    cmp = hostile_comparison()
    outputs = {"text": cmp.to_text(), "markdown": cmp.to_markdown(), "latex": cmp.to_latex(),
               "html": cmp.to_html()}
    for fmt, out in outputs.items():
        bad = set(re.findall("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e]", out))
        assert not bad, (fmt, bad)
        assert "\\e[31mred\\e[0m" in out or "\\textbackslash{}e[31mred" in out, fmt
    # JSON keeps the names exactly (its own escapes make them inert)
    doc = json.loads(cmp.to_json())
    assert tuple(doc["learners"]) == HOSTILE and "\x1b" not in cmp.to_json()


def test_markdown_fences_and_tables_hold():
    md = hostile_comparison().to_markdown()
    outside = re.sub(r"(`{3,})text\n.*?\n\1\n", "", md, flags=re.S)
    assert "<script" not in outside.lower()
    for line in md.splitlines():
        if line.startswith("| ") and "plain" in line and "pi" in line:
            # the learners' header row: as many cells as the table has columns
            assert line.count(" | ") == line.replace("\\|", "").count(" | ")
    fences = re.findall(r"^(`{3,})text$", md, flags=re.M)
    assert fences and all(len(f) > 3 for f in fences)  # longer than the names' ```


@pytest.mark.figures
def test_html_has_no_markup_from_names():
    from rankwise.report.page import JS

    page = hostile_comparison().to_html()
    assert "<script" not in page.lower()
    live = hostile_comparison().to_html(interactive=True)   # the one script is the page's own
    assert live.lower().count("<script") == 1 and live.count(f"<script>{JS}</script>") == 1
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


@pytest.mark.figures
def test_figures_are_valid_svg():
    cmp = hostile_comparison()
    assert cmp.figure_svgs
    for svg in cmp.figure_svgs.values():
        xml.dom.minidom.parseString(svg.encode("utf-8"))


@pytest.mark.subprocess
@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="no TeX here (.ci/run installs it)")
def test_latex_with_hostile_names_compiles(tmp_path):
    (tmp_path / "report.tex").write_text(hostile_comparison().to_latex(), encoding="utf-8")
    out = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error",
                          "report.tex"], cwd=tmp_path, capture_output=True, text=True,
                         timeout=180)
    assert out.returncode == 0, out.stdout[-2000:]


@pytest.mark.subprocess
def test_command_line_output_and_errors_are_inert(tmp_path):
    """The reader refuses control characters in a table (one line, shown escaped); a name
    typed on the command line comes back escaped in the error."""
    table = tmp_path / "t.csv"
    frame = pd.DataFrame(np.random.default_rng(1).normal(size=(6, 3)),
                         columns=["ok", "\x1b[2Jwipe", "=HYPERLINK(\"x\")"])
    frame.insert(0, "dataset", [f"d{i}" for i in range(6)])
    frame.to_csv(table, index=False)
    out = subprocess.run([sys.executable, "-m", "rankwise.cli", "compare", str(table)],
                         capture_output=True, text=True)
    assert out.returncode == 2 and "\x1b" not in out.stderr and out.stderr.count("\n") == 1
    assert "control character U+001B" in out.stderr
    frame.columns = ["dataset", "ok", "other", "=HYPERLINK(\"x\")"]
    frame.to_csv(table, index=False)
    bad = subprocess.run([sys.executable, "-m", "rankwise.cli", "compare", str(table),
                          "--pair", "ok", "\x1b[2Jnope"], capture_output=True, text=True)
    assert bad.returncode == 2 and "\x1b" not in bad.stderr and bad.stderr.count("\n") == 1
    assert "[2Jnope" in bad.stderr  # shown (repr or visible), never acted on


@pytest.mark.subprocess
@pytest.mark.experiment
def test_csv_export_defuses_formulas(tmp_path):
    from rankwise.experiment import experiment_from_dict, run_experiment

    db = tmp_path / "r.sqlite"

    doc = {"experiment": {"repeats": 1, "folds": 2, "seed": 1, "criteria": ["accuracy"]},
           "datasets": [{"source": "sklearn", "name": "iris"}],
           "learners": [{"name": "=cmd|' /C calc'!A0",
                         "estimator": "sklearn.naive_bayes.GaussianNB"},
                        {"name": "@SUM(A1)", "estimator": "sklearn.tree.DecisionTreeClassifier"}]}
    run_experiment(experiment_from_dict(doc), db, jobs=0)
    out = tmp_path / "out.csv"
    res = subprocess.run([sys.executable, "-m", "rankwise.cli", "export", str(db), "-o",
                          str(out)], capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    frame = pd.read_csv(out)
    assert set(frame["learner"]) == {"'=cmd|' /C calc'!A0", "'@SUM(A1)"}
    assert (frame["value"].astype(float) >= 0).all()  # numbers untouched


def test_huge_finite_scores_stay_finite_and_scale_free():
    """Scores near 1e300: no overflow anywhere (warnings are errors here), and the p-values
    equal those of the same table divided by 1e290."""
    import warnings

    x = np.array([[1e300, 2e300, 1.0], [3e299, 1e298, 2.0], [5e297, 6e297, 3.0],
                  [1e299, 2e297, 4.0], [2e300, 1e300, 5.0], [7e299, 3e299, 6.0]])
    names = dict(datasets=tuple("abcdef"), learners=("A", "B", "C"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        big = compare(ScoreTable(values=x, **names), pair=("A", "B"))
        big.to_text(), big.to_json(), big.to_latex()
    small = compare(ScoreTable(values=x / 1e290, **names), pair=("A", "B"))
    for name in ("friedman", "quade", "anova", "wilcoxon", "ttest", "sign"):
        assert big.tests[name].pvalue == pytest.approx(small.tests[name].pvalue, rel=1e-9), name
    assert big.effects[0].cohens_dz.estimate == pytest.approx(small.effects[0].cohens_dz.estimate)
    assert np.isfinite(big.table.values).all()


@pytest.mark.figures
def test_a_subsets_name_with_markup_stays_text_on_the_page():
    """A --by value is a table's id and a section's label on the page: escaped in both."""
    import rankwise

    rng = np.random.default_rng(1)
    evil = '<b onmouseover="x">"q'
    frame = pd.DataFrame([{"dataset": f"d{d}", "learner": f"m{m}", "value": rng.normal() + m,
                           "kind": evil if d % 2 else "plain"}
                          for d in range(12) for m in range(4)])
    page = rankwise.leaderboard(frame, by="kind", draws=20).to_html(interactive=True)
    assert "<b " not in page and 'onmouseover="x"' not in page
    assert "&lt;b onmouseover=&quot;x&quot;&gt;" in page
