"""How numbers, counts and plurals are written, everywhere id3tree prints: a threshold as people
write it, class counts as ``No: 5, Yes: 9``, and the column forms that write thousands of them
at once from tables of texts (the trace's page prints some 100,000 numbers for 10,000 rows)."""

from __future__ import annotations

import math
import numbers
import re
from itertools import repeat
from typing import Any

import numpy as np

from id3tree.base.entropy import tie_rule
from id3tree.base.language import current


def tie_order() -> str:
    """The order that breaks a tie between features, in words: ``column order``, or
    ``alphabetical order`` with ``ties="name"`` (:func:`~id3tree.base.entropy.tie_rule`)."""
    L = current()
    return L.gettext("alphabetical order") if tie_rule() == "name" else L.gettext("column order")


__all__ = [
    "class_name", "count_texts", "counts_texts", "format_count", "format_counts", "format_number",
    "LONG_COLUMN", "MIN_SIGNIFICANT", "number_pieces", "number_texts", "places", "plural",
    "plural_words", "printable", "rounded_units", "tie_order",
]  # fmt: skip


def format_number(value: float, decimals: int | None = None) -> str:
    """A threshold as people write it: ``2.45``, not ``2.4500000000000002``; rounded to
    ``decimals`` digits after the point when given (the model keeps the exact value), or to
    more where those would round a number that is not 0 to 0 (:func:`places`): ``5e-10``,
    ``2.5e-09`` and ``3.5e-09`` never all print as ``0``.

    >>> format_number(28.85625), format_number(28.85625, 3), format_number(2.45, 3)
    ('28.85625', '28.856', '2.45')
    >>> format_number(5e-10, 4), format_number(2.5e-9, 4), format_number(0.00045, 4)
    ('5e-10', '2.5e-09', '0.0004')
    """
    if decimals is not None:
        value = round(float(value), places(value, decimals))
    return f"{value + 0.0:.10g}"  # + 0.0: never "-0"


MIN_SIGNIFICANT = 2
"""A number that rounding to a number of places would make 0 is written to this many
significant digits instead: enough to tell ``2.5e-09`` from ``3.5e-09``. Every other number is
rounded as asked, so a number that printed as something other than 0 prints as before."""


def places(value: float, decimals: int) -> int:
    """The places after the point that :func:`format_number` rounds ``value`` to: ``decimals``,
    or, for a number that is not 0 but rounds to 0 at ``decimals`` places, the places that keep
    :data:`MIN_SIGNIFICANT` of its significant digits.

    >>> places(28.85625, 4), places(0.00045, 4), places(0.00004, 4), places(5e-10, 4)
    (4, 4, 6, 11)
    """
    value = float(value)
    if value == 0 or not math.isfinite(value) or round(value, decimals) != 0:
        return decimals
    return max(decimals, MIN_SIGNIFICANT - 1 - math.floor(math.log10(abs(value))))


def class_name(c: Any) -> str:
    """A class as the trace, the text and the drawings write it: ``Yes``, or ``class 0`` when the
    classes are numbers (a bare ``0 549`` reads like two numbers)."""
    if isinstance(c, (bool, np.bool_)) or not isinstance(c, (numbers.Number, np.number)):
        return str(c)
    L = current()
    return f"class {c}" if L.english else L.line("class {name}", name=str(c))


def printable(text: str) -> str:
    """``text`` with its control and line-break characters written as escapes (``\\n``,
    ``\\x00``, ``\\u2028``), so that a label holding a newline cannot start a line of its own
    (a forged rule) in a printed page.

    >>> print(printable("Sunny\\nRule 9: IF everything THEN FORGED"))
    Sunny\\nRule 9: IF everything THEN FORGED
    """
    return _UNPRINTABLE.sub(lambda c: c.group().encode("unicode_escape").decode("ascii"), text)


_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def format_count(value) -> str:
    """A count as people write it: ``9`` for a whole number, ``948.222`` for a sum of weights
    (six significant digits, so ``431.99999999999983`` reads ``432``).

    >>> format_count(9), format_count(9.0), format_count(948.2222222), format_count(0.1 + 0.2)
    ('9', '9', '948.222', '0.3')
    """
    if isinstance(value, (float, np.floating)):
        return f"{float(value) + 0.0:.6g}"
    return str(value)


def format_counts(class_counts: dict) -> str:
    """Class counts in the one form used everywhere: ``No: 5, Yes: 9`` or ``class 0: 549, class 1: 342``
    (in a language whose decimal mark is a comma: ``No: 5; Yes: 9``)."""
    L = current()
    written = [f"{class_name(c)}: {L.number(format_count(n))}" for c, n in class_counts.items()]
    return L.join(written)


def plural(n: int, word: str, words: str | None = None) -> str:
    """``1 sample``, ``2 samples``; ``words`` for irregular plurals (``branch``, ``branches``).
    A sum of weights is written as :func:`format_count` writes it."""
    return f"{format_count(n)} {word if n == 1 else (words or word + 's')}"


def count_texts(values) -> list[str]:
    """:func:`format_count` of every entry of an array (whole counts as they are, sums of weights
    to six significant digits), the same characters.

    >>> count_texts(np.array([9, 1])), count_texts(np.array([9.0, 948.2222222]))
    (['9', '1'], ['9', '948.222'])
    """
    values = np.asarray(values)
    if values.dtype.kind == "f":
        return list(map("{:.6g}".format, (values + 0.0).tolist()))
    if len(values) >= LONG_COLUMN and values.dtype.kind in "iu" and values.min(initial=0) >= 0:
        # a long column of counts: each looked up in a table of written whole numbers, the
        # few beyond it written by str
        table = _count_table_up_to(int(values.max(initial=0)))
        within = values < len(table)
        texts = table[np.where(within, values, 0)]
        beyond = np.flatnonzero(~within)
        texts[beyond] = list(map(str, values[beyond].tolist()))
        return texts.tolist()
    return list(map(str, values.tolist()))


_COUNT_TABLE_LIMIT = 2**16
"""The table of written counts covers at most ``0 .. _COUNT_TABLE_LIMIT - 1`` (some 4 MB)."""


_count_table = np.empty(0, dtype=object)  # entry i: str(i)


def _count_table_up_to(n: int) -> np.ndarray:
    """The table of :func:`count_texts` (``str(i)`` at entry i), grown to reach ``n`` if it
    can."""
    global _count_table
    if len(_count_table) <= min(n, _COUNT_TABLE_LIMIT - 1):
        size = min(max(2 * n, 1024), _COUNT_TABLE_LIMIT)
        _count_table = np.array(list(map(str, range(size))), dtype=object)
    return _count_table


def plural_words(counts: np.ndarray, one: str, many: str) -> list[str]:
    """The word :func:`plural` puts after each count: ``one`` for 1, else ``many``
    (the two words themselves, looked up: no new string per count)."""
    is_one = np.asarray(counts) == 1
    return np.array([many, one], dtype=object)[is_one.astype(np.intp)].tolist()


def counts_texts(counts, classes) -> list[str]:
    """:func:`format_counts` of every row of an array of class counts (a column per class of
    ``classes``), the same characters.

    Each column is written by one call (:func:`count_texts`: a long column of whole counts is
    looked up in a table of written numbers), then each row is joined from its pieces (the
    class names, written once, and the counts) by one C-level pass.

    >>> counts_texts(np.array([[5, 9], [0, 4]]), ["No", "Yes"])
    ['No: 5, Yes: 9', 'No: 0, Yes: 4']
    """
    counts = np.asarray(counts)
    n = len(counts)
    pieces = []
    L = current()
    for k, c in enumerate(classes):
        pieces.append(repeat(f"{L.separator if k else ''}{class_name(c)}: ", n))
        pieces.append(L.numbers(count_texts(counts[:, k])))
    return list(map("".join, zip(*pieces)))


def number_texts(values, decimals: int | None = None) -> list[str]:
    """:func:`format_number` of every entry of an array, the same characters.

    Rounding to ``decimals`` digits (or more, :func:`places`) is Python's :func:`round`, which
    rounds the exact binary value half to even (``numpy.round`` may differ in the last digit).
    A long column takes a shortcut with the same result: each value times ``10**decimals`` is
    rounded to a whole number q (:func:`rounded_units`; where q is not sure, or 0 for a value
    that is not, :func:`format_number` writes it), and q is written as its whole part and its
    decimals, the decimals looked up in a table made once.

    >>> number_texts(np.array([28.85625, 2.45, -0.0, -0.00001]), 3)
    ['28.856', '2.45', '0', '-1e-05']
    """
    values = np.asarray(values, dtype=float)
    if decimals is None:
        if len(values) < LONG_COLUMN:
            return list(map("{:.10g}".format, (values + 0.0).tolist()))
        # a long column repeats values (the same cut at many nodes): each is written once
        distinct, which = np.unique(values + 0.0, return_inverse=True)  # -0.0 is 0.0
        texts = np.array(list(map("{:.10g}".format, distinct.tolist())), dtype=object)
        return texts[which.ravel()].tolist()
    if len(values) < LONG_COLUMN or not 0 < decimals <= 4:
        rounded = [round(v, places(v, decimals)) for v in values.tolist()]
        return list(map("{:.10g}".format, (np.asarray(rounded, dtype=float) + 0.0).tolist()))
    return list(map("".join, zip(*(piece.tolist() for piece in number_pieces(values, decimals)))))


def number_pieces(values, decimals: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`number_texts` of a column (``decimals`` given) in two pieces a number, to be
    joined into lines without first making each number's text: its sign and whole part
    (``-28``), then its point and decimals (``.856``, or nothing). Two arrays of str (dtype
    object).

    A long column (at most 4 decimals) is looked up: q, the value in units of
    ``10**-decimals`` (:func:`rounded_units`), gives the sign and whole part from a table of
    written signed whole numbers made once (beyond it, ``str``), and its decimals from a table
    of decimals; where q is not sure, :func:`format_number` writes the value (all in the first
    piece)."""
    values = np.asarray(values, dtype=float)
    if len(values) < LONG_COLUMN or not 0 < decimals <= 4:
        written = np.array(number_texts(values, decimals), dtype=object)
        return written, np.full(len(values), "", dtype=object)
    q, sure = rounded_units(values, decimals)  # an infinity or NaN is not sure: round() writes it
    sure &= (np.abs(q) < 2**31) & ((q != 0) | (values == 0))  # (rounded to 0: format_number)
    units = np.where(sure, q, 0).astype(np.int64)
    whole, part = np.divmod(np.abs(units), 10**decimals)
    signed = 2 * whole + (units < 0)  # entry 2w of the table writes w, 2w + 1 writes -w
    table = _signed_table_up_to(int(signed.max(initial=0)))
    within = signed < len(table)
    head = table[np.where(within, signed, 0)]
    tail = _decimals_table(decimals)[part]
    beyond = np.flatnonzero(~within).tolist()
    head[beyond] = [("-" if w & 1 else "") + str(w >> 1) for w in signed[beyond].tolist()]
    unsure = np.flatnonzero(~sure).tolist()
    head[unsure] = [format_number(values[i], decimals) for i in unsure]
    tail[unsure] = ""
    return head, tail


_signed_table = np.empty(0, dtype=object)  # entry 2w: str(w), entry 2w + 1: "-" + str(w)


def _signed_table_up_to(n: int) -> np.ndarray:
    """The table of :func:`number_pieces` (signed whole numbers), grown to reach entry ``n`` if
    it can (as far as twice the table of written counts, :data:`_COUNT_TABLE_LIMIT`)."""
    global _signed_table
    if len(_signed_table) <= min(n, 2 * _COUNT_TABLE_LIMIT - 1):
        size = min(max(n + 2, 2048), 2 * _COUNT_TABLE_LIMIT) // 2  # whole numbers
        written = _count_table_up_to(size - 1)[:size].tolist()
        _signed_table = np.array([t for w in written for t in (w, "-" + w)], dtype=object)
    return _signed_table


LONG_COLUMN = 200
"""A column of at least this many numbers is written by a shortcut (:func:`number_texts`,
:func:`~id3tree.trace.lines.fixed_texts`); a shorter one number by number."""


def rounded_units(values: np.ndarray, decimals: int) -> tuple[np.ndarray, np.ndarray]:
    """Each value in units of ``10**-decimals``, rounded to a whole number ``q``, and whether
    that ``q`` is surely the one Python's own rounding of the value gives: the scaled value
    carries a rounding error of its own, far below ``1e-6``, so within ``1e-6`` of a half (``q``
    could go either way), and for an infinity or NaN, it is not sure and the caller writes the
    value by Python's :func:`round` or :func:`format` instead."""
    with np.errstate(invalid="ignore", over="ignore"):
        scaled = values * 10.0**decimals
        q = np.rint(scaled)
        sure = np.abs(scaled - np.floor(scaled) - 0.5) > 1e-6
    return q, sure


_decimals_tables: dict[int, np.ndarray] = {}


def _decimals_table(decimals: int) -> np.ndarray:
    """Entry i: the decimals of ``i / 10**decimals`` as :func:`format_number` ends a number
    (``.45`` for 4500 at 4 decimals, ``""`` for 0), made once."""
    if decimals not in _decimals_tables:
        written = [f".{i:0{decimals}d}".rstrip("0") for i in range(10**decimals)]
        written[0] = ""
        _decimals_tables[decimals] = np.array(written, dtype=object)
    return _decimals_tables[decimals]
