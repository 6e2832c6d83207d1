"""What a partition does on each level of :mod:`id3tree.dask.tree`'s grower, and what a worker
does with the counts of all partitions.

A partition is coded once (:func:`encode_part`); on each level it sends its rows down the splits
so far (:func:`route`) and counts, for every node of the level, the (value, class) pairs of the
features the pass counts (:func:`level_counts`). Three shapes of counts, each with a bound on its
size that holds however deep the tree grows:

* a numeric feature: the class counts of every distinct (node, value) pair
  (:func:`numeric_counts`): at most one entry per row;
* a categorical (or binned) feature: a dense ``(node, code, class)`` table while it has at most
  :data:`~id3tree.dask.counted_splits.DENSE_CELLS_PER_ROW` cells per row, else only the cells
  that occur (:class:`SparseCells`): at most one per row too;
* the rows a numeric feature misses: a ``(node, class)`` table, or None if it misses none.

The grower deals the features of a level into passes whose counts fit in the workers' memory
(:func:`feature_batches`); when a level takes more than one pass, each row's node is found once
and kept for all of them (:func:`routed_parts`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from id3tree.dask import core
from id3tree.dask.counted_splits import (
    DENSE_CELLS_PER_ROW,
    distinct_value_counts,
    merge_all_value_counts,
    search_counted_thresholds,
)
from id3tree.engine.splits import branch_search
from id3tree.model.node import LEFT, NUMERIC_MISSING, RIGHT

__all__ = [
    "binned_codes", "count_bytes", "count_cells", "encode_locally", "encode_part", "encoded_bytes",
    "EncodedPart", "feature_batches", "level_counts", "LevelPlan", "LocallyCoded", "MERGE_FACTOR",
    "merge_numeric", "merge_sparse", "numeric_counts", "numeric_counts_plain", "numeric_cuts",
    "route", "routed_parts", "score_categorical", "search_binned",
    "search_numeric", "sparse_cells", "SparseCells", "table_pairs",
]  # fmt: skip


@dataclass
class LevelPlan:
    """Everything a partition needs for one level: codings, the splits so far, what to count.

    The splits are routing arrays: a split node's branch ``slot`` leads to node
    ``children[offset[node] + slot]`` (-1: no child), a node using as many slots as its
    feature has branch slots (a category's code, or left, right, missing); so the arrays grow
    with the nodes split, not with nodes x the widest feature's categories."""

    codings: list  # per feature: a core.Coding
    kinds: list  # per feature: "categorical", "numeric" or "binned"
    target: core.Coding
    feature: np.ndarray  # per node so far: split feature, -1 if none
    threshold: np.ndarray
    offset: np.ndarray  # per node so far: where its slots start in ``children`` (-1: not split)
    children: np.ndarray  # the child of each slot of every split node, -1 where none
    local: np.ndarray  # per node so far: its index among the level's scored nodes, or -1
    n_classes: int
    depth: int
    n_scored: int
    count: list  # the features to count on this level
    sparse: frozenset = frozenset()  # categorical or binned features counted as SparseCells


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
    number of the partition's distinct values ``<= t`` (found once per split node:
    :func:`numeric_cuts`)."""
    n_rows = len(part.y)
    cuts = numeric_cuts(part, plan)
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
                cut = cuts[node[rows]]
                slot[rows] = np.where(
                    column == len(part.distinct[f]),
                    NUMERIC_MISSING,
                    np.where(column < cut, LEFT, RIGHT),
                )
            else:
                t = plan.threshold[node[rows]]
                slot[rows] = np.where(
                    np.isnan(column), NUMERIC_MISSING, np.where(column <= t, LEFT, RIGHT)
                )
        moving = np.flatnonzero(feature >= 0)
        node[moving] = plan.children[plan.offset[node[moving]] + slot[moving]]
    return plan.local[node]


def numeric_cuts(part: EncodedPart, plan: LevelPlan) -> np.ndarray:
    """Per node so far split on a numeric feature: how many of the partition's distinct values
    of that feature are ``<= `` its threshold (0 for the other nodes), each found once."""
    cuts = np.zeros(len(plan.feature), dtype=np.int64)
    for f, kind in enumerate(plan.kinds):
        at = np.flatnonzero(plan.feature == f) if kind == "numeric" else ()
        if len(at):
            cuts[at] = np.searchsorted(part.distinct[f], plan.threshold[at], side="right")
    return cuts


def count_cells(
    node: Any, n_nodes: int, codes: Any, n_codes: int, y: Any, n_classes: int, work: Any
) -> np.ndarray:
    """Counts of every (node, code, class) cell, ``(node * n_codes + code) * n_classes + y``,
    nodes ``0 .. n_nodes - 1``, computed in ``work`` (an int64 buffer the length of the rows,
    reused across features so that a level allocates no row-sized array per feature)."""
    return np.bincount(
        _cells(node, codes, n_codes, y, n_classes, work), minlength=n_nodes * n_codes * n_classes
    )


def _cells(node: Any, codes: Any, n_codes: int, y: Any, n_classes: int, work: Any) -> Any:
    """Each row's (node, code, class) cell, ``(node * n_codes + code) * n_classes + y``, in
    ``work``."""
    np.multiply(node, n_codes, out=work)
    np.add(work, codes, out=work)
    np.multiply(work, n_classes, out=work)
    return np.add(work, y, out=work)


def numeric_counts(node: Any, part: EncodedPart, f: int, k: int, n_classes: int, work: Any) -> Any:
    """A numeric feature's counts at the level's ``k`` scored nodes (``node``: each row's, ``k``
    for none): ``((segment, values, counts), missing)`` as :func:`distinct_value_counts` and a
    ``bincount`` of the missing rows give them, ``missing`` None where no row misses the
    feature (:func:`numeric_counts_plain`).

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
    missing = table[:, n_values, :].reshape(-1)
    return found, missing if missing.any() else None


def numeric_counts_plain(node: Any, part: EncodedPart, f: int, k: int, n_classes: int) -> Any:
    """:func:`numeric_counts` from the rows' values, masked and copied per node."""
    values = np.append(part.distinct[f], np.nan)[part.columns[f]]
    if part.zeros[f] is not None:
        rows, negative = part.zeros[f]
        values[rows[negative]] = -0.0
    keep = node < k
    node, values, y = node[keep], values[keep], part.y[keep]
    present = ~np.isnan(values)
    absent = np.flatnonzero(~present)
    missing = None
    if len(absent):
        missing = np.bincount(node[absent] * n_classes + y[absent], minlength=k * n_classes)
    return distinct_value_counts(node[present], values[present], y[present], n_classes), missing


def level_counts(part: Any, plan: LevelPlan) -> dict:
    """The counts of one partition (a pandas DataFrame, an :class:`EncodedPart` kept between
    levels, or one with its rows' nodes on the level from :func:`routed_parts`) for one level,
    per feature to count."""
    if isinstance(part, tuple):  # (partition, its rows' nodes), routed once for the level
        part, node = part
    else:
        part = _encoded(part, plan)
        node = _scored_nodes(part, plan)
    k, n_classes = plan.n_scored, plan.n_classes  # y has no missing code: labels are complete
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
        if f in plan.sparse:
            out[f] = sparse_cells(node, k, column, n_levels, part.y, n_classes, work)
            continue
        table = count_cells(node, k + 1, column, n_levels, part.y, n_classes, work)
        out[f] = table[: k * n_levels * n_classes]
    return out


def _encoded(part: Any, plan: LevelPlan) -> EncodedPart:
    if isinstance(part, LocallyCoded):
        return part.coded(plan.codings, plan.target)
    if not isinstance(part, EncodedPart):
        return encode_part(part, plan.codings, plan.kinds, plan.target)
    return part


def _scored_nodes(part: EncodedPart, plan: LevelPlan) -> np.ndarray:
    """Each row's index among the level's scored nodes; ``n_scored`` for rows of none (one
    more node, whose counts are dropped)."""
    node = route(part, plan)
    node[node < 0] = plan.n_scored
    return node


def _route_part(part: Any, plan: LevelPlan) -> tuple:
    part = _encoded(part, plan)
    return part, _scored_nodes(part, plan)


def routed_parts(parts: list, plan: Any) -> list:
    """The kept partitions (encoded, in the workers' memory) with their rows' nodes on the
    level, found once and kept beside them for the level's passes: ``(partition, nodes)``
    values that :func:`level_counts` takes."""
    dask, _ = core.import_dask()
    return core.persist([dask.delayed(_route_part, pure=True)(p, plan) for p in parts])


@dataclass
class SparseCells:
    """The cells of a ``(node, code, class)`` table of ``shape`` that hold a count: their flat
    indices (sorted) and counts. Indexed by a node (``cells[e]``), the node's dense
    ``(code, class)`` table, as the dense table's ``table[e]``."""

    cells: np.ndarray
    counts: np.ndarray
    shape: tuple

    def pairs(self) -> tuple:
        """Every occurring (node, code) pair, sorted: ``(node, code, class counts)``."""
        n_codes, n_classes = self.shape[1:]
        pair, cls = np.divmod(self.cells, n_classes)
        new = np.r_[True, pair[1:] != pair[:-1]] if len(pair) else np.zeros(0, bool)
        run = np.cumsum(new) - 1
        counts = np.zeros((int(new.sum()), n_classes), dtype=np.int64)
        counts[run, cls] = self.counts
        node, code = np.divmod(pair[new], n_codes)
        return node, code, counts

    def __getitem__(self, e: int) -> np.ndarray:
        n_codes, n_classes = self.shape[1:]
        block = n_codes * n_classes
        lo, hi = np.searchsorted(self.cells, [e * block, (e + 1) * block])
        table = np.zeros(block, dtype=np.int64)
        table[self.cells[lo:hi] - e * block] = self.counts[lo:hi]
        return table.reshape(n_codes, n_classes)


def sparse_cells(
    node: Any, k: int, codes: Any, n_codes: int, y: Any, n_classes: int, work: Any
) -> SparseCells:
    """:func:`count_cells` of the ``k`` scored nodes, keeping only the cells that occur (for a
    table with more cells than rows: at most one per row)."""
    kept = _cells(node, codes, n_codes, y, n_classes, work)[node < k]
    cells, counts = np.unique(kept, return_counts=True)
    return SparseCells(cells, counts.astype(np.int64), (k, n_codes, n_classes))


def merge_sparse(found: list) -> SparseCells:
    """Several partitions' :class:`SparseCells` of one feature as one."""
    cells = np.concatenate([f.cells for f in found])
    counts = np.concatenate([f.counts for f in found])
    unique, at = np.unique(cells, return_inverse=True)
    return SparseCells(unique, np.bincount(at, weights=counts).astype(np.int64), found[0].shape)


def table_pairs(table: Any) -> tuple:
    """Every occurring (node, code) pair of a dense ``(node, code, class)`` table or of
    :class:`SparseCells`, in (node, code) order: ``(node, code, class counts)``."""
    if isinstance(table, SparseCells):
        return table.pairs()
    k, n_codes, n_classes = table.shape
    flat = table.reshape(-1, n_classes)
    occurring = np.flatnonzero(flat.sum(axis=1) > 0)
    node, code = np.divmod(occurring, n_codes)
    return node, code, flat[occurring]


def merge_numeric(found: list) -> Any:
    """Numeric counts ``(value counts, missing)`` of several partitions as one (missing None:
    no row missed the feature)."""
    missing = [f[1] for f in found if f[1] is not None]
    return merge_all_value_counts([f[0] for f in found]), sum(missing) if missing else None


def search_numeric(found: Any, parent: Any, min_leaf: Any) -> Any:
    """A numeric feature's best threshold at every scored node, on the worker with its counts."""
    (segment, values, counts), missing = found
    if missing is None:
        missing = np.zeros(parent.shape, dtype=np.int64)
    missing = missing.reshape(parent.shape)
    search, left = search_counted_thresholds(
        segment, values, counts, missing, parent, min_leaf=min_leaf
    )
    return search, left, missing, np.bincount(segment, minlength=len(parent))


def search_binned(table: Any, parent: Any, edges: Any, min_leaf: Any) -> Any:
    """Best edge of a binned feature at every scored node, from its (node, bin, class) table
    (dense, or :class:`SparseCells`)."""
    k, n_codes, n_classes = table.shape
    node, code, counts = table_pairs(table)
    present = code < n_codes - 1
    missing = np.zeros((k, n_classes), dtype=np.int64)
    missing[node[~present]] = counts[~present]
    segment, bins = node[present], code[present]
    search, left = search_counted_thresholds(
        segment, bins.astype(float), counts[present], missing, parent, min_leaf=min_leaf,
        thresholds=edges[bins + 1],
    )  # fmt: skip
    return search, left, missing, np.bincount(segment, minlength=k)


def score_categorical(table: Any, parent: Any, min_leaf: Any) -> Any:
    """A categorical feature's multiway split at every scored node (``parent``: each one's class
    counts, the table's sums), from its table, dense or :class:`SparseCells`: the branches that
    occur, in (node, code) order, as
    :func:`~id3tree.dask.counted_splits.score_counted_categorical` scores them."""
    node, _, branches = table_pairs(table)
    small = branches.sum(axis=1) < min_leaf
    return branch_search(branches, node, np.asarray(parent, dtype=np.int64), small=small)


MERGE_FACTOR = 3
"""A feature's counts are held about this many times over while a worker merges them (the
partitions' summaries, their concatenation and its sorted copy)."""


def count_bytes(kind: str, shape: tuple, n_rows: int, n_parts: int, sparse: bool) -> int:
    """A bound on the bytes of one feature's counts that a level's partitions send, for
    ``shape`` = (scored nodes, codes, classes) and ``n_rows`` rows in the scored nodes: a
    numeric feature's (node, value) pairs are at most one per row (and each partition's missing
    rows a (node, class) table), a sparse table's cells too; a dense table is one per
    partition."""
    k, n_codes, n_classes = shape
    if kind == "numeric":
        return n_rows * (16 + 8 * n_classes) + n_parts * k * n_classes * 8
    if sparse:
        return n_rows * 16
    return n_parts * k * n_codes * n_classes * 8


def feature_batches(features: list, n_bytes: dict, budget: int | None) -> list[list]:
    """``features`` in column order, dealt into consecutive passes whose counts, held
    :data:`MERGE_FACTOR` times over, fit in ``budget`` bytes (None: no bound, one pass); a
    feature too large for it has a pass of its own."""
    if budget is None:
        return [list(features)] if features else []
    batches: list[list] = []
    held = budget + 1
    for f in features:
        need = MERGE_FACTOR * n_bytes[f]
        if held + need > budget:
            batches.append([])
            held = 0
        batches[-1].append(f)
        held += need
    return batches
