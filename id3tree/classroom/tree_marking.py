"""Marking a student's tree node by node, with error carried forward.

Each node of the student's tree holds the rows its path lets through: the path the student
drew, right or wrong. The node is marked against what ID3 does with exactly those rows (their
entropy, the feature of highest gain there and its threshold, or the leaf they make), fitted
once for each set of rows met. Where the student's path is ID3's, that is the answer key's own
node; below a wrong split it is ID3 carried on from the student's choice, so an answer right
for the student's own split gets credit (error carried forward), and the grade says so.

Where the student leaves out part of the tree (a node, its branches, a split where ID3 splits),
every answer ID3's tree has there counts as wrong, saying why.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import numpy as np

from id3tree.base.language import N_, current
from id3tree.classroom import mistakes
from id3tree.classroom.reading import NotAnswer, number, same
from id3tree.classroom.text import shown
from id3tree.classroom.wording import not_a_mapping, not_given, nothing, split_words
from id3tree.classroom.wording import written as number_text
from id3tree.learner import ID3Classifier
from id3tree.model.node import Node, path_step
from id3tree.teaching.record import NodeInfo, TeachingRecord
from id3tree.teaching.worked import path_name

__all__ = ["NODE_KEYS", "mark_tree"]

NODE_KEYS = ("entropy", "feature", "threshold", "branches", "predict", "counts")
"""The keys of a node of a student's tree (``counts`` is optional and never marked)."""

GAIN_TIE = 1e-9  # two gains this close are a tie (the exercises avoid them, a wrong split may not)


def _capital(sentence: str) -> str:
    return sentence[:1].upper() + sentence[1:]


def name_of(steps: Sequence[tuple]) -> str:
    """The name of the rows a path of ``(feature, op, value)`` tests lets through:
    ``S_{Wind=Weak, Hours<=3.5}``."""
    return path_name(steps)


def _cut_of(name: str, feature: str, table: Any) -> str:
    """Where ID3 cuts ``feature`` at node ``name`` (a feature it splits on there)."""
    return current().line(
        "{name} splits {feature} at {threshold}, between {low} and {high}",
        name=name, feature=feature, threshold=number_text(table.threshold),
        low=number_text(table.low), high=number_text(table.high),
    )  # fmt: skip


def _branch_key(key: object) -> str:
    """A numeric branch as ``<=`` or ``>`` (``≤ 4.5``, ``<= 4.5`` and ``<=`` read the same)."""
    text = str(key).strip().replace("≤", "<=")
    return next((op for op in ("<=", ">") if text.startswith(op)), text)


class _References:
    """ID3's own node for any set of the exercise's rows: the answer key's nodes, and a tree
    fitted on any other set met (each set fitted once; its whole subtree kept)."""

    def __init__(self, X: Any, y: np.ndarray, record: TeachingRecord) -> None:
        self.X, self.y = X, y  # (X: a DataFrame)
        self.known: dict[bytes, tuple[TeachingRecord, NodeInfo]] = {}
        self._keep(record, np.arange(len(self.y), dtype=np.int64))

    def _keep(self, record: TeachingRecord, rows: np.ndarray) -> None:
        for info in record.infos:
            self.known.setdefault(rows[info.rows].astype(np.int64).tobytes(), (record, info))

    def __call__(self, rows: np.ndarray) -> tuple[TeachingRecord, NodeInfo]:
        key = rows.tobytes()
        if key not in self.known:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                tree = ID3Classifier(id_like="keep").fit(self.X.iloc[rows], self.y[rows])
            self._keep(tree._teaching(), rows)
        return self.known[key]


class Marking(Protocol):
    """What marking a tree needs of its marker (:class:`~id3tree.classroom.grading.Marker`,
    whose module imports this one)."""

    X: Any  # a DataFrame
    y: np.ndarray
    record: TeachingRecord
    numeric: list[str]
    notes: list[str]
    mismatches: list[str]
    carrying: bool
    threshold_tolerance: float

    def add(self, task: str, step: str, expected: object, given: object,
            why_wrong: str | None, mistake: str = "") -> object: ...  # fmt: skip
    def rows(self, counts: Sequence[int]) -> str: ...
    def node_entropy(self, name: str, counts: tuple, given: object, task: str = "tree") -> None: ...
    def split_why(self, record: TeachingRecord, info: NodeInfo, name: str,
                  given_feature: str | None) -> tuple[str, str]: ...  # fmt: skip
    def unknown(self, given: Mapping, known: Sequence[str], where: str, what: str) -> None: ...


def mark_tree(marker: Marking, given: object, answers: Mapping[str, object]) -> None:
    """Mark the ``tree`` of ``answers`` with ``marker`` (a :class:`~id3tree.classroom.grading.Marker`)."""
    _TreeMarker(marker).mark(given, answers)


class _TreeMarker:
    def __init__(self, marker: Marking) -> None:
        self.m = marker
        self.X, self.y = marker.X, marker.y
        self.columns = {str(c): self.X[c].to_numpy() for c in self.X.columns}
        self.classes = list(marker.record.classes)
        self.numeric = set(marker.numeric)
        self.refs = _References(self.X, self.y, marker.record)
        self.root_checked = False

    def counts(self, rows: np.ndarray) -> tuple[int, ...]:
        return tuple(int((self.y[rows] == c).sum()) for c in self.classes)

    def mark(self, given: object, answers: Mapping[str, object]) -> None:
        rows = np.arange(len(self.y), dtype=np.int64)
        if not isinstance(given, Mapping):
            why = (
                current().gettext("tree is missing: the tree was not given")
                if given is None
                else not_a_mapping("tree", given)
            )
            self.walk_missing(self.refs(rows)[1].node, [], why)
            return
        given, root = dict(given), answers.get("root_feature")
        if given.get("feature") is None:
            given["feature"] = root
        elif root is not None and not same(given["feature"], root):
            self.root_checked = True  # the tree's own root split differs: it is marked there
            self.m.notes.append(current().line(
                "the tree splits S on {feature} but root_feature is {root}: the tree is marked "
                "as it is drawn",
                feature=shown(given["feature"]), root=shown(root),
            ))  # fmt: skip
        self.node(rows, [], given, "tree")

    # a node --------------------------------------------------------------------------------
    def node(self, rows: np.ndarray, steps: list[tuple], given: object, where: str) -> None:
        record, info = self.refs(rows)
        name = name_of(steps)
        if not isinstance(given, Mapping):
            why = (
                current().line("{name} is missing from the tree", name=name)
                if given is None
                else not_a_mapping(where, given)
            )
            self.walk_missing(info.node, steps, why)
            return
        self.m.unknown(given, NODE_KEYS, where, "key of a node")
        counts = self.counts(rows)
        self.check_counts(given.get("counts"), counts, name)
        if steps:
            self.m.node_entropy(name, counts, given.get("entropy"))
        if info.node.is_leaf:
            self.leaf(info.node, name, counts, given)
        else:
            self.split(rows, steps, given, where, record, info)

    def check_counts(self, given: object, counts: tuple[int, ...], name: str) -> None:
        if given is None:
            return
        mine = {str(c): n for c, n in zip(self.classes, counts)}
        theirs: dict[str, float | None] = {}
        if isinstance(given, Mapping):
            for key, value in given.items():
                try:
                    theirs[next((c for c in mine if same(c, key)), str(key))] = number(value)
                except NotAnswer:
                    theirs[str(key)] = None
        if {c: float(n) for c, n in mine.items() if n} != {c: n for c, n in theirs.items() if n}:
            self.m.mismatches.append(current().line(
                "the tree gives {name} the counts {counts}; in this data it holds {rows}",
                name=name, counts=shown(given), rows=self.m.rows(counts),
            ))  # fmt: skip

    def leaf(
        self, node: Node, name: str, counts: tuple[int, ...], given: Mapping[str, object]
    ) -> None:
        expected, step = str(node.prediction), f"prediction of {name}"
        rows, L = self.m.rows(counts), current()
        if max(counts) == sum(counts):
            reason = L.line("all its {rows} are {expected}", rows=rows, expected=expected)
        elif list(counts).count(max(counts)) > 1:
            reason = L.line(
                "no feature takes two values among its {rows}, and the classes tie: the "
                "question's rule gives a tie to {expected}",
                rows=rows, expected=expected,
            )  # fmt: skip
        else:
            reason = L.line(
                "no feature takes two values among its {rows}; {expected} is the majority",
                rows=rows, expected=expected,
            )  # fmt: skip
        if given.get("feature") is not None:
            why = L.line(
                "{name} is a leaf predicting {expected} ({reason}), not a split on {feature}.",
                name=name, expected=expected, reason=reason, feature=shown(given["feature"]),
            )  # fmt: skip
            self.m.add("tree", step, expected, given.get("feature"), why)
            return
        predict = given.get("predict")
        readable = isinstance(predict, (str, int, float)) and not isinstance(predict, bool)
        if readable and same(predict, expected):
            self.m.add("tree", step, expected, predict, None)
            return
        slip = mistakes.leaf_slip(counts, self.classes, predict) if readable else None
        why = L.line(
            "{name} predicts {expected}{not}: {reason}.",
            name=name, expected=expected, reason=reason, **{"not": not_given(predict)},
        ) + (f" {_capital(slip[1])}." if slip else "")  # fmt: skip
        self.m.add("tree", step, expected, predict, why, slip[0] if slip else "")

    # a split -------------------------------------------------------------------------------
    def feature_named(self, given: object) -> str | None:
        if not isinstance(given, (str, int, float)) or isinstance(given, bool):
            return None
        return next((str(c) for c in self.X.columns if same(c, given)), None)

    def split(self, rows, steps, given: Mapping, where: str, record, info) -> None:
        node, name = info.node, name_of(steps)
        written = given.get("feature")
        if written is None:
            lead = (
                current().line(
                    "{name} is not a leaf: it holds {rows}. ",
                    name=name,
                    rows=self.m.rows(self.counts(rows)),
                )  # fmt: skip
                if "predict" in given
                else ""
            )
            if steps:
                why_not = lead + self.m.split_why(record, info, name, None)[0]
                self.m.add("tree", f"split of {name}", node.feature, None, why_not)
            self.below_missing(
                node, steps,
                current().line("not marked: the split of {name} above is missing", name=name),
            )  # fmt: skip
            return
        feature = self.feature_named(written)
        chosen = record.table(info.node_id, node.feature)
        gain = None if feature is None else record.table(info.node_id, feature).gain
        right = feature is not None and (
            feature == node.feature or (gain is not None and abs(gain - chosen.gain) <= GAIN_TIE)
        )
        if steps or self.root_checked:
            why, mistake = (
                (None, "") if right else self.m.split_why(record, info, name, str(written))
            )
            self.m.add("tree", f"split of {name}", node.feature, written, why, mistake)
        if feature is None:
            reason = current().line(
                "not marked: {feature} above is not a feature of this data", feature=shown(written)
            )
            self.below_missing(node, steps, reason)
            return
        threshold, threshold_right = None, True
        if feature in self.numeric:
            threshold, threshold_right = self.threshold(name, given, record, info, feature, right)
            if threshold is None:
                self.below_missing(
                    node, steps,
                    current().line(
                        "not marked: the threshold of {name} above is missing", name=name
                    ),
                )  # fmt: skip
                return
        carrying = self.m.carrying
        if not (right and threshold_right) and not carrying:
            L = current()
            cut = (
                ""
                if threshold is None
                else L.line(" at {threshold}", threshold=number_text(threshold))
            )
            self.m.notes.append(L.line(
                "below your split of {name} on {feature}{cut} ({name} splits on {test}), each "
                "answer is marked against the rows your split makes, and the right ones get "
                "credit (error carried forward)",
                name=name, feature=feature, cut=cut, test=split_words(chosen),
            ))  # fmt: skip
            self.m.carrying = True
        self.branches(rows, steps, given, where, feature, threshold, node if right else None)
        self.m.carrying = carrying

    def threshold(self, name, given, record, info, feature, right) -> tuple[float | None, bool]:
        """The student's threshold of ``feature`` (marked when the feature is ID3's), and whether
        it is right; ``(None, False)`` when there is none to split the rows by."""
        written, step = given.get("threshold"), f"threshold of {name}"
        table = record.table(info.node_id, feature)
        try:
            value = number(written)
        except NotAnswer as bad:
            if right:
                why = current().line(
                    "the threshold of {name}: {problem}. {cut}.",
                    name=name, problem=nothing(written, bad), cut=_cut_of(name, feature, table),
                )  # fmt: skip
                self.m.add("tree", step, table.threshold, written, why)
            return None, False
        if not right:  # (the split is marked wrong already; the feature may not split here)
            return value, True
        best = [
            c.threshold
            for c in table.thresholds
            if c.overall_entropy <= table.overall_entropy + GAIN_TIE
        ]
        if any(abs(value - t) <= self.m.threshold_tolerance for t in best):
            self.m.add("tree", step, table.threshold, written, None)
            return next(t for t in best if abs(value - t) <= self.m.threshold_tolerance), True
        slip = mistakes.threshold_slip(value, table.low, table.high)
        why = f"{_cut_of(name, feature, table)}{not_given(number_text(value))}."
        why += f" {_capital(slip[1])}." if slip else ""
        self.m.add("tree", step, table.threshold, written, why, slip[0] if slip else "")
        return value, False

    def branches(
        self, rows: np.ndarray, steps: list[tuple], given: Mapping[str, object], where: str,
        feature: str, threshold: float | None, same_as: Node | None,
    ) -> None:  # fmt: skip
        """Mark the children of the student's split of ``rows`` on ``feature`` (at ``threshold``
        for a number); ``same_as`` is ID3's node when the split is ID3's (its branch order)."""
        name = name_of(steps)
        values = self.columns[feature][rows]
        if threshold is None:
            if same_as is not None and same_as.threshold is None and same_as.feature == feature:
                labels = list(same_as.children)
            else:
                labels = sorted(set(values.tolist()), key=str)
            parts = [(str(v), rows[values == v], (feature, "=", v)) for v in labels]
            parts = [p for p in parts if len(p[1])]  # (a missing value's rows are no branch here)
        else:
            parts = [
                ("<=", rows[values <= threshold], (feature, "<=", threshold)),
                (">", rows[values > threshold], (feature, ">", threshold)),
            ]
            for op, part, _ in parts:
                if not len(part):
                    self.m.notes.append(current().line(
                        "no row of {name} has {feature} {op} {threshold}",
                        name=name, feature=feature, op=op, threshold=number_text(threshold),
                    ))  # fmt: skip
            parts = [p for p in parts if len(p[1])]
        branches = given.get("branches")
        if not isinstance(branches, Mapping):
            why = (
                current().line(
                    "{where}/branches should map each branch to its node, got nothing", where=where
                )
                if branches is None
                else current().line(
                    "{where}/branches should map each branch to its node, got {kind}",
                    where=where,
                    kind=type(branches).__name__,
                )  # fmt: skip
            )
            for _, part, step in parts:
                self.walk_missing(self.refs(part)[1].node, [*steps, step], why)
            return
        read = {(_branch_key(k) if threshold is not None else k): v for k, v in branches.items()}
        for label, part, step in parts:
            mine = next((v for k, v in read.items() if same(k, label)), None)
            self.node(part, [*steps, step], mine, f"{where}/branches/{label}")
        labels = [label for label, _, _ in parts]
        for key in read:
            if not any(same(key, label) for label in labels):
                L = current()
                message = (
                    N_(
                        "{where}/branches: {key} is not a branch of {name} (its rows have "
                        "{feature} {values}); ignored"
                    )
                    if threshold is None
                    else N_(
                        "{where}/branches: {key} is not a branch of {name} (its rows have "
                        "{feature} on both sides); ignored"
                    )
                )
                self.m.notes.append(L.line(
                    message, where=where, key=shown(key), name=name, feature=feature,
                    values=", ".join(labels),
                ))  # fmt: skip

    # what the student left out -------------------------------------------------------------
    def below_missing(self, node: Node, steps: list[tuple], why: str) -> None:
        for key, child in node.children.items():
            self.walk_missing(child, [*steps, path_step(node, key)], why)

    def walk_missing(self, top: Node, steps: list[tuple], why: str) -> None:
        """Every answer of ID3's subtree from ``top`` (reached by ``steps``), marked wrong."""
        stack = [(top, list(steps))]
        while stack:
            node, path = stack.pop()
            name = name_of(path)
            marks = [f"H({name})"] if path else []
            if node.is_leaf:
                marks.append(f"prediction of {name}")
            else:
                marks += [f"split of {name}"] if path else []
                marks += [f"threshold of {name}"] if node.threshold is not None else []
            for step in marks:
                self.m.add("tree", step, None, None, why)
            below = [(c, [*path, path_step(node, k)]) for k, c in node.children.items()]
            stack.extend(reversed(below))
