"""All pairs of many learners in bounded memory (``rankwise.stats.all_pairs``): every number
equals the in-memory family, and the streamed family of ``compare`` (above
``PAIR_MATRIX_MAX_LEARNERS``, lowered here to keep the tests fast) makes the same decisions,
figures and files as the in-memory one."""

import numpy as np
import pandas as pd
import pytest

from rankwise import compare, load_table
from rankwise.errors import RankwiseError
from rankwise.stats.all_pairs import AllPairs, first_rejected, scan
from rankwise.stats.pairwise import adjusted_pvalues, family_pairs, pairwise_statistics

PROCEDURES = ("nemenyi", "bonferroni", "sidak", "holm", "benjamini_hochberg",
              "benjamini_yekutieli")


def _scores(k, n, seed=0, spread=0.1, decimals=2):
    rng = np.random.default_rng(seed)
    return np.round(0.7 + np.linspace(0, spread, k)[None, :] + rng.normal(0, 0.03, (n, k)),
                    decimals)


def _streamed(pairs: AllPairs, k: int) -> tuple:
    """Every block's numbers put back in the family's (a, b) order."""
    row = {}
    a_all, b_all = family_pairs(k, "all_pairs", None).T
    index = np.full((k, k), -1)
    index[a_all, b_all] = np.arange(a_all.size)
    z, p = np.full(a_all.size, np.nan), np.full(a_all.size, np.nan)
    apv = {proc: np.full(a_all.size, np.nan) for proc in pairs.procedures}
    positions = []
    for block in pairs.blocks():
        at = index[block.a, block.b]
        assert (at >= 0).all() and (block.a < block.b).all()
        z[at], p[at] = block.statistic, block.pvalue
        for proc in pairs.procedures:
            apv[proc][at] = block.apv[proc]
        positions.append(block.start)
        row.setdefault("p", []).append(block.pvalue)
    return z, p, apv, np.concatenate(row["p"])


@pytest.mark.parametrize("ranking", ["friedman", "friedman_aligned", "quade",
                                     "friedman_conover"])
def test_every_number_equals_the_in_memory_family(ranking):
    k = 300
    x = _scores(k, 30)
    st = pairwise_statistics(x, ranking)
    procs = PROCEDURES if ranking != "friedman_conover" else PROCEDURES[1:]
    _, p, apv, _, _ = adjusted_pvalues(st, "all_pairs", procs)
    df = st.details["df"] if ranking == "friedman_conover" else None
    pairs = AllPairs(st.scores, st.se, procs, df=df, block_pairs=3_000)
    assert len(pairs.edges) - 1 >= 10  # many blocks
    assert int(pairs.counts().sum()) == k * (k - 1) // 2
    z_s, p_s, apv_s, in_order = _streamed(pairs, k)
    a, b = family_pairs(k, "all_pairs", None).T
    assert np.array_equal(z_s, np.asarray(st.statistics)[a, b])
    assert np.array_equal(p_s, p)
    assert np.all(np.diff(in_order) >= 0)  # most significant first
    for proc in procs:
        if proc == "nemenyi":  # the studentized range's tail, to its stated precision
            assert np.allclose(apv_s[proc], apv[proc], rtol=0, atol=1.2e-12), proc
        else:
            assert np.array_equal(apv_s[proc], apv[proc]), proc


def test_ties_and_a_single_block():
    x = np.round(_scores(60, 8, 3, decimals=1), 1)  # many tied mean ranks and differences
    st = pairwise_statistics(x, "friedman")
    _, p, apv, _, _ = adjusted_pvalues(st, "all_pairs", ("holm", "benjamini_hochberg"))
    for block_pairs in (10**9, 50):
        pairs = AllPairs(st.scores, st.se, ("holm", "benjamini_hochberg"),
                         block_pairs=block_pairs)
        _, p_s, apv_s, _ = _streamed(pairs, 60)
        assert np.array_equal(p_s, p)
        for proc in ("holm", "benjamini_hochberg"):
            assert np.array_equal(apv_s[proc], apv[proc])


def test_scan_counts_keeps_the_top_and_the_learners_shown():
    k, alpha = 200, 0.05
    st = pairwise_statistics(_scores(k, 25, 1), "friedman")
    _, p, apv, _, _ = adjusted_pvalues(st, "all_pairs", ("holm", "nemenyi"))
    pairs = AllPairs(st.scores, st.se, ("holm", "nemenyi"), block_pairs=2_000)
    among = np.array([0, 5, 17, 120, 199])
    found = scan(pairs, alpha, 25, among)
    for proc in ("holm", "nemenyi"):
        assert found.rejected[proc] == int((apv[proc] <= alpha).sum())
    a_all, b_all = family_pairs(k, "all_pairs", None).T
    smallest = np.sort(p)[:25]
    assert np.array_equal(found.top[3], smallest)
    inside = np.isin(a_all, among) & np.isin(b_all, among)
    assert len(found.among[0]) == int(inside.sum()) == 10
    got = dict(zip(zip(found.among[0].tolist(), found.among[1].tolist()),
                   found.among[4]["holm"].tolist()))
    want = dict(zip(zip(a_all[inside].tolist(), b_all[inside].tolist()),
                    apv["holm"][inside].tolist()))
    assert got == want


def test_first_rejected_equals_every_pairs_decision():
    k, alpha = 150, 0.05
    st = pairwise_statistics(_scores(k, 20, 2), "friedman")
    _, _, apv, _, _ = adjusted_pvalues(st, "all_pairs", ("holm",))
    pairs = AllPairs(st.scores, st.se, ("holm",), block_pairs=1_000)
    found = scan(pairs, alpha, 0, [])
    first = first_rejected(pairs, *found.last_rejected["holm"])
    sig = np.zeros((k, k), dtype=bool)
    a, b = family_pairs(k, "all_pairs", None).T
    sig[a, b] = sig[b, a] = apv["holm"] <= alpha
    s = sig[np.ix_(pairs.order, pairs.order)]
    for u in range(k):
        right = np.flatnonzero(s[u, u + 1:])
        assert first[u] == (u + 1 + right[0] if right.size else k)


# ------------------------------------------------------------------ through compare


def _stream_above(monkeypatch, limit: int) -> None:
    """Stream every all-pairs family above ``limit`` learners."""
    from rankwise import defaults
    from rankwise.analysis import figures, posthoc
    from rankwise.report import blocks

    for module in (defaults, figures, posthoc, blocks):
        monkeypatch.setattr(module, "PAIR_MATRIX_MAX_LEARNERS", limit)


@pytest.fixture
def small_limit(monkeypatch):
    _stream_above(monkeypatch, 40)


def _table(k=90, n=20, seed=4):
    x = _scores(k, n, seed, spread=0.15)
    frame = pd.DataFrame(x, columns=[f"c{j:03d}" for j in range(k)],
                         index=[f"d{i:02d}" for i in range(n)])
    return load_table(frame)


def test_the_streamed_family_decides_as_the_whole_family(monkeypatch):
    table = _table()
    _stream_above(monkeypatch, 1_000)
    whole = compare(table, posthoc="all", procedures="holm,nemenyi",
                    diagram_procedure="holm", top=12)
    whole_fam = whole.posthoc.rankings["friedman"].families["all_pairs"]
    assert getattr(whole_fam, "complete", True)
    _stream_above(monkeypatch, 40)
    big = compare(table, posthoc="all", procedures="holm,nemenyi", diagram_procedure="holm",
                  top=12)
    fam = big.posthoc.rankings["friedman"].families["all_pairs"]
    assert fam.complete is False and fam.n_pairs == 90 * 89 // 2
    for proc in ("holm", "nemenyi"):
        assert fam.rejected[proc] == int(whole_fam.rejected(proc, 0.05).sum())
    # the CD diagram's groups (by Holm, from the stream) are the whole family's
    assert big.figures["cd_diagram"].runs.start.tolist() == \
        whole.figures["cd_diagram"].runs.start.tolist()
    assert big.figures["cd_diagram"].runs.end.tolist() == \
        whole.figures["cd_diagram"].runs.end.tolist()
    # the heat map of the 12 learners shown holds the whole family's adjusted p-values
    plan = big.figures["pvalue_heatmap"]
    assert plan.subset and len(plan.learners) == 12
    full = whole.figures["pvalue_heatmap"]
    where = [full.learners.index(n) for n in plan.learners]
    assert np.array_equal(plan.pvalues, full.pvalues[np.ix_(where, where)])
    assert big.figures["cd_diagram"].cliques == tuple(
        g for g in whole.figures["cd_diagram"].runs.groups(table.learners, 12))
    # the verdict and the letters are the same
    assert big.verdict.losers == whole.verdict.losers
    text = big.to_text()
    assert f"All {90 * 89 // 2:,} pairs were tested, in blocks" in text
    assert "most significant of all" in text


def test_default_procedures_leave_out_shaffer_and_bergmann_hommel_with_a_note(small_limit):
    cmp = compare(_table(), posthoc="all", top=10)
    entry = cmp.posthoc.rankings["friedman"]
    assert entry.families["all_pairs"].procedures == ("nemenyi", "bonferroni", "holm")
    assert any("need every pair at once" in n for n in entry.notes)
    assert cmp.posthoc.contrast_estimation is None


@pytest.mark.parametrize("options, words", [
    ({"posthoc": "all", "procedures": "shaffer"}, "needs every pair at once"),
    ({"posthoc": "all", "rankings": "wilcoxon"}, "takes the rank-based rankings"),
    ({"diagram_procedure": "bergmann_hommel"}, "--diagram-procedure bergmann_hommel"),
])
def test_what_needs_every_pair_at_once_is_refused_in_one_line(small_limit, options, words):
    with pytest.raises(RankwiseError, match=words) as info:
        compare(_table(), **options)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("suffix", [".parquet", ".csv"])
def test_pairs_file_holds_every_pair_once_with_its_numbers(small_limit, tmp_path, suffix):
    if suffix == ".parquet":
        pytest.importorskip("pyarrow")
    table = _table()
    cmp = compare(table, posthoc="all", procedures="holm,nemenyi", top=10)
    path = tmp_path / f"pairs{suffix}"
    assert cmp.write_pairs(path) == [path]
    got = pd.read_parquet(path) if suffix == ".parquet" else pd.read_csv(path)
    m = 90 * 89 // 2
    assert len(got) == m and got["position"].tolist() == list(range(1, m + 1))
    assert len(set(zip(got["a"], got["b"]))) == m
    st = pairwise_statistics(table.values, "friedman")
    _, p, apv, _, _ = adjusted_pvalues(st, "all_pairs", ("holm",))
    a, b = family_pairs(90, "all_pairs", None).T
    want = dict(zip(zip((table.learners[i] for i in a), (table.learners[j] for j in b)),
                    apv["holm"]))
    for row in got.itertuples():
        assert row.holm == pytest.approx(want[(row.a, row.b)], rel=1e-15, abs=1e-300)
    assert np.all(np.diff(got["p"].to_numpy()) >= 0)
    path2 = tmp_path / f"significant{suffix}"
    cmp.write_pairs(path2, significant_only=True)
    sig = pd.read_parquet(path2) if suffix == ".parquet" else pd.read_csv(path2)
    fam = cmp.posthoc.rankings["friedman"].families["all_pairs"]
    assert len(sig) == max(fam.rejected.values())


@pytest.mark.figures
def test_report_folder_writes_every_pair_of_a_streamed_family(small_limit, tmp_path):
    pytest.importorskip("pyarrow")
    cmp = compare(_table(), posthoc="all", procedures="holm", top=10)
    paths = cmp.write_report(tmp_path / "report")
    names = {p.name for p in paths}
    assert "pairs.parquet" in names and "pairs.csv" not in names
    assert len(pd.read_parquet(tmp_path / "report" / "pairs.parquet")) == 90 * 89 // 2


def test_pairs_file_below_the_limit_is_pairs_csv(tmp_path):
    cmp = compare(_table(12, 10), posthoc="all")
    path = tmp_path / "p.csv"
    cmp.write_pairs(path)
    from rankwise.report.pairs import pairs_csv

    assert path.read_text() == pairs_csv(cmp)


def test_cli_pairs_mistakes_are_one_line(tmp_path, capsys, cli):

    csv = tmp_path / "t.csv"
    frame = pd.DataFrame(_scores(5, 8), columns=list("abcde"))
    frame.insert(0, "dataset", [f"d{i}" for i in range(8)])
    frame.to_csv(csv, index=False)
    for args, words in ((["--pairs", str(tmp_path / "p.txt")], ".parquet or .csv"),
                        (["--significant-pairs"], "goes with --pairs"),
                        (["--pairs", str(tmp_path / "no" / "p.csv")], "does not exist")):
        code, _, err = cli("compare", str(csv), *args)
        assert code == 2 and words in err and "Traceback" not in err


@pytest.mark.parametrize("options, words", [
    ({"rank_sets": True}, "--rank-sets"), ({"mcm": True}, "--mcm"),
    ({"groups": "scott-knott-esd"}, "--groups"),
])
def test_analyses_of_every_pair_at_once_are_refused_above_the_limit(monkeypatch, options,
                                                                     words):
    _stream_above(monkeypatch, 40)
    with pytest.raises(RankwiseError, match=words) as info:
        compare(_table(), **options)
    assert "up to 40 learners (90 here)" in str(info.value)


@pytest.mark.large
@pytest.mark.parametrize("top", [None, 0, 5])
@pytest.mark.figures
def test_every_output_above_the_limit_with_any_top(monkeypatch, tmp_path, top):
    """--top 0 (every learner shown) above the limit: the pair matrices keep at most the
    limit's learners, and every format and figure is written. A limit of 12 under 30 learners
    is the same streamed path as 40 under 90, with a third of the learners to draw."""
    _stream_above(monkeypatch, 12)
    cmp = compare(_table(30), posthoc="all", procedures="holm", top=top)
    for fmt in ("text", "markdown", "latex", "html", "json"):
        assert cmp._report().render(cmp, fmt)
    paths = cmp.write_report(tmp_path / f"r{top}")
    assert any(p.name == "cd_diagram.png" for p in paths)
    wtl = cmp.summary.win_tie_loss_rows
    assert len(wtl) == (12 if not top else top)


def test_significant_pairs_below_the_limit_keep_the_rejected_rows(tmp_path):
    cmp = compare(_table(12, 10), posthoc="all", procedures="holm,nemenyi")
    path = tmp_path / "sig.csv"
    cmp.write_pairs(path, significant_only=True)
    got = pd.read_csv(path)
    fam = cmp.posthoc.rankings["friedman"].families["all_pairs"]
    want = fam.rejected("holm", cmp.alpha) | fam.rejected("nemenyi", cmp.alpha)
    plan = cmp.figures["pvalue_heatmap"]  # the diagram's Nemenyi column counts too
    assert len(got) == int(want.sum()) and len(got) > 0
    assert ((got["friedman_holm"] <= 0.05) | (got["friedman_nemenyi"] <= 0.05)
            | (got[f"diagram_{plan.procedure}"] <= 0.05)).all()


def test_pairs_without_the_family_are_refused_before_the_analysis(small_limit, tmp_path, cli,
                                                                   monkeypatch):
    """Above the limit --pairs needs --posthoc all, said before any work; when the gate
    stopped the family, the message names --force-posthoc, not an option already given."""
    from rankwise.analysis import steps

    table = tmp_path / "k90.csv"
    frame = pd.DataFrame(_table().values, columns=[f"L{j}" for j in range(90)])
    frame.insert(0, "dataset", [f"d{i}" for i in range(20)])
    frame.to_csv(table, index=False)
    ran = []
    monkeypatch.setattr(steps, "fold", lambda *a, **k: ran.append(1))
    code, _, err = cli("compare", table, "--pairs", tmp_path / "p.csv")
    assert code == 2 and "add --posthoc all" in err and not ran
    monkeypatch.undo()
    _stream_above(monkeypatch, 40)
    null = np.random.default_rng(0).normal(size=(20, 90))   # nothing to find: the gate holds
    frame = pd.DataFrame(null, columns=[f"L{j}" for j in range(90)])
    frame.insert(0, "dataset", [f"d{i}" for i in range(20)])
    frame.to_csv(table, index=False)
    code, _, err = cli("compare", table, "--posthoc", "all", "--pairs", tmp_path / "p.csv")
    assert code == 2 and "did not reject" in err and "--force-posthoc" in err, err
    assert "add --posthoc all" not in err and not (tmp_path / "p.csv").exists()
