"""The "How sure can I be?" section: the same sentences as the verdict, the same sets, tiers,
letters and fragile claims in every format, the JSON and the figure."""

import json

import pytest

from rankwise import compare, load_example
from rankwise.report import render
from rankwise.report.how_sure import learner_claims


@pytest.fixture(scope="module")
def cmp():
    return compare(load_example("garcia2008"), posthoc="all", rank_sets=True,
                   dataset_check=True, pool_check=True)


def test_the_sections_sentences_are_the_verdicts(cmp):
    from rankwise.report.how_sure import sentences

    said = sentences(cmp)
    assert len(said) == 3
    for sentence in said:
        assert sentence in cmp.verdict.statement
    data = json.loads(cmp.to_json())
    assert data["report"]["how_sure"]["sentences"] == said


@pytest.mark.figures
def test_every_format_has_the_section_once(cmp):
    for fmt, heading in (("text", "How sure can I be?"), ("markdown", "## How sure can I be?"),
                         ("latex", "\\section*{How sure can I be?}"),
                         ("html", ">How sure can I be?<")):
        out = render(cmp, fmt)
        assert out.count(heading) == 1, fmt
        assert "Does the pool matter?" in out, fmt   # the pool check is part of it
        assert "falls without" in out, fmt
    plain = compare(load_example("garcia2008"))
    for fmt in ("text", "markdown", "latex", "html"):
        assert "How sure can I be?" not in render(plain, fmt)
    assert json.loads(plain.to_json())["report"]["how_sure"] is None


def test_json_entries_equal_the_analyses_they_join(cmp):
    data = json.loads(cmp.to_json())
    entries = {e["learner"]: e for e in data["report"]["how_sure"]["learners"]}
    sets = {e["learner"]: e for e in data["rank_sets"]["learners"]}
    letters = data["letters"]["letters"]
    claims = learner_claims(cmp)
    tiers = cmp.rank_sets.tier_of()
    for name, entry in entries.items():
        assert entry["rank_set"] == [sets[name]["lower"], sets[name]["upper"]]
        assert entry["could_be_best"] == sets[name]["could_be_best"]
        assert entry["tier"] == tiers[name] == sets[name]["tier"]
        assert entry["letters"] == letters[name]
        claim = claims[name]
        assert entry["falls_without"] == {"smallest": claim.smallest, "exact": claim.exact,
                                          "removed": list(claim.removed)}
        decision = ("best" if name == cmp.verdict.best else
                    "worse" if name in cmp.verdict.losers else "not worse")
        assert entry["verdict"] == decision


def test_tiers_follow_the_lower_bounds(cmp):
    sets = cmp.rank_sets
    tiers = sets.tiers()
    assert set(tiers[0]) == {n for n, b in zip(sets.learners, sets.best) if b}
    lows = [{int(sets.lower[sets.learners.index(n)]) for n in tier} for tier in tiers]
    assert all(len(low) == 1 for low in lows)
    assert [low.pop() for low in lows] == sorted({int(v) for v in sets.lower})


@pytest.mark.figures
def test_the_figure_marks_the_fragile_claims(cmp):
    plan = cmp.figures["rank_sets"]
    fragile = {c.learners[0]: c.removed for c in cmp.dataset_check.fragile()
               if c.kind in ("best", "verdict")}
    assert plan.matrix["fragile"] == fragile and fragile
    assert list(plan.matrix["learners"]) == sorted(
        cmp.table.learners, key=lambda n: (cmp.mean_ranks[cmp.table.learners.index(n)],
                                           cmp.table.learners.index(n)))
    svg = cmp.figure_svgs["rank_sets"]
    assert svg.startswith("<?xml")
