"""Joint entropies of every pair of columns of integer codes: the engine of the MI matrix.

The plain way (encode once, then one ``np.bincount`` of ``a * n_b + b`` per pair) touches every
row once per pair. This engine gets the same counts with less work, in three steps:

1. **Groups.** Columns are sorted by their number of codes, and neighbours whose joint codes have
   at most ``GROUP_CELLS`` values are merged into one "group code" (mixed radix). A single count
   of (group code, b) gives the tables of *every* member with b after summing out the other
   members, so a group of three binary columns costs one pass over the rows instead of three.
2. **Blocks.** The later columns are taken a block at a time: ``group * L + offset_b + b`` for
   all b of the block in one array (``L`` = the block's codes), counted into one table with
   ``np.add.at`` (no minimum/maximum pass, no new table per chunk of rows). The array is laid out
   column after column, and blocks are kept narrow (``BLOCK_CODES``) so the table stays in cache.
3. **Entropies.** ``H(a, b)`` of every table at once from the sums of ``c ln c`` of its cells,
   ``ln n - S / n`` (:func:`id3tree.base.entropy.xlogx`, the package's one formula written for
   counts): all tables of a matrix share the total ``n``.

Groups are independent, so they run on a thread pool; numpy releases the GIL in the counting
loop and the arithmetic. Tables too large to hold densely (two columns with 100,000 codes each)
are counted sparsely with ``np.unique``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor
from typing import Any

import numpy as np

from id3tree.base.entropy import entropy_from_xlogx, xlogx

GROUP_CELLS = 2048  # most joint codes a group may have
BLOCK_COLUMNS = 16  # most columns in a block
BLOCK_CODES = 256  # most codes in a block; a column with more is a block of its own
DENSE_CELLS = 1 << 22  # larger tables are counted with np.unique instead of np.bincount
CHUNK_ROWS = 1 << 16  # rows per bincount, so the work buffer stays small on tall tables


def pair_entropies(
    codes: Sequence[np.ndarray], n_codes: Sequence[int], *, base: float = 2,
    pool: Executor | None = None, on_done: Callable[[int], None] | None = None,
) -> np.ndarray:  # fmt: skip
    """An ``(m, m)`` array: ``H(a, b)`` off the diagonal and ``H(a)`` on it.

    ``codes[a]`` holds the integer codes ``0 .. n_codes[a] - 1`` of column a (all of one length).
    Groups run on ``pool`` if one is given. ``on_done(k)`` is called after every group with the
    number of pairs it finished.
    """
    m, n_rows = len(codes), len(codes[0])
    order = np.argsort(np.asarray(n_codes), kind="stable")
    plan = _Plan([codes[a] for a in order], [int(n_codes[a]) for a in order], base)
    found = np.zeros((m, m))

    def task(group: list[int]) -> None:
        plan.run_group(group, found, n_rows)
        if on_done is not None:
            done = len(group) * (len(group) - 1) // 2 + len(group) * (m - 1 - group[-1])
            on_done(done)

    if pool is not None:
        list(pool.map(task, plan.groups))  # list() re-raises a worker's exception
    else:
        for group in plan.groups:
            task(group)
    found = np.triu(found) + np.triu(found, 1).T
    back = np.empty(m, dtype=np.intp)
    back[order] = np.arange(m)
    return found[np.ix_(back, back)]


class _Plan:
    """Columns in sorted order, cut into groups (rows of the work) and blocks (its columns)."""

    def __init__(self, codes: list[np.ndarray], n_codes: list[int], base: float) -> None:
        self.codes, self.n_codes, self.base = codes, n_codes, base
        self.groups = _cut(n_codes, lambda cells, n: cells * n <= GROUP_CELLS, np.prod)
        self.blocks = [
            _Block(members, codes, n_codes)
            for members in _cut(
                n_codes,
                lambda total, n: n <= BLOCK_CODES and total + n <= BLOCK_CODES,
                np.sum,
                BLOCK_COLUMNS,
            )
        ]

    def run_group(self, group: list[int], found: np.ndarray, n_rows: int) -> None:
        sizes = [self.n_codes[a] for a in group]
        joint = self.joint_codes(group, n_rows)
        cells = int(np.prod(sizes))
        # Pairs inside the group, and each member's own entropy, from the group's joint table.
        table = _count(joint, cells).reshape(sizes)
        for i, a in enumerate(group):
            found[a, a] = self._entropy(xlogx(_keep(table, [i])).sum(), n_rows)
            for j in range(i + 1, len(group)):
                pair = xlogx(_keep(table, [i, j])).sum()
                found[a, group[j]] = self._entropy(pair, n_rows)
        # Pairs with every later column, a block at a time: for each member, the sums of
        # c ln c of its tables with the later columns, one entry per code of those columns.
        work = np.empty((BLOCK_COLUMNS + 1) * min(n_rows, CHUNK_ROWS), dtype=np.int64)
        sums: list[list[np.ndarray]] = [[] for _ in group]
        partners: list[int] = []
        widths: list[int] = []
        for block, first in self.blocks_after(group):
            if cells * block.width <= DENSE_CELLS:
                for i, piece in enumerate(self._dense(sizes, joint, block, first, work)):
                    sums[i].append(xlogx(piece).sum(axis=0))
                partners.extend(block.members[first:])
                widths.extend(self.n_codes[b] for b in block.members[first:])
            else:
                for a in group:
                    for b in block.members[first:]:
                        found[a, b] = self._one_pair(a, b, n_rows)
        if partners:
            starts = np.cumsum([0] + widths[:-1])
            for a, member_sums in zip(group, sums):
                per_pair = np.add.reduceat(np.concatenate(member_sums), starts)
                found[a, partners] = self._entropy(per_pair, n_rows)

    def blocks_after(self, group: list[int]) -> Iterator[Any]:
        """Each block with columns after the group, and where in it they start."""
        after = group[-1] + 1
        for block in self.blocks:
            if block.members[-1] >= after:
                yield block, max(0, after - block.members[0])

    def pair_codes(self, a: int, b: int) -> np.ndarray:
        """The codes of the pair (a, b), one per row: ``a * n_b + b``."""
        return self.codes[a].astype(np.int64) * self.n_codes[b] + self.codes[b]

    def joint_codes(self, group: list[int], n_rows: int, out: Any = None) -> np.ndarray:
        """The group's codes as one (mixed radix: the first member the most significant digit),
        in ``out`` if given (an int64 buffer of ``n_rows``)."""
        if out is None:
            joint = np.zeros(n_rows, dtype=np.int64)
        else:
            joint = out
            joint.fill(0)
        for a in group:
            joint *= self.n_codes[a]
            joint += self.codes[a]
        return joint

    def _entropy(self, sum_xlogx: Any, n_rows: int) -> Any:
        return entropy_from_xlogx(sum_xlogx, n_rows, self.base)

    def _dense(
        self, sizes: Any, joint: Any, block: Any, first: Any, work: Any, table: Any = None
    ) -> list[np.ndarray]:
        """Each member's tables with columns ``block.members[first:]``, side by side.

        One table for all of them: the cell of (group code, column b) is
        ``group * width + start_b + b``. Rows are counted a chunk at a time into it, each chunk
        laid out column after column. ``table``: an int64 buffer to count in (large enough; the
        tables returned may be views of it), else a new one.
        """
        k, n_rows = len(block.members) - first, len(joint)
        cells = int(np.prod(sizes)) * block.width
        if table is None:
            table = np.zeros(cells, dtype=np.int64)
        else:
            table = table[:cells]
            table.fill(0)
        for lo in range(0, n_rows, CHUNK_ROWS):
            hi = min(lo + CHUNK_ROWS, n_rows)
            rows = work[: (k + 1) * (hi - lo)].reshape(k + 1, hi - lo)
            np.multiply(joint[lo:hi], block.width, out=rows[-1])
            np.add(rows[-1], block.shifted[first:, lo:hi], out=rows[:k])
            np.add.at(table, rows[:k].reshape(-1), 1)  # no temporary table per chunk
        table = table.reshape([*sizes, block.width])
        start = block.starts[first]
        return [_keep(table, [i, len(sizes)])[:, start:] for i in range(len(sizes))]

    def _one_pair(self, a: int, b: int, n_rows: int) -> float:
        flat, cells = self.pair_codes(a, b), self.n_codes[a] * self.n_codes[b]
        if cells <= DENSE_CELLS:
            counts = _count(flat, cells)
        else:
            counts = np.unique(flat, return_counts=True)[1]
        return float(self._entropy(xlogx(counts).sum(), n_rows))


class _Block:
    """A few consecutive columns whose codes are shifted to sit side by side: 0 .. width - 1."""

    def __init__(self, members: list[int], codes: list[np.ndarray], n_codes: list[int]) -> None:
        self.members = members
        self.starts = np.cumsum([0] + [n_codes[b] for b in members[:-1]])
        self.width = int(sum(n_codes[b] for b in members))
        dtype = np.min_scalar_type(self.width - 1)
        self.shifted = np.empty((len(members), len(codes[members[0]])), dtype=dtype)
        for row, (b, start) in enumerate(zip(members, self.starts)):
            np.add(codes[b], start, out=self.shifted[row], dtype=dtype, casting="unsafe")


def _cut(n_codes: list[int], fits: Any, combine: Any, most: int | None = None) -> list[list[int]]:
    """Consecutive runs of columns: a column joins the current run while ``fits(run, n)``."""
    runs: list[list[int]] = []
    for a, n in enumerate(n_codes):
        if runs and (most is None or len(runs[-1]) < most):
            sofar = int(combine([n_codes[b] for b in runs[-1]]))
            if fits(sofar, n):
                runs[-1].append(a)
                continue
        runs.append([a])
    return runs


def _count(flat: np.ndarray, cells: int) -> np.ndarray:
    return np.bincount(flat, minlength=cells)


def _keep(table: np.ndarray, axes: list[int]) -> np.ndarray:
    """The table summed over every axis not in ``axes`` (a marginal table)."""
    others = tuple(k for k in range(table.ndim) if k not in axes)
    return table.sum(axis=others) if others else table


def pair_tables(
    codes: Sequence[np.ndarray], n_codes: Sequence[int]
) -> tuple[np.ndarray, list[Any]]:
    """The counts behind :func:`pair_entropies`, for callers that add up the tables of many
    row sets before taking entropies (the partitions of a Dask DataFrame).

    Returns ``(order, tables)``: the columns sorted by their number of codes (as
    :func:`pair_entropies` sorts them) and, per column in that order, ``(own, later)``: its own
    counts and its tables with every later column of the order side by side, an
    ``(n_codes[a], sum of the later columns' n_codes)`` array. Counted by the same groups and
    blocks as the entropies; a block too large to count densely is counted a pair at a time.
    """
    n_rows = len(codes[0])
    order = np.argsort(np.asarray(n_codes), kind="stable")
    plan = _Plan([codes[a] for a in order], [int(n_codes[a]) for a in order], 2)
    # Buffers made once for every group and block: where a large array is a fresh mmap whose
    # pages fault in (a Dask worker's MALLOC_TRIM_THRESHOLD_), a new one per block costs more
    # than its counting.
    work = np.empty((BLOCK_COLUMNS + 1) * min(n_rows, CHUNK_ROWS), dtype=np.int64)
    joint = np.empty(n_rows, dtype=np.int64)
    table = np.empty(max(_dense_cells(plan)), dtype=np.int64)
    tables = []
    for group in plan.groups:
        sizes = [plan.n_codes[a] for a in group]
        plan.joint_codes(group, n_rows, out=joint)
        own = _count(joint, int(np.prod(sizes))).reshape(sizes)
        later = [[_keep(own, [i, j]) for j in range(i + 1, len(group))] for i in range(len(group))]
        for block, first in plan.blocks_after(group):
            if np.prod(sizes) * block.width <= DENSE_CELLS:
                pieces = [p.copy() for p in plan._dense(sizes, joint, block, first, work, table)]
            else:
                pieces = [_pair_counts(plan, a, block.members[first:]) for a in group]
            for member, piece in zip(later, pieces):
                member.append(piece)
        for i, member in enumerate(later):
            side_by_side = np.concatenate(member, axis=1) if member else np.zeros((sizes[i], 0))
            tables.append((_keep(own, [i]), side_by_side.astype(np.int64, copy=False)))
    return order, tables


def _dense_cells(plan: _Plan) -> list[int]:
    """The cells of every table :func:`pair_tables` counts densely (at least one entry)."""
    found = [0]
    for group in plan.groups:
        cells = int(np.prod([plan.n_codes[a] for a in group]))
        found += [
            cells * block.width
            for block, _ in plan.blocks_after(group)
            if cells * block.width <= DENSE_CELLS
        ]
    return found


def _pair_counts(plan: _Plan, a: int, partners: list[int]) -> np.ndarray:
    """Column a's tables with each of ``partners`` side by side, one ``bincount`` per pair."""
    found = []
    for b in partners:
        n_a, n_b = plan.n_codes[a], plan.n_codes[b]
        found.append(_count(plan.pair_codes(a, b), n_a * n_b).reshape(n_a, n_b))
    return np.concatenate(found, axis=1)
