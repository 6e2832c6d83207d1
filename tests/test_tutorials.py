"""The tutorials are stored with their outputs, so that a teacher who opens one on the
repository's page (which renders a notebook as it is stored, without running it) reads every
table, trace and figure.

They are stored as a top-to-bottom run leaves them (``python tutorials/store_outputs.py``); the
suite runs each once more (tests/tutorial_runs.py) and fails where a cell prints what is not
stored. What is checked here is what a fresh run cannot see: that every notebook was stored
after such a run, and that its outputs say nothing of the machine or the moment that made them
(paths, addresses, local servers, timings, warnings).
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


def test_a_changed_output_is_found_and_a_cut_stream_is_not():
    """The suite's run of a tutorial compares what each cell shows with what is stored
    (tutorials/store_outputs.py's ``differences``): a number that changed is found, with its
    cell; a stream the kernel cut in two places instead of one is the same text."""
    import copy
    import sys

    import nbformat

    sys.path.insert(0, str(TUTORIALS[0].parent))
    from store_outputs import differences

    stored = nbformat.read(TUTORIALS[1], as_version=4)
    assert differences(stored, copy.deepcopy(stored)) == []
    cells = [c for c in stored.cells if c.cell_type == "code"]
    number, cell = next(
        (i, c) for i, c in enumerate(cells, 1) if c.outputs and c.outputs[0].get("name") == "stdout"
    )
    cut = copy.deepcopy(stored)
    text = cell.outputs[0]["text"]
    cut_cell = [c for c in cut.cells if c.cell_type == "code"][number - 1]
    cut_cell.outputs[0]["text"] = text[:5]
    cut_cell.outputs.insert(1, nbformat.v4.new_output("stream", name="stdout", text=text[5:]))
    assert differences(stored, cut) == []
    changed = copy.deepcopy(stored)
    changed_cell = [c for c in changed.cells if c.cell_type == "code"][number - 1]
    changed_cell.outputs[0]["text"] = (
        text.replace(text.strip()[-1], "#", 1) if text.strip() else "x"
    )
    found = differences(stored, changed)
    assert len(found) == 1 and found[0].startswith(f"code cell {number}: stdout: stored ")


def test_a_cell_that_measures_time_is_compared_by_the_kinds_of_its_outputs():
    import copy
    import sys

    import nbformat

    sys.path.insert(0, str(TUTORIALS[0].parent))
    from store_outputs import differences

    stored = nbformat.v4.new_notebook()
    stored.cells = [
        nbformat.v4.new_code_cell(
            "start = time.perf_counter()\nprint(time.perf_counter() - start)",
            outputs=[nbformat.v4.new_output("stream", name="stdout", text="0.0013\n")],
        )
    ]
    later = copy.deepcopy(stored)
    later.cells[0].outputs[0]["text"] = "0.0021\n"
    assert differences(stored, later) == []
    later.cells[0].outputs = []
    assert differences(stored, later) == ["code cell 1: stored ['stdout'], now []"]


def test_every_tutorial_is_in_the_readmes_list():
    readme = (TUTORIALS[0].parents[1] / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Tutorials", 1)[1].split("\n## ", 1)[0]
    missing = [p.stem for p in TUTORIALS if f"`{p.stem}`" not in section]
    assert not missing, f"the README's list of tutorials lacks {missing}"
