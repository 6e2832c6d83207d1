"""What the grower keeps of each level (the decisions always, the trace table unless told not
to), and what it tells a listener.

Each level of growth is handed to :meth:`Record.level` as a :class:`Level`. :meth:`Record.finish`
turns the whole growth into a :class:`~id3tree.model.grown_tree.GrownTree` numbered in pre-order,
with the trace's columns (:class:`LazyTrace`, made when first read). A :class:`Listener` hears
each level and then the finished tree: the trace is one (:mod:`id3tree.trace.listener`), which
prints the page or sends the events; the engine itself prints nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from id3tree.base.entropy import entropy_rows
from id3tree.model.grown_tree import GrownTree, preorder

__all__ = ["LazyTrace", "Level", "Listener", "Record", "SCORE_NAMES"]

SCORE_NAMES = ("gain", "ratio", "overall", "threshold", "low", "high")
"""The float scores of a level, in the order of ``Scores.table`` (:class:`~id3tree.engine.grow.Scores`)."""


@dataclass
class Level:
    """One level of growth: its nodes, their scores and decisions, and the children made.

    Arrays over ``nodes`` have one entry per node of the level; arrays over ``ids`` (the nodes
    that were scored, ``eligible``) one per scored node; ``parent``, ``child_slot`` and
    ``child_sizes`` one per child, in order.
    """

    depth: int
    nodes: np.ndarray
    counts: np.ndarray
    reasons: np.ndarray  # why each node is a leaf, None where it splits
    eligible: np.ndarray
    ids: np.ndarray
    scores: object  # grow.Scores
    chosen: np.ndarray
    splitting: np.ndarray
    criterion: str
    children: np.ndarray
    parent: np.ndarray  # index into ids of each child's parent
    child_slot: np.ndarray
    child_sizes: np.ndarray
    orders: dict  # numeric feature -> its rows sorted within each scored node
    starts: np.ndarray
    sizes: np.ndarray


class Listener:
    """Whoever listens to a growth: it hears each level as it is recorded, then the finished
    tree. The engine knows no more of its listeners than this (the trace is one)."""

    max_thresholds: int | None = 0
    """How many best thresholds of each numeric candidate the listener will list (None: every
    one): the split search keeps the cuts that may be among them, which spares scoring them
    again (unweighted rows; 0 or None: it keeps none)."""

    def level(self, lv: Level) -> None:
        """A level as the grower recorded it; ``lv.orders`` (the rows sorted by each numeric
        feature within each node) holds only during the call."""

    def finish(self, numbers: np.ndarray, tree: GrownTree) -> None:
        """The finished tree; ``numbers`` maps the grower's node numbers to its pre-order ones."""


class Record:
    """Collects each :class:`Level`, tells it to the ``listener`` (None: nobody listens) and
    turns the whole growth into a :class:`~id3tree.model.grown_tree.GrownTree`."""

    def __init__(self, listener: Listener | None = None, *, keep_trace: bool | str = True) -> None:
        self.listener, self.keep_trace = listener, keep_trace
        self.split_parts, self.leaf_parts, self.trace_parts = [], [], []

    def level(self, lv: Level) -> None:
        s = lv.scores
        e_split = lv.splitting.nonzero()[0]
        f_split = lv.chosen[e_split]
        # the chosen splits' scores, in one gather: the rows of Scores.FLOAT_SCORES
        gain, _, _, threshold, _, _ = s.table[:, e_split, f_split]
        self.split_parts.append((lv.ids[e_split], f_split, threshold, gain))
        leaf = np.not_equal(lv.reasons, None)  # a reason: the node stays a leaf
        self.leaf_parts.append((lv.nodes[leaf], lv.reasons[leaf]))
        if self.keep_trace:
            self._keep_trace(lv)
        if self.listener is not None:
            self.listener.level(lv)

    def _keep_trace(self, lv: Level) -> None:
        """Keep what the trace of this level is made of (:class:`LazyTrace` makes it when read);
        with ``keep_trace="splits"`` (a large fit) its few rows at once, not the scores."""
        s = lv.scores
        part = (self.keep_trace, s.table, s.candidate, s.tied)
        part += (lv.splitting, lv.chosen, lv.ids, lv.nodes, lv.eligible)
        self.trace_parts.append(part if self.keep_trace is True else _level_trace(*part))

    def finish(self, parent: Any, slot: Any, depth: Any, counts: Any) -> GrownTree:
        parent, slot = np.concatenate(parent), np.concatenate(slot)
        depth, counts = np.concatenate(depth), np.concatenate(counts)
        n = len(parent)
        # The grower numbers nodes level by level; readers number them depth first.
        new = preorder(parent, depth)
        order = np.argsort(new)
        parent = new[parent[order]]
        parent[0] = -1  # the root, first in pre-order
        # every level's splits and leaves at once, written at their pre-order positions
        ids, f, t, g = map(np.concatenate, zip(*self.split_parts))
        at = new[ids]
        feature = np.full(n, -1, dtype=np.int64)
        feature[at] = f
        threshold = np.full(n, np.nan)
        threshold[at] = t
        gain = np.full(n, np.nan)
        gain[at] = g
        leaves, reasons = map(np.concatenate, zip(*self.leaf_parts))
        stop_reason = np.empty(n, dtype=object)  # (None everywhere)
        stop_reason[new[leaves]] = reasons
        trace = LazyTrace(self.trace_parts, new) if self.trace_parts else None
        if trace is not None and self.keep_trace is not True:  # the chosen splits only: join them
            trace._made()
        counts = counts[order]
        grown = GrownTree(
            parent, slot[order], depth[order], counts, entropy_rows(counts), feature, threshold,
            gain, stop_reason.tolist(), trace,
        )  # fmt: skip
        if self.listener is not None:
            self.listener.finish(new, grown)
            self.listener = None
        return grown


class LazyTrace(Mapping):
    """The trace's columns (one row per scored node and candidate feature, one per unscored
    leaf; with ``keep_trace="splits"`` one row per node), made from the levels' scores the
    first time a column is read: a fit nobody asks the trace of never makes it.

    ``parts`` holds each level's ``(keep_trace, table, candidate, tied, splitting, chosen, ids,
    nodes, eligible)`` (the fields of :class:`Level` and its scores), or its trace rows already
    made (:func:`_level_trace`: a dict of columns); ``numbers`` maps the
    grower's node numbers to pre-order ones.
    """

    def __init__(self, parts: list, numbers: np.ndarray | None = None) -> None:
        self.parts, self.numbers, self._columns = parts, numbers, None

    def _made(self) -> dict:
        if self._columns is None:
            levels = [p if isinstance(p, dict) else _level_trace(*p) for p in self.parts]
            columns = {c: np.concatenate([t[c] for t in levels]) for c in levels[0]}
            if self.numbers is not None:
                columns["node"] = self.numbers[columns["node"]]
            self._columns, self.parts, self.numbers = columns, None, None
        return self._columns

    def __getitem__(self, name: Any) -> Any:
        return self._made()[name]

    def __iter__(self) -> Any:
        return iter(self._made())

    def __len__(self) -> Any:
        return len(self._made())


def _level_trace(
    keep_trace: Any,
    table: Any,
    candidate: Any,
    tied: Any,
    splitting: Any,
    chosen: Any,
    ids: Any,
    nodes: Any,
    eligible: Any,
) -> Any:
    """The trace rows of one level (see :class:`LazyTrace`), in the grower's node numbers."""
    if keep_trace == "splits":
        e = np.flatnonzero(splitting)
        f = chosen[e]
        unscored = np.concatenate([nodes[~eligible], ids[~splitting]])
    else:
        e, f = np.nonzero(candidate)
        unscored = nodes[~eligible]
    m = len(unscored)
    # the six float scores of every row at once (unscored leaves: NaN)
    floats = dict(
        zip(
            SCORE_NAMES,
            np.concatenate([np.full((len(SCORE_NAMES), m), np.nan), table[:, e, f]], axis=1),
        )
    )
    return dict(
        node=np.concatenate([unscored, ids[e]]),
        feature=np.concatenate([np.full(m, -1), f]),
        threshold=floats["threshold"],
        low=floats["low"],
        high=floats["high"],
        overall_entropy=floats["overall"],
        gain=floats["gain"],
        gain_ratio=floats["ratio"],
        chosen=np.concatenate([np.zeros(m, bool), splitting[e] & (chosen[e] == f)]),
        tie=np.concatenate([np.zeros(m, bool), tied[e, f] & (tied[e].sum(axis=1) > 1)]),
    )
