"""The tree's nodes: a small, explicit model that renderers, tracing and persistence rely on."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from id3tree.base.language import current
from id3tree.base.words import class_name, format_count, format_number, plural

__all__ = [
    "CLASS_TIE_RULE", "COUNT_TIE_RTOL", "LEFT", "MISSING", "NUMERIC_MISSING", "RIGHT", "Node",
    "branch_label", "class_tie_note", "condensed_path", "edge_label", "feature_importances",
    "is_missing", "majority_classes", "narrowed", "node_paths", "path_step", "path_word",
    "tied_classes", "top_classes",
]  # fmt: skip

MISSING = None
"""The branch key of the branch that missing values take."""

LEFT, RIGHT, NUMERIC_MISSING = 0, 1, 2
"""Branch slots of a numeric split in the flat arrays (``<=``, ``>``, missing). A categorical
split uses the category's code as its slot and ``len(categories)`` for missing values."""


def is_missing(value: Any) -> bool:
    """Whether a value is missing: None, NaN (it is not equal to itself) or ``pd.NA``."""
    try:
        return value is None or bool(value != value)
    except TypeError:  # pd.NA: its truth is ambiguous
        return True


@dataclass(eq=False, slots=True)
class Node:
    """One node of an ID3 tree.

    Attributes
    ----------
    feature : str or None
        The feature this node splits on; None for a leaf.
    threshold : float or None
        The cut of a numeric split (``x <= threshold`` goes to ``"<="``); None otherwise.
    children : dict
        Branch key -> child Node. Categorical splits use the category values as keys, numeric
        splits ``"<="`` and ``">"``; both use ``None`` for the branch of missing values.
    class_counts : dict
        Class -> number of training rows of that class that reached this node.
    n_samples : int
        Number of training rows that reached this node.
    entropy : float
        Entropy of the class counts, in bits (nats for a tree with ``log_base="e"``).
    gain : float or None
        Information gain of the split made here; None for a leaf.
    prediction : object
        The majority class (ties go to the class that comes first in ``classes_``; see
        :attr:`tied_classes`).
    depth : int
        0 for the root.
    node_id : int
        Position in pre-order (depth first, as in scikit-learn): the root is 0, its first child 1,
        that child's first child 2, and a node's whole subtree is numbered before its next
        sibling. It is the order in which the trace, the text and the drawings list the nodes.
    """

    feature: str | None
    threshold: float | None
    children: dict[Any, Node]
    class_counts: dict[Any, int]
    n_samples: int
    entropy: float
    gain: float | None
    prediction: Any
    depth: int
    node_id: int = 0
    stop_reason: str | None = field(default=None, repr=False)

    @property
    def is_leaf(self) -> bool:
        return not self.children

    @property
    def tied_classes(self) -> list:
        """The classes tied for the largest count (``[]`` when one class leads). The prediction
        is then the first of them in ``classes_``."""
        return tied_classes(self.class_counts)

    @property
    def is_numeric_split(self) -> bool:
        return self.threshold is not None

    def child_for(self, value: Any) -> Node | None:
        """The child a row whose value of :attr:`feature` is ``value`` goes to; None where this
        node has no branch for it (a category never seen here, or a missing value where no
        training row was missing): the row then stops here.

        >>> leaf = Node(None, None, {}, {"Yes": 4}, 4, 0.0, None, "Yes", depth=1)
        >>> node = Node("Outlook", None, {"Overcast": leaf}, {"Yes": 4}, 4, 0.0, 0.0, "Yes", 0)
        >>> node.child_for("Overcast") is leaf, node.child_for("Foggy"), node.child_for(None)
        (True, None, None)
        """
        if is_missing(value):
            return self.children.get(MISSING)
        if self.is_numeric_split:  # (read as a double, as the learner reads numbers)
            return self.children.get("<=" if float(value) <= self.threshold else ">")  # type: ignore[operator]  # (a numeric split has its threshold)
        return self.children.get(value)  # (1 == 1.0 == True: one key, as the learner's codes)

    def walk(self) -> Iterator[Node]:
        """This node and every node below it, depth first, children in branch order."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(list(node.children.values())))

    def iter_edges(self) -> Iterator[tuple[Node, Any, Node]]:
        """Every (parent, branch key, child) below this node, depth first."""
        for node in self.walk():
            for key, child in node.children.items():
                yield node, key, child

    def __repr__(self) -> str:
        test = "leaf" if self.is_leaf else f"split on {self.feature!r}"
        return f"Node({self.node_id}: {test}, n={self.n_samples}, counts={self.class_counts})"


# The same words for a whole column at once: a trace writes tens of thousands of numbers, and
# one call per array (each value by a C-level ``map``) costs a fraction of one call per number.


COUNT_TIE_RTOL = 1e-9
"""Sums of fractional weights within this share of the top count tie with it: they are equal
up to floating-point rounding (three rows of weight 0.1 sum to 0.30000000000000004, one row of
weight 0.3 to 0.3). Whole counts tie only when equal."""


def top_classes(counts: Any) -> np.ndarray:
    """Which classes hold the largest count of each node: a boolean array shaped like
    ``counts`` (nodes by classes, or one node's classes). Whole counts must be equal; sums of
    fractional weights may differ by :data:`COUNT_TIE_RTOL` of the top (rounding)."""
    counts = np.asarray(counts)
    top = counts.max(axis=-1, keepdims=True)
    if counts.dtype.kind != "f" or np.array_equal(counts, np.round(counts)):
        return counts == top
    return counts >= top - COUNT_TIE_RTOL * np.abs(top)


def majority_classes(counts: Any) -> np.ndarray:
    """Each node's predicted class (index into the classes) from its counts (nodes by classes):
    the first of its :func:`top_classes` (ties go to the class that comes first)."""
    return np.argmax(top_classes(counts), axis=-1)


def tied_classes(class_counts: dict) -> list:
    """The classes that share the largest count, when more than one does (else ``[]``); sums
    of fractional weights equal up to rounding tie (:func:`top_classes`)."""
    counts = list(class_counts.values())
    if not counts or max(counts) <= 0:
        return []
    tied = [c for c, top in zip(class_counts, top_classes(counts)) if top]
    return tied if len(tied) > 1 else []


CLASS_TIE_RULE = "the class that comes first in classes_ wins"


def class_tie_note(class_counts: dict, prediction: Any) -> str:
    """Words for a tie between the top classes, or ``""`` when there is none."""
    tied = tied_classes(class_counts)
    if not tied:
        return ""
    L = current()
    if not L.english:
        n = class_counts[tied[0]]
        names = L.join([class_name(c) for c in tied[:-1]]) + f" {L.gettext('and')} "
        return L.line(
            "{classes} tie with {n} {samples} each; the class that comes first in classes_ "
            "wins, so it predicts {prediction}",
            classes=names + class_name(tied[-1]), n=L.number(format_count(n)),
            samples=L.words([n], "sample", "samples")[0], prediction=str(prediction),
        )  # fmt: skip
    names = ", ".join(class_name(c) for c in tied[:-1]) + f" and {class_name(tied[-1])}"
    each = plural(class_counts[tied[0]], "sample")
    return f"{names} tie with {each} each; {CLASS_TIE_RULE}, so it predicts {prediction}"


def condensed_path(steps: list[Any], decimals: int | None = None) -> list[str]:
    """The tests on the way to a node, one per feature: a numeric feature cut several times
    becomes one interval (``2.45 < petal_length <= 4.95``).

    ``steps`` are ``(feature, op, value)`` with op one of ``"="``, ``"<="``, ``">"`` and
    ``"missing"``, in the order they were made.

    >>> condensed_path([("petal_length", ">", 2.45), ("petal_width", "<=", 1.75),
    ...                 ("petal_length", "<=", 4.95)])
    ['2.45 < petal_length <= 4.95', 'petal_width <= 1.75']
    """
    state: dict[str, tuple] = {}
    for feature, op, value in steps:
        state[feature] = narrowed(state.get(feature), op, value)
    return [path_word(feature, tests, decimals) for feature, tests in state.items()]


def narrowed(tests: tuple | None, op: str, value: Any) -> tuple:
    """What the path knows of one feature, ``(low, high, other)``, after one more test on it
    (``tests`` None before the first): the largest ``>`` bound, the smallest ``<=`` bound, and
    the last ``=`` or ``missing`` test."""
    low, high, other = tests or (None, None, None)
    if op == "<=":
        return low, value if high is None else min(high, value), other
    if op == ">":
        return value if low is None else max(low, value), high, other
    return low, high, (op, value)


def path_word(
    feature: str, tests: tuple, decimals: int | None = None, written: dict | None = None
) -> str:
    """One feature's part of a condensed path, from its ``(low, high, other)``.

    ``written``, if given, keeps the thresholds written so far (value -> text, by
    :func:`format_number` with ``decimals``): it is read first and filled as it goes, so a
    caller that writes many paths writes each threshold once.
    """
    low, high, other = tests
    L = current()
    if other is not None:
        op, value = other
        if op == "missing":
            return (
                f"{feature} is missing"
                if L.english
                else L.line("{feature} is missing", feature=feature)
            )
        return f"{feature} = {value}"
    if written is None:
        written = {}
    if low is not None:
        low_text = written.get(low) or written.setdefault(low, format_number(low, decimals))
        low_text = L.number(low_text)
    if high is not None:
        high_text = written.get(high) or written.setdefault(high, format_number(high, decimals))
        high_text = L.number(high_text)
    if low is not None and high is not None:
        return f"{low_text} < {feature} <= {high_text}"
    if low is not None:
        return f"{feature} > {low_text}"
    return f"{feature} <= {high_text}"


def path_step(node: Node, key: Any) -> tuple[str | None, Any, Any]:
    """The branch ``key`` of ``node`` as a ``(feature, op, value)`` step of :func:`condensed_path`."""
    if key is MISSING:
        return node.feature, "missing", None
    if node.is_numeric_split:
        return node.feature, key, node.threshold
    return node.feature, "=", key


def node_paths(root: Node, decimals: int | None = None) -> dict[int, list[str]]:
    """``node_id`` -> the condensed tests on the way there, for every node below ``root``."""
    paths: dict[int, list[str]]
    stack: list[tuple[Node, list[Any]]]
    paths, stack = {root.node_id: []}, [(root, [])]
    while stack:
        node, steps = stack.pop()
        paths[node.node_id] = condensed_path(steps, decimals)
        for key, child in node.children.items():
            stack.append((child, [*steps, path_step(node, key)]))
    return paths


def branch_label(node: Node, key: Any, decimals: int | None = None) -> str:
    """How a branch reads in text: ``Outlook = Sunny``, ``petal_length <= 2.45``, ``Wind is missing``."""
    L = current()
    if key is MISSING:
        return L.line("{feature} is missing", feature=node.feature)
    if node.is_numeric_split:
        return f"{node.feature} {key} {L.number(format_number(node.threshold, decimals))}"  # type: ignore[arg-type]
    return f"{node.feature} = {key}"


def edge_label(node: Node, key: Any, decimals: int | None = None) -> str:
    """A branch as a short label, without the feature: ``Sunny``, ``<= 2.45``, ``missing``."""
    if key is MISSING:
        return "missing"
    if node.is_numeric_split:
        return f"{key} {format_number(node.threshold, decimals)}"  # type: ignore[arg-type]
    return str(key)


def feature_importances(root: Node, names: list[str]) -> np.ndarray:
    """Entropy decrease of every split weighted by its share of the rows, summed per feature and
    normalised to sum to 1 (all zeros for a single leaf)."""
    index = {name: i for i, name in enumerate(names)}
    total = np.zeros(len(names))
    for node in root.walk():
        if not node.is_leaf:
            total[index[node.feature]] += node.n_samples / root.n_samples * node.gain  # type: ignore[index, operator]  # (a split has both)
    s = total.sum()
    return total / s if s > 0 else total
