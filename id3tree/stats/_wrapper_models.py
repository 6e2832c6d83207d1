"""The models behind the wrapper search: one design matrix for all of them, each fitted once.

A categorical feature becomes the indicator columns of its categories but the last (the
reference); an interval feature one standardised column (the likelihood does not change, the
intercept absorbs the shift). The cross products of the design are computed once; each model
sweeps its own block of them to find aliased columns (:mod:`id3tree.stats.sweep`), then is fitted
by least squares (the same sweep) or as a multinomial logit (:mod:`id3tree.stats.logit`),
warm-started from the model it extends.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from id3tree.base.validation import as_series, factorize, numeric_values, to_frame
from id3tree.stats import logit
from id3tree.stats.classical import _unit_scaled
from id3tree.stats.result import chi2_tail, f_tail
from id3tree.stats.selection import _feature_kinds, _target_kind
from id3tree.stats.sweep import sweep_operator

MAX_CLASSES = 50
"""A categorical target with more classes than this is refused (it is probably an amount)."""
INTERCEPT = "Intercept"


# ---------------------------------------------------------------------------------------------
# The data: one design matrix for every model
# ---------------------------------------------------------------------------------------------
@dataclass
class Design:
    """All the columns any model may use, built once; a model is a set of feature blocks."""

    names: list[str]
    blocks: list[list[int]]  # design columns of each feature (column 0 is the intercept)
    labels: list[str]  # design column labels
    matrix: np.ndarray  # (n, P) working columns: intercept, indicators, standardised intervals
    cross: np.ndarray  # (P + 1, P + 1) cross products of [matrix, y] (y centred, for OLS)
    y: np.ndarray  # class codes (logit) or values (least squares)
    n_classes: int  # 0 for an interval target
    n_dropped: int
    y_exponent: int = 0  # an interval target's values are y * 2**-y_exponent (see _y_scaled)


def build_design(
    X: Any, y: Any, categorical: Any, target_kind: Any, missing: Any
) -> tuple[Design, str, str]:
    frame = to_frame(X, "X")
    names = [str(c) for c in frame.columns]
    if len(set(names)) != len(names):
        raise ValueError(
            f"X has duplicate column names: {sorted({n for n in names if names.count(n) > 1})}"
        )
    if frame.shape[1] == 0:
        raise ValueError("X has no columns: a wrapper search needs at least one feature")
    target = as_series(y, "y")
    target_name = "y" if target.name is None else str(target.name)
    if len(target) != len(frame):
        raise ValueError(f"X has {len(frame)} rows but y has {len(target)}")
    if missing not in ("drop", "category"):
        raise ValueError(f"missing must be 'drop' or 'category', got {missing!r}")
    if target.notna().sum() == 0:
        raise ValueError(f"the target {target_name!r} has no values present")
    kind = _target_kind(target, target_kind)
    kinds = _feature_kinds(frame, names, categorical)

    # the rows every model uses
    present = target.notna().to_numpy().copy()
    for f, feature_kind in enumerate(kinds):
        if feature_kind == "interval" or missing == "drop":
            present &= frame.iloc[:, f].notna().to_numpy()
    if not present.any():
        raise ValueError(
            "no row has the target and every feature present; drop the mostly-missing "
            "columns first or use missing='category' for categorical ones"
        )
    keep = np.flatnonzero(present)
    rows = frame.iloc[keep].reset_index(drop=True)
    n = len(keep)

    # the target
    if kind == "categorical":
        codes, classes = factorize(target.iloc[keep].reset_index(drop=True), target_name)
        if len(classes) < 2:
            raise ValueError(
                f"the target {target_name!r} has only one class ({classes[0]!r}) in the rows "
                "used, so there is nothing to predict"
            )
        if len(classes) > MAX_CLASSES:
            raise ValueError(
                f"the target {target_name!r} has {len(classes)} classes, too many for a "
                "multinomial logit; if its values are amounts, pass target_kind='interval'"
            )
        y_values, n_classes, y_exponent = codes, len(classes), 0
    else:
        y_values, y_exponent = _y_scaled(numeric_values(target.iloc[keep], target_name))
        n_classes = 0

    # the design: intercept, then each feature's columns
    columns, labels, blocks = [np.ones(n)], [INTERCEPT], []
    for f, (name, feature_kind) in enumerate(zip(names, kinds)):
        column = rows.iloc[:, f]
        if feature_kind == "categorical":
            codes, levels = factorize(column, name)
            levels = levels + (["<missing>"] if (codes == len(levels)).any() else [])
            block = []
            for code, level in enumerate(levels[:-1]):  # the last level is the reference
                columns.append((codes == code).astype(float))
                labels.append(f"{name}={level}")
                block.append(len(labels) - 1)
        else:
            values = _unit_scaled(numeric_values(column, name))  # exact: no overflow in std
            spread = values.std()
            columns.append((values - values.mean()) / (spread if spread > 0 else 1.0))
            labels.append(name)
            block = [len(labels) - 1]
        blocks.append(block)
    matrix = np.column_stack(columns)
    response = (y_values - y_values.mean()) if n_classes == 0 else np.zeros(n)
    augmented = np.column_stack([matrix, response])
    design = Design(
        names,
        blocks,
        labels,
        matrix,
        augmented.T @ augmented,
        y_values,
        n_classes,
        int(len(frame) - n),
        y_exponent,
    )
    model = "multinomial logit" if n_classes else "least squares"
    return design, model, target_name


Y_RANGE = 100
"""An interval target whose largest magnitude lies beyond 2**Y_RANGE or below 2**-Y_RANGE is
divided by a power of two first (:func:`_y_scaled`): its squares would overflow or underflow."""


def _y_scaled(values: np.ndarray) -> tuple[np.ndarray, int]:
    """An interval target divided by a power of two ``2**e`` when its scale is extreme (values
    near 1e200 or 1e-200), and ``e``; ordinary values, and ``e = 0``, otherwise. The division is
    exact, and the log-likelihood adds back ``n ln(2**e)``: the same fits, the same numbers."""
    largest = float(np.max(np.abs(values))) if len(values) else 0.0
    if largest == 0 or 2.0**-Y_RANGE <= largest <= 2.0**Y_RANGE:
        return values, 0
    exponent = math.frexp(largest)[1]
    return np.ldexp(values, -exponent), exponent


# ---------------------------------------------------------------------------------------------
# Fitting one model
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Fit:
    features: tuple[int, ...]  # feature positions, in the model's order
    kept: tuple[int, ...]  # design columns fitted (aliased ones left out)
    aliased: tuple[int, ...]
    log_likelihood: float
    n_parameters: int
    rss: float  # residual sum of squares (least squares), else nan
    note: str


class Models:
    """Fits models on the shared design, each set of columns once, logits warm-started."""

    def __init__(self, design: Design, tolerance: float) -> None:
        self.design = design
        self.tolerance = tolerance
        self.n = design.matrix.shape[0]
        self._by_columns: dict[frozenset[Any], tuple[Any, ...]] = {}
        self.on_fit: Callable[[], None] = lambda: (
            None
        )  # called once per model asked for (a progress bar's update)

    def fit(self, features: tuple[int, ...], start_from: Fit | None = None) -> Fit:
        self.on_fit()
        d = self.design
        columns = [0] + [c for f in features for c in d.blocks[f]]
        # SWEEP the model's cross products in the model's order: later columns that the earlier
        # ones already span are aliased
        swept = sweep_operator(d.cross[np.ix_(columns, columns)], tolerance=self.tolerance)
        kept = tuple(columns[i] for i in swept.kept)
        aliased = tuple(columns[i] for i in swept.aliased)
        key = frozenset(kept)
        if key not in self._by_columns:
            self._by_columns[key] = self._fit_columns(kept, start_from)
        log_likelihood, n_parameters, rss, coefficients, note = self._by_columns[key]
        return Fit(tuple(features), kept, aliased, log_likelihood, n_parameters, rss, note)

    def coefficients(self, fit: Fit) -> Any:
        return self._by_columns[frozenset(fit.kept)][3]

    def _fit_columns(self, kept: tuple[int, ...], start_from: Fit | None) -> Any:
        d, n = self.design, self.n
        if d.n_classes == 0:  # least squares: sweep [Z y]'[Z y] on Z's columns
            index = list(kept) + [d.cross.shape[0] - 1]
            swept = sweep_operator(d.cross[np.ix_(index, index)], range(len(kept)), tolerance=0)
            rss = max(float(swept.matrix[-1, -1]), 0.0)
            note = "" if rss > 0 else "a perfect fit: the residual sum of squares is 0"
            # (the residuals of y itself are those of the scaled y times 2**y_exponent)
            log_rss = math.log(2 * math.pi * rss / n) + 2 * d.y_exponent * math.log(2)
            log_likelihood = -0.5 * n * (log_rss + 1.0) if rss > 0 else math.inf
            return log_likelihood, len(kept), rss, swept.matrix[: len(kept), -1], note
        start = None
        if start_from is not None:
            previous = dict(zip(start_from.kept, self.coefficients(start_from)))
            start = np.array([previous.get(c, np.zeros(d.n_classes - 1)) for c in kept])
        fitted = logit.fit_design_logit(d.matrix[:, kept], d.y, d.n_classes, start)
        note = ""
        if fitted.n_saturated:
            note = (
                f"{fitted.n_saturated} row(s) fitted with probability 1: the classes are "
                "separated, the maximum likelihood lies at infinity (log-likelihood shown is "
                "its supremum)"
            )
        elif not fitted.converged:
            note = f"Newton-Raphson did not converge in {fitted.iterations} steps"
        n_parameters = (d.n_classes - 1) * len(kept)
        return fitted.log_likelihood, n_parameters, math.nan, fitted.coefficients, note


# ---------------------------------------------------------------------------------------------
# Scoring and comparing models
# ---------------------------------------------------------------------------------------------
def information_criteria(fit: Fit, n: int) -> tuple[float, float]:
    """(AIC, BIC)."""
    deviance = -2.0 * fit.log_likelihood
    return deviance + 2.0 * fit.n_parameters, deviance + fit.n_parameters * math.log(n)


def compare_nested(small: Fit, large: Fit, n: int, least_squares: bool) -> tuple[float, int, float]:
    """The test of the larger model against the nested smaller one: (statistic, df, p-value).

    Logit: the likelihood-ratio statistic ``G2 = 2 (l_large - l_small)`` on chi-square with the
    difference in parameters. Least squares: ``F = ((RSS_s - RSS_l) / df) / (RSS_l / (n - k_l))``.
    """
    df = large.n_parameters - small.n_parameters
    if df <= 0:
        return math.nan, df, math.nan
    if least_squares:
        residual_df = n - large.n_parameters
        if residual_df <= 0 or large.rss <= 0:
            return math.nan, df, math.nan
        statistic = max(small.rss - large.rss, 0.0) / df / (large.rss / residual_df)
        return statistic, df, f_tail(statistic, df, residual_df)[0]
    statistic = max(2.0 * (large.log_likelihood - small.log_likelihood), 0.0)
    return statistic, df, chi2_tail(statistic, df)[0]
