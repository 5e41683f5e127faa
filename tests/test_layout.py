"""The package layout: imports point downwards between the wings, the flat API and the module
paths of rankwise 0.1 keep working."""

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parents[1] / "src" / "rankwise"
LEAVES = {"names", "errors", "_validate", "_version", "_text", "defaults", "_files",
          "option_table", "protocol"}
#: What each wing may import at module level (besides itself and the shared leaves).
ALLOWED = {
    "stats": set(),
    "tables": set(),
    "experiment": set(),
    "analysis": {"stats", "tables", "planning"},
    "report": {"analysis", "stats"},
    "power": {"stats", "tables"},
    "bayes": {"stats"},
    "planning": {"stats"},
}
#: Imports inside functions may also reach these (for a reason given in the module).
LAZY_ALLOWED = {"tables": {"experiment"}, "analysis": {"report", "bayes"},
                "power": {"experiment", "report"},
                # the runner's race uses the replay's statistics, not a copy of them
                "experiment": {"stats"}}


def imports(path: Path):
    """(target wing, at module level?) for every import of the package in ``path``."""
    rel = path.relative_to(PACKAGE).with_suffix("")
    package = ["rankwise", *rel.parts[:-1]] if rel.name != "__init__" else ["rankwise",
                                                                           *rel.parts[:-1]]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top = set(map(id, tree.body))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                parts = base + (node.module.split(".") if node.module else [])
            else:
                parts = node.module.split(".")
            if parts[0] != "rankwise":
                continue
            names = [a.name for a in node.names]
            if len(parts) == 1:  # from rankwise import x / from .. import x
                for name in names:
                    yield name, id(node) in top
            else:
                yield parts[1], id(node) in top
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == "rankwise":
                    yield (parts[1] if len(parts) > 1 else "<root>"), id(node) in top


@pytest.mark.parametrize("wing", sorted(ALLOWED))
def test_imports_point_downwards(wing):
    for path in sorted((PACKAGE / wing).rglob("*.py")):
        for target, top_level in imports(path):
            target = target.removesuffix(".py")
            if target == wing or target in LEAVES:
                continue
            allowed = ALLOWED[wing] | (set() if top_level else LAZY_ALLOWED.get(wing, set()))
            assert target in allowed, f"{path.relative_to(PACKAGE)} imports rankwise.{target}"


def test_no_module_imports_the_package_root():
    for path in PACKAGE.rglob("*.py"):
        if path.name == "__init__.py" and path.parent == PACKAGE:
            continue
        for target, _ in imports(path):
            assert target not in ("<root>", "__version__"), path


def strings_outside_docstrings(path: Path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)) and node.body and \
                isinstance(node.body[0], ast.Expr):
            docstrings.add(id(node.body[0].value))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                id(node) not in docstrings:
            yield node.value


def test_names_registry_is_the_only_place_that_spells_titles():
    from rankwise.names import PROCEDURES, RANKINGS_ALL, TESTS

    titles = {e.title for table in (TESTS, PROCEDURES, RANKINGS_ALL) for e in table.values()}
    spelled = [(path.name, text) for path in PACKAGE.rglob("*.py") if path.name != "names.py"
               for text in strings_outside_docstrings(path) if text in titles]
    assert spelled == []


FLAT_API_0_1 = [
    "DatasetSpec", "Experiment", "Learner", "load_experiment", "run_experiment",
    "ALL_PAIRS_PROCEDURES", "CONTROL_PROCEDURES", "RANKINGS", "adjust", "bergmann_hommel",
    "contrast_estimation", "critical_difference", "multiple_sign_test", "nemenyi_pvalues",
    "pairwise_statistics", "tukey_dunnett", "Comparison", "EXAMPLES", "OMNIBUS_TESTS",
    "RankwiseError", "ScoreTable", "TWO_LEARNER_TESTS", "TestResult", "aligned_ranks", "compare",
    "friedman", "friedman_aligned", "iman_davenport", "load_example", "load_table",
    "mean_ranks", "paired_ttest", "quade", "quade_weights", "rank_within_datasets", "rm_anova",
    "sign_test", "wilcoxon", "wilcoxon_critical_value", "win_tie_loss", "__version__",
]

OLD_PATHS = {
    "adjust": ["adjust", "holm", "shaffer_counts", "CONTROL_PROCEDURES"],
    "bergmann_hommel": ["bergmann_hommel", "brute_force", "branch_and_bound"],
    "cd_diagram": ["cd_diagram", "control_diagram", "pvalue_heatmap", "cliques", "figure_bytes"],
    "compare": ["compare", "Comparison", "OMNIBUS_TESTS"],
    "criteria": ["evaluate", "CRITERIA"],
    "data": ["load_table", "ScoreTable", "criterion_direction", "LOWER_IS_BETTER"],
    "datasets": ["DatasetSpec", "load_dataset"],
    "experiment": ["Experiment", "Learner", "load_experiment", "derive_seed"],
    "keel": ["parse_keel"],
    "omnibus": ["friedman", "rm_anova", "OMNIBUS", "_quade_from_ranks", "quade_from_ranks"],
    "posthoc": ["pairwise_statistics", "multiple_sign_test", "contrast_estimation",
                "tukey_dunnett", "dunnett_pvalue", "GATES", "RANKINGS", "critical_difference"],
    "posthoc_report": ["build_posthoc"],
    "ranking": ["midranks", "aligned_ranks"],
    "render": ["fmt_p", "fmt_num"],
    "report": ["text_report", "markdown_report", "latex_report", "html_report", "figures",
               "render", "write_report"],
    "results": ["TestResult", "jsonable"],
    "runner": ["run_experiment", "fold_indices", "build_pipeline", "plan", "ProgressBar"],
    "store": ["read_results", "Store"],
    "summary": ["win_tie_loss_matrix", "quartile_charts"],
    "testing": ["SlowClassifier", "FailingClassifier", "StubbornClassifier"],
    "two_learners": ["wilcoxon", "differences", "ZERO_METHODS"],
    "verdict": ["verdict", "methods_paragraph"],
}


def test_flat_api_of_0_1():
    import rankwise

    missing = [name for name in FLAT_API_0_1 if not hasattr(rankwise, name)]
    assert missing == []


@pytest.mark.parametrize("old", sorted(OLD_PATHS))
def test_module_paths_of_0_1_work_and_warn_until_they_go(old):
    from rankwise._compat import MOVED

    if old not in MOVED:   # a package of today under its old name: no warning
        module = importlib.import_module(f"rankwise.{old}")
    else:
        sys.modules.pop(f"rankwise.{old}", None)
        with pytest.warns(FutureWarning, match=f"rankwise.{old} is the module path of rankwise"
                                               " 0.1 and goes in rankwise 0.10"):
            module = importlib.import_module(f"rankwise.{old}")
    missing = [name for name in OLD_PATHS[old] if not hasattr(module, name)]
    assert missing == []


@pytest.mark.subprocess
def test_old_module_paths_do_not_hide_flat_functions():
    # A fresh interpreter: importing the old module first must leave the functions in place.
    code = ("import warnings; warnings.simplefilter('ignore', FutureWarning);"
            "import rankwise.compare, rankwise.adjust, rankwise.bergmann_hommel, rankwise;"
            "from rankwise.compare import Comparison;"
            "assert callable(rankwise.compare) and rankwise.compare.__name__ == 'compare';"
            "assert rankwise.adjust.__name__ == 'adjust';"
            "assert rankwise.bergmann_hommel.__name__ == 'bergmann_hommel';"
            "from rankwise import compare, load_example;"
            "assert compare(load_example('garcia2010')).verdict.best == 'PDFC'")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr


REFERENCE = Path(__file__).parents[1] / "docs" / "reference"


def cited_texts():
    root = Path(__file__).parents[1]
    for path in [*PACKAGE.rglob("*.py"), *root.joinpath("tests").glob("*.py"),
                 root / "README.md",
                 *(p for p in root.joinpath("docs").rglob("*.md") if "_build" not in p.parts),
                 *root.joinpath("benchmarks").glob("*.py")]:
        yield path, path.read_text(encoding="utf-8")


def test_every_citation_resolves_inside_the_repository():
    import re

    errata = set(re.findall(r"^### (\w+)$", (REFERENCE / "errata.md").read_text(), re.M))
    bh = (REFERENCE / "bergmann-hommel.md").read_text()
    bh_sections = set(re.findall(r"^## §(\d+)", bh, re.M))
    unresolved = []
    for path, text in cited_texts():
        for group in re.findall(r"ERRATA ((?:(?:D|GH|G)\d+(?:, )?)+)", text):
            for ident in re.findall(r"(?:D|GH|G)\d+", group):
                if ident not in errata:
                    unresolved.append((path.name, f"ERRATA {ident}"))
        for section in re.findall(r"BH §(\d+)", text):
            if section not in bh_sections:
                unresolved.append((path.name, f"BH §{section}"))
        for name in re.findall(r"docs/reference/([\w-]+\.md)", text):
            if not (REFERENCE / name).exists():
                unresolved.append((path.name, name))
        for outside in ("FORMULAS", "BH.md", "shared/reference"):
            if outside in text and path.name != "test_layout.py":
                unresolved.append((path.name, outside))
    assert "Lemma 5" in bh and unresolved == []


@pytest.mark.subprocess
def test_import_and_cli_start_without_heavy_libraries():
    out = subprocess.run([sys.executable, "-c", "import sys, rankwise, rankwise.cli;"
                          " print(sorted({'numpy', 'scipy', 'pandas', 'matplotlib', 'sklearn'}"
                          " & {m.split('.')[0] for m in sys.modules}))"],
                         capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == "[]", (out.stdout, out.stderr)


def test_one_source_for_defaults_and_seeds():
    """Seeds and the rounding default are numbers only in rankwise.defaults: a second literal
    (a sampler seeded differently when called directly, decimals=12 in a signature) fails."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "defaults.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) \
                    and isinstance(node.value.value, int):
                for target in node.targets:
                    if isinstance(target, ast.Name) and target.id.endswith("SEED"):
                        found.append(f"{path.name}:{node.lineno} {target.id}")
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                args = node.args
                for arg, default in zip(args.kwonlyargs, args.kw_defaults):
                    if arg.arg in ("seed", "decimals") and isinstance(default, ast.Constant) \
                            and isinstance(default.value, int) and default.value != 0:
                        found.append(f"{path.name}:{node.lineno} {node.name}({arg.arg}=...)")
                positional = args.posonlyargs + args.args
                for arg, default in zip(positional[len(positional) - len(args.defaults):],
                                        args.defaults):
                    if arg.arg in ("seed", "decimals") and isinstance(default, ast.Constant) \
                            and isinstance(default.value, int) and default.value != 0:
                        found.append(f"{path.name}:{node.lineno} {node.name}({arg.arg}=...)")
    assert not found, "defaults outside rankwise.defaults: " + "; ".join(found)


def test_every_sampler_defaults_to_the_same_seed():
    import inspect

    from rankwise.analysis.scott_knott import scott_knott_bootstrap
    from rankwise.defaults import DEFAULT_SEED
    from rankwise.stats.bayesian import bayesian_sign_test, bayesian_signed_rank_test

    samplers = [bayesian_sign_test, bayesian_signed_rank_test, scott_knott_bootstrap]
    try:
        from rankwise.bayes import bradley_terry, hierarchical_test, plackett_luce
        samplers += [bradley_terry, hierarchical_test, plackett_luce]
    except ImportError:  # the bayes extra
        pass
    for fn in samplers + [rankwise_compare()]:
        assert inspect.signature(fn).parameters["seed"].default == DEFAULT_SEED, fn.__name__


def rankwise_compare():
    from rankwise import compare

    return compare


def test_no_private_name_is_imported_across_modules():
    """A name that starts with ``_`` is its module's own; another module that needs it gets a
    public name (the package's private modules, ``_validate`` and the like, are imported
    whole)."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (
                    node.level or (node.module or "").startswith("rankwise")):
                found += [f"{path.relative_to(PACKAGE)}: {a.name}" for a in node.names
                          if a.name.startswith("_") and not a.name.startswith("__")
                          and not (PACKAGE / f"{a.name}.py").exists()]
    assert not found, found


def _module_edges():
    """(importing module, imported module) for every import of the package, at module level
    or inside a function, each module named by its dotted path."""
    def resolve(parts):
        # the longest prefix that is a module or package of the tree
        for end in range(len(parts), 0, -1):
            candidate = PACKAGE.parent.joinpath(*parts[:end])
            if candidate.with_suffix(".py").exists() or (candidate / "__init__.py").exists():
                return ".".join(parts[:end])
        return None

    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE.parent).with_suffix("")
        me = ".".join(rel.parts[:-1] if rel.name == "__init__" else rel.parts)
        package = list(rel.parts[:-1])
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = (package[:len(package) - node.level + 1] if node.level else [])
                parts = base + (node.module.split(".") if node.module else [])
                if not parts or parts[0] != "rankwise":
                    continue
                for alias in node.names:   # "from . import report" names a module
                    target = resolve(parts + [alias.name]) or resolve(parts)
                    if target and target != me:
                        yield me, target
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith("rankwise"):
                        target = resolve(alias.name.split("."))
                        if target and target != me:
                            yield me, target


#: The one import that points up, documented in docs/about/architecture.md.
UPWARD = {("rankwise.protocol", "rankwise.report")}


def test_no_import_circle_but_the_one_documented_lazy_edge():
    """0 import circles among the modules once the documented upward edge is set aside (a
    package's ``__init__`` that re-exports its modules is not a circle of its modules)."""
    graph = {}
    for a, b in _module_edges():
        if (a, b) in UPWARD or b == "rankwise" or a == "rankwise":
            continue
        if a.startswith(b + ".") and (PACKAGE.parent / b.replace(".", "/") / "__init__.py"
                                      ).exists():
            continue   # a module reading its own package's __init__ re-exports
        graph.setdefault(a, set()).add(b)
    # the modules' own edges, without a package __init__ re-exporting its children
    edges = {a: {b for b in bs if not (b.startswith(a + "."))} for a, bs in graph.items()}
    seen, stack, on_stack, cycles = {}, [], set(), []

    def visit(node, index=[0]):
        seen[node] = low = index[0]
        index[0] += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in edges.get(node, ()):
            if nxt not in seen:
                low = min(low, visit(nxt))
            elif nxt in on_stack:
                low = min(low, seen[nxt])
        if low == seen[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))
        return low

    for node in list(edges):
        if node not in seen:
            visit(node)
    assert cycles == [], cycles


def test_the_analysis_reaches_the_report_in_one_place():
    # every wing below the report (analysis, stats, power, ...) and the shared leaves
    edges = [(a, b) for a, b in _module_edges() if b.startswith("rankwise.report")
             and not a.startswith(("rankwise.report", "rankwise.cli")) and a != "rankwise"]
    assert set(edges) == UPWARD


def test_every_analysis_seeds_from_a_declared_default():
    """The seed policy of rankwise.defaults: each analysis's default seed is one of the seeds
    declared there (named in its docstring), never a number of its own."""
    import inspect

    import rankwise
    from rankwise import defaults

    declared = {getattr(defaults, n) for n in dir(defaults) if n.endswith("_SEED")}
    doc = defaults.__doc__
    for fn in (rankwise.compare, rankwise.compare_items, rankwise.compare_curves,
               rankwise.compare_criteria, rankwise.leaderboard, rankwise.race):
        seed = inspect.signature(fn).parameters["seed"].default
        assert seed in declared, fn.__name__
        name = next(n for n in dir(defaults) if n.endswith("_SEED")
                    and getattr(defaults, n) == seed)
        assert name in doc, (fn.__name__, name)


#: What a person reads at once: a function of at most this many code lines (its signature,
#: docstring, blank and comment lines aside), a module of at most this many lines.
MAX_FUNCTION_LINES, MAX_MODULE_LINES = 80, 800


def test_every_function_and_module_of_the_package_is_readable_at_once():
    """No function over 80 code lines, no module over 800 lines, anywhere in the package."""
    long_functions, long_modules = [], []
    for path in sorted(PACKAGE.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        if len(lines) > MAX_MODULE_LINES:
            long_modules.append((path.relative_to(PACKAGE).as_posix(), len(lines)))
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                body = node.body
                if isinstance(body[0], ast.Expr) and isinstance(
                        getattr(body[0], "value", None), ast.Constant):
                    body = body[1:]
                if not body:
                    continue
                code = sum(1 for line in lines[body[0].lineno - 1:node.end_lineno]
                           if line.strip() and not line.strip().startswith("#"))
                if code > MAX_FUNCTION_LINES:
                    long_functions.append((path.relative_to(PACKAGE).as_posix(), node.name,
                                           code))
    assert long_functions == [] and long_modules == []
