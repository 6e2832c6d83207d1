"""Grade a student's answers to an exercise: a score with partial credit, and feedback that
names the first wrong step, why, and the classic mistake behind it.

The answers are plain data laid out as :meth:`id3tree.classroom.exercises.Exercise.answers` lays
out the correct ones (a JSON object, or a CSV file of ``question,answer`` rows, see
:func:`read_answers`)::

    {"root_entropy": 1.0,
     "thresholds": {"Hours": {"2.5": 0.95, "4.5": 0.75}},  # numeric exercises only
     "best_thresholds": {"Hours": 4.5},                     # numeric exercises only
     "gains": {"Weather": 0.21, "Hours": 0.25},
     "root_feature": "Hours",
     "tree": {"threshold": 4.5,
              "branches": {"<=": {"entropy": 0.97, "feature": "Weather", "branches": {...}},
                           ">": {"entropy": 0, "predict": "yes"}}}}

Optional keys, never marked: ``student`` and ``student_id`` at the top (who handed the answers
in: :meth:`id3tree.classroom.Class.grade` matches a file to its student by them when its name
does not), and ``counts`` in a node of the tree (its class counts, ``{"no": 2, "yes": 3}``: when
they are not those of the student's data, the grade says so).

How it scores:

* The question's tasks (:data:`TASKS`): the entropy of S; the candidate thresholds with their
  overall entropies and the best one (numeric exercises); the gains at the root; the feature at
  the root; the tree. Within a task every answer counts the same; the score is the mean of the
  tasks' shares of right answers, each task weighed by ``weights`` (all 1 by default), from 0
  to 1.
* A number is right within ``tolerance`` (:data:`TOLERANCE`, 0.001 bits) of the exact value:
  answers rounded to three decimals or more pass. A number may be written ``0.971``,
  ``"0.971"``, ``"0,971"`` or ``"5/14"``. A wrong number is checked against the classic
  mistakes (:mod:`id3tree.classroom.mistakes`: the natural log, an unweighted average, ``H(S |
  A)`` as the gain, the gain ratio, rounding too early), and the feedback names the one it is.
* Names (features, values, classes) are compared without regard to case or surrounding spaces;
  the branches of a number are ``"<="`` and ``">"`` (``"≤"``, ``"<= 4.5"`` are read the same).
* In the tree, the root's entropy and feature are those of the first and fourth tasks and are
  not counted twice. Error carried forward: below a split that is wrong (another feature or
  threshold), the student's branches hold other rows, and each answer there is marked against
  what ID3 does with those rows; the right ones get credit, and the feedback says so. Where two
  features (or thresholds) tie for the best, either is right. The rules the key follows are
  stated in the question (a leaf whose classes tie predicts the first class).
* A missing answer is wrong; an answer of the wrong type is wrong and the feedback says what
  was expected; a key that is not asked for is ignored and listed in :attr:`Grade.notes`.
  Answers that name features or thresholds this student's data does not have are listed in
  ``Grade.mismatches`` (answers to another student's data, or to other settings). Nothing a
  student writes raises an error.

The feedback is written in a language (``language="es"``, ``"de"``; English by default): its
sentences come from the message catalogs, its numbers take the language's decimal mark, and
every equation in it holds by pencil as the English one does. The language changes the words,
never the marks: the same answers get the same checks and the same score in every language.
The answers' keys, :attr:`Check.task`, :attr:`Check.mistake` (one of
:data:`~id3tree.classroom.mistakes.MISTAKES`) and :attr:`Check.kind` stay English.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from html import escape
from numbers import Real

import numpy as np

from id3tree.base import pencil
from id3tree.base.entropy import entropy_rows
from id3tree.base.language import N_, current, speaking
from id3tree.base.language import language as shipped_language
from id3tree.base.words import format_number
from id3tree.classroom import mistakes
from id3tree.classroom.reading import (
    NotAnswer,
    answers_to_rows,
    read_answers,
    rows_to_answers,
    same,
)
from id3tree.classroom.reading import name as _name
from id3tree.classroom.reading import number as _number
from id3tree.classroom.text import shown
from id3tree.classroom.tree_marking import GAIN_TIE, mark_tree
from id3tree.classroom.wording import (
    UNKNOWN,
    fixed,
    kind_of,
    not_a_mapping,
    not_given,
    nothing,
    split_words,
    step_in_language,
    written,
)
from id3tree.teaching.record import excluded_words
from id3tree.teaching.steps import counts_text
from id3tree.teaching.worked import entropy_formula, weighted_formula

__all__ = [
    "answers_to_rows", "Check", "Grade", "grade", "grade_file", "read_answers", "rows_to_answers",
    "TASKS", "THRESHOLD_TOLERANCE", "TOLERANCE",
]  # fmt: skip

TOLERANCE = 0.001
"""How far (in bits) a student's entropy, overall entropy or gain may be from the exact value
by default (``tolerance=``)."""

THRESHOLD_TOLERANCE = 1e-6
"""How far a student's threshold may be from the midpoint (a written number, not a rounding)."""

TASKS = {
    "entropy": N_("the entropy of S"), "thresholds": N_("the candidate thresholds"),
    "gains": N_("the gains at the root"), "root": N_("the feature at the root"),
    "tree": N_("the tree"),
}  # fmt: skip
"""The tasks of an exercise, each marked apart: name -> what the student works out (in
English; ``current().gettext`` writes it in the language around it)."""

IDENTITY_KEYS = ("student", "student_id")
_KEYS = ("root_entropy", "thresholds", "best_thresholds", "gains", "root_feature", "tree")


@dataclass(frozen=True)
class Check:
    """One answer, marked: ``step`` names it, ``why`` says what is wrong ("" when right), both
    in the grade's language; ``mistake`` names the classic mistake it is (one of
    :data:`mistakes.MISTAKES`, or ""), ``carried`` is True below a wrong split (marked against
    the student's own split), and ``kind`` is the kind of step it is, the same for every
    student and every language (one of the kinds of
    :data:`~id3tree.classroom.wording.KINDS`, in English)."""

    task: str
    step: str
    right: bool
    expected: object
    given: object
    why: str = ""
    mistake: str = ""
    carried: bool = False
    kind: str = ""


def task_weights(weights=None) -> dict[str, float]:
    """Every task's weight: ``weights`` maps some of :data:`TASKS` to non-negative numbers (the
    others weigh 1), or is text such as ``"tree=2,gains=1"``. A clear error otherwise."""
    if weights is None:
        return dict.fromkeys(TASKS, 1.0)
    if isinstance(weights, str):
        pairs = [p.partition("=") for p in weights.split(",") if p.strip()]
        if any(not sep for _, sep, _ in pairs):
            raise ValueError(f"weights should read task=number,..., got {weights!r}")
        weights = {k.strip(): v.strip() for k, _, v in pairs}
    if not isinstance(weights, Mapping):
        raise ValueError(f"weights should map tasks to numbers, got {type(weights).__name__}")
    out = dict.fromkeys(TASKS, 1.0)
    for task, value in weights.items():
        if task not in TASKS:
            raise ValueError(f"weights: {task!r} is not a task (the tasks are {', '.join(TASKS)})")
        try:
            out[task] = _number(value)
        except NotAnswer:
            raise ValueError(f"weights: {task} should be a number, got {value!r}") from None
        if out[task] < 0:
            raise ValueError(f"weights: {task} should be 0 or more, got {value!r}")
    if not any(out.values()):
        raise ValueError("weights: at least one task must weigh more than 0")
    return out


def check_tolerance(tolerance) -> float:
    """``tolerance`` as a float above 0 and at most 0.1 bits; a clear error otherwise."""
    if isinstance(tolerance, bool) or not isinstance(tolerance, (Real, str)):
        raise ValueError(f"tolerance should be a number of bits, got {tolerance!r}")
    try:
        value = _number(tolerance)
    except NotAnswer:
        raise ValueError(f"tolerance should be a number of bits, got {tolerance!r}") from None
    if not 0 < value <= 0.1:
        raise ValueError(f"tolerance should be above 0 and at most 0.1 bits, got {tolerance!r}")
    return value


@dataclass
class Grade:
    """The marks of one submission: ``score`` in [0, 1] and ``feedback`` (the first wrong step
    and why). ``checks`` lists every answer marked, ``notes`` what was ignored or credited,
    ``mismatches`` what the answers name that the student's data does not have, ``weights``
    each task's weight, ``language`` the language its words are written in.

    Prints as text; Jupyter shows it as a table.
    """

    checks: list[Check] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    problem: str | None = None  # why the answers could not be read at all
    weights: dict | None = None
    mismatches: list[str] = field(default_factory=list)
    language: str = "en"

    @property
    def task_scores(self) -> dict[str, float]:
        """Each task marked (those of the exercise) -> its share of right answers, 0 to 1."""
        out = {}
        for task in TASKS:
            mine = [c.right for c in self.checks if c.task == task]
            if mine and self.problem is None:
                out[task] = sum(mine) / len(mine)
        return out

    @property
    def score(self) -> float:
        weights = task_weights(self.weights)
        shares = self.task_scores
        total = sum(weights[t] for t in shares)
        return sum(weights[t] * s for t, s in shares.items()) / total if total else 0.0

    @property
    def right(self) -> int:
        return sum(c.right for c in self.checks)

    @property
    def total(self) -> int:
        return len(self.checks)

    @property
    def wrong(self) -> list[Check]:
        return [c for c in self.checks if not c.right]

    @property
    def first_wrong(self) -> Check | None:
        """The first wrong answer, in the question's order (None when all are right)."""
        return next((c for c in self.checks if not c.right), None)

    @property
    def mistakes(self) -> list[str]:
        """The classic mistakes found, each once, in the order they first appear."""
        return list(dict.fromkeys(c.mistake for c in self.checks if c.mistake))

    @property
    def feedback(self) -> str:
        """The first wrong step and why (with the count of the others), or that all is right."""
        if self.problem is not None:
            return self.problem
        with speaking(self.language) as L:
            credited = sum(c.right and c.carried for c in self.checks)
            carried = ""
            if credited == 1:
                carried = " " + L.gettext(
                    "1 answer below a wrong split is right for that split and credited (error "
                    "carried forward)."
                )
            elif credited:
                carried = " " + L.line(
                    "{n} answers below a wrong split are right for that split and credited "
                    "(error carried forward).",
                    n=str(credited),
                )
            wrong = self.wrong
            if not wrong:
                return L.line("All {n} answers are right.", n=str(self.total))
            more, text = len(wrong) - 1, _capital(wrong[0].why)
            if more == 1:
                text += " " + L.gettext("(and 1 more wrong answer)")
            elif more:
                text += " " + L.line("(and {n} more wrong answers)", n=str(more))
            return text + carried

    def to_dict(self) -> dict:
        """``score``, ``right``, ``total`` and ``feedback``: one row of a class's table."""
        return {
            "score": round(self.score, 4), "right": self.right, "total": self.total,
            "feedback": self.feedback,
        }  # fmt: skip

    def _score_line(self) -> str:
        L = current()
        return L.line(
            "score {score} ({right} of {total} answers right)",
            score=L.number(f"{self.score:.2f}"), right=str(self.right), total=str(self.total),
        )  # fmt: skip

    def __str__(self) -> str:
        with speaking(self.language) as L:
            lines = [self._score_line()]
            if self.problem is not None:
                return "\n".join([*lines, self.problem])
            lines += [
                f"- {c.why}" if c.why.startswith(c.step) else f"- {c.step}: {c.why}"
                for c in self.wrong
            ]
            lines += [L.line("note: {note}", note=n) for n in self.notes]
            lines += [L.line("does not fit the data: {what}", what=m) for m in self.mismatches]
            return "\n".join(lines)

    def __repr__(self) -> str:
        return f"Grade(score={self.score:.4f}, right={self.right}, total={self.total})"

    def _repr_html_(self) -> str:
        with speaking(self.language) as L:
            return self._html(L)

    def _html(self, L) -> str:
        score = L.line("Score {score}", score=L.number(f"{self.score:.2f}"))
        rest = L.line(
            "({right} of {total} answers right).", right=str(self.right), total=str(self.total)
        )
        head = f"<p><strong>{escape(score)}</strong> {escape(rest)} {escape(self.feedback)}</p>"
        if self.problem is not None or not self.checks:
            return head
        marks = {True: escape(L.gettext("right")), False: escape(L.gettext("wrong"))}
        rows = "".join(
            f"<tr><td>{escape(L.gettext(TASKS[c.task]))}</td><td>{escape(c.step)}</td>"
            f"<td>{marks[c.right]}</td><td>{escape(c.why)}</td></tr>"
            for c in self.checks
        )
        notes = "".join(f"<li>{escape(n)}</li>" for n in [*self.notes, *self.mismatches])
        titles = [L.gettext(t) for t in (N_("task"), N_("answer"), N_("mark"), N_("why"))]
        return (
            f"{head}<table><thead><tr>{''.join(f'<th>{escape(t)}</th>' for t in titles)}"
            f"</tr></thead><tbody>{rows}</tbody></table>"
            + (f"<p>{escape(L.gettext('Notes:'))}</p><ul>{notes}</ul>" if notes else "")
        )


def _capital(sentence: str) -> str:
    return sentence[:1].upper() + sentence[1:]


def _mapping(value, what: str) -> Mapping:
    if not isinstance(value, Mapping):
        raise NotAnswer(not_a_mapping(what, value))
    return value


def _lookup(mapping, key):
    return next((v for k, v in mapping.items() if same(k, key)), None)


# ---------------------------------------------------------------------------------------------
# marking
# ---------------------------------------------------------------------------------------------
class Marker:
    """Marks one submission against one exercise, answer by answer, in the question's order."""

    threshold_tolerance = THRESHOLD_TOLERANCE

    def __init__(self, exercise, tolerance: float = TOLERANCE):
        self.exercise = exercise
        self.key = exercise.answers()
        self.record = exercise._record()
        self.X, self.y = exercise.X, exercise.y.to_numpy()
        self.root = self.record.infos[0]
        self.numeric = list(exercise.numeric)
        self.tolerance = tolerance
        self.checks: list[Check] = []
        self.notes: list[str] = []
        self.mismatches: list[str] = []  # counts in the tree that are not the data's
        self.carrying = False  # marking below a wrong split (error carried forward)

    def add(self, task, step, expected, given, why_wrong: str | None, mistake: str = "") -> Check:
        """Keep one marked answer; ``step`` in English (one of
        :data:`~id3tree.classroom.wording.STEPS`), written in the
        language around it."""
        right = why_wrong is None
        check = Check(
            task, step_in_language(step), right, expected, given, why_wrong or "",
            "" if right else mistake, self.carrying, kind_of(task, step, TASKS),
        )  # fmt: skip
        self.checks.append(check)
        return check

    def number(self, task, step, expected: float, given, why, problem=None, slips=()) -> bool:
        """Mark a number; ``why(given)`` words a wrong one (``why(None)`` a missing one, after
        ``problem`` if the place it should be in was wrong), and a classic mistake among
        ``slips`` is named. True if right."""
        try:
            value = _number(given)
        except NotAnswer as bad:
            lead = problem or nothing(given, bad)
            shown_step = step_in_language(step)
            self.add(task, step, expected, given, f"{shown_step}: {lead}. " + _capital(why(None)))
            return False
        right = abs(value - expected) <= self.tolerance
        if right:
            self.add(task, step, expected, given, None)
            return True
        found = mistakes.diagnose(value, expected, slips, self.tolerance)
        why_wrong = why(given) + (f" {_capital(found[1])}." if found else "")
        self.add(task, step, expected, given, why_wrong, found[0] if found else "")
        return False

    def rows(self, counts) -> str:
        n = sum(counts)
        word = current().words([n], "row", "rows")[0]
        return f"{n} {word} ({counts_text(self.record.classes, counts)})"

    # the tasks -----------------------------------------------------------------------------
    def entropy(self, given) -> None:
        counts = tuple(self.root.node.class_counts.values())
        self.node_entropy("S", counts, given, "entropy")

    def node_entropy(self, name: str, counts: tuple, given, task: str = "tree") -> None:
        value = float(entropy_rows(np.asarray([counts], dtype=np.int64))[0])
        self.number(
            task, f"H({name})", value, given,
            lambda g: current().line(
                "the entropy of {name} is {value}{not}: {name} holds {rows}, so H({name}) = "
                "{formula}.",
                name=name, value=fixed(value), rows=self.rows(counts),
                formula=entropy_formula(counts), **{"not": not_given(g)},
            ),
            slips=mistakes.entropy_slips(counts),
        )  # fmt: skip

    def thresholds(self, given, best) -> None:
        for feature in self.numeric:
            table = self.record.table(0, feature)
            mine = self._cut_answers(given, feature)
            for cut in table.thresholds:
                text = format_number(cut.threshold)
                value = next((v for t, v in mine.items() if abs(t - cut.threshold) <= 1e-6), None)
                step = f"overall entropy of {feature} <= {text}"
                slips = mistakes.split_slips([cut.left, cut.right])
                self.number(
                    "thresholds", step, cut.overall_entropy, value, self._cut_why(table, cut),
                    slips=slips,
                )  # fmt: skip
            listed = {format_number(c.threshold) for c in table.thresholds}
            for t in mine:
                if format_number(t) not in listed:
                    L = current()
                    self.notes.append(L.line(
                        "{threshold} is not a candidate threshold of {feature}: the candidates "
                        "are the midpoints {midpoints}",
                        threshold=written(t), feature=feature,
                        midpoints=L.join(L.numbers(sorted(listed, key=float))),
                    ))  # fmt: skip
            self._best(table, best)

    def gains(self, given) -> None:
        try:
            given, problem = _mapping(given, "gains"), None
        except NotAnswer as bad:
            given, problem = {}, None if given is None else str(bad)
        for feature, expected in self.key["gains"].items():
            table = self.record.table(0, feature)
            parts = [b.counts for b in table.branches]
            self.number(
                "gains", f"Gain(S, {feature})", expected, _lookup(given, feature),
                self._gain_why(table), problem, mistakes.gain_slips(table.parent, parts),
            )  # fmt: skip
        self.unknown(given, self.key["gains"], "gains", "feature")

    def root_feature(self, given) -> None:
        expected = self.key["root_feature"]
        try:
            feature = _name(given)
        except NotAnswer as bad:
            wrong = f"root_feature: {nothing(given, bad)}"
            self.add("root", "feature at the root", expected, given, f"{wrong}. " + self._why())
            return
        if same(feature, expected) or self._tied_with_best(feature):
            self.add("root", "feature at the root", expected, given, None)
            return
        why, mistake = self.split_why(self.record, self.root, "S", feature)
        self.add("root", "feature at the root", expected, given, why, mistake)

    def _tied_with_best(self, feature: str) -> bool:
        """Whether ``feature`` ties for the highest gain at the root (either is right)."""
        best = self.key["gains"][self.key["root_feature"]]
        mine = [g for name, g in self.key["gains"].items() if same(name, feature)]
        return any(abs(g - best) <= GAIN_TIE for g in mine)

    def _why(self) -> str:
        return self.split_why(self.record, self.root, "S", None)[0]

    # helpers -------------------------------------------------------------------------------
    def _cut_answers(self, given, feature) -> dict[float, object]:
        """The student's ``threshold -> overall entropy`` of one feature, read leniently (a
        mapping, or a list of pairs)."""
        if not isinstance(given, Mapping):
            return {}
        mine = _lookup(given, feature)
        pairs = (
            mine.items() if isinstance(mine, Mapping) else mine if isinstance(mine, list) else []
        )
        out = {}
        for pair in pairs:
            try:
                t, v = (
                    (pair["threshold"], pair["overall_entropy"])
                    if isinstance(pair, Mapping)
                    else pair
                )
                out[_number(t)] = v
            except (NotAnswer, KeyError, TypeError, ValueError):
                self.notes.append(current().line(
                    "thresholds/{feature}: could not read {pair} as a threshold",
                    feature=feature, pair=shown(pair),
                ))  # fmt: skip
        return out

    def _cut_why(self, table, cut):
        parts = [(sum(cut.left), table.n, cut.left), (sum(cut.right), table.n, cut.right)]
        parts += [(b.n, table.n, b.counts) for b in table.branches if b.label == "missing"]
        one = sum(cut.left) == 1  # "1 row goes", "2 rows go"

        def why(g) -> str:
            message = (
                N_(
                    "the overall entropy of {feature} <= {threshold} is {value}{not}: {left} goes "
                    "to {feature} <= {threshold} and {right} to {feature} > {threshold}, so "
                    "{formula}."
                )
                if one
                else N_(
                    "the overall entropy of {feature} <= {threshold} is {value}{not}: {left} go "
                    "to {feature} <= {threshold} and {right} to {feature} > {threshold}, so "
                    "{formula}."
                )
            )
            return current().line(
                message, feature=table.feature, threshold=written(cut.threshold),
                value=fixed(cut.overall_entropy), left=self.rows(cut.left),
                right=self.rows(cut.right), formula=weighted_formula(parts, cut.overall_entropy),
                **{"not": not_given(g)},
            )  # fmt: skip

        return why

    def _best(self, table, best) -> None:
        expected = table.threshold
        given = _lookup(best, table.feature) if isinstance(best, Mapping) else None
        step = f"best threshold of {table.feature}"
        explain = current().line(
            "the best threshold of {feature} is {threshold}, between {low} and {high}: its "
            "overall entropy {value} is the lowest",
            feature=table.feature, threshold=written(expected), low=written(table.low),
            high=written(table.high), value=fixed(table.overall_entropy),
        )  # fmt: skip
        try:
            value = _number(given)
        except NotAnswer as bad:
            lead = nothing(given, bad)
            self.add("thresholds", step, expected, given, f"best_thresholds/{table.feature}: "
                     f"{lead}. {_capital(explain)}.")  # fmt: skip
            return
        tied = [
            c.threshold
            for c in table.thresholds
            if c.overall_entropy <= table.overall_entropy + 1e-12
        ]
        if any(abs(value - t) <= THRESHOLD_TOLERANCE for t in tied):
            self.add("thresholds", step, expected, given, None)
            return
        slip = mistakes.threshold_slip(value, table.low, table.high)
        why = f"{explain}{not_given(given)}." + (f" {_capital(slip[1])}." if slip else "")
        self.add("thresholds", step, expected, given, why, slip[0] if slip else "")

    def _gain_why(self, table):
        parts = [(b.n, table.n, b.counts) for b in table.branches]
        parent, overall, gain = (
            pencil.fixed(v) for v in (table.parent_entropy, table.overall_entropy, table.gain)
        )
        sign = pencil.difference_sign(parent, overall, gain)
        number = current().number

        def why(g) -> str:
            return current().line(
                "the gain of {feature} is {gain}{not}: Gain(S, {feature}) = H(S) - H(S | "
                "{feature}) = {parent} - {overall} {sign} {gain}, where H(S | {feature}) = "
                "{formula}.",
                feature=table.feature, gain=number(gain), parent=number(parent),
                overall=number(overall), sign=sign,
                formula=weighted_formula(parts, table.overall_entropy), **{"not": not_given(g)},
            )  # fmt: skip

        return why

    def split_why(self, record, info, name: str, given_feature: str | None) -> tuple[str, str]:
        """Why the node ``info`` of ``record`` (the rows ``name``) splits on its feature, and not
        on ``given_feature``; with the classic mistake that choice is."""
        chosen = record.table(info.node_id, info.node.feature)
        L = current()
        out = L.line(
            "{name} splits on {test}, the feature of highest gain there ({gain})",
            name=name, test=split_words(chosen), gain=fixed(chosen.gain),
        )  # fmt: skip
        if given_feature is None:
            return out + ".", ""
        feature = next((f for f in record.names if same(f, given_feature)), None)
        if feature is None:
            return L.line(
                "{split}, not {given}, which is not a feature (the features are {features}).",
                split=out, given=shown(given_feature), features=", ".join(record.names),
            ), mistakes.WRONG_FEATURE  # fmt: skip
        theirs = record.table(info.node_id, feature)
        other = L.line(", not {given}", given=feature)  # (a feature of the data: as it is named)
        if not theirs.valid:
            return f"{out}{other}: {excluded_words(theirs)}.", mistakes.WRONG_FEATURE
        mistake, sentence = mistakes.feature_slip(record.tables(info.node_id), feature)
        extra = f" {_capital(sentence)}." if sentence else ""
        gain = L.line("(gain {gain})", gain=fixed(theirs.gain))
        return f"{out}{other} {gain}.{extra}", mistake

    def unknown(self, given: Mapping, known, where: str, what: str) -> None:
        """Note each key of ``given`` not among ``known`` (``what`` a key is: a key of
        :data:`UNKNOWN`)."""
        for k in given:
            if not any(same(k, name) for name in known):
                self.notes.append(current().line(UNKNOWN[what], where=where, key=shown(k)))


def mismatches(exercise, answers: Mapping, X=None) -> list[str]:
    """What ``answers`` name that the exercise's data does not have: features, and thresholds
    outside a numeric feature's values (signs of answers to another student's data, or to an
    exercise made with other settings)."""
    X = exercise.X if X is None else X
    features = [str(c) for c in X.columns]
    named = []
    for key in ("gains", "thresholds", "best_thresholds"):
        if isinstance(answers.get(key), Mapping):
            named += list(answers[key])
    named.append(answers.get("root_feature"))
    stack = [(answers.get("tree"), 0)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, Mapping) and depth < 64:
            named.append(node.get("feature"))
            branches = node.get("branches")
            if isinstance(branches, Mapping):
                stack.extend((child, depth + 1) for child in branches.values())
    out, L = [], current()
    foreign = [n for n in named if isinstance(n, str) and not any(same(n, f) for f in features)]
    for n in dict.fromkeys(foreign):
        out.append(L.line(
            "names the feature {feature}, which this data does not have ({features})",
            feature=shown(n), features=", ".join(features),
        ))  # fmt: skip
    cuts = answers.get("thresholds")
    for feature in exercise.numeric if isinstance(cuts, Mapping) else []:
        mine = _lookup(cuts, feature)
        low, high = X[feature].min(), X[feature].max()
        outside = []
        for t in mine if isinstance(mine, Mapping) else []:
            try:
                value = _number(t)
            except NotAnswer:
                continue
            if not low < value < high:
                outside.append(written(value))
        if outside:
            out.append(L.line(
                "lists thresholds of {feature} ({thresholds}) outside its values in this data "
                "({low} to {high})",
                feature=feature, thresholds=L.join(outside), low=written(low),
                high=written(high),
            ))  # fmt: skip
    return out


def grade(
    exercise, answers, *, weights=None, tolerance: float = TOLERANCE, language: str = "en"
) -> Grade:
    """Mark ``answers`` (laid out as :meth:`~id3tree.classroom.exercises.Exercise.answers`) against
    ``exercise``: a :class:`Grade` with ``score`` in [0, 1] and ``feedback``.

    ``weights`` maps tasks (:data:`TASKS`) to their weights (the others weigh 1); ``tolerance``
    is how far a number may be from the exact value (:data:`TOLERANCE`); ``language`` is the
    language of the feedback (``"en"``, ``"es"``, ``"de"``: the same marks in each). Never
    raises on what a student wrote: a missing key, a wrong type or an unknown key is marked or
    noted (see the module for how answers are scored).
    """
    weights, tolerance = task_weights(weights), check_tolerance(tolerance)
    code = check_language(language)
    with speaking(code) as L:
        if not isinstance(answers, Mapping):
            message = (
                N_(
                    "the answers should be a mapping of questions to answers (a JSON object with "
                    "root_entropy, gains, root_feature, tree, ...), got nothing"
                )
                if answers is None
                else N_(
                    "the answers should be a mapping of questions to answers (a JSON object "
                    "with root_entropy, gains, root_feature, tree, ...), got a {kind}"
                )
            )
            problem = L.line(message, kind=type(answers).__name__)
            return Grade(problem=problem, weights=weights, language=code)
        marker = Marker(exercise, tolerance)
        marker.entropy(answers.get("root_entropy"))
        if marker.numeric:
            marker.thresholds(answers.get("thresholds"), answers.get("best_thresholds"))
        marker.gains(answers.get("gains"))
        marker.root_feature(answers.get("root_feature"))
        mark_tree(marker, answers.get("tree"), answers)
        keys = [k for k in _KEYS if marker.numeric or "thresholds" not in k]
        marker.unknown(answers, [*keys, *IDENTITY_KEYS], "answers", "question")
        found = mismatches(exercise, answers, marker.X) + marker.mismatches
    return Grade(marker.checks, marker.notes, None, weights, found, code)


def check_language(language: object) -> str:
    """``language`` as the code of a shipped language; a ValueError naming ``language`` and
    the shipped ones otherwise."""
    if not isinstance(language, str):
        raise TypeError(f"language must be a language code such as 'es', got {language!r}")
    shipped_language(language)  # (a ValueError that names the shipped languages)
    return language


def unreadable(error: object, language: str = "en") -> str:
    """``cannot read the answers: ...``, in ``language``."""
    with speaking(language) as L:
        return L.line("cannot read the answers: {why}", why=str(error))


def grade_file(
    exercise, path, *, weights=None, tolerance: float = TOLERANCE, language: str = "en"
) -> Grade:
    """:func:`grade` of the answers in a file; a file that cannot be read scores 0 and says why."""
    weights, tolerance = task_weights(weights), check_tolerance(tolerance)
    code = check_language(language)
    try:
        answers = read_answers(path)
    except ValueError as error:
        return Grade(problem=unreadable(error, code), weights=weights, language=code)
    return grade(exercise, answers, weights=weights, tolerance=tolerance, language=code)
