"""Saving a fitted tree as JSON and loading it back: plain data, no pickle.

The nodes are stored as a flat list in pre-order (their ``node_id`` order), each naming its parent
(by position in the list) and the key of the branch that leads to it, so a tree thousands of
levels deep needs no recursion either way. Loading does not depend on that order.

Loading trusts nothing: :func:`check_model_dict` checks the whole file (the schema, every value's
type, acyclic parent links, class counts that are non-negative numbers adding up to the parent's
(sums of weights after a weighted fit, up to rounding), branch keys that the split can produce, known version and parameters) before a single
node is built, and every problem is a ``ValueError`` that says where it is. The work and memory
it takes grow with the size of the file.

Values that JSON has no type for (tuples, bytes, dates and times, timedeltas, periods,
intervals, infinite floats) are stored as small tagged objects, ``{"$type": "tuple", "items":
[...]}``, and come back as the same Python or pandas values.
"""

from __future__ import annotations

import base64
import datetime as dt
import decimal
import json
import math
from pathlib import Path
from typing import NoReturn

import numpy as np
import pandas as pd

from id3tree.base.entropy import entropy_rows, measuring
from id3tree.base.params import MAX_TOTAL_WEIGHT, check_log_base
from id3tree.base.validation import class_array, listed_columns
from id3tree.model.node import Node, majority_classes

__all__ = [
    "check_labels", "check_model_dict", "check_nodes", "CheckedTree", "decode_param",
    "decode_value", "encode_param", "encode_value", "ENTROPY_TOLERANCE", "fail", "FORMAT",
    "LATER_PARAMS", "MAX_ID", "MODEL_FIELDS", "model_from_dict", "model_to_dict",
    "ModelFileError", "NODE_FIELDS", "node_records", "nodes_from_records", "NUMERIC_KEYS",
    "OPTIONAL_MODEL_FIELDS", "OPTIONAL_NODE_FIELDS", "parse_json", "read_json", "VERSION",
]  # fmt: skip

FORMAT = "id3tree.ID3Classifier"
VERSION = 1

MODEL_FIELDS = {
    "format", "version", "params", "classes", "feature_names", "has_feature_names", "categories",
    "nodes",
}  # fmt: skip
# "target": the name of the class column, which `id3tree fit --save` records so that
# `id3tree predict` can score data that has it (the model itself never reads it)
OPTIONAL_MODEL_FIELDS = {"names_from_frame", "target"}
NODE_FIELDS = {
    "id", "parent", "key", "feature", "threshold", "counts", "entropy", "gain", "depth",
    "stop_reason",
}  # fmt: skip
OPTIONAL_NODE_FIELDS = {"stop_reason"}
LATER_PARAMS = {
    "keep_trace": "auto", "id_like": "warn", "thresholds": "midpoint", "language": "en",
    "log_base": 2, "ties": "first",
}  # fmt: skip
"""Parameters added after version 1 of the format, with their defaults: written only when they
differ from the default, so that a model with default settings is saved as before."""
NUMERIC_KEYS = ("<=", ">")
ENTROPY_TOLERANCE = 1e-7  # bits: a stored entropy must match its counts this closely
MAX_ID = 2**63 - 1  # node ids are int64 in the fitted tree


class ModelFileError(ValueError):
    """A model file (or dict) that is not a valid id3tree model."""


# ---------------------------------------------------------------------------------------------
# values JSON has no type for
# ---------------------------------------------------------------------------------------------
def encode_value(value, what: str = "value"):
    """A category, class or branch key as JSON-ready data (tagged objects for non-JSON types)."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, (np.datetime64, np.timedelta64)):
        value = pd.Timestamp(value) if isinstance(value, np.datetime64) else pd.Timedelta(value)
    elif isinstance(value, np.generic):
        value = value.item()
        if value is None or isinstance(value, (bool, str)):
            return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return value if math.isfinite(value) else {"$type": "float", "value": repr(value)}
    for kind, encode in _ENCODERS:  # the most specific type first (a Timestamp is a datetime)
        if isinstance(value, kind):
            return encode(value, what)
    raise ValueError(
        f"cannot save the {what} {value!r} of type {type(value).__name__}: id3tree saves "
        "strings, numbers, booleans, tuples, bytes, dates, times, timedeltas, periods and "
        "intervals; convert the column (e.g. with .astype(str)) and fit again"
    )


_ENCODERS = [
    (tuple, lambda v, what: {"$type": "tuple", "items": [encode_value(i, what) for i in v]}),
    (bytes, lambda v, what: {"$type": "bytes", "base64": base64.b64encode(v).decode("ascii")}),
    (
        pd.Timestamp,
        lambda v, what: {
            "$type": "timestamp",
            "value": v.isoformat(),
            "tz": None if v.tz is None else str(v.tz),
        },
    ),
    (dt.datetime, lambda v, what: {"$type": "datetime", "value": v.isoformat()}),
    (dt.date, lambda v, what: {"$type": "date", "value": v.isoformat()}),
    (dt.time, lambda v, what: {"$type": "time", "value": v.isoformat()}),
    (pd.Timedelta, lambda v, what: {"$type": "timedelta", "ns": int(v.value)}),
    (
        dt.timedelta,
        lambda v, what: {
            "$type": "py_timedelta",
            "days": v.days,
            "seconds": v.seconds,
            "microseconds": v.microseconds,
        },
    ),
    (pd.Period, lambda v, what: {"$type": "period", "value": str(v), "freq": v.freqstr}),
    (
        pd.Interval,
        lambda v, what: {
            "$type": "interval",
            "left": encode_value(v.left, what),
            "right": encode_value(v.right, what),
            "closed": v.closed,
        },
    ),
    (decimal.Decimal, lambda v, what: {"$type": "decimal", "value": str(v)}),
]
"""How each type JSON lacks is stored: ``(type, encoder)``, a subclass before its base."""


def decode_value(data, what: str = "value"):
    """The value :func:`encode_value` stored; a ``ModelFileError`` for anything else."""
    if data is None or isinstance(data, (bool, str, int)):
        return data
    if isinstance(data, float):
        if not math.isfinite(data):
            raise ModelFileError(f"{what} is not a finite number: {data!r}")
        return data
    if not isinstance(data, dict) or not isinstance(data.get("$type"), str):
        raise ModelFileError(
            f"{what} must be a string, number, boolean, null or a tagged object, "
            f"got {type(data).__name__}"
        )
    kind = data["$type"]
    try:
        value = _decode_tagged(kind, data, what)
    except ModelFileError:
        raise
    except (KeyError, TypeError, ValueError, OverflowError, decimal.InvalidOperation) as exc:
        raise ModelFileError(f"{what} is a malformed {kind!r} value: {exc}") from None
    if value is _UNKNOWN:
        raise ModelFileError(f"{what} has an unknown type tag {kind!r}")
    return value


_UNKNOWN = object()


def _decode_tagged(kind: str, data: dict, what: str):
    decode = _DECODERS.get(kind)
    return _UNKNOWN if decode is None else decode(data, what)


def _text(data: dict, field: str) -> str:
    value = data[field]
    if not isinstance(value, str):
        raise TypeError(f"{field!r} must be a string")
    return value


def _integers(data: dict, *fields: str) -> list[int]:
    parts = [data[k] for k in fields]
    if any(isinstance(p, bool) or not isinstance(p, int) for p in parts):
        raise TypeError(f"{', '.join(fields)} must be integers")
    return parts


def _tagged_float(data: dict, what: str) -> float:
    value = float(_text(data, "value"))
    if math.isfinite(value):
        raise ValueError("only inf, -inf and nan are stored as tagged floats")
    return value


def _tagged_tuple(data: dict, what: str) -> tuple:
    items = data["items"]
    if not isinstance(items, list):
        raise TypeError("'items' must be a list")
    return tuple(decode_value(v, what) for v in items)


def _tagged_timestamp(data: dict, what: str) -> pd.Timestamp:
    stamp = pd.Timestamp(_text(data, "value"))
    tz = data.get("tz")
    if tz is not None:
        if not isinstance(tz, str) or stamp.tz is None:
            raise ValueError("'tz' needs a string and a time with an offset")
        stamp = stamp.tz_convert(tz)
    if stamp is pd.NaT:
        raise ValueError("NaT is a missing value, not a category")
    return stamp


def _tagged_interval(data: dict, what: str) -> pd.Interval:
    closed = data["closed"]
    if closed not in ("left", "right", "both", "neither"):
        raise ValueError(f"'closed' must be left, right, both or neither, got {closed!r}")
    left, right = decode_value(data["left"], what), decode_value(data["right"], what)
    return pd.Interval(left, right, closed=closed)


_DECODERS = {
    "float": _tagged_float,
    "tuple": _tagged_tuple,
    "bytes": lambda d, what: base64.b64decode(_text(d, "base64").encode("ascii"), validate=True),
    "timestamp": _tagged_timestamp,
    "datetime": lambda d, what: dt.datetime.fromisoformat(_text(d, "value")),
    "date": lambda d, what: dt.date.fromisoformat(_text(d, "value")),
    "time": lambda d, what: dt.time.fromisoformat(_text(d, "value")),
    "timedelta": lambda d, what: pd.Timedelta(_integers(d, "ns")[0], unit="ns"),
    "py_timedelta": lambda d, what: dt.timedelta(*_integers(d, "days", "seconds", "microseconds")),
    "period": lambda d, what: pd.Period(_text(d, "value"), freq=_text(d, "freq")),
    "interval": _tagged_interval,
    "decimal": lambda d, what: decimal.Decimal(_text(d, "value")),
}
"""How each ``$type`` tag of :func:`encode_value` is read back."""


def encode_param(value, name: str):
    """A hyperparameter as JSON-ready data: numpy scalars and arrays become Python ones."""
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        return [encode_param(v, name) for v in value]
    if isinstance(value, dict):
        return {
            "$type": "dict",
            "items": [
                [encode_value(k, f"key of {name}"), encode_param(v, name)] for k, v in value.items()
            ],
        }
    return encode_value(value, f"parameter {name}")


def decode_param(data, name: str):
    if isinstance(data, list):
        return [decode_param(v, name) for v in data]
    if isinstance(data, dict) and data.get("$type") == "dict":
        items = data.get("items")
        if not isinstance(items, list) or not all(
            isinstance(p, list) and len(p) == 2 for p in items
        ):
            raise ModelFileError(f"parameter {name} is a malformed dict")
        return {decode_value(k, f"key of {name}"): decode_param(v, name) for k, v in items}
    return decode_value(data, f"parameter {name}")


# ---------------------------------------------------------------------------------------------
# writing
# ---------------------------------------------------------------------------------------------
def model_to_dict(model) -> dict:
    """Everything needed to predict again as plain JSON-ready data; a ``ValueError`` names any
    value that cannot be saved."""
    classes = model.classes_.tolist()
    categories = [
        None if c is None else [encode_value(v, f"category of {name!r}") for v in c]
        for name, c in zip(model._names, model._categories)
    ]
    return {
        "format": FORMAT,
        "version": VERSION,
        "params": {
            k: encode_param(v, k)
            for k, v in model.get_params().items()
            if k not in LATER_PARAMS or v != LATER_PARAMS[k]
        },
        "classes": [encode_value(c, "class") for c in classes],
        "feature_names": list(model._names),
        "has_feature_names": hasattr(model, "feature_names_in_"),
        "names_from_frame": bool(getattr(model, "_names_from_frame", False)),
        "categories": categories,
        "nodes": node_records(list(model.root_.walk()), classes),  # pre-order
    }


def node_records(nodes: list[Node], classes: list, *, encode: bool = True) -> list[dict]:
    """The nodes as flat records; every parent comes before its children. Branch keys are
    encoded for JSON unless ``encode`` is False (pickle keeps them as they are)."""
    position = {id(node): i for i, node in enumerate(nodes)}
    parent_of = {}
    for node in nodes:
        for key, child in node.children.items():
            parent_of[id(child)] = (position[id(node)], key)
    records = []
    for node in nodes:
        parent, key = parent_of.get(id(node), (-1, None))
        records.append(
            {
                "id": node.node_id,
                "parent": parent,
                "key": encode_value(key, "branch key") if encode else key,
                "feature": node.feature,
                "threshold": node.threshold,
                "counts": [node.class_counts[c] for c in classes],
                "entropy": node.entropy,
                "gain": node.gain,
                "depth": node.depth,
                "stop_reason": node.stop_reason,
            }
        )
    return records


# ---------------------------------------------------------------------------------------------
# reading: check everything, then build
# ---------------------------------------------------------------------------------------------
def model_from_dict(cls, d: dict):
    """A fitted ``cls`` from :func:`model_to_dict` output, checked through and through first."""
    params, classes, names, categories, names_from_frame = check_model_dict(cls, d)
    try:
        base = check_log_base(params.get("log_base", 2))
    except ValueError as exc:
        fail(f"a parameter is wrong: {exc}")
    with measuring(base):  # (the stored entropies are in the tree's unit)
        tree = check_nodes(d["nodes"], classes, names, categories)
    model = cls(**params)
    try:  # the same checks as fit: an unknown criterion, a negative depth, an unknown column ...
        model._grow_params()
        listed_columns(model.categorical, names)
    except (TypeError, ValueError) as exc:
        fail(f"a parameter is wrong: {exc}")
    model.classes_ = class_array(classes)
    model._names = names
    model.n_features_in_ = len(names)
    if d["has_feature_names"]:
        model.feature_names_in_ = np.asarray(names, dtype=object)
    model._names_from_frame = names_from_frame or d["has_feature_names"]
    model._categories = categories
    model._trace_columns = None
    model._set_tree(tree.build())
    return model


def fail(message: str) -> NoReturn:
    raise ModelFileError(f"not a valid id3tree model: {message}")


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _close_sums(totals: list, counts: list) -> bool:
    """Children's counts that add up to their parent's up to the rounding of float sums (a
    tree fitted with fractional sample weights); whole counts must add up exactly."""
    if all(_is_int(c) for c in counts) and all(_is_int(t) for t in totals):
        return False
    return bool(np.allclose(totals, counts, rtol=1e-9, atol=1e-12))


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def check_model_dict(cls, d) -> tuple[dict, list, list, list, bool]:
    """The parts of a model dict around its nodes, checked: ``(params, classes, feature names,
    categories, names_from_frame)``."""
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        raise ModelFileError("not an id3tree model: the 'format' field is missing or wrong")
    version = d.get("version")
    if not _is_int(version) or version != VERSION:
        raise ModelFileError(
            f"unsupported id3tree model version {version!r} (this id3tree reads {VERSION})"
        )
    missing = sorted(MODEL_FIELDS - d.keys())
    unknown = sorted(d.keys() - MODEL_FIELDS - OPTIONAL_MODEL_FIELDS)
    if missing:
        fail(f"the field(s) {missing} are missing")
    if unknown:
        fail(f"unknown field(s) {unknown}")
    if not isinstance(d.get("target", ""), str):
        fail(f"the 'target' field must be a column name, got {d['target']!r}")

    params = d["params"]
    if not isinstance(params, dict):
        fail("'params' must be an object")
    known = set(cls._get_param_names())
    unknown = sorted(set(params) - known)
    if unknown:
        fail(f"unknown parameter(s) {unknown} (known: {sorted(known)})")
    params = {k: decode_param(v, k) for k, v in params.items()}

    classes = d["classes"]
    if not isinstance(classes, list) or not classes:
        fail("'classes' must be a non-empty list")
    classes = [decode_value(c, f"class {i}") for i, c in enumerate(classes)]
    names, categories = d["feature_names"], d["categories"]
    for flag in ("has_feature_names", "names_from_frame"):
        if not isinstance(d.get(flag, False), bool):
            fail(f"{flag!r} must be true or false")
    if isinstance(names, list) and isinstance(categories, list):
        categories = [
            [decode_value(v, f"a category of {name!r}") for v in values]
            if isinstance(values, list)
            else values
            for name, values in zip(names, categories)
        ] + categories[len(names) :]
    check_labels(classes, names, categories)
    return params, classes, names, categories, d.get("names_from_frame", False)


def check_labels(classes, names, categories) -> None:
    """What a model's classes, feature names and categories (values as they are, decoded) must
    be, in a file or a pickle: classes a non-empty list of distinct non-null values, names a
    non-empty list of distinct strings, and per feature null (numeric) or a list of its distinct
    non-null categories."""
    if not isinstance(classes, list) or not classes:
        fail("'classes' must be a non-empty list")
    _check_unique(classes, "classes")
    if any(c is None for c in classes):
        fail("a class is null; missing labels are not classes")
    if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
        fail("'feature_names' must be a non-empty list of strings")
    _check_unique(names, "feature_names")
    if not isinstance(categories, list) or len(categories) != len(names):
        fail(f"'categories' must be a list with one entry per feature ({len(names)})")
    for name, values in zip(names, categories):
        if values is None:
            continue
        if not isinstance(values, list):
            fail(f"the categories of {name!r} must be a list or null")
        if any(v is None for v in values):
            fail(f"a category of {name!r} is null; missing values are not categories")
        _check_unique(values, f"the categories of {name!r}")


def _check_unique(values: list, what: str) -> None:
    seen = {}
    for v in values:
        try:
            hash(v)
        except TypeError:
            fail(f"{what} holds an unhashable value {v!r}")
        if v in seen:
            fail(f"{what} lists {v!r} twice")
        seen[v] = True


class CheckedTree:
    """Node records that passed :func:`check_nodes`, ready to become :class:`Node` objects."""

    def __init__(self, records, classes, keys, children_of, root):
        self.records, self.classes, self.keys = records, classes, keys
        self.children_of, self.root = children_of, root

    def build(self) -> Node:
        """The Node objects, linked parent to child in the stored order; the root."""
        classes, records = self.classes, self.records
        counts = np.array([r["counts"] for r in records], dtype=float).reshape(
            len(records), len(classes)
        )
        majority = majority_classes(counts).tolist()
        nodes = [
            Node(
                feature=r["feature"],
                threshold=None if r["threshold"] is None else float(r["threshold"]),
                children={},
                class_counts=dict(zip(classes, r["counts"])),
                n_samples=sum(r["counts"]),
                entropy=float(r["entropy"]),
                gain=None if r["gain"] is None else float(r["gain"]),
                prediction=classes[majority[i]],
                depth=r["depth"],
                node_id=r["id"],
                stop_reason=r.get("stop_reason"),
            )
            for i, r in enumerate(records)
        ]
        for i, kids in enumerate(self.children_of):
            for c in kids:
                nodes[i].children[self.keys[c]] = nodes[c]
        return nodes[self.root]


def check_nodes(
    records, classes: list, names: list, categories: list, *, encoded: bool = True
) -> CheckedTree:
    """Check the node records of a tree; every problem is a ``ModelFileError``.

    Nothing depends on the order of the records or on how nodes are numbered: the one record
    whose parent is -1 is the root, every other parent must be another record, and a walk from
    the root must reach every record exactly once (so there are no cycles). Each promise has a
    check of its own, run in this order; the first one broken is reported.
    """
    if not isinstance(records, list) or not records:
        fail("'nodes' must be a non-empty list")
    column = {name: f for f, name in enumerate(names)}
    ids: set = set()
    # 1. every record on its own: its fields, its links, its numbers
    for i, r in enumerate(records):
        _check_fields(i, r)
        _check_links(i, r, len(records), ids)
        _check_numbers(i, r, len(classes), column)
    # 2. one root, and the entropies the counts give
    root = _the_root(records)
    _check_entropies(records)
    # 3. every split: its kind, its children's keys and counts
    children_of: list[list[int]] = [[] for _ in records]
    for i, r in enumerate(records):
        if i != root:
            children_of[r["parent"]].append(i)
    keys: list = [None] * len(records)
    allowed = [None if c is None else set(c) for c in categories]
    for i, r in enumerate(records):
        f = None if r["feature"] is None else column[r["feature"]]
        split = (f, categories[f], allowed[f]) if f is not None else None
        _check_split(i, records, children_of[i], split, keys, encoded)
    # 4. a walk from the root: depths, categorical features used once per path, no cycles
    _check_walk(records, root, children_of, column, categories)
    return CheckedTree(records, classes, keys, children_of, root)


def _check_fields(i: int, r) -> None:
    """A record is an object with the fields of a node, and no others."""
    where = f"node record {i}"
    if not isinstance(r, dict):
        fail(f"{where} is not an object")
    missing = sorted(NODE_FIELDS - OPTIONAL_NODE_FIELDS - r.keys())
    unknown = sorted(r.keys() - NODE_FIELDS)
    if missing or unknown:
        fail(f"{where} " + (f"lacks {missing}" if missing else f"has unknown field(s) {unknown}"))


def _check_links(i: int, r: dict, n: int, ids: set) -> None:
    """A new id in int64's range, and a parent that is -1 (the root) or another record."""
    where = f"node record {i}"
    if not _is_int(r["id"]) or not 0 <= r["id"] <= MAX_ID or r["id"] in ids:
        fail(f"{where} has an id that is not a new integer from 0 to 2**63 - 1: {r['id']!r}")
    ids.add(r["id"])
    parent = r["parent"]
    if not _is_int(parent) or not -1 <= parent < n or parent == i:
        fail(f"{where} has parent {parent!r}: it must be -1 (the root) or another record")


def _check_numbers(i: int, r: dict, n_classes: int, column: dict) -> None:
    """Class counts that are non-negative numbers with a sum that is positive and stays finite
    in sums of sums, a known feature, finite threshold and gain, a non-negative entropy and
    depth, a stop reason in words."""
    where = f"node record {i}"
    counts = r["counts"]
    if (
        not isinstance(counts, list)
        or len(counts) != n_classes
        or not all(_is_number(c) and c >= 0 for c in counts)
    ):  # whole numbers, or sums of weights for a tree fitted with sample_weight
        fail(f"{where}: 'counts' must list {n_classes} non-negative numbers, got {counts!r}")
    if sum(counts) == 0:
        fail(f"{where} has no samples (all its counts are 0)")
    if not sum(counts) <= MAX_TOTAL_WEIGHT:  # no fit makes them: sums of them overflow
        fail(f"{where} has counts that add up to {sum(counts):.3g}, more than 2**500")
    if r["feature"] is not None and (
        not isinstance(r["feature"], str) or r["feature"] not in column
    ):
        fail(f"{where} splits on {r['feature']!r}, which is not a feature of the model")
    if r["threshold"] is not None and not _is_number(r["threshold"]):
        fail(f"{where} has a threshold that is not a finite number: {r['threshold']!r}")
    if not _is_number(r["entropy"]) or r["entropy"] < 0:
        fail(f"{where} has an entropy that is not a non-negative number: {r['entropy']!r}")
    if r["gain"] is not None and not _is_number(r["gain"]):
        fail(f"{where} has a gain that is not a finite number: {r['gain']!r}")
    if not _is_int(r["depth"]) or not 0 <= r["depth"] <= MAX_ID:
        fail(f"{where} has a depth that is not a non-negative integer: {r['depth']!r}")
    if r.get("stop_reason") is not None and not isinstance(r["stop_reason"], str):
        fail(f"{where} has a stop_reason that is not a string")


def _the_root(records: list) -> int:
    """The one record whose parent is -1, with no branch key."""
    roots = [i for i, r in enumerate(records) if r["parent"] == -1]
    if len(roots) != 1:
        fail(f"a tree has one root (a node whose parent is -1), this one has {len(roots)}")
    if records[roots[0]]["key"] is not None:
        fail("the root has a branch key, but no branch leads to it")
    return roots[0]


def _check_entropies(records: list) -> None:
    """Every stored entropy is the one its counts give (within ``ENTROPY_TOLERANCE``)."""
    expected = entropy_rows(np.array([r["counts"] for r in records], dtype=float))
    for i, r in enumerate(records):
        if abs(r["entropy"] - expected[i]) > ENTROPY_TOLERANCE:
            fail(
                f"node record {i} has entropy {r['entropy']!r}, its counts give "
                f"{float(expected[i])!r}"
            )


def _check_split(i: int, records: list, kids: list, split, keys: list, encoded: bool) -> None:
    """A leaf has no children, threshold nor gain; a split (``split``: its feature's position,
    categories and their set; None for a leaf) has children, a gain, a threshold exactly when
    its feature is numeric, and one child per key its kind allows, whose counts add up to its
    own. The children's keys go to ``keys``."""
    r, where = records[i], f"node record {i}"
    if split is None:
        if kids:
            fail(f"{where} has children but splits on no feature")
        if r["threshold"] is not None or r["gain"] is not None:
            fail(f"{where} is a leaf but has a threshold or a gain")
        return
    if not kids:
        fail(f"{where} splits on {r['feature']!r} but has no children")
    if r["gain"] is None:
        fail(f"{where} splits on {r['feature']!r} but has no gain")
    _, known, allowed = split
    numeric = known is None
    if numeric and r["threshold"] is None:
        fail(f"{where} splits on the numeric feature {r['feature']!r} without a threshold")
    if not numeric and r["threshold"] is not None:
        fail(f"{where} has a threshold on the categorical feature {r['feature']!r}")
    seen = set()
    totals = [0] * len(r["counts"])
    for c in kids:
        key = _branch_key(c, records[c]["key"], r["feature"], allowed, encoded)
        if key in seen:
            fail(f"{where} has two branches with the key {key!r}")
        seen.add(key)
        keys[c] = key
        totals = [t + k for t, k in zip(totals, records[c]["counts"])]
    if totals != r["counts"] and not _close_sums(totals, r["counts"]):
        fail(f"the counts of the children of {where} add up to {totals}, not {r['counts']}")


def _branch_key(c: int, key, feature: str, allowed: set | None, encoded: bool):
    """The key of record ``c``'s branch, checked against its parent's split on ``feature``:
    ``'<='``, ``'>'`` or null under a numeric split (``allowed`` None), else a category in
    ``allowed`` or null (decoded first when ``encoded``)."""
    if allowed is None:
        if key is not None and key not in NUMERIC_KEYS:
            fail(f"node record {c}: a numeric split's branch key is '<=', '>' or null, got {key!r}")
        return key
    if encoded:
        key = decode_value(key, f"the branch key of node record {c}")
    try:
        ok = key is None or key in allowed
    except TypeError:
        ok = False
    if not ok:
        fail(f"node record {c}: {key!r} is not a category of {feature!r}")
    return key


def _check_walk(records: list, root: int, children_of: list, column: dict, categories) -> None:
    """A walk from the root reaches every record once (no cycles), each at the depth it
    states, and no path splits twice on one categorical feature."""
    used = [0] * len(column)
    reached = 0
    stack = [(root, True)]
    while stack:
        i, entering = stack.pop()
        r = records[i]
        f = None if r["feature"] is None else column[r["feature"]]
        categorical = f is not None and categories[f] is not None
        if not entering:
            if categorical:
                used[f] -= 1
            continue
        reached += 1
        depth = 0 if i == root else records[r["parent"]]["depth"] + 1
        if r["depth"] != depth:
            fail(f"node record {i} has depth {r['depth']}, its place in the tree gives {depth}")
        if categorical:
            if used[f]:
                fail(f"node record {i} splits again on the categorical feature {r['feature']!r}")
            used[f] += 1
        stack.append((i, False))
        stack.extend((c, True) for c in reversed(children_of[i]))
    if reached != len(records):
        fail(
            f"{len(records) - reached} node record(s) are not below the root (their parents form "
            "a cycle)"
        )


def nodes_from_records(
    records: list[dict], classes: list, names: list, categories: list, *, encoded: bool = True
) -> Node:
    """The root of the tree stored as flat records, checked first (pickled models use this)."""
    return check_nodes(records, classes, names, categories, encoded=encoded).build()


def read_json(s_or_path) -> dict:
    """Parse JSON given as text or as a path to a file; NaN and Infinity literals, duplicate
    names in an object and nesting too deep to parse are errors."""
    if isinstance(s_or_path, (str, Path)) and not str(s_or_path).lstrip().startswith("{"):
        path = Path(s_or_path)
        try:
            is_file = path.is_file()
        except (OSError, ValueError):  # a name too long, or with a NUL: not a file's name
            is_file = False
        if is_file:
            try:
                return parse_json(path.read_text(encoding="utf-8"))
            except UnicodeDecodeError as exc:
                raise ModelFileError(f"the model file is not UTF-8 text: {exc}") from None
        if isinstance(s_or_path, Path) or "{" not in s_or_path:
            raise ModelFileError(f"no model file at {str(path)[:200]!r}")
    elif not isinstance(s_or_path, (str, bytes, bytearray)):
        raise ModelFileError(f"from_json takes JSON text or a path, got {type(s_or_path).__name__}")
    return parse_json(s_or_path)


def parse_json(text) -> dict:
    """JSON text as Python data, or a ``ModelFileError`` that says what is wrong with it."""
    try:
        return json.loads(
            text, parse_constant=_refuse_constant, parse_float=_finite_float,
            object_pairs_hook=_unique_names,
        )  # fmt: skip
    except RecursionError:
        raise ModelFileError("the model is not valid JSON: it is nested too deeply") from None
    except ModelFileError:
        raise
    except ValueError as exc:  # JSONDecodeError, too many digits, bad UTF-8 in bytes
        raise ModelFileError(f"the model is not valid JSON: {exc}") from None


def _refuse_constant(name: str):
    raise ModelFileError(f"the model is not valid JSON: {name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ModelFileError(f"the model holds the number {text}, too large for a float")
    return value


def _unique_names(pairs: list) -> dict:
    d = dict(pairs)
    if len(d) != len(pairs):
        names = [k for k, _ in pairs]
        twice = sorted({k for k in names if names.count(k) > 1})
        raise ModelFileError(f"the model is not valid JSON: an object names {twice} twice")
    return d
