"""The multi-comparison matrix (analysis/mcm.py) against the multi-comp-matrix package, an
independent pair-by-pair computation, and the reports."""

import json
import os
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import rankwise
from rankwise import compare, load_example, wilcoxon
from rankwise.analysis.mcm import multi_comparison_matrix, package_holm_flags


def tables():
    rng = np.random.default_rng(2)
    out = []
    for name in ("garcia2008", "garcia2010", "demsar2006_table6"):
        t = load_example(name)
        out.append((name, t.values, list(t.learners)))
    # two decimals: many tied and zero differences
    out.append(("seeded", np.round(rng.normal(0.8, 0.05, (60, 6)), 2),
                [f"L{j}" for j in range(6)]))
    return out


#: The multi-comp-matrix package as users install it: 0.0.4 with its own pins (numpy 1.26,
#: scipy 1.11), which rankwise's requirements exclude, so it lives in a virtual environment of
#: its own (.ci/run makes ``.venv-mcm``; ``RANKWISE_MCM_PYTHON`` names another one).
MCM_PYTHON = Path(os.environ.get("RANKWISE_MCM_PYTHON",
                                 Path(__file__).resolve().parents[1] / ".venv-mcm" / "bin"
                                 / "python"))
_PACKAGE = """
import json, sys
import pandas as pd
import scipy
from multi_comp_matrix.MCM import get_analysis
out = {"scipy": scipy.__version__}
for name, values, names, holm in json.load(open(sys.argv[1])):
    analysis = get_analysis(pd.DataFrame(values, columns=names), save_as_json=False,
                            pvalue_correction="Holm" if holm else None)
    out[name + ("/holm" if holm else "")] = analysis
json.dump(out, open(sys.argv[2], "w"), default=str)
"""


@pytest.fixture(scope="module")
def package_analysis(tmp_path_factory):
    """The package's get_analysis of every table, run in the package's own environment."""
    if not MCM_PYTHON.exists():
        pytest.skip("multi-comp-matrix 0.0.4 with its pins is not installed: .ci/run makes"
                    " .venv-mcm (python -m venv .venv-mcm && .venv-mcm/bin/pip install"
                    " multi-comp-matrix==0.0.4)")
    tmp = tmp_path_factory.mktemp("mcm")
    cases = [(name, x.tolist(), names, holm) for name, x, names in tables()
             for holm in (False, True)]
    (tmp / "in.json").write_text(json.dumps(cases))
    (tmp / "run.py").write_text(_PACKAGE)
    subprocess.run([str(MCM_PYTHON), str(tmp / "run.py"), str(tmp / "in.json"),
                    str(tmp / "out.json")], check=True, capture_output=True, cwd=tmp)
    return json.loads((tmp / "out.json").read_text())


@pytest.mark.subprocess
def test_the_package_runs_on_its_pinned_scipy(package_analysis):
    assert package_analysis["scipy"].startswith("1.11.")


@pytest.mark.subprocess
@pytest.mark.parametrize("name, x, names", tables(), ids=[t[0] for t in tables()])
@pytest.mark.parametrize("holm", [False, True])
def test_paper_convention_equals_the_multi_comp_matrix_package(name, x, names, holm,
                                                               package_analysis):
    analysis = package_analysis[name + ("/holm" if holm else "")]
    m = multi_comparison_matrix(x, names, convention="paper", holm=holm)
    assert [names[j] for j in m.order] == list(analysis["ordered-comparate-names"])
    for i in range(len(m.a)):
        entry = analysis[f"{names[m.a[i]]}-vs-{names[m.b[i]]}"]
        assert (entry["win"], entry["tie"], entry["loss"]) == (m.wins[i], m.ties[i],
                                                               m.losses[i])
        assert entry["pvalue"] == pytest.approx(m.pvalue[i], abs=1e-12)
        assert entry["mean"] == pytest.approx(m.mean_difference[i], abs=1e-12)
        assert entry["is-significant"] == bool(m.significant[i])


def test_the_installed_package_number_of_the_issue():
    """García & Herrera's Table 2, C4.5 vs NaiveBayes (tied |d|, no zeros, N = 30): the
    installed package (scipy 1.11) prints 0.5561; scipy 1.13's rule would give 0.5440."""
    t = load_example("garcia2008")
    m = multi_comparison_matrix(t.values, list(t.learners), convention="paper")
    names = list(t.learners)
    i = next(i for i in range(len(m.a)) if {names[m.a[i]], names[m.b[i]]}
             == {"C4.5", "NaiveBayes"})
    assert round(float(m.pvalue[i]), 4) == 0.5561 and m.method[i] == "exact"


@pytest.mark.parametrize("name, x, names", tables(), ids=[t[0] for t in tables()])
def test_default_convention_pair_by_pair(name, x, names):
    """Each pair on its own: rankwise's one-pair Wilcoxon (Pratt), counts after rounding."""
    m = multi_comparison_matrix(x, names, holm=True)
    xr = np.round(x, 12)
    for i in range(len(m.a)):
        a, b = xr[:, m.a[i]], xr[:, m.b[i]]
        d = np.round(a - b, 12)
        assert (m.wins[i], m.ties[i], m.losses[i]) == ((d > 0).sum(), (d == 0).sum(),
                                                       (d < 0).sum())
        assert m.mean_difference[i] == pytest.approx(a.mean() - b.mean(), abs=1e-12)
        one = wilcoxon(a, b, zero_method="pratt")
        assert m.pvalue[i] == pytest.approx(one.pvalue, abs=1e-12)
    assert np.allclose(m.apv_holm, rankwise.adjust(m.pvalue, "holm"))
    assert np.array_equal(m.significant, m.apv_holm <= 0.05)
    # best mean score first, and a is always the better-placed learner of its pair
    means = xr.mean(axis=0)
    assert list(m.order) == list(np.argsort(-means, kind="stable"))
    pos = {j: i for i, j in enumerate(m.order)}
    assert all(pos[a] < pos[b] for a, b in zip(m.a, m.b))


def test_lower_is_better_orders_and_counts_the_other_way():
    t = load_example("garcia2008")
    up = multi_comparison_matrix(t.values, t.learners)
    down = multi_comparison_matrix(-t.values, t.learners, higher_is_better=False)
    assert up.order == down.order
    assert np.array_equal(up.wins, down.wins) and np.array_equal(up.losses, down.losses)
    assert np.allclose(up.pvalue, down.pvalue)


def test_the_package_holm_flags_are_not_holms_procedure():
    p = np.array([0.03, 0.02, 0.04])
    # thresholds 0.05/3, 0.05/2, 0.05 for the sorted p: only the largest is flagged
    assert package_holm_flags(p, 0.05).tolist() == [False, False, True]
    assert (rankwise.adjust(p, "holm") <= 0.05).tolist() == [False, False, False]


@pytest.mark.figures
def test_mcm_in_every_format_and_the_figure():
    cmp = compare(load_example("garcia2008"), mcm="holm")
    doc = json.loads(cmp.to_json())
    m = doc["mcm"]
    assert m["holm"] is True and m["order"] == ["C4.5", "NaiveBayes", "CN2", "1-NN", "Kernel"]
    assert len(m["pairs"]["a"]) == 10
    # the number printed is the JSON's: C4.5 against Kernel
    i = next(i for i, (a, b) in enumerate(zip(m["pairs"]["a"], m["pairs"]["b"]))
             if (doc["learners"][a], doc["learners"][b]) == ("C4.5", "Kernel"))
    text = cmp.to_text()
    assert "Multi-comparison matrix" in text and "27 / 0 / 3" in text
    assert f"{m['pairs']['apv_holm'][i]:.3e}" in text
    for out in (cmp.to_markdown(), cmp.to_html(), cmp.to_latex()):
        assert "Multi-comparison matrix" in out and "27 / 0 / 3" in out
    from rankwise.report import figures

    assert "mcm" in figures(cmp) and cmp.figures["mcm"].drawn
    assert compare(load_example("garcia2008")).to_dict()["mcm"] is None


def test_mcm_refusals():
    frame = pd.DataFrame(load_example("garcia2008").values)
    frame.iloc[0, 0] = np.nan
    with pytest.raises(rankwise.RankwiseError, match="multi-comparison matrix needs a complete"):
        compare(frame, mcm=True, missing="skillings-mack")
    with pytest.raises(rankwise.RankwiseError, match="mcm must be"):
        compare(load_example("garcia2008"), mcm="bonferroni")
