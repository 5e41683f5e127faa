"""rankwise: honest comparisons of learners over many data sets.

A flat public API: read a table, rank it, run the tests. Every test returns a
:class:`TestResult` (statistic, pvalue, method, convention, details, notes).
"""

from .adjust import ALL_PAIRS_PROCEDURES, CONTROL_PROCEDURES, adjust
from .bergmann_hommel import bergmann_hommel
from .compare import OMNIBUS_TESTS, TWO_LEARNER_TESTS, Comparison, compare
from .data import ScoreTable, load_table
from .datasets import DatasetSpec
from .errors import RankwiseError
from .experiment import Experiment, Learner, load_experiment
from .examples import EXAMPLES, load_example
from .omnibus import friedman, friedman_aligned, iman_davenport, quade, rm_anova
from .posthoc import (RANKINGS, contrast_estimation, critical_difference, multiple_sign_test,
                      nemenyi_pvalues, pairwise_statistics, tukey_dunnett)
from .ranking import aligned_ranks, mean_ranks, quade_weights, rank_within_datasets
from .results import TestResult
from .two_learners import (paired_ttest, sign_test, wilcoxon, wilcoxon_critical_value,
                           win_tie_loss)

__version__ = "0.1.0"

from .runner import run_experiment  # noqa: E402

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
