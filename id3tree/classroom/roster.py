"""Who is in a class, what keeps their data secret, and whose file is whose.

* :func:`read_roster`: a class list from names, or from a CSV file as a learning management
  system exports it (a name column, or first and last names; an id, an email);
* :func:`new_secret` and :func:`read_secret`: the teacher's secret, from which every student's
  data is drawn (:func:`student_entropy`: HMAC-SHA256 of the student's id under the secret, so
  that nobody without the secret can make a student's data or key);
* :func:`match_file`: the student a handed-in file belongs to, from its name as Moodle, Canvas,
  Blackboard or Brightspace write it, or from its own name (``alice.json``, ``Alice Martin -
  answers.json``), or from a student id among its words.
"""

from __future__ import annotations

import csv
import hashlib
import hmac
import io
import os
import re
import secrets
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from id3tree.classroom.text import printable

__all__ = [
    "MIN_SECRET", "Student", "match_file", "name_in_file", "new_secret", "read_roster",
    "read_secret", "student_entropy",
]  # fmt: skip

MIN_SECRET = 16
"""The fewest characters a secret may have (a short one could be guessed from a student's data)."""

_NAME_COLUMNS = ("name", "student", "student name", "full name", "fullname", "display name")
_FIRST = ("first name", "firstname", "given name", "first")
_LAST = ("last name", "lastname", "surname", "family name", "last")
_ID_COLUMNS = (
    "id", "student id", "studentid", "sid", "id number", "student number", "sis user id",
    "username", "user name", "login", "login id", "sis login id", "user id", "matriculation number",
)  # fmt: skip
_EMAIL_COLUMNS = ("email", "email address", "e-mail", "e-mail address")
_WINDOWS_NAMES = {"con", "prn", "aux", "nul"} | {
    f"{d}{i}" for d in ("com", "lpt") for i in range(10)
}


@dataclass(frozen=True)
class Student:
    """One student of a class: ``name``, and an ``id`` and ``email`` when the roster has them.
    ``file`` is the stem of the student's handout and key files (unique in the class)."""

    name: str
    id: str | None = None
    email: str | None = None
    file: str = ""

    @property
    def key(self) -> str:
        """What the student's data is drawn from, with the secret: the id, or else the name
        (case and spacing aside), so that a roster whose names are corrected keeps its data."""
        if self.id:
            return "id:" + self.id.strip()
        return "name:" + " ".join(self.name.split()).casefold()

    def __str__(self) -> str:
        return printable(self.name if not self.id else f"{self.name} ({self.id})")


# ---------------------------------------------------------------------------------------------
# secrets
# ---------------------------------------------------------------------------------------------
def new_secret() -> str:
    """A new random secret (43 characters from :mod:`secrets`): keep it, privately, for the
    whole unit."""
    return secrets.token_urlsafe(32)


def _secret_bytes(secret: str | bytes) -> bytes:
    if isinstance(secret, str):
        secret = secret.strip().encode("utf-8")
    if not isinstance(secret, bytes):
        raise ValueError(f"secret must be text or bytes, got {type(secret).__name__}")
    if len(secret) < MIN_SECRET:
        raise ValueError(
            f"the secret has {len(secret)} characters: at least {MIN_SECRET} are needed to keep "
            "the students' data secret (make one with new_secret(), or `id3tree class secret "
            "FILE`)"
        )
    return secret


def read_secret(path: str | os.PathLike[str]) -> str:
    """The secret kept in a file (its text, surrounding spaces and line ends left out)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig").strip()
    except FileNotFoundError:
        raise ValueError(f"the secret file {printable(path)} does not exist") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"cannot read the secret file {printable(path)}: {error}") from None
    _secret_bytes(text)
    return text


def student_entropy(
    secret: str | bytes, kind: str, n_rows: int, assignment: str, student: Student
) -> int:
    """The 256-bit number a student's exercise is drawn from: HMAC-SHA256, under the secret, of
    the settings and the student's :attr:`Student.key`. Without the secret it cannot be found
    from anything a handout shows."""
    message = "\x1f".join(["id3tree class 1", kind, str(n_rows), assignment, student.key])
    digest = hmac.new(_secret_bytes(secret), message.encode("utf-8"), hashlib.sha256).digest()
    return int.from_bytes(digest, "big")


# ---------------------------------------------------------------------------------------------
# the roster
# ---------------------------------------------------------------------------------------------
def _header(text: str) -> str:
    return " ".join(str(text).replace("_", " ").split()).casefold()


def _column(header: list[str], wanted: Iterable[str], option: str | None) -> int | None:
    names = [_header(h) for h in header]
    if option is not None:
        if _header(option) not in names:
            raise ValueError(
                f"the roster has no column {option!r} (its columns: {', '.join(header)})"
            )
        return names.index(_header(option))
    return next((names.index(w) for w in wanted if w in names), None)


def _rows(path: Path) -> list[list[str]]:
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ValueError(
            f"the roster {printable(path)} is not UTF-8 text; save it as UTF-8"
        ) from None
    except OSError as error:
        raise ValueError(
            f"cannot read the roster {printable(path)}: {error.strerror or error}"
        ) from None
    first = text.split("\n", 1)[0]
    delimiter = max(",;\t", key=first.count) if any(d in first for d in ",;\t") else ","
    rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))
    return [[c.strip() for c in r] for r in rows if any(c.strip() for c in r)]


def _from_table(
    rows: list[list[str]], name_column: str | None, id_column: str | None
) -> list[Student]:
    header = rows[0]
    known = {_header(h) for h in header} & {
        *_NAME_COLUMNS,
        *_FIRST,
        *_LAST,
        *_ID_COLUMNS,
        *_EMAIL_COLUMNS,
    }
    if not known and name_column is None:
        if len(header) == 1:  # one name per line, no header
            return [Student(r[0]) for r in rows]
        raise ValueError(
            f"cannot tell which column of the roster holds the names (its first line: "
            f"{printable(', '.join(header))}); name it with name_column= (--name-column)"
        )
    name = _column(header, _NAME_COLUMNS, name_column)
    first, last = _column(header, _FIRST, None), _column(header, _LAST, None)
    ident = _column(header, _ID_COLUMNS, id_column)
    email = _column(header, _EMAIL_COLUMNS, None)
    if name is None and (first is None or last is None):
        raise ValueError(
            f"the roster has no name column (name, student, or first and last name; its columns: "
            f"{printable(', '.join(header))})"
        )
    out = []
    for number, row in enumerate(rows[1:], start=2):
        padded = [*row, *[""] * len(header)]
        cell: dict[int | None, str] = {
            i: padded[i] for i in (name, first, last, ident, email) if i is not None
        }
        cell[None] = ""
        full = cell[name] if name is not None else f"{cell[first]} {cell[last]}".strip()
        if full.casefold() == "points possible":  # (the second line of a Canvas gradebook)
            continue
        if not full:
            raise ValueError(f"the roster's line {number} has no name")
        out.append(Student(full, cell[ident] or None, cell[email] or None))
    return out


def read_roster(
    roster: Iterable[str | Student] | str | Path, *, name_column: str | None = None,
    id_column: str | None = None,
) -> list[Student]:  # fmt: skip
    """The students of a class, in the roster's order, each with a unique file stem.

    ``roster`` is a list of names (or :class:`Student`), a pandas DataFrame, or the path of a CSV
    file with a header, as a learning management system exports it: the names from a column
    ``name`` (``student``, ``full name``, ...) or ``first name`` and ``last name``, the ids from
    ``id`` (``student id``, ``sid``, ``username``, ...), the emails from ``email``; ``,``, ``;``
    or tabs between cells. A file of one name per line (no header) is read too. Two students
    may share a name only if they have ids.
    """
    if isinstance(roster, (str, Path)):
        path = Path(roster)
        if not path.is_file():
            raise ValueError(
                f"the roster should be a list of names or a CSV file; {printable(roster)} is not a file"
            )
        rows = _rows(path)
        if not rows:
            raise ValueError(f"the roster {printable(path)} is empty")
        students = _from_table(rows, name_column, id_column)
    elif hasattr(roster, "columns") and hasattr(roster, "itertuples"):  # a DataFrame
        frame: Any = roster
        table = frame.astype(object).where(frame.notna(), "")
        rows = [[str(c) for c in frame.columns]]
        rows += [[str(v).strip() for v in r] for r in table.itertuples(index=False)]
        students = _from_table(rows, name_column, id_column)
    else:
        try:
            items = list(roster)
        except TypeError:
            raise ValueError(f"the roster should be a list of names, got {roster!r}") from None
        students = [s if isinstance(s, Student) else Student(_name(s)) for s in items]
    return _checked(students)


def _name(value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"each student must be a non-empty name, got {value!r}")
    return value.strip()


def _checked(students: list[Student]) -> list[Student]:
    if not students:
        raise ValueError("the roster holds no student")
    by_key: dict[str, Student] = {}
    for s in students:
        if s.key in by_key:
            what = f"the id {s.id!r}" if s.id else f"the name {printable(s.name)!r}"
            raise ValueError(
                f"two students of the roster have {what}"
                + ("" if s.id else ": give the roster an id column to tell them apart")
            )
        by_key[s.key] = s
    stems: set[str] = set()
    out = []
    for s in students:
        stem = slug(s.name)
        if stem in stems and s.id:
            stem = f"{stem}-{slug(s.id)}"
        base, n = stem, 2
        while stem in stems:
            stem, n = f"{base}-{n}", n + 1
        stems.add(stem)
        out.append(Student(s.name, s.id, s.email, stem))
    return out


def slug(text: str) -> str:
    """A file stem made of ``text``'s letters and digits (ASCII, lower case, ``-`` between
    words): ``Zoé O'Brien`` is ``zoe-o-brien``; ``student`` when nothing is left."""
    ascii_text = unicodedata.normalize("NFKD", str(text)).encode("ascii", "ignore").decode()
    stem = "-".join(re.findall(r"[a-z0-9]+", ascii_text.casefold()))[:60].strip("-")
    if not stem or stem in _WINDOWS_NAMES:
        stem = f"student-{stem}" if stem else "student"
    return stem


# ---------------------------------------------------------------------------------------------
# whose file is it
# ---------------------------------------------------------------------------------------------
_LMS = [
    re.compile(
        r"^(?P<name>.+?)_\d+_assignsubmission_"
    ),  # Moodle: Alice Martin_123_assignsubmission_file_
    re.compile(
        r"^(?P<name>[^_]+?)(?:_LATE)?_(?P<id>\d+)_\d+(?:_|$)"
    ),  # Canvas: martinalice_LATE_12_34_
    re.compile(
        r"^.*?_(?P<id>[^_]+)_attempt_\d{4}-\d{2}-\d{2}"
    ),  # Blackboard: Lab_amartin_attempt_2025-
    re.compile(r"^\d+-\d+ - (?P<name>.+?) - "),  # Brightspace: 123-456 - Alice Martin - Jan 5, ...
]


def squash(text: object) -> str:
    """``text``'s letters and digits only, accents and case aside: how names are compared."""
    folded = unicodedata.normalize("NFKD", str(text)).casefold()
    return "".join(ch for ch in folded if ch.isalnum())


def name_forms(student: Student) -> set[str]:
    """How a student's name may be written in a file's name: the name with its words in any
    rotation (``Alice Martin``, ``Martin Alice``: Canvas writes ``martinalice``)."""
    words = re.split(r"[\s,]+", student.name.strip())
    words = [w for w in words if w]
    forms = {squash("".join(words[i:] + words[:i])) for i in range(len(words))}
    return {f for f in forms if f}


def id_forms(student: Student) -> set[str]:
    forms: set[str] = set()
    if student.id:
        forms.add(squash(student.id))
    if student.email:
        forms |= {squash(student.email), squash(student.email.split("@")[0])}
    return {f for f in forms if f}


def name_in_file(stem: str) -> str:
    """The student a file's name names, as it is written there: the name (or user id) part of
    a learning management system's file name, or else the whole stem (``alice (1)`` is
    ``alice``)."""
    stem = re.sub(r"\s*\(\d+\)$", "", stem)
    for pattern in _LMS:
        found = pattern.match(stem)
        if found:
            return (found.groupdict().get("name") or found.group("id")).strip()
    return stem.strip()


def match_file(stem: str, students: list[Student]) -> tuple[list[Student], str]:
    """The students a file's name (its stem, or its folder's name) points to, and how
    (``"name"``, ``"id"``, or ``""`` when none): one student is a match, several an
    ambiguity."""
    names: dict[str, list[Student]] = {}
    ids: dict[str, list[Student]] = {}
    for s in students:
        for form in name_forms(s):
            names.setdefault(form, []).append(s)
        for form in id_forms(s):
            ids.setdefault(form, []).append(s)
    stem = re.sub(r"\s*\(\d+\)$", "", stem)  # alice (1).json: a second download
    for pattern in _LMS:
        found = pattern.match(stem)
        if found:
            parts = found.groupdict()
            if parts.get("id") and squash(parts["id"]) in ids:
                return ids[squash(parts["id"])], "id"
            if parts.get("name") and squash(parts["name"]) in names:
                return names[squash(parts["name"])], "name"
    if squash(stem) in names:
        return names[squash(stem)], "name"
    words = {squash(w) for w in re.split(r"[\s_.\-]+", stem) if w}
    by_id = {s.key: s for w in words for s in ids.get(w, [])}
    if by_id:
        return list(by_id.values()), "id"
    pieces = re.split(r"\s+-\s+|_", stem)  # Alice Martin - answers, alice_answers
    by_name = {s.key: s for p in pieces for s in names.get(squash(p), [])}
    return list(by_name.values()), "name" if by_name else ""
