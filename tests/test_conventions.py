"""Course conventions: C4.5's thresholds (``thresholds="c45"``) against hand computations.

Quinlan (1993, C4.5, figure 1-1) grows his golf data (Play Tennis with numeric temperature and
humidity) into a tree that splits the sunny days at humidity <= 75, where a midpoint learner
says 77.5: C4.5 takes "the largest value in the training set that does not exceed the midpoint".
Every number here is worked out in the test from the data, not read from the learner.
"""

from __future__ import annotations

import json
import warnings

import numpy as np
import pandas as pd
import pytest

from id3tree import ID3Classifier, datasets
from id3tree.conventions import compare

GOLF = """\
sunny 75 70 true Play
sunny 80 90 true Don't
sunny 85 85 false Don't
sunny 72 95 false Don't
sunny 69 70 false Play
overcast 72 90 true Play
overcast 83 78 false Play
overcast 64 65 true Play
overcast 81 75 false Play
rain 71 80 true Don't
rain 65 70 true Don't
rain 75 80 false Play
rain 68 80 false Play
rain 70 96 false Play"""
"""Quinlan (1993), C4.5: Programs for Machine Learning, figure 1-1: outlook, temperature (F),
humidity (%), windy, class."""


def golf() -> tuple[pd.DataFrame, pd.Series]:
    rows = [line.split() for line in GOLF.splitlines()]
    X = pd.DataFrame(rows, columns=["outlook", "temperature", "humidity", "windy", "play"])
    X[["temperature", "humidity"]] = X[["temperature", "humidity"]].astype(float)
    return X.drop(columns="play"), X["play"]


def fitted(X, y, **params) -> ID3Classifier:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (identifier-like columns of the shipped data)
        return ID3Classifier(**params).fit(X, y)


def test_golf_is_quinlans_published_tree_with_his_threshold():
    X, y = golf()
    # by hand: the sunny days' humidities, sorted, with their classes
    sunny = X["outlook"] == "sunny"
    pairs = sorted(zip(X.loc[sunny, "humidity"], y[sunny]))
    assert pairs == [(70, "Play"), (70, "Play"), (85, "Don't"), (90, "Don't"), (95, "Don't")]
    low, high = 70.0, 85.0  # the one cut that separates the classes
    middle = (low + high) / 2  # 77.5, the midpoint learner's threshold
    c45 = max(v for v in X["humidity"] if v <= middle)  # over the whole training set
    assert (middle, c45) == (77.5, 75.0)
    for rule, expected in (("midpoint", middle), ("c45", c45)):
        node = fitted(X, y, thresholds=rule).root_
        assert node.feature == "outlook"
        sunny_node = node.children["sunny"]
        assert (sunny_node.feature, sunny_node.threshold) == ("humidity", expected)
        assert node.children["rain"].feature == "windy"
        assert node.children["overcast"].is_leaf


def test_c45_thresholds_move_only_the_cut_not_the_tree():
    X, y = golf()
    mid, c45 = fitted(X, y), fitted(X, y, thresholds="c45")
    assert c45.get_n_leaves() == mid.get_n_leaves()
    np.testing.assert_array_equal(c45.predict(X), mid.predict(X))
    # an unseen humidity between the two thresholds goes the other way
    row = pd.DataFrame([["sunny", 70.0, 76.0, "true"]], columns=X.columns)
    assert (mid.predict(row)[0], c45.predict(row)[0]) == ("Play", "Don't")


def training_values(X: pd.DataFrame, feature: str) -> set[float]:
    return set(X[feature].dropna().astype(float).tolist())


@pytest.mark.parametrize("name", ["iris", "breast_cancer", "titanic", "hmeq"])
def test_every_c45_threshold_is_a_training_value_below_the_midpoint(name):
    X, y = datasets.load(name, return_X_y=True)
    X, y = X.iloc[:400], y.iloc[:400]
    mid, c45 = fitted(X, y), fitted(X, y, thresholds="c45")
    pairs = list(zip(mid.root_.walk(), c45.root_.walk()))
    assert len(pairs) == mid.tree_.node_count if hasattr(mid, "tree_") else len(pairs) > 1
    for a, b in pairs:  # same partition: same features, gains and counts everywhere
        assert (a.feature, a.gain, a.class_counts) == (b.feature, b.gain, b.class_counts)
        if a.threshold is not None:
            assert b.threshold in training_values(X, a.feature)
            assert b.threshold <= a.threshold
            between = [v for v in training_values(X, a.feature) if b.threshold < v <= a.threshold]
            assert between == []  # the largest such value
    np.testing.assert_array_equal(c45.predict(X), mid.predict(X))
    np.testing.assert_array_equal(c45.apply(X), mid.apply(X))
    np.testing.assert_array_equal(c45.predict_proba(X), mid.predict_proba(X))


def test_the_trace_and_the_candidate_table_show_c45_thresholds():
    X, y = golf()
    model = fitted(X, y, thresholds="c45")
    trace = model.trace_.dropna(subset=["threshold"])
    for f, t in zip(trace["feature"], trace["threshold"]):
        assert t in training_values(X, f)
    table = model.candidate_table(node=0, feature="humidity")
    values = sorted(training_values(X, "humidity"))
    assert table["threshold"].tolist() == values[:-1]  # every cut's lower value, at the root


def test_the_printed_trace_says_where_the_cut_goes(capsys):
    X, y = golf()
    fitted(X, y, thresholds="c45", verbose=1)
    out = capsys.readouterr().out
    # (70 + 85) / 2 = 77.5 and the largest training humidity not above it is 75
    cut = "candidate humidity <= 75 (C4.5: largest value <= midpoint 77.5, between 70 and 85)"
    assert cut in out
    text = fitted(X, y, thresholds="c45").to_text()
    assert text.count("humidity <= 75") == 2 and "humidity > 75" in text  # split, both branches


def test_c45_survives_the_model_file_and_old_files_load_as_midpoint():
    X, y = golf()
    model = fitted(X, y, thresholds="c45")
    again = ID3Classifier.from_json(model.to_json())
    assert again.thresholds == "c45"
    assert again.to_text() == model.to_text()
    default = json.loads(fitted(X, y).to_json())
    assert "thresholds" not in default["params"]  # (a default model's file is as before)
    assert ID3Classifier.from_json(json.dumps(default)).thresholds == "midpoint"


@pytest.mark.parametrize("bad", ["C4.5", "mid", None, 1])
def test_an_unknown_threshold_rule_is_named(bad):
    X, y = golf()
    with pytest.raises(ValueError, match="thresholds must be one of"):
        ID3Classifier(thresholds=bad).fit(X, y)


def test_compare_names_the_nodes_where_the_conventions_part():
    X, y = golf()
    result = compare(X, y, "c45", "midpoint")
    assert result.same_structure
    moved = result.nodes[result.nodes["differs"]]
    assert moved["threshold_a"].tolist() == [75.0]  # the sunny days, by the hand count above
    assert moved["threshold_b"].tolist() == [77.5]
    text = str(result)
    assert "humidity <= 75 vs humidity <= 77.5" in text and "largest training value" in text
    same = compare(X, y, {}, {"thresholds": "midpoint"})
    assert same.same_structure and not same.nodes["differs"].any()


def test_compare_finds_different_trees():
    X, y = golf()
    result = compare(X, y, {}, {"criterion": "gain_ratio", "max_depth": 1})
    assert not result.same_structure or result.nodes["differs"].any()


@pytest.mark.parametrize("bad", ["ln2", 3, {"nope": 1}])
def test_compare_names_an_unknown_convention(bad):
    X, y = golf()
    with pytest.raises((ValueError, TypeError), match="convention"):
        compare(X, y, bad, "c45")
