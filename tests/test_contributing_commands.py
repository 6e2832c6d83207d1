"""CONTRIBUTING.md's commands that work on the checkout itself run as written: the pytest
commands of the development loop (up to collection: they select parts of this suite) and the
refactor check (in a clone). tests/test_shown_commands.py accounts for every other command."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from test_shown_commands import BIN, ROOT, argv, fenced, kind, shown


@pytest.mark.parametrize(
    ("page", "command"), [pc for pc in shown() if kind(pc[1]) == "pytest"], ids=lambda x: x
)
def test_a_pytest_command_collects_as_written(page, command):
    """The pytest commands of the development loop select parts of this suite: each is run as
    written up to collection (options, paths and -k expressions are right, and it selects
    tests), without running them a second time."""
    words = argv(shlex.split(command)) + ["--collect-only", "-q", "-p", "no:cacheprovider"]
    words += ["--assert=plain"]  # (collecting, it runs no assert: no need to rewrite them)
    done = subprocess.run(words, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{page}: {command}\n{done.stdout[-2000:]}{done.stderr[-2000:]}"
    assert re.search(r"^tests/\S+\.py: \d+$", done.stdout, re.M), done.stdout[-500:]


def refactor_block() -> list[str]:
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    section = text.split("### Refactors keep every output byte for byte", 1)[1]
    start = section.index("```bash")
    return fenced(section[start : section.index("```", start + 7) + 3])


def test_the_refactor_check_runs(tmp_path):
    """CONTRIBUTING's refactor check, as written, in a clone of this checkout with a change in
    its working tree (every hash on the subset ``--only fit/play_tennis/``, to stay quick)."""
    git = shutil.which("git")
    if git is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout (an sdist): the refactor check compares commits")
    clone = tmp_path / "id3tree"
    subprocess.run([git, "clone", "-q", str(ROOT), str(clone)], check=True, timeout=120)
    (clone / "README.md").write_text("a change in the working tree\n", encoding="utf-8")
    block = refactor_block()
    assert len(block) == 5 and "--save before.json" in block[1]
    env = {"PATH": f"{BIN}:{Path(git).parent}", "HOME": str(tmp_path), "PYTHONPATH": str(clone)}
    for line in block:
        words = shlex.split(line)
        extra = {}
        while "=" in words[0]:  # VARIABLE=value before the command
            name, value = words.pop(0).split("=", 1)
            extra[name] = value
        if "tools/output_hashes.py" in line:  # every hash of one data set's fits, to stay quick
            if "--only" in words:
                del words[words.index("--only") : words.index("--only") + 2]
            words += ["--only", "fit/play_tennis/"]
        done = subprocess.run(
            argv(words), cwd=clone, env={**env, **extra}, capture_output=True, text=True,
            timeout=600,
        )  # fmt: skip
        assert done.returncode == 0, f"{line}\n{done.stdout[-1500:]}{done.stderr[-1500:]}"
    assert "0 differ" in done.stdout
    assert not (tmp_path / "id3tree-before").exists()  # the checkout of HEAD is gone
