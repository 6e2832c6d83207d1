"""id3tree on Dask: a Parquet table larger than one process should hold, on a local cluster.

Usage::

    python benchmarks/bench_dask.py                      # 10,000,000 rows x 100 columns
    python benchmarks/bench_dask.py --rows 2000000       # any size
    python benchmarks/bench_dask.py --quick              # 20,000 rows x 8 columns, the slice only
    python benchmarks/bench_dask.py --path DIR --keep    # keep the generated table in DIR, then:
    python benchmarks/bench_dask.py --path DIR --compare-only --pandas-rows 3000000
    python benchmarks/bench_dask.py --path DIR --compare-only --compare 1 --repeat 3  # MI only

Needs the ``dask`` extra (``pip install "id3tree-learn[dask]"``).

1. **Data.** A partitioned Parquet table is generated in ``--path`` (default: a temporary
   folder), one file of ``--file-rows`` rows at a time, so generating it never holds the table:
   a fifth of the columns are text with 3 to 12 levels, the rest numbers rounded to 2 decimals
   (so each has a few thousand distinct values), about 2% missing; a 3-class target depends on a
   few of them plus noise. Its size in memory (as float64 / category) is printed.
2. **Dask.** A ``distributed.LocalCluster`` (processes, ``--workers`` workers of one thread and
   ``--memory-limit`` each) runs ``mutual_information_matrix(X)``, ``rank_features(X, y)``
   (information gain, exact thresholds) and ``ID3Classifier(max_depth=--depth).fit(X, y)`` (exact
   thresholds, and again with ``numeric_bins=64``) on the whole table, each job on a fresh
   cluster whose workers have imported id3tree (not timed). After each job the peak resident
   memory of every worker process is read (``VmHWM``).
3. **pandas.** The same calls on the first ``--pandas-rows`` rows (the largest slice this machine
   holds comfortably beside the cluster) read with ``pandas.read_parquet``, and Dask on the same
   slice, so the ratio compares like with like: each job runs on Dask, then at once on pandas,
   so that both sides see the same load (``--repeat N``: N such rounds, the best time of each
   side shown; ``--compare 1,3``: only those jobs, by number). The peak resident memory of the
   pandas process (which holds the slice) and of every Dask worker is read after each job.
   ``--compare-only`` reuses the table already in ``--path`` and runs only this comparison.

Everything goes into one table: per job, pandas and Dask on the slice, their ratio and memory
peaks, whether the results are the same, and Dask's time and worker peaks on the whole table
("not run" where a job was not run).

``--quick`` (20,000 rows x 8 columns in files of 5,000 rows, the slice the whole table) runs only
the comparison, every job on one cluster (its worker peaks are then those of the jobs so far):
a smoke run, which the test suite runs to check that its table is complete, not to time it.

It measures; it does not test. Everything is printed as Markdown tables.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import platform
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd


def make_table(path: Path, n_rows: int, n_columns: int, file_rows: int, seed: int = 0) -> None:
    """Write the table as Parquet files of ``file_rows`` rows each (one file in memory at once)."""
    path.mkdir(parents=True, exist_ok=True)
    n_text = max(1, n_columns // 5)
    for start in range(0, n_rows, file_rows):
        rows = min(file_rows, n_rows - start)
        rng = np.random.default_rng([seed, start])
        columns = {}
        hidden = rng.normal(size=rows)
        for k in range(n_columns - n_text):
            values = rng.normal(0, 1, rows) + (0.8 * hidden if k % 7 == 0 else 0.0)
            values = np.round(values * (1 + k % 5), 2)
            values[rng.random(rows) < 0.02] = np.nan
            columns[f"num{k:03d}"] = values
        for k in range(n_text):
            n_levels = 3 + k % 10
            codes = rng.integers(0, n_levels, rows)
            if k % 4 == 0:
                codes = np.where(hidden > 0.8, 0, codes)
            values = pd.Categorical.from_codes(
                codes, categories=[f"t{k}_{v}" for v in range(n_levels)]
            )
            columns[f"txt{k:03d}"] = values
        signal = hidden + 0.5 * columns["num001"] / 2 + rng.normal(0, 0.7, rows)
        columns["target"] = pd.Categorical.from_codes(
            np.digitize(np.nan_to_num(signal), [-0.6, 0.6]), categories=["low", "mid", "high"]
        )
        frame = pd.DataFrame(columns)
        frame.to_parquet(path / f"part-{start // file_rows:05d}.parquet", index=False)


def table_bytes(n_rows: int, n_columns: int) -> int:
    """Bytes the table takes in memory: float64 numbers, one byte per category code."""
    n_text = max(1, n_columns // 5)
    return n_rows * ((n_columns - n_text) * 8 + n_text + 1)


def own_peak_memory() -> int:
    """Peak resident bytes of this process since it started.

    Linux's ``VmHWM``, the high-water mark of this process's own memory. Not ``ru_maxrss``: a
    process started by fork and exec (as a worker is spawned) inherits its parent's maximum
    there, so every worker of a parent that holds a large frame would report the parent's size.
    """
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:  # not Linux: the best the platform offers
        pass
    scale = 1 if sys.platform == "darwin" else 1024  # bytes on macOS, kilobytes elsewhere
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale


def warm_up() -> None:
    """Import what the jobs run on a worker (id3tree's Dask passes, pandas, scikit-learn)."""
    import id3tree.dask.ranking
    import id3tree.dask.tree  # noqa: F401


def peak_memory(client) -> list[int]:
    """Peak resident bytes of every worker process so far."""
    return sorted(client.run(own_peak_memory).values())


def timed(function, *args, **kwargs):
    start = time.perf_counter()
    result = function(*args, **kwargs)
    return time.perf_counter() - start, result


def jobs(X, y, depth: int, bins: int):
    """The benchmark's calls, as (name, callable) pairs."""
    from id3tree import ID3Classifier, mutual_information_matrix, rank_features

    return [
        ("mutual_information_matrix(X)", lambda: mutual_information_matrix(X)),
        ("rank_features(X, y)", lambda: rank_features(X, y)),
        (
            f"ID3Classifier(max_depth={depth}).fit",
            lambda: ID3Classifier(max_depth=depth).fit(X, y),
        ),
        (
            f"ID3Classifier(max_depth={depth}, numeric_bins={bins}).fit",
            lambda: ID3Classifier(max_depth=depth, numeric_bins=bins).fit(X, y),
        ),
    ]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--columns", type=int, default=100)
    parser.add_argument("--file-rows", type=int, default=250_000)
    parser.add_argument("--pandas-rows", type=int, default=1_000_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--memory-limit", default="3GB")
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument(
        "--repeat", type=int, default=1, help="runs of the comparison; best of them is shown"
    )
    parser.add_argument("--bins", type=int, default=64)
    parser.add_argument("--path", type=Path, default=None, help="where the Parquet files go")
    parser.add_argument("--keep", action="store_true", help="keep the generated files")
    parser.add_argument(
        "--quick", action="store_true", help="20,000 rows x 8 columns, the comparison only"
    )
    parser.add_argument("--reuse", action="store_true", help="use the files already in --path")
    parser.add_argument(
        "--only", default=None, help="whole-table jobs to run, by number (e.g. 3,4); 0: none"
    )
    parser.add_argument(
        "--compare",
        default=None,
        help="jobs of the pandas / Dask comparison to run, by number (e.g. 1: the MI matrix)",
    )
    parser.add_argument(
        "--compare-only",
        action="store_true",
        help="reuse the table in --path and run only the pandas / Dask comparison on a slice",
    )
    args = parser.parse_args(argv)
    if args.compare_only:
        if args.path is None or not any(args.path.glob("*.parquet")):
            parser.error("--compare-only needs --path with the Parquet files of an earlier run")
        args.reuse, args.only, args.keep = True, "0", True
    if args.quick:
        args.rows, args.columns, args.file_rows = 20_000, 8, 5_000
        args.pandas_rows, args.only = 20_000, "0"
    args.pandas_rows = min(args.pandas_rows, args.rows)

    from dask import dataframe as dd
    from distributed import Client, LocalCluster

    path = args.path or Path(tempfile.mkdtemp(prefix="id3tree-bench-")) / "table"
    print(f"python {platform.python_version()}, {os.cpu_count()} CPUs, {platform.platform()}")
    reuse = args.reuse and any(path.glob("*.parquet"))
    if reuse:
        args.rows, args.columns, args.file_rows = table_shape(path)
        args.pandas_rows = min(args.pandas_rows, args.rows)
    size = table_bytes(args.rows, args.columns)
    print(
        f"\ntable: {args.rows:,} rows x {args.columns} columns + target, "
        f"{size / 1e9:.2f} GB in memory, files of {args.file_rows:,} rows"
    )
    if reuse:
        print("reusing the Parquet files already there")
    else:
        seconds, _ = timed(make_table, path, args.rows, args.columns, args.file_rows)
        print(f"generated in {seconds:.0f} s")
    on_disk = sum(f.stat().st_size for f in path.glob("*.parquet"))
    print(f"{on_disk / 1e9:.2f} GB of Parquet")

    def new_client(stack: contextlib.ExitStack):
        cluster = stack.enter_context(
            LocalCluster(
                n_workers=args.workers,
                threads_per_worker=1,
                processes=True,
                memory_limit=args.memory_limit,
                dashboard_address=":0",
                silence_logs=logging.ERROR,
            )
        )
        client = stack.enter_context(Client(cluster))
        client.run(warm_up)  # as on a cluster that has run id3tree before: imports done
        return client

    shared = contextlib.ExitStack()
    quick_client = new_client(shared) if args.quick else None

    def on_fresh_cluster(job):
        """Time one job on a new cluster, so that each worker peak belongs to that job alone
        (``client.restart()`` can hang on a loaded machine); ``--quick``: on the one cluster."""
        with contextlib.ExitStack() as stack:
            client = quick_client or new_client(stack)
            seconds, result = timed(job)
            return seconds, result, peak_memory(client)

    whole = {}
    table = dd.read_parquet(path)
    X, y = table.drop(columns=["target"]), table["target"]
    print(f"{table.npartitions} partitions, {args.workers} workers x {args.memory_limit}\n")
    chosen = None if args.only is None else {int(k) for k in args.only.split(",")}
    for number, (name, job) in enumerate(jobs(X, y, args.depth, args.bins), start=1):
        if chosen is not None and number not in chosen:
            continue
        seconds, _, peaks = on_fresh_cluster(job)
        whole[name] = (seconds, peaks)
        print(f"  {name}: {seconds:.1f} s, worker peaks {_gb(peaks)}")
        sys.stdout.flush()

    # the slice pandas holds, in whole files: Dask and pandas on the same rows
    files = sorted(path.glob("*.parquet"))[: max(1, args.pandas_rows // args.file_rows)]
    frame = pd.concat([pd.read_parquet(f) for f in files], ignore_index=True)
    args.pandas_rows = len(frame)
    small = dd.read_parquet(files)
    read_peak = own_peak_memory()
    print(
        f"\nslice: {len(frame):,} rows, pandas process peak {read_peak / 1e9:.2f} GB after reading"
    )
    pandas_jobs = jobs(frame.drop(columns=["target"]), frame["target"], args.depth, args.bins)
    dask_jobs = jobs(small.drop(columns=["target"]), small["target"], args.depth, args.bins)
    best = {}
    compared = None if args.compare is None else {int(k) for k in args.compare.split(",")}
    for _ in range(args.repeat):  # each job on Dask, then at once on pandas: the same load
        pairs = enumerate(zip(dask_jobs, pandas_jobs), start=1)
        for number, ((name, dask_job), (_, pandas_job)) in pairs:
            if "numeric_bins" in name or (compared is not None and number not in compared):
                continue  # binning is a Dask-only option
            dask_seconds, dask_result, peaks = on_fresh_cluster(dask_job)
            pandas_seconds, pandas_result = timed(pandas_job)
            pandas_peak = own_peak_memory()
            same = _same(pandas_result, dask_result)
            print(
                f"  slice {name}: dask {dask_seconds:.1f} s (worker peaks {_gb(peaks)}), pandas "
                f"{pandas_seconds:.1f} s (process peak so far {pandas_peak / 1e9:.2f} GB); "
                f"same result {same}"
            )
            sys.stdout.flush()
            if name in best:  # best of the repeats, each side on its own
                pandas_seconds = min(pandas_seconds, best[name][0])
                dask_seconds = min(dask_seconds, best[name][2])
                same = same and best[name][4]
            best[name] = (pandas_seconds, pandas_peak, dask_seconds, peaks, same)

    shared.close()
    comparison(best, whole, args.pandas_rows, args.rows, args.columns)
    if not args.keep and args.path is None:
        shutil.rmtree(path.parent, ignore_errors=True)
    return 0


def comparison(best: dict, whole: dict, n_rows: int, n_whole: int, n_columns: int) -> None:
    """One table: Dask against pandas on the slice, and Dask on the whole table."""
    slice_size, whole_size = table_bytes(n_rows, n_columns), table_bytes(n_whole, n_columns)
    print(
        f"\n### The slice pandas holds: {n_rows:,} rows x {n_columns} columns "
        f"({slice_size / 1e9:.1f} GB); the whole table: {n_whole:,} rows "
        f"({whole_size / 1e9:.1f} GB)\n"
    )
    print(
        "| job | pandas | pandas process peak (so far) | Dask, same rows | Dask worker peaks "
        "| Dask / pandas | same result | Dask, whole table | Dask worker peaks, whole table |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for name in dict.fromkeys([*best, *whole]):
        cells = ["not run"] * 6
        if name in best:
            pandas_seconds, pandas_peak, dask_seconds, peaks, same = best[name]
            cells = [
                _s(pandas_seconds), f"{pandas_peak / 1e9:.2f} GB", _s(dask_seconds), _gb(peaks),
                f"{dask_seconds / pandas_seconds:.2f}", str(same),
            ]  # fmt: skip
        seconds, peaks = whole.get(name, (None, None))
        cells += ["not run", "not run"] if seconds is None else [_s(seconds), _gb(peaks)]
        print(f"| `{name}` | " + " | ".join(cells) + " |")


def table_shape(path: Path) -> tuple[int, int, int]:
    """Rows, feature columns and rows per file of a table already written in ``path``."""
    import pyarrow.parquet as pq

    files = sorted(path.glob("*.parquet"))
    rows = [pq.ParquetFile(f).metadata.num_rows for f in files]
    n_columns = len(pq.ParquetFile(files[0]).schema_arrow.names) - 1  # less the target
    return sum(rows), n_columns, rows[0]


def _s(seconds: float) -> str:
    return f"{seconds:.3g} s"


def _gb(peaks) -> str:
    return ", ".join(f"{p / 1e9:.2f} GB" for p in peaks)


def _same(a, b) -> bool:
    """The pandas and Dask results agree (frames to 1e-12, trees node for node)."""
    if isinstance(a, pd.DataFrame):
        if not (a.index.equals(b.index) and a.columns.equals(b.columns)):
            return False
        numbers = a.select_dtypes("number").columns
        others = a.columns.difference(numbers)
        return bool(
            np.allclose(a[numbers], b[numbers], rtol=0, atol=1e-12, equal_nan=True)
            and a[others].equals(b[others])
        )
    return a.to_dict() == b.to_dict()


if __name__ == "__main__":
    sys.exit(main())
