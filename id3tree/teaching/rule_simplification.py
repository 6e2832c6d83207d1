"""C4.5's simplification of single rules (Quinlan 1993, chapter 5), traced step by step.

A rule read off a tree carries every test on its path, some of which may not help it. For a rule
R with conditions X1 ... Xn and class C, C4.5 asks of each condition Xi: what if it were dropped?
The rows that meet every other condition are counted (on the training data): the rule without Xi
covers N of them, E of which are not of class C. Its error rate is estimated pessimistically, by
the upper limit ``U_CF(E, N)`` of a confidence interval at level CF (0.25, as C4.5), the estimate
used by error-based pruning (:func:`id3tree.engine.pruning.added_errors`). The condition whose removal
gives the lowest estimate is dropped if that estimate is no higher than the rule's own; then the
shorter rule is examined again, until no condition can go.

The simplified rules may overlap and no longer cover every row; they are for reading, and do not
predict what the tree predicts (C4.5 goes on to choose a subset of rules per class and a default
class; that is not done here).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from id3tree.engine.pruning import added_errors
from id3tree.teaching.rules import Equals, Interval, Missing, NotIn, Rule

__all__ = ["condition_mask", "pessimistic_rate", "simplify", "TRACE_COLUMNS"]

TRACE_COLUMNS = [
    "rule", "step", "dropped", "n_covered", "errors", "estimate", "rule_estimate", "why",
]  # fmt: skip


def pessimistic_rate(n: float, e: float, confidence: float = 0.25) -> float:
    """``U_CF(E, N)``: the upper limit of the error rate of a rule that errs on E of N rows.

    >>> round(pessimistic_rate(6, 0), 3), round(pessimistic_rate(16, 1), 3)  # Quinlan, p. 41
    (0.206, 0.157)
    """
    return (e + added_errors(n, e, confidence)) / n if n > 0 else 1.0


def condition_mask(condition, X: pd.DataFrame) -> np.ndarray:
    """Which rows of ``X`` meet ``condition`` (numbers compared as float64; missing values meet
    only :class:`~id3tree.teaching.rules.Missing`)."""
    column = X[condition.feature]
    missing = column.isna().to_numpy()
    if isinstance(condition, Missing):
        return missing
    if isinstance(condition, Interval):
        values = column.to_numpy(dtype=float, na_value=np.nan)
        met = ~missing
        if condition.low is not None:
            met &= values > condition.low
        if condition.high is not None:
            met &= values <= condition.high
        return met
    values = column.astype(object).to_numpy()
    if isinstance(condition, Equals):
        return ~missing & np.array([v == condition.value for v in values], dtype=bool)
    if isinstance(condition, NotIn):
        known = ~missing & np.isin(values, list(condition.values))
        return ~known & (~missing | condition.or_missing)
    raise TypeError(f"not a condition: {condition!r}")


def simplify(rules, X, y, *, confidence: float = 0.25):
    """The leaf rules of ``rules`` simplified on the training data ``X, y``.

    Returns ``(simplified, trace)``: the rules with the conditions that stay (coverage and
    confidence counted again on ``X, y``), and a DataFrame with a row per condition dropped:
    ``rule`` (1-based), ``step``, ``dropped`` (the condition's text), ``n_covered`` and ``errors``
    of the shorter rule, its pessimistic ``estimate``, the ``rule_estimate`` it replaced, and
    ``why`` in words.
    """
    X, y = _checked(rules, X, y, confidence)
    simplified, trace = [], []
    for number, rule in enumerate(rules, start=1):
        masks = [condition_mask(c, X) for c in rule.conditions]
        right = y == rule.prediction
        kept = list(range(len(masks)))
        step = 0
        while kept:
            current = _estimate(masks, kept, right, confidence)
            options = [
                (_estimate(masks, [j for j in kept if j != i], right, confidence), i) for i in kept
            ]
            (best, n, e), i = min(options, key=lambda o: (o[0][0], o[1]))
            if best > current[0]:
                break
            step += 1
            kept.remove(i)
            trace.append(
                dict(
                    rule=number,
                    step=step,
                    dropped=rule.conditions[i].text(),
                    n_covered=n,
                    errors=e,
                    estimate=best,
                    rule_estimate=current[0],
                    why=(
                        f"without it the rule covers {n} rows with {e} errors: "
                        f"U = {best:.3f}, no more than the rule's {current[0]:.3f}"
                    ),
                )
            )
        simplified.append(_counted(rule, [rule.conditions[j] for j in kept], masks, kept, right))
    return simplified, pd.DataFrame(trace, columns=TRACE_COLUMNS)


def _checked(rules, X, y, confidence) -> tuple[pd.DataFrame, np.ndarray]:
    """``X`` as a frame of the training rows and ``y`` as an array, or a clear error: the
    estimates count rows, so no row at all (every rule would lose every condition), a column
    a rule tests that X lacks, labels of another length or a confidence that is not a number
    in (0, 0.5] are refused."""
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float, np.number)):
        raise TypeError(f"confidence must be a number in (0, 0.5], got {confidence!r}")
    if not 0 < confidence <= 0.5:
        raise ValueError(f"confidence must be a number in (0, 0.5], got {confidence!r}")
    features = list(getattr(rules, "features", []))
    if not isinstance(X, pd.DataFrame):
        if np.ndim(X) != 2 or np.shape(X)[1] != len(features):
            raise TypeError(
                "X must be a DataFrame of the training rows with the features' columns "
                f"{features[:10]}, got {type(X).__name__}"
            )
        X = pd.DataFrame(X, columns=features)
    X = X.set_axis([str(c) for c in X.columns], axis=1).reset_index(drop=True)
    y = np.asarray(y, dtype=object).ravel()
    if len(X) == 0:
        raise ValueError(
            "X has no rows: the rules are simplified by counting the training rows each "
            "condition lets through, so pass the rows the tree was fitted on"
        )
    if len(y) != len(X):
        raise ValueError(f"y has {len(y)} labels but X has {len(X)} rows; pass both in full")
    for number, rule in enumerate(rules, start=1):
        lacking = [c.feature for c in rule.conditions if c.feature not in X.columns]
        if lacking:
            raise ValueError(f"rule {number} tests {lacking[0]!r}, which is not a column of X")
    return X, y


def _estimate(masks, kept, right, confidence):
    covered = np.logical_and.reduce([masks[j] for j in kept]) if kept else np.ones_like(right)
    n = int(covered.sum())
    e = int((covered & ~right).sum())
    return pessimistic_rate(n, e, confidence), n, e


def _counted(rule: Rule, conditions, masks, kept, right) -> Rule:
    covered = np.logical_and.reduce([masks[j] for j in kept]) if kept else np.ones_like(right)
    n = int(covered.sum())
    return replace(
        rule,
        conditions=tuple(conditions),
        n_samples=n,
        coverage=n / len(right) if len(right) else 0.0,
        node_samples=n,
        confidence=float((covered & right).sum() / n) if n else 0.0,
    )
