"""One analysis, one story: every format prints the decisions the analysis made, and the figures
draw exactly those decisions (the number printed = the number drawn = the JSON)."""

import html
import json
import re

import numpy as np
import pytest

from rankwise import ScoreTable, compare, load_example, load_table
from rankwise.report import figures as draw_figures
from rankwise.report.diagrams import figure_bytes
from rankwise.report.format import fmt_cd
from rankwise.report.latex import latex_escape, math as latex_math
from rankwise.report.markdown import md


def null_table(n=7, k=4, seed=0):
    rng = np.random.default_rng(seed)
    return ScoreTable(values=np.round(rng.normal(size=(n, k)), 3),
                      datasets=tuple(f"d{i}" for i in range(n)),
                      learners=tuple(f"L{j}" for j in range(k)))


CASES = {
    "garcia2010_both": lambda: compare(load_example("garcia2010"), posthoc="both"),
    "garcia2008_all": lambda: compare(load_example("garcia2008"), posthoc="all"),
    "garcia2008_paper_bh": lambda: compare(load_example("garcia2008"), posthoc="all",
                                           convention="paper",
                                           diagram_procedure="bergmann_hommel"),
    "demsar_table6": lambda: compare(load_example("demsar2006_table6_tiebreak")),
    "folds_runtime": lambda: compare(load_example("folds_demo", criterion="runtime")),
    "gate_blocks": lambda: compare(null_table(), posthoc="all"),
    "gate_forced": lambda: compare(null_table(), posthoc="all", force_posthoc=True),
    "two_learners": lambda: compare(load_example("demsar2006_table2")),
}


@pytest.fixture(scope="module", params=list(CASES))
def case(request):
    cmp = CASES[request.param]()
    outputs = {"text": cmp.to_text(), "markdown": cmp.to_markdown(), "latex": cmp.to_latex(),
               "html": report_part(cmp.to_html())}
    return request.param, cmp, outputs, json.loads(cmp.to_json())


def report_part(page: str) -> str:
    """The HTML page's report, as the other formats have it: without the page's own list of
    every learner."""
    return page.split('<h2 id="all-learners">')[0]


ESCAPE = {"text": str, "markdown": md, "latex": lambda t: latex_math(latex_escape(t)),
          "html": lambda s: html.escape(s, quote=True)}


def test_every_format_prints_the_same_critical_differences(case):
    _, cmp, outputs, doc = case
    cd = cmp.critical_difference
    if cd is None:
        assert cmp.table.n_learners == 2 and doc["critical_difference"] is None
        return
    assert doc["critical_difference"]["nemenyi"] == pytest.approx(cd.nemenyi, rel=1e-15)
    for fmt, text in outputs.items():
        for value in (cd.nemenyi, cd.bonferroni_dunn):
            assert fmt_cd(value) in text, fmt
    if doc["posthoc"]:
        assert doc["posthoc"]["critical_difference"] == doc["critical_difference"]
        friedman = doc["posthoc"].get("friedman", {})
        if "critical_difference" in friedman:
            assert friedman["critical_difference"] == doc["critical_difference"]
    # Every CD mentioned anywhere is one of these two values.
    allowed = {fmt_cd(cd.nemenyi), fmt_cd(cd.bonferroni_dunn)}
    for fmt, text in outputs.items():
        for shown in re.findall(r"CD = (\d+\.\d+)", text):
            assert shown in allowed, (fmt, shown)


def test_every_format_prints_every_note_and_variant(case):
    _, cmp, outputs, doc = case
    assert doc["report"]["notes"] == list(cmp.notes) == doc["notes"]
    for fmt, text in outputs.items():
        for note in cmp.notes:
            assert ESCAPE[fmt](note) in text, (fmt, note)
        for res in cmp.tests.values():
            if res.details.get("variant"):
                assert ESCAPE[fmt](f"[{res.details['variant']}]") in text, fmt
        assert ESCAPE[fmt](cmp.verdict.text) in text, fmt


def test_every_format_marks_the_same_significant_results(case):
    _, cmp, outputs, _ = case
    expected = sum(res.reject(cmp.alpha) for res in cmp.tests.values())
    if cmp.posthoc is not None:
        for entry in cmp.posthoc.rankings.values():
            for fam in entry.families.values():
                expected += sum(c.rejected(p, cmp.alpha) for c in fam.comparisons
                                for p in fam.procedures)
    assert outputs["markdown"].count(" \\* |") == expected
    assert outputs["latex"].count("{}^{*}") == expected
    assert outputs["html"].count('class="sig"') + outputs["html"].count('class="best sig"') \
        == expected


def test_a_variant_never_contradicts_how_the_p_value_was_computed(case):
    """A test's label names its variant beside the method of its p-value: "Friedman aligned
    ranks [exact] ... chi2" read as an exact test with an asymptotic p (the variant named the
    tie-corrected formula)."""
    _, cmp, _, _ = case
    for name, res in cmp.tests.items():
        variant = res.details.get("variant") or ""
        assert "exact" not in variant or res.method == "exact", (name, variant, res.method)


def test_an_interval_in_an_html_table_stays_on_one_line(case):
    """A cell's interval ``[low, high]`` is one unbreakable run (a narrow column broke it
    after the comma, the bound apart from its bracket)."""
    _, _, outputs, _ = case
    cells = re.findall(r"<td[^>]*>(.*?)</td>", outputs["html"])
    inside = [m for c in cells for m in re.findall(r"\[[^\[\]]*\]", c)]
    assert inside and not [m for m in inside if " " in m]


def test_every_format_names_the_best_cells_mark_as_it_draws_it(case):
    """The rank table's caption names the mark its format draws: a star in plain text (which
    has no bold), bold in the others; it said "bold or *" in all of them."""
    _, cmp, outputs, _ = case
    text = " ".join(outputs["text"].split())
    assert "* = best of the data set" in text and "bold" not in text
    for fmt in ("markdown", "html", "latex"):
        assert "bold = best of the data set" in " ".join(outputs[fmt].split()), fmt
    assert "bold or" not in " ".join(outputs.values())
    assert outputs["html"].count('class="best') == int(cmp.summary.best.sum())


@pytest.mark.figures
def test_report_figures_match_what_is_drawn(case):
    name, cmp, outputs, doc = case
    plans = doc["report"]["figures"]
    drawn = draw_figures(cmp)
    if cmp.table.n_learners == 2:
        assert plans == {} and drawn == {}
        return
    assert set(plans) == {"control_diagram", "cd_diagram", "pvalue_heatmap"}
    assert {n for n, p in plans.items() if p["drawn"]} == set(drawn)
    assert outputs["html"].count("<svg") - outputs["html"].count('<svg class="quartiles"') \
        == len(drawn)
    names = list(cmp.table.learners)
    for fig_name, fig in drawn.items():
        plan = plans[fig_name]
        svg = figure_bytes(fig, "svg").decode()
        if plan["critical_difference"] is not None:
            assert f"CD = {fmt_cd(plan['critical_difference'])}" in svg
        else:
            assert "CD = " not in svg
        if fig_name == "cd_diagram":
            assert [[names[i] for i in g] for g in fig.rankwise_cliques] == plan["cliques"]
        if plan["forced"]:
            assert "forced" in svg
    if "cd_diagram" in drawn and plans["cd_diagram"]["procedure"] == "nemenyi":
        assert plans["cd_diagram"]["critical_difference"] == pytest.approx(
            doc["critical_difference"]["nemenyi"], rel=1e-15)


def test_the_headline_figure_is_the_verdict(case):
    _, cmp, outputs, doc = case
    plans = doc["report"]["figures"]
    v = doc["report"]["verdict"]
    if not plans or not plans["control_diagram"]["drawn"]:
        return
    head = plans["control_diagram"]
    assert head["headline"] and head["procedure"] == v["procedure"]
    assert head["control"] == v["best"]
    if v["difference_detected"]:
        assert sorted(n for n, d in head["decisions"].items() if d) == sorted(v["losers"])


def test_no_loser_shares_a_clique_with_the_best_unless_the_report_says_why(case):
    _, cmp, outputs, doc = case
    plans = doc["report"]["figures"]
    v = doc["report"]["verdict"]
    if not plans or not plans["cd_diagram"]["drawn"] or not v["difference_detected"]:
        return
    with_best = {n for g in plans["cd_diagram"]["cliques"] if v["best"] in g for n in g}
    joined = [n for n in v["losers"] if n in with_best]
    note = plans["cd_diagram"].get("note")
    if joined:
        assert note and all(n in note for n in joined)
        for fmt, text in outputs.items():
            assert ESCAPE[fmt](note) in text, fmt


def test_garcia2008_explains_why_cn2_shares_a_nemenyi_bar_with_c45():
    cmp = compare(load_example("garcia2008"), posthoc="all")
    assert "CN2" in cmp.verdict.losers
    plan = cmp.figures["cd_diagram"]
    assert any({"C4.5", "CN2"} <= set(g) for g in plan.cliques)
    assert "joins C4.5 with CN2" in plan.note and "Nemenyi" in plan.note
    assert plan.note in cmp.notes


def test_a_blocked_gate_draws_no_decisions_and_says_so():
    cmp = CASES["gate_blocks"]()
    assert not cmp.verdict.detected
    assert cmp.verdict.text.startswith("No significant difference detected at alpha = 0.05")
    assert "tie" not in cmp.verdict.text.lower().split() and "equivalent" not in cmp.verdict.text
    assert draw_figures(cmp) == {}
    assert all(not p.drawn and "does not reject" in p.reason for p in cmp.figures.values())
    for text in (cmp.to_text(), cmp.to_markdown(), cmp.to_html(), cmp.to_latex()):
        assert text.count("No figures: the Iman-Davenport test does not reject") == 1
    forced = CASES["gate_forced"]()
    assert set(draw_figures(forced)) == {"control_diagram", "cd_diagram", "pvalue_heatmap"}
    assert all(p.forced and "Computed although" in p.caption for p in forced.figures.values())
    # Forcing the post-hoc tests does not change the verdict.
    assert forced.verdict.text == cmp.verdict.text


@pytest.mark.figures
def test_the_blocked_gate_prints_the_tie_aware_cd_everywhere():
    """The issue's case: the text/JSON CD used the untied SE while the diagram used the tie-aware
    one. Now both read the one CD of the analysis."""
    t = null_table(n=9, k=4, seed=3)
    t = ScoreTable(values=np.round(t.values, 0), datasets=t.datasets, learners=t.learners)
    cmp = compare(t, posthoc="all")
    untied = np.sqrt(4 * 5 / (6 * 9))
    assert cmp.critical_difference.se != pytest.approx(untied)  # there are ties
    forced = compare(t, posthoc="all", force_posthoc=True)
    drawn = figure_bytes(draw_figures(forced)["cd_diagram"], "svg").decode()
    assert f"CD = {fmt_cd(cmp.critical_difference.nemenyi)}" in drawn
    assert fmt_cd(cmp.critical_difference.nemenyi) in cmp.to_text()


@pytest.mark.parametrize("criterion", ["test_error", "mean_squared_error", "training_time",
                                       "log_loss_val", "fit_time", "val_loss", "Brier score"])
def test_lower_is_better_criteria_read_from_their_words(tmp_path, criterion):
    path = tmp_path / "t.csv"
    rows = ["dataset,learner,criterion,value"]
    errors = {"good": 0.10, "mid": 0.20, "bad": 0.30}
    for i in range(12):
        for learner, e in errors.items():
            rows.append(f"d{i},{learner},{criterion},{e + 0.01 * ((i * 7 + len(learner)) % 3)}")
    path.write_text("\n".join(rows) + "\n")
    cmp = compare(path)
    assert not cmp.table.higher_is_better and cmp.table.direction_source == "criterion"
    assert cmp.verdict.best == "good" and "good" not in cmp.verdict.losers
    assert "lower is better" in cmp.verdict.text and criterion in cmp.verdict.text


@pytest.mark.figures
def test_unknown_criterion_names_get_a_visible_note_and_options_win(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("dataset,A,B,C\n" + "".join(f"d{i},{i},{i + 1},{i + 2}\n" for i in range(6)))
    cmp = compare(path, criterion="wibble")
    assert cmp.table.higher_is_better and cmp.table.direction_source == "default"
    assert any("'wibble' does not say whether" in n for n in cmp.notes)
    assert "by assumption" in cmp.verdict.text and "--lower-is-better" in cmp.verdict.text
    for fmt in ("to_text", "to_markdown", "to_html"):
        assert "wibble" in getattr(cmp, fmt)()
    forced = compare(path, criterion="test_error", higher_is_better=True)
    assert forced.table.higher_is_better and "set by the caller" in forced.verdict.text
    assert any("usually lower-is-better" in n for n in forced.notes)


@pytest.mark.parametrize("n", [4, 7, 10])
def test_small_samples_carry_a_caveat_in_the_verdict(n):
    rng = np.random.default_rng(n)
    x = rng.normal(size=(n, 4)) + [0, 0.5, 1.0, 3.0]
    cmp = compare(ScoreTable(values=x, datasets=tuple(f"d{i}" for i in range(n)),
                             learners=("A", "B", "C", "D")))
    assert f"Caution: with only N = {n} data sets" in cmp.verdict.text
    assert cmp.verdict.caveats and cmp.verdict.caveats[0] in cmp.verdict.text
    big = compare(load_example("garcia2010"))
    assert not big.verdict.caveats and "Caution" not in big.verdict.text


def test_demo_sized_results_say_the_verdict_is_tentative():
    t = load_example("folds_demo", criterion="accuracy")
    cmp = compare(t)
    assert t.n_datasets <= 10 and "Caution" in cmp.verdict.text


def test_the_verdict_names_its_direction():
    cmp = compare(load_example("garcia2010"))
    assert "higher is better (from the criterion name 'accuracy')" in cmp.verdict.text
    runtime = compare(load_example("folds_demo", criterion="runtime"))
    assert "lower is better (from the criterion name 'runtime')" in runtime.verdict.text


def test_verdict_and_diagram_procedures_are_settings():
    cmp = compare(load_example("garcia2008"), verdict_procedure="bonferroni_dunn",
                  diagram_procedure="holm")
    assert cmp.verdict.procedure == "bonferroni_dunn"
    head = cmp.figures["control_diagram"]
    # With Bonferroni-Dunn the band is the CD, and the band decides exactly what the marks say.
    assert head.critical_difference == cmp.critical_difference.bonferroni_dunn
    best = cmp.table.learners.index(head.control)
    for j, name in enumerate(cmp.table.learners):
        if j != best:
            far = abs(cmp.mean_ranks[j] - cmp.mean_ranks[best]) >= head.critical_difference
            assert head.decisions[name] == far
    assert cmp.figures["cd_diagram"].procedure == "holm"
    assert cmp.figures["cd_diagram"].critical_difference is None
    from rankwise import RankwiseError
    with pytest.raises(RankwiseError, match="control procedure"):
        compare(load_example("garcia2008"), verdict_procedure="nemenyi")


def test_comparison_keeps_typed_results():
    from rankwise.analysis.results import FigurePlan, PosthocResult, RankingResult, Verdict

    cmp = compare(load_example("garcia2010"), posthoc="both", rankings="friedman,wilcoxon")
    assert isinstance(cmp.verdict, Verdict) and isinstance(cmp.posthoc, PosthocResult)
    assert all(isinstance(r, RankingResult) for r in cmp.posthoc.rankings.values())
    assert all(isinstance(p, FigurePlan) for p in cmp.figures.values())
    # The verdict's APVs against the best are the control family's Holm APVs (computed once).
    fam = cmp.posthoc.rankings["friedman"].families["control"]
    assert {c.b: c.apv["holm"] for c in fam.comparisons} == cmp.verdict.apv


def test_load_table_long_criterion_direction_is_recorded(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("dataset,learner,criterion,value\n" + "".join(
        f"d{i},{l},pf,{v}\n" for i in range(3) for l, v in (("A", 0.1), ("B", 0.2))))
    t = load_table(path)
    assert t.direction_word == "pf" and not t.higher_is_better


def test_json_carries_the_table_only_up_to_10000_cells_unless_asked():
    rng = np.random.default_rng(4)
    big = ScoreTable(values=np.round(rng.normal(size=(2_001, 5)), 2),
                     datasets=tuple(f"d{i}" for i in range(2_001)),
                     learners=tuple("ABCDE"))
    cmp = compare(big)
    doc = json.loads(cmp.to_json())
    assert doc["table_included"] is False and doc["values"] is None and doc["ranks"] is None
    assert doc["report"]["rank_table"]["best"] is None
    assert doc["mean_ranks"] and doc["report"]["verdict"]["text"] == cmp.verdict.text
    full = json.loads(cmp.to_json(include_table=True))
    assert full["table_included"] and len(full["values"]) == 2_001
    assert len(full["report"]["rank_table"]["best"]) == 2_001
    small = json.loads(compare(load_example("garcia2010")).to_json())
    assert small["table_included"] and len(small["values"]) == 24


def test_the_pages_data_set_sections_agree_with_the_rank_table(case):
    """The page's own section of every data set marks the same best cells and prints the
    same ranks as the rank table every format has."""
    _, cmp, _, doc = case
    page = cmp.to_html(interactive=True)
    if cmp.table.n_datasets * cmp.table.n_learners > 20_000:
        return
    each = page.split('<h2 id="each-dataset">')[1].split('<h2 id="all-learners">')[0]
    assert each.count('class="best') == int(cmp.summary.best.sum())
    for i in range(cmp.table.n_datasets):
        table = each.split(f'<table id="each_{i + 1}"')[1].split("</table>")[0]
        ranks = [float(v) for v in re.findall(r'<td data-v="([^"]+)">[^<]*</td></tr>', table)]
        assert sorted(ranks) == sorted(r for r in doc["ranks"][i] if r is not None)
