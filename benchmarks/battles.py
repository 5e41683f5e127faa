"""Vote logs (issue 65): the Bradley–Terry bootstrap of an arena-sized log. k = 200 models,
3 million votes (15 % ties), 1,000 bootstrap rounds over battles, as a fresh process:
``cells`` + the point ``fit`` + ``bootstrap``. Targets: ≤ 60 s and ≤ 2 GB peak memory (the
process's maximum resident set) on 2 cores.

Beside it, FastChat's published bootstrap (``get_bootstrap_result`` with the pivot-table
``compute_mle_elo``: ``battles.sample(frac=1.0, replace=True)`` then three pivot tables and
scikit-learn's LogisticRegression on 2·k·(k − 1) rows, every round), reimplemented with pandas +
scikit-learn as it is, on the same log, for a few rounds only; its time per round is
extrapolated to 1,000 rounds and printed as a ratio (said so in the output).

    python benchmarks/battles.py [--models 200] [--votes 3000000] [--rounds 1000]
                                 [--fastchat-rounds 2]
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import _timing  # noqa: F401  (compiled bytecode for every process, as an install has)

OURS = """
import json, resource, sys, time
import numpy as np
from rankwise.stats.battles import bootstrap, cells, fit
log = np.load(sys.argv[1])
start = time.perf_counter()
c = cells(log["a"], log["b"], log["outcome"])
point = fit(c)
draws = bootstrap(c, rounds=int(sys.argv[2]), seed=0)
seconds = time.perf_counter() - start
print(json.dumps({"seconds": seconds, "peak_mb": resource.getrusage(
    resource.RUSAGE_SELF).ru_maxrss / 1024, "cells": int(c.n.size),
    "width": float(np.mean(np.quantile(draws, 0.975, 0) - np.quantile(draws, 0.025, 0)))}))
"""


def vote_log(models: int, votes: int, seed: int = 65) -> dict:
    """Random ordered pairs, outcomes from Bradley–Terry strengths N(0, 1), 15 % ties."""
    rng = np.random.default_rng(seed)
    theta = rng.normal(0.0, 1.0, models)
    a = rng.integers(0, models, votes)
    b = (a + rng.integers(1, models, votes)) % models
    p = 1.0 / (1.0 + np.exp(theta[b] - theta[a]))
    outcome = np.where(rng.random(votes) < 0.15, 2, np.where(rng.random(votes) < p, 0, 1))
    return {"a": a, "b": b, "outcome": outcome.astype(np.int8)}


def fastchat_compute_mle_elo(df, SCALE=400, BASE=10, INIT_RATING=1000):  # noqa: N803
    """FastChat's ``compute_mle_elo`` (pivot tables, LogisticRegression with penalty=None,
    tol=1e-6), as published; the anchor model it names is not in this log."""
    import warnings

    import pandas as pd
    from sklearn.linear_model import LogisticRegression

    ptbl_a_win = pd.pivot_table(df[df["winner"] == "model_a"], index="model_a",
                                columns="model_b", aggfunc="size", fill_value=0)
    if sum(df["winner"].isin(["tie", "tie (bothbad)"])) == 0:
        ptbl_tie = pd.DataFrame(0, index=ptbl_a_win.index, columns=ptbl_a_win.columns)
    else:
        ptbl_tie = pd.pivot_table(df[df["winner"].isin(["tie", "tie (bothbad)"])],
                                  index="model_a", columns="model_b", aggfunc="size",
                                  fill_value=0)
        ptbl_tie = ptbl_tie + ptbl_tie.T
    ptbl_b_win = pd.pivot_table(df[df["winner"] == "model_b"], index="model_a",
                                columns="model_b", aggfunc="size", fill_value=0)
    ptbl_win = ptbl_a_win * 2 + ptbl_b_win.T * 2 + ptbl_tie
    models = pd.Series(np.arange(len(ptbl_win.index)), index=ptbl_win.index)
    p = len(models)
    X = np.zeros([p * (p - 1) * 2, p])  # noqa: N806
    Y = np.zeros(p * (p - 1) * 2)  # noqa: N806
    cur_row = 0
    sample_weights = []
    for m_a in ptbl_win.index:
        for m_b in ptbl_win.columns:
            if m_a == m_b:
                continue
            if math.isnan(ptbl_win.loc[m_a, m_b]) or math.isnan(ptbl_win.loc[m_b, m_a]):
                continue
            X[cur_row, models[m_a]] = +math.log(BASE)
            X[cur_row, models[m_b]] = -math.log(BASE)
            Y[cur_row] = 1.0
            sample_weights.append(ptbl_win.loc[m_a, m_b])
            X[cur_row + 1, models[m_a]] = math.log(BASE)
            X[cur_row + 1, models[m_b]] = -math.log(BASE)
            Y[cur_row + 1] = 0.0
            sample_weights.append(ptbl_win.loc[m_b, m_a])
            cur_row += 2
    X = X[:cur_row]  # noqa: N806
    Y = Y[:cur_row]  # noqa: N806
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)   # penalty=None, deprecated in 1.8
        lr = LogisticRegression(fit_intercept=False, penalty=None, tol=1e-6)
        lr.fit(X, Y, sample_weight=sample_weights)
    elo_scores = SCALE * lr.coef_[0] + INIT_RATING
    return pd.Series(elo_scores, index=models.index).sort_values(ascending=False)


def fastchat_bootstrap(battles, num_round):
    """FastChat's ``get_bootstrap_result`` (without its progress bar)."""
    import pandas as pd

    rows = []
    for _ in range(num_round):
        tmp_battles = battles.sample(frac=1.0, replace=True)
        rows.append(fastchat_compute_mle_elo(tmp_battles))
    df = pd.DataFrame(rows)
    return df[df.median().sort_values(ascending=False).index]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models", type=int, default=200)
    parser.add_argument("--votes", type=int, default=3_000_000)
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--fastchat-rounds", type=int, default=2)
    args = parser.parse_args()
    log = vote_log(args.models, args.votes)
    print(f"battles: k = {args.models} models, {args.votes:,} votes, {args.rounds:,} bootstrap"
          " rounds over battles (ties as half)", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "log.npz"
        np.savez(path, **log)
        done = subprocess.run([sys.executable, "-c", OURS, str(path), str(args.rounds)],
                              capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"the rankwise run failed:\n{done.stderr}")
    ours = json.loads(done.stdout.strip().splitlines()[-1])
    print(f"rankwise: {ours['seconds']:.1f} s (goal <= 60 s), peak {ours['peak_mb']:,.0f} MB"
          f" (goal <= 2,048 MB), {ours['cells']:,} cells, mean 95 % width"
          f" {ours['width']:.1f} Elo", flush=True)
    if args.fastchat_rounds < 1:
        return
    import pandas as pd

    names = np.array([f"model-{i:03d}" for i in range(args.models)])
    frame = pd.DataFrame({"model_a": names[log["a"]], "model_b": names[log["b"]],
                          "winner": np.array(["model_a", "model_b", "tie"])[log["outcome"]]})
    np.random.seed(42)          # FastChat seeds numpy's global generator so
    start = time.perf_counter()
    fastchat_bootstrap(frame, args.fastchat_rounds)
    per_round = (time.perf_counter() - start) / args.fastchat_rounds
    whole = per_round * args.rounds
    print(f"FastChat get_bootstrap_result (pandas + scikit-learn): {per_round:.1f} s a round,"
          f" measured on {args.fastchat_rounds} rounds and extrapolated to {args.rounds:,}:"
          f" {whole:,.0f} s = {whole / ours['seconds']:.0f}x rankwise")


if __name__ == "__main__":
    main()
