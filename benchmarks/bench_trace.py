"""What the printed trace costs: verbose=1 and verbose=2 against the quiet fit, in one run.

Usage::

    python benchmarks/bench_trace.py                  # best of 5, 10,000 rows
    python benchmarks/bench_trace.py --quick          # best of 1
    python benchmarks/bench_trace.py --rows 100000    # a larger data set
    python benchmarks/bench_trace.py --rows 10000 100000 1000000  # how the page's cost grows
    python benchmarks/bench_trace.py --rows 1000000 --data default --quick  # one data set
    python benchmarks/bench_trace.py --rows 1000000 --data default --variants verbose=2 \
        --into StringIO --repeat 3                # one variant, into one sink

Data: ``make_classification(n_samples=10_000, n_features=10, random_state=0)`` in two forms,
every tree fully grown (``--max-depth`` limits them; ``--data`` picks the data sets):

* ``clean``: ``n_informative=3, n_redundant=0, class_sep=2.0`` (a tree of a few hundred nodes,
  the size a class looks at);
* ``default``: scikit-learn's defaults (a tree of about 1,300 nodes).

Each trace is printed twice: into an in-memory buffer (``StringIO``: the terminal's speed does
not count) and into a file on disk (what ``python fit.py > trace.txt`` does); the timed run ends
when the fit returns and the file is closed, and its lines are counted afterwards. ``verbose=2``
lists the best thresholds of every numeric candidate as the learner's ``verbose=2`` does (5 a
candidate). The quiet fit of scikit-learn's entropy tree is timed in the same run for scale.

Each traced fit is timed in turn with a quiet fit (quiet, traced, quiet, traced, ...), and its
ratios are to that quiet fit's best. ``x quiet`` compares the best wall-clock times, ``x cpu``
the best processor times (steadier on a busy machine). ``us/line`` is what the page costs a
printed line: the traced fit's best processor time less the quiet fit's, divided by the page's
lines, in microseconds; run at several ``--rows`` it shows whether the page's cost follows its
lines or the data. As the machine's speed drifts (by a fifth from minute to minute on a shared
machine), and at a million rows a fit takes half a minute, that difference of two long fits is a
noisy measure of the page: ``page us`` is the page alone, the processor time of the fit's end
(``Record.finish``, timed by wrapping it: the tree's arrays and, traced, the page) less the
quiet fit's, divided by the lines; ``grow x`` is the traced fit's growth (its processor time
before that end, the search's work for the trace included) over the quiet fit's. Goals (issue "A
trace a student can check by hand"), on both data sets at 10,000 rows: verbose=1 at most 1.5x
the quiet fit; verbose=2 at most 3x and fewer than 50,000 lines (at other sizes the verdict
reads ``-``).
The script always exits with status 0: it measures, it does not test.
"""

from __future__ import annotations

import argparse
import io
import os
import tempfile
import time

from sklearn.datasets import make_classification
from sklearn.tree import DecisionTreeClassifier

from id3tree import ID3Classifier
from id3tree.growth_record import Record
from id3tree.learner import VERBOSE_THRESHOLDS
from id3tree.tracing import PrintTracer

GOALS = {"verbose=1": 1.5, "verbose=2": 3.0}
MAX_LINES = 50_000
GOAL_ROWS = 10_000  # the goals are stated at this size; at others the verdict reads "-"
DATA = {
    "clean": dict(n_informative=3, n_redundant=0, class_sep=2.0),
    "default": {},
}
PARAMS = {"max_depth": None}  # of every fit, id3tree's and scikit-learn's (--max-depth)


FINISHED = [0.0, 0.0]  # processor seconds in Record.finish so far; when the last one began


def time_the_finish() -> None:
    """Count the processor time of every ``Record.finish`` (the end of a fit: the tree's
    arrays and, when a tracer prints, the whole page) into ``FINISHED[0]``, and keep when the
    last one began in ``FINISHED[1]`` (the growth before it is the rest of the fit)."""
    finish = Record.finish

    def timed(self, *args, **kwargs):
        start = FINISHED[1] = time.process_time()
        try:
            return finish(self, *args, **kwargs)
        finally:
            FINISHED[0] += time.process_time() - start

    Record.finish = timed


def best_of(repeats: int, *fits) -> list[tuple[float, float, float, float, object]]:
    """The best wall-clock time, the best processor time, the best processor time of the
    fit's end (``Record.finish``) and of its growth (all before the end) of ``repeats`` runs of
    each of ``fits``, run in turn (a, b, a, b, ...) so that a change in the machine's load hits
    them alike, and the last result of each. On a busy machine the processor time is the
    steadier."""
    n = len(fits)
    wall, cpu, end, growth = ([float("inf")] * n for _ in range(4))
    result = [None] * n
    for _ in range(repeats):
        for i, fit in enumerate(fits):
            start, start_cpu, start_end = time.perf_counter(), time.process_time(), FINISHED[0]
            result[i] = fit()
            wall[i] = min(wall[i], time.perf_counter() - start)
            cpu[i] = min(cpu[i], time.process_time() - start_cpu)
            end[i] = min(end[i], FINISHED[0] - start_end)
            growth[i] = min(growth[i], FINISHED[1] - start_cpu)
    return list(zip(wall, cpu, end, growth, result))


def traced_to_buffer(X, y, max_thresholds: int) -> str:
    """Fit with the trace printed into memory; the page."""
    buffer = io.StringIO()
    ID3Classifier(**PARAMS).fit(X, y, tracer=PrintTracer(buffer, max_thresholds=max_thresholds))
    return buffer.getvalue()


def traced_to_file(X, y, max_thresholds: int, path: str) -> str:
    """Fit with the trace printed into a file on disk (closed, so every line is written); the
    page is read back only to count its lines, outside the timed fit."""
    with open(path, "w", encoding="utf-8") as file:
        tracer = PrintTracer(file, max_thresholds=max_thresholds)
        ID3Classifier(**PARAMS).fit(X, y, tracer=tracer)
    return path


def count_lines(page_or_path: str, into: str) -> int:
    if into == "file":
        with open(page_or_path, encoding="utf-8") as file:
            return sum(1 for _ in file)
    return page_or_path.count("\n")


VARIANTS = {"verbose=1": 0, "verbose=2": VERBOSE_THRESHOLDS}  # and the thresholds each lists
SINKS = ("StringIO", "file")


def measure(
    name: str, options: dict, n_rows: int, repeats: int, path: str, variants=VARIANTS, sinks=SINKS
) -> None:
    X, y = make_classification(n_samples=n_rows, n_features=10, random_state=0, **options)
    [(sk, sk_cpu, *_), (quiet, quiet_cpu, *_, model)] = best_of(
        repeats,
        lambda: DecisionTreeClassifier(criterion="entropy", **PARAMS).fit(X, y),
        lambda: ID3Classifier(**PARAMS).fit(X, y),
    )
    n_nodes = sum(1 for _ in model.root_.walk())
    print(
        f"{name:8} {n_nodes:6} {'sklearn':10} {'':8} {sk:8.3f} {sk / quiet:8.2f} "
        f"{sk_cpu / quiet_cpu:8.2f}"
    )
    print(f"{name:8} {n_nodes:6} {'quiet':10} {'':8} {quiet:8.3f} {1:8.2f} {1:8.2f} {0:8}")
    for verbose, max_thresholds in VARIANTS.items():
        if verbose not in variants:
            continue
        for into, traced in (
            ("StringIO", lambda m=max_thresholds: traced_to_buffer(X, y, m)),
            ("file", lambda m=max_thresholds: traced_to_file(X, y, m, path)),
        ):
            if into not in sinks:
                continue
            # the quiet fit again, in turn with the traced one: each ratio is of one stretch
            [(quiet, quiet_cpu, quiet_end, quiet_growth, _), (seconds, cpu, end, growth, page)] = (
                best_of(repeats, lambda: ID3Classifier(**PARAMS).fit(X, y), traced)
            )
            lines = count_lines(page, into)  # after the timing: reading it back is not the trace
            ratio, cpu_ratio = seconds / quiet, cpu / quiet_cpu
            per_line = (cpu - quiet_cpu) / max(lines, 1) * 1e6
            page_per_line = (end - quiet_end) / max(lines, 1) * 1e6
            growth_ratio = growth / quiet_growth
            ok = ratio <= GOALS[verbose] and (verbose == "verbose=1" or lines < MAX_LINES)
            verdict = f"{'PASS' if ok else 'MISS'} (<= {GOALS[verbose]}x)"
            if n_rows != GOAL_ROWS:
                verdict = "-"
            print(
                f"{name:8} {n_nodes:6} {verbose:10} {into:8} {seconds:8.3f} {ratio:8.2f} "
                f"{cpu_ratio:8.2f} {lines:8} {per_line:9.2f} {page_per_line:8.2f} "
                f"{growth_ratio:6.2f}  {verdict}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="best of 1 instead of 5")
    parser.add_argument(
        "--rows", type=int, nargs="+", default=[10_000], help="rows of each data set (one or more)"
    )
    parser.add_argument("--data", nargs="+", choices=list(DATA), default=list(DATA))
    parser.add_argument("--max-depth", type=int, default=None, help="of every tree (default: none)")
    parser.add_argument("--repeat", type=int, help="best of this many (default: 5; --quick: 1)")
    parser.add_argument("--variants", nargs="+", choices=list(VARIANTS), default=list(VARIANTS))
    parser.add_argument("--into", nargs="+", choices=SINKS, default=list(SINKS))
    args = parser.parse_args()
    PARAMS["max_depth"] = args.max_depth
    repeats = args.repeat or (1 if args.quick else 5)
    time_the_finish()
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "trace.txt")
        for n_rows in args.rows:
            print(f"{n_rows:,} rows, best of {repeats}")
            print(
                f"{'data':8} {'nodes':>6} {'variant':10} {'into':8} {'seconds':>8} "
                f"{'x quiet':>8} {'x cpu':>8} {'lines':>8} {'us/line':>9} {'page us':>8} "
                f"{'grow x':>6}  goal (wall)"
            )
            for name in args.data:
                measure(name, DATA[name], n_rows, repeats, path, args.variants, args.into)


if __name__ == "__main__":
    main()
