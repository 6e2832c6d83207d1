"""The marks' feedback in Spanish and German: the same marks as in English, the sentences and
the classic mistakes in the language, numbers with a decimal comma, equations true by pencil."""

from __future__ import annotations

import copy
import csv
import json
import math
import re
from fractions import Fraction

import pytest
from scipy.stats import entropy as scipy_entropy

from id3tree.classroom import make_class
from id3tree.classroom.exercises import make_exercise
from id3tree.classroom.grading import grade, grade_file
from id3tree.classroom.results import gradescope_result
from id3tree.cli.commands import main

LANGUAGES = ("es", "de")
LN = {  # the natural log named, as the catalogs say it (checked by hand, not by the code)
    "es": "es lo que da el logaritmo natural (ln) en lugar de log2",
    "de": "ist das, was der natürliche Logarithmus (ln) statt log2 ergibt",
}
ENGLISH = ("is what", "the entropy of", "nothing was given", "more wrong answer", " holds ")


@pytest.fixture(scope="module")
def exercise():
    return make_exercise("mixed", 12, seed=3, student="alice")


def _planted(exercise) -> dict[str, dict]:
    """Submissions with one classic mistake each (and a few other wrong answers)."""
    key = exercise.answers()
    out = {"right": copy.deepcopy(key)}
    ln = copy.deepcopy(key)
    ln["root_entropy"] = round(key["root_entropy"] * math.log(2), 4)
    out["ln"] = ln
    ratio = copy.deepcopy(key)
    feature = next(iter(ratio["gains"]))
    ratio["gains"][feature] = None  # missing
    ratio["gains"]["Nope"] = 0.5  # not a feature
    out["missing"] = ratio
    cut = copy.deepcopy(key)
    feature = next(iter(cut["best_thresholds"]))
    cut["best_thresholds"][feature] = 10_000
    cut["tree"]["branches"] = dict(list(cut["tree"]["branches"].items())[:1])
    out["cut"] = cut
    root = copy.deepcopy(key)
    root["root_feature"] = next(f for f in key["gains"] if f != key["root_feature"])
    root["tree"]["feature"] = root["root_feature"]
    out["root"] = root
    out["nothing"] = None
    return out


def _marks(g) -> tuple:
    return (
        g.score, g.right, g.total, g.mistakes, g.task_scores, g.problem is None,
        [(c.task, c.kind, c.right, c.expected, c.given, c.mistake, c.carried) for c in g.checks],
    )  # fmt: skip


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_language_changes_the_words_never_the_marks(exercise, code):
    for name, answers in _planted(exercise).items():
        english, spoken = grade(exercise, answers), grade(exercise, answers, language=code)
        assert _marks(english) == _marks(spoken), name
        assert spoken.language == code and english.language == "en"
        if name != "right":
            assert spoken.feedback != english.feedback, name
            for word in ENGLISH:
                assert word not in spoken.feedback and word not in str(spoken), (name, word)


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_natural_log_is_named_with_a_decimal_comma(exercise, code):
    answers = _planted(exercise)["ln"]
    counts = exercise.y.value_counts().to_numpy()
    h = scipy_entropy(counts, base=2)  # the entropy of S, from scipy
    given = f"{h * math.log(2):.4f}".replace(".", ",")
    g = grade(exercise, answers, language=code)
    assert g.mistakes == ["natural log instead of log2"]
    assert f"{given} {LN[code]}" in g.feedback
    assert f"{h:.4f}".replace(".", ",") in g.feedback
    assert not re.search(r"\d\.\d", g.feedback.split("log2(")[0])  # no decimal point


@pytest.mark.parametrize("code", LANGUAGES)
def test_each_equation_of_the_feedback_holds_by_pencil(exercise, code):
    g = grade(exercise, _planted(exercise)["missing"], language=code)
    text = str(g)
    found = re.findall(r"= (\d+,\d{4}) - (\d+,\d{4}) ([=≈]) (\d+,\d{4})", text)
    assert found, text
    for a, b, sign, result in found:
        a, b, result = (Fraction(x.replace(",", ".")) for x in (a, b, result))
        assert (a - b == result) == (sign == "=")
        assert abs(a - b - result) <= Fraction(1, 10_000)


def test_steps_notes_and_problems_are_translated(exercise):
    planted = _planted(exercise)
    g = grade(exercise, planted["cut"], language="de")
    assert any(c.step.startswith("bester Schwellenwert von ") for c in g.checks)
    assert any(c.kind == "the best threshold" for c in g.checks)  # the kind stays English
    assert "fehlt im Baum" in str(g)
    g = grade(exercise, planted["missing"], language="es")
    assert "Gain(S, " in str(g) and "no se dio nada" in str(g)
    assert any("no es un atributo de este ejercicio" in n for n in g.notes)
    g = grade(exercise, None, language="es")
    assert g.problem.startswith("las respuestas deberían ser un mapeo") and g.score == 0
    g = grade(exercise, planted["root"], language="de")
    assert "Folgefehler" in g.feedback or any("Folgefehler" in n for n in g.notes)


def test_a_file_that_cannot_be_read_says_so_in_the_language(exercise, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    g = grade_file(exercise, bad, language="es")
    assert g.problem.startswith("no se pueden leer las respuestas: ") and g.score == 0


def test_a_language_not_shipped_is_named(exercise):
    with pytest.raises(ValueError, match="language must be one of"):
        grade(exercise, {}, language="fr")
    with pytest.raises(TypeError, match="language must be a language code"):
        grade(exercise, {}, language=None)


def test_a_class_graded_in_german_keeps_its_machine_read_keys(tmp_path):
    klass = make_class(["Ana Ruiz", "Ben Vogel"], kind="numeric", n_rows=10, secret="s" * 32)
    folder = tmp_path / "in"
    folder.mkdir()
    ana = copy.deepcopy(klass.exercise("Ana Ruiz").answers())
    ana["root_entropy"] *= math.log(2)
    (folder / "ana-ruiz.json").write_text(json.dumps(ana), encoding="utf-8")
    english, german = klass.grade(folder), klass.grade(folder, language="de")
    assert [r.grade.score for r in english] == [r.grade.score for r in german]
    german.to_csv(tmp_path / "g.csv")
    english.to_csv(tmp_path / "e.csv")
    rows = list(csv.DictReader((tmp_path / "g.csv").open(encoding="utf-8")))
    english_rows = list(csv.DictReader((tmp_path / "e.csv").open(encoding="utf-8")))
    assert list(rows[0]) == list(english_rows[0])  # the same columns, named in English
    assert [r["score"] for r in rows] == [r["score"] for r in english_rows]
    assert rows[0]["mistakes"] == "natürlicher Logarithmus statt log2"
    assert rows[1]["feedback"] == "keine Abgabe"
    assert german.text_table().startswith("Studierende/r")
    assert "1 von 2 Studierenden haben abgegeben" in german.summary_text()
    assert list(german.summary().columns) == list(english.summary().columns)
    assert german.summary()["step"].iloc[0] == "die Entropie von S"
    result = gradescope_result(german["Ana Ruiz"].grade)
    assert set(result) == {"score", "output", "tests"} and set(result["tests"][0]) == {
        "name", "score", "max_score", "output",
    }  # fmt: skip
    assert result["tests"][0]["name"] == "Die Entropie von S"
    assert "Die Entropie von S ist" in result["output"]
    assert "Punktzahl" in german["Ana Ruiz"].grade._repr_html_()


def test_the_command_line_grades_in_the_language_asked(tmp_path, capsys):
    folder = tmp_path / "answers"
    folder.mkdir()
    ex = make_exercise("mixed", 12, 0, student="zoe")
    answers = copy.deepcopy(ex.answers())
    answers["root_entropy"] = round(answers["root_entropy"] * math.log(2), 4)
    (folder / "zoe.json").write_text(json.dumps(answers), encoding="utf-8")
    feedback = tmp_path / "fb"
    assert main(["grade", str(folder), "--seed", "0", "--language", "es",
                 "--feedback", str(feedback)]) == 0  # fmt: skip
    printed = capsys.readouterr().out
    assert "logaritmo natural" in printed and "1 de 1 estudiantes entregaron" in printed
    assert (feedback / "zoe.txt").read_text(encoding="utf-8").startswith("nota ")
    assert main(["grade", str(folder), "--seed", "0", "--language", "fr"]) == 2
    assert "--language" in capsys.readouterr().err
