"""Planning the next experiment: what buys certainty next, and the rank to expect on the next
data set (:func:`rankwise.plan` puts them together; ``rankwise plan`` on the command line).

- :mod:`.pilot`: a pilot (a score table, the folds of its repeats, scored items, curves) as
  its design and its scores;
- :mod:`.design`: designs of crossed and nested facets and their variance components by the
  ANOVA's expected mean squares (balanced designs);
- :mod:`.reml` and :mod:`.fit`: the same components by restricted maximum likelihood (any
  design, balanced or not);
- :mod:`.projection`: D-studies of any design at a cost: Eρ², Φ, the standard error of a
  difference, the resolution floor, the fewest levels needed, the cheapest design, the
  expected separations;
- :mod:`.signal`: a suite's signal-to-noise ratio and decision accuracy (smaller suites,
  smaller budgets);
- :mod:`.next_rank`: prediction intervals of each learner's rank on a new data set.
"""
