"""The verdict in posterior terms (--verdict bayesian) with the pairwise Bayesian tests: its
decisions are the tests' own, its numbers are the JSON's, and the frequentist verdict (the one
the figures draw) is kept whole after it."""

import json
import subprocess
import sys

import pytest

from rankwise import RankwiseError, compare, load_example


@pytest.mark.figures
def test_signed_rank_verdict_reads_the_tests_decisions():
    table = load_example("garcia2008")
    plain = compare(table, bayesian="signed-rank", rope=0.01, samples=2000)
    cmp = compare(table, bayesian="signed-rank", rope=0.01, samples=2000, verdict="bayesian")
    v, bv = cmp.verdict, cmp.verdict.bayesian
    assert v.basis == "bayesian" and plain.verdict.basis == "frequentist"
    # the frequentist decisions, which the figures show, are unchanged and follow the Bayesian
    assert (v.winners, v.losers, v.best) == (plain.verdict.winners, plain.verdict.losers,
                                             plain.verdict.best)
    assert v.statement.startswith("Bayesian verdict, by the Bayesian signed-rank test")
    assert "Frequentist view (the tables and figures): " + plain.verdict.statement in v.text
    assert bv.reference == v.best == "C4.5"
    by_pair = {frozenset((r.a, r.b)): r for r in cmp.bayesian}
    for row in bv.rows:
        r = by_pair[frozenset((bv.reference, row["learner"]))]
        worse = r.p_a if r.a == bv.reference else r.p_b
        assert row["p_worse"] == worse and row["p_equivalent"] == r.p_rope
        expected = {"a": "worse" if r.a == bv.reference else "better",
                    "b": "better" if r.a == bv.reference else "worse"}.get(r.decision,
                                                                         r.decision)
        assert row["decision"] == expected
    # every learner but the reference, in mean-rank order
    assert [row["learner"] for row in bv.rows] == ["NaiveBayes", "CN2", "1-NN", "Kernel"]
    doc = json.loads(cmp.to_json())["report"]["verdict"]
    assert doc["basis"] == "bayesian" and doc["text"] == v.text
    assert doc["bayesian"]["learners"] == [dict(r) for r in bv.rows]
    for row in bv.rows:  # the number printed is the JSON's
        if row["decision"] == "worse":
            assert f"{row['learner']} is practically worse ({row['p_worse']:.2f})" in v.text
    for text in (cmp.to_text(), cmp.to_markdown(), cmp.to_html()):
        assert "Bayesian verdict" in text


def test_undecided_learners_show_all_three_probabilities():
    cmp = compare(load_example("garcia2008"), bayesian="signed-rank", rope=0.05,
                  samples=2000, verdict="bayesian")
    undecided = [r for r in cmp.verdict.bayesian.rows if r["decision"] == "undecided"]
    assert undecided, "a wide ROPE leaves some pair undecided"
    r = undecided[0]
    assert (f"{r['learner']}: undecided (worse {r['p_worse']:.2f}, equivalent"
            f" {r['p_equivalent']:.2f}, better {r['p_better']:.2f})") in cmp.verdict.text


def test_without_a_rope_equivalence_is_not_claimed():
    cmp = compare(load_example("garcia2008"), bayesian="sign", samples=2000,
                  verdict="bayesian")
    assert "no ROPE: equivalence is not assessed" in cmp.verdict.text
    assert all(r["p_equivalent"] is None for r in cmp.verdict.bayesian.rows)
    assert all(r["decision"] != "equivalent" for r in cmp.verdict.bayesian.rows)


def test_two_learners():
    import pandas as pd

    t = load_example("garcia2008")
    wide = pd.DataFrame(t.values[:, [0, 3]], columns=[t.learners[0], t.learners[3]])
    wide.insert(0, "dataset", t.datasets)
    cmp = compare(wide, bayesian="signed-rank", samples=2000, verdict="bayesian",
                  higher_is_better=True)
    bv = cmp.verdict.bayesian
    assert len(bv.rows) == 1 and bv.reference == t.learners[int(cmp.mean_ranks.argmin())]
    assert cmp.verdict.text.startswith("Bayesian verdict")


@pytest.mark.subprocess
def test_bayesian_verdict_needs_a_bayesian_analysis():
    with pytest.raises(RankwiseError, match="--bayesian"):
        compare(load_example("garcia2008"), verdict="bayesian")
    with pytest.raises(RankwiseError, match="verdict"):
        compare(load_example("garcia2008"), verdict="posterior")
    bad = subprocess.run([sys.executable, "-m", "rankwise.cli", "compare", "--example",
                          "garcia2008", "--verdict", "bayesian"], capture_output=True, text=True)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert "choose one with --bayesian" in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1


def test_the_default_verdict_is_frequentist_and_says_so_in_json():
    doc = json.loads(compare(load_example("garcia2008")).to_json())
    assert doc["report"]["verdict"]["basis"] == "frequentist"
    assert doc["report"]["verdict"]["bayesian"] is None
    assert doc["settings"]["verdict"] == "frequentist"
