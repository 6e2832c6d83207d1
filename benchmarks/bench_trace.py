"""What the printed trace costs: verbose=1 and verbose=2 against the quiet fit, in one run.

Usage::

    python benchmarks/bench_trace.py                  # best of 5, 10,000 rows
    python benchmarks/bench_trace.py --quick          # best of 1
    python benchmarks/bench_trace.py --rows 100000    # a larger data set
    python benchmarks/bench_trace.py --rows 10000 100000 1000000  # how the page's cost grows
    python benchmarks/bench_trace.py --rows 1000000 --data default --quick  # one data set
    python benchmarks/bench_trace.py --rows 1000000 --data default --variants verbose=2 \
        --into StringIO --repeat 3                # one variant, into one sink
    python benchmarks/bench_trace.py --by-size --rows 10000 100000 1000000 --rounds 5
                                                  # a printed line's cost by size

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

``--by-size`` answers whether what the page costs a line grows with the data, on the same
machine state: each size runs in a process of its own, the sizes in turn (a round), for
``--rounds`` rounds; each process fits the ``default`` data in turns, a quiet fit then one with
``verbose=2`` into each of two sinks: a ``StringIO`` and a sink that keeps only the page's
length (``discarded``: what making and handing over the page costs, none of the sink's own work;
a StringIO of a million rows' page grows a buffer of some 1.5 GB). Each turn gives its own
figures, and the table shows, by size and sink, their median over all turns (and the lowest and
highest): the wall-clock ratio, the growth's (``grow x``), and what the trace costs a line in
processor time: the whole of it (traced less quiet), the page (the fit's end, as ``page us``)
and the search's work for the trace during the growth. A turn's fits follow each other, so the
machine's drift hits them alike; the medians of many turns from every round compare the sizes
on the same machine, where the best of a few short fits against the best of one long fit would
not. scikit-learn's entropy tree is timed once a size (the first round) for scale.

The script always exits with status 0: it measures, it does not test.
"""

from __future__ import annotations

import argparse
import gc
import io
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

from sklearn.datasets import make_classification
from sklearn.tree import DecisionTreeClassifier

from id3tree import ID3Classifier
from id3tree.engine.record import Record
from id3tree.trace.listener import VERBOSE_THRESHOLDS
from id3tree.trace.tracers import PrintTracer

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


# ---------------------------------------------------------------------------------------------
# --by-size: what a printed line costs at each size, on the same machine state
# ---------------------------------------------------------------------------------------------
class Discarded:
    """A sink that keeps nothing of the page but its length: what making and handing over the
    page costs, none of a sink's own work (a StringIO grows its buffer, a file encodes and
    writes)."""

    def __init__(self):
        self.chars = 0

    def write(self, text: str) -> None:
        self.chars += len(text)


BY_SIZE_SINKS = ("StringIO", "discarded")


def timed_fit(X, y, into: str | None) -> dict:
    """One fit of ``default`` data, quiet (``into`` None) or with the page of ``verbose=2``
    printed ``into`` one of :data:`BY_SIZE_SINKS`: its wall-clock and processor seconds, those
    of its end (``Record.finish``) and its growth (before the end), its nodes and its page's
    characters (and lines, counted from a StringIO after the timing)."""
    sink = io.StringIO() if into == "StringIO" else Discarded()
    tracer = (
        {} if into is None else {"tracer": PrintTracer(sink, max_thresholds=VERBOSE_THRESHOLDS)}
    )
    gc.collect()  # (a collection the last fit left due does not fall in this one)
    start, start_cpu, start_end = time.perf_counter(), time.process_time(), FINISHED[0]
    model = ID3Classifier(**PARAMS).fit(X, y, **tracer)
    cpu, wall = time.process_time() - start_cpu, time.perf_counter() - start
    page = sink.getvalue() if into == "StringIO" else None
    return {
        "wall": wall, "cpu": cpu, "end": FINISHED[0] - start_end,
        "growth": FINISHED[1] - start_cpu, "nodes": sum(1 for _ in model.root_.walk()),
        "chars": len(page) if page is not None else sink.chars,
        "lines": page.count("\n") if page is not None else None,
    }  # fmt: skip


def turns_of_one_size(n_rows: int, n_turns: int, with_sklearn: bool) -> None:
    """The child process of ``--by-size``: ``n_turns`` turns at ``n_rows`` rows, each a quiet fit
    then one traced into each of :data:`BY_SIZE_SINKS`, a JSON line a turn (and scikit-learn's
    fit once, ``with_sklearn``)."""
    time_the_finish()
    X, y = make_classification(n_samples=n_rows, n_features=10, random_state=0)
    if n_rows <= 50_000:  # (small fits: one of each first, so no turn pays for a first call)
        for into in (None, "StringIO"):
            timed_fit(X, y, into)
    if with_sklearn:
        start = time.perf_counter()
        DecisionTreeClassifier(criterion="entropy", **PARAMS).fit(X, y)
        print(json.dumps({"rows": n_rows, "sklearn": time.perf_counter() - start}), flush=True)
    for _ in range(n_turns):
        turn = {"rows": n_rows, "quiet": timed_fit(X, y, None)}
        turn |= {into: timed_fit(X, y, into) for into in BY_SIZE_SINKS}
        print(json.dumps(turn), flush=True)


def by_size(sizes: list[int], rounds: int, turns: int | None) -> None:
    """``--by-size``: every size in a process of its own, the sizes in turn, ``rounds`` times;
    then the table of :func:`per_line_table`."""
    found = {n: [] for n in sizes}
    for r in range(rounds):
        for n_rows in sizes:
            command = [sys.executable, __file__, "--turns-of", str(n_rows)]
            command += [str(turns or turns_at(n_rows))] + (["--sklearn"] if r == 0 else [])
            if PARAMS["max_depth"] is not None:
                command += ["--max-depth", str(PARAMS["max_depth"])]
            child = subprocess.run(command, capture_output=True, text=True)
            if child.returncode:
                raise SystemExit(f"{n_rows:,} rows: the fits failed\n{child.stderr}")
            found[n_rows] += [json.loads(line) for line in child.stdout.splitlines()]
        print(f"round {r + 1} of {rounds} done", flush=True)
    per_line_table(found, rounds)


def turns_at(n_rows: int) -> int:
    """How many turns a size's process fits a round: a few seconds' worth."""
    return max(1, int(1.5 * (1_000_000 / n_rows) ** 0.5))


def spread(values: list[float]) -> str:
    """The median of ``values``, then their lowest and highest: ``3.01 [1.95..3.63]``."""
    return f"{statistics.median(values):.2f} [{min(values):.2f}..{max(values):.2f}]"


def per_line(turns: list[dict], into: str, key: str) -> list[float]:
    """Of each turn, the fit traced ``into`` a sink: its ``key`` (seconds) less the quiet fit's,
    in microseconds a line of the page."""
    return [(t[into][key] - t["quiet"][key]) * 1e6 / t["StringIO"]["lines"] for t in turns]


def per_line_table(found: dict, rounds: int) -> None:
    """The table of ``--by-size``, a row a size and sink, from the turns ``found`` of each: the
    median (lowest..highest) of each turn's ratios and costs a line, and scikit-learn's fit
    over the quiet fit's median."""
    print(
        f"verbose=2, default data; medians [lowest..highest] of the turns of {rounds} "
        "round(s); us: microseconds of processor time a printed line"
    )
    names = ["x quiet (wall)", "grow x", "trace us", "page us", "growth us"]
    print(
        f"{'rows':>9} {'nodes':>7} {'lines':>8} {'chars':>5} {'turns':>5} {'sklearn x':>9} "
        f"{'into':9} " + " ".join(f"{name:>19}" for name in names)
    )
    page = {}
    for n_rows, records in sorted(found.items()):
        turns = [r for r in records if "quiet" in r]
        sklearn = [r["sklearn"] for r in records if "sklearn" in r][0]
        traced = turns[0]["StringIO"]
        quiet = statistics.median(t["quiet"]["wall"] for t in turns)
        for into in BY_SIZE_SINKS:
            page[n_rows, into] = per_line(turns, into, "end")
            columns = [
                [t[into]["wall"] / t["quiet"]["wall"] for t in turns],
                [t[into]["growth"] / t["quiet"]["growth"] for t in turns],
                per_line(turns, into, "cpu"),
                page[n_rows, into],
                per_line(turns, into, "growth"),
            ]
            print(
                f"{n_rows:9,} {traced['nodes']:7} {traced['lines']:8} "
                f"{traced['chars'] / traced['lines']:5.0f} {len(turns):5} "
                f"{sklearn / quiet:9.2f} {into:9} "
                + " ".join(f"{spread(column):>19}" for column in columns)
            )
    smallest, largest = min(found), max(found)
    for into in BY_SIZE_SINKS:
        growth = statistics.median(page[largest, into]) / statistics.median(page[smallest, into])
        print(f"page us at {largest:,} rows / at {smallest:,} rows (medians), {into}: {growth:.2f}")


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
    parser.add_argument(
        "--by-size", action="store_true", help="the cost a line at each --rows, same machine state"
    )
    parser.add_argument("--rounds", type=int, default=3, help="--by-size: rounds of every size")
    parser.add_argument("--turns", type=int, help="--by-size: turns a size and round")
    parser.add_argument("--turns-of", type=int, nargs=2, help=argparse.SUPPRESS)  # (a child)
    parser.add_argument("--sklearn", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    PARAMS["max_depth"] = args.max_depth
    if args.turns_of:
        return turns_of_one_size(*args.turns_of, with_sklearn=args.sklearn)
    if args.by_size:
        return by_size(args.rows, args.rounds, args.turns)
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
