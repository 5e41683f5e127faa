"""rankwise: honest comparisons of learners over many data sets.

A flat public API: read a table, rank it, run the tests. Every test returns a
:class:`TestResult` (statistic, pvalue, method, convention, details, notes); :func:`compare`
runs everything at once and returns a :class:`Comparison`.

The package is organised in wings (see the README's "Architecture"): ``stats`` (numbers in,
result objects out), ``tables`` (reading score tables), ``analysis`` (one call that decides
everything), ``report`` (writers that only read an analysis), ``experiment`` (running
cross-validation experiments) and ``cli``.
"""

import sys as _sys
import types as _types

from . import _compat
from ._version import __version__
from .analysis import Comparison, compare
from .errors import RankwiseError
from .examples import EXAMPLES, load_example
from .experiment import DatasetSpec, Experiment, Learner, load_experiment, run_experiment
from .names import (ALL_PAIRS_PROCEDURES, CONTROL_PROCEDURES, OMNIBUS_TESTS, RANKINGS,
                    TWO_LEARNER_TESTS)
from .stats import (TestResult, adjust, aligned_ranks, bergmann_hommel, contrast_estimation,
                    critical_difference, friedman, friedman_aligned, iman_davenport, mean_ranks,
                    multiple_sign_test, nemenyi_pvalues, paired_ttest, pairwise_statistics, quade,
                    quade_weights, rank_within_datasets, rm_anova, sign_test, tukey_dunnett,
                    wilcoxon, wilcoxon_critical_value, win_tie_loss)
from .tables import ScoreTable, load_table

__all__ = [
    "DatasetSpec", "Experiment", "Learner", "load_experiment", "run_experiment",
    "ALL_PAIRS_PROCEDURES", "CONTROL_PROCEDURES", "RANKINGS", "adjust", "bergmann_hommel",
    "contrast_estimation", "critical_difference", "multiple_sign_test", "nemenyi_pvalues",
    "pairwise_statistics", "tukey_dunnett",
    "Comparison", "EXAMPLES", "OMNIBUS_TESTS", "RankwiseError", "ScoreTable", "TWO_LEARNER_TESTS",
    "TestResult", "aligned_ranks", "compare", "friedman", "friedman_aligned", "iman_davenport",
    "load_example", "load_table", "mean_ranks", "paired_ttest", "quade", "quade_weights",
    "rank_within_datasets", "rm_anova", "sign_test", "wilcoxon", "wilcoxon_critical_value",
    "win_tie_loss", "__version__",
]

_compat.install()


class _Package(_types.ModuleType):
    """Importing an old module path (``import rankwise.compare``) makes Python set the module as
    an attribute of the package; a flat-API function of the same name must keep its place."""

    def __setattr__(self, name, value):
        if isinstance(value, _types.ModuleType) and callable(self.__dict__.get(name)):
            return
        super().__setattr__(name, value)


_sys.modules[__name__].__class__ = _Package
