"""ID3Classifier: the ID3 decision tree as a scikit-learn estimator.

The estimator is the thin layer: it checks parameters and data, encodes the columns once
(:mod:`id3tree._validation`), grows the tree (:mod:`id3tree.grow`), keeps it as flat arrays in
pre-order (:class:`~id3tree.grown_tree.GrownTree`; the :class:`~id3tree.node.Node` objects of
``root_`` are made the first time they are asked for), and routes new rows from the arrays
(:mod:`id3tree.routing`).
"""

from __future__ import annotations

import ctypes
import json
import numbers
import sys
import warnings
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import DataConversionWarning
from sklearn.utils.validation import check_is_fitted

from id3tree import persistence, pruning
from id3tree._dask import any_dask
from id3tree._params import (
    check_alpha,
    check_ccp_alpha,
    check_choice,
    check_int,
    check_keep_trace,
    check_min_gain,
    check_min_weight_fraction_leaf,
    check_numeric_bins,
    check_numeric_classes,
    check_sample_weight,
    check_total_weight,
    row_weights,
)
from id3tree._validation import (
    check_labels,
    check_table,
    encode_like_fit,
    factorize,
    frame_block,
    is_numeric,
    listed_columns,
    numeric_block,
    numeric_values,
    plain_labels,
    to_frame,
)
from id3tree.diagnostics import IDLikeFeatureWarning, id_like_message, is_id_like
from id3tree.grow import EncodedData, GrowParams, grow
from id3tree.grown_tree import GrownTree
from id3tree.node import Node, edge_label, node_paths
from id3tree.render.text import explain_path, tree_to_text
from id3tree.routing import CompiledTree
from id3tree.trace_table import candidate_table
from id3tree.tracing import PrintTracer

CRITERIA = ("entropy", "gain_ratio")
FULL_TRACE_VALUES = 1_000_000
"""With ``keep_trace="auto"``, training sets of at most this many values (rows x features) keep
the whole trace and the encoded training data; larger ones keep the chosen splits only."""
VERBOSE_THRESHOLDS = 5
"""How many thresholds of each numeric candidate ``verbose=2`` lists, best first."""


class ID3Classifier(ClassifierMixin, BaseEstimator):
    """An ID3 decision tree: multiway categorical splits, midpoint thresholds for numbers.

    Parameters
    ----------
    criterion : {"entropy", "gain_ratio"}, default="entropy"
        How features compete at a node: information gain, or gain divided by split information
        (C4.5; see ``average_gain_rule``). Information gain favours features with many values: a
        column with one value per row (a name, an id) has the largest gain of all, and the learner
        warns about such splits with an :class:`~id3tree.diagnostics.IDLikeFeatureWarning`. A numeric feature's threshold is always the midpoint of lowest overall entropy.
    max_depth : int or None, default=None
        Nodes at this depth become leaves. None grows until the leaves are pure or no split helps.
    min_samples_split : int, default=2
        A node with fewer rows is a leaf.
    min_samples_leaf : int, default=1
        Every branch of a split (the missing-values branch included) must get at least this many
        rows; numeric thresholds that leave fewer on a side are not candidates. Rows are
        counted, not weights, as in scikit-learn (``min_samples_split`` too).
    min_weight_fraction_leaf : float, default=0.0
        As in scikit-learn: every branch of a split must hold at least this share of the total
        weight (``sample_weight`` times ``class_weight``; without weights, of the rows), and a
        node weighing less than twice that is a leaf. At most 0.5.
    min_gain : float, default=0.0
        A split is made only if its information gain is at least this (bits).
    alpha : float or None, default=None
        If set, a split is made only when Pearson's chi-square test of independence between its
        branches and the class is significant at ``alpha`` (Quinlan 1986). With weights the
        test is made on the weighted counts, weights taken as frequencies (a row of weight 2 is
        two rows), so scaling every weight changes the p-values.
    categorical : "auto" or list of str or int, default="auto"
        ``"auto"``: numeric dtypes are continuous; object, string, category and bool columns are
        categorical. A list names (or gives the positions of) numeric columns to treat as
        categorical too, such as coded numbers; non-numeric columns are always categorical.
    class_weight : dict, "balanced" or None, default=None
        Weights of the classes, as in scikit-learn (``compute_sample_weight``): a dict
        ``{class: weight}`` (classes not listed weigh 1), or ``"balanced"``, which weighs each
        row ``n_samples / (n_classes * n_rows_of_its_class)`` so every class weighs the same in
        total. Multiplied with ``sample_weight``; the tree's counts become weighted counts (see
        :meth:`fit`).
    ccp_alpha : float, default=0.0
        Minimal cost-complexity pruning after growth, as in scikit-learn: the tree keeps the subtree
        whose weakest link has the largest effective alpha not above ``ccp_alpha`` (impurity =
        entropy in bits weighted by the node's share of the rows). 0 prunes nothing. See
        :meth:`cost_complexity_pruning_path` and :meth:`prune`.
    average_gain_rule : bool, default=True
        Used with ``criterion="gain_ratio"`` only: as in C4.5, a feature competes on gain ratio
        only if its information gain is at least the average gain of the features that offer a
        valid split at that node. Without the rule, a split that gains almost nothing but has
        tiny split information (one huge branch and a few tiny ones) can win. False turns it off.
        The trace's decision line names the average and the features the rule kept out.
    verbose : int, default=0
        0 silent. 1 prints the hand calculation of every node once the tree is grown, in
        reading order (depth first, so indentation always means "child of the node above"):
        its class counts and entropy; for every candidate feature its branches (each value of a
        categorical feature, both sides of a numeric feature's best threshold "<= t (between a
        and b)", and the missing values) with their class counts, entropy, weight and weighted
        entropy, then the overall entropy and the gain; the decision, any tie and the rule that
        broke it, and why a leaf stops. 2 also lists, under every numeric candidate, its 5 best
        thresholds with their overall entropy (one line) and how many more there are; ``fit(X, y,
        tracer=PrintTracer(max_thresholds=None))`` lists them all (see :mod:`id3tree.tracing`);
        thresholds are listed for in-memory data only.
    numeric_bins : int or None, default=None
        Only for a Dask DataFrame: None searches every midpoint of every numeric feature exactly,
        as in memory (the tree is the same); an integer B first cuts each numeric feature into B
        equal-width bins over its range and puts thresholds on bin edges only. That is a
        different, approximate algorithm, for columns with too many distinct values to count
        per node; see ``docs/dask.md``.
    keep_trace : {"auto", True, False}, default="auto"
        What the fitted model keeps of its growth for ``trace_``, :meth:`candidate_table` and
        the teaching tools (:meth:`steps`, :meth:`why_not`, :meth:`worked_solution`,
        :meth:`to_html`). True: the whole trace (one row per node and candidate feature) and the
        encoded training data. "auto": the same for training sets of at most
        ``FULL_TRACE_VALUES`` = 1,000,000 values (rows x features), every classroom dataset;
        a larger fit keeps one row per node in ``trace_`` (the chosen split, or the leaf;
        ``trace_.attrs["complete"]`` is False) and no training data, so the teaching tools ask
        for ``keep_trace=True``. (A million-row tree has ~10^5 nodes: its whole trace would
        take more memory than the tree.) False keeps neither. The tree is the same in all cases.

    Notes
    -----
    *Missing values* (NaN, None, pd.NA) go down a branch of their own, for categorical and numeric
    features alike; at prediction time a missing value where no training row was missing stops
    at that node. So does a category never seen at the node. A stopped row is predicted from the
    class counts of the node where it stopped.

    *Ties* are broken by a fixed rule, so the same data always gives the same tree: among features
    whose scores are within ``1e-10`` bits the first in column order wins, and among thresholds of
    one feature the smallest. The trace says when a tie was broken. A node's prediction is its
    majority class, ties going to the class that comes first in ``classes_``.

    Examples
    --------
    >>> from id3tree import ID3Classifier
    >>> from id3tree.datasets import load_play_tennis
    >>> X, y = load_play_tennis(return_X_y=True)
    >>> tree = ID3Classifier().fit(X, y)
    >>> tree.root_.feature, tree.get_depth(), tree.get_n_leaves()
    ('Outlook', 2, 5)
    """

    def __init__(
        self,
        *,
        criterion="entropy",
        max_depth=None,
        min_samples_split=2,
        min_samples_leaf=1,
        min_weight_fraction_leaf=0.0,
        min_gain=0.0,
        alpha=None,
        categorical="auto",
        class_weight=None,
        ccp_alpha=0.0,
        average_gain_rule=True,
        verbose=0,
        numeric_bins=None,
        keep_trace="auto",
    ):
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.min_gain = min_gain
        self.alpha = alpha
        self.categorical = categorical
        self.class_weight = class_weight
        self.ccp_alpha = ccp_alpha
        self.average_gain_rule = average_gain_rule
        self.verbose = verbose
        self.numeric_bins = numeric_bins
        self.keep_trace = keep_trace

    # -----------------------------------------------------------------------------------------
    # fitting
    # -----------------------------------------------------------------------------------------
    def fit(self, X, y, sample_weight=None, *, tracer=None):  # noqa: C901 -- input fast paths still inline
        """Grow the tree.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            A DataFrame (its column names are used), an array or a list of rows.
        y : array-like of shape (n_samples,)
            Class labels; missing labels are an error.
        sample_weight : array-like of shape (n_samples,), optional
            Finite, non-negative weights of the rows, as in scikit-learn (multiplied with
            ``class_weight``). Every count the learner makes becomes a sum of weights: the class
            counts and ``n_samples`` of the nodes, the entropies, gains and thresholds, the
            chi-square test of ``alpha``, the trace, ``predict_proba`` and
            ``feature_importances_``. A row of weight 2 counts as two copies of it (integer
            weights grow the tree of repeated rows, counts included); rows of weight 0 are left
            out, as if absent. ``min_samples_leaf`` and ``min_samples_split`` still count rows.
            With weights the split search takes a float twin of the exact integer one
            (:func:`~id3tree.splits.search_weighted_cuts`); without them nothing changes.
        tracer : callable, optional
            Receives every event of the growth (see :mod:`id3tree.tracing`); overrides ``verbose``.

        Returns
        -------
        self
        """
        params = self._grow_params()
        if any_dask(X, y):  # a Dask DataFrame: one distributed pass per level
            if (
                sample_weight is not None
                or self.class_weight is not None
                or (self.min_weight_fraction_leaf != 0)
            ):
                raise NotImplementedError(
                    "sample_weight, class_weight and min_weight_fraction_leaf are not supported "
                    "for Dask DataFrames: the distributed grower counts rows, not weights; fit "
                    "on a pandas DataFrame"
                )
            return self._fit_dask(X, y, params, tracer)
        if self.numeric_bins is not None:
            raise ValueError(
                "numeric_bins applies to Dask DataFrames only (in memory every midpoint is "
                f"searched exactly); leave it None, got {self.numeric_bins!r}"
            )
        # numbers (an array, a list of rows, a small frame of one dtype) are checked as one
        # block, and integer or text labels as one array: no DataFrame, no Series per column
        all_numeric = self._all_numeric()
        if isinstance(X, pd.DataFrame):  # a small frame of numbers: the same, from its values
            frame = check_table(X)
            block = frame_block(frame) if all_numeric else None
        else:
            block = numeric_block(X) if all_numeric else None
            frame = check_table(X) if block is None else None
        n_rows, n_features = (frame if block is None else block).shape
        labels = plain_labels(y, n_rows) if self.class_weight is None else None
        if labels is None:
            labels = self._check_y(y, n_rows)
        weight = self._row_weights(sample_weight, labels)
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
            n_rows = len(kept)
        if params.keep_trace == "auto":  # (params are this fit's own: _grow_params makes them)
            params.keep_trace = True if n_rows * n_features <= FULL_TRACE_VALUES else "splits"
        if frame is not None:
            names = [str(c) for c in frame.columns]
        else:
            names = [f"x{i}" for i in range(n_features)]  # as to_frame names an array's columns
        if isinstance(X, pd.DataFrame) and all(isinstance(c, str) for c in X.columns):
            self.feature_names_in_ = np.asarray(names, dtype=object)
        elif hasattr(self, "feature_names_in_"):
            del self.feature_names_in_
        self.n_features_in_ = n_features
        self._names = names
        self._names_from_frame = isinstance(X, pd.DataFrame)
        self._categories = [None] * n_features
        codes = [None] * n_features
        if block is not None:  # the columns are views of the block
            numeric = list(block.T)
        else:
            numeric = [None] * n_features
            cat_mask = self._categorical_mask(frame, names)
            for f, (name, (_, column)) in enumerate(zip(names, frame.items())):
                if cat_mask[f]:
                    codes[f], self._categories[f] = factorize(column, name)
                else:
                    numeric[f] = numeric_values(column, name)
        if isinstance(labels, pd.Series):
            y_codes, classes = factorize(labels, "y")
        else:  # sorted as factorize sorts them: numbers by value, text by code point
            distinct, y_codes = _class_codes(labels)
            classes = distinct.tolist()
            if distinct.dtype.kind != "U":
                check_numeric_classes(distinct)
        del labels  # (not needed while growing)
        self.classes_ = persistence.class_array(classes)
        if self.min_weight_fraction_leaf > 0:  # weighs the rows: each weighs 1 by default
            weight = np.ones(len(y_codes)) if weight is None else weight
            # less a relative 1e-9: sums of weights carry rounding, and a branch of exactly
            # the limit (12 rows of 0.001 for 8% of 150 such rows) must pass as its rows would
            limit = float(self.min_weight_fraction_leaf) * float(weight.sum())
            params.min_weight_leaf = limit * (1 - 1e-9)
        data = EncodedData(
            names, numeric, codes, self._categories, y_codes, list(self.classes_.tolist()), weight
        )
        if tracer is None and self.verbose:
            tracer = PrintTracer(max_thresholds=VERBOSE_THRESHOLDS if self.verbose >= 2 else 0)
        grown = grow(data, params, tracer)
        self._trace_columns = grown.trace
        self._trace_complete = params.keep_trace is True
        # candidate_table() and the teaching tools count from it; neither saved nor pickled
        self._fit_data = data if self._trace_complete else None
        grown.trace = None
        self._set_arrays(grown)
        if not self._trace_complete:  # a large fit: give back what growing it took
            del data, frame, block, grown, numeric, codes, y_codes
            _return_freed_memory()
        return self._after_growth(tracer)

    def _row_weights(self, sample_weight, labels) -> np.ndarray | None:
        """``sample_weight`` times the ``class_weight`` of each row's class, checked; None when
        neither is given. ``labels`` are the checked class labels (a Series with
        ``class_weight``)."""
        return row_weights(sample_weight, self.class_weight, labels)

    def _after_growth(self, tracer) -> ID3Classifier:
        """What follows growth on any data: the ID-like warning, then ``ccp_alpha`` pruning."""
        weight = getattr(getattr(self, "_fit_data", None), "weight", None)
        rows_of = None
        if weight is not None:  # the rule is about rows, and a weighted node's counts are weights
            nodes = self._node_list()
            rows_of = lambda i: len(self._training_rows_at(nodes[i]))  # noqa: E731
        _warn_about_id_like_splits(self._tree, self._names, self._categories, rows_of)
        if self.ccp_alpha > 0:
            result = pruning.cost_complexity(self.root_, float(self.ccp_alpha), tracer=tracer)
            self._set_pruned(result)
        return self

    def _fit_dask(self, X, y, params, tracer):
        """Grow the same tree from a Dask DataFrame (see :mod:`id3tree._dask.tree`)."""
        from id3tree._dask.tree import grow_on_dask

        check_numeric_bins(self.numeric_bins)
        if tracer is None and self.verbose:
            tracer = PrintTracer(max_thresholds=0)  # every threshold would need every row
        if params.keep_trace == "auto":
            params = replace(params, keep_trace=True)
        fitted = grow_on_dask(
            X,
            y,
            params,
            categorical=self.categorical,
            numeric_bins=self.numeric_bins,
            tracer=tracer,
        )
        names = fitted.data.names
        if all(isinstance(c, str) for c in X.columns):
            self.feature_names_in_ = np.asarray(names, dtype=object)
        elif hasattr(self, "feature_names_in_"):
            del self.feature_names_in_
        self.n_features_in_ = len(names)
        self._names = names
        self._names_from_frame = True
        self._categories = fitted.data.categories
        self.classes_ = persistence.class_array(fitted.data.classes)
        fitted.data.classes = list(self.classes_.tolist())
        self._trace_columns = fitted.grown.trace
        self._trace_complete = params.keep_trace is True
        self._fit_data = None  # the rows stay on the cluster: the teaching tools cannot count
        fitted.grown.trace = None
        self._set_arrays(fitted.grown)
        return self._after_growth(tracer)

    def _grow_params(self) -> GrowParams:
        check_choice("criterion", self.criterion, CRITERIA)
        check_int("max_depth", self.max_depth, 0, allow_none=True)
        check_int("min_samples_split", self.min_samples_split, 2)
        check_int("min_samples_leaf", self.min_samples_leaf, 1)
        check_int("verbose", self.verbose, 0)
        check_keep_trace(self.keep_trace)
        check_min_weight_fraction_leaf(self.min_weight_fraction_leaf)
        check_min_gain(self.min_gain)
        check_ccp_alpha(self.ccp_alpha)
        check_alpha(self.alpha)
        return GrowParams(
            criterion=self.criterion,
            max_depth=np.inf if self.max_depth is None else self.max_depth,
            min_samples_split=self.min_samples_split,
            min_samples_leaf=self.min_samples_leaf,
            min_gain=float(self.min_gain),
            alpha=None if self.alpha is None else float(self.alpha),
            average_gain_rule=bool(self.average_gain_rule),
            keep_trace=self.keep_trace,
        )

    @staticmethod
    def _check_y(y, n_rows: int) -> pd.Series:
        if y is None:
            raise ValueError(
                "ID3Classifier requires y to be passed, but the target y is None; it needs class labels to learn from"
            )
        if isinstance(y, np.ndarray) and y.ndim == 2 and y.shape[1] == 1:
            warnings.warn(
                "A column-vector y was passed when a 1d array was expected. Please change the shape "
                "of y to (n_samples,), for example using ravel().",
                DataConversionWarning,
                stacklevel=3,
            )
        series = check_labels(y, n_rows)
        if is_numeric(series):  # the verdict depends on the distinct labels only
            check_numeric_classes(series.drop_duplicates().to_numpy())
        return series

    def _all_numeric(self) -> bool:
        """True when ``categorical=`` lists no column: numeric columns stay numeric."""
        categorical = self.categorical
        return isinstance(categorical, str) and categorical == "auto"

    def _categorical_mask(self, frame: pd.DataFrame, names: list[str]) -> list[bool]:
        """Non-numeric columns are categorical; ``categorical=`` may add numeric ones."""
        listed = listed_columns(self.categorical, names)
        dtypes = frame.dtypes.tolist()
        return [f in listed or not is_numeric(dtypes[f]) for f in range(len(names))]

    @property
    def root_(self) -> Node:
        """The root :class:`~id3tree.node.Node` of the fitted tree. The model keeps its tree as
        arrays (:class:`~id3tree.grown_tree.GrownTree`); the Node objects are made the first
        time they are asked for, then kept."""
        tree = self.__dict__.get("_tree")
        if tree is None:
            raise AttributeError("root_: this ID3Classifier is not fitted yet")
        if self.__dict__.get("_root") is None:
            self._root = self._tree.nodes(self._names, self._categories, self.classes_.tolist())[0]
        return self._root

    def _set_tree(self, root: Node) -> None:
        """Keep a tree given as Nodes (pruned, or read from a file)."""
        tree = GrownTree.from_nodes(root, self._names, self._categories, self.classes_.tolist())
        self._set_arrays(tree, root)

    def _set_arrays(self, tree: GrownTree, root: Node | None = None) -> None:
        """Keep a tree given as arrays; its Nodes are made on demand (``root_``)."""
        self._tree, self._root = tree, root
        self.__dict__.pop("_teaching_record", None)
        self._compiled = CompiledTree.from_tree(tree, self._categories)
        self.feature_importances_ = _feature_importances(tree, len(self._names))

    def _node_list(self) -> list[Node]:
        """The Nodes by position in the arrays (pre-order)."""
        return list(self.root_.walk())

    def _set_pruned(self, result: pruning.PruningResult) -> None:
        """Keep a pruned tree, its decision table, and the growth trace of the nodes left."""
        self._set_tree(result.root)
        self.pruning_ = result.decisions
        t = getattr(self, "_trace_columns", None)
        if t is not None:
            kept = self._tree.ids
            leaf = kept[self._tree.feature < 0]
            rows = np.isin(t["node"], kept)
            t = {name: column[rows] for name, column in t.items()}
            t["chosen"] = t["chosen"] & ~np.isin(t["node"], leaf)
            self._trace_columns = t

    # -----------------------------------------------------------------------------------------
    # pruning
    # -----------------------------------------------------------------------------------------
    def prune(
        self,
        method: str,
        X_val=None,
        y_val=None,
        *,
        sample_weight=None,
        confidence=0.25,
        ccp_alpha=None,
        tracer=None,
    ) -> ID3Classifier:
        """A pruned copy of this fitted tree; this one is left as it is.

        Parameters
        ----------
        method : {"reduced_error", "pessimistic", "cost_complexity"}
            ``"reduced_error"`` (Quinlan 1987) needs ``X_val, y_val``, rows not used to grow the
            tree: bottom up, a subtree becomes a leaf when that makes no more validation errors.
            ``"pessimistic"`` is C4.5's error-based pruning with the confidence factor
            ``confidence`` (subtree replacement; subtree raising is not done).
            ``"cost_complexity"`` is minimal cost-complexity pruning at ``ccp_alpha``, as the
            ``ccp_alpha`` parameter does at fit time. Details in :mod:`id3tree.pruning`.
        X_val, y_val : array-like, optional
            The validation rows of reduced-error pruning.
        sample_weight : array-like, optional
            Weights of the validation rows (reduced-error pruning only): errors are then sums of
            weights. The tree's own counts are those of its fit (weighted if it was).
        confidence : float, default=0.25
            C4.5's confidence factor CF in (0, 0.5]; smaller prunes more.
        ccp_alpha : float, optional
            The complexity parameter of cost-complexity pruning.
        tracer : callable, optional
            Receives one :class:`~id3tree.tracing.PruningDecision` per internal node examined.

        Returns
        -------
        ID3Classifier
            A copy with the pruned tree; its ``pruning_`` DataFrame has one row per decision:
            ``node``, ``depth``, ``n_samples``, ``n_leaves`` (of the subtree), ``measure``,
            ``subtree`` and ``leaf`` (the measure for the subtree and for the node made a leaf),
            ``alpha`` (cost complexity only) and ``decision`` (``"pruned"`` or ``"kept"``).

        Examples
        --------
        >>> from id3tree.datasets import load_iris
        >>> X, y = load_iris(return_X_y=True)
        >>> tree = ID3Classifier().fit(X, y)
        >>> small = tree.prune("pessimistic")
        >>> small.get_n_leaves() < tree.get_n_leaves()
        True
        """
        check_is_fitted(self, "_tree")
        classes = self.classes_.tolist()
        if method == "reduced_error":
            if X_val is None or y_val is None:
                raise ValueError("reduced_error pruning needs validation rows: X_val and y_val")
            stop = self._stop_nodes(X_val)
            y_codes = self._validation_codes(y_val, len(stop))
            weight = 1.0
            if sample_weight is not None:
                weight = check_sample_weight(sample_weight, len(stop))
                check_total_weight(weight, "the validation rows' sample_weight")
            counts = np.zeros((self._tree.n_nodes, len(classes)))
            np.add.at(counts, (stop, y_codes), weight)
            ids = self._tree.ids.tolist()
            stops = {ids[i]: counts[i] for i in np.flatnonzero(counts.any(axis=1)).tolist()}
            result = pruning.reduced_error(self.root_, stops, classes, tracer=tracer)
        elif sample_weight is not None:
            raise ValueError(
                f"sample_weight weighs validation rows, which only reduced_error pruning takes; "
                f"{method} pruning uses the tree's own (weighted) counts"
            )
        elif method == "pessimistic":
            result = pruning.pessimistic(self.root_, classes, confidence=confidence, tracer=tracer)
        elif method == "cost_complexity":
            if ccp_alpha is None:
                raise ValueError("cost_complexity pruning needs ccp_alpha")
            result = pruning.cost_complexity(self.root_, ccp_alpha, tracer=tracer)
        else:
            raise ValueError(
                f"method must be one of {list(pruning.PRUNING_METHODS)}, got {method!r}"
            )
        pruned = self.__class__.__new__(self.__class__)  # a shallow copy, without pickling
        pruned.__dict__.update(self.__dict__)
        pruned._set_pruned(result)
        return pruned

    def _validation_codes(self, y, n_rows: int) -> np.ndarray:
        """Validation labels as class codes; a class the tree never saw is an error."""
        series = check_labels(y, n_rows)
        index = {c: i for i, c in enumerate(self.classes_.tolist())}
        unknown = sorted({v for v in series.tolist() if v not in index}, key=str)
        if unknown:
            raise ValueError(
                f"y_val holds classes the tree was not fitted on: {unknown[:5]} "
                f"(classes: {self.classes_.tolist()})"
            )
        return np.array([index[v] for v in series.tolist()], dtype=np.int64)

    def cost_complexity_pruning_path(self, X, y, sample_weight=None):
        """The minimal cost-complexity pruning path, as scikit-learn computes it.

        Grows a tree on ``X, y`` with this model's parameters (``ccp_alpha`` aside) and returns
        the effective alphas of its weakest-link sequence. With ``sample_weight`` (and
        ``class_weight``), each node's impurity is weighted by its share of the total weight, as
        scikit-learn's ``weighted_n_node_samples``.

        Returns
        -------
        sklearn.utils.Bunch
            ``ccp_alphas`` (increasing; the first is 0, the last prunes to the root) and
            ``impurities`` (the sum of ``n_t / n * H(t)`` over the leaves of each subtree).
        """
        from sklearn.base import clone
        from sklearn.utils import Bunch

        full = clone(self).set_params(ccp_alpha=0.0, verbose=0)
        if sample_weight is None:
            full.fit(X, y)
        else:
            full.fit(X, y, sample_weight=sample_weight)
        alphas, impurities = pruning.cost_complexity_path(full.root_)
        return Bunch(ccp_alphas=alphas, impurities=impurities)

    # -----------------------------------------------------------------------------------------
    # predicting
    # -----------------------------------------------------------------------------------------
    def _stop_nodes(self, X) -> np.ndarray:
        check_is_fitted(self, "_tree")
        if _plain_numeric_array(X, self):  # checked once for NaN: the router need not look again
            return self._compiled.route(*self._plain_values(X))
        return self._compiled.route(self._encode(X))

    def predict_proba(self, X) -> np.ndarray:
        """Class probabilities: the class shares of the node where each row stops.

        Columns are in ``classes_`` order. A Dask DataFrame gives a Dask DataFrame with one
        column per class, computed partition by partition.
        """
        if any_dask(X):
            from id3tree._dask.tree import predict_partitions

            return predict_partitions(self, X, proba=True)
        stop = self._stop_nodes(X)
        return np.take(self._compiled.proba, stop, axis=0)  # (faster than proba[stop])

    def predict(self, X) -> np.ndarray:
        """The majority class of the node where each row stops (a Dask Series for a Dask
        DataFrame, computed partition by partition)."""
        if any_dask(X):
            from id3tree._dask.tree import predict_partitions

            return predict_partitions(self, X, proba=False)
        stop = self._stop_nodes(X)
        return np.take(self.classes_[self._compiled.majority], stop)  # one gather per row

    def apply(self, X) -> np.ndarray:
        """The ``node_id`` of the node where each row stops."""
        stop = self._stop_nodes(X)
        return self._tree.ids[stop].astype(np.int64)

    def _encode(self, X) -> np.ndarray:
        """New rows as ``(n_rows, n_features)`` floats: values, or category codes."""
        if _plain_numeric_array(X, self):  # the common fast case: no pandas needed
            return self._plain_values(X)[0]
        frame = to_frame(X)
        names = [str(c) for c in frame.columns]
        if isinstance(X, pd.DataFrame) and (
            hasattr(self, "feature_names_in_") or getattr(self, "_names_from_frame", False)
        ):  # columns are matched by name, whatever their type: never silently by position
            expected = list(self._names)
            if names != expected:
                missing = [c for c in expected if c not in names]
                extra = [c for c in names if c not in expected]
                problem = (
                    (f"missing {missing}" if missing else "")
                    + ("; " if missing and extra else "")
                    + (f"unexpected {extra}" if extra else "")
                )
                raise ValueError(
                    "The feature names should match those that were passed during fit: "
                    + (problem or f"same columns in a different order; use X[{expected}]")
                )
        elif (
            isinstance(X, pd.DataFrame)
            and not hasattr(self, "feature_names_in_")
            and all(isinstance(c, str) for c in X.columns)
        ):
            warnings.warn(
                "X has feature names, but ID3Classifier was fitted without feature names",
                UserWarning,
                stacklevel=3,
            )
        if frame.shape[1] != self.n_features_in_:
            raise ValueError(
                f"X has {frame.shape[1]} features, but ID3Classifier is expecting {self.n_features_in_} features as input"
            )
        return self._encode_frame(frame).T

    def _plain_values(self, X: np.ndarray) -> tuple[np.ndarray, bool]:
        """A numeric array's values for a model of numeric features (no copy for floats: rows
        are read in place), checked, and whether any is missing (NaN)."""
        if X.shape[1] != self.n_features_in_:
            raise ValueError(
                f"X has {X.shape[1]} features, but ID3Classifier is expecting "
                f"{self.n_features_in_} features as input"
            )
        values = np.asarray(X, dtype=float)
        if np.isfinite(values.sum()):  # one pass, no temporary
            return values, False
        infinite = np.isinf(values).any(axis=0)  # a NaN or an infinity somewhere: which?
        if infinite.any():
            f = int(np.flatnonzero(infinite)[0])
            numeric_values(pd.Series(values[:, f]), self._names[f])  # raises, naming it
        return values, True

    def _encode_frame(self, frame: pd.DataFrame) -> np.ndarray:
        return encode_like_fit(frame, self._names, self._categories)

    # -----------------------------------------------------------------------------------------
    # looking at the tree
    # -----------------------------------------------------------------------------------------
    def get_depth(self) -> int:
        """The depth of the deepest leaf (0 for a single leaf)."""
        check_is_fitted(self, "_tree")
        return int(self._tree.depth.max())

    def get_n_leaves(self) -> int:
        check_is_fitted(self, "_tree")
        return int(np.count_nonzero(self._tree.feature < 0))

    @property
    def trace_(self) -> pd.DataFrame:
        """The whole growth as a table: one row per node and candidate feature, and one row
        (with no feature) per node that was never scored. Rows are in reading order: nodes in
        pre-order, candidates in column order. The numbers are those the printed trace shows.

        Columns
        -------
        node, parent, depth
            The node's ``node_id``, its parent's (-1 for the root) and its depth.
        branch, path
            The branch from the parent (``Sunny``, ``<= 2.45``, ``missing``; empty for the root)
            and every test on the way, one per feature (``2.45 < petal_length <= 4.95``).
        n_samples, n_<class>
            The training rows at the node, and how many of each class (one column per class).
        entropy
            Entropy of the node's class counts, in bits.
        feature
            The candidate feature (None on the row of an unscored node).
        threshold, low, high
            For a numeric candidate: its best threshold (the exact value) and the two adjacent
            values it lies between. NaN for categorical candidates.
        overall_entropy, gain, gain_ratio
            The size-weighted entropy of the branches, the entropy minus it, and the gain
            divided by the split information. NaN when the candidate has no valid split.
        chosen, tie
            Whether the node splits on this candidate, and whether it is one of several whose
            scores tie for the best (the first in column order is then chosen).
        stop_reason
            Why the node is a leaf, in words; None where it splits.
        prediction, class_tie
            The node's predicted class, and whether its top classes tie (the class that comes
            first in ``classes_`` is then predicted).
        """
        check_is_fitted(self, "_tree")
        if getattr(self, "_trace_columns", None) is None:
            raise AttributeError(
                "trace_ is only kept by fit() (unless keep_trace=False); a tree loaded from JSON has none"
            )
        t = self._trace_columns
        # pre-order; a pruned copy keeps its nodes' ids, so arrays are indexed by node_id
        walked = list(self.root_.walk())
        nodes = [None] * (max(n.node_id for n in walked) + 1)
        for n in walked:
            nodes[n.node_id] = n
        parent = np.full(len(nodes), -1)
        branch = np.full(len(nodes), "", dtype=object)
        for node, key, child in self.root_.iter_edges():
            parent[child.node_id] = node.node_id
            branch[child.node_id] = edge_label(node, key)
        paths = node_paths(self.root_)
        path = np.array([" and ".join(paths.get(i, [])) for i in range(len(nodes))], dtype=object)
        kept = np.isin(t["node"], [n.node_id for n in walked])  # rows of nodes pruned away go
        t = {name: column[kept] for name, column in t.items()}
        nodes = [n if n is not None else walked[0] for n in nodes]  # placeholders never read
        classes = self.classes_.tolist()
        counts = np.array([[n.class_counts[c] for c in classes] for n in nodes])
        order = np.lexsort((t["feature"], t["node"]))
        ids = t["node"][order]
        names = np.array(self._names + [None], dtype=object)

        def per_node(values, dtype=object):
            return np.asarray(values, dtype=dtype)[ids]

        columns = {
            "node": ids,
            "parent": parent[ids],
            "depth": per_node([n.depth for n in nodes], np.int64),
            "branch": branch[ids],
            "path": path[ids],
            "n_samples": counts.sum(axis=1)[ids],
        }
        columns |= {f"n_{c}": counts[ids, k] for k, c in enumerate(classes)}
        columns["entropy"] = per_node([n.entropy for n in nodes], float)
        columns["feature"] = names[t["feature"][order]]
        for name in ("threshold", "low", "high", "overall_entropy", "gain", "gain_ratio"):
            columns[name] = t[name][order]
        columns["chosen"], columns["tie"] = t["chosen"][order], t["tie"][order]
        columns["stop_reason"] = per_node([n.stop_reason for n in nodes])
        columns["prediction"] = per_node([n.prediction for n in nodes])
        columns["class_tie"] = per_node([bool(n.tied_classes) for n in nodes], bool)
        table = pd.DataFrame(columns)
        # False: one row per node only (keep_trace="auto" on a large training set)
        table.attrs["complete"] = getattr(self, "_trace_complete", True)
        return table

    def candidate_table(self, node: int, feature) -> pd.DataFrame:
        """Every candidate split of one feature at one node, from the training rows that
        reached it: the numbers behind one ``candidate`` block of the printed trace.

        Parameters
        ----------
        node : int
            A ``node_id``.
        feature : str or int
            A feature name, or its position.

        Returns
        -------
        DataFrame
            For a numeric feature, one row per threshold (every midpoint between adjacent
            distinct values, in increasing order): ``threshold``, ``low`` and ``high`` (the
            values it lies between), ``n_left``, ``n_right``, ``n_missing``, the class counts of
            each side (``left_<class>``, ``right_<class>``, and ``missing_<class>`` when values
            are missing), ``entropy_left``, ``entropy_right`` (``entropy_missing``),
            ``overall_entropy``, ``gain``, ``valid`` (both sides hold at least
            ``min_samples_leaf`` rows) and ``best`` (the threshold the learner kept).

            For a categorical feature, one row per value seen at the node (None for missing
            values): ``value``, ``n_samples``, the class counts ``n_<class>``, ``entropy``,
            ``weight`` (the value's share of the node) and ``weighted_entropy``; their sum is
            the overall entropy. ``attrs`` holds ``entropy``, ``overall_entropy`` and ``gain``.

        Notes
        -----
        ``fit`` keeps the encoded training columns for this method; they are not saved by
        :meth:`to_json` nor pickled, so a loaded model cannot answer.

        Examples
        --------
        >>> from id3tree import ID3Classifier
        >>> from id3tree.datasets import load_play_tennis
        >>> tree = ID3Classifier().fit(*load_play_tennis(return_X_y=True))
        >>> tree.candidate_table(0, "Outlook").round(4)
              value  n_samples  n_No  n_Yes  entropy  weight  weighted_entropy
        0  Overcast          4     0      4    0.000  0.2857            0.0000
        1      Rain          5     2      3    0.971  0.3571            0.3468
        2     Sunny          5     3      2    0.971  0.3571            0.3468
        """
        check_is_fitted(self, "_tree")
        data = getattr(self, "_fit_data", None)
        if data is None:
            raise AttributeError(
                "candidate_table needs the training data, which only fit() keeps: a loaded or "
                "unpickled model has none, and with keep_trace='auto' a fit on more than "
                f"{FULL_TRACE_VALUES:,} values (rows x features) keeps none; fit with "
                "keep_trace=True to keep it"
            )
        nodes = {n.node_id: n for n in self.root_.walk()}
        if isinstance(node, bool) or not isinstance(node, numbers.Integral) or node not in nodes:
            raise ValueError(f"node must be a node_id between 0 and {len(nodes) - 1}, got {node!r}")
        if isinstance(feature, numbers.Integral) and not isinstance(feature, bool):
            if not 0 <= feature < len(self._names):
                raise ValueError(f"feature position {feature} is out of range")
            f = int(feature)
        elif str(feature) in self._names:
            f = self._names.index(str(feature))
        else:
            raise ValueError(f"unknown feature {feature!r}; the features are {self._names}")
        rows = self._training_rows_at(nodes[node])
        t = self._trace_columns
        mine = (t["node"] == node) & (t["feature"] == f) if t is not None else np.array([False])
        best = float(t["threshold"][mine][0]) if mine.any() else None
        columns = candidate_table(data, rows, f, min_leaf=self.min_samples_leaf, best=best)
        table = pd.DataFrame(columns)
        if data.codes[f] is not None:
            entropy = nodes[node].entropy
            overall = float(table["weighted_entropy"].sum())
            table.attrs.update(entropy=entropy, overall_entropy=overall, gain=entropy - overall)
        return table

    def _training_rows_at(self, target: Node) -> np.ndarray:
        """The training rows that reached ``target``: the tests of its path, applied in turn."""
        data = self._fit_data
        parent = {child.node_id: (node, key) for node, key, child in self.root_.iter_edges()}
        chain, at = [], target.node_id
        while at in parent:
            node, key = parent[at]
            chain.append((node, key))
            at = node.node_id
        keep = np.ones(len(data.y), dtype=bool)
        for node, key in reversed(chain):
            f = self._names.index(node.feature)
            if data.codes[f] is None:
                x = data.numeric[f]
                if key is None:
                    keep &= np.isnan(x)
                else:
                    keep &= (x <= node.threshold) if key == "<=" else (x > node.threshold)
            else:
                categories = data.categories[f]
                code = len(categories) if key is None else categories.index(key)
                keep &= data.codes[f] == code
        return np.flatnonzero(keep)

    def to_text(self, *, decimals: int = 4, max_depth: int | None = None) -> str:
        """The tree as indented text, one line per node with its counts."""
        check_is_fitted(self, "_tree")
        return tree_to_text(self.root_, decimals=decimals, max_depth=max_depth)

    def to_dot(self, **options) -> str:
        """The tree in Graphviz's DOT language (no Graphviz install needed); options as in
        :func:`id3tree.render.dot.tree_to_dot`."""
        check_is_fitted(self, "_tree")
        from id3tree.render.dot import tree_to_dot

        return tree_to_dot(self.root_, classes=self.classes_.tolist(), **options)

    def to_graphviz(self, **options):
        """The tree as a ``graphviz`` object, shown inline in Jupyter; options as in
        :func:`id3tree.render.dot.tree_to_dot`."""
        check_is_fitted(self, "_tree")
        from id3tree.render.dot import tree_to_graphviz

        return tree_to_graphviz(self.root_, classes=self.classes_.tolist(), **options)

    def plot(self, ax=None, **options):
        """Draw the tree with matplotlib (no Graphviz program needed); returns the Axes."""
        check_is_fitted(self, "_tree")
        from id3tree.render.plot import plot_tree

        return plot_tree(self.root_, classes=self.classes_.tolist(), ax=ax, **options)

    def plot_regions(self, X, y, *, features=None, ax=None, **options):
        """Draw the decision regions of a tree fitted on two numeric features, with the points.

        ``X`` holds the points to draw (a DataFrame with the features' columns, or an array in the
        model's column order), ``y`` their classes. ``features`` names the two features (x axis,
        then y axis); default: the model's two features. Options as in
        :func:`id3tree.render.regions.plot_regions`. Returns the matplotlib Axes.
        """
        check_is_fitted(self, "_tree")
        from id3tree.render.regions import plot_regions

        if features is None:
            if len(self._names) != 2:
                raise ValueError(
                    f"the model has {len(self._names)} features: name the two to draw "
                    "with features=(x_feature, y_feature)"
                )
            features = self._names
        features = [str(f) for f in features]
        unknown = [f for f in features if f not in self._names]
        if unknown:
            raise ValueError(f"{unknown} are not features of the model ({self._names})")
        categorical = [f for f in features if self._categories[self._names.index(f)] is not None]
        if categorical:
            raise ValueError(
                f"{categorical} are categorical; a region plot needs two numeric features"
            )
        frame = to_frame(X)
        if isinstance(X, pd.DataFrame):
            points = frame[features]
        else:
            points = frame.iloc[:, [self._names.index(f) for f in features]]
        return plot_regions(
            self.root_,
            points.to_numpy(dtype=float, na_value=np.nan),
            check_labels(y, len(points)).to_numpy(),
            features=features,
            classes=self.classes_.tolist(),
            ax=ax,
            **options,
        )

    def explain(self, x) -> str:
        """The path of one sample: each test, the branch taken, the counts, the prediction.

        ``x`` is one sample: a dict or Series keyed by feature name, a one-row DataFrame, or a
        list of values in column order.
        """
        check_is_fitted(self, "_tree")
        row = _one_row(x, self._names)
        steps = self._compiled.path(self._encode_frame(row)[:, 0])
        return explain_path(self._node_list(), steps, row.iloc[0].to_dict(), self.classes_.tolist())

    # -----------------------------------------------------------------------------------------
    # teaching (id3tree.teaching): the growth replayed from the training data fit() keeps
    # -----------------------------------------------------------------------------------------
    def _teaching(self):
        check_is_fitted(self, "_tree")
        weight = getattr(getattr(self, "_fit_data", None), "weight", None)
        if weight is not None and not np.all(weight == 1):
            raise ValueError(
                "the teaching tools (steps, why_not, worked_solution, to_html) write the hand "
                "calculation with whole counts of rows; this tree was fitted with sample_weight "
                "or class_weight, so its counts are sums of weights. Use trace_, "
                "candidate_table() or verbose=1, which show the weighted counts"
            )
        from id3tree.teaching import record_of

        return record_of(self)

    def steps(self):
        """One :class:`~id3tree.teaching.Step` per node in reading order (depth first): the
        counts, every feature's best split, the decision and why."""
        from id3tree.teaching import iter_steps

        return iter_steps(self._teaching())

    def step(self, k: int):
        """Step ``k`` (0 is the root) of :meth:`steps`; shown in Jupyter as the candidate table
        beside the tree grown so far."""
        from id3tree.teaching import make_step

        return make_step(self._teaching(), k)

    def why_not(self, node, feature):
        """Why ``feature`` was not chosen at ``node`` (a node id or Node), in words and numbers."""
        from id3tree.teaching import why_not

        return why_not(self._teaching(), node, feature)

    def worked_solution(self, node=None, *, format: str = "markdown", exact: bool = True):
        """The hand calculation of one node, or of the whole tree, with exact fractions.

        ``format`` is ``"markdown"`` (Jupyter renders it) or ``"latex"``.
        """
        from id3tree.teaching import worked_solution

        return worked_solution(self._teaching(), node, format=format, exact=exact)

    def to_html(
        self,
        path=None,
        *,
        title: str | None = None,
        mode: str = "explore",
        test=None,
        holdout: float | None = None,
        random_state: int = 0,
    ) -> str | None:
        """One self-contained HTML page (no network) of the tree; written to ``path`` (and None
        returned) if given, else returned.

        ``mode="explore"``: the fitted tree, to fit to the window, zoom, fold and unfold; click
        a node for its numbers, replay the growth, search a feature. ``mode="build"``: the
        student chooses every split of a tree of their own, sees each choice beside the best
        one, and at the end sees the tree scored against this one's way of growing (ID3) on
        held-out rows: ``test=(X_test, y_test)``, or else a ``holdout`` share (default 0.3,
        drawn with ``random_state``) of the training rows that the page keeps aside, ID3's tree
        then being grown again on the rest. See the documentation's page on the explorer.
        """
        from id3tree.teaching import tree_page

        check_is_fitted(self, "_tree")
        options = {"test": test, "holdout": holdout, "random_state": random_state}
        page = tree_page(self, title=title, mode=mode, **options)
        if path is None:
            return page
        Path(path).write_text(page, encoding="utf-8")
        return None

    # -----------------------------------------------------------------------------------------
    # saving and loading
    # -----------------------------------------------------------------------------------------
    def to_dict(self) -> dict:
        """Everything needed to predict again, as plain JSON-ready Python objects."""
        check_is_fitted(self, "_tree")
        return persistence.model_to_dict(self)

    def to_json(self, path=None) -> str | None:
        """The model as JSON text; written to ``path`` (and None returned) if given."""
        text = json.dumps(self.to_dict(), indent=None, separators=(",", ":"), allow_nan=False)
        if path is None:
            return text
        Path(path).write_text(text, encoding="utf-8")
        return None

    @classmethod
    def from_dict(cls, d: dict) -> ID3Classifier:
        """Rebuild a fitted model from :meth:`to_dict` output."""
        return persistence.model_from_dict(cls, d)

    @classmethod
    def from_json(cls, s_or_path) -> ID3Classifier:
        """Rebuild a fitted model from JSON text or a path to a JSON file."""
        return cls.from_dict(persistence.read_json(s_or_path))

    def __getstate__(self):
        # A deep tree of nested Nodes would hit pickle's recursion limit: store it flat instead.
        state = dict(super().__getstate__())
        # The tree is pickled as its arrays; the Nodes, the compiled tree and the teaching
        # record are made again on demand, and the training data is not kept.
        for name in ("_teaching_record", "_root", "_compiled", "_fit_data"):
            state.pop(name, None)
        return state

    def __setstate__(self, state):
        flat = state.pop("_flat_tree", None)  # written by versions that pickled the Nodes
        super().__setstate__(state)
        if "_tree" in state:
            persistence.check_tree_arrays(self._tree, self.classes_.tolist(), self._categories)
            self._set_arrays(self._tree)
        elif flat is not None:
            self._set_tree(
                persistence.nodes_from_records(
                    flat, self.classes_.tolist(), self._names, self._categories, encoded=False
                )
            )

    def stopped_early(self, X) -> pd.DataFrame:
        """Which rows stop before a leaf (at a category never seen at a node, or a missing
        value where no training row was missing), at which node and on which feature; see
        :func:`id3tree.diagnostics.stopped_early`."""
        from id3tree.diagnostics import stopped_early

        return stopped_early(self, X)

    def score(self, X, y, sample_weight=None) -> float:
        """Accuracy, as scikit-learn's; a class of ``y`` the tree was not fitted on can never be
        predicted right, and a ``UserWarning`` says which and how many rows hold one."""
        from id3tree.diagnostics import warn_about_unseen_classes

        check_is_fitted(self)  # before classes_ is read: an unfitted model says so
        warn_about_unseen_classes(y, self.classes_)
        return super().score(X, y, sample_weight=sample_weight)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.input_tags.categorical = True
        tags.input_tags.string = True
        return tags

    def to_rules(self):
        """The tree as if-then rules, one per leaf, with the stop rules of rows a node cannot
        send on; prints as text, writes LaTeX, Python and SQL (see :mod:`id3tree.rules`)."""
        from id3tree.rules import rules_of

        return rules_of(self.root_, features=getattr(self, "feature_names_in_", None))

    def compare(self, other, X, y, *, feature_names=None, encoder=None):
        """Where and why a fitted scikit-learn tree (or a Pipeline ending in one) differs from
        this tree, node by node, on the training data ``X, y`` (see :mod:`id3tree.compare`)."""
        from id3tree.compare import compare_trees

        return compare_trees(self, other, X, y, feature_names=feature_names, encoder=encoder)


def _feature_importances(tree: GrownTree, n_features: int) -> np.ndarray:
    """Entropy decrease of every split weighted by its share of the rows, summed per feature and
    normalised to sum to 1 (all zeros for a single leaf); as
    :func:`~id3tree.node.feature_importances` computes it from Nodes."""
    split = np.flatnonzero(tree.feature >= 0)
    n_samples = tree.counts.sum(axis=1)
    weights = n_samples[split] / n_samples[0] * tree.gain[split]
    total = np.bincount(tree.feature[split], weights=weights, minlength=n_features)
    s = total.sum()
    return total / s if s > 0 else total


def _warn_about_id_like_splits(tree: GrownTree, names: list, categories: list, rows_of=None):
    """One :class:`IDLikeFeatureWarning` per column that made a split of (nearly) one row per
    branch, naming the largest such split. ``rows_of(position)`` counts a node's training rows
    when its counts are sums of weights (a weighted fit): the rule is about rows."""
    if all(c is None for c in categories):  # numeric splits only: two-way, never ID-like
        return
    n_levels = np.array([-1 if c is None else len(c) for c in categories] + [-1])
    levels = n_levels[tree.feature]  # -1: a leaf or a numeric split
    if not (levels >= 0).any():
        return
    n = tree.n_nodes
    parent = tree.parent
    is_child = parent >= 0
    p = parent[is_child]
    n_children = np.bincount(p, minlength=n)
    n_samples = tree.counts.sum(axis=1)
    size = (lambda i: n_samples[i].item()) if rows_of is None else rows_of
    missing = is_child.copy()
    missing[is_child] = tree.slot[is_child] == levels[p]  # the rows with no value do not count
    missing_child = np.full(n, -1)
    missing_child[parent[missing]] = np.flatnonzero(missing)
    worst = {}
    for i in np.flatnonzero(levels >= 0).tolist():
        m = missing_child[i]
        n_values = int(n_children[i]) - (m >= 0)
        if not is_id_like(0, n_values):  # too few values to be ID-like, whatever the rows
            continue
        node_rows = size(i)
        n_rows = node_rows - (size(m) if m >= 0 else 0)
        if is_id_like(n_rows, n_values):
            feature = names[tree.feature[i]]
            if feature not in worst or n_rows > worst[feature][1]:
                worst[feature] = (i, n_rows, n_values, node_rows)
    ids, depth = tree.ids, tree.depth
    for feature, (i, n_rows, n_values, node_rows) in worst.items():
        where = "" if depth[i] == 0 else f" at node {ids[i]} (depth {depth[i]})"
        if n_rows < node_rows:
            where += f" (not counting {node_rows - n_rows:g} with no value)"
        message = id_like_message(feature, n_rows, n_values, where)
        warnings.warn(message, IDLikeFeatureWarning, stacklevel=4)


def _class_codes(labels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(labels, return_inverse=True)`` of 1-D labels: the distinct labels, sorted,
    and the index of each row's among them. Labels that are already the codes 0..K-1 of K
    classes, every one present (the common case), are recognised by one count, not a sort."""
    if labels.dtype.kind in "iu" and 0 < len(labels) and labels.max() < len(labels):
        try:  # (a negative label, or one bincount cannot take, leaves it to np.unique)
            present = np.bincount(labels).astype(bool)
        except (TypeError, ValueError):
            present = None
        if present is not None and present.all():
            return np.arange(len(present), dtype=labels.dtype), labels.astype(np.intp)
    return np.unique(labels, return_inverse=True)


def _return_freed_memory() -> None:
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


def _plain_numeric_array(X, model) -> bool:
    """A 2-D numpy array of numbers for a model whose features are all numeric."""
    return (
        isinstance(X, np.ndarray)
        and X.ndim == 2
        and X.dtype.kind in "fiu"
        and all(c is None for c in model._categories)
    )


def _one_row(x, names: list[str]) -> pd.DataFrame:
    """One sample as a one-row frame with the model's columns, in order."""
    if isinstance(x, pd.DataFrame):
        if len(x) != 1:
            raise ValueError(f"explain takes one sample, got {len(x)} rows")
        record = _by_name(x.iloc[0].to_dict())
    elif isinstance(x, (dict, pd.Series)):
        record = _by_name(dict(x))
    else:
        values = list(np.asarray(x, dtype=object).ravel())
        if len(values) != len(names):
            raise ValueError(
                f"the sample has {len(values)} values but the model has {len(names)} features"
            )
        record = dict(zip(names, values))
    missing = [n for n in names if n not in record]
    if missing:
        raise ValueError(f"the sample has no value for {missing}")
    return pd.DataFrame([{n: record[n] for n in names}]).infer_objects()


def _by_name(record: dict) -> dict:
    """A sample's values keyed by column name as the model knows it (``str`` of the label)."""
    named = {str(k): v for k, v in record.items()}
    if len(named) != len(record):
        raise ValueError(f"the sample names a column twice: {list(record)}")
    return named
