"""One validator per parameter: what a parameter may be, said once, used everywhere it appears.

A parameter that appears in two places (``ccp_alpha`` in ``ID3Classifier`` and in ``prune``,
``confidence`` in ``prune`` and in :func:`id3tree.engine.pruning.pessimistic`, ``sample_weight`` in
``fit``, ``prune`` and ``cost_complexity_pruning_path``, ``random_state`` in
``select_features`` and the command line, ...) is checked by the same function in both, so the
same value is accepted or refused in both, with the same words.

Every validator raises a ``ValueError`` that names the parameter, what it must be and what it got,
and returns the value in the form the caller computes with (a Python ``float`` or ``int``, a
float64 array of weights).
"""

from __future__ import annotations

import math
import numbers
import operator
from typing import Any

import numpy as np

from id3tree.base.entropy import LOG_BASES, TIE_RULES

__all__ = [
    "check_alpha", "check_ccp_alpha", "check_choice", "check_class_weight", "check_confidence",
    "check_id_like", "check_int", "check_keep_trace", "check_min_gain",
    "check_min_weight_fraction_leaf", "check_numeric_bins", "check_numeric_classes",
    "check_random_state", "check_real", "check_sample_weight", "check_total_weight",
    "check_tree_params", "check_validation_weight", "class_weights", "CRITERIA", "ID_LIKE_CHOICES",
    "is_real", "MAX_BINS", "MAX_TOTAL_WEIGHT", "MIN_TOTAL_WEIGHT", "row_weights", "THRESHOLD_RULES",
    "check_log_base",
]  # fmt: skip

MAX_BINS = 100_000
"""The most bins a numeric column is cut into: ``bins=10**9`` would ask for gigabytes of edges
before anything else. (Two binned columns make a table of bins x bins cells, which
:func:`id3tree.base.contingency.crosstab_codes` bounds on its own.)"""

MAX_TOTAL_WEIGHT = 2.0**500
"""The largest total weight (``sample_weight`` times ``class_weight``, summed over the rows) a
fit takes. Every count of a weighted tree is a sum of weights; the chi-square test of ``alpha``
multiplies two of them and the entropies multiply one by its logarithm, so a total near the
largest float (1.8e308) would overflow to infinity in the middle of the search."""

MIN_TOTAL_WEIGHT = 2.0**-500
"""The smallest positive total weight a fit takes: below it, products of two counts underflow
to 0 and the chi-square test of ``alpha`` divides 0 by 0."""

CRITERIA = ("entropy", "gain_ratio")
THRESHOLD_RULES = ("midpoint", "c45")  # where a numeric cut goes (id3tree.engine.splits.plain)
"""How features compete at a node of ``ID3Classifier``: information gain, or gain ratio."""

ID_LIKE_CHOICES = ("warn", "drop", "keep")
"""What ``ID3Classifier(id_like=...)`` does when a column that looks like an identifier wins a
split: warn and keep it, leave it out and grow the tree again, or keep it silently."""


# ---------------------------------------------------------------------------------------------
# numbers
# ---------------------------------------------------------------------------------------------
def is_real(value: Any) -> bool:
    """A real number (not a bool, not complex): ``int``, ``float``, numpy's float and integer
    scalars, ``fractions.Fraction``... The ABC is asked only for a type other than int and float
    (its check is slow, the more so with cold caches, as after ``gc.collect()``)."""
    if type(value) in (float, int):
        return True
    return isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_))


def check_int(
    name: str, value: Any, low: int, *, high: int | None = None, allow_none: bool = False
) -> Any:
    """``value`` as an ``int`` in ``[low, high]``; None passes when ``allow_none``."""
    if value is None and allow_none:
        return None
    if type(value) is int and value >= low and (high is None or value <= high):
        return value  # the common case, without the ABC check
    if (
        isinstance(value, (bool, np.bool_))
        or not isinstance(value, numbers.Integral)
        or value < low
        or (high is not None and value > high)  # type: ignore[operator]  # (Integral and int)
    ):
        allowed = f"an integer >= {low}" if high is None else f"an integer in [{low}, {high}]"
        raise ValueError(
            f"{name} must be {allowed}" + (" or None" * allow_none) + f", got {value!r}"
        )
    return operator.index(value)


def check_real(
    name: str, value: Any, *, low: float | None = None, high: float | None = None,
    low_open: bool = False, high_open: bool = False, allow_none: bool = False,
    allow_inf: bool = False,
) -> Any:  # fmt: skip
    """``value`` as a ``float`` in the interval given (``[low, high]``, either end open); NaN,
    booleans, complex numbers and text are refused, and infinity unless ``allow_inf``."""
    if value is None and allow_none:
        return None
    ok = is_real(value) and not math.isnan(value) and (allow_inf or math.isfinite(value))
    if ok and low is not None:
        ok = value > low if low_open else value >= low
    if ok and high is not None:
        ok = value < high if high_open else value <= high
    if not ok:
        raise ValueError(
            f"{name} must be {_interval(low, high, low_open, high_open)}"
            + (" or None" if allow_none else "")
            + f", got {value!r}"
        )
    return float(value)


def _interval(low: Any, high: Any, low_open: bool, high_open: bool) -> str:
    if low is None and high is None:
        return "a finite number"
    if high is None:
        return f"a number {'>' if low_open else '>='} {low:g}"
    if low is None:
        return f"a number {'<' if high_open else '<='} {high:g}"
    return f"a number in {'(' if low_open else '['}{low:g}, {high:g}{')' if high_open else ']'}"


def check_choice(name: str, value: Any, choices: Any) -> str:
    """``value`` if it is one of ``choices`` (compared as text: ``1`` is not ``"1"``)."""
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{name} must be one of {list(choices)}, got {value!r}")
    return value


# ---------------------------------------------------------------------------------------------
# the parameters of the tree and of pruning
# ---------------------------------------------------------------------------------------------
def check_ccp_alpha(value: Any) -> float:
    """The complexity parameter of cost-complexity pruning (``ID3Classifier(ccp_alpha=)``,
    ``prune("cost_complexity", ccp_alpha=)``, ``id3tree fit --ccp-alpha``): a number >= 0;
    infinity prunes to the root."""
    return check_real("ccp_alpha", value, low=0, allow_inf=True)


def check_confidence(value: Any) -> float:
    """C4.5's confidence factor CF of pessimistic pruning, in (0, 0.5]."""
    return check_real("confidence", value, low=0, high=0.5, low_open=True)


def check_alpha(value: Any) -> float | None:
    """The significance level of Quinlan's chi-square stopping rule: None or in (0, 1]."""
    return check_real("alpha", value, low=0, high=1, low_open=True, allow_none=True)


def check_min_gain(value: Any) -> float:
    return check_real("min_gain", value, low=0)


def check_min_weight_fraction_leaf(value: Any) -> float:
    return check_real("min_weight_fraction_leaf", value, low=0, high=0.5)


def check_keep_trace(value: Any) -> Any:
    if value is not True and value is not False and value != "auto":
        raise ValueError(f'keep_trace must be "auto", True or False, got {value!r}')
    return value


def check_numeric_bins(value: Any) -> int | None:
    """``numeric_bins`` of a Dask fit: None (every midpoint) or an integer number of bins in
    ``[2, MAX_BINS]``; each level of the tree counts a table of nodes x bins x classes, so a
    billion bins would never finish."""
    return check_int("numeric_bins", value, 2, high=MAX_BINS, allow_none=True)


def check_log_base(value: Any) -> Any:
    """``ID3Classifier(log_base=)``: 2 (bits) or ``"e"`` (nats); a clear error otherwise."""
    if (
        isinstance(value, bool)
        or not isinstance(value, (numbers.Real, str))
        or value not in LOG_BASES
    ):
        raise ValueError(f"log_base must be 2 (bits) or 'e' (nats), got {value!r}")
    return 2 if value == 2 else value


def check_id_like(value: Any) -> str:
    return check_choice("id_like", value, ID_LIKE_CHOICES)


def check_tree_params(model: Any) -> None:
    """Every parameter of an ``ID3Classifier`` (``model``) that ``fit`` checks before it reads
    the data (``class_weight`` is checked with the labels, ``numeric_bins`` by where the data
    lives)."""
    check_choice("criterion", model.criterion, CRITERIA)
    check_choice("thresholds", model.thresholds, THRESHOLD_RULES)
    check_log_base(getattr(model, "log_base", 2))
    check_choice("ties", getattr(model, "ties", "first"), TIE_RULES)
    check_int("max_depth", model.max_depth, 0, allow_none=True)
    check_int("min_samples_split", model.min_samples_split, 2)
    check_int("min_samples_leaf", model.min_samples_leaf, 1)
    check_int("verbose", model.verbose, 0)
    check_keep_trace(model.keep_trace)
    check_id_like(model.id_like)
    check_min_weight_fraction_leaf(model.min_weight_fraction_leaf)
    check_min_gain(model.min_gain)
    check_ccp_alpha(model.ccp_alpha)
    check_alpha(model.alpha)


# ---------------------------------------------------------------------------------------------
# weights
# ---------------------------------------------------------------------------------------------
def check_sample_weight(sample_weight: Any, n: int, name: str = "sample_weight") -> np.ndarray:
    """``sample_weight`` as n finite, non-negative floats (one number: every row weighs it),
    or a ``ValueError`` naming the first bad row. Complex numbers are refused, not cast."""
    try:
        weight = np.asarray(sample_weight)
        if weight.dtype.kind == "c" or (
            weight.dtype.kind in "OUS" and not all(map(is_real, weight.ravel().tolist()))
        ):
            raise TypeError
        weight = np.array(weight, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(
            f"{name} must hold real numbers, one per row; got {_first_not_real(sample_weight)}"
        ) from None
    if weight.ndim == 0:  # one number: every row weighs it (as scikit-learn)
        weight = np.full(n, float(weight))
    if weight.shape != (n,):
        raise ValueError(f"{name}.shape == {weight.shape}, expected ({n},): one weight per row")
    bad = np.flatnonzero(~np.isfinite(weight))
    if len(bad):
        raise ValueError(
            f"{name} must be finite; row {bad[0]} has {float(weight[bad[0]])!r}"
            f" ({len(bad)} such rows)"
        )
    negative = np.flatnonzero(weight < 0)
    if len(negative):
        raise ValueError(
            f"{name} must be non-negative; row {negative[0]} has "
            f"{float(weight[negative[0]])!r} ({len(negative)} negative weights)"
        )
    return weight


def _first_not_real(values: Any) -> str:
    """The first value of ``values`` that is not a real number, and its row, in words."""
    try:
        items = list(np.asarray(values, dtype=object).ravel()) if np.ndim(values) else [values]
    except ValueError:  # rows of different lengths
        return "rows of different lengths"
    for row, value in enumerate(items):
        if not is_real(value):
            return f"{value!r} at row {row}" if len(items) > 1 else repr(value)
    return "values that are not"


def check_total_weight(weight: np.ndarray, what: str = "sample_weight times class_weight") -> None:
    """Refuse weights whose sums would overflow (or underflow) in the weighted counts."""
    with np.errstate(over="ignore"):  # an infinite sum is the problem reported below
        total = float(np.sum(weight))
    if not total > 0:
        raise ValueError(
            f"the weights ({what}) are all zero: at least one row needs a non-zero weight"
        )
    if not total <= MAX_TOTAL_WEIGHT:
        largest = int(np.argmax(weight))
        sum_ = f"{total:.3g}" if np.isfinite(total) else "more than the largest float"
        raise ValueError(
            f"the weights ({what}) sum to {sum_} (row {largest} weighs "
            f"{float(weight[largest]):.3g}): counts that large overflow the entropies and the "
            f"chi-square test; divide every weight by the same number (the total must be at "
            f"most 2**500, about {MAX_TOTAL_WEIGHT:.3g})"
        )
    if total < MIN_TOTAL_WEIGHT:
        raise ValueError(
            f"the weights ({what}) sum to {total:.3g}: counts that small underflow to 0 in "
            f"the chi-square test; multiply every weight by the same number (the total must "
            f"be at least 2**-500, about {MIN_TOTAL_WEIGHT:.3g})"
        )


def check_validation_weight(sample_weight: Any, n: int) -> Any:
    """The weights of ``n`` validation rows (reduced-error pruning): 1.0 for None (every row
    weighs 1), else :func:`check_sample_weight` and :func:`check_total_weight`."""
    if sample_weight is None:
        return 1.0
    weight = check_sample_weight(sample_weight, n)
    check_total_weight(weight, "the validation rows' sample_weight")
    return weight


def check_class_weight(class_weight: Any, classes: Any) -> None:
    """``class_weight``: None, ``"balanced"`` or a dict ``{class: weight}`` naming classes of
    ``classes`` with finite, non-negative real weights."""
    if class_weight is None or (isinstance(class_weight, str) and class_weight == "balanced"):
        return
    if not isinstance(class_weight, dict):
        raise ValueError(
            f'class_weight must be None, "balanced" or a dict {{class: weight}}, '
            f"got {class_weight!r}"
        )
    known = set(classes)
    unknown = [c for c in class_weight if c not in known]
    if unknown:
        raise ValueError(
            f"class_weight names classes that are not in y: {unknown[:5]} "
            f"(classes: {sorted(known, key=str)[:10]})"
        )
    bad = {c: w for c, w in class_weight.items() if not (is_real(w) and np.isfinite(w) and w >= 0)}
    if bad:
        raise ValueError(f"class_weight values must be finite, non-negative numbers; got {bad}")


def class_weights(class_weight: Any, labels: Any, sample_weight: Any = None) -> np.ndarray:
    """Each row's weight times its class's, by scikit-learn's ``compute_sample_weight``; as in
    scikit-learn, ``"balanced"`` counts the rows of each class, whatever their sample weights.
    ``labels`` holds the class of every row."""
    from sklearn.utils.class_weight import compute_sample_weight

    labels = np.asarray(labels, dtype=object)
    check_class_weight(class_weight, labels.tolist())
    by_class = compute_sample_weight(class_weight, labels)
    return by_class if sample_weight is None else sample_weight * by_class


def row_weights(sample_weight: Any, class_weight: Any, labels: Any) -> np.ndarray | None:
    """``sample_weight`` times the ``class_weight`` of each row's class, checked (finite sums
    included); None when neither is given."""
    weight = None
    if sample_weight is not None:
        weight = check_sample_weight(sample_weight, len(labels))
    if class_weight is not None:
        weight = class_weights(class_weight, labels, weight)
    if weight is not None:
        given = [n for n, v in (("sample_weight", sample_weight), ("class_weight", class_weight))]
        check_total_weight(
            weight,
            " times ".join(
                n for n, v in zip(given, (sample_weight, class_weight)) if v is not None
            ),
        )
    return weight


# ---------------------------------------------------------------------------------------------
# labels and randomness
# ---------------------------------------------------------------------------------------------
def check_numeric_classes(distinct: np.ndarray) -> None:
    """scikit-learn's check that the distinct numeric labels ``distinct`` are classes (it
    refuses continuous values). A few integer labels are classes: the check (slow next to a
    small fit) can neither refuse them nor warn that they look continuous (it does past 20)."""
    if not (distinct.dtype.kind in "iu" and len(distinct) <= 20):
        from sklearn.utils.multiclass import check_classification_targets

        check_classification_targets(distinct)


def check_random_state(value: Any) -> Any:
    """``random_state``: None, an integer >= 0, or a numpy ``Generator`` (also a
    ``BitGenerator`` or ``SeedSequence``), as ``numpy.random.default_rng`` takes it."""
    if value is None or isinstance(
        value, (np.random.Generator, np.random.BitGenerator, np.random.SeedSequence)
    ):
        return value
    if isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_)):
        if value >= 0:  # type: ignore[operator]  # (an Integral compares with an int)
            return operator.index(value)
    raise ValueError(
        f"random_state must be None, an integer >= 0 or a numpy Generator, got {value!r}"
    )
