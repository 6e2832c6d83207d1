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
    assert result.kinds == []  # the same rows each side: not a departure, a note
    assert len(result.notes) == 1 and "float32" in result.notes[0]
    assert "At 1 node" in result.notes[0] and f"{f32:.10g}" in result.notes[0]
    assert result.notes[0] in str(result)
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


# -------------------------------------------------------------------------------------------------
# hardening: the real cause named, float32 noise said once, careless arguments told clearly
# -------------------------------------------------------------------------------------------------
def test_a_feature_named_with_a_double_underscore_is_itself():
    """a__b was read as column b of a transformer a: a departure from itself ("tie")."""
    X = pd.DataFrame({"a__b": [1.0, 2, 3, 4, 5, 6], "c": [0, 1, 0, 1, 0, 1]})
    y = ["p", "p", "p", "q", "q", "q"]
    tree = ID3Classifier().fit(X, y)
    clf = DecisionTreeClassifier(criterion="entropy", random_state=0).fit(X, y)
    result = tree.compare(clf, X, y)
    assert result.table.empty and result.n_matched == 3


def test_min_samples_leaf_names_the_small_branch_of_missing_values():
    """It blamed "max_features, class_weight, ...": ID3 could not split on Age because its
    branch of missing values would hold fewer rows than min_samples_leaf."""
    X, y = titanic()
    tree = ID3Classifier(min_samples_leaf=5).fit(X, y)
    clf = DecisionTreeClassifier(criterion="entropy", min_samples_leaf=5, random_state=0)
    result = tree.compare(clf.fit(pd.get_dummies(X), y), X, y)
    assert "other" not in result.kinds
    assert not result.table["why"].str.contains("settings").any()
    small = result.table[result.table["why"].str.contains("branch of missing values would get")]
    assert len(small) >= 1 and (small["kind"] == "missing values").all()
    leaf_of = tree.apply(X)
    for row in small.itertuples():  # independent count: the node's rows with no Age
        node = next(n for n in tree.root_.walk() if n.node_id == row.node)
        rows = np.isin(leaf_of, [n.node_id for n in node.walk()])
        n_missing = int(X.loc[rows, "Age"].isna().sum())
        assert 0 < n_missing < 5 and f"would get {n_missing} row" in row.why


def test_values_filled_before_the_classifier_was_fitted_are_named():
    """After fillna(-1) it blamed settings; the cause is the filling."""
    X, y = titanic()
    X = X.drop(columns=["Embarked"])
    tree = ID3Classifier(max_depth=3).fit(X, y)
    filled = pd.get_dummies(X.fillna({"Age": -1}))
    clf = DecisionTreeClassifier(criterion="entropy", random_state=0).fit(filled, y)
    with pytest.raises(ValueError, match=r"missing values of Age .*fillna"):
        tree.compare(clf, X, y)
    from sklearn.impute import SimpleImputer

    fill = make_column_transformer(
        (SimpleImputer(strategy="constant", fill_value=-1), ["Age"]),
        (OneHotEncoder(), ["Sex"]),
        remainder="passthrough",
    )
    pipe = make_pipeline(fill, DecisionTreeClassifier(criterion="entropy", max_depth=3))
    result = tree.compare(pipe.fit(X, y), X, y)
    assert not result.table["why"].str.contains("settings").any()
    named = result.table[result.table["why"].str.contains("filled")]
    assert len(named) >= 1 and (named["kind"] == "missing values").all()


def test_float32_noise_is_one_note_not_departures():
    """28.85625 against 28.85624981 was three departures of four."""
    X, y = titanic()
    tree = ID3Classifier(max_depth=3).fit(X, y)
    clf = DecisionTreeClassifier(criterion="entropy", max_depth=3, random_state=0)
    result = tree.compare(clf.fit(pd.get_dummies(X), y), X, y)
    assert "threshold" not in result.kinds and "threshold" not in KINDS
    assert len(result.notes) == 1 and str(result).count("float32") == 1
    assert "Fare 28.85625 and 28.85624981" in result.notes[0]
    assert float(np.float32(28.7125)) / 2 + 29 / 2 == pytest.approx(28.85624981, abs=1e-8)


def _careless_cases():
    from sklearn.preprocessing import StandardScaler

    X, y = load_play_tennis(return_X_y=True)
    clf = DecisionTreeClassifier(criterion="entropy", random_state=0).fit(pd.get_dummies(X), y)
    tennis = ID3Classifier().fit(X, y)
    Xi, yi = load_iris(return_X_y=True)
    iris = ID3Classifier().fit(Xi, yi)
    unseen = np.where(np.arange(14) == 3, "Maybe", y)
    return {
        "unfitted ID3": (lambda: ID3Classifier().compare(clf, X, y), "ID3 tree is not fitted"),
        "unfitted sklearn": (
            lambda: tennis.compare(DecisionTreeClassifier(), X, y),
            "DecisionTreeClassifier is not fitted",
        ),
        "None": (lambda: tennis.compare(None, X, y), "got NoneType"),
        "a string": (lambda: tennis.compare("tree", X, y), "got str"),
        "a scaler pipeline": (
            lambda: iris.compare(make_pipeline(StandardScaler()).fit(Xi), Xi, yi),
            "got a Pipeline ending in StandardScaler",
        ),
        "a subset of rows": (
            lambda: tennis.compare(clf, X.iloc[:10], y[:10]),
            "10 of them reach its node 0, which it was fitted with 14",
        ),
        "an unseen class": (lambda: tennis.compare(clf, X, unseen), "'Maybe' \\(row 3\\)"),
        "a missing label": (
            lambda: tennis.compare(clf, X, pd.Series(y).where(np.arange(14) != 2)),
            "missing label at row 2",
        ),
        "y of another length": (lambda: tennis.compare(clf, X, y[:-1]), "13 labels but X has 14"),
        "encoder='bogus'": (
            lambda: tennis.compare(clf, X, y, encoder="bogus"),
            "encoder must be None, 'get_dummies'",
        ),
        "X None": (lambda: tennis.compare(clf, None, y), "X must be the training rows"),
    }


@pytest.mark.parametrize("case", list(_careless_cases()))
def test_careless_arguments_get_clear_errors_from_compare(case):
    call, words = _careless_cases()[case]
    with pytest.raises((TypeError, ValueError), match=words) as raised:
        call()
    assert raised.traceback[-1].path.name == "compare.py"  # said by compare, not by numpy


def test_a_text_category_nan_is_a_category_not_the_missing_values():
    X, y = load_play_tennis(return_X_y=True)
    X = X.assign(Outlook=X["Outlook"].replace("Rain", "nan"))
    tree = ID3Classifier().fit(X, y)
    clf = DecisionTreeClassifier(criterion="entropy", random_state=0).fit(pd.get_dummies(X), y)
    result = tree.compare(clf, X, y)  # (a shape error from pandas before)
    assert result.kinds[0] == "binary vs multiway"
    from id3tree.teaching.compare import map_columns

    assert map_columns(["Outlook_nan"], tree)[0].category == "nan"
    X.loc[0, "Temperature"] = None  # a missing value: its own column, beside the category
    tree = ID3Classifier().fit(X, y)
    dummies = pd.get_dummies(X).assign(Temperature_nan=X["Temperature"].isna())
    clf = DecisionTreeClassifier(criterion="entropy", random_state=0).fit(dummies, y)
    assert not tree.compare(clf, X, y).table.empty
    assert map_columns(["Temperature_nan"], tree)[0].category is None
