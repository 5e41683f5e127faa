"""``rankwise examples``: the names of the bundled tables, results files, scored items and
curves (not the bundled experiments: ``rankwise run --example`` names those)."""

from __future__ import annotations

import typer


def examples():
    """List the bundled examples: tables, results files, scored items, curves, pairs of runs and vote logs."""
    import shutil
    import textwrap

    from ..examples import CURVE_EXAMPLES, EXAMPLES, GATE_EXAMPLES, ITEM_EXAMPLES, VOTE_EXAMPLES

    width = max(60, min(100, shutil.get_terminal_size((80, 24)).columns))

    def say(name: str, description: str) -> None:
        typer.echo(name)
        typer.echo(textwrap.fill(description, width, initial_indent="    ",
                                 subsequent_indent="    "))

    for name, (_, description, conv) in EXAMPLES.items():
        if conv == "paper":  # a paper's table: its printed numbers need the paper's formulas
            description += "; published numbers: --convention paper"
        say(name, description)
    for name, (_, description) in ITEM_EXAMPLES.items():
        say(name, description + "; read as items (compare --example " + name + ")")
    for name, (_, description) in CURVE_EXAMPLES.items():
        say(name, description + "; curves over a budget (rankwise curves --example " + name
            + ")")
    for name, (_, description) in GATE_EXAMPLES.items():
        say(name, description + "; a pair of runs (rankwise gate --example " + name + ")")
    for name, (_, description) in VOTE_EXAMPLES.items():
        say(name, description + "; a vote log (rankwise leaderboard --example " + name + ")")
