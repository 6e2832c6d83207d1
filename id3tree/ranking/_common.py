"""What the ranking functions share: checking X and y, and binned codes.

Every entropy in the ranking functions comes from :mod:`id3tree.base.entropy`, the package's one
``-sum p log p``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from id3tree.base.validation import check_labels, factorize
from id3tree.information import _codes


def check_target(y: Any, n_rows: int) -> tuple[np.ndarray, list[Any]]:
    """Class codes ``0 .. K-1`` of a target column and its classes; missing labels are an error."""
    return factorize(check_labels(y, n_rows), "y")


def narrow(codes: np.ndarray, n_codes: int) -> np.ndarray:
    """Codes in the narrowest unsigned dtype that holds ``0 .. n_codes - 1``."""
    return codes.astype(narrow_dtype(n_codes), copy=False)


def narrow_dtype(n_codes: int) -> np.dtype:
    """The narrowest unsigned dtype that holds the codes ``0 .. n_codes - 1``."""
    return np.min_scalar_type(max(n_codes - 1, 0))


def binned_codes(column: pd.Series, name: str, bins: Any) -> tuple[np.ndarray, int]:
    """Codes of one column by the rule of :func:`id3tree.mutual_information`.

    Numeric columns in ``bins`` equal-width bins (``numpy.histogram`` edges), categories one code
    each (in order of first appearance: every use here counts, none needs the values sorted),
    missing values the last code. Returns ``(codes, number of codes)``.
    """
    codes, n_codes = _codes(column, name, bins=bins, ordered=False)
    return narrow(codes, n_codes), n_codes
