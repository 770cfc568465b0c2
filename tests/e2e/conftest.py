"""A real browser for the workspace: Playwright for Python driving Debian's Chromium.

Chromium comes from `REDLINE_CHROMIUM` or the first of chromium, chromium-browser,
google-chrome on PATH; Playwright never downloads a browser. Without one the browser
tests FAIL when `CI` is set (CI must not go green without them) and are skipped, with
the reason, elsewhere (install it with `apt-get install chromium`).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NoReturn

import pytest

CHROMIUM_ENV = "REDLINE_CHROMIUM"
CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
# Root has no sandbox; the rest keeps Chromium off a network this machine does not have.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def _unavailable(reason: str) -> NoReturn:
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI is set, so this is a failure, not a skip)", pytrace=False)
    pytest.skip(reason)


def chromium_path() -> str:
    given = os.environ.get(CHROMIUM_ENV)
    if given:
        if not Path(given).exists():
            _unavailable(f"{CHROMIUM_ENV}={given} does not exist")
        return given
    for name in CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    _unavailable(f"no Chromium on PATH ({', '.join(CANDIDATES)}): apt-get install chromium, or set {CHROMIUM_ENV}")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium per test module."""
    path = chromium_path()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("playwright is not installed: pip install -e '.[test]'")
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=path, headless=True, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()
