"""The bundled example ``eval-records``: part of the ``evals`` items (the first 30 items of its
code and arithmetic tasks, every model) written by rankwise as Every Eval Ever instance-level
records (schema 0.3.0), as a tool that writes that schema would hand them over.

    python tools/make_eval_records_example.py
"""

from pathlib import Path

import pandas as pd

import rankwise
from rankwise import ItemTable

frame = rankwise.load_items_example("evals").frame
keep = []
for task in ("code", "arith"):
    rows = frame[frame["task"] == task]
    keep.append(rows[rows["item"].isin(rows["item"].drop_duplicates().iloc[:30])])
small = ItemTable.from_frame(pd.concat(keep, ignore_index=True))
out = Path(__file__).parents[1] / "src" / "rankwise" / "examples" / "eval_records_samples.jsonl"
rankwise.write_every_eval_ever_items(small, out, timestamp="2026-12-07T00:00:00Z")
print(out, out.stat().st_size)
