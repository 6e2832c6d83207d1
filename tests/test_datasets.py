"""Tests for id3tree.datasets: shapes, missing values and labels as documented in SOURCES.md."""

from __future__ import annotations

import hashlib
import re

import numpy as np
import pandas as pd
import pytest
from pandas.api.types import is_float_dtype, is_integer_dtype, is_object_dtype, is_string_dtype

from id3tree import datasets
from id3tree.datasets import (
    list_datasets,
    load,
    load_adult,
    load_breast_cancer,
    load_car,
    load_hmeq,
    load_iris,
    load_mushroom,
    load_play_tennis,
    load_titanic,
)

NAMES = ["adult", "breast_cancer", "car", "hmeq", "iris", "mushroom", "play_tennis", "titanic"]
SHAPES = {  # from datasets/SOURCES.md
    "adult": (32561, 15),
    "breast_cancer": (569, 32),
    "car": (1728, 7),
    "hmeq": (5960, 13),
    "iris": (150, 5),
    "mushroom": (8124, 23),
    "play_tennis": (14, 5),
    "titanic": (891, 12),
}
TARGETS = {
    "adult": "income",
    "breast_cancer": "diagnosis",
    "car": "class",
    "hmeq": "BAD",
    "iris": "species",
    "mushroom": "class",
    "play_tennis": "Play",
    "titanic": "Survived",
}
LOADERS = {
    "adult": load_adult,
    "breast_cancer": load_breast_cancer,
    "car": load_car,
    "hmeq": load_hmeq,
    "iris": load_iris,
    "mushroom": load_mushroom,
    "play_tennis": load_play_tennis,
    "titanic": load_titanic,
}


def is_text(series: pd.Series) -> bool:
    """A string column: ``str`` dtype (pandas 3) or object dtype holding only str (pandas 2)."""
    dtype_ok = is_string_dtype(series.dtype) or is_object_dtype(series.dtype)
    return dtype_ok and series.dropna().map(lambda value: isinstance(value, str)).all()


def missing_counts(frame: pd.DataFrame) -> dict[str, int]:
    counts = frame.isna().sum()
    return {col: int(n) for col, n in counts[counts > 0].items()}


# ---------------------------------------------------------------- catalogue


def test_list_datasets_table():
    table = list_datasets()
    assert list(table.columns) == ["name", "rows", "columns", "target", "description", "source"]
    assert table["name"].tolist() == NAMES
    assert dict(zip(table["name"], table["target"], strict=True)) == TARGETS
    assert table["description"].str.len().gt(0).all()
    assert table["source"].str.len().gt(0).all()


@pytest.mark.parametrize("name", NAMES)
def test_stored_counts_match_loaded_frame(name):
    row = list_datasets().set_index("name").loc[name]
    frame = load(name)
    assert (int(row["rows"]), int(row["columns"])) == frame.shape == SHAPES[name]
    assert row["target"] in frame.columns


def test_files_match_sources_table():
    """Bytes, sha256 and shape of every CSV agree with the table at the top of SOURCES.md."""
    folder = datasets._data_dir()
    text = (folder / "SOURCES.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| (\S+\.csv) \| (\d+) x (\d+) \| (\d+) \| ([0-9a-f]{64}) \|$", text, re.M)
    assert len(rows) == 9
    for file, n_rows, n_cols, size, sha in rows:
        data = (folder / file).read_bytes()
        assert len(data) == int(size), file
        assert hashlib.sha256(data).hexdigest() == sha, file
        frame = pd.read_csv(folder / file)
        assert frame.shape == (int(n_rows), int(n_cols)), file


# ---------------------------------------------------------------- names and errors


@pytest.mark.parametrize("alias", ["play-tennis", "Play_Tennis", "PLAY-TENNIS", " play_tennis "])
def test_name_aliases(alias):
    pd.testing.assert_frame_equal(load(alias), load("play_tennis"))


def test_file_stem_aliases():
    assert load("car_evaluation").shape == (1728, 7)
    assert load("Breast-Cancer-Wisconsin").shape == (569, 32)


def test_unknown_name_lists_valid_names():
    with pytest.raises(ValueError, match="unknown dataset 'foo'") as info:
        load("foo")
    message = str(info.value)
    assert "choose one of: adult, breast_cancer, car" in message
    assert all(name in message for name in NAMES)


@pytest.mark.parametrize("split", ["valid", "Train", "", None, 0, ["train"]])
def test_adult_bad_split(split):
    with pytest.raises(ValueError, match="split"):
        load_adult(split)


@pytest.mark.parametrize("name", NAMES)
def test_named_loader_equals_load(name):
    pd.testing.assert_frame_equal(LOADERS[name](), load(name))


# ---------------------------------------------------------------- return_X_y and copies


@pytest.mark.parametrize("name", NAMES)
def test_return_X_y_splits_frame(name):
    frame = load(name)
    X, y = load(name, return_X_y=True)
    target = TARGETS[name]
    assert isinstance(X, pd.DataFrame) and isinstance(y, pd.Series)
    assert y.name == target and target not in X.columns
    pd.testing.assert_series_equal(y, frame[target])
    expected = [
        c for c in frame.columns if c != target and not (name == "breast_cancer" and c == "target")
    ]
    assert list(X.columns) == expected
    pd.testing.assert_frame_equal(X, frame[expected])
    X2, y2 = LOADERS[name](return_X_y=True)
    pd.testing.assert_frame_equal(X2, X)
    pd.testing.assert_series_equal(y2, y)


def test_breast_cancer_X_has_the_30_measurements_only():
    X, y = load_breast_cancer(return_X_y=True)
    assert X.shape == (569, 30)
    assert "target" not in X.columns and "diagnosis" not in X.columns
    assert all(is_float_dtype(X[c]) for c in X.columns)
    assert y.value_counts().to_dict() == {"benign": 357, "malignant": 212}
    frame = load_breast_cancer()
    assert (frame["target"] == 0).eq(frame["diagnosis"] == "malignant").all()


@pytest.mark.parametrize("name", ["play_tennis", "hmeq", "mushroom"])
def test_frames_are_independent_copies(name):
    first = load(name)
    target = TARGETS[name]
    first.loc[:, target] = first[target].iloc[0]
    first["extra"] = 1
    first.iloc[0, 0] = None
    second = load(name)
    assert second.shape == SHAPES[name]
    assert second[target].nunique() > 1
    X, y = load(name, return_X_y=True)
    y.iloc[:] = y.iloc[0]
    X.iloc[:, 0] = X.iloc[0, 0]
    pd.testing.assert_frame_equal(load(name), second)


def test_adult_copies_are_independent():
    train = load_adult()
    train["income"] = "changed"
    assert set(load_adult()["income"]) == {"<=50K", ">50K"}


# ---------------------------------------------------------------- per-dataset facts


def test_play_tennis():
    frame = load_play_tennis()
    assert frame.shape == (14, 5)
    assert list(frame.columns) == ["Outlook", "Temperature", "Humidity", "Wind", "Play"]
    assert frame["Play"].value_counts().to_dict() == {"Yes": 9, "No": 5}
    assert all(is_text(frame[c]) for c in frame.columns)
    assert set(frame["Outlook"]) == {"Sunny", "Overcast", "Rain"}
    assert frame.iloc[0].tolist() == ["Sunny", "Hot", "High", "Weak", "No"]


def test_iris():
    frame = load_iris()
    assert frame["species"].value_counts().to_dict() == {
        "setosa": 50,
        "versicolor": 50,
        "virginica": 50,
    }
    measurements = frame.drop(columns="species")
    assert all(is_float_dtype(measurements[c]) for c in measurements.columns)
    assert not frame.isna().any().any()
    assert measurements.min().min() > 0


def test_hmeq():
    frame = load_hmeq()
    assert frame.shape == (5960, 13)
    assert len(frame.dropna()) == 3364
    assert missing_counts(frame) == {
        "MORTDUE": 518,
        "VALUE": 112,
        "REASON": 252,
        "JOB": 279,
        "YOJ": 515,
        "DEROG": 708,
        "DELINQ": 580,
        "CLAGE": 308,
        "NINQ": 510,
        "CLNO": 222,
        "DEBTINC": 1267,
    }
    assert is_integer_dtype(frame["BAD"]) and set(frame["BAD"]) == {0, 1}
    assert is_integer_dtype(frame["LOAN"])
    for col in ["MORTDUE", "VALUE", "YOJ", "DEROG", "DELINQ", "CLAGE", "NINQ", "CLNO", "DEBTINC"]:
        assert is_float_dtype(frame[col]), col
    assert is_text(frame["REASON"]) and is_text(frame["JOB"])
    assert set(frame["REASON"].dropna()) == {"DebtCon", "HomeImp"}
    assert set(frame["JOB"].dropna()) == {"Other", "ProfExe", "Office", "Mgr", "Self", "Sales"}


def test_mushroom():
    frame = load_mushroom()
    assert frame.shape == (8124, 23)
    assert missing_counts(frame) == {"stalk-root": 2480}
    assert all(is_text(frame[c]) for c in frame.columns)
    values = set(np.unique(frame.drop(columns="stalk-root").to_numpy().astype(str)))
    assert all(len(v) == 1 and v.isalpha() for v in values)  # one-letter codes, no "?" left
    assert set(frame["bruises"]) == {"t", "f"}  # not turned into booleans
    assert "n" in set(frame["cap-color"])  # "n" (brown) is a value, not a missing marker
    assert set(frame["class"]) == {"e", "p"}
    assert set(frame["stalk-root"].dropna()) == {"b", "c", "e", "r"}
    assert frame["veil-type"].unique().tolist() == ["p"]  # a constant column in this data


@pytest.mark.parametrize(
    ("split", "rows", "missing"),
    [
        ("train", 32561, {"workclass": 1836, "occupation": 1843, "native-country": 583}),
        ("test", 16281, {"workclass": 963, "occupation": 966, "native-country": 274}),
    ],
)
def test_adult(split, rows, missing):
    frame = load_adult(split)
    assert frame.shape == (rows, 15)
    assert missing_counts(frame) == missing
    assert set(frame["income"]) == {"<=50K", ">50K"}
    text = frame.select_dtypes(exclude="number")
    for col in text.columns:
        values = text[col].dropna()
        assert not values.str.contains("?", regex=False).any(), col
        assert values.eq(values.str.strip()).all(), col
    for col in ["age", "fnlwgt", "education-num", "capital-gain", "capital-loss", "hours-per-week"]:
        assert is_integer_dtype(frame[col]), col


def test_adult_splits_share_columns_and_labels():
    train, test = load_adult("train"), load_adult(split="test")
    assert list(train.columns) == list(test.columns)
    assert set(test["income"]) == set(train["income"])
    assert test["income"].value_counts().to_dict() == {"<=50K": 12435, ">50K": 3846}
    pd.testing.assert_frame_equal(load("adult"), train)


def test_car():
    frame = load_car()
    assert frame["class"].value_counts().to_dict() == {
        "unacc": 1210,
        "acc": 384,
        "good": 69,
        "vgood": 65,
    }
    assert all(is_text(frame[c]) for c in frame.columns)
    assert set(frame["doors"]) == {"2", "3", "4", "5more"}
    assert set(frame["persons"]) == {"2", "4", "more"}
    assert not frame.isna().any().any()
    assert len(frame.drop(columns="class").drop_duplicates()) == 1728  # a full factorial design


def test_titanic():
    frame = load_titanic()
    assert frame.shape == (891, 12)
    assert missing_counts(frame) == {"Age": 177, "Cabin": 687, "Embarked": 2}
    assert set(frame["Survived"]) == {0, 1}
    assert frame["Survived"].sum() == 342
    assert is_float_dtype(frame["Age"]) and is_float_dtype(frame["Fare"])
    assert set(frame["Embarked"].dropna()) == {"S", "C", "Q"}
