"""Two samplers, two seeds each, on one problem: trials 3 and 6 are pruned, trial 5 fails, and the
first sampler's seed-1 study returns +inf once (a diverged run)."""
import math

import optuna
import pandas as pd

optuna.logging.set_verbosity(optuna.logging.WARNING)
storage = "sqlite:///studies.db"
frames = []
samplers = (("tpe", lambda seed: optuna.samplers.TPESampler(seed=seed, n_startup_trials=3)),
            ("random", lambda seed: optuna.samplers.RandomSampler(seed=seed)))
for sampler_name, make in samplers:
    for seed in (1, 2):
        def objective(trial):
            x = trial.suggest_float("x", -5, 5)
            if trial.number == 5:
                raise RuntimeError("the training crashed")
            if trial.number in (3, 6):
                trial.report(x * x, 1)
                raise optuna.TrialPruned()
            if trial.number == 7 and sampler_name == "tpe" and seed == 1:
                return math.inf
            return (x - 1.0) ** 2
        study = optuna.create_study(study_name=f"{sampler_name}/quadratic/{seed}",
                                    storage=storage, sampler=make(seed),
                                    direction="minimize")
        study.optimize(objective, n_trials=10, catch=(RuntimeError,))
        df = study.trials_dataframe(attrs=("number", "value", "datetime_start",
                                           "datetime_complete", "state"))
        df.insert(0, "run", seed)
        df.insert(0, "problem", "quadratic")
        df.insert(0, "learner", sampler_name)
        frames.append(df)
pd.concat(frames).to_csv("trials.csv", index=False)
