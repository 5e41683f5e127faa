"""Bergmann-Hommel adjusted p-values for all pairwise comparisons, at any k.

The closed-test APV of pair e is V_e = max{|I|·min_{f∈I} p_f : I exhaustive, e ∈ I}, capped
at 1, where the exhaustive sets are the within-block pairs of the set partitions of the k
learners (``docs/reference/bergmann-hommel.md``, cited as BH §n). Three exact methods compute it:

- ``fast``: polynomial, for p-value matrices that are *Robinson* in a known order (p never
  increases when moving away from the diagonal). The rank-based post-hoc z-tests (Friedman,
  aligned ranks, Quade) share one standard error, so p is a non-increasing function of the
  distance between mean ranks and the matrix is Robinson in mean-rank order.
- ``brute_force``: enumerates the Bell(k) partitions (k ≤ 10).
- ``branch_and_bound``: exact search for arbitrary matrices (pairwise Wilcoxon or sign tests),
  with a time budget. When the budget runs out the result falls back to Shaffer's static
  procedure and says so; it never returns a silent approximation.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from .._validate import real_array
from ..errors import RankwiseError
from .adjust import shaffer

BRUTE_FORCE_MAX_K = 8


@dataclass(frozen=True)
class BergmannHommel:
    """APVs as a symmetric k × k matrix (diagonal 1), with how they were computed."""

    apv: np.ndarray
    method: str
    monotone: bool
    notes: tuple = ()


def _c2(n):
    return n * (n - 1) / 2.0


def set_partitions(k: int) -> np.ndarray:
    """All set partitions of k items as restricted-growth label rows, shape (Bell(k), k)."""
    rows = np.zeros((1, 1), dtype=np.int8)
    tops = np.zeros(1, dtype=np.int64)
    for _ in range(1, k):
        counts = tops + 2
        rep = np.repeat(rows, counts, axis=0)
        offsets = np.repeat(np.cumsum(counts) - counts, counts)
        new = (np.arange(int(counts.sum())) - offsets).astype(np.int8)
        rows = np.column_stack([rep, new])
        tops = np.maximum(np.repeat(tops, counts), new)
    return rows[:, :k] if k else np.zeros((1, 0), dtype=np.int8)


def _check_matrix(pmatrix) -> np.ndarray:
    p = real_array(pmatrix)
    if p.ndim != 2 or p.shape[0] != p.shape[1]:
        raise RankwiseError("the p-values must form a square k × k matrix")
    k = p.shape[0]
    iu = np.triu_indices(k, 1)
    if not np.allclose(p, p.T, rtol=0, atol=0):
        raise RankwiseError("the p-value matrix must be symmetric")
    if np.any(~np.isfinite(p[iu])) or np.any((p[iu] < 0) | (p[iu] > 1)):
        raise RankwiseError("p-values must be numbers between 0 and 1")
    return p


def _to_matrix(k, values):
    out = np.ones((k, k))
    iu = np.triu_indices(k, 1)
    out[iu] = values
    out[(iu[1], iu[0])] = values
    return out


def brute_force(pmatrix) -> np.ndarray:
    """Raw Bergmann-Hommel APVs by enumerating every set partition (use for k ≤ 10)."""
    p = _check_matrix(pmatrix)
    k = p.shape[0]
    iu = np.triu_indices(k, 1)
    pv = p[iu]
    best = np.zeros(pv.size)
    labels = set_partitions(k)
    for chunk in range(0, labels.shape[0], 20000):
        lab = labels[chunk:chunk + 20000]
        same = lab[:, iu[0]] == lab[:, iu[1]]
        count = same.sum(axis=1)
        mu = np.where(same, pv, np.inf).min(axis=1)
        value = count * np.where(count > 0, mu, 0.0)
        best = np.maximum(best, np.where(same, value[:, None], 0.0).max(axis=0))
    return _to_matrix(k, np.minimum(best, 1.0))


def is_robinson(q: np.ndarray) -> bool:
    """True if q (already in the candidate order) never increases away from the diagonal."""
    k = q.shape[0]
    if k < 3:
        return True
    i, j = np.triu_indices(k, 2)  # pairs with a neighbour pair inside them
    return bool(np.all(q[i, j] <= q[i + 1, j]) and np.all(q[i, j] <= q[i, j - 1]))


def fast(pmatrix, scores, deadline: float | None = None) -> np.ndarray | None:
    """Raw Bergmann-Hommel APVs for a matrix that is Robinson when learners are sorted by
    ``scores`` (ties by index); raises RankwiseError if it is not. None when ``deadline`` (a
    ``time.perf_counter()`` value) passes first.

    Implements BH §1-§5: thresholds τ over the distinct p-values (Lemma 1), prefix/suffix dynamic
    programmes over contiguous blocks (Theorem 1), and the closed form of Lemma 5 for the best
    partition with a given pair in one block (Theorem 2), evaluated only where an upper bound
    τ·M(τ) can still beat the best value found.
    """
    p = _check_matrix(pmatrix)
    k = p.shape[0]
    scores = np.asarray(scores, dtype=float)
    order = np.lexsort((np.arange(k), scores))
    q = p[np.ix_(order, order)]
    if not is_robinson(q):
        raise RankwiseError("the p-value matrix is not Robinson in the order of the scores")
    out_sorted = _fast_sorted(q, deadline)
    if out_sorted is None:
        return None
    out = np.empty_like(out_sorted)
    out[np.ix_(order, order)] = out_sorted
    return out


def _fast_sorted(q: np.ndarray, deadline: float | None = None) -> np.ndarray | None:
    k = q.shape[0]

    def expired() -> bool:
        return deadline is not None and time.perf_counter() > deadline

    if k < 2:
        return np.ones((k, k))
    iu = np.triu_indices(k, 1)
    taus = np.unique(q[iu])[::-1]  # descending thresholds
    n_t = taus.size
    # tpos[j, i]: index of q[j, i] among the thresholds; block j..i is τ_t-feasible iff t ≥ tpos.
    tpos = np.zeros((k, k), dtype=np.int64)
    tpos[iu] = n_t - 1 - np.searchsorted(taus[::-1], q[iu])
    # Block j..i−1 is feasible exactly for the thresholds t ≥ tpos[j, i−1]: update those rows.
    f, ptr = _prefix_optimum(tpos, n_t, expired)
    if f is None:
        return None
    g = _suffix_optimum(tpos, n_t, expired)
    if g is None:
        return None
    total = f[:, k]  # M(τ): the unconstrained optimum
    upper = taus * total
    # Lower bounds: in the optimal contiguous partition at τ, every pair inside a block attains
    # τ·M(τ), which is also the upper bound for that τ.
    starts = np.zeros((n_t, k), dtype=bool)
    cur = np.full(n_t, k)
    rows = np.arange(n_t)
    while np.any(cur > 0):
        active = cur > 0
        j = ptr[rows, cur]
        starts[rows[active], j[active]] = True
        cur = np.where(active, j, 0)
    block = np.cumsum(starts, axis=1)
    a_idx, b_idx = iu
    pv = q[iu]
    best = pv.copy()  # the partition with {a, b} as its only block
    for lo in range(0, n_t, 256):
        same = block[lo:lo + 256, a_idx] == block[lo:lo + 256, b_idx]
        best = np.maximum(best, np.where(same, upper[lo:lo + 256, None], 0.0).max(axis=0))
    by_upper = np.argsort(-upper, kind="stable")
    upper_sorted = upper[by_upper]
    bounds = {}   # t -> (first, last): the feasible blocks at τ_t, once per threshold
    reverse = np.where(np.tri(k, k, -1, dtype=bool), n_t, tpos)[:, ::-1]
    c2 = _c2(np.arange(k + 3))   # c2[n] = n(n − 1)/2 for every block size, looked up
    for e in np.argsort(-pv, kind="stable"):
        if best[e] >= 1.0:
            continue
        if expired():
            return None
        a, b = int(a_idx[e]), int(b_idx[e])
        # Thresholds τ ≤ p_ab (t ≥ tpos[a, b]) whose bound τ·M(τ) beats the best so far, in
        # decreasing order of that bound.
        candidates = by_upper[(by_upper >= tpos[a, b]) & (upper_sorted > best[e])]
        for t in candidates:
            if upper[t] <= best[e]:
                break
            if t not in bounds:
                bounds[t] = _feasible_spans(tpos, reverse, t)
            m_ab = _forced_pair_max(a, b, f[t], g[t], *bounds[t], c2)
            best[e] = max(best[e], taus[t] * m_ab)
            if best[e] >= 1.0:
                break
    return _to_matrix(k, np.minimum(best, 1.0))


#: Cells of the (candidates × thresholds) arrays the dynamic programmes take at once.
_DP_CHUNK_CELLS = 1 << 22


def _prefix_optimum(tpos, n_t: int, expired) -> tuple:
    """``(f, ptr)``: f[t, i] the most within-block pairs of a τ_t-feasible contiguous partition
    of the first i learners, ptr[t, i] the start of its last block (the largest j among equal
    optima). All the candidate starts j of one i are taken at once, in chunks; the tables are
    built by learner (a row per i, read and written whole) and returned by threshold."""
    k = tpos.shape[0]
    f = np.full((k + 1, n_t), -np.inf)
    f[0] = 0.0
    ptr = np.zeros((k + 1, n_t), dtype=np.int64)
    rows = np.arange(n_t)
    step = max(1, _DP_CHUNK_CELLS // max(n_t, 1))
    for i in range(1, k + 1):
        if expired():
            return None, None
        col, arg = f[i], ptr[i]
        for top in range(i - 1, -1, -step):  # j = top, top − 1, …: the largest j first
            j = np.arange(top, max(top - step, -1), -1)
            size = (i - j).astype(float)
            cand = np.where(rows[None, :] >= tpos[j, i - 1][:, None],
                            f[j] + (size * (size - 1) / 2.0)[:, None], -np.inf)
            at = np.argmax(cand, axis=0)
            val = np.take_along_axis(cand, at[None, :], axis=0)[0]
            better = val > col
            col[better] = val[better]
            arg[better] = j[at[better]]
    return np.ascontiguousarray(f.T), np.ascontiguousarray(ptr.T)


def _suffix_optimum(tpos, n_t: int, expired):
    """g[t, i]: the most within-block pairs of a τ_t-feasible contiguous partition of the
    learners from i on; all the candidate ends l of one i at once, in chunks (built by
    learner, returned by threshold, as :func:`_prefix_optimum`)."""
    k = tpos.shape[0]
    g = np.full((k + 1, n_t), -np.inf)
    g[k] = 0.0
    rows = np.arange(n_t)
    step = max(1, _DP_CHUNK_CELLS // max(n_t, 1))
    for i in range(k - 1, -1, -1):
        if expired():
            return None
        for low in range(i, k, step):
            l = np.arange(low, min(low + step, k))
            size = (l - i + 1).astype(float)
            cand = np.where(rows[None, :] >= tpos[i, l][:, None],
                            g[l + 1] + (size * (size - 1) / 2.0)[:, None], -np.inf)
            np.maximum(g[i], cand.max(axis=0), out=g[i])
    return np.ascontiguousarray(g.T)


def _feasible_spans(tpos, reverse, t: int) -> tuple:
    """``(first, last)`` of the blocks feasible at threshold ``t``: block x..y (x ≤ y) is
    feasible exactly when ``x >= first[y]``, equivalently ``y <= last[x]``. In the Robinson
    order the smallest p-value of a block is that of its two ends, so the feasible blocks
    ending at y are those that start at first[y] or later. ``tpos``: each block's threshold
    position (0 on and below the diagonal, which then count as feasible after the diagonal);
    ``reverse``: ``tpos`` with the lower triangle never feasible, columns reversed."""
    k = tpos.shape[0]
    return np.argmax(tpos <= t, axis=0), k - 1 - np.argmax(reverse <= t, axis=1)


def _forced_pair_max(a: int, b: int, ft, gt, first, last, c2) -> float:
    """Max number of within-block pairs over τ-feasible partitions with a and b in one block.

    Positions are in the Robinson order, a < b; block x..y (x ≤ y) is τ-feasible exactly when
    ``x >= first[y]`` (equivalently ``y <= last[x]``, :func:`_feasible_spans`). BH Lemma 5: the
    block of a and b is B0 = {a, b} ∪ V[α..β]; the elements strictly between a and α share one
    block C_a = V[j..α−1] ∖ {a} reaching left of a (likewise C_b right of β), and the rest is
    an unconstrained contiguous partition (prefix optimum ft, suffix optimum gt). Only α ≥ L
    (B0 must stay feasible with b) and β ≤ R are examined. ``c2[n]`` = n(n − 1)/2, looked up:
    this function runs thousands of times at k = 100, on grids of about 50 × 50.
    """
    lo_alpha = int(first[b])   # feas[a, b] holds, so lo_alpha <= a
    hi_beta = int(last[a])
    # Pre[α], α = lo_alpha..b
    pre = np.empty(b - lo_alpha + 1)
    pre[: a - lo_alpha + 1] = ft[lo_alpha: a + 1]
    pre[a + 1 - lo_alpha] = ft[a]  # α = a + 1: nothing between a and α; F[a] dominates
    if b >= a + 2:
        first_j = int(first[a + 1])
        alpha = np.arange(a + 2, b + 1)
        j = np.arange(first_j, a + 1)
        start = j.copy()
        start[-1] = a + 1  # j = a: C_a = V[a+1..α−1]
        # C_a = V[j..α−1] (without a) holds α − j − 1 learners
        val = ft[first_j: a + 1] + c2[(alpha - 1)[:, None] - j]
        val[start < first[alpha - 1][:, None]] = -np.inf
        pre[a + 2 - lo_alpha:] = val.max(axis=1)
    # Suf[β], β = a..hi_beta
    suf = np.empty(hi_beta - a + 1)
    suf[b - a:] = gt[b + 1: hi_beta + 2]
    suf[b - 1 - a] = gt[b + 1]  # β = b − 1: nothing between β and b; G[b+1] dominates
    if b >= a + 2:
        last_l = int(last[b - 1])
        beta = np.arange(a, b - 1)
        l = np.arange(b, last_l + 1)
        end = l.copy()
        end[0] = b - 1  # l = b: C_b = V[β+1..b−1]
        # C_b = V[β+1..l] (without b) holds l − β − 1 learners
        val = c2[l - (beta + 1)[:, None]] + gt[b + 1: last_l + 2]
        val[end > last[beta + 1][:, None]] = -np.inf
        suf[: b - 1 - a] = val.max(axis=1)
    alpha = np.arange(lo_alpha, b + 1)
    beta = np.arange(a, hi_beta + 1)
    # |B0| = (β − α + 1) + [a < α] + [β < b]; cells with β < α − 1 are masked below (their
    # index may be negative: clipped to a cell that is never read)
    size0 = (beta + 1 + (beta < b)) - (alpha - (a < alpha))[:, None]
    total = pre[:, None] + c2.take(size0, mode="clip") + suf
    total[(beta < alpha[:, None] - 1)
          | (np.minimum(alpha, a)[:, None] < first[np.maximum(beta, b)])] = -np.inf
    return float(total.max())


def branch_and_bound(pmatrix, lower=None, deadline: float | None = None) -> np.ndarray | None:
    """Raw Bergmann-Hommel APVs of an arbitrary p-matrix by an exact branch-and-bound search.

    For each pair e = (a, b) a depth-first search assigns the other learners to blocks (a and b
    start together). A node with c within-block pairs and current minimum μ0 cannot lead to a
    value above max_{μ ≤ μ0} μ·(c + A(μ)), where A(μ) bounds the pairs still to come whose
    p-values are ≥ μ (BH §7); such nodes are pruned against the best value known for e. Every
    complete partition improves the values of all pairs it contains. Returns None if
    ``deadline`` (a ``time.perf_counter()`` value) passes first.
    """
    p = _check_matrix(pmatrix)
    k = p.shape[0]
    best = np.maximum(np.zeros((k, k)) if lower is None else np.array(lower, dtype=float), p)
    np.fill_diagonal(best, 1.0)
    iu = np.triu_indices(k, 1)
    state = {"nodes": 0}

    def expired():
        state["nodes"] += 1
        return deadline is not None and state["nodes"] % 64 == 0 and time.perf_counter() > deadline

    def record(blocks, count, mu):
        value = count * mu
        for blk in blocks:
            if len(blk) > 1:
                idx = np.array(blk)
                sub = best[np.ix_(idx, idx)]
                np.maximum(sub, value, out=sub)
                best[np.ix_(idx, idx)] = sub

    for e in np.argsort(-p[iu], kind="stable"):
        a, b = int(iu[0][e]), int(iu[1][e])
        if best[a, b] >= 1.0:
            continue
        rest = [u for u in range(k) if u not in (a, b)]
        rest.sort(key=lambda u: -min(p[u, a], p[u, b]))
        blocks = [[a, b]]
        # blockmin[u][i]: min p between u and the members of block i
        blockmin = {u: [min(p[u, a], p[u, b])] for u in rest}

        def bound(pos, count, mu0):
            left = rest[pos:]
            if not left:
                return count * mu0
            sizes = np.array([len(blk) for blk in blocks], dtype=float)
            mins = np.array([blockmin[u] for u in left])  # (U, nb)
            sub = p[np.ix_(left, left)][np.triu_indices(len(left), 1)]
            cuts = np.unique(np.concatenate([mins.ravel(), sub, [mu0]]))
            cuts = cuts[cuts <= mu0]
            join = (mins[None, :, :] >= cuts[:, None, None]) * sizes[None, None, :]
            extra = join.max(axis=2).sum(axis=1) + (sub[None, :] >= cuts[:, None]).sum(axis=1)
            return float((cuts * (count + extra)).max())

        def search(pos, count, mu0):
            if expired():
                raise TimeoutError
            if pos == len(rest):
                record(blocks, count, mu0)
                return
            if bound(pos, count, mu0) <= best[a, b]:
                return
            u = rest[pos]
            saved_min = list(blockmin[u])
            choices = sorted(range(len(blocks)), key=lambda i: -saved_min[i])
            for i in choices:
                members = blocks[i]
                later = rest[pos + 1:]
                saved = [blockmin[v][i] for v in later]
                members.append(u)
                for v in later:
                    blockmin[v][i] = min(blockmin[v][i], p[v, u])
                search(pos + 1, count + len(members) - 1, min(mu0, saved_min[i]))
                members.pop()
                for v, old in zip(later, saved):
                    blockmin[v][i] = old
            blocks.append([u])
            for v in rest[pos + 1:]:
                blockmin[v].append(p[v, u])
            search(pos + 1, count, mu0)
            blocks.pop()
            for v in rest[pos + 1:]:
                blockmin[v].pop()

        try:
            search(0, 1, p[a, b])
        except TimeoutError:
            return None
    return np.minimum(best, 1.0)


def monotone_apv(apv: np.ndarray, pmatrix) -> np.ndarray:
    """Running maximum of the APVs in increasing order of the raw p-values (García & Herrera's
    Table 5 and scmamp; ERRATA GH3). Ties in p keep their pair order."""
    k = apv.shape[0]
    iu = np.triu_indices(k, 1)
    order = np.argsort(np.asarray(pmatrix)[iu], kind="stable")
    vals = apv[iu].copy()
    vals[order] = np.maximum.accumulate(vals[order])
    return _to_matrix(k, vals)


def bergmann_hommel(pmatrix, scores=None, *, monotone: bool = False,
                    time_budget: float = 10.0) -> BergmannHommel:
    """Bergmann-Hommel adjusted p-values of all pairs, exact, by the fastest applicable method.

    The APV of a pair is the largest, over the exhaustive sets of hypotheses that contain it, of
    (set size) × (the smallest p-value in the set); a closed test that uses the logical relations
    between pairwise hypotheses (Bergmann & Hommel 1988; García & Herrera 2008). When the matrix is
    Robinson in the order of ``scores`` (always for the rank-based rankings) a polynomial method
    runs; otherwise an exact branch and bound (``docs/reference/bergmann-hommel.md``).

    Parameters
    ----------
    pmatrix : array_like, shape (k, k)
        Symmetric matrix of unadjusted pairwise p-values.
    scores : array_like, shape (k,), optional
        Mean ranks (or any values) in whose order the matrix may be Robinson; when it is, the
        polynomial method runs (k = 100 in well under a second).
    monotone : bool, default False
        Apply the running maximum in p order (``convention="paper"``; García & Herrera's Table 5
        and scmamp print it, ERRATA GH3). The default raw value is the exact closed-test APV.
    time_budget : float, default 10.0
        Seconds allowed to the branch-and-bound search for matrices that are not Robinson. When
        it runs out, Shaffer's APVs are returned and ``method`` says ``"shaffer_fallback"``.

    Returns
    -------
    BergmannHommel
        ``apv`` (k × k matrix), ``method``, ``monotone`` and ``notes``.

    References
    ----------
    Bergmann, B. and Hommel, G. (1988). Improvements of general multiple test procedures for
    redundant systems of hypotheses. In *Multiple Hypothesenprüfung*, 100–115. García, S. and
    Herrera, F. (2008). JMLR 9, 2677–2694.

    Examples
    --------
    García & Herrera (2008), Table 5: the APV of C4.5 against Kernel is 4.487e-7, and the raw
    closed-test value of 1-NN against NaiveBayes (row 6) is 0.030337 (Table 5 prints the running maximum
    0.031854):

    >>> from rankwise import bergmann_hommel, load_example, pairwise_statistics
    >>> t = load_example("garcia2008")
    >>> st = pairwise_statistics(t.values, "friedman", convention="paper")
    >>> res = bergmann_hommel(st.pvalues)
    >>> name = t.learners.index
    >>> kernel = res.apv[name('C4.5'), name('Kernel')]
    >>> bayes = res.apv[name('1-NN'), name('NaiveBayes')]
    >>> f"{kernel:.4g}", round(float(bayes), 6)
    ('4.487e-07', 0.030337)
    """
    p = _check_matrix(pmatrix)
    k = p.shape[0]
    notes = []
    apv = None
    method = None
    deadline = time.perf_counter() + time_budget
    robinson = False
    if scores is not None:
        order = np.lexsort((np.arange(k), np.asarray(scores, dtype=float)))
        robinson = is_robinson(p[np.ix_(order, order)])
        if robinson:
            apv, method = fast(p, scores, deadline), "fast"
    if apv is None and k <= BRUTE_FORCE_MAX_K:
        apv, method = brute_force(p), "brute_force"
    if apv is None and not robinson:
        lower = _seriated_lower_bound(p)
        apv = branch_and_bound(p, lower=lower, deadline=deadline)
        method = "branch_and_bound"
    if apv is None:
        iu = np.triu_indices(k, 1)
        apv = _to_matrix(k, shaffer(p[iu], k))
        method = "shaffer_fallback"
        notes.append(f"the exact Bergmann-Hommel computation did not finish within"
                     f" {time_budget:g} s for k = {k} (--bh-time-budget); Shaffer's static APVs"
                     " (more conservative, still controlling the family-wise error) are"
                     " reported instead")
    if monotone and method != "shaffer_fallback":
        apv = monotone_apv(apv, p)
    return BergmannHommel(apv=apv, method=method, monotone=monotone, notes=tuple(notes))


def _seriated_lower_bound(p: np.ndarray) -> np.ndarray:
    """Valid lower bounds from the fast method on a Robinson matrix below p.

    In an order of the learners, S[u, w] = min of p over the order-interval [u, w] is Robinson
    and S ≤ p, so each value the fast method finds for S is attained by a partition whose value
    under p is at least as large.
    """
    k = p.shape[0]
    masked = p.copy()
    np.fill_diagonal(masked, np.nan)
    out = p.copy()
    for key in (np.nanmean(masked, axis=1), _fiedler(p)):
        order = np.lexsort((np.arange(k), key))
        q = p[np.ix_(order, order)]
        s = q.copy()
        for width in range(2, k):
            for i in range(k - width):
                j = i + width
                s[i, j] = min(q[i, j], s[i + 1, j], s[i, j - 1])
                s[j, i] = s[i, j]
        lb = _fast_sorted(s)
        back = np.empty_like(lb)
        back[np.ix_(order, order)] = lb
        out = np.maximum(out, back)
    return out


def _fiedler(p: np.ndarray) -> np.ndarray:
    w = p.copy()
    np.fill_diagonal(w, 0.0)
    lap = np.diag(w.sum(axis=1)) - w
    vals, vecs = np.linalg.eigh(lap)
    return vecs[:, 1] if p.shape[0] > 1 else np.zeros(p.shape[0])
