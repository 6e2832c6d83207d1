"""Screen every feature of a table against a target with the test that fits their kinds."""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np
import pandas as pd

from id3tree.base.validation import (
    as_series,
    check_table,
    is_numeric,
    listed_columns,
    numeric_values,
)
from id3tree.stats import classical

__all__ = ["COLUMNS", "test_features", "TESTS"]

# (feature kind, target kind) -> (test name, test returning (result, association), measure name)
TESTS = {
    ("categorical", "categorical"): ("chi-square", classical._chi_square, "Cramer's V"),
    ("categorical", "interval"): ("ANOVA", classical._anova, "eta-squared"),
    ("interval", "interval"): ("regression", classical._regression, "Pearson r2"),
    ("interval", "categorical"): ("deviance", classical._deviance, "McFadden R2"),
}
COLUMNS = [
    "kind", "test", "statistic", "df", "pvalue", "importance", "association", "measure",
    "significant", "n", "n_dropped", "note",
]  # fmt: skip


def test_features(
    X: Any, y: Any, *, categorical: Any = "auto", target_kind: str = "auto", alpha: float = 0.05
) -> pd.DataFrame:
    """Test every feature's association with the target and rank the features by p-value.

    The test follows the kinds of feature and target (the lecture's 2 x 2 table): categorical
    feature and target, Pearson chi-square (association: Cramer's V); categorical feature and
    interval target, ANOVA F (eta-squared); interval feature and target, regression t (squared
    Pearson r); interval feature and categorical target, deviance of multinomial logits
    (McFadden's R2). For each feature the rows missing it or the target are dropped (``n`` rows
    are used, ``n_dropped`` are not).

    Parameters
    ----------
    X : DataFrame or array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    categorical : "auto" or list of str or int, default="auto"
        Text, category and bool columns are always categorical; numeric columns are interval
        unless listed here (by name or position), e.g. counts coded as numbers.
    target_kind : {"auto", "categorical", "interval"}, default="auto"
        ``"auto"`` follows scikit-learn's ``type_of_target``: a numeric y with a value that is not
        a whole number is interval; anything else (text, bool, integer codes such as 0/1) is
        categorical.
    alpha : float, default=0.05
        ``significant`` is ``pvalue < alpha``.

    Returns
    -------
    DataFrame indexed by feature, best first (smallest p-value, i.e. largest importance), with
    ``kind``, ``test``, ``statistic``, ``df``, ``pvalue``, ``importance`` (-log10 p),
    ``association``, ``measure``, ``significant``, ``n``, ``n_dropped`` and ``note``.

    >>> from id3tree.datasets import load_play_tennis
    >>> X, y = load_play_tennis(return_X_y=True)
    >>> test_features(X, y)[["test", "statistic", "df", "pvalue", "association"]].round(4)
                       test  statistic  df  pvalue  association
    feature
    Humidity     chi-square     2.8000   1  0.0943       0.4472
    Outlook      chi-square     3.5467   2  0.1698       0.5033
    Wind         chi-square     0.9333   1  0.3340       0.2582
    Temperature  chi-square     0.5704   2  0.7519       0.2018
    """
    frame = check_table(X, "X")  # the learner's checks: unique names, no complex numbers
    target = as_series(y, "y")
    names = [str(c) for c in frame.columns]
    if len(target) != len(frame):
        raise ValueError(f"X has {len(frame)} rows but y has {len(target)}")
    if not (isinstance(alpha, numbers.Real) and 0 < alpha < 1):
        raise ValueError(f"alpha must be a number between 0 and 1, got {alpha!r}")
    if target.notna().sum() == 0:
        raise ValueError("the target y has no values present")
    y_kind = _target_kind(target, target_kind)
    x_kinds = _feature_kinds(frame, names, categorical)

    rows, order = [], []
    for position, (name, kind) in enumerate(zip(names, x_kinds)):
        column = frame.iloc[:, position].rename(name)
        test_name, run, measure = TESTS[kind, y_kind]
        row = {"kind": kind, "test": test_name, "measure": measure}
        if not (column.notna().to_numpy() & target.notna().to_numpy()).any():
            row.update(_empty_row(len(column)))
            order.append(math.nan)
        else:
            result, association = run(column, target.rename(target.name or "y"))
            row.update(
                statistic=result.statistic,
                df=result.df,
                pvalue=result.pvalue,
                importance=result.importance,
                association=association,
                significant=bool(result.log_pvalue < math.log(alpha)),
                n=result.n,
                n_dropped=len(column) - result.n,
                note=result.note,
            )
            order.append(result.log_pvalue)
        rows.append(row)

    table = pd.DataFrame(rows, index=pd.Index(names, name="feature"), columns=COLUMNS)
    if all(isinstance(d, (int, np.integer)) for d in table["df"]):
        table["df"] = table["df"].astype(np.int64)
    ranking = np.argsort(np.nan_to_num(np.asarray(order), nan=np.inf), kind="stable")
    return table.iloc[ranking]


test_features.__test__ = False  # type: ignore[attr-defined]  # the name starts with "test": keep pytest from collecting it


def _empty_row(length: int) -> dict[Any, Any]:
    return dict(
        statistic=math.nan, df=None, pvalue=math.nan, importance=math.nan, association=math.nan,
        significant=False, n=0, n_dropped=length, note="no rows with both values present",
    )  # fmt: skip


def _target_kind(target: pd.Series, target_kind: str) -> str:
    if target_kind == "interval" and not is_numeric(target):
        name = "y" if target.name is None else str(target.name)
        present = target.dropna()
        example = f" (for example {present.iloc[0]!r})" if len(present) else ""
        raise ValueError(
            f"target_kind='interval' needs a numeric target, but {name!r} has dtype "
            f"{target.dtype}{example}; pass target_kind='categorical' (or 'auto') to test "
            "its classes"
        )
    if target_kind in ("categorical", "interval"):
        return target_kind
    if target_kind != "auto":
        raise ValueError(
            f"target_kind must be 'auto', 'categorical' or 'interval', got {target_kind!r}"
        )
    if not is_numeric(target):
        return "categorical"
    values = numeric_values(target, str(target.name or "y"))
    values = values[~np.isnan(values)]
    return "categorical" if np.array_equal(values, np.round(values)) else "interval"


def _feature_kinds(frame: pd.DataFrame, names: list[str], categorical: Any) -> list[str]:
    """Each column's kind, categorical or interval: by its dtype, plus the listed columns."""
    chosen = listed_columns(categorical, names)  # the learner's reading of categorical=
    return [
        "categorical" if f in chosen or not is_numeric(frame.iloc[:, f]) else "interval"
        for f in range(len(names))
    ]
