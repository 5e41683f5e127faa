"""The built documentation site read as a user reads it: the words of a page's main part, its
code and output blocks, and its links (standard-library HTML parsing, no browser).

The words a user has never seen are refused: the private documents the project was specified
from ("system notes", "the specification was silent", the seeds folder), test file names, and
rankwise's private ``_names``. Two published terms stay: "seed" of a random-number generator
(``--seed``) and the "specification curve" of Simonsohn, Simmons & Nelson (2020), the figure
of ``--multiverse``.
"""

from __future__ import annotations

import ast
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
CODE_WIDTH = 88


class Page(HTMLParser):
    """The text of ``<main>``, its ``<pre>`` blocks, and its links with their text."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.depth = {"main": 0, "pre": 0, "a": 0, "script": 0, "style": 0, "code": 0,
                      "h1": 0, "h2": 0, "h3": 0, "h4": 0, "dt": 0}
        self.text, self.pres, self.links = [], [], []
        self.unlinked_code, self.unlinked_prose = [], []  # inline, outside links and blocks
        self._pre, self._link, self._code = [], None, None

    def handle_starttag(self, tag, attrs):
        if tag in self.depth:
            self.depth[tag] += 1
        if tag == "pre" and self.depth["main"]:
            self._pre = []
        if tag == "a" and self.depth["main"]:
            self._link = [dict(attrs).get("href", ""), []]
        if tag == "code" and self.depth["code"] == 1:
            self._code = []

    def handle_endtag(self, tag):
        if tag == "code" and self.depth["code"] == 1 and self._code is not None:
            if self.depth["main"] and not self._aside():
                self.unlinked_code.append("".join(self._code))
            self._code = None
        if tag in self.depth and self.depth[tag]:
            self.depth[tag] -= 1
        if tag == "pre" and self.depth["main"]:
            self.pres.append("".join(self._pre))
        if tag == "a" and self._link is not None:
            self.links.append((self._link[0], "".join(self._link[1])))
            self._link = None

    def _aside(self) -> bool:
        """In a code block, a link, a heading (never linked) or a signature (a value's repr)."""
        return any(self.depth[t] for t in ("pre", "a", "h1", "h2", "h3", "h4", "dt"))

    def handle_data(self, data):
        if not self.depth["main"] or self.depth["script"] or self.depth["style"]:
            return
        if self.depth["pre"]:
            self._pre.append(data)
        if self._link is not None:
            self._link[1].append(data)
        if self._code is not None:
            self._code.append(data)
        elif not self._aside():
            self.unlinked_prose.append(data)
        self.text.append(data)


def pages(site: Path):
    for path in sorted(site.rglob("*.html")):
        rel = path.relative_to(site)
        if rel.parts[0] in ("_static", "_sources", "_modules", "_images") \
                or rel.name in ("genindex.html", "search.html", "py-modindex.html"):
            continue
        page = Page()
        page.feed(path.read_text(encoding="utf-8"))
        yield str(rel), page


@pytest.fixture(scope="module")
def read_site(site):
    return list(pages(site))


#: Jupyter's display hooks (``_repr_html_``) are public by protocol, not private names.
JUPYTER_HOOK = re.compile(r"_repr_\w+_")


def private_names() -> set:
    """Every ``_name`` rankwise defines: private modules, functions and classes."""
    found = set()
    for path in (ROOT / "src" / "rankwise").rglob("*.py"):
        if path.stem.startswith("_") and not path.stem.startswith("__"):
            found.add(path.stem)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) \
                    and node.name.startswith("_") and not node.name.startswith("__") \
                    and not JUPYTER_HOOK.fullmatch(node.name):
                found.add(node.name)
    return found


INTERNAL = re.compile(r"system notes|specification(?![- ]curve)|\bseeds/|the seeds folder"
                      r"|tests/test_", re.IGNORECASE)


def test_no_internal_words_on_any_page(read_site):
    assert len(read_site) > 150
    found = []
    for name, page in read_site:
        text = " ".join(" ".join(page.text).split())
        found += [(name, text[max(0, m.start() - 30):m.end() + 30])
                  for m in INTERNAL.finditer(text)]
    assert found == []


def test_no_private_name_of_rankwise_on_any_page(read_site):
    names = private_names()
    assert {"_aligned_statistic", "_validate"} <= names  # the check sees what it looks for
    pattern = re.compile(r"(?<![\w.])(" + "|".join(
        sorted(map(re.escape, names), key=len, reverse=True)) + r")\b")
    found = [(name, m.group(1)) for name, page in read_site
             for m in pattern.finditer(" ".join(page.text))]
    assert found == []


def cli_options() -> set:
    from typer.main import get_command

    from rankwise.cli import app

    root = get_command(app)
    return {opt for command in [root, *root.commands.values()] for param in command.params
            if param.param_type_name == "option" and not param.hidden
            for opt in param.opts + param.secondary_opts if opt.startswith("--")}


def test_every_errata_id_and_option_is_a_link(read_site):
    """``ERRATA G2`` links to its entry, ``docs/reference/<name>.md`` to that page, and
    ``--option`` in inline code or prose to the command-line reference (its own page defines
    them; code blocks are examples to copy)."""
    options = cli_options()
    assert {"--posthoc", "--figure-width", "--seed"} <= options
    errata, unlinked = 0, []
    for name, page in read_site:
        errata += sum(href.split("#")[0].endswith("errata.html") and "#" in href
                      for href, _ in page.links)
        prose = "".join(page.unlinked_prose)
        unlinked += [(name, m.group()) for m in re.finditer(r"ERRATA\s+[A-Z]{1,2}\d+", prose)]
        unlinked += [(name, m.group()) for text in [prose, *page.unlinked_code]
                     for m in re.finditer(r"docs/reference/[\w-]+\.md", text)]
        if name == "cli.html":
            continue
        for code in page.unlinked_code:
            first = code.split()[0] if code.split() else ""
            if first.split("=")[0] in options:
                unlinked.append((name, code))
        unlinked += [(name, m.group()) for m in re.finditer(r"(?<![\w-])--[a-z][a-z0-9-]+", prose)
                     if m.group() in options]
    assert errata > 40
    assert unlinked == []


RESULT_CLASSES = ("analysis.results.Verdict", "analysis.results.PosthocResult",
                  "analysis.results.PairComparison", "analysis.results.CriticalDifference",
                  "analysis.pool.PoolCheck", "stats.bayesian.BayesianResult",
                  "stats.effects.Estimate")


def public_names() -> set:
    import importlib

    import rankwise

    names = {n for n in rankwise.__all__ if n != "__version__"}
    for module in ("stats", "tables", "analysis", "report", "experiment", "power", "bayes"):
        for name in importlib.import_module(f"rankwise.{module}").__all__:
            names.add(name if name in rankwise.__all__ else f"{module}.{name}")
    return names | set(RESULT_CLASSES)


def test_every_public_name_and_result_class_has_a_page_with_examples(site):
    """Every name of ``rankwise.__all__`` (and of the public modules' ``__all__``) and every
    result class a Comparison's attributes return has an API page with an Examples section
    (each a doctest: the suite runs them from the docstrings and docs/api/data)."""
    names = public_names()
    assert len(names) > 100 and "analysis.results.Verdict" in names
    missing, bare = [], []
    for name in sorted(names):
        page = site / "api" / "generated" / f"rankwise.{name}.html"
        if not page.exists():
            missing.append(name)
            continue
        parsed = Page()
        parsed.feed(page.read_text(encoding="utf-8"))
        if "Examples" not in [t.strip() for t in parsed.text] or ">>>" not in "".join(parsed.pres):
            bare.append(name)
    assert missing == [] and bare == []


def test_api_pages_show_the_gallery_examples_that_use_them(site):
    for name in ("compare", "load_example", "report.figures"):
        page = (site / "api" / "generated" / f"rankwise.{name}.html").read_text(
            encoding="utf-8")
        assert "Gallery examples that use it" in page and "sphx-glr-thumbcontainer" in page


def test_user_pages_link_into_the_api(read_site):
    """Getting started, the "Coming from" pages, the worked examples and the guide's pages
    that show Python link the functions they use to their API pages."""
    pages = dict(read_site)
    for name in ("getting-started.html", "coming-from-r.html", "coming-from-python.html",
                 "examples/demsar2006.html", "examples/garcia-herrera2008.html",
                 "examples/garcia2010.html", "guide/python-api.html", "guide/papers.html"):
        api = [href for href, _ in pages[name].links if "api/generated/" in href]
        assert len(api) >= 2, name


def test_no_code_or_output_line_is_wider_than_88(read_site):
    """Code blocks, doctests and executed outputs fit a page without being cut off."""
    wide = [(name, len(line), line[:50]) for name, page in read_site for block in page.pres
            for line in block.splitlines() if len(line.rstrip()) > CODE_WIDTH]
    assert wide == []


def test_reference_formulas_are_mathematics(site):
    """The reference pages' displayed formulas are typeset (MathJax), not Unicode in code."""
    pages = ("adjustments", "aligned-ranks", "anova", "bergmann-hommel", "friedman",
             "multiple-sign-test", "pairwise", "quade")
    for name in pages:
        text = (site / "reference" / f"{name}.html").read_text(encoding="utf-8")
        assert 'class="math' in text and "_static/mathjax/tex-chtml.js" in text, name
        parsed = Page()
        parsed.feed(text)
        code = "\n".join(parsed.pres)
        assert not re.search(r"^\s*\S+\s*=.*[Σχ√∫]", code, re.M), name
