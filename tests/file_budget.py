"""The suite's time budget, a file at a time: a test file (a notebook, a page of doctests) that
takes more than :data:`LIMIT` seconds fails the run, naming it and its time.

A file's time is the sum of its tests' setup, call and teardown, as pytest measures them
(wall-clock), and the processor time the same phases used, in the test process and in the
child processes it waited for (a notebook's kernel, a benchmark, a Dask cluster's workers). A
file over the limit by both counts is over budget: a machine busy with other work stretches
the wall-clock time but not the processor time, and work done in parallel (two Dask workers)
adds processor time but not wall-clock time, so neither makes the check flaky. Under
pytest-xdist each test's processor time travels with its report to the controller, which adds
them up.
"""

from __future__ import annotations

import os
import resource
from collections import defaultdict

import pytest

LIMIT = float(os.environ.get("ID3TREE_FILE_SECONDS", "60"))
"""Seconds a test file may take (the environment variable ``ID3TREE_FILE_SECONDS`` sets it)."""

SHOWN = int(os.environ.get("ID3TREE_SLOWEST_FILES", "5"))
"""How many of the slowest test files the summary lists (``ID3TREE_SLOWEST_FILES`` sets it)."""

KEY = "processor_seconds"


def processor_seconds() -> float:
    """Processor time so far: this process's and its waited-for children's, user and system."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


class FileBudget:
    """The pytest plugin that times each file and fails the run for a file over ``limit``."""

    def __init__(self, limit: float = LIMIT, counts: bool = True) -> None:
        self.limit = limit
        self.counts = counts  # False in an xdist worker: the controller adds the reports up
        self.wall: dict[str, float] = defaultdict(float)
        self.processor: dict[str, float] = defaultdict(float)
        self.started: dict[str, float] = {}

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item, call):
        outcome = yield
        report = outcome.get_result()
        began = self.started.pop(f"{item.nodeid}:{call.when}", None)
        if began is not None:
            report.user_properties.append((KEY, processor_seconds() - began))

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_setup(self, item):
        self.started[f"{item.nodeid}:setup"] = processor_seconds()
        yield

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_call(self, item):
        self.started[f"{item.nodeid}:call"] = processor_seconds()
        yield

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_teardown(self, item, nextitem):
        self.started[f"{item.nodeid}:teardown"] = processor_seconds()
        yield

    def pytest_runtest_logreport(self, report) -> None:
        if not self.counts:
            return
        where = report.nodeid.split("::")[0]
        self.wall[where] += report.duration
        self.processor[where] += dict(report.user_properties).get(KEY, 0.0)

    def over(self) -> dict[str, tuple[float, float]]:
        """Every file over the limit by both counts: its wall-clock and processor seconds."""
        return {
            where: (self.wall[where], self.processor[where])
            for where in sorted(self.wall)
            if min(self.wall[where], self.processor[where]) > self.limit
        }

    def pytest_terminal_summary(self, terminalreporter) -> None:
        slowest = sorted(self.wall, key=lambda w: -min(self.wall[w], self.processor[w]))[:SHOWN]
        if slowest:
            terminalreporter.section("the slowest test files (seconds: wall-clock, processor)")
            for where in slowest:
                terminalreporter.write_line(
                    f"{self.wall[where]:7.1f} {self.processor[where]:7.1f}  {where}"
                )
            terminalreporter.write_line(
                f"{sum(self.wall.values()):7.1f} {sum(self.processor.values()):7.1f}  "
                f"all {len(self.wall)} files"
            )
        for where, (wall, processor) in self.over().items():
            terminalreporter.write_line(
                f"OVER BUDGET: {where} took {wall:.0f} s ({processor:.0f} s of processor time); "
                f"a test file may take {self.limit:g} s: make it cheaper or split it",
                red=True,
            )

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session, exitstatus) -> None:
        if self.over() and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
