"""The ``matrix`` search: the sorted layouts of a small level as the rows of one matrix.

Every sorted feature lists the level's nodes in the same order, so the layouts of several features
are the rows of a matrix, and each step of the search (running class counts, the entropy of both
sides of every cut, the best cut of every node) is one numpy operation for all of them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from id3tree.base.entropy import n_entropy_units, scaled_xlogx
from id3tree.engine.splits.near_best import margins, near_best_cuts
from id3tree.engine.splits.results import (
    NOT_A_CUT,
    RankedCuts,
    ThresholdSearch,
    class_counts,
    filled,
    looked_up_tolerance,
    threshold_search,
)

__all__ = ["search_layouts"]


def search_layouts(
    step_up: Any, y: Any, starts: Any, lengths: Any, n_present: Any, n_classes: Any, *, min_leaf: Any = 1, rank: Any = 0, counts: Any = None,
    has_missing: Any = None,
) -> ThresholdSearch:  # fmt: skip
    """:func:`search_cuts` of several layouts of the same segments, each a row of a matrix.

    Row j of ``step_up`` and ``y`` (``(c, m)``) holds every segment's entries sorted by
    feature j: segment s is ``starts[s] : starts[s] + lengths[s]`` of every row, and holds the
    same rows (so the same class counts, ``counts``, counted here when not given) in every
    layout; ``n_present`` (``(c, n_segments)``) counts the entries with a value (``has_missing``:
    whether any is missing, when the caller knows; found here when not given). Every step is
    then one operation on the whole matrix, whatever the number of layouts: the running class
    counts of every position (one cumulative sum per class but the first, whose count is the
    rows left over), the ``c log c`` sums of both sides, the lowest score of each (layout,
    segment) (``np.minimum.reduceat`` along the rows) and the first cut tied with it. The
    scores are the exact integers of :class:`Cuts` (the same table and units), so cuts, ties
    and the result are those of :func:`search_cuts` of the layouts laid end to end: segment
    ``j * n_segments + s``, positions ``j * m + i``.
    """
    c, m = y.shape
    n_seg = len(starts)
    if counts is None:  # the same in each layout
        segment = np.arange(n_seg).repeat(lengths)
        counts = class_counts(segment * n_classes + y[0], n_seg, n_classes)
    n_left = np.arange(1, m + 1) - starts.repeat(lengths)  # rows up to each position
    if has_missing is None:
        has_missing = bool((n_present < lengths).any())
    if has_missing:
        rows_present = n_present.repeat(lengths, axis=1)
        last = np.maximum(starts + n_present - 1, 0)  # the last present entry of each segment
    else:
        rows_present = lengths.repeat(lengths)
    n_right = rows_present - n_left  # (negative past the last present row: never valid)
    valid = step_up & (n_left < rows_present)
    valid_any = valid.copy() if rank and min_leaf > 1 else None  # (the trace's: any leaf)
    if min_leaf > 1:
        valid &= (n_left >= min_leaf) & (n_right >= min_leaf)
    # of each class, its rows up to each position within the segment, and its rows with a
    # value in each segment
    left = _running_class_counts(y, counts, starts, lengths, n_left)
    if has_missing:  # (class by class: the rows up to the last present entry)
        present = np.take_along_axis(left, last[None], axis=2).transpose(1, 2, 0).copy()
        present *= (n_present > 0)[:, :, None]
        in_segment = (present[:, :, k].repeat(lengths, axis=1) for k in range(n_classes))
    else:
        present = np.empty((c, n_seg, n_classes), dtype=np.int64)
        present[:] = counts
        in_segment = (counts[:, k].repeat(lengths) for k in range(n_classes))
    right = (rows - left_k for rows, left_k in zip(in_segment, left))  # right of each cut
    # n_left H(left) + n_right H(right) of every cut: n times its overall entropy, in the
    # units of the c log c table (exact integers)
    longest = int(np.maximum.reduce(lengths))
    q, _, unit = scaled_xlogx(longest, c * m)  # (the lengths sum to m)
    n_right = np.maximum(n_right, 0) if has_missing else n_right
    weighted = n_entropy_units(q, n_left, left)
    weighted += n_entropy_units(q, n_right, right)
    score = None
    if valid_any is not None:  # the trace's scores: every cut between two distinct values
        score = weighted.copy()
        score[~valid_any] = NOT_A_CUT
    np.putmask(weighted, ~valid, NOT_A_CUT)  # (faster than a masked assignment)
    # the best of each (layout, segment) and the first cut within the tolerance of it
    best = np.minimum.reduceat(weighted, starts, axis=1)
    found = best.ravel() < NOT_A_CUT
    owner = found.nonzero()[0]
    # tied: within the tolerance of the best, that is at most best + tolerance (a segment
    # without a cut has no valid position, whatever that sum wraps to)
    best += looked_up_tolerance(lengths, longest, unit)
    tied = weighted <= best.repeat(lengths, axis=1)
    tied &= valid
    n_ties = np.add.reduceat(tied, starts, axis=1).ravel()
    first = np.minimum.reduceat(np.where(tied, np.arange(m), m), starts, axis=1).ravel()
    at = first[owner]
    layout = owner // n_seg
    position = filled(c * n_seg, -1, np.int64)
    position[owner] = layout * m + at
    missing = counts - present if has_missing else None  # (None: no row is missing)
    ranked = None
    if rank:
        score = weighted if score is None else score
        valid_any = valid if valid_any is None else valid_any
        layout_starts = (np.arange(c)[:, None] * m + starts).ravel()
        layout_lengths = lengths[None].repeat(c, axis=0).ravel()  # (np.tile: slower)
        margin = margins(layout_lengths, unit, n_classes)
        best_at = np.arange(0, c * m, m).repeat(n_seg) + first  # (past its segment: none)
        seg, pos = near_best_cuts(
            score.ravel(), layout_starts, layout_lengths, rank, margin, best=best_at
        )
        ranked = RankedCuts(
            seg,
            pos,
            left.reshape(n_classes, c * m)[:, pos].T,  # (pos: layout * m + position)
            present.reshape(-1, n_classes),
            counts[None].repeat(c, axis=0).reshape(-1, n_classes),
            np.add.reduceat(valid_any, starts, axis=1).ravel(),
        )
    return threshold_search(
        owner,
        left[:, layout, at].T,
        present.reshape(-1, n_classes),
        None if missing is None else missing.reshape(-1, n_classes),
        n_ties,
        found=found,
        position=position,
        ranked=ranked,
    )


def _running_class_counts(
    y: Any, counts: Any, starts: Any, lengths: Any, n_left: Any
) -> np.ndarray:
    """``(classes, layouts, positions)``: of each class, its rows up to each position of each
    layout within the segment, from one cumulative sum per class but the first (class 0 has the
    rows left over). ``counts`` are the segments' class counts, ``n_left`` the rows up to each
    position."""
    n_classes, (c, m) = counts.shape[1], y.shape
    before = counts.cumsum(axis=0) - counts  # rows of each class before each segment
    left = np.empty((n_classes, c, m), dtype=np.int64)
    for k in range(1, n_classes):
        left_k = (y if n_classes == 2 else y == k).cumsum(axis=1, out=left[k])
        left_k -= before[:, k].repeat(lengths)
    np.subtract(n_left, left[1:].sum(axis=0) if n_classes > 2 else left[1], out=left[0])
    return left
