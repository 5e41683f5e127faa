"""Reports: text, Markdown, LaTeX, HTML and JSON, the figures, and a folder with everything.

Report writers read a :class:`~rankwise.analysis.Comparison`; they never compute a statistic.
Imports go down to :mod:`rankwise.analysis` (and the formatting helpers).
"""

from .formats import (
                      figures,
                      html_report,
                      latex_report,
                      markdown_report,
                      render,
                      text_report,
                      write_report,
)

__all__ = ["figures", "html_report", "latex_report", "markdown_report", "render", "text_report",
           "write_report"]
