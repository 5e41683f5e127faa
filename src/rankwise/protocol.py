"""The one shape of every analysis result.

Every result (:class:`~rankwise.analysis.Comparison`, the leaderboard, items, curves, fronts,
audit, race, power) names its ``kind`` and a versioned ``schema`` (``rankwise.KIND/N``), echoes
its ``settings``, carries its ``notes``, and is rendered by one function,
:func:`rankwise.report.render`, in every format (text, Markdown, LaTeX, HTML, JSON), and written
by one report-folder writer, :func:`rankwise.report.write_report`. The methods here hand the
result to :mod:`rankwise.report` when called (the one import that points up, as
``Comparison``'s do): the analysis never imports the report at module level.
"""

from __future__ import annotations

from typing import ClassVar


class Analysis:
    """What every analysis result has: ``kind``, ``schema``, ``to_dict()`` (the result's own
    data), ``document()`` (its content as format-neutral blocks), ``render(fmt)``, the
    ``to_*`` shortcuts, ``write_report(folder)`` and ``_repr_html_`` for Jupyter.

    A result class sets ``kind`` and ``version`` and defines ``to_dict``, ``settings`` and
    ``notes``; its document, figures and extra files are declared once in
    :data:`rankwise.report.kinds.KINDS`.
    """

    #: The analysis, as the JSON's ``schema`` and the report registry name it.
    kind: ClassVar[str] = ""
    #: The JSON schema's version: bumped when a key changes meaning or goes.
    version: ClassVar[int] = 1

    @property
    def schema(self) -> str:
        """``rankwise.KIND/VERSION``, the JSON's first key."""
        return f"rankwise.{self.kind}/{self.version}"

    @staticmethod
    def _report():
        from . import report

        return report

    def document(self):
        """The result's content as a :class:`rankwise.report.document.Document` (every format
        lays out these blocks)."""
        return self._report().build_document(self)

    def render(self, fmt: str = "text", width: int | None = None) -> str:
        """The result in ``fmt`` (``text``, ``markdown``, ``latex``, ``html`` or ``json``)."""
        return self._report().render(self, fmt, width=width)

    def to_json(self, indent: int | None = 2) -> str:
        return self._report().render(self, "json", indent=indent)

    def to_text(self) -> str:
        return self._report().render(self, "text")

    def to_markdown(self) -> str:
        return self._report().render(self, "markdown")

    def to_latex(self) -> str:
        return self._report().render(self, "latex")

    def to_frame(self, backend: str = "pandas"):
        """The result's main table, one row per learner (and per subset, task, budget or
        criterion where it has them), with the JSON's unrounded numbers under the JSON's
        names: a pandas DataFrame, or with ``backend="polars"`` or ``"pyarrow"`` that
        library's table (:mod:`rankwise.report.frames` declares each kind's)."""
        from .tables.frames import to_backend

        return to_backend(self._report().result_frame(self), backend)

    def __arrow_c_stream__(self, requested_schema=None):
        """The Arrow PyCapsule interface: ``polars.DataFrame(result)``, ``pyarrow.table(result)``
        and DuckDB read :meth:`to_frame` without a copy per library (needs pyarrow)."""
        return self.to_frame("pyarrow").__arrow_c_stream__(requested_schema)

    def to_html(self, interactive: bool = False) -> str:
        """A whole, self-contained HTML page with its figures inline; ``interactive``: the
        page whose tables sort, whose subsets switch and whose numbers link to their
        sentences (a report folder's ``report_interactive.html``)."""
        if interactive:
            return self._report().interactive_page(self)
        return self._report().render(self, "html")

    def write_report(self, folder, figure_width=None) -> list:
        """Every format and figure into ``folder``, written whole (see
        :func:`rankwise.report.write_report`); return the paths written."""
        return self._report().write_report(self, folder, figure_width=figure_width)

    def _repr_html_(self) -> str:
        """Jupyter: the report as an HTML fragment with scoped styles."""
        return self._report().notebook_fragment(self)

    def _repr_markdown_(self) -> str:
        """Notebook front-ends that show Markdown rather than HTML: the Markdown report."""
        return self._report().render(self, "markdown")

    def __repr__(self) -> str:
        """A plain summary within 80 columns: the kind, the title, the report's first
        paragraph (its verdict, or what was read) and how to print the rest. A result class
        is a dataclass declared with ``repr=False``, so that this is its repr."""
        return self._report().plain_summary(self)
