"""Progress bars (tqdm, on stderr) for searches and fits that take more than a few seconds.

A bar is shown only when asked for: the functions take ``progress=False`` by default, and the
command line asks when stderr is a terminal (``--progress`` / ``--no-progress`` decide
otherwise). So tests, pipes and log files never see one. A bar appears only once its work has
run ``DELAY`` seconds: a quick search prints nothing.
"""

from __future__ import annotations

import sys
from typing import Any

__all__ = ["DELAY", "elapsed_bar", "progress_bar", "wanted"]

DELAY = 2.0
"""Seconds of work before a bar appears."""


class _Silent:
    """The stand-in for a bar that is not shown: every call does nothing."""

    def update(self, n: int = 1) -> None:
        pass

    def set_description_str(self, text: str) -> None:
        pass

    def close(self) -> None:
        pass

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc: Any) -> None:
        pass


def progress_bar(total: int | None, *, unit: str, desc: str, enabled: bool) -> Any:
    """A tqdm bar over ``total`` steps of ``unit`` on stderr when ``enabled``, else a stand-in
    that does nothing. Use it as a context manager and call ``update()`` once per step."""
    if not enabled:
        return _Silent()
    from tqdm import tqdm

    return tqdm(total=total, unit=unit, desc=desc, delay=DELAY, file=sys.stderr, leave=False)


def wanted(flag: bool | None) -> bool:
    """The command line's choice: ``--progress`` (True), ``--no-progress`` (False), or neither
    (None): a bar when stderr is a terminal."""
    if flag is not None:
        return flag
    isatty = getattr(sys.stderr, "isatty", None)
    return bool(isatty and isatty())


class elapsed_bar:  # noqa: N801  (used as a function: with elapsed_bar(...):)
    """A tqdm line with the seconds spent on one long step that reports no progress of its
    own (growing a tree), refreshed once a second by a daemon thread; a stand-in when not
    ``enabled``."""

    def __init__(self, what: str, *, enabled: bool) -> None:
        self.what, self.enabled = what, enabled
        self.bar: Any = None  # (a tqdm bar and its thread, while it shows)
        self.thread: Any = None

    def __enter__(self) -> Any:
        if not self.enabled:
            return self
        import threading

        from tqdm import tqdm

        self.bar = tqdm(
            total=None, desc=self.what, delay=DELAY, file=sys.stderr, leave=False,
            bar_format="{desc}: {elapsed}",
        )  # fmt: skip
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._tick, daemon=True)
        self.thread.start()
        return self

    def _tick(self) -> None:
        while not self.done.wait(1.0):
            self.bar.update(0)
            self.bar.refresh()

    def __exit__(self, *exc: Any) -> None:
        if self.bar is not None:
            self.done.set()
            self.thread.join()
            self.bar.close()
