"""``JSDSelector``: keep the features along which some class sticks out from the rest (seed 001)."""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np
import pandas as pd

from id3tree.base.selector import FrameSelector
from id3tree.ranking.jsd import screen_arrays

__all__ = ["JSDSelector"]


class JSDSelector(FrameSelector):
    """Select features by their one-vs-all Jensen-Shannon divergence (see :func:`jsd_screen`).

    Supervised: fit it on training data only, e.g. as a step of a ``Pipeline`` inside
    cross-validation. ``top_k`` (or ``threshold``) is the natural hyperparameter to tune;
    ``bins`` is better chosen once.

    Parameters
    ----------
    top_k : int, default=1
        With ``per_class=True``, the ``top_k`` features of highest JSD for *each* class (their
        union); otherwise the ``top_k`` features of highest score (all of them if there are
        fewer). Ties go to the feature that comes first.
    per_class : bool, default=True
        See ``top_k``.
    threshold : float, optional
        If given, ``top_k`` and ``per_class`` are ignored and every feature whose score (its
        highest JSD over the classes) is at least ``threshold`` is kept.
    bins : int or str, default=25
        Bins for numeric features.
    trim_outliers : float, optional
        As in :func:`jsd_screen`.

    Attributes
    ----------
    scores_ : ndarray of shape (n_features,)
        Each feature's highest one-vs-all JSD over the classes (bits).
    jsd_ : DataFrame of shape (n_classes, n_features)
        The screen itself: one row per class.
    classes_ : ndarray of shape (n_classes,)
    n_features_in_ : int
    feature_names_in_ : ndarray of shape (``n_features_in_``,)
        Only when X was a DataFrame with string column names.

    Examples
    --------
    >>> X = pd.DataFrame({"size": [1.0, 1.1, 1.2, 5.0, 5.1, 5.2], "colour": list("rgbrgb")})
    >>> JSDSelector(bins=2).fit(X, list("aaabbb")).get_feature_names_out().tolist()
    ['size']
    """

    def __init__(
        self,
        top_k: Any = 1,
        per_class: bool = True,
        threshold: Any = None,
        bins: Any = 25,
        trim_outliers: Any = None,
    ) -> None:
        self.top_k = top_k
        self.per_class = per_class
        self.threshold = threshold
        self.bins = bins
        self.trim_outliers = trim_outliers

    def fit(self, X: Any, y: Any) -> Any:
        """Compute the screen and choose the features.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)

        Returns
        -------
        self
        """
        self._check_params()
        frame = self._fit_table(X, y)
        scores, labels, classes = screen_arrays(frame, y, self.bins, False, self.trim_outliers)
        self.jsd_ = pd.DataFrame(
            scores,
            index=pd.Index(labels, name="class"),
            columns=pd.Index(frame.columns, name="feature"),
        )
        self.classes_ = np.asarray(classes)
        self.scores_ = scores.max(axis=0)
        self.support_ = self._choose(scores)
        return self

    def _choose(self, scores: np.ndarray) -> np.ndarray:
        n_features = scores.shape[1]
        if self.threshold is not None:
            return scores.max(axis=0) >= self.threshold
        keep = np.zeros(n_features, dtype=bool)
        k = min(self.top_k, n_features)
        rows = scores if self.per_class else scores.max(axis=0, keepdims=True)
        for row in rows:
            keep[np.argsort(-row, kind="stable")[:k]] = True  # stable: ties to the first column
        return keep

    def _check_params(self) -> None:
        k = self.top_k
        if isinstance(k, bool) or not isinstance(k, numbers.Integral) or k < 1:
            raise ValueError(f"top_k must be an integer >= 1, got {k!r}")
        t = self.threshold
        if t is not None and (isinstance(t, bool) or not isinstance(t, numbers.Real)):
            raise ValueError(f"threshold must be a number or None, got {t!r}")
