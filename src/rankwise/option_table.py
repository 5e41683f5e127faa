"""Every option of an analysis, declared once: its Python name, default, choices, command-line
flag and how a value is written there, its help and panel, and the ``settings`` key the reports
echo it under.

What reads this table: :class:`rankwise.analysis.options.Options` (its fields), the command
line's option types (flag, help, panel, choices), the translation of the command line's values
into :func:`rankwise.compare`'s (:func:`api_values`), the JSON ``settings`` echo
(:func:`echoed`), and the multiverse's command lines (:func:`command_words`). ``compare``'s
signature and docstring, the CLI command's signature and ``Options`` are checked against it by
``tests/test_options_table.py``, which fails when any of them disagrees.

A value is written on the command line by its option's ``kind``:

- ``value``: ``--flag VALUE``; ``list``: ``--flag a,b``; ``pair``: ``--flag A B``;
- ``switch``: ``--flag`` when true (a default of false);
- ``toggle``: ``--flag`` or ``--no-flag`` (a ``--flag/--no-flag`` pair);
- ``spelled``: ``--flag WORD`` where the command line spells a Python value as a word
  (``mcm=True`` is ``--mcm plain``): ``words`` maps Python values to the words;
- ``argument``: a positional argument of the command line (no flag; ``metavar`` names it).

Besides the analyses' options, :data:`LINES` declares every parameter of every command of the
command line (inputs, outputs, the runner's and the results' options) from the same entries.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from . import defaults, names

# Each panel names the user-guide page (docs/guide/) that explains its options.
IN = "Input (guide: input)"
POST = "Post-hoc (guide: posthoc)"
EFFECT = "Effect sizes and Bayesian (guide: effects)"
OUT = "Output (guide: reports, papers, large-k)"
SURE = "How sure? (guide: how-sure)"
PER = "Data set by data set (guide: per-dataset)"

from .option_types import REQUIRED, Option, same_value

COMPARE = (
    # the tests
    Option("alpha", 0.05, "--alpha", metavar="A", help="Significance level."),
    Option("convention", "default", "--convention", choices=names.CONVENTIONS,
           help="Exact, or as published (see ERRATA)."),
    Option("decimals", defaults.DEFAULT_DECIMALS, "--decimals", metavar="D", panel=IN,
           help="Round scores to D decimals first."),
    Option("tests", None, "--tests", kind="list", metavar="LIST",
           help="Comma-separated (default: every test that applies): "
                + ", ".join(names.OMNIBUS_TESTS + ("skillings_mack",)
                            + names.TWO_LEARNER_TESTS) + "."),
    Option("pair", None, "--pair", kind="pair", metavar="A B",
           help="Also the two-learner tests of A and B."),
    Option("trend", None, "--trend", kind="list", metavar="A,B,C",
           help="Page's trend test, worst first."),
    Option("zero_method", "demsar", "--zero-method", choices=names.ZERO_METHODS,
           help="Wilcoxon: zero differences.", settings_key="wilcoxon_zero_method", group="wilcoxon"),
    Option("wilcoxon_method", "auto", "--wilcoxon-method", choices=names.WILCOXON_METHODS,
           help="Wilcoxon p-value (auto: exact to N = 50).", settings_key="wilcoxon_method", group="wilcoxon", field="method"),
    Option("sign_ties", "split", "--sign-ties", choices=names.SIGN_TIES,
           help="Sign test: ties.", settings_key="sign_ties"),
    Option("alternative", "two-sided", "--alternative", choices=names.ALTERNATIVES,
           help="Greater: B of --pair is better.", settings_key="alternative"),
    Option("continuity_correction", False,
           "--continuity-correction/--no-continuity-correction", kind="toggle",
           help="Wilcoxon's normal p corrected by 1/2 (R's default).",
           settings_key="continuity_correction", group="wilcoxon"),
    Option("friedman_method", "auto", "--friedman-method", choices=names.FRIEDMAN_METHODS,
           help="Friedman/Iman-Davenport p (auto: permutation below N = 20).", settings_key="friedman_method"),
    # the post-hoc tests
    Option("posthoc", None, "--posthoc", choices=names.POSTHOC_FAMILIES, panel=POST,
           help="Post-hoc family.", group="posthoc", field="family"),
    Option("control", None, "--control", metavar="NAME", panel=POST,
           help="Control learner (default: best mean rank).", group="posthoc"),
    Option("procedures", None, "--procedures", kind="list", metavar="LIST", panel=POST,
           help="Comma-separated: " + ", ".join(dict.fromkeys(
               names.CONTROL_PROCEDURES + names.ALL_PAIRS_PROCEDURES
               + names.OPTIONAL_PROCEDURES)) + " (default: the family's).", group="posthoc"),
    Option("rankings", None, "--ranking", kind="list", metavar="LIST", panel=POST,
           param="ranking",
           help="Comma-separated: " + ", ".join(names.RANKINGS_ALL) + " (default friedman).", group="posthoc"),
    Option("force_posthoc", False, "--force-posthoc", kind="switch", panel=POST,
           help="Post-hoc tests without an omnibus rejection.", group="posthoc", field="force"),
    Option("bh_time_budget", 10.0, "--bh-time-budget", metavar="S", panel=POST,
           help="Seconds for the exact Bergmann-Hommel search.", group="posthoc"),
    Option("verdict_procedure", "holm", "--verdict-procedure",
           choices=names.CONTROL_PROCEDURES + names.OPTIONAL_PROCEDURES, panel=POST,
           help="The verdict: each learner against the best.",
           settings_key="verdict_procedure"),
    Option("diagram_procedure", "nemenyi", "--diagram-procedure",
           choices=names.ALL_PAIRS_PROCEDURES, panel=POST, help="The CD diagram's cliques.",
           settings_key="diagram_procedure", group="posthoc", field="diagram"),
    # effect sizes and the Bayesian views
    Option("effects", None, "--effects", kind="spelled", choices=names.EFFECTS_MODES,
           panel=EFFECT, words={None: None, "auto": None, True: "all", False: "none"},
           cli_default="auto",
           help="Pairs with effect sizes (auto: all to 5,000 pairs, else the verdict's; none"
                " above N = 10,000)."),
    Option("confidence", None, "--confidence", metavar="C", panel=EFFECT, type=float,
           help="Level of the intervals (default 1 - alpha)."),
    Option("bayesian", None, "--bayesian", choices=names.BAYESIAN_TESTS + names.BAYESIAN_MODELS,
           panel=EFFECT, help="Also a Bayesian test of the same pairs.", group="bayesian", field="test"),
    Option("rope", 0.0, "--rope", metavar="R", panel=EFFECT,
           help="ROPE, in the criterion's units.", group="bayesian"),
    Option("draws", defaults.BAYESIAN_SAMPLES, "--draws", metavar="D", panel=EFFECT,
           help="Posterior draws.", group="bayesian"),
    Option("seed", defaults.DEFAULT_SEED, "--seed", metavar="SEED", panel=EFFECT,
           check=("a_seed",),
           help=f"Seed of every draw (--items: {defaults.ITEM_SEED})."),
    Option("threshold", defaults.BAYESIAN_THRESHOLD, "--threshold", metavar="P", panel=EFFECT,
           help="Posterior probability that decides.", group="bayesian"),
    Option("rank_intervals", False, "--rank-intervals", kind="switch", panel=OUT,
           help="Mean ranks' intervals on the CD diagram.", group="presentation"),
    Option("digits", None, "--digits", metavar="D", panel=OUT, type=int,
           help="Report decimals (default: the input's).", group="presentation"),
    Option("figure_title", False, "--figure-title", kind="switch", panel=OUT,
           help="A title inside the figures.", group="presentation"),
    Option("top", 30, "--top", kind="spelled", metavar="N", panel=OUT, words={None: "0"},
           type=int, help="Best N learners shown (0: all; JSON: all).", group="presentation"),
    # how sure, and the views of the pool
    Option("pool_check", False, "--pool-check", kind="switch", panel=SURE,
           help="Does the pool matter?"),
    Option("mcm", False, "--mcm", kind="spelled", choices=names.MCM_CHOICES, panel=POST,
           words={False: None, None: None, True: "plain", "holm": "holm"}, checked=True,
           help="Multi-comparison matrix."),
    Option("groups", None, "--groups", choices=names.GROUP_METHODS, panel=POST,
           help="Rank groups."),
    Option("verdict", "frequentist", "--verdict", choices=names.VERDICT_BASES, panel=EFFECT,
           help="Posterior terms first (needs --bayesian).", settings_key="verdict"),
    Option("rank_sets", None, "--rank-sets", kind="spelled", choices=names.RANK_SET_BASES,
           panel=SURE, words={None: None, False: None, "ranks": "ranks", True: "ranks",
                               "scores": "scores"},
           help="Confidence sets for the ranks, by mean rank or mean score, jointly at"
                " 1 - alpha.", group="rank_sets", field="basis"),
    Option("rank_sets_marginal", False, "--marginal-rank-sets", kind="switch", panel=SURE,
           param="marginal_rank_sets", help="Each learner's own rank set instead.", group="rank_sets", field="marginal"),
    Option("dataset_check", False, "--dataset-check", kind="switch", panel=SURE,
           help="Fewest data sets that overturn each claim."),
    Option("multiverse", None, "--multiverse", kind="spelled", metavar="[GRID.toml]",
           panel=SURE, alone="default", words={None: None, False: None, True: "default"},
           help="Rerun the verdict over a grid of analyses (GRID.toml: your own, after"
                " the input)."),
    Option("per_dataset", None, "--per-dataset", kind="spelled", choices=("corrected", "5x2cv"),
           panel=PER, alone="corrected",
           words={None: None, False: None, "corrected": "corrected", True: "corrected",
                  "5x2cv": "5x2cv"},
           help="Each learner against the base on each data set, from the folds (alone:"
                " corrected).", group="per_dataset", field="tests"),
    Option("per_dataset_adjust", "none", "--per-dataset-adjust", choices=("none", "holm"),
           panel=PER, help="Over data sets; WEKA none.", group="per_dataset", field="adjust"),
    Option("per_dataset_marks", "better", "--per-dataset-marks", choices=("better", "weka"),
           panel=PER, help="The marks say better, or (weka) higher.",
           group="per_dataset", field="marks"),
    Option("test_fraction", None, "--test-fraction", metavar="F", panel=PER, type=float,
           help="Share tested on (default: from the results).", group="per_dataset"),
)


def _read_options(panel: str, *, missing: str, columns: str, source: str,
                  more: str = "") -> tuple:
    """The options that say how a table is read, in ``panel``: compare's input and power's pool
    take the same options, with their own help where the use differs."""
    return (
        Option("criterion", None, "--criterion", short="-c", metavar="NAME", panel=panel,
               help="Criterion (long table or results database)."),
        Option("higher_is_better", None, "--higher-is-better/--lower-is-better",
               kind="toggle", panel=panel,
               help="Default: by the criterion's name, else higher."),
        Option("aggregate", "median", "--aggregate", choices=names.AGGREGATES, panel=panel,
               help="Cell of repeats x folds."),
        Option("shape", "auto", "--shape", choices=names.SHAPES, panel=panel,
               help="Table layout."),
        Option("columns", None, "--columns", kind="list", metavar="ROLE=COL,...", panel=panel,
               help=columns),
        Option("source_format", "auto", "--source", choices=names.SOURCE_FORMATS, panel=panel,
               metavar="NAME", listed=False,
               help=names.source_help(source, ("table", "items"),
                                "detected")),
        Option("missing", "refuse", "--missing", metavar="POLICY", panel=panel, help=missing,
               complete=names.MISSING_POLICIES + (names.MISSING_IMPUTE,)),
        Option("duplicates", None, "--duplicates", choices=names.DUPLICATES, panel=panel,
               help="Repeated rows or runs: keep the last or first; default: refuse (amlb:"
                    " last)."
                    + more),
        Option("where", None, "--where", kind="list", metavar="COL=VALUE,...", panel=panel,
               help="Only these rows (e.g. constraint=1h8c_gp3)." + more),
        Option("sep", None, "--sep", metavar="CHAR", panel=panel,
               help="Field separator (sniffed: tab, ';' or ',')." + more),
        Option("decimal", None, "--decimal", choices=names.DECIMAL_MARKS, panel=panel,
               help="Decimal mark (default: sniffed)." + more),
    )

#: How the input is read (:func:`rankwise.load_table`'s options), for the command lines that
#: read it again.
READ = _read_options(
    IN, missing="Missing cells: refuse, drop-datasets, drop-learners, skillings-mack (keep"
                " them), worst or impute:LEARNER (fill them).",
    columns="Column roles (e.g. value=result).", source="Which reader:")

#: ``leaderboard --missing``: compare's policies that make sense for a board (keep by default).
BOARD_MISSING = Option(
    "missing", names.MISSING_KEEP, "--missing", metavar="POLICY", panel=IN,
    help="Missing results: keep (two learners battle where both have one), refuse,"
         " drop-datasets, drop-learners, worst or impute:LEARNER, as compare; scored items:"
         " refuse (their default) or common.",
    complete=names.BOARD_MISSING + (names.MISSING_IMPUTE, "common"))

ITEMS_P = "Items (guide: items)"

#: compare's options for scored items (``compare --items``; :func:`rankwise.read_items`).
ITEMS = (
    Option("items", False, "--items", kind="switch", panel=ITEMS_P,
           help="Scored items: model, task, item, score."),
    Option("metric", None, "--metric", metavar="NAME", panel=ITEMS_P,
           help="The per-item metric or scorer to take."),
    Option("item_filter", None, "--item-filter", metavar="NAME", panel=ITEMS_P,
           help="lm-eval: the filter whose records count."),
    Option("cluster", None, "--cluster", metavar="FIELD", panel=ITEMS_P,
           help="Item field that groups items."),
)

FRONTS_P = "Better and cheaper (guide: fronts)"

#: compare's options for a front of criteria (``compare --criteria``;
#: :func:`rankwise.compare_criteria`).
FRONTS = (
    Option("criteria", None, "--criteria", kind="list", metavar="A,B", panel=FRONTS_P,
           help="Two or more criteria: their front."),
    Option("ordinal", None, "--ordinal", kind="list", metavar="A,B", panel=FRONTS_P,
           help="GSD: ordinal ones (default: times)."),
    Option("permutations", defaults.FRONT_PERMUTATIONS, "--permutations", metavar="N",
           panel=FRONTS_P, help="GSD: splits per pair test."),
    Option("summary", defaults.FRONT_SUMMARY, "--summary", choices=names.FRONT_SUMMARIES,
           panel=FRONTS_P, help="Per learner (auto: the mean, or the mean rank if a"
           " criterion's scale differs over 100-fold)."),
)

BY_NAME = {o.name: o for o in COMPARE}
NAMES = tuple(BY_NAME)

#: Options renamed for one word per idea, by their 0.8 name: compare's flat keyword and the
#: command line's flag still take the old name, with a FutureWarning (a note on the command
#: line), until 0.10.
RENAMED = {"samples": "draws"}
#: Flags renamed since 0.8, by command: the old name still works, with a note (it goes in
#: 0.10): one word per idea (``draws`` for every number of random draws).
RENAMED_FLAGS = {"compare": {"--samples": "--draws"}, "leaderboard": {"--rounds": "--draws"}}

# The other commands' options. What an option shares with compare's (its flag, its value's
# type, its choices) comes from compare's entry; what differs (default, help, panel) is said
# here, once.
STUDY = "Study (guide: power; docs/reference/power.md)"
RUN = "Parallel runs (the results do not depend on them)"
RACING = "Race (guide: racing)"
EXPERIMENT = "Experiment (guide: experiments)"
CURVES_IN = "Input (guide: curves)"
CURVES_P = "Along the budget (guide: curves)"
AUDIT_P = "Board (guide: items)"


def _like(name: str, **changes) -> Option:
    """compare's option ``name`` as another command takes it."""
    from dataclasses import replace

    return replace(BY_NAME[name], settings_key=None, group=None, field=None, **changes)

#: :func:`rankwise.power.power_study`'s options (``rankwise power``).
POWER = (
    Option("learners", None, "--learners", kind="list", metavar="LIST", panel=STUDY,
           help="Learners (default: all). Two: d = first - second; more: the control against"
                " the mean of the others."),
    _like("control", panel=STUDY,
          help="Control with 3+ learners (default: the first of --learners, else the best"
               " mean rank)."),
    Option("sample_size", None, "--sample-size", metavar="N|a:b", panel=STUDY, short="-n",
           cli_default=str(defaults.POWER_SAMPLE_SIZE),
           help="Data sets per draw, or a range for planning."),
    Option("biases", None, "--bias", kind="list", metavar="LIST", panel=STUDY, param="bias",
           help="Biases k (default 0,2,...,20)."),
    Option("draws", defaults.POWER_DRAWS, "--draws", metavar="D", panel=STUDY, check=("whole", 2),
           help="Samples per bias and sample size."),
    _like("seed", default=defaults.POWER_SEED, panel=STUDY, help="Seed of the draws."),
    _like("tests", panel=STUDY,
          help="Comma-separated (default: wilcoxon,sign,ttest for two learners; the five"
               " omnibus tests for more): "
               + ", ".join(names.TWO_LEARNER_TESTS + names.OMNIBUS_TESTS) + "."),
    _like("procedures", panel=STUDY,
          help="Control procedures on Friedman ranks (3+ learners; default none): "
               + ", ".join(names.CONTROL_PROCEDURES + names.OPTIONAL_PROCEDURES) + "."),
    _like("alpha", panel=STUDY),
    Option("target_power", 0.8, "--power", metavar="P", panel=STUDY,
           help="With --sample-size a:b, the rejection rate to reach."),
    Option("jobs", 1, "--jobs", metavar="N", panel=RUN, short="-j",
           help="Worker processes (0: one per CPU)."),
    Option("dask_scheduler", None, "--dask-scheduler", metavar="ADDRESS", panel=RUN,
           help="Dask scheduler address, scheduler file, or 'local'."),
)

#: :func:`rankwise.race`'s options (``rankwise race``).
RACE = (
    _like("alpha", panel=RACING, help="Chance of any wrong elimination over the whole race."),
    Option("goal", 1, "--goal", metavar="best|top:M", panel=RACING, cli_default="best",
           help="Stop when the best, or the top M, are left."),
    Option("order", "random", "--order", choices=("random", "given"), panel=RACING,
           checked=True, help="The data sets in a seeded random order or the table's."),
    _like("seed", panel=RACING, help="Seed of the random order."),
)

BOARD_P = "Leaderboard (guide: leaderboards)"
VOTES_P = "Votes (guide: boards from votes)"
#: ``leaderboard --source``: compare's readers and the readers of vote logs.
BOARD_SOURCE = Option("source_format", "auto", "--source", panel=IN, metavar="NAME",
                      choices=names.SOURCE_FORMATS + names.VOTE_SOURCES, listed=False,
                      help=names.source_help("Which reader:", ("table", "items", "votes"),
                                       "detected"))

#: :func:`rankwise.leaderboard`'s options (``rankwise leaderboard``).
BOARD = (
    Option("anchor", None, "--anchor", metavar="LEARNER", panel=BOARD_P,
           help="The learner whose Elo is 1000 (TabArena: 'RF (default)'); default: the"
                " mean Elo is 1000."),
    Option("draws", defaults.LEADERBOARD_ROUNDS, "--draws", metavar="N", panel=BOARD_P,
           help="Bootstrap resamples of the data sets (TabArena's 100)."),
    _like("seed", default=defaults.LEADERBOARD_SEED, panel=BOARD_P, help="Seed of the resamples (TabArena's 0)."),
    Option("confidence", 0.95, "--confidence", metavar="C", panel=BOARD_P, type=float,
           help="Level of the intervals and of the tied-with-#1 set."),
    _like("alpha", panel=BOARD_P, help="Level of the Friedman test and post-hoc beside it."),
    Option("by", None, "--by", metavar="COLUMN", panel=BOARD_P,
           help="One more board per value of this column (e.g. problem_type)."),
    Option("rule", "elo", "--aggregate-rule", choices=("elo", "borda", "copeland", "kemeny"),
           panel=BOARD_P, param="rule",
           help="The order of the board; every rule's score is in the JSON and CSV."),
    _like("decimals", panel=BOARD_P, kind="spelled", words={None: "none"},
          cli_default=str(defaults.DEFAULT_DECIMALS), metavar="D|none",
          help="Round scores to D decimals before ranking, as compare does (none: as given,"
               " TabArena's comparison)."),
    Option("figure_top", defaults.LEADERBOARD_FIGURE_MOST, "--figure-top", metavar="N",
           panel=BOARD_P, type=int,
           help=f"The figures draw the best N learners (at most"
                f" {defaults.LEADERBOARD_FIGURE_MOST})."),
    Option("ties", "half", "--ties", choices=("half", "davidson", "rao-kupper"),
           panel=VOTES_P, help="A tie: half a win to each (LMArena), or Davidson's or Rao"
                               " and Kupper's tie model."),
    Option("bootstrap_over", "auto", "--bootstrap-over", choices=("auto", "battles", "prompts"),
           panel=VOTES_P, help="What a resample draws: the votes (LMArena), or the prompts"
                               " (auto: prompts when they repeat)."),
    Option("style", None, "--style", metavar="FEATURE,...|auto", panel=VOTES_P,
           help="Control for style (LMArena): these features, auto: every one the log has."),
    Option("vote_check", True, "--vote-check/--no-vote-check", kind="toggle",
           panel=VOTES_P, help="Find the fewest votes whose removal changes #1."),
)

#: :func:`rankwise.compare_curves`'s level, band and seed options (``rankwise curves``; its
#: help lists them with its other analysis options).
CURVES = (
    _like("alpha", panel=CURVES_P, help="Level of every test.", checked=True, interval=(0, 1)),
    Option("confidence", 0.95, "--confidence", metavar="C", panel=CURVES_P, type=float,
           checked=True, interval=(0, 1), help="Level of the rank band."),
    Option("tolerance", 1e-3, "--tolerance", metavar="TAU", panel=CURVES_P, check=("finite", 0),
           help="Profiles: tau of the convergence test."),
    _like("seed", default=defaults.CURVE_SEED, panel=CURVES_P,
          help="Seed of the rank band's bootstrap."),
)

#: :func:`rankwise.analysis.audit.audit`'s levels (``rankwise audit``).
AUDIT = (_like("alpha", panel=AUDIT_P, help="Level of the decisions."),
         Option("confidence", 0.95, "--confidence", metavar="C", panel=AUDIT_P, type=float,
                help="Level of each score's Wilson interval."))

#: Each command's options beside compare's, by command.
COMMANDS = {"power": POWER, "race": RACE, "leaderboard": BOARD, "curves": CURVES,
            "audit": AUDIT}


# The command line's own parameters: what is read, and what is written where. Each is declared
# here once; LINES below gathers every command's parameters.
OUT_P = "Output"
POOL_P = "Pool (guide: power)"
FILE = "Write to FILE instead of the screen."


def _format(choices, panel, **more) -> Option:
    return Option("fmt", choices[0], "--format", short="-f", choices=choices, panel=panel,
                  checked=True, help="Output format.", **more)


def _path(name: str, flag: str, metavar: str, panel, help: str, **more) -> Option:
    if name == "report":    # every command's --report also logs to MLflow (cli/driver.py)
        help = help.rstrip(".") + " (or mlflow:NAME)."
    return Option(name, None, flag, metavar=metavar, panel=panel, type=Path, help=help, **more)


def _argument(name: str, help: str, metavar=None, default=None, **more) -> Option:
    return Option(name, default, None, kind="argument", metavar=metavar, type=Path, help=help,
                  panel=None, **more)

INPUT = _argument("input", "CSV/TSV table (wide or long) or results database.", "INPUT",
                  show_default=False)
#: compare's input: a table, another tool's results, scored items, or criteria for a front.
COMPARE_INPUT = _argument(
    "input", "Table of scores (CSV/TSV), results database or another tool's results file;"
    " scored items (a table, or lm-eval, inspect_ai, HELM or SWE-bench output); criteria with"
    " --criteria.", "INPUT", show_default=False)
EXAMPLE = Option("example", None, "--example", metavar="NAME", panel=IN,
                 help="A bundled table instead (rankwise examples).")
POOL_READ = (
    _argument("pool", "Table of results whose data sets are the population (wide, long or a"
              " results database).", "POOL", show_default=False),
    Option("example", None, "--example", metavar="NAME", panel=POOL_P,
           help="A bundled table as the pool instead."),
    *(o for o in _read_options(
        POOL_P, missing="Missing cells of the pool: refuse, drop-datasets, drop-learners, worst"
                        " or impute:LEARNER.",
        columns="Column roles, as for compare.", source="Which reader, as for compare:",
        more=" As for compare.")
      if o.name not in ("aggregate", "shape")),
)

#: compare's output options.
COMPARE_OUT = (
    _format(names.REPORT_FORMATS, OUT),
    _path("output", "--output", "FILE", OUT, FILE, short="-o"),
    _path("report", "--report", "DIR", OUT, "Every format and figure into DIR."),
    _path("pairs", "--pairs", "FILE", OUT, "Every pair to FILE (.parquet, .csv)."),
    Option("significant_pairs", False, "--significant-pairs", kind="switch", panel=OUT,
           help="--pairs: only rejected pairs."),
    Option("include_table", None, "--include-table/--no-include-table", kind="toggle",
           panel=OUT, help="JSON: cell matrices (default: <= 10,000)."),
    Option("figure_width", None, "--figure-width", metavar="column|page|CM", panel=OUT,
           help="--report figures: column, page, CM."),
    Option("latex_fragment", False, "--latex-fragment", kind="switch", panel=OUT,
           help="--format latex: tables, figures only."),
    Option("no_effects", False, "--no-effects", kind="switch", panel=None, hidden=True,
           help="The same as --effects none."),
)

#: The analyses' output options (power, race, audit, leaderboard).
FORMAT = _format(names.REPORT_FORMATS, OUT_P)
REPORT = _path("report", "--report", "DIR", OUT_P,
               "Every format and the figures (SVG, PDF, PNG) into DIR.")
OUTPUT = _path("output", "--output", "FILE", OUT_P, FILE, short="-o")
FIGURE_WIDTH = Option("figure_width", None, "--figure-width", metavar="column|page|CM",
                      panel=OUT_P, help="--report: figures for a paper's column (8.4 cm), page"
                                        " (17 cm) or CM cm.")
BOARD_OUT = (
    _format(names.BOARD_FORMATS, OUT_P),
    _path("report", "--report", "DIR", OUT_P,
          "Every format, the CSV and the figures (SVG, PDF, PNG) into DIR."),
    _path("figure", "--figure", "FILE", OUT_P,
          "Elo with its intervals as a figure (.svg, .pdf or .png)."),
    _path("matrix_figure", "--matrix-figure", "FILE", OUT_P,
          "The win-rate matrix as a figure (.svg, .pdf or .png)."),
)

#: ``rankwise curves``: its input and output (its analysis options are CURVES).
CURVES_LINE = (
    _argument("input", "Curves: a table learner, problem, run, budget, value (CSV, TSV,"
              " Parquet), an IOHprofiler folder, an Optuna storage (.db) or trials table, or a"
              " results database of rankwise run --budgets.", "CURVES", show_default=False),
    Option("example", None, "--example", metavar="NAME", panel=CURVES_IN,
           help="A bundled example instead (rankwise examples)."),
    Option("source", "auto", "--source", choices=("auto",) + names.CURVE_SOURCES,
           panel=CURVES_IN, metavar="NAME", listed=False,
           help=names.source_help("Which reader:", ("curves",), "detected from the file's shape")),
    Option("higher_is_better", None, "--higher-is-better/--lower-is-better", kind="toggle",
           panel=CURVES_IN, help="Direction of a table's values (IOHprofiler and Optuna files say"
                            " it)."),
    Option("values", None, "--values", choices=("raw", "running-best"), panel=CURVES_IN,
           checked=True, show_default=False,
           help="Take values as logged or each run's running best (default: raw for a table,"
                " running-best for IOHprofiler and Optuna)."),
    Option("budget_unit", "trials", "--budget-unit", choices=("trials", "seconds"), panel=CURVES_IN,
           checked=True, help="Optuna: the budget is the trial count or the seconds since the"
                              " run's first trial."),
    Option("criterion", None, "--criterion", short="-c", panel=CURVES_IN,
           help="Results database: the criterion (default: its first); IOHprofiler files of"
                " several objectives: the one to read (raw_y, F2, ...)."),
    Option("budgets", None, "--budgets", kind="list", metavar="B1,B2,...", panel=CURVES_P,
           show_default=False,
           help="Checkpoints, where everything compare does runs (default: every budget up to"
                " six, else four spread over the budget)."),
    Option("targets", "10", "--targets", metavar="N|T1,T2,...", panel=CURVES_P,
           help="Fixed targets: N per problem between its worst and best value, or the same"
                " values on every problem."),
    Option("aocc_bounds", "problem", "--aocc-bounds", metavar="problem|LOW,HIGH", panel=CURVES_P,
           help="AOCC: values normalised to each problem's range or to LOW,HIGH."),
    Option("value_scale", "linear", "--value-scale", choices=("linear", "log"), panel=CURVES_P,
           checked=True, help="AOCC: scale of the values."),
    Option("budget_scale", "linear", "--budget-scale", choices=("linear", "log"), panel=CURVES_P,
           checked=True, help="AOCC: scale of the budget axis."),
    Option("aocc_budget", None, "--aocc-budget", panel=CURVES_P, type=float, show_default=False,
           check=("positive",),
           help="AOCC: integrate up to this budget (default: the largest run budget)."),
    Option("aocc_curve", "running-best", "--aocc-curve", choices=("running-best", "values"),
           panel=CURVES_P, checked=True,
           help="AOCC: over each run's running best (IOHinspector's) or over the values as"
                " read (--values)."),
    *CURVES,
    Option("export", None, "--export", metavar="aocc|BUDGET", panel=OUT_P, show_default=False,
           help="Write a score table (problems x learners, CSV) for rankwise compare instead of"
                " the report: the AOCC, or the mean over runs at BUDGET."),
    _path("figure", "--figure", "FILE", OUT_P, "Draw rank over budget, convergence, ECDF and"
          " profiles (.svg, .pdf, .png).", show_default=False),
    _path("cd_figure", "--cd-figure", "FILE", OUT_P, "Draw one CD diagram per checkpoint in one"
          " figure.", show_default=False),
    _format(("text", "markdown", "html", "latex", "json"), OUT_P),
    _path("output", "--output", "FILE", OUT_P, "Write to FILE.", short="-o"),
    _path("report", "--report", "DIR", OUT_P, "Every format and figure (SVG, PDF, PNG) into DIR.",
          show_default=False),
)

#: ``rankwise audit``: the board, the counts, the levels (AUDIT) and the output.
AUDIT_LINE = (
    _argument("board", "A published board as printed: models in the first column, one column"
              " of proportions or percentages per task (CSV, TSV or a Markdown table).",
              "BOARD", REQUIRED, show_default=False),
    Option("counts", None, "--counts", kind="list", metavar="TASK=N,...", panel=AUDIT_P,
           help="Item counts of some tasks (the others are recovered from the rounding)."),
    *AUDIT,
)

GATE_P = "Gate (guide: gate)"
GATE_IN = "Runs (guide: gate)"

#: :func:`rankwise.gate`'s options (``rankwise gate``) whose values the command line writes as
#: Python takes them (checked against the function by tests/test_options_table.py) ...
GATE = (
    Option("question", "regression", "--question", panel=GATE_P, checked=True,
           choices=("regression", "non-inferiority", "equivalence", "superiority"),
           help="What is asked: a regression (fails when shown), non-inferiority, equivalence"
                " (TOST) or superiority (each passes when shown)."),
    _like("alpha", panel=GATE_P, help="Level of every decision."),
    Option("confidence", 0.95, "--confidence", metavar="C", panel=GATE_P, type=float,
           checked=True, interval=(0, 1), help="Level of the intervals."),
    Option("test", "auto", "--test", choices=("auto", "t", "wilcoxon", "mcnemar", "permutation"),
           panel=GATE_P, checked=True,
           help="Per task (auto: McNemar for 0/1 items, Wilcoxon for data sets, else paired t)."),
    Option("draws", 10_000, "--draws", metavar="D", panel=GATE_P, check=("whole", 100),
           help="--test permutation: sign flips per task."),
    _like("seed", default=defaults.ITEM_SEED, panel=GATE_P, help="Seed of the sign flips."),
    Option("unmatched", "refuse", "--unmatched", choices=("refuse", "drop"), panel=GATE_IN,
           checked=True, help="An item or data set only one run has: refuse, or drop (counted)."),
    Option("baseline_learner", None, "--baseline-learner", metavar="NAME", panel=GATE_IN,
           help="The baseline's learner where its file holds several."),
    Option("candidate_learner", None, "--candidate-learner", metavar="NAME", panel=GATE_IN,
           help="The candidate's learner where its file holds several."),
)
#: ... and those it spells in words of its own (a margin of 2%, k auto, a ledger's file).
GATE_SPELLED = (
    Option("margin", "0", "--margin", metavar="M|P%", panel=GATE_P,
           help="The margin in the score's units (0.02), or relative to the baseline's score"
                " (2%)."),
    Option("k", "auto", "--k", kind="list", metavar="K1,K2,...", panel=GATE_P,
           help="Repeated trials: pass@k and pass^k for these k (auto: 1 and the fewest"
                " trials of an item)."),
    Option("score_range", None, "--score-range", metavar="LOW,HIGH", panel=GATE_P,
           help="The scores' bounds, for the e-value (0/1 and [0, 1] scores need none)."),
    Option("ledger", None, "--ledger", metavar="FILE", panel=GATE_P, type=Path,
           help="Keep the looks in FILE (made if absent): an e-process valid however often"
                " the gate is asked."),
)

COMMANDS["gate"] = GATE

#: ``rankwise gate``: the two runs and how they are read and matched.
GATE_LINE = (
    _argument("baseline", "The baseline run: scored items (a table, or lm-eval, inspect_ai,"
              " HELM or SWE-bench output) or a table of scores.", "BASELINE",
              show_default=False),
    _argument("candidate", "The candidate run, of the same shape.", "CANDIDATE",
              show_default=False),
    Option("example", None, "--example", metavar="NAME", panel=GATE_IN,
           help="A bundled pair of runs instead (rankwise examples)."),
    *(replace(o, panel=GATE_IN) for o in READ if o.name not in ("shape", "aggregate")),
    *(replace(o, panel=GATE_IN) for o in ITEMS),
    *GATE,
    *GATE_SPELLED,
)

PLAN_P, PLAN_IN = "Plan (guide: planning)", "Pilot (guide: planning)"
PLAN = (   # rankwise.plan's options (rankwise plan)
    Option("method", "auto", "--method", choices=("auto", "anova", "reml"), panel=PLAN_P,
           checked=True, help="Components: ANOVA (balanced) or REML (auto: ANOVA if it can)."),
    replace(AUDIT[1], panel=PLAN_P, checked=True, interval=(0, 1),
            help="Level of the components' intervals."),
    replace(CURVES[0], panel=PLAN_P, help="Level of the resolution floor's test."),
    Option("power", 0.8, "--power", metavar="P", panel=PLAN_P, type=float, checked=True,
           interval=(0, 1), help="Resolution floor: the power to detect it."),
    Option("stability", 0.95, "--stability", metavar="S", panel=PLAN_P, type=float,
           checked=True, interval=(0, 1), help="The Eρ² the needed sizes and cheapest design"
                                               " reach (and Φ)."),
    Option("costs", None, "--cost", kind="list", metavar="FACET=C,...", panel=PLAN_P,
           param="cost", help="Cost of a level of a facet (default: 1 per innermost level;"
                              " dataset=20: a data set costs 20 more)."),
    Option("sizes", None, "--design", kind="list", metavar="FACET=N,...", panel=PLAN_P,
           param="design", help="Also project this design (e.g. dataset=40,fold=5)."),
    Option("next_alpha", 0.1, "--next-alpha", metavar="A", panel=PLAN_P, type=float,
           checked=True, interval=(0, 1), help="Next-data-set rank intervals cover 1 - A."),
    Option("next_method", "auto", "--next-method", choices=("auto", "conformal",
           "hierarchical"), panel=PLAN_P, checked=True, help="Next-data-set ranks (auto:"
                                                             " hierarchical with folds)."),
    Option("negative", "keep", "--negative", choices=("keep", "zero"), panel=PLAN_P,
           checked=True, help="D-studies: negative ANOVA estimates unclipped, or at 0."),
    Option("draws", 1000, "--draws", metavar="D", panel=PLAN_P, check=("whole", 100),
           help="Resamples (hierarchical intervals, decision accuracy)."),
    _like("seed", default=0, panel=PLAN_P, help="Seed of the resamples."))
COMMANDS["plan"] = PLAN
PLAN_LINE = (   # the pilot, and how it is read
    _argument("input", "The pilot: scores (wide, long with repeats and folds, a results"
              " database, another tool's results), scored items or curves.", "INPUT",
              show_default=False),
    replace(GATE_LINE[2], panel=PLAN_IN, help="A bundled table or item example instead."),
    *(replace(o, panel=PLAN_IN) for o in READ if o.name not in ("shape", "aggregate")),
    *(replace(o, panel=PLAN_IN) for o in ITEMS), *PLAN)

#: ``rankwise run``'s options; the race's are checked where the race is set up.
RUN_LINE = (
    _argument("experiment", "Experiment TOML file (it runs code).", show_default=False),
    Option("results", REQUIRED, "--results", short="-r", panel=EXPERIMENT, type=Path,
           help="Results database (SQLite)."),
    Option("example", None, "--example", panel=EXPERIMENT,
           help="Run a bundled experiment instead: demo or race."),
    Option("jobs", 1, "--jobs", short="-j", panel=RUN,
           help="Worker processes (0: in the driver process, no isolation)."),
    Option("dask_scheduler", None, "--dask-scheduler", panel=RUN,
           help="Dask scheduler address, scheduler file, or 'local'."),
    Option("retry_failed", False, "--retry-failed", kind="switch", panel=EXPERIMENT,
           help="Run failed tasks again."),
    Option("force", False, "--force", kind="switch", panel=EXPERIMENT,
           help="Continue although the design or library versions changed."),
    Option("quiet", False, "--quiet", short="-q", kind="switch", panel=EXPERIMENT,
           help="No progress bar."),
    Option("time_limit", None, "--time-limit", panel=EXPERIMENT, type=float,
           help="Seconds per task (overrides the file's time_limit)."),
    Option("budgets", None, "--budgets", kind="list", metavar="F1,F2,...", panel=EXPERIMENT,
           show_default=False,
           help="Learning curves: also train each learner on these nested fractions of every"
                " training part, e.g. 0.1,0.25,0.5,1.0 (overrides the file's budgets)."),
    Option("race", None, "--race", metavar="[CRITERION]", panel=RACING, alone="first",
           show_default=False,
           help="Race the learners on CRITERION (alone: the file's first criterion): the data"
                " sets one at a time, and a learner the race eliminates is not run on later"
                " ones."),
    Option("plan", None, "--plan", metavar="[CRITERION]", panel=EXPERIMENT, alone="first",
           show_default=False, help="Then plan the next run on CRITERION (alone: the first):"
                                    " the repeats that settle the order, as NAME.next.toml."),
    Option("alpha", None, "--alpha", panel=RACING, type=float, show_default=False,
           check=("level",),
           help="Race: chance of any wrong elimination over the whole race (default: 0.05)."),
    Option("goal", None, "--goal", metavar="best|top:M", panel=RACING, show_default=False,
           help="Race: stop when the best, or the top M, are left (default: best)."),
    Option("order", None, "--order", metavar="random|given", panel=RACING, show_default=False,
           help="Race: the data sets in a random order (the experiment's seed) or the file's"
                " (default: random)."),
)

RESULTS = _argument("results", "Results database written by `rankwise run`.", default=REQUIRED)

#: Every parameter of every command, by command, in no particular order (each command's
#: signature orders them); the command line declares no parameter outside this table
#: (``tests/test_cli_layout.py`` walks them).
LINES = {
    "compare": (COMPARE_INPUT, EXAMPLE, *READ, *COMPARE, *COMPARE_OUT, *ITEMS, *FRONTS),
    "power": (*POOL_READ, *POWER, FORMAT, REPORT, OUTPUT, FIGURE_WIDTH),
    "race": (INPUT, EXAMPLE, *READ, *RACE, FORMAT, REPORT, OUTPUT,
             _path("figure", "--figure", "FILE", OUT_P,
                   "The race as a figure (.svg, .pdf or .png).")),
    "leaderboard": (INPUT, EXAMPLE, *(o for o in READ if o.name not in (
        "aggregate", "shape", "missing", "source_format")),
                    BOARD_SOURCE, BOARD_MISSING, *BOARD, *BOARD_OUT, OUTPUT),
    "audit": (*AUDIT_LINE, FORMAT, REPORT, OUTPUT),
    "gate": (*GATE_LINE, FORMAT,
             _path("report", "--report", "DIR", OUT_P, "Every format (no figure) into DIR."),
             OUTPUT),
    "curves": CURVES_LINE,
    "plan": (*PLAN_LINE, FORMAT, REPORT, OUTPUT, FIGURE_WIDTH),
    "run": RUN_LINE,
    "status": (RESULTS, Option("fmt", "text", "--format", short="-f",
                               choices=names.SUMMARY_FORMATS, listed=False, checked=True,
                               panel=OUT_P, help="text or json.")),
    "export": (RESULTS,
               Option("fmt", "csv", "--format", short="-f", choices=("csv", "parquet", "weka"),
                      listed=False, checked=True, panel=OUT_P,
                      help="csv, parquet or weka (WEKA's Experimenter result file, ARFF)."),
               Option("output", REQUIRED, "--output", short="-o", panel=OUT_P, type=Path,
                      help="File to write."),
               Option("curves", False, "--curves", kind="switch", panel=OUT_P,
                      help="The learning curves of a run with --budgets (a budget column),"
                           " for rankwise curves.")),
    "examples": (),
}


def line_option(command: str, name: str) -> Option:
    """The table's entry of ``command``'s parameter ``name``."""
    return next(o for o in LINES[command] if o.cli_param == name)


def refusal(option: Option, value) -> str | None:
    """Why ``value`` is not a value of ``option`` (one wording for every command), or None."""
    if value is None:
        return None
    if option.check is not None:
        from . import _validate
        from .errors import RankwiseError

        kind, *more = option.check
        try:
            getattr(_validate, kind)(option.long_flag, value, *more)
        except RankwiseError as exc:
            return str(exc)
    if not option.checked:
        return None
    if option.choices is not None and value not in option.choices:
        return f"{option.long_flag} must be one of {', '.join(option.choices)}; got {value!r}"
    if option.interval == (0, 1):
        from . import _validate
        from .errors import RankwiseError

        try:
            _validate.level(option.long_flag, value)
        except RankwiseError as exc:
            return str(exc)
    elif option.interval is not None and not option.interval[0] < value < option.interval[1]:
        low, high = option.interval
        return f"{option.long_flag} must lie strictly between {low} and {high}; got {value!r}"
    return None


@dataclass(frozen=True)
class Group:
    """Options of :func:`rankwise.compare` that one feature takes together, given as one
    keyword (``wilcoxon=WilcoxonOptions(zero_method="pratt")``), as scipy groups a method's
    settings; ``lead``: the field a plain value sets (``bayesian="signed-rank"`` is
    ``BayesianOptions(test="signed-rank")``), None where a plain value means nothing."""

    name: str
    cls: str
    lead: str | None
    help: str

    @property
    def options(self) -> tuple:
        return tuple(o for o in COMPARE if o.group == self.name)

GROUPS = (
    Group("posthoc", "PosthocOptions", "family",
          "The post-hoc family and how it is computed."),
    Group("wilcoxon", "WilcoxonOptions", None,
          "How the Wilcoxon signed-ranks test treats zeros and computes its p-value."),
    Group("bayesian", "BayesianOptions", "test",
          "A Bayesian test of the same pairs, or a model of the whole table."),
    Group("rank_sets", "RankSetOptions", "basis", "Confidence sets for the learners' ranks."),
    Group("per_dataset", "PerDatasetOptions", "tests",
          "The tests of each learner against the base on each data set."),
    Group("presentation", "Presentation", None,
          "How the reports show the analysis (no number of it depends on these)."),
)
GROUP_BY_NAME = {g.name: g for g in GROUPS}

#: compare's keywords, in its signature's order: its own options, and a keyword per group in
#: the place of the group's first option.
KEYWORDS = tuple(dict.fromkeys(o.group or o.name for o in COMPARE))


def api_values(cli_values: dict) -> dict:
    """:func:`rankwise.compare`'s keyword arguments from the command line's parameters (by
    their parameter names)."""
    return {o.name: o.from_cli(cli_values[o.cli_param]) for o in COMPARE}


def echoed(options) -> dict:
    """The options every report states in ``settings``, under their keys."""
    return {o.settings_key: getattr(options, o.name) for o in COMPARE if o.settings_key}


def command_words(options: dict, read: dict | None = None) -> list:
    """The command-line words that give ``options`` (compare's, by name) and read the input
    with ``read`` (load_table's), leaving out what is at its default."""
    words = []
    for o in COMPARE:
        if o.name in options:
            words += o.words_for(options[o.name])
    for o in READ:
        value = (read or {}).get(o.name)
        if value is None or same_value(value, o.default):
            continue
        if isinstance(value, dict):   # --columns / --where given as a mapping
            value = ",".join(f"{k}={v}" for k, v in value.items())
        words += o.words_for(value)
    return words
