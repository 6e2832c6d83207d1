"""One-vs-all Jensen-Shannon divergences of every class and feature (seed 001).

For a class A and a feature x, P is the histogram of x within A and Q its histogram within all
other classes, both normalised; ``JSD(P, Q) = H(M) - (H(P) + H(Q)) / 2`` with ``M = (P + Q) / 2``.
In bits it lies in [0, 1]: 0 when A looks like the rest along x, 1 when their histograms do not
overlap at all. It is computed exactly, so empty bins need no epsilon.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pandas as pd

from id3tree.base.contingency import canonical_rows, crosstab_codes
from id3tree.base.dispatch import dispatched
from id3tree.base.entropy import entropy_rows
from id3tree.base.validation import check_table, is_numeric, numeric_values
from id3tree.information import _bin, check_bins
from id3tree.ranking._common import binned_codes, check_target

__all__ = [
    "check_trim", "class_groups", "jsd_screen", "MAX_MACRO_CLASSES", "one_vs_rest", "screen_arrays",
]  # fmt: skip

MAX_MACRO_CLASSES = 12  # 2**12 - 2 = 4094 subsets


def jsd_screen(
    X: Any,
    y: Any,
    *,
    bins: Any = 25,
    macroclasses: bool = False,
    trim_outliers: float | None = None,
) -> pd.DataFrame:
    """One-vs-all JSD (bits) of every class against the rest, for every feature.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Numeric features are cut into ``bins`` equal-width bins over the column's range
        (``numpy.histogram`` edges); categorical features get one bin per value; missing
        values are a bin of their own.
    y : array-like of shape (n_samples,)
        Class labels, at least two classes; missing labels are an error.
    bins : int or str, default=25
        Bins for numeric features. Too few make every class look alike (JSD towards 0), too many
        make every class look unique (JSD towards 1); about 25 is the seed's advice.
    macroclasses : bool, default=False
        If True, one row per non-empty proper subset of the classes (a "macroclass", labelled
        like ``"A+B"``) against the others. A subset and its complement split the data the same
        way, so their rows are equal. At most 12 classes.
    trim_outliers : float, optional
        If given as k, values of numeric features outside ``[Q1 - k IQR, Q3 + k IQR]`` are left
        out before binning, so outliers no longer stretch the bins (1.5 gives Tukey's fences, 0
        keeps only the interquartile range). Missing values are kept as their own bin.

    Returns
    -------
    DataFrame
        One row per class (or macroclass), indexed by its label as text, one column per feature.

    Examples
    --------
    >>> X = pd.DataFrame({"size": [1.0, 1.1, 1.2, 5.0, 5.1, 5.2], "colour": list("rgbrgb")})
    >>> jsd_screen(X, ["a", "a", "a", "b", "b", "b"], bins=2)
    feature  size  colour
    class
    a         1.0     0.0
    b         1.0     0.0
    """
    return _jsd_table(X, y, check_bins(bins), macroclasses, check_trim(trim_outliers))


def check_trim(trim_outliers: Any) -> Any:
    """``trim_outliers`` as :func:`jsd_screen` takes it: None or a number >= 0."""
    if trim_outliers is None or (
        isinstance(trim_outliers, (int, float))
        and not isinstance(trim_outliers, bool)
        and trim_outliers >= 0
    ):
        return trim_outliers
    raise ValueError(f"trim_outliers must be a number >= 0 or None, got {trim_outliers!r}")


@dispatched
def _jsd_table(X: Any, y: Any, bins: Any, macroclasses: bool, trim_outliers: Any) -> pd.DataFrame:
    frame = check_table(X)
    scores, labels, _ = screen_arrays(frame, y, bins, macroclasses, trim_outliers)
    return pd.DataFrame(
        scores,
        index=pd.Index(labels, name="class"),
        columns=pd.Index(frame.columns, name="feature"),
    )


def screen_arrays(
    frame: pd.DataFrame, y: Any, bins: Any, macroclasses: Any, trim_outliers: Any
) -> Any:
    """The screen as ``(scores of shape (subsets, features), subset labels, classes)``."""
    check_bins(bins)
    check_trim(trim_outliers)
    y_codes, classes = check_target(y, frame.shape[0])
    labels, membership = class_groups(classes, macroclasses)
    scores = np.empty((len(labels), frame.shape[1]))
    for f in range(frame.shape[1]):
        column, name = frame.iloc[:, f], str(frame.columns[f])
        table = _class_histograms(column, name, y_codes, len(classes), bins, trim_outliers)
        scores[:, f] = one_vs_rest(table, membership)
    return scores, labels, classes


def class_groups(classes: list[Any], macroclasses: bool) -> tuple[list[str], np.ndarray]:
    """The groups of classes to set against the rest: their labels and membership matrix."""
    if len(classes) < 2:
        raise ValueError(
            f"y has one class ({classes[0]!r}); the one-vs-all JSD needs at least two classes"
        )
    subsets = _subsets(len(classes), macroclasses)
    labels = ["+".join(str(classes[k]) for k in subset) for subset in subsets]
    membership = np.zeros((len(subsets), len(classes)))
    for row, subset in enumerate(subsets):
        membership[row, list(subset)] = 1.0
    return labels, membership


def one_vs_rest(table: np.ndarray, membership: np.ndarray) -> np.ndarray:
    """JSD of each group of classes against the others, from a (bins, classes) count table.

    ``membership`` has one row per group with 1 for the classes in it. Returns one JSD per row
    (0 for a group whose side of the data is empty). The bins are taken in
    :func:`~id3tree.base.contingency.canonical_rows` order: two features whose tables hold the same
    bins in another order (one column coded two ways) score exactly alike.
    """
    table = canonical_rows(table)
    inside = membership @ table.T  # (groups, bins)
    outside = table.sum(axis=1)[None, :] - inside
    p = _normalised(inside)
    q = _normalised(outside)
    h = entropy_rows(np.vstack([(p + q) / 2, p, q]))
    n = len(membership)
    jsd = h[:n] - (h[n : 2 * n] + h[2 * n :]) / 2
    empty = (inside.sum(axis=1) == 0) | (outside.sum(axis=1) == 0)
    return np.where(empty, 0.0, np.clip(jsd, 0.0, 1.0))


def _normalised(counts: np.ndarray) -> np.ndarray:
    totals = counts.sum(axis=1, keepdims=True)
    return np.divide(counts, totals, out=np.zeros_like(counts, dtype=float), where=totals > 0)


def _subsets(n_classes: int, macroclasses: bool) -> list[tuple[int, ...]]:
    if not macroclasses:
        return [(k,) for k in range(n_classes)]
    if n_classes > MAX_MACRO_CLASSES:
        raise ValueError(
            f"macroclasses=True makes 2**K - 2 subsets; y has {n_classes} classes, at most "
            f"{MAX_MACRO_CLASSES} are allowed (merge rare classes first)"
        )
    return [
        subset
        for size in range(1, n_classes)
        for subset in itertools.combinations(range(n_classes), size)
    ]


def _class_histograms(
    column: Any, name: Any, y_codes: Any, n_classes: Any, bins: Any, trim_outliers: Any
) -> np.ndarray:
    """Counts of (bin, class) for one feature: a (bins, classes) table."""
    if trim_outliers is None or not is_numeric(column):
        codes, n_codes = binned_codes(column, name, bins)
        return crosstab_codes(codes, n_codes, y_codes, n_classes)
    values = numeric_values(column, name)
    present = ~np.isnan(values)
    keep = ~present
    if present.any():
        q1, q3 = np.percentile(values[present], [25, 75])
        reach = trim_outliers * (q3 - q1)
        keep |= (values >= q1 - reach) & (values <= q3 + reach)
    codes, edges = _bin(values[keep], bins)
    return crosstab_codes(codes, len(edges), y_codes[keep], n_classes)
