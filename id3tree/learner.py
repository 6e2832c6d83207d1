"""ID3Classifier: the ID3 decision tree as a scikit-learn estimator.

The estimator is the thin layer: it checks parameters and data, encodes the columns once
(:mod:`id3tree.base.validation`), grows the tree (:mod:`id3tree.engine.grow`), keeps it as flat arrays in
pre-order (:class:`~id3tree.model.grown_tree.GrownTree`; the :class:`~id3tree.model.node.Node` objects of
``root_`` are made the first time they are asked for), and routes new rows from the arrays
(:mod:`id3tree.engine.routing`).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted

from id3tree.base.diagnostics import IDLikeFeatureWarning, user_level
from id3tree.base.dispatch import adapter_of, dispatched
from id3tree.base.entropy import measures
from id3tree.base.language import speaks
from id3tree.base.params import check_tree_params, check_validation_weight
from id3tree.base.validation import (
    encode_like_fit,
    one_row,
    plain_numeric_array,
    plain_values,
    region_points,
    rows_to_predict,
    validation_codes,
)
from id3tree.engine import pruning
from id3tree.engine.fitting import (
    FULL_TRACE_VALUES,
    Fitted,
    encode_and_grow,
    id_like_warnings,
    return_freed_memory,
    trace_for_data,
)
from id3tree.engine.grow import GrowParams
from id3tree.engine.routing import CompiledTree
from id3tree.io.saving import Saving
from id3tree.model.grown_tree import GrownTree, feature_importances
from id3tree.model.node import Node
from id3tree.render.style import stability_marks
from id3tree.render.text import explain_path, tree_to_text
from id3tree.trace.listener import listening, verbose_tracer
from id3tree.trace.table import candidate_frame, trace_frame

__all__ = ["ID3Classifier"]


@speaks(*"fit to_text explain worked_solution steps step why_not".split(),
        *"to_html to_dot to_graphviz plot plot_complexity".split())  # fmt: skip
@measures(*"fit to_text explain trace_ candidate_table steps step why_not worked_solution".split(),
          *"to_html prune cost_complexity_pruning_path to_dot to_graphviz plot".split())  # fmt: skip
class ID3Classifier(Saving, ClassifierMixin, BaseEstimator):  # type: ignore[misc]  # (scikit-learn is untyped)
    """An ID3 decision tree: multiway categorical splits, midpoint thresholds for numbers.

    Parameters
    ----------
    criterion : {"entropy", "gain_ratio"}, default="entropy"
        How features compete at a node: information gain, or gain divided by split information
        (C4.5; see ``average_gain_rule``). Information gain favours features with many values: a
        column with one value per row (a name, an id) has the largest gain of all (see
        ``id_like``). A numeric feature's cut is always the one of lowest overall entropy.
    thresholds : {"midpoint", "c45"}, default="midpoint"
        Where the chosen cut between two adjacent values a < b of a node goes: their midpoint
        (most courses), or C4.5's "largest value in the training set that does not exceed the
        midpoint" (Quinlan 1993), a value of the data. The tree, its gains and the rows each
        node gets are the same; only the thresholds differ, and unseen values between them
        route differently. See ``docs/conventions.md``.
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
        tracer=PrintTracer(max_thresholds=None))`` lists them all (see :mod:`id3tree.trace.tracers`);
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
    id_like : {"warn", "drop", "keep"}, default="warn"
        What to do when a column looks like an identifier (a name, a ticket number): it makes a
        categorical split of (nearly) one row per branch (:mod:`id3tree.base.diagnostics`). "warn":
        an :class:`~id3tree.base.diagnostics.IDLikeFeatureWarning` names it and its split. "drop":
        the tree is grown again without it (until no column makes such a split; in memory
        only), and the warning says which columns were left out: the model still takes every
        column (``n_features_in_``), and theirs have importance 0. "keep": no warning.
    language : {"en", "es", "de"}, default="en"
        The language of the printed trace, ``to_text``, ``explain``, ``worked_solution``,
        ``steps``, ``step`` and ``why_not`` (numbers with its decimal mark; feature names and
        values as they are). See ``docs/translating.md``.
    log_base : {2, "e"}, default=2
        The logarithm of every entropy, gain and split information: 2 (bits) or "e" (nats,
        ``ln``), computed and printed so, with the unit said. The tree is the same (gains scale
        by ``ln 2``); ``min_gain`` and ``ccp_alpha`` are in the tree's unit. See
        ``docs/conventions.md``.
    ties : {"first", "name"}, default="first"
        Which of features tied for the best score wins: the first in column order, or the first
        by name (alphabetical, as a student told "ties go by name" does it). See *Ties*.

    Notes
    -----
    *Missing values* (NaN, None, pd.NA) go down a branch of their own, for categorical and numeric
    features alike; at prediction time a missing value where no training row was missing stops
    at that node. So does a category never seen at the node. A stopped row is predicted from the
    class counts of the node where it stopped.

    *Ties* are broken by a fixed rule, so the same data always gives the same tree: among features
    whose scores are within ``1e-10`` bits the first in column order (or by name: ``ties``) wins,
    and among thresholds of
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

    _root: Node | None  # the Nodes of the tree, made on demand from its arrays

    def __init__(
        self, *, criterion: str = "entropy", max_depth: int | None = None,
        min_samples_split: int = 2, min_samples_leaf: int = 1,
        min_weight_fraction_leaf: float = 0.0, min_gain: float = 0.0, alpha: float | None = None,
        categorical: Any = "auto", class_weight: Any = None, ccp_alpha: float = 0.0,
        average_gain_rule: bool = True, verbose: int = 0, numeric_bins: int | None = None,
        keep_trace: bool | str = "auto", id_like: str = "warn", thresholds: str = "midpoint",
        language: str = "en", log_base: Any = 2, ties: str = "first",
    ) -> None:  # fmt: skip
        self.criterion = criterion
        self.thresholds = thresholds
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
        self.id_like = id_like
        self.language = language
        self.log_base = log_base
        self.ties = ties

    # -----------------------------------------------------------------------------------------
    # fitting
    # -----------------------------------------------------------------------------------------
    def fit(
        self, X: Any, y: Any, sample_weight: Any = None, *, tracer: Any = None
    ) -> ID3Classifier:
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
            (:func:`~id3tree.engine.splits.search_weighted_cuts`); without them nothing changes.
        tracer : callable, optional
            Receives every event of the growth (see :mod:`id3tree.trace.tracers`); overrides ``verbose``.

        Returns
        -------
        self
        """
        params = self._grow_params()  # check the parameters
        if tracer is None:  # (verbose=2's best thresholds need every row: data in memory)
            tracer = verbose_tracer(self.verbose, thresholds=adapter_of(X) is None)
        # check and encode the data, grow the tree (a Dask DataFrame: one pass a level), the
        # trace listening
        listen = listening(tracer, params.min_samples_leaf)
        fitted = encode_and_grow(X, y, sample_weight, self, params, listen)
        self._set_fitted(fitted)  # set the fitted attributes
        if not fitted.trace_complete:  # a large fit: give back what growing it took
            return_freed_memory()
        return self._after_growth(fitted, tracer)

    def _set_fitted(self, fitted: Fitted) -> None:
        """The fitted attributes, from what :func:`~id3tree.engine.fitting.encode_and_grow` gives."""
        if fitted.string_names:
            self.feature_names_in_ = np.asarray(fitted.names, dtype=object)
        elif hasattr(self, "feature_names_in_"):
            del self.feature_names_in_
        self.n_features_in_ = len(fitted.names)
        self._names = fitted.names
        self._columns = fitted.columns  # X's column labels as given (0, 1.5, ("a", 1)), or None
        self._names_from_frame = fitted.from_frame
        self._categories = fitted.categories
        self.classes_ = fitted.classes
        self._trace_columns = fitted.grown.trace
        self._trace_complete = fitted.trace_complete
        # candidate_table() and the teaching tools count from it; neither saved nor pickled
        self._fit_data = fitted.data
        fitted.grown.trace = None
        self._set_arrays(fitted.grown)

    def _after_growth(self, fitted: Fitted, tracer: Any) -> ID3Classifier:
        """What follows growth on any data: the ID-like warnings, then ``ccp_alpha`` pruning
        (told to ``tracer``)."""
        for message in id_like_warnings(self, fitted):
            warnings.warn(message, IDLikeFeatureWarning, stacklevel=user_level())
        if self.ccp_alpha > 0:
            self._set_pruned(
                pruning.cost_complexity(self.root_, float(self.ccp_alpha), tracer=tracer)
            )
        return self

    def _grow_params(self) -> GrowParams:
        check_tree_params(self)
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

    @property
    def root_(self) -> Node:
        """The root :class:`~id3tree.model.node.Node` of the fitted tree. The model keeps its tree as
        arrays (:class:`~id3tree.model.grown_tree.GrownTree`); the Node objects are made the first
        time they are asked for, then kept."""
        tree = self.__dict__.get("_tree")
        if tree is None:
            raise AttributeError("root_: this ID3Classifier is not fitted yet")
        if self.__dict__.get("_root") is None:
            self._root = self._tree.nodes(self._names, self._categories, self.classes_.tolist())[0]
        return self._root  # type: ignore[return-value]  # (made just above)

    def _set_tree(self, root: Node) -> None:
        """Keep a tree given as Nodes (pruned, or read from a file)."""
        tree = GrownTree.from_nodes(root, self._names, self._categories, self.classes_.tolist())
        self._set_arrays(tree, root)

    def _set_arrays(self, tree: GrownTree, root: Node | None = None) -> None:
        """Keep a tree given as arrays; its Nodes are made on demand (``root_``)."""
        self._tree, self._root = tree, root
        self.__dict__.pop("_teaching_record", None)
        self._compiled = CompiledTree.from_tree(tree, self._categories)
        self.feature_importances_ = feature_importances(tree, len(self._names))

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
        self, method: str, X_val: Any = None, y_val: Any = None, *, sample_weight: Any = None,
        confidence: float = 0.25, ccp_alpha: float | None = None, tracer: Any = None,
    ) -> ID3Classifier:  # fmt: skip
        """A pruned copy of this fitted tree; this one is left as it is.

        Parameters
        ----------
        method : {"reduced_error", "pessimistic", "cost_complexity"}
            ``"reduced_error"`` (Quinlan 1987) needs ``X_val, y_val``, rows not used to grow the
            tree: bottom up, a subtree becomes a leaf when that makes no more validation errors.
            ``"pessimistic"`` is C4.5's error-based pruning with the confidence factor
            ``confidence`` (subtree replacement; subtree raising is not done).
            ``"cost_complexity"`` is minimal cost-complexity pruning at ``ccp_alpha``, as the
            ``ccp_alpha`` parameter does at fit time. Details in :mod:`id3tree.engine.pruning`.
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
            Receives one :class:`~id3tree.trace.tracers.PruningDecision` per internal node examined.

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
            y_codes = validation_codes(y_val, len(stop), classes)
            weight = check_validation_weight(sample_weight, len(stop))
            stops = pruning.validation_stops(stop, y_codes, weight, self._tree.ids, len(classes))
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

    def cost_complexity_pruning_path(self, X: Any, y: Any, sample_weight: Any = None) -> Any:
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

        full = clone(self).set_params(ccp_alpha=0.0, verbose=0).fit(X, y, sample_weight)
        alphas, impurities = pruning.cost_complexity_path(full.root_)
        return Bunch(ccp_alphas=alphas, impurities=impurities)

    # -----------------------------------------------------------------------------------------
    # predicting
    # -----------------------------------------------------------------------------------------
    def _stop_nodes(self, X: Any) -> np.ndarray:
        check_is_fitted(self, "_tree")
        if plain_numeric_array(X, self._categories):  # checked for NaN once: not routed again
            return self._compiled.route(*plain_values(X, self._names))
        by_name = hasattr(self, "feature_names_in_") or getattr(self, "_names_from_frame", False)
        rows = rows_to_predict(
            X, self._names, self._categories, by_name=by_name,
            with_names=hasattr(self, "feature_names_in_"),
        )  # fmt: skip
        return self._compiled.route(rows)

    def predict_proba(self, X: Any) -> Any:
        """Class probabilities: the class shares of the node where each row stops.

        Columns are in ``classes_`` order. A Dask DataFrame gives a Dask DataFrame with one
        column per class, computed partition by partition.
        """
        return predictions(X, self, proba=True)

    def predict(self, X: Any) -> Any:
        """The majority class of the node where each row stops (a Dask Series for a Dask
        DataFrame, computed partition by partition)."""
        return predictions(X, self, proba=False)

    def apply(self, X: Any) -> np.ndarray:
        """The ``node_id`` of the node where each row stops."""
        stop = self._stop_nodes(X)
        ids: np.ndarray = self._tree.ids[stop].astype(np.int64)
        return ids

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
            Entropy of the node's class counts, in bits (nats with ``log_base="e"``).
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
        complete = getattr(self, "_trace_complete", True)
        columns: dict[str, Any] = self._trace_columns  # type: ignore[assignment]  # (not None here)
        return trace_frame(self.root_, self.classes_.tolist(), self._names, columns, complete)

    def candidate_table(self, node: int, feature: Any) -> pd.DataFrame:
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
        trace = trace_for_data(self._trace_columns, self._names, data)
        return candidate_frame(
            self.root_, data, trace, node, feature, min_leaf=self.min_samples_leaf
        )

    def to_text(
        self, *, decimals: int = 4, max_depth: int | None = None, stability: Any = None
    ) -> str:
        """The tree as indented text, one line per node with its counts; with ``stability``
        (``self.stability(X, y)``), each split line says how often its feature wins again."""
        check_is_fitted(self, "_tree")
        marks = None if stability is None else stability_marks(stability)
        return tree_to_text(self.root_, decimals=decimals, max_depth=max_depth, stability=marks)

    def to_dot(self, **options: Any) -> str:
        """The tree in Graphviz's DOT language (no Graphviz install needed); options as in
        :func:`id3tree.render.dot.tree_to_dot`."""
        check_is_fitted(self, "_tree")
        from id3tree.render.dot import tree_to_dot

        return tree_to_dot(self.root_, classes=self.classes_.tolist(), **options)

    def to_graphviz(self, **options: Any) -> Any:
        """The tree as a ``graphviz`` object, shown inline in Jupyter; options as in
        :func:`id3tree.render.dot.tree_to_dot`."""
        check_is_fitted(self, "_tree")
        from id3tree.render.dot import tree_to_graphviz

        return tree_to_graphviz(self.root_, classes=self.classes_.tolist(), **options)

    def plot(self, ax: Any = None, **options: Any) -> Any:
        """Draw the tree with matplotlib (no Graphviz program needed); returns the Axes."""
        check_is_fitted(self, "_tree")
        from id3tree.render.plot import plot_tree

        return plot_tree(self.root_, classes=self.classes_.tolist(), ax=ax, **options)

    def plot_regions(
        self, X: Any, y: Any, *, features: Any = None, ax: Any = None, **options: Any
    ) -> Any:
        """Draw the decision regions of a tree fitted on two numeric features, with the points.

        ``X`` holds the points to draw (a DataFrame with the features' columns, or an array in the
        model's column order), ``y`` their classes. ``features`` names the two features (x axis,
        then y axis); default: the model's two features. Options as in
        :func:`id3tree.render.regions.plot_regions`. Returns the matplotlib Axes.
        """
        check_is_fitted(self, "_tree")
        from id3tree.render.regions import plot_regions

        points, labels, features = region_points(X, y, features, self._names, self._categories)
        classes = self.classes_.tolist()
        return plot_regions(
            self.root_, points, labels, features=features, classes=classes, ax=ax, **options
        )

    def plot_complexity(self, *args: Any, **options: Any) -> Any:
        """Accuracy against leaves along the pruning path; see :func:`id3tree.plot_complexity`."""
        from id3tree.teaching.complexity import plot_complexity

        return plot_complexity(self, *args, **options)

    def explain(self, x: Any) -> str:
        """The path of one sample: each test, the branch taken, the counts, the prediction.

        ``x`` is one sample: a dict or Series keyed by feature name, a one-row DataFrame, or a
        list of values in column order.
        """
        check_is_fitted(self, "_tree")
        row = one_row(x, self._names)
        steps = self._compiled.path(encode_like_fit(row, self._names, self._categories)[:, 0])
        return explain_path(self._node_list(), steps, row.iloc[0].to_dict(), self.classes_.tolist())

    # -----------------------------------------------------------------------------------------
    # teaching (id3tree.teaching): the growth replayed from the training data fit() keeps
    # -----------------------------------------------------------------------------------------
    def _teaching(self) -> Any:
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

    def steps(self) -> Iterator[Any]:
        """One :class:`~id3tree.teaching.Step` per node in reading order (depth first): the
        counts, every feature's best split, the decision and why."""
        from id3tree.teaching import iter_steps

        return iter_steps(self._teaching())

    def step(self, k: int) -> Any:
        """Step ``k`` (0 is the root) of :meth:`steps`; shown in Jupyter as the candidate table
        beside the tree grown so far."""
        from id3tree.teaching import make_step

        return make_step(self._teaching(), k)

    def why_not(self, node: int, feature: Any) -> Any:
        """Why ``feature`` was not chosen at ``node`` (a node id or Node), in words and numbers."""
        from id3tree.teaching import why_not

        return why_not(self._teaching(), node, feature)

    def worked_solution(
        self, node: int | None = None, *, format: str = "markdown", exact: bool = True
    ) -> Any:
        """The hand calculation of one node, or of the whole tree, with exact fractions.

        ``format`` is ``"markdown"`` (Jupyter renders it) or ``"latex"``.
        """
        from id3tree.teaching import worked_solution

        return worked_solution(self._teaching(), node, format=format, exact=exact)

    def to_html(
        self, path: Any = None, *, title: str | None = None, mode: str = "explore",
        test: Any = None, holdout: float | None = None, random_state: int = 0,
        hints: Any = None, stability: Any = None,
    ) -> str | None:  # fmt: skip
        """One self-contained HTML page (no network) of the tree; written to ``path`` (and None
        returned) if given, else returned.

        ``mode="explore"``: the fitted tree, to fit to the window, zoom, fold and unfold; click
        a node for its numbers, replay the growth, search a feature. ``mode="build"``: the
        student chooses every split of a tree of their own, first looking at the node's rows
        and a ladder of ``hints`` (steps among "formula", "counts", "gains" and "choice"; all by
        default), with undo, work kept in the browser and an export that ``id3tree grade``
        marks; at the end the tree is scored against this one's way of growing (ID3) on
        held-out rows: ``test=(X_test, y_test)``, or else a ``holdout`` share (default 0.3, none
        for fewer than 50 rows; drawn with ``random_state``) of the training rows that the page
        keeps aside, ID3's tree then being grown again on the rest. See the documentation's
        page on the explorer. ``stability`` (``self.stability(X, y)``, explore only): how
        stable each split is, in its box and panel, shaky splits outlined.
        """
        from id3tree.teaching import tree_page

        check_is_fitted(self, "_tree")
        options = {"test": test, "holdout": holdout, "random_state": random_state, "hints": hints}
        page = tree_page(self, title=title, mode=mode, stability=stability, **options)
        if path is None:
            return page
        Path(path).write_text(page, encoding="utf-8")
        return None

    def stability(self, X: Any, y: Any, **options: Any) -> Any:
        """How often each split wins again on bootstrap samples of its node's rows (a
        :class:`~id3tree.teaching.Stability`); options as in :func:`id3tree.teaching.stability`."""
        from id3tree.teaching import stability

        return stability(self, X, y, **options)

    def stopped_early(self, X: Any) -> pd.DataFrame:
        """Which rows stop before a leaf (at a category never seen at a node, or a missing
        value where no training row was missing), at which node and on which feature; see
        :func:`id3tree.base.diagnostics.stopped_early`."""
        from id3tree.base.diagnostics import stopped_early

        return stopped_early(self, X)

    def score(self, X: Any, y: Any, sample_weight: Any = None) -> float:
        """Accuracy, as scikit-learn's; a class of ``y`` the tree was not fitted on can never be
        predicted right, and a ``UserWarning`` says which and how many rows hold one."""
        from id3tree.base.diagnostics import warn_about_unseen_classes

        check_is_fitted(self)  # before classes_ is read: an unfitted model says so
        warn_about_unseen_classes(y, self.classes_)
        accuracy: float = super().score(X, y, sample_weight=sample_weight)
        return accuracy

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.input_tags.categorical = True
        tags.input_tags.string = True
        return tags

    def to_rules(self) -> Any:
        """The tree as if-then rules, one per leaf, with the stop rules of rows a node cannot
        send on; prints as text, writes LaTeX, Python and SQL (see :mod:`id3tree.teaching.rules`)."""
        from id3tree.teaching.rules import rules_of

        columns = getattr(self, "_columns", None)  # (a model file keeps text labels only)
        if columns is None:
            columns = getattr(self, "feature_names_in_", None)
        return rules_of(self.root_, features=columns)

    def compare(
        self, other: Any, X: Any, y: Any, *, feature_names: Any = None, encoder: Any = None
    ) -> Any:
        """Where and why a fitted scikit-learn tree (or a Pipeline ending in one) differs from
        this tree, node by node, on the training data ``X, y`` (see :mod:`id3tree.teaching.compare`)."""
        from id3tree.teaching.compare import compare_trees

        return compare_trees(self, other, X, y, feature_names=feature_names, encoder=encoder)


@dispatched
def predictions(X: Any, model: ID3Classifier, *, proba: bool) -> Any:
    """``model.predict(X)``, or ``predict_proba`` with ``proba``, of rows in memory: the majority
    class (the class shares) of the node where each row stops. An adapter predicts its own
    collections (a Dask DataFrame: partition by partition)."""
    stop = model._stop_nodes(X)
    if proba:
        return np.take(model._compiled.proba, stop, axis=0)  # (faster than proba[stop])
    return np.take(model.classes_[model._compiled.majority], stop)  # one gather per row
