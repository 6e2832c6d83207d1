"""Build the wheel, install it into a fresh venv and load every bundled data set from there.

This checks that the ``datasets/`` folder really ends up inside the wheel as ``id3tree/_data``
and that the loader finds it without the source checkout. No network is used: the wheel is
built with the current interpreter's hatchling, and the new venv borrows the current
interpreter's installed dependencies through a ``.pth`` file (but not the checkout itself).
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
DEPENDENCIES = ["numpy", "pandas", "scipy", "sklearn", "graphviz", "matplotlib", "dateutil"]
EXPECTED = {
    "adult": (32561, 15),
    "breast_cancer": (569, 32),
    "car": (1728, 7),
    "hmeq": (5960, 13),
    "iris": (150, 5),
    "mushroom": (8124, 23),
    "play_tennis": (14, 5),
    "titanic": (891, 12),
}
CHILD = """
import sys
from pathlib import Path

import id3tree
from id3tree import datasets

venv = Path(sys.argv[1]).resolve()
print("FILE", Path(id3tree.__file__).resolve())
print("DATA", datasets._data_dir())
assert venv in Path(id3tree.__file__).resolve().parents, id3tree.__file__
assert venv in datasets._data_dir().parents, datasets._data_dir()
for name in datasets.list_datasets()["name"]:
    rows, cols = datasets.load(name).shape
    print("SHAPE", name, rows, cols)
print("TEST", *datasets.load_adult("test").shape)
"""


def run(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    result = subprocess.run(
        [str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, f"{args}\nstdout:\n{result.stdout}\nstderr:\n{result.stderr}"
    return result


def dependency_dirs() -> list[str]:
    """The folders that hold the dependencies' packages (site-packages), never the checkout."""
    dirs = []
    for module in DEPENDENCIES:
        spec = importlib.util.find_spec(module)
        if spec is None or spec.origin is None:
            continue
        folder = Path(spec.origin).resolve().parent.parent
        if folder != REPO_ROOT and str(folder) not in dirs:
            dirs.append(str(folder))
    return dirs


def test_wheel_installs_and_loads_every_dataset(tmp_path_factory):
    if importlib.util.find_spec("hatchling") is None:
        pytest.skip("hatchling is not installed (pip install -e .[dev]), cannot build the wheel")
    work = tmp_path_factory.mktemp("wheel")
    assert REPO_ROOT not in work.resolve().parents
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "PIP_", "VIRTUAL"))}
    env.update(PIP_NO_INPUT="1", PIP_DISABLE_PIP_VERSION_CHECK="1", PYTHONNOUSERSITE="1")

    # 1. Build the wheel from the checkout, offline.
    wheels = work / "dist"
    pip_wheel = ["wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w", wheels]
    run([sys.executable, "-m", "pip", *pip_wheel, REPO_ROOT], cwd=work, env=env)
    (wheel,) = wheels.glob("id3tree-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    for file in ["SOURCES.md", "iris.csv", "adult_train.csv", "adult_test.csv", "mushroom.csv"]:
        assert f"id3tree/_data/{file}" in names
    assert "id3tree/datasets.py" in names
    assert not any(name.startswith(("datasets/", "tests/")) for name in names)

    # 2. A fresh venv without pip; the current dependencies become visible through a .pth file.
    venv = work / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", venv], cwd=work, env=env)
    bindir = venv / ("Scripts" if sys.platform == "win32" else "bin")
    python = bindir / ("python.exe" if sys.platform == "win32" else "python")
    code = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    site = Path(run([python, "-c", code], cwd=work, env=env).stdout.strip())
    (site / "id3tree_test_deps.pth").write_text("\n".join(dependency_dirs()) + "\n")

    # 3. Install the wheel with the current pip, targeting the new venv's interpreter.
    install = ["--python", python, "install", "--no-deps", "--no-index", wheel]
    run([sys.executable, "-m", "pip", *install], cwd=work, env=env)

    # 4. Import from outside the checkout (-I: no cwd, PYTHONPATH or user site on sys.path).
    out = run([python, "-I", "-c", CHILD, venv], cwd=work, env=env).stdout
    print(out)
    lines = out.splitlines()
    assert any(line.startswith("FILE ") for line in lines), out
    shapes = {}
    for line in lines:
        if line.startswith("SHAPE "):
            _, name, rows, cols = line.split()
            shapes[name] = (int(rows), int(cols))
    assert shapes == EXPECTED, out
    assert "TEST 16281 15" in lines, out
