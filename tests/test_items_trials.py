"""Repeated trials in ``compare --items``: pass@k and pass^k against every k-subset of an item's
trials, the variance split against the outcomes', the section only where an item was tried
more than once, in every format, and its JSON keys as docs/json.md lists them."""

import itertools
import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import rankwise
from rankwise.stats.trials import trial_variance

ROOT = Path(__file__).resolve().parents[1]
FAST = {"draws": 100, "across": False}


def _repeated_table(seed=3, binary=True) -> pd.DataFrame:
    """2 tasks x 5 items x 3 models, 2 to 4 trials per item and model, seeded."""
    rng = np.random.default_rng(seed)
    rows = []
    for task in ("t1", "t2"):
        for item in range(5):
            p = rng.uniform(0.1, 0.9)
            for model in ("a", "b", "c"):
                for repeat in range(int(rng.integers(2, 5))):
                    score = rng.random() < p if binary else rng.normal(p, 0.2)
                    rows.append((model, task, f"q{item}", repeat, float(score)))
    return pd.DataFrame(rows, columns=["model", "task", "item", "repeat", "score"])


def _headings(r) -> list:
    from rankwise.report import build_document
    from rankwise.report.document import Heading

    return [b.text for b in build_document(r).blocks if isinstance(b, Heading)]


def _brute(outcomes, k, everyone: bool) -> float:
    """The share of k-subsets of the trials with at least one success (all successes)."""
    hits = [all(s) if everyone else any(s) for s in itertools.combinations(outcomes, k)]
    return float(np.mean(hits))


@pytest.fixture(scope="module")
def nightly():
    """The gate's bundled pair of runs (5 trials of every item) as one table of two models."""
    from rankwise.examples import load_gate_example

    base, cand = load_gate_example("nightly")
    frame = pd.concat([base.frame.astype(object), cand.frame.astype(object)], ignore_index=True)
    return frame, rankwise.compare_items(frame, **FAST)


def test_pass_at_k_and_pass_hat_k_are_the_shares_of_every_k_subset():
    frame = _repeated_table()
    r = rankwise.compare_items(frame, **FAST)
    assert len(r.trials) == 2
    for tr in r.trials:
        part = frame[frame["task"] == tr.task]
        groups = part.groupby(["model", "item"])["score"]
        fewest = int(groups.size().min())
        assert tr.ks == tuple(sorted({1, fewest}))
        for j, model in enumerate(tr.models):
            mine = part[part["model"] == model].groupby("item")["score"]
            sizes = mine.size()
            assert list(tr.trials[j]) == [sizes.min(), sizes.max()]
            assert tr.mean[j] == pytest.approx(mine.mean().mean(), abs=1e-12)
            for k in tr.ks:
                at = np.mean([_brute(list(v), k, False) for _, v in mine])
                hat = np.mean([_brute(list(v), k, True) for _, v in mine])
                assert tr.pass_at[k][j] == pytest.approx(at, abs=1e-12), (tr.task, model, k)
                assert tr.pass_hat[k][j] == pytest.approx(hat, abs=1e-12), (tr.task, model, k)
            split = trial_variance(mine.obj.to_numpy(), item_index=part.loc[
                part["model"] == model, "item"].to_numpy())
            assert tr.within[j] == pytest.approx(float(split.within), rel=1e-9)
            assert tr.between[j] == pytest.approx(float(split.between), rel=1e-9, abs=1e-15)


def test_the_trials_cover_the_items_the_tests_compare():
    """With --missing common an item some model lacks leaves the trials as it leaves the tests:
    the trials' mean is the task's score (each item's mean over its trials, averaged)."""
    frame = _repeated_table(seed=5)
    frame = frame[~((frame["model"] == "b") & (frame["item"] == "q2"))]
    r = rankwise.compare_items(frame, missing="common", **FAST)
    for task, tr in zip(r.tasks, r.trials):
        assert task.dropped == 1
        np.testing.assert_allclose(tr.mean, task.score, atol=1e-12)


def test_no_section_without_repeats():
    frame = _repeated_table()
    once = frame.drop_duplicates(["model", "task", "item"])
    for table in (once.drop(columns="repeat"), once):    # no repeat column; one repeat each
        r = rankwise.compare_items(table, **FAST)
        assert r.trials == () and r.to_dict()["trials"] == []
        assert "Repeated trials" not in _headings(r)


def test_continuous_scores_keep_the_variance_split_without_pass_at_k():
    r = rankwise.compare_items(_repeated_table(binary=False), **FAST)
    assert r.trials and all(tr.pass_at == {} and tr.pass_hat == {} for tr in r.trials)
    assert all(np.isfinite(tr.within).all() for tr in r.trials)
    from rankwise.report import build_document

    keys = [getattr(b, "key", "") for b in build_document(r).blocks]
    assert "trial_variance" in keys and "pass_at_k" not in keys
    assert "pass@k and pass^k need 0/1 scores" in r.render("text", width=None)


def test_the_same_numbers_as_the_gate_on_the_same_runs(nightly):
    """pass@k, pass^k and the variance split of each model are the gate's of that run."""
    from rankwise.examples import load_gate_example

    _, r = nightly
    g = rankwise.gate(*load_gate_example("nightly"))
    for mine, theirs in zip(r.trials, g.trials):
        assert mine.task == theirs.task
        for j, run in enumerate(("baseline", "candidate")):
            assert list(mine.trials[j]) == theirs.trials[run]
            for k in mine.ks:
                assert mine.pass_at[k][j] == pytest.approx(theirs.pass_at[run][k], abs=1e-12)
                assert mine.pass_hat[k][j] == pytest.approx(theirs.pass_all[run][k], abs=1e-12)
            assert mine.within[j] == pytest.approx(theirs.within[run], rel=1e-9)
            assert mine.between[j] == pytest.approx(theirs.between[run], rel=1e-9)


@pytest.mark.figures
def test_every_format_has_the_section(nightly, tmp_path):
    _, r = nightly
    for fmt in ("text", "markdown", "latex", "html"):
        out = r.render(fmt)
        assert "Repeated trials" in out and "within items" in out, fmt
    r.write_report(tmp_path / "report")
    for name in ("report.txt", "report.md", "report.tex", "report.html"):
        assert "Repeated trials" in (tmp_path / "report" / name).read_text(encoding="utf-8")
    data = json.loads((tmp_path / "report" / "report.json").read_text(encoding="utf-8"))
    assert len(data["trials"]) == 3


def test_the_text_section_fits_80_columns(nightly):
    _, r = nightly
    text = r.render("text", width=80)
    section = text.split("\nRepeated trials\n", 1)[1].split("\nAcross tasks", 1)[0]
    assert max(map(len, section.splitlines())) <= 80
    # one row per task, learner and k (k = 1, 5); then one per task and learner
    assert len(re.findall(r"^code +v1\.[45] +[15] ", section, re.M)) == 4 + 2


def test_the_json_keys_are_the_documented_ones(nightly):
    _, r = nightly
    data = json.loads(r.to_json())
    text = (ROOT / "docs" / "json.md").read_text(encoding="utf-8")
    section = text.split("\n## Items\n", 1)[1].split("\n## ", 1)[0]
    table = section.split("Each object of `trials`", 1)[1].split("\n\n", 2)[1]
    documented = set()
    for line in table.splitlines():
        if line.startswith("| `"):
            documented |= set(re.findall(r"`([^`]+)`", line.split(" | ")[0]))
    assert [t["dataset"] for t in data["trials"]] == data["datasets"]
    for entry in data["trials"]:
        assert set(entry) == documented
        assert set(entry["pass_at_k"]) == set(entry["pass_hat_k"]) == {"1", "5"}
        assert all(len(v) == len(data["learners"]) for v in entry["pass_at_k"].values())
