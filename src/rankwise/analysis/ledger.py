"""The gate's ledger: one line per look (a commit's or a night's run), readable by a person,
so that the e-process of :func:`rankwise.gate` continues across runs.

The file is a CSV with two comment lines: what it is, and the question, margin and level it was
kept for (a look under another question or level would make its product meaningless, so it is
refused). Each line: the look's number, its time (UTC), the runs' learners, the units compared,
the estimate (candidate − baseline), this look's e-value, the e-process (the product of the
e-values so far), the fixed-n answer of the look alone, the gate's decision and the runs'
fingerprint (a hash of the units compared: a look of the same two runs again, a retried CI
job, adds no evidence, and its e-value is taken as 1, said in the notes). The command
line writes the whole file anew through its staging step, never half a line; this module only
reads and formats (no I/O).
"""

from __future__ import annotations

import csv
import io
import math

from ..errors import RankwiseError

COLUMNS = ("look", "when", "baseline", "candidate", "units", "estimate", "evalue", "eprocess",
           "fixed_n", "decision", "runs")
#: A ledger written before the runs' fingerprint was kept (read; its looks have none).
COLUMNS_BEFORE = COLUMNS[:-1]
TITLE = "# rankwise gate ledger"


def header(question: str, margin: float, alpha: float) -> str:
    return f"# question: {question}; margin: {margin:g}; alpha: {alpha:g}"


def read(text: str, *, question: str, margin: float, alpha: float, where: str = "ledger"
         ) -> tuple:
    """The looks of a ledger's ``text`` (a tuple of dicts, oldest first); an empty text has
    none. A ledger kept for another question, margin or level, or a damaged one, is refused."""
    lines = text.splitlines()
    if not any(line.strip() for line in lines):
        return ()
    if not lines[0].startswith(TITLE):
        raise RankwiseError(f"{where}: not a rankwise gate ledger (its first line is"
                            f" {lines[0][:60]!r}); give a new file name to start a ledger")
    kept = lines[1] if len(lines) > 1 else ""
    if kept != header(question, margin, alpha):
        raise RankwiseError(f"{where}: kept for {kept.lstrip('# ')!r}, not for question"
                            f" {question}, margin {margin:g}, alpha {alpha:g}; an e-process"
                            " continues only under one question: give a new ledger file")
    rows = list(csv.DictReader(io.StringIO("\n".join(lines[2:]))))
    looks = []
    for i, row in enumerate(rows, start=1):
        try:
            if tuple(row) not in (COLUMNS, COLUMNS_BEFORE) or int(row["look"]) != i:
                raise ValueError
            looks.append({"look": i, "when": row["when"], "baseline": row["baseline"],
                          "candidate": row["candidate"], "units": int(row["units"]),
                          "estimate": float(row["estimate"]),
                          "evalue": _number(row["evalue"]),
                          "eprocess": _number(row["eprocess"]),
                          "fixed_n": row["fixed_n"], "decision": row["decision"],
                          "runs": row.get("runs", "")})
        except (ValueError, TypeError, KeyError):
            raise RankwiseError(f"{where}: line {i + 3} is damaged (a look's line has"
                                f" {', '.join(COLUMNS)}); restore the file or start a new"
                                " ledger") from None
    return tuple(looks)


def _number(text: str):
    return None if text in ("", "none") else float(text)


def fingerprint(frame) -> str:
    """A hash of the units compared (every column of the matched frame, in order)."""
    import hashlib

    import pandas as pd

    hashed = pd.util.hash_pandas_object(frame, index=False).to_numpy()
    return hashlib.sha256(hashed.tobytes()).hexdigest()[:16]


def look(earlier, evalue, alpha, question, when, matched, overall, passed, decided_by) -> dict:
    """This look's line: the e-process goes on from the last look's (None once a look had no
    e-value: the product is then not known). A look of the same two runs as an earlier one
    (the same fingerprint) brings no new evidence: its e-value is taken as 1 (``repeat_of``
    names the look)."""
    runs = fingerprint(matched.frame)
    repeat = next((lk["look"] for lk in earlier if lk.get("runs") == runs), None)
    if repeat is not None and evalue is not None:
        evalue = 1.0
    before = earlier[-1]["eprocess"] if earlier else 1.0
    if evalue is None or before is None:
        process = None
    else:
        with_log = math.log(before) + math.log(evalue) if before > 0 and evalue > 0 else -math.inf
        process = math.exp(min(with_log, 700.0))
    return {"look": len(earlier) + 1, "when": when or "", "baseline": matched.baseline,
            "candidate": matched.candidate, "units": overall.n,
            "estimate": overall.difference, "evalue": evalue, "eprocess": process,
            "fixed_n": "pass" if passed else "fail", "decision": "", "runs": runs,
            "repeat_of": repeat}


def write(looks, *, question: str, margin: float, alpha: float) -> str:
    """The whole ledger's text."""
    out = io.StringIO()
    out.write(f"{TITLE}: one line a look; e-process = product of e-values\n")
    out.write(header(question, margin, alpha) + "\n")
    w = csv.writer(out, lineterminator="\n")
    w.writerow(COLUMNS)
    for lk in looks:
        w.writerow([lk["look"], lk["when"], lk["baseline"], lk["candidate"], lk["units"],
                    f"{lk['estimate']:.10g}", _text(lk["evalue"]), _text(lk["eprocess"]),
                    lk["fixed_n"], lk["decision"], lk.get("runs", "")])
    return out.getvalue()


def _text(x) -> str:
    return "none" if x is None else f"{x:.10g}"
