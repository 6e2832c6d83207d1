"""The plain split search: every midpoint of a numeric feature, scored from scratch.

Read this first: it is ID3's numeric split as a textbook writes it, and the fast searches of
:mod:`id3tree.engine.splits.strategies` are tested equal to it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from id3tree.base.entropy import entropy_rows
from id3tree.base.params import THRESHOLD_RULES

__all__ = [
    "THRESHOLD_RULES", "cut_threshold", "midpoint", "plain_candidate_splits", "snapped",
]  # fmt: skip


def midpoint(low: np.ndarray, high: np.ndarray) -> np.ndarray:
    """The threshold between two adjacent values: their midpoint, never equal to ``high``.

    When two floats are so close that their midpoint rounds to the larger one, the smaller one is
    used instead, so ``x <= threshold`` still separates them.
    """
    mid = low / 2.0 + high / 2.0  # no overflow near the largest floats
    return np.where(mid >= high, low, mid)


def cut_threshold(low: Any, high: Any, values: Any = None) -> np.ndarray:
    """The threshold of a cut between adjacent values ``low < high``: the one place that turns
    a chosen gap into its threshold. Without ``values``, their :func:`midpoint`; with the
    feature's distinct training values, increasing (``thresholds="c45"``), C4.5's threshold:
    "the largest value in the training set that does not exceed the midpoint" (Quinlan 1993).
    It lies in ``[low, midpoint]``, so the rows of the node go to the same sides
    (``x <= threshold`` left); NaN (no cut) stays NaN.

    >>> values = np.array([65.0, 70.0, 75.0, 78.0])
    >>> float(cut_threshold(70.0, 85.0)), float(cut_threshold(70.0, 85.0, values))
    (77.5, 75.0)
    """
    return snapped(midpoint(np.asarray(low, dtype=float), np.asarray(high, dtype=float)), values)


def snapped(midpoints: Any, values: Any = None) -> np.ndarray:
    """:func:`cut_threshold` of cuts known by their midpoints: each replaced by the largest of
    ``values`` (increasing) not above it; as they are without ``values``."""
    if values is None or not len(values):
        return midpoints  # type: ignore[no-any-return]
    mid = np.asarray(midpoints, dtype=float)
    below = np.searchsorted(values, np.nan_to_num(mid, nan=-np.inf), side="right") - 1
    return np.where(np.isnan(mid) | (below < 0), mid, values[np.maximum(below, 0)])


def plain_candidate_splits(x: Any, y: Any, values: Any = None) -> list[dict]:
    """Every candidate threshold of a numeric ``x`` against integer class codes ``y``, slowly.

    For each midpoint t between adjacent distinct non-missing values: count the classes with
    x <= t and x > t, take the entropy of each side, and weight them by their sizes. Rows with a
    missing x form a third side. ``gain`` is the parent's entropy minus that overall entropy.
    ``values``: as :func:`cut_threshold` has it (C4.5's thresholds; None, the midpoints).
    """
    x = np.asarray(x, dtype=float)
    y = np.asarray(y)
    classes = np.unique(y)
    n = len(y)

    def counts(mask: Any) -> Any:
        return np.array([(y[mask] == c).sum() for c in classes])

    missing = np.isnan(x)
    parent_entropy = float(entropy_rows(counts(np.ones(n, bool)))[()])
    missing_part = missing.sum() * float(entropy_rows(counts(missing))[()])
    distinct = np.unique(x[~missing])
    rows = []
    for low, high in zip(distinct[:-1], distinct[1:]):
        threshold = float(cut_threshold(np.float64(low), np.float64(high), values))
        left, right = ~missing & (x <= threshold), ~missing & (x > threshold)
        entropy_left = float(entropy_rows(counts(left))[()])
        entropy_right = float(entropy_rows(counts(right))[()])
        overall = (left.sum() * entropy_left + right.sum() * entropy_right + missing_part) / n
        rows.append(dict(
            threshold=threshold, n_left=int(left.sum()), n_right=int(right.sum()),
            entropy_left=entropy_left, entropy_right=entropy_right, overall_entropy=overall,
            gain=parent_entropy - overall,
        ))  # fmt: skip
    return rows
