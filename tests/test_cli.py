"""The command line: the JSON contract, text output, and one-line errors with exit code 2."""

import json
import os
import subprocess
import sys
from types import SimpleNamespace

import pytest
from typer.testing import CliRunner

from rankwise.cli import app
from rankwise.names import OMNIBUS_TESTS, TWO_LEARNER_TESTS


def run(*args, cwd=None):
    """Run the CLI in-process (fast); the subprocess tests below check the real entry point."""
    old = os.getcwd()
    try:
        if cwd:
            os.chdir(cwd)
        res = CliRunner().invoke(app, [str(a) for a in args])
    finally:
        os.chdir(old)
    if res.exception and not isinstance(res.exception, SystemExit):
        raise res.exception
    return SimpleNamespace(returncode=res.exit_code, stdout=res.stdout, stderr=res.stderr)




def run_json(*args):
    out = run(*args, "--format", "json")
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_json_contract_k_at_least_3():
    doc = run_json("compare", "--example", "garcia2010", "--convention", "paper")
    for key in ("learners", "datasets", "n_datasets", "higher_is_better", "alpha", "convention",
                "mean_ranks", "tests"):
        assert key in doc
    assert doc["learners"] == ["PDFC", "NNEP", "IS-CHC+1NN", "FH-GBML"]
    assert doc["n_datasets"] == 24 == len(doc["datasets"])
    assert doc["higher_is_better"] is True and doc["alpha"] == 0.05
    assert doc["convention"] == "paper" and doc["schema"] == "rankwise.compare/2"
    assert doc["mean_ranks"]["PDFC"] == pytest.approx(1.770833, abs=1e-6)
    assert set(doc["tests"]) == set(OMNIBUS_TESTS)
    fr = doc["tests"]["friedman"]
    assert fr["statistic"] == pytest.approx(16.225) and fr["df"] == [3]
    assert fr["method"] == "chi2" and fr["convention"] == "paper" and fr["reject"] is True
    assert doc["tests"]["iman_davenport"]["pvalue"] == pytest.approx(4.97e-4, abs=5e-7)
    assert doc["tests"]["iman_davenport"]["df"] == [3, 69]
    for entry in doc["tests"].values():
        assert {"statistic", "pvalue", "method", "convention", "notes"} <= set(entry)
        assert "mean_ranks" in entry or entry["test"] == "anova"


def test_json_contract_two_learners():
    doc = run_json("compare", "--example", "demsar2006_table2")
    assert set(doc["tests"]) == set(TWO_LEARNER_TESTS)
    w = doc["tests"]["wilcoxon"]
    assert (w["a"], w["b"]) == ("C4.5", "C4.5+m")
    assert (w["r_plus"], w["r_minus"], w["statistic"]) == (93, 12, 12)
    assert w["method"] == "exact" and w["zero_method"] == "demsar"
    assert doc["tests"]["sign"]["pvalue"] == pytest.approx(0.057373, abs=1e-6)
    assert doc["tests"]["sign"]["reject"] is False


def test_pair_option_adds_two_learner_tests():
    doc = run_json("compare", "--example", "garcia2010", "--pair", "FH-GBML", "PDFC")
    assert set(doc["tests"]) == set(OMNIBUS_TESTS) | set(TWO_LEARNER_TESTS)
    assert doc["tests"]["sign"]["b_wins"] == 20  # PDFC beats FH-GBML on 20 of 24


def test_text_output_and_output_file(tmp_path):
    out = run("compare", "--example", "demsar2006_table6_tiebreak", "--convention", "paper")
    assert out.returncode == 0
    assert "Friedman chi-square [uncorrected]" in out.stdout and "9.2786" in out.stdout
    assert "Iman-Davenport F [uncorrected]" in out.stdout and "3.6863" in out.stdout
    target = tmp_path / "r.json"
    out = run("compare", "--example", "garcia2008", "-f", "json", "-o", target)
    assert out.returncode == 0 and out.stdout == ""
    assert json.loads(target.read_text())["n_datasets"] == 30


def test_lower_is_better_flag(tmp_path):
    p = tmp_path / "t.csv"
    p.write_text("dataset,A,B,C\nd1,1,2,3\nd2,1,3,2\nd3,2,1,3\n")
    doc = run_json("compare", p, "--lower-is-better")
    assert doc["higher_is_better"] is False and doc["direction_source"] == "option"
    assert doc["mean_ranks"] == {"A": pytest.approx(4 / 3), "B": 2.0, "C": pytest.approx(8 / 3)}


@pytest.mark.parametrize("args, message", [
    (["compare", "missing.csv"], "missing.csv: no such file"),
    (["compare"], "give either an INPUT file or --example NAME"),
    (["compare", "--example", "nope"], "no bundled example named 'nope'"),
    (["compare", "--example", "garcia2010", "--alpha", "2"], "alpha must be between 0 and 1"),
    (["compare", "--example", "garcia2010", "--format", "xml"], "--format must be one of"),
    (["compare", "--example", "garcia2010", "--convention", "x"], "convention must be one of"),
    (["compare", "--example", "garcia2010", "--pair", "PDFC", "X"], "no learner named 'X'"),
    (["compare", "--example", "garcia2010", "--zero-method", "x"], "zero_method must be one of"),
    (["compare", "bad.csv"], "row 2, column 'B': 'x' is not a number"),
    (["compare", "holes.csv"], "1 missing cell(s) (data set / learner): d2 / A"),
    (["compare", "dup.csv"], "data set 'd1' appears in more than one row"),
    (["compare", "inf.csv"], "is infinite"),
    (["compare", "one_dataset.csv"], "only 1 data set(s) in the table"),
    (["compare", "one_learner.csv", "--shape", "long"], "only 1 learner(s) in the table"),
])
def test_user_errors_are_one_line_exit_2(tmp_path, args, message):
    (tmp_path / "bad.csv").write_text("dataset,A,B\nd1,1,x\nd2,2,1\n")
    (tmp_path / "holes.csv").write_text("dataset,A,B\nd1,1,2\nd2,,1\n")
    (tmp_path / "dup.csv").write_text("dataset,A,B\nd1,1,2\nd1,2,1\n")
    (tmp_path / "inf.csv").write_text("dataset,A,B\nd1,1,2\nd2,-inf,1\n")
    (tmp_path / "one_dataset.csv").write_text("dataset,A,B\nd1,1,2\n")
    (tmp_path / "one_learner.csv").write_text("dataset,learner,value\nd1,A,1\nd2,A,2\n")
    out = run(*args, cwd=tmp_path)
    assert out.returncode == 2
    assert out.stdout == ""
    assert out.stderr.count("\n") == 1 and out.stderr.startswith("rankwise: error: ")
    assert message in out.stderr
    assert "Traceback" not in out.stderr


@pytest.mark.subprocess
def test_examples_and_version():
    out = run("examples")
    assert out.returncode == 0 and "garcia2010" in out.stdout
    from rankwise.examples import EXAMPLES

    import os

    piped = subprocess.run([sys.executable, "-m", "rankwise.cli", "examples"],
                           capture_output=True, text=True, env={**os.environ, "COLUMNS": "80"})
    assert all(name in piped.stdout.splitlines() for name in EXAMPLES)
    assert max(map(len, piped.stdout.splitlines())) <= 80
    out = run("--version")
    assert out.returncode == 0 and out.stdout.startswith("rankwise ")


def test_real_process_success_and_error(tmp_path, cli_process):
    out = cli_process("compare", "--example", "demsar2006_table2", "-f", "json")
    assert out.returncode == 0 and json.loads(out.stdout)["tests"]["wilcoxon"]["r_plus"] == 93
    out = cli_process("compare", "nothing.csv", cwd=tmp_path)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr == "rankwise: error: nothing.csv: no such file\n"


def test_readme_shows_the_real_output():
    from pathlib import Path

    readme = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    shown = readme.split("$ rankwise compare --example garcia2010\n")[1].split("```")[0]
    assert shown.endswith("...\n")
    assert run("compare", "--example", "garcia2010").stdout.startswith(shown[:-4])


def test_posthoc_json_contract():
    doc = run_json("compare", "--example", "garcia2010", "--posthoc", "both", "--ranking",
                   "friedman,aligned,quade,wilcoxon,sign,anova", "--convention", "paper")
    ph = doc["posthoc"]
    assert ph["families"] == ["control", "all_pairs"] and ph["control"] == "PDFC"
    assert ph["control_source"] == "best Friedman mean rank"
    assert ph["rankings"] == ["friedman", "friedman_aligned", "quade", "wilcoxon", "sign", "anova"]
    control_procs = {"bonferroni_dunn", "holm", "hochberg", "hommel", "holland", "rom", "finner",
                     "li"}
    pair_procs = {"nemenyi", "bonferroni", "holm", "shaffer", "bergmann_hommel"}
    from rankwise.analysis.schema import pair_rows

    for ranking in ("friedman", "friedman_aligned", "quade", "wilcoxon", "sign"):
        entry = ph[ranking]
        assert entry["gate"]["passed"] is True
        assert len(entry["control"]["a"]) == 3 and len(entry["all_pairs"]["pvalue"]) == 6
        for row in pair_rows(entry["control"], doc["learners"]):
            assert {"a", "b", "statistic", "pvalue", "apv"} <= set(row)
            assert set(row["apv"]) == control_procs
        expected = pair_procs if ranking in ("friedman", "friedman_aligned", "quade") else (
            pair_procs - {"nemenyi"})
        assert set(entry["all_pairs"]["apv"]) == expected
    assert ph["friedman"]["control"]["apv"]["li"][2] == pytest.approx(6.04577e-5, rel=1e-5)
    assert ph["critical_difference"]["nemenyi"] == pytest.approx(0.9574, abs=1e-4)
    assert ph["multiple_sign_test"]["critical_value"] == 6
    ce = ph["contrast_estimation"]
    pdfc, nnep = ce["learners"].index("PDFC"), ce["learners"].index("NNEP")
    assert ce["estimates"][pdfc][nnep] == pytest.approx(0.0225)
    assert set(ph["anova"]["all_pairs"]["apv"]) == {"tukey"}


def test_posthoc_text_and_errors():
    out = run("compare", "--example", "garcia2008", "--posthoc", "all", "--procedures",
              "holm,bergmann_hommel")
    assert out.returncode == 0
    assert "Post-hoc: Friedman mean ranks" in out.stdout and "Bergmann-Hommel" in out.stdout
    assert "Critical differences of mean ranks" in out.stdout
    out = run("compare", "--example", "garcia2008", "--posthoc", "sideways")
    assert out.returncode == 2 and "posthoc must be one of" in out.stderr
    out = run("compare", "--example", "garcia2008", "--control", "Nobody")
    assert out.returncode == 2 and "no learner named 'Nobody'" in out.stderr


def test_one_sided_two_learner_tests_from_the_command_line():
    """--alternative reads in the table's direction: 'greater' is "the second learner is
    better"; the verdict, the methods paragraph and the tests table all say which side."""
    doc = run_json("compare", "--example", "demsar2006_table2", "--alternative", "greater")
    w = doc["tests"]["wilcoxon"]
    assert w["alternative"] == "greater" and w["pvalue"] == pytest.approx(0.0078 / 2, abs=1e-4)
    assert doc["settings"]["alternative"] == "greater"
    assert doc["report"]["verdict"]["text"].startswith("C4.5+m is significantly better than C4.5")
    assert "one-sided" in doc["report"]["methods"]
    text = " ".join(run("compare", "--example", "demsar2006_table2", "--alternative",
                        "less").stdout.split())  # paragraphs are wrapped at 80 columns
    assert "No significant evidence that C4.5 is better than C4.5+m" in text
    assert "one-sided, H1: C4.5 is better than C4.5+m" in text
    corrected = run_json("compare", "--example", "demsar2006_table2", "--wilcoxon-method",
                         "normal", "--continuity-correction")
    plain = run_json("compare", "--example", "demsar2006_table2", "--wilcoxon-method", "normal")
    assert corrected["tests"]["wilcoxon"]["continuity_correction"] is True
    assert corrected["tests"]["wilcoxon"]["pvalue"] > plain["tests"]["wilcoxon"]["pvalue"]
    bad = run("compare", "--example", "demsar2006_table2", "--alternative", "sideways")
    assert bad.returncode == 2 and "alternative must be one of two-sided, greater, less" in \
        bad.stderr and "Traceback" not in bad.stderr


def test_readme_worked_example_of_effects_is_real():
    from pathlib import Path

    readme = (Path(__file__).parents[1] / "docs" / "guide" / "effects.md").read_text(encoding="utf-8")
    readme = readme.replace(" \\\n      ", " ")  # a command continued on a second line
    command = "rankwise compare --example garcia2008 --bayesian signed-rank --rope 0.01 --pair C4.5 NaiveBayes"
    shown = readme.split(f"$ {command}\n...\n")[1].split("...\n```")[0].strip("\n")
    out = run(*command.split()[1:]).stdout
    for block in shown.split("\n\n"):
        assert block in out


@pytest.mark.parametrize("args, message", [
    (["--rank-sets", "--format", "json"], "--rank-sets needs a value (ranks or scores); got the"
                                          " option --format"),
    (["--groups", "--top", "3"], "--groups needs a value (scott-knott-esd, scott-knott-esd-np or"
                                 " scott-knott-bootstrap)"),
    (["--control", "--posthoc", "all"], "--control needs a value (NAME); got the option"
                                        " --posthoc"),
    (["--pair", "--alpha", "0.1"], "--pair needs a value (A B)"),
])
def test_an_option_is_never_taken_as_another_options_value(capsys, args, message, cli):

    code, out, err = cli("compare", "--example", "garcia2008", *args)
    assert code == 2 and out == ""
    assert err.startswith("rankwise: error: " + message) and err.count("\n") == 1


def _value_options():
    """``(command, flag)`` of every option of every command that takes one value and has none
    it implies when given alone."""
    import typer.main

    from rankwise.cli.argv import OPTIONAL_VALUES

    group = typer.main.get_command(app)
    return [(name, param.opts[-1]) for name, command in sorted(group.commands.items())
            for param in command.params if getattr(param, "opts", None)
            and param.param_type_name == "option" and not param.is_flag and param.nargs == 1
            and param.opts[-1] not in OPTIONAL_VALUES]


def test_every_option_given_bare_points_to_its_own_commands_help(cli):
    every = _value_options()
    assert {c for c, _ in every} >= {"compare", "leaderboard", "curves", "power", "race"}
    # the first and last such option of each command, alone and before --help (the parse of
    # every command line builds the whole app: ~0.1 s a call)
    cases = sorted({case for command in {c for c, _ in every}
                    for case in (next(x for x in every if x[0] == command),
                                 [x for x in every if x[0] == command][-1])})
    for (command, flag), after in zip(cases, [(), ("--help",)] * len(cases)):
        code, out, err = cli(command, flag, *after)
        assert code == 2 and out == "", (command, flag, err)
        assert err.count("\n") == 1 and f"{flag} needs a value" in err, (command, flag, err)
        assert err.rstrip().endswith(f"(see rankwise {command} --help)"), err
    # click's own wording for too few values names the command's help too
    code, _, err = cli("compare", "--example", "garcia2008", "--pair", "C4.5")
    assert code == 2 and "2 arguments" in err and "(see rankwise compare --help)" in err
    # a short option is an option, not a value (it was read as --rank-sets' value)
    code, _, err = cli("compare", "--example", "garcia2008", "--rank-sets", "-f", "json")
    assert code == 2 and "--rank-sets needs a value (ranks or scores); got the option -f" in err


def test_an_error_on_a_terminal_wraps_at_spaces_and_on_a_pipe_is_one_line(cli, monkeypatch,
                                                                           tmp_path):
    from rankwise.cli import driver

    table = tmp_path / "wide.csv"
    table.write_text("dataset,A,B\nd1,0.5,0.6\nd1,0.7,0.8\n")
    piped = cli("compare", table.name, cwd=tmp_path).err
    assert piped.count("\n") == 1 and len(piped) > 80
    monkeypatch.setattr(driver, "_terminal_columns", lambda: 80)
    shown = cli("compare", table.name, cwd=tmp_path).err.splitlines()
    assert len(shown) >= 2 and shown[0].startswith("rankwise: error: ")
    assert all(line.startswith("  ") for line in shown[1:])
    assert all(len(line) <= 80 or " " not in line.strip() for line in shown)
    assert " ".join(line.strip() for line in shown) == piped.strip()     # nothing cut
    # click's errors too, with what the user typed made visible
    for typed in (("--\x1b[2J",), ("--rank-sets", "--\x1b[2J")):
        shown = cli("compare", "--example", "garcia2008", *typed).err
        assert "\x1b" not in shown and "[2J" in shown, shown
        assert "see rankwise compare --help" in " ".join(shown.split())


def test_aocc_curve_given_at_its_default_is_left_out_and_values_lower_only_the_aocc(cli):
    import numpy as np

    base = ("curves", "--example", "learning", "--budgets", "0.5", "-f", "json")  # 1 checkpoint
    alone = cli(*base)
    assert alone.code == 0, alone.err
    assert cli(*base, "--aocc-curve", "running-best") == alone
    inferred, values = json.loads(alone.out), json.loads(cli(*base, "--aocc-curve", "values").out)
    assert (inferred["aocc"]["curve"], values["aocc"]["curve"]) == ("running-best", "values")
    assert inferred["maximize"] is True
    # only the AOCC changes: a run's values never exceed its running best, so neither does
    # their area, and where a run ever falls back the area is smaller
    assert [k for k in inferred if inferred[k] != values[k]] == ["aocc"]
    best, raw = np.array(inferred["aocc"]["mean"]), np.array(values["aocc"]["mean"])
    assert best.shape == raw.shape and (raw <= best + 1e-12).all() and (raw < best - 1e-6).any()


def test_figure_top_given_at_its_default_is_left_out_and_fewer_is_said(cli):
    base = ("leaderboard", "--example", "garcia2008", "--draws", "20")
    alone = cli(*base)
    assert alone.code == 0, alone.err
    assert cli(*base, "--figure-top", "300") == alone
    assert cli(*base, "-f", "json", "--figure-top", "300") == cli(*base, "-f", "json")
    every, top = (json.loads(cli(*base, "-f", "json", *more).out)
                  for more in ((), ("--figure-top", "3")))
    assert (every["settings"]["figure_top"], top["settings"]["figure_top"]) == (300, 3)
    assert top["boards"] == every["boards"]                 # the board keeps every learner
    said = [n for n in top["notes"] if "best 3 of 5 learners shown" in n]
    assert len(said) == 2 and not any("learners shown" in n for n in every["notes"])
    text = " ".join(cli(*base, "--figure-top", "3").out.split())
    assert "the best 3 of 5 learners (see the notes)" in text
    assert "every one of the 5 learners" in " ".join(alone.out.split())


def test_options_that_may_stand_alone_still_do(capsys, cli):

    code, out, err = cli("compare", "--example", "garcia2008", "--multiverse",
                         "--format", "json")
    assert code == 0, err
    assert json.loads(out)["multiverse"] is not None


def test_every_command_runs_as_a_process_of_its_own(tmp_path, cli_process, demo_results):
    """One smoke test per command through the installed entry point (``python -m
    rankwise.cli``); everything else about the commands is tested in process. ``run`` meets
    the demo's finished results file (the runner's processes have tests of their own)."""
    import shutil

    import typer.main

    from rankwise.cli import app

    results = tmp_path / "demo.sqlite"
    shutil.copy(demo_results, results)
    runs = {
        "run": ["run", "--example", "demo", "--results", results, "--quiet"],
        "status": ["status", results],
        "compare": ["compare", results, "--criterion", "auc", "--format", "json"],
        "export": ["export", results, "-o", tmp_path / "demo.csv"],
        "race": ["race", "--example", "garcia2008"],
        "power": ["power", "--example", "garcia2008", "--learners", "C4.5,CN2", "--draws",
                  "20", "--bias", "0"],
        "examples": ["examples"],
        "leaderboard": ["leaderboard", "--example", "tabarena", "--draws", "20"],
        "audit": ["audit", tmp_path / "board.csv", "--counts", "MATH=5000"],
        "curves": ["curves", "--example", "learning", "--format", "json"],
        "gate": ["gate", "--example", "nightly", "--question", "equivalence", "--margin",
                 "0.05"],
        "plan": ["plan", results, "--criterion", "accuracy", "--format", "json"],
    }
    (tmp_path / "board.csv").write_text("model,MATH,HumanEval\nA,65.5,83.6\nB,63.0,86.7\n")
    assert set(runs) == set(typer.main.get_command(app).commands)
    for command, args in runs.items():
        done = cli_process(*args)
        assert done.returncode == 0, (command, done.stderr)
        if command == "run":
            assert "160 were already done, 0 ran now" in done.stderr, done.stderr
        assert done.stdout or command in ("run", "export"), command
        assert "Traceback" not in done.stderr, command
