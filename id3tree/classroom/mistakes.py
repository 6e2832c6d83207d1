"""The classic mistakes of a hand calculation of ID3, recognised from the wrong number itself.

A wrong answer is worth more to a student when the feedback says which mistake gives it. For
each number of an exercise, :func:`entropy_slips`, :func:`split_slips` and :func:`gain_slips`
work out what the usual mistakes would have given (the natural log instead of log2, an
unweighted average of the branches, ``H(S | A)`` given as the gain, the gain ratio, numbers
rounded before the last step); :func:`diagnose` names the one the student's number matches.

>>> slips = entropy_slips((3, 3))
>>> diagnose(0.6931, 1.0, slips, 0.001)
('natural log instead of log2', '0.6931 is what the natural log (ln) gives instead of log2')
>>> diagnose(0.5, 1.0, slips, 0.001) is None
True

The sentences are written in the language around them (:func:`~id3tree.base.language.speaking`),
their numbers with its decimal mark; the mistakes' names (:data:`MISTAKES`) stay English, the
same in every language, and :func:`mistake_name` writes one in the language around it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np

from id3tree.base.entropy import entropy_of_counts, entropy_rows
from id3tree.base.language import N_, current
from id3tree.base.words import format_number
from id3tree.teaching.record import CandidateTable

__all__ = [
    "CLOSE", "MISTAKES", "diagnose", "entropy_slips", "feature_slip", "gain_slips",
    "leaf_slip", "mistake_name", "split_slips", "threshold_slip",
]  # fmt: skip

LN, LOG10, UNWEIGHTED, ADDED = (
    N_("natural log instead of log2"), N_("log10 instead of log2"), N_("unweighted average"),
    N_("entropies added without weights"),
)  # fmt: skip
NOT_SUBTRACTED, GAIN_RATIO, ROUNDING = (
    N_("H(S | A) given as the gain"), N_("gain ratio instead of gain"), N_("rounding too early"),
)  # fmt: skip
MIDPOINT, WRONG_FEATURE, LOWEST_GAIN = (
    N_("a threshold that is not a midpoint"), N_("the wrong feature"),
    N_("the feature of lowest gain"),
)  # fmt: skip
TIE, MINORITY = N_("the tie rule at a leaf"), N_("the minority class at a leaf")
MISTAKES: tuple[str, ...] = (LN, LOG10, UNWEIGHTED, ADDED, NOT_SUBTRACTED, GAIN_RATIO)
MISTAKES += (ROUNDING, MIDPOINT, WRONG_FEATURE, LOWEST_GAIN, TIE, MINORITY)
"""Every mistake the feedback names (a check's ``mistake`` is one of them, or empty)."""

_HOW = {  # (each a whole sentence: "{value} is what ...", so that a language orders it)
    LN: N_("{value} is what the natural log (ln) gives instead of log2"),
    LOG10: N_("{value} is what log10 gives instead of log2"),
    UNWEIGHTED: N_(
        "{value} is what the plain average of the branches' entropies gives: each branch counts "
        "by its share of the rows"
    ),
    ADDED: N_(
        "{value} is what the branches' entropies added up give: each branch counts by its share "
        "of the rows"
    ),
    NOT_SUBTRACTED: N_("{value} is what H(S | A) is: the gain is H(S) - H(S | A)"),
    GAIN_RATIO: N_(
        "{value} is what the gain ratio (gain / split information, C4.5's score) is, not ID3's gain"
    ),
    ROUNDING: N_(
        "{value} is what numbers rounded to two decimals before the last step give: keep four "
        "decimals until the end"
    ),
}
CLOSE = 10
"""An answer within this many tolerances of the exact value, and matching no other mistake, is
taken for rounding too early."""


def mistake_name(mistake: str) -> str:
    """The name of a mistake of :data:`MISTAKES` in the language around it ("" stays "")."""
    return current().gettext(mistake) if mistake else ""


def _entropy(counts: Sequence[int], base: float = 2.0) -> float:
    return float(entropy_rows(np.asarray([counts], dtype=np.int64), base)[0])


def _rounded_entropy(counts: Sequence[int], decimals: int) -> float:
    """The entropy worked from probabilities rounded to ``decimals`` before the logarithms."""
    n = sum(counts)
    rounded = [round(c / n, decimals) for c in counts]
    return float(entropy_of_counts([np.asarray(r, dtype=float) for r in rounded], np.ones(())))


def entropy_slips(counts: Sequence[int]) -> list[tuple[str, float]]:
    """What the usual mistakes give for the entropy of ``counts`` (class counts)."""
    h = _entropy(counts)
    return [
        (LN, h * math.log(2)), (LOG10, h * math.log10(2)), (ROUNDING, _rounded_entropy(counts, 2)),
        (ROUNDING, _rounded_entropy(counts, 1)),
    ]  # fmt: skip


def split_slips(parts: Sequence[Sequence[int]]) -> list[tuple[str, float]]:
    """What the usual mistakes give for the overall entropy ``H(S | A)`` of a split whose
    branches hold the class counts ``parts``."""
    sizes = [sum(p) for p in parts]
    n = sum(sizes)
    entropies = [_entropy(p) for p in parts]
    overall = sum(s * h for s, h in zip(sizes, entropies)) / n
    return [
        (LN, overall * math.log(2)), (LOG10, overall * math.log10(2)),
        (UNWEIGHTED, sum(entropies) / len(parts)), (ADDED, sum(entropies)),
        (ROUNDING, sum(s / n * round(h, 2) for s, h in zip(sizes, entropies))),
        (ROUNDING, sum(round(s / n, 2) * round(h, 2) for s, h in zip(sizes, entropies))),
    ]  # fmt: skip


def gain_slips(parent: Sequence[int], parts: Sequence[Sequence[int]]) -> list[tuple[str, float]]:
    """What the usual mistakes give for the gain of a split of ``parent`` (class counts) into
    branches holding ``parts``."""
    h = _entropy(parent)
    sizes = [sum(p) for p in parts]
    overall = sum(s * _entropy(p) for s, p in zip(sizes, parts)) / sum(sizes)
    gain = h - overall
    split_info = _entropy(sizes)
    slips = [(LN, gain * math.log(2)), (LOG10, gain * math.log10(2)), (NOT_SUBTRACTED, overall)]
    slips += [(label, h - value) for label, value in split_slips(parts) if label != ROUNDING]
    slips.append((ROUNDING, round(h, 2) - round(overall, 2)))
    if split_info > 0:
        slips.append((GAIN_RATIO, gain / split_info))
    return [(label, v) for label, v in slips if label not in (LN, LOG10) or v != gain]


def diagnose(
    given: float, expected: float, slips: Iterable[tuple[str, float]], tolerance: float
) -> tuple[str, str] | None:
    """The mistake whose value ``given`` matches (within ``tolerance``, where the exact value
    is farther), as ``(mistake, sentence)``; an answer only a little off is taken for rounding
    too early; None when no mistake explains it."""
    if abs(given - expected) <= tolerance:
        return None
    L = current()
    written = L.number(format_number(round(given, 4)))
    for label, value in slips:
        if abs(given - value) <= tolerance and abs(value - expected) > tolerance:
            return label, L.line(_HOW[label], value=written)
    if abs(given - expected) <= CLOSE * tolerance:
        away = L.number(format_number(round(abs(given - expected), 6)))
        return ROUNDING, L.line(
            "{value} is {away} away: rounding before the last step does that; keep four decimals "
            "until the end",
            value=written, away=away,
        )  # fmt: skip
    return None


def threshold_slip(given: float, low: float, high: float) -> tuple[str, str] | None:
    """A threshold between (or on) the two values around the midpoint, but not the midpoint."""
    midpoint = (low + high) / 2
    if not low <= given <= high or abs(given - midpoint) <= 1e-6:
        return None
    L = current()
    low_, high_, mid_, given_ = (L.number(format_number(v)) for v in (low, high, midpoint, given))
    if given in (low, high):
        message = N_(
            "a threshold is the midpoint between two adjacent values: ({low} + {high}) / 2 = "
            "{midpoint}; {given} is one of the values"
        )
    else:
        message = N_(
            "a threshold is the midpoint between two adjacent values: ({low} + {high}) / 2 = "
            "{midpoint}; {given} is not halfway between them"
        )
    return MIDPOINT, L.line(message, low=low_, high=high_, midpoint=mid_, given=given_)


def feature_slip(tables: Iterable[CandidateTable], given: str) -> tuple[str, str]:
    """Which mistake picking feature ``given`` at a node is, from the node's candidate tables
    (``given`` lost: another feature has a higher gain)."""
    valid = {  # (feature: gain, gain ratio) of those that can split
        t.feature: (t.gain, t.gain_ratio)
        for t in tables
        if t.gain is not None and t.gain_ratio is not None
    }
    mine = valid.get(given)
    if (
        mine is not None
        and len(valid) > 2
        and mine[0] < min(g for f, (g, _) in valid.items() if f != given)
    ):
        return LOWEST_GAIN, current().line(
            "{feature} has the lowest gain (the highest H(S | A)): ID3 splits on the highest gain",
            feature=given,
        )
    ratios = [r for _, r in valid.values()]
    if mine is not None and len(valid) > 1 and mine[1] == max(ratios):
        return GAIN_RATIO, current().line(
            "{feature} has the highest gain ratio, C4.5's score; ID3 takes the gain", feature=given
        )
    return WRONG_FEATURE, ""


def leaf_slip(
    counts: Sequence[int], classes: list[object], given: object
) -> tuple[str, str] | None:
    """A leaf's prediction that names one of its classes, but not the one the rules give."""
    label = next(
        (c for c in classes if str(c).strip().casefold() == str(given).strip().casefold()), None
    )
    if label is None:
        return None
    top = max(counts)
    mine = counts[classes.index(label)]
    L = current()
    if mine == top:  # tied with the predicted class
        return TIE, L.line(
            "the classes tie; the rule of the question gives a tie to {first}",
            first=str(classes[0]),
        )
    return MINORITY, L.line(
        "{label} is the minority there: a leaf predicts its majority class", label=str(label)
    )
