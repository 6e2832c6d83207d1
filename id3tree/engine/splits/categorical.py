"""Categorical features: one branch per value, scored by the gain of the multiway split."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import numpy as np

from id3tree.base.entropy import entropy_of_groups, entropy_rows
from id3tree.engine.splits.results import class_counts

__all__ = ["branch_search", "CategoricalSearch", "count_keys", "dense_ranks", "score_categorical"]


@dataclass(frozen=True)
class CategoricalSearch:
    """The multiway split of each segment on one categorical feature."""

    valid: np.ndarray  # bool: at least two non-empty branches, each with >= min_leaf rows
    gain: np.ndarray
    split_info: np.ndarray
    n_branches: np.ndarray
    # for the trace (None from searches that do not provide them):
    overall_entropy: np.ndarray | None = None  # the size-weighted entropy of the branches
    branch_keys: np.ndarray | None = None  # segment * n_levels + value of each non-empty branch
    table: np.ndarray | None = None  # (n_branches_total, n_classes): their class counts


def dense_ranks(key: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """The sorted distinct values of ``key`` (all in ``0 .. size-1``) and each key's rank among them.

    A ``bincount`` when ``size`` is small next to the number of keys, a sort otherwise: the
    cost never depends on how many values *could* occur (a column may have 100,000 categories).
    """
    if _table_pays(size, len(key)):
        present = np.bincount(key, minlength=size) > 0
        return present.nonzero()[0], (present.cumsum() - 1)[key]
    distinct, rank = np.unique(key, return_inverse=True)
    return distinct, rank.ravel()


def _table_pays(size: int, n_keys: int) -> bool:
    """Whether ``n_keys`` keys in ``0 .. size-1`` are ranked or counted faster by a table of
    every possible key (one ``bincount``) than by sorting them."""
    return size <= 4 * n_keys + 4096


def count_keys(key: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """The sorted distinct values of ``key`` (all in ``0 .. size-1``) and how often each occurs,
    by a ``bincount`` when ``size`` is small next to the number of keys, a sort otherwise."""
    if _table_pays(size, len(key)):
        table = np.bincount(key, minlength=size)
        distinct = np.flatnonzero(table)
        return distinct, table[distinct]
    return np.unique(key, return_counts=True)


def score_categorical(
    codes: Any,
    y: Any,
    segment: Any,
    n_segments: Any,
    n_levels: Any,
    n_classes: Any,
    *,
    min_leaf: Any = 1,
    weight: Any = None,
    min_weight: Any = 0.0,
) -> CategoricalSearch:
    """Information gain of splitting each segment into one branch per value present in it.

    ``codes`` are the feature's values (``0 .. n_levels-1``), ``y`` the class codes and
    ``segment`` the segment of each row. Only branches that occur are counted, so a feature with
    many levels costs no more than one with few. Gain is the parent's entropy minus the
    size-weighted entropy of the branches; ``split_info`` is the entropy of the branch sizes.
    With ``weight`` (one per row) every count is a sum of weights; each branch then needs
    ``min_leaf`` rows and ``min_weight`` weight.
    """
    if weight is None:  # one count of (segment, value, class): the branches and their classes
        key = (segment.astype(np.int64) * n_levels + codes) * n_classes + y
        keys, count = count_keys(key, n_segments * n_levels * n_classes)
        cell, label = keys // n_classes, keys % n_classes  # (segment, value), class of each count
        new_branch = np.empty(len(cell), dtype=bool)
        new_branch[:1] = True
        np.not_equal(cell[1:], cell[:-1], out=new_branch[1:])
        branch_keys = cell[new_branch]
        branch = np.cumsum(new_branch) - 1
        table = np.zeros((len(branch_keys), n_classes), dtype=np.int64)
        table[branch, label] = count
        owner = branch_keys // n_levels  # the segment of each branch
        parent = class_counts(owner[branch] * n_classes + label, n_segments, n_classes, count)
        small = table.sum(axis=1) < min_leaf
    else:  # weighted: min_leaf counts rows, min_weight weighs the branch
        segment = segment.astype(np.int64)
        branch_keys, branch = dense_ranks(segment * n_levels + codes, n_segments * n_levels)
        n_branch = len(branch_keys)
        table = class_counts(branch * n_classes + y, n_branch, n_classes, weight)
        owner = branch_keys // n_levels  # the segment of each branch
        parent = class_counts(segment * n_classes + y, n_segments, n_classes, weight)
        rows = np.bincount(branch, minlength=n_branch)
        small = (rows < min_leaf) | (table.sum(axis=1) < min_weight)
    search = branch_search(table, owner, parent, small=small)
    return dataclasses.replace(search, branch_keys=branch_keys, table=table)


def branch_search(table: Any, owner: Any, parent: Any, *, small: Any) -> CategoricalSearch:
    """The multiway split of every segment from the class counts of its branches.

    ``table`` holds one row of class counts per non-empty branch, ``owner`` the segment of each
    (in segment order), ``parent`` the class counts of every segment (``(n_segments,
    n_classes)``) and ``small`` whether each branch is too small to stand (``min_leaf``). Gain
    is the parent's entropy minus the size-weighted entropy of the branches; ``split_info`` is
    the entropy of the branch sizes. A split is valid with two branches or more, none small.
    """
    n_segments = len(parent)
    sizes = table.sum(axis=1)
    n = np.bincount(owner, weights=sizes, minlength=n_segments)
    with np.errstate(invalid="ignore", divide="ignore"):
        after = np.bincount(owner, weights=sizes * entropy_rows(table), minlength=n_segments) / n
    n_branches = np.bincount(owner, minlength=n_segments)
    too_small = np.bincount(owner, weights=small, minlength=n_segments) > 0
    valid = (n_branches >= 2) & ~too_small
    return CategoricalSearch(
        valid=valid,
        gain=np.where(valid, np.maximum(entropy_rows(parent) - after, 0.0), np.nan),
        split_info=entropy_of_groups(sizes, owner, n_segments),
        n_branches=n_branches,
        overall_entropy=after,
    )
