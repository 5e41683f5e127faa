"""Planning the next experiment: what buys certainty next, and the rank to expect on the next
data set.

- :mod:`.design`: the design of a pilot (learners crossed with data sets, folds within
  repeats within data sets, items within tasks, trials) and its variance components by the
  ANOVA's expected mean squares (balanced designs);
- :mod:`.reml`: the same components by restricted maximum likelihood (any design, balanced
  or not);
- :mod:`.projection`: D-studies of any design with a cost per unit: Eρ², Φ, the standard
  error of a difference, the resolution floor, the expected rank-set widths;
- :mod:`.signal`: a suite's signal-to-noise ratio and decision accuracy;
- :mod:`.next_rank`: prediction intervals of each learner's rank on a new data set.
"""
