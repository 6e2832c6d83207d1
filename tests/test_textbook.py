"""The textbook ID3 (id3tree/textbook.py) is the specification: the learner grows its tree.

Every tree is grown both ways, ``grow_tree(X, y, **settings)`` node by node and
``ID3Classifier(**settings).fit(X, y).root_`` level by level, and compared node for node: the
same features, thresholds, entropies and gains to the bit, class counts, branch keys in the
same order, sizes, depths, predictions, pre-order ids, and leaves stopped by the same rule. On
every shipped data set (the larger ones sliced: the textbook scores every cut by a call to the
entropy function, and one test should take seconds, not minutes) and on Hypothesis data over
every setting the textbook has. And a row walked down by hand (``predict_row``) gets the class
``ID3Classifier.predict`` gives it, missing values and categories never seen included.
"""

from __future__ import annotations

import decimal
import math
import struct
import warnings
from decimal import Decimal

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as sp_stats
from sklearn.tree import DecisionTreeClassifier

from id3tree import ID3Classifier, datasets, textbook
from id3tree.engine import splits
from id3tree.model.node import MISSING, is_missing
from id3tree.textbook import grow_tree

RULES = ("pure", "max_depth", "min_samples_split", "min_samples_leaf", "valid split", "min_gain",
         "alpha")  # fmt: skip
"""The words that name a stopping rule, in the textbook's reasons and in the learner's."""


def bits(value: float) -> bytes:
    return struct.pack("<d", value)


def assert_same_tree(mine, engine, where="root") -> None:
    """``mine`` (the textbook's) and ``engine`` (the learner's) are the same tree, node for node."""
    assert mine.feature == engine.feature, where
    if engine.threshold is None:
        assert mine.threshold is None, where
    else:  # to the bit
        assert bits(mine.threshold) == bits(engine.threshold), (where, mine.threshold)
    assert list(mine.class_counts.items()) == list(engine.class_counts.items()), where
    assert (mine.n_samples, mine.depth, mine.node_id) == (
        engine.n_samples,
        engine.depth,
        engine.node_id,
    ), where
    assert mine.prediction == engine.prediction, where
    assert bits(mine.entropy) == bits(engine.entropy), (where, mine.entropy, engine.entropy)
    if engine.gain is None:
        assert mine.gain is None, where
    else:  # to the bit: features are compared by these floats
        assert bits(mine.gain) == bits(engine.gain), (where, mine.gain, engine.gain)
    assert list(mine.children) == list(engine.children), where  # keys, in order
    if mine.is_leaf:  # stopped by the same rule
        rule = next(r for r in RULES if r in mine.stop_reason)
        assert rule in engine.stop_reason, (where, mine.stop_reason, engine.stop_reason)
    for key, child in mine.children.items():
        assert_same_tree(child, engine.children[key], f"{where} / {key}")


def both_ways(X, y, **params):
    """The textbook's tree and the learner's, grown with the same settings."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (the learner warns about ID-like columns)
        engine = ID3Classifier(**params).fit(X, y).root_
    return grow_tree(X, y, **params), engine


# ---------------------------------------------------------------------------------------------
# every shipped data set
# ---------------------------------------------------------------------------------------------
SLICES = {"breast_cancer": 150, "hmeq": 300, "adult": 400}
"""Rows kept of the larger data sets (the first ones); the others are grown whole."""

SETTINGS = [
    {},
    {"criterion": "gain_ratio"},
    {"criterion": "gain_ratio", "average_gain_rule": False, "min_samples_leaf": 3},
    {"max_depth": 3, "min_samples_split": 20, "min_samples_leaf": 5},
    {"min_gain": 0.05, "alpha": 0.01},
    {"thresholds": "c45"},
    {"thresholds": "c45", "criterion": "gain_ratio", "min_samples_leaf": 3},
    {"log_base": "e", "criterion": "gain_ratio", "min_gain": 0.02},
]


@pytest.mark.parametrize("params", SETTINGS, ids=lambda p: ",".join(p) or "defaults")
@pytest.mark.parametrize("name", datasets.list_datasets()["name"].tolist())
def test_every_data_set_grows_the_same_tree_both_ways(name, params):
    X, y = datasets.load(name, return_X_y=True)
    X, y = X.iloc[: SLICES.get(name)], y.iloc[: SLICES.get(name)]
    assert_same_tree(*both_ways(X, y, **params))


def test_numbers_listed_as_categorical_branch_on_each_value():
    # titanic's class and siblings as categories: a branch per value, sorted as numbers
    X, y = datasets.load_titanic(return_X_y=True)
    X = X[["Pclass", "SibSp", "Age", "Sex"]]
    mine, engine = both_ways(X, y, categorical=["Pclass", 1], max_depth=3)
    assert_same_tree(mine, engine)
    assert any(node.feature in ("Pclass", "SibSp") for node in mine.walk())


# ---------------------------------------------------------------------------------------------
# Hypothesis data: ties, duplicates, missing values, several classes, every setting
# ---------------------------------------------------------------------------------------------
POOLS = {
    "ties": [-2.0, -0.5, -0.0, 0.0, 0.1, 0.2, 0.3, 1.0, 2.5, 7.0],
    "close": [1.0, math.nextafter(1.0, 2.0), math.nextafter(math.nextafter(1.0, 2.0), 2.0), 3.0],
    "huge": [-1.7e308, 1e308, 1.7e308, 5e-324, -5e-324, 0.0],
}


@st.composite
def columns(draw, n: int):
    """One feature of n rows: numbers from a pool of ties (sometimes NaN), categories (text
    with None, a pandas category column in its own order, booleans), or numbers to list in
    ``categorical=``. Returns the column and whether it is to be listed."""
    kind = draw(st.sampled_from(["ties", "ties", "close", "huge", "text", "category", "bool",
                                 "coded"]))  # fmt: skip
    if kind in POOLS:
        x = np.array(draw(st.lists(st.sampled_from(POOLS[kind]), min_size=n, max_size=n)))
        if draw(st.booleans()):
            x[np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)))] = np.nan
        return x, False
    if kind == "bool":
        return pd.Series(draw(st.lists(st.booleans(), min_size=n, max_size=n))), False
    if kind == "coded":  # numbers that are codes: listed in categorical=
        return np.array(draw(st.lists(st.sampled_from([3.0, 1.0, 2.0, np.nan]), min_size=n,
                                      max_size=n))), True  # fmt: skip
    values = draw(st.lists(st.sampled_from(["b", "a", "c", None]), min_size=n, max_size=n))
    if kind == "category":  # branches in the categories' order, not the alphabet's
        return pd.Series(pd.Categorical(values, categories=["c", "a", "b"])), False
    return pd.Series(values, dtype=object), False


@st.composite
def tables(draw):
    n = draw(st.integers(1, 50))
    frame, listed = {}, []
    for f in range(draw(st.integers(1, 4))):
        x, is_listed = draw(columns(n))
        frame[f"x{f}"] = x
        if is_listed:
            listed.append(f"x{f}")
    labels = draw(st.sampled_from([[0, 1], [0, 1, 2], ["no", "yes"], ["a", "b", "c", "d", "e"]]))
    y = pd.Series(draw(st.lists(st.sampled_from(labels), min_size=n, max_size=n)))
    params = dict(
        criterion=draw(st.sampled_from(["entropy", "gain_ratio"])),
        average_gain_rule=draw(st.booleans()),
        max_depth=draw(st.sampled_from([None, None, 0, 1, 2])),
        min_samples_split=draw(st.sampled_from([2, 2, 3, 6])),
        min_samples_leaf=draw(st.sampled_from([1, 1, 2, 3])),
        min_gain=draw(st.sampled_from([0.0, 0.0, 0.05, 0.3])),
        alpha=draw(st.sampled_from([None, None, 0.05, 0.5])),
        categorical=listed or "auto",
        log_base=draw(st.sampled_from([2, 2, 2, "e"])),
        ties=draw(st.sampled_from(["first", "first", "name"])),
    )
    return pd.DataFrame(frame), y, params


@settings(deadline=None, max_examples=150)
@given(data=tables())
def test_hypothesis_data_grows_the_same_tree_both_ways(data):
    X, y, params = data
    assert_same_tree(*both_ways(X, y, **params))


@settings(deadline=None, max_examples=40)
@given(
    x=st.lists(st.floats(allow_nan=False, allow_infinity=False, width=64), min_size=2, max_size=40),
    seed=st.integers(0, 2**16),
)
def test_any_floats_give_the_same_thresholds(x, seed):
    # every float, not only a pool: subnormals, neighbours, the largest
    y = np.random.default_rng(seed).integers(0, 3, len(x))
    assert_same_tree(*both_ways(pd.DataFrame({"x": x}), y))


# ---------------------------------------------------------------------------------------------
# the textbook's own numbers, against references
# ---------------------------------------------------------------------------------------------
def test_play_tennis_is_quinlans_tree_with_his_gains():
    X, y = datasets.load_play_tennis(return_X_y=True)
    root = grow_tree(X, y)
    # Quinlan (1986): gain(Outlook) = 0.246 bits, the root; 0.940 bits before the split
    assert root.feature == "Outlook" and round(root.gain, 3) == 0.247
    assert round(root.entropy, 3) == 0.940
    assert root.entropy == pytest.approx(sp_stats.entropy([9, 5], base=2), abs=1e-15)
    assert {value: child.feature for value, child in root.children.items()} == {
        "Overcast": None,
        "Rain": "Wind",
        "Sunny": "Humidity",
    }
    assert [node.prediction for node in root.walk() if node.is_leaf] == [
        "Yes", "No", "Yes", "No", "Yes"
    ]  # fmt: skip


@pytest.mark.parametrize("name", ["iris", "breast_cancer"])
def test_numeric_root_gains_what_scikit_learns_does(name):
    # on numbers only, ID3's root split is the best binary split of scikit-learn's entropy tree
    X, y = datasets.load(name, return_X_y=True)
    X, y = X.iloc[:300], y.iloc[:300]
    root = grow_tree(X, y, max_depth=1)
    sk = DecisionTreeClassifier(criterion="entropy", max_depth=1, random_state=0).fit(X, y)
    n, impurity = sk.tree_.n_node_samples, sk.tree_.impurity
    sk_gain = impurity[0] - (n[1] * impurity[1] + n[2] * impurity[2]) / n[0]
    assert root.gain == pytest.approx(sk_gain, abs=1e-6)
    if name == "breast_cancer":  # (iris: petal length and width tie, scikit-learn picks either)
        assert root.feature == X.columns[sk.tree_.feature[0]]
        assert root.threshold == pytest.approx(sk.tree_.threshold[0], rel=1e-6)  # (float32)


@settings(deadline=None, max_examples=30)
@given(data=tables())
def test_every_split_keeps_its_rows_and_gains_at_most_its_entropy(data):
    X, y, params = data
    for node in grow_tree(X, y, **params).walk():
        assert 0 <= node.entropy <= math.log2(len(node.class_counts)) + 1e-12
        assert sum(node.class_counts.values()) == node.n_samples
        if not node.is_leaf:
            assert 0 <= node.gain <= node.entropy + 1e-12
            for c in node.class_counts:
                assert (
                    sum(ch.class_counts[c] for ch in node.children.values())
                    == (node.class_counts[c])
                )


def test_the_missing_values_take_the_last_branch():
    X = pd.DataFrame(
        {"x": [1.0, 2.0, np.nan, 3.0, np.nan, 4.0], "c": ["a", None, "b", "a", "b", "b"]}
    )
    y = ["p", "p", "q", "q", "q", "q"]
    root = grow_tree(X, y)
    assert root.feature == "x" and list(root.children) == ["<=", ">", MISSING]
    assert root.children[MISSING].class_counts == {"p": 0, "q": 2}


# ---------------------------------------------------------------------------------------------
# what the textbook states, the engine uses
# ---------------------------------------------------------------------------------------------
def test_the_tie_tolerance_is_the_engines():
    assert textbook.TIE_TOLERANCE == splits.TIE_TOLERANCE


@given(low=st.floats(allow_nan=False, allow_infinity=False), high=st.floats(allow_nan=False,
       allow_infinity=False))  # fmt: skip
def test_the_midpoint_is_the_engines(low, high):
    low, high = sorted((low, high))
    if low == high:
        high = math.nextafter(high, math.inf)
        if math.isinf(high):
            return
    mine = textbook.midpoint(low, high)
    assert bits(mine) == bits(float(splits.midpoint(np.float64(low), np.float64(high))))
    assert low <= mine < high


def test_gain_and_entropy_are_the_two_names_of_information_gain():
    X, y = datasets.load_titanic(return_X_y=True)
    X, y = X[["Pclass", "Sex", "Age", "Fare"]].iloc[:200], y.iloc[:200]
    assert_same_tree(grow_tree(X, y, criterion="gain"), grow_tree(X, y, criterion="entropy"))


# ---------------------------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"criterion": "gini"}, "criterion must be one of"),
        ({"categorical": ["nope"]}, "not in X"),
        ({"categorical": "all"}, "categorical must be 'auto'"),
    ],
)
def test_bad_settings_are_named(kwargs, message):
    X, y = datasets.load_play_tennis(return_X_y=True)
    with pytest.raises(ValueError, match=message):
        grow_tree(X, y, **kwargs)


@pytest.mark.parametrize("y", [["Yes"] * 3, ["Yes"] * 14 + [None]])
def test_labels_must_match_the_rows(y):
    X, _ = datasets.load_play_tennis(return_X_y=True)
    with pytest.raises(ValueError, match="a label for each of the 14 rows"):
        grow_tree(X, y)


# ---------------------------------------------------------------------------------------------
# near-ties: two cuts whose overall entropies differ by TIE_TOLERANCE, give or take 3e-15 bits
# ---------------------------------------------------------------------------------------------
# (found by scoring every pair of left counts of nodes of ~6000 rows in whole units and keeping
# the pairs whose difference is within 4 units of the tolerance: where a rule written in real
# numbers and one written in whole units can part, so where the unit has to be followed exactly)
NEAR_TIES = [  # class counts of the node, left of cut A (x <= 0.5), left of cut B (x <= 1.5)
    ((2900, 3100), (239, 75), (1487, 1179)),
    ((2900, 3100), (1821, 1360), (2450, 2122)),
    ((3000, 3001), (1448, 1448), (1452, 1452)),
    ((3000, 3001), (1019, 1018), (1039, 1038)),
]


def c_ln_c_units(c: int) -> int:
    """``c ln c`` in whole units of ``2**-36`` nats as the documented rule takes it, in exact
    decimals: ``ln c`` rounded to the nearest double, times ``c`` rounded to the nearest double,
    times ``2**36`` rounded to the nearest whole number (half to even)."""
    if c < 2:
        return 0
    ln_c = float(Decimal(c).ln())  # (Decimal to float rounds to the nearest double)
    # the rule reads ln c as the nearest double: so must the platform's log, here
    assert np.log(float(c)) == ln_c, f"this platform's log({c}) is not the nearest double"
    c_ln_c = float(Decimal(ln_c) * c)  # (exact product, then the nearest double)
    return int((Decimal(c_ln_c) * 2**36).to_integral_value(decimal.ROUND_HALF_EVEN))


def near_tie(totals, a, b):
    """Rows with x = 0 (the counts ``a``), 1 (up to ``b``) and 2 (the rest), two classes; and
    the threshold the documented rule chooses, computed apart in exact decimals: each cut's
    ``n_left H(left) + n_right H(right)`` in whole units, tied with the lowest within
    ``floor(TIE_TOLERANCE n / unit)`` units, a unit being ``2**-36`` nats."""
    blocks = [a, (b[0] - a[0], b[1] - a[1]), (totals[0] - b[0], totals[1] - b[1])]
    x = np.repeat([0.0, 1.0, 2.0], [sum(block) for block in blocks])
    y = np.concatenate([np.repeat([0, 1], block) for block in blocks])
    with decimal.localcontext() as context:
        context.prec = 100

        def score(left):  # n H = n ln n - sum_k c_k ln c_k, of each side, in whole units
            right = (totals[0] - left[0], totals[1] - left[1])
            return sum(c_ln_c_units(sum(s)) - sum(map(c_ln_c_units, s)) for s in (left, right))

        n, bits_per_unit = sum(totals), 1 / (2**36 * Decimal(2).ln())
        tolerance = (Decimal(textbook.TIE_TOLERANCE) * n / bits_per_unit).to_integral_value(
            decimal.ROUND_FLOOR
        )
        score_a, score_b = score(a), score(b)
        tied = score_a - min(score_a, score_b) <= tolerance
    return pd.DataFrame({"x": x}), y, 0.5 if tied else 1.5


@pytest.mark.parametrize(("totals", "a", "b"), NEAR_TIES)
def test_the_textbook_breaks_near_ties_by_the_documented_rule(totals, a, b):
    X, y, rule = near_tie(totals, a, b)
    assert grow_tree(X, y, max_depth=1).threshold == rule


@pytest.mark.parametrize(("totals", "a", "b"), NEAR_TIES)
def test_the_learner_breaks_near_ties_by_the_documented_rule(totals, a, b):
    X, y, rule = near_tie(totals, a, b)
    assert ID3Classifier(max_depth=1).fit(X, y).root_.threshold == rule


# ---------------------------------------------------------------------------------------------
# predicting: the walk by hand answers as the learner's router
# ---------------------------------------------------------------------------------------------
def stop_node(root, row):
    """The node where the walk of ``row`` ends: a leaf, or a node with no branch for it."""
    node = root
    while not node.is_leaf and node.child_for(row[node.feature]) is not None:
        node = node.child_for(row[node.feature])
    return node


def assert_predicts_as_the_learner(root, model, rows: pd.DataFrame, records=None) -> list:
    """predict_row, on each row as a Series and as a dict (``records``, else ``rows``' own), equals
    ``model.predict`` and its walk ends where ``model.apply`` stops; returns where it ends."""
    records = rows.to_dict("records") if records is None else records
    expected, stops = model.predict(rows), model.apply(rows)
    ends = [stop_node(root, record) for record in records]
    for i, ((_, series), record) in enumerate(zip(rows.iterrows(), records)):
        assert textbook.predict_row(root, series) == expected[i], (i, record)
        assert textbook.predict_row(root, record) == expected[i], (i, record)
        assert ends[i].node_id == stops[i], (i, record)
    return ends


def sample_rows(X: pd.DataFrame, n: int = 300) -> pd.DataFrame:
    """Every k-th row (about n of them), and up to n rows with missing values."""
    missing = X[X.isna().any(axis=1)]
    return pd.concat([X.iloc[:: max(1, len(X) // n)], missing.iloc[:: max(1, len(missing) // n)]])


def shuffled(X: pd.DataFrame, seed: int = 0) -> pd.DataFrame:
    """New rows: each column's values in its own random order (unseen paths, same kinds)."""
    rng = np.random.default_rng(seed)
    return pd.DataFrame({c: X[c].iloc[rng.permutation(len(X))].to_numpy() for c in X.columns})


def records(rows: pd.DataFrame) -> list[dict]:
    """The rows as dicts, each missing value as None, NaN or pd.NA in turn."""
    return [
        {c: [None, np.nan, pd.NA][i % 3] if pd.isna(v) else v for c, v in record.items()}
        for i, record in enumerate(rows.to_dict("records"))
    ]


PREDICT_SETTINGS = [{}, {"max_depth": 3, "criterion": "gain_ratio"},
                    {"min_samples_leaf": 5, "ccp_alpha": 0.002}, {"thresholds": "c45"}]  # fmt: skip


@pytest.mark.parametrize("params", PREDICT_SETTINGS, ids=lambda p: ",".join(p) or "full")
@pytest.mark.parametrize("name", datasets.list_datasets()["name"].tolist())
def test_every_data_set_is_predicted_row_by_row_as_the_learner_does(name, params):
    X, y = datasets.load(name, return_X_y=True)
    model = ID3Classifier(id_like="keep", **params).fit(X, y)
    rows = sample_rows(X)
    ends = assert_predicts_as_the_learner(model.root_, model, rows)
    assert any(end.is_leaf and end.depth > 0 for end in ends)  # the walk goes down
    assert rows.isna().any(axis=1).sum() >= min(50, X.isna().any(axis=1).sum())  # (missing too)
    assert_predicts_as_the_learner(model.root_, model, sample_rows(shuffled(X)))


@pytest.mark.parametrize("name", datasets.list_datasets()["name"].tolist())
def test_the_textbooks_tree_predicts_new_rows_as_the_learner_does(name):
    # grown on the first rows, asked about the others: categories never seen at a node
    X, y = datasets.load(name, return_X_y=True)
    n = SLICES.get(name, len(X) // 2)
    model = ID3Classifier(max_depth=4, id_like="keep").fit(X.iloc[:n], y.iloc[:n])
    root = grow_tree(X.iloc[:n], y.iloc[:n], max_depth=4)
    assert_predicts_as_the_learner(root, model, sample_rows(X.iloc[n:]))


def test_play_tennis_by_hand():
    X, y = datasets.load_play_tennis(return_X_y=True)
    root = grow_tree(X, y)
    row = {"Outlook": "Rain", "Temperature": "Mild", "Humidity": "High", "Wind": "Weak"}
    assert textbook.predict_row(root, row) == "Yes" and stop_node(root, row).is_leaf
    # Foggy was never seen: the walk stops at the root, which answers its majority (9 Yes, 5 No)
    assert stop_node(root, {**row, "Outlook": "Foggy"}) is root
    assert textbook.predict_row(root, {**row, "Outlook": "Foggy"}) == "Yes"
    # no training row lacked the wind: the walk stops at Rain's node (3 Yes, 2 No)
    for missing in (None, np.nan, pd.NA):
        assert stop_node(root, {**row, "Wind": missing}) is root.children["Rain"]
        assert textbook.predict_row(root, {**row, "Wind": missing, "Outlook": "Sunny"}) == "No"


@pytest.mark.parametrize("name", ["titanic", "hmeq", "mushroom", "adult"])
def test_unseen_categories_and_missing_values_stop_where_the_learners_rows_stop(name):
    X, y = datasets.load(name, return_X_y=True)
    model = ID3Classifier(max_depth=6, id_like="keep").fit(X, y)
    rows = sample_rows(X, 200).reset_index(drop=True).astype(object)
    rng = np.random.default_rng(1)
    for column in rows.columns:  # missing in a sixth of the rows, a new category in another
        u = rng.random(len(rows))
        rows.loc[u < 1 / 6, column] = np.nan
        if not pd.api.types.is_numeric_dtype(X[column]):
            rows.loc[u > 5 / 6, column] = "never seen"
    dicts = records(rows)
    ends = assert_predicts_as_the_learner(model.root_, model, rows.infer_objects(), dicts)
    early = [(end, record[end.feature]) for end, record in zip(ends, dicts) if not end.is_leaf]
    assert any(not is_missing(value) and value == "never seen" for _, value in early)
    assert any(is_missing(value) and MISSING not in end.children for end, value in early)


@settings(deadline=None, max_examples=100)
@given(data=tables(), seed=st.integers(0, 2**16))
def test_hypothesis_rows_are_predicted_by_the_walk_as_by_the_learner(data, seed):
    X, y, params = data
    model = ID3Classifier(id_like="keep", **params).fit(X, y)
    rng = np.random.default_rng(seed)
    new = shuffled(X, seed).astype(object)  # new rows: some values missing, some never seen
    for column in new.columns:
        u = rng.random(len(new))
        new.loc[u < 0.2, column] = np.nan
        if column in params["categorical"] or new[column].map(type).eq(str).any():  # (text)
            new.loc[u > 0.8, column] = 7.0 if column in params["categorical"] else "z"
    for root in (model.root_, grow_tree(X, y, **params)):  # (the same tree, grown twice)
        assert_predicts_as_the_learner(root, model, X)
        assert_predicts_as_the_learner(root, model, new.infer_objects(), records(new))


@pytest.mark.parametrize(
    ("X", "categorical", "new", "expected"),
    [  # 1 == 1.0 == True: a category is found by equality, by the learner as by a dict
        ({"flag": [True, False, False]}, "auto", {"flag": [1, 0, 2]}, "abb"),
        ({"code": [1, 2, 3]}, ["code"], {"code": [1.0, 2.0, 3.5]}, "abb"),
        # 2**53 + 1 is no double: read as 2**53, it goes left of the cut at 2**53
        ({"x": [2**53 - 2, 2**53 + 2, 2**53 + 2]}, "auto", {"x": [2**53 + 1, 2**53 + 3, 0]}, "aba"),
    ],
)
def test_values_are_read_as_the_learner_reads_them(X, categorical, new, expected):
    model = ID3Classifier(categorical=categorical).fit(pd.DataFrame(X), ["a", "b", "b"])
    assert_predicts_as_the_learner(model.root_, model, pd.DataFrame(new))
    assert "".join(model.predict(pd.DataFrame(new))) == expected
