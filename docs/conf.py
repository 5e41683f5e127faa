"""Sphinx configuration of the rankwise documentation.

Built with ``python -m sphinx -W -b html docs docs/_build/html`` (the README's docs command):
warnings are errors, every notebook page and gallery script is executed, and nothing is
downloaded (no intersphinx, no MathJax, no widget scripts), so the build works offline and a
wrong number in a worked example stops it.
"""

import os
import sys
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE / "_ext"))
os.environ.setdefault("COLUMNS", "80")

import rankwise  # noqa: E402

project = "rankwise"
author = "the rankwise developers"
copyright = "2026, the rankwise developers"
release = rankwise.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "numpydoc",
    "myst_nb",
    "sphinx_gallery.gen_gallery",
    "rankwise_docs",
]

# api/data/*.md are included into the constants' API pages (the data template), not pages
exclude_patterns = ["_build", "**.ipynb_checkpoints", "api/data", "gallery/*.ipynb", "gallery/*.py",
                    "gallery/*.zip", "gallery_src", "gallery/*.json", "gallery/*.md5", ]
templates_path = ["_templates"]
source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
root_doc = "index"
suppress_warnings = ["myst.header"]

# Documentation of the code.
autosummary_generate = True
autosummary_imported_members = True
autodoc_default_options = {"members": False}
autodoc_typehints = "none"
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False

# Pages written in Markdown; notebooks executed at build time, an error in a cell stops it.
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3
nb_execution_mode = "force"
nb_execution_raise_on_error = True
nb_execution_timeout = 300
nb_execution_show_tb = True
nb_ipywidgets_js = {}  # no widget scripts from a CDN
nb_merge_streams = True

# The gallery: every script run, its figures shown.
sphinx_gallery_conf = {
    "examples_dirs": "gallery_src",
    "gallery_dirs": "gallery",
    "filename_pattern": r"/plot_",
    "abort_on_example_error": True,
    "download_all_examples": False,
    "remove_config_comments": True,
    "image_scrapers": ("rankwise_docs.figure_scraper",),
    "reset_modules": ("matplotlib",),
    "show_memory": False,
    "show_signature": False,
    "min_reported_time": 3600,
    # each API page lists the gallery examples that use it (the minigallery of its template)
    "backreferences_dir": "api/generated/backreferences",
    "doc_module": ("rankwise",),
    "exclude_implicit_doc": {r"rankwise\._"},
}

# No network: no intersphinx inventories; MathJax is copied into the site from a PyPI wheel
# (rankwise_docs.bundle_mathjax), relative to _static.
mathjax_path = "mathjax/tex-chtml.js"

html_theme = "pydata_sphinx_theme"
html_title = f"rankwise {release}"
html_static_path = ["_static"]
html_css_files = ["rankwise.css"]
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    # one header row at 1,280 px: four links, "More", and the search as a button
    "header_links_before_dropdown": 4,
    "navbar_persistent": [],
    "navbar_end": ["search-button", "theme-switcher"],
    "footer_start": ["copyright"],
    "footer_end": [],
    "secondary_sidebar_items": ["page-toc"],
}
html_sidebars = {"**": ["sidebar-nav-bs"],
                 **{page: [] for page in ("index", "getting-started", "how-do-i",
                                          "coming-from-r", "coming-from-python", "cli", "json",
                                          "changelog")}}
html_show_sourcelink = False
html_copy_source = False
# The theme reads its colour mode from here; without it, it logs a console error.
html_context = {"default_mode": "auto"}
