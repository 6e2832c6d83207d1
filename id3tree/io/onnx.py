"""A fitted tree as an ONNX model, which onnxruntime (and every ONNX runtime with the ``ai.onnx.ml``
operators) runs without Python or id3tree: :func:`to_onnx`, and :func:`onnx_inputs`, the table a
model takes.

The graph reads one input, ``X``: a ``double`` tensor of shape ``(n_rows, n_features)`` in the
model's feature order, with a number for a numeric feature (NaN when missing) and a category's
code for a categorical one (its position in the feature's categories, as the model lists them;
their count for a missing value; -1 for a value never seen at fit time). :func:`onnx_inputs`
makes that table from anything :meth:`~id3tree.ID3Classifier.predict` takes, by the very encoding
``predict`` uses; a table of numbers only is simply its values as doubles. The thresholds are
doubles too, so every row meets them as ``predict`` compares them.

It answers two outputs: ``label`` (the classes as ``predict`` gives them: 64-bit integers for
integer classes, else text) and ``probabilities`` (``(n_rows, n_classes)`` floats, in
``classes_`` order, ``predict_proba`` rounded to float32).

Each node of the tree becomes a few nodes of an ``ai.onnx.ml`` ``TreeEnsembleClassifier``
(opset 3, double thresholds), so a row goes where ``predict`` sends it:

* a numeric split is ``x <= t`` (to the left child), then ``x > t`` (to the right one); a value
  neither, NaN, goes on to the missing values' child;
* a categorical split tests its branches' codes in increasing order, ``x <= code`` then
  ``x >= code`` for each (the missing values' branch too: its code is the count of categories);
* where a node has no branch for a row (a category never seen there, a missing value where no
  training row was missing) the row ends in a leaf that holds that node's own class shares:
  ``predict`` stops at the node and answers them.

The label comes from a ``TreeEnsembleRegressor`` over the same nodes whose leaves hold the
position of their majority class (ties to the first class, as ``predict`` breaks them), gathered
from the classes: so the label is exact even where float32 probabilities would tie.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from id3tree.base.validation import rows_to_predict
from id3tree.model.node import LEFT, NUMERIC_MISSING, RIGHT, majority_classes

__all__ = ["onnx_inputs", "OPSETS", "to_onnx"]

OPSETS = {"": 13, "ai.onnx.ml": 3}
"""The operator sets the graph uses: ``Gather``, ``Cast`` and ``Reshape`` of the default domain
(13), and the tree ensembles of ``ai.onnx.ml`` 3 (the first with double thresholds)."""


def onnx_inputs(model: Any, X: Any) -> np.ndarray:
    """The ``X`` input of :func:`to_onnx`'s graph for the rows ``X``: a C-ordered
    ``(n_rows, n_features)`` float64 array of numbers and category codes, checked and encoded as
    :meth:`~id3tree.ID3Classifier.predict` checks and encodes them."""
    _fitted(model)
    rows = rows_to_predict(
        X, model._names, model._categories,
        by_name=hasattr(model, "feature_names_in_") or getattr(model, "_names_from_frame", False),
        with_names=hasattr(model, "feature_names_in_"),
    )  # fmt: skip
    return np.ascontiguousarray(rows, dtype=np.float64)


def to_onnx(model: Any, *, name: str = "id3tree") -> Any:
    """The fitted ``model`` (an :class:`~id3tree.ID3Classifier`) as an ``onnx.ModelProto`` (see
    the module's introduction for its input and outputs). Needs the ``onnx`` package (the
    ``onnx`` extra: ``pip install "id3tree-learn[onnx]"``)."""
    _fitted(model)
    try:
        import onnx
        from onnx import TensorProto, helper, numpy_helper
    except ImportError as error:  # pragma: no cover - the extra is installed in CI
        raise ImportError(
            'to_onnx needs the onnx package: pip install "id3tree-learn[onnx]"'
        ) from error
    nodes = _ensemble_nodes(model._tree, model._categories)
    classes = np.asarray(model.classes_)
    integer_labels = classes.dtype.kind in "iu"
    labels = classes.astype(np.int64) if integer_labels else np.array([str(c) for c in classes])
    n_classes = len(classes)
    shared: dict[str, Any] = {
        "nodes_treeids": [0] * len(nodes.modes), "nodes_nodeids": list(range(len(nodes.modes))),
        "nodes_featureids": nodes.features, "nodes_modes": nodes.modes,
        "nodes_values_as_tensor": numpy_helper.from_array(np.asarray(nodes.values, np.float64)),
        "nodes_truenodeids": nodes.true, "nodes_falsenodeids": nodes.false,
        "nodes_missing_value_tracks_true": [0] * len(nodes.modes),
    }  # fmt: skip
    shares = nodes.proba.astype(np.float32)
    leaf_ids = np.repeat(nodes.leaves, n_classes).tolist()
    classifier = helper.make_node(
        "TreeEnsembleClassifier", ["X"], ["classifier_label", "probabilities"],
        domain="ai.onnx.ml", name="tree", **shared,
        class_treeids=[0] * len(leaf_ids), class_nodeids=leaf_ids,
        class_ids=np.tile(np.arange(n_classes), len(nodes.leaves)).tolist(),
        class_weights=shares.reshape(-1).tolist(),
        classlabels_int64s=list(range(n_classes)),
    )  # fmt: skip
    majority = helper.make_node(
        "TreeEnsembleRegressor", ["X"], ["majority_position"], domain="ai.onnx.ml",
        name="majority", n_targets=1, **shared,
        target_treeids=[0] * len(nodes.leaves), target_nodeids=nodes.leaves,
        target_ids=[0] * len(nodes.leaves), target_weights=nodes.majority.tolist(),
    )  # fmt: skip
    label_type = TensorProto.INT64 if integer_labels else TensorProto.STRING
    graph = helper.make_graph(
        [
            classifier,
            majority,
            helper.make_node("Cast", ["majority_position"], ["position_2d"], to=TensorProto.INT64),
            helper.make_node("Reshape", ["position_2d", "flat"], ["position"]),
            helper.make_node("Gather", ["classes", "position"], ["label"], axis=0),
        ],
        name,
        [helper.make_tensor_value_info("X", TensorProto.DOUBLE, [None, len(model._names)])],
        [
            helper.make_tensor_value_info("label", label_type, [None]),
            helper.make_tensor_value_info("probabilities", TensorProto.FLOAT, [None, n_classes]),
        ],
        initializer=[
            numpy_helper.from_array(labels, "classes"),
            numpy_helper.from_array(np.array([-1], dtype=np.int64), "flat"),
        ],
    )
    proto = helper.make_model(
        graph, opset_imports=[helper.make_opsetid(d, v) for d, v in OPSETS.items()],
        producer_name="id3tree", doc_string="features: " + ", ".join(map(str, model._names)),
    )  # fmt: skip
    onnx.checker.check_model(proto)
    return proto


def _fitted(model: Any) -> None:
    from sklearn.utils.validation import check_is_fitted

    check_is_fitted(model, "_tree")


class _Nodes:
    """The nodes of one ONNX tree, as the ensembles' attribute lists take them."""

    def __init__(self) -> None:
        self.modes: list[str] = []
        self.features: list[int] = []
        self.values: list[float] = []
        self.true: list[int] = []
        self.false: list[int] = []
        self.leaves: list[int] = []
        self.leaf_of: list[int] = []  # the model node whose counts each leaf answers
        self.proba = np.zeros((0, 0))
        self.majority = np.zeros(0)

    def add(self, mode: str, feature: int = 0, value: float = 0.0) -> int:
        """A new node; its children are set later (a leaf's stay 0)."""
        self.modes.append(mode)
        self.features.append(feature)
        self.values.append(value)
        self.true.append(0)
        self.false.append(0)
        return len(self.modes) - 1

    def add_leaf(self, position: int) -> int:
        at = self.add("LEAF")
        self.leaves.append(at)
        self.leaf_of.append(position)
        return at


def _ensemble_nodes(tree: Any, categories: list[Any]) -> _Nodes:
    """The model's tree (a :class:`~id3tree.model.grown_tree.GrownTree`) as ONNX nodes: each model
    node's tests, in pre-order, and a leaf wherever a row would stop."""
    feature = np.asarray(tree.feature, dtype=np.int64).tolist()
    parent = np.asarray(tree.parent, dtype=np.int64).tolist()
    slot = np.asarray(tree.slot, dtype=np.int64).tolist()
    children: list[dict[int, int]] = [{} for _ in feature]
    for position, (p, s) in enumerate(zip(parent, slot)):
        if p >= 0:
            children[p][s] = position
    nodes = _Nodes()
    entry = [0] * len(feature)  # the first ONNX node of each model node

    links: list[tuple[int, bool, int]] = []  # (ONNX node, its true side?, model node)
    for position, f in enumerate(feature):
        if f < 0:
            entry[position] = nodes.add_leaf(position)
            continue
        kids = children[position]
        if categories[f] is None:
            threshold = float(tree.threshold[position])
            at = entry[position] = nodes.add("BRANCH_LEQ", f, threshold)
            greater = nodes.false[at] = nodes.add("BRANCH_GT", f, threshold)
            links += [(at, True, kids[LEFT]), (greater, True, kids[RIGHT])]
            last, missing = greater, kids.get(NUMERIC_MISSING)
        else:
            entry[position], last = _category_tests(nodes, position, f, kids, links)
            missing = None
        if missing is not None:
            links.append((last, False, missing))
        else:
            nodes.false[last] = nodes.add_leaf(position)  # no branch: the row stops here
    for at, true_side, child in links:
        if true_side:
            nodes.true[at] = entry[child]
        else:
            nodes.false[at] = entry[child]
    counts = np.asarray(tree.counts, dtype=np.float64)[nodes.leaf_of]
    nodes.proba = counts / counts.sum(axis=1, keepdims=True)
    nodes.majority = majority_classes(counts).astype(np.float64)
    return nodes


def _category_tests(
    nodes: _Nodes, position: int, f: int, kids: dict[int, int], links: list[tuple[int, bool, int]]
) -> tuple[int, int]:
    """The tests of a categorical split: for each branch's code ``c`` in increasing order,
    ``x <= c`` (else on to the next code), then ``x >= c`` (the branch; else the row stops
    here: its code lies between two branches'). Returns the first test and the last, whose
    false side is still to be set. (Not a chain of ``BRANCH_EQ`` tests: onnxruntime 1.32 sent
    some rows of such chains to the wrong leaf, on the car data for one.)"""
    first = last = -1
    for code, child in sorted(kids.items()):
        at = nodes.add("BRANCH_LEQ", f, float(code))
        if last < 0:
            first = at
        else:
            nodes.false[last] = at
        equal = nodes.true[at] = nodes.add("BRANCH_GTE", f, float(code))
        nodes.false[equal] = nodes.add_leaf(position)
        links.append((equal, True, child))
        last = at
    return first, last
