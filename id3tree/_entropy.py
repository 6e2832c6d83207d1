"""The one place where Shannon's formula is written.

Everything in id3tree that needs an entropy (the public ``entropy`` functions, the information
gain of a split, the learner's split search, mutual information, the feature screens) calls
:func:`entropy_rows`, so there is exactly one ``-sum p log p`` to read and to test.
"""

from __future__ import annotations

import math

import numpy as np


def entropy_rows(counts: np.ndarray, base: float = 2.0) -> np.ndarray:
    """Entropy of every row of a 2-D array of class counts (or probabilities).

    ``H = -sum_k p_k log p_k`` with ``p_k = counts_k / sum(counts)`` and ``0 log 0 = 0``.
    A row whose counts are all zero has entropy 0.

    >>> entropy_rows(np.array([[9, 5], [4, 0], [1, 1]])).round(4).tolist()
    [0.9403, 0.0, 1.0]
    """
    counts = np.asarray(counts, dtype=float)
    totals = counts.sum(axis=-1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = counts / totals
        terms = np.where(p > 0, p * np.log(p), 0.0)  # 0 log 0 = 0
    return (0.0 - terms.sum(axis=-1)) / math.log(base)  # 0.0 - x: a pure node is +0.0, not -0.0
