"""Careless input: labels too long to draw (KeyError: 0), advice
on stray values that would damage the data, pickles with damaged labels, rules simplified on no
rows or on input of the wrong shape."""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pandas as pd
import pytest

from id3tree import ID3Classifier
from id3tree.cli.commands import main
from id3tree.datasets import load_play_tennis


def quiet_fit(X, y, **params) -> ID3Classifier:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ID3Classifier(**params).fit(X, y)


# ---------------------------------------------------------------------------------------------
# drawings of labels too long to fit
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("where", ["feature", "class", "categories"])
def test_labels_too_long_to_draw_give_a_drawing_not_a_key_error(where):
    """plot() raised KeyError: 0 for a label of 999 characters below the root, or 3,000
    categories: only the root's level fits, and that drawing was never made."""
    long = "x" * 999
    options = {}
    if where == "categories":
        X = pd.DataFrame({"c": [f"v{i}" for i in range(3000)] * 2})
        y = [i % 2 for i in range(6000)]
        options = dict(max_branches=None)
    elif where == "feature":  # split on below the root: its box is on the second level
        X = pd.DataFrame({"b": list("aabbccaabbcc"), long: [1, 2] * 6})
        y = ["p", "q", "q", "p", "p", "p", "p", "q", "q", "p", "p", "p"]
    else:
        X = pd.DataFrame({"x": [1, 2, 3, 4, 5, 6]})
        y = ["p", "p", "q", "q", long, long]
    model = quiet_fit(X, y, id_like="keep")
    assert model.get_depth() >= 1
    ax = model.plot(**options)
    assert ax.figure.get_size_inches().max() * ax.figure.dpi <= 8_000 + 1
    notes = [t.get_text() for t in ax.texts if t.get_gid() == "id3tree-note"]
    assert notes and "The top 1 of" in notes[0]  # the root's level, said so


def test_the_command_line_renders_long_labels_without_dot(tmp_path, capsys, monkeypatch):
    import shutil

    monkeypatch.setattr(shutil, "which", lambda name: None)
    data = tmp_path / "long.csv"
    pd.DataFrame({"x" * 999: [1, 2, 3, 4, 5, 6], "label": ["p", "p", "q", "q", "r", "r"]}).to_csv(
        data, index=False
    )
    picture = tmp_path / "t.png"
    assert main(["fit", str(data), "--target", "label", "--render", str(picture)]) == 0
    assert picture.read_bytes().startswith(b"\x89PNG")


# ---------------------------------------------------------------------------------------------
# advice on stray values that would damage the data
# ---------------------------------------------------------------------------------------------
def test_stray_value_advice_never_lists_a_value_the_option_would_split(tmp_path, capsys):
    """The advice for 7,5 was --na-values 7,5, which reads 7 and 5 as missing."""
    from id3tree.base.diagnostics import StrayValuesWarning

    values = [str(v) for v in range(1, 20)] + ["7,5"]
    X = pd.DataFrame({"t": values, "u": list(range(20))})
    with pytest.warns(StrayValuesWarning) as said:
        quiet = ID3Classifier(id_like="keep")
        quiet.fit(X, [i % 2 for i in range(20)])
    text = str(said[0].message)
    assert "--na-values 7,5" not in text
    assert "--na-values cannot list '7,5'" in text and "'7' and '5'" in text
    assert "na_values= in pandas.read_csv" in text
    values[3] = "72?"
    X = pd.DataFrame({"t": values[:19] + ["72?"], "u": list(range(20))})
    with pytest.warns(StrayValuesWarning, match=r"--na-values 72\? on the command line"):
        ID3Classifier(id_like="keep").fit(X, [i % 2 for i in range(20)])


# ---------------------------------------------------------------------------------------------
# damaged pickles
# ---------------------------------------------------------------------------------------------
def _tennis():
    X, y = load_play_tennis(return_X_y=True)
    return ID3Classifier().fit(X, y), X


def _reverse_first_categories(state):
    state["_categories"][0].reverse()


def _set(name, value):
    return lambda state: state.__setitem__(name, value(state))


DAMAGE = {
    "classes reversed": (_set("classes_", lambda s: s["classes_"][::-1].copy()), "pickled with"),
    "classes duplicated": (
        _set("classes_", lambda s: np.array(["No", "No"], dtype=object)),
        "classes lists 'No' twice",
    ),
    "feature names swapped": (
        _set("feature_names_in_", lambda s: s["feature_names_in_"][::-1].copy()),
        "feature_names_in_ .* are not the features",
    ),
    "n_features_in_ 99": (_set("n_features_in_", lambda s: 99), "n_features_in_ is 99"),
    "categories reversed": (_reverse_first_categories, "pickled with"),
    "names and feature names swapped": (
        lambda s: [
            s.__setitem__("_names", s["_names"][::-1]),
            s.__setitem__("feature_names_in_", s["feature_names_in_"][::-1].copy()),
        ],
        "pickled with",
    ),
    "categories of a numeric feature": (
        _set("_categories", lambda s: [None, *s["_categories"][1:]]),
        "pickled with",
    ),
}


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_a_pickle_with_damaged_labels_is_refused_as_a_file_would_be(damage):
    from id3tree.io.persistence import ModelFileError

    model, X = _tennis()
    state = pickle.loads(pickle.dumps(model)).__getstate__()
    change, words = DAMAGE[damage]
    change(state)
    with pytest.raises(ModelFileError, match=f"not a valid id3tree model: .*{words}"):
        ID3Classifier.__new__(ID3Classifier).__setstate__(state)


def test_an_intact_pickle_and_one_of_an_earlier_version_still_load():
    from id3tree.io.pickling import LABELS

    model, X = _tennis()
    again = pickle.loads(pickle.dumps(model))
    assert again.to_dict() == model.to_dict() and LABELS not in again.__dict__
    state = again.__getstate__()
    del state[LABELS]  # what an earlier version pickled
    older = ID3Classifier.__new__(ID3Classifier)
    older.__setstate__(state)
    assert older.predict(X).tolist() == model.predict(X).tolist()


# ---------------------------------------------------------------------------------------------
# simplify on careless input
# ---------------------------------------------------------------------------------------------
def _rules():
    X, y = load_play_tennis(return_X_y=True)
    return ID3Classifier().fit(X, y).to_rules(), X, y


def test_simplifying_on_no_rows_is_refused_not_every_rule_made_always():
    from id3tree.teaching.rule_simplification import simplify

    rules, X, y = _rules()
    with pytest.raises(ValueError, match="X has no rows"):
        simplify(rules, X.iloc[:0], y[:0])


@pytest.mark.parametrize(
    ("args", "options", "error", "words"),
    [
        (lambda X, y: (X.drop(columns="Wind"), y), {}, ValueError, "tests 'Wind', which is not"),
        (lambda X, y: (X, y[:-1]), {}, ValueError, "y has 13 labels but X has 14 rows"),
        (lambda X, y: (X, y), {"confidence": "0.25"}, TypeError, "confidence must be a number"),
        (lambda X, y: (X.to_numpy()[:, :2], y), {}, TypeError, "X must be a DataFrame"),
    ],
)
def test_simplify_says_what_is_wrong_with_its_input(args, options, error, words):
    from id3tree.teaching.rule_simplification import simplify

    rules, X, y = _rules()
    with pytest.raises(error, match=words):
        simplify(rules, *args(X, y), **options)


def test_simplify_takes_an_array_in_the_features_order():
    from id3tree.teaching.rule_simplification import simplify

    rules, X, y = _rules()
    from_frame, trace = simplify(rules, X, y)
    from_array, again = simplify(rules, X.to_numpy(), y)
    assert from_array == from_frame and again.equals(trace)
