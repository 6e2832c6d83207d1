"""Why is scikit-learn's tree different? An ID3 tree and a fitted scikit-learn
``DecisionTreeClassifier`` compared node by node on the rows both were fitted on.

The two trees are walked together from their roots. Two nodes *match* when the same training rows
reach them. At each matched pair the splits are compared, and where they differ the point of
departure is named with the reason, one of:

``binary vs multiway``
    ID3 splits a categorical feature into one branch per value at once; scikit-learn's splits are
    binary (one one-hot column, or a cut of ordinal codes). When scikit-learn's binary splits
    below rebuild the same branches, the walk goes on through them.
``missing values``
    ID3 gives missing values a branch of their own; scikit-learn sends them to one side. Or ID3
    cannot split on scikit-learn's feature here because its branch of missing values would be
    smaller than ``min_samples_leaf``.
``tie``
    scikit-learn's own score of ID3's feature equals that of the split it chose: a tie, broken by
    scikit-learn's random order of the features (``random_state``); ID3 takes the first column.
``criterion``
    With gini (or ID3's gain ratio) the features rank differently than with entropy.
``stopping rule``
    One tree stops where the other splits: ``max_depth``, ``min_samples_leaf``, ... or ID3's
    rule that a split must gain information (scikit-learn also splits with zero gain); or ID3
    cannot split on scikit-learn's feature at all (``min_samples_leaf``, a single value).
``other``
    None of these explains it (for example ``max_features``, or ``class_weight``).

Below a departure the subtrees no longer hold the same rows and the walk stops there. Where both
cut a number between the same two values (the same rows each side) at different places, ID3 at
the midpoint of the float64 values and scikit-learn at the midpoint of its input values cast to
float32, the trees do not part: that is said once, in a note (:attr:`Comparison.notes`).

``X, y`` must be the rows both trees were fitted on, as each saw them: every node of either tree
must hold as many of them as it was fitted with, or compare says where they differ and why (rows
left out, values filled with ``fillna`` before the classifier was fitted, another encoding).
"""

from __future__ import annotations

import html
from dataclasses import dataclass

import numpy as np
import pandas as pd

from id3tree.base.entropy import entropy_rows
from id3tree.base.words import format_counts, format_number
from id3tree.model.node import Node

__all__ = [
    "best_binary", "checked_labels", "Column", "compare_trees", "Comparison", "decrease",
    "impurity", "KINDS", "map_columns", "TIE_TOLERANCE", "unwrap",
]  # fmt: skip

KINDS = ("binary vs multiway", "missing values", "tie", "criterion", "stopping rule", "other")
TIE_TOLERANCE = 1e-9


# ---------------------------------------------------------------------------------------------
# scikit-learn's side: the classifier, its encoding, and its columns mapped to our features
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Column:
    """What one of scikit-learn's input columns is in terms of the original features."""

    name: str
    feature: str | None  # None: no original feature found
    kind: str  # "numeric", "onehot", "ordinal"
    category: object = None  # the one-hot column's category (None: missing)


def unwrap(other, X, feature_names=None, encoder=None):
    """The classifier, its input matrix for ``X`` and its column names."""
    from sklearn.pipeline import Pipeline
    from sklearn.tree import DecisionTreeClassifier

    clf = other.steps[-1][1] if isinstance(other, Pipeline) else other
    if not isinstance(clf, DecisionTreeClassifier):
        what = f"a Pipeline ending in {type(clf).__name__}" if clf is not other else None
        raise TypeError(
            "compare needs a fitted scikit-learn DecisionTreeClassifier (or a Pipeline ending "
            f"in one), got {what or type(other).__name__}"
        )
    if not hasattr(clf, "tree_"):
        raise ValueError(
            "the DecisionTreeClassifier is not fitted: fit it on the rows the ID3 tree was "
            "fitted on, then compare"
        )
    if isinstance(other, Pipeline):
        front = other[:-1]
        encoded = front.transform(X)
        names = feature_names
        if names is None and hasattr(front, "get_feature_names_out"):
            names = front.get_feature_names_out()
    else:
        encoded, names = _encode(clf, X, feature_names, encoder)
    encoded = encoded.toarray() if hasattr(encoded, "toarray") else np.asarray(encoded)
    if names is None:
        names = [f"x{j}" for j in range(encoded.shape[1])]
    names = [str(n) for n in names]
    if len(names) != clf.n_features_in_:
        raise ValueError(
            f"the classifier has {clf.n_features_in_} input columns but {len(names)} names "
            "were given or found; pass feature_names= (the columns it was fitted on)"
        )
    return clf, np.asarray(encoded, dtype=float), names


def _encode(clf, X, feature_names, encoder):
    if (
        isinstance(encoder, str)
        and encoder != "get_dummies"
        or (
            encoder is not None
            and not isinstance(encoder, str)
            and not hasattr(encoder, "transform")
        )
    ):
        raise ValueError(
            "encoder must be None, 'get_dummies' or the fitted encoder that made the "
            f"classifier's input (OneHotEncoder, ColumnTransformer, ...), got {encoder!r}"
        )
    if encoder is not None and encoder != "get_dummies":
        encoded = encoder.transform(X)
        names = feature_names
        if names is None and hasattr(encoder, "get_feature_names_out"):
            names = encoder.get_feature_names_out()
        return encoded, names
    names = feature_names
    if names is None:
        names = getattr(clf, "feature_names_in_", None)
    frame = pd.DataFrame(X)
    if names is None:
        raise ValueError(
            "compare cannot tell which columns the classifier was fitted on: pass "
            "feature_names= (for example list(pd.get_dummies(X).columns)) or encoder="
        )
    names = [str(n) for n in names]
    if encoder == "get_dummies" or not set(names) <= {str(c) for c in frame.columns}:
        frame = _dummies(frame, names)
    missing = [n for n in names if n not in frame.columns]
    if missing:
        raise ValueError(f"the classifier's columns {missing[:5]} are not in X nor its dummies")
    return frame[names].to_numpy(dtype=float), names


def _dummies(frame: pd.DataFrame, names: list[str]) -> pd.DataFrame:
    """``pd.get_dummies(frame)`` with string column names, and a ``<column>_nan`` column of the
    missing values where the classifier has one and no category is the text "nan"."""
    dummies = pd.get_dummies(frame)
    dummies.columns = [str(c) for c in dummies.columns]
    for column in frame.columns:
        name = f"{column}_nan"
        if name in names and name not in dummies.columns and frame[column].isna().any():
            dummies[name] = frame[column].isna().to_numpy()
    return dummies


def map_columns(names: list[str], model) -> list[Column]:
    """Each of scikit-learn's columns as a numeric feature, an ordinal code of a categorical one,
    or one category's one-hot column (``Embarked_S``, ``cat__Embarked_S``)."""
    features = [str(f) for f in _feature_names(model)]
    categorical = _categorical_features(model)
    columns = []
    for name in names:  # (a feature's own name first: "a__b" is no transformer's column)
        plain = name.split("__", 1)[1] if "__" in name and name not in features else name
        if plain in features:
            kind = "ordinal" if plain in categorical else "numeric"
            columns.append(Column(name, plain, kind))
            continue
        owner = max((f for f in features if plain.startswith(f + "_")), key=len, default=None)
        if owner is None:
            columns.append(Column(name, None, "numeric"))
            continue
        text = plain[len(owner) + 1 :]
        value = _category(categorical.get(owner, []), text)  # None: the missing values
        columns.append(Column(name, owner, "onehot", value))
    return columns


def _feature_names(model) -> list:
    names = getattr(model, "feature_names_in_", None)
    if names is not None:
        return list(names)
    return [f"x{i}" for i in range(model.n_features_in_)]


def _categorical_features(model) -> dict:
    """Categorical feature -> its categories, read off the tree's categorical splits."""
    found: dict = {}
    for node in model.root_.walk():
        if not node.is_leaf and not node.is_numeric_split:
            found.setdefault(node.feature, []).extend(k for k in node.children if k is not None)
    return found


def _category(known: list, text: str):
    """The category a one-hot column's name ends in: a known category written so, else None
    for ``nan`` (the missing values' column), else the text."""
    for value in known:
        if str(value) == text:
            return value
    return None if text == "nan" else text


# ---------------------------------------------------------------------------------------------
# scores of binary splits, as scikit-learn computes them
# ---------------------------------------------------------------------------------------------
def impurity(counts: np.ndarray, criterion: str) -> np.ndarray:
    """Gini (``1 - sum p^2``) or entropy in bits of every row of class counts."""
    counts = np.atleast_2d(np.asarray(counts, dtype=float))
    if criterion == "gini":
        totals = counts.sum(axis=1)
        shares = counts / np.where(totals > 0, totals, 1)[:, None]
        return 1.0 - (shares**2).sum(axis=1)
    return entropy_rows(counts, 2.0)  # (bits, as scikit-learn's, whatever the tree's unit)


def decrease(parts: list[np.ndarray], criterion: str) -> float:
    """The parent's impurity minus the size-weighted impurity of the parts."""
    parts = [np.asarray(p, dtype=float) for p in parts]
    parent = np.sum(parts, axis=0)
    n = parent.sum()
    after = sum(p.sum() / n * impurity(p, criterion)[0] for p in parts if p.sum() > 0)
    return float(impurity(parent, criterion)[0] - after)


def best_binary(values, codes, n_classes, criterion, min_leaf) -> tuple[float, float | None]:
    """The best score of a cut of one column (values as float32, as scikit-learn sees them;
    missing values tried on either side) and its threshold."""
    present = ~np.isnan(values)
    v, c = values[present].astype(np.float32).astype(float), codes[present]
    lost = np.bincount(codes[~present], minlength=n_classes).astype(float)
    order = np.argsort(v, kind="stable")
    v, c = v[order], c[order]
    onehot = np.zeros((len(c), n_classes))
    onehot[np.arange(len(c)), c] = 1
    left = np.cumsum(onehot, axis=0)[:-1]
    cuts = np.flatnonzero(v[1:] > v[:-1])
    best, where = -np.inf, None
    total = onehot.sum(axis=0)
    for i in cuts:
        for side in (0, 1) if lost.sum() else (0,):
            lo = left[i] + (lost if side == 0 else 0)
            hi = total - left[i] + (lost if side == 1 else 0)
            if lo.sum() < min_leaf or hi.sum() < min_leaf:
                continue
            score = decrease([lo, hi], criterion)
            if score > best + TIE_TOLERANCE:
                best, where = score, float(v[i] / 2 + v[i + 1] / 2)
    return best, where


# ---------------------------------------------------------------------------------------------
# the walk
# ---------------------------------------------------------------------------------------------
class _Walk:
    """Both trees, the rows at each of their nodes, and the departures found."""

    def __init__(self, model, clf, encoded, names, X, y):
        self.model, self.clf, self.encoded = model, clf, encoded
        self.columns = map_columns(names, model)
        self.classes = list(model.classes_)
        index = {c: i for i, c in enumerate(self.classes)}
        self.codes = np.array([index[v] for v in np.asarray(y).tolist()])
        self.criterion = "gini" if clf.criterion == "gini" else "entropy"
        self.id3_rows = _id3_rows(model, X)
        names = getattr(clf, "feature_names_in_", None)
        rows = encoded if names is None else pd.DataFrame(encoded, columns=names)
        path = clf.decision_path(rows).tocsc()
        self.sk_rows = [path[:, j].toarray().ravel().astype(bool) for j in range(path.shape[1])]
        self.sk_depth = _depths(clf.tree_)
        self.departures: list[dict] = []
        self.moved: list[tuple] = []  # (feature, ID3's threshold, scikit-learn's): same rows
        self.n_matched = 0
        self.X = X

    def check_rows(self) -> None:
        """Every node of both trees holds as many of the rows as it was fitted with, or a
        ValueError says where and why not."""
        tree, model = self.clf.tree_, self.model
        if model._tree.counts.dtype.kind in "iu":  # (a weighted fit counts sums of weights)
            for node in model.root_.walk():
                held = int(self.id3_rows[node.node_id].sum())
                if held != node.n_samples or not np.array_equal(
                    self.counts(self.id3_rows[node.node_id]),
                    [node.class_counts[c] for c in self.classes],
                ):
                    raise ValueError(_not_fitted_on("the ID3 tree", node.node_id, held, node))
        held_sk = np.array([rows.sum() for rows in self.sk_rows])
        wrong = np.flatnonzero(held_sk != tree.n_node_samples)
        if len(wrong):
            s = int(wrong[0])
            parent = int(np.flatnonzero((tree.children_left == s) | (tree.children_right == s))[0])
            raise ValueError(self.sk_rows_message(s, parent if s else None, int(held_sk[s])))

    def sk_rows_message(self, s: int, parent: int | None, held: int) -> str:
        """Why scikit-learn's node ``s`` does not hold the rows it was fitted with."""
        fitted = int(self.clf.tree_.n_node_samples[s])
        words = (
            f"scikit-learn's tree was not fitted on these rows as compare encodes them: "
            f"{held} of them reach its node {s}, which it was fitted with {fitted}"
        )
        if parent is None:
            return f"{words}; pass the rows (and labels) both trees were fitted on"
        column = self.columns[self.clf.tree_.feature[parent]]
        values = self.encoded[self.sk_rows[parent], self.clf.tree_.feature[parent]]
        n_missing = int(np.isnan(values).sum())
        words += f", below {self.sk_split_text(parent)}"
        if n_missing:
            return (
                f"{words}. X holds {n_missing} missing values of {column.feature or column.name} "
                "there, and the classifier saw none: were they filled (fillna) before it was "
                "fitted? Fill them in a Pipeline that ends in the classifier (a SimpleImputer, "
                "then the tree), so that compare sees what it saw, and pass the unfilled X"
            )
        return f"{words}; pass the rows it was fitted on, encoded as it saw them"

    def run(self) -> None:
        queue = [(self.model.root_, 0)]
        while queue:
            node, s = queue.pop(0)
            self.n_matched += 1
            queue += self.step(node, s)

    def counts(self, rows: np.ndarray) -> np.ndarray:
        return np.bincount(self.codes[rows], minlength=len(self.classes)).astype(float)

    def sk_leaf(self, s: int) -> bool:
        return self.clf.tree_.children_left[s] < 0

    def step(self, node: Node, s: int) -> list:
        """Compare the matched pair; the matched pairs below it."""
        if node.is_leaf and self.sk_leaf(s):
            return []
        if node.is_leaf or self.sk_leaf(s):
            self.depart(node, s, "stopping rule", self.why_stop(node, s))
            return []
        column = self.columns[self.clf.tree_.feature[s]]
        below = self.matches(node, s)
        if column.feature == node.feature:
            kind, why = self.same_feature(node, s, column, below)
            if kind:
                self.depart(node, s, kind, why)
            return below
        if len(below) == len(node.children):  # another feature, the same rows each side
            why = (
                f"{node.feature} and {column.feature or column.name} split these rows the "
                "same way; ID3 takes the first column, scikit-learn the first in its random "
                "order of the features (random_state)"
            )
            self.depart(node, s, "tie", why)
            return below
        kind, why = self.why_other_feature(node, s, column)
        self.depart(node, s, kind, why)
        return []

    def matches(self, node: Node, s: int) -> list:
        """The pairs (ID3 child, scikit-learn node below ``s``) that hold the same rows."""
        found = []
        for child in node.children.values():
            rows = self.id3_rows[child.node_id]
            for t in _subtree(self.clf.tree_, s):
                if np.array_equal(self.sk_rows[t], rows):
                    found.append((child, t))
                    break
        return found

    def same_feature(self, node, s, column, below):
        split = self.sk_split_text(s)
        if not node.is_numeric_split:
            n = len(node.children)
            rebuilt = len(below) == n
            if rebuilt and n == 2:  # two values: one binary split is the same split
                return None, None
            how = (
                f"its binary splits below rebuild the same {n} branches"
                if rebuilt
                else "its binary splits do not rebuild the same branches, and the trees part"
            )
            why = (
                f"ID3 splits {node.feature} into {n} branches at once; scikit-learn asks "
                f"{split} (binary: one category against the rest, or a cut of codes); {how}"
            )
            return "binary vs multiway", why
        t, u = node.threshold, float(self.clf.tree_.threshold[s])
        if None in node.children:
            rebuilt = len(below) == len(node.children)
            how = "its splits below set them apart too" if rebuilt else "the trees part"
            why = (
                f"ID3 gives the missing values of {node.feature} a branch of their own; "
                f"scikit-learn sends them to one side of {split}; {how}"
            )
            return "missing values", why
        if len(below) == len(node.children):
            if t != u:  # the same rows each side: not a departure, a note
                self.moved.append((node.feature, t, u))
            return None, None
        return self.why_other_feature(node, s, column)

    def notes(self) -> list[str]:
        """The note on thresholds placed differently with the same rows each side."""
        if not self.moved:
            return []
        shown = "; ".join(
            f"{feature} {format_number(t)} and {format_number(u)}"
            for feature, t, u in self.moved[:3]
        )
        more = f", and {len(self.moved) - 3} more" if len(self.moved) > 3 else ""
        n = len(self.moved)
        return [
            f"At {n} {'node' if n == 1 else 'nodes'} both trees cut the same feature between the "
            "same two values, with the same rows each side, at different places: ID3 at the "
            "midpoint of the values (float64), scikit-learn at the midpoint of its input values "
            f"cast to float32 (ID3's and scikit-learn's: {shown}{more}). Not a departure."
        ]

    def sk_split_text(self, s: int) -> str:
        tree = self.clf.tree_
        column = self.columns[tree.feature[s]]
        if column.kind == "onehot":
            value = "missing" if column.category is None else column.category
            return f"{column.feature} = {value} ({column.name} > 0.5)"
        return f"{column.feature or column.name} <= {format_number(tree.threshold[s])}"

    def id3_split_text(self, node: Node) -> str:
        if node.is_leaf:
            return f"leaf ({node.prediction})"
        if node.is_numeric_split:
            return f"{node.feature} <= {format_number(node.threshold)}"
        return f"{node.feature} ({len(node.children)} branches)"

    def why_stop(self, node: Node, s: int) -> str:
        if node.is_leaf:
            reason = node.stop_reason or "it found no split to make"
            return f"ID3 stops: {reason}; scikit-learn splits on {self.sk_split_text(s)}"
        return f"scikit-learn stops: {self.sk_stop_reason(s)}; ID3 splits on {node.feature}"

    def sk_stop_reason(self, s: int) -> str:
        clf, n = self.clf, int(self.clf.tree_.n_node_samples[s])
        if clf.max_depth is not None and self.sk_depth[s] >= clf.max_depth:
            return f"max_depth = {clf.max_depth} reached"
        if n < clf.min_samples_split:
            return f"fewer than min_samples_split = {clf.min_samples_split} samples"
        rows = self.sk_rows[s]
        best = max(
            (
                best_binary(
                    self.encoded[rows, j],
                    self.codes[rows],
                    len(self.classes),
                    self.criterion,
                    clf.min_samples_leaf,
                )[0]
                for j in range(self.encoded.shape[1])
            ),
            default=-np.inf,
        )
        if best == -np.inf:
            return f"no cut leaves min_samples_leaf = {clf.min_samples_leaf} rows on each side"
        if clf.max_leaf_nodes is not None:
            return f"max_leaf_nodes = {clf.max_leaf_nodes} (it grows best first)"
        if clf.ccp_alpha > 0:
            return f"cost-complexity pruning, ccp_alpha = {clf.ccp_alpha:g}"
        if clf.min_impurity_decrease > 0:
            return f"min_impurity_decrease = {clf.min_impurity_decrease:g}"
        return "none of its rules explains it"

    def id3_cannot(self, node: Node, feature) -> tuple | None:
        """``(kind, why)`` when ID3 could not split ``node`` on ``feature`` at all (its own words,
        :func:`~id3tree.teaching.why_not.why_not`), else None; None also where the teaching tools
        cannot answer (a model without its training data, a weighted fit)."""
        if feature not in self.model._names:
            return None
        try:
            answer = self.model.why_not(node.node_id, feature)
        except (AttributeError, KeyError, TypeError, ValueError):
            return None
        if answer.kind != "excluded":
            return None
        kind = "missing values" if "branch of missing values" in answer.text else "stopping rule"
        return kind, answer.text.rstrip(".")

    def why_other_feature(self, node: Node, s: int, column: Column):
        cannot = self.id3_cannot(node, column.feature)
        if cannot is not None:
            kind, why = cannot
            return kind, f"{why}; scikit-learn splits on {self.sk_split_text(s)}"
        rows = self.sk_rows[s]
        codes, k, leaf = self.codes[rows], len(self.classes), self.clf.min_samples_leaf
        theirs = self.sk_score(s, rows)
        ours = [
            best_binary(self.encoded[rows, j], codes, k, self.criterion, leaf)[0]
            for j, c in enumerate(self.columns)
            if c.feature == node.feature
        ]
        best_ours = max(ours, default=-np.inf)
        name = self.criterion
        if abs(best_ours - theirs) <= TIE_TOLERANCE:
            return "tie", (
                f"scikit-learn scores the best binary split of {node.feature} exactly as high "
                f"as {self.sk_split_text(s)} ({name} decrease {theirs:.4f}): a tie, broken by "
                "its random order of the features (random_state); ID3 takes the first column"
            )
        entropy_ours = max(
            (
                best_binary(self.encoded[rows, j], codes, k, "entropy", leaf)[0]
                for j, c in enumerate(self.columns)
                if c.feature == node.feature
            ),
            default=-np.inf,
        )
        entropy_theirs = self.sk_score(s, rows, "entropy")
        if self.criterion == "gini" and entropy_ours > entropy_theirs + TIE_TOLERANCE:
            return "criterion", (
                f"with entropy the best binary split of {node.feature} gains {entropy_ours:.4f} "
                f"bits, more than {self.sk_split_text(s)} ({entropy_theirs:.4f}); with gini it "
                f"decreases impurity by {best_ours:.4f}, less than {theirs:.4f}"
            )
        if self.model.criterion == "gain_ratio":
            return "criterion", "ID3 ranks features by gain ratio, scikit-learn by " + name
        if None in node.children:  # ID3's branch of missing values made its split win
            return "missing values", self.missing_branch_why(node, s, entropy_ours)
        if not node.is_numeric_split and len(node.children) > 2:
            return "binary vs multiway", (
                f"ID3's {len(node.children)}-way split of {node.feature} gains "
                f"{node.gain:.4f} bits, but its best binary split only {entropy_ours:.4f}, less "
                f"than {self.sk_split_text(s)} ({entropy_theirs:.4f}): the multiway split wins "
                "for ID3, a binary one for scikit-learn"
            )
        return "other", (
            f"scikit-learn's {self.sk_split_text(s)} scores {theirs:.4f}, the best binary split "
            f"of {node.feature} {best_ours:.4f}: its settings (max_features, class_weight, ...) "
            "or ID3's differ"
        )

    def missing_branch_why(self, node: Node, s: int, best: float) -> str:
        """Why ID3's split with a branch of missing values won where scikit-learn's did not."""
        n = int(self.id3_rows[node.children[None].node_id].sum())
        mine = [j for j, c in enumerate(self.columns) if c.feature == node.feature]
        seen = np.isnan(self.encoded[np.ix_(self.sk_rows[s], mine)]).any() if mine else True
        how = (
            "scikit-learn sends them to one side"
            if seen
            else "scikit-learn's input holds no missing value of it here: they were filled "
            "(fillna, an imputer) and count as values"
        )
        return (
            f"ID3 gives the {n} missing values of {node.feature} a branch of their own, and its "
            f"split gains {node.gain:.4f} bits; {how}, and its best binary split of "
            f"{node.feature} gains only {best:.4f}, less than {self.sk_split_text(s)} "
            f"({self.sk_score(s, self.sk_rows[s], 'entropy'):.4f})"
        )

    def sk_score(self, s: int, rows: np.ndarray, criterion: str | None = None) -> float:
        tree = self.clf.tree_
        left = self.sk_rows[tree.children_left[s]]
        parts = [self.counts(rows & left), self.counts(rows & ~left)]
        return decrease(parts, criterion or self.criterion)

    def depart(self, node: Node, s: int, kind: str, why: str) -> None:
        self.departures.append(
            dict(
                node=node.node_id,
                sklearn_node=int(s),
                depth=node.depth,
                n_samples=int(self.id3_rows[node.node_id].sum()),
                kind=kind,
                id3=self.id3_split_text(node),
                sklearn="leaf" if self.sk_leaf(s) else self.sk_split_text(s),
                why=why,
            )
        )


def _id3_rows(model, X) -> dict[int, np.ndarray]:
    """node_id -> which training rows reach it (the rows of the leaves below it)."""
    leaf_of = np.asarray(model.apply(X))
    rows = {}
    for node in reversed(list(model.root_.walk())):
        if node.is_leaf:
            rows[node.node_id] = leaf_of == node.node_id
        else:
            rows[node.node_id] = np.logical_or.reduce(
                [rows[c.node_id] for c in node.children.values()]
            )
    return rows


def _not_fitted_on(which: str, node_id: int, held: int, node: Node) -> str:
    return (
        f"{which} was not fitted on these rows: {held} of them reach its node {node_id}, which "
        f"it was fitted with {node.n_samples} ({format_counts(node.class_counts)}); pass the "
        "rows and labels both trees were fitted on, as the ID3 tree took them"
    )


def checked_labels(model, X, y) -> list:
    """``y`` as a list, one known class per row of ``X``, or a ValueError that says what is
    wrong (another length, a missing label, a class the ID3 tree was not fitted on)."""
    if X is None or isinstance(X, str) or np.ndim(X) != 2:
        raise TypeError(f"X must be the training rows (a DataFrame or a 2-D array), got {X!r:.80}")
    labels = pd.Series(np.asarray(y, dtype=object).ravel() if y is not None else [])
    if len(labels) != len(X):
        raise ValueError(f"y has {len(labels)} labels but X has {len(X)} rows; pass both in full")
    missing = np.flatnonzero(labels.isna().to_numpy())
    if len(missing):
        raise ValueError(f"y has a missing label at row {missing[0]}; a tree has none")
    known = set(model.classes_.tolist())
    unseen = [i for i, v in enumerate(labels.tolist()) if v not in known]
    if unseen:
        raise ValueError(
            f"y holds {labels[unseen[0]]!r} (row {unseen[0]}), not a class of the ID3 tree "
            f"({model.classes_.tolist()[:10]}): pass the labels it was fitted on"
        )
    return labels.tolist()


def _depths(tree) -> np.ndarray:
    depth = np.zeros(tree.node_count, dtype=int)
    for s in range(tree.node_count):  # children come after their parent
        for child in (tree.children_left[s], tree.children_right[s]):
            if child >= 0:
                depth[child] = depth[s] + 1
    return depth


def _subtree(tree, s: int) -> list[int]:
    """``s`` and the nodes below it, shallowest first."""
    found, queue = [], [s]
    while queue:
        t = queue.pop(0)
        found.append(t)
        if tree.children_left[t] >= 0:
            queue += [tree.children_left[t], tree.children_right[t]]
    return found


# ---------------------------------------------------------------------------------------------
# the result
# ---------------------------------------------------------------------------------------------
class Comparison:
    """Where an ID3 tree and a scikit-learn tree part, and why.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per point of departure: ``node`` (ID3's node_id), ``sklearn_node``, ``depth``,
        ``n_samples``, ``kind`` (one of :data:`KINDS`), ``id3`` and ``sklearn`` (each tree's
        split there) and ``why``.
    n_matched : int
        Pairs of nodes that hold the same training rows.
    """

    def __init__(self, table: pd.DataFrame, n_matched: int, header: str, notes=()):
        self.table, self.n_matched, self.header = table, n_matched, header
        self.notes = list(notes)  # what is said once: thresholds placed on float32 values

    @property
    def kinds(self) -> list[str]:
        return self.table["kind"].tolist()

    def __str__(self) -> str:
        lines = [self.header, f"Nodes that hold the same rows in both trees: {self.n_matched}."]
        lines += [f"Note: {note}" for note in self.notes]
        if self.table.empty:
            lines.append("The trees agree node for node.")
        for i, row in enumerate(self.table.itertuples(index=False), start=1):
            lines.append(
                f"{i}. ID3 node {row.node} / scikit-learn node {row.sklearn_node} "
                f"({row.n_samples} rows) [{row.kind}]: ID3 {row.id3}; scikit-learn {row.sklearn}."
            )
            lines.append(f"   Why: {row.why}.")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return str(self)

    def _repr_html_(self) -> str:
        notes = "".join(f"<p>Note: {html.escape(note)}</p>" for note in self.notes)
        return f"<p>{html.escape(self.header)}</p>{notes}" + self.table.to_html(index=False)


def compare_trees(model, other, X, y, *, feature_names=None, encoder=None) -> Comparison:
    """Compare a fitted ID3 model with a fitted scikit-learn tree on the training data ``X, y``
    both were fitted on (``X`` as the ID3 model took it).

    ``other`` is a ``DecisionTreeClassifier``, or a ``Pipeline`` whose last step is one (its
    other steps encode ``X``). For a bare classifier, ``encoder`` is the fitted encoder
    (``OneHotEncoder``, ``OrdinalEncoder``, ``ColumnTransformer``) that made its input from
    ``X``, or ``"get_dummies"`` for ``pd.get_dummies(X)``; with None the classifier's
    ``feature_names_in_`` decide (X's own columns, or its dummies). ``feature_names`` names the
    classifier's input columns when it was fitted on an array.
    """
    if "_tree" not in getattr(model, "__dict__", {}):
        raise ValueError("the ID3 tree is not fitted: fit it on X, y first, then compare")
    if getattr(model, "log_base", 2) != 2:  # (scikit-learn's entropy is in bits)
        raise ValueError(
            f"compare works in bits, as scikit-learn does, and this ID3 tree has log_base="
            f"{model.log_base!r}: fit it with log_base=2 to compare"
        )
    y = checked_labels(model, X, y)
    clf, encoded, names = unwrap(other, X, feature_names, encoder)
    walk = _Walk(model, clf, encoded, names, X, y)
    walk.check_rows()
    walk.run()
    columns = ["node", "sklearn_node", "depth", "n_samples", "kind", "id3", "sklearn", "why"]
    table = pd.DataFrame(walk.departures, columns=columns)
    table = table.sort_values("node", kind="stable").reset_index(drop=True)  # ID3's pre-order
    header = (
        f"ID3 ({model.criterion}, multiway splits; {sum(1 for _ in model.root_.walk())} nodes) "
        f"against scikit-learn's DecisionTreeClassifier (criterion={clf.criterion!r}; "
        f"{clf.tree_.node_count} nodes)."
    )
    return Comparison(table, walk.n_matched, header, walk.notes())
