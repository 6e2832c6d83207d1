"""Exercises, sheets, handouts and keys in the student's language: the same data, the same
answers and the same numbers as in English, with the catalog's words and decimal commas; the
English pages unchanged when every line goes through the catalog untranslated."""

from __future__ import annotations

import gettext
import json
import re

import pytest

from id3tree.base import language as lang
from id3tree.base.language import LANGUAGES, Language
from id3tree.classroom import make_class
from id3tree.classroom.course import _handout_latex, _handout_markdown, _key_markdown
from id3tree.classroom.exercises import (
    _question_markdown,
    make_exercise,
    sheet_latex,
    sheet_markdown,
    solve,
    write_sheets,
)
from id3tree.cli import main

SHIPPED = [code for code in LANGUAGES if code != "en"]
SECRET = "a class secret of the tests"


def pages(exercises, klass) -> dict[str, str]:
    """Every page of a sheet of ``exercises`` and of the first student of ``klass``."""
    student = klass.students[0]
    ex = klass.exercise(student)
    return {
        "question": exercises[0].question,
        "solution": str(exercises[0].solution),
        "sheet": sheet_markdown(exercises, answers=False),
        "key_sheet": sheet_markdown(exercises, answers=True),
        "key_latex": sheet_latex(exercises, answers=True),
        "handout": _handout_markdown(ex, student, klass),
        "handout_latex": _handout_latex(ex, student, klass),
        "key": _key_markdown(ex, student, klass),
    }


def _made(code: str):
    exercises = [make_exercise("mixed", 12, 3, "Zoé", language=code)]
    klass = make_class(["Ann Lee"], kind="numeric", secret=SECRET, language=code)
    with lang.speaking(code):  # (the class's pages are written inside its language)
        return exercises, klass, pages(exercises, klass)


ENGLISH = _made("en")


def test_the_english_messages_are_the_english_pages_byte_for_byte():
    """Written through a catalog with no translation, every page is the English page."""
    untranslated = Language("xx", gettext.NullTranslations())
    ex = make_exercise("mixed", 12, 3, "Zoé")
    klass = make_class(["Ann Lee"], kind="numeric", secret=SECRET)
    klass.language = untranslated
    for exercise in (ex, klass._unsolved(klass.students[0])):
        exercise.language = exercise.tree.language = untranslated
        exercise.question = _question_markdown(exercise)
        solve(exercise)
    with lang.speaking(untranslated):
        assert pages([ex], klass) == ENGLISH[2]


@pytest.mark.parametrize("code", SHIPPED)
def test_an_exercise_in_another_language_has_the_same_data_answers_and_numbers(code):
    exercises, klass, english = ENGLISH
    spoken_exercises, spoken_class, spoken = _made(code)
    assert spoken_exercises[0].data.equals(exercises[0].data)
    assert spoken_exercises[0].answers() == exercises[0].answers()  # keys and numbers
    assert spoken_class.exercise("Ann Lee").data.equals(klass.exercise("Ann Lee").data)
    number = re.compile(r"\d+(?:[.,]\d+)?")
    for page, text in spoken.items():
        assert text != english[page], page
        words = text.replace("{,}", ",").replace("{0,5ex}", "{0.5ex}")
        if page.startswith("handout"):  # the answers' template: JSON, a point in 0.02
            words = words.replace("0.02", "0,02").replace("gains/Weather,0,02", "")
            words = re.sub(r'"5/14"', "", words)
        theirs = english[page]
        if page.startswith("handout"):
            theirs = theirs.replace("gains/Weather,0.02", "").replace('"5/14"', "")
        ours = [n.replace(",", ".") for n in number.findall(words)]
        assert ours == number.findall(theirs), (code, page)
        for word in ("entropy", "Compute", "Exercise", "Handing in", "Decision", "samples"):
            assert not re.search(rf"\b{word}\b", re.sub(r'"[a-z_]+"', "", text)), (page, word)
    # the answers' template keeps its keys, its placeholders are in the language
    template = spoken["handout"].split("    {", 1)[1]
    assert '"root_entropy": null' in template and '"gains": {' in template
    assert "<the root's feature>" not in template


def test_an_unknown_language_is_named_before_anything_is_drawn():
    with pytest.raises(ValueError, match=r"language must be one of 'en', .*; got 'fr'"):
        make_exercise(language="fr")
    with pytest.raises(ValueError, match="language must be one of"):
        make_class(["Ann"], secret=SECRET, language="xx")


def test_the_commands_write_their_pages_in_the_language_asked(tmp_path, capsys):
    assert main(["exercise", "--out", str(tmp_path / "es"), "--language", "es"]) == 0
    sheet = (tmp_path / "es" / "exercises.md").read_text(encoding="utf-8")
    assert sheet.startswith("# Árboles de decisión con entropía: ejercicios")
    assert "Calcula la entropía de Go" in sheet
    roster = tmp_path / "roster.csv"
    roster.write_text("name,id\nAnn Lee,7\n", encoding="utf-8")
    (tmp_path / "secret.txt").write_text(SECRET, encoding="utf-8")
    common = ["--roster", str(roster), "--secret-file", str(tmp_path / "secret.txt")]
    out = tmp_path / "de"
    argv = ["class", "handouts", *common, "--out", str(out), "--no-pdf", "--language", "de"]
    assert main(argv) == 0
    handout = (out / "ann-lee.md").read_text(encoding="utf-8")
    assert handout.startswith("# Entscheidungsbäume mit Entropie")
    assert "## Abgabe" in handout and '"root_entropy": null' in handout
    capsys.readouterr()
    assert main(["exercise", "--out", str(tmp_path / "fr"), "--language", "fr"]) != 0
    assert "argument --language: invalid choice: 'fr'" in capsys.readouterr().err


def test_write_sheets_takes_a_language(tmp_path):
    paths = write_sheets(tmp_path, kind="numeric", language="de")
    answers = (tmp_path / "answers.md").read_text(encoding="utf-8")
    assert len(paths) == 2 and not re.search("^## Ausgearbeitete Lösung", answers, re.M)
    assert "### Ausgearbeitete Lösung" in answers and "### Der Baum" in answers
    assert json.dumps(make_exercise("numeric", language="de").answers())  # plain data
