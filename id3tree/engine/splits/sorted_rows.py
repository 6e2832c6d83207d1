"""The search of rows sorted by value, laid end to end: ``end_to_end`` and ``in_pieces``.

The rows of each node ("segment") are sorted by the feature's value. A cut after a row puts the
rows before it left and the rest right, and is scored by ``n`` times its overall entropy,
:func:`~id3tree.base.entropy.cut_entropy_units`. Moving the cut one row down changes the class counts
of both sides by one row of one class, so a running sum scores every cut of every segment in one
pass (:class:`Cuts`). :func:`search_cuts` does it at once; :func:`search_cuts_in_pieces` a piece
of rows at a time, for large data (same scores, same cuts).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import numpy as np

from id3tree.base.entropy import cut_entropy_units, scaled_xlogx
from id3tree.engine.splits.near_best import (
    joined_parts,
    left_counts_at,
    margins,
    near_best_cuts,
    ranked_cuts,
    trace_scores,
)
from id3tree.engine.splits.results import (
    NOT_A_CUT,
    RankedCuts,
    ThresholdSearch,
    best_cuts,
    class_counts,
    cumsum0,
    threshold_search,
    tie_tolerance,
)

__all__ = ["Cuts", "pieces", "search_cuts", "search_cuts_in_pieces"]


class Cuts:
    """Every cut point of many segments sorted by value, scored together in O(entries).

    A cut after position i puts the entries ``start .. i`` of its segment on the left. Its score
    is ``n`` times its overall entropy, ``n_left H(left) + n_right H(right)``, in the integer
    units of the table ``q`` of ``c log c`` (:func:`~id3tree.base.entropy.cut_entropy_units`):
    ``q[n_left] + q[n_right] - sum_k (q[left_k] + q[right_k])``. Moving one entry of class k from
    the right side to the left changes only ``left_k`` and ``right_k``, so the sum over classes
    is a running sum of one table step per entry: one cumulative sum scores every cut of every
    segment, whatever the number of classes. The sums are integers, so two cuts with the same
    class counts score exactly alike.

    An entry is one row, or with ``count`` a run of ``count[i]`` rows of one class and one value
    (the counted search of :func:`search_cuts`): its step is then ``q[c + count] - q[c]`` instead
    of ``q[c + 1] - q[c]``, and sizes are sums of counts. Parameters are those of
    :func:`search_cuts`.

    The entries may also be one *part* of a longer segment (rows only, one segment: how
    :func:`search_cuts` searches a segment too long to score at once): ``before`` holds the
    class counts of the segment's rows that precede the part, ``present`` the class counts of
    the whole segment's rows with a value, ``n_present`` counts them, and ``scale`` gives the
    ``(n_max, n_terms)`` of the whole search's table (:func:`~id3tree.base.entropy.scaled_xlogx`),
    so that every part is scored in the same units. Scores and sizes are then those of the whole
    segment; ``parent`` still counts the part's own rows.
    """

    def __init__(
        self, step_up: Any, y: Any, starts: Any, lengths: Any, n_present: Any, n_classes: Any, count: Any = None, *,
        before: Any = None, present: Any = None, scale: Any = None,
    ) -> None:  # fmt: skip
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
            self.rows_before = cumsum0(count)  # rows of all entries before each position
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
        self.rank = rank  # (read again by left_by_rank, for the trace)
        del above
        # one running sum of both: how much sum_k (q[left_k] + q[right_k]) has fallen by each
        # position (sum_k q[right_k] falls, sum_k q[left_k] rises), so that at the cut after
        # position i the sum is start_total - (fall[i + 1] - fall[start]), start_total being
        # the sum at the part's start (for a whole segment: 0 left, all of it right)
        right_step -= left_step
        del left_step
        self.fall = cumsum0(right_step)
        del right_step
        remaining = self.present if before is None else self.present - before
        self.start_total = self.q[remaining].sum(axis=1)
        if before is not None:
            self.start_total += self.q[before].sum(axis=1)

    def _class_counts(self, where: Any) -> np.ndarray:
        """Rows of each class in each segment, of the entries ``where`` selects (None: all)."""
        cell, count = self.cell, self.count
        if where is not None:
            cell, count = cell[where], (None if count is None else count[where])
        counts = class_counts(cell, len(self.starts), self.n_classes, count)
        return counts if count is None else counts.astype(np.int64)

    def n_left(self, pos: Any = None) -> np.ndarray:
        """Rows left of the cut after each position (``pos``; None: every position)."""
        if self.count is None:
            return self.offset + 1 if pos is None else self.offset[pos] + 1
        if pos is None:
            return self.rows_before[1:] - np.repeat(self.rows_before[self.starts], self.lengths)  # type: ignore[index]
        return self.rows_before[pos + 1] - self.rows_before[self.starts[self.segment[pos]]]  # type: ignore[index]

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

    def score_all(self, valid: Any) -> np.ndarray:
        """``n`` times the overall entropy of the cut after every position, in table units
        (:func:`~id3tree.base.entropy.cut_entropy_units`); the largest int64 where not ``valid``."""
        lengths = self.lengths
        n_left = self.n_left()
        n_right = self.rows_present.repeat(lengths) - n_left
        np.maximum(n_right, 0, out=n_right)  # (past the last present row: never valid)
        # sum_k (q[left_k] + q[right_k]) at every cut, from the running sum
        xlogx_of_sides = (self.start_total + self.fall[self.starts]).repeat(lengths)
        xlogx_of_sides -= self.fall[1:]
        weighted = cut_entropy_units(self.q, n_left, n_right, xlogx_of_sides)
        weighted[~valid] = NOT_A_CUT
        return weighted

    def left_counts(self, seg: Any, pos: Any) -> np.ndarray:
        """Exact class counts left of the cut after ``pos[i]`` in segment ``seg[i]`` (rows: seg)."""
        last = np.full(len(self.starts), -1, dtype=np.int64)
        last[seg] = pos - self.starts[seg] + self.offset[self.starts[seg]]
        left = self._class_counts(self.offset <= last[self.segment])[seg]
        return left if self.before is None else left + self.before[seg]

    def left_by_rank(self, pos: Any) -> np.ndarray:
        """Exact class counts (two classes) left of the cut after each of positions ``pos``,
        the rows of a part's segment before it counted: the rows of its last entry's class
        from that entry's rank among them, the other class's the rest (the fast path of
        :func:`~id3tree.engine.splits.near_best.left_counts_at`)."""
        own = self.rank[pos] + (1 if self.count is None else self.count[pos])
        n_left = self.n_left(pos)
        left = np.empty((len(pos), 2), dtype=np.int64)
        left[:, 1] = np.where(self.y[pos] == 1, own, n_left - own)
        np.subtract(n_left, left[:, 1], out=left[:, 0])
        return left


def _rank_in_segment_and_class(
    y: Any,
    segment: Any,
    offset: Any,
    starts: Any,
    counts: Any,
    count: Any = None,
    before: Any = None,
) -> np.ndarray:
    """For each entry, how many rows of the same class come before it in its segment
    (``count``: rows of each entry, None for one row each; ``before``: the class counts of
    each segment's rows before its first entry, None for none, as :class:`Cuts`)."""
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


def search_cuts(
    step_up: Any,
    y: Any,
    starts: Any,
    lengths: Any,
    n_present: Any,
    n_classes: Any,
    *,
    min_leaf: Any = 1,
    count: Any = None,
    rank: Any = 0,
) -> ThresholdSearch:
    """Best cut of every segment by lowest overall entropy; ties go to the first (smallest) cut.

    Entries of segment s are ``starts[s] : starts[s] + lengths[s]`` (every segment non-empty),
    sorted by value with the ``n_present[s]`` non-missing entries first; ``y`` holds class codes
    ``0 .. n_classes-1``; ``step_up[i]`` says the value at ``i + 1`` is larger than at ``i``.
    An entry is one row, or with ``count`` the ``count[i]`` rows of one (value, class) pair of the
    segment (the counted search: one entry per value and class present instead of one per row).
    Returns the position (entry) of each best cut; ``n_left``, ``n_right``, ``n_missing`` count
    rows (``threshold`` is left NaN: the caller knows the values).

    With ``rank=k``, the search also keeps what the trace ranks the ``k`` best thresholds of
    each segment from (``ranked``, :func:`~id3tree.engine.splits.near_best.near_best_cuts` of its own
    scores, every cut between two distinct values counting whatever ``min_leaf``; counted:
    positions are entries): a search for the trace scores no cut twice. ``ranked`` is None
    where it was not asked for.

    This is the ``end_to_end`` strategy of :mod:`id3tree.engine.splits.strategies`: its temporaries
    take about 100 bytes a row, so large data goes to :func:`search_cuts_in_pieces` instead.
    """
    cuts = Cuts(step_up, y, starts, lengths, n_present, n_classes, count)
    owner, at, n_ties, ranked = _best_of(cuts, min_leaf, rank)
    position = np.full(len(starts), -1, dtype=np.int64)
    position[owner] = at
    left = cuts.left_counts(owner, at)
    return threshold_search(
        owner, left, cuts.present, cuts.missing, n_ties, position=position, ranked=ranked
    )


def _best_of(cuts: Cuts, min_leaf: int, rank: int) -> tuple:
    """The winning cut of every segment of ``cuts`` by the tie rule (the segments with a cut,
    the position of each one's winner, every segment's number of tied cuts) and, with
    ``rank=k``, the cuts that may be among each segment's ``k`` best (else None)."""
    valid = cuts.valid(min_leaf)
    weighted = cuts.score_all(valid)
    tolerance = tie_tolerance(cuts.rows, cuts.unit)  # sizes in rows, also when counted
    owner, at, n_ties = best_cuts(weighted, cuts.starts, cuts.lengths, tolerance)
    ranked = None
    if rank:
        best = cuts.starts + cuts.lengths  # (past its segment: no cut)
        best[owner] = at
        ranked = ranked_cuts(cuts, weighted, valid, min_leaf, rank, best)
    return owner, at, n_ties, ranked


def pieces(starts: Any, lengths: Any, piece_rows: int) -> Iterator[Any]:
    """The pieces a long input is searched or ranked in: runs of whole segments (segment s is
    ``starts[s] : starts[s] + lengths[s]``, one after the other), as many as fit in
    ``piece_rows`` rows, a longer segment alone. Yields ``(segments, rows)``, two slices."""
    ends = starts + lengths
    s = 0
    while s < len(starts):
        stop = max(int(np.searchsorted(ends, starts[s] + piece_rows, side="right")), s + 1)
        yield slice(s, stop), slice(int(starts[s]), int(ends[stop - 1]))
        s = stop


def search_cuts_in_pieces(
    step_up: Any,
    y: Any,
    starts: Any,
    lengths: Any,
    n_present: Any,
    n_classes: Any,
    *,
    min_leaf: Any = 1,
    rank: Any = 0,
    piece_rows: int,
) -> ThresholdSearch:
    """:func:`search_cuts` of many rows, ``piece_rows`` rows at a time (the same result): the
    ``in_pieces`` strategy of :mod:`id3tree.engine.splits.strategies`, whose temporaries stay a few MB
    however large the data.

    Segments are taken in order, as many whole ones at a time as fit in ``piece_rows`` rows; a
    longer segment is searched alone, in parts of ``piece_rows`` rows (:func:`_search_long`).
    Every piece is scored in the units of the whole search's table, so the integer scores, and
    the ties between them, are exactly those of one search of everything; so are the cuts kept
    for the trace (``ranked``, ``rank=k``), a long segment's ranked from the best of its parts.
    """
    n_seg = len(starts)
    scale = (int(lengths.max()), int(lengths.sum()))  # the table of one search of everything
    position = np.full(n_seg, -1, dtype=np.int64)
    n_ties = np.zeros(n_seg, dtype=np.int64)
    present = np.zeros((n_seg, n_classes), dtype=np.int64)
    missing = np.zeros((n_seg, n_classes), dtype=np.int64)
    owners, lefts = [], []
    near = []  # (rank: the ranked cuts of each piece)
    for part, piece in pieces(starts, lengths, piece_rows):
        s = part.start
        if lengths[s] > piece_rows:  # alone in its piece
            at, n_ties[s], left, present[s], missing[s], ranked = _search_long(
                step_up, y, starts[s], lengths[s], n_present[s], n_classes, min_leaf, scale,
                piece_rows, rank=rank,
            )  # fmt: skip
            if rank:
                near.append(ranked)
            if at >= 0:
                position[s] = at
                owners.append(np.array([s]))
                lefts.append(left[None])
            continue
        cuts = Cuts(
            step_up[piece], y[piece], starts[part] - starts[s], lengths[part], n_present[part],
            n_classes, scale=scale,
        )  # fmt: skip
        owner, at, n_ties[part], ranked = _best_of(cuts, min_leaf, rank)
        if rank:
            near.append(dataclasses.replace(ranked, position=ranked.position + piece.start))
        position[owner + s] = at + piece.start
        owners.append(owner + s)
        lefts.append(cuts.left_counts(owner, at))
        present[part], missing[part] = cuts.present, cuts.missing
    owner = np.concatenate(owners) if owners else np.zeros(0, dtype=np.int64)
    left = np.concatenate(lefts) if lefts else np.zeros((0, n_classes), dtype=np.int64)
    ranked = RankedCuts.joined(near) if rank else None
    return threshold_search(owner, left, present, missing, n_ties, position=position, ranked=ranked)


def _search_long(
    step_up: Any,
    y: Any,
    start: Any,
    length: Any,
    n_present: Any,
    n_classes: Any,
    min_leaf: Any,
    scale: Any,
    piece_rows: Any,
    rank: Any = 0,
) -> Any:
    """The best cut of one segment longer than ``piece_rows`` rows, scored in parts of
    ``piece_rows`` rows that carry the class counts of the rows before them.

    Cuts are tied when within the tolerance of the segment's best; a part cannot know that best,
    so each keeps its cuts within the tolerance of its own best (a superset of the ones that
    count) and the ties are settled at the end; so are the cuts near the ``rank`` best, for
    the trace (:func:`~id3tree.engine.splits.near_best.joined_parts`). Returns the winning position
    (-1 for none), the number of tied cuts, the class counts left of the winner, the segment's
    class counts with a value (present) and without (missing), and with ``rank=k`` its
    :class:`RankedCuts` (positions as ``y`` numbers them; else None).
    """
    start, length, n_present = int(start), int(length), int(n_present)
    present = np.bincount(y[start : start + n_present], minlength=n_classes).astype(np.int64)
    missing = np.bincount(y[start + n_present : start + length], minlength=n_classes)
    before = np.zeros((1, n_classes), dtype=np.int64)
    near_position, near_score = [], []
    trace = _LongRanking(rank, length, n_classes)
    for lo in range(start, start + min(length, n_present), piece_rows):
        hi = min(lo + piece_rows, start + length)
        cuts = Cuts(
            step_up[lo:hi], y[lo:hi], np.array([0]), np.array([hi - lo]), np.array([n_present]),
            n_classes, before=before, present=present[None], scale=scale,
        )  # fmt: skip
        tolerance = int(tie_tolerance(length, cuts.unit))
        valid = cuts.valid(min_leaf)
        weighted = cuts.score_all(valid)
        best = weighted.min()
        near = np.zeros(0, np.int64)
        if best < NOT_A_CUT:
            near = np.flatnonzero(weighted <= best + tolerance)
            near_position.append(near + lo)
            near_score.append(weighted[near])
        if rank:  # (the part's first tied cut: where its best is, for near_best_cuts)
            trace.add(cuts, weighted, valid, min_leaf, lo, near[:1])
        before = before + cuts.parent
    missing = missing.astype(np.int64)
    ranked = trace.ranked(present, missing) if rank else None
    left = np.zeros(n_classes, dtype=np.int64)
    if not near_score:
        return -1, 0, left, present, missing, ranked
    score, position = np.concatenate(near_score), np.concatenate(near_position)
    tied = score <= score.min() + tolerance
    at = int(position[np.argmax(tied)])  # the first of the tied cuts
    left[:] = np.bincount(y[start : at + 1], minlength=n_classes)
    return at, int(tied.sum()), left, present, missing, ranked


class _LongRanking:
    """The cuts near the ``k`` best of a segment searched in parts (:func:`_search_long`), for
    the trace: each part's own near its best, ranked together at the end
    (:func:`~id3tree.engine.splits.near_best.joined_parts`)."""

    def __init__(self, k: int, length: int, n_classes: int) -> None:
        self.k, self.length, self.n_classes = k, length, n_classes
        self.margin = np.zeros(1, dtype=np.int64)  # (the table's unit is known with a part)
        self.n_thresholds = 0
        self.parts = [(np.zeros(0, np.int64),) * 2 + (np.zeros((0, n_classes), np.int64),)]

    def add(self, cuts: Cuts, weighted: Any, valid: Any, min_leaf: int, lo: int, best: Any) -> None:
        """The cuts near the ``k`` best of a part (``cuts``, scored ``weighted`` with
        ``min_leaf``, ``valid`` where a cut may go, from position ``lo`` on; ``best``: where
        the search found the part's best cut, empty where it found none)."""
        self.margin = margins(np.array([self.length]), cuts.unit, self.n_classes)
        score, valid = trace_scores(cuts, weighted, valid, min_leaf)
        self.n_thresholds += int(np.count_nonzero(valid))
        best = best if len(best) else cuts.lengths  # (past the part: no cut)
        _, pos = near_best_cuts(score, cuts.starts, cuts.lengths, self.k, self.margin, best)
        self.parts.append((pos + lo, score[pos], left_counts_at(cuts, pos)))

    def ranked(self, present: Any, missing: Any) -> RankedCuts:
        """The :class:`RankedCuts` of the segment (``present``, ``missing``: its class counts
        with a value and without)."""
        pos, left = joined_parts(self.parts, self.k, int(self.margin[0]))
        parent = (present + missing)[None]
        return RankedCuts(
            np.zeros(len(pos), np.int64), pos, left, present[None], parent,
            np.array([self.n_thresholds]),
        )  # fmt: skip
