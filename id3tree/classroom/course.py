"""A class to run a unit on: each student's own data from a roster and a secret, handouts
without the key, keys for the teacher, and the marks of what they hand in.

>>> from id3tree.classroom import make_class
>>> secret = "a long secret the teacher keeps"
>>> klass = make_class(["Alice Martin", "Bob Li"], kind="mixed", n_rows=10, secret=secret)
>>> klass
Class(2 students, mixed, 10 rows)
>>> alice = klass.exercise("Alice Martin")
>>> alice.data.equals(make_class(["Alice Martin"], kind="mixed", n_rows=10,
...                              secret=secret).exercise("Alice Martin").data)
True
>>> klass.grade_answers("Alice Martin", alice.answers()).score
1.0

The same secret and settings give the same class on any machine (with the same versions of
id3tree and numpy); another secret, another assignment name or other settings give every student
other data. Nothing a handout shows (no seed, no secret) lets a student make their data or key
again: :func:`~id3tree.classroom.exercises.make_exercise` draws from a public seed, a class from
HMAC-SHA256 of the student's id under the secret (:func:`~id3tree.classroom.roster.student_entropy`).
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import subprocess
import tempfile
import warnings
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from id3tree.base.language import N_, current, speaking
from id3tree.base.language import language as shipped_language
from id3tree.base.latex import latex_escape
from id3tree.classroom.exercises import (
    Exercise,
    build_exercise,
    check_settings,
    make_exercise,
    sheet_latex,
    solve,
)
from id3tree.classroom.grading import (
    TOLERANCE,
    Grade,
    check_language,
    check_tolerance,
    grade,
    task_weights,
    unreadable,
)
from id3tree.classroom.reading import read_answers, same
from id3tree.classroom.results import (
    ClassGrades,
    SettingsMismatchWarning,
    StudentGrade,
    class_warnings,
)
from id3tree.classroom.roster import Student, match_file, read_roster, student_entropy
from id3tree.classroom.submissions import Entry, match_entries, pick, scan
from id3tree.classroom.text import csv_cell, markdown_text, printable
from id3tree.teaching.worked import latex_document

__all__ = ["Class", "make_class"]


class Class:
    """The students of a class, each with an exercise of their own. Made by :func:`make_class`."""

    def __init__(
        self, students: list[Student], kind: str, n_rows: int, assignment: str,
        draw: Callable[[Student], Exercise],
        settings: str = "secret, kind, number of rows or assignment", language: str = "en",
    ) -> None:  # fmt: skip
        self.students, self.kind, self.n_rows = list(students), kind, n_rows
        self.language = language  # of the handouts and keys
        self.assignment = assignment
        self._draw = draw  # Student -> Exercise
        self._settings = settings  # what makes the class, as a warning names it
        self._exercises: dict[str, Exercise] = {}

    def __repr__(self) -> str:
        named = f", assignment {self.assignment!r}" if self.assignment else ""
        n = len(self.students)
        return f"Class({n} student{'s' * (n != 1)}, {self.kind}, {self.n_rows} rows{named})"

    def __len__(self) -> int:
        return len(self.students)

    def student(self, who: Student | str) -> Student:
        """The student ``who`` names: a :class:`Student`, a name, an id or a file stem."""
        if isinstance(who, Student) and who in self.students:
            return who
        for attribute in ("id", "name", "file"):
            found = [s for s in self.students if getattr(s, attribute) is not None
                     and isinstance(who, str) and same(getattr(s, attribute), who)]  # fmt: skip
            if len(found) == 1:
                return found[0]
        raise ValueError(f"no student {printable(who)!r} in this class")

    def exercise(self, who: Student | str) -> Exercise:
        """The exercise of a student (a :class:`Student`, a name, an id or a file stem)."""
        ex = self._unsolved(self.student(who))
        return ex if ex.solution else solve(ex)

    def _unsolved(self, student: Student) -> Exercise:
        """The student's exercise, its worked solution perhaps not yet written (marking does
        not need it)."""
        if student.key not in self._exercises:
            self._exercises[student.key] = self._draw(student)
        return self._exercises[student.key]

    # paper ---------------------------------------------------------------------------------
    def handouts(
        self, folder: str | os.PathLike[str], *, pdf: bool | None = None, overwrite: bool = True
    ) -> list[Path]:
        """Write each student's handout to ``folder``: ``<file>.md`` (and ``<file>.pdf`` where
        pdflatex is found, or with ``pdf=True``; ``pdf=False`` for none), the file stem being
        :attr:`Student.file`. A handout shows the student's name, their data, the question and
        how to hand in; no seed, no secret, no answer. Returns the paths written."""
        return self._write(folder, pdf, overwrite, key=False)

    def keys(
        self, folder: str | os.PathLike[str], *, pdf: bool | None = None, overwrite: bool = True
    ) -> list[Path]:
        """Write each student's key to ``folder``: ``<file>.md`` (the question and its worked
        solution), ``<file>.json`` (the answers, as :meth:`Exercise.answers` gives them), a PDF
        as for :meth:`handouts`, and ``index.csv`` (student, id, email, file)."""
        return self._write(folder, pdf, overwrite, key=True)

    def _write(
        self, folder: str | os.PathLike[str], pdf: bool | None, overwrite: bool, key: bool
    ) -> list[Path]:
        folder = Path(folder)
        pdflatex = _pdflatex(pdf)
        suffixes = [".md"] + [".json"] * key + [".pdf"] * (pdflatex is not None)
        planned = [folder / f"{s.file}{x}" for s in self.students for x in suffixes]
        planned += [folder / "index.csv"] if key else []
        existing = next((p for p in planned if p.exists()), None)
        if existing is not None and not overwrite:
            raise FileExistsError(f"{printable(existing)} already exists")
        folder.mkdir(parents=True, exist_ok=True)
        with speaking(self.language):
            written = self._papers(folder, pdflatex, key)
        if key:
            written.append(self._written_index(folder))
        return written

    def _written_index(self, folder: Path) -> Path:
        """``index.csv`` of the keys: student, id, email, file."""
        path = folder / "index.csv"
        with path.open("w", newline="", encoding="utf-8") as handle:
            out = csv.writer(handle)
            out.writerow(["student", "id", "email", "file"])
            out.writerows(
                [csv_cell(s.name), csv_cell(s.id or ""), csv_cell(s.email or ""), s.file]
                for s in self.students
            )
        return path

    def _papers(self, folder: Path, pdflatex: str | None, key: bool) -> list[Path]:
        """Each student's handout or key (in the class's language)."""
        written = []
        for student in self.students:
            ex = self.exercise(student) if key else self._unsolved(student)  # (a handout: no key)
            path = folder / f"{student.file}.md"
            path.write_text(
                _key_markdown(ex, student, self) if key else _handout_markdown(ex, student, self),
                encoding="utf-8",
            )
            written.append(path)
            if key:
                path = folder / f"{student.file}.json"
                path.write_text(json.dumps(ex.answers(), indent=2) + "\n", encoding="utf-8")
                written.append(path)
            if pdflatex is not None:
                source = (
                    sheet_latex([ex], answers=True) if key else _handout_latex(ex, student, self)
                )
                written.append(_compile(pdflatex, source, folder / f"{student.file}.pdf"))
        return written

    # marks ---------------------------------------------------------------------------------
    def grade_answers(
        self, who: Student | str, answers: Mapping[str, object] | str | os.PathLike[str], *,
        weights: Mapping[str, object] | str | None = None, tolerance: float = TOLERANCE,
        language: str = "en",
    ) -> Grade:  # fmt: skip
        """Mark one student's answers (a mapping, or the path of a ``.json`` or ``.csv`` file)
        against their own exercise (:func:`~id3tree.classroom.grading.grade`); the feedback in
        ``language`` (English by default, whatever the handouts' language)."""
        exercise = self._unsolved(self.student(who))
        code = check_language(language)
        given: object = answers  # (or what the file holds)
        if not isinstance(answers, Mapping):
            try:
                given = read_answers(answers)
            except (TypeError, ValueError) as error:
                why = unreadable(error, code)
                return Grade(problem=why, weights=task_weights(weights), language=code)
        return grade(exercise, given, weights=weights, tolerance=tolerance, language=code)

    def grade(
        self, submissions: str | os.PathLike[str], *,
        weights: Mapping[str, object] | str | None = None, tolerance: float = TOLERANCE,
        language: str = "en",
    ) -> ClassGrades:  # fmt: skip
        """Mark a folder of handed-in answers: every file matched to its student (its name as a
        learning management system writes it, its student folder, or the ``student_id`` /
        ``student`` inside it), checked against that student's data, and marked. Every student
        of the roster has a row (no submission: 0). A file that cannot be read scores 0 and
        says why; a class that looks graded with the wrong secret or settings raises a
        :class:`~id3tree.classroom.results.SettingsMismatchWarning` (and sets ``suspect``).
        ``language`` is the language of the feedback and of the tables' words (English by
        default, whatever the handouts' language); the marks are the same in every language."""
        weights, tolerance = task_weights(weights), check_tolerance(tolerance)
        code = check_language(language)
        entries, others = scan(submissions)
        match_entries(entries, self.students)
        mine: dict[str, list[Entry]] = {s.key: [] for s in self.students}
        unmatched: list[tuple[str, str]] = []
        for entry in entries:
            if len(entry.students) == 1:
                mine[entry.students[0].key].append(entry)
            elif entry.students:
                names = ", ".join(printable(s.name) for s in entry.students)
                unmatched.append((entry.shown, f"could be any of {names}: rename it"))
            else:
                why = entry.problem or "matches no student of the roster"
                unmatched.append((entry.shown, why))
        with speaking(code):
            rows = [self._row(s, mine[s.key], others, weights, tolerance) for s in self.students]
        notes, suspect = class_warnings(rows, unmatched, self._settings)
        if suspect:
            warnings.warn(notes[0], SettingsMismatchWarning, stacklevel=2)
        return ClassGrades(rows, unmatched, others, notes, suspect, weights, code)

    def _row(
        self, student: Student, entries: list[Entry], others: list[str],
        weights: dict[str, float], tolerance: float,
    ) -> StudentGrade:  # fmt: skip
        """One student's row, in the language around it."""
        L = current()
        if not entries:
            seen = [o for o in others if match_file(Path(o).stem, self.students)[0] == [student]]
            extra = (
                " " + L.line("(found {files}: not a .json or .csv file)", files=", ".join(seen))
                if seen
                else ""
            )
            problem = L.gettext("no submission") + extra
            return StudentGrade(student, Grade(problem=problem, weights=weights, language=L.code))
        entry, note = pick(entries)
        flags = [note] if note else []
        if entry.said is not None and entry.said != student:
            flags.append(
                L.line(
                    "the answers name {said}, but the file is {student}'s",
                    said=str(entry.said),
                    student=printable(student.name),
                )  # fmt: skip
            )
        if entry.problem is not None:
            why = unreadable(f"{entry.shown} {entry.problem}", L.code)
            grade_ = Grade(problem=why, weights=weights, language=L.code)
        else:
            exercise = self._unsolved(student)
            grade_ = grade(
                exercise, entry.answers, weights=weights, tolerance=tolerance, language=L.code
            )
        return StudentGrade(student, grade_, entry.shown, flags)


def make_class(
    roster: Iterable[str | Student] | str | Path, *, kind: str = "mixed", n_rows: int = 12,
    secret: str | bytes, assignment: str = "",
    name_column: str | None = None, id_column: str | None = None, language: str = "en",
) -> Class:  # fmt: skip
    """A class from a roster: each student gets data of their own, drawn from the secret and
    their id (or name), the same every time for the same secret and settings.

    Parameters
    ----------
    roster : list of names, DataFrame, or path of a CSV file
        See :func:`~id3tree.classroom.roster.read_roster` (``name_column``, ``id_column`` name
        the columns when they are not found by their usual names).
    kind, n_rows
        As :func:`~id3tree.classroom.exercises.make_exercise`'s.
    secret : str or bytes
        At least 16 characters, kept by the teacher
        (:func:`~id3tree.classroom.roster.new_secret` makes one). Without it, nobody can make a
        student's data or key again.
    assignment : str
        A name for the assignment (``"week 3"``): with the same secret, each assignment gives
        every student new data. It heads the handouts.
    language : {"en", "es", "de"}, default="en"
        The language of the handouts and keys (the data, the marks and the answers' keys are
        the same in every language; the marks' feedback takes its own ``language`` in
        :meth:`Class.grade`).
    """
    check_settings(kind, n_rows)
    shipped_language(language)  # an unknown language is named before anything is drawn
    if not isinstance(assignment, str):
        raise ValueError(f"assignment must be text, got {type(assignment).__name__}")
    students = read_roster(roster, name_column=name_column, id_column=id_column)
    for s in students:
        student_entropy(secret, kind, n_rows, assignment, s)  # (checks the secret once, first)
        break

    def draw(student: Student) -> Exercise:
        entropy = student_entropy(secret, kind, int(n_rows), assignment, student)
        name = " ".join(student.name.split())
        return build_exercise(
            kind, int(n_rows), [entropy], None, name, solved=False, language=language
        )

    return Class(students, kind, int(n_rows), assignment, draw, language=language)


def class_by_seed(names: list[str], kind: str, n_rows: int, seed: int) -> Class:
    """The class ``id3tree grade`` marks: the students named by their files, each with
    ``make_exercise(kind, n_rows, seed, student=name)`` (public, for practice, not for marks)."""
    return Class(
        read_roster(names), kind, n_rows, "",
        lambda s: make_exercise(kind, n_rows, seed, student=s.name),  # (solved: it is public)
        "seed, kind or number of rows",
    )  # fmt: skip


# ---------------------------------------------------------------------------------------------
# the handout and the key
# ---------------------------------------------------------------------------------------------
def _heading(klass: Class) -> str:
    title = current().gettext("Decision trees with entropy")
    return title + (f": {klass.assignment}" if klass.assignment else "")


def _template(ex: Exercise, student: Student) -> dict[str, object]:
    """The answers to fill in: every key (English, as the marking reads them), with the
    student's features, and a sketch of a tree whose placeholders are in the page's language."""
    L = current()
    out: dict[str, object] = {"student_id": student.id} if student.id else {"student": student.name}
    out["root_entropy"] = None
    if ex.numeric:
        each = L.gettext("<each candidate threshold>")
        out["thresholds"] = {f: {each: None} for f in ex.numeric}
        out["best_thresholds"] = dict.fromkeys(ex.numeric)
    out["gains"] = dict.fromkeys(map(str, ex.X.columns))
    out["root_feature"] = None
    branch = L.gettext("<a value, or <= and > for a number>")
    out["tree"] = {
        "feature": L.gettext("<the root's feature>"),
        "branches": {branch: {"entropy": None, "predict": L.gettext("<a class>")}},
    }
    return out


_HAND_IN = N_(
    "Hand in one file, `answers.json`, with your numbers in place of the `null`s (four decimals "
    'are plenty; a fraction such as "5/14" is read too). In `tree`, a node that splits is '
    '`{"entropy", "feature", "branches"}` (with `"threshold"` for a number, whose branches are '
    '`"<="` and `">"`), a leaf is `{"entropy", "predict"}`; the root\'s entropy is the first '
    "answer. A CSV file `answers.csv` of rows `question,answer` is read too (`gains/Weather,0.02`)."
)


def _handout_markdown(ex: Exercise, student: Student, klass: Class) -> str:
    L = current()
    who = markdown_text(student.name) + (f" ({markdown_text(student.id)})" if student.id else "")
    template = json.dumps(_template(ex, student), indent=2, ensure_ascii=False)
    code = "\n".join("    " + line for line in template.splitlines())  # (an indented block: inert)
    yours = L.gettext("these data are yours alone; every student has their own.")
    return (
        f"# {markdown_text(_heading(klass))}\n\n**{who}**: {yours}\n\n{ex.question}\n"
        f"## {L.gettext('Handing in')}\n\n{L.gettext(_HAND_IN)}\n\n{code}\n"
    )


def _handout_latex(ex: Exercise, student: Student, klass: Class) -> str:
    L = current()
    who = latex_escape(student.name) + (f" ({latex_escape(student.id)})" if student.id else "")
    lines = json.dumps(_template(ex, student), indent=2, ensure_ascii=False).splitlines()
    code = "\\\\\n".join(
        f"\\hspace*{{{len(line) - len(line.lstrip())}ex}}{latex_escape(line.strip())}"
        for line in lines
    )
    yours = latex_escape(L.gettext("these data are yours alone; every student has their own."))
    hand_in = latex_escape(L.gettext(_HAND_IN).replace("`", ""))
    body = (
        f"\\textbf{{{who}}}: {yours}\n\n{ex.question_latex()}\n"
        f"\\subsection*{{{latex_escape(L.gettext('Handing in'))}}}\n{hand_in}\n\n"
        f"{{\\ttfamily\\small\\noindent {code}\\par}}"
    )
    return latex_document(body, _heading(klass))


def _key_markdown(ex: Exercise, student: Student, klass: Class) -> str:
    L = current()
    who = markdown_text(student.name) + (f" ({markdown_text(student.id)})" if student.id else "")
    answers = "\n".join("    " + line for line in json.dumps(ex.answers(), indent=2).splitlines())
    solved = L.gettext("Worked solution")
    solution = str(ex.solution).replace(f"## {solved}", f"### {solved}")
    key = L.line("{heading}: key", heading=markdown_text(_heading(klass)))
    laid_out = L.gettext("The answers, as a submission lays them out")
    return f"# {key}\n\n**{who}**\n\n{ex.question}\n{solution}\n### {laid_out}\n\n{answers}\n"


def _pdflatex(pdf: bool | None) -> str | None:
    found = shutil.which("pdflatex")
    if pdf and found is None:
        raise ValueError("pdf=True, but pdflatex is not installed (install a TeX distribution)")
    return None if pdf is False else found


def _compile(pdflatex: str, source: str, target: Path) -> Path:
    with tempfile.TemporaryDirectory() as work:
        tex = Path(work) / "handout.tex"
        tex.write_text(source, encoding="utf-8")
        command = [
            pdflatex,
            "-interaction=nonstopmode",
            "-halt-on-error",
            "-no-shell-escape",
            tex.name,
        ]
        try:
            done = subprocess.run(command, cwd=work, capture_output=True, timeout=120, check=False)
        except subprocess.TimeoutExpired:
            raise RuntimeError(
                f"pdflatex took over 2 minutes on {printable(target.name)}"
            ) from None
        made = Path(work) / "handout.pdf"
        if done.returncode != 0 or not made.exists():
            log = done.stdout.decode("utf-8", "replace").strip().splitlines()[-5:]
            raise RuntimeError(f"pdflatex failed on {printable(target.name)}: " + " / ".join(log))
        shutil.copyfile(made, target)
    return target
