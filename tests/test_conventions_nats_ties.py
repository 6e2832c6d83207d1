"""Course conventions: entropies in nats (``log_base="e"``) against hand computations.

Some books measure information in nats, the natural logarithm's unit. Play Tennis' root holds 9
yes and 5 no: ``H = -(9/14) ln(9/14) - (5/14) ln(5/14) = 0.6518`` nats, which is its
``0.9403`` bits times ``ln 2``. Every number here is worked out in the test (by ``math.log``
and by ``scipy.stats.entropy``), not read from the learner.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import pickle
import re
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy.stats import entropy as scipy_entropy

from id3tree import ID3Classifier, datasets
from id3tree.conventions import compare
from id3tree.textbook import grow_tree


def by_hand(counts) -> float:
    """``-sum p ln p``, written out."""
    n = sum(counts)
    return -sum(c / n * math.log(c / n) for c in counts if c)


def play_tennis():
    return datasets.load_play_tennis(return_X_y=True)


def test_play_tennis_root_in_nats_by_hand_and_by_scipy():
    X, y = play_tennis()
    counts = y.value_counts().sort_index().tolist()
    assert counts == [5, 9]
    hand = by_hand(counts)
    assert round(hand, 4) == 0.6518
    assert hand == pytest.approx(0.940286 * math.log(2), abs=1e-6)  # bits times ln 2
    tree = ID3Classifier(log_base="e").fit(X, y)
    assert tree.root_.entropy == pytest.approx(hand, abs=1e-12)
    assert tree.root_.entropy == pytest.approx(scipy_entropy(counts, base=np.e), abs=1e-12)
    bits = ID3Classifier().fit(X, y).root_.entropy
    assert tree.root_.entropy == pytest.approx(bits * math.log(2), abs=1e-12)


def test_every_root_gain_in_nats_is_scipys():
    X, y = play_tennis()
    trace = ID3Classifier(log_base="e").fit(X, y).trace_
    root = trace[trace["node"] == 0].set_index("feature")
    parent = scipy_entropy(y.value_counts().to_numpy(), base=np.e)
    for feature in X.columns:
        table = pd.crosstab(X[feature], y).to_numpy()
        sizes = table.sum(axis=1)
        overall = sum(n * scipy_entropy(row, base=np.e) for n, row in zip(sizes, table)) / len(y)
        assert root.loc[feature, "overall_entropy"] == pytest.approx(overall, abs=1e-12)
        assert root.loc[feature, "gain"] == pytest.approx(parent - overall, abs=1e-12)
        split_info = scipy_entropy(sizes, base=np.e)
        ratio = (parent - overall) / split_info  # (a ratio: the same in any unit)
        assert root.loc[feature, "gain_ratio"] == pytest.approx(ratio, abs=1e-12)
    # Mitchell's (1997) gains in bits (Outlook 0.246, Humidity 0.151, Wind 0.048, Temperature
    # 0.029), times ln 2
    published = {"Outlook": 0.2467, "Humidity": 0.1518, "Wind": 0.0481, "Temperature": 0.0292}
    for feature, bits in published.items():
        assert root.loc[feature, "gain"] == pytest.approx(bits * math.log(2), abs=1e-4)


@pytest.mark.parametrize("name", ["play_tennis", "iris", "car_evaluation"])
def test_nats_grow_the_same_tree_with_its_numbers_times_ln2(name):
    X, y = datasets.load(name, return_X_y=True)
    nats = ID3Classifier(log_base="e", max_depth=4).fit(X, y)
    bits = ID3Classifier(max_depth=4).fit(X, y)
    for a, b in zip(nats.root_.walk(), bits.root_.walk()):
        assert (a.feature, a.threshold, a.class_counts) == (b.feature, b.threshold, b.class_counts)
        assert a.entropy == pytest.approx(b.entropy * math.log(2), abs=1e-12)
        if a.gain is not None:
            assert a.gain == pytest.approx(b.gain * math.log(2), abs=1e-12)
    assert grow_tree(X, y, max_depth=4, log_base="e").entropy == nats.root_.entropy


def test_min_gain_is_read_in_the_trees_unit():
    X, y = play_tennis()
    # the root's best gain: 0.2467 bits = 0.1710 nats; min_gain 0.2 lies between them
    assert ID3Classifier(min_gain=0.2).fit(X, y).get_n_leaves() == 5
    assert ID3Classifier(min_gain=0.2, log_base="e").fit(X, y).get_n_leaves() == 1


def test_every_page_says_its_unit_and_writes_ln():
    X, y = play_tennis()
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        tree = ID3Classifier(log_base="e", verbose=1).fit(X, y)
    note = "Entropies and gains are in nats"
    assert printed.getvalue().startswith(note)
    assert "Node 0 [root]: 14 samples (No: 5, Yes: 9), entropy 0.6518" in printed.getvalue()
    assert tree.to_text().startswith(note)
    assert "entropy 0.6518 -> split on Outlook, gain 0.1710" in tree.to_text()
    assert tree.explain(X.iloc[0]).startswith(note)
    worked = str(tree.worked_solution(0))
    assert note in worked and "Logarithms are base 2" not in worked
    assert "H(S) = -(9/14) ln(9/14) - (5/14) ln(5/14) = 0.6518" in worked
    assert "\\ln\\frac{9}{14}" in str(tree.worked_solution(0, format="latex"))
    assert "gains 0.1710 nats" in tree.why_not(0, "Wind").text
    assert "gain 0.1710" in str(tree.step(0)) and note in str(tree.step(0))
    assert note in tree.to_html()
    spoken = ID3Classifier(log_base="e", language="es").fit(X, y).to_text()
    assert spoken.startswith("Las entropías y las ganancias están en nats")
    # bits say nothing new
    assert not ID3Classifier().fit(X, y).to_text().startswith("Entropies")


def test_nats_survive_the_model_file_and_a_pickle():
    X, y = play_tennis()
    tree = ID3Classifier(log_base="e").fit(X, y)
    saved = json.loads(tree.to_json())
    assert saved["params"]["log_base"] == "e"
    loaded = ID3Classifier.from_json(json.dumps(saved))
    assert loaded.log_base == "e" and loaded.root_.entropy == tree.root_.entropy
    assert loaded.to_text() == tree.to_text()
    assert pickle.loads(pickle.dumps(tree)).to_text() == tree.to_text()
    bits = json.loads(ID3Classifier().fit(X, y).to_json())
    assert "log_base" not in bits["params"]  # (a default model file is written as before)
    saved["params"]["log_base"] = 2  # nats stored in a model that says bits: refused
    with pytest.raises(ValueError, match="entropy"):
        ID3Classifier.from_json(json.dumps(saved))


@pytest.mark.parametrize("bad", [10, "2", True, "ln", None, [2]])
def test_an_unknown_log_base_is_named(bad):
    X, y = play_tennis()
    with pytest.raises(ValueError, match="log_base must be 2 .bits. or 'e' .nats., got"):
        ID3Classifier(log_base=bad).fit(X, y)
    with pytest.raises(ValueError, match="log_base"):
        grow_tree(X, y, log_base=bad)


def test_the_build_page_refuses_nats_by_name():
    X, y = play_tennis()
    with pytest.raises(ValueError, match="log_base='e'"):
        ID3Classifier(log_base="e").fit(X, y).to_html(mode="build")


def test_compare_says_the_units_part():
    X, y = play_tennis()
    result = compare(X, y, "nats", "bits")
    assert result.same_structure and not result.nodes["differs"].any()
    text = str(result)
    assert "a's are b's times ln 2 (the root's entropy 0.6518 nats, 0.9403 bits)" in text
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parted = compare(X, y, "nats", "bits", min_gain=0.2)
    assert "a leaf predicting Yes in a, Outlook (gain 0.2467) in b" in str(parted)


# ---------------------------------------------------------------------------------------------
# ties between features: the first column, or the first by name (ties="name")
# ---------------------------------------------------------------------------------------------
def tied() -> tuple[pd.DataFrame, list[str]]:
    """Four days, one Yes. Wind and Humidity each put the Yes with one No (entropy 1) and the
    other two No apart (entropy 0): the same gain, cut along different rows."""
    X = pd.DataFrame({"Wind": ["a", "a", "b", "b"], "Humidity": ["x", "y", "x", "y"]})
    return X, ["Yes", "No", "No", "No"]


def test_two_features_tie_by_hand_and_each_rule_picks_its_own():
    X, y = tied()
    parent = -(1 / 4) * math.log2(1 / 4) - (3 / 4) * math.log2(3 / 4)  # 0.8113
    gain = parent - (2 / 4 * 1.0 + 2 / 4 * 0.0)  # 0.3113, for both features
    first = ID3Classifier().fit(X, y)
    by_name = ID3Classifier(ties="name").fit(X, y)
    root = first.trace_[first.trace_["node"] == 0].set_index("feature")
    assert root["gain"].tolist() == pytest.approx([gain, gain], abs=1e-12)
    assert root["tie"].all()
    assert first.root_.feature == "Wind"  # the first column
    assert by_name.root_.feature == "Humidity"  # H before W
    assert first.root_.gain == by_name.root_.gain
    for ties, expected in (("first", "Wind"), ("name", "Humidity")):
        assert grow_tree(X, y, ties=ties).feature == expected  # the textbook agrees


def test_the_tie_rule_is_stated_wherever_a_tie_is_told():
    X, y = tied()
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        tree = ID3Classifier(ties="name", verbose=1).fit(X, y)
    assert "tie with Wind: broken by alphabetical order (Humidity comes first)" in (
        printed.getvalue()
    )
    assert "alphabetical order, and Humidity comes before Wind" in tree.why_not(0, "Wind").text
    assert "it ties with Wind and comes first in alphabetical order" in str(tree.step(0))
    assert "chosen (tie broken by alphabetical order)" in tree.step(0).candidates["note"].tolist()
    worked = str(tree.worked_solution(0))
    assert "ties go to the feature that comes first in alphabetical order" in worked
    assert "comes first in alphabetical order" in tree.to_html()
    spoken = io.StringIO()
    with contextlib.redirect_stdout(spoken):
        ID3Classifier(ties="name", verbose=1, language="es").fit(X, y)
    assert "empate con Wind: se deshace por orden alfabético (Humidity va primero)" in (
        spoken.getvalue()
    )
    default = ID3Classifier(verbose=1)
    with contextlib.redirect_stdout(io.StringIO()) as out:
        default.fit(X, y)
    assert "broken by column order (Wind comes first)" in out.getvalue()


def test_ties_survive_the_model_file_and_bad_rules_are_named():
    X, y = tied()
    tree = ID3Classifier(ties="name").fit(X, y)
    loaded = ID3Classifier.from_json(tree.to_json())
    assert loaded.ties == "name" and loaded.root_.feature == "Humidity"
    assert "ties" not in json.loads(ID3Classifier().fit(X, y).to_json())["params"]
    with pytest.raises(ValueError, match="ties must be one of"):
        ID3Classifier(ties="alphabetical").fit(X, y)
    with pytest.raises(ValueError, match="ties must be one of"):
        grow_tree(X, y, ties="last")


def test_compare_says_the_tie_rules_part():
    X, y = tied()
    text = str(compare(X, y, "column_order", "by_name"))
    assert "a splits on Wind (gain 0.3113), b on Humidity (gain 0.3113)" in text
    assert "a tie, which column order breaks in a and alphabetical order in b" in text


def test_drawings_shade_by_the_trees_unit_and_compare_with_sklearn_refuses_nats():
    from sklearn.tree import DecisionTreeClassifier

    X, y = datasets.load_iris(return_X_y=True)
    nats = ID3Classifier(log_base="e", max_depth=2).fit(X, y)
    bits = ID3Classifier(max_depth=2).fit(X, y)
    shades = re.compile(r'fillcolor="[^"]+"')  # purity: 1 - H / log K, in either unit
    assert shades.findall(nats.to_dot()) == shades.findall(bits.to_dot())
    assert len(set(shades.findall(bits.to_dot()))) > 2
    other = DecisionTreeClassifier(criterion="entropy", max_depth=2).fit(X, y)
    with pytest.raises(ValueError, match="log_base='e'"):
        nats.compare(other, X, y)


@pytest.mark.parametrize("params", [{"log_base": "e"}, {"ties": "name"}])
def test_dask_refuses_the_conventions_it_does_not_grow_by_name(params):
    dd = pytest.importorskip("dask.dataframe")
    X, y = play_tennis()
    frame = dd.from_pandas(X.assign(Play=y), npartitions=2)
    ((name, value),) = params.items()
    with pytest.raises(NotImplementedError, match=f"{name}={value!r} is not supported for Dask"):
        ID3Classifier(**params).fit(frame.drop(columns="Play"), frame["Play"])
