"""Tracing the learner step by step, by events rather than prints.

While it grows a tree, :class:`~id3tree.ID3Classifier` sends small frozen events to a *tracer*,
any callable that takes one event. ``verbose=1`` uses :class:`PrintTracer`; a
:class:`RecordingTracer` keeps the events for a notebook or a test; a :class:`LoggingTracer` sends
them to :mod:`logging`. Without a tracer the learner builds no events at all.

Nodes are numbered and reported in pre-order (depth first), the order in which one reads the tree:
a node, then the whole subtree of its first branch, then the next branch. Indentation therefore
always means "child of the node above". The learner grows the tree level by level, so it keeps the
events while it grows and sends them to the tracer, in reading order, once the tree is finished.
"""

from __future__ import annotations

import logging
import sys
from dataclasses import asdict, dataclass
from typing import Any

import pandas as pd

from id3tree._entropy import entropy_rows
from id3tree.node import class_tie_note, format_count, format_counts, format_number, plural

DECIMALS = 4
"""Digits after the point for every entropy, gain, weight and threshold the trace prints."""


def _f(value: float) -> str:
    return f"{value:.{DECIMALS}f}"


def _t(value: float) -> str:
    return format_number(value, DECIMALS)


def _indent(depth: int) -> str:
    return "    " * depth


@dataclass(frozen=True)
class NodeStarted:
    """A node: its number, where it hangs, what reached it."""

    node: int
    parent: int | None
    depth: int
    path: tuple[str, ...]  # the condensed tests on the way here
    class_counts: dict
    n_samples: int
    entropy: float

    def __str__(self) -> str:
        where = " and ".join(self.path) if self.path else "root"
        return (
            f"{_indent(self.depth)}Node {self.node} [{where}]: {plural(self.n_samples, 'sample')} "
            f"({format_counts(self.class_counts)}), entropy {_f(self.entropy)}"
        )


@dataclass(frozen=True)
class Branch:
    """One branch of a candidate split: its test, its class counts, their entropy."""

    label: str  # "Outlook = Sunny", "petal_length <= 2.45", "petal_length is missing"
    class_counts: dict
    n_samples: int
    entropy: float


@dataclass(frozen=True)
class CandidateScored:
    """One feature scored at one node: its (best) split, branch by branch, and what it gains.

    For a numeric feature the split is the best threshold, ``low`` and ``high`` the adjacent
    values it lies between; a categorical feature has one branch per value. ``gain`` is None when
    the feature offers no valid split here, and ``reason`` then says why.
    """

    node: int
    depth: int
    feature: str
    kind: str  # "numeric" or "categorical"
    n_samples: int  # at the node
    entropy: float  # of the node
    gain: float | None
    gain_ratio: float | None
    overall_entropy: float | None
    threshold: float | None
    low: float | None
    high: float | None
    branches: tuple[Branch, ...]
    criterion: str
    reason: str | None = None

    def __str__(self) -> str:
        pad = _indent(self.depth) + "  "
        if self.gain is None:
            why = f", {self.reason}" if self.reason else ""
            return f"{pad}candidate {self.feature}: no valid split{why}"
        if not self.branches:  # a grower that kept no branch counts (Dask): the score only
            test = f" <= {_t(self.threshold)}" if self.threshold is not None else ""
            return f"{pad}candidate {self.feature}{test}: gain {_f(self.gain)}"
        if self.kind == "numeric":
            head = (
                f"{pad}candidate {self.feature} <= {_t(self.threshold)} "
                f"(between {format_number(self.low)} and {format_number(self.high)}):"
            )
        else:
            head = f"{pad}candidate {self.feature} ({plural(len(self.branches), 'value')}):"
        lines = [head]
        n = self.n_samples
        for b in self.branches:
            weight = b.n_samples / n
            lines.append(
                f"{pad}    {b.label}: {plural(b.n_samples, 'sample')} "
                f"({format_counts(b.class_counts)}), entropy {_f(b.entropy)}, "
                f"weight {format_count(b.n_samples)}/{format_count(n)} = {_f(weight)}, weighted entropy {_f(weight * b.entropy)}"
            )
        total = (
            f"{pad}    overall entropy {_f(self.overall_entropy)}, gain {_f(self.entropy)} - "
            f"{_f(self.overall_entropy)} = {_f(self.gain)}"
        )
        if self.criterion == "gain_ratio":
            split_info = float(entropy_rows([b.n_samples for b in self.branches]))
            total += f", split information {_f(split_info)}, gain ratio {_f(self.gain_ratio)}"
        lines.append(total)
        return "\n".join(lines)


@dataclass(frozen=True)
class ThresholdScored:
    """One threshold of a numeric feature (``verbose=2``), ranked by overall entropy (1 = best)."""

    node: int
    depth: int
    feature: str
    rank: int
    threshold: float
    low: float
    high: float
    n_left: int
    n_right: int
    entropy_left: float
    entropy_right: float
    overall_entropy: float
    gain: float

    def __str__(self) -> str:
        pad = _indent(self.depth) + "      "
        line = (
            f"{pad}{self.rank}. <= {_t(self.threshold)} (between {format_number(self.low)} and "
            f"{format_number(self.high)}): left {format_count(self.n_left)} (entropy {_f(self.entropy_left)}), "
            f"right {format_count(self.n_right)} (entropy {_f(self.entropy_right)}), "
            f"overall entropy {_f(self.overall_entropy)}, gain {_f(self.gain)}"
        )
        if self.rank == 1:
            line = f"{_indent(self.depth)}    thresholds of {self.feature}, best first:\n{line}"
        return line


@dataclass(frozen=True)
class ThresholdsOmitted:
    """How many more thresholds of a numeric feature ``verbose=2`` did not print."""

    node: int
    depth: int
    feature: str
    n_more: int

    def __str__(self) -> str:
        return (
            f"{_indent(self.depth)}      and {plural(self.n_more, 'more threshold')} "
            "(a PrintTracer with max_thresholds=None prints them all)"
        )


@dataclass(frozen=True)
class SplitChosen:
    """The node splits: on which feature, why, and into which branches."""

    node: int
    depth: int
    feature: str
    threshold: float | None
    gain: float
    gain_ratio: float
    criterion: str
    tied_with: tuple[str, ...]
    n_tied_thresholds: int
    branches: tuple[tuple[str, int], ...]

    def __str__(self) -> str:
        pad = _indent(self.depth) + "  "
        test = f" <= {_t(self.threshold)}" if self.threshold is not None else ""
        score = (
            f"gain ratio {_f(self.gain_ratio)}"
            if self.criterion == "gain_ratio"
            else f"gain {_f(self.gain)}"
        )
        into = ", ".join(f"{b} ({plural(n, 'sample')})" for b, n in self.branches)
        lines = [f"{pad}=> split on {self.feature}{test}, the highest {score}; branches: {into}"]
        if self.tied_with:
            lines.append(
                f"{pad}   tie with {', '.join(self.tied_with)}: broken by column order "
                f"({self.feature} comes first)"
            )
        if self.n_tied_thresholds > 1:
            lines.append(f"{pad}   {self.n_tied_thresholds} thresholds tie: the smallest is used")
        return "\n".join(lines)


@dataclass(frozen=True)
class LeafMade:
    """The node stays a leaf: why, what it predicts, and whether its top classes tie."""

    node: int
    depth: int
    prediction: Any
    class_counts: dict
    reason: str
    tied_classes: tuple = ()

    def __str__(self) -> str:
        pad = _indent(self.depth) + "  "
        line = f"{pad}=> leaf, predict {self.prediction}: {self.reason}"
        if self.tied_classes:
            line += f"\n{pad}   {class_tie_note(self.class_counts, self.prediction)}"
        return line


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
            f"{_indent(self.depth)}Node {self.node} ({self.method}): {self.measure} "
            f"{self.subtree:.4g} as a subtree, {self.leaf:.4g} as a leaf{alpha} => {verdict}"
        )


Event = (
    NodeStarted
    | CandidateScored
    | ThresholdScored
    | ThresholdsOmitted
    | SplitChosen
    | LeafMade
    | PruningDecision
)


class PrintTracer:
    """Print every event (what ``verbose=1`` and ``verbose=2`` use).

    Parameters
    ----------
    file : file-like, optional
        Where to print; default ``sys.stdout``.
    max_thresholds : int or None, default=0
        How many thresholds of each numeric candidate to list, best first (``verbose=2`` uses
        10); the rest are counted in an "and N more" line. None lists every threshold.
    """

    def __init__(self, file=None, *, max_thresholds: int | None = 0):
        self.file = file
        self.max_thresholds = max_thresholds

    def __call__(self, event: Event) -> None:
        print(event, file=self.file if self.file is not None else sys.stdout)


class RecordingTracer:
    """Keep every event; ``to_frame()`` turns them into a DataFrame (``max_thresholds`` as in
    :class:`PrintTracer`)."""

    def __init__(self, *, max_thresholds: int | None = 0):
        self.max_thresholds = max_thresholds
        self.events: list[Event] = []

    def __call__(self, event: Event) -> None:
        self.events.append(event)

    def __str__(self) -> str:
        return "\n".join(str(e) for e in self.events)

    def to_frame(self) -> pd.DataFrame:
        rows = [{"event": type(e).__name__, **asdict(e)} for e in self.events]
        return pd.DataFrame(rows)


class LoggingTracer:
    """Send every event to a :mod:`logging` logger (``max_thresholds`` as in :class:`PrintTracer`)."""

    def __init__(
        self,
        logger: logging.Logger | str = "id3tree",
        level: int = logging.INFO,
        *,
        max_thresholds: int | None = 0,
    ):
        self.logger = logging.getLogger(logger) if isinstance(logger, str) else logger
        self.level = level
        self.max_thresholds = max_thresholds

    def __call__(self, event: Event) -> None:
        self.logger.log(self.level, "%s", event)
