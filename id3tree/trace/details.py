"""What the trace needs of each level beyond its decisions, kept only when a tracer listens.

While the tree grows, :class:`TraceDetails` keeps, level by level, what the events and the printed
page will say of every node (:meth:`TraceDetails.keep`): the branches of every candidate, why a
candidate has no valid split (from the sorted rows, which are not kept) and, for ``verbose=2``,
the best thresholds. Once the tree is finished, :meth:`TraceDetails.finish_levels` completes
them for the whole tree at once (the branches of every level, every decision), and
:mod:`id3tree.trace.page` or :mod:`id3tree.trace.events` hand them to the tracer.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from id3tree.base.entropy import entropy_rows
from id3tree.base.language import current
from id3tree.base.words import format_number, number_texts, plural
from id3tree.engine.record import SCORE_NAMES
from id3tree.engine.splits import enumerate_thresholds, snapped
from id3tree.model.node import LEFT, NUMERIC_MISSING, RIGHT, path_word
from id3tree.trace.lines import DECIMALS
from id3tree.trace.thresholds import (
    best_thresholds,
    ranked_in_pieces,
    ranked_overall,
    ranked_thresholds,
)
from id3tree.trace.tracers import prints_only

__all__ = [
    "Decisions", "LevelDetails", "none_if_nan", "slot_label", "slot_step", "THRESHOLD_FIELDS",
    "TraceDetails",
]  # fmt: skip


def slot_label(data, f: int, slot: int, threshold: float, written: str | None = None) -> str:
    """A branch as a short label: ``Sunny``, ``<= 2.45``, ``> 2.45`` or ``missing``
    (``written``: the threshold already written, if it is)."""
    if data.codes[f] is not None:
        categories = data.categories[f]
        if slot != len(categories):
            return str(categories[slot])
    if slot not in (LEFT, RIGHT) or data.codes[f] is not None:
        return current().gettext("missing")
    t = format_number(threshold, DECIMALS) if written is None else written
    return f"<= {t}" if slot == LEFT else f"> {t}"


def slot_step(data, f: int, slot: int, threshold: float) -> tuple[str, str, object]:
    """A branch as a ``(feature, op, value)`` step of :func:`~id3tree.model.node.condensed_path`."""
    name = data.names[f]
    if data.codes[f] is not None:
        categories = data.categories[f]
        if slot == len(categories):
            return name, "missing", None
        return name, "=", categories[slot]
    if slot == NUMERIC_MISSING:
        return name, "missing", None
    return name, "<=" if slot == LEFT else ">", threshold


THRESHOLD_FIELDS = (
    "threshold", "low", "high", "n_left", "n_right", "entropy_left", "entropy_right",
    "overall_entropy", "gain",
)  # fmt: skip


def none_if_nan(value: float) -> float | None:
    return None if value != value else value


@dataclass
class _Candidates:
    """Columns about the candidates of some features (``features``, all of one kind) at every
    scored node of a level: candidate ``j * k + e`` is feature ``features[j]`` at scored node
    ``e`` (``k`` scored nodes)."""

    features: list
    k: int

    def candidate(self, e: int, f: int) -> int:
        """The number of feature ``f``'s candidate at scored node ``e``."""
        return self.features.index(f) * self.k + e


@dataclass
class _Branches(_Candidates):
    """The branches of the candidates of some features at every scored node of a level, as
    flat columns: candidate c (see :class:`_Candidates`) has the branches
    ``first[c]:first[c + 1]``."""

    first: np.ndarray  # one entry more than the candidates
    slots: np.ndarray  # of each branch: its slot (a numeric side, or a category's code)
    counts: np.ndarray  # (branches, classes)
    sizes: np.ndarray
    words: np.ndarray  # (features, slots): how each branch label begins (Record._slot_words)
    threshold: np.ndarray | None  # numeric: per candidate, the threshold of its split

    def at(self, e: int, f: int):
        """``(label, counts, n_samples, entropy)`` of each branch of feature ``f``'s candidate
        at scored node ``e``."""
        c = self.candidate(e, f)
        a, b = self.first[c], self.first[c + 1]
        labels = self.words[c // self.k, self.slots[a:b]]
        if self.threshold is not None:  # "x <= " and "x > " take the threshold
            sides = self.slots[a:b] != NUMERIC_MISSING
            labels[sides] += format_number(self.threshold[c], DECIMALS)
        columns = (self.counts[a:b], self.sizes[a:b], entropy_rows(self.counts[a:b]))
        return zip(labels.tolist(), *(column.tolist() for column in columns))


@dataclass
class _Ranked(_Candidates):
    """The best thresholds of the candidates of some numeric features at every scored node of
    a level (``verbose=2``): candidate c (see :class:`_Candidates`) has the rows
    ``bounds[c]:bounds[c + 1]`` of ``columns``, best first, of ``totals[c]`` in all."""

    columns: dict  # name -> array
    bounds: np.ndarray
    totals: np.ndarray


@dataclass
class Decisions:
    """A level's decisions as Python lists, read node by node when the events are sent."""

    scored: list  # per node: its index among the scored nodes, None if it was not scored
    reasons: list  # per node: why it is a leaf, None where it splits
    splitting: list  # per scored node
    feature: list  # per scored node: the chosen feature
    gain: list  # per scored node: the chosen feature's gain, gain ratio and threshold
    ratio: list
    threshold: list  # None unless numeric
    n_ties: list  # per scored node: thresholds tied with the chosen one
    tied_with: dict  # scored node -> the other features its chosen feature tied with
    below_average: dict  # scored node -> (average gain, features C4.5's rule kept out)
    first_child: list  # scored node e has the children first_child[e]:first_child[e + 1]
    child: list
    child_slot: list
    child_size: list

    @classmethod
    def of_levels(cls, levels: list, names: list) -> list[Decisions]:
        """The decisions of each of ``levels`` (:class:`Level`), found for all of them at once:
        their scored nodes' scores stacked one level under another, each column read by one
        numpy call for the whole tree, then cut into each level's lists (list slices)."""
        n_scored = [len(lv.ids) for lv in levels]
        n_nodes = [len(lv.nodes) for lv in levels]
        first = np.concatenate([[0], np.cumsum(n_scored)]).tolist()  # each level's scored rows
        s = {
            name: np.concatenate([getattr(lv.scores, name) for lv in levels])
            for name in ("gain", "ratio", "threshold", "n_ties", "tied", "below_average")
        }
        e = np.arange(first[-1])
        f = np.concatenate([lv.chosen for lv in levels]).astype(np.int64)  # the chosen features
        # each node's index among its level's scored nodes (-1: not scored)
        eligible = np.concatenate([lv.eligible for lv in levels])
        before = np.repeat(first[:-1], n_nodes)  # scored nodes of the levels before
        scored = np.where(eligible, np.cumsum(eligible) - 1 - before, -1).tolist()
        level_of = np.repeat(np.arange(len(levels)), n_scored)  # of each scored row
        tied_with = [{} for _ in levels]  # the features tied with the chosen one, in order
        tied = s["tied"] & (np.arange(s["tied"].shape[1]) != f[:, None])
        tied[s["tied"].sum(axis=1) <= 1] = False
        for row, g in zip(*(a.tolist() for a in np.nonzero(tied))):
            j = level_of[row]
            tied_with[j].setdefault(row - first[j], []).append(names[g])
        below_average = [{} for _ in levels]
        for row in np.flatnonzero(s["below_average"].any(axis=1)).tolist():
            j = level_of[row]
            below_average[j][row - first[j]] = (
                float(np.nanmean(s["gain"][row])),
                tuple(names[g] for g in np.flatnonzero(s["below_average"][row])),
            )
        # the children of each level's scored nodes, numbered within the level
        n_children = [len(lv.children) for lv in levels]
        child_first = np.concatenate([[0], np.cumsum(n_children)]).tolist()
        parent = np.concatenate([lv.parent for lv in levels]).astype(np.int64)
        parent += np.repeat(first[:-1], n_children)  # the scored row of each child's parent
        first_child = np.searchsorted(parent, np.arange(first[-1] + 1))
        columns = {
            "reasons": np.concatenate([lv.reasons for lv in levels]).tolist(),
            "splitting": np.concatenate([lv.splitting for lv in levels]).tolist(),
            "feature": f.tolist(),
            "gain": s["gain"][e, f].tolist(),
            "ratio": s["ratio"][e, f].tolist(),
            "threshold": [none_if_nan(t) for t in s["threshold"][e, f].tolist()],
            "n_ties": s["n_ties"][e, f].tolist(),
            "child": np.concatenate([lv.children for lv in levels]).tolist(),
            "child_slot": np.concatenate([lv.child_slot for lv in levels]).tolist(),
            "child_size": np.concatenate([lv.child_sizes for lv in levels]).tolist(),
        }
        node_first = np.concatenate([[0], np.cumsum(n_nodes)]).tolist()
        found = []
        for j in range(len(levels)):
            a, b = first[j], first[j + 1]  # the level's scored rows
            n0, n1 = node_first[j], node_first[j + 1]  # its nodes
            c0, c1 = child_first[j], child_first[j + 1]  # its children
            found.append(
                cls(
                    [None if i < 0 else i for i in scored[n0:n1]],
                    columns["reasons"][n0:n1],
                    columns["splitting"][a:b],
                    columns["feature"][a:b],
                    columns["gain"][a:b],
                    columns["ratio"][a:b],
                    columns["threshold"][a:b],
                    columns["n_ties"][a:b],
                    {e: tuple(others) for e, others in tied_with[j].items()},
                    below_average[j],
                    (first_child[a : b + 1] - c0).tolist(),
                    columns["child"][c0:c1],
                    columns["child_slot"][c0:c1],
                    columns["child_size"][c0:c1],
                )
            )
        return found


@dataclass
class LevelDetails:
    """What the trace needs of one level beyond the decisions (kept only when a tracer listens),
    computed for the whole level at once. For a tracer that only prints, the candidates of each
    scored node are kept as their finished text (``text``) rather than as numbers."""

    level: object  # the growth_record.Level
    entropy: list | None  # per node: its entropy (for a printing tracer, made at the end)
    decisions: Decisions | None
    scores: dict  # name -> per scored node, per feature: gain, ratio, overall, threshold, ...
    branches: dict  # feature -> the _Branches that hold its candidates' branches
    reasons: dict  # (scored node, feature) -> why the feature has no valid split there
    thresholds: dict  # numeric feature -> the _Ranked that holds its best thresholds
    text: np.ndarray | None = None  # scored node e's candidates: lines bounds[e]:bounds[e + 1]
    tables: dict | None = None  # feature -> its dense table, until its branches are made
    kept: list | None = None  # the cuts its searches kept (Scores.ranked), until they are ranked

    @cached_property
    def counts(self) -> list:
        """Per node: its class counts as Python numbers, made when first asked for (by the
        events, once the tree is finished: a printing tracer mostly reads the array)."""
        return self.level.counts.tolist()


class TraceDetails:
    """The details of every level of a growth that a tracer listens to (see the module)."""

    def __init__(self, tracer, data, min_leaf: int):
        self.data, self.min_leaf = data, min_leaf
        self.max_thresholds = getattr(tracer, "max_thresholds", 0)
        self.as_text = prints_only(tracer)
        self.levels: list[LevelDetails] = []
        self.value_labels = {}  # categorical feature -> its branch labels (_value_labels)
        self.slot_words = {}  # features -> the words of their branch slots (_slot_words)
        self.written = {}  # threshold -> its text in the paths (see path_word)

    def finish_levels(self) -> None:
        """Complete the details of every level once the tree is finished: the branches of the
        candidates each level kept as tables, the best thresholds whose cuts the searches kept,
        and every level's decisions, for the whole tree at once."""
        self._tree_branches()
        self._tree_thresholds()
        found = Decisions.of_levels([d.level for d in self.levels], self.data.names)
        for d, decisions in zip(self.levels, found):
            d.decisions = decisions

    def keep(self, lv) -> None:
        """Keep what the events of this level's nodes will say, computed level-wide: the
        branches of every candidate, why a candidate has no valid split (from the sorted rows,
        which are not kept) and, for ``verbose=2``, the best thresholds."""
        data, k, s = self.data, len(lv.ids), lv.scores
        invalid = s.candidate & np.isnan(s.gain)
        branches, reasons, ranked = {}, {}, []
        tables = dict(getattr(s, "branch_tables", {}))  # dense (k, slots, classes)
        facts = getattr(s, "numeric_facts", {})  # f -> per node (n_present, n_distinct, found)
        for f in tables:
            for e in np.flatnonzero(invalid[:, f]).tolist():
                if data.codes[f] is not None:
                    n_branches = int((tables[f][e].sum(axis=1) > 0).sum())
                    reasons[e, f] = self._categorical_reason(int(lv.sizes[e]), n_branches)
                elif f in facts:
                    n_present, n_distinct, found = (int(a[e]) for a in facts[f])
                    reasons[e, f] = self._numeric_reason(
                        int(lv.sizes[e]), n_present, n_distinct, bool(found)
                    )
        has_invalid = invalid.any(axis=0).tolist()
        kept = {f for features, *_ in getattr(s, "ranked", []) for f in features}
        for f, result in getattr(s, "results", {}).items():
            if data.codes[f] is None:
                tables[f] = result.side_counts  # (k, 3, classes): left, right, missing
                invalid_here = np.flatnonzero(invalid[:, f]).tolist() if has_invalid[f] else []
                to_rank = self.max_thresholds != 0 and f not in kept
                if not invalid_here and not to_rank:
                    continue
                o = lv.orders.get(f)  # (a counted feature's rows are sorted when asked for)
                if o is None:
                    continue
                if invalid_here:
                    v = data.numeric[f][o]
                    self._numeric_reasons(reasons, f, v, lv, invalid_here, result.found)
                if to_rank:
                    ranked.append((f, o))
            else:
                branches[f] = self._categorical_branches(f, result, k)
                for e in np.flatnonzero(invalid[:, f]).tolist():
                    reasons[e, f] = self._categorical_reason(
                        int(lv.sizes[e]), int(result.n_branches[e])
                    )
        thresholds = self._best_thresholds(ranked, lv) if ranked else {}
        lv.orders = {}  # (valid until the rows are regrouped: not kept; no copy of the level)
        details = LevelDetails(
            lv,
            None if self.as_text else entropy_rows(lv.counts).tolist(),  # see _entropies
            None,  # the decisions of every level are found at once (Decisions.of_levels)
            self._scores(s) if not self.as_text else {},
            branches,
            reasons,
            thresholds,
            tables=tables,  # their branches are made for the whole tree at once (_tree_branches)
            kept=list(s.ranked) if kept else None,  # ranked for the whole tree (_tree_thresholds)
        )
        self.levels.append(details)

    @staticmethod
    def _scores(s) -> dict:
        """Per scored node, per feature, each score the events report (None where missing)."""
        nan = s.gain * np.nan
        return {
            name: [[none_if_nan(v) for v in row] for row in getattr(s, name, nan).tolist()]
            for name in SCORE_NAMES
        }

    def _numeric_reasons(self, reasons: dict, f: int, v, lv, nodes: list, found) -> None:
        """Why numeric feature ``f`` has no valid split at each scored node of ``nodes``; ``v``
        holds its values in the level's sorted order."""
        k = len(lv.ids)
        segment = np.repeat(np.arange(k), lv.sizes)
        present = ~np.isnan(v)
        n_present = np.bincount(segment, weights=present, minlength=k)
        new_value = present.copy()
        new_value[1:] &= (v[1:] != v[:-1]) | (segment[1:] != segment[:-1])
        n_distinct = np.bincount(segment, weights=new_value, minlength=k)
        for e in nodes:
            reasons[e, f] = self._numeric_reason(
                int(lv.sizes[e]), int(n_present[e]), int(n_distinct[e]), found[e]
            )

    def _tree_branches(self) -> None:
        """The branches of the candidates whose class counts each level keeps as dense tables
        (``tables``), made once the tree is finished (:meth:`_table_branches`): a kind of
        feature at a time, the levels with the same features and table shapes at once."""
        for numeric in (True, False):
            groups = {}  # (features, slots of each, dtype) -> the levels that have them
            for d in self.levels:
                features = [f for f in d.tables if (self.data.codes[f] is None) == numeric]
                if features:
                    shapes = tuple(d.tables[f].shape[1] for f in features)
                    key = (tuple(features), shapes, d.tables[features[0]].dtype)
                    groups.setdefault(key, []).append(d)
            for (features, _, _), levels in groups.items():
                found = self._table_branches(list(features), levels, numeric)
                for d, branches in zip(levels, found):
                    d.branches |= dict.fromkeys(features, branches)
        for d in self.levels:
            d.tables = None

    def _table_branches(self, features: list, levels: list, numeric: bool) -> list:
        """The branches of several features of one kind at several levels, from their dense
        ``(k, slots, classes)`` tables of class counts, at the nodes where each splits: a
        numeric feature's left and right sides (and its missing values when there are some), a
        categorical feature's values present. One :class:`_Branches` per level.

        Every feature of every level is found in one pass: the levels' tables are stacked one
        under another (level by level, feature by feature, node by node: each level's
        candidates, then its branches, are a contiguous run), and each level's
        :class:`_Branches` is a view of its run."""
        data = self.data
        n_classes = len(data.classes)
        shapes = [levels[0].tables[f].shape[1] for f in features]
        n_slots = max(shapes)
        tables = [d.tables[f] for d in levels for f in features]  # candidate j * k + e
        if min(shapes) == n_slots:
            table = np.concatenate(tables)
        else:
            table = np.zeros((sum(map(len, tables)), n_slots, n_classes), dtype=tables[0].dtype)
            row = 0
            for part in tables:
                table[row : row + len(part), : part.shape[1]] = part
                row += len(part)
        gains = [d.level.scores.gain[:, f] for d in levels for f in features]
        if numeric:
            thresholds = [d.level.scores.threshold[:, f] for d in levels for f in features]
        sizes = table.sum(axis=2)
        valid = ~np.isnan(np.concatenate(gains))  # per candidate
        keep = valid[:, None] & (sizes > 0)
        if numeric:
            keep[:, LEFT] |= valid
            keep[:, RIGHT] |= valid
        at = np.flatnonzero(keep)
        owner, slot = np.divmod(at, n_slots)  # owner: the candidate of each branch
        bounds = np.searchsorted(owner, np.arange(len(table) + 1))
        counts, sizes = table.reshape(-1, n_classes)[at], sizes.ravel()[at]
        threshold = np.concatenate(thresholds) if numeric else None
        words = self._slot_words(features)
        found, first = [], 0
        for d in levels:
            stop = first + len(features) * len(d.level.ids)  # the level's candidates
            lo, hi = bounds[first], bounds[stop]
            found.append(
                _Branches(
                    features,
                    len(d.level.ids),
                    bounds[first : stop + 1] - lo,
                    slot[lo:hi],
                    counts[lo:hi],
                    sizes[lo:hi],
                    words,
                    None if threshold is None else threshold[first:stop],
                )
            )
            first = stop
        return found

    def _slot_words(self, features: list) -> np.ndarray:
        """The words of each branch slot of each of ``features`` (one row each), as a branch
        label begins: ``petal_length <= `` (the threshold follows), ``petal_length > ``,
        ``petal_length is missing``; ``Outlook = Sunny``, ..., ``Outlook is missing``. Written
        once per fit for each set of features."""
        key = tuple(features)
        if key not in self.slot_words:
            rows = []
            for f in features:
                name = self.data.names[f]
                if self.data.codes[f] is None:  # in slot order: LEFT, RIGHT, NUMERIC_MISSING
                    rows.append([f"{name} <= ", f"{name} > ", f"{name} is missing"])
                else:
                    rows.append(list(self._value_labels(f)))
            words = np.full((len(rows), max(map(len, rows))), "", dtype=object)
            for j, row in enumerate(rows):
                words[j, : len(row)] = row
            self.slot_words[key] = words
        return self.slot_words[key]

    def _value_labels(self, f: int) -> np.ndarray:
        """The branch labels of categorical feature ``f``, by code: ``Outlook = Sunny``, ...,
        then ``Outlook is missing``; written once per fit."""
        if f not in self.value_labels:
            name = self.data.names[f]
            values = [f"{name} = {c}" for c in self.data.categories[f]]
            self.value_labels[f] = np.array([*values, f"{name} is missing"], dtype=object)
        return self.value_labels[f]

    def _categorical_branches(self, f: int, result, k: int) -> _Branches:
        """The branches of categorical feature ``f`` at every scored node, from its search."""
        data = self.data
        n_levels = len(data.categories[f]) + 1
        node, code = np.divmod(result.branch_keys, n_levels)
        return _Branches(
            [f],
            k,
            np.searchsorted(node, np.arange(k + 1)),
            code,
            result.table,
            result.table.sum(axis=1),
            self._slot_words([f]),
            None,
        )

    def _categorical_reason(self, n: int, n_branches: int) -> str:
        """Why a categorical feature offers no valid split at a node of ``n`` rows, in words."""
        if n_branches < 2:
            return f"all {plural(n, 'sample')} have the same value"
        return f"a branch would hold fewer than min_samples_leaf = {self.min_leaf} samples"

    def _numeric_reason(self, n: int, present: int, distinct: int, found: bool) -> str:
        """Why a numeric feature offers no valid split at a node of ``n`` rows, in words."""
        m = self.min_leaf
        if present == 0:
            return f"its value is missing in all {plural(n, 'sample')}"
        if distinct < 2:
            if present == n:
                return f"all {plural(n, 'sample')} have the same value"
            return f"all {present} samples where it is known have the same value"
        if not found:
            return f"every threshold leaves fewer than min_samples_leaf = {m} samples on a side"
        return (
            f"the missing-values branch would hold {plural(n - present, 'sample')}, "
            f"fewer than min_samples_leaf = {m}"
        )

    def _tree_thresholds(self) -> None:
        """The best thresholds of the numeric features whose split search kept the cuts that
        may be among them (``kept``: ``Scores.ranked``, found from the scores it computed, with
        the two values each cut lies between), for every level at once: only those cuts are
        ranked (:func:`~id3tree.trace.thresholds.ranked_thresholds`), for the whole tree in pieces of a
        few hundred thousand cuts (:func:`~id3tree.trace.thresholds.ranked_in_pieces`), so that the cost
        follows the page, not the data nor the number of levels. Each level's
        segments (``i * k + e``: its i-th kept feature at scored node e) are one run of the
        whole tree's, level after level."""
        levels = [d for d in self.levels if d.kept]
        if not levels:
            return
        parts = [chunk for d in levels for _, *chunk in d.kept]  # (RankedCuts, low, high)
        rank = ranked_overall if self.as_text else ranked_thresholds  # (the page: two columns)
        cols, n_thresholds = ranked_in_pieces(parts, self.max_thresholds, rank)
        bounds = np.searchsorted(cols["segment"], np.arange(len(n_thresholds) + 1))
        first = 0  # each level's first segment
        for d in levels:
            features = [f for features, *_ in d.kept for f in features]
            stop = first + len(features) * len(d.level.ids)
            a, b = bounds[first], bounds[stop]
            level_cols = {name: column[a:b] for name, column in cols.items()}
            d.thresholds |= self._thresholds_found(
                features, len(d.level.ids), level_cols, n_thresholds[first:stop],
                bounds[first : stop + 1] - a,
            )  # fmt: skip
            d.kept = None
            first = stop

    def _best_thresholds(self, ranked: list, lv) -> dict:
        """The thresholds of numeric features at every scored node of a level, best (lowest
        overall entropy) first: the first ``max_thresholds`` of each (all if None), with the
        number each has. ``ranked`` holds ``(feature, order)``: the level's rows sorted by the
        feature within each node; all are ranked together, their cuts scored again.

        Only for what the split search does not keep (:meth:`_tree_thresholds`, every search
        of unweighted rows when the trace asks for a few thresholds): weighted rows, or every
        threshold (``max_thresholds=None``)."""
        k, m, n_classes = len(lv.ids), int(lv.sizes.sum()), len(self.data.classes)
        numeric, w = self.data.numeric, self.data.weight
        values = np.concatenate([numeric[f][o] for f, o in ranked])
        y = np.concatenate([self.data.y[o] for _, o in ranked])
        weight = None if w is None else np.concatenate([w[o] for _, o in ranked])
        starts = (np.arange(len(ranked))[:, None] * m + lv.starts).ravel()
        lengths = np.tile(lv.sizes, len(ranked))
        if self.max_thresholds is None:
            cols = enumerate_thresholds(values, y, starts, lengths, n_classes, weight)
            totals = np.bincount(cols["segment"], minlength=len(starts))
            order = np.lexsort((cols["threshold"], cols["overall_entropy"], cols["segment"]))
            cols = {name: column[order] for name, column in cols.items()}
        else:
            cols, totals = best_thresholds(
                values, y, starts, lengths, n_classes, self.max_thresholds, weight
            )
        return self._thresholds_found([f for f, _ in ranked], k, cols, totals)

    def _thresholds_found(self, features: list, k: int, cols: dict, totals, bounds=None) -> dict:
        """The best thresholds of ``features`` at the ``k`` scored nodes of a level, from the
        columns of their best thresholds (segment ``i * k + e``: the i-th feature at node e;
        ``bounds``: where each segment's rows begin, when known) and how many thresholds each
        segment has."""
        if bounds is None:
            bounds = np.searchsorted(cols["segment"], np.arange(len(features) * k + 1))
        names = ("threshold", "overall_entropy") if self.as_text else THRESHOLD_FIELDS
        cols = {c: cols[c] for c in names}
        if self.data.thresholds != "midpoint":  # C4.5's: each feature's cuts snap to its values
            cols["threshold"] = cols["threshold"].copy()
            for i, f in enumerate(features):
                part = slice(bounds[i * k], bounds[(i + 1) * k])
                cols["threshold"][part] = snapped(cols["threshold"][part], self.data.cut_values(f))
        found = _Ranked(features, k, cols, bounds, totals)
        return dict.fromkeys(features, found)

    def entropies(self) -> None:
        """The entropy of every node (``entropy`` of each level) for a printing tracer: of the
        whole tree at once when the counts are whole numbers (each row's entropy is then
        computed as if alone), else level by level as the events' path does."""
        counts = [d.level.counts for d in self.levels]
        if all(c.dtype.kind in "iu" for c in counts):
            entropy = entropy_rows(np.concatenate(counts)).tolist()
            bounds = np.cumsum([0] + [len(c) for c in counts]).tolist()
            for d, first, stop in zip(self.levels, bounds, bounds[1:]):
                d.entropy = entropy[first:stop]
        else:
            for d in self.levels:
                d.entropy = entropy_rows(d.level.counts).tolist()

    def node_paths(self) -> list:
        """The path of each node (grower's numbers): the words of its condensed tests, one per
        feature tested on the way (:func:`~id3tree.model.node.path_word`; none at the root).

        What the path of each node of a level knows of every feature is kept in arrays, a row
        per node: :func:`~id3tree.model.node.narrowed`'s ``(low, high, other)`` as the bounds of the
        numeric tests (NaN for none: ``np.fmin`` and ``np.fmax`` then narrow them as ``min``
        and ``max`` do) and the last ``=`` or ``missing`` test, and the place of the feature's
        word in the path (-1 before its first test). The children of a whole level are
        narrowed by a few numpy calls (a level's children are the next level's nodes, in
        order); then each child's words are its parent's with one word written in its place,
        every threshold of the tree written at once beforehand.
        """
        data = self.data
        numeric = np.array([c is None for c in data.codes])
        n_features = len(numeric)
        low, high = np.full((1, n_features), np.nan), np.full((1, n_features), np.nan)
        other = np.full((1, n_features), None, dtype=object)
        place = np.full((1, n_features), -1, dtype=np.int64)
        n_words = np.zeros(1, dtype=np.int64)
        steps = []  # per level: each child's parent row, feature and what it knows of it
        for d in self.levels:
            lv = d.level
            if not len(lv.children):
                break
            rows = lv.ids[lv.parent] - lv.nodes[0]  # each child's parent, among the nodes
            f = lv.chosen[lv.parent]
            slot, threshold = lv.child_slot, lv.scores.threshold[lv.parent, f]
            low, high, other, place, n_words = (a[rows] for a in (low, high, other, place, n_words))
            child = np.arange(len(f))
            sides = numeric[f] & (slot != NUMERIC_MISSING)
            for side, bound, narrow in ((LEFT, high, np.fmin), (RIGHT, low, np.fmax)):
                at = np.flatnonzero(sides & (slot == side))
                bound[at, f[at]] = narrow(bound[at, f[at]], threshold[at])
            for c in np.flatnonzero(~sides).tolist():  # a value or missing values: rare
                g = int(f[c])
                _, op, value = slot_step(data, g, int(slot[c]), np.nan)
                other[c, g] = (op, value)
            new = place[child, f] < 0
            place[child[new], f[new]] = n_words[new]
            n_words = n_words + new
            steps.append((rows, f, place[child, f], low[child, f], high[child, f], other[child, f]))
        splits = np.concatenate(
            [[np.nan]] + [step[3] for step in steps] + [step[4] for step in steps]
        )
        splits = np.unique(splits[~np.isnan(splits)])
        self.written.update(zip(splits.tolist(), number_texts(splits, DECIMALS)))
        level, where = [()], [()]
        for rows, f, at, lows, highs, others in steps:
            names = [data.names[g] for g in f.tolist()]
            lows = [None if v != v else v for v in lows.tolist()]
            highs = [None if v != v else v for v in highs.tolist()]
            parts = zip(rows.tolist(), names, at.tolist(), lows, highs, others.tolist())
            level = [
                (words := level[row])[:i]
                + (path_word(name, (lo, hi, ot), DECIMALS, self.written),)
                + words[i + 1 :]
                for row, name, i, lo, hi, ot in parts
            ]
            where += level
        return where

    def class_dict(self, counts: list) -> dict:
        return dict(zip(self.data.classes, counts))
