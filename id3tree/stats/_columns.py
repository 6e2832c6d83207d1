"""Two columns in, the rows where both are present out, as the arrays each test needs.

The classical tests drop a row when either value is missing (a test needs both) and report how
many rows they used. Every error names the column and the problem.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from id3tree.base.validation import as_series, factorize, is_numeric, numeric_values


@dataclass(frozen=True)
class Pair:
    """A feature and a target restricted to the rows where both are present."""

    x: pd.Series
    y: pd.Series
    x_name: str
    y_name: str
    n_dropped: int

    @property
    def n(self) -> int:
        return len(self.x)


def complete_rows(x: Any, y: Any) -> Pair:
    """Align x and y by position and keep the rows where neither is missing."""
    xs, ys = as_series(x, "x"), as_series(y, "y")
    x_name = "x" if xs.name is None else str(xs.name)
    y_name = "y" if ys.name is None else str(ys.name)
    if len(xs) != len(ys):
        raise ValueError(
            f"column {x_name!r} and target {y_name!r} must have the same length, "
            f"got {len(xs)} and {len(ys)}"
        )
    present = (xs.notna() & ys.notna()).to_numpy()
    if not present.any():
        raise ValueError(
            f"column {x_name!r} has no rows with both values present ({len(xs)} rows: "
            f"{int(xs.isna().sum())} missing in {x_name!r}, {int(ys.isna().sum())} in {y_name!r})"
        )
    keep = np.flatnonzero(present)
    return Pair(
        xs.iloc[keep].reset_index(drop=True),
        ys.iloc[keep].reset_index(drop=True),
        x_name,
        y_name,
        int(len(xs) - len(keep)),
    )


def categories(series: pd.Series, name: str) -> tuple[np.ndarray, list[Any]]:
    """Codes ``0 .. L-1`` of the categories (the rows here have no missing values) and the
    categories themselves, in their natural order."""
    return factorize(series, name)


def interval(series: pd.Series, name: str, test: str, instead: str) -> np.ndarray:
    """A numeric column as float64; text, category and bool columns are refused with a hint."""
    if not is_numeric(series):
        raise ValueError(
            f"{test} needs a numeric (interval) column, but {name!r} has dtype "
            f"{series.dtype}; for a categorical {name!r} use {instead}"
        )
    return numeric_values(series, name)
