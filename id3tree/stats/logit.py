"""The multinomial logit behind the deviance test, fitted by Newton-Raphson.

For an interval feature x and a target with classes ``k = 0 .. K-1`` the model is

    P(Y = k | x) = exp(a_k + b_k x) / sum_j exp(a_j + b_j x),    a_0 = b_0 = 0 (class 0 the reference)

and its log-likelihood is ``l1 = sum_i ln P(Y = y_i | x_i)``. Without x (all b_k = 0) the fitted
probabilities are the class proportions n_k / N, so ``l0 = sum_k n_k ln(n_k / N) = -N H(Y)``: minus
N times the target's entropy in nats. The deviance statistic is ``G2 = 2 (l1 - l0)``.

Newton-Raphson climbs the log-likelihood: ``theta <- theta + I^-1 g`` with g the gradient and I the
information matrix, halving the step whenever it would go downhill. x is standardised first: the
likelihood does not change (the intercepts absorb the shift, the slopes the scale) and the
iteration is better conditioned. When the classes are separated along x the maximum does not
exist (the slopes run off to infinity); :func:`separates` detects that from the data, and the fit
then stops after a bounded number of steps, close to the supremum of the likelihood.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.special import log_softmax

from id3tree.base.entropy import entropy_rows

__all__ = [
    "DesignLogitFit", "fit_design_logit", "fit_multinomial_logit", "LogitFit", "MAX_ITER",
    "MAX_ITER_SEPARATED", "null_log_likelihood", "ROUNDING", "SATURATED", "separates", "TOLERANCE",
]  # fmt: skip

MAX_ITER = 100
"""Newton steps allowed (convergence takes fewer than 10 on ordinary data)."""
MAX_ITER_SEPARATED = 40
"""Newton steps taken when the classes are separated; each brings l1 closer to its supremum."""
TOLERANCE = 1e-12
"""Converged when a Newton step promises to raise l1 by less than this times ``1 + |l1|``."""


@dataclass(frozen=True)
class LogitFit:
    """Log-likelihoods of the multinomial logits with x (``l1``) and without it (``l0``)."""

    l1: float
    l0: float
    iterations: int
    converged: bool
    separated: bool


def null_log_likelihood(class_counts: np.ndarray) -> float:
    """``l0 = -N H(Y)``, the entropy in nats: the intercept-only model predicts the proportions."""
    counts = np.asarray(class_counts, dtype=float)
    return -float(counts.sum() * entropy_rows(counts, math.e))


def separates(x: np.ndarray, y: np.ndarray, n_classes: int) -> bool:
    """True when a threshold c puts some classes entirely at x <= c and the others at x >= c.

    With one feature that is exactly when the maximum-likelihood fit does not exist (complete or
    quasi-complete separation, Albert & Anderson 1984): a direction in which every observation's
    own class gains on all the others exists iff such a c does, and c can be taken to be one of
    the class maxima.

    >>> separates(np.array([1.0, 2.0, 3.0, 4.0]), np.array([0, 0, 1, 1]), 2)
    True
    >>> separates(np.array([1.0, 3.0, 2.0, 4.0]), np.array([0, 0, 1, 1]), 2)
    False
    """
    low = np.full(n_classes, np.inf)
    high = np.full(n_classes, -np.inf)
    np.minimum.at(low, y, x)
    np.maximum.at(high, y, x)
    for c in high:
        below, above = high <= c, low >= c
        if (below | above).all() and below.any() and above.any():
            return True
    return False


def fit_multinomial_logit(x: np.ndarray, y: np.ndarray, n_classes: int) -> LogitFit:
    """Fit the logit of class codes ``y`` (every code 0 .. K-1 present) on a non-constant x."""
    n, k = len(y), n_classes
    u = x / np.abs(x).max()  # first into [-1, 1], so that squares cannot overflow
    z = (u - u.mean()) / u.std()
    l0 = null_log_likelihood(np.bincount(y, minlength=k))
    separated = separates(x, y, k)
    max_iter = MAX_ITER_SEPARATED if separated else MAX_ITER
    indicator = np.zeros((n, k - 1))  # indicator[i, k-1] = 1 when y_i = k, for k >= 1
    indicator[y > 0, y[y > 0] - 1] = 1.0

    def log_likelihood(theta: Any) -> Any:  # theta[0] intercepts a_1.., theta[1] slopes b_1..
        eta = np.zeros((n, k))
        eta[:, 1:] = theta[0] + np.outer(z, theta[1])
        log_p = log_softmax(eta, axis=1)
        return float(log_p[np.arange(n), y].sum()), np.exp(log_p[:, 1:])

    theta = np.zeros((2, k - 1))
    l1, q = log_likelihood(theta)
    converged = False
    iterations = 0
    while iterations < max_iter and not converged:
        iterations += 1
        # gradient of l1 and the information matrix, blocks [[a a, a b], [b a, b b]]
        # (einsum rather than @: these tall, thin products gain nothing from threaded BLAS)
        residual = indicator - q
        gradient = np.concatenate([residual.sum(axis=0), np.einsum("i,ik->k", z, residual)])
        zq = z[:, None] * q
        s0 = np.diag(q.sum(axis=0)) - np.einsum("ik,il->kl", q, q)
        s1 = np.diag(zq.sum(axis=0)) - np.einsum("ik,il->kl", q, zq)
        s2 = np.diag(np.einsum("i,ik->k", z, zq)) - np.einsum("ik,il->kl", zq, zq)
        information = np.block([[s0, s1], [s1.T, s2]])
        try:
            step = np.linalg.solve(information, gradient).reshape(2, k - 1)
        except np.linalg.LinAlgError:  # probabilities saturated at 0 or 1: nothing left to gain
            break
        # the Newton decrement g' I^-1 g is twice the rise the quadratic model promises
        converged = float(gradient @ step.ravel()) <= TOLERANCE * (1.0 + abs(l1))
        # halve the step until the log-likelihood does not fall
        for _ in range(40):
            new_l1, new_q = log_likelihood(theta + step)
            if new_l1 >= l1:
                break
            step = step / 2
        else:
            break
        theta = theta + step
        l1, q = new_l1, new_q
    return LogitFit(max(l1, l0), l0, iterations, converged and not separated, separated)


# ---------------------------------------------------------------------------------------------
# The same model on a design matrix of several columns (the wrapper search's workhorse)
# ---------------------------------------------------------------------------------------------
SATURATED = 1e-10
"""A row counts as fitted perfectly when its own class gets a probability above 1 - this."""
ROUNDING = 1e-8
"""When no step, however short, goes uphill, a promised rise below this (relative) is rounding."""


def _newton_step(information: np.ndarray, gradient: np.ndarray) -> np.ndarray:
    """Solve ``I step = g``. Rows fitted with probability 1 add nothing to I, so under separation
    I turns singular in the directions that run off to infinity; the least-squares (minimum-norm)
    solution then moves in the directions that can still be estimated, where g is not zero."""
    return np.linalg.lstsq(information, gradient, rcond=1e-12)[0]


@dataclass(frozen=True)
class DesignLogitFit:
    """A multinomial logit on a design matrix: ``log_likelihood``, the coefficients (one column
    per non-reference class) and how the Newton iteration went."""

    log_likelihood: float
    coefficients: np.ndarray
    iterations: int
    converged: bool
    n_saturated: int


def fit_design_logit(
    design: np.ndarray, y: np.ndarray, n_classes: int, start: np.ndarray | None = None
) -> DesignLogitFit:
    """Fit ``P(Y = k | z) = exp(z b_k) / sum_j exp(z b_j)`` (``b_0 = 0``) by Newton-Raphson.

    Parameters
    ----------
    design : ndarray of shape (n_samples, p)
        The model's columns, the intercept's column of ones among them, linearly independent
        (the wrapper search removes aliased columns with the SWEEP operator first).
    y : ndarray of shape (n_samples,)
        Class codes ``0 .. K-1``; class 0 is the reference.
    n_classes : int
    start : ndarray of shape (p, K - 1), optional
        Where Newton starts (a warm start from a neighbouring model); zeros otherwise.

    The information matrix has one ``p x p`` block per pair of classes ``(j, l)``:
    ``Z' diag(q_j (delta_jl - q_l)) Z``. When the classes are separated (a category whose rows
    all share one class, say), the maximum is at infinity; the iteration then stops after
    ``MAX_ITER`` steps close to the supremum, and ``n_saturated`` counts the rows fitted with
    probability 1.
    """
    n, p = design.shape
    m = n_classes - 1
    rows = np.arange(n)
    indicator = np.zeros((n, m))
    indicator[y > 0, y[y > 0] - 1] = 1.0

    def log_likelihood(beta: Any) -> Any:
        eta = np.zeros((n, n_classes))
        eta[:, 1:] = design @ beta
        log_p = log_softmax(eta, axis=1)
        return float(log_p[rows, y].sum()), np.exp(log_p[:, 1:]), log_p[rows, y]

    beta = np.zeros((p, m)) if start is None else np.array(start, dtype=float)
    l1, q, own = log_likelihood(beta)
    if start is not None:  # a warm start that is worse than the origin is no help
        l_zero, q_zero, own_zero = log_likelihood(np.zeros((p, m)))
        if l_zero > l1:
            beta, l1, q, own = np.zeros((p, m)), l_zero, q_zero, own_zero
    converged = False
    iterations = 0
    while iterations < MAX_ITER and not converged:
        iterations += 1
        gradient = (design.T @ (indicator - q)).T.ravel()  # class by class
        information = np.empty((m * p, m * p))
        for j in range(m):
            for k in range(j, m):
                weight = q[:, j] * ((j == k) - q[:, k])
                block = design.T @ (design * weight[:, None])
                information[j * p : (j + 1) * p, k * p : (k + 1) * p] = block
                information[k * p : (k + 1) * p, j * p : (j + 1) * p] = block.T
        step = _newton_step(information, gradient).reshape(m, p).T
        decrement = float(gradient @ step.T.ravel())
        converged = decrement <= TOLERANCE * (1.0 + abs(l1))
        for _ in range(40):  # halve the step until the log-likelihood does not fall
            new_l1, new_q, new_own = log_likelihood(beta + step)
            if new_l1 >= l1:
                break
            step = step / 2
        else:  # no step uphill: at the maximum to the precision of the arithmetic
            converged = decrement <= ROUNDING * (1.0 + abs(l1))
            break
        beta = beta + step
        l1, q, own = new_l1, new_q, new_own
    n_saturated = int(np.count_nonzero(own > -SATURATED))
    return DesignLogitFit(l1, beta, iterations, converged, n_saturated)
