"""The trace as the grower's listener: what a tracer will be told is kept level by level
(:class:`~id3tree.trace.details.TraceDetails`) and, once the tree is finished, written as the
printed page (:class:`~id3tree.trace.page.Page`, for a tracer that only prints) or sent as
events in reading order (:class:`~id3tree.trace.events.Events`)."""

from __future__ import annotations

from typing import Any

from id3tree.engine.record import Listener
from id3tree.trace.details import TraceDetails
from id3tree.trace.events import Events
from id3tree.trace.page import Page
from id3tree.trace.tracers import PrintTracer

__all__ = ["VERBOSE_THRESHOLDS", "TraceListener", "listening", "verbose_tracer"]

VERBOSE_THRESHOLDS = 5
"""How many thresholds of each numeric candidate ``verbose=2`` lists, best first."""


class TraceListener(Listener):
    """Tells ``tracer`` the growth of a tree on ``data`` (see the module)."""

    def __init__(self, tracer: Any, data: Any, min_leaf: int = 1) -> None:
        self.tracer = tracer
        self.details = TraceDetails(tracer, data, min_leaf)
        self.max_thresholds = self.details.max_thresholds

    def level(self, lv: Any) -> None:
        self.details.keep(lv)

    def finish(self, numbers: Any, tree: Any) -> None:
        details, self.details = self.details, None  # type: ignore[assignment]  # (done with it)
        details.finish_levels()
        if details.as_text:
            Page(details, self.tracer).write(numbers)
        else:
            Events(details, self.tracer).send(numbers, tree.parent)


def listening(tracer: Any, min_leaf: int = 1) -> Any:
    """What a fit hands the grower: ``listen(data)``, the listener of a growth on ``data`` that
    tells ``tracer`` (None when there is no tracer)."""
    if tracer is None:
        return lambda data: None
    return lambda data: TraceListener(tracer, data, min_leaf)


def verbose_tracer(verbose: int, *, thresholds: bool = True) -> PrintTracer | None:
    """The tracer of ``verbose`` (None for 0): ``verbose=2`` lists the best thresholds of each
    numeric candidate, where ``thresholds`` (a fit that has every row to rank them)."""
    if not verbose:
        return None
    return PrintTracer(max_thresholds=VERBOSE_THRESHOLDS if verbose >= 2 and thresholds else 0)
