"""Post-pruning: cutting back a grown tree so that it stops memorising its training rows.

A fully grown ID3 tree fits its training data perfectly and new data less well. Three classical
remedies replace subtrees by leaves after growth; each works on a copy of a tree of
:class:`~id3tree.model.node.Node` objects and records every decision it takes.

* **Reduced-error pruning** (Quinlan 1987, "Simplifying decision trees"). Bottom up, a subtree is
  replaced by a leaf when the leaf makes no more mistakes on a separate *validation* set than the
  subtree does.
* **Pessimistic (error-based) pruning** (C4.5, Quinlan 1993, chapter 4). No validation set: the
  training errors E out of N rows at a leaf are replaced by an upper confidence limit
  ``N * U_CF(E, N)`` of the binomial error rate. A subtree is replaced by a leaf when the leaf's
  estimate is no larger than the sum of its leaves' estimates (plus 0.1, as in C4.5 and J48).
  Only *subtree replacement* is done here; C4.5's *subtree raising* (replacing a node by its
  largest branch and re-sorting the training rows) is not, because the tree keeps no rows.
* **Minimal cost-complexity pruning** (Breiman et al. 1984, CART), computed exactly as
  scikit-learn does: the cost of a node is ``R(t) = n_t / n * H(t)`` (entropy in bits weighted by
  the node's share of the rows), a subtree's cost is the sum over its leaves, and the weakest link
  (smallest ``g(t) = (R(t) - R(T_t)) / (|leaves(T_t)| - 1)``) is cut first, again and again; the
  tree for ``ccp_alpha`` is the last one whose weakest link had ``g <= ccp_alpha``.

Nodes keep the ``node_id`` they had in the grown tree, so the decision table, the growth trace
and the drawings of both trees speak of the same nodes.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as _scipy_stats

from id3tree.base.params import check_ccp_alpha, check_confidence
from id3tree.model.node import Node

__all__ = [
    "added_errors", "binomial_upper_limit", "bottom_up", "c45_deviate", "copy_tree",
    "cost_complexity", "cost_complexity_path", "DECISION_COLUMNS", "make_leaf", "pessimistic",
    "PRUNING_METHODS", "PruningDecision", "PruningResult", "reduced_error", "validation_stops",
    "weakest_links",
]  # fmt: skip

PRUNING_METHODS = ("reduced_error", "pessimistic", "cost_complexity")

DECISION_COLUMNS = [
    "node", "depth", "n_samples", "n_leaves", "measure", "subtree", "leaf", "alpha", "decision",
]  # fmt: skip


@dataclass(frozen=True)
class PruningDecision:
    """Post-pruning looked at an internal node: its subtree against the node made a leaf.

    ``measure`` names what ``subtree`` and ``leaf`` count: validation errors (reduced-error
    pruning), estimated errors (pessimistic pruning) or weighted entropy (cost-complexity
    pruning, where ``alpha`` is the node's effective alpha).
    """

    node: int
    depth: int
    method: str
    measure: str
    subtree: float
    leaf: float
    alpha: float | None
    pruned: bool

    def __str__(self) -> str:
        alpha = f", effective alpha {self.alpha:.4g}" if self.alpha is not None else ""
        verdict = "pruned: the node becomes a leaf" if self.pruned else "kept"
        return (
            f"{'    ' * self.depth}Node {self.node} ({self.method}): {self.measure} "
            f"{self.subtree:.4g} as a subtree, {self.leaf:.4g} as a leaf{alpha} => {verdict}"
        )


# ---------------------------------------------------------------------------------------------
# Tree surgery
# ---------------------------------------------------------------------------------------------
def copy_tree(root: Node) -> Node:
    """A deep copy of the tree (no recursion: trees can be thousands of levels deep)."""
    top = replace(root, children={})
    stack = [(root, top)]
    while stack:
        node, copy = stack.pop()
        for key, child in node.children.items():
            child_copy = copy.children[key] = replace(child, children={})
            if child.children:
                stack.append((child, child_copy))
    return top


def make_leaf(node: Node, reason: str) -> None:
    """Turn ``node`` into a leaf in place; it keeps its class counts and so its prediction."""
    node.children = {}
    node.feature = node.threshold = node.gain = None
    node.stop_reason = reason


def bottom_up(root: Node) -> list[Node]:
    """Every node, each after all of its descendants (reversed pre-order)."""
    return list(root.walk())[::-1]


def _leaf_errors(counts: np.ndarray, majority: int) -> float:
    return float(counts.sum() - counts[majority])


@dataclass
class PruningResult:
    """A pruned copy of a tree and the table of the decisions that made it."""

    root: Node
    decisions: pd.DataFrame


class _Log:
    """Collects decisions as table rows and sends them to a tracer."""

    def __init__(self, method: str, measure: str, tracer: Any) -> None:
        self.method, self.measure, self.tracer = method, measure, tracer
        self.rows: list[Any] = []

    def add(
        self, node: Any, n_leaves: Any, subtree: Any, leaf: Any, pruned: Any, alpha: Any = math.nan
    ) -> None:
        self.rows.append(dict(
            node=node.node_id, depth=node.depth, n_samples=node.n_samples, n_leaves=n_leaves,
            measure=self.measure, subtree=subtree, leaf=leaf, alpha=alpha,
            decision="pruned" if pruned else "kept",
        ))  # fmt: skip
        if self.tracer is not None:
            self.tracer(PruningDecision(
                node.node_id, node.depth, self.method, self.measure, subtree, leaf,
                None if math.isnan(alpha) else alpha, pruned,
            ))  # fmt: skip

    def frame(self) -> pd.DataFrame:
        table = pd.DataFrame(self.rows, columns=DECISION_COLUMNS)
        table.attrs["method"] = self.method
        return table


# ---------------------------------------------------------------------------------------------
# Reduced-error pruning (Quinlan 1987)
# ---------------------------------------------------------------------------------------------
def validation_stops(stop: Any, y_codes: Any, weight: Any, ids: Any, n_classes: int) -> dict:
    """The class counts of the validation rows that stop at each node, ``{node id: counts}``,
    for :func:`reduced_error`: row i stops at the node in position ``stop[i]`` of ``ids`` with
    class code ``y_codes[i]`` and weighs ``weight`` (one number, or one per row)."""
    counts = np.zeros((len(ids), n_classes))
    np.add.at(counts, (stop, y_codes), weight)
    ids = ids.tolist()
    return {ids[i]: counts[i] for i in np.flatnonzero(counts.any(axis=1)).tolist()}


def reduced_error(root: Node, stops: dict, classes: list, *, tracer: Any = None) -> PruningResult:
    """Reduced-error pruning against a validation set.

    Parameters
    ----------
    root : Node
        The grown tree (left untouched).
    stops : dict
        ``node_id -> class counts`` (in ``classes`` order) of the validation rows that *stop* at
        that node when sent down the grown tree (at a leaf, or earlier where the node has no branch
        for them).
    classes : list

    Notes
    -----
    Bottom up, for every internal node: the subtree's validation errors (rows predicted wrongly
    by the leaves below, with the pruning below already done) are compared with the errors of the
    node made a leaf (the validation rows that reach it, minus those of its training majority
    class). The node is pruned when the leaf makes no more errors; so a subtree no validation row
    reaches is pruned too. Ties between the two go to the smaller tree.

    With no validation row at all (or only rows of weight 0) every subtree would tie at 0
    errors and the tree would be pruned to its root: that is an error, not a tree.
    """
    if not any(np.any(np.asarray(counts, dtype=float) > 0) for counts in stops.values()):
        raise ValueError(
            "reduced_error pruning needs validation rows, and none reached the tree (X_val "
            "has no rows, or every row weighs 0): with no rows every subtree ties at 0 errors "
            "and the tree would be pruned to its root"
        )
    tree = copy_tree(root)
    index = {c: i for i, c in enumerate(classes)}
    log = _Log("reduced_error", "validation errors", tracer)
    zeros = np.zeros(len(classes))
    reach: dict[Any, Any]
    reach, errors, leaves = {}, {}, {}
    for node in bottom_up(tree):
        majority = index[node.prediction]
        stop = np.asarray(stops.get(node.node_id, zeros), dtype=float)
        reach[id(node)] = stop + sum((reach[id(c)] for c in node.children.values()), zeros)
        own = _leaf_errors(stop, majority)
        if node.is_leaf:
            errors[id(node)], leaves[id(node)] = own, 1
            continue
        subtree = own + sum(errors[id(c)] for c in node.children.values())
        n_leaves = sum(leaves[id(c)] for c in node.children.values())
        as_leaf = _leaf_errors(reach[id(node)], majority)
        pruned = as_leaf <= subtree
        log.add(node, n_leaves, subtree, as_leaf, pruned)
        if pruned:
            make_leaf(node, "pruned (reduced error)")
            errors[id(node)], leaves[id(node)] = as_leaf, 1
        else:
            errors[id(node)], leaves[id(node)] = subtree, n_leaves
    return PruningResult(tree, log.frame())


# ---------------------------------------------------------------------------------------------
# Pessimistic (error-based) pruning, C4.5
# ---------------------------------------------------------------------------------------------
# C4.5 turns the confidence factor CF into a normal deviate z by interpolating in this table
# (Release 8, stats.c); using the same table reproduces the numbers printed in Quinlan's book.
_CF_TABLE = np.array([0, 0.001, 0.005, 0.01, 0.05, 0.10, 0.20, 0.40, 1.00])
_Z_TABLE = np.array([4.0, 3.09, 2.58, 2.33, 1.65, 1.28, 0.84, 0.25, 0.00])


def c45_deviate(confidence: float) -> float:
    """The normal deviate C4.5 uses for a confidence factor (0.6925 for CF = 0.25).

    The exact one-sided deviate would be ``scipy.stats.norm.isf(CF)`` (0.6745 for 0.25), which
    is what Weka's J48 uses; the difference moves the third decimal of the error estimates.
    """
    return float(np.interp(confidence, _CF_TABLE, _Z_TABLE))


def added_errors(n: float, e: float, confidence: float = 0.25) -> float:
    """C4.5's pessimistic extra errors: ``N * U_CF(E, N) - E``.

    ``U_CF(E, N)`` is the upper limit of a one-sided confidence interval, at level ``CF``, for the
    error rate of a leaf that misclassifies E of its N training rows:

    * E = 0: the exact binomial limit ``1 - CF ** (1 / N)`` (the p with ``(1 - p) ** N = CF``);
    * 0 < E < 1 (fractional weights): linear interpolation between E = 0 and E = 1;
    * E + 0.5 >= N: ``0.67 (N - E)``, C4.5's guard where the approximation breaks down;
    * otherwise the normal approximation with a continuity correction (Wilson's score limit):
      ``U = (f + z^2/2N + z sqrt(f/N - f^2/N + z^2/4N^2)) / (1 + z^2/N)`` with ``f = (E + 0.5)/N``.

    Quinlan (1993, p. 41) prints U(0, 6) = 0.206 and U(1, 16) = 0.157 at CF = 25%:

    >>> round(added_errors(6, 0) / 6, 3), round((added_errors(16, 1) + 1) / 16, 3)
    (0.206, 0.157)
    """
    if n <= 0:
        return 0.0
    if e < 1e-6:
        return n * (1.0 - confidence ** (1.0 / n))
    if e < 0.9999:
        at_zero = n * (1.0 - confidence ** (1.0 / n))
        return at_zero + e * (added_errors(n, 1.0, confidence) - at_zero)
    if e + 0.5 >= n:
        return 0.67 * (n - e)
    z2 = c45_deviate(confidence) ** 2
    upper = (e + 0.5 + z2 / 2 + math.sqrt(z2 * ((e + 0.5) * (1 - (e + 0.5) / n) + z2 / 4))) / (
        n + z2
    )
    return n * upper - e


def pessimistic(
    root: Node, classes: list, *, confidence: float = 0.25, tracer: Any = None
) -> PruningResult:
    """C4.5's error-based pruning (subtree replacement only; no subtree raising).

    Bottom up, for every internal node: the subtree's estimated errors are the sum, over its
    leaves (after the pruning below), of ``E + added_errors(N, E)``; the node as a leaf would
    have ``E + added_errors(N, E)`` with its own N and E. The node is pruned when the leaf's
    estimate is at most the subtree's plus 0.1 (C4.5's and J48's rule). A smaller
    ``confidence`` means a more pessimistic estimate and more pruning.
    """
    confidence = check_confidence(confidence)
    tree = copy_tree(root)
    log = _Log("pessimistic", "estimated errors", tracer)
    estimate, leaves = {}, {}
    for node in bottom_up(tree):
        counts = np.array([node.class_counts[c] for c in classes], dtype=float)
        n = float(counts.sum())
        e = n - float(counts.max())
        as_leaf = e + added_errors(n, e, confidence)
        if node.is_leaf:
            estimate[id(node)], leaves[id(node)] = as_leaf, 1
            continue
        subtree = sum(estimate[id(c)] for c in node.children.values())
        n_leaves = sum(leaves[id(c)] for c in node.children.values())
        pruned = as_leaf <= subtree + 0.1
        log.add(node, n_leaves, subtree, as_leaf, pruned)
        if pruned:
            make_leaf(node, f"pruned (pessimistic, confidence {confidence:g})")
            estimate[id(node)], leaves[id(node)] = as_leaf, 1
        else:
            estimate[id(node)], leaves[id(node)] = subtree, n_leaves
    return PruningResult(tree, log.frame())


def binomial_upper_limit(e: float, n: float, confidence: float) -> float:
    """The exact (Clopper-Pearson) upper limit of the error rate, for comparison with C4.5's:
    the p at which seeing at most E errors in N has probability ``confidence``."""
    if e >= n:
        return 1.0
    return float(_scipy_stats.beta.ppf(1 - confidence, e + 1, n - e))


# ---------------------------------------------------------------------------------------------
# Minimal cost-complexity pruning (CART; as scikit-learn computes it)
# ---------------------------------------------------------------------------------------------
class _WeakestLink:
    """The state of the weakest-link loop over a tree, nodes in pre-order (as scikit-learn's)."""

    def __init__(self, tree: Node) -> None:
        self.nodes = list(tree.walk())
        total = tree.n_samples
        n = len(self.nodes)
        position = {id(node): i for i, node in enumerate(self.nodes)}
        self.parent = np.full(n, -1)
        for p, _, child in tree.iter_edges():
            self.parent[position[id(child)]] = position[id(p)]
        self.children = [[position[id(c)] for c in node.children.values()] for node in self.nodes]
        self.r_node = np.array([node.n_samples / total * node.entropy for node in self.nodes])
        self.r_branch = np.zeros(n)
        self.n_leaves = np.zeros(n, dtype=np.int64)
        leaf = np.array([node.is_leaf for node in self.nodes])
        for i in np.flatnonzero(leaf)[::-1]:
            self.r_branch[i], self.n_leaves[i] = self.r_node[i], 1
        for i in range(n - 1, -1, -1):  # children come after their parent in pre-order
            if not leaf[i]:
                self.r_branch[i] = sum(self.r_branch[c] for c in self.children[i])
                self.n_leaves[i] = sum(self.n_leaves[c] for c in self.children[i])
        self.candidate = ~leaf
        self.alive = np.ones(n, dtype=bool)

    def weakest(self) -> tuple[int, float]:
        """The internal node of smallest ``g(t)`` (the first in pre-order among equals)."""
        at = np.flatnonzero(self.candidate)
        g = (self.r_node[at] - self.r_branch[at]) / (self.n_leaves[at] - 1)
        best = int(np.argmin(g))  # the first of equal minima, as scikit-learn's strict "<"
        return int(at[best]), float(g[best])

    def cut(self, i: int) -> None:
        stack = list(self.children[i])
        while stack:
            j = stack.pop()
            if self.alive[j]:
                self.alive[j] = self.candidate[j] = False
                stack.extend(self.children[j])
        self.candidate[i] = False
        removed = self.n_leaves[i] - 1
        diff = self.r_node[i] - self.r_branch[i]
        self.n_leaves[i], self.r_branch[i] = 1, self.r_node[i]
        j = self.parent[i]
        while j >= 0:
            self.n_leaves[j] -= removed
            self.r_branch[j] += diff
            j = self.parent[j]


def cost_complexity_path(root: Node) -> tuple[np.ndarray, np.ndarray]:
    """The effective alphas of the weakest-link sequence and the total leaf impurity after each.

    As scikit-learn's ``cost_complexity_pruning_path``: the first entry is ``(0, R(T))`` for the
    grown tree, then one entry per cut until only the root is left.
    """
    state = _WeakestLink(root)
    alphas, impurities = [0.0], [state.r_branch[0]]
    while state.candidate[0]:
        i, g = state.weakest()
        state.cut(i)
        alphas.append(g)
        impurities.append(state.r_branch[0])
    return np.array(alphas), np.array(impurities)


def weakest_links(root: Node) -> Iterator[tuple[Node, float, int]]:
    """The cuts of the weakest-link sequence one by one, the tree left untouched: the node made a
    leaf, its effective alpha ``g`` and the leaves left; the same cuts, in the same order and
    with the same alphas, as :func:`cost_complexity_path` and :func:`cost_complexity`."""
    state = _WeakestLink(root)
    while state.candidate[0]:
        i, g = state.weakest()
        state.cut(i)
        yield state.nodes[i], g, int(state.n_leaves[0])


def cost_complexity(root: Node, ccp_alpha: float, *, tracer: Any = None) -> PruningResult:
    """The minimal cost-complexity subtree for ``ccp_alpha``: cut weakest links while ``g <=
    ccp_alpha``. The table has one row per cut, in order, then one per internal node kept (with
    its ``g`` at the end, above ``ccp_alpha``). ``subtree`` and ``leaf`` are ``R(T_t)`` and
    ``R(t)``, the weighted entropy of the node's leaves and of the node itself."""
    ccp_alpha = check_ccp_alpha(ccp_alpha)
    tree = copy_tree(root)
    state = _WeakestLink(tree)
    log = _Log("cost_complexity", "weighted entropy", tracer)
    while state.candidate[0]:
        i, g = state.weakest()
        if g > ccp_alpha:
            break
        node = state.nodes[i]
        log.add(node, int(state.n_leaves[i]), state.r_branch[i], state.r_node[i], True, g)
        state.cut(i)
        make_leaf(node, f"pruned (cost complexity, alpha {ccp_alpha:g})")
    for i in np.flatnonzero(state.candidate & state.alive):  # type: ignore[assignment]  # (numpy ints)
        g = (state.r_node[i] - state.r_branch[i]) / (state.n_leaves[i] - 1)
        node = state.nodes[i]
        log.add(node, int(state.n_leaves[i]), state.r_branch[i], state.r_node[i], False, g)
    return PruningResult(tree, log.frame())
