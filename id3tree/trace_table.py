"""The growth as tables: every candidate split of one feature at one node (``candidate_table``)."""

from __future__ import annotations

import numpy as np

from id3tree._entropy import entropy_rows
from id3tree.splits import class_counts, enumerate_thresholds


def candidate_table(data, rows: np.ndarray, f: int, *, min_leaf: int = 1, best=None):
    """Every candidate split of feature ``f`` over the training rows ``rows`` (one node's rows),
    as the columns of a table: every threshold of a numeric feature, every value of a
    categorical one. ``best`` is the threshold the learner kept, marked in the ``best`` column.
    For a weighted fit (``data.weight``) every count is a sum of weights; ``valid`` still counts
    rows against ``min_leaf``."""
    classes, n_classes = data.classes, len(data.classes)
    y = data.y[rows]
    w = None if data.weight is None else data.weight[rows]
    if data.codes[f] is not None:
        n_levels = len(data.categories[f]) + 1
        table = class_counts(data.codes[f][rows] * n_classes + y, n_levels, n_classes, w)
        present = np.flatnonzero(table.sum(axis=1))
        table = table[present]
        sizes = table.sum(axis=1)
        entropy = entropy_rows(table)
        weight = sizes / sizes.sum()  # the node's rows (or weight) are never empty
        columns = {"value": [data.categories[f][c] if c < n_levels - 1 else None for c in present]}
        columns["n_samples"] = sizes
        columns |= {f"n_{c}": table[:, k] for k, c in enumerate(classes)}
        columns |= {"entropy": entropy, "weight": weight, "weighted_entropy": weight * entropy}
        return columns
    x = data.numeric[f][rows]
    order = np.argsort(x, kind="stable")  # missing values last
    x, y = x[order], y[order]
    w = None if w is None else w[order]
    cols = enumerate_thresholds(x, y, np.array([0]), np.array([len(x)]), n_classes, w)
    cols.pop("segment")
    known = ~np.isnan(x)
    rows_missing = int((~known).sum())
    missing = class_counts(y[~known], 1, n_classes, None if w is None else w[~known])[0]
    n_missing = missing.sum().item()
    columns = {c: cols[c] for c in ("threshold", "low", "high", "n_left", "n_right")}
    columns["n_missing"] = np.full(len(cols["threshold"]), n_missing)
    rows_left = np.searchsorted(x[known], cols["threshold"], side="right")  # rows <= threshold
    one_hot = y[known][:, None] == np.arange(n_classes)
    if w is not None:
        one_hot = one_hot * w[known][:, None]
    before = np.zeros((int(known.sum()) + 1, n_classes), dtype=np.int64 if w is None else float)
    np.cumsum(one_hot, axis=0, out=before[1:])
    left = [before[rows_left, k] for k in range(n_classes)]
    columns |= {f"left_{c}": left[k] for k, c in enumerate(classes)}
    total = before[-1]
    columns |= {f"right_{c}": total[k] - left[k] for k, c in enumerate(classes)}
    if n_missing:
        size = len(cols["threshold"])
        columns |= {f"missing_{c}": np.full(size, missing[k]) for k, c in enumerate(classes)}
    columns["entropy_left"], columns["entropy_right"] = cols["entropy_left"], cols["entropy_right"]
    if n_missing:
        columns["entropy_missing"] = np.full(len(cols["threshold"]), float(entropy_rows(missing)))
    columns["overall_entropy"], columns["gain"] = cols["overall_entropy"], cols["gain"]
    columns["valid"] = (
        (rows_left >= min_leaf)
        & (int(known.sum()) - rows_left >= min_leaf)
        & ((rows_missing == 0) | (rows_missing >= min_leaf))
    )
    columns["best"] = cols["threshold"] == best if best is not None else columns["valid"] & False
    return columns
