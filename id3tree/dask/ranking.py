"""Feature ranking and screening on a Dask DataFrame: the tables of every feature in one pass.

Every function makes one describing pass (categories, ranges, the target's classes) and one
counting pass in which each partition yields the small tables of every feature at once; the
tables are summed on the workers and handed to the same count -> score code as pandas input.
(The MI matrix folds the two into one read of the files when the coded partitions fit in the
workers' memory: :func:`mutual_information_matrix`.) Each is the Dask version of the dispatched
function named in :data:`id3tree.dask.VERSIONS`, called with the same arguments (the public
functions have checked the parameters).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from id3tree.base.contingency import crosstab_codes
from id3tree.base.diagnostics import ID_LIKE_FLAG, is_id_like
from id3tree.base.entropy import entropy_terms
from id3tree.base.validation import is_numeric
from id3tree.dask import core
from id3tree.dask.measures import counts_of_values, merge_counts_of_values, search_values
from id3tree.information import _bin, symmetric_uncertainty, table_measures
from id3tree.ranking._common import narrow, narrow_dtype
from id3tree.ranking._pairs import pair_tables
from id3tree.ranking.jsd import class_groups, one_vs_rest
from id3tree.ranking.mi import mi_frame
from id3tree.ranking.scores import ranking_frame
from id3tree.ranking.screening import screen_frame, screen_row

__all__ = [
    "DENSE_PAIR_CELLS", "feature_tables", "features_and_target", "jsd_screen", "LocalCodes",
    "mi_codings", "mutual_information_matrix", "rank_features", "screen_features",
]  # fmt: skip

DENSE_PAIR_CELLS = 1 << 24
"""Most cells the pair tables of one column may have (they are counted densely)."""


def features_and_target(X, y, bins=None, *, ranges=True):
    """The joined frame, the features' codings (in column order) and the target's coding.

    Without ``ranges`` numeric columns are not described (their exact values are counted, with
    no bins to make): the describing pass reads only the categorical columns and the target.
    Missing labels are an error, as with pandas input.
    """
    X = core.check_frame(X)
    joined = core.join(X, y)
    kinds = {
        c: (str(c), "categories" if core.is_categorical_meta(X, c) else "range") for c in X.columns
    }
    y_name = "y" if getattr(y, "name", None) in (None, core.TARGET) else str(y.name)
    kinds[core.TARGET] = (y_name, "categories")
    described = {c: kind for c, kind in kinds.items() if ranges or kind[1] == "categories"}
    summary = core.compute(core.describe(joined[list(described)], described))[0]
    codings = core.codings_from(summary, described, bins)
    for c, (name, _) in kinds.items():
        if c not in codings:  # a numeric column counted by its exact values
            codings[c] = core.Coding(name, c)
    target = codings.pop(core.TARGET)
    if target.n_missing:
        raise ValueError(
            f"y has {target.n_missing} missing label(s); drop those rows or give them a class"
        )
    if not target.categories:
        raise ValueError(f"X is empty: it has 0 rows ({y_name!r} has no labels)")
    return joined, [codings[c] for c in X.columns], target


# ---------------------------------------------------------------------------------------------
# rank_features and jsd_screen: one (code, class) table per feature
# ---------------------------------------------------------------------------------------------
def _tables_chunk(part, codings, target, exact, dtypes):
    y = target.codes(part)
    out = {}
    for f, coding in enumerate(codings):
        if exact[f]:  # raises on text and on infinite values, naming the column
            values = core.numbers(part[coding.column], coding.name, dtypes[f])
            out[f] = counts_of_values(values, y, target.n_codes)
        else:
            out[f] = crosstab_codes(coding.codes(part), coding.n_codes, y, target.n_codes)
    return out


def _split_of(found):
    search = search_values(found)
    if not search.found[0]:
        return 0.0, 0.0
    return float(search.gain[0]), float(search.split_info[0])


def feature_tables(joined, codings, target, exact):
    """Per feature: its (code, class) table, or (gain, split info) of its best threshold where
    ``exact`` (the threshold search runs on a worker, next to the value counts)."""
    combiners = {f: merge_counts_of_values if exact[f] else core.add for f in range(len(exact))}
    finals = {f: _split_of if exact[f] else None for f in range(len(exact))}
    dtypes = [joined._meta[c.column].dtype for c in codings]
    return core.compute_keys(
        core.reduce_keys(joined, _tables_chunk, combiners, finals, codings, target, exact, dtypes)
    )


def rank_features(X, y, method, bins):
    by_threshold = method in ("information_gain", "gain_ratio")
    if not by_threshold:
        core.check_bins(bins)
    joined, codings, target = features_and_target(
        X, y, None if by_threshold else bins, ranges=not by_threshold
    )
    exact = [by_threshold and c.categories is None for c in codings]
    tables = feature_tables(joined, codings, target, exact)
    n_classes = len(target.categories)
    if method == "jsd":
        _, membership = class_groups(target.categories, False)
    scores = np.empty(len(codings))
    for f in range(len(codings)):
        found = tables[f]
        if method == "jsd":
            scores[f] = one_vs_rest(found[:, :n_classes], membership).max()
            continue
        if method == "symmetric_uncertainty":
            scores[f] = symmetric_uncertainty(found)
            continue
        gain, split_info = found if exact[f] else table_measures(found, 2)
        if method == "information_gain" or method == "mutual_information":
            scores[f] = gain
        else:  # gain ratio
            scores[f] = gain / split_info if split_info > 0 else 0.0
    return ranking_frame(scores, core.check_frame(X).columns, _id_like_flags(tables, codings))


def _id_like_flags(tables, codings) -> list[str]:
    """The ID-like flag of each categorical feature, from its counted table (a numeric column of
    distinct whole numbers, which the in-memory ranking also flags, would need its values)."""
    flags = []
    for f, coding in enumerate(codings):
        table = tables[f]
        if coding.categories is None or not isinstance(table, np.ndarray):
            flags.append("")
            continue
        per_value = table[: len(coding.categories)].sum(axis=1)
        n_rows, n_values = float(per_value.sum()), int((per_value > 0).sum())
        flags.append(ID_LIKE_FLAG if is_id_like(n_rows, n_values) else "")
    return flags


def jsd_screen(X, y, bins, macroclasses, trim_outliers):
    if trim_outliers is not None:
        raise ValueError(
            "trim_outliers needs the quartiles of every column, which a Dask DataFrame does not "
            "give exactly in one pass; leave it None or pass explicit bins"
        )
    core.check_bins(bins)
    joined, codings, target = features_and_target(X, y, bins)
    tables = feature_tables(joined, codings, target, [False] * len(codings))
    labels, membership = class_groups(target.categories, macroclasses)
    n_classes = len(target.categories)
    scores = np.column_stack(
        [one_vs_rest(tables[f][:, :n_classes], membership) for f in range(len(codings))]
    )
    return pd.DataFrame(
        scores,
        index=pd.Index(labels, name="class"),
        columns=pd.Index(core.check_frame(X).columns, name="feature"),
    )


# ---------------------------------------------------------------------------------------------
# mutual_information_matrix: the joint table of every pair of columns
# ---------------------------------------------------------------------------------------------
def _pairs_chunk(part, codings) -> dict:
    """The MI matrix's counts of one partition, as the pandas engine counts them
    (:func:`id3tree.ranking._pairs.pair_tables`): per column in the order of their numbers of
    codes, its own counts and its tables with every later column of that order side by side."""
    _, tables = pair_tables([c.codes(part) for c in codings], [c.n_codes for c in codings])
    return dict(enumerate(tables))


def _pairs_chunk_plain(part, codings) -> dict:
    """:func:`_pairs_chunk`'s counts, one ``bincount`` per column and per pair."""
    codes = [c.codes(part) for c in codings]
    sizes = [c.n_codes for c in codings]
    order = _order(sizes)
    out = {}
    for p, a in enumerate(order):
        tables = [
            np.bincount(codes[a] * sizes[b] + codes[b], minlength=sizes[a] * sizes[b]).reshape(
                sizes[a], sizes[b]
            )
            for b in order[p + 1 :]
        ]
        later = np.concatenate(tables, axis=1) if tables else np.zeros((sizes[a], 0), np.int64)
        out[p] = (np.bincount(codes[a], minlength=sizes[a]), later)
    return out


def _order(sizes) -> list[int]:
    """The columns in the order :func:`pair_tables` counts them: by their number of codes."""
    return np.argsort(np.asarray(sizes), kind="stable").tolist()


def mutual_information_matrix(X, bins, base, normalize, progress, n_threads):
    """The MI matrix (``progress`` and ``n_threads`` are for pandas input: the workers count).

    One read of the files when the partitions, coded by their own values (4 bytes a cell), fit
    in the workers' memory (:func:`_pairs_in_one_read`); else a describing pass for the codings,
    then a counting pass that reads the files again."""
    core.check_bins(bins)
    X = core.check_frame(X)
    kinds = {
        c: (str(c), "categories" if core.is_categorical_meta(X, c) else "range") for c in X.columns
    }
    n_rows = core.known_rows(X)
    if n_rows is not None and core.fits_in_workers(4 * n_rows * len(kinds)):
        found, codings = _pairs_in_one_read(X, kinds, bins)
    else:
        summary = core.compute(core.describe(X, kinds))[0]
        codings = mi_codings(summary, kinds, bins)
        found = core.compute(core.reduce_partitions(X, _pairs_chunk, core.add, codings))[0]
    m = len(codings)
    sizes = [c.n_codes for c in codings]
    joint = np.zeros((m, m))
    n = int(found[0][0].sum())
    if n == 0:
        raise ValueError("X is empty: it has 0 rows; at least one is needed")
    order = _order(sizes)
    for p, a in enumerate(order):  # a column's tables with every later one at once
        own, later = found[p]
        joint[a, a] = entropy_terms(own, n, base).sum()
        partners = order[p + 1 :]
        if partners:
            starts = np.cumsum([0] + [sizes[b] for b in partners[:-1]])
            terms = entropy_terms(later, n, base).sum(axis=0)  # one per code of a later column
            joint[a, partners] = joint[partners, a] = np.add.reduceat(terms, starts)
    return mi_frame(joint, X.columns, normalize)


def mi_codings(summary: dict, kinds: dict, bins) -> list:
    """The codings of the MI matrix's columns (in column order) from a describing pass; a
    column whose tables with the later ones are too large to count densely is refused."""
    by_column = core.codings_from(summary, kinds, bins)
    codings = [by_column[c] for c in kinds]
    sizes = [c.n_codes for c in codings]
    for a, coding in enumerate(codings):
        if sizes[a] * sum(sizes[a + 1 :]) > DENSE_PAIR_CELLS:
            raise ValueError(
                f"column {coding.name!r} has {sizes[a] - 1} categories: its tables with the other "
                "columns are too large to count densely; drop it or group its rare categories"
            )
    return codings


@dataclass
class LocalCodes:
    """One partition's columns as codes, and what a describing pass would say of each column.

    A column coded by the guessed bin edges has its final codes (in the narrowest dtype) and
    ``values[f]`` None; any other column has int32 codes indexing ``values[f]``: a numeric
    column's sorted distinct values (:func:`core.number_codes`, a missing value
    ``len(values[f])``), a categorical column's distinct values in order of appearance (-1
    missing)."""

    codes: list
    values: list
    described: dict


def _code_locally(part, kinds: dict, dtypes: dict, guesses: dict | None = None) -> LocalCodes:
    """``part`` coded column by column: by the edges ``guesses`` holds for the column (its
    final codes), else by its own values."""
    guesses = guesses or {}
    codes, values, described = [], [], {}
    coder = core.EqualWidthCoder(len(part)) if guesses else None
    for column, (name, kind) in kinds.items():
        series = part[column]
        if kind == "categories":
            local, described[column] = core.own_codes(series)
            uniques = described[column][0]
            local = local.astype(np.min_scalar_type(-len(uniques) - 1), copy=False)
        elif column in guesses:
            edges = guesses[column]
            local, described[column] = _guessed_codes(coder, series, name, dtypes[column], edges)
            codes.append(local)
            values.append(None)
            continue
        else:  # raises on text and on infinite values, naming the column
            uniques, local = core.number_codes(core.numbers(series, name, dtypes[column]))
            n_missing = len(local) - int(np.count_nonzero(local < len(uniques)))
            low, high = (uniques[0], uniques[-1]) if len(uniques) else (np.nan, np.nan)
            described[column] = (float(low), float(high), n_missing)
        codes.append(local)
        values.append(uniques)
    return LocalCodes(codes, values, described)


def _guessed_codes(coder, series, name: str, dtype, edges) -> tuple[np.ndarray, tuple]:
    """A numeric column's codes by ``edges`` and its range (:meth:`core.EqualWidthCoder.code`).

    A float64 column is coded as it is, not copied by :func:`core.numbers` first: its missing
    values are NaN already, and an infinite value shows in its range, where it is refused by
    :func:`core.numbers` (naming the column) as any other column's is."""
    if series.dtype == np.float64:
        found = coder.code(series.to_numpy(), edges, narrow_dtype(len(edges)))
        if np.isfinite(found[1][:2]).all() or found[1][2] == len(series):
            return found
    return coder.code(core.numbers(series, name, dtype), edges, narrow_dtype(len(edges)))


def _pairs_of_local(local: LocalCodes, codings: list) -> dict:
    """:func:`_pairs_chunk` of a partition coded by :func:`_code_locally`: a column coded by
    its own values is coded by the column's coding through one lookup per distinct value (not
    per row), in the narrowest dtype."""
    codes = []
    for column, values, coding in zip(local.codes, local.values, codings):
        if values is None:  # coded by the guessed edges, which the codings' edges are
            codes.append(column)
            continue
        if coding.categories is not None:
            lookup = core.category_lookup(values, coding.categories, coding.name)
        else:
            lookup = _bin(np.asarray(values), coding.edges, coding.name)[0]
        codes.append(narrow(np.append(lookup, coding.n_codes - 1), coding.n_codes)[column])
    _, tables = pair_tables(codes, [c.n_codes for c in codings])
    return dict(enumerate(tables))


def _pairs_in_one_read(X, kinds: dict, bins, *, guess: bool = True) -> tuple[dict, list]:
    """The MI matrix's summed counts and the codings, with every file read once: each
    partition is coded and kept on its worker while the describing summary is merged and the
    codings made (on a worker), then counted.

    A numeric column whose range the files' metadata states (:func:`core.known_ranges`) is
    coded at once by the bin edges of that range (:func:`_guessed_edges`), any other column by
    its own values and then by its coding. If the partitions' own ranges show a guess wrong,
    its codes are too: the counts are thrown away and the files read again, with no guess."""
    dask, _ = core.import_dask()
    core.check_source_values(X, [n for n, kind in kinds.values() if kind == "categories"])
    dtypes = {column: X._meta[column].dtype for column in kinds}
    guesses = _guessed_edges(X, kinds, bins) if guess else {}
    local = [
        dask.delayed(_code_locally, pure=True)(p, kinds, dtypes, guesses) for p in X.to_delayed()
    ]
    summary = core.reduce_partitions(local, core.described, core.combine_descriptions)
    codings = dask.delayed(mi_codings, pure=True)(summary, kinds, bins)
    found = core.reduce_partitions(local, _pairs_of_local, core.add, codings)
    found, codings = core.compute(found, codings)
    by_column = dict(zip(kinds, codings))
    if not all(np.array_equal(by_column[c].edges, edges) for c, edges in guesses.items()):
        return _pairs_in_one_read(X, kinds, bins, guess=False)
    return found, codings


def _guessed_edges(X, kinds: dict, bins) -> dict:
    """The bin edges of each numeric column whose range the files' metadata states, made as
    :func:`core.codings_from` makes them from the range a describing pass finds (a number of
    bins only: explicit edges need no range)."""
    if not isinstance(bins, (int, np.integer)):
        return {}
    numeric = [column for column, (_, kind) in kinds.items() if kind == "range"]
    return {
        column: core.range_edges(low, high, bins)
        for column, (low, high) in core.known_ranges(X, numeric).items()
    }


# ---------------------------------------------------------------------------------------------
# screen_features: value counts and moments, merged
# ---------------------------------------------------------------------------------------------
def _moments(values: np.ndarray) -> tuple[int, float, float]:
    """(n, mean, sum of squared deviations) of the present values."""
    values = values[~np.isnan(values)]
    if not len(values):
        return 0, 0.0, 0.0
    mean = float(values.mean())
    return len(values), mean, float(((values - mean) ** 2).sum())


def _merge_moments(a, b):
    """Chan, Golub and LeVeque's pairwise update of (n, mean, M2)."""
    n = a[0] + b[0]
    if n == 0:
        return a
    delta = b[1] - a[1]
    mean = a[1] + delta * b[0] / n
    return n, mean, a[2] + b[2] + delta * delta * a[0] * b[0] / n


def _screen_chunk(part, columns, numeric, dtypes):
    out = {}
    for column, is_number, dtype in zip(columns, numeric, dtypes):
        series = part[column]
        moments = None
        if is_number:
            values = series.astype(float) if series.dtype == bool else series
            moments = _moments(core.numbers(values, str(column), dtype))
        counts = series.value_counts(dropna=True, sort=False)
        out[column] = (counts, len(series), moments)
    return out


def _screen_combine(a, b):
    out = {}
    for column, (counts, n, moments) in a.items():
        other = b[column]
        merged = counts.add(other[0], fill_value=0) if len(other[0]) else counts
        if not len(counts):
            merged = other[0]
        out[column] = (
            merged,
            n + other[1],
            None if moments is None else _merge_moments(moments, other[2]),
        )
    return out


def screen_features(X, limits):
    X = core.check_frame(X)
    columns = list(X.columns)
    numeric = [
        is_numeric(X._meta[c]) or pd.api.types.is_bool_dtype(X._meta[c].dtype) for c in columns
    ]
    dtypes = [X._meta[c].dtype for c in columns]
    found = core.compute(
        core.reduce_partitions(X, _screen_chunk, _screen_combine, columns, numeric, dtypes)
    )[0]
    rows = []
    for column, is_number in zip(columns, numeric):
        counts, n_rows, moments = found[column]
        if n_rows == 0:
            raise ValueError("X is empty: it has 0 rows; at least one is needed")
        counts = counts.astype(np.int64).sort_values(ascending=False, kind="stable")
        mean = cv = math.nan
        if is_number and len(counts):
            n, mean, m2 = moments
            cv = 0.0
            if n >= 2:
                sign = 1.0 if mean >= 0 else -1.0
                cv = sign * math.sqrt(m2 / (n - 1)) / max(1.0, abs(mean))
        dtype = str(X._meta[column].dtype)
        rows.append(screen_row(dtype, counts, n_rows, is_number, mean, cv, limits))
    return screen_frame(rows, X.columns)
