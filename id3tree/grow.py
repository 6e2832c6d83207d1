"""Growing an ID3 tree level by level, with every node of a level handled at once.

Quinlan's ID3, for every node:

1. make a node with the class counts of the rows that reach it;
2. stop if it is pure, too small, or at the maximum depth;
3. score every feature: a categorical feature by the gain of one branch per value, a numeric one by
   the gain of its best midpoint (lowest overall entropy);
4. split on the best feature (ties: the first in column order); a categorical feature is then used
   up for that path, a numeric one can be cut again deeper down;
5. repeat for the children.

Doing step 3 node by node would multiply Python's overhead by nodes x features. Instead each level
is one pass per feature over all the rows still in play: the rows of every numeric feature are
kept sorted by value inside each node (sorted once at the start, then stably regrouped by child
after every level), so the split search of all nodes is a handful of vectorised operations; the
categorical features take one ``bincount`` of (node, value, class) per level.

The result is a :class:`GrownTree` of flat arrays, renumbered in pre-order (depth first) at the end.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from id3tree.contingency import chi_square_from_table
from id3tree.growth_record import GrownTree, Level, Record
from id3tree.node import LEFT, NUMERIC_MISSING, RIGHT
from id3tree.splits import (
    TIE_TOLERANCE,
    dense_ranks,
    score_categorical,
    search_thresholds,
)


@dataclass
class EncodedData:
    """Training data as the grower needs it: numpy columns, codes, names."""

    names: list[str]
    numeric: list[np.ndarray | None]  # float64 with NaN, or None for a categorical feature
    codes: list[np.ndarray | None]  # int codes 0..L-1, L = missing; None for a numeric feature
    categories: list[list | None]  # the L category values of each categorical feature
    y: np.ndarray  # class codes 0..K-1
    classes: list

    @property
    def n_features(self) -> int:
        return len(self.names)


@dataclass
class GrowParams:
    criterion: str = "entropy"
    max_depth: float = np.inf
    min_samples_split: int = 2
    min_samples_leaf: int = 1
    min_gain: float = 0.0
    alpha: float | None = None
    average_gain_rule: bool = True  # C4.5: under gain ratio, only features of at least average gain
    keep_trace: bool = True  # False only to measure what keeping ``trace_`` costs


class _Nodes:
    """Growable storage for the nodes made so far."""

    def __init__(self, n_classes: int):
        self.parent, self.slot, self.depth, self.counts = [], [], [], []
        self.n = 0
        self.n_classes = n_classes

    def add(self, parent, slot, depth, counts) -> np.ndarray:
        k = len(counts)
        self.parent.append(parent)
        self.slot.append(slot)
        self.depth.append(np.full(k, depth))
        self.counts.append(counts)
        ids = np.arange(self.n, self.n + k)
        self.n += k
        return ids


def grow(data: EncodedData, params: GrowParams, tracer=None) -> GrownTree:
    """Grow a tree on ``data`` (the numbered steps are those of the module docstring)."""
    y, n_classes, n_features = data.y, len(data.classes), data.n_features
    n = len(y)
    is_cat = np.array([c is not None for c in data.codes], dtype=bool)
    n_slots = max([3] + [len(c) + 1 for c in data.categories if c is not None])
    min_leaf = params.min_samples_leaf
    nodes = _Nodes(n_classes)
    record = Record(tracer, data, keep_trace=params.keep_trace)

    # 1. the root holds every row; numeric features are sorted once, here
    counts = np.bincount(y, minlength=n_classes)[None]
    level = nodes.add(np.array([-1]), np.array([-1]), 0, counts)
    local = np.zeros(n, dtype=np.int64)  # each row's node, numbered within the current level
    rows = np.arange(n)  # the rows still in play
    orders = {f: np.argsort(data.numeric[f], kind="stable") for f in np.flatnonzero(~is_cat)}
    used = np.zeros((1, n_features), dtype=bool)  # categorical features used on each node's path
    depth = 0
    while len(level):
        sizes = counts.sum(axis=1)
        # 2. stopping rules that need no scoring
        reasons = np.full(len(level), None, dtype=object)
        reasons[sizes < 2 * min_leaf] = "fewer than 2 x min_samples_leaf samples"
        reasons[sizes < params.min_samples_split] = "fewer than min_samples_split samples"
        reasons[depth >= params.max_depth] = "max_depth reached"
        reasons[(counts > 0).sum(axis=1) <= 1] = "pure"
        eligible = np.array([r is None for r in reasons], dtype=bool)
        orders = {f: o[eligible[local[o]]] for f, o in orders.items()}
        rows = rows[eligible[local[rows]]]
        local[rows] = (np.cumsum(eligible) - 1)[local[rows]]
        sizes, used, ids = sizes[eligible], used[eligible], level[eligible]
        starts = (np.cumsum(sizes) - sizes).astype(np.int64)
        k = len(ids)

        # 3. score every feature at every eligible node
        s = Scores(k, n_features)
        for f in range(n_features):
            if is_cat[f]:
                n_levels = len(data.categories[f]) + 1
                result = score_categorical(
                    data.codes[f][rows],
                    y[rows],
                    local[rows],
                    k,
                    n_levels,
                    n_classes,
                    min_leaf=min_leaf,
                )
                s.candidate[:, f] = ~used[:, f]
                ok = result.valid & ~used[:, f]
            else:
                o = orders[f]
                result = search_thresholds(
                    data.numeric[f][o], y[o], starts, sizes, n_classes, min_leaf=min_leaf
                )
                s.candidate[:, f] = True
                ok = result.found & ((result.n_missing == 0) | (result.n_missing >= min_leaf))
                s.threshold[:, f] = np.where(ok, result.threshold, np.nan)
                s.n_ties[:, f] = result.n_ties
            s.gain[:, f] = np.where(ok, result.gain, np.nan)
            s.ratio[:, f] = np.where(
                ok & (result.split_info > 0),
                result.gain / np.maximum(result.split_info, 1e-300),
                np.where(ok, 0.0, np.nan),
            )

        # 4. the best feature of each node; ties within TIE_TOLERANCE go to the first column
        score = np.nan_to_num(s.ratio if params.criterion == "gain_ratio" else s.gain, nan=-np.inf)
        if params.criterion == "gain_ratio" and params.average_gain_rule:
            score[s.below_average_gain()] = -np.inf
        best = score.max(axis=1, initial=-np.inf)
        s.tied = np.isfinite(score) & (score >= best[:, None] - TIE_TOLERANCE)
        chosen = np.argmax(s.tied, axis=1)
        chosen_gain = s.gain[np.arange(k), chosen]
        why = np.full(k, None, dtype=object)
        why[~np.isfinite(best)] = "no feature offers a valid split"
        why[np.isfinite(best) & (chosen_gain < params.min_gain)] = "gain below min_gain"
        splitting = np.array([w is None for w in why], dtype=bool)

        # 5. the branch of every row of a splitting node, and the children's class counts
        branch = _branches(data, rows, local, chosen, s.threshold, splitting, is_cat)
        children_of = _children(rows, local, branch, splitting, y, k, n_slots, n_classes)
        # Quinlan's chi-square rule: a split whose branches and classes look independent is undone
        if params.alpha is not None and splitting.any():
            parent_e, child_counts = children_of[0] // n_slots, children_of[2]
            bounds = np.searchsorted(parent_e, np.arange(k + 1))
            for e in np.flatnonzero(splitting):
                p = chi_square_from_table(child_counts[bounds[e] : bounds[e + 1]]).pvalue
                if not p < params.alpha:
                    why[e] = (
                        f"split not significant (chi-square p = {p:.4g}, alpha = {params.alpha:g})"
                    )
                    splitting[e] = False
            children_of = _children(rows, local, branch, splitting, y, k, n_slots, n_classes)
        reasons[eligible] = why

        # 6. one child per non-empty (node, branch) pair, in branch order
        keys, child_local, child_counts, child_rows = children_of
        parent_e, child_slot = keys // n_slots, keys % n_slots
        children = nodes.add(ids[parent_e], child_slot, depth + 1, child_counts)
        record.level(
            Level(
                depth,
                level,
                counts,
                reasons,
                eligible,
                ids,
                s,
                chosen,
                splitting,
                params.criterion,
                children,
                parent_e,
                child_slot,
                child_counts.sum(axis=1),
                orders,
                starts,
                sizes,
            )
        )

        # 7. the next level: rows regrouped by child, keeping each feature's sorted order
        new_local = np.empty(n, dtype=np.int64)
        new_local[child_rows] = child_local
        key_type = np.uint16 if len(keys) < 2**16 else np.int64  # uint16 sorts by radix: fast
        for f, o in orders.items():
            o = o[splitting[local[o]]]
            orders[f] = o[np.argsort(new_local[o].astype(key_type), kind="stable")]
        rows, local = child_rows, new_local
        used = used[parent_e]
        from_cat = np.flatnonzero(is_cat[chosen[parent_e]])
        used[from_cat, chosen[parent_e][from_cat]] = True  # 4. a categorical feature is used up
        level, counts, depth = children, child_counts, depth + 1

    return record.finish(nodes.parent, nodes.slot, nodes.depth, nodes.counts)


class Scores:
    """Per (node, feature) scores of one level."""

    def __init__(self, k: int, n_features: int):
        self.gain = np.full((k, n_features), np.nan)
        self.ratio = np.full((k, n_features), np.nan)
        self.threshold = np.full((k, n_features), np.nan)
        self.n_ties = np.zeros((k, n_features), dtype=np.int64)
        self.candidate = np.zeros((k, n_features), dtype=bool)
        self.tied = np.zeros((k, n_features), dtype=bool)

    def below_average_gain(self) -> np.ndarray:
        return below_average_gain(self.gain)


def below_average_gain(gain: np.ndarray) -> np.ndarray:
    """C4.5's rule for gain ratio: a feature whose gain (one row per node, NaN where the feature
    offers no valid split) is below the average gain of the features with a valid split at that
    node does not compete; otherwise a split of tiny split information would win on a tiny gain."""
    valid = np.isfinite(gain)
    n_valid = valid.sum(axis=1, keepdims=True)
    total = np.where(valid, gain, 0.0).sum(axis=1, keepdims=True)
    average = total / np.maximum(n_valid, 1)
    return valid & (gain < average - TIE_TOLERANCE)


def _branches(data, rows, local, chosen, thresholds, splitting, is_cat) -> np.ndarray:
    """The branch slot of every row whose node splits (-1 for the others)."""
    branch = np.full(len(rows), -1, dtype=np.int64)
    feature_of_row = np.where(splitting, chosen, -1)[local[rows]]
    for f in np.unique(feature_of_row[feature_of_row >= 0]):
        mine = np.flatnonzero(feature_of_row == f)
        r = rows[mine]
        if is_cat[f]:
            branch[mine] = data.codes[f][r]
        else:
            v = data.numeric[f][r]
            t = thresholds[local[r], f]
            branch[mine] = np.where(np.isnan(v), NUMERIC_MISSING, np.where(v <= t, LEFT, RIGHT))
    return branch


def _children(rows, local, branch, splitting, y, k, n_slots, n_classes):
    """The children of the splitting nodes: their (node, slot) keys in order, each moving row's
    child, the children's class counts, and the moving rows."""
    moving = splitting[local[rows]]
    child_rows = rows[moving]
    keys, child_local = dense_ranks(local[child_rows] * n_slots + branch[moving], k * n_slots)
    counts = np.bincount(child_local * n_classes + y[child_rows], minlength=len(keys) * n_classes)
    return keys, child_local, counts.reshape(-1, n_classes), child_rows
