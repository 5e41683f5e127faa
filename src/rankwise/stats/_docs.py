"""Parameter descriptions that many functions of the statistical core share, written once.

A docstring names a shared entry as ``{{name}}`` on a line of its own, in the Parameters
section; :func:`shared_docs` puts the entry there, indented as the line is, when the module is
imported (so ``help()``, the API pages and the doctests read the whole text).
"""

from __future__ import annotations

from ..defaults import BAYESIAN_SAMPLES, BAYESIAN_THRESHOLD, DEFAULT_DECIMALS, DEFAULT_SEED

PARAMETERS = {
    "x": """x : array_like, pandas.DataFrame or ScoreTable, shape (n, k)
    Scores: one row per data set, one column per learner. A :class:`~rankwise.ScoreTable`
    brings its direction (see ``higher_is_better``); a file is read first with
    :func:`~rankwise.load_table`.""",
    "x_learners": """x : array_like, pandas.DataFrame or ScoreTable, shape (n, k)
    Scores: one row per data set, one column per learner. A :class:`~rankwise.ScoreTable`
    brings its direction and its learners' names, a DataFrame its columns' names.
learners : sequence of str
    The learners' names (default from a ScoreTable or a DataFrame).""",
    "a_b": """a, b : array_like, shape (n,)
    Scores of the two learners on the same n data sets; ``b`` is compared with ``a``.""",
    "higher_is_better": """higher_is_better : bool, default True
    Direction of the scores; rank 1 goes to the best learner of each data set. With a
    ScoreTable, left out it is the table's, and one that contradicts the table is refused.""",
    "decimals": f"""decimals : int or None, default {DEFAULT_DECIMALS}
    Scores are rounded to this many decimals before they are ranked or compared (None: not
    rounded), so that floating-point noise does not break ties.""",
    # effect sizes
    "effect_a_b": """a, b : array_like, shape (n,)
    Scores of the two learners on the same n data sets; the effect is that of ``a − b``.""",
    "confidence": """confidence : float, default 0.95
    Confidence level of the interval.""",
    "effect_decimals": f"""decimals : int or None, default {DEFAULT_DECIMALS}
    Scores and differences are rounded to this many decimals first (None: not rounded).""",
    "estimate": """Estimate
    ``estimate``, ``ci_low``, ``ci_high``, ``method``, ``magnitude`` (where a label exists)
    and ``details``.""",
    # the Bayesian tests
    "bayes_rope_names": """rope : float, default 0.0
    Half-width of the region of practical equivalence, in the scores' units.
names : tuple of str, default ("a", "b")
    Names of the two learners, kept in the result.""",
    "bayes_a_b": """a, b : array_like, shape (n,)
    Scores of the two learners on the same n data sets.
rope : float, default 0.0
    Half-width of the region of practical equivalence, in the scores' units.
names : tuple of str, default ("a", "b")
    Names of the two learners, kept in the result.
higher_is_better : bool, default True
    Direction of the scores.""",
    "bayes_draws": f"""draws : int, default {BAYESIAN_SAMPLES}
    Posterior draws (``samples=``, its name before 0.9, is taken with a FutureWarning until
    0.10).
seed : int, default {DEFAULT_SEED}
    Seed of the draws; the same seed gives the same result.
threshold : float, default {BAYESIAN_THRESHOLD}
    Probability a decision needs.
decimals : int or None, default {DEFAULT_DECIMALS}
    Scores are rounded to this many decimals first.
keep_samples : bool, default False
    Keep the draws in ``details`` (for the simplex figure).""",
    "bayesian_result": """BayesianResult
    ``p_a``, ``p_rope``, ``p_b`` (posterior probabilities that a is practically better, that
    they are equivalent, that b is), ``decision`` (``"a"``, ``"rope"``, ``"b"`` when one of
    them reaches ``threshold``, else ``"undecided"``), ``draws``, ``seed`` and ``details``.""",
    # the Friedman p-value
    "friedman_method": """method : {"auto", "chi2", "exact", "monte-carlo"}, default "auto"
    How the p-value is computed: the chi-square (or F) approximation, the exact permutation
    distribution given each data set's ranks (a dynamic programme over data sets), or 100,000
    seeded random arrangements (standard error in ``details``). ``"auto"``: a permutation
    p-value (exact when it fits) below 20 data sets, the approximation from 20 on and always
    under ``convention="paper"``.""",
}


def shared_docs(fn):
    """Fill the ``{{name}}`` lines of ``fn``'s docstring from :data:`PARAMETERS`."""
    doc = fn.__doc__
    if not doc or "{{" not in doc:
        return fn
    lines = []
    for line in doc.split("\n"):
        key = line.strip()
        if key.startswith("{{") and key.endswith("}}") and key[2:-2] in PARAMETERS:
            indent = line[:len(line) - len(line.lstrip())]
            lines += [indent + part for part in PARAMETERS[key[2:-2]].split("\n")]
        else:
            lines.append(line)
    fn.__doc__ = "\n".join(lines)
    return fn
