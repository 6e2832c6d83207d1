"""The small-data way of making a level's children against the general one.

On small data whose nodes all split on sorted features, the grower takes the children of a
level from the split search itself (the class counts of each chosen cut's sides) and regroups
the rows by a table of (node, branch), instead of sending every row down and counting the rows
of each child again (``sorted_columns.SIDES_AS_CHILDREN``). Both ways must give the same fit to the last
bit: the model file, the trace, the probabilities and the printed pages.
"""

from __future__ import annotations

import contextlib
import io

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import make_classification

from id3tree import ID3Classifier
from id3tree.engine import grow, sorted_columns
from id3tree.engine.stopping import stop_reasons
from tests.test_grow import everything, numeric_search, numeric_tables


def fit_both_ways(X, y, params=None, weight=None, verbose=0) -> dict:
    """Everything a fit shows, with the children taken from the search and counted again."""
    fits = {}
    for direct in (True, False):
        page = io.StringIO()
        with pytest.MonkeyPatch.context() as patch, contextlib.redirect_stdout(page):
            patch.setattr(sorted_columns, "SIDES_AS_CHILDREN", direct)
            model = ID3Classifier(verbose=verbose, **(params or {}))
            model.fit(X, y, sample_weight=weight)
        fits[direct] = (*everything(model, X), page.getvalue())
    return fits


@settings(deadline=None, max_examples=150)
@given(data=numeric_tables(), verbose=st.sampled_from([0, 0, 0, 1, 2]))
def test_children_from_the_search_grow_the_same_model(data, verbose):
    # ties, -0.0 next to 0.0, NaN, constant columns, min_samples_leaf, max_depth, gain ratio
    X, y, params, weight = data
    with numeric_search("layouts"):
        fits = fit_both_ways(X, y, params, weight, verbose)
    assert fits[True] == fits[False]


@pytest.mark.parametrize("n_classes", [2, 3, 5])
@pytest.mark.parametrize(
    "params",
    [
        {},
        {"min_samples_leaf": 5},
        {"max_depth": 3},
        {"criterion": "gain_ratio"},
        {"min_gain": 0.05},
    ],
)
def test_children_from_the_search_on_classroom_data(n_classes, params):
    X, y = make_classification(400, 6, n_informative=4, n_classes=n_classes, random_state=n_classes)
    X[:, 2] = np.round(X[:, 2])  # ties
    X[:, 3] = 1.5  # a constant column
    X[np.random.default_rng(n_classes).random(X.shape) < 0.03] = np.nan
    fits = fit_both_ways(X, y, params)
    assert fits[True] == fits[False]
    # and as large data grows it: the sorted features laid end to end, their rises in flags
    with numeric_search("sorted"):
        model = ID3Classifier(**params).fit(X, y)
    assert everything(model, X) == fits[True][:3]
    model = ID3Classifier(**params).fit(X, y)  # and the tree is a real one
    assert len(list(model.root_.walk())) > 5


def test_the_children_of_a_small_numeric_fit_come_from_the_search(monkeypatch):
    # the general way (branches, then a count by child) must not run at all
    def refuse(*args, **kwargs):
        raise AssertionError("the rows were sent down and counted again")

    monkeypatch.setattr(sorted_columns.SortedColumns, "branches", refuse)
    monkeypatch.setattr(grow, "_children", refuse)
    X, y = make_classification(300, 4, random_state=0)
    ID3Classifier().fit(X, y)
    with pytest.raises(AssertionError, match="counted again"):
        ID3Classifier().fit(pd.DataFrame({"a": X[:, 0], "c": np.where(y > 0, "u", "v")}), y)


def test_children_of_the_search_keep_the_class_counts_of_the_rows():
    # every child holds the rows its path selects: recount them from the data, node by node
    X, y = make_classification(500, 5, random_state=3)
    X[::11, 1] = np.nan
    model = ID3Classifier(min_samples_leaf=3).fit(X, y)
    root = model.root_
    stack = [(root, np.ones(len(y), dtype=bool))]
    seen = 0
    while stack:
        node, mask = stack.pop()
        seen += 1
        expected = {c: int(np.sum(y[mask] == c)) for c in node.class_counts}
        assert node.class_counts == expected
        if node.is_leaf:
            continue
        x = X[:, int(node.feature[1:]) if str(node.feature).startswith("x") else node.feature]
        for key, child in node.children.items():
            if key == "<=":
                part = x <= node.threshold
            elif key == ">":
                part = x > node.threshold
            else:
                part = np.isnan(x)
            stack.append((child, mask & part))
    assert seen == len(list(root.walk())) > 10


def plain_stop_reasons(counts, depth, params, n_rows=None) -> list:
    """The stopping rules node by node, in their order, a later rule naming the node instead."""
    min_leaf, split, min_weight = (
        params.min_samples_leaf,
        params.min_samples_split,
        params.min_weight_leaf,
    )
    reasons = []
    for i, node in enumerate(counts):
        total = sum(node.tolist())
        rows = total if n_rows is None else n_rows[i]
        why = None
        if min_weight > 0 and total < 2 * min_weight:
            why = (
                f"a weight of less than {2 * min_weight:g}, too little for two branches of "
                "min_weight_fraction_leaf"
            )
        if rows < 2 * min_leaf:
            why = (
                f"fewer than {2 * min_leaf} samples, too few for two branches of "
                f"min_samples_leaf = {min_leaf}"
            )
        if rows < split:
            why = f"fewer than min_samples_split = {split} samples"
        if depth >= params.max_depth:
            why = f"max_depth = {depth} reached"
        if sum(c > 0 for c in node.tolist()) <= 1:
            why = "pure, every sample is of one class"
        reasons.append(why)
    return reasons


@pytest.mark.parametrize("min_leaf", [1, 2, 3])
@pytest.mark.parametrize("min_split", [2, 5])
@pytest.mark.parametrize("weighted", [False, True])
def test_stop_reasons_are_the_rules_applied_one_by_one(min_leaf, min_split, weighted):
    """The level-wide stopping rules (one comparison for purity, a rule skipped when the next
    one names all its nodes) say what the rules applied node by node say; sums of weights
    are read cell by cell, so a tiny weight lost in the sum of a large one still counts."""
    rng = np.random.default_rng(min_leaf * 10 + min_split)
    counts = rng.integers(0, 4, size=(60, 3))
    counts[rng.random(60) < 0.3, 1:] = 0  # pure nodes
    n_rows = None
    if weighted:
        counts = counts * rng.choice([0.5, 1.0, 2.5], size=(60, 3))
        counts[0] = [1e20, 1.0, 0.0]  # the sum is the largest, yet two classes are present
        n_rows = rng.integers(1, 9, size=60)
    for depth, max_depth in ((1, np.inf), (3, 3)):
        params = grow.GrowParams(
            min_samples_leaf=min_leaf,
            min_samples_split=min_split,
            max_depth=max_depth,
            min_weight_leaf=1.5 if weighted else 0.0,
        )
        found = stop_reasons(counts, depth, params, n_rows)
        assert found.tolist() == plain_stop_reasons(counts, depth, params, n_rows)
        if weighted and depth < max_depth:
            assert found[0] != "pure, every sample is of one class"
