"""Model files: everything a fitted model holds survives JSON and pickle, and a damaged or
inconsistent file is refused with a ValueError that says what is wrong, before anything is built."""

from __future__ import annotations

import copy
import datetime as dt
import decimal
import json
import pickle
import re

import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import GridSearchCV

from id3tree import ID3Classifier
from id3tree.cli.commands import main
from id3tree.datasets import load_iris, load_play_tennis


def _tennis_model():
    return ID3Classifier().fit(*load_play_tennis(return_X_y=True))


def _mixed_model():
    """Numeric and categorical splits, with a branch of missing values."""
    X = pd.DataFrame(
        {
            "colour": ["red", "red", "blue", "blue", None, "green", "green", "red"],
            "size": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, np.nan, 8.0],
        }
    )
    y = ["a", "b", "a", "a", "b", "b", "a", "a"]
    return ID3Classifier().fit(X, y), X


def _record(d, predicate):
    return next(r for r in d["nodes"] if predicate(r))


def _child_of(d, parent_record):
    index = d["nodes"].index(parent_record)
    return next(r for r in d["nodes"] if r["parent"] == index)


# ------------------------------------------------------------------------------------------------
# 1. a model file whose root is its own parent loops no more
# ------------------------------------------------------------------------------------------------
@pytest.mark.timeout(120)  # a hang guard (a loop), not a speed limit
def test_a_root_that_is_its_own_parent_is_refused_not_looped_on():
    d = _tennis_model().to_dict()
    d["nodes"][0]["parent"] = 0
    with pytest.raises(ValueError, match="parent 0"):
        ID3Classifier.from_dict(d)


@pytest.mark.timeout(120)  # a hang guard (a loop), not a speed limit
def test_a_cycle_of_parents_is_refused():
    d = _tennis_model().to_dict()
    leaf = _record(d, lambda r: r["feature"] is None)
    split = _record(d, lambda r: r["feature"] == "Humidity")
    split["parent"] = d["nodes"].index(leaf)  # Humidity's parent is now one of its own leaves
    with pytest.raises(ValueError, match="not a valid id3tree model"):
        ID3Classifier.from_dict(d)


# ------------------------------------------------------------------------------------------------
# 3. everything that can be fitted can be saved and reloaded, or is refused when saving
# ------------------------------------------------------------------------------------------------
CATEGORY_COLUMNS = {
    "datetime": pd.to_datetime(["2020-01-01", "2020-01-01", "2021-06-30", "2021-06-30"]),
    "datetime_tz": pd.to_datetime(
        ["2020-01-01", "2020-01-01", "2021-06-30", "2021-06-30"]
    ).tz_localize("Europe/Paris"),
    "timedelta": pd.to_timedelta(["1 day", "1 day", "2 hours", "2 hours"]),
    "bytes": [b"a", b"a", b"\xffb", b"\xffb"],
    "tuple": [(1, "x"), (1, "x"), (2, "y"), (2, "y")],
    "period": pd.period_range("2020-01", periods=2, freq="M").repeat(2),
    "interval": pd.IntervalIndex.from_breaks([0, 1, 2]).repeat(2),
    "date": [dt.date(2020, 1, 1)] * 2 + [dt.date(2020, 1, 2)] * 2,
    "py_timedelta": [dt.timedelta(days=1)] * 2 + [dt.timedelta(seconds=5)] * 2,
    "decimal": [decimal.Decimal("1.5")] * 2 + [decimal.Decimal("2.5")] * 2,
    "bool": [True, True, False, False],
    "big_int": [2**70, 2**70, 3, 3],
}


@pytest.mark.parametrize("kind", sorted(CATEGORY_COLUMNS))
def test_unusual_category_values_survive_json_and_pickle(kind):
    X = pd.DataFrame({"v": pd.Series(CATEGORY_COLUMNS[kind], dtype=object)})
    y = ["no", "no", "yes", "yes"]
    model = ID3Classifier(categorical=["v"]).fit(X, y)
    assert model.root_.feature == "v"
    for again in (
        ID3Classifier.from_json(model.to_json()),
        pickle.loads(pickle.dumps(model)),
    ):
        assert list(again.predict(X)) == y
        assert again.to_text() == model.to_text()


@pytest.mark.parametrize("kind", ["datetime", "timedelta", "bytes", "tuple", "date"])
def test_unusual_classes_survive_json(kind):
    labels = pd.Series(CATEGORY_COLUMNS[kind], dtype=object)
    X = pd.DataFrame({"x": [1.0, 2.0, 3.0, 4.0]})
    model = ID3Classifier().fit(X, labels)
    labels = labels.tolist()
    again = ID3Classifier.from_json(model.to_json())
    assert list(again.predict(X)) == labels
    assert again.classes_.tolist() == model.classes_.tolist()


def test_arrow_timestamps_survive_json():
    pytest.importorskip("pyarrow")
    stamps = pd.Series(
        pd.to_datetime(["2020-01-01", "2020-01-01", "2021-01-01", "2021-01-01"])
    ).astype("timestamp[ns][pyarrow]")
    X = pd.DataFrame({"when": stamps})
    model = ID3Classifier(categorical=["when"]).fit(X, [0, 0, 1, 1])
    again = ID3Classifier.from_json(model.to_json())
    assert again.predict(X).tolist() == [0, 0, 1, 1]


def test_numpy_typed_hyperparameters_from_a_grid_search_can_be_saved():
    X, y = load_play_tennis(return_X_y=True)
    search = GridSearchCV(ID3Classifier(), {"max_depth": np.arange(1, 4)}, cv=2).fit(X, y)
    best = search.best_estimator_
    assert isinstance(best.max_depth, np.integer)
    again = ID3Classifier.from_json(best.to_json())
    assert again.max_depth == best.max_depth and isinstance(again.max_depth, int)
    assert list(again.predict(X)) == list(best.predict(X))


def test_numpy_arrays_as_the_categorical_parameter_can_be_saved():
    X = pd.DataFrame({"code": [1, 1, 2, 2], "x": [0.0, 1.0, 0.0, 1.0]})
    model = ID3Classifier(categorical=np.array([0])).fit(X, ["a", "a", "b", "b"])
    again = ID3Classifier.from_json(model.to_json())
    assert again.categorical == [0]
    assert list(again.predict(X)) == ["a", "a", "b", "b"]


def test_a_value_that_cannot_be_saved_is_refused_when_saving_with_its_type():
    class Opaque:
        def __lt__(self, other):
            return id(self) < id(other)

    a, b = Opaque(), Opaque()
    X = pd.DataFrame({"v": pd.Series([a, a, b, b], dtype=object)})
    model = ID3Classifier().fit(X, [0, 0, 1, 1])
    with pytest.raises(ValueError, match="cannot save the category .* of type Opaque"):
        model.to_json()


# ------------------------------------------------------------------------------------------------
# 4 and 5. every inconsistent or damaged file is a clear ValueError
# ------------------------------------------------------------------------------------------------
def _break_duplicate_class(d):
    d["classes"] = [d["classes"][0], d["classes"][0]]


def _break_counts(value):
    def brk(d):
        d["nodes"][-1]["counts"][0] = value

    return brk


def _break_all_zero_counts(d):
    leaf = _record(d, lambda r: r["feature"] is None)
    leaf["counts"] = [0] * len(leaf["counts"])


def _break_parent(value):
    def brk(d):
        d["nodes"][-1]["parent"] = value if value != "self" else len(d["nodes"]) - 1

    return brk


def _break_duplicate_key(d):
    root = d["nodes"][0]
    kids = [r for r in d["nodes"] if r["parent"] == 0]
    kids[1]["key"] = kids[0]["key"]
    assert root["feature"] == "Outlook"


def _break_threshold_on_categorical(d):
    d["nodes"][0]["threshold"] = 1.5


def _break_unknown_key(d):
    _child_of(d, d["nodes"][0])["key"] = "Snowy"


def _break_version(value):
    def brk(d):
        d["version"] = value

    return brk


def _break_criterion(d):
    d["params"]["criterion"] = "gini"


def _break_unknown_param(d):
    d["params"]["max_leaves"] = 3


def _break_reused_feature(d):
    humidity = _record(d, lambda r: r["feature"] == "Humidity")
    humidity["feature"] = "Outlook"
    for r in d["nodes"]:
        if r["parent"] == d["nodes"].index(humidity):
            r["key"] = {"High": "Sunny", "Normal": "Rain"}[r["key"]]


def _break_counts_sum(d):
    leaf = _record(d, lambda r: r["feature"] is None and r["parent"] >= 0)
    leaf["counts"][leaf["counts"].index(max(leaf["counts"]))] += 1
    leaf["entropy"] = 0.0 if min(leaf["counts"]) == 0 else leaf["entropy"]


def _break_entropy(d):
    d["nodes"][0]["entropy"] = 0.5


def _break_depth(d):
    d["nodes"][-1]["depth"] = 7


def _break_missing_field(field):
    def brk(d):
        del d[field]

    return brk


def _break_node_field(field, value):
    def brk(d):
        d["nodes"][1][field] = value

    return brk


def _break_feature(d):
    d["nodes"][0]["feature"] = "Snowfall"


def _break_leaf_with_children(d):
    d["nodes"][0]["feature"] = None


def _break_categories_length(d):
    d["categories"] = d["categories"][:-1]


def _break_duplicate_category(d):
    d["categories"][0].append(d["categories"][0][0])


def _break_unknown_tag(d):
    d["classes"][0] = {"$type": "complex", "value": "1+2j"}


def _break_list_as_value(d):
    d["classes"][0] = [1, 2]


def _break_two_roots(d):
    d["nodes"][-1]["parent"] = -1


def _break_no_nodes(d):
    d["nodes"] = []


BROKEN = {
    "duplicate classes": (_break_duplicate_class, "classes lists"),
    "negative count": (_break_counts(-1), "non-negative numbers"),
    # (a fractional count is a sum of weights, allowed: see test_weights.py)
    "list count": (_break_counts([1]), "non-negative numbers"),
    "string count": (_break_counts("3"), "non-negative numbers"),
    "boolean count": (_break_counts(True), "non-negative numbers"),
    "all-zero counts": (_break_all_zero_counts, "no samples"),
    "non-root with parent -1": (_break_two_roots, "one root"),
    "non-root with parent -1 again": (_break_parent(-1), "one root"),
    "node its own parent": (_break_parent("self"), "must be -1"),
    "parent out of range": (_break_parent(10_000), "must be -1"),
    "parent not an integer": (_break_parent(1.0), "must be -1"),
    "duplicate branch keys": (_break_duplicate_key, "two branches"),
    "threshold on a categorical split": (_break_threshold_on_categorical, "threshold on the"),
    "unknown branch key": (_break_unknown_key, "not a category"),
    "version true": (_break_version(True), "unsupported id3tree model version"),
    "version 2": (_break_version(2), "unsupported id3tree model version"),
    "unknown criterion": (_break_criterion, "criterion"),
    "unknown parameter": (_break_unknown_param, "unknown parameter"),
    "categorical feature reused on a path": (_break_reused_feature, "splits again"),
    "children counts do not add up": (_break_counts_sum, "add up"),
    "entropy that does not match the counts": (_break_entropy, "entropy"),
    "wrong depth": (_break_depth, "depth"),
    "missing nodes": (_break_missing_field("nodes"), "missing"),
    "missing classes": (_break_missing_field("classes"), "missing"),
    "node id a string": (_break_node_field("id", "1"), "id"),
    "node id repeated": (_break_node_field("id", 0), "id"),
    "unknown node field": (_break_node_field("colour", "red"), "unknown field"),
    "gain a string": (_break_node_field("gain", "high"), "gain"),
    "unknown feature": (_break_feature, "not a feature"),
    "split with no feature": (_break_leaf_with_children, "children but splits on no feature"),
    "categories shorter than features": (_break_categories_length, "one entry per feature"),
    "duplicate category": (_break_duplicate_category, "twice"),
    "unknown type tag": (_break_unknown_tag, "unknown type tag"),
    "a list as a class": (_break_list_as_value, "must be a string"),
    "no nodes": (_break_no_nodes, "non-empty list"),
}


@pytest.mark.timeout(30)
@pytest.mark.parametrize("case", sorted(BROKEN))
def test_an_inconsistent_model_is_refused_with_a_clear_error(case):
    breaker, message = BROKEN[case]
    d = _tennis_model().to_dict()
    breaker(d)
    with pytest.raises(ValueError, match=message):
        ID3Classifier.from_dict(d)
    with pytest.raises(ValueError, match=message):  # the same through JSON text
        ID3Classifier.from_json(json.dumps(d))


@pytest.mark.parametrize(
    "text, message",
    [
        ("{oops", "not valid JSON"),
        ('{"format": NaN}', "NaN is not a JSON number"),
        ('{"format": Infinity}', "Infinity is not a JSON number"),
        ('{"format": 1e999}', "too large"),
        ('{"format": 1, "format": 2}', "twice"),
        ("{" + '"a":' * 1 + "[" * 100_000 + "]" * 100_000 + "}", "not valid JSON|not an id3tree"),
        ("[1, 2]", "no model file|not an id3tree"),
        ('{"format": "id3tree.ID3Classifier", "version": 1}', "missing"),
    ],
)
def test_damaged_json_is_a_clear_error(text, message):
    with pytest.raises(ValueError, match=message):
        ID3Classifier.from_json(text)


def test_the_mixed_model_survives_json_and_refuses_a_numeric_key_on_a_category():
    model, X = _mixed_model()
    again = ID3Classifier.from_json(model.to_json())
    np.testing.assert_array_equal(again.predict_proba(X), model.predict_proba(X))
    d = model.to_dict()
    numeric = _record(d, lambda r: r["threshold"] is not None)
    child = _child_of(d, numeric)
    child["key"] = "Sunny"
    with pytest.raises(ValueError, match="numeric split's branch key"):
        ID3Classifier.from_dict(d)


def test_the_order_of_the_records_does_not_matter():
    """A file whose records come in another order (children before parents) loads the same."""
    model, X = _mixed_model()
    d = model.to_dict()
    order = list(reversed(range(len(d["nodes"]))))
    position = {old: new for new, old in enumerate(order)}
    records = [copy.deepcopy(d["nodes"][old]) for old in order]
    for r in records:
        if r["parent"] >= 0:
            r["parent"] = position[r["parent"]]
    d["nodes"] = records
    again = ID3Classifier.from_dict(d)
    np.testing.assert_array_equal(again.predict_proba(X), model.predict_proba(X))


# ------------------------------------------------------------------------------------------------
# 2. columns are matched by name whatever the type of their labels
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "names",
    [(0, 1), (("a", 1), ("b", 2)), (0, "b")],
    ids=["integers", "tuples", "mixed"],
)
def test_non_string_column_names_are_matched_by_name(names):
    first, second = names
    X = pd.DataFrame({first: [1, 2, 3, 4], second: [4, 3, 2, 1]})
    model = ID3Classifier().fit(X, [0, 0, 1, 1])
    assert model.predict(pd.DataFrame({first: [4.0], second: [1.0]})).tolist() == [1]
    with pytest.raises(ValueError, match="different order"):
        model.predict(pd.DataFrame({second: [1.0], first: [4.0]}))
    assert "Prediction: 1" in model.explain(pd.DataFrame({first: [4.0], second: [1.0]}))
    assert "Prediction: 1" in model.explain({second: 1.0, first: 4.0})
    again = ID3Classifier.from_json(model.to_json())
    with pytest.raises(ValueError, match="different order"):
        again.predict(pd.DataFrame({second: [1.0], first: [4.0]}))


# ------------------------------------------------------------------------------------------------
# 5. memory grows with the file, not with nodes x categories
# ------------------------------------------------------------------------------------------------
def _chain_model(n_splits: int, n_categories: int) -> dict:
    """A valid model: a chain of numeric splits on x, each with a categorical split on c, a
    feature of ``n_categories`` categories, of which each split sees two."""
    from id3tree import entropy_from_counts

    categories = [f"c{i}" for i in range(n_categories)]
    nodes = []

    def add(parent, key, feature, threshold, counts, depth, gain):
        nodes.append(
            {
                "id": len(nodes),
                "parent": parent,
                "key": key,
                "feature": feature,
                "threshold": threshold,
                "counts": counts,
                "entropy": entropy_from_counts(counts),
                "gain": gain,
                "depth": depth,
                "stop_reason": None,
            }
        )
        return len(nodes) - 1

    parent, key = -1, None
    for k in range(n_splits):
        m = n_splits - k
        me = add(parent, key, "x", k + 0.5, [m + 1, m + 1], k, 0.1)
        split = add(me, "<=", "c", None, [1, 1], k + 1, 1.0)
        add(split, categories[0], None, None, [1, 0], k + 2, None)
        add(split, categories[-1], None, None, [0, 1], k + 2, None)
        parent, key = me, ">"
    add(parent, key, None, None, [1, 1], n_splits, None)
    model = _tennis_model().to_dict()
    model.update(
        feature_names=["x", "c"], categories=[None, categories], nodes=nodes, classes=[0, 1]
    )
    return model


def test_loading_memory_grows_with_the_file_not_nodes_times_categories():
    import tracemalloc

    text = json.dumps(_chain_model(2000, 50_000))
    tracemalloc.start()
    try:
        model = ID3Classifier.from_json(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 25 * len(text)  # dense slots would be 2000 x 50,001 x 8 bytes = 800 MB
    X = pd.DataFrame({"x": [0.0, 0.0, 0.0, 1.0, 1.0], "c": ["c0", "c49999", "c7", "c0", None]})
    assert model.predict(X).tolist() == [0, 1, 0, 0, 0]
    assert model.predict_proba(X)[2].tolist() == [0.5, 0.5]  # c7: never seen there, stops
    assert "never seen at this node" in model.explain(X.iloc[[2]])


@pytest.mark.parametrize("name", ["mushroom", "car", "titanic", "hmeq"])
def test_sparse_branches_route_exactly_like_dense_slots(name, monkeypatch):
    from id3tree.datasets import load
    from id3tree.engine import routing

    X, y = load(name, return_X_y=True)
    model = ID3Classifier(max_depth=6).fit(X, y)
    unseen = X.copy()
    for column in unseen.select_dtypes(exclude="number"):
        unseen.loc[unseen.index[::7], column] = "never seen"
        unseen.loc[unseen.index[3::11], column] = None
    dense = [model.predict_proba(unseen), model.apply(unseen)]
    monkeypatch.setattr(routing, "DENSE_SLOTS", 0)
    monkeypatch.setattr(routing, "SPARSE_FACTOR", 0)
    again = ID3Classifier.from_json(model.to_json())
    assert again._compiled.sparse is not None
    np.testing.assert_array_equal(again.predict_proba(unseen), dense[0])
    np.testing.assert_array_equal(again.apply(unseen), dense[1])
    for i in range(0, len(X), max(1, len(X) // 5)):
        assert again.explain(unseen.iloc[[i]]) == model.explain(unseen.iloc[[i]])


def test_keep_trace_is_saved_only_when_it_is_not_the_default():
    X, y = load_play_tennis(return_X_y=True)
    default = ID3Classifier().fit(X, y).to_dict()
    assert "keep_trace" not in default["params"]  # a default model's file is as before
    assert ID3Classifier.from_dict(default).keep_trace == "auto"
    kept = ID3Classifier(keep_trace=True).fit(X, y).to_dict()
    assert kept["params"]["keep_trace"] is True
    assert ID3Classifier.from_dict(kept).keep_trace is True
    assert kept["nodes"] == default["nodes"]


def test_the_model_keeps_arrays_and_makes_its_nodes_on_demand():
    from id3tree.datasets import load_titanic
    from id3tree.io.persistence import node_records
    from id3tree.model.grown_tree import GrownTree
    from id3tree.model.node import feature_importances

    X, y = load_titanic(return_X_y=True)
    X = X.drop(columns=["Name"])
    model = ID3Classifier(max_depth=6).fit(X, y)
    assert model.__dict__.get("_root") is None  # fit made no Node
    model.predict(X), model.predict_proba(X), model.get_depth(), model.get_n_leaves()
    stops = model.apply(X)
    assert model.__dict__.get("_root") is None  # nor did predicting
    root = model.root_
    assert model.root_ is root  # made once, then kept
    nodes = list(root.walk())
    assert model.get_depth() == max(n.depth for n in nodes)
    assert model.get_n_leaves() == sum(n.is_leaf for n in nodes)
    np.testing.assert_array_equal(
        model.feature_importances_, feature_importances(root, model._names)
    )
    # every row stops where walking the Nodes by hand takes it
    for i in range(0, len(X), 7):
        row, node = X.iloc[i], root
        while not node.is_leaf:
            value = row[node.feature]
            if pd.isna(value):
                key = None
            elif node.is_numeric_split:
                key = "<=" if value <= node.threshold else ">"
            else:
                key = value
            if key not in node.children:
                break
            node = node.children[key]
        assert stops[i] == node.node_id
    # Nodes -> arrays -> Nodes gives the same records
    classes = model.classes_.tolist()
    again = GrownTree.from_nodes(root, model._names, model._categories, classes)
    rebuilt = again.nodes(model._names, model._categories, classes)
    assert node_records(rebuilt, classes) == node_records(nodes, classes)


# -------------------------------------------------------------------------------------------------
# pickles are checked as files are: one checker, the same words
# -------------------------------------------------------------------------------------------------
def _weighted_iris_model():
    X, y = load_iris(return_X_y=True)
    return ID3Classifier().fit(X, y, sample_weight=np.full(len(y), 0.5))


def _weighted_tennis_model():
    X, y = load_play_tennis(return_X_y=True)
    return ID3Classifier().fit(X, y, sample_weight=np.full(len(y), 0.5))


def _refusal_of_file(model, change, tmp_path) -> str:
    """The error of loading ``model``'s file once ``change(records)`` damaged its nodes (a file
    on disk; a dict where JSON has no way to write the damage, a NaN)."""
    d = model.to_dict()
    change(d["nodes"])
    with pytest.raises(ValueError) as refused:
        try:
            text = json.dumps(d, allow_nan=False)
        except ValueError:
            ID3Classifier.from_dict(d)
        else:
            (tmp_path / "model.json").write_text(text, encoding="utf-8")
            ID3Classifier.from_json(tmp_path / "model.json")
    return str(refused.value)


def _refusal_of_pickle(model, damage) -> str:
    """The error of unpickling ``model`` once ``damage(tree)`` changed its pickled arrays."""
    state = pickle.loads(pickle.dumps(model)).__getstate__()
    damage(state["_tree"])
    with pytest.raises(ValueError) as refused:
        ID3Classifier.__new__(ID3Classifier).__setstate__(state)
    return str(refused.value)


def _set(field, i, value):
    return lambda records: records[i].__setitem__(field, value)


def _scale_counts(records):
    for r in records:
        r["counts"] = [c * 1e307 for c in r["counts"]]


def _swap_tree_counts(tree):
    tree.counts[1] = tree.counts[1][::-1].copy()


def _overflow_tree_counts(tree):
    tree.counts = tree.counts * 1e307


def _same_tree_ids(tree):
    tree.node_id = np.zeros(len(tree.parent), dtype=np.int64)


def _leaf_tree(tree):  # node 2 (Humidity under Sunny) keeps its children but becomes a leaf
    tree.feature[2] = -1
    tree.gain[2] = np.nan


BAD_STATES = {  # name: (model, damage to a file's records, the same damage to the arrays, words)
    "a NaN threshold": (
        _weighted_iris_model,
        _set("threshold", 0, float("nan")),
        lambda t: t.threshold.__setitem__(0, np.nan),
        "node record 0 has a threshold that is not a finite number: nan",
    ),
    "swapped counts": (
        _tennis_model,
        lambda r: r[1].__setitem__("counts", r[1]["counts"][::-1]),
        _swap_tree_counts,
        r"the counts of the children of node record 0 add up to \[9, 5\], not \[5, 9\]",
    ),
    "duplicate ids": (
        _tennis_model,
        lambda r: [node.__setitem__("id", 0) for node in r],
        _same_tree_ids,
        r"node record 1 has an id that is not a new integer from 0 to 2\*\*63 - 1: 0",
    ),
    "weighted counts that overflow": (
        _weighted_tennis_model,
        _scale_counts,
        _overflow_tree_counts,
        r"node record 0 has counts that add up to 7e\+307, more than 2\*\*500",
    ),
    "an entropy its counts do not give": (
        _tennis_model,
        lambda r: r[2].__setitem__("entropy", r[2]["entropy"] + 0.5),
        lambda t: t.entropy.__setitem__(2, t.entropy[2] + 0.5),
        r"node record 2 has entropy 1\.4709\d+, its counts give 0\.9709\d+",
    ),
    "a root that is its own parent": (
        _tennis_model,
        _set("parent", 0, 0),
        lambda t: t.parent.__setitem__(0, 0),
        r"node record 0 has parent 0: it must be -1 \(the root\) or another record",
    ),
    "a wrong depth": (
        _tennis_model,
        _set("depth", 2, 4),
        lambda t: t.depth.__setitem__(2, 4),
        "node record 2 has depth 4, its place in the tree gives 1",
    ),
    "a leaf with children": (
        _tennis_model,
        lambda r: r[2].update(feature=None, gain=None),
        _leaf_tree,
        "node record 2 has children but splits on no feature",
    ),
    "negative counts": (
        _tennis_model,
        lambda r: r[0]["counts"].__setitem__(0, -1),
        lambda t: t.counts.__setitem__((0, 0), -1),
        r"node record 0: 'counts' must list 2 non-negative numbers, got \[-1, 9\]",
    ),
}


@pytest.mark.timeout(120)  # a hang guard (a loop), not a speed limit
@pytest.mark.parametrize("bad", list(BAD_STATES))
def test_a_bad_state_is_refused_alike_from_a_file_and_from_a_pickle(bad, tmp_path):
    """A pickle whose tree had a NaN threshold, swapped counts or duplicate ids loaded and
    predicted differently, where the same file was refused; now both go through one checker."""
    model, file_damage, array_damage, words = BAD_STATES[bad]
    from_file = _refusal_of_file(model(), file_damage, tmp_path)
    assert re.fullmatch(f"not a valid id3tree model: {words}", from_file)
    assert _refusal_of_pickle(model(), array_damage) == from_file


@pytest.mark.parametrize(
    ("damage", "words"),
    [
        (lambda t: t.slot.__setitem__(1, 7), "node record 1: branch slot 7 is not a category"),
        (lambda t: t.feature.__setitem__(0, 9), "node record 0 splits on 9, which is not a"),
        (lambda t: setattr(t, "depth", t.depth[:-1]), "arrays must all have one entry per node"),
        (lambda t: setattr(t, "parent", None), "the pickled tree is not a tree of arrays"),
    ],
)
def test_damage_only_arrays_can_hold_is_refused_in_the_files_words(damage, words):
    assert words in _refusal_of_pickle(_tennis_model(), damage)


def test_a_pickle_predicts_as_the_model_it_was():
    X, y = load_iris(return_X_y=True)
    for model in (ID3Classifier().fit(X, y), _weighted_iris_model(), _tennis_model()):
        again = pickle.loads(pickle.dumps(model))
        assert again.to_dict() == model.to_dict()
    pruned = ID3Classifier().fit(X, y).prune("pessimistic")  # its node ids skip the pruned
    again = pickle.loads(pickle.dumps(pruned))
    assert again.to_dict() == pruned.to_dict()
    np.testing.assert_array_equal(again.predict_proba(X), pruned.predict_proba(X))


def test_a_node_id_beyond_int64_is_a_clear_error(tmp_path, capsys):
    """predict exited 1 with an OverflowError."""
    X, y = load_play_tennis(return_X_y=True)
    record = ID3Classifier().fit(X, y).to_dict()
    record["nodes"][0]["id"] = 2**70
    with pytest.raises(ValueError, match="an id that is not a new integer from 0 to 2\\*\\*63"):
        ID3Classifier.from_dict(record)
    path = tmp_path / "model.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["predict", str(path), "play_tennis"]) == 2
    assert "2**63" in capsys.readouterr().err


def test_a_weighted_model_whose_counts_overflow_is_refused():
    X, y = load_play_tennis(return_X_y=True)
    record = ID3Classifier().fit(X, y, sample_weight=np.full(len(y), 0.5)).to_dict()
    for node in record["nodes"]:
        node["counts"] = [c * 1e307 for c in node["counts"]]
    with pytest.raises(ValueError, match="more than 2\\*\\*500"):
        ID3Classifier.from_dict(record)
