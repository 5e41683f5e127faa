"""The readers of other tools' item files: lm-evaluation-harness samples, inspect_ai logs,
HELM's per-instance stats and SWE-bench reports, each turned into the long table (model,
task, item, score, ...) that :func:`rankwise.tables.items.read_items` reads; what each one
leaves out or maps is said in ``notes``."""

from __future__ import annotations

import io
import json
import re
import struct
import sys
import zipfile
import zlib
from pathlib import Path

import pandas as pd

from ..errors import RankwiseError
from .._text import brief
from .eval_records import INSTANCE_REQUIRED, ITEM_METADATA, json_records, need, need_number

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
    except UnicodeDecodeError as exc:
        raise RankwiseError(f"{p}: not UTF-8 text (byte {exc.start}); lm-eval writes its samples"
                            " as UTF-8 JSON lines, plain or gzip-compressed") from None
    except (OSError, EOFError) as exc:
        raise RankwiseError(f"{p}: cannot be read ({brief(exc, p)}); lm-eval writes its samples"
                            " as UTF-8 JSON lines, plain or gzip-compressed") from None


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


def _lm_eval_task(p: Path) -> tuple:
    """``(task, timestamp)`` of a samples file ``samples_<task>_<timestamp>.jsonl``."""
    m = re.match(r"samples_(.+?)_(\d{4}-\d{2}-\d{2}T[\d.\-]+)\.jsonl$", p.name)
    return (m.group(1), m.group(2)) if m else (p.stem[len("samples_"):], "")


def lm_eval_runs(files: list, duplicates, notes: list) -> list:
    """The samples files, one per model folder and task: lm-eval writes a rerun's files beside
    the earlier run's, and two runs of a task are refused in one line naming the files, or
    ``duplicates`` (``last``, ``first``) keeps the newest or the oldest (said)."""
    if duplicates not in (None, "refuse", "last", "first"):
        raise RankwiseError(f"duplicates must be refuse, last or first; got {duplicates!r}")
    runs = {}
    for f in files:
        task, stamp = _lm_eval_task(f)
        runs.setdefault((f.parent, task), []).append((stamp, f))
    keep = []
    for (folder, task), found in runs.items():
        found.sort(key=lambda run: run[0])
        if len(found) > 1 and duplicates not in ("last", "first"):
            raise RankwiseError(f"{folder}: task {task!r} was run {len(found)} times into this"
                                f" model's folder ({', '.join(f.name for _, f in found)}): keep"
                                " the newest with --duplicates last (the oldest: --duplicates"
                                " first), or move the other file out of the folder")
        kept = found[-1 if duplicates == "last" else 0][1]
        if len(found) > 1:
            notes.append(f"lm-eval: {folder.name}: task {task!r} was run {len(found)} times;"
                         f" {'the newest' if duplicates == 'last' else 'the oldest'},"
                         f" {kept.name}, is read (--duplicates {duplicates})")
        keep.append(kept)
    return sorted(keep)


def lm_eval(p: Path, *, metric, filter, cluster, notes, filters=None):
    task = _lm_eval_task(p)[0]
    model = _lm_eval_model(p)
    rows, seen, chosen = [], set(), None
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
        if not rows:        # the first record read says which metric (never corpus-level)
            chosen = _lm_eval_metric(p, number, rec, metric, task, notes)
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
                     f" {', '.join(sorted(other_filters))}; choose with --item-filter)")
    if not rows:
        raise RankwiseError(f"{p}: no samples in the file")
    return pd.DataFrame(rows), chosen


#: lm-evaluation-harness metrics aggregated over a whole task, not averaged over documents: the
#: perplexities of loglikelihood tasks (lambada's ``perplexity``: each document's value is its
#: log-likelihood, the task's exp(−mean)) and of loglikelihood_rolling tasks (wikitext's
#: ``word_perplexity``, ``byte_perplexity``, ``bits_per_byte``: each document's value a
#: (log-likelihood, length) pair).
CORPUS_METRICS = frozenset({"perplexity", "word_perplexity", "byte_perplexity",
                            "bits_per_byte"})
#: Why a corpus-level metric is not read, as the notes and errors say it.
CORPUS_WHY = ("lm-eval aggregates {} over the whole task (a perplexity from the documents'"
              " summed log-likelihoods), so a document's value is no score to average")


class CorpusLevel(RankwiseError):
    """A samples file whose metrics are all corpus-level: :func:`rankwise.read_items` leaves
    its task out (said in the notes), or refuses when no task is left."""

    def __init__(self, task: str, metrics: list):
        self.task, self.metrics = task, list(metrics)
        super().__init__(f"task {task!r} has only corpus-level metrics"
                         f" ({', '.join(metrics)}): {CORPUS_WHY.format('them')}")


def _lm_eval_metric(p: Path, number: int, rec: dict, chosen, task: str, notes: list) -> str:
    """The per-item metric of an lm-eval record: the first of ``chosen`` (a comma-separated
    list) it has, or its first per-item one; corpus-level metrics are never taken."""
    names = rec.get("metrics") or [k for k, v in rec.items() if k not in _LM_EVAL_FIELDS and
                                   _number(v) is not None]
    if not names:
        raise RankwiseError(f"{p}, line {number}: no per-item metric in the record")
    per_item = [m for m in names if m in rec and m not in CORPUS_METRICS and
                _number(rec[m]) is not None]
    if not per_item:
        raise CorpusLevel(task, names)
    wanted = [m.strip() for m in (chosen or "").split(",") if m.strip()]
    if not wanted:
        corpus = [m for m in names if m not in per_item]
        if len(names) > 1:
            notes.append(f"lm-eval: metric {per_item[0]!r} taken of {', '.join(names)} (choose"
                         f" with --metric" + (f"; {task}'s {', '.join(corpus)}: corpus-level,"
                                              " not per item" if corpus else "") + ")")
        return per_item[0]
    found = next((m for m in wanted if m in rec), None)
    if found is None:
        which = (f"no metric {wanted[0]!r}" if len(wanted) == 1 else
                 f"none of the metrics {', '.join(wanted)}")
        raise RankwiseError(f"{p}, line {number}: {which} in the record (it has"
                            f" {', '.join(names)})")
    if found not in per_item:
        raise RankwiseError(f"{p}: {found!r} is a corpus-level metric of task {task!r}:"
                            f" {CORPUS_WHY.format('it')}; choose a per-item one with --metric"
                            f" (it has {', '.join(per_item)})")
    return found


def lm_eval_corpus(left_out: list, read: int, label: str, notes: list) -> None:
    """The tasks left out for their corpus-level metrics, said in the notes; one line when no
    task is left (``read``: the files read)."""
    if not left_out:
        return
    tasks = {e.task: e.metrics for e in left_out}
    named = "; ".join(f"{t}: {', '.join(m)}" for t, m in tasks.items())
    if not read:
        raise RankwiseError(f"{label}: every task has only corpus-level metrics ({named}):"
                            f" {CORPUS_WHY.format('them')}; rankwise compares per-item scores"
                            " (acc, exact_match, ...)")
    notes.append(f"lm-eval: left out {', '.join(tasks)}: only corpus-level metrics ({named}):"
                 f" {CORPUS_WHY.format('them')}")


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
        raise RankwiseError(f"{p}: cannot be read ({brief(exc, p)})") from None


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


#: The zip compression method of Zstandard, inspect_ai's default for ``.eval`` logs (Python's
#: zipfile reads it from 3.14 on; before, its members are read through ``zstandard``).
ZIP_ZSTANDARD = 93


def _zip_member(z: zipfile.ZipFile, raw, name: str) -> bytes:
    """The bytes of the member ``name``; one compressed with Zstandard is decompressed here
    where zipfile cannot (its local header read from ``raw``, the zip opened as bytes)."""
    info = z.getinfo(name)
    if info.compress_type != ZIP_ZSTANDARD or sys.version_info >= (3, 14):
        return z.read(info)
    try:
        import zstandard
    except ImportError:
        raise RankwiseError(f"{z.filename}: its members are compressed with Zstandard"
                            " (inspect_ai's default); reading them needs the zstandard package:"
                            " pip install zstandard") from None
    raw.seek(info.header_offset)
    head = raw.read(30)
    if len(head) < 30 or head[:4] != b"PK\x03\x04":
        raise zipfile.BadZipFile(f"no local header for {name}")
    skip = sum(struct.unpack("<HH", head[26:30]))         # its name and extra field
    raw.seek(info.header_offset + 30 + skip)
    try:
        data = zstandard.ZstdDecompressor().stream_reader(
            io.BytesIO(raw.read(info.compress_size)), read_across_frames=True).read()
    except zstandard.ZstdError as exc:
        raise zipfile.BadZipFile(f"{name}: {exc}") from None
    if zlib.crc32(data) != info.CRC:
        raise zipfile.BadZipFile(f"{name}: bad CRC-32")
    return data


def _eval_log(p: Path) -> tuple:
    """``(header, samples)`` of an inspect ``.eval`` log (a zip of ``header.json``, or of
    ``_journal/start.json`` while it runs, and ``samples/*.json``)."""
    try:
        with open(p, "rb") as raw, zipfile.ZipFile(raw) as z:
            names = z.namelist()
            header = json.loads(_zip_member(z, raw, "header.json" if "header.json" in names
                                            else "_journal/start.json"))
            samples = [json.loads(_zip_member(z, raw, n)) for n in names
                       if n.startswith("samples/") and n.endswith(".json")]
    except (zipfile.BadZipFile, KeyError, json.JSONDecodeError, NotImplementedError) as exc:
        raise RankwiseError(f"{p}: not an inspect .eval log ({brief(exc, p)})") from None
    return header, samples


def _unscored(s: dict) -> bool:
    """Whether a sample has no score: it errored (``fail_on_error=False`` keeps it in the log),
    or it was never scored (an ``inspect eval`` told not to score, a run cancelled before
    scoring)."""
    return bool(s.get("error")) or not s.get("scores")


def _error_message(sample: dict) -> str:
    error = sample["error"]
    return str(error.get("message", "") if isinstance(error, dict) else error).strip()[:80]


def _scored_only(p: Path, samples: list, missing: str, notes: list, where: str,
                 status) -> list:
    """The samples that have a score: one without is refused in one line that says what to do,
    or, with ``--missing common``, left out and counted in the notes."""
    unscored = [s for s in samples if _unscored(s)]
    if not unscored:
        return samples
    if len(unscored) == len(samples):
        raise RankwiseError(f"{p}: none of its {len(samples)} samples has a score (log status"
                            f" {status!r}); score the log (inspect score) or rerun it, then"
                            " read it again")
    n, one = len(unscored), len(unscored) == 1
    all_errored = all(s.get("error") for s in unscored)
    has = "has" if one else "have"
    first = unscored[0]
    if missing != "common":
        why = (f"errored and {has} no score (sample {first.get('id')!r}: {_error_message(first)})"
               if all_errored else
               f"{has} no score (sample {first.get('id')!r}; log status {status!r})")
        redo = (f"rerun {'it' if one else 'them'} (inspect eval-retry)" if all_errored
                else "score the log (inspect score)")
        raise RankwiseError(f"{p}: {n} of {len(samples)} samples {why}; give --missing common to"
                            f" leave {'it' if one else 'them'} out (counted in the notes), or"
                            f" {redo} and read the new log")
    ids = ", ".join(str(s.get("id")) for s in unscored[:5]) + (" ..." if n > 5 else "")
    notes.append(f"inspect: {where}: {n} of {len(samples)} samples"
                 f" {'errored' if all_errored else has + ' no score'} and"
                 f" {'is' if one else 'are'} left out (sample {ids}; --missing common)")
    return [s for s in samples if not _unscored(s)]


def inspect_log(p: Path, *, metric, filter, cluster, notes, missing="refuse"):
    if p.suffix == ".eval":
        header, samples = _eval_log(p)
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
    samples = _scored_only(p, samples, missing, notes, f"{model} on {task}",
                           header.get("status", "unknown"))
    rows, chosen = [], metric
    scorers = None
    for s in samples:
        scores = s["scores"]
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
    lists = _swe_bench_lists(p, data, key)
    named = set().union(*lists.values())
    resolved = set(lists[key])
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


def _swe_bench_lists(p: Path, data: dict, key: str) -> dict:
    """The report's lists of instance ids: a run report's ``*_ids`` lists (its other lists,
    ``unremoved_images`` and ``unstopped_containers``, name Docker images and containers), or
    every list of an experiments ``results.json``; one line for one that is not a list of ids."""
    if key == "resolved_ids":
        keys = [k for k in data if k.endswith("_ids")]
    else:
        keys = [k for k, v in data.items() if isinstance(v, list)] + [key]
    lists = {}
    for k in dict.fromkeys(keys):
        value = data[k]
        if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
            if k != key and key == "resolved":
                continue            # a list of something else in an experiments results.json
            what = ("a list of other things than ids" if isinstance(value, list) else
                    f"a string ({value[:40]!r})" if isinstance(value, str) else
                    f"a number ({value!r})" if isinstance(value, (int, float)) else
                    f"a {type(value).__name__}")
            raise RankwiseError(f"{p}: {k!r} is {what}, not a list of instance ids (as in"
                                f" \"{k}\": [\"django__django-11099\", ...]); not a SWE-bench"
                                f" report as the harness writes it")
        lists[k] = value
    return lists


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


# --------------------------------------------------------------------------- shared schemas
# Every Eval Ever's instance-level records and OpenEval's item records: the required fields
# each reader uses are checked, and a record without one is named by file, line and field.

def every_eval_ever_items(p: Path, *, metric, filter, cluster, notes):
    """Every Eval Ever instance-level records (``<uuid>_samples.jsonl``, schema 0.3.0): model =
    ``model_id``, task = ``evaluation_name``, item = ``sample_id``, score =
    ``evaluation.score``; ``metric`` chooses among the ``evaluation_result_id`` of a task that
    has several; a sample logged again for one model and result is a repeat, in file order
    (rankwise's own ``metadata["rankwise.repeat"]`` where written)."""
    what, wanted = "an Every Eval Ever instance record", None
    if metric is not None:
        wanted = {m.strip() for m in str(metric).split(",")}
    rows, results = [], {}
    for where, rec in json_records(p, "Every Eval Ever instance records", lines=True):
        if not isinstance(rec, dict):
            raise RankwiseError(f"{where}: not {what} (a JSON object)")
        for key in INSTANCE_REQUIRED:
            need(rec, key, where, what)
        need(rec, "evaluation.is_correct", where, what)
        result = str(rec.get("evaluation_result_id") or rec["evaluation_name"])
        if wanted is not None and result not in wanted:
            continue
        row = {"model": str(rec["model_id"]), "task": str(rec["evaluation_name"]),
               "item": str(rec["sample_id"]),
               "score": need_number(rec, "evaluation.score", where, what)}
        meta = rec.get("metadata") or {}
        for column, key in ITEM_METADATA.items():
            if key in meta:
                row[column] = meta[key]
        if cluster is not None:
            row["cluster"] = need(rec, f"metadata.{cluster}", where, what)
        results.setdefault(row["task"], set()).add(result)
        rows.append(row)
    if not rows:
        raise RankwiseError(f"{p}: no instance record" + (
            f" of the result {metric!r}" if metric is not None else ""))
    several = {t: r for t, r in results.items() if len(r) > 1}
    if several:
        task, ids = next(iter(several.items()))
        raise RankwiseError(f"{p}: the evaluation {task!r} holds several results"
                            f" ({', '.join(sorted(ids))}); choose one with --metric")
    return _as_trials(pd.DataFrame(rows), notes, p), metric


def _as_trials(frame: pd.DataFrame, notes: list, p: Path) -> pd.DataFrame:
    """Samples logged again for one model, task and item numbered as repeats (said in the
    notes), unless the records number them; repeat, weight as numbers."""
    for column in ("repeat", "weight"):
        if column in frame:
            frame[column] = pd.to_numeric(frame[column], errors="coerce")
    if "repeat" not in frame or frame["repeat"].isna().all():
        again = frame.groupby(["model", "task", "item"], sort=False).cumcount()
        if (again > 0).any():
            frame["repeat"] = again + 1
            notes.append(f"{p.name}: {int((again > 0).sum())} samples logged again for one"
                         " model and item: read as repeats, in the order of the file")
        elif "repeat" in frame:
            frame = frame.drop(columns="repeat")
    return frame


def openeval(p: Path, *, metric, filter, cluster, notes):
    """OpenEval item records (schema v0.1.0, open-eval/OpenEval's item_schema.json): one item
    with its responses, a JSON file (one item or a list) or JSON lines. Model =
    ``responses[].model.name``, task = ``item_metadata.source.benchmark_name``, item =
    ``item_id``, score = the value of a metric of ``responses[].scores`` (``--metric``, a
    comma-separated list taking the first each response has; default: each task's first
    listed, said in the notes); several responses of one model to an item are repeats."""
    what = "an OpenEval item"
    wanted = None if metric is None else [m.strip() for m in str(metric).split(",")]
    rows, chosen = [], {}
    for where, rec in json_records(p, "OpenEval items", lines=True):
        item = str(need(rec, "item_id", where, what))
        task = str(need(rec, "item_metadata.source.benchmark_name", where, what))
        responses = need(rec, "responses", where, what)
        for number, resp in enumerate(responses if isinstance(responses, list) else []):
            at = f"{where}, responses[{number}]"
            model = str(need(resp, "model.name", at, "a response"))
            scores = {}
            for k, s in enumerate(need(resp, "scores", at, "a response")):
                name = str(need(s, "metric.name", f"{at}.scores[{k}]", "a score"))
                scores.setdefault(name, need_number(s, "value", f"{at}.scores[{k}]",
                                                    "a score"))
            take = _openeval_metric(scores, wanted, chosen, task, at)
            rows.append({"model": model, "task": task, "item": item, "score": scores[take]})
    if not rows:
        raise RankwiseError(f"{p}: no OpenEval response to read")
    if wanted is None:
        notes += [f"openeval: metric {m!r} taken for {t} (choose with --metric)"
                  for t, m in chosen.items()]
    return _as_trials(pd.DataFrame(rows), notes, p), ",".join(dict.fromkeys(chosen.values()))


def _openeval_metric(scores: dict, wanted, chosen: dict, task: str, where: str) -> str:
    if wanted is not None:
        take = next((m for m in wanted if m in scores), None)
        if take is None:
            raise RankwiseError(f"{where}: no score of the metric {', '.join(wanted)} (it has"
                                f" {', '.join(scores) or 'none'})")
        chosen.setdefault(task, take)
        return take
    take = chosen.setdefault(task, next(iter(scores), None))
    if take is None or take not in scores:
        raise RankwiseError(f"{where}: no score of the metric {take!r}, which the task {task!r}"
                            f" is read on; choose a metric every response has with --metric")
    return take
