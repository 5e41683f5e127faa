"""The vote readers (rankwise.read_votes) on files the arenas and judges wrote
(tests/data/real/votes/README.md), checked against the tools' own numbers and against counts
recomputed from the raw records; every layout's spellings; bad logs get one line."""

import collections
import json
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import rankwise
from rankwise import RankwiseError, read_votes
from rankwise.names import VOTE_SOURCES
from rankwise.stats import elo
from rankwise.tables import registry
from rankwise.tables.battles import Votes

REAL = Path(__file__).parent / "data" / "real" / "votes"
FASTCHAT = REAL / "fastchat"
ARENA_HARD = REAL / "arena_hard_auto"

pytestmark = pytest.mark.filterwarnings("error::RuntimeWarning")


def _frame(rows) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["model_a", "model_b", "winner"])


def _counter(v: Votes) -> collections.Counter:
    """(name a, name b, outcome) -> summed weight, from the per-vote arrays (brute force)."""
    out = collections.Counter()
    for a, b, o, w in zip(v.a, v.b, v.outcome, v.weight):
        out[(v.models[a], v.models[b], int(o))] += w
    return out


def _lines(path):
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


# --------------------------------------------------------------------------- FastChat / LMArena

def test_clean_battle_json_is_read_as_fastchat_wrote_it():
    raw = json.loads((FASTCHAT / "clean_battle.json").read_text())
    v = read_votes(FASTCHAT / "clean_battle.json")
    assert v.reader == "arena" and v.n_votes == len(raw) == 399
    code = {"model_a": 0, "model_b": 1, "tie": 2, "tie (bothbad)": 2}
    expected = collections.Counter((r["model_a"], r["model_b"], code[r["winner"]]) for r in raw)
    assert _counter(v) == expected
    bothbad = sum(r["winner"] == "tie (bothbad)" for r in raw)
    assert (v.tie_kind == 1).sum() == bothbad > 0
    assert (v.tie_kind == 0).sum() == sum(r["winner"] == "tie" for r in raw)
    assert ((v.tie_kind >= 0) == (v.outcome == 2)).all()
    assert set(v.labels) == {"judge", "turn", "language", "anony"}
    assert (v.label("anony") == "False").sum() == sum(not r["anony"] for r in raw)
    assert any("not anonymous" in n and "40 battles" in n for n in v.notes)


def test_fastchats_own_elo_is_recovered_from_the_votes_read():
    """FastChat's compute_elo_mle_with_tie on the anonymous battles (elo_reference.json) and
    rankwise's Bradley-Terry fit (stats.elo) of the votes read: the same ratings up to the
    anchor (FastChat's INIT_RATING; rankwise centres on 1000) when FastChat's logistic
    regression is unpenalised; fschat 0.2.36's own fit (scikit-learn's default L2 penalty)
    is the same shrunk towards the mean."""
    reference = json.loads((FASTCHAT / "elo_reference.json").read_text())
    v = read_votes(FASTCHAT / "clean_battle.json")
    anonymous = v.select(v.label("anony") == "True", "anonymous battles")
    assert anonymous.n_votes == 359 and anonymous.models == v.models
    w = anonymous.win_matrix()
    ours = elo.to_elo(elo.fit(w, w + w.T, 1.0)[0])
    ours = ours - ours.mean()
    for fit, tolerance in (("unpenalised", 0.02), ("fschat_default_l2", 1.0)):
        theirs = np.array([reference[fit][m] for m in v.models])
        theirs = theirs - theirs.mean()
        assert np.abs(ours - theirs).max() < tolerance, (fit, ours - theirs)
    # seen: 0.0003 Elo unpenalised; 0.85 Elo with the penalty, every rating pulled inwards
    assert (np.abs(theirs) < np.abs(ours)).all()


def test_arena_human_preference_one_hot_winners_are_the_winner_column():
    frame = pd.DataFrame({"id": [1, 2, 3, 4], "model_a": ["p", "q", "p", "r"],
                          "model_b": ["q", "r", "r", "p"], "prompt": ["x", "y", "z", "w"],
                          "winner_model_a": [1, 0, 0, 0], "winner_model_b": [0, 1, 0, 1],
                          "winner_tie": [0, 0, 1, 0]})
    v = read_votes(frame)
    assert v.reader == "arena"
    same = read_votes(_frame([("p", "q", "model_a"), ("q", "r", "model_b"),
                              ("p", "r", "tie"), ("r", "p", "model_b")]))
    assert _counter(v) == _counter(same)
    bad = frame.assign(winner_tie=[1, 0, 1, 0])
    with pytest.raises(RankwiseError, match=r"row 1 has winner_model_a, winner_model_b,"
                                            r" winner_tie = \[1.0, 0.0, 1.0\]; exactly one"):
        read_votes(bad)


def test_conv_metadata_becomes_features_a_count_per_kind_summed(tmp_path):
    battles = [{"model_a": "p", "model_b": "q", "winner": "model_a", "anony": True,
                "conv_metadata": {"sum_assistant_a_tokens": 120, "sum_assistant_b_tokens": 80,
                                  "header_count_a": {"h1": 2, "h2": 1, "h3": 0},
                                  "bold_count_a": {"**": 4, "__": 1}}},
               {"model_a": "q", "model_b": "p", "winner": "tie (bothbad)", "anony": True,
                "conv_metadata": {"sum_assistant_a_tokens": 60, "sum_assistant_b_tokens": 300,
                                  "header_count_a": {"h1": 0, "h2": 0, "h3": 0},
                                  "bold_count_a": {"**": 0, "__": 0}}}]
    path = tmp_path / "clean_battle_20261206.json"
    path.write_text(json.dumps(battles))
    v = read_votes(path)
    assert v.reader == "arena"
    assert v.feature_names == ("sum_assistant_a_tokens", "sum_assistant_b_tokens",
                               "header_count_a", "bold_count_a")
    assert v.features.tolist() == [[120, 80, 3, 5], [60, 300, 0, 0]]
    pq = tmp_path / "arena.parquet"
    pd.DataFrame(battles).assign(conv_metadata=[json.dumps(b["conv_metadata"])
                                                for b in battles]).to_parquet(pq)
    assert read_votes(pq).features.tolist() == v.features.tolist()


# --------------------------------------------------------------------------- MT-Bench

def test_mt_bench_pairs_follow_fastchats_show_result():
    """A pair is a win when both orders name the same winner, else a tie; 'error' verdicts
    are left out: the same win/loss/tie table as FastChat's show_result.py prints."""
    reference = json.loads((FASTCHAT / "mt_bench_reference.json").read_text())
    v = read_votes(FASTCHAT / "gpt-4_pair.jsonl")
    assert v.reader == "mt-bench" and v.n_votes == 73
    for model, row in reference.items():
        i = v.models.index(model)
        decided = v.outcome != 2
        winner = np.where(v.outcome == 1, v.b, v.a)
        loser = np.where(v.outcome == 1, v.a, v.b)
        assert (decided & (winner == i)).sum() == row["win"]
        assert (decided & (loser == i)).sum() == row["loss"]
        assert (~decided & ((v.a == i) | (v.b == i))).sum() == row["tie"]
    assert any("2 judgments with an 'error' verdict" in n for n in v.notes)
    assert v.label("judge")[0] == "gpt-4/pair-v2"


def test_mt_bench_each_order_a_vote_of_its_own():
    raw = [r for r in _lines(FASTCHAT / "gpt-4_pair.jsonl")
           if "error" not in (r["g1_winner"], r["g2_winner"])]
    v = read_votes(FASTCHAT / "gpt-4_pair.jsonl", pairs="each")
    assert v.n_votes == 2 * len(raw)
    first = {"model_1": 0, "model_2": 1, "tie": 2}
    second = {"model_1": 1, "model_2": 0, "tie": 2}   # model_2 shown first
    expected = collections.Counter()
    for r in raw:
        expected[(r["model_1"], r["model_2"], first[r["g1_winner"]])] += 1
        expected[(r["model_2"], r["model_1"], second[r["g2_winner"]])] += 1
    assert _counter(v) == expected


def test_mt_bench_human_judgments_layout():
    frame = pd.DataFrame({"question_id": [81, 81, 82], "model_a": ["gpt-4", "vicuna", "gpt-4"],
                          "model_b": ["vicuna", "gpt-4", "claude"],
                          "winner": ["model_a", "tie", "model_b"],
                          "judge": ["author_0", "expert_3", "author_0"], "turn": [1, 2, 1]})
    v = read_votes(frame, source="mt-bench")
    assert v.reader == "mt-bench" and v.outcome.tolist() == [0, 2, 1]
    assert v.label("judge").tolist() == ["author_0", "expert_3", "author_0"]


# --------------------------------------------------------------------------- arena-hard-auto

def test_arena_hard_judgments_match_show_result():
    """Per model, the votes' weight and its win share (a tie half) equal the number of battles
    and the mean score of arena-hard-auto's load_judgments (strong verdicts counted 3 times)."""
    reference = json.loads((ARENA_HARD / "show_result_reference.json").read_text())
    v = read_votes(ARENA_HARD / "model_judgment")
    assert v.reader == "arena-hard"
    w = v.win_matrix()
    for model, row in reference.items():
        i = v.models.index(model)
        total = w[i].sum() + w[:, i].sum()
        assert total == row["battles"]
        assert w[i].sum() / total == pytest.approx(row["mean_score"], abs=1e-12)
    assert set(v.label("judge")) == {"scripted-judge"}
    assert set(v.label("category")) == {"hard_prompt", "creative_writing"}
    assert any("6 judgments with a game without a verdict" in n for n in v.notes)


def test_arena_hard_orientation_weight_and_first_game():
    """Game 1 shows the baseline as A, game 2 the model as A (the order voted is kept); a
    strong verdict weighs strong_weight."""
    path = ARENA_HARD / "model_judgment" / "scripted-judge" / "alpha-chat.jsonl"
    raw = [r for r in _lines(path) if all(g and g["score"] for g in r["games"])]
    v = read_votes(path, strong_weight=1)
    assert v.n_votes == v.total_weight == 2 * len(raw)
    assert [v.models[i] for i in v.a[:2]] == [raw[0]["baseline"], "alpha-chat"]
    strong = sum(">>" in g["score"] for r in raw for g in r["games"])
    heavy = read_votes(path, strong_weight=3)
    assert heavy.total_weight == 2 * len(raw) + 2 * strong
    first = read_votes(path, first_game_only=True)
    assert first.n_votes == len([r for r in _lines(path) if r["games"][0]
                                 and r["games"][0]["score"] and r["games"][1]
                                 and r["games"][1]["score"]]) and (
        np.array(first.models)[first.a] != "alpha-chat").all()


def test_arena_hard_baseline_assumed_by_category_and_said(tmp_path):
    rows = _lines(ARENA_HARD / "model_judgment" / "scripted-judge" / "beta-chat.jsonl")
    for r in rows:
        del r["baseline"]
    rows[0].pop("category")          # a v0.1 file has no category: gpt-4-0314
    folder = tmp_path / "model_judgment" / "judge-x"
    folder.mkdir(parents=True)
    (folder / "beta-chat.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    v = read_votes(tmp_path / "model_judgment")
    assert {"o3-mini-2025-01-31", "gemini-2.0-flash-001", "gpt-4-0314"} <= set(v.models)
    assert any("baseline 'o3-mini-2025-01-31' assumed" in n for n in v.notes)
    given = read_votes(folder, baseline="my-base")
    assert set(given.models) == {"beta-chat", "my-base"}


def test_arena_hards_shipped_battles_file():
    raw = _lines(ARENA_HARD / "arena_hard_battles.jsonl")
    v = read_votes(ARENA_HARD / "arena_hard_battles.jsonl")
    assert v.reader == "votes" and v.n_votes == len(raw) == 1348
    code = {"model_a": 0, "model_b": 1, "tie": 2}
    assert _counter(v) == collections.Counter((r["model_a"], r["model_b"], code[r["winner"]])
                                              for r in raw)
    assert len(v.labels["prompt"][1]) == len({r["question_id"] for r in raw})


# --------------------------------------------------------------------------- the long table

def test_every_spelling_of_a_winner():
    frame = _frame([("x", "y", "model_a"), ("x", "y", "A"), ("x", "y", " b "),
                    ("x", "y", "model_b"), ("x", "y", "tie"), ("x", "y", "Tie (bothbad)"),
                    ("x", "y", "both_bad"), ("x", "y", "y"), ("x", "y", "x")])
    v = read_votes(frame)
    assert v.outcome.tolist() == [0, 0, 1, 1, 2, 2, 2, 1, 0]
    assert v.tie_kind.tolist() == [-1, -1, -1, -1, 0, 1, 1, -1, -1]
    assert any("2 winners are given as the winning model's name" in n for n in v.notes)


def test_counts_layout_is_the_log_it_counts(tmp_path):
    counts = pd.DataFrame({"model_a": ["x", "x", "y"], "model_b": ["y", "z", "z"],
                           "wins_a": [3, 0, 2], "wins_b": [1, 2, 0], "ties": [2, 0, 1]})
    v = read_votes(counts)
    rows = []
    for r in counts.itertuples():
        rows += [(r.model_a, r.model_b, "model_a")] * r.wins_a
        rows += [(r.model_a, r.model_b, "model_b")] * r.wins_b
        rows += [(r.model_a, r.model_b, "tie")] * r.ties
    log = read_votes(_frame(rows))
    assert _counter(v) == _counter(log)
    assert np.array_equal(v.win_matrix(), log.win_matrix())
    assert [c.tolist() for c in v.cells()] == [c.tolist() for c in log.cells()]
    assert v.total_weight == 11 and v.n_votes == 6
    path = tmp_path / "counts.tsv"
    counts.to_csv(path, sep="\t", index=False)
    assert registry.vote_kind(path) == "votes"
    assert _counter(read_votes(path)) == _counter(v)


def test_cells_brute_force_and_fitting_ignores_the_order_shown():
    rng = np.random.default_rng(3)
    names = np.array(["m0", "m1", "m2", "m3"])
    a = rng.integers(0, 4, 500)
    b = (a + rng.integers(1, 4, 500)) % 4
    winner = np.array(["model_a", "model_b", "tie"])[rng.integers(0, 3, 500)]
    v = read_votes(pd.DataFrame({"model_a": names[a], "model_b": names[b], "winner": winner}))
    ca, cb, co, cn = v.cells()
    assert dict(zip(zip(np.array(v.models)[ca], np.array(v.models)[cb], co.tolist()),
                    cn.tolist())) == dict(_counter(v))
    assert cn.sum() == v.n_votes == 500
    flip = {"model_a": "model_b", "model_b": "model_a", "tie": "tie"}
    swapped = read_votes(pd.DataFrame({"model_a": names[b], "model_b": names[a],
                                       "winner": [flip[w] for w in winner]}))
    assert np.array_equal(v.win_matrix(), swapped.win_matrix())
    shuffled = rng.permutation(500)
    again = read_votes(pd.DataFrame({"model_a": names[a][shuffled],
                                     "model_b": names[b][shuffled],
                                     "winner": winner[shuffled]}))
    assert again.models == v.models and np.array_equal(again.win_matrix(), v.win_matrix())


def test_labels_features_weights_and_formats(tmp_path):
    frame = pd.DataFrame({"model_a": ["x", "y", "x"], "model_b": ["y", "z", "z"],
                          "winner": ["model_a", "model_b", "tie"],
                          "judge": ["j1", "j2", "j1"], "question_id": [7, 8, 7],
                          "category": ["math", None, "chat"], "turn": [1, 1, 2],
                          "language": ["English"] * 3, "weight": [1.0, 2.5, 0.5],
                          "len_a": [100, 200, 300], "notes": ["n", "o", "p"]})
    v = read_votes(frame)
    assert set(v.labels) == {"judge", "prompt", "category", "turn", "language"}
    assert v.labels["category"][0].tolist() == [1, -1, 0]
    assert v.label("category").tolist() == ["math", None, "chat"]
    assert v.weight.tolist() == [1.0, 2.5, 0.5] and v.total_weight == 4.0
    assert v.feature_names == ("len_a",) and v.features[:, 0].tolist() == [100, 200, 300]
    assert any("not read" in n and "notes" in n for n in v.notes)
    for name, write in (("v.csv", lambda p: frame.to_csv(p, index=False)),
                        ("v.parquet", lambda p: frame.to_parquet(p)),
                        ("v.jsonl", lambda p: frame.to_json(p, orient="records",
                                                            lines=True))):
        path = tmp_path / name
        write(path)
        got = read_votes(path)
        assert got.reader == "votes" and _counter(got) == _counter(v), name
        assert got.label("judge").tolist() == ["j1", "j2", "j1"]


def test_the_bundled_arena_example():
    v = rankwise.load_votes_example("arena")
    assert v.source == "example:arena" and len(v.models) == 7 and v.n_votes == 3000
    assert {0, 1} <= set(v.tie_kind.tolist())
    assert set(v.labels) == {"prompt", "category"} and len(v.labels["category"][1]) == 4
    assert v.feature_names == ("sum_assistant_a_tokens", "sum_assistant_b_tokens")
    w = v.win_matrix()
    rating = dict(zip(v.models, elo.to_elo(elo.fit(w, w + w.T, 1.0)[0])))
    order = sorted(rating, key=rating.get, reverse=True)
    assert order[:2] == ["orca", "lumen"] and order[-1] == "pico"
    assert 5 < rating["orca"] - rating["lumen"] < 60       # close: #1 is not certain
    assert rating["lumen"] - rating[order[2]] > 40
    again = rankwise.load_votes_example("arena")
    assert np.array_equal(again.win_matrix(), w)


def test_the_bundled_example_is_what_its_script_writes():
    import importlib.util

    script = Path(__file__).parents[1] / "tools" / "make_votes_example.py"
    spec = importlib.util.spec_from_file_location("make_votes_example", script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    bundled = Path(rankwise.__file__).parent / "examples" / "arena_votes.csv"
    pd.testing.assert_frame_equal(module.votes(), pd.read_csv(bundled))


def test_names_differing_only_by_spaces_are_one_model():
    v = read_votes(_frame([("x ", "y", "model_a"), ("x", " y", "tie"), ("y", "x", "x ")]))
    assert v.models == ("x", "y") and v.a.tolist() == [0, 0, 1]
    assert v.outcome.tolist() == [0, 2, 1]


# --------------------------------------------------------------------------- detection

def test_detection_of_each_source(tmp_path):
    assert registry.vote_kind(FASTCHAT / "clean_battle.json") == "arena"
    assert registry.vote_kind(FASTCHAT / "gpt-4_pair.jsonl") == "mt-bench"
    assert registry.vote_kind(ARENA_HARD / "model_judgment") == "arena-hard"
    assert registry.vote_kind(ARENA_HARD / "model_judgment" / "scripted-judge") == "arena-hard"
    assert registry.vote_kind(ARENA_HARD / "arena_hard_battles.jsonl") == "votes"
    assert VOTE_SOURCES == ("arena", "mt-bench", "arena-hard", "votes")
    other = tmp_path / "scores.csv"
    other.write_text("learner,dataset,value\na,d,1\n")
    with pytest.raises(RankwiseError, match=r"scores.csv: not a vote log rankwise knows"
                                            r" \(looked for arena: .*\); say which"):
        read_votes(other)
    with pytest.raises(RankwiseError, match=r"--source must be one of auto, arena, mt-bench,"
                                            r" arena-hard, votes; got 'bogus'"):
        read_votes(other, source="bogus")


# --------------------------------------------------------------------------- bad logs

@pytest.mark.parametrize("rows, message", [
    ([], r"DataFrame: no votes in the log"),
    ([("x", "x", "tie")] * 2, r"row 1 has model 'x' battling itself \(2 such rows\)"),
    ([("x", "y", "model_a"), ("x", "y", "left")],
     r"row 2 has winner 'left', which is none of model_a, model_b, tie, tie \(bothbad\) .*"
     r" \(1 such rows\)"),
    ([("x", "y", "model_a"), ("", "y", "tie")], r"row 2 has no model_a name"),
    ([("x", "y", "model_a"), ("x", None, "tie")], r"row 2 has no model_b name"),
    ([("x", "y", None)], r"row 1 has no winner \(1 such rows\).*missing_winner='drop'"),
])
def test_bad_logs_get_one_line(rows, message):
    with pytest.raises(RankwiseError, match=message) as caught:
        read_votes(_frame(rows))
    assert "\n" not in str(caught.value)


def test_missing_columns_are_named_and_one_model_refused():
    with pytest.raises(RankwiseError, match=r"needs the columns model_a, model_b and winner"
                                            r" .*missing winner \(its columns are model_a,"
                                            r" model_b, outcome\)"):
        read_votes(pd.DataFrame({"model_a": ["x"], "model_b": ["y"], "outcome": [1]}),
                   source="votes")
    with pytest.raises(RankwiseError, match=r"its columns are left, right"):
        read_votes(pd.DataFrame({"left": ["x"], "right": ["y"]}), source="votes")
    with pytest.raises(RankwiseError, match=r"no vote has a winner"):
        read_votes(_frame([("x", "y", None)]), missing_winner="drop")


def test_a_missing_winner_dropped_is_counted():
    v = read_votes(_frame([("x", "y", "model_a"), ("x", "y", np.nan), ("y", "x", "tie"),
                           ("x", "y", ""), ("z", "y", None)]), missing_winner="drop")
    assert v.n_votes == 2 and v.models == ("x", "y")
    assert any(n.startswith("3 of 5 rows have no winner and are left out") for n in v.notes)
    assert any(n.startswith("1 models left without votes") and n.endswith(": z.")
               for n in v.notes)


def test_bad_tool_files_get_one_line(tmp_path):
    broken = tmp_path / "model_judgment" / "j"
    broken.mkdir(parents=True)
    (broken / "m.jsonl").write_text('{"model": "m", "games": [{"score": "A>>>B"},'
                                    ' {"score": "A>B"}]}\n')
    with pytest.raises(RankwiseError, match=r"game 1 has verdict 'A>>>B', none of A>B"):
        read_votes(tmp_path / "model_judgment", source="arena-hard")
    (broken / "m.jsonl").write_text('{"model": "m", "games": [{"score": "A>B"}\n')
    with pytest.raises(RankwiseError, match=r"m.jsonl, line 1: not JSON"):
        read_votes(broken, source="arena-hard")
    copy = tmp_path / "pair.jsonl"
    shutil.copy(FASTCHAT / "gpt-4_pair.jsonl", copy)
    with pytest.raises(RankwiseError, match=r"pairs must be agree or each"):
        read_votes(copy, pairs="both")
    lines = tmp_path / "votes.jsonl"
    lines.write_text('{"model_a": "x", "model_b": "y", "winner": "x"}\n{broken\n')
    with pytest.raises(RankwiseError, match=r"votes.jsonl, line 2: not JSON \(Expecting"):
        read_votes(lines)
    empty = tmp_path / "empty.csv"
    empty.write_text("model_a,model_b,winner\n")
    with pytest.raises(RankwiseError, match=r"empty.csv: no votes in the log"):
        read_votes(empty)


def test_chatbot_arena_conversations_parquet_with_nested_columns(tmp_path):
    """The layout of lmsys/chatbot_arena_conversations: conversations, moderation and tags
    are nested columns, read past and named in the notes; the rest are labels."""
    frame = pd.DataFrame({
        "question_id": ["q1", "q2", "q3"], "model_a": ["vicuna-13b", "koala-13b", "alpaca-13b"],
        "model_b": ["koala-13b", "alpaca-13b", "vicuna-13b"],
        "winner": ["model_a", "tie (bothbad)", "model_b"], "judge": ["arena_user_1"] * 3,
        "conversation_a": [[{"role": "user", "content": "hi"}]] * 3,
        "conversation_b": [[{"role": "user", "content": "hi"}]] * 3,
        "turn": [1, 1, 2], "anony": [True, True, False], "language": ["English"] * 3,
        "tstamp": [1682351591.1322, 1682351592.0, 1682351593.5],
        "openai_moderation": [{"flagged": False}] * 3,
        "toxic_chat_tag": [{"roberta-large": {"flagged": False}}] * 3})
    path = tmp_path / "train-00000-of-00001.parquet"
    frame.to_parquet(path)
    assert registry.vote_kind(path) == "arena"
    v = read_votes(path)
    assert v.outcome.tolist() == [0, 2, 1] and v.tie_kind.tolist() == [-1, 1, -1]
    assert set(v.labels) == {"prompt", "judge", "turn", "anony", "language"}
    assert v.features is None
    assert any("1 battles are not anonymous" in n for n in v.notes)
    assert any(n.startswith("columns not read") and "conversation_a" in n and "tstamp" in n
               and "toxic_chat_tag" in n for n in v.notes)
