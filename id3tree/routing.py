"""Sending rows down a tree: the tree compiled to flat arrays, and a level-by-level router.

Every row starts at the root. At each step all rows that sit at an internal node move at once:
a numeric split sends a row to ``<=`` or ``>`` (or to the missing-values branch), a categorical
split to the branch of its value. A row stops early where its node has no branch for it (a
category never seen at that node, or a missing value where no training row was missing); its
prediction then comes from the class counts of the node where it stopped.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np

from id3tree.node import MISSING, Node

LEFT, RIGHT, NUMERIC_MISSING = 0, 1, 2
UNSEEN = -1
"""Code of a categorical value that was never seen at fit time."""


@dataclass
class CompiledTree:
    """A tree as arrays indexed by node position (breadth-first, root 0)."""

    nodes: list[Node]
    feature: np.ndarray  # feature index, -1 for a leaf
    threshold: np.ndarray  # NaN unless a numeric split
    categorical: np.ndarray  # bool: a categorical split
    offset: np.ndarray  # where the node's branch slots start in ``child``
    n_slots: np.ndarray
    child: np.ndarray  # node position of each slot's child, -1 where no branch
    counts: np.ndarray  # (n_nodes, n_classes)

    @classmethod
    def from_root(cls, root: Node, feature_names: list[str], categories: list[list | None], classes: list) -> CompiledTree:
        """Compile a tree of Nodes; ``categories[f]`` lists feature f's values (None if numeric)."""
        column = {name: i for i, name in enumerate(feature_names)}
        value_slot = [None if c is None else {v: i for i, v in enumerate(c)} for c in categories]
        nodes, queue = [], deque([root])
        while queue:  # breadth first, children in branch order
            node = queue.popleft()
            nodes.append(node)
            queue.extend(node.children.values())
        position = {id(node): i for i, node in enumerate(nodes)}
        n = len(nodes)
        feature = np.full(n, -1, dtype=np.int64)
        threshold = np.full(n, np.nan)
        categorical = np.zeros(n, dtype=bool)
        n_slots = np.zeros(n, dtype=np.int64)
        counts = np.array([[node.class_counts.get(c, 0) for c in classes] for node in nodes], dtype=float).reshape(n, len(classes))
        for i, node in enumerate(nodes):
            if node.is_leaf:
                continue
            f = feature[i] = column[node.feature]
            if node.is_numeric_split:
                threshold[i] = node.threshold
                n_slots[i] = 3
            else:
                categorical[i] = True
                n_slots[i] = len(categories[f]) + 1
        offset = np.concatenate([[0], np.cumsum(n_slots)[:-1]]).astype(np.int64)
        child = np.full(int(n_slots.sum()), -1, dtype=np.int64)
        for i, node in enumerate(nodes):
            for key, kid in node.children.items():
                if key is MISSING:
                    slot = n_slots[i] - 1
                elif categorical[i]:
                    slot = value_slot[feature[i]][key]
                else:
                    slot = LEFT if key == "<=" else RIGHT
                child[offset[i] + slot] = position[id(kid)]
        return cls(nodes, feature, threshold, categorical, offset, n_slots, child, counts)

    def route(self, columns: np.ndarray) -> np.ndarray:
        """The node position where each row stops. ``columns`` is ``(n_features, n_rows)``:
        numeric values (NaN missing), or category codes (``len(categories)`` for missing and
        ``UNSEEN`` for values never seen at fit time)."""
        n_rows = columns.shape[1]
        flat = columns.ravel()
        stop = np.zeros(n_rows, dtype=np.int64)
        rows = np.arange(n_rows)
        at = np.zeros(n_rows, dtype=np.int64)
        has_categorical = bool(self.categorical.any())
        while len(rows):
            f = self.feature[at]
            inner = f >= 0
            if not inner.all():
                stop[rows[~inner]] = at[~inner]
                rows, at, f = rows[inner], at[inner], f[inner]
                if not len(rows):
                    break
            value = flat[f * n_rows + rows]
            slot = np.where(value > self.threshold[at], RIGHT, LEFT)
            slot[np.isnan(value)] = NUMERIC_MISSING
            if has_categorical:
                is_cat = self.categorical[at]
                code = np.where(np.isnan(value), UNSEEN, value).astype(np.int64)
                slot = np.where(is_cat, code, slot)
            slot = np.where(slot >= self.n_slots[at], UNSEEN, slot)
            nxt = np.where(slot >= 0, self.child[self.offset[at] + np.maximum(slot, 0)], -1)
            gone = nxt < 0  # no branch for this row: it stops here
            if gone.any():
                stop[rows[gone]] = at[gone]
                rows, nxt = rows[~gone], nxt[~gone]
            at = nxt
        return stop

    def path(self, column_values: np.ndarray) -> list[tuple[int, int | None]]:
        """The positions one row visits, each with the slot it leaves by (None at the end)."""
        steps, at = [], 0
        while True:
            f = self.feature[at]
            if f < 0:
                steps.append((at, None))
                return steps
            value = column_values[f]
            if self.categorical[at]:
                slot = UNSEEN if np.isnan(value) else int(value)
            else:
                slot = NUMERIC_MISSING if np.isnan(value) else (RIGHT if value > self.threshold[at] else LEFT)
            nxt = self.child[self.offset[at] + slot] if 0 <= slot < self.n_slots[at] else -1
            steps.append((at, slot if nxt >= 0 else None))
            if nxt < 0:
                return steps
            at = int(nxt)
