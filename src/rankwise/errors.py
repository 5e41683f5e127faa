"""Errors that rankwise raises for bad input.

A :class:`RankwiseError` is a user mistake, not a bug: its message is one line that says what is
wrong, where, and how to fix it. The command line prints it without a traceback and exits with 2.
"""


class RankwiseError(ValueError):
    """Bad input or an impossible request, explained in one line."""

    def __init__(self, message: str):
        # One line by contract: callers print it as is.
        super().__init__(" ".join(str(message).split()))


class RankwiseWarning(UserWarning):
    """Something a user should know about an output that was still written (one line); the
    command line prints it as ``rankwise: note: ...``."""
