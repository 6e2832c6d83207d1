"""The midpoint rule of the printed cuts for whole columns (``pencil.midpoints_hold``, and the
trace's ``lines.midway_marks`` on it) against its plain twins, one equation at a time
(``pencil.midpoint_sign``, ``lines.midway_mark``), and against exact fractions of our own."""

from __future__ import annotations

import io
from decimal import Decimal
from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from id3tree import ID3Classifier
from id3tree.base import pencil
from id3tree.datasets import load
from id3tree.trace.lines import midway_mark, midway_marks
from id3tree.trace.tracers import PrintTracer


def holds_by_fractions(low: str, high: str, result: str) -> bool:
    """Our own pencil: the exact midpoint rounded half away from zero to the result's places."""
    places = max(-Decimal(result).as_tuple().exponent, 0)
    scaled = (Fraction(low) + Fraction(high)) / 2 * 10**places
    units = int(abs(scaled) + Fraction(1, 2))  # half away from zero
    return Fraction(units if scaled >= 0 else -units, 10**places) == Fraction(result)


def twins(lows, highs, results) -> np.ndarray:
    fast = pencil.midpoints_hold(lows, highs, results)
    plain = [pencil.midpoint_sign(*t) == pencil.EQUALS for t in zip(lows, highs, results)]
    assert fast.dtype == bool and fast.tolist() == plain
    return fast


def test_a_hand_worked_column():
    # 28.7125 and 29: midpoint 28.85625, which rounds to 28.8563 (not 28.8562); 1.9 and 3: 2.45
    lows, highs = ["28.7125", "1.9", "70", "-3", "-0.5"], ["29", "3", "85", "-2", "0.5"]
    results = ["28.8562", "2.45", "75", "-2.5", "0"]
    assert twins(lows, highs, results).tolist() == [False, True, False, True, True]


def test_ties_at_half_a_unit_round_away_from_zero():
    # the midpoint exactly half a unit from the result: only rounding away from zero reaches it
    lows = ["0.12345", "-0.12355", "1.00005", "-1.00015", "2.5", "-3.5", "123456.78905"]
    highs = ["0.12345", "-0.12355", "1.00005", "-1.00015", "2.5", "-3.5", "123456.78905"]
    results = ["0.1235", "-0.1235", "1.0000", "-1.0001", "3", "-3", "123456.7891"]
    expected = [holds_by_fractions(*t) for t in zip(lows, highs, results)]
    assert expected == [True, False, False, False, True, False, True]
    assert twins(lows, highs, results).tolist() == expected


def test_numbers_not_written_as_plain_decimals_are_judged_exactly():
    lows, highs, results = ["1E+3", "0,5", "1.5"], ["3E+3", "1,5", "2.5"], ["2E+3", "1,0", "2"]
    assert twins(lows, highs, results).tolist() == [True, True, True]
    # huge and tiny numbers: the floats' error is too large to decide, the exact rule does
    lows, highs = ["1" + "0" * 40 + ".5", "0." + "0" * 400 + "1"], ["1", "0"]
    results = ["5" + "0" * 39 + ".8", "0"]
    twins(lows, highs, results)
    assert twins([], [], []).tolist() == []


PRINTED = st.builds(
    lambda digits, places, sign: f"{sign}{Decimal(digits).scaleb(-places)}",
    st.integers(0, 10**10),
    st.integers(-3, 12),
    st.sampled_from(["", "-"]),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(PRINTED, PRINTED, PRINTED), max_size=12))
def test_columns_of_printed_numbers_agree_with_the_pencil(triples):
    lows, highs, results = (list(c) for c in zip(*triples)) if triples else ([], [], [])
    assert twins(lows, highs, results).tolist() == [holds_by_fractions(*t) for t in triples]


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=2, max_size=12),
    st.integers(0, 6),
)
def test_midpoints_written_as_the_trace_writes_them(values, places):
    """Cuts as the trace prints them: two values and their midpoint rounded to a few places
    (so every equation holds, or misses by a digit where the rounding is near a half)."""
    values = sorted(values)
    lows = [repr(v) for v in values[:-1]]
    highs = [repr(v) for v in values[1:]]
    results = [f"{(a + b) / 2:.{places}f}" for a, b in zip(values[:-1], values[1:])]
    fast = twins(lows, highs, results)
    assert fast.tolist() == [holds_by_fractions(*t) for t in zip(lows, highs, results)]


def test_the_traces_marks_are_the_plain_marks(monkeypatch):
    """midway_marks on the cuts of real traces (midpoints, and C4.5's values below them) is
    midway_mark cut by cut."""
    from id3tree.trace import lines

    seen = []

    def spy(lows, highs, cuts):
        marks = midway_marks(lows, highs, cuts)
        seen.append(marks == [midway_mark(*t) for t in zip(lows, highs, cuts)])
        return marks

    monkeypatch.setattr(lines, "midway_marks", spy)
    X, y = load("iris", return_X_y=True)
    for thresholds in ("midpoint", "c45"):
        out = io.StringIO()
        ID3Classifier(thresholds=thresholds).fit(X, y, tracer=PrintTracer(out, max_thresholds=3))
    assert seen and all(seen)
    lows = ["4.35", "28.7125", "70", "1.9", "-0.4434660254"]
    highs = ["4.45", "29", "85", "3", "-0.4393536863"]
    cuts = ["4.4", "28.8562", "75", "2.45", "-0.4414"]
    marks = midway_marks(lows, highs, cuts)
    assert marks == [midway_mark(*t) for t in zip(lows, highs, cuts)]
    assert marks == [
        "",
        f"{pencil.APPROX} midway ",
        "C4.5: largest value <= midpoint 77.5, ",
        "",
        "",
    ]
