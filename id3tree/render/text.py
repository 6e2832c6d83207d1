"""The tree as text: an indented outline, and the path of one sample."""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from id3tree.base.language import Language, current
from id3tree.base.pencil import unit_note
from id3tree.base.words import format_count, format_counts, format_number, printable
from id3tree.model.node import MISSING, Node, branch_label, class_tie_note

__all__ = ["explain_path", "MAX_INDENT", "tree_to_text"]


def _samples(L: Language, n: Any, words: list[str] | None = None) -> str:
    """``14 samples``: a count and the word for it (``words``: ``L.words`` of ``[n]``, default
    samples), in the language ``L``."""
    word = (words or L.words([n], "sample", "samples"))[0]
    return f"{L.number(format_count(n))} {word}"


def _head(node: Node, decimals: int) -> str:
    """``14 samples (No: 5, Yes: 9), entropy 0.9403``."""
    L = current()
    return L.line(
        "{samples} ({counts}), entropy {entropy}", samples=_samples(L, node.n_samples),
        counts=format_counts(node.class_counts), entropy=L.number(f"{node.entropy:.{decimals}f}"),
    )  # fmt: skip


def _describe(node: Node, decimals: int, marks: dict | None = None) -> str:
    """What a node holds and what it does: ``14 samples (No: 5, Yes: 9), entropy 0.9403 -> ...``;
    a split in ``marks`` (node id -> share, shaky: ``tree.stability``) says how often its feature
    won again, and whether it is shaky."""
    head, L = _head(node, decimals), current()
    if node.is_leaf:
        tie = class_tie_note(node.class_counts, node.prediction)
        leaf = L.line("{head} -> predict {prediction}", head=head, prediction=str(node.prediction))
        return leaf + (f" ({tie})" if tie else "")
    test = (
        f"{node.feature} <= {L.number(format_number(node.threshold, decimals))}"
        if node.is_numeric_split
        else node.feature
    )
    gain = L.number(f"{node.gain:.{decimals}f}")
    line = L.line("{head} -> split on {test}, gain {gain}", head=head, test=test, gain=gain)
    if marks and node.node_id in marks:
        share, shaky = marks[node.node_id]
        shown = "-" if share != share else L.number(f"{share:.0%}")  # (NaN: no rows)
        if shaky:
            return line + " " + L.line("[(!) shaky: same feature {share}]", share=shown)
        return line + " " + L.line("[same feature {share}]", share=shown)
    return line


MAX_INDENT = 40
"""Levels drawn as ``|   `` rulers; deeper lines say their depth instead, so the text of a tree
n levels deep grows with n, not n squared."""


def _indent(level: int) -> str:
    """The start of a line ``level`` levels below the root."""
    if level - 1 <= MAX_INDENT:
        return "|   " * (level - 1) + "|-- "
    return "|   " * MAX_INDENT + current().line("[level {level}]", level=str(level)) + " |-- "


def tree_to_text(
    root: Node, *, decimals: int = 4, max_depth: int | None = None,
    stability: dict[int, tuple[float, bool]] | None = None,
) -> str:  # fmt: skip
    """An indented outline of a (multiway) tree, one line per node.

    ``stability``: node id -> (the share of resamples where its feature wins again, whether it
    is shaky), as ``tree.stability(X, y).marks()`` gives it; each split line then ends with
    ``[same feature 96%]``, or ``[(!) shaky: same feature 55%]``.

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
    L = current()
    lines = [f"[{L.gettext('root')}] {_describe(root, decimals, stability)}"]
    _note_unit(lines)
    stack = [(root, key, child, 1) for key, child in reversed(list(root.children.items()))]
    while stack:  # depth first without recursion: trees can be thousands of levels deep
        parent, key, node, level = stack.pop()
        pad = _indent(level)
        if max_depth is not None and level > max_depth:
            hidden = sum(1 for _ in node.walk())
            below = L.line(
                "{branch}: ... ({nodes} below)",
                branch=branch_label(parent, key, decimals),
                nodes=_samples(L, hidden, L.words([hidden], "node", "nodes")),
            )
            lines.append(pad + below)
            continue
        described = _describe(node, decimals, stability)
        lines.append(f"{pad}{branch_label(parent, key, decimals)}: {described}")
        stack.extend((node, k, c, level + 1) for k, c in reversed(list(node.children.items())))
    return "\n".join(map(printable, lines))  # a label's newline never starts a line


def explain_path(nodes: list[Node], steps: list[tuple[int, Any]], row: dict, classes: list) -> str:
    """Words for the path of one sample: every test, the branch taken, the counts, the answer.

    ``steps`` are ``(node position, slot or None)`` pairs from the router; the last one is where
    the sample stopped.
    """
    lines: list[str] = []
    L = _note_unit(lines)
    for number, (at, slot) in enumerate(steps, start=1):
        node = nodes[at]
        where = L.line(
            "Step {number}, node {node}: {head}", number=str(number), node=str(node.node_id),
            head=_head(node, 4),
        )  # fmt: skip
        if node.is_leaf:
            lines.append(L.line("{where}; a leaf.", where=where))
            break
        value = row.get(node.feature)
        shown = L.gettext("missing") if _is_missing(value) else _shown(L, value)
        if slot is None:
            if _is_missing(value):
                why = L.line(
                    "{feature} is missing and no training sample here was missing",
                    feature=node.feature,
                )
            else:
                why = L.line(
                    "{feature} = {value} was never seen at this node",
                    feature=node.feature,
                    value=shown,
                )
            lines.append(
                L.line(
                    "{where}; {why}, so the path stops here and the prediction comes from this "
                    "node's counts.",
                    where=where,
                    why=why,
                )  # fmt: skip
            )
            break
        key = _key_of(node, nodes, steps, number)
        lines.append(
            L.line(
                "{where}; {feature} is {value}, so take the branch {branch}.",
                where=where,
                feature=node.feature,
                value=shown,
                branch=branch_label(node, key, 4),
            )  # fmt: skip
        )
    stop = nodes[steps[-1][0]]
    total = stop.n_samples
    share = stop.class_counts[stop.prediction] / total if total else 0.0
    lines.append(
        L.line(
            "Prediction: {prediction} (probability {probability}, from {samples}).",
            prediction=str(stop.prediction),
            probability=L.number(f"{share:.2f}"),
            samples=_samples(L, total, L.words([total], "training sample", "training samples")),
        )  # fmt: skip
    )
    tie = class_tie_note(stop.class_counts, stop.prediction)
    if tie:
        lines.append(L.line("Tie: {tie}.", tie=tie))
    return "\n".join(map(printable, lines))


def _note_unit(lines: list[str]) -> Language:
    """The unit's note first in ``lines`` when the tree measures in nats; the language."""
    note = unit_note()
    if note is not None:
        lines.insert(0, note)
    return current()


def _shown(L: Language, value: Any) -> str:
    """A sample's value as the path shows it: ``'Sunny'``, or a number with the language's
    decimal mark."""
    if L.english or not isinstance(value, numbers.Real) or isinstance(value, (bool, np.bool_)):
        return repr(value)
    return L.number(repr(value.item() if isinstance(value, np.generic) else value))


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
