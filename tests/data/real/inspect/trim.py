"""Rewrites each log with inspect_ai's own writer (read_eval_log, write_eval_log), its samples
kept whole but for their event transcripts (the model calls, each a few KB), to keep the test
files small."""
import glob
import os

from inspect_ai.log import read_eval_log, write_eval_log

os.makedirs("trimmed", exist_ok=True)
for path in sorted(glob.glob("logs/*.eval") + glob.glob("logs-json/*.json")):
    log = read_eval_log(path)
    for sample in log.samples:
        sample.events = []
        sample.attachments = {}
    write_eval_log(log, os.path.join("trimmed", os.path.basename(path)))
