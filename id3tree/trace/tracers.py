"""Tracing the learner step by step, by events rather than prints.

While it grows a tree, :class:`~id3tree.ID3Classifier` sends small frozen events to a *tracer*,
any callable that takes one event. ``verbose=1`` uses :class:`PrintTracer`; a
:class:`RecordingTracer` keeps the events for a notebook or a test; a :class:`LoggingTracer` sends
them to :mod:`logging`. Without a tracer the learner builds no events at all.

Nodes are numbered and reported in pre-order (depth first), the order in which one reads the tree:
a node, then the whole subtree of its first branch, then the next branch. Indentation therefore
always means "child of the node above". The learner grows the tree level by level, so it keeps the
events while it grows and sends them to the tracer, in reading order, once the tree is finished.

``verbose=2`` adds one :class:`ThresholdsRanked` event under each numeric candidate: its best
thresholds by overall entropy, five to a printed line (``best thresholds by overall entropy:
<= 0.8: 0.6667, <= 0.55: 0.7206, ..., and 16 more thresholds``). The chosen threshold is already
worked out in full on the candidate's lines; the ranking shows how it compares with its closest
rivals, which is what a student checks, and it keeps the page short (one line per candidate
with the learner's 5). ``max_thresholds`` of the tracer lists more, or every one (None); the
class counts behind any threshold are in ``candidate_table(node, feature)``.

Every event prints itself with the lines of :mod:`id3tree.trace.lines`, whose equations hold
by pencil (``overall entropy 0.0000 + 0.3468 + 0.3468 ≈ 0.6935``, :mod:`id3tree.base.pencil`).
A tracer that only prints (a :class:`PrintTracer`, ``__call__`` not overridden) gets no events:
the learner writes the same lines with the column forms of the same functions, the whole tree
at once (:mod:`id3tree.trace.page`): a trace of 10,000 rows writes some 100,000 numbers, and
one Python call per number would cost more than the fit.
"""

from __future__ import annotations

import logging
import sys
from dataclasses import asdict, dataclass
from typing import Any

import pandas as pd

from id3tree.base.words import (
    format_count,
    format_counts,
    format_number,
)
from id3tree.engine.pruning import PruningDecision
from id3tree.model.node import class_tie_note
from id3tree.trace.lines import (
    candidate_text,
    fixed_text,
    leaf_text,
    midway_mark,
    node_text,
    split_text,
    threshold_text,
    thresholds_text,
)

__all__ = [
    "Branch", "CandidateScored", "Event", "LeafMade", "LoggingTracer", "NodeStarted", "prints_only",
    "PrintTracer", "RecordingTracer", "SplitChosen", "ThresholdScored", "ThresholdsRanked",
]  # fmt: skip

# ---------------------------------------------------------------------------------------------
# The lines of the trace. Each event prints itself with one of these functions, and the
# learner calls them directly when the tracer only prints (see :func:`prints_only`), so both
# ways write the same characters. Class counts arrive already written (``No: 5, Yes: 9``).
# ---------------------------------------------------------------------------------------------


# ---------------------------------------------------------------------------------------------
# The events
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class NodeStarted:
    """A node: its number, where it hangs, what reached it."""

    node: int
    parent: int | None
    depth: int
    path: tuple[str, ...]  # the condensed tests on the way here
    class_counts: dict[Any, Any]
    n_samples: int
    entropy: float

    def __str__(self) -> str:
        return node_text(
            self.node, self.depth, self.path, format_counts(self.class_counts), self.n_samples,
            self.entropy,
        )  # fmt: skip


@dataclass(frozen=True)
class Branch:
    """One branch of a candidate split: its test, its class counts, their entropy."""

    label: str  # "Outlook = Sunny", "petal_length <= 2.45", "petal_length is missing"
    class_counts: dict[Any, Any]
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
        branches = [
            (b.label, format_counts(b.class_counts), b.n_samples, b.entropy) for b in self.branches
        ]
        return candidate_text(
            self.depth, self.feature, self.kind, self.n_samples, self.entropy, self.gain,
            self.gain_ratio, self.overall_entropy, self.threshold, self.low, self.high, branches,
            self.criterion, self.reason,
        )  # fmt: skip


@dataclass(frozen=True)
class ThresholdScored:
    """One threshold of a numeric feature at a node, ranked by overall entropy (1 = best)."""

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
        low, high, t = (
            format_number(self.low),
            format_number(self.high),
            threshold_text(self.threshold),
        )
        mark = midway_mark(low, high, t)
        return (
            f"{self.rank}. <= {t} ({mark}between {low} and {high}): left {format_count(self.n_left)} "
            f"(entropy {fixed_text(self.entropy_left)}), right {format_count(self.n_right)} "
            f"(entropy {fixed_text(self.entropy_right)}), "
            f"overall entropy {fixed_text(self.overall_entropy)}, gain {fixed_text(self.gain)}"
        )


@dataclass(frozen=True)
class ThresholdsRanked:
    """The best thresholds of one numeric candidate (``verbose=2``), best first, and how many
    more it has. Sent after the candidate's :class:`CandidateScored`."""

    node: int
    depth: int
    feature: str
    thresholds: tuple[ThresholdScored, ...]
    n_more: int

    def __str__(self) -> str:
        best = [(t.threshold, t.overall_entropy) for t in self.thresholds]
        return thresholds_text(self.depth, best, self.n_more)


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
    below_average: tuple[Any, ...] = ()  # gain ratio: (average gain, features C4.5's rule kept out)

    def __str__(self) -> str:
        return split_text(
            self.depth, self.feature, self.threshold, self.gain, self.gain_ratio, self.criterion,
            self.tied_with, self.n_tied_thresholds, self.branches, self.below_average,
        )  # fmt: skip


@dataclass(frozen=True)
class LeafMade:
    """The node stays a leaf: why, what it predicts, and whether its top classes tie."""

    node: int
    depth: int
    prediction: Any
    class_counts: dict[Any, Any]
    reason: str
    tied_classes: tuple[Any, ...] = ()

    def __str__(self) -> str:
        note = class_tie_note(self.class_counts, self.prediction) if self.tied_classes else ""
        return leaf_text(self.depth, self.prediction, self.reason, note)


Event = NodeStarted | CandidateScored | ThresholdsRanked | SplitChosen | LeafMade | PruningDecision
"""Any event a tracer receives."""


class PrintTracer:
    """Print every event (what ``verbose=1`` and ``verbose=2`` use).

    Parameters
    ----------
    file : file-like, optional
        Where to print; default ``sys.stdout``.
    max_thresholds : int or None, default=0
        How many thresholds of each numeric candidate to list, best first, with their overall
        entropy (``verbose=2`` uses 10); the rest are counted ("and 11 more thresholds"). None
        lists every threshold.

    Notes
    -----
    The learner does not build events for a tracer that only prints (a ``PrintTracer`` whose
    ``__call__`` is not overridden): it writes the same lines, node by node, with :meth:`write`.
    """

    def __init__(self, file: Any = None, *, max_thresholds: int | None = 0) -> None:
        self.file = file
        self.max_thresholds = max_thresholds

    def __call__(self, event: Event) -> None:
        print(event, file=self.file if self.file is not None else sys.stdout)

    def write(self, text: str) -> None:
        """Write lines of the trace as they are (each ends with a newline)."""
        (self.file if self.file is not None else sys.stdout).write(text)


def prints_only(tracer: Any) -> bool:
    """Whether ``tracer`` only prints each event's ``__str__`` (then the learner writes the
    lines without building the events)."""
    return isinstance(tracer, PrintTracer) and type(tracer).__call__ is PrintTracer.__call__


class RecordingTracer:
    """Keep every event; ``to_frame()`` turns them into a DataFrame (``max_thresholds`` as in
    :class:`PrintTracer`)."""

    def __init__(self, *, max_thresholds: int | None = 0) -> None:
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
        self, logger: logging.Logger | str = "id3tree", level: int = logging.INFO, *,
        max_thresholds: int | None = 0,
    ) -> None:  # fmt: skip
        self.logger = logging.getLogger(logger) if isinstance(logger, str) else logger
        self.level = level
        self.max_thresholds = max_thresholds

    def __call__(self, event: Event) -> None:
        self.logger.log(self.level, "%s", event)
