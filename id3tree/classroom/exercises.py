"""Exercises for a class: a small data set, a question, and its worked solution.

>>> from id3tree.classroom.exercises import make_exercise
>>> ex = make_exercise(kind="categorical", n_rows=10, seed=1)
>>> ex.data.shape
(10, 4)
>>> make_exercise(kind="categorical", n_rows=10, seed=1).data.equals(ex.data)
True

Every exercise is made so that it can be solved by hand without ambiguity: at the root one
feature wins clearly (no ties to argue about), a numeric feature's best cut is unique, and the
whole tree stays small. The same ``seed`` always gives the same exercise; with ``student``, each
student gets data of their own, the same every time for the same name and seed:

>>> alice = make_exercise(seed=1, student="alice")
>>> alice.data.equals(make_exercise(seed=1, student="alice").data)
True
>>> alice.data.equals(make_exercise(seed=1, student="bob").data)
False

:meth:`Exercise.answers` gives the complete answers as plain data, and :func:`grade` marks a
student's answers against them (see :mod:`id3tree.classroom.grading`).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np
import pandas as pd

from id3tree.base.entropy import TIE_TOLERANCE, entropy_rows
from id3tree.base.language import current, speaking
from id3tree.base.language import language as shipped_language
from id3tree.base.latex import latex_escape
from id3tree.base.words import format_number
from id3tree.classroom.grading import Grade, grade
from id3tree.classroom.text import markdown_text
from id3tree.learner import ID3Classifier
from id3tree.teaching.worked import WorkedSolution, latex_document, worked_solution

__all__ = ["KINDS", "Exercise", "Grade", "grade", "make_exercise", "sheet_latex"]
__all__ += ["sheet_markdown", "write_sheets"]

KINDS = ("categorical", "numeric", "mixed")
"""The kinds of exercise: the features' kinds (numeric ones ask for thresholds)."""

# Themed columns a student can picture: name -> values (categorical) or (low, high) (numeric).
_CATEGORICAL = {
    "Weather": ["Sunny", "Cloudy", "Rainy"], "Temperature": ["Hot", "Mild", "Cold"],
    "Wind": ["Weak", "Strong"], "Company": ["Friends", "Family", "Alone"],
    "Day": ["Weekday", "Weekend"],
}  # fmt: skip
_NUMERIC = {"Hours": (0, 10), "Distance": (1, 20), "Age": (8, 16)}
_TARGET = "Go"
_CLASSES = ("no", "yes")
MAX_ATTEMPTS = 500


@dataclass
class Exercise:
    """One exercise: ``data`` (features and the target column), ``question`` and ``solution``
    (Markdown), the fitted ``tree`` the solution describes, and how it was made (``kind``,
    ``seed``, ``student``; ``seed`` is None for an exercise of a :class:`~id3tree.classroom.Class`,
    drawn from its secret), in ``language`` (the question, the solution and the sheets; the
    data and the answers' keys are the same in every language)."""

    kind: str
    seed: int | None
    data: pd.DataFrame
    target: str
    question: str
    solution: WorkedSolution
    tree: ID3Classifier
    numeric: list[str]
    student: str | None = None
    language: str = "en"

    @property
    def X(self) -> pd.DataFrame:
        return self.data.drop(columns=self.target)

    @property
    def y(self) -> pd.Series:
        return self.data[self.target]

    @property
    def title(self) -> str:
        """``mixed, seed 3`` (``, for alice`` when made for a student; no seed when drawn from a
        class's secret)."""
        with speaking(self.language) as L:
            seed = "" if self.seed is None else ", " + L.line("seed {seed}", seed=str(self.seed))
            who = ", " + L.line("for {student}", student=self.student) if self.student else ""
            return f"{self.kind}{seed}{who}"

    def _record(self):
        """The teaching record of the tree (made once: the key, the solution and the marks all
        read it)."""
        if self.__dict__.get("_record_of") is not self.tree:
            self.__dict__["_record_cache"], self.__dict__["_record_of"] = (
                self.tree._teaching(),
                self.tree,
            )
        return self.__dict__["_record_cache"]

    def solution_latex(self, exact: bool = True) -> WorkedSolution:
        """The worked solution as a LaTeX document (``.body``: the part inside ``document``),
        every candidate threshold listed."""
        with speaking(self.language):
            record = self._record()
            return worked_solution(record, format="latex", exact=exact, max_thresholds=None)

    def answers(self) -> dict:
        """The complete correct answers, as plain data (JSON as it is).

        ``root_entropy``; for numeric features ``thresholds`` (feature -> every candidate
        threshold at the root, written as text, -> the overall entropy of the cut) and
        ``best_thresholds`` (feature -> the threshold of lowest overall entropy); ``gains``
        (feature -> its information gain at the root); ``root_feature``; and ``tree``, the whole
        tree as nested dicts: a split is ``{"entropy", "feature", "branches"}`` (and
        ``"threshold"`` for a number, its branches ``"<="`` and ``">"``), a leaf
        ``{"entropy", "predict"}``. Numbers are full precision; :func:`grade` allows
        :data:`id3tree.classroom.grading.TOLERANCE`.
        """
        record = self._record()
        tables = record.tables(0)
        out: dict = {"root_entropy": float(self.tree.root_.entropy)}
        if self.numeric:
            out["thresholds"] = {
                t.feature: {format_number(c.threshold): c.overall_entropy for c in t.thresholds}
                for t in tables
                if t.kind == "numeric"
            }
            out["best_thresholds"] = {
                t.feature: t.threshold for t in tables if t.kind == "numeric" and t.valid
            }
        out["gains"] = {t.feature: float(t.gain) for t in tables if t.valid}
        out["root_feature"] = self.tree.root_.feature
        out["tree"] = _tree_answer(self.tree.root_)
        return out

    def grade(self, answers, *, language: str = "en") -> Grade:
        """:func:`grade` of ``answers`` against this exercise, the feedback in ``language``."""
        return grade(self, answers, language=language)

    def question_latex(self) -> str:
        """The question as a LaTeX fragment (the data as a table, then the tasks)."""
        columns = list(self.data.columns)
        lines = [
            "\\begin{center}",
            "\\begin{tabular}{r" + "l" * len(columns) + "}",
            "\\hline",
            " & ".join(["\\#", *[latex_escape(c) for c in columns]]) + " \\\\",
            "\\hline",
        ]
        for i, row in enumerate(self.data.itertuples(index=False), start=1):
            lines.append(" & ".join([str(i), *[latex_escape(v) for v in row]]) + " \\\\")
        lines += ["\\hline", "\\end{tabular}", "\\end{center}", "\\begin{enumerate}"]
        lines += [f"\\item {latex_escape(task)}" for task in self._tasks()]
        lines.append("\\end{enumerate}")
        return "\n".join(lines)

    def _tasks(self) -> list[str]:
        with speaking(self.language) as L:
            n = str(len(self.data))
            tasks = [
                L.line(
                    "Compute the entropy of {target} over all {n} rows (base-2 logarithms).",
                    target=self.target, n=n,
                )
            ]  # fmt: skip
            if self.numeric:
                names = f" {L.gettext('and')} ".join(self.numeric)
                tasks.append(
                    L.line(
                        "For {names}: list the candidate thresholds (midpoints between adjacent "
                        "distinct values), compute the overall entropy of each, and find the best "
                        "one, saying between which two values it lies.",
                        names=names,
                    )
                )
            tasks.append(L.gettext("Compute the information gain of every feature at the root."))
            tasks.append(L.gettext("Which feature does ID3 split on at the root, and why?"))
            first = str(self.tree.classes_[0])
            tasks.append(
                L.line(
                    "Build the whole tree, giving each node's entropy. A node splits on the "
                    "feature of highest gain (even a gain of 0), with one branch per value the "
                    "feature takes among the node's rows, or, for a number, a cut at the midpoint "
                    "of lowest overall entropy. A node is a leaf when it is pure or when no "
                    "feature takes two values among its rows; a leaf predicts its majority class, "
                    "and if the classes tie, {first} (the first in alphabetical order). If two "
                    "features or two cuts tie for the best, either is right.",
                    first=first,
                )
            )
            return tasks


def _tree_answer(node) -> dict:
    """One node of :meth:`Exercise.answers`'s ``tree`` (and, within it, its children)."""
    if node.is_leaf:
        return {"entropy": float(node.entropy), "predict": str(node.prediction)}
    out = {"entropy": float(node.entropy), "feature": node.feature}
    if node.threshold is not None:
        out["threshold"] = float(node.threshold)
    out["branches"] = {str(key): _tree_answer(child) for key, child in node.children.items()}
    return out


def _student_entropy(student: str) -> int:
    """A number drawn from a student's name (SHA-256 of the name with its spaces collapsed and
    its case folded: ``" Alice "`` is ``alice``), the same on every machine and every run."""
    if not isinstance(student, str) or not student.strip():
        raise ValueError(f"student must be a non-empty name, got {student!r}")
    key = " ".join(student.split()).casefold().encode("utf-8")
    return int.from_bytes(hashlib.sha256(key).digest()[:16], "big")


def _student_names(students) -> list[str]:
    """``students`` as a list of distinct names: one name, or an iterable of names."""
    names = [students] if isinstance(students, str) else students
    try:
        names = list(names)
    except TypeError:
        raise ValueError(f"students must be a name or a list of names, got {students!r}") from None
    if not names:
        raise ValueError("students is empty: give at least one name (or None for no names)")
    seen: dict[str, str] = {}
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"students: each must be a non-empty name, got {name!r}")
        key = " ".join(name.split()).casefold()
        if key in seen:
            raise ValueError(f"students: {name!r} is named twice (as {seen[key]!r})")
        seen[key] = name
    return names


def _question_markdown(ex: Exercise) -> str:
    table = ex.data.copy()
    table.index = range(1, len(table) + 1)
    header = "| # | " + " | ".join(table.columns) + " |"
    rule = "|---:|" + "|".join("---" for _ in table.columns) + "|"
    body = [
        f"| {i} | " + " | ".join(str(v) for v in row) + " |"
        for i, row in zip(table.index, table.itertuples(index=False))
    ]
    tasks = "\n".join(f"{i}. {t}" for i, t in enumerate(ex._tasks(), start=1))
    return "\n".join([header, rule, *body]) + "\n\n" + tasks + "\n"


def _draw(kind: str, n_rows: int, rng: np.random.Generator) -> tuple[pd.DataFrame, list[str]]:
    """One random data set of the kind asked for (not yet checked for being a good exercise)."""
    if kind == "categorical":
        names = list(rng.choice(list(_CATEGORICAL), size=3, replace=False))
        numeric = []
    elif kind == "numeric":
        names = list(rng.choice(list(_NUMERIC), size=2, replace=False))
        numeric = names
    else:
        cats = list(rng.choice(list(_CATEGORICAL), size=2, replace=False))
        nums = [str(rng.choice(list(_NUMERIC)))]
        names, numeric = cats + nums, nums
    columns = {}
    for name in names:
        if name in _NUMERIC:
            low, high = _NUMERIC[name]
            columns[name] = rng.integers(low, high + 1, size=n_rows)
        else:
            columns[name] = rng.choice(_CATEGORICAL[name], size=n_rows)
    # a hidden rule: a score from one or two features, then a little noise
    score = np.zeros(n_rows)
    for name in rng.choice(names, size=2, replace=False):
        if name in _NUMERIC:
            low, high = _NUMERIC[name]
            cut = rng.integers(low + 2, high - 1)
            score += np.where(columns[name] > cut, 1.0, -1.0) * rng.choice([-1, 1])
        else:
            values = _CATEGORICAL[name]
            weights = dict(zip(values, rng.normal(size=len(values))))
            score += np.array([weights[v] for v in columns[name]])
    score += rng.normal(scale=0.4, size=n_rows)
    target = np.where(score > np.median(score), _CLASSES[1], _CLASSES[0])
    frame = pd.DataFrame({name: columns[name] for name in names})
    for name in names:
        if name not in _NUMERIC:
            frame[name] = frame[name].astype(object)
    frame[_TARGET] = target.astype(object)
    return frame, numeric


def _good(frame: pd.DataFrame, tree: ID3Classifier) -> bool:
    """Solvable by hand without ambiguity, and worth solving: a clear winner at the root (by at
    least 0.02 bits), no ties between features or thresholds anywhere, every column with at least
    two values, and a tree of depth 2 or 3 with at most 7 leaves."""
    if any(frame[c].nunique() < 2 for c in frame.columns) or tree.root_.is_leaf:
        return False
    if not 2 <= tree.get_depth() <= 3 or tree.get_n_leaves() > 7:
        return False
    record = tree._teaching()
    gains = sorted((t.gain for t in record.tables(0) if t.valid), reverse=True)
    if len(gains) < 2 or gains[0] - gains[1] < 0.02:
        return False
    for info in record.infos:
        if info.node.is_leaf:
            continue
        for table in record.tables(info.node_id):
            if table.tie or (table.valid and table.n_tied_thresholds > 1):
                return False
    return True


def make_exercise(
    kind: str = "categorical", n_rows: int = 12, seed: int = 0, student: str | None = None,
    language: str = "en",
) -> Exercise:  # fmt: skip
    """A small data set, a question about it, and the worked solution.

    Parameters
    ----------
    kind : {"categorical", "numeric", "mixed"}
        Three categorical features; two numeric (integer) features; or two categorical and one
        numeric feature. The target is ``Go`` (``yes`` / ``no``).
    n_rows : int
        Rows of the data set, from 6 to 40 (10 to 16 suit a hand calculation).
    seed : int
        The same seed gives the same exercise.
    student : str, optional
        A student's name: each student gets data of their own, the same every time for the same
        name and seed (spaces and case in the name do not matter).
    language : {"en", "es", "de"}, default="en"
        The language of the question, the worked solution and the sheets (the data, and so the
        answers, are the same in every language; the answers' keys stay English).

    Returns
    -------
    Exercise
        With ``data``, ``question`` (Markdown), ``solution`` (Markdown, exact fractions) and the
        fitted ``tree``.
    """
    check_settings(kind, n_rows)
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    shipped_language(language)  # an unknown language is named before anything is drawn
    entropy = [int(seed), KINDS.index(kind), int(n_rows)]
    if student is not None:
        entropy.append(_student_entropy(student))
        student = " ".join(student.split())
    return build_exercise(kind, int(n_rows), entropy, int(seed), student, language=language)


def check_settings(kind, n_rows) -> None:
    """A clear error for a ``kind`` or ``n_rows`` no exercise is made of."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {list(KINDS)}, got {kind!r}")
    if (
        isinstance(n_rows, bool)
        or not isinstance(n_rows, (int, np.integer))
        or not 6 <= n_rows <= 40
    ):
        raise ValueError(f"n_rows must be an integer from 6 to 40, got {n_rows!r}")


def _tied_cuts(values: np.ndarray, y: np.ndarray) -> int:
    """How many cuts of a numeric column tie for the lowest overall entropy (0 without cuts)."""
    order = np.argsort(values, kind="stable")
    values, classes = values[order], np.unique(y, return_inverse=True)[1][order]
    ends = np.flatnonzero(values[1:] != values[:-1]) + 1  # rows left of each cut
    if not len(ends):
        return 0
    onehot = np.eye(classes.max() + 1, dtype=np.int64)[classes].cumsum(axis=0)
    left = onehot[ends - 1]
    right = onehot[-1] - left
    n = len(values)
    overall = (ends * entropy_rows(left) + (n - ends) * entropy_rows(right)) / n
    return int((overall <= overall.min() + TIE_TOLERANCE).sum())


def _good_fast(frame: pd.DataFrame, tree: ID3Classifier) -> bool:
    """:func:`_good`, read from the learner's trace (the gains, the ties between features) and
    the cuts' class counts instead of the teaching record's tables: the same answer (the tests
    check it on thousands of draws), some times faster, for a class of hundreds."""
    if any(frame[c].nunique() < 2 for c in frame.columns) or tree.root_.is_leaf:
        return False
    if not 2 <= tree.get_depth() <= 3 or tree.get_n_leaves() > 7:
        return False
    trace = tree.trace_
    scored = trace[trace["gain"].notna()]
    gains = np.sort(scored.loc[scored["node"] == 0, "gain"].to_numpy())[::-1]
    if len(gains) < 2 or gains[0] - gains[1] < 0.02:
        return False
    splits = [n.node_id for n in tree.root_.walk() if not n.is_leaf]
    if scored.loc[scored["node"].isin(splits), "tie"].any():
        return False
    y = frame[_TARGET].to_numpy()
    numbers = [frame[c].to_numpy() for c in frame.columns[:-1] if frame[c].dtype.kind in "iuf"]
    for info in tree._teaching().infos:
        for column in [] if info.node.is_leaf else numbers:
            if _tied_cuts(column[info.rows], y[info.rows]) > 1:
                return False
    return True


def build_exercise(
    kind: str, n_rows: int, entropy, seed: int | None, student: str | None, *, solved=True,
    language: str = "en",
) -> Exercise:  # fmt: skip
    """The exercise drawn from ``entropy`` (the numbers that seed its random generator):
    :func:`make_exercise`'s from its seed, a class's from its secret and the student, written
    in ``language``. With ``solved=False`` its ``solution`` is left empty until :func:`solve`
    writes it."""
    rng = np.random.default_rng(entropy)
    for _ in range(MAX_ATTEMPTS):
        frame, numeric = _draw(kind, int(n_rows), rng)
        X, y = frame.drop(columns=_TARGET), frame[_TARGET]
        tree = ID3Classifier().fit(X, y)
        if _good_fast(frame, tree):
            break
    else:  # pragma: no cover - the generator finds one within a few dozen draws
        raise RuntimeError(f"no clear-cut exercise found for kind={kind!r}, n_rows={n_rows}")
    tree.language = language  # (after the draw: the same data in every language)
    ex = Exercise(
        kind, seed, frame, _TARGET, "", WorkedSolution(""), tree, numeric, student, language
    )
    ex.question = _question_markdown(ex)
    return solve(ex) if solved else ex


def solve(ex: Exercise) -> Exercise:
    """Write the exercise's worked solution (its ``solution``) and return it."""
    tree = ex.tree
    with speaking(ex.language) as L:
        solution = worked_solution(ex._record(), max_thresholds=None)
        heading = L.gettext("The tree")
    drawn = f"\n### {heading}\n\n```\n" + tree.to_text(decimals=4) + "\n```\n"
    ex.solution = WorkedSolution(
        solution + drawn,
        equations=solution.equations,
        math=lambda: solution.math() + drawn,
    )
    return ex


PAGE_BREAK = '<div style="page-break-before: always"></div>\n'
"""Where a student's exercises start on a new page when a Markdown sheet is printed."""


def _numbered(exercises: list[Exercise]):
    """``(number, exercise, new_student)``: each student's exercises are numbered from 1."""
    number, previous = 0, object()
    for ex in exercises:
        new = ex.student != previous
        number = 1 if new else number + 1
        previous = ex.student
        yield number, ex, new and ex.student is not None


def _sheet_language(exercises: list[Exercise]):
    """The language of a sheet: its exercises' (English for none)."""
    return speaking(exercises[0].language if exercises else "en")


def _sheet_title(answers: bool) -> str:
    L = current()
    if answers:
        return L.gettext("Decision trees with entropy: answer key")
    return L.gettext("Decision trees with entropy: exercises")


def sheet_markdown(exercises: list[Exercise], *, answers: bool) -> str:
    """An exercise sheet (``answers=False``) or its answer key, in Markdown, in the language of
    its exercises; each student's exercises start on a new page when printed (names are
    escaped: they show as written)."""
    with _sheet_language(exercises) as L:
        parts = [f"# {_sheet_title(answers)}\n"]
        solved = L.gettext("Worked solution")
        for i, (number, ex, new) in enumerate(_numbered(exercises)):
            if new and i:
                parts.append(PAGE_BREAK)
            title = markdown_text(ex.title)
            parts.append(
                f"## {L.line('Exercise {number} ({title})', number=str(number), title=title)}\n"
            )
            parts.append(ex.question)
            if answers:
                parts.append(ex.solution.replace(f"## {solved}", f"### {solved}"))
        return "\n".join(parts)


def sheet_latex(exercises: list[Exercise], *, answers: bool) -> str:
    """The same as a complete LaTeX document (each student's exercises on a new page)."""
    with _sheet_language(exercises) as L:
        title, body = _sheet_title(answers), []
        solved = latex_escape(L.gettext("Worked solution"))
        for i, (number, ex, new) in enumerate(_numbered(exercises)):
            if new and i:
                body.append("\\clearpage")
            heading = L.line("Exercise {number} ({title})", number=str(number), title=ex.title)
            body.append(f"\\section*{{{latex_escape(heading)}}}")
            body.append(ex.question_latex())
            if answers:
                body.append(ex.solution_latex().body.replace(f"\\section*{{{solved}}}", ""))
                heading = f"\\subsection*{{{latex_escape(L.gettext('The tree'))}}}"
                body.append(heading + "\n" + _monospaced(ex.tree.to_text(decimals=4)))
        return latex_document("\n\n".join(body), title)


def _monospaced(text: str) -> str:
    """Lines of monospaced text in LaTeX: ``verbatim`` when they are plain ASCII, else each
    line escaped and its spaces kept (``verbatim`` would print a UTF-8 letter, the ``í`` of
    ``raíz``, as two wrong glyphs)."""
    if text.isascii():
        return "\\begin{verbatim}\n" + text + "\n\\end{verbatim}"
    lines = [latex_escape(line).replace(" ", "~") for line in text.split("\n")]
    return "{\\ttfamily\\noindent " + "\\\\\n".join(lines) + "\\par}"


def write_sheets(
    out, *, kind: str = "mixed", n_rows: int = 12, seed: int = 0, count: int = 1,
    latex: bool = False, students: list[str] | None = None, language: str = "en",
) -> list:  # fmt: skip
    """Write ``exercises.md`` and ``answers.md`` (and with ``latex=True`` the ``.tex`` files) to
    the folder ``out``; exercise ``i`` uses seed ``seed + i``. With ``students`` (a name, or a
    list of names), each student gets their own ``count`` exercises (``make_exercise(...,
    student=name)``), starting on a new page, each headed with the name. ``language``: the
    sheets' (the same data in every language). Returns the paths written.

    Anyone who knows the seed can make these exercises (and their answers) again: for marks,
    hand out a :func:`~id3tree.classroom.make_class`'s handouts, drawn from a secret.
    """
    from pathlib import Path

    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 50:
        raise ValueError(f"count must be an integer from 1 to 50, got {count!r}")
    names = [None] if students is None else _student_names(students)
    exercises = [
        make_exercise(kind, n_rows, seed + i, s, language) for s in names for i in range(count)
    ]
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, answers in (("exercises", False), ("answers", True)):
        path = folder / f"{name}.md"
        path.write_text(sheet_markdown(exercises, answers=answers), encoding="utf-8")
        written.append(path)
        if latex:
            path = folder / f"{name}.tex"
            path.write_text(sheet_latex(exercises, answers=answers), encoding="utf-8")
            written.append(path)
    return written
