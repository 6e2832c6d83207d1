"""Every command explains itself, and chooses columns, as the issue of real data asked."""

from __future__ import annotations

import argparse

import pandas as pd
import pytest

from id3tree.cli.commands import build_parser, main

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
        (["--ccp-alpha", "-1"], "ccp_alpha must be a number >= 0"),
        (["--prune", "pessimistic", "--confidence", "0.9"], "confidence must be a number in"),
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
