"""Writes model_judgment/scripted-judge/*.jsonl with arena-hard-auto's own judgment writer and
show_result_reference.json with its own show_result.load_judgments.

arena-hard-auto (github.com/lmarena/arena-hard-auto, commit 196f6b8, v2.0) asks an API judge;
here its registry of API completions gets one more entry, ``scripted``, a judge that answers
from the models' made-up strengths (seeded) in the judge's words ("My final verdict is ...
[[A>B]]"), so that ``gen_judgment.judgment`` writes its files exactly as with a real judge:
two games a question (the baseline as assistant A, then as B), its regular expressions
reading the verdict, a game the judge did not answer written as null, a verdict it cannot
read written with score null. The judged models answer 12 questions of category
``hard_prompt`` (baseline o3-mini-2025-01-31) and 4 of ``creative_writing`` (baseline
gemini-2.0-flash-001), the baselines of arena-hard-auto's ``JUDGE_SETTINGS``.

Each game's ``prompt`` (the judge's system prompt and the two answers, about 3 KB a game) is
then removed from the files; everything else is as written. ``load_judgments`` (extracted from
show_result.py, whose module imports torch for its style-controlled fit) turns the folder into
its battles (a strong verdict as 3) and their per-model mean score and count are written.

    python -m venv arenahard
    arenahard/bin/pip install pandas pyyaml shortuuid requests boto3 tqdm
    arenahard/bin/python make_judgments.py /path/to/arena-hard-auto
"""

import ast
import json
import shutil
import sys
from pathlib import Path

import numpy as np
import yaml

ROOT = Path(sys.argv[1] if len(sys.argv) > 1 else "/work/toolvenvs/arenahard-src")
sys.path.insert(0, str(ROOT))

import gen_judgment  # noqa: E402
from utils.completion import registered_api_completion  # noqa: E402

STRENGTH = {"o3-mini-2025-01-31": 0.0, "gemini-2.0-flash-001": -0.2, "alpha-chat": 0.6,
            "beta-chat": -0.1, "gamma-chat": -0.9}
LABELS = ("A>>B", "A>B", "A=B", "B>A", "B>>A")
rng = np.random.default_rng(6502)
calls = {"n": 0}


def scripted(messages, **_):
    """The judge: reads which models answered from the prompt, draws a verdict."""
    calls["n"] += 1
    if calls["n"] % 29 == 0:
        return None                        # the API gave up: the game is written as null
    text = messages[1]["content"]
    first = text.split("<|The Start of Assistant A's Answer|>\n")[1].split(" says")[0]
    second = text.split("<|The Start of Assistant B's Answer|>\n")[1].split(" says")[0]
    d = STRENGTH[first] - STRENGTH[second] + rng.normal(0, 0.8)
    label = LABELS[int(np.digitize(-d, [-1.2, -0.3, 0.3, 1.2]))]
    if calls["n"] % 31 == 0:
        return {"answer": "Both are fine, I cannot decide."}   # no verdict: score null
    return {"answer": f"Having compared them, my final verdict is: [[{label}]]"}


registered_api_completion["scripted"] = scripted


def main():
    configs = yaml.safe_load((ROOT / "config" / "arena-hard-v2.0.yaml").read_text())
    configs["judge_model"] = "scripted-judge"
    settings = {"api_type": "scripted", "endpoints": None}
    out = Path("model_judgment") / configs["judge_model"]
    shutil.rmtree("model_judgment", ignore_errors=True)
    out.mkdir(parents=True)
    questions = ([{"uid": f"hp{i:02d}", "category": "hard_prompt", "prompt": f"question {i}"}
                  for i in range(12)] +
                 [{"uid": f"cw{i:02d}", "category": "creative_writing",
                   "prompt": f"write {i}"} for i in range(4)])
    base = {"hard_prompt": "o3-mini-2025-01-31", "creative_writing": "gemini-2.0-flash-001"}

    def answer(model, q):
        return {"model": model, "messages": [{"role": "assistant", "content": {
            "answer": f"{model} says: an answer to {q['uid']}"}}]}

    for model in ("alpha-chat", "beta-chat", "gamma-chat"):
        for q in questions:
            gen_judgment.judgment({"question": q, "answer": answer(model, q),
                                   "baseline": answer(base[q["category"]], q),
                                   "reference": None, "configs": configs,
                                   "settings": settings,
                                   "output_file": str(out / f"{model}.jsonl")})
    for f in sorted(out.glob("*.jsonl")):
        rows = [json.loads(line) for line in f.read_text().splitlines()]
        for row in rows:
            for game in row["games"]:
                if game is not None:
                    game.pop("prompt", None)
        f.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    # show_result.load_judgments, without the module's torch import
    tree = ast.parse((ROOT / "show_result.py").read_text())
    source = next(ast.get_source_segment((ROOT / "show_result.py").read_text(), n)
                  for n in tree.body if isinstance(n, ast.FunctionDef)
                  and n.name == "load_judgments")
    import os
    from glob import glob

    import pandas as pd
    from tqdm import tqdm

    space = {"pd": pd, "os": os, "glob": glob, "tqdm": tqdm}
    exec(source, space)
    import tempfile

    here = Path.cwd()
    with tempfile.TemporaryDirectory() as tmp:   # it reads data/<benchmark>/model_judgment
        (Path(tmp) / "data" / "bench").mkdir(parents=True)
        (Path(tmp) / "data" / "bench" / "model_judgment").symlink_to(here / "model_judgment")
        os.chdir(tmp)
        battles = space["load_judgments"](["scripted-judge"], "bench", weight=3)
        os.chdir(here)
    battles["scores"] = battles["scores"].astype(float)
    summary = battles.groupby("model")["scores"].agg(["mean", "count"])
    Path("show_result_reference.json").write_text(json.dumps(
        {m: {"mean_score": float(r["mean"]), "battles": int(r["count"])}
         for m, r in summary.iterrows()}, indent=2) + "\n")
    print(summary)


if __name__ == "__main__":
    main()
