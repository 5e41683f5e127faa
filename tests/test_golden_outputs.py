"""Every output of the paper examples, the bundled examples and a seeded table of 30 learners,
for every report format and a range of option combinations.

The rounded formats (text, Markdown, LaTeX, HTML) are kept byte for byte: the SHA-256 of each is
recorded in ``tests/golden/outputs.json``. The JSON and ``pairs.csv`` carry every float at full
precision, whose last bits differ between CPUs (the same numpy and scipy give other last bits on
another machine): they are recorded whole in ``tests/golden/values/`` and compared value by
value, keys and strings exactly and numbers to a relative 1e-12, so the test holds on any CPU
and still fails on every real change (a test perturbs every float by one ulp, and changes one
by 1e-9).

After a deliberate change, regenerate with
``RANKWISE_REGENERATE_GOLDEN=1 python -m pytest -n 0 tests/test_golden_outputs.py`` and say in
the CHANGELOG what changed; a restructuring of the code must leave every output as it is.
"""

import csv
import gzip
import hashlib
import io
import json
import math
import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from rankwise import compare, load_example
from rankwise.names import REPORT_FORMATS
from rankwise.report import render
from rankwise.report.pairs import pairs_csv

GOLDEN = Path(__file__).parent / "golden" / "outputs.json"
VALUES = Path(__file__).parent / "golden" / "values"
#: Outputs with full-precision floats, compared value by value (the others byte for byte).
BY_VALUE = ("json", "pairs.csv")
#: Two recorded and computed numbers agree within this relative difference.
RELATIVE = 1e-12
REGENERATE = os.environ.get("RANKWISE_REGENERATE_GOLDEN") == "1"


def _seeded30():
    rng = np.random.default_rng(30)
    x = np.round(0.7 + np.linspace(0, 0.05, 30)[None, :] + rng.normal(0, 0.03, (40, 30)), 3)
    return pd.DataFrame(x, index=[f"ds{i:02d}" for i in range(40)],
                        columns=[f"cfg{j:02d}" for j in range(30)])


INPUTS = {
    "garcia2008": lambda: load_example("garcia2008"),
    "garcia2010": lambda: load_example("garcia2010"),
    "demsar2006_table2": lambda: load_example("demsar2006_table2"),
    "demsar2006_table6": lambda: load_example("demsar2006_table6"),
    "folds_demo": lambda: load_example("folds_demo", criterion="accuracy"),
    "amlb": lambda: load_example("amlb", criterion="result", missing="drop-datasets"),
    "holes_sm": lambda: compare_input_holes(),
    "amlb_older": lambda: load_example("amlb_older", criterion="result", missing="worst"),
    "amlb_reruns": lambda: load_example("amlb_reruns", where="constraint=1h8c_gp3"),
    "openml": lambda: load_example("openml"),
    "mlr3": lambda: load_example("mlr3", criterion="classif.ce"),
    "seeded30": lambda: compare_input_seeded30(),
}


def compare_input_holes():
    """García et al.'s table with two cells removed, kept for the Skillings-Mack test."""
    from rankwise import load_table

    t = load_example("garcia2010")
    frame = pd.DataFrame(t.values, index=list(t.datasets), columns=list(t.learners))
    frame.iloc[3, 1] = frame.iloc[10, 2] = np.nan
    return load_table(frame, missing="skillings-mack", criterion="accuracy")


def compare_input_seeded30():
    from rankwise import load_table

    return load_table(_seeded30())


OPTIONS = {
    "default": {},
    "all": {"posthoc": "all"},
    "both_paper": {"posthoc": "both", "convention": "paper"},
    "rankings": {"posthoc": "all", "rankings": "friedman,friedman_aligned,quade,wilcoxon,sign",
                 "procedures": "nemenyi,holm,shaffer"},
    "pool": {"mcm": "holm", "groups": "scott-knott-esd", "pool_check": True},
    "bayes": {"bayesian": "signed-rank"},
    "anova": {"posthoc": "control", "rankings": "anova", "effects": "all"},
    "rank_sets": {"rank_sets": True},
}
#: Which option sets each input is run with (all of them for the papers' tables).
RUNS = {name: (list(OPTIONS) if name in ("garcia2008", "garcia2010", "demsar2006_table6",
                                          "seeded30") else ["default", "all"])
        for name in INPUTS}
RUNS["demsar2006_table2"] = ["default", "bayes"]
RUNS["holes_sm"] = ["default", "all"]
CASES = [(i, o) for i, opts in RUNS.items() for o in opts]


#: The formats whose rendering draws figures (the HTML report's are inline SVG): a test of
#: its own in the ``figures`` tier; the others are quick.
DRAWN = ("html",)
#: Each case's comparison, kept in this process for its two tests (they run one after the
#: other: the drawn part follows the quick part of the same case).
_COMPARED: dict = {}


def _outputs(input_name, option_name, part):
    key = (input_name, option_name)
    if key not in _COMPARED:
        _COMPARED[key] = compare(INPUTS[input_name](), **OPTIONS[option_name])
    cmp = _COMPARED.pop(key) if part == "drawn" else _COMPARED[key]
    formats = [fmt for fmt in REPORT_FORMATS if (fmt in DRAWN) == (part == "drawn")]
    out = {fmt: unversioned(render(cmp, fmt)) for fmt in formats}
    if part == "quick":
        out["pairs.csv"] = pairs_csv(cmp)
    return out


def unversioned(text: str) -> str:
    """The output with rankwise's version (which the JSON names) as a placeholder: a release
    changes the version, not the outputs."""
    from rankwise import __version__

    return text.replace(f'"rankwise_version": "{__version__}"', '"rankwise_version": "VERSION"')


def _recorded():
    return json.loads(GOLDEN.read_text()) if GOLDEN.exists() else {}


def parsed(kind: str, text: str):
    """An output with full-precision floats as values: the JSON document, or the CSV's rows
    with each cell that reads as a number as that number."""
    if kind == "json":
        return json.loads(text)
    rows = list(csv.reader(io.StringIO(text)))
    return [[_number(cell) for cell in row] for row in rows]


def _number(cell: str):
    try:
        return float(cell)
    except ValueError:
        return cell


def differences(recorded, got, where: str = "") -> list:
    """Where ``got`` differs from ``recorded``: keys, lengths, strings, booleans and nulls
    exactly (an object's keys in any order); numbers (int or float alike) to ``RELATIVE``, NaN equal to NaN."""
    if isinstance(recorded, bool) or isinstance(got, bool) or recorded is None or got is None:
        return [] if recorded is got or recorded == got and type(recorded) is type(got) \
            else [f"{where}: {recorded!r} != {got!r}"]
    if isinstance(recorded, (int, float)) and isinstance(got, (int, float)):
        if math.isnan(recorded) and math.isnan(got) or recorded == got \
                or math.isclose(recorded, got, rel_tol=RELATIVE, abs_tol=0.0):
            return []
        return [f"{where}: {recorded!r} != {got!r}"]
    if type(recorded) is not type(got):
        return [f"{where}: {type(recorded).__name__} != {type(got).__name__}"]
    if isinstance(recorded, dict):
        # a JSON object's keys are a set (RFC 8259): the same keys, in any order
        if set(recorded) != set(got):
            return [f"{where}: keys {sorted(set(recorded) ^ set(got))} differ"]
        return [d for key in recorded for d in differences(recorded[key], got[key],
                                                            f"{where}/{key}")]
    if isinstance(recorded, list):
        if len(recorded) != len(got):
            return [f"{where}: {len(recorded)} items != {len(got)}"]
        return [d for i, (a, b) in enumerate(zip(recorded, got))
                for d in differences(a, b, f"{where}[{i}]")]
    return [] if recorded == got else [f"{where}: {recorded!r} != {got!r}"]


def _values_path(key: str) -> Path:
    return VALUES / (key.replace("/", "--") + ".json.gz")


def _recorded_value(key: str):
    path = _values_path(key)
    if not path.exists():
        return None
    return json.loads(gzip.decompress(path.read_bytes()).decode())


def _record_value(key: str, value) -> None:
    VALUES.mkdir(exist_ok=True)
    # mtime=0: the same value gives the same bytes, so regenerating changes only what changed
    _values_path(key).write_bytes(gzip.compress(json.dumps(value, indent=0).encode(), mtime=0))


def check(outputs: dict, prefix: str) -> None:
    """Compare (or, regenerating, record) one case's outputs: the rounded formats by their
    hashes, the full-precision ones value by value."""
    if REGENERATE and os.environ.get("PYTEST_XDIST_WORKER"):
        pytest.fail("regenerate in one process: add -n 0")
    hashes = {f"{prefix}/{fmt}": hashlib.sha256(text.encode()).hexdigest()
              for fmt, text in outputs.items() if fmt not in BY_VALUE}
    values = {f"{prefix}/{fmt}": parsed(fmt.split(".")[-1], text)
              for fmt, text in outputs.items() if fmt in BY_VALUE}
    recorded = _recorded()
    if REGENERATE:
        recorded.update(hashes)
        for key in values:
            recorded.pop(key, None)
            _record_value(key, values[key])
        GOLDEN.write_text(json.dumps(dict(sorted(recorded.items())), indent=1) + "\n")
        return
    changed = [key for key, digest in hashes.items() if recorded.get(key) != digest]
    for key, value in values.items():
        old = _recorded_value(key)
        found = ["not recorded"] if old is None else differences(old, value)
        if found:
            changed.append(f"{key} ({'; '.join(found[:3])})")
    assert not changed, (f"outputs changed: {', '.join(changed)} (regenerate with"
                         " RANKWISE_REGENERATE_GOLDEN=1 only after a deliberate change)")


#: Cases whose HTML report has no figure (two learners; a table whose missing cells leave no
#: CD diagram): their drawn part is quick too (conftest's guard says when that changes).
NO_FIGURES = {("holes_sm", "default"), ("holes_sm", "all"), ("amlb_older", "default"),
              ("amlb_older", "all"), ("demsar2006_table2", "default")}


@pytest.mark.parametrize("input_name, option_name, part", [
    pytest.param(i, o, part, id=f"{i}-{o}-{part}",
                 marks=[pytest.mark.figures] if part == "drawn" and (i, o) not in NO_FIGURES
                 else [])
    for i, o in CASES for part in ("quick", "drawn")])
def test_every_output_is_unchanged(input_name, option_name, part):
    check(_outputs(input_name, option_name, part), f"{input_name}/{option_name}")


POWER = {
    "two": {"learners": ["C4.5", "CN2"], "draws": 60},
    "control": {"learners": ["C4.5", "CN2", "Kernel"], "draws": 60, "biases": [0, 10],
                "sample_size": "5:10", "procedures": ["holm"]},
}


@pytest.mark.parametrize("case", POWER)
def test_power_study_outputs_are_byte_identical(case):
    from rankwise.power import power_study
    from rankwise.report.power import json_report, text_report

    study = power_study(load_example("garcia2008"), **POWER[case])
    check({"json": unversioned(json_report(study)), "text": text_report(study)},
          f"power/{case}")


def _one_ulp_off(value):
    """Every float of a parsed output moved by one unit in the last place (as another CPU's
    last bits would), integers and strings as they are."""
    if isinstance(value, dict):
        return {k: _one_ulp_off(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_one_ulp_off(v) for v in value]
    if isinstance(value, float) and math.isfinite(value) and value != 0.0:
        return math.nextafter(value, math.inf)
    return value


def _floats(value) -> int:
    if isinstance(value, dict):
        return sum(_floats(v) for v in value.values())
    if isinstance(value, list):
        return sum(_floats(v) for v in value)
    return int(isinstance(value, float) and math.isfinite(value) and value != 0.0)


@pytest.mark.parametrize("key", ["garcia2010/default/json", "seeded30/all/json",
                                 "garcia2008/both_paper/pairs.csv"])
def test_last_bits_of_another_cpu_pass_and_a_real_change_fails(key):
    recorded = _recorded_value(key)
    assert recorded is not None and _floats(recorded) > 20
    assert differences(recorded, _one_ulp_off(recorded)) == []
    moved = _one_ulp_off(recorded)
    # a real change: one number by 1e-9 (relative), one word, one key
    assert differences(recorded, _first_float_scaled(moved, 1 + 1e-9))
    if isinstance(recorded, dict):
        renamed = dict(recorded)
        renamed["extra"] = 1
        assert differences(recorded, renamed)
    assert differences(recorded, _replace_first_string(recorded))


def _first_changed(value, wanted, change):
    """``value`` with its first leaf for which ``wanted`` holds replaced by ``change(leaf)``."""
    done = []

    def walk(v):
        if isinstance(v, dict):
            return {k: walk(x) for k, x in v.items()}
        if isinstance(v, list):
            return [walk(x) for x in v]
        if not done and wanted(v):
            done.append(1)
            return change(v)
        return v
    return walk(value)


def _first_float_scaled(value, factor):
    return _first_changed(value, lambda v: isinstance(v, float) and math.isfinite(v)
                          and v != 0.0, lambda v: v * factor)


def _replace_first_string(value):
    return _first_changed(value, lambda v: isinstance(v, str), lambda v: v + "!")
