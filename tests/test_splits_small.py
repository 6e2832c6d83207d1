"""The small search's short ways against its general ones, bit for bit.

A level of small data is searched by :func:`~id3tree.engine.splits.search_layouts`, which spares work
the general way does: it hands :func:`~id3tree.engine.splits.threshold_search` the flags of the
segments with a cut, says when no row is missing (``missing=None``), and takes the caller's
word on whether any is (``has_missing``). Each short way must give the very same search.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from scipy.stats import entropy as scipy_entropy

from id3tree.base.entropy import DENSE_CLASSES, XLOGX_KEPT_ENTRIES
from id3tree.engine import splits


def assert_same_search(a, b) -> None:
    """Every array of two searches equal to the last bit (NaN where NaN, -0.0 apart from 0.0)."""
    for field in dataclasses.fields(splits.ThresholdSearch):
        x, y = getattr(a, field.name), getattr(b, field.name)
        if x is None or y is None:
            assert x is None and y is None, field.name
            continue
        if field.name == "ranked":
            continue
        x, y = np.asarray(x), np.asarray(y)
        assert x.dtype == y.dtype and x.shape == y.shape, field.name
        assert x.tobytes() == y.tobytes(), field.name


def random_cuts(rng, n_seg, n_classes, with_missing):
    """Segments with random class counts, a cut in some of them (``left``: a part of their
    rows with a value, two non-empty sides: a row of class 0 left, one of class 1 right),
    missing rows or none."""
    present = rng.integers(0, 6, size=(n_seg, n_classes))
    present[:, :2] += 1
    missing = rng.integers(0, 3, size=(n_seg, n_classes)) if with_missing else None
    owner = np.flatnonzero(rng.random(n_seg) < 0.7)
    left = rng.integers(0, present[owner] + 1)
    left[:, 0] = np.maximum(left[:, 0], 1)
    left[:, 1] = np.minimum(left[:, 1], present[owner, 1] - 1)
    return owner, left, present, missing


@pytest.mark.parametrize("n_classes", [2, 3, 5, DENSE_CLASSES + 3])
@pytest.mark.parametrize("seed", range(5))
def test_threshold_search_without_missing_rows_is_the_search_of_zero_missing(n_classes, seed):
    rng = np.random.default_rng(seed)
    owner, left, present, _ = random_cuts(rng, 12, n_classes, with_missing=False)
    n_ties = rng.integers(1, 3, size=12)
    zeros = np.zeros_like(present)
    general = splits.threshold_search(owner, left, present, zeros, n_ties)
    short = splits.threshold_search(owner, left, present, None, n_ties)
    assert_same_search(short, general)
    # and the caller's flags of the segments with a cut, instead of the owners
    found = np.zeros(12, dtype=bool)
    found[owner] = True
    assert_same_search(splits.threshold_search(owner, left, present, None, n_ties, found), general)
    # against scipy: the overall entropy of each cut from its two sides
    for s in owner.tolist():
        sides = [general.side_counts[s, 0], general.side_counts[s, 1]]
        sizes = [int(side.sum()) for side in sides]
        expected = sum(n * scipy_entropy(side, base=2) for n, side in zip(sizes, sides) if n)
        assert general.overall_entropy[s] == pytest.approx(expected / sum(sizes), abs=1e-12)
    assert np.isnan(general.overall_entropy[~found]).all()


@pytest.mark.parametrize("seed", range(5))
def test_threshold_search_given_found_keeps_the_missing_branch(seed):
    rng = np.random.default_rng(seed)
    owner, left, present, missing = random_cuts(rng, 10, 3, with_missing=True)
    n_ties = np.ones(10, dtype=np.int64)
    found = np.zeros(10, dtype=bool)
    found[owner] = True
    general = splits.threshold_search(owner, left, present, missing, n_ties)
    assert_same_search(
        splits.threshold_search(owner, left, present, missing, n_ties, found), general
    )
    # the missing rows are a third branch of every cut: they weigh in the overall entropy
    assert (general.n_missing[found] == missing[found].sum(axis=1)).all()


def layouts(rng, n_layouts, lengths, n_classes, nan_share):
    """``n_layouts`` sorts of the same segments' rows (random values, a share of them NaN)."""
    starts = np.r_[0, np.cumsum(lengths)[:-1]]
    m = int(lengths.sum())
    y = rng.integers(0, n_classes, size=m)
    step_up = np.zeros((n_layouts, m), dtype=bool)
    labels = np.zeros((n_layouts, m), dtype=np.uint8)
    n_present = np.zeros((n_layouts, len(lengths)), dtype=np.int64)
    for j in range(n_layouts):
        x = np.round(rng.normal(size=m), 1)
        x[rng.random(m) < nan_share] = np.nan
        for s, (a, n) in enumerate(zip(starts.tolist(), lengths.tolist())):
            order = np.argsort(x[a : a + n], kind="stable") + a  # (NaN last)
            values = x[order]
            labels[j, a : a + n] = y[order]
            step_up[j, a : a + n - 1] = values[:-1] < values[1:]
            n_present[j, s] = np.count_nonzero(~np.isnan(values))
    return step_up, labels, starts, lengths, n_present


@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("nan_share", [0.0, 0.2])
@pytest.mark.parametrize("seed", range(4))
def test_search_layouts_takes_the_callers_word_on_missing_rows(n_classes, nan_share, seed):
    rng = np.random.default_rng(seed)
    lengths = rng.integers(1, 30, size=5)
    args = layouts(rng, 3, lengths, n_classes, nan_share)
    found_here = splits.search_layouts(*args, n_classes)
    any_missing = bool((args[4] < lengths).any())
    told = splits.search_layouts(*args, n_classes, has_missing=any_missing)
    assert_same_search(told, found_here)
    # a column that had missing values in rows no longer in play: the general way, same search
    assert_same_search(splits.search_layouts(*args, n_classes, has_missing=True), found_here)
    # and the search of the layouts laid end to end
    step_up, labels, starts, lengths, n_present = args
    end_to_end = splits.search_cuts(
        step_up.reshape(-1),
        labels.reshape(-1),
        (np.arange(3)[:, None] * step_up.shape[1] + starts).reshape(-1),
        np.tile(lengths, 3),
        n_present.reshape(-1),
        n_classes,
    )
    for field in ("found", "n_left", "n_right", "n_missing", "n_ties", "side_counts"):
        np.testing.assert_array_equal(getattr(told, field), getattr(end_to_end, field), field)
    np.testing.assert_array_equal(told.overall_entropy, end_to_end.overall_entropy)


@pytest.mark.parametrize("seed", range(4))
def test_search_layouts_of_rows_all_present_needs_no_count_of_them(seed):
    """With ``has_missing=False`` the matrix search reads no ``n_present`` (the caller makes
    none): the same search as when given the counts."""
    rng = np.random.default_rng(seed)
    lengths = rng.integers(1, 30, size=5)
    step_up, labels, starts, lengths, n_present = layouts(rng, 3, lengths, 2, 0.0)
    given = splits.search_layouts(step_up, labels, starts, lengths, n_present, 2)
    without = splits.search_layouts(step_up, labels, starts, lengths, None, 2, has_missing=False)
    assert_same_search(without, given)


@pytest.mark.parametrize("unit", [1.0 / (2.0**36 * np.log(2.0)), 1e-9, 3.7e-12])
def test_looked_up_tie_tolerances_are_the_computed_ones(unit):
    """The table of tolerances kept per unit gives each segment what ``tie_tolerance``
    computes, short segments and long ones (past the kept tables: computed), first call or
    later, with the table grown."""
    rng = np.random.default_rng(1)
    for longest in (3, 700, 5000, XLOGX_KEPT_ENTRIES - 1, XLOGX_KEPT_ENTRIES + 9):
        n_rows = rng.integers(0, longest + 1, size=50)
        n_rows[0] = longest
        looked_up = splits.looked_up_tolerance(n_rows, longest, unit)
        computed = np.floor(splits.TIE_TOLERANCE * n_rows.astype(float) / unit).astype(np.int64)
        assert looked_up.dtype == np.int64
        np.testing.assert_array_equal(looked_up, computed)
