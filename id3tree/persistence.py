"""Saving a fitted tree as JSON and loading it back: plain data, no pickle.

The nodes are stored as a flat list in pre-order (their ``node_id`` order), each naming its parent
and the key of the branch that leads to it, so a tree thousands of levels deep needs no recursion either way.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from id3tree.node import Node

FORMAT = "id3tree.ID3Classifier"
VERSION = 1


def model_to_dict(model) -> dict:
    nodes = list(model.root_.walk())  # pre-order: parents come before their children
    position = {id(node): i for i, node in enumerate(nodes)}
    records = []
    parent_of = {}
    for node in nodes:
        for key, child in node.children.items():
            parent_of[id(child)] = (position[id(node)], key)
    classes = model.classes_.tolist()
    for node in nodes:
        parent, key = parent_of.get(id(node), (-1, None))
        records.append(
            {
                "id": node.node_id,
                "parent": parent,
                "key": key,
                "feature": node.feature,
                "threshold": node.threshold,
                "counts": [node.class_counts[c] for c in classes],
                "entropy": node.entropy,
                "gain": node.gain,
                "depth": node.depth,
                "stop_reason": node.stop_reason,
            }
        )
    params = {
        k: (list(v) if isinstance(v, (list, tuple, np.ndarray)) else v)
        for k, v in model.get_params().items()
    }
    if isinstance(params.get("categorical"), list):
        params["categorical"] = [
            v.item() if isinstance(v, np.generic) else v for v in params["categorical"]
        ]
    return {
        "format": FORMAT,
        "version": VERSION,
        "params": params,
        "classes": classes,
        "feature_names": list(model._names),
        "has_feature_names": hasattr(model, "feature_names_in_"),
        "categories": model._categories,
        "nodes": records,
    }


def model_from_dict(cls, d: dict):
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        raise ValueError("not an id3tree model: the 'format' field is missing or wrong")
    if d.get("version") != VERSION:
        raise ValueError(
            f"unsupported id3tree model version {d.get('version')!r} (this id3tree reads {VERSION})"
        )
    try:
        model = cls(**d["params"])
        classes = d["classes"]
        model.classes_ = (
            np.array(classes, dtype=object)
            if all(isinstance(c, str) for c in classes)
            else np.array(classes)
        )
        model._names = list(d["feature_names"])
        model.n_features_in_ = len(model._names)
        if d["has_feature_names"]:
            model.feature_names_in_ = np.asarray(model._names, dtype=object)
        model._categories = [None if c is None else list(c) for c in d["categories"]]
        model._trace_columns = None
        root = nodes_from_records(d["nodes"], model.classes_.tolist())
    except (KeyError, TypeError, IndexError, ValueError) as exc:
        raise ValueError(f"not a valid id3tree model: {type(exc).__name__} {exc}") from None
    model._set_tree(root)
    return model


def nodes_from_records(records: list[dict], classes: list) -> Node:
    """The root of the tree stored as flat records (parents always come before children)."""
    nodes = []
    for r in records:
        counts = {c: int(v) for c, v in zip(classes, r["counts"])}
        node = Node(
            feature=r["feature"],
            threshold=r["threshold"],
            children={},
            class_counts=counts,
            n_samples=sum(counts.values()),
            entropy=float(r["entropy"]),
            gain=r["gain"],
            prediction=classes[int(np.argmax(r["counts"]))],
            depth=int(r["depth"]),
            node_id=int(r["id"]),
            stop_reason=r.get("stop_reason"),
        )
        nodes.append(node)
        if r["parent"] >= 0:
            nodes[r["parent"]].children[r["key"]] = node
    if not nodes:
        raise ValueError("the model has no nodes")
    return nodes[0]


def read_json(s_or_path) -> dict:
    """Parse JSON given as text or as a path to a file."""
    if isinstance(s_or_path, Path) or (
        isinstance(s_or_path, str) and not s_or_path.lstrip().startswith("{")
    ):
        path = Path(s_or_path)
        if not path.is_file():
            raise ValueError(f"no model file at {str(path)!r}")
        text = path.read_text(encoding="utf-8")
    else:
        text = s_or_path
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"the model is not valid JSON: {exc}") from None
