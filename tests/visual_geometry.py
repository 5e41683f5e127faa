"""The geometry of a diagram as a reader meets it, and what is wrong with it.

A :class:`Scene` is a page or a figure reduced to what can collide: the boxes of its words
(grouped into labels), its straight line segments (with their widths) and its canvas, all in
points with y upwards. Two sources:

- :func:`pdf_scenes`: a PDF (written uncompressed, ``\\pdfcompresslevel=0``) read page by page:
  the segments from the page's content stream (a small interpreter of the path and
  transformation operators, so a picture scaled by ``\\resizebox`` is measured as printed), the
  words from ``pdftotext -bbox``;
- :func:`figure_scene`: a matplotlib figure, its texts, lines and leader lines as its renderer
  places them.

:func:`problems` then lists, in words, every label that overlaps another, every line that
crosses a label (a line may end next to its own label), everything outside the canvas, two
thick bars of one level that touch (two cliques read as one), and every learner not named.
"""

from __future__ import annotations

import html
import re
import subprocess
import unicodedata
from dataclasses import dataclass
from pathlib import Path

#: Shrink every box by this much (points) before testing overlaps: glyph boxes are generous.
SLACK = 0.5
#: How a figure or its caption says it draws fewer learners than the data has.
CUT_SAID = re.compile(r"left out|\b(best|first) [\d,]+ of [\d,]+ (learners|models)")
#: Two thick bars on one level closer than this (points) read as one bar.
BAR_GAP = 1.0


@dataclass(frozen=True)
class Box:
    x0: float
    y0: float
    x1: float
    y1: float

    def shrunk(self, d: float) -> "Box":
        return Box(self.x0 + d, self.y0 + d, self.x1 - d, self.y1 - d)

    def overlaps(self, other: "Box") -> bool:
        return (self.x0 < other.x1 and other.x0 < self.x1 and self.y0 < other.y1
                and other.y0 < self.y1)

    def inside(self, other: "Box") -> bool:
        return (self.x0 >= other.x0 and self.y0 >= other.y0 and self.x1 <= other.x1
                and self.y1 <= other.y1)


@dataclass(frozen=True)
class Segment:
    x0: float
    y0: float
    x1: float
    y1: float
    width: float

    def box(self) -> Box:
        h = self.width / 2
        return Box(min(self.x0, self.x1) - h, min(self.y0, self.y1) - h,
                   max(self.x0, self.x1) + h, max(self.y0, self.y1) + h)

    def crosses(self, box: Box) -> bool:
        """Does the stroke (the segment widened by its line width across its direction; a
        line that ends on the box touches it, as a leader line its label) enter ``box``?"""
        h = self.width / 2
        hx = 0.0 if self.y0 == self.y1 else h   # a horizontal line: only its thickness
        hy = 0.0 if self.x0 == self.x1 else h
        grown = Box(box.x0 - hx, box.y0 - hy, box.x1 + hx, box.y1 + hy)
        return _clips(self.x0, self.y0, self.x1, self.y1, grown)


@dataclass
class Label:
    """A text and its axis-parallel box; a turned text also its own rectangle's corners
    (``quad``, anticlockwise from the start of its baseline)."""

    text: str
    box: Box
    quad: tuple | None = None

    def corners(self, d: float) -> list:
        """The rectangle's corners, each side moved in by ``d``."""
        if self.quad is None:
            b = self.box.shrunk(d)
            return [(b.x0, b.y0), (b.x1, b.y0), (b.x1, b.y1), (b.x0, b.y1)]
        (x0, y0), (x1, y1), _, (x3, y3) = self.quad
        u, v = (x1 - x0, y1 - y0), (x3 - x0, y3 - y0)
        lu, lv = max(_norm(u), 1e-9), max(_norm(v), 1e-9)
        fu, fv = min(d / lu, 0.5), min(d / lv, 0.5)
        return [(x0 + u[0] * a + v[0] * b, y0 + u[1] * a + v[1] * b)
                for a, b in ((fu, fv), (1 - fu, fv), (1 - fu, 1 - fv), (fu, 1 - fv))]

    def overlaps(self, other: "Label", d: float) -> bool:
        if self.quad is None and other.quad is None:
            return self.box.shrunk(d).overlaps(other.box.shrunk(d))
        return _polygons_meet(self.corners(d), other.corners(d))

    def crossed_by(self, s: "Segment", d: float) -> bool:
        if self.quad is None:
            return s.crosses(self.box.shrunk(d))
        (x0, y0), (x1, y1), _, (x3, y3) = self.corners(d)
        u, v = (x1 - x0, y1 - y0), (x3 - x0, y3 - y0)
        lu, lv = _norm(u), _norm(v)
        if lu == 0 or lv == 0:
            return False

        def local(x, y):   # in the rectangle's own frame
            return (((x - x0) * u[0] + (y - y0) * u[1]) / lu,
                    ((x - x0) * v[0] + (y - y0) * v[1]) / lv)
        return _clips(*local(s.x0, s.y0), *local(s.x1, s.y1), Box(0, 0, lu, lv))


def _norm(v) -> float:
    return (v[0] ** 2 + v[1] ** 2) ** 0.5


def _polygons_meet(a, b) -> bool:
    """Separating axes: do two convex polygons (corner lists) share an inner point?"""
    for poly in (a, b):
        for (px, py), (qx, qy) in zip(poly, poly[1:] + poly[:1]):
            nx, ny = py - qy, qx - px
            pa = [nx * x + ny * y for x, y in a]
            pb = [nx * x + ny * y for x, y in b]
            if max(pa) <= min(pb) or max(pb) <= min(pa):
                return False
    return True


@dataclass
class Scene:
    canvas: Box
    labels: list
    segments: list
    where: str = ""


def _span(x0, y0, x1, y1, b: Box, closed: bool = False):
    """Liang-Barsky: the parameters (t0, t1) of the part of the segment inside the box (open,
    or ``closed``), or None where it does not meet it."""
    t0, t1 = 0.0, 1.0
    dx, dy = x1 - x0, y1 - y0
    for p, q in ((-dx, x0 - b.x0), (dx, b.x1 - x0), (-dy, y0 - b.y0), (dy, b.y1 - y0)):
        if p == 0:
            if q < 0 or (q == 0 and not closed):
                return None
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
    return (t0, t1) if t0 < t1 else None


def _clips(x0, y0, x1, y1, b: Box) -> bool:
    """Does the segment meet the open box?"""
    return _span(x0, y0, x1, y1, b) is not None


# --- what is wrong ---------------------------------------------------------------------------

def problems(scene: Scene, names=(), note: str | None = None) -> list:
    """Every defect of ``scene``, in words (an empty list: none). ``names``: the learners that
    must be named on it, unless ``note`` (a caption, say) says some were left out."""
    where = f"{scene.where}: " if scene.where else ""
    found = []
    labels = scene.labels
    for i, a in enumerate(labels):
        if not a.box.inside(scene.canvas):
            found.append(f"label {a.text!r} is outside the canvas")
        for b in labels[i + 1:]:
            if a.overlaps(b, SLACK):
                found.append(f"label {a.text!r} overlaps label {b.text!r}")
    for s in scene.segments:
        if not s.box().shrunk(SLACK).inside(scene.canvas):
            found.append(f"a line at ({s.x0:.1f}, {s.y0:.1f}) is outside the canvas")
        for a in labels:
            if a.crossed_by(s, SLACK):
                found.append(f"a line from ({s.x0:.1f}, {s.y0:.1f}) to ({s.x1:.1f},"
                             f" {s.y1:.1f}) crosses label {a.text!r}")
    found += _touching_bars(scene.segments)
    found += _unnamed(scene, names, note)
    return [where + f for f in found]


def _touching_bars(segments) -> list:
    """Thick horizontal segments (the clique bars) of one level with less than BAR_GAP between
    them: the reader sees one bar."""
    widths = [s.width for s in segments]
    if not widths:
        return []
    thin = min(widths)
    bars = sorted((min(s.x0, s.x1), max(s.x0, s.x1), s.y0) for s in segments
                  if s.width > 2.5 * thin and abs(s.y0 - s.y1) < 1e-6)
    found = []
    for i, (a0, a1, ay) in enumerate(bars):
        for b0, b1, by in bars[i + 1:]:
            if abs(ay - by) < 0.1 and b0 - a1 < BAR_GAP and a0 < b1:
                found.append(f"two clique bars at y = {ay:.1f} touch ({a0:.1f}-{a1:.1f} and"
                             f" {b0:.1f}-{b1:.1f}): they read as one")
    return found


def _unnamed(scene, names, note) -> list:
    """The learners no label names (a whole name, between spaces or the label's ends)."""
    texts = [f" {_plain(a.text)} " for a in scene.labels]
    missing = [n for n in names if not any(f" {_plain(n)} " in t for t in texts)]
    if missing and not (note and CUT_SAID.search(note)):
        shown = ", ".join(map(repr, missing[:5])) + (" ..." if len(missing) > 5 else "")
        return [f"{len(missing)} learners are neither drawn nor said to be left out: {shown}"]
    return []


def _plain(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", str(text)).split())


def grouped(words) -> list:
    """Words (text, Box) joined into labels: the words of one line (the same top and bottom)
    less than about a space apart."""
    labels = []
    for text, box in sorted(words, key=lambda w: (round(w[1].y1, 1), w[1].x0)):
        last = labels[-1] if labels else None
        height = box.y1 - box.y0
        if (last is not None and abs(last.box.y1 - box.y1) < 0.1
                and abs(last.box.y0 - box.y0) < 0.1 and 0 <= box.x0 - last.box.x1 < 0.6 * height):
            last.text += " " + text
            last.box = Box(last.box.x0, min(last.box.y0, box.y0), box.x1,
                           max(last.box.y1, box.y1))
        else:
            labels.append(Label(text, box))
    return labels


# --- a PDF, page by page ---------------------------------------------------------------------

def pdf_scenes(pdf: Path) -> list:
    """A :class:`Scene` per page of ``pdf`` (written without stream compression): its words
    (pdftotext -bbox) and its line segments (the content stream), the page as its canvas."""
    data = Path(pdf).read_bytes()
    pages = _pages(data)
    words = _words(pdf)
    assert len(words) == len(pages), (len(words), len(pages))
    scenes = []
    for n, ((media, content), page_words) in enumerate(zip(pages, words), 1):
        x0, y0, x1, y1 = media
        flipped = [(t, Box(b.x0, y1 - b.y1, b.x1, y1 - b.y0)) for t, b in page_words]
        scenes.append(Scene(Box(x0, y0, x1, y1), grouped(flipped), _segments(content),
                            f"{Path(pdf).name} page {n}"))
    return scenes


def _words(pdf: Path) -> list:
    out = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True,
                         text=True, check=True).stdout
    pages = []
    for page in re.findall(r"<page [^>]*>(.*?)</page>", out, re.S):
        pages.append([(html.unescape(t), Box(float(a), float(b), float(c), float(d)))
                      for a, b, c, d, t in re.findall(
                          r'<word xMin="([^"]+)" yMin="([^"]+)" xMax="([^"]+)" yMax="([^"]+)">'
                          r"(.*?)</word>", page)])
    return pages


def _object(data: bytes, offsets: dict, num: int) -> tuple:
    """(dictionary text, stream bytes or None) of object ``num``."""
    start = offsets[num]
    head = re.compile(rb"\d+\s+\d+\s+obj\s*").match(data, start)
    body = head.end()
    stream = re.compile(rb"stream\r?\n").search(data, body)
    end = data.index(b"endobj", body)
    if stream is None or stream.start() > end:
        return data[body:end].decode("latin-1"), None
    text = data[body:stream.start()].decode("latin-1")
    length = re.search(r"/Length\s+(\d+)(\s+0\s+R)?", text)
    n = int(length.group(1))
    if length.group(2):
        n = int(_object(data, offsets, n)[0].strip())
    return text, data[stream.end():stream.end() + n]


def _pages(data: bytes) -> list:
    """[(media box, content bytes)] of every page, in order (a classic xref table)."""
    xref = int(re.findall(rb"startxref\s+(\d+)", data)[-1])
    offsets, pos = {}, xref + len(b"xref")
    for first, count in re.findall(rb"(\d+) (\d+)\s*\n", data[pos:pos + 40])[:1]:
        rows = re.findall(rb"(\d{10}) (\d{5}) ([nf])", data[pos:])
        for i, (off, _, kind) in enumerate(rows[:int(count)]):
            if kind == b"n":
                offsets[int(first) + i] = int(off)
    trailer = data[data.index(b"trailer", xref):].decode("latin-1")
    root = int(re.search(r"/Root\s+(\d+)", trailer).group(1))
    pages_ref = int(re.search(r"/Pages\s+(\d+)", _object(data, offsets, root)[0]).group(1))
    out = []

    def walk(num, media):
        text = _object(data, offsets, num)[0]
        box = re.search(r"/MediaBox\s*\[([^\]]*)\]", text)
        media = [float(v) for v in box.group(1).split()] if box else media
        kids = re.search(r"/Kids\s*\[([^\]]*)\]", text)
        if kids:
            for kid in re.findall(r"(\d+)\s+0\s+R", kids.group(1)):
                walk(int(kid), media)
            return
        refs = re.search(r"/Contents\s*(\[[^\]]*\]|\d+\s+0\s+R)", text).group(1)
        content = b"\n".join(_object(data, offsets, int(r))[1]
                             for r in re.findall(r"(\d+)\s+0\s+R", refs))
        out.append((media, content))

    walk(pages_ref, None)
    return out


_TOKEN = re.compile(rb"\s*(?:(%[^\r\n]*)|(\()|(<<|>>|\[|\]|<[0-9A-Fa-f\s]*>|/[^\s/\[\]()<>{}%]*"
                    rb"|[-+]?(?:\d+\.?\d*|\.\d+)|[A-Za-z'\"*]+))")


def _tokens(content: bytes):
    pos = 0
    while True:
        m = _TOKEN.match(content, pos)
        if m is None or m.end() == pos:
            return
        pos = m.end()
        if m.group(2):  # a string: skip to its closing parenthesis
            depth = 1
            while depth:
                c = content[pos:pos + 1]
                pos += 2 if c == b"\\" else 1
                depth += {b"(": 1, b")": -1}.get(c, 0)
            yield b"()"
        elif m.group(3):
            yield m.group(3)


def _segments(content: bytes) -> list:
    """The stroked straight segments of a content stream in page coordinates (curves and
    fills, the dots of a clique, are left out: a filled dot sits on its bar)."""
    ctm, stack, width = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0), [], 1.0
    path, args, out, in_text = [], [], [], False
    for tok in _tokens(content):
        if tok[:1] in b"-+.0123456789":
            args.append(float(tok))
            continue
        op = tok.decode("latin-1")
        if op == "BT":
            in_text = True
        elif op == "ET":
            in_text = False
        elif in_text:
            pass
        elif op == "q":
            stack.append((ctm, width))
        elif op == "Q":
            ctm, width = stack.pop()
        elif op == "cm" and len(args) == 6:
            ctm = _times(args, ctm)
        elif op == "w" and args:
            width = args[-1]
        elif op == "m" and len(args) >= 2:
            path.append([_apply(ctm, *args[-2:])])
        elif op == "l" and len(args) >= 2 and path:
            path[-1].append(_apply(ctm, *args[-2:]))
        elif op == "h" and path:
            path[-1].append(path[-1][0])
        elif op == "re" and len(args) >= 4:
            x, y, w, h = args[-4:]
            corners = [(x, y), (x + w, y), (x + w, y + h), (x, y + h), (x, y)]
            path.append([_apply(ctm, *c) for c in corners])
        elif op in ("S", "s"):
            scale = (abs(ctm[0] * ctm[3] - ctm[1] * ctm[2])) ** 0.5
            out += [Segment(*a, *b, width * scale) for poly in path
                    for a, b in zip(poly, poly[1:]) if a != b]
            path = []
        elif op in ("f", "F", "f*", "B", "B*", "b", "b*", "n"):
            path = []
        args = []
    return out


def _times(m, n):
    """The matrix product m·n of two PDF matrices (a b c d e f)."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D,
            e * A + f * C + E, e * B + f * D + F)


def _apply(m, x, y):
    a, b, c, d, e, f = m
    return (round(a * x + c * y + e, 4), round(b * x + d * y + f, 4))


# --- a matplotlib figure ---------------------------------------------------------------------

def _leader(t, renderer, pt: float) -> list:
    """An annotation's leader line as segments (none for a text without one)."""
    arrow = getattr(t, "arrow_patch", None)
    if arrow is None or not arrow.get_visible():
        return []
    xy = arrow.get_transform().transform_path(arrow.get_path()).vertices * pt
    return [Segment(*a, *b, arrow.get_linewidth())
            for a, b in zip(xy.tolist(), xy[1:].tolist()) if a != b]


def figure_scene(fig, where: str = "") -> Scene:
    """The texts and lines of a matplotlib figure at the PNG's resolution, in points; the
    canvas is the box the saved file is cut to."""
    from matplotlib.text import Text

    from rankwise.report.diagrams import PNG_DPI, _measured_box

    kept = fig.dpi
    fig.set_dpi(PNG_DPI)
    try:
        renderer = fig.canvas.get_renderer()
        pt = 72.0 / PNG_DPI
        labels, segments = [], []
        for ax in fig.axes:
            for t in ax.texts:
                if t.get_visible() and t.get_text():
                    # the text alone: an annotation's extent holds its leader line, which is a
                    # line of its own (it may end at its label, and must cross no other)
                    if hasattr(t, "update_positions"):   # an annotation: placed as drawn
                        t.update_positions(renderer)
                    e = Text.get_window_extent(t, renderer).extents * pt
                    labels.append(Label(t.get_text(), Box(*e)))
                    segments += _leader(t, renderer, pt)
            for line in ax.lines:
                if not line.get_visible() or line.get_linestyle() in ("None", "", " "):
                    continue
                xy = line.get_transform().transform(line.get_xydata()) * pt
                segments += [Segment(*a, *b, line.get_linewidth())
                             for a, b in zip(xy.tolist(), xy[1:].tolist()) if a != b]
        box = _measured_box(fig, PNG_DPI)
        canvas = (Box(*(v * 72.0 for v in box.extents)) if box != "tight"
                  else Box(*(fig.bbox.extents * pt)))
    finally:
        fig.set_dpi(kept)
    return Scene(canvas, labels, segments, where)


# --- any matplotlib figure -------------------------------------------------------------------

def drawn_scene(fig, where: str = "") -> Scene:
    """Every text a reader sees on ``fig`` (tick labels, axis labels, titles, legends, the
    figure's own texts; a rotated one as its turned box) and every stroked data line (lines,
    the segments of ``vlines``/``hlines``/error bars, cut to their axes as drawn), at the PNG's
    resolution, in points; the canvas is the box the saved file is cut to. Grid lines, ticks
    and spines are the frame, not data: they are left out."""
    from matplotlib.collections import LineCollection
    from matplotlib.text import Text

    from rankwise.report.diagrams import PNG_DPI, _measured_box

    kept = fig.dpi
    fig.set_dpi(PNG_DPI)
    try:
        renderer = fig.canvas.get_renderer()
        fig.draw(renderer)   # the layout (tight, constrained) as saved
        pt = 72.0 / PNG_DPI
        hidden = set()
        for ax in fig.axes:
            for axis in (ax.xaxis, ax.yaxis):
                if not ax.axison:   # no axes drawn: nor their ticks, labels and offsets
                    hidden.update((id(axis.label), id(axis.offsetText)))
                drawn = set(map(id, axis._update_ticks())) if ax.axison else set()
                for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                    if id(tick) not in drawn:
                        hidden.update((id(tick.label1), id(tick.label2)))
        labels = []
        for t in fig.findobj(Text):
            if (id(t) in hidden or not t.get_visible() or not t.get_text().strip()
                    or not _shown(t)):
                continue
            labels.append(_text_label(t, renderer, pt))
        segments = []
        for ax in fig.axes:
            frame = Box(*(ax.bbox.extents * pt))
            for line in ax.lines:
                if not line.get_visible() or line.get_linestyle() in ("None", "", " "):
                    continue
                xy = line.get_transform().transform(line.get_xydata()) * pt
                segments += _cut([Segment(*a, *b, line.get_linewidth())
                                  for a, b in zip(xy.tolist(), xy[1:].tolist()) if a != b],
                                 frame if line.get_clip_on() else None)
            for coll in ax.collections:
                if not isinstance(coll, LineCollection) or not coll.get_visible():
                    continue
                widths = list(coll.get_linewidths()) or [1.0]
                tr = coll.get_transform()
                for i, seg in enumerate(coll.get_segments()):
                    xy = tr.transform(seg) * pt
                    w = widths[i % len(widths)]
                    segments += _cut([Segment(*a, *b, w) for a, b in
                                      zip(xy.tolist(), xy[1:].tolist()) if a != b],
                                     frame if coll.get_clip_on() else None)
        box = _measured_box(fig, PNG_DPI, resolve_tight=True)
        canvas = Box(*(v * 72.0 for v in box.extents))
    finally:
        fig.set_dpi(kept)
    return Scene(canvas, labels, segments, where)


def _shown(t) -> bool:
    """Is the text drawn at all (its axes and every parent visible, a legend's text in a
    visible legend)?"""
    a = t
    while a is not None:
        if not a.get_visible():
            return False
        a = getattr(a, "axes", None) if a is not getattr(a, "axes", None) else None
    return True


def _text_label(t, renderer, pt) -> Label:
    """A text's label: its box; for a turned text (not a quarter turn), its own rectangle's
    corners too (the axis-parallel box of two slanted neighbours overlaps where they don't)."""
    import math

    e = t.get_window_extent(renderer)
    box = Box(*(e.extents * pt))
    angle = t.get_rotation() % 180
    if min(angle, 180 - angle) < 1 or abs(angle - 90) < 1:
        return Label(t.get_text(), box)
    kept = t.get_rotation()
    t.set_rotation(0)
    flat = t.get_window_extent(renderer)
    t.set_rotation(kept)
    w, h = flat.width * pt / 2, flat.height * pt / 2
    cx, cy = (box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2
    c, s = math.cos(math.radians(kept)), math.sin(math.radians(kept))
    quad = tuple((cx + dx * c - dy * s, cy + dx * s + dy * c)
                 for dx, dy in ((-w, -h), (w, -h), (w, h), (-w, h)))
    return Label(t.get_text(), box, quad)


def _cut(segments, frame):
    """The parts of ``segments`` inside ``frame`` (a line clipped to its axes; None: whole)."""
    if frame is None:
        return segments
    out = []
    for s in segments:
        span = _span(s.x0, s.y0, s.x1, s.y1, frame, closed=True)
        if span is not None:
            (t0, t1), dx, dy = span, s.x1 - s.x0, s.y1 - s.y0
            out.append(Segment(s.x0 + t0 * dx, s.y0 + t0 * dy, s.x0 + t1 * dx,
                               s.y0 + t1 * dy, s.width))
    return out


def synthetic(k, n, spread, names=None, seed=0):
    """A wide table of k learners on n data sets, each ``spread`` (in noise units) below the
    one before (the visual tests' extremes)."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(seed)
    frame = pd.DataFrame(np.round(-np.arange(k) * spread + rng.normal(0, 1, (n, k)), 4),
                         columns=names or [f"L{j + 1}" for j in range(k)])
    frame.insert(0, "dataset", [f"d{i}" for i in range(n)])
    return frame
