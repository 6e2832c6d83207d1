"""The edge: where pandas objects, numpy arrays and lists become clean numpy columns.

Every error about the user's data is raised here, in words that name the column and the problem.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
from pandas.api import types as ptypes

from id3tree.base.dispatch import require_in_memory

__all__ = [
    "as_series", "check_labels", "check_not_mixed", "check_table", "class_array", "class_codes",
    "distinct_values", "encode_like_fit", "factorize", "FLOAT_INTEGER_LIMIT", "frame_block",
    "FRAME_BLOCK_VALUES", "is_numeric", "listed_columns", "not_a_number_message", "numeric_block",
    "numeric_values", "one_row", "plain_labels", "plain_numeric_array", "plain_values",
    "refuse_complex", "region_points", "rows_to_predict", "to_frame", "training_table",
    "unordered_codes", "UNSEEN", "validation_codes", "value_kind", "without_arrow_dictionaries",
    "without_arrow_dictionary",
]  # fmt: skip


def as_series(values, name: str = "x") -> pd.Series:
    """A 1-D column as a pandas Series (lists, arrays, Series, Index and Categorical accepted)."""
    require_in_memory(values, name)
    if isinstance(values, pd.DataFrame):
        if values.shape[1] != 1:
            raise ValueError(f"{name} must be one column, got a DataFrame with {values.shape[1]}")
        values = values.iloc[:, 0]
    if isinstance(values, pd.Series):
        return without_arrow_dictionary(values.reset_index(drop=True))
    if _is_sparse(values):
        raise TypeError(f"{name}: sparse input is not supported; use .toarray() first")
    if isinstance(values, (pd.Index, pd.Categorical)):
        return pd.Series(values)
    # lists go through an object array: np.asarray(['a', nan]) would turn NaN into the text 'nan'
    array = values if isinstance(values, np.ndarray) else np.asarray(values, dtype=object)
    if array.ndim == 2 and array.shape[1] == 1:
        array = array[:, 0]
    if array.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got an array of shape {array.shape}")
    series = pd.Series(array)
    return series.infer_objects() if series.dtype == object else series


def is_numeric(series: pd.Series) -> bool:
    """True for numeric dtypes (nullable ``Int64``/``Float64`` included), False for bool.
    A dtype may be given instead of a column."""
    dtype = getattr(series, "dtype", series)
    return ptypes.is_numeric_dtype(dtype) and not ptypes.is_bool_dtype(dtype)


def numeric_values(series: pd.Series, name: str, *, exact: bool = True) -> np.ndarray:
    """A numeric column as float64 with NaN for missing; infinite values are an error, and so
    are complex numbers.

    With ``exact`` (the default: the values will be compared with each other), so is an integer
    column with values beyond 2**53 that float64 cannot tell apart: splitting on them would
    silently merge them. Listed in ``categorical=`` such a column keeps every value exactly.
    """
    refuse_complex(series.dtype, f"column {name!r}")
    values = series.to_numpy(dtype=float, na_value=np.nan)
    if exact and ptypes.is_integer_dtype(series.dtype) and len(values):
        _refuse_merged_integers(series, values, name)
    bad = np.isinf(values)
    if bad.any():
        raise ValueError(
            f"column {name!r} has {int(bad.sum())} infinite value(s) (first at row "
            f"{int(np.argmax(bad))}); replace them with a finite number or a missing value"
        )
    return values


FLOAT_INTEGER_LIMIT = 2**53
"""Every integer up to this size in magnitude has its own float64; beyond it, neighbours merge."""


def numeric_block(X) -> np.ndarray | None:
    """A numpy array of real numbers (floats, signed or unsigned integers), or a list of rows of
    them, as one float64 block of its columns, with NaN for missing, checked at once as
    :func:`check_table` and :func:`numeric_values` check its columns one by one: no DataFrame,
    no Series per column.

    A float64 array is returned as it is (no copy). None for any other ``X``, and for data
    those checks may refuse (no rows or no columns, an infinite value, integers of 2**53 or more
    in magnitude, which float64 may not tell apart): the column-by-column path then decides,
    and names the problem.
    """
    if isinstance(X, (list, tuple)):
        X = _rows_of_numbers(X)
    if (
        type(X) is not np.ndarray
        or X.ndim != 2
        or X.dtype.kind not in "fiu"
        or X.dtype.itemsize > 8
        or not X.dtype.isnative
        or X.size == 0
    ):
        return None
    if X.dtype.kind == "f":
        values = X if X.dtype == np.float64 else X.astype(np.float64)
        return None if np.isinf(values).any() else values
    if X.max() >= FLOAT_INTEGER_LIMIT or X.min() <= -FLOAT_INTEGER_LIMIT:
        return None
    return X.astype(np.float64)


def _rows_of_numbers(rows) -> np.ndarray | None:
    """A list of rows whose every value is a real number (no booleans, no None) as a float64
    array; None for any other list, and for one with a column of missing values only, which
    :func:`to_frame` makes a column of no type."""
    values = np.asarray(rows, dtype=object)  # as to_frame starts
    if values.ndim != 2 or values.size == 0:
        return None
    if ptypes.infer_dtype(values.ravel(), skipna=False) not in _REAL_NUMBERS:
        return None
    try:
        values = values.astype(np.float64)
    except (OverflowError, TypeError, ValueError):
        return None
    if (np.abs(values) >= FLOAT_INTEGER_LIMIT).any() or np.isnan(values).all(axis=0).any():
        return None  # (an integer column's large values decide column by column; so does inf)
    return values


_REAL_NUMBERS = ("floating", "integer", "mixed-integer-float")
"""What ``infer_dtype`` calls values that are all real numbers (booleans and None excluded)."""


def frame_block(frame: pd.DataFrame) -> np.ndarray | None:
    """:func:`numeric_block` of a small DataFrame whose columns all have numpy dtypes of real
    numbers (its values as one array; of a frame of several blocks, a copy). None for any other
    frame, and for one of more than ``FRAME_BLOCK_VALUES`` values: its columns are taken one by
    one, as views, so that a large frame is never copied.

    Columns of several dtypes share the one that holds them all (integers beside floats: floats
    wide enough for every integer below 2**53, which are exact); a frame with integer columns
    whose block holds a value of 2**53 or more goes column by column, as an integer array does.
    """
    if frame.shape[0] * frame.shape[1] > FRAME_BLOCK_VALUES:
        return None
    dtypes = set(frame.dtypes.tolist())
    if not all(isinstance(dtype, np.dtype) and dtype.kind in "fiu" for dtype in dtypes):
        return None
    values = frame.to_numpy()
    if (
        values.dtype.kind == "f"
        and any(dtype.kind in "iu" for dtype in dtypes)
        and (np.abs(values) >= FLOAT_INTEGER_LIMIT).any()
    ):
        return None
    return numeric_block(values)


FRAME_BLOCK_VALUES = 1_000_000
"""The largest DataFrame :func:`frame_block` takes as one array (8 MB of float64 at most)."""


def training_table(X, all_numeric: bool) -> tuple[pd.DataFrame | None, np.ndarray | None]:
    """The training table ``X`` checked, as ``(frame, block)``: when every column is to be
    numeric (``all_numeric``), numbers (an array, a list of rows, a small frame of numbers) are
    checked as one float64 block (:func:`numeric_block`, :func:`frame_block`: no DataFrame and
    no Series per column; a frame is kept for its column names); anything else is a DataFrame
    (:func:`check_table`) and block None."""
    if isinstance(X, pd.DataFrame):
        frame = check_table(X)
        return frame, frame_block(frame) if all_numeric else None
    block = numeric_block(X) if all_numeric else None
    return (check_table(X) if block is None else None), block


def plain_labels(y, n_rows: int) -> np.ndarray | None:
    """``y`` itself when it is a 1-D numpy array of integers or text with one label per row,
    and a list or Series of integers as an array: labels :func:`check_labels` has nothing to
    refuse in (none can be missing). None for any other ``y``."""
    if isinstance(y, list) and ptypes.infer_dtype(y, skipna=False) == "integer":
        y = np.asarray(y)  # int64, or uint64; beyond that an object array, refused below
    elif isinstance(y, pd.Series) and isinstance(y.dtype, np.dtype) and y.dtype.kind in "iu":
        y = y.to_numpy()  # (a nullable Int64 Series, which may hold pd.NA, is not a numpy dtype)
    if (
        type(y) is np.ndarray
        and y.ndim == 1
        and y.dtype.kind in "iuU"
        and y.dtype.isnative
        and len(y) == n_rows
    ):
        return y
    return None


def class_codes(labels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(labels, return_inverse=True)`` of 1-D labels: the distinct labels, sorted,
    and the index of each row's among them. Labels that are already the codes 0..K-1 of K
    classes, every one present (the common case), are recognised by one count, not a sort."""
    if labels.dtype.kind in "iu" and 0 < len(labels) and labels.max() < len(labels):
        try:  # (a negative label, or one bincount cannot take, leaves it to np.unique)
            present = np.bincount(labels).astype(bool)
        except (TypeError, ValueError):
            present = None
        if present is not None and present.all():
            return np.arange(len(present), dtype=labels.dtype), labels.astype(np.intp)
    return np.unique(labels, return_inverse=True)


def _refuse_merged_integers(series: pd.Series, values: np.ndarray, name: str) -> None:
    present = ~np.isnan(values)
    if not np.any(np.abs(values[present]) >= FLOAT_INTEGER_LIMIT):
        return
    exact = series[present].astype(object).to_numpy()
    order = np.argsort(values[present], kind="stable")
    as_float, as_int = values[present][order], exact[order]
    same = np.flatnonzero((as_float[1:] == as_float[:-1]) & (as_int[1:] != as_int[:-1]))
    if len(same):
        a, b = as_int[same[0]], as_int[same[0] + 1]
        raise ValueError(
            f"column {name!r} holds integers beyond 2**53 that a float64 cannot tell apart "
            f"({a} and {b}); list it in categorical= to keep every value exactly, or rescale it"
        )


_KINDS = {
    "string": "text", "bytes": "bytes", "integer": "number", "floating": "number",
    "mixed-integer-float": "number", "integer-na": "number", "decimal": "number",
    "complex": "number", "boolean": "bool", "datetime": "datetime", "datetime64": "datetime",
    "date": "date", "time": "time", "timedelta": "timedelta", "timedelta64": "timedelta",
    "period": "period", "interval": "interval", "empty": "empty",
}  # fmt: skip


_KIND_WORDS = {
    "text": "text", "bytes": "bytes", "number": "numbers", "bool": "booleans",
    "datetime": "dates and times", "date": "dates", "time": "times", "timedelta": "timedeltas",
    "period": "periods", "interval": "intervals", None: "values of several kinds",
}  # fmt: skip


def value_kind(values) -> str | None:
    """What a column's (non-missing) values are: ``"text"``, ``"bytes"``, ``"number"``,
    ``"bool"``, ``"datetime"``, ``"date"``, ``"time"``, ``"timedelta"``, ``"period"``,
    ``"interval"``, ``"empty"``, or None when they are of several kinds."""
    if isinstance(getattr(values, "dtype", None), pd.CategoricalDtype):
        values = values.cat.categories if isinstance(values, pd.Series) else values.categories
    kind = _KINDS.get(ptypes.infer_dtype(values, skipna=True))
    if kind == "number" and bool(pd.isna(values).all()):  # a float column of NaN only
        return "empty"
    return kind


def check_not_mixed(series, name: str) -> None:
    """Refuse a categorical column that mixes numbers and text: its categories would be ambiguous.

    ``1`` and ``"1"`` would become two categories that print alike, so id3tree asks the user to
    choose one type (``X[col].astype(str)`` is usually what was meant). ``series`` may be the
    column or its distinct values (an object array): the verdict and the message are the same.
    """
    if series.dtype != object:
        return
    kind = ptypes.infer_dtype(series, skipna=True)
    if kind not in ("mixed", "mixed-integer", "mixed-integer-float"):
        return
    values = pd.Series(series).dropna()
    numbers = [
        v for v in values if isinstance(v, (int, float, np.number)) and not isinstance(v, bool)
    ]
    texts = [v for v in values if isinstance(v, str)]
    if numbers and texts:
        raise ValueError(
            f"column {name!r} mixes numbers and text (for example {numbers[0]!r} and "
            f"{texts[0]!r}); convert it to one type first, e.g. X[{name!r}].astype(str)"
        )
    types = sorted({type(v).__name__ for v in values})
    if len(types) > 1 and not (len(numbers) == len(values)):
        raise ValueError(
            f"column {name!r} mixes values of types {', '.join(types)}; convert it to one type"
        )


def factorize(series: pd.Series, name: str) -> tuple[np.ndarray, list]:
    """Integer codes ``0 .. L-1`` for the sorted distinct values, and ``L`` for missing values.

    Returns ``(codes, categories)`` with ``categories`` as plain Python scalars. The ordering is
    the values' natural order (the categories' order for a pandas ``category`` column).

    One hashing pass finds each row's distinct value; the checks and the sort then work on the
    distinct values only, and one gather turns first-seen order into sorted order.
    """
    codes, distinct = distinct_values(series, name)
    check_not_mixed(distinct, name)
    try:  # a category column sorts by its categories' order, others by value
        order = (
            np.argsort(distinct, kind="stable")
            if isinstance(distinct, np.ndarray)
            else distinct.argsort()
        )
    except TypeError as exc:  # unorderable values that are not numbers-and-text
        raise ValueError(f"column {name!r} has values that cannot be ordered: {exc}") from None
    # sorted position of each first-seen code; the missing values' -1 takes the last entry, L
    position = np.empty(len(order) + 1, dtype=np.int64)
    position[order] = np.arange(len(order))
    position[-1] = len(order)
    categories = [_plain(v) for v in np.asarray(distinct, dtype=object)[order]]
    return np.take(position, codes), categories


def unordered_codes(series: pd.Series, name: str) -> tuple[np.ndarray, int]:
    """Integer codes ``0 .. L-1`` for the distinct values in order of first appearance, ``L``
    for missing values, and the number of codes ``L + 1``.

    For measures that do not depend on which value gets which code (entropies, mutual
    information): the same counts as :func:`factorize` gives, without sorting the values or
    translating the codes into sorted order.
    """
    codes, distinct = distinct_values(series, name, missing=_LAST)
    check_not_mixed(np.asarray(distinct, dtype=object), name)
    return codes, len(distinct) + 1


_LAST = object()
"""``distinct_values(..., missing=_LAST)``: missing values get the code after the last value."""


UNSEEN = -1
"""The code of a category that was never seen at fit time."""


def encode_like_fit(
    frame: pd.DataFrame, names: list[str], categories: list[list | None]
) -> np.ndarray:
    """New rows as ``(n_features, n_rows)`` floats, encoded as at fit time: numeric values (NaN
    missing) or category codes (``len(categories)`` for missing, ``UNSEEN`` for new values).

    A column whose kind changed since fit time (text then, numbers now; dates then, text now;
    booleans then, the text "True" now; ...) is an error: every value would count as unseen and
    the prediction would quietly fall back to the root's.
    """
    columns = np.empty((len(names), frame.shape[0]))
    for f, (name, (_, column)) in enumerate(zip(names, frame.items())):
        known = categories[f]
        if known is None:
            if not is_numeric(column) and not column.isna().all():
                raise ValueError(not_a_number_message(column, name))
            columns[f] = numeric_values(column, name, exact=False)
            continue
        codes, distinct = distinct_values(column, name)
        distinct = np.asarray(distinct, dtype=object)
        then, now = value_kind(known), value_kind(distinct)
        if then is not None and now not in (then, "empty") and {then, now} != {"bool", "number"}:
            raise ValueError(
                f"column {name!r} held {_KIND_WORDS[then]} at fit time but holds "
                f"{_KIND_WORDS[now]} now (dtype {column.dtype}); convert it back first"
            )
        # the fit-time code of each distinct value (UNSEEN if new), then the missing values' code
        code_of = {value: code for code, value in enumerate(known)}
        lookup = np.array([code_of.get(value, UNSEEN) for value in distinct] + [len(known)], float)
        np.take(lookup, codes, out=columns[f])  # a missing value's code -1 takes the last entry
    return columns


def plain_numeric_array(X, categories: list) -> bool:
    """Whether ``X`` is a 2-D numpy array of numbers for a model whose features are all numeric
    (``categories[f]`` None for each): predicting from it needs no pandas."""
    return (
        isinstance(X, np.ndarray)
        and X.ndim == 2
        and X.dtype.kind in "fiu"
        and all(c is None for c in categories)
    )


def plain_values(X: np.ndarray, names: list[str]) -> tuple[np.ndarray, bool]:
    """A numeric array's values (no copy for floats: rows are read in place) for a model of the
    numeric features ``names``, checked, and whether any is missing (NaN)."""
    if X.shape[1] != len(names):
        raise ValueError(
            f"X has {X.shape[1]} features, but ID3Classifier is expecting "
            f"{len(names)} features as input"
        )
    values = np.asarray(X, dtype=float)
    if np.isfinite(values.sum()):  # one pass, no temporary
        return values, False
    infinite = np.isinf(values).any(axis=0)  # a NaN or an infinity somewhere: which?
    if infinite.any():
        f = int(np.flatnonzero(infinite)[0])
        numeric_values(pd.Series(values[:, f]), names[f])  # raises, naming it
    return values, True


def rows_to_predict(
    X, names: list[str], categories: list, *, by_name: bool, with_names: bool
) -> np.ndarray:
    """New rows as ``(n_rows, n_features)`` floats, values or category codes, for a model of
    the features ``names`` (``categories`` as :func:`encode_like_fit` takes them). A DataFrame's
    columns are matched by name when the model was fitted on a DataFrame (``by_name``), never
    silently by position; ``with_names``: whether it was fitted with string column names."""
    if plain_numeric_array(X, categories):  # the common fast case: no pandas needed
        return plain_values(X, names)[0]
    frame = to_frame(X)
    if isinstance(X, pd.DataFrame) and by_name:
        _check_column_names([str(c) for c in frame.columns], names)
    elif (
        isinstance(X, pd.DataFrame)
        and not with_names
        and all(isinstance(c, str) for c in X.columns)
    ):
        warnings.warn(
            "X has feature names, but ID3Classifier was fitted without feature names",
            UserWarning,
            stacklevel=5,
        )
    if frame.shape[1] != len(names):
        raise ValueError(
            f"X has {frame.shape[1]} features, but ID3Classifier is expecting {len(names)} "
            "features as input"
        )
    return encode_like_fit(frame, names, categories).T


def _check_column_names(names: list[str], expected: list[str]) -> None:
    """The columns of a frame to predict from must be those the model was fitted on."""
    if names == expected:
        return
    missing = [c for c in expected if c not in names]
    extra = [c for c in names if c not in expected]
    problem = (
        (f"missing {missing}" if missing else "")
        + ("; " if missing and extra else "")
        + (f"unexpected {extra}" if extra else "")
    )
    raise ValueError(
        "The feature names should match those that were passed during fit: "
        + (problem or f"same columns in a different order; use X[{expected}]")
    )


def one_row(x, names: list[str]) -> pd.DataFrame:
    """One sample as a one-row frame with the model's columns ``names``, in order: a dict or
    Series keyed by feature name, a one-row DataFrame, or a list of values in column order."""
    if isinstance(x, pd.DataFrame):
        if len(x) != 1:
            raise ValueError(f"explain takes one sample, got {len(x)} rows")
        record = _by_name(x.iloc[0].to_dict())
    elif isinstance(x, (dict, pd.Series)):
        record = _by_name(dict(x))
    else:
        values = list(np.asarray(x, dtype=object).ravel())
        if len(values) != len(names):
            raise ValueError(
                f"the sample has {len(values)} values but the model has {len(names)} features"
            )
        record = dict(zip(names, values))
    missing = [n for n in names if n not in record]
    if missing:
        raise ValueError(f"the sample has no value for {missing}")
    return pd.DataFrame([{n: record[n] for n in names}]).infer_objects()


def _by_name(record: dict) -> dict:
    """A sample's values keyed by column name as the model knows it (``str`` of the label)."""
    named = {str(k): v for k, v in record.items()}
    if len(named) != len(record):
        raise ValueError(f"the sample names a column twice: {list(record)}")
    return named


def validation_codes(y, n_rows: int, classes: list) -> np.ndarray:
    """Validation labels (``y_val``) as the codes of the model's ``classes``; a class the tree
    never saw is an error."""
    series = check_labels(y, n_rows)
    index = {c: i for i, c in enumerate(classes)}
    unknown = sorted({v for v in series.tolist() if v not in index}, key=str)
    if unknown:
        raise ValueError(
            f"y_val holds classes the tree was not fitted on: {unknown[:5]} (classes: {classes})"
        )
    return np.array([index[v] for v in series.tolist()], dtype=np.int64)


def region_points(X, y, features, names: list[str], categories: list) -> tuple:
    """The points of a region plot (``ID3Classifier.plot_regions``) of a model of the features
    ``names``: their two ``features`` (default: the model's two) as float columns, their class
    labels, and the features' names; a categorical or unknown feature is an error."""
    if features is None:
        if len(names) != 2:
            raise ValueError(
                f"the model has {len(names)} features: name the two to draw "
                "with features=(x_feature, y_feature)"
            )
        features = names
    features = [str(f) for f in features]
    unknown = [f for f in features if f not in names]
    if unknown:
        raise ValueError(f"{unknown} are not features of the model ({names})")
    categorical = [f for f in features if categories[names.index(f)] is not None]
    if categorical:
        raise ValueError(f"{categorical} are categorical; a region plot needs two numeric features")
    frame = to_frame(X)
    if isinstance(X, pd.DataFrame):
        points = frame[features]
    else:
        points = frame.iloc[:, [names.index(f) for f in features]]
    values = points.to_numpy(dtype=float, na_value=np.nan)
    return values, check_labels(y, len(points)).to_numpy(), features


def distinct_values(column: pd.Series, name: str, missing=-1) -> tuple[np.ndarray, np.ndarray]:
    """One hashing pass over a column: each row's index into the column's distinct values in
    order of first appearance (``missing`` where missing: -1, or ``_LAST`` for the number of
    distinct values), and those values (an array as long as there are distinct values,
    whatever the number of rows).

    pandas' pyarrow-backed text (the ``str`` dtype of pandas 3) is hashed by pyarrow itself,
    without making a Python string per row; every other column by ``pandas.factorize``.
    """
    if _is_arrow_text(column.dtype):
        import pyarrow as pa

        text = pa.array(column.array)  # the column's own buffers if it is one chunk
        if isinstance(text, pa.ChunkedArray):  # several chunks: one dictionary for them all
            text = text.combine_chunks()
        encoded = text.dictionary_encode()
        distinct = encoded.dictionary.to_numpy(zero_copy_only=False)
        code = len(distinct) if missing is _LAST else missing
        return encoded.indices.fill_null(code).to_numpy(), distinct
    try:
        codes, distinct = pd.factorize(column)
    except TypeError as exc:  # unhashable values, such as lists
        raise ValueError(f"column {name!r} has values that cannot be compared: {exc}") from None
    if missing is _LAST:
        np.putmask(codes, codes < 0, len(distinct))
    return codes, distinct


def _is_arrow_text(dtype) -> bool:
    return isinstance(dtype, pd.StringDtype) and str(dtype.storage).startswith("pyarrow")


def listed_columns(categorical, names: list[str]) -> set[int]:
    """The positions named by a ``categorical=`` argument: ``"auto"`` (none) or a list of column
    names or positions. Unknown names and positions out of range are errors."""
    if isinstance(categorical, str):
        if categorical != "auto":
            raise ValueError(
                f"categorical must be 'auto' or a list of columns, got {categorical!r}"
            )
        return set()
    chosen = set()
    for item in categorical:
        if isinstance(item, (int, np.integer)) and not isinstance(item, bool):
            if not 0 <= item < len(names):
                raise ValueError(
                    f"categorical names column position {item}, but X has {len(names)} columns"
                )
            chosen.add(int(item))
        elif str(item) in names:
            chosen.add(names.index(str(item)))
        else:
            raise ValueError(
                f"categorical names column {item!r}, which is not in X (columns: {names})"
            )
    return chosen


def _plain(value):
    """A numpy scalar as the Python scalar it stands for (keeps JSON and reprs simple)."""
    return value.item() if isinstance(value, np.generic) else value


def to_frame(X, name: str = "X") -> pd.DataFrame:
    """A 2-D table as a DataFrame; arrays and lists get the column names ``x0, x1, ...``."""
    require_in_memory(X, name)
    if isinstance(X, pd.DataFrame):
        return without_arrow_dictionaries(X)
    if _is_sparse(X):
        raise TypeError(f"{name}: sparse input is not supported; use .toarray() first")
    if isinstance(X, pd.Series):
        raise ValueError(f"{name} must be 2-D; use X.to_frame() for a single column")
    array = X if isinstance(X, np.ndarray) else np.asarray(X, dtype=object)
    if array.ndim != 2:
        raise ValueError(
            f"{name} must be 2-D (rows x columns), got shape {array.shape}. Reshape your data "
            "either using array.reshape(-1, 1) if your data has a single feature or "
            "array.reshape(1, -1) if it contains a single sample."
        )
    if (
        array.dtype == object
    ):  # pd.NA is missing too, or infer_objects would keep numbers as objects
        array = np.where(pd.isna(array), None, array)
    # no copy: the frame is only read, and a copy of a large array would double the memory
    frame = pd.DataFrame(array, columns=[f"x{i}" for i in range(array.shape[1])], copy=False)
    if array.dtype == object:
        frame = frame.infer_objects()
    return frame


def check_table(X, name: str = "X") -> pd.DataFrame:
    """X as a DataFrame with at least one row and one column, unique names, no complex numbers."""
    frame = to_frame(X, name)
    if frame.shape[1] == 0:
        raise ValueError(  # scikit-learn's wording, which its estimator checks look for
            f"{name} has 0 feature(s) (shape={frame.shape}) while a minimum of 1 is required: "
            "at least one feature is needed"
        )
    if frame.shape[0] == 0:
        raise ValueError(f"{name} is empty: it has 0 rows; at least one is needed")
    names = [str(c) for c in frame.columns]
    if len(set(names)) != len(names):
        duplicated = sorted({n for n in names if names.count(n) > 1})
        raise ValueError(f"{name} has duplicate column names: {duplicated}")
    for column, dtype in zip(names, frame.dtypes):
        refuse_complex(dtype, f"column {column!r}")
    return frame


def check_labels(y, n_rows: int, name: str = "y") -> pd.Series:
    """Class labels as a Series: as many as X has rows, none missing, no complex numbers."""
    series = as_series(y, name)
    refuse_complex(series.dtype, name)
    if len(series) != n_rows:
        raise ValueError(
            f"X has {n_rows} rows but {name} has {len(series)}: they must have the same length"
        )
    missing = series.isna().to_numpy()
    if missing.any():
        raise ValueError(
            f"{name} has {int(missing.sum())} missing label(s) (first at row {int(np.argmax(missing))}); "
            "drop those rows or give them a class"
        )
    return series


def refuse_complex(dtype, what: str) -> None:
    if ptypes.is_complex_dtype(dtype):
        raise ValueError(f"{what} holds complex numbers: Complex data not supported")


def _is_sparse(values) -> bool:
    return hasattr(values, "toarray") and hasattr(values, "nnz")


def without_arrow_dictionaries(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with every Arrow dictionary column (what ``read_parquet(...,
    dtype_backend="pyarrow")`` makes of a category column) decoded by
    :func:`without_arrow_dictionary`; the frame itself when it has none."""
    if not any(_is_arrow_dictionary(dtype) for dtype in frame.dtypes):
        return frame
    return frame.apply(without_arrow_dictionary)


def without_arrow_dictionary(column: pd.Series) -> pd.Series:
    """An Arrow dictionary column as the column of its values (an ordered dictionary as an
    ordered pandas category, in the dictionary's order): the same categories, sorted as the
    values of any other column are, where pyarrow cannot sort the dictionary itself."""
    dtype = column.dtype
    if not _is_arrow_dictionary(dtype):
        return column
    if dtype.pyarrow_dtype.ordered:
        import pyarrow as pa

        array = pa.array(column.array)
        if isinstance(array, pa.ChunkedArray):
            array = array.combine_chunks()
        categories = array.dictionary.to_pylist()
        return pd.Series(
            pd.Categorical.from_codes(
                array.indices.fill_null(-1).to_numpy(zero_copy_only=False),
                categories=categories,
                ordered=True,
            ),
            index=column.index,
            name=column.name,
        )
    return column.astype(pd.ArrowDtype(dtype.pyarrow_dtype.value_type))


def _is_arrow_dictionary(dtype) -> bool:
    if not isinstance(dtype, pd.ArrowDtype):
        return False
    import pyarrow as pa

    return pa.types.is_dictionary(dtype.pyarrow_dtype)


def not_a_number_message(column: pd.Series, name: str) -> str:
    """Why a column that was numeric at fit time cannot be read as numbers now, naming the
    first value that is not a number and its row (position from 0)."""
    values = column.reset_index(drop=True)
    present = values[values.notna()]
    numbers = pd.to_numeric(present.astype(object), errors="coerce")
    bad = present[numbers.isna()]
    if bad.empty:  # every value reads as a number: numbers written as text
        if present.empty:
            return f"column {name!r} was numeric at fit time but now has dtype {column.dtype}"
        return (
            f"column {name!r} was numeric at fit time but holds numbers written as text now "
            f"(row {present.index[0]} holds {present.iloc[0]!r}, dtype {column.dtype}); "
            "convert it with pandas.to_numeric first"
        )
    row, value = bad.index[0], bad.iloc[0]
    more = f" ({len(bad)} such rows)" if len(bad) > 1 else ""
    return (
        f"column {name!r} was numeric at fit time but row {row} holds {value!r}{more}; "
        "convert the column to numbers (missing values may stay missing)"
    )


def class_array(classes: list) -> np.ndarray:
    """Classes as a numpy array of their natural dtype (strings, and anything unusual, as object)."""
    if all(isinstance(c, (int, float)) and not isinstance(c, bool) for c in classes) or all(
        isinstance(c, bool) for c in classes
    ):
        return np.array(classes)
    array = np.empty(len(classes), dtype=object)
    array[:] = classes
    return array
