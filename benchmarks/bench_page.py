"""The interactive page of a large tree: id3tree's to_html against scikit-learn's export_text.

Usage::

    python benchmarks/bench_page.py            # trees of about 1,000, 10,000 and 100,000 nodes
    python benchmarks/bench_page.py --quick    # about 1,000 and 10,000 nodes

Both libraries grow a tree on the same noise (five numeric columns rounded to 3 decimals,
two classes drawn at random, fully grown: about one node per two rows) and write it out:
id3tree's ``to_html()`` (the whole page: every node's counts, every feature's best split at every
scored node with its branches, the decisions and their reasons, the script that draws it) and
scikit-learn's ``export_text`` of its ``DecisionTreeClassifier(criterion="entropy")`` (one line
per node, no candidates). The page holds far more than the text, so the ratio is not a race: it
says what the page costs against the cheapest whole-tree output of the usual alternative, in the
same run. Times are the best of ``--repeats`` runs; bytes are the output's UTF-8 size.

The script measures, it does not test: the exit status is 0 whatever the numbers.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import time

import numpy as np
import sklearn
from sklearn.tree import DecisionTreeClassifier, export_text

import id3tree
from id3tree import ID3Classifier

GOAL_SECONDS_PER_1000_NODES = 1.0
"""Linear in nodes: at most about a second per thousand nodes (the Adult tree's 11,137 in a few
seconds)."""


def noise(n: int):
    rng = np.random.default_rng(0)
    return rng.normal(size=(n, 5)).round(3), rng.integers(0, 2, n)


def best_of(fn, repeats: int) -> tuple[float, object]:
    best, out = np.inf, None
    for _ in range(repeats):
        gc.collect()
        start = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - start)
    return best, out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="the two smaller trees only")
    parser.add_argument("--repeats", type=int, default=1)
    args = parser.parse_args(argv)
    sizes = (2_000, 19_000) if args.quick else (2_000, 19_000, 190_000)
    print(f"id3tree {id3tree.__version__}, scikit-learn {sklearn.__version__}, "
          f"Python {platform.python_version()}")  # fmt: skip
    print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} (1 min)\n")
    header = f"  {'tree':<26}{'to_html s':>10}{'export_text s':>15}{'ratio':>8}"
    header += f"{'page MB':>9}{'text MB':>9}{'s / 1k nodes':>14}  goal"
    print(header)
    for n in sizes:
        X, y = noise(n)
        ours = ID3Classifier(keep_trace=True).fit(X, y)
        theirs = DecisionTreeClassifier(criterion="entropy", random_state=0).fit(X, y)
        nodes = ours._tree.n_nodes
        page_s, page = best_of(ours.to_html, args.repeats)
        text_s, text = best_of(lambda t=theirs: export_text(t, max_depth=10**6), args.repeats)
        per_1k = page_s / nodes * 1000
        verdict = "PASS" if per_1k <= GOAL_SECONDS_PER_1000_NODES else "MISS"
        name = f"{nodes:,} / {theirs.tree_.node_count:,} nodes, n={n:,}"
        print(
            f"  {name:<26}{page_s:>10.2f}{text_s:>15.2f}{page_s / text_s:>8.1f}"
            f"{len(page.encode()) / 1e6:>9.1f}{len(text.encode()) / 1e6:>9.1f}{per_1k:>14.2f}"
            f"  <= {GOAL_SECONDS_PER_1000_NODES:g} {verdict}"
        )
    print("\nnodes: id3tree / scikit-learn (each grows its own tree of the same rows)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
