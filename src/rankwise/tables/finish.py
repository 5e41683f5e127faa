"""What a read score table becomes before the analysis: its direction (from the option, the
format, the criterion's name or the default) and its missing cells (refused, dropped, kept for
Skillings-Mack or filled), with a warning for every choice made. :func:`load_table` calls
:func:`finish` on every table it read, whatever its route.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..errors import RankwiseError
from ..names import imputed_from
from .direction import direction_of
from .table import ScoreTable


def _filled(values, datasets, learners, holes, missing: str, hib: bool, source) -> tuple:
    """``(values, filled cells, note)``: each missing cell filled with the worst score on its
    data set (``worst``) or a named learner's (``impute:LEARNER``)."""
    values = values.copy()
    if missing == "worst":
        with np.errstate(all="ignore"):
            worst = np.nanmin(values, axis=1) if hib else np.nanmax(values, axis=1)
        empty = np.isnan(worst)
        if empty.any():
            raise RankwiseError(f"{source}: data set {datasets[int(np.flatnonzero(empty)[0])]!r}"
                                " has no score at all, so it has no worst score to fill with;"
                                " remove it from the table")
        fill, how = np.broadcast_to(worst[:, None], values.shape), (
            f"the worst score on its data set ({'lowest' if hib else 'highest'}; --missing"
            " worst)")
    else:
        name = imputed_from(missing)
        if name not in learners:
            raise RankwiseError(f"{source}: --missing impute:{name} names no learner; the"
                                f" learners are {', '.join(learners)}")
        j = learners.index(name)
        gaps = np.flatnonzero(holes.any(axis=1) & np.isnan(values[:, j]))
        if gaps.size:
            raise RankwiseError(f"{source}: {name} has no score on {datasets[int(gaps[0])]!r}"
                                f" either, so it cannot fill that data set's missing cells;"
                                " choose another learner or --missing worst")
        fill, how = np.broadcast_to(values[:, [j]], values.shape), (
            f"{name}'s score on its data set (--missing impute:{name}, the AutoML benchmark's"
            " rule with its constant predictor)")
    values[holes] = fill[holes]
    filled = tuple((datasets[i], learners[j]) for i, j in np.argwhere(holes))
    shown = "; ".join(f"{d} / {l}" for d, l in filled[:5])
    more = f" and {len(filled) - 5} more" if len(filled) > 5 else ""
    return values, filled, (f"{len(filled)} missing cell(s) (data set / learner: {shown}{more})"
                            f" filled with {how}; the filled learners are compared as if they"
                            " had scored that")


def _way(higher: bool) -> str:
    return "higher" if higher else "lower"


def _direction(table: ScoreTable, criterion, higher_is_better, warnings: list) -> tuple:
    """``(higher_is_better, source, word)``: the direction from the option, the format, the
    criterion's name or the default (with a warning where it is assumed or overridden)."""
    said = direction_of(criterion)
    known, word = said.higher_is_better, said.word
    reading = table.reading
    value = reading.columns.get("value") if reading is not None else None
    by_value = direction_of(value).higher_is_better if isinstance(value, str) else None
    if higher_is_better is None and None not in (known, by_value) and known != by_value:
        # --columns value=logloss with --criterion auc: the scores' own name contradicts it
        raise RankwiseError(
            f"{table.source}: the criterion {criterion!r} is {_way(known)}-is-better but the"
            f" values come from the column {value!r}, which is {_way(by_value)}-is-better; name"
            " the criterion of that column, or say which way it points with --higher-is-better"
            " or --lower-is-better")
    if higher_is_better is None and reading is not None and reading.higher_is_better is not None:
        hib, source, word = reading.higher_is_better, "source", None
    elif higher_is_better is not None:
        hib, source = bool(higher_is_better), "option"
        if known is not None and known != hib:
            warnings.append(f"criterion {criterion!r} is usually "
                            f"{'higher' if known else 'lower'}-is-better; using "
                            f"{'higher' if hib else 'lower'}-is-better as requested")
    elif known is not None:
        hib, source = known, "criterion"
    else:
        hib, source, word = True, "default", None
        if criterion:
            warnings.append(f"the criterion name {criterion!r} does not say whether higher or"
                            " lower is better; higher-is-better was assumed (pass"
                            " --lower-is-better if smaller values are better)")
    return hib, source, word


def finish(table: ScoreTable, criterion, higher_is_better, missing,
           min_learners: int = 2) -> ScoreTable:
    from .._validate import real_scores

    try:   # finite and within the bound, said with the file's name, before any analysis
        real_scores(table.values, names=(table.datasets, table.learners))
    except RankwiseError as exc:
        raise RankwiseError(f"{table.source}: {exc}") from None
    criterion = table.criterion if table.criterion is not None else criterion
    warnings = list(table.warnings)
    hib, source, word = _direction(table, criterion, higher_is_better, warnings)
    values, datasets, learners = table.values, list(table.datasets), list(table.learners)
    counts = table.counts
    holes = np.isnan(values)
    missing_cells = tuple((datasets[i], learners[j]) for i, j in np.argwhere(holes)) \
        if holes.any() else ()
    dropped_d, dropped_l = [], []
    filled = ()
    if imputed_from(missing) is not None and imputed_from(missing) not in learners:
        raise RankwiseError(f"{table.source}: --missing {missing} names no learner; the"
                            f" learners are {', '.join(learners)}")
    if missing_cells and (missing == "worst" or imputed_from(missing) is not None):
        values, filled, note = _filled(values, datasets, learners, holes, missing, hib,
                                       table.source)
        warnings.append(note)
    elif missing_cells:
        if missing == "refuse":
            shown = "; ".join(f"{d} / {l}" for d, l in missing_cells[:5])
            more = f" and {len(missing_cells) - 5} more" if len(missing_cells) > 5 else ""
            reading = table.reading
            failed = (f" {reading.failed}" if reading is not None and reading.failed
                      else "")
            raise RankwiseError(f"{table.source}: {len(missing_cells)} missing cell(s) (data set /"
                                f" learner): {shown}{more}; fill them, or pass --missing"
                                f" drop-datasets, drop-learners, skillings-mack, worst or"
                                f" impute:LEARNER.{failed}")
        if missing == "skillings-mack":
            empty = [l for l, col in zip(learners, holes.T) if col.all()]
            if empty:
                raise RankwiseError(f"{table.source}: learner {empty[0]!r} has no values at all;"
                                    " remove it from the table")
            shown = "; ".join(f"{d} / {l}" for d, l in missing_cells[:5])
            more = f" and {len(missing_cells) - 5} more" if len(missing_cells) > 5 else ""
            warnings.append(f"{len(missing_cells)} missing cell(s) kept for the Skillings-Mack"
                            f" test (data set / learner): {shown}{more}")
        elif missing == "drop-datasets":
            keep = ~holes.any(axis=1)
            dropped_d = [d for d, k in zip(datasets, keep) if not k]
            values, counts = values[keep], counts[keep]
            datasets = [d for d, k in zip(datasets, keep) if k]
        else:
            keep = ~holes.any(axis=0)
            dropped_l = [l for l, k in zip(learners, keep) if not k]
            values, counts = values[:, keep], counts[:, keep]
            learners = [l for l, k in zip(learners, keep) if k]
        if missing != "skillings-mack":
            warnings.append(f"{len(missing_cells)} missing cell(s); dropped "
                            + (f"{len(dropped_d)} data set(s): {', '.join(dropped_d)}"
                               if dropped_d else
                               f"{len(dropped_l)} learner(s): {', '.join(dropped_l)}"))
    n, k = values.shape
    if k < min_learners:
        raise RankwiseError(f"{table.source}: only {k} learner(s) "
                            f"{'left after dropping missing cells' if dropped_l else 'in the table'};"
                            " a comparison needs at least two")
    if n < 2:
        raise RankwiseError(f"{table.source}: only {n} data set(s) "
                            f"{'left after dropping missing cells' if dropped_d else 'in the table'};"
                            " a comparison over data sets needs at least two")
    raw = table.raw
    if raw is not None:
        raw = raw[raw["dataset"].isin(datasets) & raw["learner"].isin(learners)]
    if filled:
        raw = None  # the per-fold values no longer make up the filled cells
    return replace(table, filled_cells=filled, values=values, datasets=tuple(datasets), learners=tuple(learners), raw=raw,
                   counts=counts, higher_is_better=hib, direction_source=source,
                   direction_word=word,
                   criterion=criterion, dropped_datasets=tuple(dropped_d),
                   dropped_learners=tuple(dropped_l), missing_cells=missing_cells,
                   warnings=tuple(warnings), missing_policy=missing)
