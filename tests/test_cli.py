"""The command line: called as main(argv) and run as a program."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from id3tree import ID3Classifier
from id3tree.cli import main
from id3tree.datasets import load_iris

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
        "overall entropy 0.6935, gain 0.9403 - 0.6935 = 0.2467" in out
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
