"""Growing an ID3 tree on a Dask DataFrame, level by level, one distributed pass per level.

The grower in :mod:`id3tree.engine.grow` keeps every row in memory and regroups them after each level.
Here the rows stay in their partitions. Each level is one distributed pass (the partition's side
is :mod:`id3tree.dask.level_pass`):

1. every partition sends its rows down the tree grown so far (the splits are a few small arrays)
   to find each row's node on the current level;
2. it counts, for every node of the level, the (value, class) pairs of every feature: a
   ``(node, category, class)`` table for a categorical feature (only its occurring cells when
   the dense table would be larger than the rows), and for a numeric feature the class counts
   of every distinct (node, value) pair, which is exactly what is needed to score every
   midpoint (with ``numeric_bins`` set, a ``(node, bin, class)`` table instead);
3. the counts are summed on the workers (the features dealt into one group per worker, each
   merged in a tree of its own), and a numeric feature's threshold search runs on the worker
   that holds its counts, so only each node's best threshold travels;
4. the caller scores the features with the learner's own rules (:mod:`id3tree.engine.splits` fed with
   counts, see :mod:`id3tree.dask.counted_splits`), breaks ties the same way, applies the same
   stopping rules, and records the level with :class:`id3tree.engine.record.Record`.

Every feature's counts are bounded by the rows, however deep the tree; when a level's counts
would not fit in the workers' memory together (a deep level of ten million rows), the level
takes several passes, a few features each, over rows whose nodes are found once
(:func:`~id3tree.dask.level_pass.feature_batches`). The tree is the same.

Before the first level, every partition is coded once (int32 codes, a numeric column's by its
own sorted distinct values) and kept in the workers' memory when it fits (when the rows are
known from the files' metadata, the same read describes the partitions too); a level then
routes and counts codes, every feature with one ``bincount`` into a reused buffer, with no
row-sized temporary per feature.

So the tree is the one the in-memory learner grows from the same rows, node for node, and it is
kept as the same :class:`~id3tree.model.grown_tree.GrownTree`: prediction, text, drawings and the
trace work unchanged.

With ``numeric_bins=B`` numeric features are first cut into B equal-width bins over their range
(bins closed on the right), and thresholds can only fall on bin edges: a different, approximate
algorithm, for columns with too many distinct values to count exactly.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from sklearn.utils.multiclass import check_classification_targets

from id3tree.base.params import check_numeric_bins
from id3tree.base.training import EncodedData
from id3tree.base.validation import class_array
from id3tree.dask import core
from id3tree.dask import level_pass as lp
from id3tree.dask.counted_splits import DENSE_CELLS_PER_ROW
from id3tree.engine import grow
from id3tree.engine.fitting import FULL_TRACE_VALUES, Fitted
from id3tree.engine.grow import choose_splits
from id3tree.engine.record import Level, Record
from id3tree.engine.splits.results import gain_ratios
from id3tree.engine.stopping import stop_reasons

__all__ = ["DaskFit", "fit_on_dask", "grow_on_dask", "predict_partitions", "Scores"]


@dataclass
class DaskFit:
    """What the learner needs from a fit on Dask: the encoding and the grown tree."""

    data: EncodedData  # names, categories and classes; no rows
    grown: object  # GrownTree
    trace_complete: bool = True  # (keep_trace=True, or "auto" on at most FULL_TRACE_VALUES)


class Scores(grow.Scores):
    """Per (node, feature) scores of one level (the fields :class:`Record` reads), with what the
    trace needs of the counted searches."""

    def __init__(self, k: int, n_features: int) -> None:
        super().__init__(k, n_features)
        self.branch_tables = {}  # feature -> (k, branch slots, classes) counts, for the trace
        self.numeric_facts = {}  # feature -> per node (n_present, n_distinct, found), likewise


# ---------------------------------------------------------------------------------------------
# The grower
# ---------------------------------------------------------------------------------------------
def _describe(X: Any, joined: Any, is_cat: Any, kinds: list, ranges: bool) -> Any:
    """The codings of the features and of the target, from a describing pass, and the encoded
    partitions if they were kept (else None). Without ``ranges`` (no numeric bins to make) the
    pass reads only the categorical columns and the target, and a numeric column is checked
    when a partition is encoded; and when the rows are known and the encoded partitions fit in
    the workers' memory, the one read of the files that encodes them describes them too."""
    wanted = {c: (str(c), "categories" if is_cat[f] else "range") for f, c in enumerate(X.columns)}
    wanted[core.TARGET] = ("y", "classes")  # the root's class counts come with its categories
    described = {c: kind for c, kind in wanted.items() if ranges or kind[1] != "range"}
    n_rows = None if ranges else core.known_rows(joined)
    parts = None
    if n_rows is not None and core.fits_in_workers(lp.encoded_bytes(n_rows, kinds)):
        parts, summary = _encode_and_describe(X, joined, wanted, kinds)
    else:
        summary = core.compute(core.describe(joined[list(described)], described))[0]
    codings = core.codings_from(summary, described)
    for c in wanted.keys() - described.keys():
        codings[c] = core.Coding(wanted[c][0], c, dtype=joined._meta[c].dtype)
    target = codings.pop(core.TARGET)
    if target.n_missing:
        raise ValueError(
            f"y has {target.n_missing} missing label(s); drop those rows or give them a class"
        )
    if not target.categories:
        raise ValueError("X is empty: it has 0 rows; at least one is needed")
    check_classification_targets(np.asarray(target.categories))
    return [codings[c] for c in X.columns], target, parts


def _encode_and_describe(X: Any, joined: Any, wanted: dict, kinds: list) -> tuple[list, dict]:
    """The partitions encoded by :func:`~id3tree.dask.level_pass.encode_locally` and kept in the workers' memory, and
    the describing summary of their categorical columns and labels, from one read."""
    dask, _ = core.import_dask()
    core.check_source_values(joined, [n for n, kind in wanted.values() if kind != "range"])
    codings = [
        core.Coding(str(c), c, dtype=None if is_cat else joined._meta[c].dtype)
        for c, is_cat in zip(X.columns, [kind == "categorical" for kind in kinds])
    ]
    encode = functools.partial(
        lp.encode_locally, codings=codings, kinds=kinds, target=core.Coding("y", core.TARGET)
    )
    parts = core.persist([dask.delayed(encode, pure=True)(part) for part in joined.to_delayed()])
    found = core.reduce_partitions(parts, core.described, core.combine_descriptions)
    return parts, core.compute(found)[0]


def fit_on_dask(X: Any, y: Any, sample_weight: Any, model: Any, params: Any, listen: Any) -> Fitted:
    """The Dask version of :func:`id3tree.engine.fitting.encode_and_grow`: ``model``'s tree grown on a
    Dask DataFrame, one distributed pass per level (:func:`grow_on_dask`)."""
    if (
        sample_weight is not None
        or model.class_weight is not None
        or (model.min_weight_fraction_leaf != 0)
    ):
        raise NotImplementedError(
            "sample_weight, class_weight and min_weight_fraction_leaf are not supported "
            "for Dask DataFrames: the distributed grower counts rows, not weights; fit "
            "on a pandas DataFrame"
        )
    if getattr(model, "thresholds", "midpoint") != "midpoint":
        raise NotImplementedError(
            f"thresholds={model.thresholds!r} is not supported for Dask DataFrames (the "
            "distributed grower cuts at midpoints); leave thresholds='midpoint' or fit on pandas"
        )
    if getattr(model, "ties", "first") != "first":
        raise NotImplementedError(
            f"ties={model.ties!r} is not supported for Dask DataFrames (the distributed "
            "grower breaks ties by column order); leave ties='first' or fit on pandas"
        )
    if getattr(model, "log_base", 2) != 2:
        raise NotImplementedError(
            f"log_base={model.log_base!r} is not supported for Dask DataFrames (the "
            "distributed grower measures in bits); leave log_base=2 or fit on pandas"
        )
    numeric_bins = check_numeric_bins(model.numeric_bins)
    fitted = grow_on_dask(
        X, y, params, categorical=model.categorical, numeric_bins=numeric_bins, listen=listen
    )
    data = fitted.data
    classes = class_array(data.classes)
    data.classes = list(classes.tolist())
    string_names = all(isinstance(c, str) for c in X.columns)
    return Fitted(
        data.names, data.categories, classes, fitted.grown, None,  # (the rows stay on the cluster)
        string_names=string_names, from_frame=True, trace_complete=fitted.trace_complete,
    )  # fmt: skip


def grow_on_dask(
    X: Any,
    y: Any,
    params: Any,
    *,
    categorical: Any = "auto",
    numeric_bins: Any = None,
    listen: Any = None,
) -> DaskFit:
    """Grow the tree the in-memory learner would grow, one distributed pass per level, by the
    same steps as :func:`id3tree.engine.grow.grow` (and the same :func:`~id3tree.engine.grow.choose_splits`);
    ``listen(data)`` gives the growth's listener, as fitting's."""
    growth = _DaskGrowth(X, y, params, categorical, numeric_bins, listen)
    # 1. the root holds every row
    level = growth.root()
    while len(level.nodes):
        # 2. the stopping rules that need no scoring
        scored = growth.start_level(level)
        # 3. one pass: the counts of every feature at every scored node, then their scores
        s, tables = growth.score(level, scored)
        # 4. the best feature of each node, and whether it is worth a split
        children_counts = functools.partial(_children_of, tables, growth.n_classes)
        choice = choose_splits(s, params, children_counts)
        # 4. split on it: one child per non-empty branch, in branch order
        children = growth.split(level, scored, s, choice, tables)
        # 5. repeat for the children (a categorical feature is used up on their paths)
        level = growth.next_level(level, choice, children)
    return DaskFit(growth.data, growth.finish(), growth.params.keep_trace is True)


def _children_of(tables: dict, n_classes: int, chosen: Any, splitting: Any) -> tuple:
    """The children the splits would make (for :func:`~id3tree.engine.grow.choose_splits`): each
    one's parent (a scored node), in order, and its class counts."""
    parent, _, counts = _branches_of(tables, chosen, splitting, n_classes)
    return parent, counts


def _branches_of(tables: dict, chosen: Any, splitting: Any, n_classes: int) -> tuple:
    """One child per non-empty branch of every splitting node, in branch order, from each
    feature's (scored node, branch slot, class) counts (a dense table, or
    :class:`~id3tree.dask.level_pass.SparseCells`): each child's parent (a scored node), branch
    slot and class counts (int64)."""
    parent, slot = [np.zeros(0, np.int64)], [np.zeros(0, np.int64)]
    counts = [np.zeros((0, n_classes), np.int64)]
    nodes = np.flatnonzero(splitting)
    for f in np.unique(chosen[nodes]).tolist():
        mine = np.zeros(len(splitting), dtype=bool)
        mine[nodes[chosen[nodes] == f]] = True
        node, code, found = lp.table_pairs(tables[f])  # (occurring pairs, in node order)
        keep = mine[node]
        parent.append(node[keep])
        slot.append(code[keep])
        counts.append(found[keep])
    parent, slot, counts = np.concatenate(parent), np.concatenate(slot), np.concatenate(counts)
    order = np.lexsort((slot, parent))
    return parent[order], slot[order], counts[order].astype(np.int64)


@dataclass
class _DaskLevel:
    """The nodes of one level: their numbers, class counts, depth, and the categorical
    features used on each one's path."""

    nodes: np.ndarray
    counts: np.ndarray
    depth: int
    used: np.ndarray


class _DaskGrowth:
    """What grows across the levels: the codings of the columns (read in one first pass), the
    splits so far as routing arrays (each partition sends its rows down them), the nodes made
    and the record of every level. Each method is one step of :func:`grow_on_dask`."""

    def __init__(
        self, X: Any, y: Any, params: Any, categorical: Any, numeric_bins: Any, listen: Any
    ) -> None:
        X = core.check_frame(X)
        self.joined, self.params = core.join(X, y), params
        names = [str(c) for c in X.columns]
        self.is_cat = is_cat = np.array(core.categorical_mask(X, categorical), dtype=bool)
        self.kinds = [
            "categorical" if c else ("binned" if numeric_bins else "numeric") for c in is_cat
        ]
        self.codings, self.target, self.parts = _describe(
            X, self.joined, is_cat, self.kinds, bool(numeric_bins)
        )
        for coding, kind in zip(self.codings, self.kinds):
            if kind == "binned":
                coding.edges = core.range_edges(coding.low, coding.high, numeric_bins)
        classes = self.target.categories
        self.n_classes, self.n_features = len(classes), len(names)
        self.n_rows = int(self.target.counts.sum())
        if params.keep_trace == "auto":  # as the in-memory learner decides (fitting's rule)
            values = self.n_rows * self.n_features
            self.params = replace(params, keep_trace=values <= FULL_TRACE_VALUES or "splits")
        self.data = EncodedData(
            names=names,
            numeric=[None] * self.n_features,
            codes=[np.zeros(0, np.int64) if c else None for c in is_cat],
            categories=[c.categories if is_cat[f] else None for f, c in enumerate(self.codings)],
            y=np.zeros(0, np.int64),
            classes=list(classes),
        )
        listener = None if listen is None else listen(self.data)
        self.record = Record(listener, keep_trace=self.params.keep_trace)
        # the splits so far, as each partition routes its rows (see LevelPlan); the nodes made
        self.split_feature, self.split_threshold, self.offset = [-1], [np.nan], [-1]
        self.children = []  # per level: the slots of its split nodes
        self.parents, self.slots = [np.array([-1])], [np.array([-1])]
        self.depths, self.all_counts = [np.zeros(1, int)], []
        self.n_nodes = 1

    def root(self) -> _DaskLevel:
        """Step 1: the root's class counts (counted by the describing pass)."""
        root_counts = self.target.counts
        self.all_counts.append(root_counts[None, :])
        if self.parts is None:  # (not kept by the describing read)
            self.parts = self._kept_parts(int(root_counts.sum()))
        used = np.zeros((1, self.n_features), dtype=bool)
        return _DaskLevel(np.array([0]), root_counts[None, :], 0, used)

    def _kept_parts(self, n_rows: int) -> Any:
        """The partitions encoded once and kept in the workers' memory for every level's pass,
        when a distributed cluster has room for them (:func:`core.persist_if_fits`); else the
        frame itself, read again on each level."""
        dask, _ = core.import_dask()
        n_bytes = lp.encoded_bytes(n_rows, self.kinds)
        encode = functools.partial(
            lp.encode_part, codings=self.codings, kinds=self.kinds, target=self.target
        )
        parts = [dask.delayed(encode, pure=True)(part) for part in self.joined.to_delayed()]
        kept = core.persist_if_fits(parts, n_bytes)
        return self.joined if kept is None else kept

    def start_level(self, lv: _DaskLevel) -> np.ndarray:
        """Step 2: why each node stops before any scoring (``lv.reasons``); the nodes to score."""
        lv.reasons = stop_reasons(lv.counts, lv.depth, self.params)
        scored = np.array([r is None for r in lv.reasons], dtype=bool)
        lv.used = lv.used[scored]
        return scored

    def score(self, lv: _DaskLevel, scored: Any) -> tuple[Scores, dict]:
        """Step 3: one distributed pass counts every feature at every scored node (a numeric
        feature's threshold searched on the worker with its counts); then every feature is
        scored. Returns the scores and each feature's (scored node, branch slot, class) counts."""
        ids, counts = lv.nodes[scored], lv.counts[scored]
        k = len(ids)
        s = Scores(k, self.n_features)
        if not k:
            return s, {}
        results = self._count(lv, ids, counts)
        tables = {}
        for f in range(self.n_features):
            if self.is_cat[f]:
                s.candidate[:, f] = ~lv.used[:, f]
                if f in results:
                    tables[f] = self._score_categorical(s, f, results[f], lv.used[:, f], counts)
            else:
                tables[f] = self._score_numeric(s, f, results[f], counts)
        return s, tables

    def _count(self, lv: _DaskLevel, ids: Any, counts: Any) -> dict:
        """The passes of a level: feature -> its counts (a numeric feature's: its search). One
        pass when the counts fit in the workers' memory together, else several
        (:func:`~id3tree.dask.level_pass.feature_batches`) over rows routed once."""
        k = len(ids)
        local = np.full(self.n_nodes, -1, dtype=np.int64)
        local[ids] = np.arange(k)
        count = [f for f in range(self.n_features) if not (self.is_cat[f] and lv.used[:, f].all())]
        n_rows, n_parts = int(counts.sum()), self._n_parts()
        shapes = {f: (k, self._n_codes(f), self.n_classes) for f in count}
        sparse = frozenset(  # a dense table of more cells than a partition's rows (on average)
            f for f in count if self.kinds[f] != "numeric"
            and np.prod(shapes[f]) > DENSE_CELLS_PER_ROW * n_rows / n_parts + 4096
        )  # fmt: skip
        n_bytes = {
            f: lp.count_bytes(self.kinds[f], shapes[f], n_rows, n_parts, f in sparse) for f in count
        }
        batches = lp.feature_batches(count, n_bytes, self._room())
        plan = lp.LevelPlan(
            self.codings, self.kinds, self.target, np.asarray(self.split_feature),
            np.asarray(self.split_threshold, dtype=float), np.asarray(self.offset),
            np.concatenate(self.children or [np.zeros(0, np.int64)]), local, self.n_classes,
            lv.depth, k, count, sparse,
        )  # fmt: skip
        parts = self.parts  # (kept partitions, when several passes: with their rows' nodes)
        if len(batches) > 1 and isinstance(parts, list):
            dask, _ = core.import_dask()
            parts = lp.routed_parts(parts, dask.delayed(plan, traverse=False))
        found = {}
        for batch in batches:
            found.update(self._pass(parts, replace(plan, count=batch), counts))
        return found

    def _pass(self, parts: Any, plan: lp.LevelPlan, counts: Any) -> dict:
        """One pass over the partitions, counting ``plan.count``."""
        dask, _ = core.import_dask()
        combiners, finals = {}, {}
        for f in plan.count:
            if self.kinds[f] == "numeric":
                combiners[f] = core.MergeAll(lp.merge_numeric)
                finals[f] = functools.partial(
                    lp.search_numeric, parent=counts, min_leaf=self.params.min_samples_leaf
                )
            else:
                combiners[f] = core.MergeAll(lp.merge_sparse) if f in plan.sparse else core.add
        shared = dask.delayed(plan, traverse=False)  # (one copy for all tasks)
        return core.compute_keys(
            core.reduce_keys(parts, lp.level_counts, combiners, finals, shared)
        )

    def _n_codes(self, f: int) -> int:
        """The codes feature ``f`` is counted by: a categorical or binned feature's codes
        (missing last); a numeric feature's (left, right, missing) for its missing rows."""
        return 3 if self.kinds[f] == "numeric" else self.codings[f].n_codes

    def _n_parts(self) -> int:
        return len(self.parts) if isinstance(self.parts, list) else self.parts.npartitions

    def _room(self) -> int | None:
        """Bytes a level's counts may take in the workers' memory: a third of their memory
        limits, less the partitions kept there (None: no distributed cluster, or no limits)."""
        total = core.workers_memory()
        if not total:
            return None
        kept = lp.encoded_bytes(self.n_rows, self.kinds) if isinstance(self.parts, list) else 0
        return max(0, total // 3 - kept)

    def _table(self, f: int, found: Any, k: int) -> Any:
        """A categorical or binned feature's summed counts as a (node, code, class) table."""
        if isinstance(found, lp.SparseCells):
            return found
        return found.reshape(k, self.codings[f].n_codes, self.n_classes)

    def _score_categorical(self, s: Any, f: int, found: Any, used: Any, parent: Any) -> Any:
        """Categorical feature ``f``'s scores from its summed counts; its (node, value, class)
        table."""
        table = self._table(f, found, len(parent))
        result = lp.score_categorical(table, parent, self.params.min_samples_leaf)
        self._fill(s, f, result, result.valid & ~used)
        return table

    def _score_numeric(self, s: Any, f: int, found: Any, parent_counts: Any) -> np.ndarray:
        """Numeric feature ``f``'s scores from its search (binned: from its counts); its
        (node, side, class) table of the sides of its best cut (left, right, missing)."""
        min_leaf = self.params.min_samples_leaf
        if self.kinds[f] == "binned":
            table = self._table(f, found, len(parent_counts))
            found = lp.search_binned(table, parent_counts, self.codings[f].edges, min_leaf)
        result, left, missing, n_distinct = found
        n_present = parent_counts.sum(axis=1) - missing.sum(axis=1)
        s.numeric_facts[f] = (n_present, n_distinct, result.found)
        s.candidate[:, f] = True
        ok = result.found & ((result.n_missing == 0) | (result.n_missing >= min_leaf))
        s.threshold[:, f] = np.where(ok, result.threshold, np.nan)
        if result.low is not None:
            s.low[:, f] = np.where(ok, result.low, np.nan)
            s.high[:, f] = np.where(ok, result.high, np.nan)
        s.n_ties[:, f] = result.n_ties
        self._fill(s, f, result, ok)
        right = parent_counts - missing - left
        return np.stack([left, right, missing], axis=1)

    @staticmethod
    def _fill(s: Any, f: int, result: Any, ok: Any) -> None:
        """The gain, overall entropy and gain ratio of feature ``f`` where its split is ``ok``."""
        s.gain[:, f] = np.where(ok, result.gain, np.nan)
        if result.overall_entropy is not None:
            s.overall[:, f] = np.where(ok, result.overall_entropy, np.nan)
        s.ratio[:, f] = gain_ratios(ok, result.gain, result.split_info)

    def split(self, lv: _DaskLevel, scored: Any, s: Any, choice: Any, tables: dict) -> tuple:
        """Step 4's splits: one child per non-empty branch of every splitting node, in branch
        order; the level is recorded and the splits join the routing arrays."""
        ids, sizes = lv.nodes[scored], lv.counts[scored].sum(axis=1)
        s.branch_tables = tables
        lv.reasons[scored] = choice.why
        parent, slot, counts = _branches_of(tables, choice.chosen, choice.splitting, self.n_classes)
        children = np.arange(self.n_nodes, self.n_nodes + len(parent))
        self.record.level(
            Level(depth=lv.depth, nodes=lv.nodes, counts=lv.counts, reasons=lv.reasons,
                eligible=scored, ids=ids, scores=s, chosen=choice.chosen,
                splitting=choice.splitting, criterion=self.params.criterion, children=children,
                parent=parent, child_slot=slot, child_sizes=counts.sum(axis=1), orders={},
                starts=(np.cumsum(sizes) - sizes).astype(np.int64), sizes=sizes,
            )
        )  # fmt: skip
        self._route_splits(ids, s, choice, parent, slot, children)
        self.parents.append(ids[parent])
        self.slots.append(slot)
        self.depths.append(np.full(len(children), lv.depth + 1))
        self.all_counts.append(counts)
        self.n_nodes += len(children)
        return children, parent, counts

    def _route_splits(
        self, ids: Any, s: Any, choice: Any, parent: Any, slot: Any, children: Any
    ) -> None:
        """The level's splits join the routing arrays (:class:`~id3tree.dask.level_pass.LevelPlan`):
        each splitting node's feature, threshold and slots, its children in them."""
        self.split_feature += [-1] * len(children)
        self.split_threshold += [np.nan] * len(children)
        self.offset += [-1] * len(children)
        splitting = np.flatnonzero(choice.splitting)
        chosen = choice.chosen[splitting]
        width = [self.codings[f].n_codes if self.is_cat[f] else 3 for f in chosen.tolist()]
        at = np.full(len(ids), -1, dtype=np.int64)  # where its slots start among the level's
        at[splitting] = np.cumsum(width) - width
        slots = np.full(sum(width), -1, dtype=np.int64)
        slots[at[parent] + slot] = children
        start = at[splitting] + sum(len(level) for level in self.children)
        self.children.append(slots)
        for e, f, begin in zip(splitting.tolist(), chosen.tolist(), start.tolist()):
            self.split_feature[ids[e]] = f
            self.split_threshold[ids[e]] = s.threshold[e, f]
            self.offset[ids[e]] = begin

    def next_level(self, lv: _DaskLevel, choice: Any, children: Any) -> _DaskLevel:
        """Step 5: the children make the next level; a categorical feature is used up on the
        paths below it."""
        ids, parent, counts = children
        used = lv.used[parent]
        chosen = choice.chosen[parent]
        from_cat = np.flatnonzero(self.is_cat[chosen]) if len(parent) else []
        used[from_cat, chosen[from_cat]] = True
        return _DaskLevel(ids, counts, lv.depth + 1, used)

    def finish(self) -> Any:
        self.parts = None  # (the kept partitions leave the workers' memory)
        return self.record.finish(self.parents, self.slots, self.depths, self.all_counts)


# ---------------------------------------------------------------------------------------------
# Prediction: the fitted model maps every partition
# ---------------------------------------------------------------------------------------------
def _predict_part(part: Any, model: Any, proba: bool) -> Any:
    import pandas as pd

    if proba:
        columns = pd.Index(model.classes_.tolist())
        return pd.DataFrame(model.predict_proba(part), index=part.index, columns=columns)
    return pd.Series(model.predict(part), index=part.index, name="prediction")


def predict_partitions(X: Any, model: Any, *, proba: bool) -> Any:
    """Predictions (or class probabilities) of a Dask DataFrame, one partition at a time: the
    Dask version of :func:`id3tree.learner.predictions`."""
    X = core.check_frame(X)
    meta = _predict_part(X._meta, model, proba)
    return X.map_partitions(_predict_part, model, proba, meta=meta)
