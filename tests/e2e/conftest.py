"""Playwright fixtures: Debian's Chromium, one browser for the whole session, one static server on port 0 that
serves the site built once by ``built_site``, a guard on every page that fails the test on any request leaving
127.0.0.1 or any console error, and the session's started widget pages (``started``), so that a test that needs a
ready calculator does not pay for another cold start of the runtime."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from calc_pages import READY_MS, url
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


# ------------------------------------------------------------------------------------------------------------
# Started pages, shared by the session: a cold start of Pyodide costs seconds on two busy cores, and most tests need
# only a widget page whose runtime is ready. The tests that are about starting (stages, failures, links applied at
# load, reloads) open their own pages.
# ------------------------------------------------------------------------------------------------------------
#: The viewport of each shared page (the calculator page is taller, so that the estimator's results are in view).
STARTED_VIEWPORTS = {"calculator/": {"width": 1280, "height": 900}}
DEFAULT_VIEWPORT = {"width": 1280, "height": 720}


@dataclass
class Started:
    """A widget page as it loaded, then with every widget's runtime ready."""
    page: object
    status: int                     # HTTP status of its load
    runtime_at_load: str            # data-calc-runtime when the load event fired, before any scrolling
    #: root id -> (fragment HTML, {slot: its HTML}, data-calc-state) as the build wrote them, read at load
    prerendered: dict[str, tuple[str, dict[str, str], str]]
    viewport: dict[str, int]

    def restore_viewport(self) -> None:
        self.page.set_viewport_size(self.viewport)


@pytest.fixture(scope="session")
def _started_pages(browser, site_url):
    context = browser.new_context(viewport=DEFAULT_VIEWPORT)
    g = Guard()
    watch(context, g)
    pages: dict[tuple[str, str], Started] = {}

    def get(lang: str, path: str) -> Started:
        if (lang, path) not in pages:
            viewport = STARTED_VIEWPORTS.get(path, DEFAULT_VIEWPORT)
            page = context.new_page()
            page.set_viewport_size(viewport)
            response = page.goto(url(site_url, lang, path))
            runtime = page.evaluate("document.documentElement.dataset.calcRuntime")
            prerendered = {r["id"]: (r["fragment"], r["slots"], r["state"]) for r in page.locator(
                "[data-calc-root]").evaluate_all("""roots => roots.map(r => ({
                  id: r.id, state: r.dataset.calcState || "",
                  fragment: r.querySelector("[data-calc-fragment]").innerHTML,
                  slots: Object.fromEntries([...r.querySelectorAll("[data-calc-slot-out]")].map(
                    e => [e.dataset.calcSlotOut, e.innerHTML]))}))""")}
            assert prerendered, f"{path} has no widget"
            for root in page.locator("[data-calc-root]").all():
                root.scroll_into_view_if_needed()          # the runtime starts when a widget comes near the view
                expect(root).to_have_attribute("data-calc-state", "ready", timeout=READY_MS)
            expect(page.locator("html")).to_have_attribute("data-calc-runtime", "ready")
            page.evaluate("window.scrollTo(0, 0)")
            pages[(lang, path)] = Started(page, response.status, runtime, prerendered, viewport)
        return pages[(lang, path)]

    yield get, g
    context.close()


@pytest.fixture
def started(_started_pages):
    """``started(lang, path)``: the session's page at that address with every widget ready (opened on first use).
    A test that changes a widget or the viewport puts it back. Anything its guard records during the test (a request
    off the host, a console or page error) fails that test."""
    get, g = _started_pages
    seen = len(g.external), len(g.console_errors), len(g.page_errors)
    yield get
    new = Guard(g.external[seen[0]:], g.console_errors[seen[1]:], g.page_errors[seen[2]:])
    problems = new.problems()
    assert not problems, "\n".join(problems)
