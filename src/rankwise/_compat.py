"""Module paths of rankwise 0.1 (``rankwise.posthoc``, ``rankwise.data``, …), kept importable.

Version 0.2 sorted the modules into wings (stats, tables, analysis, report, experiment). An
import of an old path gets a module that holds the same objects as the new modules behind it,
so ``from rankwise.posthoc import pairwise_statistics`` goes on working. Nothing is imported
until an old path is asked for.
"""

from __future__ import annotations

import importlib
import sys
import types

#: old module -> the modules that now hold its names (the first one wins on a clash)
MOVED = {
    "adjust": ("stats.adjust",),
    "bergmann_hommel": ("stats.bergmann_hommel",),
    "cd_diagram": ("report.diagrams", "analysis.figures"),
    "compare": ("analysis.compare",),
    "criteria": ("experiment.criteria",),
    "data": ("tables.read", "tables.table", "tables.direction"),
    "datasets": ("experiment.datasets",),
    "keel": ("experiment.keel",),
    "omnibus": ("stats.omnibus", "stats.anova", "stats"),
    "posthoc": ("stats.pairwise", "stats.multiple_sign", "stats.contrast", "stats.anova", "names"),
    "posthoc_report": ("analysis.posthoc",),
    "ranking": ("stats.ranking",),
    "render": ("report.text", "report.format", "names"),
    "results": ("stats.results",),
    "runner": ("experiment.tasks", "experiment.executors", "experiment.driver",
               "experiment.progress"),
    "store": ("experiment.store",),
    "summary": ("stats.summary",),
    "testing": ("experiment.testing",),
    "two_learners": ("stats.two_learners",),
    "verdict": ("analysis.verdict", "report.methods", "names"),
}


class _Finder:
    """A meta path finder and loader (the protocol needs no base class; importlib.abc would
    cost start-up time)."""

    def find_spec(self, fullname, path=None, target=None):
        package, _, name = fullname.rpartition(".")
        if package == "rankwise" and name in MOVED:
            from importlib.machinery import ModuleSpec

            return ModuleSpec(fullname, self)
        return None

    def create_module(self, spec):
        name = spec.name.rpartition(".")[2]
        module = types.ModuleType(spec.name, f"Moved in rankwise 0.2: see {', '.join(MOVED[name])}.")
        for target in reversed(MOVED[name]):
            source = importlib.import_module(f"rankwise.{target}")
            module.__dict__.update({k: v for k, v in vars(source).items()
                                    if not k.startswith("__")})
        return module

    def exec_module(self, module):
        pass


def install() -> None:
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.append(_Finder())
