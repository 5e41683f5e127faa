"""The pool check (analysis/pool.py): every flip it reports is one that redoing the whole
analysis on the changed table finds, and no other."""

import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

import rankwise
from rankwise import RankwiseError, compare, load_example
from rankwise.analysis.pool import clone_ranks
from rankwise.stats.ranking import midranks


def decisions(frame, procedure="nemenyi", ranking="friedman"):
    """The all-pairs decisions and the verdict's top group of a whole analysis of ``frame``."""
    cmp = compare(frame, posthoc="all", procedures=[procedure], rankings=[ranking],
                  effects="none")
    k = frame.shape[1]
    sig = np.zeros((k, k), dtype=bool)
    result = cmp.posthoc.rankings[ranking]
    if result.gate.passed:
        fam = result.families["all_pairs"]
        hit = fam.rejected(procedure, 0.05)
        sig[fam.a, fam.b] = sig[fam.b, fam.a] = hit
    return sig, set(cmp.verdict.winners)


def with_clone(frame, name):
    """``frame`` with a copy of ``name`` that lands just below it on every data set: halfway to
    the next lower score (the scores have 3 decimals, the analysis rounds to 12)."""
    x = frame.to_numpy()
    v = frame[name].to_numpy()
    clone = []
    for row, value in zip(x, v):
        lower = row[row < value]
        clone.append(value - (value - lower.max()) / 2 if lower.size else value - 1)
    out = frame.copy()
    out["clone"] = clone
    return out


def brute_force(frame, procedure="nemenyi", ranking="friedman"):
    """``({(a, b): [pools]}, [(pool, joins, leaves)])`` by a full analysis of every pool."""
    names = list(frame.columns)
    base, winners = decisions(frame, procedure, ranking)
    flips, verdict = {}, []
    pools = [(f"without {n}", frame.drop(columns=n)) for n in names]
    pools += [(f"clone of {n}", with_clone(frame, n)) for n in names]
    for label, f in pools:
        sig, win = decisions(f, procedure, ranking)
        cols = list(f.columns)
        present = [n for n in names if n in cols]
        for i, a in enumerate(present):
            for b in present[i + 1:]:
                if sig[cols.index(a), cols.index(b)] != base[names.index(a), names.index(b)]:
                    flips.setdefault((a, b), []).append(label)
        win.discard("clone")
        joins = tuple(n for n in present if n in win and n not in winners)
        leaves = tuple(n for n in present if n in winners and n not in win)
        if joins or leaves:
            verdict.append((label, set(joins), set(leaves)))
    return flips, verdict


def checked(frame, procedure="nemenyi", ranking="friedman"):
    cmp = compare(frame, posthoc="all", rankings=[ranking], procedures=[procedure],
                  diagram_procedure=procedure if procedure != "holm" else "holm",
                  pool_check=True, effects="none")
    pc = cmp.pool_check
    assert pc.winners == cmp.verdict.winners  # the pool check's own table is the analysis'
    mine = {(pc.learners[a], pc.learners[b]): list(f)
            for a, b, f in zip(pc.a, pc.b, pc.flipped_by) if f}
    flips, verdict = brute_force(frame, procedure, ranking)
    assert mine == flips
    assert [(p, set(j), set(r)) for p, j, r in pc.verdict_changes] == verdict
    return cmp


def frame_of(example):
    t = load_example(example)
    return pd.DataFrame(t.values, index=list(t.datasets), columns=list(t.learners))


def seeded(seed, n=25, k=6):
    rng = np.random.default_rng(seed)
    x = np.round(0.7 + np.linspace(0, 0.06, k) + rng.normal(0, 0.03, (n, k)), 3)
    return pd.DataFrame(x, index=[f"d{i}" for i in range(n)],
                        columns=[f"L{j}" for j in range(k)])


@pytest.mark.parametrize("frame", [frame_of("garcia2008"), frame_of("garcia2010"), seeded(3),
                                   seeded(8)], ids=["garcia2008", "garcia2010", "seed3", "seed8"])
def test_every_flip_is_one_a_full_reanalysis_finds(frame):
    checked(frame)


def test_other_procedures_and_the_pairwise_wilcoxon_ranking():
    checked(frame_of("garcia2008"), "shaffer")
    checked(seeded(5, n=22, k=5), "holm", "wilcoxon")


def test_a_dominated_clone_flips_a_nemenyi_decision_on_garcia2010():
    cmp = checked(frame_of("garcia2010"))
    pc = cmp.pool_check
    flipped = dict(((a, b), pools) for a, b, _, pools in pc.unstable_pairs())
    # PDFC and NNEP are not separated by Nemenyi on the table; a copy of PDFC that ranks just
    # below it pushes NNEP down on every data set PDFC wins, and the pair becomes significant.
    assert "clone of PDFC" in flipped[("PDFC", "NNEP")]
    assert not pc.pool_stable and "depend on who else is in the pool" in pc.sentence()


def test_a_table_where_nothing_flips():
    rng = np.random.default_rng(11)
    x = np.round(np.repeat([0.9, 0.9, 0.6, 0.6, 0.6], 1)[None, :]
                 + rng.normal(0, 0.01, (40, 5)), 3)
    frame = pd.DataFrame(x, columns=list("ABCDE"), index=[f"d{i}" for i in range(40)])
    cmp = checked(frame)
    pc = cmp.pool_check
    assert pc.pool_stable and pc.n_unstable == 0 and pc.verdict_changes == ()
    assert pc.sentence().startswith("Pool check: no decision")


def test_clone_ranks_equal_the_ranks_of_a_table_with_the_clone():
    rng = np.random.default_rng(4)
    x = rng.integers(0, 4, size=(30, 5)).astype(float)  # many ties
    ranks = midranks(x, descending=True)
    for j in range(5):
        v = x[:, j]
        clone = np.array([value - 0.5 for value in v])  # scores are whole numbers
        want = midranks(np.hstack([x, clone[:, None]]), descending=True)
        assert np.array_equal(clone_ranks(ranks, j), want)


@pytest.mark.figures
def test_the_pool_sentence_is_in_every_format():
    cmp = compare(load_example("garcia2010"), pool_check=True)
    sentence = cmp.pool_check.sentence()
    assert sentence in cmp.verdict.text
    for text in (cmp.to_text(), cmp.to_markdown(), cmp.to_html()):
        assert "Does the pool matter?" in text and "Pool check" in text
    latex = cmp.to_latex()
    assert "Does the pool matter?" in latex and "Pool check" in latex
    doc = json.loads(cmp.to_json())
    assert sentence in doc["report"]["verdict"] if isinstance(doc["report"]["verdict"], str) \
        else sentence in json.dumps(doc["report"]["verdict"], ensure_ascii=False)
    pc = doc["pool_check"]
    assert pc["pool_stable"] is False and pc["n_unstable"] == cmp.pool_check.n_unstable
    assert len(pc["pairs"]["a"]) == 6 and len(pc["pools"]) == 8
    assert compare(load_example("garcia2010")).to_dict()["pool_check"] is None


@pytest.mark.subprocess
def test_refusals_are_one_line_errors():
    with pytest.raises(RankwiseError, match="at least 4 learners"):
        compare(load_example("demsar2006_table2"), pool_check=True)
    with pytest.raises(RankwiseError, match="mixes the data sets' values"):
        compare(load_example("garcia2008"), pool_check=True, posthoc="all", rankings=["quade"])
    frame = frame_of("garcia2008")
    frame.iloc[0, 0] = np.nan
    with pytest.raises(RankwiseError, match="complete table"):
        compare(frame, pool_check=True, missing="skillings-mack")
    out = subprocess.run([sys.executable, "-m", "rankwise.cli", "compare", "--example",
                          "demsar2006_table2", "--pool-check"], capture_output=True, text=True)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert out.stderr.startswith("rankwise: error: the pool check needs at least 4 learners")


@pytest.mark.subprocess
def test_pool_check_is_deterministic_and_in_the_cli_json():
    out = subprocess.run([sys.executable, "-m", "rankwise.cli", "compare", "--example",
                          "garcia2008", "--pool-check", "--format", "json"],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    again = rankwise.compare(load_example("garcia2008"), pool_check=True).to_dict()
    assert doc["pool_check"] == json.loads(json.dumps(again["pool_check"]))


def test_pool_check_refuses_a_pool_too_large_to_reanalyse_in_seconds():
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(rng.normal(size=(5, 301)), columns=[f"L{j}" for j in range(301)])
    with pytest.raises(RankwiseError, match="reanalyses the table 602 times"):
        compare(frame, pool_check=True)
