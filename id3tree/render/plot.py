"""The tree drawn with matplotlib, no Graphviz needed: a tidy layout for multiway trees.

The drawing is planned in points (1/72 inch) before anything is drawn:

1. measure every label (node boxes, edge labels, "…" markers) in the font it will be drawn in;
   a node's own width is the widest of its box, the label of its edge and its marker;
2. bottom up, place each node's children left to right, each subtree as close to the ones
   before it as their contours (the left and right edge of a subtree, level by level) allow,
   and centre the node over its first and last child (a tidy tree, as Reingold and Tilford);
3. top down, turn those offsets into positions; rows are as tall as their tallest box, with a
   band above each row for the labels of the edges coming into it;
4. size the figure to the plan (or fit the plan into a given Axes) and draw, one data unit being
   one point, so the measured boxes are the drawn boxes.

No step recurses (trees can be thousands of levels deep), and merging two contours costs only
the depth of the shallower one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from id3tree.node import Node
from id3tree.render.style import (
    BORDER_COLOR,
    EDGE_COLOR,
    FIELDS,
    MUTED_COLOR,
    WHITE,
    Shown,
    check_options,
    class_list,
    class_palette,
    cut_text,
    edge_lines,
    fill_color,
    node_body,
    node_title,
    visible,
)

NODE_GID, EDGE_GID, MARKER_GID = "id3tree-node", "id3tree-edge-label", "id3tree-cut"
MAX_PIXELS = 60_000  # Agg draws at most 2**16 pixels a side; bigger plans get a lower dpi


@dataclass
class _Item:
    """One drawn node: what it says (from style) and, once laid out, where it goes (points)."""

    shown: Shown
    title: list[str]
    body: list[str]
    fill: str
    edge: list[str]
    italic: bool
    marker: str | None
    children: list[int] = field(default_factory=list)
    box_w: float = 0.0
    box_h: float = 0.0
    label_w: float = 0.0
    label_h: float = 0.0
    marker_w: float = 0.0
    marker_h: float = 0.0
    half: float = 0.0  # half the node's own width, half the gap to its neighbours included
    child_dx: list[float] = field(default_factory=list)  # each child's x minus this node's x
    x: float = 0.0
    top: float = 0.0
    line_tops: list[float] = field(default_factory=list)


@dataclass
class _Plan:
    items: list[_Item]
    width: float
    height: float
    fontsize: float
    label_top: list[float]  # per level: the top of its band of edge labels
    row_bottom: list[float]  # per level: the bottom of its tallest box


class _Contour:
    """The left and right edges of a subtree, level by level, relative to its root's x.

    Edges are stored bottom level first (a parent adds its own level with one ``append``) and
    each list has its own offset (shifting a subtree is two additions). A merge patches the
    top levels of the deeper subtree's lists in place, so it costs the shallower one's depth.
    """

    __slots__ = ("lo", "lo_off", "hi", "hi_off")

    def __init__(self, lo: list[float], lo_off: float, hi: list[float], hi_off: float):
        self.lo, self.lo_off, self.hi, self.hi_off = lo, lo_off, hi, hi_off

    @classmethod
    def of_levels(cls, halves: list[float]) -> _Contour:
        """A subtree whose levels, top first, are centred and ``2 * half`` wide."""
        return cls([-h for h in reversed(halves)], 0.0, list(reversed(halves)), 0.0)

    @property
    def depth(self) -> int:
        return len(self.lo)

    def left(self, level: int) -> float:
        return self.lo_off + self.lo[-1 - level]

    def right(self, level: int) -> float:
        return self.hi_off + self.hi[-1 - level]

    def shift(self, dx: float) -> None:
        self.lo_off += dx
        self.hi_off += dx

    def push_top(self, half: float) -> None:
        self.lo.append(-half - self.lo_off)
        self.hi.append(half - self.hi_off)

    def gap_to(self, other: _Contour) -> float:
        """How far right ``other`` must move to clear this contour at every level."""
        return max(self.right(i) - other.left(i) for i in range(min(self.depth, other.depth)))

    def merge(self, other: _Contour) -> _Contour:
        """This subtree and ``other`` (already placed to its right) as one."""
        a, b = self.depth, other.depth
        if a >= b:
            lo, lo_off = self.lo, self.lo_off
        else:  # the top a levels of the left edge are this subtree's
            for i in range(a):
                other.lo[-1 - i] = self.left(i) - other.lo_off
            lo, lo_off = other.lo, other.lo_off
        if b >= a:
            hi, hi_off = other.hi, other.hi_off
        else:  # the top b levels of the right edge are other's
            for i in range(b):
                self.hi[-1 - i] = other.right(i) - self.hi_off
            hi, hi_off = self.hi, self.hi_off
        return _Contour(lo, lo_off, hi, hi_off)


class _Metrics:
    """Text sizes in points, as Agg draws them at ``dpi`` (any backend draws within a hair)."""

    def __init__(self, fontname: str | None, fontsize: float, dpi: float):
        from matplotlib.backends.backend_agg import RendererAgg
        from matplotlib.font_manager import FontProperties

        family = None if fontname is None else [f.strip() for f in str(fontname).split(",")]
        self.renderer = RendererAgg(1, 1, dpi)
        self.scale = 72.0 / dpi
        self.widths: dict[tuple[str, int], float] = {}
        self.regular = FontProperties(family=family, size=fontsize)
        self.bold = FontProperties(family=family, size=fontsize, weight="bold")
        self.small = FontProperties(family=family, size=0.92 * fontsize)
        self.italic = FontProperties(family=family, size=0.92 * fontsize, style="italic")

    def width(self, text: str, prop) -> float:
        key = (text, id(prop))  # trees repeat their lines ("entropy = 0.000") a lot
        if key not in self.widths:
            w, _, _ = self.renderer.get_text_width_height_descent(text, prop, ismath=False)
            self.widths[key] = w * self.scale
        return self.widths[key]

    def height(self, prop) -> float:
        _, h, _ = self.renderer.get_text_width_height_descent("lp", prop, ismath=False)
        return h * self.scale


def _items(root, classes, show, decimals, filled, class_colors, max_depth) -> list[_Item]:
    """The content of the drawing, from the same words and colours as the Graphviz renderer."""
    palette = class_palette(classes, class_colors)
    items: list[_Item] = []
    for shown in visible(root, max_depth):
        node = shown.node
        edge, italic = (
            ([], False) if shown.parent is None else edge_lines(shown.parent_node, shown.key)
        )
        items.append(
            _Item(
                shown=shown,
                title=node_title(node),
                body=node_body(node, classes, show, decimals),
                fill=fill_color(node, palette, len(classes)) if filled else WHITE,
                edge=edge,
                italic=italic,
                marker=cut_text(shown.hidden) if shown.hidden else None,
            )
        )
        if shown.parent is not None:
            items[shown.parent].children.append(shown.index)
    return items


def _plan(items: list[_Item], fontname: str | None, fontsize: float, dpi: float) -> _Plan:
    """Steps 1-3 of the module docstring."""
    m = _Metrics(fontname, fontsize, dpi)
    line_h = max(m.height(m.regular), m.height(m.bold))
    pitch = 1.15 * line_h
    pad_x, pad_y = 0.8 * fontsize, 0.5 * fontsize
    label_pad = 0.3 * fontsize  # the white background around an edge label
    label_pitch = 1.2 * m.height(m.small)
    gap_x = 1.2 * fontsize  # between neighbouring slots
    gap_y = 3.0 * fontsize  # between a row's boxes and the labels below them
    stub = 0.9 * fontsize  # the dashed line down to a "…" marker
    margin = 0.8 * fontsize

    # 1. measure
    for it in items:
        widths = [m.width(t, m.bold) for t in it.title] + [m.width(t, m.regular) for t in it.body]
        n_lines = len(it.title) + len(it.body)
        it.box_w = max(widths) + 2 * pad_x
        it.box_h = (n_lines - 1) * pitch + line_h + 2 * pad_y
        if it.edge:
            font = m.italic if it.italic else m.small
            it.label_w = max(m.width(t, font) for t in it.edge) + 2 * label_pad
            it.label_h = len(it.edge) * label_pitch + 2 * label_pad
        if it.marker:
            it.marker_w = m.width(it.marker, m.small)
            it.marker_h = stub + label_pitch

    gap_y = max(gap_y, max(it.marker_h for it in items) + 0.4 * fontsize)

    # 2. bottom up: in reverse visiting order every child comes before its parent
    contours: list[_Contour | None] = [None] * len(items)
    for it in reversed(items):
        it.half = (max(it.box_w, it.label_w, it.marker_w) + gap_x) / 2
        if not it.children:
            halves = [it.half] + ([(it.marker_w + gap_x) / 2] if it.marker else [])
            contours[it.shown.index] = _Contour.of_levels(halves)
            continue
        placed, xs = None, []
        for c in it.children:
            contour, contours[c] = contours[c], None
            x = 0.0 if placed is None else placed.gap_to(contour)
            contour.shift(x)
            placed = contour if placed is None else placed.merge(contour)
            xs.append(x)
        centre = (xs[0] + xs[-1]) / 2
        it.child_dx = [x - centre for x in xs]
        placed.shift(-centre)
        placed.push_top(it.half)
        contours[it.shown.index] = placed

    # 3. rows: each as tall as its tallest box, with a band for incoming edge labels above it
    depth = max(it.shown.level for it in items)
    row_h = [0.0] * (depth + 1)
    band = [0.0] * (depth + 1)
    for it in items:
        level = it.shown.level
        row_h[level] = max(row_h[level], it.box_h)
        band[level] = max(band[level], it.label_h)
    row_top, label_top = [margin], [margin]
    for level in range(1, depth + 1):
        label_top.append(row_top[-1] + row_h[level - 1] + gap_y)
        row_top.append(label_top[-1] + band[level] + 0.4 * fontsize)
    row_bottom = [top + h for top, h in zip(row_top, row_h)]

    # positions, top down: in visiting order every parent comes before its children
    items[0].x = 0.0
    for it in items:
        it.top = row_top[it.shown.level]
        it.line_tops = [it.top + pad_y + i * pitch for i in range(len(it.title) + len(it.body))]
        for c, dx in zip(it.children, it.child_dx):
            items[c].x = it.x + dx
    left = min(it.x - it.half for it in items)
    right = max(it.x + it.half for it in items)
    for it in items:
        it.x += margin - left
    bottom = max(it.top + it.box_h + it.marker_h for it in items)
    return _Plan(
        items=items,
        width=right - left + 2 * margin,
        height=bottom + margin,
        fontsize=fontsize,
        label_top=label_top,
        row_bottom=row_bottom,
    )


def _draw(ax, plan: _Plan, fontname: str | None) -> None:
    """Step 4: boxes, words, edges, labels and markers, one data unit per point."""
    from matplotlib.collections import LineCollection
    from matplotlib.patches import FancyBboxPatch

    family = None if fontname is None else [f.strip() for f in str(fontname).split(",")]
    size, small = plan.fontsize, 0.92 * plan.fontsize
    text = {"ha": "center", "parse_math": False, "family": family, "zorder": 3}
    edges, dashed = [], []
    for it in plan.items:
        ax.add_patch(
            FancyBboxPatch(
                (it.x - it.box_w / 2, it.top),
                it.box_w,
                it.box_h,
                boxstyle=f"round,pad=0,rounding_size={0.6 * size:.3g}",
                facecolor=it.fill,
                edgecolor=BORDER_COLOR,
                linewidth=0.8,
                zorder=2,
                gid=NODE_GID,
            )
        )
        for i, line in enumerate(it.title + it.body):
            weight = "bold" if i < len(it.title) else "normal"
            ax.text(it.x, it.line_tops[i], line, va="top", size=size, weight=weight, **text)
        if it.shown.parent is not None:
            parent = plan.items[it.shown.parent]
            bottom = plan.row_bottom[parent.shown.level]
            short = parent.top + parent.box_h < bottom
            if short and it.shown.index == parent.children[0]:  # down to the row's bottom first
                edges.append([(parent.x, parent.top + parent.box_h), (parent.x, bottom)])
            start = (parent.x, bottom)
            if it.edge:
                top = plan.label_top[it.shown.level]
                edges.append([start, (it.x, top)])
                edges.append([(it.x, top + it.label_h), (it.x, it.top)])
                ax.text(
                    it.x,
                    top + it.label_h / 2,
                    "\n".join(it.edge),
                    va="center",
                    size=small,
                    style="italic" if it.italic else "normal",
                    color="#222222",
                    bbox={"boxstyle": "round,pad=0.3", "facecolor": WHITE, "edgecolor": "none"},
                    gid=EDGE_GID,
                    **text,
                )
            else:
                edges.append([start, (it.x, it.top)])
        if it.marker:
            stub_top = it.top + it.box_h
            stub_bottom = stub_top + 0.9 * size
            dashed.append([(it.x, stub_top), (it.x, stub_bottom)])
            ax.text(
                it.x,
                stub_bottom,
                it.marker,
                va="top",
                size=small,
                color=MUTED_COLOR,
                gid=MARKER_GID,
                **text,
            )
    ax.add_collection(LineCollection(edges, colors=EDGE_COLOR, linewidths=0.9, zorder=1))
    ax.add_collection(
        LineCollection(dashed, colors=MUTED_COLOR, linewidths=0.9, linestyles="--", zorder=1)
    )
    ax.set_axis_off()


def plot_tree(
    root: Node,
    *,
    classes: Sequence | None = None,
    ax=None,
    show: Iterable[str] = FIELDS,
    decimals: int = 3,
    filled: bool = True,
    class_colors: Mapping | None = None,
    max_depth: int | None = None,
    fontname: str | None = None,
    fontsize: float = 9.0,
):
    """Draw a (multiway) tree with matplotlib; no Graphviz program needed.

    Each node is a box with the split (``Outlook``, ``petal_length ≤ 2.45``) or the predicted
    class, then the fields in ``show``; each edge carries its category value, ``≤ t`` / ``> t``,
    or *missing*. No two boxes or labels overlap.

    Parameters
    ----------
    root : Node
        The node to draw from (a fitted learner's ``root_``, or any subtree).
    classes : sequence, optional
        The classes in the order their counts and colours are listed; default: the order of
        ``root.class_counts``.
    ax : matplotlib Axes, optional
        Where to draw. The tree is centred in it, one data unit per point, and the fonts shrink
        if the tree would not fit. Default: a new figure sized to the tree.
    show, decimals, filled, class_colors, max_depth
        As in :func:`id3tree.render.dot.tree_to_dot`: the fields under each title, digits of
        entropy and gain, colour by majority class and purity, colours per class, and how many
        levels to draw (a cut subtree shows as "… N more nodes").
    fontname : str, optional
        Font family (a comma-separated list is tried in order); default: matplotlib's.
    fontsize : float, default=9.0
        Points, for the node boxes; edge labels are a little smaller.

    Returns
    -------
    matplotlib.axes.Axes
    """
    show = check_options(show, decimals, max_depth)
    if isinstance(fontsize, bool) or not isinstance(fontsize, (int, float)) or fontsize <= 0:
        raise ValueError(f"fontsize must be a positive number, got {fontsize!r}")
    import matplotlib.pyplot as plt  # here, so importing id3tree never touches matplotlib

    classes = class_list(root, classes)
    items = _items(root, classes, show, decimals, filled, class_colors, max_depth)
    if ax is None:
        dpi = float(plt.rcParams["figure.dpi"])
        plan = _plan(items, fontname, fontsize, dpi)
        widest = max(plan.width, plan.height) / 72 * dpi
        if widest > MAX_PIXELS:
            dpi *= MAX_PIXELS / widest
            plan = _plan(items, fontname, fontsize, dpi)
        fig = plt.figure(figsize=(plan.width / 72, plan.height / 72), dpi=dpi)
        ax = fig.add_axes((0, 0, 1, 1))
        view_w, view_h = plan.width, plan.height
    else:
        dpi = ax.figure.dpi
        box = ax.get_window_extent()
        view_w, view_h = box.width * 72 / dpi, box.height * 72 / dpi
        plan = _plan(items, fontname, fontsize, dpi)
        for _ in range(6):  # text widths scale with the font size, give or take hinting
            scale = min(view_w / plan.width, view_h / plan.height)
            if scale >= 1:
                break
            plan = _plan(items, fontname, plan.fontsize * scale * 0.98, dpi)
    _draw(ax, plan, fontname)
    x_mid, y_mid = plan.width / 2, plan.height / 2
    ax.set_xlim(x_mid - view_w / 2, x_mid + view_w / 2)
    ax.set_ylim(y_mid + view_h / 2, y_mid - view_h / 2)  # y grows downwards, like the tree
    return ax
