"""The learner's split search, fed with counts instead of rows.

:mod:`id3tree.engine.splits` scores splits from rows: the rows of every node sorted by value, running
sums over them. On a cluster the rows never meet in one place; what arrives is, per node, the
class counts of every distinct value (or category, or bin). Cumulative counts over the distinct
values are the same numbers as the running counts over the rows at the cut points, so only the
bookkeeping is written here: the scoring is :mod:`id3tree.engine.splits`' own (the integer ``c log c``
score of a cut, :func:`~id3tree.engine.splits.best_cuts` for the tie rule,
:func:`~id3tree.engine.splits.threshold_search` and :func:`~id3tree.engine.splits.branch_search` for the
results), so both searches return the same result types with the same numbers. A property test
draws random data and checks the two versions agree field by field.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from id3tree.base.entropy import scaled_xlogx
from id3tree.engine.splits import (
    NOT_A_CUT,
    CategoricalSearch,
    ThresholdSearch,
    best_cuts,
    branch_search,
    midpoint,
    scaled_cut_scores,
    threshold_search,
    tie_tolerance,
)

__all__ = [
    "DENSE_CELLS_PER_ROW", "dense_value_counts", "distinct_value_counts", "merge_all_value_counts",
    "merge_value_counts", "score_counted_categorical", "search_counted_thresholds",
    "sorted_value_counts",
]  # fmt: skip


def search_counted_thresholds(
    segment: Any,
    values: Any,
    counts: Any,
    missing: Any,
    parent: Any,
    *,
    min_leaf: Any = 1,
    thresholds: Any = None,
) -> tuple[ThresholdSearch, np.ndarray]:
    """Best threshold of every segment (node) from the class counts of its distinct values.

    Parameters
    ----------
    segment, values : arrays of shape (m,)
        The segment of each distinct value and the value, sorted by segment then value (no NaN).
    counts : array of shape (m, n_classes)
        Rows of each class with that value in that segment.
    missing, parent : arrays of shape (n_segments, n_classes)
        Class counts of the rows with a missing value, and of all rows, of each segment.
    min_leaf : int
        Both sides of a cut need at least this many rows.
    thresholds : array of shape (m,), optional
        The threshold of a cut after each entry; default the midpoint with the next value.

    Returns
    -------
    (ThresholdSearch, left) with ``left`` the class counts left of each segment's best cut.
    """
    segment = np.asarray(segment, dtype=np.int64)
    missing = np.asarray(missing, dtype=np.int64)
    parent = np.asarray(parent, dtype=np.int64)
    n_seg, n_classes = parent.shape
    counts = np.asarray(counts, dtype=np.int64).reshape(len(segment), n_classes)
    m = len(segment)
    present = parent - missing
    n_present = present.sum(axis=1)
    # the left side of a cut after each distinct value: cumulative counts within its segment
    cum = np.vstack([np.zeros((1, n_classes), np.int64), np.cumsum(counts, axis=0)])
    first = np.searchsorted(segment, np.arange(n_seg))
    last = np.searchsorted(segment, np.arange(n_seg), side="right")  # one past the last entry
    left_all = cum[1:] - cum[first[segment]]
    n_left_all = left_all.sum(axis=1)
    valid = np.arange(m) + 1 < last[segment]  # a next value exists in the segment
    if min_leaf > 1:
        valid &= (n_left_all >= min_leaf) & (n_present[segment] - n_left_all >= min_leaf)
    # every cut scored as the row search scores it: integer c log c sums, the same tie rule
    lengths = parent.sum(axis=1)
    q, _, unit = scaled_xlogx(int(lengths.max(initial=1)), int(lengths.sum()))
    weighted = np.full(m, NOT_A_CUT, dtype=np.int64)
    weighted[valid] = scaled_cut_scores(
        left_all[valid], present[segment[valid]] - left_all[valid], q
    )
    groups = np.flatnonzero(last > first)  # the segments with a present value
    owner, at, ties = best_cuts(
        weighted, first[groups], (last - first)[groups], tie_tolerance(lengths[groups], unit)
    )
    owner = groups[owner]
    n_ties = np.zeros(n_seg, dtype=np.int64)
    n_ties[groups] = ties
    search = threshold_search(owner, left_all[at], present, missing, n_ties)
    threshold, low, high = (np.full(n_seg, np.nan) for _ in range(3))
    if thresholds is None:
        low[owner], high[owner] = values[at], values[at + 1]
        threshold[owner] = midpoint(values[at], values[at + 1])
        search = dataclasses.replace(search, threshold=threshold, low=low, high=high)
    else:
        threshold[owner] = np.asarray(thresholds)[at]
        search = dataclasses.replace(search, threshold=threshold)
    return search, search.side_counts[:, 0]  # type: ignore[index]  # (kept by the search)


def score_counted_categorical(table: Any, *, min_leaf: Any = 1) -> CategoricalSearch:
    """Gain of one branch per value at every segment, from a ``(segments, levels, classes)`` table.

    The counts-fed twin of :func:`id3tree.engine.splits.score_categorical`: only the branches that occur
    are scored, in (segment, level) order, by the same :func:`~id3tree.engine.splits.branch_search`.
    """
    table = np.asarray(table, dtype=np.int64)
    n_seg, n_levels, n_classes = table.shape
    flat = table.reshape(n_seg * n_levels, n_classes)
    occurring = np.flatnonzero(flat.sum(axis=1) > 0)
    branches = flat[occurring]
    return branch_search(
        branches, occurring // n_levels, table.sum(axis=1), small=branches.sum(axis=1) < min_leaf
    )


DENSE_CELLS_PER_ROW = 4
""":func:`distinct_value_counts` counts into a dense (segment, distinct value, class) table when it
has at most this many cells per row (plus a few thousand): one quicksort of the values and a
``bincount``, instead of a stable sort by two keys."""


def distinct_value_counts(
    segment: Any, values: Any, y: Any, n_classes: Any, coded: Any = None
) -> Any:
    """Class counts of every distinct (segment, value) pair of present values, sorted.

    Returns ``(segment, values, counts)`` as :func:`search_counted_thresholds` takes them. A
    dense table is counted when it is small (:func:`dense_value_counts`), else the pairs are
    sorted (:func:`sorted_value_counts`); both give the same arrays. ``coded``: the values
    already coded, ``(sorted distinct values, each value's index among them)`` (the distinct
    values may be more than these rows have).
    """
    if not len(segment):
        return segment.astype(np.int64), values.astype(float), np.zeros((0, n_classes), np.int64)
    distinct, code = coded if coded is not None else np.unique(values, return_inverse=True)
    n_segments = int(segment.max()) + 1
    if n_segments * len(distinct) * n_classes <= DENSE_CELLS_PER_ROW * len(values) + 4096:
        return dense_value_counts(segment, values, y, n_classes, (distinct, code), n_segments)
    return sorted_value_counts(segment, values, y, n_classes)


def sorted_value_counts(segment: Any, values: Any, y: Any, n_classes: Any) -> Any:
    """:func:`distinct_value_counts` by sorting the pairs (by segment, then value, stably)."""
    order = np.lexsort((values, segment))
    segment, values, y = segment[order], values[order], y[order]
    new = np.r_[True, (segment[1:] != segment[:-1]) | (values[1:] != values[:-1])]
    run = np.cumsum(new) - 1
    counts = np.bincount(run * n_classes + y, minlength=int(new.sum()) * n_classes)
    return segment[new], values[new], counts.reshape(-1, n_classes)


def dense_value_counts(
    segment: Any, values: Any, y: Any, n_classes: Any, coded: Any, n_segments: Any
) -> Any:
    """:func:`distinct_value_counts` through a dense (segment, value, class) table; ``coded``
    the sorted distinct values and each value's index among them. A zero keeps the sign of its segment's first zero row, as the
    stable sort of :func:`sorted_value_counts` keeps it (-0.0 equals 0.0)."""
    distinct, code = coded
    n_values = len(distinct)
    cells = (segment * n_values + code) * n_classes + y
    table = np.bincount(cells, minlength=n_segments * n_values * n_classes)
    table = table.reshape(-1, n_classes)
    occurring = np.flatnonzero(table.any(axis=1))
    seg_of, code_of = np.divmod(occurring, n_values)
    found = distinct[code_of]
    zero = np.flatnonzero(values == 0)
    if len(zero):
        first = np.full(n_segments, -1, dtype=np.int64)
        first[segment[zero][::-1]] = zero[::-1]  # (the last write wins: the first zero row)
        at_zero = found == 0
        found[at_zero] = values[first[seg_of[at_zero]]]
    return seg_of.astype(np.int64), found, table[occurring]


def merge_value_counts(a: Any, b: Any) -> Any:
    """Two ``(segment, values, counts)`` summaries as one, re-aggregated and sorted (the plain
    twin of :func:`merge_all_value_counts`, which merges a list at once)."""
    segment = np.concatenate([a[0], b[0]])
    values = np.concatenate([a[1], b[1]])
    counts = np.concatenate([a[2], b[2]])
    return _regroup(segment, values, counts)


def merge_all_value_counts(summaries: list) -> Any:
    """Any number of ``(segment, values, counts)`` summaries as one, re-aggregated and sorted:
    one concatenation and one stable sort, where merging them two by two
    (:func:`merge_value_counts`) sorts the growing summary again for each one. A zero keeps the
    sign of the first summary that holds it in its segment, as the pairwise merges keep it."""
    segment = np.concatenate([s[0] for s in summaries])
    values = np.concatenate([s[1] for s in summaries])
    counts = np.concatenate([s[2] for s in summaries])
    return _regroup(segment, values, counts)


def _regroup(segment: Any, values: Any, counts: Any) -> Any:
    """Concatenated summaries sorted stably by (segment, value), each pair's counts added."""
    if not len(segment):
        return segment, values, counts
    order = np.lexsort((values, segment))
    segment, values, counts = segment[order], values[order], counts[order]
    new = np.r_[True, (segment[1:] != segment[:-1]) | (values[1:] != values[:-1])]
    starts = np.flatnonzero(new)
    return segment[new], values[new], np.add.reduceat(counts, starts, axis=0)
