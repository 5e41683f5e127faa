"""``--figure-width``: the SVG, PDF and PNG figures drawn for a paper's column or page. The
width each file declares is read back from the file (PDF MediaBox, SVG width, PNG pixels at
150 dpi), and the rank diagrams keep type of at least 6 pt where the labels allow it."""

import re
import struct
import warnings

import numpy as np
import pandas as pd
import pytest

from rankwise import RankwiseError, RankwiseWarning, compare, load_example
from rankwise.report import figures
from rankwise.report.diagrams import MIN_FONT, figure_width, saved_width


CM = 1 / 2.54


def k30():
    rng = np.random.default_rng(30)
    x = np.round(0.7 + np.linspace(0, 0.05, 30) + rng.normal(0, 0.03, (40, 30)), 3)
    return pd.DataFrame(x, columns=[f"config_{j:02d}" for j in range(30)],
                        index=[f"dataset_{i:02d}" for i in range(40)])


def file_widths_cm(folder, name):
    """The width each of the three files of figure ``name`` declares, in centimetres."""
    pdf = (folder / f"{name}.pdf").read_bytes()
    box = re.search(rb"/MediaBox \[\s*([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+)", pdf)
    pdf_cm = (float(box.group(3)) - float(box.group(1))) / 72 * 2.54
    svg = (folder / f"{name}.svg").read_text(encoding="utf-8")
    svg_cm = float(re.search(r'<svg[^>]*\swidth="([\d.]+)pt"', svg).group(1)) / 72 * 2.54
    png = (folder / f"{name}.png").read_bytes()
    png_cm = struct.unpack(">I", png[16:20])[0] / 150 * 2.54
    return pdf_cm, svg_cm, png_cm


@pytest.mark.parametrize("value, cm", [("column", 8.4), ("page", 17.0), ("12", 12.0),
                                       ("12cm", 12.0), (" 9.5 CM ", 9.5), (20, 20.0),
                                       (None, None)])
def test_figure_width_values(value, cm):
    inches = figure_width(value)
    assert (inches is None) if cm is None else inches == pytest.approx(cm * CM)


@pytest.mark.parametrize("value", ["wide", "2", "51cm", True, "nan", "-8", ""])
def test_figure_width_refuses_in_one_line(value):
    with pytest.raises(RankwiseError, match=r"column, page or a width in centimetres") as err:
        figure_width(value)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("source", ["garcia2008", "garcia2010", "demsar2006_table6", "k30"])
@pytest.mark.parametrize("width, cm", [("column", 8.4), ("page", 17.0)])
@pytest.mark.figures
def test_every_figure_file_fits_the_width(tmp_path, source, width, cm):
    data = k30() if source == "k30" else load_example(source)
    cmp = compare(data, posthoc="all")
    with warnings.catch_warnings(record=True) as caught:  # a note at most, never an error
        warnings.simplefilter("always")
        cmp.write_report(tmp_path, figure_width=width)
    assert all(issubclass(w.category, RankwiseWarning) for w in caught)
    names = [p.stem for p in tmp_path.glob("*.pdf")]
    assert {"cd_diagram", "control_diagram", "pvalue_heatmap"} <= set(names)
    for name in names:
        for got in file_widths_cm(tmp_path, name):
            assert got <= cm + 0.05, (name, got)
    # the HTML report keeps the figures at their screen size
    assert (tmp_path / "report.html").read_text(encoding="utf-8").count("<svg") >= 3


def test_rank_diagrams_are_laid_out_for_the_column_not_shrunk(tmp_path):
    """At a column's width the CD diagram of García 2008 sets its labels in smaller type
    (not below 6 pt) instead of scaling a page-wide drawing: the labels stay readable, the
    axis keeps its room, and the file uses most of the column."""
    cmp = compare(load_example("garcia2008"), posthoc="all")
    natural = figures(cmp)["cd_diagram"]
    column = figures(cmp, figure_width="column")["cd_diagram"]
    sizes = [t.get_fontsize() for t in column.rankwise_labels]
    assert min(sizes) >= MIN_FONT
    assert max(t.get_fontsize() for t in natural.rankwise_labels) == 10
    assert 6.5 <= saved_width(column) * 2.54 <= 8.4 + 0.02
    assert saved_width(natural) * 2.54 > 15  # without a width, as before


@pytest.mark.figures
def test_figure_width_leaves_the_default_files_unchanged(tmp_path):
    cmp = compare(load_example("garcia2010"), posthoc="all")
    cmp.write_report(tmp_path / "a")
    cmp.write_report(tmp_path / "b", figure_width=None)
    for name in ("cd_diagram.pdf", "cd_diagram.svg", "pvalue_heatmap.png"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


@pytest.mark.figures
def test_cli_figure_width(tmp_path, capsys, cli):
    code, out, err = cli("compare", "--example", "garcia2008", "--posthoc", "all",
                         "--report", tmp_path / "r", "--figure-width", "column")
    assert code == 0 and "wrote 19 files" in err
    assert max(file_widths_cm(tmp_path / "r", "cd_diagram")) <= 8.45
    code, out, err = cli("compare", "--example", "garcia2008", "--figure-width", "page")
    assert code == 2 and err.strip() == ("rankwise: error: --figure-width sizes the figures of"
                                         " --report DIR; add --report")
    code, out, err = cli("compare", "--example", "garcia2008", "--report",
                         tmp_path / "s", "--figure-width", "2cm")
    assert code == 2 and len(err.strip().splitlines()) == 1 and "from 3 to 50" in err
    assert not (tmp_path / "s").exists()  # refused before any work


@pytest.mark.figures
def test_cli_notes_type_under_five_points(tmp_path, capsys, cli):
    frame = k30()
    frame.columns = [f"a_configuration_with_a_long_name_{j:02d}" for j in range(30)]
    frame.to_csv(tmp_path / "wide.csv", index_label="dataset")
    code, out, err = cli("compare", tmp_path / "wide.csv", "--posthoc", "all",
                         "--report", tmp_path / "r", "--figure-width", "column")
    assert code == 0
    note = [line for line in err.splitlines() if line.startswith("rankwise: note:")]
    assert len(note) == 1 and "cd_diagram" in note[0] and "under 5 pt" in note[0]
    assert re.search(r"cd_diagram\.tikz \(\d\.\d pt\)", note[0]), note[0]   # the TikZ too
    assert "Warning" not in err


def test_the_tikz_diagrams_type_at_a_width_is_said_when_under_five_points():
    """The TikZ CD diagram is laid out for the document's line (its axis gives way to the
    labels, down to 3 cm) and scaled to it (\\rankwisefit): at a column's 8.4 cm its type
    shrinks with its longest labels (the bundled example's, from 9 pt to about 7.8 pt, where
    an 8 cm axis set them in 5.4 pt), not with the number of learners; under 5 pt it is said
    with the drawn figures, and a page keeps it whole."""
    from rankwise.report.diagrams import warn_small_type
    from rankwise.report.folder import tikz_type
    from rankwise.report.tikz import TYPE_PT

    column, page = figure_width("column"), figure_width("page")
    short = compare(load_example("garcia2008"), posthoc="all")
    assert tikz_type(short, None) == {}
    assert 7.0 < tikz_type(short, column)["cd_diagram.tikz"] < TYPE_PT
    assert tikz_type(short, page)["cd_diagram.tikz"] == TYPE_PT
    frame = k30()
    longer = frame.rename(columns=lambda c: c.replace("config", "a_much_longer_configuration"))
    few, many = (compare(t, posthoc="all", force_posthoc=True)
                 for t in (longer.iloc[:, :5], longer))
    small = tikz_type(many, column)["cd_diagram.tikz"]
    assert small < 5.0 and tikz_type(few, column)["cd_diagram.tikz"] == pytest.approx(
        small, rel=0.05)                                     # the labels' length, not k
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        warn_small_type({}, column, tikz_type(many, column))
        warn_small_type({}, page, tikz_type(many, page))
        warn_small_type({}, column, tikz_type(short, column))
    said = [str(w.message) for w in seen if issubclass(w.category, RankwiseWarning)]
    assert len(said) == 1 and f"cd_diagram.tikz ({small:.1f} pt)" in said[0], said


@pytest.mark.figures
def test_power_report_figure_width(tmp_path, capsys, cli):
    code, out, err = cli("power", "--example", "demsar2006_table6", "--draws", "20",
                         "--bias", "0,4", "--report", tmp_path / "p", "--figure-width", "column")
    assert code == 0, err
    for got in file_widths_cm(tmp_path / "p", "power_rejection"):
        assert got <= 8.45
