"""ID3 as a textbook writes it: one node at a time, recursively.

Read this module first: it is the whole algorithm, and the specification of the learner.
:class:`~id3tree.ID3Classifier` grows the very same tree (a property test grows every tree both
ways and compares them node for node), but every node of a level at once (:mod:`id3tree.engine.grow`),
which is why its code is longer and faster.

Quinlan's ID3, for a node and the rows that reach it (:func:`grow_node`):

1. make a node with the class counts of its rows;
2. stop if it is pure, too small, or at the maximum depth;
3. score every feature: a categorical one by the gain of one branch per value, a numeric one by
   the gain of its best midpoint (the cut of lowest overall entropy);
4. choose the best feature, and stop if none offers a valid split, if its gain is below
   ``min_gain``, or if its branches fail Quinlan's chi-square test;
5. split the rows by the branches and grow a child from each: a categorical feature is then used
   up on the path below, a numeric one can be cut again.

Every entropy and gain is Shannon's, in bits (:func:`~id3tree.information.entropy_from_counts`;
in nats with ``log_base="e"``).
Missing values take a branch of their own.

To predict a row (:func:`predict_row`), walk it down from the root, at each node taking the
branch of its value, and answer the majority class of the node where the walk ends: a leaf, or
a node with no branch for the value (a category never seen there, or a missing value where no
training row was missing). :meth:`~id3tree.ID3Classifier.predict` answers the same.

**Ties** are never left to chance. Two scores within ``TIE_TOLERANCE`` (1e-10) bits are tied:

* of the features, the highest gain (or gain ratio) wins, and of those tied with it, the first
  in column order (``ties="name"``: the first by name, in alphabetical order);
* of one numeric feature's cuts, the lowest overall entropy wins, and of those tied with it, the
  smallest threshold. Cuts are compared in whole numbers: ``n`` times a cut's overall entropy,
  ``n_left H(left) + n_right H(right)``, is Shannon's formula written for counts,
  ``n H = n ln n - sum_k c_k ln c_k``, with each ``c ln c`` (a double) rounded once to a whole
  number of ``2**-36`` nats (:func:`~id3tree.base.entropy.scaled_xlogx`, summed by
  :func:`~id3tree.base.entropy.n_entropy_units`, whose doctest shows it is ``-sum p log2 p``). A
  cut's score is then an exact integer, and cuts within ``floor(TIE_TOLERANCE n / unit)`` units
  of the lowest are tied (:func:`~id3tree.base.entropy.tie_tolerance`). The learner compares the
  very same integers, so it breaks every tie as this module does.

>>> from id3tree.datasets import load_play_tennis
>>> X, y = load_play_tennis(return_X_y=True)
>>> root = grow_tree(X, y)
>>> root.feature, [(value, child.feature) for value, child in root.children.items()]
('Outlook', [('Overcast', None), ('Rain', 'Wind'), ('Sunny', 'Humidity')])
>>> predict_row(root, {"Outlook": "Sunny", "Temperature": "Hot", "Humidity": "Normal",
...                    "Wind": "Weak"})
'Yes'
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from id3tree.base.contingency import chi_square_from_table
from id3tree.base.entropy import TIE_TOLERANCE, n_entropy_units, scaled_xlogx, tie_tolerance
from id3tree.information import entropy_from_counts
from id3tree.model.node import MISSING, Node

__all__ = [
    "Rules", "Split", "best_threshold", "c45_threshold", "categorical_split", "choose_split",
    "class_counts", "entropy", "grow_node", "grow_tree", "in_column_order", "midpoint",
    "numeric_split", "predict_row", "prepared_columns", "reason_to_stop", "scored_split",
]  # fmt: skip


@dataclass(frozen=True)
class Rules:
    """What a growth knows besides the rows: the classes, each categorical feature's values (in
    the order of its branches) and the settings of :func:`grow_tree`."""

    classes: list[Any]
    categories: dict[Any, Any]
    by_gain_ratio: bool  # else by information gain
    max_depth: float
    min_samples_split: int
    min_samples_leaf: int
    min_gain: float
    alpha: float | None
    average_gain_rule: bool
    training_values: dict[Any, list[float]] | None = None  # thresholds="c45": each numeric
    # column's distinct training values, increasing (None: thresholds are midpoints)
    base: float = 2.0  # of every logarithm: 2 (bits), or e (nats: log_base="e")
    by_name: bool = False  # ties="name": of tied features, the first by name wins


@dataclass
class Split:
    """A candidate split of a node: its branches (key -> which of the node's rows go there, in
    branch order), its information gain and its split information (bits)."""

    feature: str
    threshold: float | None
    branches: dict[Any, Any]
    gain: float
    split_info: float

    @property
    def gain_ratio(self) -> float:
        return self.gain / self.split_info if self.split_info > 0 else 0.0


def grow_tree(
    X: Any, y: Any, *, criterion: str = "gain", max_depth: int | None = None,
    min_samples_split: int = 2, min_samples_leaf: int = 1, min_gain: float = 0.0,
    alpha: float | None = None, average_gain_rule: bool = True, categorical: Any = "auto",
    thresholds: str = "midpoint", log_base: Any = 2, ties: str = "first",
) -> Node:  # fmt: skip
    """Grow an ID3 tree node by node: the tree of ``ID3Classifier(...).fit(X, y).root_``.

    ``X`` is a DataFrame (an array or a list of rows gets the columns ``x0, x1, ...``): numeric
    columns are cut at midpoints, the others (text, category, bool) and those listed in
    ``categorical`` branch on each value. ``criterion`` is ``"gain"`` (``"entropy"``, as the
    learner calls it) or C4.5's ``"gain_ratio"``; the other settings are the learner's (weights
    are the learner's alone). A leaf's ``stop_reason`` names the rule that stopped it.
    ``thresholds="c45"`` moves each chosen midpoint down to C4.5's threshold, the largest value
    of the whole training column that does not exceed it (:func:`c45_threshold`).
    ``log_base="e"`` measures every entropy and gain in nats (natural logarithms) instead of
    bits: the same tree, its numbers times ``ln 2``, and ``min_gain`` in nats. ``ties="name"``
    gives a tie between features to the one whose name comes first (alphabetical order).
    """
    if criterion not in ("entropy", "gain", "gain_ratio"):  # (entropy: the learner's name for gain)
        raise ValueError(f"criterion must be one of entropy, gain, gain_ratio; got {criterion!r}")
    if not isinstance(X, pd.DataFrame):
        X = pd.DataFrame(list(X) if not isinstance(X, np.ndarray) else X).add_prefix("x")
    X, categories = prepared_columns(X.reset_index(drop=True), categorical)
    y = pd.Series(y)
    if len(y) != len(X) or len(y) == 0 or y.isna().any():
        raise ValueError(f"y must hold a label for each of the {len(X)} rows of X (at least 1)")
    if thresholds not in ("midpoint", "c45"):
        raise ValueError(f"thresholds must be one of midpoint, c45; got {thresholds!r}")
    if log_base not in (2, "e"):
        raise ValueError(f"log_base must be 2 (bits) or 'e' (nats), got {log_base!r}")
    if ties not in ("first", "name"):
        raise ValueError(f"ties must be one of first, name; got {ties!r}")
    values = None
    if thresholds == "c45":  # every numeric column's values, over all the training rows
        values = {f: sorted(set(X[f].dropna())) for f in X.columns if f not in categories}
    rules = Rules(in_column_order(y), categories, criterion == "gain_ratio",
                  math.inf if max_depth is None else max_depth, min_samples_split,
                  min_samples_leaf, min_gain, alpha, average_gain_rule, values,
                  2.0 if log_base == 2 else math.e, ties == "name")  # fmt: skip
    root = grow_node(X, y.to_numpy(), rules, used=(), depth=0)
    for position, node in enumerate(root.walk()):  # the nodes numbered in pre-order
        node.node_id = position
    return root


def predict_row(root: Node, row: Any) -> object:
    """The class the tree ``root`` predicts for ``row`` (a dict or a Series: feature -> value),
    by the walk a student does by hand.

    A category is found among a node's branches by equality, as a dict finds a key: ``1``,
    ``1.0`` and ``True`` are one value, as they are one category to the learner. A number meets
    a threshold as a double, as the learner reads it (``2**53 + 1`` is ``2**53``).
    """
    node = root
    while not node.is_leaf:
        # read the row's value of the feature this node asks about
        value = row[node.feature]
        # take the branch of that value: <= or > the threshold, the value's own, or "missing"
        child = node.child_for(value)
        if child is None:  # no branch for it here: the walk stops at this node
            break
        node = child
    # the answer is the majority class of the training rows that reached the node
    return node.prediction


def grow_node(
    X: pd.DataFrame, y: np.ndarray, rules: Rules, used: tuple[Any, ...], depth: int
) -> Node:
    """The subtree grown from the rows ``X``, ``y``; ``used``: the categorical features split
    on above it."""
    # 1. a node with the class counts of its rows
    counts = class_counts(y, rules)
    node = Node(
        feature=None, threshold=None, children={}, n_samples=len(y), depth=depth, gain=None,
        class_counts=dict(zip(rules.classes, counts)), entropy=entropy(counts, rules),
        prediction=rules.classes[int(np.argmax(counts))],  # (ties: the first class)
    )  # fmt: skip

    # 2. stop if it is pure, too small, or at the maximum depth
    node.stop_reason = reason_to_stop(counts, depth, rules)
    if node.stop_reason:
        return node

    # 3. score every feature (a categorical one only once on a path)
    splits = []
    for feature in X.columns:
        if feature not in rules.categories:
            splits.append(numeric_split(feature, X[feature].to_numpy(), y, rules))
        elif feature not in used:
            splits.append(categorical_split(feature, X[feature].to_numpy(), y, rules))

    # 4. choose the best, and make sure its split is worth making
    best = choose_split([split for split in splits if split is not None], rules)
    if best is None:
        node.stop_reason = "no feature offers a valid split"
    elif best.gain < rules.min_gain:
        node.stop_reason = "the gain is below min_gain"
    elif rules.alpha is not None:  # Quinlan's chi-square test of branches x classes
        table = [class_counts(y[rows], rules) for rows in best.branches.values()]
        if not chi_square_from_table(np.array(table)).pvalue < rules.alpha:
            node.stop_reason = "the split is not significant at alpha"
    if node.stop_reason:
        return node

    # 5. a child from the rows of each branch
    node.feature, node.threshold, node.gain = best.feature, best.threshold, best.gain
    if best.threshold is None:  # a categorical feature is used up below
        used = (*used, best.feature)
    for key, rows in best.branches.items():
        node.children[key] = grow_node(X[rows], y[rows], rules, used, depth + 1)
    return node


def reason_to_stop(counts: list[int], depth: int, rules: Rules) -> str | None:
    """Why a node is a leaf before any feature is scored (None: score them)."""
    n = sum(counts)
    if max(counts) == n:
        return "pure"
    if depth >= rules.max_depth:
        return "max_depth reached"
    if n < rules.min_samples_split:
        return "fewer rows than min_samples_split"
    if n < 2 * rules.min_samples_leaf:
        return "too few rows for two branches of min_samples_leaf"
    return None


def categorical_split(feature: str, x: np.ndarray, y: np.ndarray, rules: Rules) -> Split | None:
    """One branch per value present at the node, in the column's order, then one of the missing
    values; None if that is fewer than two branches or one has fewer than min_samples_leaf."""
    branches = {value: x == value for value in rules.categories[feature]}
    branches[MISSING] = pd.isna(x)
    branches = {key: rows for key, rows in branches.items() if rows.any()}
    if len(branches) < 2 or min(rows.sum() for rows in branches.values()) < rules.min_samples_leaf:
        return None
    return scored_split(feature, None, branches, y, rules)


def numeric_split(feature: str, x: np.ndarray, y: np.ndarray, rules: Rules) -> Split | None:
    """``x <= t`` and ``x > t`` at the best threshold t, then a branch of the missing values;
    None if there is no threshold, or if the missing values are fewer than min_samples_leaf."""
    threshold = best_threshold(x, y, rules)
    if threshold is not None and rules.training_values is not None:
        threshold = c45_threshold(threshold, rules.training_values[feature])
    missing = np.isnan(x)
    if threshold is None or 0 < missing.sum() < rules.min_samples_leaf:
        return None
    branches = {"<=": x <= threshold, ">": x > threshold, MISSING: missing}
    branches = {key: rows for key, rows in branches.items() if rows.any()}
    return scored_split(feature, threshold, branches, y, rules)


def best_threshold(x: np.ndarray, y: np.ndarray, rules: Rules) -> float | None:
    """The midpoint between adjacent distinct values of lowest overall entropy (ties: the
    smallest), of those leaving min_samples_leaf rows on either side; None if there is none.

    The rows sorted by value, the class counts left of every cut are running sums; a cut is
    scored by ``n_left H(left) + n_right H(right)`` in whole units (the module's "Ties"). The
    missing values add the same to every cut."""
    missing = np.isnan(x)
    order = np.argsort(x[~missing], kind="stable")
    xs, ys = x[~missing][order], y[~missing][order]
    left_counts = np.cumsum([ys == c for c in rules.classes], axis=1).T  # row i: rows 0..i
    q, _, unit = scaled_xlogx(len(y))  # c ln c in whole units, for c = 0 .. n
    cuts = []  # (threshold, score), the smallest threshold first
    for i in range(len(xs) - 1):
        n_left, n_right = i + 1, len(xs) - (i + 1)
        if xs[i] == xs[i + 1] or min(n_left, n_right) < rules.min_samples_leaf:
            continue  # a cut goes between two distinct values
        left, right = left_counts[i], left_counts[-1] - left_counts[i]
        score = n_entropy_units(q, n_left, left) + n_entropy_units(q, n_right, right)
        cuts.append((midpoint(xs[i], xs[i + 1]), int(score)))
    if not cuts:
        return None
    lowest = min(score for _, score in cuts)
    return next(t for t, score in cuts if score <= lowest + tie_tolerance(len(y), unit))


def midpoint(low: float, high: float) -> float:
    """The threshold between two adjacent values: their midpoint, or ``low`` when the two are so
    close that the midpoint rounds to ``high`` (``x <= threshold`` must still tell them apart)."""
    mid = low / 2.0 + high / 2.0  # (no overflow near the largest floats)
    return float(low if mid >= high else mid)


def c45_threshold(midpoint: float, values: list[float]) -> float:
    """C4.5's threshold of a cut: "the largest value in the training set that does not exceed
    the midpoint" (Quinlan 1993). It is at least the value below the cut, so the node's rows go
    to the same sides."""
    return max(v for v in values if v <= midpoint)


def scored_split(
    feature: Any, threshold: Any, branches: dict[Any, Any], y: np.ndarray, rules: Rules
) -> Split:
    """A split with its information gain, the node's entropy minus the size-weighted entropy of
    the branches (the *overall entropy*), and its split information, the entropy of the sizes."""
    sizes = [rows.sum() for rows in branches.values()]
    entropies = [entropy(class_counts(y[rows], rules), rules) for rows in branches.values()]
    overall = sum(size * h for size, h in zip(sizes, entropies)) / len(y)
    gain = max(entropy(class_counts(y, rules), rules) - overall, 0.0)
    return Split(feature, threshold, branches, gain, split_info=entropy(sizes, rules))


def entropy(counts: list[int], rules: Rules) -> float:
    """Shannon's entropy of ``counts`` in the tree's unit: bits, or nats (``log_base="e"``)."""
    return entropy_from_counts(counts, base=rules.base)


def choose_split(splits: list[Split], rules: Rules) -> Split | None:
    """The split of the highest score (gain, or gain ratio); ties go to the first in column order
    (``ties="name"``: the first by name).
    Under gain ratio, C4.5's average-gain rule first keeps out the splits of below-average gain:
    else a split of almost no gain but tiny split information (one huge branch) could win."""
    if not splits:
        return None
    scores = [split.gain for split in splits]
    if rules.by_gain_ratio:
        average = sum(scores) / len(splits)
        kept_out = [rules.average_gain_rule and s.gain < average - TIE_TOLERANCE for s in splits]
        scores = [-math.inf if out else s.gain_ratio for s, out in zip(splits, kept_out)]
    best = max(scores)
    tied = [split for split, score in zip(splits, scores) if score >= best - TIE_TOLERANCE]
    return min(tied, key=lambda split: str(split.feature)) if rules.by_name else tied[0]


def class_counts(y: np.ndarray, rules: Rules) -> list[int]:
    """How many of the labels ``y`` are of each class, in the order of the classes."""
    return [int(np.sum(y == c)) for c in rules.classes]


def in_column_order(column: pd.Series) -> list[Any]:
    """The values present in a column, sorted (a category column's: in its categories' order)."""
    return column.dropna().drop_duplicates().sort_values().tolist()


def prepared_columns(X: pd.DataFrame, categorical: Any) -> tuple[pd.DataFrame, dict[Any, Any]]:
    """X with its numeric features as floats (NaN missing) and its categorical ones as Python
    objects (None missing), and each categorical feature's values, in the column's order."""
    names = [str(name) for name in X.columns]
    if isinstance(categorical, str) and categorical != "auto":
        raise ValueError(f"categorical must be 'auto' or a list of columns, got {categorical!r}")
    listed = set() if isinstance(categorical, str) else set(categorical)
    if listed - set(names) - set(range(len(names))):
        raise ValueError(f"categorical names columns not in X: {listed - set(names)} ({names})")
    columns, categories = {}, {}
    for position, (name, (_, x)) in enumerate(zip(names, X.items())):
        numeric = pd.api.types.is_numeric_dtype(x) and not pd.api.types.is_bool_dtype(x)
        if numeric and not listed & {name, position}:
            columns[name] = x.to_numpy(dtype=float, na_value=np.nan)
        else:
            categories[name] = in_column_order(x)
            columns[name] = x.astype(object).where(x.notna(), None)
    return pd.DataFrame(columns), categories
