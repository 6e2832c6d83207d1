"""The overfitting picture: accuracy against the size of the tree, along the pruning path.

The textbook figure beside every chapter on trees (Mitchell 1997, figure 3.6; Hastie, Tibshirani
and Friedman 2009, figure 9.4): as a tree grows, its accuracy on the rows it was grown from
keeps rising, while on new rows it rises, levels off and falls. Here the sizes are the trees of
minimal cost-complexity pruning (CART's weakest-link sequence, see
:mod:`id3tree.engine.pruning`), from the tree as grown down to its root; the trees of
reduced-error and pessimistic pruning are marked on the same axes.

:func:`complexity_table` computes the numbers and :func:`plot_complexity` draws them. The
accuracies along the path are counted once per cut from the nodes where each row stops in the
grown tree (a cut node's rows all take its majority class); the test suite checks them against
``tree.prune("cost_complexity", ccp_alpha=alpha).score(X, y)``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from id3tree.base.language import N_, current, speaking
from id3tree.engine.pruning import weakest_links
from id3tree.model.node import Node

__all__ = ["complexity_table", "plot_complexity"]

SETS = ("train", "validation", "test")
"""The accuracy columns of :func:`complexity_table`, in order (``test`` only with test rows)."""

_LOOK = {  # set -> (colour, line style, line marker); Okabe-Ito colours, safe for colour blindness
    "train": ("#0072B2", "-", "."),
    "validation": ("#E69F00", "--", "."),
    "test": ("#009E73", "-.", "."),
}
_ROWS = {"train": N_("training rows"), "validation": N_("validation rows"), "test": N_("test rows")}
_MARKS = {  # kind of tree -> (marker, size, label, its name on the axes)
    "full": ("o", 11, N_("fully grown"), N_("full tree")),
    "reduced_error": ("*", 17, N_("reduced-error pruned"), N_("reduced error")),
    "pessimistic": ("D", 10, N_("pessimistic pruned"), N_("pessimistic")),
}
_FONT = 15  # points: read from the back of a lecture room


def _rows_of(name: str, X: Any, y: Any) -> tuple[Any, np.ndarray]:
    """A set's X and its labels as an array, after checking that they pair up."""
    if X is None or y is None:
        raise ValueError(f"X_{name} and y_{name} go together: give both or neither")
    labels = np.asarray(y, dtype=object) if not hasattr(y, "to_numpy") else y.to_numpy()
    if labels.ndim != 1:
        raise ValueError(f"y_{name} must be one column of labels, got shape {labels.shape}")
    if len(X) != len(labels):
        raise ValueError(f"X_{name} has {len(X)} rows but y_{name} has {len(labels)} labels")
    if len(labels) == 0:
        raise ValueError(f"X_{name} has no rows: an accuracy needs at least one")
    return X, labels


def _stop_counts(tree: Any, position: dict[int, int], X: Any, labels: np.ndarray) -> np.ndarray:
    """``counts[i, k]``: the rows of class ``k`` that stop at the node in position ``i`` of the
    grown tree's pre-order walk (a class the tree never saw is never predicted: not counted)."""
    stop = np.array([position[node_id] for node_id in tree.apply(X).tolist()], dtype=np.int64)
    codes = pd.Index(tree.classes_).get_indexer(labels)
    seen = codes >= 0
    counts = np.zeros((len(position), len(tree.classes_)), dtype=np.int64)
    np.add.at(counts, (stop[seen], codes[seen]), 1)
    return counts


def _subtree_ends(nodes: list[Node]) -> np.ndarray:
    """For the node in position ``i`` of a pre-order walk, the end of its subtree: its
    descendants are the positions ``i + 1`` up to (not including) ``end[i]``."""
    size = np.ones(len(nodes), dtype=np.int64)
    position = {id(node): i for i, node in enumerate(nodes)}
    for i in range(len(nodes) - 1, -1, -1):
        size[i] += sum(size[position[id(c)]] for c in nodes[i].children.values())
    return np.arange(len(nodes)) + size


def _path_rows(tree: Any, sets: dict[str, tuple[Any, np.ndarray]]) -> list[dict[str, Any]]:
    """The rows of the grown tree and of the path: cut by cut, the rows that stopped below a cut
    node take its majority class, and the accuracies are counted again at the tree that
    ``prune("cost_complexity", ccp_alpha)`` gives for each alpha of the path."""
    nodes = list(tree.root_.walk())
    position = {node.node_id: i for i, node in enumerate(nodes)}
    counts = {name: _stop_counts(tree, position, *rows) for name, rows in sets.items()}
    index = {c: k for k, c in enumerate(tree.classes_.tolist())}
    predicted = np.array([index[node.prediction] for node in nodes], dtype=np.int64)
    ends, at = _subtree_ends(nodes), {id(node): i for i, node in enumerate(nodes)}
    owner = np.arange(len(nodes))  # the node whose majority a row stopping here is given

    def accuracies() -> dict[str, float]:
        return {
            name: int(c[np.arange(len(nodes)), predicted[owner]].sum()) / len(sets[name][1])
            for name, c in counts.items()
        }

    rows = [{"tree": "full", "alpha": 0.0, "n_leaves": tree.get_n_leaves(), **accuracies()}]
    cuts = list(weakest_links(tree.root_))
    highest = -math.inf
    for k, (node, g, n_leaves) in enumerate(cuts):
        i = at[id(node)]
        owner[i : ends[i]] = i
        highest = max(highest, g)
        if k + 1 == len(cuts) or cuts[k + 1][1] > highest:  # prune(highest) stops at this cut
            rows.append({"tree": "cost_complexity", "alpha": highest, "n_leaves": n_leaves})
            rows[-1].update(accuracies())
    return rows


def complexity_table(
    tree: Any, X_train: Any, y_train: Any, X_val: Any, y_val: Any, X_test: Any = None,
    y_test: Any = None, *, confidence: float = 0.25,
) -> pd.DataFrame:  # fmt: skip
    """The numbers of the overfitting picture: accuracy on each set for every tree of the
    cost-complexity pruning path, and for the reduced-error and pessimistic pruned trees.

    Parameters
    ----------
    tree : ID3Classifier
        A fitted tree, usually grown on ``X_train, y_train`` without any pruning.
    X_train, y_train : array-like
        The rows the tree was grown from.
    X_val, y_val : array-like
        Held-out rows: reduced-error pruning prunes against them.
    X_test, y_test : array-like, optional
        Rows kept aside until the end; a ``test`` column when given.
    confidence : float, default=0.25
        The confidence factor of pessimistic pruning.

    Returns
    -------
    DataFrame
        One row per tree: ``tree`` (``"full"`` for the tree as given, ``"cost_complexity"`` for
        the trees of the path, then ``"reduced_error"`` and ``"pessimistic"``), ``alpha`` (the
        smallest ``ccp_alpha`` for which ``tree.prune("cost_complexity", ccp_alpha=alpha)`` gives
        that tree; NaN for the last two), ``n_leaves``, and the accuracies ``train``,
        ``validation`` and (with test rows) ``test``. The path's rows go from the full tree to
        the root, so ``n_leaves`` never increases down them.

    Examples
    --------
    >>> from id3tree import ID3Classifier, complexity_table
    >>> from id3tree.datasets import load_titanic
    >>> X, y = load_titanic(return_X_y=True)
    >>> X = X[["Pclass", "Sex", "Age", "SibSp", "Parch", "Fare", "Embarked"]]
    >>> tree = ID3Classifier().fit(X[:500], y[:500])
    >>> table = complexity_table(tree, X[:500], y[:500], X[500:], y[500:])
    >>> table.query("tree != 'cost_complexity'").round(3)
                 tree  alpha  n_leaves  train  validation
    0            full    0.0       114  0.988       0.770
    48  reduced_error    NaN        24  0.880       0.847
    49    pessimistic    NaN        33  0.908       0.836
    """
    from sklearn.utils.validation import check_is_fitted

    check_is_fitted(tree, "_tree")
    sets = {
        "train": _rows_of("train", X_train, y_train),
        "validation": _rows_of("val", X_val, y_val),
    }
    if X_test is not None or y_test is not None:
        sets["test"] = _rows_of("test", X_test, y_test)
    table = _path_rows(tree, sets)
    for method, options in [("reduced_error", (X_val, y_val)), ("pessimistic", ())]:
        extra = {"confidence": confidence} if method == "pessimistic" else {}
        pruned = tree.prune(method, *options, **extra)
        scores = {name: pruned.score(*rows) for name, rows in sets.items()}
        table.append(dict(tree=method, alpha=math.nan, n_leaves=pruned.get_n_leaves(), **scores))
    return pd.DataFrame(table, columns=["tree", "alpha", "n_leaves", *sets])


def plot_complexity(
    tree: Any, X_train: Any, y_train: Any, X_val: Any, y_val: Any, X_test: Any = None,
    y_test: Any = None, *, ax: Any = None, confidence: float = 0.25, title: str | None = None,
) -> Any:  # fmt: skip
    """Draw the overfitting picture: accuracy on each set against the number of leaves.

    One line per set (training, validation and, if given, test rows) through the trees of the
    minimal cost-complexity pruning path, from the root alone to the tree as grown; the fully
    grown, reduced-error pruned and pessimistic pruned trees are marked on every line and
    labelled with their number of leaves. The axis of leaves is logarithmic when the sizes span
    more than a decade. The fonts are large enough for a slide.

    Parameters and numbers as in :func:`complexity_table` (the picture draws exactly its rows);
    ``ax`` is where to draw (by default a new figure of 10 by 6 inches), ``title`` replaces the
    default title. The words and the accuracies' decimal mark are in the tree's ``language``
    (English for a tree without one).

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.figure.savefig("overfitting.png")`` writes it to a file. It needs no display
        (matplotlib's Agg backend draws it).
    """
    import matplotlib.pyplot as plt  # only here: importing id3tree must not need a backend

    table = complexity_table(
        tree, X_train, y_train, X_val, y_val, X_test, y_test, confidence=confidence
    )
    if ax is None:
        _, ax = plt.subplots(figsize=(10, 6), layout="constrained")
    with speaking(getattr(tree, "language", None)):
        _draw(ax, table, title)
    return ax


def _draw(ax: Any, table: pd.DataFrame, title: str | None) -> None:
    """The picture of :func:`plot_complexity` on ``ax``, in the language around it."""
    L = current()
    path = table[table["tree"].isin(["full", "cost_complexity"])].sort_values("n_leaves")
    sets = [name for name in SETS if name in table.columns]
    for name in sets:
        colour, style, marker = _LOOK[name]
        label = L.gettext(_ROWS[name])
        ax.plot(path["n_leaves"], path[name], color=colour, ls=style, marker=marker, lw=2.2,
                ms=5, label=label)  # fmt: skip
    _mark(ax, table, sets)
    leaves = table["n_leaves"]
    if leaves.max() >= 10 * leaves.min():
        ax.set_xscale("log")
    scale = " " + L.gettext("(log scale)") if ax.get_xscale() == "log" else ""
    ax.set_xlabel(L.gettext("number of leaves") + scale, fontsize=_FONT)
    ax.set_ylabel(L.gettext("accuracy"), fontsize=_FONT)
    ax.set_title(title or L.gettext("Accuracy against the size of the tree"), fontsize=_FONT + 2)
    if L.decimal != ".":
        ax.yaxis.set_major_formatter(_decimal_ticks(L.decimal))
    ax.tick_params(labelsize=_FONT - 2)
    ax.grid(True, which="major", alpha=0.3)
    ax.margins(y=0.08)  # room for the names above the markers
    ax.legend(fontsize=_FONT - 3, loc="best", framealpha=0.9)


def _decimal_ticks(mark: str) -> Any:
    """matplotlib's usual tick labels (``0.75``) with the decimal mark ``mark`` (``0,75``)."""
    from matplotlib.ticker import ScalarFormatter

    class Decimal(ScalarFormatter):
        def __call__(self, x: float, pos: int | None = None) -> str:
            return super().__call__(x, pos).replace(".", mark)

    return Decimal()


def _mark(ax: Any, table: pd.DataFrame, sets: list[str]) -> None:
    """The full, reduced-error and pessimistic trees: a marker on every set's line, one legend
    entry per kind of tree with its leaves, and its name above its highest marker (the smaller
    pruned tree's to the left, the other's to the right, so that the two do not overlap)."""
    L = current()
    rows = {kind: table[table["tree"] == kind].iloc[0] for kind in _MARKS}
    smaller = min(["reduced_error", "pessimistic"], key=lambda kind: rows[kind]["n_leaves"])
    for kind, (marker, size, label, name_on_axes) in _MARKS.items():
        row = rows[kind]
        for name in sets:
            ax.plot([row["n_leaves"]], [row[name]], ls="none", marker=marker, ms=size,
                    color=_LOOK[name][0], mec="black", mew=1.2, zorder=3)  # fmt: skip
        leaves = int(row["n_leaves"])
        ax.plot([], [], ls="none", marker=marker, ms=size, color="white", mec="black", mew=1.2,
                label=f"{L.gettext(label)}: {leaves} {L.words([leaves], 'leaf', 'leaves')[0]}")  # fmt: skip
        left = kind in ("full", smaller)
        ax.annotate(
            L.gettext(name_on_axes), (row["n_leaves"], max(row[name] for name in sets)),
            xytext=(-8 if left else 8, 10), textcoords="offset points",
            ha="right" if left else "left", fontsize=_FONT - 3,
        )  # fmt: skip
