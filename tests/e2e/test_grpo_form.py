"""GRPO on the estimator's page (issue 41): ticked with the keyboard, its fields appear (vLLM's for a vLLM
generator), the result shows the phase table and the step's time split, the live DOM is what CPython renders, the
address carries the GRPO keys, and on a phone the phase table stays inside the screen (its own scroller holds it)."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from calculator.page.messages import message_for
from calculator.page.text import plain_text

from calc_pages import S
from test_widgets import RENDER_MS, arm, assert_shows, link_state, meta, reset, wait_rendered

pytestmark = pytest.mark.e2e

PHONE = {"width": 375, "height": 740}


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_grpo_ticked_shows_its_fields_its_phases_and_goes_into_the_link(started, lang):
    shown = started(lang, "calculator/")
    page, s = shown.page, S[lang]
    root = page.locator("#calc-estimator-1")
    _, defaults, _ = meta(root)
    rl, vllm = root.locator('[data-calc-group="rl"]'), root.locator('[data-calc-group="vllm"]')
    expect(rl).to_be_hidden()
    expect(vllm).to_be_hidden()
    assert root.locator('[data-calc-output="grpo"]').count() == 0
    try:
        box = root.locator('[data-calc-field="grpo"]')
        box.focus()
        page.keyboard.press("Space")                     # the objective, ticked from the keyboard
        expect(box).to_be_checked()
        expect(rl).to_be_visible()
        expect(root.locator('[data-calc-field="grpo_num_generations"]')).to_be_visible()
        # one completion per micro-step is no multiple of 8 generations: said at once, in the reader's language
        said = plain_text(message_for(s, "contradiction", "grpo_num_generations"))
        expect(root.locator("[data-calc-error-for]:visible").first).to_have_text(said, timeout=RENDER_MS)
        expect(vllm).to_be_hidden()                      # the trained model generates: no vLLM settings
        steps = (("micro_batch_size", "fill", "8"),     # 8 completions per micro-step: a multiple of 8 generations
                 ("grpo_generator", "select", "vllm_server"))
        for key, action, value in steps:
            arm(root)
            control = root.locator(f'[data-calc-field="{key}"]')
            control.fill(value) if action == "fill" else control.select_option(value)
            wait_rendered(root)
        expect(vllm).to_be_visible()
        state = {**defaults, "grpo": True, "micro_batch_size": 8, "grpo_generator": "vllm_server"}
        assert_shows(root, state, lang)                  # the worker's markup is CPython's
        table = root.locator('[data-calc-output="grpo"]')
        expect(table.locator("figcaption")).to_have_text(s.get("out.grpo.title"))
        expect(table.locator("tbody tr")).to_have_count(2)   # generation and training (no scoring at beta 0, mu 1)
        expect(table.locator("tr.calc-table__current th")).to_contain_text(s.get("out.grpo.peak_mark"))
        expect(root.locator('[data-calc-output="grpo.time"] figcaption')).to_be_visible()
        # the address carries exactly what differs from the defaults, GRPO included
        expected = {k: v for k, v in state.items() if v != defaults[k]}
        page.wait_for_function("n => { const p = location.hash.slice(1).split('&').find(x => x.startsWith('calc='));"
                               " return p && Object.keys(JSON.parse(decodeURIComponent(p.slice(5)))"
                               "['calc-estimator-1']).length === n; }", arg=len(expected), timeout=RENDER_MS)
        assert link_state(page) == {"calc-estimator-1": expected} and expected["grpo"] is True
        # a phone: the table's own scroller holds it, the page does not scroll sideways
        page.set_viewport_size(PHONE)
        table.scroll_into_view_if_needed()
        wrap = table.locator(".calc-table-wrap")
        for box in (table.bounding_box(), wrap.bounding_box()):
            assert box["x"] >= -1 and box["x"] + box["width"] <= PHONE["width"] + 1, box
        assert wrap.get_attribute("tabindex") == "0"     # reachable and scrollable with the keyboard
    finally:
        shown.restore_viewport()
        reset(page)
    expect(rl).to_be_hidden()
