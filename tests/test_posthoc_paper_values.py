"""Post-hoc worked examples: Demšar (2006) §3.2, García & Herrera (2008) Tables 3 and 5,
García et al. (2010) Tables 4, 6 and 9-11. Misprints are named (ERRATA ids) beside the correct
values."""

import math

import numpy as np
import pytest
from scipy import stats

from rankwise import compare, load_example
from rankwise.stats.adjust import adjust, rom, rom_constants, shaffer_multipliers
from rankwise.stats.bergmann_hommel import bergmann_hommel
from rankwise.stats.contrast import contrast_estimation
from rankwise.stats.pairwise import critical_difference, nemenyi_pvalues, pairwise_statistics
from rankwise.stats.multiple_sign import multiple_sign_test, sign_critical_value

# --- Demšar (2006) ---------------------------------------------------------------------------


def test_demsar_control_comparisons():
    t = load_example("demsar2006_table6_tiebreak")
    st = pairwise_statistics(t.values, "friedman", convention="paper")
    assert st.se == pytest.approx(0.48795, abs=5e-6)
    c = t.learners.index("C4.5")
    others = [t.learners.index(n) for n in ("C4.5+m+cf", "C4.5+m", "C4.5+cf")]
    z = np.abs(st.statistics[c, others])
    assert z == pytest.approx([2.4154, 2.3422, 0.5123], abs=5e-5)  # D6: printed 2.416 is rounded
    p = st.pvalues[c, others]
    # ERRATA D6: the third p is 0.608, not the printed 0.607.
    assert p == pytest.approx([0.01572, 0.01917, 0.60841], abs=5e-6)
    for proc, apv in [("holm", [0.0472, 0.0472, 0.6084]), ("hochberg", [0.0383, 0.0383, 0.6084]),
                      ("hommel", [0.0314, 0.0383, 0.6084])]:
        got = adjust(p, proc)
        assert got == pytest.approx(apv, abs=5e-5)
        # Demšar's decision (D7, D8): H1 and H2 rejected at 0.05, H3 retained.
        assert (got <= 0.05).tolist() == [True, True, False]


def test_demsar_critical_differences():
    r05, r10 = critical_difference(4, 14, 0.05), critical_difference(4, 14, 0.10)
    (cd05, q05), (cd10, q10) = (r05.cd, r05.q), (r10.cd, r10.q)
    assert (q05, q10) == pytest.approx((2.569, 2.291), abs=5e-4)
    # Printed 1.25; q rounded to 3 decimals gives 1.2535 / 1.1179, the exact q 1.2536 / 1.1181.
    assert (cd05, cd10) == pytest.approx((1.2535, 1.1179), abs=3e-4)
    res = critical_difference(4, 14, 0.05, "bonferroni_dunn")
    bd, q = res.cd, res.q
    assert q == pytest.approx(2.394, abs=5e-4)
    # ERRATA D4: the paper prints 1.16; 1.1682 is 2.394·0.48795 (q rounded), exactly 1.16814.
    assert bd == pytest.approx(1.1682, abs=1e-4)


@pytest.mark.parametrize("k, q05, q10, bd05, bd10", [
    (2, 1.9600, 1.6449, 1.9600, 1.6449), (3, 2.3437, 2.0523, 2.2414, 1.9600),
    (4, 2.5690, 2.2913, 2.3940, 2.1280), (5, 2.7278, 2.4595, 2.4977, 2.2414),
    (6, 2.8497, 2.5885, 2.5758, 2.3263), (7, 2.9483, 2.6927, 2.6383, 2.3940),
    (8, 3.0309, 2.7799, 2.6901, 2.4500), (9, 3.1017, 2.8546, 2.7344, 2.4977),
    (10, 3.1637, 2.9199, 2.7729, 2.5392)])
def test_critical_value_table(k, q05, q10, bd05, bd10):
    """docs/reference/pairwise.md (critical differences), which replaces Demšar's Table 5 (D2: B-D q0.05 for k = 9 is 2.734)."""
    assert critical_difference(k, 10, 0.05).q == pytest.approx(q05, abs=5e-5)
    assert critical_difference(k, 10, 0.10).q == pytest.approx(q10, abs=5e-5)
    assert critical_difference(k, 10, 0.05, "bonferroni_dunn").q == pytest.approx(bd05, abs=5e-5)
    assert critical_difference(k, 10, 0.10, "bonferroni_dunn").q == pytest.approx(bd10, abs=5e-5)


# --- García & Herrera (2008) -----------------------------------------------------------------

GH_P = [4.48699e-8, 1.73612e-7, 0.00288048, 0.00484876, 0.00796349, 0.0101123, 0.012763,
        0.0247447, 0.743971, 0.806496]
GH_APV = {
    "bonferroni": [4.487e-7, 1.7361e-6, 0.028805, 0.048488, 0.079635, 0.10112, 0.12763, 0.24745,
                   1, 1],
    "holm": [4.487e-7, 1.5625e-6, 0.023044, 0.033941, 0.047781, 0.050562, 0.051052, 0.074234,
             1, 1],
    "shaffer": [4.487e-7, 1.0417e-6, 0.017283, 0.029093, 0.047781, 0.047781, 0.051052, 0.074234,
                1, 1],
    # ERRATA GH3: the raw closed-test value of row 6 is 0.030337; Table 5 prints the running
    # maximum 0.031854 (the "monotone" form, our paper convention).
    "bergmann_hommel": [4.487e-7, 1.0417e-6, 0.011522, 0.029093, 0.031854, 0.030337, 0.038289,
                        0.038289, 1, 1],
    "nemenyi": [4.4714e-7, 1.7265e-6, 0.024071, 0.038958, 0.061093, 0.075589, 0.092765, 0.16313,
                0.99755, 0.99921],
}


def close(got, want):
    """Equal at the printed precision (4-5 significant digits)."""
    return np.allclose(got, want, rtol=2e-4, atol=0)


def gh_all_pairs(convention):
    t = load_example("garcia2008")
    res = compare(t, posthoc="all", convention=convention)
    from rankwise.analysis.schema import pair_rows

    rows = pair_rows(res.to_dict()["posthoc"]["friedman"]["all_pairs"], res.table.learners)
    order = np.argsort([r["pvalue"] for r in rows], kind="stable")
    return [rows[i] for i in order], res


def test_garcia2008_table3_and_table5():
    rows, res = gh_all_pairs("paper")
    assert res.to_dict()["posthoc"]["friedman"]["se"] == pytest.approx(0.408248, abs=5e-7)
    p = [r["pvalue"] for r in rows]
    assert close(p, GH_P)
    for proc in ("bonferroni", "holm", "shaffer", "nemenyi"):
        assert close([r["apv"][proc] for r in rows], GH_APV[proc]), proc
    monotone = [r["apv"]["bergmann_hommel"] for r in rows]
    assert close(monotone, GH_APV["bergmann_hommel"][:5] + [0.031854] + GH_APV[
        "bergmann_hommel"][6:])
    # Rejections at 0.05 (the paper's text): Bonferroni 1-4, Holm 1-5, Shaffer 1-6, BH 1-8.
    for proc, count in [("bonferroni", 4), ("holm", 5), ("shaffer", 6), ("bergmann_hommel", 8)]:
        assert [r["apv"][proc] <= 0.05 for r in rows] == [True] * count + [False] * (10 - count)
    assert ("C4.5", "NaiveBayes") in {(r["a"], r["b"]) for r in rows[-2:]}


def test_garcia2008_bergmann_hommel_raw_is_the_default():
    rows, _ = gh_all_pairs("default")
    # The default Friedman SE is the permutation SE; the table has ties, so rebuild the paper's
    # p-values and feed them to the procedure directly.
    t = load_example("garcia2008")
    st = pairwise_statistics(t.values, "friedman", convention="paper")
    bh = bergmann_hommel(st.pvalues, st.scores)
    assert bh.method == "fast"
    iu = np.triu_indices(5, 1)
    order = np.argsort(st.pvalues[iu], kind="stable")
    assert close(bh.apv[iu][order], GH_APV["bergmann_hommel"])
    assert bh.apv[iu][order][5] == pytest.approx(0.030337, abs=5e-7)


def test_shaffer_multipliers_k5():
    assert shaffer_multipliers(5).tolist() == [10, 6, 6, 6, 6, 4, 4, 3, 2, 1]


# --- García et al. (2010) --------------------------------------------------------------------

PROCS = ("bonferroni_dunn", "holm", "hochberg", "hommel", "holland", "rom", "finner", "li")


def control_apvs(p, convention="paper"):
    return {proc: adjust(p, proc, convention=convention) for proc in PROCS}


def check_table(apvs, expected):
    for proc, values in expected.items():
        assert close(apvs[proc], values), (proc, apvs[proc], values)


def test_garcia2010_table9_friedman():
    t = load_example("garcia2010")
    st = pairwise_statistics(t.values, "friedman", convention="paper")
    c = 0  # PDFC
    order = [t.learners.index(n) for n in ("FH-GBML", "IS-CHC+1NN", "NNEP")]
    p = st.pvalues[c, order]
    assert close(p, [5.69941e-5, 0.0573469, 0.0573469])
    apvs = control_apvs(p)
    check_table(apvs, {
        "bonferroni_dunn": [1.70982e-4, 0.17204, 0.17204], "holm": [1.70982e-4, 0.11469, 0.11469],
        "hochberg": [1.70982e-4, 0.05735, 0.05735], "hommel": [1.70982e-4, 0.05735, 0.05735],
        "holland": [1.70973e-4, 0.11141, 0.11141],
        "rom": [1.70982e-4, 0.05735, 0.05735],  # KEEL's frozen ratios (paper convention)
        # ERRATA G12: Finner's APV1 is printed 1.70982e-4 (Bonferroni); the formula gives
        # Holland's 1.70973e-4.
        "finner": [1.70973e-4, 0.08477, 0.08477],
        # ERRATA G11: Li's APV1 is printed 6.04577e-4; the exponent is -5.
        "li": [6.04577e-5, 0.05735, 0.05735]})
    # ERRATA G14: the exact Rom APV1 is 1.70975e-4 (default convention).
    assert rom(p)[0] == pytest.approx(1.70975e-4, rel=2e-5)


def against_pdfc(means, se):
    """Two-sided z-test p-values of FH-GBML, IS-CHC+1NN and NNEP against PDFC (tables' order)."""
    return 2 * stats.norm.sf(np.abs((means[[3, 2, 1]] - means[0]) / se))


def test_garcia2010_table10_aligned_ranks_printed_totals():
    # The printed aligned-rank totals need the authors' unrounded data (ERRATA G20).
    n, k = 24, 4
    totals = np.array([703.5, 1121.5, 1129.5, 1701.5])
    se = math.sqrt(k * (k * n + 1) / 6.0)  # ERRATA G4: eq. (21) prints sqrt(k(n+1)/6)
    p = against_pdfc(totals / n, se)
    assert close(p, [2.32777e-7, 0.0272943, 0.030324])
    check_table(control_apvs(p), {
        "bonferroni_dunn": [6.98332e-7, 0.08188, 0.09097], "holm": [6.98332e-7, 0.05459, 0.05459],
        "hochberg": [6.98332e-7, 0.03032, 0.03032], "hommel": [6.98332e-7, 0.03032, 0.03032],
        "holland": [6.98332e-7, 0.05384, 0.05384], "rom": [6.98332e-7, 0.03032, 0.03032],
        "finner": [6.98332e-7, 0.04066, 0.04066], "li": [2.40057e-7, 0.02738, 0.03032]})


def test_garcia2010_table11_quade_printed_averages():
    n, k = 24, 4
    tj = np.array([1.393333, 2.536667, 2.591667, 3.478333])
    se = math.sqrt(k * (k + 1) * (2 * n + 1) * (k - 1) / (18.0 * n * (n + 1)))  # eq. (22)
    tj_exact = np.array([-332.0, 11.0, 27.5, 293.5]) / (n * (n + 1) / 2) + (k + 1) / 2
    assert tj_exact == pytest.approx(tj, abs=1e-6)
    p = against_pdfc(tj_exact, se)
    # ERRATA G10: the first unadjusted p is printed 6.43747e-4; it is 6.43747e-5.
    assert close(p, [6.43747e-5, 0.0216324, 0.0284267])
    check_table(control_apvs(p), {
        "bonferroni_dunn": [1.93124e-4, 0.06490, 0.08528], "holm": [1.93124e-4, 0.04326, 0.04326],
        "hochberg": [1.93124e-4, 0.02843, 0.02843], "hommel": [1.93124e-4, 0.02843, 0.02843],
        "holland": [1.93112e-4, 0.04280, 0.04280], "rom": [1.93124e-4, 0.02843, 0.02843],
        "finner": [1.93112e-4, 0.03227, 0.03227],  # ERRATA G12 (printed 1.93124e-4)
        "li": [6.62538e-5, 0.02178, 0.02843]})     # ERRATA G11 (printed 6.62538e-4)
    assert rom(p)[0] == pytest.approx(1.93115e-4, rel=2e-5)  # ERRATA G14


def test_rom_constants():
    r = 0.05 / rom_constants(10, 0.05)
    assert r == pytest.approx([1, 2, 2.962963, 3.932835, 4.905335, 5.878810, 6.852736, 7.8269,
                               8.8012, 9.7757], abs=5e-5)
    keel = 0.05 / rom_constants(7, 0.05, "paper")
    assert keel == pytest.approx([1, 2, 3, 3.814, 4.755, 5.705, 6.655], abs=5e-4)


def test_garcia2010_table4_multiple_sign_test():
    t = load_example("garcia2010")
    res = multiple_sign_test(t.values, 0)
    assert res.critical_value == 6 and res.exact
    rows = {t.learners[r["learner"]]: r for r in res.comparisons}
    # ERRATA G17: Cleveland NNEP is (+) (0.553 > 0.508): 15 minuses, 8 pluses, 1 tie.
    assert (rows["NNEP"]["minuses"], rows["NNEP"]["pluses"], rows["NNEP"]["ties"]) == (15, 8, 1)
    assert (rows["IS-CHC+1NN"]["minuses"], rows["IS-CHC+1NN"]["pluses"]) == (18, 6)
    assert (rows["FH-GBML"]["minuses"], rows["FH-GBML"]["pluses"]) == (20, 4)
    # PDFC beats IS-CHC+1NN and FH-GBML (pluses <= 6), not NNEP.
    assert [rows[n]["control_better"] for n in ("NNEP", "IS-CHC+1NN", "FH-GBML")] == [
        False, True, True]


@pytest.mark.parametrize("m, n, alpha, printed, exact", [
    (3, 24, 0.05, 6, 6), (2, 25, 0.10, 7, 8), (3, 45, 0.05, 14, 15), (4, 14, 0.10, 2, 3)])
def test_rhyne_steel_critical_values(m, n, alpha, printed, exact):
    """ERRATA G18: Table A.1 is one too conservative in three cells; the exact value is used."""
    assert sign_critical_value(m, n, alpha) == (exact, True)


def test_garcia2010_table6_contrast_estimation():
    t = load_example("garcia2010")
    est = contrast_estimation(t.values).estimates
    # From the CSV (3-decimal data); Table 6 needs the unrounded data (ERRATA G19, G20).
    want = {(0, 1): 0.0225, (0, 2): 0.01975, (0, 3): 0.05925, (1, 2): -0.00275, (1, 3): 0.03675,
            (2, 3): 0.0395}
    for (u, v), value in want.items():
        assert est[u, v] == pytest.approx(value, abs=1e-12)
        assert est[v, u] == pytest.approx(-value, abs=1e-12)
    printed = {(0, 1): 0.02257, (0, 2): 0.01976, (0, 3): 0.05955, (1, 2): -0.00281,
               (1, 3): 0.03698, (2, 3): 0.03979}
    for (u, v), value in printed.items():
        assert est[u, v] == pytest.approx(value, abs=1e-3)


def test_nemenyi_is_not_bonferroni():
    """ERRATA GH8: Demšar's Nemenyi (studentized range) is less conservative than m·p."""
    z = stats.norm.isf(np.array(GH_P) / 2)
    nem = nemenyi_pvalues(z, 5)
    assert close(nem, GH_APV["nemenyi"])
    assert np.all(nem <= np.minimum(1, 10 * np.array(GH_P)))
