"""The rows in play, grouped by node, kept sorted by every numeric feature across levels.

ID3 scores a numeric feature at a node by the best midpoint between its values. Sorting the rows
of every node at every level would cost a sort per node and feature; instead each numeric
feature's rows are sorted once, at the root, and after every level regrouped by child with one
stable sort of all features at once, which keeps each feature's order within each node: each
feature's *layout*. Every layout lists the nodes in the same order, so node s occupies the same
positions in all of them. :meth:`SortedColumns.score` hands the layouts to the numeric searches
of :mod:`id3tree.engine.splits.strategies`, chosen by size (or, for a feature with few distinct values,
counts its rows instead: the ``counted`` search).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from id3tree.engine.splits import cut_threshold, filled
from id3tree.engine.splits.results import gain_ratios
from id3tree.engine.splits.strategies import (
    NUMERIC_SEARCHES,
    Chunk,
    features_per_chunk,
    is_counted,
    keeps_values,
    layout_search,
    limit,
)
from id3tree.model.node import LEFT, NUMERIC_MISSING, RIGHT

__all__ = ["MISSING", "RISES", "SIDES_AS_CHILDREN", "SortedColumns"]

RISES = 1
"""Flag of a sorted position whose next position (in the same node) holds a larger value."""

MISSING = 2
"""Flag of a sorted position whose row has no value (NaN: they come last in every node)."""

SIDES_AS_CHILDREN = True
"""Small data (``stacked_values``) whose nodes all split on sorted features take the children
from the search itself (:meth:`SortedColumns.sorted_children`): no row is counted again. Off,
the general way (:meth:`SortedColumns.branches`, then a count of the rows by child) runs
instead; both give the same children (a test grows trees both ways)."""


def _usable(result: Any, min_leaf: Any) -> np.ndarray:
    """Where a numeric search found a cut whose missing-values branch (if any) is large enough."""
    if min_leaf == 1:  # any branch is large enough
        return result.found
    return result.found & ((result.n_missing == 0) | (result.n_missing >= min_leaf))


class _Orders(Mapping):
    """Each numeric feature's rows in play sorted within each node, as the trace reads them:
    the sorted features' layouts as they are, the counted features' sorted when asked for.
    Valid until the rows are regrouped for the next level."""

    def __init__(self, columns: SortedColumns) -> None:
        self.columns = columns

    def __getitem__(self, f: Any) -> Any:
        c = self.columns
        if f in c.features:
            return c.rows[c.features.index(f)]
        if f not in c.counted:
            raise KeyError(f)
        j, rows = c.counted.index(f), c.rows[0]
        key = c.node_of_position.astype(np.int64) * (len(c.counted_values[j]) + 1) + c.codes[j]
        return rows[np.argsort(key, kind="stable")]

    def __iter__(self) -> Any:
        return iter(self.columns.features + self.columns.counted)

    def __len__(self) -> Any:
        return len(self.columns.features) + len(self.columns.counted)


def _sort_columns(values: np.ndarray) -> Any:
    """Numeric columns, the rows of ``values`` (``(c, n)``), each sorted once: its stable order
    (NaN last), whether each sorted value differs from the one before it (``new_value``; a run
    of NaN is one value), and whether it is missing; each of shape ``(c, n)``.

    Small data (``stacked_values`` of :mod:`id3tree.engine.splits.strategies`) sorts integer keys, one sort of all the
    columns: a value's bits, turned to sort as the value does (-0.0 as 0.0, NaN last), with
    their lowest bits replaced by the row number, so that equal values come in row order, as a
    stable sort has them. Two values too close to differ in the bits kept would come in row
    order too: when the sorted values are not in order, the columns are sorted the general way,
    by numpy's quicksort (several times faster than its stable sort), whose runs of equal values
    are then put in row order.
    """
    c, n = values.shape
    row_start = (np.arange(c) * n)[:, None]  # where each column begins, flat
    order = None
    if keeps_values(values.size):
        bits = max(n - 1, 1).bit_length()  # of a row number
        key = (values + 0.0).view(np.int64)  # (-0.0 + 0.0 is 0.0: equal values, equal keys)
        key ^= (key >> 63) & np.int64(2**63 - 1)  # negative: its other bits flipped, to count down
        nan = np.isnan(values)
        if nan.any():
            key[nan] = np.iinfo(np.int64).max
        key >>= bits
        key <<= bits
        key |= np.arange(n)
        key.sort(axis=1)
        key &= (1 << bits) - 1
        order = key
    # the sorted values by one flat take (faster than take_along_axis; order is shifted to flat
    # positions in place and back, so no index array is made)
    if order is not None:
        order += row_start
        xs = values.take(order)
        order -= row_start
        if np.less(xs[:, 1:], xs[:, :-1]).any():  # values the keys could not tell apart
            order = None
    stable = order is not None
    if not stable:
        order = np.argsort(values, axis=1)
        order += row_start
        xs = values.take(order)
        order -= row_start
    missing = np.isnan(xs)
    new_value = np.empty(xs.shape, dtype=bool)  # a run of equal values (or of NaN) starts here
    new_value[:, :1] = True
    np.not_equal(xs[:, 1:], xs[:, :-1], out=new_value[:, 1:])
    if missing[:, -1:].any():  # (NaN sorts last)
        new_value[:, 1:] &= ~(missing[:, 1:] & missing[:, :-1])
    del xs
    if stable:
        return order, new_value, missing
    run = np.cumsum(new_value, axis=1, dtype=np.int64) - 1
    if (run[:, -1:] < n - 1).any():  # equal values: each run in row order, as a stable sort has it
        run *= n
        run += order
        by_run = run.argsort(axis=1)  # (distinct keys)
        by_run += row_start
        order = order.take(by_run)
    return order, new_value, missing


_BESIDE = np.array([[0], [1]])
"""Added to the position a cut follows: the positions of the two values either side of it."""


class SortedColumns:
    """The rows in play, grouped by node, and what the numeric features' split search needs.

    A numeric feature is searched one of two ways
    (:func:`~id3tree.engine.splits.strategies.is_counted` chooses):

    * **sorted**: the j-th sorted feature keeps three arrays laid out alike: ``rows[j]`` (row
      numbers, int32), ``labels[j]`` (class codes, one byte) and ``flags[j]`` (one byte:
      ``RISES`` where the next position holds a larger value, ``MISSING`` for NaN, which sorts
      last). Node s of the level occupies positions ``starts[s] : starts[s] + sizes[s]`` of
      every feature. Carrying the labels and flags along costs less than gathering them by row
      number at every level, and the sort happens once, at the root: 9 bytes a row and feature
      in all (the search needs no value, only where the values rise; the thresholds are read
      from the data through the row numbers). Small data, which keeps a copy of its sorted
      features' values (``stacked``), reads where they rise from the values instead, one
      gather a level, and reads no flags.
    * **counted** (few distinct values): only the code of each row's value is kept; each level
      counts the rows in play by (node, value, class), as for a categorical feature, and
      :func:`~id3tree.engine.splits.search_counted` scores the cuts between the values.

    With no sorted feature, one layout of the rows (in row order within each node) is kept.
    """

    def __init__(self, data: Any, features: Any) -> None:
        n = len(data.y)
        self._cut_values = data.cut_values  # where a cut's threshold may go (cut_threshold)
        self.features = []  # the sorted features
        self.counted = []  # the counted features
        codes = []  # of each counted feature: each row's value code, missing last
        self.counted_values = []  # of each counted feature: its distinct values, increasing
        d = max(len(features), 1)
        labels = data.y.astype(np.uint8 if len(data.classes) <= 256 else np.int32)
        self._rows = np.empty(d * n, dtype=np.int32 if n < 2**31 else np.int64)
        self._labels = np.empty(d * n, dtype=labels.dtype)
        self._flags = np.zeros(len(features) * n, dtype=np.uint8)
        self.numeric = []  # each sorted feature's column (the data's own array: no copy)
        self.has_missing = []
        self.stacked = None
        at_once = 0 < len(features) * n and keeps_values(len(features) * n)  # one sort of all
        if at_once:
            values = np.array([data.numeric[f] for f in features])  # (c, n)
            order, new_value, missing = _sort_columns(values)
            n_values = new_value.sum(axis=1)  # distinct values (a run of NaN, last, is not one)
            n_values -= missing[:, -1]
            # (with weights, every feature is sorted)
            counted = [data.weight is None and is_counted(v, n) for v in n_values.tolist()]
            keep = [i for i, is_it in enumerate(counted) if not is_it]
            for i in [i for i, is_it in enumerate(counted) if is_it]:
                codes.append(self._counted(data, features[i], order[i], new_value[i], missing[i]))
            if len(keep) < len(features):
                order, new_value, missing = order[keep], new_value[keep], missing[keep]
                values = values[keep]
            # (small data reads where the values rise from its copy of them, stacked: no flags)
            sorted_features = [features[i] for i in keep]
            self._lay_out(
                sorted_features, order, new_value, missing, labels, data, with_flags=False
            )
            if keep:  # a copy of the sorted features' columns end to end, for _neighbours
                self.stacked = values.reshape(-1)
            del order, new_value, missing, values
        else:  # one column at a time: the temporaries of one column only
            for f in features:
                order, new_value, missing = _sort_columns(data.numeric[f][None])
                n_values = int(np.count_nonzero(new_value & ~missing))
                if data.weight is None and is_counted(n_values, n):
                    codes.append(self._counted(data, f, order[0], new_value[0], missing[0]))
                else:
                    self._lay_out([f], order, new_value, missing, labels, data)
                del order, new_value, missing
            # small data (most features counted): a copy of the sorted features' columns
            if self.features and keeps_values(len(self.features) * n):
                self.stacked = np.concatenate(self.numeric)
        d = max(len(self.features), 1)
        # where each sorted feature's column begins in stacked (a column of each)
        self._column_start = (np.arange(len(self.features), dtype=np.int64) * n)[:, None]
        if len(self.features) < len(features):  # the counted features need no layout
            for array, size in ((self._rows, d * n), (self._labels, d * n)):
                array.resize(size, refcheck=False)
            self._flags.resize(len(self.features) * n, refcheck=False)
        if not self.features:
            self._rows[:] = np.arange(n)
            self._labels[:] = labels
        del labels
        # the counted features' codes, laid out as rows[0] and regrouped with it (no gathers)
        code_type = np.int16 if max(map(len, self.counted_values), default=0) < 2**15 else np.int32
        self._codes = np.empty(len(self.counted) * n, dtype=code_type)
        for j, code in enumerate(codes):
            self._codes[j * n : (j + 1) * n] = code[self._rows[:n]]
        del codes
        self.m = n
        self.n_classes = len(data.classes)
        # one work array indexed by row, used in turn by branches() and the regrouping
        self._slot_of_row = self._segment_of_row = np.empty(n, dtype=np.int32)
        layout_of = [-1] * data.n_features  # feature -> its sorted layout, or -1
        for j, f in enumerate(self.features):
            layout_of[f] = j
        self._layout_of = np.array(layout_of, dtype=np.int64)
        self._all_sorted = len(self.features) == data.n_features  # every feature has a layout
        self.start_level(np.zeros(0, dtype=np.int64))
        self._set_views()

    def _counted(self, data: Any, f: Any, order: Any, new_value: Any, missing: Any) -> np.ndarray:
        """Keep feature ``f`` as counted (its sort: ``order``, ``new_value``, ``missing``, of
        one row each); returns the code of each row's value (missing: the last code)."""
        n_values = int(np.count_nonzero(new_value & ~missing))
        rank = np.cumsum(new_value, dtype=self._rows.dtype) - 1
        code = np.empty(len(order), dtype=np.int32)
        code[order] = np.minimum(rank, n_values)
        self.counted.append(int(f))
        self.counted_values.append(data.numeric[f][order[new_value & ~missing]])
        return code

    def _lay_out(
        self,
        features: Any,
        order: Any,
        new_value: Any,
        missing: Any,
        labels: Any,
        data: Any,
        with_flags: bool = True,
    ) -> None:
        """Keep ``features`` as sorted, the next layouts (their sorts: the rows of ``order``,
        ``new_value`` and ``missing``, each ``(len(features), n)``), all at once;
        ``with_flags=False`` leaves their flags unwritten (small data reads where its values
        rise from the values themselves)."""
        j, (c, n) = len(self.features), order.shape
        block = slice(j * n, (j + c) * n)
        self.features += [int(f) for f in features]
        self.numeric += [data.numeric[f] for f in features]
        # (NaN sorts last: a feature with a missing value ends with one)
        self.has_missing += missing[:, -1:].any(axis=1).tolist()
        self._rows[block] = order.reshape(-1)
        labels.take(order, out=self._labels[block].reshape(c, n))
        if not with_flags:
            return
        flags = self._flags[block].reshape(c, n)
        flags[:, :-1] = new_value[:, 1:] & ~missing[:, 1:]  # RISES
        flags[missing] |= MISSING

    def _set_views(self) -> None:
        d, m = max(len(self.features), 1), self.m
        self.rows = self._rows[: d * m].reshape(d, m)
        self.labels = self._labels[: d * m].reshape(d, m)
        if self.stacked is None:  # (small data reads its values, not flags)
            self.flags = self._flags[: len(self.features) * m].reshape(len(self.features), m)
        if self.counted:
            self.codes = self._codes[: len(self.counted) * m].reshape(len(self.counted), m)

    def orders(self) -> _Orders:
        """Each numeric feature's rows in play, sorted within each node (feature -> rows).

        The counted features' orders are sorted when asked for (the trace asks)."""
        return _Orders(self)

    def start_level(self, sizes: Any) -> None:
        """Begin a level whose node s holds ``sizes[s]`` positions, node after node."""
        self._sizes, self._node_of_position = sizes, None
        self._cut_code = {}  # counted feature -> per node, the code left of its best cut
        self._searched = []  # (sorted layouts, their search) of each chunk searched
        self._sides = None  # the rows each best cut sends left and right (_n_left, _n_right)
        self._side_counts = None  # every sorted feature's search, when made in one chunk

    @property
    def _n_left(self) -> np.ndarray:
        """Per (node, sorted layout), the rows the layout's best cut sends left."""
        return self._side_sizes()[0]

    @property
    def _n_right(self) -> np.ndarray:
        """Per (node, sorted layout), the rows the layout's best cut sends right."""
        return self._side_sizes()[1]

    def _side_sizes(self) -> np.ndarray:
        if self._sides is None:
            k = len(self._sizes)
            self._sides = np.zeros((2, k, len(self.features)), dtype=np.int64)
            for js, result in self._searched:
                c = len(js)
                self._sides[0][:, js.start : js.stop] = result.n_left.reshape(c, k).T
                self._sides[1][:, js.start : js.stop] = result.n_right.reshape(c, k).T
        return self._sides

    @property
    def node_of_position(self) -> np.ndarray:
        """The node of each position of the level (made when first asked for: the search of
        sorted features needs none)."""
        if self._node_of_position is None:
            sizes = self._sizes
            self._node_of_position = np.arange(len(sizes), dtype=np.int32).repeat(sizes)
        return self._node_of_position

    def score(
        self, s: Any, starts: Any, sizes: Any, n_classes: Any, min_leaf: Any, weight: Any = None, min_weight: Any = 0.0, rank: Any = 0,
        counts: Any = None,
    ) -> None:  # fmt: skip
        """Fill ``s`` (a :class:`~id3tree.engine.grow.Scores`) for the numeric features, a few features at a time;
        with ``weight`` (one per row), by the weighted twin of the search. The level must have
        been started (:meth:`start_level`). With ``rank=k`` (unweighted rows: the trace lists
        the ``k`` best thresholds), the searches keep the cuts that may be among them
        (``s.ranked``: per chunk of features, their :class:`~id3tree.engine.splits.RankedCuts`, segment
        ``i * k + node`` for the i-th feature, and the two values each cut lies between).
        ``counts``: the class counts of the nodes (unweighted), when known, so that the search
        need not count them again."""
        m, k = self.m, len(starts)
        per_chunk = features_per_chunk(m)
        for first in range(0, len(self.features), per_chunk):
            js = range(first, min(first + per_chunk, len(self.features)))
            c = len(js)
            step_up, missing, values = self._rises(js)
            how = layout_search(n_classes, c * m, weighted=weight is not None)
            n_present = None  # rows with a value, per (feature, node): None, every row has one
            if any(self.has_missing[js.start : js.stop]):
                n_present = sizes - np.add.reduceat(missing(), starts, axis=1)
            chunk = Chunk(
                step_up, self.labels[js.start : js.stop], starts, sizes, n_present, n_classes,
                min_leaf, rank, counts=counts, min_weight=min_weight,
                weight=None if weight is None else weight[self.rows[js.start : js.stop]],
            )  # fmt: skip
            result = NUMERIC_SEARCHES[how](chunk)
            if result.ranked is not None:  # (segment i * k + node: the i-th feature's node)
                beside = self._beside(js, result.ranked.position, values)
                s.ranked.append((self.features[js.start : js.stop], result.ranked, *beside))
            ok = _usable(result, min_leaf)
            low, high = filled((2, c * k), np.nan)
            low[ok], high[ok] = self._beside(js, result.position[ok], values)
            # (every feature sorted: the chunk's features are the columns js)
            at = slice(js.start, js.stop) if self._all_sorted else None
            self._fill(s, self.features[js.start : js.stop], k, result, ok, low, high, at)
            self._searched.append((js, result))
            if c == len(self.features):  # (segment j * k + node: sorted feature j's node)
                self._side_counts = result.side_counts
        if self.counted:
            self._score_counted(s, sizes, n_classes, min_leaf, rank)

    def _rises(self, js: range) -> Any:
        """Where the value of the sorted features ``js`` rises at the next position (``(c, m)``,
        bool), a function that says where it is missing, and the values (``(c, m)``, small data
        only; else None): read from the flags, or with small data from the values themselves
        (two NaN, or a value and the NaN after it, never rise; nor do equal values)."""
        if self.stacked is None:
            flags = self.flags[js.start : js.stop]
            return (flags & RISES).view(bool), lambda: (flags & MISSING) != 0, None
        column_start = self._column_start[js.start : js.stop]
        values = self.stacked.take(self.rows[js.start : js.stop] + column_start)
        rises = np.zeros(values.shape, dtype=bool)
        np.greater(values[:, 1:], values[:, :-1], out=rises[:, :-1])
        return rises, lambda: np.isnan(values), values

    def _beside(self, js: range, at: np.ndarray, values: Any) -> np.ndarray:
        """The two values each cut lies between (``(2, cuts)``), for cuts after positions ``at``
        (increasing) of the sorted features ``js`` laid end to end: from ``values``, the sorted
        values of small data (:meth:`_rises`), in one gather; else from the data
        (:meth:`_neighbours`)."""
        if values is not None:
            return values.reshape(-1).take(at + _BESIDE)
        return np.stack(self._neighbours(js, at))

    def _neighbours(self, js: range, at: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The two values each cut lies between, for cuts after positions ``at`` (increasing) of
        the sorted features ``js`` laid end to end: read from the data through the row numbers,
        so no copy of the values is kept. (By indexing, not ``take``: a column of a C-ordered
        table is strided, and ``take`` of a strided array copies the whole column first, a
        cost that grows with the rows, paid once a feature and level.)"""
        rows = self.rows[js.start : js.stop].reshape(-1)
        row_low, row_high = rows[at], rows[at + 1]  # the rows on either side of each cut
        bounds = np.searchsorted(at, np.arange(len(js) + 1) * self.m).tolist()
        low, high = np.empty(len(at)), np.empty(len(at))
        for i, j in enumerate(js):
            mine = slice(bounds[i], bounds[i + 1])
            low[mine] = self.numeric[j][row_low[mine]]
            high[mine] = self.numeric[j][row_high[mine]]
        return low, high

    def _score_counted(
        self, s: Any, sizes: Any, n_classes: Any, min_leaf: Any, rank: Any = 0
    ) -> None:
        """The counted features' part of :meth:`score`: as many features as fit in a chunk
        counted together, segment ``i * k + node`` for the chunk's i-th feature (``rank``: as
        :meth:`score` has it)."""
        m, k = self.m, len(sizes)
        labels, node = self.labels[0], self.node_of_position
        per_chunk = features_per_chunk(m)
        for first in range(0, len(self.counted), per_chunk):
            js = range(first, min(first + per_chunk, len(self.counted)))
            c = len(js)
            n_codes = max(len(self.counted_values[j]) for j in js) + 1  # the last: missing
            codes = np.empty((c, m), dtype=np.int32)
            for i, j in enumerate(js):
                codes[i] = self.codes[j]
                if len(self.counted_values[j]) < n_codes - 1:  # its missing code: the chunk's
                    codes[i][codes[i] == len(self.counted_values[j])] = n_codes - 1
            segment = (np.arange(c)[:, None] * k + node).reshape(-1)
            result, low_code, high_code = NUMERIC_SEARCHES["counted"](
                codes.reshape(-1), np.tile(labels, c), segment, c * k, n_codes, n_classes,
                min_leaf=min_leaf, rank=rank,
            )  # fmt: skip
            if result.ranked is not None:  # (segment i * k + node: the i-th feature's node)
                beside = self._counted_values(js, result.ranked.segment // k, result.ranked.beside)
                s.ranked.append((self.counted[js.start : js.stop], result.ranked, *beside))
            ok = _usable(result, min_leaf)
            low, high = np.full(c * k, np.nan), np.full(c * k, np.nan)
            for i, j in enumerate(js):
                part = np.flatnonzero(ok[i * k : (i + 1) * k]) + i * k
                values = self.counted_values[j]
                low[part], high[part] = values[low_code[part]], values[high_code[part]]
                self._cut_code[self.counted[j]] = low_code[i * k : (i + 1) * k]
            self._fill(s, self.counted[js.start : js.stop], k, result, ok, low, high)

    def _counted_values(self, js: range, feature: np.ndarray, codes: np.ndarray) -> np.ndarray:
        """The values of ``codes`` (any shape, the last axis one entry each) of the counted
        features ``js``, the i-th of them where ``feature`` is i."""
        values = np.empty(codes.shape)
        for i, j in enumerate(js):
            mine = feature == i
            values[..., mine] = self.counted_values[j][codes[..., mine]]
        return values

    def _fill(
        self,
        s: Any,
        features: Any,
        k: Any,
        result: Any,
        ok: Any,
        low: Any,
        high: Any,
        at: Any = None,
    ) -> None:
        """Write one chunk's search (its features side by side) into the (node, feature) tables
        (``at``: the slice of columns the features are, when the caller knows)."""
        c = len(features)
        floats = np.empty((len(s.FLOAT_SCORES), c * k))
        if ok is result.found:  # (a search's gain and overall entropy are NaN where no cut)
            floats[0], floats[2] = result.gain, result.overall_entropy
            # a cut has two non-empty sides, so split_info > 0 wherever one was found
            np.divide(result.gain, np.maximum(result.split_info, 1e-300), out=floats[1])
        else:
            floats[0] = np.where(ok, result.gain, np.nan)
            floats[1] = gain_ratios(ok, result.gain, result.split_info)
            floats[2] = np.where(ok, result.overall_entropy, np.nan)
        floats[3] = cut_threshold(low, high)  # NaN where no cut: low and high are
        if self._cut_values(features[0]) is not None:  # C4.5's: each feature its own values
            for i, f in enumerate(features):
                part = slice(i * k, (i + 1) * k)
                floats[3, part] = cut_threshold(low[part], high[part], self._cut_values(f))
        floats[4], floats[5] = low, high
        if at is None:
            at = features
            if features == list(range(features[0], features[0] + c)):  # side by side: a slice
                at = slice(features[0], features[0] + c)
        chunk = floats.reshape(-1, c, k).transpose(0, 2, 1)  # (scores, nodes, features)
        if at != slice(0, s.shape[1]) or not s.take_table(chunk):  # (every feature: as it is)
            s.table[:, :, at] = chunk
        s.candidate[:, at] = True
        s.n_ties[:, at] = result.n_ties.reshape(c, k).T
        s.numeric_searches.append((features, result))

    def branches(
        self, data: Any, chosen: Any, splitting: Any, starts: Any, sizes: Any, is_cat: Any
    ) -> np.ndarray:
        """The branch slot of every position of ``rows[0]`` (-1 where the node does not split).

        A feature at a time: a split on a sorted feature sends the first ``n_left`` rows of the
        node (in that feature's order) left, the next ``n_right`` right and the rest (missing
        values) to the third branch, so no value is compared; categorical and counted features
        compare each row's code."""
        rows = self.rows[0]
        slot_of_row = self._slot_of_row
        slot_of_row[rows] = -1
        segment = self.node_of_position
        if self.stacked is not None:  # small data: every sorted split at once
            splitting = splitting & ~self._sorted_branches(chosen, splitting, starts)
            if not splitting.any():
                return slot_of_row[rows]
        feature_of_position = np.where(splitting, chosen, -1).astype(np.int32)[segment]
        for f in np.unique(chosen[splitting]).tolist():
            if is_cat[f] or f in self._cut_code:
                at = np.flatnonzero(feature_of_position == f)
                r = rows[at]
                if is_cat[f]:
                    slot_of_row[r] = data.codes[f][r]
                    continue
                # a counted feature: compare value codes with the code left of the cut
                j = self.counted.index(f)
                code, missing = self.codes[j][at], len(self.counted_values[j])
                cut = self._cut_code[f][segment[at]]
                slot_of_row[r] = np.where(
                    code <= cut, LEFT, np.where(code == missing, NUMERIC_MISSING, RIGHT)
                )
                continue
            # a sorted split sends the first n_left rows of the node left, then n_right right,
            # then the missing ones: in the feature's own sorted order, no comparison needed
            j = self._layout_of[f]
            mine = np.flatnonzero(splitting & (chosen == f))
            n_left, n_right = self._n_left[mine, j], self._n_right[mine, j]
            side_sizes = np.stack([n_left, n_right, sizes[mine] - n_left - n_right], axis=1)
            sides = np.tile(np.array([LEFT, RIGHT, NUMERIC_MISSING], dtype=np.int8), len(mine))
            slot_of_row[self.rows[j][feature_of_position == f]] = np.repeat(
                sides, side_sizes.reshape(-1)
            )  # (one byte a row in play, and one int32 a row of these nodes)
        return slot_of_row[rows]

    def _sorted_branches(self, chosen: Any, splitting: Any, starts: Any) -> np.ndarray:
        """:meth:`branches` of the nodes split on a sorted feature, all features at once (a few
        int64 a position of these nodes: for small levels); returns which nodes those are."""
        layout = self._layout_of[chosen]  # of each node's chosen feature (-1: not sorted)
        mine = splitting & (layout >= 0)
        if mine.any():
            at = np.flatnonzero(mine[self.node_of_position])  # the positions of those nodes
            node = self.node_of_position[at]
            j = np.maximum(layout, 0)
            n_left = self._n_left[np.arange(len(j)), j][node]
            n_sent = self._n_right[np.arange(len(j)), j][node] + n_left  # left or right
            offset = at - starts[node]
            slot = np.where(
                offset < n_left, LEFT, np.where(offset < n_sent, RIGHT, NUMERIC_MISSING)
            )
            self._slot_of_row[self.rows.reshape(-1)[j[node] * self.m + at]] = slot
        return mine

    def splits_sorted(self, chosen: Any, splitting: Any) -> bool:
        """Whether :meth:`sorted_children` can make this level's children: small data, every
        sorted feature searched at once, and every splitting node cut on a sorted feature."""
        if not SIDES_AS_CHILDREN or self.stacked is None:
            return False
        if self._all_sorted:  # (whatever feature a node splits on)
            return self._side_counts is not None or not splitting.any()
        split_on = chosen[splitting]
        if not len(split_on):  # no node splits: no child to make
            return True
        return self._side_counts is not None and bool((self._layout_of[split_on] >= 0).all())

    def sorted_children(self, chosen: Any, splitting: Any) -> tuple[np.ndarray, ...]:
        """The children of nodes split on sorted features (:meth:`splits_sorted`), read from the
        search: the class counts of a cut's sides (left, right, missing) are those of the
        children it makes, one per non-empty side. Returns each child's parent (an index into
        the level's nodes), its branch slot, its class counts and its rows, in (parent, slot)
        order."""
        k = len(chosen)
        # (the layouts are the features when every feature is sorted)
        layout = chosen if self._all_sorted else np.maximum(self._layout_of[chosen], 0)
        self._chosen_layout = layout
        split = splitting.nonzero()[0]
        self._split = split
        if not len(split):
            self._split_sizes = np.zeros((0, 3), dtype=np.int64)
            return split, split, np.zeros((0, self.n_classes), dtype=np.int64), split
        sides = self._side_counts[layout[split] * k + split]  # (nodes, 3, classes)
        self._split_sizes = np.add.reduce(sides, axis=2)  # the rows of each side
        parent, slot = (self._split_sizes > 0).nonzero()
        return split[parent], slot, sides[parent, slot], self._split_sizes[parent, slot]

    def regroup_children(
        self, scored: Any, parent: Any, slot: Any, child_sizes: Any, sizes: Any
    ) -> None:
        """:meth:`regroup` after :meth:`sorted_children`: the rows of every child that is
        ``scored`` (the others are dropped), each layout keeping its order.

        A node's cut sends the first ``n_left`` positions of its chosen layout left, the next
        ``n_right`` right and the rest to the missing branch; so the (node, slot) of the
        positions of the chosen layouts, node after node, is each (node, slot) repeated as
        many times as its side has rows (a node that does not split: its left side, then
        dropped), and a table of (node, slot) gives their new segment, written for their rows."""
        m, k = self.m, len(self._chosen_layout)
        n_scored = int(np.count_nonzero(scored))
        new_segment = filled(k * 3, n_scored, np.int32)  # of node * 3 + slot; dropped: last
        new_segment[(parent * 3 + slot)[scored]] = np.arange(n_scored)
        chosen = self._chosen_layout
        # the rows of each (node, slot): a node that does not split, all on its first slot
        side_sizes = self._split_sizes
        if len(self._split) < k:
            side_sizes = np.zeros((k, 3), dtype=np.int64)
            side_sizes[:, 0] = sizes
            side_sizes[self._split] = self._split_sizes
        chosen_start = (chosen * m).repeat(sizes)  # where each position's chosen layout begins
        chosen_start += np.arange(m)
        rows = self.rows.reshape(-1).take(chosen_start)  # in the chosen layouts
        self._segment_of_row[rows] = new_segment.repeat(side_sizes.reshape(-1))
        self._node_of_position = np.zeros(0, dtype=np.int32)  # (the level's: not needed now)
        m_new = int(np.add.reduce(child_sizes[scored]))
        self.regroup(self._segment_of_row, n_scored + 1, m_new, dropped_last=True)

    def regroup_positions(self, new_segment_of_position: Any) -> None:
        """Regroup every layout by the new segment of each position of ``rows[0]`` (-1: dropped)."""
        new_segment_of_row = self._segment_of_row
        new_segment_of_row[self.rows[0]] = new_segment_of_position
        self._node_of_position = np.zeros(0, dtype=np.int32)  # (the level's: not needed now)
        self.regroup(new_segment_of_row)

    def regroup(
        self,
        new_segment_of_row: Any,
        n_keys: Any = None,
        m_new: Any = None,
        dropped_last: bool = False,
    ) -> None:
        """Keep the rows whose new segment is >= 0, grouped by it, each group in its old order
        (``n_keys``: the number of new segments plus one, ``m_new``: the rows kept; counted
        here when not given). With ``dropped_last``, the rows to drop are marked by the segment
        ``n_keys - 1`` instead of -1.

        Several layouts are regrouped by one stable sort: layout i of a chunk gets the keys
        ``i * n_keys + segment``, dropped rows the last of them (``i * n_keys + n_keys - 1``),
        so the first ``m_new`` positions of each layout's sorted keys are the rows it keeps."""
        d, m = self.rows.shape
        if m == 0:
            return
        if n_keys is None:
            new_segment = new_segment_of_row[self.rows[0]]
            n_keys = int(new_segment.max(initial=-1)) + 2
            m_new = int(np.count_nonzero(new_segment >= 0))
            del new_segment
        if m_new == 0:  # no row goes on (the last level of a depth-limited tree): nothing to sort
            self.m = 0
            self._set_views()
            return
        per_chunk = features_per_chunk(m)
        for first in range(0, d, per_chunk):
            last = min(first + per_chunk, d)
            rows = self.rows[first:last].reshape(-1)
            key = new_segment_of_row.take(rows)  # int32: the keys stay below rows x layouts
            if not dropped_last:
                key[key < 0] = n_keys - 1
            if last - first > 1:
                key = key.reshape(last - first, m)
                key += np.arange(0, (last - first) * n_keys, n_keys, dtype=key.dtype)[:, None]
            if n_keys * (last - first) < 2**16:  # numpy sorts 16-bit keys by radix: O(rows)
                key = key.astype(np.uint16)
            order = key.argsort(axis=None, kind="stable").reshape(last - first, m)
            order = order[:, :m_new]  # each layout's rows kept, in new order
            del key
            kept = slice(first * m_new, last * m_new)
            self._rows[kept] = rows.take(order).ravel()
            self._labels[kept] = self.labels[first:last].reshape(-1).take(order).ravel()
            if self.features and self.stacked is None:  # (small data reads its values instead)
                flags = self.flags[first:last].reshape(-1)
                self._flags[kept] = _regrouped_flags(flags, order.reshape(-1))
            if first == 0 and self.counted:  # the codes follow rows[0], the chunk's first layout
                self._codes[: len(self.counted) * m_new] = self.codes[:, order[0]].reshape(-1)
        self.m = m_new
        self._set_views()


def _regrouped_flags(flags: np.ndarray, order: np.ndarray) -> np.ndarray:
    """The flags of the positions ``order`` (increasing within each new node), each rise now
    measured against the new next position: two rows of a node, once apart, hold different
    values when a rise lies between them, that is when fewer rises come before the first.
    (Gathered a piece of ``piece_rows`` positions at a time: one int32 a position in all.)"""
    rises_before = np.empty(len(flags) + 1, dtype=np.int32 if len(flags) < 2**31 else np.int64)
    rises_before[0] = 0
    np.cumsum(flags & RISES, out=rises_before[1:], dtype=rises_before.dtype)
    regrouped = flags[order]
    regrouped &= MISSING
    piece = int(limit("piece_rows"))
    for start in range(0, len(order) - 1, piece):
        here = rises_before[order[start : start + piece + 1]]
        regrouped[start : start + len(here) - 1] |= here[:-1] < here[1:]
    return regrouped
