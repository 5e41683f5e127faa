"""Experiments: R repeats × N-fold stratified cross-validation of learners over data sets.

The design (``design``), data sources and the KEEL parser (``datasets``, ``keel``), criteria
(``criteria``), one task (``tasks``), where tasks run (``executors``), the driver that plans,
resumes and commits (``driver``), the race inside a run (``racing``), the SQLite results store
(``store``) and the progress bar (``progress``). Imports stay inside this wing, plus
:mod:`rankwise.errors`, and for the race the statistics of :mod:`rankwise.stats.racing`.
"""

from .datasets import DatasetSpec
from .design import (Experiment, Learner, derive_seed, experiment_from_dict, import_estimator,
                     load_experiment)
from .driver import run_experiment
from .racing import RaceSettings

__all__ = ["DatasetSpec", "Experiment", "Learner", "RaceSettings", "derive_seed",
           "experiment_from_dict", "import_estimator", "load_experiment", "run_experiment"]
