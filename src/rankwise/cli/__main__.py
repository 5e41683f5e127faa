"""``python -m rankwise.cli``."""

from .argv import run

run()
