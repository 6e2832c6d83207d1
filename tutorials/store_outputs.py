"""Run the tutorials from top to bottom and store them with their outputs.

A repository's page shows a notebook as it is stored, without running it: stored outputs let a
teacher read every table, trace and figure there. Run this after changing a tutorial::

    python tutorials/store_outputs.py                  # every tutorial
    python tutorials/store_outputs.py 02_information_gain_and_id3.ipynb

Each notebook runs in its own folder, as nbmake runs it in the test suite. What would differ from
one run or one machine to the next is left out: no timing metadata is recorded, and the plain
text of a result that is only an object's address (``<... at 0x7f...>``, beside the table or
picture that shows it) is dropped. ``tests/test_tutorials.py`` checks both.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ADDRESS = re.compile(r"^<.* at 0x[0-9a-f]+>$")


def without_addresses(notebook) -> None:
    """Drop each result's plain text that is only an object's address, if it has another form."""
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            plain = data.get("text/plain", "")
            if len(data) > 1 and ADDRESS.match(plain.strip()):
                del data["text/plain"]


def store(path: Path) -> None:
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
    nbformat.write(notebook, path)


def main(names: list[str]) -> int:
    paths = [HERE / name for name in names] or sorted(HERE.glob("*.ipynb"))
    for path in paths:
        store(path)
        print(f"stored {path.name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
