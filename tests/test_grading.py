"""The autograder: each student's own exercise, the complete answers, marks with feedback.

The answers are checked against the exercise's own data with the public functions
(``entropy``, ``information_gain``, ``candidate_splits``); the grader against hand-made mistakes.
"""

from __future__ import annotations

import copy
import csv
import json

import pytest

from id3tree import candidate_splits, entropy, information_gain
from id3tree.classroom.exercises import Grade, grade, make_exercise
from id3tree.classroom.grading import TOLERANCE, answers_to_rows, read_answers
from id3tree.cli.commands import main


@pytest.fixture(scope="module")
def mixed():
    return make_exercise("mixed", 12, seed=3, student="alice")


def test_each_student_gets_their_own_data_the_same_every_time():
    alice = make_exercise("numeric", 12, seed=2, student="alice")
    assert alice.data.equals(make_exercise("numeric", 12, seed=2, student="alice").data)
    assert alice.data.equals(make_exercise("numeric", 12, seed=2, student=" Alice ").data)
    names = ["alice", "bob", "carol", "dave", "erin", "frank"]
    frames = [make_exercise("numeric", 12, seed=2, student=n).data for n in names]
    assert all(not a.equals(b) for i, a in enumerate(frames) for b in frames[i + 1 :])
    assert not alice.data.equals(make_exercise("numeric", 12, seed=2).data)
    assert "for alice" in alice.title
    with pytest.raises(ValueError, match="student must be a non-empty name"):
        make_exercise(student="  ")


def test_the_same_student_gets_the_same_data_in_a_fresh_interpreter():
    """The name's seed is a SHA-256 of it, not Python's salted hash()."""
    import subprocess
    import sys

    code = (
        "from id3tree.classroom.exercises import make_exercise;"
        "print(make_exercise('mixed', 10, 1, student='zoé').data.to_csv())"
    )
    runs = {
        subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            env={"PYTHONHASHSEED": str(seed), "PATH": ""},
        ).stdout
        for seed in (1, 2)
    }
    assert len(runs) == 1 and "Go" in runs.pop()


@pytest.mark.parametrize("kind", ["categorical", "numeric", "mixed"])
def test_answers_are_complete_plain_and_right(kind):
    ex = make_exercise(kind, 12, seed=4, student="bob")
    answers = ex.answers()
    assert json.loads(json.dumps(answers)) == answers  # plain JSON
    X, y = ex.X, ex.y
    assert answers["root_entropy"] == pytest.approx(entropy(y))
    for feature in X:
        if feature in ex.numeric:
            table = candidate_splits(X[feature], y)
            expected = dict(zip(table["threshold"], table["overall_entropy"]))
            given = {float(t): v for t, v in answers["thresholds"][feature].items()}
            assert given == pytest.approx(expected)
            best = table.loc[table["overall_entropy"].idxmin(), "threshold"]
            assert answers["best_thresholds"][feature] == pytest.approx(best)
            gain = table["gain"].max()
        else:
            gain = information_gain(X[feature], y)
        assert answers["gains"][feature] == pytest.approx(gain)
    best = max(answers["gains"], key=answers["gains"].get)
    assert answers["root_feature"] == best == answers["tree"]["feature"]
    # the tree predicts what the fitted tree predicts, row by row
    for row, truth in zip(X.itertuples(index=False), ex.tree.predict(X)):
        node = answers["tree"]
        while "predict" not in node:
            value = getattr(row, node["feature"])
            key = (
                str(value)
                if "threshold" not in node
                else "<="
                if value <= node["threshold"]
                else ">"
            )
            node = node["branches"][key]
        assert node["predict"] == truth


def test_the_right_answers_score_one_and_a_teacher_can_assert_it(mixed):
    marks = grade(mixed, mixed.answers())
    assert marks.score == 1.0, marks.feedback  # a teacher's pytest check of a submission
    assert marks.feedback.startswith("All") and marks.total == len(marks.checks) > 10
    assert "score 1.00" in str(marks) and "<table>" in marks._repr_html_()
    assert isinstance(marks, Grade) and mixed.grade(mixed.answers()).score == 1.0


def test_within_the_tolerance_is_right_beyond_it_wrong(mixed):
    answers = copy.deepcopy(mixed.answers())
    answers["root_entropy"] = round(answers["root_entropy"], 3)
    for feature in answers["gains"]:
        answers["gains"][feature] = f"{answers['gains'][feature]:.3f}"  # text is read too
    assert grade(mixed, answers).score == 1.0
    answers["root_entropy"] += 2 * TOLERANCE
    marks = grade(mixed, answers)
    assert marks.score < 1 and marks.feedback.startswith("The entropy of S is")


def test_feedback_names_the_first_wrong_step_and_why():
    ex = make_exercise("categorical", 12, seed=3, student="alice")
    answers = copy.deepcopy(ex.answers())
    tree = answers["tree"]
    value, child = next((k, v) for k, v in tree["branches"].items() if "feature" in v)
    right = child["entropy"]
    child["entropy"] = 0.5
    marks = grade(ex, answers)
    subset = f"S_{{{tree['feature']}={value}}}"
    assert marks.feedback.startswith(f"The entropy of {subset} is {right:.4f}, not 0.5: ")
    # why: its class counts, and the entropy written out from them
    counts = ex.data[ex.data[tree["feature"]] == value][ex.target].value_counts()
    assert f"holds {counts.sum()} rows" in marks.feedback and "log2" in marks.feedback
    # partial credit: one answer of the tree task is wrong, one task of four (no thresholds)
    tree_checks = [c for c in marks.checks if c.task == "tree"]
    assert {c.task for c in marks.checks} == {"entropy", "gains", "root", "tree"}
    assert marks.score == pytest.approx(1 - (1 / len(tree_checks)) / 4)


def test_a_copied_subtree_below_a_wrong_split_gets_no_credit():
    """Below a wrong split the student's branches hold other rows: the key's own subtree,
    copied under it, names branches the student's split does not have."""
    ex = make_exercise("categorical", 12, seed=3, student="alice")
    answers = copy.deepcopy(ex.answers())
    value, child = next((k, v) for k, v in answers["tree"]["branches"].items() if "feature" in v)
    other = next(f for f in ex.X if f not in (child["feature"], answers["root_feature"]))
    child["feature"] = other
    marks = grade(ex, answers)
    assert f"splits on {ex.answers()['tree']['branches'][value]['feature']}" in marks.feedback
    assert f"not {other}" in marks.feedback
    below = [c for c in marks.wrong if c.carried and "missing from the tree" in c.why]
    assert below  # its own branches (the values of the student's feature) are missing
    assert any("is not a branch of" in n for n in marks.notes)
    assert marks.score < 1


@pytest.mark.parametrize(
    "answers",
    [None, [], "root_entropy,1", 3, {"root_entropy": None}, {"gains": [1, 2], "tree": "x"}],
)
def test_malformed_answers_never_raise(mixed, answers):
    marks = grade(mixed, answers)
    assert 0 <= marks.score < 1 and marks.feedback


def test_wrong_types_and_unknown_keys_are_explained(mixed):
    answers = copy.deepcopy(mixed.answers())
    answers["root_entropy"] = "about one"
    answers["colour"] = "blue"
    answers["gains"]["Nope"] = 0.1
    marks = grade(mixed, answers)
    assert "a number was expected, got 'about one'" in marks.feedback
    assert any("'colour' is not a question" in n for n in marks.notes)
    assert any("'Nope' is not a feature" in n for n in marks.notes)
    assert marks.score == pytest.approx(0.8)  # one task of five is wrong, nothing else


def test_missing_thresholds_are_asked_for(mixed):
    answers = copy.deepcopy(mixed.answers())
    feature = mixed.numeric[0]
    cuts = answers["thresholds"][feature]
    first = next(iter(cuts))
    del cuts[first]
    marks = grade(mixed, answers)
    assert marks.feedback.startswith(f"Overall entropy of {feature} <= {first}: nothing was given")
    assert "go to" in marks.feedback or "goes to" in marks.feedback


def test_grade_command_marks_a_folder_of_json_and_csv(tmp_path, capsys):
    folder = tmp_path / "answers"
    folder.mkdir()
    right = make_exercise("mixed", 12, 0, student="alice").answers()
    (folder / "alice.json").write_text(json.dumps(right), encoding="utf-8")
    bob = make_exercise("mixed", 12, 0, student="bob").answers()
    bob["root_entropy"] = 0.1
    with open(folder / "bob.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["question", "answer"])
        writer.writerows(answers_to_rows(bob))
    assert read_answers(folder / "bob.csv")["gains"].keys() == bob["gains"].keys()
    (folder / "carol.json").write_text("{not json", encoding="utf-8")
    (folder / "notes.txt").write_text("ignored", encoding="utf-8")
    assert main(["grade", str(folder), "--kind", "mixed", "--seed", "0"]) == 0
    printed = capsys.readouterr().out.splitlines()[:4]  # (then the class's summary)
    assert [line.split()[0] for line in printed] == ["student", "alice", "bob", "carol"]
    assert " 1.00 " in printed[1] and "The entropy of S is" in printed[2]
    assert "not valid JSON" in printed[3] and " 0.00 " in printed[3]
    out = tmp_path / "grades.csv"
    assert main(["grade", str(folder), "--seed", "0", "--out", str(out)]) == 0
    table = list(csv.DictReader(out.open(encoding="utf-8")))
    assert [r["student"] for r in table] == ["alice", "bob", "carol"]
    assert float(table[0]["score"]) == 1.0 and 0 < float(table[1]["score"]) < 1
    assert main(["grade", str(folder), "--seed", "0", "--out", str(out)]) == 2  # no overwrite
    assert "--force" in capsys.readouterr().err
    assert main(["grade", str(folder), "--seed", "0", "--out", str(out), "--force"]) == 0
    assert main(["grade", str(tmp_path / "none")]) == 2


def test_a_sheet_for_a_class_gives_each_student_their_exercise(tmp_path):
    from id3tree.classroom.exercises import PAGE_BREAK, write_sheets

    write_sheets(tmp_path, kind="numeric", seed=5, count=2, students=["alice", "bob"])
    sheet = (tmp_path / "exercises.md").read_text(encoding="utf-8")
    for name in ("alice", "bob"):
        for i in range(2):
            exercise = make_exercise("numeric", 12, 5 + i, student=name)
            assert f"## Exercise {i + 1} (numeric, seed {5 + i}, for {name})" in sheet
            assert exercise.question in sheet
    # bob's exercises start on a new page, alice's (the first) do not
    assert sheet.count(PAGE_BREAK) == 1
    assert sheet.index(PAGE_BREAK) < sheet.index("for bob") and sheet.index(
        "for alice"
    ) < sheet.index(PAGE_BREAK)
