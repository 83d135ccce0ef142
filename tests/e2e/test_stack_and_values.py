"""Issue 42 in Debian Chromium, both languages, on the calculator page:

* H2, the stack is part of the answer: with the same visible inputs the estimator and the side-by-side give the
  same figure (LoRA with the defaults was 36.7 GB in one and 21.9 GB in the other); under TRL the strip names the
  stack and each key that adds memory with what it adds, and the remedy's button applies it;
* H3, the reader's values are the reader's: a rank typed before picking a framework is kept and marked with the
  framework's default, the fields the reader left take the framework's values, the address (what a link and "Run
  it" carry) holds the reader's rank, and one button takes the framework's values.
"""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from calculator.page.kinds.estimator import FRAMEWORK_FORM_KEYS, framework_form
from calculator.page.text import plain_text
from sitebuild.strings import calc_strings
from tests.lazy import OnFirstUse

from test_widgets import RENDER_MS, STATE_JS, arm, assert_shows, link_state, live, meta, reset, wait_rendered  # noqa: F401

pytestmark = pytest.mark.e2e

STRINGS = OnFirstUse(("ar", "en"), calc_strings)
PEAK = '[data-calc-summary] [data-calc-output="peak_bytes_per_gpu"]'


def _value(locator) -> int:
    return int(locator.get_attribute("data-value"))


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_the_side_by_side_agrees_with_the_estimator_and_the_stacks_remedy_applies(live, lang):
    page = live[lang]
    est, cmp = page.locator("#calc-estimator-1"), page.locator("#calc-compare-1")
    try:
        arm(est)
        est.locator('[data-calc-field="method"]').select_option("lora")
        wait_rendered(est)
        row = cmp.locator('[data-variant="lora"] [data-calc-output="peak_bytes_per_gpu"]').first
        expect(est.locator(PEAK)).to_have_attribute("data-value", row.get_attribute("data-value"), timeout=RENDER_MS)
        stack = est.locator('[data-calc-summary] [data-calc-output="stack"]')
        expect(stack).to_have_attribute("data-framework", "none")
        # TRL: its regime goes into the form, and the strip says what of it moves the figure
        arm(est)
        est.locator('[data-calc-field="framework"]').select_option("trl")
        wait_rendered(est)
        expect(stack).to_have_attribute("data-framework", "trl", timeout=RENDER_MS)
        expect(stack).to_contain_text(STRINGS[lang]["options"]["framework"]["trl"])
        item = stack.locator('li[data-key="precision"]')
        expect(item.locator("button")).to_be_visible()
        before, delta = _value(est.locator(PEAK)), _value(item)
        assert delta > 0.05 * before
        arm(est)
        item.locator("button").click()
        wait_rendered(est)
        expect(est.locator(PEAK)).to_have_attribute("data-value", str(before - delta), timeout=RENDER_MS)
        expect(est.locator('[data-calc-field="precision"]')).to_have_value("bf16")
        expect(stack.locator('li[data-key="precision"]')).to_have_count(0)
    finally:
        reset(page)


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_a_framework_picked_keeps_the_readers_rank_marks_it_and_offers_its_own(live, lang):
    page = live[lang]
    est = page.locator("#calc-estimator-1")
    _, defaults, _ = meta(est)
    rank = est.locator('[data-calc-field="lora_rank"]')
    mark = est.locator('[data-calc-read-for="lora_rank"]')
    name = STRINGS[lang]["options"]["framework"]["axolotl"]
    try:
        arm(est)
        est.locator('[data-calc-field="method"]').select_option("lora")
        wait_rendered(est)
        arm(est)
        rank.fill("32")
        wait_rendered(est)
        arm(est)
        est.locator('[data-calc-field="framework"]').select_option("axolotl")
        wait_rendered(est)
        expect(rank).to_have_value("32")
        expect(mark).to_be_visible()
        expect(mark).to_contain_text(name)
        expect(mark).to_contain_text("16")
        # the fields the reader left at the form's values take Axolotl's
        plain, theirs = framework_form("none", "lora"), framework_form("axolotl", "lora")
        state = {**defaults, "method": "lora", "lora_rank": 32, "framework": "axolotl"}
        for key in FRAMEWORK_FORM_KEYS:
            if state[key] == plain[key] != theirs[key]:
                state[key] = theirs[key]
        assert state["optimizer"] == theirs["optimizer"] != plain["optimizer"]
        expect(est.locator('[data-calc-field="optimizer"]')).to_have_value(theirs["optimizer"])
        assert_shows(est, state, lang)
        # the address, which a link and "Run it" carry, holds what the form shows
        page.wait_for_function(f"JSON.parse({STATE_JS} || '{{}}')['calc-estimator-1']?.framework === 'axolotl'")
        assert link_state(page)["calc-estimator-1"]["lora_rank"] == 32
        # one action takes Axolotl's values
        take = est.locator('[data-calc-read-for="framework"] button')
        expect(take).to_contain_text(name)
        arm(est)
        take.click()
        wait_rendered(est)
        expect(rank).to_have_value("16")
        expect(mark).to_be_hidden()
        assert plain_text(est.locator('[data-calc-read-for="framework"]').inner_html()) == ""
    finally:
        reset(page)
