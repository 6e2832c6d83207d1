"""Build the release files, check them, install the wheel into a fresh venv and use it there.

``python -m build`` makes the sdist and, from it, the wheel (as a release would); ``twine check``
reads both as the package index would. The wheel must carry the licence and the data sets'
sources, the ``datasets/`` folder as ``id3tree/_data``, and the ``id3tree`` command, which runs
``id3tree demo`` from a fresh venv without the source checkout. No network is used: both are
built with the current interpreter's hatchling (``--no-isolation``), and the new venv borrows
the current interpreter's installed dependencies through a ``.pth`` file (but not the checkout).
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
DISTRIBUTION = "id3tree_learn"  # id3tree-learn on the package index, normalised in file names
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


def clean_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "PIP_", "VIRTUAL"))}
    env.update(PIP_NO_INPUT="1", PIP_DISABLE_PIP_VERSION_CHECK="1", PYTHONNOUSERSITE="1")
    return env


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, Path]:
    """The sdist and the wheel that ``python -m build`` makes from the checkout, offline."""
    for module in ("hatchling", "build"):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"{module} is not installed (pip install -e .[dev]), cannot build")
    work = tmp_path_factory.mktemp("dist")
    assert REPO_ROOT not in work.resolve().parents
    run([sys.executable, "-m", "build", "--no-isolation", "-o", work, REPO_ROOT], work, clean_env())
    (sdist,) = work.glob(f"{DISTRIBUTION}-*.tar.gz")
    (wheel,) = work.glob(f"{DISTRIBUTION}-*.whl")
    return {"sdist": sdist, "wheel": wheel, "dir": work}


@pytest.fixture(scope="module")
def venv(built, tmp_path_factory) -> Path:
    """A fresh venv without pip, the wheel installed; dependencies visible through a .pth file."""
    work = tmp_path_factory.mktemp("venv")
    env = clean_env()
    venv = work / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", venv], work, env)
    code = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    site = Path(run([python_of(venv), "-c", code], work, env).stdout.strip())
    (site / "id3tree_test_deps.pth").write_text("\n".join(dependency_dirs()) + "\n")
    install = ["--python", python_of(venv), "install", "--no-deps", "--no-index", built["wheel"]]
    run([sys.executable, "-m", "pip", *install], work, env)
    return venv


def python_of(venv: Path) -> Path:
    return venv / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")


def test_release_files_pass_twine_check_and_carry_the_licences(built):
    if importlib.util.find_spec("twine") is None:
        pytest.skip("twine is not installed (pip install -e .[dev])")
    files = [built["sdist"], built["wheel"]]
    out = run(
        [sys.executable, "-m", "twine", "check", "--strict", *files], built["dir"], clean_env()
    )
    assert out.stdout.count("PASSED") == 2, out.stdout

    with zipfile.ZipFile(built["wheel"]) as archive:
        names = set(archive.namelist())
        (metadata,) = [n for n in names if n.endswith(".dist-info/METADATA")]
        meta = archive.read(metadata).decode()
    assert "Name: id3tree-learn\n" in meta
    assert "License-Expression: BSD-3-Clause\n" in meta
    for version in ("3.10", "3.11", "3.12", "3.13"):  # the versions the wheel is tested on
        assert f"Classifier: Programming Language :: Python :: {version}\n" in meta
    assert "Classifier: Typing :: Typed\n" in meta and "id3tree/py.typed" in names
    init = (REPO_ROOT / "id3tree" / "__init__.py").read_text(encoding="utf-8")
    version = init.split('__version__ = "', 1)[1].split('"', 1)[0]
    assert f"Version: {version}\n" in meta  # the version has one home, id3tree/__init__.py
    licences = {n.rsplit("/", 1)[-1] for n in names if ".dist-info/licenses/" in n}
    assert {"LICENSE", "SOURCES.md"} <= licences, names
    licence = (REPO_ROOT / "LICENSE").read_text(encoding="utf-8")
    assert (
        "BSD 3-Clause License" in licence and "Neither the name of the copyright holder" in licence
    )

    with tarfile.open(built["sdist"]) as archive:
        members = {m.name.split("/", 1)[1] for m in archive.getmembers() if "/" in m.name}
    for file in ["LICENSE", "CHANGELOG.md", "CONTRIBUTING.md", "README.md", "datasets/SOURCES.md"]:
        assert file in members, file
    # what the tests read besides the package: the sdist's tests run from it as from a checkout
    for file in [".ci/run", "tests/test_wheel.py", "tools/output_hashes.py", "docs/conf.py",
                 "benchmarks/bench_learner.py", "tests/tutorial_runs.py", "id3tree/py.typed"]:  # fmt: skip
        assert file in members, file


def test_wheel_installs_and_loads_every_dataset(built, venv):
    with zipfile.ZipFile(built["wheel"]) as archive:
        names = set(archive.namelist())
    for file in ["SOURCES.md", "iris.csv", "adult_train.csv", "adult_test.csv", "mushroom.csv"]:
        assert f"id3tree/_data/{file}" in names
    assert "id3tree/datasets.py" in names
    assert not any(name.startswith(("datasets/", "tests/")) for name in names)

    # Import from outside the checkout (-I: no cwd, PYTHONPATH or user site on sys.path).
    out = run([python_of(venv), "-I", "-c", CHILD, venv], venv.parent, clean_env()).stdout
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


def test_the_installed_command_runs_the_demo(venv, tmp_path):
    command = venv / ("Scripts/id3tree.exe" if sys.platform == "win32" else "bin/id3tree")
    assert command.exists()
    out = run([command, "demo", "--out", tmp_path], tmp_path, clean_env()).stdout
    assert "Node 0 [root]: 14 samples (No: 5, Yes: 9), entropy 0.9403" in out
    assert "split on Outlook" in out
    version = run([command, "--version"], tmp_path, clean_env()).stdout
    assert version.startswith("id3tree ") and version.split()[1][0].isdigit()
    drawings = list(tmp_path.glob("play_tennis_tree.*"))
    assert drawings and all(d.stat().st_size > 0 for d in drawings), drawings
