"""The readers of other tools' item files: lm-evaluation-harness samples, inspect_ai logs,
HELM's per-instance stats and SWE-bench reports, each turned into the long table (model,
task, item, score, ...) that :func:`rankwise.tables.items.read_items` reads; what each one
leaves out or maps is said in ``notes``."""

from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path

import pandas as pd

from ..errors import RankwiseError

#: inspect_ai's letter values (its ``value_to_float``): correct, incorrect, partial, no answer.
INSPECT_VALUES = {"C": 1.0, "I": 0.0, "P": 0.5, "N": 0.0}


def _json_lines(p: Path):
    """The JSON objects of a samples file, one a line (gzip-compressed or not), or one line
    naming the file and where it breaks."""
    import gzip

    with open(p, "rb") as fh:
        packed = fh.read(2) == b"\x1f\x8b"
    try:
        with (gzip.open(p, "rt", encoding="utf-8") if packed else
              open(p, encoding="utf-8")) as fh:
            for number, line in enumerate(fh, 1):
                if line.strip():
                    try:
                        yield number, json.loads(line)
                    except json.JSONDecodeError as exc:
                        raise RankwiseError(f"{p}, line {number}: not JSON ({exc.msg}); an"
                                            f" lm-evaluation-harness samples file has one JSON"
                                            f" object per line") from None
    except (UnicodeDecodeError, OSError, EOFError) as exc:
        raise RankwiseError(f"{p}: cannot be read as UTF-8 JSON lines ({exc}); an"
                            f" lm-evaluation-harness samples file is UTF-8 text, plain or"
                            f" gzip-compressed") from None


#: lm-evaluation-harness record fields that are not per-item metrics.
_LM_EVAL_FIELDS = {"doc_id", "doc", "target", "arguments", "resps", "filtered_resps", "filter",
                   "metrics", "doc_hash", "prompt_hash", "target_hash"}


def _number(value):
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str) and value in INSPECT_VALUES:
        return INSPECT_VALUES[value]
    if isinstance(value, (list, tuple)) and len(value) == 2 and isinstance(value[0],
                                                                           (int, float)):
        return None     # a pair such as (prediction, reference): an aggregate-only metric
    return None


def lm_eval(p: Path, *, metric, filter, cluster, notes, filters=None):
    m = re.match(r"samples_(.+?)_(\d{4}-\d{2}-\d{2}T[\d.\-]+)\.jsonl$", p.name)
    task = m.group(1) if m else p.stem[len("samples_"):]
    model = _lm_eval_model(p)
    rows, seen, chosen = [], set(), metric
    other_filters = set()
    records = list(_json_lines(p))
    for number, rec in records:
        if not isinstance(rec, dict) or "doc_id" not in rec:
            raise RankwiseError(f"{p}, line {number}: no doc_id; not an lm-evaluation-harness"
                                f" samples record")
    logged = list(dict.fromkeys(rec.get("filter", "none") for _, rec in records))
    if filter is not None and filter not in logged and len(logged) > 1:
        raise RankwiseError(f"{p}: no record under filter {filter!r} (it logs"
                            f" {', '.join(logged)})")
    if filters is not None:
        filters.update(logged)
    # a task that logs one filter is read under it whatever --item-filter says (read_items
    # refuses a filter that no file logs)
    wanted = filter if filter in logged else logged[0] if logged else None
    first_filter = wanted
    for number, rec in records:
        filt = rec.get("filter", "none")
        if filt != wanted:
            other_filters.add(filt)
            continue
        if chosen is None or "," in chosen:
            names = rec.get("metrics") or [k for k, v in rec.items()
                                            if k not in _LM_EVAL_FIELDS and
                                            _number(v) is not None]
            if not names:
                raise RankwiseError(f"{p}, line {number}: no per-item metric in the record")
            wanted_metrics = [m.strip() for m in (chosen or "").split(",") if m.strip()]
            chosen = next((m for m in wanted_metrics if m in rec), None)
            if wanted_metrics and chosen is None:
                raise RankwiseError(f"{p}, line {number}: none of the metrics"
                                    f" {', '.join(wanted_metrics)} in the record (it has"
                                    f" {', '.join(names)})")
            chosen = chosen or names[0]
            if len(names) > 1 and not wanted_metrics:
                notes.append(f"lm-eval: metric {chosen!r} taken of {', '.join(names)}"
                             f" (choose with --metric)")
        if chosen not in rec:
            raise RankwiseError(f"{p}, line {number}: no metric {chosen!r} in the record (it has"
                                f" {', '.join(k for k in rec if k not in _LM_EVAL_FIELDS)})")
        value = _number(rec[chosen])
        if value is None:
            raise RankwiseError(f"{p}, line {number}: metric {chosen!r} is {rec[chosen]!r}, not"
                                f" a per-item score (a corpus-level metric); choose another"
                                f" with --metric")
        doc_id = rec["doc_id"]
        if doc_id in seen:
            raise RankwiseError(f"{p}, line {number}: document {doc_id} appears twice under"
                                f" filter {filt!r}")
        seen.add(doc_id)
        row = {"model": model, "task": task, "item": str(doc_id), "score": value}
        if cluster:
            doc = rec.get("doc") if isinstance(rec.get("doc"), dict) else {}
            if cluster not in doc:
                raise RankwiseError(f"{p}, line {number}: the document has no field"
                                    f" {cluster!r} to cluster on")
            row["cluster"] = str(doc[cluster])
        rows.append(row)
    if other_filters:
        notes.append(f"lm-eval: {task}: each document counted once, under filter"
                     f" {first_filter!r} (also logged:"
                     f" {', '.join(sorted(other_filters))}; choose with --filter)")
    if not rows:
        raise RankwiseError(f"{p}: no samples in the file")
    return pd.DataFrame(rows), chosen


def _lm_eval_model(p: Path) -> str:
    """lm-evaluation-harness writes a run's files into a folder named after the model (its
    ``model_name_sanitized``): the folder names the model, so two runs of one model are told
    apart by renaming their folders."""
    return p.parent.name


def _json_file(p: Path):
    """The JSON document in ``p``, or one line naming the file and the line where it breaks."""
    try:
        with open(p, encoding="utf-8") as fh:
            return json.load(fh)
    except json.JSONDecodeError as exc:
        raise RankwiseError(f"{p}, line {exc.lineno}: not JSON ({exc.msg})") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RankwiseError(f"{p}: cannot be read ({exc})") from None


def _inspect_value(value, metric, where):
    if isinstance(value, dict):
        if metric is None or metric not in value:
            raise RankwiseError(f"{where}: the score has several values"
                                f" ({', '.join(value)}); choose one with --metric")
        value = value[metric]
    out = _number(value)
    if out is None:
        raise RankwiseError(f"{where}: score {value!r} is not a number or one of C, I, P, N")
    return out


def inspect_log(p: Path, *, metric, filter, cluster, notes):
    if p.suffix == ".eval":
        try:
            with zipfile.ZipFile(p) as z:
                names = z.namelist()
                header = json.loads(z.read("header.json")) if "header.json" in names else \
                    json.loads(z.read("_journal/start.json"))
                samples = [json.loads(z.read(n)) for n in names
                           if n.startswith("samples/") and n.endswith(".json")]
        except (zipfile.BadZipFile, KeyError, json.JSONDecodeError) as exc:
            raise RankwiseError(f"{p}: not an inspect .eval log ({exc})") from None
    else:
        header = _json_file(p)
        if not isinstance(header, dict):
            raise RankwiseError(f"{p}: not an inspect log (a JSON object with eval and"
                                f" samples); it holds a {type(header).__name__}")
        samples = header.get("samples") or []
    ev = header.get("eval") or {}
    if not isinstance(ev, dict) or not isinstance(samples, list):
        raise RankwiseError(f"{p}: not an inspect log (eval is not an object or samples not a"
                            " list)")
    task, model = ev.get("task"), ev.get("model")
    if not task or not model:
        raise RankwiseError(f"{p}: no eval.task or eval.model; not an inspect log")
    if not samples:
        raise RankwiseError(f"{p}: the log has no samples (status"
                            f" {header.get('status', 'unknown')!r}); log them to compare items")
    rows, chosen = [], metric
    scorers = None
    for s in samples:
        scores = s.get("scores") or {}
        if not scores:
            raise RankwiseError(f"{p}: sample {s.get('id')!r} has no score")
        if scorers is None:
            scorers = list(scores)
        name = chosen if chosen in scores else scorers[0]
        if len(scorers) > 1 and chosen not in scores:
            notes.append(f"inspect: scorer {name!r} taken of {', '.join(scorers)}"
                         f" (choose with --metric)")
        sub = None if chosen in scores else chosen
        where = f"{p}: sample {s.get('id')!r}"
        if not isinstance(scores[name], dict) or "value" not in scores[name]:
            raise RankwiseError(f"{where}: its score {name!r} has no value")
        value = _inspect_value(scores[name]["value"], sub, where)
        epoch = s.get("epoch", 1)
        if isinstance(epoch, bool) or not isinstance(epoch, int):
            raise RankwiseError(f"{where}: epoch {epoch!r} is not a whole number")
        row = {"model": model, "task": task, "item": str(s.get("id")), "score": value,
               "repeat": epoch}
        if cluster:
            meta = s.get("metadata") or {}
            if cluster not in meta:
                raise RankwiseError(f"{p}: sample {s.get('id')!r} has no metadata"
                                    f" {cluster!r} to cluster on")
            row["cluster"] = str(meta[cluster])
        rows.append(row)
        chosen = chosen or name
    return pd.DataFrame(rows), chosen


def helm(p: Path, *, metric, filter, cluster, notes):
    spec_path = p.parent / "run_spec.json"
    model = task = None
    if spec_path.exists():
        spec = _json_file(spec_path)
        if not isinstance(spec, dict) or not isinstance(spec.get("adapter_spec") or {}, dict):
            raise RankwiseError(f"{spec_path}: not HELM's run spec (a JSON object with its"
                                " name and adapter_spec)")
        model = (spec.get("adapter_spec") or {}).get("model")
        task = spec.get("name")
        if task and "model=" in task:      # the run name holds the model too: drop it
            task = re.sub(r",?model=[^,]*", "", task).rstrip(":,")
    if not model or not task:
        name = p.parent.name
        found = re.search(r"model=([^,]+)", name)
        model = model or (found.group(1) if found else name)
        task = task or re.sub(r",?model=[^,]*", "", name).rstrip(":,")
    data = _json_file(p)
    if not isinstance(data, list):
        raise RankwiseError(f"{p}: not HELM's per-instance statistics (a list of instances)")
    rows, chosen = [], metric
    for entry in data:
        if entry.get("perturbation"):
            continue            # perturbed copies of an item are not new items
        stats_ = {}
        for st in entry.get("stats", []):
            name = st.get("name") or {}
            if name.get("perturbation") or not st.get("count"):
                continue
            stats_.setdefault(name.get("name"), st.get("sum", 0.0) / st["count"])
        if chosen is None:
            for preferred in ("exact_match", "quasi_exact_match", "prefix_exact_match"):
                if preferred in stats_:
                    chosen = preferred
                    break
            else:
                raise RankwiseError(f"{p}: no exact_match statistic; choose one with --metric"
                                    f" (they are {', '.join(sorted(stats_)[:8])}…)")
            notes.append(f"helm: statistic {chosen!r} taken (choose with --metric)")
        if chosen not in stats_:
            raise RankwiseError(f"{p}: instance {entry.get('instance_id')!r} has no statistic"
                                f" {chosen!r}")
        rows.append({"model": model, "task": task, "item": str(entry["instance_id"]),
                     "score": stats_[chosen], "repeat": int(entry.get("train_trial_index", 0))})
    if not rows:
        raise RankwiseError(f"{p}: no unperturbed instance")
    return pd.DataFrame(rows), chosen


def swe_bench(p: Path, *, metric, filter, cluster, notes):
    data = _json_file(p)
    if not isinstance(data, dict):
        raise RankwiseError(f"{p}: not a SWE-bench report (a JSON object of instance lists)")
    key = "resolved_ids" if "resolved_ids" in data else "resolved" if "resolved" in data else None
    if key is None:
        raise RankwiseError(f"{p}: no 'resolved_ids' or 'resolved' list; not a SWE-bench"
                            f" report")
    lists = {k: v for k, v in data.items() if isinstance(v, list) and
             all(isinstance(x, str) for x in v)}
    named = set().union(*lists.values())
    resolved = set(data[key])
    model = re.sub(r"\.json$", "", p.name)
    if p.name == "results.json":            # the experiments layout: <model>/results/results.json
        model = p.parent.parent.name if p.parent.name == "results" else p.parent.name
    elif key == "resolved_ids":             # the harness's <model>.<run_id>.json
        model = model.rsplit(".", 1)[0].replace("__", "/")
    task = "swe-bench"
    unresolved = named - resolved
    rows = [{"model": model, "task": task, "item": i, "score": float(i in resolved)}
            for i in sorted(named)]
    kinds = [f"{len(data.get(k, []))} {k.replace('_ids', '').replace('_', ' ')}"
             for k in ("unresolved_ids", "error_ids", "empty_patch_ids", "incomplete_ids")
             if data.get(k)]
    notes.append(f"swe-bench: {model}: {len(resolved)} resolved, {len(unresolved)} named but"
                 f" not resolved, scored 0" + (f" ({', '.join(kinds)})" if kinds else ""))
    return pd.DataFrame(rows), "resolved"


def swe_bench_missing(frame: pd.DataFrame, notes: list) -> pd.DataFrame:
    """An instance another model's report names but this one's does not was not in its run: it
    is missing, not unresolved (said)."""
    everything = set(frame["item"])
    for model, part in frame.groupby("model", sort=False):
        absent = everything - set(part["item"])
        if absent:
            notes.append(f"swe-bench: {model}: {len(absent)} instance(s) named by other reports"
                         f" are absent from its run: missing, not unresolved")
    return frame
