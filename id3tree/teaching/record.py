"""The numbers a teacher needs, node by node: who reached each node and what every feature
would have done there.

The learner keeps its encoded training data after ``fit``; this module follows the tree down
that data once (reading order: depth first, children in branch order) and, on request, reads
the candidate table of a node and feature, the same one ``ID3Classifier.candidate_table`` and
the printed trace show (:func:`id3tree.trace.table.candidate_table`), together with the
decisions of ``trace_``. The step-through, the "why not" answers, the worked solutions and the
interactive page all read these numbers, so they show the same numbers as the trace.

What this module adds is the teacher's view of the table: the branches of the best split with
integer class counts (for exact fractions), and in words why a feature could not split.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from id3tree.base.entropy import entropy_rows
from id3tree.base.language import N_, current, speaking
from id3tree.base.words import format_count, format_number
from id3tree.engine.splits import TIE_TOLERANCE
from id3tree.model.node import (
    MISSING,
    Node,
    branch_label,
    condensed_path,
    narrowed,
    node_paths,
    path_step,
)
from id3tree.trace.table import candidate_table

__all__ = [
    "Branch", "CandidateTable", "excluded_words", "NodeInfo", "path_subset", "record_of",
    "TeachingRecord", "Threshold",
]  # fmt: skip


def _entropy(counts) -> float:
    return float(entropy_rows(np.asarray(counts, dtype=np.int64)[None, :])[0])


@dataclass(frozen=True)
class Branch:
    """One side of a split: its label and the class counts of the rows it gets."""

    label: str
    counts: tuple[int, ...]

    @property
    def n(self) -> int:
        return sum(self.counts)

    @property
    def entropy(self) -> float:
        return _entropy(self.counts)


@dataclass(frozen=True)
class Threshold:
    """One candidate cut of a numeric feature: ``x <= threshold`` against ``x > threshold``."""

    threshold: float
    low: float  # the largest value on the left
    high: float  # the smallest value on the right
    left: tuple[int, ...]
    right: tuple[int, ...]
    overall_entropy: float
    gain: float
    allowed: bool  # both sides have at least min_samples_leaf rows


@dataclass
class CandidateTable:
    """What one feature offers at one node: every branch (or threshold) with its class counts.

    ``branches`` are the branches of the feature's best split (for a numeric feature ``<=``,
    ``>`` and, when rows are missing, ``missing``); ``thresholds`` lists every candidate cut of
    a numeric feature. ``excluded`` says in words why the feature could not split here, or is
    None when it could.
    """

    node: int
    feature: str
    kind: str  # "categorical" or "numeric"
    classes: list
    parent: tuple[int, ...]
    branches: list[Branch] = field(default_factory=list)
    threshold: float | None = None
    low: float | None = None
    high: float | None = None
    n_tied_thresholds: int = 0
    excluded: str | None = None
    chosen: bool = False
    tie: bool = False
    _cuts: dict | None = field(default=None, repr=False)  # numeric: arrays over every cut
    _why: tuple | None = field(default=None, repr=False)  # excluded's message and its values

    @property
    def thresholds(self) -> list[Threshold]:
        """Every candidate cut of a numeric feature, in increasing order (empty otherwise)."""
        if self._cuts is None:
            return []
        c = self._cuts
        return [
            Threshold(
                float(c["threshold"][j]), float(c["low"][j]), float(c["high"][j]),
                tuple(c["left"][j].tolist()), tuple(c["right"][j].tolist()),
                float(c["overall_entropy"][j]), float(c["gain"][j]), bool(c["allowed"][j]),
            )
            for j in range(len(c["threshold"]))
        ]  # fmt: skip

    @property
    def n_allowed_thresholds(self) -> int:
        return 0 if self._cuts is None else int(self._cuts["allowed"].sum())

    @property
    def n(self) -> int:
        return sum(self.parent)

    @property
    def parent_entropy(self) -> float:
        return _entropy(self.parent)

    @property
    def valid(self) -> bool:
        return self.excluded is None

    @property
    def overall_entropy(self) -> float | None:
        """The size-weighted entropy of the branches (None when the feature cannot split)."""
        if not self.valid:
            return None
        return sum(b.n * b.entropy for b in self.branches) / self.n

    @property
    def gain(self) -> float | None:
        if not self.valid:
            return None
        return max(self.parent_entropy - self.overall_entropy, 0.0)

    @property
    def split_info(self) -> float | None:
        if not self.valid:
            return None
        return _entropy([b.n for b in self.branches])

    @property
    def gain_ratio(self) -> float | None:
        if not self.valid:
            return None
        return self.gain / self.split_info if self.split_info > 0 else 0.0

    def score(self, criterion: str) -> float | None:
        """The number features compete on: gain, or gain ratio."""
        return self.gain_ratio if criterion == "gain_ratio" else self.gain

    @property
    def test(self) -> str:
        """The split in words: ``Outlook`` or ``petal_length <= 2.45``."""
        if self.kind == "numeric" and self.threshold is not None:
            return f"{self.feature} <= {format_number(self.threshold)}"
        return self.feature

    def to_frame(self):
        """The table as a DataFrame: one row per branch (categorical) or threshold (numeric)."""
        import pandas as pd

        if self.kind == "numeric":
            c = self._cuts
            if c is None:
                return pd.DataFrame()
            columns = {"threshold": c["threshold"], "low": c["low"], "high": c["high"]}
            columns["n_left"] = c["left"].sum(axis=1)
            columns |= {f"left {k}": c["left"][:, i] for i, k in enumerate(self.classes)}
            columns["n_right"] = c["right"].sum(axis=1)
            columns |= {f"right {k}": c["right"][:, i] for i, k in enumerate(self.classes)}
            columns |= {name: c[name] for name in ("overall_entropy", "gain", "allowed")}
            columns["best"] = c["threshold"] == self.threshold
            return pd.DataFrame(columns)
        rows = [
            {
                self.feature: b.label,
                "n": b.n,
                **{str(c): v for c, v in zip(self.classes, b.counts)},
                "entropy": b.entropy,
                "weight": b.n / self.n,
                "weighted_entropy": b.n / self.n * b.entropy,
            }
            for b in self.branches
        ]
        return pd.DataFrame(rows)


@dataclass
class NodeInfo:
    """One node in reading order, with where it hangs and the training rows that reached it."""

    order: int  # position in reading order (depth first), 0 for the root
    node: Node
    parent: Node | None
    branch: str | None  # the test on the edge from the parent: ``Outlook = Sunny``
    path: tuple[str, ...]
    rows: np.ndarray
    used: frozenset  # categorical features used on the path (not candidates here)
    steps: tuple = ()  # the tests on the way, as (feature, op, value) of node.path_step

    @property
    def node_id(self) -> int:
        return self.node.node_id

    def where(self) -> str:
        """Where the node is, in the language of the page: ``the root``, or its condensed path
        (``Outlook = Sunny and Humidity = High``)."""
        L = current()
        if self.parent is None:
            return L.gettext("the root")
        return f" {L.gettext('and')} ".join(condensed_path(list(self.steps)))

    def branch_words(self) -> str:
        """The test on the edge from the parent (``Outlook = Sunny``), in the page's language."""
        return condensed_path(list(self.steps[-1:]))[0] if self.steps else ""

    def subset(self, step: tuple | None = None) -> list[tuple[str, tuple]]:
        """The tests that define the node's rows (one per feature, a numeric feature's cuts as
        one interval: ``node.narrowed``'s ``(low, high, other)``), with ``step`` added if given."""
        return path_subset((*self.steps, *([step] if step else [])))


def path_subset(steps: Iterable[tuple]) -> list[tuple[str, tuple]]:
    """The tests that define the rows a path of ``(feature, op, value)`` steps lets through,
    one per feature (a numeric feature's cuts as one interval, as :meth:`NodeInfo.subset`)."""
    state: dict[str, tuple] = {}
    for feature, op, value in steps:
        state[feature] = narrowed(state.get(feature), op, value)
    return list(state.items())


class TeachingRecord:
    """The fitted tree, its training data and the trace, read node by node.

    Parameters
    ----------
    root : Node
    data : EncodedData
        The encoded training data the tree was grown on.
    classes : list
    criterion : str
    min_samples_leaf : int
    trace : DataFrame or None
        The learner's ``trace_`` (its ``tie`` column marks ties the learner broke).
    """

    def __init__(self, root, data, classes, criterion, min_samples_leaf, trace=None):
        self.root, self.data, self.classes = root, data, list(classes)
        self.criterion, self.min_leaf = criterion, int(min_samples_leaf)
        self.names = list(data.names)
        self.trace = trace
        self.log_base: Any = 2  # the model's (record_of), read by what computes later: Step
        self.ties = "first"
        self.infos: list[NodeInfo] = []
        self._tables: dict[tuple[int, str], CandidateTable] = {}
        paths = node_paths(root)  # one condensed test per feature: 2.45 < petal_length <= 4.95
        stack = [(root, None, None, (), np.arange(len(data.y)), frozenset(), ())]
        while stack:  # depth first, children in branch order, without recursion
            node, parent, branch, path, rows, used, steps = stack.pop()
            condensed = tuple(paths[node.node_id])
            self.infos.append(
                NodeInfo(len(self.infos), node, parent, branch, condensed, rows, used, steps)
            )
            if node.is_leaf:
                continue
            f = self.names.index(node.feature)
            now_used = used | {node.feature} if data.codes[f] is not None else used
            children = []
            for key, child in node.children.items():
                test = branch_label(node, key)
                children.append(
                    (
                        child,
                        node,
                        test,
                        (*path, test),
                        rows[self._goes(f, node, key, rows)],
                        now_used,
                        (*steps, path_step(node, key)),
                    )
                )
            stack.extend(reversed(children))
        self.by_id = {info.node_id: info for info in self.infos}

    # -----------------------------------------------------------------------------------------
    def _goes(self, f: int, node: Node, key: Any, rows: np.ndarray) -> np.ndarray:
        """Which of ``rows`` take the branch ``key`` of ``node`` (a boolean mask)."""
        codes = self.data.codes[f]
        if codes is not None:
            categories = self.data.categories[f]
            code = len(categories) if key is MISSING else categories.index(key)
            return codes[rows] == code
        values = self.data.numeric[f][rows]
        if key is MISSING:
            return np.isnan(values)
        return values <= node.threshold if key == "<=" else values > node.threshold

    def info(self, node) -> NodeInfo:
        """The :class:`NodeInfo` of a node given as a ``node_id`` or a :class:`Node`."""
        node_id = node.node_id if isinstance(node, Node) else node
        if isinstance(node_id, bool) or not isinstance(node_id, (int, np.integer)):
            raise ValueError(f"node must be a node id (an integer) or a Node, got {node!r}")
        if int(node_id) not in self.by_id:
            raise ValueError(
                f"there is no node {node_id} in this tree (node ids run from 0 to "
                f"{max(self.by_id)})"
            )
        return self.by_id[int(node_id)]

    def feature_index(self, feature) -> int:
        if isinstance(feature, (int, np.integer)) and not isinstance(feature, bool):
            if not 0 <= feature < len(self.names):
                raise ValueError(f"feature {feature} is out of range: there are {len(self.names)}")
            return int(feature)
        if feature not in self.names:
            raise ValueError(f"unknown feature {feature!r}; the features are {self.names}")
        return self.names.index(feature)

    def counts(self, rows: np.ndarray) -> tuple[int, ...]:
        return tuple(np.bincount(self.data.y[rows], minlength=len(self.classes)).tolist())

    def tables(self, node) -> list[CandidateTable]:
        """Every feature's table at ``node``, in column order."""
        return [self.table(node, name) for name in self.names]

    def table(self, node, feature) -> CandidateTable:
        """What ``feature`` offers at ``node`` (see :class:`CandidateTable`)."""
        info = self.info(node)
        f = self.feature_index(feature)
        key = (info.node_id, self.names[f])
        if key not in self._tables:
            self._tables[key] = self._make_table(info, f)
        return self._tables[key]

    # -----------------------------------------------------------------------------------------
    def _make_table(self, info: NodeInfo, f: int) -> CandidateTable:
        name, rows = self.names[f], info.rows
        parent = self.counts(rows)
        kind = "numeric" if self.data.codes[f] is None else "categorical"
        table = CandidateTable(info.node_id, name, kind, self.classes, parent)
        mine = None
        if self.trace is not None:
            mine = self.trace[
                (self.trace["node"] == info.node_id) & (self.trace["feature"] == name)
            ]
        best = None
        if mine is not None and len(mine) and not np.isnan(mine["threshold"].iloc[0]):
            best = float(mine["threshold"].iloc[0])  # the threshold the learner kept
        columns = candidate_table(self.data, rows, f, min_leaf=self.min_leaf, best=best)
        if kind == "categorical":
            self._categorical(table, info, columns)
        else:
            self._numeric(table, columns)
        table.chosen = info.node.feature == name
        if mine is not None and len(mine) and table.valid:
            table.tie = bool(mine["tie"].iloc[0])
        return table

    def _class_columns(self, columns: dict, prefix: str) -> np.ndarray:
        """The per-class count columns ``prefix<class>`` of a candidate table, as one array."""
        return np.stack([np.asarray(columns[f"{prefix}{c}"]) for c in self.classes], axis=-1)

    def _categorical(self, table: CandidateTable, info: NodeInfo, columns: dict) -> None:
        counts = self._class_columns(columns, "n_")
        for value, row in zip(columns["value"], counts):
            label = "missing" if value is None else str(value)
            table.branches.append(Branch(label, tuple(int(v) for v in row)))
        if table.feature in info.used:
            _exclude(
                table,
                N_(
                    "{feature} is already used on the path to this node (a categorical feature "
                    "splits once per path)"
                ),
                feature=table.feature,
            )
        elif len(table.branches) < 2:
            only = table.branches[0].label if table.branches else current().gettext("no value")
            _exclude(
                table,
                N_("every row here has the same value of {feature} ({value}), so it cannot split them"),
                feature=table.feature, value=only,
            )  # fmt: skip
        else:
            small = [b for b in table.branches if b.n < self.min_leaf]
            if small:
                _exclude(
                    table,
                    N_(
                        "the branch {feature} = {value} would get {rows}, fewer than "
                        "min_samples_leaf = {leaf}"
                    ),
                    feature=table.feature, value=small[0].label, rows=small[0].n,
                    leaf=str(self.min_leaf),
                )  # fmt: skip

    def _numeric(self, table: CandidateTable, columns: dict) -> None:
        """The cuts as the trace counts them; the best is the learner's threshold where the node
        was scored, else the cut of lowest overall entropy (ties: the smallest)."""
        k = len(self.classes)
        left = self._class_columns(columns, "left_").reshape(-1, k)
        right = self._class_columns(columns, "right_").reshape(-1, k)
        allowed = np.asarray(columns["valid"], dtype=bool)
        overall = np.asarray(columns["overall_entropy"], dtype=float)
        table._cuts = dict(
            threshold=np.asarray(columns["threshold"], dtype=float),
            low=np.asarray(columns["low"], dtype=float),
            high=np.asarray(columns["high"], dtype=float),
            left=left,
            right=right,
            overall_entropy=overall,
            gain=np.asarray(columns["gain"], dtype=float),
            allowed=allowed,
        )
        f = self.names.index(table.feature)
        present = self.data.numeric[f][self.info(table.node).rows]
        present = present[~np.isnan(present)]
        n_missing = sum(table.parent) - len(present)
        if len(present) == 0:
            _exclude(table, N_("every value of {feature} is missing here"), feature=table.feature)
        elif len(left) == 0:
            _exclude(
                table,
                N_(
                    "all {rows} with a value have the same {feature} ({value}), so there is no "
                    "midpoint to cut at"
                ),
                rows=len(present), feature=table.feature,
                value=float(present[0]),
            )  # fmt: skip
        elif 0 < n_missing < self.min_leaf:
            _exclude(
                table,
                N_(
                    "the branch of missing values would get {rows}, fewer than min_samples_leaf "
                    "= {leaf}"
                ),
                rows=int(n_missing),
                leaf=str(self.min_leaf),
            )
        elif not allowed.any():
            _exclude(
                table,
                N_("every threshold leaves fewer than min_samples_leaf = {leaf} rows on one side"),
                leaf=str(self.min_leaf),
            )
        if table.excluded is not None:
            return
        best = overall[allowed].min()
        tied = np.flatnonzero(allowed & (overall <= best + TIE_TOLERANCE))
        marked = np.flatnonzero(np.asarray(columns["best"], dtype=bool))
        j = int(marked[0]) if len(marked) else int(tied[0])  # the smallest threshold
        table.threshold = float(table._cuts["threshold"][j])
        table.low, table.high = float(table._cuts["low"][j]), float(table._cuts["high"][j])
        table.n_tied_thresholds = len(tied)
        table.branches = [
            Branch(f"<= {format_number(table.threshold)}", tuple(int(v) for v in left[j])),
            Branch(f"> {format_number(table.threshold)}", tuple(int(v) for v in right[j])),
        ]
        if n_missing:
            missing = self._class_columns(columns, "missing_").reshape(-1, k)[0]
            table.branches.append(Branch("missing", tuple(int(v) for v in missing)))


def record_of(model) -> TeachingRecord:
    """The :class:`TeachingRecord` of a fitted :class:`~id3tree.ID3Classifier` (kept on it)."""
    cached = getattr(model, "_teaching_record", None)
    if cached is not None and cached.root is model.root_:
        return cached
    data = getattr(model, "_fit_data", None)
    if data is None:
        raise ValueError(
            "the teaching tools need the training data the tree was grown on, which only fit() "
            "on in-memory data keeps: a tree loaded from JSON or a pickle, or grown from a Dask "
            "DataFrame, has none; fit the model again on a pandas DataFrame. With "
            "keep_trace='auto' a fit on more than 1,000,000 values (rows x features) keeps none "
            "either: fit with keep_trace=True to keep it"
        )
    trace = model.trace_ if getattr(model, "_trace_columns", None) is not None else None
    with speaking("en"):  # kept for every language: its pages translate where they print
        record = TeachingRecord(
            model.root_, data, model.classes_.tolist(), model.criterion, model.min_samples_leaf,
            trace,
        )  # fmt: skip
    record.log_base = getattr(model, "log_base", 2)  # (the unit of its lazy numbers: Step)
    record.ties = getattr(model, "ties", "first")  # (and the tie rule its notes state)
    model._teaching_record = record
    return record


def _exclude(table: CandidateTable, message: str, **values: Any) -> None:
    """Says why ``table``'s feature cannot split (:attr:`CandidateTable.excluded`, in English),
    and keeps the message for :func:`excluded_words` to write in the page's language."""
    table._why = (message, values)
    with speaking("en"):
        table.excluded = excluded_words(table)


def excluded_words(table: CandidateTable) -> str | None:
    """Why the feature of ``table`` cannot split, in the language of the page (None if it can).

    A value of the message is text, a number (written with the language's decimal mark), or
    an int: a count of rows, written with the word for it (``3 rows``)."""
    if table._why is None:
        return table.excluded
    message, values = table._why
    L = current()
    written = {}
    for name, value in values.items():
        if isinstance(value, int):
            written[name] = f"{format_count(value)} {L.words([value], 'row', 'rows')[0]}"
        elif isinstance(value, float):
            written[name] = L.number(format_number(value))
        else:
            written[name] = str(value)
    return L.line(message, **written)
