"""Every threshold of a numeric feature, or the best ones: what ``candidate_splits``,
``candidate_table`` and the trace list."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from id3tree.base.entropy import DENSE_CLASSES, entropy_of_counts, entropy_rows
from id3tree.engine.splits.near_best import ranked_at
from id3tree.engine.splits.plain import midpoint
from id3tree.engine.splits.results import RankedCuts, ThresholdSearch
from id3tree.engine.splits.sorted_rows import Cuts
from id3tree.engine.splits.strategies import search_sorted
from id3tree.engine.splits.weighted import WeightedCuts

__all__ = [
    "columns_of_ranked", "enumerate_thresholds", "prepared", "search_thresholds", "sides_of_ranked",
]  # fmt: skip


def _steps_and_present(values: Any, starts: Any, lengths: Any) -> Any:
    """``step_up`` and ``n_present`` of
    :func:`~id3tree.engine.splits.sorted_rows.search_cuts` for values sorted within segments."""
    step_up = np.zeros(len(values), dtype=bool)
    np.less(values[:-1], values[1:], out=step_up[:-1])  # NaN compares False
    missing = np.isnan(values)
    n_missing = np.add.reduceat(missing, starts) if len(values) else np.zeros(len(starts), int)
    return step_up, lengths - n_missing


def search_thresholds(
    values: Any, y: Any, starts: Any, lengths: Any, n_classes: Any, *, min_leaf: Any = 1
) -> ThresholdSearch:
    """Best midpoint of every segment by lowest overall entropy; ties go to the smallest threshold.

    ``values`` must be sorted within each segment with NaN last; ``y`` holds class codes
    ``0 .. n_classes-1`` in the same order; segment s is ``starts[s] : starts[s] + lengths[s]``
    (every segment non-empty).
    """
    values = np.asarray(values, dtype=float)
    starts, lengths = np.asarray(starts), np.asarray(lengths)
    step_up, n_present = _steps_and_present(values, starts, lengths)
    found = search_sorted(
        step_up, np.asarray(y), starts, lengths, n_present, n_classes, min_leaf=min_leaf
    )
    at = found.position[found.found]  # type: ignore[index]  # (found: kept)
    threshold = found.threshold.copy()
    threshold[found.found] = midpoint(values[at], values[at + 1])
    low, high = np.full(len(starts), np.nan), np.full(len(starts), np.nan)
    low[found.found], high[found.found] = values[at], values[at + 1]
    return dataclasses.replace(found, threshold=threshold, position=None, low=low, high=high)


def enumerate_thresholds(
    values: Any, y: Any, starts: Any, lengths: Any, n_classes: Any, weight: Any = None
) -> dict[str, np.ndarray]:
    """Every candidate midpoint of every segment, in segment then threshold order.

    Same inputs as :func:`search_thresholds`; returns the columns of ``candidate_splits`` plus
    ``segment``, and ``low`` and ``high``, the adjacent values each threshold lies between.
    Each side's entropy comes from its class counts (kept for every cut: this is
    for showing the candidates, not for searching them). With ``weight`` (one per row), the
    sizes and entropies are sums of weights (:func:`_enumerate_weighted_thresholds`).
    """
    if weight is not None:
        values, y, starts, lengths, step_up, n_present = prepared(values, y, starts, lengths)
        cuts = WeightedCuts(
            step_up, y, np.asarray(weight, float), starts, lengths, n_present, n_classes
        )
        return _enumerate_weighted_thresholds(cuts, values)
    values, y, cuts = _cuts_of(values, y, starts, lengths, n_classes)
    return _threshold_columns(cuts, values, cuts.candidates())


def sides_of_ranked(cuts: RankedCuts) -> tuple:
    """Of every cut of ``cuts``: the rows of its two sides (``(n_left, n_right)``, floats), their
    entropies (``(h_left, h_right)``) from their class counts, and its overall entropy (the
    missing rows' part where a segment has missing rows: elsewhere it adds 0.0)."""
    seg, present = cuts.segment, cuts.present
    left = np.ascontiguousarray(cuts.left.T, dtype=float)  # (classes, cuts): a class a row
    right = present.T.astype(float)[:, seg]
    right -= left
    n_left, n_right = _rows_of(left), _rows_of(right)
    h_left, h_right = _entropies(left, n_left), _entropies(right, n_right)
    lengths, n_present = _rows_of(cuts.parent.T), _rows_of(present.T)
    overall = n_left * h_left
    overall += n_right * h_right
    if (n_present < lengths).any():
        missing_part = (lengths - n_present) * entropy_rows(cuts.parent - present)
        overall += missing_part[seg]
    overall /= lengths[seg]
    return (n_left, n_right), (h_left, h_right), overall


def _rows_of(counts: Any) -> np.ndarray:
    """The rows of each column of class counts ``(classes, n)``: the classes added one after
    another (whole numbers: the same sums in any order)."""
    rows = counts[0].copy()
    for of_class in counts[1:]:
        rows += of_class
    return rows


def _entropies(counts: Any, rows: Any) -> np.ndarray:
    """:func:`~id3tree.base.entropy.entropy_rows` of the columns of ``counts`` (``(classes, n)``,
    floats holding whole numbers, ``rows`` their sums), read class by class as it reads them
    (wide rows, by their non-zero cells)."""
    if len(counts) > DENSE_CLASSES:
        return entropy_rows(counts.T)
    return entropy_of_counts(counts, rows)


def prepared(values: Any, y: Any, starts: Any, lengths: Any) -> Any:
    values = np.asarray(values, dtype=float)
    y = np.asarray(y)
    starts, lengths = np.asarray(starts), np.asarray(lengths)
    step_up, n_present = _steps_and_present(values, starts, lengths)
    return values, y, starts, lengths, step_up, n_present


def _cuts_of(values: Any, y: Any, starts: Any, lengths: Any, n_classes: Any) -> Any:
    values, y, starts, lengths, step_up, n_present = prepared(values, y, starts, lengths)
    return values, y, Cuts(step_up, y, starts, lengths, n_present, n_classes)


def _threshold_columns(cuts: Cuts, values: Any, pos: Any) -> dict[str, np.ndarray]:
    """The columns of :func:`enumerate_thresholds` for the cuts after positions ``pos``."""
    return columns_of_ranked(ranked_at(cuts, pos), values[pos], values[pos + 1])


def columns_of_ranked(cuts: RankedCuts, low: Any, high: Any) -> dict[str, np.ndarray]:
    """The columns of :func:`enumerate_thresholds` for the cuts of ``cuts``, each between the
    values ``low`` and ``high``: the sizes and entropies of each side from its class counts."""
    rows, entropies, overall = sides_of_ranked(cuts)
    sizes = tuple(n.astype(np.int64) for n in rows)  # (whole numbers)
    return _columns_of_cuts(cuts.segment, low, high, sizes, entropies, overall, cuts.parent)


def _enumerate_weighted_thresholds(cuts: WeightedCuts, values: Any) -> dict[str, np.ndarray]:
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


def _columns_of_cuts(
    seg: Any, low: Any, high: Any, sizes: Any, entropies: Any, overall: Any, parent: Any
) -> dict:
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
