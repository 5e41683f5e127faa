"""Which module presents each kind of analysis, declared once.

Each module named here defines ``document(result) -> Document`` (the content every format lays
out) and may define ``figures(result, width=None) -> {name: matplotlib Figure}`` (drawn for
the HTML page and the report folder; each is placed where the document has a
:class:`~rankwise.report.document.Figure` block of its name), ``extras(result) -> {file name:
text}`` (further files of the report folder, such as the leaderboard's CSV) and
``payload(result) -> dict`` (the JSON's content after ``schema`` and ``rankwise_version``;
without it, ``result.to_dict()``). :func:`rankwise.report.render` and
:func:`rankwise.report.write_report` read nothing else, so a new kind of analysis is one entry
here and one module.
"""

from __future__ import annotations

from importlib import import_module

#: kind -> the module (relative to :mod:`rankwise.report`) that presents it. ``compare`` is
#: presented by the report package itself (its document is :func:`.document.build`).
KINDS = {
    "leaderboard": ".board",
    "items": ".items",
    "curves": ".curves",
    "fronts": ".fronts",
    "audit": ".audit",
    "race": ".race",
    "power": ".power",
    "gate": ".gate",
    "plan": ".plan",
}


def presenter(result):
    """The module that presents ``result`` (by its ``kind``)."""
    from ..errors import RankwiseError

    kind = getattr(result, "kind", None)
    if kind not in KINDS:
        raise RankwiseError(f"no report is declared for {type(result).__name__}"
                            f" (kind {kind!r}); the kinds are {', '.join(sorted(KINDS))}")
    return import_module(KINDS[kind], __package__)
