"""The command line refuses what it cannot do well before doing any work, overwrites nothing
unless told to, and reports interrupts, warnings and damaged files in one line each."""

from __future__ import annotations

import json
import signal
import subprocess
import sys

import pytest

from id3tree import ID3Classifier
from id3tree.cli.commands import main
from id3tree.datasets import load_play_tennis


def one_line_error(capsys, message: str) -> None:
    err = capsys.readouterr().err
    assert message in err, err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_an_option_given_twice_is_refused(capsys):
    argv = ["fit", "play_tennis", "--target", "Play", "--target", "Outlook"]
    assert main(argv) == 2
    one_line_error(capsys, "--target is given twice")
    assert main(["fit", "play_tennis", "--target=Play", "--target", "Wind"]) == 2
    one_line_error(capsys, "--target is given twice")


@pytest.mark.parametrize(
    "argv, target",
    [
        (["fit", "play_tennis", "--target", "Play", "--save", "{out}"], "out.json"),
        (["fit", "play_tennis", "--target", "Play", "--render", "{out}"], "out.dot"),
        (["predict", "{model}", "play_tennis", "--out", "{out}"], "out.csv"),
        (["mi", "play_tennis", "--out", "{out}"], "out.csv"),
        (["explore", "play_tennis", "--target", "Play", "--out", "{out}"], "out.html"),
    ],
)
def test_an_existing_file_is_overwritten_only_with_force(tmp_path, capsys, argv, target):
    model = tmp_path / "model.json"
    ID3Classifier().fit(*load_play_tennis(return_X_y=True)).to_json(model)
    out = tmp_path / target
    out.write_text("precious", encoding="utf-8")
    argv = [a.format(out=out, model=model) for a in argv]
    assert main(argv) == 2
    one_line_error(capsys, "already exists; pass --force")
    assert out.read_text(encoding="utf-8") == "precious"
    assert main([*argv, "--force"]) == 0
    assert out.read_text(encoding="utf-8") != "precious"


def test_a_bad_render_extension_is_refused_before_the_fit(monkeypatch, capsys):
    def no_fit(*args, **kwargs):
        raise AssertionError("the fit should not have started")

    monkeypatch.setattr(ID3Classifier, "fit", no_fit)
    assert main(["fit", "play_tennis", "--target", "Play", "--render", "tree.gif"]) == 2
    one_line_error(capsys, "cannot draw into 'tree.gif'")
    assert main(["mi", "play_tennis", "--out", "matrix.xlsx"]) == 2
    one_line_error(capsys, "cannot write 'matrix.xlsx'")


def test_ctrl_c_is_one_line_and_exit_130(monkeypatch, capsys):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(ID3Classifier, "fit", interrupted)
    assert main(["fit", "play_tennis", "--target", "Play"]) == 130
    one_line_error(capsys, "id3tree: interrupted")


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process")
def test_ctrl_c_as_a_program_prints_no_traceback(tmp_path):
    """A real SIGINT while a real fit runs. No timing: the child says when it is fitting, and
    it fits again and again until interrupted, so the signal always lands inside a fit (before,
    a fixed sleep guessed when the fit would be running, and a loaded machine guessed wrong)."""
    rows = "\n".join(f"{i},{i % 7},{i % 2}" for i in range(5_000))
    data = tmp_path / "data.csv"
    data.write_text("a,b,y\n" + rows, encoding="utf-8")
    program = (
        "import signal, sys\n"
        # a program started in the background of a script inherits SIGINT ignored (and Python
        # then raises no KeyboardInterrupt): the child takes Ctrl-C as a terminal's program does
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "from id3tree import ID3Classifier\n"
        "from id3tree.cli.commands import main\n"
        "fit = ID3Classifier.fit\n"
        "def fit_until_interrupted(self, *args, **kwargs):\n"
        "    print('fitting', flush=True)\n"
        "    while True:\n"
        "        fit(self, *args, **kwargs)\n"
        "ID3Classifier.fit = fit_until_interrupted\n"
        f"sys.exit(main(['fit', {str(data)!r}, '--target', 'y']))\n"
    )
    child = subprocess.Popen(
        [sys.executable, "-c", program], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout.readline().strip() == "fitting"  # the readiness signal
        child.send_signal(signal.SIGINT)
        err = child.communicate(timeout=600)[1]
    finally:
        child.kill()
    assert child.returncode == 130, err
    assert "Traceback" not in err and "interrupted" in err


def test_warnings_are_one_line_without_a_source_path(capsys):
    assert main(["stats", "iris", "--target", "species"]) == 0
    err = capsys.readouterr().err
    assert err, "iris's separated classes should warn"
    for line in err.splitlines():
        assert line.startswith("id3tree: warning: "), line
        assert ".py" not in line


def test_a_duplicate_csv_header_is_refused(tmp_path, capsys):
    data = tmp_path / "twice.csv"
    data.write_text("a,b,a,y\n1,2,3,0\n4,5,6,1\n", encoding="utf-8")
    assert main(["fit", str(data), "--target", "y"]) == 2
    one_line_error(capsys, "duplicate column names in its header: ['a']")


@pytest.mark.timeout(60)
def test_predict_with_a_looping_model_file_is_a_clear_error(tmp_path, capsys):
    d = ID3Classifier().fit(*load_play_tennis(return_X_y=True)).to_dict()
    d["nodes"][0]["parent"] = 0
    model = tmp_path / "loop.json"
    model.write_text(json.dumps(d), encoding="utf-8")
    assert main(["predict", str(model), "play_tennis"]) == 2
    one_line_error(capsys, "parent 0")


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    "text",
    [
        '{"format": "id3tree.ID3Classifier", "version": 1, "nodes": [[[[]]]]}',
        "[" * 50_000,
        '{"format": NaN}',
    ],
)
def test_predict_with_a_damaged_model_file_is_one_line(tmp_path, capsys, text):
    model = tmp_path / "damaged.json"
    model.write_text(text, encoding="utf-8")
    assert main(["predict", str(model), "play_tennis"]) == 2
    one_line_error(capsys, "damaged.json")
