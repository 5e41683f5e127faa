"""Audit, race and power on the one analysis protocol: kind and schema, every section in every
format, the report folder, the command lines' formats and --report, and the audit's level."""

import html
import json
from pathlib import Path

import pytest

import rankwise
from rankwise.analysis.audit import audit
from rankwise.protocol import Analysis
from rankwise.names import REPORT_FORMATS
from rankwise.power import power_study
from rankwise.report.document import Heading
from rankwise.report.generic import FILES

BOARD = Path(__file__).parent / "data" / "items" / "board_to_markdown.md"
POWER = dict(learners=["C4.5", "CN2"], draws=20, biases=[0, 10])
#: Each command on its bundled input, small enough to run in a moment.
COMMANDS = {
    "audit": ["audit", BOARD, "--counts", "MATH=5000"],
    "race": ["race", "--example", "garcia2008", "--order", "given"],
    "power": ["power", "--example", "garcia2008", "--learners", "C4.5,CN2", "--draws", "20",
              "--bias", "0,10"],
}
#: The report folder's files of each command (beside the figures).
FOLDER = {"audit": set(FILES.values()), "race": set(FILES.values()) | {"race.svg", "race.png"},
          "power": {"power.txt", "power.json", "power.md", "power.tex", "power.html",
                    "power_rejection.svg", "power_replicability.pdf"}}


def _results():
    return {"audit": audit(BOARD, counts={"MATH": 5000}),
            "race": rankwise.race(rankwise.load_example("garcia2008"), order="given"),
            "power": power_study(rankwise.load_example("garcia2008"), **POWER)}


@pytest.fixture(scope="module")
def results():
    return _results()


def test_each_is_an_analysis_whose_json_starts_with_its_schema(results):
    expected = {"audit": "rankwise.audit/2", "race": "rankwise.race/2",
                "power": "rankwise.power/1"}
    for kind, result in results.items():
        assert isinstance(result, Analysis) and result.kind == kind
        assert result.schema == expected[kind]
        data = json.loads(result.to_json())
        assert list(data)[:2] == ["schema", "rankwise_version"] and data["schema"] == expected[kind]
        own = result.to_dict()
        # every key of to_dict() is in the JSON with its value, settings and notes included
        assert {k: v for k, v in data.items() if k in own} == json.loads(json.dumps(own))
        assert data["settings"] == json.loads(json.dumps(result.settings))
        assert data["notes"] == list(result.notes)


def test_the_old_keys_keep_their_values(results):
    """The keys of before the protocol are all there (an old reader keeps working)."""
    race = json.loads(results["race"].to_json())
    assert {"learners", "order", "alpha", "goal", "threshold", "steps", "settled",
            "eliminations", "survivors", "evaluated", "tasks_used", "tasks_full", "saved",
            "ties", "seed", "bets", "guarantee"} <= set(race)
    assert race["eliminations"][0] == {"learner": "Kernel", "by": "C4.5", "step": 16,
                                       "evalue": pytest.approx(500, rel=0.01)}
    assert race["settings"] == {"alpha": 0.05, "goal": 1, "order": "given", "seed": None}
    board = json.loads(results["audit"].to_json())
    assert board["kind"] == "audit" and board["per_dataset"][0]["n"] == 5000
    power = json.loads(results["power"].to_json())
    assert power["draws"] == 20 and power["settings"]["draws"] == 20
    assert len(power["results"]) == 2 * 3   # two biases x three tests


#: Where each section of a document is in the JSON (a heading's first word, or the whole).
JSON_KEYS = {"Eliminations": "eliminations", "Outcome": "survivors", "Guarantee": "guarantee",
             "Order": "order", "Figures": "schema", "Notes": "notes", "Overall": "overall",
             "Planning": "planning"}


def _headings(result) -> list:
    return [b.text for b in result.document().blocks if isinstance(b, Heading)]


def _in_latex(heading: str, latex: str) -> bool:
    from rankwise.report.latex import latex_escape

    return latex_escape(heading) in latex


@pytest.mark.parametrize("kind", ["audit", "race", "power"])
def test_every_section_appears_in_every_format(results, kind):
    result = results[kind]
    headings = _headings(result)
    assert len(headings) >= 3
    text, md, latex = result.to_text(), result.to_markdown(), result.to_latex()
    data = json.loads(result.to_json())
    for h in headings:
        assert f"\n{h}\n" in text, h                       # a section of its own
        assert any(line.lstrip("#").strip() == h.replace("#", "\\#")
                   for line in md.splitlines() if line.startswith("#")), h
        assert _in_latex(h, latex), h
        first = h.split(":")[0].split(" (")[0]
        key = JSON_KEYS.get(first, "per_dataset" if first == "Task" else "results")
        assert data.get(key) not in (None, []) or key == "notes", (h, key)
    for task in data.get("per_dataset", []):   # every task of the audit: a section of its own
        assert f"Task: {task['dataset']}" in headings


@pytest.mark.figures
@pytest.mark.parametrize("kind", ["audit", "race", "power"])
def test_html_page_and_notebook_carry_every_section_and_the_figures(results, kind):
    result = results[kind]
    page, fragment = result.to_html(), result._repr_html_()
    for h in _headings(result):
        assert html.escape(h, quote=False) in page and html.escape(h, quote=False) in fragment
    figures = {"audit": 0, "race": 1, "power": 2}[kind]
    assert page.count("<svg") == fragment.count("<svg") == figures
    assert fragment.startswith("<div") and "<html" not in fragment


# --- the audit's level --------------------------------------------------------------------

@pytest.mark.parametrize("confidence", [0.5, 0.9, None])
def test_the_audit_prints_and_echoes_the_level_it_computed(confidence):
    """audit(confidence=0.5) computed 50% intervals, printed "Wilson 95%" and left the level
    out of the JSON."""
    given = {} if confidence is None else {"confidence": confidence}
    a = audit(BOARD, counts={"MATH": 5000}, **given)
    level = 0.95 if confidence is None else confidence
    shown = f"{100 * level:g}%"
    assert json.loads(a.to_json())["settings"]["confidence"] == level
    assert f"intervals Wilson {shown}." in a.to_text()
    assert f"intervals Wilson {shown}." in a.to_markdown()
    escaped = shown.replace("%", "\\%")
    assert f"intervals Wilson {escaped}." in a.to_latex()
    assert f"{shown} interval" in a.to_html()
    for other in {"50%", "90%", "95%"} - {shown}:
        assert other not in a.to_text()
    # the intervals are those of the level: wider at a higher level, about the score
    wide = audit(BOARD, counts={"MATH": 5000}, confidence=0.99).tasks[0]
    t = a.tasks[0]
    assert all(wide.low < t.low) and all(t.high < wide.high)
    assert all(t.low <= t.score) and all(t.score <= t.high)


@pytest.mark.parametrize("bad", [0, 1, 1.5, -0.1, float("nan"), "high", True])
def test_a_level_outside_zero_to_one_is_refused_in_one_line(bad):
    with pytest.raises(rankwise.RankwiseError, match="confidence must be") as err:
        audit(BOARD, confidence=bad)
    assert "\n" not in str(err.value)


def test_the_audit_command_takes_the_level(cli, tmp_path):
    ran = cli("audit", BOARD, "--confidence", "0.9", "-f", "json")
    assert ran.code == 0 and json.loads(ran.out)["settings"]["confidence"] == 0.9
    bad = cli("audit", BOARD, "--confidence", "2", "--report", tmp_path / "out")
    assert bad.code == 2 and len(bad.err.strip().splitlines()) == 1
    assert "confidence must be" in bad.err and not (tmp_path / "out").exists()


# --- the command lines --------------------------------------------------------------------

def _looks_like(fmt: str, out: str, kind: str) -> None:
    title = {"audit": "rankwise audit: ", "race": "rankwise race: ",
             "power": "rankwise power study: "}[kind]
    if fmt == "json":
        assert json.loads(out)["schema"].startswith(f"rankwise.{kind}/")
    elif fmt == "text":
        assert out.startswith(title) and max(map(len, out.splitlines())) <= 80
    elif fmt == "markdown":
        assert out.startswith("# " + title.replace("_", "\\_"))
    elif fmt == "latex":
        assert out.startswith("\\documentclass") and out.rstrip().endswith("\\end{document}")
    else:
        assert out.startswith("<!DOCTYPE html>") and out.rstrip().endswith("</html>")


@pytest.mark.parametrize("kind, fmt", [
    pytest.param(k, f, id=f"{k}-{f}",
                 marks=[pytest.mark.figures] if f == "html" and k != "audit" else [])
    for k in COMMANDS for f in REPORT_FORMATS])
def test_every_format_on_the_screen_and_in_a_file(cli, tmp_path, kind, fmt):
    ran = cli(*COMMANDS[kind], "-f", fmt)
    assert ran.code == 0, ran.err
    _looks_like(fmt, ran.out, kind)
    kept = cli(*COMMANDS[kind], "--format", fmt, "-o", tmp_path / "out")
    assert kept.code == 0 and kept.out == ""
    if fmt != "html":   # the page's figures carry ids of their own drawing
        assert (tmp_path / "out").read_text() == ran.out


@pytest.mark.parametrize("kind", [pytest.param(k, marks=[pytest.mark.figures] if k != "audit"
                                               else []) for k in COMMANDS])
def test_report_folder_holds_every_format(cli, tmp_path, kind):
    folder = tmp_path / "report"
    ran = cli(*COMMANDS[kind], "-f", "json", "--report", folder)
    assert ran.code == 0, ran.err
    names = {p.name for p in folder.iterdir()}
    assert FOLDER[kind] <= names, names
    files = ({"text": "power.txt", "json": "power.json", "markdown": "power.md",
              "latex": "power.tex", "html": "power.html"} if kind == "power" else FILES)
    assert (folder / files["json"]).read_text() == ran.out
    text = cli(*COMMANDS[kind]).out
    assert (folder / files["text"]).read_text() == text
    for fmt in ("markdown", "latex", "html"):
        _looks_like(fmt, (folder / files[fmt]).read_text(), kind)
    if kind != "audit":   # the Markdown links the figure files beside it
        assert ".svg)" in (folder / files["markdown"]).read_text()


@pytest.mark.parametrize("kind", list(COMMANDS))
def test_a_bad_format_is_refused_in_one_line_before_any_work(cli, tmp_path, kind):
    ran = cli(*COMMANDS[kind], "-f", "pdf", "--report", tmp_path / "out")
    assert ran.code == 2 and len(ran.err.strip().splitlines()) == 1
    assert "--format must be one of text, json, markdown, latex, html; got 'pdf'" in ran.err
    assert not (tmp_path / "out").exists()


def test_the_audit_json_speaks_compares_words(results):
    """One word per idea (schema 2): the board's models are learners and its tasks data sets,
    as compare's JSON names them; the Python names beside the old ones say the same."""
    a = results["audit"]
    data = json.loads(a.to_json())
    assert data["schema"] == "rankwise.audit/2"
    assert data["learners"] == list(a.learners) == list(a.models)
    assert data["datasets"] == [t.dataset for t in a.tasks] == ["MATH", "HumanEval"]
    assert [t["dataset"] for t in data["per_dataset"]] == data["datasets"]
    old = {"models", "tasks", "task", "model", "per_task", "n_models", "n_tasks"}
    assert not old & set(data) and not any(old & set(t) for t in data["per_dataset"])
    assert all(len(t["score"]) == len(data["learners"]) for t in data["per_dataset"])
    assert a.to_text().splitlines()[1].startswith("3 models (learners) x 2 tasks (data sets)")
