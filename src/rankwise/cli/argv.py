"""The console script: the arguments as the user typed them made into what the parser reads
(a renamed flag, an option given without its value), and click's errors in one line."""

from __future__ import annotations

import sys

import typer
import typer.main

from .. import option_table

#: Below this many columns (and when piped: 80) --help is click's plain layout, which keeps
#: every option name whole and every choice list unbroken; wider terminals get the panels.
PANELS_MIN_COLUMNS = 120

#: Options whose value may be left out, and what they mean without one (the table's
#: ``alone``: ``--multiverse`` is ``--multiverse default``, ``run --race`` its first criterion).
OPTIONAL_VALUES = {o.flag: o.alone for options in option_table.LINES.values() for o in options
                   if o.alone}


def click_errors() -> tuple:
    """``(no-args help, usage errors, abort)``: click's exception classes, from each click that
    may be at work (recent typer carries its own copy)."""
    import importlib

    found = []
    for name in ("typer._click.exceptions", "click.exceptions"):
        try:
            found.append(importlib.import_module(name))
        except ImportError:
            pass
    return (tuple(m.NoArgsIsHelpError for m in found if hasattr(m, "NoArgsIsHelpError")),
            tuple(m.UsageError for m in found),
            (typer.Abort,) + tuple(m.Abort for m in found if hasattr(m, "Abort")))


def run():  # console-script entry point
    import shutil

    from . import app
    from .driver import error_text

    if shutil.get_terminal_size((80, 24)).columns < PANELS_MIN_COLUMNS:
        app.rich_markup_mode = None
    no_args, usage, abort = click_errors()
    args = optional_values(renamed_flags(sys.argv[1:]))
    command = typer.main.get_command(app)   # built once: checked here, then run
    taken = option_taken_as_value(args, command) or option_given_twice(args, command)
    if taken is not None:
        typer.echo(error_text(taken), err=True)
        sys.exit(2)
    try:
        code = command(args=args, standalone_mode=False, prog_name="rankwise")
    except no_args as exc:
        exc.show()
        code = exc.exit_code
    except usage as exc:
        # click's own parsing errors (a mistyped option, text for a number) in one line, as the
        # library's, with where to look.
        typer.echo(error_text(f"{usage_message(exc)} (see {help_of(exc, args, command)}"
                              " --help)"), err=True)
        code = 2
    except abort:
        typer.echo("rankwise: interrupted", err=True)
        code = 130
    sys.exit(code if isinstance(code, int) else 0)


def renamed_flags(args: list) -> list:
    """The arguments with a flag renamed since 0.8 (compare's ``--samples``, leaderboard's
    ``--rounds``) given its new name, and a note on stderr saying so (the old name goes in
    0.10)."""
    renamed = option_table.RENAMED_FLAGS.get(args[0], {}) if args else {}
    if not renamed:
        return args
    out = list(args)
    for i, arg in enumerate(args):
        old, sep, value = arg.partition("=")
        if old in renamed:
            new = renamed[old]
            out[i] = new + sep + value
            typer.echo(f"rankwise: note: {old} is {new} since rankwise 0.9 (one word per idea);"
                       f" {old} goes in 0.10", err=True)
    return out


def optional_values(args: list) -> list:
    """The arguments with the implied value of an option given alone (``--multiverse`` at the
    end or before another option), which the command-line parser cannot leave out itself."""
    out = []
    for i, arg in enumerate(args):
        out.append(arg)
        nxt = args[i + 1] if i + 1 < len(args) else None
        if arg in OPTIONAL_VALUES and (nxt is None or nxt.startswith("-")):
            out.append(OPTIONAL_VALUES[arg])
    return out


def help_of(exc, args: list, group) -> str:
    """The command whose ``--help`` a usage error points to: the one it was raised in, else
    (click raises an option given without its value with no context) the command named
    first, else ``rankwise``."""
    if exc.ctx is not None:
        return exc.ctx.command_path
    if args and args[0] in getattr(group, "commands", {}):
        return f"rankwise {args[0]}"
    return "rankwise"


def option_taken_as_value(args: list, command) -> str | None:
    """The message when an option that takes one value is followed by another of the command's
    options (``--rank-sets --format json``, ``--rank-sets -f json``), which the parser would
    take as its value, or by nothing; None when there is none. Other values that start with a
    dash (``--alpha -1``) are left to the checks."""
    if not args or args[0].startswith("-"):
        return None
    sub = getattr(command, "commands", {}).get(args[0])
    if sub is None:
        return None
    options = {name for param in sub.params for name in [*getattr(param, "opts", ()),
                                                         *getattr(param, "secondary_opts", ())]
               } | {"--help"}
    takes = {name: param for param in sub.params if getattr(param, "opts", None)
             and not getattr(param, "is_flag", False) and param.nargs != 0
             for name in param.opts}
    rest = args[1:args.index("--")] if "--" in args else args[1:]
    for arg, nxt in zip(rest, rest[1:] + [None]):
        if arg not in takes or not (nxt is None or nxt.startswith("--") or nxt in options):
            continue
        if nxt is None and takes[arg].nargs != 1:
            continue                    # click names how many values it needs
        param = takes[arg]
        wants = (param.metavar or param.name.upper()).strip("[]").split("|")
        wants = ", ".join(wants[:-1]) + " or " + wants[-1] if len(wants) > 1 else wants[0]
        got = "nothing" if nxt is None else f"the option {nxt}"
        return f"{arg} needs a value ({wants}); got {got} (see rankwise {args[0]} --help)"
    return None


def option_given_twice(args: list, command) -> str | None:
    """The message when one option is given twice with different values (``--counts MATH=4
    --counts MATH=8``): the parser would keep the last and drop the first without a word."""
    sub = getattr(command, "commands", {}).get(args[0]) if args else None
    if sub is None:
        return None
    takes = {name: param for param in sub.params if getattr(param, "opts", None)
             and not getattr(param, "is_flag", False) and param.nargs == 1
             and not getattr(param, "multiple", False) for name in param.opts}
    seen = {}
    for i, arg in enumerate(args[1:], 1):
        if arg == "--":
            break
        flag, eq, value = arg.partition("=") if arg.startswith("--") else (arg, "", "")
        if flag not in takes or (not eq and i + 1 >= len(args)):
            continue
        value = value if eq else args[i + 1]
        param = takes[flag]
        if param.name in seen and seen[param.name][1] != value:
            first, before = seen[param.name]
            return (f"{first} is given twice ({before!r} and {value!r}); give it once (the"
                    f" second would silently replace the first)")
        seen.setdefault(param.name, (flag, value))
    return None


def usage_message(exc) -> str:
    """click's message on one line: 'Error: ' and typer's parse wording trimmed."""
    message = " ".join(exc.format_message().split())
    return message.replace(": Input should be a valid ", ": expected a valid ") \
        .replace(", unable to parse string as an integer", "") \
        .replace(", unable to parse string as a number", "")
