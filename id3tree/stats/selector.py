"""The wrapper search as a scikit-learn feature selector, for use in a Pipeline."""

from __future__ import annotations

from typing import Any

import numpy as np

from id3tree.base.selector import FrameSelector
from id3tree.base.validation import check_labels
from id3tree.stats.sweep import TOLERANCE
from id3tree.stats.wrapper import select_features

__all__ = ["WrapperSelector"]


class WrapperSelector(FrameSelector):
    """Keep the features a wrapper search chooses (see :func:`select_features`).

    Supervised: fit it on training data only, e.g. as a step of a ``Pipeline`` inside
    cross-validation, so the search never sees the rows it is judged on.

    Parameters
    ----------
    direction : {"forward", "backward", "both", "exhaustive", "random"}, default="forward"
    criterion : {"aic", "bic", "pvalue"}, default="aic"
    categorical : "auto" or list of str or int, default="auto"
    target_kind : {"auto", "categorical", "interval"}, default="auto"
    alpha_enter : float, default=0.05
    alpha_remove : float, optional
    max_features : int, optional
    n_iter : int, default=100
    random_state : int, optional
    missing : {"drop", "category"}, default="drop"
    tolerance : float, default=1e-8
        All as in :func:`select_features`.

    Attributes
    ----------
    result_ : SelectionResult
        The search: its ``path``, ``candidates`` and ``selected``.
    support_ : ndarray of bool of shape (n_features,)
    n_features_in_ : int
    feature_names_in_ : ndarray of shape (n_features,)
        Only when X was a DataFrame with string column names.

    Examples
    --------
    >>> import pandas as pd
    >>> rng = np.random.default_rng(0)
    >>> X = pd.DataFrame(rng.normal(size=(300, 3)), columns=["a", "b", "noise"])
    >>> y = (X["a"] - X["b"] + rng.logistic(size=300) > 0).astype(int)
    >>> WrapperSelector(criterion="bic").fit(X, y).get_feature_names_out().tolist()
    ['a', 'b']
    """

    def __init__(
        self, direction: str = "forward", criterion: str = "aic", categorical: Any = "auto",
        target_kind: str = "auto", alpha_enter: float = 0.05, alpha_remove: float | None = None,
        max_features: int | None = None, n_iter: int = 100, random_state: Any = None,
        missing: str = "drop", tolerance: float = TOLERANCE,
    ) -> None:  # fmt: skip
        self.direction = direction
        self.criterion = criterion
        self.categorical = categorical
        self.target_kind = target_kind
        self.alpha_enter = alpha_enter
        self.alpha_remove = alpha_remove
        self.max_features = max_features
        self.n_iter = n_iter
        self.random_state = random_state
        self.missing = missing
        self.tolerance = tolerance

    def fit(self, X: Any, y: Any) -> Any:
        """Run the search on X and y.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)

        Returns
        -------
        self
        """
        frame = self._fit_table(X, y)
        target = check_labels(y, frame.shape[0])
        self.result_ = select_features(
            frame, target, direction=self.direction, criterion=self.criterion,
            categorical=self.categorical, target_kind=self.target_kind,
            alpha_enter=self.alpha_enter, alpha_remove=self.alpha_remove,
            max_features=self.max_features, n_iter=self.n_iter, random_state=self.random_state,
            missing=self.missing, tolerance=self.tolerance,
        )  # fmt: skip
        chosen = set(self.result_.selected)
        self.support_ = np.array([str(c) in chosen for c in frame.columns], dtype=bool)
        return self
