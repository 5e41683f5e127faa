"""The layout of ``--help``: each command's options under the panels the option table gives
them (:data:`rankwise.option_table.LINES`), in the plain layout (piped, or a terminal narrower
than :data:`rankwise.cli.argv.PANELS_MIN_COLUMNS`) as in the boxed one, and each command's
whole summary in ``rankwise --help``'s list of commands."""

from __future__ import annotations

from typer.core import TyperCommand

#: click's titles of the arguments and of the options in no panel (``--help`` alone).
ARGUMENTS, OPTIONS = "Arguments", "Options"
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
    then the options of no panel (``--help``)."""

    def format_options(self, ctx, formatter) -> None:
        sections = {ARGUMENTS: []}
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is None:
                continue
            title = ARGUMENTS if param.param_type_name == "argument" else (
                getattr(param, "rich_help_panel", None) or OPTIONS)
            sections.setdefault(title, []).append(record)
        sections[OPTIONS] = sections.pop(OPTIONS, [])   # --help last
        for title, records in sections.items():
            if records:
                with formatter.section(title):
                    formatter.write_dl(records)

