"""Why is scikit-learn's tree different? An ID3 tree and a fitted scikit-learn
``DecisionTreeClassifier`` compared node by node on the rows both were fitted on.

The two trees are walked together from their roots. Two nodes *match* when the same training rows
reach them. At each matched pair the splits are compared, and where they differ the point of
departure is named with the reason, one of:

``binary vs multiway``
    ID3 splits a categorical feature into one branch per value at once; scikit-learn's splits are
    binary (one one-hot column, or a cut of ordinal codes). When scikit-learn's binary splits
    below rebuild the same branches, the walk goes on through them.
``threshold``
    Both cut a number between the same two values, at different places: ID3 at the midpoint of
    the float64 values, scikit-learn at the midpoint of the values cast to float32.
``missing values``
    ID3 gives missing values a branch of their own; scikit-learn sends them to one side.
``tie``
    scikit-learn's own score of ID3's feature equals that of the split it chose: a tie, broken by
    scikit-learn's random order of the features (``random_state``); ID3 takes the first column.
``criterion``
    With gini (or ID3's gain ratio) the features rank differently than with entropy.
``stopping rule``
    One tree stops where the other splits: ``max_depth``, ``min_samples_leaf``, ... or ID3's
    rule that a split must gain information (scikit-learn also splits with zero gain).
``other``
    None of these explains it (for example ``max_features``, or ``class_weight``).

Below a departure the subtrees no longer hold the same rows and the walk stops there.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from id3tree.base.entropy import entropy_rows
from id3tree.base.words import format_number
from id3tree.model.node import Node

__all__ = [
    "best_binary", "Column", "compare_trees", "Comparison", "decrease", "impurity", "KINDS",
    "map_columns", "TIE_TOLERANCE", "unwrap",
]  # fmt: skip

KINDS = (
    "binary vs multiway", "threshold", "missing values", "tie", "criterion", "stopping rule",
    "other",
)  # fmt: skip
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

    if isinstance(other, Pipeline):
        clf, front = other.steps[-1][1], other[:-1]
        encoded = front.transform(X)
        names = feature_names
        if names is None and hasattr(front, "get_feature_names_out"):
            names = front.get_feature_names_out()
    else:
        clf = other
        encoded, names = _encode(clf, X, feature_names, encoder)
    if not isinstance(clf, DecisionTreeClassifier) or not hasattr(clf, "tree_"):
        raise TypeError(
            "compare needs a fitted scikit-learn DecisionTreeClassifier (or a Pipeline ending "
            f"in one), got {type(clf).__name__}"
        )
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
        frame = pd.get_dummies(frame, dummy_na=any(n.endswith("_nan") for n in names))
        frame.columns = [str(c) for c in frame.columns]
    missing = [n for n in names if n not in frame.columns]
    if missing:
        raise ValueError(f"the classifier's columns {missing[:5]} are not in X nor its dummies")
    return frame[names].to_numpy(dtype=float), names


def map_columns(names: list[str], model) -> list[Column]:
    """Each of scikit-learn's columns as a numeric feature, an ordinal code of a categorical one,
    or one category's one-hot column (``Embarked_S``, ``cat__Embarked_S``)."""
    features = [str(f) for f in _feature_names(model)]
    categorical = _categorical_features(model)
    columns = []
    for name in names:
        plain = name.split("__", 1)[1] if "__" in name else name
        if plain in features:
            kind = "ordinal" if plain in categorical else "numeric"
            columns.append(Column(name, plain, kind))
            continue
        owner = max((f for f in features if plain.startswith(f + "_")), key=len, default=None)
        if owner is None:
            columns.append(Column(name, None, "numeric"))
            continue
        text = plain[len(owner) + 1 :]
        value = None if text == "nan" else _category(categorical.get(owner, []), text)
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
    for value in known:
        if str(value) == text:
            return value
    return text


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
    return entropy_rows(counts)


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
        self.n_matched = 0

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
            if t == u:
                return None, None
            return "threshold", self.threshold_why(node, s, t, u)
        return self.why_other_feature(node, s, column)

    def threshold_why(self, node, s, t, u) -> str:
        values = self.encoded[self.sk_rows[s], self.clf.tree_.feature[s]]
        values = values[~np.isnan(values)]
        lo, hi = values[values <= t].max(), values[values > t].min()
        lo32, hi32 = float(np.float32(lo)), float(np.float32(hi))
        return (
            f"both cut {node.feature} between {format_number(lo)} and {format_number(hi)} (the "
            f"same rows each side); ID3 at {t!r}, the midpoint of the values; scikit-learn at "
            f"{u!r}, the midpoint of the values cast to float32 ({lo32!r} and {hi32!r})"
        )

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

    def why_other_feature(self, node: Node, s: int, column: Column):
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

    def __init__(self, table: pd.DataFrame, n_matched: int, header: str):
        self.table, self.n_matched, self.header = table, n_matched, header

    @property
    def kinds(self) -> list[str]:
        return self.table["kind"].tolist()

    def __str__(self) -> str:
        lines = [self.header, f"Nodes that hold the same rows in both trees: {self.n_matched}."]
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
        return f"<p>{self.header}</p>" + self.table.to_html(index=False)


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
    clf, encoded, names = unwrap(other, X, feature_names, encoder)
    walk = _Walk(model, clf, encoded, names, X, y)
    walk.run()
    columns = ["node", "sklearn_node", "depth", "n_samples", "kind", "id3", "sklearn", "why"]
    table = pd.DataFrame(walk.departures, columns=columns)
    table = table.sort_values("node", kind="stable").reset_index(drop=True)  # ID3's pre-order
    header = (
        f"ID3 ({model.criterion}, multiway splits; {sum(1 for _ in model.root_.walk())} nodes) "
        f"against scikit-learn's DecisionTreeClassifier (criterion={clf.criterion!r}; "
        f"{clf.tree_.node_count} nodes)."
    )
    return Comparison(table, walk.n_matched, header)
