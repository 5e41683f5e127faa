"""What every command of the command line shares: the one-line error and exit 2, the checks of
what a command reads and writes before any work, the report folder, the output to the screen
or ``-o FILE``. :func:`command` does all of it once for each command."""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Optional

import typer

from .._paths import refuse_clashes
from ..errors import RankwiseError
from ..option_table import LINES, refusal


def fail(message: str) -> None:
    typer.echo(error_text(message), err=True)
    raise typer.Exit(2)


def error_text(message: str) -> str:
    """``rankwise: error: MESSAGE`` as printed, its control characters made visible: one line
    on a pipe (scripts and logs read it whole), on a terminal wrapped at spaces to its width
    (at most 120 columns), the lines after the first indented, nothing cut."""
    from .._text import visible

    line = f"rankwise: error: {visible(message)}"
    columns = _terminal_columns()
    return line if columns is None else "\n".join(error_lines(line, columns))


def error_lines(line: str, width: int) -> list:
    """``line`` wrapped at spaces to ``width`` columns, the lines after the first indented by
    two; a word longer than a line (a path) is kept whole on a line of its own."""
    import textwrap

    return textwrap.wrap(line, width=width, subsequent_indent="  ", break_long_words=False,
                         break_on_hyphens=False) or [line]


def _terminal_columns():
    """The width to wrap an error at: None unless stderr is a terminal."""
    import shutil

    from .helpscreen import PLAIN_WIDTH

    if not sys.stderr.isatty():
        return None
    return min(shutil.get_terminal_size((80, 24)).columns, PLAIN_WIDTH)


class Session:
    """A checked command's output: its report folder, its other files and the text to the
    screen or ``-o``, every file through one :class:`rankwise.cli.staging.Staging`."""

    def __init__(self, output, report, figure_width=None, staging=None, mlflow=None):
        self.output, self.report, self.figure_width = output, report, figure_width
        self.staging = staging
        self.mlflow = mlflow    # --report mlflow:NAME: the experiment to log the run to

    @property
    def width(self) -> int:
        return text_width(self.output)

    def finish(self, result, text, between=None) -> None:
        """``--report DIR``, then ``between()`` (the command's other files: figures, pairs),
        then ``text()`` in the format asked, to ``-o``: each written beside its destination
        under a temporary name; only when every one is written are they renamed into place
        (one error, or Ctrl-C or SIGTERM, leaves no file of them), and only then is the text
        printed to the screen."""
        if self.report is not None:
            if self.figure_width is None:
                write_folder(result.write_report, self.report)
            else:
                write_folder(lambda folder: result.write_report(
                    folder, figure_width=self.figure_width), self.report)
        if between is not None:
            between()
        body = text()
        if self.output is not None:
            emit(body, self.output)
        if self.mlflow is not None:    # before the files are renamed: a failure leaves none
            log_run(result, self.mlflow, self.figure_width)
        if self.staging is not None:
            self.staging.commit()
        if self.output is None:
            emit(body, None)


@contextmanager
def command(name: str, given: dict, *, what: str | None = None, source: str = "input",
            inputs: dict | None = None, figures: tuple = (), writes: dict | None = None,
            output_name: str = "report.txt"):
    """The checks every command makes before any work, then its body, in one place.

    The checks, in this order: its ``--format`` and each option the table says the command
    line checks (:func:`rankwise.option_table.refusal`); "give either FILE or --example NAME"
    (``what``: the file argument ``source``, as the error names it); ``-o FILE`` and ``--report
    DIR``; that no output replaces an input (``inputs``: label → path) or another output
    (``writes``: label → path, beside ``-o``, the ``figures`` and the report); the figures'
    formats (``figures``: parameter names); ``--figure-width`` with ``--report``. The body
    runs with a :class:`Session` that writes the report and the output; a
    :class:`RankwiseError` anywhere is the one line ``rankwise: error: ...`` and exit 2, and
    SIGTERM means what Ctrl-C means: the files staged so far are removed either way."""
    from .staging import staged

    with one_line(), staged() as staging:
        table = LINES[name]
        for option in sorted(table, key=lambda o: o.cli_param != "fmt"):
            why = refusal(option, given.get(option.cli_param))
            if why:
                raise RankwiseError(why)
        if what is not None and (given[source] is None) == (given.get("example") is None):
            raise RankwiseError(f"give either {what} file or --example NAME (not both)")
        output, report = given.get("output"), given.get("report")
        mlflow = tracked(report)
        if mlflow is not None:
            report = None
        check_destinations(output, report, output_name)
        drawn = {o.long_flag: given[o.cli_param] for o in table if o.cli_param in figures}
        refuse_clashes(inputs or {}, {"-o": output, **(writes or {}), **drawn},
                       {"--report": report} if "report" in given else None)
        for flag, path in drawn.items():
            if path is not None:
                check_figure_path(path, flag)
        figure_width = figure_inches(given.get("figure_width"), given.get("report"))
        yield Session(output, report, given.get("figure_width") if figure_width else None,
                      staging, mlflow)


#: ``--report mlflow:NAME``: the report goes to an MLflow run instead of a folder.
MLFLOW_PREFIX = "mlflow:"


def tracked(report) -> str | None:
    """The MLflow experiment that ``--report mlflow:NAME`` names ("" for MLflow's default
    experiment), or None for a folder."""
    text = None if report is None else str(report)
    if text is None or not text.startswith(MLFLOW_PREFIX):
        return None
    return text[len(MLFLOW_PREFIX):].strip("/")


def log_run(result, experiment: str, figure_width=None) -> None:
    """Log ``result`` as an MLflow run (its report folder as the run's artifacts) where
    ``MLFLOW_TRACKING_URI`` says, as MLflow's own tools do; say which run on stderr."""
    from ..report.tracking import log_to_mlflow

    run = log_to_mlflow(result, experiment or None, figure_width=figure_width,
                        tracking_uri=os.environ.get("MLFLOW_TRACKING_URI") or None)
    print(f"rankwise: logged to MLflow as run {run} (experiment"
          f" {experiment or 'Default'})", file=sys.stderr)


@contextmanager
def one_line():
    """A :class:`RankwiseError` in the block is the one line ``rankwise: error: ...`` and exit
    2 (every command's mistakes, through :func:`command`). The warnings raised in the block
    are held back and shown when it ends well: before an error they would only be noise
    (numpy's overflow on the scores the error then refuses)."""
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        try:
            yield
        except RankwiseError as exc:
            caught.clear()
            fail(str(exc))
    for w in caught:
        warnings.showwarning(w.message, w.category, w.filename, w.lineno, w.file, w.line)


def write_folder(write, folder: Path) -> None:
    """``write(folder)`` (which returns the paths written), with one line either way; each
    :class:`RankwiseWarning` it raised is printed as a note."""
    import warnings

    from ..errors import RankwiseWarning

    from .staging import current

    staging = current()
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", RankwiseWarning)
            paths = write(folder) if staging is None else staging.folder(write, folder)
    except OSError as exc:
        raise RankwiseError(f"cannot write the report to {folder}: {exc.strerror or exc};"
                            " nothing in it was changed") from None
    for w in caught:
        if issubclass(w.category, RankwiseWarning):
            typer.echo(f"rankwise: note: {w.message}", err=True)
        else:
            warnings.showwarning(w.message, w.category, w.filename, w.lineno)
    said = f"rankwise: wrote {len(paths)} files to {folder}"
    if staging is None:
        typer.echo(said, err=True)
    else:
        staging.say(said)


def figure_inches(value, report):
    """``--figure-width`` checked: it goes with ``--report``."""
    if value is None:   # without it, no figure module (matplotlib: half a second) is loaded
        return None
    from ..report.diagrams import figure_width

    if report is None:
        raise RankwiseError("--figure-width sizes the figures of --report DIR; add --report")
    return figure_width(value)


def check_destinations(output: Optional[Path], folder: Optional[Path] = None,
                       output_name: str = "report.txt") -> None:
    """Before any work: ``-o FILE`` names a file in an existing folder, ``--report DIR`` a
    folder (not a file, not an empty name)."""
    if folder is not None:
        if str(folder) in ("", "."):
            raise RankwiseError("--report needs the name of a folder to write into (e.g."
                                " --report results/report)")
        if folder.exists() and not folder.is_dir():
            raise RankwiseError(f"--report {folder}: is a file; give a folder")
        for parent in folder.parents:
            if parent.exists() and not parent.is_dir():
                raise RankwiseError(f"--report {folder}: {parent} is a file, not a folder")
        base = next((p for p in (folder, *folder.parents) if p.is_dir()), Path("."))
        if not os.access(base, os.W_OK | os.X_OK):
            raise RankwiseError(f"--report {folder}: the folder {base} is not writable")
    if output is not None:
        if str(output) in ("", "."):
            raise RankwiseError("--output needs a file name")
        if output.is_dir():
            raise RankwiseError(f"{output}: is a folder; give a file name such as"
                                f" {output}/{output_name}")
        if output.parent.exists() and not output.parent.is_dir():
            raise RankwiseError(f"{output}: {output.parent} is a file, not a folder")
        if not output.parent.exists():
            raise RankwiseError(f"{output}: the folder {output.parent} does not exist; create it"
                                " first")
        from .._files import written_through

        if not written_through(output) and not os.access(output.parent, os.W_OK | os.X_OK):
            raise RankwiseError(f"{output}: the folder {output.parent} is not writable")


def check_figure_path(path: Path, flag: str = "--figure") -> None:
    """A figure's file: a figure format, in a folder that exists."""
    from ..report.diagrams import figure_format

    try:
        figure_format(path)
    except RankwiseError as exc:
        raise RankwiseError(f"{flag}: {exc}") from None
    check_destinations(path, None)


def write_figure(fig, path: Path, what: str | None = None) -> None:
    """Save ``fig`` to ``path``, with one line saying so."""
    from ..report.diagrams import figure_bytes, figure_format, save_figure
    from .staging import current

    said = f"rankwise: wrote {what} to {path}" if what else f"rankwise: wrote {path}"
    staging = current()
    try:
        if staging is None:
            save_figure(fig, path)
        else:
            staging.file(path, figure_bytes(fig, figure_format(path)), said)
            return
    except OSError as exc:
        raise RankwiseError(f"cannot write the figure to {path}: {exc.strerror or exc}") from None
    typer.echo(said, err=True)


def emit(text, output: Optional[Path]) -> None:
    """The command's output (text, or bytes for a file) to the screen, or to ``output``."""
    if output is None:
        sys.stdout.write(text)
        return
    from .._files import write_atomic
    from .staging import current

    try:
        if current() is not None:
            current().file(output, text)
        else:
            write_atomic(output, text)
    except OSError as exc:
        raise RankwiseError(f"cannot write {output}: {exc.strerror or exc}; nothing was"
                            " written") from None


def text_width(output) -> int:
    """Text paragraphs are wrapped to the terminal's width on a terminal, else to 80 columns."""
    import shutil

    if output is None and sys.stdout.isatty():
        return max(shutil.get_terminal_size((80, 24)).columns, 40)
    return 80


def separator(sep):
    """``--sep``: one character; a backslash-t or ``tab`` means a tab."""
    if sep is None:
        return None
    sep = "\t" if sep in ("\\t", "tab", "TAB") else sep
    if len(sep) != 1:
        raise RankwiseError(f"--sep takes one character (e.g. ';' or tab); got {sep!r}")
    return sep


def read_table(path, example, **options):
    """The table of ``path`` or the bundled ``example`` (:func:`command` checked that exactly
    one is given), read with ``options``."""
    from ..examples import load_example
    from ..tables.sources import parse_columns

    options.update(columns=parse_columns(options["columns"]), sep=separator(options["sep"]))
    if example is not None:
        return load_example(example, **options)
    from ..tables import load_table

    return load_table(path, **options)


def is_items_input(input, example, source_format) -> bool:
    """Whether the input is scored items: an item example, an item --source, or a file whose
    name or columns say so."""
    from ..examples import ITEM_EXAMPLES

    if example is not None:
        return example in ITEM_EXAMPLES
    from ..tables.registry import reads_items

    return reads_items(input, source_format)


def read_items_input(input, example, source_format, **options):
    """The scored items of ``input`` or of the bundled item example (compare's and leaderboard's
    one way to read them; ``options`` as :func:`rankwise.read_items` takes them)."""
    from ..examples import ITEM_EXAMPLES, load_items_example
    from ..tables.items import read_items

    if example is not None:
        if example not in ITEM_EXAMPLES:
            raise RankwiseError(f"--example {example} is a table of learners x data sets, not"
                                f" scored items; the item examples: {', '.join(ITEM_EXAMPLES)}")
        if source_format in (None, "auto"):
            return load_items_example(example, missing=options.get("missing", "refuse"))
        from importlib.resources import as_file, files   # a reader named: the file read by it

        with as_file(files("rankwise.examples") / ITEM_EXAMPLES[example][0]) as path:
            return read_items(path, reader=source_format, **options)
    return read_items(input, reader=source_format, **options)


def given_on_line(ctx, name: str) -> bool:
    """Whether option ``name`` was given on the command line (not left at its default)."""
    return ctx is not None and getattr(ctx.get_parameter_source(name), "name", "") == \
        "COMMANDLINE"


def numbers(option: str, text: str) -> list:
    """``A,B,...`` as numbers."""
    try:
        return [float(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise RankwiseError(f"{option} {text!r}: give numbers separated by commas") from None
