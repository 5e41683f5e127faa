"""Output paths checked against the inputs and against each other before any work: a command
never replaces what it reads, nor writes two outputs into one file.

Two paths are the same file when they resolve to one real path (symbolic links followed,
relative paths made absolute) or, where both exist, when the system says they are one file
(hard links). A path that exists and is not a regular file (a terminal, ``/dev/stdout``, a
pipe) is written through, never replaced, so it clashes with nothing.
"""

from __future__ import annotations

import itertools
import os
from pathlib import Path

from ._files import written_through
from .errors import RankwiseError

#: What a report folder (``--report DIR``) writes: ``report.*`` and ``report_fragment.tex``,
#: the figures as SVG, PDF and PNG, the CD diagram as TikZ, and the pairs; a power study's
#: folder (``rankwise power --report``) its formats as ``power.*``; a leaderboard's its CSV
#: (``board.csv``). A test holds this to what every presenter writes.
REPORT_SUFFIXES = (".svg", ".pdf", ".png", ".tikz")
REPORT_NAMES = ("pairs.csv", "cd_diagram_tikz.tex", "power.txt", "power.json", "power.md",
                "power.tex", "power.html", "board.csv")


def same_file(a, b) -> bool:
    """``a`` and ``b`` name one file (see the module docstring)."""
    if Path(os.path.realpath(a)) == Path(os.path.realpath(b)):
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def written_by_report(name: str) -> bool:
    """Whether a report folder writes a file of this name."""
    return (name.startswith("report") or name in REPORT_NAMES
            or Path(name).suffix.lower() in REPORT_SUFFIXES)


def refuse_clashes(inputs: dict, outputs: dict, folders: dict | None = None) -> None:
    """One line, before any work, when an output (``outputs``: label → file) would replace an
    input (``inputs``: label → file, or a folder whose files are read) or another output, or
    when a report folder (``folders``: label → folder) is one of them, lies inside an input
    folder, or would write over one of them. Labels are what the user typed (``-o``,
    ``--pairs``); None values are left out."""
    ins = {label: Path(p) for label, p in inputs.items() if p is not None}
    outs = {label: Path(p) for label, p in outputs.items()
            if p is not None and not written_through(p)}
    for (o_label, out), (i_label, given) in itertools.product(outs.items(), ins.items()):
        if same_file(out, given):
            raise RankwiseError(f"{o_label} {out} is {i_label} ({given}): writing it would"
                                " replace what is read; give another file name")
        # a folder is read file by file (tool outputs): a file written into it could replace
        # one of them, or be read as one the next time
        if given.is_dir() and given.resolve() in out.resolve().parents:
            raise RankwiseError(f"{o_label} {out} is inside the input folder {given}, whose"
                                " files are read; write it elsewhere")
    for (first, a), (second, b) in itertools.combinations(outs.items(), 2):
        if same_file(a, b):
            raise RankwiseError(f"{first} and {second} name the same file ({a}); give each"
                                " output its own")
    for f_label, folder in (folders or {}).items():
        if folder is None:
            continue
        for label, path in {**ins, **outs}.items():
            if Path(folder).resolve() == path.resolve():
                raise RankwiseError(f"{f_label} {folder} is also {label}; give the report its"
                                    f" own folder")
            # as a file written into an input folder: the report's files would be read with
            # the folder's own the next time (a report.json among IOHprofiler's files)
            if label in ins and path.is_dir() and path.resolve() in Path(folder).resolve().parents:
                raise RankwiseError(f"{f_label} {folder} is inside the input folder {path},"
                                    " whose files are read; write the report elsewhere")
            if written_by_report(path.name) and same_file(path.parent, folder):
                what = "is read" if label in ins else "is written"
                raise RankwiseError(f"{f_label} {folder} would write over {label} {path}, which"
                                    f" {what}; give the report another folder")
