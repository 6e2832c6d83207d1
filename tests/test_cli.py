"""The command line: called as main(argv) and run as a program."""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from id3tree import ID3Classifier
from id3tree.cli.commands import main
from id3tree.datasets import load, load_iris

HAS_DOT = shutil.which("dot") is not None
PNG = b"\x89PNG"


def run(*argv: str, env: dict | None = None, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "id3tree", *argv],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        cwd=cwd,
    )


def test_demo_draws_with_matplotlib_when_dot_is_missing(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    assert main(["demo", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert (
        "overall entropy 0.0000 + 0.3468 + 0.3468 ≈ 0.6935, gain 0.9403 - 0.6935 ≈ 0.2467" in out
        and "Drew the tree with matplotlib" in out
    )
    assert (tmp_path / "play_tennis_tree.png").read_bytes().startswith(PNG)


@pytest.mark.skipif(not HAS_DOT, reason="the Graphviz dot program is not installed")
def test_demo_draws_with_graphviz_when_dot_is_there(tmp_path, capsys):
    assert main(["demo", "--out", str(tmp_path)]) == 0
    assert "Drew the tree with Graphviz" in capsys.readouterr().out
    assert (tmp_path / "play_tennis_tree.png").read_bytes().startswith(PNG)


def test_demo_as_a_program_without_dot_on_the_path(tmp_path):
    # only the interpreter's folder on PATH: no dot program can be found
    env = {**os.environ, "PATH": str(Path(sys.executable).parent), "MPLBACKEND": "Agg"}
    done = run("demo", "--out", str(tmp_path), env=env)
    assert done.returncode == 0, done.stderr
    assert "Drew the tree with matplotlib" in done.stdout
    assert (tmp_path / "play_tennis_tree.png").read_bytes().startswith(PNG)


@pytest.mark.parametrize(
    "suffix, magic", [(".png", PNG), (".svg", b"<"), (".pdf", b"%PDF"), (".dot", b"digraph")]
)
def test_fit_renders_every_format(tmp_path, capsys, suffix, magic):
    target = tmp_path / f"tree{suffix}"
    assert main(["fit", "iris", "--target", "species", "--render", str(target)]) == 0
    assert "depth" in capsys.readouterr().out
    data = target.read_bytes()
    assert data.lstrip().startswith(magic) or (suffix == ".svg" and b"<svg" in data)


def test_fit_save_and_predict_round_trip(tmp_path, capsys):
    model_path = tmp_path / "model.json"
    csv = tmp_path / "iris.csv"
    load_iris().to_csv(csv, index=False)
    assert main(["fit", str(csv), "--target", "species", "--save", str(model_path), "--trace"]) == 0
    assert "candidate petal_length <= 2.45" in capsys.readouterr().out
    out = tmp_path / "predictions.csv"
    assert main(["predict", str(model_path), str(csv), "--proba", "--out", str(out)]) == 0
    predicted = pd.read_csv(out)
    X, y = load_iris(return_X_y=True)
    expected = ID3Classifier().fit(X, y)
    np.testing.assert_array_equal(predicted["prediction"], expected.predict(X))
    np.testing.assert_allclose(
        predicted[["P(setosa)", "P(versicolor)", "P(virginica)"]], expected.predict_proba(X)
    )


def test_csv_with_question_marks_and_odd_values(tmp_path, capsys):
    csv = tmp_path / "odd.csv"
    csv.write_text("colour,size,label\nred,1.5,a\n?,2.5,b\nblue,?,a\nred,3.5,b\n", encoding="utf-8")
    assert main(["fit", str(csv), "--target", "label"]) == 0
    assert "4 rows" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["fit", "no_such_file.csv", "--target", "y"], "neither a CSV file nor a built-in dataset"),
        (["fit", "iris", "--target", "colour"], "target column 'colour' is not in the data"),
        (
            ["fit", "iris", "--target", "species", "--render", "tree.gif"],
            "cannot draw into 'tree.gif'",
        ),
        (["predict", "{model}", "iris"], "not an id3tree model"),
        (["predict", "missing.json", "iris"], "no model file"),
        (["fit", "{binary}", "--target", "y"], "cannot read"),
    ],
)
def test_user_errors_exit_2_with_one_line(tmp_path, capsys, argv, message):
    (tmp_path / "model.json").write_text('{"format": "something else"}', encoding="utf-8")
    (tmp_path / "binary.csv").write_bytes(b"\xff\xfe\x00\x81\x82\n\x00\x00")
    argv = [a.format(model=tmp_path / "model.json", binary=tmp_path / "binary.csv") for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_user_error_as_a_program_has_no_traceback():
    done = run("fit", "no_such_dataset", "--target", "y")
    assert done.returncode == 2
    assert done.stderr.startswith("id3tree: error:") and "Traceback" not in done.stderr


def test_stats_reproduces_the_lectures_hmeq_table(capsys):
    argv = [
        "stats",
        "hmeq",
        "--target",
        "BAD",
        "--categorical",
        "DEROG,DELINQ,NINQ",
        "--complete-rows",
    ]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.startswith("3364 rows")
    lines = {
        line.split()[0]: line.split() for line in out.splitlines()[4:] if len(line.split()) > 5
    }
    assert lines["DELINQ"][3:6] == ["302.7278", "9", "6.8868e-60"]
    assert lines["REASON"][3:6] == ["0.1313", "1", "0.7171"]
    assert sum(line[-3] == "True" for line in lines.values()) == 7


def test_rank_prints_the_play_tennis_gains_in_order(capsys):
    assert main(["rank", "play_tennis", "--target", "Play"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[4:]]
    assert rows == [
        ["Outlook", "0.2467"],
        ["Humidity", "0.1518"],
        ["Wind", "0.0481"],
        ["Temperature", "0.0292"],
    ]


def test_screen_has_a_row_per_column(capsys):
    assert main(["screen", "play_tennis"]) == 0
    out = capsys.readouterr().out
    assert all(
        name in out
        for name in ["Outlook", "Temperature", "Humidity", "Wind", "Play", "percent_entropy"]
    )


def test_mi_writes_a_heatmap_and_a_csv(tmp_path, capsys):
    png, csv = tmp_path / "mi.png", tmp_path / "mi.csv"
    assert main(["mi", "iris", "--out", str(png)]) == 0
    assert png.read_bytes().startswith(PNG)
    assert main(["mi", "iris", "--out", str(csv), "--normalize"]) == 0
    matrix = pd.read_csv(csv, index_col=0)
    assert (
        matrix.shape == (5, 5)
        and np.allclose(matrix, matrix.T)
        and (matrix.to_numpy() <= 1 + 1e-12).all()
    )


# -------------------------------------------------------------------------------------------------
# evaluation: held-out accuracy, pruning, predict with row ids and scores
# -------------------------------------------------------------------------------------------------
def test_fit_reports_held_out_accuracy_like_a_manual_split(capsys):
    from sklearn.model_selection import train_test_split

    assert main(["fit", "car", "--target", "class", "--test-size", "0.3", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    X, y = load("car", return_X_y=True)
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, random_state=1, stratify=y)
    model = ID3Classifier().fit(X_tr, y_tr)
    assert f"held-out accuracy {model.score(X_te, y_te):.4f} on {len(X_te)} rows" in out
    assert f"ID3 tree on {len(X_tr)} rows" in out
    matrix = pd.crosstab(y_te, model.predict(X_te)).reindex(
        index=model.classes_, columns=model.classes_, fill_value=0
    )
    assert "predicted" in out and "actual" in out
    for c, row in matrix.iterrows():  # every row of the confusion matrix, as printed
        assert re.search(rf"^{c}\s+" + r"\s+".join(map(str, row)) + "$", out, re.M), c


def test_fit_on_a_second_file_and_every_learning_option(tmp_path, capsys):
    X, y = load("car", return_X_y=True)
    frame = X.assign(**{"class": y})
    train, test = tmp_path / "train.csv", tmp_path / "test.csv"
    frame.iloc[:1200].to_csv(train, index=False)
    frame.iloc[1200:].to_csv(test, index=False)
    argv = [
        "fit",
        str(train),
        "--target",
        "class",
        "--test",
        str(test),
        "--criterion",
        "gain_ratio",
        "--min-samples-leaf",
        "3",
        "--alpha",
        "0.05",
        "--show-depth",
        "1",
    ]
    assert main(argv) == 0
    out = capsys.readouterr().out
    model = ID3Classifier(criterion="gain_ratio", min_samples_leaf=3, alpha=0.05)
    model.fit(X.iloc[:1200], y.iloc[:1200])
    assert f"held-out accuracy {model.score(X.iloc[1200:], y.iloc[1200:]):.4f} on 528 rows" in out
    assert f"{model.get_n_leaves()} leaves" in out


def test_fit_with_balanced_class_weight(capsys):
    argv = ["fit", "car", "--target", "class", "--class-weight", "balanced", "--max-depth", "2"]
    assert main([*argv, "--show-depth", "0"]) == 0
    out = capsys.readouterr().out
    X, y = load("car", return_X_y=True)
    expected = ID3Classifier(class_weight="balanced", max_depth=2).fit(X, y)
    assert f"{expected.get_n_leaves()} leaves" in out
    assert "1728 samples (acc: 432, good: 432, unacc: 432, vgood: 432)" in out  # 1728 / 4 each


@pytest.mark.parametrize("method", ["pessimistic", "cost_complexity", "reduced_error"])
def test_fit_prunes(method, capsys):
    argv = ["fit", "car", "--target", "class", "--prune", method]
    argv += ["--ccp-alpha", "0.01"] if method == "cost_complexity" else []
    assert main([*argv, "--show-depth", "0"]) == 0
    out = capsys.readouterr().out
    X, y = load("car", return_X_y=True)
    if method == "pessimistic":
        expected = ID3Classifier().fit(X, y).prune("pessimistic")
        assert f"{expected.get_n_leaves()} leaves" in out
    elif method == "cost_complexity":
        expected = ID3Classifier(ccp_alpha=0.01).fit(X, y)
        assert f"{expected.get_n_leaves()} leaves" in out
    else:
        assert "rows held out to prune" in out


def test_fit_verbose_two_prints_thresholds_and_categorical_option(capsys):
    argv = ["fit", "iris", "--target", "species", "--verbose", "2", "--max-depth", "1"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "      best thresholds by overall entropy: <= 0.8: 0.6667, <= 0.55: 0.7206, " in out
    argv = ["fit", "hmeq", "--target", "BAD", "--categorical", "DELINQ", "--max-depth", "1"]
    assert main([*argv, "--show-depth", "1"]) == 0


def test_fit_warns_about_id_like_columns_in_one_line(capsys):
    argv = ["fit", "titanic", "--target", "Survived", "--show-depth", "0", "--keep-id-like"]
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert "id3tree: warning: column 'Name' looks like an identifier" in err
    assert "Traceback" not in err


def test_predict_prints_row_ids_accuracy_and_confusion_matrix(tmp_path, capsys):
    model_path = tmp_path / "model.json"
    assert (
        main(["fit", "car", "--target", "class", "--max-depth", "2", "--save", str(model_path)])
        == 0
    )
    capsys.readouterr()
    assert main(["predict", str(model_path), "car"]) == 0
    captured = capsys.readouterr()
    table = pd.read_csv(io.StringIO(captured.out))
    X, y = load("car", return_X_y=True)
    model = ID3Classifier(max_depth=2).fit(X, y)
    assert table.columns.tolist() == ["row", "prediction", "stopped_early"]
    np.testing.assert_array_equal(table["row"], np.arange(len(X)))
    np.testing.assert_array_equal(table["prediction"], model.predict(X))
    hits = int((model.predict(X) == y.to_numpy()).sum())
    assert f"accuracy {hits / len(y):.4f} ({hits} of {len(y)} rows" in captured.err
    for c in model.classes_:
        assert c in captured.err


def test_predict_with_an_id_column_and_no_target(tmp_path, capsys):
    model_path = tmp_path / "model.json"
    X, y = load("titanic", return_X_y=True)
    data = tmp_path / "new.csv"
    X.to_csv(data, index=False)  # no Survived column
    argv = [
        "fit",
        "titanic",
        "--target",
        "Survived",
        "--max-depth",
        "1",
        "--criterion",
        "gain_ratio",
        "--save",
        str(model_path),
    ]
    assert main(argv) == 0
    capsys.readouterr()
    assert main(["predict", str(model_path), str(data), "--id-column", "PassengerId"]) == 0
    captured = capsys.readouterr()
    table = pd.read_csv(io.StringIO(captured.out))
    assert table.columns.tolist() == ["PassengerId", "prediction", "stopped_early"]
    np.testing.assert_array_equal(table["PassengerId"], X["PassengerId"])
    assert "accuracy" not in captured.err
    assert main(["predict", str(model_path), str(data), "--target", "Survived"]) == 2
    assert "'Survived' is not in the data" in capsys.readouterr().err
    assert main(["predict", str(model_path), str(data), "--id-column", "Nope"]) == 2


def test_reduced_error_pruning_weighs_held_out_rows_by_the_training_class_weights(
    monkeypatch, capsys
):
    """With --class-weight, the rows held out for reduced-error pruning count as the training
    rows did: a row of class c weighs n / (K n_c) of the training rows (scikit-learn's
    "balanced"), written out by hand here."""
    seen = {}
    prune = ID3Classifier.prune

    def spy(self, method, X_val=None, y_val=None, **options):
        seen.update(y_train=self._training_labels, y_val=y_val, weight=options["sample_weight"])
        return prune(self, method, X_val, y_val, **options)

    monkeypatch.setattr(ID3Classifier, "prune", spy)
    fit = ID3Classifier.fit

    def remember_labels(self, X, y, **options):
        self._training_labels = list(y)
        return fit(self, X, y, **options)

    monkeypatch.setattr(ID3Classifier, "fit", remember_labels)
    argv = ["fit", "car", "--target", "class", "--class-weight", "balanced"]
    assert main([*argv, "--prune", "reduced_error", "--show-depth", "0"]) == 0
    assert "rows held out to prune" in capsys.readouterr().out
    train = pd.Series(seen["y_train"]).value_counts()
    n, k = train.sum(), len(train)
    expected = [n / (k * train[c]) for c in seen["y_val"]]
    np.testing.assert_allclose(seen["weight"], expected, rtol=1e-12)
    assert len(set(np.round(seen["weight"], 12))) == k  # one weight a class, not all 1
