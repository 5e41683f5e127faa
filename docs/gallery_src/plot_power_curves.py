"""
Power and replicability curves
==============================

``rankwise power`` draws data sets from a pool of results, adds a bias to one learner, and
counts how often each test rejects (power) and how often two independent studies agree
(replicability), as in Demšar's (2006) §4 experiment. A small study here (200 draws); the
command line default is 1,000.
"""

import rankwise
from rankwise.power import power_study
from rankwise.report.power import figures

study = power_study(rankwise.load_example("demsar2006_table2"), sample_size=10,
                    biases=[0, 0.01, 0.02, 0.04], draws=200, seed=1)
curves = figures(study)
rejection = curves["power_rejection"]

# %%
# Replicability: the probability that two independent studies of the same size reach the
# same decision.

replicability = curves["power_replicability"]
