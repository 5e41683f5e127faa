"""``rankwise status`` and ``rankwise export``: a results database, shown or written out."""

from __future__ import annotations

from pathlib import Path

import typer

from ..cli_options import D, P
from ..errors import RankwiseError
from .driver import command, emit, text_width

S, SD = P.status, D.status
E, ED = P.export, D.export


def status(results: S.results = SD.results, fmt: S.fmt = SD.fmt):
    """Show a results database of rankwise run and what is left to do. The experiment, the tasks done, failed and to do per data set and learner, failures, learner warnings, library versions, and whether a run is writing to it."""
    import json

    from ..experiment.status import status as read_status
    from ..experiment.status import status_text

    with command("status", dict(locals())):
        info = read_status(results)
        emit(json.dumps(info, indent=2) + "\n" if fmt == "json" else
             status_text(info, width=text_width(None)), None)


def export(results: E.results = ED.results, fmt: E.fmt = ED.fmt, output: E.output = ED.output,
           curves: E.curves = ED.curves):
    """Export a results database of rankwise run to CSV, Parquet or WEKA's result file. The
    long table (dataset, repeat, fold, learner, criterion, value), or with --curves the learning
    curves for rankwise curves."""
    from ..experiment.status import read_results

    with command("export", dict(locals()), inputs={"the results database": results},
                 output_name=f"results.{fmt}") as out:
        if not results.exists():
            raise RankwiseError(f"{results}: no such file")
        table, meta, _ = read_results(results)
        if curves:
            table = curve_rows(results, fmt)
        try:
            if fmt == "weka":
                from ..experiment.weka import weka_results

                text, count, notes = weka_results(table, meta)
                data = text.encode("utf-8")
                for note in notes:
                    typer.echo(f"rankwise: note: {note}", err=True)
            elif fmt == "csv":
                # A name starting with = + - @ would run as a formula in a spreadsheet.
                from .._text import spreadsheet_safe

                names_ = [c for c in ("dataset", "learner", "criterion") if c in table]
                table = table.assign(**{c: table[c].map(spreadsheet_safe) for c in names_})
                data = table.to_csv(index=False).encode("utf-8")
            else:
                data = table.to_parquet(index=False)
            out.staging.file(output, data)   # in place when the command ends well
        except ImportError:
            raise RankwiseError("Parquet needs pyarrow: pip install 'rankwise[parquet]'") from None
        except OSError as exc:
            raise RankwiseError(f"cannot write {output}: {exc.strerror or exc}") from None
        out.staging.say(f"rankwise: wrote {count if fmt == 'weka' else len(table)} rows to"
                        f" {output}")


def curve_rows(results: Path, fmt: str):
    """``export --curves``: the learning curves as a long table with a budget column."""
    from ..experiment.store import Store

    if fmt == "weka":
        raise RankwiseError("--curves writes csv or parquet: WEKA's result file has no budget")
    store = Store(results, readonly=True)
    try:
        table = store.curve_table()
    finally:
        store.close()
    if table.empty:
        raise RankwiseError(f"{results}: no learning curves in this results file (run the"
                            " experiment with --budgets)")
    return table
