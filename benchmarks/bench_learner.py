"""The learner's benchmark suite: id3tree against scikit-learn (and Orange), side by side.

Usage::

    python benchmarks/bench_learner.py                 # full: every row of the table, best of 3
    python benchmarks/bench_learner.py --quick         # every row on small data, once (a smoke run)
    python benchmarks/bench_learner.py --only predict  # rows whose name contains a word
    python benchmarks/bench_learner.py --huge          # also the 3,000,000-row fit
    python benchmarks/bench_learner.py --orange-python PATH  # an interpreter with Orange3

Every time is the best (minimum) wall-clock time of N runs, the two contenders run alternately
(a, b, a, b, ...) so that drift on a busy machine hits both alike. Every ratio is id3tree / the
other library in the same run: below 1 means id3tree is faster. Memory is measured in a fresh
subprocess per library (resident set size sampled every millisecond). See benchmarks/README.md
for what each row means. The script measures, it does not test: it always exits with status 0.
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import json
import os
import platform
import string
import subprocess
import sys
import textwrap
import time
import traceback

import numpy as np
import pandas as pd
import sklearn
from sklearn.compose import ColumnTransformer, make_column_selector
from sklearn.datasets import make_classification
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import OneHotEncoder, OrdinalEncoder
from sklearn.tree import DecisionTreeClassifier

import id3tree
from id3tree import ID3Classifier
from id3tree.engine import routing


class UntracedID3Classifier(ID3Classifier):
    """ID3Classifier growing with ``GrowParams(keep_trace=False)``: no per-candidate trace kept."""

    def _grow_params(self):
        return dataclasses.replace(super()._grow_params(), keep_trace=False)


# ---------------------------------------------------------------------------------------------
# timing
# ---------------------------------------------------------------------------------------------
def best_of_pair(
    fn_a, fn_b, repeats: int, clock=time.perf_counter, collect: bool = True
) -> tuple[float, float, object, object]:
    """Best times of two functions run alternately, and their last results (``clock``: wall
    time, or ``time.process_time`` for the processor time of every thread; ``collect``: a
    garbage collection before each run, so that neither pays for the other's garbage, which
    the quick mode, timing nothing, skips)."""
    best = [np.inf, np.inf]
    results = [None, None]
    for _ in range(repeats):
        for i, fn in enumerate((fn_a, fn_b)):
            if collect:
                gc.collect()
            start = clock()
            results[i] = fn()
            best[i] = min(best[i], clock() - start)
    return best[0], best[1], results[0], results[1]


def with_threads(fn, n_threads: int):
    """``fn`` with id3tree's router in ``n_threads`` threads (``routing.THREADS``)."""

    def run(*args):
        threads, routing.THREADS = routing.THREADS, n_threads
        try:
            return fn(*args)
        finally:
            routing.THREADS = threads

    return run


# ---------------------------------------------------------------------------------------------
# data
# ---------------------------------------------------------------------------------------------
def numeric_data(n: int, n_features: int = 10, n_classes: int = 2, seed: int = 0):
    """make_classification; more classes get 8 informative features and one cluster each."""
    if n_classes == 2:
        return make_classification(n_samples=n, n_features=n_features, random_state=seed)
    return make_classification(
        n_samples=n,
        n_features=n_features,
        n_informative=8,
        n_classes=n_classes,
        n_clusters_per_class=1,
        random_state=seed,
    )


def distinct_data(n: int, n_values: int = 100):
    """The numeric data with each column rounded to ``n_values`` equally spaced values."""
    X, y = numeric_data(n)
    low, high = X.min(axis=0), X.max(axis=0)
    return np.round((X - low) / (high - low) * (n_values - 1)), y


def categorical_data(n: int, n_features: int = 20, noise: float = 0.1, seed: int = 0):
    """String columns ``c0..`` with 2..12 levels ("a", "b", ...) and a 0/1 label: a hash-like
    function of c0, c5 and c11 with ``noise`` of the labels flipped."""
    rng = np.random.default_rng(seed)
    levels = rng.integers(2, 13, size=n_features)
    letters = np.array(list(string.ascii_lowercase), dtype=object)
    codes = np.stack([rng.integers(0, k, size=n) for k in levels])
    frame = pd.DataFrame({f"c{f}": letters[codes[f]] for f in range(n_features)})
    a, b, c = codes[0], codes[5 % n_features], codes[11 % n_features]
    clean = ((a * 7 + b * 13 + c * 31 + a * b) % 5 >= 2).astype(np.int64)
    y = np.where(rng.random(n) < noise, 1 - clean, clean)
    return frame, y


def mixed_data(n: int):
    """5 numeric columns and 5 string columns; the label depends on both kinds."""
    X, y = numeric_data(n, n_features=5)
    frame, y_cat = categorical_data(n, n_features=5, seed=1)
    for f in range(5):
        frame[f"x{f}"] = X[:, f]
    return frame, np.where(np.random.default_rng(2).random(n) < 0.5, y, y_cat)


def sk_tree(**params) -> DecisionTreeClassifier:
    return DecisionTreeClassifier(criterion="entropy", random_state=0, **params)


def onehot_pipeline() -> Pipeline:
    """Dense one-hot encoding (the faster of its two outputs for a tree) then the tree."""
    encoder = OneHotEncoder(handle_unknown="ignore", sparse_output=False)
    return Pipeline([("onehot", encoder), ("tree", sk_tree())])


def ordinal_pipeline() -> Pipeline:
    encoder = OrdinalEncoder(handle_unknown="use_encoded_value", unknown_value=-1)
    return Pipeline([("ordinal", encoder), ("tree", sk_tree())])


def mixed_pipeline() -> Pipeline:
    text = make_column_selector(dtype_exclude="number")
    encoder = OneHotEncoder(handle_unknown="ignore", sparse_output=False)
    columns = ColumnTransformer([("onehot", encoder, text)], remainder="passthrough")
    return Pipeline([("encode", columns), ("tree", sk_tree())])


# ---------------------------------------------------------------------------------------------
# the rows
# ---------------------------------------------------------------------------------------------
@dataclasses.dataclass
class Row:
    issue: int
    name: str
    ours: float
    theirs: float
    goal: float | None
    against: str = "sklearn"
    unit: str = "s"

    @property
    def ratio(self) -> float:
        return self.ours / self.theirs

    @property
    def verdict(self) -> str:
        if self.goal is None:
            return "-"
        return "PASS" if self.ratio <= self.goal else "MISS"


QUICK_ROWS = 2_000
"""The most rows of a row of the quick mode."""


class Suite:
    def __init__(self, args):
        self.quick, self.repeats, self.only = args.quick, args.repeats, args.only
        self.huge, self.orange_python = args.huge, args.orange_python
        self.rows: list[Row] = []
        self.notes: list[str] = []

    def size(self, n: int) -> int:
        """Quick mode runs every row on at most :data:`QUICK_ROWS` rows: a smoke run that
        checks every row is still there, not a measurement."""
        return min(n, QUICK_ROWS) if self.quick else n

    def sizes(self, *sizes: int) -> list[int]:
        """The sizes of one kind of row, each once (quick mode makes the large ones one)."""
        return list(dict.fromkeys(map(self.size, sizes)))

    @property
    def small_repeats(self) -> int:
        """The small fits are timed best of 5 at least (they take milliseconds); once in quick mode."""
        return self.repeats if self.quick else max(self.repeats, 5)

    def wanted(self, name: str) -> bool:
        return self.only is None or self.only in name

    def add(self, row: Row) -> None:
        self.rows.append(row)
        print(
            f"  {row.name:<58} {row.ours:9.4f} {row.theirs:9.4f}  {row.ratio:6.3f}"
            f"  {'' if row.goal is None else f'<= {row.goal:g}':>7}  {row.verdict}",
            flush=True,
        )

    def pair(self, issue, name, ours, theirs, args, goal, against="sklearn", repeats=None):
        """Time ``ours(*args)`` against ``theirs(*args)``; returns their results."""
        if not self.wanted(name):
            return None, None
        a, b, mine, other = best_of_pair(
            lambda: ours(*args),
            lambda: theirs(*args),
            repeats or self.repeats,
            collect=not self.quick,
        )
        self.add(Row(issue, name, a, b, goal, against))
        return mine, other

    def fit_pair(self, issue, name, make_ours, make_theirs, X, y, goal, **options):
        """Time fitting fresh models made by ``make_ours()`` and ``make_theirs()`` on (X, y)."""
        return self.pair(
            issue,
            name,
            lambda X, y: make_ours().fit(X, y),
            lambda X, y: make_theirs().fit(X, y),
            (X, y),
            goal,
            **options,
        )

    # -- issue 13: speed on every tree shape --------------------------------------------------
    def numeric_fits(self):
        sizes = [100_000, 1_000_000] + ([3_000_000] if self.huge else [])
        for n in self.sizes(*sizes):
            X, y = numeric_data(n)
            ours, theirs = self.fit_pair(
                13,
                f"fit numeric 2 classes d=10 n={n:,}",
                ID3Classifier,
                sk_tree,
                X,
                y,
                0.6,
                repeats=self.repeats if n <= 1_000_000 else 1,
            )
            if ours is not None:
                self.notes.append(
                    f"d=10 n={n:,}: leaves {ours.get_n_leaves():,} / {theirs.get_n_leaves():,}, "
                    f"training predictions agree on {np.mean(ours.predict(X) == theirs.predict(X)):.2%}"
                )
        n = self.size(100_000)
        X, y = numeric_data(n, n_features=100)
        self.fit_pair(
            13,
            f"fit numeric 2 classes d=100 n={n:,}",
            ID3Classifier,
            sk_tree,
            X,
            y,
            0.6,
        )
        for k in (10, 100):
            X, y = numeric_data(n, n_classes=k)
            self.fit_pair(
                13,
                f"fit numeric {k} classes d=10 n={n:,}",
                ID3Classifier,
                sk_tree,
                X,
                y,
                1.0,
            )
        for n in self.sizes(100_000, 1_000_000):
            X, y = distinct_data(n)
            self.fit_pair(
                13,
                f"fit 100 distinct values per column n={n:,}",
                ID3Classifier,
                sk_tree,
                X,
                y,
                1.0,
            )
        n = self.size(1_000_000)
        X, y = numeric_data(n)
        self.fit_pair(
            13,
            f"fit max_depth=5 n={n:,}",
            lambda: ID3Classifier(max_depth=5),
            lambda: sk_tree(max_depth=5),
            X,
            y,
            0.5,
        )

    # -- issue 11: sample weights take the float twin of the split search --------------------
    def weighted_fits(self):
        n = self.size(100_000)
        weight = np.random.default_rng(0).uniform(0.5, 2.0, n)
        for issue, n_classes, label in ((11, 2, ""), (27, 3, " 3 classes")):
            self.pair(
                issue,
                f"fit numeric weighted{label} (sample_weight) d=10 n={n:,}",
                lambda X, y: ID3Classifier().fit(X, y, sample_weight=weight),
                lambda X, y: sk_tree().fit(X, y, sample_weight=weight),
                numeric_data(n, n_classes=n_classes),
                0.6,
            )

    def predictions(self):
        """predict and predict_proba on every tree shape of the fit rows: a tree fitted on
        100,000 rows of each kind predicts its training rows tiled to 1,000,000; the categorical
        and mixed trees against scikit-learn's pipeline for that data (one-hot encoding, then
        the tree), which encodes the strings as id3tree does."""
        n_fit, n_predict = self.size(100_000), self.size(1_000_000)
        shapes = (
            ("d=10", lambda: numeric_data(n_fit), sk_tree, "sklearn"),
            ("d=100", lambda: numeric_data(n_fit, n_features=100), sk_tree, "sklearn"),
            ("100-distinct", lambda: distinct_data(n_fit), sk_tree, "sklearn"),
            ("categorical", lambda: categorical_data(n_fit), onehot_pipeline, "one-hot+tree"),
            ("mixed", lambda: mixed_data(n_fit), mixed_pipeline, "one-hot+tree"),
        )
        for label, data, make_theirs, against in shapes:
            if not self.wanted(f"predict {label}") and not self.wanted(f"predict_proba {label}"):
                continue
            X, y = data()
            ours, theirs = ID3Classifier().fit(X, y), make_theirs().fit(X, y)
            copies = max(1, n_predict // n_fit)
            if isinstance(X, pd.DataFrame):
                rows = pd.concat([X] * copies, ignore_index=True)
            else:
                rows = np.tile(X, (copies, 1))
            name = f"{label} tree, {len(rows):,} rows"
            for method in ("predict", "predict_proba"):
                mine, other = getattr(ours, method), getattr(theirs, method)
                self.pair(13, f"{method} {name}", mine, other, (rows,), 1.0, against)
                if against == "sklearn" and self.wanted(f"{method} {name}"):
                    self.thread_note(f"{method} {name}", mine, other, rows)

    def thread_note(self, name, mine, other, rows):
        """A note on a prediction row: processor time (the router's threads summed) and the
        wall time with the router in the other number of threads (2 if ``routing.THREADS`` is
        1, else 1), each against the other side in the same run."""
        timed = dict(repeats=self.repeats, collect=not self.quick)
        cpu = best_of_pair(
            lambda: mine(rows), lambda: other(rows), clock=time.process_time, **timed
        )
        n = 2 if routing.THREADS == 1 else 1
        alt = best_of_pair(lambda: with_threads(mine, n)(rows), lambda: other(rows), **timed)
        self.notes.append(
            f"{name}: processor time {cpu[0]:.4f} / {cpu[1]:.4f} s ({cpu[0] / cpu[1]:.2f}); "
            f"router in {n} threads {alt[0]:.4f} / {alt[1]:.4f} s ({alt[0] / alt[1]:.2f}); "
            f"the row's router: {routing.THREADS} threads from {routing.THREADED_ROWS:,} rows"
        )

    def categorical_fits(self):
        n = self.size(1_000_000)
        if not self.wanted("fit categorical 20 columns"):
            return
        X, y = categorical_data(n)
        self.fit_pair(
            13,
            f"fit categorical 20 columns n={n:,} vs dense one-hot",
            ID3Classifier,
            onehot_pipeline,
            X,
            y,
            0.1,
            against="one-hot+tree",
        )
        self.fit_pair(
            13,
            f"fit categorical 20 columns n={n:,} vs ordinal",
            ID3Classifier,
            ordinal_pipeline,
            X,
            y,
            0.5,
            against="ordinal+tree",
        )

    # -- issue 15: the classroom ---------------------------------------------------------------
    def small_fits(self):
        for n in self.sizes(1_000, 10_000):
            X, y = numeric_data(n)
            self.fit_pair(
                15,
                f"fit small numeric n={n:,}",
                ID3Classifier,
                sk_tree,
                X,
                y,
                1.0,
                repeats=self.small_repeats,
            )
            C, yc = categorical_data(n)
            self.fit_pair(
                15,
                f"fit small categorical n={n:,} vs one-hot",
                ID3Classifier,
                onehot_pipeline,
                C,
                yc,
                1.0,
                against="one-hot+tree",
                repeats=self.small_repeats,
            )
            M, ym = mixed_data(n)
            self.fit_pair(
                15,
                f"fit small mixed n={n:,} vs one-hot",
                ID3Classifier,
                mixed_pipeline,
                M,
                ym,
                1.0,
                against="one-hot+tree",
                repeats=self.small_repeats,
            )

    def string_predictions(self):
        if not self.wanted("predict from strings"):
            return
        X, y = categorical_data(self.size(10_000))
        rows, _ = categorical_data(self.size(100_000), seed=5)
        ours, pipe = ID3Classifier().fit(X, y), onehot_pipeline().fit(X, y)
        self.pair(
            15,
            f"predict from strings, {len(rows):,} rows vs one-hot",
            ours.predict,
            pipe.predict,
            (rows,),
            0.3,
            "one-hot+tree",
        )
        if self.orange_python:
            self.orange_row(len(rows))
        else:
            self.notes.append(
                "Orange row skipped: pass --orange-python with an interpreter that has Orange3"
            )

    def orange_row(self, n_rows: int) -> None:
        """Orange's TreeLearner, table conversion included, timed in the Orange interpreter."""
        here = os.path.dirname(os.path.abspath(__file__))
        code = textwrap.dedent(
            f"""
            import json, sys
            sys.path.insert(0, {here!r})
            import numpy as np
            import Orange
            from Orange.data import Domain, DiscreteVariable, Table
            from Orange.classification import TreeLearner
            from bench_learner import best_of_pair, categorical_data
            from id3tree import ID3Classifier
            X, y = categorical_data(10_000)
            rows, _ = categorical_data({n_rows}, seed=5)
            attrs = [DiscreteVariable(c, values=sorted(set(X[c]) | set(rows[c]))) for c in X]
            domain = Domain(attrs, DiscreteVariable("y", values=["0", "1"]))

            def table(frame, labels):
                codes = np.column_stack(
                    [[a.to_val(v) for v in frame[a.name]] for a in attrs]
                ).astype(float)
                return Table.from_numpy(domain, codes, labels.astype(float))

            ours = ID3Classifier().fit(X, y)
            theirs = TreeLearner()(table(X, y))
            zeros = np.zeros(len(rows))
            a, b, _, _ = best_of_pair(
                lambda: ours.predict(rows), lambda: theirs(table(rows, zeros)), {self.repeats}
            )
            print(json.dumps(dict(ours=a, theirs=b, version=Orange.__version__)))
            """
        )
        try:
            out = subprocess.run(
                [self.orange_python, "-c", code], capture_output=True, text=True, check=True
            )
            result = json.loads(out.stdout.strip().splitlines()[-1])
        except (subprocess.CalledProcessError, ValueError, IndexError) as exc:
            self.notes.append(f"Orange row failed: {getattr(exc, 'stderr', exc)!s:.300}")
            return
        self.add(
            Row(
                15,
                f"predict from strings, {n_rows:,} rows vs Orange",
                result["ours"],
                result["theirs"],
                1.0,
                "Orange",
            )
        )
        self.notes.append(
            f"Orange {result['version']} TreeLearner; its time includes building the Table from "
            "the strings (Variable.to_val per value), the same work id3tree's predict does"
        )

    def memory(self):
        if not self.wanted("memory"):
            return
        n = self.size(1_000_000)
        ours, theirs = measure_memory("id3tree", n), measure_memory("sklearn", n)
        if ours is None or theirs is None:
            self.notes.append("memory rows failed (psutil missing?)")
            return
        self.add(
            Row(
                13,
                f"memory: peak RSS of the fit, {n:,} x 10",
                ours["peak"],
                theirs["peak"],
                1.2,
                unit="MB",
            )
        )
        self.add(
            Row(
                15,
                f"memory: peak above the loaded data, {n:,} x 10",
                ours["peak"] - ours["loaded"],
                theirs["peak"] - theirs["loaded"],
                1.5,
                unit="MB",
            )
        )
        self.add(
            Row(
                15,
                f"memory: kept after the fit (info), {n:,} x 10",
                max(ours["after"] - ours["loaded"], 0.01),
                max(theirs["after"] - theirs["loaded"], 0.01),
                None,
                unit="MB",
            )
        )
        self.notes.append(
            "memory (MB): "
            + "; ".join(
                f"{who} loaded {m['loaded']:.0f}, peak {m['peak']:.0f}, after {m['after']:.0f}, "
                f"model pickled {m['pickled']:.1f}"
                for who, m in (("id3tree", ours), ("sklearn", theirs))
            )
        )

    def tracing(self):
        n = self.size(100_000)
        if not self.wanted("tracing"):
            return
        X, y = numeric_data(n)
        self.fit_pair(
            13,
            f"tracing overhead n={n:,} (trace kept / not)",
            ID3Classifier,
            UntracedID3Classifier,
            X,
            y,
            1.05,
            against="untraced",
            repeats=self.small_repeats,
        )


MEMORY_SCRIPT = """
import gc, json, pickle, sys, threading, time
import numpy as np, psutil
from sklearn.datasets import make_classification
who, n = sys.argv[1], int(sys.argv[2])
X, y = make_classification(n_samples=n, n_features=10, random_state=0)
if who == "id3tree":
    from id3tree import ID3Classifier as make
else:
    from sklearn.tree import DecisionTreeClassifier
    make = lambda: DecisionTreeClassifier(criterion="entropy", random_state=0)
make().fit(X[:200], y[:200])  # modules a fit imports lazily are loaded before measuring
gc.collect()
process = psutil.Process()
loaded = process.memory_info().rss
peak = [loaded]
done = threading.Event()
def watch():
    while not done.is_set():
        peak[0] = max(peak[0], process.memory_info().rss)
        time.sleep(0.001)
watcher = threading.Thread(target=watch)
watcher.start()
model = make().fit(X, y)
done.set()
watcher.join()
gc.collect()
after = process.memory_info().rss
mb = 2.0**20
print(json.dumps(dict(loaded=loaded / mb, peak=max(peak[0], after) / mb, after=after / mb,
                      pickled=len(pickle.dumps(model)) / mb)))
"""


def measure_memory(who: str, n: int) -> dict | None:
    """RSS (MB) after loading the data, at the fit's peak and after it, in a fresh process."""
    try:
        out = subprocess.run(
            [sys.executable, "-c", MEMORY_SCRIPT, who, str(n)],
            capture_output=True,
            text=True,
            check=True,
        )
        return json.loads(out.stdout.strip().splitlines()[-1])
    except (subprocess.CalledProcessError, ValueError, IndexError) as exc:
        print(f"memory measurement of {who} failed: {getattr(exc, 'stderr', exc)}", file=sys.stderr)
        return None


# ---------------------------------------------------------------------------------------------
# report
# ---------------------------------------------------------------------------------------------
def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="every row on small data, once")
    parser.add_argument("--repeats", type=int, default=None, help="best of N (default 3; quick 1)")
    parser.add_argument("--only", default=None, help="run only rows whose name contains this")
    parser.add_argument("--huge", action="store_true", help="also fit 3,000,000 rows")
    parser.add_argument("--orange-python", default=None, help="a Python with Orange3 installed")
    args = parser.parse_args(argv)
    if args.repeats is None:
        args.repeats = 1 if args.quick else 3
    suite = Suite(args)
    print(
        f"id3tree {getattr(id3tree, '__version__', '?')}, scikit-learn {sklearn.__version__}, "
        f"numpy {np.__version__}, pandas {pd.__version__}, Python {platform.python_version()}; "
        f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}"
    )
    small = "" if args.quick else " (small fits: of 5+)"
    print(f"mode {'quick' if args.quick else 'full'}, best of {args.repeats}{small}")
    print()
    print(f"  {'row':<58} {'id3tree':>9} {'other':>9}  {'ratio':>6}  {'goal':>7}")
    for part in (
        suite.numeric_fits,
        suite.weighted_fits,
        suite.predictions,
        suite.categorical_fits,
        suite.small_fits,
        suite.string_predictions,
        suite.memory,
        suite.tracing,
    ):
        try:
            part()
        except Exception:  # one broken row does not hide the others
            traceback.print_exc()
    print()
    for note in suite.notes:
        print(f"- {note}")
    missed = [r.name for r in suite.rows if r.verdict == "MISS"]
    print()
    print(f"{len(suite.rows)} rows, {len(missed)} goals missed" + (": " if missed else ""))
    for name in missed:
        print(f"  MISS {name}")
    print(f"load average at the end {os.getloadavg()[0]:.1f}")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    try:
        main()
    except Exception:  # a benchmark reports, it does not fail the caller
        traceback.print_exc()
    sys.exit(0)
