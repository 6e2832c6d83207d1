"""``rank_features``: one entropy-based score per feature, best first (seed 002)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from id3tree.base.diagnostics import ID_LIKE_FLAG
from id3tree.base.dispatch import dispatched
from id3tree.base.validation import as_series, check_table, is_numeric
from id3tree.information import (
    binned_table,
    check_bins,
    gain_ratio,
    information_gain,
    symmetric_uncertainty,
    table_measures,
)
from id3tree.ranking._common import check_target
from id3tree.ranking.jsd import screen_arrays
from id3tree.ranking.screening import looks_like_an_identifier

__all__ = ["JSD_BINS", "MI_BINS", "rank_features", "ranking_frame", "SCORERS"]


def _information_gain(x: Any, y: Any, bins: Any) -> Any:
    return information_gain(x, y)


def _gain_ratio(x: Any, y: Any, bins: Any) -> Any:
    return gain_ratio(x, y)


def _mi(x: Any, y: Any, bins: Any) -> Any:
    return table_measures(binned_table(x, y, bins))[0]


def _symmetric_uncertainty(x: Any, y: Any, bins: Any) -> Any:
    """2 MI(x, y) / (H(x) + H(y)): MI scaled to [0, 1] (0 when both are constant)."""
    return symmetric_uncertainty(binned_table(x, y, bins))


SCORERS = {
    "information_gain": _information_gain, "gain_ratio": _gain_ratio, "mutual_information": _mi,
    "symmetric_uncertainty": _symmetric_uncertainty,
}  # fmt: skip


MI_BINS = 10
"""Bins of a numeric feature for the mutual-information methods (as :func:`mutual_information`)."""
JSD_BINS = 25
"""Bins of a numeric feature for every Jensen-Shannon function and command (``jsd_screen``,
``JSDSelector``, ``rank_features(method="jsd")``, ``id3tree rank --method jsd``)."""


def rank_features(
    X: Any, y: Any, *, method: str = "information_gain", bins: Any = None
) -> pd.DataFrame:
    """Score every feature against the class and sort them, best first.

    Methods (all in bits):

    * ``"information_gain"``: H(y) minus the overall entropy after the split ID3 would make
      (:func:`id3tree.information_gain`: one branch per category, or the best midpoint of a
      numeric feature). For a categorical feature it equals the learner's gain at the root and
      :func:`id3tree.mutual_information`.
    * ``"gain_ratio"``: information gain over split information (C4.5).
    * ``"mutual_information"``: from the 2-D histogram, numeric features in ``bins`` bins.
    * ``"symmetric_uncertainty"``: ``2 MI / (H(x) + H(y))`` with x binned as for MI; in [0, 1].
    * ``"jsd"``: the highest one-vs-all Jensen-Shannon divergence over the classes, numeric
      features in ``bins`` bins (see :func:`jsd_screen`).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Class labels; missing labels are an error. The classes are categories even when they are
        numbers.
    method : str, default="information_gain"
    bins : int or str, optional
        Bins for numeric features; used by the histogram methods only (and checked for every
        method, as :func:`id3tree.information.check_bins` checks them). Default: 25 for
        ``"jsd"`` (as :func:`jsd_screen` and :class:`JSDSelector`), 10 for the mutual-information
        methods (as :func:`id3tree.mutual_information`).

    Returns
    -------
    DataFrame
        Indexed by feature, sorted by ``score`` (ties keep the column order: scores that depend
        only on a feature's table of counts are computed from its rows in one fixed order, so
        two features with the same table up to the order of its rows tie exactly), with ``flags``:
        ``"ID-like"`` for a column with (nearly) one row per value, whose high gain is spurious
        (the same flag as :func:`screen_features`), else ``""``.

    Examples
    --------
    >>> from id3tree.datasets import load_play_tennis
    >>> X, y = load_play_tennis(return_X_y=True)
    >>> rank_features(X, y).round(4)
                  score flags
    feature
    Outlook      0.2467
    Humidity     0.1518
    Wind         0.0481
    Temperature  0.0292
    """
    if method not in SCORERS and method != "jsd":
        raise ValueError(f"method must be one of {sorted([*SCORERS, 'jsd'])}, got {method!r}")
    if bins is None:
        bins = JSD_BINS if method == "jsd" else MI_BINS
    return _rank(X, y, method, check_bins(bins))


@dispatched
def _rank(X: Any, y: Any, method: str, bins: Any) -> pd.DataFrame:
    frame = check_table(X)
    codes, classes = check_target(y, frame.shape[0])
    if method == "jsd":
        scores = screen_arrays(frame, codes, bins, False, None)[0].max(axis=0)
    else:
        target = pd.Series(pd.Categorical.from_codes(codes, categories=range(len(classes))))
        scorer = SCORERS[method]
        scores = np.array([scorer(frame.iloc[:, f], target, bins) for f in range(frame.shape[1])])
    flags = [_id_like_flag(frame.iloc[:, f], str(frame.columns[f])) for f in range(frame.shape[1])]
    return ranking_frame(scores, frame.columns, flags)


def ranking_frame(scores: np.ndarray, columns: Any, flags: Any = None) -> pd.DataFrame:
    """Scores as the ranking: indexed by feature, best first, ties in column order; ``flags``
    (default: none) mark ID-like columns."""
    flags = [""] * len(scores) if flags is None else list(flags)
    ranked = pd.DataFrame(
        {"score": scores, "flags": flags}, index=pd.Index(columns, name="feature")
    )
    return ranked.iloc[np.argsort(-scores, kind="stable")]


def _id_like_flag(values: Any, name: str) -> str:
    column = as_series(values, name)
    counts = column.value_counts(dropna=True)
    numeric = is_numeric(column)
    return ID_LIKE_FLAG if looks_like_an_identifier(counts, numeric) else ""
