"""The classical tests' sufficient statistics from a Dask DataFrame, merged across partitions.

Chi-square and G need the contingency table; ANOVA the size, mean and sum of squared deviations
of every group; the regression t the means and the sums of squares and products about them. All
of them merge exactly: tables add, and (n, mean, M2) triples merge by the pairwise update of
Chan, Golub and LeVeque, which keeps the precision of a two-pass computation. Rows missing either
value are dropped, as with pandas input. Each function is the Dask version of the dispatched
function named in :data:`id3tree.dask.VERSIONS`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from id3tree.dask import core
from id3tree.dask.measures import crosstab
from id3tree.stats._columns import interval
from id3tree.stats.classical import Observed

__all__ = ["co_moments", "deviance", "group_sums", "observed_table"]


def _names(x: Any, y: Any) -> tuple[str, str]:
    return (
        "x" if getattr(x, "name", None) is None else str(x.name),
        "y" if getattr(y, "name", None) is None else str(y.name),
    )


def _complete(x: Any, y: Any) -> Any:
    """The frame of the rows where both values are present, and the two names."""
    x_name, y_name = _names(x, y)
    frame = core.series_frame(x, y).dropna()
    return frame, x_name, y_name


def _no_rows(x_name: str) -> ValueError:
    return ValueError(f"column {x_name!r} has no rows with both values present")


def observed_table(x: Any, y: Any) -> Observed:
    """The table of observed counts of two categorical columns (complete rows only)."""
    frame, x_name, y_name = _complete(x, y)
    kinds = {"x": (x_name, "categories"), "y": (y_name, "categories")}
    summary = core.compute(core.describe(frame, kinds))[0]
    codings = core.codings_from(summary, kinds)
    cx, cy = codings["x"], codings["y"]
    if not cx.categories:
        raise _no_rows(x_name)
    table = crosstab(frame, cx, cy)[:-1, :-1]  # no missing values are left
    observed = pd.DataFrame(
        table,
        index=pd.Index(cx.categories, dtype=object, name=x_name),
        columns=pd.Index(cy.categories, dtype=object, name=y_name),
    )
    return Observed(observed, int(table.sum()), x_name, y_name)


def _merge(a: Any, b: Any) -> Any:
    """Merge two (n, mean, M2) summaries, entry by entry (arrays of groups allowed)."""
    n_a, mean_a, m2_a = a
    n_b, mean_b, m2_b = b
    n = n_a + n_b
    with np.errstate(invalid="ignore", divide="ignore"):
        share = np.where(n > 0, n_b / np.where(n > 0, n, 1), 0.0)
    delta = mean_b - mean_a
    return n, mean_a + delta * share, m2_a + m2_b + delta * delta * n_a * share


def _group_chunk(part: Any, cx: Any, y_name: Any, y_dtype: Any) -> Any:
    groups = cx.codes(part)
    values = core.numbers(part["y"], y_name, y_dtype)
    k = cx.n_codes
    n = np.bincount(groups, minlength=k).astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(n > 0, np.bincount(groups, weights=values, minlength=k) / n, 0.0)
    m2 = np.bincount(groups, weights=(values - mean[groups]) ** 2, minlength=k)
    return n, mean, m2


def group_sums(x: Any, y: Any) -> Any:
    """``(n_i, mean_i, mean, SST, SSW, x_name, y_name)`` of an interval y in the groups of x."""
    frame, x_name, y_name = _complete(x, y)
    interval(frame._meta["y"], y_name, "anova_test", "chi_square_test")  # refuses text, naming it
    kinds = {"x": (x_name, "categories")}
    cx = core.codings_from(core.compute(core.describe(frame, kinds))[0], kinds)["x"]
    if not cx.categories:
        raise _no_rows(x_name)
    n_i, mean_i, m2_i = core.compute(
        core.reduce_partitions(frame, _group_chunk, _merge, cx, y_name, frame._meta["y"].dtype)
    )[0]
    n_i, mean_i, m2_i = n_i[:-1], mean_i[:-1], m2_i[:-1]  # no missing group is left
    n = n_i.sum()
    mean = float((n_i * mean_i).sum() / n)
    ssw = float(m2_i.sum())
    sst = ssw + float((n_i * (mean_i - mean) ** 2).sum())
    return n_i, mean_i, mean, sst, ssw, x_name, y_name


def _co_chunk(part: Any, x_name: Any, y_name: Any, dtypes: Any) -> Any:
    xv = core.numbers(part["x"], x_name, dtypes[0])
    yv = core.numbers(part["y"], y_name, dtypes[1])
    n = len(xv)
    if n == 0:
        return 0, 0.0, 0.0, 0.0, 0.0, 0.0
    mx, my = float(xv.mean()), float(yv.mean())
    dx, dy = xv - mx, yv - my
    return n, mx, my, float(dx @ dx), float(dy @ dy), float(dx @ dy)


def _co_merge(a: Any, b: Any) -> Any:
    n = a[0] + b[0]
    if a[0] == 0 or b[0] == 0:
        return a if b[0] == 0 else b
    dx, dy = b[1] - a[1], b[2] - a[2]
    w = a[0] * b[0] / n
    return (
        n,
        a[1] + dx * b[0] / n,
        a[2] + dy * b[0] / n,
        a[3] + b[3] + dx * dx * w,
        a[4] + b[4] + dy * dy * w,
        a[5] + b[5] + dx * dy * w,
    )


def co_moments(x: Any, y: Any) -> Any:
    """``(n, Sxx, Syy, Sxy, rss, x_name, y_name)`` of two interval columns."""
    frame, x_name, y_name = _complete(x, y)
    interval(frame._meta["x"], x_name, "regression_test", "anova_test")
    interval(frame._meta["y"], y_name, "regression_test", "deviance_test")
    n, _, _, sxx, syy, sxy = core.compute(
        core.reduce_partitions(
            frame, _co_chunk, _co_merge, x_name, y_name, tuple(frame._meta.dtypes)
        )
    )[0]
    if n == 0:
        raise _no_rows(x_name)

    def rss(slope: Any) -> Any:  # residual sum of squares: Syy - b Sxy, never below 0
        return max(syy - slope * sxy, 0.0)

    return n, sxx, syy, sxy, rss, x_name, y_name


def deviance(x: Any, y: Any) -> None:
    """The deviance test is not available on Dask: it says what to do instead."""
    raise TypeError(
        "the deviance test fits a multinomial logit by Newton steps over all rows and needs "
        "pandas input; call .compute() on the two columns first (or on a sample of rows), or "
        "bin x and use chi_square_test / g_test, which take Dask columns"
    )
