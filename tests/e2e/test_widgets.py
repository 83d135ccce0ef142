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

from calculator import api
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


#: The inputs the address carries, as JSON text (null when it carries none): in its fragment, after any anchor.
STATE_JS = ("(() => { const p = location.hash.slice(1).split('&').find(x => x.startsWith('calc='));"
            " return p === undefined ? null : decodeURIComponent(p.slice(5)); })()")


def link_state(page) -> dict:
    value = page.evaluate(STATE_JS)
    assert value, page.url
    return json.loads(value)


def state_link(state: dict, anchor: str = "") -> str:
    """The fragment of a link carrying ``state`` (after ``anchor``, if any)."""
    return "#" + (anchor + "&" if anchor else "") + "calc=" + quote(json.dumps(state))


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
    gpu_class = root.locator("select[data-calc-gpu-class]")   # the GPU table's class filter (no recompute); GRPO's
    if gpu_class.count():                                       # answer has no GPU table
        gpu_class.select_option("all")
    root.locator('[data-calc-field="method"]').select_option("lora")     # shows the LoRA fields while they are set
    root.locator('[data-calc-field="grpo"]').check()                     # GRPO's and vLLM's too (GROUP_SHOWN_WHEN)
    root.locator('[data-calc-field="grpo_generator"]').select_option("vllm_server")
    details = root.locator("details.calc-more")
    if details.get_attribute("open") is None:
        details.locator("summary").click()
    last = ("grpo_generator", "grpo", "method")                          # the keys that show the others, set last
    for key, value in [*((k, v) for k, v in defaults.items() if k not in last), *((k, defaults[k]) for k in last)]:
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
        ('[data-calc-field="method"]', "select", "lora", {"method": "lora"}),   # the page opens on QLoRA
        ('[data-calc-field="seq_len"]', "fill", "٤٠٩٦", {"seq_len": 4096}),        # Arabic-Indic digits
        ('[data-calc-field="micro_batch_size"]', "fill", "４", {"micro_batch_size": 4}),  # full-width digits
        ('[data-calc-field="gpu"]', "select", "rtx-3090", {"gpu": "rtx-3090"}),             # a card with no price
        # checkpointing is on in the form's first setup: off, then on again (both kinds of click)
        ('[data-calc-field="gradient_checkpointing"]', "uncheck", None, {"gradient_checkpointing": False}),
        ('[data-calc-field="gradient_checkpointing"]', "check", None, {"gradient_checkpointing": True}),
        ('[data-calc-field="lora_targets"][value="lm_head"]', "check", None, {}),
        ('[data-calc-field="dataset_tokens"]', "fill", "10,000,000", {"dataset_tokens": 10_000_000}),  # grouping
        ('[data-calc-field="gpu_hour_price"]', "fill", "1٫5", {"gpu_hour_price": 1.5}),  # an Arabic decimal point
        ('[data-calc-field="gpu"]', "select", "a100-80gb", {"gpu": "a100-80gb"}),   # fits: a time and a cost
    ]
    try:
        for selector, action, value, change in steps:
            arm(root)
            control = root.locator(selector)
            if action == "select":
                control.select_option(value)
            elif action == "fill":
                control.fill(value)
            elif action == "uncheck":
                control.uncheck()
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
        # "More settings": compile and a fused loss shrink the logits term (a framework's fused loss may be on); the
        # page still equals CPython.
        root.locator("details.calc-more > summary").click()
        for key in [k for k in ("torch_compile", "fused_linear_cross_entropy") if not defaults[k]]:
            arm(root)
            root.locator(f'[data-calc-field="{key}"]').check()
            wait_rendered(root)
            state[key] = True
        assert_shows(root, state, lang)
        # The address carries exactly what differs from the defaults.
        page.wait_for_function(f"{STATE_JS} !== null")
        expected = {k: v for k, v in state.items() if v != defaults[k]}
        page.wait_for_function(f"n => Object.keys(JSON.parse({STATE_JS})['calc-estimator-1']).length === n",
                               arg=len(expected))
        assert link_state(page) == {"calc-estimator-1": expected}
        # Latin digits and isolated runs on the Arabic page too; the effective batch follows.
        assert not re.search("[\u0660-\u0669]", root.locator("[data-calc-fragment]").inner_text())
        assert root.locator('[data-calc-output="effective_batch_size"]').get_attribute("data-value") == "4"
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
    # Results follow the inputs: no submit, and the only buttons are the paste box's "read", the Hub's "read its
    # config" (asked only on a click) and "Run it"'s own.
    assert root.locator("[type=submit]").count() == 0
    assert root.locator("button").evaluate_all(
        "bs => bs.filter(b => !b.closest('[data-calc-import-box], [data-calc-hub], [data-calc-run]')).length") == 0
    # every control a reader sees (the hidden regime record, which no one types into, is not one)
    for el in root.locator("[data-calc-field]:not([type=hidden])").all():
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
    expect(box).to_be_visible(timeout=RENDER_MS)        # a render in the worker, on two busy cores
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


def test_huge_values_are_cut_before_the_worker_and_refused_next_to_their_control(live):
    """A value of megabytes (typed, pasted) never reaches the worker whole: calc.js cuts it one character beyond
    Python's limit (form.TRANSPORT_LIMITS, written into the page by the build), so the worker reads at most that and
    the reader sees "too large" next to the control, never internal_error. The review's F1 input (4,301 digits in a
    number field) is among them."""
    from calculator.api import MAX_INPUT_CHARS
    from calculator.page.form import MAX_FIELD_CHARS
    page, s = live["en"], S["en"]
    root = page.locator("#calc-estimator-1")
    page.evaluate("""() => { window.__sent = [];
        const post = window.__post = Worker.prototype.postMessage;
        Worker.prototype.postMessage = function (m) { window.__sent.push(JSON.stringify(m).length); return post.call(this, m); };
    }""")
    try:
        seq = root.locator('[data-calc-field="seq_len"]')
        for typed in ("9" * 4301, "1" * 300_000):
            seq.fill(typed)
            expect_error(root, "seq_len", plain_text(message_for(s, "too_large", "seq_len")), "too_large")
        seq.fill("2048")
        expect(root.locator('[data-calc-error-for="seq_len"]')).to_be_hidden()
        root.locator('[data-calc-control="model_source"][value="paste"]').check()
        root.locator('[data-calc-field="config"]').fill('{"hidden_size": 2048, "notes": "' + "x" * 3 * MAX_INPUT_CHARS + '"}')
        # refused on the model (the box is the model's source): the message says both limits the model has
        expect_error(root, "config", plain_text(message_for(s, "too_large", "model")), "too_large")
        sent = page.evaluate("window.__sent")
        assert sent and max(sent) < MAX_INPUT_CHARS + 4 * MAX_FIELD_CHARS, max(sent)
    finally:
        page.evaluate("() => { Worker.prototype.postMessage = window.__post; }")
        if root.locator('[data-calc-field="config"]').is_visible():
            root.locator('[data-calc-field="config"]').fill("")     # the next test finds the paste box empty
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
        page.wait_for_function(f"{STATE_JS} !== null")
        page.wait_for_function(f"JSON.parse({STATE_JS})['calc-estimator-1'].model_source === 'custom'")
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
class Requests:
    """Every request a browser context makes -- the page's, its module worker's (Pyodide and the wheel), the
    navigations -- with its Referer header, so a test can say that none carries the calculator's inputs."""

    def __init__(self, context) -> None:
        self.seen: list = []
        context.on("request", lambda request: self.seen.append(request))

    def since(self, n: int) -> list[tuple[str, str]]:
        return [(r.url, r.all_headers().get("referer", "")) for r in self.seen[n:]]


#: What would give the inputs away in a request line or a Referer: the state's key, or any of its keys written out.
LEAKS = ("calc=", "calc%3D", "seq_len", "lora_rank", "qwen2.5-7b", "%7B%22")


def assert_no_state_sent(requests: list[tuple[str, str]], where: str) -> None:
    assert requests, f"{where}: no request was recorded"
    for request_url, referer in requests:
        for leak in LEAKS:
            assert leak not in request_url and leak not in referer, f"{where}: {request_url} (Referer {referer})"


def test_the_state_lives_in_the_fragment_and_never_reaches_the_server(page, guard, site_url):
    """The privacy promise: the inputs stay in the address's fragment, which no request carries. An old ?calc= link
    (the one request that carried them, before this fix) is read once and rewritten; after that no request -- the
    page's, the worker's, a reload's, the other language's -- carries them in its address or its Referer, and a
    click in the table of contents, a reload and the language switch keep them."""
    requests = Requests(page.context)
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
    # Rewritten: the query is gone, the fragment has the inputs; only the old link's own request carried them, and
    # the page's requests (styles, scripts, the worker's runtime) carried them neither in their address nor their
    # Referer (the page's referrer policy sends the origin alone).
    assert "?" not in page.url and link_state(page) == {"calc-estimator-1": state}
    first = requests.since(0)
    assert "?calc=" in first[0][0]                 # the old link's own request: sent before any script could run
    assert any(u.endswith(".wasm") for u, _ in first), "the worker's requests were not recorded"
    assert_no_state_sent(first[1:], "opening an old ?calc= link")
    # A click in the table of contents changes the anchor and keeps the inputs (in-page navigation).
    toc = page.locator(".md-sidebar--secondary a.md-nav__link").first
    anchor = toc.get_attribute("href").lstrip("#")
    toc.click()
    page.wait_for_function("a => location.hash.startsWith('#' + a + '&calc=')", arg=anchor)
    assert link_state(page) == {"calc-estimator-1": state}
    # A reload: nothing it requests carries the inputs, and it shows them at the reader's section.
    n = len(requests.seen)
    page.reload()
    wait_ready(page, "#calc-estimator-1")
    page.wait_for_function("document.querySelector('#calc-estimator-1 [data-calc-output=\"effective_batch_size\"]')"
                           ".dataset.value === '16'")
    reload = requests.since(n)
    assert any(u.endswith(".wasm") for u, _ in reload)
    assert_no_state_sent(reload, "reload")
    assert splitext_anchor(page) == anchor
    # An edit is written to the fragment, keeping the anchor.
    arm(root)
    root.locator('[data-calc-field="lora_rank"]').fill("48")
    wait_rendered(root)
    page.wait_for_function(f"JSON.parse({STATE_JS})['calc-estimator-1'].lora_rank === 48")
    assert splitext_anchor(page) == anchor
    # The language switcher carries them: the Arabic page shows the same inputs and figures, and its requests do
    # not carry them.
    n = len(requests.seen)
    page.locator(".md-header__option .md-select").hover()
    page.locator('.md-select__link[hreflang="ar"]').click()
    page.wait_for_url("**/calculator/#*calc=*")
    assert "/en/" not in page.url
    wait_ready(page, "#calc-estimator-1")
    page.wait_for_function("document.querySelector('#calc-estimator-1 [data-calc-output=\"effective_batch_size\"]')"
                           ".dataset.value === '16'")
    assert_shows(page.locator("#calc-estimator-1"), {**defaults, **state, "lora_rank": 48}, "ar")
    assert_no_state_sent(requests.since(n), "language switch")
    # A link of the fragment form opened on the page itself (same document: only the fragment changes) is applied.
    n = len(requests.seen)
    page.goto(url(site_url, "en", "calculator/") + state_link({"calc-estimator-1": {"seq_len": 512}}))
    wait_ready(page, "#calc-estimator-1")
    page.wait_for_function("document.querySelector('#calc-estimator-1 [data-calc-field=\"seq_len\"]').value === '512'")
    page.evaluate("location.hash = " + json.dumps(state_link({"calc-estimator-1": {"seq_len": 768}})))
    page.wait_for_function("document.querySelector('#calc-estimator-1 [data-calc-field=\"seq_len\"]').value === '768'")
    assert_no_state_sent(requests.since(n), "fragment links")


def splitext_anchor(page) -> str:
    """The anchor part of the address's fragment (before ``&calc=``)."""
    return page.evaluate("location.hash.slice(1).split('&').filter(x => !x.startsWith('calc=')).join('&')")


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
    page.wait_for_function(f"{STATE_JS} !== null")
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
        page.goto("about:blank")                     # a new document for each link: a fragment alone would not load
        page.goto(url(site_url, "en", "calculator/") + "#calc=" + quote(link))   # one (hashchange applies it)
        wait_ready(page, "#calc-estimator-1")
        notice = page.locator("#calc-estimator-1 [data-calc-notice]")
        expect(notice).to_have_text(S["en"].get("notice.link_invalid"))
        assert root.locator('select[data-calc-field="model"]').input_value() == defaults["model"]
        assert root.locator('[data-calc-field="seq_len"]').input_value() == str(defaults["seq_len"])
        assert root.locator("[data-calc-fragment]").inner_html() == default_fragment
        page.wait_for_function(f"{STATE_JS} === null")  # the bad state is dropped
        assert page.evaluate("window.__pwned") is None
        assert page.evaluate("({}).polluted") is None
        assert root.locator("img, svg[onload], b").count() == 0


# ------------------------------------------------------------------------------------------------------------
# Keyboard
# ------------------------------------------------------------------------------------------------------------
def _value(el) -> str:
    return el.evaluate("e => e.type === 'checkbox' || e.type === 'radio' ? String(e.checked) : e.value")


def test_the_first_answer_is_the_plain_stack_and_a_framework_fills_what_the_reader_left(live):
    """Llama 3.1 70B QLoRA on an RTX A6000: the form starts from the plain stack (framework none, as every widget
    and article does; issue 42), with checkpointing on; picking TRL puts TRL's regime into the fields still at the
    form's values (calculator/frameworks.py: the fp32 load and compute, uint8 storage, LoRA on q/v), so the answer is
    TRL's; picking "None" again gives the plain stack's back, checkpointing (TRL's default too) off."""
    from calculator.page.kinds.estimator import framework_form
    page = live["en"]
    root = page.locator("#calc-estimator-1")
    _, defaults, _ = meta(root)
    assert defaults["framework"] == "none"
    expect(root.locator('[data-calc-field="framework"]')).to_have_value("none")
    expect(root.locator('[data-calc-field="gradient_checkpointing"]')).to_be_checked()
    ask = {"model": "llama-3.1-70b", "method": "qlora", "gpu": "rtx-a6000"}
    try:
        for key, value in ask.items():
            arm(root)
            root.locator(f'[data-calc-field="{key}"]').select_option(value)
            wait_rendered(root)
        state = {**defaults, **ask}
        assert_shows(root, state)
        plain = api.answer({**state, "include": []})["result"]
        arm(root)
        root.locator('[data-calc-field="framework"]').select_option("trl")
        wait_rendered(root)
        trl_state = {**state, "framework": "trl", **framework_form("trl", "qlora")}
        trl = api.answer({**trl_state, "include": []})["result"]
        filled = {d["key"]: d["value"] for d in trl["framework"]["defaults"]}   # the regime TRL fills, with sources
        assert filled["base_fp32"] is True and filled["qlora_compute_dtype"] == "fp32"
        assert filled["quant_storage"] == "uint8"
        peak = root.locator('[data-calc-summary] [data-calc-output="peak_bytes_per_gpu"]')
        expect(peak).to_have_attribute("data-value", str(trl["peak_bytes_per_gpu"]), timeout=RENDER_MS)
        assert_shows(root, trl_state)
        assert trl["peak_bytes_per_gpu"] != plain["peak_bytes_per_gpu"]
        arm(root)
        root.locator('[data-calc-field="framework"]').select_option("none")
        wait_rendered(root)
        expect(root.locator('[data-calc-field="gradient_checkpointing"]')).not_to_be_checked()
        expect(root.locator('[data-calc-field="method"]')).to_have_value("qlora")
        assert_shows(root, {**state, "gradient_checkpointing": False})
    finally:
        reset(page)


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
        expected = {"model_picker", "model", "dpo", "lora_rank", "lora_targets", "micro_batch_size", "seq_len",
                    "grad_accum_steps", "gradient_checkpointing", "attention", "precision", "optimizer", "gpu_picker",
                    "gpu", "num_gpus", "sharding", "cpu_offload"}
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


@pytest.mark.parametrize("lang", ["en"])
def test_what_fits_is_answered_in_slices_and_a_newer_change_wins(started, lang):
    """worker.mjs answers a change's 216 requests a slice per Python call (Page.prepare), then draws: the change's
    Python time is several calls, so its longest is shorter than their sum. A change made while another is still
    being answered stops it; the table drawn is the newer state's, with no error shown for the one overtaken."""
    shown = started(lang, "articles/five-ways/")
    root = shown.page.locator('[data-calc-kind="fits"]').first
    root.scroll_into_view_if_needed()
    root.page.wait_for_function("r => r.dataset.calcState === 'ready'", arg=root.element_handle(), timeout=RENDER_MS)
    _, defaults, _ = meta(root)
    root.evaluate("r => { r.__details = []; r.addEventListener('calc:rendered', (e) => r.__details.push(e.detail)); }")
    arm(root)
    root.locator('[data-calc-field="seq_len"]').fill("3,000")
    wait_rendered(root)
    detail = root.evaluate("r => r.__details[0]")
    assert 0 < detail["longestMs"] < detail["pythonMs"], detail
    assert_shows(root, {**defaults, "seq_len": 3000}, lang)
    # two changes, the second before the first is answered: a typed length, then another card at once
    arm(root)
    root.locator('[data-calc-field="seq_len"]').fill("5,000")
    root.page.wait_for_timeout(180)          # calc.js sends typed text after 150 ms; its 216 requests take longer
    root.locator('[data-calc-field="gpu"]').select_option("a100-80gb")
    assert_shows(root, {**defaults, "seq_len": 5000, "gpu": "a100-80gb"}, lang)
    assert root.locator("[data-calc-error-for]:not([hidden])").count() == 0
    assert root.get_attribute("data-calc-state") == "ready"
