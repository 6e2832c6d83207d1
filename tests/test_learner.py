"""The learner against the textbook, against scikit-learn, and against its own invariants."""

from __future__ import annotations

import math
import pickle
import sys

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from sklearn.datasets import make_classification
from sklearn.exceptions import NotFittedError
from sklearn.model_selection import train_test_split
from sklearn.tree import DecisionTreeClassifier

from id3tree import ID3Classifier, entropy, information_gain
from id3tree.base.diagnostics import IDLikeFeatureWarning
from id3tree.datasets import load, load_iris, load_play_tennis


@pytest.fixture(scope="module")
def tennis():
    return load_play_tennis(return_X_y=True)


@pytest.fixture(scope="module")
def iris():
    return load_iris(return_X_y=True)


def check_invariants(model: ID3Classifier) -> None:
    """Counts add up, entropies and gains lie in their ranges, depths and ids are consistent."""
    k = len(model.classes_)
    for node in model.root_.walk():
        counts = np.array(list(node.class_counts.values()))
        assert counts.sum() == node.n_samples
        assert 0.0 <= node.entropy <= math.log2(k) + 1e-12
        assert node.entropy == pytest.approx(
            stats.entropy(counts, base=2) if counts.sum() else 0.0, abs=1e-12
        )
        if node.is_leaf:
            assert node.gain is None and node.feature is None
            continue
        assert -1e-12 <= node.gain <= node.entropy + 1e-12
        kids = list(node.children.values())
        for c in model.classes_.tolist():
            assert sum(kid.class_counts[c] for kid in kids) == node.class_counts[c]
        assert all(kid.depth == node.depth + 1 and kid.n_samples > 0 for kid in kids)
        after = sum(kid.n_samples * kid.entropy for kid in kids) / node.n_samples
        assert node.gain == pytest.approx(node.entropy - after, abs=1e-12)


# ------------------------------------------------------------------------------------------------
# The textbook
# ------------------------------------------------------------------------------------------------
def test_play_tennis_is_quinlans_tree(tennis):
    X, y = tennis
    model = ID3Classifier().fit(X, y)
    root = model.root_
    assert root.feature == "Outlook"
    assert set(root.children) == {"Sunny", "Overcast", "Rain"}
    assert root.children["Sunny"].feature == "Humidity"
    assert root.children["Rain"].feature == "Wind"
    overcast = root.children["Overcast"]
    assert (
        overcast.is_leaf
        and overcast.prediction == "Yes"
        and overcast.class_counts == {"No": 0, "Yes": 4}
    )
    assert round(root.gain, 4) == 0.2467
    assert root.gain == pytest.approx(information_gain(X["Outlook"], y), abs=1e-15)
    assert root.entropy == pytest.approx(
        -(9 / 14) * math.log2(9 / 14) - (5 / 14) * math.log2(5 / 14)
    )
    assert model.get_depth() == 2 and model.get_n_leaves() == 5
    assert model.score(X, y) == 1.0
    check_invariants(model)


def test_play_tennis_root_candidates_are_the_published_gains(tennis):
    X, y = tennis
    trace = ID3Classifier().fit(X, y).trace_
    root = trace[trace["node"] == 0].set_index("feature")["gain"].round(4)
    assert root.to_dict() == {
        "Outlook": 0.2467,
        "Temperature": 0.0292,
        "Humidity": 0.1518,
        "Wind": 0.0481,
    }


def test_iris_root_and_its_tie(iris):
    X, y = iris
    model = ID3Classifier().fit(X, y)
    root = model.root_
    assert (root.feature, root.threshold) == ("petal_length", 2.45)
    assert root.entropy - root.gain == pytest.approx(2 / 3, abs=1e-12)  # overall entropy
    at_root = model.trace_[model.trace_["node"] == 0].set_index("feature")
    assert at_root.loc["petal_width", "threshold"] == 0.8
    assert at_root.loc["petal_width", "gain"] == at_root.loc["petal_length", "gain"]
    assert at_root["tie"].tolist() == [False, False, True, True]
    assert at_root.loc["petal_length", "chosen"] and not at_root.loc["petal_width", "chosen"]
    check_invariants(model)


def test_iris_numeric_feature_is_reused_deeper(iris):
    X, y = iris
    model = ID3Classifier().fit(X, y)
    paths = [[]]
    used_twice = False
    stack = [(model.root_, [])]
    while stack:
        node, path = stack.pop()
        if not node.is_leaf:
            used_twice |= node.feature in path
            stack.extend((kid, path + [node.feature]) for kid in node.children.values())
    assert used_twice and paths


# ------------------------------------------------------------------------------------------------
# Against scikit-learn
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_matches_sklearn_on_numeric_data_without_ties(seed):
    # well separated classes, no redundant (linearly dependent) columns: splits rarely tie, so the
    # two learners grow the same tree except where scikit-learn's random feature order breaks a
    # tie differently from id3tree's column order
    X, y = make_classification(
        n_samples=10_000,
        n_features=4,
        n_informative=4,
        n_redundant=0,
        class_sep=2.0,
        flip_y=0,
        random_state=seed,
    )
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.3, random_state=seed)
    ours = ID3Classifier().fit(X_train, y_train)
    theirs = DecisionTreeClassifier(criterion="entropy", random_state=seed).fit(X_train, y_train)
    f = theirs.tree_.feature[0]
    assert ours.root_.feature == f"x{f}"
    # scikit-learn cuts the float32 copy of X, so its threshold differs in the 8th digit; the
    # same cut separates the same rows
    assert ours.root_.threshold == pytest.approx(theirs.tree_.threshold[0], rel=1e-6)
    column = X_train[:, f]
    assert (
        (column <= ours.root_.threshold) == (column.astype(np.float32) <= theirs.tree_.threshold[0])
    ).all()
    agreement = (ours.predict(X_test) == theirs.predict(X_test)).mean()
    assert agreement >= 0.99
    check_invariants(ours)


def sklearn_structure(sk) -> list:
    """(feature, threshold) of each node of a scikit-learn tree in breadth-first order."""
    t, out, queue = sk.tree_, [], [0]
    while queue:
        i = queue.pop(0)
        if t.children_left[i] < 0:
            out.append(None)
            continue
        out.append((f"x{t.feature[i]}", round(float(t.threshold[i]), 5)))
        queue += [t.children_left[i], t.children_right[i]]
    return out


def our_structure(model) -> list:
    out, queue = [], [model.root_]
    while queue:
        node = queue.pop(0)
        out.append(None if node.is_leaf else (node.feature, round(node.threshold, 5)))
        queue += list(node.children.values())
    return out


def test_feature_importances_are_weighted_entropy_decrease():
    X, y = make_classification(n_samples=500, n_features=5, n_redundant=0, random_state=3)
    model = ID3Classifier(max_depth=3).fit(X, y)
    expected = np.zeros(5)
    for node in model.root_.walk():
        if not node.is_leaf:
            expected[int(node.feature[1:])] += node.n_samples / 500 * node.gain
    np.testing.assert_allclose(model.feature_importances_, expected / expected.sum(), atol=1e-12)
    sk = DecisionTreeClassifier(criterion="entropy", max_depth=3, random_state=0).fit(X, y)
    assert our_structure(model) == sklearn_structure(sk)  # the same tree...
    np.testing.assert_allclose(model.feature_importances_, sk.feature_importances_, atol=1e-6)


# ------------------------------------------------------------------------------------------------
# Determinism
# ------------------------------------------------------------------------------------------------
def test_same_data_same_tree_whatever_the_row_order():
    X, y = load("car", return_X_y=True)
    first = ID3Classifier().fit(X, y).to_dict()
    again = ID3Classifier().fit(X, y).to_dict()
    order = np.random.default_rng(0).permutation(len(y))
    shuffled = ID3Classifier().fit(X.iloc[order], y.iloc[order]).to_dict()
    assert first == again
    strip = lambda d: [{k: v for k, v in r.items()} for r in d["nodes"]]  # noqa: E731
    assert strip(first) == strip(shuffled)


def test_tied_thresholds_take_the_smallest():
    # x = 1..4 with labels a a b b | splitting at 2.5 is best; duplicate the pattern so that two
    # thresholds tie exactly: labels a b a b over x 1..4 give equal overall entropy at 1.5 and 3.5
    X = np.array([[1.0], [2.0], [3.0], [4.0]])
    y = np.array(["a", "b", "b", "a"])
    model = ID3Classifier(max_depth=1).fit(X, y)
    assert model.root_.threshold == 1.5


# ------------------------------------------------------------------------------------------------
# Missing and unseen values
# ------------------------------------------------------------------------------------------------
def test_missing_values_get_a_branch_of_their_own():
    X = pd.DataFrame(
        {"num": [1.0, 2.0, np.nan, np.nan, 5.0, 6.0], "cat": ["u", "u", None, "v", "v", None]}
    )
    y = ["a", "a", "c", "c", "b", "b"]
    model = ID3Classifier(max_depth=1, categorical="auto").fit(X[["num"]], y)
    assert set(model.root_.children) == {"<=", ">", None}
    assert model.root_.children[None].class_counts == {"a": 0, "b": 0, "c": 2}
    np.testing.assert_array_equal(
        model.predict(pd.DataFrame({"num": [np.nan, 1.5, 5.5]})), ["c", "a", "b"]
    )
    cat = ID3Classifier(max_depth=1).fit(X[["cat"]], y)
    assert None in cat.root_.children and set(cat.root_.children) == {"u", "v", None}
    check_invariants(model)


def test_unseen_category_stops_where_it_is_unknown(tennis):
    X, y = tennis
    model = ID3Classifier().fit(X, y)
    row = pd.DataFrame(
        [{"Outlook": "Foggy", "Temperature": "Hot", "Humidity": "High", "Wind": "Weak"}]
    )
    np.testing.assert_allclose(model.predict_proba(row), [[5 / 14, 9 / 14]])
    deeper = row.assign(Outlook="Sunny", Humidity="Damp")  # known at the root, unknown below
    np.testing.assert_allclose(model.predict_proba(deeper), [[3 / 5, 2 / 5]])
    assert "never seen" in model.explain(deeper.iloc[0])


def test_missing_value_without_a_branch_stops_at_that_node(iris):
    X, y = iris
    model = ID3Classifier().fit(X, y)
    row = X.iloc[[0]].copy()
    row["petal_length"] = np.nan
    np.testing.assert_allclose(model.predict_proba(row), [[1 / 3, 1 / 3, 1 / 3]])


# ------------------------------------------------------------------------------------------------
# Parameters
# ------------------------------------------------------------------------------------------------
def test_max_depth_min_samples_and_min_gain():
    X, y = load("hmeq", return_X_y=True)
    for depth in (0, 1, 3):
        assert ID3Classifier(max_depth=depth).fit(X, y).get_depth() == depth
    leafy = ID3Classifier(min_samples_leaf=25).fit(X, y)
    assert min(n.n_samples for n in leafy.root_.walk() if n.is_leaf) >= 25
    split = ID3Classifier(min_samples_split=200).fit(X, y)
    assert all(n.n_samples >= 200 for n in split.root_.walk() if not n.is_leaf)
    greedy = ID3Classifier(min_gain=0.05).fit(X, y)
    assert all(n.gain >= 0.05 for n in greedy.root_.walk() if not n.is_leaf)
    for model in (leafy, split, greedy):
        check_invariants(model)


def test_alpha_keeps_only_significant_splits():
    X, y = load("hmeq", return_X_y=True)
    model = ID3Classifier(alpha=0.01).fit(X, y)
    full = ID3Classifier().fit(X, y)
    assert model.get_n_leaves() < full.get_n_leaves()
    for node in model.root_.walk():
        if node.is_leaf:
            continue
        table = np.array(
            [[kid.class_counts[c] for c in model.classes_] for kid in node.children.values()]
        )
        table = table[:, table.sum(axis=0) > 0]
        assert stats.chi2_contingency(table, correction=False).pvalue < 0.01
    assert any("not significant" in (n.stop_reason or "") for n in model.root_.walk())


def test_gain_ratio_prefers_fewer_branches():
    X, y = load("titanic", return_X_y=True)
    by_gain = ID3Classifier(max_depth=1).fit(X, y)
    # (without C4.5's average-gain rule, which the ID-like columns defeat: see test_diagnostics)
    by_ratio = ID3Classifier(max_depth=1, criterion="gain_ratio", average_gain_rule=False)
    assert by_gain.root_.feature in ("Name", "PassengerId", "Ticket")  # ID3's known weakness
    assert by_ratio.fit(X, y).root_.feature == "Sex"


def test_categorical_list_treats_coded_numbers_as_categories():
    X, y = load("hmeq", return_X_y=True)
    model = ID3Classifier(max_depth=2, categorical=["DELINQ", "REASON", "JOB"]).fit(X, y)
    nodes = [n for n in model.root_.walk() if n.feature == "DELINQ"]
    assert nodes and all(n.threshold is None and len(n.children) > 2 for n in nodes)


@pytest.mark.parametrize(
    "params, message",
    [
        (dict(criterion="gini"), "criterion"),
        (dict(max_depth=-1), "max_depth"),
        (dict(min_samples_split=1), "min_samples_split"),
        (dict(min_samples_leaf=0), "min_samples_leaf"),
        (dict(min_gain=-0.1), "min_gain"),
        (dict(alpha=0), "alpha"),
        (dict(categorical="some"), "categorical"),
    ],
)
def test_bad_parameters_are_named(tennis, params, message):
    with pytest.raises(ValueError, match=message):
        ID3Classifier(**params).fit(*tennis)


# ------------------------------------------------------------------------------------------------
# Bad input
# ------------------------------------------------------------------------------------------------
def test_bad_input_is_explained(tennis):
    X, y = tennis
    with pytest.raises(ValueError, match="empty"):
        ID3Classifier().fit(X.iloc[:0], y.iloc[:0])
    with pytest.raises(ValueError, match="14 rows but y has 13"):
        ID3Classifier().fit(X, y.iloc[:13])
    with pytest.raises(ValueError, match="missing label"):
        ID3Classifier().fit(X, y.mask(y.index == 3))
    with pytest.raises(ValueError, match="'x'.*infinite"):
        ID3Classifier().fit(pd.DataFrame({"x": [1.0, np.inf, 2.0]}), [0, 1, 0])
    with pytest.raises(ValueError, match="'mixed' mixes numbers and text"):
        ID3Classifier().fit(pd.DataFrame({"mixed": [1, "a", 2]}, dtype=object), [0, 1, 0])
    with pytest.raises(ValueError, match="'Nope'.*not in X"):
        ID3Classifier(categorical=["Nope"]).fit(X, y)
    with pytest.raises(NotFittedError):
        ID3Classifier().predict(X)
    model = ID3Classifier().fit(X, y)
    with pytest.raises(ValueError, match="missing \\['Wind'\\]"):
        model.predict(X.drop(columns="Wind"))
    with pytest.raises(ValueError, match="unexpected \\['Extra'\\]"):
        model.predict(X.assign(Extra=1))
    with pytest.raises(ValueError, match="missing \\['Wind'\\]; unexpected \\['Breeze'\\]"):
        model.predict(X.rename(columns={"Wind": "Breeze"}))
    with pytest.raises(ValueError, match="different order"):
        model.predict(X[X.columns[::-1]])
    with pytest.raises(ValueError, match="'Wind' held text at fit time but holds numbers now"):
        model.predict(X.assign(Wind=1.5))
    coded = ID3Classifier(categorical=["x"]).fit(pd.DataFrame({"x": [1, 2, 1, 2]}), [0, 1, 0, 1])
    with pytest.raises(ValueError, match="'x' held numbers at fit time but holds text now"):
        coded.predict(pd.DataFrame({"x": ["1", "2"]}))
    with pytest.raises(ValueError, match="'x0'.*infinite"):
        ID3Classifier().fit(np.array([[0.0], [1.0]]), [0, 1]).predict(np.array([[np.inf]]))


def test_one_class_gives_one_leaf(tennis):
    X, y = tennis
    model = ID3Classifier().fit(X, ["Yes"] * len(y))
    assert model.root_.is_leaf and model.get_n_leaves() == 1
    assert (model.predict(X) == "Yes").all()
    np.testing.assert_array_equal(model.predict_proba(X), np.ones((len(y), 1)))
    assert model.feature_importances_.tolist() == [0.0] * 4


# ------------------------------------------------------------------------------------------------
# Deep trees and persistence
# ------------------------------------------------------------------------------------------------
def test_a_tree_3000_levels_deep_needs_no_recursion():
    n = 3001  # (three times Python's default recursion limit)
    assert sys.getrecursionlimit() < n // 2
    X = np.arange(n, dtype=float).reshape(-1, 1)
    y = np.arange(n) % 2  # alternating labels: every split peels off one sample
    model = ID3Classifier().fit(X, y)
    assert model.get_depth() == n - 1
    assert (model.predict(X) == y).all()
    text = model.to_text()
    assert text.count("\n") + 1 == 2 * n - 1
    again = ID3Classifier.from_json(model.to_json())
    np.testing.assert_array_equal(again.predict_proba(X), model.predict_proba(X))
    assert (pickle.loads(pickle.dumps(model)).predict(X) == y).all()
    leaf = model.apply([[1500.0]])[0]
    depth = next(node.depth for node in model.root_.walk() if node.node_id == leaf)
    assert model.explain([1500.0]).count("Step") == depth + 1


@pytest.mark.parametrize("name", ["play_tennis", "iris", "hmeq", "titanic", "car"])
def test_json_round_trip_gives_identical_predictions(name, tmp_path):
    X, y = load(name, return_X_y=True)
    model = ID3Classifier(max_depth=None if name != "titanic" else 4).fit(X, y)
    path = tmp_path / "model.json"
    assert model.to_json(path) is None
    for again in (
        ID3Classifier.from_json(path),
        ID3Classifier.from_json(model.to_json()),
        ID3Classifier.from_dict(model.to_dict()),
    ):
        np.testing.assert_array_equal(again.predict(X), model.predict(X))
        np.testing.assert_array_equal(again.predict_proba(X), model.predict_proba(X))
        np.testing.assert_array_equal(again.feature_importances_, model.feature_importances_)
        assert again.to_text() == model.to_text()
        assert again.get_params() == model.get_params()
    with pytest.raises(ValueError, match="not an id3tree model"):
        ID3Classifier.from_dict({"format": "something else"})
    with pytest.raises(ValueError, match="not valid JSON"):
        ID3Classifier.from_json("{oops")


def test_entropy_of_root_is_entropy_of_labels():
    X, y = load("mushroom", return_X_y=True)
    model = ID3Classifier().fit(X, y)
    assert model.root_.entropy == pytest.approx(entropy(y), abs=1e-15)
    assert model.root_.feature == "odor"
    assert model.score(X, y) == 1.0
    check_invariants(model)


def test_a_column_of_distinct_strings_costs_no_more_than_its_rows():
    rng = np.random.default_rng(0)
    n = 20_000
    X = pd.DataFrame(
        {
            "id": [f"s{i}" for i in range(n)],
            "a": rng.choice(list("abc"), n),
            "x": rng.normal(size=n),
        }
    )
    y = (X["a"] == "a").to_numpy() ^ (X["x"] > 0).to_numpy()
    # exercises both sparse paths; C4.5's average-gain rule is off: under XOR only "id" has
    # more than average gain, and its one-row branches fail the chi-square test
    model = ID3Classifier(criterion="gain_ratio", alpha=0.01, average_gain_rule=False)
    model.fit(X, y)
    assert model.score(X, y) == 1.0
    by_gain = ID3Classifier(max_depth=1).fit(X, y)
    assert by_gain.root_.feature == "id" and len(by_gain.root_.children) == n


def test_labels_are_checked_as_classes_whatever_their_number():
    # a few integer labels skip scikit-learn's target check, which could not object to them;
    # fractions are still refused, and more than 20 integer classes still get its warning
    import warnings

    X = np.arange(60.0).reshape(-1, 1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # (X is a row number: kept, not warned of)
        ID3Classifier(id_like="keep").fit(X, np.arange(60) % 20)
    with pytest.raises(ValueError, match="Unknown label type"):
        ID3Classifier().fit(X, np.arange(60) / 7)
    with pytest.warns(UserWarning, match="unique classes is greater than 50%"):
        ID3Classifier().fit(X, np.arange(60) % 30)


def test_the_trace_is_made_when_first_read_and_travels_with_the_model():
    # a quiet fit keeps the levels' scores and makes trace_'s columns only when asked: the
    # same table then, after a pickle too, and the chosen splits agree with the tree
    X, y = make_classification(n_samples=300, n_features=5, random_state=1)
    model = ID3Classifier().fit(X, y)
    assert model._trace_columns._columns is None  # not made by fit
    copy = pickle.loads(pickle.dumps(model))
    trace = model.trace_
    pd.testing.assert_frame_equal(copy.trace_, trace)
    chosen = trace[trace["chosen"]].set_index("node")
    for node in model.root_.walk():
        if not node.is_leaf:
            assert chosen.loc[node.node_id, "threshold"] == node.threshold


# ---------------------------------------------------------------------------------------------
# id_like: what the learner does with a column that looks like an identifier
# ---------------------------------------------------------------------------------------------
TITANIC_IDS = ["Name", "Ticket", "PassengerId", "Cabin"]  # one row per value, or a row number


@pytest.fixture(scope="module")
def titanic():
    from id3tree.datasets import load_titanic

    return load_titanic(return_X_y=True)


def _id_like_warnings(model, X, y, **fit):
    import warnings

    from id3tree.base.diagnostics import IDLikeFeatureWarning

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model.fit(X, y, **fit)
    return [w.message for w in caught if w.category is IDLikeFeatureWarning]


def test_id_like_drop_grows_the_tree_the_columns_left_out_would_give(titanic):
    X, y = titanic
    dropped = ID3Classifier(id_like="drop", max_depth=3)
    said = _id_like_warnings(dropped, X, y)
    assert [m.feature for m in said] == TITANIC_IDS  # each named, in the order found
    assert all("left out" in str(m) and "id_like='drop'" in str(m) for m in said)
    assert "split 891 rows into 891 branches" in str(said[0])
    # the reference: the same learner on the frame without those columns, by hand
    by_hand = ID3Classifier(max_depth=3, id_like="keep").fit(X.drop(columns=TITANIC_IDS), y)
    assert dropped.to_text() == by_hand.to_text()
    assert dropped.trace_.equals(by_hand.trace_)
    # the model takes every column, as fitted; those left out weigh nothing
    assert dropped.n_features_in_ == X.shape[1]
    assert list(dropped.feature_names_in_) == list(X.columns)
    kept = [c not in TITANIC_IDS for c in X.columns]
    np.testing.assert_array_equal(dropped.feature_importances_[~np.array(kept)], 0.0)
    np.testing.assert_allclose(
        dropped.feature_importances_[np.array(kept)], by_hand.feature_importances_
    )
    np.testing.assert_array_equal(dropped.predict(X), by_hand.predict(X[by_hand.feature_names_in_]))
    # saved and loaded, pickled and unpickled: the same model, the choice kept
    for again in (ID3Classifier.from_json(dropped.to_json()), pickle.loads(pickle.dumps(dropped))):
        np.testing.assert_array_equal(again.predict(X), dropped.predict(X))
        assert again.id_like == "drop"


def test_id_like_drop_keeps_the_teaching_tools_on_the_columns_grown_on(titanic):
    X, y = titanic
    dropped = ID3Classifier(id_like="drop", max_depth=2)
    _id_like_warnings(dropped, X, y)
    by_hand = ID3Classifier(max_depth=2).fit(X.drop(columns=TITANIC_IDS), y)
    for feature in ("Sex", "Fare", "Embarked"):  # Fare and Embarked come after columns left out
        for node in (0, 1):
            pd.testing.assert_frame_equal(
                dropped.candidate_table(node, feature), by_hand.candidate_table(node, feature)
            )
    assert str(dropped.step(0)) == str(by_hand.step(0))  # no column left out is a candidate


def test_id_like_drop_traces_the_last_growth_only(titanic, capsys):
    X, y = titanic
    _id_like_warnings(ID3Classifier(id_like="drop", max_depth=1, verbose=1), X, y)
    dropped = capsys.readouterr().out
    # (PassengerId wins no split at depth 1: only the columns the growth split on are left out)
    ID3Classifier(max_depth=1, verbose=1).fit(X.drop(columns=["Name", "Ticket", "Cabin"]), y)
    assert dropped == capsys.readouterr().out
    assert "Name" not in dropped


def test_id_like_drop_counts_rows_not_weights(titanic):
    X, y = titanic
    said = _id_like_warnings(
        ID3Classifier(id_like="drop", max_depth=2), X, y, sample_weight=np.full(len(y), 3.0)
    )
    assert [m.feature for m in said] == TITANIC_IDS
    assert "split 891 rows into 891 branches" in str(said[0])  # rows, not 2673 weights


def test_id_like_keep_is_silent_and_warn_is_the_default(titanic):
    X, y = titanic
    warned = _id_like_warnings(ID3Classifier(max_depth=2), X, y)
    assert warned and all("use criterion='gain_ratio' or drop the column" in str(m) for m in warned)
    kept = ID3Classifier(max_depth=2, id_like="keep")
    assert _id_like_warnings(kept, X, y) == []
    assert kept.to_text() == ID3Classifier(max_depth=2, id_like="keep").fit(X, y).to_text()
    assert ID3Classifier().get_params()["id_like"] == "warn"


def test_id_like_drop_refuses_to_leave_no_column():
    X = pd.DataFrame({"id": [f"r{i}" for i in range(30)], "code": [f"c{i}" for i in range(30)]})
    y = np.arange(30) % 2
    with pytest.raises(
        ValueError, match=r"every column looks like an identifier \(\['id', 'code'\]\)"
    ):
        ID3Classifier(id_like="drop").fit(X, y)


@pytest.mark.parametrize("bad", ["drop ", "Warn", None, True])
def test_id_like_must_be_warn_drop_or_keep(bad, tennis):
    with pytest.raises(ValueError, match="id_like"):
        ID3Classifier(id_like=bad).fit(*tennis)


def test_id_like_drop_on_a_fit_that_grows_once_is_refused_not_ignored(titanic):
    """An adapter's fit (Dask) grows the tree once and leaves no column out: with
    id_like="drop" an identifier-like split is then an error naming it, never kept quietly."""
    from types import SimpleNamespace

    from id3tree.engine.fitting import id_like_warnings

    X, y = titanic
    model = ID3Classifier(max_depth=1, id_like="keep").fit(X, y)  # a root split on Name
    model.id_like = "drop"
    grown_once = SimpleNamespace(left_out=None)  # what an adapter's Fitted says
    with pytest.raises(NotImplementedError, match="id_like='drop' is for data in memory.*'Name'"):
        id_like_warnings(model, grown_once)
    model.id_like = "warn"
    assert [IDLikeFeatureWarning(m).feature for m in id_like_warnings(model, grown_once)] == [
        "Name"
    ]


def test_id_like_drop_in_cross_validation_and_grid_search(titanic):
    """Each fold's model takes every column, so held-out rows are predicted as they come, and
    the choice is a parameter a search can tune."""
    import warnings

    from sklearn.model_selection import GridSearchCV, cross_val_score

    from id3tree.base.diagnostics import IDLikeFeatureWarning

    X, y = titanic
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IDLikeFeatureWarning)
        dropped = cross_val_score(ID3Classifier(id_like="drop", max_depth=3), X, y, cv=3)
        by_hand = cross_val_score(ID3Classifier(max_depth=3), X.drop(columns=TITANIC_IDS), y, cv=3)
        search = GridSearchCV(ID3Classifier(max_depth=3), {"id_like": ["keep", "drop"]}, cv=3).fit(
            X, y
        )
    np.testing.assert_array_equal(dropped, by_hand)
    assert search.best_params_ == {"id_like": "drop"}  # Name, Ticket and Cabin generalise badly
