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

from . import names

#: A choice list longer than this is listed in the option's help instead of beside its name.
LONG_CHOICES = 60

# Each panel names the user-guide page (docs/guide/) that explains its options.
IN = "Input (guide: input)"
TESTS_P = "Tests (guide: choosing-a-test, conventions)"
POST = "Post-hoc (guide: posthoc)"
EFFECT = "Effect sizes and Bayesian (guide: effects)"
OUT = "Output (guide: reports, papers, large-k)"
SURE = "How sure? (guide: how-sure)"
PER = "Data set by data set (guide: per-dataset)"
POOL_P = "Pool (guide: power)"
STUDY = "Study (guide: power; docs/reference/power.md)"
RUN_P = "Parallel runs (the results do not depend on them)"
RACE_P = "Race (guide: racing)"
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
In.Decimals = Annotated[int, opt("--decimals", metavar="D", panel=IN,
                                 help="Round scores to D decimals before comparing.")]

Pool = table_options(
    POOL_P, example="A bundled table as the pool instead.",
    missing="Missing cells of the pool: refuse, drop-datasets, drop-learners, worst or"
            " impute:LEARNER.",
    columns="Column roles, as for compare.",
    source="Another tool's format (auto: from the header).", more=" As for compare.")
Pool.File = Annotated[Optional[Path], typer.Argument(
    help="Table of results whose data sets are the population (wide, long or a results"
         " database).", show_default=False, metavar="POOL")]


class Tests:
    """compare: the tests."""
    Alpha = Annotated[float, opt("--alpha", metavar="A", panel=TESTS_P,
                                 help="Significance level.")]
    Convention = Annotated[str, opt("--convention", choices=names.CONVENTIONS, panel=TESTS_P,
                                    help="Exact formulas, or as published (ERRATA).")]
    Pair = Annotated[Optional[tuple[str, str]], typer.Option(
        "--pair", show_default=False, metavar="A B", rich_help_panel=TESTS_P,
        help="With 3+ learners, also the two-learner tests of A and B.")]
    Alternative = Annotated[str, opt("--alternative", choices=names.ALTERNATIVES, panel=TESTS_P,
                                     help="Two-learner tests; greater: B of --pair better.")]
    ZeroMethod = Annotated[str, opt("--zero-method", choices=names.ZERO_METHODS, panel=TESTS_P,
                                    help="Wilcoxon: zero differences.")]
    WilcoxonMethod = Annotated[str, opt("--wilcoxon-method", choices=names.WILCOXON_METHODS,
                                        panel=TESTS_P,
                                        help="Wilcoxon p-value (auto: exact to N = 50).")]
    ContinuityCorrection = Annotated[bool, flag(
        "--continuity-correction/--no-continuity-correction", panel=TESTS_P,
        help="Wilcoxon normal approximation corrected by 1/2 (R's default; off here).")]
    SignTies = Annotated[str, opt("--sign-ties", choices=names.SIGN_TIES, panel=TESTS_P,
                                  help="Sign test: ties.")]
    FriedmanMethod = Annotated[str, opt(
        "--friedman-method", choices=names.FRIEDMAN_METHODS, panel=TESTS_P,
        help="Friedman/Iman-Davenport p (auto: permutation below N = 20).")]


class Post:
    """compare: the post-hoc tests and the views of the pool."""
    Family = Annotated[Optional[str], opt("--posthoc", choices=names.POSTHOC_FAMILIES,
                                          panel=POST, help="Post-hoc family.")]
    Control = Annotated[Optional[str], opt("--control", metavar="NAME", panel=POST,
                                           help="Control learner (default: best mean rank).")]
    Procedures = Annotated[Optional[str], opt(
        "--procedures", metavar="LIST", panel=POST,
        help="Comma-separated: " + ", ".join(dict.fromkeys(
            names.CONTROL_PROCEDURES + names.ALL_PAIRS_PROCEDURES + names.OPTIONAL_PROCEDURES))
        + " (default: all of the family).")]
    Ranking = Annotated[Optional[str], opt(
        "--ranking", metavar="LIST", panel=POST,
        help="Comma-separated: " + ", ".join(names.RANKINGS_ALL) + " (default friedman).")]
    Force = Annotated[bool, flag("--force-posthoc", panel=POST,
                                 help="Post-hoc tests even if the omnibus test does not reject.")]
    VerdictProcedure = Annotated[str, opt(
        "--verdict-procedure", choices=names.CONTROL_PROCEDURES + names.OPTIONAL_PROCEDURES,
        panel=POST, help="The verdict: each learner against the best.")]
    DiagramProcedure = Annotated[str, opt("--diagram-procedure",
                                          choices=names.ALL_PAIRS_PROCEDURES, panel=POST,
                                          help="The CD diagram's cliques.")]
    TimeBudget = Annotated[float, opt("--bh-time-budget", metavar="S", panel=POST,
                                      help="Seconds for the exact Bergmann-Hommel search.")]
    PoolCheck = Annotated[bool, flag("--pool-check", panel=SURE, help="Does the pool matter?")]
    Mcm = Annotated[Optional[str], opt("--mcm", choices=names.MCM_CHOICES, panel=POST,
                                       help="Multi-comparison matrix.")]
    Groups = Annotated[Optional[str], opt("--groups", choices=names.GROUP_METHODS, panel=POST,
                                          help="Rank groups.")]
    RankSets = Annotated[Optional[str], opt(
        "--rank-sets", choices=names.RANK_SET_BASES, panel=SURE,
        help="Confidence sets for the ranks, by mean rank or mean score, jointly at 1 - alpha.")]
    MarginalRankSets = Annotated[bool, flag("--marginal-rank-sets", panel=SURE,
                                            help="Each learner's own rank set instead.")]
    Multiverse = Annotated[Optional[str], typer.Option(
        "--multiverse", metavar="[GRID.toml]", rich_help_panel=SURE, show_default=False,
        help="Rerun the verdict over a grid of reasonable analyses (GRID.toml: a grid of your"
             " own; put it after the input).")]
    PerDataset = Annotated[Optional[str], opt(
        "--per-dataset", choices=("corrected", "5x2cv"), panel=PER,
        help="Each learner against the base on each data set, from the folds (alone:"
             " corrected).")]
    PerDatasetAdjust = Annotated[str, opt("--per-dataset-adjust", choices=("none", "holm"),
                                          panel=PER, help="Over the data sets (WEKA: none).")]
    TestFraction = Annotated[Optional[float], opt(
        "--test-fraction", metavar="F", panel=PER,
        help="Share of instances tested on (default: from the results, else k-fold).")]
    DatasetCheck = Annotated[bool, flag(
        "--dataset-check", panel=SURE,
        help="The fewest data sets whose removal overturns each claim of the verdict.")]


class Effect:
    """compare: effect sizes and the Bayesian views."""
    Pairs = Annotated[str, opt("--effects", choices=names.EFFECTS_MODES, panel=EFFECT,
                               help="Pairs with effect sizes (auto: all up to 5,000 pairs, else"
                                    " the verdict's; none above N = 10,000).")]
    NoEffects = Annotated[bool, typer.Option("--no-effects", hidden=True,
                                             help="The same as --effects none.")]
    Confidence = Annotated[Optional[float], opt(
        "--confidence", metavar="C", panel=EFFECT,
        help="Level of the intervals (default 1 - alpha).")]
    Bayesian = Annotated[Optional[str], opt(
        "--bayesian", choices=names.BAYESIAN_TESTS + names.BAYESIAN_MODELS, panel=EFFECT,
        help="Also a Bayesian test of the same pairs.")]
    Rope = Annotated[float, opt("--rope", metavar="R", panel=EFFECT,
                                help="Practical equivalence, in the criterion's units.")]
    Samples = Annotated[int, opt("--samples", metavar="S", panel=EFFECT,
                                 help="Posterior samples.")]
    Seed = Annotated[int, opt("--seed", metavar="SEED", panel=EFFECT,
                              help="Seed of every draw: posteriors, rank sets, bootstrap groups.")]
    Threshold = Annotated[float, opt("--threshold", metavar="P", panel=EFFECT,
                                     help="Posterior probability that decides.")]
    Verdict = Annotated[str, opt("--verdict", choices=names.VERDICT_BASES, panel=EFFECT,
                                 help="Posterior terms first (needs --bayesian).")]


class Out:
    """compare: what is written, and where."""
    Format = Annotated[str, opt("--format", "-f", choices=names.REPORT_FORMATS, panel=OUT,
                                help="Output format.")]
    Output = Annotated[Optional[Path], opt("--output", "-o", metavar="FILE", panel=OUT,
                                           help="Write to FILE instead of the screen.")]
    Report = Annotated[Optional[Path], opt(
        "--report", metavar="DIR", panel=OUT,
        help="Every format and figure (SVG, PDF, PNG, TikZ) into DIR.")]
    Pairs = Annotated[Optional[Path], opt(
        "--pairs", metavar="FILE", panel=OUT,
        help="Every pair's numbers to FILE (.parquet or .csv); above 1,000 learners, --posthoc"
             " all's pairs, streamed.")]
    SignificantPairs = Annotated[bool, flag(
        "--significant-pairs", panel=OUT,
        help="--pairs: only the pairs some procedure rejects.")]
    IncludeTable = Annotated[Optional[bool], flag(
        "--include-table/--no-include-table", panel=OUT,
        help="JSON: the per-cell matrices (default: up to 10,000 cells).")]
    Top = Annotated[int, opt("--top", metavar="N", panel=OUT,
                             help="Reports show the best N learners (0: all); JSON keeps all.")]
    Digits = Annotated[Optional[int], opt(
        "--digits", metavar="D", panel=OUT,
        help="Decimals of the values in reports (default: the input's).")]
    RankIntervals = Annotated[bool, flag("--rank-intervals", panel=OUT,
                                         help="Mean ranks' intervals on the CD diagram.")]
    FigureTitle = Annotated[bool, flag("--figure-title", panel=OUT,
                                       help="A title inside the figures (default: caption only).")]
    FigureWidth = Annotated[Optional[str], opt(
        "--figure-width", metavar="column|page|CM", panel=OUT,
        help="--report: draw the SVG/PDF/PNG figures for a paper's column (8.4 cm), page"
             " (17 cm) or CM centimetres.")]
    LatexFragment = Annotated[bool, flag(
        "--latex-fragment", panel=OUT,
        help="--format latex: only tables and figures, to \\input.")]


class Study:
    """power: the study, its parallel runs and its output."""
    Learners = Annotated[Optional[str], opt(
        "--learners", metavar="LIST", panel=STUDY,
        help="Learners (default: all). Two: d = first - second; more: the control against the"
             " mean of the others.")]
    Control = Annotated[Optional[str], opt(
        "--control", metavar="NAME", panel=STUDY,
        help="Control with 3+ learners (default: the first of --learners, else the best mean"
             " rank).")]
    SampleSize = Annotated[str, opt("--sample-size", "-n", metavar="N|a:b", panel=STUDY,
                                    help="Data sets per draw, or a range for planning.")]
    Bias = Annotated[Optional[str], opt("--bias", metavar="LIST", panel=STUDY,
                                        help="Biases k (default 0,2,...,20).")]
    Draws = Annotated[int, opt("--draws", metavar="D", panel=STUDY,
                               help="Samples per bias and sample size.")]
    Seed = Annotated[int, opt("--seed", metavar="SEED", panel=STUDY, help="Seed of the draws.")]
    Tests = Annotated[Optional[str], opt(
        "--tests", metavar="LIST", panel=STUDY,
        help="Comma-separated (default: wilcoxon,sign,ttest for two learners; the five omnibus"
             " tests for more): " + ", ".join(names.TWO_LEARNER_TESTS + names.OMNIBUS_TESTS)
             + ".")]
    Procedures = Annotated[Optional[str], opt(
        "--procedures", metavar="LIST", panel=STUDY,
        help="Control procedures on Friedman ranks (3+ learners; default none): "
             + ", ".join(names.CONTROL_PROCEDURES + names.OPTIONAL_PROCEDURES) + ".")]
    Alpha = Annotated[float, opt("--alpha", metavar="A", panel=STUDY,
                                 help="Significance level.")]
    Power = Annotated[float, opt("--power", metavar="P", panel=STUDY,
                                 help="With --sample-size a:b, the rejection rate to reach.")]
    Jobs = Annotated[int, opt("--jobs", "-j", metavar="N", panel=RUN_P,
                              help="Worker processes (0: one per CPU).")]
    Dask = Annotated[Optional[str], opt(
        "--dask-scheduler", metavar="ADDRESS", panel=RUN_P,
        help="Dask scheduler address, scheduler file, or 'local'.")]
    Format = Annotated[str, opt("--format", "-f", choices=names.SUMMARY_FORMATS, panel=OUT_P,
                                help="Output format.")]
    Report = Annotated[Optional[Path], opt(
        "--report", metavar="DIR", panel=OUT_P,
        help="The text, JSON and figures (SVG, PDF, PNG) into DIR.")]
    Output = Annotated[Optional[Path], opt("--output", "-o", metavar="FILE", panel=OUT_P,
                                           help="Write to FILE instead of the screen.")]
    FigureWidth = Annotated[Optional[str], opt(
        "--figure-width", metavar="column|page|CM", panel=OUT_P,
        help="--report: figures for a paper's column (8.4 cm), page (17 cm) or CM cm.")]


class Racing:
    """race: the race and its output."""
    Alpha = Annotated[float, opt(
        "--alpha", metavar="A", panel=RACE_P,
        help="Chance of any wrong elimination over the whole race.")]
    Goal = Annotated[str, opt("--goal", metavar="best|top:M", panel=RACE_P,
                              help="Stop when the best, or the top M, are left.")]
    Order = Annotated[str, opt("--order", choices=("random", "given"), panel=RACE_P,
                               help="The data sets in a seeded random order or the table's.")]
    Seed = Annotated[int, opt("--seed", metavar="SEED", panel=RACE_P,
                              help="Seed of the random order.")]
    Format, Output = Study.Format, Study.Output
    Figure = Annotated[Optional[Path], opt(
        "--figure", metavar="FILE", panel=OUT_P,
        help="The race as a figure (.svg, .pdf or .png).")]
