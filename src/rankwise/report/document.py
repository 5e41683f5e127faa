"""The content of a report, once, as format-neutral blocks.

:func:`build` reads a :class:`~rankwise.analysis.Comparison` and returns the sections every format
shows, in one order: the verdict, the notes, the figures, the tests, the post-hoc comparisons,
the critical differences, the rank table, wins/ties/losses, the quartile charts and the methods.
The text, Markdown, LaTeX and HTML writers only lay these blocks out, so every format says the
same thing with the same numbers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..analysis.effects import effects_against
from ..analysis.figures import best_first
from ..defaults import PAIR_MATRIX_MAX_LEARNERS
from ..analysis.verdict import one_sided_claim
from ..names import FIGURES, TESTS, label, procedure_title, ranking_title, test_title
from .format import digits, fmt_cd, fmt_num, fmt_p, fmt_rank
from . import how_sure
from .methods import methods_paragraph

MAX_TABLE_ROWS = 200


@dataclass
class Heading:
    text: str
    level: int = 2


@dataclass
class Paragraph:
    text: str
    role: str = ""  # "lead", "verdict", "methods" or ""


@dataclass
class Cell:
    text: str
    best: bool = False  # the best value of its data set (bold)
    mark: bool = False  # significant at alpha (starred)


@dataclass
class Table:
    header: list
    rows: list           # lists of str or Cell
    align: str           # one of "<" or ">" per column
    caption: str = ""
    key: str = ""


@dataclass
class Bullets:
    items: list
    role: str = ""


@dataclass
class Preformatted:
    lines: list
    key: str = ""


@dataclass
class Figure:
    name: str
    plan: object  # FigurePlan, or a Drawn


@dataclass(frozen=True)
class Drawn:
    """The plan of a figure an analysis other than compare always draws: its title and
    caption (every format prints them as it prints a :class:`FigurePlan`'s)."""

    name: str
    title: str
    caption: str
    drawn: bool = True
    reason: str | None = None


@dataclass
class Document:
    title: str
    blocks: list = field(default_factory=list)

    def add(self, *blocks):
        self.blocks.extend(blocks)


def shown_learners(cmp) -> list:
    """Indices of the learners the reports show, best mean rank first: the best ``top`` (the
    ``top=`` option, ``--top``; all when it is None or k is not larger)."""
    return best_first(cmp.mean_ranks, cmp.options.get("top")).tolist()


#: Figures of learners (the CD, control and heat-map diagrams) show at most this many: a
#: label row each, and an image of more would pass the rasterisers' 65,536-pixel limit.
FIGURE_MAX_LEARNERS = 1_000


def figure_learners(cmp) -> list:
    """Indices of the learners the figures show: the reports' (``shown_learners``), at most
    ``FIGURE_MAX_LEARNERS``."""
    return shown_learners(cmp)[:FIGURE_MAX_LEARNERS]


def _is_shown(cmp) -> set:
    return {cmp.table.learners[j] for j in shown_learners(cmp)}


def left_out_sentence(cmp) -> str | None:
    """What the reports leave out at large k, and where all of it is."""
    k, shown = cmp.table.n_learners, len(shown_learners(cmp))
    if shown == k:
        return None
    if k <= PAIR_MATRIX_MAX_LEARNERS:
        return (f"Showing the best {shown} of {k:,} learners by mean rank in every table below"
                f" ({k - shown:,} left out; pair tables: pairs among them). The JSON output"
                " (--format json) holds every learner and pair, and --report DIR writes all"
                " pairs to pairs.csv; --top N shows more (0: all).")
    return (f"Showing the best {shown} of {k:,} learners by mean rank in every table below"
            f" ({k - shown:,} left out; pair tables: pairs among them). The JSON output"
            " (--format json) holds every learner and its comparison with the best; above"
            f" {PAIR_MATRIX_MAX_LEARNERS:,} learners its pair matrices and pairs.csv hold the"
            " pairs of the learners shown, and --posthoc all --pairs FILE writes every pair;"
            " --top N shows more (0: all).")


def source_name(source: str) -> str:
    """The input's file name for titles (the JSON keeps the whole path in ``source``)."""
    from pathlib import PurePath

    if source.startswith("example:") or "/" not in source and "\\" not in source:
        return source
    return PurePath(source).name


def table_digits(cmp) -> int:
    """Decimals of the table's numbers: ``digits=`` (``--digits``) when given, else as many as
    the input has (at most 6)."""
    chosen = cmp.options.get("digits")
    return int(chosen) if chosen is not None else digits(cmp.table.values)


def lead_sentence(cmp) -> str:
    t = cmp.table
    way = "higher is better" if t.higher_is_better else "lower is better"
    parts = [f"{t.n_learners:,} learners x {t.n_datasets:,} data sets"]
    if t.criterion:
        parts.append(f"criterion: {t.criterion}")
    parts.append(f"{way} ({t.direction_source})")
    parts.append(f"alpha = {cmp.alpha}")
    parts.append(f"convention = {cmp.convention}")
    if t.aggregate:
        parts.append(f"cells: {t.aggregate} of repeats x folds")
    parts.append(f"scores rounded to {cmp.decimals} decimals before comparing")
    parts.append("ranks: 1 = best, ties get mid-ranks")
    return "; ".join(parts) + "."


def build(cmp) -> Document:
    """The report of ``cmp`` as blocks."""
    t = cmp.table
    doc = Document(f"rankwise report: {source_name(t.source)}")
    doc.add(Paragraph(lead_sentence(cmp), "lead"))
    if getattr(t, "reading", None) is not None:
        doc.add(Paragraph(t.reading.sentence(), "lead"))
    if _headline_verdict(cmp):  # a headline, the table of the learners, then the qualifiers
        v = cmp.verdict
        doc.add(Heading("Verdict"), Paragraph(v.statement, "verdict"), _verdict_table(cmp),
                Paragraph(" ".join([*v.caveats, v.direction]), "verdict"))
    else:
        doc.add(Heading("Verdict"), Paragraph(cmp.verdict.text, "verdict"))
    left_out = left_out_sentence(cmp)
    if left_out:
        doc.add(Paragraph(left_out))
    if cmp.notes:
        doc.add(Heading("Notes"), Bullets(list(cmp.notes), "notes"))
    if cmp.figures:
        doc.add(Heading("Figures"))
        reasons = {plan.reason for plan in cmp.figures.values() if not plan.drawn}
        if len(reasons) == 1 and not any(plan.drawn for plan in cmp.figures.values()):
            doc.add(Paragraph(f"No figures: {reasons.pop()}."))
        else:
            shown = len(figure_learners(cmp))
            if shown < t.n_learners:
                doc.add(Paragraph(f"The figures show the best {shown:,} of {t.n_learners:,}"
                                  " learners by mean rank; their decisions are those of the"
                                  " whole analysis."))
            for name, plan in cmp.figures.items():
                doc.add(Figure(name, plan))
    doc.add(Heading("Mean ranks"), _mean_rank_table(cmp))
    if cmp.pair and any(TESTS[n].kind == "two_learners" for n in cmp.tests):
        doc.add(Paragraph(_pair_sentence(cmp)))
    if how_sure.has_section(cmp):
        doc.add(Heading("How sure can I be?"), *_how_sure_blocks(cmp))
    doc.add(Heading("Tests"), _tests_table(cmp))
    if cmp.posthoc is not None:
        _posthoc(doc, cmp)
    if cmp.critical_difference is not None:
        doc.add(Heading("Critical differences"), Paragraph(cd_sentence(cmp)))
    if cmp.posthoc is not None:
        _sign_and_contrasts(doc, cmp)
    if cmp.effects:
        doc.add(Heading("Effect sizes"), _effects_table(cmp))
    if cmp.bayesian:
        doc.add(Heading("Bayesian analysis"), _bayesian_table(cmp))
    if cmp.bayesian_model is not None:
        doc.add(Heading("Bayesian view of the whole table"), *_bayesian_model_blocks(cmp))
    if cmp.mcm is not None or cmp.groups is not None:
        doc.add(Heading("Multi-comparison matrix and rank groups"))
        if cmp.mcm is not None:
            doc.add(*_mcm_blocks(cmp))
        if cmp.groups is not None:
            doc.add(*_group_blocks(cmp))
    if cmp.per_dataset is not None:
        doc.add(Heading("Data set by data set"), *_per_dataset_blocks(cmp))
    doc.add(Heading("Rank table"), *_rank_table(cmp))
    doc.add(Heading("Wins / ties / losses"), _wtl_table(cmp))
    doc.add(Heading("Quartile charts"), Preformatted(_quartile_lines(cmp), "quartiles"))
    doc.add(Heading("Methods"), Paragraph(methods_paragraph(cmp), "methods"))
    return doc


#: Rows of the pool check's tables in a report (the JSON has every pair).
POOL_ROWS = 30


def _how_sure_blocks(cmp) -> list:
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


def _per_dataset_blocks(cmp) -> list:
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


def _bayesian_model_blocks(cmp) -> list:
    """The Plackett-Luce or Bradley-Terry model: what it says, and whether its chains agree."""
    from ..analysis.bayes_verdict import OVERCONFIDENT

    m = cmp.bayesian_model
    d = m.diagnostics
    shown = _is_shown(cmp)
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


def _group_blocks(cmp) -> list:
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


def _mcm_blocks(cmp) -> list:
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


def _headline_verdict(cmp) -> bool:
    from ..analysis.verdict import VERDICT_LIST_MAX

    v = cmp.verdict
    return v.family == "control" and v.detected and cmp.table.n_learners > VERDICT_LIST_MAX


def _verdict_table(cmp) -> Table:
    """The learners the headline verdict speaks of, with decision and size of difference."""
    v = cmp.verdict
    t = cmp.table
    sizes = effects_against(cmp.effects, v.best)
    d = table_digits(cmp)
    losers = set(v.losers)
    rows = []
    for j in shown_learners(cmp):
        name = t.learners[j]
        decision = ("best" if name == v.best else
                    "worse" if name in losers else "not detected")
        apv = v.apv.get(name)
        e = sizes.get(name)
        rows.append([name, f"{cmp.mean_ranks[j]:.3f}", decision,
                     "" if apv is None else Cell(fmt_p(apv), mark=name in losers),
                     "" if e is None else _interval(e.hodges_lehmann, d),
                     "" if e is None else
                     f"{e.cliffs_delta.estimate:.2f} {e.cliffs_delta.magnitude}"])
    level = f"{100 * cmp.settings.get('effects_confidence', 1 - cmp.alpha):g}%"
    return Table(["learner", "mean rank", "decision", "adjusted p", "difference (HL)",
                  "Cliff's delta"], rows, "<><>>>", key="verdict",
                 caption=f"Each learner against {v.best}: decision by the verdict's procedure"
                         f" at alpha = {cmp.alpha} ('not detected' is not evidence of"
                         f" equivalence); median difference learner - {v.best} with its"
                         f" {level} interval, each pair on its own.")


def cd_sentence(cmp) -> str:
    cd = cmp.critical_difference
    return (f"Critical differences of mean ranks at alpha = {cd.alpha} (SE = {cd.se:.6g},"
            f" {cd.se_formula}): Nemenyi {fmt_cd(cd.nemenyi)} (q = {cd.q_nemenyi:.4f}),"
            f" Bonferroni-Dunn {fmt_cd(cd.bonferroni_dunn)} (q = {cd.q_bonferroni_dunn:.4f}).")


def figure_caption(plan) -> str:
    title = plan.title if isinstance(plan, Drawn) else FIGURES[plan.name].title
    if not plan.drawn:
        return f"{title}: not drawn, because {plan.reason}."
    return f"{title}. {plan.caption}"


def _mean_rank_table(cmp) -> Table:
    table = _mean_rank_columns(cmp)
    sets = cmp.rank_sets
    if sets is None:
        return table
    how = cmp.settings["rank_sets"]
    level = f"{100 * how['confidence']:g}%"
    rows = [row + [_rank_span(sets, j)] for row, j in zip(table.rows, shown_learners(cmp))]
    caption = (f"{table.caption} Rank sets: {level} confidence sets for the ranks by"
               f" {'mean rank' if how['basis'] == 'ranks' else 'mean score'},"
               f" {'jointly for every learner' if how['simultaneous'] else 'each on its own'}"
               f" (Mogstad et al. 2023; {how['draws']:,} draws, seed {how['seed']}); * = could"
               f" be the best{'' if how['simultaneous'] else ' (by the joint sets)'}.")
    return Table(table.header + [f"{level} rank set"], rows, table.align + ">",
                 key=table.key, caption=caption.strip())


def _rank_span(sets, j) -> str:
    lo, hi = int(sets.lower[j]), int(sets.upper[j])
    return (f"{lo}" if lo == hi else f"{lo}-{hi}") + ("*" if sets.best[j] else "")


def _mean_rank_columns(cmp) -> Table:
    t = cmp.table
    order = shown_learners(cmp)
    ci = cmp.mean_rank_intervals
    if ci is None:
        rows = [[str(i + 1), t.learners[j], f"{cmp.mean_ranks[j]:.3f}"]
                for i, j in enumerate(order)]
        return Table(["#", "learner", "mean rank"], rows, "<<>", key="mean_ranks")
    how = cmp.settings["mean_rank_intervals"]
    level = f"{100 * how['confidence']:g}%"
    source = (f"bootstrap over data sets, {how['draws']:,} replicates, seed {how['seed']}"
              if how["method"] == "bootstrap" else "normal approximation")
    rows = [[str(i + 1), t.learners[j], f"{cmp.mean_ranks[j]:.3f}",
             f"[{ci[j, 0]:.3f}, {ci[j, 1]:.3f}]"] for i, j in enumerate(order)]
    return Table(["#", "learner", "mean rank", f"{level} interval"], rows, "<<>>",
                 key="mean_ranks",
                 caption=f"Mean ranks (1 = best) with {level} intervals ({source}); the"
                         " intervals describe sampling variation, they are not a test.")


def _pair_sentence(cmp) -> str:
    a, b = cmp.pair
    first = next(r for r in cmp.tests.values() if "b_wins" in r.details)
    text = (f"Two learners: {b} vs {a}: {b} better on {first.b_wins}, {a} better on"
            f" {first.a_wins}, ties {first.ties}.")
    if "wilcoxon" in cmp.tests:
        w = cmp.tests["wilcoxon"]
        text += (f" Wilcoxon: R+ = {fmt_num(w.r_plus)} ({b} better), R- = {fmt_num(w.r_minus)},"
                 f" zeros: {w.zero_method}.")
    return text


def _tests_table(cmp) -> Table:
    rows = []
    for name, res in cmp.tests.items():
        name_label = label(name)
        if res.details.get("variant"):
            name_label += f" [{res.details['variant']}]"
        rejected = res.reject(cmp.alpha)
        rows.append([name_label, fmt_num(res.statistic),
                     ", ".join(fmt_num(v) for v in res.df) if res.df else "",
                     Cell(fmt_p(res.pvalue), mark=rejected), res.method,
                     "yes" if rejected else "no"])
    sided = ""
    alternative = cmp.settings.get("alternative", "two-sided")
    if cmp.pair and alternative != "two-sided":
        better, worse = one_sided_claim(cmp.pair, alternative)
        sided = f"; two-learner tests one-sided, H1: {better} is better than {worse}"
    w = f" {cmp.concordance.sentence()}" if cmp.concordance is not None else ""
    return Table(["test", "statistic", "df", "p-value", "method", f"p <= {cmp.alpha}"], rows,
                 "<>>><<", caption=f"Omnibus and two-learner tests (convention:"
                                   f" {cmp.convention}{sided}); * = p <= {cmp.alpha}.{w}",
                 key="tests")


def _posthoc(doc, cmp):
    ph = cmp.posthoc
    for ranking, entry in ph.rankings.items():
        gate = entry.gate
        doc.add(Heading(f"Post-hoc: {ranking_title(ranking)}"))
        doc.add(Paragraph(f"Gate: {test_title(gate.test)}, p = {fmt_p(gate.pvalue)}"
                          + ("" if gate.passed else ", not significant") + "."))
        if entry.skipped:
            doc.add(Paragraph("Not computed: " + entry.notes[0] + "."))
            continue
        if entry.se is not None:
            doc.add(Paragraph(f"z = (M_a - M_b) / SE, SE = {entry.se:.6g} ({entry.se_formula})."))
        elif "df" in entry.details and "se" in entry.details:  # Conover's t-tests
            doc.add(Paragraph(f"t = (M_a - M_b) / SE on t with {entry.details['df']} degrees of"
                              f" freedom, SE = {entry.details['se']:.6g}"
                              f" ({entry.details['se_formula']})."))
        for fam, result in entry.families.items():
            what = f"against the control {ph.control}" if fam == "control" else "all pairs"
            procs = list(result.procedures)
            doc.add(Heading(what[0].upper() + what[1:], 3))
            if getattr(result, "complete", True) is False:
                _streamed_pairs(doc, cmp, ranking, result)
            doc.add(Table(["comparison", "statistic", "p"] + [label(p) for p in procs],
                          _comparison_rows(cmp, _shown_comparisons(cmp, result), procs),
                          "<>>" + ">" * len(procs), key=f"posthoc_{ranking}_{fam}",
                          caption=f"Adjusted p-values, {ranking_title(ranking)}, {what}; * ="
                                  f" adjusted p <= {cmp.alpha}."))
        if entry.methods:
            doc.add(Paragraph("Computed by: " + ", ".join(
                f"{label(k)} = {str(v).replace('_', ' ')}" for k, v in entry.methods.items())
                + "."))


def _comparison_rows(cmp, comparisons, procs) -> list:
    return [[f"{c.a} vs {c.b}", fmt_num(c.statistic), fmt_p(c.pvalue)]
            + [Cell(fmt_p(c.apv[p]), mark=c.rejected(p, cmp.alpha)) for p in procs]
            for c in comparisons]


#: The most significant pairs a report lists for a streamed all-pairs family.
STREAMED_PAIRS_LISTED = 10


def _streamed_pairs(doc, cmp, ranking, result) -> None:
    """What every pair of a streamed family comes to: how many each procedure rejects, and the
    most significant few; the table after it holds the pairs of the learners shown."""
    counts = "; ".join(f"{procedure_title(p)} {result.rejected[p]:,}" for p in result.procedures)
    doc.add(Paragraph(
        f"All {result.n_pairs:,} pairs were tested, in blocks (not held at once). Rejected at"
        f" alpha = {cmp.alpha}: {counts}. Every pair with its adjusted p-values: --pairs FILE"
        " (.parquet or .csv; --report DIR writes it too)."))
    listed = result.top.select(np.arange(min(STREAMED_PAIRS_LISTED, len(result.top))))
    procs = list(result.procedures)
    doc.add(Table(["comparison", "statistic", "p"] + [label(p) for p in procs],
                  _comparison_rows(cmp, listed, procs), "<>>" + ">" * len(procs),
                  key=f"posthoc_{ranking}_top",
                  caption=f"The {len(listed)} most significant of all {result.n_pairs:,} pairs,"
                          f" {ranking_title(ranking)}; the table below: the pairs of the"
                          " learners shown."))


def _shown_comparisons(cmp, result):
    """The rows of a family the reports print: pairs among the shown learners."""
    if getattr(result, "complete", True) is False:  # streamed: it kept the shown learners' pairs
        result = result.among
    shown = shown_learners(cmp)
    if len(shown) == cmp.table.n_learners:
        return result.comparisons
    where = {name: j for j, name in enumerate(cmp.table.learners)}
    column = np.array([where[name] for name in result.learners])  # family → table learner
    keep = np.zeros(cmp.table.n_learners, dtype=bool)
    keep[shown] = True
    a, b = column[result.a], column[result.b]
    rows = np.flatnonzero(keep[a] & keep[b])
    rank = np.asarray(cmp.mean_ranks)
    return result.select(rows[np.lexsort((np.maximum(rank[a[rows]], rank[b[rows]]),))])


def _sign_and_contrasts(doc, cmp):
    ph = cmp.posthoc
    mst = ph.multiple_sign_test
    shown = _is_shown(cmp)
    if mst:
        rows = [[r["learner"], str(r["pluses"]), str(r["minuses"]), str(r["ties"]),
                 "control better" if r["control_better"] else
                 "control worse" if r["control_worse"] else "no difference detected"]
                for r in mst["comparisons"] if r["learner"] in shown]
        doc.add(Heading("Multiple sign test"),
                Paragraph(f"Against {mst['control']}: critical value r* = {mst['critical_value']}"
                          f" (one-sided, alpha = {mst['alpha']})."),
                Table(["learner", "better", "worse", "tied", "decision"], rows, "<>>><",
                      key="multiple_sign_test"))
    ce = ph.contrast_estimation
    if ce is None:  # not computed for a table with missing cells
        return
    keep = [i for i, u in enumerate(ce["learners"]) if u in shown]
    names = [ce["learners"][i] for i in keep]
    est = ce["estimates"]
    rows = [[ce["learners"][u]] + [f"{est[u][v]:.5f}" for v in keep] for u in keep]
    doc.add(Heading("Contrast estimation based on medians"),
            Table([""] + names, rows, "<" + ">" * len(names), key="contrast_estimation",
                  caption="Row minus column; positive means the row learner scores higher."))


def _interval(e, digits: int = 4) -> str:
    if e.method == "undefined":
        return "n/a"
    return f"{e.estimate:.{digits}f} [{e.ci_low:.{digits}f}, {e.ci_high:.{digits}f}]"


def _effects_table(cmp) -> Table:
    level = f"{100 * cmp.effects[0].confidence:g}%"
    d = min(table_digits(cmp) + 1, 7)
    shown = _is_shown(cmp)
    every = len(shown) == cmp.table.n_learners
    rows = [[f"{e.a} - {e.b}", str(e.n), _interval(e.hodges_lehmann, d),
             _interval(e.probability_of_superiority, 3), _interval(e.cohens_dz, 2),
             _interval(e.cliffs_delta, 2), e.cliffs_delta.magnitude, f"{e.a12:.2f}"]
            for e in _effects_shown(cmp.effects, shown, every)]
    methods = sorted({e.hodges_lehmann.method for e in cmp.effects})
    return Table(["pair (a - b)", "N", "median difference (HL)", "P(a > b)", "Cohen's d_z",
                  "Cliff's delta", "magnitude", "A12"], rows, "<>>>>><>", key="effects",
                 caption=f"Effect sizes of a - b in the criterion's units (positive: a has the"
                         f" larger value), {level} intervals, each pair on its own (not adjusted"
                         f" for multiplicity): Hodges-Lehmann median difference"
                         f" ({' and '.join(methods)} interval), paired probability of"
                         " superiority (Wilson), Cohen's d_z (noncentral t), Cliff's delta"
                         " (unpaired, Cliff's interval; magnitude after Romano et al. 2006).")


def _effects_shown(effects, shown, every):
    if every:
        return effects
    if hasattr(effects, "a"):  # an EffectsTable: pick the rows before making objects
        return [effects[i] for i, (a, b) in enumerate(zip(effects.a, effects.b))
                if a in shown and b in shown]
    return [e for e in effects if e.a in shown and e.b in shown]


def _bayesian_table(cmp) -> Table:
    first = cmp.bayesian[0]
    words = {"a": "a practically better", "b": "b practically better",
             "equivalent": "practically equivalent", "undecided": "undecided"}
    by_dataset = "dataset" in first.details
    shown = _is_shown(cmp)
    rows = [([r.details["dataset"]] if by_dataset else [])
            + [f"{r.a} vs {r.b}", f"{r.p_a:.3f}", f"{r.p_rope:.3f}", f"{r.p_b:.3f}",
               words[r.decision]] for r in cmp.bayesian
            if r.a in shown and r.b in shown]
    if by_dataset and first.details["folds"] is None:
        what = ("Bayesian correlated t-test on each data set from its random train/test splits"
                " (Corani & Benavoli 2015; correlation n2/(n1 + n2), the share tested on),"
                " closed form")
    elif by_dataset:
        what = (f"Bayesian correlated t-test on each data set from its {first.details['folds']}"
                f"-fold results (Corani & Benavoli 2015; correlation 1/folds), closed form")
    elif first.test == "hierarchical":
        d = first.details["diagnostics"]
        unconverged = [f"{r.a} vs {r.b}" for r in cmp.bayesian
                       if not r.details["diagnostics"]["converged"]]
        what = (f"Hierarchical Bayesian correlated t-test over the data sets from the fold-level"
                f" results (Corani et al. 2017), {d['chains']} chains x {d['draws']:,} draws,"
                f" seed {first.seed}; P = share of posterior draws in which the outcome is the"
                f" most probable for a new data set"
                + (f"; NOT CONVERGED (undecided): {', '.join(unconverged)}" if unconverged
                   else f"; every chain converged (R-hat <= {d['rhat_limit']},"
                        f" ESS >= {d['ess_limit']:,})"))
    else:
        what = (f"Bayesian {first.test} test across data sets (Benavoli et al. 2017),"
                f" {first.draws:,} posterior samples, seed {first.seed}")
    return Table((["dataset"] if by_dataset else [])
                 + ["pair (a vs b)", "P(a better)", "P(equivalent)", "P(b better)", "decision"],
                 rows, ("<" if by_dataset else "") + "<>>><", key="bayesian",
                 caption=f"{what}; ROPE = {first.rope:g} in the criterion's units; a decision"
                         f" when a posterior probability reaches {first.threshold:g}. 'Better'"
                         " follows the criterion's direction.")


def _rank_table(cmp) -> list:
    t = cmp.table
    best = cmp.summary.best
    d = table_digits(cmp)
    cols = shown_learners(cmp)
    if len(cols) == t.n_learners:
        cols = list(range(t.n_learners))  # the table's own order when nothing is left out
    rows = []
    for i, name in enumerate(t.datasets[:MAX_TABLE_ROWS]):
        rows.append([name] + [Cell("-" if math.isnan(t.values[i, j]) else
                                   f"{t.values[i, j]:.{d}f} ({fmt_rank(cmp.ranks[i, j])})",
                                   best=bool(best[i, j])) for j in cols])
    rows.append(["average rank"] + [f"{cmp.mean_ranks[j]:.3f}" for j in cols])
    if cmp.groups is not None:
        rows.append(["Scott-Knott group"] + [str(int(cmp.groups.rank[j])) for j in cols])
    if cmp.letters is not None:
        marks = dict(zip(cmp.letters.learners, cmp.letters.letters))
        rows.append(["letters"] + [marks.get(t.learners[j], "") for j in cols])
    blocks = [Table(["dataset"] + [t.learners[j] for j in cols], rows, "<" + ">" * len(cols),
                    caption=f"{t.criterion or 'Scores'} per data set (rank in parentheses,"
                            " 1 = best; bold or * = best of the data set)." + _letters_note(cmp),
                    key="rank_table")]
    if t.n_datasets > MAX_TABLE_ROWS:
        blocks.append(Paragraph(f"... {t.n_datasets - MAX_TABLE_ROWS} more data sets (the average"
                                " ranks use all of them; see the JSON output)."))
    return blocks


def _letters_note(cmp) -> str:
    if cmp.letters is None:
        return ""
    plan = cmp.figures["cd_diagram"]
    return (f" Letters: learners that share one are not significantly different by"
            f" {procedure_title(plan.procedure)} at alpha = {plan.alpha} (compact letter"
            " display, Piepho 2004).")


def _wtl_table(cmp) -> Table:
    t = cmp.table
    summary = cmp.summary
    wtl = summary.win_tie_loss
    cols = shown_learners(cmp)
    if len(cols) == t.n_learners:
        cols = list(range(t.n_learners))
    at = {j: i for i, j in enumerate(summary.win_tie_loss_rows.tolist())}  # row of the matrix
    cols = [j for j in cols if j in at]  # --top 0 above 1,000 learners: the matrix's learners
    rows = [[t.learners[i]] + ["-" if i == j else "/".join(str(int(v)) for v in wtl[at[i], at[j]])
                               for j in cols] for i in cols]
    return Table([""] + [t.learners[j] for j in cols], rows, "<" + ">" * len(cols),
                 caption="Wins/ties/losses of the row learner against the column learner.",
                 key="win_tie_loss")


def _quartile_lines(cmp) -> list:
    from ..stats.summary import quartile_chart_lines

    charts = cmp.summary.quartiles
    shown = _is_shown(cmp)
    if len(shown) < cmp.table.n_learners:
        charts = {**charts, "overall": [r for r in charts["overall"] if r.learner in shown],
                  "per_dataset": {d: [r for r in rows if r.learner in shown]
                                  for d, rows in charts["per_dataset"].items()}}
    if cmp.groups is not None:  # each learner's Scott-Knott group beside its name
        from dataclasses import replace

        tag = {name: f"{name} [{int(g)}]" for name, g in zip(cmp.groups.learners,
                                                               cmp.groups.rank)}

        def tagged(rows):
            return [replace(r, learner=tag.get(r.learner, r.learner)) for r in rows]

        charts = {**charts, "overall": tagged(charts["overall"]),
                  "per_dataset": {d: tagged(rows) for d, rows in charts["per_dataset"].items()}}
    return quartile_chart_lines(cmp.table, digits=table_digits(cmp), charts=charts)
