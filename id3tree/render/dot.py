"""The tree in Graphviz's DOT language: a pure string builder, and a ``graphviz`` wrapper for it.

Labels are Graphviz HTML-like labels, so every piece of user text (feature names, category
values, class names) is XML-escaped once, in :func:`_html`, and reaches the drawing unchanged:
quotes, backslashes, braces, ``|``, ``<``, ``>``, ``&`` and non-ASCII text alike. A newline in a
value becomes a line break.

Large trees: as in the matplotlib drawing, the smallest branches of a split with more than
``max_branches`` share one dashed box. With ``max_pixels`` (the default of :func:`tree_to_graphviz`
and of pictures written to files) the drawing is bounded: its size is estimated from the
tidy layout of :mod:`id3tree.render.layout`, with text sizes estimated from the text's length in
Graphviz's font, and the whole tree or else the deepest levels that fit are drawn (a note under
the drawing says which); the graph's ``size`` makes Graphviz shrink whatever the estimate
missed. Graphviz lays out whole levels itself, so its drawings are not wrapped: a tree whose
levels are too wide for a page draws fewer levels than matplotlib's wrapped one.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from id3tree.base.language import current, speaking
from id3tree.model.node import Node
from id3tree.render.layout import MAX_BOXES, Slot, Spacing, arrange, fit_depth
from id3tree.render.style import (
    BORDER_COLOR,
    EDGE_COLOR,
    GROUP_FILL,
    MAX_BRANCHES,
    MUTED_COLOR,
    SHAKY_COLOR,
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
    group_values,
    node_body,
    node_title,
    refusal,
    stability_line,
    stability_marks,
    visible,
)

__all__ = [
    "DEFAULT_FONT", "DOT_SPACING", "GRAPHVIZ_DPI", "MAX_PIXELS", "NO_DOT", "RANKDIRS",
    "tree_to_dot", "tree_to_graphviz",
]  # fmt: skip

RANKDIRS = ("TB", "LR", "BT", "RL")
DEFAULT_FONT = "Helvetica,Arial,sans-serif"
GRAPHVIZ_DPI = 96  # Graphviz's pixels per inch in PNG output: max_pixels / 96 is the size in inches
MAX_PIXELS = 8_000  # the default bound of to_graphviz() and of pictures written to files


_ENTITIES = {
    "&": "&amp;",
    "<": "&lt;",
    ">": "&gt;",
    '"': "&quot;",
    "\\": "\\\\",  # doubled: alone, Graphviz would expand \N, \G, \E ... (node name, graph name)
    "\t": "\\\\t",  # Graphviz drops tabs: shown as an escape, like other control characters
}


def _html(text: str) -> str:
    """Text as it must appear inside an HTML-like label: exactly as given, never expanded."""
    return "".join(_ENTITIES.get(ch, ch) for ch in text)


def _element(tag: str, text: str) -> str:
    """``<b>text</b>``; an empty element is a syntax error to Graphviz, so empty text is a space."""
    return f"<{tag}>{_html(text) or '&#160;'}</{tag}>"


def _label(lines: Iterable[str], *, bold: Iterable[str] = (), italic: bool = False) -> str:
    """An HTML-like label: the ``bold`` lines, then ``lines``, one per row."""
    rows = [_element("b", line) for line in bold]
    rows += [_element("i", line) if italic else _html(line) for line in lines]
    return "<" + "<br/>".join(rows) + ">"


def _attrs(attributes: Mapping[str, str]) -> str:
    """``[name=value ...]``; values are plain words, numbers, quoted strings or HTML labels."""
    return "[" + " ".join(f"{name}={value}" for name, value in attributes.items()) + "]"


def _quoted(text: str) -> str:
    return f'"{text}"'


# ---------------------------------------------------------------------------------------------
# the plan of a bounded drawing (max_pixels), from text sizes estimated in Graphviz's units
# ---------------------------------------------------------------------------------------------
CHAR_W, BOLD_W, LABEL_CHAR_W = 5.6, 6.1, 5.0  # points per character: Helvetica 11, bold, 10
LINE_H, LABEL_LINE_H = 13.2, 12.0  # points per line of a box, of an edge label
PAD_W, PAD_H = 2 * 10.08, 2 * 5.04  # the node margin="0.14,0.07" (inches), both sides
NODESEP, RANKSEP = 21.6, 32.4  # graph nodesep=0.3 and ranksep=0.45 (inches), in points
DOT_SPACING = Spacing(gap_x=NODESEP, gap_y=RANKSEP, band_gap=RANKSEP, margin=4.0)


def _estimated_slots(boxes: list[_Box], across: bool) -> list[Slot]:
    """Slots sized as Graphviz will draw the boxes, roughly: a character is about half an em wide
    in Helvetica (``across``: the tree grows left to right, so widths and heights trade places).
    On the data sets shipped, Graphviz's drawings came out 0.8 to 1.0 times as wide as these
    estimates, and 0.5 times for deep trees, which Graphviz packs closer than a tidy tree."""
    slots = [Slot() for _ in boxes]
    for slot, box in zip(slots, boxes):
        title, body, edge, marker = box.title, box.body, box.edge, box.marker
        w = max([BOLD_W * len(t) for t in title] + [CHAR_W * len(t) for t in body]) + PAD_W
        h = LINE_H * (len(title) + len(body)) + PAD_H
        label_w = max((LABEL_CHAR_W * len(t) for t in edge), default=0.0)
        label_h = LABEL_LINE_H * len(edge)
        marker_w = LABEL_CHAR_W * len(marker) if marker else 0.0
        marker_h = RANKSEP + LINE_H if marker else 0.0
        if across:
            w, h, label_w, label_h, marker_w, marker_h = h, w, label_h, label_w, LINE_H, marker_w
        slot.box_w, slot.box_h = max(w, 54.0), max(h, 36.0)  # Graphviz's smallest node
        slot.label_w, slot.label_h, slot.marker_w, slot.marker_h = (
            label_w, label_h, marker_w, marker_h,
        )  # fmt: skip
        if box.shown.parent is not None:
            slots[box.shown.parent].children.append(box.shown.index)
    return slots


def _fit(root, boxes_of, max_depth, max_branches, max_pixels, across):
    """The max_depth to draw within ``max_pixels`` and the note saying so (see
    :func:`id3tree.render.layout.fit_depth`); a ValueError for a depth that does not fit."""
    bound = max_pixels * 72 / GRAPHVIZ_DPI

    def fits(depth, cut):
        layout = arrange(_estimated_slots(boxes_of(depth), across), DOT_SPACING)
        note = 2 * LINE_H if cut else 0.0
        return max(layout.width, layout.height + note) <= bound

    counts = boxes_per_level(root, max_branches, max_depth, MAX_BOXES)
    n_levels = 1 + max(node.depth for node in root.walk()) - root.depth
    depth, cut = fit_depth(max_depth, counts, n_levels, fits)
    too_many = sum(counts) > MAX_BOXES
    if cut and max_depth is not None:
        n_boxes = None if too_many else sum(counts)
        how = "as Graphviz draws them (it does not wrap wide levels; plot() does)"
        message = refusal(max_depth, n_boxes, MAX_BOXES, depth, max_pixels, max_branches, how)
        raise ValueError(message)
    if not cut:
        return depth, []
    return depth, fitted_note(depth, n_levels, max_pixels)


# ---------------------------------------------------------------------------------------------
# the DOT text
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Box:
    """The words of one box, its edge's label (in italics or not) and its cut marker."""

    shown: Shown
    title: list[str]
    body: list[str]
    edge: list[str]
    italic: bool
    marker: str | None


def _boxes(root, classes, show, decimals, max_depth, max_branches, marks) -> list[_Box]:
    """Every box of the drawing, in visiting order (``marks``: :func:`stability_marks`)."""
    boxes = []
    for shown in visible(root, max_depth, max_branches):
        if shown.group is not None:
            title, body = group_title(shown.group), group_body(shown.group, classes, show)
            edge, italic = [group_edge()], True
        else:
            title = node_title(shown.node, decimals)
            body = node_body(shown.node, classes, show, decimals)
            if shown.node.node_id in marks:
                body.append(stability_line(*marks[shown.node.node_id]))
            edge, italic = (
                ([], False)
                if shown.parent is None
                else edge_lines(shown.parent_node, shown.key, decimals)
            )
        marker = cut_text(shown.hidden) if shown.hidden else None
        boxes.append(_Box(shown, title, body, edge, italic, marker))
    return boxes


def _dot_lines(
    root: Node,
    *,
    classes: Sequence | None = None,
    show: Iterable[str] = ("samples", "counts", "entropy", "gain"),
    decimals: int = 3,
    filled: bool = True,
    class_colors: Mapping | None = None,
    rankdir: str = "TB",
    max_depth: int | None = None,
    max_branches: int | None = MAX_BRANCHES,
    max_pixels: int | None = None,
    fontname: str | None = None,
    stability=None,
) -> list[str]:
    """The body of the DOT graph, one statement per line (shared by both public functions)."""
    show = check_options(show, decimals, max_depth, max_branches, max_pixels)
    if rankdir not in RANKDIRS:
        raise ValueError(f"rankdir must be one of {RANKDIRS}, got {rankdir!r}")
    fontname = DEFAULT_FONT if fontname is None else str(fontname)
    if any(ch in fontname for ch in '"\\\n'):
        raise ValueError(f"fontname must not hold quotes, backslashes or newlines: {fontname!r}")
    classes = class_list(root, classes)
    palette = class_palette(classes, class_colors)
    font = _quoted(fontname)
    marks = stability_marks(stability)

    def boxes_of(depth):
        return _boxes(root, classes, show, decimals, depth, max_branches, marks)

    note: list[str] = []
    graph = {"rankdir": rankdir, "nodesep": "0.3", "ranksep": "0.45"}
    if max_pixels is not None:
        across = rankdir in ("LR", "RL")
        max_depth, note = _fit(root, boxes_of, max_depth, max_branches, max_pixels, across)
        inches = f"{max_pixels / GRAPHVIZ_DPI:.6g}"
        graph["size"] = _quoted(f"{inches},{inches}")
        if note:
            graph.update(
                label="<" + "".join(f'{_html(line)}<br align="left"/>' for line in note) + ">",
                labelloc="b", labeljust="l", fontname=font, fontsize="10",
                fontcolor=_quoted(MUTED_COLOR),
            )  # fmt: skip
    boxes = {
        "shape": "box", "style": _quoted("rounded,filled" if filled else "rounded"),
        "color": _quoted(BORDER_COLOR), "fillcolor": _quoted("#ffffff"), "fontname": font,
        "fontsize": "11", "margin": _quoted("0.14,0.07"),
    }  # fmt: skip
    edges = {"color": _quoted(EDGE_COLOR), "fontname": font, "fontsize": "10", "arrowsize": "0.6"}
    lines = ["\tgraph " + _attrs(graph), "\tnode " + _attrs(boxes), "\tedge " + _attrs(edges)]
    names: list[str] = []
    for box in boxes_of(max_depth):  # iterative: trees can be thousands of levels deep
        shown = box.shown
        if shown.group is not None:
            lines.append(_group_line(box, filled, names))
        else:
            node = shown.node  # DOT names are the node ids of the trace
            names.append(str(node.node_id))
            attributes = {
                "label": _label(box.body, bold=box.title),
                "tooltip": _quoted(_html(current().line("node {id}", id=str(node.node_id)))),
            }
            if filled:
                attributes["fillcolor"] = _quoted(fill_color(node, palette, len(classes)))
            if marks.get(node.node_id, (0, False))[1]:  # a shaky split: a dashed outline
                attributes["style"] = _quoted(
                    "rounded,dashed,filled" if filled else "rounded,dashed"
                )
                attributes.update(color=_quoted(SHAKY_COLOR), penwidth="2")
            lines.append(f"\t{names[-1]} {_attrs(attributes)}")
        if shown.parent is not None:
            label = _label(box.edge, italic=box.italic)
            lines.append(f"\t{names[shown.parent]} -> {names[-1]} {_attrs({'label': label})}")
        if box.marker:
            i = names[-1]
            marker = {
                "label": _label([box.marker]), "shape": "plaintext", "style": _quoted(""),
                "fontcolor": _quoted(MUTED_COLOR),
            }  # fmt: skip
            lines.append(f"\tm{i} {_attrs(marker)}")
            lines.append(f"\t{i} -> m{i} [style=dashed arrowhead=none]")
    return [line + "\n" for line in lines]


def _group_line(box: _Box, filled: bool, names: list[str]) -> str:
    """The statement of a box of grouped branches, named ``g`` and its parent's node id; its
    tooltip lists every grouped value."""
    names.append(f"g{box.shown.parent_node.node_id}")
    attributes = {
        "label": _label(box.body, bold=box.title),
        "tooltip": _quoted(_html(group_values(box.shown.group))),
        "style": _quoted("rounded,dashed,filled" if filled else "rounded,dashed"),
    }
    if filled:
        attributes["fillcolor"] = _quoted(GROUP_FILL)
    return f"\t{names[-1]} {_attrs(attributes)}"


def tree_to_dot(
    root: Node, *, classes: Sequence | None = None, language: str | None = None, **options
) -> str:
    """The tree as a Graphviz DOT graph; pure string building, no Graphviz install needed.

    Parameters
    ----------
    root : Node
        The node to draw from (a fitted learner's ``root_``, or any subtree).
    classes : sequence, optional
        The classes in the order their counts and colours are listed; default: the order of
        ``root.class_counts``.
    show : iterable of str, default=("samples", "counts", "entropy", "gain")
        The lines under each node's title (the feature and threshold of a split, the predicted
        class of a leaf). Leaves have no gain.
    decimals : int, default=3
        Digits after the point for entropy and gain; thresholds are rounded to as many (the
        model keeps the exact value).
    filled : bool, default=True
        Fill each node with its majority class's colour, stronger the purer the node
        (``1 - entropy / log2 K`` of the way from white).
    class_colors : mapping, optional
        Class -> colour (``"#rrggbb"`` or any matplotlib colour name) instead of the palette.
    rankdir : {"TB", "LR", "BT", "RL"}, default="TB"
        The direction the tree grows in.
    max_depth : int, optional
        Draw only the nodes at most this many levels below ``root``; a node whose subtree is
        left out gets a dashed "… N more nodes" marker. Default: every level, or with
        ``max_pixels`` the deepest levels that fit (all of them if they do).
    max_branches : int or None, default=10
        A split with more branches draws its ``max_branches - 1`` largest (by training samples;
        ties in branch order) and one dashed box, "+ 7 more values", for the others together,
        with their samples and class counts added up; its tooltip lists the values. None draws
        every branch.
    max_pixels : int, optional
        Bound the drawing to this many pixels a side (at Graphviz's 96 dpi): the graph gets
        ``size`` in inches (Graphviz shrinks a larger drawing to it), a ``max_depth`` that does
        not fit, by an estimate of the drawing's size, is a ValueError naming one that does,
        and without ``max_depth`` the deepest levels that fit are drawn with a note saying so.
        Default None: no bound (the default of :func:`tree_to_graphviz` is 8,000).
    fontname : str, optional
        Graphviz font name; default ``"Helvetica,Arial,sans-serif"``.
    stability : Stability, optional
        The result of ``tree.stability(X, y)``: each split it covers gets a line with the share
        of resamples where its feature wins again, and a shaky split a dashed outline in
        vermilion and the word "shaky". Default None: no such line.
    language : str, optional
        The language of the drawing's words (``"es"``, ``"de"``; see
        :data:`~id3tree.base.language.LANGUAGES`), its numbers with the language's decimal
        mark. Default: the language around the call (English; a fitted tree's ``to_dot``
        draws in the tree's ``language``).

    Returns
    -------
    str
        The DOT source; ``dot -Tsvg`` renders it. Edges carry the category value, ``≤ t`` or
        ``> t`` for numeric splits, *missing* for the branch of missing values, and *others* for
        the box of grouped branches.

    Examples
    --------
    >>> from id3tree import ID3Classifier
    >>> from id3tree.datasets import load_play_tennis
    >>> root = ID3Classifier().fit(*load_play_tennis(return_X_y=True)).root_
    >>> print(tree_to_dot(root, show=("samples",), filled=False, max_depth=0))
    digraph Tree {
        graph [rankdir=TB nodesep=0.3 ranksep=0.45]
        node [shape=box style="rounded" color="#555555" fillcolor="#ffffff" fontname="Helvetica,Arial,sans-serif" fontsize=11 margin="0.14,0.07"]
        edge [color="#666666" fontname="Helvetica,Arial,sans-serif" fontsize=10 arrowsize=0.6]
        0 [label=<<b>Outlook</b><br/>samples = 14> tooltip="node 0"]
        m0 [label=<… 7 more nodes> shape=plaintext style="" fontcolor="#777777"]
        0 -> m0 [style=dashed arrowhead=none]
    }
    <BLANKLINE>
    """
    with speaking(language):
        body = _dot_lines(root, classes=classes, **options)
    return "digraph Tree {\n" + "".join(body) + "}\n"


def tree_to_graphviz(
    root: Node, *, classes: Sequence | None = None, max_pixels: int | None = MAX_PIXELS,
    language: str | None = None, **options,
):  # fmt: skip
    """The tree as a ``graphviz.Digraph`` (shown inline in Jupyter); options as in
    :func:`tree_to_dot` (with the same options, its text is the ``.source``), except that the
    drawing is bounded by default: ``max_pixels=8000``. Rendering it needs Graphviz's ``dot``;
    without it, Jupyter shows a note saying so instead of an error."""
    with speaking(language):
        body = _dot_lines(root, classes=classes, max_pixels=max_pixels, **options)
    return _tree_digraph()("Tree", body=body)


NO_DOT = (
    "Graphviz's dot program is not installed, so this tree cannot be drawn with Graphviz here. "
    "model.plot() draws it with matplotlib; model.to_dot() gives the DOT text."
)


@functools.cache
def _tree_digraph():
    """A ``graphviz.Digraph`` that explains itself in Jupyter when ``dot`` is missing."""
    import graphviz  # only here: building DOT text needs no Graphviz at all

    class TreeDigraph(graphviz.Digraph):
        def _repr_mimebundle_(self, include=None, exclude=None, **kwargs):
            try:
                bundle = super()._repr_mimebundle_(include, exclude, **kwargs)
            except graphviz.ExecutableNotFound:
                return {"text/plain": NO_DOT}
            # the text beside the picture, the same every run (not the object's address)
            return {
                "text/plain": "a Graphviz drawing of the tree (its DOT text: .source)",
                **bundle,
            }

    return TreeDigraph
