"""mutual_information_matrix on a survey-sized frame, against the plain ways of computing it.

Usage::

    python benchmarks/bench_mi.py            # 51,392 rows x 154 columns, best of 3
    python benchmarks/bench_mi.py --quick    # 10,000 rows x 60 columns, best of 1

The frame imitates the 2017 developer survey of seed 000 (there is no survey file in the
repository): a fixed seed draws 40 numeric columns (about a third with whole numbers 0..10, all
with missing values) and 114 text columns with 2 to 50 levels (uneven frequencies, missing
values), a quarter of them tied to a hidden variable so that some pairs share information.

Timings (wall clock, best of the repeats):

* ``id3tree``   ``mutual_information_matrix(X)``: encoding, counting, entropies, the DataFrame.
* ``baseline``  encode each column to integer codes once (``information._codes``, the package's
                binning rule) and call ``np.bincount(a * n_b + b)`` once per pair. It stops at
                the counts: no entropy is taken, so it is a lower bound for that design.
* ``crosstab``  ``pandas.crosstab`` per pair on the encoded codes, timed on a subset of pairs
                and extrapolated to all of them (the estimate says so).
* ``sklearn``   ``sklearn.metrics.mutual_info_score`` per pair on the codes, likewise.

Ratios are id3tree / other: below 1 means id3tree is faster; the goal is <= 0.7 x baseline.
The script also checks that id3tree's matrix agrees with the baseline's counts. It measures, it
does not test: the exit status is 0 unless the two disagree.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time

import numpy as np
import pandas as pd


def make_survey_like(
    n_rows: int = 51_392, n_numeric: int = 40, n_text: int = 114, seed: int = 0
) -> pd.DataFrame:
    """A survey-like frame: numeric and text columns, all with missing values."""
    rng = np.random.default_rng(seed)
    hidden = rng.normal(size=n_rows)
    columns = {}
    for k in range(n_numeric):
        if k % 3 == 0:  # a rating 0..10, like JobSatisfaction
            values = np.round(np.clip(5 + 2 * hidden + rng.normal(0, 2, n_rows), 0, 10))
        else:  # a skewed amount, like Salary
            values = np.exp(rng.normal(0, 1, n_rows) + rng.uniform(0, 1) * hidden) * 10 ** (k % 4)
        values[rng.random(n_rows) < rng.uniform(0.02, 0.6)] = np.nan
        columns[f"num{k:02d}"] = values
    for k in range(n_text):
        n_levels = int(rng.integers(2, 51))
        levels = np.array([f"q{k}_{v}" for v in range(n_levels)], dtype=object)
        codes = rng.choice(n_levels, size=n_rows, p=rng.dirichlet(np.ones(n_levels)))
        if k % 4 == 0:  # tied to the hidden variable
            codes = np.where(hidden > 0.5, codes // 2, codes)
        values = levels[codes]
        values[rng.random(n_rows) < rng.uniform(0.0, 0.5)] = None
        columns[f"text{k:03d}"] = pd.array(values, dtype="str")
    return pd.DataFrame(columns)


def encode(frame: pd.DataFrame) -> list[tuple[np.ndarray, int]]:
    """Each column's integer codes and number of codes, by the package's binning rule."""
    from id3tree.information import _codes

    return [_codes(frame[c], str(c), bins=10) for c in frame.columns]


def baseline(frame: pd.DataFrame) -> dict[tuple[int, int], np.ndarray]:
    """Encode once, then one np.bincount per pair."""
    encoded = encode(frame)
    tables = {}
    for i, (a, n_a) in enumerate(encoded):
        for j in range(i + 1, len(encoded)):
            b, n_b = encoded[j]
            tables[i, j] = np.bincount(a * n_b + b, minlength=n_a * n_b)
    return tables


def per_pair_seconds(frame: pd.DataFrame, pairs, count) -> float:
    encoded = encode(frame)
    start = time.perf_counter()
    for i, j in pairs:
        count(encoded[i][0], encoded[j][0])
    return (time.perf_counter() - start) / len(pairs)


def best_of(repeats: int, fn) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(repeats):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="10,000 rows x 60 columns")
    parser.add_argument("--repeats", type=int, default=None)
    args = parser.parse_args(argv)
    from sklearn.metrics import mutual_info_score

    from id3tree.ranking import mutual_information_matrix

    if args.quick:
        frame, repeats = make_survey_like(10_000, 16, 44), args.repeats or 1
    else:
        frame, repeats = make_survey_like(), args.repeats or 3
    m = frame.shape[1]
    n_pairs = m * (m - 1) // 2
    print(f"python {platform.python_version()}, numpy {np.__version__}, pandas {pd.__version__}")
    print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} (1 min)")
    print(f"frame: {frame.shape[0]:,} rows x {m} columns, {n_pairs:,} pairs")

    t_ours, ours = best_of(repeats, lambda: mutual_information_matrix(frame))
    t_one, _ = best_of(repeats, lambda: mutual_information_matrix(frame, threads=1))
    t_base, tables = best_of(repeats, lambda: baseline(frame))
    rng = np.random.default_rng(1)
    sample = [tuple(sorted(rng.choice(m, 2, replace=False))) for _ in range(200)]
    t_crosstab = n_pairs * per_pair_seconds(frame, sample, pd.crosstab)
    t_sklearn = n_pairs * per_pair_seconds(frame, sample, mutual_info_score)

    # the same numbers: MI from the baseline's counts, for the sampled pairs
    from id3tree.information import entropy_from_counts

    worst = 0.0
    for i, j in sample:
        h = np.diag(ours.to_numpy())
        mi = h[i] + h[j] - entropy_from_counts(tables[i, j])
        worst = max(worst, abs(mi - ours.iat[i, j]))

    print()
    print(f"{'method':<44}{'seconds':>10}{'id3tree / it':>14}")
    rows = [
        ("id3tree mutual_information_matrix", t_ours),
        ("id3tree, one thread", t_one),
        ("baseline: encode once + bincount per pair", t_base),
        ("pandas.crosstab per pair (est. from 200)", t_crosstab),
        ("sklearn mutual_info_score per pair (est.)", t_sklearn),
    ]
    for name, seconds in rows:
        print(f"{name:<44}{seconds:>10.3f}{t_ours / seconds:>14.3f}")
    goal = "met" if t_ours <= 0.7 * t_base else "NOT met"
    print(f"\ngoal id3tree <= 0.7 x baseline: {goal} ({t_ours / t_base:.2f})")
    print(f"largest difference from the baseline's counts (200 pairs): {worst:.2e} bits")
    return 0 if worst < 1e-9 else 1


if __name__ == "__main__":
    sys.exit(main())
