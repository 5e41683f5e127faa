"""The progress bar of a run, on stderr."""

from __future__ import annotations


class ProgressBar:
    """done / total, failures, elapsed and remaining time (rich), on stderr."""

    def __init__(self, quiet: bool = False):
        self.quiet = quiet
        self.bar = None

    def start(self, total, done, failed):
        self.failed = failed
        if self.quiet:
            return
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self.bar = Progress(TextColumn("tasks"), BarColumn(), MofNCompleteColumn(),
                            TextColumn("failed: {task.fields[failed]}"), TimeElapsedColumn(),
                            TextColumn("left:"), TimeRemainingColumn(),
                            console=Console(stderr=True), transient=False)
        self.bar.start()
        self.task = self.bar.add_task("run", total=total, completed=done, failed=failed)

    def advance(self, failed: bool):
        self.failed += failed
        if self.bar:
            self.bar.update(self.task, advance=1, failed=self.failed)

    def set_total(self, total):
        """A race decided that some tasks are not needed: the bar counts the rest."""
        if self.bar:
            self.bar.update(self.task, total=total)

    def say(self, line: str):
        """A line above the bar (a race's elimination, as it happens); none when quiet."""
        if self.bar:
            self.bar.console.print(line, markup=False, highlight=False)

    def stop(self):
        if self.bar:
            self.bar.stop()
