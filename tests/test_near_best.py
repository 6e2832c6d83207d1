"""The trace's cuts near each segment's best (``verbose=2``): each fast path against its plain
twin and against a sort of every segment alone."""

from __future__ import annotations

import numpy as np
import pytest

from id3tree.splits.near_best import (
    _WINDOW,
    _near_best_around,
    _near_best_in_blocks,
    near_best_cuts,
)
from id3tree.splits.results import NOT_A_CUT


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
