"""Numbers printed for a class: every equation holds by pencil, or says that it does not.

Pages print every number rounded to :data:`DECIMALS` places, and rounding can break an
equation's arithmetic. At the Play Tennis root the gain of Outlook is 0.940286 - 0.693536 =
0.246750; printed to four places that is 0.9403 - 0.6935 = 0.2467, but a pencil gives 0.2468.
Every page of id3tree (the trace, the steps, worked solutions, exercise keys, the interactive page)
follows one rule:

* a printed result is always the exact value rounded (0.2467 for Outlook, as the textbook has);
* its sign is ``=`` when the equation, redone by hand from the numbers printed on its left and
  rounded half away from zero, gives the printed result, and :data:`APPROX` (``≈``) when it
  does not;
* a page that can show ``≈`` says once what it means (:data:`LEGEND`).

>>> difference_sign("0.9403", "0.6935", "0.2467")
'≈'
>>> weighted_sum_sign(["4/14", "5/14", "5/14"], ["0", "0.9710", "0.9710"], "0.6935")
'≈'
>>> weighted_sum_sign(["4/14", "4/14", "6/14"], ["0.8113", "1.0000", "0.9183"], "0.9111")
'='
>>> entropy_sign(["9/14", "5/14"], "0.9403"), entropy_sign(["0.6429", "0.3571"], "0.9403")
('=', '≈')
>>> midpoint_sign("28.7125", "29", "28.85625"), midpoint_sign("1.9", "3", "2.45")
('=', '=')
>>> fixed(0.24675), fixed(-0.0)
('0.2467', '0.0000')
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal, localcontext
from fractions import Fraction
from typing import Any

import numpy as np

from id3tree.base.entropy import current_base
from id3tree.base.language import N_, current

__all__ = [
    "APPROX", "DECIMALS", "difference_holds", "difference_sign", "entropy_sign", "EQUALS", "exact",
    "fixed", "fixed_units", "fraction_holds", "in_nats", "LEGEND", "log_sentence", "log_symbol",
    "midpoint_sign", "midpoints_hold", "NATS_NOTE", "product_sign", "quotient_sign", "rounds_to", "sign",
    "sum_sign", "unit_note", "unit_word", "weighted_sum_holds", "weighted_sum_sign",
]  # fmt: skip

DECIMALS = 4
"""Places after the point of every number a page prints."""

EQUALS = "="
APPROX = "≈"

LEGEND = N_(
    "≈ marks a result worked from the unrounded numbers: redone by hand from the rounded numbers "
    "printed beside it, it can differ in the last digit. trace_ and candidate_table() hold every "
    "number to full precision."
)
"""What a page says once, when it shows ``≈``."""

NATS_NOTE = N_(
    "Entropies and gains are in nats: every logarithm is natural (ln); a value in bits is the "
    "value in nats divided by ln 2."
)
"""What a page says once, first, when its tree measures in nats (``log_base="e"``)."""


def in_nats() -> bool:
    """Whether the entropies computed now are in nats (``measuring("e")``), not bits."""
    return current_base() != 2.0


def unit_note() -> str | None:
    """:data:`NATS_NOTE` in the current language when the page is in nats; None in bits (a
    page in bits says nothing, as it always has)."""
    return current().gettext(NATS_NOTE) if in_nats() else None


def unit_word() -> str:
    """``bits`` or ``nats``: the unit of the entropies computed now."""
    L = current()
    return L.gettext("nats") if in_nats() else L.gettext("bits")


def log_symbol(tex: bool = False) -> str:
    """The logarithm a printed equation writes: ``log2``, or ``ln`` in nats (LaTeX's
    ``\\log_2`` or ``\\ln`` with ``tex``)."""
    if tex:
        return "\\ln" if in_nats() else "\\log_2"
    return "ln" if in_nats() else "log2"


def log_sentence() -> str:
    """What a worked solution says of its logarithms: base 2, or :data:`NATS_NOTE` in nats."""
    note = unit_note()
    return current().gettext("Logarithms are base 2.") if note is None else note


def fixed(value: float, decimals: int = DECIMALS) -> str:
    """``value`` rounded to ``decimals`` places, without a minus sign on zero."""
    text = f"{value:.{decimals}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def exact(text: str) -> Fraction:
    """The exact value of a printed number: a decimal (``0.9710``, or ``0,9710`` in a language
    whose decimal mark is a comma) or a fraction (``5/14``)."""
    return Fraction(text.strip().replace(",", "."))


def rounds_to(value: Fraction, printed: str) -> bool:
    """True if ``value`` rounded half away from zero to the places of ``printed`` gives it."""
    places = max(-Decimal(printed.strip().replace(",", ".")).as_tuple().exponent, 0)  # type: ignore[operator]  # (a number's exponent is an int)
    half = Fraction(1, 2 * 10**places)
    target = exact(printed)
    if value < 0:
        return target - half < value <= target + half
    return target - half <= value < target + half


def sign(value: Fraction, printed_result: str) -> str:
    """``=`` if the pencil's ``value`` rounds to the printed result, else ``≈``."""
    return EQUALS if rounds_to(value, printed_result) else APPROX


def difference_sign(a: str, b: str, result: str) -> str:
    """The sign of ``a - b = result`` (a gain: the node's entropy minus the overall entropy)."""
    return sign(exact(a) - exact(b), result)


def sum_sign(terms: Sequence[str], result: str) -> str:
    """The sign of ``t1 + t2 + ... = result`` (an overall entropy as a sum of weighted ones)."""
    return sign(sum((exact(t) for t in terms), Fraction(0)), result)


def product_sign(a: str, b: str, result: str) -> str:
    """The sign of ``a × b = result`` (a weighted entropy: weight times entropy)."""
    return sign(exact(a) * exact(b), result)


def quotient_sign(a: str, b: str, result: str) -> str:
    """The sign of ``a / b = result`` (a gain ratio: gain over split information)."""
    return sign(exact(a) / exact(b), result)


def weighted_sum_sign(weights: Sequence[str], values: Sequence[str], result: str) -> str:
    """The sign of ``w1 × v1 + w2 × v2 + ... = result`` (H(S | A) from the branches)."""
    total = sum((exact(w) * exact(v) for w, v in zip(weights, values, strict=True)), Fraction(0))
    return sign(total, result)


def _log2(p: Fraction) -> Fraction:
    """``log2(p)`` to 50 significant digits (far beyond any printed place); ``ln(p)`` in nats."""
    with localcontext() as context:
        context.prec = 50
        ratio = Decimal(p.numerator) / Decimal(p.denominator)
        return Fraction(ratio.ln() / (Decimal(2).ln() if current_base() == 2.0 else 1))


def entropy_sign(probabilities: Sequence[str], result: str) -> str:
    """The sign of ``-p1 log2(p1) - p2 log2(p2) - ... = result``, with each ``p`` as printed
    (``9/14``, or ``0.6429`` when the solution is written in decimals); ``ln`` in nats."""
    total = Fraction(0)
    for text in probabilities:
        p = exact(text)
        if p:
            total -= p * _log2(p)
    return sign(total, result)


def midpoint_sign(low: str, high: str, result: str) -> str:
    """The sign of ``(low + high) / 2 = result`` (a threshold: the midpoint of two values)."""
    return sign((exact(low) + exact(high)) / 2, result)


# ---------------------------------------------------------------------------------------------
# The same rule for whole columns: pages that print thousands of equations (the trace, the
# interactive page) give each number in units of its last printed digit (0.2467 is 2467) and
# check every equation by integer arithmetic on those units instead of fractions. Tests draw
# random numbers and hold each twin equal to the function above it stands for.
# ---------------------------------------------------------------------------------------------
def fixed_units(values: Any) -> np.ndarray:
    """Each non-negative value as :func:`fixed` prints it, in units of the last printed digit
    (int64), -1 for NaN. A long column is scaled and rounded by numpy; where the scaled value
    lies too close to a half to be sure of the rounding, :func:`fixed` itself writes it.

    >>> fixed_units([0.940286, 0.693536, 0.24675, float("nan")]).tolist()
    [9403, 6935, 2467, -1]
    """
    values = np.asarray(values, dtype=float)
    missing = np.isnan(values)
    scaled = np.where(missing, 0.0, values) * 10.0**DECIMALS
    units = np.where(missing, -1, np.maximum(np.rint(scaled), 0)).astype(np.int64)
    unsure = np.abs(scaled - np.floor(scaled) - 0.5) <= 1e-6
    for i in np.flatnonzero(unsure & ~missing).tolist():
        units[i] = max(int(fixed(float(values[i])).replace(".", "")), 0)
    return units


def fraction_holds(numerator: Any, denominator: Any, results: Any) -> Any:
    """Where the fraction ``numerator / denominator`` (whole numbers, the denominator positive;
    in units of the last printed digit) rounds, half away from zero, to the printed result
    (units): ``r - 1/2 <= q < r + 1/2``, that is ``(2r - 1) d <= 2 n < (2r + 1) d``. A
    non-positive denominator never holds (the page writes ``≈``)."""
    n = np.asarray(numerator, np.int64)
    d = np.asarray(denominator, np.int64)
    r = np.asarray(results, np.int64)
    return (d > 0) & (2 * n >= (2 * r - 1) * d) & (2 * n < (2 * r + 1) * d)


def difference_holds(a: Any, b: Any, result: Any) -> Any:
    """Where ``a - b = result`` holds by pencil (:func:`difference_sign`), all three in printed
    units: the difference of two printed numbers is exact, so it holds where it is the result.

    >>> difference_holds([9403], [6935], [2467]).tolist()     # 0.9403 - 0.6935 is 0.2468
    [False]
    """
    return np.asarray(a, np.int64) - np.asarray(b, np.int64) == np.asarray(result, np.int64)


def weighted_sum_holds(sizes: Any, values: Any, group: Any, results: Any) -> Any:
    """Where ``n1/N × v1 + n2/N × v2 + ... = result`` holds by pencil
    (:func:`weighted_sum_sign`), for many sums at once: ``sizes`` (the n, whole numbers) and
    ``values`` (printed units) hold the terms of every sum, ``group`` says which sum each term
    belongs to (0, 1, ...: sums in order), ``results`` are the printed results (units); N is
    each sum's total size. The sum is the fraction (Σ n v) / N (:func:`fraction_holds`).

    >>> weighted_sum_holds([4, 4, 6], [8113, 10000, 9183], [0, 0, 0], [9111]).tolist()
    [True]
    """
    sizes = np.asarray(sizes, np.int64)
    group = np.asarray(group, np.int64)
    total = np.zeros(len(results), np.int64)
    weighted = np.zeros(len(results), np.int64)
    np.add.at(total, group, sizes)
    np.add.at(weighted, group, sizes * np.asarray(values, np.int64))
    return fraction_holds(weighted, total, results)


_PLAIN = frozenset("-.0123456789")  # the characters of a number written without an exponent


def midpoints_hold(lows: Sequence[str], highs: Sequence[str], results: Sequence[str]) -> Any:
    """Where ``(low + high) / 2 = result`` holds by pencil (:func:`midpoint_sign`), for columns
    of printed numbers (the trace's thousands of cuts) instead of one equation at a time.

    The numbers are read as floats: where the midpoint lies within half a unit of the result's
    last digit by more than the floats' error, it holds, where it lies outside by more, it does
    not; the few within the error of the boundary (ties at a half), and every number not written
    as plain decimals (``1E+3``, a decimal comma), are redone exactly by :func:`midpoint_sign`.

    >>> midpoints_hold(["28.7125", "1.9"], ["29", "3"], ["28.8562", "2.45"]).tolist()
    [False, True]
    """
    n = len(results)
    holds, unsure = np.zeros(n, dtype=bool), np.ones(n, dtype=bool)
    numbers = _plain_numbers((lows, highs, results), n)
    if numbers is not None:
        low, high, result = numbers
        dots = np.fromiter([text.find(".") for text in results], np.int64, n)
        lengths = np.fromiter(map(len, results), np.int64, n)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            unit = 10.0 ** -np.where(dots >= 0, lengths - 1 - dots, 0)  # the last digit's
            distance = np.abs((low + high) / 2 - result) / unit  # in units of that digit
            # each float holds its decimal within 2**-53 of it, each operation adds as much
            error = ((np.abs(low) + np.abs(high) + np.abs(result)) / unit + distance) * 2.0**-48
            holds = distance < 0.5
            unsure = ~(np.abs(distance - 0.5) > error)  # NaN and infinity too
    for i in np.flatnonzero(unsure).tolist():
        holds[i] = midpoint_sign(lows[i], highs[i], results[i]) == EQUALS
    return holds


def _plain_numbers(columns: tuple, n: int) -> list[np.ndarray] | None:
    """The columns of printed numbers as floats, or None if one is not written as plain
    decimals (an exponent, a decimal comma, ``inf``; ``1-2`` and ``1..2``: float() says so)."""
    if not all(set("".join(column)) <= _PLAIN for column in columns):
        return None
    try:
        return [np.fromiter(map(float, column), float, n) for column in columns]
    except ValueError:
        return None
