"""What a drawing of a tree says and how it is coloured, shared by the Graphviz and matplotlib renderers.

Both renderers draw the same picture: a box per node (a title line, then the fields chosen with
``show``), a label per edge, a colour per node, a "…" marker under every node whose subtree
was cut by ``max_depth``, and one dashed box for the smallest branches of a split with more than
``max_branches`` of them (see :func:`kept_branches`). Everything here works on
:class:`~id3tree.model.node.Node` objects and plain strings; nothing imports Graphviz or matplotlib
(except to read a colour name, lazily).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from id3tree.base.entropy import current_base
from id3tree.base.language import N_, current
from id3tree.base.words import class_name, format_count, format_number
from id3tree.model.node import MISSING, Node

__all__ = [
    "BORDER_COLOR", "boxes_per_level", "check_options", "class_list", "class_palette",
    "COUNTS_WIDTH", "cut_text", "EDGE_COLOR", "edge_lines", "FEWEST_BRANCHES", "FIELDS",
    "fill_color", "fitted_note", "Group", "group_body", "GROUP_EDGE", "group_edge", "GROUP_FILL",
    "group_title",
    "group_values", "kept_branches", "MAX_BRANCHES", "MUTED_COLOR", "node_body", "node_title",
    "PALETTE", "purity", "READABLE_BOXES", "readable_branches", "refusal", "SHAKY_COLOR", "Shown",
    "stability_line", "stability_marks", "text_lines", "visible", "WHITE",
]  # fmt: skip

FIELDS = ("samples", "counts", "entropy", "gain")
"""The lines a node box can show under its title, in the order they appear."""

PALETTE = (
    # ColorBrewer Set2, then Set3: light enough for dark text at full strength.
    "#fc8d62", "#66c2a5", "#8da0cb", "#e78ac3", "#a6d854", "#ffd92f", "#e5c494", "#b3b3b3",
    "#8dd3c7", "#bebada", "#fb8072", "#80b1d3", "#fdb462", "#b3de69", "#fccde5", "#d9d9d9",
    "#bc80bd", "#ccebc5", "#ffed6f",
)  # fmt: skip
WHITE = "#ffffff"
EDGE_COLOR = "#666666"
BORDER_COLOR = "#555555"
MUTED_COLOR = "#777777"
SHAKY_COLOR = "#D55E00"  # Okabe-Ito vermilion: the dashed outline of a shaky split


def stability_marks(stability: Any) -> dict[int, tuple[float, bool]]:
    """Node id -> (the share of resamples where the same feature wins, whether the split is
    shaky), from the result of ``tree.stability(X, y)``; ``{}`` for None."""
    if stability is None:
        return {}
    marks = getattr(stability, "marks", None)
    if not callable(marks):
        raise TypeError(
            "stability must be the result of tree.stability(X, y) (a Stability) or None, got "
            f"{type(stability).__name__}"
        )
    return dict(marks())


def stability_line(share: float, shaky: bool) -> str:
    """The line a split's box gets: ``same feature 96%``, or ``shaky: same feature 55%`` (in
    the language of the drawing)."""
    L = current()
    if math.isnan(share):
        text = L.gettext("same feature: no rows")
    else:
        text = L.line("same feature {share}", share=L.number(f"{share:.0%}"))
    return L.line("shaky: {text}", text=text) if shaky else text


def _count(n: Any) -> str:
    """A count in the drawing's language: ``9``, ``948.222`` (``948,222`` with a comma)."""
    return current().number(format_count(n))


def _pixels(n: int) -> str:
    """A number of pixels with its thousands grouped: ``8,000`` in English; where the decimal
    mark is a comma, grouped by a narrow no-break space (``8 000``), which no one reads as a
    decimal mark."""
    return f"{n:,}" if current().decimal == "." else f"{n:,}".replace(",", "\u202f")


LE, GT, ELLIPSIS, DOT = "\u2264", ">", "\u2026", "\u00b7"  # ≤ > … ·
GROUP_FILL = "#f2f2f2"  # the box of grouped branches: grey and dashed, never a class colour
COUNTS_WIDTH = 32  # the longest line of class counts; longer ones list a class per line
MAX_BRANCHES = 10
"""A split with more branches shows its ``MAX_BRANCHES - 1`` largest and groups the rest: the
classic data sets (Mushroom's odor has 9 values) are drawn whole, Adult's native-country (41
values) is not."""


# ---------------------------------------------------------------------------------------------
# options
# ---------------------------------------------------------------------------------------------
def check_options(
    show: Iterable[str], decimals: int, max_depth: int | None, max_branches: int | None = None,
    max_pixels: int | None = None,
) -> tuple[str, ...]:  # fmt: skip
    """Validate the options both renderers share; return ``show`` in display order."""
    if isinstance(show, str):
        show = (show,)
    show = tuple(show)
    unknown = [field for field in show if field not in FIELDS]
    if unknown:
        raise ValueError(f"show must hold fields from {FIELDS}, got {unknown[0]!r}")
    if isinstance(decimals, bool) or not isinstance(decimals, int) or decimals < 0:
        raise ValueError(f"decimals must be a non-negative integer, got {decimals!r}")
    if max_depth is not None and (
        isinstance(max_depth, bool) or not isinstance(max_depth, int) or max_depth < 0
    ):
        raise ValueError(f"max_depth must be None or a non-negative integer, got {max_depth!r}")
    if max_branches is not None and (
        isinstance(max_branches, bool) or not isinstance(max_branches, int) or max_branches < 2
    ):
        raise ValueError(
            f"max_branches must be None (every branch) or an integer of at least 2, got "
            f"{max_branches!r}"
        )
    if max_pixels is not None and (
        isinstance(max_pixels, bool) or not isinstance(max_pixels, int) or max_pixels < 100
    ):
        raise ValueError(f"max_pixels must be an integer of at least 100, got {max_pixels!r}")
    return tuple(field for field in FIELDS if field in show)


def class_list(root: Node, classes: Sequence | None) -> list:
    """The classes in display order: as given, else as the root's counts list them."""
    return list(root.class_counts) if classes is None else list(classes)


# ---------------------------------------------------------------------------------------------
# words
# ---------------------------------------------------------------------------------------------
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def text_lines(value: Any) -> list[str]:
    """A value as the lines it is drawn on: newlines break lines, other control characters
    (which no renderer can draw) show as escapes like ``\\x07``."""
    text = str(value).replace("\r\n", "\n").replace("\r", "\n")
    text = _CONTROL.sub(lambda m: repr(m.group())[1:-1], text)
    return text.split("\n")


def _counts_lines(class_counts: dict, classes: list) -> list[str]:
    """``No: 5, Yes: 9`` on one line when it is short, else one class per line (the counts are
    written as everywhere else: ``class 0: 549`` when the classes are numbers)."""
    parts = [f"{class_name(c)}: {_count(class_counts.get(c, 0))}" for c in classes]
    joined = current().join(parts)
    lines = [joined] if len(joined) <= COUNTS_WIDTH else parts
    return [piece for line in lines for piece in text_lines(line)]


def node_title(node: Node, decimals: int | None = None) -> list[str]:
    """The bold first line(s): ``Outlook``, ``petal_length ≤ 2.45``, or ``predict Yes``; the
    threshold rounded to ``decimals`` digits."""
    L = current()
    if node.is_leaf:
        return text_lines(L.line("predict {prediction}", prediction=str(node.prediction)))
    if node.is_numeric_split:
        threshold = L.number(format_number(node.threshold, decimals))
        return text_lines(f"{node.feature} {LE} {threshold}")
    return text_lines(node.feature)


def node_body(node: Node, classes: list, show: tuple[str, ...], decimals: int) -> list[str]:
    """The lines under the title: samples, class counts (with a note when the top classes of a
    leaf tie), entropy and (for splits) gain."""
    lines, L = [], current()
    for field in show:
        if field == "samples":
            lines.append(L.line("samples = {n}", n=_count(node.n_samples)))
        elif field == "counts":
            lines.extend(_counts_lines(node.class_counts, classes))
            tied = node.tied_classes if node.is_leaf else []
            if tied:
                n = f"{len(tied)} {L.words([len(tied)], 'class', 'classes')[0]}"
                lines.extend(text_lines(L.line("tie: {n}, first wins", n=n)))
        elif field == "entropy":
            lines.append(L.line("entropy = {h}", h=L.number(f"{node.entropy:.{decimals}f}")))
        elif field == "gain" and node.gain is not None:
            lines.append(L.line("gain = {gain}", gain=L.number(f"{node.gain:.{decimals}f}")))
    return lines


def edge_lines(parent: Node, key: Any, decimals: int | None = None) -> tuple[list[str], bool]:
    """The label of the branch ``key`` of ``parent``, and whether it is the missing branch
    (drawn in italics, so it never reads like a category called "missing")."""
    if key is MISSING:
        return [current().gettext("missing")], True
    if parent.is_numeric_split:
        sign = LE if key == "<=" else GT
        return [f"{sign} {current().number(format_number(parent.threshold, decimals))}"], False
    return text_lines(key), False


def cut_text(hidden: int) -> str:
    """The marker under a node whose subtree ``max_depth`` left out."""
    return f"{ELLIPSIS} {hidden} {current().words([hidden], 'more node', 'more nodes')[0]}"


def fitted_note(depth: int, n_levels: int, max_pixels: int) -> list[str]:
    """The note under a drawing that shows fewer levels than the tree has, because the whole
    tree would not fit."""
    L = current()
    return [
        L.line(
            "The top {top} of {levels} levels (max_depth={depth}): the whole tree is too large "
            "to draw in {pixels} x {pixels} pixels.",
            top=str(depth + 1),
            levels=str(n_levels),
            depth=str(depth),
            pixels=_pixels(max_pixels),
        ),
        L.gettext("Choose the levels with max_depth, the branches kept with max_branches."),
    ]


# ---------------------------------------------------------------------------------------------
# colours
# ---------------------------------------------------------------------------------------------
def _rgb(color: str) -> tuple[int, int, int]:
    text = str(color).strip()
    if re.fullmatch(r"#[0-9a-fA-F]{3}", text):
        text = "#" + "".join(ch * 2 for ch in text[1:])
    if not re.fullmatch(r"#[0-9a-fA-F]{6}([0-9a-fA-F]{2})?", text):
        from matplotlib.colors import to_hex  # names like "tab:blue"; only when needed

        try:
            text = to_hex(color)
        except ValueError:
            raise ValueError(f"class_colors: {color!r} is not a colour") from None
    return int(text[1:3], 16), int(text[3:5], 16), int(text[5:7], 16)


def class_palette(classes: list, class_colors: dict | None = None) -> dict:
    """Class -> base colour (``#rrggbb``): ``class_colors`` where given, else the palette."""
    class_colors = class_colors or {}
    palette = {}
    for i, c in enumerate(classes):
        rgb = _rgb(class_colors[c] if c in class_colors else PALETTE[i % len(PALETTE)])
        palette[c] = "#{:02x}{:02x}{:02x}".format(*rgb)
    return palette


def purity(node: Node, n_classes: int) -> float:
    """1 for a pure node, 0 for one whose classes are evenly mixed: ``1 - H / log2 K`` (``ln K``
    for a tree in nats)."""
    if n_classes < 2:
        return 1.0
    most = math.log2(n_classes) if current_base() == 2.0 else math.log(n_classes)
    return min(1.0, max(0.0, 1.0 - node.entropy / most))


def fill_color(node: Node, palette: dict, n_classes: int) -> str:
    """The majority class's colour, blended with white as the node gets less pure."""
    base = palette.get(node.prediction)
    if base is None:
        return WHITE
    strength = purity(node, n_classes)
    r, g, b = (round(255 + (v - 255) * strength) for v in _rgb(base))
    return f"#{r:02x}{g:02x}{b:02x}"


# ---------------------------------------------------------------------------------------------
# what is drawn
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Group:
    """Branches of one split drawn as a single box: the ones :func:`kept_branches` leaves out."""

    parent: Node
    keys: tuple  # the grouped branch keys, in branch order
    nodes: tuple[Node, ...]  # their children, in the same order

    @property
    def n_samples(self):
        return sum(node.n_samples for node in self.nodes)

    @property
    def class_counts(self) -> dict:
        """The grouped children's class counts added up, class by class."""
        counts: dict = {}
        for node in self.nodes:
            for c, n in node.class_counts.items():
                counts[c] = counts.get(c, 0) + n
        return counts


def kept_branches(
    node: Node, max_branches: int | None
) -> tuple[list[tuple[Any, Node]], Group | None]:
    """The branches of ``node`` that are drawn, in branch order, and the rest as one Group.

    The rule: a split with at most ``max_branches`` branches is drawn whole; one with more keeps
    its ``max_branches - 1`` largest (most training samples; of equal ones, the first in branch
    order) and draws the others, at least two, as one box, so no node has more than
    ``max_branches`` boxes under it.

    >>> from id3tree import ID3Classifier
    >>> from id3tree.datasets import load_play_tennis
    >>> root = ID3Classifier().fit(*load_play_tennis(return_X_y=True)).root_
    >>> [key for key, _ in root.children.items()], [child.n_samples for child in root.children.values()]
    (['Overcast', 'Rain', 'Sunny'], [4, 5, 5])
    >>> kept, group = kept_branches(root, 2)
    >>> [key for key, _ in kept], group.keys, group.n_samples
    (['Rain'], ('Overcast', 'Sunny'), 9)
    """
    branches = list(node.children.items())
    if max_branches is None or len(branches) <= max_branches:
        return branches, None
    by_size = sorted(range(len(branches)), key=lambda i: (-branches[i][1].n_samples, i))
    keep = set(by_size[: max_branches - 1])
    grouped = [branch for i, branch in enumerate(branches) if i not in keep]
    group = Group(node, tuple(k for k, _ in grouped), tuple(child for _, child in grouped))
    return [branch for i, branch in enumerate(branches) if i in keep], group


def group_title(group: Group) -> list[str]:
    """``+ 35 more values`` (``and missing`` when the missing branch is one of them)."""
    L = current()
    if group.parent.is_numeric_split:
        n = len(group.keys)
        return [f"+ {n} {L.words([n], 'more branch', 'more branches')[0]}"]
    values = sum(1 for key in group.keys if key is not MISSING)
    title = f"+ {values} {L.words([values], 'more value', 'more values')[0]}"
    return [L.line("{values} and missing", values=title) if values < len(group.keys) else title]


def group_body(group: Group, classes: list, show: tuple[str, ...]) -> list[str]:
    """The samples and class counts of the grouped branches together (no entropy or gain: the
    group is not a node of the tree)."""
    lines = []
    if "samples" in show:
        lines.append(current().line("samples = {n}", n=_count(group.n_samples)))
    if "counts" in show:
        lines.extend(_counts_lines(group.class_counts, classes))
    return lines


GROUP_EDGE = N_("others")
"""The label of the edge to a group's box, in italics like *missing*: not a value of the data
(in English; :func:`group_edge` gives it in the drawing's language)."""


def group_edge() -> str:
    """:data:`GROUP_EDGE` in the language of the drawing."""
    return current().gettext(GROUP_EDGE)


def group_values(group: Group) -> str:
    """Every grouped value on one line (for tooltips): ``Cuba, Iran, missing``."""
    missing = current().gettext("missing")
    return ", ".join(missing if key is MISSING else " ".join(text_lines(key)) for key in group.keys)


@dataclass(frozen=True)
class Shown:
    """One box of the drawing: its position in the visit, its parent's, the branch it hangs on.

    A box of grouped branches has ``node=None`` and its :class:`Group` in ``group``.
    """

    node: Node | None
    index: int
    parent: int | None  # index of the parent in the visit; None for the root
    parent_node: Node | None
    key: Any  # the branch key from the parent (meaningless for the root and for groups)
    level: int  # 0 for the drawing's root
    hidden: int  # nodes below this one that max_depth left out (0 if none)
    group: Group | None = None


def visible(
    root: Node, max_depth: int | None = None, max_branches: int | None = None
) -> Iterator[Shown]:
    """The boxes to draw, depth first with children in branch order, without recursion.

    Levels count from ``root`` (so a subtree can be drawn on its own); a node at ``max_depth``
    with children is drawn, and its subtree becomes a count of the hidden nodes. A split with
    more than ``max_branches`` branches has its smallest ones drawn as one :class:`Group` box,
    after its other children (see :func:`kept_branches`).
    """
    stack: list[tuple[Node | Group, int | None, Node | None, Any, int]] = [
        (root, None, None, None, 0)
    ]
    index = 0
    while stack:
        node, parent, parent_node, key, level = stack.pop()
        if isinstance(node, Group):
            yield Shown(None, index, parent, parent_node, None, level, 0, node)
            index += 1
            continue
        cut = max_depth is not None and level >= max_depth and not node.is_leaf
        hidden = sum(1 for _ in node.walk()) - 1 if cut else 0
        yield Shown(node, index, parent, parent_node, key, level, hidden)
        if not cut:
            kept, group = kept_branches(node, max_branches)
            if group is not None:
                stack.append((group, index, node, None, level + 1))
            stack.extend((child, index, node, key, level + 1) for key, child in reversed(kept))
        index += 1


def boxes_per_level(
    root: Node, max_branches: int | None, max_depth: int | None, limit: int
) -> list[int]:
    """How many boxes :func:`visible` draws on each level, top down, to ``max_depth``; the count
    stops at the first level past ``limit`` boxes in all, so a huge tree costs no more than the
    levels that fit."""
    counts, nodes = [], [root]
    while nodes and (max_depth is None or len(counts) <= max_depth):
        counts.append(len(nodes))
        if sum(counts) > limit:
            break
        below: list = []
        for node in nodes:
            if node is not None:  # None: a box of grouped branches, drawn without children
                kept, group = kept_branches(node, max_branches)
                below += [child for _, child in kept] + ([None] if group else [])
        nodes = below
    return counts


READABLE_BOXES = 200  # plot_tree's max_branches="auto" groups branches to stay under this
FEWEST_BRANCHES = 4  # ... but keeps at least this many boxes per split (3 largest and a group)


def readable_branches(root: Node, max_depth: int | None) -> tuple[int, list[str]]:
    """``max_branches="auto"``: :data:`MAX_BRANCHES`, or fewer (down to
    :data:`FEWEST_BRANCHES`) while the top ``max_depth`` levels would draw more than
    :data:`READABLE_BOXES` boxes, so a drawing stays readable on a page and quick to render;
    and the note that says so under the drawing (none if nothing more was grouped)."""
    if max_depth is None:  # the whole tree: the deepest levels that fit are drawn instead
        return MAX_BRANCHES, []

    def n_boxes(branches: int) -> int:
        return sum(boxes_per_level(root, branches, max_depth, READABLE_BOXES))

    branches = MAX_BRANCHES
    while branches > FEWEST_BRANCHES and n_boxes(branches) > READABLE_BOXES:
        branches -= 1
    if branches == MAX_BRANCHES or n_boxes(branches) == n_boxes(MAX_BRANCHES):
        return MAX_BRANCHES, []
    L = current()
    note = [
        L.line(
            "Splits with more than {branches} branches show their {kept} largest and one box "
            "for the rest, so the top {levels} levels",
            branches=str(branches),
            kept=str(branches - 1),
            levels=str(max_depth + 1),
        ),
        L.line(
            "stay under {boxes} boxes; max_branches={most} (or None) draws more.",
            boxes=str(READABLE_BOXES),
            most=str(MAX_BRANCHES),
        ),
    ]
    return branches, note


def refusal(
    max_depth: int, n_boxes: int | None, limit: int, depth: int, max_pixels: int | None,
    max_branches: int | None, how: str = "even with wide levels wrapped",
) -> str:  # fmt: skip
    """Why the top ``max_depth + 1`` levels are not drawn (``n_boxes`` None: more than ``limit``
    boxes; else they do not fit in ``max_pixels``, ``how`` drawn), and the ways out: the
    ``depth`` that fits first."""
    levels = f"the top {max_depth + 1} levels"
    if n_boxes is None:
        why = f"{levels} hold more than {limit:,} boxes, too many to read in one drawing"
    else:
        why = (
            f"{levels} ({n_boxes:,} boxes) do not fit in {max_pixels:,} x {max_pixels:,} "
            f"pixels, {how}"
        )
    now = "" if max_branches is None else f" (now {max_branches})"
    return (
        f"{why}: draw max_depth={depth} (it fits), group more branches with a smaller "
        f"max_branches{now}, allow a larger picture with max_pixels, or get the whole tree "
        "as DOT text with to_dot()"
    )
