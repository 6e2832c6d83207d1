"""The project's promises about itself: the README's commands, CI, the layers, one entropy."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from id3tree.cli import main

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "id3tree"


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```bash\n(.*?)```", text, re.S)
    assert block, "the README must open with a bash block of set-up commands"
    assert text.index("```bash") < 1500, "the set-up commands must be on the README's first screen"
    return [line for line in block.group(1).splitlines() if line.strip()]


def test_readme_has_exactly_two_setup_commands():
    commands = readme_commands()
    assert len(commands) == 2
    assert "id3tree demo" in commands[0]
    assert "pytest" in commands[1]


def test_ci_runs_the_readmes_test_command():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert readme_commands()[1] in ci.splitlines()


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "id3tree":
            found.update(f"id3tree.{a.name}" for a in node.names)  # from id3tree import splits
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("id3tree"):
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("id3tree"))
    return found


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


LAYER_0 = {
    "id3tree._dask",  # detects a Dask collection without importing dask
    "id3tree._dask.core",
    "id3tree._dask.counted_splits",
    "id3tree._dask.measures",
    "id3tree._entropy",
    "id3tree.contingency",
    "id3tree.splits",
    "id3tree.information",
    "id3tree._validation",
}


def test_layers_point_down_only():
    modules = {module_name(p): imports_of(p) for p in PACKAGE.rglob("*.py")}
    for name, imported in modules.items():
        if name in LAYER_0:
            assert imported <= LAYER_0 | {"id3tree.datasets"} - {name}, (
                f"{name} reaches up: {imported - LAYER_0}"
            )
        if name.startswith("id3tree.render"):
            assert "id3tree.learner" not in imported and "id3tree.grow" not in imported, name
        if "id3tree.learner" in imported:
            # the exercises fit trees to make their answer keys: an application of the learner
            assert name in {"id3tree", "id3tree.cli", "id3tree.exercises"}, (
                f"{name} imports the learner"
            )


def test_shannons_formula_is_written_once():
    """Only _entropy.py takes logarithms of probabilities (information.py's KL is p log(p/q))."""
    for path in PACKAGE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        calls = re.findall(r"np\.log2?\(", text)
        if path.name == "_entropy.py":
            assert calls
        elif path.name == "information.py":
            assert len(calls) == 1 and "p[support] / q[support]" in text
        else:
            assert not calls, f"{path.name} computes a logarithm: use id3tree._entropy"


def test_no_machine_paths_in_the_project():
    pattern = re.compile(r"/(work|tmp|root|home)/")
    for path in ROOT.rglob("*"):
        if (
            path.is_file()
            and path.suffix in {".py", ".md", ".toml", ".txt", ".ipynb", ""}
            and ".venv" not in path.parts
            and ".git" not in path.parts
        ):
            if path.name == "run" or path.suffix:
                assert not pattern.search(path.read_text(encoding="utf-8", errors="ignore")), path


def test_demo_prints_the_trace_and_the_tree(capsys):
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    assert "overall entropy 0.6935, gain 0.9403 - 0.6935 = 0.2467" in out
    assert "|-- Outlook = Overcast" in out


def test_demo_runs_as_a_program():
    done = subprocess.run(
        [sys.executable, "-m", "id3tree", "demo"], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "split on Outlook" in done.stdout


def test_unknown_command_exits_2(capsys):
    assert main(["no-such-command"]) == 2
    assert "invalid choice" in capsys.readouterr().err


def test_code_is_linted_and_formatted():
    ruff = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))
    if not Path(ruff).exists():
        pytest.skip("ruff is not installed (it is in the dev extra)")
    for command in ([ruff, "check", "."], [ruff, "format", "--check", "."]):
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stdout + done.stderr
