"""What the grower keeps of each level: the decisions always, the trace table unless told not
to, and what the tracer will be told only when one listens.

Each level of growth is handed to :meth:`Record.level` as a :class:`Level`. :meth:`Record.finish`
turns the whole growth into a :class:`~id3tree.model.grown_tree.GrownTree` numbered in pre-order, with
the trace's columns (:class:`LazyTrace`, made when first read); a listening tracer then gets the
growth in reading order: the printed page (:mod:`id3tree.trace.page`) or the events
(:mod:`id3tree.trace.events`), from the details each level kept
(:mod:`id3tree.trace.details`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from id3tree.base.entropy import entropy_rows
from id3tree.model.grown_tree import GrownTree, preorder
from id3tree.trace.details import SCORE_NAMES, TraceDetails
from id3tree.trace.events import Events
from id3tree.trace.page import Page


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


class Record:
    """Collects each :class:`Level` and turns the whole growth into a
    :class:`~id3tree.model.grown_tree.GrownTree`.

    When a tracer listens, what it will be told of each level is kept too
    (:class:`~id3tree.trace.details.TraceDetails`), and once the tree is finished (and numbered
    in pre-order) :meth:`finish` sends the events node by node in reading order
    (:class:`~id3tree.trace.events.Events`); a tracer that only prints
    (:func:`~id3tree.trace.tracers.prints_only`) gets the same lines without the events, written for
    the whole tree at once (:class:`~id3tree.trace.page.Page`).
    """

    def __init__(self, tracer, data, *, keep_trace: bool | str = True, min_leaf: int = 1):
        self.tracer, self.keep_trace = tracer, keep_trace
        self.split_parts, self.leaf_parts, self.trace_parts = [], [], []
        # what the tracer will be told of each level, kept only when one listens
        self.details = None if tracer is None else TraceDetails(tracer, data, min_leaf)
        self.max_thresholds = 0 if tracer is None else self.details.max_thresholds

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
        if self.details is not None:
            self.details.keep(lv)

    def _keep_trace(self, lv: Level) -> None:
        """Keep what the trace of this level is made of (:class:`LazyTrace` makes it when read);
        with ``keep_trace="splits"`` (a large fit) its few rows at once, not the scores."""
        s = lv.scores
        part = (self.keep_trace, s.table, s.candidate, s.tied)
        part += (lv.splitting, lv.chosen, lv.ids, lv.nodes, lv.eligible)
        self.trace_parts.append(part if self.keep_trace is True else _level_trace(*part))

    def finish(self, parent, slot, depth, counts) -> GrownTree:
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
            parent,
            slot[order],
            depth[order],
            counts,
            entropy_rows(counts),
            feature,
            threshold,
            gain,
            stop_reason.tolist(),
            trace,
        )
        if self.details is not None:  # the trace, in reading order
            self.details.finish_levels()
            if self.details.as_text:
                Page(self.details, self.tracer).write(new)
            else:
                Events(self.details, self.tracer).send(new, grown.parent)
            self.details = None
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

    def __init__(self, parts: list, numbers: np.ndarray | None = None):
        self.parts, self.numbers, self._columns = parts, numbers, None

    def _made(self) -> dict:
        if self._columns is None:
            levels = [p if isinstance(p, dict) else _level_trace(*p) for p in self.parts]
            columns = {c: np.concatenate([t[c] for t in levels]) for c in levels[0]}
            if self.numbers is not None:
                columns["node"] = self.numbers[columns["node"]]
            self._columns, self.parts, self.numbers = columns, None, None
        return self._columns

    def __getitem__(self, name):
        return self._made()[name]

    def __iter__(self):
        return iter(self._made())

    def __len__(self):
        return len(self._made())


def _level_trace(keep_trace, table, candidate, tied, splitting, chosen, ids, nodes, eligible):
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
