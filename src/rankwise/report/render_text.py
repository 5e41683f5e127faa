"""Plain-text rendering of a comparison for the terminal."""

from __future__ import annotations

import math

TEST_TITLES = {
    "friedman": "Friedman chi-square",
    "iman_davenport": "Iman-Davenport F",
    "friedman_aligned": "Friedman aligned ranks",
    "quade": "Quade F",
    "anova": "Repeated-measures ANOVA",
    "wilcoxon": "Wilcoxon signed-ranks",
    "sign": "Sign test",
    "ttest": "Paired t-test",
    "ttest_relative": "Paired t-test (relative)",
}


def fmt_p(p) -> str:
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return "n/a"
    if p == 0:
        return "0"
    return f"{p:.4f}" if p >= 1e-4 else f"{p:.3e}"


def fmt_num(v) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "n/a"
    if isinstance(v, float) and math.isinf(v):
        return "inf" if v > 0 else "-inf"
    if float(v).is_integer() and abs(v) < 1e12:
        return str(int(v))
    return f"{v:.4f}" if abs(v) >= 1e-3 else f"{v:.4g}"


def _table(rows, header, align):
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]

    def line(r):
        cells = [str(c).ljust(w) if a == "<" else str(c).rjust(w)
                 for c, w, a in zip(r, widths, align)]
        return "  ".join(cells).rstrip()

    return [line(header), "  ".join("-" * w for w in widths)] + [line(r) for r in rows]


def comparison_text(cmp, verdict: str | None = None) -> str:
    t = cmp.table
    direction = "higher is better" if t.higher_is_better else "lower is better"
    out = [f"rankwise compare: {t.source}"]
    if t.criterion:
        out.append(f"criterion: {t.criterion}")
    out.append(f"{t.n_learners} learners x {t.n_datasets} data sets; {direction}"
               f" ({t.direction_source}); alpha = {cmp.alpha}; convention = {cmp.convention}")
    if t.aggregate:
        out.append(f"cells: {t.aggregate} of repeats x folds")
    out.append(f"scores rounded to {cmp.decimals} decimals before comparing; ranks: 1 = best,"
               " ties get mid-ranks")
    for w in t.warnings:
        out.append(f"warning: {w}")
    if verdict:
        out += ["", "Verdict", verdict]
    out.append("")
    order = sorted(range(t.n_learners), key=lambda j: (cmp.mean_ranks[j], j))
    rows = [[i + 1, t.learners[j], f"{cmp.mean_ranks[j]:.3f}"] for i, j in enumerate(order)]
    out.append("Mean ranks")
    out.extend(_table(rows, ["#", "learner", "mean rank"], "<<>"))
    out.append("")
    rows, notes = [], []
    for name, res in cmp.tests.items():
        df = ", ".join(fmt_num(v) for v in res.df) if res.df else ""
        label = TEST_TITLES[name]
        if res.details.get("variant"):
            label += f" [{res.details['variant']}]"
        rows.append([label, fmt_num(res.statistic), df, fmt_p(res.pvalue), res.method,
                     "yes" if res.reject(cmp.alpha) else "no"])
        notes.extend(f"{TEST_TITLES[name]}: {n}" for n in res.notes)
    if cmp.pair and any(n in cmp.tests for n in ("wilcoxon", "sign", "ttest", "ttest_relative")):
        a, b = cmp.pair
        first = next(r for r in cmp.tests.values() if "b_wins" in r.details)
        out.append(f"Two learners: {b} vs {a}: {b} better on {first.b_wins}, {a} better on"
                   f" {first.a_wins}, ties {first.ties}")
        if "wilcoxon" in cmp.tests:
            w = cmp.tests["wilcoxon"]
            out.append(f"  Wilcoxon: R+ = {fmt_num(w.r_plus)} ({b} better), R- ="
                       f" {fmt_num(w.r_minus)}, zeros: {w.zero_method}")
        out.append("")
    out.append("Tests")
    out.extend(_table(rows, ["test", "statistic", "df", "p-value", "method", f"p <= {cmp.alpha}"],
                      "<>>><<"))
    if notes:
        out.append("")
        out.extend(f"note: {n}" for n in notes)
    if cmp.posthoc:
        out.extend(posthoc_text(cmp.posthoc, cmp.alpha))
    return "\n".join(out) + "\n"


RANKING_TITLES = {"friedman": "Friedman mean ranks", "friedman_aligned": "Friedman aligned ranks",
                  "quade": "Quade", "wilcoxon": "pairwise Wilcoxon signed-ranks tests",
                  "sign": "pairwise sign tests", "anova": "repeated-measures ANOVA"}


def posthoc_text(ph: dict, alpha: float) -> list:
    out = []
    for ranking in ph["rankings"]:
        entry = ph[ranking]
        gate = entry["gate"]
        out.append("")
        out.append(f"Post-hoc: {RANKING_TITLES[ranking]} (gate: {gate['test']} p ="
                   f" {fmt_p(gate['pvalue'])}{'' if gate['passed'] else ', not significant'})")
        if entry.get("skipped"):
            out.extend(f"  {n}" for n in entry["notes"])
            continue
        if "se" in entry:
            out.append(f"  z = (M_a - M_b) / SE, SE = {entry['se']:.6g} ({entry['se_formula']})")
        for fam in ("control", "all_pairs"):
            if fam not in entry:
                continue
            rows = entry[fam]
            procs = list(rows[0]["apv"]) if rows else []
            title = (f"against the control {ph['control']}" if fam == "control" else "all pairs")
            out.append(f"  {title}; adjusted p-values, * = rejected at alpha = {alpha}")
            table = []
            for r in rows:
                table.append([f"{r['a']} vs {r['b']}", fmt_num(r["statistic"]), fmt_p(r["pvalue"])]
                             + [fmt_p(r["apv"][pr]) + ("*" if r["apv"][pr] is not None
                                                      and r["apv"][pr] <= alpha else " ")
                                for pr in procs])
            out.extend("  " + line for line in _table(
                table, ["comparison", "statistic", "p"] + procs, "<>>" + ">" * len(procs)))
        if entry.get("methods"):
            out.append("  computed by: " + ", ".join(f"{k} = {v}" for k, v in
                                                      entry["methods"].items()))
        out.extend(f"  note: {n}" for n in entry.get("notes", []))
    cd = ph["critical_difference"]
    out.append("")
    out.append(f"Critical differences of mean ranks at alpha = {cd['alpha']}: Nemenyi"
               f" {cd['nemenyi']:.4f} (q = {cd['q_nemenyi']:.4f}), Bonferroni-Dunn"
               f" {cd['bonferroni_dunn']:.4f} (q = {cd['q_bonferroni_dunn']:.4f})")
    if "multiple_sign_test" in ph:
        mst = ph["multiple_sign_test"]
        out.append(f"Multiple sign test against {mst['control']} (critical value r* ="
                   f" {mst['critical_value']}, one-sided, alpha = {mst['alpha']}):")
        for r in mst["comparisons"]:
            verdict = ("control better" if r["control_better"] else
                       "control worse" if r["control_worse"] else "no difference")
            out.append(f"  {r['learner']}: {r['pluses']} better, {r['minuses']} worse,"
                       f" {r['ties']} tied -> {verdict}")
        out.extend(f"  note: {n}" for n in mst["notes"])
    ce = ph["contrast_estimation"]
    names = ce["learners"]
    rows = [[u] + [f"{ce['estimates'][u][v]:.5f}" for v in names] for u in names]
    out.append("Contrast estimation based on medians (row minus column):")
    out.extend("  " + line for line in _table(rows, [""] + names, "<" + ">" * len(names)))
    return out
