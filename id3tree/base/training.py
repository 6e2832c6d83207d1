"""The training data as the grower takes it: checked at the edge, then encoded once, numeric
columns as floats (NaN missing), categorical ones as integer codes, the labels as class codes,
each row's weight. Every error about the data is raised here or in :mod:`.validation`, in words
that name the column and the problem; a fit in memory makes its data here, in one call."""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd
from sklearn.exceptions import DataConversionWarning

from id3tree.base.diagnostics import (
    StrayValuesWarning,
    may_hold_stray_values,
    stray_values_message,
    user_level,
)
from id3tree.base.params import check_numeric_classes, row_weights
from id3tree.base.validation import (
    check_labels,
    class_array,
    class_codes,
    factorize,
    is_numeric,
    listed_columns,
    numeric_values,
    plain_labels,
    training_table,
)

__all__ = ["EncodedData", "training_data"]


@dataclass
class EncodedData:
    """Training data as the grower needs it: numpy columns, codes, names."""

    names: list[str]
    numeric: list[np.ndarray | None]  # float64 with NaN, or None for a categorical feature
    codes: list[np.ndarray | None]  # int codes 0..L-1, L = missing; None for a numeric feature
    categories: list[list | None]  # the L category values of each categorical feature
    y: np.ndarray  # class codes 0..K-1
    classes: list
    weight: np.ndarray | None = None  # a positive weight per row (sample_weight); None: all 1
    thresholds: str = "midpoint"  # where a numeric cut goes: "midpoint" or "c45"

    @property
    def n_features(self) -> int:
        return len(self.names)

    def cut_values(self, f: int) -> np.ndarray | None:
        """What a numeric cut of feature ``f`` may snap to: None with ``thresholds="midpoint"``,
        else (``"c45"``) the feature's distinct training values, increasing (made once)."""
        if self.thresholds == "midpoint":
            return None
        known = self.__dict__.setdefault("_cut_values", {})
        if f not in known:
            column = self.numeric[f]
            known[f] = np.unique(column[~np.isnan(column)])  # type: ignore[index]
        return known[f]  # type: ignore[no-any-return]


def training_data(X, y, sample_weight, *, categorical, class_weight) -> tuple:
    """``(data, classes)``: the training data as the grower needs it (:class:`EncodedData`) and
    the classes, sorted. ``categorical`` and ``class_weight`` are the learner's: which columns
    are categorical besides the non-numeric ones, and the weight of each class."""
    frame, block, labels, weight = _checked_input(X, y, sample_weight, categorical, class_weight)
    return _encoded(frame, block, labels, weight, categorical)


def _checked_input(X, y, sample_weight, categorical, class_weight) -> tuple:
    """``(frame, block, labels, weight)``: ``X`` checked (:func:`~id3tree.base.validation.
    training_table`), the labels (an array of integer or text labels, or a Series), each row's
    weight (None: all 1); rows of weight 0 are left out, as if absent."""
    all_numeric = isinstance(categorical, str) and categorical == "auto"  # no column listed
    frame, block = training_table(X, all_numeric)
    n_rows = (frame if block is None else block).shape[0]
    labels = plain_labels(y, n_rows) if class_weight is None else None
    if labels is None:
        labels = _checked_labels(y, n_rows)
    weight = row_weights(sample_weight, class_weight, labels)
    if weight is not None and not np.all(weight > 0):  # weight 0: as if the row were absent
        kept = np.flatnonzero(weight > 0)
        if block is None:
            frame = frame.iloc[kept].reset_index(drop=True)
        else:
            block = block[kept]  # (the frame is kept for its column names only)
        if isinstance(labels, pd.Series):
            labels = labels.iloc[kept].reset_index(drop=True)
        else:
            labels = labels[kept]
        weight = weight[kept]
    return frame, block, labels, weight


def _checked_labels(y, n_rows: int) -> pd.Series:
    """The class labels as a Series (:func:`~id3tree.base.validation.check_labels`), numeric ones
    checked to be classes, not continuous values."""
    if y is None:
        raise ValueError(
            "ID3Classifier requires y to be passed, but the target y is None; it needs class "
            "labels to learn from"
        )
    if isinstance(y, np.ndarray) and y.ndim == 2 and y.shape[1] == 1:
        warnings.warn(
            "A column-vector y was passed when a 1d array was expected. Please change the shape "
            "of y to (n_samples,), for example using ravel().",
            DataConversionWarning,
            stacklevel=user_level(),
        )
    series = check_labels(y, n_rows)
    if is_numeric(series):  # the verdict depends on the distinct labels only
        check_numeric_classes(series.drop_duplicates().to_numpy())
    return series


def _encoded(frame, block, labels, weight, categorical) -> tuple[EncodedData, np.ndarray]:
    """The training data as the grower needs it (numeric columns as floats, categorical ones
    as codes, the labels as class codes) and the classes, sorted."""
    n_features = (frame if block is None else block).shape[1]
    if frame is not None:
        names = [str(c) for c in frame.columns]
    else:
        names = [f"x{i}" for i in range(n_features)]  # as to_frame names an array's columns
    categories, codes = [None] * n_features, [None] * n_features
    if block is not None:  # the columns are views of the block
        numeric = list(block.T)
    else:
        numeric = [None] * n_features
        # non-numeric columns are categorical; categorical= may add numeric ones
        listed, dtypes = listed_columns(categorical, names), frame.dtypes.tolist()
        cat_mask = [f in listed or not is_numeric(dtypes[f]) for f in range(n_features)]
        for f, (name, (_, column)) in enumerate(zip(names, frame.items())):
            if cat_mask[f]:
                codes[f], categories[f] = factorize(column, name)
                if f not in listed and may_hold_stray_values(categories[f]):
                    _warn_of_stray_values(column, name)
            else:
                numeric[f] = numeric_values(column, name)
    if isinstance(labels, pd.Series):
        y_codes, classes = factorize(labels, "y")
    else:  # sorted as factorize sorts them: numbers by value, text by code point
        distinct, y_codes = class_codes(labels)
        classes = distinct.tolist()
        if distinct.dtype.kind != "U":
            check_numeric_classes(distinct)
    classes = class_array(classes)
    data = EncodedData(names, numeric, codes, categories, y_codes, classes.tolist(), weight)
    return data, classes


def _warn_of_stray_values(column, name: str) -> None:
    """Name the values that made a column of numbers text (the command line's own words)."""
    message = stray_values_message(column, name)
    if message:
        warnings.warn(message, StrayValuesWarning, stacklevel=user_level())
