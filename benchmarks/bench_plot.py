"""Drawing a tree with matplotlib: id3tree's plot() against scikit-learn's plot_tree, in one run.

Usage::

    python benchmarks/bench_plot.py            # full: 1,321- and 14,041-node trees, Adult; best of 3
    python benchmarks/bench_plot.py --quick    # smaller trees, no Adult, best of 1 (a smoke test)
    python benchmarks/bench_plot.py --adult    # only the Adult rows

Both libraries draw a fully grown tree of the same data, ``make_classification(n, 10 features,
random_state=0)``: id3tree's ``ID3Classifier().plot()`` (a figure sized to the tree, every box
readable) and scikit-learn's ``plot_tree(DecisionTreeClassifier(criterion="entropy"))`` in a new
default-sized figure (it shrinks the font to fit). The two trees have the same number of nodes.

Cases:

* ``plot``            building the drawing (all artists), n = 12,000: a 1,321-node tree.
* ``plot + savefig``  the drawing and then writing it as PNG, same trees (no goal: id3tree's
                      picture of a large tree has far more pixels than plot_tree's).
* ``large tree``      n = 100,000, a 14,041-node tree, plot + savefig. id3tree draws the
                      deepest top levels that fit in 8,000 pixels a side, with a note saying so.
* ``adult top levels`` the full Adult tree (32,561 rows, 11,137 nodes; splits of up to 41
                      values): ``plot(max_depth=4)`` written as PNG (goal: under 5 s, at most
                      8,000 pixels a side), against ``plot_tree(max_depth=4)`` of scikit-learn's
                      entropy tree of the same rows (columns ordinal-encoded), also written as
                      PNG; ``max_depth=3`` and ``to_graphviz()`` rendered to PNG for information.

Ratios are id3tree / sklearn: below 1 means id3tree is faster. The script measures, it does not
test: the exit status is 0 whatever the ratios.
"""

from __future__ import annotations

import argparse
import gc
import io
import os
import platform
import shutil
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
SECONDS = {"adult max_depth=4, plot + PNG": 5.0}  # goals in seconds, not ratios
MAX_SIDE = 8_000


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


def adult_trees():
    from sklearn.preprocessing import OrdinalEncoder

    from id3tree.datasets import load_adult

    X, y = load_adult(return_X_y=True)
    ours = ID3Classifier().fit(X, y)
    encoded = OrdinalEncoder(encoded_missing_value=-1).fit_transform(X.astype(object))
    theirs = DecisionTreeClassifier(criterion="entropy", random_state=0).fit(encoded, y)
    return ours, theirs


def png_size(data: bytes) -> tuple[int, int]:
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def id3_png(model, depth) -> bytes:
    buffer = io.BytesIO()
    model.plot(max_depth=depth).figure.savefig(buffer, format="png")
    return buffer.getvalue()


def sklearn_png(model, depth) -> bytes:
    figure = plt.figure()
    plot_tree(model, max_depth=depth)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return buffer.getvalue()


def graphviz_png(model) -> bytes:
    return model.to_graphviz().pipe(format="png")


def adult_rows(repeats: int, rows: list, notes: list) -> None:
    ours, theirs = adult_trees()
    made = {}  # the last PNG of each timed run, for its size

    def keep(name, make):
        return lambda: made.__setitem__(name, make())

    for depth in (4, 3):
        a = best_of(keep(depth, lambda depth=depth: id3_png(ours, depth)), repeats)
        b = best_of(lambda depth=depth: sklearn_png(theirs, depth), repeats)
        name = f"adult max_depth={depth}, plot + PNG" + ("" if depth == 4 else " (info)")
        rows.append((name, a, b))
        width, height = png_size(made[depth])
        notes.append(f"Adult max_depth={depth}: id3tree's PNG {width:,} x {height:,} pixels")
    if shutil.which("dot"):
        a = best_of(keep("dot", lambda: graphviz_png(ours)), repeats)
        rows.append(("adult to_graphviz() PNG (info)", a, float("nan")))
        width, height = png_size(made["dot"])
        notes.append(f"Adult to_graphviz(): {width:,} x {height:,} pixels (its depth: the note)")


def generated_rows(quick, n_small, n_large, repeats, rows, notes) -> None:
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
    b = best_of(lambda: sklearn_plot(theirs, True), 1 if quick else min(repeats, 2))
    rows.append(("large tree, plot + savefig", a, b))
    message = refusal(ours)
    notes.append(f"id3tree on the large tree: {'refused: ' + message if message else 'drawn'}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller trees, best of 1")
    parser.add_argument("--repeats", type=int, default=None)
    parser.add_argument("--adult", action="store_true", help="only the Adult rows")
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
    if args.adult:
        adult_rows(repeats, rows, notes)
    else:
        generated_rows(args.quick, n_small, n_large, repeats, rows, notes)
        if not args.quick:
            adult_rows(repeats, rows, notes)

    print("id3tree plot() vs sklearn plot_tree (ratio = id3tree / sklearn)")
    print(f"{'case':<36}{'id3tree s':>11}{'sklearn s':>11}{'ratio':>8}{'goal':>10}")
    for name, a, b in rows:
        goal = f"<= {GOALS[name]:g}" if name in GOALS else ""
        goal = f"< {SECONDS[name]:g} s" if name in SECONDS else goal
        print(f"{name:<36}{a:>11.3f}{b:>11.3f}{a / b:>8.3f}{goal:>10}")
    print()
    for note in notes:
        print(f"- {note}")
    print("\ngoals\n-----")
    for name, a, b in rows:
        if name in GOALS:
            verdict = "PASS" if a / b <= GOALS[name] else "MISS"
            print(f"{name:<36} ratio {a / b:6.3f}  goal <= {GOALS[name]:<4g} {verdict}")
        if name in SECONDS:
            verdict = "PASS" if a < SECONDS[name] else "MISS"
            print(f"{name:<36} {a:6.3f} s     goal < {SECONDS[name]:g} s  {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
