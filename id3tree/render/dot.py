"""The tree in Graphviz's DOT language: a pure string builder, and a ``graphviz`` wrapper for it.

Labels are Graphviz HTML-like labels, so every piece of user text (feature names, category
values, class names) is XML-escaped once, in :func:`_html`, and reaches the drawing unchanged:
quotes, backslashes, braces, ``|``, ``<``, ``>``, ``&`` and non-ASCII text alike. A newline in a
value becomes a line break.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence

from id3tree.node import Node
from id3tree.render.style import (
    BORDER_COLOR,
    EDGE_COLOR,
    MUTED_COLOR,
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

RANKDIRS = ("TB", "LR", "BT", "RL")
DEFAULT_FONT = "Helvetica,Arial,sans-serif"


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
    fontname: str | None = None,
) -> list[str]:
    """The body of the DOT graph, one statement per line (shared by both public functions)."""
    show = check_options(show, decimals, max_depth)
    if rankdir not in RANKDIRS:
        raise ValueError(f"rankdir must be one of {RANKDIRS}, got {rankdir!r}")
    fontname = DEFAULT_FONT if fontname is None else str(fontname)
    if any(ch in fontname for ch in '"\\\n'):
        raise ValueError(f"fontname must not hold quotes, backslashes or newlines: {fontname!r}")
    classes = class_list(root, classes)
    palette = class_palette(classes, class_colors)
    font = _quoted(fontname)

    lines = [
        "\t" + "graph " + _attrs({"rankdir": rankdir, "nodesep": "0.3", "ranksep": "0.45"}),
        "\t"
        + "node "
        + _attrs(
            {
                "shape": "box",
                "style": _quoted("rounded,filled" if filled else "rounded"),
                "color": _quoted(BORDER_COLOR),
                "fillcolor": _quoted("#ffffff"),
                "fontname": font,
                "fontsize": "11",
                "margin": _quoted("0.14,0.07"),
            }
        ),
        "\t"
        + "edge "
        + _attrs(
            {"color": _quoted(EDGE_COLOR), "fontname": font, "fontsize": "10", "arrowsize": "0.6"}
        ),
    ]
    for shown in visible(root, max_depth):  # iterative: trees can be thousands of levels deep
        node, i = shown.node, shown.index
        attributes = {
            "label": _label(node_body(node, classes, show, decimals), bold=node_title(node))
        }
        if filled:
            attributes["fillcolor"] = _quoted(fill_color(node, palette, len(classes)))
        lines.append(f"\t{i} {_attrs(attributes)}")
        if shown.parent is not None:
            text, missing = edge_lines(shown.parent_node, shown.key)
            lines.append(
                f"\t{shown.parent} -> {i} {_attrs({'label': _label(text, italic=missing)})}"
            )
        if shown.hidden:
            marker = {
                "label": _label([cut_text(shown.hidden)]),
                "shape": "plaintext",
                "style": _quoted(""),
                "fontcolor": _quoted(MUTED_COLOR),
            }
            lines.append(f"\tm{i} {_attrs(marker)}")
            lines.append(f"\t{i} -> m{i} [style=dashed arrowhead=none]")
    return [line + "\n" for line in lines]


def tree_to_dot(root: Node, *, classes: Sequence | None = None, **options) -> str:
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
        Digits after the point for entropy and gain.
    filled : bool, default=True
        Fill each node with its majority class's colour, stronger the purer the node
        (``1 - entropy / log2 K`` of the way from white).
    class_colors : mapping, optional
        Class -> colour (``"#rrggbb"`` or any matplotlib colour name) instead of the palette.
    rankdir : {"TB", "LR", "BT", "RL"}, default="TB"
        The direction the tree grows in.
    max_depth : int, optional
        Draw only the nodes at most this many levels below ``root``; a node whose subtree is
        left out gets a dashed "… N more nodes" marker.
    fontname : str, optional
        Graphviz font name; default ``"Helvetica,Arial,sans-serif"``.

    Returns
    -------
    str
        The DOT source; ``dot -Tsvg`` renders it. Edges carry the category value, ``≤ t`` or
        ``> t`` for numeric splits, and *missing* for the branch of missing values.

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
        0 [label=<<b>Outlook</b><br/>samples = 14>]
        m0 [label=<… 7 more nodes> shape=plaintext style="" fontcolor="#777777"]
        0 -> m0 [style=dashed arrowhead=none]
    }
    <BLANKLINE>
    """
    return "digraph Tree {\n" + "".join(_dot_lines(root, classes=classes, **options)) + "}\n"


def tree_to_graphviz(root: Node, *, classes: Sequence | None = None, **options):
    """The tree as a ``graphviz.Digraph`` (shown inline in Jupyter); options as in
    :func:`tree_to_dot`, whose text is its ``.source``. Rendering it needs Graphviz's ``dot``;
    without it, Jupyter shows a note saying so instead of an error."""
    return _tree_digraph()("Tree", body=_dot_lines(root, classes=classes, **options))


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
                return super()._repr_mimebundle_(include, exclude, **kwargs)
            except graphviz.ExecutableNotFound:
                return {"text/plain": NO_DOT}

    return TreeDigraph
