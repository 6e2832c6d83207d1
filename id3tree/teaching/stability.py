"""How stable is a split: the split search of every node redone on bootstrap samples of its rows.

A tree is unstable when a small change of the *data* changes its splits. Growing it again with
another ``random_state`` shows nothing of the kind (ID3 draws no random numbers: the same rows
give the same tree). What shows it is the bootstrap (Efron and Tibshirani 1993; Breiman 1996,
the instability behind bagging): for each split node of a fitted tree,

1. take the rows of ``X`` that the tree routes to the node (missing values go where the tree
   sends them);
2. draw ``n_bootstrap`` resamples of those rows, each as many rows as the node has, drawn with
   replacement;
3. on each resample, redo the node's split search with the tree's own settings (criterion,
   stopping rules, ``min_samples_leaf``, ``thresholds``, tie rules, the categorical features
   used up above the node): the very search the learner runs
   (:func:`id3tree.engine.grow.search_groups`), every resample of a batch of nodes at once;
4. count how often the tree's feature wins again (``same_feature``), how often it wins with a
   threshold in the same gap (``same_gap``: the resample's cut sorts the node's rows exactly as
   the tree's cut does, that is, it lies between the same two adjacent distinct values of the
   node's rows; a categorical split has no threshold, so there it equals ``same_feature``), which
   other feature wins most often (``runner_up``, ties to the first in column order), and how often
   no split is made at all (``no_split``: a resample that is pure, too small or of too little
   gain);
5. the gain of the tree's feature on each resample (its best split there) gives a percentile
   bootstrap interval (``gain_low``, ``gain_high``).

A split is **shaky** when the same feature wins on fewer than ``shaky_below`` (0.7 by default)
of the resamples.

The resamples of node ``v`` are drawn from ``numpy.random.SeedSequence(random_state,
spawn_key=(v,))``: a node's resamples do not depend on ``max_depth`` or on the other nodes, and
the same ``random_state`` gives the same result. Ties within a resample are broken as the tree
breaks them (the first feature in column order, the smallest threshold).
"""

from __future__ import annotations

import html
import math
import numbers
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pandas as pd
from sklearn.exceptions import NotFittedError

from id3tree.base.params import check_int, check_random_state, check_real
from id3tree.base.training import EncodedData, training_data
from id3tree.engine.grow import GrowParams, search_groups
from id3tree.model.node import Node, node_paths

__all__ = ["SHAKY_BELOW", "Stability", "stability"]

SHAKY_BELOW = 0.7
"""A split is shaky when its feature wins on fewer than this share of the resamples."""

_BATCH_ROWS = 2**17
"""Resampled rows searched at once (nodes are batched up to about this many rows). Small
batches let the search sort its columns by its small-data path (``stacked_values``): the full
Titanic tree (185 split nodes, 200 resamples) took 4.7 s in batches of 2**20 rows, 2.1 s in
batches of 2**17, 2.2 s in batches of 2**16 and 2**18."""

COLUMNS = (
    "node", "depth", "path", "n_rows", "feature", "same_feature", "same_gap", "runner_up",
    "runner_up_share", "no_split", "gain", "gain_low", "gain_high", "shaky",
)  # fmt: skip


@dataclass(frozen=True)
class Stability:
    """How stable each split of a tree is (:func:`stability`): one row per split node.

    ``to_frame()`` gives the table; ``marks()`` what the drawings, the text and the page show
    (node id -> the share of resamples where the same feature wins, and whether it is shaky).
    """

    table: pd.DataFrame
    n_bootstrap: int
    random_state: Any
    confidence: float
    shaky_below: float

    def to_frame(self) -> pd.DataFrame:
        """One row per split node, in pre-order: ``node``, ``depth``, ``path`` (``"(root)"`` at
        the root), ``n_rows`` (the rows of ``X`` routed there), ``feature``, ``same_feature``,
        ``same_gap``, ``runner_up``,
        ``runner_up_share``, ``no_split``, ``gain`` (of the tree's split on the node's rows),
        ``gain_low``, ``gain_high`` (the percentile interval) and ``shaky``."""
        return self.table.copy()

    def marks(self) -> dict[int, tuple[float, bool]]:
        """Node id -> (the share of resamples where the same feature wins, whether shaky)."""
        rows = zip(self.table["node"], self.table["same_feature"], self.table["shaky"])
        return {int(node): (float(share), bool(shaky)) for node, share, shaky in rows}

    def __len__(self) -> int:
        return len(self.table)

    def _title(self) -> str:
        shaky = int(self.table["shaky"].sum())
        return (
            f"Stability of {len(self.table)} splits over {self.n_bootstrap} bootstrap resamples "
            f"(random_state={self.random_state!r}); {shaky} shaky (same feature < "
            f"{self.shaky_below:g}); gain interval {self.confidence:.0%}"
        )

    def _shown(self) -> pd.DataFrame:
        shown = self.table.drop(columns=["depth"]).copy()
        shown["shaky"] = shown["shaky"].map({True: "shaky", False: ""})
        return shown

    def __repr__(self) -> str:
        with pd.option_context("display.width", 120, "display.max_colwidth", 40):
            body = self._shown().to_string(index=False, float_format=lambda v: f"{v:.3f}")
        return f"{self._title()}\n{body}"

    def _repr_html_(self) -> str:
        table = self._shown().to_html(index=False, float_format=lambda v: f"{v:.3f}")
        return f"<p>{html.escape(self._title())}</p>\n{table}"


def stability(
    tree: Any, X: Any, y: Any, *, n_bootstrap: int = 200, random_state: Any = 0,
    max_depth: int | None = None, confidence: float = 0.95, shaky_below: float = SHAKY_BELOW,
    sample_weight: Any = None,
) -> Stability:  # fmt: skip
    """How often each split of ``tree`` wins again on bootstrap samples of its node's rows.

    Parameters
    ----------
    tree : ID3Classifier
        A fitted tree.
    X, y : array-like
        Rows with the tree's columns and their labels (usually the training rows). The rows of
        a node are those the tree routes there.
    n_bootstrap : int, default=200
        Resamples per node.
    random_state : int, numpy Generator or None, default=0
        Seeds the resamples (see the module's docstring for the rule); None: fresh ones.
    max_depth : int or None, default=None
        Only the split nodes above this depth (the root is at depth 0); None: every split node.
    confidence : float, default=0.95
        The coverage of the percentile interval of the gain.
    shaky_below : float, default=0.7
        A split is shaky when its feature wins on fewer than this share of the resamples.
    sample_weight : array-like of shape (n_samples,), optional
        The rows' weights, as the tree was fitted with them (a resampled row keeps its weight;
        ``class_weight`` is the tree's own). Default: every row weighs 1.

    Returns
    -------
    Stability
    """
    n_bootstrap = check_int("n_bootstrap", n_bootstrap, 1)
    max_depth = check_int("max_depth", max_depth, 0, allow_none=True)
    confidence = check_real("confidence", confidence, low=0, high=1, low_open=True, high_open=True)
    shaky_below = check_real("shaky_below", shaky_below, low=0, high=1)
    seed = _seed(check_random_state(random_state))
    data, stop = _node_data(tree, X, y, sample_weight)
    nodes = list(tree.root_.walk())
    ends = _subtree_ends(nodes)
    position = {node.node_id: i for i, node in enumerate(nodes)}
    stop_position = np.array([position[int(v)] for v in stop.tolist()], dtype=np.int64)
    order = np.argsort(stop_position, kind="stable")
    bounds = np.searchsorted(stop_position[order], np.arange(len(nodes) + 1))
    used = _used_features(tree.root_, data)
    jobs = []
    for i, node in enumerate(nodes):
        if node.is_leaf or (max_depth is not None and node.depth >= max_depth):
            continue
        rows = order[bounds[i] : bounds[ends[i]]]  # the rows stopping in its subtree
        feature = data.names.index(str(node.feature))
        jobs.append(_Job(node, feature, np.sort(rows), used[node.node_id]))
    params = _params(tree, data)
    for batch in _batches(jobs, n_bootstrap):
        _search(batch, data, params, n_bootstrap, seed)
    paths = node_paths(tree.root_)
    table = pd.DataFrame(
        [_row(job, data, paths, n_bootstrap, confidence, shaky_below) for job in jobs],
        columns=list(COLUMNS),
    )
    return Stability(table, n_bootstrap, random_state, confidence, shaky_below)


@dataclass
class _Job:
    """One split node: its rows (of ``X``), the categorical features used above it and, once
    searched, the outcome of each resample (row 0: the node's rows as they are)."""

    node: Node
    feature: int  # the tree's feature here, by column
    rows: np.ndarray
    used: np.ndarray
    winner: np.ndarray = field(default_factory=lambda: np.zeros(0))  # the feature chosen (-1: none)
    gain: np.ndarray = field(default_factory=lambda: np.zeros(0))  # the gain of the tree's feature
    threshold: np.ndarray = field(default_factory=lambda: np.zeros(0))  # its threshold (numeric)


def _seed(random_state: Any) -> int:
    """The entropy of the resamples' seeds."""
    if isinstance(random_state, numbers.Integral):
        return int(random_state)
    if random_state is None:
        return int(np.random.SeedSequence().entropy)  # type: ignore[arg-type]
    if isinstance(random_state, np.random.SeedSequence):
        return int(random_state.entropy)  # type: ignore[arg-type]
    if isinstance(random_state, np.random.BitGenerator):
        random_state = np.random.Generator(random_state)
    return int(random_state.integers(2**63))


def _node_data(tree: Any, X: Any, y: Any, sample_weight: Any) -> tuple[EncodedData, np.ndarray]:
    """``X, y`` encoded as the tree's fit encodes them, and the node where each row stops."""
    if not hasattr(tree, "_tree"):
        raise NotFittedError("stability needs a fitted tree: call fit(X, y) before stability(X, y)")
    if tree.id_like == "drop":
        raise ValueError(
            "stability cannot tell which columns a fit with id_like='drop' left out, and they "
            "would compete again on the resamples; drop them from X and fit with id_like='warn'"
        )
    stop = tree.apply(X)  # checks X's columns against the tree's
    data, _ = training_data(
        X, y, sample_weight, categorical=tree.categorical, class_weight=tree.class_weight
    )
    if len(data.y) != len(stop):
        raise ValueError(
            f"X has {len(stop)} rows but only {len(data.y)} of them count (sample_weight or "
            "class_weight gives the others weight 0); leave those rows out of X"
        )
    if list(data.names) != list(tree._names):
        raise ValueError(
            f"X's columns {list(data.names)} are not the tree's columns {list(tree._names)}"
        )
    for name, fitted, given in zip(data.names, tree._categories, data.categories):
        if (fitted is None) != (given is None):
            kind = "numeric" if fitted is None else "categorical"
            raise ValueError(
                f"column {name!r} of X is not {kind} as it was when the tree was fitted"
            )
    data.thresholds = tree.thresholds
    return data, stop


def _subtree_ends(nodes: list[Node]) -> np.ndarray:
    """For the node in position ``i`` of a pre-order walk, the end of its subtree."""
    size = np.ones(len(nodes), dtype=np.int64)
    position = {id(node): i for i, node in enumerate(nodes)}
    for i in range(len(nodes) - 1, -1, -1):
        size[i] += sum(size[position[id(c)]] for c in nodes[i].children.values())
    return np.arange(len(nodes)) + size


def _used_features(root: Node, data: EncodedData) -> dict[int, np.ndarray]:
    """Node id -> the categorical features used up on its path (they compete no more)."""
    used = {root.node_id: np.zeros(data.n_features, dtype=bool)}
    for parent, _, child in root.iter_edges():
        mask = used[parent.node_id].copy()
        f = data.names.index(str(parent.feature))
        if data.codes[f] is not None:
            mask[f] = True
        used[child.node_id] = mask
    return used


def _params(tree: Any, data: EncodedData) -> GrowParams:
    """The tree's growth settings, as its fit took them."""
    params = replace(tree._grow_params(), keep_trace=False)
    if tree.min_weight_fraction_leaf > 0:  # (as the fit weighs: every row weighs 1 by default)
        data.weight = np.ones(len(data.y)) if data.weight is None else data.weight
        limit = float(tree.min_weight_fraction_leaf) * float(data.weight.sum())
        params.min_weight_leaf = limit * (1 - 1e-9)
    return params


def _batches(jobs: list[_Job], n_bootstrap: int) -> list[list[_Job]]:
    """The nodes in batches of about ``_BATCH_ROWS`` resampled rows."""
    batches: list[list[_Job]] = [[]]
    rows = 0
    for job in jobs:
        size = len(job.rows) * (n_bootstrap + 1)
        if batches[-1] and rows + size > _BATCH_ROWS:
            batches.append([])
            rows = 0
        batches[-1].append(job)
        rows += size
    return [batch for batch in batches if batch]


def _search(
    batch: list[_Job], data: EncodedData, params: GrowParams, n_bootstrap: int, seed: int
) -> None:
    """Redo the split search of every node of ``batch`` on its rows and on ``n_bootstrap``
    resamples of them, all at once: each (node, resample) is a group of its own."""
    picks, used = [], []
    for job in batch:
        n = len(job.rows)
        draw = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(job.node.node_id,)))
        resamples = draw.integers(0, n, size=(n_bootstrap, n)) if n else np.zeros((n_bootstrap, 0))
        picks.append(job.rows[np.vstack([np.arange(n)[None], resamples]).astype(np.int64)])
        used.append(np.repeat(job.used[None], n_bootstrap + 1, axis=0))
    sizes = np.array([p.shape[1] for p in picks for _ in range(n_bootstrap + 1)], dtype=np.int64)
    index = np.concatenate([p.reshape(-1) for p in picks])
    group = np.repeat(np.arange(len(sizes), dtype=np.int64), sizes)
    found = search_groups(_taken(data, index), params, group, len(sizes), np.vstack(used))
    winner = np.full(len(sizes), -1, dtype=np.int64)
    scored = np.flatnonzero(found.scored)
    choice, scores = found.choice, found.scores
    winner[scored] = np.where(choice.splitting, choice.chosen, -1)
    for j, job in enumerate(batch):
        at = slice(j * (n_bootstrap + 1), (j + 1) * (n_bootstrap + 1))
        f = job.feature
        job.winner = winner[at]
        job.gain, job.threshold = np.full((2, n_bootstrap + 1), np.nan)
        here = np.flatnonzero(found.scored[at])  # the scored groups of this node
        where = np.searchsorted(scored, here + at.start)
        job.gain[here] = scores.gain[where, f]
        job.threshold[here] = scores.threshold[where, f]


def _taken(data: EncodedData, index: np.ndarray) -> EncodedData:
    """The rows ``index`` of ``data`` (repeated rows are copies), cut where ``data`` cuts."""
    taken = replace(
        data,
        numeric=[None if c is None else c[index] for c in data.numeric],
        codes=[None if c is None else c[index] for c in data.codes],
        y=data.y[index],
        weight=None if data.weight is None else data.weight[index],
    )
    if data.thresholds != "midpoint":  # C4.5's thresholds snap to the values of all of X
        values = {f: data.cut_values(f) for f, c in enumerate(data.numeric) if c is not None}
        taken.__dict__["_cut_values"] = values
    return taken


def _gap(node: Node, values: np.ndarray) -> tuple[float, float]:
    """The two adjacent distinct values of the node's rows that its threshold lies between
    (-inf or inf where no row is on that side)."""
    present = values[~np.isnan(values)]
    left, right = present[present <= node.threshold], present[present > node.threshold]
    return (left.max() if len(left) else -math.inf), (right.min() if len(right) else math.inf)


def _row(
    job: _Job, data: EncodedData, paths: dict[int, list[str]], n_bootstrap: int, confidence: float,
    shaky_below: float,
) -> dict[str, Any]:  # fmt: skip
    """The table's row of one split node."""
    node, f = job.node, job.feature
    winners, gains = job.winner[1:], job.gain[1:]
    same = winners == f
    column = data.numeric[f]
    if column is not None:  # a numeric split: the same gap too
        low, high = _gap(node, column[job.rows])
        thresholds = job.threshold[1:]
        same_gap = same & (thresholds >= low) & (thresholds < high)
    else:
        same_gap = same
    others = np.bincount(winners[(winners >= 0) & ~same], minlength=data.n_features)
    runner = int(others.argmax())  # (ties: the first in column order)
    valid = gains[np.isfinite(gains)]
    tail = (1 - confidence) / 2 * 100
    low_gain, high_gain = (
        np.percentile(valid, [tail, 100 - tail]) if len(valid) else (math.nan, math.nan)
    )
    share = float(same.mean()) if len(job.rows) else math.nan
    path = " and ".join(paths[node.node_id]) or "(root)"
    return {
        "node": node.node_id, "depth": node.depth, "path": path,
        "n_rows": len(job.rows), "feature": node.feature, "same_feature": share,
        "same_gap": float(same_gap.mean()) if len(job.rows) else math.nan,
        "runner_up": data.names[runner] if others[runner] else None,
        "runner_up_share": float(others[runner] / n_bootstrap),
        "no_split": float(np.mean(winners < 0)) if len(job.rows) else math.nan,
        "gain": float(job.gain[0]), "gain_low": float(low_gain), "gain_high": float(high_gain),
        "shaky": bool(share < shaky_below) if len(job.rows) else False,
    }  # fmt: skip
