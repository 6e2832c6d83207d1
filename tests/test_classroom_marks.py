"""Marks a student who contests them would accept: error carried forward, the classic mistakes
named, weights and tolerance, ties, and answers that do not fit the student's data.

The expected subtrees below a wrong split come from the textbook's ID3
(:func:`id3tree.textbook.grow_tree`, grown on the rows the student's split makes) and every
entropy from scipy; the mistakes' numbers are worked from scipy's entropy in other bases.
"""

from __future__ import annotations

import copy
import math

import numpy as np
import pandas as pd
import pytest
from scipy.stats import entropy as scipy_entropy

from id3tree import ID3Classifier, textbook
from id3tree.classroom import mistakes
from id3tree.classroom.exercises import Exercise, make_exercise
from id3tree.classroom.grading import grade
from id3tree.datasets import load_play_tennis
from id3tree.teaching import WorkedSolution


def bits(counts) -> float:
    return float(scipy_entropy(counts, base=2))


def as_answers(node) -> dict:
    """A textbook tree in the layout of the answers (entropies from scipy)."""
    h = bits(list(node.class_counts.values()))
    if node.is_leaf:
        return {"entropy": h, "predict": str(node.prediction)}
    out = {"entropy": h, "feature": node.feature}
    if node.threshold is not None:
        out["threshold"] = node.threshold
    out["branches"] = {str(k): as_answers(c) for k, c in node.children.items()}
    return out


def grown(ex, rows) -> dict:
    """The textbook's ID3 on some rows of an exercise, as answers."""
    X, y = ex.X[rows].reset_index(drop=True), ex.y[rows].reset_index(drop=True)
    return as_answers(textbook.grow_tree(X, y))


def exercise_of(frame: pd.DataFrame, target: str, numeric=()) -> Exercise:
    """An exercise made of any small table (a published one, or a case made to order)."""
    tree = ID3Classifier(id_like="keep").fit(frame.drop(columns=target), frame[target])
    return Exercise("categorical", None, frame, target, "", WorkedSolution(""), tree, list(numeric))


@pytest.fixture(scope="module")
def tennis():
    X, y = load_play_tennis(return_X_y=True)
    return exercise_of(X.assign(PlayTennis=y), "PlayTennis")


# ---------------------------------------------------------------------------------------------
# error carried forward
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [3, 4, 5])
def test_a_wrong_root_with_id3_below_it_loses_the_root_only(seed):
    ex = make_exercise("categorical", 12, seed=seed, student="alice")
    key = ex.answers()
    wrong = min(key["gains"], key=key["gains"].get)
    answers = copy.deepcopy(key)
    answers["root_feature"] = wrong
    answers["tree"] = {"feature": wrong, "branches": {}}
    for value in sorted(ex.X[wrong].unique()):
        answers["tree"]["branches"][value] = grown(ex, ex.X[wrong] == value)
    marks = grade(ex, answers)
    tree = [c for c in marks.checks if c.task == "tree"]
    assert tree and all(c.right and c.carried for c in tree), [c.why for c in tree if not c.right]
    assert marks.task_scores == {"entropy": 1.0, "gains": 1.0, "root": 0.0, "tree": 1.0}
    assert marks.score == pytest.approx(3 / 4)  # (it was 0.5 with the tree marked wrong)
    assert "error carried forward" in marks.feedback
    assert any(f"below your split of S on {wrong}" in n for n in marks.notes)


def test_a_wrong_split_deeper_down_loses_that_split_only():
    ex = make_exercise("categorical", 12, seed=3, student="alice")
    answers = copy.deepcopy(ex.answers())
    root = answers["tree"]["feature"]
    value, child = next((k, v) for k, v in answers["tree"]["branches"].items() if "feature" in v)
    rows = ex.X[root] == value
    other = next(
        f for f in ex.X if f not in (root, child["feature"]) and ex.X.loc[rows, f].nunique() > 1
    )
    mine = {"entropy": child["entropy"], "feature": other, "branches": {}}
    for v in sorted(ex.X.loc[rows, other].unique()):
        mine["branches"][v] = grown(ex, rows & (ex.X[other] == v))
    answers["tree"]["branches"][value] = mine
    marks = grade(ex, answers)
    assert [c.step for c in marks.wrong] == [f"split of S_{{{root}={value}}}"]
    assert marks.wrong[0].mistake in mistakes.MISTAKES
    credited = [c for c in marks.checks if c.carried]
    assert credited and all(c.right for c in credited)
    n_tree = sum(c.task == "tree" for c in marks.checks)
    assert marks.score == pytest.approx(1 - (1 / n_tree) / 4)


def test_a_wrong_threshold_is_carried_forward():
    ex = make_exercise("numeric", 12, seed=2, student="bob")
    key = ex.answers()
    feature = key["tree"]["feature"]
    cuts = sorted(float(t) for t in key["thresholds"][feature])
    other = next(t for t in cuts if abs(t - key["tree"]["threshold"]) > 1e-9)
    answers = copy.deepcopy(key)
    low, high = ex.X[feature] <= other, ex.X[feature] > other
    answers["tree"] = {
        "feature": feature, "threshold": other,
        "branches": {"<=": grown(ex, low), ">": grown(ex, high)},
    }  # fmt: skip
    marks = grade(ex, answers)
    assert [c.step for c in marks.wrong] == ["threshold of S"]
    assert all(c.right for c in marks.checks if c.carried) and any(c.carried for c in marks.checks)


# ---------------------------------------------------------------------------------------------
# the classic mistakes, named
# ---------------------------------------------------------------------------------------------
def test_a_split_on_a_feature_that_cannot_split_there_is_marked_wrong_not_a_crash():
    """Below Temperature=Mild, both rows have Distance 4: a student who splits them on
    Distance <= 6 loses that split, told why, and the rest of the class is still graded."""
    exercise = make_exercise("mixed", 8, seed=27)
    answers = exercise.answers()
    mild = answers["tree"]["branches"]["Mild"]
    assert mild["feature"] == "Day"  # ID3's split there (the test's premise)
    rows = exercise.data[exercise.data["Temperature"] == "Mild"]
    assert rows["Distance"].nunique() == 1
    answers["tree"]["branches"]["Mild"] = {
        "entropy": mild["entropy"], "feature": "Distance", "threshold": 6,
        "branches": {"<=": {"predict": "yes"}, ">": {"predict": "no"}},
    }  # fmt: skip
    result = grade(exercise, answers)
    split = [check for check in result.checks if check.step == "split of S_{Temperature=Mild}"]
    assert len(split) == 1 and not split[0].right
    assert "no midpoint to cut at" in split[0].why
    assert 0 < result.score < 1


def test_the_classic_mistakes_are_named(tennis):
    counts = tennis.y.value_counts().sort_index().to_numpy()  # No 5, Yes 9
    key = tennis.answers()
    table = pd.crosstab(tennis.X["Outlook"], tennis.y).to_numpy()
    sizes = table.sum(axis=1)
    branch = [bits(row) for row in table]
    answers = copy.deepcopy(key)
    answers["root_entropy"] = float(scipy_entropy(counts))  # nats: ln
    answers["gains"]["Outlook"] = bits(counts) - np.mean(branch)  # unweighted
    humidity = pd.crosstab(tennis.X["Humidity"], tennis.y).to_numpy()
    answers["gains"]["Humidity"] = sum(r.sum() / 14 * bits(r) for r in humidity)  # H(S|A)
    temperature = pd.crosstab(tennis.X["Temperature"], tennis.y).to_numpy()
    gain = bits(counts) - sum(r.sum() / 14 * bits(r) for r in temperature)
    answers["gains"]["Temperature"] = gain / bits(temperature.sum(axis=1))  # gain ratio
    answers["root_feature"] = "Temperature"  # the lowest gain of the four
    marks = grade(tennis, answers)
    found = {c.step: c.mistake for c in marks.wrong}
    assert found == {
        "H(S)": mistakes.LN, "Gain(S, Outlook)": mistakes.UNWEIGHTED,
        "Gain(S, Humidity)": mistakes.NOT_SUBTRACTED, "Gain(S, Temperature)": mistakes.GAIN_RATIO,
        "feature at the root": mistakes.LOWEST_GAIN,
    }  # fmt: skip
    assert "natural log" in marks.feedback and "log2" in marks.feedback
    assert marks.mistakes[0] == mistakes.LN
    assert sizes.sum() == 14


def test_rounding_too_early_and_a_threshold_off_its_midpoint():
    ex = make_exercise("numeric", 12, seed=2, student="bob")
    key = ex.answers()
    answers = copy.deepcopy(key)
    answers["root_entropy"] = key["root_entropy"] + 0.004  # beyond 0.001, within 0.01
    feature = key["tree"]["feature"]
    table = ex.tree._teaching().table(0, feature)
    answers["best_thresholds"][feature] = table.low  # a value of the data, not the midpoint
    marks = grade(ex, answers)
    found = {c.step: c.mistake for c in marks.wrong}
    assert found == {"H(S)": mistakes.ROUNDING, f"best threshold of {feature}": mistakes.MIDPOINT}
    why = next(c.why for c in marks.wrong if c.mistake == mistakes.MIDPOINT)
    assert f"({table.low:g} + {table.high:g}) / 2" in why


def test_a_right_number_names_no_mistake_and_a_wild_one_none(tennis):
    slips = mistakes.entropy_slips((9, 5))
    assert mistakes.diagnose(bits([9, 5]), bits([9, 5]), slips, 0.001) is None
    assert mistakes.diagnose(0.1, bits([9, 5]), slips, 0.001) is None


# ---------------------------------------------------------------------------------------------
# ties, stated in the question and honoured
# ---------------------------------------------------------------------------------------------
def tie_frame() -> pd.DataFrame:
    """A wins the root; below A = a1, B and C split the rows alike (a tie); below A = a2 the
    rows tie 1 to 1 and nothing can split them."""
    return pd.DataFrame({
        "A": ["a1"] * 4 + ["a2"] * 2 + ["a3"] * 4,
        "B": ["x", "x", "z", "z", "x", "x", "x", "z", "x", "z"],
        "C": ["p", "p", "q", "q", "p", "p", "q", "p", "q", "p"],
        "y": ["no", "no", "yes", "yes", "yes", "no", "yes", "yes", "yes", "yes"],
    })  # fmt: skip


def test_either_of_two_tied_features_is_right():
    ex = exercise_of(tie_frame(), "y")
    key = ex.answers()
    below = key["tree"]["branches"]["a1"]
    assert key["root_feature"] == "A" and below["feature"] == "B"
    rows = ex.X["A"] == "a1"
    assert bits(pd.crosstab(ex.X.loc[rows, "B"], ex.y[rows]).sum()) == pytest.approx(1.0)
    answers = copy.deepcopy(key)
    answers["tree"]["branches"]["a1"] = {
        "entropy": 1.0, "feature": "C",
        "branches": {"p": {"entropy": 0, "predict": "no"}, "q": {"entropy": 0, "predict": "yes"}},
    }  # fmt: skip
    marks = grade(ex, answers)
    assert marks.score == 1.0, marks.feedback
    assert not any(c.carried for c in marks.checks)
    # at the root as well: two features that split four rows alike
    twins = exercise_of(
        pd.DataFrame({"A": list("aabb"), "B": list("xxzz"), "y": ["no", "no", "yes", "yes"]}), "y"
    )
    answers = copy.deepcopy(twins.answers()) | {"root_feature": "B"}
    answers["tree"] = {"feature": "B", "branches": {"x": {"entropy": 0, "predict": "no"},
                                                    "z": {"entropy": 0, "predict": "yes"}}}  # fmt: skip
    assert twins.answers()["root_feature"] == "A" and grade(twins, answers).score == 1.0


def test_a_tied_leaf_follows_the_rule_the_question_states():
    ex = exercise_of(tie_frame(), "y")
    answers = copy.deepcopy(ex.answers())
    leaf = answers["tree"]["branches"]["a2"]
    assert leaf["predict"] == "no" and leaf["entropy"] == pytest.approx(1.0)
    leaf["predict"] = "yes"
    marks = grade(ex, answers)
    assert [c.mistake for c in marks.wrong] == [mistakes.TIE]
    assert "tie" in marks.feedback and "no" in marks.feedback
    question = make_exercise("categorical", 12, seed=1).question
    assert "if the classes tie, no" in question and "either is right" in question


# ---------------------------------------------------------------------------------------------
# weights, tolerance, and answers that do not fit the data
# ---------------------------------------------------------------------------------------------
def test_weights_and_tolerance(tennis):
    answers = copy.deepcopy(tennis.answers())
    answers["root_entropy"] = 0.945  # 0.0047 away from 0.9403
    answers["root_feature"] = "Wind"
    plain = grade(tennis, answers)
    assert plain.task_scores["entropy"] == 0.0 and plain.task_scores["root"] == 0.0
    weights = {"tree": 3, "gains": 2}
    weighted = grade(tennis, answers, weights=weights)
    shares = weighted.task_scores
    w = {"entropy": 1, "gains": 2, "root": 1, "tree": 3}
    assert weighted.score == pytest.approx(sum(w[t] * shares[t] for t in shares) / sum(w.values()))
    assert grade(tennis, answers, tolerance=0.01).task_scores["entropy"] == 1.0
    with pytest.raises(ValueError, match="'tre' is not a task"):
        grade(tennis, answers, weights={"tre": 1})
    with pytest.raises(ValueError, match="at least one task"):
        grade(
            tennis,
            answers,
            weights=dict.fromkeys(["entropy", "thresholds", "gains", "root", "tree"], 0),
        )
    for bad in (0, -1, 0.5, float("nan"), "x", True):
        with pytest.raises(ValueError, match="tolerance"):
            grade(tennis, answers, tolerance=bad)


def test_answers_to_another_students_data_do_not_fit(tennis):
    alice = make_exercise("mixed", 12, seed=1, student="alice")
    bob = make_exercise("mixed", 12, seed=1, student="bob")
    assert set(alice.X) != set(bob.X)
    marks = grade(alice, bob.answers())
    assert marks.mismatches and any("does not have" in m for m in marks.mismatches)
    assert not grade(alice, alice.answers()).mismatches
    # the build page's optional keys: who handed in, and a node's class counts
    answers = copy.deepcopy(tennis.answers())
    answers |= {"student": "Alice", "student_id": "1001"}
    answers["tree"]["branches"]["Overcast"]["counts"] = {"Yes": 4}
    right = grade(tennis, answers)
    assert right.score == 1.0 and not right.notes and not right.mismatches
    answers["tree"]["branches"]["Overcast"]["counts"] = {"Yes": 5}
    assert any("in this data it holds 4 rows" in m for m in grade(tennis, answers).mismatches)


def test_every_answer_of_the_key_is_marked_right_on_many_exercises():
    for kind in ("categorical", "numeric", "mixed"):
        for seed in range(6):
            ex = make_exercise(kind, 10 + seed, seed, student=f"s{seed}")
            marks = grade(ex, ex.answers())
            assert marks.score == 1.0 and not marks.notes and not marks.mismatches, marks
            assert not any(c.carried for c in marks.checks)


def test_the_natural_log_of_every_number_is_named(tennis):
    ex = make_exercise("mixed", 12, seed=4, student="carol")
    answers = copy.deepcopy(ex.answers())
    answers["root_entropy"] *= math.log(2)
    for feature in answers["gains"]:
        answers["gains"][feature] *= math.log(2)
    marks = grade(ex, answers)
    wrong = [c for c in marks.wrong if c.task in ("entropy", "gains")]
    assert wrong and all(c.mistake == mistakes.LN for c in wrong if c.expected > 0.01)
