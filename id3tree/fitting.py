"""What ``ID3Classifier.fit`` does with the data: check it, encode it, grow the tree.

:func:`encode_and_grow` is the one step of ``fit`` that differs with where the data lives: this
is its version for data in memory (pandas, numpy, lists); an adapter registers its own
(:mod:`id3tree._backends`; for a Dask DataFrame, one distributed pass per level). Either returns a
:class:`Fitted`, from which the estimator sets its fitted attributes.
"""

from __future__ import annotations

import ctypes
import sys
import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd
from sklearn.exceptions import DataConversionWarning

from id3tree import persistence
from id3tree._backends import dispatched
from id3tree._params import check_numeric_classes, row_weights
from id3tree._validation import (
    check_labels,
    class_codes,
    factorize,
    is_numeric,
    listed_columns,
    numeric_values,
    plain_labels,
    training_table,
)
from id3tree.grow import EncodedData, GrowParams, grow
from id3tree.grown_tree import GrownTree
from id3tree.tracing import PrintTracer

FULL_TRACE_VALUES = 1_000_000
"""With ``keep_trace="auto"``, training sets of at most this many values (rows x features) keep
the whole trace and the encoded training data; larger ones keep the chosen splits only."""

VERBOSE_THRESHOLDS = 5
"""How many thresholds of each numeric candidate ``verbose=2`` lists, best first."""


@dataclass
class Fitted:
    """What a fit gives the estimator: the encoding of the columns, the grown tree, and what the
    fit kept of its training data."""

    names: list  # the column names
    categories: list  # per column: its categories (categorical) or None (numeric)
    classes: np.ndarray  # the classes, sorted (``classes_``)
    grown: GrownTree
    data: EncodedData | None  # the encoded training rows, kept with the whole trace only
    string_names: bool  # X had column names, all strings (``feature_names_in_``)
    from_frame: bool  # X was a DataFrame (new rows are matched to its columns by name)
    trace_complete: bool  # the trace has every candidate (else the chosen splits only)
    tracer: object  # the tracer the growth was told to (None for none)


@dispatched
def encode_and_grow(X, y, sample_weight, model, params: GrowParams, tracer) -> Fitted:
    """Check and encode the training data of ``model`` (an ``ID3Classifier``, whose parameters
    say which columns are categorical and how rows weigh) and grow its tree by ``params``."""
    if model.numeric_bins is not None:
        raise ValueError(
            "numeric_bins applies to Dask DataFrames only (in memory every midpoint is "
            f"searched exactly); leave it None, got {model.numeric_bins!r}"
        )
    frame, block, labels, weight = _checked_input(X, y, sample_weight, model)
    n_rows, n_features = (frame if block is None else block).shape
    if params.keep_trace == "auto":  # (params are this fit's own)
        params.keep_trace = True if n_rows * n_features <= FULL_TRACE_VALUES else "splits"
    data, classes = _encoded(frame, block, labels, weight, model)
    del frame, block, labels  # (the encoded columns are views or codes of them)
    if model.min_weight_fraction_leaf > 0:  # weighs the rows: each weighs 1 by default
        weight = np.ones(len(data.y)) if data.weight is None else data.weight
        data.weight = weight
        # less a relative 1e-9: sums of weights carry rounding, and a branch of exactly the
        # limit (12 rows of 0.001 for 8% of 150 such rows) must pass as its rows would
        limit = float(model.min_weight_fraction_leaf) * float(weight.sum())
        params.min_weight_leaf = limit * (1 - 1e-9)
    if tracer is None and model.verbose:
        tracer = PrintTracer(max_thresholds=VERBOSE_THRESHOLDS if model.verbose >= 2 else 0)
    grown = grow(data, params, tracer)
    complete = params.keep_trace is True
    return Fitted(
        data.names, data.categories, classes, grown, data if complete else None,
        string_names=isinstance(X, pd.DataFrame) and all(isinstance(c, str) for c in X.columns),
        from_frame=isinstance(X, pd.DataFrame), trace_complete=complete, tracer=tracer,
    )  # fmt: skip


def _checked_input(X, y, sample_weight, model) -> tuple:
    """``(frame, block, labels, weight)``: ``X`` checked (:func:`~id3tree._validation.
    training_table`), the labels (an array of integer or text labels, or a Series), each row's
    weight (None: all 1); rows of weight 0 are left out, as if absent."""
    categorical = model.categorical
    all_numeric = isinstance(categorical, str) and categorical == "auto"  # no column listed
    frame, block = training_table(X, all_numeric)
    n_rows = (frame if block is None else block).shape[0]
    labels = plain_labels(y, n_rows) if model.class_weight is None else None
    if labels is None:
        labels = _checked_labels(y, n_rows)
    weight = row_weights(sample_weight, model.class_weight, labels)
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
    """The class labels as a Series (:func:`~id3tree._validation.check_labels`), numeric ones
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
            stacklevel=_USER_FRAME,
        )
    series = check_labels(y, n_rows)
    if is_numeric(series):  # the verdict depends on the distinct labels only
        check_numeric_classes(series.drop_duplicates().to_numpy())
    return series


_USER_FRAME = 6
"""The stack level of ``fit``'s caller seen from :func:`_checked_labels` (it, _checked_input,
encode_and_grow, the dispatcher, ``fit``, the caller), so a warning names the caller's line."""


def _encoded(frame, block, labels, weight, model) -> tuple[EncodedData, np.ndarray]:
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
        listed, dtypes = listed_columns(model.categorical, names), frame.dtypes.tolist()
        cat_mask = [f in listed or not is_numeric(dtypes[f]) for f in range(n_features)]
        for f, (name, (_, column)) in enumerate(zip(names, frame.items())):
            if cat_mask[f]:
                codes[f], categories[f] = factorize(column, name)
            else:
                numeric[f] = numeric_values(column, name)
    if isinstance(labels, pd.Series):
        y_codes, classes = factorize(labels, "y")
    else:  # sorted as factorize sorts them: numbers by value, text by code point
        distinct, y_codes = class_codes(labels)
        classes = distinct.tolist()
        if distinct.dtype.kind != "U":
            check_numeric_classes(distinct)
    classes = persistence.class_array(classes)
    data = EncodedData(names, numeric, codes, categories, y_codes, classes.tolist(), weight)
    return data, classes


def return_freed_memory() -> None:
    """Hand the memory a large fit freed back to the operating system. The C library's allocator
    keeps freed heap memory for reuse (on Linux, glibc returns it only when asked), so after
    growing a large tree the process would otherwise stay as large as at the fit's peak."""
    global _malloc_trim
    if _malloc_trim is None:
        _malloc_trim = False
        if sys.platform.startswith("linux"):
            try:
                _malloc_trim = ctypes.CDLL("libc.so.6").malloc_trim
            except (OSError, AttributeError):  # not glibc (musl, ...): nothing to ask
                pass
    if _malloc_trim:
        _malloc_trim(0)


_malloc_trim = None
