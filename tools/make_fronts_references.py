"""Reference outputs of the better-and-cheaper front, each made by the other tool as its users
install it, in a virtual environment of its own (not rankwise's):

    python tools/make_fronts_references.py tabarena   # in a venv with: pip install --no-deps
                                                      #   tabarena==0.1.0; pip install numpy pandas
    python tools/make_fronts_references.py gsd DIR    # in a venv with: pip install rdata pandas;
                                                      # DIR: a checkout of
    # github.com/hannahblo/Statistical-Multicriteria-Benchmarking-via-the-GSD-Front (b5da02a)

``tabarena``: 60 aggregated tables (up to 30 learners, two criteria, directions of every kind,
ties on purpose) and the names on TabArena's ``get_pareto_frontier``; written to
tests/data/fronts/tabarena_reference.json.

``gsd``: three of the reference repository's pairwise data sets (PMLB glmnet and knn against
the classifier of interest, OpenML glmnet against SVM: the distinct outcomes with each
learner's counts, the worst and best points appended) and the observed test statistic its code
computed with Gurobi (``d_observed$result_eps_0``), and the p-value of its stored permutations
((1 + #{D* <= D}) / (B + 1)); written to tests/data/fronts/gsd_reference.json.
"""

import json
import sys
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "fronts"


def tabarena():
    from tabarena.plot.plot_pareto_frontier import get_pareto_frontier

    rng = np.random.default_rng(20241128)
    cases = []
    for case in range(60):
        k = int(rng.integers(2, 31))
        grid = int(rng.integers(3, 12))      # few distinct values: ties
        x = (rng.integers(0, grid, k) / grid).tolist()
        y = (rng.integers(0, grid, k) / grid).tolist()
        max_x, max_y = bool(rng.integers(0, 2)), bool(rng.integers(0, 2))
        names = [f"L{i}" for i in range(k)]
        _, front = get_pareto_frontier(x, y, names, max_X=max_x, max_Y=max_y,
                                       include_boundary_edges=False)
        cases.append({"x": x, "y": y, "max_x": max_x, "max_y": max_y, "names": names,
                      "front": sorted({n for n in front if n is not None})})
    import tabarena

    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "tabarena_reference.json").write_text(json.dumps(
        {"tool": "tabarena 0.1.0, tabarena.plot.plot_pareto_frontier.get_pareto_frontier",
         "version": getattr(tabarena, "__version__", "0.1.0"), "cases": cases}, indent=1))


def gsd(folder):
    import rdata

    folder = Path(folder)
    files = {"pmlb_glmnet": "pmlb_permutation_results/glmnet",
             "pmlb_knn": "pmlb_permutation_results/knn",
             "openml_glmnet": "openml_permutation_results/classif.glmnet"}
    out = {}
    for tag, stem in files.items():
        d = rdata.read_rds(folder / f"{stem}_dat_set.rds")
        r = rdata.read_rds(folder / f"{stem}_result.rds")
        # the permuted statistics: a matrix (one row per epsilon, one column per split) kept
        # column by column; the epsilon = 0 row is every len(d_observed)-th value
        eps = len(r["d_observed"])
        null = np.array([float(np.asarray(v).ravel()[0]) for v in r["permutation_test"]])[::eps]
        observed = float(r["d_observed"]["result_eps_0"][0])
        out[tag] = {"ordinal_1": d.ordinal_1.tolist(), "ordinal_2": d.ordinal_2.tolist(),
                    "numeric": d.numeric.tolist(),
                    "count_a": d.count_group_a.astype(int).tolist(),
                    "count_b": d.count_group_b.astype(int).tolist(),
                    "d_observed_eps0": observed, "permutations": len(null),
                    "pvalue": float((1 + np.sum(null <= observed + 1e-12)) / (len(null) + 1))}
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "gsd_reference.json").write_text(json.dumps(
        {"source": "github.com/hannahblo/Statistical-Multicriteria-Benchmarking-via-the-GSD-Front"
                   " b5da02a (Gurobi, epsilon = 0)", "cases": out}, indent=1))


if __name__ == "__main__":
    {"tabarena": lambda: tabarena(), "gsd": lambda: gsd(sys.argv[2])}[sys.argv[1]]()
