"""Writes the bundled vote log ``src/rankwise/examples/arena_votes.csv`` (``load_votes_example``).

Seven made-up models battle on 600 prompts in four categories: 3,000 votes, each between two
different models drawn at random and shown in a random order. Each model has a strength (a
Bradley-Terry log-odds scale) and a verbosity (the mean length of its answers in tokens); the
voter prefers the stronger answer and, a little, the longer one (the style effect that style
control removes): P(a wins, not a tie) = logistic(theta_a - theta_b + 0.3 log(len_a / len_b)).
A vote is a tie with probability 0.18, "both bad" when both models are weak. ``orca`` is #1,
``lumen`` close behind (a clear but not certain order); ``pico`` is much the weakest.
Deterministic: seed 6565.

    python tools/make_votes_example.py
"""

from pathlib import Path

import numpy as np
import pandas as pd

#: name -> (strength, mean answer length in tokens)
MODELS = {"orca": (0.80, 520), "lumen": (0.62, 640), "quill": (0.25, 410),
          "sable": (0.05, 700), "tarn": (-0.10, 380), "vireo": (-0.35, 450),
          "pico": (-0.95, 260)}
CATEGORIES = ("coding", "math", "writing", "chat")
N_VOTES, N_PROMPTS, STYLE, TIE = 3000, 600, 0.3, 0.18


def votes(seed: int = 6565) -> pd.DataFrame:
    """The log, one row per vote."""
    rng = np.random.default_rng(seed)
    names = np.array(list(MODELS))
    theta = np.array([s for s, _ in MODELS.values()])
    verbose = np.array([v for _, v in MODELS.values()], dtype=float)
    k = len(names)
    a = rng.integers(0, k, N_VOTES)
    b = (a + rng.integers(1, k, N_VOTES)) % k          # never the same model
    prompt = rng.integers(0, N_PROMPTS, N_VOTES)
    category = np.array(CATEGORIES)[rng.integers(0, len(CATEGORIES), N_PROMPTS)][prompt]
    len_a = np.round(verbose[a] * rng.lognormal(0, 0.35, N_VOTES)).astype(int)
    len_b = np.round(verbose[b] * rng.lognormal(0, 0.35, N_VOTES)).astype(int)
    p_a = 1 / (1 + np.exp(-(theta[a] - theta[b] + STYLE * np.log(len_a / len_b))))
    tie = rng.random(N_VOTES) < TIE
    bothbad = tie & (theta[a] + theta[b] < 0) & (rng.random(N_VOTES) < 0.6)
    winner = np.where(rng.random(N_VOTES) < p_a, "model_a", "model_b").astype(object)
    winner[tie] = "tie"
    winner[bothbad] = "tie (bothbad)"
    return pd.DataFrame({"question_id": [f"p{q:03d}" for q in prompt],
                         "model_a": names[a], "model_b": names[b], "winner": winner,
                         "category": category, "sum_assistant_a_tokens": len_a,
                         "sum_assistant_b_tokens": len_b})


def main():
    frame = votes()
    out = Path(__file__).resolve().parents[1] / "src/rankwise/examples/arena_votes.csv"
    frame.to_csv(out, index=False)
    print(out, len(frame), frame["winner"].value_counts().to_dict())


if __name__ == "__main__":
    main()
