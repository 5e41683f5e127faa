"""Another reasonable analysis: every entry of the grid is compare with its options (in Python
and by its printed command), the shares agree with the entries, and bad grids are refused."""

import json
import shlex
from importlib import resources

import pytest

from rankwise import compare, load_example
from rankwise.analysis.multiverse import MAX_ENTRIES, read_claims, read_grid
from rankwise.errors import RankwiseError
from rankwise.examples import example_path


GRID = {"decimals": [12, 2], "basis": ["friedman-holm", "wilcoxon-holm", "sign-holm", "mcm"]}


@pytest.fixture(scope="module")
def garcia():
    return compare(load_example("garcia2010"), multiverse=GRID)


def test_every_entry_is_compare_with_its_options(garcia):
    table = garcia.table
    for entry in garcia.multiverse.entries:
        assert entry.error is None
        alone = compare(table, **entry.options)
        assert read_claims(alone, entry.choices["basis"]) == (entry.best, entry.losers)


def test_the_default_entry_is_the_verdict_itself(garcia):
    first = garcia.multiverse.entries[0]
    assert first.choices == {"decimals": 12, "basis": "friedman-holm"}
    assert first.best == garcia.verdict.best and set(first.losers) == set(garcia.verdict.losers)
    assert all(first.agrees)


def test_shares_and_flips_follow_the_entries(garcia):
    mv = garcia.multiverse
    agree = mv.agreement()
    for i, claim in enumerate(mv.claims):
        assert agree[i] == sum(e.agrees[i] for e in mv.entries)
        for flip in mv.flipped_by(i):
            dim, value = flip.split(" ", 1)
            if dim in mv.dimensions:
                having = [e for e in mv.entries if str(e.choices[dim]) == value]
                assert having and not any(e.agrees[i] for e in having)
    data = json.loads(garcia.to_json())["multiverse"]
    assert [c["agree"] for c in data["claims"]] == agree.tolist()
    assert mv.sentence() in garcia.verdict.statement


def test_each_printed_command_gives_the_same_answer(capsys, garcia, cli):
    for entry in garcia.multiverse.entries:
        words = shlex.split(entry.command)
        assert words[:2] == ["rankwise", "compare"]
        code, out, err = cli(*words[1:], "--format", "json", "--effects", "none")
        assert code == 0, err
        data = json.loads(out)
        basis = entry.choices["basis"]
        if basis == "friedman-holm":
            found = data["report"]["verdict"]["best"], tuple(data["report"]["verdict"]["losers"])
        elif basis == "mcm":
            m = data["mcm"]
            best = m["order"][0]
            pairs = m["pairs"]
            found = best, tuple(data["learners"][b] for a, b, s in
                                zip(pairs["a"], pairs["b"], pairs["significant"])
                                if data["learners"][a] == best and s)
        else:
            ranking = basis.split("-")[0]
            section = data["posthoc"][ranking]
            best = data["posthoc"]["control"]
            fam = section.get("control")
            found = best, () if fam is None else tuple(
                data["learners"][b] for b, apv in zip(fam["b"], fam["apv"]["holm"])
                if apv <= data["alpha"])
        assert (found[0], set(found[1])) == (entry.best, set(entry.losers)), entry.command


def test_a_long_input_varies_its_criteria_and_fold_aggregation():
    with resources.as_file(example_path("folds_demo")) as path:
        cmp = compare(str(path), criterion="accuracy", multiverse={
            "criterion": ["accuracy", "runtime"], "aggregate": ["median", "mean"],
            "basis": ["friedman-holm", "mcm"]})
        mv = cmp.multiverse
        assert len(mv.entries) == 8
        for entry in mv.entries:
            data = compare(str(path), **{"criterion": "accuracy", **entry.load}).table \
                if entry.rereads else cmp.table
            alone = compare(data, **entry.options)
            assert read_claims(alone, entry.choices["basis"]) == (entry.best, entry.losers)
            assert entry.rereads == (entry.choices["criterion"] != "accuracy"
                                     or entry.choices["aggregate"] != "median")
        runtime = [e for e in mv.entries if e.choices["criterion"] == "runtime"]
        assert all("--criterion runtime" in e.command for e in runtime)


def test_the_default_grid_fits_the_table():
    from rankwise.analysis.multiverse import default_grid

    with resources.as_file(example_path("folds_demo")) as path:
        table = compare(str(path), criterion="accuracy", effects="none").table
    own = {"criterion": "accuracy", "aggregate": "median", "decimals": 12, "missing": "refuse"}
    dims, notes = default_grid(table, own, can_reload=True)
    assert dims["criterion"] == ["accuracy", "runtime"]
    assert dims["aggregate"] == ["median", "mean"]
    assert dims["decimals"] == [12, 3]
    assert "missing" not in dims  # no missing cells
    assert dims["basis"][:4] == ["friedman-holm", "wilcoxon-holm", "sign-holm", "mcm"]
    dims, notes = default_grid(table, {**own, "decimals": 6}, can_reload=False)
    assert set(dims) == {"decimals", "basis"} and dims["decimals"] == [6, 12, 3]
    assert any("built directly" in note for note in notes)


def test_missing_cells_try_every_rule_and_say_which_cannot_run(tmp_path):
    rows = ["dataset,A,B,C,D"] + [f"d{i},{0.8 + 0.01 * i},{0.7 + 0.02 * (i % 3)},"
                                  f"{0.75 - 0.01 * i},{0.6 + 0.03 * (i % 4)}" for i in range(10)]
    rows[3] = "d2,0.82,,0.73,0.66"   # one failed run
    path = tmp_path / "holes.csv"
    path.write_text("\n".join(rows) + "\n")
    cmp = compare(str(path), missing="drop-datasets", effects="none", multiverse={
        "missing": ["drop-datasets", "worst", "skillings-mack"],
        "basis": ["friedman-holm", "mcm"]})
    entries = {(e.choices["missing"], e.choices["basis"]): e for e in cmp.multiverse.entries}
    assert "complete table" in entries[("skillings-mack", "mcm")].error
    assert entries[("drop-datasets", "friedman-holm")].error is None
    assert entries[("worst", "mcm")].rereads and entries[("worst", "mcm")].error is None
    assert len(cmp.multiverse.ran()) == len(cmp.multiverse.entries) - 1
    for entry in cmp.multiverse.ran():
        table = compare(str(path), **{"missing": "drop-datasets", **entry.load}).table \
            if entry.rereads else cmp.table
        alone = compare(table, **entry.options)
        assert read_claims(alone, entry.choices["basis"]) == (entry.best, entry.losers)
    assert "could not run" in cmp.to_text()


@pytest.mark.parametrize("grid,words", [
    ({"rounding": [3]}, "unknown dimension"),
    ({"basis": ["t-test"]}, "unknown basis"),
    ({"decimals": [2.5]}, "whole numbers"),
    ({"decimals": []}, "no values"),
])
def test_bad_grids_are_refused(grid, words):
    with pytest.raises(RankwiseError, match=words):
        read_grid(grid)


def test_grid_files_on_the_command_line(capsys, tmp_path, cli):
    good = tmp_path / "grid.toml"
    good.write_text('[grid]\ndecimals = [12, 1]\nbasis = ["friedman-holm"]\n')
    code, out, err = cli("compare", "--example", "garcia2008", "--multiverse", good,
                         "--format", "json")
    assert code == 0, err
    assert json.loads(out)["multiverse"]["dimensions"] == {"decimals": [12, 1],
                                                           "basis": ["friedman-holm"]}
    for content, words in (("grid = 3", "table of lists"), ("[grid\n", "not a TOML file"),
                           ("[grid]\nfold = [1]\n", "unknown dimension")):
        bad = tmp_path / "bad.toml"
        bad.write_text(content)
        code, out, err = cli("compare", "--example", "garcia2008", "--multiverse", bad)
        assert code == 2 and err.startswith("rankwise: error:") and words in err, err
        assert len(err.strip().splitlines()) == 1
    code, out, err = cli("compare", "--multiverse", tmp_path / "none.toml",
                         "--example", "garcia2008")
    assert code == 2 and "no such grid file" in err
    # alone, before another option or at the end: the default grid
    code, out, err = cli("compare", "--example", "garcia2008", "--multiverse",
                         "--format", "json")
    assert code == 0, err
    assert "basis" in json.loads(out)["multiverse"]["dimensions"]


def test_a_grid_too_large_is_refused():
    grid = {"decimals": list(range(16)), "basis": ["friedman-holm", "wilcoxon-holm",
                                                   "sign-holm", "mcm"],
            "aggregate": ["median", "mean"], "criterion": ["accuracy", "runtime"]}
    assert 16 * 4 * 2 * 2 > MAX_ENTRIES
    with resources.as_file(example_path("folds_demo")) as path:
        with pytest.raises(RankwiseError, match="more than"):
            compare(str(path), criterion="accuracy", multiverse=grid)


def test_the_command_line_varies_how_the_input_is_read(capsys, cli):
    code, out, err = cli("compare", "--example", "folds_demo", "--criterion", "accuracy",
                         "--multiverse", "--format", "json")
    assert code == 0, err
    data = json.loads(out)["multiverse"]
    assert data["dimensions"]["criterion"] == ["accuracy", "runtime"]
    assert data["dimensions"]["aggregate"] == ["median", "mean"]
    runtime = [e for e in data["entries"] if e["choices"]["criterion"] == "runtime"]
    assert runtime and all("--criterion runtime" in e["command"] for e in runtime)


def test_two_learners_speak_of_no_best_when_none_is_detected(tmp_path):
    path = tmp_path / "two.csv"
    path.write_text("dataset,A,B\nd1,0.8,0.7\nd2,0.7,0.75\nd3,0.9,0.8\nd4,0.6,0.65\n"
                    "d5,0.85,0.8\n")
    cmp = compare(str(path), multiverse={"decimals": [12, 1], "basis": ["friedman-holm",
                                                                        "mcm"]})
    mv = cmp.multiverse
    assert cmp.verdict.best is None
    assert mv.claims == ("A is not significantly worse than the others",
                         "B is not significantly worse than the others")
    assert all(e.error is None for e in mv.entries)
    assert "None" not in mv.sentence() and "None" not in cmp.to_text()
