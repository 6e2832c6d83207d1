"""``rank_features``: one entropy-based score per feature, best first (seed 002)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from id3tree._dask import any_dask
from id3tree._entropy import entropy_rows
from id3tree._validation import as_series, check_table, is_numeric
from id3tree.diagnostics import ID_LIKE_FLAG
from id3tree.information import gain_ratio, information_gain
from id3tree.information import mutual_information as _mutual_information
from id3tree.ranking._common import binned_codes, check_target
from id3tree.ranking.jsd import screen_arrays
from id3tree.ranking.screening import looks_like_an_identifier


def _information_gain(x, y, bins):
    return information_gain(x, y)


def _gain_ratio(x, y, bins):
    return gain_ratio(x, y)


def _mi(x, y, bins):
    return _mutual_information(x, y, bins=bins)


def _symmetric_uncertainty(x, y, bins):
    """2 MI(x, y) / (H(x) + H(y)): MI scaled to [0, 1] (0 when both are constant)."""
    mi = _mutual_information(x, y, bins=bins)
    total = _binned_entropy(x, bins) + _binned_entropy(y, None)
    return min(2 * mi / total, 1.0) if total > 0 else 0.0


def _binned_entropy(values, bins) -> float:
    codes, n_codes = binned_codes(values, "x", bins)
    return float(entropy_rows(np.bincount(codes, minlength=n_codes)))


SCORERS = {
    "information_gain": _information_gain,
    "gain_ratio": _gain_ratio,
    "mutual_information": _mi,
    "symmetric_uncertainty": _symmetric_uncertainty,
}


def rank_features(X, y, *, method: str = "information_gain", bins=10) -> pd.DataFrame:
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
    bins : int or str, default=10
        Bins for numeric features; used by the histogram methods only.

    Returns
    -------
    DataFrame
        Indexed by feature, sorted by ``score`` (ties keep the column order), with ``flags``:
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
    if any_dask(X, y):  # a Dask DataFrame: every feature's table counted in one pass
        from id3tree._dask import ranking as on_dask

        return on_dask.rank_features(X, y, method=method, bins=bins)
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


def ranking_frame(scores: np.ndarray, columns, flags=None) -> pd.DataFrame:
    """Scores as the ranking: indexed by feature, best first, ties in column order; ``flags``
    (default: none) mark ID-like columns."""
    flags = [""] * len(scores) if flags is None else list(flags)
    ranked = pd.DataFrame(
        {"score": scores, "flags": flags}, index=pd.Index(columns, name="feature")
    )
    return ranked.iloc[np.argsort(-scores, kind="stable")]


def _id_like_flag(values, name: str) -> str:
    column = as_series(values, name)
    counts = column.value_counts(dropna=True)
    numeric = is_numeric(column)
    return ID_LIKE_FLAG if looks_like_an_identifier(counts, numeric) else ""
