"""Helpers the browser tests share (imported by them; not a test module): addresses in either language, waiting for
the calculator's runtime, and what CPython renders for a widget, compared as the browser's DOM."""
from __future__ import annotations

from playwright.sync_api import expect

from calculator import widgets as W
from calculator.display import Strings
from sitebuild.strings import calc_strings
from tests.lazy import OnFirstUse

READY_MS = 90_000  # the most to wait for the runtime: a cold Pyodide start on two busy cores
S = OnFirstUse(("ar", "en"), lambda lang: Strings(calc_strings(lang), lang))   # read by the tests, not at import


def url(base: str, lang: str, path: str) -> str:
    return f"{base}{'en/' if lang == 'en' else ''}{path}"


def wait_ready(page, selector: str = "[data-calc-root]") -> None:
    page.locator(selector).first.scroll_into_view_if_needed()
    page.wait_for_function("document.documentElement.dataset.calcRuntime === 'ready'", timeout=READY_MS)
    expect(page.locator(selector).first).to_have_attribute("data-calc-state", "ready", timeout=READY_MS)


def normalised(page, html: str) -> str:
    """Markup as this browser serialises it (attribute quoting, void tags), so that strings compare as DOM."""
    return page.evaluate("h => { const t = document.createElement('template'); t.innerHTML = h; return t.innerHTML; }",
                         html)


def python_render(kind: str, state: dict, fixed: dict, lang: str) -> tuple[str, dict]:
    """What calculator.widgets renders on CPython for this state: the results fragment and the slots."""
    fragment, results, errors = W.render_results(S[lang], kind, state, fixed)
    assert not errors, errors
    return fragment, W.slots(S[lang], kind, results)
