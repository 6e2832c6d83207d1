"""The numeric split searches by name, and the one table of size rules that chooses among them.

Every search finds, for every node of a level, the midpoint of a numeric feature of lowest
overall entropy (ties: the smallest threshold), exactly as the plain version does
(:func:`~id3tree.engine.splits.plain.plain_candidate_splits`; a property test grows every tree each
way). They score a cut by ``n`` times its overall entropy in whole units of a ``c log c`` table
(:func:`~id3tree.base.entropy.cut_entropy_units`), so every search gives the same integers, the same
ties and the same cuts. They differ only in how they lay out the work, which is a question of
size; this module answers it, from :data:`SIZE_RULES`: :func:`is_counted` says how a feature is
laid out (counted, or sorted), :func:`layout_search` which search a chunk of sorted features
takes, and :data:`NUMERIC_SEARCHES` runs it by name (the only way a numeric search is run).

=============  ==========================================  =====================================
name           what it computes                            used for
=============  ==========================================  =====================================
``counted``    counts the rows of each (node, value,       a feature with few distinct values
               class) and scores the cuts between values   (``counted_share``)
``matrix``     the sorted layouts of several features as   a small level of few classes
               the rows of one matrix, each step one       (``matrix_cells``, ``matrix_classes``)
               numpy call for all of them
``end_to_end`` the layouts laid end to end, every cut      a larger level, or many classes
               scored by one running sum
``in_pieces``  the same, ``piece_rows`` rows at a time     more rows than ``piece_rows``
               (a longer node in parts)
``weighted``   running sums of weights, Shannon's formula  rows with ``sample_weight``
               in floats, for the cuts that may be the
               best (``near_best_scores``)
=============  ==========================================  =====================================
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from id3tree.engine.splits.counted import search_counted
from id3tree.engine.splits.matrix import search_layouts
from id3tree.engine.splits.results import ThresholdSearch
from id3tree.engine.splits.sorted_rows import search_cuts, search_cuts_in_pieces
from id3tree.engine.splits.weighted import search_weighted_cuts

__all__ = [
    "Chunk", "features_per_chunk", "is_counted", "keeps_values", "layout_search", "limit",
    "NUMERIC_SEARCHES", "search_sorted", "SIZE_RULES", "SizeRule",
]  # fmt: skip


@dataclass
class Chunk:
    """What a search of sorted features takes: a chunk of ``c`` numeric features at the ``k``
    scored nodes of a level, each feature's rows sorted within each node (its *layout*, a row
    of each ``(c, m)`` array: node e at positions ``starts[e] : starts[e] + sizes[e]``). Segment
    ``i * k + e`` of the result is the i-th feature at node e."""

    step_up: np.ndarray  # (c, m): whether the value rises at the next position
    labels: np.ndarray  # (c, m): the class code of each position
    starts: np.ndarray  # (k,)
    sizes: np.ndarray  # (k,)
    n_present: np.ndarray | None  # (c, k): rows with a value (None: every row has one)
    n_classes: int
    min_leaf: int = 1
    rank: int = 0  # keep the cuts that may be among each segment's ``rank`` best (the trace's)
    counts: np.ndarray | None = None  # (k, classes): the nodes' class counts, when known
    weight: np.ndarray | None = None  # (c, m): the weight of each position (weighted rows)
    min_weight: float = 0.0

    def end_to_end(self) -> tuple:
        """``(step_up, y, starts, lengths, n_present)`` of the layouts laid end to end."""
        c, m = self.step_up.shape
        starts = (np.arange(c)[:, None] * m + self.starts).reshape(-1)
        n_present = self.sizes[None].repeat(c, axis=0) if self.n_present is None else self.n_present
        return (
            self.step_up.reshape(-1), self.labels.reshape(-1), starts, np.tile(self.sizes, c),
            n_present.reshape(-1),
        )  # fmt: skip


def _matrix(chunk: Chunk) -> ThresholdSearch:
    has_missing = chunk.n_present is not None
    return search_layouts(
        chunk.step_up, chunk.labels, chunk.starts, chunk.sizes, chunk.n_present, chunk.n_classes,
        min_leaf=chunk.min_leaf, rank=chunk.rank, counts=chunk.counts, has_missing=has_missing,
    )  # fmt: skip


def _end_to_end(chunk: Chunk) -> ThresholdSearch:
    options = dict(min_leaf=chunk.min_leaf, rank=chunk.rank)
    return search_cuts(*chunk.end_to_end(), chunk.n_classes, **options)


def _in_pieces(chunk: Chunk) -> ThresholdSearch:
    options = dict(min_leaf=chunk.min_leaf, rank=chunk.rank, piece_rows=int(limit("piece_rows")))
    return search_cuts_in_pieces(*chunk.end_to_end(), chunk.n_classes, **options)


def _weighted(chunk: Chunk) -> ThresholdSearch:
    step_up, y, starts, lengths, n_present = chunk.end_to_end()
    return search_weighted_cuts(
        step_up, y, chunk.weight.reshape(-1), starts, lengths, n_present, chunk.n_classes,
        min_leaf=chunk.min_leaf, min_weight=chunk.min_weight,
    )  # fmt: skip


NUMERIC_SEARCHES = {
    "counted": search_counted, "matrix": _matrix, "end_to_end": _end_to_end,
    "in_pieces": _in_pieces, "weighted": _weighted,
}  # fmt: skip
"""Each numeric search by name, the dispatcher: each search of sorted features takes a
:class:`Chunk` (the functions it calls say what they compute); ``counted`` takes the codes of
the values instead (:func:`~id3tree.engine.splits.counted.search_counted`: its features are
never sorted)."""


@dataclass(frozen=True)
class SizeRule:
    """A number that decides how the numeric search lays out its work, and why it is that."""

    limit: float
    decides: str
    measured: str


SIZE_RULES = {
    "counted_share": SizeRule(
        1 / 64,
        "a numeric feature with at most this many distinct values per row is counted, not "
        "sorted (100 values at 6,400 rows, 1,562 at 100,000); with weights every feature is "
        "sorted",
        "sorting costs the same for every row; counting costs one bincount of the rows plus the "
        "(node, value, class) entries present: it wins when values are few next to rows "
        "(benchmarks/README.md, 'fit 100 distinct values per column': 0.66 and 0.63 of "
        "scikit-learn's time at 1e5 and 1e6 rows)",
    ),
    "matrix_cells": SizeRule(
        2**19,
        "up to this many positions times classes, a chunk of sorted features is searched as "
        "the rows of one matrix (matrix), beyond it laid end to end (end_to_end)",
        "the matrix takes about 60 bytes a position and 8 a cell (20 MB at most); with 2 "
        "classes it is faster at every size up to there: fits against scikit-learn went from "
        "2.3x to 1.8x at 1,000 rows, 0.68x to 0.39x at 10,000 and 0.47x to 0.33x at 100,000 "
        "(benchmarks/README.md, 'Small levels as a matrix')",
    ),
    "matrix_classes": SizeRule(
        5,
        "with more classes than this the layouts are laid end to end at any size",
        "the matrix takes a few operations per class, the end-to-end search a fixed number: "
        "the matrix's time over end to end's was 0.7 at 3 classes, 1.0 at 5, 1.1 at 8, "
        "1.2 to 1.7 at 16 and 32",
    ),
    "piece_rows": SizeRule(
        2**16,
        "the end-to-end search scores at most this many rows at once (in_pieces beyond, a "
        "longer node in parts that carry their class counts); the regrouping gathers as many",
        "its temporaries take about 100 bytes a row, so a piece stays a few MB however large "
        "the data: the fit of 1e6 x 10 peaks 1.36 to 1.49 times scikit-learn's memory above "
        "the loaded data (benchmarks/README.md, 'memory')",
    ),
    "chunk_rows": SizeRule(
        2**18,
        "numeric features are searched (and regrouped) together, as many as fit in this many "
        "positions",
        "one call for several features spares Python's cost per feature on small levels, and "
        "a chunk's temporaries stay below 2**18 positions on large ones",
    ),
    "stacked_values": SizeRule(
        2**18,
        "small data (at most this many values in its sorted features) sorts its columns by one "
        "call, keeps a copy of their values to read both values beside every cut at once, and "
        "takes the children of nodes split on sorted features from the search itself",
        "a few int64 a value; sorting 1,000 x 10 values took 0.19 ms the general way and "
        "0.11 ms by one sort, and the fit of 1,000 rows went from 1.8x to 1.15-1.19x "
        "scikit-learn's time with the children from the search (benchmarks/README.md, "
        "'Small fits, the level step and the input', 'The start and end of a fit')",
    ),
}
"""The one table of sizes: each number, what it decides, and the measurement behind it."""


def limit(name: str) -> float:
    """The number of the size rule ``name``."""
    return SIZE_RULES[name].limit


def is_counted(n_distinct: int, n_rows: int) -> bool:
    """Whether a numeric feature is searched by counting its values (``counted``) rather than
    by sorting its rows: at most ``counted_share`` distinct values per row. Both searches find
    the same thresholds, so the rule only decides speed."""
    return n_distinct <= limit("counted_share") * n_rows


def layout_search(n_classes: int, n_positions: int, *, weighted: bool, matrix: bool = True) -> str:
    """The search of a chunk of sorted features of ``n_positions`` positions in all (features
    times rows in play): ``weighted``, ``matrix`` (unless ``matrix=False``), or a search laid
    end to end (``end_to_end``, or ``in_pieces`` for many rows)."""
    if weighted:
        return "weighted"
    few = n_classes <= limit("matrix_classes") and n_positions * n_classes <= limit("matrix_cells")
    if matrix and few:
        return "matrix"
    return "end_to_end" if n_positions <= limit("piece_rows") else "in_pieces"


def features_per_chunk(n_rows: int) -> int:
    """How many numeric features are searched together when ``n_rows`` rows are in play."""
    return max(1, int(limit("chunk_rows")) // max(n_rows, 1))


def keeps_values(n_values: int) -> bool:
    """Whether small data keeps a copy of its sorted features' values (``stacked_values``)."""
    return n_values <= limit("stacked_values")


def search_sorted(
    step_up: Any,
    y: Any,
    starts: Any,
    lengths: Any,
    n_present: Any,
    n_classes: Any,
    *,
    min_leaf: Any = 1,
    rank: Any = 0,
) -> ThresholdSearch:
    """The best cut of every segment of rows sorted by value, laid end to end, by the search
    :func:`layout_search` chooses for them (``end_to_end``, or ``in_pieces`` for more than
    ``piece_rows`` rows). Arguments as :func:`~id3tree.engine.splits.sorted_rows.search_cuts`
    has them."""
    how = layout_search(n_classes, len(y), weighted=False, matrix=False)
    chunk = Chunk(
        step_up[None], y[None], starts, lengths, n_present[None], n_classes, min_leaf, rank
    )
    return NUMERIC_SEARCHES[how](chunk)
