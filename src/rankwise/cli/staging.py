"""One staging step for every file a command writes: each is written beside its destination
under a temporary name (a report folder as a temporary folder), and all are renamed into place
only when every one was written. An error, Ctrl-C or SIGTERM before that removes them: no
command leaves a figure, a report folder or a half-filled staging folder behind a failure.

:func:`staged` opens the step around a command (the driver's :func:`~rankwise.cli.driver.command`
does); the driver's writers (the report folder, figures, ``-o``, ``--pairs``) stage through
:func:`current`, and :meth:`Staging.commit` renames everything, then prints what was written.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import tempfile
import threading
from pathlib import Path

import typer

_ACTIVE: list = []


def current():
    """The staging step of the command running, or None (a writer then writes directly)."""
    return _ACTIVE[-1] if _ACTIVE else None


class Staging:
    """The temporary files and folders of one command, and where each goes."""

    def __init__(self):
        self.pending: list = []   # (temporary path, destination, is a folder)
        self.said: list = []      # what to say once they are in place

    def say(self, line: str) -> None:
        self.said.append(line)

    def file(self, path, data, said: str | None = None) -> None:
        """``data`` (str as UTF-8, or bytes) for ``path``; a path that is not a regular file (a
        terminal, a pipe, a device) is written into at once, never replaced."""
        from .._files import written_through

        payload = data.encode("utf-8") if isinstance(data, str) else data
        if written_through(path):
            with open(path, "wb") as fh:
                fh.write(payload)
        else:
            real = Path(os.path.realpath(path))
            fd, tmp = tempfile.mkstemp(dir=real.parent, prefix=f".{real.name}.",
                                       suffix=".rankwise-tmp")
            self.pending.append((Path(tmp), real, False))
            with os.fdopen(fd, "wb") as fh:
                fh.write(payload)
                fh.flush()
                os.fsync(fh.fileno())
        if said:
            self.say(said)

    def folder(self, write, folder) -> list:
        """``write(temporary folder)`` for the folder ``folder``: the temporary folder is made
        inside ``folder`` where it exists (at the commit its files are moved into ``folder``,
        the others kept), else in its nearest existing ancestor (renamed to ``folder`` whole at
        the commit)."""
        folder = Path(folder)
        base = next((p for p in (folder, *folder.parents) if p.is_dir()), Path("."))
        tmp = Path(tempfile.mkdtemp(dir=base, prefix=f".{folder.name}.rankwise-"))
        self.pending.append((tmp, folder, True))
        return write(tmp)

    def commit(self) -> None:
        """Everything staged into place, then the lines saying so."""
        from .._files import file_mode

        for tmp, final, is_folder in self.pending:
            if not is_folder:
                os.chmod(tmp, file_mode(final))
                os.replace(tmp, final)
            elif not final.exists():
                umask = os.umask(0)
                os.umask(umask)
                os.chmod(tmp, 0o777 & ~umask)   # a folder made as mkdir makes one
                final.parent.mkdir(parents=True, exist_ok=True)
                os.replace(tmp, final)
            else:
                for item in sorted(tmp.iterdir()):
                    os.replace(item, final / item.name)
                tmp.rmdir()
        self.pending = []
        for line in self.said:
            typer.echo(line, err=True)
        self.said = []

    def discard(self) -> None:
        for tmp, _, is_folder in self.pending:
            if is_folder:
                shutil.rmtree(tmp, ignore_errors=True)
            else:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
        self.pending, self.said = [], []


@contextlib.contextmanager
def staged():
    """A :class:`Staging` for the block: committed when the block ends well (what the command
    did not commit itself), removed on an error, Ctrl-C or SIGTERM (which, while the block
    runs, means what Ctrl-C means)."""
    staging = Staging()
    main = threading.current_thread() is threading.main_thread()
    if main:
        previous = signal.signal(signal.SIGTERM, _interrupt)
    _ACTIVE.append(staging)
    try:
        yield staging
        staging.commit()
    finally:
        staging.discard()
        _ACTIVE.remove(staging)
        if main:
            signal.signal(signal.SIGTERM, signal.SIG_DFL if previous is None else previous)


def _interrupt(signum, frame):
    raise KeyboardInterrupt
