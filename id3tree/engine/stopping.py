"""Step 2 of ID3, in words: why a node stops growing (shared by every grower, so that their
trees, traces and saved models compare equal)."""

from __future__ import annotations

from typing import Any

import numpy as np

from id3tree.base.language import N_

__all__ = [
    "low_gain_reason", "NO_VALID_SPLIT", "not_significant_reason", "REASONS", "stop_reasons",
]  # fmt: skip

REASONS = (
    N_("pure, every sample is of one class"),
    N_("max_depth = {depth} reached"),
    N_("fewer than min_samples_split = {n} samples"),
    N_("fewer than {n} samples, too few for two branches of min_samples_leaf = {leaf}"),
    N_("a weight of less than {weight}, too little for two branches of min_weight_fraction_leaf"),
    N_("no feature offers a valid split"),
    N_("the best gain, {gain}, is below min_gain = {min_gain}"),
    N_("the split is not significant: chi-square p = {p} is not below alpha = {alpha}"),
)
"""Every reason below, as a message of the catalogs: a model keeps its reasons in English, and
a page in another language translates them where it prints them
(:meth:`~id3tree.base.language.Language.phrase`)."""


def stop_reasons(
    counts: np.ndarray, depth: int, params: Any, n_rows: Any = None, totals: Any = None
) -> np.ndarray:
    """Why each node of a level stops before any scoring (None where it will be scored).

    ``n_rows``, the rows of each node, is given when the counts are sums of weights: the
    ``min_samples_*`` rules count rows, as in scikit-learn, and ``min_weight_leaf`` weighs.
    ``totals``: each node's class counts summed, when the caller has them."""
    sizes = np.add.reduce(counts, axis=1) if totals is None else totals
    min_leaf = params.min_samples_leaf
    # one class holds every sample (whole counts: the largest is the total; sums of weights
    # are read cell by cell, a tiny weight being lost in the sum of a large one)
    if counts.dtype.kind in "iu":
        pure = np.maximum.reduce(counts, axis=1, initial=0) == sizes
    else:
        pure = np.count_nonzero(counts > 0, axis=1) <= 1
    reasons = np.empty(len(counts), dtype=object)  # (None everywhere)
    min_weight = getattr(params, "min_weight_leaf", 0.0)
    if min_weight > 0:
        reasons[sizes < 2 * min_weight] = (
            f"a weight of less than {2 * min_weight:g}, too little for two branches of "
            f"min_weight_fraction_leaf"
        )
    if n_rows is not None:
        sizes = n_rows
    if 2 * min_leaf > params.min_samples_split:  # (else the next rule names all these nodes)
        reasons[sizes < 2 * min_leaf] = (
            f"fewer than {2 * min_leaf} samples, too few for two branches of "
            f"min_samples_leaf = {min_leaf}"
        )
    reasons[sizes < params.min_samples_split] = (
        f"fewer than min_samples_split = {params.min_samples_split} samples"
    )
    if depth >= params.max_depth:
        reasons[:] = f"max_depth = {depth} reached"
    reasons[pure] = "pure, every sample is of one class"
    return reasons


NO_VALID_SPLIT = "no feature offers a valid split"


def low_gain_reason(gain: float, min_gain: float) -> str:
    return f"the best gain, {gain:.4f}, is below min_gain = {min_gain:g}"


def not_significant_reason(p: float, alpha: float) -> str:
    return f"the split is not significant: chi-square p = {p:.4g} is not below alpha = {alpha:g}"
