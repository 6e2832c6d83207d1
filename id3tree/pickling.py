"""Pickling a fitted ID3Classifier: its tree as flat arrays, never as nested Nodes.

A deep tree of nested :class:`~id3tree.node.Node` objects would hit pickle's recursion limit, so a
model is pickled with its tree as arrays (:class:`~id3tree.grown_tree.GrownTree`); the Nodes, the
compiled tree and the teaching record are made again on demand, and the training data is not kept.
"""

from __future__ import annotations

from id3tree import persistence

NOT_PICKLED = ("_teaching_record", "_root", "_compiled", "_fit_data")
"""What a fitted model keeps that is made again (or not kept) after unpickling."""


def pickled_state(state: dict) -> dict:
    """The state of a model to pickle (``__getstate__``): its own, less :data:`NOT_PICKLED`."""
    for name in NOT_PICKLED:
        state.pop(name, None)
    return state


def restore_tree(model, state: dict, flat) -> None:
    """After ``__setstate__`` of ``state``: the model's tree, checked, with what prediction
    needs; ``flat`` holds the node records of versions that pickled the Nodes (else None)."""
    if "_tree" in state:
        persistence.check_tree_arrays(model._tree, model.classes_.tolist(), model._categories)
        model._set_arrays(model._tree)
    elif flat is not None:
        model._set_tree(
            persistence.nodes_from_records(
                flat, model.classes_.tolist(), model._names, model._categories, encoded=False
            )
        )
