"""The identifier warning keeps its column on it (a column named like the warning's text made
fit and the command line raise SyntaxError), and a numeric identifier (Titanic's PassengerId) is
flagged, with a rule that flags no ordinary numeric column of the shipped data sets."""

from __future__ import annotations

import glob
import pickle
import re
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from id3tree import ID3Classifier, IDLikeFeatureWarning
from id3tree.cli.commands import main
from id3tree.datasets import load, load_titanic

ROOT = Path(__file__).resolve().parents[1]


def quiet_fit(X, y, **params) -> ID3Classifier:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ID3Classifier(**params).fit(X, y)


def caught_fit(X, y, **params) -> tuple[ID3Classifier, list]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model = ID3Classifier(**params).fit(X, y)
    return model, [w.message for w in caught if w.category is IDLikeFeatureWarning]


# ---------------------------------------------------------------------------------------------
# the identifier warning: its column kept on it; numeric identifiers
# ---------------------------------------------------------------------------------------------
MIMIC = "x looks like an identifier: it split 3 rows into 3 branches"


def mimic_frame() -> tuple[pd.DataFrame, list]:
    X = pd.DataFrame({MIMIC: [f"v{i}" for i in range(30)], "b": [i % 2 for i in range(30)]})
    return X, [i % 3 for i in range(30)]


@pytest.mark.parametrize("id_like", ["warn", "drop"])
def test_a_column_named_like_the_warning_is_named_by_the_warning(id_like):
    """fit(id_like="drop") raised SyntaxError: the name was read back from the warning's text."""
    X, y = mimic_frame()
    model, said = caught_fit(X, y, id_like=id_like)
    assert [w.feature for w in said] == [MIMIC]
    assert said[0].split == "30 rows into 30 branches"
    if id_like == "drop":
        assert MIMIC not in {n.feature for n in model.root_.walk()}


@pytest.mark.parametrize("command", ["fit", "explore", "build"])
def test_the_command_line_leaves_out_a_column_named_like_the_warning(command, tmp_path, capsys):
    X, y = mimic_frame()
    data = tmp_path / "mimic.csv"
    X.assign(label=y).to_csv(data, index=False)
    argv = ["fit", str(data), "--target", "label"]
    if command != "fit":
        argv = ["explore", str(data), "--target", "label", "--out", str(tmp_path / "t.html")]
        argv += ["--build"] if command == "build" else []
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert f"left out column {MIMIC!r}" in err and "Traceback" not in err


def test_the_warning_keeps_its_column_and_split_through_a_copy_and_a_pickle():
    warning = IDLikeFeatureWarning("some words", feature=("a", 1), split="9 rows into 9 branches")
    for again in (pickle.loads(pickle.dumps(warning)), IDLikeFeatureWarning(warning)):
        assert (str(again), again.feature, again.split) == ("some words", ("a", 1), warning.split)


def titanic_with_ids() -> tuple[pd.DataFrame, pd.Series]:
    X, y = load_titanic(return_X_y=True)
    return X[["PassengerId", "Pclass", "Sex", "Age", "Fare"]], y


def test_a_numeric_identifier_is_flagged_and_dropped():
    """PassengerId (1 to 891) was split on at PassengerId <= 322, unflagged."""
    X, y = titanic_with_ids()
    plain = quiet_fit(X, y, id_like="keep")
    assert "PassengerId" in {n.feature for n in plain.root_.walk()}  # it does win splits
    _, said = caught_fit(X, y)
    assert [w.feature for w in said] == ["PassengerId"]
    assert "distinct whole numbers from 1 to 891" in str(said[0])
    assert re.fullmatch(r"\d+ rows at PassengerId <= \d+(\.\d+)?", said[0].split)
    dropped, said = caught_fit(X, y, id_like="drop")
    assert "PassengerId" not in {n.feature for n in dropped.root_.walk()}
    assert "left out" in str(said[0]) and said[0].feature == "PassengerId"
    # a training sample of the rows is still a run of row numbers: 3 in 4 of them
    sample = X.sample(frac=0.75, random_state=0)
    _, said = caught_fit(sample, y[sample.index])
    assert [w.feature for w in said] == ["PassengerId"]


def test_the_command_line_leaves_out_a_numeric_identifier(capsys):
    argv = ["fit", "titanic", "--target", "Survived", "--drop", "Name,Ticket,Cabin"]
    assert main([*argv, "--show-depth", "1"]) == 0
    captured = capsys.readouterr()
    assert "left out column 'PassengerId', which looks like an identifier" in captured.err
    assert "PassengerId" not in captured.out


def independent_run(values) -> bool:
    """The rule of :func:`~id3tree.base.diagnostics.number_run`, written plainly."""
    present = [float(v) for v in values if v == v]
    if len(present) < 20 or any(v != int(v) for v in present):
        return False
    whole = [int(v) for v in present]
    return len(set(whole)) == len(whole) and max(whole) - min(whole) + 1 <= 2 * len(whole)


@given(st.lists(st.integers(-50, 120) | st.floats(-50, 120) | st.just(np.nan), max_size=80))
def test_the_numeric_identifier_rule_is_what_it_says(values):
    from id3tree.base.diagnostics import number_run

    assert (number_run(values) is not None) == independent_run(values)
    run = np.random.default_rng(len(values)).permutation(np.arange(40, 40 + len(values) + 20))
    assert number_run(run) is not None and number_run(np.append(run, run[0])) is None


def test_only_true_identifiers_are_flagged_in_the_shipped_data_sets():
    from id3tree.base.diagnostics import number_run

    flagged = {}
    for path in sorted(glob.glob(str(ROOT / "datasets" / "*.csv"))):
        frame = pd.read_csv(path, na_values=["?"])
        numbers = [c for c in frame if pd.api.types.is_numeric_dtype(frame[c])]
        flagged[Path(path).name] = [c for c in numbers if number_run(frame[c]) is not None]
    assert flagged.pop("titanic.csv") == ["PassengerId"]
    assert not any(flagged.values()), flagged
    for name in ("iris", "hmeq", "breast_cancer", "adult", "titanic", "car"):
        X, y = load(name, return_X_y=True)
        if len(X) > 5000:
            X, y = X.iloc[:5000], y.iloc[:5000]
        _, said = caught_fit(X.drop(columns=["Name", "Ticket", "Cabin"], errors="ignore"), y)
        numeric = [w.feature for w in said if "whole numbers" in str(w)]
        assert numeric == (["PassengerId"] if "PassengerId" in X else []), name
