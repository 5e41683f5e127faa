"""The report's JSON writer: the standard library's indented JSON, except that a list of numbers
is written on one line; the same data in every case."""

import json

import numpy as np
import pytest

from rankwise import compare, load_example
from rankwise.report.json_text import dumps
from rankwise.stats.results import jsonable


def _random_doc(rng, depth=0):
    roll = rng.integers(0, 10 if depth < 4 else 5)
    if roll == 0:
        return str(rng.choice(["", "a", "ü \"q\" \\ \n\t", "𝛼β", "x" * 30, "\x7f", "</script>"]))
    if roll == 1:
        return int(rng.integers(-10 ** 6, 10 ** 6)) * int(rng.choice([1, 10 ** 15]))
    if roll == 2:
        return float(rng.choice([0.1, -0.0, 1e-300, 1.7976931348623157e308, 2.5, 1 / 3,
                                 float(rng.normal())]))
    if roll == 3:
        return [True, False, None][int(rng.integers(0, 3))]
    if roll == 4:
        return [float(v) for v in rng.normal(size=int(rng.integers(0, 6)))]
    if roll in (5, 6):
        return {str(rng.integers(0, 100)) + "é": _random_doc(rng, depth + 1)
                for _ in range(int(rng.integers(0, 5)))}
    if roll == 7:
        return tuple(_random_doc(rng, depth + 1) for _ in range(int(rng.integers(0, 4))))
    return [_random_doc(rng, depth + 1) for _ in range(int(rng.integers(0, 5)))]


@pytest.mark.parametrize("indent", [None, 0, 1, 2, 4])
def test_same_data_as_the_standard_library_on_random_documents(indent):
    rng = np.random.default_rng(indent or 11)
    for _ in range(400):
        doc = _random_doc(rng)
        text = dumps(doc, indent)
        reference = json.dumps(doc, indent=indent, ensure_ascii=False, allow_nan=False)
        assert json.loads(text) == json.loads(reference)
        if indent is None:  # unindented: the standard library's bytes
            assert text == reference
    keys = {3: "int", 2.5: "float", True: "bool", None: "none"}
    assert dumps(keys, 2) == json.dumps(keys, indent=2, ensure_ascii=False)


def test_a_list_of_numbers_is_one_line_and_everything_else_as_the_standard_library():
    doc = {"a": [1, 2.5, None, True], "b": ["x", "y"], "c": {"d": []}, "e": [[1, 2], [3, 4]]}
    assert dumps(doc, 2) == ('{\n  "a": [1,2.5,null,true],\n  "b": [\n    "x",\n    "y"\n  ],\n'
                             '  "c": {\n    "d": []\n  },\n  "e": [\n    [1,2],\n    [3,4]\n  ]\n}')
    arrays = {"a": np.array([1.0, np.nan, 2.5]), "m": np.array([[1, 2], [3, 4]]),
              "n": np.arange(5) * 0.5}
    assert dumps(arrays, 2) == dumps(jsonable(arrays), 2)


def test_same_data_on_real_reports():
    for posthoc in (None, "all", "both"):
        cmp = compare(load_example("garcia2008"), posthoc=posthoc)
        text = cmp.to_json()
        doc = json.loads(text)
        assert doc == json.loads(json.dumps(cmp.to_dict() | {"report": cmp.report}))
        for line in text.splitlines():  # no line holds a lone number of a list
            stripped = line.strip().rstrip(",")
            assert not stripped.replace(".", "", 1).replace("-", "", 1).isdigit(), line


def test_non_finite_numbers_are_refused_as_by_the_standard_library():
    for bad in (float("nan"), [1.0, float("inf")], {"a": -float("inf")}):
        with pytest.raises(ValueError):
            dumps(bad, 2)


def test_jsonable_makes_plain_data():
    x = np.array([[1.0, np.nan], [np.inf, 2.0]])
    assert jsonable({"m": x, 1: np.float64(0.5), "t": (np.int64(3), np.bool_(True))}) == {
        "m": [[1.0, None], [None, 2.0]], "1": 0.5, "t": [3, True]}
    assert jsonable(np.arange(3)) == [0, 1, 2] and jsonable(float("nan")) is None


@pytest.mark.parametrize("indent", [None, 2])
def test_included_table_written_from_the_arrays_as_from_lists(indent):
    """With the per-cell matrices included, the JSON text is the standard library's text of the
    same document made of plain lists (the arrays are written a row at a time)."""
    cmp = compare(load_example("garcia2008"), posthoc="all")
    text = cmp.to_json(indent=indent, include_table=True)
    doc = json.loads(text)
    assert doc["table_included"] and len(doc["values"]) == cmp.table.n_datasets
    plain = cmp.to_dict(include_table=True)
    plain["report"] = json.loads(cmp.to_json(include_table=True))["report"]
    assert doc == json.loads(json.dumps(plain, indent=indent, ensure_ascii=False))
    assert doc["values"] == cmp.table.values.tolist() and doc["ranks"] == cmp.ranks.tolist()
    assert doc["report"]["rank_table"]["best"] == cmp.summary.best.tolist()


def test_arrays_with_non_finite_numbers_become_null():
    x = np.array([[1.0, np.nan], [np.inf, 2.5]])
    assert json.loads(dumps({"m": x, "b": np.array([True, False]), "s": np.float64(0.5)}, 2)) \
        == {"m": [[1.0, None], [None, 2.5]], "b": [True, False], "s": 0.5}
