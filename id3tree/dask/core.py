"""The machinery every Dask function shares: passes over partitions, and columns as codes.

A *pass* maps every partition to a small summary (a dict of numpy arrays: counts, sums, the
distinct values of a column) and merges the summaries pairwise in a tree, on the workers, so that
only the final summary reaches the caller. Two kinds of pass are enough for everything id3tree
does:

1. a *describing* pass learns how to code each column: the sorted categories of a categorical
   column (as :func:`id3tree.base.validation.factorize` would sort them on the whole column) and the
   range of a numeric one (for the bin edges of ``numpy.histogram``);
2. a *counting* pass turns every partition into integer codes with that coding and counts them
   (``np.bincount``), and the counts add up across partitions.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from id3tree import information
from id3tree.base.validation import (
    check_not_mixed,
    factorize,
    is_numeric,
    listed_columns,
    numeric_values,
)
from id3tree.information import _bin, _equal_width_codes

__all__ = [
    "add", "as_dask_series", "categorical_mask", "category_codes", "category_lookup", "check_bins",
    "check_frame", "check_source_values", "Coding", "codings_from", "combine_descriptions",
    "compute", "compute_keys", "describe", "described", "distinct_hint", "EqualWidthCoder",
    "fits_in_workers", "HINT_SAMPLE", "workers_memory",
    "import_dask", "is_categorical_meta", "join", "known_ranges", "known_rows", "MergeAll",
    "n_key_groups", "number_codes", "numbers", "own_codes", "persist", "persist_if_fits",
    "range_edges", "reduce_keys", "reduce_partitions", "series_frame", "SPLIT_EVERY", "TARGET",
]  # fmt: skip

SPLIT_EVERY = 8
"""How many partial summaries one task merges."""

TARGET = "__id3tree_target__"
"""The name the target column takes inside the joined frame."""


def import_dask() -> Any:
    """``dask`` and ``dask.dataframe``, or an ImportError that says how to install them."""
    try:
        import dask
        import dask.dataframe as dd
    except ImportError:  # pragma: no cover - only without the extra
        raise ImportError(
            'Dask input needs dask and distributed: pip install "id3tree-learn[dask]"'
        ) from None
    return dask, dd


# ---------------------------------------------------------------------------------------------
# Passes over partitions
# ---------------------------------------------------------------------------------------------
def reduce_partitions(
    frame: Any, chunk: Callable[..., Any], combine: Callable[..., Any] | MergeAll, *args: Any
) -> Any:
    """A Dask Delayed of ``combine``-merged ``chunk(partition, *args)`` over every partition
    (``frame``: a Dask DataFrame, or a list of its partitions as Delayed values).

    The merge runs as a tree of tasks (``SPLIT_EVERY`` summaries per task), so no single process
    ever holds more than a few summaries.
    """
    dask, _ = import_dask()
    partitions = frame if isinstance(frame, list) else frame.to_delayed()
    summaries = [dask.delayed(chunk, pure=True)(part, *args) for part in partitions]
    while len(summaries) > 1:
        summaries = [
            dask.delayed(_merge_many, pure=True)(summaries[i : i + SPLIT_EVERY], combine)
            for i in range(0, len(summaries), SPLIT_EVERY)
        ]
    return summaries[0]


def reduce_keys(
    frame: Any, chunk: Callable, combiners: dict, finals: dict | None = None, *args: Any
) -> Any:
    """Delayed dicts, key -> result, whose union (:func:`compute_keys`) has every key:
    ``chunk(partition, *args)`` returns a dict (``frame``: a Dask DataFrame, or a list of its
    partitions as Delayed or persisted values), and each key's entries are merged with
    ``combiners[key]`` (two at a time, or a whole list at once if it is a :class:`MergeAll`),
    then passed through ``finals[key]`` (if given) on a worker.

    The keys are dealt into as many groups as the cluster has workers (:func:`n_key_groups`),
    and each group is merged in a tree of its own: a large per-key summary lives on one worker
    at a time and only its result travels, while a pass makes a few tasks per partition, not
    one per partition and key (the scheduler's cost of a task is what a small pass pays)."""
    dask, _ = import_dask()
    partitions = frame if isinstance(frame, list) else frame.to_delayed()
    parts = [dask.delayed(chunk, pure=True)(part, *args) for part in partitions]
    keys = list(combiners)
    n_groups = max(1, min(len(keys), n_key_groups()))
    groups = [keys[g::n_groups] for g in range(n_groups)]
    out = []
    for group in groups:
        pieces = [dask.delayed(_pick, pure=True)(part, group) for part in parts]
        while len(pieces) > 1:
            pieces = [
                dask.delayed(_merge_keys, pure=True)(pieces[i : i + SPLIT_EVERY], combiners)
                for i in range(0, len(pieces), SPLIT_EVERY)
            ]
        out.append(dask.delayed(_finish_keys, pure=True)(pieces[0], finals or {}))
    return out


def compute_keys(groups: list) -> dict:
    """The results of :func:`reduce_keys`, computed together: key -> result."""
    found = {}
    for group in compute(*groups):
        found.update(group)
    return found


def n_key_groups() -> int:
    """How many groups :func:`reduce_keys` deals keys into: the workers of the connected
    distributed cluster, else 1."""
    client = _connected_client()
    return 1 if client is None else len(client.scheduler_info()["workers"])


def _connected_client() -> Any:
    """The connected distributed client, or None (no distributed, or no client)."""
    try:
        from distributed import default_client

        return default_client()
    except (ImportError, ValueError):
        return None


def _pick(summary: dict, keys: list) -> dict:
    return {key: summary[key] for key in keys}


@dataclass(frozen=True)
class MergeAll:
    """A combiner for :func:`reduce_keys` and :func:`reduce_partitions` that merges a list of
    summaries in one call (a sort of everything at once, say, where merging two at a time would
    sort the growing summary again for each one)."""

    merge: Callable


def _merge_keys(summaries: list, combiners: dict) -> dict:
    """The per-key summaries of several partitions (or merges) as one."""
    merged = {}
    for key in summaries[0]:
        merged[key] = _merge_many([summary[key] for summary in summaries], combiners[key])
    return merged


def _finish_keys(merged: dict, finals: dict) -> dict:
    return {
        key: value if finals.get(key) is None else finals[key](value)
        for key, value in merged.items()
    }


def persist_if_fits(parts: list, n_bytes: int) -> list | None:
    """``parts`` (Delayed values) kept in the memory of a distributed cluster's workers, if
    they fit there (:func:`fits_in_workers`); else None."""
    return persist(parts) if fits_in_workers(n_bytes) else None


def persist(parts: list) -> list:
    """``parts`` (Delayed values) kept in the memory of the connected cluster's workers."""
    return _connected_client().persist(parts)


def fits_in_workers(n_bytes: int) -> bool:
    """Would ``n_bytes`` take at most a quarter of the memory limits of the connected
    distributed cluster's workers together? (No client, or workers without limits: no.)"""
    room = workers_memory()
    return bool(room) and 4 * n_bytes <= room


def workers_memory() -> int:
    """The memory limits of the connected distributed cluster's workers together, in bytes (a
    worker without a limit counts 0; no client: 0)."""
    client = _connected_client()
    if client is None:
        return 0
    return sum(int(w.get("memory_limit") or 0) for w in client.scheduler_info()["workers"].values())


def known_rows(frame: Any) -> int | None:
    """The number of rows of a Dask DataFrame when its source knows it without reading the
    data (the metadata of Parquet files, the pandas frame of ``dd.from_pandas``), else None."""
    try:
        from dask.dataframe.dask_expr._expr import Literal
        from dask.dataframe.dask_expr._reductions import Len

        length = Len(frame.expr).simplify()
    except Exception:  # pragma: no cover - other dask versions: not known
        return None
    return int(length.value) if isinstance(length, Literal) else None


def known_ranges(frame: Any, columns: Any) -> dict:
    """The smallest and largest value of each of ``columns`` that the statistics of the Parquet
    files a Dask DataFrame reads as they are (no filter, no computed column) state, without
    reading the data: column -> (low, high). A column they do not state, or state with
    something other than numbers, is left out.

    The files' writer made these figures, not id3tree: they are a guess, which whoever uses
    them checks against the data (:func:`range_of` of every partition)."""
    try:
        from dask.dataframe.dask_expr.io.parquet import ReadParquet, _collect_pq_statistics

        read = frame.expr.optimize()
        if not isinstance(read, ReadParquet) or read.filters:
            return {}
        stated = _collect_pq_statistics(read, columns=[c for c in columns if c in read.columns])
    except Exception:  # pragma: no cover - other dask versions, or no metadata: not known
        return {}
    ranges: dict = {}
    for part in stated or ():
        for found in part["columns"]:
            low, high = found["min"], found["max"]
            if not all(_is_number(v) and np.isfinite(v) for v in (low, high)):
                continue
            before = ranges.get(found["name"], (float(low), float(high)))
            ranges[found["name"]] = (min(before[0], float(low)), max(before[1], float(high)))
    return ranges


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(
        value, (bool, np.bool_)
    )


def _merge_many(summaries: list, combine: Any) -> Any:
    """Summaries merged by ``combine``: two at a time, or all at once by a :class:`MergeAll`."""
    if isinstance(combine, MergeAll):
        return combine.merge(summaries)
    merged = summaries[0]
    for other in summaries[1:]:
        merged = combine(merged, other)
    return merged


def compute(*delayed_values: Any) -> Any:
    """Compute Delayed values together (one pass over the data for all of them)."""
    dask, _ = import_dask()
    return dask.compute(*delayed_values)


def add(a: Any, b: Any) -> Any:
    """Sum of two summaries: numbers and arrays add, dicts and tuples add entry by entry."""
    if isinstance(a, dict):
        return {key: add(a[key], b[key]) for key in a}
    if isinstance(a, (tuple, list)):
        return type(a)(add(u, v) for u, v in zip(a, b))
    return a + b


# ---------------------------------------------------------------------------------------------
# Input checks
# ---------------------------------------------------------------------------------------------
def check_frame(X: Any, name: str = "X") -> Any:
    """X as a Dask DataFrame with at least one column and unique names; a Series is an error."""
    _, dd = import_dask()
    if isinstance(X, dd.Series):
        raise ValueError(f"{name} must be 2-D; use X.to_frame() for a single column")
    if not isinstance(X, dd.DataFrame):
        raise TypeError(f"{name} must be a Dask DataFrame here, got {type(X).__name__}")
    names = [str(c) for c in X.columns]
    if not names:
        raise ValueError(f"{name} has 0 feature(s); at least one is needed")
    if len(set(names)) != len(names):
        duplicated = sorted({n for n in names if names.count(n) > 1})
        raise ValueError(f"{name} has duplicate column names: {duplicated}")
    if TARGET in names:
        raise ValueError(f"{name} has a column named {TARGET!r}, which id3tree uses itself")
    return X


def as_dask_series(values: Any, name: str) -> Any:
    """A Dask Series (a one-column Dask DataFrame is taken as its column)."""
    _, dd = import_dask()
    if isinstance(values, dd.DataFrame):
        if len(values.columns) != 1:
            raise ValueError(
                f"{name} must be one column, got a DataFrame with {len(values.columns)}"
            )
        values = values[values.columns[0]]
    if not isinstance(values, dd.Series):
        raise TypeError(
            f"{name} is a {type(values).__name__}, but the other argument is a Dask collection: "
            "pass both as columns of the same Dask DataFrame"
        )
    return values


def join(frame: Any, y: Any) -> Any:
    """The feature frame with the target as one more column, partition by partition.

    y must come from the same Dask DataFrame as the features, or have the same known divisions;
    anything else would need a shuffle to line the rows up, and is refused.
    """
    y = as_dask_series(y, "y")
    if not _co_aligned(frame, y):
        raise ValueError(
            "X and y must be columns of the same Dask DataFrame (the same partitions), e.g. "
            "X = frame[features] and y = frame['target']; lining up the rows of two different "
            "collections would need a shuffle by index"
        )
    return frame.assign(**{TARGET: y})


def _co_aligned(a: Any, b: Any) -> bool:
    """Do two collections line up partition by partition without a shuffle?

    Yes when they come blockwise from one source, or when both have the same known divisions
    (``dd.from_pandas(X, npartitions=k)`` and ``dd.from_pandas(y, npartitions=k)`` of one index).
    """
    if a.known_divisions and b.known_divisions and tuple(a.divisions) == tuple(b.divisions):
        return True
    try:
        from dask.dataframe.dask_expr._expr import are_co_aligned
    except ImportError:  # pragma: no cover - other dask versions: the weaker check
        return a.npartitions == b.npartitions
    return bool(are_co_aligned(a.expr, b.expr))


def series_frame(x: Any, y: Any, x_name: str = "x", y_name: str = "y") -> Any:
    """Two Dask Series as a two-column frame ``x``, ``y`` (their own names kept for messages)."""
    x = as_dask_series(x, x_name)
    frame = x.to_frame(name="x")
    if y is not None:
        frame = join(frame, y).rename(columns={TARGET: "y"})
    return frame


def check_bins(bins: Any) -> Any:
    """Bins as :func:`id3tree.information.check_bins` takes them (the same check as for pandas
    input), and a count or explicit edges: rules such as ``"auto"`` need all the data."""
    information.check_bins(bins)
    if isinstance(bins, str):
        raise ValueError(
            f"bins={bins!r} needs the whole column at once; with a Dask DataFrame give a number "
            "of bins or explicit edges"
        )
    return bins


def numbers(series: pd.Series, name: str, described: Any) -> np.ndarray:
    """:func:`~id3tree.base.validation.numeric_values` of one partition's column, which the
    table's description (its ``_meta``) gives the numeric dtype ``described``.

    A partition may disagree (``dd.read_csv`` guesses a dtype from the first block, and a later
    block holds text): that is an error naming the column, both dtypes and a value, instead of
    numpy's "could not convert string to float" from a worker.
    """
    if not is_numeric(series) and not pd.api.types.is_bool_dtype(series.dtype):
        present = series.dropna()
        text = present[pd.to_numeric(present, errors="coerce").isna()]
        if len(text):
            raise ValueError(
                f"column {name!r} has dtype {described} in the table's description but "
                f"{series.dtype} in one of its partitions (for example {text.iloc[0]!r}); give "
                "it one dtype in every partition (dtype= when reading, or astype)"
            )
    return numeric_values(series, name)


def check_source_values(frame: Any, names: Any) -> None:
    """Refuse the columns among ``names`` that mix numbers and text in the pandas DataFrame a
    Dask DataFrame was made from (``dd.from_pandas``), as pandas input is refused.

    ``dd.from_pandas`` turns an object column into text before id3tree sees a partition (when
    dask converts strings, its default), so ``1`` and ``"1"`` would pass as the same text; the
    source frame is still in memory, and one look at its distinct values settles it.
    """
    try:
        from dask.dataframe.dask_expr.io.io import FromPandas
    except ImportError:  # pragma: no cover - other dask versions: nothing to look at
        return
    expr = getattr(frame, "expr", None)
    leaves = expr.walk() if expr is not None else ()
    for held in (e.operand("frame") for e in leaves if isinstance(e, FromPandas)):
        source = getattr(held, "_data", held)  # dask keeps the frame in a wrapper of its own
        if not isinstance(source, pd.DataFrame):
            continue
        columns = {str(c): c for c in source.columns}
        for name in names:
            column = columns.get(name)
            if column is not None and source[column].dtype == object:
                check_not_mixed(pd.Series(source[column].dropna().unique(), dtype=object), name)


# ---------------------------------------------------------------------------------------------
# Codings: how a column becomes integer codes, learned in one describing pass
# ---------------------------------------------------------------------------------------------
@dataclass
class Coding:
    """How one column becomes codes ``0 .. n_codes - 1`` (the last code: missing).

    ``categories`` for a categorical column (sorted as :func:`factorize` sorts them), ``edges``
    for a numeric column cut into bins, neither for a numeric column kept as numbers.
    """

    name: str
    column: str
    categories: list | None = None
    edges: np.ndarray | None = None
    low: float = np.nan  # range of a numeric column (NaN when no value is present)
    high: float = np.nan
    n_missing: int = 0
    dtype: object = None  # a numeric column's dtype in the table's description, if not described
    counts: np.ndarray | None = None  # per category, when described as "classes" (the target)
    equal_width: bool = False  # edges cut the column's own range into equal bins

    @property
    def n_codes(self) -> int:
        if self.categories is not None:
            return len(self.categories) + 1
        return len(self.edges)  # bins plus missing

    def codes(self, part: pd.DataFrame) -> np.ndarray:
        series = part[self.column]
        if self.categories is not None:
            return category_codes(series, self.categories, self.name)
        values = numeric_values(series, self.name)
        if self.equal_width:  # edges from the column's range: every value lies within them
            return _equal_width_codes(values, self.edges)
        return _bin(values, self.edges, self.name)[0]

    def values(self, part: pd.DataFrame) -> np.ndarray:
        if self.dtype is not None:  # a column no describing pass has read: check it here
            return numbers(part[self.column], self.name, self.dtype)
        # the describing pass has read every partition with numbers(): the dtypes agree
        return numeric_values(part[self.column], self.name)


def category_codes(series: pd.Series, categories: list, name: str) -> np.ndarray:
    """Codes of a partition's values among the column's categories (missing: the last code)."""
    local, uniques = pd.factorize(series)  # the partition's own distinct values
    return np.append(category_lookup(uniques, categories, name), len(categories))[local]


def own_codes(series: pd.Series) -> tuple[np.ndarray, tuple]:
    """A partition's column coded by its own distinct values (``pd.factorize``: first-seen
    order, -1 missing) and what a describing pass says of it: ``(its distinct values, as a
    Series of the column's dtype, the number of missing values)``."""
    local, uniques = pd.factorize(series)
    return local, (pd.Series(uniques, dtype=series.dtype), int((local < 0).sum()))


def category_lookup(uniques: Any, categories: list, name: str) -> np.ndarray:
    """Each of a partition's distinct values' code among the column's categories (int64): a
    partition's codes by its own values (``pd.factorize``, -1 missing) become the column's by
    ``np.append(lookup, len(categories))[local]``."""
    lookup = pd.Index(categories, dtype=object).get_indexer(np.asarray(uniques, dtype=object))
    if (lookup < 0).any():  # pragma: no cover - every value was seen by the describing pass
        raise ValueError(f"column {name!r} has a value the describing pass did not see")
    return lookup.astype(np.int64)


def number_codes(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(distinct, codes)``: a numeric column's sorted distinct present values (a zero among
    them ``+0.0``) and each row's index among them, ``len(distinct)`` where missing (int32).

    The values as ``np.unique(values[present], return_inverse=True)`` codes them, found by one
    hashing pass (``pd.factorize``) and a sort of the distinct values only.
    """
    # first-seen order; -0.0 is 0.0; NaN: -1
    local, uniques = pd.factorize(values, size_hint=distinct_hint(values))
    order = np.argsort(uniques, kind="stable")
    position = np.empty(len(order) + 1, dtype=np.int32)
    position[order] = np.arange(len(order), dtype=np.int32)
    position[-1] = len(order)
    distinct = np.asarray(uniques, dtype=float)[order]
    distinct[distinct == 0] = 0.0
    return distinct, position[local]


HINT_SAMPLE = 4096
"""The leading values of a column whose distinct values size :func:`number_codes`' hash table."""


def distinct_hint(values: np.ndarray) -> int:
    """A size for the hash table that codes a column (``pd.factorize``'s ``size_hint``; its
    codes do not depend on it): the column's length where its first :data:`HINT_SAMPLE` values
    are mostly distinct, else 8 times as many as they hold. ``pd.factorize`` sizes its table by
    the column's length, and in a worker started by a ``distributed`` Nanny
    (``MALLOC_TRIM_THRESHOLD_``) a table of a few MB is a fresh ``mmap`` whose pages fault in:
    for 16 columns of 125,000 values of a few thousand distinct ones, 30 ms instead of 62. A
    table too small grows as it fills."""
    head = values[:HINT_SAMPLE]
    n_distinct = len(pd.unique(head))
    return len(values) if 2 * n_distinct > len(head) else min(len(values), 8 * n_distinct)


class EqualWidthCoder:
    """:func:`id3tree.information._equal_width_codes` of many columns of one partition, in
    buffers made once for all of them (the fast path; that function is its plain twin).

    Each row-sized temporary of a worker started by a ``distributed`` Nanny is a fresh ``mmap``
    whose pages fault in (its ``MALLOC_TRIM_THRESHOLD_``): coding a column the plain way makes
    four of them, here the narrow codes are the only new array."""

    def __init__(self, n_rows: int) -> None:
        self.scaled = np.empty(n_rows)
        self.codes = np.empty(n_rows, dtype=np.intp)
        self.flags = np.empty(n_rows, dtype=bool)

    def code(self, values: np.ndarray, edges: np.ndarray, dtype: Any) -> tuple[np.ndarray, tuple]:
        """The codes of ``values`` (``dtype``) by equal-width ``edges``, missing values the last
        code, and what a describing pass says of the column: (smallest, largest, missing
        count). Edges that do not cover every present value put a value outside in the nearest
        bin: the range tells."""
        n_bins = len(edges) - 1
        scaled, codes, flags = self.scaled, self.codes, self.flags
        np.subtract(values, edges[0], out=scaled)
        scaled *= n_bins / (edges[-1] - edges[0])
        np.fmax(scaled, 0, out=scaled)  # NaN becomes the bound: a valid index
        np.fmin(scaled, n_bins - 1, out=scaled)
        np.copyto(codes, scaled, casting="unsafe")
        # (mode="clip": every code is a valid index, and take(mode="raise") buffers its output)
        np.take(edges, codes, out=scaled, mode="clip")  # the estimated bin's left edge
        codes -= np.less(values, scaled, out=flags)  # the estimate was one bin too high
        np.take(np.r_[edges[1:-1], np.inf], codes, out=scaled, mode="clip")
        codes += np.greater_equal(values, scaled, out=flags)  # ... or one too low
        n_missing = int(np.count_nonzero(np.isnan(values, out=flags)))
        np.copyto(codes, n_bins, where=flags)
        if n_missing == len(values):
            return codes.astype(dtype), (np.nan, np.nan, n_missing)
        low, high = float(np.fmin.reduce(values)), float(np.fmax.reduce(values))
        return codes.astype(dtype), (low, high, n_missing)


def _describe_chunk(part: pd.DataFrame, wanted: dict, dtypes: dict) -> dict:
    """Per column: its distinct values (categorical) or (min, max, missing count) (numeric)."""
    out = {}
    for column, (name, kind) in wanted.items():
        series = part[column]
        if kind == "classes":  # the distinct values, the missing count, each value's count
            codes, (uniques, n_missing) = own_codes(series)
            out[column] = (
                uniques,
                n_missing,
                np.bincount(codes[codes >= 0], minlength=len(uniques)),
            )
        elif kind == "categories":
            out[column] = (
                pd.Series(series.dropna().unique(), dtype=series.dtype),
                int(series.isna().sum()),
            )
        else:  # raises on text and on infinite values, naming the column
            values = numbers(series, name, dtypes[column])
            present = values[~np.isnan(values)]
            if len(present):
                out[column] = (
                    float(present.min()),
                    float(present.max()),
                    len(values) - len(present),
                )
            else:
                out[column] = (np.nan, np.nan, len(values))
    return out


def combine_descriptions(a: dict, b: dict) -> dict:
    """Two partitions' descriptions (:func:`_describe_chunk`'s) as one."""
    out = {}
    for column, first in a.items():
        second = b[column]
        if len(first) == 3 and isinstance(first[0], pd.Series):  # classes, with their counts
            codes, uniques = pd.factorize(pd.concat([first[0], second[0]], ignore_index=True))
            counts = np.zeros(len(uniques), dtype=np.int64)
            np.add.at(counts, codes, np.concatenate([first[2], second[2]]))
            out[column] = (pd.Series(uniques, dtype=first[0].dtype), first[1] + second[1], counts)
        elif isinstance(first[0], pd.Series):
            both = pd.concat([first[0], second[0]], ignore_index=True).drop_duplicates()
            out[column] = (both.reset_index(drop=True), first[1] + second[1])
        else:
            out[column] = (
                np.fmin(first[0], second[0]),
                np.fmax(first[1], second[1]),
                first[2] + second[2],
            )
    return out


def _counts_by_category(found: tuple, categories: list) -> np.ndarray:
    """The counts of a column described as "classes", in the order of its sorted categories."""
    lookup = pd.Index(categories, dtype=object).get_indexer(np.asarray(found[0], dtype=object))
    counts = np.zeros(len(categories), dtype=np.int64)
    np.add.at(counts, lookup, found[2])
    return counts


def describe(frame: Any, wanted: dict) -> Any:
    """A Delayed summary for the columns in ``wanted`` (column -> (name, kind), the kind one of
    "categories", "classes" (categories with each one's count) and "range"); categorical
    columns that mix numbers and text in the frame's pandas source are refused first."""
    categorical = [name for name, kind in wanted.values() if kind in ("categories", "classes")]
    check_source_values(frame, categorical)
    dtypes = {column: frame._meta[column].dtype for column in wanted}
    return reduce_partitions(frame, _describe_chunk, combine_descriptions, wanted, dtypes)


def range_edges(low: float, high: float, bins: Any) -> np.ndarray:
    """The bin edges ``numpy.histogram`` makes for a column whose values range from ``low`` to
    ``high`` (NaN: the column has no value), as it makes them from the values themselves."""
    present = np.array([low, high]) if np.isfinite(low) else np.zeros(1)
    return np.histogram_bin_edges(present, bins=bins)


def described(part: Any) -> dict:
    """What a describing pass says of a partition read and coded in one pass (the
    ``described`` of the MI matrix's or the fit's partition coded by its own values)."""
    return part.described


def is_categorical_meta(frame: Any, column: Any) -> bool:
    """Non-numeric columns (text, category, bool) are categorical, as with pandas."""
    return not is_numeric(frame._meta[column])


def categorical_mask(frame: Any, categorical: Any = "auto") -> list[bool]:
    """Which columns of a Dask DataFrame are categorical, by the learner's ``categorical=`` rule."""
    names = [str(c) for c in frame.columns]
    listed = listed_columns(categorical, names)
    return [f in listed or is_categorical_meta(frame, c) for f, c in enumerate(frame.columns)]


def codings_from(summary: dict, wanted: dict, bins: Any = None) -> dict[str, Coding]:
    """Codings from a describing pass: categories sorted as on the whole column, bin edges as
    ``numpy.histogram`` makes them from the column's range."""
    codings = {}
    for column, (name, kind) in wanted.items():
        found = summary[column]
        if kind in ("categories", "classes"):
            _, categories = factorize(found[0], name)  # sorted, checked for mixed types
            codings[column] = Coding(name, column, categories=categories, n_missing=found[1])
            if kind == "classes":
                codings[column].counts = _counts_by_category(found, categories)
        else:
            low, high, n_missing = found
            coding = Coding(name, column, low=low, high=high, n_missing=n_missing)
            if bins is not None:
                try:
                    coding.edges = range_edges(low, high, bins)
                    coding.equal_width = isinstance(bins, (int, np.integer))
                except ValueError as exc:
                    raise ValueError(
                        f"column {name!r} cannot be cut into bins={bins!r}: {exc}"
                    ) from None
                if np.isfinite(low) and (low < coding.edges[0] or high > coding.edges[-1]):
                    _bin(np.array([low, high]), coding.edges, name)  # raises, naming the column
            codings[column] = coding
    return codings
