"""The one registry of names a user can choose, and the words reports print for them.

Every test, ranking, post-hoc family, adjustment procedure and figure has one entry here: its
name (the key used by the API, the command line and the JSON contract) and its display titles.
Nothing else in the package spells a title or keeps its own list of names. This module imports
nothing from the package, so every wing can read it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Test:
    name: str
    kind: str        # "omnibus" or "two_learners"
    title: str       # in prose: "the Iman-Davenport test"
    label: str       # in a table: "Iman-Davenport F"


@dataclass(frozen=True)
class Ranking:
    name: str
    title: str       # "Friedman mean ranks"
    gate: str        # the omnibus test that must reject before its post-hoc tests are run
    rank_based: bool  # z-tests on mean scores with one standard error (Nemenyi and CDs apply)


@dataclass(frozen=True)
class Procedure:
    name: str
    families: tuple  # "control", "all_pairs"
    title: str       # in prose: "Holm's procedure"
    label: str       # as a column heading: "Holm"
    anova_only: bool = False  # Tukey and Dunnett belong to the ANOVA ranking only


@dataclass(frozen=True)
class FigureKind:
    name: str
    title: str


TESTS = {t.name: t for t in (
    Test("friedman", "omnibus", "the Friedman test", "Friedman chi-square"),
    Test("iman_davenport", "omnibus", "the Iman-Davenport test", "Iman-Davenport F"),
    Test("friedman_aligned", "omnibus", "the Friedman aligned-ranks test",
         "Friedman aligned ranks"),
    Test("quade", "omnibus", "the Quade test", "Quade F"),
    Test("anova", "omnibus", "the repeated-measures ANOVA", "Repeated-measures ANOVA"),
    Test("skillings_mack", "incomplete", "the Skillings-Mack test", "Skillings-Mack chi-square"),
    Test("durbin", "incomplete", "Durbin's test", "Durbin chi-square"),
    Test("page", "trend", "Page's trend test", "Page's L (trend)"),
    Test("wilcoxon", "two_learners", "the Wilcoxon signed-ranks test", "Wilcoxon signed-ranks"),
    Test("sign", "two_learners", "the sign test", "Sign test"),
    Test("ttest", "two_learners", "the paired t-test", "Paired t-test"),
    Test("ttest_relative", "two_learners", "the paired t-test on relative differences",
         "Paired t-test (relative)"),
)}
OMNIBUS_TESTS = tuple(n for n, t in TESTS.items() if t.kind == "omnibus")
TWO_LEARNER_TESTS = tuple(n for n, t in TESTS.items() if t.kind == "two_learners")

RANKINGS_ALL = {r.name: r for r in (
    Ranking("friedman", "Friedman mean ranks", "iman_davenport", True),
    Ranking("friedman_aligned", "mean aligned ranks", "friedman_aligned", True),
    Ranking("quade", "Quade's weighted ranks", "quade", True),
    Ranking("friedman_exact", "Friedman rank sums, exact (Eisinga et al. 2017)",
            "iman_davenport", False),
    Ranking("friedman_conover", "Friedman rank sums by Conover's t-tests", "iman_davenport",
            False),
    Ranking("quade_conover", "Quade's weighted rank sums by Conover's t-tests", "quade", False),
    Ranking("wilcoxon", "pairwise Wilcoxon signed-ranks tests", "iman_davenport", False),
    Ranking("sign", "pairwise sign tests", "iman_davenport", False),
    Ranking("durbin_conover", "the Durbin-Conover comparisons of rank sums", "durbin", False),
    Ranking("anova", "the repeated-measures ANOVA (Tukey and Dunnett)", "anova", False),
)}
#: Rankings whose pairwise statistics come from :func:`rankwise.stats.pairwise.pairwise_statistics`.
RANKINGS = tuple(n for n in RANKINGS_ALL if n != "anova")
RANK_BASED = tuple(n for n, r in RANKINGS_ALL.items() if r.rank_based)
#: Rankings whose pairs are compared by Conover's t-tests (one SE, t with (n−1)(k−1) df).
CONOVER = ("friedman_conover", "quade_conover")
RANKING_ALIASES = {"aligned": "friedman_aligned"}
#: The omnibus test that gates each ranking (the papers compute post-hoc tests only after it
#: rejects).
GATES = {n: r.gate for n, r in RANKINGS_ALL.items()}

#: What ``--posthoc`` accepts, and the families each choice runs.
POSTHOC_CHOICES = {"all": ("all_pairs",), "control": ("control",), "both": ("control", "all_pairs")}

PROCEDURES = {p.name: p for p in (
    Procedure("bonferroni_dunn", ("control",), "the Bonferroni-Dunn procedure", "Bonferroni-Dunn"),
    Procedure("holm", ("control", "all_pairs"), "Holm's procedure", "Holm"),
    Procedure("hochberg", ("control",), "Hochberg's procedure", "Hochberg"),
    Procedure("hommel", ("control",), "Hommel's procedure", "Hommel"),
    Procedure("holland", ("control",), "Holland's procedure", "Holland"),
    Procedure("rom", ("control",), "Rom's procedure", "Rom"),
    Procedure("finner", ("control",), "Finner's procedure", "Finner"),
    Procedure("li", ("control",), "Li's procedure", "Li"),
    Procedure("nemenyi", ("all_pairs",), "the Nemenyi test", "Nemenyi"),
    Procedure("bonferroni", ("all_pairs",), "the Bonferroni correction", "Bonferroni"),
    Procedure("shaffer", ("all_pairs",), "Shaffer's static procedure", "Shaffer"),
    Procedure("bergmann_hommel", ("all_pairs",), "the Bergmann-Hommel procedure",
              "Bergmann-Hommel"),
    Procedure("sidak", ("control", "all_pairs"), "the Šidák correction", "Šidák"),
    Procedure("benjamini_hochberg", ("control", "all_pairs"),
              "the Benjamini-Hochberg procedure (false discovery rate)", "BH (FDR)"),
    Procedure("benjamini_yekutieli", ("control", "all_pairs"),
              "the Benjamini-Yekutieli procedure (false discovery rate)", "BY (FDR)"),
    Procedure("tukey", ("all_pairs",), "Tukey's test", "Tukey", anova_only=True),
    Procedure("dunnett", ("control",), "Dunnett's test", "Dunnett", anova_only=True),
)}
#: The procedures of each family, in the order reports list them.
CONTROL_PROCEDURES = ("bonferroni_dunn", "holm", "hochberg", "hommel", "holland", "rom", "finner",
                      "li")
ALL_PAIRS_PROCEDURES = ("nemenyi", "bonferroni", "holm", "shaffer", "bergmann_hommel")
#: Available by name in both families but not in their default sets, which reproduce the
#: papers' tables (``--procedures holm,sidak``). The two Benjamini procedures control the false
#: discovery rate, not the family-wise error rate; their titles say so wherever they are printed.
OPTIONAL_PROCEDURES = ("sidak", "benjamini_hochberg", "benjamini_yekutieli")
assert all("control" in PROCEDURES[n].families for n in CONTROL_PROCEDURES)
assert all("all_pairs" in PROCEDURES[n].families for n in ALL_PAIRS_PROCEDURES)

FIGURES = {f.name: f for f in (
    FigureKind("control_diagram", "Comparison with a control"),
    FigureKind("cd_diagram", "Critical-difference diagram"),
    FigureKind("pvalue_heatmap", "Pairwise adjusted p-values"),
    FigureKind("bayesian_simplex", "Posterior of the Bayesian test"),
    FigureKind("rank_intervals", "Mean ranks of every learner"),
    FigureKind("mcm", "Multi-comparison matrix"),
    FigureKind("groups", "Scott-Knott ESD groups"),
    FigureKind("p_best", "Which learner is the best? (posterior)"),
    FigureKind("rank_sets", "How sure: rank sets and fragile claims"),
    FigureKind("multiverse", "Another reasonable analysis (specification curve)"),
    FigureKind("per_dataset", "Data set by data set: differences from the base"),
)}


def test_title(name: str) -> str:
    """``"the Iman-Davenport test"``: a test's name in prose."""
    return TESTS[name].title if name in TESTS else name


def ranking_title(name: str) -> str:
    """``"Friedman mean ranks"``: where a post-hoc ranking's pairwise statistics come from."""
    return RANKINGS_ALL[name].title if name in RANKINGS_ALL else name


def procedure_title(name: str) -> str:
    """``"Holm's procedure"``: an adjustment procedure in prose."""
    return PROCEDURES[name].title if name in PROCEDURES else name


def label(name: str) -> str:
    """The short label of a test or procedure, as a table shows it."""
    for table in (TESTS, PROCEDURES):
        if name in table:
            return table[name].label
    return name


# The choices of the options, one place for the code that validates them and for the command
# line that lists them in --help.
CONVENTIONS = ("default", "paper")
ALTERNATIVES = ("two-sided", "greater", "less")
AGGREGATES = ("median", "mean")
#: compare --criteria: each learner's point on a criterion over the data sets.
FRONT_SUMMARIES = ("auto", "mean", "median", "rank")
MISSING_POLICIES = ("refuse", "drop-datasets", "drop-learners", "skillings-mack", "worst")
#: ``--missing impute:LEARNER`` fills a missing cell with that learner's score (not in the list:
#: it takes a name).
MISSING_IMPUTE = "impute:"


#: A leaderboard keeps a missing result by default: two learners battle where both have one.
MISSING_KEEP = "keep"
#: ``rankwise leaderboard --missing``: compare's policies that make sense for a board (not
#: Skillings-Mack's test, which is compare's), with ``keep`` first, the board's default.
BOARD_MISSING = (MISSING_KEEP,) + tuple(p for p in MISSING_POLICIES if p != "skillings-mack")


def imputed_from(policy: str) -> str | None:
    """The learner of ``impute:LEARNER``, or None for any other missing-cells policy."""
    return policy[len(MISSING_IMPUTE):] if policy.startswith(MISSING_IMPUTE) else None
#: ``--mcm``: the multi-comparison matrix, plain or with Holm-adjusted p-values.
MCM_CHOICES = ("plain", "holm")
#: ``rank_sets=`` (``--rank-sets``): confidence sets for the ranks by mean rank or by mean score.
RANK_SET_BASES = ("ranks", "scores")
#: The rank-group methods of ``groups=`` (``--groups``).
GROUP_METHODS = ("scott-knott-esd", "scott-knott-esd-np", "scott-knott-bootstrap")
#: ``--decimal``: the decimal marks a table's numbers may use.
DECIMAL_MARKS = (".", ",")
#: ``--format`` of the commands that print a summary (power, status), not a report.
SUMMARY_FORMATS = ("text", "json")
#: ``--duplicates``: repeated rows of a long table.
DUPLICATES = ("refuse", "last", "first")
SHAPES = ("auto", "wide", "long")
FRIEDMAN_METHODS = ("auto", "chi2", "exact", "monte-carlo")
ZERO_METHODS = ("demsar", "zsplit", "pratt", "wilcox")
SIGN_TIES = ("split", "drop")
WILCOXON_METHODS = ("auto", "exact", "normal")
BAYESIAN_TESTS = ("sign", "signed-rank", "correlated-t", "hierarchical")
#: Bayesian models of the whole table (the bayes extra), a report section of their own.
BAYESIAN_MODELS = ("plackett-luce", "bradley-terry")


@dataclass(frozen=True)
class Source:
    """One value of ``--source``: a reader of one kind of file."""

    name: str
    family: str        # "table" (load_table), "items" (read_items), "curves" (read_curves) or
    #                    "votes" (read_votes)
    description: str   # what it reads, in one line: --help and the messages say it


#: Every ``--source``, declared once: the help of ``--source``, its choices, the one message for
#: an unknown one, and the detection of ``auto`` (:mod:`rankwise.tables.registry`, which gives
#: each its detector) read this table. A family's order is the order detection tries them.
#: ``table``: score tables, rankwise's own or another tool's format (``load_table``,
#: tables/sources.py). ``items``: model evaluations scored item by item (``compare --items``);
#: ``items-stream`` is a Parquet long table read one task at a time (Dask), for tables larger
#: than memory. ``curves``: performance over a budget (``rankwise curves``). ``votes``: logs of
#: pairwise votes, arena battles and judge verdicts (``read_votes``); the tools' layouts come
#: first, so that detection tries them before the plain long table.
SOURCES = tuple(Source(*entry) for entry in (
    ("rankwise", "table", "rankwise's own wide or long table"),
    ("amlb", "table", "AutoML benchmark results.csv"),
    ("openml", "table", "OpenML evaluation listing"),
    ("mlr3", "table", "mlr3 benchmark table"),
    ("weka", "table", "WEKA Experimenter results"),
    ("tabarena", "table", "TabArena per-split results"),
    ("every-eval-ever", "table", "Every Eval Ever records"),
    ("mlflow", "table", "MLflow tracking store or runs CSV"),
    ("wandb", "table", "Weights & Biases runs export"),
    ("items", "items", "long table model, task, item, score"),
    ("lm-eval", "items", "lm-eval samples_*.jsonl"),
    ("inspect", "items", "inspect_ai .eval/.json logs"),
    ("helm", "items", "HELM per_instance_stats.json"),
    ("swe-bench", "items", "SWE-bench run report"),
    ("every-eval-ever-items", "items", "Every Eval Ever samples"),
    ("openeval", "items", "OpenEval items"),
    ("items-stream", "items", "Parquet items read task by task with Dask"),
    ("items-duckdb", "items", "Parquet items queried by DuckDB"),
    ("curves", "curves", "long table learner, problem, run, budget, value"),
    ("ioh", "curves", "IOHprofiler folder of .json and .dat files"),
    ("optuna", "curves", "Optuna storage .db or trials_dataframe() CSV"),
    ("rankwise", "curves", "results database of rankwise run --budgets"),
    ("arena", "votes", "FastChat/LMArena battles: clean_battle JSON or Parquet"),
    ("mt-bench", "votes", "MT-Bench pairwise or human judgments"),
    ("arena-hard", "votes", "arena-hard-auto model_judgment files"),
    ("votes", "votes", "long table model_a, model_b, winner (or wins_a, wins_b, ties)"),
))
SOURCE_FAMILIES = ("table", "items", "curves", "votes")
assert {s.family for s in SOURCES} == set(SOURCE_FAMILIES)


def source_names(*families: str) -> tuple:
    """The names of the sources of ``families``, in the registry's order."""
    return tuple(s.name for s in SOURCES if s.family in families)


def source_help(lead: str, families: tuple, auto: str) -> str:
    """``--source``'s help: ``lead``, then ``auto`` and every registered source of
    ``families``: with what each reads where they are few; by name, family by family, where
    they are many (compare's help then stays within two screens at 80 columns)."""
    chosen = [s for s in SOURCES if s.family in families]
    if len(chosen) <= 8:
        return f"{lead} auto ({auto}); " + "; ".join(f"{s.name} ({s.description})"
                                                     for s in chosen) + "."
    return (f"{lead} auto ({auto}); " + "; ".join(
        f"{family}: " + ", ".join(s.name for s in chosen if s.family == family)
        for family in families) + " (guide: input).")


ITEM_SOURCES = source_names("items")
#: The readers of performance over a budget (``rankwise curves --source``).
CURVE_SOURCES = source_names("curves")
#: The readers of vote logs (``read_votes(source=...)``).
VOTE_SOURCES = source_names("votes")
#: What ``load_table``, ``compare`` and the other commands of a table take as ``--source``:
#: ``auto`` (detected), the table formats, and the item readers (routed to ``read_items``).
SOURCE_FORMATS = ("auto",) + source_names("table", "items")
#: What the verdict speaks in: the frequentist decisions, or a Bayesian posterior first.
VERDICT_BASES = ("frequentist", "bayesian")
POSTHOC_FAMILIES = ("all", "control", "both")
REPORT_FORMATS = ("text", "json", "markdown", "latex", "html")
#: ``rankwise leaderboard --format``: the report's formats and a CSV of the board.
BOARD_FORMATS = ("text", "json", "csv", "markdown", "latex", "html")
EFFECTS_MODES = ("auto", "all", "verdict", "none")


@dataclass(frozen=True)
class BestSetProcedure:
    """A way of deciding which learners are "tied with #1" (the best set)."""

    name: str
    title: str        # in prose, after "by": "pairwise tests against the best"
    explanation: str  # what "tied with #1" then means, in one clause


#: The one family of "tied with #1" procedures: every analysis decides its best set by one of
#: these and says which (``best_set.procedure`` in its JSON, a sentence in its verdict).
BEST_SETS = {b.name: b for b in (
    BestSetProcedure(
        "against-best", "pairwise tests against the best, adjusted",
        "not significantly worse than the best in a paired test against it, after the"
        " multiplicity adjustment named"),
    BestSetProcedure(
        "max-t", "a max-t test on the bootstrap of the macro-average",
        "the bootstrap's simultaneous one-sided test does not place it below the best"),
    BestSetProcedure(
        "rank-sets", "simultaneous rank confidence sets",
        "its simultaneous rank confidence set contains rank 1"),
)}
