"""The ``counted`` search: a numeric feature of few distinct values, by counting its rows."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from id3tree.engine.splits.categorical import count_keys
from id3tree.engine.splits.results import ThresholdSearch
from id3tree.engine.splits.sorted_rows import search_cuts

__all__ = ["search_counted"]


def search_counted(
    codes: Any,
    y: Any,
    segment: Any,
    n_segments: Any,
    n_codes: Any,
    n_classes: Any,
    *,
    min_leaf: Any = 1,
    rank: Any = 0,
) -> tuple[ThresholdSearch, np.ndarray, np.ndarray]:
    """:func:`search_cuts` for a feature with few distinct values, by counting instead of sorting.

    ``codes`` number the feature's values in increasing order ``0 .. n_codes-2``; the last code,
    ``n_codes-1``, means missing. Rows need not be sorted: one ``bincount`` of
    (segment, value, class) gives, for every segment, its values in increasing order with the
    rows of each class, and :func:`search_cuts` scores the cuts between those values with the
    same table of ``c log c`` as for sorted rows, counting each (value, class) pair once instead
    of row by row. Returns the search (counts of rows, as :func:`search_cuts`) and the codes of
    the two values each best cut lies between (-1 where none was found). With ``rank=k``, the
    cuts that may be among each segment's ``k`` best are kept for the trace, as by
    :func:`search_cuts`, with the codes of the values each lies between (``ranked.beside``).
    """
    # the key packs (segment, value, class) in bit fields: unpacking takes shifts, not divisions
    class_bits, code_bits = _bits(n_classes), _bits(n_codes)
    key = segment.astype(np.int64) << (code_bits + class_bits)
    key |= codes.astype(np.int64) << class_bits
    key |= y
    keys, count = count_keys(key, n_segments << (code_bits + class_bits))
    owner = keys >> (code_bits + class_bits)
    value = (keys >> class_bits) & ((1 << code_bits) - 1)
    label = keys & ((1 << class_bits) - 1)
    lengths = np.bincount(owner, minlength=n_segments)
    starts = np.cumsum(lengths) - lengths
    n_present = np.bincount(owner[value < n_codes - 1], minlength=n_segments)
    step_up = np.zeros(len(keys), dtype=bool)
    np.less(value[:-1], value[1:], out=step_up[:-1])
    found = search_cuts(
        step_up, label, starts, lengths, n_present, n_classes, min_leaf=min_leaf, count=count,
        rank=rank,
    )  # fmt: skip
    if found.ranked is not None:
        at = found.ranked.position
        found.ranked = replace(found.ranked, beside=np.stack([value[at], value[at + 1]]))
    low, high = np.full(n_segments, -1), np.full(n_segments, -1)
    at = found.position[found.found]  # type: ignore[index]  # (found: kept)
    low[found.found], high[found.found] = value[at], value[at + 1]
    return found, low, high


def _bits(n: int) -> int:
    """Bits enough for the numbers ``0 .. n-1``."""
    return max(int(n) - 1, 1).bit_length()
