"""The power and replicability study (``rankwise power``): how often each test rejects, and how
reproducibly, when the data sets are drawn from a pool with a bias towards one learner
(Demšar 2006, §4; García et al. 2010, §6). Imports go down to :mod:`rankwise.stats`,
:mod:`rankwise.tables`, :mod:`rankwise.analysis` (its list parsing) and the shared leaves;
worker processes come from :mod:`rankwise.experiment` (imported when parallel work starts).
"""

from .study import PowerEntry, PowerStudy, power_study

__all__ = ["PowerEntry", "PowerStudy", "power_study"]
