"""Time the wrapper search against refitting the same models with scikit-learn.

``select_features`` fits every candidate model of a forward search. The reference fits exactly
the same models (the same design columns, the same rows) with scikit-learn's unpenalised
``LogisticRegression(C=inf, solver="newton-cholesky")``, each from scratch, as a user would
write the search by hand. Both times are best of N; the ratio id3tree / scikit-learn is printed
(below 1: id3tree is faster), with the largest log-likelihood difference between the two as a
check. Always exits 0: a measurement, not a test.

    python benchmarks/bench_wrapper.py            # hmeq, and 100,000 synthetic rows; best of 3
    python benchmarks/bench_wrapper.py --quick    # hmeq only, one run
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression

from id3tree.datasets import load_hmeq
from id3tree.stats import select_features


def best_of(repeats, function):
    times, value = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        value = function()
        times.append(time.perf_counter() - start)
    return min(times), value


def design_of(frame, features, categorical):
    parts = []
    for feature in features:
        if feature in categorical:
            levels = sorted(frame[feature].unique())[:-1]  # the last level is the reference
            parts += [(frame[feature] == level).astype(float) for level in levels]
        else:
            parts.append(frame[feature].astype(float))
    return np.column_stack(parts) if parts else np.zeros((len(frame), 0))


def sklearn_refit(result, X, y, categorical):
    """Fit every candidate of the search with scikit-learn; return the log-likelihoods."""
    complete = pd.concat([X, y], axis=1).dropna()
    target = complete[y.name].to_numpy()
    values = []
    for features in result.candidates["features"]:
        names = [] if features == "(intercept only)" else features.split(", ")
        design = design_of(complete, names, categorical)
        model = LogisticRegression(C=np.inf, solver="newton-cholesky", max_iter=100)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model.fit(design, target)
        p = model.predict_proba(design)[np.arange(len(target)), target]
        values.append(float(np.sum(np.log(np.clip(p, 1e-300, None)))))
    return np.array(values)


def case(name, X, y, categorical_numeric, repeats):
    categorical = set(categorical_numeric) | {
        c for c in X.columns if not pd.api.types.is_numeric_dtype(X[c])
    }
    ours, result = best_of(repeats, lambda: select_features(X, y, categorical=categorical_numeric))
    theirs, log_likelihoods = best_of(repeats, lambda: sklearn_refit(result, X, y, categorical))
    gap = np.max(np.abs(log_likelihoods - result.candidates["log_likelihood"].to_numpy()))
    print(
        f"{name:<38} {len(result.candidates):>4} models  id3tree {ours:7.3f} s  "
        f"scikit-learn {theirs:7.3f} s  ratio {ours / theirs:5.2f}  "
        f"max |l diff| {gap:.1e}  selected {len(result.selected)}"
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    repeats = 1 if args.quick else 3
    hmeq = load_hmeq()
    X, y = hmeq.drop(columns="BAD"), hmeq["BAD"]
    print("forward search by AIC; best of", repeats, "\n")
    case("hmeq, 12 features", X, y, [], repeats)
    case("hmeq, counts as categories (separated)", X, y, ["DEROG", "DELINQ", "NINQ"], repeats)
    if not args.quick:
        rng = np.random.default_rng(0)
        n = 100_000
        big = pd.DataFrame(rng.normal(size=(n, 15)), columns=[f"x{i}" for i in range(15)])
        big["g"] = rng.choice(list("abcde"), size=n)
        eta = (
            big["x0"]
            - 0.5 * big["x1"]
            + 0.2 * big["x2"]
            + big["g"].map(dict(zip("abcde", range(5)))) / 4
        )
        target = pd.Series((eta + rng.logistic(size=n) > 0).astype(int), name="y")
        case("synthetic, 100,000 rows, 16 features", big, target, [], repeats)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
