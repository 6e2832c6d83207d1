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
    """What the trace needs of one level beyond the decisions (kept only when a tracer listens):
    what only the sorted rows can tell, since they are not kept."""

    level: Level
    n_distinct: dict  # numeric feature -> distinct non-missing values per scored node
    n_present: dict  # numeric feature -> non-missing values per scored node
    thresholds: dict  # numeric feature -> (columns of the kept thresholds, totals per node)


class Record:
    """Collects each :class:`Level` and turns the whole growth into a :class:`GrownTree`.

    When a tracer listens, the levels are kept too, and once the tree is finished (and numbered
    in pre-order) :meth:`finish` sends the events node by node in reading order.
    """

    def __init__(self, tracer, data, *, keep_trace: bool = True, min_leaf: int = 1):
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
        """The trace: one row per (scored node, candidate feature), one per unscored leaf."""
        s = lv.scores
        e, f = np.nonzero(s.candidate)
        unscored = lv.nodes[~lv.eligible]
        m = len(unscored)

        def column(values):
            return np.concatenate([np.full(m, np.nan), values[e, f]])

        self.trace_parts.append(
            dict(
                node=np.concatenate([unscored, lv.ids[e]]),
                feature=np.concatenate([np.full(m, -1), f]),
                threshold=column(s.threshold),
                low=column(s.low),
                high=column(s.high),
                overall_entropy=column(s.overall),
                gain=column(s.gain),
                gain_ratio=column(s.ratio),
                chosen=np.concatenate([np.zeros(m, bool), lv.splitting[e] & (lv.chosen[e] == f)]),
                tie=np.concatenate([np.zeros(m, bool), s.tied[e, f] & (s.tied[e].sum(axis=1) > 1)]),
            )
        )

    def _keep_details(self, lv: Level) -> None:
        """Keep the level for the trace, with the distinct values of each numeric feature per
        node and, for ``verbose=2``, the best thresholds."""
        data, k = self.data, len(lv.ids)
        n_distinct, n_present, thresholds = {}, {}, {}
        segment = np.repeat(np.arange(k), lv.sizes)
        for f, o in lv.orders.items():
            v = data.numeric[f][o]
            present = ~np.isnan(v)
            n_present[f] = np.bincount(segment, weights=present, minlength=k).astype(np.int64)
            new_value = present.copy()
            new_value[1:] &= (v[1:] != v[:-1]) | (segment[1:] != segment[:-1])
            n_distinct[f] = np.bincount(segment, weights=new_value, minlength=k).astype(np.int64)
            if self.max_thresholds != 0:
                thresholds[f] = self._best_thresholds(v, data.y[o], lv)
        self.details.append(_Details(replace(lv, orders={}), n_distinct, n_present, thresholds))

    def _best_thresholds(self, v, y, lv: Level):
        """Every threshold of every node, best (lowest overall entropy) first; only the first
        ``max_thresholds`` of each node are kept, with the number each node has."""
        cols = enumerate_thresholds(v, y, lv.starts, lv.sizes, len(self.data.classes))
        seg = cols["segment"]
        totals = np.bincount(seg, minlength=len(lv.ids))
        order = np.lexsort((cols["threshold"], cols["overall_entropy"], seg))
        if self.max_thresholds is not None:
            first = np.searchsorted(seg[order], seg[order])  # the first row of each node
            order = order[np.arange(len(order)) - first < self.max_thresholds]
        return {c: a[order] for c, a in cols.items()}, totals

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
        counts = lv.counts[i]
        class_counts = {c: int(v) for c, v in zip(classes, counts)}
        n = int(counts.sum())
        entropy = float(entropy_rows(counts))
        p = int(parent[number])
        path = tuple(condensed_path(steps, tracing.DECIMALS))
        emit(
            tracing.NodeStarted(
                number, None if p < 0 else p, lv.depth, path, class_counts, n, entropy
            )
        )
        prediction = classes[int(np.argmax(counts))]
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
            if reason == "no feature offers a valid split":
                reason += ", as each candidate above says"
            emit(tracing.LeafMade(number, lv.depth, prediction, class_counts, reason, tied))
            return []
        f = int(lv.chosen[e])
        threshold = s.threshold[e, f]
        branches, children = [], []
        for c in range(first_child[e], first_child[e + 1]):
            slot = int(lv.child_slot[c])
            branches.append((slot_label(data, f, slot, threshold), int(lv.child_sizes[c])))
            children.append((int(lv.children[c]), [*steps, slot_step(data, f, slot, threshold)]))
        tied_with = tuple(names[g] for g in np.flatnonzero(s.tied[e]) if g != f)
        emit(
            tracing.SplitChosen(
                number,
                lv.depth,
                names[f],
                _or_none(threshold),
                float(s.gain[e, f]),
                float(s.ratio[e, f]),
                lv.criterion,
                tied_with,
                int(s.n_ties[e, f]) if data.codes[f] is None else 1,
                tuple(branches),
            )
        )
        return children

    def _thresholds(self, d: _Details, e: int, f: int, number: int) -> None:
        """The best thresholds of numeric feature ``f`` at scored node ``e`` (``verbose=2``)."""
        cols, totals = d.thresholds[f]
        lo, hi = np.searchsorted(cols["segment"], [e, e + 1])
        name, depth = self.data.names[f], d.level.depth
        for rank, j in enumerate(range(lo, hi), start=1):
            values = (cols[c][j].item() for c in _THRESHOLD_FIELDS)
            self.tracer(tracing.ThresholdScored(number, depth, name, rank, *values))
        if totals[e] > hi - lo:
            self.tracer(tracing.ThresholdsOmitted(number, depth, name, int(totals[e] - hi + lo)))

    def _candidate(self, d: _Details, e: int, f: int, number: int, n: int, entropy: float):
        """The event of feature ``f`` scored at scored node ``e``: its branches and numbers."""
        lv, data = d.level, self.data
        s, classes = lv.scores, data.classes
        result = s.results[f]
        name = data.names[f]
        numeric = data.codes[f] is None
        gain = _or_none(s.gain[e, f])
        branches, reason = [], None
        if gain is None:
            reason = self._no_split_reason(d, e, f, n)
        elif numeric:
            t = format_number(s.threshold[e, f], tracing.DECIMALS)
            tests = {LEFT: f"{name} <= {t}", RIGHT: f"{name} > {t}"}
            for slot in (LEFT, RIGHT, NUMERIC_MISSING):
                row = result.side_counts[e, slot]
                if slot == NUMERIC_MISSING and not row.sum():
                    continue
                branches.append(_branch(tests.get(slot, f"{name} is missing"), row, classes))
        else:
            keys = result.branch_keys
            n_levels = len(data.categories[f]) + 1
            lo, hi = np.searchsorted(keys, [e * n_levels, (e + 1) * n_levels])
            for j in range(lo, hi):
                code = int(keys[j] % n_levels)
                label = (
                    f"{name} is missing"
                    if code == n_levels - 1
                    else f"{name} = {data.categories[f][code]}"
                )
                branches.append(_branch(label, result.table[j], classes))
        return tracing.CandidateScored(
            number,
            lv.depth,
            name,
            "numeric" if numeric else "categorical",
            n,
            entropy,
            gain,
            _or_none(s.ratio[e, f]),
            _or_none(s.overall[e, f]),
            _or_none(s.threshold[e, f]),
            _or_none(s.low[e, f]),
            _or_none(s.high[e, f]),
            tuple(branches),
            lv.criterion,
            reason,
        )

    def _no_split_reason(self, d: _Details, e: int, f: int, n: int) -> str:
        """Why feature ``f`` offers no valid split at scored node ``e``, in words."""
        result, m = d.level.scores.results[f], self.min_leaf
        if self.data.codes[f] is None:
            present, distinct = int(d.n_present[f][e]), int(d.n_distinct[f][e])
            if present == 0:
                return f"its value is missing in all {plural(n, 'sample')}"
            if distinct < 2:
                if present == n:
                    return f"all {plural(n, 'sample')} have the same value"
                return f"all {present} samples where it is known have the same value"
            if not result.found[e]:
                return f"every threshold leaves fewer than min_samples_leaf = {m} samples on a side"
            return (
                f"the missing-values branch would hold {plural(n - present, 'sample')}, "
                f"fewer than min_samples_leaf = {m}"
            )
        if result.n_branches[e] < 2:
            return f"all {plural(n, 'sample')} have the same value"
        return f"a branch would hold fewer than min_samples_leaf = {m} samples"

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


def _branch(label: str, counts, classes) -> tracing.Branch:
    counts = np.asarray(counts)
    return tracing.Branch(
        label,
        {c: int(v) for c, v in zip(classes, counts)},
        int(counts.sum()),
        float(entropy_rows(counts)),
    )


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


def candidate_table(data, rows: np.ndarray, f: int, *, min_leaf: int = 1, best=None):
    """Every candidate split of feature ``f`` over the training rows ``rows`` (one node's rows),
    as the columns of a table: every threshold of a numeric feature, every value of a
    categorical one. ``best`` is the threshold the learner kept, marked in the ``best`` column."""
    classes, n_classes = data.classes, len(data.classes)
    y = data.y[rows]
    if data.codes[f] is not None:
        n_levels = len(data.categories[f]) + 1
        table = np.bincount(data.codes[f][rows] * n_classes + y, minlength=n_levels * n_classes)
        table = table.reshape(n_levels, n_classes)
        present = np.flatnonzero(table.sum(axis=1))
        table = table[present]
        sizes = table.sum(axis=1)
        entropy = entropy_rows(table)
        weight = sizes / max(len(rows), 1)
        columns = {"value": [data.categories[f][c] if c < n_levels - 1 else None for c in present]}
        columns["n_samples"] = sizes
        columns |= {f"n_{c}": table[:, k] for k, c in enumerate(classes)}
        columns |= {"entropy": entropy, "weight": weight, "weighted_entropy": weight * entropy}
        return columns
    x = data.numeric[f][rows]
    order = np.argsort(x, kind="stable")  # missing values last
    x, y = x[order], y[order]
    cols = enumerate_thresholds(x, y, np.array([0]), np.array([len(x)]), n_classes)
    cols.pop("segment")
    known = ~np.isnan(x)
    n_missing = int((~known).sum())
    missing = np.bincount(y[~known], minlength=n_classes)
    columns = {c: cols[c] for c in ("threshold", "low", "high", "n_left", "n_right")}
    columns["n_missing"] = np.full(len(cols["threshold"]), n_missing)
    left = [np.cumsum(y[known] == k)[cols["n_left"] - 1] for k in range(n_classes)]
    columns |= {f"left_{c}": left[k] for k, c in enumerate(classes)}
    total = np.bincount(y[known], minlength=n_classes)
    columns |= {f"right_{c}": total[k] - left[k] for k, c in enumerate(classes)}
    if n_missing:
        size = len(cols["threshold"])
        columns |= {f"missing_{c}": np.full(size, missing[k]) for k, c in enumerate(classes)}
    columns["entropy_left"], columns["entropy_right"] = cols["entropy_left"], cols["entropy_right"]
    if n_missing:
        columns["entropy_missing"] = np.full(len(cols["threshold"]), float(entropy_rows(missing)))
    columns["overall_entropy"], columns["gain"] = cols["overall_entropy"], cols["gain"]
    columns["valid"] = (
        (cols["n_left"] >= min_leaf)
        & (cols["n_right"] >= min_leaf)
        & ((n_missing == 0) | (n_missing >= min_leaf))
    )
    columns["best"] = cols["threshold"] == best if best is not None else columns["valid"] & False
    return columns
