"""The information measures of :mod:`id3tree.information` for columns of a Dask DataFrame.

Each function makes a describing pass (categories, ranges) and a counting pass (a contingency
table, or the class counts of every distinct value of a numeric x), then calls the same
table -> measure function as pandas input. Each is the Dask version of the dispatched function
named in :data:`id3tree.dask.VERSIONS`, called with the same arguments.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from id3tree.base.contingency import crosstab_codes
from id3tree.dask import core
from id3tree.dask.counted_splits import (
    distinct_value_counts,
    merge_all_value_counts,
    search_counted_thresholds,
)
from id3tree.information import (
    _bin_labels,
    _table_frame,
    entropy_from_counts,
    table_measures,
    threshold_measures,
    weighted_entropy,
)

__all__ = [
    "conditional_entropy", "contingency_table", "counts_of_values", "counts_of_values_plain",
    "crosstab", "entropy", "merge_counts_of_values", "mutual_information", "numeric_split",
    "search_values", "split_measures", "value_counts",
]  # fmt: skip


def _name(series: Any, default: str) -> str:
    return default if series.name is None else str(series.name)


def _codings(frame: Any, kinds: dict, bins: Any = None) -> dict:
    """Codings of the frame's columns; ``kinds`` maps a column to (name, "categories"|"range")."""
    summary = core.compute(core.describe(frame, kinds))[0]
    return core.codings_from(summary, kinds, bins)


def _kind(frame: Any, column: Any, bins: Any) -> str:
    """Numeric columns with bins get a range (for the edges); everything else categories."""
    numeric = not core.is_categorical_meta(frame, column)
    return "range" if bins is not None and numeric else "categories"


def _crosstab_chunk(part: Any, cx: Any, cy: Any) -> Any:
    return crosstab_codes(cx.codes(part), cx.n_codes, cy.codes(part), cy.n_codes)


def crosstab(frame: Any, cx: core.Coding, cy: core.Coding) -> np.ndarray:
    """The ``(x codes, y codes)`` table of two coded columns, summed over the partitions."""
    table = core.compute(core.reduce_partitions(frame, _crosstab_chunk, core.add, cx, cy))[0]
    if table.sum() == 0:
        raise ValueError("x and y are empty")
    return table


def _pair(x: Any, y: Any, x_bins: Any = None, y_bins: Any = None) -> Any:
    """The frame of x and y, and their codings (numeric columns binned when bins are given)."""
    frame = core.series_frame(x, y)
    for bins in (x_bins, y_bins):
        if bins is not None:
            core.check_bins(bins)
    kinds = {
        "x": (_name(x, "x"), _kind(frame, "x", x_bins)),
        "y": (_name(y, "y"), _kind(frame, "y", y_bins)),
    }
    # one describing pass for both: x's bins and y's bins may differ, so edges are made per column
    summary = core.compute(core.describe(frame, kinds))[0]
    cx = core.codings_from({"x": summary["x"]}, {"x": kinds["x"]}, x_bins)["x"]
    cy = core.codings_from({"y": summary["y"]}, {"y": kinds["y"]}, y_bins)["y"]
    return frame, cx, cy


def _class_counts_chunk(part: Any, cy: Any) -> Any:
    return np.bincount(cy.codes(part), minlength=cy.n_codes)


def entropy(y: Any, *, base: float = 2) -> float:
    y = core.as_dask_series(y, "y")
    frame = y.to_frame(name="y")
    cy = _codings(frame, {"y": (_name(y, "y"), "categories")})["y"]
    counts = core.compute(core.reduce_partitions(frame, _class_counts_chunk, core.add, cy))[0]
    return entropy_from_counts(counts, base=base)


def conditional_entropy(x: Any, y: Any, *, base: float = 2) -> float:
    frame, cx, cy = _pair(x, y)
    return weighted_entropy(crosstab(frame, cx, cy), base)


def mutual_information(x: Any, y: Any, bins: Any, base: Any) -> float:
    frame, cx, cy = _pair(x, y, bins, bins)
    return table_measures(crosstab(frame, cx, cy), base)[0]


def contingency_table(x: Any, y: Any, bins: Any) -> Any:
    frame, cx, cy = _pair(x, y, x_bins=bins)
    table = crosstab(frame, cx, cy)
    x_labels = cx.categories + [np.nan] if cx.categories is not None else _bin_labels(cx.edges)
    return _table_frame(table, x_labels, cy.categories + [np.nan], x.name, y.name)


def split_measures(x: Any, y: Any, base: Any) -> tuple[float, float]:
    """(gain, split information) of the split ID3 would make on x, as in pandas."""
    frame = core.series_frame(x, y)
    numeric = not core.is_categorical_meta(frame, "x")
    kinds = {
        "x": (_name(x, "x"), "range" if numeric else "categories"),
        "y": (_name(y, "y"), "categories"),
    }
    codings = _codings(frame, kinds)
    cx, cy = codings["x"], codings["y"]
    if not numeric:
        return table_measures(crosstab(frame, cx, cy), base)
    # a numeric x: its best midpoint, from the class counts of its distinct values
    return threshold_measures(numeric_split(frame, cx, cy), base)


def _value_counts_chunk(part: Any, cx: Any, cy: Any) -> Any:
    return counts_of_values(cx.values(part), cy.codes(part), cy.n_codes)


def counts_of_values(values: Any, y: Any, n_classes: Any) -> Any:
    """``((segment, values, counts), missing, parent)`` of one numeric column in one segment, as
    :func:`counts_of_values_plain` gives them: one hashing pass codes the values
    (:func:`core.number_codes`, missing last) and one ``bincount`` counts (code, class) cells,
    with no sort of the rows and no mask; a zero keeps the sign of its first row."""
    distinct, codes = core.number_codes(values)
    n_values = len(distinct)
    cells = codes.astype(np.int64) * n_classes + y
    table = np.bincount(cells, minlength=(n_values + 1) * n_classes).reshape(-1, n_classes)
    occurring = np.flatnonzero(table[:n_values].any(axis=1))
    found = distinct[occurring]
    zero = np.flatnonzero(values == 0)[:1]
    if len(zero):
        found[found == 0] = values[zero[0]]
    segment = np.zeros(len(occurring), dtype=np.int64)
    return (segment, found, table[occurring]), table[n_values], table.sum(axis=0)


def counts_of_values_plain(values: Any, y: Any, n_classes: Any) -> Any:
    """:func:`counts_of_values` by masking the present rows and sorting their values."""
    present = ~np.isnan(values)
    found = distinct_value_counts(
        np.zeros(int(present.sum()), np.int64), values[present], y[present], n_classes
    )
    missing = np.bincount(y[~present], minlength=n_classes)
    return found, missing, np.bincount(y, minlength=n_classes)


def _merge_counts_of_values(found: list) -> Any:
    """:func:`counts_of_values` of several partitions as one (one sort of all their values)."""
    merged = merge_all_value_counts([f[0] for f in found])
    return merged, sum(f[1] for f in found), sum(f[2] for f in found)


merge_counts_of_values = core.MergeAll(_merge_counts_of_values)
"""The combiner of :func:`counts_of_values` summaries (a list at once)."""


def value_counts(frame: Any, cx: Any, cy: Any) -> Any:
    """Delayed ``((segment, values, counts), missing, parent)`` of a numeric x against y."""
    return core.reduce_partitions(frame, _value_counts_chunk, merge_counts_of_values, cx, cy)


def search_values(found: Any) -> Any:
    """The best threshold (a ThresholdSearch of one segment) from merged value counts."""
    (segment, values, counts), missing, parent = found
    if parent.sum() == 0:
        raise ValueError("x and y are empty")
    search, _ = search_counted_thresholds(
        segment, values, counts, missing[None, :], parent[None, :]
    )
    return search


def numeric_split(frame: Any, cx: Any, cy: Any) -> Any:
    """The best threshold of a numeric x (a ThresholdSearch of one segment)."""
    return search_values(core.compute(value_counts(frame, cx, cy))[0])
