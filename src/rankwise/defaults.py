"""Every default of rankwise, and its seed policy, in one place.

Seeds. Every sampler a user can seed takes ``seed=`` (``--seed`` on its command), a whole
number from 0 to :data:`SEED_MAX` (2**64 − 1; anything else is refused in one line by
:func:`rankwise._validate.seed`), every output echoes the seed it drew with, and the same
seed gives the same draws on one core or several, called from Python or from the command line. Each analysis has one default seed, declared
here and nowhere else (a test walks the package for a second literal):

- :data:`DEFAULT_SEED`: :func:`rankwise.compare` and every sampler it calls (the Bayesian
  sign, signed-rank and hierarchical tests, the Plackett-Luce and Bradley-Terry models, the
  bootstrap Scott-Knott groups, rank confidence sets, Kendall's W), the race's order and the
  fronts (:func:`rankwise.compare_criteria`);
- :data:`LEADERBOARD_SEED` (0): the leaderboard's bootstrap, TabArena's own, so that its
  intervals are reproduced;
- :data:`ITEM_SEED` and :data:`CURVE_SEED`: the items' and the curves' bootstraps (kept since
  0.9, whose published outputs they drew);
- :data:`POWER_SEED`: a power study's samples.

Two approximations inside the tests have fixed seeds, so that an analysis is reproducible
without one, and every output that uses them says so: the Monte Carlo p-value of the Friedman
and Skillings-Mack tests (:data:`MONTE_CARLO_SEED`) and the bootstrap intervals of the mean ranks
(:data:`RANK_BOOTSTRAP_SEED`). The draws themselves come from one primitive,
:mod:`rankwise.stats.resample`.
"""

#: Scores and their differences are rounded to this many decimals before any comparison.
DEFAULT_DECIMALS = 12
#: The seed of every user-seedable sampler (see the module docstring).
DEFAULT_SEED = 20170101
#: The largest seed any ``seed=`` or ``--seed`` takes (the smallest is 0).
SEED_MAX = 2 ** 64 - 1
#: Posterior samples of the Bayesian sign and signed-rank tests.
BAYESIAN_SAMPLES = 50_000
#: A Bayesian decision is drawn when a posterior probability reaches this.
BAYESIAN_THRESHOLD = 0.95
#: Draws per chain of the NUTS models (hierarchical test, Plackett-Luce, Bradley-Terry).
MODEL_DRAWS = 2000
#: The seed and the number of draws of a power study.
POWER_SEED = 2006
POWER_DRAWS = 1000
#: Data sets per draw of a power study unless a size (or a range) is given.
POWER_SAMPLE_SIZE = 10
#: The seed of the Monte Carlo permutation p-values (Friedman, Skillings-Mack).
MONTE_CARLO_SEED = 20_170_000
#: The seed of the bootstrap intervals of the mean ranks.
RANK_BOOTSTRAP_SEED = 20060101
#: The leaderboard's bootstrap of the data sets (``rankwise leaderboard --rounds --seed``):
#: TabArena's defaults (bencheval draws its 100 resamples with ``default_rng(0)``), so that its
#: intervals are reproduced.
LEADERBOARD_ROUNDS = 100
LEADERBOARD_SEED = 0
#: The leaderboard's figures (Elo with intervals, the win-rate matrix) draw every learner up to
#: this many, the board's best beyond (``--figure-top N``: fewer); the matrix is kept up to as
#: many learners.
LEADERBOARD_FIGURE_MOST = 300
#: Up to this many learners the outputs hold every pair (k × k matrices in the JSON, pairs.csv,
#: the heat map of every learner); above it, what the reports show and what scales with k.
PAIR_MATRIX_MAX_LEARNERS = 1_000
#: The seed of the sample of pairs that places the block boundaries of a streamed all-pairs
#: family (it changes the blocks, never a number).
ALL_PAIRS_EDGE_SEED = 35
#: Items (model evaluations scored item by item): resamples of the paired bootstrap and sign-flip
#: permutation draws per task, and the two-level bootstrap of the macro-average; their seed.
ITEM_DRAWS = 2000
ITEM_SEED = 2411
#: McNemar's test is exact (binomial on the discordant items) below this many discordant items,
#: the chi-square with continuity correction from it on.
MCNEMAR_EXACT_BELOW = 25
#: Curves (performance over a budget): bootstrap draws of the problems behind the rank band
#: (simultaneous over learners and budgets), and their seed.
CURVE_DRAWS = 2000
CURVE_SEED = 4902

#: compare --criteria: bootstrap rounds of the front's membership probability, and splits of each
#: pairwise GSD permutation test (every split when there are fewer; each split is a linear
#: programme of a few milliseconds to a few tens: 200 resolve p-values to 1/201).
FRONT_ROUNDS = 1000
FRONT_PERMUTATIONS = 200
#: ... and each learner's point on a criterion (one of names.FRONT_SUMMARIES; ``auto``: the
#: mean, or the mean within-data-set rank where the criterion's scale differs more than a
#: hundredfold across the data sets).
FRONT_SUMMARY = "auto"
