"""The Dask benchmark still runs: its quick mode, as a smoke run (no time is asserted).

``benchmarks/bench_dask.py --quick`` writes a small Parquet table, starts a
``distributed.LocalCluster`` of two worker processes and runs the comparison with pandas on the
same rows. This test reads the table it prints and checks what does not depend on the machine:
every column and every job is there, times and memory peaks are positive numbers, the ratio is
the ratio of the two times shown, and both engines gave the same result.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("distributed")
pytest.importorskip("pyarrow")

ROOT = Path(__file__).resolve().parents[1]

COLUMNS = [
    "job",
    "pandas",
    "pandas process peak (so far)",
    "Dask, same rows",
    "Dask worker peaks",
    "Dask / pandas",
    "same result",
    "Dask, whole table",
    "Dask worker peaks, whole table",
]
JOBS = ["mutual_information_matrix(X)", "rank_features(X, y)", "ID3Classifier(max_depth=3).fit"]
SECONDS = re.compile(r"^(\d+(\.\d+)?(e-?\d+)?) s$")
GB = re.compile(r"^\d+\.\d\d GB$")


def quick_run(tmp_path, *options: str) -> str:
    """What ``bench_dask.py --quick`` (with ``options``) prints, once it has run to the end."""
    env = dict(os.environ, PYTHONWARNINGS="ignore")
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_dask.py"), "--quick", *options]
        + ["--path", str(tmp_path / "table")],
        capture_output=True,
        text=True,
        env=env,
        timeout=900,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    return run.stdout


def test_the_quick_dask_benchmark_prints_a_complete_table(tmp_path):
    lines = quick_run(tmp_path).splitlines()
    title = next(i for i, line in enumerate(lines) if line.startswith("### The slice pandas"))
    assert "20,000 rows x 8 columns" in lines[title]
    header = [cell.strip() for cell in lines[title + 2].strip("|").split("|")]
    assert header == COLUMNS
    rows = [
        [cell.strip() for cell in line.strip("|").split("|")]
        for line in lines[title + 4 :]
        if line.startswith("| `")
    ]
    assert [row[0].strip("`") for row in rows] == JOBS
    for job, pandas, pandas_peak, dask, dask_peaks, ratio, same, *whole in rows:
        assert whole == ["not run", "not run"]  # --quick runs the comparison only
        assert SECONDS.match(pandas) and SECONDS.match(dask), (pandas, dask)
        seconds = float(pandas[:-2]), float(dask[:-2])
        assert min(seconds) > 0
        assert GB.match(pandas_peak)
        peaks = dask_peaks.split(", ")
        assert len(peaks) == 2 and all(GB.match(p) and float(p[:-3]) > 0 for p in peaks)
        # the ratio is the one of the times shown (each rounded to 3 significant digits)
        assert float(ratio) == pytest.approx(seconds[1] / seconds[0], rel=0.02, abs=0.01)
        assert same == "True", job


def test_the_comparison_runs_only_the_jobs_asked_for(tmp_path):
    lines = quick_run(tmp_path, "--compare", "1", "--workers", "1").splitlines()
    rows = [line for line in lines if line.startswith("| `")]
    assert [row.split("|")[1].strip().strip("`") for row in rows] == JOBS[:1]
