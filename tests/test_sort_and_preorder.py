"""The short ways of the fit's two ends against the general ones.

Small data sorts its numeric columns by one integer sort of keys (``sorted_columns._sort_columns``), and
a tree of few nodes a level is numbered in pre-order node by node (``grown_tree.preorder``).
Each must give exactly what the general way gives: numpy's stable order (NaN last, equal values
in row order, -0.0 equal to 0.0) and the pre-order of a recursive walk.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from id3tree import ID3Classifier
from id3tree.base.validation import class_codes
from id3tree.engine import sorted_columns
from id3tree.engine.splits import SIZE_RULES
from id3tree.model import grown_tree
from tests.test_grow import everything
from tests.test_splits import size_rule

NEGATIVE_NAN = np.copysign(np.nan, -1.0)


def check_stable_sort(values: np.ndarray) -> None:
    """``_sort_columns`` against numpy's stable sort, column by column."""
    order, new_value, missing = sorted_columns._sort_columns(values)
    for j, x in enumerate(values):
        stable = np.argsort(x, kind="stable")
        assert order[j].tolist() == stable.tolist()
        xs = x[stable]
        assert missing[j].tolist() == np.isnan(xs).tolist()
        present = ~np.isnan(xs)
        first = np.r_[True, xs[1:] != xs[:-1]] & present
        assert (new_value[j] & present).tolist() == first.tolist()
        assert np.count_nonzero(new_value[j] & ~present) == (1 if (~present).any() else 0)


def test_values_closer_than_the_keys_tell_apart_are_still_sorted():
    # 1,000 rows: the keys keep all but the lowest 10 bits of a value, so values 2**-50 apart
    # (relative) share a key and come in row order, here the reverse of their order: the
    # columns must then be sorted the general way
    n = 1000
    close = 1.0 + np.arange(n)[::-1] * 2.0**-50
    assert len(np.unique(close)) == n
    spread = np.random.default_rng(0).normal(size=n)
    check_stable_sort(np.stack([spread, close, -close]))


def test_negative_nan_infinities_and_signed_zeros_sort_as_numpy_sorts_them():
    rng = np.random.default_rng(1)
    special = np.array([0.0, -0.0, np.nan, NEGATIVE_NAN, np.inf, -np.inf, 1.5, -1.5])
    values = special[rng.integers(0, len(special), size=(4, 300))]
    check_stable_sort(values)
    # the zeros of a column keep their signs in row order: -0.0 is not sorted before 0.0
    order = sorted_columns._sort_columns(values)[0]
    for j in range(len(values)):
        zeros = order[j][values[j][order[j]] == 0]
        assert zeros.tolist() == sorted(zeros.tolist())


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from([0.0, -0.0, 1.0, np.nan, NEGATIVE_NAN, np.inf, -np.inf]),
            st.floats(allow_nan=False, allow_infinity=False),
            st.floats(1.0, 1.0 + 2.0**-40),
        ),
        min_size=1,
        max_size=80,
    ),
    st.integers(1, 3),
)
def test_any_columns_are_sorted_as_a_stable_sort_sorts_them(values, n_columns):
    x = np.array(values, dtype=float)
    check_stable_sort(np.stack([np.roll(x, j)[:: 1 - 2 * (j % 2)] for j in range(n_columns)]))


def test_the_fit_is_the_same_whichever_way_its_columns_are_sorted():
    # values the keys cannot tell apart, signed zeros and missing values: the small-data fit
    # (one key sort of every column), the key sort column by column (the way of a column of
    # large data short enough for it, whose rises are then kept as flags) and the quicksort
    # column by column grow the same model
    rng = np.random.default_rng(2)
    n = 400
    X = np.stack(
        [
            1.0 + rng.integers(0, 50, n) * 2.0**-48,
            rng.choice([0.0, -0.0, 1.0, -1.0], n),
            np.where(rng.random(n) < 0.2, NEGATIVE_NAN, rng.normal(size=n)),
            rng.normal(size=n),
        ],
        axis=1,
    )
    y = ((X[:, 0] > 1.0 + 25 * 2.0**-48) ^ (X[:, 3] > 0.5)).astype(int)
    fits = []
    for stacked_values in (SIZE_RULES["stacked_values"].limit, n + 1, 0):
        with size_rule("stacked_values", stacked_values):
            fits.append(everything(ID3Classifier().fit(X, y), X))
    assert fits[0] == fits[1] == fits[2]


def level_order_tree(children_per_node: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """A tree numbered level by level, as the grower numbers it: node i (in that order) gets
    ``children_per_node[i]`` children (missing entries: none); its parent and depth arrays."""
    parent, depth = [-1], [0]
    level = [0]
    while level:
        next_level = []
        for p in level:
            count = children_per_node[p] if p < len(children_per_node) else 0
            for _ in range(count):
                next_level.append(len(parent))
                parent.append(p)
                depth.append(depth[p] + 1)
        level = next_level
    return np.array(parent), np.array(depth)


def recursive_preorder(parent: np.ndarray) -> list[int]:
    """Pre-order numbers by recursion, children in number order (the reference)."""
    children = [[] for _ in parent]
    for i, p in enumerate(parent.tolist()):
        if p >= 0:
            children[p].append(i)
    number = [0] * len(parent)
    counter = iter(range(len(parent)))

    def visit(i):
        number[i] = next(counter)
        for c in children[i]:
            visit(c)

    visit(0)
    return number


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 4), max_size=60))
def test_node_by_node_and_level_by_level_number_a_tree_alike(children_per_node):
    parent, depth = level_order_tree(children_per_node)
    reference = recursive_preorder(parent)
    assert grown_tree.preorder(parent, depth).tolist() == reference
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(grown_tree, "LOOP_NODES_PER_LEVEL", 0)  # by levels
        assert grown_tree.preorder(parent, depth).tolist() == reference
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(grown_tree, "LOOP_NODES_PER_LEVEL", 2**62)  # by nodes
        assert grown_tree.preorder(parent, depth).tolist() == reference


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.integers(-3, 12), min_size=1, max_size=40),
    st.sampled_from([np.int8, np.int32, np.int64, np.uint8, np.uint64]),
    st.sampled_from([0, 2**40]),
)
def test_class_codes_are_those_of_np_unique(values, dtype, shift):
    # labels already coded 0..K-1 are taken by one count; any others by np.unique itself
    labels = np.array(values, dtype=np.int64)
    if np.issubdtype(dtype, np.unsignedinteger):
        labels = np.abs(labels)
    if shift and np.iinfo(dtype).max > 2**41:
        labels = labels + shift
    labels = labels.astype(dtype)
    distinct, codes = class_codes(labels)
    expected_distinct, expected_codes = np.unique(labels, return_inverse=True)
    assert distinct.dtype == expected_distinct.dtype
    assert distinct.tolist() == expected_distinct.tolist()
    assert codes.dtype == expected_codes.dtype
    assert codes.tolist() == expected_codes.tolist()
    assert not np.shares_memory(codes, labels)  # the model keeps its own codes
