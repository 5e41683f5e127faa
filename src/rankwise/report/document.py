"""The content of a report, once, as format-neutral blocks.

:func:`build` reads a :class:`~rankwise.analysis.Comparison` and returns the sections every format
shows, in one order: the verdict, the notes, the figures, the tests, the post-hoc comparisons,
the critical differences, the rank table, wins/ties/losses, the quartile charts and the methods.
The text, Markdown, LaTeX and HTML writers only lay these blocks out, so every format says the
same thing with the same numbers.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from .._text import counted
from ..analysis.effects import effects_against
from ..analysis.verdict import one_sided_claim
from ..stats.results import clip_to_floor
from ..names import FIGURES, TESTS, label, procedure_title, ranking_title, test_title
from .blocks import (BEST, MAX_TABLE_ROWS, Bullets, Cell, Document, Drawn,
                     Figure, Heading, Paragraph, Preformatted, Table, figure_learners,
                     left_out_sentence, shown_learners, shown_names, table_digits)
from .format import fmt_cd, fmt_num, fmt_p, fmt_rank
from . import how_sure
from .methods import methods_paragraph
from .sections import (bayesian_model_blocks, group_blocks, how_sure_blocks, mcm_blocks,
                       per_dataset_blocks)

def source_name(source: str) -> str:
    """The input's file name for titles (the JSON keeps the whole path in ``source``)."""
    from pathlib import PurePath

    if source.startswith("example:") or "/" not in source and "\\" not in source:
        return source
    return PurePath(source).name


def lead_sentence(cmp) -> str:
    t = cmp.table
    way = "higher is better" if t.higher_is_better else "lower is better"
    parts = [f"{t.n_learners:,} learners x {t.n_datasets:,} data sets"]
    if t.criterion:
        parts.append(f"criterion: {t.criterion}")
    parts.append(f"{way} ({t.direction_source})")
    parts.append(f"alpha = {cmp.alpha}")
    parts.append(f"convention = {cmp.convention}")
    if getattr(t, "cells", None):
        parts.append(f"cells: {t.cells}")
    elif t.aggregate:
        parts.append(f"cells: {t.aggregate} of repeats x folds")
    parts.append("scores compared as given (no rounding)" if cmp.decimals is None else
                 f"scores rounded to {counted(cmp.decimals, 'decimal')} before comparing")
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
                doc.add(Figure(name, _cut_caption(plan, shown, t.n_learners)))
    doc.add(Heading("Mean ranks"), _mean_rank_table(cmp))
    if cmp.pair and any(TESTS[n].kind == "two_learners" for n in cmp.tests):
        doc.add(Paragraph(_pair_sentence(cmp)))
    if how_sure.has_section(cmp):
        doc.add(Heading("How sure can I be?"), *how_sure_blocks(cmp))
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
        doc.add(Heading("Bayesian view of the whole table"), *bayesian_model_blocks(cmp))
    if cmp.mcm is not None or cmp.groups is not None:
        doc.add(Heading("Multi-comparison matrix and rank groups"))
        if cmp.mcm is not None:
            doc.add(*mcm_blocks(cmp))
        if cmp.groups is not None:
            doc.add(*group_blocks(cmp))
    if cmp.per_dataset is not None:
        doc.add(Heading("Data set by data set"), *per_dataset_blocks(cmp))
    doc.add(Heading("Rank table"), *_rank_table(cmp))
    doc.add(Heading("Wins / ties / losses"), _wtl_table(cmp))
    doc.add(Heading("Quartile charts"), Preformatted(_quartile_lines(cmp), "quartiles"))
    doc.add(Heading("Methods"), Paragraph(methods_paragraph(cmp), "methods"))
    return doc


#: The figures drawn for the best ``top`` learners only (the rank-interval plot shows all).
CUT_FIGURES = ("cd_diagram", "control_diagram", "pvalue_heatmap")


def _cut_caption(plan, shown: int, k: int):
    """``plan`` whose caption says which learners its figure leaves out, where it is drawn for
    the best ``shown`` of ``k``: a caption travels with its figure into a paper (the report
    fragment), the paragraph above does not."""
    if shown >= k or not plan.drawn or plan.name not in CUT_FIGURES:
        return plan
    return replace(plan, caption=f"{plan.caption} Drawn for the best {shown:,} of {k:,}"
                                 f" learners by mean rank ({k - shown:,} left out).")


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
    shown = shown_learners(cmp)
    for j, decision in zip(shown, v.decisions([t.learners[j] for j in shown])):
        name = t.learners[j]
        apv = v.apv.get(name)
        e = sizes.get(name)
        rows.append([name, _mean_rank_cell(cmp, j), decision,
                     "" if apv is None else Cell(fmt_p(apv), mark=name in losers,
                                                 value=_exact_p(apv)),
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


def _mean_rank_cell(cmp, j) -> Cell:
    return Cell(f"{cmp.mean_ranks[j]:.3f}", value=float(cmp.mean_ranks[j]),
                hint=f"mean rank of {cmp.table.learners[j]}")


def _mean_rank_columns(cmp) -> Table:
    t = cmp.table
    order = shown_learners(cmp)
    ci = cmp.mean_rank_intervals
    if ci is None:
        rows = [[str(i + 1), t.learners[j], _mean_rank_cell(cmp, j)] for i, j in enumerate(order)]
        return Table(["#", "learner", "mean rank"], rows, "<<>", key="mean_ranks")
    how = cmp.settings["mean_rank_intervals"]
    level = f"{100 * how['confidence']:g}%"
    source = (f"bootstrap over data sets, {how['draws']:,} replicates, seed {how['seed']}"
              if how["method"] == "bootstrap" else "normal approximation")
    rows = [[str(i + 1), t.learners[j], _mean_rank_cell(cmp, j),
             Cell(f"[{ci[j, 0]:.3f}, {ci[j, 1]:.3f}]", value=float(ci[j, 0]),
                  hint=f"{level} interval of {t.learners[j]}'s mean rank:"
                       f" {ci[j, 0]:.10g} to {ci[j, 1]:.10g}")]
            for i, j in enumerate(order)]
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


def _exact(x) -> float | None:
    """A cell's unrounded value (the HTML page sorts by it, a reader checks it against the
    JSON); None where there is no number."""
    return None if x is None or not np.isfinite(x) else float(x)


def _exact_p(p) -> float | None:
    """A p-value cell's value as the JSON writes it: below ``PVALUE_FLOOR``, the floor."""
    return None if p is None or not np.isfinite(p) else float(clip_to_floor(p))


def _tests_table(cmp) -> Table:
    rows = []
    for name, res in cmp.tests.items():
        name_label = label(name)
        if res.details.get("variant"):
            name_label += f" [{res.details['variant']}]"
        rejected = res.reject(cmp.alpha)
        rows.append([name_label, Cell(fmt_num(res.statistic), value=_exact(res.statistic)),
                     ", ".join(fmt_num(v) for v in res.df) if res.df else "",
                     Cell(fmt_p(res.pvalue), mark=rejected, value=_exact_p(res.pvalue)),
                     res.method,
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
    return [[f"{c.a} vs {c.b}", Cell(fmt_num(c.statistic), value=_exact(c.statistic)),
             Cell(fmt_p(c.pvalue), value=_exact_p(c.pvalue))]
            + [Cell(fmt_p(c.apv[p]), mark=c.rejected(p, cmp.alpha), value=_exact_p(c.apv[p]))
               for p in procs]
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
    shown = shown_names(cmp)
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
    shown = shown_names(cmp)
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
    shown = shown_names(cmp)
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
                            f" 1 = best; {BEST} = best of the data set)." + _letters_note(cmp),
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
    shown = shown_names(cmp)
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
