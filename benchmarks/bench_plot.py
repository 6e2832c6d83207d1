"""Drawing a tree with matplotlib: id3tree's plot() against scikit-learn's plot_tree, in one run.

Usage::

    python benchmarks/bench_plot.py            # full: the 1,321- and 14,041-node trees, best of 3
    python benchmarks/bench_plot.py --quick    # a smaller tree, best of 1 (a smoke test)

Both libraries draw a fully grown tree of the same data, ``make_classification(n, 10 features,
random_state=0)``: id3tree's ``ID3Classifier().plot()`` (a figure sized to the tree, every box
readable) and scikit-learn's ``plot_tree(DecisionTreeClassifier(criterion="entropy"))`` in a new
default-sized figure (it shrinks the font to fit). The two trees have the same number of nodes.

Cases:

* ``plot``            building the drawing (all artists), n = 12,000: a 1,321-node tree.
* ``plot + savefig``  the drawing and then writing it as PNG, same trees (no goal: id3tree's
                      picture of a large tree has far more pixels than plot_tree's).
* ``large tree``      n = 100,000, a 14,041-node tree, plot + savefig. id3tree refuses drawings
                      of more than ``MAX_NODES`` boxes with a message naming a ``max_depth`` that
                      fits and the Graphviz renderers; the time is that of the refusal.

Ratios are id3tree / sklearn: below 1 means id3tree is faster. The script measures, it does not
test: the exit status is 0 whatever the ratios.
"""

from __future__ import annotations

import argparse
import gc
import io
import os
import platform
import sys
import time

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import sklearn  # noqa: E402
from sklearn.datasets import make_classification  # noqa: E402
from sklearn.tree import DecisionTreeClassifier, plot_tree  # noqa: E402

import id3tree  # noqa: E402
from id3tree import ID3Classifier  # noqa: E402

GOALS = {"plot": 2.0, "large tree, plot + savefig": 1.0}


def best_of(fn, repeats: int) -> float:
    """The fastest of ``repeats`` wall-clock runs of ``fn()`` (figures closed after each)."""
    best = np.inf
    for _ in range(repeats):
        gc.collect()
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
        plt.close("all")
    return best


def trees(n: int):
    X, y = make_classification(n_samples=n, n_features=10, random_state=0)
    ours = ID3Classifier().fit(X, y)
    theirs = DecisionTreeClassifier(criterion="entropy", random_state=0).fit(X, y)
    return ours, theirs


def id3_plot(model, save: bool):
    ax = model.plot()
    if save:
        ax.figure.savefig(io.BytesIO(), format="png")


def sklearn_plot(model, save: bool):
    figure = plt.figure()
    plot_tree(model)
    if save:
        figure.savefig(io.BytesIO(), format="png")


def refusal(model) -> str:
    try:
        id3_plot(model, save=True)
    except ValueError as refused:
        return str(refused)
    return ""


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller trees, best of 1")
    parser.add_argument("--repeats", type=int, default=None)
    args = parser.parse_args(argv)
    n_small, n_large = (3_000, 30_000) if args.quick else (12_000, 100_000)
    repeats = args.repeats or (1 if args.quick else 3)
    print(
        f"id3tree {id3tree.__version__}, scikit-learn {sklearn.__version__}, "
        f"matplotlib {matplotlib.__version__}, Python {platform.python_version()}"
    )
    print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} (1 min)")
    print(f"mode {'quick' if args.quick else 'full'}: best of {repeats}\n")

    rows, notes = [], []
    ours, theirs = trees(n_small)
    size = f"{sum(1 for _ in ours.root_.walk()):,} / {theirs.tree_.node_count:,} nodes"
    notes.append(f"n = {n_small:,}: trees of {size} (id3tree / sklearn)")
    for name, save in (("plot", False), ("plot + savefig (info)", True)):
        a = best_of(lambda save=save: id3_plot(ours, save), repeats)
        b = best_of(lambda save=save: sklearn_plot(theirs, save), repeats)
        rows.append((name, a, b))
    figure = ours.plot().figure
    width, height = figure.get_size_inches() * figure.dpi
    notes.append(f"id3tree's figure: {width:,.0f} x {height:,.0f} pixels; plot_tree's: 640 x 480")
    plt.close("all")

    ours, theirs = trees(n_large)
    size = f"{sum(1 for _ in ours.root_.walk()):,} / {theirs.tree_.node_count:,} nodes"
    notes.append(f"n = {n_large:,}: trees of {size} (id3tree / sklearn)")
    a = best_of(lambda: refusal(ours), repeats)
    b = best_of(lambda: sklearn_plot(theirs, True), 1 if args.quick else min(repeats, 2))
    rows.append(("large tree, plot + savefig", a, b))
    message = refusal(ours)
    notes.append(f"id3tree on the large tree: {'refused: ' + message if message else 'drawn'}")

    print("id3tree plot() vs sklearn plot_tree (ratio = id3tree / sklearn)")
    print(f"{'case':<28}{'id3tree s':>11}{'sklearn s':>11}{'ratio':>8}{'goal':>8}")
    for name, a, b in rows:
        goal = "" if name not in GOALS else f"<= {GOALS[name]:g}"
        print(f"{name:<28}{a:>11.3f}{b:>11.3f}{a / b:>8.3f}{goal:>8}")
    print()
    for note in notes:
        print(f"- {note}")
    print("\ngoals\n-----")
    for name, a, b in rows:
        if name in GOALS:
            verdict = "PASS" if a / b <= GOALS[name] else "MISS"
            print(f"{name:<28} ratio {a / b:6.3f}  goal <= {GOALS[name]:<4g} {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
