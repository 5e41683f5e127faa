"""The items report on the one analysis protocol: schema, every format and the report folder
from one document, and one answer (the macro-average's best set, said once, with the sentence
that says why the across-task set differs)."""

import html
import json
import re

import pandas as pd
import pytest

import rankwise
from rankwise.protocol import Analysis
from rankwise.report import build_document
from rankwise.report.document import Heading

READABLE = ("text", "markdown", "latex", "html")


@pytest.fixture(scope="module")
def evals():
    return rankwise.compare_items(rankwise.load_items_example("evals"))


def _flat(text: str) -> str:
    """The text with its line breaks and runs of spaces as one space (formats wrap)."""
    return re.sub(r"\s+", " ", text)


def _said(fmt: str, sentence: str) -> str:
    """``sentence`` as ``fmt`` writes it (HTML escapes its quotes and ampersands)."""
    return html.escape(sentence, quote=False) if fmt == "html" else sentence


def test_schema_first_and_to_dict(evals):
    assert isinstance(evals, Analysis) and evals.kind == "items"
    assert evals.schema == "rankwise.items/3"
    data = json.loads(evals.to_json())
    assert list(data)[:2] == ["schema", "rankwise_version"] and "kind" not in data
    own = evals.to_dict()
    assert set(own) == set(data) - {"schema", "rankwise_version"}
    assert own["best_set"]["procedure"] == "max-t"
    assert own["best_set"]["learners"] == list(evals.tied) == data["macro"]["tied_with_best"]
    assert data["across_best_set"]["procedure"] == "against-best"
    assert data["best_sets_differ"] == evals.reconciled
    # the across-task comparison's whole JSON report, as before
    assert data["across"]["report"]["verdict"]["text"] == evals.across.verdict.text
    assert evals.settings["alpha"] == 0.05 and evals.notes == ()


@pytest.mark.figures
def test_every_section_in_every_format(evals):
    headings = [b.text for b in build_document(evals).blocks if isinstance(b, Heading)]
    assert {"Verdict", "Methods", "Per task: every pair of models on the same items"} <= \
        set(headings)
    assert all(t.task in headings for t in evals.tasks)
    for fmt in READABLE:
        out = evals.render(fmt)
        for h in headings:
            assert _said(fmt, h) in out, (fmt, h)
    data = json.loads(evals.render("json"))
    assert [t["dataset"] for t in data["per_dataset"]] == [t.task for t in evals.tasks]
    assert data["datasets"] == [t.task for t in evals.tasks]
    assert {"macro", "best_set", "across"} <= set(data)


@pytest.mark.figures
def test_repr_html_is_a_fragment_with_the_figures(evals):
    fragment = evals._repr_html_()
    assert fragment.startswith("<div") and "<!DOCTYPE" not in fragment
    assert fragment.count("<svg") == 1 + len(evals.across.figures)
    assert 'id="verdict"' in fragment and "Macro-average with intervals" in fragment


def test_one_best_set_said_once_and_the_reconcile_sentence(evals):
    best = evals.best_set
    other = evals.across_best_set
    assert best.procedure == "max-t" and best.learners == evals.tied
    extra = [m for m in other.learners if m not in best.learners]
    assert extra, "the example's two procedures differ: the report says why"
    why = evals.reconciled
    assert why is not None and all(m in why for m in extra)
    assert best.title in why and other.title in why
    for fmt in ("text", "markdown", "latex"):
        out = _flat(evals.render(fmt)).replace("\\", "")   # Markdown's and LaTeX's escapes
        # the verdict once, in every format (LaTeX sets "alpha = 0.05" as mathematics, so
        # there its opening and the reconciling clause are counted)
        assert out.count(f"Best on the macro-average: {best.best};") == 1, fmt
        assert out.count("They answer different questions") == 1, fmt
        if fmt != "latex":
            assert out.count(_flat(best.sentence())) == 1, fmt
            assert out.count(_flat(why)) == 1, fmt
        # the across-task comparison's own verdict is not printed beside the report's
        assert _flat(evals.across.verdict.statement) not in out, fmt
        assert "winners (not significantly worse than" not in out, fmt
        # the across-task cells are means of items per task, not of repeats and folds
        assert "repeats x folds" not in out and "over repeats and folds" not in out, fmt


def test_sets_that_agree_need_no_reconciling():
    r = rankwise.compare_items(rankwise.load_items_example("evals"), across=False)
    assert r.across_best_set is None and r.reconciled is None
    assert "Across tasks: the task-level table compared" not in r.to_text()
    assert "answer different questions" not in r.to_text()
    assert _flat(r.best_set.sentence()) in _flat(r.to_text())


@pytest.mark.parametrize("fmt", ["text", "markdown", "latex", "json"])
def test_cli_writes_every_format(cli, fmt):
    ran = cli("compare", "--example", "evals", "-f", fmt)
    assert ran.code == 0, ran.err
    start = {"text": "rankwise items: example:evals", "markdown": "# rankwise items",
             "latex": "\\documentclass", "json": "{"}[fmt]
    assert ran.out.startswith(start)
    if fmt == "json":
        assert json.loads(ran.out)["schema"] == "rankwise.items/3"
    else:
        assert _flat(ran.out).count("They answer different questions") == 1
    if fmt == "latex":
        assert ran.out.rstrip().endswith("\\end{document}")


@pytest.mark.figures
def test_cli_html_and_report_folder(cli, tmp_path):
    page = cli("compare", "--example", "evals", "-f", "html")
    assert page.code == 0 and page.out.startswith("<!DOCTYPE html>")
    assert page.out.count("<svg") >= 2     # the macro-average and the across-task diagrams
    folder = tmp_path / "report"
    ran = cli("compare", "--example", "evals", "-f", "json", "--report", folder)
    assert ran.code == 0, ran.err
    names = {p.name for p in folder.iterdir()}
    assert {"report.txt", "report.md", "report.tex", "report.html", "report.json",
            "macro.svg", "macro.pdf", "macro.png"} <= names
    assert json.loads((folder / "report.json").read_text()) == json.loads(ran.out)
    assert (folder / "report.txt").read_text() == cli("compare", "--example", "evals").out
    assert "(macro.svg)" in (folder / "report.md").read_text()
    assert "macro.pdf" in (folder / "report.tex").read_text()


def test_cli_refuses_bad_report_options_in_one_line(cli, tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("x")
    for args, said in ((("--report", afile), "is a file"),
                       (("-f", "latex", "--latex-fragment"), "--latex-fragment"),
                       (("--report", tmp_path / "r", "--figure-width", "huge"), "width"),
                       (("--pairs", tmp_path / "p.csv"), "-f json")):
        ran = cli("compare", "--example", "evals", *args)
        assert ran.code == 2 and said in ran.err, (args, ran.err)
        assert len(ran.err.strip().splitlines()) == 1 and "Traceback" not in ran.err
    assert not (tmp_path / "r").exists()


def test_old_words_of_items_and_fronts_still_work_and_say_so():
    """One word per idea: compare_items(procedures=) and compare_criteria(front_rule=);
    procedure= and convention= work with a FutureWarning until 0.10."""
    items = rankwise.load_items_example("evals")
    with pytest.warns(FutureWarning, match="procedure= is procedures="):
        old = rankwise.compare_items(items, procedure="bonferroni", across=False)
    new = rankwise.compare_items(items, procedures="bonferroni", across=False)
    assert old.to_dict() == new.to_dict() and new.settings["procedures"] == "bonferroni"
    tables = [rankwise.load_example("demo_results", criterion=c) for c in ("accuracy", "fit_time")]
    with pytest.warns(FutureWarning, match="convention= is front_rule="):
        front = rankwise.compare_criteria(tables, ["accuracy", "fit_time"], convention="tabarena",
                                          draws=20, permutations=10)
    assert front.settings["front_rule"] == "tabarena"


#: Keys of the models and tasks that schema 2 had and schema 3 spells as compare does.
OLD_WORDS = {"models", "tasks", "task", "model", "per_task", "n_models", "n_tasks"}


def test_json_speaks_compares_words(evals):
    """One word per idea: the JSON's learners and data sets are compare's keys (schema 3); the
    Python names beside the old ones say the same."""
    data = json.loads(evals.to_json())
    assert data["schema"] == "rankwise.items/3"
    assert data["learners"] == list(evals.learners) == list(evals.models)
    assert data["datasets"] == [t.dataset for t in evals.tasks] == list(evals.items.tasks)
    assert [t["dataset"] for t in data["per_dataset"]] == data["datasets"]
    assert all(t["learners"] == data["learners"] for t in data["per_dataset"])
    assert not OLD_WORDS & set(data)
    assert not any(OLD_WORDS & set(t) for t in data["per_dataset"])
    task = evals.tasks[0]
    assert task.dataset == task.task and task.learners == task.models
    # the across-task comparison is compare's own JSON: the same words
    assert data["across"]["learners"] == data["learners"]
    assert data["across"]["datasets"] == data["datasets"]


def test_json_floors_p_values_as_compare_does():
    """A p-value that underflows to 0 is written as the floor (1e-300), as compare writes it,
    not as 0.0; the text formats print it as "< 1e-300"."""
    from rankwise.stats.results import PVALUE_FLOOR

    n = 3000   # McNemar's chi-square on 3,000 discordant items: p underflows to 0
    frame = pd.DataFrame({"model": ["a", "b", "c"] * n, "task": "t",
                          "item": [i for i in range(n) for _ in range(3)],
                          "score": [s for i in range(n) for s in (1, 0, i % 2)]})
    r = rankwise.compare_items(frame, across=False)
    assert (r.tasks[0].pairs.pvalue == 0).all() and (r.tasks[0].adjusted == 0).all()
    data = json.loads(r.to_json())
    assert data["pvalue_floor"] == PVALUE_FLOOR
    pairs = data["per_dataset"][0]["pairs"]
    assert pairs["pvalue"] == pairs["adjusted"] == [PVALUE_FLOOR] * 3
    assert "< 1e-300" in r.to_text()
    # p-values above the floor are written as they are
    evals = json.loads(rankwise.compare_items(rankwise.load_items_example("evals"),
                                              across=False).to_json())
    code = evals["per_dataset"][0]["pairs"]
    assert min(code["pvalue"]) > PVALUE_FLOOR and 0 < min(code["adjusted"]) < 0.05
