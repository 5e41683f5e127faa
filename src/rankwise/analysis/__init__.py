"""The analysis: one call, :func:`compare`, computes every test, gate, post-hoc family, figure
decision and the verdict once, and keeps them as typed result objects on a :class:`Comparison`.

Imports go down to :mod:`rankwise.stats` and :mod:`rankwise.tables`; never to the reports.
"""

from .compare import Comparison, compare
from .option_groups import (BayesianOptions, PerDatasetOptions, PosthocOptions, Presentation,
                            RankSetOptions, WilcoxonOptions)

__all__ = ["BayesianOptions", "Comparison", "PerDatasetOptions", "PosthocOptions",
           "Presentation", "RankSetOptions", "WilcoxonOptions", "compare"]
