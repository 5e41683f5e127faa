"""The report's "How sure can I be?" section: the rank sets, the data-set check, the pool check
and the letters of one comparison, side by side.

Nothing here is computed anew: each row reads the decision its analysis made once (the rank
sets, each claim's smallest overturning set, the letters, the verdict), and the section's
sentences are the ones the verdict carries, so the section, the verdict and the JSON cannot
disagree.
"""

from __future__ import annotations

from ..analysis.steps import rank_set_sentence

#: Rows of the data-set check's claim table in a report (the JSON has every claim).
CLAIM_ROWS = 30
#: Data sets named in the leave-one-out sentence.
LOO_NAMED = 8


def has_section(cmp) -> bool:
    return any(x is not None for x in (cmp.rank_sets, cmp.dataset_check, cmp.pool_check,
                                       cmp.multiverse))


def sentences(cmp) -> list:
    """The section's sentences, as the verdict carries them."""
    out = []
    if cmp.rank_sets is not None:
        out.append(rank_set_sentence(cmp.rank_sets, cmp.settings["rank_sets"]["basis"]))
    if cmp.dataset_check is not None:
        out.append(cmp.dataset_check.sentence())
    if cmp.multiverse is not None:
        out.append(cmp.multiverse.sentence())
    if cmp.pool_check is not None:
        out.append(cmp.pool_check.sentence())
    return out


def learner_claims(cmp) -> dict:
    """``{learner: Claim}``: the claim the verdict makes of each learner (the best: that it has
    the best mean rank; the others: their decision against it)."""
    check = cmp.dataset_check
    if check is None:
        return {}
    out = {}
    for claim in check.claims:
        if claim.kind in ("best", "verdict"):
            out[claim.learners[0]] = claim
    return out


def falls_without(claim) -> str:
    """A claim's smallest overturning set, in a table cell."""
    if claim is None:
        return ""
    if claim.smallest is None:
        return "no set found" if claim.searched else "not searched beyond the exact sizes"
    names = ", ".join(claim.removed[:2]) + (f" +{len(claim.removed) - 2}"
                                            if len(claim.removed) > 2 else "")
    return f"{'' if claim.exact else '<='}{claim.smallest}: {names}"


def rows(cmp, order) -> tuple:
    """``(header, rows, align)`` of the learners' table: one row per shown learner."""
    t, sets, letters = cmp.table, cmp.rank_sets, cmp.letters
    claims = learner_claims(cmp)
    v = cmp.verdict
    header = ["#", "learner", "mean rank"]
    if sets is not None:
        level = f"{100 * sets.confidence:g}%"
        header += [f"{level} rank set", "tier"] if sets.simultaneous else [f"{level} rank set"]
    if letters is not None:
        header.append("letters")
    header.append("verdict")
    if claims:
        header.append("falls without")
    agree = cmp.multiverse.learner_agreement() if cmp.multiverse is not None else {}
    if agree:
        header.append("analyses agreeing")
    tiers = sets.tier_of() if sets is not None else {}
    marks = dict(zip(letters.learners, letters.letters)) if letters is not None else {}
    out = []
    for i, j in enumerate(order):
        name = t.learners[j]
        row = [str(i + 1), name, f"{cmp.mean_ranks[j]:.3f}"]
        if sets is not None:
            lo, hi = int(sets.lower[j]), int(sets.upper[j])
            row.append((f"{lo}" if lo == hi else f"{lo}-{hi}") + ("*" if sets.best[j] else ""))
            if sets.simultaneous:
                row.append(str(tiers[name]))
        if letters is not None:
            row.append(marks.get(name, ""))
        row.append(_decision(v, name))
        if claims:
            row.append(falls_without(claims.get(name)))
        if agree:
            row.append(f"{agree[name]} of {len(cmp.multiverse.ran())}")
        out.append(row)
    align = "<<>" + "".join("<" if h in ("verdict", "falls without") else ">"
                            for h in header[3:])
    return header, out, align


def _decision(verdict, name) -> str:
    if name == verdict.best:
        return "best"
    if not verdict.detected:
        return "no difference"
    return "worse" if name in verdict.losers else "not worse"


def claim_rows(cmp) -> list:
    """The data-set check's claims a person reads: the verdict's, then the fragile pairs."""
    check = cmp.dataset_check
    shown = [c for c in check.claims if c.kind != "pair"]
    shown += [c for c in check.claims if c.kind == "pair" and c.fragile]
    return [[c.statement, falls_without(c),
             f"{c.count:,}" if c.count is not None else "-"] for c in shown[:CLAIM_ROWS]]


def leave_one_out_sentence(cmp) -> str:
    check = cmp.dataset_check
    if not check.leave_one_out:
        return ("Leaving out any one data set changes none of these claims.")
    ranked = sorted(check.leave_one_out.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    named = "; ".join(f"without {name}, {len(ix)} claim{'s' if len(ix) > 1 else ''}"
                      for name, ix in ranked[:LOO_NAMED])
    more = len(ranked) - LOO_NAMED
    one = len(ranked) == 1
    return (f"Leave one data set out: {len(ranked)} of the {len(check.datasets)} data sets"
            f" change{'s' if one else ''} some claim on {'its' if one else 'their'} own"
            f" ({named}"
            + (f"; and {more} more" if more > 0 else "") + ").")


def to_dict(cmp) -> dict | None:
    """The section for the JSON report: its sentences and one entry per learner."""
    if not has_section(cmp):
        return None
    claims = learner_claims(cmp)
    sets, letters = cmp.rank_sets, cmp.letters
    marks = dict(zip(letters.learners, letters.letters)) if letters is not None else {}
    tiers = sets.tier_of() if sets is not None and sets.simultaneous else {}
    learners = []
    for j, name in enumerate(cmp.table.learners):
        entry = {"learner": name, "mean_rank": float(cmp.mean_ranks[j]),
                 "verdict": _decision(cmp.verdict, name)}
        if sets is not None:
            entry.update(rank_set=[int(sets.lower[j]), int(sets.upper[j])],
                         could_be_best=bool(sets.best[j]), tier=tiers.get(name))
        if letters is not None:
            entry["letters"] = marks.get(name)
        if cmp.multiverse is not None:
            entry["analyses_agreeing"] = cmp.multiverse.learner_agreement()[name]
            entry["analyses"] = len(cmp.multiverse.ran())
        if name in claims:
            c = claims[name]
            entry["falls_without"] = {"smallest": c.smallest, "exact": c.exact,
                                      "removed": list(c.removed)}
        learners.append(entry)
    return {"sentences": sentences(cmp), "learners": learners}


def multiverse_claim_rows(cmp) -> list:
    mv = cmp.multiverse
    n = len(mv.ran())
    agree = mv.agreement()
    return [[claim, f"{int(a)} of {n}", "; ".join(mv.flipped_by(i)[:3]) if a < n else "-"]
            for i, (claim, a) in enumerate(zip(mv.claims, agree))][:CLAIM_ROWS]


def multiverse_entry_rows(cmp) -> list:
    mv = cmp.multiverse
    rows = []
    for i, e in enumerate(mv.entries):
        if e.error is not None:
            rows.append([str(i + 1), e.label, "-", "-", "could not run"])
            continue
        rows.append([str(i + 1), e.label, e.best or "-", str(len(e.losers)),
                     f"{sum(e.agrees)} of {len(e.agrees)}"])
    return rows


def multiverse_commands(cmp) -> list:
    """Each analysis's command, numbered as the table numbers them; why one could not run."""
    out = []
    for i, e in enumerate(cmp.multiverse.entries):
        out.append(f"{i + 1:>3}  {e.command}")
        if e.error is not None:
            out.append(f"     could not run: {e.error}")
    return out
