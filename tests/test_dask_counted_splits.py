"""The split search fed with counts (the Dask grower's) equals the learner's, fed with rows.

Pure numpy: these run without dask installed.
"""

from __future__ import annotations

import functools
import random
from unittest import mock

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from id3tree.dask.counted_splits import (
    distinct_value_counts,
    merge_all_value_counts,
    merge_value_counts,
    score_counted_categorical,
    search_counted_thresholds,
)
from id3tree.engine import splits


def _equal(expected, found) -> None:
    for field in expected.__dataclass_fields__:
        if field == "position":  # rows have positions; counts of distinct values do not
            continue
        a, b = getattr(expected, field), getattr(found, field)
        if b is None:  # a detail for the trace that the counted search leaves out
            continue
        np.testing.assert_array_equal(a, b, err_msg=field)  # NaN == NaN here


@st.composite
def segments(draw):
    n_segments = draw(st.integers(1, 4))
    n_classes = draw(st.integers(1, 4))
    sizes = draw(st.lists(st.integers(1, 25), min_size=n_segments, max_size=n_segments))
    n = sum(sizes)
    values = draw(
        st.lists(st.sampled_from([0.0, 0.5, 1.0, 2.0, 3.5, np.nan]), min_size=n, max_size=n)
    )
    y = draw(st.lists(st.integers(0, n_classes - 1), min_size=n, max_size=n))
    min_leaf = draw(st.integers(1, 4))
    segment = np.repeat(np.arange(n_segments), sizes)
    return segment, np.array(values), np.array(y), n_classes, min_leaf


@settings(max_examples=200, deadline=None)
@given(segments())
def test_threshold_search_from_counts_equals_the_row_search(case):
    segment, values, y, n_classes, min_leaf = case
    k = segment.max() + 1
    order = np.lexsort((np.isnan(values), values, segment))  # by value in each segment, NaN last
    segment, values, y = segment[order], values[order], y[order]
    sizes = np.bincount(segment, minlength=k)
    rows = splits.search_thresholds(
        values, y, np.cumsum(sizes) - sizes, sizes, n_classes, min_leaf=min_leaf
    )

    present = ~np.isnan(values)
    distinct = distinct_value_counts(segment[present], values[present], y[present], n_classes)
    missing = np.bincount(
        segment[~present] * n_classes + y[~present], minlength=k * n_classes
    ).reshape(k, n_classes)
    parent = np.bincount(segment * n_classes + y, minlength=k * n_classes).reshape(k, n_classes)
    counted, left = search_counted_thresholds(*distinct, missing, parent, min_leaf=min_leaf)
    _equal(rows, counted)
    # the class counts left of the chosen threshold are those of the rows it sends left
    for s in np.flatnonzero(counted.found):
        mine = (segment == s) & (values <= counted.threshold[s])
        np.testing.assert_array_equal(left[s], np.bincount(y[mine], minlength=n_classes))


@settings(max_examples=200, deadline=None)
@given(segments(), st.integers(1, 5))
def test_categorical_score_from_a_table_equals_the_row_score(case, n_levels):
    segment, values, y, n_classes, min_leaf = case
    k = segment.max() + 1
    codes = np.where(np.isnan(values), n_levels, np.nan_to_num(values * 2).astype(int) % n_levels)
    rows = splits.score_categorical(
        codes, y, segment, k, n_levels + 1, n_classes, min_leaf=min_leaf
    )
    table = np.bincount(
        (segment * (n_levels + 1) + codes) * n_classes + y,
        minlength=k * (n_levels + 1) * n_classes,
    ).reshape(k, n_levels + 1, n_classes)
    _equal(rows, score_counted_categorical(table, min_leaf=min_leaf))


def test_value_counts_merge_like_counting_everything_at_once():
    rng = np.random.default_rng(0)
    segment = rng.integers(0, 3, 500)
    values = rng.integers(0, 20, 500).astype(float)
    y = rng.integers(0, 2, 500)
    whole = distinct_value_counts(segment, values, y, 2)
    halves = merge_value_counts(
        distinct_value_counts(segment[:200], values[:200], y[:200], 2),
        distinct_value_counts(segment[200:], values[200:], y[200:], 2),
    )
    for a, b in zip(whole, halves):
        np.testing.assert_array_equal(a, b)
    assert whole[2].sum() == 500


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.lists(
            st.tuples(
                st.integers(0, 3), st.sampled_from([-1.5, -0.0, 0.0, 0.25, 2.0]), st.integers(0, 1)
            ),
            max_size=30,
        ),
        min_size=1,
        max_size=9,
    )
)
def test_merging_a_list_at_once_equals_merging_two_at_a_time(parts):
    summaries = []
    for rows in parts:
        segment = np.array([r[0] for r in rows], dtype=np.int64)
        values = np.array([r[1] for r in rows], dtype=float)
        y = np.array([r[2] for r in rows], dtype=np.int64)
        summaries.append(distinct_value_counts(segment, values, y, 2))
    at_once = merge_all_value_counts(summaries)
    pairwise = functools.reduce(merge_value_counts, summaries)
    for a, b in zip(pairwise, at_once):
        np.testing.assert_array_equal(a, b)
        assert a.dtype == b.dtype
    np.testing.assert_array_equal(np.signbit(pairwise[1]), np.signbit(at_once[1]))
    # and what the merge must be: every row counted once, each pair of (segment, value) once
    assert at_once[2].sum() == sum(len(rows) for rows in parts)
    pairs = {(r[0], r[1]) for rows in parts for r in rows}  # (-0.0 == 0.0 here)
    assert len(at_once[0]) == len(pairs)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 6),
    st.integers(1, 4),
    st.lists(st.sampled_from([-1.5, -0.0, 0.0, 0.25, 2.0, 7.0]), min_size=1, max_size=80),
    st.randoms(use_true_random=False),
)
def test_dense_value_counts_equal_the_sorted_ones(n_segments, n_classes, values, rnd):
    """The dense table (a few distinct values) gives the arrays the stable sort gives, signs of
    zero included (a value of 0 keeps its segment's first zero row's sign, as the sort does)."""
    from id3tree.dask import counted_splits

    values = np.array(values)
    segment = np.array([rnd.randrange(n_segments) for _ in values], dtype=np.int64)
    y = np.array([rnd.randrange(n_classes) for _ in values], dtype=np.int64)
    expected = counted_splits.sorted_value_counts(segment, values, y, n_classes)
    coded = np.unique(values, return_inverse=True)
    dense = counted_splits.dense_value_counts(
        segment, values, y, n_classes, coded, int(segment.max()) + 1
    )
    found = distinct_value_counts(segment, values, y, n_classes)
    for got in (dense, found):
        for a, b in zip(expected, got):
            np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(np.signbit(expected[1]), np.signbit(got[1]))


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 5),
    st.integers(1, 3),
    st.lists(st.sampled_from([-1.5, -0.0, 0.0, 0.25, 2.0, 7.0, np.nan]), min_size=1, max_size=80),
    st.booleans(),
    st.randoms(use_true_random=False),
)
def test_numeric_counts_of_coded_rows_equal_the_counts_of_their_values(
    k, n_classes, values, many, rnd
):
    """A partition coded once (numbers by their distinct values, missing last) gives, at every
    level, the counts the rows' own values give: the dense fast path, its plain twin and
    :func:`distinct_value_counts` of the raw values agree, signs of zero included; rows of no
    scored node (``node == k``) count nowhere."""
    import pandas as pd

    from id3tree.dask import core, level_pass

    values = np.array(values)
    node = np.array([rnd.randrange(k + 1) for _ in values], dtype=np.int64)
    y = np.array([rnd.randrange(n_classes) for _ in values], dtype=np.int64)
    part = pd.DataFrame({"x": values, "y": y})
    target = core.Coding("y", "y", categories=list(range(n_classes)))
    encoded = level_pass.encode_part(part, [core.Coding("x", "x")], ["numeric"], target)
    present = ~np.isnan(values)
    distinct, codes = core.number_codes(values)
    np.testing.assert_array_equal(distinct, np.unique(values[present]))
    np.testing.assert_array_equal(
        codes[present], np.unique(values[present], return_inverse=True)[1]
    )
    assert (codes[~present] == len(distinct)).all()
    keep = node < k
    on, v, c = node[keep], values[keep], y[keep]
    missing = np.isnan(v)
    expected = (
        distinct_value_counts(on[~missing], v[~missing], c[~missing], n_classes),
        np.bincount(on[missing] * n_classes + c[missing], minlength=k * n_classes),
    )  # (None where no row counted misses the value)
    work = np.empty(len(values), dtype=np.int64)
    if many:  # the table is too large for the fast path: the plain twin runs
        monkey = level_pass.DENSE_CELLS_PER_ROW
        level_pass.DENSE_CELLS_PER_ROW = -(10**9)
    try:
        fast = level_pass.numeric_counts(node, encoded, 0, k, n_classes, work)
    finally:
        if many:
            level_pass.DENSE_CELLS_PER_ROW = monkey
    plain = level_pass.numeric_counts_plain(node, encoded, 0, k, n_classes)
    for found in (fast, plain):
        for a, b in zip(expected[0], found[0]):
            np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(np.signbit(expected[0][1]), np.signbit(found[0][1]))
        if missing.any():
            np.testing.assert_array_equal(expected[1], found[1])
        else:
            assert found[1] is None


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 3),
    st.lists(st.sampled_from([-1.5, -0.0, 0.0, 0.25, 2.0, 7.0, np.nan]), min_size=1, max_size=80),
    st.randoms(use_true_random=False),
)
def test_counts_of_values_by_hashing_equal_the_sorted_ones(n_classes, values, rnd):
    """A ranking's counts of one numeric column (coded by hashing, counted with one bincount)
    equal the plain twin's (present rows masked, values sorted), signs of zero included."""
    from id3tree.dask.measures import counts_of_values, counts_of_values_plain

    values = np.array(values)
    y = np.array([rnd.randrange(n_classes) for _ in values], dtype=np.int64)
    (found, missing, parent) = counts_of_values(values, y, n_classes)
    (expected, missing_0, parent_0) = counts_of_values_plain(values, y, n_classes)
    for a, b in zip(expected, found):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(np.signbit(expected[1]), np.signbit(found[1]))
    np.testing.assert_array_equal(missing_0, missing)
    np.testing.assert_array_equal(parent_0, parent)


@pytest.mark.parametrize("kind", ["few", "distinct", "late", "missing"])
def test_number_codes_of_long_columns_equal_numpys_whatever_the_hash_tables_size(kind):
    """Columns longer than the sample that sizes the hash table (few distinct values, all
    distinct, new values only after the sample, mostly missing) code as ``np.unique`` does."""
    from id3tree.dask import core

    rng = np.random.default_rng(7)
    n = 3 * core.HINT_SAMPLE
    values = {
        "few": np.round(rng.normal(size=n), 1),
        "distinct": rng.normal(size=n),
        "late": np.r_[np.zeros(core.HINT_SAMPLE), rng.normal(size=n - core.HINT_SAMPLE)],
        "missing": np.where(rng.random(n) < 0.9, np.nan, np.round(rng.normal(size=n), 2)),
    }[kind]
    hint = core.distinct_hint(values)
    assert hint == (n if kind == "distinct" else 8 * len(np.unique(values[: core.HINT_SAMPLE])))
    distinct, codes = core.number_codes(values)
    present = ~np.isnan(values)
    expected, inverse = np.unique(values[present], return_inverse=True)
    np.testing.assert_array_equal(distinct, expected)
    np.testing.assert_array_equal(codes[present], inverse)
    assert (codes[~present] == len(distinct)).all() and codes.dtype == np.int32


def _pair_table(found: dict, sizes, order: list[int], a: int, b: int) -> np.ndarray:
    """The ``(a codes, b codes)`` table of columns a and b (C order) from the Dask MI matrix's
    counts of a partition (``_pairs_chunk``; ``order``: ``_order`` of the sizes)."""
    position = {column: p for p, column in enumerate(order)}
    first, second = (a, b) if position[a] < position[b] else (b, a)
    p = position[first]
    offset = sum(sizes[c] for c in order[p + 1 : position[second]])
    cells = found[p][1][:, offset : offset + sizes[second]]
    return np.ascontiguousarray(cells if first == a else cells.T)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.integers(1, 70), min_size=1, max_size=7),
    st.integers(0, 60),
    st.randoms(use_true_random=False),
    st.sampled_from([None, 1]),
)
@example([60] * 6, 300, random.Random(0), None)  # groups of one column, two blocks after each
def test_pair_tables_of_grouped_columns_equal_the_plain_ones(n_levels, n_rows, rnd, dense):
    """The MI matrix's counts of one partition, counted by the pandas engine's groups and
    blocks, equal the plain count of every column against every later one; and each pair's
    table read back from them is that pair's crosstab (``dense=1``: every block counted a pair
    at a time, as blocks too large to count at once are). Groups of one column (more than 45
    codes) and of several, and one or more blocks, all count in the same reused buffers."""
    import pandas as pd

    from id3tree.dask import core, ranking
    from id3tree.ranking import _pairs

    part = pd.DataFrame(
        {
            f"c{k}": [
                None if rnd.random() < 0.1 else f"v{rnd.randrange(levels)}" for _ in range(n_rows)
            ]
            for k, levels in enumerate(n_levels)
        },
        dtype=object,
    )
    wanted = {c: (c, "categories") for c in part.columns}
    summary = core._describe_chunk(part, wanted, dict(part.dtypes))
    codings = list(core.codings_from(summary, wanted).values())
    with mock.patch.object(_pairs, "DENSE_CELLS", dense or _pairs.DENSE_CELLS):
        found = ranking._pairs_chunk(part, codings)
    expected = ranking._pairs_chunk_plain(part, codings)
    assert found.keys() == expected.keys()
    for a in expected:
        for x, y in zip(expected[a], found[a]):
            np.testing.assert_array_equal(x, y)
    codes = [c.codes(part) for c in codings]
    sizes = [c.n_codes for c in codings]
    order = ranking._order(sizes)
    for a in range(len(codings)):
        for b in range(a + 1, len(codings)):
            crosstab = np.zeros((sizes[a], sizes[b]), dtype=np.int64)
            np.add.at(crosstab, (codes[a], codes[b]), 1)
            np.testing.assert_array_equal(_pair_table(found, sizes, order, a, b), crosstab)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.lists(
            st.sampled_from([-3.0, -1.5, -0.0, 0.0, 0.1, 0.3, 1 / 3, 2.0, 7.0, np.nan]),
            min_size=1,
            max_size=60,
        ),
        min_size=1,
        max_size=3,
    ),
    st.integers(1, 300),
)
def test_equal_width_codes_in_reused_buffers_equal_the_plain_ones(columns, bins):
    """The MI matrix's coder of guessed edges (buffers made once, no copy of the column)
    equals its plain twin, ``information._equal_width_codes``, column after column in the same
    buffers, and the bins of ``np.searchsorted`` (the last bin closed); its range is the
    column's smallest and largest present value and its missing count."""
    from id3tree.dask import core
    from id3tree.information import _equal_width_codes
    from id3tree.ranking._common import narrow_dtype

    n_rows = max(len(c) for c in columns)
    coder = core.EqualWidthCoder(n_rows)
    for column in columns:
        values = np.array(column + [np.nan] * (n_rows - len(column)))
        present = values[~np.isnan(values)]
        data = np.array([present.min(), present.max()]) if len(present) else np.zeros(1)
        edges = np.histogram_bin_edges(data, bins=bins)
        dtype = narrow_dtype(len(edges))
        codes, (low, high, n_missing) = coder.code(values, edges, dtype)
        assert codes.dtype == dtype and np.iinfo(dtype).max >= bins
        np.testing.assert_array_equal(codes, _equal_width_codes(values, edges))
        inside = np.minimum(np.searchsorted(edges, present, side="right") - 1, bins - 1)
        np.testing.assert_array_equal(codes[~np.isnan(values)], inside)
        assert (codes[np.isnan(values)] == bins).all() and n_missing == len(values) - len(present)
        if len(present):
            assert (low, high) == (present.min(), present.max())
        else:
            assert np.isnan(low) and np.isnan(high)


def test_a_value_outside_guessed_edges_shows_in_the_range():
    """Edges that miss a value put it in the nearest bin, and the range found says so (the MI
    matrix then throws those codes away)."""
    from id3tree.dask import core

    values = np.array([0.5, 1.0, 9.0, np.nan])
    codes, (low, high, n_missing) = core.EqualWidthCoder(4).code(
        values, np.linspace(0.0, 2.0, 5), np.uint8
    )
    np.testing.assert_array_equal(codes, [1, 2, 3, 4])
    assert (low, high, n_missing) == (0.5, 9.0, 1) and high > 2.0


def test_a_levels_features_are_dealt_into_passes_that_fit():
    """Features in column order, each held MERGE_FACTOR times over, fill a pass until the next
    would pass the budget; one too large for any pass has its own; no budget: one pass."""
    from id3tree.dask import level_pass

    factor = level_pass.MERGE_FACTOR
    n_bytes = {0: 10, 1: 10, 2: 50, 3: 5, 4: 5}
    budget = factor * 25  # room for 0 and 1 together, 2 alone is over it
    batches = level_pass.feature_batches(list(n_bytes), n_bytes, budget)
    assert batches == [[0, 1], [2], [3, 4]]
    for batch in batches:  # every pass fits, or holds one feature
        assert len(batch) == 1 or factor * sum(n_bytes[f] for f in batch) <= budget
    assert level_pass.feature_batches([3, 1], n_bytes, None) == [[3, 1]]
    assert level_pass.feature_batches([], n_bytes, None) == []
    assert level_pass.feature_batches([0, 1], n_bytes, 0) == [[0], [1]]


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 6), st.integers(1, 3), st.integers(1, 200), st.randoms(use_true_random=False))
def test_a_levels_counts_stay_within_their_bound(k, n_classes, n, rnd):
    """What a partition sends for a feature is never larger than ``count_bytes`` says: a
    numeric feature's (node, value) pairs and missing rows' table, a sparse table's cells, a
    dense table; the bound the passes are sized by."""
    import pandas as pd

    from id3tree.dask import core, level_pass

    values = np.array([rnd.choice([np.nan, -1.0, 0.5, rnd.random()]) for _ in range(n)])
    codes = np.array([rnd.randrange(5) for _ in range(n)], dtype=np.int64)
    node = np.array([rnd.randrange(k + 1) for _ in range(n)], dtype=np.int64)
    y = np.array([rnd.randrange(n_classes) for _ in range(n)], dtype=np.int64)
    target = core.Coding("y", "y", categories=list(range(n_classes)))
    part = level_pass.encode_part(
        pd.DataFrame({"x": values, "y": y}), [core.Coding("x", "x")], ["numeric"], target
    )
    work = np.empty(n, dtype=np.int64)
    rows = int((node < k).sum())

    def size(found):
        if isinstance(found, level_pass.SparseCells):
            return found.cells.nbytes + found.counts.nbytes
        if isinstance(found, tuple):
            return sum(size(f) for f in found)
        return 0 if found is None else found.nbytes

    for numeric in (level_pass.numeric_counts, level_pass.numeric_counts_plain):
        args = (work,) if numeric is level_pass.numeric_counts else ()
        found = numeric(node, part, 0, k, n_classes, *args)
        assert size(found) <= level_pass.count_bytes("numeric", (k, 3, n_classes), rows, 1, False)
    sparse = level_pass.sparse_cells(node, k, codes, 5, y, n_classes, work)
    assert size(sparse) <= level_pass.count_bytes("categorical", (k, 5, n_classes), rows, 1, True)
    dense = level_pass.count_cells(node, k + 1, codes, 5, y, n_classes, work)[: k * 5 * n_classes]
    assert size(dense) <= level_pass.count_bytes("categorical", (k, 5, n_classes), rows, 1, False)
