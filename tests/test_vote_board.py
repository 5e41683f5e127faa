"""A log of pairwise votes as one more source of ``rankwise leaderboard``: the board's numbers
against the statistics they come from and against FastChat's, its sentences against its
table, its options given and inferred, bad input in one line, and the rank sets' coverage."""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import rankwise
from rankwise import leaderboard, load_votes_example, read_votes
from rankwise.stats import battles as bs
from rankwise.stats.vote_flip import fewest_votes_to_flip

REAL = Path(__file__).parent / "data" / "real" / "votes"


@pytest.fixture(scope="module")
def arena():
    return load_votes_example("arena")


@pytest.fixture(scope="module")
def board(arena):
    return leaderboard(arena, draws=60)


def _frame(rows):
    return pd.DataFrame(rows, columns=["model_a", "model_b", "winner"])


def test_the_board_is_the_fit_the_bootstrap_and_the_rank_sets(arena, board):
    b = board.board
    cells = bs.cells(arena.a, arena.b, arena.outcome, arena.weight, len(arena.models))
    elo = dict(zip(arena.models, bs.fit(cells).elo))
    assert [elo[m] for m in b.learners] == pytest.approx(b.columns["elo"], abs=1e-9)
    assert list(b.columns["elo"]) == sorted(b.columns["elo"], reverse=True)
    # the interval holds the point; tied with #1 = a rank set holding place 1
    assert (b.columns["elo_low"] <= b.columns["elo"]).all()
    assert (b.columns["elo"] <= b.columns["elo_high"]).all()
    assert set(b.tied_with_first) == {m for m, r in zip(b.learners, b.columns["rank_low"])
                                      if r == 1}
    assert (b.columns["rank_low"] <= np.arange(1, len(b.learners) + 1)).all()
    # the bootstrap is over prompts, since prompts repeat in the example (said in the lead)
    assert board.settings["bootstrap"]["over"] == "prompts"
    assert "resamples of the prompts" in board.render("text")


def test_win_rates_and_votes_equal_a_count_of_the_raw_rows(arena, board):
    frame = pd.read_csv(Path(rankwise.__file__).parent / "examples" / "arena_votes.csv")
    b = board.board
    for j, model in enumerate(b.learners):
        mine = frame[(frame.model_a == model) | (frame.model_b == model)]
        won = ((mine.model_a == model) & (mine.winner == "model_a")) | (
            (mine.model_b == model) & (mine.winner == "model_b"))
        tie = mine.winner.str.startswith("tie")
        assert b.columns["votes"][j] == len(mine)
        assert b.columns["winrate"][j] == pytest.approx((won.sum() + 0.5 * tie.sum()) / len(mine))
        assert b.columns["ties"][j] == pytest.approx(tie.mean())


def test_the_verdict_says_what_the_table_shows(board):
    b = board.board
    first = b.sentences[0]
    assert first.startswith(f"#1 by Elo: {b.learners[0]} ({b.columns['elo'][0]:.1f}")
    tied = [m for m in b.tied_with_first if m != b.learners[0]]
    text = " ".join(b.sentences)
    assert all(m in b.sentences[1] for m in tied)
    check = b.votes["vote_check"]
    assert f"removing {check['votes']:,} of" in text and check["confirmed"]
    # the CSV's tied_with_first marks the same models
    import io

    from rankwise.report.board import board_csv

    rows = list(pd.read_csv(io.StringIO(board_csv(board))).itertuples())
    assert {r.learner for r in rows if r.tied_with_first} == set(b.tied_with_first)


def test_a_board_of_fastchats_battles_equals_fastchats_elo():
    """FastChat's own clean_battle output, its anonymous battles, fitted as its arena notebook
    fits (no penalty): the board's Elo to 0.01 points (the file's README says how)."""
    reference = json.loads((REAL / "fastchat" / "elo_reference.json").read_text())["unpenalised"]
    lb = leaderboard(REAL / "fastchat" / "clean_battle.json", draws=20)
    got = dict(zip(lb.board.learners, lb.board.columns["elo"]))
    assert got == pytest.approx(reference, abs=0.01)
    assert any("Only the anonymous battles" in n for n in lb.notes)
    every = leaderboard(REAL / "fastchat" / "clean_battle.json", draws=20,
                        where="anony=True|False")
    assert every.board.columns["votes"].sum() / 2 == 399


def test_a_score_board_and_a_vote_board_read_the_same_way(board):
    scores = leaderboard(rankwise.load_example("garcia2008"), draws=20)
    for lb in (scores, board):
        d = json.loads(lb.render("json"))
        row = d["boards"][0]["rows"][0]
        assert {"learner", "elo", "elo_low", "elo_high", "winrate", "elo_bound"} <= set(row)
        assert d["boards"][0]["tied_with_first"][0] == row["learner"]
        assert "Verdict" in lb.render("markdown") and "tied" in lb.render("text")


@pytest.mark.parametrize("option, given, inferred", [
    ("bootstrap_over", "prompts", "auto"), ("ties", "half", None), ("style", "sum_assistant_tokens",
                                                                    "auto"),
    ("vote_check", True, None)])
def test_each_option_given_and_inferred_is_the_same_board(arena, option, given, inferred):
    kw = {"draws": 20, "vote_check": False} if option != "vote_check" else {"draws": 20}
    a = leaderboard(arena, **kw, **{option: given}).to_dict()
    b = leaderboard(arena, **kw, **({} if inferred is None else {option: inferred})).to_dict()
    for x, y in zip(a["boards"], b["boards"]):   # the numbers; "as asked" said only when asked
        assert x["rows"] == y["rows"] and x["tied_with_first"] == y["tied_with_first"]


def test_options_change_what_they_say(arena):
    votes = leaderboard(arena, draws=20, bootstrap_over="battles", vote_check=False)
    assert votes.settings["bootstrap"]["over"] == "battles"
    assert any("may be too narrow" in s for s in votes.board.sentences)
    davidson = leaderboard(arena, draws=20, ties="davidson", vote_check=False)
    assert davidson.board.votes["tie_parameter"] > 0
    assert "Davidson" in davidson.render("text")
    styled = leaderboard(arena, draws=20, style="auto", vote_check=False)
    assert "style_elo" in styled.board.columns and "With style control" in styled.render("text")


def test_a_board_per_category_adds_up(arena):
    lb = leaderboard(arena, draws=20, by="category", vote_check=False)
    whole = lb.boards[0].votes["votes"]
    parts = [b.votes["votes"] for b in lb.boards[1:]]
    assert [b.subset for b in lb.boards[1:]] == sorted(b.subset for b in lb.boards[1:])
    assert sum(parts) == whole == 3000


def test_a_planted_fragile_first_is_found_and_said():
    """x leads y by two votes head to head; both beat the rest alike: removing two of x's
    wins over y changes #1, and the board says so with the search's own numbers."""
    rows = ([("x", "y", "model_a")] * 12 + [("x", "y", "model_b")] * 10
            + [(m, o, "model_a") for m in ("x", "y") for o in ("p", "q") for _ in range(40)]
            + [(m, o, "model_b") for m in ("x", "y") for o in ("p", "q") for _ in range(10)]
            + [("p", "q", "tie")] * 10)
    votes = read_votes(_frame(rows))
    lb = leaderboard(votes, draws=20)
    check = lb.board.votes["vote_check"]
    c = bs.cells(votes.a, votes.b, votes.outcome, votes.weight, len(votes.models))
    direct = fewest_votes_to_flip(c.a, c.b, c.outcome, c.n, len(votes.models))
    assert check["votes"] == direct.votes == 2 and check["confirmed"]
    assert "removing 2 of" in " ".join(lb.board.sentences)


@pytest.mark.parametrize("text, said", [
    ("model_a,model_b,winner\nx,x,model_a\nx,y,model_b\n", "itself"),
    ("model_a,model_b,winner\nx,y,sideways\nx,y,model_b\n", "sideways"),
    ("model_a,model_b,winner\n", "no votes"),
])
def test_bad_vote_logs_get_one_line_and_exit_2(tmp_path, cli, text, said):
    """A model battling itself, an unknown winner, an empty log (a log of one model cannot be
    written without a model battling itself)."""
    path = tmp_path / "votes.csv"
    path.write_text(text)
    ran = cli("leaderboard", path, "--source", "votes")
    assert ran.code == 2 and ran.out == "" and len(ran.err.strip().splitlines()) <= 3
    assert "Traceback" not in ran.err and said in ran.err.lower()


@pytest.mark.figures
def test_the_command_reads_the_example_and_every_format(cli, tmp_path):
    for fmt in ("text", "json", "csv", "markdown", "latex", "html"):
        ran = cli("leaderboard", "--example", "arena", "--draws", "20", "--no-vote-check",
                  "-f", fmt)
        assert ran.code == 0 and ran.out
    ran = cli("leaderboard", "--example", "arena", "--draws", "20", "--report",
              tmp_path / "r")
    assert ran.code == 0 and (tmp_path / "r" / "elo.png").exists()
    assert (tmp_path / "r" / "winrate_matrix.svg").exists()


@pytest.mark.slow
def test_rank_sets_keep_their_coverage_over_500_logs():
    """500 logs of 5 models with known strengths: every model's rank set holds its true rank
    in at least 1 - alpha of them (simultaneous), with a Monte Carlo margin."""
    rng = np.random.default_rng(65)
    theta = np.array([0.6, 0.4, 0.4, 0.0, -0.3])
    truth_rank = np.array([1, 2, 2, 4, 5])   # tied strengths: either place holds
    held = 0
    for rep in range(500):
        a = rng.integers(0, 5, 1500)
        b = (a + rng.integers(1, 5, 1500)) % 5
        p = 1 / (1 + np.exp(-(theta[a] - theta[b])))
        outcome = (rng.random(1500) >= p).astype(np.int8)
        votes = read_votes(pd.DataFrame({"model_a": [f"m{i}" for i in a],
                                         "model_b": [f"m{i}" for i in b],
                                         "winner": np.where(outcome == 0, "model_a",
                                                            "model_b")}))
        lb = leaderboard(votes, draws=200, seed=rep, vote_check=False)
        low = dict(zip(lb.board.learners, lb.board.columns["rank_low"]))
        high = dict(zip(lb.board.learners, lb.board.columns["rank_high"]))
        ok = all(low[f"m{i}"] <= truth_rank[i] + (i in (1, 2)) and truth_rank[i] <= high[f"m{i}"]
                 for i in range(5))
        held += ok
    assert held / 500 >= 0.95 - 2 * np.sqrt(0.95 * 0.05 / 500)


def test_each_subset_says_its_own_size(arena):
    """A subset prints its own tests and intervals: its heading says on how much (a board of
    TabArena's problem types once did not say how many data sets each had)."""
    votes = leaderboard(arena, draws=20, by="category", vote_check=False)
    text = votes.render("text")
    for b in votes.boards[1:]:
        assert f"Subset: category = {b.subset} ({b.votes['votes']:,.0f} votes)" in text
    scores = leaderboard(rankwise.load_example("garcia2008"), draws=5)
    assert "Subset" not in scores.render("text")


@pytest.mark.parametrize("ties", ["davidson", "rao-kupper"])
def test_two_models_peeled_in_one_pass_that_met_only_each_other_stay_finite(ties):
    """A won every vote, B lost every vote; in a bootstrap resample they can have met only
    each other: each is put back once an opponent of its is (its bound had none: NaN)."""
    rows = ([("A", "B", "model_a")] * 5 + [("C", "D", "model_a")] * 3
            + [("C", "D", "model_b")] * 2 + [("C", "D", "tie")] * 2
            + [("A", "C", "model_a")] * 2 + [("B", "D", "model_b")] * 2)
    frame = pd.DataFrame(rows, columns=["model_a", "model_b", "winner"])
    board = rankwise.leaderboard(frame, ties=ties, draws=200).board
    assert board.learners == ("A", "C", "D", "B")
    assert np.isfinite(board.columns["elo_low"]).all() and np.isfinite(board.columns["elo"]).all()
