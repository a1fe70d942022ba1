"""Fixtures for the browser tests: a real ``scorpion serve`` and a real Chromium.

Chromium is Debian's (/usr/bin/chromium, which .ci/run installs); Playwright only drives
it, it never downloads a browser.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
DOCS_SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def ensure_chromium() -> None:
    # .ci/run installs it; a test never installs system packages.
    if not Path(CHROMIUM).exists():
        raise RuntimeError("Chromium is missing: apt-get install -y chromium (see .ci/run)")


# Module scope, not session: Playwright's sync API keeps an event loop running while it is
# open, and the asyncio tests collected after tests/client need the loop to themselves.
@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    ensure_chromium()
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


PageFactory = Callable[..., Page]


@pytest.fixture
def new_page(browser: Browser) -> Iterator[PageFactory]:
    """Pages in separate browser contexts (separate players); page errors fail the test."""
    contexts: list[BrowserContext] = []
    errors: list[str] = []

    def make(
        width: int = 1280, height: int = 900, mobile: bool = False, bypass_csp: bool = False
    ) -> Page:
        ctx = browser.new_context(
            viewport={"width": width, "height": height},
            has_touch=mobile,
            is_mobile=mobile,
            device_scale_factor=2 if mobile else 1,
            bypass_csp=bypass_csp,  # lets a test inject a script (axe) into the page
        )
        contexts.append(ctx)
        page = ctx.new_page()
        page.set_default_timeout(10_000)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        return page

    yield make
    for ctx in contexts:
        ctx.close()
    assert not errors, f"JavaScript errors in the page: {errors}"


@pytest.fixture
def screenshots(tmp_path: Path) -> Path:
    """Where the tests save their screenshots: docs/screenshots/ when SCORPION_SCREENSHOTS=1
    (or when the docs have none yet), else the test's tmp_path, so that a test run does not
    rewrite committed pictures."""
    if (
        os.environ.get("SCORPION_SCREENSHOTS") == "1"
        or not (DOCS_SCREENSHOTS / "race.png").exists()
    ):
        DOCS_SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        return DOCS_SCREENSHOTS
    return tmp_path
