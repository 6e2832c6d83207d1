"""The test suite runs every tutorial once, top to bottom in its folder: a cell that raises
fails it, and so does a cell whose output is not the one stored in the notebook (which the
documentation site shows, and a repository's page too). ``python tutorials/store_outputs.py
NAME.ipynb`` stores a changed tutorial with its outputs.

:class:`TutorialCollector` is the pytest plugin that makes a test of each ``tutorials/*.ipynb``;
tests/conftest.py registers it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

TUTORIALS = Path(__file__).resolve().parents[1] / "tutorials"


class TutorialCollector:
    def pytest_collect_file(self, parent, file_path):
        if file_path.suffix == ".ipynb" and file_path.parent == TUTORIALS:
            return Tutorial.from_parent(parent, path=file_path)
        return None


class Tutorial(pytest.File):
    def collect(self):
        yield TutorialRun.from_parent(self, name=self.path.name)


class TutorialFailed(Exception):
    """A tutorial that raised, or whose outputs are not the stored ones."""


class TutorialRun(pytest.Item):
    def runtest(self) -> None:
        import nbformat
        from nbclient.exceptions import CellExecutionError

        if str(TUTORIALS) not in sys.path:
            sys.path.insert(0, str(TUTORIALS))
        from store_outputs import differences, execute

        try:
            fresh = execute(self.path)
        except CellExecutionError as error:
            raise TutorialFailed(f"{self.path.name} raised:\n{error}") from None
        stale = differences(nbformat.read(self.path, as_version=4), fresh)
        if stale:
            raise TutorialFailed(
                f"{self.path.name} prints what is not stored (run python tutorials/"
                f"store_outputs.py {self.path.name} and commit it):\n" + "\n".join(stale)
            )

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, TutorialFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, 0, f"tutorial {self.path.name}"
