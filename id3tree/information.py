"""Information measures: entropy, information gain, gain ratio, mutual information, KL and JSD.

All of them are functions of a contingency table (rows = values or branches of ``x``, columns =
classes of ``y``) and all of them take their entropies from :func:`id3tree.base.entropy.entropy_rows`.
Missing values (NaN, None, pd.NA) are a category of their own. Logarithms are base 2 unless
``base=`` says otherwise, and scalars come back as Python ``float``.

The functions marked :func:`~id3tree.base.dispatch.dispatched` also take the columns of a Dask
DataFrame (see :mod:`id3tree.base.dispatch`): they count partition by partition and hand the summed
table to the same table -> measure functions as here.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np
import pandas as pd

from id3tree.base.contingency import canonical_rows, crosstab_codes
from id3tree.base.dispatch import dispatched
from id3tree.base.entropy import entropy_rows, log_base
from id3tree.base.params import MAX_BINS
from id3tree.base.validation import (
    as_series,
    factorize,
    is_numeric,
    numeric_values,
    unordered_codes,
)
from id3tree.engine import splits

__all__ = [
    "entropy", "entropy_from_counts", "conditional_entropy", "information_gain", "gain_ratio",
    "mutual_information", "kl_divergence", "jensen_shannon_divergence", "contingency_table",
    "candidate_splits",
]  # fmt: skip


# ---------------------------------------------------------------------------------------------
# Entropy
# ---------------------------------------------------------------------------------------------
def entropy_from_counts(counts: Any, *, base: float = 2) -> float:
    """Shannon entropy of a distribution given as counts (or probabilities).

    >>> round(entropy_from_counts([9, 5]), 4)        # Play Tennis: 9 yes, 5 no
    0.9403
    >>> entropy_from_counts([50, 50, 50]) == math.log2(3)
    True
    """
    counts = np.asarray(counts, dtype=float)
    if counts.ndim != 1 or counts.size == 0 or np.any(~np.isfinite(counts)) or np.any(counts < 0):
        raise ValueError(
            f"counts must be a non-empty 1-D array of non-negative numbers, got {counts!r}"
        )
    return float(entropy_rows(counts, base))


@dispatched
def entropy(y: Any, *, base: float = 2) -> float:
    """Entropy of a column of labels; missing labels count as one more label.

    >>> entropy(["yes", "yes", "no", "no"])
    1.0
    """
    codes, n = _codes(y, "y")
    return entropy_from_counts(np.bincount(codes, minlength=n), base=base)


def weighted_entropy(table: np.ndarray, base: float = 2) -> float:
    """Size-weighted entropy of the rows of a table: the overall entropy after a split, H(Y | X).

    The rows are taken in :func:`~id3tree.base.contingency.canonical_rows` order, so a table with the
    same rows in another order gives exactly the same number.
    """
    return _weighted_entropy(canonical_rows(table), base)


def _weighted_entropy(table: np.ndarray, base: float) -> float:
    sizes = table.sum(axis=1)
    return float((sizes * entropy_rows(table, base)).sum() / sizes.sum())


@dispatched
def conditional_entropy(x: Any, y: Any, *, base: float = 2) -> float:
    """H(Y | X): the size-weighted entropy of y within each value of a categorical x.

    >>> conditional_entropy(["a", "a", "b", "b"], [0, 1, 0, 0])
    0.5
    """
    return weighted_entropy(_table(x, y), base)


# ---------------------------------------------------------------------------------------------
# Gain of a split
# ---------------------------------------------------------------------------------------------
def information_gain(x: Any, y: Any, *, base: float = 2) -> float:
    """Entropy of y minus the overall entropy after splitting on x.

    A categorical x splits into one branch per value (missing values one more branch). A numeric
    x splits in two at its best midpoint (lowest overall entropy, see :func:`candidate_splits`),
    with missing values a third branch; a numeric x with fewer than two distinct values gains 0.

    >>> from id3tree.datasets import load_play_tennis
    >>> tennis = load_play_tennis()
    >>> round(information_gain(tennis["Outlook"], tennis["Play"]), 4)
    0.2467
    """
    return _split_measures(x, y, base)[0]


def gain_ratio(x: Any, y: Any, *, base: float = 2) -> float:
    """Information gain divided by the split information (the entropy of the branch sizes), C4.5.

    A split with one branch has split information 0 and gain 0; its ratio is defined as 0.

    >>> round(gain_ratio(["a", "a", "b", "b"], [0, 0, 1, 1]), 4)
    1.0
    """
    gain, split_info = _split_measures(x, y, base)
    return gain / split_info if split_info > 0 else 0.0


@dispatched
def _split_measures(x: Any, y: Any, base: Any) -> tuple[float, float]:
    """(information gain, split information) of the split ID3 would make on x."""
    xs = as_series(x, "x")
    _check_lengths(xs, y)
    if not is_numeric(xs):
        return table_measures(_table(xs, y), base)
    values, y_codes, n_classes = _sorted_numeric(xs, y)
    found = splits.search_thresholds(
        values, y_codes, np.array([0]), np.array([len(values)]), n_classes
    )
    return threshold_measures(found, base)


def threshold_measures(found: splits.ThresholdSearch, base: Any) -> tuple[float, float]:
    """(information gain, split information) of the best threshold of a one-segment search,
    in units of ``base`` (the search works in bits); 0 and 0 when no threshold was found."""
    if not found.found[0]:
        return 0.0, 0.0
    scale = math.log(2) / log_base(base)
    return float(found.gain[0]) * scale, float(found.split_info[0]) * scale


def table_measures(table: np.ndarray, base: Any = 2) -> tuple[float, float]:
    """(information gain, split information) of a split given as its contingency table.

    The rows are taken in :func:`~id3tree.base.contingency.canonical_rows` order: two columns whose
    tables have the same rows in another order (one column coded two ways) score exactly alike.
    """
    table = canonical_rows(table)
    parent = float(entropy_rows(table.sum(axis=0), base))
    gain = max(parent - _weighted_entropy(table, base), 0.0)
    return gain, float(entropy_rows(table.sum(axis=1), base))


def symmetric_uncertainty(table: np.ndarray) -> float:
    """``2 MI / (H(x) + H(y))`` (bits) of a table whose rows are the values or bins of x and
    whose columns are the classes of y; in [0, 1], and 0 when both are constant. Like the MI,
    the entropies of x and y do not depend on the order of rows or classes (their totals are
    taken sorted).

    >>> symmetric_uncertainty(np.array([[3, 0], [0, 3]])), symmetric_uncertainty([[1, 1], [1, 1]])
    (1.0, 0.0)
    """
    table = canonical_rows(table)
    mi = table_measures(table)[0]
    x_totals, y_totals = table.sum(axis=1), table.sum(axis=0)
    total = float(entropy_rows(np.sort(x_totals))) + float(
        entropy_rows(np.sort(y_totals[y_totals > 0]))
    )
    return min(2 * mi / total, 1.0) if total > 0 else 0.0


def candidate_splits(x: Any, y: Any) -> pd.DataFrame:
    """Every candidate threshold of a numeric x: the midpoints between adjacent distinct values.

    One row per midpoint in increasing order with ``threshold``, ``n_left`` (x <= threshold),
    ``n_right``, ``entropy_left``, ``entropy_right``, ``overall_entropy`` (the size-weighted
    entropy of the sides, missing values a side of their own) and ``gain`` (bits).

    >>> from id3tree.datasets import load_iris
    >>> iris = load_iris()
    >>> table = candidate_splits(iris["petal_width"], iris["species"])
    >>> best = table.loc[table["overall_entropy"].idxmin()]
    >>> float(best["threshold"]), round(float(best["overall_entropy"]), 4)
    (0.8, 0.6667)
    """
    xs = as_series(x, "x")
    _check_lengths(xs, y)
    if not is_numeric(xs):
        raise ValueError(
            f"candidate_splits needs a numeric x; {xs.name or 'x'!r} has dtype {xs.dtype}"
        )
    values, y_codes, n_classes = _sorted_numeric(xs, y)
    columns = splits.enumerate_thresholds(
        values, y_codes, np.array([0]), np.array([len(values)]), n_classes
    )
    for name in ("segment", "low", "high"):
        columns.pop(name)
    return pd.DataFrame(columns)


def _sorted_numeric(xs: pd.Series, y: Any) -> Any:
    """A numeric x sorted (NaN last) with the class codes of y in the same order."""
    values = numeric_values(xs, _name(xs, "x"))
    y_codes, n_classes = _codes(y, "y")
    order = np.argsort(values, kind="stable")
    return values[order], y_codes[order], n_classes


# ---------------------------------------------------------------------------------------------
# Mutual information and divergences
# ---------------------------------------------------------------------------------------------
def mutual_information(x: Any, y: Any, *, bins: Any = 10, base: float = 2) -> float:
    """Mutual information of two columns from their 2-D histogram.

    Numeric columns are cut into ``bins`` equal-width bins over their non-missing range (edges as
    ``numpy.histogram`` makes them, the last bin closed); categorical columns get one bin per
    value; missing values are one bin of their own. For categorical x and y this equals
    :func:`information_gain`.

    >>> mutual_information(["a", "a", "b", "b"], ["u", "u", "v", "v"])
    1.0
    """
    return _mutual_information(x, y, check_bins(bins), base)


@dispatched
def _mutual_information(x: Any, y: Any, bins: Any, base: Any) -> float:
    return table_measures(binned_table(x, y, bins), base)[0]


def binned_table(x: Any, y: Any, bins: Any) -> np.ndarray:
    """The (x code, y code) table of two columns, numeric ones cut into ``bins`` bins."""
    xs, ys = as_series(x, "x"), as_series(y, "y")
    _check_lengths(xs, ys)
    x_codes, n_x = _codes(xs, _name(xs, "x"), bins=bins)
    y_codes, n_y = _codes(ys, _name(ys, "y"), bins=bins)
    return crosstab_codes(x_codes, n_x, y_codes, n_y)


def _distribution(p: Any, name: str) -> np.ndarray:
    p = np.asarray(p, dtype=float)
    if p.ndim != 1 or p.size == 0 or np.any(~np.isfinite(p)) or np.any(p < 0) or not p.any():
        raise ValueError(f"{name} must be a 1-D array of non-negative counts with a positive sum")
    p = np.ldexp(p, -np.frexp(p.max())[1])  # exact scaling: a sum near the largest float overflows
    return p / p.sum()


def kl_divergence(p: Any, q: Any, *, base: float = 2) -> float:
    """KL(P || Q) = sum p log(p / q); infinite where Q is 0 and P is not.

    >>> round(kl_divergence([1, 1], [1, 3]), 6)    # 0.5 log2(0.5/0.25) + 0.5 log2(0.5/0.75)
    0.207519
    """
    divisor = log_base(base)
    p, q = _distribution(p, "p"), _distribution(q, "q")
    if p.shape != q.shape:
        raise ValueError(f"p and q must have the same length, got {p.size} and {q.size}")
    support = p > 0
    if np.any(q[support] == 0):
        return math.inf
    return float(np.sum(p[support] * np.log(p[support] / q[support])) / divisor)


def jensen_shannon_divergence(p: Any, q: Any, *, base: float = 2) -> float:
    """JSD(P, Q) = H(M) - (H(P) + H(Q)) / 2 with M = (P + Q) / 2; in [0, 1] for base 2.

    The divergence itself (not its square root), computed exactly: empty bins need no epsilon.

    >>> jensen_shannon_divergence([1, 0], [0, 1])
    1.0
    """
    p, q = _distribution(p, "p"), _distribution(q, "q")
    if p.shape != q.shape:
        raise ValueError(f"p and q must have the same length, got {p.size} and {q.size}")
    h = entropy_rows(np.stack([(p + q) / 2, p, q]), base)
    return float(min(max(h[0] - (h[1] + h[2]) / 2, 0.0), 1.0 if base == 2 else math.inf))


# ---------------------------------------------------------------------------------------------
# Contingency tables
# ---------------------------------------------------------------------------------------------
def contingency_table(x: Any, y: Any, *, bins: Any = None) -> pd.DataFrame:
    """Counts of every (x, y) pair: rows are the values (or bins) of x, missing last; columns are
    the classes of y.

    >>> contingency_table(["b", "a", None], [1, 0, 0])
           0  1
    a      1  0
    b      0  1
    NaN    1  0
    """
    return _contingency_table(x, y, None if bins is None else check_bins(bins))


@dispatched
def _contingency_table(x: Any, y: Any, bins: Any) -> pd.DataFrame:
    xs, ys = as_series(x, "x"), as_series(y, "y")
    _check_lengths(xs, ys)
    x_codes, x_labels = _labelled_codes(xs, _name(xs, "x"), bins)
    y_codes, y_labels = _labelled_codes(ys, _name(ys, "y"), None)
    table = crosstab_codes(x_codes, len(x_labels), y_codes, len(y_labels))
    return _table_frame(table, x_labels, y_labels, xs.name, ys.name)


def _table_frame(
    table: np.ndarray, x_labels: list[Any], y_labels: list[Any], x_name: Any, y_name: Any
) -> Any:
    """A table of counts as the DataFrame ``contingency_table`` returns: the missing row and
    column (last) only when they hold counts."""
    keep_rows = np.r_[np.ones(len(x_labels) - 1, bool), table[-1].sum() > 0]
    keep_cols = np.r_[np.ones(len(y_labels) - 1, bool), table[:, -1].sum() > 0]
    return pd.DataFrame(
        table[keep_rows][:, keep_cols],
        index=pd.Index([v for v, k in zip(x_labels, keep_rows) if k], dtype=object, name=x_name),
        columns=pd.Index([v for v, k in zip(y_labels, keep_cols) if k], dtype=object, name=y_name),
    )


def _labelled_codes(series: pd.Series, name: str, bins: Any) -> Any:
    """Codes with missing last and the row labels (values or bin intervals, then NaN)."""
    if bins is not None and is_numeric(series):
        values = numeric_values(series, name)
        codes, edges = _bin(values, bins, name)
        return codes, _bin_labels(edges)
    codes, categories = factorize(series, name)
    return codes, categories + [np.nan]


def _bin_labels(edges: np.ndarray) -> list[Any]:
    """Row labels of binned rows: ``[lo, hi)``, the last bin ``[lo, hi]``, then NaN."""
    labels = [
        f"[{_fmt(lo)}, {_fmt(hi)}{']' if i == len(edges) - 2 else ')'}"
        for i, (lo, hi) in enumerate(zip(edges[:-1], edges[1:]))
    ]
    return labels + [np.nan]


def _fmt(value: float) -> str:
    return f"{value:.4g}"


BIN_RULES = ("auto", "fd", "doane", "scott", "stone", "rice", "sturges", "sqrt")
"""The rules of ``numpy.histogram_bin_edges`` that choose the number of bins from the data."""


def check_bins(bins: Any) -> Any:
    """``bins`` as every function that cuts numeric columns takes it, else a clear error: a
    number of equal-width bins (1 to :data:`MAX_BINS`), explicit edges (at least two,
    increasing, at most ``MAX_BINS`` bins) or the name of a numpy rule. Pandas and Dask input
    are checked by this one function, before anything is counted.

    >>> check_bins(10)
    10
    >>> check_bins(10**9)
    Traceback (most recent call last):
      ...
    ValueError: bins=1000000000 is more than 100000; use fewer bins
    """
    if isinstance(bins, str):
        if bins not in BIN_RULES:
            raise ValueError(
                f"bins={bins!r} is not a rule numpy knows ({', '.join(BIN_RULES)}); give a "
                "number of bins or explicit edges"
            )
        return bins
    if isinstance(bins, numbers.Integral) and not isinstance(bins, bool):
        if bins < 1:
            raise ValueError(f"bins must be a positive integer, got {bins!r}")
        if bins > MAX_BINS:  # type: ignore[operator]  # (an Integral compares with an int)
            raise ValueError(f"bins={bins} is more than {MAX_BINS}; use fewer bins")
        return bins
    return _check_edges(bins)


def _check_edges(bins: Any) -> Any:
    try:
        edges = np.asarray(bins, dtype=float) if not isinstance(bins, bool) else None
    except (TypeError, ValueError):
        edges = None
    if edges is None or edges.ndim != 1 or len(edges) < 2:
        raise ValueError(
            f"bins must be a number of bins, explicit edges (at least two) or a rule name, "
            f"got {bins!r}"
        )
    if len(edges) - 1 > MAX_BINS:
        raise ValueError(f"bins has {len(edges) - 1} bins, more than {MAX_BINS}; use fewer bins")
    if np.isnan(edges).any() or (np.diff(edges) < 0).any():
        raise ValueError(f"bins must be edges that increase, got {bins!r}")
    return bins


def _bin(values: np.ndarray, bins: Any, name: str = "x") -> tuple[np.ndarray, np.ndarray]:
    """Bin codes as numpy.histogram makes them (the last bin includes its right edge); missing
    values get the last code. Explicit edges must cover every present value."""
    check_bins(bins)
    equal_width = isinstance(bins, (int, np.integer))
    present = ~np.isnan(values)
    if not present.any():
        data = np.zeros(1)
    elif equal_width:  # equal-width edges depend on the smallest and largest value only
        data = np.array([np.nanmin(values), np.nanmax(values)])
    else:
        data = values[present]
    try:
        edges = np.histogram_bin_edges(data, bins=bins)
    except ValueError as exc:
        raise ValueError(f"column {name!r} cannot be cut into bins={bins!r}: {exc}") from None
    if len(edges) - 1 > MAX_BINS:  # a rule such as "fd" on a column with a few far outliers
        raise ValueError(
            f"bins={bins!r} cuts column {name!r} into {len(edges) - 1} bins, more than "
            f"{MAX_BINS}; give a number of bins"
        )
    outside = (data < edges[0]) | (data > edges[-1]) if present.any() else np.zeros(0, bool)
    if outside.any():
        raise ValueError(
            f"column {name!r} has {int(outside.sum())} value(s) outside the bin edges "
            f"[{_fmt(edges[0])}, {_fmt(edges[-1])}]; widen the edges or pass a number of bins"
        )
    n_bins = len(edges) - 1
    if equal_width:
        return _equal_width_codes(values, edges), edges
    codes = np.full(len(values), n_bins, dtype=np.int64)
    inside = np.searchsorted(edges, values[present], side="right") - 1
    codes[present] = np.minimum(inside, n_bins - 1)  # the last bin includes its right edge
    return codes, edges


def _equal_width_codes(values: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """The codes of :func:`_bin` for equal-width ``edges`` covering every present value: the
    bin ``np.searchsorted(edges, x, side="right") - 1`` (the last bin closed), missing values
    the last code.

    Arithmetic instead of a binary search, as numpy.histogram does it: the bin is estimated as
    ``(x - low) * n_bins / (high - low)``, which rounding may put one bin off next to an edge,
    and then moved by one wherever x lies on the wrong side of its bin's edges. The steps work
    in place (a column of a million rows is a few passes over memory, no new arrays).
    """
    n_bins = len(edges) - 1
    buffer = np.subtract(values, edges[0])
    buffer *= n_bins / (edges[-1] - edges[0])
    np.fmax(buffer, 0, out=buffer)  # fmax and fmin turn NaN into the bound: a valid index
    np.fmin(buffer, n_bins - 1, out=buffer)
    codes = buffer.astype(np.int64)
    np.take(edges, codes, out=buffer)  # the estimated bin's left edge
    codes -= np.less(values, buffer)  # the estimate was one bin too high
    upper = np.r_[edges[1:-1], np.inf]  # the last bin is closed: nothing lies above it
    np.take(upper, codes, out=buffer)
    codes += np.greater_equal(values, buffer)  # ... or one too low
    codes[np.isnan(values)] = n_bins
    return codes


def _codes(
    values: Any, name: str, bins: Any = None, *, ordered: bool = True
) -> tuple[np.ndarray, int]:
    """Integer codes of a column and how many codes there are (the last one is "missing").

    ``ordered=False``: categories numbered in order of first appearance instead of sorted, for
    measures that do not depend on which value has which code (the same counts, less work).
    """
    series = as_series(values, name)
    if bins is not None and is_numeric(series):
        codes, edges = _bin(numeric_values(series, name), bins, name)
        return codes, len(edges)
    if not ordered:
        return unordered_codes(series, name)
    codes, categories = factorize(series, name)
    return codes, len(categories) + 1


def _table(x: Any, y: Any) -> np.ndarray:
    """Counts of every (value of x, class of y) pair, both taken as categories."""
    xs = as_series(x, "x")
    _check_lengths(xs, y)
    x_codes, n_x = _codes(xs, _name(xs, "x"))
    y_codes, n_y = _codes(y, "y")
    return crosstab_codes(x_codes, n_x, y_codes, n_y)


def _name(series: pd.Series, default: str) -> str:
    """The column's own name for messages, else ``x`` or ``y``."""
    return default if series.name is None else str(series.name)


def _check_lengths(x: Any, y: Any) -> None:
    n_x, n_y = len(x), len(y)
    if n_x != n_y:
        raise ValueError(f"x and y must have the same length, got {n_x} and {n_y}")
    if n_x == 0:
        raise ValueError("x and y are empty")
