"""Publication output: the report in text, Markdown, LaTeX and HTML, and a folder with everything.

All formats draw on :func:`report_data`, so they say the same thing. Names are escaped for each
format (LaTeX specials; HTML entities), never trusted.
"""

from __future__ import annotations

import html
import json
import math
from pathlib import Path

import numpy as np

from ..analysis.verdict import PROCEDURE_NAMES, methods_paragraph, verdict
from ..stats.pairwise import adjusted_pvalues, critical_difference, pairwise_statistics
from ..stats.results import jsonable
from ..stats.summary import (
    best_in_row,
    quartile_chart_lines,
    quartile_charts,
    win_tie_loss_matrix,
)
from .diagrams import cd_diagram, control_diagram, figure_bytes, literal, pvalue_heatmap
from .render_text import TEST_TITLES, fmt_num, fmt_p

FORMATS = ("text", "json", "markdown", "latex", "html")


def fmt_rank(r) -> str:
    """Mid-ranks are whole or halves: 1, 2.5."""
    return f"{r:g}"
MAX_TABLE_ROWS = 200


def report_data(cmp, verdict_procedure: str = "holm") -> dict:
    """Everything the reports show, as plain data (also added to the JSON contract)."""
    t = cmp.table
    best = best_in_row(t.values, t.higher_is_better, cmp.decimals)
    wtl = win_tie_loss_matrix(t.values, t.higher_is_better, cmp.decimals)
    charts = quartile_charts(t)
    v = verdict(cmp, verdict_procedure)
    learners = list(t.learners)

    def qrows(rows):
        return [{"learner": r.learner, "min": r.minimum, "q1": r.q1, "median": r.median,
                 "q3": r.q3, "max": r.maximum, "n": r.n} for r in rows]

    return jsonable({
        "verdict": v,
        "methods": methods_paragraph(cmp, v),
        "rank_table": {"best": best, "average_ranks": dict(zip(learners, cmp.mean_ranks))},
        "win_tie_loss": {a: {b: {"wins": int(wtl[i, j, 0]), "ties": int(wtl[i, j, 1]),
                                 "losses": int(wtl[i, j, 2])}
                             for j, b in enumerate(learners) if j != i}
                         for i, a in enumerate(learners)},
        "quartiles": {"fold_level": charts["fold_level"], "scale": [charts["lo"], charts["hi"]],
                      "overall": qrows(charts["overall"]),
                      "per_dataset": {d: qrows(r) for d, r in charts["per_dataset"].items()},
                      "agreement_tau": charts["agreement"],
                      "overall_enough": charts["overall_enough"], "tau_threshold": charts["tau"]},
    })


# ---------------------------------------------------------------------------------- figures

def diagram_decisions(cmp, procedure: str = "nemenyi"):
    """All-pairs decisions (k × k bool) of ``procedure`` on the Friedman ranking, and the CD."""
    t = cmp.table
    k = t.n_learners
    st = pairwise_statistics(t.values, "friedman", higher_is_better=t.higher_is_better,
                             convention=cmp.convention, decimals=cmp.decimals)
    pairs, _, apvs, _, _ = adjusted_pvalues(st, "all_pairs", (procedure,),
                                            convention=cmp.convention)
    sig = np.zeros((k, k), dtype=bool)
    apv = np.ones((k, k))
    for (a, b), value in zip(pairs, apvs[procedure]):
        sig[a, b] = sig[b, a] = value <= cmp.alpha
        apv[a, b] = apv[b, a] = value
    se = None if cmp.convention == "paper" else st.se
    cd = critical_difference(k, t.n_datasets, cmp.alpha, "nemenyi", se=se)[0]
    return sig, apv, cd, st


def figures(cmp, procedure: str = "nemenyi", control_procedure: str = "holm") -> dict:
    """The CD diagram, the control diagram and the p-value heat map (matplotlib Figures)."""
    t = cmp.table
    names = list(t.learners)
    if t.n_learners < 3:
        return {}
    sig, apv, cd, st = diagram_decisions(cmp, procedure)
    label = PROCEDURE_NAMES.get(procedure, procedure)
    out = {"cd_diagram": cd_diagram(
        cmp.mean_ranks, names, sig, cd=cd if procedure == "nemenyi" else None,
        title=f"All pairs: {label}, alpha = {cmp.alpha} (bars join learners not significantly"
              " different)")}
    control = names.index(cmp.posthoc["control"]) if cmp.posthoc and cmp.posthoc.get(
        "control") else int(np.argmin(cmp.mean_ranks))
    pairs, _, capv, _, _ = adjusted_pvalues(st, "control", (control_procedure,), control=control,
                                            convention=cmp.convention)
    csig = np.zeros(t.n_learners, dtype=bool)
    for (_, b), value in zip(pairs, capv[control_procedure]):
        csig[b] = value <= cmp.alpha
    bd = critical_difference(t.n_learners, t.n_datasets, cmp.alpha, "bonferroni_dunn",
                             se=None if cmp.convention == "paper" else st.se)[0]
    out["control_diagram"] = control_diagram(
        cmp.mean_ranks, names, control, csig, cd=bd,
        title=f"Against the control {literal(names[control])}: filled = significant by"
              f" {PROCEDURE_NAMES[control_procedure]}, alpha = {cmp.alpha}")
    out["pvalue_heatmap"] = pvalue_heatmap(apv, names, cmp.mean_ranks, cmp.alpha,
                                           title=f"Adjusted p-values ({label})")
    return out


def posthoc_sections(cmp):
    """``(ranking, entry, tables)`` per post-hoc ranking; ``tables`` lists
    ``(family, title, procedures, rows)`` and is empty when the gate stopped the ranking."""
    ph = cmp.posthoc or {}
    for ranking in ph.get("rankings", []):
        entry = ph[ranking]
        tables = []
        if not entry.get("skipped"):
            for fam in ph["families"]:
                rows = entry.get(fam) or []
                if rows:
                    title = f"Against {ph['control']}" if fam == "control" else "All pairs"
                    tables.append((fam, title, list(rows[0]["apv"]), rows))
        yield ranking, entry, tables


# ------------------------------------------------------------------------------------ text

def _rank_cells(cmp, digits=3):
    t = cmp.table
    best = best_in_row(t.values, t.higher_is_better, cmp.decimals)
    rows = []
    for i, d in enumerate(t.datasets[:MAX_TABLE_ROWS]):
        rows.append([d] + [f"{t.values[i, j]:.{digits}f} ({fmt_rank(cmp.ranks[i, j])})"
                           + ("*" if best[i, j] else "") for j in range(t.n_learners)])
    return rows


def _digits(values) -> int:
    """Decimals needed to print the table as it was given (at most 6)."""
    for d in range(0, 7):
        if np.allclose(values, np.round(values, d), atol=1e-12, rtol=0):
            return max(d, 1)
    return 6


def text_report(cmp) -> str:
    from .render_text import _table, comparison_text

    t = cmp.table
    data = cmp.report
    digits = _digits(t.values)
    out = [comparison_text(cmp, verdict=data["verdict"]["text"]).rstrip("\n"), ""]
    out.append("Rank table (cell: value (rank); * = best of the data set)")
    rows = _rank_cells(cmp, digits)
    rows.append(["average rank"] + [f"{r:.3f}" for r in cmp.mean_ranks])
    out.extend(_table(rows, ["dataset"] + list(t.learners), "<" + ">" * t.n_learners))
    if t.n_datasets > MAX_TABLE_ROWS:
        out.append(f"... {t.n_datasets - MAX_TABLE_ROWS} more data sets (see --format json)")
    out.append("")
    out.append("Wins/ties/losses (row against column)")
    wtl = win_tie_loss_matrix(t.values, t.higher_is_better, cmp.decimals)
    rows = [[a] + ["-" if i == j else "/".join(str(int(v)) for v in wtl[i, j])
                   for j in range(t.n_learners)] for i, a in enumerate(t.learners)]
    out.extend(_table(rows, [""] + list(t.learners), "<" + ">" * t.n_learners))
    out.append("")
    out.extend(quartile_chart_lines(t, digits=digits))
    out.append("")
    out.append("Methods")
    out.append(data["methods"])
    return "\n".join(out) + "\n"


# -------------------------------------------------------------------------------- Markdown

_MD = {"\\": "\\\\", "|": "\\|", "*": "\\*", "_": "\\_", "`": "\\`", "[": "\\[",
       "]": "\\]", "$": "\\$", "<": "&lt;", ">": "&gt;", "&": "&amp;", "#": "\\#"}


def _md(text) -> str:
    """Text shown literally in Markdown (names, notes): no emphasis, HTML, math or cell breaks."""
    return "".join(_MD.get(c, c) for c in str(text)).replace("\n", " ")


def _md_table(header, rows, align=None) -> list:
    """Cells are Markdown already (escape names with _md before building them)."""
    align = align or ["---"] * len(header)
    return (["| " + " | ".join(header) + " |", "| " + " | ".join(align) + " |"]
            + ["| " + " | ".join(str(c) for c in r) + " |" for r in rows])


def markdown_report(cmp) -> str:
    t = cmp.table
    data = cmp.report
    digits = _digits(t.values)
    learners = list(t.learners)
    out = [f"# rankwise report: {_md(t.source)}", ""]
    out.append(f"{t.n_learners} learners × {t.n_datasets} data sets; "
               f"{'higher' if t.higher_is_better else 'lower'} is better; alpha = {cmp.alpha};"
               f" convention = {cmp.convention}.")
    out += ["", "## Verdict", "", _md(data["verdict"]["text"]), "", "## Rank table", ""]
    best = best_in_row(t.values, t.higher_is_better, cmp.decimals)
    rows = []
    for i, d in enumerate(t.datasets[:MAX_TABLE_ROWS]):
        rows.append([_md(d)] + [(f"**{t.values[i, j]:.{digits}f}** ({fmt_rank(cmp.ranks[i, j])})"
                            if best[i, j] else
                            f"{t.values[i, j]:.{digits}f} ({fmt_rank(cmp.ranks[i, j])})")
                           for j in range(t.n_learners)])
    rows.append(["*average rank*"] + [f"{r:.3f}" for r in cmp.mean_ranks])
    out += _md_table(["dataset"] + [_md(l) for l in learners], rows,
                     ["---"] + ["---:"] * t.n_learners)
    if t.n_datasets > MAX_TABLE_ROWS:
        out += ["", f"… {t.n_datasets - MAX_TABLE_ROWS} more data sets (the average ranks use"
                " all of them; see the JSON output)."]
    out += ["", "Bold: the best value of the data set; ranks in parentheses (1 = best).", ""]
    out += ["## Tests", ""]
    rows = [[TEST_TITLES[n], fmt_num(r.statistic), ", ".join(fmt_num(v) for v in r.df or ()),
             fmt_p(r.pvalue), r.method] for n, r in cmp.tests.items()]
    out += _md_table(["test", "statistic", "df", "p-value", "method"], rows)  # our own words
    out += _md_posthoc(cmp)
    out += ["", "## Wins / ties / losses", "", "Row learner against column learner.", ""]
    wtl = win_tie_loss_matrix(t.values, t.higher_is_better, cmp.decimals)
    rows = [[_md(a)] + ["–" if i == j else "/".join(str(int(v)) for v in wtl[i, j])
                       for j in range(t.n_learners)] for i, a in enumerate(learners)]
    out += _md_table([""] + [_md(l) for l in learners], rows)
    out += ["", "## Quartile charts", "", "```text"]
    out += quartile_chart_lines(t, digits=digits)
    out += ["```", "", "## Methods", "", _md(data["methods"]), ""]
    return "\n".join(out)


def _md_posthoc(cmp) -> list:
    out = []
    for ranking, entry, tables in posthoc_sections(cmp):
        out += ["", f"## Post-hoc: {_md(ranking)}", ""]
        if entry.get("skipped"):
            out.append(_md(entry["notes"][0]))
            continue
        for _, title, procs, rows in tables:
            out += ["", f"### {_md(title)}", ""]
            out += _md_table(["comparison", "statistic", "p"] + [_md(p) for p in procs], [
                [f"{_md(r['a'])} vs {_md(r['b'])}", fmt_num(r["statistic"]), fmt_p(r["pvalue"])]
                + [fmt_p(r["apv"][p]) + (" *" if r["apv"][p] <= cmp.alpha else "")
                   for p in procs] for r in rows])
        out += ["", f"\\* adjusted p ≤ {cmp.alpha}."]
    return out


# ----------------------------------------------------------------------------------- LaTeX

_LATEX = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
          "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
          "^": r"\textasciicircum{}", "<": r"\textless{}", ">": r"\textgreater{}"}


def latex_escape(text) -> str:
    return "".join(_LATEX.get(c, c) for c in str(text))


def _num_tex(p) -> str:
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return "--"
    if p != 0 and abs(p) < 1e-4:
        m, e = f"{p:.3e}".split("e")
        return f"${m}\\cdot 10^{{{int(e)}}}$"
    return f"{p:.4f}"


def latex_report(cmp) -> str:
    """A compilable LaTeX document (booktabs tables); copy the tables you need."""
    t = cmp.table
    data = cmp.report
    digits = _digits(t.values)
    learners = [latex_escape(l) for l in t.learners]
    k = t.n_learners
    out = [r"\documentclass{article}", r"\usepackage[T1]{fontenc}", r"\usepackage{booktabs}",
           r"\usepackage{graphicx}", r"\begin{document}", ""]
    out += [r"\section*{Verdict}", latex_escape(data["verdict"]["text"]), ""]
    best = best_in_row(t.values, t.higher_is_better, cmp.decimals)
    out += [r"\begin{table}[ht]", r"\centering", r"\resizebox{\ifdim\width>\linewidth\linewidth"
            r"\else\width\fi}{!}{%", r"\begin{tabular}{l" + "r" * k + "}", r"\toprule",
            "Data set & " + " & ".join(learners) + r" \\", r"\midrule"]
    for i, d in enumerate(t.datasets[:MAX_TABLE_ROWS]):
        cells = []
        for j in range(k):
            v = f"{t.values[i, j]:.{digits}f}"
            cells.append((r"\textbf{" + v + "}" if best[i, j] else v)
                         + f" ({fmt_rank(cmp.ranks[i, j])})")
        out.append(latex_escape(d) + " & " + " & ".join(cells) + r" \\")
    out += [r"\midrule", "Average rank & " + " & ".join(f"{r:.3f}" for r in cmp.mean_ranks)
            + r" \\", r"\bottomrule", r"\end{tabular}}",
            r"\caption{" + latex_escape(f"{t.criterion or 'Scores'} per data set (rank in"
                                        " parentheses, 1 = best; bold = best of the data set).")
            + "}", r"\end{table}", ""]
    out += [r"\begin{table}[ht]", r"\centering", r"\begin{tabular}{lrrrl}", r"\toprule",
            r"Test & Statistic & df & $p$-value & Method \\", r"\midrule"]
    for name, r in cmp.tests.items():
        out.append(f"{latex_escape(TEST_TITLES[name])} & {latex_escape(fmt_num(r.statistic))} & "
                   f"{latex_escape(', '.join(fmt_num(v) for v in r.df or ()))} & "
                   f"{_num_tex(r.pvalue)} & {latex_escape(r.method)} \\\\")
    out += [r"\bottomrule", r"\end{tabular}",
            r"\caption{Omnibus tests (convention: " + latex_escape(cmp.convention) + ").}",
            r"\end{table}", ""]
    out += _latex_apv_tables(cmp)
    out += [r"\section*{Methods}", latex_escape(data["methods"]), "", r"\end{document}", ""]
    return "\n".join(out)


def _latex_apv_tables(cmp) -> list:
    """APV tables in the style of García & Herrera (2008), Table 5: hypotheses by p."""
    out = []
    for ranking, _, tables in posthoc_sections(cmp):
        for fam, _, procs, rows in tables:
            what = (f"against the control {cmp.posthoc['control']}" if fam == "control"
                    else "all pairs")
            rows = sorted(rows, key=lambda r: r["pvalue"])
            out += [r"\begin{table}[ht]", r"\centering", r"\resizebox{\ifdim\width>\linewidth"
                    r"\linewidth\else\width\fi}{!}{%",
                    r"\begin{tabular}{rl" + "r" * (1 + len(procs)) + "}", r"\toprule",
                    "$i$ & Hypothesis & $p$ & " + " & ".join(
                        latex_escape(PROCEDURE_NAMES.get(p, p).replace("the ", "").replace(
                            " procedure", "").replace(" test", "")) for p in procs) + r" \\",
                    r"\midrule"]
            for i, r in enumerate(rows, 1):
                cells = [_num_tex(r["apv"][p]) for p in procs]
                out.append(f"{i} & {latex_escape(r['a'])} vs {latex_escape(r['b'])} & "
                           f"{_num_tex(r['pvalue'])} & " + " & ".join(cells) + r" \\")
            out += [r"\bottomrule", r"\end{tabular}}",
                    r"\caption{" + latex_escape(f"Adjusted p-values, {ranking} ranking, {what}"
                                                f" (alpha = {cmp.alpha}).") + "}",
                    r"\end{table}", ""]
    return out


# ------------------------------------------------------------------------------------ HTML

_CSS = """body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;
color:#222}table{border-collapse:collapse;margin:1em 0;font-size:0.9em}th,td{padding:0.25em 0.6em;
border-bottom:1px solid #ddd;text-align:right}th:first-child,td:first-child{text-align:left}
thead th{border-bottom:2px solid #444}.best{font-weight:bold}.sig{color:#a00;font-weight:bold}
pre{background:#f6f6f6;padding:0.8em;overflow-x:auto}figure{margin:1.5em 0}
.verdict{font-size:1.1em;background:#eef5ff;padding:0.8em;border-left:4px solid #36c}
figure svg{max-width:100%;height:auto}"""


def _h(text) -> str:
    return html.escape(str(text), quote=True)


def _html_table(header, rows, cls=None) -> str:
    head = "".join(f"<th>{_h(c)}</th>" for c in header)
    body = []
    for r in rows:
        cells = []
        for c in r:
            if isinstance(c, tuple):  # (text, css class)
                cells.append(f'<td class="{c[1]}">{_h(c[0])}</td>')
            else:
                cells.append(f"<td>{_h(c)}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return (f"<table{' class=' + chr(34) + cls + chr(34) if cls else ''}><thead><tr>{head}"
            f"</tr></thead><tbody>{''.join(body)}</tbody></table>")


def html_report(cmp, figures_svg: dict | None = None, procedure: str = "nemenyi") -> str:
    """One self-contained page: no external resources, diagrams embedded as inline SVG."""
    t = cmp.table
    data = cmp.report
    digits = _digits(t.values)
    learners = list(t.learners)
    if figures_svg is None:
        figures_svg = {name: figure_bytes(fig, "svg").decode("utf-8")
                       for name, fig in figures(cmp, procedure).items()}
    best = best_in_row(t.values, t.higher_is_better, cmp.decimals)
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             f"<title>rankwise report: {_h(t.source)}</title><style>{_CSS}</style></head><body>",
             f"<h1>rankwise report: {_h(t.source)}</h1>",
             f"<p>{t.n_learners} learners × {t.n_datasets} data sets; "
             f"{'higher' if t.higher_is_better else 'lower'} is better; α = {cmp.alpha};"
             f" convention = {_h(cmp.convention)}.</p>",
             "<h2>Verdict</h2>", f'<p class="verdict" id="verdict">{_h(data["verdict"]["text"])}</p>']
    for name, title in (("cd_diagram", "Critical-difference diagram"),
                        ("control_diagram", "Comparison with a control"),
                        ("pvalue_heatmap", "Pairwise adjusted p-values")):
        if name in figures_svg:
            svg = figures_svg[name]
            svg = svg[svg.index("<svg"):]  # drop the XML prolog and DOCTYPE inside HTML
            parts.append(f'<figure id="{name}"><figcaption>{title}</figcaption>{svg}</figure>')
    rows = []
    for i, d in enumerate(t.datasets[:MAX_TABLE_ROWS]):
        rows.append([d] + [(f"{t.values[i, j]:.{digits}f} ({fmt_rank(cmp.ranks[i, j])})",
                            "best" if best[i, j] else "") for j in range(t.n_learners)])
    rows.append(["average rank"] + [f"{r:.3f}" for r in cmp.mean_ranks])
    parts += ["<h2>Rank table</h2>", _html_table(["dataset"] + learners, rows, "ranktable"),
              (f"<p>… {t.n_datasets - MAX_TABLE_ROWS} more data sets (the average ranks use all of"
               " them; see the JSON output).</p>" if t.n_datasets > MAX_TABLE_ROWS else ""),
              "<p>Bold: the best value of the data set; ranks in parentheses (1 = best).</p>"]
    rows = [[TEST_TITLES[n], fmt_num(r.statistic), ", ".join(fmt_num(v) for v in r.df or ()),
             fmt_p(r.pvalue), r.method] for n, r in cmp.tests.items()]
    parts += ["<h2>Tests</h2>", _html_table(["test", "statistic", "df", "p-value", "method"], rows)]
    for ranking, entry, tables in posthoc_sections(cmp):
        parts.append(f"<h2>Post-hoc: {_h(ranking)}</h2>")
        if entry.get("skipped"):
            parts.append(f"<p>{_h(entry['notes'][0])}</p>")
        for _, title, procs, rows_f in tables:
            parts.append(f"<h3>{_h(title)}</h3>")
            parts.append(_html_table(["comparison", "statistic", "p"] + procs, [
                [f"{r['a']} vs {r['b']}", fmt_num(r["statistic"]), fmt_p(r["pvalue"])]
                + [(fmt_p(r["apv"][p]), "sig" if r["apv"][p] <= cmp.alpha else "")
                   for p in procs] for r in rows_f]))
    wtl = win_tie_loss_matrix(t.values, t.higher_is_better, cmp.decimals)
    rows = [[a] + ["–" if i == j else "/".join(str(int(v)) for v in wtl[i, j])
                   for j in range(t.n_learners)] for i, a in enumerate(learners)]
    parts += ["<h2>Wins / ties / losses</h2>", "<p>Row learner against column learner.</p>",
              _html_table([""] + learners, rows)]
    parts += ["<h2>Quartile charts</h2>",
              "<pre>" + _h("\n".join(quartile_chart_lines(t, digits=digits))) + "</pre>"]
    parts += ["<h2>Methods</h2>", f'<p id="methods">{_h(data["methods"])}</p>', "</body></html>"]
    return "\n".join(parts) + "\n"


# ---------------------------------------------------------------------------------- folder

def write_report(cmp, folder, procedure: str = "nemenyi") -> list:
    """Write every format and every figure (SVG, PDF, PNG) into ``folder``; return the paths.

    ``procedure`` is the all-pairs procedure whose decisions form the CD diagram's cliques.
    """
    from ..errors import RankwiseError
    from ..names import ALL_PAIRS_PROCEDURES

    if procedure not in ALL_PAIRS_PROCEDURES:
        raise RankwiseError(f"the diagram procedure must be one of {', '.join(ALL_PAIRS_PROCEDURES)};"
                            f" got {procedure!r}")
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    figs = figures(cmp, procedure)
    svgs = {}
    for name, fig in figs.items():
        for fmt in ("svg", "pdf", "png"):
            data = figure_bytes(fig, fmt)
            if fmt == "svg":
                svgs[name] = data.decode("utf-8")
            path = folder / f"{name}.{fmt}"
            path.write_bytes(data)
            written.append(path)
    texts = {"report.txt": text_report(cmp), "report.md": markdown_report(cmp),
             "report.tex": latex_report(cmp), "report.html": html_report(cmp, svgs),
             "report.json": json.dumps(full_json(cmp), indent=2, ensure_ascii=False,
                                       allow_nan=False) + "\n"}
    for name, text in texts.items():
        path = folder / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def full_json(cmp) -> dict:
    doc = cmp.to_dict()
    doc["report"] = cmp.report
    return doc


def render(cmp, fmt: str, procedure: str = "nemenyi") -> str:
    if fmt == "json":
        return json.dumps(full_json(cmp), indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    if fmt == "html":
        return html_report(cmp, procedure=procedure)
    return {"text": text_report, "markdown": markdown_report, "latex": latex_report}[fmt](cmp)
