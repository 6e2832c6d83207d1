"""Growing an ID3 tree on a Dask DataFrame, level by level, one pass over the data per level.

The grower in :mod:`id3tree.grow` keeps every row in memory and regroups them after each level.
Here the rows stay in their partitions. Each level is one distributed pass:

1. every partition sends its rows down the tree grown so far (the splits are a few small arrays)
   to find each row's node on the current level;
2. it counts, for every node of the level, the (value, class) pairs of every feature: a dense
   ``(node, category, class)`` table for a categorical feature, and for a numeric feature the
   class counts of every distinct (node, value) pair, which is exactly what is needed to score
   every midpoint (with ``numeric_bins`` set, a dense ``(node, bin, class)`` table instead);
3. the counts are summed on the workers, feature by feature, and a numeric feature's threshold
   search runs on the worker that holds its counts, so only each node's best threshold travels;
4. the caller scores the features with the learner's own rules (:mod:`id3tree.splits` fed with
   counts, see :mod:`id3tree._dask.counted_splits`), breaks ties the same way, applies the same
   stopping rules, and records the level with :class:`id3tree.growth_record.Record`.

So the tree is the one the in-memory learner grows from the same rows, node for node, and it is
kept as the same :class:`~id3tree.growth_record.GrownTree`: prediction, text, drawings and the
trace work unchanged.

With ``numeric_bins=B`` numeric features are first cut into B equal-width bins over their range
(bins closed on the right), and thresholds can only fall on bin edges: a different, approximate
algorithm, for columns with too many distinct values to count exactly.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
from sklearn.utils.multiclass import check_classification_targets

from id3tree import grow
from id3tree._dask import core
from id3tree._dask.counted_splits import (
    distinct_value_counts,
    merge_value_counts,
    score_counted_categorical,
    search_counted_thresholds,
)
from id3tree.contingency import chi_square_from_table
from id3tree.grow import EncodedData, below_average_gain
from id3tree.growth_record import (
    NO_VALID_SPLIT,
    Level,
    Record,
    low_gain_reason,
    not_significant_reason,
    stop_reasons,
)
from id3tree.node import LEFT, NUMERIC_MISSING, RIGHT
from id3tree.splits import TIE_TOLERANCE


@dataclass
class DaskFit:
    """What the learner needs from a fit on Dask: the encoding and the grown tree."""

    data: EncodedData  # names, categories and classes; no rows
    grown: object  # GrownTree


class Scores(grow.Scores):
    """Per (node, feature) scores of one level (the fields :class:`Record` reads), with what the
    trace needs of the counted searches."""

    def __init__(self, k: int, n_features: int):
        super().__init__(k, n_features)
        self.branch_tables = {}  # feature -> (k, branch slots, classes) counts, for the trace
        self.numeric_facts = {}  # feature -> per node (n_present, n_distinct, found), likewise


# ---------------------------------------------------------------------------------------------
# What a partition does on each level
# ---------------------------------------------------------------------------------------------
@dataclass
class LevelPlan:
    """Everything a partition needs for one level: codings, the splits so far, what to count."""

    codings: list  # per feature: a core.Coding
    kinds: list  # per feature: "categorical", "numeric" or "binned"
    target: core.Coding
    feature: np.ndarray  # per node so far: split feature, -1 if none
    threshold: np.ndarray
    child: np.ndarray  # (nodes so far, slots): the child of each branch, -1 where none
    local: np.ndarray  # per node so far: its index among the level's scored nodes, or -1
    n_classes: int
    depth: int
    n_scored: int
    count: list  # the features to count on this level


def binned_codes(values: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """Bins closed on the right, ``(e_i, e_i+1]`` (the first also holds ``e_0``), missing last;
    so ``x <= e_i+1`` holds exactly for the bins up to i, and a threshold on an edge splits the
    raw values as it splits the bins."""
    n_bins = len(edges) - 1
    codes = np.clip(np.searchsorted(edges, values, side="left") - 1, 0, n_bins - 1)
    codes[np.isnan(values)] = n_bins
    return codes.astype(np.int64)


def _encode(part, plan: LevelPlan):
    """Each feature of the partition as codes (categorical, binned) or values (numeric)."""
    encoded = []
    for coding, kind in zip(plan.codings, plan.kinds):
        if kind == "categorical":
            encoded.append(coding.codes(part))
        else:
            encoded.append(coding.values(part))
    return encoded


def route(encoded: list, plan: LevelPlan) -> np.ndarray:
    """Each row's node on the current level, as its index among the scored nodes (-1: none)."""
    n_rows = len(encoded[0]) if encoded else 0
    node = np.zeros(n_rows, dtype=np.int64)
    for _ in range(plan.depth):
        feature = plan.feature[node]
        slot = np.full(n_rows, -1, dtype=np.int64)
        for f in np.unique(feature[feature >= 0]):
            rows = np.flatnonzero(feature == f)
            if plan.kinds[f] == "categorical":
                slot[rows] = encoded[f][rows]
            else:
                v = encoded[f][rows]
                t = plan.threshold[node[rows]]
                slot[rows] = np.where(np.isnan(v), NUMERIC_MISSING, np.where(v <= t, LEFT, RIGHT))
        moving = np.flatnonzero(feature >= 0)
        node[moving] = plan.child[node[moving], slot[moving]]
    return plan.local[node]


def _level_chunk(part, plan: LevelPlan) -> dict:
    """The counts of one partition for one level, per feature to count."""
    y = plan.target.codes(part)
    encoded = _encode(part, plan)
    local = route(encoded, plan)
    keep = local >= 0
    y, node = y[keep], local[keep]
    k, n_classes = plan.n_scored, plan.n_classes  # y has no missing code: labels are complete
    out = {}
    for f in plan.count:
        column = encoded[f][keep]
        if plan.kinds[f] == "numeric":
            present = ~np.isnan(column)
            out[f] = (
                distinct_value_counts(node[present], column[present], y[present], n_classes),
                np.bincount(node[~present] * n_classes + y[~present], minlength=k * n_classes),
            )
            continue
        if plan.kinds[f] == "binned":
            column = binned_codes(column, plan.codings[f].edges)
        n_levels = plan.codings[f].n_codes
        out[f] = np.bincount(
            (node * n_levels + column) * n_classes + y, minlength=k * n_levels * n_classes
        )
    return out


def _merge_numeric(a, b):
    return merge_value_counts(a[0], b[0]), a[1] + b[1]


def _search_numeric(found, parent, min_leaf):
    """A numeric feature's best threshold at every scored node, on the worker with its counts."""
    (segment, values, counts), missing = found
    missing = missing.reshape(parent.shape)
    search, left = search_counted_thresholds(
        segment, values, counts, missing, parent, min_leaf=min_leaf
    )
    return search, left, missing, np.bincount(segment, minlength=len(parent))


def _search_binned(table, parent, edges, min_leaf):
    """Best edge of a binned feature at every scored node, from its (node, bin, class) table."""
    k, n_codes, n_classes = table.shape
    present = table[:, :-1, :].reshape(-1, n_classes)
    occurring = np.flatnonzero(present.sum(axis=1) > 0)
    segment, bins = occurring // (n_codes - 1), occurring % (n_codes - 1)
    search, left = search_counted_thresholds(
        segment,
        bins.astype(float),
        present[occurring],
        table[:, -1, :],
        parent,
        min_leaf=min_leaf,
        thresholds=edges[bins + 1],
    )
    return search, left, table[:, -1, :], np.bincount(segment, minlength=k)


# ---------------------------------------------------------------------------------------------
# The grower
# ---------------------------------------------------------------------------------------------
def _describe(X, joined, is_cat):
    kinds = {c: (str(c), "categories" if is_cat[f] else "range") for f, c in enumerate(X.columns)}
    kinds[core.TARGET] = ("y", "categories")
    summary = core.compute(core.describe(joined, kinds))[0]
    codings = core.codings_from(summary, kinds)
    target = codings.pop(core.TARGET)
    if target.n_missing:
        raise ValueError(
            f"y has {target.n_missing} missing label(s); drop those rows or give them a class"
        )
    if not target.categories:
        raise ValueError("X is empty: it has 0 rows; at least one is needed")
    check_classification_targets(np.asarray(target.categories))
    return [codings[c] for c in X.columns], target


def _class_counts_chunk(part, target):
    return np.bincount(target.codes(part), minlength=target.n_codes)


def grow_on_dask(X, y, params, *, categorical="auto", numeric_bins=None, tracer=None) -> DaskFit:
    """Grow the tree the in-memory learner would grow, one distributed pass per level."""
    X = core.check_frame(X)
    joined = core.join(X, y)
    names = [str(c) for c in X.columns]
    is_cat = np.array(core.categorical_mask(X, categorical), dtype=bool)
    codings, target = _describe(X, joined, is_cat)
    kinds = ["categorical" if c else ("binned" if numeric_bins else "numeric") for c in is_cat]
    for f, coding in enumerate(codings):
        if kinds[f] == "binned":
            present = (
                np.array([coding.low, coding.high]) if np.isfinite(coding.low) else np.zeros(1)
            )
            coding.edges = np.histogram_bin_edges(present, bins=numeric_bins)
    classes = target.categories
    n_classes, n_features = len(classes), len(names)
    data = EncodedData(
        names=names,
        numeric=[None] * n_features,
        codes=[np.zeros(0, np.int64) if c else None for c in is_cat],
        categories=[c.categories if is_cat[f] else None for f, c in enumerate(codings)],
        y=np.zeros(0, np.int64),
        classes=list(classes),
    )
    record = Record(tracer, data, keep_trace=params.keep_trace, min_leaf=params.min_samples_leaf)
    n_slots = max([3] + [c.n_codes for f, c in enumerate(codings) if is_cat[f]])
    min_leaf = params.min_samples_leaf

    # 1. the root holds every row
    root_counts = core.compute(
        core.reduce_partitions(joined[[core.TARGET]], _class_counts_chunk, core.add, target)
    )[0][:n_classes]
    parents, slots, depths, all_counts = [np.array([-1])], [np.array([-1])], [np.zeros(1, int)], []
    all_counts.append(root_counts[None, :])
    split_feature, split_threshold = [-1], [np.nan]
    child = np.full((1, n_slots), -1, dtype=np.int64)
    level = np.array([0])
    counts = root_counts[None, :]
    used = np.zeros((1, n_features), dtype=bool)
    n_nodes, depth = 1, 0
    while len(level):
        sizes = counts.sum(axis=1)
        # 2. stopping rules that need no scoring
        reasons = stop_reasons(counts, depth, params)
        eligible = np.array([r is None for r in reasons], dtype=bool)
        ids, used, scored_counts = level[eligible], used[eligible], counts[eligible]
        k = len(ids)
        sizes = scored_counts.sum(axis=1)
        s = Scores(k, n_features)
        chosen = np.zeros(k, dtype=np.int64)
        splitting = np.zeros(k, dtype=bool)
        why = np.full(k, None, dtype=object)
        branch_counts = {}

        if k:
            # 3. one pass: the counts of every feature at every scored node
            local = np.full(n_nodes, -1, dtype=np.int64)
            local[ids] = np.arange(k)
            count = [f for f in range(n_features) if not (is_cat[f] and used[:, f].all())]
            plan = LevelPlan(
                codings,
                kinds,
                target,
                np.asarray(split_feature),
                np.asarray(split_threshold, dtype=float),
                child,
                local,
                n_classes,
                depth,
                k,
                count,
            )
            parent_counts = scored_counts
            combiners, finals = {}, {}
            for f in count:
                if kinds[f] == "numeric":
                    combiners[f] = _merge_numeric
                    finals[f] = functools.partial(
                        _search_numeric, parent=parent_counts, min_leaf=min_leaf
                    )
                else:
                    combiners[f] = core.add
            found = core.reduce_keys(joined, _level_chunk, combiners, finals, plan)
            results = dict(zip(found.keys(), core.compute(*found.values())))

            for f in range(n_features):
                if is_cat[f]:
                    s.candidate[:, f] = ~used[:, f]
                    if f not in results:
                        continue
                    table = results[f].reshape(k, codings[f].n_codes, n_classes)
                    result = score_counted_categorical(table, min_leaf=min_leaf)
                    ok = result.valid & ~used[:, f]
                    branch_counts[f] = table
                else:
                    if kinds[f] == "binned":
                        table = results[f].reshape(k, codings[f].n_codes, n_classes)
                        result, left, missing, n_distinct = _search_binned(
                            table, parent_counts, codings[f].edges, min_leaf
                        )
                    else:
                        result, left, missing, n_distinct = results[f]
                    n_present = sizes - missing.sum(axis=1)
                    s.numeric_facts[f] = (n_present, n_distinct, result.found)
                    s.candidate[:, f] = True
                    ok = result.found & ((result.n_missing == 0) | (result.n_missing >= min_leaf))
                    s.threshold[:, f] = np.where(ok, result.threshold, np.nan)
                    if result.low is not None:
                        s.low[:, f] = np.where(ok, result.low, np.nan)
                        s.high[:, f] = np.where(ok, result.high, np.nan)
                    s.n_ties[:, f] = result.n_ties
                    right = parent_counts - missing - left
                    branch_counts[f] = np.stack([left, right, missing], axis=1)
                s.gain[:, f] = np.where(ok, result.gain, np.nan)
                if result.overall_entropy is not None:
                    s.overall[:, f] = np.where(ok, result.overall_entropy, np.nan)
                s.ratio[:, f] = np.where(
                    ok & (result.split_info > 0),
                    result.gain / np.maximum(result.split_info, 1e-300),
                    np.where(ok, 0.0, np.nan),
                )

            # 4. the best feature of each node; ties within TIE_TOLERANCE go to the first column
            score = s.ratio if params.criterion == "gain_ratio" else s.gain
            score = np.nan_to_num(score, nan=-np.inf)
            if params.criterion == "gain_ratio" and params.average_gain_rule:
                s.below_average = below_average_gain(s.gain)  # C4.5: at least average gain
                score[s.below_average] = -np.inf
            best = score.max(axis=1, initial=-np.inf)
            s.tied = np.isfinite(score) & (score >= best[:, None] - TIE_TOLERANCE)
            chosen = np.argmax(s.tied, axis=1)
            chosen_gain = s.gain[np.arange(k), chosen]
            why[~np.isfinite(best)] = NO_VALID_SPLIT
            for e in np.flatnonzero(np.isfinite(best) & (chosen_gain < params.min_gain)):
                why[e] = low_gain_reason(chosen_gain[e], params.min_gain)
            splitting = np.array([w is None for w in why], dtype=bool)
            # Quinlan's chi-square rule: a split whose branches and classes look independent
            if params.alpha is not None:
                for e in np.flatnonzero(splitting):
                    table = branch_counts[chosen[e]][e]
                    p = chi_square_from_table(table[table.sum(axis=1) > 0]).pvalue
                    if not p < params.alpha:
                        why[e] = not_significant_reason(p, params.alpha)
                        splitting[e] = False
        s.branch_tables = branch_counts
        reasons[eligible] = why

        # 5. one child per non-empty branch of every splitting node, in branch order
        child_parent, child_slot, child_counts = [], [], []
        for e in np.flatnonzero(splitting):
            table = branch_counts[chosen[e]][e]
            for slot in np.flatnonzero(table.sum(axis=1) > 0):
                child_parent.append(e)
                child_slot.append(slot)
                child_counts.append(table[slot])
        parent_e = np.array(child_parent, dtype=np.int64)
        child_slot = np.array(child_slot, dtype=np.int64)
        child_counts = np.array(child_counts, dtype=np.int64).reshape(-1, n_classes)
        children = np.arange(n_nodes, n_nodes + len(parent_e))
        record.level(
            Level(
                depth=depth,
                nodes=level,
                counts=counts,
                reasons=reasons,
                eligible=eligible,
                ids=ids,
                scores=s,
                chosen=chosen,
                splitting=splitting,
                criterion=params.criterion,
                children=children,
                parent=parent_e,
                child_slot=child_slot,
                child_sizes=child_counts.sum(axis=1),
                orders={},
                starts=(np.cumsum(sizes) - sizes).astype(np.int64),
                sizes=sizes,
            )
        )

        # 6. the splits join the routing arrays; the children are the next level
        split_feature += [-1] * len(children)
        split_threshold += [np.nan] * len(children)
        for e in np.flatnonzero(splitting):
            split_feature[ids[e]] = int(chosen[e])
            split_threshold[ids[e]] = s.threshold[e, chosen[e]]
        child = np.vstack([child, np.full((len(children), n_slots), -1, dtype=np.int64)])
        child[ids[parent_e], child_slot] = children
        parents.append(ids[parent_e])
        slots.append(child_slot)
        depths.append(np.full(len(children), depth + 1))
        all_counts.append(child_counts)
        used = used[parent_e]
        from_cat = np.flatnonzero(is_cat[chosen[parent_e]]) if len(parent_e) else []
        used[from_cat, chosen[parent_e][from_cat]] = True  # a categorical feature is used up
        level, counts, depth = children, child_counts, depth + 1
        n_nodes += len(children)

    grown = record.finish(parents, slots, depths, all_counts)
    return DaskFit(data, grown)


# ---------------------------------------------------------------------------------------------
# Prediction: the fitted model maps every partition
# ---------------------------------------------------------------------------------------------
def _predict_part(part, model, proba: bool):
    import pandas as pd

    if proba:
        columns = pd.Index(model.classes_.tolist())
        return pd.DataFrame(model.predict_proba(part), index=part.index, columns=columns)
    return pd.Series(model.predict(part), index=part.index, name="prediction")


def predict_partitions(model, X, *, proba: bool):
    """Predictions (or class probabilities) of a Dask DataFrame, one partition at a time."""
    X = core.check_frame(X)
    meta = _predict_part(X._meta, model, proba)
    return X.map_partitions(_predict_part, model, proba, meta=meta)
