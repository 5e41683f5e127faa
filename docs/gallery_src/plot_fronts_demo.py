"""
Better and cheaper: the front and the GSD relation of the demo experiment
=========================================================================

The demo experiment's accuracy against its fit time (``rankwise compare --example demo_results
--criteria accuracy,fit_time --report DIR`` writes both figures): each learner's mean with its
bootstrap intervals on both axes, shaded by how often it is on the front when the data sets are
drawn again, the front outlined; then the Hasse graph of the sample's GSD relation, the GSD
front shaded.
"""

from rankwise import compare_criteria, load_example
from rankwise.report.fronts import front_figure, hasse_figure

criteria = ["accuracy", "fit_time"]
tables = [load_example("demo_results", criterion=c) for c in criteria]
result = compare_criteria(tables, criteria)
print("front:", result.front_learners, "GSD front:", result.gsd_front_learners)
front_figure(result)
hasse_figure(result)
