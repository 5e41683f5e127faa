"""``rankwise audit``: a published board of proportions, checked."""

from __future__ import annotations

from ..cli_options import D, P
from ..errors import RankwiseError
from .driver import command

A, AD = P.audit, D.audit


def audit(
    board: A.board = AD.board, counts: A.counts = AD.counts,
    alpha: A.alpha = AD.alpha, confidence: A.confidence = AD.confidence,
    fmt: A.fmt = AD.fmt, report: A.report = AD.report, output: A.output = AD.output,
):
    """Audit a published board of proportions or percentages (CSV, TSV or a Markdown table, as printed). The item counts behind each task, each score's interval, the models tied with #1 per task and overall, and what cannot be checked."""
    from ..analysis.audit import audit as run_audit

    with command("audit", dict(locals()), inputs={"the board": board}) as out:
        result = run_audit(board, counts=audit_counts(counts), alpha=alpha,
                           confidence=confidence)
        out.finish(result, lambda: result.render(fmt, width=out.width if fmt == "text"
                                                 else None))


def audit_counts(counts) -> dict:
    """``--counts TASK=N,...`` as ``{task: N}``."""
    given = {}
    for part in (counts or "").split(","):
        if not part.strip():
            continue
        name, _, value = part.partition("=")
        if not value.strip().isdigit() or int(value) < 1:
            raise RankwiseError(f"--counts takes TASK=N with N a positive whole number;"
                                f" got {part.strip()!r}")
        if name.strip() in given:
            raise RankwiseError(f"--counts gives {name.strip()} twice ({given[name.strip()]}"
                                f" and {int(value)}); give each task's count once")
        given[name.strip()] = int(value)
    return given
