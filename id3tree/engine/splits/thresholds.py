"""Every threshold of a numeric feature, or the best ones: what ``candidate_splits``,
``candidate_table`` and the trace list."""

from __future__ import annotations

import dataclasses

import numpy as np

from id3tree.base.entropy import DENSE_CLASSES, entropy_of_counts, entropy_rows
from id3tree.engine.splits.near_best import ranked_at, ranked_cuts
from id3tree.engine.splits.plain import midpoint
from id3tree.engine.splits.results import RankedCuts, ThresholdSearch
from id3tree.engine.splits.sorted_rows import Cuts, pieces
from id3tree.engine.splits.strategies import limit, search_sorted
from id3tree.engine.splits.weighted import WeightedCuts


def _steps_and_present(values, starts, lengths):
    """``step_up`` and ``n_present`` of
    :func:`~id3tree.engine.splits.sorted_rows.search_cuts` for values sorted within segments."""
    step_up = np.zeros(len(values), dtype=bool)
    np.less(values[:-1], values[1:], out=step_up[:-1])  # NaN compares False
    missing = np.isnan(values)
    n_missing = np.add.reduceat(missing, starts) if len(values) else np.zeros(len(starts), int)
    return step_up, lengths - n_missing


def search_thresholds(values, y, starts, lengths, n_classes, *, min_leaf=1) -> ThresholdSearch:
    """Best midpoint of every segment by lowest overall entropy; ties go to the smallest threshold.

    ``values`` must be sorted within each segment with NaN last; ``y`` holds class codes
    ``0 .. n_classes-1`` in the same order; segment s is ``starts[s] : starts[s] + lengths[s]``
    (every segment non-empty).
    """
    values = np.asarray(values, dtype=float)
    starts, lengths = np.asarray(starts), np.asarray(lengths)
    step_up, n_present = _steps_and_present(values, starts, lengths)
    found = search_sorted(
        step_up, np.asarray(y), starts, lengths, n_present, n_classes, min_leaf=min_leaf
    )
    at = found.position[found.found]
    threshold = found.threshold.copy()
    threshold[found.found] = midpoint(values[at], values[at + 1])
    low, high = np.full(len(starts), np.nan), np.full(len(starts), np.nan)
    low[found.found], high[found.found] = values[at], values[at + 1]
    return dataclasses.replace(found, threshold=threshold, position=None, low=low, high=high)


def enumerate_thresholds(
    values, y, starts, lengths, n_classes, weight=None
) -> dict[str, np.ndarray]:
    """Every candidate midpoint of every segment, in segment then threshold order.

    Same inputs as :func:`search_thresholds`; returns the columns of ``candidate_splits`` plus
    ``segment``, and ``low`` and ``high``, the adjacent values each threshold lies between.
    Each side's entropy comes from its class counts (kept for every cut: this is
    for showing the candidates, not for searching them). With ``weight`` (one per row), the
    sizes and entropies are sums of weights (:func:`_enumerate_weighted_thresholds`).
    """
    if weight is not None:
        values, y, starts, lengths, step_up, n_present = _prepared(values, y, starts, lengths)
        cuts = WeightedCuts(
            step_up, y, np.asarray(weight, float), starts, lengths, n_present, n_classes
        )
        return _enumerate_weighted_thresholds(cuts, values)
    values, y, cuts = _cuts_of(values, y, starts, lengths, n_classes)
    return _threshold_columns(cuts, values, cuts.candidates())


def best_thresholds(values, y, starts, lengths, n_classes, k: int, weight=None):
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
        columns = enumerate_thresholds(values, y, starts, lengths, n_classes, weight)
        n_thresholds = np.bincount(columns["segment"], minlength=len(starts))
        return _first_of_each(columns, k), n_thresholds
    if not len(starts):  # no segment, no threshold
        return enumerate_thresholds(values, y, starts, lengths, n_classes), np.zeros(0, int)
    values, y, starts, lengths, step_up, n_present = _prepared(values, y, starts, lengths)
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


def ranked_thresholds(cuts: RankedCuts, low, high, k: int) -> dict:
    """The columns of :func:`best_thresholds` (the ``k`` best of each segment, best first) from
    the cuts that may be among them (:func:`near_best_cuts`, kept by :func:`best_thresholds` or
    by the split search): only those get their entropies computed and ranked. ``low`` and
    ``high`` are the two values each cut lies between."""
    return _first_of_each(_columns_of_ranked(cuts, low, high), k)


def ranked_overall(cuts: RankedCuts, low, high, k: int) -> dict:
    """The columns ``segment``, ``threshold`` and ``overall_entropy`` of
    :func:`ranked_thresholds` (its fast path, for the printed page, which shows no other): of
    every kept cut only its overall entropy, and the threshold of the cuts listed, once
    ranked."""
    _, _, overall = _sides_of_ranked(cuts)
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


def ranked_in_pieces(parts: list, k: int, rank=ranked_overall, piece: int = RANKED_PIECE):
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


def _ranked_at_once(parts: list, k: int, rank) -> tuple:
    """The plain twin of :func:`ranked_in_pieces`: ``rank`` of ``parts`` (at least one)
    joined, in one call."""
    cuts = RankedCuts.joined([c for c, _, _ in parts])
    low, high = (np.concatenate([p[i] for p in parts]) for i in (1, 2))
    return rank(cuts, low, high, k), cuts.n_thresholds


def _runs_of(parts: list, piece: int):
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


def _sides_of_ranked(cuts: RankedCuts) -> tuple:
    """Of every cut of ``cuts``: the rows of its two sides (``(n_left, n_right)``, floats), their
    entropies (``(h_left, h_right)``) from their class counts, and its overall entropy (the
    missing rows' part where a segment has missing rows: elsewhere it adds 0.0)."""
    seg, present = cuts.segment, cuts.present
    left = np.ascontiguousarray(cuts.left.T, dtype=float)  # (classes, cuts): a class a row
    right = present.T.astype(float)[:, seg]
    right -= left
    n_left, n_right = _rows_of(left), _rows_of(right)
    h_left, h_right = _entropies(left, n_left), _entropies(right, n_right)
    lengths, n_present = _rows_of(cuts.parent.T), _rows_of(present.T)
    overall = n_left * h_left
    overall += n_right * h_right
    if (n_present < lengths).any():
        missing_part = (lengths - n_present) * entropy_rows(cuts.parent - present)
        overall += missing_part[seg]
    overall /= lengths[seg]
    return (n_left, n_right), (h_left, h_right), overall


def _rows_of(counts) -> np.ndarray:
    """The rows of each column of class counts ``(classes, n)``: the classes added one after
    another (whole numbers: the same sums in any order)."""
    rows = counts[0].copy()
    for of_class in counts[1:]:
        rows += of_class
    return rows


def _entropies(counts, rows) -> np.ndarray:
    """:func:`~id3tree.base.entropy.entropy_rows` of the columns of ``counts`` (``(classes, n)``,
    floats holding whole numbers, ``rows`` their sums), read class by class as it reads them
    (wide rows, by their non-zero cells)."""
    if len(counts) > DENSE_CLASSES:
        return entropy_rows(counts.T)
    return entropy_of_counts(counts, rows)


def _first_of_each(columns: dict, k: int) -> dict:
    """The first ``k`` thresholds of each segment by overall entropy, then threshold.

    The columns must list the cuts in segment order, and each segment's in position order
    (their thresholds increasing)."""
    order = _first_order(columns["overall_entropy"], columns["segment"], k)
    return {name: column[order] for name, column in columns.items()}


def _first_order(overall, seg, k: int) -> np.ndarray:
    """The rows of :func:`_first_of_each`. Segments of a few cuts each (what the trace ranks:
    the cuts near each one's best) are ranked in a table of a row per segment
    (:func:`_first_in_rows`), others by sorting every cut (:func:`_first_by_sorting`)."""
    n = np.bincount(seg) if len(seg) else np.zeros(0, np.int64)
    width = int(n.max(initial=0))
    if len(n) * width <= 4 * len(seg) + 4096:  # (the table is not mostly padding)
        return _first_in_rows(overall, n, width, k)
    return _first_by_sorting(overall, seg, k)


def _first_in_rows(overall, n, width: int, k: int) -> np.ndarray:
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


def _first_by_sorting(overall, seg, k: int) -> np.ndarray:
    """The plain twin of :func:`_first_in_rows`, for segments of any size: two stable sorts of
    every cut, by overall entropy then by segment, rank them as one sort by segment, overall
    entropy and position would."""
    order = np.argsort(overall, kind="stable")
    order = order[np.argsort(seg[order], kind="stable")]
    seg = seg[order]
    first = np.searchsorted(seg, seg)  # the first row of each segment
    return order[np.arange(len(order)) - first < k]


def _prepared(values, y, starts, lengths):
    values = np.asarray(values, dtype=float)
    y = np.asarray(y)
    starts, lengths = np.asarray(starts), np.asarray(lengths)
    step_up, n_present = _steps_and_present(values, starts, lengths)
    return values, y, starts, lengths, step_up, n_present


def _cuts_of(values, y, starts, lengths, n_classes):
    values, y, starts, lengths, step_up, n_present = _prepared(values, y, starts, lengths)
    return values, y, Cuts(step_up, y, starts, lengths, n_present, n_classes)


def _threshold_columns(cuts: Cuts, values, pos) -> dict[str, np.ndarray]:
    """The columns of :func:`enumerate_thresholds` for the cuts after positions ``pos``."""
    return _columns_of_ranked(ranked_at(cuts, pos), values[pos], values[pos + 1])


def _columns_of_ranked(cuts: RankedCuts, low, high) -> dict[str, np.ndarray]:
    """The columns of :func:`enumerate_thresholds` for the cuts of ``cuts``, each between the
    values ``low`` and ``high``: the sizes and entropies of each side from its class counts."""
    rows, entropies, overall = _sides_of_ranked(cuts)
    sizes = tuple(n.astype(np.int64) for n in rows)  # (whole numbers)
    return _columns_of_cuts(cuts.segment, low, high, sizes, entropies, overall, cuts.parent)


def _enumerate_weighted_thresholds(cuts: WeightedCuts, values) -> dict[str, np.ndarray]:
    """:func:`enumerate_thresholds` of weighted rows: ``n_left`` and ``n_right`` are weights."""
    pos = cuts.candidates()
    seg, w_left, w_right, h_left, h_right = cuts.score(pos)
    total = cuts.parent.sum(axis=1)
    missing_part = (cuts.missing.sum(axis=1) * entropy_rows(cuts.missing))[seg]
    overall = (w_left * h_left + w_right * h_right + missing_part) / total[seg]
    sizes, entropies = (w_left, w_right), (h_left, h_right)
    return _columns_of_cuts(
        seg, values[pos], values[pos + 1], sizes, entropies, overall, cuts.parent
    )


def _columns_of_cuts(seg, low, high, sizes, entropies, overall, parent) -> dict:
    """The columns of :func:`enumerate_thresholds` from the cuts' segments, the values each
    lies between, sizes and entropies of the two sides (rows or weights), overall entropy and
    parents' class counts."""
    return {
        "segment": seg,
        "threshold": midpoint(low, high),
        "low": low,
        "high": high,
        "n_left": sizes[0],
        "n_right": sizes[1],
        "entropy_left": entropies[0],
        "entropy_right": entropies[1],
        "overall_entropy": overall,
        "gain": np.maximum(entropy_rows(parent)[seg] - overall, 0.0),
    }
