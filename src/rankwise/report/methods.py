"""The methods paragraph: what was done, in words a researcher can paste into a paper."""

from __future__ import annotations

from .._text import counted
from ..analysis.verdict import one_sided_claim
from ..names import TESTS, imputed_from, procedure_title, ranking_title


def methods_paragraph(cmp) -> str:
    """What was done, sentence by sentence: the design, the omnibus tests, the two-learner
    tests, the post-hoc families, the verdict's procedure, the effect sizes, the Bayesian
    analysis and what happened to missing results."""
    parts = []
    for sentences in (_design, _omnibus, _two_learners, _posthoc, _verdict, _effects,
                      _bayesian, _missing):
        parts += sentences(cmp)
    return " ".join(parts)


def _design(cmp) -> list:
    t = cmp.table
    crit = f"{t.criterion}, " if t.criterion else ""
    direction = "higher is better" if t.higher_is_better else "lower is better"
    parts = [f"We compared k = {t.n_learners} learners on N = {t.n_datasets} data sets"
             f" ({crit}{direction})."]
    if getattr(t, "cells", None):
        parts.append(f"Each cell is {t.cells}.")
    elif t.aggregate:
        parts.append(f"Each cell is the {t.aggregate} of the values over repeats and folds.")
    rounded = ("Scores were compared as given (no rounding)" if cmp.decimals is None else
               f"Scores were rounded to {counted(cmp.decimals, 'decimal')} before comparison")
    parts.append(f"{rounded}; learners were ranked within each data set (rank 1 = best, tied"
                 " scores share the mean of their ranks).")
    return parts


def _omnibus(cmp) -> list:
    t = cmp.table
    conv = ("the exact formulas (tie corrections; permutation standard errors)"
            if cmp.convention == "default" else
            "the formulas as published (no tie correction; published standard errors)")
    omnibus = [TESTS[n].title for n in cmp.tests if TESTS[n].kind == "omnibus"]
    if t.n_learners < 3 or not omnibus:
        return []
    parts = [f"Omnibus tests: {', '.join(omnibus)}, using {conv}, at alpha = {cmp.alpha}"
             f" (Friedman's statistic {cmp.settings.get('friedman', '')})."]
    fried = cmp.tests.get("friedman") or cmp.tests.get("iman_davenport")
    if fried is not None and fried.method in ("exact", "monte-carlo"):
        how = ("computed exactly" if fried.method == "exact" else
               f"estimated from {fried.details['monte_carlo_replicates']:,} seeded random"
               " arrangements")
        parts.append(f"With {t.n_datasets} data sets the Friedman and Iman-Davenport p-values"
                     " come from their permutation distribution given each data set's ranks"
                     f" ({how}), not from the chi-square and F approximations.")
    return parts


def _two_learners(cmp) -> list:
    if not (cmp.pair and "wilcoxon" in cmp.tests):
        return []
    w = cmp.tests["wilcoxon"]
    ties = cmp.tests["sign"].ties_rule if "sign" in cmp.tests else cmp.settings["sign_ties"]
    alternative = cmp.settings.get("alternative", "two-sided")
    better, worse = one_sided_claim(cmp.pair, alternative)
    sided = ("all two-sided" if alternative == "two-sided" else
             f"all one-sided (H1: {better} is better than {worse})")
    corrected = ("; continuity-corrected" if w.method == "normal"
                 and cmp.settings.get("continuity_correction") else "")
    return [f"Two-learner tests: Wilcoxon signed-ranks test ({w.method} p-value{corrected};"
            f" zero differences: '{w.zero_method}' rule), sign test (ties {ties}),"
            f" and paired t-tests on absolute and relative differences; {sided}."]


def _posthoc(cmp) -> list:
    ph, parts = cmp.posthoc, []
    if ph is None:
        return parts
    for ranking, entry in ph.rankings.items():
        if entry.skipped:
            parts.append(f"Post-hoc comparisons on {ranking_title(ranking)} were not performed"
                         " because the omnibus test did not reject.")
            continue
        fams = []
        for fam, result in entry.families.items():
            procs = ", ".join(procedure_title(p) for p in result.procedures)
            target = f"against {ph.control}" if fam == "control" else "for all pairs"
            fams.append(f"{target} with {procs}")
        se = f" (standard error: {entry.se_formula})" if entry.se_formula else ""
        gate = " although the omnibus test did not reject" if entry.forced else ""
        parts.append(f"Post-hoc comparisons on {ranking_title(ranking)}{se}{gate}:"
                     f" {'; '.join(fams)}; adjusted p-values are reported.")
    return parts


def _verdict(cmp) -> list:
    v = cmp.verdict
    if v is None or not v.procedure:
        return []
    return [f"The verdict compares every learner with the best-ranked one by"
            f" {procedure_title(v.procedure)} at alpha = {cmp.alpha}."]


def _effects(cmp) -> list:
    if not cmp.effects:
        return []
    level = f"{100 * cmp.effects[0].confidence:g}%"
    return [f"Effect sizes with {level} confidence intervals: the Hodges-Lehmann estimate"
            " of the median paired difference (interval from the signed-rank"
            " distribution), the paired probability of superiority (Wilson interval),"
            " Cohen's d_z (noncentral-t interval) and Cliff's delta between the two"
            " columns, unpaired (Cliff's interval; magnitudes after Romano et al. 2006)."]


def _bayesian(cmp) -> list:
    if not cmp.bayesian:
        return []
    b = cmp.bayesian[0]
    if b.test == "correlated-t":
        return [f"On each data set, the Bayesian correlated t-test (Corani & Benavoli 2015)"
                f" compared the fold-level results (correlation 1/folds) with a region of"
                f" practical equivalence of {b.rope:g}; a conclusion is drawn when a"
                f" posterior probability reaches {b.threshold:g}."]
    if b.test == "hierarchical":
        d = b.details["diagnostics"]
        unconverged = [f"{r.a} vs {r.b}" for r in cmp.bayesian
                       if not r.details["diagnostics"]["converged"]]
        return [f"The hierarchical Bayesian correlated t-test (Corani et al. 2017) compared"
                f" the fold-level results over the data sets (correlation 1/folds; the"
                f" paper's priors) with a region of practical equivalence of {b.rope:g};"
                f" NUTS, {d['chains']} chains x {d['draws']:,} draws (seed {b.seed}), split"
                f" R-hat <= {d['rhat_limit']} and bulk ESS >= {d['ess_limit']:,} required;"
                f" a conclusion is drawn when the share of posterior draws favouring one"
                f" outcome reaches {b.threshold:g}"
                + (f"; the chains of {', '.join(unconverged)} did not converge, so no"
                   " conclusion is drawn from them." if unconverged else ".")]
    prior = (f"a prior pseudo-observation of weight {b.details['prior']:g} at zero"
             if b.test == "signed-rank" else
             f"a prior pseudo-observation of weight {b.details['prior']:g} in the ROPE")
    return [f"Bayesian {b.test} test (Benavoli et al. 2017) with a region of practical"
            f" equivalence of {b.rope:g} in the criterion's units and {prior};"
            f" {b.draws:,} posterior samples (seed {b.seed}); a conclusion is drawn"
            f" when a posterior probability reaches {b.threshold:g}."]


def _missing(cmp) -> list:
    t = cmp.table
    if cmp.settings.get("missing_policy") == "skillings-mack":
        sm = cmp.tests.get("skillings_mack")
        how = "" if sm is None else (
            f" (chi-square p-value with {sm.df[0]} degrees of freedom)" if sm.method == "chi2" else
            f" (p-value from {sm.details['monte_carlo_replicates']:,} seeded random arrangements"
            " of each data set's ranks over its own learners)")
        return [f"{len(t.missing_cells)} result(s) were missing; every other result was kept."
                " Each data set's values were ranked among themselves, the omnibus test was"
                f" the Skillings-Mack test for incomplete tables{how}, and every pairwise"
                " comparison used the data sets both learners have values on."]
    if t.filled_cells:
        how = ("the worst score on its data set" if t.missing_policy == "worst" else
               f"the score of {imputed_from(t.missing_policy)} on its data set")
        return [f"{len(t.filled_cells)} result(s) were missing and were filled with {how},"
                " as if the learner had scored that (the AutoML benchmark's practice for"
                " failed jobs)."]
    if t.dropped_datasets or t.dropped_learners:
        dropped = (f"{len(t.dropped_datasets)} data set(s) ({', '.join(t.dropped_datasets)})"
                   if t.dropped_datasets else
                   f"{len(t.dropped_learners)} learner(s) ({', '.join(t.dropped_learners)})")
        return [f"{len(t.missing_cells)} result(s) were missing; {dropped} were dropped."]
    return ["No results were missing."]
