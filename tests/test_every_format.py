"""Every analysis in every format and as a report folder, on its bundled input (the issue's
42 of 42, power too): the command line writes each format, the folder holds the five report
files, and the screen's JSON names the analysis by one schema convention."""

import json
import re
from pathlib import Path

import pytest

from rankwise.report.generic import FILES

BOARD = Path(__file__).parent / "data" / "items" / "board_to_markdown.md"
#: (kind, the command on its bundled input, small enough to run in a moment)
ANALYSES = [
    ("compare", ["compare", "--example", "garcia2008"]),
    ("items", ["compare", "--example", "evals"]),
    ("fronts", ["compare", "--example", "demo_results", "--criteria", "accuracy,fit_time"]),
    ("leaderboard", ["leaderboard", "--example", "garcia2008", "--draws", "10"]),
    ("curves", ["curves", "--example", "learning"]),
    ("race", ["race", "--example", "garcia2008"]),
    ("audit", ["audit", str(BOARD), "--counts", "MATH=5000"]),
    ("power", ["power", "--example", "garcia2008", "--learners", "C4.5,CN2", "--draws", "20",
               "--bias", "0,10"]),
]
#: How each format's output begins.
STARTS = {"text": re.compile(r"rankwise\b"), "markdown": re.compile(r"# "),
          "latex": re.compile(r"\\documentclass"), "html": re.compile(r"<!DOCTYPE html>", re.I),
          "json": re.compile(r"\{")}


#: The analyses that draw figures (their HTML page and report folder embed them).
DRAWN = {"compare", "items", "fronts", "leaderboard", "curves", "race", "power"}
CASES = [pytest.param(kind, args, fmt, id=f"{kind}-{fmt}",
                      marks=[pytest.mark.figures] if fmt == "html" and kind in DRAWN else [])
         for kind, args in ANALYSES for fmt in STARTS]


@pytest.mark.parametrize("kind, args, fmt", CASES)
def test_every_analysis_writes_every_format(cli, kind, args, fmt):
    ran = cli(*args, "-f", fmt)
    assert ran.code == 0, ran.err
    assert STARTS[fmt].match(ran.out.lstrip()), ran.out[:80]
    if fmt == "json":
        data = json.loads(ran.out)
        assert list(data)[:2] == ["schema", "rankwise_version"]
        assert re.fullmatch(rf"rankwise\.{kind}/\d+", data["schema"]), data["schema"]


@pytest.mark.parametrize("kind, args", [
    pytest.param(kind, args, id=kind, marks=[pytest.mark.figures] if kind in DRAWN else [])
    for kind, args in ANALYSES])
def test_every_analysis_writes_a_report_folder(cli, tmp_path, kind, args):
    folder = tmp_path / kind
    ran = cli(*args, "--report", str(folder))
    assert ran.code == 0, ran.err
    written = {p.name for p in folder.iterdir()}
    files = ({"power.txt", "power.json", "power.md", "power.tex", "power.html"}
             if kind == "power" else set(FILES.values()))
    assert files <= written, written
    report = json.loads((folder / ("power.json" if kind == "power" else "report.json"))
                        .read_text())
    assert report["schema"].startswith(f"rankwise.{kind}/")


@pytest.mark.figures
@pytest.mark.parametrize("kind, args", [
    pytest.param(kind, args, id=kind) for kind, args in ANALYSES if kind != "audit"])
def test_every_file_a_report_folder_writes_is_known_to_the_clash_check(cli, tmp_path, kind,
                                                                      args):
    """What each analysis's folder really holds is what the check before any work refuses to
    write over (a leaderboard's board.csv was not: an input of that name was replaced)."""
    from rankwise._paths import written_by_report

    folder = tmp_path / kind
    assert cli(*args, "--report", str(folder)).code == 0
    assert [p.name for p in folder.iterdir() if not written_by_report(p.name)] == []


def test_a_report_folder_never_replaces_the_input_of_the_same_name(cli, tmp_path):
    import rankwise

    folder = tmp_path / "out"
    folder.mkdir()
    table = folder / "board.csv"
    rankwise.load_example("garcia2008").to_frame().to_csv(table)
    before = table.read_bytes()
    ran = cli("leaderboard", str(table), "--draws", "5", "--report", str(folder))
    assert ran.code == 2 and "would write over the input" in ran.err
    assert table.read_bytes() == before


@pytest.mark.figures
def test_every_file_a_report_tex_inputs_is_in_its_folder_and_its_text_is_latex(cli, tmp_path):
    """report.tex inputs cd_diagram.tikz where TikZ is loaded: the items folder (whose
    across-task comparison draws a CD diagram) writes it, as compare's does; the board's
    bound marks are typeset (≥ stopped pdflatex)."""
    from rankwise.report.latex import latex_escape

    folder = tmp_path / "items"
    assert cli("compare", "--example", "evals", "--report", str(folder)).code == 0
    tex = (folder / "report.tex").read_text()
    for name in re.findall(r"\\input\{([^}]+)\}", tex):
        assert (folder / name).is_file(), name
    assert latex_escape("≥ / ≤") == r"$\ge$ / $\le$"
    assert not re.search(r"[^\x00-\x7f]", tex)
