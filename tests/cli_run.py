"""The command line run in this process, for the tests that read its output and exit code."""

import sys
from unittest import mock

import pytest

from rankwise.cli import run


def cli(capsys, *args):
    """``(exit code, stdout, stderr)`` of ``rankwise ARGS``, run in this process."""
    with pytest.raises(SystemExit) as stop, mock.patch.object(sys, "argv",
                                                              ["rankwise", *map(str, args)]):
        run()
    out = capsys.readouterr()
    return stop.value.code, out.out, out.err
