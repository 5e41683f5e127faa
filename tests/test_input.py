"""Reading tables: shapes, aggregation, direction, missing cells, and every bad input."""

import numpy as np
import pandas as pd
import pytest

from rankwise import RankwiseError, compare, load_table


def write(tmp_path, text, name="t.csv"):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


WIDE = "dataset,A,B,C\nd1,0.9,0.8,0.7\nd2,0.6,0.7,0.5\nd3,0.5,0.5,0.4\n"


def long_rows(values, criterion=None):
    """A long table: values[dataset][learner] is a list of fold values."""
    lines = ["dataset,learner,repeat,fold,value" + (",criterion" if criterion else "")]
    for d, per in values.items():
        for l, vals in per.items():
            for i, v in enumerate(vals):
                lines.append(f"{d},{l},{i // 2},{i % 2},{v}" + (f",{criterion}" if criterion else ""))
    return "\n".join(lines) + "\n"


def test_wide_csv(tmp_path):
    t = load_table(write(tmp_path, WIDE))
    assert t.learners == ("A", "B", "C") and t.datasets == ("d1", "d2", "d3")
    assert t.values[1].tolist() == [0.6, 0.7, 0.5]
    assert t.higher_is_better and t.direction_source == "default" and t.aggregate is None


def test_tsv_by_extension_and_by_content(tmp_path):
    tsv = WIDE.replace(",", "\t")
    for name in ("t.tsv", "t.txt"):
        t = load_table(write(tmp_path, tsv, name))
        assert t.learners == ("A", "B", "C")


def test_long_table_aggregates_folds_per_dataset(tmp_path):
    vals = {"d1": {"A": [1, 2, 3, 10], "B": [2, 2, 2, 2]},
            "d2": {"A": [5, 5, 5, 5], "B": [1, 2, 3, 4]}}
    p = write(tmp_path, long_rows(vals))
    med = load_table(p)
    assert med.aggregate == "median" and med.datasets == ("d1", "d2")
    assert med.values.tolist() == [[2.5, 2.0], [5.0, 2.5]]
    assert med.counts.tolist() == [[4, 4], [4, 4]]
    mean = load_table(p, aggregate="mean")
    assert mean.values.tolist() == [[4.0, 2.0], [5.0, 2.5]]
    # Folds are never data sets: two data sets in, two rows out.
    assert compare(p).table.n_datasets == 2


def test_long_table_shape_detection_is_case_insensitive_and_overridable(tmp_path):
    p = write(tmp_path, "Dataset,Learner,Value\nd1,A,1\nd1,B,2\nd2,A,3\nd2,B,1\n")
    assert load_table(p).values.tolist() == [[1, 2], [3, 1]]
    with pytest.raises(RankwiseError, match="long table needs the columns"):
        load_table(write(tmp_path, WIDE, "w.csv"), shape="long")
    # Forcing "wide" on a long table: its learner column holds names, and the error says how
    # to read it as the long table it is.
    with pytest.raises(RankwiseError, match=r"--shape wide\), but column 'Learner' holds names"
                                            ".*--columns dataset=Dataset,learner=Learner,value=Value"):
        load_table(p, shape="wide")


def test_criterion_selection_and_direction(tmp_path):
    text = ("dataset,learner,criterion,value\n" + "".join(
        f"d{i},{l},{c},{v}\n" for i in range(3) for l, v in (("A", 0.1 * i), ("B", 0.5))
        for c in ("auc", "pf")))
    p = write(tmp_path, text)
    with pytest.raises(RankwiseError, match=r"several criteria \(auc, pf\); choose one with --criterion"):
        load_table(p)
    with pytest.raises(RankwiseError, match="no rows for criterion 'f1'"):
        load_table(p, criterion="f1")
    pf = load_table(p, criterion="pf")
    assert not pf.higher_is_better and pf.direction_source == "criterion"
    auc = load_table(p, criterion="auc")
    assert auc.higher_is_better and auc.direction_source == "criterion"
    forced = load_table(p, criterion="pf", higher_is_better=True)
    assert forced.higher_is_better and forced.direction_source == "option"
    assert "usually lower-is-better" in forced.warnings[0]


def test_lower_is_better_flows_into_ranks(tmp_path):
    p = write(tmp_path, WIDE)
    high = compare(p)
    low = compare(p, higher_is_better=False)
    assert np.array_equal(low.ranks, 4 - high.ranks)
    assert low.to_dict()["higher_is_better"] is False


def test_missing_cells_refused_with_list(tmp_path):
    p = write(tmp_path, "dataset,A,B,C\nd1,0.9,,0.7\nd2,0.6,0.7,NA\nd3,0.5,0.5,0.4\nd4,1,2,3\n")
    with pytest.raises(RankwiseError) as err:
        load_table(p)
    msg = str(err.value)
    assert "2 missing cell(s)" in msg and "d1 / B" in msg and "d2 / C" in msg
    assert "--missing drop-datasets" in msg and "\n" not in msg
    t = load_table(p, missing="drop-datasets")
    assert t.datasets == ("d3", "d4") and t.dropped_datasets == ("d1", "d2")
    assert t.missing_cells == (("d1", "B"), ("d2", "C"))


def test_drop_learners(tmp_path):
    p = write(tmp_path, "dataset,A,B,C\nd1,0.9,,0.7\nd2,0.6,0.7,0.1\nd3,0.5,0.5,0.4\n")
    t = load_table(p, missing="drop-learners")
    assert t.learners == ("A", "C") and t.dropped_learners == ("B",)
    out = compare(t).to_dict()
    assert out["missing"] == {"policy": "drop-learners", "cells": [["d1", "B"]], "filled": [],
                              "dropped_datasets": [], "dropped_learners": ["B"]}
    assert any("dropped 1 learner(s): B" in w for w in out["warnings"])


def test_dropping_down_to_one_learner_is_an_error(tmp_path):
    p = write(tmp_path, "dataset,A,B,C\nd1,0.9,,0.7\nd2,0.6,0.7,\nd3,0.5,0.5,0.4\n")
    with pytest.raises(RankwiseError, match="only 1 learner.*left after dropping"):
        load_table(p, missing="drop-learners")


def test_long_missing_combination_is_a_missing_cell(tmp_path):
    p = write(tmp_path, "dataset,learner,value\nd1,A,1\nd1,B,2\nd2,A,3\n")
    with pytest.raises(RankwiseError, match="1 missing cell.*d2 / B"):
        load_table(p)


def test_long_nan_fold_values_are_reported(tmp_path):
    vals = {"d1": {"A": [1, 2, "", 4], "B": [1, 1, 1, 1]}, "d2": {"A": [1, 1, 1, 1],
                                                                "B": [2, 2, 2, 2]}}
    t = load_table(write(tmp_path, long_rows(vals)))
    assert t.counts.tolist() == [[3, 4], [4, 4]]
    assert any("1 value(s)" in w for w in t.warnings)
    assert any("unequal numbers of values (3 to 4)" in w for w in t.warnings)


@pytest.mark.parametrize("text, pattern", [
    ("dataset,A,B\nd1,0.5,0.6\nd1,0.4,0.3\n", "data set 'd1' appears in more than one row"),
    ("dataset,A,A\nd1,0.5,0.6\nd2,0.4,0.3\n", "column name 'A' appears twice"),
    ("dataset,A,B\nd1,0.5,abc\nd2,0.4,0.3\n", r"row 2, column 'B'.*'abc' is not a number"),
    ("dataset,A,B\nd1,0.5,inf\nd2,0.4,0.3\n", "row 2, column 'B'.*is infinite"),
    ("dataset,A,B\nd1,0.5,-inf\nd2,0.4,0.3\n", "is infinite"),
    ("dataset,A,B\nd1,0.5,0.6\n", "only 1 data set"),
    ("dataset,A\nd1,0.5\nd2,0.6\n", "only 1 learner"),
    ("dataset\nd1\nd2\n", "found only one column"),
    ("dataset,learner,value\nd1,A,1\nd2,A,2\n", "only 1 learner"),
    ("dataset,learner,value\nd1,A,1\nd1,A,2\nd1,B,1\nd2,A,2\nd2,B,1\n",
     "rows 2 and 3 \\(dataset = d1, learner = A\\) repeat the same \\(dataset, learner\\); if these"
     " are repeated measurements"),
    ("dataset,learner,repeat,fold,value\nd1,A,0,0,1\nd1,A,0,0,2\n",
     "rows 2 and 3 \\(dataset = d1, learner = A, repeat = 0, fold = 0\\) repeat the same"
     " \\(dataset, learner, repeat, fold\\)"),
    ("dataset,learner,value\nd1,,1\n", "row 2 has an empty learner"),
    ("dataset,,B\nd1,1,2\nd2,2,1\n", "column 2 has no name"),
    ("dataset,A,B\n,1,2\nd2,2,1\n", "row 2 has no data-set name"),
    ("", "the file is empty"),
    ("dataset,A,B\nd1,1,2,3,4\nd2,2,1\n", "line 2 has 5 fields but the header has 3"),
    # one field too many in the first row, the second row or the last row
    ("dataset,A,B\nd1,1,2,3\nd2,2,1\nd3,1,1\n", "line 2 has 4 fields but the header has 3"),
    ("dataset,A,B\nd1,1,2\nd2,2,1,3\nd3,1,1\n", "line 3 has 4 fields but the header has 3"),
    ("dataset,A,B\nd1,1,2\nd2,2,1\nd3,1,1,\n", "line 4 has 4 fields but the header has 3"),
    # one too few and one too many: the file holds the right number of separators in total
    ("dataset,A,B\nd1,1\nd2,2,1,3\nd3,1,1\n", "line 2 has 2 fields but the header has 3"),
    ("dataset,A,B\nd1,1,2,0\nd2,2\nd3,1,1\n", "line 2 has 4 fields but the header has 3"),
    ("dataset,A,B\nd1,1,2\n   \nd3,1,1,4\n", "line 4 has 4 fields but the header has 3"),
])
def test_bad_input_messages(tmp_path, text, pattern):
    with pytest.raises(RankwiseError, match=pattern) as err:
        load_table(write(tmp_path, text))
    assert "\n" not in str(err.value)


def test_spaces_after_separators_and_blank_lines(tmp_path):
    """Padding after a separator and lines of spaces read as in a tidy file, missing tokens
    included; a file without padding takes the same path without the option."""
    tidy = load_table(write(tmp_path, "dataset,A,B\nd1,0.5,NA\nd2,0.4,0.3\nd3,0.2,0.1\n"),
                      missing="drop-datasets")
    for text in ("dataset, A, B\nd1, 0.5, NA\nd2, 0.4, 0.3\n   \nd3,\t0.2, 0.1\n",
                 "dataset,A,B\r\nd1,0.5,NA\r\n\r\nd2,0.4,0.3\r\nd3,0.2,0.1\r\n"):
        t = load_table(write(tmp_path, text), missing="drop-datasets")
        assert (t.datasets, t.learners) == (tidy.datasets, tidy.learners)
        assert t.values.tolist() == tidy.values.tolist() and t.dropped_datasets == ("d1",)


def test_bad_paths_and_options(tmp_path):
    with pytest.raises(RankwiseError, match="no such file"):
        load_table(tmp_path / "nope.csv")
    with pytest.raises(RankwiseError, match="is a folder"):
        load_table(tmp_path)
    p = write(tmp_path, WIDE)
    with pytest.raises(RankwiseError, match="aggregate must be one of median, mean"):
        load_table(p, aggregate="max")
    with pytest.raises(RankwiseError, match="missing must be one of"):
        load_table(p, missing="ignore")
    with pytest.raises(RankwiseError, match="alpha must be between 0 and 1"):
        compare(p, alpha=1.5)
    with pytest.raises(RankwiseError, match="convention must be one of default, paper"):
        compare(p, convention="keel")
    with pytest.raises(RankwiseError, match="no learner named 'Z'"):
        compare(p, pair=("A", "Z"))
    (tmp_path / "bin.csv").write_bytes(b"\xff\xfe\x00bad")
    with pytest.raises(RankwiseError, match="not a UTF-8 text file"):
        load_table(tmp_path / "bin.csv")


def test_dataframes():
    wide = pd.DataFrame({"A": [0.9, 0.6, 0.5], "B": [0.8, 0.7, 0.5]}, index=["d1", "d2", "d3"])
    t = load_table(wide)
    assert t.datasets == ("d1", "d2", "d3") and t.learners == ("A", "B")
    pd.testing.assert_frame_equal(t.to_frame(), wide)
    labelled = wide.reset_index().rename(columns={"index": "name"})
    assert load_table(labelled).values.tolist() == t.values.tolist()
    named = wide.reset_index(names="dataset")[["A", "dataset", "B"]]
    assert load_table(named).values.tolist() == t.values.tolist()
    long = wide.reset_index(names="dataset").melt("dataset", var_name="learner")
    assert load_table(long).values.tolist() == t.values.tolist()
    with pytest.raises(RankwiseError, match="missing cell"):
        load_table(wide.assign(B=[0.8, np.nan, 0.5]))
    with pytest.raises(RankwiseError, match="is infinite"):
        load_table(wide.assign(B=[0.8, np.inf, 0.5]))


def test_numeric_dataset_names_are_kept_as_text(tmp_path):
    t = load_table(write(tmp_path, "dataset,A,B\n001,1,2\n002,2,1\n"))
    assert t.datasets == ("001", "002")


def test_fast_and_text_readers_give_identical_tables(tmp_path):
    """A plain file takes pandas' C parser; a file with a quoted field takes the record-by-record
    text path. Both must give the same table, bit for bit: NA spellings, spaces, CRLF, blank
    lines, many digits, wide and long."""
    rng = np.random.default_rng(11)
    for trial in range(12):
        n, k = int(rng.integers(3, 30)), int(rng.integers(2, 6))
        values = rng.normal(size=(n, k)) * 10 ** float(rng.integers(-3, 3))
        cells = [[repr(float(v)) if rng.random() > 0.1 else str(rng.choice(
            ["", "NA", "nan", "?", "N/A", "null", "None", " 1.5", "2e-3", "7"])) for v in row]
            for row in values]
        lines = ["dataset," + ",".join(f"L{j}" for j in range(k))]
        lines += [f"d{i}," + ",".join(row) for i, row in enumerate(cells)]
        eol = "\r\n" if trial % 2 else "\n"
        plain = eol.join(lines[:2] + [""] + lines[2:]) + eol  # a blank line too
        quoted = plain.replace("d0,", '"d0",', 1)
        (tmp_path / "plain.csv").write_text(plain, newline="")
        (tmp_path / "quoted.csv").write_text(quoted, newline="")
        a = load_table(tmp_path / "plain.csv", missing="drop-datasets")
        b = load_table(tmp_path / "quoted.csv", missing="drop-datasets")
        assert a.datasets == b.datasets and a.learners == b.learners
        assert a.values.tobytes() == b.values.tobytes()
        assert a.missing_cells == b.missing_cells
        # Long form of the same numbers.
        long = ["dataset,learner,value"] + [f"d{i},L{j},{cells[i][j]}" for i in range(n)
                                            for j in range(k)]
        (tmp_path / "long.csv").write_text("\n".join(long) + "\n")
        (tmp_path / "long_q.csv").write_text("\n".join(long).replace("d0,", '"d0",') + "\n")
        c = load_table(tmp_path / "long.csv", missing="drop-datasets")
        d = load_table(tmp_path / "long_q.csv", missing="drop-datasets")
        assert c.values.tobytes() == d.values.tobytes() == a.values.tobytes()


def test_dataframes_keep_numbers_and_find_bad_cells():
    frame = pd.DataFrame({"A": [0.5, 0.25, 1.0], "B": [0.1, 0.2, 0.3]}, index=["x", "y", "z"])
    t = load_table(frame)
    assert t.values.tolist() == [[0.5, 0.1], [0.25, 0.2], [1.0, 0.3]]
    frame["B"] = frame["B"].astype(object)
    frame.loc["y", "B"] = "oops"
    with pytest.raises(RankwiseError, match=r"row 3, column 'B': 'oops' is not a number"):
        load_table(frame)
    with pytest.raises(RankwiseError, match="is infinite"):
        load_table(pd.DataFrame({"A": [1.0, np.inf], "B": [0.0, 1.0]}, index=["p", "q"]))


def _long_reference(path, aggregate="median"):
    """The long table's cells by pandas' groupby, as load_table built them before."""
    df = pd.read_csv(path, dtype={"dataset": str, "learner": str})
    datasets = list(dict.fromkeys(df["dataset"]))
    learners = list(dict.fromkeys(df["learner"]))
    grouped = df.groupby(["dataset", "learner"], sort=False)["value"]
    values = grouped.agg(aggregate).unstack("learner").reindex(index=datasets, columns=learners)
    counts = grouped.count().unstack("learner").reindex(index=datasets, columns=learners)
    return values.to_numpy(dtype=float), counts.fillna(0).to_numpy(dtype=int), datasets, learners


@pytest.mark.parametrize("folds", [1, 3])
def test_long_table_cells_equal_the_groupby_of_its_rows(tmp_path, folds):
    """One row a cell (put in place at once) and several (groupby): the same cells, counts and
    order of names as pandas' groupby, with missing values and missing cells."""
    rng = np.random.default_rng(folds)
    rows = []
    for d in rng.permutation(40):
        for j in rng.permutation(7):
            for f in range(folds if (d + j) % 5 else folds + 1):
                if rng.random() < 0.03:
                    continue                                   # a missing row (cell)
                v = "" if rng.random() < 0.05 else f"{rng.normal():.4f}"
                rows.append(f"ds{d},L{j},{f},{v}")
    p = write(tmp_path, "dataset,learner,fold,value\n" + "\n".join(rows) + "\n")
    for aggregate in ("median", "mean"):
        t = load_table(p, aggregate=aggregate, missing="drop-datasets")
        values, counts, datasets, learners = _long_reference(p, aggregate)
        keep = [datasets.index(d) for d in t.datasets]
        assert list(t.learners) == learners
        assert [d for d in datasets if d in t.datasets] == list(t.datasets)
        assert np.array_equal(t.values, values[keep], equal_nan=True)
        assert np.array_equal(t.counts, counts[keep]) and t.counts.dtype == counts.dtype


def test_reading_makes_no_python_call_per_row(tmp_path, monkeypatch):
    """A long table of 20,000 rows is read with no more Python calls than one of 2,000 (the
    names' order of appearance was found by iterating them, a call per name), and a wide
    table's first column is parsed as numbers no further than its first name when that name is
    not a number."""
    import cProfile
    import pstats

    def calls(n):
        rows = "\n".join(f"d{i // 10},L{i % 10},{(i * 7919) % 1000 / 1000}" for i in range(n))
        p = write(tmp_path, "dataset,learner,value\n" + rows + "\n", f"long{n}.csv")
        profile = cProfile.Profile()
        profile.runcall(load_table, p)
        return pstats.Stats(profile).total_calls

    assert calls(20_000) < calls(2_000) + 500
    parsed = []
    real = pd.to_numeric

    def to_numeric(cells, **kw):
        parsed.append(len(cells))
        return real(cells, **kw)

    wide = write(tmp_path, "dataset,A,B\n" + "".join(f"d{i},0.{i},0.5\n" for i in range(1, 99)))
    monkeypatch.setattr(pd, "to_numeric", to_numeric)
    assert load_table(wide).n_datasets == 98
    assert max(parsed, default=0) <= 1
