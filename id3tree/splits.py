"""Split search: where to cut a numeric feature, and what a categorical split is worth.

Numeric features are cut in two at a midpoint between adjacent distinct values, choosing the
midpoint of lowest *overall entropy* (the sample-weighted entropy of the sides). Two versions live
here and a property test proves them equal:

* :func:`plain_candidate_splits` scores every midpoint from scratch, one at a time. Read it first.
* :func:`search_thresholds` does the same for many nodes ("segments") at once: the rows of each
  node are sorted by value, and running sums of a table of ``c log c`` score every midpoint of
  every segment in one pass, whatever the number of classes (see :class:`_Cuts`). The learner
  uses its core, :func:`search_cuts`, on rows it keeps sorted.
* :func:`search_counted` is the same search for a feature with few distinct values: instead of
  sorting rows it counts them by (segment, value, class), and the same running sums run over
  those counts, one entry per value and class present instead of one per row.

With a weight per row (``fit(sample_weight=)``), :func:`search_weighted_cuts` is the float twin
of :func:`search_cuts`: counts are sums of weights, scored by Shannon's formula class by class.

Missing values (NaN) sit at the end of each segment. They form a third branch of their own: they
count in the overall entropy and the gain, but never decide where the threshold goes.

Ties: thresholds whose overall entropy is within ``TIE_TOLERANCE`` bits of the best are tied,
and the smallest threshold wins.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from id3tree._entropy import (
    DENSE_CLASSES,
    XLOGX_KEPT_ENTRIES,
    entropy_of_counts,
    entropy_of_groups,
    entropy_rows,
    entropy_terms,
    scaled_xlogx,
)

TIE_TOLERANCE = 1e-10
"""Two scores (in bits) closer than this are a tie."""


def midpoint(low: np.ndarray, high: np.ndarray) -> np.ndarray:
    """The threshold between two adjacent values: their midpoint, never equal to ``high``.

    When two floats are so close that their midpoint rounds to the larger one, the smaller one is
    used instead, so ``x <= threshold`` still separates them.
    """
    mid = low / 2.0 + high / 2.0  # no overflow near the largest floats
    return np.where(mid >= high, low, mid)


# ---------------------------------------------------------------------------------------------
# The plain version: every midpoint, scored from scratch
# ---------------------------------------------------------------------------------------------
def plain_candidate_splits(x, y) -> list[dict]:
    """Every candidate threshold of a numeric ``x`` against integer class codes ``y``, slowly.

    For each midpoint t between adjacent distinct non-missing values: count the classes with
    x <= t and x > t, take the entropy of each side, and weight them by their sizes. Rows with a
    missing x form a third side. ``gain`` is the parent's entropy minus that overall entropy.
    """
    x = np.asarray(x, dtype=float)
    y = np.asarray(y)
    classes = np.unique(y)
    n = len(y)

    def counts(mask):
        return np.array([(y[mask] == c).sum() for c in classes])

    missing = np.isnan(x)
    parent_entropy = float(entropy_rows(counts(np.ones(n, bool)))[()])
    missing_part = missing.sum() * float(entropy_rows(counts(missing))[()])
    values = np.unique(x[~missing])
    rows = []
    for low, high in zip(values[:-1], values[1:]):
        threshold = float(midpoint(np.float64(low), np.float64(high)))
        left, right = ~missing & (x <= threshold), ~missing & (x > threshold)
        entropy_left = float(entropy_rows(counts(left))[()])
        entropy_right = float(entropy_rows(counts(right))[()])
        overall = (left.sum() * entropy_left + right.sum() * entropy_right + missing_part) / n
        rows.append(
            dict(
                threshold=threshold,
                n_left=int(left.sum()),
                n_right=int(right.sum()),
                entropy_left=entropy_left,
                entropy_right=entropy_right,
                overall_entropy=overall,
                gain=parent_entropy - overall,
            )
        )
    return rows


# ---------------------------------------------------------------------------------------------
# The fast version: many segments at once
# ---------------------------------------------------------------------------------------------
class _Cuts:
    """Every cut point of many segments sorted by value, scored together in O(entries).

    A cut after position i puts the entries ``start .. i`` of its segment on the left. With ``q``
    the integer table of ``c log c`` (:func:`~id3tree._entropy.scaled_xlogx`), the size-weighted
    entropy of the two sides is ``q[n_left] + q[n_right] - sum_k q[left_k] - sum_k q[right_k]``.
    Moving one entry of class k from the right side to the left changes only ``left_k`` and
    ``right_k``, so the two sums over classes are running sums of one table step per entry: one
    cumulative sum scores every cut of every segment, whatever the number of classes. The sums
    are integers, so two cuts with the same class counts score exactly alike.

    An entry is one row, or with ``count`` a run of ``count[i]`` rows of one class and one value
    (the counted search of :func:`search_cuts`): its step is then ``q[c + count] - q[c]`` instead
    of ``q[c + 1] - q[c]``, and sizes are sums of counts. Parameters are those of
    :func:`search_cuts`.

    The entries may also be one *part* of a longer segment (rows only, one segment: how
    :func:`search_cuts` searches a segment too long to score at once): ``before`` holds the
    class counts of the segment's rows that precede the part, ``present`` the class counts of
    the whole segment's rows with a value, ``n_present`` counts them, and ``scale`` gives the
    ``(n_max, n_terms)`` of the whole search's table (:func:`~id3tree._entropy.scaled_xlogx`),
    so that every part is scored in the same units. Scores and sizes are then those of the whole
    segment; ``parent`` still counts the part's own rows.
    """

    def __init__(
        self, step_up, y, starts, lengths, n_present, n_classes, count=None, *,
        before=None, present=None, scale=None,
    ):  # fmt: skip
        m, n_seg = len(y), len(starts)
        index = np.int32 if m < 2**31 else np.int64
        self.starts, self.lengths, self.n_present = starts, lengths, n_present
        self.n_classes, self.count = n_classes, count
        self.before = before
        self.segment = np.arange(n_seg, dtype=index).repeat(lengths)
        # offset in the segment: a part's rows come after the segment's rows before it
        first = starts if before is None else starts - before.sum(axis=1)
        self.offset = np.arange(m, dtype=index) - first.astype(index).repeat(lengths)
        self.step_up = step_up
        self.y = y
        self.cell = self.segment * n_classes + y  # (segment, class) of each entry
        self.parent = self._class_counts(None)
        self.has_missing = bool((n_present < lengths).any())
        if present is not None:  # a part: the whole segment's counts are given
            self.present = present
        elif self.has_missing:
            self.present = self._class_counts(self.offset < n_present[self.segment])
        else:
            self.present = self.parent
        self.missing = self.parent - self.present
        if count is None:  # sizes in rows: one row an entry
            self.rows, self.rows_present, self.rows_before = lengths, n_present, None
        else:
            self.rows, self.rows_present = self.parent.sum(axis=1), self.present.sum(axis=1)
            self.rows_before = _cumsum0(count)  # rows of all entries before each position
        if scale is None:
            scale = (int(self.rows.max(initial=1)), int(self.rows.sum()))
        self.q, steps, self.unit = scaled_xlogx(*scale)
        # how many rows of its own class come before each entry in its segment (its rank)
        rank = _rank_in_segment_and_class(
            y, self.segment, self.offset, starts, self.parent, count, before
        )
        above = self.present.ravel()[self.cell] - rank - (1 if count is None else count)
        np.maximum(above, 0, out=above)  # rows of its class after it (missing rows: never read)
        if count is None:
            left_step, right_step = steps[rank], steps[above]
        else:
            left_step = self.q[rank + count] - self.q[rank]
            right_step = self.q[above + count] - self.q[above]
        del rank, above
        # one running sum of both: how much sum_k q[right_k] fell less how much sum_k q[left_k]
        # rose, so that a cut's score is q[n_left] + q[n_right] - start_total + (the sum's rise
        # since its segment's start), start_total being sum_k q[left_k] + sum_k q[right_k] at
        # the part's start (for a whole segment: 0 and all of it)
        right_step -= left_step
        del left_step
        self.net = _cumsum0(right_step)
        del right_step
        remaining = self.present if before is None else self.present - before
        self.start_total = self.q[remaining].sum(axis=1)
        if before is not None:
            self.start_total += self.q[before].sum(axis=1)

    def _class_counts(self, where) -> np.ndarray:
        """Rows of each class in each segment, of the entries ``where`` selects (None: all)."""
        cell, count = self.cell, self.count
        if where is not None:
            cell, count = cell[where], (None if count is None else count[where])
        counts = class_counts(cell, len(self.starts), self.n_classes, count)
        return counts if count is None else counts.astype(np.int64)

    def n_left(self, pos=None) -> np.ndarray:
        """Rows left of the cut after each position (``pos``; None: every position)."""
        if self.count is None:
            return self.offset + 1 if pos is None else self.offset[pos] + 1
        if pos is None:
            return self.rows_before[1:] - np.repeat(self.rows_before[self.starts], self.lengths)
        return self.rows_before[pos + 1] - self.rows_before[self.starts[self.segment[pos]]]

    def valid(self, min_leaf: int = 1) -> np.ndarray:
        """Whether a cut may go after each position: between two distinct values present in one
        segment, leaving at least ``min_leaf`` rows on each side."""
        n_present = self.n_present.repeat(self.lengths)
        valid = self.step_up & (self.offset < n_present - 1)
        if min_leaf > 1:
            n_left = self.n_left()
            n_right = self.rows_present.repeat(self.lengths) - n_left
            valid &= (n_left >= min_leaf) & (n_right >= min_leaf)
        return valid

    def candidates(self, min_leaf: int = 1) -> np.ndarray:
        """Positions i where a cut may go (see :meth:`valid`)."""
        return np.flatnonzero(self.valid(min_leaf))

    def score_all(self, valid) -> np.ndarray:
        """``n H`` (table units) of the cut after every position; the largest int64 where not valid.

        The same sums as :meth:`score`, for every position at once: no gathers by position."""
        lengths, q = self.lengths, self.q
        n_left = self.n_left()
        n_right = self.rows_present.repeat(lengths) - n_left
        np.maximum(n_right, 0, out=n_right)  # (past the last present row: never valid)
        weighted = q[n_left]
        del n_left
        weighted += q[n_right]
        del n_right
        weighted += self.net[1:]
        weighted -= (self.start_total + self.net[self.starts]).repeat(lengths)
        weighted[~valid] = _NOT_A_CUT
        return weighted

    def score(self, pos):
        """Segment, sizes of both sides and ``n H`` of the cut after each position (table units)."""
        seg = self.segment[pos]
        start = self.starts[seg]
        n_left = self.n_left(pos)
        n_right = self.rows_present[seg] - n_left
        rise = self.net[pos + 1] - self.net[start]
        q = self.q
        return seg, n_left, n_right, q[n_left] + q[n_right] - self.start_total[seg] + rise

    def left_counts(self, seg, pos) -> np.ndarray:
        """Exact class counts left of the cut after ``pos[i]`` in segment ``seg[i]`` (rows: seg)."""
        last = np.full(len(self.starts), -1, dtype=np.int64)
        last[seg] = pos - self.starts[seg] + self.offset[self.starts[seg]]
        left = self._class_counts(self.offset <= last[self.segment])[seg]
        return left if self.before is None else left + self.before[seg]


_NOT_A_CUT = np.iinfo(np.int64).max


def class_counts(cell, n_segments: int, n_classes: int, weight=None) -> np.ndarray:
    """Rows of each class in each segment, ``(n_segments, n_classes)``, from each row's
    ``segment * n_classes + class``; with ``weight`` (one per row), sums of weights (float)."""
    counts = np.bincount(cell, weights=weight, minlength=n_segments * n_classes)
    return counts.reshape(n_segments, n_classes)


def _cumsum0(values) -> np.ndarray:
    """Cumulative sum with a leading 0 (int64): ``out[i]`` is the sum of ``values[:i]``."""
    out = np.zeros(len(values) + 1, dtype=np.int64)
    values.cumsum(out=out[1:])
    return out


def _rank_in_segment_and_class(
    y, segment, offset, starts, counts, count=None, before=None
) -> np.ndarray:
    """For each entry, how many rows of the same class come before it in its segment
    (``count``: rows of each entry, None for one row each; ``before``: the class counts of
    each segment's rows before its first entry, None for none, as :class:`_Cuts`)."""
    if count is None:
        rows_before = offset  # rows of any class before each entry, in its segment
    else:
        rows_before = np.cumsum(count, dtype=np.int64) - count
        rows_before -= rows_before[starts][segment]
    if counts.shape[1] == 2:  # one running count of class 1 is enough
        ones = y if count is None else y * count
        ones_before = ones.cumsum(dtype=np.int64) - ones
        first = ones_before[starts] if before is None else ones_before[starts] - before[:, 1]
        ones_before -= first[segment]
        return np.where(y == 1, ones_before, rows_before - ones_before)
    # a stable sort by class keeps each class's entries in segment order
    small = y.astype(np.uint8 if counts.shape[1] <= 256 else np.int32)
    order = np.argsort(small, kind="stable")
    per_class = counts.sum(axis=0)
    first_of_class = np.cumsum(per_class) - per_class
    rank = np.empty(len(y), dtype=np.int64)
    if count is None:
        rank[order] = np.arange(len(y)) - first_of_class[y[order]]
    else:
        in_order = count[order]
        rank[order] = np.cumsum(in_order, dtype=np.int64) - in_order - first_of_class[y[order]]
    earlier_segments = np.cumsum(counts, axis=0) - counts  # rows of class k before each segment
    if before is not None:
        earlier_segments -= before
    return rank - earlier_segments.ravel()[segment * counts.shape[1] + y]


@dataclass(slots=True)
class ThresholdSearch:
    """The best threshold of each segment (arrays of one entry per segment)."""

    found: np.ndarray  # bool: at least one valid threshold
    threshold: np.ndarray  # float, NaN where not found
    overall_entropy: np.ndarray  # NaN where not found
    gain: np.ndarray  # NaN where not found
    split_info: np.ndarray  # entropy of the branch sizes (left, right, missing)
    n_left: np.ndarray
    n_right: np.ndarray
    n_missing: np.ndarray
    n_ties: np.ndarray  # how many thresholds share the best overall entropy
    position: np.ndarray | None = None  # the last row left of each cut (-1 where not found)
    # for the trace (None from searches that do not provide them):
    low: np.ndarray | None = None  # the two adjacent values the threshold lies between
    high: np.ndarray | None = None
    side_counts: np.ndarray | None = None  # (n_segments, 3, n_classes): left, right, missing
    # when asked (``rank=k``): the cuts that may be among each segment's k best
    ranked: RankedCuts | None = None


@dataclass(frozen=True)
class RankedCuts:
    """The cuts that may be among the ``k`` best of each segment (:func:`near_best_cuts`),
    with what the columns of their thresholds are made of (:func:`ranked_thresholds`): what
    the split search keeps for the trace (``rank=k``), so that no cut is scored twice."""

    segment: np.ndarray  # of each cut, increasing
    position: np.ndarray  # of each cut, the last entry left of it
    left: np.ndarray  # (cuts, classes): the class counts left of each cut
    present: np.ndarray  # (segments, classes): the class counts of the rows with a value
    parent: np.ndarray  # (segments, classes): the class counts of all rows
    n_thresholds: np.ndarray  # how many cuts each segment has (between two distinct values)

    @staticmethod
    def joined(parts: list) -> RankedCuts:
        """The segments of ``parts``, one part after the other (positions as they are)."""
        n_segments = np.cumsum([0] + [len(p.present) for p in parts[:-1]])
        return RankedCuts(
            np.concatenate([p.segment + n for p, n in zip(parts, n_segments.tolist())]),
            *(np.concatenate([getattr(p, name) for p in parts]) for name in _RANKED_ARRAYS),
        )


_RANKED_ARRAYS = ("position", "left", "present", "parent", "n_thresholds")


def search_cuts(
    step_up, y, starts, lengths, n_present, n_classes, *, min_leaf=1, count=None, rank=0
) -> ThresholdSearch:
    """Best cut of every segment by lowest overall entropy; ties go to the first (smallest) cut.

    Entries of segment s are ``starts[s] : starts[s] + lengths[s]`` (every segment non-empty),
    sorted by value with the ``n_present[s]`` non-missing entries first; ``y`` holds class codes
    ``0 .. n_classes-1``; ``step_up[i]`` says the value at ``i + 1`` is larger than at ``i``.
    An entry is one row, or with ``count`` the ``count[i]`` rows of one (value, class) pair of the
    segment (the counted search: one entry per value and class present instead of one per row).
    Returns the position (entry) of each best cut; ``n_left``, ``n_right``, ``n_missing`` count
    rows (``threshold`` is left NaN: the caller knows the values).

    With ``rank=k`` (rows only, not counted), the search also keeps what the trace ranks the
    ``k`` best thresholds of each segment from (``ranked``, :func:`near_best_cuts` of its own
    scores, every cut between two distinct values counting whatever ``min_leaf``): a search
    for the trace scores no cut twice. ``ranked`` is None where it was not asked for, and for
    a segment longer than ``PIECE_ROWS`` (scored in parts).
    """
    if count is None and len(y) > PIECE_ROWS:
        return _search_cuts_in_pieces(
            step_up, y, starts, lengths, n_present, n_classes, min_leaf, rank
        )
    cuts = _Cuts(step_up, y, starts, lengths, n_present, n_classes, count)
    weighted = cuts.score_all(cuts.valid(min_leaf))
    ranked = None
    if rank and count is None:
        ranked = _ranked_cuts(cuts, weighted, min_leaf, rank)
    tolerance = tie_tolerance(cuts.rows, cuts.unit)  # sizes in rows, also when counted
    owner, at, n_ties = best_cuts(weighted, starts, lengths, tolerance)
    position = np.full(len(starts), -1, dtype=np.int64)
    position[owner] = at
    left = cuts.left_counts(owner, at)
    return threshold_search(
        owner, left, cuts.present, cuts.missing, n_ties, position=position, ranked=ranked
    )


def _ranked_cuts(cuts: _Cuts, weighted, min_leaf: int, k: int) -> RankedCuts:
    """``ranked`` of :func:`search_cuts`: the cuts that may be among the ``k`` best of each
    segment of ``cuts`` (whose scores with ``min_leaf`` are ``weighted``), every cut between
    two distinct values counting (a ``min_leaf`` of 1, as the trace lists them)."""
    valid = cuts.valid()
    score = weighted if min_leaf == 1 else cuts.score_all(valid)
    totals = np.add.reduceat(valid, cuts.starts) if len(valid) else np.zeros(0, np.int64)
    _, pos = near_best_cuts(score, cuts.starts, cuts.lengths, k, cuts.unit, cuts.n_classes)
    return _ranked_at(cuts, pos, totals)


def _ranked_at(cuts: _Cuts, pos, n_thresholds=None) -> RankedCuts:
    """The :class:`RankedCuts` of the cuts after positions ``pos`` (increasing) of ``cuts``
    (rows, whole segments): the class counts of each one's left side from one running count
    per class."""
    seg, starts = cuts.segment[pos], cuts.starts
    left = np.empty((len(pos), cuts.n_classes), dtype=np.int64)
    for k in range(cuts.n_classes):
        before = _cumsum0(cuts.y == k)  # rows of class k before each position
        left[:, k] = before[pos + 1] - before[starts[seg]]
    return RankedCuts(seg, pos, left, cuts.present, cuts.parent, n_thresholds)


def search_layouts(
    step_up, y, starts, lengths, n_present, n_classes, *, min_leaf=1, rank=0, counts=None,
    has_missing=None,
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
    scores are the exact integers of :class:`_Cuts` (the same table and units), so cuts, ties
    and the result are those of :func:`search_cuts` of the layouts laid end to end: segment
    ``j * n_segments + s``, positions ``j * m + i``.
    """
    c, m = y.shape
    n_seg = len(starts)
    if counts is None:  # the same in each layout
        segment = np.arange(n_seg).repeat(lengths)
        counts = class_counts(segment * n_classes + y[0], n_seg, n_classes)
    n_left = np.arange(1, m + 1) - starts.repeat(lengths)  # rows up to each position
    before = counts.cumsum(axis=0) - counts  # rows of each class before each segment
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
    # n H of both sides of every cut, in the units of the c log c table (exact integers):
    # q[n_left] + q[n_right] less the q of each class's count on either side, a class at a time
    longest = int(np.maximum.reduce(lengths))
    q, _, unit = scaled_xlogx(longest, c * m)  # (the lengths sum to m)
    weighted = q.take(n_left) + q.take(np.maximum(n_right, 0) if has_missing else n_right)
    # of each class, its rows up to each position within the segment (class 0: the rest)
    left = np.empty((n_classes, c, m), dtype=np.int64)
    present = np.empty((c, n_seg, n_classes), dtype=np.int64)  # rows of each class with a value
    if not has_missing:
        present[:] = counts
    right_0, right_k = n_right, None  # class 0's rows right of each cut: those of no other class
    for k in range(1, n_classes):
        left_k = (y if n_classes == 2 else y == k).cumsum(axis=1, out=left[k])
        left_k -= before[:, k].repeat(lengths)
        weighted = weighted - q.take(left_k)  # (c, m) from here
        if has_missing:
            present[:, :, k] = np.take_along_axis(left_k, last, axis=1) * (n_present > 0)
            right_k = present[:, :, k].repeat(lengths, axis=1) - left_k
        else:
            right_k = counts[:, k].repeat(lengths) - left_k
        weighted -= q.take(right_k)
        if k == 1:  # (right_k is not read again: its memory holds class 0's from here)
            right_0 = np.subtract(right_0, right_k, out=right_k)
        else:
            right_0 -= right_k
    np.subtract(n_left, left[1:].sum(axis=0) if n_classes > 2 else left[1], out=left[0])
    if has_missing:
        present[:, :, 0] = n_present - present[:, :, 1:].sum(axis=2)
    weighted -= q.take(left[0])
    weighted -= q.take(right_0)
    del right_0, right_k  # (their memory serves the steps below: fewer bytes touched)
    score = None
    if valid_any is not None:  # the trace's scores: every cut between two distinct values
        score = weighted.copy()
        score[~valid_any] = _NOT_A_CUT
    np.putmask(weighted, ~valid, _NOT_A_CUT)  # (faster than a masked assignment)
    # the best of each (layout, segment) and the first cut within the tolerance of it
    best = np.minimum.reduceat(weighted, starts, axis=1)
    found = best.ravel() < _NOT_A_CUT
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
        seg, pos = near_best_cuts(
            score.ravel(), layout_starts, np.tile(lengths, c), rank, unit, n_classes
        )
        ranked = RankedCuts(
            seg,
            pos,
            left[:, pos // m, pos % m].T,
            present.reshape(-1, n_classes),
            np.tile(counts, (c, 1)),
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


PIECE_ROWS = 2**16
""":func:`search_cuts` scores at most this many rows at once: its temporaries (about 100 bytes a
row) stay a few MB however large the data; longer inputs are searched piece by piece."""


def _pieces(starts, lengths):
    """The pieces a long input is searched or ranked in: runs of whole segments (segment s is
    ``starts[s] : starts[s] + lengths[s]``, one after the other), as many as fit in
    ``PIECE_ROWS`` rows, a longer segment alone. Yields ``(segments, rows)``, two slices."""
    ends = starts + lengths
    s = 0
    while s < len(starts):
        stop = max(int(np.searchsorted(ends, starts[s] + PIECE_ROWS, side="right")), s + 1)
        yield slice(s, stop), slice(int(starts[s]), int(ends[stop - 1]))
        s = stop


def _search_cuts_in_pieces(step_up, y, starts, lengths, n_present, n_classes, min_leaf, rank=0):
    """:func:`search_cuts` of more than ``PIECE_ROWS`` rows, a piece at a time (same result).

    Segments are taken in order, as many whole ones at a time as fit in ``PIECE_ROWS`` rows; a
    longer segment is searched alone, in parts of ``PIECE_ROWS`` rows (:func:`_search_long`).
    Every piece is scored in the units of the whole search's table, so the integer scores, and
    the ties between them, are exactly those of one search of everything.
    """
    n_seg = len(starts)
    scale = (int(lengths.max()), int(lengths.sum()))  # the table of one search of everything
    position = np.full(n_seg, -1, dtype=np.int64)
    n_ties = np.zeros(n_seg, dtype=np.int64)
    present = np.zeros((n_seg, n_classes), dtype=np.int64)
    missing = np.zeros((n_seg, n_classes), dtype=np.int64)
    owners, lefts = [], []
    near = []  # (rank: the ranked cuts of each piece)
    rank = 0 if (lengths > PIECE_ROWS).any() else rank  # (a long segment is scored in parts)
    for part, piece in _pieces(starts, lengths):
        s = part.start
        if lengths[s] > PIECE_ROWS:  # alone in its piece
            at, n_ties[s], left, present[s], missing[s] = _search_long(
                step_up, y, starts[s], lengths[s], n_present[s], n_classes, min_leaf, scale
            )
            if at >= 0:
                position[s] = at
                owners.append(np.array([s]))
                lefts.append(left[None])
            continue
        cuts = _Cuts(
            step_up[piece], y[piece], starts[part] - starts[s], lengths[part], n_present[part],
            n_classes, scale=scale,
        )  # fmt: skip
        weighted = cuts.score_all(cuts.valid(min_leaf))
        if rank:
            ranked = _ranked_cuts(cuts, weighted, min_leaf, rank)
            near.append(dataclasses.replace(ranked, position=ranked.position + piece.start))
        tolerance = tie_tolerance(lengths[part], cuts.unit)
        owner, at, n_ties[part] = best_cuts(weighted, cuts.starts, cuts.lengths, tolerance)
        del weighted
        position[owner + s] = at + piece.start
        owners.append(owner + s)
        lefts.append(cuts.left_counts(owner, at))
        present[part], missing[part] = cuts.present, cuts.missing
    owner = np.concatenate(owners) if owners else np.zeros(0, dtype=np.int64)
    left = np.concatenate(lefts) if lefts else np.zeros((0, n_classes), dtype=np.int64)
    ranked = RankedCuts.joined(near) if rank else None
    return threshold_search(owner, left, present, missing, n_ties, position=position, ranked=ranked)


def _search_long(step_up, y, start, length, n_present, n_classes, min_leaf, scale):
    """The best cut of one segment longer than ``PIECE_ROWS`` rows, scored in parts of
    ``PIECE_ROWS`` rows that carry the class counts of the rows before them.

    Cuts are tied when within the tolerance of the segment's best; a part cannot know that best,
    so each keeps its cuts within the tolerance of its own best (a superset of the ones that
    count) and the ties are settled at the end. Returns the winning position (-1 for none), the
    number of tied cuts, the class counts left of the winner, and the segment's class counts
    with a value (present) and without (missing).
    """
    start, length, n_present = int(start), int(length), int(n_present)
    present = np.bincount(y[start : start + n_present], minlength=n_classes).astype(np.int64)
    missing = np.bincount(y[start + n_present : start + length], minlength=n_classes)
    before = np.zeros((1, n_classes), dtype=np.int64)
    near_position, near_score = [], []
    for lo in range(start, start + min(length, n_present), PIECE_ROWS):
        hi = min(lo + PIECE_ROWS, start + length)
        cuts = _Cuts(
            step_up[lo:hi], y[lo:hi], np.array([0]), np.array([hi - lo]), np.array([n_present]),
            n_classes, before=before, present=present[None], scale=scale,
        )  # fmt: skip
        tolerance = int(tie_tolerance(length, cuts.unit))
        weighted = cuts.score_all(cuts.valid(min_leaf))
        best = weighted.min()
        if best < _NOT_A_CUT:
            near = np.flatnonzero(weighted <= best + tolerance)
            near_position.append(near + lo)
            near_score.append(weighted[near])
        before = before + cuts.parent
    left = np.zeros(n_classes, dtype=np.int64)
    if not near_score:
        return -1, 0, left, present, missing.astype(np.int64)
    score, position = np.concatenate(near_score), np.concatenate(near_position)
    tied = score <= score.min() + tolerance
    at = int(position[np.argmax(tied)])  # the first of the tied cuts
    left[:] = np.bincount(y[start : at + 1], minlength=n_classes)
    return at, int(tied.sum()), left, present, missing.astype(np.int64)


def tie_tolerance(n_rows, unit: float) -> np.ndarray:
    """``TIE_TOLERANCE`` bits of overall entropy for segments of ``n_rows`` rows, in the units
    of the integer ``c log c`` table (scores are ``n H``, so the tolerance grows with ``n``)."""
    return np.floor(TIE_TOLERANCE * np.asarray(n_rows) / unit).astype(np.int64)


_tolerance_tables: dict[float, np.ndarray] = {}


def looked_up_tolerance(n_rows: np.ndarray, longest: int, unit: float) -> np.ndarray:
    """:func:`tie_tolerance` of segments of ``n_rows`` rows (``longest``: the most), looked up in
    a table of ``0, 1, 2, ...`` rows kept per unit, in one operation; segments longer than the
    tables kept (``XLOGX_KEPT_ENTRIES``) have theirs computed."""
    if longest >= XLOGX_KEPT_ENTRIES:
        return tie_tolerance(n_rows, unit)
    table = _tolerance_tables.get(unit)
    if table is None or len(table) <= longest:
        size = min(max(4 * longest, 1024), XLOGX_KEPT_ENTRIES)
        table = _tolerance_tables[unit] = tie_tolerance(np.arange(size), unit)
    return table.take(n_rows)


def scaled_cut_scores(left, right, q) -> np.ndarray:
    """``n_left H(left) + n_right H(right)`` of cuts given by the class counts of their sides
    (one row a cut), in the units of the ``c log c`` table ``q`` (see
    :func:`~id3tree._entropy.scaled_xlogx`): the sums :class:`_Cuts` keeps running over rows,
    for cuts whose counts are known (the split search fed with counts)."""
    return q[left.sum(axis=1)] - q[left].sum(axis=1) + q[right.sum(axis=1)] - q[right].sum(axis=1)


def best_cuts(weighted, starts, lengths, tolerance):
    """The winning cut of every group of candidates, by the tie rule.

    The cuts of group g are ``starts[g] : starts[g] + lengths[g]`` (every group non-empty), in
    threshold order, and ``weighted`` their integer scores (``_NOT_A_CUT`` where no cut may
    go). Cuts within ``tolerance[g]`` of the group's lowest score are
    tied and the first (smallest threshold) wins. Returns the groups with a cut, the index of
    each one's winner, and the number of tied cuts of every group.
    """
    n_ties = np.zeros(len(starts), dtype=np.int64)
    if not len(starts):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), n_ties
    best = np.minimum.reduceat(weighted, starts)
    owner = (best < _NOT_A_CUT).nonzero()[0]
    if not len(owner):
        return owner, np.zeros(0, dtype=np.int64), n_ties
    tied = weighted - best.repeat(lengths) <= tolerance.repeat(lengths)
    tied &= weighted < _NOT_A_CUT
    n_ties[:] = np.add.reduceat(tied, starts)
    # the first tied cut of each group: the smallest index among its tied ones
    first = np.minimum.reduceat(np.where(tied, np.arange(len(tied)), len(tied)), starts)
    return owner, first[owner], n_ties


def filled(shape, value, dtype=np.float64) -> np.ndarray:
    """A new array of ``shape`` holding ``value`` everywhere (``np.full`` without its Python
    frames: a small fit makes several a level)."""
    array = np.empty(shape, dtype=dtype)
    array.fill(value)
    return array


def threshold_search(owner, left, present, missing, n_ties, found=None, **extra) -> ThresholdSearch:
    """The :class:`ThresholdSearch` of segments whose best cuts are known.

    ``owner`` are the segments with a cut and ``left`` the class counts left of each one's cut;
    ``present`` and ``missing`` (``(n_segments, n_classes)``) the class counts of the rows with
    and without a value (``missing=None``: no row is missing, which spares the work of the
    missing branch). The overall entropy of each winner is taken from its exact class
    counts, by Shannon's formula; ``found``, whether each segment has a cut, when the caller
    has it (else made from ``owner``); ``extra`` fills the optional fields.

    Every segment is computed alike, found or not (a segment without a cut has sides of 0,
    ``present`` and ``missing`` rows, and its results are then blanked): whole-array operations
    instead of gathers and scatters by ``owner``, which is what a small search spends.
    """
    n_seg, n_classes = present.shape
    if found is None:
        found = np.zeros(n_seg, dtype=bool)
        found[owner] = True
    side_counts = np.zeros((n_seg, 3, n_classes), dtype=np.int64)  # left, right, missing
    side_counts[owner, 0] = left
    np.subtract(present, side_counts[:, 0], out=side_counts[:, 1])
    side_counts[:, 1] *= found[:, None]  # no cut: no sides (but the missing rows)
    if missing is not None:
        side_counts[:, 2] = missing
    sizes = np.add.reduce(side_counts, axis=2)  # rows left, right and missing
    if missing is not None:
        sizes[:, 2] *= found  # no cut: no branches
    parent = present if missing is None else present + missing  # each segment's class counts
    # one table of every row whose entropy is needed, zero-padded to one width (zeros add
    # nothing): the three sides of each cut, each segment's parent, each segment's branch sizes
    width = max(n_classes, 3) if n_classes <= DENSE_CLASSES else 0
    if width:
        stacked = np.zeros((width, 5, n_seg))  # class by class, as entropy_of_counts reads
        stacked[:n_classes, :3] = side_counts.T
        stacked[:n_classes, 3] = parent.T
        stacked[:3, 4] = sizes.T
        totals = np.add.reduce(stacked, axis=0)
        h_left, h_right, h_missing, h_parent, split_info = entropy_of_counts(stacked, totals)
        n_rows = totals[4]  # n_left + n_right + n_missing (whole numbers: exact as floats)
    else:  # wide rows are read by their non-zero cells: one call a table
        h_left, h_right, h_missing = entropy_rows(side_counts).T
        h_parent, split_info = entropy_rows(parent), entropy_rows(sizes)
        n_rows = np.add.reduce(sizes, axis=1)
    n_left, n_right, n_missing = sizes.T
    overall = n_left * h_left + n_right * h_right
    if missing is not None:  # (else n_missing is 0: the sum is the same)
        overall += n_missing * h_missing
    overall /= np.where(found, n_rows, np.nan)  # (no cut: NaN)
    return ThresholdSearch(
        found=found,
        threshold=filled(n_seg, np.nan),
        overall_entropy=overall,
        gain=np.maximum(h_parent - overall, 0.0),  # (NaN where no cut: so is overall)
        split_info=split_info,
        n_left=n_left,
        n_right=n_right,
        n_missing=n_missing,
        n_ties=n_ties,
        side_counts=side_counts,
        **extra,
    )


def search_counted(
    codes, y, segment, n_segments, n_codes, n_classes, *, min_leaf=1
) -> tuple[ThresholdSearch, np.ndarray, np.ndarray]:
    """:func:`search_cuts` for a feature with few distinct values, by counting instead of sorting.

    ``codes`` number the feature's values in increasing order ``0 .. n_codes-2``; the last code,
    ``n_codes-1``, means missing. Rows need not be sorted: one ``bincount`` of
    (segment, value, class) gives, for every segment, its values in increasing order with the
    rows of each class, and :func:`search_cuts` scores the cuts between those values with the
    same table of ``c log c`` as for sorted rows, counting each (value, class) pair once instead
    of row by row. Returns the search (counts of rows, as :func:`search_cuts`) and the codes of
    the two values each best cut lies between (-1 where none was found).
    """
    # the key packs (segment, value, class) in bit fields: unpacking takes shifts, not divisions
    class_bits, code_bits = _bits(n_classes), _bits(n_codes)
    key = segment.astype(np.int64) << (code_bits + class_bits)
    key |= codes.astype(np.int64) << class_bits
    key |= y
    keys, count = count_keys(key, n_segments << (code_bits + class_bits))
    owner = keys >> (code_bits + class_bits)
    value = (keys >> class_bits) & ((1 << code_bits) - 1)
    label = keys & ((1 << class_bits) - 1)
    lengths = np.bincount(owner, minlength=n_segments)
    starts = np.cumsum(lengths) - lengths
    n_present = np.bincount(owner[value < n_codes - 1], minlength=n_segments)
    step_up = np.zeros(len(keys), dtype=bool)
    np.less(value[:-1], value[1:], out=step_up[:-1])
    found = search_cuts(
        step_up,
        label,
        starts,
        lengths,
        n_present,
        n_classes,
        min_leaf=min_leaf,
        count=count,
    )
    low, high = np.full(n_segments, -1), np.full(n_segments, -1)
    at = found.position[found.found]
    low[found.found], high[found.found] = value[at], value[at + 1]
    return found, low, high


def _bits(n: int) -> int:
    """Bits enough for the numbers ``0 .. n-1``."""
    return max(int(n) - 1, 1).bit_length()


# ---------------------------------------------------------------------------------------------
# Weighted rows: the float twin of the search
# ---------------------------------------------------------------------------------------------
class _WeightedCuts:
    """Every cut point of many segments when each row has a weight (``fit(sample_weight=)``).

    The integer ``c log c`` table of :class:`_Cuts` needs whole counts, so weights take this
    road: running sums of weight, one class at a time (memory stays linear in the rows, whatever
    the number of classes), and the entropy of both sides of every cut by Shannon's formula.
    Rows still decide *where* a cut may go (``min_leaf`` counts rows, as scikit-learn's
    ``min_samples_leaf``); weights decide what it is worth (``min_weight`` is the weight each
    side must hold, scikit-learn's ``min_weight_leaf``). Parameters are those of
    :func:`search_weighted_cuts`.
    """

    def __init__(self, step_up, y, weight, starts, lengths, n_present, n_classes):
        m, n_seg = len(y), len(starts)
        self.starts, self.lengths, self.n_present = starts, lengths, n_present
        self.step_up, self.n_classes = step_up, n_classes
        self.segment = np.repeat(np.arange(n_seg), lengths)
        self.offset = np.arange(m) - np.repeat(starts, lengths)
        self.y, self.cell, self.weight = y, self.segment * n_classes + y, weight
        self.parent = class_counts(self.cell, n_seg, n_classes, weight)
        present = self.offset < np.repeat(n_present, lengths)
        self.present = class_counts(self.cell[present], n_seg, n_classes, weight[present])
        self.missing = np.maximum(self.parent - self.present, 0.0)
        self.cum_size = np.zeros(m + 1)  # cum_size[i]: the weight of rows [:i]
        np.cumsum(weight, out=self.cum_size[1:])
        self.present_size = self.present.sum(axis=1)

    def candidates(self, min_leaf: int = 1, min_weight: float = 0.0) -> np.ndarray:
        """Positions where a cut may go: between two distinct present values, at least
        ``min_leaf`` rows and ``min_weight`` weight on each side."""
        n_present = np.repeat(self.n_present, self.lengths)
        valid = self.step_up & (self.offset < n_present - 1)
        if min_leaf > 1:
            valid &= (self.offset + 1 >= min_leaf) & (n_present - self.offset - 1 >= min_leaf)
        if min_weight > 0:
            left = self.cum_size[1:] - np.repeat(self.cum_size[self.starts], self.lengths)
            right = np.repeat(self.present_size, self.lengths) - left
            valid &= (left >= min_weight) & (right >= min_weight)
        return np.flatnonzero(valid)

    def score(self, pos):
        """Segment, weights of both sides and their entropies (bits) of the cut after each
        position."""
        seg = self.segment[pos]
        start = self.starts[seg]
        w_left = self.cum_size[pos + 1] - self.cum_size[start]
        w_right = np.maximum(self.present_size[seg] - w_left, 0.0)
        h_left, h_right = np.zeros(len(pos)), np.zeros(len(pos))
        cum = np.zeros(len(self.y) + 1)
        for k in range(self.n_classes):
            np.cumsum(np.where(self.y == k, self.weight, 0.0), out=cum[1:])
            left = cum[pos + 1] - cum[start]
            h_left += entropy_terms(left, w_left)
            h_right += entropy_terms(np.maximum(self.present[seg, k] - left, 0.0), w_right)
        return seg, w_left, w_right, h_left + 0.0, h_right + 0.0

    def left_counts(self, seg, pos) -> np.ndarray:
        """Class weights left of the cut after ``pos[i]`` in segment ``seg[i]``, summed afresh
        (not as a difference of running sums, so no rounding is carried over)."""
        last = np.full(len(self.starts), -1, dtype=np.int64)
        last[seg] = pos - self.starts[seg]
        left = self.offset <= last[self.segment]
        counts = class_counts(self.cell[left], len(self.starts), self.n_classes, self.weight[left])
        return counts[seg]


def search_weighted_cuts(
    step_up, y, weight, starts, lengths, n_present, n_classes, *, min_leaf=1, min_weight=0.0
) -> ThresholdSearch:
    """:func:`search_cuts` with a positive weight per row.

    Class counts, entropies, gains, ``split_info`` and ``side_counts`` are sums of weights;
    ``n_left``, ``n_right`` and ``n_missing`` stay numbers of *rows* (the grower sends rows down
    by them, and ``min_samples_leaf`` counts rows). A cut needs ``min_leaf`` rows and
    ``min_weight`` weight on each side; the missing-values branch, when not empty, must weigh
    ``min_weight`` too (its rows are the caller's to check, as in :func:`search_cuts`).
    Ties: cuts whose overall entropies are within ``TIE_TOLERANCE`` bits; the first wins.
    """
    cuts = _WeightedCuts(step_up, y, weight, starts, lengths, n_present, n_classes)
    n_seg = len(starts)
    n_missing = lengths - n_present
    total = cuts.parent.sum(axis=1)
    missing_weight = cuts.missing.sum(axis=1)
    found = np.zeros(n_seg, dtype=bool)
    position = np.full(n_seg, -1, dtype=np.int64)
    overall = np.full(n_seg, np.nan)
    n_left = np.zeros(n_seg, dtype=np.int64)
    n_ties = np.zeros(n_seg, dtype=np.int64)
    side_counts = np.zeros((n_seg, 3, n_classes))
    side_counts[:, 2] = cuts.missing
    pos = cuts.candidates(min_leaf, min_weight)
    if min_weight > 0:  # a missing-values branch lighter than min_weight: no cut in that segment
        light = (n_missing > 0) & (missing_weight < min_weight)
        pos = pos[~light[cuts.segment[pos]]]
    if len(pos):
        seg, w_left, w_right, h_left, h_right = cuts.score(pos)
        weighted = w_left * h_left + w_right * h_right  # bits times weight
        first = np.flatnonzero(np.r_[True, seg[1:] != seg[:-1]])
        owner = seg[first]
        best = np.full(n_seg, np.inf)
        best[owner] = np.minimum.reduceat(weighted, first)
        tied = weighted <= best[seg] + TIE_TOLERANCE * total[seg]
        n_ties[owner] = np.add.reduceat(tied, first)
        winners = np.flatnonzero(tied)
        winners = winners[np.r_[True, seg[winners][1:] != seg[winners][:-1]]]  # the first cut
        at = pos[winners]
        found[owner] = True
        position[owner] = at
        n_left[owner] = at + 1 - starts[owner]
        left = cuts.left_counts(owner, at)
        right = np.maximum(cuts.present[owner] - left, 0.0)
        side_counts[owner, 0], side_counts[owner, 1] = left, right
        sides = np.concatenate([left, right, cuts.missing[owner]])
        h_left, h_right, h_missing = entropy_rows(sides).reshape(3, -1)
        overall[owner] = (
            left.sum(axis=1) * h_left
            + right.sum(axis=1) * h_right
            + missing_weight[owner] * h_missing
        ) / total[owner]
    n_right = np.where(found, n_present - n_left, 0)
    split_info = entropy_rows(side_counts.sum(axis=2) * found[:, None])
    return ThresholdSearch(
        found=found,
        position=position,
        threshold=np.full(n_seg, np.nan),
        overall_entropy=overall,
        gain=np.where(found, np.maximum(entropy_rows(cuts.parent) - overall, 0.0), np.nan),
        split_info=split_info,
        n_left=n_left,
        n_right=n_right,
        n_missing=np.where(found, n_missing, 0),
        n_ties=n_ties,
        side_counts=side_counts,
    )


def _steps_and_present(values, starts, lengths):
    """``step_up`` and ``n_present`` of :func:`search_cuts` for values sorted within segments."""
    step_up = np.zeros(len(values), dtype=bool)
    np.less(values[:-1], values[1:], out=step_up[:-1])  # NaN compares False
    missing = np.isnan(values)
    n_missing = np.add.reduceat(missing, starts) if len(values) else np.zeros(len(starts), int)
    return step_up, lengths - n_missing


def search_thresholds(values, y, starts, lengths, n_classes, *, min_leaf=1) -> ThresholdSearch:
    """Best midpoint of every segment by lowest overall entropy; ties go to the smallest threshold.

    ``values`` must be sorted within each segment with NaN last; ``y`` holds class codes
    ``0 .. n_classes-1`` in the same order; segment s is ``starts[s] : starts[s] + lengths[s]``
    (every segment non-empty).
    """
    values = np.asarray(values, dtype=float)
    starts, lengths = np.asarray(starts), np.asarray(lengths)
    step_up, n_present = _steps_and_present(values, starts, lengths)
    found = search_cuts(
        step_up, np.asarray(y), starts, lengths, n_present, n_classes, min_leaf=min_leaf
    )
    at = found.position[found.found]
    threshold = found.threshold.copy()
    threshold[found.found] = midpoint(values[at], values[at + 1])
    low, high = np.full(len(starts), np.nan), np.full(len(starts), np.nan)
    low[found.found], high[found.found] = values[at], values[at + 1]
    return dataclasses.replace(found, threshold=threshold, position=None, low=low, high=high)


def enumerate_thresholds(
    values, y, starts, lengths, n_classes, weight=None
) -> dict[str, np.ndarray]:
    """Every candidate midpoint of every segment, in segment then threshold order.

    Same inputs as :func:`search_thresholds`; returns the columns of ``candidate_splits`` plus
    ``segment``, and ``low`` and ``high``, the adjacent values each threshold lies between.
    Each side's entropy comes from its class counts (kept for every cut: this is
    for showing the candidates, not for searching them). With ``weight`` (one per row), the
    sizes and entropies are sums of weights (:func:`_enumerate_weighted_thresholds`).
    """
    if weight is not None:
        values, y, starts, lengths, step_up, n_present = _prepared(values, y, starts, lengths)
        cuts = _WeightedCuts(
            step_up, y, np.asarray(weight, float), starts, lengths, n_present, n_classes
        )
        return _enumerate_weighted_thresholds(cuts, values)
    values, y, cuts = _cuts_of(values, y, starts, lengths, n_classes)
    return _threshold_columns(cuts, values, cuts.candidates())


def best_thresholds(values, y, starts, lengths, n_classes, k: int, weight=None):
    """The ``k`` best midpoints of every segment (lowest overall entropy, then smallest
    threshold), best first, and how many each segment has in all.

    Same inputs and columns as :func:`enumerate_thresholds`, and the same numbers, but the
    cuts are ranked by their exact integer scores first (:class:`_Cuts`), so that entropies are
    computed only for the few that can be among the ``k`` best (:func:`near_best_cuts`), not
    for every cut (weighted rows have no integer scores: every cut is scored, then ranked).
    The segments are ranked in order, as many whole ones at a time as fit in ``PIECE_ROWS``
    rows (a longer one alone), as the split search scores them: the temporaries stay small.
    Returns ``(columns, n_thresholds)``.
    """
    if weight is not None:
        columns = enumerate_thresholds(values, y, starts, lengths, n_classes, weight)
        n_thresholds = np.bincount(columns["segment"], minlength=len(starts))
        return _first_of_each(columns, k), n_thresholds
    if not len(starts):  # no segment, no threshold
        return enumerate_thresholds(values, y, starts, lengths, n_classes), np.zeros(0, int)
    values, y, starts, lengths, step_up, n_present = _prepared(values, y, starts, lengths)
    columns = []
    for part, rows in _pieces(starts, lengths):
        s = part.start
        cuts = _Cuts(
            step_up[rows], y[rows], starts[part] - starts[s], lengths[part], n_present[part],
            n_classes,
        )  # fmt: skip
        ranked = _ranked_cuts(cuts, cuts.score_all(cuts.valid()), 1, k)
        at = ranked.position + rows.start
        best = ranked_thresholds(ranked, values[at], values[at + 1], k)
        best["segment"] = best["segment"] + s
        columns.append((best, ranked.n_thresholds))
    joined = {name: np.concatenate([c[name] for c, _ in columns]) for name in columns[0][0]}
    return joined, np.concatenate([n for _, n in columns])


def ranked_thresholds(cuts: RankedCuts, low, high, k: int) -> dict:
    """The columns of :func:`best_thresholds` (the ``k`` best of each segment, best first) from
    the cuts that may be among them (:func:`near_best_cuts`, kept by :func:`best_thresholds` or
    by the split search): only those get their entropies computed and ranked. ``low`` and
    ``high`` are the two values each cut lies between."""
    return _first_of_each(_columns_of_ranked(cuts, low, high), k)


def near_best_cuts(score, starts, lengths, k: int, unit: float, n_classes: int) -> tuple:
    """The segments and positions (increasing) of the cuts that may be among the ``k`` best of their
    segment: segment s is ``score[starts[s] : starts[s] + lengths[s]]``, the exact integer
    scores of :class:`_Cuts` (``n H`` in units ``unit`` of its table; the largest int64 where
    no cut may go).

    The cuts near each segment's ``k`` best are found without sorting them all
    (:func:`_near_best`), and only those within a margin of a bound of each segment's ``k``-th
    best among them are kept: floats and the table's rounding may order near-equal cuts
    differently, and a margin of 1e-9 bits of overall entropy (and a few table units) keeps
    them all.
    """
    margin = np.ceil(1e-9 * np.asarray(lengths) / unit).astype(np.int64) + 4 * (n_classes + 1)
    pos = _near_best(score, starts, lengths, k, margin)
    seg, near = np.searchsorted(starts, pos, side="right") - 1, score[pos]
    kth = _kth_bound(near, np.bincount(seg, minlength=len(starts)), k)
    kept = near - margin[seg] <= kth[seg]
    return seg[kept], pos[kept]


_BLOCK = 32
"""The longest block of :func:`_near_best`."""


def _near_best(score, starts, lengths, k: int, margin) -> np.ndarray:
    """The positions of ``score`` (segment s is ``starts[s]:starts[s] + lengths[s]``, one
    after the other; the largest int64 where no cut may go) whose cut may be among the ``k``
    best of its segment: every cut of a segment scoring at most a bound of its ``k``-th best
    plus ``margin`` of the segment, in increasing order.

    Each segment is cut into blocks of at most ``_BLOCK`` entries, at least ``k`` of them; the
    minima of ``k`` blocks are ``k`` entries, so the ``k``-th smallest block minimum bounds the
    ``k``-th smallest entry from above (a segment with fewer than ``k`` blocks keeps all its
    cuts). Only the blocks whose minimum is within the bound are read again: one pass over
    ``score`` and a sort of the blocks' minima, no other array as long as ``score``.
    """
    size = np.clip(lengths // k, 1, _BLOCK)
    n_blocks = -(-lengths // size)
    first_block = np.cumsum(n_blocks) - n_blocks
    segment = np.repeat(np.arange(len(starts)), n_blocks)
    block_start = starts[segment] + (np.arange(len(segment)) - first_block[segment]) * size[segment]
    block_min = np.minimum.reduceat(score, block_start)
    bound = _kth_bound(block_min, n_blocks, k)
    bound = np.where(
        bound < _NOT_A_CUT - 1, bound + np.minimum(margin, _NOT_A_CUT - 1 - bound), bound
    )
    # the positions of the blocks that hold a cut within their segment's bound
    near = np.flatnonzero(block_min <= bound[segment])
    block_end = np.minimum(block_start + size[segment], (starts + lengths)[segment])
    n_near = block_end[near] - block_start[near]
    first = np.cumsum(n_near) - n_near
    pos = np.repeat(block_start[near] - first, n_near) + np.arange(n_near.sum())
    return pos[score[pos] <= np.repeat(bound[segment[near]], n_near)]


def _kth_bound(score, lengths, k: int) -> np.ndarray:
    """An upper bound of the ``k``-th smallest valid score of every group of ``score`` (group
    g is the next ``lengths[g]`` entries; the largest int64 marks no cut): below the largest
    int64 always, and every score where a group has fewer than ``k`` valid ones.

    One sort of a single key, the group and the score's leading bits (above the lowest
    score): the ``k``-th entry of a group in that order has leading bits ``a``, and ``k`` of
    the group's scores lie below ``(a + 1) << shift``.
    """
    valid = score < _NOT_A_CUT
    group = np.repeat(np.arange(len(lengths), dtype=np.int64), lengths)
    bound = np.full(len(lengths), _NOT_A_CUT - 1, dtype=np.int64)
    enough = np.bincount(group[valid], minlength=len(lengths)) >= k
    if not enough.any():
        return bound
    low = int(score[valid].min())
    shift = max((int(score[valid].max()) - low).bit_length() - 40, 0)
    leading = np.where(valid, (score - low) >> shift, 2**40 - 1)  # no cut: last of its group
    ranked = np.sort((group << 40) | leading)
    a = ranked[(np.cumsum(lengths) - lengths)[enough] + k - 1] & (2**40 - 1)
    bound[enough] = low + ((a + 1) << shift) - 1
    return bound


def _first_of_each(columns: dict, k: int) -> dict:
    """The first ``k`` thresholds of each segment by overall entropy, then threshold.

    The columns must list the cuts in segment order, and each segment's in position order
    (their thresholds increasing): two stable sorts, by overall entropy then by segment, then
    rank them as one sort by segment, overall entropy and threshold would."""
    order = np.argsort(columns["overall_entropy"], kind="stable")
    order = order[np.argsort(columns["segment"][order], kind="stable")]
    seg = columns["segment"][order]
    first = np.searchsorted(seg, seg)  # the first row of each segment
    order = order[np.arange(len(order)) - first < k]
    return {name: column[order] for name, column in columns.items()}


def _prepared(values, y, starts, lengths):
    values = np.asarray(values, dtype=float)
    y = np.asarray(y)
    starts, lengths = np.asarray(starts), np.asarray(lengths)
    step_up, n_present = _steps_and_present(values, starts, lengths)
    return values, y, starts, lengths, step_up, n_present


def _cuts_of(values, y, starts, lengths, n_classes):
    values, y, starts, lengths, step_up, n_present = _prepared(values, y, starts, lengths)
    return values, y, _Cuts(step_up, y, starts, lengths, n_present, n_classes)


def _threshold_columns(cuts: _Cuts, values, pos) -> dict[str, np.ndarray]:
    """The columns of :func:`enumerate_thresholds` for the cuts after positions ``pos``."""
    return _columns_of_ranked(_ranked_at(cuts, pos), values[pos], values[pos + 1])


def _columns_of_ranked(cuts: RankedCuts, low, high) -> dict[str, np.ndarray]:
    """The columns of :func:`enumerate_thresholds` for the cuts of ``cuts``, each between the
    values ``low`` and ``high``: the sizes and entropies of each side from its class counts."""
    seg, left, present = cuts.segment, cuts.left, cuts.present
    lengths, n_present = cuts.parent.sum(axis=1), present.sum(axis=1)
    nl = left.sum(axis=1)  # rows left of each cut
    nr = n_present[seg] - nl
    # the entropies of every left side, right side and segment's missing rows, by one call
    n = len(seg)
    h = entropy_rows(np.concatenate([left, present[seg] - left, cuts.parent - present]))
    h_left, h_right, h_missing = h[:n], h[n : 2 * n], h[2 * n :]
    missing_part = ((lengths - n_present) * h_missing)[seg]
    overall = (nl * h_left + nr * h_right + missing_part) / lengths[seg]
    sizes, entropies = (nl, nr), (h_left, h_right)
    return _columns_of_cuts(seg, low, high, sizes, entropies, overall, cuts.parent)


def _enumerate_weighted_thresholds(cuts: _WeightedCuts, values) -> dict[str, np.ndarray]:
    """:func:`enumerate_thresholds` of weighted rows: ``n_left`` and ``n_right`` are weights."""
    pos = cuts.candidates()
    seg, w_left, w_right, h_left, h_right = cuts.score(pos)
    total = cuts.parent.sum(axis=1)
    missing_part = (cuts.missing.sum(axis=1) * entropy_rows(cuts.missing))[seg]
    overall = (w_left * h_left + w_right * h_right + missing_part) / total[seg]
    sizes, entropies = (w_left, w_right), (h_left, h_right)
    return _columns_of_cuts(
        seg, values[pos], values[pos + 1], sizes, entropies, overall, cuts.parent
    )


def _columns_of_cuts(seg, low, high, sizes, entropies, overall, parent) -> dict:
    """The columns of :func:`enumerate_thresholds` from the cuts' segments, the values each
    lies between, sizes and entropies of the two sides (rows or weights), overall entropy and
    parents' class counts."""
    return {
        "segment": seg,
        "threshold": midpoint(low, high),
        "low": low,
        "high": high,
        "n_left": sizes[0],
        "n_right": sizes[1],
        "entropy_left": entropies[0],
        "entropy_right": entropies[1],
        "overall_entropy": overall,
        "gain": np.maximum(entropy_rows(parent)[seg] - overall, 0.0),
    }


# ---------------------------------------------------------------------------------------------
# Categorical features: one branch per value
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class CategoricalSearch:
    """The multiway split of each segment on one categorical feature."""

    valid: np.ndarray  # bool: at least two non-empty branches, each with >= min_leaf rows
    gain: np.ndarray
    split_info: np.ndarray
    n_branches: np.ndarray
    # for the trace (None from searches that do not provide them):
    overall_entropy: np.ndarray | None = None  # the size-weighted entropy of the branches
    branch_keys: np.ndarray | None = None  # segment * n_levels + value of each non-empty branch
    table: np.ndarray | None = None  # (n_branches_total, n_classes): their class counts


def dense_ranks(key: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """The sorted distinct values of ``key`` (all in ``0 .. size-1``) and each key's rank among them.

    A ``bincount`` when ``size`` is small next to the number of keys, a sort otherwise: the
    cost never depends on how many values *could* occur (a column may have 100,000 categories).
    """
    if _table_pays(size, len(key)):
        present = np.bincount(key, minlength=size) > 0
        return present.nonzero()[0], (present.cumsum() - 1)[key]
    distinct, rank = np.unique(key, return_inverse=True)
    return distinct, rank.ravel()


def _table_pays(size: int, n_keys: int) -> bool:
    """Whether ``n_keys`` keys in ``0 .. size-1`` are ranked or counted faster by a table of
    every possible key (one ``bincount``) than by sorting them."""
    return size <= 4 * n_keys + 4096


def count_keys(key: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """The sorted distinct values of ``key`` (all in ``0 .. size-1``) and how often each occurs,
    by a ``bincount`` when ``size`` is small next to the number of keys, a sort otherwise."""
    if _table_pays(size, len(key)):
        table = np.bincount(key, minlength=size)
        distinct = np.flatnonzero(table)
        return distinct, table[distinct]
    return np.unique(key, return_counts=True)


def score_categorical(
    codes, y, segment, n_segments, n_levels, n_classes, *, min_leaf=1, weight=None, min_weight=0.0
) -> CategoricalSearch:
    """Information gain of splitting each segment into one branch per value present in it.

    ``codes`` are the feature's values (``0 .. n_levels-1``), ``y`` the class codes and
    ``segment`` the segment of each row. Only branches that occur are counted, so a feature with
    many levels costs no more than one with few. Gain is the parent's entropy minus the
    size-weighted entropy of the branches; ``split_info`` is the entropy of the branch sizes.
    With ``weight`` (one per row) every count is a sum of weights; each branch then needs
    ``min_leaf`` rows and ``min_weight`` weight.
    """
    if weight is None:  # one count of (segment, value, class): the branches and their classes
        key = (segment.astype(np.int64) * n_levels + codes) * n_classes + y
        keys, count = count_keys(key, n_segments * n_levels * n_classes)
        cell, label = keys // n_classes, keys % n_classes  # (segment, value), class of each count
        new_branch = np.empty(len(cell), dtype=bool)
        new_branch[:1] = True
        np.not_equal(cell[1:], cell[:-1], out=new_branch[1:])
        branch_keys = cell[new_branch]
        branch = np.cumsum(new_branch) - 1
        table = np.zeros((len(branch_keys), n_classes), dtype=np.int64)
        table[branch, label] = count
        owner = branch_keys // n_levels  # the segment of each branch
        parent = class_counts(owner[branch] * n_classes + label, n_segments, n_classes, count)
        small = table.sum(axis=1) < min_leaf
    else:  # weighted: min_leaf counts rows, min_weight weighs the branch
        segment = segment.astype(np.int64)
        branch_keys, branch = dense_ranks(segment * n_levels + codes, n_segments * n_levels)
        n_branch = len(branch_keys)
        table = class_counts(branch * n_classes + y, n_branch, n_classes, weight)
        owner = branch_keys // n_levels  # the segment of each branch
        parent = class_counts(segment * n_classes + y, n_segments, n_classes, weight)
        rows = np.bincount(branch, minlength=n_branch)
        small = (rows < min_leaf) | (table.sum(axis=1) < min_weight)
    search = branch_search(table, owner, parent, small=small)
    return dataclasses.replace(search, branch_keys=branch_keys, table=table)


def branch_search(table, owner, parent, *, small) -> CategoricalSearch:
    """The multiway split of every segment from the class counts of its branches.

    ``table`` holds one row of class counts per non-empty branch, ``owner`` the segment of each
    (in segment order), ``parent`` the class counts of every segment (``(n_segments,
    n_classes)``) and ``small`` whether each branch is too small to stand (``min_leaf``). Gain
    is the parent's entropy minus the size-weighted entropy of the branches; ``split_info`` is
    the entropy of the branch sizes. A split is valid with two branches or more, none small.
    """
    n_segments = len(parent)
    sizes = table.sum(axis=1)
    n = np.bincount(owner, weights=sizes, minlength=n_segments)
    with np.errstate(invalid="ignore", divide="ignore"):
        after = np.bincount(owner, weights=sizes * entropy_rows(table), minlength=n_segments) / n
    n_branches = np.bincount(owner, minlength=n_segments)
    too_small = np.bincount(owner, weights=small, minlength=n_segments) > 0
    valid = (n_branches >= 2) & ~too_small
    return CategoricalSearch(
        valid=valid,
        gain=np.where(valid, np.maximum(entropy_rows(parent) - after, 0.0), np.nan),
        split_info=entropy_of_groups(sizes, owner, n_segments),
        n_branches=n_branches,
        overall_entropy=after,
    )
