"""One validator per parameter: a parameter that appears in two places is accepted or refused
in both alike, and weights, class weights and seeds are refused by name, never with a traceback
from deep inside numpy or a silently different tree."""

from __future__ import annotations

import io
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from id3tree import ID3Classifier
from id3tree.base import params as _params
from id3tree.datasets import load_iris, load_play_tennis
from id3tree.engine.pruning import cost_complexity, pessimistic

X, y = load_iris(return_X_y=True)
TREE = ID3Classifier().fit(X, y)


def verdict(call):
    """The tree a call gives (as its leaves' node ids), or the ValueError it raises."""
    try:
        model = call()
    except ValueError as exc:
        return "refused", str(exc)
    return "accepted", sorted(model._tree.ids[model._tree.feature < 0].tolist())


# ---------------------------------------------------------------------------------------------
# the same parameter in two places
# ---------------------------------------------------------------------------------------------
CCP_ALPHAS = [
    0.0,
    0.01,
    np.float32(0.01),
    np.float64(0.01),
    np.int64(0),
    Fraction(1, 100),
    float("inf"),
    True,
    False,
    np.bool_(True),
    -0.01,
    float("nan"),
    "0.01",
    1 + 0j,
    None,
]


@pytest.mark.parametrize("value", CCP_ALPHAS, ids=repr)
def test_ccp_alpha_is_judged_alike_by_the_classifier_and_by_prune(value):
    """True pruned to the root in prune() and was refused by ID3Classifier; np.float32 the
    other way round. One validator now decides for both, and both give the same tree."""
    at_fit = verdict(lambda: ID3Classifier(ccp_alpha=value).fit(X, y))
    by_prune = verdict(lambda: TREE.prune("cost_complexity", ccp_alpha=value))
    if value is None:  # prune's own default: "give me an alpha"
        assert by_prune[0] == "refused"
        return
    assert at_fit == by_prune
    should_refuse = isinstance(value, (bool, np.bool_, str, complex)) or not value >= 0
    assert (at_fit[0] == "refused") == should_refuse
    if should_refuse:
        assert f"ccp_alpha must be a number >= 0, got {value!r}" in at_fit[1]


@pytest.mark.parametrize(
    "value", [0.25, np.float32(0.25), Fraction(1, 4), 0.5, True, 0, 0.6, float("nan"), "0.25"]
)
def test_confidence_is_judged_alike_by_prune_and_by_the_pruning_function(value):
    by_method = verdict(lambda: TREE.prune("pessimistic", confidence=value))
    try:
        pessimistic(TREE.root_, TREE.classes_.tolist(), confidence=value)
        by_function = "accepted"
    except ValueError as exc:
        by_function = "refused"
        assert "confidence must be a number in (0, 0.5]" in str(exc)
    assert by_method[0] == by_function
    assert (by_function == "accepted") == (_params.is_real(value) and 0 < value <= 0.5)


def test_the_pruning_function_and_the_fit_parameter_give_the_same_tree():
    direct = cost_complexity(TREE.root_, np.float32(0.02))
    fitted = ID3Classifier(ccp_alpha=np.float32(0.02)).fit(X, y)
    assert sorted(n.node_id for n in direct.root.walk()) == fitted._tree.ids.tolist()


# ---------------------------------------------------------------------------------------------
# weights
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "call",
    [
        lambda: ID3Classifier().fit(X, y, sample_weight=np.full(len(y), 1e308)),
        lambda: ID3Classifier(class_weight={"setosa": 1e308}).fit(X, y),
        lambda: ID3Classifier().cost_complexity_pruning_path(
            X, y, sample_weight=np.full(len(y), 1e308)
        ),
        lambda: ID3Classifier().fit(X, y, sample_weight=np.full(len(y), 1e306)),
    ],
    ids=["sample_weight", "class_weight", "pruning_path", "sum_overflows"],
)
def test_weights_whose_sums_overflow_are_refused_by_name(call):
    """An IndexError (or a shape mismatch) from deep inside the weighted search before."""
    with pytest.raises(ValueError, match=r"the weights \(.*\) sum to .*overflow"):
        call()


def test_weights_whose_sums_underflow_are_refused_by_name():
    with pytest.raises(ValueError, match="underflow"):
        ID3Classifier(alpha=0.05).fit(X, y, sample_weight=np.full(len(y), 1e-300))


def test_large_weights_below_the_limit_give_the_unweighted_tree():
    weighted = ID3Classifier().fit(X, y, sample_weight=np.full(len(y), 2.0**490 / len(y)))
    np.testing.assert_allclose(weighted.predict_proba(X), TREE.predict_proba(X))
    assert weighted._tree.ids.tolist() == TREE._tree.ids.tolist()


@pytest.mark.parametrize(
    "weight",
    [np.full(150, 1 + 0j), np.full(150, 1 + 1j), [1 + 0j] * 150],
    ids=["real_complex", "complex", "list"],
)
def test_complex_weights_are_refused_not_cast(weight):
    """They were cast to their real part with only a ComplexWarning."""
    with pytest.raises(ValueError, match=r"sample_weight must hold real numbers.*row 0"):
        ID3Classifier().fit(X, y, sample_weight=weight)


def test_a_weight_that_is_text_is_named_with_its_row():
    weight = [1.0] * 150
    weight[7] = "heavy"
    with pytest.raises(ValueError, match="'heavy' at row 7"):
        ID3Classifier().fit(X, y, sample_weight=weight)


@pytest.mark.parametrize("bad", ["a", None, 1 + 0j, float("nan"), -1.0, [1.0]])
def test_class_weights_that_are_not_numbers_are_refused_by_name(bad):
    """{"setosa": "a"} and {"setosa": None} raised a TypeError from numpy's isfinite."""
    with pytest.raises(ValueError, match="class_weight values must be finite, non-negative"):
        ID3Classifier(class_weight={"setosa": bad}).fit(X, y)


def test_reduced_error_pruning_without_validation_rows_is_refused():
    """Both collapsed the tree to one leaf."""
    with pytest.raises(ValueError, match="needs validation rows, and none reached the tree"):
        TREE.prune("reduced_error", X.iloc[:0], y.iloc[:0])
    with pytest.raises(ValueError, match="validation rows' sample_weight.*all zero"):
        TREE.prune("reduced_error", X, y, sample_weight=np.zeros(len(y)))


def test_reduced_error_pruning_with_some_zero_weights_prunes_as_without_those_rows():
    weight = np.ones(len(y))
    weight[::3] = 0
    kept = weight > 0
    weighted = TREE.prune("reduced_error", X, y, sample_weight=weight)
    subset = TREE.prune("reduced_error", X[kept], y[kept])
    assert weighted._tree.ids.tolist() == subset._tree.ids.tolist()


# ---------------------------------------------------------------------------------------------
# other parameters
# ---------------------------------------------------------------------------------------------
def test_numeric_bins_is_bounded_before_any_work():
    """A Dask fit with numeric_bins=10**9 hung: a table of nodes x bins x classes per level."""
    with pytest.raises(ValueError, match=r"numeric_bins must be an integer in \[2, 100000\]"):
        _params.check_numeric_bins(10**9)
    dd = pytest.importorskip("dask.dataframe")
    frame = dd.from_pandas(X.assign(species=y), npartitions=2)
    with pytest.raises(ValueError, match="numeric_bins must be an integer in"):
        ID3Classifier(numeric_bins=10**9).fit(frame.drop(columns="species"), frame["species"])


@pytest.mark.parametrize(
    ("value", "accepted"),
    [(None, True), (0, True), (np.int64(3), True), (np.random.default_rng(0), True)]
    + [("x", False), (-1, False), (1.5, False), (True, False)],
)
def test_random_state(value, accepted):
    if accepted:
        assert _params.check_random_state(value) is value or _params.check_random_state(
            value
        ) == int(value)
    else:
        with pytest.raises(ValueError, match="random_state must be None, an integer >= 0"):
            _params.check_random_state(value)


# ---------------------------------------------------------------------------------------------
# Arrow dictionary columns (what read_parquet returns for a category column)
# ---------------------------------------------------------------------------------------------
def test_an_arrow_dictionary_column_is_a_categorical_column():
    """pyarrow cannot sort a dictionary array: ArrowNotImplementedError at fit."""
    pytest.importorskip("pyarrow")
    P, Py = load_play_tennis(return_X_y=True)
    buffer = io.BytesIO()
    P.astype("category").to_parquet(buffer)
    buffer.seek(0)
    read = pd.read_parquet(buffer, dtype_backend="pyarrow")
    assert all("dictionary" in str(dtype) for dtype in read.dtypes)
    plain = ID3Classifier().fit(P, Py)
    model = ID3Classifier().fit(read, Py)
    assert model.to_text() == plain.to_text()
    assert (model.predict(read) == plain.predict(P)).all()
    assert (plain.predict(read) == plain.predict(P)).all()
