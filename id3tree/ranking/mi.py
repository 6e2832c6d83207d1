"""The mutual information of every pair of columns of a table (seed 000's survey heatmap)."""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
import pandas as pd

from id3tree.base.dispatch import dispatched
from id3tree.base.validation import check_table
from id3tree.information import check_bins
from id3tree.ranking._common import binned_codes
from id3tree.ranking._pairs import pair_entropies

__all__ = ["mi_frame", "mutual_information_matrix"]


def mutual_information_matrix(
    X: Any, *, bins: Any = 10, base: float = 2, normalize: bool = False, progress: bool = False,
    threads: int | None = None,
) -> pd.DataFrame:  # fmt: skip
    """Mutual information between every pair of columns, from their 2-D histograms.

    Each column is binned by the rule of :func:`id3tree.mutual_information`: numeric columns in
    ``bins`` equal-width bins over their non-missing range (``numpy.histogram`` edges, the last
    bin closed), categorical columns one bin per value, missing values one bin of their own (a
    non-answer is an answer too). Then ``MI(a, b) = H(a) + H(b) - H(a, b)``.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        A DataFrame (its column names are used), an array or a list of rows.
    bins : int or str, default=10
        Bins for numeric columns, as ``numpy.histogram_bin_edges`` takes them.
    base : float, default=2
        Base of the logarithm (2 gives bits).
    normalize : bool, default=False
        If True, return ``2 MI(a, b) / (H(a) + H(b))`` instead: the *symmetric uncertainty*
        (scikit-learn's ``normalized_mutual_info_score`` with the arithmetic mean). It lies in
        [0, 1], is 1 on the diagonal and 0 where both columns are constant (no information).
    progress : bool, default=False
        Show a progress bar over the pairs (needs ``tqdm``).
    threads : int, optional
        Threads to count with; default: the CPUs this process may use.

    Returns
    -------
    DataFrame of shape (n_features, n_features)
        Symmetric, with the features as index and columns; the diagonal holds each binned
        column's entropy (1 if normalised). All values are in bits for ``base=2``.

    Examples
    --------
    >>> X = pd.DataFrame({"a": ["x", "x", "y", "y"], "b": [1, 1, 0, 0], "c": [0, 1, 0, 1]})
    >>> mutual_information_matrix(X)
         a    b    c
    a  1.0  1.0  0.0
    b  1.0  1.0  0.0
    c  0.0  0.0  1.0
    """
    if not (isinstance(base, (int, float)) and base > 0 and base != 1):
        raise ValueError(f"base must be a positive number other than 1, got {base!r}")
    return _mi_matrix(X, check_bins(bins), base, normalize, progress, _threads(threads))


@dispatched
def _mi_matrix(
    X: Any, bins: Any, base: Any, normalize: bool, progress: bool, n_threads: int
) -> pd.DataFrame:
    frame = check_table(X)
    names = [str(c) for c in frame.columns]
    bar = _progress_bar(len(names) * (len(names) - 1) // 2) if progress else None
    pool = ThreadPoolExecutor(max_workers=n_threads) if n_threads > 1 else None
    try:
        # 1. encode every column once (narrow codes), 2. count every pair and take entropies;
        # both on the threads (pandas and numpy release the GIL while they encode and count)
        columns = [column for _, column in frame.items()]

        def encode(f: int) -> tuple[np.ndarray, int]:
            return binned_codes(columns[f], names[f], bins)

        every = range(len(names))
        encoded = list(pool.map(encode, every)) if pool is not None else list(map(encode, every))
        joint = pair_entropies(
            [c for c, _ in encoded], [n for _, n in encoded], base=base, pool=pool,
            on_done=bar.update if bar is not None else None,
        )  # fmt: skip
    finally:
        if pool is not None:
            pool.shutdown()
        if bar is not None:
            bar.close()
    return mi_frame(joint, frame.columns, normalize)


def mi_frame(joint: np.ndarray, columns: Any, normalize: bool) -> pd.DataFrame:
    """The MI matrix from the joint entropies ``H(a, b)`` (``H(a)`` on the diagonal)."""
    h = np.diag(joint).copy()
    mi = h[:, None] + h[None, :] - joint
    np.fill_diagonal(mi, h)
    mi = np.clip(mi, 0.0, np.minimum(h[:, None], h[None, :]))  # rounding: 0 <= MI <= min(H)
    if normalize:
        total = h[:, None] + h[None, :]
        mi = np.divide(2 * mi, total, out=np.zeros_like(mi), where=total > 0)
        mi = np.clip(mi, 0.0, 1.0)
    index = pd.Index(columns, name=None)
    return pd.DataFrame(mi, index=index, columns=index.copy())


def _threads(threads: int | None) -> int:
    if threads is None:
        try:
            return max(1, len(os.sched_getaffinity(0)))
        except AttributeError:  # not on Linux
            return os.cpu_count() or 1
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise ValueError(f"threads must be a positive integer or None, got {threads!r}")
    return threads


def _progress_bar(total: int) -> Any:
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover - tqdm is a dependency
        raise ImportError("progress=True needs tqdm: pip install tqdm") from None
    return tqdm(total=total, unit="pair", desc="mutual information")
