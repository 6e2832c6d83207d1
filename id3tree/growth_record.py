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
    class_name,
    class_tie_note,
    format_counts,
    format_number,
    narrowed,
    path_word,
    plural,
    tied_classes,
)
from id3tree.splits import best_thresholds, class_counts, enumerate_thresholds


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


WRITE_EVERY = 2000
"""A printing tracer gets the trace in blocks of about this many lines."""

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


_SCORE_NAMES = ("gain", "ratio", "overall", "threshold", "low", "high")


def _none_if_nan(value: float) -> float | None:
    return None if value != value else value


@dataclass
class _Branches:
    """The branches of one feature's candidates at every scored node of a level, as flat
    columns: scored node e has the branches ``first[e]:first[e + 1]``."""

    first: list
    labels: list
    counts: np.ndarray  # (branches, classes)
    sizes: list
    entropy: list
    tests: dict = field(default_factory=dict)  # numeric: scored node -> its threshold, written

    def at(self, e: int):
        """``(label, counts, n_samples, entropy)`` of each branch of scored node ``e``."""
        a, b = self.first[e], self.first[e + 1]
        return zip(self.labels[a:b], self.counts[a:b].tolist(), self.sizes[a:b], self.entropy[a:b])


@dataclass
class _Decisions:
    """A level's decisions as Python lists, read node by node when the events are sent."""

    scored: list  # per node: its index among the scored nodes, None if it was not scored
    reasons: list  # per node: why it is a leaf, None where it splits
    splitting: list  # per scored node
    feature: list  # per scored node: the chosen feature
    gain: list  # per scored node: the chosen feature's gain, gain ratio and threshold
    ratio: list
    threshold: list  # None unless numeric
    n_ties: list  # per scored node: thresholds tied with the chosen one
    tied_with: dict  # scored node -> the other features its chosen feature tied with
    below_average: dict  # scored node -> (average gain, features C4.5's rule kept out)
    first_child: list  # scored node e has the children first_child[e]:first_child[e + 1]
    child: list
    child_slot: list
    child_size: list

    @classmethod
    def of(cls, lv: Level, names: list) -> _Decisions:
        s, k = lv.scores, len(lv.ids)
        e, f = np.arange(k), lv.chosen
        scored = np.where(lv.eligible, np.cumsum(lv.eligible) - 1, -1).tolist()
        tied_with = {
            e: tuple(names[g] for g in np.flatnonzero(s.tied[e]) if g != f[e])
            for e in np.flatnonzero(s.tied.sum(axis=1) > 1).tolist()
        }
        below_average = {
            e: (
                float(np.nanmean(s.gain[e])),
                tuple(names[g] for g in np.flatnonzero(s.below_average[e])),
            )
            for e in np.flatnonzero(s.below_average.any(axis=1)).tolist()
        }
        threshold = s.threshold[e, f].tolist()
        return cls(
            [None if i < 0 else i for i in scored],
            lv.reasons.tolist(),
            lv.splitting.tolist(),
            f.tolist(),
            s.gain[e, f].tolist(),
            s.ratio[e, f].tolist(),
            [_none_if_nan(t) for t in threshold],
            s.n_ties[e, f].tolist(),
            tied_with,
            below_average,
            np.searchsorted(lv.parent, np.arange(k + 1)).tolist(),
            lv.children.tolist(),
            lv.child_slot.tolist(),
            lv.child_sizes.tolist(),
        )


@dataclass
class _Details:
    """What the trace needs of one level beyond the decisions (kept only when a tracer listens),
    computed for the whole level at once. For a tracer that only prints, the candidates of each
    scored node are kept as their finished text (``text``) rather than as numbers."""

    level: Level
    counts: list  # per node: its class counts
    entropy: list  # per node: its entropy
    decisions: _Decisions
    scores: dict  # name -> per scored node, per feature: gain, ratio, overall, threshold, ...
    branches: dict  # feature -> its _Branches
    reasons: dict  # (scored node, feature) -> why the feature has no valid split there
    thresholds: dict  # numeric feature -> (columns of the kept thresholds, bounds, totals)
    text: list | None = None  # per scored node: the text of its candidates


class Record:
    """Collects each :class:`Level` and turns the whole growth into a :class:`GrownTree`.

    When a tracer listens, the levels are kept too, and once the tree is finished (and numbered
    in pre-order) :meth:`finish` sends the events node by node in reading order. A tracer that
    only prints (:func:`~id3tree.tracing.prints_only`) gets the same lines without the events:
    each level's candidates are written out as text when the level is kept, a feature at a time
    for all the level's nodes, and the finished lines are written a block at a time.
    """

    def __init__(self, tracer, data, *, keep_trace: bool | str = True, min_leaf: int = 1):
        self.tracer, self.data, self.keep_trace = tracer, data, keep_trace
        self.min_leaf = min_leaf
        self.max_thresholds = getattr(tracer, "max_thresholds", 0) if tracer is not None else 0
        self.as_text = tracing.prints_only(tracer)
        self.split_parts, self.leaf_parts, self.trace_parts = [], [], []
        self.details: list[_Details] = []
        # class counts as format_counts writes them, one str.format per row
        self.counts_template = ", ".join(
            f"{class_name(c)}: ".replace("{", "{{").replace("}", "}}") + "{}" for c in data.classes
        )
        self.out = None  # the lines not yet written, while a printing tracer is served

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
        # the six float scores of every row at once (unscored leaves: NaN)
        floats = dict(
            zip(
                s.FLOAT_SCORES,
                np.concatenate(
                    [np.full((len(s.FLOAT_SCORES), m), np.nan), s.table[:, e, f]], axis=1
                ),
            )
        )
        self.trace_parts.append(
            dict(
                node=np.concatenate([unscored, lv.ids[e]]),
                feature=np.concatenate([np.full(m, -1), f]),
                threshold=floats["threshold"],
                low=floats["low"],
                high=floats["high"],
                overall_entropy=floats["overall"],
                gain=floats["gain"],
                gain_ratio=floats["ratio"],
                chosen=np.concatenate([np.zeros(m, bool), lv.splitting[e] & (lv.chosen[e] == f)]),
                tie=np.concatenate([np.zeros(m, bool), s.tied[e, f] & (s.tied[e].sum(axis=1) > 1)]),
            )
        )

    def _keep_details(self, lv: Level) -> None:
        """Keep what the events of this level's nodes will say, computed level-wide: the
        branches of every candidate, why a candidate has no valid split (from the sorted rows,
        which are not kept) and, for ``verbose=2``, the best thresholds."""
        data, k, s = self.data, len(lv.ids), lv.scores
        invalid = s.candidate & np.isnan(s.gain)
        branches, reasons, ranked = {}, {}, []
        tables = dict(getattr(s, "branch_tables", {}))  # dense (k, slots, classes)
        facts = getattr(s, "numeric_facts", {})  # f -> per node (n_present, n_distinct, found)
        for f in tables:
            for e in np.flatnonzero(invalid[:, f]).tolist():
                if data.codes[f] is not None:
                    n_branches = int((tables[f][e].sum(axis=1) > 0).sum())
                    reasons[e, f] = self._categorical_reason(int(lv.sizes[e]), n_branches)
                elif f in facts:
                    n_present, n_distinct, found = (int(a[e]) for a in facts[f])
                    reasons[e, f] = self._numeric_reason(
                        int(lv.sizes[e]), n_present, n_distinct, bool(found)
                    )
        for f, result in getattr(s, "results", {}).items():
            if data.codes[f] is None:
                tables[f] = result.side_counts  # (k, 3, classes): left, right, missing
                if f not in lv.orders:
                    continue
                invalid_here = np.flatnonzero(invalid[:, f]).tolist()
                if invalid_here or self.max_thresholds != 0:
                    o = lv.orders[f]
                    v = data.numeric[f][o]
                if invalid_here:
                    self._numeric_reasons(reasons, f, v, lv, invalid_here, result.found)
                if self.max_thresholds != 0:
                    ranked.append(
                        (f, v, data.y[o], None if data.weight is None else data.weight[o])
                    )
            else:
                branches[f] = self._categorical_branches(f, result, k)
                for e in np.flatnonzero(invalid[:, f]).tolist():
                    reasons[e, f] = self._categorical_reason(
                        int(lv.sizes[e]), int(result.n_branches[e])
                    )
        thresholds = self._best_thresholds(ranked, lv) if ranked else {}
        for numeric in (True, False):  # the dense tables, a kind at a time, all features at once
            features = [f for f in tables if (data.codes[f] is None) == numeric]
            if features:
                branches |= self._table_branches(features, tables, s, numeric)
        details = _Details(
            replace(lv, orders={}),
            lv.counts.tolist(),
            entropy_rows(lv.counts).tolist(),
            _Decisions.of(lv, data.names),
            self._scores(s) if not self.as_text else {},
            branches,
            reasons,
            thresholds,
        )
        if self.as_text:  # the numbers become text now; only the text is kept
            details.text = self._candidate_text(details)
            details.branches, details.thresholds = {}, {}
        self.details.append(details)

    @staticmethod
    def _scores(s) -> dict:
        """Per scored node, per feature, each score the events report (None where missing)."""
        nan = s.gain * np.nan
        return {
            name: [[_none_if_nan(v) for v in row] for row in getattr(s, name, nan).tolist()]
            for name in _SCORE_NAMES
        }

    def _numeric_reasons(self, reasons: dict, f: int, v, lv: Level, nodes: list, found) -> None:
        """Why numeric feature ``f`` has no valid split at each scored node of ``nodes``; ``v``
        holds its values in the level's sorted order."""
        k = len(lv.ids)
        segment = np.repeat(np.arange(k), lv.sizes)
        present = ~np.isnan(v)
        n_present = np.bincount(segment, weights=present, minlength=k)
        new_value = present.copy()
        new_value[1:] &= (v[1:] != v[:-1]) | (segment[1:] != segment[:-1])
        n_distinct = np.bincount(segment, weights=new_value, minlength=k)
        for e in nodes:
            reasons[e, f] = self._numeric_reason(
                int(lv.sizes[e]), int(n_present[e]), int(n_distinct[e]), found[e]
            )

    def _table_branches(self, features: list, tables: dict, s, numeric: bool) -> dict:
        """The branches of several features of one kind from their dense ``(k, slots,
        classes)`` tables of class counts, at the nodes where each splits: a numeric feature's
        left and right sides (and its missing values when there are some), a categorical
        feature's values present. Every feature of the level in one pass."""
        data = self.data
        n_slots = max(tables[f].shape[1] for f in features)
        k, n_classes = len(s.gain), len(data.classes)
        table = np.zeros((len(features), k, n_slots, n_classes), dtype=tables[features[0]].dtype)
        for j, f in enumerate(features):
            table[j, :, : tables[f].shape[1]] = tables[f]
        sizes = table.sum(axis=3)
        valid = ~np.isnan(s.gain[:, features].T)  # (features, k)
        keep = valid[..., None] & (sizes > 0)
        if numeric:
            keep[..., LEFT] |= valid
            keep[..., RIGHT] |= valid
        at = np.flatnonzero(keep)
        owner, slot = np.divmod(at, n_slots)  # owner: feature j * k + node e
        bounds = np.searchsorted(owner, np.arange(len(features) * k + 1))
        owner, slot = owner.tolist(), slot.tolist()
        if numeric:
            threshold = s.threshold[:, features].T.ravel().tolist()
            t = {o: format_number(threshold[o], tracing.DECIMALS) for o in set(owner)}
            names = [data.names[f] for f in features]
            ops = {LEFT: " <= ", RIGHT: " > "}
            labels = [
                f"{names[o // k]} is missing" if b == NUMERIC_MISSING else f"{names[o // k]}{ops[b]}{t[o]}"
                for o, b in zip(owner, slot)
            ]  # fmt: skip
        else:
            words = [
                [f"{data.names[f]} = {c}" for c in data.categories[f]]
                + [f"{data.names[f]} is missing"]
                for f in features
            ]
            labels = [words[o // k][b] for o, b in zip(owner, slot)]
            t = {}
        counts = table.reshape(-1, n_classes)[at]
        sizes = sizes.ravel()[at].tolist()
        entropy = entropy_rows(table).ravel()[at].tolist()
        found = {}
        for j, f in enumerate(features):
            lo, hi = bounds[j * k], bounds[(j + 1) * k]
            found[f] = _Branches(
                (bounds[j * k : (j + 1) * k + 1] - lo).tolist(),
                labels[lo:hi],
                counts[lo:hi],
                sizes[lo:hi],
                entropy[lo:hi],
                {o - j * k: t[o] for o in range(j * k, (j + 1) * k) if o in t},
            )
        return found

    def _categorical_branches(self, f: int, result, k: int) -> _Branches:
        """The branches of categorical feature ``f`` at every scored node, from its search."""
        data, name = self.data, self.data.names[f]
        n_levels = len(data.categories[f]) + 1
        node, code = np.divmod(result.branch_keys, n_levels)
        names = [f"{name} = {c}" for c in data.categories[f]] + [f"{name} is missing"]
        return _Branches(
            np.searchsorted(node, np.arange(k + 1)).tolist(),
            [names[c] for c in code.tolist()],
            result.table,
            result.table.sum(axis=1).tolist(),
            entropy_rows(result.table).tolist(),
        )

    def _categorical_reason(self, n: int, n_branches: int) -> str:
        """Why a categorical feature offers no valid split at a node of ``n`` rows, in words."""
        if n_branches < 2:
            return f"all {plural(n, 'sample')} have the same value"
        return f"a branch would hold fewer than min_samples_leaf = {self.min_leaf} samples"

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

    def _best_thresholds(self, ranked: list, lv: Level) -> dict:
        """The thresholds of numeric features at every scored node of a level, best (lowest
        overall entropy) first: the first ``max_thresholds`` of each (all if None), with the
        number each has. ``ranked`` holds ``(feature, values, classes, weights)``, the rows of
        the level sorted by the feature within each node; all are ranked together."""
        k, m, n_classes = len(lv.ids), int(lv.sizes.sum()), len(self.data.classes)
        values = np.concatenate([v for _, v, _, _ in ranked])
        y = np.concatenate([y for _, _, y, _ in ranked])
        weight = None if ranked[0][3] is None else np.concatenate([w for *_, w in ranked])
        starts = (np.arange(len(ranked))[:, None] * m + lv.starts).ravel()
        lengths = np.tile(lv.sizes, len(ranked))
        if self.max_thresholds is None:
            cols = enumerate_thresholds(values, y, starts, lengths, n_classes, weight)
            totals = np.bincount(cols["segment"], minlength=len(starts))
            order = np.lexsort((cols["threshold"], cols["overall_entropy"], cols["segment"]))
            cols = {name: column[order] for name, column in cols.items()}
        else:
            cols, totals = best_thresholds(
                values, y, starts, lengths, n_classes, self.max_thresholds, weight
            )
        bounds = np.searchsorted(cols["segment"], np.arange(len(starts) + 1))
        names = ("threshold", "overall_entropy") if self.as_text else _THRESHOLD_FIELDS
        found = {}
        for j, (f, *_) in enumerate(ranked):
            lo, hi = bounds[j * k], bounds[(j + 1) * k]
            columns = {c: cols[c][lo:hi].tolist() for c in names}
            found[f] = (
                columns,
                (bounds[j * k : (j + 1) * k + 1] - lo).tolist(),
                totals[j * k : (j + 1) * k].tolist(),
            )
        return found

    def _candidate_text(self, d: _Details) -> list:
        """The text of every candidate of every scored node of a level, one string per node,
        written a feature at a time (each numeric candidate followed by its best thresholds)."""
        lv, s, data = d.level, d.level.scores, self.data
        k, depth, criterion = len(lv.ids), lv.depth, lv.criterion
        scored_nodes = np.flatnonzero(lv.eligible).tolist()
        node_n = [sum(d.counts[i]) for i in scored_nodes]
        node_entropy = [tracing._f(d.entropy[i]) for i in scored_nodes]
        nan = s.gain * np.nan
        columns = {name: getattr(s, name, nan).T.tolist() for name in _SCORE_NAMES}
        parts = [[] for _ in range(k)]
        for f in np.flatnonzero(s.candidate.any(axis=0)).tolist():
            name, kind = data.names[f], "numeric" if data.codes[f] is None else "categorical"
            gain, ratio, overall, threshold, low, high = (columns[c][f] for c in _SCORE_NAMES)
            b = d.branches.get(f)
            candidates = np.flatnonzero(s.candidate[:, f]).tolist()
            text, at, scored = {}, [], []
            for e in candidates:
                first, stop = (b.first[e], b.first[e + 1]) if b is not None else (0, 0)
                if gain[e] != gain[e] or first == stop:  # no valid split, or only its score
                    text[e] = tracing.candidate_text(
                        depth, name, kind, node_n[e], d.entropy[scored_nodes[e]],
                        *(_none_if_nan(c[e]) for c in (gain, ratio, overall, threshold, low, high)),
                        (), criterion, d.reasons.get((e, f)),
                    )  # fmt: skip
                    continue
                at.append(e)
                if kind == "numeric":
                    written = (b.tests[e], format_number(low[e]), format_number(high[e]))
                else:
                    written = (None, None, None)
                scored.append(
                    (node_n[e], node_entropy[e], gain[e], ratio[e], overall[e], *written)
                    + (first, stop)
                )
            if scored:
                counts = [self._counts_text(row) for row in b.counts.tolist()]
                written = tracing.candidate_texts(
                    depth, name, kind, criterion, scored, (b.labels, counts, b.sizes, b.entropy)
                )
                text.update(zip(at, written))
            if f in d.thresholds:
                best, bounds, totals = d.thresholds[f]
                listed = [e for e in candidates if bounds[e + 1] > bounds[e]]
                spans = [
                    (bounds[e], bounds[e + 1], totals[e] - bounds[e + 1] + bounds[e])
                    for e in listed
                ]
                written = tracing.thresholds_texts(
                    depth, best["threshold"], best["overall_entropy"], spans
                )
                for e, t in zip(listed, written):
                    text[e] += "\n" + t
            for e in candidates:
                parts[e].append(text[e])
        return ["\n".join(p) for p in parts]

    # -----------------------------------------------------------------------------------------
    # the events, in reading order
    # -----------------------------------------------------------------------------------------
    def _replay(self, new: np.ndarray, parent: np.ndarray) -> None:
        """Send the events of every node in pre-order, with pre-order numbers. A tracer that only
        prints gets their lines instead, written a block at a time: the same text, without the
        events (:func:`~id3tree.tracing.prints_only`)."""
        self.out = [] if self.as_text else None
        starts = np.array([int(d.level.nodes[0]) for d in self.details])
        order = np.argsort(new)  # the grower's numbers in reading order
        level = np.searchsorted(starts, order, side="right") - 1
        parent = parent.tolist()
        paths = {0: ({}, {})}  # what the path knows of each feature, and its words
        at = zip(order.tolist(), level.tolist(), (order - starts[level]).tolist())
        for number, (old, j, i) in enumerate(at):
            children = self._node_events(self.details[j], i, number, parent[number], paths.pop(old))
            paths.update(children)
            if self.out is not None and len(self.out) >= WRITE_EVERY:
                self._write()
        if self.out is not None:
            self._write()
        self.details, self.out = [], None

    def _write(self) -> None:
        if self.out:
            self.tracer.write("\n".join(self.out) + "\n")
        self.out = []

    def _node_events(self, d: _Details, i: int, number: int, parent: int, path: tuple) -> list:
        """Send the events of node ``i`` of a level, numbered ``number``, whose path is
        ``(tests, words)`` (:func:`~id3tree.node.narrowed` and :func:`~id3tree.node.path_word`
        of each feature on it); return its children (grower's numbers) with their paths."""
        lv, data, out, dec = d.level, self.data, self.out, d.decisions
        depth = lv.depth
        counts = d.counts[i]
        n = sum(counts)
        entropy = d.entropy[i]
        tests, words = path
        top = max(counts)
        prediction = data.classes[counts.index(top)]
        tied = top > 0 and counts.count(top) > 1
        if out is None:
            class_counts = self._class_counts(counts)
            where = tuple(words.values())
            self.tracer(
                tracing.NodeStarted(
                    number, None if parent < 0 else parent, depth, where, class_counts, n, entropy
                )
            )
        else:
            where = list(words.values())
            out.append(
                tracing.node_text(number, depth, where, self._counts_text(counts), n, entropy)
            )
        e = dec.scored[i]
        if e is None:
            self._leaf(number, depth, prediction, counts, dec.reasons[i], tied)
            return []
        if out is None:
            for f in np.flatnonzero(lv.scores.candidate[e]).tolist():
                self.tracer(tracing.CandidateScored(number, *self._candidate(d, e, f, n, entropy)))
                if f in d.thresholds:
                    self._thresholds(d, e, f, number)
        elif d.text[e]:
            out.append(d.text[e])
        if not dec.splitting[e]:
            reason = dec.reasons[i]
            if reason == NO_VALID_SPLIT:
                reason += ", as each candidate above says"
            self._leaf(number, depth, prediction, counts, reason, tied)
            return []
        f, threshold = dec.feature[e], dec.threshold[e]
        name, numeric = data.names[f], data.codes[f] is None
        branches, children = [], []
        for c in range(dec.first_child[e], dec.first_child[e + 1]):
            slot = dec.child_slot[c]
            branches.append((slot_label(data, f, slot, threshold), dec.child_size[c]))
            _, op, value = slot_step(data, f, slot, threshold)
            known = narrowed(tests.get(name), op, value)
            child_path = (
                {**tests, name: known},
                {**words, name: path_word(name, known, tracing.DECIMALS)},
            )
            children.append((dec.child[c], child_path))
        fields = (
            depth,
            name,
            threshold,
            dec.gain[e],
            dec.ratio[e],
            lv.criterion,
            dec.tied_with.get(e, ()),
            dec.n_ties[e] if numeric else 1,
            tuple(branches),
            dec.below_average.get(e, ()),
        )
        if out is None:
            self.tracer(tracing.SplitChosen(number, *fields))
        else:
            out.append(tracing.split_text(*fields))
        return children

    def _class_counts(self, counts: list) -> dict:
        return dict(zip(self.data.classes, counts))

    def _counts_text(self, counts: list) -> str:
        """Class counts written as :func:`~id3tree.node.format_counts` writes them (a sums of
        weights by it; whole counts by one ``str.format``)."""
        if self.data.weight is not None:
            return format_counts(self._class_counts(counts))
        return self.counts_template.format(*counts)

    def _leaf(self, number, depth, prediction, counts, reason, tied: bool) -> None:
        class_counts = self._class_counts(counts)
        if self.out is None:
            ties = tuple(tied_classes(class_counts))
            self.tracer(tracing.LeafMade(number, depth, prediction, class_counts, reason, ties))
        else:
            note = class_tie_note(class_counts, prediction) if tied else ""
            self.out.append(tracing.leaf_text(depth, prediction, reason, note))

    def _thresholds(self, d: _Details, e: int, f: int, number: int) -> None:
        """The best thresholds of numeric feature ``f`` at scored node ``e`` (``verbose=2``)."""
        columns, bounds, totals = d.thresholds[f]
        lo, hi = bounds[e], bounds[e + 1]
        if hi == lo:
            return
        depth, name = d.level.depth, self.data.names[f]
        rows = zip(*(columns[c][lo:hi] for c in _THRESHOLD_FIELDS))
        ranked = tuple(
            tracing.ThresholdScored(number, depth, name, rank, *row)
            for rank, row in enumerate(rows, start=1)
        )
        self.tracer(tracing.ThresholdsRanked(number, depth, name, ranked, totals[e] - hi + lo))

    def _candidate(self, d: _Details, e: int, f: int, n: int, entropy: float) -> tuple:
        """The fields of feature ``f``'s :class:`~id3tree.tracing.CandidateScored` at scored
        node ``e``, after ``node``: its branches and numbers."""
        sc, classes = d.scores, self.data.classes
        branches = tuple(
            tracing.Branch(label, dict(zip(classes, counts)), size, h)
            for label, counts, size, h in (d.branches[f].at(e) if f in d.branches else ())
        )
        return (
            d.level.depth,
            self.data.names[f],
            "numeric" if self.data.codes[f] is None else "categorical",
            n,
            entropy,
            sc["gain"][e][f],
            sc["ratio"][e][f],
            sc["overall"][e][f],
            sc["threshold"][e][f],
            sc["low"][e][f],
            sc["high"][e][f],
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
    bounds = np.searchsorted(depth, np.arange(int(depth.max(initial=0)) + 2)).tolist()
    levels = [slice(bounds[d], bounds[d + 1]) for d in range(1, len(bounds) - 1)]
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
