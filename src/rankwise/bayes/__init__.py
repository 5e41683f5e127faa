"""Bayesian models of the whole table (the ``rankwise[bayes]`` extra).

The models sample with NumPyro (JAX) and check their chains with ArviZ; both are imported only
when a model is asked for, and without them the call ends in one line that names the install
command. Every model is seeded, reports its chains and draws, and says when its chains have not
converged (split R-hat above ``RHAT_MAX`` or bulk effective sample size below ``ESS_MIN``), in
which case no decision rests on it.
"""

from .bradley_terry import BradleyTerry, bradley_terry
from .hierarchical import Hierarchical, hierarchical_test
from .plackett_luce import PlackettLuce, plackett_luce
from .sampling import ESS_MIN, RHAT_MAX, Diagnostics

__all__ = ["BradleyTerry", "Diagnostics", "ESS_MIN", "Hierarchical", "PlackettLuce",
           "RHAT_MAX", "bradley_terry", "hierarchical_test", "plackett_luce"]
