"""rankwise: honest comparisons of learners over many data sets.

A flat public API: read a table, rank it, run the tests. Every test returns a
:class:`TestResult` (statistic, pvalue, method, convention, details, notes); :func:`compare`
runs everything at once and returns a :class:`Comparison`.

The package is organised in wings (docs/about/architecture.md): ``stats`` (numbers in,
result objects out), ``tables`` (reading score tables), ``analysis`` (one call that decides
everything), ``report`` (writers that only read an analysis), ``experiment`` (running
cross-validation experiments) and ``cli``. The names below are imported on first use (PEP 562),
so that ``import rankwise`` and the command line start without loading numpy, scipy, pandas,
matplotlib or scikit-learn.
"""

import importlib as _importlib
import sys as _sys
import types as _types

from . import _compat
from ._version import __version__
from .errors import RankwiseError, RankwiseWarning

#: flat name -> the module that defines it
_LAZY = {
    **dict.fromkeys(("Comparison", "compare", "BayesianOptions", "PerDatasetOptions",
                     "PosthocOptions", "Presentation", "RankSetOptions", "WilcoxonOptions"),
                    "rankwise.analysis"),
    **dict.fromkeys(("EXAMPLES", "load_example", "load_items_example", "load_curves_example",
                     "load_votes_example"), "rankwise.examples"),
    "Votes": "rankwise.tables.battles",
    "read_votes": "rankwise.tables.battle_readers",
    **dict.fromkeys(("AoccOptions", "CurveComparison", "compare_curves"),
                    "rankwise.analysis.curves"),
    **dict.fromkeys(("Curves", "read_curves"), "rankwise.tables.curves"),
    **dict.fromkeys(("CriteriaComparison", "compare_criteria"), "rankwise.analysis.fronts"),
    **dict.fromkeys(("ItemComparison", "compare_items"), "rankwise.analysis.items"),
    **dict.fromkeys(("ItemTable", "read_items"), "rankwise.tables.items"),
    **dict.fromkeys(("write_every_eval_ever_items", "write_every_eval_ever"), "rankwise.tables.eval_records"),
    **dict.fromkeys(("DatasetSpec", "Experiment", "Learner", "load_experiment",
                     "run_experiment"), "rankwise.experiment"),
    **dict.fromkeys(("ALL_PAIRS_PROCEDURES", "CONTROL_PROCEDURES", "OMNIBUS_TESTS", "RANKINGS",
                     "TWO_LEARNER_TESTS"), "rankwise.names"),
    **dict.fromkeys(("ContrastEstimation", "CriticalValue", "LetterDisplay", "MultipleSignTest",
                     "RankSets", "TukeyDunnett", "WinTieLoss", "TestResult", "adjust", "aligned_ranks", "bayesian_sign_test",
                     "bayesian_signed_rank_test", "bergmann_hommel", "cliffs_delta",
                     "cohens_dz", "compact_letters", "contrast_estimation", "correlated_t_test",
                     "critical_difference", "effect_sizes", "friedman", "friedman_aligned",
                     "hodges_lehmann", "iman_davenport", "mean_rank_intervals",
                     "mean_rank_sets", "mean_ranks", "rank_confidence_sets",
                     "multiple_sign_test", "nemenyi_pvalues", "paired_ttest",
                     "pairwise_statistics", "probability_of_superiority", "quade",
                     "quade_weights", "rank_within_datasets", "rm_anova", "sign_test",
                     "skillings_mack", "tukey_dunnett", "wilcoxon", "wilcoxon_critical_value",
                     "win_tie_loss"),
                    "rankwise.stats"),
    **dict.fromkeys(("ScoreTable", "load_table"), "rankwise.tables"),
    **dict.fromkeys(("from_cross_validate", "from_search"), "rankwise.tables.from_sklearn"),
    "multi_comparison_matrix": "rankwise.analysis.mcm",
    "scott_knott_esd": "rankwise.analysis.scott_knott",
    **dict.fromkeys(("DatasetCheck", "dataset_check"), "rankwise.analysis.dataset_check"),
    "Multiverse": "rankwise.analysis.multiverse",
    **dict.fromkeys(("Race", "race"), "rankwise.stats.racing"),
    **dict.fromkeys(("Leaderboard", "leaderboard"), "rankwise.analysis.leaderboard"),
    **dict.fromkeys(("Gate", "gate"), "rankwise.analysis.gate"),
    **dict.fromkeys(("Plan", "plan"), "rankwise.analysis.plan"),
    "log_to_mlflow": "rankwise.report.tracking",
    **dict.fromkeys(("Concordance", "kendalls_w", "page_trend", "durbin", "durbin_conover"),
                    "rankwise.stats.family"),
}

__all__ = sorted(_LAZY) + ["RankwiseError", "RankwiseWarning", "__version__"]


def __getattr__(name):
    if name in _LAZY:
        value = getattr(_importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'rankwise' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY))


_compat.install()


class _Package(_types.ModuleType):
    """Importing an old module path (``import rankwise.compare``) makes Python set the module as
    an attribute of the package; a flat-API name of the same spelling must keep its meaning."""

    def __setattr__(self, name, value):
        if isinstance(value, _types.ModuleType) and name in _LAZY:
            return
        super().__setattr__(name, value)


_sys.modules[__name__].__class__ = _Package
