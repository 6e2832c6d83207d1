"""The tree as text: an indented outline, and the path of one sample."""

from __future__ import annotations

from typing import Any

from id3tree.base.words import format_counts, format_number, plural, printable
from id3tree.model.node import MISSING, Node, branch_label, class_tie_note

__all__ = ["explain_path", "MAX_INDENT", "tree_to_text"]


def _head(node: Node, decimals: int) -> str:
    """``14 samples (No: 5, Yes: 9), entropy 0.9403``."""
    return (
        f"{plural(node.n_samples, 'sample')} ({format_counts(node.class_counts)}), "
        f"entropy {node.entropy:.{decimals}f}"
    )


def _describe(node: Node, decimals: int) -> str:
    """What a node holds and what it does: ``14 samples (No: 5, Yes: 9), entropy 0.9403 -> ...``."""
    head = _head(node, decimals)
    if node.is_leaf:
        tie = class_tie_note(node.class_counts, node.prediction)
        return f"{head} -> predict {node.prediction}" + (f" ({tie})" if tie else "")
    test = (
        f"{node.feature} <= {format_number(node.threshold, decimals)}"
        if node.is_numeric_split
        else node.feature
    )
    return f"{head} -> split on {test}, gain {node.gain:.{decimals}f}"


MAX_INDENT = 40
"""Levels drawn as ``|   `` rulers; deeper lines say their depth instead, so the text of a tree
n levels deep grows with n, not n squared."""


def _indent(level: int) -> str:
    """The start of a line ``level`` levels below the root."""
    if level - 1 <= MAX_INDENT:
        return "|   " * (level - 1) + "|-- "
    return "|   " * MAX_INDENT + f"[level {level}] |-- "


def tree_to_text(root: Node, *, decimals: int = 4, max_depth: int | None = None) -> str:
    """An indented outline of a (multiway) tree, one line per node.

    >>> from id3tree import ID3Classifier
    >>> from id3tree.datasets import load_play_tennis
    >>> X, y = load_play_tennis(return_X_y=True)
    >>> print(ID3Classifier().fit(X, y).to_text(decimals=3))
    [root] 14 samples (No: 5, Yes: 9), entropy 0.940 -> split on Outlook, gain 0.247
    |-- Outlook = Overcast: 4 samples (No: 0, Yes: 4), entropy 0.000 -> predict Yes
    |-- Outlook = Rain: 5 samples (No: 2, Yes: 3), entropy 0.971 -> split on Wind, gain 0.971
    |   |-- Wind = Strong: 2 samples (No: 2, Yes: 0), entropy 0.000 -> predict No
    |   |-- Wind = Weak: 3 samples (No: 0, Yes: 3), entropy 0.000 -> predict Yes
    |-- Outlook = Sunny: 5 samples (No: 3, Yes: 2), entropy 0.971 -> split on Humidity, gain 0.971
    |   |-- Humidity = High: 3 samples (No: 3, Yes: 0), entropy 0.000 -> predict No
    |   |-- Humidity = Normal: 2 samples (No: 0, Yes: 2), entropy 0.000 -> predict Yes
    """
    lines = [f"[root] {_describe(root, decimals)}"]
    stack = [(root, key, child, 1) for key, child in reversed(list(root.children.items()))]
    while stack:  # depth first without recursion: trees can be thousands of levels deep
        parent, key, node, level = stack.pop()
        pad = _indent(level)
        if max_depth is not None and level > max_depth:
            hidden = sum(1 for _ in node.walk())
            lines.append(
                f"{pad}{branch_label(parent, key, decimals)}: ... ({plural(hidden, 'node')} below)"
            )
            continue
        lines.append(f"{pad}{branch_label(parent, key, decimals)}: {_describe(node, decimals)}")
        stack.extend((node, k, c, level + 1) for k, c in reversed(list(node.children.items())))
    return "\n".join(map(printable, lines))  # a label's newline never starts a line


def explain_path(nodes: list[Node], steps: list[tuple[int, Any]], row: dict, classes: list) -> str:
    """Words for the path of one sample: every test, the branch taken, the counts, the answer.

    ``steps`` are ``(node position, slot or None)`` pairs from the router; the last one is where
    the sample stopped.
    """
    lines = []
    for number, (at, slot) in enumerate(steps, start=1):
        node = nodes[at]
        where = f"Step {number}, node {node.node_id}: {_head(node, 4)}"
        if node.is_leaf:
            lines.append(f"{where}; a leaf.")
            break
        value = row.get(node.feature)
        shown = "missing" if _is_missing(value) else repr(value)
        if slot is None:
            if _is_missing(value):
                why = f"{node.feature} is missing and no training sample here was missing"
            else:
                why = f"{node.feature} = {shown} was never seen at this node"
            lines.append(
                f"{where}; {why}, so the path stops here and the prediction comes from this node's counts."
            )
            break
        key = _key_of(node, nodes, steps, number)
        lines.append(
            f"{where}; {node.feature} is {shown}, so take the branch {branch_label(node, key, 4)}."
        )
    stop = nodes[steps[-1][0]]
    total = stop.n_samples
    share = stop.class_counts[stop.prediction] / total if total else 0.0
    lines.append(
        f"Prediction: {stop.prediction} (probability {share:.2f}, from "
        f"{plural(total, 'training sample')})."
    )
    tie = class_tie_note(stop.class_counts, stop.prediction)
    if tie:
        lines.append(f"Tie: {tie}.")
    return "\n".join(map(printable, lines))


def _key_of(node: Node, nodes: list[Node], steps, number: int):
    nxt = nodes[steps[number][0]]
    for key, child in node.children.items():
        if child is nxt:
            return key
    return MISSING


def _is_missing(value) -> bool:
    try:
        return value is None or value != value  # NaN and pd.NA
    except TypeError:
        return True
