"""The ``weighted`` search: rows with weights (``fit(sample_weight=)``), the float twin of the
integer searches."""

from __future__ import annotations

import math

import numpy as np

from id3tree._entropy import entropy_rows, entropy_terms, log_base, xlogx
from id3tree.splits.results import TIE_TOLERANCE, ThresholdSearch, class_counts


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
        self._class_sums = {}  # class -> its running sum of weight (the first few classes)

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

    def weighted_scores(self, pos):
        """Segment and score of the cut after each position: ``w_left H_left + w_right H_right``
        (weight times bits), what :meth:`score` gives, by the formula written for counts,
        ``w H = w ln w - sum_k c_k ln c_k`` (:func:`~id3tree._entropy.xlogx`): one logarithm
        per side and class and no division, where :meth:`score` takes the entropies apart; the
        last class's weights are what the others leave of each side's. The two agree to
        rounding (about ``1e-16 w ln w``), far inside the tie tolerance."""
        seg = self.segment[pos]
        at = pos + 1
        w_left = self.cum_size.take(at)
        w_left -= self.cum_size.take(self.starts).take(seg)
        w_right = self.present_size.take(seg)
        w_right -= w_left
        np.maximum(w_right, 0.0, out=w_right)
        nats = xlogx(w_left)
        nats += xlogx(w_right)
        rest_left, rest_right = w_left.copy(), w_right.copy()  # the last class's weights
        for k in range(self.n_classes - 1):
            cum = self.class_sum(k)
            left = cum.take(at)
            left -= cum.take(self.starts).take(seg)
            right = np.ascontiguousarray(self.present[:, k]).take(seg)
            right -= left
            np.maximum(right, 0.0, out=right)
            rest_left -= left
            rest_right -= right
            nats -= xlogx(left)
            nats -= xlogx(right)
        nats -= xlogx(np.maximum(rest_left, 0.0, out=rest_left))
        nats -= xlogx(np.maximum(rest_right, 0.0, out=rest_right))
        nats /= log_base(2.0)
        return seg, nats

    def class_sum(self, k: int) -> np.ndarray:
        """The running sum of the weights of class ``k``: ``out[i]``, the weight of its rows
        among rows ``[:i]``. Kept for the next call for the first ``KEPT_CLASS_SUMS`` classes
        (the search scores in two rounds, :func:`near_best_scores`); the others are summed
        again, so memory stays linear in the rows, whatever the number of classes."""
        cum = self._class_sums.get(k)
        if cum is None:
            cum = np.zeros(len(self.y) + 1)
            np.cumsum(np.where(self.y == k, self.weight, 0.0), out=cum[1:])
            if k < KEPT_CLASS_SUMS:
                self._class_sums[k] = cum
        return cum

    def class_runs(self) -> np.ndarray:
        """The run of each position: runs of consecutive rows of one class, numbered in order
        (a new run wherever the class changes from the row before)."""
        change = np.empty(len(self.y), dtype=bool)
        change[:1] = True
        np.not_equal(self.y[1:], self.y[:-1], out=change[1:])
        return np.cumsum(change, dtype=np.int64)

    def rounding_margin(self) -> float:
        """A bound (weight times bits) on how far :meth:`weighted_scores` of any cut may lie
        from the exact ``w_left H_left + w_right H_right`` of its sides' true weights.

        Every class weight of a side is a difference of running sums over the whole input
        (``m`` rows weighing ``W`` in all), off by at most ``4 (m + 2) eps W`` each, ``k + 2``
        of them in the last class's; each of the ``2 (k + 1)`` terms ``x ln x`` moves by at most
        that error times ``|ln error| + |ln W| + 2``, and its own rounding (a logarithm, a
        product, a sum) is a few ``eps`` of the largest term, ``W |ln W| + 1``. The margin is
        twice the sum of these worst cases: generous (the real rounding is far smaller), and
        infinite when the numbers are too large to bound."""
        m, k, eps = len(self.y), self.n_classes, float(np.finfo(float).eps)
        total = float(self.cum_size[-1])
        error = 4.0 * (m + 2) * eps * total * (k + 2)
        terms = 2 * (k + 1)
        with np.errstate(all="ignore"):
            per_term = error * (abs(math.log(error)) + abs(math.log(total + error)) + 2.0)
            per_term += 8.0 * terms * eps * (total * (abs(math.log(total)) + 1.0) + 1.0)
            margin = 2.0 * terms * per_term / math.log(2.0)
        return margin if math.isfinite(margin) else math.inf

    def left_counts(self, seg, pos) -> np.ndarray:
        """Class weights left of the cut after ``pos[i]`` in segment ``seg[i]``, summed afresh
        (not as a difference of running sums, so no rounding is carried over)."""
        last = np.full(len(self.starts), -1, dtype=np.int64)
        last[seg] = pos - self.starts[seg]
        left = self.offset <= last[self.segment]
        counts = class_counts(self.cell[left], len(self.starts), self.n_classes, self.weight[left])
        return counts[seg]


KEPT_CLASS_SUMS = 4
"""How many classes' running sums of weight :class:`WeightedCuts` keeps between its rounds of
scoring (one float a row each); those of further classes are summed again."""

NEAR_BEST_ONLY = True
"""The weighted search scores only the cuts that may be the best or tied with it
(:func:`near_best_scores`); off, every candidate cut (:func:`all_scores`), the plain way. Both
give the same search to the bit (tests/test_weights.py runs both, and grows trees both ways)."""


def all_scores(cuts: WeightedCuts, pos, total):
    """Every candidate cut ``pos`` scored (:meth:`WeightedCuts.weighted_scores`): the positions,
    their segments and their scores. ``total`` (the weight of each segment) is not needed."""
    seg, scores = cuts.weighted_scores(pos)
    return pos, seg, scores


def near_best_scores(cuts: WeightedCuts, pos, total):
    """:func:`all_scores` of the candidate cuts ``pos`` that may be their segment's best or tied
    with it (within ``TIE_TOLERANCE * total`` of it), each score to the bit what
    :func:`all_scores` gives it; the others are left out unscored.

    A cut is *inner* when the rows from the candidate cut before it to the one after it (in its
    segment) all hold one class. Along a run of inner cuts only that class's weight moves from
    the right side to the left, and ``w_left H_left + w_right H_right`` is then a concave
    function of the weight moved (its second derivative, ``1 / w - 1 / c`` a side, is not
    positive: a class weighs at most its side): no inner cut scores lower than the better of
    the two cuts that end its run. So the other cuts (the ends, among them every segment's
    first and last) are scored first; a run is scored only when one of its ends lies within
    the tolerance of its segment's best end, widened by twice the rounding of the scores
    (:meth:`WeightedCuts.rounding_margin`), which makes the rule hold for the computed scores
    too. In sorted rows most cuts are inner (only the cuts where the class changes are not),
    and few runs end near the best."""
    n = len(pos)
    seg = cuts.segment.take(pos)
    inner = np.zeros(n, dtype=bool)
    if n > 2:
        run = cuts.class_runs()
        inside = pos[:-2] + 1  # the first row past the cut before
        np.equal(run.take(inside), run.take(pos[2:]), out=inner[1:-1])
        inner[1:-1] &= seg[:-2] == seg[2:]
    if not inner.any():
        return all_scores(cuts, pos, total)
    ends = np.flatnonzero(~inner)
    scores = np.empty(n)
    scores[ends] = cuts.weighted_scores(pos[ends])[1]
    end_seg = seg[ends]
    first = np.flatnonzero(np.r_[True, end_seg[1:] != end_seg[:-1]])
    limit = np.full(len(cuts.starts), np.inf)  # of each segment: its best end, widened
    limit[end_seg[first]] = np.minimum.reduceat(scores[ends], first)
    limit += TIE_TOLERANCE * total + 2.0 * cuts.rounding_margin()
    index = np.arange(n)
    before = np.maximum.accumulate(np.where(inner, 0, index))  # the end before each cut
    after = np.minimum.accumulate(np.where(inner, n - 1, index)[::-1])[::-1]  # and after it
    near = np.flatnonzero(inner)
    better_end = np.minimum(scores.take(before.take(near)), scores.take(after.take(near)))
    near = near[better_end <= limit.take(seg.take(near))]
    if len(near):
        scores[near] = cuts.weighted_scores(pos[near])[1]
    keep = ~inner
    keep[near] = True
    return pos[keep], seg[keep], scores[keep]


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
