"""A folder of handed-in answers, file by file, each matched to its student.

A folder as a learning management system gives it: answer files at the top, or one folder per
student (Moodle's "download in folders", Gradescope's ``submission_123``), with names such as
``Alice Martin_123_assignsubmission_file_answers.json``. Every ``.json`` and ``.csv`` entry
becomes an :class:`Entry`, whatever it is (a folder named ``x.json``, a link to nothing, a pipe:
each gets the reason it cannot be read, and nothing is opened that could block); other files
are listed apart, so that a student who handed in ``answers.txt`` is told why it was not marked.
Hidden files (``.DS_Store``) and ``__MACOSX`` folders are left out.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from id3tree.classroom.reading import file_problem, read_answers, same
from id3tree.classroom.roster import Student, match_file, name_in_file
from id3tree.classroom.text import printable

__all__ = ["Entry", "SUFFIXES", "match_entries", "pick", "scan", "student_names"]

SUFFIXES = (".json", ".csv")


@dataclass
class Entry:
    """One handed-in file: its ``path``, the name it is shown by (``shown``, escaped), the
    student(s) its name points to, its ``answers`` once read or the ``problem`` reading it."""

    path: Path
    shown: str
    folder: str | None = None  # the student folder it is in, if any
    problem: str | None = None
    answers: object = None
    students: list[Student] = field(default_factory=list)
    how: str = ""  # "name", "id" or "content": how it was matched
    said: Student | None = None  # the student the answers themselves name, if any

    @property
    def time(self) -> float:
        try:
            return os.lstat(self.path).st_mtime
        except OSError:
            return 0.0


def _hidden(name: str) -> bool:
    return name.startswith(".") or name == "__MACOSX"


def _entries_of(folder: Path, inside: str | None) -> tuple[list[Entry], list[str]]:
    entries: list[Entry] = []
    others: list[str] = []
    for path in sorted(folder.iterdir(), key=lambda p: p.name):
        if _hidden(path.name):
            continue
        shown = printable(path.name if inside is None else f"{inside}/{path.name}")
        if path.suffix.lower() in SUFFIXES:
            entries.append(Entry(path, shown, inside, file_problem(path)))
        elif inside is None and path.is_dir() and not path.is_symlink():
            found, rest = _entries_of(path, path.name)
            if not found:
                what = (
                    f" (it holds {', '.join(rest[:3])}{', ...' * (len(rest) > 3)})" if rest else ""
                )
                entries.append(
                    Entry(path, shown, path.name, f"is a folder with no .json or .csv file{what}")
                )
            entries += found
        else:
            others.append(shown)
    return entries, others


def scan(submissions: str | os.PathLike[str]) -> tuple[list[Entry], list[str]]:
    """The entries of a folder of submissions (and of each student folder in it), and the names
    of the other files found; every entry read that can be (its ``answers`` or ``problem``)."""
    folder = Path(submissions)
    if not folder.is_dir():
        raise ValueError(f"{printable(submissions)} is not a folder of answers")
    entries, others = _entries_of(folder, None)
    for entry in entries:
        if entry.problem is None:
            try:
                entry.answers = read_answers(entry.path)
            except ValueError as error:
                entry.problem = str(error).removeprefix(printable(entry.path.name)).strip()
    return entries, others


def _named_inside(answers: object, students: list[Student]) -> Student | None:
    """The student the answers name in ``student_id`` or ``student`` (if one of the roster)."""
    if not isinstance(answers, dict):
        return None
    ident, name = answers.get("student_id"), answers.get("student")
    if isinstance(ident, (str, int)) and not isinstance(ident, bool):
        found = [s for s in students if s.id is not None and same(s.id, ident)]
        if len(found) == 1:
            return found[0]
    if isinstance(name, str):
        found = [s for s in students if same(" ".join(s.name.split()), " ".join(name.split()))]
        if len(found) == 1:
            return found[0]
    return None


def match_entries(entries: list[Entry], students: list[Student]) -> None:
    """Match each entry to its student: by its folder's name, then its own name (the usual
    learning-management-system patterns), then by the student the answers name inside."""
    for entry in entries:
        entry.said = _named_inside(entry.answers, students)
        for stem in ([entry.folder] if entry.folder else []) + [entry.path.stem]:
            entry.students, entry.how = match_file(stem, students)
            if entry.students:
                break
        if not entry.students and entry.said is not None:
            entry.students, entry.how = [entry.said], "content"


def pick(entries: list[Entry]) -> tuple[Entry, str]:
    """The entry marked for a student who handed in several, and a note saying so: the newest
    one that can be read (by its time, then its name)."""
    if len(entries) == 1:
        return entries[0], ""
    readable = [e for e in entries if e.problem is None] or entries
    chosen = max(readable, key=lambda e: (e.time, e.shown))
    names = ", ".join(e.shown for e in entries)
    return (
        chosen,
        f"{len(entries)} files handed in ({names}): marked the newest readable one, {chosen.shown}",
    )


def student_names(entries: list[Entry]) -> list[str]:
    """The students a folder's files name (each once, as first written), for a class made of
    whoever handed in: a name that is blank or not UTF-8 names no one (its file is unmatched)."""
    names: dict[str, str] = {}
    for entry in entries:
        name = name_in_file(entry.folder or entry.path.stem)
        try:
            name.encode("utf-8")
        except UnicodeEncodeError:
            continue
        if name and name.isprintable():
            names.setdefault(" ".join(name.split()).casefold(), name)
    return list(names.values())
