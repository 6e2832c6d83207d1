"""Course conventions side by side: grow one tree under two conventions and say where they part.

Textbooks and tools agree on ID3 and still print different trees: C4.5 puts a numeric threshold
at "the largest value in the training set that does not exceed the midpoint" (Quinlan 1993),
most courses at the midpoint itself (``ID3Classifier(thresholds=...)``); C4.5 ranks features by
gain ratio, ID3 by gain (``criterion=``); most books measure in bits, some in nats
(``log_base=``); of features whose gains tie, the first column wins, or the first by name
(``ties=``). :func:`compare` grows both trees on the same data and walks them together,
node by node, saying at each node that differs how and why.

>>> from id3tree.conventions import compare
>>> from id3tree.datasets import load_iris
>>> X, y = load_iris(return_X_y=True)
>>> result = compare(X, y, "c45", "midpoint", max_depth=2)
>>> result.same_structure
True
>>> print(str(result).splitlines()[0])
a = thresholds='c45', b = thresholds='midpoint': the same tree shape; 2 of 5 nodes differ
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd

from id3tree.base.entropy import TIE_TOLERANCE
from id3tree.base.words import format_number
from id3tree.learner import ID3Classifier
from id3tree.model.node import Node

__all__ = ["CONVENTIONS", "Comparison", "compare", "convention"]

CONVENTIONS: dict[str, dict[str, Any]] = {
    "c45": {"thresholds": "c45"},
    "midpoint": {"thresholds": "midpoint"},
    "gain": {"criterion": "entropy"},
    "entropy": {"criterion": "entropy"},
    "gain_ratio": {"criterion": "gain_ratio"},
    "bits": {"log_base": 2},
    "nats": {"log_base": "e"},
    "column_order": {"ties": "first"},
    "by_name": {"ties": "name"},
}
"""The short names :func:`compare` takes for a convention, and the parameters each stands for;
``"name=value"`` (``"criterion=gain_ratio"``, ``"max_depth=3"``) sets any parameter."""

_PARAMS = set(ID3Classifier().get_params())


def convention(spec: str | dict[str, Any]) -> dict[str, Any]:
    """The learner's parameters a convention stands for: a dict of them as it is, a short name
    of :data:`CONVENTIONS`, or ``"name=value"`` (several joined by commas); an empty string or
    dict is the defaults. Anything else is a ``ValueError`` naming it."""
    if isinstance(spec, dict):
        unknown = sorted(set(spec) - _PARAMS, key=str)
        if unknown:
            raise ValueError(f"convention {spec!r}: {unknown} are not ID3Classifier parameters")
        return dict(spec)
    if not isinstance(spec, str):
        raise TypeError(f"a convention is a dict or a str such as 'c45', got {spec!r}")
    params: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in spec.split(","))):
        if part in CONVENTIONS:
            params |= CONVENTIONS[part]
        elif "=" in part:
            name, value = (s.strip() for s in part.split("=", 1))
            params |= convention({name: _value(value)})
        else:
            raise ValueError(
                f"unknown convention {part!r}: use one of {sorted(CONVENTIONS)} or name=value"
            )
    return params


def _value(text: str) -> Any:
    """A parameter's value written as text: a number, None, True/False, else the text."""
    words = {"None": None, "True": True, "False": False}
    if text in words:
        return words[text]
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


_TIES = {"first": "column order", "name": "alphabetical order"}


def _unit(params: dict[str, Any]) -> str:
    return "nats" if params.get("log_base", 2) == "e" else "bits"


def _units(result: Comparison) -> str:
    """Where the two conventions measure in different units: what that does to the numbers."""
    a, b = _unit(result.a), _unit(result.b)
    if a == b:
        return ""
    ha, hb = result.tree_a.root_.entropy, result.tree_b.root_.entropy
    factor = "times ln 2" if a == "nats" else "divided by ln 2"
    return (
        f"every entropy and gain of a is in {a}, of b in {b}: a's are b's {factor} (the root's "
        f"entropy {ha:.4f} {a}, {hb:.4f} {b}); the choice of splits does not depend on the "
        "unit, but min_gain and ccp_alpha are read in each tree's own"
    )


def _words(params: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in params.items()) or "the defaults"


@dataclass
class Comparison:
    """Two trees of the same data grown under conventions ``a`` and ``b`` (their parameters),
    walked together: ``nodes`` has a row per node reached in both (by the same path), with each
    tree's feature, threshold, gain and rows, whether it ``differs`` and ``why``."""

    a: dict[str, Any]
    b: dict[str, Any]
    tree_a: ID3Classifier
    tree_b: ID3Classifier
    nodes: pd.DataFrame
    same_structure: bool

    def __str__(self) -> str:
        shape = "the same tree shape" if self.same_structure else "different trees"
        differ = self.nodes[self.nodes["differs"]]
        head = (
            f"a = {_words(self.a)}, b = {_words(self.b)}: {shape}; "
            f"{len(differ)} of {len(self.nodes)} nodes differ"
        )
        lines = [head]
        units = _units(self)
        if units:
            lines.append(f"  {units}")
        for row in differ.itertuples():
            lines.append(f"  node {row.node_a} [{row.path}]: {row.why}")
        return "\n".join(lines)


def compare(
    X: Any, y: Any, a: str | dict[str, Any], b: str | dict[str, Any], **common: Any
) -> Comparison:
    """Grow ``ID3Classifier(**common, **a)`` and ``ID3Classifier(**common, **b)`` on ``X, y``
    and say node by node where and why they part.

    ``a`` and ``b`` are conventions (:func:`convention`): a dict of parameters, a short name
    (``"c45"``, ``"midpoint"``, ``"gain_ratio"``) or ``"name=value"``. ``common`` are the
    parameters of both (``max_depth=3``). The result's ``str`` lists the nodes that differ:
    the same feature with another threshold (C4.5's largest training value below the cut, or
    a cut that moved), another feature (with both gains), a leaf against a split;
    ``same_structure`` says whether both trees split on the same features into the same
    branches everywhere; ``nodes`` is a DataFrame of every node reached in both trees.
    """
    pa, pb = convention(a), convention(b)
    convention(common)  # (the common parameters, checked alike)
    tree_a = ID3Classifier(**(common | pa)).fit(X, y)
    tree_b = ID3Classifier(**(common | pb)).fit(X, y)
    rows: list[dict[str, Any]] = []
    same = _walk(tree_a.root_, tree_b.root_, "root", rows, pa, pb)
    return Comparison(pa, pb, tree_a, tree_b, pd.DataFrame(rows, columns=_COLUMNS), same)


_COLUMNS = [
    "path", "depth", "node_a", "node_b", "feature_a", "feature_b", "threshold_a",
    "threshold_b", "gain_a", "gain_b", "n_samples_a", "n_samples_b", "differs", "why",
]  # fmt: skip


def _walk(
    x: Node, z: Node, path: str, rows: list[dict[str, Any]], pa: dict[str, Any], pb: dict[str, Any]
) -> bool:
    """Append the row of nodes ``x`` (tree a) and ``z`` (tree b), then of their children with
    the same branch keys; returns whether the subtrees have the same structure."""
    why = _why(x, z, pa, pb)
    rows.append({
        "path": path, "depth": x.depth, "node_a": x.node_id, "node_b": z.node_id,
        "feature_a": x.feature, "feature_b": z.feature, "threshold_a": x.threshold,
        "threshold_b": z.threshold, "gain_a": x.gain, "gain_b": z.gain,
        "n_samples_a": x.n_samples, "n_samples_b": z.n_samples, "differs": bool(why),
        "why": why,
    })  # fmt: skip
    same = x.feature == z.feature and list(x.children) == list(z.children)
    for key, child in x.children.items():
        if key in z.children:
            where = _branch(x, key)
            below = where if path == "root" else f"{path} and {where}"
            same &= _walk(child, z.children[key], below, rows, pa, pb)
    return same


def _branch(node: Node, key: Any) -> str:
    if node.threshold is None:
        return f"{node.feature} = {key}"
    if key in ("<=", ">"):  # (a's threshold)
        return f"{node.feature} {key} {format_number(node.threshold)}"
    return f"{node.feature} {key}"


def _test(node: Node) -> str:
    if node.is_leaf:
        return f"a leaf predicting {node.prediction}"
    if node.threshold is None:
        return f"{node.feature} (gain {node.gain:.4f})"
    return f"{node.feature} <= {format_number(node.threshold)}"


def _why(x: Node, z: Node, pa: dict[str, Any], pb: dict[str, Any]) -> str:
    """Why nodes ``x`` and ``z`` (the same path in trees a and b) differ; "" if they do not."""
    if x.feature == z.feature and x.threshold == z.threshold:
        if x.n_samples != z.n_samples:
            return f"the same test, reached by {x.n_samples} rows in a and {z.n_samples} in b"
        return ""
    if x.is_leaf or z.is_leaf:
        units = (_unit(pa), _unit(pb))
        if units[0] != units[1]:  # (min_gain is read in each tree's unit)
            return (
                f"{_test(x)} in a, {_test(z)} in b; a's gains are in {units[0]}, b's in {units[1]}"
            )
        return f"{_test(x)} in a, {_test(z)} in b"
    if x.feature == z.feature:
        rules = (pa.get("thresholds", "midpoint"), pb.get("thresholds", "midpoint"))
        because = (
            "the same cut: thresholds='c45' takes the largest training value that does not "
            "exceed the midpoint, thresholds='midpoint' the midpoint itself"
            if rules[0] != rules[1]
            else "the best cut moved"
        )
        return f"{_test(x)} vs {_test(z)}: {because}"
    gains = f"a's gain {x.gain:.4f}, b's {z.gain:.4f}"
    if pa.get("criterion", "entropy") != pb.get("criterion", "entropy"):
        gains += " (the features compete on different criteria)"
    elif pa.get("ties", "first") != pb.get("ties", "first") and _unit(pa) == _unit(pb):
        if abs((x.gain or 0.0) - (z.gain or 0.0)) <= TIE_TOLERANCE:  # (splits: gains are set)
            gains += (
                f": a tie, which {_TIES[pa.get('ties', 'first')]} breaks in a and "
                f"{_TIES[pb.get('ties', 'first')]} in b"
            )
    return f"different features: a splits on {_test(x)}, b on {_test(z)}; {gains}"
