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
  (``mcm=True`` is ``--mcm plain``): ``words`` maps Python values to the words.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import defaults, names

# Each panel names the user-guide page (docs/guide/) that explains its options.
IN = "Input (guide: input)"
TESTS = "Tests (guide: choosing-a-test, conventions)"
POST = "Post-hoc (guide: posthoc)"
EFFECT = "Effect sizes and Bayesian (guide: effects)"
OUT = "Output (guide: reports, papers, large-k)"
SURE = "How sure? (guide: how-sure)"
PER = "Data set by data set (guide: per-dataset)"

KINDS = ("value", "list", "pair", "switch", "toggle", "spelled")


@dataclass(frozen=True)
class Option:
    """One option of :func:`rankwise.compare`, and how the command line takes it."""

    name: str
    default: object
    flag: str | None          # None: Python only
    kind: str = "value"
    help: str = ""
    panel: str = TESTS
    choices: tuple | None = None
    metavar: str | None = None
    settings_key: str | None = None   # the key of the JSON settings that echoes the value
    words: dict = field(default_factory=dict)   # "spelled": Python value -> the flag's word
    cli_default: object = None   # the command line's default where it is spelled otherwise
    #: The command-line parameter's name where it differs from ``name``.
    param: str | None = None
    #: The type of the command line's value where the default does not say it (None).
    type: type = str
    #: The value the flag means when given alone (``--multiverse`` is ``--multiverse
    #: default``); None: the flag always takes a value.
    alone: str | None = None
    #: The group of :func:`rankwise.compare` that takes it (``zero_method`` is
    #: ``wilcoxon=WilcoxonOptions(zero_method=...)``), and its field's name there; None: a
    #: keyword of compare's own.
    group: str | None = None
    field: str | None = None
    #: A one-letter form of the flag on the command line (``-j`` for ``--jobs``).
    short: str | None = None

    @property
    def in_group(self) -> str:
        """The field's name in its group (its own name where it is not renamed)."""
        return self.field or self.name

    @property
    def command_default(self):
        """The default as the command line spells it."""
        if self.cli_default is not None:
            return self.cli_default
        if self.kind == "spelled" and self.default in self.words:
            return self.words[self.default]
        return self.default

    @property
    def cli_param(self) -> str:
        return self.param or self.name

    @property
    def long_flag(self) -> str:
        """The flag as written (the first of a ``--a/--b`` pair)."""
        return self.flag.split("/")[0]

    def words_for(self, value) -> list:
        """``value`` as the command line writes it (nothing for the default)."""
        if self.flag is None:
            raise ValueError(f"{self.name} has no command-line flag")
        if _same(value, self.default):
            return []
        flag = self.long_flag
        if self.kind == "switch":
            return [flag] if value else []
        if self.kind == "toggle":
            return [flag] if value else [self.flag.split("/")[1]]
        if self.kind == "pair":
            return [flag, *map(str, value)]
        if self.kind == "list":
            return [flag, value if isinstance(value, str) else ",".join(map(str, value))]
        if self.kind == "spelled":
            for python, word in self.words.items():
                if _same(value, python):
                    return [flag, word] if word is not None else []
        return [flag, str(value)]

    def from_cli(self, value):
        """The command line's value as :func:`rankwise.compare` takes it."""
        if self.kind == "spelled":
            for python, word in self.words.items():
                if value == word:
                    return python
        if self.kind == "pair" and value:
            return tuple(value)
        return value


def _same(a, b) -> bool:
    # True == 1 in Python; an option's True and its 1 are different values here
    return type(a) is type(b) and a == b if isinstance(a, bool) or isinstance(b, bool) \
        else a == b


COMPARE = (
    # the tests
    Option("alpha", 0.05, "--alpha", metavar="A", help="Significance level."),
    Option("convention", "default", "--convention", choices=names.CONVENTIONS,
           help="Exact formulas, or as published (ERRATA)."),
    Option("decimals", defaults.DEFAULT_DECIMALS, "--decimals", metavar="D", panel=IN,
           help="Round scores to D decimals before comparing."),
    Option("tests", None, "--tests", kind="list", metavar="LIST",
           help="Comma-separated (default: every omnibus test for 3+ learners, every"
                " two-learner test of the pair): "
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
           help="Two-learner tests; greater: B of --pair better.", settings_key="alternative"),
    Option("continuity_correction", False,
           "--continuity-correction/--no-continuity-correction", kind="toggle",
           help="Wilcoxon normal approximation corrected by 1/2 (R's default; off here).",
           settings_key="continuity_correction", group="wilcoxon"),
    Option("friedman_method", "auto", "--friedman-method", choices=names.FRIEDMAN_METHODS,
           help="Friedman/Iman-Davenport p (auto: permutation below N = 20).",
           settings_key="friedman_method"),
    # the post-hoc tests
    Option("posthoc", None, "--posthoc", choices=names.POSTHOC_FAMILIES, panel=POST,
           help="Post-hoc family.", group="posthoc", field="family"),
    Option("control", None, "--control", metavar="NAME", panel=POST,
           help="Control learner (default: best mean rank).", group="posthoc"),
    Option("procedures", None, "--procedures", kind="list", metavar="LIST", panel=POST,
           help="Comma-separated: " + ", ".join(dict.fromkeys(
               names.CONTROL_PROCEDURES + names.ALL_PAIRS_PROCEDURES
               + names.OPTIONAL_PROCEDURES)) + " (default: all of the family).", group="posthoc"),
    Option("rankings", None, "--ranking", kind="list", metavar="LIST", panel=POST,
           param="ranking",
           help="Comma-separated: " + ", ".join(names.RANKINGS_ALL) + " (default friedman).", group="posthoc"),
    Option("force_posthoc", False, "--force-posthoc", kind="switch", panel=POST,
           help="Post-hoc tests even if the omnibus test does not reject.", group="posthoc", field="force"),
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
           help="Pairs with effect sizes (auto: all up to 5,000 pairs, else the verdict's;"
                " none above N = 10,000)."),
    Option("confidence", None, "--confidence", metavar="C", panel=EFFECT, type=float,
           help="Level of the intervals (default 1 - alpha)."),
    Option("bayesian", None, "--bayesian", choices=names.BAYESIAN_TESTS + names.BAYESIAN_MODELS,
           panel=EFFECT, help="Also a Bayesian test of the same pairs.", group="bayesian", field="test"),
    Option("rope", 0.0, "--rope", metavar="R", panel=EFFECT,
           help="Practical equivalence, in the criterion's units.", group="bayesian"),
    Option("draws", defaults.BAYESIAN_SAMPLES, "--draws", metavar="D", panel=EFFECT,
           help="Posterior draws.", group="bayesian"),
    Option("seed", defaults.DEFAULT_SEED, "--seed", metavar="SEED", panel=EFFECT,
           help="Seed of every draw: posteriors, rank sets, bootstrap groups"
                f" (--items: {defaults.ITEM_SEED} unless given)."),
    Option("threshold", defaults.BAYESIAN_THRESHOLD, "--threshold", metavar="P", panel=EFFECT,
           help="Posterior probability that decides.", group="bayesian"),
    Option("rank_intervals", False, "--rank-intervals", kind="switch", panel=OUT,
           help="Mean ranks' intervals on the CD diagram.", group="presentation"),
    Option("digits", None, "--digits", metavar="D", panel=OUT, type=int,
           help="Report decimals (default: the input's).", group="presentation"),
    Option("figure_title", False, "--figure-title", kind="switch", panel=OUT,
           help="A title inside the figures.", group="presentation"),
    Option("top", 30, "--top", kind="spelled", metavar="N", panel=OUT, words={None: "0"},
           type=int,
           help="Reports show the best N learners (0: all); JSON keeps all.", group="presentation"),
    # how sure, and the views of the pool
    Option("pool_check", False, "--pool-check", kind="switch", panel=SURE,
           help="Does the pool matter?"),
    Option("mcm", False, "--mcm", kind="spelled", choices=names.MCM_CHOICES, panel=POST,
           words={False: None, None: None, True: "plain", "holm": "holm"},
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

#: How the input is read (:func:`rankwise.load_table`'s options), for the command lines that
#: read it again.
READ = (
    Option("criterion", None, "--criterion", panel=IN),
    Option("higher_is_better", None, "--higher-is-better/--lower-is-better", kind="toggle",
           panel=IN),
    Option("aggregate", "median", "--aggregate", choices=names.AGGREGATES, panel=IN),
    Option("shape", "auto", "--shape", choices=names.SHAPES, panel=IN),
    Option("columns", None, "--columns", kind="list", panel=IN),
    Option("source_format", "auto", "--source", choices=names.SOURCE_FORMATS, panel=IN),
    Option("missing", "refuse", "--missing", panel=IN),
    Option("duplicates", None, "--duplicates", choices=names.DUPLICATES, panel=IN),
    Option("where", None, "--where", kind="list", panel=IN),
    Option("sep", None, "--sep", panel=IN),
    Option("decimal", None, "--decimal", choices=names.DECIMAL_MARKS, panel=IN),
)

#: compare's options for scored items (``compare --items``; :func:`rankwise.read_items`).
ITEMS = (
    Option("items", False, "--items", kind="switch", panel="Items (guide: items)"),
    Option("metric", None, "--metric", panel="Items (guide: items)"),
    Option("item_filter", None, "--item-filter", panel="Items (guide: items)"),
    Option("cluster", None, "--cluster", panel="Items (guide: items)"),
)

#: compare's options for a front of criteria (``compare --criteria``;
#: :func:`rankwise.compare_criteria`).
FRONTS = (
    Option("criteria", None, "--criteria", kind="list", panel="Better and cheaper (guide: fronts)"),
    Option("ordinal", None, "--ordinal", kind="list", panel="Better and cheaper (guide: fronts)"),
    Option("permutations", defaults.FRONT_PERMUTATIONS, "--permutations",
           panel="Better and cheaper (guide: fronts)"),
    Option("summary", defaults.FRONT_SUMMARY, "--summary", choices=names.FRONT_SUMMARIES,
           panel="Better and cheaper (guide: fronts)"),
)

BY_NAME = {o.name: o for o in COMPARE}
NAMES = tuple(BY_NAME)

#: Options renamed for one word per idea, by their 0.8 name: compare's flat keyword and the
#: command line's flag still take the old name, with a FutureWarning (a note on the command
#: line), until 0.10.
RENAMED = {"samples": "draws"}
RENAMED_FLAGS = {"--samples": "--draws"}

# The other commands' options. What an option shares with compare's (its flag, its value's
# type, its choices) comes from compare's entry; what differs (default, help, panel) is said
# here, once.
STUDY = "Study (guide: power; docs/reference/power.md)"
RUN = "Parallel runs (the results do not depend on them)"
RACING = "Race (guide: racing)"


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
    Option("draws", defaults.POWER_DRAWS, "--draws", metavar="D", panel=STUDY,
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
           help="The data sets in a seeded random order or the table's."),
    _like("seed", panel=RACING, help="Seed of the random order."),
)

BOARD_P = "Leaderboard (guide: leaderboards)"

#: :func:`rankwise.leaderboard`'s options (``rankwise leaderboard``).
BOARD = (
    Option("anchor", None, "--anchor", metavar="LEARNER", panel=BOARD_P,
           help="The learner whose Elo is 1000 (TabArena: 'RF (default)'); default: the"
                " mean Elo is 1000."),
    Option("rounds", defaults.LEADERBOARD_ROUNDS, "--rounds", metavar="R", panel=BOARD_P,
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
)

#: :func:`rankwise.compare_curves`'s level, band and seed options (``rankwise curves``; its
#: help lists them with its other options, in no panel of their own).
CURVES = (
    _like("alpha", panel=None, help="Level of every test."),
    Option("confidence", 0.95, "--confidence", metavar="C", panel=None, type=float,
           help="Level of the rank band."),
    Option("tolerance", 1e-3, "--tolerance", metavar="TAU", panel=None,
           help="Profiles: tau of the convergence test."),
    _like("seed", default=defaults.CURVE_SEED, panel=None,
          help="Seed of the rank band's bootstrap."),
)

#: :func:`rankwise.analysis.audit.audit`'s levels (``rankwise audit``).
AUDIT = (_like("alpha", panel=None, help="Level of the decisions."),
         Option("confidence", 0.95, "--confidence", metavar="C", panel=None, type=float,
                help="Level of each score's Wilson interval."))

#: Each command's options beside compare's, by command.
COMMANDS = {"power": POWER, "race": RACE, "leaderboard": BOARD, "curves": CURVES,
            "audit": AUDIT}


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
        if value is None or _same(value, o.default):
            continue
        if isinstance(value, dict):   # --columns / --where given as a mapping
            value = ",".join(f"{k}={v}" for k, v in value.items())
        words += o.words_for(value)
    return words
