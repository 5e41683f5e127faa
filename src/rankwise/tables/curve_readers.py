"""The readers of other tools' curve files: IOHprofiler folders (IOHexperimenter's logger) and
Optuna storages and trials tables, each turned into the logged points (one entry per point:
learner, problem, run, budget, value) that :func:`rankwise.tables.curves.build` makes
:class:`~rankwise.tables.curves.Curves` of. A file that is damaged, locked or not what it says
is one line naming it."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import RankwiseError
from .tool_notes import infinite_values, ioh_value, trials_left_out
from .._text import brief


def _ioh_blocks(path: Path) -> list:
    """The runs of one IOHprofiler ``.dat`` file: a header line starts each."""
    runs, rows, header = [], None, None
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RankwiseError(f"{path}: cannot be read as an IOHprofiler data file"
                            f" ({brief(exc, path)})") from None
    for line in text.splitlines():
        if not line.strip():
            continue
        if line.startswith("evaluations") or not (line[0].isdigit() or line[0] in "-+."):
            if rows is not None:
                runs.append((header, rows))
            header, rows = line.replace('"', "").split(), []
            continue
        if rows is None:
            raise RankwiseError(f"{path}: numbers before the first header line; not an"
                                " IOHprofiler data file")
        rows.append(line.split())
    if rows is not None:
        runs.append((header, rows))
    return runs


def _ioh_points(dat: Path, header, rows, criterion=None, notes=None) -> np.ndarray:
    """One run's (evaluations, objective) rows as numbers, or one line naming the file (the
    objective: raw_y, or the one ``criterion`` names where the file logs several)."""
    if "evaluations" not in header or not ({"raw_y", criterion} & set(header)):
        raise RankwiseError(f"{dat}: a run's header has no evaluations and raw_y columns"
                            f" ({' '.join(header)[:60]})")
    e = header.index("evaluations")
    y = header.index(ioh_value(header, criterion, str(dat), [] if notes is None else notes))
    try:
        return np.array([[float(r[e]), float(r[y])] for r in rows]).reshape(-1, 2)
    except (ValueError, IndexError):
        bad = next(r for r in rows if len(r) <= max(e, y) or not _numbers(r[e], r[y]))
        raise RankwiseError(f"{dat}: the row {' '.join(bad)[:60]!r} is not numbers under"
                            f" {' '.join(header)[:60]}") from None


def _numbers(*texts) -> bool:
    try:
        [float(t) for t in texts]
    except ValueError:
        return False
    return True


def _ioh_meta(f: Path) -> dict:
    try:
        meta = json.loads(f.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise RankwiseError(f"{f}, line {exc.lineno}: not JSON ({exc.msg})") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RankwiseError(f"{f}: cannot be read ({brief(exc, f)})") from None
    if not isinstance(meta, dict) or not isinstance(meta.get("scenarios", []), list):
        raise RankwiseError(f"{f}: not an IOHprofiler description (a JSON object with its"
                            " scenarios)")
    return meta


def ioh(p: Path, *, criterion=None, notes=None) -> dict:
    """The logged points of an IOHprofiler folder or description, as :func:`build`'s
    arguments."""
    files = sorted(p.rglob("IOHprofiler_*.json")) if p.is_dir() else [p]
    if not files:
        raise RankwiseError(f"{p}: no IOHprofiler_*.json file (IOHexperimenter's logger writes"
                            " one beside each data_f* folder)")
    cols = {k: [] for k in ("learner", "problem", "run", "budget", "value", "final")}
    maximize, dims = set(), {}
    for f in files:
        meta = _ioh_meta(f)
        alg = meta.get("algorithm", {})
        alg = alg.get("name") if isinstance(alg, dict) else str(alg)
        maximize.add(bool(meta.get("maximization", False)))
        for scen in meta.get("scenarios", ()):
            if not isinstance(scen, dict) or "path" not in scen or "dimension" not in scen:
                raise RankwiseError(f"{f}: a scenario without its path and dimension")
            dat = f.parent / scen["path"]
            if not dat.exists():
                raise RankwiseError(f"{f}: its data file {scen['path']} is missing")
            problem = f"{meta.get('function_name', meta.get('function_id'))}-{scen['dimension']}D"
            dims[problem] = scen["dimension"]
            blocks = _ioh_blocks(dat)
            if len(blocks) != len(scen.get("runs", blocks)):
                raise RankwiseError(f"{dat}: {len(blocks)} runs in the file, {len(scen['runs'])}"
                                    f" in {f.name}")
            for i, ((header, rows), run) in enumerate(zip(blocks, scen.get("runs", blocks))):
                data = _ioh_points(dat, header, rows, criterion, notes)
                n = len(data)
                cols["learner"] += [alg] * n
                cols["problem"] += [problem] * n
                cols["run"] += [f"{f.parent.name}:{i}"] * n
                cols["budget"] += data[:, 0].tolist()
                cols["value"] += data[:, 1].tolist()
                evals = run.get("evals") if isinstance(run, dict) else None
                cols["final"] += [_number(evals, dat)] * n
    if len(maximize) > 1:
        raise RankwiseError(f"{p}: some functions are maximised and some minimised; read them"
                            " apart")
    if not cols["budget"]:
        raise RankwiseError(f"{p}: no logged point in its IOHprofiler files")
    problems = tuple(dict.fromkeys(cols["problem"]))
    return dict(cols, maximize=maximize.pop(), budget_name="evaluations",
                dimensions=[dims[q] for q in problems], problems=problems)


def _number(value, where) -> float:
    if value is None:
        return np.nan
    try:
        return float(value)
    except (TypeError, ValueError):
        raise RankwiseError(f"{where}: a run's evals {value!r} is not a number") from None


def _optuna_tables(p: Path) -> tuple:
    """The studies, their user attributes and directions, and the complete trials' first
    values of an Optuna storage, or one line: not one, damaged, or locked by a writer."""
    try:
        con = sqlite3.connect(f"file:{p}?mode=ro", uri=True, timeout=1.0)
        try:
            studies = pd.read_sql("select study_id, study_name from studies", con)
            attrs = pd.read_sql("select study_id, key, value_json from study_user_attributes",
                                con)
            dirs = pd.read_sql("select study_id, objective, direction from study_directions",
                               con)
            # an infinite value is stored as NULL, its sign in value_type (since Optuna 3.0)
            kind = ("v.value_type" if "value_type" in {r[1] for r in con.execute(
                "pragma table_info(trial_values)")} else "'FINITE' as value_type")
            trials = pd.read_sql(
                "select t.study_id, t.number, t.datetime_start, t.datetime_complete, v.value,"
                f" {kind} from trials t join trial_values v on v.trial_id = t.trial_id"
                " where t.state = 'COMPLETE' and v.objective = 0", con)
            states = pd.read_sql("select state from trials where state != 'COMPLETE'", con)
        finally:
            con.close()
    except (sqlite3.Error, pd.errors.DatabaseError) as exc:
        why = "locked by another program; try again when it is done" if "locked" in str(exc) \
            else f"not an Optuna storage file, or damaged ({brief(exc, p)})"
        raise RankwiseError(f"{p}: {why}") from None
    return studies, attrs, dirs, trials, states


def _study_labels(p: Path, studies, attrs) -> dict:
    """Each study's (learner, problem, run): from its user attributes, else its name."""
    labels = {}
    for sid, name in zip(studies.study_id, studies.study_name):
        a = {}
        for key, value in zip(attrs.key[attrs.study_id == sid],
                              attrs.value_json[attrs.study_id == sid]):
            try:
                a[key] = json.loads(value)
            except (TypeError, json.JSONDecodeError):
                raise RankwiseError(f"{p}: study {name!r}: its user attribute {key!r} is not"
                                    f" JSON ({str(value)[:40]!r}); the storage is damaged")\
                    from None
        if {"learner", "problem"} <= set(a):
            labels[sid] = (str(a["learner"]), str(a["problem"]), str(a.get("run", name)))
            continue
        parts = str(name).split("/")
        if len(parts) not in (2, 3):
            raise RankwiseError(f"{p}: study {name!r} does not say its learner and problem; name"
                                " studies learner/problem/run or set the study user attributes"
                                " learner, problem and run")
        labels[sid] = (parts[0], parts[1], parts[2] if len(parts) == 3 else name)
    return labels


def optuna_db(p: Path, *, budget: str, notes: list) -> dict:
    """The complete trials of an Optuna storage, as :func:`build`'s arguments."""
    studies, attrs, dirs, trials, states = _optuna_tables(p)
    if dirs.empty or studies.empty:
        raise RankwiseError(f"{p}: the storage records no study direction (minimize or"
                            " maximize); it is damaged or was not written by Optuna")
    if dirs.objective.max() > 0:
        notes.append("multi-objective studies: the first objective is used")
    dirs = dirs[dirs.objective == 0].set_index("study_id").direction
    if dirs.nunique() > 1:
        raise RankwiseError(f"{p}: some studies minimise and some maximise; read them apart")
    labels = _study_labels(p, studies, attrs)
    notes += trials_left_out(states.state)
    if trials.empty:
        raise RankwiseError(f"{p}: no complete trial in any study")
    unknown = set(trials.study_id) - set(dirs.index)
    if unknown:
        raise RankwiseError(f"{p}: {len(unknown)} studies with trials record no direction;"
                            " the storage is damaged")
    trials = trials.sort_values(["study_id", "number"])
    inf = trials.value_type.isin(("INF_POS", "INF_NEG")).to_numpy()
    study = dict(zip(studies.study_id, studies.study_name))
    notes += infinite_values(trials.value_type[inf].map({"INF_POS": np.inf, "INF_NEG": -np.inf}),
                             [f"study {study[s]} trial {n}" for s, n in
                              zip(trials.study_id[inf], trials.number[inf])])
    if budget == "trials":
        b = trials.groupby("study_id").cumcount().to_numpy() + 1.0
        name = "trials"
    elif budget == "seconds":
        start = pd.to_datetime(trials.datetime_start, errors="coerce")
        done = pd.to_datetime(trials.datetime_complete, errors="coerce")
        first = start.groupby(trials.study_id).transform("min")
        b = (done - first).dt.total_seconds().to_numpy()
        name = "seconds"
    else:
        raise RankwiseError(f"Optuna budget {budget!r}: use trials or seconds")
    lab = np.array([labels[s] for s in trials.study_id], dtype=object)
    return dict(learner=lab[:, 0], problem=lab[:, 1], run=lab[:, 2], budget=b,
                value=pd.to_numeric(trials.value, errors="coerce").to_numpy(dtype=float),
                maximize=str(dirs.iloc[0]).upper() == "MAXIMIZE", budget_name=name)


def optuna_frame(frame: pd.DataFrame, *, budget: str, source: str, notes: list,
                 maximize=None) -> pd.DataFrame:
    """A trials table (``study.trials_dataframe()`` rows with learner and problem columns) as
    a long table of curves: its keys, ``budget`` and ``value``."""
    absent = [c for c in ("number", "value") + (("datetime_start", "datetime_complete")
                                                if budget == "seconds" else ())
              if c not in frame.columns]
    if absent:
        raise RankwiseError(f"{source}: not an Optuna trials table (study.trials_dataframe()):"
                            f" no column {', '.join(absent)}; for a table of curves leave out"
                            " --source optuna")
    if "state" in frame.columns:
        done = frame.state.astype(str).str.upper().str.endswith("COMPLETE")
        notes += trials_left_out(frame.state[~done])
        frame = frame[done]
        if frame.empty:
            raise RankwiseError(f"{source}: no complete trial (every one failed, was pruned or"
                                " is running)")
    if maximize is None:
        raise RankwiseError(f"{source}: trials_dataframe() does not record the direction; say"
                            " --higher-is-better or --lower-is-better")
    frame = frame.copy()
    keys = [c for c in ("learner", "problem", "run") if c in frame.columns]
    if len(keys) < 2:
        raise RankwiseError(f"{source}: add learner and problem columns (and run) to the rows"
                            " of study.trials_dataframe() before concatenating the studies")
    frame = frame.sort_values(keys + ["number"])
    value = pd.to_numeric(frame["value"], errors="coerce")
    inf = np.isinf(value.to_numpy(dtype=float))
    notes += infinite_values(value[inf], [f"{'/'.join(map(str, k))} trial {n}" for k, n in
                                          zip(frame.loc[inf, keys].to_numpy().tolist(),
                                              frame.number[inf])])
    if budget == "trials":
        frame["budget"] = frame.groupby(keys).cumcount().to_numpy() + 1.0
    else:
        start = pd.to_datetime(frame.datetime_start, errors="coerce")
        frame["budget"] = (pd.to_datetime(frame.datetime_complete, errors="coerce")
                           - start.groupby([frame[k] for k in keys]).transform("min")
                           ).dt.total_seconds()
    return frame.loc[~inf, keys + ["budget", "value"]]
