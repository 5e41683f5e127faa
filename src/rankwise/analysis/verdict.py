"""The plain verdict and a methods paragraph a researcher can paste.

The verdict follows the system notes: if the omnibus test finds no difference, the learners tie;
otherwise the learners not significantly worse than the best are the winners and the rest are the
losers, with the procedure and α named.
"""

from __future__ import annotations

import numpy as np

from ..errors import RankwiseError
from ..names import ALL_PAIRS_PROCEDURES, CONTROL_PROCEDURES, GATES
from ..stats.pairwise import adjusted_pvalues, pairwise_statistics

PROCEDURE_NAMES = {
    "bonferroni_dunn": "the Bonferroni-Dunn procedure", "holm": "Holm's procedure",
    "hochberg": "Hochberg's procedure", "hommel": "Hommel's procedure",
    "holland": "Holland's procedure", "rom": "Rom's procedure", "finner": "Finner's procedure",
    "li": "Li's procedure", "nemenyi": "the Nemenyi test", "bonferroni": "the Bonferroni correction",
    "shaffer": "Shaffer's static procedure", "bergmann_hommel": "the Bergmann-Hommel procedure",
}
TEST_NAMES = {"iman_davenport": "Iman-Davenport test", "friedman": "Friedman test",
              "friedman_aligned": "Friedman aligned-ranks test", "quade": "Quade test",
              "anova": "repeated-measures ANOVA"}
RANKING_NAMES = {"friedman": "Friedman mean ranks", "friedman_aligned": "mean aligned ranks",
                 "quade": "Quade's weighted ranks", "wilcoxon": "pairwise Wilcoxon tests",
                 "sign": "pairwise sign tests"}


def verdict(cmp, procedure: str = "holm", ranking: str = "friedman") -> dict:
    """Winners and losers at the comparison's α.

    Returns ``{"text", "tie", "winners", "losers", "best", "procedure", "ranking", "gate"}``.
    With two learners the Wilcoxon signed-ranks test decides.
    """
    t = cmp.table
    alpha = cmp.alpha
    learners = list(t.learners)
    if t.n_learners == 2:
        return _two_learner_verdict(cmp)
    if procedure not in CONTROL_PROCEDURES + ALL_PAIRS_PROCEDURES:
        raise RankwiseError(f"unknown verdict procedure {procedure!r}")
    gate_name = GATES.get(ranking, "iman_davenport")
    gate = cmp.tests.get(gate_name)
    if gate is None:  # the comparison ran other tests: compute the gate here
        from ..stats import OMNIBUS

        gate = OMNIBUS[gate_name](t.values, higher_is_better=t.higher_is_better, convention=cmp.convention,
                      decimals=cmp.decimals)
    best = int(np.argmin(cmp.mean_ranks))
    out = {"procedure": procedure, "ranking": ranking, "best": learners[best],
           "gate": {"test": gate_name, "pvalue": gate.pvalue, "alpha": alpha}}
    if not gate.reject(alpha):
        out.update(tie=True, winners=learners, losers=[])
        out["text"] = (f"The learners tie: the {TEST_NAMES[gate_name]} finds no significant"
                       f" difference between them at alpha = {alpha} (p = {gate.pvalue:.3g}).")
        return out
    stat = pairwise_statistics(t.values, ranking, higher_is_better=t.higher_is_better,
                               convention=cmp.convention, decimals=cmp.decimals,
                               zero_method=cmp.settings.get("wilcoxon_zero_method", "demsar"),
                               wilcoxon_method=cmp.settings.get("wilcoxon_method", "auto"),
                               sign_ties=cmp.settings.get("sign_ties", "split"))
    family = "control" if procedure in CONTROL_PROCEDURES else "all_pairs"
    pairs, _, apvs, _, _ = adjusted_pvalues(stat, family, (procedure,), control=best,
                                            convention=cmp.convention)
    if procedure not in apvs:
        raise RankwiseError(f"{procedure} cannot be used with the {ranking} ranking")
    worse = set()
    for (a, b), apv in zip(pairs, apvs[procedure]):
        if best in (a, b) and apv <= alpha:
            worse.add(b if a == best else a)
    winners = [l for j, l in enumerate(learners) if j not in worse]
    losers = [l for j, l in enumerate(learners) if j in worse]
    order = np.argsort(cmp.mean_ranks, kind="stable")
    winners.sort(key=lambda l: list(order).index(learners.index(l)))
    losers.sort(key=lambda l: list(order).index(learners.index(l)))
    out.update(tie=False, winners=winners, losers=losers)
    text = (f"At alpha = {alpha} the {TEST_NAMES[gate_name]} rejects that all learners perform"
            f" alike (p = {gate.pvalue:.3g}). Compared with the best-ranked learner, {learners[best]},"
            f" by {PROCEDURE_NAMES[procedure]} on {RANKING_NAMES[ranking]}: ")
    if losers:
        text += (f"winners (not significantly worse than {learners[best]}): {', '.join(winners)};"
                 f" losers: {', '.join(losers)}.")
    else:
        text += (f"no learner is significantly worse than {learners[best]}, so all of them are"
                 " winners.")
    out["text"] = text
    return out


def _two_learner_verdict(cmp) -> dict:
    a, b = cmp.pair
    w = cmp.tests.get("wilcoxon")
    if w is None:
        from ..stats.two_learners import wilcoxon

        t = cmp.table
        w = wilcoxon(t.column(a), t.column(b), higher_is_better=t.higher_is_better,
                     zero_method=cmp.settings.get("wilcoxon_zero_method", "demsar"),
                     method=cmp.settings.get("wilcoxon_method", "auto"),
                     convention=cmp.convention, decimals=cmp.decimals)
    out = {"procedure": None, "ranking": "wilcoxon", "gate": None, "best": None}
    if w.reject(cmp.alpha):
        better, worse = (b, a) if w.r_plus > w.r_minus else (a, b)
        out.update(tie=False, winners=[better], losers=[worse], best=better)
        out["text"] = (f"{better} is significantly better than {worse} (Wilcoxon signed-ranks"
                       f" test, {w.method} p = {w.pvalue:.3g}, alpha = {cmp.alpha}).")
    else:
        out.update(tie=True, winners=[a, b], losers=[])
        out["text"] = (f"{a} and {b} tie: the Wilcoxon signed-ranks test finds no significant"
                       f" difference at alpha = {cmp.alpha} ({w.method} p = {w.pvalue:.3g}).")
    return out


def methods_paragraph(cmp, verdict_info: dict | None = None) -> str:
    """A paragraph describing exactly what was done, for the methods section of a paper."""
    t = cmp.table
    crit = f"{t.criterion}, " if t.criterion else ""
    direction = "higher is better" if t.higher_is_better else "lower is better"
    parts = [f"We compared k = {t.n_learners} learners on N = {t.n_datasets} data sets"
             f" ({crit}{direction})."]
    if t.aggregate:
        parts.append(f"Each cell is the {t.aggregate} of the values over repeats and folds.")
    parts.append(f"Scores were rounded to {cmp.decimals} decimals before comparison; learners were"
                 " ranked within each data set (rank 1 = best, tied scores share the mean of"
                 " their ranks).")
    conv = ("the exact formulas (tie corrections; permutation standard errors)"
            if cmp.convention == "default" else
            "the formulas as published (no tie correction; published standard errors)")
    if t.n_learners >= 3:
        names = [TEST_NAMES.get(n, n) for n in cmp.tests if n in TEST_NAMES]
        parts.append(f"Omnibus tests: {', '.join(names)}, using {conv}, at alpha = {cmp.alpha}"
                     f" (Friedman's statistic {cmp.settings.get('friedman', '')}).")
    if cmp.pair and "wilcoxon" in cmp.tests:
        w = cmp.tests["wilcoxon"]
        parts.append(f"Two-learner tests: Wilcoxon signed-ranks test ({w.method} p-value; zero"
                     f" differences: '{w.zero_method}' rule), sign test (ties"
                     f" {cmp.tests['sign'].ties_rule if 'sign' in cmp.tests else 'split'}),"
                     " and paired t-tests on absolute and relative differences; all two-sided.")
    ph = cmp.posthoc
    if ph:
        for ranking in ph["rankings"]:
            entry = ph[ranking]
            fams = []
            for fam in ph["families"]:
                procs = ", ".join(PROCEDURE_NAMES.get(p, p) for p in ph["procedures"][fam])
                if ranking == "anova":
                    procs = "Tukey" if fam == "all_pairs" else "Dunnett"
                target = (f"against {ph['control']}" if fam == "control" else "for all pairs")
                fams.append(f"{target} with {procs}")
            se = f" (standard error: {entry['se_formula']})" if "se_formula" in entry else ""
            gate = "" if entry["gate"]["passed"] else " although the omnibus test did not reject"
            if entry.get("skipped"):
                parts.append(f"Post-hoc comparisons on {RANKING_NAMES.get(ranking, ranking)} were"
                             " not performed because the omnibus test did not reject.")
            else:
                parts.append(f"Post-hoc comparisons on {RANKING_NAMES.get(ranking, ranking)}{se}"
                             f"{gate}: {'; '.join(fams)}; adjusted p-values are reported.")
    if verdict_info and verdict_info.get("procedure"):
        parts.append(f"The verdict compares every learner with the best-ranked one by"
                     f" {PROCEDURE_NAMES[verdict_info['procedure']]} at alpha = {cmp.alpha}.")
    if t.dropped_datasets or t.dropped_learners:
        dropped = (f"{len(t.dropped_datasets)} data set(s) ({', '.join(t.dropped_datasets)})"
                   if t.dropped_datasets else
                   f"{len(t.dropped_learners)} learner(s) ({', '.join(t.dropped_learners)})")
        parts.append(f"{len(t.missing_cells)} result(s) were missing; {dropped} were dropped.")
    else:
        parts.append("No results were missing.")
    return " ".join(parts)
