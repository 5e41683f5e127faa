"""What each figure of a report shows, decided once by the analysis.

- ``control_diagram`` (the headline figure): every learner against the verdict's best learner,
  filled where the verdict's procedure finds it significantly worse, so the figure *is* the
  verdict. The Bonferroni-Dunn band (control ± CD) is drawn only when that procedure is
  Bonferroni-Dunn, because only then does the band decide exactly what the marks say.
- ``cd_diagram``: all pairs, by the diagram procedure (Nemenyi by default), with bars joining
  each clique; the CD is drawn when the procedure is Nemenyi, whose decisions it reproduces.
  When a verdict loser shares a bar with the best learner (or a winner shares none), the plan
  carries the sentence that explains why.
- ``pvalue_heatmap``: the adjusted p-values of the diagram procedure.

When the gate does not reject, no figure of post-hoc decisions is drawn unless forced, and then
every caption says so.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..defaults import PAIR_MATRIX_MAX_LEARNERS
from ..names import FIGURES, procedure_title, ranking_title, test_title
from ..stats.pairwise import critical_difference, nemenyi_pvalues
from ..stats.results import p_phrase
from .results import FigurePlan, Runs, StreamedFamily
from .verdict import some_names


def cliques(mean_ranks, significant) -> list:
    """Maximal runs (≥ 2 learners, consecutive in mean-rank order) no two of which differ
    significantly: the groups a critical-difference diagram can draw as one bar.

    ``significant[a, b]`` is True when a and b differ significantly. Learners are ordered by
    (mean rank, index); groups are tuples of indices in that order, ordered by their first
    member. O(k²): the first significant partner to the right of each learner bounds how far a
    run starting there can reach (see :func:`runs_from_reach`).
    """
    sig = np.asarray(significant, dtype=bool)
    k = sig.shape[0]
    if k == 0:
        return []
    runs = runs_of(sig, mean_ranks)
    order = runs.order
    return [tuple(int(j) for j in order[a:b + 1]) for a, b in zip(runs.start, runs.end)]


def runs_of(significant, mean_ranks) -> Runs:
    """The maximal runs of a k × k matrix of decisions, learners by (mean rank, index)."""
    sig = np.asarray(significant, dtype=bool)
    k = sig.shape[0]
    order = best_first(mean_ranks)
    s = sig[np.ix_(order, order)]
    right = np.triu(s | s.T, 1)
    reach = np.where(right.any(axis=1), right.argmax(axis=1) - 1, k - 1)
    return runs_from_reach(order, reach)


def runs_from_reach(order, reach) -> Runs:
    """The maximal runs, given for each position i of the order the furthest position
    ``reach[i]`` that is not significantly different from it (everything between included):
    a backward pass takes the minimum of the reaches, and a run starts wherever it grows."""
    k = len(order)
    end = np.minimum.accumulate(np.asarray(reach)[::-1])[::-1]  # furthest end of a run from i
    grows = np.ones(k, dtype=bool)
    grows[1:] = end[1:] > end[:-1]
    starts = np.flatnonzero((end > np.arange(k)) & grows)
    return Runs(np.asarray(order, dtype=np.int64), starts, end[starts].astype(np.int64))


#: Mean-rank differences within this relative distance of the critical difference are decided
#: by their Nemenyi p-value itself, not by the comparison with the CD (rounding of either).
CD_BAND = 1e-6


def nemenyi_runs(mean_ranks, se: float, alpha: float) -> Runs:
    """The maximal runs of the Nemenyi CD diagram in one pass over the sorted mean ranks.

    Two learners differ when their Nemenyi p-value (:func:`nemenyi_pvalues` of
    (M_a − M_b)/SE) is at most ``alpha``, that is when ``abs(M_a − M_b)`` reaches the critical
    difference CD = q_α·SE: the first learner to the right of each that differs is found by a
    binary search, O(k log k) in all, where the k × k decisions took O(k²). Differences within
    a relative ``CD_BAND`` of the CD are decided by their p-value, so the runs are those of
    :func:`cliques` on the p-values of every pair (the tests compare them).
    """
    ranks = np.asarray(mean_ranks, dtype=float)
    k = ranks.size
    order = np.lexsort((np.arange(k), ranks))
    if k < 2 or not se > 0:  # no difference can be significant
        return runs_from_reach(order, np.full(k, k - 1))
    s = ranks[order]
    cd = critical_difference(k, 1, alpha, "nemenyi", se=se).cd
    low = np.searchsorted(s, s + cd * (1 - CD_BAND), side="left")
    sure = np.searchsorted(s, s + cd * (1 + CD_BAND), side="left")
    first = np.maximum(sure, np.arange(k) + 1)  # first surely significant partner (k: none)
    low = np.maximum(low, np.arange(k) + 1)
    width = np.maximum(first - low, 0)
    if width.any():  # the pairs near the CD: their p-values decide
        u = np.repeat(np.arange(k), width)
        v = np.arange(width.sum()) - np.repeat(np.cumsum(width) - width, width) + low[u]
        hit = nemenyi_pvalues((s[v] - s[u]) / se, k) <= alpha
        if hit.any():
            cand = np.full(k, k)
            np.minimum.at(cand, u[hit], v[hit])
            first = np.minimum(first, cand)
    return runs_from_reach(order, first - 1)


def plan_figures(engine, learners, mean_ranks, verdict, *, alpha, diagram_procedure: str,
                 force: bool, ranking: str = "friedman", top: int | None = None) -> dict:
    """``{name: FigurePlan}`` for the three figures (empty with fewer than three learners).
    Above ``PAIR_MATRIX_MAX_LEARNERS`` the heat map and the clique lists hold the best
    ``top`` learners only (every learner's groups stay in the plan's ``runs``)."""
    learners = list(learners)
    k = len(learners)
    if k < 3:
        return {}
    gate = engine.gate(ranking)
    best = int(np.argmin(mean_ranks))
    if not gate.passed and not force:
        reason = (f"{test_title(gate.test)} does not reject at alpha = {alpha}"
                  f" ({p_phrase(gate.pvalue)}), so there are no post-hoc decisions to show"
                  " (--force-posthoc draws them, labelled)")
        return {name: FigurePlan(name, drawn=False, headline=name == "control_diagram",
                                 procedure=None, family=None, ranking=ranking, alpha=alpha,
                                 caption=FIGURES[name].title, reason=reason)
                for name in RANK_FIGURES}
    forced = not gate.passed
    label = (f" Computed although {test_title(gate.test)} does not reject at alpha = {alpha}: read"
             " with care." if forced else "")
    cd = engine.critical_difference(ranking)
    vproc = verdict.procedure or "holm"
    control_fam, _, _ = engine.family(ranking, "control", (vproc,), best)
    decisions = dict(zip((learners[j] for j in control_fam.b.tolist()),
                         control_fam.rejected(vproc, alpha).tolist()))
    band = cd.value(vproc)
    out = {"control_diagram": FigurePlan(
        "control_diagram", drawn=True, headline=True, procedure=vproc, family="control",
        ranking=ranking, alpha=alpha, forced=forced, critical_difference=band,
        cd_procedure=vproc if band is not None else None, control=learners[best],
        decisions=decisions,
        caption=(f"Every learner against the best-ranked one, {learners[best]} (the verdict's"
                 f" comparisons): filled = significantly different by {procedure_title(vproc)} at"
                 f" alpha = {alpha}" + (f"; shaded: {learners[best]} ± CD = {band:.4f}"
                                        if band is not None else "") + "." + label))}
    runs, rows, apv = _all_pairs(engine, mean_ranks, ranking, diagram_procedure, alpha,
                                        top)
    every = k <= PAIR_MATRIX_MAX_LEARNERS
    groups = runs.groups(learners, None if every else len(rows))
    nem = cd.value(diagram_procedure) if diagram_procedure == "nemenyi" else None
    note = _disagreement(runs, learners, verdict, diagram_procedure, vproc) \
        if verdict.detected else None
    shown = "" if every else f" Bars among the best {len(rows):,} learners shown."
    out["cd_diagram"] = FigurePlan(
        "cd_diagram", drawn=True, headline=False, procedure=diagram_procedure,
        family="all_pairs", ranking=ranking, alpha=alpha, forced=forced,
        critical_difference=nem, cd_procedure="nemenyi" if nem is not None else None,
        cliques=groups, runs=runs, note=note,
        caption=(f"All pairs by {procedure_title(diagram_procedure)} at alpha = {alpha} on"
                 f" {ranking_title(ranking)}: bars join learners that are not significantly different"
                 + (f"; CD = {nem:.4f}" if nem is not None else "") + "." + shown + label))
    out["pvalue_heatmap"] = FigurePlan(
        "pvalue_heatmap", drawn=True, headline=False, procedure=diagram_procedure,
        family="all_pairs", ranking=ranking, alpha=alpha, forced=forced,
        pvalues=apv, learners=tuple(learners[j] for j in rows), subset=not every,
        caption=(f"Adjusted p-values of all pairs by {procedure_title(diagram_procedure)}; outlined:"
                 f" p <= {alpha}."
                 + ("" if every else f" The pairs of the best {len(rows):,} learners.")
                 + label))
    return out


def best_first(mean_ranks, top: int | None = None) -> np.ndarray:
    """Indices of the learners by (mean rank, index), best first: the best ``top`` (all when
    ``top`` is None or not smaller than k)."""
    ranks = np.asarray(mean_ranks, dtype=float)
    order = np.lexsort((np.arange(ranks.size), ranks))
    return order if top is None else order[:top]


def matrix_rows(mean_ranks, top: int | None) -> np.ndarray:
    """The learners of the outputs' k × k matrices (heat map, wins/ties/losses): every learner
    in table order up to ``PAIR_MATRIX_MAX_LEARNERS``, else the best ``top`` (at most that
    many), best first."""
    k = len(mean_ranks)
    if k <= PAIR_MATRIX_MAX_LEARNERS:
        return np.arange(k)
    return best_first(mean_ranks, min(top or k, PAIR_MATRIX_MAX_LEARNERS))


def _all_pairs(engine, mean_ranks, ranking, procedure, alpha, top) -> tuple:
    """``(runs, rows, apv)``: the CD diagram's runs of every learner, and the adjusted p-values
    of the pairs among ``rows`` (every learner in table order up to
    ``PAIR_MATRIX_MAX_LEARNERS``, else the best ``top`` by mean rank). Nemenyi's runs come
    from the sorted mean ranks and its p-values pair by pair, so neither needs the k × k
    family; other procedures adjust over every pair."""
    k = len(engine.learners)
    rows = matrix_rows(mean_ranks, top)
    if (procedure == "nemenyi" and ranking == "friedman"  # its scores are the mean ranks
            and not engine.computed(ranking, "all_pairs", procedure)):
        st = engine.statistics(ranking)
        runs = nemenyi_runs(mean_ranks, st.se, alpha)
        apv = nemenyi_pvalues(st.statistics[rows[:, None], rows[None, :]], k)
        np.fill_diagonal(apv, 1.0)
        return runs, rows, apv
    fam, _, _ = engine.family(ranking, "all_pairs", (procedure,), None)
    if isinstance(fam, StreamedFamily):
        return _streamed_runs(fam, procedure), rows, apv_among(fam, procedure, rows)
    learners = list(engine.learners)
    runs = runs_of(fam.significant(procedure, alpha, learners), mean_ranks)
    return runs, rows, fam.apv_matrix(procedure, learners)[np.ix_(rows, rows)]


def _streamed_runs(fam, procedure) -> Runs:
    """The CD diagram's runs of a streamed family: the pairs a procedure rejects are those
    with p up to that of its last rejected pair (:func:`~rankwise.stats.all_pairs.
    first_rejected`)."""
    from ..stats.all_pairs import first_rejected

    pairs = fam.stream
    last = fam.last_rejected.get(procedure)
    if last is None:
        return runs_from_reach(pairs.order, np.full(pairs.k, pairs.k - 1))
    return runs_from_reach(pairs.order, first_rejected(pairs, *last) - 1)


def apv_among(fam, procedure: str, rows) -> np.ndarray:
    """The adjusted p-values of ``procedure`` among the learners ``rows`` (in that order), from
    a family that holds their pairs (a streamed family's ``among``); 1 on the diagonal."""
    part = fam.among if isinstance(fam, StreamedFamily) else fam
    rows = np.asarray(rows, dtype=np.int64)
    place = np.full(len(part.learners), -1, dtype=np.int64)
    place[rows] = np.arange(rows.size)
    out = np.ones((rows.size, rows.size))
    a, b = place[part.a], place[part.b]
    kept = (a >= 0) & (b >= 0)
    out[a[kept], b[kept]] = out[b[kept], a[kept]] = part.apvs[procedure][kept]
    return out


def significant_among(fam, procedure: str, alpha: float, rows) -> np.ndarray:
    """Booleans among the learners ``rows``: True where ``procedure`` rejects the pair."""
    if isinstance(fam, StreamedFamily):
        apv = apv_among(fam, procedure, rows)
        sig = np.isfinite(apv) & (apv <= alpha)
        np.fill_diagonal(sig, False)
        return sig
    return fam.significant(procedure, alpha, fam.learners)[np.ix_(rows, rows)]


def _disagreement(runs, learners, verdict, procedure, vproc) -> str | None:
    """The sentence that explains an all-pairs diagram that looks at odds with the verdict."""
    k = len(learners)
    best = learners[int(runs.order[0])]
    first = np.flatnonzero(runs.start == 0)  # the run that holds the best, if any
    with_best = {learners[j] for j in runs.order[:int(runs.end[first[0]]) + 1].tolist()} \
        if first.size else set()
    joined = [name for name in verdict.losers if name in with_best]
    apart = [name for name in verdict.winners if name != best and name not in with_best]
    if not joined and not apart:
        return None
    m_all, m_control = k * (k - 1) // 2, k - 1
    parts = []
    if joined:
        parts.append(f"the critical-difference diagram joins {best} with {some_names(joined)},"
                     f" which the verdict finds significantly worse")
    if apart:
        parts.append(f"it separates {some_names(apart)} from {best}, which the verdict does not")
    return ("Why the figures differ: " + "; ".join(parts) + f". The diagram tests all {m_all:,}"
            f" pairs with {procedure_title(procedure)}, while the verdict tests only the {m_control:,}"
            f" comparisons with {best} with {procedure_title(vproc)}; fewer hypotheses (and a different"
            " procedure) change what is significant, and the verdict's comparisons are the ones"
            " to report for 'which learners are worse than the best'.")


def with_rank_intervals(figures: dict, learners, intervals, how: dict) -> dict:
    """The plans with the mean ranks' intervals on the CD diagram (when it is drawn)."""
    plan = figures.get("cd_diagram")
    if plan is None or not plan.drawn:
        return figures
    level = f"{100 * how['confidence']:g}%"
    source = ("bootstrap over data sets" if how["method"] == "bootstrap" else
              "normal approximation")
    caption = (plan.caption + f" Grey bars with end caps, above each learner's label line:"
               f" {level} intervals of its mean rank"
               f" ({source}), not adjusted for the number of learners and not a test.")
    return {**figures, "cd_diagram": replace(
        plan, caption=caption,
        rank_intervals={name: (float(lo), float(hi)) for name, (lo, hi) in
                        zip(learners, intervals)})}


#: The figures of the rank analysis (the Bayesian simplex plot is planned on its own).
RANK_FIGURES = ("control_diagram", "cd_diagram", "pvalue_heatmap")

#: Posterior draws shown per pair in the simplex plot (the first ones; all draws are equally
#: likely, so these are a random subset).
SIMPLEX_POINTS = 3_000


def simplex_figures(bayes, alpha: float) -> dict:
    """``{"bayesian_simplex": plan}`` when the Bayesian test kept its posterior draws (the sign
    and signed-rank tests), else nothing."""
    if not bayes or bayes[0].posterior is None:
        return {}
    return {"bayesian_simplex": plan_simplex(bayes, alpha)}


#: The multi-comparison matrix figure shows at most this many learners (the best by mean score).
MCM_FIGURE_MAX = 15


def plan_mcm(matrix):
    """The plan of the multi-comparison matrix's heat map (upper triangle, best first)."""
    k = len(matrix.learners)
    shown = min(k, MCM_FIGURE_MAX)
    test = "Holm-adjusted p" if matrix.holm else "p"
    caption = (f"Multi-comparison matrix: each cell compares its row learner with its column"
               f" learner: mean difference (row - column), wins / ties / losses of the row"
               f" over the data sets, and the two-sided Wilcoxon {test} (Pratt's zero rule);"
               f" colour: the mean difference, centred at 0; bold: significant at alpha ="
               f" {matrix.alpha}. Learners by mean score, best first"
               + (f"; the best {shown} of {k:,} (every pair in the JSON)." if shown < k else "."))
    return FigurePlan("mcm", drawn=True, headline=False, procedure="holm" if matrix.holm else None,
                      family="all_pairs", ranking="wilcoxon", alpha=matrix.alpha,
                      caption=caption, matrix=matrix)


#: The groups' box plots show at most this many learners (the best first).
GROUPS_FIGURE_MAX = 30


def plan_groups(groups, samples: dict):
    """The plan of the box plots of every learner's values, ordered and coloured by group:
    every learner up to ``GROUPS_FIGURE_MAX``, the best so many beyond (the caption and the
    figure say so)."""
    if groups.method == "scott-knott-bootstrap":
        caption = ("Scott-Knott groups: box plots of each learner's per-fold results, best"
                   " median first, one colour per group (group 1 = best); the groups are cut"
                   f" where a bootstrap test at alpha = {groups.alpha} and a non-negligible"
                   " A12 separate them.")
    else:
        what = "score" if groups.version == "p" else "score (the groups were built on ranks)"
        caption = (f"Scott-Knott ESD groups: box plots of each learner's {what} over the data"
                   " sets, best mean first, one colour per group (group 1 = best); learners in"
                   " one group are not separated by Scott & Knott's test at alpha ="
                   f" {groups.alpha} or differ negligibly (Cohen's d < 0.2).")
    k = len(groups.learners)
    cut = left_out("The groups figure", min(k, GROUPS_FIGURE_MAX), k, "the table lists"
                   " every learner's group")
    return FigurePlan("groups", drawn=True, headline=False, procedure=None, family=None,
                      ranking="scott-knott", alpha=groups.alpha,
                      caption=caption + (f" {cut}" if cut else ""),
                      matrix=(groups, [np.asarray(samples[name]) for name in groups.learners],
                              GROUPS_FIGURE_MAX, cut))


#: Learners the P(best) figure shows (the best by the model), and posterior draws per violin.
P_BEST_FIGURE_MAX = 30
P_BEST_DRAWS = 4_000


#: The rank-set figure shows at most this many learners (the best by mean rank).
RANK_SET_FIGURE_MAX = 60


def plan_rank_sets(sets, mean_ranks, check, alpha: float, basis: str):
    """The plan of the "how sure" figure: each learner's confidence set for its rank as a bar
    from its lowest to its highest possible rank, the estimated rank as a dot (filled: could be
    the best), learners best first; with the data-set check, the learners whose verdict claim
    one or two data sets overturn are marked, with those data sets."""
    k = len(sets.learners)
    order = [int(j) for j in np.lexsort((np.arange(k), np.asarray(mean_ranks)))]
    shown = order[:RANK_SET_FIGURE_MAX]
    fragile = {}
    if check is not None:
        for claim in check.claims:
            if claim.kind in ("best", "verdict") and claim.fragile:
                fragile[claim.learners[0]] = claim.removed
    level = f"{100 * sets.confidence:g}%"
    caption = (f"Each learner's {level} confidence set for its rank by"
               f" {'mean rank' if basis == 'ranks' else 'mean score'}"
               f" ({'jointly for every learner' if sets.simultaneous else 'each on its own'};"
               f" Mogstad et al. 2023): the bar spans the ranks it can have, the dot is its"
               f" estimated rank (filled: it could be the best), best mean rank first"
               + (f"; the best {len(shown)} of {k:,}" if len(shown) < k else "")
               + ("; marked with the data sets named: the verdict's claim about the learner"
                  " falls when they are removed (one or two data sets)" if check is not None
                  else "") + ".")
    data = {"learners": tuple(sets.learners[j] for j in shown),
            "rank": np.asarray(sets.rank)[shown], "lower": np.asarray(sets.lower)[shown],
            "upper": np.asarray(sets.upper)[shown], "best": np.asarray(sets.best)[shown],
            "k": k, "fragile": {name: fragile[name] for name in
                                (sets.learners[j] for j in shown) if name in fragile}}
    return FigurePlan("rank_sets", drawn=True, headline=False, procedure=None, family=None,
                      ranking="friedman" if basis == "ranks" else "scores", alpha=alpha,
                      caption=caption, matrix=data)


#: The forest plot shows at most this many learners against the base, and data sets.
FOREST_LEARNERS = 6
FOREST_DATASETS = 40


def plan_per_dataset(found, mean_ranks, learners, alpha: float):
    """The forest plot of the per-data-set tests: for each learner against the base (the best
    ``FOREST_LEARNERS`` by mean rank), its mean difference from the base on each data set with
    the corrected interval; filled where the test finds it significant."""
    rank = {name: r for name, r in zip(learners, mean_ranks)}
    others = sorted(found.learners[1:], key=lambda n: (rank.get(n, np.inf), n))
    shown = others[:FOREST_LEARNERS]
    datasets = list(found.datasets[:FOREST_DATASETS])
    panels = []
    for name in shown:
        rows = {p.dataset: p for p in found.against_base if p.learner == name}
        panels.append({"learner": name, "rows": [
            (d, rows[d].corrected.details["mean_difference"], rows[d].corrected.details["ci_low"],
             rows[d].corrected.details["ci_high"], rows[d].mark) if d in rows else (d, None, None,
                                                                                   None, "")
            for d in datasets]})
    level = f"{100 * found.against_base[0].corrected.details['confidence']:g}%" \
        if found.against_base else "95%"
    caption = (f"Each learner's mean difference from {found.base} on each data set (positive:"
               f" better), with its {level} corrected interval (Nadeau & Bengio; n2/n1"
               f" {found.settings['test_train_ratio']}); filled where the corrected t-test finds"
               " it significant" + (f"; the best {len(shown)} of {len(others)} learners" if
                                    len(shown) < len(others) else "")
               + (f"; the first {len(datasets)} of {len(found.datasets)} data sets" if
                  len(datasets) < len(found.datasets) else "") + ".")
    return FigurePlan("per_dataset", drawn=bool(panels), headline=False, procedure=None,
                      family=None, ranking="friedman", alpha=alpha, caption=caption,
                      matrix={"base": found.base, "panels": panels, "datasets": datasets},
                      reason=None if panels else "there is no other learner")


def plan_multiverse(found, alpha: float):
    """The specification curve of the multiverse: each analysis that ran, by how many of the
    verdict's claims it makes (most first), above the choices that define it."""
    ran = found.ran()
    order = sorted(range(len(ran)), key=lambda i: (-sum(ran[i].agrees), i))
    dims = {d: v for d, v in found.dimensions.items() if len(v) > 1}
    rows = [(d, value) for d, values in dims.items() for value in values]
    data = {"share": [sum(ran[i].agrees) / len(found.claims) for i in order],
            "same_best": [bool(ran[i].agrees[0]) for i in order],
            "rows": [f"{d} {v}" for d, v in rows],
            "used": [[ran[i].choices.get(d) == v for i in order] for d, v in rows]}
    caption = (f"Another reasonable analysis: each of the {len(ran)} analyses of the grid"
               " (columns, by how many of the verdict's claims they make) with the share of"
               " claims it makes (filled: the same best learner) above the choices that define"
               " it (dots).")
    return FigurePlan("multiverse", drawn=bool(ran), headline=False, procedure=None,
                      family=None, ranking="friedman", alpha=alpha, caption=caption,
                      matrix=data, reason=None if ran else "no analysis of the grid could run")


def plan_p_best(model, alpha: float):
    """The plan of the whole-table model's figure: each learner's posterior probability of
    being the best, beside the posterior of its Plackett-Luce weight or Bradley-Terry
    ability (violins), learners best first."""
    draws = np.asarray(model.strengths)
    centre = draws.mean(axis=0)
    order = np.argsort(-centre, kind="stable")
    k = len(order)
    shown = order[:P_BEST_FIGURE_MAX]
    step = max(1, len(draws) // P_BEST_DRAWS)
    what = f"{model.STRENGTH} ({model.STRENGTH_MEANS})"
    caption = (f"{model.TITLE} posterior: left, each learner's"
               " probability of being the best (the share of posterior draws in which its"
               f" {model.STRENGTH} is the largest); right, the posterior of its"
               f" {what}, a violin of the draws with the median marked. Learners by posterior"
               " mean, best first"
               + (f"; the best {len(shown)} of {k:,} (every learner in the JSON)." if len(shown)
                  < k else ".")
               + ("" if model.diagnostics.converged else " The chains did NOT converge."))
    data = {"learners": tuple(model.learners[j] for j in shown),
            "p_best": np.asarray(model.p_best)[shown], "draws": draws[::step][:, shown],
            "scale": model.STRENGTH}
    return FigurePlan("p_best", drawn=True, headline=False, procedure=None, family=None,
                      ranking="bayesian", alpha=alpha, caption=caption, matrix=data)


def plan_simplex(bayes, alpha: float):
    """The plan of the Bayesian test's simplex plot (one triangle per pair)."""
    first = bayes[0]
    shown = tuple((r.a, r.b, r.posterior[:SIMPLEX_POINTS], (r.p_a, r.p_rope, r.p_b))
                  for r in bayes)
    caption = (f"Posterior of the Bayesian {first.test} test (ROPE = {first.rope:g}): each point"
               f" is one of {min(SIMPLEX_POINTS, first.draws):,} posterior draws of"
               " (P(a better), P(equivalent), P(b better)), placed in the triangle by its"
               " barycentric coordinates; a point near a corner puts most probability there."
               " Colour: which of the three is largest. Under each title: the posterior"
               " probabilities of a better / equivalent / b better.")
    return FigurePlan("bayesian_simplex", drawn=True, headline=False, procedure=None,
                      family=None, ranking="bayesian", alpha=alpha, caption=caption,
                      posterior=shown)


def every_learner_figure(learners, intervals, verdict, how: dict, alpha: float,
                         top: int) -> dict:
    """``{"rank_intervals": plan}``: every learner's mean rank with its interval, best first,
    for tables whose other figures show only the best ``top`` learners. Filled: the verdict's
    top group (not significantly worse than the best)."""
    if intervals is None:
        return {}
    level = f"{100 * how['confidence']:g}%"
    source = ("bootstrap over data sets" if how["method"] == "bootstrap" else
              "normal approximation")
    group = set(verdict.winners) if verdict.detected else set(learners)
    procedure = procedure_title(verdict.procedure) if verdict.procedure else "the verdict"
    caption = (f"All {len(learners):,} learners, best mean rank first (the other figures show"
               f" the best {top}): mean rank (dot) with its {level} interval ({source}); filled:"
               f" not significantly worse than {verdict.best} by {procedure} at alpha ="
               f" {alpha} (the verdict's top group).")
    return {"rank_intervals": FigurePlan(
        "rank_intervals", drawn=True, headline=False, procedure=verdict.procedure,
        family="control", ranking="friedman", alpha=alpha, caption=caption,
        control=verdict.best, decisions={name: name not in group for name in learners},
        rank_intervals={name: (float(lo), float(hi))
                        for name, (lo, hi) in zip(learners, intervals)})}


# What the figures of the leaderboard, the curves and the fronts show, decided here once: how
# many learners a figure draws and what it says when it draws fewer than it has, and the scale
# of an axis.

#: An axis is drawn on a log scale when its values are all above 0 and span this factor or more
#: (two orders of magnitude): on a linear axis all but the largest crowd into a corner.
LOG_SPAN = 100


def axis_scale(values) -> str:
    """``"log"`` when every finite value is above 0 and the largest is ``LOG_SPAN`` times the
    smallest or more, else ``"linear"``: the one rule of every figure's value axes (the axis
    label says which).

    Examples
    --------
    >>> axis_scale([9.3, 160_000.0]), axis_scale([1600.0, 4000.0]), axis_scale([0.0, 1e6])
    ('log', 'linear', 'linear')
    """
    v = np.asarray(values, dtype=float).ravel()
    v = v[np.isfinite(v)]
    if v.size < 2 or (v <= 0).any():
        return "linear"
    return "log" if v.max() >= LOG_SPAN * v.min() else "linear"


def profile_tau_end(taus) -> float:
    """Where a performance profile's τ axis ends (it starts at 1, on a log₂ scale as Dolan &
    Moré draw it): the power of 2 past the largest finite ratio, where every learner has reached
    the share of problems it ever solves; at least 2.

    Examples
    --------
    >>> profile_tau_end([1.0]), profile_tau_end([1.0, 1.5, 3.0]), profile_tau_end([1.0, 4.0])
    (2.0, 4.0, 8.0)
    """
    t = np.asarray(taus, dtype=float)
    t = t[np.isfinite(t)]
    top = float(t.max()) if t.size else 1.0
    return float(2.0 ** max(1, int(np.ceil(np.log2(max(top, 1.0)) + 0.1))))


def left_out(what: str, shown: int, of: int, change: str, things: str = "learners"
             ) -> str | None:
    """The sentence a figure that draws the best ``shown`` of ``of`` prints in itself, and its
    report in the notes (None when it draws every one): "<what>: the best N of M <things>
    shown; <change>"."""
    if shown >= of:
        return None
    return f"{what}: the best {shown} of {of} {things} shown; {change}."
