"""Writing files so that a failure (a full disk, Ctrl-C, an error half-way) leaves what was there
before: every file is written whole beside its destination and then renamed into place."""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from pathlib import Path


def write_atomic(path, data) -> Path:
    """Write ``data`` (str as UTF-8, or bytes) to ``path``: into a temporary file in the same
    folder, flushed to disk, then renamed over ``path`` (a rename within one file system is
    atomic). On any failure the temporary file is removed and ``path`` is as it was."""
    path = Path(path)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return path


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
