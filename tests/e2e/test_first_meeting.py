"""What a reader meets first (issue 24), in Debian Chromium: an error shown at the control that caused it (a conflict
at the control edited last, a custom architecture too large at the custom field edited last) and brought into view
clear of the sticky summary strip, at 1280 × 900 and at 390 px; the number as read beside a typed field; the GPU
table's answer columns (every card count) on screen; and the second page a reader opens started from the memory
snapshot the first page left, not from a cold Python."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from benchmarks.page import wait_until_stored
from calculator.page.text import plain_text
from calc_pages import READY_MS, S, url, wait_ready
from test_widgets import RENDER_MS, arm, assert_shows, meta, reset, wait_rendered

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
VIEWPORTS = pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])


def assert_clear_of_strip(page, locator, what: str) -> None:
    """``locator`` is entirely on screen between Material's sticky header and the estimator's sticky summary."""
    box = locator.bounding_box()
    strip = page.locator("#calc-estimator-1 .calc__slot--summary").bounding_box()
    header = page.locator(".md-header").bounding_box()
    top = header["y"] + header["height"] if header else 0
    assert box is not None and box["height"] > 0, what
    assert box["y"] >= top - 1 and box["y"] + box["height"] <= strip["y"] + 1, (what, box, strip, top)


def shown_at(root, slot: str, code: str):
    box = root.locator(f'[data-calc-error-for="{slot}"]')
    expect(box).to_be_visible(timeout=RENDER_MS)
    expect(box).to_have_attribute("data-code", code)
    return box


@pytest.mark.parametrize("lang", ["ar", "en"])
@VIEWPORTS
def test_an_error_is_shown_at_its_control_and_clear_of_the_strip(started, lang, viewport):
    shown = started(lang, "calculator/")
    page, s = shown.page, S[lang]
    root = page.locator("#calc-estimator-1")
    page.set_viewport_size(viewport)
    try:
        root.scroll_into_view_if_needed()
        # The paste box's message (under the box, where the strip sat at 1280 × 900).
        root.locator('[data-calc-control="model_source"][value="paste"]').check()
        root.locator('[data-calc-field="config"]').fill('{"hidden_size": 4096,')
        assert_clear_of_strip(page, shown_at(root, "config", "invalid_json"), "paste box")
        root.locator('[data-calc-control="model_source"][value="preset"]').check()
        expect(root).not_to_have_attribute("data-calc-stale", "true", timeout=RENDER_MS)
        # A conflict between two settings: at the one edited last (accumulation after optimizer-in-backward).
        details = root.locator("details.calc-more")
        if details.get_attribute("open") is None:
            details.locator("summary").click()
        oib = root.locator('[data-calc-field="optimizer_in_backward"]')
        arm(root)
        oib.check()
        wait_rendered(root)
        accumulation = root.locator('[data-calc-field="grad_accum_steps"]')
        accumulation.fill("4")
        box = shown_at(root, "grad_accum_steps", "contradiction")
        expect(box).to_have_text(s.get("errors.by_field.optimizer_in_backward"))
        assert accumulation.get_attribute("aria-invalid") == "true"
        assert_clear_of_strip(page, box, "conflict at the accumulation field")
        expect(root.locator('[data-calc-error-for=""]')).to_be_hidden()
        accumulation.fill("1")
        expect(root).not_to_have_attribute("data-calc-stale", "true", timeout=RENDER_MS)
        oib.uncheck()
        # A custom architecture too large as a whole: at the custom field edited last, not in the form's own box.
        arm(root)
        root.locator('[data-calc-control="model_source"][value="custom"]').check()
        wait_rendered(root)
        root.locator('[data-calc-field="model.hidden_size"]').fill("1000000")
        layers = root.locator('[data-calc-field="model.num_hidden_layers"]')
        layers.fill("10000")
        box = shown_at(root, "model.num_hidden_layers", "too_large")
        assert "100,000" in plain_text(box.inner_html())          # the limit is stated
        assert_clear_of_strip(page, box, "custom too large")
        expect(root.locator('[data-calc-error-for=""]')).to_be_hidden()
    finally:
        shown.restore_viewport()
        reset(page)


@pytest.mark.parametrize("lang", ["ar", "en"])
@VIEWPORTS
def test_every_typed_field_shows_its_own_error_clear_of_the_strip(started, lang, viewport):
    """Every number field of the estimator (More settings open, LoRA's rank shown, every field of a custom
    architecture, those this architecture does not read included), given text that is no number, shows the refusal
    under itself, marked invalid, between the header and the strip; put back, the error goes."""
    shown = started(lang, "calculator/")
    page = shown.page
    root = page.locator("#calc-estimator-1")
    page.set_viewport_size(viewport)
    try:
        root.scroll_into_view_if_needed()
        details = root.locator("details.calc-more")
        if details.get_attribute("open") is None:
            details.locator("summary").click()
        arm(root)
        root.locator('[data-calc-field="method"]').select_option("lora")
        root.locator('[data-calc-control="model_source"][value="custom"]').check()
        wait_rendered(root)
        keys = root.evaluate("""r => [...r.querySelectorAll('input[data-calc-field]')]
            .filter(e => e.type === 'text' && e.inputMode && e.offsetParent !== null).map(e => e.dataset.calcField)""")
        assert len(keys) >= 30 and {"lora_rank", "seq_len", "gpu_hour_price", "model.hidden_size",
                                    "model.moe_intermediate_size", "model.q_lora_rank"} <= set(keys), keys
        for key in keys:
            field = root.locator(f'input[data-calc-field="{key}"]')
            before = field.input_value()
            field.fill("abc")
            box = shown_at(root, key, "wrong_type")
            assert field.get_attribute("aria-invalid") == "true", key
            assert_clear_of_strip(page, box, key)
            expect(root.locator('[data-calc-error-for=""]')).to_be_hidden()
            field.fill(before)
            expect(box).to_be_hidden(timeout=RENDER_MS)
            expect(root).not_to_have_attribute("data-calc-stale", "true", timeout=RENDER_MS)
    finally:
        shown.restore_viewport()
        reset(page)


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_a_typed_number_is_shown_as_read(started, lang):
    shown = started(lang, "calculator/")
    page, s = shown.page, S[lang]
    root = page.locator("#calc-estimator-1")
    _, defaults, _ = meta(root)
    epochs = root.locator('[data-calc-field="epochs"]')
    read = root.locator('[data-calc-read-for="epochs"]')
    try:
        expect(read).to_be_hidden()
        arm(root)
        epochs.fill("1,5")                              # a decimal comma: one and a half epochs, not fifteen
        wait_rendered(root)
        expect(read).to_have_text(s.get("fields.read_as").replace("{n}", "1.5"))
        assert_shows(root, {**defaults, "epochs": 1.5}, lang)
        arm(root)
        epochs.fill("1")                                # typed as the number it is: nothing to add
        wait_rendered(root)
        expect(read).to_be_hidden()
    finally:
        reset(page)


@pytest.mark.parametrize("lang", ["ar", "en"])
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE, {"width": 320, "height": 700}, {"width": 1000, "height": 800}],
                         ids=["desktop", "phone", "320", "1000"])
def test_the_gpu_tables_answer_columns_are_on_screen(started, lang, viewport):
    """Every card count of the GPU table (where its times and costs are) is inside the table's own box, which is
    inside the screen, from the narrowest phone (320 px) through the width where Material's sidebars come in
    (1000 px) to the review's 1280 × 900; where a table must still scroll sideways, its edge says so."""
    shown = started(lang, "calculator/")
    page = shown.page
    page.set_viewport_size(viewport)
    try:
        table = page.locator('#calc-estimator-1 [data-calc-output="gpu_table"]')
        table.scroll_into_view_if_needed()
        wrap = table.locator(".calc-table-wrap")
        assert wrap.evaluate("w => w.scrollWidth <= w.clientWidth + 1"), wrap.evaluate("w => [w.scrollWidth, w.clientWidth]")
        frame = wrap.bounding_box()
        assert frame["x"] >= 0 and frame["x"] + frame["width"] <= viewport["width"] + 1, frame
        for cell in [*table.locator("thead th").all(), *table.locator("tbody tr").first.locator("td").all()]:
            box = cell.bounding_box()
            assert frame["x"] - 1 <= box["x"] and box["x"] + box["width"] <= frame["x"] + frame["width"] + 1, box
        assert "gradient" in wrap.evaluate("w => getComputedStyle(w).backgroundImage")   # the scroll cue
    finally:
        shown.restore_viewport()


def test_the_second_page_starts_from_the_first_pages_snapshot(browser, site_url):
    """The first page starts Python and leaves a snapshot of it with the estimator imported; the next page a reader
    opens (another language, another widget kind) restores it, goes through every stage, and computes as well."""
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        page.goto(url(site_url, "en", "calculator/"))
        wait_ready(page, "#calc-estimator-1")
        assert page.evaluate("document.documentElement.dataset.calcRuntimeFrom") == "start"
        assert wait_until_stored(page, READY_MS / 1000), "the first page stored no snapshot"
        page.add_init_script("""
          window.__stages = [];
          new MutationObserver(() => {
            const s = document.documentElement.dataset.calcRuntime;
            if (s && window.__stages[window.__stages.length - 1] !== s) window.__stages.push(s);
          }).observe(document, {subtree: true, attributes: true, attributeFilter: ['data-calc-runtime']});
        """)
        page.goto(url(site_url, "ar", "articles/five-ways/"))
        root = page.locator("[data-calc-root]").first
        wait_ready(page)
        assert page.evaluate("document.documentElement.dataset.calcRuntimeFrom") == "snapshot"
        assert page.evaluate("window.__stages")[-4:] == ["downloading", "starting", "loading", "ready"]
        kind, defaults, _ = meta(root)
        key, typed, value = {"estimator": ("seq_len", "1024", 1024), "seqlen": ("micro_batch_size", "2", 2),
                             "fits": ("seq_len", "8,192", 8192), "compare": ("seq_len", "512", 512)}[kind]
        arm(root)
        root.locator(f'[data-calc-field="{key}"]').fill(typed)
        wait_rendered(root)
        assert_shows(root, {**defaults, key: value}, "ar")
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_more_settings_is_a_disclosure_not_an_admonition(started, lang):
    """ux review #16: "More settings" was drawn as Material's blue admonition with a pencil icon (Material styles
    every <details> as one). It is a plain disclosure of the form: no icon, no tinted box, no coloured side bar, no
    shadow; its title in the text colour."""
    page = started(lang, "calculator/").page
    more = page.locator("#calc-estimator-1 details.calc-more")
    look = more.evaluate("""d => { const cs = getComputedStyle(d), s = d.querySelector(':scope > summary');
        const ss = getComputedStyle(s), icon = getComputedStyle(s, '::before'), body = getComputedStyle(document.body);
        return {bg: cs.backgroundColor, shadow: cs.boxShadow, side: [cs.borderLeftWidth, cs.borderRightWidth],
                sbg: ss.backgroundColor, icon: icon.display === 'none' || icon.content === 'none', color: ss.color,
                text: body.color}; }""")
    assert look["bg"] == "rgba(0, 0, 0, 0)" and look["sbg"] == "rgba(0, 0, 0, 0)", look
    assert look["shadow"] == "none" and look["side"] == ["0px", "0px"] and look["icon"], look
    assert look["color"] == look["text"], look
