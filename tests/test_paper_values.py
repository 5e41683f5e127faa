"""The worked numbers of the three papers (docs/reference/; ERRATA ids: docs/reference/errata.md).

Each expectation names the convention that produces it. Where the printed number is wrong, the
test says so (ERRATA ids) and asserts the correct value beside the paper-compatible one.
"""

import numpy as np
import pytest

from rankwise import (aligned_ranks, friedman, friedman_aligned, iman_davenport, load_example, quade,
                      rank_within_datasets, sign_test, wilcoxon, wilcoxon_critical_value)
from rankwise.stats.omnibus import _aligned_statistic, quade_from_ranks
from rankwise.stats.ranking import midranks
from rankwise.stats.two_learners import differences


# --- Demšar (2006) ---------------------------------------------------------------------------

def test_demsar_table2_absolute_difference_ranks(demsar2):
    d = differences(*demsar2)
    # Rounding makes +0.005 (adult) and -0.005 (iris) tie at 3.5, as printed.
    expected = [3.5, 7, 9, 12, 5, 3.5, 6, 1.5, 14, 1.5, 11, 13, 8, 10]
    assert midranks(np.abs(d)).tolist() == expected


@pytest.mark.parametrize("zero_method, r_plus, r_minus, n", [
    ("demsar", 93, 12, 14), ("zsplit", 93, 12, 14), ("wilcox", 71.5, 6.5, 12),
    ("pratt", 91.5, 10.5, 14)])
def test_demsar_wilcoxon_zero_rules(demsar2, zero_method, r_plus, r_minus, n):
    r = wilcoxon(*demsar2, zero_method=zero_method)
    assert (r.r_plus, r.r_minus, r.statistic, r.n) == (r_plus, r_minus, min(r_plus, r_minus), n)


def test_demsar_wilcoxon_pvalues(demsar2):
    exact = wilcoxon(*demsar2)
    assert exact.method == "exact"
    assert exact.pvalue == pytest.approx(0.0078, abs=5e-5)
    # Demšar's normal approximation: N counts the zeros, no tie correction.
    paper = wilcoxon(*demsar2, method="normal", convention="paper")
    assert paper.z == pytest.approx(-2.5424, abs=5e-5)
    assert paper.pvalue == pytest.approx(0.0110, abs=5e-5)
    # The default normal approximation corrects the variance for the tied |d| (3.5, 1.5).
    default = wilcoxon(*demsar2, method="normal")
    ranks = np.array([3.5, 7, 9, 12, 5, 3.5, 6, 11, 13, 8, 10, 14])  # the non-zero ones
    var = (ranks ** 2).sum() / 4
    assert default.z == pytest.approx(-(93 - 52.5) / np.sqrt(var), rel=1e-12)


def test_demsar_wilcoxon_critical_value():
    assert wilcoxon_critical_value(14, 0.05) == 21


def test_demsar_sign_test(demsar2):
    r = sign_test(*demsar2)
    assert (r.statistic, r.n) == (11, 14)
    # ERRATA D1: exact two-sided p = 0.0574, so *not* significant at 0.05 (the paper's Table 3
    # is one-sided).
    assert r.pvalue == pytest.approx(0.057373, abs=5e-7)
    assert not r.reject(0.05)
    normal = sign_test(*demsar2, method="normal")
    assert normal.z == pytest.approx(2.138, abs=5e-4)
    assert normal.pvalue == pytest.approx(0.0325, abs=5e-5)


def test_demsar_table6_friedman_paper_tiebreak():
    t = load_example("demsar2006_table6_tiebreak")
    fr = friedman(t.values, convention="paper")
    assert fr.mean_ranks == pytest.approx([44 / 14, 28 / 14, 40.5 / 14, 27.5 / 14], abs=1e-12)
    assert round(fr.statistic, 2) == 9.28 and fr.statistic == pytest.approx(9.2786, abs=5e-5)
    fd = iman_davenport(t.values, convention="paper")
    assert round(fd.statistic, 2) == 3.69 and fd.statistic == pytest.approx(3.6863, abs=5e-5)
    assert fd.df == (3, 39)


def test_demsar_table6_as_printed():
    # ERRATA D5: from the printed table 'voting' is a tie, which changes the numbers.
    t = load_example("demsar2006_table6")
    assert friedman(t.values, convention="paper").statistic == pytest.approx(9.857143, abs=1e-6)
    assert iman_davenport(t.values, convention="paper").statistic == pytest.approx(3.986667,
                                                                                   abs=1e-6)
    # ERRATA D11: the tie-corrected statistic (our default, and scipy's) is 10.952.
    assert friedman(t.values).statistic == pytest.approx(10.952381, abs=1e-6)


# --- García & Herrera (2008) -----------------------------------------------------------------

def test_garcia2008_friedman():
    t = load_example("garcia2008")
    r = rank_within_datasets(t.values)
    # ERRATA GH1: the OptDigits 1-NN rank is printed as 1 but is 5 (lowest accuracy).
    assert r[t.datasets.index("OptDigits*"), t.learners.index("1-NN")] == 5
    fr = friedman(t.values, convention="paper")
    assert fr.mean_ranks == pytest.approx([2.100, 3.250, 2.200, 4.333, 3.117], abs=5e-4)
    assert fr.statistic == pytest.approx(39.646667, abs=1e-6)
    assert iman_davenport(t.values, convention="paper").statistic == pytest.approx(14.308720,
                                                                                   abs=1e-6)


# --- García, Fernández, Luengo & Herrera (2010) -----------------------------------------------

def test_garcia2010_friedman_and_iman_davenport():
    t = load_example("garcia2010")
    fr = friedman(t.values, convention="paper")
    assert fr.mean_ranks == pytest.approx([1.770833, 2.479167, 2.479167, 3.270833], abs=1e-6)
    assert fr.statistic == pytest.approx(16.225, abs=1e-9)
    fd = iman_davenport(t.values, convention="paper")
    # ERRATA G1: eq. (2) lost its minus sign; the value is 6.691 with p = 4.97e-4.
    assert fd.statistic == pytest.approx(6.690722, abs=1e-6)
    assert fd.pvalue == pytest.approx(4.97e-4, abs=5e-7)


# Printed aligned-rank totals (Table 7) and Σ R̂_i² (eq. 8); they need the authors' unrounded
# accuracies (ERRATA G20), so they are fed to the formula directly.
PRINTED_TOTALS = [703.5, 1121.5, 1129.5, 1701.5]
PRINTED_SUM_BLOCK_TOTALS_SQ = 926_830.0


def _printed_block_totals():
    # Any block totals with the printed Σ R̂_i² give the same statistic.
    return [np.sqrt(PRINTED_SUM_BLOCK_TOTALS_SQ)]


def test_garcia2010_aligned_ranks_printed_totals():
    n, k = 24, 4
    assert sum(t * t for t in PRINTED_TOTALS) == 5_923_547.0  # ERRATA G3: 1121.5, not 1121
    no_ties_sum_sq = k * n * (k * n + 1) * (2 * k * n + 1) / 6
    correct, _ = _aligned_statistic(PRINTED_TOTALS, _printed_block_totals(), no_ties_sum_sq, n, k,
                                    "default")
    # ERRATA G2: eq. (7) gives 22.290; the printed 18.837 is KEEL's misplaced 1/k.
    assert correct == pytest.approx(22.289878, abs=1e-6)
    keel, _ = _aligned_statistic(PRINTED_TOTALS, _printed_block_totals(), no_ties_sum_sq, n, k,
                                 "paper")
    assert keel == pytest.approx(18.836609, abs=1e-6)


def test_garcia2010_aligned_ranks_from_csv():
    t = load_example("garcia2010")
    res = friedman_aligned(t.values)
    # ERRATA G20: the CSV's totals differ from the printed ones (rounded accuracies).
    assert res.rank_totals.tolist() == [704.5, 1122.5, 1127.0, 1702.0]
    # Default: the exact denominator with the actual Σ r̂² (the CSV has tied aligned values).
    assert res.statistic == pytest.approx(22.268421, abs=1e-6)
    # 22.267109 is eq. (7) with the no-ties Σ r̂² = kn(kn+1)(2kn+1)/6.
    n, k = 24, 4
    ar = aligned_ranks(t.values)
    eq7, _ = _aligned_statistic(ar.sum(0), ar.sum(1), k * n * (k * n + 1) * (2 * k * n + 1) / 6,
                                n, k, "default")
    assert eq7 == pytest.approx(22.267109, abs=1e-6)
    assert res.pvalue == pytest.approx(5.7e-5, abs=1e-6)


def _quade_with_paper_weights():
    """The CSV's within-data-set ranks with the paper's Q (Adult 8, German 7; ERRATA G20)."""
    t = load_example("garcia2010")
    from rankwise import quade_weights
    q = quade_weights(t.values)
    assert q[t.datasets.index("Adult*")] == q[t.datasets.index("German")] == 7.5
    q[t.datasets.index("Adult*")], q[t.datasets.index("German")] = 8, 7
    return rank_within_datasets(t.values), q


def test_garcia2010_quade_correct():
    r, q = _quade_with_paper_weights()
    res = quade_from_ranks(r, q, "default")
    assert res.s.tolist() == [-332, 11, 27.5, 293.5]
    assert res.mean_ranks == pytest.approx([1.393333, 2.536667, 2.591667, 3.478333], abs=1e-6)
    # ERRATA G5: B = 8218.479, not the printed 4068.479.
    assert res.b == pytest.approx(8218.479, abs=1e-3)
    # ERRATA G8: with ties A2 = ΣS² = 24,481.5 (the no-ties formula gives 24,500).
    assert res.a2 == 24_481.5
    assert res.statistic == pytest.approx(11.623, abs=5e-4)
    no_ties = 23 * res.b / (24_500 - res.b)
    assert no_ties == pytest.approx(11.609789, abs=1e-6)  # ERRATA G6: the paper prints 21.967


def test_garcia2010_quade_paper_convention():
    r, q = _quade_with_paper_weights()
    res = quade_from_ranks(r, q, "paper")
    # KEEL centres the ranks at (k+1)//2 = 2 (integer division): every S_j moves by ΣQ/2 = 150.
    assert res.s.tolist() == [-182, 161, 177.5, 443.5]
    assert res.b == pytest.approx(11_968.479, abs=1e-3)
    assert res.statistic == pytest.approx(21.966609, abs=1e-6)
    assert res.pvalue == pytest.approx(4.28e-10, abs=5e-12)


def test_garcia2010_quade_from_csv():
    t = load_example("garcia2010")
    assert quade(t.values).statistic == pytest.approx(11.767, abs=5e-4)
