"""Goodnight's SWEEP operator: least squares, and the columns that add nothing new.

Sweeping a symmetric matrix ``A`` on pivot ``k`` replaces it by

    A[k, k] -> -1 / d,    A[k, j] -> A[k, j] / d,    A[i, k] -> A[i, k] / d,
    A[i, j] -> A[i, j] - A[i, k] A[k, j] / d          (i, j != k, d = A[k, k]),

(Goodnight 1979, "A tutorial on the SWEEP operator"). Sweep the cross-product matrix ``Z'Z`` of a
design on every pivot in turn and it becomes minus a generalised inverse of ``Z'Z``; sweep
``[Z y]'[Z y]`` on the design's pivots only and the corner that was ``y'y`` holds the residual
sum of squares, the last column the least-squares coefficients.

When the pivot reached at column ``k`` is tiny next to the diagonal it started with, column ``k``
is (numerically) a linear combination of the columns swept before it: it is *aliased*. The
operator then skips it (its row and column become zeros) and goes on, so a design with a
duplicated or redundant column still gets a fit, and the aliased column is reported by name
instead of blowing up the fit. This is how the feature-selection lecture finds aliased
parameters, with the same tolerance, 1e-8.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["Sweep", "sweep_operator", "TOLERANCE"]

TOLERANCE = 1e-8
"""A pivot below this fraction of its column's original diagonal marks the column aliased."""


@dataclass(frozen=True)
class Sweep:
    """The swept matrix and which pivots were swept (``kept``) and which were aliased."""

    matrix: np.ndarray
    kept: list[int]
    aliased: list[int]


def sweep_operator(matrix: Any, pivots: Any = None, *, tolerance: float = TOLERANCE) -> Sweep:
    """Sweep a symmetric non-negative definite matrix on ``pivots`` (default: all), in order.

    Parameters
    ----------
    matrix : array-like of shape (p, p)
        A cross-product (SSCP) matrix such as ``Z'Z`` or ``[Z y]'[Z y]``.
    pivots : sequence of int, optional
        The rows and columns to sweep, in this order. Default: all of them.
    tolerance : float, default=1e-8
        Column ``k`` is aliased when its pivot is at most ``tolerance`` times ``matrix[k, k]``.

    Returns
    -------
    Sweep
        ``matrix``: the swept matrix (on the swept block, minus a generalised inverse; aliased
        rows and columns are zero); ``kept`` and ``aliased``: the pivots in each group.

    Examples
    --------
    The third column is the sum of the first two, so it is aliased:

    >>> Z = np.array([[1.0, 0.0, 1.0], [1.0, 1.0, 2.0], [1.0, 2.0, 3.0], [1.0, 5.0, 6.0]])
    >>> result = sweep_operator(Z.T @ Z)
    >>> result.kept, result.aliased
    ([0, 1], [2])
    >>> bool(np.allclose(-result.matrix[:2, :2], np.linalg.inv(Z[:, :2].T @ Z[:, :2])))
    True
    """
    a = np.array(matrix, dtype=float)
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise ValueError(f"the SWEEP operator needs a square matrix, got shape {a.shape}")
    diagonal = np.diag(a).copy()
    order = range(a.shape[0]) if pivots is None else pivots
    kept, aliased = [], []
    for k in order:
        d = a[k, k]
        if not (diagonal[k] > 0 and d > tolerance * diagonal[k]):
            a[k, :] = 0.0
            a[:, k] = 0.0
            aliased.append(k)
            continue
        row = a[k, :] / d
        a -= np.outer(a[:, k], row)
        a[k, :] = row
        a[:, k] = row
        a[k, k] = -1.0 / d
        kept.append(k)
    return Sweep(a, kept, aliased)
