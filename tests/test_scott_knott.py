"""Scott-Knott ESD groups (analysis/scott_knott.py) against a brute-force reference."""

import json
import math
import statistics

import numpy as np
import pytest
from scipy import stats

from rankwise import RankwiseError, compare, load_example
from rankwise.analysis.scott_knott import cohens_d, scott_knott_esd
from rankwise.stats.ranking import midranks


def reference(x, alpha=0.05, version="p"):
    """Scott & Knott's recursion written out: every split of every part tried explicitly,
    B0 as the between-part sum of squares, then the 1.x ESD merge with a textbook Cohen's d.
    Returns each learner's group (1 = best)."""
    n, k = x.shape
    values = k + 1 - midranks(x, descending=True) if version == "np" else x
    means = [sum(values[:, j]) / n for j in range(k)]
    order = sorted(range(k), key=lambda j: -means[j])
    dfr = k * (n - 1)
    mse = sum((values[i, j] - means[j]) ** 2 for i in range(n) for j in range(k)) / dfr
    groups = []

    def part(members):
        g = len(members)
        m = [means[j] for j in members]
        centre = sum(m) / g
        if g >= 2:
            best, where = -1.0, None
            for cut in range(1, g):
                left, right = m[:cut], m[cut:]
                b0 = (len(left) * (sum(left) / len(left) - centre) ** 2
                      + len(right) * (sum(right) / len(right) - centre) ** 2)
                if b0 > best + 1e-15:
                    best, where = b0, cut
            sigma2 = (sum((v - centre) ** 2 for v in m) + dfr * mse / n) / (g + dfr)
            lam = math.pi * best / (2 * (math.pi - 2) * sigma2)
            if stats.chi2.sf(lam, g / (math.pi - 2)) < alpha:
                part(members[:where])
                part(members[where:])
                return
        groups.append(members)

    part(order)
    rank = {j: i + 1 for i, members in enumerate(groups) for j in members}
    ranking = [rank[j] for j in order]
    for pos in range(1, k):
        a, b = list(values[:, order[pos]]), list(values[:, order[pos - 1]])
        pooled = ((n - 1) * statistics.variance(a) + (n - 1) * statistics.variance(b)) / (2 * n - 2)
        d = 0.0 if pooled == 0 else (statistics.mean(a) - statistics.mean(b)) / math.sqrt(pooled)
        if abs(d) < 0.2 and ranking[pos] != ranking[pos - 1]:
            ranking[pos:] = [r - 1 for r in ranking[pos:]]
    out = [0] * k
    for pos, j in enumerate(order):
        out[j] = ranking[pos]
    return out


def tables():
    rng = np.random.default_rng(17)
    out = []
    for k in range(3, 9):
        for spread in (0.0, 0.02, 0.08):
            n = int(rng.integers(8, 40))
            levels = np.round(rng.choice([0.0, spread, 2 * spread], size=k), 3)
            out.append(np.round(0.7 + levels + rng.normal(0, 0.03, (n, k)), 3))
    return out


@pytest.mark.parametrize("version", ["p", "np"])
def test_groups_equal_a_brute_force_reference_up_to_k8(version):
    for x in tables():
        names = [f"L{j}" for j in range(x.shape[1])]
        got = scott_knott_esd(x, names, version=version)
        assert got.rank.tolist() == reference(x, version=version)
        # groups are contiguous in the order of the means, numbered from the best
        ranks_in_order = [got.rank[j] for j in got.order]
        assert ranks_in_order == sorted(ranks_in_order) and ranks_in_order[0] == 1
        assert all(b - a <= 1 for a, b in zip(ranks_in_order, ranks_in_order[1:]))


def test_clear_levels_and_no_differences():
    rng = np.random.default_rng(5)
    x = np.array([0.9, 0.9, 0.7, 0.5])[None, :] + rng.normal(0, 0.01, (30, 4))
    g = scott_knott_esd(x, list("ABCD"))
    assert [grp["learners"] for grp in g.groups] == [["A", "B"], ["C"], ["D"]] or \
        [grp["learners"] for grp in g.groups] == [["B", "A"], ["C"], ["D"]]
    same = np.repeat(rng.normal(0.8, 0.05, (30, 1)), 4, axis=1)
    assert scott_knott_esd(same, list("ABCD")).rank.tolist() == [1, 1, 1, 1]


def test_the_effect_size_merge():
    """With many data sets a tiny difference is significant; ESD merges it back."""
    rng = np.random.default_rng(9)
    x = np.column_stack([rng.normal(0.80, 0.1, 5000), rng.normal(0.79, 0.1, 5000)])
    g = scott_knott_esd(x, ["A", "B"], decimals=None)
    assert g.original.tolist() == [1, 2]  # Scott & Knott separate them
    assert g.rank.tolist() == [1, 1] and g.merged[0][:2] == ("A", "B")
    assert abs(g.merged[0][2]) < 0.2


def test_cohens_d_pooled():
    a, b = [1.0, 2.0, 3.0, 4.0], [2.0, 4.0, 6.0]
    pooled = (3 * statistics.variance(a) + 2 * statistics.variance(b)) / 5
    assert cohens_d(a, b) == pytest.approx((2.5 - 4.0) / math.sqrt(pooled), abs=1e-12)


def test_lower_is_better_reverses_the_groups():
    t = load_example("garcia2008")
    up = scott_knott_esd(t.values, t.learners)
    down = scott_knott_esd(-t.values, t.learners, higher_is_better=False)
    assert up.rank.tolist() == down.rank.tolist() and up.order == down.order


@pytest.mark.figures
def test_groups_in_every_output():
    cmp = compare(load_example("garcia2008"), groups="scott-knott-esd-np")
    sentence = cmp.groups.sentence()
    assert sentence in cmp.verdict.text
    for text in (cmp.to_text(), cmp.to_markdown(), cmp.to_html(), cmp.to_latex()):
        assert "Scott-Knott ESD groups" in text and "Scott-Knott group" in text
    doc = json.loads(cmp.to_json())
    assert [g["learners"] for g in doc["groups"]["groups"]] == [
        ["C4.5", "NaiveBayes"], ["CN2", "1-NN"], ["Kernel"]]
    assert doc["groups"]["rank"]["Kernel"] == 3
    from rankwise.report import figures

    assert "groups" in figures(cmp)
    with pytest.raises(RankwiseError, match="groups must be one of"):
        compare(load_example("garcia2008"), groups="scott-knott")


def reference_cut(sizes_and_sums):
    """The cut of the bootstrap variant by its definition, trying every position."""
    sizes = [s for s, _ in sizes_and_sums]
    sums = [v for _, v in sizes_and_sums]
    n, mu = sum(sizes), sum(sums) / sum(sizes)
    gains = []
    for i in range(1, len(sizes)):
        n1, n2 = sum(sizes[:i]), sum(sizes[i:])
        m1, m2 = sum(sums[:i]) / n1, sum(sums[i:]) / n2
        gains.append(n1 / n * (m1 - mu) ** 2 + n2 / n * (m2 - mu) ** 2)
    return 1 + gains.index(max(gains))


def test_a12_is_a_brute_force_count():
    from rankwise.analysis.scott_knott import a12

    rng = np.random.default_rng(1)
    a, b = np.round(rng.normal(0, 1, 40), 1), np.round(rng.normal(0.3, 1, 30), 1)
    count = sum((x > y) + 0.5 * (x == y) for x in a for y in b) / (40 * 30)
    assert a12(a, b) == pytest.approx(count, abs=1e-12)


@pytest.mark.simulation
def test_bootstrap_test_holds_its_level_and_finds_a_shift():
    from rankwise.analysis.scott_knott import bootstrap_pvalue

    rng = np.random.default_rng(3)
    rejections = sum(bootstrap_pvalue(rng.normal(0, 1, 30), rng.normal(0, 1, 30), rng, 400)
                     < 0.05 for _ in range(300))
    # the bootstrap test is approximate: its size stays near 0.05 (binomial sd 0.013)
    assert rejections / 300 < 0.05 + 3 * 0.0126
    assert bootstrap_pvalue(rng.normal(0, 1, 30), rng.normal(1.5, 1, 30), rng) < 0.01


def test_bootstrap_groups_on_per_fold_results():
    from rankwise.analysis.scott_knott import scott_knott_bootstrap

    rng = np.random.default_rng(8)
    samples = {"A": rng.normal(0.90, 0.02, 50), "B": rng.normal(0.895, 0.02, 50),
               "C": rng.normal(0.70, 0.02, 50), "D": rng.normal(0.50, 0.02, 50)}
    g = scott_knott_bootstrap(samples)
    assert [grp["learners"] for grp in g.groups] == [["A", "B"], ["C"], ["D"]]
    assert g.rank.tolist() == scott_knott_bootstrap(samples).rank.tolist()  # seeded
    # the first cut is the one that maximises the weighted spread of the means
    order = [g.learners[j] for j in g.order]
    cut = reference_cut([(50, samples[n].sum()) for n in order])
    assert cut == 2
    # lower is better: the same groups, read the other way
    down = scott_knott_bootstrap({k: -v for k, v in samples.items()}, higher_is_better=False)
    assert down.rank.tolist() == g.rank.tolist()


def test_bootstrap_groups_need_per_fold_results():
    cmp = compare(load_example("folds_demo", criterion="accuracy"),
                  groups="scott-knott-bootstrap")
    assert cmp.groups.method == "scott-knott-bootstrap"
    assert "[1]" in cmp.to_text()  # the quartile chart names each learner's group
    with pytest.raises(RankwiseError, match="need per-fold results"):
        compare(load_example("garcia2008"), groups="scott-knott-bootstrap")
