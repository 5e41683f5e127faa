"""Make the reference numbers of the curve analyses with the tools their users install.

Each part runs in the reference tool's own virtualenv (never rankwise's) and writes a JSON file
under tests/data/curves/ that tests/test_curves_references.py reads:

    python -m venv /tmp/ref-ioh && /tmp/ref-ioh/bin/pip install iohinspector
    /tmp/ref-ioh/bin/python tools/make_curves_references.py ioh

    python -m venv /tmp/ref-coco && /tmp/ref-coco/bin/pip install cocopp six
    /tmp/ref-coco/bin/python tools/make_curves_references.py cocopp

    python -m venv /tmp/ref-pp && /tmp/ref-pp/bin/pip install perprof-py "numpy<2"
    /tmp/ref-pp/bin/python tools/make_curves_references.py perprof

    python -m venv /tmp/ref-optuna && /tmp/ref-optuna/bin/pip install optuna pandas scipy jinja2
    /tmp/ref-optuna/bin/python tools/make_curves_references.py optuna REPORT_SCRIPT

``ioh`` reads IOHinspector's example data (examples/SO_Data of its repository, copied to
tests/data/curves/ioh) with its DataManager (monotonic) and records get_aocc (two value bounds,
linear and log budget axes), aggregate_running_time's ERT and get_data_ecdf. ``perprof`` draws
a cost table (seeded), writes it as perprof-py tables and records ProfileData's breakpoints
and cumulative profile (perprof-py 1.1.4 needs numpy < 2 beside its pandas 1.5). ``cocopp``
records COCO's ERT (``toolsstats.sp``) of the IOHinspector example's runs at four targets.
``optuna`` runs Optuna studies into an RDB storage file
(tests/data/curves/optuna_studies.db, one study per sampler, problem and seed), builds the
partial report of each problem as Optuna's benchmarks/bayesmark/report_bayesmark.py reads it
and records its DewanckerRanker (REPORT_SCRIPT: that file from Optuna's repository, at the
last commit that has it: cbe99f1^).
"""

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent / "tests" / "data" / "curves"


def ioh() -> None:
    import polars as pl
    from iohinspector import DataManager
    from iohinspector.metrics import (aggregate_running_time, get_aocc, get_data_ecdf,
                                      transform_fval)

    manager = DataManager()
    manager.add_folder(str(HERE / "ioh"))
    df = manager.load(True, True)
    out = {"iohinspector": __import__("iohinspector").__version__ if hasattr(
        __import__("iohinspector"), "__version__") else "0.0.8"}
    for log_axis in (False, True):
        free = ["function_name", "algorithm_name"]
        d = transform_fval(df, lb=1e-8, ub=1e8, scale_log=True)
        a = get_aocc(d, eval_max=1000, free_vars=free, scale_eval_log=log_axis)
        out["aocc_log" if log_axis else "aocc"] = a.to_dict(orient="records")
        d = transform_fval(df, lb=1e-3, ub=10, scale_log=False)
        a = get_aocc(d, eval_max=500, free_vars=free, scale_eval_log=log_axis)
        out["aocc_lin500_log" if log_axis else "aocc_lin500"] = a.to_dict(orient="records")
    sphere = df.filter(pl.col("function_name") == "Sphere")
    rt = aggregate_running_time(sphere, free_vars=["algorithm_name"], f_min=1e-4, f_max=10,
                                scale_f_log=True, eval_max=1000)
    out["ert_sphere"] = rt[["algorithm_name", "raw_y", "ERT", "success_count"]].to_dict(
        orient="records")
    budgets = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]
    e = get_data_ecdf(df.select(["data_id", "algorithm_name", "evaluations", "raw_y"]),
                      f_min=1e-8, f_max=1e8, eval_values=budgets, free_vars=["algorithm_name"])
    out["ecdf"] = e[["algorithm_name", "evaluations", "eaf"]].to_dict(orient="records")
    (HERE / "ioh_reference.json").write_text(json.dumps(out, indent=1) + "\n")


def cocopp_part() -> None:
    """COCO's ERT (``cocopp.toolsstats.sp``: the evaluations of all runs, a failed one its
    whole budget, over the successes) of the IOHinspector example's runs, from the running
    times the IOHprofiler files give (read here with plain Python, not with rankwise)."""
    import warnings

    import numpy as np

    warnings.simplefilter("ignore")  # cocopp warns that it is offline
    from cocopp.toolsstats import sp

    out = {"cocopp": __import__("cocopp").__version__, "targets": [1e-3, 1e-2, 1e-1, 1.0],
           "ert": {}}
    for meta_path in sorted((HERE / "ioh").rglob("IOHprofiler_*.json")):
        meta = json.loads(meta_path.read_text())
        scen = meta["scenarios"][0]
        runs, current = [], None
        for line in (meta_path.parent / scen["path"]).read_text().splitlines():
            if line.startswith("evaluations"):
                current = []
                runs.append(current)
            elif line.strip():
                e, y = line.split()[:2]
                current.append((float(e), float(y)))
        key = f"{meta['algorithm']['name']}/{meta['function_name']}"
        budget = [r["evals"] for r in scen["runs"]]
        for target in out["targets"]:
            hits = [next((e for e, y in run if y <= target), None) for run in runs]
            data = [h if h is not None else b for h, b in zip(hits, budget)]
            ok = [h is not None for h in hits]
            value, rate, n = sp(np.array(data, dtype=float), issuccessful=ok)
            out["ert"].setdefault(key, []).append(None if not np.isfinite(value)
                                                  else float(value))
    (HERE / "cocopp_reference.json").write_text(json.dumps(out, indent=1) + "\n")


def perprof() -> None:
    import tempfile

    import numpy as np
    from perprof.profile_data import ProfileData

    rng = np.random.default_rng(49)
    n, solvers = 40, ("alpha", "beta", "gamma")
    cost = np.round(rng.lognormal(mean=2.0, sigma=1.0, size=(n, len(solvers))), 3)
    cost[rng.random(cost.shape) < 0.15] = np.inf  # failures
    cost[5, :] = np.inf  # a problem nobody solves
    cost[7, 1] = cost[7, 0]  # a tie for the best
    with tempfile.TemporaryDirectory() as tmp:
        files = []
        for s, name in enumerate(solvers):
            lines = ["---", f"algname: {name}", "success: c", "free_format: True", "---"]
            for p in range(n):
                ok = np.isfinite(cost[p, s])
                lines.append(f"P{p:02d} {'c' if ok else 'd'} {cost[p, s] if ok else 1e9}")
            path = Path(tmp) / f"{name}.table"
            path.write_text("\n".join(lines) + "\n")
            files.append(str(path))
        prof = ProfileData(*files)
    out = {"cost": [[None if not np.isfinite(c) else float(c) for c in row] for row in cost],
           "solvers": list(solvers), "breakpoints": prof.breakpoints.tolist(),
           "cumulative": prof.cumulative.tolist()}
    (HERE / "perprof_reference.json").write_text(json.dumps(out, indent=1) + "\n")


def optuna_part(script: str) -> None:
    import numpy as np
    import optuna
    import pandas as pd

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    problems = {
        "sphere": lambda t: (t.suggest_float("x", -5, 5) ** 2 + t.suggest_float("y", -5, 5) ** 2),
        "rosenbrock": lambda t: ((1 - (x := t.suggest_float("x", -2, 2))) ** 2
                                 + 100 * (t.suggest_float("y", -1, 3) - x * x) ** 2),
        "step": lambda t: float(np.floor(abs(t.suggest_float("x", -10, 10)))
                                + np.floor(abs(t.suggest_float("y", -10, 10)))),
    }
    samplers = {"tpe": lambda s: optuna.samplers.TPESampler(seed=s, n_startup_trials=5),
                "cmaes": lambda s: optuna.samplers.CmaEsSampler(seed=s),
                "random": lambda s: optuna.samplers.RandomSampler(seed=s)}
    # a small RDB storage file, as Optuna writes it, for the reader
    storage_path = HERE / "optuna_studies.db"
    storage_path.unlink(missing_ok=True)
    for pname in ("sphere", "step"):
        for sname in ("tpe", "random"):
            for seed in range(2):
                study = optuna.create_study(study_name=f"{sname}/{pname}/{seed}",
                                            storage=f"sqlite:///{storage_path}",
                                            sampler=samplers[sname](seed))
                study.optimize(problems[pname], n_trials=8)
    # the partial reports: every study's trials_dataframe() with its learner, problem and run
    frames, rows = [], []
    for pname, f in problems.items():
        for sname, make in samplers.items():
            for seed in range(8):
                study = optuna.create_study(sampler=make(seed))
                study.optimize(f, n_trials=30)
                t = study.trials_dataframe(attrs=("number", "value", "state",
                                                  "datetime_start", "datetime_complete"))
                frames.append(t.assign(learner=sname, problem=pname, run=seed))
                for trial in study.trials:
                    rows.append({"problem": pname, "opt": sname, "uuid": f"{sname}-{seed}",
                                 "generalization": trial.value, "suggest": 0.0,
                                 "observe": 0.0})
    pd.concat(frames).to_csv(HERE / "optuna_trials.csv", index=False)
    frame = pd.DataFrame(rows)
    import importlib.util

    spec = importlib.util.spec_from_file_location("report_bayesmark", script)
    module = importlib.util.module_from_spec(spec)
    sys.modules["report_bayesmark"] = module
    spec.loader.exec_module(module)
    namespace = vars(module)
    metrics = [namespace["BestValueMetric"](), namespace["AUCMetric"]()]
    out = {"optuna": optuna.__version__, "problems": {}}
    for pname in problems:
        report = namespace["PartialReport"](frame[frame.problem == pname].drop(columns="problem")
                                            .reset_index(drop=True))
        ranker = namespace["DewanckerRanker"](metrics)
        ranker.rank(report)
        out["problems"][pname] = {"alpha": float(ranker.pick_alpha(report)),
                                  "ranking": list(ranker.solvers),
                                  "borda": [int(b) for b in ranker.borda]}
    (HERE / "optuna_reference.json").write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    part = sys.argv[1]
    if part == "ioh":
        ioh()
    elif part == "perprof":
        perprof()
    elif part == "cocopp":
        cocopp_part()
    elif part == "optuna":
        optuna_part(sys.argv[2])
    else:
        raise SystemExit("usage: make_curves_references.py ioh|cocopp|perprof|optuna"
                         " [REPORT_SCRIPT]")
