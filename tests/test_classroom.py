"""A class run on it: a roster and a secret make each student's data; handouts show neither;
a folder of what students hand in is matched, marked, and written as an LMS takes it."""

from __future__ import annotations

import copy
import csv
import hashlib
import hmac
import json
import math
import subprocess
import sys
import warnings

import pandas as pd
import pytest

from id3tree.classroom import (
    Class,
    ClassGrades,
    SettingsMismatchWarning,
    exercises,
    make_class,
    new_secret,
    read_roster,
    read_secret,
)
from id3tree.classroom.exercises import make_exercise
from id3tree.classroom.grading import TASKS
from id3tree.classroom.roster import match_file

SECRET = "a secret kept by the teacher, 40 chars.."
NAMES = ["Alice Martin", "Bob Li", "Chloé Durand", "Dan O'Neil"]


@pytest.fixture(scope="module")
def klass() -> Class:
    return make_class(NAMES, kind="mixed", n_rows=10, secret=SECRET, assignment="week 3")


def write(folder, name, answers) -> None:
    (folder / name).write_text(json.dumps(answers), encoding="utf-8")


# ---------------------------------------------------------------------------------------------
# the secret
# ---------------------------------------------------------------------------------------------
def test_the_same_secret_makes_the_same_class_in_a_fresh_interpreter(klass):
    code = (
        "from id3tree.classroom import make_class;"
        f"k = make_class({NAMES!r}, kind='mixed', n_rows=10, secret={SECRET!r}, "
        "assignment='week 3');"
        "print(k.exercise('Chloé Durand').data.to_csv(), end='')"
    )
    runs = {
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True,
            env={"PYTHONHASHSEED": str(seed), "PATH": ""},
        ).stdout
        for seed in (1, 2)
    }  # fmt: skip
    assert runs == {klass.exercise("Chloé Durand").data.to_csv()}


def test_each_student_gets_their_own_data_and_each_setting_other_data(klass):
    frames = [klass.exercise(n).data for n in NAMES]
    assert all(not a.equals(b) for i, a in enumerate(frames) for b in frames[i + 1 :])
    alice = klass.exercise("Alice Martin").data
    for other in (
        make_class(NAMES, kind="mixed", n_rows=10, secret=SECRET + "!", assignment="week 3"),
        make_class(NAMES, kind="mixed", n_rows=10, secret=SECRET, assignment="week 4"),
    ):
        assert not other.exercise("Alice Martin").data.equals(alice)


def test_the_data_is_an_hmac_of_the_id_under_the_secret():
    """Recomputed with the standard library alone: the student's key under the secret."""
    from id3tree.classroom.exercises import build_exercise

    klass = make_class(pd.DataFrame({"name": ["Ann"], "id": ["s-42"]}), kind="numeric",
                       n_rows=8, secret=SECRET)  # fmt: skip
    message = "\x1f".join(["id3tree class 1", "numeric", "8", "", "id:s-42"]).encode()
    digest = hmac.new(SECRET.encode(), message, hashlib.sha256).digest()
    drawn = build_exercise("numeric", 8, [int.from_bytes(digest, "big")], None, "Ann")
    assert drawn.data.equals(klass.exercise("Ann").data)
    # a renamed student keeps their data: the id is what it is drawn from
    renamed = make_class(pd.DataFrame({"name": ["Ann Lee"], "id": ["s-42"]}), kind="numeric",
                         n_rows=8, secret=SECRET)  # fmt: skip
    assert renamed.exercise("s-42").data.equals(klass.exercise("s-42").data)


def test_no_public_seed_makes_a_students_class_data(klass, monkeypatch):
    alice = klass.exercise("Alice Martin")
    assert alice.seed is None and "seed" not in alice.title
    monkeypatch.setattr(exercises, "solve", lambda ex: ex)  # (the data is all this compares)
    for seed in range(200):
        assert not make_exercise("mixed", 10, seed, student="Alice Martin").data.equals(alice.data)


def test_a_secret_must_be_long_and_is_read_from_a_file(tmp_path):
    with pytest.raises(ValueError, match="at least 16"):
        make_class(NAMES, secret="short")
    path = tmp_path / "secret.txt"
    path.write_text(new_secret() + "\n", encoding="utf-8")
    assert len(read_secret(path)) >= 40 and read_secret(path) == path.read_text().strip()
    assert new_secret() != new_secret()
    with pytest.raises(ValueError, match="does not exist"):
        read_secret(tmp_path / "none.txt")


# ---------------------------------------------------------------------------------------------
# the roster
# ---------------------------------------------------------------------------------------------
def test_rosters_as_learning_management_systems_export_them(tmp_path):
    moodle = tmp_path / "moodle.csv"
    moodle.write_text("First name,Surname,ID number,Email address\nAlice,Martin,1001,a@x.org\n"
                      "Bob,Li,1002,b@x.org\n", encoding="utf-8")  # fmt: skip
    canvas = tmp_path / "canvas.csv"
    canvas.write_text('Student,ID,SIS User ID\n    Points Possible,,\n"Martin, Alice",77,1001\n',
                      encoding="utf-8")  # fmt: skip
    european = tmp_path / "semicolons.csv"
    european.write_text("Name;Student number\nAlice Martin;1001\n", encoding="utf-8-sig")
    plain = tmp_path / "names.txt"
    plain.write_text("Alice Martin\nBob Li\n\n", encoding="utf-8")
    assert [(s.name, s.id, s.email) for s in read_roster(moodle)] == [
        ("Alice Martin", "1001", "a@x.org"), ("Bob Li", "1002", "b@x.org"),
    ]  # fmt: skip
    assert [(s.name, s.id) for s in read_roster(canvas)] == [("Martin, Alice", "77")]
    assert [(s.name, s.id) for s in read_roster(european)] == [("Alice Martin", "1001")]
    assert [s.name for s in read_roster(plain)] == ["Alice Martin", "Bob Li"]
    assert read_roster(canvas, id_column="SIS User ID")[0].id == "1001"


@pytest.mark.parametrize(
    "roster, message",
    [
        ("alice", "not a file"),
        ([], "no student"),
        (["Ann", " ann "], "give the roster an id"),
        ([""], "non-empty name"),
        (pd.DataFrame({"x": [1], "y": [2]}), "which column"),
        (pd.DataFrame({"name": ["a", "b"], "id": ["1", "1"]}), "the id '1'"),
    ],
)
def test_a_roster_that_cannot_be_a_class_says_why(roster, message):
    with pytest.raises(ValueError, match=message):
        read_roster(roster)


def test_every_student_gets_a_file_name_of_their_own():
    students = read_roster(pd.DataFrame({
        "name": ["Alex Kim", "Alex Kim", "<script>", "CON", "東京"], "id": ["1", "2", "3", "4", "5"],
    }))  # fmt: skip
    files = [s.file for s in students]
    assert len(set(files)) == 5 and files[:2] == ["alex-kim", "alex-kim-2"]
    assert all(f.replace("-", "").isalnum() and f.isascii() for f in files)
    assert files[3] != "con" and files[4] == "student"


# ---------------------------------------------------------------------------------------------
# handouts and keys
# ---------------------------------------------------------------------------------------------
def test_handouts_show_the_question_and_neither_seed_secret_nor_answer(klass, tmp_path):
    written = klass.handouts(tmp_path / "h", pdf=False)
    assert sorted(p.name for p in written) == sorted(f"{s.file}.md" for s in klass.students)
    for student in klass.students:
        text = (tmp_path / "h" / f"{student.file}.md").read_text(encoding="utf-8")
        ex = klass.exercise(student)
        assert ex.question in text and "week 3" in text
        assert SECRET not in text and "seed" not in text.lower()
        assert "Worked solution" not in text and ex.tree.to_text(decimals=4) not in text
        assert f"{ex.answers()['root_entropy']:.4f}" not in text
    with pytest.raises(FileExistsError):
        klass.handouts(tmp_path / "h", pdf=False, overwrite=False)


def test_keys_hold_the_worked_solution_and_the_answers(klass, tmp_path):
    klass.keys(tmp_path / "k", pdf=False)
    for student in klass.students:
        ex = klass.exercise(student)
        key = json.loads((tmp_path / "k" / f"{student.file}.json").read_text(encoding="utf-8"))
        assert key == json.loads(json.dumps(ex.answers()))
        assert klass.grade_answers(student.name, key).score == 1.0
        text = (tmp_path / "k" / f"{student.file}.md").read_text(encoding="utf-8")
        assert "Worked solution" in text and ex.question in text
    index = list(csv.DictReader((tmp_path / "k" / "index.csv").open(encoding="utf-8")))
    assert [r["student"] for r in index] == NAMES


def test_hostile_names_are_shown_never_run(tmp_path, compile_latex):
    names = [
        "<script>alert(1)</script>",
        '=HYPERLINK("x")',
        "Zoé\n# Forged\x1b[2J",
        "[a](javascript:x)",
    ]
    klass = make_class(names, kind="numeric", n_rows=8, secret=SECRET)
    klass.handouts(tmp_path, pdf=False)
    for student in klass.students:
        text = (tmp_path / f"{student.file}.md").read_text(encoding="utf-8")
        head = text.split("\n\n")[1]
        assert (
            "<script" not in head and "](" not in head and "\x1b" not in head and "\n" not in head
        )
    keys = tmp_path / "keys"
    klass.keys(keys, pdf=False)
    cells = [r["student"] for r in csv.DictReader((keys / "index.csv").open(encoding="utf-8"))]
    assert cells[1].startswith("'=") and "\x1b" not in cells[2] and "\\n" in cells[2]
    from id3tree.classroom.course import _handout_latex

    compile_latex(_handout_latex(klass.exercise(klass.students[2]), klass.students[2], klass))


def test_handouts_compile_to_pdf_where_pdflatex_is(tmp_path):
    import shutil

    if shutil.which("pdflatex") is None:
        pytest.skip("no pdflatex installed (texlive-latex-base); CI installs it")
    klass = make_class(["Ann", "Zoë <b>"], kind="mixed", n_rows=8, secret=SECRET)
    written = klass.handouts(tmp_path, pdf=True)
    pdfs = [p for p in written if p.suffix == ".pdf"]
    assert len(pdfs) == 2 and all(p.read_bytes().startswith(b"%PDF") for p in pdfs)


# ---------------------------------------------------------------------------------------------
# grading a folder
# ---------------------------------------------------------------------------------------------
def test_files_are_matched_by_the_names_lms_give_them(klass):
    students = klass.students
    dan = next(s for s in students if s.name == "Dan O'Neil")
    cases = {
        "Alice Martin_12345_assignsubmission_file_answers": "Alice Martin",  # Moodle
        "martinalice_LATE_4411_99871_answers-1": "Alice Martin",  # Canvas
        "lichloe_4412_99872_x": None,  # Canvas, a name not on the roster
        "durandchloe_4413_99873_x": "Chloé Durand",
        "12-34 - Bob Li - Jan 5, 2026 1015 AM - answers": "Bob Li",  # Brightspace
        "Dan O'Neil - answers": "Dan O'Neil",
        "dan_oneil (1)": "Dan O'Neil",
        "answers": None,
    }
    for stem, who in cases.items():
        found, _ = match_file(stem, students)
        assert [s.name for s in found] == ([who] if who else []), stem
    assert dan.file == "dan-o-neil"


def test_a_class_is_graded_student_by_student(klass, tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    alice, bob, chloe = (klass.exercise(n).answers() for n in NAMES[:3])
    write(folder, "Alice Martin_12345_assignsubmission_file_answers.json", alice)
    bob = copy.deepcopy(bob)
    bob["root_entropy"] *= math.log(2)
    bob["student"] = "Bob Li"
    write(folder, "page-export.json", bob)  # matched by the name inside it
    (folder / "durandchloe_4413_99873_answers.json").mkdir()  # a folder named x.json
    (folder / "stranger.json").write_text("{}", encoding="utf-8")
    (folder / "Dan O'Neil - answers.txt").write_text("{}", encoding="utf-8")
    grades = klass.grade(folder)
    assert isinstance(grades, ClassGrades) and len(grades) == 4
    assert [r.student.name for r in grades] == sorted(NAMES, key=str.casefold)
    assert grades["Alice Martin"].grade.score == 1.0
    assert grades["Bob Li"].grade.mistakes[0] == "natural log instead of log2"
    assert "folder" in grades["Chloé Durand"].grade.feedback
    dan = grades["Dan O'Neil"].grade
    assert dan.score == 0 and "no submission" in dan.feedback and ".txt" in dan.feedback
    assert grades.unmatched == [("stranger.json", "matches no student of the roster")]
    assert chloe


def test_the_csv_has_a_column_per_task_and_escapes_every_cell(tmp_path):
    names = ["=1+1", "@SUM(A1)", "-2", "+3", "Plain Name"]
    klass = make_class(names, kind="mixed", n_rows=8, secret=SECRET)
    folder = tmp_path / "in"
    folder.mkdir()
    for s in klass.students:
        write(folder, f"{s.file}.json", klass.exercise(s).answers())
    grades = klass.grade(folder)
    grades.to_csv(tmp_path / "g.csv")
    rows = list(csv.DictReader((tmp_path / "g.csv").open(encoding="utf-8")))
    assert set(TASKS) <= set(rows[0]) and "first_wrong_step" in rows[0]
    for row in rows:
        assert not row["student"].startswith(("=", "+", "-", "@"))
        assert float(row["score"]) == 1.0
    assert sorted(r["student"] for r in rows) == sorted(
        ["'=1+1", "'@SUM(A1)", "'-2", "'+3", "Plain Name"]
    )


def test_gradescope_results_follow_its_format(klass, tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    alice = copy.deepcopy(klass.exercise("Alice Martin").answers())
    alice["root_feature"] = "Nope"
    write(folder, "alice_martin.json", alice)
    grades = klass.grade(folder)
    written = grades.to_gradescope(tmp_path / "gs")
    assert [p.parent.name for p in written] == ["alice-martin"]  # one per submission
    result = json.loads(written[0].read_text(encoding="utf-8"))
    assert set(result) == {"score", "output", "tests"}
    assert all(set(t) == {"name", "score", "max_score", "output"} for t in result["tests"])
    assert result["score"] == pytest.approx(sum(t["score"] for t in result["tests"]))
    assert sum(t["max_score"] for t in result["tests"]) == len(result["tests"]) == 5
    root = next(t for t in result["tests"] if t["name"] == "The feature at the root")
    assert root["score"] == 0 and "not 'Nope'" in root["output"]


def test_a_class_graded_with_the_wrong_secret_is_one_loud_warning(klass, tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    for s in klass.students:
        write(folder, f"{s.file}.json", klass.exercise(s).answers())
    wrong = make_class(NAMES, kind="mixed", n_rows=10, secret=SECRET, assignment="week 4")
    with pytest.warns(SettingsMismatchWarning, match="another secret"):
        grades = wrong.grade(folder)
    assert grades.suspect and "Check them" in grades.warnings[0]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        right = klass.grade(folder)
    assert not right.suspect and all(r.grade.score == 1.0 for r in right)


def test_the_summary_names_the_step_most_got_wrong(klass, tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    for i, s in enumerate(klass.students):
        answers = copy.deepcopy(klass.exercise(s).answers())
        if i < 3:
            answers["root_entropy"] *= math.log(2)
        write(folder, f"{s.file}.json", answers)
    grades = klass.grade(folder)
    summary = grades.summary()
    top = summary.iloc[0]
    assert top["step"] == "the entropy of S" and top["students wrong"] == 3
    assert (
        top["first wrong step of"] == 3
        and top["most common mistake"] == "natural log instead of log2"
    )
    histogram = grades.histogram()
    assert histogram["students"].sum() == 4 and histogram["students"].iloc[-1] == 1
    figure = grades.plot(tmp_path / "class.png")
    assert (tmp_path / "class.png").stat().st_size > 1000 and len(figure.axes) == 2
    assert "3 got the entropy of S wrong" in grades.summary_text()


def test_student_folders_and_a_second_file(klass, tmp_path):
    """Moodle's download "in folders", Gradescope's submission_N folders (matched by the
    student_id inside), and a student who handed in twice: the newest readable file counts."""
    import os

    folder = tmp_path / "in"
    moodle = folder / "Alice Martin_12_assignsubmission_file"
    moodle.mkdir(parents=True)
    write(moodle, "answers.json", klass.exercise("Alice Martin").answers())
    gradescope = folder / "submission_998877"
    gradescope.mkdir()
    bob = klass.exercise("Bob Li").answers() | {"student": "Bob Li"}
    write(gradescope, "answers.json", bob)
    chloe = klass.exercise("Chloé Durand").answers()
    write(folder, "chloe_durand.json", chloe)
    write(folder, "Chloé Durand - draft.json", {"root_entropy": 0.5})
    os.utime(folder / "chloe_durand.json", (2_000_000_000, 2_000_000_000))  # the newer one
    (folder / ".DS_Store").write_text("x", encoding="utf-8")
    grades = klass.grade(folder)
    assert grades["Alice Martin"].grade.score == 1.0
    assert grades["Alice Martin"].file == "Alice Martin_12_assignsubmission_file/answers.json"
    assert grades["Bob Li"].grade.score == 1.0
    chloe_row = grades["Chloé Durand"]
    assert chloe_row.grade.score == 1.0 and chloe_row.file == "chloe_durand.json"
    assert any("2 files handed in" in f for f in chloe_row.flags)
    assert not grades.unmatched and not grades.ignored


@pytest.mark.parametrize("kind", ["categorical", "numeric", "mixed"])
def test_the_fast_clear_cut_test_decides_as_its_plain_twin(kind):
    """Exercises are drawn until one is clear-cut: ``_good_fast`` reads the learner's trace and
    counts tied cuts itself, ``_good`` reads the teaching record's tables; they must agree on
    every draw (so a seed still makes the exercise it always made)."""
    import numpy as np

    from id3tree import ID3Classifier
    from id3tree.classroom import exercises

    decisions = []
    for n_rows in (6, 12, 25, 40):
        rng = np.random.default_rng(n_rows)
        for _ in range(30):
            frame, _ = exercises._draw(kind, n_rows, rng)
            tree = ID3Classifier().fit(frame.drop(columns="Go"), frame["Go"])
            plain = exercises._good(frame, tree)
            assert exercises._good_fast(frame, tree) == plain
            decisions.append(plain)
    assert 0 < sum(decisions) < len(decisions)  # both answers were met
