"""The lecture's four tests of independence, their association measures, and the G test.

Which test depends on the kinds of the feature x and the target y:

=====================  =========================  ============================
feature x \\ target y   categorical                interval
=====================  =========================  ============================
categorical            Pearson chi-square         ANOVA F
                       (Cramer's V)               (eta-squared)
interval               deviance G2 of logits      regression t
                       (McFadden's R2)            (squared Pearson r)
=====================  =========================  ============================

Every statistic is written out below from a contingency table or sums of squares; scipy supplies
only the tail probabilities (:mod:`id3tree.stats.result`). Rows missing x or y are dropped. A test
that has nothing to test (one category, a constant column) returns statistic 0 and p-value 1 with
a note saying why, and its association measure is 0.

Each test needs a few sufficient statistics of the data (the table of counts, the groups' sums of
squares, the co-moments of x and y); the functions that take them from the two columns are
:func:`~id3tree.base.dispatch.dispatched`, so the columns of a Dask DataFrame work too.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from id3tree.base.contingency import chi_square_from_table, crosstab_codes
from id3tree.base.dispatch import dispatched
from id3tree.base.entropy import entropy_rows
from id3tree.stats import logit
from id3tree.stats._columns import Pair, categories, complete_rows, interval
from id3tree.stats.result import HypothesisTestResult, chi2_tail, f_tail, t_two_sided

__all__ = [
    "anova_test", "chi_square_test", "cramers_v", "deviance_test", "eta_squared", "g_test",
    "mcfadden_r2", "Observed", "pearson_r2", "PerfectSeparationWarning", "regression_test",
]  # fmt: skip


class PerfectSeparationWarning(UserWarning):
    """The classes are separated along x: the logit's maximum-likelihood fit does not exist."""


# ---------------------------------------------------------------------------------------------
# Categorical x, categorical y: the contingency table
# ---------------------------------------------------------------------------------------------
def _observed_table(pair: Pair) -> pd.DataFrame:
    """Counts n_ij: rows are the categories of x, columns the classes of y (no empty ones)."""
    x_codes, x_labels = categories(pair.x, pair.x_name)
    y_codes, y_labels = categories(pair.y, pair.y_name)
    counts = crosstab_codes(x_codes, len(x_labels), y_codes, len(y_labels))
    return pd.DataFrame(
        counts,
        index=pd.Index(x_labels, dtype=object, name=pair.x_name),
        columns=pd.Index(y_labels, dtype=object, name=pair.y_name),
    )


@dataclass(frozen=True)
class Observed:
    """A table of observed counts, the rows it counts, and the names of its two columns."""

    table: pd.DataFrame
    n: int
    x_name: str
    y_name: str


def _table_note(observed: pd.DataFrame, pair: Pair | Observed) -> str:
    if observed.shape[0] < 2:
        return f"{pair.x_name!r} has a single category, so there is nothing to test"
    if observed.shape[1] < 2:
        return f"{pair.y_name!r} has a single class, so there is nothing to test"
    return ""


def chi_square_test(x: Any, y: Any) -> HypothesisTestResult:
    """Pearson's chi-square test of independence of a categorical x and a categorical y.

    1. the expected count of cell (i, j) under independence is ``E_ij = n_i+ n_+j / n_++``;
    2. ``chi2 = sum_ij (n_ij - E_ij)^2 / E_ij``, no continuity correction;
    3. p is the right tail of the chi-square distribution with ``df = (L - 1)(K - 1)``.

    The same function (:func:`id3tree.base.contingency.chi_square_from_table`) decides the learner's
    ``alpha=`` stopping rule. The result carries the ``observed`` and ``expected`` tables.

    >>> from id3tree.datasets import load_play_tennis
    >>> tennis = load_play_tennis()
    >>> print(chi_square_test(tennis["Outlook"], tennis["Play"]))
    Pearson chi-square: statistic 3.5467, df 2, p-value 0.1698, n 14, importance 0.77
    """
    return _chi_square(x, y)[0]


@dispatched
def _observed(x: Any, y: Any) -> Observed:
    """The observed counts of two categorical columns, on the rows where both are present."""
    pair = complete_rows(x, y)
    return Observed(_observed_table(pair), pair.n, pair.x_name, pair.y_name)


def _chi_square(x: Any, y: Any) -> tuple[HypothesisTestResult, float]:
    return _chi_square_of(_observed(x, y))


def _chi_square_of(found: Observed) -> tuple[HypothesisTestResult, float]:
    observed, pair = found.table, found
    test = chi_square_from_table(observed.to_numpy())
    p, log_p = chi2_tail(test.statistic, test.df)
    expected = pd.DataFrame(test.expected, index=observed.index, columns=observed.columns)
    result = HypothesisTestResult(
        "Pearson chi-square",
        test.statistic,
        test.df,
        p,
        pair.n,
        log_p,
        _table_note(observed, pair),
        observed,
        expected if test.df else None,
    )
    if not test.df:
        return result, 0.0
    rows, columns = observed.shape  # Cramer's V
    return result, float(math.sqrt(test.statistic / (pair.n * min(rows - 1, columns - 1))))


def g_test(x: Any, y: Any) -> HypothesisTestResult:
    """The likelihood-ratio (G) test of independence: ``G = 2 sum n_ij ln(n_ij / E_ij)``.

    It is the information gain in disguise: ``G = 2 N (H(Y) - H(Y|X))`` with entropies in nats,
    i.e. ``G = 2 N ln(2) IG`` with the gain IG of splitting on x in bits. It is also the deviance
    test with x as a categorical feature, and has the chi-square test's df.

    >>> from id3tree.datasets import load_play_tennis
    >>> tennis = load_play_tennis()
    >>> print(g_test(tennis["Outlook"], tennis["Play"]))
    G-test (likelihood ratio): statistic 4.7890, df 2, p-value 0.0912, n 14, importance 1.04
    """
    found = _observed(x, y)
    observed, pair = found.table, found
    counts = observed.to_numpy(dtype=float)
    n = counts.sum()
    h_y = float(entropy_rows(counts.sum(axis=0), math.e))
    h_y_given_x = float((counts.sum(axis=1) * entropy_rows(counts, math.e)).sum() / n)
    statistic = max(2.0 * n * (h_y - h_y_given_x), 0.0)
    df = (observed.shape[0] - 1) * (observed.shape[1] - 1)
    p, log_p = chi2_tail(statistic, df) if df else (1.0, 0.0)
    expected = np.outer(counts.sum(axis=1), counts.sum(axis=0)) / n
    return HypothesisTestResult(
        "G-test (likelihood ratio)",
        statistic if df else 0.0,
        df,
        p,
        pair.n,
        log_p,
        _table_note(observed, pair),
        observed,
        pd.DataFrame(expected, index=observed.index, columns=observed.columns) if df else None,
    )


def cramers_v(x: Any, y: Any) -> float:
    """Cramer's V: ``sqrt(chi2 / (N min(L - 1, K - 1)))``, in [0, 1]; 0 for a single category.

    >>> cramers_v(["a", "a", "b", "b"], ["u", "u", "v", "v"])
    1.0
    """
    return _chi_square(x, y)[1]


# ---------------------------------------------------------------------------------------------
# Categorical x, interval y: sums of squares between and within groups
# ---------------------------------------------------------------------------------------------
def _unit_scaled(values: np.ndarray) -> np.ndarray:
    """Values divided by the power of two nearest above their largest magnitude, so all lie in
    [-1, 1]. F, t, eta-squared and r-squared do not depend on the scale of x or y, and the
    division is exact; without it, sums of squares of values near 1e200 overflow to inf and
    those of values near 1e-200 underflow to 0."""
    largest = float(np.max(np.abs(values))) if len(values) else 0.0
    if largest == 0 or not math.isfinite(largest):
        return values
    return np.ldexp(values, -math.frexp(largest)[1])


# ---------------------------------------------------------------------------------------------
def _anova(x: Any, y: Any) -> tuple[HypothesisTestResult, float]:
    return _anova_of(*_group_sums(x, y))


@dispatched
def _group_sums(x: Any, y: Any) -> tuple[Any, ...]:
    """``(n_i, mean_i, mean, SST, SSW, x_name, y_name)`` of an interval y in the groups of x."""
    pair = complete_rows(x, y)
    groups, labels = categories(pair.x, pair.x_name)
    values = _unit_scaled(interval(pair.y, pair.y_name, "anova_test", "chi_square_test"))
    n_i = np.bincount(groups, minlength=len(labels)).astype(float)
    mean_i = np.bincount(groups, weights=values, minlength=len(labels)) / n_i
    mean = values.mean()
    sst = float(((values - mean) ** 2).sum())  # total
    ssw = float(((values - mean_i[groups]) ** 2).sum())  # within groups
    return n_i, mean_i, mean, sst, ssw, pair.x_name, pair.y_name


def _anova_of(
    n_i: Any, mean_i: Any, mean: Any, sst: Any, ssw: Any, x_name: Any, y_name: Any
) -> tuple[HypothesisTestResult, float]:
    """The F test from the group sizes and means and the total and within sums of squares."""
    ssg = float((n_i * (mean_i - mean) ** 2).sum())  # between groups, = SST - SSW
    n, n_groups = int(n_i.sum()), len(n_i)
    dfg, dfw = n_groups - 1, n - n_groups
    note = ""
    if n_groups < 2:
        note = f"{x_name!r} has a single category, so there is nothing to test"
    elif dfw == 0:
        note = "every category has a single row, so there is no within-group variation"
    elif sst == 0:
        note = f"{y_name!r} is constant, so there is nothing to test"
    if note:
        statistic, (p, log_p) = 0.0, (1.0, 0.0)
    else:
        statistic = (ssg / dfg) / (ssw / dfw) if ssw > 0 else math.inf
        p, log_p = f_tail(statistic, dfg, dfw)
    result = HypothesisTestResult("ANOVA F", statistic, (dfg, dfw), p, n, log_p, note)
    return result, (ssg / sst if sst > 0 and not note else 0.0)


def anova_test(x: Any, y: Any) -> HypothesisTestResult:
    """One-way analysis of variance of an interval y across the categories of x.

    With group means ``ybar_i`` and overall mean ``ybar``: ``SSW = sum_ij (y_ij - ybar_i)^2``,
    ``SSG = sum_i n_i (ybar_i - ybar)^2 = SST - SSW``, and
    ``F = (SSG / (L - 1)) / (SSW / (N - L))``, with the right tail of F(L - 1, N - L).

    >>> print(anova_test(["a", "a", "b", "b", "c", "c"], [1.0, 2.0, 2.0, 3.0, 5.0, 6.0]))
    ANOVA F: statistic 17.3333, df (2, 3), p-value 0.0225, n 6, importance 1.65
    """
    return _anova(x, y)[0]


def eta_squared(x: Any, y: Any) -> float:
    """Eta-squared ``SSG / SST``: the share of y's variation explained by x's categories.

    >>> eta_squared(["a", "a", "b", "b"], [1.0, 1.0, 3.0, 3.0])
    1.0
    """
    return _anova(x, y)[1]


# ---------------------------------------------------------------------------------------------
# Interval x, interval y: the least-squares line
# ---------------------------------------------------------------------------------------------
def _regression(x: Any, y: Any) -> tuple[HypothesisTestResult, float]:
    return _regression_of(*_co_moments(x, y))


@dispatched
def _co_moments(x: Any, y: Any) -> tuple[Any, ...]:
    """``(n, Sxx, Syy, Sxy, rss, x_name, y_name)`` of two interval columns, with ``rss(slope)``
    the residual sum of squares of the line of that slope through the means."""
    pair = complete_rows(x, y)
    xv = _unit_scaled(interval(pair.x, pair.x_name, "regression_test", "anova_test"))
    yv = _unit_scaled(interval(pair.y, pair.y_name, "regression_test", "deviance_test"))
    n = len(xv)
    dx, dy = xv - xv.mean(), yv - yv.mean()
    sxx, syy, sxy = float(dx @ dx), float(dy @ dy), float(dx @ dy)

    def rss(slope: Any) -> Any:  # residual sum of squares
        return float(((dy - slope * dx) ** 2).sum())

    return n, sxx, syy, sxy, rss, pair.x_name, pair.y_name


def _regression_of(
    n: Any, sxx: Any, syy: Any, sxy: Any, rss: Any, x_name: Any, y_name: Any
) -> tuple[HypothesisTestResult, float]:
    """The t test of the slope from the sums of squares and products about the means."""
    df = n - 2
    note = ""
    if df < 1:
        note = f"{n} rows are too few to test a slope (at least 3 are needed)"
    elif sxx == 0:
        note = f"{x_name!r} is constant, so it has no slope to test"
    elif syy == 0:
        note = f"{y_name!r} is constant, so there is nothing to test"
    if note:
        return HypothesisTestResult("Regression t", 0.0, max(df, 0), 1.0, n, 0.0, note), 0.0
    slope = sxy / sxx
    standard_error = math.sqrt(rss(slope) / df / sxx)
    statistic = slope / standard_error if standard_error > 0 else math.copysign(math.inf, slope)
    p, log_p = t_two_sided(statistic, df)
    result = HypothesisTestResult("Regression t", statistic, df, p, n, log_p)
    return result, min(sxy * sxy / (sxx * syy), 1.0)


def regression_test(x: Any, y: Any) -> HypothesisTestResult:
    """The t test of the slope of the least-squares line ``y = a + b x``.

    ``b = Sxy / Sxx``, ``RSS = sum (y_i - a - b x_i)^2``, ``se(b) = sqrt(RSS / (n - 2) / Sxx)``,
    ``t = b / se(b)``, and p is both tails of Student's t with ``n - 2`` degrees of freedom.

    >>> print(regression_test([1, 2, 3, 4, 5], [2.0, 4.1, 5.9, 8.2, 9.9]))
    Regression t: statistic 42.1091, df 3, p-value 2.9475e-05, n 5, importance 4.53
    """
    return _regression(x, y)[0]


def pearson_r2(x: Any, y: Any) -> float:
    """The squared Pearson correlation ``Sxy^2 / (Sxx Syy)``; 0 when x or y is constant.

    >>> pearson_r2([1, 2, 3], [2.0, 4.0, 6.0])
    1.0
    """
    return _regression(x, y)[1]


# ---------------------------------------------------------------------------------------------
# Interval x, categorical y: multinomial logits with and without x
# ---------------------------------------------------------------------------------------------
@dispatched
def _deviance(x: Any, y: Any) -> tuple[HypothesisTestResult, float]:
    pair = complete_rows(x, y)
    xv = interval(pair.x, pair.x_name, "deviance_test", "chi_square_test")
    classes, labels = categories(pair.y, pair.y_name)
    n, k = len(xv), len(labels)
    method = "Deviance (multinomial logit)"
    note = ""
    if k < 2:
        note = f"{pair.y_name!r} has a single class, so there is nothing to test"
    elif xv.min() == xv.max():
        note = f"{pair.x_name!r} is constant, so the model with it is the model without it"
    if note:
        return HypothesisTestResult(method, 0.0, k - 1 if k > 1 else 0, 1.0, n, 0.0, note), 0.0
    fit = logit.fit_multinomial_logit(xv, classes, k)
    if fit.separated:
        note = (
            f"the classes of {pair.y_name!r} are separated along {pair.x_name!r}: the logit has "
            f"no maximum; G2 is taken after {fit.iterations} Newton steps, close to its supremum"
        )
        warnings.warn(note, PerfectSeparationWarning, stacklevel=4)
    elif not fit.converged:
        note = f"the logit did not converge in {fit.iterations} Newton steps"
        warnings.warn(note, RuntimeWarning, stacklevel=4)
    statistic = max(2.0 * (fit.l1 - fit.l0), 0.0)
    p, log_p = chi2_tail(statistic, k - 1)
    result = HypothesisTestResult(method, statistic, k - 1, p, n, log_p, note)
    return result, min(max(1.0 - fit.l1 / fit.l0, 0.0), 1.0)


def deviance_test(x: Any, y: Any) -> HypothesisTestResult:
    """The deviance (likelihood-ratio) test of an interval x for a categorical y.

    Fit the multinomial logit of y with only intercepts (log-likelihood ``l0 = -N H(Y)``, in nats)
    and with intercepts and x (``l1``, see :mod:`id3tree.stats.logit`); then
    ``G2 = 2 (l1 - l0)`` with the right tail of the chi-square with ``K - 1`` degrees of freedom.
    Separated classes raise a :class:`PerfectSeparationWarning` and a note, and never hang.

    >>> from id3tree.datasets import load_iris
    >>> iris = load_iris()
    >>> print(deviance_test(iris["sepal_width"], iris["species"]))
    Deviance (multinomial logit): statistic 77.0467, df 2, p-value 1.8600e-17, n 150, importance 16.73
    """
    return _deviance(x, y)[0]


def mcfadden_r2(x: Any, y: Any) -> float:
    """McFadden's pseudo R-squared ``1 - l1 / l0`` of the logit in :func:`deviance_test`.

    >>> round(mcfadden_r2([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], [0, 0, 1, 0, 1, 1]), 4)
    0.4042
    """
    return _deviance(x, y)[1]
