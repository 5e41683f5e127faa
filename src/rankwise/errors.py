"""Errors that rankwise raises for bad input.

A :class:`RankwiseError` is a user mistake, not a bug: its message is one line that says what is
wrong, where, and how to fix it. The command line prints it without a traceback and exits with 2:
one line on a pipe, wrapped at spaces on a terminal. It fits three lines of an 80-column terminal
(each path counted as its file name), so another library's message inside it is given in brief
(:func:`rankwise._text.brief`); the tests hold every hostile input's message to that.
"""


class RankwiseError(ValueError):
    """Bad input or an impossible request, explained in one line.

    Examples
    --------
    >>> import rankwise
    >>> try:
    ...     rankwise.friedman([[0.9, 0.8]])
    ... except rankwise.RankwiseError as err:
    ...     print(err)
    need at least 2 data sets, got 1
    >>> issubclass(rankwise.RankwiseError, ValueError)
    True
    """

    def __init__(self, message: str):
        # One line by contract: callers print it as is.
        super().__init__(" ".join(str(message).split()))


class RankwiseWarning(UserWarning):
    """Something a user should know about an output that was still written (one line); the
    command line prints it as ``rankwise: note: ...``.

    Examples
    --------
    >>> import warnings, rankwise
    >>> cmp = rankwise.compare(rankwise.load_example("garcia2008"), posthoc="all")
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     with warnings.catch_warnings(record=True) as seen:
    ...         warnings.simplefilter('always')
    ...         _ = cmp.write_report(folder, figure_width='column')
    >>> [w.category.__name__ for w in seen]
    ['RankwiseWarning']
    """
