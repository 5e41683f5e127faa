"""The ``rankwise`` command line. User mistakes print one line and exit with 2.

``driver`` holds what every command shares (checks, report folder, output, the one-line
error), ``argv`` the console script, and one module each command; every parameter of every
command is declared in :data:`rankwise.option_table.LINES`.
"""

from __future__ import annotations

import typer

from . import audit, compare, curves, examples, gate, leaderboard, plan, power, race, results
from . import run as run_module
from .argv import (OPTIONAL_VALUES, PANELS_MIN_COLUMNS, option_taken_as_value,
                   optional_values, renamed_flags, run, usage_message)
from .driver import (check_destinations, emit, fail, figure_inches, read_table, text_width,
                     write_folder)
from .helpscreen import PLAIN_WIDTH, PanelledCommand, summary

app = typer.Typer(add_completion=True, no_args_is_help=True,
                  help="Compare learners over many data sets, with the statistics done right:"
                       " tables of scores, other tools' results files, scored items (model"
                       " evaluations), curves over a budget and fronts of score against cost.",
                  context_settings={"max_content_width": PLAIN_WIDTH},
                  pretty_exceptions_enable=False)


def _version(value: bool):
    if value:
        from .._version import __version__
        typer.echo(f"rankwise {__version__}")
        raise typer.Exit()


@app.callback()
def main(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                      metavar="", help="Print the version and exit.")):
    """rankwise: which learners are really better, and how sure can you be?"""


# Each command lists its options in panels, piped too, and its whole first sentence in the list
# of commands; the plain layout takes the terminal's width up to PLAIN_WIDTH columns.
for _name, _command in (("compare", compare.compare), ("power", power.power),
                        ("race", race.race), ("leaderboard", leaderboard.leaderboard),
                        ("audit", audit.audit), ("curves", curves.curves),
                        ("gate", gate.gate), ("plan", plan.plan),
                        ("run", run_module.run_command), ("status", results.status),
                        ("export", results.export), ("examples", examples.examples)):
    app.command(_name, cls=PanelledCommand, short_help=summary(_command))(_command)

# The names of rankwise 0.9's cli.py that tests and docs import.
_decimals = leaderboard.decimals_of
_goal = race.goal_of
RACE_FIRST = run_module.RACE_FIRST

__all__ = ["app", "run", "main", "fail", "emit", "read_table", "check_destinations",
           "write_folder", "figure_inches", "text_width", "renamed_flags", "optional_values",
           "option_taken_as_value", "usage_message", "OPTIONAL_VALUES", "PANELS_MIN_COLUMNS",
           "RACE_FIRST"]
