"""Benjamini-Hochberg and Benjamini-Yekutieli: R's p.adjust, statsmodels, a null simulation,
and both families of compare()."""

import numpy as np
import pytest

from rankwise import compare, load_example
from rankwise.stats.adjust import adjust

P = [0.0001, 0.004, 0.019, 0.0095, 0.2, 0.04, 0.03, 0.5, 0.01, 0.8, 0.03, 0.04]
# R 4.2.2: sprintf("%.17g", p.adjust(P, "BH")) and "BY"
R_BH = [0.0012000000000000001, 0.024, 0.045599999999999995, 0.029999999999999999,
        0.23999999999999999, 0.05333333333333333, 0.051428571428571421, 0.54545454545454541,
        0.029999999999999999, 0.80000000000000004, 0.051428571428571421, 0.05333333333333333]
R_BY = [0.0037238528138528139, 0.074477056277056281, 0.14150640692640692,
        0.093096320346320344, 0.74477056277056286, 0.16550456950456952, 0.15959369202226345, 1,
        0.093096320346320344, 1, 0.15959369202226345, 0.16550456950456952]


def test_against_r_p_adjust():
    assert adjust(P, "benjamini_hochberg") == pytest.approx(R_BH, rel=1e-14, abs=0)
    assert adjust(P, "benjamini_yekutieli") == pytest.approx(R_BY, rel=1e-14, abs=0)
    # p.adjust(c(0, 1, 0.05, 0.05), "BH") and "BY"
    assert adjust([0, 1, 0.05, 0.05], "benjamini_hochberg").tolist() == \
        pytest.approx([0, 1, 0.066666666666666666, 0.066666666666666666], rel=1e-14)
    assert adjust([0, 1, 0.05, 0.05], "benjamini_yekutieli").tolist() == \
        pytest.approx([0, 1, 0.13888888888888892, 0.13888888888888892], rel=1e-14)


def test_against_statsmodels_on_large_families():
    multitest = pytest.importorskip("statsmodels.stats.multitest")
    rng = np.random.default_rng(4)
    for m in (1, 2, 37, 4950, 100_000):
        p = np.concatenate([rng.uniform(size=m - m // 10), rng.uniform(0, 1e-4, m // 10)])
        p[:: max(m // 7, 1)] = p[0]  # ties
        for ours, theirs in (("benjamini_hochberg", "fdr_bh"), ("benjamini_yekutieli", "fdr_by")):
            ref = multitest.multipletests(p, method=theirs)[1]
            assert np.allclose(adjust(p, ours), ref, rtol=1e-13, atol=0)


@pytest.mark.simulation
def test_false_discovery_rate_at_most_alpha_under_the_null():
    """All hypotheses true: the FDR is the chance of any rejection; BH (independent tests) and
    BY keep it at or below alpha (3,000 families of 50)."""
    rng = np.random.default_rng(20261125)
    p = rng.uniform(size=(3000, 50))
    for method in ("benjamini_hochberg", "benjamini_yekutieli"):
        rate = np.mean([(adjust(row, method) <= 0.05).any() for row in p])
        assert rate <= 0.05 + 2.6 * np.sqrt(0.05 * 0.95 / 3000), (method, rate)
    # and a mix: 40 true nulls, 10 false, the observed FDR averaged over families
    shifted = p.copy()
    shifted[:, :10] = rng.uniform(0, 1e-3, size=(3000, 10))
    fdp = []
    for row in shifted:
        rej = adjust(row, "benjamini_hochberg") <= 0.05
        fdp.append(rej[10:].sum() / max(rej.sum(), 1))
    assert np.mean(fdp) <= 0.05 * 40 / 50 + 0.01


def test_by_name_in_both_families_and_stated_as_fdr():
    cmp = compare(load_example("garcia2010"), posthoc="both",
                  procedures=("holm", "benjamini_hochberg", "benjamini_yekutieli"))
    for fam in ("control", "all_pairs"):
        result = cmp.posthoc.rankings["friedman"].families[fam]
        p = result.pvalues
        assert np.allclose(result.apvs["benjamini_hochberg"], adjust(p, "benjamini_hochberg"))
        assert np.allclose(result.apvs["benjamini_yekutieli"], adjust(p, "benjamini_yekutieli"))
        assert (result.apvs["benjamini_hochberg"] <= result.apvs["holm"] + 1e-15).all()
    text = cmp.to_text()
    assert "BH (FDR)" in text and "false discovery rate" in text
    verdict = compare(load_example("garcia2010"), verdict_procedure="benjamini_hochberg")
    assert "false discovery rate" in verdict.verdict.text
