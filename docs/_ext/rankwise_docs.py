"""Pages generated from the code itself, so that they cannot drift from it.

``.. rankwise-cli::`` writes the help screen of ``rankwise`` and of each of its commands, taken
from the application at build time at 80 columns (what ``rankwise CMD --help | cat`` prints).
The formulas are typeset by a copy of MathJax in the site itself (:func:`bundle_mathjax`).
"""

from __future__ import annotations

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


class CliReference(SphinxDirective):
    has_content = False

    def run(self):
        lines = []
        for title, text in help_screens():
            lines += [f"``{title}``", "-" * (len(title) + 4), "", ".. code-block:: text", ""]
            lines += ["   " + line if line else "" for line in text.splitlines()]
            lines.append("")
        container = nodes.section()
        container.document = self.state.document
        nested_parse_with_titles(self.state, StringList(lines, source="rankwise --help"),
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


def setup(app):
    app.add_directive("rankwise-cli", CliReference)
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
