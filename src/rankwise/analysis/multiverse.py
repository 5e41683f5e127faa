"""Another reasonable analysis: the verdict rerun over a grid of defensible choices.

Benchmark conclusions move with choices nobody would call wrong (Nießl et al. 2022): which
criterion, how the folds are combined, how finely scores are compared, what is done with a
missing result, and which test decides. :func:`multiverse` reruns :func:`rankwise.compare` once
for every combination of

- ``criterion``: every criterion of a long input with several (else the one read);
- ``aggregate``: ``median`` and ``mean`` of the repeats × folds (only when cells have several);
- ``decimals``: the analysis's own, 12 and 3;
- ``missing``: every rule that gives an analysis (only when the input has missing cells);
- ``basis``: what decides the verdict — ``friedman-holm`` (Friedman mean ranks and Holm's
  procedure against the best, the verdict of compare; with two learners, compare's verdict is
  the Wilcoxon signed-ranks test and the pairwise bases are left out), ``wilcoxon-holm`` and ``sign-holm``
  (pairwise Wilcoxon or sign tests against the best-ranked learner, Holm-adjusted, after the
  same gate), ``mcm`` (the multi-comparison matrix: Wilcoxon with Pratt's zeros, Holm over
  every pair, the best mean score first) and ``plackett-luce`` (the posterior's best and the
  learners it finds worse; with the ``bayes`` extra; in the default grid only when the
  analysis asks for a Bayesian view, up to 20 learners);

and reports, for each claim of the analysis's own verdict (the best learner; each learner
significantly worse than it, or not), the share of analyses that agree and which choices flip
it. Each analysis is ``compare`` with its options (``Entry.options``; the command line in
``Entry.command``), so any one of them can be rerun on its own. An analysis the table does not
allow (a missing-value rule that leaves nothing, a basis that needs a complete table) is listed
with its reason and left out of the shares. A TOML file (or a dict) can give the grid instead:

.. code-block:: toml

    [grid]
    criterion = ["accuracy", "auc"]
    decimals = [12, 3]
    basis = ["friedman-holm", "wilcoxon-holm"]
"""

from __future__ import annotations

import itertools
import shlex
from dataclasses import dataclass, field
from importlib.util import find_spec

import numpy as np

from ..errors import RankwiseError
from .grid import BASES, DIMENSIONS, read_grid  # noqa: F401 (also read from here)
from ..stats.results import jsonable

PLURALS = {"criterion": "criteria", "aggregate": "fold aggregations", "decimals": "roundings",
           "missing": "missing-value rules", "basis": "bases"}
#: Missing-value rules the default grid tries on a table with missing cells.
MISSING_RULES = ("drop-datasets", "drop-learners", "worst", "skillings-mack")
#: The default grid varies the criterion when the input has at most this many.
MAX_CRITERIA = 6
#: Above this many learners the default grid leaves the Plackett-Luce posterior out.
MODEL_MAX_LEARNERS = 20
#: More analyses than this are refused (a grid of your own can be as large as you ask).
MAX_ENTRIES = 200
#: Options of an entry's own analysis that the multiverse turns off (it reads the verdict).
QUIET = {"effects": "none", "dataset_check": False, "rank_sets": None, "pool_check": False,
         "multiverse": None, "groups": None, "per_dataset": None, "per_dataset_adjust": "none",
         "test_fraction": None}


@dataclass(frozen=True)
class Entry:
    """One analysis of the grid: its ``choices``, the ``compare`` options that run it (on the
    input read again with ``load`` when it has any, else on the table as read), the command
    line, and what it found (``best`` and the learners worse than it), or why it could
    not run (``error``)."""

    choices: dict
    options: dict
    command: str
    load: dict = field(default_factory=dict)   # read the input again with these (else as read)
    best: str | None = None
    losers: tuple = ()
    agrees: tuple = ()        # per claim of the default verdict: does this analysis make it?
    error: str | None = None

    @property
    def rereads(self) -> bool:
        return bool(self.load)

    @property
    def label(self) -> str:
        return ", ".join(f"{k} {v}" for k, v in self.choices.items())


@dataclass(frozen=True)
class Multiverse:
    """The analyses of the grid and, per claim of the analysis's own verdict, how many agree.

    Examples
    --------
    >>> import rankwise
    >>> grid = {"decimals": [12, 2], "basis": ["friedman-holm", "wilcoxon-holm"]}
    >>> cmp = rankwise.compare(rankwise.load_example("garcia2008"), multiverse=grid)
    >>> len(cmp.multiverse.entries), sorted(cmp.multiverse.dimensions)
    (4, ['basis', 'decimals'])
    """

    dimensions: dict          # dimension -> the values tried, the analysis's own first
    claims: tuple             # statements of the default verdict's claims
    learners: tuple           # whom each claim is about (the best first)
    entries: tuple
    notes: tuple = ()
    default: dict = field(default_factory=dict)   # the analysis's own choices

    def ran(self) -> tuple:
        return tuple(e for e in self.entries if e.error is None)

    def agreement(self) -> np.ndarray:
        """Per claim, how many analyses that ran make it."""
        ran = self.ran()
        if not ran:
            return np.zeros(len(self.claims), dtype=int)
        return np.array([e.agrees for e in ran], dtype=bool).sum(axis=0)

    def flipped_by(self, claim: int) -> list:
        """The choices under which the claim never holds (each ``dimension value``), else the
        analyses that do not make it."""
        ran = self.ran()
        out = []
        for dim, values in self.dimensions.items():
            if len(values) < 2:
                continue
            for value in values:
                having = [e for e in ran if e.choices.get(dim) == value]
                if having and not any(e.agrees[claim] for e in having):
                    out.append(f"{dim} {value}")
        if out:
            return out
        return [e.label for e in ran if not e.agrees[claim]]

    def learner_agreement(self) -> dict:
        """``{learner: analyses that make the verdict's claim about it}``."""
        agree = self.agreement()
        return {name: int(a) for name, a in zip(self.learners, agree)}

    def sentence(self) -> str:
        ran = self.ran()
        n = len(ran)
        if not n:
            return "Another reasonable analysis: no analysis of the grid could run."
        agree = self.agreement()
        every = sum(all(e.agrees) for e in ran)
        sizes = " x ".join(f"{len(v)} {PLURALS[d]}" for d, v in self.dimensions.items()
                           if len(v) > 1)
        head = (f"Another reasonable analysis ({n} analyses: {sizes or 'one choice each'}):"
                f" {every} of {n} agree with every claim of the verdict")
        weakest = int(np.argmin(agree))
        if agree[weakest] == n:
            return head + "."
        flips = self.flipped_by(weakest)
        shown = "; ".join(flips[:3]) + (f"; and {len(flips) - 3} more" if len(flips) > 3 else "")
        first = (f"; '{self.claims[0]}' holds in {agree[0]} of {n}"
                 if self.claims[0].endswith(" is the best") and weakest != 0 else "")
        return (f"{head}{first}; the least robust, '{self.claims[weakest]}', in"
                f" {agree[weakest]} (not with {shown}).")

    def to_dict(self) -> dict:
        agree = self.agreement()
        return jsonable({
            "dimensions": self.dimensions, "default": self.default,
            "claims": [{"statement": c, "agree": int(a), "of": len(self.ran()),
                        "flipped_by": self.flipped_by(i) if a < len(self.ran()) else []}
                       for i, (c, a) in enumerate(zip(self.claims, agree))],
            "entries": [{"choices": e.choices, "command": e.command, "best": e.best,
                         "losers": list(e.losers), "agrees": list(e.agrees),
                         "error": e.error} for e in self.entries],
            "notes": list(self.notes)})


def default_grid(table, own: dict, can_reload: bool, bayesian: bool = False) -> tuple:
    """``(grid, notes)``: the dimensions that apply to this table (see the module docstring),
    each with the analysis's own choice (``own``) first. The Plackett-Luce basis (a posterior
    sampled by MCMC, tens of seconds) is in it only when the analysis asked for a Bayesian view
    (``bayesian``)."""
    notes = []
    pairwise = ("wilcoxon-holm", "sign-holm")  # post-hoc families: k >= 3
    k = table.n_learners
    installed = find_spec("numpyro") is not None
    model = installed and bayesian and k <= MODEL_MAX_LEARNERS
    grid = {"decimals": [own["decimals"], 12, 3],
            "basis": [b for b in BASES if (b != "plackett-luce" or model)
                      and (k >= 3 or b not in pairwise)]}
    if not bayesian:
        notes.append("The Plackett-Luce basis (a posterior sampled by MCMC) is in the default"
                     " grid only when a Bayesian analysis is asked for (--bayesian); a grid of"
                     " your own can have it.")
    elif not installed:
        notes.append("The Plackett-Luce basis needs the bayes extra (pip install"
                     " 'rankwise[bayes]'); it is left out of the grid.")
    elif not model:
        notes.append(f"The Plackett-Luce basis is left out of the default grid above"
                     f" {MODEL_MAX_LEARNERS} learners (each posterior takes tens of seconds);"
                     " a grid of your own can have it.")
    if can_reload:
        if 1 < len(table.criteria) <= MAX_CRITERIA:
            grid["criterion"] = [own["criterion"], *table.criteria]
        elif len(table.criteria) > MAX_CRITERIA:
            notes.append(f"The input has {len(table.criteria)} criteria; the default grid keeps"
                         f" {own['criterion']} (a grid of your own can name the others).")
        if table.aggregate is not None:
            grid["aggregate"] = [own["aggregate"], "median", "mean"]
        if table.missing_cells:
            grid["missing"] = [own["missing"], *MISSING_RULES]
    elif len(table.criteria) > 1 or table.aggregate is not None or table.missing_cells:
        notes.append("The criterion, the fold aggregation and the missing-value rule are"
                     " varied only when the table was read from a file, a DataFrame or an"
                     " example (this ScoreTable was built directly).")
    grid = {k: list(dict.fromkeys(v)) for k, v in grid.items()}
    return {k: grid[k] for k in DIMENSIONS if k in grid}, notes


def _basis_options(basis: str) -> dict:
    return {"friedman-holm": {},
            "wilcoxon-holm": {"posthoc": "control", "rankings": ["wilcoxon"],
                              "procedures": ["holm"], "control": None},
            "sign-holm": {"posthoc": "control", "rankings": ["sign"], "procedures": ["holm"],
                          "control": None},
            "mcm": {"mcm": "holm"},
            "plackett-luce": {"bayesian": "plackett-luce", "verdict": "bayesian"}}[basis]


def read_claims(cmp, basis: str) -> tuple:
    """``(best, losers)`` of an analysis by its basis (see the module docstring)."""
    v = cmp.verdict
    if basis == "friedman-holm":
        return v.best, tuple(v.losers)
    if basis in ("wilcoxon-holm", "sign-holm"):
        ranking = basis.split("-")[0]
        entry = cmp.posthoc.rankings[ranking]
        best = cmp.posthoc.control
        if entry.skipped:
            return best, ()
        fam = entry.families["control"]
        worse = fam.rejected("holm", cmp.alpha)
        return best, tuple(fam.learners[int(b)] for b, w in zip(fam.b, worse) if w)
    if basis == "mcm":
        m = cmp.mcm
        best = int(m.order[0])
        return m.learners[best], tuple(m.learners[int(b)] for a, b, s in
                                       zip(m.a, m.b, m.significant) if a == best and s)
    bv = v.bayesian
    return bv.reference, tuple(r["learner"] for r in bv.rows if r["decision"] == "worse")


def multiverse(base, grid=None, *, rerun) -> Multiverse:
    """Rerun ``base`` (its ``table``, ``options`` and ``verdict``: a
    :class:`~rankwise.Comparison`, or the analysis :func:`~rankwise.compare` is building) over
    the grid (None: the default grid; a dict or a TOML file), each analysis by
    ``rerun(table, **options)`` (:func:`~rankwise.compare`, which hands itself in, so this
    module does not import it). The criterion, aggregation and missing-value rule are varied
    by reading the input again (``ScoreTable.reread``)."""
    table = base.table
    read_with = dict(getattr(table.reread, "keywords", {}) or {})
    can_reload = table.reread is not None
    own = {"criterion": table.criterion, "decimals": base.options.get("decimals"),
           "aggregate": read_with.get("aggregate") or "median",
           "missing": read_with.get("missing") or "refuse", "basis": "friedman-holm"}
    defaults, notes = default_grid(table, own, can_reload,
                                   bayesian=base.options.get("bayesian") is not None)
    chosen = read_grid(grid)
    if chosen is not None:
        if not can_reload and any(k in chosen for k in ("criterion", "aggregate", "missing")):
            raise RankwiseError("the grid varies how the table is read (criterion, aggregate or"
                                " missing), but this table was not read from a file, a"
                                " DataFrame or an example")
        dims = {k: chosen[k] for k in DIMENSIONS if k in chosen}
        known = set(table.criteria) | {table.criterion} - {None}
        unknown = [c for c in dims.get("criterion", ()) if c not in known]
        if unknown:   # the table would be read without it, and the entry say it agrees
            have = ", ".join(sorted(known)) if known else "none named"
            raise RankwiseError(f"the multiverse grid names the criterion {unknown[0]!r}, which"
                                f" the input does not have (its criteria: {have})")
    else:
        dims = defaults
    size = int(np.prod([len(v) for v in dims.values()])) if dims else 1
    if size > MAX_ENTRIES:
        raise RankwiseError(f"the multiverse grid has {size:,} analyses (more than"
                            f" {MAX_ENTRIES}); give a smaller grid (--multiverse FILE.toml)")
    claims, about, truth = _default_claims(base)
    entries = tuple(_run(base, read_with, dict(zip(dims, values)), own, truth, rerun)
                    for values in itertools.product(*dims.values()))
    return Multiverse({k: list(v) for k, v in dims.items()}, claims, about, entries,
                      tuple(notes), {k: own[k] for k in dims})


def _default_claims(base) -> tuple:
    """``(statements, learners, truth)``: the verdict's claims (the best learner, when it names
    one; each other learner worse than it, or not), whom each is about, and the function that
    reads them off an analysis's ``(best, losers)``."""
    v = base.verdict
    best, losers = v.best, set(v.losers)
    others = [name for name in base.table.learners if name != best]
    than = best if best is not None else "the others"
    claims = ([f"{best} is the best"] if best is not None else []) + [
        f"{name} is {'' if name in losers else 'not '}significantly worse than {than}"
        for name in others]

    def truth(found_best, found_losers):
        found_losers = set(found_losers)
        head = (found_best == best,) if best is not None else ()
        return head + tuple((name in found_losers) == (name in losers) for name in others)
    return tuple(claims), tuple(([best] if best is not None else []) + others), truth


def _run(base, read_with, choices, own, truth, rerun) -> Entry:
    """One analysis: compare (``rerun``) on the table as read or, when the choices read it
    otherwise, on the input read again with them (``Entry.load``)."""
    options = {**base.options, **QUIET}
    basis = choices.get("basis", "friedman-holm")
    load = {k: choices[k] for k in ("criterion", "aggregate", "missing")
            if k in choices and choices[k] != own[k]}
    if "criterion" in load:
        load["higher_is_better"] = None   # another criterion's direction is its own
    if "decimals" in choices:
        options["decimals"] = choices["decimals"]
    options.update(_basis_options(basis))
    command = command_line(base, options, {**read_with, **load})
    try:
        table = base.table.reread(**load) if load else base.table
        cmp = rerun(table, **options)
        best, losers = read_claims(cmp, basis)
    except RankwiseError as exc:
        return Entry(choices, options, command, load, error=str(exc))
    return Entry(choices, options, command, load, best, losers, truth(best, losers))


def command_line(base, options, load) -> str:
    """The ``rankwise compare`` command of one analysis (the input as the analysis named it):
    every option that is not at its default, written as the option table says."""
    from ..option_table import command_words

    source = base.table.source
    words = ["rankwise", "compare"]
    words += (["--example", source.split(":", 1)[1]] if source.startswith("example:") else
              ["TABLE" if source in ("table", "DataFrame") else source])
    words += command_words(options, load)
    return " ".join(shlex.quote(str(w)) for w in words)
