"""The tree as SVG, laid out in pure Python: no Graphviz program, no matplotlib.

Used by the step-through (the tree grown so far, the current node highlighted) and by the
interactive page (nodes you can click). The boxes say what the other drawings say (see
:mod:`id3tree.render.style`); every node is a ``<g class="node" data-node="ID">`` and every
edge a ``<g class="edge" data-node="CHILD_ID">``, so a page can find them. Text is escaped.

Layout: leaves take consecutive columns in reading order and a parent sits above the middle of
its children, so a tree reads left to right as the text outline reads top to bottom.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from html import escape

from id3tree.model.node import Node
from id3tree.render.style import (
    BORDER_COLOR,
    EDGE_COLOR,
    check_options,
    class_list,
    class_palette,
    edge_lines,
    fill_color,
    node_body,
    node_title,
    visible,
)

__all__ = [
    "CHAR_WIDTH", "FONT_SIZE", "H_GAP", "HIGHLIGHT", "LINE_HEIGHT", "PAD", "tree_to_svg", "V_GAP",
]  # fmt: skip

CHAR_WIDTH = 7.0  # px per character at FONT_SIZE, a generous average for sans-serif
FONT_SIZE = 12
LINE_HEIGHT = 15
PAD = 6
H_GAP = 16
V_GAP = 44
HIGHLIGHT = "#d62728"


def _box(
    node: Node, classes: list, show, decimals: int
) -> tuple[list[str], list[str], float, float]:
    title = node_title(node)
    body = node_body(node, classes, show, decimals)
    longest = max(len(line) for line in title + body)
    width = longest * CHAR_WIDTH + 2 * PAD
    height = (len(title) + len(body)) * LINE_HEIGHT + 2 * PAD
    return title, body, width, height


def tree_to_svg(
    root: Node, *, classes: Sequence | None = None, show=("samples", "counts", "entropy"),
    decimals: int = 3, filled: bool = True, shown: Collection[int] | None = None,
    highlight: int | None = None, max_depth: int | None = None, node_ids: bool = True,
) -> str:  # fmt: skip
    """The tree as an SVG document (a string).

    Parameters
    ----------
    root : Node
    classes : sequence, optional
        Class order for the counts (default: as the root lists them).
    show : iterable of str
        Lines under each title: any of ``"samples"``, ``"counts"``, ``"entropy"``, ``"gain"``.
    decimals : int
        Decimals of entropies and gains.
    filled : bool
        Colour each box by its majority class, paler when less pure.
    shown : collection of int, optional
        Only these node ids are drawn (the tree grown so far); the layout stays that of the
        whole tree, so nodes do not move from one step to the next.
    highlight : int, optional
        The node id drawn with a thick red border.
    max_depth : int, optional
        Draw only this many levels.
    node_ids : bool
        Put ``#id`` before each title.
    """
    show = check_options(show, decimals, max_depth)
    classes = class_list(root, classes)
    palette = class_palette(classes)
    items = list(visible(root, max_depth))
    boxes = [_box(s.node, classes, show, decimals) for s in items]
    if node_ids:
        boxes = [
            ([f"#{s.node.node_id} {title[0]}", *title[1:]], body, width + 3.5 * CHAR_WIDTH, h)
            for s, (title, body, width, h) in zip(items, boxes)
        ]
    x, y_top, total_width, total_height = _layout(items, boxes)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="id3tree" width="{total_width:.0f}" '
        f'height="{total_height:.0f}" viewBox="0 0 {total_width:.0f} {total_height:.0f}" '
        f'font-family="sans-serif" font-size="{FONT_SIZE}">'
    ]
    drawn = [s for s in items if shown is None or s.node.node_id in shown]
    for s in drawn:  # edges first, under the boxes
        if s.parent is not None:
            top = y_top[items[s.parent].level] + boxes[s.parent][3]
            out.append(_edge(s, (x[s.parent], top), (x[s.index], y_top[s.level])))
    for s in drawn:
        fill = fill_color(s.node, palette, len(classes)) if filled else "#ffffff"
        current = highlight is not None and s.node.node_id == highlight
        out.extend(_node(s, boxes[s.index], x[s.index], y_top[s.level], fill, current))
    out.append("</svg>")
    return "\n".join(out)


def _layout(items: list, boxes: list) -> tuple[list[float], dict, float, float]:
    """Where each box goes: its centre's x (shifted so the drawing starts 10 px in), the top
    of each level, and the drawing's width and height."""
    children = [[] for _ in items]
    for s in items:
        if s.parent is not None:
            children[s.parent].append(s.index)
    # x: each subtree gets the width it needs, children side by side, a parent centred over them
    width_of = [b[2] for b in boxes]
    order = _postorder(children)
    sub = [0.0] * len(items)
    for i in order:
        inner = sum(sub[c] for c in children[i]) + H_GAP * (len(children[i]) - 1)
        sub[i] = max(width_of[i], inner)
    left_of = [0.0] * len(items)
    for i in reversed(order):  # parents before children
        inner = sum(sub[c] for c in children[i]) + H_GAP * (len(children[i]) - 1)
        start = left_of[i] + (sub[i] - inner) / 2
        for c in children[i]:
            left_of[c] = start
            start += sub[c] + H_GAP
    x = [0.0] * len(items)
    for i in order:
        if children[i]:
            middle = (x[children[i][0]] + x[children[i][-1]]) / 2
            half = width_of[i] / 2
            x[i] = min(max(middle, left_of[i] + half), left_of[i] + sub[i] - half)
        else:
            x[i] = left_of[i] + sub[i] / 2
    level_height = {}
    for s, b in zip(items, boxes):
        level_height[s.level] = max(level_height.get(s.level, 0), b[3])
    y_top, top = {}, 10.0
    for level in sorted(level_height):
        y_top[level] = top
        top += level_height[level] + V_GAP
    left = min(x[i] - width_of[i] / 2 for i in range(len(items)))
    shift = 10 - left
    total_width = max(x[i] + width_of[i] / 2 for i in range(len(items))) + shift + 10
    return [v + shift for v in x], y_top, total_width, top - V_GAP + 10


def _edge(s, start: tuple[float, float], end: tuple[float, float]) -> str:
    """The edge from the bottom of the parent's box (``start``) to the top of ``s``'s box."""
    (x1, y1), (x2, y2) = start, end
    label, italic = edge_lines(s.parent_node, s.key)
    style = ' font-style="italic"' if italic else ""
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    return (
        f'<g class="edge" data-node="{s.node.node_id}"><line x1="{x1:.1f}" y1="{y1:.1f}" '
        f'x2="{x2:.1f}" y2="{y2:.1f}" stroke="{EDGE_COLOR}"/><text x="{mx:.1f}" y="{my + 4:.1f}" '
        f'text-anchor="middle" fill="#333" stroke="white" stroke-width="3" '
        f'paint-order="stroke"{style}>{escape(" ".join(label))}</text></g>'
    )


def _node(s, box: tuple, x: float, top: float, fill: str, current: bool) -> list[str]:
    """The box of ``s`` centred at ``x``: its rectangle, title and lines, and the "… more" of a
    subtree left out."""
    title, body, w, h = box
    nid = s.node.node_id
    bx, by = x - w / 2, top
    stroke, stroke_width = (HIGHLIGHT, 3) if current else (BORDER_COLOR, 1)
    cls = "node current" if current else "node"
    out = [
        f'<g class="{cls}" data-node="{nid}" tabindex="0"><title>node {nid}</title>'
        f'<rect x="{bx:.1f}" y="{by:.1f}" width="{w:.1f}" height="{h:.1f}" rx="4" '
        f'fill="{fill}" stroke="{stroke}" stroke-width="{stroke_width}"/>'
    ]
    ty = by + PAD + FONT_SIZE
    for line, bold in [(line, True) for line in title] + [(line, False) for line in body]:
        weight = ' font-weight="bold"' if bold else ""
        out.append(
            f'<text x="{bx + w / 2:.1f}" y="{ty:.1f}" text-anchor="middle"{weight}>'
            f"{escape(line)}</text>"
        )
        ty += LINE_HEIGHT
    if s.hidden:
        out.append(
            f'<text x="{bx + w / 2:.1f}" y="{by + h + 14:.1f}" text-anchor="middle" '
            f'fill="#777">\u2026 {s.hidden} more</text>'
        )
    out.append("</g>")
    return out


def _postorder(children: list[list[int]]) -> list[int]:
    """Indices with every child before its parent, leaves in reading order."""
    out, stack = [], [(0, False)]
    while stack:
        i, done = stack.pop()
        if done:
            out.append(i)
            continue
        stack.append((i, True))
        stack.extend((c, False) for c in reversed(children[i]))
    return out
