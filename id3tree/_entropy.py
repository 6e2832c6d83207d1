"""The one place where Shannon's formula is written.

Everything in id3tree that needs an entropy (the public ``entropy`` functions, the information
gain of a split, the learner's split search, mutual information, the feature screens) calls
:func:`entropy_of_counts` or one of its wrappers (:func:`entropy_rows`, :func:`entropy_terms`,
:func:`entropy_of_groups`), so there is exactly one ``-sum p log p`` to read and to test.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence

import numpy as np


def log_base(base) -> float:
    """``ln(base)``, the divisor that turns nats into units of ``base``; a clear error for a
    base that has no logarithm to divide by (not a number, not positive, 1, infinite)."""
    if (
        isinstance(base, bool)
        or not isinstance(base, numbers.Real)
        or not math.isfinite(base)
        or base <= 0
        or base == 1
    ):
        raise ValueError(f"base must be a finite number > 0 other than 1, got {base!r}")
    return math.log(base)


def entropy_of_counts(
    class_counts: Sequence[np.ndarray], totals: np.ndarray, base: float = 2.0
) -> np.ndarray:
    """Entropy of many distributions at once, given class by class.

    ``class_counts[k][i]`` is the count of class k in distribution i and ``totals[i]`` their sum.
    ``H_i = -sum_k p_ik log p_ik`` with ``p_ik = class_counts[k][i] / totals[i]`` and
    ``0 log 0 = 0``; an empty distribution (total 0) has entropy 0. Working class by class keeps
    every array one-dimensional and contiguous, which is what makes the split search fast.
    """
    totals = np.asarray(totals, dtype=float)
    h = np.zeros(totals.shape)
    p = np.empty(totals.shape)
    log_p = np.empty(totals.shape)
    positive = totals > 0
    for counts in class_counts:
        p.fill(0.0)
        np.divide(counts, totals, out=p, where=positive)
        log_p.fill(0.0)
        np.log(p, out=log_p, where=p > 0)  # 0 log 0 = 0
        h -= p * log_p
    return (h + 0.0) / log_base(base)  # + 0.0 turns a pure node's -0.0 into 0.0


def entropy_terms(counts, totals, base: float = 2.0) -> np.ndarray:
    """The terms ``-p log p`` of every cell, ``p = counts / totals`` (totals broadcast), same shape.

    Summing the terms of a table gives its entropy: ``entropy_terms(t, t.sum()).sum()``.

    >>> float(entropy_terms(np.array([[2, 2], [2, 2]]), 8).sum())
    2.0
    """
    counts = np.asarray(counts, dtype=float)
    totals = np.broadcast_to(np.asarray(totals, dtype=float), counts.shape)
    return entropy_of_counts([counts.reshape(-1)], totals.reshape(-1), base).reshape(counts.shape)


def entropy_rows(counts, base: float = 2.0) -> np.ndarray:
    """Entropy of every row of an array of class counts (the last axis holds the classes).

    >>> entropy_rows(np.array([[9, 5], [4, 0], [1, 1]])).round(4).tolist()
    [0.9403, 0.0, 1.0]
    """
    counts = np.asarray(counts, dtype=float)
    with np.errstate(over="ignore"):
        totals = counts.sum(axis=-1)
    if not np.all(np.isfinite(totals)):  # counts near the largest float: their sum overflows
        counts = _scaled_rows(counts)
        totals = counts.sum(axis=-1)
    if counts.shape[-1] > 16:  # many cells per row: all terms at once rather than cell by cell
        return entropy_terms(counts, totals[..., None], base).sum(axis=-1) + 0.0
    return entropy_of_counts(np.moveaxis(counts, -1, 0), totals, base)


def _scaled_rows(counts: np.ndarray) -> np.ndarray:
    """Each row divided by a power of two near its largest entry: the proportions (and so the
    entropy) do not change, and the row's sum no longer overflows. Infinite or NaN entries are
    the caller's to refuse; they stay as they are."""
    largest = np.max(np.where(np.isfinite(counts), np.abs(counts), 0.0), axis=-1, keepdims=True)
    exponent = np.frexp(np.where(largest > 0, largest, 1.0))[1]
    return np.ldexp(counts, -exponent)


def entropy_of_groups(counts, group, n_groups: int, base: float = 2.0) -> np.ndarray:
    """Entropy of many distributions given as one flat list of counts and the group of each.

    ``H_g = -sum p_i log p_i`` over the entries i of group g, with ``p_i = counts_i / total_g``:
    the same formula for distributions whose sizes differ (the branches of many nodes).
    """
    counts = np.asarray(counts, dtype=float)
    totals = np.bincount(group, weights=counts, minlength=n_groups)
    terms = entropy_of_counts([counts], totals[group], base)  # -p log p of each entry
    return np.bincount(group, weights=terms, minlength=n_groups) + 0.0
