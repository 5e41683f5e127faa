"""A Parquet item table queried in place by DuckDB (``--source items-duckdb``, and ``auto`` from
``QUERY_ROWS`` rows) gives what the whole read into pandas gives: the same JSON to the byte,
the same notes, and the same one-line message for every bad table."""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import rankwise
from rankwise.errors import RankwiseError
from rankwise.tables import item_sql, items as item_module
from rankwise.tables.items import ItemQuery, ItemTable, read_items

pytest.importorskip("duckdb", reason="the in-place path needs DuckDB (rankwise[duckdb])")
pytest.importorskip("pyarrow", reason="Parquet needs pyarrow (rankwise[parquet])")

EXAMPLE = Path(rankwise.__file__).parent / "examples" / "evals_items.csv"


def _json(table, **options) -> str:
    return json.dumps(rankwise.compare_items(table, draws=200, **options).to_dict(),
                      sort_keys=True, default=str)


def _same(path, **read) -> str:
    """The JSON of both paths, asserted equal; the query's table is an ItemQuery."""
    whole = read_items(path, reader="items", **read)
    query = read_items(path, reader="items-duckdb", **read)
    assert isinstance(query, ItemQuery) and type(whole) is ItemTable
    assert (query.models, query.tasks, query.binary, query.n_outcomes) == (
        whole.models, whole.tasks, whole.binary, whole.n_outcomes)
    a, b = _json(whole), _json(query)
    assert a == b
    return a


def test_the_bundled_example_gives_byte_identical_json(tmp_path, cli, monkeypatch):
    """The example as its CSV reads (text labels, a cluster column with blanks) and as the
    item table's own frame writes it (categoricals): the command's JSON is the same file
    whichever path reads it, and ``auto`` queries in place from QUERY_ROWS rows."""
    raw = tmp_path / "raw.parquet"
    pd.read_csv(EXAMPLE).to_parquet(raw, index=False)
    own = tmp_path / "own.parquet"
    rankwise.load_items_example("evals").frame.to_parquet(own)
    for path in (raw, own):
        _same(path)
        outs = {}
        for source in ("items", "items-duckdb"):
            ran = cli("compare", path, "--items", "--source", source, "-f", "json")
            assert ran.code == 0, ran.err
            outs[source] = ran.out
        assert outs["items"] == outs["items-duckdb"]
    assert type(read_items(own)) is ItemTable                # small: read whole
    monkeypatch.setattr(item_sql, "QUERY_ROWS", 0)
    assert isinstance(read_items(own), ItemQuery)            # large: queried in place
    assert type(read_items(own, reader="items")) is ItemTable
    ran = cli("compare", own, "--items", "-f", "json")
    assert ran.out == outs["items"]


def _generated(seed: int, *, trials=1, models=5, tasks=3, n=30, missing=0.0, kind="binary",
               extra=()):
    """A long table in a shuffled row order: 0/1 or fractional scores (ties among models
    by construction), optional repeats, cells left out, weights and clusters."""
    rng = np.random.default_rng(seed)
    rows = []
    for t in range(tasks):
        for i in range(n):
            for m in range(models):
                for r in range(trials):
                    rows.append((f"m{(m * 7) % models}", f"task{t}", f"q{t}-{i}", r))
    f = pd.DataFrame(rows, columns=["model", "task", "item", "repeat"])
    if kind == "binary":
        f["score"] = (rng.random(len(f)) < 0.6).astype(np.int64)
    elif kind == "float32":
        f["score"] = rng.random(len(f)).astype(np.float32)
    else:   # fractions whose sums depend on their order: the repeats' sums are exact or not
        f["score"] = rng.random(len(f)) * rng.choice([1, 1e-9, 3.3], len(f))
    f.loc[f["model"] == "m1", "score"] = f.loc[f["model"] == "m2", "score"].to_numpy()  # ties
    if missing:
        f = f[rng.random(len(f)) > missing]
    if "weight" in extra:
        f["weight"] = rng.integers(1, 4, len(f)).astype(float)
        f["weight"] = f.groupby("item")["weight"].transform("first")
    if "cluster" in extra:
        codes = pd.factorize(f["item"])[0]      # whole numbers, some items without one
        f["cluster"] = np.where(codes % 5 == 0, np.nan, codes % 4)
    if "text-cluster" in extra:
        f["cluster"] = f["item"].str.slice(0, 4).where(rng.random(len(f)) < 0.7, "")
    if trials == 1:
        f = f.drop(columns="repeat")
    return f.sample(frac=1, random_state=seed).reset_index(drop=True)


@pytest.mark.parametrize("case", [
    {"kind": "binary"},
    {"kind": "fraction", "trials": 3},
    {"kind": "binary", "trials": 2, "extra": ("weight",)},
    {"kind": "float32", "extra": ("text-cluster",)},
    {"kind": "fraction", "extra": ("cluster", "weight")},
])
def test_generated_tables_give_byte_identical_json(tmp_path, case):
    frame = _generated(3, **case)
    path = tmp_path / "t.parquet"
    if "cluster" in case.get("extra", ()):
        # whole-number clusters with missing ones: pandas reads them as float64 ("1.0")
        frame.to_parquet(path, index=False)
        import pyarrow as pa
        import pyarrow.parquet as pq

        t = pq.read_table(path)
        t = t.set_column(t.schema.get_field_index("cluster"), "cluster",
                         t["cluster"].cast(pa.int64()))
        pq.write_table(t.replace_schema_metadata(None), path)
    else:
        frame.to_parquet(path, index=False)
    _same(path)


def test_missing_cells_ties_and_whole_number_labels(tmp_path):
    frame = _generated(5, missing=0.05)
    path = tmp_path / "m.parquet"
    frame.to_parquet(path, index=False)
    with pytest.raises(RankwiseError) as whole:
        rankwise.compare_items(read_items(path, reader="items"))
    with pytest.raises(RankwiseError) as query:
        rankwise.compare_items(read_items(path, reader="items-duckdb"))
    assert str(whole.value) == str(query.value) and "--missing common" in str(query.value)
    _same(path, missing="common")
    numbers = frame.assign(model=frame["model"].str.slice(1).astype(int),
                           item=pd.factorize(frame["item"])[0] * 10 - 7)
    numbers.to_parquet(path, index=False)
    _same(path, missing="common")


def test_renamed_columns_and_a_cluster_column_named(tmp_path):
    frame = _generated(7, extra=("text-cluster",)).rename(
        columns={"model": "System", "cluster": "group"})
    path = tmp_path / "r.parquet"
    frame.to_parquet(path, index=False)
    _same(path, columns="model=System", cluster="group")


def _hostile():
    base = pd.DataFrame({"model": ["a", "b", "a", "b"], "task": ["t"] * 4,
                         "item": ["q1", "q1", "q2", "q2"], "score": [1.0, 0.0, 1.0, 1.0]})
    nan = float("nan")
    yield "no score column", base.drop(columns="score"), {}
    yield "a row without a model", base.assign(model=["a", None, "a", "b"]), {}
    yield "a row without an item", base.assign(item=["q1", "q1", None, "q2"]), {}
    yield "a row without a task", base.assign(task=["t", "t", "t", None]), {}
    yield "no rows", base.iloc[:0], {}
    yield "a NaN score", base.assign(score=[1.0, nan, inf_(), nan]), {}
    yield "a huge score", base.assign(score=[1.0, 0.0, 1e308, 0.0]), {}
    yield "a missing whole number", base.assign(score=pd.array([1, None, 0, 1], "Int64")
                                                .astype(object)), {"int": True}
    yield "a missing boolean", base.assign(score=[True, None, False, True]), {"bool": True}
    yield "a weight of 0", base.assign(weight=[1, 0, 2, 2]), {}
    yield "a NaN weight", base.assign(weight=[1.0, 2.0, nan, 2.0]), {}
    yield "a false weight", base.assign(weight=[True, True, False, True]), {}
    yield "an item twice", pd.concat([base, base.iloc[[2]]], ignore_index=True), {}
    yield "a model without a task's item", base.iloc[:3], {}
    yield "a bad --missing", base, {"read": {"missing": "drop"}}
    yield "an --item-filter", base, {"read": {"filter": "strict"}}
    yield "a --cluster of no column", base, {"read": {"cluster": "nope"}}
    yield "--columns of no column", base, {"read": {"columns": "model=nope"}}


def inf_():
    return float("inf")


def _written(frame, path, flags):
    import pyarrow as pa
    import pyarrow.parquet as pq

    if flags.get("int"):
        table = pa.table({**{c: frame[c] for c in frame if c != "score"},
                          "score": pa.array([None if pd.isna(v) else int(v)
                                             for v in frame["score"]], pa.int64())})
    elif flags.get("bool"):
        table = pa.table({**{c: frame[c] for c in frame if c != "score"},
                          "score": pa.array(list(frame["score"]), pa.bool_())})
    else:
        table = pa.Table.from_pandas(frame, preserve_index=False)
    pq.write_table(table, path)


@pytest.mark.parametrize("name,frame,flags", list(_hostile()), ids=[c[0] for c in _hostile()])
def test_a_bad_table_gives_the_same_line_both_ways(tmp_path, name, frame, flags):
    path = tmp_path / "bad.parquet"
    _written(frame, path, flags)
    said = []
    for reader in ("items", "items-duckdb"):
        try:
            rankwise.compare_items(read_items(path, reader=reader, **flags.get("read", {})),
                                   draws=100, across=False)
            said.append(None)
        except RankwiseError as exc:
            said.append(str(exc))
    assert said[0] is not None and said[0] == said[1], said
    assert "\n" not in said[0]


def test_a_repeated_item_past_the_eager_check_is_found_in_its_task(tmp_path, monkeypatch):
    frame = _generated(2)
    frame = pd.concat([frame, frame.iloc[[10]]], ignore_index=True)
    path = tmp_path / "d.parquet"
    frame.to_parquet(path, index=False)
    monkeypatch.setattr(item_module, "EAGER_DUPLICATE_CHECK", 0)
    said = []
    for reader in ("items", "items-duckdb"):
        with pytest.raises(RankwiseError) as exc:
            rankwise.compare_items(read_items(path, reader=reader), draws=100, across=False)
        said.append(str(exc.value))
    assert said[0] == said[1] and "several scores" in said[0]


def test_what_is_not_queried_in_place_says_so_or_is_read_whole(tmp_path, monkeypatch, cli):
    frame = _generated(4)
    text = tmp_path / "t.parquet"
    frame.assign(score=frame["score"].astype(str)).to_parquet(text, index=False)
    with pytest.raises(RankwiseError, match="--source items$"):
        read_items(text, reader="items-duckdb")
    monkeypatch.setattr(item_sql, "QUERY_ROWS", 0)
    assert type(read_items(text)) is ItemTable           # auto: read whole, as before
    csv = tmp_path / "t.csv"
    frame.to_csv(csv, index=False)
    ran = cli("compare", csv, "--items", "--source", "items-duckdb")
    assert ran.code == 2 and "Parquet file" in ran.err and "Traceback" not in ran.err
    broken = tmp_path / "broken.parquet"
    broken.write_bytes(b"PAR1" + bytes(range(200)) + b"PAR1")
    ran = cli("compare", broken, "--items", "--source", "items-duckdb")
    assert ran.code == 2 and "cannot be read" in ran.err and "Traceback" not in ran.err
    assert "cannot be read" in cli("compare", broken, "--items").err   # auto: the whole read
    monkeypatch.setattr(item_sql, "have_duckdb", lambda: False)
    with pytest.raises(RankwiseError, match=r"pip install 'rankwise\[duckdb\]'"):
        read_items(text, reader="items-duckdb")
    plain = tmp_path / "p.parquet"
    frame.to_parquet(plain, index=False)
    assert type(read_items(plain)) is ItemTable          # auto without DuckDB: read whole


def test_the_whole_frame_and_task_table_of_a_query(tmp_path):
    table = rankwise.load_items_example("evals")
    path = tmp_path / "e.parquet"
    table.frame.to_parquet(path)
    query = read_items(path, reader="items-duckdb")
    whole = read_items(path, reader="items")
    pd.testing.assert_frame_equal(query.frame, whole.frame)
    assert np.array_equal(query.task_table().values, whole.task_table().values)
    assert "duckdb" in repr(query) and query.engine == "duckdb"
