"""The model and card pickers in Debian Chromium, used from the keyboard alone as the WAI-ARIA APG "editable combobox
with list autocomplete" says: typing filters and opens the listbox (aria-expanded) with the best match highlighted
(aria-activedescendant), the arrow keys move the highlight, Enter chooses (the drop-down and the results follow, and
the choice reaches the address), Escape closes the list and then clears the box; the polite status says how many
options match. The matches and the sentence are what ``calculator.page.Page.search`` answers in this process for
the same text (the worker runs that same code in Pyodide)."""
from __future__ import annotations

import json
import re
from urllib.parse import quote, unquote

import pytest
from playwright.sync_api import expect

from calculator.page import Page
from sitebuild.strings import calc_strings
from tests.lazy import OnFirstUse

from calc_pages import normalised, python_render, url, wait_ready

pytestmark = pytest.mark.e2e

WAIT_MS = 20_000   # the worker answers a search or a recalculation within this on two busy cores

PAGES = OnFirstUse(("ar", "en"), lambda lang: Page(json.dumps(calc_strings(lang)), lang))


def expected(lang: str, kind: str, text: str) -> dict:
    return json.loads(PAGES[lang].search(json.dumps({"kind": kind, "text": text})))


def active_value(page, box) -> str | None:
    active = box.get_attribute("aria-activedescendant")
    return page.locator(f"[id='{active}']").get_attribute("data-value") if active else None


@pytest.mark.parametrize("lang,model_query,gpu_query", [("en", "qwen3 8", "pro 6000"), ("ar", "gemma 3 ١٢", "٢٤ GB")])
def test_the_pickers_from_the_keyboard_with_their_announcements(started, lang, model_query, gpu_query):
    page = started(lang, "calculator/").page
    root = page.locator("#calc-estimator-1")
    select = root.locator('select[data-calc-field="gpu"]')
    model_select = root.locator('select[data-calc-field="model"]')
    default_gpu, default_model = select.input_value(), model_select.input_value()
    try:
        for kind, query, select_of in (("model", model_query, model_select), ("gpu", gpu_query, select)):
            want = expected(lang, kind, query)
            assert len(want["values"]) >= 2 or kind == "model", want
            box = root.locator(f'[data-calc-control="{kind}_picker"]')
            listbox = root.locator(f"#{box.get_attribute('aria-controls')}")
            expect(box).to_be_visible(timeout=WAIT_MS)      # the page script shows the picker
            expect(box).to_have_attribute("role", "combobox", timeout=WAIT_MS)
            expect(box).to_have_attribute("aria-expanded", "false", timeout=WAIT_MS)
            expect(listbox).to_be_hidden(timeout=WAIT_MS)
            # Typing opens the list with Python's best match highlighted; the status says how many match.
            box.focus()
            page.keyboard.type(query)
            expect(box).to_have_attribute("aria-expanded", "true", timeout=WAIT_MS)
            expect(listbox).to_be_visible(timeout=WAIT_MS)
            expect(root.locator(f'[data-calc-picker="{kind}"] [data-calc-picker-status]')).to_have_text(
                want["announce"], timeout=WAIT_MS)
            shown = listbox.locator('[role="option"]:visible')
            assert [o.get_attribute("data-value") for o in shown.all()][:1] == want["values"][:1]
            assert sorted(o.get_attribute("data-value") for o in shown.all()) == sorted(want["values"])
            assert active_value(page, box) == want["values"][0]
            assert page.evaluate("() => document.activeElement.getAttribute('role')") == "combobox"   # focus stays
            # The arrows move the highlight through the shown options (in the order on screen) and wrap.
            order = [o.get_attribute("data-value") for o in shown.all()]
            page.keyboard.press("ArrowDown")
            assert active_value(page, box) == order[1 % len(order)]
            page.keyboard.press("ArrowUp")
            page.keyboard.press("ArrowUp")
            assert active_value(page, box) == order[-1]
            page.keyboard.press("ArrowDown")
            assert active_value(page, box) == order[0]
            # Escape closes the list, a second Escape clears the box; Alt+Down opens it again without moving.
            page.keyboard.press("Escape")
            expect(box).to_have_attribute("aria-expanded", "false", timeout=WAIT_MS)
            expect(listbox).to_be_hidden(timeout=WAIT_MS)
            assert box.get_attribute("aria-activedescendant") is None
            page.keyboard.press("Escape")
            expect(box).to_have_value("", timeout=WAIT_MS)
            page.keyboard.type(query)
            expect(box).to_have_attribute("aria-expanded", "true", timeout=WAIT_MS)
            # Enter chooses the highlighted option: the drop-down takes it, the list closes, the results follow.
            page.keyboard.press("Enter")
            expect(box).to_have_attribute("aria-expanded", "false", timeout=WAIT_MS)
            expect(select_of).to_have_value(want["values"][0], timeout=WAIT_MS)
            assert listbox.locator(f"[data-value='{want['values'][0]}']").get_attribute("aria-selected") == "true"
            expect(root).to_have_attribute("data-calc-state", "ready", timeout=WAIT_MS)
            expect(page).to_have_url(re.compile(re.escape(want["values"][0])), timeout=WAIT_MS)   # in the address
        # Nothing matches: the list stays closed and the reader is told so, in words and to the screen reader.
        box = root.locator('[data-calc-control="gpu_picker"]')
        box.fill("")
        box.focus()
        page.keyboard.type("zzqx")
        none = root.locator('[data-calc-picker="gpu"] [data-calc-picker-none]')
        expect(none).to_be_visible(timeout=WAIT_MS)
        expect(root.locator('[data-calc-picker="gpu"] [data-calc-picker-status]')).to_have_text(
            expected(lang, "gpu", "zzqx")["announce"], timeout=WAIT_MS)
        expect(box).to_have_attribute("aria-expanded", "false", timeout=WAIT_MS)
        page.keyboard.press("Escape")
        expect(box).to_have_value("", timeout=WAIT_MS)
    finally:
        select.select_option(default_gpu)
        model_select.select_option(default_model)
        expect(root).to_have_attribute("data-calc-state", "ready", timeout=WAIT_MS)
        page.keyboard.press("Tab")


def test_the_gpu_tables_class_filter_shows_one_class_and_outlives_a_recalculation(started):
    page = started("en", "calculator/").page
    root = page.locator("#calc-estimator-1")
    method = root.locator('[data-calc-field="method"]')
    default_method = method.input_value()
    bodies = root.locator('[data-calc-output="gpu_table"] tbody')
    classes = [b.get_attribute("data-gpu-class") for b in bodies.all()]
    assert len(classes) >= 3 and root.locator('[data-calc-output="gpu_table"] tr[aria-current="true"]').count() == 1
    try:
        root.locator("select[data-calc-gpu-class]").select_option("workstation")
        for klass in classes:
            body = root.locator(f'[data-calc-output="gpu_table"] tbody[data-gpu-class="{klass}"]')
            expect(body).to_be_visible() if klass == "workstation" else expect(body).to_be_hidden(timeout=WAIT_MS)
        fragment = root.locator("[data-calc-fragment]").inner_html()
        method.select_option("qlora" if default_method != "qlora" else "lora")       # a new fragment from Python
        expect(root.locator("[data-calc-fragment]")).not_to_have_js_property("innerHTML", fragment, timeout=WAIT_MS)
        expect(root).to_have_attribute("data-calc-state", "ready", timeout=WAIT_MS)
        expect(root.locator("select[data-calc-gpu-class]")).to_have_value("workstation", timeout=WAIT_MS)
        expect(root.locator('[data-calc-output="gpu_table"] tbody[data-gpu-class="datacenter"]')).to_be_hidden(timeout=WAIT_MS)
        expect(root.locator('[data-calc-output="gpu_table"] tbody[data-gpu-class="workstation"]')).to_be_visible(timeout=WAIT_MS)
    finally:
        root.locator("select[data-calc-gpu-class]").select_option("all")
        method.select_option(default_method)
        expect(root).to_have_attribute("data-calc-state", "ready", timeout=WAIT_MS)


def test_a_link_may_name_the_model_by_its_repo_and_the_card_in_any_case(page, guard, site_url):
    """The address's state takes a model's Hugging Face repo (or an alias) and a card's id in any case, as the CLI and
    the API do: the widget shows the catalogue entry they name, and the address is rewritten with its id."""
    link = {"calc-estimator-1": {"model": "QWEN/Qwen3-8B", "gpu": "T4"}}
    page.goto(url(site_url, "en", "calculator/") + "?calc=" + quote(json.dumps(link)))
    wait_ready(page, "#calc-estimator-1")
    root = page.locator("#calc-estimator-1")
    expect(root.locator('select[data-calc-field="model"]')).to_have_value("qwen3-8b", timeout=WAIT_MS)
    expect(root.locator('select[data-calc-field="gpu"]')).to_have_value("t4", timeout=WAIT_MS)
    expect(root.locator("[data-calc-notice]")).to_have_text(PAGES["en"].s.get("notice.link_applied"), timeout=WAIT_MS)
    defaults = json.loads(root.get_attribute("data-calc-defaults"))
    fixed = json.loads(root.get_attribute("data-calc-fixed"))
    fragment, _ = python_render("estimator", {**defaults, "model": "qwen3-8b", "gpu": "t4"}, fixed, "en")
    expect(root.locator("[data-calc-fragment]")).to_have_js_property("innerHTML", normalised(page, fragment),
                                                                      timeout=WAIT_MS)
    expect(page).to_have_url(re.compile("qwen3-8b"), timeout=WAIT_MS)
    assert "Qwen3-8B" not in unquote(page.url) and "T4" not in unquote(page.url)
