"""How stable is a split: ``stability`` against a plain loop of fresh fits, and its properties.

The reference redraws every node's resamples by the documented rule (``SeedSequence(random_state,
spawn_key=(node_id,))``) and fits a fresh one-level ``ID3Classifier`` on each resample of the
node's rows (the categorical features used above the node left out), so that every share and
interval is counted again without the batched search of :mod:`id3tree.teaching.stability`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.exceptions import NotFittedError

from id3tree import ID3Classifier
from id3tree.datasets import load_iris, load_play_tennis
from id3tree.teaching import Stability, stability

B = 20  # resamples: the reference fits B trees per node


def _reference(tree, X, y, n_bootstrap, seed, confidence=0.95, weight=None):
    """Per split node: the shares and the gain interval, by a fresh fit on every resample."""
    nodes = list(tree.root_.walk())
    stop = tree.apply(X)
    y = np.asarray(y)
    # (class weights come in ``weight``: a resample may lack a class that class_weight names)
    settings = tree.get_params() | {"max_depth": 1, "verbose": 0, "id_like": "keep"}
    settings["class_weight"] = None
    out = {}
    for node in nodes:
        if node.is_leaf:
            continue
        below = {n.node_id for n in node.walk()}
        rows = np.flatnonzero(np.isin(stop, list(below)))
        used = _used_above(tree.root_, node)
        columns = [c for c in X.columns if c not in used]
        draw = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(node.node_id,)))
        picks = draw.integers(0, len(rows), size=(n_bootstrap, len(rows)))
        values = X[node.feature].to_numpy()[rows] if node.is_numeric_split else None
        if values is not None:
            low = values[values <= node.threshold].max()
            high = values[values > node.threshold].min()
        winners, same_gap, gains = [], 0, []
        for pick in picks:
            Xb, yb = X.iloc[rows[pick]][columns].reset_index(drop=True), y[rows[pick]]
            wb = None if weight is None else weight[rows[pick]]
            root = ID3Classifier(**settings).fit(Xb, yb, wb).root_
            winners.append(root.feature)
            if root.feature == node.feature and (values is None or low <= root.threshold < high):
                same_gap += 1
            alone = ID3Classifier(**settings).fit(Xb[[node.feature]], yb, wb).root_
            if alone.feature is not None:
                gains.append(alone.gain)
        others = pd.Series([w for w in winners if w not in (None, node.feature)], dtype=object)
        tail = (1 - confidence) / 2 * 100
        out[node.node_id] = {
            "same_feature": winners.count(node.feature) / n_bootstrap,
            "same_gap": same_gap / n_bootstrap,
            "no_split": winners.count(None) / n_bootstrap,
            "runner_up_share": others.value_counts().max() / n_bootstrap if len(others) else 0.0,
            "gain_low": np.percentile(gains, tail),
            "gain_high": np.percentile(gains, 100 - tail),
        }
    return out


def _used_above(root, target):
    """The categorical features split on above ``target``."""
    parent = {child.node_id: node for node, _, child in root.iter_edges()}
    used, at = set(), target.node_id
    while at in parent:
        at_node = parent[at]
        if not at_node.is_numeric_split:
            used.add(at_node.feature)
        at = at_node.node_id
    return used


def _iris_small():
    X, y = load_iris(return_X_y=True)
    keep = np.random.default_rng(3).choice(len(y), 60, replace=False)
    return X.iloc[keep].reset_index(drop=True), y.iloc[keep].reset_index(drop=True)


@pytest.mark.parametrize("settings", [{}, {"criterion": "gain_ratio", "min_samples_leaf": 2}])
def test_the_shares_and_the_interval_are_a_loop_of_fresh_fits(settings):
    X, y = _iris_small()
    tree = ID3Classifier(max_depth=3, **settings).fit(X, y)
    got = stability(tree, X, y, n_bootstrap=B, random_state=7).to_frame().set_index("node")
    expected = _reference(tree, X, y, B, 7)
    assert set(got.index) == set(expected) and len(expected) >= 3
    for node, want in expected.items():
        for column, value in want.items():
            assert got.loc[node, column] == pytest.approx(value, abs=1e-12), (node, column)


def test_weighted_rows_keep_their_weights():
    X, y = _iris_small()
    weight = np.random.default_rng(1).integers(1, 4, len(y)).astype(float)
    classes = {"setosa": 1.0, "versicolor": 2.0, "virginica": 1.5}
    tree = ID3Classifier(max_depth=2, class_weight=classes).fit(X, y, weight)
    got = stability(tree, X, y, n_bootstrap=B, random_state=5, sample_weight=weight)
    got = got.to_frame().set_index("node")
    expected = _reference(tree, X, y, B, 5, weight=weight * y.map(classes).to_numpy())
    for node, want in expected.items():
        for column, value in want.items():
            assert got.loc[node, column] == pytest.approx(value, abs=1e-9), (node, column)


def test_used_categorical_features_compete_no_more():
    X, y = load_play_tennis(return_X_y=True)
    tree = ID3Classifier().fit(X, y)
    got = stability(tree, X, y, n_bootstrap=B, random_state=2).to_frame().set_index("node")
    expected = _reference(tree, X, y, B, 2)
    for node, want in expected.items():
        for column in ("same_feature", "same_gap", "no_split", "runner_up_share"):
            assert got.loc[node, column] == pytest.approx(want[column]), (node, column)
    assert (got["same_gap"] == got["same_feature"]).all()  # (categorical splits: no threshold)


def test_the_gain_on_the_nodes_own_rows_is_the_trees():
    X, y = load_iris(return_X_y=True)
    tree = ID3Classifier().fit(X, y)
    frame = tree.stability(X, y, n_bootstrap=5).to_frame()
    gains = {node.node_id: node.gain for node in tree.root_.walk() if not node.is_leaf}
    assert frame["gain"].tolist() == pytest.approx([gains[n] for n in frame["node"]], abs=1e-12)
    assert frame["n_rows"].tolist() == [
        node.n_samples for node in tree.root_.walk() if not node.is_leaf
    ]


def test_shares_are_shares_and_the_gap_is_stricter_than_the_feature():
    X, y = load_iris(return_X_y=True)
    s = ID3Classifier().fit(X, y).stability(X, y, n_bootstrap=40, random_state=1)
    f = s.to_frame()
    for column in ("same_feature", "same_gap", "runner_up_share", "no_split"):
        assert f[column].between(0, 1).all(), column
    assert (f["same_gap"] <= f["same_feature"]).all()
    assert (f["same_feature"] + f["runner_up_share"] + f["no_split"] <= 1 + 1e-12).all()
    assert (f["gain_low"] <= f["gain_high"]).all()
    assert (f["shaky"] == (f["same_feature"] < 0.7)).all()
    assert s.marks() == {
        int(n): (float(v), bool(k)) for n, v, k in zip(f["node"], f["same_feature"], f["shaky"])
    }
    assert isinstance(s, Stability) and len(s) == len(f)
    assert "shaky" in repr(s) and "<table" in s._repr_html_()


def test_a_split_forced_by_one_separating_feature_is_stable():
    rng = np.random.default_rng(0)
    y = np.repeat(["a", "b"], 30)
    X = pd.DataFrame({"x": np.repeat([0.0, 1.0], 30), "noise": rng.normal(size=60)})
    tree = ID3Classifier(max_depth=1).fit(X, y)
    row = stability(tree, X, y, n_bootstrap=100).to_frame().iloc[0]
    assert row["feature"] == "x"
    assert row["same_feature"] == row["same_gap"] == 1.0
    assert row["no_split"] == 0.0 and row["runner_up"] is None and not row["shaky"]
    assert row["gain"] == 1.0  # (each resample's gain is its own class entropy, below 1)
    assert 0.9 < row["gain_low"] <= row["gain_high"] <= 1.0


def test_same_seed_same_result_other_data_other_result():
    X, y = load_iris(return_X_y=True)
    tree = ID3Classifier(max_depth=3).fit(X, y)
    first = stability(tree, X, y, n_bootstrap=30, random_state=4).to_frame()
    again = stability(tree, X, y, n_bootstrap=30, random_state=4).to_frame()
    pd.testing.assert_frame_equal(first, again)
    rows = np.random.default_rng(5).choice(len(y), len(y))  # another sample of the rows
    other = stability(tree, X.iloc[rows], y.iloc[rows], n_bootstrap=30, random_state=4)
    assert not other.to_frame()[first.columns[3:]].equals(first[first.columns[3:]])


def test_max_depth_keeps_the_top_and_its_numbers():
    X, y = load_iris(return_X_y=True)
    tree = ID3Classifier().fit(X, y)
    full = stability(tree, X, y, n_bootstrap=20).to_frame()
    top = stability(tree, X, y, n_bootstrap=20, max_depth=2).to_frame()
    assert (top["depth"] < 2).all() and len(top) < len(full)
    pd.testing.assert_frame_equal(top, full[full["depth"] < 2].reset_index(drop=True))


def test_missing_values_go_where_the_tree_sends_them():
    X, y = _iris_small()
    X = X.copy()
    X.loc[::7, "petal_width"] = np.nan
    tree = ID3Classifier(max_depth=2).fit(X, y)
    got = stability(tree, X, y, n_bootstrap=B, random_state=3).to_frame().set_index("node")
    expected = _reference(tree, X, y, B, 3)
    for node, want in expected.items():
        assert got.loc[node, "same_feature"] == want["same_feature"]
        assert got.loc[node, "no_split"] == want["no_split"]


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"n_bootstrap": 0}, "n_bootstrap must be an integer >= 1"),
        ({"n_bootstrap": 2.5}, "n_bootstrap"),
        ({"random_state": -1}, "random_state"),
        ({"max_depth": -1}, "max_depth"),
        ({"confidence": 1.0}, "confidence"),
        ({"shaky_below": 2}, "shaky_below"),
    ],
)
def test_bad_options_are_named(options, match):
    X, y = load_play_tennis(return_X_y=True)
    tree = ID3Classifier().fit(X, y)
    with pytest.raises(ValueError, match=match):
        stability(tree, X, y, **options)


def test_bad_data_and_unfitted_trees_get_clear_errors():
    X, y = load_play_tennis(return_X_y=True)
    with pytest.raises(NotFittedError, match="fitted"):
        stability(ID3Classifier(), X, y)
    tree = ID3Classifier().fit(X, y)
    with pytest.raises(ValueError, match="Wind"):
        stability(tree, X.drop(columns="Wind"), y)
    with pytest.raises(ValueError, match="rows|labels|length"):
        stability(tree, X, y[:-1])
    with pytest.raises(ValueError, match="weight 0"):
        stability(tree, X, y, sample_weight=np.r_[0.0, np.ones(len(y) - 1)])
    dropped = ID3Classifier(id_like="drop").fit(X, y)
    with pytest.raises(ValueError, match="id_like='drop'"):
        stability(dropped, X, y)
    numeric = X.assign(Humidity=np.arange(len(X), dtype=float))
    with pytest.raises(ValueError, match="'Humidity'"):
        stability(tree, numeric, y)


@pytest.fixture(scope="module")
def iris_marks():
    X, y = load_iris(return_X_y=True)
    tree = ID3Classifier(max_depth=3).fit(X, y)
    return tree, tree.stability(X, y, n_bootstrap=40), X, y


def test_to_text_marks_every_measured_split(iris_marks):
    tree, s, _, _ = iris_marks
    plain, marked = tree.to_text().splitlines(), tree.to_text(stability=s).splitlines()
    marks, nodes = s.marks(), list(tree.root_.walk())
    assert len(plain) == len(marked) == len(nodes)
    for node, before, after in zip(nodes, plain, marked):  # (one line per node, in pre-order)
        if node.node_id not in marks:
            assert after == before
            continue
        share, shaky = marks[node.node_id]
        tail = f"[(!) shaky: same feature {share:.0%}]" if shaky else f"[same feature {share:.0%}]"
        assert after == f"{before} {tail}"
    assert any("(!) shaky" in line for line in marked)
    german = ID3Classifier(max_depth=3, language="de").fit(*load_iris(return_X_y=True))
    assert "gleiches Merkmal" in german.to_text(stability=s)


def test_the_drawings_outline_shaky_splits(iris_marks):
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.colors import to_rgba

    tree, s, _, _ = iris_marks
    marks = s.marks()
    dot = tree.to_dot(stability=s)
    for node_id, (share, shaky) in marks.items():
        line = next(x for x in dot.splitlines() if x.startswith(f"\t{node_id} ["))
        assert f"same feature {share:.0%}" in line
        assert ('color="#D55E00"' in line and "dashed" in line) == shaky
    assert tree.to_graphviz(stability=s).source == tree.to_dot(stability=s, max_pixels=8000)
    ax = tree.plot(stability=s)
    boxes = [a for a in ax.patches if a.get_gid() == "id3tree-node"]
    outlined = [b for b in boxes if b.get_edgecolor() == to_rgba("#D55E00")]
    assert len(outlined) == sum(shaky for _, shaky in marks.values()) > 0
    assert all(b.get_linestyle() == "--" for b in outlined)
    words = " ".join(t.get_text() for t in ax.texts)
    assert words.count("same feature") == len(marks)
    matplotlib.pyplot.close("all")
    with pytest.raises(TypeError, match="stability must be the result of tree.stability"):
        tree.to_dot(stability={0: 0.5})


def test_the_page_takes_it_in_explore_mode_only(iris_marks):
    tree, s, _, _ = iris_marks
    page = tree.to_html(stability=s)
    assert page != tree.to_html() and "same feature" in page
    assert "same feature" not in tree.to_html()
    with pytest.raises(ValueError, match="stability applies to mode='explore' only"):
        tree.to_html(mode="build", stability=s)
    with pytest.raises(TypeError, match="stability must be"):
        tree.to_html(stability="yes")
