"""The decision-region plot: exact rectangles, split lines, points, and clear refusals."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.patches import Rectangle

from id3tree import ID3Classifier
from id3tree.datasets import load_iris, load_play_tennis
from id3tree.render.regions import leaf_rectangles

PETALS = ["petal_width", "petal_length"]


@pytest.fixture(scope="module")
def iris():
    return load_iris(return_X_y=True)


def test_rectangles_hold_exactly_the_rows_of_their_leaf(iris):
    X, y = iris
    model = ID3Classifier(max_depth=4).fit(X[PETALS], y)
    points = X[PETALS].to_numpy()
    box = (-10.0, 10.0, -10.0, 10.0)
    leaves, lines = leaf_rectangles(model.root_, PETALS, box)
    assert len(leaves) == model.get_n_leaves()
    assert len(lines) == sum(not n.is_leaf for n in model.root_.walk())
    stop = model.apply(X[PETALS])
    area = 0.0
    for node, (x0, x1, y0, y1) in leaves:
        inside = (points[:, 0] > x0) & (points[:, 0] <= x1) & (points[:, 1] > y0)
        inside &= points[:, 1] <= y1
        np.testing.assert_array_equal(inside, stop == node.node_id)
        assert inside.sum() == node.n_samples
        area += (x1 - x0) * (y1 - y0)
    assert area == pytest.approx(20.0 * 20.0)  # the leaves tile the box


def test_plot_draws_regions_lines_and_points(iris):
    X, y = iris
    model = ID3Classifier(max_depth=2).fit(X[PETALS], y)
    ax = model.plot_regions(X, y, annotate=True)
    rectangles = [p for p in ax.patches if isinstance(p, Rectangle)]
    assert len(rectangles) == model.get_n_leaves()
    assert ax.get_xlabel() == "petal_width" and ax.get_ylabel() == "petal_length"
    assert sum(len(c.get_offsets()) for c in ax.collections) == len(X)
    texts = [t.get_text() for t in ax.texts]
    assert "petal_width \u2264 0.8" in texts  # the root's line, labelled
    assert "(50, 0, 0)" in texts  # the setosa leaf's counts
    plt.close(ax.figure)


def test_features_can_be_swapped_and_arrays_work(iris):
    X, y = iris
    model = ID3Classifier(max_depth=2).fit(X[PETALS].to_numpy(), y)
    ax = model.plot_regions(X[PETALS].to_numpy(), y, features=["x1", "x0"])
    assert ax.get_xlabel() == "x1"
    plt.close(ax.figure)


def test_refusals_name_the_problem(iris):
    X, y = iris
    full = ID3Classifier().fit(X, y)
    with pytest.raises(ValueError, match="name the two"):
        full.plot_regions(X, y)
    with pytest.raises(ValueError, match="splits on the numeric feature"):
        full.plot_regions(X, y, features=["sepal_length", "sepal_width"])
    with pytest.raises(ValueError, match="not features of the model"):
        full.plot_regions(X, y, features=["petal_width", "colour"])
    Xt, yt = load_play_tennis(return_X_y=True)
    tennis = ID3Classifier().fit(Xt, yt)
    with pytest.raises(ValueError, match="categorical; a region plot needs two numeric"):
        tennis.plot_regions(Xt, yt, features=["Humidity", "Wind"])
    Xm = pd.DataFrame({"kind": ["a", "b"] * 20, "u": np.arange(40.0), "v": np.arange(40.0) % 7})
    ym = np.where((Xm["kind"] == "a") & (Xm["u"] > 10), "p", "q")
    mixed = ID3Classifier().fit(Xm, ym)
    with pytest.raises(ValueError, match="categorical feature 'kind'"):
        mixed.plot_regions(Xm, ym, features=["u", "v"])


def test_missing_values_are_left_out_of_the_picture():
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"a": rng.normal(size=80), "b": rng.normal(size=80)})
    y = np.where(X["a"] + X["b"] > 0, "p", "q")
    X.loc[[3, 7], "a"] = np.nan
    model = ID3Classifier(max_depth=3).fit(X, y)
    ax = model.plot_regions(X, y)
    assert sum(len(c.get_offsets()) for c in ax.collections) == 78
    plt.close(ax.figure)
