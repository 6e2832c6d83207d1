"""Run the tutorials from top to bottom and store them with their outputs.

A repository's page shows a notebook as it is stored, without running it: stored outputs let a
teacher read every table, trace and figure there, and the documentation site shows them as
stored (it does not run the tutorials again). Run this after changing a tutorial::

    python tutorials/store_outputs.py                  # every tutorial
    python tutorials/store_outputs.py 02_information_gain_and_id3.ipynb

Each notebook runs in its own folder, as the test suite runs it. What would differ from one run
or one machine to the next is left out: no timing metadata is recorded, and the plain text of a
result that is only an object's address (``<... at 0x7f...>``, beside the table or picture that
shows it) is dropped. ``tests/test_tutorials.py`` checks both, and the suite's run of each
tutorial (``tests/tutorial_runs.py``) checks that what it prints is what is stored
(:func:`differences`).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ADDRESS = re.compile(r"^<.* at 0x[0-9a-f]+>$")
TIMED = re.compile(r"\bperf_counter\(|\btime\.time\(|\btimeit\b|^\s*%%?time\b", re.M)
"""A cell that measures time (its output shows how long something took: never twice the same)."""
SHOWN = ("text/plain", "text/markdown", "text/latex")
"""The kinds of output compared with the stored ones: text a reader reads (a table's HTML says
what its plain text says; a picture's bytes change with the drawing library's version)."""


def without_addresses(notebook: Any) -> None:
    """Drop each result's plain text that is only an object's address, if it has another form."""
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            plain = data.get("text/plain", "")
            if len(data) > 1 and ADDRESS.match(plain.strip()):
                del data["text/plain"]


def execute(path: Path) -> Any:
    """The notebook at ``path`` run from top to bottom in its folder, as it would be stored
    (an error in a cell raises nbclient's ``CellExecutionError``)."""
    import nbformat
    from nbclient import NotebookClient

    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(
        notebook,
        timeout=600,
        kernel_name="python3",
        record_timing=False,
        resources={"metadata": {"path": str(path.parent)}},
    )
    client.execute()
    without_addresses(notebook)
    return notebook


def shown(cell: Any) -> list[tuple[str, str]]:
    """What a code cell shows a reader, in order: each stream's text (consecutive pieces of one
    stream joined, as the kernel may cut them anywhere) and each result's text forms; a
    picture by its kind only."""
    parts: list[tuple[str, str]] = []
    for output in cell.get("outputs", []):
        if output["output_type"] == "stream":
            if parts and parts[-1][0] == output["name"]:
                parts[-1] = (output["name"], parts[-1][1] + output["text"])
            else:
                parts.append((output["name"], output["text"]))
        elif output["output_type"] == "error":
            parts.append(("error", output.get("ename", "")))
        else:
            for kind, value in sorted(output.get("data", {}).items()):
                text = "".join(value) if isinstance(value, list) else value
                parts.append((kind, text if kind in SHOWN else ""))
    return parts


def differences(stored: Any, fresh: Any) -> list[str]:
    """The code cells whose fresh outputs are not the stored ones, each with the first line
    that differs (empty when the stored notebook is current). A cell that measures time
    (:data:`TIMED`) is compared by the kinds of its outputs only."""
    stored_cells = [c for c in stored.cells if c.cell_type == "code"]
    fresh_cells = [c for c in fresh.cells if c.cell_type == "code"]
    if len(stored_cells) != len(fresh_cells):
        return [f"{len(stored_cells)} code cells stored, {len(fresh_cells)} run"]
    found = []
    for number, (old, new) in enumerate(zip(stored_cells, fresh_cells), start=1):
        before, after = shown(old), shown(new)
        if TIMED.search(old.source):
            before, after = [(k, "") for k, _ in before], [(k, "") for k, _ in after]
        if before != after:
            found.append(f"code cell {number}: {_first_difference(before, after)}")
    return found


def _first_difference(before: list[tuple[str, str]], after: list[tuple[str, str]]) -> str:
    if [kind for kind, _ in before] != [kind for kind, _ in after]:
        return f"stored {[k for k, _ in before]}, now {[k for k, _ in after]}"
    for (kind, old), (_, new) in zip(before, after):
        for line_old, line_new in zip(old.splitlines() + [""], new.splitlines() + [""]):
            if line_old != line_new:
                return f"{kind}: stored {line_old[:120]!r}, now {line_new[:120]!r}"
    return "the outputs differ"


def store(path: Path) -> None:
    import nbformat

    nbformat.write(execute(path), path)


def main(names: list[str]) -> int:
    paths = [HERE / name for name in names] or sorted(HERE.glob("*.ipynb"))
    for path in paths:
        store(path)
        print(f"stored {path.name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
