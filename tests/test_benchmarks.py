"""The learner's benchmark suite still runs: its quick mode, as a smoke run (no time is asserted).

The quick mode runs every row of ``benchmarks/bench_learner.py`` once, on at most 2,000 rows (a
smoke run: it checks every row is still there, it does not measure). This test reads the table
it prints and checks what does not depend on the machine: every kind of row of the README's
table is there, with positive times and the ratio of the two times it shows.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

ROW = re.compile(
    r"^  (?P<name>(fit|predict|memory|tracing)\S*.*?)\s+(?P<ours>\d+\.\d+)\s+(?P<other>\d+\.\d+)"
    r"\s+(?P<ratio>\d+\.\d+)\s+(?P<goal><= [\d.]+|-)(\s+(?P<verdict>PASS|MISS))?$"
)

# a word of every kind of row the suite must keep (issues 13 and 15)
EXPECTED = [
    "fit numeric 2 classes d=10",
    "fit numeric 2 classes d=100",
    "fit numeric 10 classes",
    "fit numeric 100 classes",
    "fit 100 distinct values per column",
    "fit max_depth=5",
    "fit numeric weighted",
    "fit numeric weighted 3 classes",
    "predict d=10 tree",
    "predict_proba d=10 tree",
    "predict d=100 tree",
    "predict_proba d=100 tree",
    "predict 100-distinct tree",
    "predict_proba 100-distinct tree",
    "predict categorical tree",
    "predict_proba categorical tree",
    "predict mixed tree",
    "predict_proba mixed tree",
    "fit categorical 20 columns",
    "fit small numeric n=1,000",
    "fit small categorical n=",
    "fit small mixed n=1,000",
    "predict from strings",
    "memory: peak RSS of the fit",
    "memory: peak above the loaded data",
    "memory: kept after the fit",
    "tracing overhead",
]


def test_the_quick_benchmark_runs_every_row():
    env = dict(os.environ, PYTHONWARNINGS="ignore")
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_learner.py"), "--quick"],
        capture_output=True,
        text=True,
        env=env,
        timeout=900,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    rows = [m for m in map(ROW.match, run.stdout.splitlines()) if m]
    names = [m["name"] for m in rows]
    for word in EXPECTED:
        assert any(word in name for name in names), f"no row {word!r} in:\n{run.stdout}"
    for m in rows:
        ours, other, ratio = float(m["ours"]), float(m["other"]), float(m["ratio"])
        assert ours > 0 and other > 0, m.group(0)
        # the ratio printed is the ratio of the two times printed (each rounded to 4 decimals)
        low, high = max(ours - 5e-5, 0) / (other + 5e-5), (ours + 5e-5) / max(other - 5e-5, 1e-9)
        assert low - 5e-4 <= ratio <= high + 5e-4, m.group(0)
        if m["goal"] != "-":  # PASS when the ratio meets the goal (up to the printed rounding)
            goal = float(m["goal"][3:])
            if abs(ratio - goal) > 5e-4:
                assert m["verdict"] == ("PASS" if ratio < goal else "MISS"), m.group(0)
    missed = [m for m in rows if m["verdict"] == "MISS"]
    assert f"{len(rows)} rows, {len(missed)} goals missed" in run.stdout, run.stdout[-800:]


def test_the_exact_scale_benchmark_runs_tiny():
    """bench_exact_scale.py --quick: both shapes, the exact tree in memory and on Dask (the same
    tree on the same rows), the whole table on Dask, and each contender or the word that it is
    skipped; no time is shown or asserted."""
    import pytest

    pytest.importorskip("distributed")
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_exact_scale.py"), "--quick"],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONWARNINGS="ignore"),
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    rows = [line.split(" | ") for line in run.stdout.splitlines() if line.startswith("| ")][1:]
    for shape in ("higgs", "airline"):
        mine = {row[1]: row for row in rows if row[0] == "| " + shape}
        assert "same tree" in mine["id3tree exact, in memory"][-1]
        assert "id3tree exact, Dask LocalCluster" in mine
        for row in mine.values():
            assert 0.0 <= float(row[3]) <= 1.0 and int(row[4].replace(",", "")) >= 1
            assert row[5] == "-"  # no timing in the smoke run
    for name, label in (("lightgbm", "LightGBM hist 255"), ("xgboost", "XGBoost exact")):
        installed = label in {row[1] for row in rows}
        assert installed or f"({name} is not installed" in run.stdout
