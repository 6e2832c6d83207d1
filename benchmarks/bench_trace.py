"""What the printed trace costs: verbose=1 and verbose=2 against the quiet fit, in one run.

Usage::

    python benchmarks/bench_trace.py            # best of 5
    python benchmarks/bench_trace.py --quick    # best of 1

Data: ``make_classification(n_samples=10_000, n_features=10, random_state=0)`` in two forms,
every tree fully grown:

* ``clean``: ``n_informative=3, n_redundant=0, class_sep=2.0`` (a tree of a few hundred nodes,
  the size a class looks at);
* ``default``: scikit-learn's defaults (a tree of about 1,300 nodes).

The trace is printed into an in-memory buffer (so the terminal's speed does not count) and its
lines are counted. ``verbose=2`` lists the best 10 thresholds of every numeric candidate. The
quiet fit of scikit-learn's entropy tree is timed in the same run for scale.

Goals (issue "A trace a student can check by hand"), on the clean data: verbose=1 at most 1.5x
the quiet fit; verbose=2 at most 3x and fewer than 50,000 lines. The printed line count grows with
the number of nodes times the number of features, so on the default data it is reported, not
judged. The script always exits with status 0: it measures, it does not test.
"""

from __future__ import annotations

import argparse
import io
import time

from sklearn.datasets import make_classification
from sklearn.tree import DecisionTreeClassifier

from id3tree import ID3Classifier
from id3tree.tracing import PrintTracer

GOALS = {"verbose=1": 1.5, "verbose=2": 3.0}
MAX_LINES = 50_000
DATA = {
    "clean": dict(n_informative=3, n_redundant=0, class_sep=2.0),
    "default": {},
}


def best_of(repeats: int, fit) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(repeats):
        start = time.perf_counter()
        result = fit()
        best = min(best, time.perf_counter() - start)
    return best, result


def traced_fit(X, y, max_thresholds: int) -> io.StringIO:
    buffer = io.StringIO()
    ID3Classifier().fit(X, y, tracer=PrintTracer(buffer, max_thresholds=max_thresholds))
    return buffer


def measure(name: str, options: dict, repeats: int) -> None:
    X, y = make_classification(n_samples=10_000, n_features=10, random_state=0, **options)
    sk, _ = best_of(repeats, lambda: DecisionTreeClassifier(criterion="entropy").fit(X, y))
    quiet, model = best_of(repeats, lambda: ID3Classifier().fit(X, y))
    n_nodes = sum(1 for _ in model.root_.walk())
    print(f"{name:8} {n_nodes:6} {'sklearn':10} {sk:8.3f} {sk / quiet:8.2f}")
    print(f"{name:8} {n_nodes:6} {'quiet':10} {quiet:8.3f} {1:8.2f} {0:8}")
    for verbose, max_thresholds in (("verbose=1", 0), ("verbose=2", 10)):
        seconds, buffer = best_of(repeats, lambda m=max_thresholds: traced_fit(X, y, m))
        lines = buffer.getvalue().count("\n")
        ratio = seconds / quiet
        verdict = ""
        if name == "clean":
            ok = ratio <= GOALS[verbose] and (verbose == "verbose=1" or lines < MAX_LINES)
            verdict = f"{'PASS' if ok else 'MISS'} (<= {GOALS[verbose]}x)"
        print(f"{name:8} {n_nodes:6} {verbose:10} {seconds:8.3f} {ratio:8.2f} {lines:8}  {verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="best of 1 instead of 5")
    repeats = 1 if parser.parse_args().quick else 5
    print(
        f"{'data':8} {'nodes':>6} {'variant':10} {'seconds':>8} {'x quiet':>8} {'lines':>8}  goal"
    )
    for name, options in DATA.items():
        measure(name, options, repeats)


if __name__ == "__main__":
    main()
