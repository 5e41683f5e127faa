"""Writes mt_bench_reference.json: FastChat's own win/loss/tie counts of gpt-4_pair.jsonl.

Runs ``fastchat.llm_judge.show_result.display_result_pairwise`` (fschat 0.2.36) in its
``pairwise-all`` mode on the file beside this one and keeps the table it prints (its pandas
frame, captured by wrapping its print).

    fschat/bin/python make_mt_bench_reference.py
"""

import argparse
import builtins
import json

import pandas as pd

from fastchat.llm_judge import show_result

printed = []
original = builtins.print
builtins.print = lambda *args, **kw: printed.extend(a for a in args if isinstance(a, pd.DataFrame))
show_result.display_result_pairwise(argparse.Namespace(
    input_file="gpt-4_pair.jsonl", bench_name="mt_bench", judge_model="gpt-4",
    baseline_model=None, model_list=None))
builtins.print = original
table = printed[-1]
with open("mt_bench_reference.json", "w") as fh:
    json.dump({m: {c: int(table.loc[m, c]) for c in ("win", "loss", "tie")}
               for m in table.index}, fh, indent=2)
    fh.write("\n")
print(table)
