"""What the ranking functions share: checking X and y, and binned codes.

Every entropy in the ranking functions comes from :mod:`id3tree._entropy`, the package's one
``-sum p log p``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from id3tree._validation import as_series, factorize, to_frame
from id3tree.information import _codes


def check_frame(X, name: str = "X") -> pd.DataFrame:
    """X as a DataFrame with at least one row and one column and unique column names."""
    frame = to_frame(X, name)
    if frame.shape[1] == 0:
        raise ValueError(  # scikit-learn's wording, which its estimator checks look for
            f"{name} has 0 feature(s) (shape={frame.shape}) while a minimum of 1 is required: "
            "at least one feature is needed"
        )
    if frame.shape[0] == 0:
        raise ValueError(f"{name} is empty: it has 0 rows; at least one is needed")
    names = [str(c) for c in frame.columns]
    if len(set(names)) != len(names):
        duplicated = sorted({n for n in names if names.count(n) > 1})
        raise ValueError(f"{name} has duplicate column names: {duplicated}")
    for column, dtype in zip(names, frame.dtypes):
        _refuse_complex(dtype, f"column {column!r}")
    return frame


def _refuse_complex(dtype, what: str) -> None:
    if pd.api.types.is_complex_dtype(dtype):
        raise ValueError(f"{what} holds complex numbers: Complex data not supported")


def check_target(y, n_rows: int) -> tuple[np.ndarray, list]:
    """Class codes ``0 .. K-1`` of a target column and its classes; missing labels are an error."""
    series = as_series(y, "y")
    _refuse_complex(series.dtype, "y")
    if len(series) != n_rows:
        raise ValueError(f"X and y must have the same length, got {n_rows} and {len(series)}")
    missing = int(series.isna().sum())
    if missing:
        raise ValueError(
            f"y has {missing} missing label(s) (first at row {int(np.argmax(series.isna()))}); "
            "drop those rows or give them a class"
        )
    codes, classes = factorize(series, "y")
    return codes, classes


def narrow(codes: np.ndarray, n_codes: int) -> np.ndarray:
    """Codes in the narrowest unsigned dtype that holds ``0 .. n_codes - 1``."""
    return codes.astype(np.min_scalar_type(max(n_codes - 1, 0)), copy=False)


def binned_codes(column: pd.Series, name: str, bins) -> tuple[np.ndarray, int]:
    """Codes of one column by the rule of :func:`id3tree.mutual_information`.

    Numeric columns in ``bins`` equal-width bins (``numpy.histogram`` edges), categories one code
    each, missing values the last code. Returns ``(codes, number of codes)``.
    """
    codes, n_codes = _codes(column, name, bins=bins)
    return narrow(codes, n_codes), n_codes
