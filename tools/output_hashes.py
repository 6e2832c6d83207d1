"""Hashes of everything id3tree prints or returns, to prove that a refactor changed no output.

A refactor must keep every output byte for byte. Run this before the change to save the hashes,
and after it to compare::

    python tools/output_hashes.py --save before.json        # on the commit you start from
    python tools/output_hashes.py --check before.json       # on your change: lists what differs

Each entry is one output of one fit (``to_json``, ``trace_`` at full precision, ``predict_proba``
as bytes, the printed pages at ``verbose=1`` and ``verbose=2``, the events of a
``RecordingTracer``, the teaching tools, the drawings as text) or of one ranking or test
function, over the shipped data sets and generated data of many shapes and settings. The
reference file depends on the versions of numpy and pandas: make both files on one machine.

``--only WORD`` keeps the entries whose name contains WORD (``--only fit/iris/`` makes only the
fits of Iris, so it is quick); ``--list`` prints the names and hashes.
``--dask`` adds fits on Dask DataFrames (a local cluster); ``--full`` writes the teaching tools
(steps, worked solutions, the page) of every small fit, not only of fits of at most 300 rows or
depth 3 (about ten minutes instead of three).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import sys
import warnings
from collections.abc import Callable, Iterator

import numpy as np
import pandas as pd

import id3tree
from id3tree import ID3Classifier
from id3tree.datasets import load
from id3tree.trace.tracers import PrintTracer, RecordingTracer


def _digest(value) -> str:
    """One hash of a str, bytes, array, frame or JSON-able value."""
    if isinstance(value, pd.DataFrame | pd.Series):
        value = value.to_csv(float_format="%.17g").encode()
    elif isinstance(value, np.ndarray):
        value = value.dtype.str.encode() + repr(value.shape).encode() + value.tobytes()
    elif isinstance(value, str):
        value = value.encode()
    elif not isinstance(value, bytes):
        value = json.dumps(value, sort_keys=True, default=repr).encode()
    return hashlib.sha256(value).hexdigest()[:16]


def _printed(fit: Callable[[], object]) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        fit()
    return out.getvalue()


# ---------------------------------------------------------------------------------------------
# the data
# ---------------------------------------------------------------------------------------------
def _generated(n: int, d: int, seed: int, *, k: int = 2, rounded: int | None = None):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    if rounded is not None:
        X = np.round(X, rounded)
    w = rng.normal(size=(d, k))
    y = np.argmax(X @ w + rng.normal(scale=1.0, size=(n, k)), axis=1)
    return pd.DataFrame(X, columns=[f"x{i}" for i in range(d)]), pd.Series(y, name="y")


def _mixed(n: int, seed: int, *, missing: float = 0.0):
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame(
        {
            "a": rng.choice(["red", "green", "blue"], n).astype(object),
            "b": np.round(rng.normal(size=n), 1),
            "c": rng.choice(["x", "y"], n).astype(object),
            "d": rng.integers(0, 6, n).astype(float),
        }
    )
    if missing:
        for column in frame:
            hole = rng.random(n) < missing
            frame.loc[hole, column] = np.nan
    y = np.where(
        (frame["a"] == "red") ^ (frame["b"].fillna(0) > 0.3) | (rng.random(n) < 0.15), "p", "q"
    )
    return frame, pd.Series(y, name="y")


def _datasets() -> Iterator[tuple[str, pd.DataFrame, pd.Series]]:
    for name in ("play_tennis", "iris", "car", "titanic", "hmeq", "mushroom", "breast_cancer"):
        X, y = load(name, return_X_y=True)
        if name == "titanic":
            X = X.drop(columns=[c for c in ("Name", "Ticket", "Cabin", "PassengerId") if c in X])
        yield name, X, y
    X, y = load("adult", return_X_y=True)
    yield "adult4000", X.iloc[:4000].reset_index(drop=True), y.iloc[:4000].reset_index(drop=True)


_SETTINGS: dict[str, dict] = {
    "plain": {},
    "depth3": {"max_depth": 3},
    "leaf5": {"min_samples_leaf": 5},
    "split10": {"min_samples_split": 10},
    "ratio": {"criterion": "gain_ratio"},
    "ratio_norule": {"criterion": "gain_ratio", "average_gain_rule": False},
    "gain01": {"min_gain": 0.1},
    "alpha": {"alpha": 0.05},
    "balanced": {"class_weight": "balanced"},
    "ccp": {"ccp_alpha": 0.01},
    "wfrac": {"min_weight_fraction_leaf": 0.05},
}


def _fits() -> Iterator[tuple[str, pd.DataFrame, pd.Series, dict, object]]:
    """(name, X, y, params, sample_weight) of every fit the harness makes."""
    for name, X, y in _datasets():
        for setting, params in _SETTINGS.items():
            if name in {"adult4000", "mushroom", "hmeq"} and setting in {"wfrac", "split10"}:
                continue
            yield f"{name}/{setting}", X, y, params, None
    for n in (50, 300, 2000, 20000):
        for seed in (0, 1):
            X, y = _generated(n, 6, seed)
            yield f"num{n}s{seed}/plain", X, y, {}, None
            yield f"num{n}s{seed}/leaf3", X, y, {"min_samples_leaf": 3}, None
            Xr, yr = _generated(n, 6, seed, rounded=1)
            yield f"round{n}s{seed}/plain", Xr, yr, {}, None
            yield f"round{n}s{seed}/ratio", Xr, yr, {"criterion": "gain_ratio"}, None
            X4, y4 = _generated(n, 5, seed, k=4)
            yield f"k4n{n}s{seed}/plain", X4, y4, {}, None
            Xm, ym = _mixed(n, seed, missing=0.1)
            yield f"mixed{n}s{seed}/plain", Xm, ym, {}, None
            yield f"mixed{n}s{seed}/depth4", Xm, ym, {"max_depth": 4}, None
            weight = np.random.default_rng(seed + 7).uniform(0.2, 3.0, n)
            yield f"num{n}s{seed}/weighted", X, y, {}, weight
            yield f"mixed{n}s{seed}/weighted", Xm, ym, {"min_samples_leaf": 2}, weight
            yield f"num{n}s{seed}/intweights", X, y, {}, np.arange(n) % 3 + 1
    Xc, yc = _generated(500, 4, 3)
    Xc["const"] = 1.0
    Xc["negzero"] = np.where(np.arange(500) % 2 == 0, 0.0, -0.0)
    yield "constcols/plain", Xc, yc, {}, None
    Xs, ys = _generated(200000, 10, 5)
    yield "num200k/depth6", Xs, ys, {"max_depth": 6}, None


# ---------------------------------------------------------------------------------------------
# the outputs of one fit
# ---------------------------------------------------------------------------------------------
def _fit_outputs(X, y, params, weight, *, full=False) -> Iterator[tuple[str, object]]:
    small = len(X) * X.shape[1] <= 60000
    teach = full or len(X) <= 300 or params.get("max_depth", 99) <= 3  # the slow tools
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tree = ID3Classifier(**params).fit(X, y, sample_weight=weight)
        yield "json", tree.to_json()
        yield "proba", tree.predict_proba(X)
        yield "predict", np.asarray(tree.predict(X)).astype(str)
        yield "importances", tree.feature_importances_
        yield "trace", tree.trace_
        yield "text", tree.to_text()
        if not small:
            return
        yield "dot", tree.to_dot()
        yield (
            "page1",
            _printed(lambda: ID3Classifier(**params, verbose=1).fit(X, y, sample_weight=weight)),
        )
        yield (
            "page2",
            _printed(lambda: ID3Classifier(**params, verbose=2).fit(X, y, sample_weight=weight)),
        )
        for k in (None, 3):
            out = io.StringIO()
            ID3Classifier(**params).fit(
                X, y, sample_weight=weight, tracer=PrintTracer(out, max_thresholds=k)
            )
            yield f"print_tracer_max{k}", out.getvalue()
        recorder = RecordingTracer(max_thresholds=None)
        ID3Classifier(**params).fit(X, y, sample_weight=weight, tracer=recorder)
        yield "events", str(recorder)
        yield "events_frame", recorder.to_frame()
        yield "explain", tree.explain(X.iloc[0])
        first = tree.feature_names_in_[0]
        yield "candidate_table", tree.candidate_table(0, first)
        if not teach:
            return
        teaching = {
            "steps": lambda: "\n\n".join(str(step) for step in tree.steps()),
            "worked_md": lambda: str(tree.worked_solution()),
            "worked_latex": lambda: str(tree.worked_solution(format="latex")),
            "html": lambda: tree.to_html(),
            "why_not": lambda: str(tree.why_not(0, first)),
        }
        for name, make in teaching.items():
            try:
                yield name, make()
            except ValueError as error:  # weighted fits: the teaching tools refuse them
                yield name, f"ValueError: {error}"


def _ranking_outputs() -> Iterator[tuple[str, object]]:
    from id3tree import stats

    for name in ("play_tennis", "iris", "hmeq", "car", "titanic"):
        X, y = load(name, return_X_y=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for method in ("information_gain", "gain_ratio", "mutual_information", "jsd"):
                yield f"{name}/rank_{method}", id3tree.rank_features(X, y, method=method)
            yield f"{name}/mi_matrix", id3tree.mutual_information_matrix(X)
            yield f"{name}/jsd_screen", id3tree.jsd_screen(X, y)
            yield f"{name}/screen", id3tree.screen_features(X)
            yield f"{name}/test_features", stats.test_features(X, y)
            for feature in list(X)[:3]:
                yield f"{name}/gain_{feature}", id3tree.information_gain(X[feature], y)
                yield (
                    f"{name}/candidates_{feature}",
                    (
                        id3tree.candidate_splits(X[feature], y)
                        if pd.api.types.is_numeric_dtype(X[feature])
                        else id3tree.contingency_table(X[feature], y)
                    ),
                )


def _pruning_outputs() -> Iterator[tuple[str, object]]:
    for name in ("iris", "car", "titanic"):
        X, y = load(name, return_X_y=True)
        if name == "titanic":
            X = X.drop(columns=[c for c in ("Name", "Ticket", "Cabin", "PassengerId") if c in X])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            train, test = slice(0, None, 2), slice(1, None, 2)  # every other row
            tree = ID3Classifier().fit(X.iloc[train], y.iloc[train])
            path = tree.cost_complexity_pruning_path(X.iloc[train], y.iloc[train])
            yield f"{name}/ccp_path", {k: np.asarray(v).tolist() for k, v in dict(path).items()}
            yield (
                f"{name}/reduced_error",
                tree.prune("reduced_error", X.iloc[test], y.iloc[test]).to_json(),
            )
            yield f"{name}/pessimistic", tree.prune("pessimistic").to_json()


def _dask_outputs() -> Iterator[tuple[str, object]]:
    import dask.dataframe as dd
    from distributed import Client, LocalCluster

    with (
        LocalCluster(n_workers=2, threads_per_worker=1, processes=True) as cluster,
        Client(cluster),
    ):
        for name in ("iris", "car", "hmeq"):
            X, y = load(name, return_X_y=True)
            frame = X.assign(__y=y.to_numpy())
            parts = dd.from_pandas(frame, npartitions=3)
            dX, dy = parts.drop(columns="__y"), parts["__y"]
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                yield f"{name}/json", ID3Classifier(max_depth=4).fit(dX, dy).to_json()
                yield f"{name}/rank", id3tree.rank_features(dX, dy)


def outputs(*, dask: bool = False, full: bool = False, only: str = "") -> Iterator[tuple[str, str]]:
    """(name, hash) of every output whose name contains ``only``, in a fixed order."""
    for fit_name, X, y, params, weight in _fits():
        prefix = f"fit/{fit_name}/"
        if only.startswith("fit/") and not (prefix.startswith(only) or only.startswith(prefix)):
            continue  # a fit the filter leaves out: not even made
        for output, value in _fit_outputs(X, y, params, weight, full=full):
            yield f"{prefix}{output}", _digest(value)
    groups = [("rank", _ranking_outputs), ("prune", _pruning_outputs)]
    if dask:
        groups.append(("dask", _dask_outputs))
    for group, make in groups:
        if only.startswith("fit/"):
            break
        for name, value in make():
            yield f"{group}/{name}", _digest(value)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--save", metavar="FILE", help="write the hashes to FILE")
    action.add_argument("--check", metavar="FILE", help="compare with the hashes saved in FILE")
    action.add_argument("--list", action="store_true", help="print the hashes")
    parser.add_argument("--only", metavar="WORD", help="keep the entries whose name has WORD")
    parser.add_argument("--dask", action="store_true", help="add fits on Dask DataFrames")
    parser.add_argument(
        "--full",
        action="store_true",
        help="the teaching tools of every small fit, not a few (slow)",
    )
    args = parser.parse_args(argv)

    hashes = {}
    for name, digest in outputs(dask=args.dask, full=args.full, only=args.only or ""):
        if args.only and args.only not in name:
            continue
        hashes[name] = digest
        if args.list:
            print(name, digest, flush=True)
    if args.save:
        with open(args.save, "w") as file:
            json.dump(hashes, file, indent=0, sort_keys=True)
        print(f"{len(hashes)} hashes written to {args.save}")
        return 0
    if args.check:
        with open(args.check) as file:
            saved = json.load(file)
        if args.only:
            saved = {k: v for k, v in saved.items() if args.only in k}
        differ = sorted(k for k in hashes.keys() & saved.keys() if hashes[k] != saved[k])
        missing = sorted(saved.keys() - hashes.keys())
        new = sorted(hashes.keys() - saved.keys())
        for name in differ:
            print("differs:", name)
        for name in missing:
            print("missing:", name)
        for name in new:
            print("new:", name)
        same = len(hashes.keys() & saved.keys()) - len(differ)
        print(f"{same} identical, {len(differ)} differ, {len(missing)} missing, {len(new)} new")
        return 1 if differ or missing else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
