"""The one shape of every analysis result: kind, schema, document, every format, the report
folder, and the one family of best-set procedures."""

import json

import pytest

import rankwise
from rankwise.analysis.best import BestSet, reconcile
from rankwise.protocol import Analysis
from rankwise.errors import RankwiseError
from rankwise.names import BEST_SETS
from rankwise.report import build_document, render
from rankwise.report.kinds import KINDS


def test_the_comparison_schema_is_the_json_schema():
    from rankwise.analysis.schema import SCHEMA

    cmp = rankwise.compare(rankwise.load_example("garcia2008"))
    assert isinstance(cmp, Analysis) and cmp.kind == "compare" and cmp.schema == SCHEMA
    assert json.loads(cmp.to_json())["schema"] == cmp.schema


def test_leaderboard_has_every_format_from_one_document():
    lb = rankwise.leaderboard(rankwise.load_example("garcia2008"), draws=20)
    assert lb.kind in KINDS and lb.schema == "rankwise.leaderboard/2"
    data = json.loads(render(lb, "json"))
    assert list(data)[:2] == ["schema", "rankwise_version"] and data["schema"] == lb.schema
    doc = build_document(lb)
    headings = [b.text for b in doc.blocks if type(b).__name__ == "Heading"]
    for fmt, text in (("text", lb.to_text()), ("markdown", lb.to_markdown()),
                      ("latex", lb.to_latex())):
        for h in headings:   # every section in every format
            assert h in text, (fmt, h)
    assert lb.to_text() == render(lb, "text")


@pytest.mark.figures
def test_leaderboard_html_and_folder_carry_the_figures(tmp_path):
    lb = rankwise.leaderboard(rankwise.load_example("garcia2008"), draws=20)
    assert lb.to_html().count("<svg") == 2
    names = {p.name for p in lb.write_report(tmp_path / "out")}
    assert {"report.txt", "report.md", "report.tex", "report.html", "report.json",
            "board.csv", "elo.svg", "elo.pdf", "winrate_matrix.png"} <= names
    assert "<svg" in lb._repr_html_()
    md = (tmp_path / "out" / "report.md").read_text()
    assert "(elo.svg)" in md


def test_an_object_of_no_kind_is_refused_in_one_line():
    class Other(Analysis):
        kind = "nothing"

    with pytest.raises(RankwiseError, match="no report is declared"):
        Other().to_text()


def test_best_sets_name_their_procedure_and_reconcile():
    a = BestSet("max-t", "delta", ("delta", "gamma"), "95% simultaneous", "the macro-average")
    b = BestSet("against-best", "delta", ("delta", "gamma", "beta"), "Holm, alpha = 0.05",
                "the tasks")
    assert set(BEST_SETS) == {"against-best", "max-t", "rank-sets"}
    assert a.title in a.sentence() and "gamma" in a.sentence()
    assert reconcile(a, a) is None
    text = reconcile(a, b)
    assert "beta" in text and a.title in text and b.title in text
    assert a.to_dict()["procedure"] == "max-t" and a.to_dict()["learners"] == ["delta", "gamma"]
    with pytest.raises(RankwiseError, match="unknown best-set procedure"):
        BestSet("vote", "a", ("a",))
