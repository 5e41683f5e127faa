"""The better-and-cheaper report as a reader meets it: the front table within 80 columns (the
columns a person reads first, and where the others are), within a LaTeX page, its criterion
columns named by their summary; verdict bullets of a few lines, the tied set counted, the
pairs among the tied grouped by winner; the GSD named only where it is shown; the front
figure's names off its step line and off each other."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

import rankwise
from rankwise.report.fronts import render_fronts, sentences

sys.path.insert(0, str(Path(__file__).parent))
from visual_geometry import drawn_scene, figure_scene, problems  # noqa: E402


@pytest.fixture(scope="module")
def tabarena():
    criteria = ["metric_error", "time_train_s"]
    tables = [rankwise.load_example("tabarena", criterion=c) for c in criteria]
    return rankwise.compare_criteria(tables, criteria, draws=50)


@pytest.fixture(scope="module")
def demo():
    criteria = ["accuracy", "fit_time"]
    tables = [rankwise.load_example("demo_results", criterion=c) for c in criteria]
    return rankwise.compare_criteria(tables, criteria, draws=50)


def _section(text: str, heading: str) -> list:
    return text.split(f"\n{heading}\n", 1)[1].split("\n\n", 1)[0].splitlines()


# -- the front table ---------------------------------------------------------------------------

def test_the_front_table_keeps_the_first_columns_within_80_and_says_where_the_rest_are(
        tabarena, demo):
    for r in (tabarena, demo):
        text = render_fronts(r, "text", 80)
        assert max(len(line) for line in text.splitlines()) <= 80
        assert not any(line.startswith("(columns ") for line in text.splitlines())
        table = _section(text, "Front")
        head = " ".join(table[:2]).split()
        assert head[-2:] == ["P(front)", "front"] and all(c in head for c in r.criteria)
        assert "outdone by" not in " ".join(table[:2])
        note = " ".join(line for line in table if not line.startswith(tuple(r.learners)))
        assert "outdone by and significantly by" in note and "-f json" in note
        wide = render_fronts(r, "text", 400)   # a wide terminal: every column, no note
        assert "significantly by" in _section(wide, "Front")[1]
        assert "Not shown at this width" not in wide
    # with short names the intervals fit beside the points
    assert "95% interval" in " ".join(_section(render_fronts(demo, "text", 120), "Front")[:2])


def test_a_cell_names_a_few_learners_and_counts_the_rest(tabarena):
    from rankwise.report.fronts import CELL_NAMED

    md = render_fronts(tabarena, "markdown")
    rows = [line for line in md.splitlines() if line.startswith("| ")][2:]
    lists = [cell.strip() for row in rows for cell in row.split(" | ")[-2:]]
    counted = [c for c in lists if re.search(r" and \d+ more", c)]
    assert counted   # 78 learners: some are beaten by many
    for c in counted:
        named = c.split(" and ")[0].rstrip(" |")
        assert named.count("), ") + 1 <= CELL_NAMED, c


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="no TeX here (.ci/run installs it)")
def test_the_latex_front_table_fits_the_page(tabarena, tmp_path):
    tex = render_fronts(tabarena, "latex")
    (tmp_path / "report.tex").write_text(tex, encoding="utf-8")
    subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "report.tex"],
                   cwd=tmp_path, capture_output=True, timeout=120, check=True)
    lines = tex.splitlines()
    start = next(n for n, line in enumerate(lines, 1) if line.startswith(r"\begin{tabular}"))
    end = next(n for n, line in enumerate(lines, 1) if line == r"\end{tabular}")
    log = (tmp_path / "report.log").read_text(errors="replace")
    # an overfull box in the table's lines: the table runs off the page
    for a, b in re.findall(r"Overfull \\hbox \([0-9.]+pt too wide\) in \w+ at lines"
                           r" (\d+)--(\d+)", log):
        assert int(b) < start or int(a) > end, (a, b, start, end)
    assert r"\shortstack[r]{metric\_error\\mean rank}" in tex
    assert "Not shown at this width: outdone by and significantly by" in tex


def test_the_criterion_columns_say_mean_rank_where_they_hold_one(tabarena, demo):
    assert tabarena.summaries == ("rank", "mean")
    head = _section(render_fronts(tabarena, "text", 80), "Front")[:2]
    at = head[0].index("metric_error")
    assert head[1][at:at + len("metric_error")].strip() == "mean rank"
    assert "| metric\\_error mean rank | 95% interval | time\\_train\\_s mean |" \
        in render_fronts(tabarena, "markdown")
    from rankwise.report.generic import render

    html = render(tabarena, "html", inline={})   # the page without its figures
    assert "<th>metric_error<br>mean rank</th>" in html
    assert "| accuracy mean |" in render_fronts(demo, "markdown")


# -- the verdict -------------------------------------------------------------------------------

def test_each_verdict_bullet_reads_in_a_few_lines(tabarena):
    text = render_fronts(tabarena, "text", 80)
    bullets = re.split(r"\n(?=- )", "\n".join(_section(text, "Verdict")))
    assert max(len(b.splitlines()) for b in bullets) <= 6, max(bullets, key=len)
    said = " ".join(sentences(tabarena))
    k = len(tabarena.learners)
    assert f"{len(tabarena.dominated_learners)} of {k} learners: " in said
    assert f"{len(tabarena.outdone_learners)} of {k} learners: " in said
    assert "more: -f json" in said and "(better on" not in said


def test_the_tied_set_is_counted_and_its_pairs_grouped_by_winner(tabarena):
    said = sentences(tabarena)
    best = tabarena.best_sets[0]
    tied = next(s for s in said if s.startswith("Best on "))
    m = re.search(r": (\d+) learners: (.*) and (\d+) more\.$", tied)
    assert m and int(m[1]) == len(best.learners) - 1
    assert m[2].count("), ") + 1 + int(m[3]) == int(m[1])   # named + more = the count
    assert "...." not in tied and ", ..." not in tied
    among = next(s for s in said if s.startswith("Among the learners tied"))
    # each winner once: "A is significantly better on time_train_s than X, Y and Z; B than ..."
    assert among.count("is significantly better on time_train_s than") == 1
    parts = among.split("; ")
    winners = [parts[0].split(f"{best.scope}, ", 1)[1].split(" is significantly")[0]]
    winners += [p.split(" than ")[0] for p in parts[1:] if not p[0].isdigit()]
    assert len(winners) == len(set(winners)) >= 2
    assert set(winners) <= set(best.learners)


# -- the GSD named only where it is shown ------------------------------------------------------

def test_the_gsd_left_out_is_one_plain_sentence_and_no_ordinal_reading_is_claimed(
        tabarena, demo):
    text = render_fronts(tabarena, "text", None)   # one line a paragraph
    assert tabarena.gsd is None
    caption = next(line for line in text.splitlines() if "The GSD relation" in line)
    assert caption.endswith(").") and caption.count("(") == 1 == caption.count(")")
    assert all(n.endswith(".") for n in tabarena.notes)
    assert "ordinal" not in text.splitlines()[1]   # the lead: no GSD, no ordinal reading
    assert "fit_time (lower is better, ordinal for the GSD)" in \
        render_fronts(demo, "text", None).splitlines()[1]


# -- the front figure --------------------------------------------------------------------------

@pytest.mark.figures
def test_the_front_figures_names_are_off_the_step_line_and_off_each_other(tabarena, demo):
    from rankwise.report.fronts import front_figure

    for name, r in (("tabarena", tabarena), ("demo", demo)):
        fig = front_figure(r)
        scene = figure_scene(fig, name)
        assert len(scene.segments) >= int(r.front.sum()) - 1   # the step line is seen
        assert problems(scene) == []
    # every stroke, the interval bars too: the guide's own example once set "RandomForest",
    # "NaiveBayes" and "CART" on their bars (78 crowded learners' names sit on a white ground)
    fig = front_figure(demo)
    names = figure_scene(fig, "demo")          # the names alone (not their leader lines)
    strokes = drawn_scene(fig, "demo").segments
    assert len(strokes) > 2 * len(demo.learners)
    everything = replace(names, segments=strokes)
    assert [p for p in problems(everything) if "crosses label" in p] == []


def test_the_tied_and_the_winners_are_named_in_the_tables_order(tabarena):
    """The guide says the bullets follow the table's order; the tied list once began with a
    learner the 20-row table did not show, and the second best (30 s of training) was among
    "4 more"."""
    from rankwise.report.fronts import document

    said = sentences(tabarena)
    order = [row[0] for row in next(b for b in document(tabarena).blocks
                                    if getattr(b, "key", "") == "front").rows]
    best = tabarena.best_sets[0]
    text = next(s for s in said if s.startswith("Best on "))
    named = [n for n in best.learners[1:] if n in text and n in order]
    assert len(named) >= 2
    assert sorted(named, key=text.index) == sorted(named, key=order.index)
    among = next(s for s in said if s.startswith("Among the learners tied"))
    parts = among.split("; ")
    winners = [parts[0].split(f"{best.scope}, ", 1)[1].split(" is significantly")[0]]
    winners += [p.split(" than ")[0] for p in parts[1:] if not p[0].isdigit()]
    shown = [w for w in winners if w in order]
    assert shown == sorted(shown, key=order.index)
