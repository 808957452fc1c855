"""Shared fixtures (Flask tutorial style): an app on a temporary database, its test client, a real
waitress server on a free loopback port, and a headless Debian Chromium driven by Playwright.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


@pytest.fixture
def app(tmp_path: Path):
    from web import create_app

    # photos are read in the test process (PHOTO_WORKERS=0): a worker process per short-lived test app would
    # spend seconds importing the vision pipeline; tests/test_web_photoqueue.py covers the worker pool
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "mapsmith.sqlite3"), "SECRET_KEY": "test-key",
                      "PHOTO_WORKERS": 0})
    yield app


@pytest.fixture
def client(app):
    return app.test_client()


def csrf_token(client) -> str:
    """The session's CSRF token, read from a page's meta tag exactly as the browser script does."""
    html = client.get("/").get_data(as_text=True)
    match = re.search(r'<meta name="csrf-token" content="([^"]+)"', html)
    assert match, "every page carries the CSRF token"
    return match.group(1)


class LiveServer:
    """A waitress server for one Flask app, in a thread, on 127.0.0.1 (port 0 = any free port)."""

    def __init__(self, app, port: int = 0, threads: int = 8):
        from web.server import make_server  # the settings `mapsmith serve` uses

        self.app = app
        self.server = make_server(app, host="127.0.0.1", port=port, threads=threads, ident="mapsmith-test")
        self.port = self.server.effective_port
        self.url = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.server.close()
        self.thread.join(timeout=5)


@pytest.fixture
def live_server(app) -> Iterator[LiveServer]:
    server = LiveServer(app)
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"browser tests need Debian's chromium at {CHROMIUM} (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    pw = sync_playwright().start()
    browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
    yield browser
    browser.close()
    pw.stop()


@pytest.fixture
def context_factory(browser):
    """New isolated browser contexts (one per phone), closed after the test; default 360 px wide phone."""
    contexts = []

    def make(locale: str = "en-US", width: int = 360, height: int = 780):
        ctx = browser.new_context(locale=locale, viewport={"width": width, "height": height},
                                  extra_http_headers={"Accept-Language": locale})
        ctx.set_default_timeout(10_000)
        contexts.append(ctx)
        return ctx

    yield make
    for ctx in contexts:
        ctx.close()


@pytest.fixture
def page(context_factory):
    return context_factory().new_page()
