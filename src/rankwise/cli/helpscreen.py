"""The layout of ``--help``: each command's options under the panels the option table gives
them (:data:`rankwise.option_table.LINES`), in the plain layout (piped, or a terminal narrower
than :data:`rankwise.cli.argv.PANELS_MIN_COLUMNS`) as in the boxed one, and each command's
whole summary in ``rankwise --help``'s list of commands."""

from __future__ import annotations

from typer.core import TyperCommand

#: click's titles of the arguments and of the options in no panel (none: every option of the
#: table has one).
ARGUMENTS, OPTIONS = "Arguments", "Options"
#: The panel of ``--help``: last, as the named panels come first (typer's boxed layout puts the
#: options of no panel right after the arguments, before every named panel).
HELP = "Help"
#: The plain layout is as wide as the terminal up to this many columns (click's own limit is
#: 80), so that a wide terminal does not wrap what fits on it.
PLAIN_WIDTH = 120


def summary(function) -> str:
    """The first sentence of a command's docstring: its line in ``rankwise --help`` and the
    first line of its own ``--help``."""
    text = " ".join((function.__doc__ or "").split())
    return text.split(". ")[0].rstrip(".") + "."


class PanelledCommand(TyperCommand):
    """A command whose plain ``--help`` lists its options under their panels' titles, as the
    boxed one does: the arguments, then each panel in the order of the command's parameters,
    then ``--help`` in a panel of its own."""

    def get_help_option(self, ctx):
        option = super().get_help_option(ctx)
        if option is not None:
            option.rich_help_panel = HELP
        return option

    def format_options(self, ctx, formatter) -> None:
        sections = {ARGUMENTS: []}
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is None:
                continue
            title = ARGUMENTS if param.param_type_name == "argument" else (
                getattr(param, "rich_help_panel", None) or OPTIONS)
            sections.setdefault(title, []).append(record)
        sections[OPTIONS] = sections.pop(OPTIONS, [])   # any option of no panel last
        for title, records in sections.items():
            if records:
                with formatter.section(title):
                    formatter.write_dl(records, col_max=_fewest_lines(formatter, records))


def _fewest_lines(formatter, records) -> int:
    """The width of the option column (16 to 40; among equals the nearest to click's 30) that
    lists ``records`` in the fewest lines at the formatter's width and indent: a panel of
    long option names (``--per-dataset-marks [better|weka]``) keeps each help beside its
    name, a panel of short ones gives its help the room (compare's --help: 192 lines at 80
    columns with click's 30 for every panel)."""
    def lines(col_max):
        trial = type(formatter)(width=formatter.width)
        trial.current_indent = formatter.current_indent
        trial.write_dl(records, col_max=col_max)
        return trial.getvalue().count("\n")
    return min(range(40, 15, -1), key=lambda c: (lines(c), abs(c - 30)))
