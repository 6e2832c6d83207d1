"""The command line refuses what it cannot do well before doing any work, overwrites nothing
unless told to, and reports interrupts, warnings and damaged files in one line each."""

from __future__ import annotations

import json
import re
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


# -------------------------------------------------------------------------------------------------
# every error names the option typed, and comes before the work
# -------------------------------------------------------------------------------------------------
PYTHON_NAMES = re.compile(r"\b(?:[a-z]+_[a-z_]+|alpha|seed|bins|count|holdout)\b(?! \w+ column)")


@pytest.mark.parametrize(
    ("argv", "option"),
    [
        (["fit", "play_tennis", "--max-depth", "-1"], "--max-depth"),
        (["fit", "play_tennis", "--min-samples-leaf", "0"], "--min-samples-leaf"),
        (["fit", "play_tennis", "--alpha", "2"], "--alpha"),
        (["fit", "play_tennis", "--ccp-alpha", "nan"], "--ccp-alpha"),
        (["fit", "play_tennis", "--prune", "pessimistic", "--confidence", "0"], "--confidence"),
        (
            ["fit", "play_tennis", "--prune", "reduced_error", "--validation-size", "0"],
            "--validation-size",
        ),
        (
            ["fit", "play_tennis", "--prune", "reduced_error", "--validation-size", "nan"],
            "--validation-size",
        ),
        (["fit", "play_tennis", "--test-size", "1.5"], "--test-size"),
        (["fit", "play_tennis", "--test-size", "0.3", "--seed", "-1"], "--seed"),
        (["fit", "play_tennis", "--test-size", "0.3", "--seed", "1e20"], "--seed"),
        (["fit", "play_tennis", "--show-depth", "-1"], "--show-depth"),
        (["explore", "play_tennis", "--build", "--seed", "-1"], "--seed"),
        (["explore", "play_tennis", "--build", "--holdout", "2"], "--holdout"),
        (["exercise", "--rows", "3"], "--rows"),
        (["exercise", "--count", "0"], "--count"),
        (["exercise", "--seed", "-1"], "--seed"),
        (["rank", "play_tennis", "--bins", "0"], "--bins"),
        (["mi", "iris", "--bins", "0"], "--bins"),
        (["stats", "iris", "--alpha", "2"], "--alpha"),
        (["select", "iris", "--max-features", "0"], "--max-features"),
        (["select", "iris", "--direction", "random", "--n-iter", "0"], "--n-iter"),
        (["select", "iris", "--direction", "random", "--seed", "-1"], "--seed"),
        (["select", "iris", "--alpha", "2"], "--alpha"),
        (["select", "iris", "--alpha-remove", "2"], "--alpha-remove"),
        (["grade", "{tmp}", "--rows", "3"], "--rows"),
    ],
)
def test_every_error_names_the_option_typed_before_any_work(tmp_path, capsys, argv, option):
    """In the option's words, not the library's parameter (``max_depth``) nor another
    library's (scikit-learn's ``test_size``, ``random_state``; numpy's "expected non-negative
    integer"); and before anything is printed or written."""
    (tmp_path / "alice.json").write_text("{}", encoding="utf-8")
    argv = [a.format(tmp=tmp_path) for a in argv]
    out = tmp_path / "out"
    if argv[0] in ("explore", "exercise"):
        argv += ["--out", str(out)]
    assert main(argv) == 2
    captured = capsys.readouterr()
    err = captured.err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    said = err.split("error: ", 1)[1]
    assert option in said, err
    assert not PYTHON_NAMES.search(said.replace(option, "")), err
    assert captured.out == "" and not out.exists()


@pytest.mark.parametrize("option", ["--save", "--render"])
def test_an_output_in_a_missing_folder_is_refused_before_the_fit(tmp_path, capsys, option):
    where = tmp_path / "no_such_folder" / ("model.json" if option == "--save" else "tree.png")
    assert main(["fit", "play_tennis", option, str(where)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # no tree printed first
    assert "does not exist" in captured.err and captured.err.count("\n") == 1
    assert not where.parent.exists()


def test_a_test_file_without_rows_or_columns_is_refused_before_the_fit(tmp_path, capsys):
    header = tmp_path / "header.csv"
    header.write_text("Outlook,Temperature,Humidity,Wind,Play\n", encoding="utf-8")
    part = tmp_path / "part.csv"
    part.write_text("Outlook,Play\nSunny,Yes\n", encoding="utf-8")
    for data, message in ((header, "has no rows"), (part, "lacks the feature column(s)")):
        assert main(["fit", "play_tennis", "--test", str(data)]) == 2
        captured = capsys.readouterr()
        assert captured.out == "" and message in captured.err, captured.err
        assert captured.err.count("\n") == 1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["fit", "play_tennis", "--validation-size", "0.3"],
            "--validation-size is the share held out by --prune reduced_error",
        ),
        (
            ["explore", "play_tennis", "--seed", "3"],
            "--seed is for the page where you grow the tree; add --build",
        ),
        (
            ["explore", "play_tennis", "--holdout", "0.2"],
            "--holdout is for the page where you grow the tree",
        ),
    ],
)
def test_an_option_that_would_be_ignored_is_refused(tmp_path, capsys, argv, message):
    assert (
        main([*argv, *(["--out", str(tmp_path / "t.html")] if argv[0] == "explore" else [])]) == 2
    )
    one_line_error(capsys, message)


def warning_carries_its_column() -> bool:
    """Whether ``IDLikeFeatureWarning`` is made with its column (``feature=``), which the
    command line reads instead of the message's text."""
    from id3tree.base.diagnostics import IDLikeFeatureWarning

    try:
        return IDLikeFeatureWarning("any words", feature="x").feature == "x"
    except TypeError:
        return False


@pytest.mark.xfail(
    not warning_carries_its_column(),
    reason="IDLikeFeatureWarning reads its column back from its text (fixed with feature=)",
    strict=True,
)
@pytest.mark.parametrize("command", [["fit"], ["explore"], ["explore", "--build"]])
def test_a_column_named_like_the_warning_is_left_out_by_its_name(tmp_path, capsys, command):
    """A header that reads like the identifier warning itself: the column is named from the
    warning's ``feature``, never parsed from its words."""
    name = "x looks like an identifier: it split 3 rows into 3 branches"
    data = tmp_path / "odd.csv"
    rows = "\n".join(f"id{i},{i % 2},{'ab'[i % 3 == 0]}" for i in range(40))
    data.write_text(f'"{name}",y,z\n{rows}\n', encoding="utf-8")
    argv = [command[0], str(data), "--target", "y", *command[1:]]
    if command[0] == "explore":
        argv += ["--out", str(tmp_path / "tree.html")]
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert f"left out column {name!r}, which looks like an identifier" in err
    assert "Traceback" not in err


@pytest.mark.xfail(
    reason="render/plot.py's KeyError on a label of 999 characters (fixed in the drawing code)",
    raises=KeyError,
    strict=False,
)
def test_a_long_label_is_drawn_without_graphviz(tmp_path, capsys, monkeypatch):
    """``fit long.csv --render t.png`` without Graphviz's dot: matplotlib draws it."""
    import shutil

    monkeypatch.setattr(shutil, "which", lambda name: None)
    data = tmp_path / "long.csv"
    rows = "\n".join(f"{'rb'[i % 2]},{'ny'[i % 2]}" for i in range(20))
    data.write_text(f"{'c' * 999},y\n{rows}\n", encoding="utf-8")
    picture = tmp_path / "t.png"
    assert main(["fit", str(data), "--target", "y", "--render", str(picture)]) == 0
    assert "drew the tree with matplotlib" in capsys.readouterr().out
    assert picture.read_bytes().startswith(b"\x89PNG")
