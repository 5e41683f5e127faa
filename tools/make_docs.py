"""Regenerate the figures the README shows (docs/*.png): python tools/make_docs.py"""

from rankwise import compare, load_example
from rankwise.report.diagrams import save_figure
from rankwise.report import figures

cmp = compare(load_example("garcia2008"), posthoc="all", convention="paper")
figs = figures(cmp, procedure="bergmann_hommel")
save_figure(figs["cd_diagram"], "docs/cd_diagram_garcia2008.png")
save_figure(figs["control_diagram"], "docs/control_diagram_garcia2008.png")
