"""The learner's short ways in for plain input give what the general, column-by-column way gives.

A numpy array of numbers skips the DataFrame (:func:`~id3tree.base.validation.numeric_block`), a
small DataFrame of numbers of one dtype is taken as one array (``frame_block``) and a
1-D array of integer or text labels skips the Series (:func:`~id3tree.base.validation.plain_labels`).
Every test here fits the same data twice, once with the short ways turned off, and compares the
whole fitted model, or the error, down to the byte.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from id3tree import ID3Classifier
from id3tree.base import training
from id3tree.base import validation as _validation
from id3tree.base.validation import frame_block, numeric_block, plain_labels


def _general_only(monkeypatch):
    monkeypatch.setattr(_validation, "numeric_block", lambda X: None)
    monkeypatch.setattr(_validation, "frame_block", lambda frame: None)
    monkeypatch.setattr(training, "plain_labels", lambda y, n_rows: None)


def _fit(X, y, **options):
    """The fitted model, or the error, and the warnings raised, as comparable values."""
    sample_weight = options.pop("sample_weight", None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            model = ID3Classifier(**options).fit(X, y, sample_weight=sample_weight)
        except Exception as error:  # noqa: BLE001 - the error itself is compared
            return ("error", type(error).__name__, str(error)), _messages(caught)
    fitted = {
        "json": model.to_json(),
        "classes": (model.classes_.dtype.str, model.classes_.tolist()),
        "class types": [type(c).__name__ for c in model.classes_.tolist()],
        "names": model._names,
        "n_features_in_": model.n_features_in_,
        "feature_names_in_": getattr(model, "feature_names_in_", None) is not None,
        "importances": model.feature_importances_.tobytes(),
        "proba": model.predict_proba(X).tobytes(),
    }
    data = model._fit_data
    if data is not None:  # kept with the whole trace
        fitted["trace"] = model.trace_.to_json()
        fitted["fit y"] = (data.y.dtype.str, data.y.tobytes())
        fitted["fit columns"] = [
            None if c is None else (c.dtype.str, c.tobytes()) for c in data.numeric
        ]
        fitted["fit codes"] = [None if c is None else c.tobytes() for c in data.codes]
        fitted["fit weight"] = None if data.weight is None else data.weight.tobytes()
    return fitted, _messages(caught)


def _messages(caught) -> list:
    return [(w.category.__name__, str(w.message)) for w in caught]


def _both_ways(monkeypatch, X, y, **options):
    short = _fit(X, y, **dict(options))
    with monkeypatch.context() as patch:
        _general_only(patch)
        general = _fit(X, y, **dict(options))
    assert short == general
    return short


def _data(n=200, p=4, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p)).round(1)
    y = (X[:, 0] + rng.normal(scale=0.5, size=n) > 0).astype(int) + (X[:, 1] > 1)
    return X, y


@pytest.mark.parametrize(
    "make_X",
    [
        lambda X: X,
        lambda X: np.asfortranarray(X),
        lambda X: X[:, ::-1],  # not contiguous
        lambda X: X.astype(np.float32),
        lambda X: X.astype(np.float16),
        lambda X: (X * 10).astype(np.int64),
        lambda X: (X * 10).astype(np.int8),
        lambda X: np.abs(X * 10).astype(np.uint32),
        lambda X: np.where(X > 1, np.nan, X),  # missing values
        lambda X: np.c_[X, np.full(len(X), np.nan)],  # a column with no value at all
        lambda X: X[:1],  # one row
        lambda X: X[:, :1],  # one column
    ],
)
@pytest.mark.parametrize(
    "make_y",
    [
        lambda y: y,
        lambda y: y.astype(np.int8),
        lambda y: y.astype(np.uint64) + 2**63,
        lambda y: np.array(["setosa", "virginica", "Zebra"])[y],
        lambda y: np.array(["b", "a", "é"])[y],
        lambda y: y * 0 + 7,  # one class
        lambda y: y.tolist(),
        lambda y: pd.Series(y, index=np.arange(len(y))[::-1]),
    ],
)
def test_an_array_of_numbers_grows_what_its_dataframe_grows(monkeypatch, make_X, make_y):
    X, y = _data()
    X = make_X(X)
    fitted, _ = _both_ways(monkeypatch, X, make_y(y[: len(X)]))
    assert isinstance(fitted, dict)


@pytest.mark.parametrize(
    "options",
    [
        {"max_depth": 2, "min_samples_leaf": 3},
        {"criterion": "gain_ratio", "ccp_alpha": 0.01},
        {"sample_weight": np.r_[np.zeros(20), np.arange(1, 181) % 4]},  # some rows of weight 0
        {"sample_weight": 2.0, "min_weight_fraction_leaf": 0.1},
        {"class_weight": "balanced"},
        {"class_weight": {0: 3.0}},
        {"categorical": [0]},  # a listed numeric column: the general way
        {"categorical": []},
        {"verbose": 0, "keep_trace": False},
    ],
)
def test_options_give_the_same_model_either_way(monkeypatch, options):
    X, y = _data(seed=1)
    if options.get("categorical") == [0]:
        X[:, 0] = np.round(X[:, 0])
    _both_ways(monkeypatch, X, y, **options)
    _both_ways(monkeypatch, X, np.array(["no", "yes", "maybe"])[y], **options)


def _frame(X, names=None):
    return pd.DataFrame(X, columns=names or [f"c{i}" for i in range(X.shape[1])])


def _blocks(X):
    """A frame of one column per block, as assigning columns one by one makes."""
    frame = pd.DataFrame(index=range(len(X)))
    for i in range(X.shape[1]):
        frame[f"c{i}"] = X[:, i]
    return frame


@pytest.mark.parametrize(
    "make_frame",
    [
        lambda X: _frame(X),
        lambda X: _frame(X, names=list(range(X.shape[1]))),  # names that are not text
        lambda X: _frame(np.where(X > 1, np.nan, X)),
        lambda X: _frame(X.astype(np.float32)),
        lambda X: _frame((X * 10).astype(np.int16)),
        lambda X: _blocks(X),
        lambda X: _frame(X).astype({"c1": np.int64}),  # two dtypes
        lambda X: _frame(np.abs(X)).astype({"c1": np.int16, "c2": np.float16, "c3": np.uint8}),
        lambda X: _frame(np.abs(X)).astype({"c1": np.uint64}).assign(c0=(X[:, 0] * 10).astype(int)),
        lambda X: _frame(X).assign(c1=2**53 + (X[:, 1] > 0)),  # int64 beyond 2**53: merged
        lambda X: _frame(X).assign(c1=2**53 + 2 * (X[:, 1] > 0)),  # beyond 2**53, not merged
        lambda X: _frame(X).assign(c1=2**53 - 1 - (X[:, 1] > 0)),  # just below: the block
        lambda X: _frame(X).assign(c0=X[:, 0] * 1e20, c1=(X[:, 1] * 10).astype(int)),
        lambda X: _frame(X).astype({"c1": "Float64"}),  # a nullable dtype: column by column
        lambda X: _frame(X).assign(c1=X[:, 1] > 0),  # booleans are categorical
        lambda X: _frame(X).iloc[5:77],  # an index that does not start at 0
        lambda X: _frame(X)[["c2", "c0"]],
    ],
)
@pytest.mark.parametrize("small", [True, False])
def test_a_dataframe_of_numbers_grows_the_same_tree_either_way(monkeypatch, make_frame, small):
    X, y = _data(seed=2)
    frame = make_frame(X)
    if not small:  # too large to be copied into one array: its columns one by one
        monkeypatch.setattr(_validation, "FRAME_BLOCK_VALUES", frame.size - 1)
    labels = y[: len(frame)]
    fitted, _ = _both_ways(monkeypatch, frame, labels)
    assert isinstance(fitted, dict) or "holds integers beyond 2**53" in fitted[2]
    _both_ways(monkeypatch, frame, labels, sample_weight=np.arange(len(frame)) % 3)


def test_a_dataframe_with_an_infinite_value_is_refused_either_way(monkeypatch):
    X, y = _data()
    X[3, 2] = np.inf
    (error, _, text), _ = _both_ways(monkeypatch, _frame(X), y)
    assert error == "error" and "column 'c2' has 1 infinite value" in text
    assert frame_block(_frame(X)) is None
    X[3, 2] = 0.5
    assert frame_block(_frame(X)).tobytes() == X.tobytes()  # the short way is taken
    assert frame_block(_blocks(X)).tobytes() == X.tobytes()
    mixed = _frame(X).astype({"c1": np.int64})
    assert frame_block(mixed).tobytes() == mixed.to_numpy(dtype=float).tobytes()
    assert frame_block(mixed.assign(c1=2**53)) is None
    assert frame_block(mixed.assign(c1=X[:, 1] > 0)) is None
    assert frame_block(mixed.astype({"c0": "Float64"})) is None


@pytest.mark.parametrize(
    "make_rows",
    [
        lambda X: X.tolist(),
        lambda X: (X * 10).astype(int).tolist(),
        lambda X: [[int(a * 10), b, c] for a, b, c in X[:, :3].tolist()],  # ints beside floats
        lambda X: np.where(X > 1, np.nan, X).tolist(),
        lambda X: [[int(a * 10) if a < 1 else np.nan, b] for a, b in X[:, :2].tolist()],
        lambda X: [tuple(row) for row in X.astype(np.float32)],  # numpy scalars
        lambda X: [np.array(row) for row in X],
        lambda X: [[a, b, np.nan] for a, b in X[:, :2].tolist()],  # a column of NaN only
        lambda X: [[a, None] for a in X[:, 0].tolist()],  # a column of None only
        lambda X: [[a, None if a > 1 else b] for a, b in X[:, :2].tolist()],
        lambda X: [[a, b > 0] for a, b in X[:, :2].tolist()],  # a column of booleans
        lambda X: [[a, True if b > 1 else b] for a, b in X[:, :2].tolist()],  # mixed with one
        lambda X: [[a, str(b)] for a, b in X[:, :2].tolist()],
        lambda X: [[a * 1e20, b] for a, b in X[:, :2].tolist()],
        lambda X: [[2**53 + (i % 2), np.nan if i == 5 else b] for i, b in enumerate(X[:, 1])],
        lambda X: [[2**70 + i, b] for i, b in enumerate(X[:, 1].tolist())],
        lambda X: [[a, np.inf if i == 3 else b] for i, (a, b) in enumerate(X[:, :2].tolist())],
        lambda X: [row[: 1 + i % 2] for i, row in enumerate(X.tolist())],  # ragged
        lambda X: [],
        lambda X: [[] for _ in X],
        lambda X: X[:, 0].tolist(),  # 1-D
    ],
)
@pytest.mark.parametrize("make_y", [lambda y: y.tolist(), lambda y: np.array(["no", "yes"])[y % 2]])
def test_a_list_of_rows_grows_what_the_general_way_grows(monkeypatch, make_rows, make_y):
    X, y = _data(n=80, seed=3)
    _both_ways(monkeypatch, make_rows(X), make_y(y))


@pytest.mark.parametrize(
    "labels",
    [
        lambda y: y.tolist(),
        lambda y: [np.int16(v) for v in y],
        lambda y: (y - 5).tolist(),
        lambda y: [2**63 + v for v in y.tolist()],  # uint64
        lambda y: [2**65 + v for v in y.tolist()],  # beyond any integer dtype
        lambda y: [bool(v) if i == 0 else v for i, v in enumerate(y.tolist())],
        lambda y: [float(v) for v in y.tolist()],
        lambda y: [None if i == 4 else v for i, v in enumerate(y.tolist())],
        lambda y: [[v] for v in y.tolist()],
        lambda y: pd.Series(y.astype(np.uint8), index=np.arange(len(y)) * 2),
        lambda y: pd.Series(y, dtype="Int64"),
        lambda y: pd.Series(y, dtype="Int64").where(y > 0),  # pd.NA: missing labels
        lambda y: pd.Series(y.astype(str)),
        lambda y: pd.Series(y).astype("category"),
        lambda y: pd.Series(y)[::-1],  # a Series in another order: its values count, in order
        lambda y: y.tolist()[:-1],
    ],
)
def test_a_list_of_labels_gives_what_the_general_way_gives(monkeypatch, labels):
    X, y = _data(n=60, seed=4)
    _both_ways(monkeypatch, X, labels(y))


def test_the_short_way_takes_lists_of_numbers_only():
    X, y = _data(n=30)
    assert numeric_block(X.tolist()).tobytes() == X.tobytes()
    assert numeric_block([[1, 2.5], [3, np.nan]]).tolist()[0] == [1.0, 2.5]
    assert numeric_block([[1.0, True], [2.0, 3.0]]) is None
    assert numeric_block([[1.0, np.nan], [2.0, np.nan]]) is None
    assert numeric_block([[2**53, np.nan], [1, 2.0]]) is None
    assert plain_labels(y.tolist(), len(y)).tolist() == y.tolist()
    assert plain_labels([0, True], 2) is None
    assert plain_labels([0, 2**65], 2) is None
    assert plain_labels(pd.Series(y[::-1], index=y), len(y)).tolist() == y[::-1].tolist()
    assert plain_labels(pd.Series(y, dtype="Int64"), len(y)) is None


def test_many_integer_classes_either_way(monkeypatch):
    X, _ = _data(n=300)
    y = np.arange(300) % 25  # more than 20 integer classes: scikit-learn's check runs
    _both_ways(monkeypatch, X, y, max_depth=3)


@pytest.mark.parametrize(
    "X, y, message",
    [
        (np.array([[1.0, np.inf], [2.0, 3.0]]), [0, 1], "column 'x1' has 1 infinite value"),
        (np.array([[1.0, 2.0], [-np.inf, 3.0]]), [0, 1], "column 'x0' has 1 infinite value"),
        (
            np.array([[2**53 + 1, 1], [2**53, 2]], dtype=np.int64),
            [0, 1],
            "column 'x0' holds integers beyond 2",
        ),
        (np.empty((0, 3)), [], "0 rows"),
        (np.empty((3, 0)), [0, 1, 0], "0 feature"),
        (np.array([1.0, 2.0]), [0, 1], "must be 2-D"),
        (np.ones((2, 2)), [0, 1, 0], "X has 2 rows but y has 3"),
        (np.ones((2, 2)), np.array([0, 1, 0]), "X has 2 rows but y has 3"),
        (np.ones((2, 2)), np.array([0.0, np.nan]), "missing label"),
        (np.ones((2, 2)), np.array([0.5, 1.5]), "Unknown label type"),
        (np.ones((2, 2)), None, "requires y"),
        (np.ones((2, 2), dtype=complex), [0, 1], "Complex data not supported"),
        (np.ones((2, 2)), np.array([1j, 2j]), "Complex data not supported"),
        (np.array([[1, "a"], [2, 3]], dtype=object), [0, 1], "column 'x1' mixes numbers and text"),
    ],
)
def test_bad_input_gets_the_same_error_either_way(monkeypatch, X, y, message):
    (error, *_), _ = _both_ways(monkeypatch, X, y)
    assert error == "error"
    assert message in _fit(X, y)[0][2]


@pytest.mark.parametrize("sample_weight", [[1.0, np.inf, 1.0], [0.0, 0.0, 0.0], [1.0, -1.0, 2.0]])
def test_bad_weights_get_the_same_error_either_way(monkeypatch, sample_weight):
    _both_ways(monkeypatch, np.ones((3, 2)), np.array([0, 1, 1]), sample_weight=sample_weight)


@pytest.mark.parametrize(
    "options", [{"categorical": "everything"}, {"categorical": ["nope"]}, {"max_depth": -1}]
)
def test_bad_parameters_get_the_same_error_either_way(monkeypatch, options):
    (error, _, text), _ = _both_ways(monkeypatch, np.ones((3, 2)), np.array([0, 1, 1]), **options)
    assert error == "error" and text


def test_a_column_vector_y_warns_either_way(monkeypatch):
    X, y = _data(n=50)
    _, caught = _both_ways(monkeypatch, X, y[:, None])
    assert [category for category, _ in caught] == ["DataConversionWarning"]


def test_other_arrays_take_the_general_way(monkeypatch):
    X, y = _data(n=60)
    for other in (
        X > 0,  # booleans are categorical
        X.astype(object),
        np.round(X).astype(str),
        np.ma.masked_array(X),
        X.astype(X.dtype.newbyteorder()),
    ):
        assert numeric_block(other) is None
    for other in (y > 0, y.astype(object), y.astype(float), y[:, None], y.astype(bytes)):
        assert plain_labels(other, len(y)) is None
    _both_ways(monkeypatch, X > 0, y)
    _both_ways(monkeypatch, X.astype(object), y.astype(float))
    _both_ways(monkeypatch, X, y > 0)


def test_the_short_way_keeps_a_float_array_without_copying_it():
    X, y = _data()
    assert numeric_block(X) is X
    assert plain_labels(y, len(y)) is y
    assert plain_labels(y, len(y) + 1) is None
    model = ID3Classifier().fit(X, y)
    assert all(np.shares_memory(column, X) for column in model._fit_data.numeric)
    converted = numeric_block(X.astype(np.float32))
    assert converted.dtype == np.float64 and converted.shape == X.shape
