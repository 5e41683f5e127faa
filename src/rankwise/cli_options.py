"""The command line's parameter types, made from the option table
(:data:`rankwise.option_table.LINES`): each parameter is a type with its flag, help, panel,
choices and default, so a command's signature reads as the list of what it takes
(``alpha: P.compare.alpha = D.compare.alpha``) and declares nothing itself.

Choice lists are listed in --help and completed by the shell; the checks are the library's,
or the command line's where the table says so (``checked``). Everything here is internal to
``rankwise.cli``.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Annotated, Optional

import typer

from .option_table import LINES, REQUIRED

#: A choice list longer than this is listed in the option's help instead of beside its name.
LONG_CHOICES = 60


def _completion(values):
    values = tuple(values)
    return lambda incomplete: [v for v in values if v.startswith(incomplete)]


def opt(*names_, help: str, panel: str | None, choices=None, metavar=None, complete=None,
        listed=True, **more):
    """An option; its choices are listed in --help (unless ``listed`` is false) and completed
    by the shell. ``complete``: values the shell offers for an option that also takes others
    (``--missing impute:LEARNER``)."""
    extra = {"metavar": metavar} if metavar else {}
    if choices:
        extra["autocompletion"] = _completion(choices)
        if listed:
            extra["metavar"] = "[" + "|".join(choices) + "]"
        if len(extra.get("metavar", "")) > LONG_CHOICES:
            # A list too long for an 80-column line is named under the option, where it wraps.
            extra["metavar"] = "NAME"
            help = f"{help} One of: {', '.join(choices)}."
    if complete:
        extra["autocompletion"] = _completion(complete)
    return typer.Option(*names_, help=help, rich_help_panel=panel, **extra, **more)


def flag(*names_, help: str, panel: str | None, **more):
    """A flag: shown as a flag (no type), its default said in its help when it matters."""
    return typer.Option(*names_, help=help, rich_help_panel=panel, metavar="",
                        show_default=False, **more)


def table_option(option):
    """The command line's type of one parameter of the table: its flag, help, panel, choices
    and value type, as declared there."""
    more = {} if option.show_default is None else {"show_default": option.show_default}
    if option.hidden:
        more["hidden"] = True
    default = option.command_default
    if default is REQUIRED:
        declared = option.type
    elif default is None:
        declared = Optional[bool] if option.kind == "toggle" else Optional[option.type]
    else:
        declared = type(default)
    if option.kind == "argument":
        if option.metavar:
            more["metavar"] = option.metavar
        return Annotated[declared, typer.Argument(help=option.help, **more)]
    flags = (option.flag, option.short) if option.short else (option.flag,)
    if option.kind in ("switch", "toggle"):
        return Annotated[declared, flag(*flags, help=option.help, panel=option.panel, **more)]
    if option.kind == "pair":
        return Annotated[Optional[tuple[str, str]], typer.Option(
            option.flag, show_default=False, metavar=option.metavar,
            rich_help_panel=option.panel, help=option.help)]
    return Annotated[declared, opt(*flags, help=option.help, panel=option.panel,
                                   choices=option.choices, metavar=option.metavar,
                                   complete=option.complete, listed=option.listed, **more)]


#: Each command's parameter types, by command and parameter name (``P.race.goal``) ...
P = SimpleNamespace(**{command: SimpleNamespace(**{o.cli_param: table_option(o)
                                                   for o in options})
                       for command, options in LINES.items()})
#: ... and their defaults as the command line spells them (``D.race.goal`` is ``"best"``).
D = SimpleNamespace(**{command: SimpleNamespace(**{o.cli_param: o.command_default
                                                   for o in options})
                       for command, options in LINES.items()})
