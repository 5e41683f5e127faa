"""A leaderboard (:func:`rankwise.leaderboard`) in every format: text, Markdown, LaTeX and HTML
from one :class:`~rankwise.report.document.Document`, JSON, CSV, and its figures (Elo with
intervals; the win-rate matrix)."""

from __future__ import annotations

import numpy as np

from .._text import counted
from .blocks import Bullets, Cell, Document, Drawn, Figure, Heading, Paragraph, Table
from .format import fmt_p
from .document import source_name

#: Rows a person reads in a board (the JSON and CSV carry every learner).
SHOWN = 60
#: Rows of the HTML page's board, which sorts and scrolls, and of all its boards (``--by``).
PAGE_ROWS, PAGE_TOTAL = 1_000, 5_000
#: The columns of the readable board: (key, header, digits); CSV and JSON carry them all.
#: ``tied``: whether the learner is tied with #1 (the board's ``tied_with_first``).
SHOWN_COLUMNS = (("elo", "Elo", 1), ("interval", "95% interval", 1), ("tied", "tied", None),
                 ("rank_set", "rank set", None), ("style_elo", "style Elo", 1),
                 ("style_rank_change", "style +/-", 0),
                 ("rank", "mean rank", 2), ("winrate", "win rate", 3), ("votes", "votes", 0),
                 ("ties", "ties", 3),
                 ("improvability", "improv.", 3), ("mrr", "MRR", 3), ("ranks", "#1/#2/#3/>3", 1),
                 ("normalized_error", "norm. err.", 3), ("imputed", "imputed", 3),
                 ("median_rank", "med. rank", 1), ("time_train_s", "train s", 1),
                 ("time_infer_s", "infer s", 2))
#: The columns a person reads first: the text keeps these when the board is wider than the
#: terminal (and says where the others are).
FIRST_COLUMNS = ("#", "learner", "elo", "interval", "tied", "rank_set", "winrate")
#: The columns a key shows, when the board has them (a board of votes has no rank counts).
NEEDS = {"interval": "elo_low", "tied": "elo", "ranks": "rank_1", "rank_set": "rank_low"}


def _elo_cell(board, j, digits=1) -> str:
    mark = {1: "≥ ", 2: "≥ ", -1: "≤ "}.get(int(board.bound[j]), "")
    return f"{mark}{board.columns['elo'][j]:.{digits}f}"


def _keys(board) -> list:
    """The keys of the readable board's columns this board has, in order."""
    return [key for key, _, _ in SHOWN_COLUMNS if NEEDS.get(key, key) in board.columns]


def _row(board, j, tied) -> list:
    """One learner's cells; each number with its unrounded value (the HTML page sorts by it and
    shows it on hover; it equals the JSON's), the learner's name with its key numbers."""
    c = board.columns
    digits = {key: d for key, _, d in SHOWN_COLUMNS}
    name = board.learners[j]
    out = [str(j + 1), Cell(name, hint=_hover(board, j, name in tied))]
    for key in _keys(board):
        if key == "elo":
            out.append(Cell(_elo_cell(board, j), value=float(c["elo"][j])))
        elif key == "interval":
            out.append(Cell(f"[{c['elo_low'][j]:.1f}, {c['elo_high'][j]:.1f}]",
                            value=float(c["elo_low"][j]), hint=f"upper {c['elo_high'][j]:.10g}"))
        elif key == "tied":
            out.append("yes" if name in tied else "")
        elif key == "rank_set":
            low, high = int(c["rank_low"][j]), int(c["rank_high"][j])
            out.append(Cell(str(low) if low == high else f"{low}-{high}", value=float(low)))
        elif key == "style_rank_change":
            out.append(f"{int(c[key][j]):+d}" if c[key][j] else "0")
        elif key == "ranks":
            out.append(Cell("/".join(f"{c[n][j]:g}" for n in ("rank_1", "rank_2", "rank_3",
                                                              "rank_4_plus")),
                            value=float(c["rank_1"][j])))
        else:
            v = c[key][j]
            out.append("-" if np.isnan(v) else Cell(f"{v:.{digits[key]}f}", value=float(v)))
    return out


def _hover(board, j, tied) -> str:
    """A learner's key numbers in one line (the HTML page's hover on its name)."""
    c = board.columns
    said = [f"Elo {c['elo'][j]:.1f}"]
    if "elo_low" in c:
        said[0] += f" [{c['elo_low'][j]:.1f}, {c['elo_high'][j]:.1f}]"
    if "rank_low" in c:
        said.append(f"rank set {int(c['rank_low'][j])}-{int(c['rank_high'][j])}")
    said.append("tied with #1" if tied else "not tied with #1")
    if "winrate" in c and np.isfinite(c["winrate"][j]):
        said.append(f"win rate {c['winrate'][j]:.3f}")
    return "; ".join(said)


def _header(board, confidence) -> list:
    titles = {key: title for key, title, _ in SHOWN_COLUMNS}
    return ["#", "learner" if board.votes is None else "model"] + [
        f"{confidence:.0%} interval" if key == "interval" else
                               titles[key] for key in _keys(board)]


def _first(board, head) -> tuple:
    """``(narrow, note)``: the indices of the columns a person reads first, and the line that
    says where the others are."""
    keys = ["#", "learner"] + _keys(board)
    narrow = tuple(i for i, key in enumerate(keys) if key in FIRST_COLUMNS)
    rest = [head[i] for i in range(len(keys)) if i not in narrow]
    return narrow, (f"{len(rest)} more columns ({', '.join(rest)}): a wider terminal, -f csv"
                    " (every learner), -f markdown or --report DIR.")


def _compared(decimals) -> str:
    """How scores are compared before ranking, as compare's lead says it."""
    if decimals is None or decimals == "as given":
        return "scores compared as given (no rounding), ties get mid-ranks"
    return (f"scores rounded to {counted(decimals, 'decimal')} before ranking, ties get"
            " mid-ranks")


def document(lb) -> Document:
    """The board(s) as format-neutral blocks."""
    s = lb.settings
    conf = s["bootstrap"]["confidence"]
    doc = Document(f"rankwise leaderboard: {source_name(lb.source)}")
    way = "higher" if lb.higher_is_better else "lower"
    anchor = s["elo"]["anchor"]
    votes = lb.board.votes
    if votes is not None:
        doc.add(Paragraph(_vote_lead(lb), role="lead"))
    else:
        doc.add(Paragraph(
            f"{len(lb.board.learners)} learners x {lb.board.datasets} data sets"
            f" ({lb.board.splits} splits); criterion: {lb.criterion or 'the score'}, {way} is"
            f" better. Elo: Bradley-Terry maximum likelihood on battles (every pair on every"
            f" split, a tie half a win, each data set weighing 1), scale 400, base 10, "
            + (f"anchored at {anchor} = 1000" if anchor else "mean 1000")
            + f"; interval: {conf:.0%} quantiles of {s['bootstrap']['draws']} bootstrap"
            f" resamples of the data sets (seed {s['bootstrap']['seed']}); "
            + _compared(s.get("decimals", "as given")) + ".", role="lead"))
    for board in lb.boards:
        if board.subset is not None:
            size = (f"{board.datasets:,} data sets" if board.votes is None
                    else f"{board.votes['votes']:,.0f} votes")   # each subset's own tests
            doc.add(Heading(f"Subset: {lb.settings['by']} = {board.subset} ({size})",
                            subset=str(board.subset)))
            doc.add(Heading("What it means", 3))
        else:    # with --by, the whole table is the first of the subsets the page switches
            doc.add(Heading("Verdict", subset=None) if len(lb.boards) == 1 else Heading(
                f"Verdict: all {board.datasets:,} data sets" if board.votes is None else
                f"Verdict: all {board.votes['votes']:,.0f} votes", subset="all"))
        sentences = list(board.sentences)
        f = board.friedman
        if f.get("test"):   # the p-value as every report writes it
            shown = fmt_p(f["pvalue"])
            shown = f"p {shown}" if shown.startswith("<") else f"p = {shown}"
            sentences = [x.replace(f"p = {f['pvalue']:.3g}", shown) for x in sentences]
        doc.add(Paragraph(" ".join(sentences), role="verdict"))
        shown = min(len(board.learners), SHOWN)
        tied = set(board.tied_with_first)
        rows = [_row(board, j, tied) for j in range(shown)]
        head = _header(board, conf)
        caption = (f"tied: statistically tied with #1 at {conf:.0%} (its rank confidence set"
                   " holds place 1); ≥ / ≤: a bound (an infinite maximum-likelihood Elo, said in"
                   " the verdict); " + (
                       "#1/#2/#3/>3: on how many data sets it took that place." if votes is None
                       else f"rank set: its simultaneous {conf:.0%} rank confidence set; win"
                       " rate: the share of its votes it won (a tie half); votes: the votes it"
                       " took part in; ties: their share that were ties"
                       + ("; style: Elo controlled for style, and the places it gains (+) or"
                          " loses (-) under control." if "style_elo" in board.columns
                          else ".")) + " Columns defined in the guide ("
                   + ("leaderboards)." if votes is None else "boards from votes)."))
        every = caption    # the HTML page's table has every learner (up to PAGE_ROWS)
        if shown < len(board.learners):
            caption += (f" The best {shown} of {len(board.learners)} learners; the JSON and"
                        " CSV list them all.")
        page = max(SHOWN, min(PAGE_ROWS, PAGE_TOTAL // len(lb.boards)))
        more = [_row(board, j, tied) for j in range(shown, min(len(board.learners), page))]
        if len(board.learners) > page:
            every += (f" The best {page:,} of {len(board.learners):,} learners; the JSON"
                      " and CSV list them all.")
        narrow, note = _first(board, head)
        doc.add(Table(head, rows, "><" + "".join("<" if h == "tied" else ">"
                                                  for h in head[2:]), caption,
                      key="leaderboard" if board.subset is None else f"leaderboard_{board.subset}",
                      narrow=((narrow, note),), more_rows=more, more_caption=every))
        if board.notes:
            doc.add(Bullets(list(board.notes), role="notes"))
        if board.subset is None:   # with --by, within the whole table's section
            doc.add(Heading("Figures", 2 if len(lb.boards) == 1 else 3), *_figure_blocks(lb))
    if lb.notes:
        doc.add(Heading("Notes"), Bullets(list(lb.notes), role="notes"))
    return doc


def _vote_lead(lb) -> str:
    """The lead of a board of votes: what was read, the model and the bootstrap."""
    s, ev = lb.settings, lb.board.votes
    boot = s["bootstrap"]
    anchor = s["elo"]["anchor"]
    ties = (f"{ev['ties']:,.0f} ties" + (f", {ev['both_bad']:,.0f} of them both bad"
                                         if ev["both_bad"] else ""))
    prompts = f" on {ev['prompts']:,} prompts" if ev["prompts"] else ""
    return (f"{len(lb.board.learners)} models, {ev['votes']:,.0f} votes ({ties}){prompts}."
            f" Elo: Bradley-Terry maximum likelihood on the votes ({s['elo']['battles']}),"
            " scale 400, base 10, " + (f"anchored at {anchor} = 1000" if anchor else
                                       "mean 1000")
            + f"; interval: {boot['confidence']:.0%} quantiles of {boot['draws']} bootstrap"
            + (" resamples of the prompts (a cluster bootstrap: " if boot["over"] == "prompts"
               else " resamples of the votes (on the unique pair-outcome counts; ")
            + f"{ev['bootstrap_why']}; seed {boot['seed']}).")


def over_what(lb) -> str:
    """What the board's bootstrap resamples: data sets, votes or prompts."""
    return {"battles": "votes"}.get(lb.settings["bootstrap"]["over"],
                                    lb.settings["bootstrap"]["over"])


def _figure_blocks(lb) -> list:
    n = len(lb.board.learners)
    conf = lb.settings["bootstrap"]["confidence"]

    def which(name):
        shown = lb.figure_shown(name)
        return f"every one of the {n} learners" if shown == n else \
            f"the best {shown} of {n} learners (see the notes)"

    out = [Figure("elo", Drawn(
        "elo", "Elo with intervals",
        f"Elo of {which('elo')} with its {conf:.0%} bootstrap interval over {over_what(lb)};"
        " * tied with #1; an open marker is a bound."))]
    if lb.board.matrix is not None:
        out.append(Figure("winrate_matrix", Drawn(
            "winrate_matrix", "Win-rate matrix",
            ("How often the row learner beats the column learner over the splits,"
             if lb.board.votes is None else "The probability that the row model beats the"
             " column model under the Bradley-Terry fit,")
            + f" {which('winrate_matrix')} in board order.")))
    return out


def figures(lb, width: float | None = None) -> dict:
    """The board's figures, ``{name: Figure}`` (``width``: unused; the figures size to their
    learners)."""
    out = {"elo": board_figure(lb)}
    m = matrix_figure(lb)
    if m is not None:
        out["winrate_matrix"] = m
    return out


def extras(lb) -> dict:
    """The report folder's further file: every learner of every board as CSV."""
    return {"board.csv": board_csv(lb)}


def board_text(lb, width: int | None = 80) -> str:
    from .generic import render
    return render(lb, "text", width)


def board_markdown(lb) -> str:
    from .generic import render
    return render(lb, "markdown")


def board_html(lb) -> str:
    from .generic import render
    return render(lb, "html")


def board_latex(lb) -> str:
    from .generic import render
    return render(lb, "latex")


def board_json(lb, indent: int | None = 2) -> str:
    from .generic import render
    return render(lb, "json", indent=indent)


def board_csv(lb) -> str:
    """Every learner of every board, one row each (``subset`` empty for the whole table);
    ``tied_with_first``: ``true`` for the learners of the board's tied-with-#1 set."""
    import csv
    import io

    from ..analysis.leaderboard import COLUMNS

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    present = [c for c in COLUMNS if any(c in b.columns for b in lb.boards)]
    writer.writerow(["subset", "position", "learner", *present, "elo_bound",
                     "tied_with_first"])
    for b in lb.boards:
        tied = set(b.tied_with_first)
        for j, name in enumerate(b.learners):
            cells = []
            for c in present:
                v = b.columns.get(c)
                cells.append("" if v is None or np.isnan(v[j]) else repr(float(v[j])))
            writer.writerow([b.subset or "", j + 1, name, *cells,
                             {0: "", 1: "lower", 2: "lower", -1: "upper"}[int(b.bound[j])],
                             "true" if name in tied else "false"])
    return out.getvalue()


FORMATS = {"text": board_text, "json": board_json, "csv": board_csv,
           "markdown": board_markdown, "latex": board_latex, "html": board_html}


def render(lb, fmt: str, width: int | None = 80) -> str:
    if fmt == "text":
        return board_text(lb, width)
    return FORMATS[fmt](lb)


def _said(fig, sentence: str | None) -> None:
    """The sentence of what a figure leaves out, under it in the figure itself."""
    if sentence:
        fig.text(0.01, 0.002, sentence, fontsize=7, color="0.25", va="bottom", ha="left")


def board_figure(lb, limit: int | None = None):
    """Elo with its interval, best on top: the whole table's board, every learner up to
    ``figure_top`` (the analysis's; ``limit``: fewer), a bound drawn as an open marker; when
    it draws fewer learners than the board has, the figure says so."""
    # a Figure of its own, not pyplot's: nothing left open, no backend switched
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure as Drawing

    b = lb.board
    n = lb.figure_shown("elo") if limit is None else min(limit, len(b.learners))
    c = b.columns
    y = np.arange(n)[::-1]
    row, font = (0.24, 7) if n <= 80 else (0.15, 6)   # inches per learner, its name's size
    fig = Drawing(figsize=(7.0, 1.1 + row * n))
    FigureCanvasAgg(fig)   # an Agg canvas: drawn and saved without pyplot
    ax = fig.subplots()
    ax.errorbar(c["elo"][:n], y, xerr=[c["elo"][:n] - c["elo_low"][:n],
                                        c["elo_high"][:n] - c["elo"][:n]],
                fmt="none", ecolor="0.55", elinewidth=1.2, capsize=2)
    solid = b.bound[:n] == 0
    ax.plot(c["elo"][:n][solid], y[solid], "o", color="#1f4e79", markersize=4)
    ax.plot(c["elo"][:n][~solid], y[~solid], "o", mfc="white", mec="#1f4e79", markersize=5)
    tied = set(b.tied_with_first)
    ax.set_yticks(y)
    ax.set_yticklabels([("* " if name in tied else "") + name for name in b.learners[:n]],
                       fontsize=font)
    ax.set_ylim(-0.7, n - 0.3)
    conf = lb.settings["bootstrap"]["confidence"]
    ax.set_xlabel(f"Elo ({conf:.0%} bootstrap interval over {over_what(lb)})")
    ax.set_title("Leaderboard (* tied with #1)", fontsize=9)
    ax.grid(axis="x", color="0.9")
    fig.tight_layout(rect=(0, 0.3 / fig.get_figheight(), 1, 1))
    _said(fig, _left_out(lb, "elo", n))
    return fig


def _left_out(lb, name: str, n: int) -> str | None:
    """The analysis's sentence when the figure draws its ``figure_top``; a sentence of the
    same words for a ``limit`` asked of the drawing function."""
    if n == lb.figure_shown(name):
        return lb.figure_left_out(name)
    from ..analysis.figures import left_out
    from ..analysis.leaderboard import FIGURES

    return left_out(FIGURES[name], n, len(lb.board.learners), "the CSV and JSON hold every"
                    " learner")


#: The win-rate matrix's smallest side (inches): its colour bar's label fits beside it.
MATRIX_SIDE_MIN = 2.4


def matrix_figure(lb, limit: int | None = None):
    """The win-rate matrix (row learner against column learner), board order: every learner up
    to ``figure_top`` (the analysis's; ``limit``: fewer), its cells and names sized to their
    number; when it draws fewer learners than the board has, the figure says so."""
    # a Figure of its own, not pyplot's: nothing left open, no backend switched
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure as Drawing

    b = lb.board
    if b.matrix is None:
        return None
    n = lb.figure_shown("winrate_matrix") if limit is None else min(limit, len(b.learners))
    m = b.matrix[:n, :n]
    # inches per cell and the names' size: a name fits its row at every size
    cell, font = (0.28, 6) if n <= 30 else (0.16, 5.5) if n <= 100 else (0.11, 4.5)
    names = 0.6 * font / 72 * max(len(x) for x in b.learners[:n])   # inches, the longest
    # at least as tall as the colour bar's label (two learners: 0.56 inches, and the label
    # ran into the title)
    side = max(cell * n, MATRIX_SIDE_MIN)
    fig = Drawing(figsize=(side + names + 1.6, side + names + 0.6))
    FigureCanvasAgg(fig)   # an Agg canvas: drawn and saved without pyplot
    ax = fig.subplots()
    image = ax.imshow(m, vmin=0, vmax=1, cmap="RdBu")
    ax.set_xticks(range(n))
    ax.set_yticks(range(n))
    ax.set_xticklabels(b.learners[:n], rotation=90, fontsize=font)
    ax.set_yticklabels(b.learners[:n], fontsize=font)
    ax.tick_params(length=1.5, pad=1)
    bar = fig.colorbar(image, ax=ax, fraction=0.04 if n <= 30 else 0.02)
    bar.set_label("win rate of row against column" if b.votes is None else
                  "P(row beats column)", fontsize=8)
    bar.ax.tick_params(labelsize=7)
    ax.set_title(f"Win rates, {n} learners in board order" if b.votes is None else
                 f"Win probabilities, {n} models in board order", fontsize=8)
    fig.tight_layout(rect=(0, 0.3 / fig.get_figheight(), 1, 1))
    _said(fig, _left_out(lb, "winrate_matrix", n))
    return fig
