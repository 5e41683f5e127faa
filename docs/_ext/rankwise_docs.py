"""Pages generated from the code itself, so that they cannot drift from it.

``.. rankwise-cli::`` writes the help screen of ``rankwise`` and of each of its commands, taken
from the application at build time at 80 columns (what ``rankwise CMD --help | cat`` prints).
The formulas are typeset by a copy of MathJax in the site itself (:func:`bundle_mathjax`).
"""

from __future__ import annotations

import re
from pathlib import Path

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles


def help_screens(width: int = 80) -> list[tuple[str, str]]:
    """``[(command, help text)]``: the top-level screen, then each command's."""
    from typer.main import get_command
    from typer.testing import CliRunner

    from rankwise import cli

    cli.app.rich_markup_mode = None  # the plain layout, as piped output shows it
    root = get_command(cli.app)
    runner = CliRunner()
    screens = []
    for name in [None, *root.commands]:
        args = ([name] if name else []) + ["--help"]
        result = runner.invoke(cli.app, args, prog_name="rankwise", terminal_width=width,
                               env={"COLUMNS": str(width)})
        if result.exit_code != 0:
            raise RuntimeError(f"rankwise {' '.join(args)} failed: {result.output}")
        screens.append(("rankwise" + (f" {name}" if name else ""), result.output.rstrip()))
    return screens


#: Where a ``--option`` mentioned in prose links to: the first command that has it, these
#: first, then every other in the order the application registers them.
FIRST_COMMANDS = ("compare", "run")


def command_order() -> tuple:
    """Every command of the application, :data:`FIRST_COMMANDS` first (derived from the
    application, so a new command is on the page without a list to keep)."""
    from typer.main import get_command

    from rankwise import cli

    names = list(get_command(cli.app).commands)
    return tuple([n for n in FIRST_COMMANDS if n in names]
                 + [n for n in names if n not in FIRST_COMMANDS])


def _signature(param) -> str:
    """``--opt METAVAR`` (and its ``--no-opt`` twin) as ``.. option::`` reads it."""
    metavar = param.metavar or ("" if param.is_flag else "VALUE")
    names = [o for o in param.opts if o.startswith("--")] + [
        o for o in param.opts if not o.startswith("--")]
    sig = ", ".join(f"{o} {metavar}".strip() for o in names)
    return sig + "".join(f", {o}" for o in param.secondary_opts)


def _default(param) -> str:
    value = param.default
    if value is None or value is False or param.is_flag and not value or callable(value):
        return ""
    return f" Default: ``{value}``."


def option_lines(name: str, command) -> list:
    """reST for one command: its help, usage, arguments, and every option under a
    ``.. option::`` (one anchor each), grouped by the panels of ``--help``."""
    title = f"rankwise {name}" if name else "rankwise"
    lines = [f"``{title}``", "-" * (len(title) + 4), "", command.help or "", "",
             f".. program:: {title}", ""]
    # typer ships its own copy of click: parameters are told apart by their kind's name
    args = [p for p in command.params if p.param_type_name == "argument"]
    if args:
        lines += ["Arguments: " + ", ".join(f"``{(a.metavar or a.name).upper()}``" for a in args)
                  + ".", ""]
    panels = {}
    for param in command.params:
        if param.param_type_name == "option" and not param.hidden:
            panels.setdefault(getattr(param, "rich_help_panel", None) or "Options", []
                              ).append(param)
    for panel, params in panels.items():
        lines += [f".. rubric:: {panel}", ""]
        for param in params:
            lines += [f".. option:: {_signature(param)}", "",
                      f"   {(param.help or '').strip()}{_default(param)}", ""]
    return lines


class CliReference(SphinxDirective):
    """Every command with its options, each an ``.. option::`` with its own anchor, taken from
    the application; then the help screens exactly as ``--help | cat`` prints them."""
    has_content = False

    def run(self):
        from typer.main import get_command

        from rankwise import cli

        root = get_command(cli.app)
        lines = option_lines("", root)
        for name in command_order():
            lines += option_lines(name, root.commands[name])
        lines += ["The help screens", "----------------", ""]
        for title, text in help_screens():
            lines += [f".. rubric:: {title} --help", "", ".. code-block:: text", ""]
            lines += ["   " + line if line else "" for line in text.splitlines()]
            lines.append("")
        container = nodes.section()
        container.document = self.state.document
        nested_parse_with_titles(self.state, StringList(lines, source="rankwise --help"),
                                 container)
        return container.children


class SourceTable(SphinxDirective):
    """Every ``--source`` with its family and what it reads, from the one registry
    (:data:`rankwise.names.SOURCES`): the page cannot drift from the code."""
    has_content = False

    def run(self):
        from rankwise.names import SOURCES

        lines = [".. list-table::", "   :header-rows: 1", "", "   * - ``--source``",
                 "     - read by", "     - what it reads"]
        readers = {"table": "``load_table``, ``compare``", "items": "``read_items``,"
                   " ``compare --items``", "curves": "``read_curves``, ``curves``",
                   "votes": "``read_votes``, ``leaderboard``"}
        for s in SOURCES:
            lines += [f"   * - ``{s.name}``", f"     - {readers[s.family]}",
                      f"     - {s.description}"]
        container = nodes.section()
        container.document = self.state.document
        nested_parse_with_titles(self.state, StringList(lines, source="rankwise.names"),
                                 container)
        return container.children


#: The one MathJax component the site loads (TeX in, HTML-CSS out) and the fonts it reads.
MATHJAX_FILES = ("tex-chtml.js", "output/chtml/fonts/woff-v2")


def bundle_mathjax(app, exc):
    """Copy MathJax from the ``sphinx-mathjax-offline`` package (a PyPI wheel of MathJax 3) into
    the site's ``_static/mathjax``: the formulas render with no network. Only the component
    ``conf.mathjax_path`` names and its fonts are copied, not the package's 24 MB."""
    if exc is not None or app.builder.format != "html":
        return
    from importlib.metadata import distribution

    from sphinx.util.fileutil import copy_asset

    source = Path(str(distribution("sphinx-mathjax-offline").locate_file(
        "sphinx-mathjax-offline/static/mathjax")))
    target = Path(app.outdir) / "_static" / "mathjax"
    for name in MATHJAX_FILES:
        if (source / name).is_dir():
            copy_asset(str(source / name), str(target / name))
        else:
            target.mkdir(parents=True, exist_ok=True)
            copy_asset(str(source / name), str(target))


ERRATA_RUN = re.compile(r"\bERRATA((?:(?:,\s*|\s+and\s+|\s+)[A-Z]{1,2}\d+\b)+)")
ERRATA_ID = re.compile(r"[A-Z]{1,2}\d+")
OPTION = re.compile(r"^(--[a-z][a-z0-9-]*)(?:[ =].*)?$", re.S)
#: ``docs/reference/pairwise.md``, the path the code cites a reference page by
REFERENCE_FILE = re.compile(r"docs/reference/([\w-]+)\.md")
#: ``compare``, ``rankwise.friedman(x)``, ``Comparison.verdict``: a public name in inline code
API_NAME = re.compile(r"^((?:rankwise\.)?[A-Za-z_][\w.]*)(?:\(.*\))?$", re.S)
SKIP = (nodes.reference, nodes.literal_block, nodes.raw, nodes.math, nodes.math_block,
        nodes.title, nodes.doctest_block)


def _inside(node, kinds) -> bool:
    while node is not None:
        if isinstance(node, kinds):
            return True
        node = node.parent
    return False


def _link(uri: str, child) -> nodes.reference:
    ref = nodes.reference("", "", internal=True, refuri=uri)
    ref += child
    return ref


def _merge_texts(doctree) -> None:
    for element in list(doctree.findall(nodes.TextElement)):
        children = element.children
        i = 0
        while i < len(children) - 1:
            if isinstance(children[i], nodes.Text) and isinstance(children[i + 1], nodes.Text):
                merged = nodes.Text(str(children[i]) + str(children[i + 1]))
                element.replace(children[i], merged)
                element.remove(children[i + 1])
            else:
                i += 1


def link_mentions(app, doctree, docname):
    """Every ``ERRATA G2`` in prose links to its entry of the errata page, every ``--option``
    in inline code to its entry of the command-line reference (the first command in
    :func:`command_order` that has it), and every public name in inline code (``compare``,
    ``rankwise.friedman(x)``) to its API page, and every ``docs/reference/<name>.md`` the code
    cites to that page; code blocks and existing links are left alone."""
    errata = app.builder.get_relative_uri(docname, "reference/errata")
    options = {}
    order = command_order()
    for (program, name), (doc, anchor) in app.env.domains.standard_domain.progoptions.items():
        command = (program or "").removeprefix("rankwise").strip()
        rank = order.index(command) if command in order else len(order)
        if name not in options or rank < options[name][0]:
            uri = app.builder.get_relative_uri(docname, doc) + "#" + anchor
            options[name] = (rank, uri)
    api = app.env.domains.python_domain.objects
    reference_pages = {doc.removeprefix("reference/"): app.builder.get_relative_uri(docname, doc)
                       for doc in app.env.found_docs if doc.startswith("reference/")}
    for literal in list(doctree.findall(nodes.literal)):
        if _inside(literal, SKIP):
            continue
        text = literal.astext()
        found = OPTION.match(text)
        if found and found.group(1) in options and docname != "cli":
            literal.replace_self(_link(options[found.group(1)][1], literal.deepcopy()))
            continue
        page = REFERENCE_FILE.fullmatch(text)
        if page and page.group(1) in reference_pages:
            literal.replace_self(_link(reference_pages[page.group(1)], literal.deepcopy()))
            continue
        named = API_NAME.match(text)
        entry = named and api.get("rankwise." + named.group(1).removeprefix("rankwise."))
        if entry and entry.docname != docname and "xref" not in literal.get("classes", []):
            uri = app.builder.get_relative_uri(docname, entry.docname) + "#" + entry.node_id
            literal.replace_self(_link(uri, literal.deepcopy()))
    _merge_texts(doctree)  # "(ERRATA" and "G9)" on two source lines are two Text nodes
    for text in list(doctree.findall(nodes.Text)):
        if _inside(text, SKIP + (nodes.literal,)):
            continue
        source = str(text)
        spans = [(run.start(1) + i.start(), run.start(1) + i.end(),
                  f"{errata}#{i.group().lower()}")
                 for run in ERRATA_RUN.finditer(source) for i in ERRATA_ID.finditer(run.group(1))]
        spans += [(m.start(), m.end(), reference_pages[m.group(1)])
                  for m in REFERENCE_FILE.finditer(source) if m.group(1) in reference_pages]
        if not spans:
            continue
        parts, last = [], 0
        for start, end, uri in sorted(spans):
            parts += [nodes.Text(source[last:start]), _link(uri, nodes.Text(source[start:end]))]
            last = end
        parts.append(nodes.Text(source[last:]))
        text.parent.replace(text, parts)


def setup(app):
    app.add_directive("rankwise-cli", CliReference)
    app.add_directive("rankwise-sources", SourceTable)
    app.connect("doctree-resolved", link_mentions)
    app.connect("build-finished", bundle_mathjax)
    return {"parallel_read_safe": True, "parallel_write_safe": True}


def figure_scraper(block, block_vars, gallery_conf):
    """Gallery images: every matplotlib ``Figure`` a code block left in a variable.

    rankwise draws its figures without pyplot (no global state), so the gallery's default
    scraper, which asks pyplot, would see none; this one looks at the script's variables.
    """
    from matplotlib.figure import Figure
    from sphinx_gallery.scrapers import figure_rst

    seen = block_vars.setdefault("rankwise_seen", set())
    found = []
    for fig in list(block_vars["example_globals"].values()):
        if isinstance(fig, Figure) and id(fig) not in seen:
            seen.add(id(fig))
            found.append(fig)
    paths = []
    for fig, path in zip(found, block_vars["image_path_iterator"]):
        fig.savefig(path, dpi=110, bbox_inches="tight")
        paths.append(path)
    return figure_rst(paths, gallery_conf["src_dir"])
