"""tree.compare(scikit-learn tree): each kind of difference is made on purpose and must be named."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.compose import make_column_transformer
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder
from sklearn.tree import DecisionTreeClassifier

from id3tree import ID3Classifier
from id3tree.datasets import load_iris, load_play_tennis, load_titanic
from id3tree.teaching.compare import KINDS


def test_a_multiway_split_against_one_hot_binary_splits():
    X, y = load_play_tennis(return_X_y=True)
    tree = ID3Classifier().fit(X, y)
    clf = DecisionTreeClassifier(criterion="entropy", random_state=0).fit(pd.get_dummies(X), y)
    result = tree.compare(clf, X, y)
    first = result.table.iloc[0]
    assert (first["node"], first["sklearn_node"], first["kind"]) == (0, 0, "binary vs multiway")
    assert "3 branches" in first["why"] and "Outlook" in first["sklearn"]
    assert "binary vs multiway" in str(result)
    assert set(result.kinds) <= set(KINDS)
    # the same comparison through encoder="get_dummies" and explicit feature names
    again = tree.compare(clf, X, y, encoder="get_dummies")
    assert again.table.equals(result.table)


def test_a_threshold_placed_on_float32_values():
    X = pd.DataFrame({"x": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]})
    y = ["a", "a", "a", "b", "b", "b"]
    tree = ID3Classifier().fit(X, y)
    clf = DecisionTreeClassifier(criterion="entropy").fit(X, y)
    # the two cuts, computed here: the float64 midpoint and the midpoint of float32 values
    assert tree.root_.threshold == 0.3 / 2 + 0.4 / 2
    f32 = float(np.float32(0.3)) / 2 + float(np.float32(0.4)) / 2
    assert clf.tree_.threshold[0] == f32 != tree.root_.threshold
    result = tree.compare(clf, X, y)
    assert result.kinds == ["threshold"]
    assert "float32" in result.table["why"][0] and repr(f32) in result.table["why"][0]
    assert result.n_matched == 3  # the root and both leaves hold the same rows


def test_a_tie_between_identical_columns_broken_another_way():
    rng = np.random.default_rng(0)
    values = rng.normal(size=40)
    X = pd.DataFrame({"first": values, "copy": values})
    y = (values > 0.3).astype(int)
    tree = ID3Classifier().fit(X, y)
    assert tree.root_.feature == "first"  # ID3: the first column wins a tie
    for seed in range(50):  # scikit-learn: the first in a random order of the features
        clf = DecisionTreeClassifier(criterion="entropy", random_state=seed).fit(X, y)
        if clf.tree_.feature[0] == 1:
            break
    else:
        pytest.fail("no random_state made scikit-learn pick the copy")
    result = tree.compare(clf, X, y)
    assert result.kinds[0] == "tie"
    assert "copy" in result.table["sklearn"][0]


def titanic():
    X, y = load_titanic(return_X_y=True)
    return X[["Pclass", "Sex", "Age", "SibSp", "Parch", "Fare", "Embarked"]], y


def test_gini_and_entropy_rank_the_features_differently():
    X, y = titanic()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tree = ID3Classifier(max_depth=3).fit(X, y)
    encode = make_column_transformer(
        (OneHotEncoder(), ["Sex", "Embarked"]), remainder="passthrough"
    )
    pipe = make_pipeline(encode, DecisionTreeClassifier(max_depth=3, random_state=0)).fit(X, y)
    result = tree.compare(pipe, X, y)
    criterion = result.table[result.table["kind"] == "criterion"]
    assert len(criterion) >= 1
    node = int(criterion["node"].iloc[0])
    # independent check: scikit-learn itself, on the rows of that node, with the two features
    # named there, picks ID3's with entropy and its own with gini
    rows = tree.apply(X)
    below = {n.node_id for n in tree.root_.walk() if n.node_id == node for n in n.walk()}
    at = np.isin(rows, [m.node_id for m in tree.root_.walk() if m.node_id in below])
    ours = next(n for n in tree.root_.walk() if n.node_id == node).feature
    theirs = criterion["sklearn"].iloc[0].split(" <=")[0]
    pair = X.loc[at, [ours, theirs]].to_numpy(dtype=float)
    for name, expected in (("entropy", 0), ("gini", 1)):
        stump = DecisionTreeClassifier(criterion=name, max_depth=1, random_state=0)
        assert stump.fit(pair, y[at]).tree_.feature[0] == expected


def test_stopping_rules_on_either_side_are_named():
    X, y = load_iris(return_X_y=True)
    full = ID3Classifier().fit(X, y)
    shallow = DecisionTreeClassifier(criterion="entropy", max_depth=1, random_state=0).fit(X, y)
    result = full.compare(shallow, X, y)
    stops = result.table[result.table["kind"] == "stopping rule"]
    assert len(stops) >= 1 and stops["why"].str.contains("max_depth = 1 reached").all()
    short = ID3Classifier(max_depth=1).fit(X, y)
    deep = DecisionTreeClassifier(criterion="entropy", random_state=0).fit(X, y)
    result = short.compare(deep, X, y)
    stops = result.table[result.table["kind"] == "stopping rule"]
    assert stops["why"].str.startswith("ID3 stops: max_depth = 1 reached").all() and len(stops)


def test_missing_values_with_a_branch_of_their_own():
    X = pd.DataFrame({"x": [1.0, 2.0, 3.0, 4.0, np.nan, np.nan, 5.0, 6.0]})
    y = ["a", "a", "b", "b", "c", "c", "b", "b"]
    tree = ID3Classifier().fit(X, y)
    assert None in tree.root_.children
    clf = DecisionTreeClassifier(criterion="entropy", random_state=0).fit(X, y)
    result = tree.compare(clf, X, y)
    assert result.kinds[0] == "missing values"


def test_agreeing_trees_report_no_departure_and_bad_input_is_named():
    X = pd.DataFrame({"x": [1.0, 2.0, 3.0, 4.0]})
    y = ["a", "a", "b", "b"]
    tree = ID3Classifier().fit(X, y)
    clf = DecisionTreeClassifier(criterion="entropy").fit(X, y)
    result = tree.compare(clf, X, y)
    assert result.table.empty and "agree node for node" in str(result)
    with pytest.raises(TypeError, match="DecisionTreeClassifier"):
        tree.compare(ID3Classifier().fit(X, y), X, y)


def test_ordinal_codes_in_a_pipeline_are_read_as_the_categorical_feature():
    from sklearn.preprocessing import OrdinalEncoder

    X, y = load_play_tennis(return_X_y=True)
    tree = ID3Classifier().fit(X, y)
    pipe = make_pipeline(
        OrdinalEncoder(), DecisionTreeClassifier(criterion="entropy", random_state=0)
    ).fit(X, y)
    result = tree.compare(pipe, X, y)
    assert result.table["kind"][0] == "binary vs multiway"
    assert result.table["sklearn"][0].startswith("Outlook <= ")
