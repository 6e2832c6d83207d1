"""The numeric router's batch (rows leave it at their leaves, new rows take their places) against
the plain walk of one row at a time (CompiledTree.path)."""

from __future__ import annotations

import numpy as np
import pytest

from id3tree import ID3Classifier
from id3tree.engine import routing
from id3tree.model.node import NUMERIC_MISSING


def deep_tree_data(n=1_500, d=6, seed=0):
    """Noisy labels: a fully grown tree with leaves at many depths."""
    rng = np.random.default_rng(seed)
    X = np.round(rng.normal(size=(n, d)), 2)
    y = ((X[:, 0] + X[:, 1] * X[:, 2] + rng.normal(0, 0.7, n)) > 0).astype(int)
    return X, y


def walked_stops(compiled, X) -> np.ndarray:
    """The reference: each row sent down by itself, one node at a time."""
    return np.array([compiled.path(row)[-1][0] for row in X])


@pytest.mark.parametrize("block", [1, 7, 64, 1000, 2**15])
@pytest.mark.parametrize("order", ["C", "F"])
def test_the_batch_stops_every_row_where_the_plain_walk_does(monkeypatch, block, order):
    X, y = deep_tree_data()
    model = ID3Classifier().fit(X, y)
    depths = {node.node_id: node.depth for node in model.root_.walk()}
    assert len(set(depths.values())) > 5  # leaves at many depths: rows leave the batch unevenly
    new = np.asarray(np.round(np.random.default_rng(1).normal(size=(3_000, 6)), 2), order=order)
    expected = walked_stops(model._compiled, new)
    monkeypatch.setattr(routing, "BLOCK_ROWS", block)
    monkeypatch.setattr(routing, "NUMERIC_BATCH", block)
    np.testing.assert_array_equal(model._compiled.route(new, has_missing=False), expected)
    np.testing.assert_array_equal(model._compiled.route(new), expected)
    # the general step (for missing values) agrees
    np.testing.assert_array_equal(model._compiled.route(new, has_missing=True), expected)


def test_predictions_are_the_class_shares_of_the_walked_leaf():
    X, y = deep_tree_data(seed=2)
    model = ID3Classifier().fit(X, y)
    new = np.round(np.random.default_rng(3).normal(size=(2_000, 6)), 2)
    stops = walked_stops(model._compiled, new)
    counts = model._compiled.counts[stops].astype(float)
    shares = counts / counts.sum(axis=1, keepdims=True)
    np.testing.assert_array_equal(model.predict_proba(new), shares)
    np.testing.assert_array_equal(model.predict(new), model.classes_[np.argmax(counts, axis=1)])
    labels = np.array(["no", "yes"], dtype=object)[y]
    text_model = ID3Classifier().fit(X, labels)
    expected = np.where(model.predict(new) == 1, "yes", "no")
    assert text_model.predict(new).tolist() == expected.tolist()


def test_a_single_row_and_a_stump():
    X, y = deep_tree_data(n=200)
    model = ID3Classifier().fit(X, y)
    one = X[:1]
    assert model._compiled.route(one).tolist() == [model._compiled.path(one[0])[-1][0]]
    stump = ID3Classifier().fit(X, np.zeros(len(X), dtype=int))  # one leaf
    assert stump.predict(X[:5]).tolist() == [0] * 5


@pytest.mark.parametrize(
    "params", [{}, {"max_depth": 1}, {"max_depth": 0}, {"min_samples_leaf": 20}]
)
def test_a_tree_of_numeric_splits_compiles_to_the_arrays_of_the_general_way(params):
    """Data without a categorical feature skips the work of categorical slots: its arrays are
    those the general way makes, to the byte, missing-value branches included (the general way
    runs here for a categorical column that no node splits on)."""
    X, y = deep_tree_data(n=600)
    X[::5, 1] = np.nan  # a third branch where the rows without a value go
    tree = ID3Classifier(**params).fit(X, y)._tree
    d = X.shape[1]
    short = routing.CompiledTree.from_tree(tree, [None] * d)
    general = routing.CompiledTree.from_tree(tree, [None] * d + [["a", "b"]])  # (feature d)
    assert short.sparse is None and general.sparse is None
    for name in ("feature", "threshold", "categorical", "offset", "n_slots", "child", "counts"):
        a, b = getattr(short, name), getattr(general, name)
        assert a.dtype == b.dtype and a.shape == b.shape, name
        assert a.tobytes() == b.tobytes(), name


@pytest.mark.parametrize("order", ["C", "F"])
def test_the_coded_router_reads_the_roots_feature_wherever_it_is(monkeypatch, order):
    """The numeric router packs each row's node and the start of that node's feature in the flat
    values into one integer: a root on the last column, read in either memory order (in F order
    the feature's start is a large number), must still stop every row where the walk does."""
    X, y = deep_tree_data(n=800, d=5, seed=4)
    X = X[:, ::-1].copy()  # the signal's columns last
    model = ID3Classifier().fit(X, y)
    assert model._compiled.feature[0] == 4
    new = np.asarray(np.round(np.random.default_rng(5).normal(size=(5_000, 5)), 2), order=order)
    expected = walked_stops(model._compiled, new)
    for block in (3, 2**15):
        monkeypatch.setattr(routing, "BLOCK_ROWS", block)
        monkeypatch.setattr(routing, "NUMERIC_BATCH", block)
        np.testing.assert_array_equal(model._compiled.route(new, has_missing=False), expected)


def test_the_kept_tables_follow_the_memory_order_of_each_call():
    """The router keeps the tables of the last memory order it saw (a feature's start in the flat
    values differs between C and F order): alternating orders and sizes must not reuse the wrong
    ones."""
    X, y = deep_tree_data(n=1_000, seed=6)
    model = ID3Classifier().fit(X, y)
    rng = np.random.default_rng(7)
    for n, order in [(500, "C"), (500, "F"), (700, "F"), (500, "C"), (1, "F"), (300, "C")]:
        new = np.asarray(np.round(rng.normal(size=(n, 6)), 2), order=order)
        np.testing.assert_array_equal(
            model._compiled.route(new), walked_stops(model._compiled, new)
        )


@pytest.mark.parametrize("order", ["C", "F"])
def test_a_tree_with_missing_value_branches_routes_rows_without_missing_values(order):
    """A tree grown on rows with missing values has branches that only a missing value takes;
    rows without one go the numeric router's way, which numbers the nodes it can reach first
    (it used to fail on the nodes it cannot). Rows with missing values take the general step."""
    X, y = deep_tree_data(n=1_000, d=4, seed=9)
    X[::7, 0], X[3::11, 2] = np.nan, np.nan
    model = ID3Classifier().fit(X, y)
    compiled = model._compiled
    missing_slots = compiled.child[compiled.offset[compiled.n_slots == 3] + NUMERIC_MISSING]
    assert (missing_slots >= 0).sum() >= 2  # subtrees that only a missing value reaches
    rng = np.random.default_rng(10)
    new = np.asarray(np.round(rng.normal(size=(2_000, 4)), 2), order=order)
    np.testing.assert_array_equal(model._compiled.route(new), walked_stops(model._compiled, new))
    assert model.predict(new).shape == (2_000,)
    new[::5, 0] = np.nan
    np.testing.assert_array_equal(model._compiled.route(new), walked_stops(model._compiled, new))


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("has_missing", [False, True])
@pytest.mark.parametrize("shared_batch", [1, 4])
def test_rows_routed_in_threads_stop_where_one_thread_stops_them(
    monkeypatch, order, has_missing, shared_batch
):
    """Each thread routes its own share of the rows by the one-thread code: the stops are those of
    one thread (and of the walk) for any number of threads, shares of any size, both routers,
    and the numeric router's batch as wide in threads as in one (SHARED_BATCH 1) or wider."""
    monkeypatch.setattr(routing, "SHARED_BATCH", shared_batch)
    X, y = deep_tree_data(seed=11)
    model = ID3Classifier().fit(X, y)
    new = np.asarray(np.round(np.random.default_rng(12).normal(size=(2_001, 6)), 2), order=order)
    expected = walked_stops(model._compiled, new)
    for block in (5, 64, 2**15):
        monkeypatch.setattr(routing, "BLOCK_ROWS", block)
        monkeypatch.setattr(routing, "NUMERIC_BATCH", block)
        one = model._compiled.route(new, has_missing, threads=1)
        np.testing.assert_array_equal(one, expected)
        for threads in (2, 3, 7):
            shared = model._compiled.route(new, has_missing, threads=threads)
            np.testing.assert_array_equal(shared, one)
    few = new[:3]  # more threads than rows: one share a row
    np.testing.assert_array_equal(model._compiled.route(few, has_missing, threads=8), expected[:3])


def test_the_shares_cover_every_row_once_and_the_threshold_picks_the_threads(monkeypatch):
    for n_rows in (0, 1, 2, 5, 100, 101):
        for threads in (1, 2, 3, 4):
            seen = np.zeros(n_rows, dtype=int)
            shares = []

            def work(first, last, seen=seen, shares=shares):
                seen[first:last] += 1
                shares.append(last - first)

            routing.in_shares(n_rows, threads, work)
            assert (seen == 1).all()
            assert len(shares) == max(1, min(threads, n_rows))
            assert max(shares) - min(shares) <= 1  # as equal as can be
    used = []
    monkeypatch.setattr(routing, "in_shares", lambda n, threads, work: used.append(threads))
    X, y = deep_tree_data(n=300)
    compiled = ID3Classifier().fit(X, y)._compiled
    monkeypatch.setattr(routing, "THREADED_ROWS", 100)
    monkeypatch.setattr(routing, "THREADS", 2)
    compiled.route(X[:99])
    compiled.route(X[:100])
    compiled.route(X[:100], threads=3)
    assert used == [1, 2, 3]


def test_an_error_in_a_threads_share_reaches_the_caller():
    def work(first, last):
        if first > 0:
            raise ValueError(f"share from row {first}")

    with pytest.raises(ValueError, match="share from row 5"):
        routing.in_shares(10, 2, work)


@pytest.mark.parametrize("order", ["C", "F"])
def test_each_share_looks_for_missing_values_itself(order):
    """Told nothing of missing values, each thread's share looks for them in its own rows: the
    share with one takes the general step, the others the numeric router; all stop where the walk
    does (a tree with missing-value branches, so a missing value changes where a row goes)."""
    X, y = deep_tree_data(n=1_000, d=4, seed=13)
    X[::6, 1] = np.nan
    model = ID3Classifier().fit(X, y)
    new = np.round(np.random.default_rng(14).normal(size=(2_001, 4)), 2)
    new[1_900:1_950, 1] = np.nan  # in the last share only
    new = np.asarray(new, order=order)
    expected = walked_stops(model._compiled, new)
    for threads in (1, 2, 3):
        np.testing.assert_array_equal(model._compiled.route(new, threads=threads), expected)
