"""The calculator widgets in Debian Chromium: the bundled Pyodide runtime reaches "ready"; what a widget shows before
the runtime starts (written by the build on CPython) and after every change (written by the worker in Pyodide) is
the same markup that ``calculator.page`` renders in this process for the same inputs — structure, labels and
numbers, compared as DOM; invalid input is reported next to a visible control in the reader's language; links keep
the inputs.

Pyodide takes seconds to start on two cores, so the tests that do not need a cold start use the session's started
pages (``started`` in conftest.py; ``live`` is its calculator page per language): each test puts the widget back to
its defaults when it is done.
"""
from __future__ import annotations

import json
import re
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from calculator.page import WIDGET_KINDS
from calculator.page.messages import message_for
from calculator.page.text import plain_text
from sitebuild.strings import calc_strings
from tests.lazy import OnFirstUse

from calc_pages import WIDGET_PAGES, S, normalised, python_render, url, wait_ready

pytestmark = pytest.mark.e2e

STRINGS = OnFirstUse(("ar", "en"), calc_strings)   # read by the tests, not at import


def meta(root) -> tuple[str, dict, dict]:
    return (root.get_attribute("data-calc-kind"), json.loads(root.get_attribute("data-calc-defaults")),
            json.loads(root.get_attribute("data-calc-fixed")))


#: The most to wait for a widget to show a state (a render in the worker, on two busy cores).
RENDER_MS = 20_000


def assert_shows(root, state: dict | None = None, lang: str = "en") -> None:
    """The widget's results (fragment and slots) are, as DOM, what CPython renders for ``state`` (default: the
    widget's defaults). Waits for that state (up to RENDER_MS): a render event can come from a computation started
    before the last change, so the DOM itself is what is waited for, then compared."""
    page = root.page
    kind, defaults, fixed = meta(root)
    fragment, slots = python_render(kind, defaults if state is None else state, fixed, lang)
    expect(root.locator("[data-calc-fragment]")).to_have_js_property("innerHTML", normalised(page, fragment),
                                                                     timeout=RENDER_MS)
    for name, html in slots.items():
        expect(root.locator(f'[data-calc-slot-out="{name}"]')).to_have_js_property(
            "innerHTML", normalised(page, html), timeout=RENDER_MS)


def arm(root) -> None:
    """Count the widget's redraws from now on (calc.js dispatches ``calc:rendered`` after each one)."""
    root.evaluate("r => { r.__renders = 0; r.addEventListener('calc:rendered', () => { r.__renders += 1; }); }")


def wait_rendered(root, count: int = 1) -> None:
    root.page.wait_for_function("([id, n]) => document.getElementById(id).__renders >= n",
                                arg=[root.get_attribute("id"), count], timeout=RENDER_MS)


def recompute(root) -> None:
    """Ask the widget to compute again without changing any input (a change event on its first control)."""
    arm(root)
    root.locator("[data-calc-field]").first.dispatch_event("change")
    wait_rendered(root)


def link_state(page) -> dict:
    value = page.evaluate("new URL(location.href).searchParams.get('calc')")
    assert value, page.url
    return json.loads(value)


# ------------------------------------------------------------------------------------------------------------
# The started calculator page of each language (the session's, shared by the tests that do not need a cold start)
# ------------------------------------------------------------------------------------------------------------
@pytest.fixture
def live(started):
    return {lang: started(lang, "calculator/").page for lang in ("ar", "en")}


def reset(page) -> None:
    """Back to the estimator's defaults without reloading (the runtime stays started): every control is set back to
    its default the way a reader would, the last change is waited for, and the page must show the defaults again."""
    root = page.locator("#calc-estimator-1")
    _, defaults, _ = meta(root)
    root.locator('[data-calc-control="model_source"][value="preset"]').check()
    root.locator('[data-calc-field="method"]').select_option("lora")     # shows the LoRA fields while they are set
    details = root.locator("details.calc-more")
    if details.get_attribute("open") is None:
        details.locator("summary").click()
    for key, value in [*((k, v) for k, v in defaults.items() if k != "method"), ("method", defaults["method"])]:
        controls = root.locator(f'[data-calc-field="{key}"]')
        if key == "lora_targets":
            for box in controls.all():
                box.set_checked(box.get_attribute("value") in value)
        elif controls.first.evaluate("e => e.type") == "checkbox":
            controls.first.set_checked(bool(value))
        elif controls.first.evaluate("e => e.tagName") == "SELECT":
            controls.first.select_option(str(value))
        else:
            controls.first.fill("" if value is None else str(value))
    arm(root)
    root.locator('[data-calc-field="method"]').dispatch_event("change")
    wait_rendered(root)
    details.locator("summary").click()
    expect(root.locator("[data-calc-error-for]:visible")).to_have_count(0)
    assert_shows(root, defaults, page.evaluate("document.documentElement.lang"))


# ------------------------------------------------------------------------------------------------------------
# Build-time DOM = live DOM = CPython, for every widget kind, in both languages
# ------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["ar", "en"])
def test_every_widget_shows_the_same_markup_before_and_after_the_runtime_starts(started, lang):
    seen = set()
    for path in WIDGET_PAGES:
        shown = started(lang, path)          # read as it loaded (the build's markup), then started
        page = shown.page
        roots = page.locator("[data-calc-root]").all()
        assert roots and {root.get_attribute("id") for root in roots} == set(shown.prerendered)
        for root in roots:
            fragment, slot_html, state = shown.prerendered[root.get_attribute("id")]
            assert state != "ready", "read after the runtime had rendered"
            kind, defaults, fixed = meta(root)
            python_fragment, python_slots = python_render(kind, defaults, fixed, lang)
            assert fragment == normalised(page, python_fragment)   # the build wrote what CPython renders now
            for name, html in python_slots.items():
                assert slot_html[name] == normalised(page, html), name
            root.scroll_into_view_if_needed()
            recompute(root)                  # the same inputs, now rendered by Pyodide in the worker
            expect(root.locator("[data-calc-fragment]")).to_have_js_property("innerHTML", fragment, timeout=RENDER_MS)
            assert root.locator("[data-calc-slot-out]").evaluate_all(
                "els => Object.fromEntries(els.map(e => [e.dataset.calcSlotOut, e.innerHTML]))") == slot_html
            seen.add(kind)
    assert seen == set(WIDGET_KINDS)


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_article_widgets_follow_their_inputs(started, lang):
    for path in ("articles/vram-guide/", "articles/five-ways/"):
        shown = started(lang, path)
        # Nothing starts while no widget is in view (the article is read first).
        assert shown.runtime_at_load == "idle"
        for root in shown.page.locator("[data-calc-root]").all():
            root.scroll_into_view_if_needed()
            kind, defaults, _ = meta(root)
            key, typed, value = {"estimator": ("seq_len", "1024", 1024), "seqlen": ("micro_batch_size", "2", 2),
                                 "fits": ("seq_len", "8,192", 8192), "compare": ("seq_len", "512", 512)}[kind]
            field = root.locator(f'[data-calc-field="{key}"]')
            try:
                arm(root)
                field.fill(typed)
                wait_rendered(root)
                assert_shows(root, {**defaults, key: value}, lang)
            finally:                         # back to the defaults for the next test on this page
                arm(root)
                field.fill(str(defaults[key]))
                wait_rendered(root)
            assert_shows(root, defaults, lang)


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_estimator_follows_every_kind_of_input(live, lang):
    page = live[lang]
    root = page.locator("#calc-estimator-1")
    _, defaults, _ = meta(root)
    state = dict(defaults)
    steps = [
        ('[data-calc-field="method"]', "select", "qlora", {"method": "qlora"}),
        ('[data-calc-field="seq_len"]', "fill", "٤٠٩٦", {"seq_len": 4096}),        # Arabic-Indic digits
        ('[data-calc-field="micro_batch_size"]', "fill", "1,0", {"micro_batch_size": 10}),  # a separator
        ('[data-calc-field="gpu"]', "select", "a100-80gb", {"gpu": "a100-80gb"}),
        ('[data-calc-field="gradient_checkpointing"]', "check", None, {"gradient_checkpointing": True}),
        ('[data-calc-field="lora_targets"][value="lm_head"]', "check", None, {}),
        ('[data-calc-field="dataset_tokens"]', "fill", "10,000,000", {"dataset_tokens": 10_000_000}),
        ('[data-calc-field="gpu_hour_price"]', "fill", "1٫5", {"gpu_hour_price": 1.5}),  # an Arabic decimal point
        ('[data-calc-field="gpu"]', "select", "rtx-3090", {"gpu": "rtx-3090"}),             # a card with no price
    ]
    try:
        for selector, action, value, change in steps:
            arm(root)
            control = root.locator(selector)
            if action == "select":
                control.select_option(value)
            elif action == "fill":
                control.fill(value)
            else:
                control.check()
            wait_rendered(root)
            state.update(change)
            if "lm_head" in selector:
                state["lora_targets"] = [*defaults["lora_targets"], "lm_head"]
            assert_shows(root, state, lang)
        # Time and cost: the run on the chosen card at the reader's price, the fastest and cheapest setups, the chart.
        assert root.locator('[data-calc-output="run.cost"]').first.get_attribute("data-value")
        expect(root.locator('[data-setup="fastest"]').first).to_be_visible()
        expect(root.locator('[data-calc-output="time_cost_chart"] circle').first).to_be_attached()
        # "More settings": compile and a fused loss shrink the logits term; the page still equals CPython.
        root.locator("details.calc-more > summary").click()
        for key in ("torch_compile", "fused_linear_cross_entropy"):
            arm(root)
            root.locator(f'[data-calc-field="{key}"]').check()
            wait_rendered(root)
            state[key] = True
        assert_shows(root, state, lang)
        # The address carries exactly what differs from the defaults.
        page.wait_for_function("new URL(location.href).searchParams.has('calc')")
        expected = {k: v for k, v in state.items() if v != defaults[k]}
        page.wait_for_function("n => Object.keys(JSON.parse(new URL(location.href).searchParams.get('calc'))"
                               "['calc-estimator-1']).length === n", arg=len(expected))
        assert link_state(page) == {"calc-estimator-1": expected}
        # Latin digits and isolated runs on the Arabic page too; the effective batch follows.
        assert not re.search("[\u0660-\u0669]", root.locator("[data-calc-fragment]").inner_text())
        assert root.locator('[data-calc-output="effective_batch_size"]').get_attribute("data-value") == "10"
        # The live region says the headline once the reader pauses.
        expect(root.locator("[data-calc-announce]")).to_contain_text(
            S[lang].get("verdict." + root.locator('[data-calc-output="gpu.verdict"]').get_attribute("data-value")))
        if lang == "ar":
            # Mirrored: in a row of the input grid the first field sits to the right of the second.
            first = root.locator('[data-calc-wrap="micro_batch_size"]').bounding_box()
            second = root.locator('[data-calc-wrap="seq_len"]').bounding_box()
            assert first["x"] > second["x"]
    finally:
        reset(page)


def test_every_input_is_labelled_and_described(live):
    root = live["en"].locator("#calc-estimator-1")
    # Results follow the inputs: no submit, and the only buttons are the paste box's "read" and "Run it"'s own.
    assert root.locator("[type=submit]").count() == 0
    assert root.locator("button").evaluate_all(
        "bs => bs.filter(b => !b.closest('[data-calc-import-box], [data-calc-run]')).length") == 0
    for el in root.locator("[data-calc-field]").all():
        el_id = el.get_attribute("id")
        if el_id:
            assert live["en"].locator(f'label[for="{el_id}"]').count() == 1, el_id
            assert f"{el_id}-help" in (el.get_attribute("aria-describedby") or "")
        else:
            assert el.evaluate("e => !!e.closest('label')")
    # Number fields say their allowed range, from the input specs.
    assert "4,194,304" in root.locator("#calc-estimator-1-seq-len-help").inner_text()


# ------------------------------------------------------------------------------------------------------------
# Errors: next to a visible control, in the reader's language, announced, results marked out of date
# ------------------------------------------------------------------------------------------------------------
def expect_error(root, slot: str, message: str, code: str) -> None:
    box = root.locator(f'[data-calc-error-for="{slot}"]')
    expect(box).to_be_visible()
    expect(box).to_have_text(message)
    assert box.get_attribute("data-code") == code
    assert box.get_attribute("role") == "alert"
    expect(root).to_have_attribute("data-calc-stale", "true")
    expect(root.locator("[data-calc-stale-note]")).to_be_visible()


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_typed_errors_have_per_type_messages_and_keep_the_last_result_marked_out_of_date(live, lang):
    page, s = live[lang], S[lang]
    root = page.locator("#calc-estimator-1")
    peak = root.locator('[data-calc-summary] [data-calc-output="peak_bytes_per_gpu"]')
    good = peak.get_attribute("data-value")
    seq = root.locator('[data-calc-field="seq_len"]')
    between = str(message_for(s, "out_of_range", "seq_len"))
    try:
        for typed, message, code in (("abc", s.get("errors.wrong_type.int"), "wrong_type"),
                                     ("2.5", s.get("errors.wrong_type.int"), "wrong_type"),
                                     ("0", between, "out_of_range"),
                                     ("9" * 400, between, "out_of_range")):
            seq.fill(typed)
            expect_error(root, "seq_len", plain_text(message), code)
            assert seq.get_attribute("aria-invalid") == "true"
            assert f"{seq.get_attribute('id')}-error" in seq.get_attribute("aria-describedby").split()
            assert peak.get_attribute("data-value") == good   # the last valid result stays, dimmed
        arm(root)
        seq.fill("2048")
        wait_rendered(root)
        expect(root.locator('[data-calc-error-for="seq_len"]')).to_be_hidden()
        assert root.get_attribute("data-calc-stale") is None
        assert seq.get_attribute("aria-invalid") is None
        # Three bad fields at once: three messages, each next to its own control.
        mb, ga = root.locator('[data-calc-field="micro_batch_size"]'), root.locator('[data-calc-field="grad_accum_steps"]')
        seq.fill("0")
        mb.fill("abc")
        ga.fill("0")
        expect_error(root, "seq_len", plain_text(between), "out_of_range")
        expect_error(root, "micro_batch_size", s.get("errors.wrong_type.int"), "wrong_type")
        expect_error(root, "grad_accum_steps", plain_text(message_for(s, "out_of_range", "grad_accum_steps")),
                     "out_of_range")
        assert all(x.get_attribute("aria-invalid") == "true" for x in (seq, mb, ga))
        arm(root)
        seq.fill("2048")
        mb.fill("1")
        ga.fill("1")
        wait_rendered(root)
        expect(root.locator('[data-calc-error-for="micro_batch_size"]')).to_be_hidden()
        # A contradiction names the field to change.
        root.locator('[data-calc-field="sharding"]').select_option("zero3")
        expect_error(root, "sharding", s.get("errors.by_field.sharding"), "contradiction")
        root.locator('[data-calc-field="sharding"]').select_option("none")
        # An error inside the closed "More settings" opens it: never an error nobody can see.
        assert root.locator("details.calc-more").get_attribute("open") is None
        root.locator('[data-calc-field="grad_accum_steps"]').fill("4")
        root.locator('[data-calc-field="optimizer_in_backward"]').evaluate(
            "e => { e.checked = true; e.dispatchEvent(new Event('change', {bubbles: true})); }")
        expect_error(root, "optimizer_in_backward", s.get("errors.by_field.optimizer_in_backward"), "contradiction")
        assert root.locator("details.calc-more").get_attribute("open") is not None
        expect(root.locator('[data-calc-field="optimizer_in_backward"]')).to_be_visible()
    finally:
        reset(page)


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_pasted_and_custom_models(live, lang):
    page, s = live[lang], S[lang]
    root = page.locator("#calc-estimator-1")
    _, defaults, _ = meta(root)
    try:
        root.locator('[data-calc-control="model_source"][value="paste"]').check()
        area = root.locator('[data-calc-field="config"]')
        # An empty box is not an error yet.
        expect(area).to_be_visible()
        expect(root.locator('[data-calc-error-for="config"]')).to_be_hidden()
        for text, code in (('{"hidden_size": 4096, "num_hidden_layers"', "invalid_json"), ("[1,2,3]", "not_an_object"),
                           ("42", "not_an_object"), ("null", "not_an_object")):
            area.fill(text)
            expect_error(root, "config", s.get(f"errors.{code}"), code)
        # Nothing from a pasted config becomes markup.
        area.fill('{"hidden_size": "<img src=x onerror=window.__pwned=1>", "num_hidden_layers": 2, '
                  '"num_attention_heads": 2, "vocab_size": 10}')
        expect(root.locator('[data-calc-error-for="config"]')).to_have_attribute("data-code", "wrong_type")
        config = {"hidden_size": 2048, "num_hidden_layers": 16, "num_attention_heads": 16, "vocab_size": 32000,
                  "intermediate_size": 5632, "_name_or_path": "<script>window.__pwned=1</script>"}
        arm(root)
        area.fill(json.dumps(config))
        wait_rendered(root)
        assert_shows(root, {**defaults, "model": config}, lang)
        assert page.evaluate("window.__pwned") is None
        assert root.locator("img, script").count() == 0
        # A catalogue MoE model switched to "Custom architecture" keeps every field the estimator uses.
        arm(root)
        root.locator('[data-calc-control="model_source"][value="preset"]').check()
        wait_rendered(root)
        arm(root)
        root.locator('select[data-calc-field="model"]').select_option("mixtral-8x7b")
        wait_rendered(root)
        assert_shows(root, {**defaults, "model": "mixtral-8x7b"}, lang)      # the preset's own figures first
        peak = root.locator('[data-calc-summary] [data-calc-output="peak_bytes_per_gpu"]')
        preset_peak = peak.get_attribute("data-value")
        arm(root)
        root.locator('[data-calc-control="model_source"][value="custom"]').check()
        wait_rendered(root)
        assert root.locator('[data-calc-field="model.num_local_experts"]').input_value() == "8"
        expect(peak).to_have_attribute("data-value", preset_peak, timeout=RENDER_MS)
        # A custom field error shows next to that field.
        root.locator('[data-calc-field="model.num_key_value_heads"]').fill("3")
        expect(root.locator('[data-calc-error-for="model.num_key_value_heads"]')).to_be_visible()
        root.locator('[data-calc-field="model.num_key_value_heads"]').fill("8")
        expect(root.locator('[data-calc-error-for="model.num_key_value_heads"]')).to_be_hidden()
        # The link keeps a custom model as custom.
        page.wait_for_function("new URL(location.href).searchParams.has('calc')")
        page.wait_for_function("JSON.parse(new URL(location.href).searchParams.get('calc'))['calc-estimator-1']"
                               ".model_source === 'custom'")
        page.reload()
        wait_ready(page, "#calc-estimator-1")
        expect(root.locator('[data-calc-source="custom"]')).to_be_visible()
        page.wait_for_function("document.querySelector('#calc-estimator-1 [data-calc-summary] "
                               "[data-calc-output=\"peak_bytes_per_gpu\"]').dataset.value === arguments[0]"
                               .replace("arguments[0]", json.dumps(preset_peak)))
    finally:
        reset(page)


# ------------------------------------------------------------------------------------------------------------
# Links
# ------------------------------------------------------------------------------------------------------------
def test_state_from_the_address_survives_the_toc_a_reload_and_the_language_switch(page, guard, site_url):
    state = {"model": "qwen2.5-7b", "method": "lora", "lora_rank": 64, "seq_len": 1024, "micro_batch_size": 2,
             "grad_accum_steps": 8, "gpu": "l40s", "dpo": True}
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(url(site_url, "en", "calculator/") + "?calc=" + quote(json.dumps({"calc-estimator-1": state})))
    wait_ready(page, "#calc-estimator-1")
    root = page.locator("#calc-estimator-1")
    page.wait_for_function("document.querySelector('#calc-estimator-1 [data-calc-output=\"effective_batch_size\"]')"
                           ".dataset.value === '16'")
    _, defaults, _ = meta(root)
    assert_shows(root, {**defaults, **state}, "en")
    expect(root.locator("[data-calc-notice]")).to_have_text(S["en"].get("notice.link_applied"))
    # A click in the table of contents changes the hash, not the inputs in the address.
    page.locator(".md-sidebar--secondary a.md-nav__link").first.click()
    page.wait_for_function("location.hash.length > 1")
    assert link_state(page) == {"calc-estimator-1": state}
    page.reload()
    wait_ready(page, "#calc-estimator-1")
    page.wait_for_function("document.querySelector('#calc-estimator-1 [data-calc-output=\"effective_batch_size\"]')"
                           ".dataset.value === '16'")
    # The language switcher carries them: the Arabic page shows the same inputs and figures.
    page.locator(".md-header__option .md-select").hover()
    page.locator('.md-select__link[hreflang="ar"]').click()
    page.wait_for_url("**/calculator/?calc=*")
    assert "/en/" not in page.url
    wait_ready(page, "#calc-estimator-1")
    page.wait_for_function("document.querySelector('#calc-estimator-1 [data-calc-output=\"effective_batch_size\"]')"
                           ".dataset.value === '16'")
    assert_shows(page.locator("#calc-estimator-1"), {**defaults, **state}, "ar")
    assert page.locator('#calc-estimator-1 [data-calc-field="lora_rank"]').input_value() == "64"
    # Links of the older #calc= form still work.
    page.goto(url(site_url, "en", "calculator/") + "#calc=" + quote(json.dumps({"calc-estimator-1": {"seq_len": 512}})))
    wait_ready(page, "#calc-estimator-1")
    page.wait_for_function("document.querySelector('#calc-estimator-1 [data-calc-field=\"seq_len\"]').value === '512'")


def test_a_config_too_long_for_an_address_is_said_and_the_rest_is_kept(page, guard, site_url):
    page.goto(url(site_url, "en", "calculator/"))
    wait_ready(page, "#calc-estimator-1")
    root = page.locator("#calc-estimator-1")
    root.locator('[data-calc-field="seq_len"]').fill("1024")
    config = {"hidden_size": 2048, "num_hidden_layers": 16, "num_attention_heads": 16, "vocab_size": 32000,
              "intermediate_size": 5632, "notes": "x" * 9000}
    root.locator('[data-calc-control="model_source"][value="paste"]').check()
    arm(root)
    root.locator('[data-calc-field="config"]').fill(json.dumps(config))
    wait_rendered(root)
    expect(root.locator("[data-calc-notice]")).to_have_text(S["en"].get("notice.state_too_long"))
    page.wait_for_function("new URL(location.href).searchParams.has('calc')")
    assert link_state(page) == {"calc-estimator-1": {"seq_len": 1024}}
    page.reload()                                   # and the address it wrote is accepted
    wait_ready(page, "#calc-estimator-1")
    page.wait_for_function("document.querySelector('#calc-estimator-1 [data-calc-field=\"seq_len\"]').value === '1024'")
    expect(root.locator("[data-calc-notice]")).to_have_text(S["en"].get("notice.link_applied"))


HOSTILE = [
    json.dumps({"calc-estimator-1": {"model": "<img src=x onerror=window.__pwned=1>"}}),
    json.dumps({"calc-estimator-1": {"seq_len": 1e308, "micro_batch_size": 10**30}}),
    json.dumps({"calc-estimator-1": {"__proto__": {"polluted": 1}, "innerHTML": "<b>x</b>"}}),
    json.dumps({"calc-seqlen-9": {"seq_len": 1}, "calc-estimator-1": {"gpu": "\"><svg onload=window.__pwned=1>"}}),
    '{"calc-estimator-1": {"seq_len": ',
    "[1, 2]",
]


def test_hostile_links_are_inert_and_fall_back_to_defaults(page, guard, site_url):
    page.goto(url(site_url, "en", "calculator/"))      # the defaults, as written at build time
    root = page.locator("#calc-estimator-1")
    _, defaults, fixed = meta(root)
    default_fragment = normalised(page, python_render("estimator", defaults, fixed, "en")[0])
    for link in HOSTILE:
        page.goto(url(site_url, "en", "calculator/") + "?calc=" + quote(link))
        wait_ready(page, "#calc-estimator-1")
        notice = page.locator("#calc-estimator-1 [data-calc-notice]")
        expect(notice).to_have_text(S["en"].get("notice.link_invalid"))
        assert root.locator('select[data-calc-field="model"]').input_value() == defaults["model"]
        assert root.locator('[data-calc-field="seq_len"]').input_value() == str(defaults["seq_len"])
        assert root.locator("[data-calc-fragment]").inner_html() == default_fragment
        page.wait_for_function("!new URL(location.href).searchParams.has('calc')")  # the bad state is dropped
        assert page.evaluate("window.__pwned") is None
        assert page.evaluate("({}).polluted") is None
        assert root.locator("img, svg[onload], b").count() == 0


# ------------------------------------------------------------------------------------------------------------
# Keyboard
# ------------------------------------------------------------------------------------------------------------
def _value(el) -> str:
    return el.evaluate("e => e.type === 'checkbox' || e.type === 'radio' ? String(e.checked) : e.value")


def test_keyboard_alone_changes_every_input(live):
    page = live["en"]
    root = page.locator("#calc-estimator-1")
    try:
        root.locator('[data-calc-field="method"]').focus()
        page.keyboard.press("ArrowDown")  # full -> lora: the LoRA inputs appear
        expect(root.locator('[data-calc-group="lora"]')).to_be_visible()
        changed: set[str] = set()
        root.locator('[data-calc-control="model_source"]').first.focus()
        visited = 0
        while visited < 80:
            el = page.locator(":focus")
            if not el.count() or not el.evaluate("(e) => !!e.closest('#calc-estimator-1')"):
                break
            visited += 1
            field = el.get_attribute("data-calc-field") or el.get_attribute("data-calc-control") or \
                el.evaluate("e => e.tagName")
            tag = el.evaluate("e => e.tagName + ':' + (e.type || '')")
            before = _value(el)
            if tag.startswith("SELECT"):
                page.keyboard.press("ArrowDown")
                if _value(el) == before:
                    page.keyboard.press("ArrowUp")
            elif tag == "INPUT:checkbox":
                page.keyboard.press("Space")
            elif tag in ("INPUT:text", "TEXTAREA:textarea"):
                page.keyboard.press("End")
                page.keyboard.type("2")
            elif tag == "INPUT:search":
                page.keyboard.type("qwen")
            elif tag == "INPUT:radio" or tag.startswith("SUMMARY") or tag.startswith("DIV"):
                page.keyboard.press("Tab")
                continue
            if _value(el) != before:
                changed.add(field)
            if tag == "INPUT:checkbox":      # undo toggles that would hide later inputs or contradict others
                page.keyboard.press("Space")
            page.keyboard.press("Tab")
        expected = {"model_filter", "model", "dpo", "lora_rank", "lora_targets", "micro_batch_size", "seq_len",
                    "grad_accum_steps", "gradient_checkpointing", "attention", "precision", "optimizer", "gpu",
                    "num_gpus", "sharding", "cpu_offload"}
        assert expected <= changed, sorted(expected - changed)
        # Radios: the arrow keys move between the model sources.
        root.locator('[data-calc-control="model_source"]').first.focus()
        page.keyboard.press("ArrowRight")
        expect(root.locator('[data-calc-source="custom"]')).to_be_visible()
        # The "more settings" disclosure opens with Enter and its inputs are reachable.
        root.locator("details.calc-more > summary").focus()
        page.keyboard.press("Enter")
        page.keyboard.press("Tab")
        assert page.locator(":focus").get_attribute("data-calc-field") == "lora_dtype"
        page.keyboard.press("ArrowDown")
        assert page.locator(":focus").input_value() == "bf16"
    finally:
        reset(page)
