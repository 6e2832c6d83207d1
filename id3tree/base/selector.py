"""What the package's scikit-learn feature selectors share: checking the data they are fitted
on, their tags, and keeping the chosen columns of a DataFrame as a DataFrame."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator
from sklearn.feature_selection import SelectorMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from id3tree.base.validation import check_table

__all__ = ["FrameSelector"]


class FrameSelector(SelectorMixin, BaseEstimator):
    """A selector whose ``fit`` sets a boolean ``support_`` over the columns of X."""

    def _fit_table(self, X: Any, y: Any) -> pd.DataFrame:
        """X checked and recorded (``n_features_in_``, ``feature_names_in_``), as a DataFrame."""
        if y is None:
            raise ValueError(
                f"{type(self).__name__} requires y to be passed, but the target y is None"
            )
        validate_data(self, X, skip_check_array=True, reset=True)
        return check_table(X)

    def transform(self, X: Any) -> Any:
        """The selected columns of X: a DataFrame stays a DataFrame (with its dtypes)."""
        check_is_fitted(self, "support_")
        if isinstance(X, pd.DataFrame):
            validate_data(self, X, skip_check_array=True, reset=False)
            return X.loc[:, self.support_]
        return super().transform(X)

    def _get_support_mask(self) -> np.ndarray:
        check_is_fitted(self, "support_")
        return self.support_

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        tags.input_tags.allow_nan = True
        tags.input_tags.categorical = True
        tags.input_tags.string = True
        return tags
