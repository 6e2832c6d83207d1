"""Sending rows down a tree: the tree compiled to flat arrays, and a level-by-level router.

Every row starts at the root. At each step all rows that sit at an internal node move at once:
a numeric split sends a row to ``<=`` or ``>`` (or to the missing-values branch), a categorical
split to the branch of its value. A row stops early where its node has no branch for it (a
category never seen at that node, or a missing value where no training row was missing); its
prediction then comes from the class counts of the node where it stopped. A large call can share
its rows among ``THREADS`` threads, each routing its own rows as one thread would.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from id3tree.base.validation import UNSEEN
from id3tree.model.node import LEFT, NUMERIC_MISSING, RIGHT, Node, majority_classes

__all__ = [
    "BLOCK_ROWS", "CompiledTree", "in_shares", "NUMERIC_BATCH", "SHARED_BATCH", "SparseBranches",
    "THREADED_ROWS", "THREADS",
    "training_rows_at",
]  # fmt: skip

BLOCK_ROWS = 2**15
"""Rows are routed in blocks (batches, for numbers only) of this many: the values a block reads
stay close in memory through the whole descent, and each step's arrays are long enough to hide
numpy's cost per call."""


THREADS = min(
    2, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
)
"""How many threads route the rows of one call of :meth:`CompiledTree.route` (with at least
``THREADED_ROWS`` rows): each sends its own contiguous share of the rows down, by the same code
as one thread does, while numpy's gathers and comparisons run without the GIL. A row's stop
depends on its values only, so the stops are the same for any number of threads. Two where this
process may use two processors or more (on an idle 2-core machine two threads took 0.72 to 0.99
of scikit-learn's time on every numeric tree of bench_learner.py, one thread 0.94 to 1.35); one
where it may use one. On a machine whose processors are busy with other work the second thread
finds no free processor and costs more than it saves: set ``THREADS = 1`` there
(benchmarks/README.md, "Prediction, second round")."""

NUMERIC_BATCH = 2**13
"""The numeric router's batch in one thread: the rows that descend together (see
:func:`_route_numeric`). Its eight working arrays then stay in a core's own cache; at 1e6 rows
of the d = 10 tree of bench_learner.py, in one thread, 2**13 rows took 0.17 s of processor time
where 2**15 took 0.22 s (2**12: 0.17 s, 2**11: 0.20 s, numpy's cost per call showing)."""

SHARED_BATCH = 16
"""When threads share a call's rows, the numeric router's batch is this many times
``NUMERIC_BATCH`` wide (131,072 rows): each step's array operations then run longer between the
moments a thread needs the GIL, so the two threads wait for each other less (on an idle 2-core
machine, 1e6 rows: 0.13 s instead of 0.17 s with 32,768 rows for the d = 10 tree of
bench_learner.py, 0.17 s instead of 0.20 s for the d = 100 tree)."""

THREADED_ROWS = 2**17
"""Fewer rows than this are routed in one thread: starting a thread and filling a second batch
would cost more than the second core saves."""


DENSE_SLOTS, SPARSE_FACTOR = 64, 8
"""A categorical split keeps a slot for every category of its feature (one array lookup per row)
unless that is more than ``max(DENSE_SLOTS, SPARSE_FACTOR x (branches + 1))``: a split with a few branches
of a feature with very many categories keeps its branches in :class:`SparseBranches` instead,
so the compiled tree's size grows with the tree, never with nodes x categories."""


@dataclass
class SparseBranches:
    """Branches of categorical splits looked up by ``node position * stride + category code``."""

    keys: np.ndarray  # sorted
    children: np.ndarray
    stride: int
    at_node: np.ndarray  # bool per node position: its branches are here

    @classmethod
    def of(cls, keys, children, stride: int, n_nodes: int):
        keys_array = np.asarray(keys, dtype=np.int64)
        order = np.argsort(keys_array, kind="stable")
        at_node = np.zeros(n_nodes, dtype=bool)
        at_node[keys_array // stride] = True
        return cls(keys_array[order], np.asarray(children, dtype=np.int64)[order], stride, at_node)

    def child_of(self, at: np.ndarray, codes: np.ndarray) -> np.ndarray:
        """The child position for each (node, code); -1 where the node has no such branch."""
        valid = np.isfinite(codes) & (codes >= 0)
        wanted = at * self.stride + np.where(valid, codes, 0).astype(np.int64)
        i = np.minimum(np.searchsorted(self.keys, wanted), len(self.keys) - 1)
        return np.where(valid & (self.keys[i] == wanted), self.children[i], -1)


@dataclass
class CompiledTree:
    """A tree as arrays indexed by node position (the positions of the model's
    :class:`~id3tree.model.grown_tree.GrownTree`: pre-order, root 0)."""

    feature: np.ndarray  # feature index, -1 for a leaf
    threshold: np.ndarray  # NaN unless a numeric split
    categorical: np.ndarray  # bool: a categorical split
    offset: np.ndarray  # where the node's branch slots start in ``child``
    n_slots: np.ndarray
    child: np.ndarray  # node position of each slot's child, -1 where no branch
    counts: np.ndarray  # (n_nodes, n_classes)
    sparse: SparseBranches | None = None  # categorical splits with few of many categories

    @property
    def majority(self) -> np.ndarray:
        """Each node's majority class (index into the classes; ties go to the first,
        :func:`~id3tree.model.node.majority_classes`)."""
        if not hasattr(self, "_majority"):
            self._majority = majority_classes(self.counts)
        return self._majority

    @property
    def proba(self) -> np.ndarray:
        """Each node's class shares (the rows of ``counts`` divided by their sums)."""
        if not hasattr(self, "_proba"):
            self._proba = self.counts / self.counts.sum(axis=1, keepdims=True)
        return self._proba

    @classmethod
    def from_tree(cls, tree, categories: list[list | None]) -> CompiledTree:
        """Compile a :class:`~id3tree.model.grown_tree.GrownTree`; ``categories[f]`` lists feature
        f's values (None if numeric). A child sits in its parent's slot: ``<=``, ``>`` or
        missing for a numeric split, the category's code (missing last) for a categorical one,
        or the sparse lookup when few of many categories have a branch. Data without a
        categorical feature skips the work of categorical slots."""
        n = tree.n_nodes
        feature = np.asarray(tree.feature, dtype=np.int64)
        internal = feature >= 0
        threshold = np.where(internal, tree.threshold, np.nan)
        n_slots = internal * 3  # a numeric split: <=, > and missing
        categorical, sparse_node = np.zeros(n, dtype=bool), None
        parent = np.asarray(tree.parent, dtype=np.int64)
        kids = (parent >= 0).nonzero()[0]
        p, slot = parent[kids], np.asarray(tree.slot, dtype=np.int64)[kids]
        if any(c is not None for c in categories):
            n_levels = np.array([-1 if c is None else len(c) for c in categories] + [-1])
            levels = n_levels[feature]  # feature -1 reads the extra entry
            categorical = internal & (levels >= 0)
            threshold[categorical] = np.nan
            n_children = np.bincount(p, minlength=n)
            n_slots = np.where(categorical, levels + 1, n_slots)
            sparse_node = categorical & (
                n_slots > np.maximum(DENSE_SLOTS, SPARSE_FACTOR * (n_children + 1))
            )
            n_slots[sparse_node] = 1  # one empty slot; the branches go to the sparse lookup
        offset = np.zeros(n, dtype=np.int64)
        np.cumsum(n_slots[:-1], out=offset[1:])
        child = np.full(int(n_slots.sum()), -1, dtype=np.int64)
        sparse = None
        if sparse_node is not None and sparse_node.any():
            to_sparse = sparse_node[p]
            dense = ~to_sparse
            child[offset[p[dense]] + slot[dense]] = kids[dense]
            stride = max([len(c) + 2 for c in categories if c is not None], default=2)
            keys = p[to_sparse] * stride + slot[to_sparse]
            sparse = SparseBranches.of(keys, kids[to_sparse], stride, n)
        else:
            child[offset[p] + slot] = kids
        return cls(feature, threshold, categorical, offset, n_slots, child, tree.counts, sparse)

    def route(
        self, values: np.ndarray, has_missing: bool | None = None, *, threads: int | None = None
    ) -> np.ndarray:
        """The node position where each row stops. ``values`` is ``(n_rows, n_features)``, in
        either memory order (no copy is made): numeric values (NaN missing), or category codes
        (``len(categories)`` for missing and ``UNSEEN`` for values never seen at fit time).
        ``has_missing``: whether any value is NaN, when the caller knows (else each share of
        the rows looks for itself).
        ``threads``: how many threads share the rows (default: ``THREADS`` from
        ``THREADED_ROWS`` rows on, else 1); the stops do not depend on it."""
        n_rows, n_features = values.shape
        if values.flags.c_contiguous:
            flat, row_step, feature_step = values.reshape(-1), n_features, 1
        elif values.flags.f_contiguous:
            flat, row_step, feature_step = values.T.reshape(-1), 1, n_rows
        else:
            flat, row_step, feature_step = np.ascontiguousarray(values).reshape(-1), n_features, 1
        stop = np.zeros(n_rows, dtype=np.int64)
        if self.feature[0] < 0:
            return stop
        tables, numeric_tables = self._tables(feature_step)

        def route_share(first, last):
            missing = has_missing
            if missing is None:  # np.isnan of the sum: one pass, no temporary (no infinities)
                missing = bool(np.isnan(values[first:last].sum()))
            if not missing and numeric_tables is not None:
                # numbers only, none missing: a node's two children sit side by side
                batch = NUMERIC_BATCH * (SHARED_BATCH if threads > 1 else 1)
                _route_numeric(first, last, np.intp(row_step), flat, numeric_tables, stop, batch)
                return
            # Rows are routed a block at a time, so the values a block reads stay in the cache
            # through the whole descent.
            for start in range(first, last, BLOCK_ROWS):
                rows = np.arange(start, min(start + BLOCK_ROWS, last))
                self._route_rows(rows, rows * row_step, flat, tables, missing, stop)

        if threads is None:
            threads = THREADS if n_rows >= THREADED_ROWS else 1
        in_shares(n_rows, threads, route_share)
        return stop

    def _tables(self, feature_step: int) -> tuple:
        """The tables of :meth:`_route_rows` and of :func:`_route_numeric` (None if a split is
        categorical or the codes do not fit) for values whose features are ``feature_step``
        apart; those of the last ``feature_step`` are kept (predicting many small batches of
        rows in the same memory order builds them once)."""
        cached = getattr(self, "_cached_tables", None)
        if cached is not None and cached[0] == feature_step:
            return cached[1]
        # Leaves loop back to themselves (their slots all point home), so a row that reaches a
        # leaf can stay in the batch for a few more steps; the batch is compacted only when a
        # quarter of it has arrived. That keeps the per-step work to a few array operations.
        leaf = self.feature < 0
        column_start = np.where(leaf, 0, self.feature) * feature_step  # the node's feature in flat
        threshold = np.where(leaf, np.inf, self.threshold)
        offset, child = self.offset.copy(), self.child
        n_slots = np.where(leaf, 3, self.n_slots)
        n_leaf_slots = 3 * int(leaf.sum())
        offset[leaf] = len(child) + np.arange(0, n_leaf_slots, 3)
        child = np.concatenate([child, np.repeat(np.flatnonzero(leaf), 3)])
        numeric = None
        if not self.categorical.any() and _codes_fit(column_start):
            numeric = _numeric_tables(column_start, leaf, threshold, child, offset)
        tables = (column_start, threshold, offset, child, n_slots, leaf), numeric
        self._cached_tables = (feature_step, tables)
        return tables

    def _route_rows(self, rows, row_start, flat, tables, has_missing, stop) -> None:
        """Send ``rows`` (whose values start at ``row_start`` in ``flat``) down to where they stop."""
        column_start, threshold, offset, child, _, leaf = tables
        has_categorical = bool(self.categorical.any())
        at = np.zeros(len(rows), dtype=np.int64)
        take = np.take  # a little faster than fancy indexing for these 1-D gathers
        step = 0
        while True:
            value = take(flat, take(column_start, at) + row_start)
            right = value > take(threshold, at)
            if not (has_missing or has_categorical):  # the common case, in a few operations
                at = take(child, take(offset, at) + right)
            else:
                rows, at, row_start = self._general_step(
                    at, value, right, has_missing, tables, rows, stop, row_start
                )
            step += 1
            if step % 2 and len(rows) > 64:  # arrivals are looked for every other step
                continue
            arrived = take(leaf, at)
            n_arrived = int(np.count_nonzero(arrived))
            if n_arrived == len(rows):
                stop[rows] = at
                return
            if 4 * n_arrived > len(rows):
                stop[rows[arrived]] = at[arrived]
                keep = ~arrived
                rows, at, row_start = rows[keep], at[keep], row_start[keep]

    def _general_step(self, at, value, right, has_missing, tables, rows, stop, row_start):
        """One step when there are missing values or categorical splits; returns
        (rows, at, row_start) of the rows still moving."""
        _, _, offset, child, n_slots, _ = tables
        categorical, sparse = self.categorical, self.sparse
        slot = right.astype(np.int64)  # LEFT 0, RIGHT 1
        if has_missing:
            slot[np.isnan(value)] = NUMERIC_MISSING
        is_cat = categorical[at]
        slot[is_cat] = value[is_cat]  # a category's code is its slot; UNSEEN is -1
        slot[slot >= n_slots[at]] = UNSEEN
        nxt = np.where(slot >= 0, child[offset[at] + np.maximum(slot, 0)], -1)
        if sparse is not None:
            there = sparse.at_node[at]
            if there.any():
                nxt[there] = sparse.child_of(at[there], value[there])
        lost = nxt < 0  # no branch for this value here: the row stops at this node
        if lost.any():
            stop[rows[lost]] = at[lost]
            rows, nxt, row_start = rows[~lost], nxt[~lost], row_start[~lost]
        return rows, nxt, row_start

    def path(self, column_values: np.ndarray) -> list[tuple[int, int | None]]:
        """The positions one row visits, each with the slot it leaves by (None at the end)."""
        steps, at = [], 0
        while True:
            f = self.feature[at]
            if f < 0:
                steps.append((at, None))
                return steps
            value = column_values[f]
            if self.sparse is not None and self.sparse.at_node[at]:
                nxt = int(self.sparse.child_of(np.array([at]), np.array([value]))[0])
                code = -1 if np.isnan(value) else int(value)
                steps.append((at, code if nxt >= 0 else None))
                if nxt < 0:
                    return steps
                at = nxt
                continue
            if self.categorical[at]:
                slot = UNSEEN if np.isnan(value) else int(value)
            else:
                slot = (
                    NUMERIC_MISSING
                    if np.isnan(value)
                    else (RIGHT if value > self.threshold[at] else LEFT)
                )
            nxt = self.child[self.offset[at] + slot] if 0 <= slot < self.n_slots[at] else -1
            steps.append((at, slot if nxt >= 0 else None))
            if nxt < 0:
                return steps
            at = int(nxt)


def in_shares(n_rows: int, threads: int, work) -> None:
    """``work(first, last)`` for ``threads`` contiguous shares of ``range(n_rows)`` (as equal as
    can be, at most one per row), the first in this thread and each other in a thread of its
    own; returns when all are done (raising the error of a share that failed).

    >>> done = []
    >>> in_shares(10, 3, lambda first, last: done.append((first, last)))
    >>> sorted(done)
    [(0, 3), (3, 6), (6, 10)]
    """
    threads = max(1, min(threads, n_rows))
    bounds = [n_rows * k // threads for k in range(threads + 1)]
    if threads == 1:
        work(0, n_rows)
        return
    with ThreadPoolExecutor(threads - 1) as pool:
        others = [pool.submit(work, *share) for share in zip(bounds[1:-1], bounds[2:])]
        work(bounds[0], bounds[1])
        for other in others:
            other.result()


def _codes_fit(column_start: np.ndarray) -> bool:
    """Whether a node's doubled position and its feature's start in the flat values fit in one
    int64 together (always, but for tables of about 2**40 values or more)."""
    return int(column_start.max(initial=0)).bit_length() + 2 * len(column_start).bit_length() < 62


def _numeric_tables(column_start, leaf, threshold, child, offset):
    """The tables of :func:`_route_numeric`: ``(shift, root, thresholds, children, order)``.

    The nodes are numbered again, level by level (``order[i]`` is the position of the i-th):
    the top levels, which every row visits, then sit together at the start of the tables and
    stay in the cache. The nodes below a missing-values branch, which no row reaches without a
    missing value, come last.
    A row's place is one integer, its *code*: the node's doubled number ``2 x i`` shifted
    left by ``shift`` bits, plus where the node's feature starts in the flat values. So the
    feature's start is ``code & mask`` and the doubled number ``code >> shift`` (two
    cheap operations instead of a gather from a table). ``thresholds`` is indexed by the
    doubled number (each value twice; NaN at a leaf, so no value is greater, its rows loop
    back through the left slot, and the NaN marks the rows that have arrived);
    ``children[2 x i + right]`` is the code of the child; ``root`` the root's code."""
    index = np.intp  # (np.take converts other index types first)
    left, right = child[offset + LEFT], child[offset + RIGHT]
    order = _breadth_first(left, right, leaf)
    if len(order) < len(leaf):  # subtrees only a missing value reaches (none here): numbered last
        unreached = np.ones(len(leaf), dtype=bool)
        unreached[order] = False
        order = np.concatenate([order, np.flatnonzero(unreached)])
    place = np.empty(len(order), dtype=index)
    place[order] = np.arange(len(order), dtype=index)
    shift = max(1, int(column_start.max(initial=0)).bit_length())
    code = (2 * place << shift) | column_start.astype(index)
    children = np.empty(2 * len(leaf), dtype=index)
    children[0::2], children[1::2] = code[left[order]], code[right[order]]
    thresholds = np.repeat(np.where(leaf, np.nan, threshold)[order], 2)
    return shift, code[0], thresholds, children, order


def _breadth_first(left, right, leaf) -> np.ndarray:
    """The node positions level by level (the root, its children, theirs...)."""
    levels, at = [], np.zeros(1, dtype=np.intp)
    while len(at):
        levels.append(at)
        at = at[~leaf[at]]
        at = np.stack([left[at], right[at]], axis=1).reshape(-1)
    return np.concatenate(levels)


def _route_numeric(first: int, last: int, row_step, flat, tables, stop, batch: int) -> None:
    """:meth:`CompiledTree.route` of the rows ``first`` to ``last - 1``, for numeric splits and no
    missing value.

    A batch of ``batch`` rows descends together; each step reads a row's code (see
    :func:`_numeric_tables`), the value of the node's feature, compares it with the node's
    threshold and takes the child's code: seven array operations writing into the same few
    buffers. Arrivals are looked for every other step (a row at a leaf stays there). When a
    quarter of the batch has arrived, those rows leave it and the next rows of the table take
    their places at the root, so the batch stays full until the last rows (no long tail of
    steps for a few deep rows).
    """
    shift, root, threshold, children, order = tables
    take = np.take  # "clip": every index is valid, and numpy then writes ``out`` unbuffered
    index = children.dtype.type
    mask = index((1 << shift) - 1)
    n = min(batch, last - first)
    rows = np.arange(first, first + n, dtype=index)
    code = np.full(n, root, dtype=index)
    row_start = rows * row_step  # where each row's values start in ``flat``
    next_row = first + n
    place, where, value, bound = (np.empty(n, dtype=index), np.empty(n, dtype=index),
                                  np.empty(n), np.empty(n))  # fmt: skip
    right, arrived = np.empty(n, dtype=bool), np.empty(n, dtype=bool)
    step = 0
    while True:
        m = len(rows)
        p, w, v, b, r = place[:m], where[:m], value[:m], bound[:m], right[:m]
        np.right_shift(code, shift, out=p)
        np.bitwise_and(code, mask, out=w)
        w += row_start
        take(flat, w, out=v, mode="clip")
        take(threshold, p, out=b, mode="clip")
        np.greater(v, b, out=r)
        p += r
        take(children, p, out=code, mode="clip")
        step += 1
        if step % 2 and m > 64:  # arrivals are looked for every other step
            continue
        done = np.isnan(b, out=arrived[:m])  # at a leaf before this step (and so after it)
        n_arrived = int(np.count_nonzero(done))
        if n_arrived == m and next_row == last:
            stop[rows] = take(order, code >> (shift + 1))
            return
        if 4 * n_arrived > m or n_arrived == m:  # positions, then gathers: cheaper than masks
            gone = np.flatnonzero(done)
            stop[take(rows, gone)] = take(order, take(code, gone) >> (shift + 1))
            kept = np.flatnonzero(np.logical_not(done, out=done))
            fresh = np.arange(next_row, min(next_row + n - len(kept), last), dtype=index)
            next_row += len(fresh)
            rows = np.concatenate([take(rows, kept), fresh])
            code = np.concatenate([take(code, kept), np.full(len(fresh), root, dtype=index)])
            row_start = rows * row_step


def training_rows_at(root: Node, data, target: Node) -> np.ndarray:
    """The training rows (of ``data``) that reached ``target`` in the tree under ``root``: the
    tests of its path, applied in turn."""
    parent = {child.node_id: (node, key) for node, key, child in root.iter_edges()}
    chain, at = [], target.node_id
    while at in parent:
        node, key = parent[at]
        chain.append((node, key))
        at = node.node_id
    keep = np.ones(len(data.y), dtype=bool)
    for node, key in reversed(chain):
        f = data.names.index(node.feature)
        if data.codes[f] is None:
            x = data.numeric[f]
            if key is None:
                keep &= np.isnan(x)
            else:
                keep &= (x <= node.threshold) if key == "<=" else (x > node.threshold)
        else:
            categories = data.categories[f]
            code = len(categories) if key is None else categories.index(key)
            keep &= data.codes[f] == code
    return np.flatnonzero(keep)
