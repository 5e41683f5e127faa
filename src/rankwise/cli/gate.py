"""``rankwise gate``: is the candidate worse than the baseline? Exit 0 when the gate passes, 1
when it fails, 2 on bad input (made for CI)."""

from __future__ import annotations

from contextlib import contextmanager

import typer

from ..cli_options import D, P
from ..errors import RankwiseError
from ..option_table import READ
from .driver import command, is_items_input, read_items_input, read_table, separator

G, GD = P.gate, D.gate


def gate(
    baseline: G.baseline = GD.baseline, candidate: G.candidate = GD.candidate,
    example: G.example = GD.example,
    question: G.question = GD.question, margin: G.margin = GD.margin, alpha: G.alpha = GD.alpha,
    confidence: G.confidence = GD.confidence, test: G.test = GD.test, k: G.k = GD.k,
    score_range: G.score_range = GD.score_range, ledger: G.ledger = GD.ledger,
    unmatched: G.unmatched = GD.unmatched, baseline_learner: G.baseline_learner =
    GD.baseline_learner, candidate_learner: G.candidate_learner = GD.candidate_learner,
    source_format: G.source_format = GD.source_format, items: G.items = GD.items,
    metric: G.metric = GD.metric, item_filter: G.item_filter = GD.item_filter,
    cluster: G.cluster = GD.cluster, criterion: G.criterion = GD.criterion,
    higher_is_better: G.higher_is_better = GD.higher_is_better, columns: G.columns = GD.columns,
    missing: G.missing = GD.missing, duplicates: G.duplicates = GD.duplicates,
    where: G.where = GD.where, sep: G.sep = GD.sep, decimal: G.decimal = GD.decimal,
    draws: G.draws = GD.draws, seed: G.seed = GD.seed, fmt: G.fmt = GD.fmt, report: G.report = GD.report, output: G.output = GD.output,
):
    """Is the candidate worse than the baseline? Two runs of scored items (lm-eval, inspect_ai, HELM, SWE-bench output or an item table) or two score tables, matched item by item (data set by data set): superiority, non-inferiority, equivalence (TOST) or a regression, per task (Holm) and overall, with the items that changed, pass@k over repeated trials and an e-process over every run kept in a ledger. Exit code 0: the gate passes (no regression shown); 1: it fails; 2: bad input."""
    from ..analysis.gate import gate as run_gate
    from ..analysis import ledger as book

    given = dict(locals())
    if example is None and (baseline is None) != (candidate is None):
        raise_one("give both runs: rankwise gate BASELINE CANDIDATE (or --example NAME)")
    passed = True
    with ledger_lock(ledger), command("gate", given, what="a BASELINE and a CANDIDATE", source="baseline",
                 inputs={"BASELINE": baseline, "CANDIDATE": candidate},
                 writes={"--ledger": ledger}) as out:
        value, relative = margin_of(margin)
        bounds = range_of(score_range)
        ks = ks_of(k)
        runs = read_runs(given)
        earlier, when = (), None
        if ledger is not None:
            earlier = book.read(_text_of(ledger), question=question, margin=value,
                                alpha=alpha, where=f"--ledger {ledger}")
            when = _now()
        result = run_gate(*runs, question=question, margin=value, relative=relative,
                          alpha=alpha, confidence=confidence, test=test, k=ks,
                          score_range=bounds, unmatched=unmatched,
                          baseline_learner=baseline_learner,
                          candidate_learner=candidate_learner, earlier=earlier, when=when,
                          draws=draws, seed=seed)
        if ledger is not None and result.evalue is None:
            raise RankwiseError("--ledger needs an e-value: scores outside [0, 1] need"
                                " --score-range LOW,HIGH, and the margin must be absolute")

        def between():
            if ledger is not None:
                from .staging import current

                current().file(ledger, book.write(result.looks, question=question,
                                                  margin=value, alpha=alpha),
                               said=f"rankwise: ledger {ledger}: look {len(result.looks)}")

        out.finish(result, lambda: result.render(fmt, width=out.width if fmt == "text"
                                                 else None), between)
        passed = result.passed
    if not passed:
        raise typer.Exit(1)


@contextmanager
def ledger_lock(ledger):
    """Hold the ledger for one gate at a time: two gates run at once (two terminals, two CI
    jobs) would each read the same looks and one look would be lost. The second is refused in
    one line, before any work; the lock file beside the ledger goes when the gate ends."""
    if ledger is None:
        yield
        return
    from pathlib import Path

    try:
        import fcntl
    except ImportError:                      # not POSIX: no lock to take
        yield
        return
    lock = Path(ledger).with_name(Path(ledger).name + ".lock")
    try:
        handle = open(lock, "a")
    except OSError as exc:
        raise_one(f"--ledger {ledger}: cannot take its lock {lock} ({exc.strerror or exc})")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise_one(f"--ledger {ledger}: another rankwise gate is writing it now; run again"
                  " when it has finished (its lock: {lock})".replace("{lock}", str(lock)))
    try:
        yield
    finally:
        lock.unlink(missing_ok=True)
        handle.close()


def raise_one(message: str) -> None:
    from .driver import fail

    fail(message)


def read_runs(given: dict) -> tuple:
    """The two runs: a bundled pair, two item files or two score tables."""
    if given["example"] is not None:
        from ..examples import load_gate_example

        return load_gate_example(given["example"])
    runs = []
    for path in (given["baseline"], given["candidate"]):
        if given["items"] or is_items_input(path, None, given["source_format"]):
            runs.append(read_items_input(
                path, None, given["source_format"], metric=given["metric"],
                filter=given["item_filter"], cluster=given["cluster"],
                missing=given["missing"] or "refuse", sep=separator(given["sep"]),
                decimal=given["decimal"], columns=given["columns"],
                duplicates=given["duplicates"]))
        else:
            runs.append(read_table(path, None, min_learners=1,
                                   **{o.name: given[o.name] for o in READ if o.name in given}))
    return tuple(runs)


def margin_of(text) -> tuple:
    """``--margin``: ``0.02`` (the score's units) or ``2%`` (of the baseline's score)."""
    raw = str(text).strip()
    relative = raw.endswith("%")
    try:
        value = float(raw.rstrip("%").strip())
    except ValueError:
        raise RankwiseError(f"--margin takes a number (0.02) or a percentage (2%); got"
                            f" {raw!r}") from None
    if not value >= 0 or value == float("inf"):
        raise RankwiseError(f"--margin must be a finite number of at least 0; got {raw!r}")
    return (value / 100, True) if relative else (value, False)


def range_of(text):
    if text is None:
        return None
    parts = str(text).split(",")
    try:
        low, high = (float(p) for p in parts)
    except ValueError:
        raise RankwiseError(f"--score-range takes LOW,HIGH (e.g. 0,100); got {text!r}") from None
    if not (low < high) or any(v in (float("inf"), float("-inf")) for v in (low, high)):
        raise RankwiseError(f"--score-range takes finite LOW < HIGH; got {text!r}")
    return (low, high)


def ks_of(text):
    if str(text).strip() == "auto":
        return None
    try:
        ks = tuple(int(v) for v in str(text).split(",") if v.strip())
    except ValueError:
        raise RankwiseError(f"--k takes whole numbers (1,5,10); got {text!r}") from None
    if not ks or min(ks) < 1:
        raise RankwiseError(f"--k takes whole numbers of at least 1; got {text!r}")
    return ks


def _text_of(path) -> str:
    from pathlib import Path

    p = Path(path)
    if not p.exists():
        return ""
    try:
        return p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RankwiseError(f"--ledger {path}: cannot be read ({exc}); give another"
                            " file") from None


def _now() -> str:
    from datetime import datetime, timezone

    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
