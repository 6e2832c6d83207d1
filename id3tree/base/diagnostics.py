"""Columns that look like identifiers, and the warning the learner gives about them.

A column with (nearly) one row per value, such as a name, a ticket number or a row id, splits the
data into branches of one row each. Every branch is pure, so the information gain of the split is
the whole entropy of the class: ID3 prefers it to every real feature, and the tree memorises the
training rows instead of learning. Gain ratio divides by the split information (about
``log2(number of values)``) and so sees through it; dropping the column is simpler still.

One rule, shared by the learner's warning, ``screen_features`` and ``rank_features``: a set of
rows is *ID-like* on a column when the column takes at least ``ID_LIKE_MIN_VALUES`` distinct values
among them and there are on average at most ``ID_LIKE_ROWS_PER_VALUE`` rows per value.

A numeric identifier (Titanic's ``PassengerId``) makes two-way splits, never a branch per value,
so it has a rule of its own (:func:`number_run`): over the training rows its present values are
at least ``ID_LIKE_MIN_NUMBERS`` whole numbers, all distinct, that fill at least half of the run
from the smallest to the largest (``largest - smallest + 1 <= ID_LIKE_ROWS_PER_VALUE * n``): a
row number, or a training sample of one. A measured quantity is seldom so: n values drawn from a
range of at most 2n whole numbers are all distinct with a chance of about ``exp(-n / 4)``, under
1% from 20 values on.
"""

from __future__ import annotations

import os
import re
import shlex
import sys

__all__ = [
    "ID_LIKE_FLAG", "ID_LIKE_MIN_NUMBERS", "id_like_message", "ID_LIKE_MIN_VALUES",
    "ID_LIKE_ROWS_PER_VALUE", "id_like_warning", "IDLikeFeatureWarning", "is_id_like",
    "left_out_message", "may_hold_stray_values", "number_run", "number_run_warning",
    "stopped_early", "stopped_early_words", "STRAY_SHARE", "STRAY_VALUES", "stray_values",
    "stray_values_message", "StrayValuesWarning", "unseen_classes_message", "UnseenClassWarning",
    "user_level", "warn_about_unseen_classes",
]  # fmt: skip

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def user_level() -> int:
    """The ``stacklevel`` at which a warning names the first line outside id3tree that led to
    it, for the function that calls this and then warns (itself level 1): however many calls
    of the package lie between, a wrapper such as the learner's language included."""
    frame, level = sys._getframe(1), 1
    while frame.f_back is not None and os.path.abspath(frame.f_code.co_filename).startswith(
        _PACKAGE
    ):
        frame, level = frame.f_back, level + 1
    return level


ID_LIKE_MIN_VALUES = 10
ID_LIKE_ROWS_PER_VALUE = 2.0
ID_LIKE_MIN_NUMBERS = 20
ID_LIKE_FLAG = "ID-like"


class IDLikeFeatureWarning(UserWarning):
    """A split had (nearly) one row per branch, or cut a column of row numbers: the column
    behaves like an id.

    ``feature`` names the column and ``split`` says what it did ("891 rows into 891
    branches"); both are kept on the warning as they were given (never read back from its
    text, which a column's name could mimic). A warning made from another keeps its two."""

    feature: str | None
    split: str | None

    def __init__(
        self, message: str | IDLikeFeatureWarning, feature: str | None = None,
        split: str | None = None,
    ) -> None:  # fmt: skip
        if isinstance(message, IDLikeFeatureWarning):
            feature = message.feature if feature is None else feature
            split = message.split if split is None else split
        super().__init__(str(message))
        self.feature, self.split = feature, split

    def __reduce__(self):
        return type(self), (str(self), self.feature, self.split)


def is_id_like(n_rows: float, n_values: int) -> bool:
    """Whether ``n_rows`` rows spread over ``n_values`` distinct values look like an identifier.

    >>> is_id_like(891, 891), is_id_like(891, 681), is_id_like(891, 148), is_id_like(6, 6)
    (True, True, False, False)
    """
    return n_values >= ID_LIKE_MIN_VALUES and n_rows <= ID_LIKE_ROWS_PER_VALUE * n_values


def id_like_message(feature: str, n_rows: float, n_values: int, where: str = "") -> str:
    """The warning's text: what was seen and what to do."""
    return str(id_like_warning(feature, n_rows, n_values, where))


def id_like_warning(
    feature: str, n_rows: float, n_values: int, where: str = ""
) -> IDLikeFeatureWarning:
    """The warning about a split of ``n_rows`` rows into ``n_values`` branches (``where``: at
    which node), its column and split kept on it."""
    per_branch = f"{n_rows / n_values:.2g}"
    rows = "row" if per_branch == "1" else "rows"
    split = f"{n_rows:g} rows into {n_values} branches"
    text = (
        f"column {feature!r} looks like an identifier: it split {n_rows:g} rows{where} into "
        f"{n_values} branches ({per_branch} {rows} per branch), so every branch is "
        f"(nearly) pure and its gain is spurious; use criterion='gain_ratio' or drop the column"
    )
    return IDLikeFeatureWarning(text, feature, split)


def number_run(values) -> tuple[int, float, float] | None:
    """``(n, smallest, largest)`` when the present values of a numeric column are a numeric
    identifier (the module's rule: at least ``ID_LIKE_MIN_NUMBERS`` distinct whole numbers that
    fill at least half of their run), else None. Every step is one pass over the column.

    >>> number_run(range(1, 892)), number_run([*range(30), 29]), number_run(range(0, 90, 3))
    ((891, 1.0, 891.0), None, None)
    """
    import numpy as np

    v = np.asarray(values, dtype=float)
    v = v[~np.isnan(v)]
    n = len(v)
    if n < ID_LIKE_MIN_NUMBERS or not np.isfinite(v).all() or not (v == np.round(v)).all():
        return None
    low, high = float(v.min()), float(v.max())
    spread = high - low + 1
    if not n <= spread <= ID_LIKE_ROWS_PER_VALUE * n:  # (distinct whole numbers need n <= it)
        return None
    if np.bincount((v - low).astype(np.int64)).max() > 1:
        return None
    return n, low, high


def number_run_warning(
    feature: str, run: tuple, n_rows: float, threshold: float, where: str = ""
) -> IDLikeFeatureWarning:
    """The warning about a split of ``n_rows`` rows at ``feature <= threshold`` (``where``: at
    which node) on a column of row numbers, ``run`` as :func:`number_run` gives it."""
    n, low, high = run
    split = f"{n_rows:g} rows at {feature} <= {threshold:.10g}"
    text = (
        f"column {feature!r} looks like an identifier: its {n} values are distinct whole "
        f"numbers from {low:.10g} to {high:.10g}, one row each (a row number), and its split of "
        f"{n_rows:g} rows{where}, {feature} <= {threshold:.10g}, cuts the rows by their number, "
        "not by anything they hold; drop the column"
    )
    return IDLikeFeatureWarning(text, feature, split)


def left_out_message(seen: IDLikeFeatureWarning) -> IDLikeFeatureWarning:
    """What ``ID3Classifier(id_like="drop")`` says of a column it left out, from the warning
    about the split that made it look like an identifier."""
    text = (
        f"column {seen.feature!r} looks like an identifier: it split {seen.split}, so it was "
        "left out and the tree grown without it (id_like='drop'; 'warn' keeps it)"
    )
    return IDLikeFeatureWarning(text, seen.feature, seen.split)


STRAY_SHARE = 0.1
"""A text column is reported as numbers with stray values when at most this share of its
present values (and at most ``STRAY_VALUES`` distinct ones) are not numbers."""
STRAY_VALUES = 5


def stray_values(column) -> dict:
    """The values that keep a column of numbers from being numeric (``72?`` among
    temperatures), each with the rows that hold it (positions from 0); empty when the column
    is numeric already, or is text rather than numbers with a few strays."""
    import pandas as pd
    from pandas.api import types as ptypes

    if ptypes.is_numeric_dtype(column.dtype) or ptypes.is_bool_dtype(column.dtype):
        return {}
    values = pd.Series(column).reset_index(drop=True)
    present = values.notna()
    if not (ptypes.is_object_dtype(values.dtype) or ptypes.is_string_dtype(values.dtype)):
        return {}
    as_text = values[present].astype(str)
    numbers = pd.to_numeric(as_text, errors="coerce")
    strays = as_text[numbers.isna()]
    n_numbers = int(numbers.notna().sum())
    if (
        n_numbers < 2
        or strays.empty
        or strays.nunique() > STRAY_VALUES
        or len(strays) > STRAY_SHARE * int(present.sum())
    ):
        return {}
    return {value: rows.index.tolist() for value, rows in strays.groupby(strays, sort=False)}


class StrayValuesWarning(UserWarning):
    """A column of numbers holds a few values that are not numbers (``72?``), so it is read as
    text: a categorical column with one branch per value."""


def may_hold_stray_values(distinct) -> bool:
    """A quick look at a column's ``distinct`` values (present ones) before
    :func:`stray_values` counts its rows: some are numbers, and at most ``STRAY_VALUES`` are
    not. Most text columns hold no number at all, and a value that starts with no digit, sign
    or point is not one: only the others are parsed."""
    import pandas as pd

    text = {str(value) for value in distinct}
    maybe = [t for t in text if t.strip()[:1] in _NUMBER_STARTS]
    others = len(text) - len(maybe)
    if not maybe or others > STRAY_VALUES:
        return False
    parsed = pd.to_numeric(pd.Series(maybe, dtype=object), errors="coerce")
    not_numbers = others + int(parsed.isna().sum())
    return 0 < not_numbers <= STRAY_VALUES and not_numbers < len(text)


_NUMBER_STARTS = frozenset("0123456789+-.")


def stray_values_message(column, name: str) -> str | None:
    """The warning about :func:`stray_values`, naming the column, the values and their rows."""
    found = stray_values(column)
    if not found:
        return None
    listed = "; ".join(
        f"{value!r} (row{'s' if len(rows) > 1 else ''} "
        f"{', '.join(map(str, rows[:5]))}{', ...' if len(rows) > 5 else ''})"
        for value, rows in found.items()
    )
    return (
        f"column {name!r} holds numbers but also {listed}, so it is read as text: a "
        f"categorical column with one branch per value. Correct the value(s), or read them as "
        f"missing ({_na_values_advice([str(v) for v in found])})"
    )


def _na_values_advice(values: list[str]) -> str:
    """``--na-values 72? on the command line, na_values= in pandas.read_csv``. The option splits
    its text at commas, so a value holding one (``7,5``: a decimal comma) is not listed in it but
    named, with what the option would do to it; a list with spaces or quotes is quoted for the
    shell."""
    listed = [v for v in values if "," not in v]
    words = "na_values= in pandas.read_csv"
    if listed:
        joined = ",".join(listed)
        joined = shlex.quote(joined) if re.search(r"[\s'\"\\$`;&|<>()]", joined) else joined
        words = f"--na-values {joined} on the command line, {words}"
    for value in (v for v in values if "," in v):
        pieces = " and ".join(repr(p) for p in value.split(","))
        words += (
            f"; --na-values cannot list {value!r}: it splits its list at commas and would read "
            f"{pieces} as missing instead (a decimal comma? write a point)"
        )
    return words


def stopped_early(model, X):
    """Which rows of ``X`` stop before a leaf, where and why: a DataFrame with one row per row
    of X: ``node`` (the ``node_id`` where the row stopped; -1 for a row that reached a leaf),
    ``feature`` (the feature of that node's split), ``value`` (the row's value of it) and
    ``reason`` (``"unseen value"``: a category the node never saw; ``"missing value"``: no
    training row reaching the node was missing that feature; empty at a leaf). Such a row is
    predicted from the counts of the node where it stopped."""
    import numpy as np
    import pandas as pd

    from id3tree.base.validation import to_frame

    stop = model._stop_nodes(X)
    feature = model._tree.feature[stop]
    early = np.flatnonzero(feature >= 0)
    frame = to_frame(X)
    values = np.full(len(stop), None, dtype=object)
    reason = np.full(len(stop), "", dtype=object)
    for f in np.unique(feature[early]).tolist():
        rows = early[feature[early] == f]
        column = frame.iloc[rows, f]
        values[rows] = column.to_numpy(dtype=object)
        reason[rows] = np.where(column.isna().to_numpy(), "missing value", "unseen value")
    names = np.array(list(model._names) + [""], dtype=object)
    return pd.DataFrame(
        {
            "node": np.where(feature >= 0, model._tree.ids[stop], -1).astype(np.int64),
            "feature": names[np.where(feature >= 0, feature, -1)],
            "value": values,
            "reason": reason,
        }
    )


def stopped_early_words(table) -> list[str]:
    """Each row of :func:`stopped_early` in words (empty for a row that reached a leaf), for
    the ``stopped_early`` column of ``id3tree predict``."""
    return [
        ""
        if node < 0
        else (
            f"node {node}: {feature} is missing, as no training row there was"
            if reason == "missing value"
            else f"node {node}: {feature} = {value!r} never seen there"
        )
        for node, feature, value, reason in zip(
            table["node"], table["feature"], table["value"], table["reason"]
        )
    ]


class UnseenClassWarning(UserWarning):
    """Rows being scored hold a class the tree was never fitted on: they count as wrong."""


def unseen_classes_message(actual, classes) -> str | None:
    """Words on the classes of ``actual`` that are not in ``classes`` (None if there are none)."""
    import pandas as pd

    values = pd.Series(list(actual), dtype=object)
    known = set(list(classes))
    unseen = values[values.notna() & ~values.isin(known)]
    if unseen.empty:
        return None
    names = sorted(set(unseen.tolist()), key=str)
    return (
        f"{len(unseen)} row(s) hold class(es) the tree was not fitted on: {names[:5]} (first "
        f"at row {unseen.index[0]}); the tree can never predict them, so they count as wrong"
    )


def warn_about_unseen_classes(actual, classes) -> None:
    import warnings

    message = unseen_classes_message(actual, classes)
    if message:
        warnings.warn(message, UnseenClassWarning, stacklevel=3)
