"""The page a printing tracer writes (``verbose=1`` and ``verbose=2``), for the whole tree at once.

A tracer that only prints (:func:`~id3tree.trace.tracers.prints_only`) gets no events: it gets the same
lines, written by the same functions of :mod:`id3tree.trace.tracers` the events print themselves with
(:func:`~id3tree.trace.lines.node_texts`, :func:`~id3tree.trace.lines.candidate_lines`,
:func:`~id3tree.trace.lines.thresholds_texts`, :func:`~id3tree.trace.lines.split_texts`,
:func:`~id3tree.trace.lines.leaf_texts`), each column of numbers of the whole tree written by one call,
and each line put in its place on the page by numpy. A trace of 10,000 rows writes some 100,000
numbers, and one Python call per number would cost more than the fit itself.
"""

from __future__ import annotations

import numpy as np

from id3tree.base.entropy import entropy_rows
from id3tree.base.language import current
from id3tree.base.words import counts_texts, number_texts
from id3tree.engine.splits.results import ranges
from id3tree.engine.stopping import NO_VALID_SPLIT
from id3tree.model.node import NUMERIC_MISSING, class_tie_note, top_classes
from id3tree.trace import lines
from id3tree.trace.details import (
    SCORE_NAMES,
    LevelDetails,
    TraceDetails,
    none_if_nan,
    slot_label,
)

__all__ = ["Page", "PIECE_LINES", "WRITE_EVERY"]

WRITE_EVERY = 2000
"""A printing tracer gets the trace in blocks of about this many lines."""

PIECE_LINES = 50_000
"""The page is made in pieces of consecutive nodes of about this many lines, each made,
written and let go before the next (the whole page of 10,000 rows is one piece): each column
of numbers of a piece stays a few MB and its memory is used again by the next piece, where the
columns of a whole page at a million rows (millions of branches) would each be fresh memory,
and only one piece's lines are alive at a time."""


def _distinct(tables: dict) -> list:
    """The distinct values of ``tables`` (several features share one table), in order."""
    return list({id(table): table for table in tables.values()}.values())


def _score(scores, name: str) -> np.ndarray:
    """One of a level's scores by name, (scored nodes, features); NaN where the grower does
    not provide it."""
    return getattr(scores, name) if hasattr(scores, name) else scores.gain * np.nan


def _node_pieces(size: np.ndarray, piece_lines: int) -> list:
    """The nodes (in reading order, ``size[i]`` lines each) cut into pieces of consecutive
    nodes of at most ``piece_lines`` lines (a node is never cut; a piece of one node may be
    longer): ``(first node, stop)`` of each piece."""
    ends = np.cumsum(size)
    pieces, a = [], 0
    while a < len(size):
        z = int(np.searchsorted(ends, ends[a] - size[a] + piece_lines, side="right"))
        pieces.append((a, max(z, a + 1)))
        a = pieces[-1][1]
    return pieces


def _by_page_line(work: dict, at_page: np.ndarray) -> dict:
    """``work`` (see :meth:`Page._plan_candidates`) with each part's candidates in the order
    of their lines on the page, and that line of each: the candidates of a piece of the page
    are then a slice of each part (:func:`_lines_between`)."""
    short = work["short"]
    line = at_page[np.array([where for where, _ in short], dtype=np.int64)]
    order = np.argsort(line, kind="stable")
    in_order = {"short": ([short[i] for i in order.tolist()], line[order])}
    for kind in ("numeric", "categorical", "ranked"):
        in_order[kind] = []
        for part in work[kind]:  # its candidates, then where their lines go
            line = at_page[part[3]]
            order = np.argsort(line, kind="stable")
            in_order[kind].append(
                ((*part[:2], part[2][order], part[3][order], *part[4:]), line[order])
            )
    return in_order


def _lines_between(in_order: dict, at: int, stop: int) -> dict:
    """The work of the candidates whose lines are the page's lines ``at:stop``, from
    :func:`_by_page_line`."""
    entries, line = in_order["short"]
    a, z = np.searchsorted(line, [at, stop]).tolist()
    work = {"short": entries[a:z]}
    for kind in ("numeric", "categorical", "ranked"):
        work[kind] = []
        for part, line in in_order[kind]:
            a, z = np.searchsorted(line, [at, stop]).tolist()
            if z > a:
                work[kind].append((*part[:2], part[2][a:z], part[3][a:z], *part[4:]))
    return work


class Page:
    """The printed page of a growth, from its :class:`~id3tree.trace.details.TraceDetails`."""

    def __init__(self, trace: TraceDetails, tracer):
        self.trace, self.tracer = trace, tracer
        self.data, self.details = trace.data, trace.levels
        self.slot_labels = None  # the short labels of every feature's slots (_slot_labels)

    def write(self, new: np.ndarray) -> None:
        """The page a printing tracer writes, in blocks of ``WRITE_EVERY`` lines: node by node
        in reading order (``new`` holds the pre-order number of each of the grower's nodes),
        its line, its candidates and its decision.

        Each kind of text is written for many nodes at once (:meth:`_write_candidates`,
        :meth:`_node_lines`, :meth:`_decision_texts`, the paths of
        :meth:`~id3tree.trace.details.TraceDetails.node_paths`) and put in its
        places on the page by numpy (where each node's lines start is known from how many
        lines its candidates take, :meth:`_plan_candidates`): nothing is done node by node
        but the nodes' own lines. The candidates' lines, most of the page, are made in pieces
        of consecutive nodes of about ``PIECE_LINES`` lines (:func:`_node_pieces`), each
        piece written out before the next is made; a page of up to ``PIECE_LINES`` lines is
        one piece.
        """
        self.trace.entropies()
        work, n_candidate_lines = self._plan_candidates()
        details = self.details
        decision_text = self._decision_texts(details)
        where = list(map(lines.path_text, self.trace.node_paths()))
        # where each node's candidates are among candidate_lines (grower's numbers)
        first, n_lines = [], []
        for d in details:
            e = np.asarray([-1 if e is None else e for e in d.decisions.scored], dtype=np.int64)
            # a node that was not scored (e = -1) reads the last entry: none
            first.append(np.append(d.text[:-1], 0)[e])
            n_lines.append(np.append(np.diff(d.text), 0)[e])
        order = np.argsort(new)  # the grower's numbers in reading order
        first, n_lines = np.concatenate(first)[order], np.concatenate(n_lines)[order]
        depth = np.concatenate([np.full(len(d.level.counts), d.level.depth) for d in details])
        node_lines = self._node_lines(order, depth[order], where)
        # the page, node by node: its line, its candidates' lines (written in their places by
        # _write_candidates), its decision
        size = n_lines + 2
        start = np.cumsum(size) - size
        within = np.arange(int(n_lines.sum())) - np.repeat(np.cumsum(n_lines) - n_lines, n_lines)
        at_page = np.empty(n_candidate_lines, dtype=np.int64)
        at_page[np.repeat(first, n_lines) + within] = np.repeat(start + 1, n_lines) + within
        node_lines = np.array(node_lines, dtype=object)
        decisions = np.array(decision_text, dtype=object)[order]
        pieces = _node_pieces(size, PIECE_LINES)
        in_order = _by_page_line(work, at_page) if len(pieces) > 1 else None
        for a, z in pieces:  # each piece made, written and let go before the next
            at, stop = int(start[a]), int(start[z - 1] + size[z - 1])
            page = np.empty(stop - at, dtype=object)
            page[start[a:z] - at] = node_lines[a:z]
            page[start[a:z] + 1 + n_lines[a:z] - at] = decisions[a:z]
            piece = work if in_order is None else _lines_between(in_order, at, stop)
            self._write_candidates(piece, page, at_page, at)
            for block in range(0, len(page), WRITE_EVERY):
                self.tracer.write("\n".join([*page[block : block + WRITE_EVERY].tolist(), ""]))

    def _plan_candidates(self) -> tuple[dict, int]:
        """Where the lines of every candidate of every level go: the work of
        :meth:`_write_candidates`, and how many lines there are (:meth:`_plan_lines`)."""
        work = {"short": [], "numeric": [], "categorical": [], "ranked": []}
        return work, self._plan_lines(work)

    def _write_candidates(self, work: dict, page: np.ndarray, at_page: np.ndarray, at: int) -> None:
        """Write the lines of the candidates of ``work`` into ``page`` (an array of str, the
        page's lines from line ``at`` on): line i as :meth:`_plan_candidates` numbers them goes
        to ``page[at_page[i] - at]``. In that numbering, the lines are in reading order
        within each node (feature by feature; each numeric candidate followed by its best
        thresholds), and scored node e of a level has the lines ``bounds[e]:bounds[e + 1]``,
        ``bounds`` being its ``text``.

        All the candidates of one kind in ``work`` are written at once, whatever their level,
        node and feature (each column of numbers by one call, see
        :func:`~id3tree.trace.lines.candidate_lines`), and their lines put in their places on the
        page in one step: the page is the same as if each node were written alone, for a
        fraction of the cost (a deep tree has many small levels, and numpy's cost per call
        would add up).
        """
        if work["short"]:
            where, text = zip(*work["short"])
            page[at_page[list(where)] - at] = list(text)
        for kind in ("numeric", "categorical"):
            if work[kind]:
                (heads, lines, totals), first, starts = self._candidate_lines(kind, work[kind])
                n_branches = np.diff(first)  # each candidate's test, its branches, its total
                page[at_page[starts] - at] = heads
                within = np.arange(first[-1]) - np.repeat(first[:-1], n_branches)
                page[at_page[np.repeat(starts + 1, n_branches) + within] - at] = lines
                page[at_page[starts + 1 + n_branches] - at] = totals
        if work["ranked"]:
            where, text = self._thresholds_lines(work["ranked"])
            page[at_page[where] - at] = text

    def _plan_lines(self, work: dict) -> int:
        """Where the lines of every level's candidates go, the levels' scored nodes one under
        another (each level's scores, a row per scored node and a column per feature, stacked
        under the last): each level's ``d.text`` becomes ``bounds``, its scored node e's lines
        being ``bounds[e]:bounds[e + 1]``. The candidates without branches are written here
        (one line each); those in full and the best thresholds are added to ``work``, written
        later for the whole tree at once. Returns how many lines the candidates take."""
        details = self.details
        row = np.cumsum([0] + [len(d.level.scores.candidate) for d in details]).tolist()
        candidate = np.concatenate([d.level.scores.candidate for d in details])
        gain = np.concatenate([d.level.scores.gain for d in details])
        tables = [(_distinct(d.branches), _distinct(d.thresholds)) for d in details]
        n_branches, n_listed = np.zeros((2, *candidate.shape), dtype=np.int64)
        for (branches, thresholds), a, z in zip(tables, row, row[1:]):
            for b in branches:
                n_branches[a:z, b.features] = np.diff(b.first).reshape(len(b.features), -1).T
            for best in thresholds:
                n_listed[a:z, best.features] = (
                    np.diff(best.bounds).reshape(len(best.features), -1).T
                )
        # How many lines each (scored node, feature) writes: a candidate in full writes its
        # test, its branches and its total; one without branches (no valid split, or a score
        # only) one line; one more for its best thresholds (verbose=2).
        in_full = candidate & ~np.isnan(gain) & (n_branches > 0)
        listed = candidate & (n_listed > 0)
        n_lines = candidate + np.where(in_full, 1 + n_branches, 0) + listed
        flat = n_lines.ravel()
        starts = (np.cumsum(flat) - flat).reshape(n_lines.shape)
        bounds = np.concatenate([[0], np.cumsum(n_lines.sum(axis=1))])
        node_n, node_entropy = self._scored_nodes()
        node_n_of, entropy_of = np.asarray(node_n), np.asarray(node_entropy, dtype=float)
        for d, (branches, thresholds), a, z in zip(details, tables, row, row[1:]):
            d.text = bounds[a : z + 1]
            for e, f in zip(*(x.tolist() for x in np.nonzero(candidate[a:z] & ~in_full[a:z]))):
                text = self._short_candidate(d, e, f, node_n[a + e], node_entropy[a + e])
                work["short"].append((int(starts[a + e, f]), text))
            for b in branches:
                j, e = np.nonzero(in_full[a:z, b.features].T)  # feature by feature
                if len(e):
                    f = np.asarray(b.features)[j]
                    kind = "numeric" if self.data.codes[b.features[0]] is None else "categorical"
                    part = (d, b, j * b.k + e, starts[a + e, f], node_n_of[a:z], entropy_of[a:z])
                    work[kind].append(part)
            for best in thresholds:
                j, e = np.nonzero(listed[a:z, best.features].T)
                if len(e):
                    at = a + e, np.asarray(best.features)[j]
                    work["ranked"].append((d, best, j * best.k + e, starts[at] + n_lines[at] - 1))
        return int(bounds[-1])

    def _scored_nodes(self) -> tuple[list, list]:
        """The size and the entropy of every scored node of every level, level after level."""
        levels = [d.level for d in self.details]
        scored = np.flatnonzero(np.concatenate([lv.eligible for lv in levels]))
        counts = np.concatenate([lv.counts for lv in levels])
        if counts.dtype.kind in "iu":  # whole counts: any order of adding gives the same sum
            node_n = counts[scored].sum(axis=1).tolist()
        else:  # sums of weights, added as the events path adds them
            node_n = [sum(row) for row in counts[scored].tolist()]
        entropy = [h for d in self.details for h in d.entropy]
        return node_n, [entropy[i] for i in scored.tolist()]

    def _candidate_lines(self, kind: str, parts: list) -> tuple:
        """:func:`~id3tree.trace.lines.candidate_lines` of the candidates of ``parts`` (each
        ``(level, branches, candidates, where their lines start, node sizes, node
        entropies)``), all of one kind and each with a valid split and branches; and where each
        candidate's branches and lines start.

        Each candidate's numbers and branches are read from its level's scores and its
        :class:`_Branches` by one index per column and part, then joined: nothing is copied
        but what these candidates print (a piece of the page, :func:`_node_pieces`).
        """
        data = self.data
        n_features = len(data.names)
        scores = {name: [] for name in SCORE_NAMES}
        depth, feature, node_n, node_entropy = [], [], [], []
        n_branches, counts, sizes, slots, labels = [], [], [], [], []
        for d, b, candidates, _, n, h in parts:
            j, e = np.divmod(candidates, b.k)
            f = np.asarray(b.features)[j]
            at_score = e * n_features + f
            for name in SCORE_NAMES:
                scores[name].append(_score(d.level.scores, name).ravel()[at_score])
            depth.append(np.full(len(candidates), d.level.depth))
            feature.append(f)
            node_n.append(n[e])
            node_entropy.append(h[e])
            n_of = b.first[candidates + 1] - b.first[candidates]
            rows = ranges(b.first[candidates], b.first[candidates + 1])
            n_branches.append(n_of)
            counts.append(b.counts[rows])
            sizes.append(b.sizes[rows])
            slots.append(b.slots[rows])
            labels.append(b.words[np.repeat(j, n_of), b.slots[rows]])
        scores = {name: np.concatenate(column) for name, column in scores.items()}
        n_branches = np.concatenate(n_branches)
        first = np.concatenate([[0], np.cumsum(n_branches)])
        counts, slots = np.concatenate(counts), np.concatenate(slots)
        tests = None
        label_ends = None
        if kind == "numeric":  # a numeric side's label is followed by the threshold
            tests = number_texts(scores["threshold"], lines.DECIMALS)
            owner = np.repeat(np.arange(len(n_branches)), n_branches)
            label_ends = np.full(len(owner), "", dtype=object)
            sides = np.flatnonzero(slots != NUMERIC_MISSING)
            label_ends[sides] = np.array(tests, dtype=object)[owner[sides]]
        names = np.array(data.names, dtype=object)
        columns = {
            "depth": np.concatenate(depth).tolist(),
            "feature": names[np.concatenate(feature)].tolist(),
            "n_samples": np.concatenate(node_n),
            "entropy": np.concatenate(node_entropy),
            "gain": scores["gain"],
            "gain_ratio": scores["ratio"],
            "overall_entropy": scores["overall"],
            "threshold": tests,
            "low": scores["low"],
            "high": scores["high"],
            "first": first,
        }
        branches = {
            "label": np.concatenate(labels).tolist(),
            "label_end": None if label_ends is None else label_ends.tolist(),
            "n_samples": np.concatenate(sizes),
            "entropy": entropy_rows(counts),
            "counts": counts_texts(counts, data.classes),
        }
        criterion = parts[0][0].level.criterion
        text = lines.candidate_lines(kind, criterion, columns, branches)
        return text, first, np.concatenate([at for _, _, _, at, *_ in parts])

    @staticmethod
    def _thresholds_lines(parts: list) -> tuple:
        """:func:`~id3tree.trace.lines.thresholds_texts` of the candidates of ``parts`` (each
        ``(level, best thresholds, candidates, where their line goes)``), each with thresholds
        to list, in one call; and where each line goes. Only the rows of the thresholds these
        candidates list are read (a piece of the page, :func:`_node_pieces`)."""
        threshold, overall, firsts, stops, n_more, depths, at = [], [], [], [], [], [], []
        offset = 0
        for d, best, candidates, where in parts:
            first, stop = best.bounds[candidates], best.bounds[candidates + 1]
            n_listed = stop - first
            before = np.cumsum(n_listed) - n_listed
            rows = ranges(first, stop)
            threshold.append(best.columns["threshold"][rows])
            overall.append(best.columns["overall_entropy"][rows])
            n_more.append(best.totals[candidates] - n_listed)
            firsts.append(before + offset)
            stops.append(before + n_listed + offset)
            offset += len(rows)
            depths.append(np.full(len(candidates), d.level.depth))
            at.append(where)
        threshold, overall = np.concatenate(threshold), np.concatenate(overall)
        spans = np.stack([np.concatenate(column) for column in (firsts, stops, n_more)], axis=1)
        text = lines.thresholds_texts(np.concatenate(depths), threshold, overall, spans)
        return np.concatenate(at), text

    def _node_lines(self, order: np.ndarray, depth: np.ndarray, where: list) -> list:
        """The line of every node, in reading order (``order``: the grower's numbers of the
        nodes in that order, at ``depth``; ``where``: the path of each, by the grower's
        numbers), by :func:`~id3tree.trace.lines.node_texts`: ``Node 4 [Outlook = Rain and Wind =
        Strong]: 2 samples (No: 2, Yes: 0), entropy 0.0000``."""
        levels = self.details
        counts = np.concatenate([d.level.counts for d in levels])
        if counts.dtype.kind in "iu":  # whole counts: any order of adding gives the same sum
            n_samples = counts.sum(axis=1)
        else:  # sums of weights, added as the events add them
            n_samples = np.asarray([sum(row) for d in levels for row in d.counts])
        entropy = np.asarray([h for d in levels for h in d.entropy], dtype=float)
        return lines.node_texts(
            range(len(order)),
            depth,
            np.asarray(where, dtype=object)[order].tolist(),
            counts_texts(counts[order], self.data.classes),
            n_samples[order],
            entropy[order],
        )

    def _decision_texts(self, details: list) -> list:
        """Each node's decision, written for every node of the levels ``details`` at once (the
        levels' nodes one after another): the split (:func:`~id3tree.trace.lines.split_texts`) or
        why it stays a leaf (:func:`~id3tree.trace.lines.leaf_texts`)."""
        data = self.data
        levels = [d.level for d in details]
        counts = np.concatenate([lv.counts for lv in levels])
        eligible = np.concatenate([lv.eligible for lv in levels])
        splits_here = np.zeros(len(counts), dtype=bool)
        splits_here[np.flatnonzero(eligible)] = np.concatenate([lv.splitting for lv in levels])
        leaf = np.flatnonzero(~splits_here)
        at_leaf = leaf.tolist()
        reasons = [reason for d in details for reason in d.decisions.reasons]
        why = [reasons[i] for i in at_leaf]
        for j in np.flatnonzero(eligible[leaf]).tolist():  # scored, yet no split
            if why[j] == NO_VALID_SPLIT:
                why[j] += ", as each candidate above says"
        if counts.dtype.kind == "f":  # sums of weights: whether they tie is a level's question
            top = np.concatenate([top_classes(lv.counts) for lv in levels])[leaf]
        else:
            top = top_classes(counts[leaf])
        predicted = [data.classes[m] for m in np.argmax(top, axis=1).tolist()]  # the first top
        tie_notes = [""] * len(at_leaf)
        tied = (counts[leaf].max(axis=1) > 0) & (top.sum(axis=1) > 1)
        for j in np.flatnonzero(tied).tolist():
            tie_notes[j] = class_tie_note(
                self.trace.class_dict(counts[at_leaf[j]].tolist()), predicted[j]
            )
        depth = np.repeat([lv.depth for lv in levels], [len(lv.counts) for lv in levels])
        texts = np.empty(len(counts), dtype=object)
        texts[leaf] = lines.leaf_texts(depth[leaf], predicted, why, tie_notes)
        splits = []  # (level, its scored nodes that split)
        for d in details:
            scored = np.flatnonzero(d.level.splitting).tolist()
            if scored:
                splits.append((d, scored))
        if splits:
            texts[splits_here] = self._split_texts(splits)
        return texts.tolist()

    def _split_texts(self, splits: list) -> list:
        """:func:`~id3tree.trace.lines.split_texts` of the splits of several levels at once:
        ``splits`` holds ``(level, its scored nodes that split)``.

        The branch labels of every child are looked up at once in a table of each feature's
        slots (:meth:`_slot_labels`), a numeric side followed by its split's threshold; a
        level's children are those of its splitting nodes, in order."""
        data = self.data
        depths, features, threshold, notes, gain, ratio = [], [], [], [], [], []
        child_feature, slots, sizes, n_children = [], [], [], []
        numeric = [c is None for c in data.codes]
        for d, scored in splits:
            dec, lv = d.decisions, d.level
            chosen = [dec.feature[e] for e in scored]
            depths += [lv.depth] * len(scored)
            features += chosen
            threshold += [dec.threshold[e] if numeric[f] else None for e, f in zip(scored, chosen)]
            gain += [dec.gain[e] for e in scored]
            ratio += [dec.ratio[e] for e in scored]
            notes += [
                (
                    dec.tied_with.get(e, ()),
                    dec.n_ties[e] if numeric[f] else 1,
                    dec.below_average.get(e, ()),
                )
                for e, f in zip(scored, chosen)
            ]
            child_feature.append(lv.chosen[lv.parent])
            slots.append(lv.child_slot)
            sizes.append(lv.child_sizes)
            n_children.append(np.diff(dec.first_child)[scored])
        written = number_texts([np.nan if t is None else t for t in threshold], lines.DECIMALS)
        written = [None if t is None else w for w, t in zip(written, threshold)]
        child_feature, slots = np.concatenate(child_feature), np.concatenate(slots)
        n_children = np.concatenate(n_children)
        labels = self._slot_labels()[child_feature, slots]
        sides = np.flatnonzero(np.array(numeric)[child_feature] & (slots != NUMERIC_MISSING))
        owner = np.repeat(np.arange(len(features)), n_children)  # the split of each child
        labels[sides] += np.array(current().numbers(written), dtype=object)[owner[sides]]
        columns = {
            "feature": [data.names[f] for f in features],
            "threshold": written,
            "gain": gain,
            "gain_ratio": ratio,
            "notes": notes,
        }
        first = np.concatenate([[0], np.cumsum(n_children)])
        branches = {"label": labels.tolist(), "n_samples": np.concatenate(sizes), "first": first}
        criterion = splits[0][0].level.criterion
        return lines.split_texts(depths, criterion, columns, branches)

    def _slot_labels(self) -> np.ndarray:
        """The short label of each branch slot of each feature (:func:`slot_label` without the
        threshold: ``<=`` or ``>`` and a space, ``missing``; ``Sunny``, ..., ``missing``), one
        row per feature padded with empty words; written once per fit."""
        if self.slot_labels is None:
            data = self.data
            rows = [
                [
                    slot_label(data, f, slot, np.nan, "")
                    for slot in range(3 if codes is None else len(data.categories[f]) + 1)
                ]
                for f, codes in enumerate(data.codes)
            ]
            self.slot_labels = np.full((len(rows), max(map(len, rows))), "", dtype=object)
            for f, row in enumerate(rows):
                self.slot_labels[f, : len(row)] = row
        return self.slot_labels

    def _short_candidate(self, d: LevelDetails, e: int, f: int, n, entropy: float) -> str:
        """The one line of feature ``f``'s candidate at scored node ``e`` when it has no
        branches to show: no valid split (and why), or only its score."""
        lv, s, data = d.level, d.level.scores, self.data
        scores = (none_if_nan(float(_score(s, name)[e, f])) for name in SCORE_NAMES)
        kind = "numeric" if data.codes[f] is None else "categorical"
        reason = d.reasons.get((e, f))
        name = data.names[f]
        return lines.candidate_text(
            lv.depth, name, kind, n, entropy, *scores, (), lv.criterion, reason
        )
