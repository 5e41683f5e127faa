"""Edge cases: Rom's and Li's procedures at their limits, and sampling options that once ended
in a traceback."""

import subprocess
import sys

import pytest

from rankwise.errors import RankwiseError
from rankwise.stats.adjust import adjust
from rankwise.stats.bayesian import bayesian_sign_test, bayesian_signed_rank_test


def test_rom_rejects_at_p_equal_alpha():
    # m = 1: Rom's c_1(α) = α, so the APV is p itself and p = α is rejected at α
    assert adjust([0.05], "rom").tolist() == [0.05]
    assert adjust([0.05], "rom")[0] <= 0.05
    # m = 2: c_2(α) = α/2 for the smaller p, c_1 = α for the larger
    assert adjust([0.01, 0.05], "rom").tolist() == [0.02, 0.05]
    assert adjust([0.05, 0.01], "rom").tolist() == [0.05, 0.02]


def test_li_maps_p_zero_to_zero():
    assert adjust([0.0, 1.0], "li").tolist() == [0.0, 1.0]
    assert adjust([0.0, 0.5], "li").tolist() == [0.0, 0.5 / (0.5 + 1 - 0.5)]


@pytest.mark.subprocess
@pytest.mark.parametrize("options,message", [
    (["--draws", "10000000000"], "draws must be a whole number from 100 to 10,000,000"),
    (["--seed", "-1"], "--seed must be a whole number"),
])
def test_sampling_options_out_of_range_are_one_line_errors(options, message):
    out = subprocess.run([sys.executable, "-m", "rankwise.cli", "compare", "--example",
                          "garcia2008", "--bayesian", "sign", *options],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 2
    assert message in out.stderr and "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


def test_the_library_refuses_them_too():
    a, b = [0.8, 0.7, 0.9, 0.6], [0.7, 0.7, 0.8, 0.65]
    for test in (bayesian_sign_test, bayesian_signed_rank_test):
        with pytest.raises(RankwiseError, match="draws"):
            test(a, b, draws=10 ** 10)
        with pytest.raises(RankwiseError, match="seed"):
            test(a, b, seed=-1)
        with pytest.raises(RankwiseError, match="draws"):
            test(a, b, draws=True)


@pytest.mark.subprocess
@pytest.mark.parametrize("columns", [80, 60])
def test_help_reads_whole_at_80_and_60_columns(columns):
    """Piped or narrow, every help screen names every option in full, keeps each choice list
    whole, shows no '<bool>' and stays within the width (but for a single long option name)."""
    import os

    import typer

    from rankwise.cli import app

    group = typer.main.get_command(app)
    env = {**os.environ, "COLUMNS": str(columns)}
    for name in [None, *group.commands]:
        args = [sys.executable, "-m", "rankwise.cli"] + ([name] if name else []) + ["--help"]
        text = subprocess.run(args, capture_output=True, text=True, env=env, timeout=120).stdout
        assert "<bool>" not in text and "…" not in text, name
        command = group if name is None else group.commands[name]
        for param in command.params:
            for opt in param.opts + param.secondary_opts:
                if opt.startswith("--") and not param.hidden:
                    assert opt in text, (name, opt)
            choices = getattr(param, "metavar", None)
            if choices and choices.startswith("[") and not param.hidden:
                assert choices in text, (name, choices)  # the list unbroken
        for line in text.splitlines():  # only an option with its unbreakable list may overflow
            assert len(line) <= columns or line.lstrip().startswith("-") and \
                len(line.split()) <= 3, line
            if columns >= 80:  # at 80 nothing does: long lists are listed under the option
                assert len(line) <= columns, line
