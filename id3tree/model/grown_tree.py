"""A grown tree as flat arrays, its nodes numbered in pre-order (depth first).

This is how a fitted model keeps its tree: :class:`~id3tree.model.node.Node` objects are made from it
only when asked for (:meth:`GrownTree.nodes`), and prediction compiles it directly
(:mod:`id3tree.engine.routing`). The grower numbers its nodes level by level; :func:`preorder` gives
them the numbers a reader follows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from id3tree.base.diagnostics import id_like_warning, is_id_like, number_run, number_run_warning
from id3tree.model.node import LEFT, MISSING, NUMERIC_MISSING, RIGHT, Node, majority_classes

__all__ = [
    "feature_importances", "GrownTree", "id_like_splits", "LOOP_NODES_PER_LEVEL",
    "number_run_splits", "preorder",
]  # fmt: skip


@dataclass
class GrownTree:
    """A tree as flat arrays, nodes in pre-order (depth first, 0 is the root): the order a
    reader follows, each node followed by its whole subtree before its next sibling.

    It is also how a fitted model keeps its tree: :class:`~id3tree.model.node.Node` objects are made
    from it only when asked for (:meth:`nodes`), and prediction compiles it directly.
    """

    parent: np.ndarray  # position of the parent, -1 for the root
    slot: np.ndarray  # the branch slot of this node in its parent
    depth: np.ndarray
    counts: np.ndarray  # (n_nodes, n_classes)
    entropy: np.ndarray
    feature: np.ndarray  # -1 for a leaf
    threshold: np.ndarray  # NaN unless a numeric split
    gain: np.ndarray  # NaN for a leaf
    stop_reason: list
    trace: dict | None = field(default_factory=dict)  # columns of the per-candidate trace
    node_id: np.ndarray | None = None  # None: each node's position (a pruned tree keeps its ids)

    @property
    def n_nodes(self) -> int:
        return len(self.parent)

    @property
    def ids(self) -> np.ndarray:
        """Every node's ``node_id``, by position."""
        return np.arange(self.n_nodes) if self.node_id is None else self.node_id

    def nodes(self, names: list, categories: list, classes: list) -> list[Node]:
        """Every node as a linked :class:`Node`, by position (the root first).
        ``categories[f]`` lists feature f's values, None for a numeric feature."""
        counts = self.counts.tolist()
        n_samples = self.counts.sum(axis=1).tolist()
        majority = majority_classes(self.counts).tolist()
        feature, threshold = self.feature.tolist(), self.threshold.tolist()
        gain, entropy, depth = self.gain.tolist(), self.entropy.tolist(), self.depth.tolist()
        ids = self.ids.tolist()
        numeric = [c is None for c in categories]
        nodes = [
            Node(
                feature=names[f] if f >= 0 else None,
                threshold=threshold[i] if f >= 0 and numeric[f] else None,
                children={},
                class_counts=dict(zip(classes, counts[i])),
                n_samples=n_samples[i],
                entropy=entropy[i],
                gain=gain[i] if f >= 0 else None,
                prediction=classes[majority[i]],
                depth=depth[i],
                node_id=ids[i],
                stop_reason=self.stop_reason[i],
            )
            for i, f in enumerate(feature)
        ]
        numeric_keys = {LEFT: "<=", RIGHT: ">"}
        for i, (p, slot) in enumerate(zip(self.parent.tolist(), self.slot.tolist())):
            if p < 0:
                continue
            f = feature[p]
            if numeric[f]:
                key = numeric_keys.get(slot, MISSING)
            else:
                key = MISSING if slot == len(categories[f]) else categories[f][slot]
            nodes[p].children[key] = nodes[i]
        return nodes

    @classmethod
    def from_nodes(cls, root: Node, names: list, categories: list, classes: list) -> GrownTree:
        """The arrays of a tree of Nodes (a pruned or loaded tree), positions in walk order."""
        nodes = list(root.walk())
        position = {id(node): i for i, node in enumerate(nodes)}
        column = {name: f for f, name in enumerate(names)}
        value_slot = [None if c is None else {v: i for i, v in enumerate(c)} for c in categories]
        n = len(nodes)
        parent = np.full(n, -1, dtype=np.int64)
        slot = np.zeros(n, dtype=np.int64)
        feature = np.full(n, -1, dtype=np.int64)
        threshold = np.full(n, np.nan)
        gain = np.full(n, np.nan)
        for i, node in enumerate(nodes):
            if node.is_leaf:
                continue
            f = feature[i] = column[node.feature]
            gain[i] = node.gain
            if node.threshold is not None:
                threshold[i] = node.threshold
            for key, child in node.children.items():
                c = position[id(child)]
                parent[c] = i
                if categories[f] is None:
                    slot[c] = (
                        NUMERIC_MISSING if key is MISSING else (LEFT if key == "<=" else RIGHT)
                    )
                else:
                    slot[c] = len(categories[f]) if key is MISSING else value_slot[f][key]  # type: ignore[index]
        counts = np.array([[node.class_counts[c] for c in classes] for node in nodes])
        return cls(
            parent,
            slot,
            np.array([node.depth for node in nodes], dtype=np.int64),
            counts.reshape(n, len(classes)),
            np.array([node.entropy for node in nodes], dtype=float),
            feature,
            threshold,
            gain,
            [node.stop_reason for node in nodes],
            None,
            np.array([node.node_id for node in nodes], dtype=np.int64),
        )


def preorder(parent: np.ndarray, depth: np.ndarray) -> np.ndarray:
    """The pre-order number of every node of a tree numbered level by level.

    ``parent[i]`` is node i's parent (-1 for the root, node 0) and siblings are numbered
    consecutively in branch order, as the grower makes them. A node's number is its parent's,
    plus one, plus the sizes of the subtrees of its earlier siblings; subtree sizes are summed
    bottom up, one level at a time, so deep trees need no recursion. A tree of few nodes a level
    (``LOOP_NODES_PER_LEVEL``) is numbered node by node instead: the same numbers, without a
    handful of numpy calls per level.
    """
    n = len(parent)
    n_levels = int(depth[-1]) + 1 if n else 0  # (levels come in order: the last is the deepest)
    if n <= LOOP_NODES_PER_LEVEL * n_levels:
        return _preorder_by_loops(parent.tolist())
    size = np.ones(n, dtype=np.int64)
    bounds = np.searchsorted(depth, np.arange(n_levels + 1)).tolist()
    levels = [slice(bounds[d], bounds[d + 1]) for d in range(1, n_levels)]
    for level in reversed(levels):
        np.add.at(size, parent[level], size[level])
    number = np.zeros(n, dtype=np.int64)
    for level in levels:
        # a level lists the children of its parents in the parents' order, so parent[] never
        # decreases along it and searchsorted finds each node's first sibling
        p, s = parent[level], size[level]
        before = np.cumsum(s) - s  # subtree sizes of the nodes before, on this level
        number[level] = number[p] + 1 + before - before[np.searchsorted(p, p)]
    return number


LOOP_NODES_PER_LEVEL = 64
"""Up to this many nodes a level on average, :func:`preorder` numbers the nodes by two Python
loops over them (about a tenth of a microsecond a node) rather than by a few numpy calls a level
(about five microseconds a level)."""


def _preorder_by_loops(parent: list) -> np.ndarray:
    """:func:`preorder` node by node: the subtree sizes summed from the last node back (a parent
    comes before its children), then each node numbered after its parent and the subtrees of its
    earlier siblings (they come before it)."""
    n = len(parent)
    size = [1] * n
    for i in range(n - 1, 0, -1):
        size[parent[i]] += size[i]
    number = [0] * n
    next_number = [1] * n  # of each node, the number its next child takes
    for i in range(1, n):
        p = parent[i]
        number[i] = first = next_number[p]
        next_number[p] = first + size[i]
        next_number[i] = first + 1
    return np.array(number, dtype=np.int64)


def feature_importances(tree: GrownTree, n_features: int) -> np.ndarray:
    """Entropy decrease of every split weighted by its share of the rows, summed per feature and
    normalised to sum to 1 (all zeros for a single leaf); as
    :func:`~id3tree.model.node.feature_importances` computes it from Nodes."""
    split = np.flatnonzero(tree.feature >= 0)
    n_samples = tree.counts.sum(axis=1)
    weights = n_samples[split] / n_samples[0] * tree.gain[split]
    total = np.bincount(tree.feature[split], weights=weights, minlength=n_features)
    s = total.sum()
    return total / s if s > 0 else total


def id_like_splits(tree: GrownTree, names: list, categories: list, rows_of: Any = None) -> list:
    """What to warn of (:class:`~id3tree.base.diagnostics.IDLikeFeatureWarning`): one warning per
    column that made a split of (nearly) one row per branch, naming the largest such split.
    ``rows_of(position)`` counts a node's training rows when its counts are sums of weights (a
    weighted fit): the rule is about rows."""
    if all(c is None for c in categories):  # numeric splits only: two-way, never ID-like
        return []
    n_levels = np.array([-1 if c is None else len(c) for c in categories] + [-1])
    levels = n_levels[tree.feature]  # -1: a leaf or a numeric split
    if not (levels >= 0).any():
        return []
    n = tree.n_nodes
    parent = tree.parent
    is_child = parent >= 0
    p = parent[is_child]
    n_children = np.bincount(p, minlength=n)
    n_samples = tree.counts.sum(axis=1)
    size = (lambda i: n_samples[i].item()) if rows_of is None else rows_of
    missing = is_child.copy()
    missing[is_child] = tree.slot[is_child] == levels[p]  # the rows with no value do not count
    missing_child = np.full(n, -1)
    missing_child[parent[missing]] = np.flatnonzero(missing)
    worst: dict[Any, Any] = {}
    for i in np.flatnonzero(levels >= 0).tolist():
        m = missing_child[i]
        n_values = int(n_children[i]) - (m >= 0)
        if not is_id_like(0, n_values):  # too few values to be ID-like, whatever the rows
            continue
        node_rows = size(i)
        n_rows = node_rows - (size(m) if m >= 0 else 0)
        if is_id_like(n_rows, n_values):
            feature = names[tree.feature[i]]
            if feature not in worst or n_rows > worst[feature][1]:
                worst[feature] = (i, n_rows, n_values, node_rows)
    return [_id_like_message(tree, feature, *found) for feature, found in worst.items()]


def _id_like_message(
    tree: GrownTree, feature: str, i: int, n_rows: Any, n_values: Any, node_rows: Any
) -> Any:
    return id_like_warning(feature, n_rows, n_values, _where(tree, i, n_rows, node_rows))


def _where(tree: GrownTree, i: int, n_rows: Any, node_rows: Any) -> str:
    ids, depth = tree.ids, tree.depth
    where = "" if depth[i] == 0 else f" at node {ids[i]} (depth {depth[i]})"
    if n_rows < node_rows:
        where += f" (not counting {node_rows - n_rows:g} with no value)"
    return where


def number_run_splits(tree: GrownTree, names: list, numeric: list) -> list:
    """The warnings about columns of row numbers (:func:`~id3tree.base.diagnostics.number_run`)
    that the tree splits on, one per column, naming its split of the most rows; ``numeric``
    holds each column's training values (None for a categorical column)."""
    found = []
    for f in np.unique(tree.feature[tree.feature >= 0]).tolist():
        run = None if numeric[f] is None else number_run(numeric[f])
        if run is not None:
            at = np.flatnonzero(tree.feature == f)
            i = int(at[np.argmax(tree.counts[at].sum(axis=1))])
            n_rows = float(tree.counts[i].sum())
            where = _where(tree, i, n_rows, n_rows)
            found.append(number_run_warning(names[f], run, n_rows, float(tree.threshold[i]), where))
    return found
