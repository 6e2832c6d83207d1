"""What ``ID3Classifier.fit`` does with the data: check it, encode it, grow the tree.

:func:`encode_and_grow` is the one step of ``fit`` that differs with where the data lives: this
is its version for data in memory (pandas, numpy, lists); an adapter registers its own
(:mod:`id3tree.base.dispatch`; for a Dask DataFrame, one distributed pass per level). Either returns a
:class:`Fitted`, from which the estimator sets its fitted attributes.
"""

from __future__ import annotations

import ctypes
import functools
import sys
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from id3tree.base.diagnostics import left_out_message
from id3tree.base.dispatch import dispatched
from id3tree.base.training import EncodedData, training_data
from id3tree.engine.grow import GrowParams, grow
from id3tree.engine.routing import training_rows_at
from id3tree.model.grown_tree import GrownTree, id_like_splits, number_run_splits

__all__ = [
    "encode_and_grow", "Fitted", "FULL_TRACE_VALUES", "id_like_found", "id_like_warnings",
    "return_freed_memory", "trace_for_data",
]  # fmt: skip

FULL_TRACE_VALUES = 1_000_000
"""With ``keep_trace="auto"``, training sets of at most this many values (rows x features) keep
the whole trace and the encoded training data; larger ones keep the chosen splits only."""


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
    # id_like="drop": the ID-like warnings of the columns left out (None: none was looked for)
    left_out: list | None = None
    # id_like="warn": the warnings of the columns of row numbers split on (None: not looked for)
    number_runs: list | None = None
    columns: list | None = None  # X's column labels as they were (0, 1.5, ...), for a frame


@dispatched
def encode_and_grow(X, y, sample_weight, model, params: GrowParams, listen) -> Fitted:
    """Check and encode the training data of ``model`` (an ``ID3Classifier``, whose parameters
    say which columns are categorical and how rows weigh) and grow its tree by ``params``;
    ``listen(data)`` gives the growth's listener (:class:`~id3tree.engine.record.Listener`), or
    None when nobody listens."""
    if model.numeric_bins is not None:
        raise ValueError(
            "numeric_bins applies to Dask DataFrames only (in memory every midpoint is "
            f"searched exactly); leave it None, got {model.numeric_bins!r}"
        )
    data, classes = training_data(
        X, y, sample_weight, categorical=model.categorical, class_weight=model.class_weight
    )
    data.thresholds = model.thresholds  # (checked: "midpoint" or "c45")
    params.ties = getattr(model, "ties", "first")  # (checked: "first" or "name")
    if params.keep_trace == "auto":  # (params are this fit's own)
        values = len(data.y) * data.n_features
        params.keep_trace = True if values <= FULL_TRACE_VALUES else "splits"
    if model.min_weight_fraction_leaf > 0:  # weighs the rows: each weighs 1 by default
        weight = np.ones(len(data.y)) if data.weight is None else data.weight
        data.weight = weight
        # less a relative 1e-9: sums of weights carry rounding, and a branch of exactly the
        # limit (12 rows of 0.001 for 8% of 150 such rows) must pass as its rows would
        limit = float(model.min_weight_fraction_leaf) * float(weight.sum())
        params.min_weight_leaf = limit * (1 - 1e-9)
    grown, grown_on, left_out = _grown(data, params, listen, model.id_like)
    complete = params.keep_trace is True
    frame = isinstance(X, pd.DataFrame)
    runs = number_run_splits(grown, data.names, data.numeric) if model.id_like == "warn" else None
    return Fitted(
        data.names, data.categories, classes, grown, grown_on if complete else None,
        string_names=frame and all(isinstance(c, str) for c in X.columns), from_frame=frame,
        trace_complete=complete, left_out=left_out, number_runs=runs,
        columns=list(X.columns) if frame else None,
    )  # fmt: skip


def _grown(data: EncodedData, params: GrowParams, listen, id_like: str) -> tuple:
    """``(tree, the data it was grown on, the ID-like messages of the columns left out)``.

    With ``id_like="drop"``, while columns make identifier-like splits (:func:`id_like_found`,
    and splits on columns of row numbers), the tree is grown again without them, quietly: the listener hears the last growth only. The
    tree's features are then numbered as the columns of ``data`` (all of them), so the model
    takes the same columns as ever; the columns left out are in no split."""
    if id_like != "drop":
        return grow(data, params, listen(data)), data, None
    kept, left_out = data, []
    while True:
        grown = grow(kept, params, None)
        found = id_like_found(grown, kept, kept.names, kept.categories)
        found += number_run_splits(grown, kept.names, kept.numeric)
        if not found:
            break
        features = [warning.feature for warning in found]
        if len(features) == kept.n_features:
            every = [warning.feature for warning in left_out + found]
            raise ValueError(
                f"every column looks like an identifier ({every}), so id_like='drop' would "
                "leave none to grow a tree on; id_like='warn' or 'keep' keeps them"
            )
        left_out += found
        kept = _without(kept, features)
    listener = listen(kept)
    if listener is not None:
        grown = grow(kept, params, listener)
    if left_out:
        grown = _renumbered(grown, kept.names, data.names)
    return grown, kept, left_out


def _without(data: EncodedData, features: list) -> EncodedData:
    """``data`` without the columns named ``features``."""
    keep = [f for f, name in enumerate(data.names) if name not in features]
    return replace(
        data,
        names=[data.names[f] for f in keep],
        numeric=[data.numeric[f] for f in keep],
        codes=[data.codes[f] for f in keep],
        categories=[data.categories[f] for f in keep],
    )


def _renumbered(grown: GrownTree, kept: list, names: list) -> GrownTree:
    """A tree grown on the columns ``kept`` with its features (in its splits and its trace)
    numbered as the columns ``names`` (all of them); -1 (a leaf) stays -1."""
    position = np.array([names.index(name) for name in kept] + [-1], dtype=np.int64)
    grown.feature = position[grown.feature]
    if grown.trace is not None:
        trace = {column: grown.trace[column] for column in grown.trace}
        trace["feature"] = position[trace["feature"]]
        grown.trace = trace
    return grown


def id_like_found(tree: GrownTree, data, names: list, categories: list, nodes=None) -> list:
    """The identifier-like splits of ``tree`` (:func:`~id3tree.model.grown_tree.id_like_splits`),
    one warning per column. The rule is about rows: a weighted fit's nodes (whose counts are
    sums of weights) have their rows counted in ``data``, the training data, routed down the
    tree's ``nodes`` (made from ``tree`` unless given, a callable giving them), made only
    when a categorical split needs its rows counted: a tree of numeric splits needs none."""
    rows_of = None
    if getattr(data, "weight", None) is not None:
        made = functools.cache(
            lambda: tree.nodes(names, categories, data.classes) if nodes is None else nodes()
        )
        rows_of = lambda i: len(training_rows_at(made()[0], data, made()[i]))  # noqa: E731
    return id_like_splits(tree, names, categories, rows_of)


def id_like_warnings(model, fitted: Fitted) -> list:
    """What ``fit`` warns of (:class:`~id3tree.base.diagnostics.IDLikeFeatureWarning`, each with
    its column and split) by ``model.id_like``: the identifier-like splits and the splits on
    columns of row numbers (``"warn"``), the columns left out (``"drop"``) or nothing
    (``"keep"``)."""
    if model.id_like == "keep":
        return []
    if model.id_like == "drop" and fitted.left_out is not None:
        return [left_out_message(warning) for warning in fitted.left_out]
    data = getattr(model, "_fit_data", None)
    found = id_like_found(model._tree, data, model._names, model._categories, model._node_list)
    found += getattr(fitted, "number_runs", None) or []  # (an adapter's Fitted: none)
    if found and model.id_like == "drop":  # an adapter's fit, which grows once
        raise NotImplementedError(
            f"id_like='drop' is for data in memory; this fit grows the tree once. {found[0]}"
        )
    return found


def trace_for_data(trace, names: list, data):
    """The trace's columns with its features numbered as the columns of ``data`` (the training
    data a fit kept: without the columns ``id_like="drop"`` left out), not as ``names``."""
    if trace is None or data is None or len(data.names) == len(names):
        return trace
    position = np.array([data.names.index(n) if n in data.names else -2 for n in names] + [-1])
    return {**trace, "feature": position[trace["feature"]]}


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
