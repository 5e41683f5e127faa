"""The statistical core: numbers in, result objects out.

Pure functions on score matrices (rows = data sets, columns = learners): ranking, omnibus tests,
two-learner tests, pairwise statistics and adjusted p-values, Bergmann-Hommel, the ANOVA family,
the multiple sign test, contrast estimation and descriptive summaries. Nothing here reads a file,
formats text or knows about reports. Imports go only to :mod:`rankwise.names`,
:mod:`rankwise.errors` and :mod:`rankwise._validate`.

Each procedure's formula, references, paper example and cross-checking tests are in one file of
``docs/reference/``; ``ERRATA <id>`` in a docstring is an entry of ``docs/reference/errata.md``.
"""

from .adjust import adjust
from .anova import TukeyDunnett, rm_anova, tukey_dunnett
from .bayesian import bayesian_sign_test, bayesian_signed_rank_test, correlated_t_test
from .bergmann_hommel import bergmann_hommel
from .contrast import ContrastEstimation, contrast_estimation
from .effects import (cliffs_delta, cohens_dz, effect_sizes, hodges_lehmann,
                      probability_of_superiority)
from .exact import skillings_mack
from .letters import LetterDisplay, compact_letters
from .multiple_sign import MultipleSignTest, multiple_sign_test
from .omnibus import friedman, friedman_aligned, iman_davenport, quade
from .pairwise import CriticalValue, critical_difference, nemenyi_pvalues, pairwise_statistics
from .rank_sets import RankSets, mean_rank_sets, rank_confidence_sets
from .ranking import (aligned_ranks, mean_rank_intervals, mean_ranks, quade_weights,
                      rank_within_datasets)
from .results import TestResult
from .two_learners import (WinTieLoss, paired_ttest, sign_test, wilcoxon, wilcoxon_critical_value,
                           win_tie_loss)

#: Omnibus test functions by name (the names of the JSON contract).
OMNIBUS = {"friedman": friedman, "iman_davenport": iman_davenport,
           "friedman_aligned": friedman_aligned, "quade": quade, "anova": rm_anova}

__all__ = ["ContrastEstimation", "CriticalValue", "LetterDisplay", "MultipleSignTest", "OMNIBUS",
           "RankSets", "TestResult", "TukeyDunnett", "WinTieLoss", "adjust", "aligned_ranks", "bayesian_sign_test",
           "bayesian_signed_rank_test", "bergmann_hommel", "cliffs_delta", "cohens_dz",
           "compact_letters", "contrast_estimation", "correlated_t_test", "critical_difference", "effect_sizes",
           "friedman", "friedman_aligned", "hodges_lehmann", "iman_davenport",
           "mean_rank_intervals", "mean_rank_sets", "mean_ranks", "multiple_sign_test", "nemenyi_pvalues",
           "paired_ttest", "pairwise_statistics", "probability_of_superiority", "quade",
           "quade_weights", "rank_confidence_sets", "rank_within_datasets", "rm_anova", "sign_test", "skillings_mack",
           "tukey_dunnett", "wilcoxon", "wilcoxon_critical_value", "win_tie_loss"]
