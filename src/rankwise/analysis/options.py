"""The settings of one analysis, checked once into a frozen :class:`Options` (scipy's ``_iv``
pattern): :func:`compare` validates its arguments here, then every step reads them."""

from __future__ import annotations

from dataclasses import field, make_dataclass

import numpy as np

from .. import _validate as check
from ..errors import RankwiseError
from ..option_table import BY_NAME, NAMES
from ..names import (ALL_PAIRS_PROCEDURES, BAYESIAN_MODELS, GROUP_METHODS, OMNIBUS_TESTS,
                     OPTIONAL_PROCEDURES, RANK_SET_BASES, TWO_LEARNER_TESTS, VERDICT_BASES)
from ..stats.bayesian import BAYESIAN_TESTS
from ..stats.omnibus import FRIEDMAN_METHODS
from ..stats.two_learners import SIGN_TIES, ZERO_METHODS
from .effects import effects_mode
from .pool import POOL_MAX_LEARNERS
from .posthoc import resolve_rankings
from .verdict import check_procedure


def _as_dict(self) -> dict:
    """The settings as :func:`compare` takes them (``Comparison.options``)."""
    return {name: getattr(self, name) for name in NAMES}


#: What the analysis made of the settings for this table, with their values before it looks.
_DERIVED = (("used_pair", None), ("family", None), ("used_tests", None), ("complete", True),
            ("used_confidence", None))

#: Every setting of :func:`compare` (one field per option of ``rankwise.option_table``), in
#: its canonical form: the value the command line writes, so that :meth:`as_dict` re-runs the
#: same analysis (an inferred default stays None); then what the analysis made of them for
#: this table (``used_pair``, ``family``, ``used_tests``, ``complete``, ``used_confidence``).
Options = make_dataclass(
    "Options", [(name, object) for name in NAMES]
    + [(name, object, field(default=value)) for name, value in _DERIVED],
    frozen=True, namespace={"as_dict": _as_dict, "__module__": __name__})


def validate(table, given: dict) -> Options:
    """``given`` (the keyword arguments of :func:`compare`) checked against each other and the
    table; a :class:`RankwiseError` names the first problem."""
    check.real_scores(table.values, names=(table.datasets, table.learners))
    checked = _checked_values(given)
    _check_procedures(checked)
    k = table.n_learners
    pair = _pair(table, checked["pair"])
    _trend(table, checked["trend"])
    # with two learners and the per-data-set tests, --control names their base learner only
    base_only = k == 2 and checked["per_dataset"] is not None and checked["posthoc"] is None
    family = "control" if checked["control"] is not None and checked["posthoc"] is None \
        and not base_only else checked["posthoc"]
    if base_only and checked["control"] not in (None, "best"):
        table.column(checked["control"])  # an unknown name is refused, naming the learners
    _check_posthoc_choices(checked, family)
    _check_table_options(checked, k)
    _check_scale(checked, k)
    complete = not np.isnan(table.values).any()
    if not complete:
        _check_incomplete(checked)
    confidence = checked["confidence"]
    return Options(**checked, used_pair=pair, family=family, complete=complete,
                   used_tests=_tests(checked["tests"], k, pair, complete),
                   used_confidence=1.0 - checked["alpha"] if confidence is None else confidence)


def _check_scale(checked: dict, k: int) -> None:
    """Above ``PAIR_MATRIX_MAX_LEARNERS`` learners, the analyses that hold every pair (or a
    k × k matrix) at once are refused in one line, before any work: they would take hours or
    more memory than the machine has, where the default analysis takes seconds."""
    from ..defaults import PAIR_MATRIX_MAX_LEARNERS as limit

    if k <= limit:
        return
    asked = [(checked["rank_sets"] is not None, "--rank-sets (every pair of mean ranks, 1,000"
              " draws)"),
             (bool(checked["mcm"]), "--mcm (a Wilcoxon test of every pair)"),
             (checked["groups"] is not None, "--groups (Scott-Knott splits of every learner)"),
             (checked["bayesian"] in BAYESIAN_MODELS, f"--bayesian {checked['bayesian']} (a"
              " model with a parameter per learner, sampled)")]
    for wanted, what in asked:
        if wanted:
            raise RankwiseError(f"{what} is computed up to {limit:,} learners ({k:,} here);"
                                " the default analysis and --posthoc all cover every learner")


def _checked_values(given: dict) -> dict:
    """Each setting on its own: ranges, choices and types."""
    out = dict(given, rank_intervals=bool(given["rank_intervals"]),
               figure_title=bool(given["figure_title"]), pool_check=bool(given["pool_check"]),
               dataset_check=bool(given["dataset_check"]))
    out["alpha"] = check.alpha(given["alpha"])
    out["convention"] = check.convention(given["convention"])
    out["decimals"] = check.decimals(given["decimals"])
    check.choice("zero_method", given["zero_method"], ZERO_METHODS)
    check.choice("wilcoxon_method", given["wilcoxon_method"], ("auto", "exact", "normal"))
    check.choice("sign_ties", given["sign_ties"], SIGN_TIES)
    out["alternative"] = check.alternative(given["alternative"])
    out["continuity_correction"] = bool(given["continuity_correction"])
    check.choice("friedman_method", given["friedman_method"], FRIEDMAN_METHODS)
    if given["confidence"] is not None:
        out["confidence"] = check.confidence(given["confidence"])
    digits = given["digits"]
    if digits is not None and (isinstance(digits, bool) or not isinstance(digits, int)
                               or not 0 <= digits <= 12):
        raise RankwiseError(f"digits must be a whole number from 0 to 12; got {digits!r}")
    _check_bayesian(given)
    check.seconds("the Bergmann-Hommel time budget (--bh-time-budget)", given["bh_time_budget"])
    out["effects"] = effects_mode(given["effects"])
    out["tests"] = None if given["tests"] is None else tuple(check.parse_list(given["tests"]))
    out["procedures"], out["rankings"] = (
        None if given[key] is None else tuple(check.parse_list(given[key]))
        for key in ("procedures", "rankings"))
    out["pair"] = None if given["pair"] is None else tuple(given["pair"])
    out["trend"] = None if given["trend"] is None else tuple(check.parse_list(given["trend"]))
    top = given["top"]
    if top is not None and (isinstance(top, bool) or not isinstance(top, int) or top < 0):
        raise RankwiseError(f"top must be a whole number (0 or None: every learner); got {top!r}")
    out["top"] = top or None   # 0 and None: every learner
    out["rank_sets"], out["rank_sets_marginal"] = _rank_sets(given)
    (out["per_dataset"], out["per_dataset_adjust"], out["per_dataset_marks"],
     out["test_fraction"]) = _per_dataset(given)
    if given["multiverse"] not in (None, False):
        from .grid import read_grid

        read_grid(given["multiverse"])  # a bad grid is refused before any analysis runs
        if hasattr(given["multiverse"], "__fspath__"):
            out["multiverse"] = str(given["multiverse"])
    else:
        out["multiverse"] = None
    return out


def _per_dataset(given: dict) -> tuple:
    """``(tests or None, adjustment, marks, test fraction)`` of the per-data-set tests."""
    from .per_dataset import PER_DATASET_ADJUST, PER_DATASET_MARKS, PER_DATASET_TESTS

    tests = given["per_dataset"]
    tests = "corrected" if tests is True else None if tests in (False, None) else tests
    if tests is not None:
        check.choice("per_dataset", tests, PER_DATASET_TESTS)
    adjust = check.choice("per_dataset_adjust", given["per_dataset_adjust"], PER_DATASET_ADJUST)
    marks = check.choice("per_dataset_marks", given["per_dataset_marks"], PER_DATASET_MARKS)
    fraction = given["test_fraction"]
    if fraction is not None:
        fraction = check.fraction(fraction)
    if tests is None and (fraction is not None or adjust != "none" or marks != "better"):
        raise RankwiseError("--test-fraction, --per-dataset-adjust and --per-dataset-marks go"
                            " with --per-dataset")
    return tests, adjust, marks, fraction


def _rank_sets(given: dict) -> tuple:
    """``(basis or None, marginal)``: True means the mean ranks; marginal sets need a basis."""
    basis, marginal = given["rank_sets"], bool(given["rank_sets_marginal"])
    basis = "ranks" if basis is True else None if basis in (False, None) else basis
    if basis is not None:
        check.choice("rank_sets", basis, RANK_SET_BASES)
    elif marginal:
        raise RankwiseError("--marginal-rank-sets (RankSetOptions(marginal=)) goes with"
                            " --rank-sets ranks or scores")
    return basis, marginal


def _check_bayesian(given: dict) -> None:
    bayesian, verdict = given["bayesian"], given["verdict"]
    if bayesian is not None:
        check.choice("bayesian", bayesian, BAYESIAN_TESTS + BAYESIAN_MODELS)
    check.choice("verdict", verdict, VERDICT_BASES)
    if verdict == "bayesian" and bayesian is None:
        raise RankwiseError("the Bayesian verdict speaks in the terms of a Bayesian analysis;"
                            " choose one with --bayesian (bayesian=): plackett-luce,"
                            " bradley-terry, hierarchical, signed-rank, sign or correlated-t")
    check.rope(given["rope"])
    check.threshold(given["threshold"])
    check.seed(given["seed"])
    _check_unused_bayesian(given)


#: What each Bayesian analysis reads of --rope and --draws (the models draw 4 chains of their
#: own, and the correlated t-test is closed-form).
_USES = {None: (), "sign": ("rope", "draws"), "signed-rank": ("rope", "draws"),
         "correlated-t": ("rope",), "hierarchical": ("rope",), "plackett-luce": (),
         "bradley-terry": ()}
_SETTING = {name: (f"{BY_NAME[name].flag} (BayesianOptions({BY_NAME[name].in_group}=))",
                   BY_NAME[name].default)
            for name in ("rope", "draws", "threshold")}


def _check_unused_bayesian(given: dict) -> None:
    """A Bayesian setting given where nothing reads it is refused (a mistyped analysis would
    otherwise run without it, silently)."""
    bayesian = given["bayesian"]
    uses = _USES[bayesian] + (("threshold",) if bayesian else ())
    for name, (flag, default) in _SETTING.items():
        if name in uses or given[name] == default:
            continue
        if bayesian is None:
            raise RankwiseError(f"{flag} is a setting of a Bayesian analysis; add --bayesian"
                                " (bayesian=) or leave it out")
        why = {"plackett-luce": "has no region of practical equivalence",
               "bradley-terry": "has its own region of practical equivalence, on the probability"
                                " of winning"}.get(bayesian, "does not read it")
        if name == "draws":
            why = ("draws its own posterior (4 chains)" if bayesian in BAYESIAN_MODELS + (
                "hierarchical",) else "is in closed form")
        raise RankwiseError(f"{flag} is not used by --bayesian {bayesian}, which {why};"
                            f" leave it out")


def _check_procedures(checked: dict) -> None:
    check_procedure(checked["verdict_procedure"])
    if checked["diagram_procedure"] not in ALL_PAIRS_PROCEDURES + OPTIONAL_PROCEDURES:
        raise RankwiseError(f"the diagram procedure must be one of"
                            f" {', '.join(ALL_PAIRS_PROCEDURES)}; got"
                            f" {checked['diagram_procedure']!r}")


def _trend(table, trend) -> None:
    """Page's test needs three or more different learners of a complete table."""
    if trend is None:
        return
    if len(trend) < 3 or len(set(trend)) != len(trend):
        raise RankwiseError(f"--trend (trend=) needs at least three different learners, from the"
                            f" one predicted worst to the one predicted best; got"
                            f" {', '.join(trend)}")
    for name in trend:
        table.column(name)
    if np.isnan(table.values).any():
        raise RankwiseError("--trend (Page's test) needs a complete table; drop the missing"
                            " cells first (--missing drop-datasets)")


def _pair(table, pair) -> tuple | None:
    """The two learners of the two-learner tests: ``pair``, or both learners when k = 2."""
    if pair is not None:
        pair = tuple(pair)
        if len(pair) != 2 or pair[0] == pair[1]:
            raise RankwiseError("pair must name two different learners")
        for name in pair:
            table.column(name)
        return pair
    return tuple(table.learners) if table.n_learners == 2 else None


def _check_posthoc_choices(checked: dict, family) -> None:
    if family == "all" and checked["control"] not in (None, "best"):
        raise RankwiseError(f"--control {checked['control']} (PosthocOptions(control=)) chooses"
                            " the learner of"
                            " the control family, which --posthoc all does not test; use"
                            " --posthoc both (every pair, and every learner against the control)"
                            " or --posthoc control")
    if checked["rankings"] is not None:
        resolve_rankings(checked["rankings"])  # an empty or unknown ranking is an error
    for given, flag in ((checked["rankings"], "--ranking (PosthocOptions(rankings=))"),
                        (checked["procedures"], "--procedures (PosthocOptions(procedures=))")):
        if given is not None and family is None:
            raise RankwiseError(f"{flag} chooses what the post-hoc comparisons use; add --posthoc"
                                " all, control or both (posthoc= in Python)")


def _check_table_options(checked: dict, k: int) -> None:
    groups, mcm = checked["groups"], checked["mcm"]
    if groups is not None and groups not in GROUP_METHODS:
        raise RankwiseError(f"groups must be one of {', '.join(GROUP_METHODS)}; got {groups!r}")
    if mcm not in (False, True, "plain", "holm", None):
        raise RankwiseError(f"mcm must be 'plain' (or True), 'holm' or False; got {mcm!r}")
    # "plain" is the command line's word for True: one value, however it is spelled
    checked["mcm"] = True if mcm == "plain" else bool(mcm) if mcm in (None, True, False) else mcm
    if checked["pool_check"] and k > POOL_MAX_LEARNERS:
        raise RankwiseError(
            f"the pool check reanalyses the table {2 * k:,} times (each learner left out and"
            f" cloned), which takes minutes above {POOL_MAX_LEARNERS} learners; the"
            " multi-comparison matrix (--mcm) gives pair results that do not depend on the pool")
    if checked["dataset_check"] and k < 3:
        raise RankwiseError("the data-set check needs at least 3 learners: it checks the claims"
                            " of the Friedman-based verdict (with two, leave-one-out by hand:"
                            " compare on the table without each data set)")
    if checked["pool_check"] and k < 4:
        raise RankwiseError("the pool check needs at least 4 learners: leaving one out must leave"
                            " 3 for a post-hoc comparison")


def _check_incomplete(checked: dict) -> None:
    """What a table with missing cells cannot have."""
    if (checked["pool_check"] or checked["mcm"] or checked["groups"] or checked["rank_sets"]
            or checked["dataset_check"]):
        what = ("the pool check" if checked["pool_check"] else "the multi-comparison matrix"
                if checked["mcm"] else "Scott-Knott groups" if checked["groups"] else
                "a confidence set for the ranks" if checked["rank_sets"] else
                "the data-set check")
        raise RankwiseError(f"{what} needs a complete table; drop the missing cells first"
                            " (--missing drop-datasets)")
    tests = checked["tests"]
    complete_only = [name for name in tests if name in OMNIBUS_TESTS] if tests is not None \
        else []
    if complete_only:
        raise RankwiseError(f"the {complete_only[0]} test needs a complete table; with missing"
                            " cells the omnibus test is skillings_mack")


def _tests(tests, k: int, pair, complete: bool) -> tuple | None:
    """The tests to run on a complete table (default: every omnibus test for k ≥ 3 and the
    two-learner tests of the pair); a table with missing cells keeps the request as given."""
    if not complete:
        return None if tests is None else tuple(tests)
    if tests is None:
        tests = (OMNIBUS_TESTS if k >= 3 else ()) + (TWO_LEARNER_TESTS if pair else ())
    tests = tuple(tests)
    for name in tests:
        check.choice("test", name, OMNIBUS_TESTS + TWO_LEARNER_TESTS)
        if name in TWO_LEARNER_TESTS and not pair:
            raise RankwiseError(f"the {name} test compares two learners; name them with pair=")
    return tests
