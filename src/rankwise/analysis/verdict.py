"""The verdict: which learners are detectably worse than the best, in plain words.

rankwise's rule: if the omnibus test detects no difference, no learner is
declared better or worse; otherwise the learners not significantly worse than the best-ranked one
(by the verdict's procedure against it, Holm by default, at α) are the *winners* and the rest
the *losers*. The verdict states the direction it read the scores in, and says in the same
paragraph when the sample is too small for the approximations behind it.

Small-sample rule: Demšar (2006, §3.2.2) gives N > 10 data sets (and k > 5 learners) as the rule
of thumb for the χ² approximation of Friedman's statistic, and the rank-based z-tests rest on
the same normal approximation. With N ≤ 10 (``SMALL_N``) the verdict carries a caveat.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..errors import RankwiseError
from ..names import (ALL_PAIRS_PROCEDURES, CONTROL_PROCEDURES, OPTIONAL_PROCEDURES, RANK_BASED,
                     procedure_title, ranking_title, test_title)
from ..stats.results import p_phrase
from .results import Gate, Verdict

#: At or below this many data sets the verdict warns that its approximations are rough.
SMALL_N = 10
#: Above this many learners the verdict is a headline: it names the best, the learners not
#: significantly worse (up to ``HEADLINE_NAMES`` of them) and counts the rest; the reports' verdict
#: table lists the learners with their decisions and differences.
VERDICT_LIST_MAX = 8
HEADLINE_NAMES = 10


def direction_sentence(table) -> str:
    """Which way the scores were read, and why."""
    way = "higher is better" if table.higher_is_better else "lower is better"
    other = "--lower-is-better" if table.higher_is_better else "--higher-is-better"
    source = table.direction_source
    if source == "option":
        return f"Scores were read as {way} (set by the caller)."
    if source == "source":
        reason = getattr(getattr(table, "reading", None), "direction_reason", None)
        return (f"Scores were read as {way} ({reason or 'as the input format defines them'};"
                f" pass {other} to override).")
    if source == "criterion":
        word = getattr(table, "direction_word", None)
        why = f", the word '{word}'" if word and word != table.criterion else ""
        return f"Scores were read as {way} (from the criterion name '{table.criterion}'{why})."
    if table.criterion:
        return (f"Scores were read as {way} by assumption: the criterion name"
                f" '{table.criterion}' does not say which way is better; pass {other} if that"
                " is wrong.")
    return (f"Scores were read as {way} by assumption (no criterion name was given); pass"
            f" {other} if that is wrong.")


def small_sample_caveat(n: int, gate_test: str | None, detected: bool,
                        gate_method: str | None = None, ranking: str = "friedman") -> str | None:
    if n > SMALL_N or gate_test is None:
        return None
    consequence = ("treat the winners and losers as tentative" if detected else
                   "a real difference can easily go undetected with so few data sets")
    rough = ([] if gate_method in ("exact", "monte-carlo") else [test_title(gate_test)]) + (
        ["the pairwise z-tests"] if ranking in RANK_BASED else [])
    if not rough:
        return (f"Caution: with only N = {n} data sets (rule of thumb: more than {SMALL_N}) the"
                f" tests have little power; {consequence}.")
    return (f"Caution: with only N = {n} data sets (rule of thumb: more than {SMALL_N}), the"
            f" approximate p-values of {' and of '.join(rough)} are rough; {consequence}.")


def check_procedure(procedure: str) -> str:
    """The verdict compares with the best learner, so its procedure is a control procedure."""
    if procedure in CONTROL_PROCEDURES + OPTIONAL_PROCEDURES:
        return procedure
    if procedure in ALL_PAIRS_PROCEDURES:
        raise RankwiseError(f"the verdict compares every learner with the best one, so it needs a"
                            f" control procedure, not {procedure!r}; choose one of"
                            f" {', '.join(CONTROL_PROCEDURES)}")
    raise RankwiseError(f"unknown verdict procedure {procedure!r}; choose one of"
                        f" {', '.join(CONTROL_PROCEDURES)}")


def decide(table, mean_ranks, tests, pair, engine, *, alpha, procedure: str = "holm",
           ranking: str = "friedman") -> Verdict:
    """The verdict of a comparison (see the module docstring)."""
    learners = list(table.learners)
    direction = direction_sentence(table)
    if table.n_learners == 2:
        return _two_learners(table, tests, pair, alpha, direction)
    check_procedure(procedure)
    gate = engine.gate(ranking)
    best = int(np.argmin(mean_ranks))  # first of the best on ties
    n = table.n_datasets
    common = dict(best=learners[best], procedure=procedure, ranking=ranking, family="control",
                  alpha=alpha, gate=gate, direction=direction)
    if not gate.passed:
        text = (f"No significant difference detected at alpha = {alpha}: {test_title(gate.test)}"
                f" does not reject that all learners perform alike ({p_phrase(gate.pvalue)})."
                " This does not show that they perform the same.")
        caveats = _caveats(n, gate, detected=False, tests=tests, engine=engine, ranking=ranking)
        return _verdict(text, detected=False, winners=tuple(learners), losers=(),
                        caveats=caveats, **common)
    fam, _, _ = engine.family(ranking, "control", (procedure,), best)
    apv = {c.b: c.apv[procedure] for c in fam.comparisons}
    worse = {c.b for c in fam.comparisons if c.rejected(procedure, alpha)}
    order = [learners[j] for j in np.argsort(mean_ranks, kind="stable")]
    winners = tuple(name for name in order if name not in worse)
    losers = tuple(name for name in order if name in worse)
    if len(learners) > VERDICT_LIST_MAX:
        text = _headline(learners[best], winners, losers, gate, alpha, procedure, ranking)
    else:
        text = (f"At alpha = {alpha} {test_title(gate.test)} rejects that all learners perform"
                f" alike ({p_phrase(gate.pvalue)}). Compared with the best-ranked learner,"
                f" {learners[best]}, by {procedure_title(procedure)} on {ranking_title(ranking)}: ")
        if losers:
            text += (f"winners (not significantly worse than {learners[best]}):"
                     f" {', '.join(winners)}; losers: {', '.join(losers)}.")
        else:
            text += (f"no learner is significantly worse than {learners[best]}, so all of them"
                     " are winners.")
    caveats = _caveats(n, gate, detected=True, tests=tests, engine=engine, ranking=ranking)
    return _verdict(text, detected=True, winners=winners, losers=losers, caveats=caveats,
                    apv=apv, **common)


def some_names(names) -> str:
    """Up to ``HEADLINE_NAMES`` names, then how many more (long lists at large k)."""
    names = list(names)
    more = len(names) - HEADLINE_NAMES
    return ", ".join(names[:HEADLINE_NAMES]) + (f" and {more:,} more" if more > 0 else "")


def _headline(best, winners, losers, gate, alpha, procedure, ranking) -> str:
    """The verdict of many learners in a few lines (see ``VERDICT_LIST_MAX``)."""
    k = len(winners) + len(losers)
    tied = [name for name in winners if name != best]
    named = some_names(tied)
    text = (f"At alpha = {alpha} {test_title(gate.test)} rejects that all {k:,} learners perform"
            f" alike ({p_phrase(gate.pvalue)}). Best mean rank: {best}. Against it, by"
            f" {procedure_title(procedure)} on {ranking_title(ranking)}: ")
    if not tied:
        text += "every other learner is significantly worse"
    else:
        text += (f"{len(tied):,} learner{'s are' if len(tied) > 1 else ' is'} not significantly"
                 f" worse ({named})")
        text += f"; {len(losers):,} significantly worse" if losers else \
            "; none is significantly worse"
    return text + "."


def _caveats(n, gate: Gate, detected: bool, tests=None, engine=None,
             ranking: str = "friedman") -> tuple:
    found = (tests or {}).get(gate.test) or (
        engine.extra_tests.get(gate.test) if engine is not None else None)
    caveat = small_sample_caveat(n, gate.test, detected,
                                 found.method if found is not None else None, ranking)
    return (caveat,) if caveat else ()


def _verdict(statement: str, *, caveats: tuple = (), direction: str, **fields) -> Verdict:
    """A verdict whose text is its statement, then its caveats, then the direction it read."""
    return Verdict(text=" ".join([statement, *caveats, direction]), statement=statement,
                   caveats=caveats, direction=direction, **fields)


def with_sentence(verdict: Verdict, sentence: str) -> Verdict:
    """The verdict with ``sentence`` after its statement (before its caveats and direction)."""
    statement = f"{verdict.statement} {sentence}"
    return replace(verdict, statement=statement,
                   text=" ".join([statement, *verdict.caveats, verdict.direction]))


def one_sided_claim(pair, alternative: str) -> tuple:
    """``(better, worse)``: what a one-sided test of ``pair`` = (a, b) looks for; ``greater``
    means "b is better than a", in the table's direction."""
    a, b = pair
    return (b, a) if alternative == "greater" else (a, b)


def _two_learners(table, tests, pair, alpha, direction) -> Verdict:
    a, b = pair
    w = tests.get("wilcoxon")
    if w is None:
        raise RankwiseError("the verdict for two learners reads the Wilcoxon signed-ranks test;"
                            " include 'wilcoxon' in tests=")
    caveats = tuple(w.notes) if w.method == "normal" else ()
    alternative = w.details.get("alternative", "two-sided")
    corrected = "continuity-corrected " if w.method == "normal" and w.details.get(
        "continuity_correction") else ""
    sided = "" if alternative == "two-sided" else ", one-sided"
    p = f"{corrected}{w.method} {p_phrase(w.pvalue)}{sided}"
    common = dict(procedure=None, ranking="wilcoxon", family=None, alpha=alpha, gate=None,
                  direction=direction, caveats=caveats)
    if w.reject(alpha):
        if alternative == "two-sided":
            better, worse = (b, a) if w.r_plus > w.r_minus else (a, b)
        else:  # a one-sided test rejects only on its own side
            better, worse = one_sided_claim(pair, alternative)
        text = (f"{better} is significantly better than {worse} (Wilcoxon signed-ranks test,"
                f" {p}, alpha = {alpha}).")
        return _verdict(text, detected=True, winners=(better,), losers=(worse,), best=better,
                        apv={worse: w.pvalue}, **common)
    if alternative == "two-sided":
        text = (f"No significant difference detected between {a} and {b} at alpha = {alpha}"
                f" (Wilcoxon signed-ranks test, {p}). This does not show that they perform the"
                " same.")
    else:
        hoped, other = one_sided_claim(pair, alternative)
        text = (f"No significant evidence that {hoped} is better than {other} at alpha ="
                f" {alpha} (Wilcoxon signed-ranks test, {p}; the test looks only in that"
                " direction). This does not show that they perform the same.")
    return _verdict(text, detected=False, winners=(a, b), losers=(), best=None, **common)


def verdict(cmp, procedure: str | None = None, ranking: str = "friedman") -> dict:
    """The verdict of a comparison as a dict (the API of rankwise 0.1; read ``cmp.verdict``).

    A ``procedure`` other than the comparison's own redoes the analysis with it.
    """
    if ranking != "friedman":
        raise RankwiseError("the verdict reads the Friedman ranking")
    if procedure is not None and procedure != cmp.settings.get("verdict_procedure"):
        cmp = cmp.with_options(verdict_procedure=procedure)
    return cmp.verdict.to_dict()
