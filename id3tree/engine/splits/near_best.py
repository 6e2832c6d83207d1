"""The cuts that may be among the ``k`` best of each segment, from a search's exact scores.

The trace lists the best thresholds of every numeric candidate (``verbose=2``). The searches
score every cut anyway, so they keep the few that may rank among the ``k`` best
(:func:`near_best_cuts`, without sorting them all), and only those get their entropies computed
(:func:`~id3tree.trace.thresholds.ranked_thresholds`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from id3tree.engine.splits.results import NOT_A_CUT, RankedCuts, cumsum0, filled

__all__ = [
    "joined_parts", "left_counts_at", "margins", "near_best_cuts", "ranked_at", "ranked_cuts",
    "trace_scores",
]  # fmt: skip


def ranked_cuts(
    cuts: Any, weighted: Any, valid: Any, min_leaf: int, k: int, best: Any = None
) -> RankedCuts:
    """``ranked`` of :func:`~id3tree.engine.splits.sorted_rows.search_cuts`: the cuts that may be
    among the ``k`` best of each segment of ``cuts`` (a :class:`~id3tree.engine.splits.sorted_rows.Cuts`
    of whole segments, of rows or counted, whose scores with ``min_leaf`` are ``weighted``,
    ``valid`` where a cut may go), every cut between two distinct values counting (a
    ``min_leaf`` of 1, as the trace lists them); ``best``: where the search found each
    segment's best cut, when it has (see :func:`near_best_cuts`)."""
    score, valid = trace_scores(cuts, weighted, valid, min_leaf)
    totals = np.add.reduceat(valid, cuts.starts) if len(valid) else np.zeros(0, np.int64)
    margin = margins(cuts.rows, cuts.unit, cuts.n_classes)  # (sizes in rows, also when counted)
    _, pos = near_best_cuts(score, cuts.starts, cuts.lengths, k, margin, best)
    seg = cuts.segment[pos]
    return RankedCuts(seg, pos, left_counts_at(cuts, pos), cuts.present, cuts.parent, totals)


def trace_scores(cuts: Any, weighted: Any, valid: Any, min_leaf: int) -> tuple:
    """The scores the trace ranks ``cuts`` by (those of every cut between two distinct values,
    whatever ``min_leaf``) and where a cut may go, from the search's (``weighted`` and
    ``valid``, with ``min_leaf``): the same with a ``min_leaf`` of 1, else scored again."""
    if min_leaf == 1:
        return weighted, valid
    valid = cuts.valid()
    return cuts.score_all(valid), valid


def left_counts_at(cuts: Any, pos: Any) -> np.ndarray:
    """The class counts left of the cut after each of positions ``pos`` (increasing) of
    ``cuts``, a part's rows before it counted (its ``before``). With two classes, from the rank
    of each cut's last row among its class (:meth:`~id3tree.engine.splits.sorted_rows.Cuts.left_by_rank`,
    a few reads a cut); else by :func:`ranked_at` (its plain twin: one running count a class
    over every position)."""
    if cuts.n_classes == 2:
        return cuts.left_by_rank(pos)
    left = ranked_at(cuts, pos).left
    return left if cuts.before is None else left + cuts.before[cuts.segment[pos]]


def ranked_at(cuts: Any, pos: Any, n_thresholds: Any = None) -> RankedCuts:
    """The :class:`RankedCuts` of the cuts after positions ``pos`` (increasing) of ``cuts``
    (whole segments, or a part of one: then its rows before the part are not counted): the
    class counts of each one's left side from one running count per class (of rows, or of
    counted entries' rows)."""
    seg, starts = cuts.segment[pos], cuts.starts
    left = np.empty((len(pos), cuts.n_classes), dtype=np.int64)
    for k in range(cuts.n_classes):
        of_class = cuts.y == k if cuts.count is None else np.where(cuts.y == k, cuts.count, 0)
        before = cumsum0(of_class)  # rows of class k before each position
        left[:, k] = before[pos + 1] - before[starts[seg]]
    return RankedCuts(seg, pos, left, cuts.present, cuts.parent, n_thresholds)


def near_best_cuts(
    score: Any, starts: Any, lengths: Any, k: int, margin: Any, best: Any = None
) -> tuple:
    """The segments and positions (increasing) of the cuts that may be among the ``k`` best of their
    segment: segment s is ``score[starts[s] : starts[s] + lengths[s]]``, the exact integer
    scores of :class:`~id3tree.engine.splits.sorted_rows.Cuts` (``n H`` in the units of its table;
    the largest int64 where no cut may go).

    The cuts near each segment's ``k`` best are found without sorting them all
    (:func:`_near_best_in_blocks`), and only those within ``margin[s]`` (:func:`margins`) of a
    bound of each segment's ``k``-th best among them are kept. Short segments (a deep level's)
    have their ``k``-th best found at once (:func:`_near_best_of_short`); longer ones, when the
    search says where each one's best cut is (``best``: a position in each segment, or past
    it where there is none), from the cuts around it (:func:`_near_best_around`).
    """
    width = int(lengths.max(initial=0))
    if k <= width <= _BLOCK and len(starts) * width <= 2 * len(score) + 4096:
        return _near_best_of_short(score, starts, lengths, k, margin, width)
    if best is not None and k <= min(width, _WINDOW):
        around = _near_best_around_one if len(starts) == 1 else _near_best_around
        found = around(score, starts, lengths, k, margin, best)
        if found is not None:
            return found
    return _near_best_in_blocks(score, starts, lengths, k, margin)


_WINDOW = 32
"""How many cuts around each segment's best :func:`_near_best_around` reads first."""
_OFFSETS = np.arange(_WINDOW)


def _near_best_around(
    score: Any, starts: Any, lengths: Any, k: int, margin: Any, best: Any
) -> tuple | None:
    """A fast path of :func:`near_best_cuts` (its plain twin: :func:`_near_best_in_blocks`)
    where the search knows each segment's best cut (``best``): the scores change little from
    one cut to the next, so the ``k``-th best of the ``_WINDOW`` cuts around the best bounds
    the segment's ``k``-th best closely from above; one pass over ``score`` then keeps every
    cut within ``margin`` of that bound, and a segment with ``k`` of them below the bound (a
    better cut away from the best) has its ``k``-th best found exactly among them. None where a
    segment longer than the window holds fewer than ``k`` cuts in it (the caller falls back).
    """
    ends = starts + lengths
    first = np.minimum(np.maximum(best - _WINDOW // 2, starts), np.maximum(ends - _WINDOW, starts))
    short = lengths <= _WINDOW  # (the window is the whole segment, or more: from its start)
    window = score.take(first[:, None] + _OFFSETS, mode="clip")
    if short.any():
        np.copyto(window, NOT_A_CUT, where=_OFFSETS >= lengths[:, None])
    kth = np.partition(window, k - 1, axis=1)[:, k - 1]
    too_few = kth == NOT_A_CUT
    if too_few.any():
        if (too_few > short).any():  # a longer segment: its k-th best is elsewhere
            return None
        kth[too_few] = NOT_A_CUT - 1  # (fewer than k cuts: every one is kept)
    seg, pos = _every_within(score, starts, lengths, _plus_margin(kth, margin))
    near = score[pos]
    # a segment with k cuts below the window's k-th best: its own k-th best, among them
    beaten = np.bincount(seg[near < kth[seg]], minlength=len(starts)) >= k
    if beaten.any():
        mine = beaten[seg]  # (their cuts, segment after segment)
        n_near = np.bincount(seg[mine], minlength=len(starts))[beaten]
        kth[beaten] = _kth_bound(near[mine], n_near, k)
        kept = near <= _plus_margin(kth, margin)[seg]
        seg, pos = seg[kept], pos[kept]
    return seg, pos


def _near_best_around_one(
    score: Any, starts: Any, lengths: Any, k: int, margin: Any, best: Any
) -> tuple | None:
    """:func:`_near_best_around` of a single segment (the first levels of a large fit, a long
    segment's parts), its fast path: the same steps on the scores as one row, with scalar
    bounds (a slice for the window, a comparison with one number), none of the gathers that
    many segments need."""
    n, m = len(score), int(margin[0])
    first = min(max(int(best[0]) - _WINDOW // 2, 0), max(n - _WINDOW, 0))
    kth = int(np.partition(score[first : first + _WINDOW], k - 1)[k - 1])
    if kth == NOT_A_CUT:
        if n > _WINDOW:  # its k-th best is elsewhere
            return None
        kth = NOT_A_CUT - 1  # (fewer than k cuts: every one is kept)
    pos = np.flatnonzero(score <= min(kth, NOT_A_CUT - 1 - m) + m)
    near = score[pos]
    if np.count_nonzero(near < kth) >= k:  # its own k-th best, among them
        kth = int(np.partition(near, k - 1)[k - 1])
        pos = pos[near <= min(kth, NOT_A_CUT - 1 - m) + m]
    return np.zeros(len(pos), np.int64), pos


def _near_best_of_short(
    score: Any, starts: Any, lengths: Any, k: int, margin: Any, width: int
) -> tuple:
    """The fast path of :func:`near_best_cuts` for short segments (at most ``width`` entries,
    at least one with ``k``): a bound of each segment's ``k``-th best score (the score itself
    unless there are many segments, :func:`_kth_bound`), then every cut within ``margin`` of it,
    in one pass."""
    bound = _plus_margin(_kth_bound(score, lengths, k), margin)
    return _every_within(score, starts, lengths, bound)


def _every_within(score: Any, starts: Any, lengths: Any, bound: Any) -> tuple:
    """The segments and positions of every cut scoring at most its segment's ``bound``, by
    comparing every entry of ``score`` with it once."""
    pos = np.flatnonzero(score <= bound.repeat(lengths))
    return np.searchsorted(starts, pos, side="right") - 1, pos


def _near_best_in_blocks(score: Any, starts: Any, lengths: Any, k: int, margin: Any) -> tuple:
    """:func:`near_best_cuts` of segments of any length (the plain twin of
    :func:`_near_best_of_short`): the cuts in the blocks near each segment's best
    (:func:`_near_best`), then those within ``margin`` of a bound of the ``k``-th best among
    them."""
    seg, pos = _near_best(score, starts, lengths, k, margin)
    near = score[pos]
    kept = _within_margin(near, seg, len(starts), k, margin)
    return seg[kept], pos[kept]


def _plus_margin(bound: Any, margin: Any) -> np.ndarray:
    """``bound + margin`` (``bound`` below the largest int64, which marks no cut), kept below
    it."""
    return np.minimum(bound, NOT_A_CUT - 1 - margin) + margin


def margins(n_rows: Any, unit: float, n_classes: int) -> np.ndarray:
    """How far past a bound of its ``k``-th best score a segment of ``n_rows`` rows keeps its
    cuts: floats and the table's rounding may order near-equal cuts differently, and a margin
    of 1e-9 bits of overall entropy (and a few table units) keeps them all."""
    return np.ceil(1e-9 * np.asarray(n_rows) / unit).astype(np.int64) + 4 * (n_classes + 1)


def _within_margin(near: Any, seg: Any, n_segments: int, k: int, margin: Any) -> np.ndarray:
    """Which of the scores ``near`` (of segments ``seg``, increasing) are within ``margin`` of a
    bound of their segment's ``k``-th best among them."""
    kth = _kth_bound(near, np.bincount(seg, minlength=n_segments), k)
    return near - margin[seg] <= kth[seg]


def joined_parts(parts: list, k: int, margin: int) -> tuple:
    """The cuts that may be among the ``k`` best of one segment scored in parts, from each
    part's own (``parts``: ``(positions, scores, left class counts)`` of the cuts near each
    part's ``k`` best, by :func:`near_best_cuts` with the segment's ``margin``; at least one):
    the ``k`` best of the segment are among the ``k`` best of their parts, so the parts' cuts
    are ranked again together, with the same margin. Returns their positions and left class
    counts."""
    pos, score, left = (np.concatenate(column) for column in zip(*parts))
    kept = _within_margin(score, np.zeros(len(score), np.int64), 1, k, np.array([margin]))
    return pos[kept], left[kept]


_BLOCK = 32
"""The longest block of :func:`_near_best`."""


def _near_best(score: Any, starts: Any, lengths: Any, k: int, margin: Any) -> tuple:
    """The segments and positions of ``score`` (segment s is ``starts[s]:starts[s] +
    lengths[s]``, one after the other; the largest int64 where no cut may go) whose cut may be
    among the ``k`` best of its segment: every cut of a segment scoring at most a bound of its
    ``k``-th best plus ``margin`` of the segment, in increasing order.

    Each segment is cut into blocks of at most ``_BLOCK`` entries, at least ``k`` of them; the
    minima of ``k`` blocks are ``k`` entries, so the ``k``-th smallest block minimum bounds the
    ``k``-th smallest entry from above (a segment with fewer than ``k`` blocks keeps all its
    cuts). Only the blocks whose minimum is within the bound are read again, one pass over
    ``score`` and a look at the blocks' minima; where those blocks hold most of the entries
    (a level of small nodes), every entry is compared with its segment's bound instead, which
    reads ``score`` once more without gathering it.
    """
    size = np.clip(lengths // k, 1, _BLOCK)
    n_blocks = -(-lengths // size)
    first_block = np.cumsum(n_blocks) - n_blocks
    segment = np.repeat(np.arange(len(starts)), n_blocks)
    block_start = starts[segment] + (np.arange(len(segment)) - first_block[segment]) * size[segment]
    block_min = np.minimum.reduceat(score, block_start)
    bound = _plus_margin(_kth_bound(block_min, n_blocks, k), margin)
    # the blocks that hold a cut within their segment's bound
    near = np.flatnonzero(block_min <= bound[segment])
    block_end = np.minimum(block_start + size[segment], (starts + lengths)[segment])
    n_near = block_end[near] - block_start[near]
    total = int(n_near.sum())
    if 2 * total > len(score):  # most entries: every one against its segment's bound
        return _every_within(score, starts, lengths, bound)
    first = np.cumsum(n_near) - n_near
    pos = np.repeat(block_start[near] - first, n_near) + np.arange(total)
    seg = segment[near].repeat(n_near)
    kept = score[pos] <= bound[seg]
    return seg[kept], pos[kept]


def _kth_bound(score: Any, lengths: Any, k: int) -> np.ndarray:
    """An upper bound of the ``k``-th smallest valid score of every group of ``score`` (group
    g is the next ``lengths[g]`` entries; the largest int64 marks no cut): below the largest
    int64 always, and every score where a group has fewer than ``k`` valid ones.

    Up to ``_MOST_ROWS`` groups of a few entries each (what a level of small nodes has) have
    their ``k``-th smallest score itself, from a table of a row per group
    (:func:`_kth_in_rows`); others a bound from one sort of every entry
    (:func:`_kth_by_sorting`)."""
    width = int(lengths.max(initial=0))
    if width < k:  # no group has k scores
        return filled(len(lengths), NOT_A_CUT - 1, np.int64)
    if len(lengths) <= _MOST_ROWS and len(lengths) * width <= 4 * len(score) + 4096:
        return _kth_in_rows(score, lengths, k, width)  # (a table not mostly padding)
    return _kth_by_sorting(score, lengths, k)


_MOST_ROWS = 2048
"""The most groups :func:`_kth_bound` lays in a table (:func:`numpy.partition` spends some
0.3 us a row: one sort of every entry is faster beyond)."""


def _kth_in_rows(score: Any, lengths: Any, k: int, width: int) -> np.ndarray:
    """The fast path of :func:`_kth_bound`: the ``k``-th smallest score of each group, exactly
    (the largest int64 less one where a group has fewer than ``k`` valid ones), from a table
    of a row per group, padded with the largest int64 to ``width`` entries (at least ``k``),
    and one :func:`numpy.partition` of its rows."""
    first = np.cumsum(lengths) - lengths
    table = filled((len(lengths), width), NOT_A_CUT, np.int64)
    within = np.arange(len(score)) - first.repeat(lengths)
    table[np.arange(len(lengths)).repeat(lengths), within] = score
    kth = np.partition(table, k - 1, axis=1)[:, k - 1]
    return np.minimum(kth, NOT_A_CUT - 1)


def _kth_by_sorting(score: Any, lengths: Any, k: int) -> np.ndarray:
    """The plain twin of :func:`_kth_in_rows` (:func:`_kth_bound` of groups of any size): an
    upper bound of each group's ``k``-th smallest valid score by one sort of a single key, the
    group and the score's leading bits (above the lowest score): the ``k``-th entry of a group
    in that order has leading bits ``a``, and ``k`` of the group's scores lie below
    ``(a + 1) << shift`` (the score itself where the scores span at most 40 bits).
    """
    valid = score < NOT_A_CUT
    group = np.repeat(np.arange(len(lengths), dtype=np.int64), lengths)
    bound = np.full(len(lengths), NOT_A_CUT - 1, dtype=np.int64)
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
