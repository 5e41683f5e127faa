"""Outputs a reader can use at large k: the headline verdict, --top, 80 columns, pairs.csv."""

import csv
import io

import numpy as np
import pandas as pd
import pytest

from rankwise import compare
from rankwise.report.pairs import pairs_columns, pairs_csv
from rankwise.report.text import text_report


def _table(k, n, seed=0):
    rng = np.random.default_rng(seed)
    skill = np.linspace(0.05, 0, k)
    x = np.round(np.clip(rng.uniform(0.6, 0.9, (n, 1)) + skill + rng.normal(0, 0.03, (n, k)),
                         0, 1), 3)
    return pd.DataFrame(x, columns=[f"config_{j:02d}" for j in range(k)],
                        index=[f"ds{i:02d}" for i in range(n)])


@pytest.fixture(scope="module")
def k30():
    return compare(_table(30, 40), posthoc="all", procedures=("holm", "nemenyi"))


def test_thirty_learners_read_at_80_columns(k30):
    text = text_report(k30, 80)
    blocks = text.split("\n\n")
    verdict = next(b for b in blocks if b.startswith("Verdict\n")).split("\n")
    headline = []
    for line in verdict[1:]:
        if line.startswith(("learner ", "(columns ")):  # the table, perhaps in blocks
            break
        headline.append(line)
    assert 1 <= len(headline) <= 5
    assert "Best mean rank:" in headline[0] + " ".join(headline)
    table_lines = set()
    for b in blocks:  # lines of tables (a header, a rule of dashes, rows) may be wider
        lines = b.split("\n")
        for i, line in enumerate(lines):
            if set(line.replace(" ", "")) <= {"-"} and line.strip():
                start = i - 1
                table_lines.update(lines[start:])
    charts = text.split("\nQuartile charts\n")[1].split("\n\n")[0].split("\n")
    table_lines.update(charts)  # preformatted, like a table
    prose = [line for line in text.split("\n") if line not in table_lines]
    assert max(len(line) for line in prose) <= 80
    # the verdict's decisions in its table are the verdict's own
    v = k30.verdict
    for name in v.losers[:5]:
        row = next(line for line in text.split("\n") if line.startswith(name + " "))
        assert " worse " in row
    for name in v.winners:
        if name != v.best:
            row = next(line for line in text.split("\n") if line.startswith(name + " "))
            assert "not detected" in row


def test_top_limits_every_table_and_says_so():
    cmp = compare(_table(40, 25), posthoc="all", procedures=("holm",), top=12)
    text = text_report(cmp)
    assert "Showing the best 12 of 40 learners by mean rank" in text
    shown = [cmp.table.learners[j] for j in np.argsort(cmp.mean_ranks, kind="stable")[:12]]
    hidden = set(cmp.table.learners) - set(shown)
    for name in hidden:
        assert name not in text.split("\nMean ranks\n")[1].split("\nMethods\n")[0]
    # the one figure of every learner: mean ranks with their intervals, the verdict's group
    plan = cmp.figures["rank_intervals"]
    assert plan.drawn and set(plan.rank_intervals) == set(cmp.table.learners)
    assert {n for n, worse in plan.decisions.items() if not worse} == set(cmp.verdict.winners)
    for j, name in enumerate(cmp.table.learners):
        assert plan.rank_intervals[name] == tuple(cmp.mean_rank_intervals[j])
    from rankwise.report.diagrams import draw_all

    figs = draw_all(cmp)
    assert set(figs) == {"control_diagram", "cd_diagram", "pvalue_heatmap", "rank_intervals"}
    assert "Mean ranks of every learner. All 40 learners" in " ".join(text.split())
    assert "rank_intervals" not in compare(_table(40, 25), top=0).figures
    every = text_report(compare(_table(40, 25), top=0))
    assert "Showing the best" not in every
    assert all(name in every for name in cmp.table.learners)
    with pytest.raises(Exception, match="top must be a whole number"):
        compare(_table(5, 10), top=-1)


def test_pairs_csv_holds_every_pair_with_the_numbers_of_the_analysis(k30):
    rows = list(csv.DictReader(io.StringIO(pairs_csv(k30))))
    assert len(rows) == 30 * 29 // 2
    fam = k30.posthoc.rankings["friedman"].families["all_pairs"]
    apv = fam.apv_matrix("holm", k30.table.learners)
    index = {n: i for i, n in enumerate(k30.table.learners)}
    for row in rows[::37]:
        i, j = index[row["a"]], index[row["b"]]
        assert i < j
        assert float(row["friedman_holm"]) == apv[i, j]
        assert float(row["mean_rank_a"]) == k30.mean_ranks[i]
        if row["effect_hl"]:
            e = next(e for e in k30.effects if {e.a, e.b} == {row["a"], row["b"]})
            e = e if e.a == row["a"] else e.reversed()
            assert float(row["effect_hl"]) == e.hodges_lehmann.estimate
    heat = k30.figures["pvalue_heatmap"]
    assert [float(r["diagram_nemenyi"]) for r in rows[:5]] == \
        [heat.pvalues[list(heat.learners).index(r["a"]), list(heat.learners).index(r["b"])]
         for r in rows[:5]]


def test_a_thousand_learners_smoke():
    """k = 1000: the text report is small enough to read and its first screen says who is
    best; every pair is in pairs.csv (sizes, not timings)."""
    cmp = compare(_table(1000, 20, seed=3), tests=("friedman", "iman_davenport"))
    text = text_report(cmp, 80)
    assert len(text.encode()) <= 400_000
    first_screen = "\n".join(text.split("\n")[:25])
    assert f"Best mean rank: {cmp.verdict.best}" in " ".join(first_screen.split())
    assert cmp.settings["effects_pairs"] in ("all", "verdict")
    assert len(cmp.effects) == 999
    cols = pairs_columns(cmp)
    assert len(cols["a"]) == 499_500


@pytest.mark.parametrize("fmt_dpi", [150])
@pytest.mark.figures
def test_no_figure_clips_a_label_at_thirty_learners(k30, fmt_dpi):
    """Clipped text touches the edge of the cropped picture: the outermost pixels are blank."""
    from matplotlib.image import imread

    from rankwise.report.diagrams import draw_all, figure_bytes

    for name, fig in draw_all(k30).items():
        img = imread(io.BytesIO(figure_bytes(fig, "png")))[:, :, :3].mean(axis=2)
        edges = np.concatenate([img[:2].ravel(), img[-2:].ravel(), img[:, :2].ravel(),
                                img[:, -2:].ravel()])
        assert edges.min() > 0.9, name


@pytest.mark.figures
def test_html_keeps_every_learner_in_one_sortable_table():
    cmp = compare(_table(45, 20), top=10)
    page = cmp.to_html()
    table = page.split('<table id="full_ranking">')[1].split("</table>")[0]
    assert table.count("<tr>") == 45 + 1  # every learner, and the heading
    assert "<script>" in page and "src=" not in page.split("<script>")[1].split("</script>")[0]
    assert "http" not in page.split("<script>")[1]  # no CDN, nothing fetched
    assert '<table id="full_ranking">' not in compare(_table(8, 20)).to_html()  # all shown


def _chromium():
    import shutil

    return next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome")
                 if shutil.which(n)), None)


@pytest.mark.subprocess
@pytest.mark.skipif(_chromium() is None, reason="no Chromium here: install Debian's 'chromium'"
                    " (.ci/run does) to sort and filter the HTML table in a real browser")
@pytest.mark.figures
def test_html_ranking_sorts_and_filters_in_headless_chromium(tmp_path):
    import subprocess

    cmp = compare(_table(45, 20), top=10)
    page = tmp_path / "report.html"
    page.write_text(cmp.to_html(), encoding="utf-8")
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             f"--user-data-dir={tmp_path / 'profile'}"]

    def dom(fragment):
        out = subprocess.run([_chromium(), *flags, "--dump-dom", page.as_uri() + fragment],
                             capture_output=True, text=True, timeout=120).stdout
        return out.split('<table id="full_ranking"')[1].split("</table>")[0]

    # sorted by mean rank, worst first: the first row is the worst learner
    worst = cmp.table.learners[int(np.argmax(cmp.mean_ranks))]
    rows = dom("#sort=2:desc").split("<tr")[2:]
    assert f">{worst}<" in rows[0]
    # filtered by name: only config_1x rows stay visible
    rows = dom("#filter=config_1").split("<tr")[2:]
    shown = [r for r in rows if "hidden" not in r.split(">")[0]]
    assert len(shown) == 10 and all(">config_1" in r for r in shown)


@pytest.mark.large
@pytest.mark.figures
def test_a_thousand_learners_report_folder_sizes(tmp_path):
    """--report at k = 1000 (sizes, not timings): every file is written, the text report is
    readable, the figures show the best 30, pairs.csv has every pair."""
    cmp = compare(_table(1000, 25, seed=4), tests=("friedman", "iman_davenport"))
    files = {p.name: p.stat().st_size for p in map(__import__("pathlib").Path,
                                                     cmp.write_report(tmp_path / "out"))}
    assert {"report.txt", "report.html", "report.json", "pairs.csv", "cd_diagram.svg",
            "rank_intervals.svg"} <= set(files)
    assert files["report.txt"] <= 400_000
    assert files["cd_diagram.svg"] < 200_000  # 30 learners drawn, not 1,000
    with open(tmp_path / "out" / "pairs.csv") as f:
        assert sum(1 for _ in f) == 499_500 + 1
    page = (tmp_path / "out" / "report.html").read_text()
    assert page.split('<table id="full_ranking">')[1].split("</table>")[0].count("<tr>") == 1001


def test_wide_tables_are_printed_in_column_blocks_that_fit(k30):
    from rankwise.report.text import column_blocks, table_lines

    header = ["name"] + [f"column_{i}" for i in range(12)]
    rows = [[f"row{r}"] + [f"{r}.{i:03d}" for i in range(12)] for r in range(4)]
    lines = table_lines(rows, header, "<" + ">" * 12, 50)
    assert max(map(len, lines)) <= 50
    blocks = [b.split("\n") for b in "\n".join(lines).split("\n\n")]
    assert len(blocks) == len(column_blocks([max(len(h), 5) for h in header], 50)) > 1
    seen = []
    for block in blocks:
        assert block[0].startswith("(columns ")
        names = block[1].split()
        assert names[0] == "name"  # the row labels in every block
        seen += names[1:]
        assert [line.split()[0] for line in block[3:]] == [f"row{r}" for r in range(4)]
    assert seen == header[1:]  # every column once, in order
    assert table_lines(rows, header, "<" + ">" * 12, None) == table_lines(
        rows, header, "<" + ">" * 12, 10_000)
    # a whole report at 80 columns: nothing wider but the quartile charts' lines
    text = text_report(k30, 80)
    charts = set(text.split("\nQuartile charts\n")[1].split("\n\n")[0].split("\n"))
    assert max(len(line) for line in text.split("\n") if line not in charts) <= 80
