"""Growing an ID3 tree on a Dask DataFrame, level by level, one pass over the data per level.

The grower in :mod:`id3tree.engine.grow` keeps every row in memory and regroups them after each level.
Here the rows stay in their partitions. Each level is one distributed pass:

1. every partition sends its rows down the tree grown so far (the splits are a few small arrays)
   to find each row's node on the current level;
2. it counts, for every node of the level, the (value, class) pairs of every feature: a dense
   ``(node, category, class)`` table for a categorical feature, and for a numeric feature the
   class counts of every distinct (node, value) pair, which is exactly what is needed to score
   every midpoint (with ``numeric_bins`` set, a dense ``(node, bin, class)`` table instead);
3. the counts are summed on the workers (the features dealt into one group per worker, each
   merged in a tree of its own), and a numeric feature's threshold search runs on the worker
   that holds its counts, so only each node's best threshold travels;
4. the caller scores the features with the learner's own rules (:mod:`id3tree.engine.splits` fed with
   counts, see :mod:`id3tree.dask.counted_splits`), breaks ties the same way, applies the same
   stopping rules, and records the level with :class:`id3tree.engine.record.Record`.

Before the first level, every partition is coded once (:func:`encode_part`: int32 codes, a
numeric column's by its own sorted distinct values) and kept in the workers' memory when it fits
(when the rows are known from the files' metadata, the same read describes the partitions too:
:class:`LocallyCoded`); a level then routes and counts codes, every feature with one
``bincount`` into a reused buffer (:func:`count_cells`), with no row-sized temporary per
feature.

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
from id3tree.dask.counted_splits import (
    DENSE_CELLS_PER_ROW,
    distinct_value_counts,
    merge_all_value_counts,
    score_counted_categorical,
    search_counted_thresholds,
)
from id3tree.engine import grow
from id3tree.engine.fitting import Fitted
from id3tree.engine.grow import choose_splits
from id3tree.engine.record import Level, Record
from id3tree.engine.splits.results import gain_ratios
from id3tree.engine.stopping import stop_reasons
from id3tree.model.node import LEFT, NUMERIC_MISSING, RIGHT

__all__ = [
    "binned_codes", "count_cells", "DaskFit", "encode_locally", "encode_part", "encoded_bytes",
    "EncodedPart", "fit_on_dask", "grow_on_dask", "LevelPlan", "LocallyCoded", "numeric_counts",
    "numeric_counts_plain", "predict_partitions", "route", "Scores",
]  # fmt: skip


@dataclass
class DaskFit:
    """What the learner needs from a fit on Dask: the encoding and the grown tree."""

    data: EncodedData  # names, categories and classes; no rows
    grown: object  # GrownTree


class Scores(grow.Scores):
    """Per (node, feature) scores of one level (the fields :class:`Record` reads), with what the
    trace needs of the counted searches."""

    def __init__(self, k: int, n_features: int) -> None:
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


@dataclass
class EncodedPart:
    """One partition as the level passes read it: the labels' codes, and each feature's codes
    ``0 .. n - 1`` with ``n`` for a missing value (int32), or values (binned).

    A numeric feature's codes index ``distinct[f]``, its sorted distinct present values in this
    partition (a zero among them is ``+0.0``); if one of its zeros is ``-0.0``, ``zeros[f]`` is
    ``(rows holding a zero, whether each is -0.0)``: a node's counts keep the sign of its first
    zero row, as sorting the rows stably does (:func:`numeric_counts`). Else None.
    """

    y: np.ndarray
    columns: list
    distinct: list
    zeros: list


def encode_part(part: Any, codings: Any, kinds: Any, target: Any) -> EncodedPart:
    """A partition as codes: categories by the column's coding, numbers by the partition's own
    sorted distinct values (:func:`core.number_codes`), so no level sorts them again."""
    return _encode(part, codings, kinds, lambda coding: coding.codes(part), target.codes(part))


@dataclass
class LocallyCoded:
    """A partition encoded before the table's categories are known (:func:`encode_locally`):
    its categorical columns and labels coded by their own values (-1 missing), ``own`` holding
    those values per column, and what a describing pass says of the partition."""

    part: EncodedPart
    own: dict
    described: dict

    def coded(self, codings: Any, target: Any) -> EncodedPart:
        """The partition coded as :func:`encode_part` codes it (each value looked up once)."""
        columns = list(self.part.columns)
        for f, coding in enumerate(codings):
            if coding.column in self.own:
                own = self.own[coding.column]
                lookup = core.category_lookup(own, coding.categories, coding.name)
                missing = len(coding.categories)
                columns[f] = np.append(lookup, missing).astype(np.int32)[columns[f]]
        lookup = core.category_lookup(self.own[target.column], target.categories, "y")
        return replace(self.part, columns=columns, y=lookup[self.part.y])


def encode_locally(part: Any, codings: Any, kinds: Any, target: Any) -> LocallyCoded:
    """:func:`encode_part` with no categories known yet: one read of the files both describes
    the categorical columns and the labels (``"categories"``, ``"classes"``, as
    :func:`core.describe` does) and encodes the partition."""
    own, described = {}, {}

    def own_codes(coding: Any) -> np.ndarray:
        local, described[coding.column] = core.own_codes(part[coding.column])
        own[coding.column] = described[coding.column][0]
        return local

    y = own_codes(target)
    described[target.column] += (np.bincount(y[y >= 0], minlength=len(own[target.column])),)
    return LocallyCoded(_encode(part, codings, kinds, own_codes, y), own, described)


def _encode(part: Any, codings: Any, kinds: Any, categorical_codes: Any, y: Any) -> EncodedPart:
    columns, distinct, zeros = [], [], []
    for coding, kind in zip(codings, kinds):
        found = signed = None
        if kind == "categorical":
            column = categorical_codes(coding).astype(np.int32)
        else:
            column = coding.values(part)
        if kind == "numeric":
            rows = np.flatnonzero(column == 0)
            negative = np.signbit(column[rows])
            if negative.any():
                signed = (rows, negative)
            found, column = core.number_codes(column)
        columns.append(column)
        distinct.append(found)
        zeros.append(signed)
    return EncodedPart(y, columns, distinct, zeros)


def encoded_bytes(n_rows: int, kinds: list) -> int:
    """Bytes of a table's :class:`EncodedPart` parts (without the rows of signed zeros)."""
    return n_rows * (8 + sum(8 if kind == "binned" else 4 for kind in kinds))


def route(part: EncodedPart, plan: LevelPlan) -> np.ndarray:
    """Each row's node on the current level, as its index among the scored nodes (-1: none).

    A numeric value goes left when ``v <= t``, which on codes is ``code < cut`` with ``cut`` the
    number of the partition's distinct values ``<= t``."""
    n_rows = len(part.y)
    node = np.zeros(n_rows, dtype=np.int64)
    for _ in range(plan.depth):
        feature = plan.feature[node]
        slot = np.full(n_rows, -1, dtype=np.int64)
        for f in np.unique(feature[feature >= 0]):
            rows = np.flatnonzero(feature == f)
            column = part.columns[f][rows]
            if plan.kinds[f] == "categorical":
                slot[rows] = column
            elif plan.kinds[f] == "numeric":
                distinct = part.distinct[f]
                cut = np.searchsorted(distinct, plan.threshold, side="right")[node[rows]]
                slot[rows] = np.where(
                    column == len(distinct), NUMERIC_MISSING, np.where(column < cut, LEFT, RIGHT)
                )
            else:
                t = plan.threshold[node[rows]]
                slot[rows] = np.where(
                    np.isnan(column), NUMERIC_MISSING, np.where(column <= t, LEFT, RIGHT)
                )
        moving = np.flatnonzero(feature >= 0)
        node[moving] = plan.child[node[moving], slot[moving]]
    return plan.local[node]


def count_cells(
    node: Any, n_nodes: int, codes: Any, n_codes: int, y: Any, n_classes: int, work: Any
) -> np.ndarray:
    """Counts of every (node, code, class) cell, ``(node * n_codes + code) * n_classes + y``,
    nodes ``0 .. n_nodes - 1``, computed in ``work`` (an int64 buffer the length of the rows, reused across features so
    that a level allocates no row-sized array per feature)."""
    np.multiply(node, n_codes, out=work)
    np.add(work, codes, out=work)
    np.multiply(work, n_classes, out=work)
    np.add(work, y, out=work)
    return np.bincount(work, minlength=n_nodes * n_codes * n_classes)


def numeric_counts(node: Any, part: EncodedPart, f: int, k: int, n_classes: int, work: Any) -> Any:
    """A numeric feature's counts at the level's ``k`` scored nodes (``node``: each row's, ``k``
    for none): ``((segment, values, counts), missing)`` as :func:`distinct_value_counts` and a
    ``bincount`` of the missing rows give them (:func:`numeric_counts_plain`).

    The fast path counts (node, code, class) cells densely with no mask and no copy of the
    column, when the table is small; else the plain twin runs."""
    distinct, codes = part.distinct[f], part.columns[f]
    n_values = len(distinct)
    cells = (k + 1) * (n_values + 1) * n_classes
    if cells > DENSE_CELLS_PER_ROW * len(codes) + 4096:
        return numeric_counts_plain(node, part, f, k, n_classes)
    table = count_cells(node, k + 1, codes, n_values + 1, part.y, n_classes, work)
    table = table[: k * (n_values + 1) * n_classes].reshape(k, n_values + 1, n_classes)
    present = table[:, :n_values, :].reshape(-1, n_classes)
    occurring = np.flatnonzero(present.any(axis=1))
    segment, code = np.divmod(occurring, n_values) if n_values else (occurring, occurring)
    values = distinct[code]
    if part.zeros[f] is not None:  # each node's zero takes the sign of its first zero row
        rows, negative = part.zeros[f]
        first = np.zeros(k + 1, dtype=np.int64)
        first[node[rows][::-1]] = np.arange(len(rows))[::-1]  # (the last write wins)
        at_zero = np.flatnonzero(values == 0)
        values[at_zero] = np.where(negative[first[segment[at_zero]]], -0.0, 0.0)
    found = (segment.astype(np.int64), values, present[occurring])
    return found, table[:, n_values, :].reshape(-1)


def numeric_counts_plain(node: Any, part: EncodedPart, f: int, k: int, n_classes: int) -> Any:
    """:func:`numeric_counts` from the rows' values, masked and copied per node."""
    values = np.append(part.distinct[f], np.nan)[part.columns[f]]
    if part.zeros[f] is not None:
        rows, negative = part.zeros[f]
        values[rows[negative]] = -0.0
    keep = node < k
    node, values, y = node[keep], values[keep], part.y[keep]
    present = ~np.isnan(values)
    return (
        distinct_value_counts(node[present], values[present], y[present], n_classes),
        np.bincount(node[~present] * n_classes + y[~present], minlength=k * n_classes),
    )


def _level_chunk(part: Any, plan: LevelPlan) -> dict:
    """The counts of one partition (a pandas DataFrame, or an :class:`EncodedPart` kept between
    levels) for one level, per feature to count."""
    if isinstance(part, LocallyCoded):
        part = part.coded(plan.codings, plan.target)
    elif not isinstance(part, EncodedPart):
        part = encode_part(part, plan.codings, plan.kinds, plan.target)
    k, n_classes = plan.n_scored, plan.n_classes  # y has no missing code: labels are complete
    node = route(part, plan)
    node[node < 0] = k  # rows of no scored node: one more node, whose counts are dropped
    work = np.empty(len(node), dtype=np.int64)
    out = {}
    for f in plan.count:
        if plan.kinds[f] == "numeric":
            out[f] = numeric_counts(node, part, f, k, n_classes, work)
            continue
        column = part.columns[f]
        if plan.kinds[f] == "binned":
            column = binned_codes(column, plan.codings[f].edges)
        n_levels = plan.codings[f].n_codes
        table = count_cells(node, k + 1, column, n_levels, part.y, n_classes, work)
        out[f] = table[: k * n_levels * n_classes]
    return out


def _merge_numeric(found: list) -> Any:
    """Numeric counts ``(value counts, missing)`` of several partitions as one."""
    return merge_all_value_counts([f[0] for f in found]), sum(f[1] for f in found)


def _search_numeric(found: Any, parent: Any, min_leaf: Any) -> Any:
    """A numeric feature's best threshold at every scored node, on the worker with its counts."""
    (segment, values, counts), missing = found
    missing = missing.reshape(parent.shape)
    search, left = search_counted_thresholds(
        segment, values, counts, missing, parent, min_leaf=min_leaf
    )
    return search, left, missing, np.bincount(segment, minlength=len(parent))


def _search_binned(table: Any, parent: Any, edges: Any, min_leaf: Any) -> Any:
    """Best edge of a binned feature at every scored node, from its (node, bin, class) table."""
    k, n_codes, n_classes = table.shape
    present = table[:, :-1, :].reshape(-1, n_classes)
    occurring = np.flatnonzero(present.sum(axis=1) > 0)
    segment, bins = occurring // (n_codes - 1), occurring % (n_codes - 1)
    search, left = search_counted_thresholds(
        segment, bins.astype(float), present[occurring], table[:, -1, :], parent, min_leaf=min_leaf,
        thresholds=edges[bins + 1],
    )  # fmt: skip
    return search, left, table[:, -1, :], np.bincount(segment, minlength=k)


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
    if n_rows is not None and core.fits_in_workers(encoded_bytes(n_rows, kinds)):
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
    """The partitions encoded by :func:`encode_locally` and kept in the workers' memory, and
    the describing summary of their categorical columns and labels, from one read."""
    dask, _ = core.import_dask()
    core.check_source_values(joined, [n for n, kind in wanted.values() if kind != "range"])
    codings = [
        core.Coding(str(c), c, dtype=None if is_cat else joined._meta[c].dtype)
        for c, is_cat in zip(X.columns, [kind == "categorical" for kind in kinds])
    ]
    encode = functools.partial(
        encode_locally, codings=codings, kinds=kinds, target=core.Coding("y", core.TARGET)
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
    if params.keep_trace == "auto":
        params = replace(params, keep_trace=True)
    fitted = grow_on_dask(
        X, y, params, categorical=model.categorical, numeric_bins=numeric_bins, listen=listen
    )
    data = fitted.data
    classes = class_array(data.classes)
    data.classes = list(classes.tolist())
    string_names = all(isinstance(c, str) for c in X.columns)
    return Fitted(
        data.names, data.categories, classes, fitted.grown, None,  # (the rows stay on the cluster)
        string_names=string_names, from_frame=True, trace_complete=params.keep_trace is True,
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
    return DaskFit(growth.data, growth.finish())


def _children_of(tables: dict, n_classes: int, chosen: Any, splitting: Any) -> tuple:
    """The children the splits would make (for :func:`~id3tree.engine.grow.choose_splits`): each
    one's parent (a scored node), in order, and its class counts."""
    parent, _, counts = _branches_of(tables, chosen, splitting, n_classes)
    return parent, counts


def _branches_of(tables: dict, chosen: Any, splitting: Any, n_classes: int) -> tuple:
    """One child per non-empty branch of every splitting node, in branch order, from each
    feature's (scored node, branch slot, class) counts: each child's parent (a scored node),
    branch slot and class counts (int64)."""
    parent, slot, counts = [], [], []
    for e in np.flatnonzero(splitting).tolist():
        table = tables[chosen[e]][e]
        for b in np.flatnonzero(table.sum(axis=1) > 0).tolist():
            parent.append(e)
            slot.append(b)
            counts.append(table[b])
    counts = np.array(counts, dtype=np.int64).reshape(-1, n_classes)
    return np.array(parent, dtype=np.int64), np.array(slot, dtype=np.int64), counts


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
        self.data = EncodedData(
            names=names,
            numeric=[None] * self.n_features,
            codes=[np.zeros(0, np.int64) if c else None for c in is_cat],
            categories=[c.categories if is_cat[f] else None for f, c in enumerate(self.codings)],
            y=np.zeros(0, np.int64),
            classes=list(classes),
        )
        listener = None if listen is None else listen(self.data)
        self.record = Record(listener, keep_trace=params.keep_trace)
        self.n_slots = max([3] + [c.n_codes for f, c in enumerate(self.codings) if is_cat[f]])
        # the splits so far, as each partition routes its rows; the nodes made
        self.split_feature, self.split_threshold = [-1], [np.nan]
        self.child = np.full((1, self.n_slots), -1, dtype=np.int64)
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
        n_bytes = encoded_bytes(n_rows, self.kinds)
        encode = functools.partial(
            encode_part, codings=self.codings, kinds=self.kinds, target=self.target
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
                    tables[f] = self._score_categorical(s, f, results[f], lv.used[:, f], k)
            else:
                tables[f] = self._score_numeric(s, f, results[f], counts)
        return s, tables

    def _count(self, lv: _DaskLevel, ids: Any, counts: Any) -> dict:
        """The pass of a level: feature -> its counts (a numeric feature's: its search)."""
        k, min_leaf = len(ids), self.params.min_samples_leaf
        local = np.full(self.n_nodes, -1, dtype=np.int64)
        local[ids] = np.arange(k)
        count = [f for f in range(self.n_features) if not (self.is_cat[f] and lv.used[:, f].all())]
        plan = LevelPlan(
            self.codings, self.kinds, self.target, np.asarray(self.split_feature),
            np.asarray(self.split_threshold, dtype=float), self.child, local, self.n_classes,
            lv.depth, k, count,
        )  # fmt: skip
        combiners, finals = {}, {}
        for f in count:
            if self.kinds[f] == "numeric":
                combiners[f] = core.MergeAll(_merge_numeric)
                finals[f] = functools.partial(_search_numeric, parent=counts, min_leaf=min_leaf)
            else:
                combiners[f] = core.add
        return core.compute_keys(
            core.reduce_keys(self.parts, _level_chunk, combiners, finals, plan)
        )

    def _score_categorical(self, s: Any, f: int, counts: Any, used: Any, k: int) -> np.ndarray:
        """Categorical feature ``f``'s scores from its summed counts; its (node, value, class)
        table."""
        table = counts.reshape(k, self.codings[f].n_codes, self.n_classes)
        result = score_counted_categorical(table, min_leaf=self.params.min_samples_leaf)
        self._fill(s, f, result, result.valid & ~used)
        return table

    def _score_numeric(self, s: Any, f: int, found: Any, parent_counts: Any) -> np.ndarray:
        """Numeric feature ``f``'s scores from its search (binned: from its counts); its
        (node, side, class) table of the sides of its best cut (left, right, missing)."""
        min_leaf = self.params.min_samples_leaf
        if self.kinds[f] == "binned":
            table = found.reshape(len(parent_counts), self.codings[f].n_codes, self.n_classes)
            found = _search_binned(table, parent_counts, self.codings[f].edges, min_leaf)
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
        # the splits join the routing arrays
        self.split_feature += [-1] * len(children)
        self.split_threshold += [np.nan] * len(children)
        for e in np.flatnonzero(choice.splitting).tolist():
            self.split_feature[ids[e]] = int(choice.chosen[e])
            self.split_threshold[ids[e]] = s.threshold[e, choice.chosen[e]]
        grown = np.full((len(children), self.n_slots), -1, dtype=np.int64)
        self.child = np.vstack([self.child, grown])
        self.child[ids[parent], slot] = children
        self.parents.append(ids[parent])
        self.slots.append(slot)
        self.depths.append(np.full(len(children), lv.depth + 1))
        self.all_counts.append(counts)
        self.n_nodes += len(children)
        return children, parent, counts

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
