"""The tree drawn with matplotlib, no Graphviz needed: a tidy layout for multiway trees.

The drawing is planned in points (1/72 inch) before anything is drawn:

1. choose what to draw: the levels asked for (or, by default, as many as fit), and for a split
   with more than ``max_branches`` branches its largest ones and one box for the rest
   (:func:`id3tree.render.style.kept_branches`);
2. measure every block of text (a node's title, the lines under it, its edge label, its "…"
   marker) in the font it will be drawn in, through matplotlib's own text layout; a node's own
   width is the widest of its box, the label of its edge and its marker;
3. place the boxes (:mod:`id3tree.render.layout`): a tidy tree, its wide levels wrapped into
   lines when the tree is wider than ``max_pixels`` allow, in the shape closest to a page;
4. size the figure to the plan (or fit the plan into a given Axes) and draw, one data unit being
   one point, so the measured boxes are the drawn boxes.

A figure is at most ``max_pixels`` (8,000) pixels a side at the figure's dpi. When the whole
tree does not fit, ``plot()`` draws the deepest top levels that do and says so under the
drawing; a ``max_depth`` that does not fit is refused with the depth that does.

No step recurses (trees can be thousands of levels deep). Two things keep a large tree quick:
text is measured once per *shape* (``samples = 1234`` and ``samples = 5678`` are one shape, see
:class:`_Metrics`), and each block of text is one artist added without the Axes recomputing its
data limits (the plan sets them).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from id3tree.base.language import speaking
from id3tree.model.node import Node
from id3tree.render.layout import MAX_BOXES, Layout, Slot, Spacing, arrange, fit_depth, fitted
from id3tree.render.style import (
    BORDER_COLOR,
    EDGE_COLOR,
    FIELDS,
    GROUP_FILL,
    MUTED_COLOR,
    SHAKY_COLOR,
    WHITE,
    Shown,
    boxes_per_level,
    check_options,
    class_list,
    class_palette,
    cut_text,
    edge_lines,
    fill_color,
    fitted_note,
    group_body,
    group_edge,
    group_title,
    node_body,
    node_title,
    readable_branches,
    refusal,
    stability_line,
    stability_marks,
    visible,
)

__all__ = ["MAX_PIXELS", "MIN_READABLE_FONTSIZE", "PIXEL_LIMIT", "plot_tree", "STRIP_PIXELS"]

NODE_GID, GROUP_GID = "id3tree-node", "id3tree-group"
EDGE_GID, MARKER_GID, NOTE_GID = "id3tree-edge-label", "id3tree-cut", "id3tree-note"
MIN_READABLE_FONTSIZE = 4.0  # points: a drawing squeezed below this says so
MAX_PIXELS = 8_000  # the longest side of a figure, in pixels at its dpi, unless max_pixels says
PIXEL_LIMIT = 60_000  # Agg draws at most 2**16 pixels a side
STRIP_PIXELS = 2_000  # a long strip wider than this (a slide) is wrapped, see layout.STRIP


@dataclass
class _Item(Slot):
    """One drawn box: what it says (from style) and, once laid out, where it goes (points)."""

    shown: Shown | None = None
    title: list[str] = field(default_factory=list)
    body: list[str] = field(default_factory=list)
    fill: str = WHITE
    edge: list[str] = field(default_factory=list)
    italic: bool = False
    marker: str | None = None
    shaky: bool = False  # a shaky split (tree.stability): a dashed outline
    title_top: float = 0.0
    body_top: float = 0.0


@dataclass
class _Plan:
    items: list[_Item]
    fonts: _Metrics
    layout: Layout
    width: float
    height: float
    note: list[str]  # under the drawing: why it shows fewer levels than the tree has

    @property
    def fontsize(self) -> float:
        return self.fonts.fontsize


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


def _items(
    root, classes, show, decimals, filled, class_colors, max_depth, max_branches, marks=None
):
    """The content of the drawing, from the same words and colours as the Graphviz renderer
    (``marks``: :func:`~id3tree.render.style.stability_marks`)."""
    palette = class_palette(classes, class_colors)
    items: list[_Item] = []
    for shown in visible(root, max_depth, max_branches):
        node, group = shown.node, shown.group
        if group is not None:
            item = _Item(
                shown=shown, title=group_title(group), body=group_body(group, classes, show),
                fill=GROUP_FILL if filled else WHITE, edge=[group_edge()], italic=True,
            )  # fmt: skip
        else:
            edge, italic = (
                ([], False)
                if shown.parent is None
                else edge_lines(shown.parent_node, shown.key, decimals)
            )
            item = _Item(
                shown=shown,
                title=node_title(node, decimals),
                body=node_body(node, classes, show, decimals),
                fill=fill_color(node, palette, len(classes)) if filled else WHITE,
                edge=edge,
                italic=italic,
                marker=cut_text(shown.hidden) if shown.hidden else None,
            )
            if marks and node.node_id in marks:
                item.body.append(stability_line(*marks[node.node_id]))
                item.shaky = marks[node.node_id][1]
        items.append(item)
        if shown.parent is not None:
            items[shown.parent].children.append(shown.index)
    return items


def _measure(items: list[_Item], m: _Metrics) -> Spacing:
    """Step 2 of the module docstring: every box's size, and the gaps, at ``m``'s font size."""
    fontsize = m.fontsize
    pad_x, pad_y = 0.8 * fontsize, 0.5 * fontsize
    line_gap = 0.2 * fontsize  # between a box's title and the lines under it
    label_pad = 0.3 * fontsize  # the white background around an edge label
    stub = 0.9 * fontsize  # the dashed line down to a "…" marker
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
    gap_y = max(3.0 * fontsize, max(it.marker_h for it in items) + 0.4 * fontsize)
    return Spacing(
        gap_x=1.2 * fontsize, gap_y=gap_y, band_gap=0.4 * fontsize, margin=0.8 * fontsize
    )


def _finish(items: list[_Item], m: _Metrics, layout: Layout, note: list[str]) -> _Plan:
    """Boxes' text positions from the layout, and room for the note under the drawing."""
    for it in items:
        it.title_top, it.body_top = it.top + 0.5 * m.fontsize, it.top + it.body_top
    width, height = layout.width, layout.height
    if note:
        note_w, note_h = m.size(note, m.small)
        width = max(width, note_w + 1.6 * m.fontsize)
        height += note_h + 0.8 * m.fontsize
    return _Plan(items, m, layout, width, height, note)


class _Drawing:
    """One request (a tree and the options of plot_tree): plans of it, and the one that fits."""

    def __init__(
        self, root, classes, show, decimals, filled, class_colors, marks, max_branches, fonts
    ):
        self.root, self.fonts, self.max_branches = root, fonts, max_branches
        self.note: list[str] = []  # said under every plan (why branches were grouped)
        self.content = (root, classes, show, decimals, filled, class_colors)
        self.marks = marks
        self.plans: dict = {}

    def items(self, max_depth: int | None) -> list[_Item]:
        return _items(*self.content, max_depth, self.max_branches, self.marks)

    def plan(self, max_depth: int | None, bound: float, note=()) -> _Plan:
        """The drawing of the top ``max_depth`` levels, wrapped to fit ``bound`` points a side if
        it must (and can); made once per depth."""
        if max_depth not in self.plans:
            note = [*self.note, *note]
            items = self.items(max_depth)
            spacing = _measure(items, self.fonts)
            reserve = 1.5 * self.fonts.fontsize * len(note)  # room for the note
            layout = fitted(
                items, spacing, max_width=bound, max_height=bound - reserve,
                strip_width=STRIP_PIXELS * self.fonts.scale,
            )  # fmt: skip
            self.plans[max_depth] = _finish(items, self.fonts, layout, list(note))
        return self.plans[max_depth]

    def fit(self, max_depth: int | None, bound: float, max_pixels: int) -> _Plan:
        """The plan of ``max_depth`` levels if it fits; for ``None``, the whole tree or else the
        deepest levels that fit, with a note; a ValueError for a depth that does not fit."""
        counts = boxes_per_level(self.root, self.max_branches, max_depth, MAX_BOXES)
        n_levels = 1 + max(node.depth for node in self.root.walk()) - self.root.depth

        def fits(depth: int | None, cut: bool) -> bool:
            plan = self.plan(depth, bound, _PLACEHOLDER if cut else ())
            return plan.width <= bound and plan.height <= bound

        depth, cut = fit_depth(max_depth, counts, n_levels, fits)
        if not cut:
            return self.plans[max_depth]
        too_many = sum(counts) > MAX_BOXES
        if max_depth is not None:
            n_boxes = None if too_many else sum(counts)
            raise ValueError(
                refusal(max_depth, n_boxes, MAX_BOXES, depth, max_pixels, self.max_branches)
            )
        note = fitted_note(depth, n_levels, max_pixels)
        # made with a placeholder note, or never made: the search tries no depth when only the
        # root's level can be drawn (a label of 999 characters below it)
        self.plans.pop(depth, None)
        return self.plan(depth, bound, note)


_PLACEHOLDER = ("", "")  # room for a two-line note while the depth is being chosen


def _connections(plan: _Plan, it: _Item, edges: list) -> None:
    """The lines from ``it`` down to its children (and their labels' places).

    In a plain tidy tree a node fans out to its children from the bottom of its row. In a
    wrapped drawing every node connects as in an org chart: a stem down to a horizontal bus over
    each line of its children, the buses of a wrapped node's later lines hanging from its trunk.
    """
    items, layout = plan.items, plan.layout
    if not layout.wrapped:
        bottom = layout.row_bottom[it.row]
        if it.top + it.box_h < bottom:  # a short box: down to the row's bottom first
            edges.append([(it.x, it.top + it.box_h), (it.x, bottom)])
        for c in it.children:
            child = items[c]
            edges.append([(it.x, bottom), (child.x, layout.label_top[child.row])])
        return
    bus_ys = [layout.label_top[items[line[0]].row] - 0.2 * plan.fontsize for line in it.lines]
    edges.append([(it.x, it.top + it.box_h), (it.x, bus_ys[0])])
    start = it.x if it.trunk is None else it.trunk
    if it.trunk is not None:
        edges.append([(it.trunk, bus_ys[0]), (it.trunk, bus_ys[-1])])
    for number, (line, bus_y) in enumerate(zip(it.lines, bus_ys)):
        xs = [items[c].x for c in line] + ([it.x] if number == 0 else [])
        edges.append([(min(xs + [start]), bus_y), (max(xs), bus_y)])
        for c in line:
            child = items[c]
            edges.append([(child.x, bus_y), (child.x, layout.label_top[child.row])])


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

    fonts, layout = plan.fonts, plan.layout
    rounding = f"round,pad=0,rounding_size={0.6 * plan.fontsize:.3g}"
    unused = TransformedPatchPath(ax.patch)
    words = dict(parse_math=False, zorder=3, clip_on=False, clip_path=unused)
    edges, dashed = [], []

    def add_text(x, y, lines, font, ha="center", **options):
        text = Text(x, y, "\n".join(lines), fontproperties=font, ha=ha, **words, **options)
        ax.add_artist(text)

    for it in plan.items:
        grouped = it.shown.group is not None
        ax.add_artist(FancyBboxPatch(
            (it.x - it.box_w / 2, it.top), it.box_w, it.box_h, boxstyle=rounding,
            facecolor=it.fill, edgecolor=SHAKY_COLOR if it.shaky else BORDER_COLOR,
            linewidth=1.6 if it.shaky else 0.8, linestyle="--" if grouped or it.shaky else "-",
            zorder=2, gid=GROUP_GID if grouped else NODE_GID,
        ))  # fmt: skip
        add_text(it.x, it.title_top, it.title, fonts.bold, va="top")
        if it.body:
            add_text(it.x, it.body_top, it.body, fonts.regular, va="top")
        if it.children:
            _connections(plan, it, edges)
        if it.shown.parent is not None:
            top = layout.label_top[it.row]
            if it.edge:
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
                edges.append([(it.x, top), (it.x, it.top)])
        if it.marker:
            stub_top = it.top + it.box_h
            stub_bottom = stub_top + 0.9 * plan.fontsize
            dashed.append([(it.x, stub_top), (it.x, stub_bottom)])
            add_text(
                it.x, stub_bottom, [it.marker], fonts.small, va="top", color=MUTED_COLOR,
                gid=MARKER_GID,
            )  # fmt: skip
    if plan.note:
        margin = 0.8 * plan.fontsize
        add_text(
            margin, layout.height, plan.note, fonts.small, ha="left", va="top", color=MUTED_COLOR,
            gid=NOTE_GID,
        )  # fmt: skip
    ax.add_collection(LineCollection(edges, colors=EDGE_COLOR, linewidths=0.9, zorder=1))
    ax.add_collection(
        LineCollection(dashed, colors=MUTED_COLOR, linewidths=0.9, linestyles="--", zorder=1)
    )
    ax.set_axis_off()


def _into_axes(ax, drawing: _Drawing, max_depth, fontname) -> tuple[_Plan, float, float]:
    """A plan that fills ``ax``: fonts shrink until the tree fits; when they would shrink past
    readable, the tree is wrapped to the shape of the Axes first if that gives larger text."""
    dpi = ax.figure.dpi
    box = ax.get_window_extent()
    view_w, view_h = box.width * 72 / dpi, box.height * 72 / dpi
    counts = boxes_per_level(drawing.root, drawing.max_branches, max_depth, MAX_BOXES)
    if sum(counts) > MAX_BOXES:
        depth = max(0, len(counts) - 2)
        message = refusal(len(counts) - 1, None, MAX_BOXES, depth, None, drawing.max_branches)
        raise ValueError(message)
    fonts, fontsize = drawing.fonts, drawing.fonts.fontsize
    items = drawing.items(max_depth)
    spacing = _measure(items, fonts)
    layout = arrange(items, spacing)
    scale = min(view_w / layout.width, view_h / layout.height)
    if scale * fontsize < MIN_READABLE_FONTSIZE:
        wrapped = fitted(
            items, spacing, max_width=view_w, max_height=view_h, aspect=view_w / view_h
        )
        if min(view_w / wrapped.width, view_h / wrapped.height) <= scale:
            wrapped = arrange(items, spacing)  # wrapping gives no larger text
        layout = wrapped
    plan = _finish(items, fonts, layout, [])
    for _ in range(6):  # text widths scale with the font size, give or take hinting
        scale = min(view_w / plan.width, view_h / plan.height)
        if scale >= 1:
            break
        fonts = _Metrics(fontname, plan.fontsize * scale * 0.98, dpi)
        wrap = layout.wrap and layout.wrap * fonts.fontsize / fontsize
        layout = arrange(items, _measure(items, fonts), wrap)
        plan = _finish(items, fonts, layout, [])
    if plan.fontsize < MIN_READABLE_FONTSIZE:
        warnings.warn(
            f"the tree fits in this Axes only with {plan.fontsize:.2g} pt text, too small to "
            "read; give it a bigger Axes, draw fewer levels with max_depth=, or call plot() "
            "without ax to get a figure sized to the tree",
            UserWarning,
            stacklevel=4,
        )
    return plan, view_w, view_h


def plot_tree(
    root: Node, *, classes: Sequence | None = None, ax=None, show: Iterable[str] = FIELDS,
    decimals: int = 3, filled: bool = True, class_colors: Mapping | None = None,
    max_depth: int | None = None, max_branches: int | str | None = "auto",
    max_pixels: int = MAX_PIXELS, fontname: str | None = None, fontsize: float = 9.0,
    stability=None, language: str | None = None,
):  # fmt: skip
    """Draw a (multiway) tree with matplotlib; no Graphviz program needed.

    Each node is a box with the split (``Outlook``, ``petal_length ≤ 2.45``) or the predicted
    class, then the fields in ``show``; each edge carries its category value, ``≤ t`` / ``> t``,
    or *missing*. No two boxes or labels overlap. A large tree is made to fit a figure of at
    most ``max_pixels`` a side: the smallest branches of a many-valued split share one dashed
    box, wide levels wrap into lines, and if the whole tree still does not fit, the top levels
    that do are drawn with a note saying so. See :doc:`/large_trees`.

    Parameters
    ----------
    root : Node
        The node to draw from (a fitted learner's ``root_``, or any subtree).
    classes : sequence, optional
        The classes in the order their counts and colours are listed; default: the order of
        ``root.class_counts``.
    ax : matplotlib Axes, optional
        Where to draw. The tree is centred in it, one data unit per point, and the fonts shrink
        if the tree would not fit (a tree that would need unreadably small text is wrapped to
        the Axes' shape first). Default: a new figure sized to the tree.
    show, decimals, filled, class_colors
        As in :func:`id3tree.render.dot.tree_to_dot`: the fields under each title, digits of
        entropy and gain, colour by majority class and purity, colours per class.
    max_depth : int, optional
        How many levels to draw below ``root`` (a cut subtree shows as "… N more nodes").
        Default: the whole tree if it fits in ``max_pixels``, else the deepest levels that do
        (a note under the drawing says how many of how many). A depth that does not fit is
        refused with a ValueError that names one that does.
    max_branches : int, None or "auto", default="auto"
        A split with more branches draws its ``max_branches - 1`` largest (by training samples;
        ties in branch order) and one dashed box, "+ 7 more values", for the others together,
        with their samples and class counts added up. None draws every branch. ``"auto"``: 10,
        or fewer (down to 4) when the ``max_depth`` levels would otherwise draw more than 200
        boxes (Adult's top 5 levels: 661 boxes with 10, 150 with 5), so the drawing stays
        readable on a page and renders in seconds; a note under it says so.
    max_pixels : int, default=8000
        The longest side of the figure, in pixels at the figure's dpi
        (``matplotlib.rcParams["figure.dpi"]``); at most 60,000. Ignored with ``ax``.
    fontname : str, optional
        Font family (a comma-separated list is tried in order); default: matplotlib's.
    fontsize : float, default=9.0
        Points, for the node boxes; edge labels are a little smaller.
    stability : Stability, optional
        As in :func:`id3tree.render.dot.tree_to_dot`: the result of ``tree.stability(X, y)``;
        each split it covers gets the share of resamples where its feature wins again, a shaky
        split a dashed vermilion outline.
    language : str, optional
        As in :func:`id3tree.render.dot.tree_to_dot`: the language of the drawing's words and
        decimal mark; default: the language around the call (a fitted tree's ``plot`` draws in
        the tree's ``language``).

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    ValueError
        If ``max_depth`` levels do not fit in ``max_pixels``, or hold more than ``MAX_BOXES``
        (2,000) boxes; the message names a ``max_depth`` that fits and the other ways out.
    """
    if language is not None:
        options = {k: v for k, v in locals().items() if k not in ("root", "language")}
        with speaking(language):
            return plot_tree(root, **options)
    auto = isinstance(max_branches, str) and max_branches == "auto"
    show = check_options(show, decimals, max_depth, None if auto else max_branches, max_pixels)
    if max_pixels > PIXEL_LIMIT:
        raise ValueError(
            f"max_pixels must be at most {PIXEL_LIMIT:,} (matplotlib cannot save larger "
            f"pictures), got {max_pixels!r}"
        )
    if isinstance(fontsize, bool) or not isinstance(fontsize, (int, float)) or fontsize <= 0:
        raise ValueError(f"fontsize must be a positive number, got {fontsize!r}")
    import matplotlib.pyplot as plt  # here, so importing id3tree never touches matplotlib

    classes = class_list(root, classes)
    dpi = float(plt.rcParams["figure.dpi"]) if ax is None else ax.figure.dpi
    note: list[str] = []
    if auto:
        max_branches, note = readable_branches(root, max_depth)
    marks = stability_marks(stability)
    request = (root, classes, show, decimals, filled, class_colors, marks, max_branches)
    drawing = _Drawing(*request, _Metrics(fontname, fontsize, dpi))
    drawing.note = note
    if ax is None:
        plan = drawing.fit(max_depth, max_pixels * 72 / dpi, max_pixels)
        # a single box larger than max_pixels (a huge font) is drawn at a lower dpi
        dpi = min(dpi, max_pixels * 72 / max(plan.width, plan.height))
        fig = plt.figure(figsize=(plan.width / 72, plan.height / 72), dpi=dpi)
        ax = fig.add_axes((0, 0, 1, 1))
        view_w, view_h = plan.width, plan.height
    else:
        plan, view_w, view_h = _into_axes(ax, drawing, max_depth, fontname)
    _draw(ax, plan)
    x_mid, y_mid = plan.width / 2, plan.height / 2
    ax.set_xlim(x_mid - view_w / 2, x_mid + view_w / 2)
    ax.set_ylim(y_mid + view_h / 2, y_mid - view_h / 2)  # y grows downwards, like the tree
    return ax
