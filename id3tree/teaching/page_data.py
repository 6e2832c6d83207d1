"""What the interactive page shows of every node, made for the whole tree at once.

For every node the page shows what ``tree.step(k)`` shows for one: its counts and entropy, every
feature's best split there with its branches, the decision and why. :func:`~id3tree.teaching.make_step`
makes that node by node from the teaching record, recounting whole candidate tables (a few
milliseconds a node); the page needs it for thousands of nodes, so this module makes it in a few
passes over the whole tree, in time proportional to the training rows times the tree's depth:

1. the training rows go down the tree one level at a time, every row of a level at once
   (:func:`levels`);
2. at each level one count per feature gives the branches of every scored node of the level:
   one per value of a categorical feature, the sides of the trace's best threshold of a numeric
   one (:class:`_Counter`);
3. the learner's trace gives the scores (overall entropy, gain, gain ratio, threshold, ties);
   the words that depend on the data (why a feature could not split here) are written only for
   the candidates that could not.

The result (:class:`PageData`) is flat arrays: one entry per node, per candidate (a scored node
and a feature, nodes in reading order, features in column order) and per branch. A test holds
every node's words and numbers equal to :func:`~id3tree.teaching.make_step`'s, its plain twin.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from id3tree.base import pencil
from id3tree.base.entropy import entropy_rows
from id3tree.base.language import current
from id3tree.base.pencil import difference_holds, fixed_units, weighted_sum_holds
from id3tree.base.training import EncodedData
from id3tree.base.words import class_name, format_number, number_texts, tie_order
from id3tree.engine.splits import TIE_TOLERANCE, enumerate_thresholds
from id3tree.engine.stopping import REASONS
from id3tree.model.grown_tree import GrownTree
from id3tree.model.node import (
    LEFT,
    NUMERIC_MISSING,
    RIGHT,
    class_tie_note,
    majority_classes,
    narrowed,
    path_word,
)
from id3tree.trace.details import slot_step
from id3tree.trace.lines import cut_reason

__all__ = [
    "Branches", "Candidates", "FORMAT", "levels", "page_data", "PageSource", "Spread", "Strings",
]  # fmt: skip


@dataclass
class PageSource:
    """What the page is made from: a fitted tree, the rows it was grown on, its trace."""

    tree: GrownTree  # nodes in reading order (pre-order)
    data: EncodedData
    trace: Mapping  # the learner's raw trace columns: node ids, feature indices, scores
    criterion: str
    min_leaf: int

    @property
    def n_features(self) -> int:
        return self.data.n_features

    def is_numeric(self, f: int) -> bool:
        return self.data.codes[f] is None


# ---------------------------------------------------------------------------------------------
# 1. the rows of every node, one level at a time
# ---------------------------------------------------------------------------------------------
def levels(tree: GrownTree, data: EncodedData):
    """For each depth, the training rows that reach a node of that depth and the position of
    that node: ``(rows, at)``, two arrays, from the root down."""
    child = np.flatnonzero(tree.parent >= 0)
    n_slots = max([3] + [len(c) + 1 for c in data.categories if c is not None])
    keys = tree.parent[child] * n_slots + tree.slot[child]
    order = np.argsort(keys, kind="stable")
    keys, child = keys[order], child[order]
    rows = np.arange(len(data.y))
    at = np.zeros(len(rows), dtype=np.int64)
    while len(rows):
        yield rows, at
        f = tree.feature[at]
        splits = f >= 0
        rows, at, f = rows[splits], at[splits], f[splits]
        slot = np.empty(len(rows), dtype=np.int64)
        for g in np.unique(f).tolist():
            mine = np.flatnonzero(f == g)
            slot[mine] = _slots(data, g, rows[mine], tree.threshold[at[mine]])
        wanted = at * n_slots + slot
        found = np.minimum(np.searchsorted(keys, wanted), len(keys) - 1)
        if len(wanted) and not np.array_equal(keys[found], wanted):
            raise ValueError("the training rows do not follow the tree's branches")
        at = child[found]


def _slots(data: EncodedData, f: int, rows: np.ndarray, threshold: np.ndarray) -> np.ndarray:
    """The branch slot each row takes at a split on feature ``f``."""
    if data.codes[f] is not None:
        return data.codes[f][rows].astype(np.int64)
    x = data.numeric[f][rows]
    return np.where(np.isnan(x), NUMERIC_MISSING, np.where(x <= threshold, LEFT, RIGHT))


# ---------------------------------------------------------------------------------------------
# 2. the candidates: the trace's scores, and the branches counted level by level
# ---------------------------------------------------------------------------------------------
@dataclass
class Candidates:
    """The scores of every scored node (``scored``, positions) and feature, as (S, F) grids."""

    scored: np.ndarray
    listed: np.ndarray  # the trace lists the feature here (False: used on the path)
    gain: np.ndarray
    overall: np.ndarray
    ratio: np.ndarray
    threshold: np.ndarray
    low: np.ndarray
    high: np.ndarray
    tie: np.ndarray

    @cached_property
    def valid(self) -> np.ndarray:
        return ~np.isnan(self.gain)

    @classmethod
    def of(cls, source: PageSource) -> Candidates:
        tree, trace = source.tree, source.trace
        ids = tree.ids
        position = np.full(int(ids.max()) + 1, -1, dtype=np.int64)
        position[ids] = np.arange(len(ids))
        node = np.asarray(trace["node"], dtype=np.int64)
        feature = np.asarray(trace["feature"], dtype=np.int64)
        keep = (feature >= 0) & (node < len(position))
        keep[keep] = position[node[keep]] >= 0  # rows of nodes pruned away go
        at = position[node[keep]]
        scored = np.unique(at)
        s, f = np.searchsorted(scored, at), feature[keep]
        shape = (len(scored), source.n_features)

        def grid(name, fill=np.nan, dtype=float):
            out = np.full(shape, fill, dtype=dtype)
            out[s, f] = np.asarray(trace[name])[keep]
            return out

        listed = np.zeros(shape, dtype=bool)
        listed[s, f] = True
        return cls(
            scored,
            listed,
            grid("gain"),
            grid("overall_entropy"),
            grid("gain_ratio"),
            grid("threshold"),
            grid("low"),
            grid("high"),
            grid("tie", False, bool) & ~np.isnan(grid("gain")),
        )


@dataclass
class Branches:
    """Every branch of every candidate, ordered by candidate (``s * F + f``) then slot."""

    candidate: np.ndarray
    slot: np.ndarray  # a category's code (its number of categories: missing), or LEFT/RIGHT/...
    counts: np.ndarray  # (branches, classes)

    @cached_property
    def n(self) -> np.ndarray:
        return self.counts.sum(axis=1)


@dataclass
class Spread:
    """Of the numeric candidates with no valid split: rows with a value, missing, min and max."""

    candidate: np.ndarray
    present: np.ndarray
    missing: np.ndarray
    low: np.ndarray
    high: np.ndarray


class _Counter:
    """Counts the branches of every candidate, level by level (step 2 of the module)."""

    def __init__(self, source: PageSource, cands: Candidates):
        self.source, self.cands = source, cands
        self.n_classes = len(source.data.classes)
        self.branch_parts: list[tuple] = []
        self.spread_parts: list[tuple] = []
        self.tied_cuts = np.zeros(len(cands.scored), dtype=np.int64)
        self.scored_at = np.full(source.tree.n_nodes, -1, dtype=np.int64)
        self.scored_at[cands.scored] = np.arange(len(cands.scored))
        depth = np.sort(source.tree.depth[cands.scored])
        self.first_of_depth = np.searchsorted(depth, np.arange(depth.max(initial=0) + 2))
        self.local = np.zeros(len(cands.scored), dtype=np.int64)  # index within its level
        self.ranks: dict[int, np.ndarray] = {}  # each numeric feature's rows' ranks by value

    def run(self) -> tuple[Branches, Spread]:
        """Count every level (scored nodes by depth: ``Candidates.scored`` are in reading
        order, so they are sorted by depth only after a stable sort, done here once)."""
        by_depth = np.argsort(self.source.tree.depth[self.cands.scored], kind="stable")
        for depth, (rows, at) in enumerate(levels(self.source.tree, self.source.data)):
            s = self.scored_at[at]
            here = s >= 0
            if here.any():
                nodes = by_depth[self.first_of_depth[depth] : self.first_of_depth[depth + 1]]
                nodes = np.sort(nodes)
                self.local[nodes] = np.arange(len(nodes))
                self._level(rows[here], s[here], nodes)
        return self._branches(), self._spread()

    def _level(self, rows: np.ndarray, s: np.ndarray, nodes: np.ndarray) -> None:
        local = self.local[s]  # each row's node among the level's scored nodes
        y = self.source.data.y[rows]
        self._rows = rows
        for f in range(self.source.n_features):
            if self.source.is_numeric(f):
                self._numeric(f, rows, y, nodes, local)
            else:
                self._categorical(f, rows, y, nodes, local)

    def _table(self, cell: np.ndarray, y: np.ndarray, n_cells: int) -> tuple:
        """The non-empty cells with their class counts: ``(cells, counts)``, cells in order."""
        k = self.n_classes
        if n_cells * k <= max(4 * len(y), 2**16):
            table = np.bincount(cell * k + y, minlength=n_cells * k).reshape(n_cells, k)
            cells = np.flatnonzero(table.any(axis=1))
            return cells, table[cells]
        cells, which = np.unique(cell, return_inverse=True)
        table = np.bincount(which * k + y, minlength=len(cells) * k).reshape(len(cells), k)
        return cells, table

    def _categorical(self, f, rows, y, nodes, local) -> None:
        n_values = len(self.source.data.categories[f]) + 1
        cells, counts = self._table(
            local * n_values + self.source.data.codes[f][rows], y, len(nodes) * n_values
        )
        s = nodes[cells // n_values]
        keep = self.cands.listed[s, f]
        candidate = s * self.source.n_features + f
        self.branch_parts.append((candidate[keep], (cells % n_values)[keep], counts[keep]))

    def _numeric(self, f, rows, y, nodes, local) -> None:
        x = self.source.data.numeric[f][rows]
        threshold = self.cands.threshold[nodes, f][local]
        side = np.where(np.isnan(x), NUMERIC_MISSING, np.where(x <= threshold, LEFT, RIGHT))
        cells, counts = self._table(local * 3 + side, y, len(nodes) * 3)
        s = nodes[cells // 3]
        keep = self.cands.valid[s, f]
        candidate = s * self.source.n_features + f
        self.branch_parts.append((candidate[keep], (cells % 3)[keep], counts[keep]))
        invalid = ~self.cands.valid[nodes, f]
        if invalid.any():
            self._spread_of(f, x, nodes, local, invalid)
        chosen = self.source.tree.feature[self.cands.scored[nodes]] == f
        if chosen.any():
            self._ties(f, x, y, nodes, local, chosen)

    def _spread_of(self, f, x, nodes, local, invalid) -> None:
        mine = invalid[local]
        x, local = x[mine], local[mine]
        gone = np.isnan(x)
        m = len(nodes)
        missing = np.bincount(local[gone], minlength=m)
        present = np.bincount(local[~gone], minlength=m)
        low, high = np.full(m, np.inf), np.full(m, -np.inf)
        np.fmin.at(low, local[~gone], x[~gone])
        np.fmax.at(high, local[~gone], x[~gone])
        at = np.flatnonzero(invalid)
        candidate = nodes[at] * self.source.n_features + f
        self.spread_parts.append((candidate, present[at], missing[at], low[at], high[at]))

    def _ties(self, f, x, y, nodes, local, chosen) -> None:
        """How many cuts of the chosen numeric feature tie for the lowest overall entropy, at
        each node of the level split on it (the step-through's "k cuts tie")."""
        mine = np.flatnonzero(chosen[local])
        rank = self._ranks(f)[self._rows[mine]]
        order = mine[np.argsort(local[mine] * (len(self.source.data.y) + 1) + rank)]
        segment = local[order]
        starts = np.flatnonzero(np.r_[True, segment[1:] != segment[:-1]])
        lengths = np.diff(np.r_[starts, len(order)])
        cuts = enumerate_thresholds(x[order], y[order], starts, lengths, self.n_classes)
        m = self.source.min_leaf
        allowed = (cuts["n_left"] >= m) & (cuts["n_right"] >= m)
        overall = np.where(allowed, cuts["overall_entropy"], np.inf)
        cut_starts = np.searchsorted(cuts["segment"], np.arange(len(starts)))
        has_cuts = cut_starts < len(overall)
        best = np.full(len(starts), np.inf)
        best[has_cuts] = np.minimum.reduceat(overall, cut_starts[has_cuts]) if len(overall) else []
        tied = allowed & (overall <= best[cuts["segment"]] + TIE_TOLERANCE)
        s = nodes[segment[starts]]
        self.tied_cuts[s] = np.bincount(cuts["segment"][tied], minlength=len(starts))

    def _ranks(self, f: int) -> np.ndarray:
        """Each training row's rank by its value of numeric feature ``f`` (missing last)."""
        if f not in self.ranks:
            ranks = np.empty(len(self.source.data.y), dtype=np.int64)
            ranks[np.argsort(self.source.data.numeric[f], kind="stable")] = np.arange(len(ranks))
            self.ranks[f] = ranks
        return self.ranks[f]

    def _branches(self) -> Branches:
        k = self.n_classes
        parts = self.branch_parts or [
            (np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros((0, k), np.int64))
        ]
        candidate = np.concatenate([p[0] for p in parts])
        slot = np.concatenate([p[1] for p in parts])
        counts = np.concatenate([p[2] for p in parts]).astype(np.int64)
        order = np.lexsort((slot, candidate))
        return Branches(candidate[order], slot[order], counts[order])

    def _spread(self) -> Spread:
        parts = self.spread_parts
        if not parts:
            empty = np.zeros(0)
            return Spread(empty.astype(np.int64), empty, empty, empty, empty)
        return Spread(*(np.concatenate([p[i] for p in parts]) for i in range(5)))


# ---------------------------------------------------------------------------------------------
# 3. the words: why a feature could not split, each node's decision and why, its path
# ---------------------------------------------------------------------------------------------
class Strings:
    """A table of distinct texts: each is stored once and referred to by its index."""

    def __init__(self):
        self.texts: list[str] = []
        self._index: dict[str, int] = {}

    def add(self, text: str) -> int:
        index = self._index.get(text)
        if index is None:
            index = self._index[text] = len(self.texts)
            self.texts.append(text)
        return index


class _Words:
    """The texts of the page (the same words as :mod:`id3tree.teaching.record` and
    :mod:`id3tree.teaching.steps` write, for every node at once)."""

    def __init__(self, source: PageSource, cands: Candidates, branches: Branches, strings):
        self.source, self.cands, self.branches, self.strings = source, cands, branches, strings
        self.names = source.data.names
        self.first = np.searchsorted(branches.candidate, np.arange(cands.listed.size + 1))

    def branch_labels(self, c: int, t: str | None = None) -> list[str]:
        """The labels of candidate ``c``'s branches: ``Sunny``, ``<= 2.45``, ``missing``
        (``t``: a numeric candidate's threshold, if already written)."""
        f = c % self.source.n_features
        slots = self.branches.slot[self.first[c] : self.first[c + 1]].tolist()
        missing = current().gettext("missing")
        if not self.source.is_numeric(f):
            values = self.source.data.categories[f]
            return [missing if v == len(values) else str(values[v]) for v in slots]
        t = current().number(format_number(self.cands.threshold.flat[c])) if t is None else t
        return [{LEFT: f"<= {t}", RIGHT: f"> {t}"}.get(v, missing) for v in slots]

    def branch_sizes(self, c: int) -> list[int]:
        return self.branches.n[self.first[c] : self.first[c + 1]].tolist()

    # why a feature could not split: record.py's words --------------------------------------
    def excluded(self, spread: Spread) -> np.ndarray:
        """The note of every candidate that could not split (string indices; -1 elsewhere)."""
        cands, n_features = self.cands, self.source.n_features
        notes = np.full(cands.listed.size, -1, dtype=np.int64)
        for f, name in enumerate(self.names):
            used = np.flatnonzero(~cands.listed[:, f]) * n_features + f
            notes[used] = self.strings.add(
                current().line(
                    "{feature} is already used on the path to this node (a categorical feature "
                    "splits once per path)",
                    feature=name,
                )
            )
        for c in np.flatnonzero((cands.listed & ~cands.valid).ravel()).tolist():
            if not self.source.is_numeric(c % n_features):
                notes[c] = self.strings.add(self._categorical_reason(c))
        for c, present, missing, low, high in zip(
            spread.candidate.tolist(),
            spread.present.tolist(),
            spread.missing.tolist(),
            spread.low.tolist(),
            spread.high.tolist(),
        ):
            notes[c] = self.strings.add(self._numeric_reason(c, present, missing, low, high))
        return notes

    def _categorical_reason(self, c: int) -> str:
        name, m, L = self.names[c % self.source.n_features], self.source.min_leaf, current()
        labels, sizes = self.branch_labels(c), self.branch_sizes(c)
        if len(labels) < 2:
            only = labels[0] if labels else L.gettext("no value")
            return L.line(
                "every row here has the same value of {feature} ({value}), so it cannot split them",
                feature=name, value=only,
            )  # fmt: skip
        small = next(i for i, n in enumerate(sizes) if n < m)
        return L.line(
            "the branch {feature} = {value} would get {rows}, fewer than min_samples_leaf = {leaf}",
            feature=name, value=labels[small], rows=_rows(sizes[small]), leaf=str(m),
        )  # fmt: skip

    def _numeric_reason(self, c: int, present: int, missing: int, low, high) -> str:
        name, m, L = self.names[c % self.source.n_features], self.source.min_leaf, current()
        if present == 0:
            return L.line("every value of {feature} is missing here", feature=name)
        if high == low:
            return L.line(
                "all {rows} with a value have the same {feature} ({value}), so there is no "
                "midpoint to cut at",
                rows=_rows(present), feature=name, value=L.number(format_number(low)),
            )  # fmt: skip
        if 0 < missing < m:
            return L.line(
                "the branch of missing values would get {rows}, fewer than min_samples_leaf "
                "= {leaf}",
                rows=_rows(missing), leaf=str(m),
            )  # fmt: skip
        return L.line(
            "every threshold leaves fewer than min_samples_leaf = {leaf} rows on one side",
            leaf=str(m),
        )

    # the note beside each candidate: steps.candidate_frame's words --------------------------
    def notes(self, excluded: np.ndarray, chosen: np.ndarray) -> np.ndarray:
        tie = self.cands.tie.ravel()
        chosen = chosen.ravel()
        notes, L = excluded.copy(), current()
        notes[chosen & ~tie] = self.strings.add(L.gettext("chosen"))
        notes[chosen & tie] = self.strings.add(
            L.line("chosen (tie broken by {order})", order=tie_order())
        )
        notes[~chosen & tie] = self.strings.add(
            L.line("tied with the winner; it comes later in {order}", order=tie_order())
        )
        notes[notes < 0] = self.strings.add("")
        return notes

    # each node's decision and why: steps._decision's words ------------------------------------
    def decisions(self, scored_at: np.ndarray, tied_cuts: np.ndarray) -> tuple:
        tree, strings = self.source.tree, self.strings
        decision = np.zeros(tree.n_nodes, dtype=np.int64)
        reason = np.zeros(tree.n_nodes, dtype=np.int64)
        classes = self.source.data.classes
        prediction = majority_classes(tree.counts)
        top = tree.counts == tree.counts.max(axis=1, keepdims=True)
        class_tie = (top.sum(axis=1) > 1) & (tree.counts.max(axis=1) > 0)
        L = current()
        for i in np.flatnonzero(tree.feature < 0).tolist():
            predicted = classes[prediction[i]]
            decision[i] = strings.add(
                L.line("leaf: predict {prediction}", prediction=str(predicted))
            )
            stop = tree.stop_reason[i]
            why = L.phrase(stop, REASONS) if stop else L.gettext("no split")
            if class_tie[i]:
                counts = dict(zip(classes, tree.counts[i].tolist()))
                why += f"; {class_tie_note(counts, predicted)}"
            reason[i] = strings.add(why)
        # the split nodes' numbers, read and written a column at a time
        split = np.flatnonzero(tree.feature >= 0)
        s, f = scored_at[split], tree.feature[split]
        cands = self.cands
        score = (cands.ratio if self.source.criterion == "gain_ratio" else cands.gain)[s, f]
        written = [number_texts(v[s, f]) for v in (cands.threshold, cands.low, cands.high)]
        columns = (s, f, tied_cuts[s], score, cands.valid.sum(axis=1)[s], cands.tie[s, f])
        for i, *numbers in zip(split.tolist(), *(c.tolist() for c in columns), *written):
            decision[i], reason[i] = self._split(*numbers)
        return decision, reason

    def _split(self, s, f, tied_cuts, score, n_valid, tie, t, low, high) -> tuple[int, int]:
        """The decision and the reason of a node split on feature ``f`` (scored node ``s``),
        from its numbers (``t``, ``low`` and ``high`` written: a numeric split's)."""
        name, L = self.names[f], current()
        c = s * self.source.n_features + f
        numeric = self.source.is_numeric(f)
        shown = L.number(t) if numeric else None  # (t, low and high as format_number writes them)
        parts = zip(self.branch_labels(c, shown), self.branch_sizes(c))
        into = L.join([f"{label} ({n})" for label, n in parts])
        test = f"{name} <= {shown}" if numeric else name
        gain_ratio = self.source.criterion == "gain_ratio"
        why = L.line(
            "{feature} has the highest {score} ({value}) of the {n} {features} that can split here",
            feature=name, score=L.gettext("gain ratio") if gain_ratio else L.gettext("gain"),
            value=L.number(f"{score:.4f}"), n=str(n_valid),
            features=L.words([n_valid], "feature", "features")[0],
        )  # fmt: skip
        if tie:
            tied = [self.names[g] for g in np.flatnonzero(self.cands.tie[s]).tolist() if g != f]
            why += "; " + L.line(
                "it ties with {tied} and comes first in {order}",
                tied=L.join(tied),
                order=tie_order(),
            )
        if numeric:
            why += "; " + L.line(
                "its threshold {threshold} is {where}, the cut of lowest overall entropy",
                threshold=shown,
                where=cut_reason(low, high, t),
            )
            if tied_cuts > 1:
                why += " " + L.line("({n} cuts tie: the smallest is used)", n=str(tied_cuts))
        decision = L.line("split on {test} into {branches}", test=test, branches=into)
        return self.strings.add(decision), self.strings.add(why)

    # each node's path: the condensed tests on the way (node.node_paths' words) --------------
    def paths(self) -> list[list[int]]:
        tree, data = self.source.tree, self.source.data
        parent, feature, slot = tree.parent.tolist(), tree.feature.tolist(), tree.slot.tolist()
        written: dict = {}
        known: list = [None] * tree.n_nodes  # per node: feature -> (its tests, its word's place)
        words: list = [()] * tree.n_nodes
        known[0] = {}
        for i in range(1, tree.n_nodes):
            p = parent[i]
            f = feature[p]
            name, op, value = slot_step(data, f, slot[i], tree.threshold[p])
            tests, place = known[p].get(f, (None, -1))
            tests = narrowed(tests, op, value)
            word = self.strings.add(path_word(name, tests, None, written))
            before = words[p]
            if place < 0:
                place, words[i] = len(before), (*before, word)
            else:
                words[i] = (*before[:place], word, *before[place + 1 :])
            if feature[i] >= 0:
                known[i] = {**known[p], f: (tests, place)}
        return [list(w) for w in words]


# ---------------------------------------------------------------------------------------------
# the whole: flat arrays ready for JSON
# ---------------------------------------------------------------------------------------------
FORMAT = 1
"""Version of the layout of :func:`page_data`'s arrays, which the page's script reads."""


def page_data(source: PageSource) -> dict:
    """Everything the page shows of the tree, as JSON-ready flat lists (see the module)."""
    tree, data = source.tree, source.data
    n_features = source.n_features
    cands = Candidates.of(source)
    counter = _Counter(source, cands)
    branches, spread = counter.run()
    strings = Strings()
    words = _Words(source, cands, branches, strings)
    chosen = tree.feature[cands.scored][:, None] == np.arange(n_features)
    notes = words.notes(words.excluded(spread), chosen)
    decision, reason = words.decisions(counter.scored_at, counter.tied_cuts)
    numbers = _numbers(tree, cands, branches)
    flags = chosen.ravel() * 1 + cands.tie.ravel() * 2 + cands.listed.ravel() * 4
    valid = cands.valid.ravel()
    return {
        "format": FORMAT,
        "classes": [class_name(c) for c in data.classes],
        "predictions": [str(c) for c in data.classes],
        "features": list(data.names),
        "numeric": [int(source.is_numeric(f)) for f in range(n_features)],
        "categories": [None if c is None else [str(v) for v in c] for c in data.categories],
        "criterion": source.criterion,
        "strings": strings.texts,
        "node": {
            "id": None if tree.node_id is None else tree.ids.tolist(),
            "parent": tree.parent.tolist(),
            "slot": tree.slot.tolist(),
            "feature": tree.feature.tolist(),
            "counts": tree.counts.astype(np.int64).ravel().tolist(),
            "entropy": numbers["node"].tolist(),
            "prediction": majority_classes(tree.counts).tolist(),
            "decision": decision.tolist(),
            "reason": reason.tolist(),
            "path": words.paths(),
        },
        "scored": cands.scored.tolist(),
        "cand": {
            "overall": numbers["overall"].tolist(),
            "gain": numbers["gain"].tolist(),
            "ratio": numbers["ratio"].tolist(),
            "threshold": _number_strings(cands.threshold.ravel(), valid, strings),
            "low": _number_strings(cands.low.ravel(), valid, strings),
            "high": _number_strings(cands.high.ravel(), valid, strings),
            "note": notes.tolist(),
            "flags": flags.tolist(),
            "branches": np.diff(words.first).tolist(),
            "approx": numbers["approx"].tolist(),
        },
        "branch": {
            "slot": branches.slot.tolist(),
            "counts": branches.counts.ravel().tolist(),
            "entropy": numbers["branch"].tolist(),
        },
        "legend": _legend(bool(numbers["approx"].any())),
    }


def _rows(n: int) -> str:
    """``3 rows`` in the page's language."""
    return f"{n} {current().words([n], 'row', 'rows')[0]}"


def _legend(approx: bool) -> str | None:
    """The page's notes: the unit first in nats, then what ``≈`` means if it shows one."""
    notes = [pencil.unit_note(), current().gettext(pencil.LEGEND) if approx else None]
    return " ".join(n for n in notes if n) or None


APPROX_SUM, APPROX_DIFFERENCE = 1, 2
"""Bits of a candidate's ``approx``: its overall entropy as the weighted sum of its branches'
entropies, and its gain as the node's entropy minus the overall entropy, do not hold by pencil
from the printed numbers (the page writes ``≈``, see :mod:`id3tree.base.pencil`)."""


def _numbers(tree: GrownTree, cands: Candidates, branches: Branches) -> dict:
    """Every printed number in printed units (:func:`~id3tree.base.pencil.fixed_units`), and
    which of the equations they make hold by pencil."""
    node = fixed_units(tree.entropy)
    overall = fixed_units(cands.overall.ravel())
    gain = fixed_units(cands.gain.ravel())
    branch = fixed_units(entropy_rows(branches.counts))
    valid = np.flatnonzero(cands.valid.ravel())
    mine = np.isin(branches.candidate, valid)
    group = np.searchsorted(valid, branches.candidate[mine])
    sums = weighted_sum_holds(branches.n[mine], branch[mine], group, overall[valid])
    n_features = cands.listed.shape[1]
    entropy = node[cands.scored][valid // n_features]
    differences = difference_holds(entropy, overall[valid], gain[valid])
    approx = np.zeros(cands.listed.size, dtype=np.int64)
    approx[valid] = APPROX_SUM * ~sums + APPROX_DIFFERENCE * ~differences
    ratio = fixed_units(cands.ratio.ravel())
    return dict(node=node, overall=overall, gain=gain, ratio=ratio, branch=branch, approx=approx)


def _number_strings(values: np.ndarray, where: np.ndarray, strings: Strings) -> list[int]:
    """The index of each value written as :func:`~id3tree.base.words.format_number` writes it, where
    ``where`` holds and the value is a number; -1 elsewhere."""
    out = np.full(len(values), -1, dtype=np.int64)
    at = np.flatnonzero(where & ~np.isnan(values))
    distinct, which = np.unique(values[at], return_inverse=True)
    texts = current().numbers(number_texts(distinct))  # shown only, in the page's language
    out[at] = np.array([strings.add(t) for t in texts], dtype=np.int64)[which]
    return out.tolist()
