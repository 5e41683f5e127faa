"""``python -m rankwise``: the command line."""

from .cli.argv import run

run()
