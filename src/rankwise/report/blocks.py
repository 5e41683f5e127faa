"""The format-neutral blocks every report is made of (headings, paragraphs, tables, bullets,
figures), and which learners a comparison's report shows (the best ``top`` at large k):
:mod:`.document` and :mod:`.sections` build reports of these; the text, Markdown, LaTeX and
HTML writers lay them out."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..analysis.figures import best_first
from ..defaults import PAIR_MATRIX_MAX_LEARNERS
from .format import digits

MAX_TABLE_ROWS = 200


@dataclass
class Heading:
    text: str
    level: int = 2
    #: The subset whose section this heading opens (a board of ``--by``, one data set): the
    #: HTML page switches between such sections; the other formats print them one after another.
    subset: str | None = None


@dataclass
class Paragraph:
    text: str
    role: str = ""  # "lead", "verdict", "methods" or ""


@dataclass
class Cell:
    text: str
    best: bool = False  # the best value of its data set (bold)
    mark: bool = False  # significant at alpha (starred)
    #: The number behind the text, unrounded: the HTML page sorts by it and shows it on hover
    #: (equal to the JSON's); None where the text is not a number.
    value: float | None = None
    hint: str = ""      # more on hover (the HTML page's title), beside the value


#: Where a caption names the mark of the best value of each data set (``Cell.best``): the
#: renderers say it their way, "bold" where the format has bold and "*" in plain text.
BEST = "<best-mark>"


@dataclass
class Table:
    header: list
    rows: list           # lists of str or Cell
    align: str           # one of "<" or ">" per column
    caption: str = ""
    key: str = ""
    #: What a table wider than the terminal (the text) or the landscape page (LaTeX) keeps:
    #: choices of ``(columns, note)``, widest first; the first whose columns (indices) fit is
    #: kept (the last whatever its width), its note printed under it (where the other columns
    #: are). (): every column, in blocks of columns that fit.
    narrow: tuple = ()
    #: Rows after the ones a person reads in text (the best ``SHOWN``): the HTML page, whose
    #: tables sort and scroll, shows them too, with ``more_caption`` for ``caption``.
    more_rows: list = field(default_factory=list)
    more_caption: str = ""

    def said(self, bold: bool = True) -> str:
        """The caption with the best cells' mark named as this format draws it."""
        return self.caption.replace(BEST, "bold" if bold else "*")


def header_lines(head) -> list:
    """A header's lines: a header of several lines is a tuple (``("metric_error", "mean
    rank")``): the text prints them one above the other, LaTeX stacks them, HTML breaks the
    line and Markdown (a table row is one line) joins them with a space."""
    return list(head) if isinstance(head, tuple) else [str(head)]


def header_text(head) -> str:
    """A header on one line."""
    return " ".join(header_lines(head))


@dataclass
class Bullets:
    items: list
    role: str = ""


@dataclass
class Preformatted:
    lines: list
    key: str = ""


@dataclass
class Figure:
    name: str
    plan: object  # FigurePlan, or a Drawn


@dataclass(frozen=True)
class Drawn:
    """The plan of a figure an analysis other than compare always draws: its title and
    caption (every format prints them as it prints a :class:`FigurePlan`'s)."""

    name: str
    title: str
    caption: str
    drawn: bool = True
    reason: str | None = None


@dataclass
class Document:
    title: str
    blocks: list = field(default_factory=list)

    def add(self, *blocks):
        self.blocks.extend(blocks)


def shown_learners(cmp) -> list:
    """Indices of the learners the reports show, best mean rank first: the best ``top`` (the
    ``top=`` option, ``--top``; all when it is None or k is not larger)."""
    return best_first(cmp.mean_ranks, cmp.options.get("top")).tolist()


#: Figures of learners (the CD, control and heat-map diagrams) show at most this many: a
#: label row each, and an image of more would pass the rasterisers' 65,536-pixel limit.
FIGURE_MAX_LEARNERS = 1_000


def figure_learners(cmp) -> list:
    """Indices of the learners the figures show: the reports' (``shown_learners``), at most
    ``FIGURE_MAX_LEARNERS``."""
    return shown_learners(cmp)[:FIGURE_MAX_LEARNERS]


def shown_names(cmp) -> set:
    """The names of the learners the reports show."""
    return {cmp.table.learners[j] for j in shown_learners(cmp)}


def left_out_sentence(cmp) -> str | None:
    """What the reports leave out at large k, and where all of it is."""
    k, shown = cmp.table.n_learners, len(shown_learners(cmp))
    if shown == k:
        return None
    if k <= PAIR_MATRIX_MAX_LEARNERS:
        return (f"Showing the best {shown} of {k:,} learners by mean rank in every table below"
                f" ({k - shown:,} left out; pair tables: pairs among them). The JSON output"
                " (--format json) holds every learner and pair, and --report DIR writes all"
                " pairs to pairs.csv; --top N shows more (0: all).")
    return (f"Showing the best {shown} of {k:,} learners by mean rank in every table below"
            f" ({k - shown:,} left out; pair tables: pairs among them). The JSON output"
            " (--format json) holds every learner and its comparison with the best; above"
            f" {PAIR_MATRIX_MAX_LEARNERS:,} learners its pair matrices and pairs.csv hold the"
            " pairs of the learners shown, and --posthoc all --pairs FILE writes every pair;"
            " --top N shows more (0: all).")


def table_digits(cmp) -> int:
    """Decimals of the table's numbers: ``digits=`` (``--digits``) when given, else as many as
    the input has (at most 6)."""
    chosen = cmp.options.get("digits")
    return int(chosen) if chosen is not None else digits(cmp.table.values)
