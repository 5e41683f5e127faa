"""Any data frame in: the same analysis from pandas, Polars (eager and lazy), PyArrow and DuckDB
inputs gives identical JSON (tables, scored items, curves, votes, a published board); and a
score table out in pandas, Polars or PyArrow."""

from __future__ import annotations

import pandas as pd
import pytest

import rankwise
from rankwise.errors import RankwiseError

pl = pytest.importorskip("polars")
pa = pytest.importorskip("pyarrow")
duckdb = pytest.importorskip("duckdb")


def _each(frame: pd.DataFrame) -> dict:
    """The same rows held by each library."""
    return {"pandas": frame, "polars": pl.from_pandas(frame),
            "polars-lazy": pl.from_pandas(frame).lazy(),
            "pyarrow": pa.Table.from_pandas(frame, preserve_index=False),
            "duckdb": duckdb.from_df(frame)}


def _same(outputs: dict) -> None:
    first = outputs["pandas"]
    for name, out in outputs.items():
        assert out == first, name


def test_a_score_table_from_every_library():
    wide = rankwise.load_example("garcia2008").to_frame().rename_axis("dataset").reset_index()
    _same({k: rankwise.compare(rankwise.load_table(v), posthoc="all").to_json()
           for k, v in _each(wide).items()})
    _same({k: rankwise.leaderboard(v, draws=20).to_json() for k, v in _each(wide).items()})
    long = rankwise.load_example("folds_demo", criterion="accuracy").raw
    _same({k: rankwise.plan(rankwise.load_table(v), draws=100).to_json()
           for k, v in _each(long).items()})


def test_items_curves_votes_and_a_board_from_every_library():
    from importlib.resources import files

    from rankwise.analysis.audit import audit
    from rankwise.examples import load_items_example

    items = load_items_example("evals").frame
    _same({k: rankwise.compare_items(rankwise.read_items(v)).to_json()
           for k, v in _each(items).items()})
    curves = pd.read_csv(files("rankwise.examples") / "learning_curves.csv")
    _same({k: rankwise.compare_curves(rankwise.read_curves(v, higher_is_better=True))
           .to_json() for k, v in _each(curves).items()})
    votes = pd.DataFrame({"model_a": ["x", "x", "y", "z"], "model_b": ["y", "z", "z", "x"],
                          "winner": ["model_a", "tie", "model_b", "model_a"]})
    _same({k: rankwise.leaderboard(v, draws=20).to_json() for k, v in _each(votes).items()})
    board = pd.DataFrame({"model": ["a", "b"], "MATH": ["51.2", "49.9"]})
    _same({k: audit(v, counts={"MATH": 5000}).to_json() for k, v in _each(board).items()})


def test_a_score_table_out_in_every_library():
    t = rankwise.load_example("garcia2010")
    polars, arrow = t.to_frame(backend="polars"), t.to_frame(backend="pyarrow")
    assert isinstance(polars, pl.DataFrame) and isinstance(arrow, pa.Table)
    assert polars.columns == ["dataset", *t.learners] == arrow.column_names
    assert polars["dataset"].to_list() == list(t.datasets)
    assert polars.drop("dataset").to_numpy().tolist() == t.values.tolist()
    back = rankwise.load_table(polars)
    assert back.learners == t.learners and (back.values == t.values).all()
    with pytest.raises(RankwiseError, match="backend"):
        t.to_frame(backend="excel")


def test_what_is_not_a_frame_is_refused_in_one_line():
    with pytest.raises(RankwiseError, match="data frame"):
        rankwise.load_table(pl.Series("a", [1, 2]))


def test_a_leaderboard_out_in_every_library():
    """Every learner of every board, read from the writer of board.csv: the same rows."""
    import io

    from rankwise.report.board import board_csv

    board = rankwise.leaderboard(rankwise.load_example("garcia2008"), draws=20)
    frame = board.to_frame()
    assert list(frame["learner"]) == list(board.board.learners)
    assert frame["elo"].tolist() == pytest.approx(list(board.board.columns["elo"]))
    assert frame.shape == pd.read_csv(io.StringIO(board_csv(board))).shape
    polars = board.to_frame(backend="polars")
    assert isinstance(polars, pl.DataFrame) and polars["learner"].to_list() == \
        list(frame["learner"])


def _every_kind() -> dict:
    """One small result of each kind."""
    import numpy as np

    from rankwise.analysis.audit import audit
    from rankwise.examples import load_curves_example, load_gate_example, load_items_example
    from rankwise.power import power_study

    demo = [rankwise.load_example("demo_results", criterion=c) for c in ("accuracy", "fit_time")]
    x = np.random.default_rng(0).normal(size=(60, 4)) + [1.5, 1.5, 0.0, 0.0]
    return {
        "compare": rankwise.compare(rankwise.load_example("garcia2010")),
        "leaderboard": rankwise.leaderboard(rankwise.load_example("garcia2008"), draws=20),
        "items": rankwise.compare_items(load_items_example("evals")),
        "curves": rankwise.compare_curves(load_curves_example("learning")),
        "fronts": rankwise.compare_criteria(demo, ["accuracy", "fit_time"], draws=100),
        "gate": rankwise.gate(*load_gate_example("nightly")),
        "audit": audit(pd.DataFrame({"model": ["A", "B"], "MATH": ["65.5", "63.0"]}),
                       counts={"MATH": 5000}),
        "power": power_study(rankwise.load_example("garcia2008"), learners="C4.5,Kernel",
                             sample_size="10", biases=[0, 10], draws=30),
        "race": rankwise.race(pd.DataFrame(x, columns=list("ABCD")), order="given"),
        "plan": rankwise.plan(rankwise.load_example("garcia2010"), draws=100),
    }


def test_every_result_out_in_every_library():
    """Every kind of result has a frame, the same in pandas, Polars and PyArrow, whose numbers
    are the JSON's (unrounded) under the JSON's names."""
    import json

    from rankwise.report.frames import FRAMES
    from rankwise.report.kinds import KINDS

    assert set(FRAMES) == {"compare", *KINDS}      # a new kind needs its frame
    results = _every_kind()
    assert set(results) == set(FRAMES)
    for kind, r in results.items():
        frame = r.to_frame()
        assert isinstance(frame, pd.DataFrame) and len(frame) > 0, kind
        back = {"polars": r.to_frame(backend="polars").to_pandas(),
                "pyarrow": r.to_frame(backend="pyarrow").to_pandas()}
        for name, other in back.items():
            pd.testing.assert_frame_equal(other, frame, check_dtype=False, obj=f"{kind} {name}")
    cmp = results["compare"]
    data = json.loads(cmp.to_json())
    frame = cmp.to_frame().set_index("learner")
    assert frame["mean_rank"].to_dict() == data["mean_ranks"]
    assert frame.index[0] == cmp.verdict.best and frame.loc["FH-GBML", "decision"] == "worse"
    items = results["items"].to_frame()
    task = json.loads(results["items"].to_json())["per_dataset"][0]
    rows = items[items["task"] == task["dataset"]]
    assert rows["score"].tolist() == task["score"] and rows["learner"].tolist() == task["learners"]
    with pytest.raises(RankwiseError, match="backend must be one of"):
        cmp.to_frame(backend="spark")


def test_results_and_tables_are_arrow_streams_every_library_reads():
    """The Arrow PyCapsule interface: Polars, PyArrow and DuckDB read a result or a score
    table as it is; and an object that is only an Arrow stream is read as a table."""
    cmp = rankwise.compare(rankwise.load_example("garcia2010"))
    pd.testing.assert_frame_equal(pl.DataFrame(cmp).to_pandas(), cmp.to_frame(),
                                  check_dtype=False)
    assert pa.table(cmp).column_names == list(cmp.to_frame().columns)
    best = duckdb.sql("SELECT learner FROM cmp ORDER BY mean_rank LIMIT 1").fetchall()[0][0]
    assert best == cmp.verdict.best
    table = rankwise.load_example("garcia2008")
    assert pl.DataFrame(table).columns == ["dataset", *table.learners]

    class Stream:        # nothing but the interface
        def __init__(self, frame):
            self.frame = frame

        def __arrow_c_stream__(self, requested_schema=None):
            return pa.Table.from_pandas(self.frame).__arrow_c_stream__(requested_schema)

    wide = table.to_frame().rename_axis("dataset").reset_index()
    assert rankwise.load_table(Stream(wide)).learners == table.learners


@pytest.mark.figures
def test_a_p_value_below_the_floor_is_the_jsons_in_the_frame_and_on_the_page():
    """p far below 1e-300: the frame and the page's cells carry what the JSON writes (the
    floor), never 0."""
    import json

    import numpy as np

    z = np.random.default_rng(0).normal(size=(20_000, 4)) + [0, 5, 10, 15]
    cmp = rankwise.compare(z)
    data = json.loads(cmp.to_json())
    assert cmp.tests["friedman"].pvalue < 1e-300
    frame = cmp.to_frame().set_index("learner")
    floor = data["pvalue_floor"]
    assert (frame["pvalue_vs_best"].dropna() == floor).all()
    assert data["tests"]["friedman"]["pvalue"] == floor
    page = cmp.to_html(interactive=True)
    assert f'data-v="{floor!r}"' in page and 'data-v="0.0"' not in page
