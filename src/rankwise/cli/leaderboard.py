"""``rankwise leaderboard``: a leaderboard as the benchmarks publish one."""

from __future__ import annotations

from ..cli_options import D, P
from ..errors import RankwiseError
from ..names import MISSING_KEEP
from .driver import command, is_items_input, read_items_input, separator, write_figure

B, BD = P.leaderboard, D.leaderboard


def leaderboard(
    input: B.input = BD.input, example: B.example = BD.example,
    criterion: B.criterion = BD.criterion,
    higher_is_better: B.higher_is_better = BD.higher_is_better, columns: B.columns = BD.columns,
    missing: B.missing = BD.missing,
    source_format: B.source_format = BD.source_format, duplicates: B.duplicates = BD.duplicates,
    where: B.where = BD.where, sep: B.sep = BD.sep, decimal: B.decimal = BD.decimal,
    anchor: B.anchor = BD.anchor, draws: B.draws = BD.draws, seed: B.seed = BD.seed,
    confidence: B.confidence = BD.confidence, alpha: B.alpha = BD.alpha, by: B.by = BD.by,
    rule: B.rule = BD.rule, decimals: B.decimals = BD.decimals,
    figure_top: B.figure_top = BD.figure_top, ties: B.ties = BD.ties,
    bootstrap_over: B.bootstrap_over = BD.bootstrap_over, style: B.style = BD.style,
    vote_check: B.vote_check = BD.vote_check,
    fmt: B.fmt = BD.fmt, output: B.output = BD.output, report: B.report = BD.report,
    figure: B.figure = BD.figure, matrix_figure: B.matrix_figure = BD.matrix_figure,
):
    """A leaderboard as the benchmarks publish one, of a table of scores, a results file (TabArena's per-split results as written), scored items, or a log of pairwise votes (arena battles, judge verdicts). Elo with a bootstrap interval, win rate, mean rank, rank counts, MRR, improvability; who is tied with #1, and what the Friedman test says beside it; for votes, rank sets, style control and how many votes decide #1."""
    from contextlib import nullcontext

    from ..analysis.leaderboard import leaderboard as board_of
    from ..report.board import board_figure, render
    from ..tables.sources import parse_columns

    with command("leaderboard", dict(locals()), what="an INPUT", inputs={"the input": input},
                 figures=("figure", "matrix_figure")) as out:
        decimals = decimals_of(decimals)
        if is_items_input(input, example, source_format):
            # scored items: the board of the task-level table (mean per model and task)
            # the items' own policies (refuse, their default, or common), as compare --items
            kept = {} if missing == MISSING_KEEP else {"missing": missing}
            items = read_items_input(input, example, source_format, columns=columns,
                                     sep=separator(sep), decimal=decimal, duplicates=duplicates,
                                     **kept)
            missing = MISSING_KEEP   # the task table is whole
            opened = nullcontext(items.task_table())
            source_format = "auto"
        elif example is not None and is_vote_example(example):
            from ..examples import load_votes_example
            opened = nullcontext(load_votes_example(example))
        elif example is not None:
            from importlib.resources import as_file

            from ..examples import CRITERIA, example_path
            opened = as_file(example_path(example))
            if criterion is None:   # the example's criterion, as load_example names it
                criterion = CRITERIA.get(example)
        else:
            opened = nullcontext(input)
        with opened as source:
            result = board_of(source, anchor=anchor, draws=draws, seed=seed,
                              confidence=confidence, alpha=alpha, by=by, rule=rule,
                              criterion=criterion, higher_is_better=higher_is_better,
                              columns=parse_columns(columns), source_format=source_format,
                              where=where, sep=separator(sep), decimal=decimal,
                              duplicates=duplicates, decimals=decimals,
                              figure_top=figure_top, missing=missing, ties=ties,
                              bootstrap_over=bootstrap_over, style=style,
                              vote_check=vote_check)
        if example is not None:
            from dataclasses import replace
            result = replace(result, source=f"example:{example}")

        def figures():
            for path, draw, what in ((figure, board_figure, "the board"),
                                     (matrix_figure, matrix_figure_of, "the win-rate matrix")):
                if path is not None:
                    write_figure(draw(result), path, what)

        out.finish(result, lambda: render(result, fmt, out.width), between=figures)


def is_vote_example(name: str) -> bool:
    from ..examples import VOTE_EXAMPLES

    return name in VOTE_EXAMPLES


def decimals_of(text: str):
    """``--decimals D|none`` as the analysis takes it (None: no rounding)."""
    if str(text).strip().lower() == "none":
        return None
    try:
        return int(text)
    except ValueError:
        raise RankwiseError(f"--decimals must be a whole number from 0 to 15 or 'none'; got"
                            f" {text!r}") from None


def board_max() -> int:
    from ..analysis.leaderboard import MATRIX_MAX

    return MATRIX_MAX


def matrix_figure_of(result):
    from ..report.board import matrix_figure

    fig = matrix_figure(result)
    if fig is None:
        raise RankwiseError(f"--matrix-figure: the win-rate matrix is kept up to"
                            f" {board_max()} learners")
    return fig
