"""Every option of every analysing command, given explicitly at its default, reads as the
same command without it: the same output, the same exit code, the same messages. A default
written in two places (the command line and the function it calls), or a default that the
code recognises by its value, shows here as a difference."""

from pathlib import Path

import pytest
import typer

import rankwise.cli as cli_module

#: Each command path, on a bundled example.
CASES = {
    "compare": ("compare", "--example", "garcia2008"),
    "compare --items": ("compare", "--example", "evals"),
    "compare --criteria": ("compare", "--example", "demo_results", "-c", "accuracy,fit_time"),
    "curves": ("curves", "--example", "learning"),
    "leaderboard": ("leaderboard", "--example", "garcia2008"),
    "race": ("race", "--example", "garcia2008"),
    "audit": ("audit", str(Path(__file__).parent / "data" / "items" / "board_to_markdown.md")),
}
#: Options whose explicit value is meant to differ from leaving them out: a seed given to
#: compare --items is the user's, even when it is compare's default (the items' own seed
#: is the default only where --seed is not given).
MEANT = {("compare --items", "--seed")}


def _defaulted_options(command: str):
    """``(flag, word)`` of each option with a value of its own by default (flags aside)."""
    params = typer.main.get_command(cli_module.app).commands[command].params
    for p in params:
        if getattr(p, "is_flag", False) or p.default in (None, False) or not p.opts \
                or not p.opts[0].startswith("--"):
            continue
        d = p.default
        yield p.opts[0], ",".join(map(str, d)) if isinstance(d, (tuple, list)) else str(d)


@pytest.mark.large
@pytest.mark.parametrize("case", sorted(CASES))
def test_each_option_given_at_its_default_reads_as_left_out(case, cli):
    base = CASES[case]
    alone = cli(*base)
    assert alone.code == 0, alone.err
    options = list(_defaulted_options(base[0]))
    assert options, case
    for flag, word in options:
        given = cli(*base, flag, word)
        if (case, flag) in MEANT:
            assert given.code == 0 and given.out != alone.out, (flag, word)
        else:
            assert given == alone, (flag, word)


def _function_output(command: str) -> str:
    """The command's bundled example through its Python function at the function's defaults,
    rendered as the command renders it (JSON)."""
    import rankwise
    from rankwise.report.board import render as render_board
    from rankwise.report.curves import render_curves
    from rankwise.report.race import race_json

    if command == "curves":
        return render_curves(rankwise.compare_curves(rankwise.load_curves_example()), "json")
    garcia = rankwise.load_example("garcia2008")
    if command == "leaderboard":
        return render_board(rankwise.leaderboard(garcia), "json")
    return race_json(rankwise.race(garcia))


@pytest.mark.parametrize("command, example", [
    ("curves", "learning"), ("leaderboard", "garcia2008"), ("race", "garcia2008")])
def test_the_command_is_the_function_at_their_defaults(command, example, cli):
    """A default written twice (the command's and the function's) shows as a difference."""
    ran = cli(command, "--example", example, "-f", "json")
    assert ran.code == 0, ran.err
    assert ran.out.strip() == _function_output(command).strip()
