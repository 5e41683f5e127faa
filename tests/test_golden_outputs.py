"""Every output, byte for byte, on the paper examples, the bundled examples and a seeded table
of 30 learners, for every report format and a range of option combinations.

The SHA-256 of each output is recorded in ``tests/golden/outputs.json``; a change of any byte
of any output fails its case. After a deliberate change, regenerate with
``RANKWISE_REGENERATE_GOLDEN=1 python -m pytest tests/test_golden_outputs.py`` and say in the
CHANGELOG what changed; a restructuring of the code must leave every hash as it is.
"""

import hashlib
import json
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


def _outputs(input_name, option_name):
    cmp = compare(INPUTS[input_name](), **OPTIONS[option_name])
    out = {fmt: unversioned(render(cmp, fmt)) for fmt in REPORT_FORMATS}
    out["pairs.csv"] = pairs_csv(cmp)
    return out


def unversioned(text: str) -> str:
    """The output with rankwise's version (which the JSON names) as a placeholder: a release
    changes the version, not the outputs."""
    from rankwise import __version__

    return text.replace(f'"rankwise_version": "{__version__}"', '"rankwise_version": "VERSION"')


def _recorded():
    return json.loads(GOLDEN.read_text()) if GOLDEN.exists() else {}


@pytest.mark.parametrize("input_name, option_name", CASES, ids=[f"{i}-{o}" for i, o in CASES])
def test_every_output_is_byte_identical(input_name, option_name):
    got = {f"{input_name}/{option_name}/{fmt}": hashlib.sha256(text.encode()).hexdigest()
           for fmt, text in _outputs(input_name, option_name).items()}
    if REGENERATE:
        recorded = _recorded()
        recorded.update(got)
        GOLDEN.write_text(json.dumps(dict(sorted(recorded.items())), indent=1) + "\n")
        return
    recorded = _recorded()
    changed = [key for key, digest in got.items() if recorded.get(key) != digest]
    assert not changed, (f"outputs changed: {', '.join(changed)} (regenerate with"
                         " RANKWISE_REGENERATE_GOLDEN=1 only after a deliberate change)")


POWER = {
    "two": {"learners": ["C4.5", "CN2"], "draws": 60},
    "control": {"learners": ["C4.5", "CN2", "Kernel"], "draws": 60, "biases": [0, 10],
                "sample_size": "5:10", "procedures": ["holm"]},
}


@pytest.mark.parametrize("case", POWER)
def test_power_study_outputs_are_byte_identical(case):
    from rankwise.power import power_study
    from rankwise.power.report import json_report, text_report

    study = power_study(load_example("garcia2008"), **POWER[case])
    got = {f"power/{case}/{fmt}": hashlib.sha256(text.encode()).hexdigest()
           for fmt, text in (("json", unversioned(json_report(study))),
                             ("text", text_report(study)))}
    recorded = _recorded()
    if REGENERATE:
        recorded.update(got)
        GOLDEN.write_text(json.dumps(dict(sorted(recorded.items())), indent=1) + "\n")
        return
    changed = [key for key, digest in got.items() if recorded.get(key) != digest]
    assert not changed, f"outputs changed: {', '.join(changed)}"
