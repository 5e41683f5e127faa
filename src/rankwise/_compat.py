"""Module paths of rankwise 0.1 (``rankwise.posthoc``, ``rankwise.data``, …), importable until
:data:`REMOVED_IN`, with a FutureWarning.

Version 0.2 sorted the modules into wings (stats, tables, analysis, report, experiment). An
import of an old path gets a module that holds the same objects as the new modules behind it,
so ``from rankwise.posthoc import pairwise_statistics`` goes on working, and a FutureWarning
(shown to users, unlike a DeprecationWarning) names the paths to import from instead and the
version that removes the old one. Nothing is imported until an old path is asked for.
"""

from __future__ import annotations

import importlib
import sys
import types

#: The release that removes the old paths.
REMOVED_IN = "0.10"

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
    "store": ("experiment.store", "experiment.status"),
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
        import warnings

        name = spec.name.rpartition(".")[2]
        warnings.warn(f"{spec.name} is the module path of rankwise 0.1 and goes in rankwise"
                      f" {REMOVED_IN}; import from rankwise (the flat API) or"
                      f" {', '.join('rankwise.' + m for m in MOVED[name])}",
                      FutureWarning, stacklevel=3)
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
