"""The documentation site builds with warnings as errors, and its pages load cleanly in Chromium.

The build command is the README's, run as written in a copy of the checkout (the build copies
the tutorials into ``docs/tutorials`` and writes the site into ``docs/_build``: in the copy, so
the checkout is left as it was). The tutorials are shown with their stored outputs, which the
suite checks against a fresh run of each (tests/tutorial_runs.py); the pages' own code cells run
during the build.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def readme_docs_command() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    match = re.search(r"^(\.venv/bin/python -m sphinx .*)$", text, re.M)
    assert match, "the README names the command that builds the documentation"
    return match.group(1)


def copy_of_the_checkout(into: Path) -> Path:
    """What the build reads, copied (the package, for the pages that quote its source and for
    autodoc) or linked read-only (the tutorials and data sets)."""
    skip = shutil.ignore_patterns("_build", "tutorials", "__pycache__")
    shutil.copytree(ROOT / "docs", into / "docs", ignore=skip)
    shutil.copytree(
        ROOT / "id3tree", into / "id3tree", ignore=shutil.ignore_patterns("__pycache__")
    )
    for name in ("tutorials", "datasets"):
        try:
            (into / name).symlink_to(ROOT / name, target_is_directory=True)
        except OSError:  # no symbolic links here: a copy
            shutil.copytree(ROOT / name, into / name)
    return into


def docs_folder_state() -> dict[str, int]:
    """Every file under the checkout's docs/ with its last change (ns)."""
    return {str(p): p.stat().st_mtime_ns for p in (ROOT / "docs").rglob("*") if p.is_file()}


BEFORE_AND_AFTER: list[dict[str, int]] = []


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    BEFORE_AND_AFTER.append(docs_folder_state())
    checkout = copy_of_the_checkout(tmp_path_factory.mktemp("checkout"))
    command = readme_docs_command().split()
    assert command[-1] == "docs/_build/html"
    command = [sys.executable, *command[1:]]  # the README's .venv/bin/python is this one
    done = subprocess.run(command, cwd=checkout, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, (done.stdout + done.stderr)[-5000:]
    BEFORE_AND_AFTER.append(docs_folder_state())
    return checkout / "docs" / "_build" / "html"


def test_site_has_the_pages_a_reader_needs(site):
    for page in ("index", "getting_started", "teaching", "command_line", "api/learner"):
        assert (site / f"{page}.html").is_file(), page
    tutorials = sorted(p.stem for p in (ROOT / "tutorials").glob("*.ipynb"))
    built = sorted(p.stem for p in (site / "tutorials").glob("*.html"))
    assert built == tutorials
    for page in (ROOT / "docs").glob("*.md"):
        assert (site / f"{page.stem}.html").is_file(), f"docs/{page.name} is not on the site"
    index = (site / "index.html").read_text(encoding="utf-8")
    for page in (ROOT / "docs").glob("*.md"):
        if page.stem != "index":
            assert f'href="{page.stem}.html"' in index, f"docs/{page.name} is not in the menu"
    api = (site / "api" / "learner.html").read_text(encoding="utf-8")
    assert "ID3Classifier" in api and "worked_solution" in api and "min_samples_leaf" in api
    # the tutorials show their outputs: Play Tennis's gain table, as stored
    tennis = (site / "tutorials" / "02_information_gain_and_id3.html").read_text(encoding="utf-8")
    assert "0.2467" in tennis
    # the pages' own code cells ran during the build: getting started shows the gains it computed
    start = (site / "getting_started.html").read_text(encoding="utf-8")
    assert "0.2467" in start


def test_the_build_leaves_the_checkout_alone(site):
    """It wrote into the copy (the site, the copies of the tutorials): the checkout's docs/
    folder holds the same files, unchanged."""
    assert (site.parents[1] / "tutorials").is_dir()  # the copy's docs/tutorials, made by conf.py
    before, after = BEFORE_AND_AFTER
    assert after == before


def test_site_needs_no_network(site):
    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert not re.search(r'<script[^>]+src="https?://', text), page
        assert not re.search(r'<link[^>]+href="https?://', text), page


@pytest.mark.parametrize(
    "page, expect",
    [
        ("index.html", "Decision trees with entropy"),
        ("api/learner.html", "ID3Classifier"),
        ("tutorials/02_information_gain_and_id3.html", "Play Tennis"),
        ("teaching.html", "Step 0 (steps 0 to 7)"),
    ],
)
def test_pages_load_without_console_errors(site, browser_page, page, expect):
    browser_page.page.goto((site / page).as_uri())
    browser_page.page.wait_for_load_state("load")
    assert expect in browser_page.page.inner_text("body")
    assert browser_page.errors == []


def test_worked_solutions_are_typeset_as_mathematics(site):
    """The teaching page's worked solution is MathML written at build time (no MathJax)."""
    page = (site / "teaching.html").read_text(encoding="utf-8")
    formulas = re.findall(r"<math[^>]*>.*?</math>", page, re.S)
    assert any("<mfrac>" in f and "log" in f for f in formulas)  # H(S) written out
    assert any("Gain" in f and "Outlook" in f and "≈" in f for f in formulas)
    assert 'class="tex"' not in page  # no formula fell back to its LaTeX source
    assert "$$" not in page
