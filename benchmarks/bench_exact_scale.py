"""The exact tree at ten million rows: id3tree on a Dask LocalCluster beside LightGBM and XGBoost.

Two generated tables (nothing is downloaded), shaped like two public benchmarks:

* ``higgs``: like HIGGS (11,000,000 x 28 numbers, two classes); the values are rounded to three
  decimals, so a node's exact counts stay far smaller than its rows;
* ``airline``: like the Airline delays data (10,000,000 rows): carrier (20 values), origin and
  destination (300 each) as text, and hour, distance and day of week as numbers.

For each: an exact id3tree fit (``max_depth``, default 20) on a ``distributed.LocalCluster``
over all the rows, with its time (and per level: the time over the depth reached) and the
workers' peak memory; the same learner in memory on the slice of the first ``--slice-rows`` rows
and on Dask on that slice, whose trees must hash alike (sha256 of ``to_json()``); and single
trees of LightGBM and XGBoost (``hist``, 255 bins; XGBoost ``exact`` too) on the slice in memory
(codes for the text columns): accuracy on fresh rows, nodes, time, and whether their root's
feature and their first level's features agree with the exact tree's. A contender that is not
installed is skipped, and the script says so (``pip install "id3tree-learn[bench]"``).

    python benchmarks/bench_exact_scale.py                         # the full scale
    python benchmarks/bench_exact_scale.py --rows 1000000 --slice-rows 1000000
    python benchmarks/bench_exact_scale.py --quick                 # a smoke run (tiny, no timing)
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import resource
import time
import warnings

import numpy as np
import pandas as pd

from id3tree import ID3Classifier

PARTITION_ROWS = 500_000
CARRIERS, AIRPORTS = 20, 300


def higgs_part(seed: int, n: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 28))
    X[:, 21:] = np.abs(X[:, 21:]) + 0.5 * np.abs(X[:, :7])  # "high-level" features
    signal = X[:, 25] - 0.8 * X[:, 26] + 0.5 * X[:, 0] * X[:, 3] + 0.4 * np.sin(3 * X[:, 5])
    y = (signal + rng.normal(0, 1.0, n) > 0.4).astype(np.int64)
    frame = pd.DataFrame(np.round(X, 3), columns=[f"f{i:02d}" for i in range(28)])
    frame["target"] = y
    return frame


def airline_part(seed: int, n: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    carrier = rng.zipf(1.6, n) % CARRIERS
    origin, dest = rng.zipf(1.3, n) % AIRPORTS, rng.zipf(1.3, n) % AIRPORTS
    hour = rng.integers(5, 24, n)
    distance = np.round(rng.gamma(2.0, 400.0, n), -1)
    day = rng.integers(1, 8, n)
    effect = np.random.default_rng(0).normal(0, 0.6, CARRIERS + 2 * AIRPORTS)
    signal = effect[carrier] + effect[CARRIERS + origin] + 0.5 * effect[CARRIERS + AIRPORTS + dest]
    signal += 0.08 * (hour - 14) + 0.0002 * distance + 0.1 * (day >= 6)
    y = (signal + rng.normal(0, 1.0, n) > 0.5).astype(np.int64)
    return pd.DataFrame(
        {
            "carrier": [f"C{c:02d}" for c in carrier],
            "origin": [f"A{a:03d}" for a in origin],
            "dest": [f"A{a:03d}" for a in dest],
            "hour": hour,
            "distance": distance,
            "day_of_week": day,
            "target": y,
        }
    )


SHAPES = {"higgs": (higgs_part, 11_000_000), "airline": (airline_part, 10_000_000)}


def parts(rows: int, partition_rows: int) -> list[tuple[int, int]]:
    return [(k, min(partition_rows, rows - start)) for k, start in
            enumerate(range(0, rows, partition_rows))]  # fmt: skip


def in_memory(make, rows: int, partition_rows: int) -> pd.DataFrame:
    return pd.concat([make(*p) for p in parts(rows, partition_rows)], ignore_index=True)


def on_dask(make, rows: int, partition_rows: int):
    import dask.dataframe as dd

    return dd.from_map(lambda p: make(*p), parts(rows, partition_rows))


def tree_hash(model) -> str:
    return hashlib.sha256(model.to_json().encode()).hexdigest()[:16]


def worker_peaks(client) -> str:
    def peak() -> float:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20  # GB (Linux: KB)

    return ", ".join(f"{v:.2f} GB" for v in client.run(peak).values())


def codes(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.apply(
        lambda c: c if pd.api.types.is_numeric_dtype(c) else c.astype("category").cat.codes
    )


def binned_contenders(max_depth: int):
    """(name, make) of every contender installed; the names of those that are not."""
    found, missing = [], []
    if importlib.util.find_spec("lightgbm"):
        import lightgbm

        found.append(("LightGBM hist 255", lambda: lightgbm.LGBMClassifier(
            n_estimators=1, learning_rate=1.0, max_depth=max_depth, num_leaves=min(2**17, 2**max_depth),
            max_bin=255, min_child_samples=1, min_child_weight=0.0, reg_lambda=0.0,
            n_jobs=1, verbose=-1)))  # fmt: skip
    else:
        missing.append("lightgbm")
    if importlib.util.find_spec("xgboost"):
        import xgboost

        for method in ("hist", "exact"):
            found.append((f"XGBoost {method}" + (" 255" if method == "hist" else ""),
                          lambda method=method: xgboost.XGBClassifier(
                n_estimators=1, learning_rate=1.0, max_depth=max_depth, tree_method=method,
                max_bin=255, min_child_weight=0.0, reg_lambda=0.0, n_jobs=1)))  # fmt: skip
    else:
        missing.append("xgboost")
    return found, missing


def first_features(model, names: list[str]) -> tuple[str | None, set[str]]:
    """The root's feature and the features of its children (first level), of any contender."""
    if isinstance(model, ID3Classifier):
        root = model.root_
        return root.feature, {c.feature for c in root.children.values() if c.feature is not None}
    if hasattr(model, "booster_"):  # LightGBM
        tree = model.booster_.dump_model()["tree_info"][0]["tree_structure"]
        kids = [tree.get(side, {}) for side in ("left_child", "right_child")]
        return names[tree.get("split_feature", -1)] if "split_feature" in tree else None, {
            names[k["split_feature"]] for k in kids if "split_feature" in k
        }
    frame = model.get_booster().trees_to_dataframe()
    root = frame[frame["Node"] == 0].iloc[0]
    kids = frame[frame["ID"].isin([root["Yes"], root["No"]]) & (frame["Feature"] != "Leaf")]
    return root["Feature"], set(kids["Feature"])


def n_nodes(model) -> int:
    if isinstance(model, ID3Classifier):
        return int(model._tree.n_nodes)
    if hasattr(model, "booster_"):
        return 2 * model.booster_.dump_model()["tree_info"][0]["num_leaves"] - 1
    return len(model.get_booster().trees_to_dataframe())


def run_shape(name, args, client, print_row) -> None:
    make, full_rows = SHAPES[name]
    rows = args.rows or full_rows
    slice_rows = min(args.slice_rows, rows)
    depth = args.max_depth
    table = in_memory(make, slice_rows, args.partition_rows)
    X, y = table.drop(columns="target"), table["target"].to_numpy()
    test = make(10**6 + 7, args.test_rows)
    X_test, y_test = test.drop(columns="target"), test["target"].to_numpy()
    names = list(X.columns)

    start = time.perf_counter()
    exact = ID3Classifier(max_depth=depth).fit(X, y)
    memory_time = time.perf_counter() - start
    lazy = on_dask(make, slice_rows, args.partition_rows)
    on_slice = ID3Classifier(max_depth=depth).fit(lazy.drop(columns="target"), lazy["target"])
    same = tree_hash(on_slice) == tree_hash(exact)
    print_row(name, "id3tree exact, in memory", slice_rows, exact, X_test, y_test, memory_time,  # noqa: E501
              f"tree {tree_hash(exact)}; Dask on the same rows: {'same tree' if same else 'DIFFERS'}")  # fmt: skip
    root, level = first_features(exact, names)
    if rows > slice_rows:
        whole = on_dask(make, rows, args.partition_rows)
        start = time.perf_counter()
        big = ID3Classifier(max_depth=depth).fit(whole.drop(columns="target"), whole["target"])
        took = time.perf_counter() - start
        print_row(name, "id3tree exact, Dask LocalCluster", rows, big, X_test, y_test, took,
                  "depth {}; per level and worker peaks: {}".format(big.get_depth(),
                  "-" if args.quick else f"{took / max(1, big.get_depth()):.1f} s; "
                  f"{worker_peaks(client)}"))  # fmt: skip
    contenders, missing = binned_contenders(depth)
    for label in missing:
        print(f"  ({label} is not installed: its rows are skipped)")
    coded, coded_test = codes(X), codes(X_test)
    for label, new in contenders:
        start = time.perf_counter()
        model = new().fit(coded, y)
        took = time.perf_counter() - start
        their_root, their_level = first_features(model, names)
        agree = f"root {'agrees' if their_root == root else 'differs'} ({their_root} / {root}); "
        agree += f"first level {len(their_level & level)} of {len(level)} features shared"
        print_row(name, label, slice_rows, model, coded_test, y_test, took, agree)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shapes", nargs="+", choices=list(SHAPES), default=list(SHAPES))
    parser.add_argument("--rows", type=int, default=None, help="all rows (default: 11e6, 10e6)")
    parser.add_argument("--slice-rows", type=int, default=1_000_000,
                        help="rows fitted in memory too (default: 1,000,000)")  # fmt: skip
    parser.add_argument("--test-rows", type=int, default=200_000)
    parser.add_argument("--partition-rows", type=int, default=PARTITION_ROWS)
    parser.add_argument("--max-depth", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--memory-limit", default="3GB", help="per worker (default: 3GB)")
    parser.add_argument("--quick", action="store_true", help="a tiny smoke run, no timing")
    args = parser.parse_args(argv)
    if args.quick:
        args.rows, args.slice_rows, args.test_rows = 4_000, 2_000, 1_000
        args.partition_rows, args.max_depth = 1_000, 4
    warnings.simplefilter("ignore")  # large graphs, identifier-like categories: not the point
    from distributed import Client, LocalCluster

    cluster = LocalCluster(
        n_workers=args.workers, threads_per_worker=1, memory_limit=0 if args.quick else args.memory_limit,
        processes=not args.quick, dashboard_address=None,
    )  # fmt: skip
    client = Client(cluster)
    print(f"| data | learner | rows fitted | accuracy | nodes | time | notes |\n|{'---|' * 7}")

    def print_row(shape, label, n, model, X_test, y_test, seconds, note) -> None:
        accuracy = float(np.mean(np.asarray(model.predict(X_test)) == y_test))
        shown = "-" if args.quick else f"{seconds:.1f} s"
        print(f"| {shape} | {label} | {n:,} | {accuracy:.4f} | {n_nodes(model):,} | {shown} "
              f"| {note} |", flush=True)  # fmt: skip

    try:
        for name in args.shapes:
            run_shape(name, args, client, print_row)
    finally:
        client.close()
        cluster.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
