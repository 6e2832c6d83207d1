"""The tree drawn with matplotlib, no Graphviz needed: a tidy layout for multiway trees.

The drawing is planned in points (1/72 inch) before anything is drawn:

1. measure every block of text (a node's title, the lines under it, its edge label, its "…"
   marker) in the font it will be drawn in, through matplotlib's own text layout; a node's own
   width is the widest of its box, the label of its edge and its marker;
2. bottom up, place each node's children left to right, each subtree as close to the ones
   before it as their contours (the left and right edge of a subtree, level by level) allow,
   and centre the node over its first and last child (a tidy tree, as Reingold and Tilford);
3. top down, turn those offsets into positions; rows are as tall as their tallest box, with a
   band above each row for the labels of the edges coming into it;
4. size the figure to the plan (or fit the plan into a given Axes) and draw, one data unit being
   one point, so the measured boxes are the drawn boxes.

No step recurses (trees can be thousands of levels deep), and merging two contours costs only
the depth of the shallower one. Two things keep a large tree quick: text is measured once per
*shape* (``samples = 1234`` and ``samples = 5678`` are one shape, see :class:`_Metrics`), and
each block of text is one artist added without the Axes recomputing its data limits (the plan
sets them).
"""

from __future__ import annotations

import warnings
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
MIN_READABLE_FONTSIZE = 4.0  # points: a drawing squeezed below this says so
MAX_PIXELS = 60_000  # Agg draws at most 2**16 pixels a side; bigger plans get a lower dpi
MAX_NODES = 2_000  # more boxes are unreadable on any page matplotlib can save, and slow to save


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
    title_top: float = 0.0
    body_top: float = 0.0


@dataclass
class _Plan:
    items: list[_Item]
    fonts: _Metrics
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
    """Fonts, and the size in points of a block of text as matplotlib lays it out at ``dpi``.

    A block is what one Text artist draws: lines centred under each other. It is measured
    through matplotlib's own layout (so its line spacing is right on every matplotlib version),
    once per *shape*: a tree repeats a few shapes with different numbers (``samples = 1234``),
    so when the font draws all ten digits alike (most fonts do) every digit is replaced by
    ``0`` first. In a font whose digits differ, each text is measured as it is.
    """

    DIGITS = "0123456789"

    def __init__(self, fontname: str | None, fontsize: float, dpi: float):
        from matplotlib.backends.backend_agg import RendererAgg
        from matplotlib.figure import Figure
        from matplotlib.font_manager import FontProperties

        family = None if fontname is None else [f.strip() for f in str(fontname).split(",")]
        self.figure = Figure(dpi=dpi)
        self.renderer = RendererAgg(1, 1, dpi)
        self.scale = 72.0 / dpi
        self.fontsize = fontsize
        self.regular = FontProperties(family=family, size=fontsize)
        self.bold = FontProperties(family=family, size=fontsize, weight="bold")
        self.small = FontProperties(family=family, size=0.92 * fontsize)
        self.italic = FontProperties(family=family, size=0.92 * fontsize, style="italic")
        self.sizes: dict[tuple[str, int], tuple[float, float]] = {}
        self.shapes: dict[int, dict] = {}  # per font: str.translate table, digits -> "0"

    def size(self, lines: list[str], prop) -> tuple[float, float]:
        """Width and height of ``lines`` drawn as one block in the font ``prop``."""
        if not lines:
            return 0.0, 0.0
        if id(prop) not in self.shapes:
            alike = len({self._measure(d * 8, prop) for d in self.DIGITS}) == 1
            self.shapes[id(prop)] = str.maketrans(self.DIGITS, "0" * 10) if alike else {}
        key = ("\n".join(lines).translate(self.shapes[id(prop)]), id(prop))
        if key not in self.sizes:
            self.sizes[key] = self._measure(key[0], prop)
        return self.sizes[key]

    def _measure(self, text: str, prop) -> tuple[float, float]:
        from matplotlib.text import Text

        block = Text(0, 0, text, fontproperties=prop, parse_math=False)
        block.set_figure(self.figure)
        box = block.get_window_extent(self.renderer)
        return box.width * self.scale, box.height * self.scale


def _check_size(root: Node, max_depth: int | None) -> None:
    """Refuse a drawing of more than ``MAX_NODES`` boxes, saying what to do instead.

    Levels are counted top down and the count stops as soon as it passes the limit, so a huge
    tree costs no more than the levels that fit.
    """
    level, shown, nodes = 0, 0, [root]
    while nodes and (max_depth is None or level <= max_depth):
        if shown + len(nodes) > MAX_NODES:
            raise ValueError(
                f"this drawing would have more than {MAX_NODES:,} boxes, too many to read or to "
                f"save quickly with matplotlib: draw the top levels with max_depth={level - 1} "
                f"({shown:,} boxes), or the whole tree with Graphviz (to_dot() or to_graphviz() "
                "of the model, tree_to_dot() of a node)"
            )
        shown += len(nodes)
        nodes = [child for node in nodes for child in node.children.values()]
        level += 1


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
    pad_x, pad_y = 0.8 * fontsize, 0.5 * fontsize
    line_gap = 0.2 * fontsize  # between a box's title and the lines under it
    label_pad = 0.3 * fontsize  # the white background around an edge label
    gap_x = 1.2 * fontsize  # between neighbouring slots
    gap_y = 3.0 * fontsize  # between a row's boxes and the labels below them
    stub = 0.9 * fontsize  # the dashed line down to a "…" marker
    margin = 0.8 * fontsize

    # 1. measure
    for it in items:
        title_w, title_h = m.size(it.title, m.bold)
        body_w, body_h = m.size(it.body, m.regular)
        it.box_w = max(title_w, body_w) + 2 * pad_x
        it.body_top = pad_y + title_h + line_gap  # for now, relative to the box's top
        it.box_h = (it.body_top + body_h if it.body else pad_y + title_h) + pad_y
        if it.edge:
            label_w, label_h = m.size(it.edge, m.italic if it.italic else m.small)
            it.label_w = label_w + 2 * label_pad
            it.label_h = label_h + 2 * label_pad
        if it.marker:
            it.marker_w, marker_h = m.size([it.marker], m.small)
            it.marker_h = stub + marker_h

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
        it.title_top, it.body_top = it.top + pad_y, it.top + it.body_top
        for c, dx in zip(it.children, it.child_dx):
            items[c].x = it.x + dx
    left = min(it.x - it.half for it in items)
    right = max(it.x + it.half for it in items)
    for it in items:
        it.x += margin - left
    bottom = max(it.top + it.box_h + it.marker_h for it in items)
    return _Plan(
        items=items,
        fonts=m,
        width=right - left + 2 * margin,
        height=bottom + margin,
        fontsize=fontsize,
        label_top=label_top,
        row_bottom=row_bottom,
    )


def _draw(ax, plan: _Plan) -> None:
    """Step 4: boxes, words, edges, labels and markers, one data unit per point.

    Boxes and words are added with ``ax.add_artist``: ``add_patch`` would recompute the data
    limits for every box (the plan sets the limits once), and ``ax.text`` would build a
    clipping path for every word; text is not clipped, so all words share one.
    """
    from matplotlib.collections import LineCollection
    from matplotlib.patches import FancyBboxPatch
    from matplotlib.text import Text
    from matplotlib.transforms import TransformedPatchPath

    fonts = plan.fonts
    rounding = f"round,pad=0,rounding_size={0.6 * plan.fontsize:.3g}"
    unused = TransformedPatchPath(ax.patch)
    words = dict(ha="center", parse_math=False, zorder=3, clip_on=False, clip_path=unused)
    edges, dashed = [], []

    def add_text(x, y, lines, font, **options):
        ax.add_artist(Text(x, y, "\n".join(lines), fontproperties=font, **words, **options))

    for it in plan.items:
        ax.add_artist(
            FancyBboxPatch(
                (it.x - it.box_w / 2, it.top),
                it.box_w,
                it.box_h,
                boxstyle=rounding,
                facecolor=it.fill,
                edgecolor=BORDER_COLOR,
                linewidth=0.8,
                zorder=2,
                gid=NODE_GID,
            )
        )
        add_text(it.x, it.title_top, it.title, fonts.bold, va="top")
        if it.body:
            add_text(it.x, it.body_top, it.body, fonts.regular, va="top")
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
                add_text(
                    it.x,
                    top + it.label_h / 2,
                    it.edge,
                    fonts.italic if it.italic else fonts.small,
                    va="center",
                    color="#222222",
                    bbox={"boxstyle": "round,pad=0.3", "facecolor": WHITE, "edgecolor": "none"},
                    gid=EDGE_GID,
                )
            else:
                edges.append([start, (it.x, it.top)])
        if it.marker:
            stub_top = it.top + it.box_h
            stub_bottom = stub_top + 0.9 * plan.fontsize
            dashed.append([(it.x, stub_top), (it.x, stub_bottom)])
            add_text(
                it.x,
                stub_bottom,
                [it.marker],
                fonts.small,
                va="top",
                color=MUTED_COLOR,
                gid=MARKER_GID,
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
    or *missing*. No two boxes or labels overlap. A drawing of more than 2,000 boxes is refused
    (a ValueError that suggests a ``max_depth`` that fits); Graphviz draws large trees.

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

    Raises
    ------
    ValueError
        If more than ``MAX_NODES`` (2,000) boxes would be drawn; the message names a
        ``max_depth`` that fits and the Graphviz renderers.
    """
    show = check_options(show, decimals, max_depth)
    if isinstance(fontsize, bool) or not isinstance(fontsize, (int, float)) or fontsize <= 0:
        raise ValueError(f"fontsize must be a positive number, got {fontsize!r}")
    import matplotlib.pyplot as plt  # here, so importing id3tree never touches matplotlib

    _check_size(root, max_depth)
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
        if plan.fontsize < MIN_READABLE_FONTSIZE:
            warnings.warn(
                f"the tree fits in this Axes only with {plan.fontsize:.2g} pt text, too small to "
                "read; give it a bigger Axes, draw fewer levels with max_depth=, or call plot() "
                "without ax to get a figure sized to the tree",
                UserWarning,
                stacklevel=3,
            )
    _draw(ax, plan)
    x_mid, y_mid = plan.width / 2, plan.height / 2
    ax.set_xlim(x_mid - view_w / 2, x_mid + view_w / 2)
    ax.set_ylim(y_mid + view_h / 2, y_mid - view_h / 2)  # y grows downwards, like the tree
    return ax
