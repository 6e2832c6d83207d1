"""The tutorials are stored with their outputs, so that a teacher who opens one on the
repository's page (which renders a notebook as it is stored, without running it) reads every
table, trace and figure.

They are stored as a top-to-bottom run leaves them (``python tutorials/store_outputs.py``) and
the suite runs them again with nbmake. What is checked here is what a fresh run cannot see:
that every notebook was stored after such a run, and that its outputs say nothing of the
machine or the moment that made them (paths, addresses, local servers, timings, warnings).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

TUTORIALS = sorted((Path(__file__).parent.parent / "tutorials").glob("*.ipynb"))

MACHINE = re.compile(
    r"/(?:work|root|home|tmp|Users|var/folders)/|[A-Z]:\\\\|"  # paths of the machine
    r"\bat 0x[0-9a-f]{6,}|"  # an object's address
    r"127\.0\.0\.1:\d+|localhost:\d+|"  # a local server (a Dask dashboard)
    r"Wall time|CPU times|\d+(?:\.\d+)? ?(?:ms|µs) per loop|elapsed"  # timings
)


def code_cells(path: Path) -> list[dict]:
    return [
        c for c in json.loads(path.read_text(encoding="utf-8"))["cells"] if c["cell_type"] == "code"
    ]


def output_text(output: dict) -> str:
    """Every text of an output: a stream's, and each text kind of a result (plain, HTML, ...)."""
    parts = [output.get("text", "")]
    for kind, value in output.get("data", {}).items():
        if kind.startswith("text/") or kind.endswith("json"):
            parts.append(value if isinstance(value, str) else json.dumps(value))
    return "".join("".join(p) if isinstance(p, list) else p for p in parts)


def test_there_are_tutorials():
    assert len(TUTORIALS) >= 10


@pytest.mark.parametrize("path", TUTORIALS, ids=[p.stem for p in TUTORIALS])
def test_every_tutorial_is_stored_as_a_run_from_top_to_bottom(path):
    cells = code_cells(path)
    assert [c["execution_count"] for c in cells] == list(range(1, len(cells) + 1)), (
        f"{path.name}: run it from the top and store it (python tutorials/store_outputs.py)"
    )
    shown = [c for c in cells if c["outputs"]]
    assert len(shown) >= len(cells) / 2, f"{path.name}: most cells show nothing"
    for cell in cells:
        assert not any(o["output_type"] == "error" for o in cell["outputs"]), path.name
        assert not any(k.startswith(("execution", "ExecuteTime")) for k in cell["metadata"])


@pytest.mark.parametrize("path", TUTORIALS, ids=[p.stem for p in TUTORIALS])
def test_stored_outputs_say_nothing_of_the_machine(path):
    for number, cell in enumerate(code_cells(path), start=1):
        for output in cell["outputs"]:
            found = MACHINE.search(output_text(output))
            assert found is None, f"{path.name}, code cell {number}: {found.group(0)!r}"
            if output.get("name") == "stderr":
                text = output_text(output)
                assert "Warning" not in text, f"{path.name}, code cell {number}: {text[:300]}"
