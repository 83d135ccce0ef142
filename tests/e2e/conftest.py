"""Playwright fixtures: Debian's Chromium, one browser for the whole session, one static server on port 0 that
serves the site built once by ``built_site``, and a guard on every page that fails the test on any request
leaving 127.0.0.1 or any console error."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from sitebuild.serve import serve_in_thread

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-domain-reliability",
    "--disable-client-side-phishing-detection",
    "--metrics-recording-only",
]


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs Debian's chromium")
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS, "headless": True}


@pytest.fixture(scope="session")
def site_url(built_site):
    """Base URL (ending in '/') of the built site served at the root."""
    server, url = serve_in_thread(built_site)
    yield url
    server.shutdown()


@pytest.fixture(scope="session")
def subpath_site_url(built_site):
    """The same built site served under a sub-path, as on a shared static host."""
    server, url = serve_in_thread(built_site, prefix="/guide/")
    yield url
    server.shutdown()


_HTML_LANG = re.compile(r'<html lang="(?P<lang>[^"]*)"')
MISSING_PATH = "no/such/page/"


@pytest.fixture(scope="session")
def missing_path() -> str:
    """A path under the site root that no file answers: where the tests meet the 404 page."""
    return MISSING_PATH


@pytest.fixture(scope="session")
def site_pages(built_site) -> list[tuple[str, str]]:
    """(path, lang) of every HTML document in the built site, from the files (so a page added later is included):
    ``index.html`` files by their folder ("", "en/articles/vram-guide/"), 404.html as the missing path it is served
    for, any other file by its own path; lang from its <html lang> ("" if it has none)."""
    pages = []
    for path in sorted(Path(built_site).rglob("*.html")):
        rel = path.relative_to(built_site).as_posix()
        match = _HTML_LANG.search(path.read_text(encoding="utf-8", errors="replace"))
        lang = match["lang"] if match else ""
        if rel == "404.html":
            pages.append((MISSING_PATH, lang))
        elif path.name == "index.html":
            pages.append((rel[: -len("index.html")], lang))
        else:
            pages.append((rel, lang))
    return pages


@dataclass
class Guard:
    external: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    allow_console: list[str] = field(default_factory=list)  # substrings a test expects (e.g. a blocked wasm)

    def problems(self) -> list[str]:
        errors = [e for e in self.console_errors if not any(a in e for a in self.allow_console)]
        return [*(f"request left the host: {u}" for u in self.external),
                *(f"console error: {e}" for e in errors),
                *(f"page error: {e}" for e in self.page_errors)]


def watch(context, g: Guard) -> None:
    """Abort every request of ``context`` that leaves 127.0.0.1 and record it in ``g``, with console and page
    errors."""

    def route(route):
        host = urlsplit(route.request.url).hostname or ""
        if route.request.url.startswith(("data:", "blob:")) or host in ("127.0.0.1", "localhost"):
            route.continue_()
        else:
            g.external.append(route.request.url)
            route.abort()

    context.route("**/*", route)
    context.on("console", lambda m: g.console_errors.append(m.text) if m.type == "error" else None)
    context.on("weberror", lambda e: g.page_errors.append(str(e.error)))


@pytest.fixture
def guard(context) -> Guard:
    """Abort every request that leaves 127.0.0.1 and record it; record console and page errors. The test fails
    at teardown if anything was recorded (tests that expect an error add a substring to ``allow_console``)."""
    g = Guard()
    watch(context, g)
    yield g
    problems = g.problems()
    assert not problems, "\n".join(problems)


@pytest.fixture(scope="module")
def guarded_context(browser):
    """A browser context with the off-host and console guard, for fixtures that outlive one test (a started page
    shared by a module's tests); it fails the module's last test if anything was recorded."""
    made = []

    def make(**options):
        context = browser.new_context(**options)
        g = Guard()
        watch(context, g)
        made.append((context, g))
        return context

    yield make
    problems = []
    for context, g in made:
        context.close()
        problems += g.problems()
    assert not problems, "\n".join(problems)
