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

A tracer that only prints (a :class:`PrintTracer`, ``__call__`` not overridden) gets no events:
the learner writes the same lines with the same functions (:func:`node_text`,
:func:`candidate_texts`, :func:`thresholds_texts`, :func:`split_text`, :func:`leaf_text`) a level
at a time, which is what keeps ``verbose=1`` and ``verbose=2`` cheap next to the fit itself.
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


_FIXED = f".{DECIMALS}f"


def _f(value: float) -> str:
    return format(value, _FIXED)


def _t(value: float) -> str:
    return format_number(value, DECIMALS)


def _indent(depth: int) -> str:
    return "    " * depth


# ---------------------------------------------------------------------------------------------
# The lines of the trace. Each event prints itself with one of these functions, and the
# learner calls them directly when the tracer only prints (see :func:`prints_only`), so both
# ways write the same characters. Class counts arrive already written (``No: 5, Yes: 9``).
# ---------------------------------------------------------------------------------------------
def node_text(node: int, depth: int, path, counts: str, n_samples, entropy: float) -> str:
    """``Node 4 [Outlook = Rain and Wind = Strong]: 2 samples (No: 2, Yes: 0), entropy 0.0000``."""
    where = " and ".join(path) if path else "root"
    return (
        f"{_indent(depth)}Node {node} [{where}]: {plural(n_samples, 'sample')} ({counts}), "
        f"entropy {_f(entropy)}"
    )


def candidate_text(
    depth: int,
    feature: str,
    kind: str,
    n_samples,
    entropy: float,
    gain: float | None,
    gain_ratio: float | None,
    overall_entropy: float | None,
    threshold: float | None,
    low: float | None,
    high: float | None,
    branches,
    criterion: str,
    reason: str | None = None,
) -> str:
    """One candidate: its test, a line per branch, then the overall entropy and the gain.

    ``branches`` holds ``(label, counts, n_samples, entropy)`` of each branch, counts written.
    """
    pad = _indent(depth) + "  "
    if gain is None:
        why = f", {reason}" if reason else ""
        return f"{pad}candidate {feature}: no valid split{why}"
    if not branches:  # a grower that kept no branch counts (Dask): the score only
        test = f" <= {_t(threshold)}" if threshold is not None else ""
        return f"{pad}candidate {feature}{test}: gain {_f(gain)}"
    if kind == "numeric":
        threshold, low, high = _t(threshold), format_number(low), format_number(high)
    scores = (n_samples, _f(entropy), gain, gain_ratio, overall_entropy, threshold, low, high)
    columns = tuple(list(column) for column in zip(*branches))
    return candidate_texts(depth, feature, kind, criterion, [(*scores, 0, len(branches))], columns)[
        0
    ]


def candidate_texts(depth: int, feature: str, kind: str, criterion: str, candidates, branches):
    """The text of many candidates of one feature at nodes of one depth, each with a valid split
    and its branches: what :func:`candidate_text` writes, for a whole level at once.

    ``candidates`` holds ``(n_samples, entropy, gain, gain_ratio, overall_entropy, threshold,
    low, high, first, stop)`` of each candidate, with the node's entropy and (for a numeric
    feature) the threshold and the two values it lies between already written, as
    :func:`candidate_text` writes them; its branches are ``first:stop`` of the columns
    ``branches = (labels, counts, sizes, entropies)``, counts written.
    """
    pad = _indent(depth) + "  "
    fixed = _FIXED
    labels, counts, sizes, entropies = branches
    texts = []
    for n, entropy, gain, ratio, overall, threshold, low, high, first, stop in candidates:
        if kind == "numeric":
            head = f"{pad}candidate {feature} <= {threshold} (between {low} and {high}):"
        else:
            head = f"{pad}candidate {feature} ({plural(stop - first, 'value')}):"
        lines, of_n = [head], f"/{format_count(n)} = "
        for j in range(first, stop):
            size, h = sizes[j], entropies[j]
            w = size / n
            lines.append(
                f"{pad}    {labels[j]}: {plural(size, 'sample')} ({counts[j]}), "
                f"entropy {format(h, fixed)}, weight {format_count(size)}{of_n}"
                f"{format(w, fixed)}, weighted entropy {format(w * h, fixed)}"
            )
        overall = format(overall, fixed)
        total = f"{pad}    overall entropy {overall}, gain {entropy} - {overall} = {format(gain, fixed)}"
        if criterion == "gain_ratio":
            split_info = float(entropy_rows(sizes[first:stop]))
            total += f", split information {_f(split_info)}, gain ratio {_f(ratio)}"
        lines.append(total)
        texts.append("\n".join(lines))
    return texts


THRESHOLDS_PER_LINE = 5
"""How many thresholds ``verbose=2`` writes on one line."""


def thresholds_text(depth: int, thresholds, n_more: int) -> str:
    """The best thresholds of a numeric candidate with their overall entropy, a few to a line,
    best first, then how many more there are: ``best thresholds by overall entropy: <= 0.8:
    0.6667, <= 0.55: 0.7206, ..., and 11 more thresholds``. Indented like the candidate's
    branches, under its line.

    ``thresholds`` holds ``(threshold, overall_entropy)`` pairs, best first.
    """
    threshold = [t for t, _ in thresholds]
    overall = [h for _, h in thresholds]
    return thresholds_texts(depth, threshold, overall, [(0, len(threshold), n_more)])[0]


def thresholds_texts(depth: int, threshold, overall_entropy, spans) -> list[str]:
    """:func:`thresholds_text` of many candidates at once: candidate i lists the thresholds
    ``first:stop`` of the columns ``threshold`` and ``overall_entropy`` (best first), and
    ``spans[i]`` is ``(first, stop, n_more)``."""
    fixed = _FIXED
    entries = [f"<= {_t(t)}: {format(h, fixed)}" for t, h in zip(threshold, overall_entropy)]
    pad, k = _indent(depth) + "      ", THRESHOLDS_PER_LINE
    head, wrap = f"{pad}best thresholds by overall entropy: ", f",\n{pad}    "
    texts = []
    for first, stop, n_more in spans:
        lines = [", ".join(entries[i : min(i + k, stop)]) for i in range(first, stop, k)] or [""]
        if n_more:
            lines[-1] += f", and {plural(n_more, 'more threshold')}"
        texts.append(head + wrap.join(lines))
    return texts


def split_text(
    depth: int,
    feature: str,
    threshold: float | None,
    gain: float,
    gain_ratio: float,
    criterion: str,
    tied_with,
    n_tied_thresholds: int,
    branches,
    below_average=(),
) -> str:
    """The decision to split: on which feature, the score that won, the branches, any tie, and
    (gain ratio) the features C4.5's rule kept out: ``below_average`` is ``(average gain,
    names)``, or empty."""
    pad = _indent(depth) + "  "
    test = f" <= {_t(threshold)}" if threshold is not None else ""
    score = f"gain ratio {_f(gain_ratio)}" if criterion == "gain_ratio" else f"gain {_f(gain)}"
    into = ", ".join(f"{b} ({plural(n, 'sample')})" for b, n in branches)
    lines = [f"{pad}=> split on {feature}{test}, the highest {score}; branches: {into}"]
    if tied_with:
        lines.append(
            f"{pad}   tie with {', '.join(tied_with)}: broken by column order "
            f"({feature} comes first)"
        )
    if n_tied_thresholds > 1:
        lines.append(f"{pad}   {n_tied_thresholds} thresholds tie: the smallest is used")
    if below_average:
        average, names = below_average
        lines.append(
            f"{pad}   C4.5's rule: only candidates with at least the average gain "
            f"{_f(average)} compete ({', '.join(names)} below it)"
        )
    return "\n".join(lines)


def leaf_text(depth: int, prediction, reason: str, tie_note: str = "") -> str:
    """The decision to stop: what the leaf predicts and why, and a tie between its top classes."""
    pad = _indent(depth) + "  "
    line = f"{pad}=> leaf, predict {prediction}: {reason}"
    return f"{line}\n{pad}   {tie_note}" if tie_note else line


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
    class_counts: dict
    n_samples: int
    entropy: float

    def __str__(self) -> str:
        return node_text(
            self.node,
            self.depth,
            self.path,
            format_counts(self.class_counts),
            self.n_samples,
            self.entropy,
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
        branches = [
            (b.label, format_counts(b.class_counts), b.n_samples, b.entropy) for b in self.branches
        ]
        return candidate_text(
            self.depth,
            self.feature,
            self.kind,
            self.n_samples,
            self.entropy,
            self.gain,
            self.gain_ratio,
            self.overall_entropy,
            self.threshold,
            self.low,
            self.high,
            branches,
            self.criterion,
            self.reason,
        )


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
        return (
            f"{self.rank}. <= {_t(self.threshold)} (between {format_number(self.low)} and "
            f"{format_number(self.high)}): left {format_count(self.n_left)} "
            f"(entropy {_f(self.entropy_left)}), right {format_count(self.n_right)} "
            f"(entropy {_f(self.entropy_right)}), "
            f"overall entropy {_f(self.overall_entropy)}, gain {_f(self.gain)}"
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
    below_average: tuple = ()  # gain ratio: (average gain, features C4.5's rule kept out)

    def __str__(self) -> str:
        return split_text(
            self.depth,
            self.feature,
            self.threshold,
            self.gain,
            self.gain_ratio,
            self.criterion,
            self.tied_with,
            self.n_tied_thresholds,
            self.branches,
            self.below_average,
        )


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
        note = class_tie_note(self.class_counts, self.prediction) if self.tied_classes else ""
        return leaf_text(self.depth, self.prediction, self.reason, note)


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


Event = NodeStarted | CandidateScored | ThresholdsRanked | SplitChosen | LeafMade | PruningDecision


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

    def __init__(self, file=None, *, max_thresholds: int | None = 0):
        self.file = file
        self.max_thresholds = max_thresholds

    def __call__(self, event: Event) -> None:
        print(event, file=self.file if self.file is not None else sys.stdout)

    def write(self, text: str) -> None:
        """Write lines of the trace as they are (each ends with a newline)."""
        (self.file if self.file is not None else sys.stdout).write(text)


def prints_only(tracer) -> bool:
    """Whether ``tracer`` only prints each event's ``__str__`` (then the learner writes the
    lines without building the events)."""
    return isinstance(tracer, PrintTracer) and type(tracer).__call__ is PrintTracer.__call__


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
