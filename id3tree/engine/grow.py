"""The learner's ID3: every node of a level grown at once, proven equal to the textbook's.

Read :func:`id3tree.textbook.grow_tree` (:mod:`id3tree.textbook`) first: ID3 as a textbook writes
it, one node at a time; a node's best split is chosen there in ``grow_node``, step 4
(``best = choose_split(...)``), here in :func:`choose_splits`. :func:`grow` builds exactly the
same tree (same features, thresholds, class counts and branches, ties broken by the rule the
textbook states; a property test grows every tree both ways) by Quinlan's same steps, for every
node of a level at once:

1. make a node with the class counts of the rows that reach it;
2. stop if it is pure, too small, or at the maximum depth;
3. score every feature: a categorical feature by the gain of one branch per value, a numeric one by
   the gain of its best midpoint (lowest overall entropy, :mod:`id3tree.engine.splits`; every cut scored
   by Shannon's formula written for counts, :func:`~id3tree.base.entropy.cut_entropy_units`);
4. split on the best feature (:func:`choose_splits`: ties go to the first in column order); a
   categorical feature is then used up for that path, a numeric one can be cut again deeper down;
5. repeat for the children.

Doing step 3 node by node would multiply Python's overhead by nodes x features. Instead each level
is a handful of vectorised operations over all the rows still in play: the rows of every numeric
feature are kept sorted by value inside each node (:class:`~id3tree.engine.sorted_columns.SortedColumns`:
sorted once at the root, then regrouped by child after every level), and every numeric feature of
a level is searched by one of the named searches of :mod:`id3tree.engine.splits.strategies`, chosen by
size from one table; all give the same integer scores, so the same cuts and ties. The categorical
features take one ``bincount`` of (node, value, class) per level.

With ``sample_weight`` (``EncodedData.weight``) every class count is a sum of weights, the rows
of each node are counted apart (they lay out the segments and meet ``min_samples_leaf``), and
the numeric search takes its float twin (the ``weighted`` search); without weights nothing of
this runs.

The result is a :class:`~id3tree.model.grown_tree.GrownTree` of flat arrays, renumbered in pre-order
(depth first) at the end.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from id3tree.base.contingency import chi_square_from_table
from id3tree.base.entropy import forget_large_tables
from id3tree.base.training import EncodedData
from id3tree.engine.record import SCORE_NAMES, Level, Listener, Record
from id3tree.engine.sorted_columns import SortedColumns
from id3tree.engine.splits import (
    TIE_TOLERANCE,
    class_counts,
    dense_ranks,
    filled,
    score_categorical,
)
from id3tree.engine.splits.results import gain_ratios
from id3tree.engine.stopping import (
    NO_VALID_SPLIT,
    low_gain_reason,
    not_significant_reason,
    stop_reasons,
)
from id3tree.model.grown_tree import GrownTree

__all__ = [
    "below_average_gain", "Choice", "choose_splits", "EncodedData", "grow", "GrowParams", "Scores",
    "search_groups", "GroupSearch",
]  # fmt: skip


@dataclass
class GrowParams:
    criterion: str = "entropy"
    max_depth: float = np.inf
    min_samples_split: int = 2
    min_samples_leaf: int = 1
    min_weight_leaf: float = 0.0  # the weight each branch must hold (weighted fits only)
    min_gain: float = 0.0
    alpha: float | None = None
    average_gain_rule: bool = True  # C4.5: under gain ratio, only features of at least average gain
    keep_trace: bool | str = (
        True  # ("auto": by size) False only to measure what keeping ``trace_`` costs
    )
    ties: str = "first"  # features tied for the best: the first in column order, or by name
    feature_rank: Any = None  # ties="name": each feature's place by name (None: column order)


def grow(data: EncodedData, params: GrowParams, listener: Listener | None = None) -> GrownTree:
    """Grow a tree on ``data``, every node of a level at once, by Quinlan's steps (those of the
    module docstring; :func:`id3tree.textbook.grow_tree` takes them one node at a time); each
    level is told to ``listener`` as it is recorded (the trace listens so)."""
    if params.ties == "name":  # (the features of this data: id_like="drop" leaves some out)
        names = [str(name) for name in data.names]
        params = replace(params, feature_rank=np.argsort(np.argsort(names, kind="stable")))
    growth = _Growth(data, params, listener)
    # 1. the root: a node with the class counts of every row
    level = growth.root()
    while level is not None:
        # 2. the nodes that stop before any scoring (pure, too small, at max_depth) stay
        # leaves: their reasons were written when the level was made
        if not growth.start_level(level):
            growth.record_leaves(level)  # every node of the level is a leaf: the tree is grown
            break
        # 3. score every feature at every node that may split
        scores = growth.score(level)
        # 4. the best feature of each node, and whether it is worth a split
        choice = choose_splits(scores, params, growth.children_counts(level))
        # 4. split on it: one child per non-empty branch, with its class counts
        children = growth.split(level, scores, choice)
        # 5. repeat for the children (a categorical feature is used up on their paths)
        level = growth.next_level(level, choice, children)
    return growth.finish()


@dataclass
class GroupSearch:
    """Steps 2 to 4 at groups of rows given from outside (:func:`search_groups`)."""

    scored: np.ndarray  # whether each group was scored (False: a stopping rule stopped it)
    scores: Scores  # of the scored groups, in order
    choice: Choice  # of the scored groups, in order


def search_groups(
    data: EncodedData, params: GrowParams, group: np.ndarray, n_groups: int, used: np.ndarray
) -> GroupSearch:
    """Steps 2 to 4 of ID3 at ``n_groups`` nodes of one's own: group ``g`` holds the rows of
    ``data`` whose ``group`` is ``g`` (each row in one group; a row repeated is a copy), and
    ``used[g]`` the categorical features used up on its path. The very steps :func:`grow` takes
    at a level (the same stopping rules, searches, scores and tie rules), for the groups at once;
    :mod:`id3tree.teaching.stability` redoes a node's split search on resamples of its rows so.
    ``params.max_depth`` is not applied (the groups have no depth)."""
    growth = _Growth(data, params, None)
    k = growth.n_classes
    y = np.asarray(data.y, dtype=np.intp)
    counts = growth.as_counts(class_counts(group * k + y, n_groups, k, data.weight))
    rows = np.bincount(group, minlength=n_groups)
    n_rows = None if data.weight is None else rows
    reasons = stop_reasons(counts, 0, replace(params, max_depth=np.inf), n_rows)
    scored = np.equal(reasons, None)
    renumbered = np.full(n_groups, -1, dtype=np.int32)
    renumbered[scored] = np.arange(np.count_nonzero(scored), dtype=np.int32)
    growth.columns = SortedColumns(data, np.flatnonzero(~growth.is_cat))
    growth.columns.regroup(renumbered[group])
    level = _LevelNodes(0, np.arange(n_groups), counts, reasons, rows, used)
    if not growth.start_level(level):
        empty = Scores(0, growth.n_features)
        return GroupSearch(scored, empty, choose_splits(empty, params))
    scores = growth.score(level)
    return GroupSearch(scored, scores, choose_splits(scores, params, growth.children_counts(level)))


@dataclass
class Choice:
    """Step 4 at every scored node of a level (:func:`choose_splits`)."""

    chosen: np.ndarray  # the best feature
    splitting: np.ndarray  # whether the node splits on it
    why: np.ndarray  # why the node stays a leaf (None where it splits)


def choose_splits(s: Scores, params: GrowParams, children_counts: Any = None) -> Choice:
    """Step 4 of ID3 at every scored node of a level at once: the best feature, and whether the
    node splits on it. Used by every grower (:func:`grow`, and the one of Dask DataFrames), so
    their trees compare equal.

    * The best feature has the highest information gain (``criterion="entropy"``) or gain ratio
      (``"gain_ratio"``; with ``average_gain_rule``, C4.5's rule first keeps out the features
      whose gain is below the average gain of those with a valid split). Scores within
      ``TIE_TOLERANCE`` of the best are tied, and the first feature in column order wins (the
      first by name with ``feature_rank``, ``ties="name"``).
    * A node where no feature offers a valid split stays a leaf (NaN scores never win).
    * ``min_gain``: a node whose best gain is below it stays a leaf.
    * ``alpha``: Quinlan's chi-square test. A split whose branches and classes look independent
      (p-value not below ``alpha``) is not made. ``children_counts(chosen, splitting)`` gives
      the children those splits would make: the scored node of each (in order) and its class
      counts, one per non-empty branch in branch order.

    Sets ``s.tied`` and ``s.below_average``, which the trace reports.
    """
    if params.criterion == "gain_ratio":
        score = np.fmax(s.ratio, -np.inf)  # NaN (no valid split) becomes -inf
        if params.average_gain_rule:
            s.below_average = s.below_average_gain()
            score[s.below_average] = -np.inf
        best = np.maximum.reduce(score, axis=1, initial=-np.inf)
        s.tied = np.isfinite(score) & (score >= best[:, None] - TIE_TOLERANCE)
        splitting = np.isfinite(best)
    else:  # NaN (no valid split) is never the best (fmax) nor tied with it (compares False)
        best = np.fmax.reduce(s.gain, axis=1, initial=-np.inf)
        s.tied = s.gain >= (best - TIE_TOLERANCE)[:, None]
        splitting = best > -np.inf
    if params.feature_rank is None:
        chosen = s.tied.argmax(axis=1)  # the first tied feature in column order
    else:  # (ties="name": the tied feature whose name comes first)
        chosen = np.where(s.tied, params.feature_rank, len(params.feature_rank)).argmin(axis=1)
    why = np.empty(len(chosen), dtype=object)  # (None everywhere)
    why[~splitting] = NO_VALID_SPLIT
    if params.min_gain > 0:  # (gains are never negative: no gain is below 0)
        chosen_gain = s.gain[np.arange(len(chosen)), chosen]
        low_gain = splitting & (chosen_gain < params.min_gain)
        splitting &= ~low_gain
        for e in np.flatnonzero(low_gain).tolist():
            why[e] = low_gain_reason(chosen_gain[e], params.min_gain)
    if params.alpha is not None and splitting.any():
        parent, counts = children_counts(chosen, splitting)
        bounds = np.searchsorted(parent, np.arange(len(chosen) + 1))
        for e in np.flatnonzero(splitting).tolist():
            p = chi_square_from_table(counts[bounds[e] : bounds[e + 1]]).pvalue
            if not p < params.alpha:
                why[e] = not_significant_reason(p, params.alpha)
                splitting[e] = False
    return Choice(chosen, splitting, why)


@dataclass
class _LevelNodes:
    """The nodes of one level as they are made, and which of them will be scored."""

    depth: int
    nodes: np.ndarray  # their numbers, in the order the grower makes them
    counts: np.ndarray  # their class counts (sums of weights, with weights)
    reasons: np.ndarray  # why each stops before scoring; None: scored (step 4 adds its reason)
    sizes: np.ndarray  # the rows of each (weighted or not)
    used: np.ndarray  # per node: the categorical features used on its path
    # of the scored nodes (start_level): the positions of their rows in the sorted layouts
    scored: np.ndarray | None = None
    ids: np.ndarray | None = None
    starts: np.ndarray | None = None
    rows: np.ndarray | None = None  # their sizes in rows

    @property
    def k(self) -> int:
        return len(self.ids)


@dataclass
class _Children:
    """Step 4's children: each one's parent (a scored node of the level), branch slot, class
    counts and rows; and how the sorted layouts find them (:meth:`_Growth.next_level`)."""

    ids: np.ndarray
    parent: np.ndarray
    slot: np.ndarray
    counts: np.ndarray
    sizes: np.ndarray
    n_rows: np.ndarray | None  # with weights: each child's rows (else its sizes are rows)
    direct: bool  # made from the search's sides (SortedColumns.sorted_children)
    of_position: np.ndarray | None = None  # else: the child of each position of the level


class _Growth:
    """What grows across the levels: the nodes made so far, the rows in play sorted by every
    numeric feature (:class:`~id3tree.engine.sorted_columns.SortedColumns`) and the record of every
    level (:class:`~id3tree.engine.record.Record`). Each method is one step of :func:`grow`."""

    def __init__(self, data: EncodedData, params: GrowParams, listener: Listener | None) -> None:
        self.data, self.params = data, params
        self.n_classes, self.n_features = len(data.classes), data.n_features
        self.is_cat = np.array([c is not None for c in data.codes], dtype=bool)
        self.categorical = np.flatnonzero(self.is_cat).tolist()
        self.n_slots = max([3] + [len(c) + 1 for c in data.categories if c is not None])
        self.nodes = _Nodes(self.n_classes)
        self.record = Record(listener, keep_trace=params.keep_trace)
        # the listener's best thresholds (verbose=2): the search keeps the cuts that may be
        # among them
        rank = 0 if listener is None else listener.max_thresholds
        self.rank = rank if rank and data.weight is None else 0
        # with weights, every class count is a sum of weights, and the rows of each node are
        # counted apart: rows lay out the segments and meet min_samples_leaf / _split
        self.as_counts = _as_counts(data.weight)
        self.columns = None
        self._branch = None  # (the alpha rule: the branch of every position, once made)

    def root(self) -> _LevelNodes:
        """Step 1 at the root: it holds every row; numeric features are sorted once, here."""
        data, n = self.data, len(self.data.y)
        y = np.asarray(data.y, dtype=np.intp)
        counts = self.as_counts(class_counts(y, 1, self.n_classes, data.weight))
        ids = self.nodes.add(np.array([-1]), np.array([-1]), 0, counts)
        n_rows = None if data.weight is None else np.array([n])
        reasons = stop_reasons(counts, 0, self.params, n_rows)
        self.columns = SortedColumns(data, np.flatnonzero(~self.is_cat))
        if reasons[0] is not None:
            self.columns.regroup(np.full(n, -1, dtype=np.int32))
        used = np.zeros((1, self.n_features), dtype=bool)
        return _LevelNodes(0, ids, counts, reasons, np.array([n]), used)

    def start_level(self, lv: _LevelNodes) -> bool:
        """Step 2: the nodes to score (those no stopping rule stopped), where their rows lie in
        the sorted layouts; False when there is none."""
        lv.scored = np.equal(lv.reasons, None)
        lv.ids, lv.rows = lv.nodes[lv.scored], lv.sizes[lv.scored]
        if self.categorical:
            lv.used = lv.used[lv.scored]
        lv.starts = np.zeros(lv.k, dtype=np.int64)
        lv.rows[:-1].cumsum(out=lv.starts[1:])
        return lv.k > 0

    def record_leaves(self, lv: _LevelNodes) -> None:
        """The last level, every node of it a leaf: recorded, with no decision and no child."""
        nothing = np.zeros(0, dtype=np.int64)
        self.record.level(
            Level(lv.depth, lv.nodes, lv.counts, lv.reasons, lv.scored, lv.ids,
                Scores(0, self.n_features), chosen=nothing, splitting=np.zeros(0, dtype=bool),
                criterion=self.params.criterion, children=nothing, parent=nothing,
                child_slot=nothing, child_sizes=np.add.reduce(lv.counts[:0], axis=1),
                orders=self.columns.orders(), starts=lv.starts, sizes=lv.rows,
            )
        )  # fmt: skip

    def score(self, lv: _LevelNodes) -> Scores:
        """Step 3: every feature at every scored node; a numeric feature by the gain of its best
        midpoint, a categorical one by the gain of a branch per value (not where used up)."""
        data, params, w, k = self.data, self.params, self.data.weight, lv.k
        s = Scores(k, self.n_features)
        columns = self.columns
        columns.start_level(lv.rows)
        columns.score(
            s, lv.starts, lv.rows, self.n_classes, params.min_samples_leaf, w,
            params.min_weight_leaf, self.rank,
            counts=lv.counts[lv.scored] if w is None else None,
        )  # fmt: skip
        rows, labels = columns.rows[0], columns.labels[0]  # the rows in play, by node
        segment = columns.node_of_position if self.categorical else None
        for f in self.categorical:
            result = score_categorical(
                data.codes[f][rows], labels, segment, k, len(data.categories[f]) + 1,
                self.n_classes, min_leaf=params.min_samples_leaf,
                weight=None if w is None else w[rows], min_weight=params.min_weight_leaf,
            )  # fmt: skip
            s.candidate[:, f] = ~lv.used[:, f]
            ok = result.valid & ~lv.used[:, f]
            s.gain[:, f] = np.where(ok, result.gain, np.nan)
            s.ratio[:, f] = gain_ratios(ok, result.gain, result.split_info)
            s.overall[:, f] = np.where(ok, result.overall_entropy, np.nan)
            s.categorical[f] = result  # the branches, for the trace
        return s

    def children_counts(self, lv: _LevelNodes) -> Any:
        """For the chi-square rule of :func:`choose_splits`: the children that splits of the
        level's scored nodes would make, their parents and class counts."""

        def children_counts(chosen: Any, splitting: Any) -> Any:
            self._branch = self.columns.branches(
                self.data, chosen, splitting, lv.starts, lv.rows, self.is_cat
            )
            keys, _, counts, _ = self._children(lv, self._branch, splitting)
            return keys // self.n_slots, counts

        return children_counts

    def split(self, lv: _LevelNodes, s: Scores, choice: Choice) -> _Children:
        """Step 4's splits: the children of every splitting node, one per non-empty branch in
        branch order, with their class counts; the level is recorded."""
        chosen, splitting = choice.chosen, choice.splitting
        columns, w = self.columns, self.data.weight
        # small data split on sorted features: the sides of the chosen cuts, as searched
        if w is None and self.params.alpha is None and columns.splits_sorted(chosen, splitting):
            parent, slot, counts, sizes = columns.sorted_children(chosen, splitting)
            children = _Children(None, parent, slot, counts, sizes, None, direct=True)
        else:  # the branch of every row of a splitting node, and the children's class counts
            branch = self._branch
            if branch is None:
                branch = columns.branches(
                    self.data, chosen, splitting, lv.starts, lv.rows, self.is_cat
                )
            keys, of_position, counts, n_rows = self._children(lv, branch, splitting)
            counts = self.as_counts(counts)
            children = _Children(
                None, keys // self.n_slots, keys % self.n_slots, counts,
                np.add.reduce(counts, axis=1), n_rows, direct=False, of_position=of_position,
            )  # fmt: skip
        self._branch = None
        lv.reasons[lv.scored] = choice.why
        children.ids = self.nodes.add(
            lv.ids[children.parent], children.slot, lv.depth + 1, children.counts
        )
        self.record.level(
            Level(lv.depth, lv.nodes, lv.counts, lv.reasons, lv.scored, lv.ids, s, chosen,
                splitting, self.params.criterion, children.ids, children.parent, children.slot,
                children.sizes, columns.orders(), lv.starts, lv.rows,
            )
        )  # fmt: skip
        return children

    def _children(self, lv: _LevelNodes, branch: Any, splitting: Any) -> tuple:
        """:func:`_children` of the level's rows in play, whose branches are ``branch``."""
        w = self.data.weight
        columns = self.columns
        return _children(
            columns.node_of_position, branch, splitting, columns.labels[0], lv.k, self.n_slots,
            self.n_classes, None if w is None else w[columns.rows[0]],
        )  # fmt: skip

    def next_level(self, lv: _LevelNodes, choice: Choice, children: _Children) -> Any:
        """Step 5: the children make the next level (None if there is none); the rows of those
        that may split are regrouped by child, each numeric feature keeping its sorted order."""
        if not len(children.ids):
            return None
        depth, params = lv.depth + 1, self.params
        sizes = children.sizes if children.n_rows is None else children.n_rows
        reasons = stop_reasons(children.counts, depth, params, children.n_rows, children.sizes)
        scored = np.equal(reasons, None)
        if children.direct:
            self.columns.regroup_children(
                scored, children.parent, children.slot, children.sizes, lv.rows
            )
        else:
            new_segment = np.full(len(scored) + 1, -1, dtype=np.int32)  # (last: position -1)
            new_segment[:-1][scored] = np.arange(np.count_nonzero(scored))
            position_segment = new_segment[children.of_position]  # position -1: the last, -1
            children.of_position = None  # (rows before the sort)
            self.columns.regroup_positions(position_segment)
        used = lv.used
        if self.categorical:  # a categorical feature is used up on the paths below it
            chosen = choice.chosen[children.parent]
            used = used[children.parent]
            from_cat = self.is_cat[chosen].nonzero()[0]
            used[from_cat, chosen[from_cat]] = True
        return _LevelNodes(depth, children.ids, children.counts, reasons, sizes, used)

    def finish(self) -> GrownTree:
        """The grown tree, numbered in pre-order."""
        self.columns = None  # the sorted layouts go before the tree is built, and the large
        forget_large_tables()  # c log c tables
        nodes = self.nodes
        return self.record.finish(nodes.parent, nodes.slot, nodes.depth, nodes.counts)


class _Nodes:
    """Growable storage for the nodes made so far."""

    def __init__(self, n_classes: int) -> None:
        self.parent, self.slot, self.depth, self.counts = [], [], [], []
        self.n = 0
        self.n_classes = n_classes

    def add(self, parent: Any, slot: Any, depth: Any, counts: Any) -> np.ndarray:
        k = len(counts)
        self.parent.append(parent)
        self.slot.append(slot)
        self.depth.append(filled(k, depth, np.int64))
        self.counts.append(counts)
        ids = np.arange(self.n, self.n + k)
        self.n += k
        return ids


def _as_counts(weight: Any) -> Any:
    """What class counts become: unchanged without weights or with fractional ones; whole
    numbers (int64) when every weight is a whole number, so that a row of weight 2 and two
    copies of it give the very same counts (in the nodes, the trace and saved models)."""
    if weight is None or not np.all(weight == np.round(weight)) or weight.sum() >= 2**53:
        return lambda counts: counts  # (past 2**53 float sums are no longer exact)
    return lambda counts: np.rint(counts).astype(np.int64)


class Scores:
    """Per (node, feature) scores of one level.

    The six float scores (:attr:`FLOAT_SCORES`) are views of one array, ``table`` of shape
    ``(6, k, n_features)``: one allocation makes them all, one assignment writes a chunk of
    features into all six, and one gather reads the trace's six columns. A level whose features
    are all searched together (:meth:`take_table`) takes their search's table as it is; else
    the table is made, NaN, when first read.
    """

    FLOAT_SCORES = SCORE_NAMES
    """The float scores, in the order of ``table``: gain, gain ratio, the overall entropy after
    the split, the threshold and the two values it lies between (NaN where not valid)."""

    def __init__(self, k: int, n_features: int) -> None:
        self.shape = (k, n_features)
        self._table = None
        self.numeric_searches = []  # (features, search of them side by side), chunk by chunk
        self.ranked = []  # (features, RankedCuts, low, high) of each chunk searched with rank=k
        self.categorical = {}  # categorical feature -> its search
        self.n_ties = np.zeros((k, n_features), dtype=np.int64)
        # (one allocation for three tables; below_average: kept out by C4.5's rule)
        self.candidate, self.tied, self.below_average = np.zeros((3, k, n_features), dtype=bool)

    @property
    def table(self) -> np.ndarray:
        if self._table is None:
            self._table = filled((len(self.FLOAT_SCORES), *self.shape), np.nan)
        return self._table

    def take_table(self, table: np.ndarray) -> bool:
        """Take ``table`` (a view will do) as the whole table, if none was made yet; returns
        whether it was taken."""
        if self._table is not None or table.shape[1:] != self.shape:
            return False
        self._table = table
        return True

    gain = property(lambda self: self.table[0])
    ratio = property(lambda self: self.table[1])
    overall = property(lambda self: self.table[2])
    threshold = property(lambda self: self.table[3])
    low = property(lambda self: self.table[4])
    high = property(lambda self: self.table[5])

    @property
    def results(self) -> dict:
        """Feature -> what the trace needs of its search (found, branch counts): the numeric
        features' first, in search order, then the categorical ones'. Made when asked for (only
        a tracer asks)."""
        k, results = len(self.gain), {}
        for features, search in self.numeric_searches:
            for i, f in enumerate(features):
                results[f] = _Found(search, slice(i * k, (i + 1) * k))
        return results | self.categorical

    def below_average_gain(self) -> np.ndarray:
        return below_average_gain(self.gain)


def below_average_gain(gain: np.ndarray) -> np.ndarray:
    """C4.5's rule for gain ratio: a feature whose gain (one row per node, NaN where the feature
    offers no valid split) is below the average gain of the features with a valid split at that
    node does not compete; otherwise a split of tiny split information would win on a tiny gain."""
    valid = np.isfinite(gain)
    n_valid = valid.sum(axis=1, keepdims=True)
    total = np.zeros((len(gain), 1))
    for f in range(gain.shape[1]):  # summed in column order, as the textbook sums them
        total[:, 0] += np.where(valid[:, f], gain[:, f], 0.0)
    average = total / np.maximum(n_valid, 1)
    return valid & (gain < average - TIE_TOLERANCE)


class _Found:
    """What the trace needs of one numeric feature's search: per node, whether a threshold was
    found and the class counts of its sides (left, right, missing). It reads them from the
    search of the feature's chunk (``part``: the feature's nodes) when asked: only a tracer asks.
    """

    __slots__ = ("search", "part")

    def __init__(self, search: Any, part: slice) -> None:
        self.search, self.part = search, part

    @property
    def found(self) -> np.ndarray:
        return self.search.found[self.part]

    @property
    def side_counts(self) -> np.ndarray:
        return self.search.side_counts[self.part]


def _children(
    segment: Any,
    branch: Any,
    splitting: Any,
    labels: Any,
    k: Any,
    n_slots: Any,
    n_classes: Any,
    weight: Any = None,
) -> Any:
    """The children of the splitting nodes: their (node, slot) keys in order, the child of each
    position (-1 for rows of nodes that do not split), the children's class counts (sums of
    ``weight`` when given) and, with weights, their numbers of rows (else None)."""
    moving = splitting[segment] if len(segment) else np.zeros(0, dtype=bool)
    key = segment[moving].astype(np.int32 if k * n_slots < 2**31 else np.int64, copy=False)
    key *= n_slots
    key += branch[moving]
    keys, child = dense_ranks(key, k * n_slots)
    keys = keys.astype(np.int64, copy=False)
    del key
    child_of_position = np.full(len(segment), -1, dtype=np.int32)
    child_of_position[moving] = child
    rows = None if weight is None else np.bincount(child, minlength=len(keys))
    moving_weight = None if weight is None else weight[moving]
    cell = child  # (child, class) of each moving row, made in place
    cell *= n_classes
    cell += labels[moving]
    counts = class_counts(cell, len(keys), n_classes, moving_weight)
    return keys, child_of_position, counts, rows
