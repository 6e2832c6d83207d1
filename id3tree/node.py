"""The tree's nodes: a small, explicit model that renderers, tracing and persistence rely on."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

MISSING = None
"""The branch key of the branch that missing values take."""

LEFT, RIGHT, NUMERIC_MISSING = 0, 1, 2
"""Branch slots of a numeric split in the flat arrays (``<=``, ``>``, missing). A categorical
split uses the category's code as its slot and ``len(categories)`` for missing values."""


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
        Entropy (bits) of the class counts.
    gain : float or None
        Information gain of the split made here; None for a leaf.
    prediction : object
        The majority class (ties go to the class that comes first in ``classes_``).
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
    def is_numeric_split(self) -> bool:
        return self.threshold is not None

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


def format_number(value: float) -> str:
    """A threshold as people write it: ``2.45``, not ``2.4500000000000002``."""
    return f"{value:.10g}"


def branch_label(node: Node, key: Any) -> str:
    """How a branch reads in text: ``Outlook = Sunny``, ``petal_length <= 2.45``, ``Wind is missing``."""
    if key is MISSING:
        return f"{node.feature} is missing"
    if node.is_numeric_split:
        return f"{node.feature} {key} {format_number(node.threshold)}"
    return f"{node.feature} = {key}"


def feature_importances(root: Node, names: list[str]) -> np.ndarray:
    """Entropy decrease of every split weighted by its share of the rows, summed per feature and
    normalised to sum to 1 (all zeros for a single leaf)."""
    index = {name: i for i, name in enumerate(names)}
    total = np.zeros(len(names))
    for node in root.walk():
        if not node.is_leaf:
            total[index[node.feature]] += node.n_samples / root.n_samples * node.gain
    s = total.sum()
    return total / s if s > 0 else total
