"""What the grower keeps of each level: the decisions always, the trace table unless told not
to, and the events of :mod:`id3tree.tracing` only when a tracer listens."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property

import numpy as np

from id3tree import tracing
from id3tree._entropy import entropy_rows
from id3tree.node import (
    LEFT,
    MISSING,
    NUMERIC_MISSING,
    RIGHT,
    Node,
    class_tie_note,
    count_texts,
    counts_texts,
    format_number,
    majority_classes,
    number_texts,
    path_word,
    plural,
    tied_classes,
    top_classes,
)
from id3tree.splits import (
    RankedCuts,
    best_thresholds,
    class_counts,
    enumerate_thresholds,
    ranked_thresholds,
)


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
        majority = majority_classes(self.counts).tolist()
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
def stop_reasons(counts: np.ndarray, depth: int, params, n_rows=None, totals=None) -> np.ndarray:
    """Why each node of a level stops before any scoring (None where it will be scored).

    ``n_rows``, the rows of each node, is given when the counts are sums of weights: the
    ``min_samples_*`` rules count rows, as in scikit-learn, and ``min_weight_leaf`` weighs.
    ``totals``: each node's class counts summed, when the caller has them."""
    sizes = np.add.reduce(counts, axis=1) if totals is None else totals
    min_leaf = params.min_samples_leaf
    # one class holds every sample (whole counts: the largest is the total; sums of weights
    # are read cell by cell, a tiny weight being lost in the sum of a large one)
    if counts.dtype.kind in "iu":
        pure = np.maximum.reduce(counts, axis=1, initial=0) == sizes
    else:
        pure = np.count_nonzero(counts > 0, axis=1) <= 1
    reasons = np.empty(len(counts), dtype=object)  # (None everywhere)
    min_weight = getattr(params, "min_weight_leaf", 0.0)
    if min_weight > 0:
        reasons[sizes < 2 * min_weight] = (
            f"a weight of less than {2 * min_weight:g}, too little for two branches of "
            f"min_weight_fraction_leaf"
        )
    if n_rows is not None:
        sizes = n_rows
    if 2 * min_leaf > params.min_samples_split:  # (else the next rule names all these nodes)
        reasons[sizes < 2 * min_leaf] = (
            f"fewer than {2 * min_leaf} samples, too few for two branches of "
            f"min_samples_leaf = {min_leaf}"
        )
    reasons[sizes < params.min_samples_split] = (
        f"fewer than min_samples_split = {params.min_samples_split} samples"
    )
    if depth >= params.max_depth:
        reasons[:] = f"max_depth = {depth} reached"
    reasons[pure] = "pure, every sample is of one class"
    return reasons


NO_VALID_SPLIT = "no feature offers a valid split"


def low_gain_reason(gain: float, min_gain: float) -> str:
    return f"the best gain, {gain:.4f}, is below min_gain = {min_gain:g}"


def not_significant_reason(p: float, alpha: float) -> str:
    return f"the split is not significant: chi-square p = {p:.4g} is not below alpha = {alpha:g}"


def slot_label(data, f: int, slot: int, threshold: float, written: str | None = None) -> str:
    """A branch as a short label: ``Sunny``, ``<= 2.45``, ``> 2.45`` or ``missing``
    (``written``: the threshold already written, if it is)."""
    if data.codes[f] is not None:
        categories = data.categories[f]
        return "missing" if slot == len(categories) else str(categories[slot])
    if slot not in (LEFT, RIGHT):
        return "missing"
    t = format_number(threshold, tracing.DECIMALS) if written is None else written
    return f"<= {t}" if slot == LEFT else f"> {t}"


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


def _distinct(tables: dict) -> list:
    """The distinct values of ``tables`` (several features share one table), in order."""
    return list({id(table): table for table in tables.values()}.values())


def _score(scores, name: str) -> np.ndarray:
    """One of a level's scores by name, (scored nodes, features); NaN where the grower does
    not provide it."""
    return getattr(scores, name) if hasattr(scores, name) else scores.gain * np.nan


def _starts(items: list, n_rows) -> dict:
    """Where the rows of each of ``items`` (distinct objects, ``n_rows(item)`` rows each)
    start when their columns are joined end to end in that order: ``id(item)`` -> row."""
    sizes = [n_rows(item) for item in items]
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64).tolist()
    return {id(item): at for item, at in zip(items, starts)}


def _words_table(tables: list) -> np.ndarray:
    """The tables of branch words (:meth:`Record._slot_words`) of several
    :class:`_Branches`, one under another, padded with empty words to the widest."""
    width = max(b.words.shape[1] for b in tables)
    words = np.full((sum(len(b.words) for b in tables), width), "", dtype=object)
    at = 0
    for b in tables:
        words[at : at + len(b.words), : b.words.shape[1]] = b.words
        at += len(b.words)
    return words


@dataclass
class _Candidates:
    """Columns about the candidates of some features (``features``, all of one kind) at every
    scored node of a level: candidate ``j * k + e`` is feature ``features[j]`` at scored node
    ``e`` (``k`` scored nodes)."""

    features: list
    k: int

    def candidate(self, e: int, f: int) -> int:
        """The number of feature ``f``'s candidate at scored node ``e``."""
        return self.features.index(f) * self.k + e


@dataclass
class _Branches(_Candidates):
    """The branches of the candidates of some features at every scored node of a level, as
    flat columns: candidate c (see :class:`_Candidates`) has the branches
    ``first[c]:first[c + 1]``."""

    first: np.ndarray  # one entry more than the candidates
    slots: np.ndarray  # of each branch: its slot (a numeric side, or a category's code)
    counts: np.ndarray  # (branches, classes)
    sizes: np.ndarray
    words: np.ndarray  # (features, slots): how each branch label begins (Record._slot_words)
    threshold: np.ndarray | None  # numeric: per candidate, the threshold of its split

    def at(self, e: int, f: int):
        """``(label, counts, n_samples, entropy)`` of each branch of feature ``f``'s candidate
        at scored node ``e``."""
        c = self.candidate(e, f)
        a, b = self.first[c], self.first[c + 1]
        labels = self.words[c // self.k, self.slots[a:b]]
        if self.threshold is not None:  # "x <= " and "x > " take the threshold
            sides = self.slots[a:b] != NUMERIC_MISSING
            labels[sides] += format_number(self.threshold[c], tracing.DECIMALS)
        columns = (self.counts[a:b], self.sizes[a:b], entropy_rows(self.counts[a:b]))
        return zip(labels.tolist(), *(column.tolist() for column in columns))


@dataclass
class _Ranked(_Candidates):
    """The best thresholds of the candidates of some numeric features at every scored node of
    a level (``verbose=2``): candidate c (see :class:`_Candidates`) has the rows
    ``bounds[c]:bounds[c + 1]`` of ``columns``, best first, of ``totals[c]`` in all."""

    columns: dict  # name -> array
    bounds: np.ndarray
    totals: np.ndarray


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
    def of_levels(cls, levels: list, names: list) -> list[_Decisions]:
        """The decisions of each of ``levels`` (:class:`Level`), found for all of them at once:
        their scored nodes' scores stacked one level under another, each column read by one
        numpy call for the whole tree, then cut into each level's lists (list slices)."""
        n_scored = [len(lv.ids) for lv in levels]
        n_nodes = [len(lv.nodes) for lv in levels]
        first = np.concatenate([[0], np.cumsum(n_scored)]).tolist()  # each level's scored rows
        s = {
            name: np.concatenate([getattr(lv.scores, name) for lv in levels])
            for name in ("gain", "ratio", "threshold", "n_ties", "tied", "below_average")
        }
        e = np.arange(first[-1])
        f = np.concatenate([lv.chosen for lv in levels]).astype(np.int64)  # the chosen features
        # each node's index among its level's scored nodes (-1: not scored)
        eligible = np.concatenate([lv.eligible for lv in levels])
        before = np.repeat(first[:-1], n_nodes)  # scored nodes of the levels before
        scored = np.where(eligible, np.cumsum(eligible) - 1 - before, -1).tolist()
        level_of = np.repeat(np.arange(len(levels)), n_scored)  # of each scored row
        tied_with = [{} for _ in levels]  # the features tied with the chosen one, in order
        tied = s["tied"] & (np.arange(s["tied"].shape[1]) != f[:, None])
        tied[s["tied"].sum(axis=1) <= 1] = False
        for row, g in zip(*(a.tolist() for a in np.nonzero(tied))):
            j = level_of[row]
            tied_with[j].setdefault(row - first[j], []).append(names[g])
        below_average = [{} for _ in levels]
        for row in np.flatnonzero(s["below_average"].any(axis=1)).tolist():
            j = level_of[row]
            below_average[j][row - first[j]] = (
                float(np.nanmean(s["gain"][row])),
                tuple(names[g] for g in np.flatnonzero(s["below_average"][row])),
            )
        # the children of each level's scored nodes, numbered within the level
        n_children = [len(lv.children) for lv in levels]
        child_first = np.concatenate([[0], np.cumsum(n_children)]).tolist()
        parent = np.concatenate([lv.parent for lv in levels]).astype(np.int64)
        parent += np.repeat(first[:-1], n_children)  # the scored row of each child's parent
        first_child = np.searchsorted(parent, np.arange(first[-1] + 1))
        columns = {
            "reasons": np.concatenate([lv.reasons for lv in levels]).tolist(),
            "splitting": np.concatenate([lv.splitting for lv in levels]).tolist(),
            "feature": f.tolist(),
            "gain": s["gain"][e, f].tolist(),
            "ratio": s["ratio"][e, f].tolist(),
            "threshold": [_none_if_nan(t) for t in s["threshold"][e, f].tolist()],
            "n_ties": s["n_ties"][e, f].tolist(),
            "child": np.concatenate([lv.children for lv in levels]).tolist(),
            "child_slot": np.concatenate([lv.child_slot for lv in levels]).tolist(),
            "child_size": np.concatenate([lv.child_sizes for lv in levels]).tolist(),
        }
        node_first = np.concatenate([[0], np.cumsum(n_nodes)]).tolist()
        found = []
        for j in range(len(levels)):
            a, b = first[j], first[j + 1]  # the level's scored rows
            n0, n1 = node_first[j], node_first[j + 1]  # its nodes
            c0, c1 = child_first[j], child_first[j + 1]  # its children
            found.append(
                cls(
                    [None if i < 0 else i for i in scored[n0:n1]],
                    columns["reasons"][n0:n1],
                    columns["splitting"][a:b],
                    columns["feature"][a:b],
                    columns["gain"][a:b],
                    columns["ratio"][a:b],
                    columns["threshold"][a:b],
                    columns["n_ties"][a:b],
                    {e: tuple(others) for e, others in tied_with[j].items()},
                    below_average[j],
                    (first_child[a : b + 1] - c0).tolist(),
                    columns["child"][c0:c1],
                    columns["child_slot"][c0:c1],
                    columns["child_size"][c0:c1],
                )
            )
        return found


@dataclass
class _Details:
    """What the trace needs of one level beyond the decisions (kept only when a tracer listens),
    computed for the whole level at once. For a tracer that only prints, the candidates of each
    scored node are kept as their finished text (``text``) rather than as numbers."""

    level: Level
    entropy: list | None  # per node: its entropy (for a printing tracer, made at the end)
    decisions: _Decisions | None
    scores: dict  # name -> per scored node, per feature: gain, ratio, overall, threshold, ...
    branches: dict  # feature -> the _Branches that hold its candidates' branches
    reasons: dict  # (scored node, feature) -> why the feature has no valid split there
    thresholds: dict  # numeric feature -> the _Ranked that holds its best thresholds
    text: np.ndarray | None = None  # scored node e's candidates: lines bounds[e]:bounds[e + 1]
    tables: dict | None = None  # feature -> its dense table, until its branches are made

    @cached_property
    def counts(self) -> list:
        """Per node: its class counts as Python numbers, made when first asked for (by the
        events, once the tree is finished: a printing tracer mostly reads the array)."""
        return self.level.counts.tolist()


class Record:
    """Collects each :class:`Level` and turns the whole growth into a :class:`GrownTree`.

    When a tracer listens, the levels are kept too, and once the tree is finished (and numbered
    in pre-order) :meth:`finish` sends the events node by node in reading order. A tracer that
    only prints (:func:`~id3tree.tracing.prints_only`) gets the same lines without the events:
    when the tree is finished, each kind of line is written for the whole tree in one pass
    (:meth:`_write_candidates`, :meth:`_node_texts`, :meth:`_decision_texts`), and the lines go
    to the tracer in reading order, a block at a time (:meth:`_write_page`).
    """

    def __init__(self, tracer, data, *, keep_trace: bool | str = True, min_leaf: int = 1):
        self.tracer, self.data, self.keep_trace = tracer, data, keep_trace
        self.min_leaf = min_leaf
        self.max_thresholds = getattr(tracer, "max_thresholds", 0) if tracer is not None else 0
        self.as_text = tracing.prints_only(tracer)
        self.split_parts, self.leaf_parts, self.trace_parts = [], [], []
        self.details: list[_Details] = []
        self.value_labels = {}  # categorical feature -> its branch labels (_value_labels)
        self.slot_words = {}  # features -> the words of their branch slots (_slot_words)
        self.slot_labels = None  # the short labels of every feature's slots (_slot_labels)
        self.written = {}  # threshold -> its text in the paths (see path_word)

    def level(self, lv: Level) -> None:
        s = lv.scores
        e_split = lv.splitting.nonzero()[0]
        f_split = lv.chosen[e_split]
        # the chosen splits' scores, in one gather: the rows of Scores.FLOAT_SCORES
        gain, _, _, threshold, _, _ = s.table[:, e_split, f_split]
        self.split_parts.append((lv.ids[e_split], f_split, threshold, gain))
        leaf = np.not_equal(lv.reasons, None)  # a reason: the node stays a leaf
        self.leaf_parts.append((lv.nodes[leaf], lv.reasons[leaf]))
        if self.keep_trace:
            self._keep_trace(lv)
        if self.tracer is not None:
            self._keep_details(lv)

    def _keep_trace(self, lv: Level) -> None:
        """Keep what the trace of this level is made of (:class:`LazyTrace` makes it when read);
        with ``keep_trace="splits"`` (a large fit) its few rows at once, not the scores."""
        s = lv.scores
        part = (self.keep_trace, s.table, s.candidate, s.tied)
        part += (lv.splitting, lv.chosen, lv.ids, lv.nodes, lv.eligible)
        self.trace_parts.append(part if self.keep_trace is True else _level_trace(*part))

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
        has_invalid = invalid.any(axis=0).tolist()
        for f, result in getattr(s, "results", {}).items():
            if data.codes[f] is None:
                tables[f] = result.side_counts  # (k, 3, classes): left, right, missing
                invalid_here = np.flatnonzero(invalid[:, f]).tolist() if has_invalid[f] else []
                if not invalid_here and self.max_thresholds == 0:
                    continue
                o = lv.orders.get(f)  # (a counted feature's rows are sorted when asked for)
                if o is None:
                    continue
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
        details = _Details(
            replace(lv, orders={}),
            None if self.as_text else entropy_rows(lv.counts).tolist(),  # see _entropies
            None,  # the decisions of every level are found at once (_Decisions.of_levels)
            self._scores(s) if not self.as_text else {},
            branches,
            reasons,
            thresholds,
            tables=tables,  # their branches are made for the whole tree at once (_tree_branches)
        )
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

    def _tree_branches(self) -> None:
        """The branches of the candidates whose class counts each level keeps as dense tables
        (``tables``), made once the tree is finished (:meth:`_table_branches`): a kind of
        feature at a time, the levels with the same features and table shapes at once."""
        for numeric in (True, False):
            groups = {}  # (features, slots of each, dtype) -> the levels that have them
            for d in self.details:
                features = [f for f in d.tables if (self.data.codes[f] is None) == numeric]
                if features:
                    shapes = tuple(d.tables[f].shape[1] for f in features)
                    key = (tuple(features), shapes, d.tables[features[0]].dtype)
                    groups.setdefault(key, []).append(d)
            for (features, _, _), levels in groups.items():
                found = self._table_branches(list(features), levels, numeric)
                for d, branches in zip(levels, found):
                    d.branches |= dict.fromkeys(features, branches)
        for d in self.details:
            d.tables = None

    def _table_branches(self, features: list, levels: list, numeric: bool) -> list:
        """The branches of several features of one kind at several levels, from their dense
        ``(k, slots, classes)`` tables of class counts, at the nodes where each splits: a
        numeric feature's left and right sides (and its missing values when there are some), a
        categorical feature's values present. One :class:`_Branches` per level.

        Every feature of every level is found in one pass: the levels' tables are stacked one
        under another (level by level, feature by feature, node by node: each level's
        candidates, then its branches, are a contiguous run), and each level's
        :class:`_Branches` is a view of its run."""
        data = self.data
        n_classes = len(data.classes)
        shapes = [levels[0].tables[f].shape[1] for f in features]
        n_slots = max(shapes)
        tables = [d.tables[f] for d in levels for f in features]  # candidate j * k + e
        if min(shapes) == n_slots:
            table = np.concatenate(tables)
        else:
            table = np.zeros((sum(map(len, tables)), n_slots, n_classes), dtype=tables[0].dtype)
            row = 0
            for part in tables:
                table[row : row + len(part), : part.shape[1]] = part
                row += len(part)
        gains = [d.level.scores.gain[:, f] for d in levels for f in features]
        if numeric:
            thresholds = [d.level.scores.threshold[:, f] for d in levels for f in features]
        sizes = table.sum(axis=2)
        valid = ~np.isnan(np.concatenate(gains))  # per candidate
        keep = valid[:, None] & (sizes > 0)
        if numeric:
            keep[:, LEFT] |= valid
            keep[:, RIGHT] |= valid
        at = np.flatnonzero(keep)
        owner, slot = np.divmod(at, n_slots)  # owner: the candidate of each branch
        bounds = np.searchsorted(owner, np.arange(len(table) + 1))
        counts, sizes = table.reshape(-1, n_classes)[at], sizes.ravel()[at]
        threshold = np.concatenate(thresholds) if numeric else None
        words = self._slot_words(features)
        found, first = [], 0
        for d in levels:
            stop = first + len(features) * len(d.level.ids)  # the level's candidates
            lo, hi = bounds[first], bounds[stop]
            found.append(
                _Branches(
                    features,
                    len(d.level.ids),
                    bounds[first : stop + 1] - lo,
                    slot[lo:hi],
                    counts[lo:hi],
                    sizes[lo:hi],
                    words,
                    None if threshold is None else threshold[first:stop],
                )
            )
            first = stop
        return found

    def _slot_words(self, features: list) -> np.ndarray:
        """The words of each branch slot of each of ``features`` (one row each), as a branch
        label begins: ``petal_length <= `` (the threshold follows), ``petal_length > ``,
        ``petal_length is missing``; ``Outlook = Sunny``, ..., ``Outlook is missing``. Written
        once per fit for each set of features."""
        key = tuple(features)
        if key not in self.slot_words:
            rows = []
            for f in features:
                name = self.data.names[f]
                if self.data.codes[f] is None:  # in slot order: LEFT, RIGHT, NUMERIC_MISSING
                    rows.append([f"{name} <= ", f"{name} > ", f"{name} is missing"])
                else:
                    rows.append(list(self._value_labels(f)))
            words = np.full((len(rows), max(map(len, rows))), "", dtype=object)
            for j, row in enumerate(rows):
                words[j, : len(row)] = row
            self.slot_words[key] = words
        return self.slot_words[key]

    def _value_labels(self, f: int) -> np.ndarray:
        """The branch labels of categorical feature ``f``, by code: ``Outlook = Sunny``, ...,
        then ``Outlook is missing``; written once per fit."""
        if f not in self.value_labels:
            name = self.data.names[f]
            values = [f"{name} = {c}" for c in self.data.categories[f]]
            self.value_labels[f] = np.array([*values, f"{name} is missing"], dtype=object)
        return self.value_labels[f]

    def _categorical_branches(self, f: int, result, k: int) -> _Branches:
        """The branches of categorical feature ``f`` at every scored node, from its search."""
        data = self.data
        n_levels = len(data.categories[f]) + 1
        node, code = np.divmod(result.branch_keys, n_levels)
        return _Branches(
            [f],
            k,
            np.searchsorted(node, np.arange(k + 1)),
            code,
            result.table,
            result.table.sum(axis=1),
            self._slot_words([f]),
            None,
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
        the level sorted by the feature within each node; all are ranked together.

        The split search keeps, when the trace asks for a few thresholds, the cuts that may be
        among the best of each node (``Scores.ranked``, found from the scores it computed): only
        those are ranked here. Without them (a counted feature, weighted rows, a node longer
        than :data:`~id3tree.splits.PIECE_ROWS` rows) the cuts are scored again."""
        k, m, n_classes = len(lv.ids), int(lv.sizes.sum()), len(self.data.classes)
        weighted = ranked[0][3] is not None
        chunks = getattr(lv.scores, "ranked", [])  # (features, RankedCuts, m) of each chunk
        kept = [f for features, *_ in chunks for f in features]
        if self.max_thresholds is not None and not weighted and kept == [f for f, *_ in ranked]:
            values, low, high = (v for _, v, *_ in ranked), [], []
            for features, chunk, width in chunks:  # the i-th feature's from i * width on
                bounds = np.searchsorted(chunk.position, np.arange(len(features) + 1) * width)
                for i, (lo, hi) in enumerate(zip(bounds[:-1].tolist(), bounds[1:].tolist())):
                    v, at = next(values), chunk.position[lo:hi] - i * width
                    low.append(v[at])
                    high.append(v[at + 1])
            cuts = RankedCuts.joined([chunk for _, chunk, _ in chunks])
            low, high = np.concatenate(low), np.concatenate(high)
            cols = ranked_thresholds(cuts, low, high, self.max_thresholds)
            return self._thresholds_found(ranked, k, cols, cuts.n_thresholds)
        values = np.concatenate([v for _, v, _, _ in ranked])
        y = np.concatenate([y for _, _, y, _ in ranked])
        weight = np.concatenate([w for *_, w in ranked]) if weighted else None
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
        return self._thresholds_found(ranked, k, cols, totals)

    def _thresholds_found(self, ranked: list, k: int, cols: dict, totals) -> dict:
        """:meth:`_best_thresholds` of the features of ``ranked`` at the ``k`` scored nodes of
        a level, from the columns of their best thresholds (segment ``i * k + e``: the i-th
        feature at node e) and how many thresholds each segment has."""
        n_segments = len(ranked) * k
        bounds = np.searchsorted(cols["segment"], np.arange(n_segments + 1))
        names = ("threshold", "overall_entropy") if self.as_text else _THRESHOLD_FIELDS
        features = [f for f, *_ in ranked]
        found = _Ranked(features, k, {c: cols[c] for c in names}, bounds, totals)
        return dict.fromkeys(features, found)

    def _plan_candidates(self) -> tuple[dict, int]:
        """Where the lines of every candidate of every level go (:meth:`_plan_lines`, level
        after level): the work of :meth:`_write_candidates`, and how many lines there are."""
        work = {"short": [], "numeric": [], "categorical": [], "ranked": []}
        n_lines = 0
        for d in self.details:
            n_lines = self._plan_lines(d, n_lines, work)
        return work, n_lines

    def _write_candidates(self, work: dict, page: np.ndarray, at_page: np.ndarray) -> None:
        """Write the lines of every candidate of every level into ``page`` (an array of str):
        line i as :meth:`_plan_candidates` numbers them goes to ``page[at_page[i]]``. In that
        numbering, the lines are in reading order within each node (feature by feature; each
        numeric candidate followed by its best thresholds), and scored node e of a level has
        the lines ``bounds[e]:bounds[e + 1]``, ``bounds`` being its ``text``.

        All the candidates of one kind are written at once, whatever their level, node and
        feature (each column of numbers by one call, see
        :func:`~id3tree.tracing.candidate_lines`), and their lines put in their places on the
        page in one step: the page is the same as if each node were written alone, for a
        fraction of the cost (a deep tree has many small levels, and numpy's cost per call
        would add up).
        """
        if work["short"]:
            at, text = zip(*work["short"])
            page[at_page[list(at)]] = list(text)
        for kind in ("numeric", "categorical"):
            if work[kind]:
                text, first, starts = self._candidate_lines(kind, work[kind])
                n_each = np.diff(first) + 2
                place = np.repeat(starts - first[:-1] - 2 * np.arange(len(starts)), n_each)
                page[at_page[place + np.arange(len(text))]] = text
        if work["ranked"]:
            at, text = self._thresholds_lines(work["ranked"])
            page[at_page[at]] = text

    def _plan_lines(self, d: _Details, offset: int, work: dict) -> int:
        """Where the lines of a level's candidates go, from line ``offset`` of the whole trace
        on; ``d.text`` becomes ``bounds``, scored node e's lines being
        ``bounds[e]:bounds[e + 1]``. The candidates without branches are written here (one line
        each); those in full and the best thresholds are added to ``work``, written later for
        the whole tree at once. Returns the offset after the level's lines."""
        lv, s = d.level, d.level.scores
        scored_nodes = np.flatnonzero(lv.eligible).tolist()
        if lv.counts.dtype.kind in "iu":  # whole counts: any order of adding gives the same sum
            node_n = lv.counts[scored_nodes].sum(axis=1).tolist()
        else:  # sums of weights, added as the events path adds them
            node_n = [sum(d.counts[i]) for i in scored_nodes]
        node_entropy = [d.entropy[i] for i in scored_nodes]
        # How many lines each (scored node, feature) writes: a candidate in full writes its
        # test, its branches and its total; one without branches (no valid split, or a score
        # only) one line; one more for its best thresholds (verbose=2).
        n_lines = s.candidate.astype(np.int64)
        in_full = np.zeros_like(s.candidate)
        for b in _distinct(d.branches):
            n_branches = np.diff(b.first).reshape(len(b.features), -1).T
            full = s.candidate[:, b.features] & ~np.isnan(s.gain[:, b.features]) & (n_branches > 0)
            in_full[:, b.features] = full
            n_lines[:, b.features] += np.where(full, 1 + n_branches, 0)
        listed = np.zeros_like(s.candidate)
        for best in _distinct(d.thresholds):
            n_listed = np.diff(best.bounds).reshape(len(best.features), -1).T
            listed[:, best.features] = s.candidate[:, best.features] & (n_listed > 0)
        n_lines += listed
        flat = n_lines.ravel()
        starts = (offset + np.cumsum(flat) - flat).reshape(n_lines.shape)
        for e, f in zip(*(a.tolist() for a in np.nonzero(s.candidate & ~in_full))):
            text = self._short_candidate(d, e, f, node_n[e], node_entropy[e])
            work["short"].append((int(starts[e, f]), text))
        for b in _distinct(d.branches):
            j, e = np.nonzero(in_full[:, b.features].T)  # feature by feature
            if len(e):
                f = np.asarray(b.features)[j]
                kind = "numeric" if self.data.codes[b.features[0]] is None else "categorical"
                work[kind].append((d, b, j * b.k + e, starts[e, f], node_n, node_entropy))
        for best in _distinct(d.thresholds):
            j, e = np.nonzero(listed[:, best.features].T)
            if len(e):
                f = np.asarray(best.features)[j]
                work["ranked"].append((d, best, j * best.k + e, starts[e, f] + n_lines[e, f] - 1))
        bounds = np.concatenate([[0], np.cumsum(n_lines.sum(axis=1))]) + offset
        d.text = bounds
        return int(bounds[-1])

    def _candidate_lines(self, kind: str, parts: list) -> tuple:
        """:func:`~id3tree.tracing.candidate_lines` of the candidates of ``parts`` (each
        ``(level, branches, candidates, where their lines start, node sizes, node
        entropies)``), all of one kind and each with a valid split and branches; and where each
        candidate's branches and lines start.

        The columns of every level are joined first (each :class:`_Branches` and each level's
        scores once), and each candidate's numbers are read from them by one index per column
        for the whole tree.
        """
        data = self.data
        levels = _distinct(dict(enumerate(d for d, *_ in parts)))
        tables = _distinct(dict(enumerate(b for _, b, *_ in parts)))
        in_scores = _starts(levels, lambda d: d.level.scores.gain.size)
        in_nodes = _starts(levels, lambda d: len(d.level.ids))
        in_candidates = _starts(tables, lambda b: len(b.first) - 1)
        in_rows = _starts(tables, lambda b: len(b.counts))
        in_words = _starts(tables, lambda b: len(b.features))
        n_each = [len(candidates) for _, _, candidates, *_ in parts]

        def each(values) -> np.ndarray:  # a value per part -> one per candidate
            return np.repeat(np.asarray(list(values), dtype=np.int64), n_each)

        candidates = np.concatenate([candidates for _, _, candidates, *_ in parts])
        j, e = np.divmod(candidates, each(b.k for _, b, *_ in parts))
        word_row = each(in_words[id(b)] for _, b, *_ in parts) + j
        features = np.concatenate([b.features for b in tables])
        f = features[word_row]
        n_features = len(data.names)
        at_score = each(in_scores[id(d)] for d, *_ in parts) + e * n_features + f
        scores = {
            name: np.concatenate([_score(d.level.scores, name).ravel() for d in levels])[at_score]
            for name in _SCORE_NAMES
        }
        at_node = each(in_nodes[id(d)] for d, *_ in parts) + e
        of_level = {id(d): (node_n, h) for d, _, _, _, node_n, h in parts}  # per scored node
        node_n = np.concatenate([np.asarray(of_level[id(d)][0]) for d in levels])
        node_entropy = np.concatenate([np.asarray(of_level[id(d)][1]) for d in levels])
        # the branches of every candidate, one after the other
        first_of = np.concatenate([b.first[:-1] + in_rows[id(b)] for b in tables])
        n_branches_of = np.concatenate([np.diff(b.first) for b in tables])
        c = each(in_candidates[id(b)] for _, b, *_ in parts) + candidates
        n_branches = n_branches_of[c]
        first = np.concatenate([[0], np.cumsum(n_branches)])
        rows = np.repeat(first_of[c] - first[:-1], n_branches) + np.arange(first[-1])
        counts = np.concatenate([b.counts for b in tables])[rows]
        sizes = np.concatenate([b.sizes for b in tables])[rows]
        slots = np.concatenate([b.slots for b in tables])[rows]
        tests = None
        if kind == "numeric":
            tests = number_texts(scores["threshold"], tracing.DECIMALS)
        # each branch's label: the words of its slot, then (a numeric side) the threshold
        owner = np.repeat(np.arange(len(candidates)), n_branches)
        labels = _words_table(tables)[word_row[owner], slots]
        label_ends = None
        if tests is not None:
            label_ends = np.full(len(owner), "", dtype=object)
            sides = np.flatnonzero(slots != NUMERIC_MISSING)
            label_ends[sides] = np.array(tests, dtype=object)[owner[sides]]
        names = np.array(data.names, dtype=object)
        columns = {
            "depth": each(d.level.depth for d, *_ in parts).tolist(),
            "feature": names[f].tolist(),
            "n_samples": node_n[at_node],
            "entropy": tracing.fixed_texts(node_entropy[at_node]),
            "gain": scores["gain"],
            "gain_ratio": scores["ratio"],
            "overall_entropy": scores["overall"],
            "threshold": tests,
            "low": scores["low"],
            "high": scores["high"],
            "first": first,
        }
        branches = {
            "label": labels.tolist(),
            "label_end": None if label_ends is None else label_ends.tolist(),
            "n_samples": sizes,
            "entropy": entropy_rows(counts),
            "counts": counts_texts(counts, data.classes),
        }
        criterion = parts[0][0].level.criterion
        text = tracing.candidate_lines(kind, criterion, columns, branches)
        return text, first, np.concatenate([at for _, _, _, at, *_ in parts])

    @staticmethod
    def _thresholds_lines(parts: list) -> tuple:
        """:func:`~id3tree.tracing.thresholds_texts` of the candidates of ``parts`` (each
        ``(level, best thresholds, candidates, where their line goes)``), each with thresholds
        to list, in one call; and where each line goes."""
        threshold, overall, spans, depths, at = [], [], [], [], []
        offsets, offset = {}, 0
        for d, best, candidates, where in parts:
            if id(best) not in offsets:
                offsets[id(best)] = offset
                threshold.append(best.columns["threshold"])
                overall.append(best.columns["overall_entropy"])
                offset += len(best.columns["threshold"])
            first, stop = best.bounds[candidates], best.bounds[candidates + 1]
            n_more = best.totals[candidates] - (stop - first)
            shift = offsets[id(best)]
            spans += zip((first + shift).tolist(), (stop + shift).tolist(), n_more.tolist())
            depths += [d.level.depth] * len(candidates)
            at.append(where)
        threshold, overall = np.concatenate(threshold), np.concatenate(overall)
        text = tracing.thresholds_texts(depths, threshold, overall, spans)
        return np.concatenate(at), text

    def _node_texts(self, details: list) -> list:
        """What :func:`~id3tree.tracing.node_text` writes after each node's path, for every
        node of the levels ``details`` at once, level after level: ``2 samples (No: 2, Yes: 0),
        entropy 0.0000``."""
        counts = np.concatenate([d.level.counts for d in details])
        if counts.dtype.kind in "iu":  # whole counts: any order of adding gives the same sum
            n_samples = counts.sum(axis=1)
        else:  # sums of weights, added as the events add them
            n_samples = np.asarray([sum(row) for d in details for row in d.counts])
        parts = zip(
            count_texts(n_samples),
            tracing.plural_words(n_samples, "sample", "samples"),
            counts_texts(counts, self.data.classes),
            tracing.fixed_texts([h for d in details for h in d.entropy]),
        )
        return [f"{n} {samples} ({counts}), entropy {h}" for n, samples, counts, h in parts]

    def _decision_texts(self, details: list) -> list:
        """Each node's decision, written for every node of the levels ``details`` at once,
        level after level: the split (:func:`~id3tree.tracing.split_texts`) or why it stays a
        leaf (:func:`~id3tree.tracing.leaf_texts`)."""
        data = self.data
        texts = [None] * sum(len(d.level.counts) for d in details)
        leaves, depths, predictions, reasons, notes = [], [], [], [], []
        splits = []  # (level, its scored nodes that split, where their nodes are in texts)
        offset = 0
        for d in details:
            lv, dec = d.level, d.decisions
            top = top_classes(lv.counts)
            majority = np.argmax(top, axis=1)  # the first of the top classes
            tied = (lv.counts.max(axis=1) > 0) & (top.sum(axis=1) > 1)
            scored_nodes = np.flatnonzero(lv.eligible)
            splits_here = np.zeros(len(lv.counts), dtype=bool)
            splits_here[scored_nodes[lv.splitting]] = True
            leaf = np.flatnonzero(~splits_here)
            at_leaf = leaf.tolist()
            why = [dec.reasons[i] for i in at_leaf]
            for j in np.flatnonzero(lv.eligible[leaf]).tolist():  # scored, yet no split
                if why[j] == NO_VALID_SPLIT:
                    why[j] += ", as each candidate above says"
            predicted = [data.classes[m] for m in majority[leaf].tolist()]
            tie_notes = [""] * len(at_leaf)
            for j in np.flatnonzero(tied[leaf]).tolist():
                counts = self._class_counts(lv.counts[at_leaf[j]].tolist())
                tie_notes[j] = class_tie_note(counts, predicted[j])
            leaves += (leaf + offset).tolist()
            depths += [lv.depth] * len(at_leaf)
            predictions += predicted
            reasons += why
            notes += tie_notes
            scored = np.flatnonzero(lv.splitting).tolist()
            if scored:
                splits.append((d, scored, (scored_nodes[scored] + offset).tolist()))
            offset += len(lv.counts)
        for i, text in zip(leaves, tracing.leaf_texts(depths, predictions, reasons, notes)):
            texts[i] = text
        if splits:
            at = [i for _, _, where in splits for i in where]
            for i, text in zip(at, self._split_texts(splits)):
                texts[i] = text
        return texts

    def _split_texts(self, splits: list) -> list:
        """:func:`~id3tree.tracing.split_texts` of the splits of several levels at once:
        ``splits`` holds ``(level, its scored nodes that split, ...)``.

        The branch labels of every child are looked up at once in a table of each feature's
        slots (:meth:`_slot_labels`), a numeric side followed by its split's threshold; a
        level's children are those of its splitting nodes, in order."""
        data = self.data
        depths, features, threshold, notes, gain, ratio = [], [], [], [], [], []
        child_feature, slots, sizes, n_children = [], [], [], []
        numeric = [c is None for c in data.codes]
        for d, scored, _ in splits:
            dec, lv = d.decisions, d.level
            chosen = [dec.feature[e] for e in scored]
            depths += [lv.depth] * len(scored)
            features += chosen
            threshold += [dec.threshold[e] if numeric[f] else None for e, f in zip(scored, chosen)]
            gain += [dec.gain[e] for e in scored]
            ratio += [dec.ratio[e] for e in scored]
            notes += [
                (
                    dec.tied_with.get(e, ()),
                    dec.n_ties[e] if numeric[f] else 1,
                    dec.below_average.get(e, ()),
                )
                for e, f in zip(scored, chosen)
            ]
            child_feature.append(lv.chosen[lv.parent])
            slots.append(lv.child_slot)
            sizes.append(lv.child_sizes)
            n_children.append(np.diff(dec.first_child)[scored])
        written = number_texts([np.nan if t is None else t for t in threshold], tracing.DECIMALS)
        written = [None if t is None else w for w, t in zip(written, threshold)]
        child_feature, slots = np.concatenate(child_feature), np.concatenate(slots)
        n_children = np.concatenate(n_children)
        labels = self._slot_labels()[child_feature, slots]
        sides = np.flatnonzero(np.array(numeric)[child_feature] & (slots != NUMERIC_MISSING))
        owner = np.repeat(np.arange(len(features)), n_children)  # the split of each child
        labels[sides] += np.array(written, dtype=object)[owner[sides]]
        columns = {
            "feature": [data.names[f] for f in features],
            "threshold": written,
            "gain": gain,
            "gain_ratio": ratio,
            "notes": notes,
        }
        first = np.concatenate([[0], np.cumsum(n_children)])
        branches = {"label": labels.tolist(), "n_samples": np.concatenate(sizes), "first": first}
        criterion = splits[0][0].level.criterion
        return tracing.split_texts(depths, criterion, columns, branches)

    def _slot_labels(self) -> np.ndarray:
        """The short label of each branch slot of each feature (:func:`slot_label` without the
        threshold: ``<=`` or ``>`` and a space, ``missing``; ``Sunny``, ..., ``missing``), one
        row per feature padded with empty words; written once per fit."""
        if self.slot_labels is None:
            data = self.data
            rows = [
                [
                    slot_label(data, f, slot, np.nan, "")
                    for slot in range(3 if codes is None else len(data.categories[f]) + 1)
                ]
                for f, codes in enumerate(data.codes)
            ]
            self.slot_labels = np.full((len(rows), max(map(len, rows))), "", dtype=object)
            for f, row in enumerate(rows):
                self.slot_labels[f, : len(row)] = row
        return self.slot_labels

    def _short_candidate(self, d: _Details, e: int, f: int, n, entropy: float) -> str:
        """The one line of feature ``f``'s candidate at scored node ``e`` when it has no
        branches to show: no valid split (and why), or only its score."""
        lv, s, data = d.level, d.level.scores, self.data
        scores = (_none_if_nan(float(_score(s, name)[e, f])) for name in _SCORE_NAMES)
        kind = "numeric" if data.codes[f] is None else "categorical"
        reason = d.reasons.get((e, f))
        name = data.names[f]
        return tracing.candidate_text(
            lv.depth, name, kind, n, entropy, *scores, (), lv.criterion, reason
        )

    # -----------------------------------------------------------------------------------------
    # the events, in reading order
    # -----------------------------------------------------------------------------------------
    def _replay(self, new: np.ndarray, parent: np.ndarray) -> None:
        """Send the events of every node in pre-order, with pre-order numbers. A tracer that only
        prints gets their lines instead (:meth:`_write_page`): the same text, without the
        events (:func:`~id3tree.tracing.prints_only`)."""
        self._tree_branches()
        found = _Decisions.of_levels([d.level for d in self.details], self.data.names)
        for d, decisions in zip(self.details, found):
            d.decisions = decisions
        if self.as_text:
            self._write_page(new)
            self.details = []
            return
        starts = np.array([int(d.level.nodes[0]) for d in self.details])
        order = np.argsort(new)  # the grower's numbers in reading order
        level = np.searchsorted(starts, order, side="right") - 1
        parent = parent.tolist()
        where = self._node_paths()
        at = zip(order.tolist(), level.tolist(), (order - starts[level]).tolist())
        for number, (old, j, i) in enumerate(at):
            self._node_events(self.details[j], i, number, parent[number], where[old])
        self.details = []

    def _write_page(self, new: np.ndarray) -> None:
        """The page a printing tracer writes, in blocks of ``WRITE_EVERY`` lines: node by node
        in reading order (``new`` holds the pre-order number of each of the grower's nodes),
        its line, its candidates and its decision.

        Each kind of text is written for the whole tree at once (:meth:`_write_candidates`,
        :meth:`_node_texts`, :meth:`_decision_texts`, :meth:`_node_paths`) and put in its
        places on the page by numpy (where each node's lines start is known from how many
        lines its candidates take, :meth:`_plan_candidates`): nothing is done node by node
        but the nodes' own lines.
        """
        self._entropies()
        work, n_candidate_lines = self._plan_candidates()
        details = self.details
        node_text = self._node_texts(details)
        decision_text = self._decision_texts(details)
        where = [" and ".join(words) if words else "root" for words in self._node_paths()]
        # where each node's candidates are among candidate_lines (grower's numbers)
        first, n_lines = [], []
        for d in details:
            e = np.asarray([-1 if e is None else e for e in d.decisions.scored], dtype=np.int64)
            # a node that was not scored (e = -1) reads the last entry: none
            first.append(np.append(d.text[:-1], 0)[e])
            n_lines.append(np.append(np.diff(d.text), 0)[e])
        order = np.argsort(new)  # the grower's numbers in reading order
        first, n_lines = np.concatenate(first)[order], np.concatenate(n_lines)[order]
        depth = np.concatenate([np.full(len(d.level.counts), d.level.depth) for d in details])
        depth = depth[order]
        pads = tracing.indents(depth, len(depth)).tolist()
        node_lines = [
            f"{pad}Node {number} [{where[old]}]: {node_text[old]}"
            for number, (pad, old) in enumerate(zip(pads, order.tolist()))
        ]
        # the page, node by node: its line, its candidates' lines (written in their places by
        # _write_candidates), its decision
        size = n_lines + 2
        start = np.cumsum(size) - size
        page = np.empty(int(size.sum()), dtype=object)
        page[start] = node_lines
        page[start + 1 + n_lines] = np.array(decision_text, dtype=object)[order]
        within = np.arange(int(n_lines.sum())) - np.repeat(np.cumsum(n_lines) - n_lines, n_lines)
        at_page = np.empty(n_candidate_lines, dtype=np.int64)
        at_page[np.repeat(first, n_lines) + within] = np.repeat(start + 1, n_lines) + within
        self._write_candidates(work, page, at_page)
        lines = page.tolist()
        for at in range(0, len(lines), WRITE_EVERY):
            self.tracer.write("\n".join([*lines[at : at + WRITE_EVERY], ""]))

    def _entropies(self) -> None:
        """The entropy of every node (``entropy`` of each level) for a printing tracer: of the
        whole tree at once when the counts are whole numbers (each row's entropy is then
        computed as if alone), else level by level as the events' path does."""
        counts = [d.level.counts for d in self.details]
        if all(c.dtype.kind in "iu" for c in counts):
            entropy = entropy_rows(np.concatenate(counts)).tolist()
            bounds = np.cumsum([0] + [len(c) for c in counts]).tolist()
            for d, first, stop in zip(self.details, bounds, bounds[1:]):
                d.entropy = entropy[first:stop]
        else:
            for d in self.details:
                d.entropy = entropy_rows(d.level.counts).tolist()

    def _node_paths(self) -> list:
        """The path of each node (grower's numbers): the words of its condensed tests, one per
        feature tested on the way (:func:`~id3tree.node.path_word`; none at the root).

        What the path of each node of a level knows of every feature is kept in arrays, a row
        per node: :func:`~id3tree.node.narrowed`'s ``(low, high, other)`` as the bounds of the
        numeric tests (NaN for none: ``np.fmin`` and ``np.fmax`` then narrow them as ``min``
        and ``max`` do) and the last ``=`` or ``missing`` test, and the place of the feature's
        word in the path (-1 before its first test). The children of a whole level are
        narrowed by a few numpy calls (a level's children are the next level's nodes, in
        order); then each child's words are its parent's with one word written in its place,
        every threshold of the tree written at once beforehand.
        """
        data = self.data
        numeric = np.array([c is None for c in data.codes])
        n_features = len(numeric)
        low, high = np.full((1, n_features), np.nan), np.full((1, n_features), np.nan)
        other = np.full((1, n_features), None, dtype=object)
        place = np.full((1, n_features), -1, dtype=np.int64)
        n_words = np.zeros(1, dtype=np.int64)
        steps = []  # per level: each child's parent row, feature and what it knows of it
        for d in self.details:
            lv = d.level
            if not len(lv.children):
                break
            rows = lv.ids[lv.parent] - lv.nodes[0]  # each child's parent, among the nodes
            f = lv.chosen[lv.parent]
            slot, threshold = lv.child_slot, lv.scores.threshold[lv.parent, f]
            low, high, other, place, n_words = (a[rows] for a in (low, high, other, place, n_words))
            child = np.arange(len(f))
            sides = numeric[f] & (slot != NUMERIC_MISSING)
            for side, bound, narrow in ((LEFT, high, np.fmin), (RIGHT, low, np.fmax)):
                at = np.flatnonzero(sides & (slot == side))
                bound[at, f[at]] = narrow(bound[at, f[at]], threshold[at])
            for c in np.flatnonzero(~sides).tolist():  # a value or missing values: rare
                g = int(f[c])
                _, op, value = slot_step(data, g, int(slot[c]), np.nan)
                other[c, g] = (op, value)
            new = place[child, f] < 0
            place[child[new], f[new]] = n_words[new]
            n_words = n_words + new
            steps.append((rows, f, place[child, f], low[child, f], high[child, f], other[child, f]))
        splits = np.concatenate(
            [[np.nan]] + [step[3] for step in steps] + [step[4] for step in steps]
        )
        splits = np.unique(splits[~np.isnan(splits)])
        self.written.update(zip(splits.tolist(), number_texts(splits, tracing.DECIMALS)))
        level, where = [()], [()]
        for rows, f, at, lows, highs, others in steps:
            names = [data.names[g] for g in f.tolist()]
            lows = [None if v != v else v for v in lows.tolist()]
            highs = [None if v != v else v for v in highs.tolist()]
            parts = zip(rows.tolist(), names, at.tolist(), lows, highs, others.tolist())
            level = [
                (words := level[row])[:i]
                + (path_word(name, (lo, hi, ot), tracing.DECIMALS, self.written),)
                + words[i + 1 :]
                for row, name, i, lo, hi, ot in parts
            ]
            where += level
        return where

    def _node_events(self, d: _Details, i: int, number: int, parent: int, where: tuple) -> None:
        """Send the events of node ``i`` of a level, numbered ``number``, whose path has the
        words ``where`` (:meth:`_node_paths`)."""
        lv, data, dec = d.level, self.data, d.decisions
        depth = lv.depth
        counts = d.counts[i]
        n = sum(counts)
        entropy = d.entropy[i]
        prediction = data.classes[int(majority_classes(counts))]
        class_counts = self._class_counts(counts)
        self.tracer(
            tracing.NodeStarted(
                number, None if parent < 0 else parent, depth, where, class_counts, n, entropy
            )
        )
        e = dec.scored[i]
        if e is None:
            self._leaf(number, depth, prediction, counts, dec.reasons[i])
            return
        for f in np.flatnonzero(lv.scores.candidate[e]).tolist():
            self.tracer(tracing.CandidateScored(number, *self._candidate(d, e, f, n, entropy)))
            if f in d.thresholds:
                self._thresholds(d, e, f, number)
        if not dec.splitting[e]:
            reason = dec.reasons[i]
            if reason == NO_VALID_SPLIT:
                reason += ", as each candidate above says"
            self._leaf(number, depth, prediction, counts, reason)
            return
        f, threshold = dec.feature[e], dec.threshold[e]
        numeric = data.codes[f] is None
        branches = [
            (slot_label(data, f, dec.child_slot[c], threshold), dec.child_size[c])
            for c in range(dec.first_child[e], dec.first_child[e + 1])
        ]
        fields = (
            depth,
            data.names[f],
            threshold,
            dec.gain[e],
            dec.ratio[e],
            lv.criterion,
            dec.tied_with.get(e, ()),
            dec.n_ties[e] if numeric else 1,
            tuple(branches),
            dec.below_average.get(e, ()),
        )
        self.tracer(tracing.SplitChosen(number, *fields))

    def _class_counts(self, counts: list) -> dict:
        return dict(zip(self.data.classes, counts))

    def _leaf(self, number, depth, prediction, counts, reason) -> None:
        class_counts = self._class_counts(counts)
        ties = tuple(tied_classes(class_counts))
        self.tracer(tracing.LeafMade(number, depth, prediction, class_counts, reason, ties))

    def _thresholds(self, d: _Details, e: int, f: int, number: int) -> None:
        """The best thresholds of numeric feature ``f`` at scored node ``e`` (``verbose=2``)."""
        best = d.thresholds[f]
        c = best.candidate(e, f)
        lo, hi = int(best.bounds[c]), int(best.bounds[c + 1])
        if hi == lo:
            return
        depth, name = d.level.depth, self.data.names[f]
        rows = zip(*(best.columns[column][lo:hi].tolist() for column in _THRESHOLD_FIELDS))
        ranked = tuple(
            tracing.ThresholdScored(number, depth, name, rank, *row)
            for rank, row in enumerate(rows, start=1)
        )
        n_more = int(best.totals[c]) - hi + lo
        self.tracer(tracing.ThresholdsRanked(number, depth, name, ranked, n_more))

    def _candidate(self, d: _Details, e: int, f: int, n: int, entropy: float) -> tuple:
        """The fields of feature ``f``'s :class:`~id3tree.tracing.CandidateScored` at scored
        node ``e``, after ``node``: its branches and numbers."""
        sc, classes = d.scores, self.data.classes
        branches = tuple(
            tracing.Branch(label, dict(zip(classes, counts)), size, h)
            for label, counts, size, h in (d.branches[f].at(e, f) if f in d.branches else ())
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
        # The grower numbers nodes level by level; readers number them depth first.
        new = preorder(parent, depth)
        order = np.argsort(new)
        parent = new[parent[order]]
        parent[0] = -1  # the root, first in pre-order
        # every level's splits and leaves at once, written at their pre-order positions
        ids, f, t, g = map(np.concatenate, zip(*self.split_parts))
        at = new[ids]
        feature = np.full(n, -1, dtype=np.int64)
        feature[at] = f
        threshold = np.full(n, np.nan)
        threshold[at] = t
        gain = np.full(n, np.nan)
        gain[at] = g
        leaves, reasons = map(np.concatenate, zip(*self.leaf_parts))
        stop_reason = np.empty(n, dtype=object)  # (None everywhere)
        stop_reason[new[leaves]] = reasons
        trace = LazyTrace(self.trace_parts, new) if self.trace_parts else None
        if trace is not None and self.keep_trace is not True:  # the chosen splits only: join them
            trace._made()
        counts = counts[order]
        grown = GrownTree(
            parent,
            slot[order],
            depth[order],
            counts,
            entropy_rows(counts),
            feature,
            threshold,
            gain,
            stop_reason.tolist(),
            trace,
        )
        if self.tracer is not None:
            self._replay(new, grown.parent)
        return grown


class LazyTrace(Mapping):
    """The trace's columns (one row per scored node and candidate feature, one per unscored
    leaf; with ``keep_trace="splits"`` one row per node), made from the levels' scores the
    first time a column is read: a fit nobody asks the trace of never makes it.

    ``parts`` holds each level's ``(keep_trace, table, candidate, tied, splitting, chosen, ids,
    nodes, eligible)`` (the fields of :class:`Level` and its scores), or its trace rows already
    made (:func:`_level_trace`: a dict of columns); ``numbers`` maps the
    grower's node numbers to pre-order ones.
    """

    def __init__(self, parts: list, numbers: np.ndarray | None = None):
        self.parts, self.numbers, self._columns = parts, numbers, None

    def _made(self) -> dict:
        if self._columns is None:
            levels = [p if isinstance(p, dict) else _level_trace(*p) for p in self.parts]
            columns = {c: np.concatenate([t[c] for t in levels]) for c in levels[0]}
            if self.numbers is not None:
                columns["node"] = self.numbers[columns["node"]]
            self._columns, self.parts, self.numbers = columns, None, None
        return self._columns

    def __getitem__(self, name):
        return self._made()[name]

    def __iter__(self):
        return iter(self._made())

    def __len__(self):
        return len(self._made())


def _level_trace(keep_trace, table, candidate, tied, splitting, chosen, ids, nodes, eligible):
    """The trace rows of one level (see :class:`LazyTrace`), in the grower's node numbers."""
    if keep_trace == "splits":
        e = np.flatnonzero(splitting)
        f = chosen[e]
        unscored = np.concatenate([nodes[~eligible], ids[~splitting]])
    else:
        e, f = np.nonzero(candidate)
        unscored = nodes[~eligible]
    m = len(unscored)
    # the six float scores of every row at once (unscored leaves: NaN)
    floats = dict(
        zip(
            _SCORE_NAMES,
            np.concatenate([np.full((len(_SCORE_NAMES), m), np.nan), table[:, e, f]], axis=1),
        )
    )
    return dict(
        node=np.concatenate([unscored, ids[e]]),
        feature=np.concatenate([np.full(m, -1), f]),
        threshold=floats["threshold"],
        low=floats["low"],
        high=floats["high"],
        overall_entropy=floats["overall"],
        gain=floats["gain"],
        gain_ratio=floats["ratio"],
        chosen=np.concatenate([np.zeros(m, bool), splitting[e] & (chosen[e] == f)]),
        tie=np.concatenate([np.zeros(m, bool), tied[e, f] & (tied[e].sum(axis=1) > 1)]),
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
