"""The encoding of categorical columns, at fit time (``factorize``) and for new rows
(``encode_like_fit``), checked against pandas' own sorted factorization and index lookups on
every kind of column: pyarrow and Python text, object, category, numbers, nullable numbers,
booleans, dates, multi-chunk and sliced columns."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from id3tree import ID3Classifier
from id3tree.base.validation import UNSEEN, encode_like_fit, factorize, unordered_codes
from id3tree.model.node import MISSING

LETTERS = np.array(list("dbacfe"), dtype=object)


def _text(n=200, seed=0, missing=0.1):
    rng = np.random.default_rng(seed)
    values = LETTERS[rng.integers(0, len(LETTERS), n)]
    values[rng.random(n) < missing] = None
    return values


def _columns():
    """Columns of many dtypes, with missing values where the dtype has them."""
    text = _text()
    rng = np.random.default_rng(1)
    numbers = rng.integers(-3, 4, 200).astype(float)
    numbers[::9] = np.nan
    chunked = pd.concat(
        [pd.Series(text[:80], dtype="str"), pd.Series(text[80:], dtype="str")], ignore_index=True
    )
    columns = {
        "str": pd.Series(text, dtype="str"),
        "str-python": pd.Series(text, dtype=pd.StringDtype("python")),
        "object": pd.Series(text, dtype=object),
        "category": pd.Series(pd.Categorical(text, categories=["f", "e", "d", "c", "b", "a", "z"])),
        "int64": pd.Series(rng.integers(-5, 5, 200)),
        "Int64": pd.Series(pd.array(np.where(np.isnan(numbers), None, numbers), dtype="Int64")),
        "float": pd.Series(numbers),
        "bool": pd.Series(rng.random(200) < 0.3),
        "datetime": pd.Series(pd.to_datetime("2020-01-01") + pd.to_timedelta(numbers, unit="D")),
        "chunked str": chunked,
        "sliced str": pd.Series(_text(400, seed=3), dtype="str").iloc[100:300],
    }
    pyarrow = pytest.importorskip("pyarrow")
    columns["arrow string"] = pd.Series(text, dtype=pd.ArrowDtype(pyarrow.string()))
    return columns


def _reference_factorize(series):
    codes, uniques = pd.factorize(series, sort=True)
    codes = np.where(codes < 0, len(uniques), codes)
    return codes, list(np.asarray(uniques, dtype=object))


@pytest.mark.parametrize("kind", list(_columns()))
def test_factorize_matches_pandas_sorted_factorize(kind):
    series = _columns()[kind]
    codes, categories = factorize(series, kind)
    expected_codes, expected_categories = _reference_factorize(series)
    assert categories == expected_categories
    np.testing.assert_array_equal(codes, expected_codes)
    assert codes.dtype == np.int64
    # every missing value gets the code after the last category
    np.testing.assert_array_equal(codes == len(categories), series.isna().to_numpy())


@pytest.mark.parametrize("kind", list(_columns()))
def test_unordered_codes_number_the_values_as_first_seen_with_missing_last(kind):
    series = _columns()[kind]
    codes, n_codes = unordered_codes(series, kind)
    expected, uniques = pd.factorize(series)  # first-seen order, -1 for missing
    assert n_codes == len(uniques) + 1
    np.testing.assert_array_equal(codes, np.where(expected < 0, len(uniques), expected))
    # the same partition of the rows as the sorted codes: same counts, up to the order
    sorted_codes, _ = factorize(series, kind)
    assert sorted(np.bincount(codes)) == sorted(np.bincount(sorted_codes))


def test_unordered_codes_refuse_a_column_mixing_numbers_and_text():
    with pytest.raises(ValueError, match="'mixed' mixes numbers and text"):
        unordered_codes(pd.Series([1, "1", 2], dtype=object), "mixed")


def test_a_category_column_keeps_its_categories_order():
    series = pd.Series(pd.Categorical(["low", "high", "mid", None], ["low", "mid", "high"]))
    codes, categories = factorize(series, "c")
    assert categories == ["low", "mid", "high"]
    assert codes.tolist() == [0, 2, 1, 3]


def _reference_encoding(series, known):
    """New values looked up in the fit-time categories one by one (the plain way)."""
    position = {value: code for code, value in enumerate(known)}
    codes = []
    for value in series.astype(object):
        if pd.isna(value):
            codes.append(len(known))
        else:
            codes.append(position.get(value, UNSEEN))
    return np.array(codes, dtype=float)


@pytest.mark.parametrize("kind", list(_columns()))
def test_new_rows_are_encoded_as_at_fit_time(kind):
    column = _columns()[kind]
    _, known = factorize(column, kind)
    known = known[1:]  # the first category was never seen: its rows are unseen now
    frame = column.to_frame(kind)
    encoded = encode_like_fit(frame, [kind], [known])
    np.testing.assert_array_equal(encoded[0], _reference_encoding(column, known))
    assert (encoded[0] == UNSEEN).any()  # the test covers unseen values
    if column.isna().any():
        assert (encoded[0] == len(known)).any()  # ... and missing ones


@pytest.mark.parametrize("fit_dtype", ["str", object, "category"])
@pytest.mark.parametrize(
    "new_dtype", ["str", object, "category", pd.StringDtype("python"), "string[pyarrow]"]
)
def test_predictions_do_not_depend_on_how_the_text_is_stored(fit_dtype, new_dtype):
    rng = np.random.default_rng(4)
    X = pd.DataFrame({f"c{k}": _text(300, seed=k) for k in range(3)})
    y = (X["c0"].isin(["a", "b"]) ^ X["c1"].isin(["c"])).astype(int).to_numpy().copy()
    y[rng.random(300) < 0.1] ^= 1
    model = ID3Classifier().fit(X.astype(fit_dtype), y)
    new = pd.DataFrame({f"c{k}": _text(500, seed=10 + k) for k in range(3)})
    new.iloc[::17, 0] = "never seen"
    expected = model.predict_proba(new.astype(object))
    np.testing.assert_array_equal(model.predict_proba(new.astype(new_dtype)), expected)
    # the same stops as routing each row's values by hand through the Node tree
    for i in range(0, 500, 37):
        node = model.root_
        row = new.iloc[i]
        while not node.is_leaf:
            value = row[node.feature]
            key = MISSING if pd.isna(value) else value
            if key not in node.children:  # unseen here: the row stops at this node
                break
            node = node.children[key]
        counts = np.array([node.class_counts[c] for c in model.classes_], dtype=float)
        np.testing.assert_allclose(expected[i], counts / counts.sum())
