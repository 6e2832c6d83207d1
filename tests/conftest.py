"""Test-wide settings: matplotlib draws off screen, hypothesis never times an example (and CI
runs it derandomized so a red build can always be reproduced), a headless Chromium for the
tests of pages, and pdflatex for the tests of LaTeX. Two checks of the whole run: no test file
over its time budget (tests/file_budget.py), and no file left in the checkout."""

import atexit
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import matplotlib
import pytest
from hypothesis import HealthCheck, settings

matplotlib.use("Agg")

# no test depends on the machine's speed (a loaded 2-core machine passes as an idle one): no
# deadline per example and no "too slow" health check, here as in CI
# nor keeps a database of examples, nor its other files, in the checkout (the suite writes only
# in temporary folders): its folder is a temporary one, removed at the end
if "HYPOTHESIS_STORAGE_DIRECTORY" not in os.environ:
    os.environ["HYPOTHESIS_STORAGE_DIRECTORY"] = tempfile.mkdtemp(prefix="id3tree-hypothesis-")
    atexit.register(shutil.rmtree, os.environ["HYPOTHESIS_STORAGE_DIRECTORY"], True)
settings.register_profile(
    "unhurried", deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None
)
settings.register_profile(
    "ci", settings.get_profile("unhurried"), derandomize=True, print_blob=True
)
settings.load_profile("ci" if os.environ.get("CI") else "unhurried")


CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def chromium_path() -> str | None:
    for name in (os.environ.get("ID3TREE_CHROMIUM"), "chromium", "chromium-browser"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


@pytest.fixture(scope="session")
def chromium():
    """A headless Chromium from the system's packages (never downloaded), driven by Playwright;
    tests that use it skip only when no Chromium is installed (CI installs Debian's)."""
    path = chromium_path()
    if path is None:
        pytest.skip("no Chromium installed (apt-get install chromium); CI installs it")
    from playwright.sync_api import sync_playwright  # a dev dependency: its absence is an error

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


class BrowserPage:
    """A page that records console errors, uncaught exceptions and failed requests."""

    def __init__(self, browser):
        self.page = browser.new_page()
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(f"uncaught: {e}"))
        self.page.on("requestfailed", lambda r: self.errors.append(f"failed: {r.url}"))
        self.page.on("dialog", lambda d: (self.errors.append(f"dialog: {d.message}"), d.dismiss()))


@pytest.fixture
def browser_page(chromium):
    """A fresh :class:`BrowserPage` in the shared Chromium, closed after the test."""
    view = BrowserPage(chromium)
    yield view
    view.page.close()


@pytest.fixture
def compile_latex(tmp_path):
    """Compile a LaTeX document with pdflatex in the test's own folder: ``compile_latex(text)``
    returns pdflatex's log once it has asserted success and a PDF. Where pdflatex is not
    installed (CI installs texlive-latex-base), the call skips the test, so what a test checks
    before compiling still runs."""

    def compile_document(document: str, name: str = "page") -> str:
        engine = shutil.which("pdflatex")
        if engine is None:
            pytest.skip("no pdflatex installed (texlive-latex-base); CI installs it")
        (tmp_path / f"{name}.tex").write_text(document, encoding="utf-8")
        done = subprocess.run(
            [engine, "-interaction=nonstopmode", "-halt-on-error", f"{name}.tex"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=180,
        )
        log = (tmp_path / f"{name}.log").read_text(encoding="latin-1")
        assert done.returncode == 0, log[-3000:]
        assert (tmp_path / f"{name}.pdf").stat().st_size > 1000
        return log

    return compile_document


ROOT = Path(__file__).resolve().parents[1]
UNSEEN = {".git", ".venv", "__pycache__", ".ruff_cache", ".mypy_cache", "_build", "build", "dist"}
"""Folders of the checkout the check of new files does not look into (caches and builds)."""


def checkout_files() -> set[str]:
    """Every file of the checkout, but those under :data:`UNSEEN` folders."""
    found = set()
    for folder, folders, files in os.walk(ROOT):
        folders[:] = [f for f in folders if f not in UNSEEN and not f.endswith(".egg-info")]
        found.update(os.path.relpath(os.path.join(folder, f), ROOT) for f in files)
    return found


class CheckoutUntouched:
    """The run writes its files in temporary folders: a file that appears in the checkout
    during the run (a drawing, a copy of a tutorial, a database of examples) fails it."""

    def __init__(self) -> None:
        self.before = checkout_files()

    def new_files(self) -> list[str]:
        return sorted(checkout_files() - self.before)

    def pytest_terminal_summary(self, terminalreporter) -> None:
        for path in self.new_files():
            terminalreporter.write_line(f"WRITTEN IN THE CHECKOUT: {path}", red=True)

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session, exitstatus) -> None:
        if self.new_files() and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_configure(config):
    """A test of each tutorial (tests/tutorial_runs.py), every test file within its time budget
    (tests/file_budget.py), nothing written in the checkout (checked by the process that
    reports, the controller under pytest-xdist)."""
    from file_budget import FileBudget
    from tutorial_runs import TutorialCollector

    config.pluginmanager.register(TutorialCollector(), "id3tree-tutorials")
    reports = not hasattr(config, "workerinput")
    config.pluginmanager.register(FileBudget(counts=reports), "id3tree-file-budget")
    if reports:
        config.pluginmanager.register(CheckoutUntouched(), "id3tree-checkout-untouched")
