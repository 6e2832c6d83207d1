"""ID3Classifier as a scikit-learn estimator.

* scikit-learn's own estimator checks, one test per check;
* the meta-estimators people use with it: ``clone``, ``Pipeline``, ``cross_val_score``,
  ``GridSearchCV``, and the ``get_params`` / ``set_params`` protocol;
* pandas 3 dtypes (``str``, ``category``, ``bool``, nullable ``Int64`` / ``Float64``, ``object``,
  ``float64`` with NaN) in one frame: which columns are categorical under ``categorical="auto"``,
  and that the column names reach ``feature_names_in_``, ``trace_``, ``to_text()`` and ``explain()``;
* the same data as numpy arrays, whose features are named ``x0, x1, ...``.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.impute import SimpleImputer
from sklearn.model_selection import GridSearchCV, ParameterGrid, cross_val_score
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import FunctionTransformer
from sklearn.utils import get_tags
from sklearn.utils.estimator_checks import parametrize_with_checks
from sklearn.utils.validation import check_is_fitted

from id3tree import ID3Classifier
from id3tree.datasets import load_car, load_iris, load_play_tennis

# -------------------------------------------------------------------------------------------------
# scikit-learn's estimator checks
# -------------------------------------------------------------------------------------------------

# Every scikit-learn check passes: no check is marked as an expected failure. (A check that
# ever needs to be listed here goes in with its reason in words.)
EXPECTED_FAILURES: dict[str, str] = {}


def _expected_failed_checks(estimator):
    return EXPECTED_FAILURES


@parametrize_with_checks(
    [ID3Classifier(), ID3Classifier(id_like="drop")],  # drop: a model of fewer columns inside
    expected_failed_checks=_expected_failed_checks,
    xfail_strict=True,
)
def test_sklearn_estimator_checks(estimator, check):
    check(estimator)


SAMPLE_WEIGHT_CHECKS = {
    "check_sample_weights_pandas_series",
    "check_sample_weights_not_an_array",
    "check_sample_weights_list",
    "check_all_zero_sample_weights_error",
    "check_sample_weights_shape",
    "check_sample_weights_not_overwritten",
    "check_sample_weight_equivalence_on_dense_data",
    "check_classifiers_one_label_sample_weights",
    "check_class_weight_classifiers",
}


def test_the_sample_weight_checks_run_and_are_not_expected_to_fail():
    """fit takes sample_weight and the model has class_weight, so scikit-learn runs its weight
    checks (above, each its own test); none of them is marked as an expected failure."""
    from sklearn.utils.estimator_checks import estimator_checks_generator

    names = {
        check.func.__name__ for _, check in estimator_checks_generator(ID3Classifier(), mark="skip")
    }
    assert SAMPLE_WEIGHT_CHECKS <= names
    assert not SAMPLE_WEIGHT_CHECKS & set(EXPECTED_FAILURES)


def test_input_tags():
    # string=True is honest (arrays and columns of strings are categorical features) and it is
    # what check_dtype_object needs: with string=False that check puts a dict into X and wants
    # numpy's TypeError "argument must be a string or a number", which id3tree does not raise.
    tags = get_tags(ID3Classifier()).input_tags
    assert tags.allow_nan and tags.categorical and tags.string
    assert not tags.sparse


def test_array_of_strings_is_accepted():
    X = np.array([["a", "x"], ["b", "y"], ["a", "y"], ["b", "x"]])
    model = ID3Classifier().fit(X, [0, 1, 0, 1])
    assert model.root_.feature == "x0"
    assert model.root_.threshold is None
    assert set(model.root_.children) == {"a", "b"}
    np.testing.assert_array_equal(model.predict(X), [0, 1, 0, 1])


def _unfitted_call(method):
    X, y = load_play_tennis(return_X_y=True)
    model = ID3Classifier()
    calls = {
        "predict": lambda: model.predict(X),
        "predict_proba": lambda: model.predict_proba(X),
        "score": lambda: model.score(X, y),
        "apply": lambda: model.apply(X),
        "get_depth": model.get_depth,
        "get_n_leaves": model.get_n_leaves,
        "to_text": model.to_text,
        "to_dict": model.to_dict,
        "explain": lambda: model.explain(X.iloc[0]),
        "trace_": lambda: model.trace_,
    }
    return calls[method]


@pytest.mark.parametrize(
    "method",
    [
        "predict",
        "predict_proba",
        "score",
        "apply",
        "get_depth",
        "get_n_leaves",
        "to_text",
        "to_dict",
        "explain",
        "trace_",
    ],
)
def test_unfitted_model_raises_not_fitted_error(method):
    with pytest.raises(NotFittedError):
        _unfitted_call(method)()


# -------------------------------------------------------------------------------------------------
# clone, get_params / set_params
# -------------------------------------------------------------------------------------------------

PARAMS = {
    "criterion": "gain_ratio",
    "max_depth": 3,
    "min_samples_split": 4,
    "min_samples_leaf": 2,
    "min_weight_fraction_leaf": 0.01,
    "min_gain": 0.01,
    "alpha": 0.5,
    "categorical": ["Outlook", "Temperature", "Humidity", "Wind"],
    "class_weight": {"Yes": 1.0, "No": 2.0},
    "ccp_alpha": 0.01,
    "average_gain_rule": False,
    "verbose": 0,
    "numeric_bins": None,
    "keep_trace": True,
    "id_like": "drop",
    "thresholds": "c45",
    "language": "es",
    "log_base": "e",
    "ties": "name",
}


def test_default_params_are_the_documented_ones():
    assert ID3Classifier().get_params() == {
        "criterion": "entropy",
        "max_depth": None,
        "min_samples_split": 2,
        "min_samples_leaf": 1,
        "min_weight_fraction_leaf": 0.0,
        "min_gain": 0.0,
        "alpha": None,
        "categorical": "auto",
        "class_weight": None,
        "ccp_alpha": 0.0,
        "average_gain_rule": True,
        "verbose": 0,
        "numeric_bins": None,
        "keep_trace": "auto",
        "id_like": "warn",
        "thresholds": "midpoint",
        "language": "en",
        "log_base": 2,
        "ties": "first",
    }


def test_get_params_set_params_round_trip():
    model = ID3Classifier()
    assert model.set_params(**PARAMS) is model
    assert model.get_params() == PARAMS
    assert ID3Classifier(**model.get_params()).get_params() == PARAMS
    assert ID3Classifier().set_params(**model.get_params()).get_params() == PARAMS
    with pytest.raises(ValueError, match="Invalid parameter"):
        model.set_params(depth=3)


def test_set_params_changes_the_next_fit():
    X, y = load_iris(return_X_y=True)
    model = ID3Classifier().fit(X, y)
    assert model.get_depth() > 1
    assert model.set_params(max_depth=1).fit(X, y).get_depth() == 1
    assert model.set_params(criterion="nonsense").get_params()["criterion"] == "nonsense"
    with pytest.raises(ValueError, match="criterion"):
        model.fit(X, y)


def test_clone_keeps_params_and_drops_the_fit():
    X, y = load_play_tennis(return_X_y=True)
    model = ID3Classifier(**PARAMS)
    unfitted = clone(model)
    assert unfitted is not model and unfitted.get_params() == PARAMS
    assert unfitted.categorical is not model.categorical  # a deep copy, not a shared list

    model.fit(X, y)
    fresh = clone(model)
    assert fresh.get_params() == model.get_params()
    for attribute in ("root_", "classes_", "n_features_in_", "feature_names_in_"):
        assert not hasattr(fresh, attribute)
    with pytest.raises(NotFittedError):
        check_is_fitted(fresh)
    np.testing.assert_array_equal(fresh.fit(X, y).predict(X), model.predict(X))


# -------------------------------------------------------------------------------------------------
# Pipeline, cross_val_score, GridSearchCV
# -------------------------------------------------------------------------------------------------


def _play_tennis():
    return load_play_tennis(return_X_y=True)


@pytest.mark.parametrize(
    "load", [_play_tennis, lambda: _mixed_frame()], ids=["play_tennis", "mixed"]
)
def test_pipeline_passes_a_dataframe_through(load):
    X, y = load()
    pipe = Pipeline(
        [
            ("identity", FunctionTransformer(feature_names_out="one-to-one")),
            ("id3", ID3Classifier()),
        ]
    )
    pipe.fit(X, y)
    tree = pipe.named_steps["id3"]
    np.testing.assert_array_equal(tree.feature_names_in_, np.asarray(X.columns, dtype=object))
    np.testing.assert_array_equal(pipe.feature_names_in_, tree.feature_names_in_)
    np.testing.assert_array_equal(pipe[:-1].get_feature_names_out(), X.columns)
    direct = ID3Classifier().fit(X, y)
    np.testing.assert_array_equal(pipe.predict(X), direct.predict(X))
    np.testing.assert_array_equal(pipe.predict_proba(X), direct.predict_proba(X))
    assert pipe.score(X, y) == direct.score(X, y)
    assert tree.to_text() == direct.to_text()


def _iris_with_holes():
    X, y = load_iris(return_X_y=True)
    X = X.copy()
    holes = np.random.default_rng(0).random(X.shape) < 0.1
    X = X.mask(holes)
    assert X.isna().to_numpy().sum() > 30
    return X, y


def test_pipeline_with_simple_imputer_numpy_output():
    X, y = _iris_with_holes()
    pipe = make_pipeline(SimpleImputer(strategy="median"), ID3Classifier(max_depth=4))
    pipe.fit(X, y)
    tree = pipe[-1]
    # SimpleImputer hands the tree a numpy array: features x0..x3, no feature_names_in_.
    assert tree.n_features_in_ == 4
    assert not hasattr(tree, "feature_names_in_")
    assert {n.feature for n in tree.root_.walk() if not n.is_leaf} <= {"x0", "x1", "x2", "x3"}
    assert all(n.threshold is not None for n in tree.root_.walk() if not n.is_leaf)
    assert pipe.score(X, y) > 0.9
    assert cross_val_score(pipe, X, y, cv=5).mean() > 0.85


def test_pipeline_with_simple_imputer_pandas_output():
    X, y = _iris_with_holes()
    pipe = make_pipeline(SimpleImputer(strategy="median"), ID3Classifier(max_depth=4))
    pipe.set_output(transform="pandas")
    pipe.fit(X, y)
    tree = pipe[-1]
    np.testing.assert_array_equal(tree.feature_names_in_, np.asarray(X.columns, dtype=object))
    assert {n.feature for n in tree.root_.walk() if not n.is_leaf} <= set(X.columns)
    imputed = SimpleImputer(strategy="median").fit_transform(X)
    np.testing.assert_array_equal(
        pipe.predict(X), ID3Classifier(max_depth=4).fit(imputed, y).predict(imputed)
    )


def test_cross_val_score_on_iris():
    X, y = load_iris(return_X_y=True)
    scores = cross_val_score(ID3Classifier(), X, y, cv=5, scoring="accuracy", error_score="raise")
    assert scores.shape == (5,)
    assert scores.mean() > 0.9


GRID = {"max_depth": [1, 2, 3, None], "criterion": ["entropy", "gain_ratio"]}


@pytest.mark.parametrize(
    ("load", "cv"),
    [(load_play_tennis, 3), (load_iris, 5), (load_car, 5)],
    ids=lambda p: getattr(p, "__name__", str(p)),
)
def test_grid_search(load, cv):
    X, y = load(return_X_y=True)
    search = GridSearchCV(ID3Classifier(), GRID, cv=cv, error_score="raise").fit(X, y)
    assert search.best_params_ in list(ParameterGrid(GRID))
    assert np.isfinite(search.cv_results_["mean_test_score"]).all()
    assert len(search.cv_results_["params"]) == 8

    best = search.best_estimator_
    check_is_fitted(best)
    for name, value in search.best_params_.items():
        assert best.get_params()[name] == value
    np.testing.assert_array_equal(best.feature_names_in_, np.asarray(X.columns, dtype=object))
    refit = ID3Classifier(**search.best_params_).fit(X, y)
    np.testing.assert_array_equal(search.predict(X), refit.predict(X))
    np.testing.assert_array_equal(search.predict_proba(X), refit.predict_proba(X))
    assert best.to_text() == refit.to_text()
    if load is load_iris:
        assert search.best_score_ > 0.9


def test_grid_search_over_a_pipeline():
    X, y = load_play_tennis(return_X_y=True)
    pipe = Pipeline([("identity", FunctionTransformer()), ("id3", ID3Classifier())])
    grid = {"id3__max_depth": [1, None], "id3__criterion": ["entropy", "gain_ratio"]}
    search = GridSearchCV(pipe, grid, cv=3, error_score="raise").fit(X, y)
    assert search.best_params_ in list(ParameterGrid(grid))
    assert (
        search.best_estimator_.named_steps["id3"].max_depth == search.best_params_["id3__max_depth"]
    )
    assert search.predict(X).shape == (len(X),)


# -------------------------------------------------------------------------------------------------
# pandas 3 dtypes
# -------------------------------------------------------------------------------------------------

CATEGORICAL = ["color", "size", "flag", "shape"]  # str, category, bool, object
NUMERIC = ["count", "amount", "temp"]  # Int64, Float64, float64
COLUMNS = ["color", "size", "flag", "count", "amount", "shape", "temp"]


def _mixed_frame(n=160, seed=0):
    """One frame with every kind of column, missing values in most, and a class that depends on
    all seven features (the parity of one indicator per feature), so the tree uses all of them."""
    rng = np.random.default_rng(seed)
    color = rng.choice(["red", "green", "blue"], n).astype(object)
    size = rng.choice(["S", "M", "L"], n)
    flag = rng.random(n) < 0.5
    count = rng.integers(0, 10, n)
    amount = rng.normal(size=n).round(2)
    shape = rng.choice(["round", "square"], n).astype(object)
    temp = rng.normal(20, 5, n).round(1)
    bits = (
        (color == "red").astype(int)
        + (size == "L")
        + flag
        + (count > 4)
        + (amount > 0)
        + (shape == "square")
        + (temp > 20)
    )
    y = np.array(["no", "yes"])[bits % 2]
    color[[0, 11]] = None
    shape[4] = None
    frame = pd.DataFrame(
        {
            "color": pd.array(color, dtype="str"),
            "size": pd.Categorical(size, categories=["S", "M", "L"]),
            "flag": flag,
            "count": pd.array(count, dtype="Int64"),
            "amount": pd.array(amount, dtype="Float64"),
            "shape": pd.Series(shape, dtype=object),
            "temp": temp,
        }
    )
    frame.loc[[1, 5], "count"] = pd.NA
    frame.loc[[2, 7], "amount"] = pd.NA
    frame.loc[[3, 9], "temp"] = np.nan
    return frame, y


@pytest.fixture(scope="module")
def mixed():
    return _mixed_frame()


@pytest.fixture(scope="module")
def mixed_model(mixed):
    X, y = mixed
    return ID3Classifier().fit(X, y)


def _splits(model):
    return [node for node in model.root_.walk() if not node.is_leaf]


def _mentions(text, name):
    return re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", text) is not None


def test_mixed_frame_has_the_intended_dtypes(mixed):
    X, _ = mixed
    assert list(X.columns) == COLUMNS
    assert X["color"].dtype == "str" and X["color"].dtype != object
    assert isinstance(X["size"].dtype, pd.CategoricalDtype)
    assert X["flag"].dtype == bool
    assert X["count"].dtype == "Int64" and X["count"].isna().sum() == 2
    assert X["amount"].dtype == "Float64" and X["amount"].isna().sum() == 2
    assert X["shape"].dtype == object and X["shape"].isna().sum() == 1
    assert X["temp"].dtype == np.float64 and X["temp"].isna().sum() == 2
    assert X["color"].isna().sum() == 2


def test_mixed_frame_feature_names(mixed, mixed_model):
    X, _ = mixed
    assert mixed_model.n_features_in_ == 7
    assert isinstance(mixed_model.feature_names_in_, np.ndarray)
    assert mixed_model.feature_names_in_.dtype == object
    assert mixed_model.feature_names_in_.tolist() == COLUMNS


def test_auto_categorical_kinds_in_the_tree(mixed, mixed_model):
    X, _ = mixed
    splits = _splits(mixed_model)
    assert {node.feature for node in splits} == set(COLUMNS)  # the data is built for that
    for node in splits:
        keys = set(node.children)
        if node.feature in CATEGORICAL:
            assert node.threshold is None and not node.is_numeric_split, node
            values = set(X[node.feature].dropna().tolist())
            assert keys - {None} <= values, (node, keys)
            assert "<=" not in keys and ">" not in keys
        else:
            assert isinstance(node.threshold, float) and node.is_numeric_split, node
            assert {"<=", ">"} <= keys <= {"<=", ">", None}, (node, keys)
            column = X[node.feature].dropna().astype(float)
            assert column.min() <= node.threshold < column.max()


@pytest.mark.parametrize("column", COLUMNS)
def test_auto_categorical_one_column(mixed, column):
    """A model on one column alone splits on it at the root, in the way its dtype calls for."""
    X, _ = mixed
    values = X[column]
    if column in CATEGORICAL:
        labels = ["missing" if pd.isna(v) else f"v{v}" for v in values]
    else:
        median = values.dropna().astype(float).median()
        labels = ["missing" if pd.isna(v) else ("high" if v > median else "low") for v in values]
    model = ID3Classifier().fit(X[[column]], labels)
    root = model.root_
    assert root.feature == column
    has_missing = bool(values.isna().any())
    expected_missing = {None} if has_missing else set()
    if column in CATEGORICAL:
        assert root.threshold is None
        assert set(root.children) == set(values.dropna().tolist()) | expected_missing
        if column == "size":  # a category column branches in the order of its categories
            assert list(root.children)[:3] == ["S", "M", "L"]
        if column == "flag":
            assert set(root.children) == {False, True}
    else:
        assert isinstance(root.threshold, float)
        assert set(root.children) == {"<=", ">"} | expected_missing
    assert model.score(X[[column]], labels) == 1.0


def test_names_in_trace(mixed_model):
    trace = mixed_model.trace_
    named = set(trace["feature"].dropna())
    assert named == set(COLUMNS)
    root_rows = trace[trace["node"] == 0]
    assert set(root_rows["feature"]) == set(COLUMNS)
    chosen = root_rows[root_rows["chosen"].astype(bool)]
    assert chosen["feature"].tolist() == [mixed_model.root_.feature]


def test_names_in_to_text(mixed_model):
    text = mixed_model.to_text()
    for name in COLUMNS:
        assert _mentions(text, name), name
    for node in _splits(mixed_model):
        if node.feature in CATEGORICAL:
            for key in node.children:
                if key is not None:
                    assert f"{node.feature} = {key}" in text
        else:
            assert f"{node.feature} <= " in text and f"{node.feature} > " in text


def _path_features(model, node_id):
    """The features tested on the way from the root to the node ``node_id``."""
    parent = {child.node_id: node for node, _, child in model.root_.iter_edges()}
    features = []
    while node_id in parent:
        node = parent[node_id]
        features.append(node.feature)
        node_id = node.node_id
    return features


@pytest.mark.parametrize("row", [0, 1, 2, 3, 4, 7, 11, 42, 159])
def test_names_in_explain(mixed, mixed_model, row):
    X, _ = mixed
    text = mixed_model.explain(X.iloc[row])
    assert text == mixed_model.explain(X.iloc[[row]])
    assert text == mixed_model.explain(X.iloc[row].to_dict())
    assert text == mixed_model.explain(list(X.iloc[row]))
    stop = mixed_model.apply(X.iloc[[row]])[0]
    features = _path_features(mixed_model, stop)
    assert features, "every row passes at least the root split"
    for name in features:
        assert _mentions(text, name), (name, text)
    assert str(mixed_model.predict(X.iloc[[row]])[0]) in text


@pytest.mark.parametrize(
    "as_object", [["color"], ["size"], ["color", "size"], ["color", "size", "flag"]]
)
def test_string_dtypes_predict_like_object_dtypes(mixed, mixed_model, as_object):
    X, y = mixed
    X_obj = X.astype(dict.fromkeys(as_object, object))
    assert all(X_obj[c].dtype == object for c in as_object)
    model_obj = ID3Classifier().fit(X_obj, y)
    assert model_obj.feature_names_in_.tolist() == COLUMNS
    assert model_obj.get_depth() == mixed_model.get_depth()
    assert model_obj.get_n_leaves() == mixed_model.get_n_leaves()
    np.testing.assert_allclose(model_obj.feature_importances_, mixed_model.feature_importances_)
    kinds = {n.feature: n.is_numeric_split for n in _splits(mixed_model)}
    assert {n.feature: n.is_numeric_split for n in _splits(model_obj)} == kinds

    X_new, _ = _mixed_frame(n=300, seed=1)  # new combinations, unseen paths included
    X_new_obj = X_new.astype(dict.fromkeys(as_object, object))
    for data, data_obj in ((X, X_obj), (X_new, X_new_obj)):
        expected = mixed_model.predict(data)
        np.testing.assert_array_equal(model_obj.predict(data_obj), expected)
        np.testing.assert_array_equal(
            model_obj.predict_proba(data_obj), mixed_model.predict_proba(data)
        )
        # each model also accepts the other's dtypes
        np.testing.assert_array_equal(mixed_model.predict(data_obj), expected)
        np.testing.assert_array_equal(model_obj.predict(data), expected)


# -------------------------------------------------------------------------------------------------
# numpy arrays
# -------------------------------------------------------------------------------------------------

X_NAMES = [f"x{i}" for i in range(7)]


def test_numpy_features_are_named_x0_x1(mixed):
    X, y = mixed
    A = X.to_numpy()
    assert A.dtype == object and A.shape == (160, 7)
    model = ID3Classifier().fit(A, y)
    assert not hasattr(model, "feature_names_in_")
    assert model.n_features_in_ == 7
    assert set(model.trace_["feature"].dropna()) == set(X_NAMES)
    used = {node.feature for node in _splits(model)}
    assert used and used <= set(X_NAMES)
    text = model.to_text()
    for name in used:
        assert _mentions(text, name)
    for name in COLUMNS:
        assert not _mentions(text, name)
    explained = model.explain(A[0])
    assert _mentions(explained, model.root_.feature)
    assert model.predict(A).shape == (160,)


def test_numpy_with_nan_fits_the_same_tree_as_the_frame(mixed, mixed_model):
    X, y = mixed
    A = X.to_numpy(dtype=object, na_value=np.nan)
    model = ID3Classifier().fit(A, y)
    position = {name: i for i, name in enumerate(COLUMNS)}
    assert {n.feature: n.is_numeric_split for n in _splits(model)} == {
        f"x{position[n.feature]}": n.is_numeric_split for n in _splits(mixed_model)
    }
    assert model.get_n_leaves() == mixed_model.get_n_leaves()
    X_new, _ = _mixed_frame(n=300, seed=1)
    A_new = X_new.to_numpy(dtype=object, na_value=np.nan)
    np.testing.assert_array_equal(model.predict(A_new), mixed_model.predict(X_new))
    np.testing.assert_array_equal(model.predict_proba(A_new), mixed_model.predict_proba(X_new))


def test_numpy_with_pd_na_keeps_numeric_columns_numeric(mixed, mixed_model):
    X, y = mixed
    model = ID3Classifier().fit(X.to_numpy(), y)  # pd.NA kept in the Int64/Float64 columns
    position = {name: i for i, name in enumerate(COLUMNS)}
    assert {n.feature: n.is_numeric_split for n in _splits(model)} == {
        f"x{position[n.feature]}": n.is_numeric_split for n in _splits(mixed_model)
    }


def test_numeric_numpy_array():
    X, y = load_iris(return_X_y=True)
    model = ID3Classifier().fit(X.to_numpy(), y)
    assert not hasattr(model, "feature_names_in_")
    assert model.n_features_in_ == 4
    assert all(node.is_numeric_split for node in _splits(model))
    assert {node.feature for node in _splits(model)} <= {"x0", "x1", "x2", "x3"}
    named = ID3Classifier().fit(X, y)
    np.testing.assert_array_equal(model.predict(X.to_numpy()), named.predict(X))
    with pytest.warns(UserWarning, match="fitted without feature names"):
        model.predict(X)


def test_refit_on_numpy_drops_feature_names(mixed):
    X, y = mixed
    model = ID3Classifier().fit(X, y)
    assert hasattr(model, "feature_names_in_")
    model.fit(X.to_numpy(dtype=object, na_value=np.nan), y)
    assert not hasattr(model, "feature_names_in_")
    assert model.n_features_in_ == 7
    assert model.root_.feature in X_NAMES
    model.fit(X.iloc[:, :3], y)
    assert model.feature_names_in_.tolist() == COLUMNS[:3]
    assert model.n_features_in_ == 3
