"""Rules read off a tree: one per leaf, plus the stop rules; their Python and SQL exports must
predict exactly what the tree predicts, on every shipped data set and on rows made to hit the
edges (missing values, categories never seen, values on a threshold, -0.0, huge numbers)."""

from __future__ import annotations

import math
import re
import sqlite3
import warnings

import numpy as np
import pandas as pd
import pytest

from id3tree import ID3Classifier
from id3tree.base.diagnostics import IDLikeFeatureWarning
from id3tree.datasets import list_datasets, load, load_adult, load_iris, load_play_tennis
from id3tree.teaching.rules import (
    Interval,
    Missing,
    NotIn,
    quote_identifier,
    sql_number,
    variable_names,
)


# ---------------------------------------------------------------------------------------------
# helpers: run the exports
# ---------------------------------------------------------------------------------------------
def python_predictions(rules, frame: pd.DataFrame) -> list:
    namespace: dict = {}
    exec(rules.to_python(function_name="predict_row"), namespace)
    predict = namespace["predict_row"]
    return [predict(row) for row in frame.to_dict("records")]


def sqlite_table(frame: pd.DataFrame, table: str = "data") -> sqlite3.Connection:
    connection = sqlite3.connect(":memory:")
    frame.to_sql(table, connection, index=False)
    return connection


def sql_predictions(rules, frame: pd.DataFrame, table: str = "data") -> list:
    connection = sqlite_table(frame, table)
    cursor = connection.execute(rules.to_sql(table=table))
    names = [d[0] for d in cursor.description]
    rows = cursor.fetchall()
    assert names == [*map(str, frame.columns), "prediction"]  # the prediction comes last
    assert len(rows) == len(frame)
    return [row[-1] for row in rows]


def rules_met_in_sql(rules, frame: pd.DataFrame) -> np.ndarray:
    """How many rules (leaf and stop rules) each row meets, each rule tested on its own."""
    connection = sqlite_table(frame)
    met = np.zeros(len(frame), dtype=int)
    every = rules.all_rules
    for start in range(0, len(every), 400):  # SQLite's expressions nest at most 1000 deep
        terms = []
        for rule in every[start : start + 400]:
            tests = " AND ".join(c.sql(quote_identifier(c.feature)) for c in rule.conditions)
            terms.append(f"(CASE WHEN {tests or '1 = 1'} THEN 1 ELSE 0 END)")
        query = f"SELECT {' + '.join(terms)} FROM data ORDER BY rowid"
        met += np.array([row[0] for row in connection.execute(query)])
    return met


def same(got: list, expected) -> bool:
    return len(got) == len(expected) and all(a == b for a, b in zip(got, list(expected)))


# ---------------------------------------------------------------------------------------------
# the textbook case, checked by hand
# ---------------------------------------------------------------------------------------------
def test_play_tennis_rules_are_quinlans_tree_read_path_by_path():
    X, y = load_play_tennis(return_X_y=True)
    rules = ID3Classifier().fit(X, y).to_rules()
    # Quinlan (1986), Figure 2: Overcast -> P; Sunny: High -> N, Normal -> P; Rain: Windy -> N
    assert [r.text() for r in rules] == [
        "IF Outlook = Overcast THEN Yes",
        "IF Outlook = Rain AND Wind = Strong THEN No",
        "IF Outlook = Rain AND Wind = Weak THEN Yes",
        "IF Outlook = Sunny AND Humidity = High THEN No",
        "IF Outlook = Sunny AND Humidity = Normal THEN Yes",
    ]
    # coverage counted from the table by hand: 4 Overcast days, 2 rainy windy, 3 rainy calm,
    # 3 sunny humid, 2 sunny normal; every leaf is pure
    assert [r.n_samples for r in rules] == [4, 2, 3, 3, 2]
    assert [round(r.coverage, 4) for r in rules] == [round(n / 14, 4) for n in (4, 2, 3, 3, 2)]
    assert all(r.confidence == 1.0 for r in rules)
    # the stop rules: the root (9 Yes of 14), Rain (3 Yes of 5), Sunny (3 No of 5)
    stops = [(r.node, r.prediction, r.node_samples, r.confidence, r.n_samples) for r in rules.stops]
    assert stops == [(0, "Yes", 14, 9 / 14, 0), (2, "Yes", 5, 3 / 5, 0), (5, "No", 5, 3 / 5, 0)]
    assert rules.stops[1].text() == (
        "IF Outlook = Rain AND Wind is missing or not in {Strong, Weak} THEN Yes"
    )
    text = str(rules)
    assert text == rules.to_text()
    assert "Rule 1: IF Outlook = Overcast THEN Yes  [4 rows, 28.6%; confidence 100.0%]" in text
    assert "Stop at node 0: IF Outlook is missing or not in {Overcast, Rain, Sunny}" in text


def test_len_is_the_number_of_leaves_and_the_leaf_rules_share_out_the_rows():
    X, y = load_iris(return_X_y=True)
    tree = ID3Classifier().fit(X, y)
    rules = tree.to_rules()
    assert len(rules) == tree.get_n_leaves() == len(list(rules))
    assert sum(r.n_samples for r in rules) == len(X)
    leaves = {n.node_id: n for n in tree.root_.walk() if n.is_leaf}
    for rule in rules:
        leaf = leaves[rule.node]
        assert rule.prediction == leaf.prediction
        assert rule.confidence == max(leaf.class_counts.values()) / leaf.n_samples
        features = [c.feature for c in rule.conditions]
        assert len(features) == len(set(features))  # one condition per feature
    # petal_length is cut at 2.45 and then at 4.95 on the way to versicolor's big leaf
    assert (
        rules[1].text() == "IF 2.45 < petal_length <= 4.95 AND petal_width <= 1.65 THEN versicolor"
    )
    frame = rules.to_frame()
    assert list(frame.columns) == [
        "rule",
        "kind",
        "node",
        "conditions",
        "prediction",
        "n_samples",
        "coverage",
        "confidence",
    ]
    assert len(frame) == len(rules) + len(rules.stops)
    assert frame["coverage"].sum() == pytest.approx(1.0)


def test_a_missing_value_stop_rule_appears_only_where_a_row_can_reach_it():
    """A numeric feature already held in an interval on the path is not missing further down."""
    X, y = load_iris(return_X_y=True)
    rules = ID3Classifier().fit(X, y).to_rules()
    for rule in rules.stops:
        *path, last = rule.conditions
        assert isinstance(last, Missing)
        assert last.feature not in [c.feature for c in path]


# ---------------------------------------------------------------------------------------------
# every shipped data set: Python and SQL predict what the tree predicts
# ---------------------------------------------------------------------------------------------
def edge_rows(tree, X: pd.DataFrame, seed: int = 0, n: int = 60) -> pd.DataFrame:
    """Rows made to hit the edges: copies of training rows with a value missing, a category never
    seen, a value exactly on a threshold (and one float either side), -0.0, huge values."""
    rng = np.random.default_rng(seed)
    X = X.reset_index(drop=True)
    numeric = [c for c in X.columns if pd.api.types.is_numeric_dtype(X[c])]
    text = [c for c in X.columns if c not in numeric]
    picks = rng.integers(0, len(X), n)
    made = []
    for i, column in zip(picks, [*X.columns] * n):  # one value missing
        made.append({**X.iloc[i].to_dict(), column: None})
    for i, column in zip(picks, text * n if text else []):  # a category never seen
        made.append({**X.iloc[i].to_dict(), column: "never seen's value"})
    leaves = tree.apply(X)
    for node in list(tree.root_.walk())[:300]:
        if node.is_leaf or not node.is_numeric_split:
            continue
        below = {m.node_id for m in node.walk() if m.is_leaf}
        i = int(np.flatnonzero(np.isin(leaves, list(below)))[0])  # a row that reaches the node
        t = node.threshold
        for value in (t, math.nextafter(t, math.inf), math.nextafter(t, -math.inf)):
            made.append({**X.iloc[i].to_dict(), node.feature: value})
    for i, column in zip(picks, numeric * 6):
        for value in (-0.0, 0.0, 1e300, -1e300, 1.7976931348623157e308):
            made.append({**X.iloc[i].to_dict(), column: value})
    rows = pd.DataFrame(made, columns=X.columns)
    for column in numeric:
        rows[column] = pd.to_numeric(rows[column])
    for column in text:
        rows[column] = rows[column].astype(X[column].dtype)
    return rows


def fitted(name: str, **params):
    X, y = load(name, return_X_y=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IDLikeFeatureWarning)
        return ID3Classifier(**params).fit(X, y), X


CASES = [(name, {}) for name in list_datasets()["name"]] + [
    ("titanic", {"max_depth": 4}),  # ID-like columns kept out below: a deeper tree
    ("hmeq", {"min_samples_leaf": 5, "categorical": ["DEROG"]}),
    ("car", {"max_depth": 2}),
]


@pytest.mark.parametrize("name, params", CASES, ids=[f"{n}{p or ''}" for n, p in CASES])
def test_python_and_sql_predict_what_the_tree_predicts(name, params):
    X, y = load(name, return_X_y=True)
    if params and name == "titanic":
        X = X.drop(columns=["PassengerId", "Name", "Ticket", "Cabin"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IDLikeFeatureWarning)
        tree = ID3Classifier(**params).fit(X, y)
    rules = tree.to_rules()
    rows = edge_rows(tree, X)
    if name == "adult":  # 6,549 rules: the rows of the test split (new categories among them)
        test = load_adult("test", return_X_y=True)[0]
        data = pd.concat([X.iloc[::20], test.iloc[::20], rows], ignore_index=True)
    else:
        data = pd.concat([X, rows], ignore_index=True)
    expected = tree.predict(data)
    assert same(sql_predictions(rules, data), expected)
    assert same(python_predictions(rules, data), expected)
    if name != "adult":  # a row meets exactly one rule: the rules' order does not matter
        assert (rules_met_in_sql(rules, data) == 1).all()


def test_stop_rules_are_the_rows_the_tree_stops_early():
    """Rows that stop at an inner node meet that node's stop rule, and no training row does."""
    tree, X = fitted("play_tennis")
    rules = tree.to_rules()
    assert (rules_met_in_sql(rules, X) == 1).all()
    odd = pd.DataFrame(
        {
            "Outlook": ["Rain", "Sunny", "Foggy", None],
            "Temperature": ["Hot"] * 4,
            "Humidity": ["High", None, "High", "High"],
            "Wind": ["Breezy", "Weak", "Weak", "Weak"],
        }
    )
    assert tree.apply(odd).tolist() == [2, 5, 0, 0]  # where the tree stops them
    assert python_predictions(rules, odd) == ["Yes", "No", "Yes", "Yes"]
    assert sql_predictions(rules, odd) == ["Yes", "No", "Yes", "Yes"]
    assert tree.predict(odd).tolist() == ["Yes", "No", "Yes", "Yes"]


def test_a_missing_values_branch_is_a_rule_of_its_own():
    X = pd.DataFrame({"x": [1.0, 2.0, np.nan, np.nan, 5.0, 6.0], "c": list("aabbab")})
    y = ["p", "p", "q", "q", "r", "r"]
    tree = ID3Classifier().fit(X, y)
    rules = tree.to_rules()
    assert sorted(r.text() for r in rules) == [
        "IF x <= 3.5 THEN p",
        "IF x > 3.5 THEN r",
        "IF x is missing THEN q",
    ]
    assert rules.stops == []  # a missing value has a branch, and a number always has a side
    new = pd.DataFrame({"x": [np.nan, 3.5, -0.0, 1e308], "c": ["z", "a", "b", "a"]})
    assert python_predictions(rules, new) == ["q", "p", "p", "r"]
    assert sql_predictions(rules, new) == tree.predict(new).tolist() == ["q", "p", "p", "r"]


# ---------------------------------------------------------------------------------------------
# float edge cases
# ---------------------------------------------------------------------------------------------
def test_values_on_and_beside_every_threshold_go_where_the_tree_sends_them():
    rng = np.random.default_rng(3)
    values = np.concatenate(
        [rng.normal(0, 1, 40), [-0.0, 0.0, 1e300, -1e300, 1.7e308, -1.7e308, 5e-300, 0.1, 0.2]]
    )
    X = pd.DataFrame({"a": values, "b": rng.permutation(values) * 1e-3})
    y = rng.integers(0, 3, len(X))
    tree = ID3Classifier().fit(X, y)
    rules = tree.to_rules()
    thresholds = [n.threshold for n in tree.root_.walk() if not n.is_leaf]
    probes = [
        v
        for t in thresholds
        for v in (t, math.nextafter(t, -math.inf), math.nextafter(t, math.inf))
    ]
    probes += [-0.0, 0.0, 1e300, -1e300, 1.7976931348623157e308, -1.7976931348623157e308]
    new = pd.DataFrame({"a": probes, "b": probes[::-1]})
    new = pd.concat([new, new.assign(a=new["b"], b=new["a"]), X], ignore_index=True)
    expected = tree.predict(new).tolist()
    assert python_predictions(rules, new) == expected
    assert sql_predictions(rules, new) == expected


def test_sql_numbers_read_back_exactly_in_sqlite():
    """The shortest decimal is kept when it lies well inside the float's rounding interval; SQLite
    (whose conversion errs near the middle of it) reads every written number back exactly."""
    connection = sqlite3.connect(":memory:")
    rng = np.random.default_rng(11)
    cases = [59.87980246659993, 4.102254694584252e23, 2.45, 1.7976931348623157e308, -7.9104]
    cases += (rng.standard_normal(3000) * 10.0 ** rng.integers(-280, 300, 3000)).tolist()
    cases += [a / 2 + b / 2 for a, b in rng.random((3000, 2)).round(2) * 100]
    for x in cases:
        text = sql_number(x)
        assert float(text) == x
        assert connection.execute(f"SELECT {text}").fetchone()[0] == x, (x, text)
    # SQLite's own reading of the shortest decimal is off by one bit for these two
    assert connection.execute("SELECT 59.87980246659993").fetchone()[0] != 59.87980246659993
    assert sql_number(59.87980246659993) != repr(59.87980246659993)
    assert sql_number(2.45) == "2.45" and sql_number(-0.0) == "0.0"


# ---------------------------------------------------------------------------------------------
# names and values that need quoting
# ---------------------------------------------------------------------------------------------
def odd_frame() -> tuple[pd.DataFrame, list]:
    rng = np.random.default_rng(5)
    n = 120
    X = pd.DataFrame(
        {
            "select": rng.choice(["it's", 'say "hi"', "a\nb", "Zürich", "back\\slash"], n),
            'col "quoted"': rng.normal(0, 1, n),
            "petal length (cm)": rng.normal(5, 2, n),
            "rowid": rng.choice(["x", "y"], n),
            "class": rng.choice([True, False], n),
        }
    )
    y = np.where(X["petal length (cm)"] > 5, "big's", np.where(X["select"] == "it's", "a\nb", "c"))
    return X, y.tolist()


def test_identifiers_and_values_are_quoted_for_python_and_sql():
    X, y = odd_frame()
    tree = ID3Classifier().fit(X, y)
    rules = tree.to_rules()
    used = set(rules.numeric)
    assert {"select", "petal length (cm)"} <= used
    new = pd.concat([X, X.head(5).assign(select="never seen"), X.head(5).assign(rowid=None)])
    new = new.reset_index(drop=True)
    expected = tree.predict(new).tolist()
    assert python_predictions(rules, new) == expected
    assert sql_predictions(rules, new, table="my table") == expected
    sql = rules.to_sql(table="my table")
    assert '"select"' in sql and '"my table"' in sql and "'it''s'" in sql


def test_row_order_uses_another_name_when_a_column_is_called_rowid():
    X = pd.DataFrame({"rowid": [3.0, 1.0, 2.0, 0.0], "z": [1, 1, 2, 2]})
    tree = ID3Classifier().fit(X, ["a", "b", "b", "a"])
    assert tree.to_rules().to_sql().rstrip().endswith('ORDER BY "data"._rowid_;')
    assert sql_predictions(tree.to_rules(), X) == tree.predict(X).tolist()


def test_variable_names_are_identifiers_and_distinct():
    names = variable_names(["a b", "a-b", "class", "1st", "é", "row", "__"], {"row"})
    assert len(set(names.values())) == len(names)
    assert all(v.isidentifier() for v in names.values())
    assert names["class"] == "class_" and names["1st"] == "x_1st" and names["row"] == "row_"


def test_a_single_leaf_tree_is_one_unconditional_rule():
    X = pd.DataFrame({"x": [1.0, 2.0, 3.0]})
    tree = ID3Classifier().fit(X, ["k", "k", "k"])
    rules = tree.to_rules()
    assert len(rules) == 1 and rules.stops == [] and rules[0].text() == "IF always THEN k"
    new = pd.DataFrame({"x": [np.nan, 7.0]})
    assert python_predictions(rules, new) == sql_predictions(rules, new) == ["k", "k"]


def test_bad_arguments_and_unwritable_values_say_what_is_wrong():
    X, y = load_play_tennis(return_X_y=True)
    rules = ID3Classifier().fit(X, y).to_rules()
    with pytest.raises(ValueError, match="function_name must be a Python identifier"):
        rules.to_python(function_name="not a name")
    with pytest.raises(ValueError, match="function_name"):
        rules.to_python(function_name="class")
    dates = pd.DataFrame({"when": pd.to_datetime(["2024-01-01", "2024-01-02"] * 3)})
    tree = ID3Classifier().fit(dates, list("ababab"))
    with pytest.raises(ValueError, match="column 'when'.*no SQL literal"):
        tree.to_rules().to_sql()
    with pytest.raises(ValueError, match="column 'when'.*no Python literal"):
        tree.to_rules().to_python()


def test_interval_conditions_write_one_comparison_per_bound():
    assert Interval("x", 1.5, None).python("x") == "x > 1.5"
    assert Interval("x", None, 2.5).sql('"x"') == '"x" <= 2.5'
    assert Interval("x", 1.5, 2.5).python("x") == "1.5 < x <= 2.5"
    assert NotIn("w", ("a",), True).python("w") == "w not in ('a',)"
    assert NotIn("w", ("a", "b"), False).sql('"w"') == "\"w\" NOT IN ('a', 'b')"


# ---------------------------------------------------------------------------------------------
# LaTeX
# ---------------------------------------------------------------------------------------------
def test_latex_escapes_labels_and_compiles(compile_latex):
    X = pd.DataFrame(
        {
            "cost_in_$": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
            "kind & type": ["a_1", "50%", "#x", "{b}", "~c^", "a_1"],
        }
    )
    y = ["<yes>", "<yes>", "no\\", "no\\", "<yes>", "no\\"]
    rules = ID3Classifier().fit(X, y).to_rules()
    document = rules.to_latex()
    assert document.startswith("\\documentclass") and document.rstrip().endswith("\\end{document}")
    assert "cost\\_in\\_\\$" in document and "\\textless{}yes\\textgreater{}" in document
    fragment = rules.to_latex(standalone=False)
    assert fragment in document and "\\documentclass" not in fragment
    assert fragment.count("\\item") == len(rules) + len(rules.stops)
    compile_latex(document, "rules")


def test_python_source_reads_like_the_rules():
    X, y = load_iris(return_X_y=True)
    source = ID3Classifier().fit(X, y).to_rules().to_python()
    assert source.startswith("def predict(row):")
    assert "    if petal_length <= 2.45:\n        return 'setosa'" in source
    assert re.search(r"if math\.isnan\(petal_length\):\n\s+return 'setosa'", source)
    compile(source, "<rules>", "exec")


# ---------------------------------------------------------------------------------------------
# C4.5's simplification of single rules, against a hand calculation
# ---------------------------------------------------------------------------------------------
def test_c45_drops_the_condition_whose_removal_has_the_lowest_pessimistic_error():
    from id3tree.teaching.rule_simplification import pessimistic_rate, simplify
    from id3tree.teaching.rules import Equals, Rule

    # A = a, B = b: 6 rows, all yes.   A = a, B = c: 9 yes, 1 no.
    # A = b, B = b: 4 rows, all no.    A = b, B = c: 10 rows, all no.
    cells = [("a", "b", "yes", 6), ("a", "c", "yes", 9), ("a", "c", "no", 1)]
    cells += [("b", "b", "no", 4), ("b", "c", "no", 10)]
    rows = [(a, b, c) for a, b, c, n in cells for _ in range(n)]
    X = pd.DataFrame([r[:2] for r in rows], columns=["A", "B"])
    y = [r[2] for r in rows]
    rule = Rule((Equals("A", "a"), Equals("B", "b")), "yes", 3, "leaf", 6, 6 / 30, 6, 1.0)
    simplified, trace = simplify([rule], X, y)
    # by hand: the rule errs on 0 of 6, U(0, 6) = 1 - 0.25 ** (1 / 6) = 0.206;
    # without B it covers A = a, 16 rows with 1 error: U(1, 16) = 0.157 (Quinlan 1993, p. 41);
    # without A it covers B = b, 10 rows with 4 errors: far worse. So B goes first.
    assert round(1 - 0.25 ** (1 / 6), 3) == round(pessimistic_rate(6, 0), 3) == 0.206
    assert round(pessimistic_rate(16, 1), 3) == 0.157
    assert pessimistic_rate(10, 4) > 0.4
    assert len(trace) == 1
    step = trace.iloc[0]
    assert (step["rule"], step["step"], step["dropped"]) == (1, 1, "B = b")
    assert (step["n_covered"], step["errors"]) == (16, 1)
    assert round(step["estimate"], 3) == 0.157 and round(step["rule_estimate"], 3) == 0.206
    # then A stays: without it the rule covers all 30 rows with 15 errors, U(15, 30) > 0.5
    assert pessimistic_rate(30, 15) > 0.157
    (short,) = simplified
    assert [c.text() for c in short.conditions] == ["A = a"]
    assert (short.n_samples, short.confidence) == (16, 15 / 16)
