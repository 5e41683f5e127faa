"""The compact letter display: learners share a letter exactly when they are not significantly
different; the letters are the largest groups of mutually not different learners (checked by
enumerating every group), and the same groups as R's multcompView::multcompLetters."""

import itertools
import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from rankwise.errors import RankwiseError
from rankwise.stats.letters import compact_letters, letter_name

REFERENCE = Path(__file__).parent / "data" / "reference" / "multcomp_letters.json"


def letter_cases():
    """Decision matrices: a chain of overlapping groups, random ones, none and all."""
    cases = []
    names = tuple("ABCDEFG")
    chain = np.zeros((7, 7), bool)
    for i in range(7):
        for j in range(7):
            chain[i, j] = abs(i - j) >= 3
    cases.append((names, chain))
    rng = np.random.default_rng(4)
    for k in (4, 5, 6, 7, 8, 8):
        d = np.triu(rng.random((k, k)) < 0.4, 1)
        cases.append((tuple(f"L{i}" for i in range(k)), d | d.T))
    cases.append((tuple("ABC"), np.zeros((3, 3), bool)))
    cases.append((tuple("ABC"), ~np.eye(3, dtype=bool)))
    return cases


def groups_of(display):
    return sorted(sorted(v) for v in display.groups.values())


def maximal_cliques(names, different):
    """Every largest set of mutually not different learners, by enumerating all subsets."""
    k = len(names)
    ok = [set(s) for r in range(1, k + 1) for s in itertools.combinations(range(k), r)
          if not any(different[i, j] for i, j in itertools.combinations(s, 2))]
    return sorted(sorted(names[i] for i in s) for s in ok if not any(s < t for t in ok))


@pytest.mark.parametrize("case", range(len(letter_cases())))
def test_letters_are_the_maximal_groups_and_share_exactly_when_not_different(case):
    names, different = letter_cases()[case]
    display = compact_letters(names, different)
    assert groups_of(display) == maximal_cliques(names, different)
    for i, j in itertools.combinations(range(len(names)), 2):
        shared = set(display.letters[i]) & set(display.letters[j])
        assert bool(shared) == (not different[i, j]), (names[i], names[j])


def test_letters_follow_the_display_order_and_do_not_depend_on_the_pair_order():
    names, different = letter_cases()[0]
    display = compact_letters(names, different)
    assert display.letters[0] == "a" and display.groups["a"][0] == "A"
    order = [3, 1, 6, 0, 5, 2, 4]
    again = compact_letters([names[i] for i in order], different[np.ix_(order, order)])
    assert groups_of(again) == groups_of(display)
    assert [letter_name(i) for i in (0, 25, 26, 51, 52, 53)] == ["a", "z", "A", "Z", "aa", "ab"]


def test_equal_to_multcomp_letters_stored():
    ref = json.loads(REFERENCE.read_text())
    for case, groups in zip(ref["cases"], ref["groups"]):
        display = compact_letters(case["names"], np.array(case["different"], bool))
        assert groups_of(display) == groups


@pytest.mark.skipif(shutil.which("Rscript") is None, reason="R is not installed")
def test_equal_to_multcomp_letters_run_now():
    sys.path.insert(0, str(Path(__file__).parents[1] / "tools"))
    from make_r_references import letters_reference

    cases = letter_cases()
    try:
        theirs = letters_reference(cases)
    except subprocess.CalledProcessError as exc:
        pytest.skip(f"multcompView is not installed in R: {exc.stderr.strip()[-120:]}")
    for (names, different), groups in zip(cases, theirs):
        assert groups_of(compact_letters(names, different)) == groups


def test_bad_decisions():
    with pytest.raises(RankwiseError, match="3 × 3"):
        compact_letters("ABC", np.zeros((2, 2), bool))
    asymmetric = np.zeros((3, 3), bool)
    asymmetric[0, 1] = True
    with pytest.raises(RankwiseError, match="symmetric"):
        compact_letters("ABC", asymmetric)


@pytest.mark.figures
def test_compare_letters_are_the_cd_diagrams_decisions_in_every_format():
    from rankwise import compare, load_example

    cmp = compare(load_example("garcia2008"), posthoc="all", procedures="holm,nemenyi")
    plan = cmp.figures["cd_diagram"]
    order = np.argsort(cmp.mean_ranks, kind="stable")
    fam, _, _ = _engine_of(cmp).family(plan.ranking, "all_pairs", (plan.procedure,), None)
    sig = fam.significant(plan.procedure, plan.alpha, cmp.table.learners)
    names = [cmp.table.learners[j] for j in order]
    expected = compact_letters(names, sig[np.ix_(order, order)])
    assert cmp.letters.letters == expected.letters
    assert dict(zip(names, expected.letters)) == {"C4.5": "a", "NaiveBayes": "ab", "CN2": "ab",
                                                  "1-NN": "bc", "Kernel": "c"}
    doc = json.loads(cmp.to_json())
    assert doc["letters"]["procedure"] == "nemenyi" and doc["letters"]["letters"]["1-NN"] == "bc"
    assert "Letters (learners that share one are not significantly different)" in plan.caption
    for text in (cmp.to_text(), cmp.to_markdown(), cmp.to_latex(), cmp.to_html()):
        assert "letters" in text and "Piepho 2004" in text
    plain = compare(load_example("garcia2008"))
    assert plain.letters is None and json.loads(plain.to_json())["letters"] is None
    assert "Letters" not in plain.to_text()


def _engine_of(cmp):
    """The analysis' post-hoc engine, rebuilt as compare builds it."""
    from rankwise.analysis import steps
    from rankwise.analysis.options import validate

    opts = validate(cmp.table, cmp.options)
    upto = steps.STEPS.index(steps.frequentist) + 1
    return steps.fold(cmp.table, opts, steps=steps.STEPS[:upto]).engine
