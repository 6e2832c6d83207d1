"""The ``weighted`` search: rows with weights (``fit(sample_weight=)``), the float twin of the
integer searches."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from id3tree.base.entropy import entropy_rows, entropy_terms, log_base, xlogx_of_weights
from id3tree.engine.splits.results import TIE_TOLERANCE, ThresholdSearch, class_counts, ranges

__all__ = [
    "all_scores", "KEPT_CLASS_SUMS", "NEAR_BEST_ONLY", "near_best_scores", "search_weighted_cuts",
    "WeightedCuts",
]  # fmt: skip


class WeightedCuts:
    """Every cut point of many segments when each row has a weight (``fit(sample_weight=)``).

    The integer ``c log c`` table of :class:`Cuts` needs whole counts, so weights take this
    road: running sums of weight, one class at a time (memory stays linear in the rows, whatever
    the number of classes), and the entropy of both sides of every cut by Shannon's formula.
    Rows still decide *where* a cut may go (``min_leaf`` counts rows, as scikit-learn's
    ``min_samples_leaf``); weights decide what it is worth (``min_weight`` is the weight each
    side must hold, scikit-learn's ``min_weight_leaf``). Parameters are those of
    :func:`search_weighted_cuts`.
    """

    def __init__(
        self,
        step_up: Any,
        y: Any,
        weight: Any,
        starts: Any,
        lengths: Any,
        n_present: Any,
        n_classes: Any,
    ) -> None:
        m, n_seg = len(y), len(starts)
        self.starts, self.lengths, self.n_present = starts, lengths, n_present
        self.step_up, self.n_classes = step_up, n_classes
        self.segment = np.repeat(np.arange(n_seg), lengths)
        self.cell = self.segment * n_classes
        self.cell += y  # (in place: one row-sized temporary fewer)
        self.y, self.weight = y, weight
        self.parent = class_counts(self.cell, n_seg, n_classes, weight)
        self.has_missing = bool((n_present < lengths).any())
        self.present = self.parent  # (every row has a value: the same sums)
        if self.has_missing:
            present = self.offset < np.repeat(n_present, lengths)
            self.present = class_counts(self.cell[present], n_seg, n_classes, weight[present])
        self.missing = np.maximum(self.parent - self.present, 0.0)
        # the running sums of weight (cum_size[i]: the weight of rows [:i]) and of class 0's
        # weight (class_sum), as the real and imaginary parts of one complex running sum:
        # each part is summed on its own, to the bit as by two running sums, in half the time
        sums = np.zeros(m + 1, dtype=complex)
        sums.real[1:] = weight
        np.multiply(weight, y == 0, out=sums.imag[1:])
        np.cumsum(sums[1:], out=sums[1:])
        self.cum_size = sums.real  # (views with a stride: read by indexing, not by take)
        self.present_size = self.present.sum(axis=1)
        self._class_sums = {0: sums.imag}  # class -> its running sum of weight (a few classes)

    @property
    def offset(self) -> np.ndarray:
        """The position of each row in its segment (made when first asked for)."""
        if getattr(self, "_offset", None) is None:
            self._offset = np.arange(len(self.y)) - np.repeat(self.starts, self.lengths)
        return self._offset

    def candidates(self, min_leaf: int = 1, min_weight: float = 0.0) -> np.ndarray:
        """Positions where a cut may go: between two distinct present values, at least
        ``min_leaf`` rows and ``min_weight`` weight on each side."""
        if min_leaf == 1 and min_weight == 0:  # only the rises, less each segment's last
            valid = self.step_up.copy()  # present row and rows with no value
            valid[
                ranges(self.starts + np.maximum(self.n_present - 1, 0), self.starts + self.lengths)
            ] = False
            return np.flatnonzero(valid)
        n_present = np.repeat(self.n_present, self.lengths)
        valid = self.step_up & (self.offset < n_present - 1)
        if min_leaf > 1:
            valid &= (self.offset + 1 >= min_leaf) & (n_present - self.offset - 1 >= min_leaf)
        if min_weight > 0:
            left = self.cum_size[1:] - np.repeat(self.cum_size[self.starts], self.lengths)
            right = np.repeat(self.present_size, self.lengths) - left
            valid &= (left >= min_weight) & (right >= min_weight)
        return np.flatnonzero(valid)

    def score(self, pos: Any) -> Any:
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

    def weighted_scores(self, pos: Any) -> Any:
        """Segment and score of the cut after each position: ``w_left H_left + w_right H_right``
        (weight times bits), what :meth:`score` gives, by the formula written for counts,
        ``w H = w ln w - sum_k c_k ln c_k`` (:func:`~id3tree.base.entropy.xlogx_of_weights`): one
        logarithm per side and class and no division, where :meth:`score` takes the entropies
        apart; the last class's weights are what the others leave of each side's. The two agree
        to rounding (about ``1e-16 w ln w``), far inside the tie tolerance."""
        seg = self.segment[pos]
        at = pos + 1
        w_left = self.cum_size[at]
        w_left -= self.cum_size[self.starts].take(seg)
        w_right = self.present_size.take(seg)
        w_right -= w_left
        np.maximum(w_right, 0.0, out=w_right)
        nats = xlogx_of_weights(w_left)
        nats += xlogx_of_weights(w_right)
        rest_left, rest_right = w_left.copy(), w_right.copy()  # the last class's weights
        for k in range(self.n_classes - 1):
            cum = self.class_sum(k)
            left = cum[at]
            left -= cum[self.starts].take(seg)
            right = np.ascontiguousarray(self.present[:, k]).take(seg)
            right -= left
            np.maximum(right, 0.0, out=right)
            rest_left -= left
            rest_right -= right
            nats -= xlogx_of_weights(left)
            nats -= xlogx_of_weights(right)
        nats -= xlogx_of_weights(np.maximum(rest_left, 0.0, out=rest_left))
        nats -= xlogx_of_weights(np.maximum(rest_right, 0.0, out=rest_right))
        nats /= log_base(2.0)
        return seg, nats

    def class_sum(self, k: int) -> np.ndarray:
        """The running sum of the weights of class ``k``: ``out[i]``, the weight of its rows
        among rows ``[:i]`` (class 0's is summed with the weights, in ``__init__``). Kept for
        the next call for the first ``KEPT_CLASS_SUMS`` classes (the search scores in two
        rounds, :func:`near_best_scores`); the others are summed again, so memory stays linear
        in the rows, whatever the number of classes."""
        cum = self._class_sums.get(k)
        if cum is None:  # (each weight times 1 or 0: np.where's values, several times faster)
            cum = np.zeros(len(self.y) + 1)
            np.multiply(self.weight, self.y == k, out=cum[1:])
            np.cumsum(cum[1:], out=cum[1:])
            if k < KEPT_CLASS_SUMS:
                self._class_sums[k] = cum
        return cum

    def class_runs(self) -> np.ndarray:
        """The run of each position: runs of consecutive rows of one class in one segment,
        numbered in order (a new run wherever the class changes or a segment begins)."""
        change = np.empty(len(self.y), dtype=bool)
        change[:1] = True
        np.not_equal(self.y[1:], self.y[:-1], out=change[1:])
        change[self.starts[self.starts < len(change)]] = True
        return np.cumsum(change, dtype=np.int32 if len(change) < 2**31 else np.int64)

    def weight_error(self) -> float:
        """A bound on the rounding of any weight the search computes (a side's, or a class's
        on one side): each is a difference of running sums over the whole input (``m`` rows
        weighing ``W`` in all), each sum off by less than ``m eps W``; the last class's weight
        is what the others leave of its side's. Four times that, for ``k + 2`` weights."""
        eps = float(np.finfo(float).eps)
        return 4.0 * (len(self.y) + 2) * eps * float(self.cum_size[-1]) * (self.n_classes + 2)

    def rounding_margin(self) -> float:
        """A bound (weight times bits) on how far :meth:`weighted_scores` of any cut may lie
        from the exact ``w_left H_left + w_right H_right`` of its sides' true weights.

        Each of the ``2 (k + 1)`` terms ``x ln x`` moves by at most the weights' rounding
        (:meth:`weight_error`) times ``|ln error| + |ln W| + 2``, and its own rounding (a
        logarithm, a product, a sum) is a few ``eps`` of the largest term, ``W |ln W| + 1``.
        The margin is twice the sum of these worst cases: generous (the real rounding is far
        smaller), and infinite when the numbers are too large to bound."""
        eps, terms = float(np.finfo(float).eps), 2 * (self.n_classes + 1)
        total, error = float(self.cum_size[-1]), self.weight_error()
        with np.errstate(all="ignore"):
            per_term = error * (abs(math.log(error)) + abs(math.log(total + error)) + 2.0)
            per_term += 8.0 * terms * eps * (total * (abs(math.log(total)) + 1.0) + 1.0)
            margin = 2.0 * terms * per_term / math.log(2.0)
        return margin if math.isfinite(margin) else math.inf

    def left_counts(self, seg: Any, pos: Any) -> np.ndarray:
        """Class weights left of the cut after ``pos[i]`` in segment ``seg[i]``, summed afresh
        (not as a difference of running sums, so no rounding is carried over)."""
        left = ranges(self.starts[seg], pos + 1)  # (in order: the sums of a mask of them)
        counts = class_counts(
            self.cell.take(left), len(self.starts), self.n_classes, self.weight.take(left)
        )
        return counts[seg]


KEPT_CLASS_SUMS = 4
"""How many classes' running sums of weight :class:`WeightedCuts` keeps between its rounds of
scoring (one float a row each); those of further classes are summed again."""

NEAR_BEST_ONLY = True
"""The weighted search scores only the cuts that may be the best or tied with it
(:func:`near_best_scores`); off, every candidate cut (:func:`all_scores`), the plain way. Both
give the same search to the bit (tests/test_weights.py runs both, and grows trees both ways)."""


def all_scores(cuts: WeightedCuts, pos: Any, total: Any) -> Any:
    """Every candidate cut ``pos`` scored (:meth:`WeightedCuts.weighted_scores`): the positions,
    their segments and their scores. ``total`` (the weight of each segment) is not needed."""
    seg, scores = cuts.weighted_scores(pos)
    return pos, seg, scores


def near_best_scores(cuts: WeightedCuts, pos: Any, total: Any) -> Any:
    """:func:`all_scores` of the candidate cuts ``pos`` that may be their segment's best or tied
    with it (within ``TIE_TOLERANCE * total`` of it), each score to the bit what
    :func:`all_scores` gives it; the others are left out unscored.

    A cut is *inner* when the rows from the candidate cut before it to the one after it (in its
    segment) all hold one class. Along a run of inner cuts only that class's weight moves from
    the right side to the left, and ``g = w_left H_left + w_right H_right`` is then a concave
    function of the weight ``t`` moved (its second derivative, ``1 / w - 1 / c`` a side, is not
    positive: a class weighs at most its side). So an inner cut scores no lower than the chord
    between the two cuts that end its run: ``g(t) >= g(0) + t / T (g(T) - g(0))``, the better
    end's score plus the share of the run's weight that lies between the cut and that end,
    times how much worse the other end is. The ends (among them every segment's first and
    last cut) are scored first; an inner cut is scored only when that bound lies within the
    tolerance of its segment's best end, the bound lowered by the rounding of the scores and
    weights (:meth:`WeightedCuts.rounding_margin`, :meth:`WeightedCuts.weight_error`) so that
    the rule holds for the computed scores too. In sorted rows most cuts are inner (only the
    cuts where the class changes are not), and few lie near the best."""
    if len(pos) < 3:
        return all_scores(cuts, pos, total)
    ends = _run_ends(cuts, pos)
    if len(ends) == len(pos):  # (no inner cut)
        return all_scores(cuts, pos, total)
    seg, scores = cuts.weighted_scores(pos.take(ends))
    first = np.flatnonzero(np.r_[True, seg[1:] != seg[:-1]])
    limit = np.full(len(cuts.starts), np.inf)  # of each segment: its best end, widened
    limit[seg[first]] = np.minimum.reduceat(scores, first)
    limit += TIE_TOLERANCE * total
    near = _near_inner_cuts(cuts, pos, ends, seg, scores, limit)
    if not len(near):
        return pos.take(ends), seg, scores
    near_seg, near_scores = cuts.weighted_scores(pos.take(near))
    order = np.argsort(np.concatenate([ends, near]), kind="stable")  # (two sorted runs)
    return (
        pos.take(np.concatenate([ends, near]).take(order)),
        np.concatenate([seg, near_seg]).take(order),
        np.concatenate([scores, near_scores]).take(order),
    )


def _run_ends(cuts: WeightedCuts, pos: Any) -> np.ndarray:
    """The candidate cuts ``pos`` that are not inner (:func:`near_best_scores`), as indices
    into ``pos``: among them the first and last of every segment."""
    run = cuts.class_runs()  # (a new run at each segment: an inner cut's run is in its segment)
    end = np.ones(len(pos), dtype=bool)
    np.not_equal(run[1:].take(pos[:-2]), run.take(pos[2:]), out=end[1:-1])  # (run[1:]: after)
    return np.flatnonzero(end)


def _near_inner_cuts(
    cuts: WeightedCuts, pos: Any, ends: Any, seg: Any, scores: Any, limit: Any
) -> np.ndarray:
    """The inner cuts (indices into ``pos``) whose chord bound (:func:`near_best_scores`) may
    lie within ``limit`` of their segment; ``ends``: the other cuts, of segments ``seg`` and
    scores ``scores``.

    A run is left out whole when its better end lies beyond the limit, or when the bound of its
    inner cut nearest that end does: the share of the run's weight between an inner cut and the
    better end grows with the distance, and the bound with it."""
    margin = cuts.rounding_margin()
    runs = np.flatnonzero(ends[1:] - ends[:-1] > 1)  # run j: between ends j and j + 1
    low = np.minimum(scores.take(runs), scores.take(runs + 1)) - margin  # the better end
    runs = runs[low - margin <= limit.take(seg.take(runs))]
    before, after = ends.take(runs), ends.take(runs + 1)
    nearest = np.where(scores.take(runs) <= scores.take(runs + 1), before + 1, after - 1)
    runs = runs[_within(cuts, pos, ends, seg, scores, limit, runs, nearest, np.arange(len(runs)))]
    before, after = ends.take(runs), ends.take(runs + 1)
    near = ranges(before + 1, after)
    run = np.repeat(np.arange(len(runs)), after - before - 1)
    return near[_within(cuts, pos, ends, seg, scores, limit, runs, near, run)]


def _within(
    cuts: WeightedCuts,
    pos: Any,
    ends: Any,
    seg: Any,
    scores: Any,
    limit: Any,
    runs: Any,
    near: Any,
    run: Any,
) -> np.ndarray:
    """Whether the chord bound of each inner cut ``near[i]`` (an index into ``pos``) of the run
    ``runs[run[i]]`` (between ends ``j`` and ``j + 1``) may lie within ``limit`` of its segment
    (arguments as :func:`_near_inner_cuts` has them)."""
    margin, error = cuts.rounding_margin(), cuts.weight_error()
    before, after = ends.take(runs), ends.take(runs + 1)
    # the weight moved: from the end before (left of its cut) to each inner cut and the run's
    # whole weight, each up to its rounding
    start_weight = cuts.cum_size[pos.take(before) + 1]
    moved = cuts.cum_size[pos.take(near) + 1] - start_weight.take(run)
    whole = cuts.cum_size[pos.take(after) + 1] - start_weight
    score_before, score_after = scores.take(runs), scores.take(runs + 1)
    from_better = np.where((score_before <= score_after).take(run), moved, whole.take(run) - moved)
    share = np.maximum(from_better - error, 0.0) / (whole.take(run) + error)
    rise = np.maximum(np.abs(score_after - score_before) - 2.0 * margin, 0.0)
    low = np.minimum(score_before, score_after) - margin
    bound = low.take(run) + share * rise.take(run)
    bound -= 16.0 * np.finfo(float).eps * (np.abs(low).take(run) + rise.take(run))
    return bound - margin <= limit.take(seg.take(runs)).take(run)


def search_weighted_cuts(
    step_up: Any,
    y: Any,
    weight: Any,
    starts: Any,
    lengths: Any,
    n_present: Any,
    n_classes: Any,
    *,
    min_leaf: Any = 1,
    min_weight: Any = 0.0,
) -> ThresholdSearch:
    """:func:`search_cuts` with a positive weight per row.

    Class counts, entropies, gains, ``split_info`` and ``side_counts`` are sums of weights;
    ``n_left``, ``n_right`` and ``n_missing`` stay numbers of *rows* (the grower sends rows down
    by them, and ``min_samples_leaf`` counts rows). A cut needs ``min_leaf`` rows and
    ``min_weight`` weight on each side; the missing-values branch, when not empty, must weigh
    ``min_weight`` too (its rows are the caller's to check, as in :func:`search_cuts`).
    Ties: cuts whose overall entropies are within ``TIE_TOLERANCE`` bits; the first wins.
    """
    cuts = WeightedCuts(step_up, y, weight, starts, lengths, n_present, n_classes)
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
    if len(pos):  # (the scores: bits times weight)
        scored = near_best_scores if NEAR_BEST_ONLY else all_scores
        pos, seg, weighted = scored(cuts, pos, total)
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
