"""What every classical test returns, and the tail probabilities behind its p-value.

The statistics are computed by id3tree (see :mod:`id3tree.stats.classical`); scipy supplies only
the tail probabilities P(T >= t) of the chi-square, F and t distributions. Each tail is also kept
as a natural logarithm, so ``importance = -log10 p`` stays finite and right long after p itself
underflows to 0 (p < 1e-308): a chi-square of 5000 on 3 df has p = 1e-1084, importance 1084.
"""

from __future__ import annotations

import html
import math
import warnings
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as _scipy_stats

__all__ = ["chi2_tail", "f_tail", "format_pvalue", "HypothesisTestResult", "LN10", "t_two_sided"]

LN10 = math.log(10)


# ---------------------------------------------------------------------------------------------
# Tail probabilities, as (p, ln p)
# ---------------------------------------------------------------------------------------------
def chi2_tail(statistic: float, df: int) -> tuple[float, float]:
    """Right tail of the chi-square distribution with ``df`` degrees of freedom."""
    return _tail(_scipy_stats.chi2, statistic, df=df)


def f_tail(statistic: float, dfn: int, dfd: int) -> tuple[float, float]:
    """Right tail of the F distribution with ``(dfn, dfd)`` degrees of freedom."""
    return _tail(_scipy_stats.f, statistic, dfn=dfn, dfd=dfd)


def t_two_sided(statistic: float, df: int) -> tuple[float, float]:
    """Both tails of Student's t: ``P(|T| >= |t|) = 2 P(T >= |t|)``."""
    p, log_p = _tail(_scipy_stats.t, abs(statistic), df=df)
    return min(2.0 * p, 1.0), min(math.log(2.0) + log_p, 0.0)


def _tail(distribution: Any, statistic: float, **params: Any) -> tuple[float, float]:
    """``(sf, logsf)`` of a scipy distribution; where scipy's logsf underflows to -inf, the
    log-space integration of scipy's newer distribution objects takes over."""
    if statistic <= 0:
        return 1.0, 0.0
    args = tuple(params.values())
    p = float(distribution.sf(statistic, *args))
    log_p = float(distribution.logsf(statistic, *args))
    if log_p == -math.inf and math.isfinite(statistic):
        log_p = _log_tail_in_log_space(distribution.name, statistic, params)
    return p, log_p


def _log_tail_in_log_space(name: str, statistic: float, params: dict[Any, Any]) -> float:
    if not hasattr(_scipy_stats, "make_distribution"):  # scipy < 1.15
        return -math.inf
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)  # scipy tries log(0) before switching
        value = float(_log_space_family(name)(**params).logccdf(statistic))
    return value if math.isfinite(value) else -math.inf  # out of reach even in log space


@cache
def _log_space_family(name: str) -> Any:
    return _scipy_stats.make_distribution(getattr(_scipy_stats, name))


# ---------------------------------------------------------------------------------------------
# The result
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class HypothesisTestResult:
    """The outcome of one classical test: print it for one line, show it in Jupyter for a table.

    Attributes
    ----------
    method : str
        The test's name, e.g. ``"Pearson chi-square"``.
    statistic : float
        The test statistic (chi-square, F, t or deviance G2).
    df : int or tuple of int
        Degrees of freedom; ``(numerator, denominator)`` for the F test.
    pvalue : float
        The significance: the probability, under independence, of a statistic at least this far
        out. It underflows to 0.0 below about 1e-308; ``log_pvalue`` does not.
    n : int
        Rows used (rows missing the feature or the target are dropped).
    log_pvalue : float
        ``ln(pvalue)``, computed in log space.
    note : str
        Why the test could not say more (a single category, a constant column, separation), or "".
    observed, expected : pandas.DataFrame or None
        The contingency table and its expected counts under independence (chi-square and G only).
    """

    method: str
    statistic: float
    df: int | tuple[int, int]
    pvalue: float
    n: int
    log_pvalue: float
    note: str = ""
    observed: pd.DataFrame | None = field(default=None, compare=False, repr=False)
    expected: pd.DataFrame | None = field(default=None, compare=False, repr=False)

    @property
    def importance(self) -> float:
        """``-log10(p)``: 0 when p = 1, infinite only when even ``ln p`` is ``-inf``."""
        return 0.0 - self.log_pvalue / LN10

    def __str__(self) -> str:
        text = (
            f"{self.method}: statistic {self.statistic:.4f}, df {_format_df(self.df)}, "
            f"p-value {format_pvalue(self.log_pvalue)}, n {self.n}, "
            f"importance {self.importance:.2f}"
        )
        return f"{text} ({self.note})" if self.note else text

    def _repr_html_(self) -> str:
        cells = {
            "statistic": f"{self.statistic:.4f}",
            "df": _format_df(self.df),
            "p-value": format_pvalue(self.log_pvalue),
            "n": str(self.n),
            "importance": f"{self.importance:.2f}",
        }
        head = "".join(f"<th>{name}</th>" for name in cells)
        row = "".join(f"<td>{html.escape(value)}</td>" for value in cells.values())
        note = f"<p><em>{html.escape(self.note)}</em></p>" if self.note else ""
        return (
            f"<table><caption>{html.escape(self.method)}</caption>"
            f"<thead><tr>{head}</tr></thead><tbody><tr>{row}</tr></tbody></table>{note}"
        )


def format_pvalue(log_p: float) -> str:
    """A p-value from its logarithm: 4 decimals down to 0.001, then 5 significant digits.

    >>> format_pvalue(math.log(0.71712)), format_pvalue(math.log(1.18249e-4))
    ('0.7171', '1.1825e-04')
    >>> format_pvalue(math.log(6.8868e-60))
    '6.8868e-60'
    >>> format_pvalue(-2500 * LN10)   # far below the smallest double
    '1.0000e-2500'
    """
    if log_p == -math.inf:
        return "0"
    log10_p = log_p / LN10
    if log10_p >= -3:
        return f"{math.exp(log_p):.4f}"
    exponent = math.floor(log10_p)
    mantissa = round(10 ** (log10_p - exponent), 4)
    if mantissa >= 10:  # 9.99996 rounds up to the next power of ten
        mantissa, exponent = mantissa / 10, exponent + 1
    return f"{mantissa:.4f}e{exponent:+03d}"


def _format_df(df: Any) -> str:
    return f"({df[0]}, {df[1]})" if isinstance(df, tuple) else str(df)
