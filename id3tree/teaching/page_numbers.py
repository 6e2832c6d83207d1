"""Printed numbers for whole columns at once: the interactive page prints hundreds of thousands.

Two column-at-a-time twins of :mod:`id3tree.pencil`, which states the rule and prints one
number or one equation at a time:

* :func:`fixed_units` writes each number as :func:`id3tree.pencil.fixed` does, kept as a whole
  number of units of the last printed digit (``0.2467`` is 2467: the page stores integers and
  the browser puts the point back);
* :func:`difference_holds` and :func:`weighted_sum_holds` say where an equation redone by hand
  from its printed numbers gives its printed result (``=``) and where it does not (``≈``), as
  :func:`id3tree.pencil.difference_sign` and :func:`id3tree.pencil.weighted_sum_sign` do, by
  integer arithmetic on the printed units instead of fractions.

Tests draw random numbers and hold each twin equal to its :mod:`id3tree.pencil` original.

>>> fixed_units([0.940286, 0.693536, 0.24675, float("nan")]).tolist()
[9403, 6935, 2467, -1]
>>> difference_holds([9403], [6935], [2467]).tolist()     # 0.9403 - 0.6935 is 0.2468
[False]
>>> weighted_sum_holds([4, 4, 6], [8113, 10000, 9183], [0, 0, 0], [9111]).tolist()
[True]
"""

from __future__ import annotations

import numpy as np

from id3tree import pencil
from id3tree.node import rounded_units

UNIT = 10**pencil.DECIMALS
"""Units of the last printed digit in one."""

NONE = -1
"""The units of a number that is not there (NaN: a feature with no valid split)."""


def fixed_units(values) -> np.ndarray:
    """Each non-negative value as :func:`~id3tree.pencil.fixed` prints it, in units of the last
    printed digit (int64); :data:`NONE` for NaN. Where the scaled value is too close to a half
    to be sure of the rounding, :func:`~id3tree.pencil.fixed` itself writes it."""
    values = np.asarray(values, dtype=float)
    missing = np.isnan(values)
    q, sure = rounded_units(np.where(missing, 0.0, values), pencil.DECIMALS)
    units = np.where(missing, NONE, np.maximum(q, 0)).astype(np.int64)
    for i in np.flatnonzero(~sure & ~missing).tolist():
        units[i] = int(pencil.fixed(float(values[i])).replace(".", ""))
    return units


def difference_holds(a, b, result) -> np.ndarray:
    """Where ``a - b = result`` holds by pencil, all three given in printed units: the
    difference of two printed numbers is exact, so it holds where it is the printed result."""
    return np.asarray(a, np.int64) - np.asarray(b, np.int64) == np.asarray(result, np.int64)


def weighted_sum_holds(sizes, values, group, results) -> np.ndarray:
    """Where ``n1/N × v1 + n2/N × v2 + ... = result`` holds by pencil, for many sums at once.

    ``sizes`` (the n, whole numbers) and ``values`` (printed units) hold the terms of every sum,
    ``group`` says which sum each term belongs to (0, 1, ...: sums in order) and ``results``
    are the printed results (units). N is each sum's total size. The exact sum S/N (with
    S = Σ n v, in units) rounds to the printed result r, half away from zero, when
    r - 1/2 <= S/N < r + 1/2, that is 2S >= (2r - 1)N and 2S < (2r + 1)N: whole numbers only.
    """
    sizes = np.asarray(sizes, np.int64)
    group = np.asarray(group, np.int64)
    results = np.asarray(results, np.int64)
    total = np.zeros(len(results), np.int64)
    weighted = np.zeros(len(results), np.int64)
    np.add.at(total, group, sizes)
    np.add.at(weighted, group, sizes * np.asarray(values, np.int64))
    return (2 * weighted >= (2 * results - 1) * total) & (2 * weighted < (2 * results + 1) * total)
