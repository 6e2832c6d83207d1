"""The trace's cuts near each segment's best (``verbose=2``) and their ranking: each fast path
against its plain twin and against an independent reference."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats as sp_stats

from id3tree.engine.splits.near_best import (
    _WINDOW,
    _near_best_around,
    _near_best_around_one,
    _near_best_in_blocks,
    left_counts_at,
    near_best_cuts,
    ranked_at,
)
from id3tree.engine.splits.results import NOT_A_CUT, RankedCuts, ranges
from id3tree.engine.splits.sorted_rows import Cuts
from id3tree.engine.splits.thresholds import _cuts_of
from id3tree.trace.thresholds import (
    _ranked_at_once,
    ranked_in_pieces,
    ranked_overall,
    ranked_thresholds,
)


def sorted_within_margin(score, starts, lengths, k, margin) -> list:
    """The reference: of each segment alone, its valid scores sorted, and every position whose
    score is at most the k-th of them plus the margin (every valid one with fewer than k)."""
    kept = []
    for s, (a, n) in enumerate(zip(starts.tolist(), lengths.tolist())):
        mine = score[a : a + n]
        valid = np.sort(mine[mine < NOT_A_CUT])
        limit = valid[k - 1] + margin[s] if len(valid) >= k else NOT_A_CUT - 1
        kept += (a + np.flatnonzero(mine <= limit)).tolist()
    return kept


def walks(rng, lengths, invalid=0.15) -> np.ndarray:
    """Scores as a search has them: each segment's change little from one cut to the next (a
    random walk, so with several dips), some cuts not valid."""
    score = 2**24 + np.cumsum(rng.integers(-(2**10), 2**10, size=int(lengths.sum())))
    score[rng.random(len(score)) < invalid] = NOT_A_CUT
    return score


@pytest.mark.parametrize("seed", range(8))
def test_the_cuts_near_the_best_found_around_it_are_those_found_in_blocks(seed):
    """The fast path that starts from the cuts around each segment's best (where the search
    says it is) keeps exactly the cuts its plain twin (blocks) keeps, those within the margin
    of each segment's k-th best, whether the position given is the best cut, another cut or
    none (past the segment): a wrong one only costs time."""
    rng = np.random.default_rng(seed)
    lengths = rng.integers(1, 300, size=70)
    starts = np.cumsum(lengths) - lengths
    score = walks(rng, lengths)
    k = int(rng.integers(1, 7))
    margin = rng.integers(0, 2**11, size=len(lengths))
    best = np.array(
        [a + int(np.argmin(score[a : a + n])) for a, n in zip(starts.tolist(), lengths.tolist())]
    )
    elsewhere = starts + rng.integers(0, 2**16, size=len(lengths)) % lengths
    past = starts + lengths
    expected = sorted_within_margin(score, starts, lengths, k, margin)
    plain = _near_best_in_blocks(score, starts, lengths, k, margin)
    assert plain[1].tolist() == expected
    for given in (best, elsewhere, past, np.where(rng.random(len(best)) < 0.5, best, past)):
        fast = _near_best_around(score, starts, lengths, k, margin, given)
        assert fast is not None
        assert [a.tolist() for a in fast] == [a.tolist() for a in plain]
        assert [a.tolist() for a in near_best_cuts(score, starts, lengths, k, margin, given)] == [
            a.tolist() for a in plain
        ]


def test_a_window_with_too_few_cuts_falls_back_to_the_blocks():
    """A segment longer than the window whose cuts around the given best are mostly not
    valid (a feature of few distinct values) has the fast path decline, and the cuts found are
    the plain twin's."""
    lengths = np.array([10, 4 * _WINDOW, 3])
    starts = np.cumsum(lengths) - lengths
    score = walks(np.random.default_rng(0), lengths, invalid=0.0)
    score[10 : 10 + 3 * _WINDOW] = NOT_A_CUT  # the second segment: valid only at its end
    k, margin = 5, np.full(3, 16)
    best = np.array([0, 10, 10 + 4 * _WINDOW])
    assert _near_best_around(score, starts, lengths, k, margin, best) is None
    found = near_best_cuts(score, starts, lengths, k, margin, best)
    assert found[1].tolist() == sorted_within_margin(score, starts, lengths, k, margin)


def every_cut(rng, n_classes: int, n_segments: int = 40):
    """Every cut of random segments (values with ties and missing ones, sorted NaN last) as the
    searches keep them (:class:`RankedCuts`), and the values either side of each cut."""
    lengths = rng.integers(1, 40, size=n_segments)
    starts = np.cumsum(lengths) - lengths
    values = np.round(rng.normal(size=int(lengths.sum())), 1)
    values[rng.random(len(values)) < 0.1] = np.nan
    y = rng.integers(0, n_classes, size=len(values))
    for a, n in zip(starts.tolist(), lengths.tolist()):  # sorted within each segment, NaN last
        order = np.argsort(values[a : a + n], kind="stable")
        values[a : a + n], y[a : a + n] = values[a : a + n][order], y[a : a + n][order]
    values, y, cuts = _cuts_of(values, y, starts, lengths, n_classes)
    pos = cuts.candidates()
    n_thresholds = np.bincount(cuts.segment[pos], minlength=n_segments)
    return ranked_at(cuts, pos, n_thresholds), values[pos], values[pos + 1]


@pytest.mark.parametrize("n_classes", [2, 3, 20])
@pytest.mark.parametrize("k", [1, 5])
def test_the_pages_columns_of_the_ranked_cuts_are_those_of_every_column(n_classes, k):
    """The fast path for the printed page (only the overall entropy of each kept cut, the
    threshold of the listed ones) gives the very numbers and rows of the columns of every
    field (its plain twin), missing values, many classes and cuts joined from parts included;
    and its overall entropies are those of scipy's entropy of each side."""
    rng = np.random.default_rng(n_classes * 10 + k)
    parts = [every_cut(rng, n_classes) for _ in range(2)]
    cuts = RankedCuts.joined([p for p, _, _ in parts])
    low, high = (np.concatenate([p[i] for p in parts]) for i in (1, 2))
    fast = ranked_overall(cuts, low, high, k)
    plain = ranked_thresholds(cuts, low, high, k)
    assert list(fast) == ["segment", "threshold", "overall_entropy"]
    for name, column in fast.items():
        assert column.dtype == plain[name].dtype
        np.testing.assert_array_equal(column, plain[name], err_msg=name)
    assert len(fast["segment"]) > 60 * k
    # an independent check of the numbers: each side's entropy by scipy, weighted by its rows
    every = ranked_overall(cuts, low, high, 10**6)  # (every cut, ranked)
    seg = every["segment"]
    order = np.lexsort((every["overall_entropy"], seg))
    assert (seg[order] == seg).all()
    left = cuts.left
    right = cuts.present[cuts.segment] - left
    missing = (cuts.parent - cuts.present)[cuts.segment]
    sides = [sp_stats.entropy(side.T, base=2) if len(side) else side for side in (left, right)]
    h_missing = np.nan_to_num(sp_stats.entropy(missing.T, base=2))
    n = cuts.parent.sum(axis=1)[cuts.segment]
    overall = (
        left.sum(axis=1) * sides[0] + right.sum(axis=1) * sides[1] + missing.sum(axis=1) * h_missing
    ) / n
    expected = np.sort(overall + cuts.segment * 100.0)  # (entropies below 100: segment order)
    np.testing.assert_allclose(np.sort(every["overall_entropy"] + seg * 100.0), expected, atol=1e-9)


@pytest.mark.parametrize("seed", range(4))
def test_left_counts_by_rank_are_those_of_a_running_count_per_class(seed):
    """The fast path for two classes (each cut's left counts from its last row's rank among its
    class) gives the counts of its plain twin (one running count a class) and of counting the
    rows left of each cut directly: whole segments of rows, counted entries (several rows an
    entry), and a part of a long segment whose rows before it are counted."""
    rng = np.random.default_rng(seed)
    lengths = rng.integers(1, 60, size=30)
    starts = np.cumsum(lengths) - lengths
    m = int(lengths.sum())
    y = rng.integers(0, 2, size=m)
    step_up = rng.random(m) < 0.7
    n_present = np.maximum(lengths - rng.integers(0, 3, size=len(lengths)), 0)
    for count in (None, rng.integers(1, 9, size=m)):
        cuts = Cuts(step_up, y, starts, lengths, n_present, 2, count)
        pos = np.flatnonzero(rng.random(m) < 0.5)
        fast = left_counts_at(cuts, pos)
        np.testing.assert_array_equal(fast, ranked_at(cuts, pos).left)
        rows = np.ones(m, np.int64) if count is None else count
        seg = cuts.segment[pos]
        direct = [
            np.bincount(y[a : p + 1], weights=rows[a : p + 1], minlength=2)
            for a, p in zip(starts[seg].tolist(), pos.tolist())
        ]
        np.testing.assert_array_equal(fast, np.array(direct).reshape(-1, 2))
    # a part (rows 100 to 180) of one segment of 300 rows, 290 with a value
    y = rng.integers(0, 2, size=300)
    present = np.bincount(y[:290], minlength=2)[None]
    before = np.bincount(y[:100], minlength=2)[None]
    part = Cuts(
        np.ones(80, bool), y[100:180], np.array([0]), np.array([80]), np.array([290]), 2,
        before=before, present=present, scale=(300, 300),
    )  # fmt: skip
    pos = np.arange(80)
    expected = np.array([np.bincount(y[: 101 + p], minlength=2) for p in pos])
    np.testing.assert_array_equal(part.left_by_rank(pos), expected)
    np.testing.assert_array_equal(ranked_at(part, pos).left + before, expected)


@pytest.mark.parametrize("piece", [1, 7, 50, 10**6])
def test_the_kept_cuts_ranked_in_pieces_are_ranked_as_at_once(piece):
    """Ranking the kept cuts of many searches in pieces of whole segments (a piece of one
    part, of several, a segment longer than a piece alone) gives the columns and the numbers
    of thresholds of ranking them all joined in one call (its plain twin), for the page's
    columns and for every column."""
    rng = np.random.default_rng(piece)
    parts = [
        every_cut(rng, n_classes, int(n)) for n_classes, n in zip([3] * 6, [40, 1, 3, 60, 9, 2])
    ]
    for rank in (ranked_overall, ranked_thresholds):
        cols, n_thresholds = ranked_in_pieces(parts, 3, rank, piece)
        plain, plain_n = _ranked_at_once(parts, 3, rank)
        np.testing.assert_array_equal(n_thresholds, plain_n)
        assert list(cols) == list(plain)
        for name, column in cols.items():
            np.testing.assert_array_equal(column, plain[name], err_msg=name)
        assert len(cols["segment"]) > 200 and (np.diff(cols["segment"]) >= 0).all()


@pytest.mark.parametrize("seed", range(6))
def test_the_cuts_near_the_best_of_one_segment_are_those_found_in_blocks(seed):
    """The fast path for a single segment (scalar bounds) keeps exactly the cuts its plain
    twins keep (around the best for many segments, and in blocks), those within the margin of
    the segment's k-th best, wherever the search says its best is, declining where the window
    holds fewer than k cuts as they do."""
    rng = np.random.default_rng(seed)
    for n in (5, _WINDOW, _WINDOW + 1, 300, 5000):
        starts, lengths = np.array([0]), np.array([n])
        score = walks(rng, lengths, invalid=0.3)
        k = int(rng.integers(1, 6))
        margin = rng.integers(0, 2**11, size=1)
        expected = sorted_within_margin(score, starts, lengths, k, margin)
        for best in (int(np.argmin(score)), int(rng.integers(0, n)), n):
            given = np.array([best])
            fast = _near_best_around_one(score, starts, lengths, k, margin, given)
            many = _near_best_around(score, starts, lengths, k, margin, given)
            assert (fast is None) == (many is None)
            if fast is not None:
                assert fast[1].tolist() == expected
                assert [a.tolist() for a in fast] == [a.tolist() for a in many]
            found = near_best_cuts(score, starts, lengths, k, margin, given)
            assert found[1].tolist() == expected and (found[0] == 0).all()


def test_ranges_are_the_positions_of_each_range_one_after_another():
    rng = np.random.default_rng(7)
    starts = rng.integers(0, 50, size=40)
    stops = starts + rng.integers(-3, 6, size=40)  # some empty (a stop at or before its start)
    expected = [i for a, z in zip(starts.tolist(), stops.tolist()) for i in range(a, z)]
    assert ranges(starts, stops).tolist() == expected
    assert ranges(starts[:0], stops[:0]).tolist() == []
