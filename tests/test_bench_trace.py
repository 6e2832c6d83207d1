"""The trace's benchmark still runs: its ``--by-size`` table, as a smoke run (no time is asserted).

``benchmarks/bench_trace.py --by-size`` fits each size in a process of its own, quiet and traced
into two sinks in turn, and prints a row a size and sink. This test reads that table on two
small sizes and checks what does not depend on the machine: a row for each size and sink, the
tree's nodes and the page's lines and length as a fit of the same data here gives them, every
column a median within its lowest and highest (the ratios positive), and the closing ratios of
the page's cost a line, largest size over smallest.
"""

from __future__ import annotations

import functools
import io
import re
import subprocess
import sys
from pathlib import Path

from sklearn.datasets import make_classification

from id3tree import ID3Classifier
from id3tree.trace.listener import VERBOSE_THRESHOLDS
from id3tree.trace.tracers import PrintTracer

ROOT = Path(__file__).resolve().parents[1]
SIZES = (600, 1200)
SPREAD = r"(-?\d+\.\d\d) \[(-?\d+\.\d\d)\.\.(-?\d+\.\d\d)\]"
ROW = re.compile(
    r"^\s*(?P<rows>[\d,]+)\s+(?P<nodes>\d+)\s+(?P<lines>\d+)\s+(?P<chars>\d+)\s+(?P<turns>\d+)"
    r"\s+(?P<sklearn>\d+\.\d\d) (?P<into>StringIO|discarded)" + rf"\s+{SPREAD}" * 5 + "$"
)
SINKS = ["StringIO", "discarded"]


@functools.cache
def the_page(n_rows: int) -> tuple[int, int, int]:
    """The nodes of the fully grown tree of the benchmark's data, the lines of its page and
    their characters a line."""
    X, y = make_classification(n_samples=n_rows, n_features=10, random_state=0)
    buffer = io.StringIO()
    tracer = PrintTracer(buffer, max_thresholds=VERBOSE_THRESHOLDS)
    model = ID3Classifier(max_depth=None).fit(X, y, tracer=tracer)
    page = buffer.getvalue()
    return sum(1 for _ in model.root_.walk()), page.count("\n"), round(len(page) / page.count("\n"))


def test_by_size_prints_a_row_a_size_with_the_page_of_each():
    command = [sys.executable, str(ROOT / "benchmarks" / "bench_trace.py"), "--by-size"]
    command += ["--rows", *map(str, SIZES), "--rounds", "1", "--turns", "3"]  # a process a size
    run = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    rows = [m for m in map(ROW.match, run.stdout.splitlines()) if m]
    assert [(int(m["rows"].replace(",", "")), m["into"]) for m in rows] == [
        (n, into) for n in SIZES for into in SINKS
    ]
    for m in rows:
        page = the_page(int(m["rows"].replace(",", "")))
        assert (int(m["nodes"]), int(m["lines"]), int(m["chars"])) == page
        assert int(m["turns"]) == 3  # one round of three turns
        assert float(m["sklearn"]) > 0
        numbers = [float(x) for x in m.groups()[ROW.groupindex["into"] :]]  # (those after it)
        for median, low, high in zip(numbers[::3], numbers[1::3], numbers[2::3]):
            assert low <= median <= high
        assert numbers[0] > 0 and numbers[3] > 0  # the ratios of a traced fit to a quiet one
    for into in SINKS:
        assert (
            f"page us at {SIZES[-1]:,} rows / at {SIZES[0]:,} rows (medians), {into}: "
            in run.stdout
        )
