"""``id3tree class secret|handouts|keys|grade``: the command line mirrors the Python API.

The command is added by :func:`id3tree.cli.classroom.add_class_command`; it is run here on a
parser of its own, with the app's handling of errors (one line, status 2)."""

from __future__ import annotations

import argparse
import copy
import csv
import json
import math
import stat

import pytest

from id3tree.classroom import make_class, read_secret
from id3tree.cli.classroom import add_class_command
from id3tree.cli.common import UserError


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="id3tree")
    add_class_command(parser.add_subparsers(dest="command", required=True))
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    try:
        return args.run(args)
    except (UserError, ValueError, OSError) as exc:
        print(f"id3tree: error: {exc}")
        return 2


@pytest.fixture()
def course(tmp_path):
    roster = tmp_path / "roster.csv"
    roster.write_text("name,id\nAlice Martin,1001\nBob Li,1002\nChloé Durand,1003\n", "utf-8")
    assert run(["class", "secret", str(tmp_path / "secret.txt")]) == 0
    common = ["--roster", str(roster), "--secret-file", str(tmp_path / "secret.txt")]
    common += ["--kind", "numeric", "--rows", "10", "--assignment", "lab 2"]
    klass = make_class(roster, kind="numeric", n_rows=10, secret=read_secret(tmp_path / "secret.txt"),
                       assignment="lab 2")  # fmt: skip
    return tmp_path, common, klass


def test_a_secret_is_written_for_its_owner_only_and_never_overwritten(tmp_path, capsys):
    path = tmp_path / "secret.txt"
    assert run(["class", "secret", str(path)]) == 0
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and len(read_secret(path)) >= 40
    first = path.read_text()
    assert run(["class", "secret", str(path)]) == 2 and "--force" in capsys.readouterr().out
    assert run(["class", "secret", str(path), "--force"]) == 0 and path.read_text() != first


def test_handouts_and_keys_from_the_command_line(course, capsys):
    folder, common, klass = course
    assert run(["class", "handouts", *common, "--out", str(folder / "h"), "--no-pdf"]) == 0
    assert sorted(p.name for p in (folder / "h").iterdir()) == [
        "alice-martin.md", "bob-li.md", "chloe-durand.md",
    ]  # fmt: skip
    text = (folder / "h" / "bob-li.md").read_text(encoding="utf-8")
    assert klass.exercise("1002").question in text and "lab 2" in text
    assert run(["class", "handouts", *common, "--out", str(folder / "h"), "--no-pdf"]) == 2
    assert "--force" in capsys.readouterr().out
    assert run(["class", "keys", *common, "--out", str(folder / "k"), "--no-pdf"]) == 0
    key = json.loads((folder / "k" / "bob-li.json").read_text(encoding="utf-8"))
    assert klass.grade_answers("Bob Li", key).score == 1.0


def test_grade_writes_the_csv_gradescope_feedback_and_plot(course, capsys):
    folder, common, klass = course
    submissions = folder / "in"
    submissions.mkdir()
    alice = klass.exercise("Alice Martin").answers()
    (submissions / "Alice Martin_5_assignsubmission_file_a.json").write_text(json.dumps(alice))
    bob = copy.deepcopy(klass.exercise("Bob Li").answers())
    bob["root_entropy"] *= math.log(2)
    (submissions / "bob_li.json").write_text(json.dumps(bob))
    out = [
        "--out", str(folder / "g.csv"), "--gradescope", str(folder / "gs"),
        "--feedback", str(folder / "fb"), "--plot", str(folder / "p.png"),
        "--weights", "tree=2", "--tolerance", "0.002",
    ]  # fmt: skip
    assert run(["class", "grade", str(submissions), *common, *out]) == 0
    printed = capsys.readouterr().out
    assert "2 of 3 students handed in" in printed and "natural log" in printed
    rows = {r["student"]: r for r in csv.DictReader((folder / "g.csv").open(encoding="utf-8"))}
    assert float(rows["Alice Martin"]["score"]) == 1.0 and rows["Chloé Durand"]["score"] == "0.0"
    assert rows["Bob Li"]["first_wrong_step"] == "H(S)" and rows["Bob Li"]["entropy"] == "0.0"
    assert "no submission" in rows["Chloé Durand"]["feedback"]
    result = json.loads((folder / "gs" / "alice-martin" / "results.json").read_text())
    tree = next(t for t in result["tests"] if t["name"] == "The tree")
    assert tree["max_score"] == 2 and result["score"] == 6
    assert (folder / "fb" / "bob-li.txt").read_text().startswith("score ")
    assert (folder / "p.png").stat().st_size > 1000
    # nothing is overwritten without --force, and nothing is marked before that is checked
    assert run(["class", "grade", str(submissions), *common, *out]) == 2


def test_grade_with_the_wrong_settings_writes_no_marks(course, capsys):
    folder, common, klass = course
    submissions = folder / "in"
    submissions.mkdir()
    for s in klass.students:
        (submissions / f"{s.file}.json").write_text(json.dumps(klass.exercise(s).answers()))
    wrong = [c if c != "lab 2" else "lab 3" for c in common]
    assert run(["class", "grade", str(submissions), *wrong, "--out", str(folder / "g.csv")]) == 2
    captured = capsys.readouterr()
    assert "another secret" in captured.err and "--even-if-mismatched" in captured.err
    assert not (folder / "g.csv").exists()
    assert run(["class", "grade", str(submissions), *wrong, "--out", str(folder / "g.csv"),
                "--even-if-mismatched"]) == 0  # fmt: skip


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--weights", "tree=x"], "--weights: tree should be a number"),
        (["--weights", "trees=1"], "--weights: 'trees' is not a task"),
        (["--tolerance", "0"], "--tolerance"),
        (["--rows", "3"], "--rows must be from 6 to 40"),
    ],
)
def test_options_are_checked_and_named(course, capsys, extra, message):
    folder, common, _ = course
    (folder / "in").mkdir()
    assert run(["class", "grade", str(folder / "in"), *common, *extra]) == 2
    assert message in capsys.readouterr().out


def test_a_missing_or_short_secret_file_is_named(tmp_path, capsys):
    roster = tmp_path / "r.csv"
    roster.write_text("name\nAnn\n", encoding="utf-8")
    short = tmp_path / "short.txt"
    short.write_text("abc\n", encoding="utf-8")
    for secret in (short, tmp_path / "none.txt"):
        argv = ["class", "keys", "--roster", str(roster), "--secret-file", str(secret)]
        assert run([*argv, "--out", str(tmp_path / "k")]) == 2
        assert "--secret-file" in capsys.readouterr().out
