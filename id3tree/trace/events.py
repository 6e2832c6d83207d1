"""The events a listening tracer receives, node by node in reading order.

Once the tree is finished and numbered in pre-order, :class:`Events` sends each node's events
(:class:`~id3tree.trace.tracers.NodeStarted`, one :class:`~id3tree.trace.tracers.CandidateScored` per
feature, :class:`~id3tree.trace.tracers.ThresholdsRanked` with ``verbose=2``, then
:class:`~id3tree.trace.tracers.SplitChosen` or :class:`~id3tree.trace.tracers.LeafMade`), from the details
each level kept (:class:`~id3tree.trace.details.TraceDetails`). Each event prints itself with
the same functions the printed page is written with (:mod:`id3tree.trace.page`).
"""

from __future__ import annotations

import numpy as np

from id3tree.engine.stopping import NO_VALID_SPLIT
from id3tree.model.node import majority_classes, tied_classes
from id3tree.trace import tracers
from id3tree.trace.details import THRESHOLD_FIELDS, LevelDetails, TraceDetails, slot_label

__all__ = ["Events"]


class Events:
    """The events of a growth, from its :class:`~id3tree.trace.details.TraceDetails`."""

    def __init__(self, trace: TraceDetails, tracer):
        self.trace, self.tracer = trace, tracer
        self.data, self.details = trace.data, trace.levels

    def send(self, new: np.ndarray, parent: np.ndarray) -> None:
        """Send the events of every node in pre-order, with pre-order numbers (``new`` holds
        the pre-order number of each of the grower's nodes, ``parent`` each node's parent in
        those numbers)."""
        starts = np.array([int(d.level.nodes[0]) for d in self.details])
        order = np.argsort(new)  # the grower's numbers in reading order
        level = np.searchsorted(starts, order, side="right") - 1
        parent = parent.tolist()
        where = self.trace.node_paths()
        at = zip(order.tolist(), level.tolist(), (order - starts[level]).tolist())
        for number, (old, j, i) in enumerate(at):
            self._node_events(self.details[j], i, number, parent[number], where[old])

    def _node_events(self, d: LevelDetails, i: int, number: int, parent: int, where: tuple) -> None:
        """Send the events of node ``i`` of a level, numbered ``number``, whose path has the
        words ``where`` (:meth:`~id3tree.trace.details.TraceDetails.node_paths`)."""
        lv, data, dec = d.level, self.data, d.decisions
        depth = lv.depth
        counts = d.counts[i]
        n = sum(counts)
        entropy = d.entropy[i]
        prediction = data.classes[int(majority_classes(counts))]
        class_counts = self.trace.class_dict(counts)
        self.tracer(
            tracers.NodeStarted(
                number, None if parent < 0 else parent, depth, where, class_counts, n, entropy
            )
        )
        e = dec.scored[i]
        if e is None:
            self._leaf(number, depth, prediction, counts, dec.reasons[i])
            return
        for f in np.flatnonzero(lv.scores.candidate[e]).tolist():
            self.tracer(tracers.CandidateScored(number, *self._candidate(d, e, f, n, entropy)))
            if f in d.thresholds:
                self._thresholds(d, e, f, number)
        if not dec.splitting[e]:
            reason = dec.reasons[i]
            if reason == NO_VALID_SPLIT:
                reason += ", as each candidate above says"
            self._leaf(number, depth, prediction, counts, reason)
            return
        f, threshold = dec.feature[e], dec.threshold[e]
        numeric = data.codes[f] is None
        branches = [
            (slot_label(data, f, dec.child_slot[c], threshold), dec.child_size[c])
            for c in range(dec.first_child[e], dec.first_child[e + 1])
        ]
        fields = (
            depth,
            data.names[f],
            threshold,
            dec.gain[e],
            dec.ratio[e],
            lv.criterion,
            dec.tied_with.get(e, ()),
            dec.n_ties[e] if numeric else 1,
            tuple(branches),
            dec.below_average.get(e, ()),
        )
        self.tracer(tracers.SplitChosen(number, *fields))

    def _leaf(self, number, depth, prediction, counts, reason) -> None:
        class_counts = self.trace.class_dict(counts)
        ties = tuple(tied_classes(class_counts))
        self.tracer(tracers.LeafMade(number, depth, prediction, class_counts, reason, ties))

    def _thresholds(self, d: LevelDetails, e: int, f: int, number: int) -> None:
        """The best thresholds of numeric feature ``f`` at scored node ``e`` (``verbose=2``)."""
        best = d.thresholds[f]
        c = best.candidate(e, f)
        lo, hi = int(best.bounds[c]), int(best.bounds[c + 1])
        if hi == lo:
            return
        depth, name = d.level.depth, self.data.names[f]
        rows = zip(*(best.columns[column][lo:hi].tolist() for column in THRESHOLD_FIELDS))
        ranked = tuple(
            tracers.ThresholdScored(number, depth, name, rank, *row)
            for rank, row in enumerate(rows, start=1)
        )
        n_more = int(best.totals[c]) - hi + lo
        self.tracer(tracers.ThresholdsRanked(number, depth, name, ranked, n_more))

    def _candidate(self, d: LevelDetails, e: int, f: int, n: int, entropy: float) -> tuple:
        """The fields of feature ``f``'s :class:`~id3tree.trace.tracers.CandidateScored` at scored
        node ``e``, after ``node``: its branches and numbers."""
        sc, classes = d.scores, self.data.classes
        branches = tuple(
            tracers.Branch(label, dict(zip(classes, counts)), size, h)
            for label, counts, size, h in (d.branches[f].at(e, f) if f in d.branches else ())
        )
        return (
            d.level.depth,
            self.data.names[f],
            "numeric" if self.data.codes[f] is None else "categorical",
            n,
            entropy,
            sc["gain"][e][f],
            sc["ratio"][e][f],
            sc["overall"][e][f],
            sc["threshold"][e][f],
            sc["low"][e][f],
            sc["high"][e][f],
            branches,
            d.level.criterion,
            d.reasons.get((e, f)),
        )
