"""What the grower keeps of each level: the decisions always, the trace table unless told not
to, and the events of :mod:`id3tree.tracing` only when a tracer listens."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from id3tree import tracing
from id3tree._entropy import entropy_rows
from id3tree.node import (
    LEFT,
    MISSING,
    NUMERIC_MISSING,
    RIGHT,
    Node,
    condensed_path,
    format_number,
    plural,
    tied_classes,
)
from id3tree.splits import class_counts, enumerate_thresholds


@dataclass
class GrownTree:
    """A tree as flat arrays, nodes in pre-order (depth first, 0 is the root): the order a
    reader follows, each node followed by its whole subtree before its next sibling.

    It is also how a fitted model keeps its tree: :class:`~id3tree.node.Node` objects are made
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

    def to_nodes(self, data) -> Node:
        """Node objects from the flat arrays (per-node values computed in bulk first); the root."""
        return self.nodes(data.names, data.categories, data.classes)[0]

    def nodes(self, names: list, categories: list, classes: list) -> list[Node]:
        """Every node as a linked :class:`Node`, by position (the root first).
        ``categories[f]`` lists feature f's values, None for a numeric feature."""
        counts = self.counts.tolist()
        n_samples = self.counts.sum(axis=1).tolist()
        majority = np.argmax(self.counts, axis=1).tolist()
        feature, threshold, gain = (
            self.feature.tolist(),
            self.threshold.tolist(),
            self.gain.tolist(),
        )
        entropy, depth = self.entropy.tolist(), self.depth.tolist()
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
                    slot[c] = len(categories[f]) if key is MISSING else value_slot[f][key]
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


# ---------------------------------------------------------------------------------------------
# why a node stops, in words (shared by every grower, so their trees compare equal)
# ---------------------------------------------------------------------------------------------
def stop_reasons(counts: np.ndarray, depth: int, params, n_rows=None) -> np.ndarray:
    """Why each node of a level stops before any scoring (None where it will be scored).

    ``n_rows``, the rows of each node, is given when the counts are sums of weights: the
    ``min_samples_*`` rules count rows, as in scikit-learn, and ``min_weight_leaf`` weighs."""
    sizes, min_leaf = counts.sum(axis=1), params.min_samples_leaf
    reasons = np.full(len(counts), None, dtype=object)
    min_weight = getattr(params, "min_weight_leaf", 0.0)
    if min_weight > 0:
        reasons[sizes < 2 * min_weight] = (
            f"a weight of less than {2 * min_weight:g}, too little for two branches of "
            f"min_weight_fraction_leaf"
        )
    if n_rows is not None:
        sizes = n_rows
    reasons[sizes < 2 * min_leaf] = (
        f"fewer than {2 * min_leaf} samples, too few for two branches of "
        f"min_samples_leaf = {min_leaf}"
    )
    reasons[sizes < params.min_samples_split] = (
        f"fewer than min_samples_split = {params.min_samples_split} samples"
    )
    if depth >= params.max_depth:
        reasons[:] = f"max_depth = {depth} reached"
    reasons[(counts > 0).sum(axis=1) <= 1] = "pure, every sample is of one class"
    return reasons


NO_VALID_SPLIT = "no feature offers a valid split"


def low_gain_reason(gain: float, min_gain: float) -> str:
    return f"the best gain, {gain:.4f}, is below min_gain = {min_gain:g}"


def not_significant_reason(p: float, alpha: float) -> str:
    return f"the split is not significant: chi-square p = {p:.4g} is not below alpha = {alpha:g}"


def slot_label(data, f: int, slot: int, threshold: float) -> str:
    """A branch as a short label: ``Sunny``, ``<= 2.45``, ``> 2.45`` or ``missing``."""
    if data.codes[f] is not None:
        categories = data.categories[f]
        return "missing" if slot == len(categories) else str(categories[slot])
    t = format_number(threshold, tracing.DECIMALS)
    return {LEFT: f"<= {t}", RIGHT: f"> {t}"}.get(slot, "missing")


def slot_step(data, f: int, slot: int, threshold: float) -> tuple[str, str, object]:
    """A branch as a ``(feature, op, value)`` step of :func:`~id3tree.node.condensed_path`."""
    name = data.names[f]
    if data.codes[f] is not None:
        categories = data.categories[f]
        if slot == len(categories):
            return name, "missing", None
        return name, "=", categories[slot]
    if slot == NUMERIC_MISSING:
        return name, "missing", None
    return name, "<=" if slot == LEFT else ">", threshold


_THRESHOLD_FIELDS = (
    "threshold",
    "low",
    "high",
    "n_left",
    "n_right",
    "entropy_left",
    "entropy_right",
    "overall_entropy",
    "gain",
)


@dataclass
class _Details:
    """What the trace needs of one level beyond the decisions (kept only when a tracer listens),
    computed for the whole level at once and kept as Python lists, so that writing the events
    node by node costs no numpy call per branch."""

    level: Level
    counts: list  # per node: its class counts
    entropy: list  # per node: its entropy
    scores: dict  # name -> per scored node, per feature: gain, ratio, overall, threshold, ...
    branches: dict  # feature -> per scored node: [(label, counts, n, entropy), ...]
    reasons: dict  # (scored node, feature) -> why the feature has no valid split there
    thresholds: dict  # numeric feature -> (columns of the kept thresholds, totals per node)


class Record:
    """Collects each :class:`Level` and turns the whole growth into a :class:`GrownTree`.

    When a tracer listens, the levels are kept too, and once the tree is finished (and numbered
    in pre-order) :meth:`finish` sends the events node by node in reading order.
    """

    def __init__(self, tracer, data, *, keep_trace: bool | str = True, min_leaf: int = 1):
        self.tracer, self.data, self.keep_trace = tracer, data, keep_trace
        self.min_leaf = min_leaf
        self.max_thresholds = getattr(tracer, "max_thresholds", 0) if tracer is not None else 0
        self.split_parts, self.leaf_parts, self.trace_parts = [], [], []
        self.details: list[_Details] = []

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
            self._keep_details(lv)

    def _keep_trace(self, lv: Level) -> None:
        """The trace: one row per (scored node, candidate feature), one per unscored leaf; with
        ``keep_trace="splits"`` one row per node, its chosen split (a leaf: no feature)."""
        s = lv.scores
        if self.keep_trace == "splits":
            e = np.flatnonzero(lv.splitting)
            f = lv.chosen[e]
            unscored = np.concatenate([lv.nodes[~lv.eligible], lv.ids[~lv.splitting]])
        else:
            e, f = np.nonzero(s.candidate)
            unscored = lv.nodes[~lv.eligible]
        m = len(unscored)

        def column(values):
            if values is None:  # a grower that does not provide this column
                return np.full(m + len(e), np.nan)
            return np.concatenate([np.full(m, np.nan), values[e, f]])

        self.trace_parts.append(
            dict(
                node=np.concatenate([unscored, lv.ids[e]]),
                feature=np.concatenate([np.full(m, -1), f]),
                threshold=column(s.threshold),
                low=column(getattr(s, "low", None)),
                high=column(getattr(s, "high", None)),
                overall_entropy=column(getattr(s, "overall", None)),
                gain=column(s.gain),
                gain_ratio=column(s.ratio),
                chosen=np.concatenate([np.zeros(m, bool), lv.splitting[e] & (lv.chosen[e] == f)]),
                tie=np.concatenate([np.zeros(m, bool), s.tied[e, f] & (s.tied[e].sum(axis=1) > 1)]),
            )
        )

    def _keep_details(self, lv: Level) -> None:
        """Keep what the events of this level's nodes will say, computed level-wide: the
        branches of every candidate, why a candidate has no valid split (from the sorted rows,
        which are not kept) and, for ``verbose=2``, the best thresholds."""
        data, k, s = self.data, len(lv.ids), lv.scores
        names = data.names
        nan = np.full(s.gain.shape, np.nan)
        scores = {
            name: getattr(s, attr, nan).tolist()
            for name, attr in (
                ("gain", "gain"),
                ("ratio", "ratio"),
                ("overall", "overall"),
                ("threshold", "threshold"),
                ("low", "low"),
                ("high", "high"),
            )
        }
        invalid = s.candidate & np.isnan(s.gain)
        branches, reasons, thresholds = {}, {}, {}
        segment = np.repeat(np.arange(k), lv.sizes)
        for f, table in getattr(s, "branch_tables", {}).items():  # dense (k, slots, classes)
            branches[f] = self._dense_branches(f, table, s.gain[:, f], s.threshold[:, f])
            for e in np.flatnonzero(invalid[:, f]).tolist():
                if data.codes[f] is not None and (table[e].sum(axis=1) > 0).sum() < 2:
                    reasons[e, f] = f"all {plural(int(lv.sizes[e]), 'sample')} have the same value"
        for f, result in getattr(s, "results", {}).items():
            name = names[f]
            per_node = [[] for _ in range(k)]
            if data.codes[f] is None:
                counts = result.side_counts.tolist()  # (k, 3, n_classes)
                entropy = entropy_rows(result.side_counts).tolist()
                for e in np.flatnonzero(~np.isnan(s.gain[:, f])).tolist():
                    t = format_number(s.threshold[e, f], tracing.DECIMALS)
                    labels = (f"{name} <= {t}", f"{name} > {t}", f"{name} is missing")
                    for slot in (LEFT, RIGHT, NUMERIC_MISSING):
                        n = sum(counts[e][slot])
                        if n or slot != NUMERIC_MISSING:
                            per_node[e].append((labels[slot], counts[e][slot], n, entropy[e][slot]))
                branches[f] = per_node
                if f not in lv.orders:
                    continue
                o = lv.orders[f]
                v = data.numeric[f][o]
                present = ~np.isnan(v)
                n_present = np.bincount(segment, weights=present, minlength=k)
                new_value = present.copy()
                new_value[1:] &= (v[1:] != v[:-1]) | (segment[1:] != segment[:-1])
                n_distinct = np.bincount(segment, weights=new_value, minlength=k)
                for e in np.flatnonzero(invalid[:, f]).tolist():
                    reasons[e, f] = self._numeric_reason(
                        int(lv.sizes[e]), int(n_present[e]), int(n_distinct[e]), result.found[e]
                    )
                if self.max_thresholds != 0:
                    w = None if data.weight is None else data.weight[o]
                    thresholds[f] = self._best_thresholds(v, data.y[o], lv, w)
            else:
                n_levels = len(data.categories[f]) + 1
                keys = result.branch_keys.tolist()
                table = result.table.tolist()
                entropy = entropy_rows(result.table).tolist()
                categories = data.categories[f]
                for j, key in enumerate(keys):
                    e, code = divmod(key, n_levels)
                    label = (
                        f"{name} is missing"
                        if code == n_levels - 1
                        else f"{name} = {categories[code]}"
                    )
                    per_node[e].append((label, table[j], sum(table[j]), entropy[j]))
                for e in np.flatnonzero(invalid[:, f]).tolist():
                    n = plural(int(lv.sizes[e]), "sample")
                    reasons[e, f] = (
                        f"all {n} have the same value"
                        if result.n_branches[e] < 2
                        else f"a branch would hold fewer than min_samples_leaf = {self.min_leaf} "
                        "samples"
                    )
            branches[f] = per_node
        self.details.append(
            _Details(
                replace(lv, orders={}),
                lv.counts.tolist(),
                entropy_rows(lv.counts).tolist(),
                scores,
                branches,
                reasons,
                thresholds,
            )
        )

    def _dense_branches(self, f: int, table, gain, threshold) -> list:
        """Per node, the branches of feature ``f`` from a dense ``(k, slots, classes)`` table."""
        data, name = self.data, self.data.names[f]
        entropy = entropy_rows(table).tolist()
        counts = table.tolist()
        per_node = [[] for _ in range(len(table))]
        for e in np.flatnonzero(~np.isnan(gain)).tolist():
            if data.codes[f] is None:
                t = format_number(threshold[e], tracing.DECIMALS)
                labels = [f"{name} <= {t}", f"{name} > {t}", f"{name} is missing"]
            else:
                labels = [f"{name} = {c}" for c in data.categories[f]] + [f"{name} is missing"]
            for slot, row in enumerate(counts[e]):
                n = sum(row)
                if n or (data.codes[f] is None and slot != NUMERIC_MISSING):
                    per_node[e].append((labels[slot], row, n, entropy[e][slot]))
        return per_node

    def _numeric_reason(self, n: int, present: int, distinct: int, found: bool) -> str:
        """Why a numeric feature offers no valid split at a node of ``n`` rows, in words."""
        m = self.min_leaf
        if present == 0:
            return f"its value is missing in all {plural(n, 'sample')}"
        if distinct < 2:
            if present == n:
                return f"all {plural(n, 'sample')} have the same value"
            return f"all {present} samples where it is known have the same value"
        if not found:
            return f"every threshold leaves fewer than min_samples_leaf = {m} samples on a side"
        return (
            f"the missing-values branch would hold {plural(n - present, 'sample')}, "
            f"fewer than min_samples_leaf = {m}"
        )

    def _best_thresholds(self, v, y, lv: Level, weight=None):
        """Every threshold of every node, best (lowest overall entropy) first; only the first
        ``max_thresholds`` of each node are kept, with the number each node has."""
        cols = enumerate_thresholds(v, y, lv.starts, lv.sizes, len(self.data.classes), weight)
        seg = cols["segment"]
        totals = np.bincount(seg, minlength=len(lv.ids))
        order = np.lexsort((cols["threshold"], cols["overall_entropy"], seg))
        if self.max_thresholds is not None:
            first = np.searchsorted(seg[order], seg[order])  # the first row of each node
            order = order[np.arange(len(order)) - first < self.max_thresholds]
        seg = seg[order]
        bounds = np.searchsorted(seg, np.arange(len(lv.ids) + 1)).tolist()
        rows = list(zip(*(cols[c][order].tolist() for c in _THRESHOLD_FIELDS)))
        return rows, bounds, totals.tolist()

    # -----------------------------------------------------------------------------------------
    # the events, in reading order
    # -----------------------------------------------------------------------------------------
    def _replay(self, new: np.ndarray, parent: np.ndarray) -> None:
        """Send the events of every node in pre-order, with pre-order numbers."""
        starts = np.array([int(d.level.nodes[0]) for d in self.details])
        e_of = [np.cumsum(d.level.eligible) - 1 for d in self.details]
        first_child = [
            np.searchsorted(d.level.parent, np.arange(len(d.level.ids) + 1)) for d in self.details
        ]
        paths = {0: []}
        for old in np.argsort(new).tolist():
            j = int(np.searchsorted(starts, old, side="right")) - 1
            d = self.details[j]
            i = old - int(starts[j])
            e = int(e_of[j][i]) if d.level.eligible[i] else None
            steps = paths.pop(old)
            for child, child_steps in self._node_events(
                d, i, e, int(new[old]), parent, steps, first_child[j]
            ):
                paths[child] = child_steps
        self.details = []

    def _node_events(self, d: _Details, i, e, number, parent, steps, first_child):
        """Send one node's events; return its children (grower's numbers) with their paths."""
        lv, data, emit = d.level, self.data, self.tracer
        names, classes = data.names, data.classes
        counts = d.counts[i]
        class_counts = dict(zip(classes, counts))
        n = sum(counts)
        entropy = d.entropy[i]
        p = int(parent[number])
        path = tuple(condensed_path(steps, tracing.DECIMALS))
        emit(
            tracing.NodeStarted(
                number, None if p < 0 else p, lv.depth, path, class_counts, n, entropy
            )
        )
        prediction = classes[counts.index(max(counts))]
        tied = tuple(tied_classes(class_counts))
        if e is None:
            emit(tracing.LeafMade(number, lv.depth, prediction, class_counts, lv.reasons[i], tied))
            return []
        s = lv.scores
        for f in np.flatnonzero(s.candidate[e]).tolist():
            emit(self._candidate(d, e, f, number, n, entropy))
            if f in d.thresholds:
                self._thresholds(d, e, f, number)
        if not lv.splitting[e]:
            reason = lv.reasons[i]
            if reason == NO_VALID_SPLIT:
                reason += ", as each candidate above says"
            emit(tracing.LeafMade(number, lv.depth, prediction, class_counts, reason, tied))
            return []
        f = int(lv.chosen[e])
        threshold = d.scores["threshold"][e][f]
        branches, children = [], []
        for c in range(first_child[e], first_child[e + 1]):
            slot = int(lv.child_slot[c])
            branches.append((slot_label(data, f, slot, threshold), lv.child_sizes[c].item()))
            children.append((int(lv.children[c]), [*steps, slot_step(data, f, slot, threshold)]))
        tied_with = tuple(names[g] for g in np.flatnonzero(s.tied[e]) if g != f)
        emit(
            tracing.SplitChosen(
                number,
                lv.depth,
                names[f],
                _or_none(threshold),
                d.scores["gain"][e][f],
                d.scores["ratio"][e][f],
                lv.criterion,
                tied_with,
                int(s.n_ties[e, f]) if data.codes[f] is None else 1,
                tuple(branches),
            )
        )
        return children

    def _thresholds(self, d: _Details, e: int, f: int, number: int) -> None:
        """The best thresholds of numeric feature ``f`` at scored node ``e`` (``verbose=2``)."""
        rows, bounds, totals = d.thresholds[f]
        lo, hi = bounds[e], bounds[e + 1]
        name, depth = self.data.names[f], d.level.depth
        for rank, j in enumerate(range(lo, hi), start=1):
            self.tracer(tracing.ThresholdScored(number, depth, name, rank, *rows[j]))
        if totals[e] > hi - lo:
            self.tracer(tracing.ThresholdsOmitted(number, depth, name, totals[e] - hi + lo))

    def _candidate(self, d: _Details, e: int, f: int, number: int, n: int, entropy: float):
        """The event of feature ``f`` scored at scored node ``e``: its branches and numbers."""
        classes = self.data.classes
        sc = d.scores
        gain = _or_none(sc["gain"][e][f])
        branches = tuple(
            tracing.Branch(label, dict(zip(classes, counts)), size, h)
            for label, counts, size, h in (d.branches[f][e] if f in d.branches else ())
        )
        return tracing.CandidateScored(
            number,
            d.level.depth,
            self.data.names[f],
            "numeric" if self.data.codes[f] is None else "categorical",
            n,
            entropy,
            gain,
            _or_none(sc["ratio"][e][f]),
            _or_none(sc["overall"][e][f]),
            _or_none(sc["threshold"][e][f]),
            _or_none(sc["low"][e][f]),
            _or_none(sc["high"][e][f]),
            branches,
            d.level.criterion,
            d.reasons.get((e, f)),
        )

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
            self._replay(new, grown.parent)
        return grown


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
    value = float(value)
    return None if value != value else value


def candidate_table(data, rows: np.ndarray, f: int, *, min_leaf: int = 1, best=None):
    """Every candidate split of feature ``f`` over the training rows ``rows`` (one node's rows),
    as the columns of a table: every threshold of a numeric feature, every value of a
    categorical one. ``best`` is the threshold the learner kept, marked in the ``best`` column.
    For a weighted fit (``data.weight``) every count is a sum of weights; ``valid`` still counts
    rows against ``min_leaf``."""
    classes, n_classes = data.classes, len(data.classes)
    y = data.y[rows]
    w = None if data.weight is None else data.weight[rows]
    if data.codes[f] is not None:
        n_levels = len(data.categories[f]) + 1
        table = class_counts(data.codes[f][rows] * n_classes + y, n_levels, n_classes, w)
        present = np.flatnonzero(table.sum(axis=1))
        table = table[present]
        sizes = table.sum(axis=1)
        entropy = entropy_rows(table)
        weight = sizes / sizes.sum()  # the node's rows (or weight) are never empty
        columns = {"value": [data.categories[f][c] if c < n_levels - 1 else None for c in present]}
        columns["n_samples"] = sizes
        columns |= {f"n_{c}": table[:, k] for k, c in enumerate(classes)}
        columns |= {"entropy": entropy, "weight": weight, "weighted_entropy": weight * entropy}
        return columns
    x = data.numeric[f][rows]
    order = np.argsort(x, kind="stable")  # missing values last
    x, y = x[order], y[order]
    w = None if w is None else w[order]
    cols = enumerate_thresholds(x, y, np.array([0]), np.array([len(x)]), n_classes, w)
    cols.pop("segment")
    known = ~np.isnan(x)
    rows_missing = int((~known).sum())
    missing = class_counts(y[~known], 1, n_classes, None if w is None else w[~known])[0]
    n_missing = missing.sum().item()
    columns = {c: cols[c] for c in ("threshold", "low", "high", "n_left", "n_right")}
    columns["n_missing"] = np.full(len(cols["threshold"]), n_missing)
    rows_left = np.searchsorted(x[known], cols["threshold"], side="right")  # rows <= threshold
    one_hot = y[known][:, None] == np.arange(n_classes)
    if w is not None:
        one_hot = one_hot * w[known][:, None]
    before = np.zeros((int(known.sum()) + 1, n_classes), dtype=np.int64 if w is None else float)
    np.cumsum(one_hot, axis=0, out=before[1:])
    left = [before[rows_left, k] for k in range(n_classes)]
    columns |= {f"left_{c}": left[k] for k, c in enumerate(classes)}
    total = before[-1]
    columns |= {f"right_{c}": total[k] - left[k] for k, c in enumerate(classes)}
    if n_missing:
        size = len(cols["threshold"])
        columns |= {f"missing_{c}": np.full(size, missing[k]) for k, c in enumerate(classes)}
    columns["entropy_left"], columns["entropy_right"] = cols["entropy_left"], cols["entropy_right"]
    if n_missing:
        columns["entropy_missing"] = np.full(len(cols["threshold"]), float(entropy_rows(missing)))
    columns["overall_entropy"], columns["gain"] = cols["overall_entropy"], cols["gain"]
    columns["valid"] = (
        (rows_left >= min_leaf)
        & (int(known.sum()) - rows_left >= min_leaf)
        & ((rows_missing == 0) | (rows_missing >= min_leaf))
    )
    columns["best"] = cols["threshold"] == best if best is not None else columns["valid"] & False
    return columns
