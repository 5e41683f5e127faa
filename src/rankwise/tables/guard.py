"""The last line of defence of every reader of other tools' files: a file damaged or not of
the format said, which a reader's own checks let through, is one line naming the file and
what it was read as, never a traceback."""

from __future__ import annotations

import contextlib

from ..errors import RankwiseError

#: What a parser raises on a file that is not what it was read as (pyarrow's and sqlite's
#: errors are among ValueError and OSError, or named here by the module's own base class).
BROKEN = (ValueError, KeyError, TypeError, AttributeError, IndexError, LookupError, OSError,
          EOFError)


@contextlib.contextmanager
def reading(path, what: str):
    """Run a reader on ``path``; an error that is not already one line becomes ``PATH: cannot
    be read as WHAT (the error)``."""
    import sqlite3
    import zipfile

    try:
        yield
    except RankwiseError:
        raise
    except (*BROKEN, sqlite3.Error, zipfile.BadZipFile) as exc:
        message = " ".join(str(exc).split())[:160] or type(exc).__name__
        raise RankwiseError(f"{path}: cannot be read as {what} ({type(exc).__name__}:"
                            f" {message})") from None
