"""mutual_information_matrix against scikit-learn, the pairwise MI, and its own properties."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import mutual_info_score, normalized_mutual_info_score

from id3tree import mutual_information
from id3tree.information import _codes
from id3tree.ranking import _pairs, mutual_information_matrix

ROOT = Path(__file__).resolve().parents[1]


def survey_like(n_rows: int, n_numeric: int, n_text: int) -> pd.DataFrame:
    """The benchmark's survey-like frame (benchmarks/bench_mi.py), smaller."""
    spec = importlib.util.spec_from_file_location("bench_mi", ROOT / "benchmarks" / "bench_mi.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.make_survey_like(n_rows, n_numeric, n_text, seed=3)


def mixed_frame(n: int = 400, seed: int = 0) -> pd.DataFrame:
    """Numeric, integer, boolean, text, category and high-cardinality columns, with NaNs."""
    rng = np.random.default_rng(seed)
    hidden = rng.normal(size=n)
    text = rng.choice(list("abcde"), n).astype(object)
    text[rng.random(n) < 0.1] = None
    return pd.DataFrame(
        {
            "float": np.where(rng.random(n) < 0.2, np.nan, hidden + rng.normal(size=n)),
            "text": text,
            "flag": hidden > 0,
            "count": rng.poisson(2, n),
            "ids": [f"id{k}" for k in rng.integers(0, n - 20, n)],
            "cat": pd.Categorical(np.where(hidden > 1, "high", "low")),
            "nullable": pd.array(
                np.where(rng.random(n) < 0.3, None, rng.integers(0, 5, n)), "Int64"
            ),
        }
    )


def test_equals_pairwise_mutual_information_on_mixed_columns_with_nans():
    X = mixed_frame()
    mi = mutual_information_matrix(X, bins=7)
    for a in X.columns:
        for b in X.columns:
            assert mi.loc[a, b] == pytest.approx(mutual_information(X[a], X[b], bins=7), abs=1e-12)


def test_equals_sklearn_mutual_info_score_on_the_binned_codes():
    X = mixed_frame(seed=1)
    codes = {c: _codes(X[c], c, bins=10)[0] for c in X.columns}
    mi = mutual_information_matrix(X)
    nats = mutual_information_matrix(X, base=math.e)
    for a in X.columns:
        for b in X.columns:
            reference = mutual_info_score(codes[a], codes[b])
            assert mi.loc[a, b] == pytest.approx(reference / math.log(2), abs=1e-12)
            assert nats.loc[a, b] == pytest.approx(reference, abs=1e-12)


def test_normalised_is_sklearns_arithmetic_nmi():
    X = mixed_frame(seed=2)
    codes = {c: _codes(X[c], c, bins=10)[0] for c in X.columns}
    nmi = mutual_information_matrix(X, normalize=True)
    for a in X.columns:
        for b in X.columns:
            reference = normalized_mutual_info_score(codes[a], codes[b])
            assert nmi.loc[a, b] == pytest.approx(reference, abs=1e-12)
    assert np.allclose(np.diag(nmi), 1.0)


def test_the_fast_path_on_a_survey_like_frame():
    X = survey_like(3000, 12, 30)
    mi = mutual_information_matrix(X)
    codes = [_codes(X[c], c, bins=10) for c in X.columns]
    h = np.diag(mi.to_numpy())
    for i, (a, n_a) in enumerate(codes):
        assert h[i] == pytest.approx(mutual_information(X.iloc[:, i], X.iloc[:, i]), abs=1e-12)
        for j in range(i + 1, len(codes)):
            b, n_b = codes[j]
            table = np.bincount(a * n_b + b, minlength=n_a * n_b).reshape(n_a, n_b)
            assert mi.iat[i, j] == pytest.approx(
                mutual_info_score(None, None, contingency=table) / math.log(2), abs=1e-12
            )


@pytest.mark.parametrize(
    "limits",
    [
        {"GROUP_CELLS": 1},  # every column a group of its own
        {"BLOCK_COLUMNS": 1},  # every column a block of its own
        {"GROUP_CELLS": 1 << 16, "BLOCK_CODES": 40},  # large groups, narrow blocks
        {"DENSE_CELLS": 16},  # every pair counted sparsely with np.unique
        {"CHUNK_ROWS": 64},  # tall tables counted in chunks of rows
    ],
)
def test_every_counting_path_gives_the_same_matrix(monkeypatch, limits):
    X = mixed_frame(200, seed=4)
    expected = mutual_information_matrix(X)
    for name, value in limits.items():
        monkeypatch.setattr(_pairs, name, value)
    pd.testing.assert_frame_equal(mutual_information_matrix(X), expected, atol=1e-12, rtol=0)


def test_threads_and_progress_bar_do_not_change_the_result(capsys):
    X = survey_like(2000, 6, 14)
    one = mutual_information_matrix(X, threads=1)
    two = mutual_information_matrix(X, threads=2, progress=True)
    pd.testing.assert_frame_equal(one, two, atol=1e-12, rtol=0)
    assert "190/190" in capsys.readouterr().err  # 20 columns: 190 pairs


@settings(max_examples=40, deadline=None)
@given(
    st.integers(min_value=1, max_value=60).flatmap(
        lambda n: st.tuples(
            st.lists(st.one_of(st.none(), st.floats(-5, 5)), min_size=n, max_size=n),
            st.lists(st.sampled_from(["a", "b", "c", None]), min_size=n, max_size=n),
            st.lists(st.integers(0, 3), min_size=n, max_size=n),
        )
    ),
    st.integers(min_value=1, max_value=12),
)
def test_properties_symmetric_bounded_diagonal_is_entropy(columns, bins):
    floats, texts, ints = columns
    X = pd.DataFrame({"f": pd.array(floats, dtype="Float64"), "t": texts, "i": ints})
    mi = mutual_information_matrix(X, bins=bins).to_numpy()
    h = np.diag(mi)
    assert np.array_equal(mi, mi.T)
    assert (mi >= 0).all()
    assert (mi <= np.minimum.outer(h, h) + 1e-12).all()
    for k, column in enumerate(X.columns):
        codes, n_codes = _codes(X[column], column, bins=bins)
        p = np.bincount(codes, minlength=n_codes) / len(codes)
        p = p[p > 0]
        assert h[k] == pytest.approx(float(-(p * np.log2(p)).sum()), abs=1e-12)
    nmi = mutual_information_matrix(X, bins=bins, normalize=True).to_numpy()
    assert ((nmi >= 0) & (nmi <= 1)).all()


def test_constant_and_all_missing_columns_give_zeros_not_nans():
    X = pd.DataFrame({"x": [1, 2, 3, 4] * 5, "constant": [5.0] * 20, "missing": [None] * 20})
    for normalize in (False, True):
        mi = mutual_information_matrix(X, normalize=normalize)
        assert mi.notna().all().all()
        assert (mi.loc[["constant", "missing"]] == 0).all().all()
    assert mutual_information_matrix(X).loc["x", "x"] == pytest.approx(2.0)


def test_100000_distinct_strings():
    n = 100_000
    rng = np.random.default_rng(0)
    X = pd.DataFrame(
        {
            "id": [f"user{i}" for i in range(n)],
            "other_id": [f"u{i}" for i in rng.permutation(n)],
            "group": rng.choice(["a", "b", "c", "d"], n),
        }
    )
    mi = mutual_information_matrix(X)
    assert mi.loc["id", "id"] == pytest.approx(math.log2(n))
    assert mi.loc["id", "other_id"] == pytest.approx(math.log2(n))  # each determines the other
    assert mi.loc["id", "group"] == pytest.approx(mi.loc["group", "group"])


def test_one_column_and_numpy_input():
    assert mutual_information_matrix(np.array([[1.0], [2.0]])).loc["x0", "x0"] == 1.0
    frame = mutual_information_matrix(np.array([["a", 1], ["b", 2]], dtype=object))
    assert frame.index.tolist() == frame.columns.tolist() == ["x0", "x1"]


def test_bad_input_is_a_clear_error():
    with pytest.raises(ValueError, match="0 feature"):
        mutual_information_matrix(pd.DataFrame(index=range(3)))
    with pytest.raises(ValueError, match="0 rows"):
        mutual_information_matrix(pd.DataFrame({"a": []}))
    with pytest.raises(ValueError, match="duplicate column names"):
        mutual_information_matrix(pd.DataFrame([[1, 2]], columns=["a", "a"]))
    with pytest.raises(ValueError, match="base"):
        mutual_information_matrix(pd.DataFrame({"a": [1, 2]}), base=1)
    with pytest.raises(ValueError, match="threads"):
        mutual_information_matrix(pd.DataFrame({"a": [1, 2]}), threads=0)
    with pytest.raises(ValueError, match="'a' has 1 infinite"):
        mutual_information_matrix(pd.DataFrame({"a": [1.0, np.inf]}))
    with pytest.raises(ValueError, match="mixes numbers and text"):
        mutual_information_matrix(pd.DataFrame({"a": [1, "1"]}, dtype=object))


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(0, 10**6), min_size=1, max_size=40).filter(lambda c: sum(c) > 0),
    st.sampled_from([2, math.e, 10]),
)
def test_entropy_from_sums_of_c_log_c_equals_scipy(counts, base):
    from scipy.stats import entropy as scipy_entropy

    from id3tree.base.entropy import entropy_from_xlogx, xlogx

    counts = np.array(counts)
    found = float(entropy_from_xlogx(xlogx(counts).sum(), counts.sum(), base))
    assert found == pytest.approx(scipy_entropy(counts, base=base), abs=1e-12)
    assert found >= 0.0
    if np.count_nonzero(counts) == 1:  # one non-zero cell: exactly 0, not a rounding residue
        assert found == 0.0
