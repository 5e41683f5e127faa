"""How wide a label is set: the widest hanging label of a rank diagram, and a text's outline
measured as matplotlib measures it (to the last bit), kept per text, size, weight and font
file (the diagrams and the other figures lay their margins out from these)."""

from __future__ import annotations

import functools

import numpy as np

from .format import literal


def label_inches(names, k, font, bold: bool = False) -> float:
    """Width in inches of the widest hanging label, "(rank) name", at ``font`` points."""
    from matplotlib.font_manager import FontProperties, findfont

    rank = "(" + "0" * len(f"{float(max(k, 2)):.2f}") + ") "
    weight = "bold" if bold else "normal"
    face = findfont(FontProperties(weight=weight))  # the font file the settings resolve to
    return 1.05 * max(text_width(rank + literal(str(n)), font, weight, face)
                      for n in names) / 72.0


@functools.lru_cache(maxsize=4096)
def text_width(text: str, font: float, weight: str, face: str) -> float:
    """Width in points of ``text``'s outline at ``font`` points: matplotlib's
    ``TextPath(...).get_extents().width`` to the last bit (see :func:`outline_width`), kept
    per (text, size, weight, font file): a report measures the same labels at the same sizes
    again (each diagram drawn for the page and for its files, type made smaller step by step
    to fit a width)."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextPath

    return outline_width(TextPath((0, 0), text, size=font, prop=FontProperties(weight=weight)))


def outline_width(path) -> float:
    """``path.get_extents().width``, the same float, tracing only the curves that can reach
    the outline's left or right end.

    ``get_extents`` takes the extremes over every curve's end points and the points where its
    derivative is zero; it traces every curve in Python (about 25 ms for a label of 40
    letters). An end point is a vertex, evaluated exactly; a curve lies within its control
    points, so one whose control points all stay clear of the extreme end points cannot
    change the extremes, and only the others are traced, by matplotlib's own code (fonts put
    a point on the outline at every extreme, so that is a few curves a label)."""
    from matplotlib.bezier import BezierSegment
    from matplotlib.path import Path

    v, codes = path.vertices, path.codes
    curves = [(code, points) for code, points in ((Path.CURVE3, 2), (Path.CURVE4, 3))
              if codes is not None and np.any(codes == code)]
    if not curves or codes[0] != Path.MOVETO:
        return float(path.get_extents().width)   # no curves: its own quick branch
    on = (codes == Path.MOVETO) | (codes == Path.LINETO)
    segments = []
    for code, points in curves:
        at = np.flatnonzero(codes == code)   # runs of (control points..., end point)
        starts = np.r_[True, np.diff(at) != 1]
        first = np.maximum.accumulate(np.where(starts, np.arange(at.size), 0))
        place = (np.arange(at.size) - first) % points
        ends = np.r_[starts[1:], True]
        begin = at[place == 0]
        if np.any(place[ends] != points - 1) or np.any(np.isin(codes[begin - 1],
                                                               (Path.CLOSEPOLY, Path.STOP))):
            return float(path.get_extents().width)   # a layout the parsing above does not read
        on[at[place == points - 1]] = True
        segments.append(begin[:, None] + np.arange(-1, points))   # the start point, then its own
    x = v[:, 0]
    low, high = x[on].min(), x[on].max()
    margin = 1e-9 * (abs(low) + abs(high) + 1.0)
    for index in segments:
        span = x[index]
        near = (span.max(axis=1) >= high - margin) | (span.min(axis=1) <= low + margin)
        for rows in index[near]:
            curve = BezierSegment(v[rows])
            _, zeros = curve.axis_aligned_extrema()
            reached = curve([0, *zeros, 1])[:, 0]
            low, high = min(low, reached.min()), max(high, reached.max())
    return float(high - low)
