"""Writes clean_battle.json and elo_reference.json with FastChat's own code (fschat 0.2.36).

Made-up arena server logs (the conv logs FastChat's gradio server appends one JSON line per
vote to: type leftvote/rightvote/tievote/bothbad_vote, models, states, ip, tstamp) are read by
``fastchat.serve.monitor.clean_battle_data.clean_battle_data`` (its language detector needs
polyglot, which is replaced by one answering "English"); the battles it returns are written as
its ``--mode simple`` writes them (conversations and question_id removed). Then
``fastchat.serve.monitor.elo_analysis.compute_elo_mle_with_tie`` fits its Bradley-Terry Elo
to the anonymous battles (as report_elo_analysis_results does) and the ratings are written:
as fschat 0.2.36 fits them (scikit-learn's default L2 penalty, C=1) and unpenalised.

    python -m venv fschat && fschat/bin/pip install fschat==0.2.36 pandas scikit-learn pytz
    fschat/bin/python make_clean_battle.py
"""

import json
import tempfile
from pathlib import Path

import importlib.util
import sys
import types

import numpy as np

# fastchat.model's __init__ loads torch and transformers (the model workers); the monitor only
# needs its model_registry, so the package is entered without running its __init__
import fastchat

stub = types.ModuleType("fastchat.model")
stub.__path__ = [str(Path(fastchat.__file__).parent / "model")]
sys.modules["fastchat.model"] = stub

import fastchat.serve.monitor.clean_battle_data as cbd  # noqa: E402
from fastchat.serve.monitor.elo_analysis import compute_elo_mle_with_tie  # noqa: E402

cbd.detect_language = lambda text: "English"
cbd.read_file_parallel = lambda files, num_threads=16: [r for f in files
                                                        for r in cbd.read_file(f)]

MODELS = {"atlas-7b": 0.9, "birch-13b": 0.5, "cobalt-2": 0.2, "dune-mini": -0.3,
          "ember-xl": -0.8}


def main():
    rng = np.random.default_rng(65)
    names = list(MODELS)
    theta = np.array(list(MODELS.values()))
    rows = []
    for i in range(400):
        a, b = rng.choice(len(names), 2, replace=False)
        p = 1 / (1 + np.exp(-(theta[a] - theta[b])))
        u = rng.random()
        vote = ("tievote" if u < 0.12 else "bothbad_vote" if u < 0.18 else
                "leftvote" if rng.random() < p else "rightvote")
        anony = i % 10 != 0            # every tenth battle with the names shown
        question = f"question number {i}"
        states = [{"model_name": names[m], "offset": 0, "conv_id": f"conv{i:04d}",
                   "messages": [["USER", question], ["ASSISTANT", f"answer {j} to {i}"]]}
                  for j, m in enumerate((a, b))]
        shown = ["", ""] if anony else [names[a], names[b]]
        if i == 7:                     # an answer that leaks a name: FastChat drops it
            states[1]["messages"][1][1] = "As an AI made by OpenAI ..."
        rows.append({"tstamp": 1733000000 + 60 * i, "type": vote, "models": shown,
                     "states": states, "ip": f"10.0.0.{i % 23}"})
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "2026-12-06-conv.json"
        log.write_text("".join(json.dumps(r) + "\n" for r in rows))
        battles = cbd.clean_battle_data([str(log)], [], sanitize_ip=True)
    for x in battles:
        for key in ("conversation_a", "conversation_b", "question_id"):
            del x[key]
    Path("clean_battle.json").write_text(json.dumps(battles, indent=2, ensure_ascii=False))
    import pandas as pd

    frame = pd.DataFrame(battles)
    anonymous = frame[frame["anony"]].reset_index(drop=True)
    rating = compute_elo_mle_with_tie(anonymous)
    # fschat 0.2.36 fits with scikit-learn's default L2 penalty (C=1); the unpenalised fit
    # (penalty=None, tol=1e-8, as FastChat's Chatbot Arena notebook fits it) is the MLE
    import sklearn.linear_model

    plain = sklearn.linear_model.LogisticRegression
    sklearn.linear_model.LogisticRegression = lambda **kw: plain(penalty=None, tol=1e-8, **kw)
    mle = compute_elo_mle_with_tie(anonymous)
    sklearn.linear_model.LogisticRegression = plain
    Path("elo_reference.json").write_text(json.dumps(
        {"fschat_default_l2": {m: float(r) for m, r in rating.items()},
         "unpenalised": {m: float(r) for m, r in mle.items()}}, indent=2) + "\n")
    print(len(battles), rating.round(2).to_dict(), mle.round(2).to_dict())


if __name__ == "__main__":
    main()
