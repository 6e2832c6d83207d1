"""Grade a student's answers to an exercise: a score with partial credit, and feedback that
names the first wrong step and why.

The answers are plain data laid out as :meth:`id3tree.classroom.exercises.Exercise.answers` lays out the
correct ones (a JSON object, or a CSV file of ``question,answer`` rows, see
:func:`read_answers`)::

    {"root_entropy": 1.0,
     "thresholds": {"Hours": {"2.5": 0.95, "4.5": 0.75}},  # numeric exercises only
     "best_thresholds": {"Hours": 4.5},                     # numeric exercises only
     "gains": {"Weather": 0.21, "Hours": 0.25},
     "root_feature": "Hours",
     "tree": {"threshold": 4.5,
              "branches": {"<=": {"entropy": 0.97, "feature": "Weather", "branches": {...}},
                           ">": {"entropy": 0, "predict": "yes"}}}}

How it scores:

* The question's tasks count the same: the entropy of S; the candidate thresholds with their
  overall entropies and the best one (numeric exercises); the gains at the root; the feature at
  the root; the tree. Within a task every answer counts the same. The score is the mean of the
  tasks' shares of right answers, from 0 to 1.
* A number is right within :data:`TOLERANCE` (0.001 bits) of the exact value: answers rounded to
  three decimals or more pass. A number may be written ``0.971``, ``"0.971"`` or ``"5/14"``.
* Names (features, values, classes) are compared without regard to case or surrounding spaces;
  the branches of a number are ``"<="`` and ``">"`` (``"≤"``, ``"<= 4.5"`` are read the same).
* In the tree, the root's entropy and feature are those of the first and fourth tasks and are
  not counted twice. Below a split that is wrong (another feature or threshold), the student's
  branches hold other rows: those answers count as wrong, and the feedback says why.
* A missing answer is wrong; an answer of the wrong type is wrong and the feedback says what
  was expected; a key that is not asked for is ignored and listed in :attr:`Grade.notes`.
  Nothing a student writes raises an error.
"""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from html import escape
from pathlib import Path

from id3tree.base import pencil
from id3tree.base.words import format_number
from id3tree.teaching.steps import counts_text
from id3tree.teaching.worked import entropy_formula, subset_name, weighted_formula

__all__ = [
    "answers_to_rows", "Check", "Grade", "grade", "grade_file", "read_answers", "rows_to_answers",
    "TASKS", "THRESHOLD_TOLERANCE", "TOLERANCE",
]  # fmt: skip

TOLERANCE = 0.001
"""How far (in bits) a student's entropy, overall entropy or gain may be from the exact value."""

THRESHOLD_TOLERANCE = 1e-6
"""How far a student's threshold may be from the midpoint (a written number, not a rounding)."""

TASKS = {
    "entropy": "the entropy of S", "thresholds": "the candidate thresholds",
    "gains": "the gains at the root", "root": "the feature at the root", "tree": "the tree",
}  # fmt: skip
"""The tasks of an exercise, each marked apart: name -> what the student works out."""

_KEYS = ("root_entropy", "thresholds", "best_thresholds", "gains", "root_feature", "tree")
_NODE_KEYS = ("entropy", "feature", "threshold", "branches", "predict")


@dataclass(frozen=True)
class Check:
    """One answer, marked: ``step`` names it, ``why`` says what is wrong ("" when right)."""

    task: str
    step: str
    right: bool
    expected: object
    given: object
    why: str = ""


@dataclass
class Grade:
    """The marks of one submission: ``score`` in [0, 1] and ``feedback`` (the first wrong step
    and why). ``checks`` lists every answer marked, ``notes`` what was ignored.

    Prints as text; Jupyter shows it as a table.
    """

    checks: list[Check] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    problem: str | None = None  # why the answers could not be read at all

    @property
    def score(self) -> float:
        if self.problem is not None or not self.checks:
            return 0.0
        shares = []
        for task in TASKS:
            mine = [c.right for c in self.checks if c.task == task]
            if mine:
                shares.append(sum(mine) / len(mine))
        return sum(shares) / len(shares)

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
    def feedback(self) -> str:
        """The first wrong step and why (with the count of the others), or that all is right."""
        if self.problem is not None:
            return self.problem
        wrong = self.wrong
        if not wrong:
            return f"All {self.total} answers are right."
        more = len(wrong) - 1
        return _capital(wrong[0].why) + (
            f" (and {more} more wrong answer{'s' * (more != 1)})" if more else ""
        )

    def to_dict(self) -> dict:
        """``score``, ``right``, ``total`` and ``feedback``: one row of a class's table."""
        return {
            "score": round(self.score, 4), "right": self.right, "total": self.total,
            "feedback": self.feedback,
        }  # fmt: skip

    def __str__(self) -> str:
        lines = [f"score {self.score:.2f} ({self.right} of {self.total} answers right)"]
        if self.problem is not None:
            return "\n".join([*lines, self.problem])
        lines += [f"- {c.step}: {c.why}" for c in self.wrong]
        lines += [f"note: {n}" for n in self.notes]
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"Grade(score={self.score:.4f}, right={self.right}, total={self.total})"

    def _repr_html_(self) -> str:
        head = (
            f"<p><strong>Score {self.score:.2f}</strong> ({self.right} of {self.total} answers "
            f"right). {escape(self.feedback)}</p>"
        )
        if self.problem is not None or not self.checks:
            return head
        rows = "".join(
            f"<tr><td>{escape(TASKS[c.task])}</td><td>{escape(c.step)}</td>"
            f"<td>{'right' if c.right else 'wrong'}</td><td>{escape(c.why)}</td></tr>"
            for c in self.checks
        )
        notes = "".join(f"<li>{escape(n)}</li>" for n in self.notes)
        return (
            f"{head}<table><thead><tr><th>task</th><th>answer</th><th>mark</th><th>why</th>"
            f"</tr></thead><tbody>{rows}</tbody></table>"
            + (f"<p>Ignored:</p><ul>{notes}</ul>" if notes else "")
        )


# ---------------------------------------------------------------------------------------------
# reading what a student wrote
# ---------------------------------------------------------------------------------------------
class _Bad(Exception):
    """An answer that is not of the kind asked for (the message says what was expected)."""


def _number(value) -> float:
    if isinstance(value, bool) or value is None:
        raise _Bad(f"a number was expected, got {value!r}")
    if isinstance(value, (int, float)):
        number = float(value)
    elif isinstance(value, str):
        try:
            number = float(Fraction(value.strip()))
        except (ValueError, ZeroDivisionError):
            raise _Bad(f"a number was expected, got {value!r}") from None
    else:
        raise _Bad(f"a number was expected, got {type(value).__name__} {value!r}")
    if not math.isfinite(number):
        raise _Bad(f"a finite number was expected, got {value!r}")
    return number


def _name(value) -> str:
    if isinstance(value, (str, int, float)) and not isinstance(value, bool):
        return str(value).strip()
    raise _Bad(f"a name was expected, got {type(value).__name__} {value!r}")


def _capital(sentence: str) -> str:
    return sentence[:1].upper() + sentence[1:]


def _go(rows: tuple) -> str:
    return "goes" if sum(rows) == 1 else "go"


def _same(a, b) -> bool:
    return str(a).strip().casefold() == str(b).strip().casefold()


def _branch_key(key: str) -> str:
    """A numeric branch as ``<=`` or ``>`` (``≤ 4.5``, ``<= 4.5`` and ``<=`` read the same)."""
    text = str(key).strip().replace("≤", "<=")
    for op in ("<=", ">"):
        if text.startswith(op):
            return op
    return text


def _mapping(value, what: str) -> Mapping:
    if not isinstance(value, Mapping):
        kind = "nothing" if value is None else f"a {type(value).__name__}"
        raise _Bad(f"{what} should be a mapping (a JSON object), got {kind}")
    return value


# ---------------------------------------------------------------------------------------------
# marking
# ---------------------------------------------------------------------------------------------
class _Marker:
    """Marks one submission against one exercise, answer by answer, in the question's order."""

    def __init__(self, exercise):
        self.key = exercise.answers()
        self.record = exercise.tree._teaching()
        self.root = self.record.infos[0]
        self.numeric = list(exercise.numeric)
        self.checks: list[Check] = []
        self.notes: list[str] = []

    def add(self, task, step, expected, given, why_wrong: str | None) -> None:
        self.checks.append(Check(task, step, why_wrong is None, expected, given, why_wrong or ""))

    def number(self, task, step, expected: float, given, why, problem: str | None = None) -> bool:
        """Mark a number; ``why(given)`` words a wrong one (``why(None)`` a missing one, after
        ``problem`` if the place it should be in was wrong). True if right."""
        try:
            value = _number(given)
        except _Bad as bad:
            lead = problem or ("nothing was given" if given is None else str(bad))
            self.add(task, step, expected, given, f"{step}: {lead}. " + _capital(why(None)))
            return False
        right = abs(value - expected) <= TOLERANCE
        self.add(task, step, expected, given, None if right else why(given))
        return right

    # the tasks -----------------------------------------------------------------------------
    def entropy(self, given) -> None:
        self._node_entropy(self.root, given, "entropy")

    def thresholds(self, given, best) -> None:
        for feature in self.numeric:
            table = self.record.table(0, feature)
            mine = self._cut_answers(given, feature)
            for cut in table.thresholds:
                text = format_number(cut.threshold)
                value = next((v for t, v in mine.items() if abs(t - cut.threshold) <= 1e-6), None)
                step = f"overall entropy of {feature} <= {text}"
                self.number(
                    "thresholds", step, cut.overall_entropy, value, self._cut_why(table, cut)
                )
            listed = {format_number(c.threshold) for c in table.thresholds}
            for t in mine:
                if format_number(t) not in listed:
                    self.notes.append(
                        f"{format_number(t)} is not a candidate threshold of {feature}: the "
                        f"candidates are the midpoints {', '.join(sorted(listed, key=float))}"
                    )
            self._best(table, best)

    def gains(self, given) -> None:
        try:
            given, problem = _mapping(given, "gains"), None
        except _Bad as bad:
            given, problem = {}, None if given is None else str(bad)
        for feature, expected in self.key["gains"].items():
            value = next((v for k, v in given.items() if _same(k, feature)), None)
            why = self._gain_why(self.record.table(0, feature))
            self.number("gains", f"Gain(S, {feature})", expected, value, why, problem)
        self._unknown(given, self.key["gains"], "gains", "feature")

    def root_feature(self, given) -> None:
        expected = self.key["root_feature"]
        try:
            name = _name(given)
        except _Bad as bad:
            wrong = "root_feature: nothing was given" if given is None else f"root_feature: {bad}"
            why = f"{wrong}. " + self._split_why(self.root, None)
        else:
            why = None if _same(name, expected) else self._split_why(self.root, name)
        self.add("root", "feature at the root", expected, given, why)

    # helpers -------------------------------------------------------------------------------
    def _rows(self, counts) -> str:
        n = sum(counts)
        return f"{n} row{'s' * (n != 1)} ({counts_text(self.record.classes, counts)})"

    def _cut_answers(self, given, feature) -> dict[float, object]:
        """The student's ``threshold -> overall entropy`` of one feature, read leniently (a
        mapping, or a list of pairs)."""
        if not isinstance(given, Mapping):
            return {}
        mine = next((v for k, v in given.items() if _same(k, feature)), None)
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
            except (_Bad, KeyError, TypeError, ValueError):
                self.notes.append(f"thresholds/{feature}: could not read {pair!r} as a threshold")
        return out

    def _cut_why(self, table, cut):
        text = format_number(cut.threshold)
        parts = [(sum(cut.left), table.n, cut.left), (sum(cut.right), table.n, cut.right)]
        parts += [(b.n, table.n, b.counts) for b in table.branches if b.label == "missing"]

        def why(g) -> str:
            return (
                f"the overall entropy of {table.feature} <= {text} is "
                f"{pencil.fixed(cut.overall_entropy)}"
                + ("" if g is None else f", not {g}")
                + f": {self._rows(cut.left)} {_go(cut.left)} to {table.feature} <= {text} and "
                f"{self._rows(cut.right)} to {table.feature} > {text}, so "
                f"{weighted_formula(parts, cut.overall_entropy)}."
            )

        return why

    def _best(self, table, best) -> None:
        expected = table.threshold
        given = (
            next((v for k, v in best.items() if _same(k, table.feature)), None)
            if isinstance(best, Mapping)
            else None
        )
        step = f"best threshold of {table.feature}"
        text = format_number(expected)
        lowest = pencil.fixed(table.overall_entropy)
        explain = (
            f"the best threshold of {table.feature} is {text}, between {format_number(table.low)} "
            f"and {format_number(table.high)}: its overall entropy {lowest} is the lowest"
        )
        try:
            value = _number(given)
        except _Bad as bad:
            lead = "nothing was given" if given is None else str(bad)
            why = f"best_thresholds/{table.feature}: {lead}. {_capital(explain)}."
        else:
            right = abs(value - expected) <= THRESHOLD_TOLERANCE
            why = None if right else f"{explain}, not {given}."
        self.add("thresholds", step, expected, given, why)

    def _gain_why(self, table):
        parts = [(b.n, table.n, b.counts) for b in table.branches]
        parent, overall, gain = (
            pencil.fixed(v) for v in (table.parent_entropy, table.overall_entropy, table.gain)
        )
        sign = pencil.difference_sign(parent, overall, gain)

        def why(g) -> str:
            return (
                f"the gain of {table.feature} is {gain}"
                + ("" if g is None else f", not {g}")
                + f": Gain(S, {table.feature}) = H(S) - H(S | {table.feature}) = {parent} - "
                f"{overall} {sign} {gain}, where H(S | {table.feature}) = "
                f"{weighted_formula(parts, table.overall_entropy)}."
            )

        return why

    def _split_why(self, info, given_feature: str | None) -> str:
        """Why node ``info`` splits on its feature (and not on ``given_feature``)."""
        node, name = info.node, subset_name(info)
        chosen = self.record.table(info.node_id, node.feature)
        test = chosen.test
        out = f"{name} splits on {test}, the feature of highest gain there ({pencil.fixed(chosen.gain)})"
        if given_feature is None:
            return out + "."
        feature = next((f for f in self.record.names if _same(f, given_feature)), None)
        if feature is None:
            return (
                out
                + f", not {given_feature}, which is not a feature (the features are {', '.join(self.record.names)})."
            )
        theirs = self.record.table(info.node_id, feature)
        if theirs.valid:
            return out + f", not {feature} (gain {pencil.fixed(theirs.gain)})."
        return out + f", not {feature}: {theirs.excluded}."

    def _unknown(self, given: Mapping, known, where: str, what: str) -> None:
        for k in given:
            if not any(_same(k, name) for name in known):
                self.notes.append(f"{where}: {k!r} is not a {what} of this exercise; ignored")

    # the tree ------------------------------------------------------------------------------
    def tree(self, given, answers: Mapping) -> None:
        if given is None:
            self._node(self.root, None, "tree is missing: the tree was not given")
            return
        if not isinstance(given, Mapping):
            self._node(
                self.root,
                None,
                f"tree should be a mapping (a JSON object), got a {type(given).__name__}",
            )
            return
        given = dict(given)
        given.setdefault("feature", answers.get("root_feature"))
        self._node(self.root, given, None)

    def _children(self, info):
        return [i for i in self.record.infos if i.parent is info.node]

    def _node(self, info, given, ungraded: str | None, where: str = "tree") -> None:
        """Mark one node of the student's tree and, through it, its subtree."""
        node, name = info.node, subset_name(info)
        if ungraded is None and not isinstance(given, Mapping):
            ungraded = (
                f"{name} is missing from the tree"
                if given is None
                else f"{where} should be a mapping (a JSON object), got a {type(given).__name__}"
            )
        if ungraded is not None:
            for step in self._node_steps(info):
                self.add("tree", step, None, None, ungraded)
            for child in self._children(info):
                self._node(child, None, ungraded)
            return
        self._unknown(given, _NODE_KEYS, where, "key of a node")
        if info.parent is not None:
            self._node_entropy(info, given.get("entropy"))
        if node.is_leaf:
            self._leaf(info, given)
            return
        below = self._split(info, given)
        branches = given.get("branches")
        if below is None and not isinstance(branches, Mapping):
            below = f"{where}/branches should map each branch to its node, got {'nothing' if branches is None else type(branches).__name__}"
        for key, child in zip(node.children, self._children(info)):
            mine = None
            if below is None:
                label = str(key) if node.threshold is None else key
                mine = next(
                    (
                        v
                        for k, v in branches.items()
                        if _same(_branch_key(k) if node.threshold is not None else k, label)
                    ),
                    None,
                )
            self._node(child, mine, below, f"{where}/branches/{key}")

    def _node_steps(self, info) -> list[str]:
        node, name = info.node, subset_name(info)
        steps = [] if info.parent is None else [f"H({name})"]
        if node.is_leaf:
            return [*steps, f"prediction of {name}"]
        if info.parent is not None:
            steps.append(f"split of {name}")
        if node.threshold is not None:
            steps.append(f"threshold of {name}")
        return steps

    def _node_entropy(self, info, given, task: str = "tree") -> None:
        counts = tuple(info.node.class_counts.values())
        name = subset_name(info)
        self.number(
            task,
            f"H({name})",
            float(info.node.entropy),
            given,
            lambda g: (
                f"the entropy of {name} is {pencil.fixed(info.node.entropy)}"
                + ("" if g is None else f", not {g}")
                + f": {name} holds {self._rows(counts)}, so H({name}) = {entropy_formula(counts)}."
            ),
        )

    def _leaf(self, info, given) -> None:
        node, name = info.node, subset_name(info)
        step, expected = f"prediction of {name}", str(node.prediction)
        counts = tuple(node.class_counts.values())
        reason = node.stop_reason or "no split"
        if reason.startswith("pure"):
            reason = f"all its {self._rows(counts)} are {expected}"
        else:
            reason = f"{reason}; it holds {self._rows(counts)}"
        if given.get("feature") is not None:
            why = f"{name} is a leaf predicting {expected} ({reason}), not a split on {given['feature']}."
            self.add("tree", step, expected, given.get("feature"), why)
            return
        predict = given.get("predict")
        right = predict is not None and _same(predict, expected)
        lead = "" if predict is None else f", not {predict}"
        why = None if right else f"{name} predicts {expected}{lead}: {reason}."
        self.add("tree", step, expected, predict, why)

    def _split(self, info, given) -> str | None:
        """Mark the feature and threshold of a split; the reason its subtree cannot be marked,
        or None."""
        node, name = info.node, subset_name(info)
        feature = given.get("feature")
        if info.parent is not None:
            split = f"split of {name}"
            if feature is None:
                lead = (
                    f"{name} is not a leaf: it holds {self._rows(tuple(node.class_counts.values()))}. "
                    if "predict" in given
                    else ""
                )
                self.add("tree", split, node.feature, None, lead + self._split_why(info, None))
                return f"not marked: the split of {name} above is missing"
            right = isinstance(feature, (str, int)) and _same(feature, node.feature)
            why = None if right else self._split_why(info, str(feature))
            self.add("tree", split, node.feature, feature, why)
            if not right:
                return f"not marked: the split of {name} above is wrong"
        elif not (isinstance(feature, (str, int)) and _same(feature, node.feature)):
            return f"not marked: the split of {name} (the feature at the root) is wrong"
        if node.threshold is None:
            return None
        chosen = self.record.table(info.node_id, node.feature)
        step = f"threshold of {name}"
        expected = float(node.threshold)
        explain = (
            f"{name} splits {node.feature} at {format_number(expected)}, between "
            f"{format_number(chosen.low)} and {format_number(chosen.high)}"
        )
        given_threshold = given.get("threshold")
        try:
            value = _number(given_threshold)
        except _Bad as bad:
            lead = "nothing was given" if given_threshold is None else str(bad)
            why = f"the threshold of {name}: {lead}. {explain}."
            self.add("tree", step, expected, given_threshold, why)
            return f"not marked: the threshold of {name} above is missing"
        if abs(value - expected) > THRESHOLD_TOLERANCE:
            self.add("tree", step, expected, value, f"{explain}, not {format_number(value)}.")
            return f"not marked: the threshold of {name} above is wrong"
        self.add("tree", step, expected, value, None)
        return None


def grade(exercise, answers) -> Grade:
    """Mark ``answers`` (laid out as :meth:`~id3tree.classroom.exercises.Exercise.answers`) against
    ``exercise``: a :class:`Grade` with ``score`` in [0, 1] and ``feedback``.

    Never raises on what a student wrote: a missing key, a wrong type or an unknown key is
    marked or noted (see the module for how answers are scored).
    """
    if not isinstance(answers, Mapping):
        kind = "nothing" if answers is None else f"a {type(answers).__name__}"
        return Grade(
            problem=(
                "the answers should be a mapping of questions to answers (a JSON object with "
                f"root_entropy, gains, root_feature, tree, ...), got {kind}"
            )
        )
    marker = _Marker(exercise)
    marker.entropy(answers.get("root_entropy"))
    if marker.numeric:
        marker.thresholds(answers.get("thresholds"), answers.get("best_thresholds"))
    marker.gains(answers.get("gains"))
    marker.root_feature(answers.get("root_feature"))
    marker.tree(answers.get("tree"), answers)
    keys = [k for k in _KEYS if marker.numeric or "thresholds" not in k]
    marker._unknown(answers, keys, "answers", "question")
    return Grade(marker.checks, marker.notes)


# ---------------------------------------------------------------------------------------------
# files
# ---------------------------------------------------------------------------------------------
def rows_to_answers(rows) -> dict:
    """``(question, answer)`` rows as nested answers: the question ``gains/Weather`` is
    ``answers["gains"]["Weather"]`` (parts separated by ``/``)."""
    out: dict = {}
    for i, (question, answer) in enumerate(rows, start=1):
        parts = [p.strip() for p in str(question).split("/")]
        if not all(parts):
            raise ValueError(f"row {i}: the question {question!r} has an empty part")
        place = out
        for depth, part in enumerate(parts[:-1]):
            place = place.setdefault(part, {})
            if not isinstance(place, dict):
                raise ValueError(
                    f"row {i}: {'/'.join(parts[: depth + 1])!r} already has an answer of its own"
                )
        if parts[-1] in place:
            raise ValueError(f"row {i}: {question!r} is answered twice")
        place[parts[-1]] = answer
    return out


def answers_to_rows(answers: Mapping, prefix: str = "") -> list[tuple[str, object]]:
    """The answers as ``(question, answer)`` rows (the inverse of :func:`rows_to_answers`)."""
    rows = []
    for key, value in answers.items():
        question = f"{prefix}{key}"
        if isinstance(value, Mapping):
            rows.extend(answers_to_rows(value, question + "/"))
        else:
            rows.append((question, value))
    return rows


def read_answers(path) -> dict:
    """A student's answers from a ``.json`` file (one object) or a ``.csv`` file.

    The CSV file has a header ``question,answer`` and one row per answer: the question is the
    answer's place in the JSON layout with its parts separated by ``/`` (``root_entropy``,
    ``gains/Weather``, ``thresholds/Hours/4.5``, ``tree/branches/Sunny/predict``). Raises
    ValueError, naming the file and the row, when the file cannot be read.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise ValueError(f"{path.name} is not UTF-8 text") from None
    if path.suffix.lower() == ".json":
        try:
            return json.loads(text)
        except json.JSONDecodeError as error:
            raise ValueError(
                f"{path.name} is not valid JSON: line {error.lineno}, column {error.colno}: "
                f"{error.msg}"
            ) from None
    rows = [r for r in csv.reader(text.splitlines()) if any(cell.strip() for cell in r)]
    if not rows or [c.strip().lower() for c in rows[0][:2]] != ["question", "answer"]:
        raise ValueError(f"{path.name} should start with the header question,answer")
    for i, row in enumerate(rows[1:], start=2):
        if len(row) != 2:
            raise ValueError(
                f"{path.name}, line {i}: expected 2 cells (question,answer), got {len(row)}"
            )
    try:
        return rows_to_answers((q, a.strip() or None) for q, a in rows[1:])
    except ValueError as error:
        raise ValueError(f"{path.name}: {error}") from None


def grade_file(exercise, path) -> Grade:
    """:func:`grade` of the answers in a file; a file that cannot be read scores 0 and says why."""
    try:
        answers = read_answers(path)
    except (OSError, ValueError) as error:
        return Grade(problem=f"cannot read the answers: {error}")
    return grade(exercise, answers)
