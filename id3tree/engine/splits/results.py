"""What a split search finds, and the rule that breaks ties between cuts.

Every numeric search (see :mod:`id3tree.engine.splits.strategies`) scores the cuts of many nodes
("segments") at once and hands the winners to :func:`threshold_search`, which computes the
overall entropy and the gain of each winner from its exact class counts, by Shannon's formula.
The winner of a segment is chosen by :func:`best_cuts`: the lowest ``n`` times overall entropy,
cuts within ``TIE_TOLERANCE`` bits of it tied, and the first (smallest threshold) of the tied
ones wins.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from id3tree.base.entropy import (
    DENSE_CLASSES,
    XLOGX_KEPT_ENTRIES,
    entropy_of_counts,
    entropy_rows,
    n_entropy_units,
    tie_tolerance,
)
from id3tree.base.entropy import TIE_TOLERANCE as TIE_TOLERANCE  # (the tie rule's, re-exported)

__all__ = [
    "best_cuts", "class_counts", "cumsum0", "filled", "gain_ratios", "looked_up_tolerance",
    "NOT_A_CUT", "ranges", "RankedCuts", "scaled_cut_scores", "threshold_search", "ThresholdSearch",
]  # fmt: skip

NOT_A_CUT = np.iinfo(np.int64).max


def class_counts(cell: Any, n_segments: int, n_classes: int, weight: Any = None) -> np.ndarray:
    """Rows of each class in each segment, ``(n_segments, n_classes)``, from each row's
    ``segment * n_classes + class``; with ``weight`` (one per row), sums of weights (float)."""
    counts = np.bincount(cell, weights=weight, minlength=n_segments * n_classes)
    return counts.reshape(n_segments, n_classes)


def filled(shape: Any, value: Any, dtype: Any = np.float64) -> np.ndarray:
    """A new array of ``shape`` holding ``value`` everywhere (``np.full`` without its Python
    frames: a small fit makes several a level)."""
    array = np.empty(shape, dtype=dtype)
    array.fill(value)
    return array


def cumsum0(values: Any) -> np.ndarray:
    """Cumulative sum with a leading 0 (int64): ``out[i]`` is the sum of ``values[:i]``."""
    out = np.zeros(len(values) + 1, dtype=np.int64)
    values.cumsum(out=out[1:])
    return out


def ranges(starts: Any, stops: Any) -> np.ndarray:
    """The positions ``starts[i] : stops[i]`` of every i, one range after the other."""
    sizes = np.maximum(stops - starts, 0)
    ends = np.cumsum(sizes)
    return np.arange(int(ends[-1]) if len(ends) else 0) + np.repeat(starts - ends + sizes, sizes)


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
    with what the columns of their thresholds are made of (:func:`~id3tree.trace.thresholds.ranked_thresholds`): what
    the split search keeps for the trace (``rank=k``), so that no cut is scored twice."""

    segment: np.ndarray  # of each cut, increasing
    position: np.ndarray  # of each cut, the last entry left of it
    left: np.ndarray  # (cuts, classes): the class counts left of each cut
    present: np.ndarray  # (segments, classes): the class counts of the rows with a value
    parent: np.ndarray  # (segments, classes): the class counts of all rows
    n_thresholds: np.ndarray  # how many cuts each segment has (between two distinct values)
    # of each cut, the codes of the two values it lies between ((2, cuts): the counted search
    # knows them; None elsewhere, and once joined)
    beside: np.ndarray | None = None

    @staticmethod
    def joined(parts: list) -> RankedCuts:
        """The segments of ``parts``, one part after the other (positions as they are)."""
        n_segments = np.cumsum([0] + [len(p.present) for p in parts[:-1]])
        return RankedCuts(
            np.concatenate([p.segment + n for p, n in zip(parts, n_segments.tolist())]),
            np.concatenate([p.position for p in parts]),
            # (a class after another in memory, as thresholds._sides_of_ranked reads them)
            np.concatenate([p.left.T for p in parts], axis=1).T,
            *(np.concatenate([getattr(p, name) for p in parts]) for name in _RANKED_ARRAYS),
        )


_RANKED_ARRAYS = ("present", "parent", "n_thresholds")


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


def best_cuts(weighted: Any, starts: Any, lengths: Any, tolerance: Any) -> Any:
    """The winning cut of every group of candidates, by the tie rule.

    The cuts of group g are ``starts[g] : starts[g] + lengths[g]`` (every group non-empty), in
    threshold order, and ``weighted`` their integer scores (``NOT_A_CUT`` where no cut may
    go). Cuts within ``tolerance[g]`` of the group's lowest score are
    tied and the first (smallest threshold) wins. Returns the groups with a cut, the index of
    each one's winner, and the number of tied cuts of every group.
    """
    n_ties = np.zeros(len(starts), dtype=np.int64)
    if not len(starts):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), n_ties
    best = np.minimum.reduceat(weighted, starts)
    owner = (best < NOT_A_CUT).nonzero()[0]
    if not len(owner):
        return owner, np.zeros(0, dtype=np.int64), n_ties
    tied = weighted - best.repeat(lengths) <= tolerance.repeat(lengths)
    tied &= weighted < NOT_A_CUT
    n_ties[:] = np.add.reduceat(tied, starts)
    # the first tied cut of each group: the smallest index among its tied ones
    first = np.minimum.reduceat(np.where(tied, np.arange(len(tied)), len(tied)), starts)
    return owner, first[owner], n_ties


def threshold_search(
    owner: Any, left: Any, present: Any, missing: Any, n_ties: Any, found: Any = None, **extra: Any
) -> ThresholdSearch:
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


def gain_ratios(valid: Any, gain: Any, split_info: Any) -> np.ndarray:
    """C4.5's gain ratio, ``gain / split_info``, where the split is ``valid`` (0 for a split of
    one branch, whose split information is 0), NaN elsewhere."""
    return np.where(
        valid & (split_info > 0),
        gain / np.maximum(split_info, 1e-300),
        np.where(valid, 0.0, np.nan),
    )


def scaled_cut_scores(left: Any, right: Any, q: Any) -> np.ndarray:
    """``n_left H(left) + n_right H(right)`` of cuts given by the class counts of their sides
    (one row a cut), in the units of the ``c log c`` table ``q``: the
    :func:`~id3tree.base.entropy.n_entropy_units` of each side (the split search fed with counts)."""
    return n_entropy_units(q, left.sum(axis=1), left.T) + n_entropy_units(
        q, right.sum(axis=1), right.T
    )
