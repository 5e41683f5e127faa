"""Every analysis result displays itself in a notebook: ``_repr_html_`` (the report as an HTML
fragment, figures inline), ``_repr_markdown_`` (the Markdown report) and a plain ``repr``
within 80 columns. The kinds are the report registry's, so a new kind fails here until it
has an example."""

from __future__ import annotations

import pytest

import rankwise
from rankwise.report.kinds import KINDS


def _results() -> dict:
    from rankwise.analysis.audit import audit
    from rankwise.examples import load_gate_example, load_items_example
    from rankwise.power import power_study
    from importlib.resources import files

    import pandas as pd

    table = rankwise.load_example("garcia2008")
    board = [["model", "MATH", "GSM8K"], ["a", "51.2", "80.0"], ["b", "49.9", "78.5"]]
    return {
        "compare": rankwise.compare(table),
        "leaderboard": rankwise.leaderboard(table, draws=20),
        "items": rankwise.compare_items(load_items_example("evals")),
        "curves": rankwise.compare_curves(rankwise.load_curves_example()),
        "fronts": rankwise.compare_criteria(files("rankwise.examples") / "folds_demo.csv",
                                            ["accuracy", "runtime"], draws=20,
                                            permutations=20),
        "audit": audit(pd.DataFrame(board[1:], columns=board[0]),
                       counts={"MATH": 5000, "GSM8K": 1319}),
        "race": rankwise.race(table, order="given"),
        "power": power_study(table, learners="C4.5,CN2", sample_size="10", biases=[0],
                             draws=20),
        "gate": rankwise.gate(*load_gate_example()),
        "plan": rankwise.plan(table),
    }


@pytest.fixture(scope="module")
def results():
    return _results()


def test_every_kind_has_an_example(results):
    assert set(results) == set(KINDS) | {"compare"}


@pytest.mark.figures
def test_every_result_displays_itself(results):
    for kind, result in results.items():
        html = result._repr_html_()
        assert html.startswith("<div") and "<html" not in html, kind
        assert result._repr_markdown_() == result.render("markdown"), kind
        text = repr(result)
        assert max(map(len, text.splitlines())) <= 80, (kind, text)
        assert type(result).__name__ in text.splitlines()[0], kind
        assert "print(" in text.splitlines()[-1], kind
