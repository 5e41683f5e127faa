"""Score tables: reading and validating them (wide or long CSV/TSV, DataFrames, results
databases) into a clean :class:`ScoreTable`, and the direction of a criterion.

Imports go to :mod:`rankwise.errors` and :mod:`rankwise._validate`, and, to read a results
database, to :mod:`rankwise.experiment.store`.
"""

from .direction import criterion_direction, direction_of
from .read import load_table
from .table import ScoreTable

__all__ = ["ScoreTable", "criterion_direction", "direction_of", "load_table"]
