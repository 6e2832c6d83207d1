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

from id3tree.node import format_number


def _counts(counts: dict) -> str:
    return "{" + ", ".join(f"{k}: {v}" for k, v in counts.items()) + "}"


def _indent(depth: int) -> str:
    return "    " * depth


@dataclass(frozen=True)
class NodeStarted:
    """A node was made: where it is and what reached it."""

    node: int
    depth: int
    path: tuple[str, ...]
    class_counts: dict
    n_samples: int
    entropy: float

    def __str__(self) -> str:
        where = " and ".join(self.path) if self.path else "root"
        return (
            f"{_indent(self.depth)}Node {self.node} [{where}]: {self.n_samples} samples "
            f"{_counts(self.class_counts)}, entropy {self.entropy:.4f}"
        )


@dataclass(frozen=True)
class CandidateScored:
    """One feature scored at one node: its best split and what that split gains."""

    node: int
    depth: int
    feature: str
    gain: float | None  # None when the feature offers no valid split here
    threshold: float | None
    gain_ratio: float | None
    criterion: str

    def __str__(self) -> str:
        pad = _indent(self.depth) + "  "
        if self.gain is None:
            return f"{pad}candidate {self.feature}: no valid split"
        test = f" <= {format_number(self.threshold)}" if self.threshold is not None else ""
        ratio = f", gain ratio {self.gain_ratio:.4f}" if self.criterion == "gain_ratio" else ""
        return f"{pad}candidate {self.feature}{test}: gain {self.gain:.4f}{ratio}"


@dataclass(frozen=True)
class ThresholdScored:
    """One candidate threshold of a numeric feature (``verbose=2``)."""

    node: int
    depth: int
    feature: str
    threshold: float
    n_left: int
    n_right: int
    entropy_left: float
    entropy_right: float
    overall_entropy: float
    gain: float

    def __str__(self) -> str:
        return (
            f"{_indent(self.depth)}    {self.feature} <= {format_number(self.threshold)}: "
            f"left {self.n_left} (entropy {self.entropy_left:.4f}), right {self.n_right} "
            f"(entropy {self.entropy_right:.4f}), overall entropy {self.overall_entropy:.4f}, "
            f"gain {self.gain:.4f}"
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
        test = f" <= {format_number(self.threshold)}" if self.threshold is not None else ""
        score = (
            f"gain ratio {self.gain_ratio:.4f}"
            if self.criterion == "gain_ratio"
            else f"gain {self.gain:.4f}"
        )
        lines = [f"{pad}=> split on {self.feature}{test} ({score})"]
        if self.tied_with:
            lines.append(
                f"{pad}   tie with {', '.join(self.tied_with)}: broken by column order "
                f"({self.feature} comes first)"
            )
        if self.n_tied_thresholds > 1:
            lines.append(f"{pad}   {self.n_tied_thresholds} thresholds tie: the smallest is used")
        lines.append(f"{pad}   branches: " + ", ".join(f"{b} ({n})" for b, n in self.branches))
        return "\n".join(lines)


@dataclass(frozen=True)
class LeafMade:
    """The node stays a leaf, and why."""

    node: int
    depth: int
    prediction: Any
    class_counts: dict
    reason: str

    def __str__(self) -> str:
        return f"{_indent(self.depth)}  => leaf: predict {self.prediction} ({self.reason})"


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


Event = NodeStarted | CandidateScored | ThresholdScored | SplitChosen | LeafMade | PruningDecision


class PrintTracer:
    """Print every event as it happens (what ``verbose=1`` and ``verbose=2`` use)."""

    def __init__(self, file=None, *, thresholds: bool = False):
        self.file = file
        self.thresholds = thresholds

    def __call__(self, event: Event) -> None:
        if isinstance(event, ThresholdScored) and not self.thresholds:
            return
        print(event, file=self.file if self.file is not None else sys.stdout)


class RecordingTracer:
    """Keep every event; ``to_frame()`` turns them into a DataFrame."""

    def __init__(self, *, thresholds: bool = False):
        self.thresholds = thresholds
        self.events: list[Event] = []

    def __call__(self, event: Event) -> None:
        self.events.append(event)

    def __str__(self) -> str:
        return "\n".join(str(e) for e in self.events)

    def to_frame(self) -> pd.DataFrame:
        rows = [{"event": type(e).__name__, **asdict(e)} for e in self.events]
        return pd.DataFrame(rows)


class LoggingTracer:
    """Send every event to a :mod:`logging` logger."""

    def __init__(
        self,
        logger: logging.Logger | str = "id3tree",
        level: int = logging.INFO,
        *,
        thresholds: bool = False,
    ):
        self.logger = logging.getLogger(logger) if isinstance(logger, str) else logger
        self.level = level
        self.thresholds = thresholds

    def __call__(self, event: Event) -> None:
        self.logger.log(self.level, "%s", event)
