"""The learner's split search, fed with counts instead of rows.

:mod:`id3tree.splits` scores splits from rows: the rows of every node sorted by value, cumulative
class counts over them. On a cluster the rows never meet in one place; what arrives is, per node,
the class counts of every distinct value (or category, or bin). Cumulative counts over the
distinct values are the same numbers as cumulative counts over the rows at the cut points, so
the two functions here compute exactly what :func:`id3tree.splits.search_thresholds` and
:func:`id3tree.splits.score_categorical` compute, with the same entropy calls on the same integer
counts, and return the same result types. A property test draws random data and checks the two
versions agree.
"""

from __future__ import annotations

import numpy as np

from id3tree._entropy import entropy_of_counts, entropy_of_groups, entropy_rows
from id3tree.splits import TIE_TOLERANCE, CategoricalSearch, ThresholdSearch, midpoint


def search_counted_thresholds(
    segment, values, counts, missing, parent, *, min_leaf=1, thresholds=None
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
    lengths = parent.sum(axis=1)
    n_missing = missing.sum(axis=1)
    n_present = lengths - n_missing
    present_total = (parent - missing).T  # (classes, segments), as in splits._Prefix
    # cumulative counts within each segment: the left side of a cut after each distinct value
    cum = np.vstack([np.zeros((1, n_classes), np.int64), np.cumsum(counts, axis=0)])
    first = np.searchsorted(segment, np.arange(n_seg))
    last = np.searchsorted(segment, np.arange(n_seg), side="right")  # one past the last entry
    left_all = cum[1:] - cum[first[segment]]
    n_left_all = left_all.sum(axis=1)
    valid = np.arange(m) + 1 < last[segment]  # a next value exists in the segment
    if min_leaf > 1:
        valid &= (n_left_all >= min_leaf) & (n_present[segment] - n_left_all >= min_leaf)
    pos = np.flatnonzero(valid)

    missing_part = n_missing * entropy_rows(missing)
    parent_entropy = entropy_rows(parent)
    found = np.zeros(n_seg, dtype=bool)
    threshold = np.full(n_seg, np.nan)
    overall = np.full(n_seg, np.nan)
    n_left = np.zeros(n_seg, dtype=np.int64)
    n_ties = np.zeros(n_seg, dtype=np.int64)
    left_counts = np.zeros((n_seg, n_classes), dtype=np.int64)
    low, high = np.full(n_seg, np.nan), np.full(n_seg, np.nan)
    if len(pos):
        seg = segment[pos]
        nl = n_left_all[pos]
        nr = n_present[seg] - nl
        left = [left_all[pos, k] for k in range(n_classes)]
        right = [present_total[k, seg] - left[k] for k in range(n_classes)]
        h_left, h_right = entropy_of_counts(left, nl), entropy_of_counts(right, nr)
        weighted = nl * h_left + nr * h_right  # n * overall entropy, less the missing part
        first_candidate = np.flatnonzero(np.r_[True, seg[1:] != seg[:-1]])
        best = np.minimum.reduceat(weighted, first_candidate)
        owner = seg[first_candidate]
        tied = weighted <= best[np.searchsorted(owner, seg)] + TIE_TOLERANCE * lengths[seg]
        n_ties[owner] = np.add.reduceat(tied, first_candidate)
        winners = np.flatnonzero(tied)
        winners = winners[np.r_[True, seg[winners][1:] != seg[winners][:-1]]]  # smallest
        at = pos[winners]
        found[owner] = True
        if thresholds is None:
            low[owner], high[owner] = values[at], values[at + 1]
            threshold[owner] = midpoint(values[at], values[at + 1])
        else:
            threshold[owner] = np.asarray(thresholds)[at]
        n_left[owner] = nl[winners]
        left_counts[owner] = left_all[at]
        overall[owner] = (weighted[winners] + missing_part[owner]) / lengths[owner]
    n_right = np.where(found, n_present - n_left, 0)
    split_info = entropy_rows(np.stack([n_left, n_right, np.where(found, n_missing, 0)], axis=1))
    search = ThresholdSearch(
        found=found,
        threshold=threshold,
        overall_entropy=overall,
        gain=np.where(found, np.maximum(parent_entropy - overall, 0.0), np.nan),
        split_info=split_info,
        n_left=n_left,
        n_right=n_right,
        n_missing=np.where(found, n_missing, 0),
        n_ties=n_ties,
        low=low,
        high=high,
    )
    return search, left_counts


def score_counted_categorical(table, *, min_leaf=1) -> CategoricalSearch:
    """Gain of one branch per value at every segment, from a ``(segments, levels, classes)`` table.

    The counts-fed twin of :func:`id3tree.splits.score_categorical`: only the branches that occur
    are scored, in (segment, level) order.
    """
    table = np.asarray(table, dtype=np.int64)
    n_seg, n_levels, n_classes = table.shape
    flat = table.reshape(n_seg * n_levels, n_classes)
    occurring = np.flatnonzero(flat.sum(axis=1) > 0)
    branches = flat[occurring]
    owner = occurring // n_levels  # the segment of each branch
    sizes = branches.sum(axis=1)
    n = np.bincount(owner, weights=sizes, minlength=n_seg)
    parent = entropy_rows(table.sum(axis=1))
    with np.errstate(invalid="ignore", divide="ignore"):
        after = np.bincount(owner, weights=sizes * entropy_rows(branches), minlength=n_seg) / n
    n_branches = np.bincount(owner, minlength=n_seg)
    too_small = np.bincount(owner, weights=sizes < min_leaf, minlength=n_seg) > 0
    valid = (n_branches >= 2) & ~too_small
    return CategoricalSearch(
        valid=valid,
        gain=np.where(valid, np.maximum(parent - after, 0.0), np.nan),
        split_info=entropy_of_groups(sizes, owner, n_seg),
        n_branches=n_branches,
        overall_entropy=after,
    )


def distinct_value_counts(segment, values, y, n_classes):
    """Class counts of every distinct (segment, value) pair of present values, sorted.

    Returns ``(segment, values, counts)`` as :func:`search_counted_thresholds` takes them.
    """
    if not len(segment):
        return segment.astype(np.int64), values.astype(float), np.zeros((0, n_classes), np.int64)
    order = np.lexsort((values, segment))
    segment, values, y = segment[order], values[order], y[order]
    new = np.r_[True, (segment[1:] != segment[:-1]) | (values[1:] != values[:-1])]
    run = np.cumsum(new) - 1
    counts = np.bincount(run * n_classes + y, minlength=int(new.sum()) * n_classes)
    return segment[new], values[new], counts.reshape(-1, n_classes)


def merge_value_counts(a, b):
    """Two ``(segment, values, counts)`` summaries as one, re-aggregated and sorted."""
    segment = np.concatenate([a[0], b[0]])
    values = np.concatenate([a[1], b[1]])
    counts = np.concatenate([a[2], b[2]])
    if not len(segment):
        return segment, values, counts
    order = np.lexsort((values, segment))
    segment, values, counts = segment[order], values[order], counts[order]
    new = np.r_[True, (segment[1:] != segment[:-1]) | (values[1:] != values[:-1])]
    starts = np.flatnonzero(new)
    return segment[new], values[new], np.add.reduceat(counts, starts, axis=0)
