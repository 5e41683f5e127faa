"""Post-hoc comparisons of one analysis, each computed once.

:class:`Pairwise` holds a table's pairwise statistics, gates and adjusted p-values, computing each
the first time it is asked for; the requested post-hoc section, the verdict and the figures all
read it, so a decision that two outputs share is the same number in both.
:func:`build_posthoc` assembles the requested families into a :class:`PosthocResult`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import partial

import numpy as np
from scipy import stats

from .. import _validate as check
from ..errors import RankwiseError
from ..names import (CONOVER, POSTHOC_CHOICES, RANK_BASED, RANKING_ALIASES, RANKINGS_ALL,
                     procedure_title, ranking_title, test_title)
from ..defaults import PAIR_MATRIX_MAX_LEARNERS
from ..stats import OMNIBUS
from ..stats.all_pairs import STREAMED_PROCEDURES, AllPairs, scan
from ..stats.anova import tukey_dunnett
from ..stats.contrast import contrast_estimation
from ..stats.exact import PERMUTATION_BELOW_N, rank_sum_difference_distribution
from ..stats.multiple_sign import multiple_sign_test
from ..stats.omnibus import friedman_from_ranks, iman_davenport_from_friedman
from ..stats.pairwise import (adjusted_pvalues, check_procedures, critical_difference,
                              family_pairs, pair_test, pairwise_statistics, resolve_control)
from ..stats.results import jsonable, p_phrase
from .results import (CriticalDifference, FamilyResult, Gate, PosthocResult, RankingResult,
                      StreamedFamily)


class Pairwise:
    """Lazily computed, cached pairwise results of one rounded score matrix ``x``."""

    def __init__(self, x, learners, settings, *, higher_is_better, tests, ranks=None,
                 gate_test: str | None = None, shown=None, top_pairs: int | None = None):
        """``settings``: the analysis' options (:class:`~.options.Options`, or anything with
        their names as attributes): alpha, convention, decimals, friedman_method,
        bh_time_budget and the Wilcoxon and sign tests' settings are read from it."""
        self.x = x
        self.learners = tuple(learners)
        self.hib = higher_is_better
        self.alpha = settings.alpha
        self.convention = settings.convention
        self.tests = tests  # omnibus results already computed by compare()
        self.options = dict(zero_method=settings.zero_method,
                            wilcoxon_method=settings.wilcoxon_method,
                            correction=settings.continuity_correction,
                            sign_ties=settings.sign_ties)
        self.time_budget = settings.bh_time_budget
        self.ranks = ranks  # within-data-set ranks of x (1 = best), when the caller has them
        self._stats = {}
        self._gates = {}
        self._apv = {}
        self._notes = {}
        self._methods = {}
        self._anova = {}
        self._cds = {}
        self.extra_tests = {}  # gate tests the caller did not ask for, computed here
        self.friedman_method = settings.friedman_method
        # x is rounded already; the differences and derived values (aligned values, Quade's
        # ranges, pairwise differences) are rounded again to the same places, as everywhere.
        self.decimals = settings.decimals
        # With missing cells one test gates every ranking (Skillings-Mack), and each pair is
        # tested on the data sets it shares.
        self.gate_test = gate_test
        self.complete = not np.isnan(x).any()
        # Above PAIR_MATRIX_MAX_LEARNERS the all-pairs family is streamed: the learners whose
        # pairs it keeps (those the reports show) and how many of the most significant pairs.
        self.shown = np.arange(len(self.learners)) if shown is None else np.asarray(shown)
        self.top_pairs = top_pairs or STREAM_TOP_PAIRS
        self._streams = {}

    # ------------------------------------------------------------------ gates and statistics

    def gate(self, ranking: str) -> Gate:
        gate_name = self.gate_test or RANKINGS_ALL[ranking].gate
        if gate_name not in self._gates:
            res = self.tests.get(gate_name) or self.extra_tests.get(gate_name)
            if res is None and gate_name == "iman_davenport" and self.ranks is not None:
                res = iman_davenport_from_friedman(friedman_from_ranks(
                    self.ranks, self.convention, self.friedman_method))
                self.extra_tests[gate_name] = res
            if res is None:
                kwargs = {"decimals": self.decimals, "convention": self.convention}
                if gate_name == "anova":
                    kwargs["alpha"] = self.alpha
                else:
                    kwargs["higher_is_better"] = self.hib
                res = OMNIBUS[gate_name](self.x, **kwargs)
                self.extra_tests[gate_name] = res
            self._gates[gate_name] = Gate(gate_name, res.statistic, res.pvalue, self.alpha,
                                          res.reject(self.alpha))
        return self._gates[gate_name]

    def statistics(self, ranking: str):
        if ranking not in self._stats:
            self._stats[ranking] = pairwise_statistics(
                self.x, ranking, higher_is_better=self.hib, convention=self.convention,
                decimals=self.decimals, ranks=self.ranks, complete_cases=not self.complete,
                **self.options)
        return self._stats[ranking]

    def critical_difference(self, ranking: str = "friedman") -> CriticalDifference:
        """The CDs of a rank-based ranking's mean scores, with the SE its z-tests use (for
        ``friedman`` this is the one CD every output prints and draws)."""
        if ranking not in self._cds:
            st = self.statistics(ranking)
            n, k = self.x.shape
            nem = critical_difference(k, n, self.alpha, "nemenyi", se=st.se)
            bd = critical_difference(k, n, self.alpha, "bonferroni_dunn", se=st.se)
            self._cds[ranking] = CriticalDifference(self.alpha, st.se, st.details["se_formula"],
                                                    nem.cd, nem.q, bd.cd, bd.q)
        return self._cds[ranking]

    def anova(self, control: int | None):
        """Tukey and Dunnett comparisons (computed once per control)."""
        if control not in self._anova:
            self._anova[control] = tukey_dunnett(self.x, control, alpha=self.alpha,
                                                 decimals=None)
        return self._anova[control]

    # -------------------------------------------------------------------------- families

    def computed(self, ranking: str, family: str, procedure: str) -> bool:
        """Whether the two-sided APVs of ``procedure`` in ``family`` (``all_pairs``, no
        control) are known already: a reader that could compute its own cheaper ones (the
        figures' Nemenyi p-values) reads these instead, computing nothing twice."""
        return procedure in self._apv.get((ranking, family, None, "two-sided"), {})

    def family(self, ranking: str, family: str, procedures, control: int | None,
               alternative: str = "two-sided"):
        """A :class:`FamilyResult` with the APVs of ``procedures`` (each computed once), plus
        the notes and methods of the procedures that ran. ``alternative`` (control family
        only): ``greater`` tests "each learner is better than the control", ``less`` "worse"."""
        if ranking == "anova":
            return self._anova_family(family, control)
        if family == "all_pairs" and streams(ranking, len(self.learners)):
            return self._streamed(ranking, tuple(procedures)), (), {}
        st = self.statistics(ranking)
        pairs = family_pairs(len(self.learners), family, control)
        a, b = pairs[:, 0], pairs[:, 1]
        p = (st.pvalues[a, b] if alternative == "two-sided" else
             self._one_sided(st, ranking, control, alternative, b))
        key = (ranking, family, control, alternative)
        cache = self._apv.setdefault(key, {})
        missing = [proc for proc in procedures if proc not in cache]
        if missing:
            _, _, apvs, notes, used = adjusted_pvalues(
                st, family, tuple(missing), control=control, convention=self.convention,
                time_budget=self.time_budget, pvalues=p)
            cache.update(apvs)
            self._notes.setdefault(key, []).extend(notes)
            self._methods.setdefault(key, {}).update(used)
        ran = tuple(proc for proc in procedures if proc in cache)
        result = FamilyResult(family, ran, self.learners, a, b,
                              np.asarray(st.statistics[a, b], dtype=float),
                              np.asarray(p, dtype=float),
                              {proc: np.asarray(cache[proc], dtype=float) for proc in ran})
        return (result, tuple(self._notes.get(key, ())), dict(self._methods.get(key, {})))

    def _streamed(self, ranking: str, procedures: tuple) -> StreamedFamily:
        """The all-pairs family of many learners, one pass per ranking (for the union of the
        procedures asked for so far; a later request for fewer reuses it)."""
        cached = self._streams.get(ranking)
        if cached is None or not set(procedures) <= set(cached.procedures):
            wanted = tuple(dict.fromkeys((*(cached.procedures if cached else ()),
                                          *procedures)))
            st = self.statistics(ranking)
            pairs = AllPairs(st.scores, st.se, wanted,
                             df=st.details["df"] if ranking in CONOVER else None)
            found = scan(pairs, self.alpha, self.top_pairs, self.shown)
            cached = StreamedFamily("all_pairs", wanted, self.learners, pairs.m, self.alpha,
                                    found.rejected, self._pair_rows(found.top, wanted),
                                    self._pair_rows(found.among, wanted),
                                    found.last_rejected, pairs)
            self._streams[ranking] = cached
        if cached.procedures == procedures:
            return cached
        keep = tuple(p for p in procedures if p in cached.procedures)
        return replace(cached, procedures=keep, top=_with(cached.top, keep),
                       among=_with(cached.among, keep),
                       rejected={p: cached.rejected[p] for p in keep},
                       last_rejected={p: cached.last_rejected[p] for p in keep})

    def _pair_rows(self, rows: tuple, procedures: tuple) -> FamilyResult:
        a, b, statistic, p, apv = rows
        return FamilyResult("all_pairs", procedures, self.learners, a, b, statistic, p,
                            {proc: apv[proc] for proc in procedures})

    def _one_sided(self, st, ranking, control, alternative, others) -> np.ndarray:
        """One-sided p-values of the pairs (control, j), j in ``others``: the upper tail of
        each ranking's own null distribution when ``greater`` (j better than the control)."""
        sign = 1.0 if alternative == "greater" else -1.0
        z = np.asarray(st.statistics[np.full(others.size, control), others], dtype=float)
        if ranking in RANK_BASED:  # z = (M_c − M_j)/SE > 0 when j ranks better
            return stats.norm.sf(sign * z)
        if ranking in CONOVER:
            return stats.t.sf(sign * z, st.details["df"])
        if ranking == "friedman_exact":
            values, probs = rank_sum_difference_distribution(self.ranks)
            d = 2 * sign * z  # doubled units, as the distribution
            return np.array([min(1.0, probs[sign * values >= v - 1e-9].sum()) for v in d])
        out = np.empty(others.size)
        for i, j in enumerate(others.tolist()):  # wilcoxon, sign: j against the control
            rows = ~np.isnan(self.x[:, control]) & ~np.isnan(self.x[:, j])
            out[i] = pair_test(self.x[rows, control], self.x[rows, j], ranking,
                               higher_is_better=self.hib, convention=self.convention,
                               decimals=self.decimals, alternative=alternative,
                               **self.options).pvalue
        return out

    def _anova_family(self, family, control):
        res = self.anova(control)
        n = self.x.shape[0]

        def unadjusted(diff):
            if res.mse <= 0:
                return 0.0
            t = abs(diff) / math.sqrt(2 * res.mse / n)
            return float(2 * stats.t.sf(t, res.df))

        proc, rows = ("tukey", res.tukey) if family == "all_pairs" else ("dunnett",
                                                                         res.dunnett)
        out = FamilyResult(family, (proc,), self.learners,
                           np.array([r["a"] for r in rows], dtype=np.int64),
                           np.array([r["b"] for r in rows], dtype=np.int64),
                           np.array([float(r["statistic"]) for r in rows]),
                           np.array([unadjusted(r["difference"]) for r in rows]),
                           {proc: np.array([float(r["pvalue"]) for r in rows])})
        return out, (), {}


#: The most significant pairs a streamed family keeps when no ``top`` is set.
STREAM_TOP_PAIRS = 100


def streams(ranking: str, k: int) -> bool:
    """Whether the all-pairs family of ``ranking`` over k learners is streamed (computed in
    blocks, not held): above ``PAIR_MATRIX_MAX_LEARNERS`` learners, for the rankings whose
    pair statistic is a difference of scores."""
    return k > PAIR_MATRIX_MAX_LEARNERS and (ranking in RANK_BASED or ranking in CONOVER)


def _with(fam: FamilyResult, procedures: tuple) -> FamilyResult:
    return replace(fam, procedures=procedures,
                   apvs={p: fam.apvs[p] for p in procedures})


def resolve_rankings(rankings) -> list:
    chosen = check.parse_list(rankings)
    if chosen is not None and not chosen:
        raise RankwiseError("--ranking is empty; name at least one of "
                            f"{', '.join(RANKINGS_ALL)}")
    chosen = [RANKING_ALIASES.get(r, r) for r in (chosen or ["friedman"])]
    for r in chosen:
        check.choice("ranking", r, tuple(RANKINGS_ALL))
    return list(dict.fromkeys(chosen))


def build_posthoc(engine: Pairwise, mean_ranks, *, family, control, procedures, rankings,
                  force, alternative: str = "two-sided") -> PosthocResult:
    """The requested post-hoc families on the requested rankings (the ``posthoc`` section)."""
    plan = _plan(engine, mean_ranks, family, control, procedures, rankings, alternative)
    learners, c_idx = list(engine.learners), plan.control
    entries = {}
    for ranking in plan.rankings:
        gate = engine.gate(ranking)
        if not gate.passed and not force:
            entries[ranking] = RankingResult(
                ranking, gate, skipped=True, forced=False,
                notes=(f"{test_title(gate.test)} does not reject at alpha = {engine.alpha}"
                       f" ({p_phrase(gate.pvalue)}): no post-hoc comparisons on"
                       f" {ranking_title(ranking)} (force them with --force-posthoc)",))
            continue
        notes = _ranking_notes(engine, ranking, gate, plan.rankings)
        if plan.note and streams(ranking, len(engine.learners)):
            notes.append(plan.note)
        if len(engine.learners) > PAIR_MATRIX_MAX_LEARNERS and ranking == plan.rankings[0]:
            notes.append(f"contrast estimation (a k x k matrix of medians) is not computed above"
                         f" {PAIR_MATRIX_MAX_LEARNERS:,} learners")
        fams, methods = _families(engine, ranking, plan, alternative, notes)
        entries[ranking] = _ranking_result(engine, ranking, gate, fams, methods, notes, c_idx)
    return PosthocResult(
        families=plan.families, rankings=entries,
        control=learners[c_idx] if c_idx is not None else None,
        control_source=(None if c_idx is None else
                        "option" if control not in (None, "best") else
                        "best Friedman mean rank" if engine.complete else "best mean rank"),
        procedures={fam: tuple(plan.chosen[fam]) for fam in plan.families}, forced=bool(force),
        critical_difference=engine.critical_difference() if engine.complete else None,
        multiple_sign_test=_multiple_sign(engine, c_idx),
        contrast=partial(_contrast, engine) if engine.complete and len(learners)
        <= PAIR_MATRIX_MAX_LEARNERS else None)


@dataclass(frozen=True)
class _Plan:
    """What :func:`build_posthoc` computes: the families, the rankings, each family's
    procedures, the control's index and whether the control family is one-sided."""

    families: tuple
    rankings: list
    chosen: dict
    control: int | None
    one_sided: bool
    note: str | None = None


def _plan(engine, mean_ranks, family, control, procedures, rankings, alternative) -> _Plan:
    """The request checked against the table: one-line errors for what cannot be done."""
    check.choice("posthoc", family, tuple(POSTHOC_CHOICES))
    families = POSTHOC_CHOICES[family]
    learners = list(engine.learners)
    if engine.x.shape[1] < 3:
        raise RankwiseError("post-hoc comparisons need at least 3 learners; with 2, the"
                            " two-learner tests already answer the question")
    rankings = resolve_rankings(rankings)
    procedures = check.parse_list(procedures)
    chosen = {fam: check_procedures(procedures, fam) for fam in families}
    for fam in families:
        if procedures is not None and not chosen[fam] and "anova" not in rankings:
            raise RankwiseError(f"none of the procedures {', '.join(procedures)} applies to the"
                                f" {fam.replace('_', ' ')} family")
    chosen, note = _many_learners(chosen, rankings, len(learners), procedures is None)
    c_idx = resolve_control(control, learners, mean_ranks) if "control" in families else None
    one_sided = alternative != "two-sided" and "control" in families
    if one_sided and control in (None, "best"):
        raise RankwiseError("a one-sided comparison against a control needs the control named"
                            " (--control NAME): against the best-ranked learner the direction"
                            " would be chosen from the data")
    if one_sided and "anova" in rankings:
        raise RankwiseError("the anova ranking (Dunnett) is two-sided; drop it or use"
                            " --alternative two-sided")
    return _Plan(families, rankings, chosen, c_idx, one_sided, note)


def _many_learners(chosen: dict, rankings, k: int, default: bool) -> tuple:
    """``(chosen, note)``: above ``PAIR_MATRIX_MAX_LEARNERS`` the all-pairs family is streamed
    (:func:`streams`), which the pairwise tests of single pairs and the procedures that need
    every pair at once (Shaffer, Bergmann-Hommel) cannot be: those are refused when asked for
    by name, and left out of the default procedures with a note."""
    if "all_pairs" not in chosen or k <= PAIR_MATRIX_MAX_LEARNERS:
        return chosen, None
    limit = f"above {PAIR_MATRIX_MAX_LEARNERS:,} learners ({k:,} here)"
    for ranking in rankings:
        if not streams(ranking, k):
            raise RankwiseError(f"all pairs by the {ranking} ranking need every pair's test at"
                                f" once; {limit} --posthoc all takes the rank-based rankings"
                                " (friedman, friedman_aligned, quade, friedman_conover,"
                                " quade_conover), or use --posthoc control")
    dropped = [p for p in chosen["all_pairs"] if p not in STREAMED_PROCEDURES]
    if dropped and not default:
        raise RankwiseError(f"{procedure_title(dropped[0])} needs every pair at once; {limit}"
                            " all pairs are adjusted in blocks by nemenyi, bonferroni, holm,"
                            " sidak, benjamini_hochberg or benjamini_yekutieli (--procedures"
                            " holm,nemenyi)")
    if not dropped:
        return chosen, None
    kept = tuple(p for p in chosen["all_pairs"] if p in STREAMED_PROCEDURES)
    return ({**chosen, "all_pairs": kept},
            f"{' and '.join(procedure_title(p) for p in dropped)} need every pair at once and"
            f" are left out {limit}; the other procedures adjust all pairs in blocks")


def _ranking_notes(engine, ranking, gate, rankings) -> list:
    """What a reader of the ranking's comparisons should know before reading them."""
    n = engine.x.shape[0]
    notes = [] if gate.passed else [
        f"computed although {test_title(gate.test)} does not reject at alpha = {engine.alpha}:"
        " read these comparisons with care"]
    if ranking == "friedman" and n < PERMUTATION_BELOW_N and "friedman_exact" not in rankings:
        notes.append(f"with {n} data sets the normal approximation of these z-tests is rough;"
                     " the exact p-values of --ranking friedman_exact (Eisinga et al. 2017)"
                     " avoid it")
    return notes


def _families(engine, ranking, plan: _Plan, alternative, notes: list) -> tuple:
    """``(families, methods)`` of one ranking; their notes are added to ``notes``."""
    learners, c_idx = list(engine.learners), plan.control
    fams, methods = {}, {}
    for fam in plan.families:
        procs = ("tukey",) if ranking == "anova" and fam == "all_pairs" else (
            ("dunnett",) if ranking == "anova" else plan.chosen[fam])
        result, fam_notes, used = engine.family(
            ranking, fam, procs, c_idx if fam == "control" else None,
            alternative if fam == "control" else "two-sided")
        if fam == "control" and plan.one_sided:
            side = "better" if alternative == "greater" else "worse"
            fam_notes = (*fam_notes, f"against the control {learners[c_idx]}: one-sided, H1:"
                         f" each learner is {side} than {learners[c_idx]}")
        fams[fam] = result
        notes.extend(n_ for n_ in fam_notes if n_ not in notes)
        methods.update(used)
    return fams, methods


def _ranking_result(engine, ranking, gate, fams, methods, notes, c_idx) -> RankingResult:
    """One ranking's section: its statistic and what it needs beside the families."""
    learners = list(engine.learners)
    if ranking == "anova":
        res = engine.anova(c_idx)
        return RankingResult(
            ranking, gate, skipped=False, forced=not gate.passed,
            statistic="q (Tukey) / t (Dunnett)", families=fams, notes=tuple(notes),
            details={"mse": res.mse, "df": res.df,
                     "means": dict(zip(learners, engine.x.mean(axis=0))),
                     "notes_assumptions": "Tukey and Dunnett assume sphericity; see the"
                                          " ANOVA's notes"})
    st = engine.statistics(ranking)
    common = dict(skipped=False, forced=not gate.passed, families=fams, methods=methods,
                  notes=tuple(notes))
    scores = dict(zip(learners, st.scores)) if st.scores is not None else None
    if ranking in RANK_BASED:
        return RankingResult(ranking, gate, statistic="z", se=st.se,
                             se_formula=st.details["se_formula"], mean_scores=scores,
                             critical_difference=engine.critical_difference(ranking), **common)
    if ranking == "friedman_exact":
        return RankingResult(ranking, gate, statistic="R_a - R_b (rank sums)",
                             details={"method": "exact", "mean_scores": scores}, **common)
    if ranking in CONOVER:
        return RankingResult(ranking, gate, statistic=f"t ({st.details['df']} df)",
                             details={"se": st.se, "se_formula": st.details["se_formula"],
                                      "df": st.details["df"], "mean_scores": scores}, **common)
    label = "T" if ranking == "wilcoxon" else (
        "wins of b (ties split)" if engine.options["sign_ties"] == "split" else "wins of b")
    details = dict(st.details)
    if "n_used" in details:  # missing cells: the data sets each pair shares
        used = details.pop("n_used")
        details["n_used"] = {a: {b: int(used[i, j]) for j, b in enumerate(learners) if j != i}
                             for i, a in enumerate(learners)}
    return RankingResult(ranking, gate, statistic=label, details=details, **common)


def _multiple_sign(engine, c_idx):
    """The multiple sign test against the control (complete tables), as JSON data."""
    if c_idx is None or not engine.complete:
        return None
    learners = list(engine.learners)
    mst = multiple_sign_test(engine.x, c_idx, alpha=engine.alpha, higher_is_better=engine.hib,
                             decimals=engine.decimals).to_dict()
    for row in mst["comparisons"]:
        row["learner"] = learners[row["learner"]]
    mst["control"] = learners[c_idx]
    return jsonable(mst)


def _contrast(engine) -> dict:
    """Contrast estimation, computed when a report first reads it; k × k matrices in
    ``learners`` order (schema 2), kept as arrays: at k = 1,000 a dict of dicts is a million
    Python objects."""
    ce = contrast_estimation(engine.x, decimals=engine.decimals)
    return {"learners": list(engine.learners), "m": np.asarray(ce.m, dtype=float),
            "estimates": np.asarray(ce.estimates, dtype=float),
            "medians": np.asarray(ce.medians, dtype=float),
            "orientation": "estimates[u][v] = m[u] - m[v] (rows and columns in learners"
                           " order); positive means u scores higher"}


parse_list = check.parse_list  # importable from here as in rankwise 0.5
