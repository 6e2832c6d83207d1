"""Contingency tables of integer codes: the shared currency of id3tree.

A contingency table has one row per branch (or category, or bin) and one column per class.
Entropy, information gain, mutual information, chi-square and the G statistic are all functions
of it. This module is numpy only; the pandas-facing ``contingency_table`` lives in
:mod:`id3tree.information`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats as _scipy_stats

__all__ = ["canonical_rows", "chi_square_from_table", "ChiSquare", "crosstab_codes", "MAX_CELLS"]

MAX_CELLS = 2**27
"""The largest table counted (1 GiB of int64): two columns binned very finely, or two ID-like
columns, would otherwise ask for more memory than the machine has."""


def crosstab_codes(x_codes: np.ndarray, n_x: int, y_codes: np.ndarray, n_y: int) -> np.ndarray:
    """Counts of every (x, y) pair of integer codes, as an ``(n_x, n_y)`` int64 array.

    One ``np.bincount`` over ``x * n_y + y``: linear in the number of rows.

    >>> crosstab_codes(np.array([0, 0, 1, 2]), 3, np.array([1, 0, 1, 1]), 2).tolist()
    [[1, 1], [0, 1], [0, 1]]
    """
    if n_x * n_y > MAX_CELLS:
        raise ValueError(
            f"a contingency table of {n_x} x {n_y} cells is too large to count (more than "
            f"{MAX_CELLS:,}); use fewer bins, or fewer categories"
        )
    flat = np.asarray(x_codes, dtype=np.int64) * n_y + np.asarray(y_codes, dtype=np.int64)
    return np.bincount(flat, minlength=n_x * n_y).reshape(n_x, n_y)


def canonical_rows(table: np.ndarray) -> np.ndarray:
    """The table's non-empty rows in one fixed order: sorted by their counts, class by class.

    A measure that does not depend on the order of the rows (the entropy after a split, mutual
    information, the JSD of two histograms) still adds its terms in some order, and sums of
    floats in two orders may differ in the last digit. Computed on this table, two tables with
    the same rows in another order (one column coded two ways: its categories sorted or as first
    seen, its text or its numeric codes; pandas and Dask input) give exactly the same number, so
    that their tie is exact and the documented tie rule (column order) decides it.

    >>> canonical_rows(np.array([[0, 3], [0, 0], [2, 1], [0, 1]])).tolist()
    [[0, 1], [0, 3], [2, 1]]
    """
    table = np.asarray(table)
    kept = table[table.any(axis=1)]
    return kept[np.lexsort(kept.T[::-1])]  # np.lexsort's last key is the first column


@dataclass(frozen=True)
class ChiSquare:
    """Pearson's chi-square test of independence of a table's rows and columns."""

    statistic: float
    df: int
    pvalue: float
    expected: np.ndarray


def chi_square_from_table(table: np.ndarray) -> ChiSquare:
    """Pearson chi-square of independence, no continuity correction.

    Rows or columns that are entirely zero are dropped first (they carry no observations), so
    ``df = (rows - 1) * (columns - 1)`` counts only the occupied ones. A table with fewer than two
    occupied rows or columns has statistic 0, df 0 and p-value 1.

    >>> r = chi_square_from_table(np.array([[2, 3], [4, 0], [3, 2]]))   # Play Tennis, Outlook
    >>> round(r.statistic, 4), r.df, round(r.pvalue, 4)
    (3.5467, 2, 0.1698)
    """
    table = np.asarray(table, dtype=float)
    table = table[table.sum(axis=1) > 0][:, table.sum(axis=0) > 0]
    if table.ndim != 2 or min(table.shape) < 2:
        return ChiSquare(0.0, 0, 1.0, table.copy())
    n = table.sum()
    expected = np.outer(table.sum(axis=1), table.sum(axis=0)) / n
    statistic = float(((table - expected) ** 2 / expected).sum())
    df = (table.shape[0] - 1) * (table.shape[1] - 1)
    pvalue = float(_scipy_stats.chi2.sf(statistic, df))
    return ChiSquare(statistic, df, pvalue, expected)
