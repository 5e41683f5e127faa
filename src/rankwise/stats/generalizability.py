"""Generalizability theory of a benchmark: how much of the scores' variance is the learners',
the data sets' and their interaction's (a G-study), and what a design of more or fewer data
sets would give (a D-study).

The design is the crossed learner × data set design of a score table (one score per cell: the
mean over folds, or the one score a leaderboard prints), Brennan's p × i design with the
learners as the objects of measurement (his persons, Urbano et al.'s systems) and the data
sets as the facet (his items, their queries). The score of learner l on data set d is
x_ld = μ + ν_l + ν_d + ν_ld,e, with variance components σ²(l), σ²(d) and σ²(ld,e) estimated
from the two-way ANOVA's mean squares by their expectations:

    σ̂²(ld,e) = MS(ld,e),  σ̂²(l) = (MS(l) − MS(ld,e)) / n_d,  σ̂²(d) = (MS(d) − MS(ld,e)) / k

(a negative estimate is set to 0 and said, as Brennan and gt4ireval do). For n'_d data sets
in a D-study, the generalizability coefficient (relative decisions: the learners' order) and
the index of dependability (absolute decisions: their scores) are

    Eρ² = σ²(l) / (σ²(l) + σ²(ld,e)/n'_d),   Φ = σ²(l) / (σ²(l) + (σ²(d) + σ²(ld,e))/n'_d),

the standard error of the difference of two learners' means over n'_d data sets is
√(2 σ²(ld,e) / n'_d), and the data sets needed for a stability s are
⌈s σ²(ld,e) / (σ²(l)(1 − s))⌉ (with σ²(d) + σ²(ld,e) for Φ). The intervals of Eρ² (Feldt 1965)
and of Φ (Arteaga et al. 1982) are Brennan's (2001, §6.1), those of the components
Satterthwaite's (1946).

References: Brennan, R. L. (2001). *Generalizability Theory*. Springer, ch. 2-6. Urbano, J.,
Marrero, M. and Martín, D. (2013). On the measurement of test collection reliability. SIGIR.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from scipy import stats

from .. import _validate as check
from ..errors import RankwiseError
from .results import jsonable

#: The components of the crossed learner × data set design, in the order they are reported.
COMPONENTS = ("learner", "dataset", "residual")


@dataclass(frozen=True)
class GStudy:
    """The variance components of a learner × data set score table.

    ``components`` maps ``learner``, ``dataset`` and ``residual`` (the learner × data set
    interaction, confounded with error) to their estimates; ``mean_squares`` and ``df`` the
    ANOVA's; ``intervals`` each component's Satterthwaite interval at ``confidence``;
    ``notes`` what was set to 0.

    Examples
    --------
    Brennan's (2001) synthetic data set No. 4 (10 persons × 12 items; his Table 3.2 and the
    G-study of gt4ireval's tests: σ²(p) = .6258, σ²(i) = .8840, σ²(pi,e) = 2.7872):

    >>> from rankwise import load_example
    >>> from rankwise.stats.generalizability import g_study
    >>> g = g_study(load_example("brennan2001_synthetic4").values)
    >>> {name: round(v, 4) for name, v in g.components.items()}
    {'learner': 0.6258, 'dataset': 0.884, 'residual': 2.7872}
    >>> {name: round(v, 4) for name, v in g.mean_squares.items()}
    {'learner': 10.2963, 'dataset': 11.6273, 'residual': 2.7872}
    """

    n_learners: int
    n_datasets: int
    components: dict
    mean_squares: dict
    df: dict
    intervals: dict
    confidence: float
    notes: tuple = field(default=())

    @property
    def shares(self) -> dict:
        """Each component's share of their sum."""
        return shares_of(self.components)

    def to_dict(self) -> dict:
        return jsonable({"design": "learner x dataset (crossed)",
                         "n_learners": self.n_learners, "n_datasets": self.n_datasets,
                         "components": self.components, "shares": self.shares,
                         "mean_squares": self.mean_squares, "df": self.df,
                         "intervals": self.intervals, "confidence": self.confidence,
                         "notes": list(self.notes)})


def g_study(x, *, confidence: float = 0.95) -> GStudy:
    """The G-study of a complete score table ``x`` (data sets × learners, as
    :class:`~rankwise.ScoreTable` holds it): the variance components of the crossed
    learner × data set design by the ANOVA's expected mean squares, with Satterthwaite's
    intervals at ``confidence``. See the module's text for the formulas.

    Examples
    --------
    >>> import numpy as np
    >>> from rankwise.stats.generalizability import g_study
    >>> x = np.array([[0.8, 0.7, 0.6], [0.9, 0.8, 0.8],
    ...               [0.7, 0.7, 0.5], [0.85, 0.8, 0.7]])
    >>> g = g_study(x)
    >>> g.n_datasets, g.n_learners, round(g.components["learner"], 5)
    (4, 3, 0.00625)
    """
    x = np.asarray(x, dtype=float)
    if x.ndim != 2 or x.shape[0] < 2 or x.shape[1] < 2:
        raise RankwiseError("a G-study needs a table of at least 2 data sets and 2 learners;"
                            f" got the shape {x.shape}")
    if not np.isfinite(x).all():
        raise RankwiseError("a G-study needs every cell of the table (a missing or infinite"
                            " score breaks the crossed design); complete the table first")
    confidence = check.confidence(confidence)
    n, k = x.shape
    u, scale = unit_scaled(x)
    ss_l = n * (u.mean(axis=0) ** 2).sum()
    ss_d = k * (u.mean(axis=1) ** 2).sum()
    ss_e = (u ** 2).sum() - ss_l - ss_d
    df = {"learner": k - 1, "dataset": n - 1, "residual": (k - 1) * (n - 1)}
    ms = {"learner": float(ss_l / df["learner"]), "dataset": float(ss_d / df["dataset"]),
          "residual": float(max(ss_e, 0.0) / df["residual"])}
    raw = {"learner": (ms["learner"] - ms["residual"]) / n,
           "dataset": (ms["dataset"] - ms["residual"]) / k,
           "residual": ms["residual"]}
    components = {name: max(value, 0.0) for name, value in raw.items()}
    # each component as a combination of mean squares, for Satterthwaite's degrees of freedom
    terms = {"learner": ((1 / n, "learner"), (-1 / n, "residual")),
             "dataset": ((1 / k, "dataset"), (-1 / k, "residual")),
             "residual": ((1.0, "residual"),)}
    intervals = {name: satterthwaite(components[name], terms[name], ms, df, confidence)
                 for name in COMPONENTS}
    with np.errstate(over="ignore", under="ignore"):
        unit = np.float64(scale if scale > 0 else 1.0) ** 2
        raw, ms, components = ({name: float(v * unit) for name, v in d.items()}
                               for d in (raw, ms, components))
        intervals = {name: (float(lo * unit), float(hi * unit))
                     for name, (lo, hi) in intervals.items()}
    notes = tuple(f"the estimate of the {name} component is negative ({value:.4g}); set to 0"
                  for name, value in raw.items() if value < 0)
    return GStudy(n_learners=k, n_datasets=n, components=components, mean_squares=ms, df=df,
                  intervals=intervals, confidence=confidence, notes=notes)


def shares_of(components: dict) -> dict:
    """Each variance component's share of their sum (NaN where they sum to 0)."""
    total = sum(components.values())
    return {k: (v / total if total > 0 else math.nan) for k, v in components.items()}


def unit_scaled(x: np.ndarray) -> tuple:
    """``x`` centred and scaled to at most 1 in magnitude (no square overflows or underflows
    at any scale), and the factor whose square takes its variances back to the scores'
    units (1 where every score is alike)."""
    size = float(np.abs(x).max())
    scaled = x / size if size > 0 else x
    centred = scaled - scaled.mean()
    spread = float(np.abs(centred).max())
    u = centred / spread if spread > 0 else centred
    with np.errstate(over="ignore", under="ignore"):
        scale = float(np.float64(size if size > 0 else 1.0) * (spread if spread > 0 else 1.0))
    return u, scale


def satterthwaite(value: float, terms, ms: dict, df: dict, confidence: float) -> tuple:
    """The interval of a component Σ c_i MS_i from a chi-square with Satterthwaite's degrees
    of freedom ν = (Σ c_i MS_i)² / Σ (c_i MS_i)²/df_i; (0, 0) for a component of 0."""
    denominator = sum((c * ms[name]) ** 2 / df[name] for c, name in terms)
    if value <= 0 or denominator <= 0:
        return (0.0, 0.0)
    nu = value ** 2 / denominator
    tail = (1 - confidence) / 2
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        # a few degrees of freedom may leave the upper end unbounded (inf), as it is
        return (float(nu * value / stats.chi2.ppf(1 - tail, nu)),
                float(nu * value / np.float64(stats.chi2.ppf(tail, nu))))


@dataclass(frozen=True)
class DStudy:
    """What a design of ``n_datasets`` data sets would give (Brennan 2001, ch. 4 and 6).

    ``generalizability`` (Eρ²) and ``dependability`` (Φ), each with its interval at
    ``confidence``; ``difference_se``: the standard error of the difference between two
    learners' means; ``needed``: the data sets for Eρ² and for Φ to reach ``stability``.

    Examples
    --------
    Brennan's Table 6.5 (gt4ireval's tests): 12 items, 80% intervals.

    >>> from rankwise import load_example
    >>> from rankwise.stats.generalizability import d_study, g_study
    >>> g = g_study(load_example("brennan2001_synthetic4").values)
    >>> d = d_study(g, confidence=0.8)
    >>> round(d.generalizability, 3), [round(v, 3) for v in d.generalizability_interval]
    (0.729, [0.541, 0.876])
    >>> round(d.dependability, 3), [round(v, 3) for v in d.dependability_interval]
    (0.672, [0.457, 0.845])
    """

    n_datasets: int
    generalizability: float
    dependability: float
    generalizability_interval: tuple
    dependability_interval: tuple
    difference_se: float
    stability: float
    needed: dict
    confidence: float

    def to_dict(self) -> dict:
        return jsonable({"n_datasets": self.n_datasets,
                         "generalizability": self.generalizability,
                         "generalizability_interval": self.generalizability_interval,
                         "dependability": self.dependability,
                         "dependability_interval": self.dependability_interval,
                         "difference_se": self.difference_se, "stability": self.stability,
                         "needed": self.needed, "confidence": self.confidence})


def d_study(g: GStudy, n_datasets: int | None = None, *, stability: float = 0.95,
            confidence: float = 0.95) -> DStudy:
    """The D-study of ``g`` for ``n_datasets`` data sets (default: as many as the G-study
    had). See the module's text for the formulas; the intervals are Feldt's (Eρ²) and
    Arteaga et al.'s (Φ), as Brennan (2001, §6.1) and gt4ireval give them.

    Examples
    --------
    Urbano et al.'s (2013) TREC-3 ad hoc G-study (40 systems × 50 queries: σ²(s) = 0.0071668,
    σ²(q) = 0.022642, σ²(sq,e) = 0.01092): at 50 queries Eρ² = 0.9704 and Φ = 0.9144, and
    Eρ² = 0.95 needs 29 queries.

    >>> from rankwise.stats.generalizability import GStudy, d_study
    >>> parts = {"learner": 0.0071668, "dataset": 0.022642, "residual": 0.01092}
    >>> g = GStudy(40, 50, parts, {}, {}, {}, 0.95)
    >>> d = d_study(g, 50)
    >>> round(d.generalizability, 4), round(d.dependability, 4)
    (0.9704, 0.9144)
    >>> d.needed["generalizability"]
    29
    """
    n = g.n_datasets if n_datasets is None else check.whole("n_datasets", n_datasets, 1)
    if not 0 < stability < 1:
        raise RankwiseError(f"the stability to reach must be between 0 and 1; got {stability}")
    confidence = check.confidence(confidence)
    s, d, e = (g.components[name] for name in COMPONENTS)
    top = max(s, d, e)
    if 0 < top < math.inf:   # the coefficients are ratios: on components scaled to at most 1
        s, d, e = s / top, d / top, e / top
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        rho = s / (s + e / n) if s + e > 0 else math.nan
        phi = s / (s + (d + e) / n) if s + d + e > 0 else math.nan
    needed = {"generalizability": _needed(stability, e, s),
              "dependability": _needed(stability, d + e, s)}
    rho_ci = phi_ci = (math.nan, math.nan)
    if g.mean_squares:
        rho_ci, phi_ci = _intervals(g, n, (1 - confidence) / 2)
    return DStudy(n_datasets=n, generalizability=float(rho), dependability=float(phi),
                  generalizability_interval=rho_ci, dependability_interval=phi_ci,
                  difference_se=float(math.sqrt(2 * e / n) * math.sqrt(top if 0 < top < math.inf
                                                                    else 1.0)),
                  stability=stability,
                  needed=needed, confidence=confidence)


def _needed(stability: float, error: float, signal: float):
    """The data sets for a coefficient signal / (signal + error/n) to reach ``stability``
    (None: no number of data sets does, the learners' component being 0)."""
    if not (0 < signal < math.inf and 0 <= error < math.inf):
        return None
    return max(1, math.ceil(stability * error / (signal * (1 - stability)) - 1e-12))


def _intervals(g: GStudy, n: int, alpha: float) -> tuple:
    """Feldt's interval of Eρ² and Arteaga et al.'s of Φ, each for ``n`` data sets, from the
    G-study's mean squares (Brennan 2001, eqs. 6.4-6.8)."""
    ms_l, ms_d, ms_e = (g.mean_squares[name] for name in COMPONENTS)
    top = max(ms_l, ms_d, ms_e)
    if not 0 < top < math.inf:   # every score alike, or beyond the floats' range
        return (math.nan, math.nan), (math.nan, math.nan)
    # both intervals are ratios of mean squares (of degree 0 in them): scaled to at most 1
    ms_l, ms_d, ms_e = ms_l / top, ms_d / top, ms_e / top
    df_l, df_d, df_e = (g.df[name] for name in COMPONENTS)
    k, n_g = g.n_learners, g.n_datasets

    def rho_at(f):
        ratio = (ms_l / (ms_e * f) - 1) / n_g   # σ²(l)/σ²(ld,e) at that bound
        return n * ratio / (1 + n * ratio)

    def phi_at(q):
        # F(df, ∞) is χ²(df)/df (scipy's F has no infinite denominator)
        f_inf = stats.chi2.ppf(q, df_l) / df_l
        f_e, f_d = (stats.f.ppf(q, df_l, v) for v in (df_e, df_d))
        num = ms_l ** 2 - f_inf * ms_l * ms_e + (f_inf - f_e) * f_e * ms_e ** 2
        den = (k - 1) * f_inf * ms_l * ms_e + f_d * ms_l * ms_d
        ratio = k * (num / den) / (k * (num / den) + n_g)   # Φ for one data set
        return n * ratio / (1 + (n - 1) * ratio)

    upper, lower = stats.f.ppf(alpha, df_l, df_e), stats.f.ppf(1 - alpha, df_l, df_e)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return ((float(rho_at(lower)), float(rho_at(upper))),
                (float(phi_at(1 - alpha)), float(phi_at(alpha))))
