"""Writing files so that a failure (a full disk, Ctrl-C, an error half-way) leaves what was there
before: every file is written whole beside its destination and then renamed into place."""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
from pathlib import Path


def write_atomic(path, data) -> Path:
    """Write ``data`` (str as UTF-8, or bytes) to ``path``: into a temporary file in the same
    folder, flushed to disk, then renamed over ``path`` (a rename within one file system is
    atomic). On any failure the temporary file is removed and ``path`` is as it was.

    What stands at ``path`` is kept as what it is: a symbolic link is followed and its target
    replaced (the link stays a link); a path that is not a regular file (a terminal,
    ``/dev/stdout``, a pipe, a device) is written into, never replaced; the file gets the mode
    of the file it replaces, or the one the user's umask gives a new file (not the temporary
    file's 0600)."""
    path = Path(path)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    try:
        found = os.stat(path)   # through any symbolic link
    except OSError:
        found = None
    if found is not None and not stat.S_ISREG(found.st_mode):
        with open(path, "wb") as fh:   # write through: a device or a pipe is not replaced
            fh.write(payload)
        return path
    real = Path(os.path.realpath(path))
    mode = file_mode(real)
    fd, tmp = tempfile.mkstemp(dir=real.parent, prefix=f".{real.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
            fh.flush()
            os.fchmod(fh.fileno(), mode)
            os.fsync(fh.fileno())
        os.replace(tmp, real)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return path


def written_through(path) -> bool:
    """An existing path that is not a regular file (a device, a pipe): written into as it is."""
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def file_mode(path) -> int:
    """The permission bits a file written at ``path`` gets: the existing file's, else what the
    umask leaves of 0666 (as ``open`` would give)."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


@contextlib.contextmanager
def staged_folder(folder):
    """A temporary folder inside ``folder`` (created if need be) to write a set of files into;
    when the block ends without an error each file is renamed into ``folder``, otherwise the
    temporary folder is removed and ``folder`` keeps what it had. Yields the temporary folder;
    :func:`moved` gives the final paths."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=folder, prefix=".rankwise-"))
    try:
        yield staging
        for item in sorted(staging.iterdir()):
            os.replace(item, folder / item.name)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def moved(paths, folder) -> list:
    """The paths ``paths`` (written into a staging folder) have once moved into ``folder``."""
    return [Path(folder) / Path(p).name for p in paths]
