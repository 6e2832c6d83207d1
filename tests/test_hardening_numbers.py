"""Thresholds printed apart, everywhere: a number that rounding to the places would make 0
prints with two significant digits (5e-10, 2.5e-09 and 3.5e-09 printed as 0 before), every other
number as before; a candidate's header says when a pencil would not get its rounded threshold."""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from id3tree import ID3Classifier
from id3tree.base.words import LONG_COLUMN, format_number, number_pieces, number_texts
from id3tree.cli.commands import main
from id3tree.datasets import load_iris

# ---------------------------------------------------------------------------------------------
# thresholds too small for the places
# ---------------------------------------------------------------------------------------------
TINY = pd.DataFrame({"t": [0.0, 1e-10, 5e-10, 1e-9, 2.5e-9, 3e-9, 3.5e-9, 4e-9, 1.0]})
TINY_Y = ["a", "b", "b", "a", "a", "b", "b", "a", "a"]


def two_digits(value: float) -> float:
    """The value to two significant digits, as an independent reference (printf's %g)."""
    return float(f"{value:.2g}")


def test_the_issues_thresholds_print_apart_and_never_as_zero():
    written = [format_number(v, 4) for v in (5e-10, 2.5e-9, 3.5e-9)]
    assert len(set(written)) == 3 and "0" not in written
    assert [float(w) for w in written] == [two_digits(v) for v in (5e-10, 2.5e-9, 3.5e-9)]


def test_tiny_thresholds_print_apart_in_the_text_the_trace_and_the_rules(capsys):
    """A path read "t > 0 -> t <= 0": 5e-11, 7.5e-10, 2.75e-09 and 3.75e-09 all printed 0."""
    model = ID3Classifier(verbose=1).fit(TINY, TINY_Y)
    trace = capsys.readouterr().out
    thresholds = sorted(n.threshold for n in model.root_.walk() if n.threshold is not None)
    assert len(thresholds) == 4 and all(t > 0 for t in thresholds)
    text = model.to_text()
    printed = sorted({float(x) for x in re.findall(r"t (?:<=|>) (\S+?)(?:[:,]|$)", text, re.M)})
    assert printed == [two_digits(t) for t in thresholds]  # four numbers, none of them 0
    for page in (text, trace, str(model.to_rules())):
        assert not re.search(r"\bt (<=|>) 0\b", page)
    assert "0 < t <= 0" not in trace


def test_the_command_line_prints_tiny_thresholds_apart(tmp_path, capsys):
    data = tmp_path / "tiny.csv"
    TINY.assign(label=TINY_Y).to_csv(data, index=False)
    assert main(["fit", str(data), "--target", "label"]) == 0
    out = capsys.readouterr().out
    assert not re.search(r"\bt (<=|>) 0\b", out)
    assert "5e-11" in out and "7.5e-10" in out


@given(
    st.lists(
        st.floats(-1e6, 1e6, allow_nan=False) | st.floats(-1e-3, 1e-3) | st.just(0.0),
        min_size=1,
        max_size=8,
    ),
    st.integers(0, 6),
)
def test_numbers_that_printed_as_more_than_zero_print_as_before(values, decimals):
    for value in values:
        old = f"{round(value, decimals) + 0.0:.10g}"  # the rule before: rounded, that is all
        if float(old) != 0 or value == 0:
            assert format_number(value, decimals) == old
        else:  # rounded to 0: two significant digits instead
            assert float(format_number(value, decimals)) == two_digits(value)


@pytest.mark.parametrize("decimals", [1, 3, 4, 6])
def test_long_and_short_columns_write_numbers_alike(decimals):
    rng = np.random.default_rng(decimals)
    values = np.concatenate(
        [
            rng.normal(0, 1e-5, LONG_COLUMN),
            rng.normal(0, 10, LONG_COLUMN),
            [0.0, -0.0, 5e-10, -2.5e-9, 0.5 * 10.0**-decimals, np.inf, np.nan],
        ]
    )
    expected = [format_number(v, decimals) for v in values]
    assert number_texts(values, decimals) == expected
    head, tail = number_pieces(values, decimals)
    assert [a + b for a, b in zip(head, tail)] == expected
    assert number_texts(values[:10], decimals) == expected[:10]


def test_a_rounded_threshold_in_a_candidate_header_says_approximately(capsys):
    """28.85625 printed as 28.8562 between 28.7125 and 29, though a pencil gets 28.8563."""
    X = pd.DataFrame({"Fare": [28.7125, 28.7125, 29.0, 29.0]})
    ID3Classifier(verbose=1).fit(X, ["a", "a", "b", "b"])
    out = capsys.readouterr().out
    assert "candidate Fare <= 28.8562 (≈ midway between 28.7125 and 29):" in out
    middle = (Decimal("28.7125") + Decimal("29")) / 2  # a pencil, half away from zero
    assert middle.quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP) != Decimal("28.8562")
    X, y = load_iris(return_X_y=True)
    ID3Classifier(verbose=1, max_depth=1).fit(X, y)
    assert "candidate petal_length <= 2.45 (between 1.9 and 3):" in capsys.readouterr().out


PRINTED = st.builds(
    lambda digits, places, sign: f"{sign}{Decimal(digits).scaleb(-places)}",
    st.integers(0, 10**8),
    st.integers(-3, 12),
    st.sampled_from(["", "-"]),
)


@given(PRINTED, PRINTED, PRINTED)
def test_the_quick_midpoint_rule_is_the_pencils(low, high, threshold):
    from id3tree.base import pencil
    from id3tree.trace.lines import midpoint_holds

    pencils = pencil.midpoint_sign(low, high, threshold) == pencil.EQUALS
    assert midpoint_holds(low, high, threshold) == pencils
