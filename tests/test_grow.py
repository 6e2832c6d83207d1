"""The level-by-level grower against the textbook's ID3 (:mod:`id3tree.textbook`), node by node.

The textbook follows Quinlan's recipe literally: one node at a time, every candidate threshold
scored from scratch. The learner's grower (rows kept sorted per feature, all nodes of a level
and several features searched together, integer ``c log c`` sums, regrouping by child) must
build exactly the same tree whichever numeric search the size rules choose: the tests below
force each one (counted, sorted end to end, as a matrix, in pieces) and compare the trees with
``tests.test_textbook.assert_same_tree``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from id3tree import ID3Classifier
from id3tree.engine import sorted_columns
from id3tree.engine.splits.strategies import is_counted
from id3tree.model.node import MISSING
from id3tree.textbook import grow_tree
from tests.test_splits import size_rule
from tests.test_textbook import assert_same_tree

VALUES = [-2.0, -0.5, 0.0, 0.1, 0.2, 0.3, 1.0, 2.5, 7.0]


@st.composite
def tables(draw):
    n = draw(st.integers(1, 60))
    n_features = draw(st.integers(1, 4))
    n_classes = draw(st.sampled_from([2, 2, 3, 5]))
    columns = {}
    for f in range(n_features):
        if draw(st.booleans()):
            x = np.array(draw(st.lists(st.sampled_from(VALUES), min_size=n, max_size=n)))
            if draw(st.booleans()):
                x[np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)))] = np.nan
            columns[f"x{f}"] = x
        else:
            values = draw(st.lists(st.sampled_from(["a", "b", "c", None]), min_size=n, max_size=n))
            columns[f"x{f}"] = pd.Series(values, dtype=object)
    frame = pd.DataFrame(columns)
    y = np.array(draw(st.lists(st.integers(0, n_classes - 1), min_size=n, max_size=n)))
    params = dict(
        max_depth=draw(st.sampled_from([None, None, 1, 2])),
        min_samples_leaf=draw(st.sampled_from([1, 1, 2, 3])),
        min_samples_split=draw(st.sampled_from([2, 2, 5])),
        min_gain=draw(st.sampled_from([0.0, 0.0, 0.1])),
    )
    return frame, y, params


@contextlib.contextmanager
def numeric_search(way: str):
    """Make the grower search every numeric feature one way: "counted", "sorted" (the layouts
    end to end, as for large data) or "layouts" (sorted, the layouts as the rows of one matrix,
    as for small data)."""
    matrix = 2**62 if way == "layouts" else 0
    with size_rule(
        counted_share=math.inf if way == "counted" else 0.0,
        matrix_cells=matrix,
        matrix_classes=matrix,
        stacked_values=matrix,
    ):
        yield


@settings(deadline=None, max_examples=150)
@given(data=tables(), way=st.sampled_from(["counted", "sorted", "layouts"]))
def test_grower_builds_the_plain_tree(data, way):
    # both numeric searches (values counted by node, or rows kept sorted) build the plain tree
    frame, y, params = data
    if all(frame[c].isna().all() and frame[c].dtype == object for c in frame):
        return
    with numeric_search(way):
        model = ID3Classifier(**params).fit(frame, y)
    assert_same_tree(grow_tree(frame, y, **params), model.root_)


@pytest.mark.parametrize("way", ["counted", "sorted", "layouts"])
def test_many_classes_and_many_rows_match_the_plain_tree(way):
    # 12 classes (the sorted rank path), duplicated values, missing values, a categorical column
    rng = np.random.default_rng(3)
    n = 400
    frame = pd.DataFrame(
        {
            "a": np.round(rng.normal(size=n), 1),
            "b": rng.integers(0, 6, n).astype(float),
            "c": pd.Series(rng.choice(["p", "q", "r"], n), dtype=object),
        }
    )
    frame.loc[rng.random(n) < 0.1, "b"] = np.nan
    y = (frame["a"].to_numpy() > 0) * 6 + rng.integers(0, 6, n)
    params = dict(max_depth=None, min_samples_leaf=1, min_samples_split=2, min_gain=0.0)
    with numeric_search(way):
        model = ID3Classifier().fit(frame, y)
    assert_same_tree(grow_tree(frame, y, **params), model.root_)


@pytest.mark.parametrize("n_classes", [2, 12])
@pytest.mark.parametrize("piece", [1, 7, 64])
def test_search_and_regrouping_in_pieces_build_the_plain_tree(piece, n_classes):
    # a fit of millions of rows searches and regroups PIECE_ROWS rows at a time (nodes longer
    # than that in parts carrying their class counts); made tiny here, it still builds the
    # plain tree: 2 classes (one running count) and 12 (the rank by class), missing values
    rng = np.random.default_rng(5)
    n = 300
    frame = pd.DataFrame(
        {"a": np.round(rng.normal(size=n), 1), "b": rng.integers(0, 6, n).astype(float)}
    )
    frame.loc[rng.random(n) < 0.1, "b"] = np.nan
    y = ((frame["a"].to_numpy() > 0) * 6 + rng.integers(0, 6, n)) % n_classes
    params = dict(max_depth=None, min_samples_leaf=2, min_samples_split=2, min_gain=0.0)
    with numeric_search("sorted"), size_rule("piece_rows", piece):
        model = ID3Classifier(min_samples_leaf=2).fit(frame, y)
    assert_same_tree(grow_tree(frame, y, **params), model.root_)


def test_features_searched_in_chunks_give_the_same_tree():
    # the grower searches as many numeric features together as fit in chunk_rows positions
    rng = np.random.default_rng(0)
    X = rng.integers(0, 8, size=(300, 6)).astype(float)
    y = (X[:, 0] + X[:, 3] + rng.integers(0, 3, 300)) % 3
    together = ID3Classifier().fit(X, y)
    # laid end to end, as large data are, and one feature at a time
    with size_rule(matrix_cells=0, stacked_values=0, chunk_rows=1):
        alone = ID3Classifier().fit(X, y)
    assert together.to_dict()["nodes"] == alone.to_dict()["nodes"]


@st.composite
def numeric_tables(draw):
    """Small numeric data with many ties: repeated values, -0.0 next to 0.0, NaN, constant
    columns; 2-4 classes, sometimes weights, and the stopping rules that shape the search."""
    n = draw(st.integers(2, 80))
    n_features = draw(st.integers(1, 5))
    pool = [-0.0, 0.0, 0.5, 1.0, 1.5, 2.0, -3.0, 7.25]
    X = np.empty((n, n_features))
    for f in range(n_features):
        kind = draw(st.sampled_from(["pool", "floats", "constant"]))
        if kind == "pool":
            X[:, f] = draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n))
        elif kind == "floats":
            X[:, f] = draw(st.lists(st.floats(-1e3, 1e3), min_size=n, max_size=n))
        else:
            X[:, f] = 2.0
        if draw(st.booleans()):
            X[np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n))), f] = np.nan
    n_classes = draw(st.integers(2, 4))
    y = np.array(draw(st.lists(st.integers(0, n_classes - 1), min_size=n, max_size=n)))
    params = dict(
        min_samples_leaf=draw(st.sampled_from([1, 1, 2, 3])),
        max_depth=draw(st.sampled_from([None, None, 2])),
        criterion=draw(st.sampled_from(["entropy", "entropy", "gain_ratio"])),
    )
    weight = None
    if draw(st.integers(0, 4)) == 0:
        weight = np.array(draw(st.lists(st.sampled_from([1.0, 2.0, 0.5]), min_size=n, max_size=n)))
    return X, y, params, weight


def everything(model, X) -> tuple:
    """What a fit shows: its model file, its trace to the last bit, its probabilities."""
    trace = model.trace_.to_csv(float_format="%.17g")
    return model.to_json(), trace, model.predict_proba(X).tobytes()


@settings(deadline=None, max_examples=150)
@given(data=numeric_tables(), verbose=st.sampled_from([0, 0, 0, 1, 2]))
def test_layouts_as_a_matrix_and_end_to_end_grow_the_same_model(data, verbose):
    # the two ways of searching sorted features give the same model, trace and printed pages
    X, y, params, weight = data
    fits = {}
    for way in ("layouts", "sorted"):
        page = io.StringIO()
        with numeric_search(way), contextlib.redirect_stdout(page):
            model = ID3Classifier(verbose=verbose, **params).fit(X, y, sample_weight=weight)
        fits[way] = (*everything(model, X), page.getvalue())
    assert fits["layouts"] == fits["sorted"]


def test_string_columns_encode_as_object_columns_do():
    # predict-time encoding hashes pandas string columns natively; object columns the slow way
    rng = np.random.default_rng(1)
    letters = np.array(["a", "b", "c", "d"], dtype=object)
    frame = pd.DataFrame({f: letters[rng.integers(0, 3, 200)] for f in ("p", "q")})
    y = (frame["p"] == "a").to_numpy() ^ (rng.random(200) < 0.2)
    model = ID3Classifier().fit(frame.astype(object), y)
    new = pd.DataFrame({f: letters[rng.integers(0, 4, 300)] for f in ("p", "q")})  # "d": unseen
    new.iloc[::7, 0] = None
    as_object = new.astype(object)
    as_string = new.astype(pd.StringDtype())
    expected = model.predict_proba(as_object)
    np.testing.assert_array_equal(model.predict_proba(as_string), expected)
    # the reference: each row walked down the tree by hand
    for i in range(0, 300, 37):
        node, row = model.root_, as_object.iloc[i]
        while not node.is_leaf:
            value = row[node.feature]
            key = MISSING if value is None else value
            if key not in node.children:
                break
            node = node.children[key]
        counts = np.array([node.class_counts[c] for c in model.classes_], dtype=float)
        np.testing.assert_allclose(expected[i], counts / counts.sum())


@pytest.mark.parametrize("missing", [0.05, 0.0])  # the general step; numbers only, none missing
def test_routing_in_blocks_and_either_memory_order_gives_the_same_stops(monkeypatch, missing):
    # prediction reads numpy rows in place (C order) or columns (F order, as frames encode), and
    # routes rows a block at a time: every way must stop each row at the same node
    from id3tree.engine import routing

    rng = np.random.default_rng(4)
    X = np.round(rng.normal(size=(500, 4)), 1)
    X[rng.random(X.shape) < missing] = np.nan
    y = (np.nan_to_num(X[:, 0]) + rng.normal(size=500) > 0).astype(int)
    model = ID3Classifier().fit(X, y)
    expected = model.apply(np.asfortranarray(X))
    np.testing.assert_array_equal(model.apply(X), expected)
    monkeypatch.setattr(routing, "BLOCK_ROWS", 64)
    monkeypatch.setattr(routing, "NUMERIC_BATCH", 64)
    big = np.tile(X, (5, 1))
    np.testing.assert_array_equal(model.apply(big), np.tile(expected, 5))
    # the general step, told there are missing values, agrees with the numeric one
    stops = model._compiled.route(big, has_missing=True)
    np.testing.assert_array_equal(model._tree.ids[stops], np.tile(expected, 5))
    monkeypatch.setattr(routing, "BLOCK_ROWS", 2**15)
    monkeypatch.setattr(routing, "NUMERIC_BATCH", 2**15)
    # the reference: each row walked down the nodes by hand
    ids = {node.node_id: node for node in model.root_.walk()}
    for i in range(0, 500, 29):
        node = model.root_
        while not node.is_leaf:
            v = X[i, int(node.feature[1:])]
            key = MISSING if np.isnan(v) else ("<=" if v <= node.threshold else ">")
            if key not in node.children:
                break
            node = node.children[key]
        assert ids[expected[i]] is node


def few_values_data(n=3_000, n_classes=2, seed=0):
    """Columns of 2 to 40 distinct values (one with missing values, two identical: ties), a
    label that depends on three of them."""
    rng = np.random.default_rng(seed)
    X = np.column_stack(
        [rng.integers(0, v, n) / 4.0 for v in (2, 5, 12, 40, 40, 7)] + [np.zeros(n)]
    )
    X[:, 4] = X[:, 3]  # a tie between features 3 and 4 at every node: the first must win
    X[rng.random(n) < 0.1, 2] = np.nan
    signal = X[:, 1] * 4 + X[:, 3] - np.nan_to_num(X[:, 2], nan=1.0) * 2
    y = np.digitize(
        signal + rng.normal(0, 2, n), np.quantile(signal, np.linspace(0, 1, n_classes + 1)[1:-1])
    )
    return X, y


@pytest.mark.parametrize(
    "n_classes, params",
    [
        (2, {}),
        (2, {"max_depth": 4}),
        (2, {"min_samples_leaf": 7}),
        (3, {"min_samples_split": 30, "criterion": "gain_ratio"}),
        (12, {}),
        (40, {"min_samples_leaf": 3}),
    ],
)
def test_counted_and_sorted_searches_grow_the_same_tree(n_classes, params):
    # the rule picks the counted search for every column here; forcing the sorted one must
    # change nothing: nodes, thresholds, counts, ties (the first of two equal columns) and trace
    X, y = few_values_data(n_classes=n_classes)
    assert all(is_counted(len(np.unique(c[~np.isnan(c)])), len(X)) for c in X.T)
    counted = ID3Classifier(**params).fit(X, y)
    with numeric_search("sorted"):
        sorted_ = ID3Classifier(**params).fit(X, y)
    assert counted.to_dict()["nodes"] == sorted_.to_dict()["nodes"]
    assert "x4" not in {node.feature for node in counted.root_.walk()}  # x3 always wins the tie
    pd.testing.assert_frame_equal(counted.trace_, sorted_.trace_)


def test_counted_search_matches_the_plain_tree_on_more_rows():
    X, y = few_values_data(n=600, n_classes=3, seed=1)
    frame = pd.DataFrame(X, columns=[f"x{i}" for i in range(X.shape[1])])
    params = dict(max_depth=None, min_samples_leaf=2, min_samples_split=2, min_gain=0.0)
    model = ID3Classifier(min_samples_leaf=2).fit(frame, y)
    assert_same_tree(grow_tree(frame, y, **params), model.root_)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from([0.0, -0.0, 1.0, 2.5, np.nan]),
            st.floats(-3, 3, allow_nan=False, width=16),
        ),
        max_size=60,
    )
)
def test_a_column_is_sorted_as_a_stable_sort_sorts_it(values):
    # the quicksort plus runs put back in row order must give numpy's stable order exactly: the
    # same rows, where each new value starts, the missing ones, and so the same distinct values
    # (down to the sign of a zero), NaN last
    x = np.array(values, dtype=float)
    order, new_value, missing = (a[1] for a in sorted_columns._sort_columns(np.stack([x[::-1], x])))
    stable = np.argsort(x, kind="stable")
    assert order.tolist() == stable.tolist()
    xs = x[stable]
    assert missing.tolist() == np.isnan(xs).tolist()
    present = ~np.isnan(xs)
    first = np.r_[True, xs[1:] != xs[:-1]] & present
    assert (new_value & present).tolist() == first.tolist()
    assert x[order[new_value & ~missing]].tobytes() == xs[first].tobytes()
    assert np.count_nonzero(new_value & ~present) == (1 if (~present).any() else 0)  # one NaN run


def test_a_float_array_and_its_frame_grow_the_same_tree():
    # a float array and the DataFrame of its columns: same tree, trace, and the same error for
    # an infinite value (tests/test_input_paths.py compares each short way of fit's checks with
    # the column-by-column way)
    rng = np.random.default_rng(4)
    X = rng.normal(size=(300, 4))
    X[rng.random(X.shape) < 0.1] = np.nan
    y = (np.nan_to_num(X[:, 0]) + rng.normal(size=300) > 0).astype(int)
    frame = pd.DataFrame({f"x{i}": X[:, i].copy() for i in range(4)})
    from_array, from_frame = ID3Classifier().fit(X, y), ID3Classifier().fit(frame, y)
    assert from_array.to_dict()["nodes"] == from_frame.to_dict()["nodes"]
    pd.testing.assert_frame_equal(from_array.trace_, from_frame.trace_)
    X[7, 2] = -np.inf
    frame.loc[7, "x2"] = -np.inf
    messages = []
    for data in (X, frame):
        with pytest.raises(ValueError, match="column 'x2' has 1 infinite value") as error:
            ID3Classifier().fit(data, y)
        messages.append(str(error.value))
    assert messages[0] == messages[1]


@pytest.mark.parametrize("options", [{}, {"min_samples_leaf": 4}, {"max_depth": 2}])
@pytest.mark.parametrize("n_classes", [2, 3, 7])  # 7: more classes than the matrix search takes
def test_the_best_thresholds_kept_by_the_search_are_the_first_of_every_threshold(
    options, n_classes
):
    """verbose=2's best thresholds (ranked from the cuts the split search keeps) are exactly
    the first k of every threshold listed (``max_thresholds=None``, which scores every cut
    again), with the same numbers, and ``n_more`` counts the rest; with missing values, ties
    from rounded values and a ``min_samples_leaf`` that makes some listed cuts invalid."""
    from sklearn.datasets import make_classification

    from id3tree.trace.tracers import RecordingTracer, ThresholdsRanked

    X, y = make_classification(
        600, 5, n_informative=4, n_redundant=0, n_classes=n_classes, random_state=n_classes
    )
    X[:, 1] = np.round(X[:, 1], 1)  # ties
    X[np.random.default_rng(0).random(X.shape) < 0.05] = np.nan
    ranked = {}
    for k in (3, None):
        tracer = RecordingTracer(max_thresholds=k)
        ID3Classifier(**options).fit(X, y, tracer=tracer)
        ranked[k] = [e for e in tracer.events if isinstance(e, ThresholdsRanked)]
    assert len(ranked[3]) == len(ranked[None]) > 0
    for best, every in zip(ranked[3], ranked[None]):
        assert (best.node, best.feature) == (every.node, every.feature)
        assert best.thresholds == every.thresholds[:3]
        assert best.n_more == len(every.thresholds) - len(best.thresholds)


def test_the_table_of_searches_is_the_dispatcher(monkeypatch):
    """Every numeric search is run by name from one table, and every entry of the table is
    chosen by a size rule: each one runs on some fit (and nothing runs beside the table)."""
    from id3tree.engine.splits import strategies

    chosen = {"counted"} | {
        strategies.layout_search(n_classes, n, weighted=weighted)
        for n_classes in (2, 8)
        for n in (10, 10**6)
        for weighted in (False, True)
    }
    assert chosen == set(strategies.NUMERIC_SEARCHES)
    ran = []
    for name, search in list(strategies.NUMERIC_SEARCHES.items()):
        spy = lambda *a, _name=name, _search=search, **k: ran.append(_name) or _search(*a, **k)  # noqa: E731
        monkeypatch.setitem(strategies.NUMERIC_SEARCHES, name, spy)
    rng = np.random.default_rng(0)
    X = rng.normal(size=(3000, 3))
    X[:, 2] = np.round(X[:, 2])  # few values: counted
    y = (X[:, 0] + rng.normal(size=3000) > 0).astype(int)
    ID3Classifier(max_depth=3).fit(X, y)
    ID3Classifier(max_depth=2).fit(X, y, sample_weight=np.full(3000, 0.5))
    rule = dataclasses.replace(strategies.SIZE_RULES["matrix_cells"], limit=1)
    monkeypatch.setitem(strategies.SIZE_RULES, "matrix_cells", rule)
    ID3Classifier(max_depth=2).fit(X, y)
    rule = dataclasses.replace(strategies.SIZE_RULES["piece_rows"], limit=64)
    monkeypatch.setitem(strategies.SIZE_RULES, "piece_rows", rule)
    ID3Classifier(max_depth=2).fit(X, y)
    assert set(ran) == set(strategies.NUMERIC_SEARCHES)
