"""Every command explains itself, and chooses columns, as the issue of real data asked."""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from id3tree.cli.commands import build_parser, main
from id3tree.cli.common import SUMMARIES

ROOT = Path(__file__).resolve().parents[1]

TABLE_COMMANDS = ["fit", "explore", "stats", "rank", "screen", "mi", "select"]


def subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def test_every_subcommand_has_a_description_and_every_option_has_help():
    missing = []
    for name, sub in subcommands().items():
        if not sub.description:
            missing.append(f"{name}: no description")
        for action in sub._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            if not action.help or action.help == argparse.SUPPRESS:
                missing.append(f"{name} {'/'.join(action.option_strings) or action.dest}")
    assert not missing, f"without help: {missing}"


@pytest.mark.parametrize("name", TABLE_COMMANDS)
def test_every_command_that_reads_a_table_chooses_columns(name):
    options = {s for a in subcommands()[name]._actions for s in a.option_strings}
    assert {"--features", "--drop", "--na-values"} <= options


def test_explore_titanic_leaves_out_identifiers_and_honours_max_depth(tmp_path, capsys):
    """892 nodes before, whatever --max-depth: the root split on Name, one branch per row."""
    page = tmp_path / "tree.html"
    argv = ["explore", "titanic", "--target", "Survived", "--out", str(page), "--max-depth", "3"]
    assert main(argv) == 0
    captured = capsys.readouterr()
    for column in ("Name", "Ticket", "Cabin"):
        assert f"left out column {column!r}, which looks like an identifier" in captured.err
    assert "--keep-id-like or name it in --features" in captured.err
    n_nodes = int(captured.out.split("(")[1].split(" nodes")[0])
    assert 1 < n_nodes <= 1 + 3 + 9 + 27  # at most three levels of (at most) three branches
    assert page.stat().st_size > 0


def test_a_column_named_in_features_is_kept_with_a_warning(capsys):
    argv = ["fit", "titanic", "--target", "Survived", "--features", "Name,Sex", "--max-depth", "1"]
    assert main([*argv, "--show-depth", "0"]) == 0
    captured = capsys.readouterr()
    assert "warning: column 'Name' looks like an identifier" in captured.err
    assert "2 features" in captured.out


def test_drop_and_features_choose_the_columns(capsys):
    assert main(["fit", "play_tennis", "--target", "Play", "--drop", "Outlook"]) == 0
    out = capsys.readouterr().out
    assert "3 features" in out and "Outlook" not in out
    assert main(["rank", "play_tennis", "--target", "Play", "--features", "Wind,Humidity"]) == 0
    out = capsys.readouterr().out
    assert "Wind" in out and "Outlook" not in out
    assert main(["fit", "play_tennis", "--target", "Play", "--drop", "Fog"]) == 2
    assert "--drop names column(s) ['Fog'] not in the data" in capsys.readouterr().err
    assert main(["fit", "play_tennis", "--target", "Play", "--drop", "Play"]) == 2
    assert "--drop names the target column 'Play'" in capsys.readouterr().err


def test_a_stray_value_is_named_and_na_values_reads_it_as_missing(tmp_path, capsys):
    temps = [85, 80, 83, 70, 68, 65, 64, "72?", 69, 75, 75, 72, 81, 71]
    data = tmp_path / "weather.csv"
    wind = ["weak", "strong"] * 7
    pd.DataFrame({"Temp": temps, "Wind": wind, "Play": ["no", "yes"] * 7}).to_csv(data, index=False)
    assert main(["fit", str(data), "--target", "Play", "--show-depth", "0"]) == 0
    err = capsys.readouterr().err
    assert err.count("column 'Temp' holds numbers but also '72?' (row 7)") == 1  # once
    assert "--na-values 72?" in err
    assert main(["fit", str(data), "--target", "Play", "--na-values", "72?", "--trace"]) == 0
    captured = capsys.readouterr()
    assert "72?" not in captured.err and "Temp <=" in captured.out


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--confidence", "0.1"], "--confidence is C4.5's factor for --prune pessimistic"),
        (["--prune", "reduced_error", "--ccp-alpha", "0.1"], "--ccp-alpha is for cost_complexity"),
        (["--prune", "cost_complexity"], "--prune cost_complexity needs --ccp-alpha"),
        (["--ccp-alpha", "-1"], "error: --ccp-alpha must be a number >= 0"),
        (
            ["--prune", "pessimistic", "--confidence", "0.9"],
            "error: --confidence must be a number in",
        ),
    ],
)
def test_pruning_options_that_would_be_ignored_are_refused(extra, message, capsys):
    assert main(["fit", "car", "--target", "class", *extra]) == 2
    assert message in capsys.readouterr().err


def test_ccp_alpha_alone_prunes(capsys):
    """It was ignored without --prune cost_complexity."""
    assert main(["fit", "car", "--target", "class", "--show-depth", "0"]) == 0
    grown = capsys.readouterr().out
    assert main(["fit", "car", "--target", "class", "--ccp-alpha", "0.1", "--show-depth", "0"]) == 0
    pruned = capsys.readouterr().out
    assert "cost-complexity pruning at ccp_alpha 0.1" in pruned

    def leaves(text):
        return int(text.split(" leaves")[0].rsplit(" ", 1)[1])

    assert leaves(pruned.split("\n", 1)[1]) < leaves(grown)


def test_exercise_never_overwrites_without_force(tmp_path, capsys):
    assert main(["exercise", "--out", str(tmp_path)]) == 0
    sheet = tmp_path / "exercises.md"
    sheet.write_text("my notes", encoding="utf-8")
    assert main(["exercise", "--out", str(tmp_path), "--seed", "1"]) == 2
    assert "already exists; pass --force" in capsys.readouterr().err
    assert sheet.read_text(encoding="utf-8") == "my notes"
    assert main(["exercise", "--out", str(tmp_path), "--seed", "1", "--force"]) == 0
    assert sheet.read_text(encoding="utf-8") != "my notes"


# -------------------------------------------------------------------------------------------------
# the command line speaks of itself: its version, its defaults, its commands, its data sets
# -------------------------------------------------------------------------------------------------
def test_version_is_the_packages(capsys):
    import id3tree

    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"id3tree {id3tree.__version__}\n"


def value_options(sub: argparse.ArgumentParser) -> list[argparse.Action]:
    """The options that take a value (not the flags, not --help)."""
    return [a for a in sub._actions if a.option_strings and a.nargs != 0 and a.help]


def test_every_option_that_takes_a_value_says_its_default():
    said = []
    for name, sub in subcommands().items():
        formatter = sub._get_formatter()
        for action in value_options(sub):
            text = formatter._get_help_string(action) % {"default": action.default}
            if "default" not in text:
                said.append(f"{name} {action.option_strings[0]}")
            elif action.default is not None and "%(default)" in formatter._get_help_string(action):
                assert f"(default: {action.default})" in text
    assert not said, f"options whose help does not say their default: {said}"


def test_a_zero_default_is_shown():
    fit = subcommands()["fit"]
    text = " ".join(fit.format_help().split())
    assert "random seed of the held-out splits (default: 0)" in text


def test_help_starts_without_the_heavy_libraries():
    """``id3tree --help`` builds every command's name and summary, and imports neither numpy,
    pandas, scipy, scikit-learn nor matplotlib (a property, not a timing: they are what took a
    second and more)."""
    program = (
        "import sys, contextlib, io\n"
        "from id3tree.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
        "    code = main(['--help'])\n"
        "heavy = [m for m in ('numpy', 'pandas', 'scipy', 'sklearn', 'matplotlib') if m in sys.modules]\n"
        "print(code, heavy, 'grade' in out.getvalue(), 'select' in out.getvalue())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=120
    )
    assert done.stdout.split() == ["0", "[]", "True", "True"], done.stderr


def test_the_summaries_of_help_are_the_commands_own():
    """The light parser of ``id3tree --help`` shows each command's own summary, in order."""
    light, full = build_parser([]), build_parser()
    assert light.format_help() == full.format_help()
    assert list(subcommands()) == list(SUMMARIES)


def test_every_command_is_in_the_readmes_and_the_docs_tables():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    row = next(line for line in readme.splitlines() if line.startswith("| `id3tree` (command)"))
    table = (ROOT / "docs" / "command_line.md").read_text(encoding="utf-8")
    listed = {
        "README": set(re.findall(r"`([a-z]+)(?: [^`]*)?`", row.split("|")[2])),
        "docs/command_line.md": set(re.findall(r"^\| `id3tree ([a-z]+)", table, re.M)),
    }
    for where, names in listed.items():
        assert names == set(SUMMARIES), f"{where}: {sorted(names ^ set(SUMMARIES))}"


@pytest.mark.parametrize(
    ("argv", "shown"),
    [
        (["fit", "play_tennis"], "split on Outlook"),
        (["rank", "play_tennis"], "information_gain of each feature with 'Play'"),
        (["stats", "iris"], "target 'species'"),
        (["explore", "play_tennis", "--out", "{tmp}/tree.html"], "wrote"),
        (["select", "iris", "--max-features", "1"], "selected"),
    ],
)
def test_a_builtin_data_set_needs_no_target(tmp_path, capsys, argv, shown):
    argv = [a.format(tmp=tmp_path) for a in argv]
    assert main(argv) == 0
    assert shown in capsys.readouterr().out


def test_a_csv_file_needs_its_target_named(tmp_path, capsys):
    data = tmp_path / "data.csv"
    data.write_text("x,y\n1,a\n2,b\n", encoding="utf-8")
    assert main(["fit", str(data)]) == 2
    err = capsys.readouterr().err
    assert err == "id3tree: error: name the class column with --target (columns: x, y)\n"


def test_the_copy_of_a_builtin_label_is_no_feature(capsys):
    """breast_cancer carries scikit-learn's ``target`` (0 / 1), a copy of ``diagnosis``: the
    tree of the command line, as ``load(return_X_y=True)``, never sees it."""
    from id3tree import ID3Classifier
    from id3tree.datasets import load_breast_cancer

    for argv in (["fit", "breast_cancer"], ["fit", "breast_cancer", "--target", "diagnosis"]):
        assert main([*argv, "--max-depth", "1", "--show-depth", "1"]) == 0
        out = capsys.readouterr().out
        assert "30 features" in out and "split on target" not in out
        X, y = load_breast_cancer(return_X_y=True)
        root = ID3Classifier(max_depth=1).fit(X, y).root_
        assert f"split on {root.feature} <=" in out


def test_one_feature_and_one_leaf_are_singular(tmp_path, capsys):
    data = tmp_path / "one.csv"
    data.write_text("x,y\n1,a\n2,a\n3,a\n", encoding="utf-8")
    assert main(["fit", str(data), "--target", "y"]) == 0
    out = capsys.readouterr().out
    assert "ID3 tree on 3 rows and 1 feature: depth 0, 1 leaf, training accuracy 1.0000" in out


def test_demo_replaces_its_picture_only_with_force(tmp_path, capsys):
    picture = tmp_path / "play_tennis_tree.png"
    picture.write_bytes(b"precious")
    assert main(["demo", "--out", str(tmp_path)]) == 2
    assert "already exists; pass --force" in capsys.readouterr().err
    assert picture.read_bytes() == b"precious"
    assert main(["demo", "--out", str(tmp_path), "--force"]) == 0
    assert "(replaced the old one)" in capsys.readouterr().out
    assert picture.read_bytes().startswith(b"\x89PNG")


def test_exercise_for_a_roster_gives_each_student_their_own(tmp_path, capsys):
    """``--students alice,bob``: each gets the exercise that ``grade`` will mark them on."""
    from id3tree.classroom.exercises import make_exercise, sheet_markdown

    assert main(["exercise", "--students", "alice,bob", "--out", str(tmp_path)]) == 0
    sheet = (tmp_path / "exercises.md").read_text(encoding="utf-8")
    given = [make_exercise("mixed", 12, 0, student=name) for name in ("alice", "bob")]
    assert sheet == sheet_markdown(given, answers=False)
    assert "for alice)" in sheet and "for bob)" in sheet
    assert not given[0].data.equals(given[1].data)
