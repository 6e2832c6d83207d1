"""ID-like columns (the learner's warning, the screening and ranking flag) and C4.5's
average-gain rule for gain ratio."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pandas as pd
import pytest

from id3tree import (
    ID3Classifier,
    IDLikeFeatureWarning,
    gain_ratio,
    information_gain,
    rank_features,
    screen_features,
)
from id3tree.base.diagnostics import is_id_like
from id3tree.datasets import load_car, load_iris, load_play_tennis, load_titanic


def test_titanic_name_wins_under_gain_and_is_named_in_the_warning():
    X, y = load_titanic(return_X_y=True)
    with pytest.warns(IDLikeFeatureWarning) as record:
        model = ID3Classifier().fit(X, y)
    assert model.root_.feature == "Name"
    assert model.get_n_leaves() == len(X)  # one leaf per passenger: memorised
    messages = [str(w.message) for w in record if w.category is IDLikeFeatureWarning]
    root = [m for m in messages if "'Name'" in m]
    assert len(root) == 1  # one warning per column
    assert "891 rows into 891 branches" in root[0]
    assert "gain_ratio" in root[0] and "drop the column" in root[0]


def test_gain_ratio_or_dropping_the_flagged_columns_fixes_titanic():
    X, y = load_titanic(return_X_y=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IDLikeFeatureWarning)
        plain_ratio = ID3Classifier(criterion="gain_ratio", average_gain_rule=False, max_depth=1)
        c45 = ID3Classifier(criterion="gain_ratio", max_depth=1).fit(X, y)
    assert plain_ratio.fit(X, y).root_.feature == "Sex"
    # C4.5's average-gain rule backfires here: Name and Ticket lift the average gain above Sex's,
    # so Sex may not compete and Cabin (147 values in 204 rows, the rest missing) wins
    root = c45.trace_.query("node == 0").set_index("feature")["gain"]
    assert root["Sex"] < root.mean() < root["Cabin"]
    assert c45.root_.feature == "Cabin"
    # the gain ratio of Name is its gain over log2(891): tiny
    assert gain_ratio(X["Name"], y) == pytest.approx(information_gain(X["Name"], y) / np.log2(891))
    flagged = screen_features(X).query("flags.str.contains('ID-like')").index.tolist()
    assert set(flagged) == {"PassengerId", "Name", "Ticket", "Cabin"}
    for criterion in ("entropy", "gain_ratio"):
        with warnings.catch_warnings():
            warnings.simplefilter("error", IDLikeFeatureWarning)
            model = ID3Classifier(criterion=criterion).fit(X.drop(columns=flagged), y)
        assert model.root_.feature == "Sex"


@pytest.mark.parametrize("load", [load_play_tennis, load_iris, load_car])
def test_no_warning_on_ordinary_data(load):
    X, y = load(return_X_y=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error", IDLikeFeatureWarning)
        ID3Classifier().fit(X, y)


def test_the_rule():
    assert is_id_like(10, 10) and is_id_like(20, 10)
    assert not is_id_like(21, 10)  # more than two rows per value
    assert not is_id_like(9, 9)  # too few values to tell
    assert issubclass(IDLikeFeatureWarning, UserWarning)


def test_warning_names_a_deep_node_and_leaves_out_missing_values():
    X, y = load_titanic(return_X_y=True)
    with pytest.warns(IDLikeFeatureWarning) as record:
        ID3Classifier(criterion="gain_ratio").fit(X, y)
    messages = {w.message.feature: str(w.message) for w in record}
    assert set(messages) == {"Cabin", "Name", "PassengerId"}  # and the row number
    assert "891 values are distinct whole numbers from 1 to 891" in messages["PassengerId"]
    assert "204 rows (not counting 687 with no value) into 147 branches" in messages["Cabin"]
    node = re.search(r"at node (\d+) \(depth 1\)", messages["Name"])
    assert node and "687 rows" in messages["Name"]


def test_screen_and_rank_flag_id_like_columns():
    n = 200
    rng = np.random.default_rng(1)
    X = pd.DataFrame(
        {
            "row": np.arange(n),  # whole numbers, all distinct
            "code": [f"c{i // 2}" for i in range(n)],  # two rows per value
            "measure": rng.normal(size=n),  # all distinct, but a real measurement
            "colour": rng.choice(["red", "green"], n),
        }
    )
    y = rng.choice(["p", "q"], n)
    screen = screen_features(X)["flags"]
    assert "ID-like" in screen["row"] and "ID-like" in screen["code"]
    assert "ID-like" not in screen["measure"] and "ID-like" not in screen["colour"]
    ranked = rank_features(X, y)
    assert ranked.loc["row", "flags"] == ranked.loc["code", "flags"] == "ID-like"
    assert ranked.loc["measure", "flags"] == ranked.loc["colour", "flags"] == ""


# -------------------------------------------------------------------------------------------------
# C4.5's average-gain rule
# -------------------------------------------------------------------------------------------------
def _rare_value_data():
    """A: one rare row splits off (tiny gain, tiny split information: a high ratio);
    B: an even split with a modest gain."""
    y = np.array(["yes"] * 50 + ["no"] * 50)
    a = np.array(["rare"] + ["common"] * 99)
    b = np.array(["l"] * 30 + ["r"] * 20 + ["l"] * 20 + ["r"] * 30)
    return pd.DataFrame({"A": a, "B": b}), y


def test_average_gain_rule_changes_the_root():
    X, y = _rare_value_data()
    gains = {c: information_gain(X[c], y) for c in X}
    ratios = {c: gain_ratio(X[c], y) for c in X}
    assert ratios["A"] > ratios["B"] and gains["A"] < np.mean(list(gains.values()))
    with_rule = ID3Classifier(criterion="gain_ratio", max_depth=1).fit(X, y)
    without = ID3Classifier(criterion="gain_ratio", max_depth=1, average_gain_rule=False)
    assert with_rule.root_.feature == "B"
    assert without.fit(X, y).root_.feature == "A"
    # the rule does nothing under information gain
    assert ID3Classifier(max_depth=1).fit(X, y).root_.feature == "B"
    assert ID3Classifier(max_depth=1, average_gain_rule=False).fit(X, y).root_.feature == "B"


def test_chosen_split_has_at_least_average_gain_and_the_best_ratio_among_those():
    X, y = load_car(return_X_y=True)
    trace = ID3Classifier(criterion="gain_ratio").fit(X, y).trace_
    scored = trace.dropna(subset=["gain"])
    checked = 0
    for _, rows in scored.groupby("node"):
        if not rows["chosen"].any():
            continue
        average = rows["gain"].mean()
        chosen = rows[rows["chosen"].astype(bool)].iloc[0]
        assert chosen["gain"] >= average - 1e-10
        competing = rows[rows["gain"] >= average - 1e-10]
        assert chosen["gain_ratio"] == pytest.approx(competing["gain_ratio"].max())
        checked += 1
    assert checked > 20


def test_dask_ranking_flags_the_same_text_columns():
    dd = pytest.importorskip("dask.dataframe")
    X, y = load_titanic(return_X_y=True)
    frame = dd.from_pandas(X.assign(Survived=y), npartitions=3)
    on_dask = rank_features(frame[list(X.columns)], frame["Survived"])["flags"]
    in_memory = rank_features(X, y)["flags"]
    text = [c for c in X.columns if X[c].dtype == object or str(X[c].dtype) == "str"]
    assert on_dask[text].to_dict() == in_memory[text].to_dict()
    assert on_dask["Name"] == "ID-like"
    assert on_dask["PassengerId"] == ""  # distinct whole numbers are flagged in memory only


def test_the_id_like_message_writes_one_row_per_branch_in_the_singular():
    from id3tree.base.diagnostics import id_like_message

    assert "(1 row per branch)" in id_like_message("Name", 891, 891)
    assert "(1.3 rows per branch)" in id_like_message("Ticket", 891, 681)
