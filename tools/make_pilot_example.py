"""Writes the bundled pilot results ``src/rankwise/examples/pilot_results.csv`` by running the
bundled pilot experiment ``src/rankwise/examples/pilot_experiment.toml`` with rankwise's own
runner and exporting its results database:

    rankwise run pilot_experiment.toml --results TMP/pilot.db -j 2
    rankwise export TMP/pilot.db -o src/rankwise/examples/pilot_results.csv

Five learners (CART, naive Bayes, 5-NN and logistic regression on standardised features, a
random forest of 30 trees) on 12 data sets (iris, wine, breast_cancer, the KEEL demo file
``data/clinic.dat`` and 8 synthetic ones from ``make_classification``), 20 repeats x 5-fold
cross-validation, seed 7: 6,000 tasks. The long table has accuracy and balanced_accuracy and
the fit_time and predict_time the runner records (24,000 rows, about 1.25 MB). The scores are
deterministic (the runner's seeds); the times are not.

    python tools/make_pilot_example.py   # 1 to 3.5 minutes on two cores (idle: about 75 s)
"""

import subprocess
import sys
import tempfile
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[1] / "src" / "rankwise" / "examples"
EXPERIMENT = EXAMPLES / "pilot_experiment.toml"
OUT = EXAMPLES / "pilot_results.csv"


def rankwise(*args):
    subprocess.run([sys.executable, "-m", "rankwise", *map(str, args)], check=True)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        results = Path(tmp) / "pilot.db"
        rankwise("run", EXPERIMENT, "--results", results, "-j", 2, "--quiet")
        rankwise("export", results, "-o", OUT)


if __name__ == "__main__":
    main()
