"""Tests for id3tree.engine.splits and id3tree.base.contingency.

The fast, many-segments-at-once threshold search is checked against the plain one-midpoint-at-a-
time version, against ``information.candidate_splits`` and against references computed here with
numpy and scipy; categorical branch scoring against ``information.information_gain`` on each
segment's rows; the chi-square test against ``scipy.stats.chi2_contingency``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy import stats as sp_stats

from id3tree import information
from id3tree.base.contingency import chi_square_from_table, crosstab_codes
from id3tree.engine import splits
from id3tree.engine.splits.thresholds import _steps_and_present
from id3tree.trace import thresholds as trace_thresholds


@contextlib.contextmanager
def size_rule(name: str | None = None, limit: float | None = None, **limits):
    """Run with numbers of ``splits.SIZE_RULES`` changed: ``name`` set to ``limit``, and each
    keyword's rule to its value."""
    if name is not None:
        limits[name] = limit
    with pytest.MonkeyPatch.context() as patch:
        for rule_name, value in limits.items():
            rule = dataclasses.replace(splits.SIZE_RULES[rule_name], limit=value)
            patch.setitem(splits.SIZE_RULES, rule_name, rule)
        yield


# ---------------------------------------------------------------------------------------------
# Strategies and helpers
# ---------------------------------------------------------------------------------------------
# a small pool of values, so that duplicates are common; includes -0.0 == 0.0, adjacent floats,
# inexact decimals and values near the ends of the float range
VALUE_POOL = [
    -1e308,
    -3.0,
    -0.1,
    -0.0,
    0.0,
    0.1,
    0.2,
    0.3,
    1.0,
    float(np.nextafter(1.0, 2.0)),
    2.5,
    7.0,
    1.7e308,
    1.79e308,
]


@st.composite
def numeric_sample(draw, min_size=1, max_size=40, allow_nan=True):
    """(x, y codes, n_classes): x with many duplicates and optionally NaNs, 2-4 classes."""
    n = draw(st.integers(min_size, max_size))
    n_classes = draw(st.integers(2, 4))
    kind = draw(st.sampled_from(["pool", "small-ints", "floats"]))
    if kind == "pool":
        x = draw(st.lists(st.sampled_from(VALUE_POOL), min_size=n, max_size=n))
    elif kind == "small-ints":
        x = [v / 4 for v in draw(st.lists(st.integers(-5, 5), min_size=n, max_size=n))]
    else:
        x = draw(
            st.lists(
                st.floats(-1e6, 1e6, allow_nan=False, allow_subnormal=False),
                min_size=n,
                max_size=n,
            )
        )
    x = np.array(x, dtype=float)
    if allow_nan and draw(st.booleans()):
        mask = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)))
        x[mask] = np.nan
    y = np.array(draw(st.lists(st.integers(0, n_classes - 1), min_size=n, max_size=n)))
    return x, y, n_classes


def sort_nan_last(x, y):
    order = np.argsort(x, kind="stable")  # NaN sort last
    return x[order], y[order]


def plain_best(rows, min_leaf=1):
    """The plain list's best row: lowest overall entropy, ties (TIE_TOLERANCE) to the smallest
    threshold; also the number of tied rows. None when no row qualifies."""
    rows = [r for r in rows if r["n_left"] >= min_leaf and r["n_right"] >= min_leaf]
    if not rows:
        return None, 0
    best = min(r["overall_entropy"] for r in rows)
    tied = [r for r in rows if r["overall_entropy"] <= best + splits.TIE_TOLERANCE]
    return min(tied, key=lambda r: r["threshold"]), len(tied)


def ref_entropy(counts) -> float:
    counts = np.asarray(counts, dtype=float)
    counts = counts[counts > 0]
    return float(sp_stats.entropy(counts, base=2)) if counts.size else 0.0


def search_one(x, y, n_classes, min_leaf=1):
    values, codes = sort_nan_last(x, y)
    return splits.search_thresholds(
        values, codes, np.array([0]), np.array([len(values)]), n_classes, min_leaf=min_leaf
    )


def check_search_against_plain(found, s, x, y, min_leaf=1):
    """Segment s of a ThresholdSearch agrees with the plain list for (x, y)."""
    best, n_tied = plain_best(splits.plain_candidate_splits(x, y), min_leaf)
    if best is None:
        assert not found.found[s]
        assert math.isnan(found.threshold[s])
        return
    assert found.found[s]
    assert found.threshold[s] == best["threshold"]
    assert abs(found.overall_entropy[s] - best["overall_entropy"]) <= 1e-12
    assert found.n_left[s] == best["n_left"]
    assert found.n_right[s] == best["n_right"]
    n_missing = int(np.isnan(x).sum())
    assert found.n_missing[s] == n_missing
    assert found.n_ties[s] == n_tied
    parent = ref_entropy(np.bincount(y))
    assert abs(found.gain[s] - max(parent - best["overall_entropy"], 0.0)) <= 1e-12
    split_info = ref_entropy([best["n_left"], best["n_right"], n_missing])
    assert abs(found.split_info[s] - split_info) <= 1e-12


# ---------------------------------------------------------------------------------------------
# Plain list == candidate_splits == fast search
# ---------------------------------------------------------------------------------------------
@settings(deadline=None, max_examples=200)
@given(sample=numeric_sample())
def test_plain_candidate_and_fast_search_agree(sample):
    x, y, n_classes = sample
    plain = splits.plain_candidate_splits(x, y)
    table = information.candidate_splits(x, y)
    assert len(table) == len(plain)
    for row, expected in zip(table.to_dict("records"), plain):
        assert row["threshold"] == expected["threshold"]
        assert row["n_left"] == expected["n_left"]
        assert row["n_right"] == expected["n_right"]
        for key in ("entropy_left", "entropy_right", "overall_entropy"):
            assert abs(row[key] - expected[key]) <= 1e-12, key
        assert abs(row["gain"] - max(expected["gain"], 0.0)) <= 1e-12
    check_search_against_plain(search_one(x, y, n_classes), 0, x, y)


@settings(deadline=None, max_examples=100)
@given(sample=numeric_sample(), min_leaf=st.integers(1, 6))
def test_min_leaf_filters_the_plain_list(sample, min_leaf):
    x, y, n_classes = sample
    check_search_against_plain(search_one(x, y, n_classes, min_leaf), 0, x, y, min_leaf)


def test_plain_candidate_splits_by_hand():
    x = np.array([1.0, 1.0, 2.0, 3.0, np.nan])
    y = np.array([0, 1, 0, 1, 1])
    rows = splits.plain_candidate_splits(x, y)
    assert [r["threshold"] for r in rows] == [1.5, 2.5]
    assert [(r["n_left"], r["n_right"]) for r in rows] == [(2, 2), (3, 1)]
    # C4.5's thresholds: the largest training value not above each midpoint, same sides
    c45 = splits.plain_candidate_splits(x, y, values=np.array([1.0, 2.0, 3.0]))
    assert [r["threshold"] for r in c45] == [1.0, 2.0]
    assert [(r["n_left"], r["n_right"]) for r in c45] == [(2, 2), (3, 1)]
    # threshold 2.5: left {0,1,0}, right {1}, missing {1}
    overall = 3 / 5 * ref_entropy([2, 1]) + 1 / 5 * 0.0 + 1 / 5 * 0.0
    assert abs(rows[1]["overall_entropy"] - overall) <= 1e-12
    assert abs(rows[1]["gain"] - (ref_entropy([2, 3]) - overall)) <= 1e-12


def test_ties_go_to_the_smallest_threshold():
    # 0 | 1 1 | 0: cutting at 0.5 or 2.5 isolates one 0 each, with the same overall entropy
    x = np.array([0.0, 1.0, 2.0, 3.0])
    y = np.array([0, 1, 1, 0])
    found = search_one(x, y, 2)
    assert found.threshold[0] == 0.5
    assert found.n_ties[0] == 2
    reversed_found = search_one(-x, y, 2)
    assert reversed_found.threshold[0] == -2.5


def test_no_candidate_when_fewer_than_two_distinct_values():
    for x in ([5.0, 5.0, np.nan], [np.nan, np.nan], [3.0], [-0.0, 0.0]):
        x = np.array(x)
        y = np.array([0, 1, 1][: len(x)])
        found = search_one(x, y, 2)
        assert not found.found[0] and math.isnan(found.gain[0])
        assert splits.plain_candidate_splits(x, y) == []
        assert len(information.candidate_splits(x, y)) == 0
        assert information.information_gain(x, y) == 0.0


# ---------------------------------------------------------------------------------------------
# Many segments at once
# ---------------------------------------------------------------------------------------------
@st.composite
def segmented(draw):
    n_classes = draw(st.integers(2, 4))
    n_segments = draw(st.integers(1, 6))
    groups = []
    for _ in range(n_segments):
        x, y, _ = draw(numeric_sample(max_size=20))
        groups.append((x, np.minimum(y, n_classes - 1)))
    return groups, n_classes


def concatenate_sorted(groups):
    parts = [sort_nan_last(x, y) for x, y in groups]
    values = np.concatenate([v for v, _ in parts])
    codes = np.concatenate([c for _, c in parts])
    lengths = np.array([len(v) for v, _ in parts])
    starts = np.r_[0, np.cumsum(lengths)[:-1]]
    return values, codes, starts, lengths


FIELDS = ("found", "threshold", "overall_entropy", "gain", "split_info")
COUNTS = ("n_left", "n_right", "n_missing", "n_ties")


@settings(deadline=None, max_examples=100)
@given(data=segmented(), min_leaf=st.sampled_from([1, 1, 2, 3]))
def test_segments_at_once_equal_one_at_a_time(data, min_leaf):
    groups, n_classes = data
    values, codes, starts, lengths = concatenate_sorted(groups)
    together = splits.search_thresholds(
        values, codes, starts, lengths, n_classes, min_leaf=min_leaf
    )
    for s, (x, y) in enumerate(groups):
        alone = search_one(x, y, n_classes, min_leaf)
        for field in FIELDS:
            np.testing.assert_allclose(
                getattr(together, field)[s], getattr(alone, field)[0], atol=1e-12, rtol=0
            )
        assert together.threshold[s] == alone.threshold[0] or (
            math.isnan(together.threshold[s]) and math.isnan(alone.threshold[0])
        )
        for field in COUNTS:
            assert getattr(together, field)[s] == getattr(alone, field)[0], field
        check_search_against_plain(together, s, x, y, min_leaf)


@settings(deadline=None, max_examples=100)
@given(
    data=segmented(),
    min_leaf=st.sampled_from([1, 1, 2, 3]),
    piece=st.sampled_from([1, 2, 3, 5, 8]),
)
def test_search_in_pieces_equals_the_plain_list(data, min_leaf, piece):
    """Searched a few rows at a time (``piece_rows`` made tiny: whole segments grouped, longer
    ones cut in parts that carry their counts), every segment still gets the plain list's best cut,
    its ties and its counts; and the same numbers as one search of everything."""
    groups, n_classes = data
    values, codes, starts, lengths = concatenate_sorted(groups)
    at_once = splits.search_thresholds(values, codes, starts, lengths, n_classes, min_leaf=min_leaf)
    with size_rule("piece_rows", piece):
        in_pieces = splits.search_thresholds(
            values, codes, starts, lengths, n_classes, min_leaf=min_leaf
        )
    for s, (x, y) in enumerate(groups):
        check_search_against_plain(in_pieces, s, x, y, min_leaf)
    for field in FIELDS + COUNTS + ("side_counts", "low", "high"):
        np.testing.assert_array_equal(getattr(in_pieces, field), getattr(at_once, field))


@settings(deadline=None, max_examples=60)
@given(data=segmented())
def test_enumerate_thresholds_per_segment_equals_plain(data):
    groups, n_classes = data
    values, codes, starts, lengths = concatenate_sorted(groups)
    columns = splits.enumerate_thresholds(values, codes, starts, lengths, n_classes)
    for s, (x, y) in enumerate(groups):
        mine = columns["segment"] == s
        plain = splits.plain_candidate_splits(x, y)
        assert mine.sum() == len(plain)
        np.testing.assert_array_equal(columns["threshold"][mine], [r["threshold"] for r in plain])
        np.testing.assert_array_equal(columns["n_left"][mine], [r["n_left"] for r in plain])
        np.testing.assert_allclose(
            columns["overall_entropy"][mine],
            [r["overall_entropy"] for r in plain],
            atol=1e-12,
            rtol=0,
        )


@settings(deadline=None, max_examples=60)
@given(data=segmented(), k=st.integers(1, 6))
def test_best_thresholds_are_the_first_of_every_threshold_ranked(data, k):
    """The k best of each segment, chosen from the integer scores, are exactly the first k of
    every threshold ranked by overall entropy then threshold, with the same numbers."""
    groups, n_classes = data
    values, codes, starts, lengths = concatenate_sorted(groups)
    assert_first_k_of_every_threshold(values, codes, starts, lengths, n_classes, k)


@pytest.mark.parametrize("seed", range(30))
@pytest.mark.parametrize("piece_rows", [None, 100])
def test_the_best_thresholds_of_a_level_are_the_first_of_every_threshold_ranked(seed, piece_rows):
    """verbose=2's ranking of a whole level (segments short and long, with ties, missing values
    or no threshold at all, 2 to 4 classes) keeps exactly the first k of every threshold ranked
    by overall entropy then threshold, with the same numbers, and counts every threshold; also
    when the level is ranked in pieces of a few segments (``piece_rows``), some longer than a
    piece."""
    with size_rule("piece_rows", piece_rows or splits.SIZE_RULES["piece_rows"].limit):
        check_best_thresholds_of_a_level(seed)


def check_best_thresholds_of_a_level(seed):
    rng = np.random.default_rng(seed)
    n_classes, k = int(rng.integers(2, 5)), int(rng.integers(1, 8))
    lengths = rng.integers(1, 400, size=int(rng.integers(1, 8)))
    lengths[0] = 3 * k  # a short segment: blocks of fewer than 32 values
    values, classes = [], []
    for i, n in enumerate(lengths.tolist()):
        x = np.round(rng.normal(size=n), int(rng.integers(0, 3)))  # ties at one or two decimals
        if i == 1:
            x[:] = 1.5  # a segment without a threshold
        x[rng.random(n) < 0.1] = np.nan
        values.append(np.sort(x))  # missing values last
        classes.append(rng.integers(0, n_classes, size=n))
    values, classes = np.concatenate(values), np.concatenate(classes)
    starts = np.cumsum(lengths) - lengths
    assert_first_k_of_every_threshold(values, classes, starts, lengths, n_classes, k)


def assert_first_k_of_every_threshold(values, codes, starts, lengths, n_classes, k):
    """``best_thresholds`` gives the first ``k`` of every threshold ranked (the reference below),
    column by column, and counts every threshold of each segment."""
    best, n_thresholds = trace_thresholds.best_thresholds(
        values, codes, starts, lengths, n_classes, k
    )
    expected, counts = first_k_of_every_threshold(values, codes, starts, lengths, n_classes, k)
    assert n_thresholds.tolist() == counts.tolist()
    assert list(best) == list(expected)
    for name, column in best.items():
        np.testing.assert_array_equal(column, expected[name].to_numpy(), err_msg=name)


def test_segment_boundaries_are_never_cut():
    # segment 0 ends with 1.0, segment 1 starts with 2.0: no threshold between them
    values = np.array([0.0, 1.0, 2.0, 3.0, np.nan, 5.0])
    codes = np.array([0, 1, 1, 0, 1, 0])
    starts, lengths = np.array([0, 2, 5]), np.array([2, 3, 1])
    columns = splits.enumerate_thresholds(values, codes, starts, lengths, 2)
    assert columns["segment"].tolist() == [0, 1]
    assert columns["threshold"].tolist() == [0.5, 2.5]
    found = splits.search_thresholds(values, codes, starts, lengths, 2)
    assert found.found.tolist() == [True, True, False]
    assert found.n_missing.tolist() == [0, 1, 0]


# ---------------------------------------------------------------------------------------------
# midpoint
# ---------------------------------------------------------------------------------------------
def exact_midpoint(low: float, high: float) -> float:
    """The correctly rounded midpoint, or ``low`` when that rounds up to ``high``."""
    mid = float((Fraction(low) + Fraction(high)) / 2)
    return low if mid >= high else mid


@pytest.mark.parametrize(
    "low", [0.0, 1.0, -1.0, 0.1, 1e-300, 5e-324, 123456.789, 1e308, -1e308, 1.7976931348623157e308]
)
def test_midpoint_of_adjacent_floats_is_below_the_upper(low):
    if low == np.finfo(float).max:  # the largest float has no upper neighbour
        high, low = low, np.nextafter(low, -np.inf)
    else:
        high = np.nextafter(low, np.inf)
    t = splits.midpoint(np.float64(low), np.float64(high))
    assert low <= t < high
    assert t == exact_midpoint(low, high)


def test_midpoint_does_not_overflow():
    big = np.finfo(float).max
    lows = np.array([1e308, -big, 1.5e308, -1.7e308, 0.0])
    highs = np.array([big, big, 1.7e308, -1.5e308, big])
    with np.errstate(over="raise", invalid="raise"):
        t = splits.midpoint(lows, highs)
    assert np.all(np.isfinite(t))
    assert np.all((lows <= t) & (t < highs))
    assert t.tolist() == [exact_midpoint(a, b) for a, b in zip(lows.tolist(), highs.tolist())]


@settings(deadline=None, max_examples=200)
@given(
    a=st.floats(allow_nan=False, allow_infinity=False),
    b=st.floats(allow_nan=False, allow_infinity=False),
)
def test_midpoint_lies_between(a, b):
    assume(a != b)
    low, high = min(a, b), max(a, b)
    t = float(splits.midpoint(np.float64(low), np.float64(high)))
    assert low <= t < high
    if all(v == 0 or abs(v) >= 1e-300 for v in (low, high)):  # away from subnormal halves
        assert t == exact_midpoint(low, high)


# ---------------------------------------------------------------------------------------------
# Categorical branches
# ---------------------------------------------------------------------------------------------
@st.composite
def categorical_segments(draw):
    n = draw(st.integers(1, 80))
    n_segments = draw(st.integers(1, 5))
    n_levels = draw(st.sampled_from([1, 2, 3, 5, 100_000]))  # 100,000: the sorting path
    n_classes = draw(st.integers(2, 4))
    ints = st.integers
    level_pool = sorted({0, n_levels - 1, n_levels // 2, min(3, n_levels - 1), 1 % n_levels})
    segment = np.array(draw(st.lists(ints(0, n_segments - 1), min_size=n, max_size=n)))
    codes = np.array(draw(st.lists(st.sampled_from(level_pool), min_size=n, max_size=n)))
    y = np.array(draw(st.lists(ints(0, n_classes - 1), min_size=n, max_size=n)))
    return codes, y, segment, n_segments, n_levels, n_classes


@settings(deadline=None, max_examples=120)
@given(data=categorical_segments(), min_leaf=st.sampled_from([1, 1, 2, 4]))
def test_score_categorical_equals_information_gain_per_segment(data, min_leaf):
    codes, y, segment, n_segments, n_levels, n_classes = data
    with np.errstate(all="raise"):
        result = splits.score_categorical(
            codes, y, segment, n_segments, n_levels, n_classes, min_leaf=min_leaf
        )
    for s in range(n_segments):
        rows = segment == s
        sizes = np.bincount(codes[rows], minlength=n_levels)
        occupied = sizes[sizes > 0]
        # the children's class counts add up to the parent's
        children = crosstab_codes(codes[rows], n_levels, y[rows], n_classes)
        np.testing.assert_array_equal(
            children.sum(axis=0), np.bincount(y[rows], minlength=n_classes)
        )
        valid = len(occupied) >= 2 and bool(np.all(occupied >= min_leaf))
        assert result.valid[s] == valid
        assert result.n_branches[s] == len(occupied)
        if valid:
            x_labels = pd.Series([f"level{c}" for c in codes[rows]])  # categorical on purpose
            expected = information.information_gain(x_labels, y[rows])
            assert abs(result.gain[s] - expected) <= 1e-12
            assert abs(result.split_info[s] - ref_entropy(occupied)) <= 1e-12
        else:
            assert math.isnan(result.gain[s])


def test_single_non_empty_branch_is_invalid():
    codes = np.array([0, 0, 0, 1, 2, 2])
    y = np.array([0, 1, 1, 0, 1, 0])
    segment = np.array([0, 0, 0, 1, 1, 1])
    result = splits.score_categorical(codes, y, segment, 3, 3, 2)  # segment 2 has no rows
    assert result.valid.tolist() == [False, True, False]
    assert result.n_branches.tolist() == [1, 2, 0]
    assert math.isnan(result.gain[0]) and math.isnan(result.gain[2])
    # segment 1: branches {0} and {1, 0}: H(Y) - 2/3 * 1
    assert abs(result.gain[1] - (ref_entropy([2, 1]) - 2 / 3)) <= 1e-12
    assert abs(result.split_info[1] - ref_entropy([1, 2])) <= 1e-12


@settings(deadline=None, max_examples=60)
@given(
    key=st.lists(st.integers(0, 50), min_size=1, max_size=40),
    size=st.sampled_from([51, 100, 1_000_000]),
)
def test_dense_ranks_both_paths(key, size):
    key = np.array(key)
    distinct, rank = splits.dense_ranks(key, size)
    expected_distinct, expected_rank = np.unique(key, return_inverse=True)
    np.testing.assert_array_equal(distinct, expected_distinct)
    np.testing.assert_array_equal(rank, expected_rank.ravel())


# ---------------------------------------------------------------------------------------------
# Chi-square
# ---------------------------------------------------------------------------------------------
@st.composite
def tables(draw):
    rows, cols = draw(st.integers(1, 5)), draw(st.integers(1, 5))
    cells = draw(st.lists(st.integers(0, 30), min_size=rows * cols, max_size=rows * cols))
    table = np.array(cells).reshape(rows, cols)
    zero_rows = draw(st.lists(st.booleans(), min_size=rows, max_size=rows))
    zero_cols = draw(st.lists(st.booleans(), min_size=cols, max_size=cols))
    table[np.array(zero_rows) & draw(st.booleans())] = 0
    table[:, np.array(zero_cols) & draw(st.booleans())] = 0
    return table


@settings(deadline=None, max_examples=150)
@given(table=tables())
def test_chi_square_matches_scipy(table):
    result = chi_square_from_table(table)
    occupied = table[table.sum(axis=1) > 0][:, table.sum(axis=0) > 0]
    if occupied.size == 0 or min(occupied.shape) < 2:
        assert (result.statistic, result.df, result.pvalue) == (0.0, 0, 1.0)
        return
    statistic, pvalue, dof, expected = sp_stats.chi2_contingency(occupied, correction=False)
    assert result.df == dof
    assert result.statistic == pytest.approx(statistic, rel=1e-10, abs=1e-10)
    assert result.pvalue == pytest.approx(pvalue, rel=1e-9, abs=1e-12)
    np.testing.assert_allclose(result.expected, expected, rtol=1e-12)
    assert type(result.statistic) is float and type(result.pvalue) is float


def test_chi_square_drops_empty_rows_and_columns():
    table = np.array([[2, 0, 3], [0, 0, 0], [4, 0, 0], [3, 0, 2]])  # Play Tennis Outlook + zeros
    result = chi_square_from_table(table)
    statistic, pvalue, dof, _ = sp_stats.chi2_contingency(
        np.array([[2, 3], [4, 0], [3, 2]]), correction=False
    )
    assert result.df == dof == 2
    assert result.statistic == pytest.approx(statistic, rel=1e-12)
    assert result.pvalue == pytest.approx(pvalue, rel=1e-12)


# ---------------------------------------------------------------------------------------------
# The counted search (few distinct values) == the sorted search == the plain list
# ---------------------------------------------------------------------------------------------
@st.composite
def coded_segments(draw):
    """Segments of rows in no particular order, each row's value a code ``0 .. n_codes-2`` (the
    last code: missing), up to 12 classes: ties and duplicates are the rule."""
    n_classes = draw(st.sampled_from([2, 2, 3, 5, 12]))
    n_codes = draw(st.integers(2, 7))
    sizes = draw(st.lists(st.integers(1, 25), min_size=1, max_size=6))
    n = sum(sizes)
    codes = np.array(draw(st.lists(st.integers(0, n_codes - 1), min_size=n, max_size=n)))
    if draw(st.booleans()):  # no missing values
        codes = np.minimum(codes, n_codes - 2)
    y = np.array(draw(st.lists(st.integers(0, n_classes - 1), min_size=n, max_size=n)))
    return codes, y, np.repeat(np.arange(len(sizes)), sizes), n_codes, n_classes


@settings(deadline=None, max_examples=150)
@given(data=coded_segments(), min_leaf=st.sampled_from([1, 1, 2, 3]))
def test_counted_search_equals_the_sorted_search_and_the_plain_list(data, min_leaf):
    codes, y, segment, n_codes, n_classes = data
    n_segments = int(segment.max()) + 1
    counted, low, high = splits.search_counted(
        codes, y, segment, n_segments, n_codes, n_classes, min_leaf=min_leaf
    )
    # the same rows as numbers (the code's value; NaN for missing), searched sorted
    x = np.where(codes == n_codes - 1, np.nan, codes.astype(float))
    groups = [(x[segment == s], y[segment == s]) for s in range(n_segments)]
    values, labels, starts, lengths = concatenate_sorted(groups)
    sorted_search = splits.search_thresholds(
        values, labels, starts, lengths, n_classes, min_leaf=min_leaf
    )
    for field in COUNTS:
        np.testing.assert_array_equal(getattr(counted, field), getattr(sorted_search, field))
    np.testing.assert_array_equal(counted.found, sorted_search.found)
    for field in ("overall_entropy", "gain", "split_info"):
        np.testing.assert_allclose(
            getattr(counted, field), getattr(sorted_search, field), atol=1e-12, rtol=0
        )
    np.testing.assert_array_equal(counted.side_counts, sorted_search.side_counts)
    np.testing.assert_array_equal(low[counted.found], sorted_search.low[counted.found])
    np.testing.assert_array_equal(high[counted.found], sorted_search.high[counted.found])
    assert (low[~counted.found] == -1).all() and (high[~counted.found] == -1).all()
    for s, (xs, ys) in enumerate(groups):
        if counted.found[s]:  # the codes' midpoint is the plain list's threshold
            found = dataclasses.replace(
                counted, threshold=np.where(counted.found, (low + high) / 2, np.nan)
            )
        else:
            found = counted
        check_search_against_plain(found, s, xs, ys, min_leaf)


def test_counted_search_by_hand():
    # one segment, values 0 0 1 1 2 (codes) with classes a a b b a: the cut between 0 and 1
    # leaves {a, a} | {b, b, a}: overall entropy 3/5 H(2/3, 1/3); between 1 and 2: {a a b b} | {a}
    codes, y = np.array([2, 0, 1, 0, 1]), np.array([0, 0, 1, 0, 1])
    found, low, high = splits.search_counted(codes, y, np.zeros(5, int), 1, 4, 2)
    h = 3 / 5 * ref_entropy([1, 2])
    other = 4 / 5 * 1.0
    assert min(h, other) == h
    assert (low[0], high[0]) == (0, 1)
    assert found.n_left[0] == 2 and found.n_right[0] == 3
    assert abs(found.overall_entropy[0] - h) <= 1e-12
    assert found.side_counts[0].tolist() == [[2, 0], [1, 2], [0, 0]]


def test_count_keys_both_paths():
    key = np.array([5, 3, 5, 9, 3, 3])
    for size in (10, 10**9):  # a bincount, then a sort
        distinct, count = splits.count_keys(key, size)
        assert distinct.tolist() == [3, 5, 9] and count.tolist() == [3, 2, 1]


@settings(deadline=None, max_examples=100)
@given(
    data=segmented(),
    n_layouts=st.integers(1, 4),
    min_leaf=st.sampled_from([1, 1, 2, 3]),
    seed=st.integers(0, 2**16),
)
def test_layouts_as_rows_of_a_matrix_equal_the_search_end_to_end(data, n_layouts, min_leaf, seed):
    """The segments' rows sorted by several features (one layout per row of a matrix, the rows
    of each segment alike in every layout) are searched exactly as the layouts laid end to end:
    the same cuts, ties, counts and entropies, bit for bit; and each cut is the plain list's."""
    groups, n_classes = data
    rng = np.random.default_rng(seed)
    # each layout j sorts the same rows by its own feature: x, then shuffled copies of x
    features = [[x if j == 0 else rng.permutation(x) for x, _ in groups] for j in range(n_layouts)]
    lengths = np.array([len(x) for x, _ in groups])
    starts = np.r_[0, np.cumsum(lengths)[:-1]]
    m = int(lengths.sum())
    step_up, labels, values = (np.zeros((n_layouts, m), dtype=t) for t in (bool, np.uint8, float))
    n_present = np.zeros((n_layouts, len(groups)), dtype=np.int64)
    for j, columns in enumerate(features):
        sorted_parts = [sort_nan_last(x, y) for x, (_, y) in zip(columns, groups)]
        values[j] = np.concatenate([v for v, _ in sorted_parts])
        labels[j] = np.concatenate([c for _, c in sorted_parts])
        step_up[j, :-1] = values[j, :-1] < values[j, 1:]
        n_present[j] = [np.count_nonzero(~np.isnan(v)) for v, _ in sorted_parts]
    as_rows = splits.search_layouts(
        step_up, labels, starts, lengths, n_present, n_classes, min_leaf=min_leaf
    )
    end_to_end = splits.search_cuts(
        step_up.reshape(-1),
        labels.reshape(-1),
        (np.arange(n_layouts)[:, None] * m + starts).reshape(-1),
        np.tile(lengths, n_layouts),
        n_present.reshape(-1),
        n_classes,
        min_leaf=min_leaf,
    )
    for field in FIELDS + COUNTS + ("side_counts", "position"):
        np.testing.assert_array_equal(getattr(as_rows, field), getattr(end_to_end, field), field)
    for j, columns in enumerate(features):
        for s, (x, (_, y)) in enumerate(zip(columns, groups)):
            plain = [
                r
                for r in splits.plain_candidate_splits(x, y)
                if min(r["n_left"], r["n_right"]) >= min_leaf
            ]
            assert as_rows.found[j * len(groups) + s] == bool(plain)


def first_k_of_every_threshold(values, codes, starts, lengths, n_classes, k):
    """The reference ranking: every threshold, sorted by segment, overall entropy, threshold."""
    every = splits.enumerate_thresholds(values, codes, starts, lengths, n_classes)
    ranked = pd.DataFrame(every).sort_values(
        ["segment", "overall_entropy", "threshold"], kind="stable"
    )
    counts = np.bincount(every["segment"], minlength=len(starts))
    return ranked.groupby("segment").head(k), counts


@settings(deadline=None, max_examples=60)
@given(data=segmented(), k=st.integers(1, 6), min_leaf=st.sampled_from([1, 2, 3]))
def test_the_searchs_ranked_cuts_give_the_first_k_of_every_threshold(data, k, min_leaf):
    """What the split search keeps for the trace (``rank=k``: the cuts near each segment's k
    best, from its own scores, whatever ``min_leaf``) ranks exactly as every threshold sorted
    by overall entropy then threshold: of :func:`search_cuts` (rows laid end to end, also in
    pieces of ``piece_rows`` rows, a segment longer than a piece in parts) and of
    :func:`search_layouts` (two layouts of the same segments, a matrix)."""
    groups, n_classes = data
    layouts = [groups, [(np.where(np.isnan(x), np.nan, -x), y) for x, y in groups]]
    sorted_layouts = [concatenate_sorted(g) for g in layouts]
    starts, lengths = sorted_layouts[0][2], sorted_layouts[0][3]
    m = int(lengths.sum())
    steps, labels, n_present = [], [], []
    for values, codes, _, _ in sorted_layouts:
        step_up, present = _steps_and_present(values, starts, lengths)
        steps.append(step_up)
        labels.append(codes)
        n_present.append(present)
    args = (starts, lengths, np.array(n_present), n_classes)
    matrix = splits.search_layouts(
        np.array(steps), np.array(labels), *args, min_leaf=min_leaf, rank=k
    )
    end_to_end_args = (
        np.concatenate(steps), np.concatenate(labels), np.r_[starts, starts + m],
        np.tile(lengths, 2), np.concatenate(n_present), n_classes,
    )  # fmt: skip
    end_to_end = splits.search_cuts(*end_to_end_args, min_leaf=min_leaf, rank=k)
    in_pieces = [  # in pieces of a few segments; of 7 rows, the longer segments in parts
        splits.search_cuts_in_pieces(*end_to_end_args, min_leaf=min_leaf, rank=k, piece_rows=p)
        for p in (20, 7)
    ]
    values = np.concatenate([v for v, *_ in sorted_layouts])
    codes = np.concatenate([c for _, c, *_ in sorted_layouts])
    all_starts, all_lengths = np.r_[starts, starts + m], np.tile(lengths, 2)
    expected, counts = first_k_of_every_threshold(
        values, codes, all_starts, all_lengths, n_classes, k
    )
    for search in (matrix, end_to_end, *in_pieces):
        cuts = search.ranked
        at = cuts.position
        best = trace_thresholds.ranked_thresholds(cuts, values[at], values[at + 1], k)
        assert cuts.n_thresholds.tolist() == counts.tolist()
        assert list(best) == list(expected)
        for name, column in best.items():
            np.testing.assert_array_equal(column, expected[name].to_numpy(), err_msg=name)


def test_a_threshold_tied_with_the_kth_best_by_its_entropy_is_ranked_by_its_threshold():
    """Two cuts whose overall entropies are equal in floats but whose integer scores differ by
    the table's rounding: the k best are still the first k by entropy, then threshold (the cut
    just past the k-th integer score is kept for the float ranking)."""
    x = np.array([0.0, 2.0, 3.0, 0.5, 0.25, -1.0, 1.0, -2.0])
    y = np.array([0, 0, 1, 0, 0, 1, 1, 1])
    values, codes, starts, lengths = concatenate_sorted([(x, y)])
    for k in range(1, 8):
        best, _ = trace_thresholds.best_thresholds(values, codes, starts, lengths, 2, k)
        expected, _ = first_k_of_every_threshold(values, codes, starts, lengths, 2, k)
        np.testing.assert_array_equal(best["threshold"], expected["threshold"].to_numpy())
