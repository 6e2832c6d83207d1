"""``screen_features``: the lecture's table of warning signs, one row per column (seed 003).

For a column with N valid (non-missing) values falling into K distinct values with counts n_j,
the entropy is ``E = -sum (n_j/N) log2 (n_j/N)``. It is highest, ``Emax = log2 K``, when every
value occurs N/K times (scenario A) and lowest, ``E0 = log2 N - ((N-K+1)/N) log2 (N-K+1)``,
when K - 1 values occur once and one takes the rest (scenario B). The *percent entropy*
``100 (E - E0) / (Emax - E0)`` says where the column sits between B (0) and A (100).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from id3tree.base.diagnostics import ID_LIKE_FLAG, is_id_like
from id3tree.base.dispatch import dispatched
from id3tree.base.entropy import entropy_rows
from id3tree.base.validation import as_series, check_table, is_numeric, numeric_values

__all__ = [
    "COLUMNS", "looks_like_an_identifier", "percent_entropy", "screen_features", "screen_frame",
    "screen_row",
]  # fmt: skip

COLUMNS = [
    "dtype", "is_string", "n_valid", "n_missing", "percent_missing", "n_unique", "entropy",
    "percent_entropy", "mean", "coef_variation", "flags",
]  # fmt: skip


def screen_features(
    X: Any, *, single_category: float = 0.95, many_categories: float = 0.01, near_constant: float = 0.01,
    mostly_missing: float = 50.0, low_variety: float = 10.0,
) -> pd.DataFrame:  # fmt: skip
    """One row per column: missing values, distinct values, entropy, spread, and warning flags.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    single_category : float, default=0.95
        Flag ``single category`` when one value has at least this share of the valid values.
    many_categories : float, default=0.01
        Flag ``many categories`` when more than half of the distinct values of a non-numeric
        column each have a share below this.
    near_constant : float, default=0.01
        Flag ``near constant`` when a numeric column's ``|coef_variation|`` is below this.
    mostly_missing : float, default=50.0
        Flag ``mostly missing`` when ``percent_missing`` is above this.
    low_variety : float, default=10.0
        Flag ``low variety`` when a non-numeric column with two or more values has a
        ``percent_entropy`` below this.

    A column is also flagged ``ID-like`` when it has (nearly) one row per value (at least 10
    distinct values and at most 2 rows per value, as in :mod:`id3tree.base.diagnostics`): a text
    column, or whole numbers that are all distinct. Such a column has the largest information
    gain of all and predicts nothing; drop it or use gain ratio.

    Returns
    -------
    DataFrame
        Indexed by feature, with the columns:

        ``dtype`` (text), ``is_string`` (some valid value is text), ``n_valid``, ``n_missing``,
        ``percent_missing``, ``n_unique`` (K, distinct valid values), ``entropy`` (E in bits
        over the valid values; 0 when there are none), ``percent_entropy`` (0 when K <= 1, 100
        when every valid value is distinct, since then scenarios A and B coincide),
        ``mean`` and ``coef_variation`` = ``sign(mean) std(ddof=1) / max(1, |mean|)`` for numeric
        and boolean columns (``coef_variation`` is 0 for a single valid value; both are NaN for
        text columns and for columns with no valid value, where they have no meaning), and
        ``flags`` (the warnings joined by ", ", or "").

    Examples
    --------
    >>> X = pd.DataFrame({"a": list("xxyy"), "b": list("xxxy"), "c": [1.0, 1.0, 1.0, None]})
    >>> screen_features(X)[["n_valid", "n_unique", "percent_entropy", "flags"]]
             n_valid  n_unique  percent_entropy                           flags
    feature
    a              4         2            100.0
    b              4         2              0.0                     low variety
    c              3         1              0.0  single category, near constant
    """
    limits = (single_category, many_categories, near_constant, mostly_missing, low_variety)
    return _screen_table(X, limits)


@dispatched
def _screen_table(X: Any, limits: tuple[Any, ...]) -> pd.DataFrame:
    frame = check_table(X)
    rows = [
        _screen(as_series(frame.iloc[:, f], str(frame.columns[f])), *limits)
        for f in range(frame.shape[1])
    ]
    return screen_frame(rows, frame.columns)


def screen_frame(rows: list[Any], columns: Any) -> pd.DataFrame:
    table = pd.DataFrame(rows, columns=COLUMNS, index=pd.Index(columns, name="feature"))
    return table.astype({"is_string": bool, "n_valid": int, "n_missing": int, "n_unique": int})


def _screen(
    column: pd.Series, single: Any, many: Any, constant: Any, missing: Any, variety: Any
) -> list[Any]:
    counts = column.value_counts(dropna=True, sort=True)
    numeric = is_numeric(column) or pd.api.types.is_bool_dtype(column.dtype)
    mean, cv = _mean_and_cv(column) if numeric and len(counts) else (math.nan, math.nan)
    return screen_row(
        str(column.dtype), counts, len(column), numeric, mean, cv,
        (single, many, constant, missing, variety),
    )  # fmt: skip


def screen_row(
    dtype: str, counts: pd.Series, n_rows: int, numeric: Any, mean: Any, cv: Any, limits: Any
) -> list[Any]:
    """One row of the screen from a column's value counts (sorted, most frequent first)."""
    single, many, constant, missing, variety = limits
    n_valid, n_unique = int(counts.sum()), len(counts)
    n_missing = n_rows - n_valid
    is_string = any(isinstance(v, str) for v in counts.index)
    shares = counts.to_numpy(dtype=float) / n_valid if n_valid else np.zeros(0)
    entropy = _entropy_of(counts.to_numpy(dtype=float))
    percent = percent_entropy(entropy, n_valid, n_unique)
    flags = []
    if n_valid and shares[0] >= single:
        flags.append("single category")
    if not numeric and n_unique and np.mean(shares < many) > 0.5:
        flags.append("many categories")
    if numeric and n_valid and abs(cv) < constant:
        flags.append("near constant")
    if 100.0 * n_missing / n_rows > missing:
        flags.append("mostly missing")
    if not numeric and n_unique >= 2 and percent < variety:
        flags.append("low variety")
    if looks_like_an_identifier(counts, numeric):
        flags.append(ID_LIKE_FLAG)
    return [
        dtype, is_string, n_valid, n_missing, 100.0 * n_missing / n_rows, n_unique, entropy,
        percent, mean, cv, ", ".join(flags),
    ]  # fmt: skip


def looks_like_an_identifier(counts: pd.Series, numeric: bool) -> bool:
    """(Nearly) one row per value (:func:`id3tree.base.diagnostics.is_id_like`), judged from a
    column's value counts: a text or categorical column, or whole numbers that are all distinct
    (a row number)."""
    n_valid, n_unique = int(counts.sum()), len(counts)
    if not is_id_like(n_valid, n_unique):
        return False
    if not numeric:
        return True
    values = np.asarray(counts.index, dtype=float)
    return n_unique == n_valid and bool(np.all(values == np.round(values)))


def percent_entropy(entropy: float, n: int, k: int) -> float:
    """``100 (E - E0) / (Emax - E0)``, with 0 for K <= 1 and 100 for K = N (where E0 = Emax).

    Emax and E0 are the entropies of the lecture's boundary scenarios A (K equal counts) and B
    (K - 1 counts of 1 and one of N - K + 1), computed by the same entropy function.

    >>> percent_entropy(_entropy_of([2, 2]), 4, 2)  # scenario A
    100.0
    >>> percent_entropy(_entropy_of([3, 1]), 4, 2)  # scenario B
    0.0
    >>> round(percent_entropy(_entropy_of([5, 3, 2]), 10, 3), 2)
    85.0
    """
    if k <= 1:
        return 0.0
    if k >= n:
        return 100.0
    e_max = _entropy_of(np.ones(k))  # = log2 K
    e_0 = _entropy_of(np.r_[np.ones(k - 1), n - k + 1])
    return float(np.clip(100.0 * (entropy - e_0) / (e_max - e_0), 0.0, 100.0))


def _mean_and_cv(column: pd.Series) -> tuple[float, float]:
    values = numeric_values(
        column.astype(float) if column.dtype == bool else column, str(column.name)
    )
    values = values[~np.isnan(values)]
    mean = float(values.mean())
    if len(values) < 2:
        return mean, 0.0
    sign = 1.0 if mean >= 0 else -1.0
    return mean, sign * float(values.std(ddof=1)) / max(1.0, abs(mean))


def _entropy_of(counts: Any) -> float:
    """Entropy (bits) of one distribution given as counts; 0 for no counts at all."""
    return float(entropy_rows(np.asarray(counts, dtype=float)))
