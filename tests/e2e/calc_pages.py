"""Helpers the browser tests share (imported by them; not a test module): addresses in either language, waiting for
the calculator's runtime, and what CPython renders for a widget, compared as the browser's DOM."""
from __future__ import annotations

from playwright.sync_api import expect

from calculator.page import WIDGET_KINDS, render_results
from calculator.page.text import Strings
from sitebuild.strings import calc_strings
from tests.lazy import OnFirstUse

READY_MS = 90_000  # the most to wait for the runtime: a cold Pyodide start on two busy cores
#: The pages that carry widgets (paths of the Arabic site; the English ones are under en/).
WIDGET_PAGES = ("calculator/", "articles/vram-guide/", "articles/five-ways/")
S = OnFirstUse(("ar", "en"), lambda lang: Strings(calc_strings(lang), lang))   # read by the tests, not at import


def url(base: str, lang: str, path: str) -> str:
    return f"{base}{'en/' if lang == 'en' else ''}{path}"


def wait_ready(page, selector: str = "[data-calc-root]") -> None:
    page.locator(selector).first.scroll_into_view_if_needed()
    page.wait_for_function("document.documentElement.dataset.calcRuntime === 'ready'", timeout=READY_MS)
    expect(page.locator(selector).first).to_have_attribute("data-calc-state", "ready", timeout=READY_MS)


def loaded(page) -> None:
    """The page's own loading is over, as states rather than a quiet network for some time: its load event, its web
    fonts, two frames drawn (a widget in view has asked for the runtime by then), and a runtime it started at its
    end state (ready or failed), so that nothing it started is cut off by the next navigation."""
    page.wait_for_load_state("load")
    page.evaluate("""() => document.fonts.ready.then(() => new Promise(
        done => requestAnimationFrame(() => requestAnimationFrame(() => done(true)))))""")
    page.wait_for_function("""() => ["", "idle", "ready", "failed"].includes(
        document.documentElement.dataset.calcRuntime || "")""", timeout=READY_MS)


def normalised(page, html: str) -> str:
    """Markup as this browser serialises it (attribute quoting, void tags), so that strings compare as DOM."""
    return page.evaluate("h => { const t = document.createElement('template'); t.innerHTML = h; return t.innerHTML; }",
                         html)


def python_render(kind: str, state: dict, fixed: dict, lang: str) -> tuple[str, dict]:
    """What calculator.page renders on CPython for this state: the results fragment and the slots."""
    fragment, results, errors = render_results(S[lang], kind, state, fixed)
    assert not errors, errors
    return fragment, WIDGET_KINDS[kind].slots(S[lang], results)
