"""Pickling a fitted ID3Classifier: its tree as flat arrays, never as nested Nodes.

A deep tree of nested :class:`~id3tree.model.node.Node` objects would hit pickle's recursion limit, so a
model is pickled with its tree as arrays (:class:`~id3tree.model.grown_tree.GrownTree`); the Nodes, the
compiled tree and the teaching record are made again on demand, and the training data is not kept.

An unpickled tree is trusted no more than a model file: its classes, feature names and
categories go through the file's checks (:func:`id3tree.io.persistence.check_labels`, and
``n_features_in_`` and ``feature_names_in_`` must agree with them), its arrays are read back as
the node records a file holds (:func:`tree_records`) and go through the file's own checker,
:func:`id3tree.io.persistence.check_nodes`, so a damaged state is refused with the words a damaged
file gets, and the model is built from the records that passed. The arrays number classes and
categories by position, so a pickle also keeps a digest of the labels in their order
(:data:`LABELS`): classes or categories reordered after pickling would relabel the tree's branches
and counts, and are refused.
"""

from __future__ import annotations

import hashlib
import json

import numpy as np

from id3tree.base.entropy import measuring
from id3tree.base.params import check_log_base
from id3tree.io import persistence
from id3tree.model.node import LEFT, MISSING, NUMERIC_MISSING, RIGHT

__all__ = [
    "check_state", "LABELS", "labels_digest", "NOT_PICKLED", "pickled_state", "restore_tree",
    "TREE_ARRAYS", "tree_records",
]  # fmt: skip

NOT_PICKLED = ("_teaching_record", "_root", "_compiled", "_fit_data")
"""What a fitted model keeps that is made again (or not kept) after unpickling."""

TREE_ARRAYS = ("parent", "slot", "depth", "counts", "entropy", "feature", "threshold", "gain")


LABELS = "_labels_digest"
"""The state's entry that keeps :func:`labels_digest` of a fitted model's labels."""


def pickled_state(state: dict) -> dict:
    """The state of a model to pickle (``__getstate__``): its own, less :data:`NOT_PICKLED`,
    with the digest of its labels (:data:`LABELS`) when it is fitted."""
    for name in NOT_PICKLED:
        state.pop(name, None)
    if "_tree" in state:
        state[LABELS] = labels_digest(state["classes_"], state["_names"], state["_categories"])
    return state


def labels_digest(classes, names, categories) -> str:
    """A digest of the classes, feature names and categories in their order, each value written
    as a model file writes it (:func:`~id3tree.io.persistence.encode_value`: ``1``, ``1.0``,
    ``True`` and ``"1"`` differ; a timestamp as its ISO text, whatever pandas' ``repr``)."""
    written = json.dumps(
        [
            [_written(c) for c in np.asarray(classes, dtype=object).tolist()],
            list(names),
            [None if c is None else [_written(v) for v in c] for c in categories],
        ]
    )
    return hashlib.sha256(written.encode("utf-8", "backslashreplace")).hexdigest()


def _written(value):
    try:
        return persistence.encode_value(value)
    except ValueError:  # (a value no file can hold: as Python writes it)
        return {"$repr": repr(value)}


def check_state(model, digest: str | None) -> None:
    """The labels of an unpickled ``model`` checked as a model file's are, with its
    ``n_features_in_`` and ``feature_names_in_``, and against the ``digest`` it was pickled
    with (None: a pickle of an earlier version, which kept none)."""
    classes = getattr(model, "classes_", None)
    if not isinstance(classes, np.ndarray) or classes.ndim != 1:
        persistence.fail(f"classes_ must be a one-dimensional array, got {classes!r}")
    names, categories = model.__dict__.get("_names"), model.__dict__.get("_categories")
    persistence.check_labels(classes.tolist(), names, categories)
    if model.__dict__.get("n_features_in_") != len(names):
        persistence.fail(
            f"n_features_in_ is {model.__dict__.get('n_features_in_')!r}, but the model has "
            f"{len(names)} features"
        )
    given = model.__dict__.get("feature_names_in_")
    if given is not None and np.asarray(given, dtype=object).tolist() != names:
        persistence.fail(f"feature_names_in_ {list(given)} are not the features {names}")
    if digest is not None and digest != labels_digest(classes, names, categories):
        persistence.fail(
            "its classes, feature names or categories are not those its tree was pickled "
            "with (changed or reordered: the tree numbers them by position)"
        )


def restore_tree(model, state: dict, flat) -> None:
    """After ``__setstate__`` of ``state``: the model's tree, checked as a model file's nodes
    are (its labels by :func:`check_state`), with what prediction needs; ``flat`` holds the
    node records of versions that pickled the Nodes (else None)."""
    digest = model.__dict__.pop(LABELS, None)
    if "_tree" in state or flat is not None:
        check_state(model, digest)
    if "_tree" in state:
        classes = model.classes_.tolist()
        records = tree_records(model._tree, classes, model._names, model._categories)
        flat, encoded = records, False
    elif flat is None:
        return
    else:
        encoded = False  # (those versions kept branch keys as they are)
    try:
        base = check_log_base(getattr(model, "log_base", 2))  # (older pickles: bits)
    except ValueError as exc:
        persistence.fail(f"a parameter is wrong: {exc}")
    with measuring(base):  # (the stored entropies are in the tree's unit)
        root = persistence.nodes_from_records(
            flat, model.classes_.tolist(), model._names, model._categories, encoded=encoded
        )
    model._set_tree(root)


class _Slot:
    """A branch slot that no split has: a key :func:`~id3tree.io.persistence.check_nodes`
    refuses, shown as the slot it was."""

    def __init__(self, slot):
        self.slot = slot

    def __repr__(self) -> str:
        return f"branch slot {self.slot}"


def tree_records(tree, classes: list, names: list, categories: list) -> list[dict]:
    """The tree kept as arrays (a :class:`~id3tree.model.grown_tree.GrownTree`) as the node records
    of a model file (:func:`~id3tree.io.persistence.node_records`, keys not encoded), every value
    as it is, so that :func:`~id3tree.io.persistence.check_nodes` judges it: a leaf's feature is
    None, a feature out of range stays a number, a NaN threshold or gain of a split stays NaN."""
    try:
        n = len(tree.parent)
        lengths = [len(getattr(tree, name)) for name in TREE_ARRAYS] + [len(tree.stop_reason)]
        if tree.node_id is not None:
            lengths.append(len(tree.node_id))
        ids = list(range(n)) if tree.node_id is None else np.asarray(tree.node_id).tolist()
        parent, slot, depth = (np.asarray(a).tolist() for a in (tree.parent, tree.slot, tree.depth))
        feature = np.asarray(tree.feature).tolist()
        threshold, gain, entropy = (
            np.asarray(a, dtype=float).tolist() for a in (tree.threshold, tree.gain, tree.entropy)
        )
        counts = np.asarray(tree.counts).tolist()
        stop_reason = list(tree.stop_reason)
    except (AttributeError, TypeError, ValueError) as exc:
        persistence.fail(f"the pickled tree is not a tree of arrays: {exc}")
    if any(length != n for length in lengths):
        persistence.fail(f"the tree's arrays must all have one entry per node ({n})")
    known = [isinstance(f, int) and 0 <= f < len(names) for f in feature]
    return [
        {
            "id": ids[i],
            "parent": parent[i],
            "key": _key(parent, feature, known, slot, categories, i),
            "feature": (names[f] if known[i] else None if f == -1 else f),
            "threshold": _split_number(threshold[i], known[i] and categories[f] is None),
            "counts": counts[i],
            "entropy": entropy[i],
            "gain": _split_number(gain[i], known[i]),
            "depth": depth[i],
            "stop_reason": stop_reason[i],
        }
        for i, f in enumerate(feature)
    ]


def _split_number(value: float, kept: bool):
    """A threshold or gain as a record holds it: as it is where the split has one, else None
    (the arrays' NaN) or the stray number (which the checker refuses)."""
    return value if kept or value == value else None


def _key(parent: list, feature: list, known: list, slot: list, categories: list, i: int):
    """The branch key of node ``i`` from its slot in its parent's split (None for the root, and
    where the parent is no split: the checker then says what is wrong with the parent)."""
    p = parent[i]
    if not (isinstance(p, int) and 0 <= p < len(parent) and known[p]):
        return None
    values, s = categories[feature[p]], slot[i]
    if values is None:
        return {LEFT: "<=", RIGHT: ">", NUMERIC_MISSING: MISSING}.get(s, _Slot(s))
    if isinstance(s, int) and s == len(values):
        return MISSING
    return values[s] if isinstance(s, int) and 0 <= s < len(values) else _Slot(s)
