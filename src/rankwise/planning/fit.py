"""The variance components of a pilot by REML, in the design's terms (the ANOVA's are
:func:`rankwise.planning.design.anova`)."""

from __future__ import annotations

import numpy as np
from scipy import stats

from .design import RESIDUAL, Components
from .pilot import Pilot, effect_codes


def reml_components(pilot: Pilot, confidence: float = 0.95) -> Components:
    """The components of ``pilot`` by restricted maximum likelihood
    (:func:`rankwise.planning.reml.reml`), named as the ANOVA names them, each with a Wald
    interval at ``confidence`` from the information (cut at 0; none at the boundary)."""
    from .reml import reml

    codes = effect_codes(pilot)
    fit = reml(pilot.frame["value"].to_numpy(dtype=float), codes)
    names = list(codes) + [RESIDUAL]
    parts = {n: float(fit.components[n]) for n in names}
    z = stats.norm.isf((1 - confidence) / 2)
    intervals = {}
    for n in names:
        se = fit.standard_errors.get(n, np.nan)
        if n in fit.boundary or not np.isfinite(se):
            intervals[n] = (0.0, float("nan")) if n in fit.boundary else (np.nan, np.nan)
        else:
            intervals[n] = (max(0.0, parts[n] - z * se), parts[n] + z * se)
    notes = tuple(f"the REML estimate of the {n} component is at its bound, 0" for n in
                  fit.boundary)
    if not fit.converged:
        notes += (f"REML stopped after {fit.iterations} iterations before converging",)
    return Components(design=pilot.design, components=parts, raw=dict(parts), mean_squares={},
                      df={}, intervals=intervals, confidence=confidence, method="reml",
                      notes=notes)
