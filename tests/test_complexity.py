"""The overfitting picture: ``complexity_table`` and ``plot_complexity``.

References: every tree of the table is made again with ``tree.prune(...)`` and scored with
``score`` (the fast count along the path must equal them exactly), the weakest-link sequence is
scikit-learn's as ``cost_complexity_pruning_path`` returns it, the root's accuracy is the share
of its class counted with pandas, and the properties of pruning (leaves never increase along the
path, and neither does training accuracy).
"""

from __future__ import annotations

import matplotlib
import numpy as np
import pandas as pd
import pytest
from sklearn.exceptions import NotFittedError
from sklearn.model_selection import train_test_split

import id3tree
from id3tree import ID3Classifier, complexity_table, plot_complexity
from id3tree.datasets import load_car, load_titanic
from id3tree.engine.pruning import cost_complexity, cost_complexity_path, weakest_links

matplotlib.use("Agg")

COLUMNS = ["Pclass", "Sex", "Age", "SibSp", "Parch", "Fare", "Embarked"]


@pytest.fixture(scope="module")
def titanic():
    X, y = load_titanic(return_X_y=True)
    X_train, X_rest, y_train, y_rest = train_test_split(
        X[COLUMNS], y, test_size=0.4, random_state=1, stratify=y
    )
    X_val, X_test, y_val, y_test = train_test_split(X_rest, y_rest, test_size=0.5, random_state=1)
    tree = ID3Classifier().fit(X_train, y_train)
    sets = {"train": (X_train, y_train), "validation": (X_val, y_val), "test": (X_test, y_test)}
    return tree, sets


@pytest.fixture(scope="module")
def table(titanic):
    tree, sets = titanic
    return complexity_table(tree, *sets["train"], *sets["validation"], *sets["test"])


def _path(table):
    return table[table["tree"].isin(["full", "cost_complexity"])]


def test_every_tree_of_the_path_is_the_pruned_tree_scored_again(table, titanic):
    tree, sets = titanic
    path = _path(table)
    assert len(path) > 20
    first = path.iloc[0]
    assert first["tree"] == "full" and first["n_leaves"] == tree.get_n_leaves()
    for name, rows in sets.items():
        assert first[name] == tree.score(*rows)
    for _, row in path.iloc[1:].iterrows():  # every tree (a few dozen), each pruned again
        pruned = tree.prune("cost_complexity", ccp_alpha=row["alpha"])
        assert row["n_leaves"] == pruned.get_n_leaves()
        for name, rows in sets.items():
            assert row[name] == pruned.score(*rows), (row["alpha"], name)


def test_each_alpha_is_the_smallest_that_gives_its_tree(table, titanic):
    tree, _ = titanic
    path = _path(table)
    for before, row in zip(path.iloc[:-1].itertuples(), path.iloc[1:].itertuples()):
        below = tree.prune("cost_complexity", ccp_alpha=float(np.nextafter(row.alpha, 0)))
        assert below.get_n_leaves() == before.n_leaves


def test_the_alphas_are_those_of_scikit_learns_path(table, titanic):
    tree, sets = titanic
    alphas = tree.cost_complexity_pruning_path(*sets["train"]).ccp_alphas
    assert set(_path(table)["alpha"].iloc[1:]) <= set(alphas[1:])
    assert _path(table)["alpha"].iloc[-1] == alphas[-1]


def test_leaves_and_training_accuracy_never_increase_along_the_path(table):
    path = _path(table)
    assert (np.diff(path["n_leaves"]) < 0).all()  # one row per distinct tree
    assert (np.diff(path["train"]) <= 0).all()
    assert (np.diff(path["alpha"]) > 0).all()


def test_the_path_ends_at_the_root_with_the_majority_class(table, titanic):
    _, sets = titanic
    root = _path(table).iloc[-1]
    assert root["n_leaves"] == 1
    majority = sets["train"][1].value_counts().idxmax()
    for name, (_, y) in sets.items():
        assert root[name] == (pd.Series(y) == majority).mean()


def test_the_marked_trees_are_reduced_error_and_pessimistic_pruning(titanic):
    tree, sets = titanic
    table = complexity_table(tree, *sets["train"], *sets["validation"], confidence=0.1)
    assert list(table.columns) == ["tree", "alpha", "n_leaves", "train", "validation"]
    assert list(table["tree"].iloc[-2:]) == ["reduced_error", "pessimistic"]
    assert table["alpha"].iloc[-2:].isna().all()
    made = {
        "reduced_error": tree.prune("reduced_error", *sets["validation"]),
        "pessimistic": tree.prune("pessimistic", confidence=0.1),
    }
    for kind, pruned in made.items():
        row = table[table["tree"] == kind].iloc[0]
        assert row["n_leaves"] == pruned.get_n_leaves()
        assert row["train"] == pruned.score(*sets["train"])
        assert row["validation"] == pruned.score(*sets["validation"])


def test_rows_that_stop_early_and_classes_never_seen():
    """Rows with a category the tree never saw stop at an inner node (its majority is their
    prediction), and a test row of a class the tree never saw is never right: the counts along
    the path still equal the pruned trees' own scores. Reduced-error pruning refuses validation
    rows of an unseen class, naming them."""
    X, y = load_car(return_X_y=True)
    order = np.random.default_rng(0).permutation(len(y))  # (the file is sorted by class)
    X, y = X.iloc[order].reset_index(drop=True), y.iloc[order].reset_index(drop=True)
    X_train, y_train = X.iloc[::3], y.iloc[::3]
    tree = ID3Classifier().fit(X_train, y_train)
    X_val, y_val = X.iloc[1::3].copy(), y.iloc[1::3]
    X_test, y_test = X.iloc[2::3].copy(), y.iloc[2::3].astype(object).copy()
    X_val.iloc[:40, 0] = X_test.iloc[:40, 0] = "unheard of"
    y_test.iloc[40:45] = "a class never seen"
    with pytest.warns(UserWarning, match="a class never seen"):
        table = complexity_table(tree, X_train, y_train, X_val, y_val, X_test, y_test)
    assert (tree.apply(X_val.iloc[:40]) != tree.apply(X.iloc[1::3].iloc[:40])).any()
    for _, row in _path(table).iloc[1::3].iterrows():
        pruned = tree.prune("cost_complexity", ccp_alpha=row["alpha"])
        assert row["validation"] == pruned.score(X_val, y_val)
        with pytest.warns(UserWarning, match="a class never seen"):
            assert row["test"] == pruned.score(X_test, y_test)
        assert row["n_leaves"] == pruned.get_n_leaves()
    with pytest.raises(ValueError, match="y_val holds classes the tree was not fitted on"):
        complexity_table(tree, X_train, y_train, X_test, y_test)


@pytest.mark.parametrize("seed", range(6))
def test_generated_trees_of_many_shapes(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(40, 200))
    X = pd.DataFrame({
        "a": rng.normal(size=n).round(1),
        "b": rng.choice(list("xyz"), size=n),
        "c": rng.integers(0, 4, size=n).astype(float),
    })  # fmt: skip
    y = np.where(X["a"] + rng.normal(scale=1.0, size=n) > 0, "yes", "no")
    if seed % 2:
        y[rng.random(n) < 0.2] = "maybe"
    tree = ID3Classifier(min_samples_leaf=int(rng.integers(1, 4))).fit(X[: n // 2], y[: n // 2])
    table = complexity_table(tree, X[: n // 2], y[: n // 2], X[n // 2 :], list(y[n // 2 :]))
    for _, row in _path(table).iloc[1:].iterrows():
        pruned = tree.prune("cost_complexity", ccp_alpha=row["alpha"])
        assert row["n_leaves"] == pruned.get_n_leaves()
        assert row["train"] == pruned.score(X[: n // 2], y[: n // 2])
        assert row["validation"] == pruned.score(X[n // 2 :], y[n // 2 :])


def test_weakest_links_are_the_cuts_of_the_path_and_of_pruning():
    X, y = load_car(return_X_y=True)
    root = ID3Classifier().fit(X, y).root_
    cuts = list(weakest_links(root))
    alphas, _ = cost_complexity_path(root)
    assert [g for _, g, _ in cuts] == alphas[1:].tolist()
    assert cuts[-1][2] == 1 and cuts[-1][0] is root
    leaves = [n for _, _, n in cuts]
    assert leaves == sorted(leaves, reverse=True)
    k = len(cuts) // 2
    decisions = cost_complexity(root, cuts[k][1]).decisions
    pruned = decisions[decisions["decision"] == "pruned"]["node"].tolist()
    assert pruned[: k + 1] == [node.node_id for node, _, _ in cuts[: k + 1]]
    assert sum(1 for _ in root.walk()) == sum(1 for _ in ID3Classifier().fit(X, y).root_.walk())


# -------------------------------------------------------------------------------------------------
# the picture
# -------------------------------------------------------------------------------------------------
def test_the_picture_draws_the_table(table, titanic):
    tree, sets = titanic
    ax = plot_complexity(tree, *sets["train"], *sets["validation"], *sets["test"])
    path = _path(table).sort_values("n_leaves")
    lines = {line.get_label(): line for line in ax.get_lines()}
    for name, label in [("train", "training rows"), ("validation", "validation rows"),
                        ("test", "test rows")]:  # fmt: skip
        assert lines[label].get_xdata().tolist() == path["n_leaves"].tolist()
        assert lines[label].get_ydata().tolist() == path[name].tolist()
    legend = [text.get_text() for text in ax.get_legend().get_texts()]
    for kind, words in [("full", "fully grown"), ("reduced_error", "reduced-error pruned"),
                        ("pessimistic", "pessimistic pruned")]:  # fmt: skip
        leaves = int(table[table["tree"] == kind]["n_leaves"].iloc[0])
        assert f"{words}: {leaves} leaves" in legend
        marked = [line for line in ax.get_lines() if line.get_xdata().tolist() == [leaves]]
        drawn = sorted(float(line.get_ydata()[0]) for line in marked)
        row = table[table["tree"] == kind].iloc[0]
        assert drawn == sorted(row[["train", "validation", "test"]].astype(float).tolist())
    assert ax.get_xscale() == "log"  # from 1 leaf to over a hundred
    assert ax.xaxis.label.get_text() == "number of leaves (log scale)"
    assert ax.yaxis.label.get_text() == "accuracy"
    assert ax.xaxis.label.get_fontsize() >= 14 and ax.title.get_fontsize() >= 14
    matplotlib.pyplot.close(ax.figure)


def test_the_method_and_the_front_door_draw_the_same(titanic):
    tree, sets = titanic
    import matplotlib.pyplot as plt

    _, (left, right) = plt.subplots(1, 2)
    assert tree.plot_complexity(*sets["train"], *sets["validation"], ax=left) is left
    plot_complexity(tree, *sets["train"], *sets["validation"], ax=right, title="Titanic")
    assert [line.get_ydata().tolist() for line in left.get_lines()] == [
        line.get_ydata().tolist() for line in right.get_lines()
    ]
    assert right.get_title() == "Titanic"
    assert "plot_complexity" in id3tree.__all__ and "complexity_table" in id3tree.__all__
    plt.close("all")


def test_a_small_tree_keeps_a_linear_axis():
    X = pd.DataFrame({"x": [1, 2, 3, 4, 5, 6, 7, 8]})
    y = ["a", "a", "b", "b", "a", "a", "b", "b"]
    tree = ID3Classifier().fit(X, y)
    ax = plot_complexity(tree, X, y, X, y)
    assert ax.get_xscale() == "linear" and tree.get_n_leaves() == 4
    matplotlib.pyplot.close(ax.figure)


# -------------------------------------------------------------------------------------------------
# bad input
# -------------------------------------------------------------------------------------------------
def test_bad_input_gets_clear_errors(titanic):
    tree, sets = titanic
    (X_train, y_train), (X_val, y_val) = sets["train"], sets["validation"]
    with pytest.raises(ValueError, match=r"X_val has \d+ rows but y_val has 3 labels"):
        complexity_table(tree, X_train, y_train, X_val, y_val[:3])
    with pytest.raises(ValueError, match="X_train .* y_train"):
        complexity_table(tree, X_train, y_train[:-1], X_val, y_val)
    with pytest.raises(ValueError, match="X_test and y_test go together"):
        complexity_table(tree, X_train, y_train, X_val, y_val, X_val)
    with pytest.raises(ValueError, match="X_val has no rows"):
        complexity_table(tree, X_train, y_train, X_val[:0], y_val[:0])
    with pytest.raises(NotFittedError):
        complexity_table(ID3Classifier(), X_train, y_train, X_val, y_val)
