"""Every sentence consistent with its numbers: for each command's bundled example, the claims of
the verdict (the best, who is tied with it, the pairs that differ, where the decisions settle)
are derived from the result's JSON (its ``to_dict()``) and found, the same, in the text report
printed beside the tables. A report whose sentence and table disagree fails here.

The inputs are those of ``test_every_format.py`` (one per analysis), and the cases the users
found: two learners along a budget, a settle point beside checkpoints that still change, a GSD
front named and then not shown, a front averaged over scales a million-fold apart.
"""

import json
import re

import numpy as np
import pytest

from test_every_format import ANALYSES

ARGS = dict(ANALYSES)


def flat(text: str) -> str:
    """The text with its line breaks and wrapping indents as single spaces."""
    return " ".join(text.split())


def bullets(text: str) -> list:
    """The text's bullets ("- " and the indented lines after it), each on one line."""
    out = []
    for line in text.splitlines():
        if line.startswith("- "):
            out.append(line[2:].strip())
        elif line.startswith("  ") and out and line.strip():
            out[-1] += " " + line.strip()
        else:
            out.append(None)
    return [b for b in out if b]


def names(listed: str) -> list:
    """``"a, b and c"`` as ``["a", "b", "c"]`` (names without commas)."""
    listed = listed.strip()
    if not listed:
        return []
    head, _, last = listed.rpartition(" and ")
    parts = (head.split(", ") + [last]) if head else listed.split(", ")
    return [p.strip() for p in parts if p.strip()]


def run(cli, kind, *extra):
    """The text report and the JSON of one analysis on its bundled input."""
    args = [*ARGS[kind], *extra]
    text, data = cli(*args), cli(*args, "-f", "json")
    assert text.code == 0 and data.code == 0, text.err + data.err
    return text.out, json.loads(data.out)


# compare ------------------------------------------------------------------------------------

def test_compare_verdict_names_the_json_best_winners_and_losers(cli):
    text, data = run(cli, "compare")
    v = data["report"]["verdict"]
    said = flat(text)
    assert v["difference_detected"]
    found = re.search(r"Compared with the best-ranked learner, (\S+), by .*?: winners \(not"
                      r" significantly worse than (\S+)\): (.*?); losers: (.*?)\.", said)
    assert found, said[:600]
    assert found[1] == found[2] == v["best"]
    assert found[3].split(", ") == v["winners"]
    assert found[4].split(", ") == v["losers"]


def test_compare_says_its_rounding_in_the_number_it_takes():
    """"rounded to 1 decimals" in the lead and the methods; "rounded to None decimals" where
    nothing was rounded."""
    from rankwise import compare, load_example

    table = load_example("garcia2008")
    one = flat(compare(table, decimals=1).to_text())
    assert "scores rounded to 1 decimal before comparing" in one
    assert "Scores were rounded to 1 decimal before comparison" in one
    none = flat(compare(table, decimals=None).to_text())
    assert "scores compared as given (no rounding)" in none and "None decimals" not in none
    assert "1 decimals" not in one


# items --------------------------------------------------------------------------------------

def test_items_verdict_and_every_task_read_the_json(cli):
    text, data = run(cli, "items")
    said = flat(text)
    best = data["best_set"]
    tied = ", ".join(best["learners"][1:])
    assert f"Best on the macro-average: {best['best']}; tied with it by {best['title']}" in said
    assert f"): {tied} (the order among them" in said
    extra = [x for x in data["across_best_set"]["learners"] if x not in best["learners"]]
    assert f"On the tasks, {', '.join(extra)} is also tied with #1" in said
    alpha = data["settings"]["alpha"]
    for t in data["per_dataset"]:
        assert f"Tied with #1 ({t['best']}): {', '.join(t['tied_with_best'])}." in said
        differ = sum(p <= alpha for p in t["pairs"]["adjusted"])
        if differ:
            assert f"Pairs that differ ({differ} of {t['n_pairs']})" in said
        else:
            assert f"No pair differs at alpha = {alpha}" in said


def test_items_report_speaks_of_tasks_not_of_repeats_and_folds(cli):
    """The across-task comparison's cells are a model's mean over a task's items: no line of
    the items report, in any format, speaks of repeats x folds over data sets."""
    for fmt in ("text", "markdown", "json"):
        ran = cli(*ARGS["items"], "-f", fmt)
        assert ran.code == 0
        assert "repeats x folds" not in ran.out and "repeats and folds" not in ran.out


# fronts -------------------------------------------------------------------------------------

def _front_claims(text, data):
    verdict = bullets(text.split("\nVerdict\n", 1)[1].split("\n\n", 1)[0])
    assert verdict == data["verdict"][:len(verdict)]
    said = flat(text)
    cautions = data["cautions"]
    assert verdict[:len(cautions)] == cautions   # what changes the reading comes first
    notes = text.split("\nNotes\n", 1)[1] if "\nNotes\n" in text else ""
    assert not any(c in flat(notes) for c in cautions)   # and not again at the end
    front = re.search(r"The front on .*?: (.*) \((\d+) of (\d+) learners\)\.", said)
    assert names(front[1]) == data["front"] and int(front[2]) == len(data["front"])
    best = data["best_sets"][0]
    found = re.search(rf"Best on {re.escape(best['scope'])}: (.*?); tied with it by"
                      rf" .*?\): (.*?)\. ", said)
    if len(best["learners"]) > 1:
        # the names of the JSON's best set, in the table's order (the guide's promise)
        assert found[1] == best["best"] and sorted(names(found[2])) == sorted(
            best["learners"][1:])
    return verdict


def _gsd_claims(verdict, data):
    gsd = data["gsd"]
    shown = gsd["shown"]
    assert shown == [t["learner"] for t in gsd["tests"] if t["static"]]
    head = [s for s in verdict if "GSD front (" in s]
    assert len(head) == 1
    if shown:
        assert names(re.search(r"Shown to be on the GSD front .*?test: (.*?)(;|\.$)",
                               head[0])[1]) == shown
    else:
        assert head[0].startswith("No learner is shown to be on the GSD front")
    for t in gsd["tests"]:   # each learner's sentence reads the same decision
        mine = [s for s in verdict if s.startswith(f"{t['learner']} is ")]
        assert len(mine) == 1
        assert mine[0].startswith(f"{t['learner']} is on the GSD front" if t["static"] else
                                  f"{t['learner']} is not shown to be on the GSD front")


def test_fronts_verdict_reads_the_json_front_best_set_and_gsd_decision(cli):
    text, data = run(cli, "fronts")
    verdict = _front_claims(text, data)
    _gsd_claims(verdict, data)
    # the demo's four data sets: the caution that no test can reject leads the verdict
    assert data["cautions"] and data["cautions"][0].startswith("With 4 data sets")


def test_the_gsd_front_is_one_decision_the_headline_and_each_learner_read():
    """Issue 62: "The GSD front: NaiveBayes and RandomForest" was followed by "NaiveBayes is
    not shown to be on the GSD front"; both now read the membership tests' decision."""
    from rankwise import compare_criteria, load_example
    from rankwise.report.fronts import sentences

    criteria = ["accuracy", "fit_time"]
    r = compare_criteria([load_example("demo_results", criterion=c) for c in criteria],
                         criteria, draws=50)
    said = sentences(r)
    assert r.gsd_front_learners == ["NaiveBayes", "RandomForest"] and r.gsd_shown == []
    assert not any(s.startswith("The GSD front") for s in said)
    assert ("No learner is shown to be on the GSD front (ordinal: fit_time) at alpha = 0.05 by"
            " the static test; the sample's GSD front: NaiveBayes and RandomForest.") in said


def _spread_tables():
    """Two criteria over 12 data sets: an error whose scale differs 1e6-fold across them
    (A is best on every data set but the largest, where it is worst by far) and a time."""
    from rankwise import load_table

    rng = np.random.default_rng(3)
    scale = np.logspace(0, 6, 12)
    err = scale[:, None] * (1 + 0.1 * rng.random((12, 4)))
    err[:-1, 0] = scale[:-1] * 0.9            # A: best on 11 data sets ...
    err[-1, 0] = scale[-1] * 3.0              # ... and far worst on the largest
    time = 1 + rng.random((12, 4)) + np.array([0.0, 0.5, 1.0, 1.5])
    cols = ["A", "B", "C", "D"]
    import pandas as pd

    index = [f"d{i}" for i in range(12)]
    return [load_table(pd.DataFrame(err, index=index, columns=cols), criterion="error"),
            load_table(pd.DataFrame(time, index=index, columns=cols), criterion="fit_time")]


def test_a_criterion_whose_scales_differ_a_hundredfold_is_summarised_by_its_mean_rank():
    """Issue 62: the TabArena front averaged raw errors 1.45e7-fold apart and said so on the
    last lines; now such a criterion is read by its mean rank, and the verdict says so first."""
    from rankwise import compare_criteria
    from rankwise.report.fronts import sentences

    tables = _spread_tables()
    r = compare_criteria(tables, ["error", "fit_time"], draws=50, gsd=False)
    assert r.summaries == ("rank", "mean") and r.settings["summary"] == "auto"
    said = sentences(r)
    assert said[0] == r.cautions[0] and "error's typical value differs" in said[0]
    assert "mean within-data-set rank" in said[0] and "--summary mean" in said[0]
    assert not any("typical value" in n for n in r.notes)
    assert r.points[0, 0] == pytest.approx(np.mean([1] * 11 + [4]))   # A's mean rank
    assert r.front[0]                          # best by rank on 11 of 12, and fastest
    raw = compare_criteria(tables, ["error", "fit_time"], draws=50, gsd=False, summary="mean")
    assert raw.summaries == ("mean", "mean")
    assert "its mean is led by the data sets of largest values" in sentences(raw)[0]
    data = r.to_dict()
    assert [c["summary"] for c in data["criteria"]] == ["rank", "mean"]
    assert data["settings"]["summaries"] == ["rank", "mean"]


# leaderboard --------------------------------------------------------------------------------

def test_leaderboard_verdict_reads_the_json_board(cli):
    text, data = run(cli, "leaderboard")
    board = data["boards"][0]
    said = flat(text)
    first = board["rows"][0]
    assert f"#1 by Elo: {first['learner']} ({first['elo']:.1f}" in said
    tied = [x for x in board["tied_with_first"] if x != first["learner"]]
    assert f"from the same bootstrap): {', '.join(tied)}; the order" in said
    f = board["friedman"]
    winners = [x for x in board["posthoc_winners"] if x != f["best"]]
    assert (f"against the best mean rank, {f['best']}, not significantly worse:"
            f" {', '.join(winners)}.") in said
    if board["condorcet_winner"]:
        assert f"{board['condorcet_winner']} is the Condorcet winner" in said
    assert " ".join(board["sentences"][:1]) in said


def test_a_rating_that_is_a_bound_is_said_first_in_the_verdict_and_truly():
    """Separation changes how the board reads: the learners whose Elo is a bound are the
    verdict's first sentence (not a note under the table), and one that lost to a learner
    that won everything is not said to have won every battle."""
    import pandas as pd

    from rankwise import leaderboard

    rng = np.random.default_rng(1)
    base = rng.random(12) * 0.5
    frame = pd.DataFrame({"A": 0.9 + rng.random(12) * 0.05, "B": base + 0.2,
                          "C": base + rng.random(12) * 0.2, "D": base},
                         index=[f"d{i}" for i in range(12)])
    from rankwise import load_table

    b = leaderboard(load_table(frame, higher_is_better=True), draws=10).board
    assert list(b.bound) == [1, 1, 0, -1]
    assert b.sentences[0].startswith("A won every battle it fought; B won every battle"
                                     " against the learners left once A is set aside")
    assert b.sentences[1].startswith("D lost every battle it fought")
    assert b.sentences[2].startswith("#1 by Elo: A (≥ ")
    assert not any("every battle" in n for n in b.notes)


# curves -------------------------------------------------------------------------------------

CHECKPOINT = re.compile(r"(\S+): best (\S+); (.*?) p = (\S+); not significantly worse than the"
                        r" best: (.*?); (\d+) pairs? differs? ?(.*)$")


def _checkpoint_lines(text):
    return [m for b in bullets(text) if (m := CHECKPOINT.match(b))]


def _check_curves(text, data):
    lines = _checkpoint_lines(text)
    cps = data["checkpoints"]
    assert len(lines) == len(cps)
    alpha = float(re.search(r"at each checkpoint \(alpha = (\S+)\)", flat(text))[1])
    for m, cp in zip(lines, cps):
        assert float(m[1]) == pytest.approx(cp["budget"])
        assert m[2] == cp["best"] and cp["best"] is not None
        assert float(m[4]) == pytest.approx(cp["pvalue"], rel=5e-3)
        assert m[5].split(", ") == cp["winners"]
        assert int(m[6]) == len(cp["significant_pairs"])
        if len(data["learners"]) == 2:   # one pair: it differs exactly when the test rejects
            assert int(m[6]) == (cp["pvalue"] < alpha) == cp["difference_detected"]
    # the settle point is read from the same decisions the lines print
    decided = [(frozenset(m[5].split(", ")), int(m[6])) for m in lines]
    settle = None
    for m, d in zip(reversed(lines), reversed(decided)):
        if d != decided[-1]:
            break
        settle = float(m[1])
    assert settle == pytest.approx(data["settle"])
    said = flat(text)
    if data["settle"] == cps[0]["budget"]:
        assert "Every checkpoint decides as the last" in said
    else:
        assert (f"From {data['budget']} {data['settle']:g} on, every checkpoint decides as the"
                " last") in said
    for change in data["decision_changes"]:
        assert max(change["changes_at"]) <= data["settle"]
    aocc = data["aocc"]
    assert f"through compare: best {aocc['best']};" in said and aocc["best"] is not None
    assert f"not significantly worse than the best: {', '.join(aocc['winners'])};" in said


def test_curves_checkpoints_settle_point_and_aocc_read_the_json(cli):
    text, data = run(cli, "curves")
    _check_curves(text, data)
    # issue 62: the decisions change at 0.25, so they settle there, not at 0.1
    assert data["settle"] == 0.25 and data["rank_settle"] == 0.1
    assert "From fraction 0.1 on, no learner's rank" not in flat(text)


@pytest.fixture(scope="module")
def two_learners(tmp_path_factory):
    """Two learners of the learning-curves example (forest and naive Bayes) as a table."""
    from importlib.resources import files

    lines = (files("rankwise.examples") / "learning_curves.csv").read_text().splitlines()
    path = tmp_path_factory.mktemp("curves") / "two.csv"
    path.write_text("\n".join([lines[0]] + [x for x in lines[1:]
                                            if x.startswith(("forest,", "naive_bayes,"))]))
    return path


def test_two_learners_along_a_budget_name_the_best_and_count_their_pair(cli, two_learners):
    """Issue 62: with two learners every checkpoint and the AOCC said "best None" and
    "0 pair(s) differ in the CD diagram" beside p = 0.000488."""
    args = ["curves", two_learners, "--higher-is-better"]
    text, data = cli(*args), cli(*args, "-f", "json")
    assert text.code == 0 and data.code == 0
    text, data = text.out, json.loads(data.out)
    _check_curves(text, data)
    assert "None" not in text and "pair(s)" not in text and "in the CD diagram" not in text
    assert [cp["best"] for cp in data["checkpoints"]] == ["forest"] * 5
    assert [len(cp["significant_pairs"]) for cp in data["checkpoints"]] == [0, 1, 1, 1, 1]
    assert "1 pair differs by the Wilcoxon signed-ranks test" in flat(text)
    assert data["aocc"]["best"] == "forest" and data["settle"] == 0.1
    assert data["decision_changes"] == [{"a": "forest", "b": "naive_bayes",
                                         "significant": [False, True, True, True, True],
                                         "changes_at": [0.1]}]


def test_the_curves_header_says_budget_once(cli, tmp_path):
    """A budget column named budget: "budget in budget" was printed."""
    rows = ["learner,problem,run,budget,value"] + [
        f"{l},p{p},0,{b},{v + 0.01 * p + (0.1 if l == 'a' else 0)}"
        for l in "ab" for p in range(6) for b, v in ((1, 0.2), (2, 0.5), (4, 0.7))]
    path = tmp_path / "budget.csv"
    path.write_text("\n".join(rows))
    ran = cli("curves", path, "--higher-is-better")
    assert ran.code == 0, ran.err
    assert "budget in budget" not in flat(ran.out) and "; budget (3 distinct" in flat(ran.out)


def test_the_command_line_asks_for_its_own_direction_flags(cli, two_learners):
    """A curves table that does not say which way is better: the command line names its flags,
    Python its parameter (not maximize=True/False on the command line)."""
    import rankwise
    from rankwise.tables.curves import DirectionMissing

    ran = cli("curves", two_learners)
    assert ran.code == 2
    assert "--higher-is-better or --lower-is-better" in ran.err
    assert "maximize" not in ran.err and "True" not in ran.err
    with pytest.raises(DirectionMissing, match=r"higher_is_better=True or False"):
        rankwise.read_curves(two_learners)


# race ---------------------------------------------------------------------------------------

def test_race_outcome_and_eliminations_read_the_json(cli):
    text, data = run(cli, "race")
    said = flat(text)
    reached = "was reached" if data["settled"] else "was not reached"
    assert (f"The goal {reached} after {data['steps']} of {len(data['order'])} data sets;"
            f" left: {', '.join(data['survivors'])}.") in said
    table = text.split("\nEliminations\n", 1)[1].splitlines()[2:2 + len(data["eliminations"])]
    for row, e in zip(table, data["eliminations"]):
        assert row.split()[:3] == [e["learner"], str(e["step"]), e["by"]]


# audit --------------------------------------------------------------------------------------

def test_audit_tasks_and_overall_read_the_json(cli):
    text, data = run(cli, "audit")
    said = flat(text)
    for t in data["per_dataset"]:
        assert f"Tied with #1 ({t['best']}): {', '.join(t['tied_with_best'])}." in said
        decimals = "decimal" if t["decimals"] == 1 else "decimals"
        assert f"printed to {t['decimals']} {decimals}." in said
    o = data["overall"]
    assert (f"Overall, tied with #1 ({o['best']}): {', '.join(o['tied_with_best'])}"
            f" ({o['how']}).") in said
    assert "1 decimals" not in said and " by holm" not in said
    # the board's two tasks cannot reject: the overall sentence says so, not "then Holm"
    assert "does not reject" in o["how"] and "Holm" not in o["how"]
