"""Split search: where to cut a numeric feature, and what a categorical split is worth.

Numeric features are cut in two at a midpoint between adjacent distinct values, choosing the
midpoint of lowest *overall entropy* (the sample-weighted entropy of the sides). Two versions live
here and a property test proves them equal:

* :func:`plain_candidate_splits` scores every midpoint from scratch, one at a time. Read it first.
* :func:`search_thresholds` does the same for many nodes ("segments") at once: the rows of each
  node are sorted by value, cumulative class counts give the counts left of every midpoint in one
  pass, and the entropies of every prefix and suffix are computed together. The learner uses it.

Missing values (NaN) sit at the end of each segment. They form a third branch of their own: they
count in the overall entropy and the gain, but never decide where the threshold goes.

Ties: thresholds whose overall entropy is within ``TIE_TOLERANCE`` bits of the best are tied,
and the smallest threshold wins.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from id3tree._entropy import entropy_of_counts, entropy_of_groups, entropy_rows

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
class _Prefix:
    """Cumulative class counts of values sorted within segments (NaN last in each segment).

    Counts are kept class by class (``cum[k, i]`` = rows of class k among the first i), so every
    array the search touches is one-dimensional and contiguous.
    """

    def __init__(self, values, y, starts, lengths, n_classes):
        m = len(values)
        self.values, self.starts, self.lengths = values, starts, lengths
        self.segment = np.repeat(np.arange(len(starts)), lengths)
        self.cum = np.zeros((n_classes, m + 1), dtype=np.int64)
        for k in range(n_classes):
            np.cumsum(y == k, out=self.cum[k, 1:])
        present = ~np.isnan(values)
        # non-missing values per segment (NaN sort last, so they are a suffix)
        self.n_present = np.add.reduceat(present, starts) if m else np.zeros(len(starts), np.int64)
        ends = starts + lengths
        present_end = starts + self.n_present
        self.parent = (self.cum[:, ends] - self.cum[:, starts]).T
        self.missing = (self.cum[:, ends] - self.cum[:, present_end]).T
        self.present_total = self.cum[:, present_end] - self.cum[:, starts]

    def candidates(self, min_leaf: int = 1) -> np.ndarray:
        """Positions i (left side = segment start .. i) that are valid cut points."""
        v = self.values
        offset = np.arange(len(v)) - self.starts[self.segment]  # position inside the segment
        n_present = self.n_present[self.segment]
        valid = offset < n_present - 1  # both neighbours present...
        valid[:-1] &= v[:-1] < v[1:]  # ...and distinct
        if min_leaf > 1:
            valid &= (offset + 1 >= min_leaf) & (n_present - offset - 1 >= min_leaf)
        return np.flatnonzero(valid)

    def score(self, pos):
        """Sizes and entropies of both sides of the cut after each position in ``pos``."""
        seg = self.segment[pos]
        start = self.starts[seg]
        n_left = pos + 1 - start
        n_right = self.n_present[seg] - n_left
        left = [self.cum[k, pos + 1] - self.cum[k, start] for k in range(len(self.cum))]
        right = [self.present_total[k, seg] - left[k] for k in range(len(self.cum))]
        return (
            seg,
            n_left,
            n_right,
            entropy_of_counts(left, n_left),
            entropy_of_counts(right, n_right),
        )


@dataclass(frozen=True)
class ThresholdSearch:
    """The best threshold of each segment (arrays of one entry per segment)."""

    found: np.ndarray  # bool: at least one valid threshold
    threshold: np.ndarray  # float, NaN where not found
    overall_entropy: np.ndarray
    gain: np.ndarray
    split_info: np.ndarray  # entropy of the branch sizes (left, right, missing)
    n_left: np.ndarray
    n_right: np.ndarray
    n_missing: np.ndarray
    n_ties: np.ndarray  # how many thresholds share the best overall entropy
    # for the trace (None from searches that do not provide them):
    low: np.ndarray | None = None  # the two adjacent values the threshold lies between
    high: np.ndarray | None = None
    side_counts: np.ndarray | None = None  # (n_segments, 3, n_classes): left, right, missing


def search_thresholds(values, y, starts, lengths, n_classes, *, min_leaf=1) -> ThresholdSearch:
    """Best midpoint of every segment by lowest overall entropy; ties go to the smallest threshold.

    ``values`` must be sorted within each segment with NaN last; ``y`` holds class codes
    ``0 .. n_classes-1`` in the same order; segment s is ``starts[s] : starts[s] + lengths[s]``
    (every segment non-empty).
    """
    pre = _Prefix(values, y, starts, lengths, n_classes)
    n_seg = len(starts)
    n_missing = lengths - pre.n_present
    missing_part = n_missing * entropy_rows(pre.missing)
    parent_entropy = entropy_rows(pre.parent)

    found = np.zeros(n_seg, dtype=bool)
    threshold = np.full(n_seg, np.nan)
    overall = np.full(n_seg, np.nan)
    n_left = np.zeros(n_seg, dtype=np.int64)
    n_ties = np.zeros(n_seg, dtype=np.int64)
    low, high = np.full(n_seg, np.nan), np.full(n_seg, np.nan)
    side_counts = np.zeros((n_seg, 3, n_classes), dtype=np.int64)
    side_counts[:, 2] = pre.missing
    pos = pre.candidates(min_leaf)
    if len(pos):
        seg, nl, nr, h_left, h_right = pre.score(pos)
        weighted = nl * h_left + nr * h_right  # n * overall entropy, less the missing part
        first = np.flatnonzero(np.r_[True, seg[1:] != seg[:-1]])  # first candidate of a segment
        best = np.minimum.reduceat(weighted, first)
        owner = seg[first]
        tied = weighted <= best[np.searchsorted(owner, seg)] + TIE_TOLERANCE * lengths[seg]
        n_ties[owner] = np.add.reduceat(tied, first)
        winners = np.flatnonzero(tied)
        winners = winners[np.r_[True, seg[winners][1:] != seg[winners][:-1]]]  # smallest threshold
        at = pos[winners]
        found[owner] = True
        low[owner], high[owner] = values[at], values[at + 1]
        threshold[owner] = midpoint(low[owner], high[owner])
        left = (pre.cum[:, at + 1] - pre.cum[:, starts[owner]]).T
        side_counts[owner, 0] = left
        side_counts[owner, 1] = pre.present_total[:, owner].T - left
        n_left[owner] = nl[winners]
        overall[owner] = (weighted[winners] + missing_part[owner]) / lengths[owner]
    n_right = np.where(found, pre.n_present - n_left, 0)
    split_info = entropy_rows(np.stack([n_left, n_right, np.where(found, n_missing, 0)], axis=1))
    return ThresholdSearch(
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
        side_counts=side_counts,
    )


def enumerate_thresholds(values, y, starts, lengths, n_classes) -> dict[str, np.ndarray]:
    """Every candidate midpoint of every segment, in segment then threshold order.

    Same inputs as :func:`search_thresholds`; returns the columns of ``candidate_splits`` plus
    ``segment``, and ``low`` and ``high``, the adjacent values each threshold lies between.
    """
    pre = _Prefix(values, y, starts, lengths, n_classes)
    pos = pre.candidates()
    seg, nl, nr, h_left, h_right = pre.score(pos)
    n_missing = lengths - pre.n_present
    missing_part = (n_missing * entropy_rows(pre.missing))[seg]
    overall = (nl * h_left + nr * h_right + missing_part) / lengths[seg]
    return {
        "segment": seg,
        "threshold": midpoint(values[pos], values[pos + 1]),
        "low": values[pos],
        "high": values[pos + 1],
        "n_left": nl,
        "n_right": nr,
        "entropy_left": h_left,
        "entropy_right": h_right,
        "overall_entropy": overall,
        "gain": np.maximum(entropy_rows(pre.parent)[seg] - overall, 0.0),
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
    if size <= 4 * len(key) + 4096:
        present = np.bincount(key, minlength=size) > 0
        return np.flatnonzero(present), (np.cumsum(present) - 1)[key]
    distinct, rank = np.unique(key, return_inverse=True)
    return distinct, rank.ravel()


def score_categorical(
    codes, y, segment, n_segments, n_levels, n_classes, *, min_leaf=1
) -> CategoricalSearch:
    """Information gain of splitting each segment into one branch per value present in it.

    ``codes`` are the feature's values (``0 .. n_levels-1``), ``y`` the class codes and
    ``segment`` the segment of each row. Only branches that occur are counted, so a feature with
    many levels costs no more than one with few. Gain is the parent's entropy minus the
    size-weighted entropy of the branches; ``split_info`` is the entropy of the branch sizes.
    """
    segment = segment.astype(np.int64)
    branch_keys, branch = dense_ranks(segment * n_levels + codes, n_segments * n_levels)
    n_branch = len(branch_keys)
    table = np.bincount(branch * n_classes + y, minlength=n_branch * n_classes).reshape(
        n_branch, n_classes
    )
    owner = branch_keys // n_levels  # the segment of each branch
    sizes = table.sum(axis=1)
    n = np.bincount(owner, weights=sizes, minlength=n_segments)
    parent = entropy_rows(
        np.bincount(segment * n_classes + y, minlength=n_segments * n_classes).reshape(
            -1, n_classes
        )
    )
    with np.errstate(invalid="ignore", divide="ignore"):
        after = np.bincount(owner, weights=sizes * entropy_rows(table), minlength=n_segments) / n
    n_branches = np.bincount(owner, minlength=n_segments)
    too_small = np.bincount(owner, weights=sizes < min_leaf, minlength=n_segments) > 0
    valid = (n_branches >= 2) & ~too_small
    return CategoricalSearch(
        valid=valid,
        gain=np.where(valid, np.maximum(parent - after, 0.0), np.nan),
        split_info=entropy_of_groups(sizes, owner, n_segments),
        n_branches=n_branches,
        overall_entropy=after,
        branch_keys=branch_keys,
        table=table,
    )
