"""Nothing a student hands in stops the class, and nothing they name injects: every bad file
scores 0 with its reason (or is listed, when it names no one), and the class goes on."""

from __future__ import annotations

import json
import os

import pytest

from id3tree.classroom import make_class
from id3tree.classroom.exercises import make_exercise, write_sheets
from id3tree.classroom.reading import MAX_BYTES, NotAnswer, number, read_answers
from id3tree.classroom.text import csv_cell, markdown_text, printable

SECRET = "another secret the teacher keeps safe"


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    "text, fragment",
    [
        ('{"root_entropy": 1e400}', None),  # not finite: a wrong answer, not a crash
        ('{"root_entropy": "1e99999999"}', None),
        ('{"root_entropy": ' + "9" * 5000 + "}", None),  # beyond Python's int digits limit
        ('{"root_entropy": NaN, "gains": {"A": Infinity}}', None),
        ("[" * 100_000 + "]" * 100_000, "nests deeper than 64"),
        ('{"tree": ' + '{"branches": {"a": ' * 70 + "{}" + "}}" * 70 + "}", "nests deeper"),
        ("{not json", "not valid JSON"),
    ],
)
def test_a_json_file_that_cannot_crash_the_grader(tmp_path, text, fragment):
    path = tmp_path / "a.json"
    path.write_text(text, encoding="utf-8")
    ex = make_exercise("mixed", 8, 1)
    if fragment is None:
        marks = ex.grade(read_answers(path))
        assert 0 <= marks.score < 1 and "finite number" in str(marks) + marks.feedback
    else:
        with pytest.raises(ValueError, match=fragment):
            read_answers(path)


@pytest.mark.timeout(60)
def test_numbers_outside_the_float_range_are_refused_before_any_exact_parse():
    for text in ("1e400", "-1e400", "1e99999999", "1e99999999/3", "nan", "inf", "9" * 200):
        with pytest.raises(NotAnswer, match="number"):
            number(text)
    assert number("5/14") == pytest.approx(5 / 14) and number("0,971") == 0.971
    assert number("1e-99999999") == 0.0
    with pytest.raises(NotAnswer):
        number(10**400)


def test_a_csv_cell_longer_than_the_csv_modules_limit(tmp_path):
    path = tmp_path / "a.csv"
    path.write_text("question,answer\nroot_entropy," + "x" * 200_000 + "\n", encoding="utf-8")
    marks = make_exercise("mixed", 8, 1).grade(read_answers(path))
    assert marks.score < 1 and len(marks.feedback) < 2000  # the answer is quoted, cut short
    import csv

    assert csv.field_size_limit() == 131_072  # (the limit is raised for the read only)


def test_files_too_large_not_utf8_or_utf16(tmp_path):
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (MAX_BYTES + 1))
    with pytest.raises(ValueError, match="at most"):
        read_answers(big)
    latin = tmp_path / "latin.json"
    latin.write_bytes('{"root_feature": "Wind"}'.encode("latin-1") + b"\xe9")
    with pytest.raises(ValueError, match="not UTF-8"):
        read_answers(latin)
    excel = tmp_path / "excel.csv"
    excel.write_bytes("question,answer\nroot_feature,Wind\n".encode("utf-16"))
    assert read_answers(excel) == {"root_feature": "Wind"}


@pytest.mark.timeout(60)
def test_odd_entries_score_zero_with_a_reason_and_the_class_goes_on(tmp_path):
    names = ["Ann", "Ben", "Cid", "Dee", "Eve"]
    klass = make_class(names, kind="categorical", n_rows=8, secret=SECRET)
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "ann.json").write_text(json.dumps(klass.exercise("Ann").answers()), encoding="utf-8")
    os.mkfifo(folder / "ben.json")  # would block a reader forever
    os.symlink(folder / "nowhere", folder / "cid.json")
    (folder / "dee.json").mkdir()
    (folder / "eve.csv").write_text("question,answer\n" + "a/" * 200 + "b,1\n", encoding="utf-8")
    grades = klass.grade(folder)
    why = {r.student.name: r.grade.feedback for r in grades}
    assert grades["Ann"].grade.score == 1.0
    assert "pipe" in why["Ben"] and "link to a file that does not exist" in why["Cid"]
    assert "folder" in why["Dee"] and "nests deeper" in why["Eve"]
    assert all(grades[n].grade.score == 0 for n in names[1:])


def test_names_that_would_forge_rows_or_clear_the_terminal(tmp_path):
    klass = make_class(["Ann"], kind="categorical", n_rows=8, secret=SECRET)
    folder = tmp_path / "in"
    folder.mkdir()
    hostile = ["\t.json", "evil\nAnn 1.00 All right.json", "\x1b[2Jclear.json", "=cmd|calc.json"]
    hostile.append(os.fsdecode(b"\xff\xfe.json"))
    for name in hostile:
        (folder / name).write_text("{}", encoding="utf-8")
    grades = klass.grade(folder)
    table = grades.text_table()
    assert len(table.splitlines()) == 2 and "\x1b" not in table  # the header and Ann
    text = str(grades)
    assert "\x1b" not in text and "\t" not in text and "\udcff" not in text
    assert "evil\\nAnn" in text and "\\xff\\xfe.json" in text
    assert len(grades.unmatched) == len(hostile)
    grades.to_csv(tmp_path / "g.csv")  # writes (no lone surrogate reaches the encoder)


def test_the_writers_escape_what_they_must():
    assert printable("a\u202eb\u200dc") == "a\\u202eb\u200dc"  # a bidi override shown, ZWJ kept
    assert csv_cell("-1+1") == "'-1+1" and csv_cell("\t=1") == "\\t=1" and csv_cell("ok") == "ok"
    assert markdown_text("![x](http://t/p.png)") == "\\!\\[x\\]\\(http://t/p\\.png\\)"


# ---------------------------------------------------------------------------------------------
# sheets (issue 41)
# ---------------------------------------------------------------------------------------------
def test_one_name_is_one_student_and_an_empty_list_is_refused(tmp_path):
    write_sheets(tmp_path, kind="categorical", n_rows=8, students="alice")
    sheet = (tmp_path / "exercises.md").read_text(encoding="utf-8")
    assert sheet.count("## Exercise") == 1 and "for alice" in sheet
    for students, message in (([], "empty"), (["a", " A "], "named twice"), ([""], "non-empty")):
        with pytest.raises(ValueError, match=message):
            write_sheets(tmp_path, students=students)


def test_a_hostile_student_name_is_written_as_text(tmp_path, compile_latex):
    nasty = "<script>alert(1)</script>"
    write_sheets(tmp_path, kind="categorical", n_rows=8, students=[nasty, "[x](javascript:y)"],
                 latex=True)  # fmt: skip
    for name in ("exercises.md", "answers.md"):
        sheet = (tmp_path / name).read_text(encoding="utf-8")
        assert "<script" not in sheet and "](javascript" not in sheet
        assert "&lt;script&gt;alert\\(1\\)&lt;/script&gt;" in sheet
    document = (tmp_path / "exercises.tex").read_text(encoding="utf-8")
    assert document.count("\\clearpage") == 1
    compile_latex(document)
