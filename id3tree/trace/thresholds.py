"""The best thresholds the trace lists (``verbose=2``): each numeric candidate's thresholds
ranked by overall entropy, best first. The split search keeps, for the listener that asks,
the cuts that may be among them (:func:`~id3tree.engine.splits.near_best.near_best_cuts`);
ranking them, and the columns of each, is the trace's own work."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from id3tree.engine.splits.near_best import ranked_cuts
from id3tree.engine.splits.plain import midpoint
from id3tree.engine.splits.results import RankedCuts
from id3tree.engine.splits.sorted_rows import Cuts, pieces
from id3tree.engine.splits.strategies import limit
from id3tree.engine.splits.thresholds import (
    columns_of_ranked,
    enumerate_thresholds,
    prepared,
    sides_of_ranked,
)

__all__ = ["best_thresholds", "ranked_in_pieces", "ranked_overall", "ranked_thresholds"]


def best_thresholds(
    values: Any, y: Any, starts: Any, lengths: Any, n_classes: Any, k: int, weight: Any = None
) -> Any:
    """The ``k`` best midpoints of every segment (lowest overall entropy, then smallest
    threshold), best first, and how many each segment has in all.

    Same inputs and columns as :func:`enumerate_thresholds`, and the same numbers, but the
    cuts are ranked by their exact integer scores first (:class:`~id3tree.engine.splits.sorted_rows.Cuts`),
    so that entropies are computed only for the few that can be among the ``k`` best
    (:func:`~id3tree.engine.splits.near_best.near_best_cuts`), not
    for every cut (weighted rows have no integer scores: every cut is scored, then ranked).
    The segments are ranked in order, as many whole ones at a time as fit in ``piece_rows``
    rows (a longer one alone, :data:`~id3tree.engine.splits.strategies.SIZE_RULES`), as the split search scores them: the temporaries stay small.
    Returns ``(columns, n_thresholds)``.
    """
    if weight is not None:
        columns: Any = enumerate_thresholds(values, y, starts, lengths, n_classes, weight)
        n_thresholds = np.bincount(columns["segment"], minlength=len(starts))
        return _first_of_each(columns, k), n_thresholds
    if not len(starts):  # no segment, no threshold
        return enumerate_thresholds(values, y, starts, lengths, n_classes), np.zeros(0, int)
    values, y, starts, lengths, step_up, n_present = prepared(values, y, starts, lengths)
    columns = []
    for part, rows in pieces(starts, lengths, int(limit("piece_rows"))):
        s = part.start
        cuts = Cuts(
            step_up[rows], y[rows], starts[part] - starts[s], lengths[part], n_present[part],
            n_classes,
        )  # fmt: skip
        valid = cuts.valid()
        ranked = ranked_cuts(cuts, cuts.score_all(valid), valid, 1, k)
        at = ranked.position + rows.start
        best = ranked_thresholds(ranked, values[at], values[at + 1], k)
        best["segment"] = best["segment"] + s
        columns.append((best, ranked.n_thresholds))
    joined = {name: np.concatenate([c[name] for c, _ in columns]) for name in columns[0][0]}
    return joined, np.concatenate([n for _, n in columns])


def ranked_thresholds(cuts: RankedCuts, low: Any, high: Any, k: int) -> dict:
    """The columns of :func:`best_thresholds` (the ``k`` best of each segment, best first) from
    the cuts that may be among them (:func:`near_best_cuts`, kept by :func:`best_thresholds` or
    by the split search): only those get their entropies computed and ranked. ``low`` and
    ``high`` are the two values each cut lies between."""
    return _first_of_each(columns_of_ranked(cuts, low, high), k)


def ranked_overall(cuts: RankedCuts, low: Any, high: Any, k: int) -> dict:
    """The columns ``segment``, ``threshold`` and ``overall_entropy`` of
    :func:`ranked_thresholds` (its fast path, for the printed page, which shows no other): of
    every kept cut only its overall entropy, and the threshold of the cuts listed, once
    ranked."""
    _, _, overall = sides_of_ranked(cuts)
    order = _first_order(overall, cuts.segment, k)
    return {
        "segment": cuts.segment[order],
        "threshold": midpoint(low[order], high[order]),
        "overall_entropy": overall[order],
    }


RANKED_PIECE = 2**18
"""The most kept cuts :func:`ranked_in_pieces` ranks at once: a piece's temporaries (a few
arrays of 8 or 16 bytes a cut) stay a few MB, in memory already in use, where ranking the 2.9
million kept cuts of a fit of 1,000,000 rows at once made fresh arrays of tens of MB, whose
first touch cost more than their work (benchmarks/README.md, 'The verbose=2 page at a million
rows: the search's part')."""


def ranked_in_pieces(
    parts: list, k: int, rank: Any = ranked_overall, piece: int = RANKED_PIECE
) -> Any:
    """``rank`` (:func:`ranked_overall` or :func:`ranked_thresholds`) of the cuts of ``parts``
    (``(RankedCuts, low, high)`` each, at least one) joined one after another (their segments
    numbered on from the last part's), ranked ``piece`` cuts or so at a time: runs of whole
    segments, a part's or several parts' (a segment of more cuts alone). Each segment is ranked
    alone, so the columns are those of one call on the parts joined (:func:`_ranked_at_once`,
    its plain twin). Returns the columns and how many thresholds each segment has."""
    found, group, size = [], [], 0
    for part in _runs_of(parts, piece):
        group.append(part)
        size += len(part[0].segment)
        if size >= piece:
            found.append(_ranked_at_once(group, k, rank))
            group, size = [], 0
    if group:
        found.append(_ranked_at_once(group, k, rank))
    first = np.cumsum([0] + [len(n) for _, n in found[:-1]]).tolist()  # of each piece
    columns = {
        name: np.concatenate(
            [c[name] + s if name == "segment" else c[name] for (c, _), s in zip(found, first)]
        )
        for name in found[0][0]
    }
    return columns, np.concatenate([n for _, n in found])


def _ranked_at_once(parts: list, k: int, rank: Any) -> tuple:
    """The plain twin of :func:`ranked_in_pieces`: ``rank`` of ``parts`` (at least one)
    joined, in one call."""
    cuts = RankedCuts.joined([c for c, _, _ in parts])
    low, high = (np.concatenate([p[i] for p in parts]) for i in (1, 2))
    return rank(cuts, low, high, k), cuts.n_thresholds


def _runs_of(parts: list, piece: int) -> Iterator[Any]:
    """The cuts of ``parts`` (``(RankedCuts, low, high)`` each) as runs of whole segments of at
    most ``piece`` cuts (a segment of more alone; a part of at most ``piece`` cuts whole), their
    segments numbered from 0 in each."""
    for cuts, low, high in parts:
        if len(cuts.segment) <= piece:
            yield cuts, low, high
            continue
        n_cuts = np.bincount(cuts.segment, minlength=len(cuts.present))
        for segments, rows in pieces(np.cumsum(n_cuts) - n_cuts, n_cuts, piece):
            run = RankedCuts(
                cuts.segment[rows] - segments.start, cuts.position[rows], cuts.left[rows],
                cuts.present[segments], cuts.parent[segments], cuts.n_thresholds[segments],
            )  # fmt: skip
            yield run, low[rows], high[rows]


def _first_of_each(columns: dict, k: int) -> dict:
    """The first ``k`` thresholds of each segment by overall entropy, then threshold.

    The columns must list the cuts in segment order, and each segment's in position order
    (their thresholds increasing)."""
    order = _first_order(columns["overall_entropy"], columns["segment"], k)
    return {name: column[order] for name, column in columns.items()}


def _first_order(overall: Any, seg: Any, k: int) -> np.ndarray:
    """The rows of :func:`_first_of_each`. Segments of a few cuts each (what the trace ranks:
    the cuts near each one's best) are ranked in a table of a row per segment
    (:func:`_first_in_rows`), others by sorting every cut (:func:`_first_by_sorting`)."""
    n = np.bincount(seg) if len(seg) else np.zeros(0, np.int64)
    width = int(n.max(initial=0))
    if len(n) * width <= 4 * len(seg) + 4096:  # (the table is not mostly padding)
        return _first_in_rows(overall, n, width, k)
    return _first_by_sorting(overall, seg, k)


def _first_in_rows(overall: Any, n: Any, width: int, k: int) -> np.ndarray:
    """The fast path of :func:`_first_of_each`: the rows of the first ``k`` cuts of each
    segment (``n[s]`` cuts each, one segment after the other) by ``overall`` entropy, then
    position, in that order. The cuts are laid in a table of a row per segment, padded with
    NaN to ``width`` entries (NaN sorts last, and a stable sort keeps the cuts' own NaN before
    the padding), and each row sorted by one stable :func:`numpy.argsort`."""
    first = np.cumsum(n) - n
    within = np.arange(len(overall)) - first.repeat(n)
    table = np.full((len(n), width), np.nan)
    table[np.arange(len(n)).repeat(n), within] = overall
    ranked = np.argsort(table, axis=1, kind="stable")[:, :k]
    kept = ranked < n[:, None]  # (the padding, sorted after every cut)
    return (ranked + first[:, None])[kept]


def _first_by_sorting(overall: Any, seg: Any, k: int) -> np.ndarray:
    """The plain twin of :func:`_first_in_rows`, for segments of any size: two stable sorts of
    every cut, by overall entropy then by segment, rank them as one sort by segment, overall
    entropy and position would."""
    order = np.argsort(overall, kind="stable")
    order = order[np.argsort(seg[order], kind="stable")]
    seg = seg[order]
    first = np.searchsorted(seg, seg)  # the first row of each segment
    return order[np.arange(len(order)) - first < k]
