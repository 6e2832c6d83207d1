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

DECIMALS = 4
"""Places after the point of every number a page prints."""

EQUALS = "="
APPROX = "≈"

LEGEND = (
    "≈ marks a result worked from the unrounded numbers: redone by hand from the rounded numbers "
    "printed beside it, it can differ in the last digit. trace_ and candidate_table() hold every "
    "number to full precision."
)
"""What a page says once, when it shows ``≈``."""


def fixed(value: float, decimals: int = DECIMALS) -> str:
    """``value`` rounded to ``decimals`` places, without a minus sign on zero."""
    text = f"{value:.{decimals}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def exact(text: str) -> Fraction:
    """The exact value of a printed number: a decimal (``0.9710``) or a fraction (``5/14``)."""
    return Fraction(text.strip())


def rounds_to(value: Fraction, printed: str) -> bool:
    """True if ``value`` rounded half away from zero to the places of ``printed`` gives it."""
    places = max(-Decimal(printed.strip()).as_tuple().exponent, 0)
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
    """``log2(p)`` to 50 significant digits (far beyond any printed place)."""
    with localcontext() as context:
        context.prec = 50
        ratio = Decimal(p.numerator) / Decimal(p.denominator)
        return Fraction(ratio.ln() / Decimal(2).ln())


def entropy_sign(probabilities: Sequence[str], result: str) -> str:
    """The sign of ``-p1 log2(p1) - p2 log2(p2) - ... = result``, with each ``p`` as printed
    (``9/14``, or ``0.6429`` when the solution is written in decimals)."""
    total = Fraction(0)
    for text in probabilities:
        p = exact(text)
        if p:
            total -= p * _log2(p)
    return sign(total, result)


def midpoint_sign(low: str, high: str, result: str) -> str:
    """The sign of ``(low + high) / 2 = result`` (a threshold: the midpoint of two values)."""
    return sign((exact(low) + exact(high)) / 2, result)
