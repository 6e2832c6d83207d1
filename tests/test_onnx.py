"""A tree exported to ONNX (id3tree.io.onnx) and run by onnxruntime answers what predict and
predict_proba answer: the labels exactly, the probabilities as float32 (each is one leaf's class
share, so the float32 of predict_proba's value, bit for bit). The references are the learner's own
predictions and, independently, the textbook's walk of each row (textbook.predict_row), on every
shipped data set and on random tables with missing values and categories never seen in training."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from id3tree import ID3Classifier, datasets
from id3tree.textbook import predict_row

onnx = pytest.importorskip("onnx", reason="the onnx extra is not installed")
ort = pytest.importorskip("onnxruntime", reason="the onnx extra is not installed")

from id3tree.io.onnx import onnx_inputs, to_onnx  # noqa: E402


def run(model, X):
    session = ort.InferenceSession(model.to_onnx().SerializeToString())
    return session.run(["label", "probabilities"], {"X": onnx_inputs(model, X)})


def assert_same_answers(model, X):
    label, proba = run(model, X)
    expected = model.predict(X)
    if expected.dtype.kind in "iu":
        np.testing.assert_array_equal(label, expected)
    else:
        np.testing.assert_array_equal(label, expected.astype(str))
    np.testing.assert_array_equal(proba, model.predict_proba(X).astype(np.float32))


@pytest.mark.parametrize("name", datasets.list_datasets()["name"].tolist())
def test_every_shipped_data_set_gives_predicts_answers(name):
    X, y = datasets.load(name, return_X_y=True)
    if len(X) > 5_000:  # adult: a part, to keep the test short (its tree still has ~2,000 nodes)
        X, y = X.iloc[:5_000], y[:5_000] if isinstance(y, np.ndarray) else y.iloc[:5_000]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # identifier-like columns (titanic's names)
        model = ID3Classifier().fit(X, y)
    assert_same_answers(model, X)
    # and rows the tree stops early: each column's values shuffled, some made missing or new
    rng = np.random.default_rng(0)
    new = {}
    for column in X.columns:
        shuffled = X[column].sample(frac=1, random_state=1).reset_index(drop=True)
        if pd.api.types.is_numeric_dtype(shuffled):
            shuffled = shuffled.astype(float)
        else:
            shuffled = shuffled.astype(object)
            shuffled[rng.random(len(shuffled)) < 0.05] = "never seen"
        new[column] = shuffled.mask(rng.random(len(shuffled)) < 0.1)
    new = pd.DataFrame(new)
    assert_same_answers(model, new)


def random_table(rng, n, unseen=False):
    X = pd.DataFrame(
        {
            "a": np.round(rng.normal(size=n), 1),
            "b": rng.choice(["x", "y", "z", "w"], n),
            "c": rng.integers(0, 5, n).astype(float),
            "d": rng.choice(["p", "q"], n),
        }
    )
    X.loc[rng.random(n) < 0.15, "a"] = np.nan
    X.loc[rng.random(n) < 0.1, "b"] = None
    if unseen:
        X.loc[rng.random(n) < 0.1, "b"] = "v"
        X.loc[rng.random(n) < 0.1, "d"] = "r"
    y = np.where((X["a"].fillna(0) > 0) ^ (X["b"] == "x") ^ (rng.random(n) < 0.2), "yes", "no")
    return X, y


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize(
    "params", [{}, {"max_depth": 3}, {"criterion": "gain_ratio"}, {"min_samples_leaf": 5}]
)
def test_random_tables_with_missing_and_unseen_values(seed, params):
    rng = np.random.default_rng(seed)
    X, y = random_table(rng, 300)
    model = ID3Classifier(**params).fit(X, y)
    test, _ = random_table(rng, 400, unseen=True)
    test.loc[rng.random(400) < 0.2, "c"] = np.nan  # where few or no training rows were missing
    assert_same_answers(model, test)
    label, _ = run(model, test)
    walked = [predict_row(model.root_, row) for _, row in test.iterrows()]
    np.testing.assert_array_equal(label, np.asarray(walked, dtype=str))


def test_pruned_weighted_and_numeric_trees():
    X, y = datasets.load("breast_cancer", return_X_y=True)
    weights = np.random.default_rng(2).uniform(0.5, 2.0, len(y))
    model = ID3Classifier().fit(X, y, sample_weight=weights)
    assert_same_answers(model, X)
    assert_same_answers(model.prune(method="pessimistic"), X)
    values = X.to_numpy().copy()
    values[::7, 3] = np.nan  # missing where the training data had none: rows stop early
    assert_same_answers(model, values)
    np.testing.assert_array_equal(onnx_inputs(model, values), values)  # numbers pass as they are


def test_integer_classes_and_a_single_leaf():
    X = pd.DataFrame({"a": [1.0, 2.0, 3.0]})
    model = ID3Classifier().fit(X, [7, 7, 7])
    label, proba = run(model, X)
    np.testing.assert_array_equal(label, [7, 7, 7])
    assert label.dtype == np.int64 and proba.shape == (3, 1)


def test_the_graph_is_valid_onnx_with_the_stated_opsets():
    model = ID3Classifier().fit(*datasets.load_play_tennis(return_X_y=True))
    proto = to_onnx(model, name="tennis")
    onnx.checker.check_model(proto, full_check=True)
    assert proto.graph.name == "tennis"
    assert {o.domain: o.version for o in proto.opset_import} == {"": 13, "ai.onnx.ml": 3}
    assert [i.name for i in proto.graph.input] == ["X"]
    assert [o.name for o in proto.graph.output] == ["label", "probabilities"]


def test_an_unfitted_model_says_so():
    from sklearn.exceptions import NotFittedError

    with pytest.raises(NotFittedError):
        ID3Classifier().to_onnx()
    with pytest.raises(NotFittedError):
        onnx_inputs(ID3Classifier(), np.zeros((2, 2)))


def test_onnx_inputs_checks_rows_as_predict_does():
    model = ID3Classifier().fit(*datasets.load_play_tennis(return_X_y=True))
    with pytest.raises(ValueError, match="features"):
        onnx_inputs(model, np.zeros((2, 3)))
