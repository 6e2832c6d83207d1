"""Every command README.md, CONTRIBUTING.md and the docs show runs as written.

The commands are read from the pages (their ``bash`` blocks, the table of the development loop,
and each ``id3tree ...`` written inline without placeholders) and each is accounted for: run
here, in a temporary folder, by this Python (``.venv/bin/X`` is this environment's ``X``, which
is the README's venv when the suite runs as the README says); or run by the test named beside
it; or, for the few that cannot run in a test, the reason. A command on no list fails, so a new
one is either run or given its reason.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
PAGES = ["README.md", "CONTRIBUTING.md"] + sorted(
    str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md")
)
PLACEHOLDER = re.compile(r"\b[A-Z][A-Z.,_]*\b|\[|\.\.\.")

SET_UP = "the README's set-up commands: CI runs them (.ci/run), as a new contributor does"
RUN_ELSEWHERE = {
    # the command's start: the test that runs it
    ".venv/bin/python -m sphinx ": "tests/test_docs.py builds the site with this command",
    ".venv/bin/python -m build && ": "tests/test_wheel.py builds both files and runs twine check",
    ".venv/bin/ruff check . && ": "tests/test_project.py::test_code_is_linted_and_formatted",
    ".venv/bin/python -m mypy": "tests/test_typing.py::test_mypy_passes",
    ".venv/bin/python tools/output_hashes.py --check": "tests/test_contributing_commands.py",
    ".venv/bin/python tools/catalogs.py ": "tests/test_language.py checks the catalogs it writes",
}
CANNOT_RUN = {
    "pip install id3tree-learn": "installs from the package index (the wheel's own test installs it)",
    'pip install "id3tree-learn[dask]"': "installs from the package index",
    'pip install "id3tree-learn[onnx]"': "installs from the package index",
    "dask scheduler": "a server for a cluster of machines",
    "dask worker ": "a server for a cluster of machines",
    "git worktree ": "tests/test_contributing_commands.py runs the block in a clone",
    "PYTHONPATH=../id3tree-before ": "tests/test_contributing_commands.py runs the block",
}


INLINE = re.compile(r"`(id3tree [^`]+)`")


def runnable(inline: str) -> bool:
    """An ``id3tree ...`` written inline is a command to run when it has its arguments (not a
    command's name in a sentence, a syntax with placeholders, or an error message)."""
    words = inline.split()[1:]
    if PLACEHOLDER.search(" ".join(words)) or words[0].endswith(":"):
        return False
    return words[0] == "demo" or words[0].startswith("--") or len(words) >= 2


def fenced(text: str) -> list[str]:
    lines = []
    for block in re.findall(r"```(?:bash|sh|shell|console)\n(.*?)```", text, re.S):
        block = re.sub(r"\\\n\s*", "", block)  # (a line continued with a backslash is one command)
        for line in block.splitlines():
            line = line.split("  #")[0].strip()
            if line and not line.startswith("#"):
                lines.append(line)
    return lines


def shown() -> list[tuple[str, str]]:
    found = []
    for page in PAGES:
        text = (ROOT / page).read_text(encoding="utf-8")
        commands = fenced(text)
        commands += [c for c in re.findall(r"^\| [^|]+ \| `(\.venv/bin/[^`]+)` \|", text, re.M)]
        commands += [c for c in map(" ".join, map(str.split, INLINE.findall(text))) if runnable(c)]
        found += [(page, c) for c in dict.fromkeys(commands)]
    return found


def readme_setup() -> list[str]:
    return fenced((ROOT / "README.md").read_text(encoding="utf-8"))[:2]


def kind(command: str) -> str:
    parts = {part for s in readme_setup() for part in s.split(" && ")}
    if set(command.split(" && ")) <= parts:
        return "set-up"
    if any(command.startswith(start) for start in RUN_ELSEWHERE):
        return "elsewhere"
    if any(command.startswith(start) for start in CANNOT_RUN):
        return "cannot"
    if command.startswith((".venv/bin/python -m pytest", "python -m pytest")):
        return "pytest"  # (tests/test_contributing_commands.py collects them)
    if re.match(r"(\.venv/bin/)?id3tree\b", command):
        return "id3tree"
    return "unknown"


def argv(words: list[str]) -> list[str]:
    """A command's words with ``.venv/bin/X`` and ``python`` as this environment's."""
    first = words[0]
    if first in ("python", "python3", ".venv/bin/python"):
        return [sys.executable, *words[1:]]
    if first in ("id3tree", ".venv/bin/id3tree"):
        return [sys.executable, "-m", "id3tree", *words[1:]]
    if first.startswith(".venv/bin/"):
        return [str(BIN / first.removeprefix(".venv/bin/")), *words[1:]]
    return words


def test_every_shown_command_is_accounted_for():
    unknown = [f"{page}: {command}" for page, command in shown() if kind(command) == "unknown"]
    assert not unknown, f"run these here, or say which test runs them: {unknown}"
    assert len(readme_setup()) == 2 and "pytest" in readme_setup()[1]
    docs_test = (ROOT / "tests" / "test_docs.py").read_text(encoding="utf-8")
    wheel_test = (ROOT / "tests" / "test_wheel.py").read_text(encoding="utf-8")
    assert "readme_docs_command()" in docs_test
    assert '"build"' in wheel_test and '"twine", "check", "--strict"' in wheel_test


READER_HAS = {
    # the files a page's commands read that the reader brings (the page says where they come from)
    "docs/classroom.md": {
        "roster.csv": "name,id\nAlice Martin,1001\nBob Li,1002\n",
        "submissions/Alice Martin_5501_assignsubmission_file_answers.json": "{ not json",
    },
}


def pages_with_commands() -> dict[str, list[str]]:
    commands: dict[str, list[str]] = {}
    for page, command in shown():
        if kind(command) == "id3tree":
            commands.setdefault(page, []).append(command)
    return commands


FORKED = """
import json, os, sys, traceback
import id3tree.learner  # (the libraries every command loads, loaded once for the page)
from id3tree.cli.commands import main

commands, capture = json.loads(sys.argv[1]), sys.argv[2]
codes = []
for i, words in enumerate(commands):
    pid = os.fork()
    if pid == 0:  # the command's own process, as the shell would start it
        code = 1
        try:
            for fd, name in ((1, "out"), (2, "err")):
                os.dup2(os.open(f"{capture}/{i}.{name}", os.O_WRONLY | os.O_CREAT), fd)
            sys.argv = ["id3tree", *words]
            code = main(words)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else int(exc.code is not None)
        except BaseException:
            traceback.print_exc()
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
    codes.append(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))
print(json.dumps(codes))
"""
"""Runs a page's ``id3tree`` commands, each in a process of its own forked from one that has
loaded the libraries (``python -m id3tree`` but for the interpreter's start, which would cost
a second and a half a command): so a command sees nothing another one left behind."""


def run_forked(commands: list[list[str]], cwd: Path, capture: Path) -> list[tuple[int, str]]:
    """Each command's exit code and what it wrote on standard error."""
    capture.mkdir()
    done = subprocess.run(
        [sys.executable, "-c", FORKED, json.dumps(commands), str(capture)],
        cwd=cwd, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    codes = json.loads(done.stdout.splitlines()[-1])
    return [(c, (capture / f"{i}.err").read_text(encoding="utf-8")) for i, c in enumerate(codes)]


def run_each(commands: list[list[str]], cwd: Path) -> list[tuple[int, str]]:
    """Each command as its own ``python -m id3tree``: where processes cannot be forked."""
    runs = [subprocess.run(argv(["id3tree", *c]), cwd=cwd, capture_output=True, text=True,
                           timeout=300) for c in commands]  # fmt: skip
    return [(run.returncode, run.stderr) for run in runs]


@pytest.mark.parametrize("page", list(pages_with_commands()))
def test_an_id3tree_command_runs_as_written(tmp_path, page):
    """A page's commands run in the order it shows them, in one folder, as a reader types them
    (so a page may make its secret before it uses it), with the files the reader brings."""
    folder = tmp_path / "reader"
    for name, text in READER_HAS.get(page, {}).items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    folder.mkdir(exist_ok=True)
    parts = [p for c in pages_with_commands()[page] for p in c.split(" && ")]
    words = [shlex.split(part) for part in parts]
    assert all(w[0] in ("id3tree", ".venv/bin/id3tree") for w in words), parts
    if hasattr(os, "fork"):
        runs = run_forked([w[1:] for w in words], folder, tmp_path / "capture")
    else:
        runs = run_each([w[1:] for w in words], folder)
    for part, (code, stderr) in zip(parts, runs, strict=True):
        assert code == 0, f"{page}: {part}\n{stderr[-2000:]}"
        assert "Traceback" not in stderr, f"{page}: {part}\n{stderr[-2000:]}"
