"""The growth as tables: one row per node and candidate (``ID3Classifier.trace_``), and every
candidate split of one feature at one node, from the training rows (``candidate_table``)."""

from __future__ import annotations

import numbers

import numpy as np
import pandas as pd

from id3tree.base.entropy import entropy_rows
from id3tree.engine.routing import training_rows_at
from id3tree.engine.splits import class_counts, enumerate_thresholds, snapped
from id3tree.model.node import Node, edge_label, node_paths

__all__ = ["candidate_frame", "candidate_table", "trace_frame"]

_SCORES = ("threshold", "low", "high", "overall_entropy", "gain", "gain_ratio")


def trace_frame(root: Node, classes: list, names: list, trace: dict, complete: bool):
    """The trace of the tree under ``root`` as a DataFrame (the columns ``ID3Classifier.trace_``
    documents), from the trace's columns (``trace``, one row per scored node and candidate,
    grown numbers by ``node_id``); rows of nodes no longer in the tree (pruned) are left out.
    ``complete``: whether the trace has every candidate (else the chosen splits only)."""
    # pre-order; a pruned copy keeps its nodes' ids, so arrays are indexed by node_id
    walked = list(root.walk())
    nodes = [None] * (max(n.node_id for n in walked) + 1)
    for n in walked:
        nodes[n.node_id] = n
    parent = np.full(len(nodes), -1)
    branch = np.full(len(nodes), "", dtype=object)
    for node, key, child in root.iter_edges():
        parent[child.node_id] = node.node_id
        branch[child.node_id] = edge_label(node, key)
    paths = node_paths(root)
    path = np.array([" and ".join(paths.get(i, [])) for i in range(len(nodes))], dtype=object)
    kept = np.isin(trace["node"], [n.node_id for n in walked])  # rows of nodes pruned away go
    t = {name: column[kept] for name, column in trace.items()}
    nodes = [n if n is not None else walked[0] for n in nodes]  # placeholders never read
    counts = np.array([[n.class_counts[c] for c in classes] for n in nodes])
    order = np.lexsort((t["feature"], t["node"]))
    ids = t["node"][order]
    feature_names = np.array(names + [None], dtype=object)

    def per_node(values, dtype=object):
        return np.asarray(values, dtype=dtype)[ids]

    columns = {
        "node": ids,
        "parent": parent[ids],
        "depth": per_node([n.depth for n in nodes], np.int64),
        "branch": branch[ids],
        "path": path[ids],
        "n_samples": counts.sum(axis=1)[ids],
    }
    columns |= {f"n_{c}": counts[ids, k] for k, c in enumerate(classes)}
    columns["entropy"] = per_node([n.entropy for n in nodes], float)
    columns["feature"] = feature_names[t["feature"][order]]
    columns |= {name: t[name][order] for name in _SCORES}
    columns["chosen"], columns["tie"] = t["chosen"][order], t["tie"][order]
    columns["stop_reason"] = per_node([n.stop_reason for n in nodes])
    columns["prediction"] = per_node([n.prediction for n in nodes])
    columns["class_tie"] = per_node([bool(n.tied_classes) for n in nodes], bool)
    table = pd.DataFrame(columns)
    # False: one row per node only (keep_trace="auto" on a large training set)
    table.attrs["complete"] = complete
    return table


def candidate_frame(root: Node, data, trace, node, feature, *, min_leaf: int = 1):
    """``ID3Classifier.candidate_table(node, feature)`` of the tree under ``root`` grown on
    ``data`` (the encoded training rows), whose trace's columns are ``trace`` (None for none):
    the checks of ``node`` (a ``node_id``) and ``feature`` (a name or a position), then
    :func:`candidate_table` of the rows that reached the node, as a DataFrame."""
    names = data.names
    nodes = {n.node_id: n for n in root.walk()}
    if isinstance(node, bool) or not isinstance(node, numbers.Integral) or node not in nodes:
        raise ValueError(f"node must be a node_id between 0 and {len(nodes) - 1}, got {node!r}")
    if isinstance(feature, numbers.Integral) and not isinstance(feature, bool):
        if not 0 <= feature < len(names):
            raise ValueError(f"feature position {feature} is out of range")
        f = int(feature)
    elif str(feature) in names:
        f = names.index(str(feature))
    else:
        raise ValueError(f"unknown feature {feature!r}; the features are {names}")
    rows = training_rows_at(root, data, nodes[node])
    t = trace
    mine = (t["node"] == node) & (t["feature"] == f) if t is not None else np.array([False])
    best = float(t["threshold"][mine][0]) if mine.any() else None
    table = pd.DataFrame(candidate_table(data, rows, f, min_leaf=min_leaf, best=best))
    if data.codes[f] is not None:
        entropy = nodes[node].entropy
        overall = float(table["weighted_entropy"].sum())
        table.attrs.update(entropy=entropy, overall_entropy=overall, gain=entropy - overall)
    return table


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
    cols["threshold"] = snapped(cols["threshold"], data.cut_values(f))  # (thresholds="c45")
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
