"""The input contract of the public API (docs/guide/python-api.md, "What the functions take"):
``compare`` and ``load_table`` read a path, a DataFrame, a ScoreTable or a 2-D array; every
function of a score matrix takes an array, a list of rows, a DataFrame of numbers or a
ScoreTable (with its direction), and refuses anything else in one line."""

import numpy as np
import pandas as pd
import pytest

import rankwise
from rankwise import RankwiseError, ScoreTable, compare, load_example, load_table

def _names(x) -> dict:
    """Learners' names for a plain array (a table and a frame bring their own)."""
    if isinstance(x, (np.ndarray, list)) and np.ndim(x) == 2:
        return {"learners": [f"learner {j}" for j in range(np.shape(x)[1])]}
    return {}


MATRIX_FUNCTIONS = {
    "friedman": lambda x, **kw: rankwise.friedman(x, **kw),
    "iman_davenport": lambda x, **kw: rankwise.iman_davenport(x, **kw),
    "friedman_aligned": lambda x, **kw: rankwise.friedman_aligned(x, **kw),
    "quade": lambda x, **kw: rankwise.quade(x, **kw),
    "skillings_mack": lambda x, **kw: rankwise.skillings_mack(x, **kw),
    "multiple_sign_test": lambda x, **kw: rankwise.multiple_sign_test(x, 0, **kw),
    "pairwise_statistics": lambda x, **kw: rankwise.pairwise_statistics(x, **kw),
    "rank_within_datasets": lambda x, **kw: rankwise.rank_within_datasets(x, **kw),
    "mean_ranks": lambda x, **kw: rankwise.mean_ranks(x, **kw),
    "aligned_ranks": lambda x, **kw: rankwise.aligned_ranks(x, **kw),
    "multi_comparison_matrix": lambda x, **kw: rankwise.multi_comparison_matrix(
        x, **_names(x), **kw),
    "scott_knott_esd": lambda x, **kw: rankwise.scott_knott_esd(x, **_names(x), **kw),
}
#: Direction-free: the same numbers whichever way the scores point.
UNDIRECTED = {
    "rm_anova": lambda x: rankwise.rm_anova(x),
    "tukey_dunnett": lambda x: rankwise.tukey_dunnett(x, 0),
    "contrast_estimation": lambda x: rankwise.contrast_estimation(x),
    "quade_weights": lambda x: rankwise.quade_weights(x),
}


def numbers(result):
    """What a result says, as comparable numbers."""
    if isinstance(result, np.ndarray):
        return np.round(result, 12).tolist()
    out = []
    for name in ("statistic", "pvalue", "mean_ranks", "z", "p", "rank", "order", "pvalue_matrix",
                 "estimates", "critical_value", "statistics", "apv"):
        value = getattr(result, name, None)
        if value is not None and not callable(value):
            out.append((name, np.round(np.asarray(value, dtype=float), 12).tolist()))
    for name in ("tukey", "dunnett"):  # Tukey-Dunnett: every pair's statistic and p-value
        if getattr(result, name, None):
            out.append((name, [(round(float(c["statistic"]), 12), round(c["pvalue"], 12))
                               for c in getattr(result, name)]))
    comparisons = getattr(result, "comparisons", None)
    if isinstance(comparisons, tuple) and comparisons and isinstance(comparisons[0], dict):
        out.append(("signs", [(c["pluses"], c["minuses"]) for c in comparisons]))
    assert out, type(result)
    return out


@pytest.fixture(scope="module")
def lower():
    """A table read as lower-is-better (mlr3's classification error)."""
    t = load_example("mlr3", criterion="classif.ce")
    assert t.higher_is_better is False
    return t


@pytest.mark.parametrize("name", sorted(MATRIX_FUNCTIONS))
def test_each_kind_of_matrix_gives_the_same_numbers(name, lower):
    fn = MATRIX_FUNCTIONS[name]
    x = lower.values
    reference = numbers(fn(x, higher_is_better=False))
    assert numbers(fn(x.tolist(), higher_is_better=False)) == reference
    frame = pd.DataFrame(x, columns=lower.learners, index=lower.datasets)
    assert numbers(fn(frame, higher_is_better=False)) == reference
    assert numbers(fn(lower)) == reference  # the table's own direction
    assert numbers(fn(lower, higher_is_better=False)) == reference
    # the other direction really is different: the table's direction was used, not a default
    # (Skillings-Mack's statistic and the pair statistics' sizes do not depend on it)
    assert numbers(fn(x)) != reference or name in ("pairwise_statistics", "skillings_mack")


@pytest.mark.parametrize("name", sorted(MATRIX_FUNCTIONS))
def test_a_contradicting_direction_is_refused(name, lower):
    with pytest.raises(RankwiseError, match=r"read as lower is better; leave higher_is_better"
                       r" out") as err:
        MATRIX_FUNCTIONS[name](lower, higher_is_better=True)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("name", sorted(UNDIRECTED))
def test_direction_free_functions_take_every_kind(name, lower):
    fn = UNDIRECTED[name]
    reference = numbers(fn(lower.values))
    assert numbers(fn(lower)) == reference
    assert numbers(fn(pd.DataFrame(lower.values, columns=lower.learners))) == reference
    assert numbers(fn(lower.values.tolist())) == reference


@pytest.mark.parametrize("name", sorted(MATRIX_FUNCTIONS) + sorted(UNDIRECTED))
@pytest.mark.parametrize("bad, message", [
    ("results.csv", r"not a file name; read the file first: \w+\(rankwise.load_table"),
    ({"a": [1, 2]}, r"2-D table .* got a dict"),
    (3.5, r"2-D table .* got a float"),
    ([0.1, 0.2, 0.3], r"2-D table .* got 1-D"),
])
def test_anything_else_is_refused_in_one_line(name, bad, message):
    fn = {**MATRIX_FUNCTIONS, **UNDIRECTED}[name]
    with pytest.raises(RankwiseError, match=message) as err:
        fn(bad)
    assert "\n" not in str(err.value)


def test_a_dataframe_with_a_text_column_is_refused(lower):
    frame = pd.DataFrame(lower.values, columns=lower.learners)
    frame.insert(0, "dataset", lower.datasets)
    with pytest.raises(RankwiseError, match=r"column 'dataset' is not numbers; make it the index"):
        rankwise.friedman(frame)


def test_learners_come_from_a_table_or_a_frame(lower):
    mcm = rankwise.multi_comparison_matrix(lower)
    assert tuple(mcm.learners) == tuple(lower.learners)
    frame = pd.DataFrame(lower.values, columns=lower.learners)
    assert tuple(rankwise.scott_knott_esd(frame, higher_is_better=False).learners) == \
        tuple(lower.learners)
    named = rankwise.scott_knott_esd(lower, learners=list("ABCD"))
    assert tuple(named.learners) == tuple("ABCD")  # given names win


def test_compare_and_load_table_read_every_kind(tmp_path):
    t = load_example("garcia2008")
    path = tmp_path / "wide.csv"
    t.to_frame().to_csv(path, index_label="dataset")
    frame = t.to_frame()
    verdicts = {kind: compare(source).verdict.losers for kind, source in
                [("path", path), ("str", str(path)), ("frame", frame), ("table", t)]}
    assert len(set(verdicts.values())) == 1, verdicts
    array = compare(t.values)
    assert array.table.learners == tuple(f"L{j}" for j in range(1, 6))
    assert array.table.datasets[:2] == ("D1", "D2")
    assert np.array_equal(array.table.values, t.values)
    assert array.mean_ranks.tolist() == compare(t).mean_ranks.tolist()
    assert "learners L1-L5 are its columns" in array.to_text()
    assert load_table(t.values.tolist()).learners == array.table.learners
    assert isinstance(load_table(t.values), ScoreTable)


@pytest.mark.parametrize("bad, message", [
    (np.zeros(5), r"an array of scores must be 2-D .* got shape \(5,\)"),
    ({"a": 1}, r"a file path, a data frame \(pandas, Polars, PyArrow, DuckDB...\), a 2-D"
               r" array or a ScoreTable; got dict"),
    (None, r"got NoneType"),
])
def test_compare_refuses_anything_else_in_one_line(bad, message):
    with pytest.raises(RankwiseError, match=message) as err:
        compare(bad)
    assert "\n" not in str(err.value)


def test_an_inferred_direction_is_spelled_none():
    """Every function that takes a ScoreTable's direction says so with ``None`` (scikit-learn's
    spelling of an inferred default), and reads an array as higher-is-better."""
    import inspect

    import rankwise
    from rankwise import friedman, load_example, mean_ranks

    for name in rankwise.__all__:
        fn = getattr(rankwise, name)
        params = inspect.signature(fn).parameters if callable(fn) and not isinstance(
            fn, type) else {}
        if "higher_is_better" in params and getattr(fn, "__wrapped__", None) is not None:
            assert params["higher_is_better"].default is None, name
    table = load_example("demsar2006_table2")
    assert friedman(table.values).statistic == friedman(table).statistic
    errors = -table.values
    assert list(mean_ranks(errors, higher_is_better=False)) == list(mean_ranks(table.values))
