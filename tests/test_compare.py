"""compare() as a caller meets it: what it reads, how its keywords are taken and refused, and
what the Comparison it returns can do (with_options, repr)."""

import inspect
import json

import numpy as np
import pytest

from rankwise import (Comparison, PosthocOptions, RankwiseError, WilcoxonOptions, compare,
                      load_example)


def test_at_most_25_keywords_besides_the_reading_options():
    params = inspect.signature(compare).parameters
    keywords = [p for p in params.values() if p.kind is inspect.Parameter.KEYWORD_ONLY]
    assert len(keywords) <= 25
    assert list(params)[0] == "data" and list(params)[-1] == "load_options"


def test_an_unknown_keyword_is_a_type_error_as_python_says_it():
    table = load_example("garcia2008")
    with pytest.raises(TypeError, match="compare\\(\\) got an unexpected keyword argument 'bogus'"):
        compare(table, bogus=1)


def test_reading_options_do_not_apply_to_a_score_table():
    with pytest.raises(RankwiseError, match="cannot be applied to a ScoreTable"):
        compare(load_example("garcia2008"), criterion="auc")


def test_an_array_is_read_with_numbered_names():
    x = np.random.default_rng(0).random((12, 3))
    cmp = compare(x)
    assert list(cmp.table.learners) == ["L1", "L2", "L3"]
    assert cmp.table.datasets[0] == "D1" and len(cmp.table.datasets) == 12


def test_a_group_given_as_its_class_or_its_lead_value_is_the_same_analysis():
    table = load_example("garcia2008")
    a = compare(table, posthoc="all").to_json()
    b = compare(table, posthoc=PosthocOptions("all")).to_json()
    assert a == b


def test_the_old_flat_keyword_warns_and_gives_the_same_analysis():
    table = load_example("garcia2008")
    grouped = compare(table, pair=("C4.5", "CN2"),
                      wilcoxon=WilcoxonOptions(zero_method="pratt")).to_json()
    with pytest.warns(FutureWarning, match="wilcoxon=WilcoxonOptions\\(zero_method=...\\)"):
        flat = compare(table, pair=("C4.5", "CN2"), zero_method="pratt").to_json()
    assert flat == grouped


def test_with_options_changes_only_what_it_is_given():
    table = load_example("garcia2008")
    cmp = compare(table, posthoc="all", alpha=0.1)
    changed = cmp.with_options(alpha=0.05)
    assert changed.alpha == 0.05 and changed.options["posthoc"] == "all"
    assert json.loads(changed.to_json())["tests"] == json.loads(
        compare(table, posthoc="all").to_json())["tests"]
    # A flat name of a grouped option is taken too.
    pratt = cmp.with_options(zero_method="pratt")
    assert pratt.options["zero_method"] == "pratt" and pratt.alpha == 0.1


def test_repr_names_the_verdict_in_three_lines():
    text = repr(compare(load_example("garcia2008")))
    lines = text.splitlines()
    assert len(lines) == 3 and lines[0].startswith("<Comparison: k = 5 learners x N = 30")
    assert "best C4.5" in lines[1]


def test_a_comparison_is_frozen():
    cmp = compare(load_example("garcia2008"))
    assert isinstance(cmp, Comparison)
    with pytest.raises(AttributeError):
        cmp.alpha = 0.1


def test_one_word_for_the_number_of_draws_with_the_old_names_warned(cli):
    """``draws`` everywhere (0.8's ``samples``, ``replicates``): the old names still work until
    0.10, with a FutureWarning in Python and a note on the command line."""
    from rankwise import BayesianOptions, bayesian_sign_test, mean_rank_intervals

    table = load_example("garcia2008")
    new = compare(table, bayesian=BayesianOptions("sign", draws=2000))
    with pytest.warns(FutureWarning, match=r"compare\(samples=...\) is"
                                           r" bayesian=BayesianOptions\(draws=...\)"):
        old = compare(table, bayesian="sign", samples=2000)
    assert old.to_json() == new.to_json()
    assert new.settings["bayesian_draws"] == 2000 and new.bayesian[0].draws == 2000
    assert json.loads(new.to_json())["bayesian"][0]["draws"] == 2000
    with pytest.warns(FutureWarning, match="samples= is draws= since rankwise 0.9"):
        assert bayesian_sign_test([1, 2, 3], [0, 1, 1], samples=500).draws == 500
    with pytest.warns(FutureWarning, match="BayesianResult.samples is BayesianResult.draws"):
        assert new.bayesian[0].samples == 2000
    with pytest.warns(FutureWarning, match="replicates= is draws="):
        a, _ = mean_rank_intervals(new.ranks, replicates=300)
    assert np.array_equal(a, mean_rank_intervals(new.ranks, draws=300)[0])
    assert new.settings["mean_rank_intervals"]["draws"] == 2000
    flagged = cli("compare", "--example", "garcia2008", "--bayesian", "sign", "--samples", "2000",
                  "--format", "json")
    assert flagged.returncode == 0
    assert "rankwise: note: --samples is --draws since rankwise 0.9" in flagged.stderr
    drawn = cli("compare", "--example", "garcia2008", "--bayesian", "sign", "--draws=2000",
                "--format", "json")
    assert json.loads(flagged.stdout)["settings"] == json.loads(drawn.stdout)["settings"]


def test_mcm_and_multiverse_take_the_command_lines_words():
    table = load_example("garcia2008")
    assert compare(table, mcm="plain").to_json() == compare(table, mcm=True).to_json()
    with pytest.raises(RankwiseError, match="mcm must be 'plain'"):
        compare(table, mcm="fancy")
