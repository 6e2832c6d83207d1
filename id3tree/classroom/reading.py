"""Reading what a student hands in, whatever it is: an answers file, and the numbers in it.

Nothing a student hands in may stop a class being graded, so every way a file can fail is a
:class:`ValueError` that names the file and says why, never a traceback or a hang:

* only a regular file is opened (a folder named ``x.json``, a link to nothing, a pipe, which
  would block the reader, or a device is refused by its kind, before any read), and at most
  :data:`MAX_BYTES` of it;
* the text is UTF-8 (a byte-order mark is allowed, and UTF-16 with one, as some spreadsheets
  save CSV); JSON nested deeper than :data:`MAX_DEPTH` levels is refused; a CSV cell may be as
  long as the file;
* a number is read from its text without building an exact value first: ``1e400`` and
  ``1e99999999`` are not finite, so they are wrong answers, and an integer of a thousand digits
  is not parsed at all. ``0.971``, ``"0.971"``, ``"0,971"`` and ``"5/14"`` are all read.

>>> number("5/14"), number(" 0,5 "), number(1)
(0.35714285714285715, 0.5, 1.0)
>>> number("1e99999999")
Traceback (most recent call last):
...
id3tree.classroom.reading.NotAnswer: a finite number was expected, got 1e99999999
"""

from __future__ import annotations

import codecs
import csv
import io
import json
import math
import os
import re
import stat
from collections.abc import Iterable, Mapping
from pathlib import Path

from id3tree.base.language import N_, current
from id3tree.classroom.text import printable, shown

__all__ = [
    "MAX_BYTES", "MAX_DEPTH", "NotAnswer", "answers_to_rows", "file_problem", "name", "number",
    "read_answers", "rows_to_answers", "same",
]  # fmt: skip

MAX_BYTES = 1_000_000
"""The largest answers file read (an answers file is a few kilobytes)."""

MAX_DEPTH = 64
"""The deepest nesting of answers read (a tree of the exercises is at most 4 levels deep)."""

_DECIMAL = r"[+-]?(?:\d+(?:[.,]\d*)?|[.,]\d+)(?:[eE][+-]?\d+)?"
_NUMBER = re.compile(rf"({_DECIMAL})")
_FRACTION = re.compile(rf"({_DECIMAL})\s*/\s*({_DECIMAL})")
_LONGEST_NUMBER = 100  # characters: anything longer is not a number a student worked out
_TOO_DEEP = object()


class NotAnswer(ValueError):
    """An answer that is not of the kind asked for (the message says what was expected)."""


def _expected(message: str, value: object) -> str:
    """Why ``value`` is not an answer, in the language around it (the answer quoted as given)."""
    return current().line(message, given=shown(value))


def _decimal(text: str) -> float:
    if "," in text and "." not in text:  # a decimal comma: 0,971
        text = text.replace(",", ".")
    return float(text)  # (float reads an exponent in constant time: 1e99999999 is inf)


def number(value: object) -> float:
    """A student's number as a finite float; :class:`NotAnswer` saying why when it is not one."""
    if isinstance(value, bool) or value is None:
        raise NotAnswer(_expected(N_("a number was expected, got {given}"), value))
    if isinstance(value, int):
        try:
            result = float(value)
        except OverflowError:
            raise NotAnswer(
                current().gettext("a finite number was expected, got an integer too large")
            ) from None
    elif isinstance(value, float):
        result = value
    elif isinstance(value, str):
        text = value.strip()
        whole = _NUMBER.fullmatch(text) if len(text) <= _LONGEST_NUMBER else None
        parts = _FRACTION.fullmatch(text) if len(text) <= _LONGEST_NUMBER else None
        if whole:
            result = _decimal(text)
        elif parts:
            top, bottom = (_decimal(p) for p in parts.groups())
            if bottom == 0 or not math.isfinite(top) or not math.isfinite(bottom):
                raise NotAnswer(_expected(N_("a finite number was expected, got {given}"), value))
            result = top / bottom
        elif text.casefold().lstrip("+-") in ("inf", "infinity", "nan"):
            raise NotAnswer(_expected(N_("a finite number was expected, got {given}"), value))
        elif re.fullmatch(r"[+-]?[0-9.,eE+-]+", text):  # digits, more than any float holds
            raise NotAnswer(_expected(N_("a finite number was expected, got {given}"), value))
        else:
            raise NotAnswer(_expected(N_("a number was expected, got {given}"), value))
    else:
        raise NotAnswer(_expected(N_("a number was expected, got {given}"), value))
    if not math.isfinite(result):
        raise NotAnswer(_expected(N_("a finite number was expected, got {given}"), value))
    return result


def same(a: object, b: object) -> bool:
    """Two names are the same without regard to case or surrounding spaces."""
    return str(a).strip().casefold() == str(b).strip().casefold()


def name(value: object) -> str:
    """A student's name of a feature, value or class, stripped."""
    if isinstance(value, (str, int, float)) and not isinstance(value, bool):
        return str(value).strip()
    raise NotAnswer(_expected(N_("a name was expected, got {given}"), value))


# ---------------------------------------------------------------------------------------------
# files
# ---------------------------------------------------------------------------------------------
def file_problem(path: str | os.PathLike[str]) -> str | None:
    """Why ``path`` cannot be an answers file, from its kind and size alone (nothing is opened),
    or None."""
    path = Path(path)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return "is a link to a file that does not exist" if path.is_symlink() else "is gone"
    except OSError as error:
        return f"cannot be read ({error.strerror or error})"
    if stat.S_ISDIR(info.st_mode):
        return "is a folder, not a file"
    if not stat.S_ISREG(info.st_mode):
        kind = "a pipe" if stat.S_ISFIFO(info.st_mode) else "a socket or a device"
        return f"is {kind}, not a file"
    if info.st_size > MAX_BYTES:
        return f"holds {info.st_size:,} bytes: an answers file holds at most {MAX_BYTES:,}"
    return None


def _read_bytes(path: Path) -> bytes:
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    handle = os.open(path, flags)  # (non-blocking: a pipe put in its place never hangs us)
    try:
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            raise ValueError("is not a file")
        with os.fdopen(handle, "rb", closefd=False) as stream:
            data = stream.read(MAX_BYTES + 1)
    finally:
        os.close(handle)
    if len(data) > MAX_BYTES:
        raise ValueError(f"holds more than {MAX_BYTES:,} bytes")
    return data


def _text(data: bytes) -> str:
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            raise ValueError("is not valid UTF-16 text") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ValueError(f"is not UTF-8 text (byte {error.start + 1}); save it as UTF-8") from None


def _depth(value: object) -> int:
    """How deep ``value`` nests (without recursion: it may nest deeper than Python can)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        children: Iterable[object]
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, level)
        if deepest > MAX_DEPTH:
            break
        stack.extend((child, level + 1) for child in children)
    return deepest


def _json(text: str) -> object:
    try:
        answers = json.loads(
            text,
            parse_int=lambda s: int(s) if len(s) <= 30 else s,  # (a long integer stays text)
            parse_float=lambda s: float(s) if math.isfinite(float(s)) else s,
            parse_constant=str,  # NaN, Infinity: text, marked as not finite
        )
    except json.JSONDecodeError as error:
        raise ValueError(
            f"is not valid JSON: line {error.lineno}, column {error.colno}: {error.msg}"
        ) from None
    except RecursionError:
        answers = _TOO_DEEP
    if answers is _TOO_DEEP or _depth(answers) > MAX_DEPTH:
        raise ValueError(f"nests deeper than {MAX_DEPTH} levels")
    return answers


def _csv(text: str) -> dict[str, object]:
    limit = csv.field_size_limit()
    try:
        csv.field_size_limit(max(limit, MAX_BYTES + 1))  # (a cell may be as long as the file)
        rows = [r for r in csv.reader(io.StringIO(text, newline="")) if any(c.strip() for c in r)]
    except csv.Error as error:
        raise ValueError(f"is not valid CSV: {error}") from None
    finally:
        csv.field_size_limit(limit)
    if not rows or [c.strip().lower() for c in rows[0][:2]] != ["question", "answer"]:
        raise ValueError("should start with the header question,answer")
    for i, row in enumerate(rows[1:], start=2):
        if len(row) != 2:
            raise ValueError(f"line {i}: expected 2 cells (question,answer), got {len(row)}")
    return rows_to_answers((q, a.strip() or None) for q, a in rows[1:])


def read_answers(path: str | os.PathLike[str]) -> object:
    """A student's answers from a ``.json`` file (one object) or a ``.csv`` file.

    The CSV file has a header ``question,answer`` and one row per answer: the question is the
    answer's place in the JSON layout with its parts separated by ``/`` (``root_entropy``,
    ``gains/Weather``, ``thresholds/Hours/4.5``, ``tree/branches/Sunny/predict``). Raises
    ValueError, naming the file (and the row), when the file cannot be read; see the module for
    what is refused.
    """
    path = Path(path)
    label = printable(path.name)
    try:
        problem = file_problem(path)
        if problem is not None:
            raise ValueError(problem)
        text = _text(_read_bytes(path))
        return _json(text) if path.suffix.lower() == ".json" else _csv(text)
    except OSError as error:
        raise ValueError(f"{label} cannot be read ({error.strerror or error})") from None
    except ValueError as error:
        raise ValueError(f"{label} {error}") from None


def rows_to_answers(rows: Iterable[tuple[object, object]]) -> dict[str, object]:
    """``(question, answer)`` rows as nested answers: the question ``gains/Weather`` is
    ``answers["gains"]["Weather"]`` (parts separated by ``/``)."""
    out: dict[str, object] = {}
    for i, (question, answer) in enumerate(rows, start=1):
        parts = [p.strip() for p in str(question).split("/", MAX_DEPTH)]
        if not all(parts):
            raise ValueError(f"row {i}: the question {shown(question)} has an empty part")
        if len(parts) > MAX_DEPTH:
            raise ValueError(f"row {i}: the question nests deeper than {MAX_DEPTH} levels")
        place = out
        for depth, part in enumerate(parts[:-1]):
            inner = place.setdefault(part, {})
            if not isinstance(inner, dict):
                where = shown("/".join(parts[: depth + 1]))
                raise ValueError(f"row {i}: {where} already has an answer of its own")
            place = inner
        if parts[-1] in place:
            raise ValueError(f"row {i}: {shown(question)} is answered twice")
        place[parts[-1]] = answer
    return out


def answers_to_rows(answers: Mapping[str, object], prefix: str = "") -> list[tuple[str, object]]:
    """The answers as ``(question, answer)`` rows (the inverse of :func:`rows_to_answers`)."""
    rows = []
    for key, value in answers.items():
        question = f"{prefix}{key}"
        if isinstance(value, Mapping):
            rows.extend(answers_to_rows(value, question + "/"))
        else:
            rows.append((question, value))
    return rows
