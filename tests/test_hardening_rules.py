"""The exported rules under hostile names and values: the generated Python and SQL must predict
what the tree predicts, whatever the feature names, categories, classes, function and table
names (fuzzed with Unicode); the printed rules must not be forged by a label; a name Python
never accepts must not hang the naming."""

from __future__ import annotations

import keyword
import sqlite3
import unicodedata
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from id3tree import ID3Classifier


def fitted(X: pd.DataFrame, y, **params) -> ID3Classifier:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ID3Classifier(id_like="keep", **params).fit(X, y)


def python_predictions(rules, frame: pd.DataFrame, function_name: str = "predict_row") -> list:
    namespace: dict = {}
    exec(rules.to_python(function_name=function_name), namespace)
    return [namespace[function_name](row) for row in frame.to_dict("records")]


def sql_predictions(rules, frame: pd.DataFrame, table: str = "data", **options) -> list:
    connection = sqlite3.connect(":memory:")
    frame.to_sql(table, connection, index=False)
    rows = connection.execute(rules.to_sql(table=table, **options)).fetchall()
    assert len(rows) == len(frame)
    return [row[-1] for row in rows]


def random_frame(names: list, n: int = 32, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    columns = {}
    for i, name in enumerate(names):
        if i % 2:
            columns[name] = rng.choice(["u", "v", "w"], n)
        else:
            columns[name] = rng.integers(0, 4, n).astype(float)
    return pd.DataFrame(columns)


# ---------------------------------------------------------------------------------------------
# Python: names it folds, names it reserves, names it never accepts, keys that are not text
# ---------------------------------------------------------------------------------------------
@pytest.mark.timeout(60)  # a hang guard: the naming loop appended "_" forever
@pytest.mark.parametrize("name", ["area (m²)", "½", "x₁", "x¹", "³", "m²²", "ⅸ", "\u0301a"])
def test_a_name_python_never_accepts_gets_a_variable_and_the_naming_ends(name):
    X = random_frame([name, "other"])
    y = np.where(X[name] > 1, "big", "small").tolist()
    tree = fitted(X, y)
    assert python_predictions(tree.to_rules(), X) == tree.predict(X).tolist()


def test_features_named_as_builtins_and_helpers_do_not_break_the_function():
    """float and bool crashed the function; names that fold to row, math or missing too."""
    names = ["float", "bool", "ｒｏｗ", "𝐫𝐨𝐰", "math", "missing", "row", "ｍａｔｈ", "None_", "len"]
    X = random_frame(names, n=60, seed=1)
    rng = np.random.default_rng(2)
    y = rng.choice(["a", "b", "c"], len(X)).tolist()
    tree = fitted(X, y)
    rules = tree.to_rules()
    assert {"float", "bool", "ｒｏｗ", "𝐫𝐨𝐰"} <= set(rules.numeric)  # the tree tests them
    new = pd.concat(
        [X, X.head(5).assign(bool=np.nan, **{"ｍａｔｈ": "never seen"})], ignore_index=True
    )
    assert python_predictions(rules, new) == tree.predict(new).tolist()


@pytest.mark.parametrize("pair", [("fi", "\ufb01"), ("a", "\uff41"), ("k", "\u212a")])
def test_names_python_folds_into_one_stay_two_variables(pair):
    """fi and ﬁ were one variable: the function disagreed with predict on 14 of 32 rows."""
    X = random_frame(list(pair), n=32, seed=3)
    X[pair[1]] = np.random.default_rng(4).integers(0, 4, 32).astype(float)  # both numeric
    y = np.where((X[pair[0]] > 1) ^ (X[pair[1]] > 1), "p", "q").tolist()
    tree = fitted(X, y)
    assert set(tree.to_rules().numeric) == set(pair)  # the tree needs both
    assert python_predictions(tree.to_rules(), X) == tree.predict(X).tolist()


def test_variable_names_are_distinct_as_python_reads_them_and_never_reserved():
    from id3tree.teaching.rules import RESERVED, variable_names

    features = ["fi", "ﬁ", "a", "ａ", "float", "𝐫𝐨𝐰", "area (m²)", "½", "class", "", "__", "1"]
    names = variable_names(features, {"predict"})
    folded = [unicodedata.normalize("NFKC", v) for v in names.values()]
    assert folded == list(names.values())  # written as Python spells them
    assert len(set(folded)) == len(features)
    for v in folded:
        assert v.isidentifier() and not keyword.iskeyword(v) and v not in RESERVED
        assert v != "predict"


@pytest.mark.parametrize(
    ("function_name", "words"),
    [
        ("float", "built-in name"),
        ("bool", "built-in name"),
        (None, "must be a Python identifier"),
        (5, "must be a Python identifier"),
        ("class", "must be a Python identifier"),
        ("ﬁx", "spelled 'fix' by Python"),
    ],
)
def test_a_function_name_that_would_break_the_function_is_refused(function_name, words):
    """function_name="bool" hid the helper's bool: 8 of 24 rows wrong; None raised AttributeError."""
    X = random_frame(["x", "c"], n=24)
    rules = fitted(X, np.where(X["x"] > 1, "a", "b").tolist()).to_rules()
    with pytest.raises(ValueError, match=words):
        rules.to_python(function_name=function_name)


def test_columns_labelled_with_numbers_are_read_by_their_labels():
    """Columns named 0, 1.5, True or ("a", 1) were read as row['0'], a KeyError on real rows."""
    from id3tree.teaching.rules import rules_of

    labels = [0, 1.5, True, ("a", 1)]
    rng = np.random.default_rng(5)
    X = pd.DataFrame({label: rng.integers(0, 3, 40).astype(float) for label in labels})
    y = np.where(X[0] + X[1.5] > X[True] + X[("a", 1)], "p", "q").tolist()
    tree = fitted(X, y)
    rules = rules_of(tree.root_, features=list(X.columns))
    source = rules.to_python()
    assert "row[1.5]" in source and "row['1.5']" not in source
    namespace: dict = {}
    exec(source, namespace)
    rows = [dict(zip(labels, values)) for values in X.itertuples(index=False)]
    assert [namespace["predict"](row) for row in rows] == tree.predict(X).tolist()


# ---------------------------------------------------------------------------------------------
# SQL: integers beyond 64 bits, the row order, NUL, bad arguments
# ---------------------------------------------------------------------------------------------
def test_classes_beyond_sqlites_integers_stay_distinct():
    """2**70 and 2**70 + 1 came back as the same REAL."""
    X = pd.DataFrame({"x": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]})
    y = [2**70, 2**70, 2**70 + 1, 2**70 + 1, -(2**70), 2**62]
    tree = fitted(X, y)
    got = sql_predictions(tree.to_rules(), X)
    assert [int(v) for v in got] == tree.predict(X).tolist()
    assert len(set(got)) == 4


@pytest.mark.parametrize("features", [["rowid", "x"], ["rowid", "_rowid_", "x"], ["OID", "x"]])
@pytest.mark.parametrize("column", ["prediction", "rowid", "oid"])
def test_rows_come_back_in_table_order_whatever_the_columns_are_called(features, column):
    rng = np.random.default_rng(6)
    X = pd.DataFrame({f: rng.permutation(12).astype(float) for f in features})
    y = np.where(X["x"] > 5, "high", "low").tolist()
    tree = fitted(X, y)
    assert sql_predictions(tree.to_rules(), X, column=column) == tree.predict(X).tolist()


def test_a_table_whose_columns_hide_every_row_number_is_told_to_name_one():
    X = pd.DataFrame({"rowid": [1.0, 2, 3, 4], "_rowid_": [4.0, 3, 2, 1], "oid": [0.0, 1, 0, 1]})
    tree = fitted(X, ["a", "a", "b", "b"])
    with pytest.raises(ValueError, match="hide SQLite's row number: pass order_by="):
        tree.to_rules().to_sql()
    assert "ORDER BY" not in tree.to_rules().to_sql(order_by=None)


def test_a_nul_character_is_refused_before_it_reaches_sqlite():
    X = pd.DataFrame({"c": ["a\x00b", "c", "a\x00b", "c"]})
    tree = fitted(X, ["p", "q", "p", "q"])
    with pytest.raises(ValueError, match="column 'c' holds a NUL character"):
        tree.to_rules().to_sql()
    assert python_predictions(tree.to_rules(), X) == tree.predict(X).tolist()


@pytest.mark.parametrize(
    "options", [dict(table=None), dict(column=None), dict(order_by=3), dict(table=b"data")]
)
def test_sql_names_that_are_not_text_are_refused(options):
    X = random_frame(["x", "c"], n=12)
    rules = fitted(X, np.where(X["x"] > 1, "a", "b").tolist()).to_rules()
    with pytest.raises(TypeError, match="must be a str naming an SQL identifier"):
        rules.to_sql(**options)


# ---------------------------------------------------------------------------------------------
# text: a label cannot forge a line
# ---------------------------------------------------------------------------------------------
def test_a_label_with_a_newline_cannot_forge_a_rule():
    forged = "Sunny\nRule 9: IF everything THEN FORGED"
    X = pd.DataFrame({"Outlook": [forged, "Rain", forged, "Rain", "Overcast", "Overcast"]})
    odd = "Yes\r\nStop at node 7: IF x THEN y"
    y = ["No", "Yes", "No", "Yes", odd, odd]
    tree = fitted(X, y)
    rules = tree.to_rules()
    text = str(rules)
    lines = text.splitlines()
    assert not any(line.startswith("Rule 9") for line in lines)
    assert sum(line.startswith("Rule ") for line in lines) == len(rules) == 3
    assert sum(line.startswith("Stop at") for line in lines) == len(rules.stops)
    assert "Outlook = Sunny\\nRule 9: IF everything THEN FORGED" in text
    outline = tree.to_text().splitlines()
    assert len(outline) == 1 + len(tree.root_.children)  # one line per node
    assert python_predictions(rules, X) == sql_predictions(rules, X) == tree.predict(X).tolist()


# ---------------------------------------------------------------------------------------------
# the fuzz: arbitrary Unicode everywhere, exports equal predict
# ---------------------------------------------------------------------------------------------
TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=6)
NAMES = st.lists(
    TEXT.filter(lambda s: s.strip() != ""), min_size=1, max_size=4, unique_by=str.lower
).filter(lambda names: not {"rowid", "_rowid_", "oid"} <= {n.lower() for n in names})
FUNCTION_NAMES = st.from_regex(r"[^\W\d]\w{0,7}", fullmatch=True).filter(
    lambda s: (
        s.isidentifier()  # (\w also takes numbers such as "𖭛", no identifier)
        and unicodedata.normalize("NFKC", s) == s
        and not keyword.iskeyword(s)
        and s not in dir(__builtins__)
    )
)
TABLES = TEXT.filter(lambda s: s.strip() != "" and not s.lower().startswith("sqlite_"))


@st.composite
def data_sets(draw):
    names = draw(NAMES)
    n = draw(st.integers(6, 24))
    categories = draw(st.lists(TEXT, min_size=2, max_size=4, unique=True))
    numbers = st.floats(-1e6, 1e6, allow_nan=False) | st.just(0.5) | st.none()
    columns = {}
    for name in names:
        if draw(st.booleans()):
            values = draw(st.lists(numbers, min_size=n, max_size=n))
            columns[name] = pd.Series(values, dtype=float)
        else:
            values = draw(st.lists(st.sampled_from([*categories, None]), min_size=n, max_size=n))
            columns[name] = pd.Series(values, dtype=object)
    classes = draw(
        st.lists(TEXT, min_size=2, max_size=3, unique=True)
        | st.lists(st.integers(-(2**63), 2**63 - 1), min_size=2, max_size=3, unique=True)
    )
    y = draw(st.lists(st.sampled_from(classes), min_size=n, max_size=n))
    return pd.DataFrame(columns), y


@settings(max_examples=60)
@given(data=data_sets(), function_name=FUNCTION_NAMES, table=TABLES)
def test_exported_python_and_sql_predict_what_the_tree_predicts(data, function_name, table):
    X, y = data
    assume(len(set(y)) >= 2)
    tree = fitted(X, y)
    rules = tree.to_rules()
    unseen = X.head(2).copy()
    for name in X.columns:
        unseen[name] = None if X[name].dtype == object else np.nan
    rows = pd.concat([X, unseen], ignore_index=True)
    expected = tree.predict(rows).tolist()
    assert python_predictions(rules, rows, function_name) == expected
    assert sql_predictions(rules, rows, table) == expected
