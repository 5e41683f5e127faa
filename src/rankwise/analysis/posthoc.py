"""Assemble the post-hoc section of a comparison (plain data, ready for JSON and text)."""

from __future__ import annotations

import math

from scipy import stats

from .. import _validate as check
from ..errors import RankwiseError
from ..names import GATES, RANK_BASED, RANKING_ALIASES, RANKINGS
from ..stats import OMNIBUS
from ..stats.anova import tukey_dunnett
from ..stats.contrast import contrast_estimation
from ..stats.multiple_sign import multiple_sign_test
from ..stats.pairwise import (
    adjusted_pvalues,
    check_procedures,
    comparisons_json,
    critical_difference,
    pairwise_statistics,
    resolve_control,
)
from ..stats.results import jsonable

FAMILY_OPTIONS = {"all": ("all_pairs",), "control": ("control",), "both": ("control", "all_pairs")}


def posthoc_report(table, x, mean_ranks, omnibus, *, family, control, procedures, rankings,
                   alpha, convention, decimals, force, time_budget, zero_method,
                   wilcoxon_method, sign_ties) -> dict:
    """The ``posthoc`` section of the JSON contract (see README)."""
    check.choice("posthoc", family, tuple(FAMILY_OPTIONS))
    families = FAMILY_OPTIONS[family]
    n, k = x.shape
    if k < 3:
        raise RankwiseError("post-hoc comparisons need at least 3 learners; with 2, the"
                            " two-learner tests already answer the question")
    if isinstance(rankings, str):
        rankings = [r.strip() for r in rankings.split(",") if r.strip()]
    rankings = [RANKING_ALIASES.get(r, r) for r in (rankings or ["friedman"])]
    for r in rankings:
        check.choice("ranking", r, RANKINGS + ("anova",))
    if isinstance(procedures, str):
        procedures = [p.strip() for p in procedures.split(",") if p.strip()]
    chosen = {fam: check_procedures(procedures, fam) for fam in families}
    for fam in families:
        if procedures is not None and not chosen[fam] and "anova" not in rankings:
            raise RankwiseError(f"none of the procedures {', '.join(procedures)} applies to the"
                                f" {fam.replace('_', ' ')} family")
    hib = table.higher_is_better
    learners = list(table.learners)
    c_idx = resolve_control(control, learners, mean_ranks) if "control" in families else None
    report = {
        "families": list(families),
        "rankings": rankings,
        "control": learners[c_idx] if c_idx is not None else None,
        "control_source": (None if c_idx is None else
                           "option" if control not in (None, "best") else "best Friedman mean rank"),
        "procedures": {fam: list(chosen[fam]) for fam in families},
        "forced": bool(force),
    }
    for ranking in rankings:
        gate_name = "anova" if ranking == "anova" else GATES[ranking]
        gate_res = omnibus.get(gate_name)
        if gate_res is None:
            runner = OMNIBUS[gate_name]
            kwargs = {"decimals": None, "convention": convention}
            if gate_name != "anova":
                kwargs["higher_is_better"] = hib
            gate_res = runner(x, **kwargs)
        passed = gate_res.reject(alpha)
        entry = {"gate": {"test": gate_name, "statistic": gate_res.statistic,
                          "pvalue": gate_res.pvalue, "alpha": alpha, "passed": passed}}
        notes = []
        if not passed:
            if not force:
                entry["skipped"] = True
                entry["notes"] = [f"the {gate_name} test does not reject at alpha = {alpha}: no"
                                  " post-hoc comparisons (force them with --force-posthoc)"]
                report[ranking] = jsonable(entry)
                continue
            notes.append(f"computed although the {gate_name} test does not reject at alpha ="
                         f" {alpha}: read these comparisons with care")
        if ranking == "anova":
            entry.update(_anova_entry(x, c_idx, families, learners, alpha, decimals))
        else:
            stat = pairwise_statistics(x, ranking, higher_is_better=hib, convention=convention,
                                       decimals=None, zero_method=zero_method,
                                       wilcoxon_method=wilcoxon_method, sign_ties=sign_ties)
            entry["statistic"] = "z" if ranking in RANK_BASED else (
                "T" if ranking == "wilcoxon" else "wins of b (ties split)"
                if sign_ties == "split" else "wins of b")
            if stat.scores is not None:
                entry["se"] = stat.se
                entry["se_formula"] = stat.details["se_formula"]
                entry["mean_scores"] = dict(zip(learners, stat.scores))
                entry["critical_difference"] = _cd_entry(k, n, alpha, stat.se)
            else:
                entry.update(stat.details)
            methods = {}
            for fam in families:
                pairs, p, apvs, fam_notes, used = adjusted_pvalues(
                    stat, fam, chosen[fam], control=c_idx, convention=convention,
                    time_budget=time_budget)
                entry[fam] = comparisons_json(pairs, p, apvs, stat, learners)
                notes.extend(fam_notes)
                methods.update(used)
            if methods:
                entry["methods"] = methods
        entry["notes"] = notes
        report[ranking] = jsonable(entry)
    fr = next((report[r] for r in rankings if r == "friedman" and "se" in report[r]), None)
    se_f = fr["se"] if fr else None
    report["critical_difference"] = jsonable(_cd_entry(k, n, alpha, se_f, convention == "paper"))
    if c_idx is not None:
        mst = multiple_sign_test(x, c_idx, alpha=alpha, higher_is_better=hib, decimals=None)
        for row in mst["comparisons"]:
            row["learner"] = learners[row["learner"]]
        mst["control"] = learners[c_idx]
        report["multiple_sign_test"] = jsonable(mst)
    ce = contrast_estimation(x, decimals=None)
    report["contrast_estimation"] = jsonable({
        "learners": learners,
        "m": dict(zip(learners, ce["m"])),
        "estimates": {learners[u]: dict(zip(learners, ce["estimates"][u])) for u in range(k)},
        "medians": {learners[u]: dict(zip(learners, ce["medians"][u])) for u in range(k)},
        "orientation": "estimate[u][v] = m_u - m_v; positive means u scores higher",
    })
    return report


def _cd_entry(k, n, alpha, se=None, demsar=False):
    nem, q_nem = critical_difference(k, n, alpha, "nemenyi", se=None if demsar else se)
    bd, q_bd = critical_difference(k, n, alpha, "bonferroni_dunn", se=None if demsar else se)
    used = math.sqrt(k * (k + 1) / (6.0 * n)) if (demsar or se is None) else se
    return {"alpha": alpha, "nemenyi": nem, "q_nemenyi": q_nem, "bonferroni_dunn": bd,
            "q_bonferroni_dunn": q_bd, "se": used}


def _anova_entry(x, c_idx, families, learners, alpha, decimals):
    res = tukey_dunnett(x, c_idx, alpha=alpha, decimals=None)
    n = x.shape[0]
    out = {"statistic": "q (Tukey) / t (Dunnett)", "mse": res["mse"], "df": res["df"],
           "means": dict(zip(learners, x.mean(axis=0)))}

    def unadjusted(diff):
        if res["mse"] <= 0:
            return 0.0
        t = abs(diff) / math.sqrt(2 * res["mse"] / n)
        return float(2 * stats.t.sf(t, res["df"]))

    if "all_pairs" in families:
        out["all_pairs"] = [{"a": learners[r["a"]], "b": learners[r["b"]],
                             "statistic": r["statistic"], "pvalue": unadjusted(r["difference"]),
                             "apv": {"tukey": r["pvalue"]}} for r in res["tukey"]]
    if "control" in families:
        out["control"] = [{"a": learners[r["a"]], "b": learners[r["b"]],
                           "statistic": r["statistic"], "pvalue": unadjusted(r["difference"]),
                           "apv": {"dunnett": r["pvalue"]}} for r in res["dunnett"]]
    out["notes_assumptions"] = "Tukey and Dunnett assume sphericity; see the ANOVA's notes"
    return out
