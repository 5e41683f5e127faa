"""One call that runs every applicable test on a table and keeps the choices it made."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cached_property, partial

import numpy as np

from .. import _validate as check
from ..errors import RankwiseError
from ..names import OMNIBUS_TESTS, TWO_LEARNER_TESTS
from ..stats.anova import rm_anova
from ..stats.omnibus import (
    _aligned_from_ranks,
    _friedman_from_ranks,
    _iman_davenport_from_friedman,
    _quade_from_ranks,
)
from ..stats.ranking import (
    DEFAULT_DECIMALS,
    aligned_ranks,
    midranks,
    quade_weights,
    round_scores,
)
from ..stats.results import TestResult, jsonable
from ..stats.two_learners import (
    SIGN_TIES,
    ZERO_METHODS,
    paired_ttest,
    sign_test,
    wilcoxon,
)
from ..tables import ScoreTable, load_table

SCHEMA = "rankwise.compare/1"
PARALLEL_MIN_CELLS = 1_000_000


@dataclass(frozen=True)
class Comparison:
    """Everything :func:`compare` found, with the settings that produced it."""

    table: ScoreTable
    alpha: float
    convention: str
    decimals: int | None
    ranks: np.ndarray
    mean_ranks: np.ndarray
    tests: dict
    pair: tuple | None = None
    settings: dict = field(default_factory=dict)
    posthoc: dict | None = None

    def to_dict(self) -> dict:
        from .._version import __version__

        t = self.table
        tests = {}
        for name, res in self.tests.items():
            entry = res.to_dict(self.alpha)
            if name in TWO_LEARNER_TESTS:
                entry = {"a": self.pair[0], "b": self.pair[1], **entry}
            tests[name] = entry
        return jsonable({
            "schema": SCHEMA,
            "rankwise_version": __version__,
            "source": t.source,
            "criterion": t.criterion,
            "learners": list(t.learners),
            "datasets": list(t.datasets),
            "n_datasets": t.n_datasets,
            "n_learners": t.n_learners,
            "higher_is_better": t.higher_is_better,
            "direction_source": t.direction_source,
            "aggregate": t.aggregate,
            "decimals": self.decimals,
            "alpha": self.alpha,
            "convention": self.convention,
            "settings": self.settings,
            "mean_ranks": dict(zip(t.learners, self.mean_ranks)),
            "values": self.table.values,
            "ranks": self.ranks,
            "missing": {"policy": t.missing_policy, "cells": [list(c) for c in t.missing_cells],
                        "dropped_datasets": list(t.dropped_datasets),
                        "dropped_learners": list(t.dropped_learners)},
            "warnings": list(t.warnings),
            "pair": list(self.pair) if self.pair else None,
            "tests": tests,
            "posthoc": self.posthoc,
        })

    @cached_property
    def report(self) -> dict:
        """Verdict, methods paragraph, rank-table marks, win/tie/loss, quartiles (computed once)."""
        from ..report.formats import report_data

        return report_data(self)

    def to_json(self, indent: int | None = 2) -> str:
        """The JSON contract, with the ``report`` section (verdict, tables, quartiles)."""
        import json

        from ..report.formats import full_json

        return json.dumps(full_json(self), indent=indent, ensure_ascii=False, allow_nan=False)

    def to_text(self) -> str:
        from ..report.formats import text_report

        return text_report(self)

    def to_markdown(self) -> str:
        from ..report.formats import markdown_report

        return markdown_report(self)

    def to_latex(self) -> str:
        from ..report.formats import latex_report

        return latex_report(self)

    def to_html(self) -> str:
        from ..report.formats import html_report

        return html_report(self)

    def _repr_html_(self) -> str:  # Jupyter shows the comparison as its HTML report
        return self.to_html()

    def write_report(self, folder, procedure: str = "nemenyi"):
        """Every format and figure into ``folder`` (see :func:`rankwise.report.write_report`)."""
        from ..report.formats import write_report

        return write_report(self, folder, procedure)


def compare(data, *, alpha: float = 0.05, convention: str = "default",
            decimals: int | None = DEFAULT_DECIMALS, tests=None, pair=None,
            zero_method: str = "demsar", wilcoxon_method: str = "auto", sign_ties: str = "split",
            posthoc: str | None = None, control: str | None = None, procedures=None,
            rankings=None, force_posthoc: bool = False, bh_time_budget: float = 10.0,
            **load_options) -> Comparison:
    """Rank the table and run the omnibus tests (k ≥ 3) or the two-learner tests (k = 2).

    Parameters
    ----------
    data : ScoreTable, path or DataFrame
        Anything :func:`rankwise.load_table` reads; ``load_options`` are passed to it.
    alpha : float
        Significance level used for the ``reject`` flags and the ANOVA assumption checks.
    convention : {"default", "paper"}
        ``default``: exact formulas (tie corrections, correct aligned-ranks and Quade statistics).
        ``paper``: the formulas behind the published numbers.
    decimals : int or None
        Scores and their differences are rounded to this many places before any comparison.
    tests : sequence of str, optional
        Which tests to run; default: all omnibus tests for k ≥ 3, all two-learner tests for k = 2.
    pair : (str, str), optional
        With k ≥ 3, also run the two-learner tests on these two learners (b is compared with a).
    zero_method, wilcoxon_method : str
        Wilcoxon's zero rule (``demsar``, ``zsplit``, ``pratt``, ``wilcox``) and p-value method
        (``auto``, ``exact``, ``normal``).
    sign_ties : {"split", "drop"}
        Tie rule of the sign test.
    posthoc : {None, "all", "control", "both"}
        Post-hoc family: all pairs, against a control, or both (k ≥ 3). Giving ``control``
        alone implies ``"control"``.
    control : str, optional
        Control learner; ``None`` or ``"best"`` picks the best Friedman mean rank.
    procedures : sequence of str, optional
        Adjustment procedures (default: every procedure of the family).
    rankings : sequence of str, optional
        Where the pairwise statistics come from: ``friedman`` (default), ``friedman_aligned``
        (or ``aligned``), ``quade``, ``wilcoxon``, ``sign``, ``anova`` (Tukey and Dunnett).
    force_posthoc : bool
        Compute post-hoc tests even when the gating omnibus test does not reject (the result is
        marked). By default the papers' gate is followed.
    bh_time_budget : float
        Seconds for the exact Bergmann-Hommel search on matrices that are not Robinson.
    """
    table = data if isinstance(data, ScoreTable) else load_table(data, **load_options)
    if load_options and isinstance(data, ScoreTable):
        raise RankwiseError("options for reading a table cannot be applied to a ScoreTable")
    alpha = check.alpha(alpha)
    convention = check.convention(convention)
    check.choice("zero_method", zero_method, ZERO_METHODS)
    check.choice("wilcoxon_method", wilcoxon_method, ("auto", "exact", "normal"))
    check.choice("sign_ties", sign_ties, SIGN_TIES)
    k = table.n_learners
    if pair is not None:
        pair = tuple(pair)
        if len(pair) != 2 or pair[0] == pair[1]:
            raise RankwiseError("pair must name two different learners")
        for name in pair:
            table.column(name)
    elif k == 2:
        pair = tuple(table.learners)
    if tests is None:
        tests = OMNIBUS_TESTS if k >= 3 else ()
        tests = tests + (TWO_LEARNER_TESTS if pair else ())
    tests = tuple(tests)
    for name in tests:
        check.choice("test", name, OMNIBUS_TESTS + TWO_LEARNER_TESTS)
        if name in TWO_LEARNER_TESTS and not pair:
            raise RankwiseError(f"the {name} test compares two learners; name them with pair=")
    x = round_scores(table.values, decimals)
    hib = table.higher_is_better
    aligned_job = None
    if "friedman_aligned" in tests:
        # The global sort of n·k aligned values dominates on large tables; numpy releases the
        # GIL while sorting, so it runs beside the rest. The result does not depend on timing.
        pool = ThreadPoolExecutor(max_workers=1) if x.size >= PARALLEL_MIN_CELLS else None
        job = partial(aligned_ranks, x, hib, decimals)
        aligned_job = pool.submit(job) if pool else job
        if pool:
            pool.shutdown(wait=False)
    ranks = midranks(-x if hib else x)
    results: dict[str, TestResult] = {}
    if "friedman" in tests or "iman_davenport" in tests:
        fried = _friedman_from_ranks(ranks, convention)
        if "friedman" in tests:
            results["friedman"] = fried
        if "iman_davenport" in tests:
            results["iman_davenport"] = _iman_davenport_from_friedman(fried)
    if aligned_job is not None:
        r_al = aligned_job() if callable(aligned_job) else aligned_job.result()
        results["friedman_aligned"] = _aligned_from_ranks(r_al, convention)
    if "quade" in tests:
        results["quade"] = _quade_from_ranks(ranks, quade_weights(x, decimals), convention)
    if "anova" in tests:
        results["anova"] = rm_anova(x, convention=convention, alpha=alpha, decimals=None)
    if pair:
        a, b = (x[:, table.learners.index(name)] for name in pair)
        common = dict(higher_is_better=hib, convention=convention, decimals=decimals)
        runners = {
            "wilcoxon": lambda: wilcoxon(a, b, zero_method=zero_method, method=wilcoxon_method,
                                         **common),
            "sign": lambda: sign_test(a, b, ties=sign_ties, **common),
            "ttest": lambda: paired_ttest(a, b, **common),
            "ttest_relative": lambda: paired_ttest(a, b, relative=True, **common),
        }
        for name in TWO_LEARNER_TESTS:
            if name in tests:
                results[name] = runners[name]()
    settings = {"wilcoxon_zero_method": zero_method, "wilcoxon_method": wilcoxon_method,
                "sign_ties": sign_ties,
                "friedman": "tie-corrected" if convention == "default" else "uncorrected",
                "ranks": "mid-ranks, 1 = best"}
    if control is not None and posthoc is None:
        posthoc = "control"
    report = None
    if posthoc is not None:
        from .posthoc import posthoc_report

        report = posthoc_report(
            table, x, ranks.mean(axis=0), results, family=posthoc, control=control,
            procedures=procedures, rankings=rankings, alpha=alpha, convention=convention,
            decimals=decimals, force=force_posthoc, time_budget=bh_time_budget,
            zero_method=zero_method, wilcoxon_method=wilcoxon_method, sign_ties=sign_ties)
    return Comparison(table=table, alpha=alpha, convention=convention, decimals=decimals,
                      ranks=ranks, mean_ranks=ranks.mean(axis=0), tests=results, pair=pair,
                      settings=settings, posthoc=report)
