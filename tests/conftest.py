"""Test-wide settings: matplotlib draws off screen, hypothesis never times an example (and CI
runs it derandomized so a red build can always be reproduced), and a headless Chromium for the
tests of pages."""

import os
import shutil

import matplotlib
import pytest
from hypothesis import HealthCheck, settings

matplotlib.use("Agg")

# no test depends on the machine's speed (a loaded 2-core machine passes as an idle one): no
# deadline per example and no "too slow" health check, here as in CI
settings.register_profile("unhurried", deadline=None, suppress_health_check=[HealthCheck.too_slow])
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
