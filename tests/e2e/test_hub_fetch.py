"""Issue 40, fetch on request, in Debian Chromium against a routed fake Hugging Face Hub (never the real network):
an ``owner/name`` id the catalogue lacks offers one button, which says beforehand what it sends; a click reads the
repository's config.json into the paste box (read as a paste is, and kept in the link as one), and every way the Hub
can fail (404, gated, too large, not JSON, no network, a timeout) is told at the button in the page's language.
Opening the link the fetch left never asks the Hub. Every other request leaving 127.0.0.1 still fails the test."""
from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from calculator import hub
from calculator.page.text import Strings
from sitebuild.strings import calc_strings
from tests.lazy import OnFirstUse

from calc_pages import READY_MS, url, wait_ready

pytestmark = pytest.mark.e2e

WAIT_MS = 20_000
S = OnFirstUse(("ar", "en"), lambda lang: Strings(calc_strings(lang), lang))
CONFIG = {"model_type": "llama", "hidden_size": 512, "num_hidden_layers": 4, "num_attention_heads": 8,
          "num_key_value_heads": 8, "intermediate_size": 1024, "vocab_size": 1000}
CORS = {"access-control-allow-origin": "*", "content-type": "application/json"}


class FakeHub:
    """Answers https://huggingface.co/<owner>/<name>/resolve/main/<file> from ``files`` (path -> how), records
    every request, and holds the ones marked to hang (released at the end)."""

    def __init__(self) -> None:
        self.files: dict[str, tuple[int, str, dict[str, str]] | str] = {}
        self.asked: list[str] = []
        self.held: list = []

    def __call__(self, route) -> None:
        path = route.request.url.removeprefix("https://huggingface.co/")
        self.asked.append(path)
        how = self.files.get(path, (404, "Entry not found", {"access-control-allow-origin": "*"}))
        if how == "hang":
            self.held.append(route)
            return
        if how == "abort":
            route.abort("failed")
            return
        status, body, headers = how
        route.fulfill(status=status, body=body, headers=headers)


def _words(lang: str, key: str, repo: str) -> list[str]:
    """The fixed words of a message of the table around its {repo}."""
    return [part.strip() for part in S[lang].get(key).split("{repo}") if part.strip()]


REPO = "acme/Tiny-7B"
OUTCOMES = [   # what the fake hub answers for config.json, and the message the button shows
    ((404, "Entry not found", {"access-control-allow-origin": "*"}), "not_found"),
    ((401, "Access to model acme/Tiny-7B is restricted.", {"access-control-allow-origin": "*"}), "gated"),
    ((200, "x" * (hub.MAX_BYTES + 1), CORS), "too_large"),
    ((200, "<!doctype html><title>Hugging Face</title>", {"access-control-allow-origin": "*"}), "not_json"),
    ("abort", "unreachable"),      # no network or a CORS refusal: to the page's fetch both are the same TypeError
    ("hang", "timeout"),
]


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_hub_button_reads_a_config_and_tells_every_failure(page, guard, site_url, lang):
    # Chromium reports each refused answer in the console itself (a 404, a 401, the CORS refusal, the held request)
    guard.allow_console += ["Failed to load resource", "CORS policy", "net::ERR_FAILED"]
    fake = FakeHub()
    page.route("https://huggingface.co/**", fake)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(url(site_url, lang, "calculator/"))
    wait_ready(page)
    root = page.locator("#calc-estimator-1")
    box = root.locator('[data-calc-control="model_picker"]')
    offer = root.locator("[data-calc-hub]")
    button = offer.locator("button")
    error = offer.locator("[data-calc-hub-error]")
    expect(box).to_be_visible(timeout=WAIT_MS)
    expect(offer).to_be_hidden()
    # A catalogue id offers nothing; an owner/name id the catalogue lacks offers the button, with what it sends.
    box.fill("Qwen/Qwen3-8B")
    page.wait_for_timeout(300)
    expect(offer).to_be_hidden()
    box.fill(REPO)
    expect(offer).to_be_visible(timeout=WAIT_MS)
    expect(button).to_have_text(S[lang].get("hub.button"))
    expect(offer).to_contain_text(S[lang].get("hub.sends"))
    assert fake.asked == []                                   # nothing is asked before the click

    for how, code in OUTCOMES:
        fake.files = {f"{REPO}/resolve/main/config.json": how}
        fake.asked.clear()
        button.click()
        try:
            expect(error).to_be_visible(timeout=hub.TIMEOUT_S * 1000 + WAIT_MS)
        except AssertionError:
            raise AssertionError((code, fake.asked, offer.inner_html()))
        for words in _words(lang, f"hub.errors.{code}", REPO):
            expect(error).to_contain_text(words)
        expect(error).to_contain_text(REPO)
        expect(error).to_contain_text(S[lang].get("hub.way_on"))
        assert fake.asked[0] == f"{REPO}/resolve/main/config.json", fake.asked
        for route in fake.held:
            route.abort()
        fake.held.clear()

    # Success: the config goes into the paste box, is read as a paste, and the link keeps it.
    text = json.dumps(CONFIG)
    fake.files = {f"{REPO}/resolve/main/config.json": (200, text, CORS)}
    fake.asked.clear()
    button.click()
    paste = root.locator('[data-calc-field="config"]')
    expect(paste).to_have_value(text, timeout=WAIT_MS)
    expect(error).to_be_hidden()
    expect(offer.locator("[data-calc-hub-status]")).to_contain_text(REPO)
    expect(root.locator('[data-calc-control="model_source"][value="paste"]')).to_be_checked()
    expect(root).to_have_attribute("data-calc-state", "ready", timeout=WAIT_MS)
    page.wait_for_function("decodeURIComponent(location.hash).includes('\"hidden_size\":512')", timeout=WAIT_MS)
    params = root.locator("[data-calc-fragment]").inner_text()
    assert fake.asked == [f"{REPO}/resolve/main/config.json"]
    link = page.url

    # Opening that link restores the pasted config and never asks the Hub.
    fake.asked.clear()
    other = page.context.new_page()
    other.route("https://huggingface.co/**", fake)
    other.set_viewport_size({"width": 1280, "height": 900})
    other.goto(link)
    wait_ready(other)
    other_root = other.locator("#calc-estimator-1")
    expect(other_root.locator('[data-calc-control="model_source"][value="paste"]')).to_be_checked(timeout=READY_MS)
    assert json.loads(other_root.locator('[data-calc-field="config"]').input_value()) == CONFIG
    expect(other_root.locator("[data-calc-fragment]")).to_have_text(re.compile(".+"), timeout=WAIT_MS)
    assert other_root.locator("[data-calc-fragment]").inner_text() == params
    assert fake.asked == []
    other.close()
