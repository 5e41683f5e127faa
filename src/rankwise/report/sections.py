"""The optional sections of a comparison's report: how sure (rank sets, the data-set check,
another reasonable analysis, the pool), the Bayesian view of the whole table, the groups and
the multiple-comparison matrix, and the tests data set by data set. :func:`.document.build`
places them; every format lays them out."""

from __future__ import annotations

import numpy as np

from ..names import procedure_title, ranking_title
from . import how_sure
from .blocks import (MAX_TABLE_ROWS, Cell, Heading, Paragraph, Preformatted, Table,
                     shown_learners, shown_names, table_digits)
from .format import fmt_p

#: Rows of the pool check's tables in a report (the JSON has every pair).
POOL_ROWS = 30


def how_sure_blocks(cmp) -> list:
    """Rank sets, the data-set check and the pool check, with the letters: the sentences the
    verdict carries, a table of the learners, the claims and what overturns them."""
    blocks = []
    if cmp.rank_sets is not None or cmp.dataset_check is not None or cmp.multiverse is not None:
        own = {x.sentence() for x in (cmp.pool_check, cmp.multiverse) if x is not None}
        said = [x for x in how_sure.sentences(cmp) if x not in own]
        if said:  # the pool's and the multiverse's are in their own parts below
            blocks.append(Paragraph(" ".join(said)))
        blocks.append(_how_sure_table(cmp))
    if cmp.dataset_check is not None:
        check = cmp.dataset_check
        blocks.append(Table(
            ["claim", "falls without", "subsets"], how_sure.claim_rows(cmp), "<<>",
            key="dataset_check",
            caption=(f"Which data sets carry each claim: every subset of up to"
                     f" {check.settings['max_exact']} of the {len(check.datasets)} data sets"
                     " was removed in turn and the analysis rerun with the same settings;"
                     " 'm: names' gives the fewest data sets that change the claim (the first"
                     " such set; subsets: how many sets of that size do), '<=m' an upper bound"
                     " found by removing, one at a time, the data set that most weakens it."
                     " The verdict's claims, then the pairs that one or two data sets decide"
                     " (every claim in the JSON).")))
        blocks.append(Paragraph(" ".join([how_sure.leave_one_out_sentence(cmp),
                                          *check.notes])))
    if cmp.multiverse is not None:
        blocks += [Heading("Another reasonable analysis", 3), *_multiverse_blocks(cmp)]
    if cmp.pool_check is not None:
        blocks += [Heading("Does the pool matter?", 3), *_pool_blocks(cmp)]
    return blocks


def _multiverse_blocks(cmp) -> list:
    mv = cmp.multiverse
    dims = "; ".join(f"{d}: {', '.join(map(str, v))}" for d, v in mv.dimensions.items())
    blocks = [Paragraph(f"The verdict was rerun for every combination of these choices ({dims};"
                        " the analysis's own first), each the same analysis as compare with"
                        " those options. " + " ".join([mv.sentence(), *mv.notes])),
              Table(["claim of the verdict", "analyses agreeing", "not with"],
                    how_sure.multiverse_claim_rows(cmp), "<><", key="multiverse_claims",
                    caption="Each claim of the verdict across the analyses that ran; 'not with':"
                            " the choices under which it never holds, else the analyses that"
                            " do not make it."),
              Table(["#", "analysis", "best", "worse than it", "claims made"],
                    how_sure.multiverse_entry_rows(cmp), "<<<>>", key="multiverse",
                    caption="Every analysis of the grid; its command is below, under its"
                            " number."),
              Preformatted(how_sure.multiverse_commands(cmp), "multiverse_commands")]
    return blocks


def per_dataset_blocks(cmp) -> list:
    """WEKA's Experimenter table: mean (sd) over folds, v/* against the base, (v/ /*)."""
    pd_ = cmp.per_dataset
    # WEKA prints two decimals (of percentages); scores within ±10 get four
    d = cmp.options.get("digits")
    if d is None:
        d = 2 if np.nanmax(np.abs(pd_.means), initial=0.0) >= 10 else 4
    marks = pd_.marks()
    rows = []
    for i, name in enumerate(pd_.datasets[:MAX_TABLE_ROWS]):
        row = [name]
        for j, learner in enumerate(pd_.learners):
            m, s = pd_.means[i, j], pd_.sds[i, j]
            cell = "-" if np.isnan(m) else f"{m:.{d}f} ({'-' if np.isnan(s) else f'{s:.{d}f}'})"
            mark = marks.get((name, learner), "") if j else ""
            row.append(f"{cell} {mark}".rstrip())
        rows.append(row)
    totals = pd_.totals()
    rows.append(["(v/ /*)", ""] + [f"({v}/{t}/{w})" for v, t, w in
                                   (totals[n] for n in pd_.learners[1:])])
    s = pd_.settings
    tests = ("; with Dietterich's 5x2cv t-test and Alpaydin's combined 5x2cv F-test in the"
             " JSON" if s["tests"] == "5x2cv" else "")
    over = (f"{s['repeats']} random train/test splits" if "design" in s else
            f"{s['repeats']} x {s['folds']} folds")
    caption = (f"Mean (sd) of {cmp.table.criterion or 'the score'} over the {over} of each"
               f" data set; against {pd_.base} (first column) by the"
               f" corrected resampled t-test (Nadeau & Bengio 2003, as WEKA's"
               f" PairedCorrectedTTester) at alpha = {s['alpha']}, n2/n1 {s['test_train_ratio']}"
               f", {'Holm-adjusted over the data sets' if s['adjust'] == 'holm' else 'not adjusted over the data sets'}"
               f": {_mark_legend(s.get('marks', 'better'))}{tests}. The Bayesian correlated"
               " t-test of"
               " each pair (ROPE and decision) is in the JSON.")
    return [Paragraph(" ".join([pd_.sentence(), *pd_.notes])),
            Table(["dataset", *pd_.learners], rows, "<" + ">" * len(pd_.learners),
                  key="per_dataset", caption=caption)]


def _mark_legend(marks: str) -> str:
    """What v and * mean in the per-data-set table, by ``--per-dataset-marks``."""
    if marks == "weka":
        return ("v a significantly higher value, * a significantly lower one (WEKA's marks,"
                " --per-dataset-marks weka)")
    return ("v significantly better, * significantly worse (in the criterion's direction;"
            " WEKA marks higher and lower values: --per-dataset-marks weka)")


def _how_sure_table(cmp) -> Table:
    header, rows, align = how_sure.rows(cmp, shown_learners(cmp))
    parts = []
    if cmp.rank_sets is not None:
        parts.append("rank set: the ranks the learner can have at the stated confidence"
                     " (* = could be the best)" + ("; tier: learners grouped by how many others"
                                                    " are surely better" if
                                                    cmp.rank_sets.simultaneous else ""))
    if cmp.letters is not None:
        parts.append("letters: learners that share one are not significantly different")
    if cmp.dataset_check is not None:
        parts.append("falls without: the fewest data sets whose removal changes the verdict's"
                     " claim about the learner, and which")
    if cmp.multiverse is not None:
        parts.append("analyses agreeing: the analyses of the grid that make the verdict's claim"
                     " about the learner")
    return Table(header, rows, align, key="how_sure", caption="How sure: " + "; ".join(parts)
                 + ".")


def _pool_blocks(cmp) -> list:
    """The pool check: its sentence, the pools that change the verdict, the unstable pairs."""
    pc = cmp.pool_check
    blocks = [Paragraph(
        f"Every decision below was recomputed for {len(pc.pools)} other pools: each learner"
        f" left out in turn, and a copy of each learner added that loses every tie with it (a"
        f" dominated clone), with the all-pairs family ({procedure_title(pc.procedure)} on"
        f" {ranking_title(pc.ranking)}) and the verdict ({procedure_title(pc.verdict_procedure)}"
        f" against the best) at alpha = {pc.alpha}. " + pc.sentence())]
    if pc.verdict_changes:
        rows = [[pool, ", ".join(joins) or "-", ", ".join(leaves) or "-"]
                for pool, joins, leaves in pc.verdict_changes[:POOL_ROWS]]
        blocks.append(Table(["pool", "joins the top group", "leaves it"], rows, "<<<",
                            key="pool_verdict",
                            caption="Pools in which the verdict's top group (the learners not"
                                    " significantly worse than the best) changes."))
    unstable = pc.unstable_pairs()
    if unstable:
        rows = [[a, b, decision, ", ".join(pools)] for a, b, decision, pools
                in unstable[:POOL_ROWS]]
        more = len(unstable) - POOL_ROWS
        blocks.append(Table(["a", "b", "decision with the whole pool", "changed by"], rows,
                            "<<<<", key="pool_pairs",
                            caption="Pairs whose decision depends on who else is in the pool"
                                    + (f" (the first {POOL_ROWS}; {more:,} more in the JSON)."
                                       if more > 0 else ".")))
    return blocks


def bayesian_model_blocks(cmp) -> list:
    """The Plackett-Luce or Bradley-Terry model: what it says, and whether its chains agree."""
    from ..analysis.bayes_verdict import OVERCONFIDENT

    m = cmp.bayesian_model
    d = m.diagnostics
    shown = shown_names(cmp)
    if not m.HAS_ROPE:  # Plackett-Luce
        # P(a ranks above b) for the verdict's pairs: each learner against the verdict's best
        ref = cmp.verdict.best if cmp.verdict.best in m.learners else m.summary()[0]["learner"]
        r_ref = m.learners.index(ref)

        def above(name):
            j = m.learners.index(name)
            return "-" if j == r_ref else f"{m.p_above[j, r_ref]:.3f}"

        rows = [[r["learner"], f"{r['p_best']:.3f}", f"{r['expected_weight']:.3f}",
                 f"{r['expected_rank']:.2f} [{r['rank_interval'][0]:g}, {r['rank_interval'][1]:g}]",
                 above(r["learner"])]
                for r in m.summary() if r["learner"] in shown]
        level = f"{100 * m.credible:g}%"
        intro = ("Plackett-Luce model of the rankings (Calvo et al. 2018): Dirichlet(1) prior on"
                 " the weights; tied learners share a denominator (Breslow). P(best) is the"
                 " posterior probability that the learner has the largest weight; the expected"
                 " weight is the probability that it ranks first on a new data set.")
        table = Table(["learner", "P(best)", "expected weight", f"expected rank [{level}]",
                       f"P(above {ref})"], rows, "<>>>>", key="bayesian_model",
                      caption=f"Plackett-Luce posterior, by expected weight; P(above {ref}):"
                              f" the probability that the learner ranks above {ref} on a new"
                              " data set (every pair in the JSON's p_above).")
    else:
        rows = [[p["larger"], p["smaller"], f"{p['mean']:.2f}",
                 f"[{p['hdi_low']:.2f}, {p['hdi_high']:.2f}]", f"{p['p_a_better']:.3f}",
                 f"{p['p_equivalent']:.3f}", f"{p['p_b_better']:.3f}"]
                for p in m.pairs if p["larger"] in shown and p["smaller"] in shown][:POOL_ROWS]
        rope = ("a data set is a tie when the mean per-fold difference lies within"
                f" {m.local_rope:g} of their standard deviation (paired local ROPE)"
                if m.local_rope is not None else "only equal values tie")
        intro = ("Bayesian Bradley-Terry model of the wins over data sets (Wainer 2023):"
                 f" sigma ~ LogNormal(0, 0.5), beta ~ Normal(0, sigma); {rope}; ties spread"
                 " half to each side. p = P(a beats b on a new data set); a is practically"
                 " better when p > 0.55, equivalent when 0.45 <= p <= 0.55. "
                 + OVERCONFIDENT)
        table = Table(["a", "b", "mean p", "89% HDI", "P(a better)", "P(equivalent)",
                       "P(b better)"], rows, "<<>>>>>", key="bayesian_model",
                      caption="Bradley-Terry posterior of every pair, a the larger ability.")
    return [Paragraph(intro + " Sampling: " + d.sentence()), table]


def group_blocks(cmp) -> list:
    """The Scott-Knott ESD groups: one row per group, and the merges the correction made."""
    g = cmp.groups
    what = {"p": "mean score", "np": "mean of k + 1 - rank", "a12": "median"}[g.version]
    rows = [[str(grp["rank"]), ", ".join(grp["learners"]),
             ", ".join(f"{m:.4g}" for m in grp["means"])] for grp in g.groups]
    how = (" Each cut is where the two sides' means differ most (weighted by their numbers of"
           " values), kept when Efron & Tibshirani's bootstrap test (1,000 seeded resamples)"
           " and Vargha & Delaney's A12 both separate the sides."
           if g.method == "scott-knott-bootstrap" else
           " Scott & Knott's likelihood-ratio test on the sorted means of the one-way ANOVA, as"
           " the 1.x releases of the ScottKnottESD R package compute it. The groups depend on"
           " the pool too: the test's error variance is pooled over every learner.")
    blocks = [Paragraph(g.sentence() + how),
              Table(["group", "learners", what], rows, "<<<", key="groups",
                    caption=("Scott-Knott groups" if g.method == "scott-knott-bootstrap" else
                             "Scott-Knott ESD groups") + ", best first.")]
    if g.merged:
        blocks.append(Paragraph("Merged by the effect-size correction: " + "; ".join(
            f"{a} and {b} (d = {d:.3f})" for a, b, d in g.merged) + "."))
    return blocks


#: The multi-comparison matrix in a report: the pairs among this many best learners.
MCM_LEARNERS = 10


def mcm_blocks(cmp) -> list:
    """The multi-comparison matrix as one row per pair (the matrix itself is the figure)."""
    m = cmp.mcm
    k = len(m.learners)
    keep = set(m.order[:MCM_LEARNERS])
    where = {j: i for i, j in enumerate(m.order)}
    rows = []
    idx = [i for i in range(len(m.a)) if m.a[i] in keep and m.b[i] in keep]
    idx.sort(key=lambda i: (where[m.a[i]], where[m.b[i]]))
    d = table_digits(cmp)
    p = m.apv_holm if m.holm else m.pvalue
    for i in idx:
        rows.append([m.learners[m.a[i]], m.learners[m.b[i]],
                     f"{m.mean_difference[i]:.{d + 1}f}",
                     f"{int(m.wins[i])} / {int(m.ties[i])} / {int(m.losses[i])}",
                     Cell(fmt_p(p[i]), mark=bool(m.significant[i]))])
    how = ("the multi-comp-matrix package's conventions (raw scores, scipy's p-value rule,"
           " significance as p < alpha" + (", its Holm flags" if m.holm else "") + ")"
           if m.convention == "paper" else
           "scores rounded as everywhere, exact p-values up to 50 data sets (ties and zeros"
           " included)" + (", Holm's step-down procedure" if m.holm else ""))
    shown = (f" The pairs among the best {MCM_LEARNERS} of {k:,} learners are listed; every"
             " pair is in the JSON." if k > MCM_LEARNERS else "")
    intro = Paragraph(
        "Multi-comparison matrix (Ismail-Fawaz et al. 2023): each pair on its own two columns,"
        " so no entry depends on the other learners (only the Holm adjustment does, through"
        " the number of pairs). Learners by mean score, best first; a is the better-placed"
        f" learner of each pair; two-sided Wilcoxon signed-ranks test with Pratt's zero rule;"
        f" {how}." + shown)
    column = "Holm-adjusted p" if m.holm else "p"
    table = Table(["a", "b", "mean difference a - b", "wins / ties / losses of a", column],
                  rows, "<<>>>", key="mcm",
                  caption=f"Multi-comparison matrix; * = significant at alpha = {m.alpha}.")
    return [intro, table]
