"""The command line's options, declared once: each is a type with its help and panel, so a
command's signature reads as the list of what it takes (``alpha: Tests.Alpha = 0.05``).

The defaults stay in the commands' signatures, where typer reads them; choice lists come from
``names`` and numeric defaults from ``defaults``. Everything here is internal to ``cli``.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Annotated, Optional

import typer

from . import names, option_table

#: A choice list longer than this is listed in the option's help instead of beside its name.
LONG_CHOICES = 60

from .option_table import IN, OUT

POOL_P = "Pool (guide: power)"
OUT_P = "Output"


def _completion(values):
    values = tuple(values)
    return lambda incomplete: [v for v in values if v.startswith(incomplete)]


def opt(*names_, help: str, panel: str, choices=None, metavar=None, complete=None):
    """An option; the choices are listed in --help and completed by the shell, and validated by
    the library (one-line errors). ``complete``: values the shell offers for an option that
    also takes others (``--missing impute:LEARNER``)."""
    extra = {"metavar": metavar} if metavar else {}
    if choices:
        extra = {"metavar": "[" + "|".join(choices) + "]",
                 "autocompletion": _completion(choices)}
        if len(extra["metavar"]) > LONG_CHOICES:
            # A list too long for an 80-column line is named under the option, where it wraps.
            extra["metavar"] = "NAME"
            help = f"{help} One of: {', '.join(choices)}."
    if complete:
        extra["autocompletion"] = _completion(complete)
    return typer.Option(*names_, help=help, rich_help_panel=panel, **extra)


def flag(*names_, help: str, panel: str):
    """A flag: shown as a flag (no type), its default said in its help when it matters."""
    return typer.Option(*names_, help=help, rich_help_panel=panel, metavar="",
                        show_default=False)


def table_options(panel: str, *, example: str, missing: str, columns: str, source: str,
                  more: str = ""):
    """The options that say which table is read and how, in ``panel``: compare's input and
    power's pool take the same options, with their own help where the use differs."""
    text = Optional[str]
    return SimpleNamespace(
        Example=Annotated[text, opt("--example", metavar="NAME", panel=panel, help=example)],
        Criterion=Annotated[text, opt("--criterion", "-c", metavar="NAME", panel=panel,
                                      help="Criterion of a long table or results database.")],
        Direction=Annotated[Optional[bool], flag(
            "--higher-is-better/--lower-is-better", panel=panel,
            help="Direction. Default: from the criterion's name, else higher.")],
        Missing=Annotated[str, opt("--missing", metavar="POLICY", panel=panel, help=missing,
                                   complete=names.MISSING_POLICIES + (names.MISSING_IMPUTE,))],
        Columns=Annotated[text, opt("--columns", metavar="ROLE=COL,...", panel=panel,
                                    help=columns)],
        Source=Annotated[str, opt("--source", choices=names.SOURCE_FORMATS, panel=panel,
                                  help=source)],
        Duplicates=Annotated[text, opt(
            "--duplicates", choices=names.DUPLICATES, panel=panel,
            help="Repeated rows: refuse, or keep the last or first (default: last for the"
                 " AutoML benchmark, else refuse)." + more)],
        Where=Annotated[text, opt("--where", metavar="COL=VALUE,...", panel=panel,
                                  help="Read only these rows (e.g. constraint=1h8c_gp3)." + more)],
        Sep=Annotated[text, opt("--sep", metavar="CHAR", panel=panel,
                                help="Field separator (default: sniffed: tab, ';' or ',')."
                                     + more)],
        Decimal=Annotated[text, opt("--decimal", choices=names.DECIMAL_MARKS, panel=panel,
                                    help="Decimal mark (default: sniffed)." + more)],
    )


In = table_options(
    IN, example="A bundled table instead (rankwise examples).",
    missing="Missing cells: refuse, drop-datasets, drop-learners, skillings-mack (keep them),"
            " worst or impute:LEARNER (fill them).",
    columns="Column roles (e.g. value=result).", source="Another tool's format.")
In.File = Annotated[Optional[Path], typer.Argument(
    help="CSV/TSV table (wide or long) or results database.", show_default=False,
    metavar="INPUT")]
In.Aggregate = Annotated[str, opt("--aggregate", choices=names.AGGREGATES, panel=IN,
                                  help="Cell of repeats x folds.")]
In.Shape = Annotated[str, opt("--shape", choices=names.SHAPES, panel=IN, help="Table layout.")]
Pool = table_options(
    POOL_P, example="A bundled table as the pool instead.",
    missing="Missing cells of the pool: refuse, drop-datasets, drop-learners, worst or"
            " impute:LEARNER.",
    columns="Column roles, as for compare.",
    source="Another tool's format (auto: from the header).", more=" As for compare.")
Pool.File = Annotated[Optional[Path], typer.Argument(
    help="Table of results whose data sets are the population (wide, long or a results"
         " database).", show_default=False, metavar="POOL")]


def table_option(option):
    """The command line's type of one option of the table (``rankwise.option_table``): its
    flag, help, panel, choices and value type, as declared there."""
    if option.kind in ("switch", "toggle"):
        return Annotated[bool, flag(option.flag, help=option.help, panel=option.panel)]
    if option.kind == "pair":
        return Annotated[Optional[tuple[str, str]], typer.Option(
            option.flag, show_default=False, metavar=option.metavar,
            rich_help_panel=option.panel, help=option.help)]
    default = option.command_default
    declared = type(default) if default is not None else Optional[option.type]
    flags = (option.flag, option.short) if option.short else (option.flag,)
    return Annotated[declared, opt(*flags, help=option.help, panel=option.panel,
                                   choices=option.choices, metavar=option.metavar)]


#: compare's analysis options, one type each, by the option's name.
Options = SimpleNamespace(**{o.name: table_option(o) for o in option_table.COMPARE})
#: ... and their defaults as the command line spells them.
Defaults = SimpleNamespace(**{o.name: o.command_default for o in option_table.COMPARE})
#: Each other command's options from the table, one type and one default each, by name
#: (``Commands.power.draws``, ``CommandDefaults.race.goal``).
Commands = SimpleNamespace(**{command: SimpleNamespace(**{o.name: table_option(o)
                                                          for o in table})
                              for command, table in option_table.COMMANDS.items()})
CommandDefaults = SimpleNamespace(**{command: SimpleNamespace(**{o.name: o.command_default
                                                                 for o in table})
                                     for command, table in option_table.COMMANDS.items()})
class Items:
    """compare: model evaluations scored item by item (guide: items)."""
    P = "Items (guide: items)"
    Flag = Annotated[bool, flag("--items", panel=P,
                                help="Scored items: model, task, item, score.")]
    Metric = Annotated[Optional[str], opt("--metric", metavar="NAME", panel=P,
                                          help="The per-item metric or scorer to take.")]
    Filter = Annotated[Optional[str], opt("--item-filter", metavar="NAME", panel=P,
                                          help="lm-eval: the filter whose records count.")]
    Cluster = Annotated[Optional[str], opt("--cluster", metavar="FIELD", panel=P,
                                           help="Item field that groups items.")]


class Fronts:
    """compare: two or more criteria, the better-and-cheaper front (guide: fronts)."""
    P = "Better and cheaper (guide: fronts)"
    Criteria = Annotated[Optional[str], opt(
        "--criteria", metavar="A,B", panel=P,
        help="Two or more criteria: their front.")]
    Ordinal = Annotated[Optional[str], opt("--ordinal", metavar="A,B", panel=P,
                                           help="GSD: ordinal ones (default: times).")]
    Summary = Annotated[str, opt("--summary", choices=names.FRONT_SUMMARIES, panel=P,
                                 help="Front: per learner.")]
    Permutations = Annotated[int, opt("--permutations", metavar="N", panel=P,
                                      help="GSD: splits per pair test.")]


NoEffects = Annotated[bool, typer.Option("--no-effects", hidden=True,
                                         help="The same as --effects none.")]


class Out:
    """compare: what is written, and where."""
    Format = Annotated[str, opt("--format", "-f", choices=names.REPORT_FORMATS, panel=OUT,
                                help="Output format.")]
    Output = Annotated[Optional[Path], opt("--output", "-o", metavar="FILE", panel=OUT,
                                           help="Write to FILE instead of the screen.")]
    Report = Annotated[Optional[Path], opt(
        "--report", metavar="DIR", panel=OUT,
        help="Every format and figure into DIR.")]
    Pairs = Annotated[Optional[Path], opt(
        "--pairs", metavar="FILE", panel=OUT,
        help="Every pair to FILE (.parquet, .csv).")]
    SignificantPairs = Annotated[bool, flag(
        "--significant-pairs", panel=OUT,
        help="--pairs: only rejected pairs.")]
    IncludeTable = Annotated[Optional[bool], flag(
        "--include-table/--no-include-table", panel=OUT,
        help="JSON: cell matrices (default: <= 10,000).")]
    FigureWidth = Annotated[Optional[str], opt(
        "--figure-width", metavar="column|page|CM", panel=OUT,
        help="--report figures: column, page, CM.")]
    LatexFragment = Annotated[bool, flag(
        "--latex-fragment", panel=OUT,
        help="--format latex: tables, figures only.")]


class Study:
    """power: the study (from the option table), its parallel runs and its output."""
    Format = Annotated[str, opt("--format", "-f", choices=names.REPORT_FORMATS, panel=OUT_P,
                                help="Output format.")]
    Report = Annotated[Optional[Path], opt(
        "--report", metavar="DIR", panel=OUT_P,
        help="Every format and the figures (SVG, PDF, PNG) into DIR.")]
    Output = Annotated[Optional[Path], opt("--output", "-o", metavar="FILE", panel=OUT_P,
                                           help="Write to FILE instead of the screen.")]
    FigureWidth = Annotated[Optional[str], opt(
        "--figure-width", metavar="column|page|CM", panel=OUT_P,
        help="--report: figures for a paper's column (8.4 cm), page (17 cm) or CM cm.")]


class Board:
    """leaderboard: the board (from the option table) and its output."""
    Format = Annotated[str, opt("--format", "-f", choices=names.BOARD_FORMATS, panel=OUT_P,
                                help="Output format.")]
    Output = Study.Output
    Report = Annotated[Optional[Path], opt(
        "--report", metavar="DIR", panel=OUT_P,
        help="Every format, the CSV and the figures (SVG, PDF, PNG) into DIR.")]
    Figure = Annotated[Optional[Path], opt(
        "--figure", metavar="FILE", panel=OUT_P,
        help="Elo with its intervals as a figure (.svg, .pdf or .png).")]
    MatrixFigure = Annotated[Optional[Path], opt(
        "--matrix-figure", metavar="FILE", panel=OUT_P,
        help="The win-rate matrix as a figure (.svg, .pdf or .png).")]


class Racing:
    """race: the race (from the option table) and its output."""
    Format, Output, Report = Study.Format, Study.Output, Study.Report
    Figure = Annotated[Optional[Path], opt(
        "--figure", metavar="FILE", panel=OUT_P,
        help="The race as a figure (.svg, .pdf or .png).")]
