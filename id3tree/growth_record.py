"""What the grower keeps of each level: the decisions always, the trace table unless told not
to, and the events of :mod:`id3tree.tracing` only when a tracer listens."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from id3tree import tracing
from id3tree._entropy import entropy_rows
from id3tree.node import LEFT, MISSING, RIGHT, Node, format_number
from id3tree.splits import enumerate_thresholds


@dataclass
class GrownTree:
    """A tree as flat arrays, nodes in pre-order (depth first, 0 is the root): the order a
    reader follows, each node followed by its whole subtree before its next sibling."""

    parent: np.ndarray
    slot: np.ndarray  # the branch slot of this node in its parent
    depth: np.ndarray
    counts: np.ndarray  # (n_nodes, n_classes)
    entropy: np.ndarray
    feature: np.ndarray  # -1 for a leaf
    threshold: np.ndarray  # NaN unless a numeric split
    gain: np.ndarray  # NaN for a leaf
    stop_reason: list
    trace: dict | None = field(default_factory=dict)  # columns of the per-candidate trace

    def to_nodes(self, data) -> Node:
        """Node objects from the flat arrays (per-node values computed in bulk first); the root."""
        classes = data.classes
        counts = self.counts.tolist()
        n_samples = self.counts.sum(axis=1).tolist()
        majority = np.argmax(self.counts, axis=1).tolist()
        feature, threshold, gain = (
            self.feature.tolist(),
            self.threshold.tolist(),
            self.gain.tolist(),
        )
        entropy, depth = self.entropy.tolist(), self.depth.tolist()
        names, numeric = data.names, [c is None for c in data.codes]
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
                node_id=i,
                stop_reason=self.stop_reason[i],
            )
            for i, f in enumerate(feature)
        ]
        for i, (p, slot) in enumerate(zip(self.parent.tolist(), self.slot.tolist())):
            if p < 0:
                continue
            f = feature[p]
            if numeric[f]:
                key = {0: "<=", 1: ">"}.get(slot, MISSING)
            else:
                key = MISSING if slot == len(data.categories[f]) else data.categories[f][slot]
            nodes[p].children[key] = nodes[i]
        return nodes[0]


@dataclass
class Level:
    """One level of growth: its nodes, their scores and decisions, and the children made.

    Arrays over ``nodes`` have one entry per node of the level; arrays over ``ids`` (the nodes
    that were scored, ``eligible``) one per scored node; ``parent``, ``child_slot`` and
    ``child_sizes`` one per child, in order.
    """

    depth: int
    nodes: np.ndarray
    counts: np.ndarray
    reasons: np.ndarray  # why each node is a leaf, None where it splits
    eligible: np.ndarray
    ids: np.ndarray
    scores: object  # grow.Scores
    chosen: np.ndarray
    splitting: np.ndarray
    criterion: str
    children: np.ndarray
    parent: np.ndarray  # index into ids of each child's parent
    child_slot: np.ndarray
    child_sizes: np.ndarray
    orders: dict  # numeric feature -> its rows sorted within each scored node
    starts: np.ndarray
    sizes: np.ndarray


def slot_label(data, f: int, slot: int, threshold: float) -> str:
    """A branch as a short label: ``Sunny``, ``<= 2.45``, ``> 2.45`` or ``missing``."""
    if data.codes[f] is not None:
        categories = data.categories[f]
        return "missing" if slot == len(categories) else str(categories[slot])
    labels = {LEFT: f"<= {format_number(threshold)}", RIGHT: f"> {format_number(threshold)}"}
    return labels.get(slot, "missing")


_THRESHOLD_FIELDS = (
    "threshold",
    "n_left",
    "n_right",
    "entropy_left",
    "entropy_right",
    "overall_entropy",
    "gain",
)


class Record:
    """Collects each :class:`Level` and turns the whole growth into a :class:`GrownTree`."""

    def __init__(self, tracer, data, *, keep_trace: bool = True):
        self.tracer, self.data, self.keep_trace = tracer, data, keep_trace
        self.thresholds = tracer is not None and getattr(tracer, "thresholds", False)
        self.paths = {0: ()}
        self.split_parts, self.leaf_parts, self.trace_parts = [], [], []
        self.buffer = []  # events in the order of growth, replayed in reading order at the end

    def level(self, lv: Level) -> None:
        s = lv.scores
        e_split = np.flatnonzero(lv.splitting)
        f_split = lv.chosen[e_split]
        self.split_parts.append(
            (lv.ids[e_split], f_split, s.threshold[e_split, f_split], s.gain[e_split, f_split])
        )
        leaf = np.array([r is not None for r in lv.reasons], dtype=bool)
        self.leaf_parts.append((lv.nodes[leaf], lv.reasons[leaf]))
        if self.keep_trace:
            self._keep_trace(lv)
        if self.tracer is not None:
            self._emit(lv)

    def _keep_trace(self, lv: Level) -> None:
        """The trace: one row per (scored node, candidate feature), one per unscored leaf."""
        s = lv.scores
        e, f = np.nonzero(s.candidate)
        unscored = lv.nodes[~lv.eligible]
        m = len(unscored)
        self.trace_parts.append(
            dict(
                node=np.concatenate([unscored, lv.ids[e]]),
                feature=np.concatenate([np.full(m, -1), f]),
                gain=np.concatenate([np.full(m, np.nan), s.gain[e, f]]),
                gain_ratio=np.concatenate([np.full(m, np.nan), s.ratio[e, f]]),
                threshold=np.concatenate([np.full(m, np.nan), s.threshold[e, f]]),
                chosen=np.concatenate([np.zeros(m, bool), lv.splitting[e] & (lv.chosen[e] == f)]),
                tie=np.concatenate([np.zeros(m, bool), s.tied[e, f] & (s.tied[e].sum(axis=1) > 1)]),
            )
        )

    def _emit(self, lv: Level) -> None:
        """Send the level's events, node by node: started, candidates, decision."""
        data, emit, s = self.data, self.buffer.append, lv.scores
        names, classes = data.names, data.classes
        tables = {}
        if self.thresholds:  # verbose=2: every candidate threshold of every numeric feature
            for f, o in lv.orders.items():
                cols = enumerate_thresholds(
                    data.numeric[f][o], data.y[o], lv.starts, lv.sizes, len(classes)
                )
                tables[f] = (cols, np.searchsorted(cols["segment"], np.arange(len(lv.ids) + 1)))
        first_child = np.searchsorted(lv.parent, np.arange(len(lv.ids) + 1))
        entropy = entropy_rows(lv.counts)
        e = -1
        for i, node in enumerate(lv.nodes.tolist()):
            class_counts = {c: int(v) for c, v in zip(classes, lv.counts[i])}
            n = int(lv.counts[i].sum())
            path = self.paths.pop(node)  # the tests on the way here, kept only until used
            emit(tracing.NodeStarted(node, lv.depth, path, class_counts, n, float(entropy[i])))
            prediction = classes[int(np.argmax(lv.counts[i]))]
            if not lv.eligible[i]:
                emit(tracing.LeafMade(node, lv.depth, prediction, class_counts, lv.reasons[i]))
                continue
            e += 1
            for f in np.flatnonzero(s.candidate[e]):
                if f in tables:
                    cols, bounds = tables[f]
                    for j in range(bounds[e], bounds[e + 1]):
                        values = (cols[c][j].item() for c in _THRESHOLD_FIELDS)
                        emit(tracing.ThresholdScored(node, lv.depth, names[f], *values))
                emit(
                    tracing.CandidateScored(
                        node,
                        lv.depth,
                        names[f],
                        _or_none(s.gain[e, f]),
                        _or_none(s.threshold[e, f]),
                        _or_none(s.ratio[e, f]),
                        lv.criterion,
                    )
                )
            if not lv.splitting[e]:
                emit(tracing.LeafMade(node, lv.depth, prediction, class_counts, lv.reasons[i]))
                continue
            f = int(lv.chosen[e])
            threshold = s.threshold[e, f]
            branches = []
            for c in range(first_child[e], first_child[e + 1]):
                label = slot_label(data, f, int(lv.child_slot[c]), threshold)
                branches.append((label, int(lv.child_sizes[c])))
                if label == "missing":
                    test = f"{names[f]} is missing"
                else:
                    test = (
                        f"{names[f]} {label}" if data.codes[f] is None else f"{names[f]} = {label}"
                    )
                self.paths[int(lv.children[c])] = (*path, test)
            tied = tuple(names[g] for g in np.flatnonzero(s.tied[e]) if g != f)
            emit(
                tracing.SplitChosen(
                    node,
                    lv.depth,
                    names[f],
                    _or_none(threshold),
                    float(s.gain[e, f]),
                    float(s.ratio[e, f]),
                    lv.criterion,
                    tied,
                    int(s.n_ties[e, f]) if data.codes[f] is None else 1,
                    tuple(branches),
                )
            )

    def _replay(self, new: np.ndarray) -> None:
        """Send the buffered events node by node in pre-order, with pre-order numbers."""
        by_node = {}
        for event in self.buffer:
            by_node.setdefault(event.node, []).append(event)
        self.buffer = []
        for old in np.argsort(new).tolist():
            for event in by_node.pop(old, ()):
                self.tracer(_renumbered(event, new))

    def finish(self, parent, slot, depth, counts) -> GrownTree:
        parent, slot = np.concatenate(parent), np.concatenate(slot)
        depth, counts = np.concatenate(depth), np.concatenate(counts)
        n = len(parent)
        feature = np.full(n, -1, dtype=np.int64)
        threshold = np.full(n, np.nan)
        gain = np.full(n, np.nan)
        for ids, f, t, g in self.split_parts:
            feature[ids], threshold[ids], gain[ids] = f, t, g
        stop_reason = [None] * n
        for ids, reasons in self.leaf_parts:
            for i, r in zip(ids.tolist(), reasons):
                stop_reason[i] = r
        trace = None
        if self.trace_parts:
            trace = {
                c: np.concatenate([p[c] for p in self.trace_parts]) for c in self.trace_parts[0]
            }
        # The grower numbers nodes level by level; readers number them depth first.
        new = preorder(parent, depth)
        order = np.argsort(new)
        parent = np.where(parent >= 0, new[np.maximum(parent, 0)], -1)[order]
        if trace is not None:
            trace["node"] = new[trace["node"]]
        stop_reason = [stop_reason[i] for i in order.tolist()]
        grown = GrownTree(
            parent,
            slot[order],
            depth[order],
            counts[order],
            entropy_rows(counts[order]),
            feature[order],
            threshold[order],
            gain[order],
            stop_reason,
            trace,
        )
        if self.tracer is not None:
            self._replay(new)
        return grown


def _renumbered(event, new):
    return replace(event, node=int(new[event.node]))


def preorder(parent: np.ndarray, depth: np.ndarray) -> np.ndarray:
    """The pre-order number of every node of a tree numbered level by level.

    ``parent[i]`` is node i's parent (-1 for the root) and siblings are numbered consecutively in
    branch order, as the grower makes them. A node's number is its parent's, plus one, plus the
    sizes of the subtrees of its earlier siblings; subtree sizes are summed bottom up, one level
    at a time, so deep trees need no recursion.
    """
    n = len(parent)
    size = np.ones(n, dtype=np.int64)
    bounds = np.searchsorted(depth, np.arange(int(depth.max(initial=0)) + 2))  # levels are runs
    for d in range(len(bounds) - 2, 0, -1):
        kids = np.arange(bounds[d], bounds[d + 1])
        np.add.at(size, parent[kids], size[kids])
    number = np.zeros(n, dtype=np.int64)
    for d in range(1, len(bounds) - 1):
        kids = np.arange(bounds[d], bounds[d + 1])
        if not len(kids):
            continue
        p = parent[kids]
        before = np.cumsum(size[kids]) - size[kids]  # subtree sizes of the siblings before
        first = np.r_[True, p[1:] != p[:-1]]
        group_start = np.maximum.accumulate(np.where(first, np.arange(len(kids)), 0))
        number[kids] = number[p] + 1 + before - before[group_start]
    return number


def _or_none(value) -> float | None:
    return None if np.isnan(value) else float(value)
