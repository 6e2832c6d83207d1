"""Columns that look like identifiers, and the warning the learner gives about them.

A column with (nearly) one row per value, such as a name, a ticket number or a row id, splits the
data into branches of one row each. Every branch is pure, so the information gain of the split is
the whole entropy of the class: ID3 prefers it to every real feature, and the tree memorises the
training rows instead of learning. Gain ratio divides by the split information (about
``log2(number of values)``) and so sees through it; dropping the column is simpler still.

One rule, shared by the learner's warning, ``screen_features`` and ``rank_features``: a set of
rows is *ID-like* on a column when the column takes at least ``ID_LIKE_MIN_VALUES`` distinct values
among them and there are on average at most ``ID_LIKE_ROWS_PER_VALUE`` rows per value.
"""

from __future__ import annotations

ID_LIKE_MIN_VALUES = 10
ID_LIKE_ROWS_PER_VALUE = 2.0
ID_LIKE_FLAG = "ID-like"


class IDLikeFeatureWarning(UserWarning):
    """A categorical split had (nearly) one row per branch: the column behaves like an id."""


def is_id_like(n_rows: float, n_values: int) -> bool:
    """Whether ``n_rows`` rows spread over ``n_values`` distinct values look like an identifier.

    >>> is_id_like(891, 891), is_id_like(891, 681), is_id_like(891, 148), is_id_like(6, 6)
    (True, True, False, False)
    """
    return n_values >= ID_LIKE_MIN_VALUES and n_rows <= ID_LIKE_ROWS_PER_VALUE * n_values


def id_like_message(feature: str, n_rows: float, n_values: int, where: str = "") -> str:
    """The warning's text: what was seen and what to do."""
    per_branch = f"{n_rows / n_values:.2g}"
    rows = "row" if per_branch == "1" else "rows"
    return (
        f"column {feature!r} looks like an identifier: it split {n_rows:g} rows{where} into "
        f"{n_values} branches ({per_branch} {rows} per branch), so every branch is "
        f"(nearly) pure and its gain is spurious; use criterion='gain_ratio' or drop the column"
    )
