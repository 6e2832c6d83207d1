"""Where the boxes of a tree drawing go: a tidy layout for multiway trees, with wide levels wrapped.

Sizes are given (in points) by the renderer that measured them; this module only places boxes,
so the matplotlib drawing (text measured by matplotlib) and the Graphviz one (text estimated from
its length) are planned alike.

1. Bottom up, place each node's children left to right, each subtree as close to the ones
   before it as their contours (the left and right edge of a subtree, row by row) allow, and
   centre the node over its first and last child (a tidy tree, as Reingold and Tilford).
2. **Wrapping.** Given a width, a node whose children would spread wider breaks them into
   lines, as words wrap in a paragraph: the first line under the node, the next one below the
   deepest row of the first, and so on, each line starting at a *trunk* that runs down on the
   left of the lines above it (an org chart's way of wrapping). Nothing moves in a tree that is
   narrow enough: an unwrapped layout is the plain tidy tree.
3. Top down, turn those offsets into positions; rows are as tall as their tallest box, with a
   band above each row for the labels of the edges coming into it.

:func:`fitted` tries a few widths to wrap at and keeps the layout whose shape is closest to a
page (or to the Axes it must fill). No step recurses (trees can be thousands of levels deep), and
merging two contours costs only the depth of the shallower one.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = [
    "arrange", "Contour", "deepest", "fit_depth", "fitted", "Layout", "MAX_BOXES", "PAGE_ASPECT",
    "Slot", "Spacing", "STRIP", "WRAP_TRIES",
]  # fmt: skip

PAGE_ASPECT = math.sqrt(2)  # width / height of an A4 page in landscape, the shape aimed at
WRAP_TRIES = 12  # widths tried when wrapping, from the widest box to the widest allowed
MAX_BOXES = 2_000  # more boxes are unreadable on any page, and slow to draw and save
STRIP = 4.0  # a drawing this many times as wide as tall (and wide) is wrapped: a strip that
# shrunk to the width of a slide or a page would have unreadable text


@dataclass
class Slot:
    """One box: its sizes (set by the renderer) and, once arranged, where it goes (points)."""

    children: list[int] = field(default_factory=list)
    box_w: float = 0.0
    box_h: float = 0.0
    label_w: float = 0.0  # the label of the edge coming into the box
    label_h: float = 0.0
    marker_w: float = 0.0  # the "… N more nodes" marker under a cut node
    marker_h: float = 0.0
    half: float = 0.0  # half the slot's width, half the gap to its neighbours included
    child_dx: list[float] = field(default_factory=list)  # each child's x minus this node's x
    child_dy: list[int] = field(default_factory=list)  # each child's row minus this node's row
    lines: list[list[int]] = field(default_factory=list)  # the children, line by line
    trunk: float | None = None  # x of the trunk down to the later lines (wrapped nodes only)
    x: float = 0.0
    row: int = 0
    top: float = 0.0


@dataclass(frozen=True)
class Spacing:
    """The gaps of a layout, in points."""

    gap_x: float  # between neighbouring slots
    gap_y: float  # between a row's boxes (and markers) and the band of labels below them
    band_gap: float  # between a band of labels and the boxes under it
    margin: float  # around the drawing


@dataclass
class Layout:
    width: float
    height: float
    row_top: list[float]  # per row: the top of its boxes
    label_top: list[float]  # per row: the top of its band of edge labels
    row_bottom: list[float]  # per row: the bottom of its tallest box
    wrap: float | None  # the width children were wrapped at (None: not wrapped)
    wrapped: bool  # some node's children were broken into lines


class Contour:
    """The left and right edges of a subtree, row by row, relative to its root's x.

    Edges are stored bottom row first (a parent adds its own row with one ``append``) and
    each list has its own offset (shifting a subtree is two additions). A merge patches the
    top rows of the deeper subtree's lists in place, so it costs the shallower one's depth.
    ``far_lo`` and ``far_hi`` are the extremes over all rows; ``boxes`` counts the rows that hold
    boxes (a row below them may hold only "…" markers).
    """

    __slots__ = ("lo", "lo_off", "hi", "hi_off", "far_lo", "far_hi", "boxes")

    def __init__(self, lo, lo_off, hi, hi_off, far_lo, far_hi, boxes):
        self.lo, self.lo_off, self.hi, self.hi_off = lo, lo_off, hi, hi_off
        self.far_lo, self.far_hi, self.boxes = far_lo, far_hi, boxes

    @classmethod
    def of_rows(cls, lefts: list[float], rights: list[float], boxes: int) -> Contour:
        """A subtree whose rows, top first, span ``lefts[i]`` to ``rights[i]``."""
        return cls(lefts[::-1], 0.0, rights[::-1], 0.0, min(lefts), max(rights), boxes)

    @property
    def depth(self) -> int:
        return len(self.lo)

    @property
    def width(self) -> float:
        return self.far_hi - self.far_lo

    def left(self, row: int) -> float:
        return self.lo_off + self.lo[-1 - row]

    def right(self, row: int) -> float:
        return self.hi_off + self.hi[-1 - row]

    def shift(self, dx: float) -> None:
        self.lo_off += dx
        self.hi_off += dx
        self.far_lo += dx
        self.far_hi += dx

    def push_top(self, half: float) -> None:
        self.lo.append(-half - self.lo_off)
        self.hi.append(half - self.hi_off)
        self.far_lo = min(self.far_lo, -half)
        self.far_hi = max(self.far_hi, half)
        self.boxes += 1

    def gap_to(self, other: Contour) -> float:
        """How far right ``other`` must move to clear this contour at every row."""
        return max(self.right(i) - other.left(i) for i in range(min(self.depth, other.depth)))

    def merge(self, other: Contour) -> Contour:
        """This subtree and ``other`` (already placed to its right) as one."""
        a, b = self.depth, other.depth
        if a >= b:
            lo, lo_off = self.lo, self.lo_off
        else:  # the top a rows of the left edge are this subtree's
            for i in range(a):
                other.lo[-1 - i] = self.left(i) - other.lo_off
            lo, lo_off = other.lo, other.lo_off
        if b >= a:
            hi, hi_off = other.hi, other.hi_off
        else:  # the top b rows of the right edge are other's
            for i in range(b):
                self.hi[-1 - i] = other.right(i) - self.hi_off
            hi, hi_off = self.hi, self.hi_off
        # at a shared row other lies right of self, so neither extreme can come from the patch
        far_lo, far_hi = min(self.far_lo, other.far_lo), max(self.far_hi, other.far_hi)
        return Contour(lo, lo_off, hi, hi_off, far_lo, far_hi, max(self.boxes, other.boxes))


@dataclass
class _Line:
    """Children placed side by side: their x (the first at 0) and their merged contour."""

    children: list[int]
    xs: list[float]
    contour: Contour


def _lines(children: list[int], contours: list, wrap: float | None) -> list[_Line]:
    """Step 2: the children left to right, a new line whenever one would pass ``wrap``."""
    lines: list[_Line] = []
    for c in children:
        contour, contours[c] = contours[c], None
        if not lines:
            lines.append(_Line([c], [0.0], contour))
            continue
        line = lines[-1]
        x = line.contour.gap_to(contour)
        far_lo = min(line.contour.far_lo, x + contour.far_lo)
        if wrap is not None and max(line.contour.far_hi, x + contour.far_hi) - far_lo > wrap:
            lines.append(_Line([c], [0.0], contour))
            continue
        contour.shift(x)
        line.contour = line.contour.merge(contour)
        line.children.append(c)
        line.xs.append(x)
    return lines


def _stack(slot: Slot, lines: list[_Line], gap: float) -> Contour:
    """Lines under ``slot``: the first centred under it, each next one below the boxes of the
    one before, all starting just right of the trunk, which runs half a ``gap`` left of the
    first line (so it never runs on top of a trunk of the lines' own)."""
    first = lines[0]
    centre = (first.xs[0] + first.xs[-1]) / 2
    trunk = first.contour.far_lo - centre - gap / 2
    shifts = [-centre] + [trunk + gap / 2 - line.contour.far_lo for line in lines[1:]]
    starts = [1]
    for line in lines[:-1]:
        starts.append(starts[-1] + line.contour.boxes)
    n_rows = max(s + line.contour.depth for s, line in zip(starts, lines))
    lefts, rights = [math.inf] * n_rows, [-math.inf] * n_rows
    lefts[0], rights[0] = -slot.half, slot.half
    for start, shift, line in zip(starts, shifts, lines):
        for i in range(line.contour.depth):
            lefts[start + i] = min(lefts[start + i], line.contour.left(i) + shift)
            rights[start + i] = max(rights[start + i], line.contour.right(i) + shift)
        slot.child_dx += [x + shift for x in line.xs]
        slot.child_dy += [start] * len(line.xs)
    for row in range(1, starts[-1] + 1):  # the trunk, down to the last line's bus
        lefts[row] = min(lefts[row], trunk - gap / 2)
    slot.trunk = trunk
    return Contour.of_rows(lefts, rights, starts[-1] + lines[-1].contour.boxes)


def arrange(slots: list[Slot], spacing: Spacing, wrap: float | None = None) -> Layout:
    """Place ``slots`` (a tree in pre-order: every parent before its children, the root first),
    wrapping any node's children that would spread wider than ``wrap`` points."""
    gap_x = spacing.gap_x
    contours: list[Contour | None] = [None] * len(slots)
    for i in range(len(slots) - 1, -1, -1):  # 1. bottom up: every child before its parent
        slot = slots[i]
        slot.half = (max(slot.box_w, slot.label_w, slot.marker_w) + gap_x) / 2
        slot.child_dx, slot.child_dy, slot.trunk = [], [], None
        if not slot.children:
            slot.lines = []
            halves = [slot.half] + ([(slot.marker_w + gap_x) / 2] if slot.marker_w else [])
            contours[i] = Contour.of_rows([-h for h in halves], halves, 1)
            continue
        lines = _lines(slot.children, contours, wrap)
        slot.lines = [line.children for line in lines]
        if len(lines) > 1:
            contours[i] = _stack(slot, lines, gap_x)
            continue
        placed, xs = lines[0].contour, lines[0].xs
        centre = (xs[0] + xs[-1]) / 2
        slot.child_dx = [x - centre for x in xs]
        slot.child_dy = [1] * len(xs)
        placed.shift(-centre)
        placed.push_top(slot.half)
        contours[i] = placed

    slots[0].x, slots[0].row = 0.0, 0
    for slot in slots:  # 3. top down: every parent before its children
        for c, dx, dy in zip(slot.children, slot.child_dx, slot.child_dy):
            slots[c].x, slots[c].row = slot.x + dx, slot.row + dy
    return _rows(slots, spacing, wrap)


def _rows(slots: list[Slot], spacing: Spacing, wrap: float | None) -> Layout:
    """Rows as tall as their tallest box, a band for incoming edge labels above each."""
    n_rows = 1 + max(slot.row for slot in slots)
    row_h, band = [0.0] * n_rows, [0.0] * n_rows
    for slot in slots:
        row_h[slot.row] = max(row_h[slot.row], slot.box_h)
        band[slot.row] = max(band[slot.row], slot.label_h)
    row_top, label_top = [spacing.margin], [spacing.margin]
    for row in range(1, n_rows):
        label_top.append(row_top[-1] + row_h[row - 1] + spacing.gap_y)
        row_top.append(label_top[-1] + band[row] + spacing.band_gap)
    left = min(slot.x - slot.half for slot in slots)
    right = max(slot.x + slot.half for slot in slots)
    bottom = 0.0
    for slot in slots:
        slot.x += spacing.margin - left
        if slot.trunk is not None:
            slot.trunk += slot.x
        slot.top = row_top[slot.row]
        bottom = max(bottom, slot.top + slot.box_h + slot.marker_h)
    return Layout(
        width=right - left + 2 * spacing.margin,
        height=bottom + spacing.margin,
        row_top=row_top,
        label_top=label_top,
        row_bottom=[top + h for top, h in zip(row_top, row_h)],
        wrap=wrap,
        wrapped=any(slot.trunk is not None for slot in slots),
    )


def fitted(
    slots: list[Slot], spacing: Spacing, *, max_width: float = math.inf,
    max_height: float = math.inf, aspect: float = PAGE_ASPECT, strip_width: float = math.inf,
) -> Layout:  # fmt: skip
    """The plain layout if it fits ``max_width`` x ``max_height`` (and is not a strip: more than
    :data:`STRIP` times as wide as tall and wider than ``strip_width``); else, of the plain
    layout and those wrapped at :data:`WRAP_TRIES` widths (from the widest slot to the widest
    allowed, evenly on a log scale), the one that fits and is closest to the shape ``aspect``
    (width / height), i.e. the one that would be drawn largest in a frame of that shape; else
    the one that comes closest to fitting. The slots are left arranged as the returned layout
    says.
    """
    plain = arrange(slots, spacing)
    strip = plain.width > strip_width and plain.width > STRIP * plain.height
    if plain.width <= max_width and plain.height <= max_height and not strip:
        return plain
    narrowest = max(2 * slot.half for slot in slots)
    widest = min(plain.width, max_width) - 2 * spacing.margin
    if widest <= narrowest:
        return plain

    def badness(layout: Layout) -> tuple[float, float]:
        over = max(layout.width / max_width, layout.height / max_height)
        return (max(over, 1.0), max(layout.width / aspect, layout.height))

    best, best_wrap = badness(plain), None
    for k in range(WRAP_TRIES):
        wrap = narrowest * (widest / narrowest) ** (k / (WRAP_TRIES - 1))
        score = badness(arrange(slots, spacing, wrap))
        if score < best:
            best, best_wrap = score, wrap
    return arrange(slots, spacing, best_wrap)


def deepest(shallowest: int, deepest_tried: int, fits: Callable[[int], bool]) -> int:
    """The largest depth in ``shallowest..deepest_tried`` for which ``fits`` holds, by bisection
    (a drawing of more levels is never smaller); ``shallowest`` if none does."""
    lo, hi = shallowest, deepest_tried
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if fits(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo


def fit_depth(
    max_depth: int | None,
    counts: list[int],
    n_levels: int,
    fits: Callable[[int | None, bool], bool],
) -> tuple[int | None, bool]:
    """The ``max_depth`` to draw, and whether it draws fewer levels than asked.

    ``counts`` are the boxes per level (:func:`~id3tree.render.style.boxes_per_level`, up to
    ``max_depth``, stopped past :data:`MAX_BOXES`), ``n_levels`` the levels the tree has, and
    ``fits(depth, cut)`` says whether a drawing fits (``cut``: with a note that levels are left
    out). The depth asked for is kept if it has at most :data:`MAX_BOXES` boxes and fits;
    otherwise the answer is the deepest one above it that does (found by bisection, a
    drawing of more levels never being smaller).
    """
    if sum(counts) <= MAX_BOXES and fits(max_depth, False):
        return max_depth, False
    total, within = 0, -1  # the deepest max_depth within MAX_BOXES boxes
    for count in counts:
        total += count
        if total > MAX_BOXES:
            break
        within += 1
    below = n_levels - 1 if max_depth is None else max_depth
    top = max(0, min(below - 1, within))
    return deepest(0, top, lambda depth: fits(depth, True)), True
