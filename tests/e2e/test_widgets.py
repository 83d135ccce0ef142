"""The calculator widgets in Debian Chromium: the bundled Pyodide runtime reaches "ready", the figures the page shows
equal what ``calculator.api.estimate`` returns in CPython for the same inputs, invalid and hostile inputs are inert,
a blocked runtime says so in the reader's language, and the build-time figures stand without JavaScript.

Pyodide takes seconds to start on two cores, so each test loads as few pages as it can and checks several things
per load. The requests a widget sends are rebuilt here from its ``data-calc-defaults`` / ``data-calc-plan`` (the
documented widget surface), then computed in this process with the estimator itself.
"""
from __future__ import annotations

import base64
import csv
import hashlib
import io
import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from calculator import api

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
READY_MS = 90_000
STRINGS = {lang: json.loads((ROOT / "overrides" / "strings" / f"{lang}.json").read_text(encoding="utf-8"))["calc"]
           for lang in ("ar", "en")}


def url(base: str, lang: str, path: str) -> str:
    return f"{base}{'en/' if lang == 'en' else ''}{path}"


def py(request: dict) -> dict:
    out = json.loads(api.estimate(json.dumps(request)))
    assert out["ok"], out
    return out["result"]


def requests_for(kind: str, state: dict, plan: dict) -> list[dict]:
    if kind == "estimator":
        return [dict(state)]
    if kind == "compare":
        return [{**state, "method": m, "dpo": d, "include": []} for m, d in plan["variants"]]
    if kind == "fits":
        return [{**state, "model": model, "method": m, "include": []} for model in plan["models"] for m in plan["methods"]]
    if kind == "seqlen":
        return [{**state, "seq_len": plan["seq_lens"][0], "include": ["inverse"]},
                *({**state, "seq_len": n, "include": []} for n in plan["seq_lens"])]
    raise AssertionError(kind)


def widget_meta(root) -> tuple[str, dict, dict]:
    return (root.get_attribute("data-calc-kind"), json.loads(root.get_attribute("data-calc-defaults")),
            json.loads(root.get_attribute("data-calc-plan")))


def shown_peaks(root) -> list[int]:
    return [int(v) for v in root.locator('[data-calc-output="peak_bytes_per_gpu"]').evaluate_all(
        "els => els.map(e => e.dataset.value)")]


def expected_peaks(kind: str, results: list[dict]) -> list[int]:
    if kind == "seqlen":
        results = results[1:]  # the first request only asks for the longest sequence that fits
    return [r["peak_bytes_per_gpu"] for r in results]


def assert_matches_python(root, state: dict | None = None) -> list[dict]:
    """Every figure with data-calc-output in this widget equals the CPython estimate for ``state``."""
    kind, defaults, plan = widget_meta(root)
    state = defaults if state is None else state
    results = [py(r) for r in requests_for(kind, state, plan)]
    assert shown_peaks(root) == expected_peaks(kind, results)
    if kind == "estimator":
        r = results[0]
        values = dict(root.locator("[data-calc-output]").evaluate_all(
            "els => els.map(e => [e.dataset.calcOutput, e.dataset.value])"))
        assert int(values["range.low_bytes"]) == r["range"]["low_bytes"]
        assert int(values["range.high_bytes"]) == r["range"]["high_bytes"]
        assert int(values["params"]) == r["params"]
        assert int(values["trainable_params"]) == r["trainable_params"]
        assert int(values["checkpoint_bytes"]) == r["checkpoint_bytes"]
        assert int(values["effective_batch_size"]) == r["effective_batch_size"]
        assert int(values["max_seq_len"]) == r["max_seq_len"]
        assert int(values["max_micro_batch_size"]) == r["max_micro_batch_size"]
        assert values["gpu.verdict"] == r["gpu"]["verdict"]
        if r["adapter_bytes"]:
            assert int(values["adapter_bytes"]) == r["adapter_bytes"]
        remedies = root.locator("[data-remedy]").evaluate_all("els => els.map(e => e.dataset.remedy)")
        assert remedies == [x["remedy"] for x in r.get("remedies", [])]
        verdicts = root.locator('[data-calc-output="gpu_table"] tbody tr').evaluate_all(
            "rows => rows.map(r => [r.dataset.gpu, [...r.querySelectorAll('[data-verdict]')].map(v => v.dataset.verdict)])")
        assert verdicts == [[row["gpu"], [s["verdict"] for s in row["setups"]]] for row in r["gpu_table"]]
    if kind == "seqlen":
        assert int(root.locator('[data-calc-output="max_seq_len"]').get_attribute("data-value")) == results[0]["max_seq_len"]
    return results


def wait_ready(page, selector: str = "[data-calc-root]") -> None:
    page.locator(selector).first.scroll_into_view_if_needed()
    page.wait_for_function("document.documentElement.dataset.calcRuntime === 'ready'", timeout=READY_MS)
    expect(page.locator(selector).first).to_have_attribute("data-calc-state", "ready", timeout=READY_MS)


def arm(root) -> None:
    """Count the widget's redraws from now on (calc.js dispatches ``calc:rendered`` after each one)."""
    root.evaluate("r => { r.__renders = 0; r.addEventListener('calc:rendered', () => { r.__renders += 1; }); }")


def wait_rendered(root, count: int = 1) -> None:
    root.page.wait_for_function("([id, n]) => document.getElementById(id).__renders >= n",
                                arg=[root.get_attribute("id"), count], timeout=15_000)


def calc_hash(page) -> dict:
    h = page.evaluate("location.hash")
    assert h.startswith("#calc="), h
    from urllib.parse import unquote
    return json.loads(unquote(h[len("#calc="):]))


# ------------------------------------------------------------------------------------------------------------
# Ready, and the same numbers as CPython (the prerendered defaults, then the live ones)
# ------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["ar", "en"])
def test_estimator_page_is_ready_and_agrees_with_python(page, guard, site_url, lang):
    page.goto(url(site_url, lang, "calculator/"))
    root = page.locator("#calc-estimator-1")
    # Before the runtime: the build-time figures and a "loading" state, inputs disabled.
    assert root.get_attribute("data-calc-kind") == "estimator"
    assert page.locator("#calc-estimator-1 [data-calc-fieldset]").get_attribute("disabled") is not None or \
        root.get_attribute("data-calc-state") == "ready"
    assert_matches_python(root)
    status = page.locator("#calc-estimator-1 [data-calc-status]")
    assert status.get_attribute("aria-live") == "polite"
    wait_ready(page, "#calc-estimator-1")
    expect(status).to_have_text(STRINGS[lang]["status"]["ready"])
    assert page.locator("#calc-estimator-1 [data-calc-fieldset]").get_attribute("disabled") is None
    assert root.locator("button, [type=submit]").count() == 0  # results follow the inputs; no button
    # Every input is labelled and tied to its explanation.
    for el in root.locator("[data-calc-field]").all():
        el_id = el.get_attribute("id")
        if el_id:
            assert page.locator(f'label[for="{el_id}"]').count() == 1, el_id
            assert f"{el_id}-help" in (el.get_attribute("aria-describedby") or "")
        else:
            assert el.evaluate("e => !!e.closest('label')")
    # Live: change a choice and a typed value; the page recomputes with Pyodide and still agrees with CPython.
    arm(root)
    root.locator('[data-calc-field="method"]').select_option("qlora")
    wait_rendered(root)
    root.locator('[data-calc-field="seq_len"]').fill("4096")
    root.locator('[data-calc-field="gpu"]').select_option("a100-80gb")
    root.locator('[data-calc-field="gradient_checkpointing"]').check()
    page.wait_for_function("location.hash.includes('a100-80gb') && location.hash.includes('gradient_checkpointing')")
    _, defaults, _ = widget_meta(root)
    state = {**defaults, "method": "qlora", "seq_len": 4096, "gpu": "a100-80gb", "gradient_checkpointing": True}
    assert calc_hash(page) == {"calc-estimator-1": {"method": "qlora", "seq_len": 4096, "gpu": "a100-80gb",
                                          "gradient_checkpointing": True}}
    results = assert_matches_python(root, state)
    # The "more settings" toggles reach the estimator too: compile and a fused loss shrink the logits term.
    root.locator("summary").click()
    arm(root)
    root.locator('[data-calc-field="torch_compile"]').check()
    wait_rendered(root)
    root.locator('[data-calc-field="fused_linear_cross_entropy"]').check()
    page.wait_for_function("location.hash.includes('fused_linear_cross_entropy')")
    fused = assert_matches_python(root, {**state, "torch_compile": True, "fused_linear_cross_entropy": True})
    assert fused[0]["breakdown_bytes"]["logits_loss"] < results[0]["breakdown_bytes"]["logits_loss"]
    root.locator('[data-calc-field="fused_linear_cross_entropy"]').uncheck()
    root.locator('[data-calc-field="torch_compile"]').uncheck()
    page.wait_for_function("!location.hash.includes('torch_compile')")
    results = assert_matches_python(root, state)
    # Latin digits and isolated runs, also on the Arabic page.
    peak_text = root.locator('[data-calc-output="peak_bytes_per_gpu"]').inner_text()
    assert re.search(r"[0-9]+\.[0-9] GB", peak_text) and "GiB" in peak_text
    assert not re.search("[\u0660-\u0669]", root.inner_text())
    assert root.locator('[data-calc-output="peak_bytes_per_gpu"] bdi[dir="ltr"]').count() == 2
    assert results[0]["trainable_params"] < results[0]["params"]
    if lang == "ar":
        # Mirrored: in a row of the input grid the first field sits to the right of the second.
        first = root.locator('[data-calc-wrap="micro_batch_size"]').bounding_box()
        second = root.locator('[data-calc-wrap="seq_len"]').bounding_box()
        assert first["x"] > second["x"]
        label = root.locator('label[for="calc-estimator-1-seq-len"]').bounding_box()
        field = root.locator("#calc-estimator-1-seq-len").bounding_box()
        assert abs((label["x"] + label["width"]) - (field["x"] + field["width"])) < 2  # both start at the right edge


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_article_widgets_agree_with_python(page, guard, site_url, lang):
    """vram-guide: estimator (llama-2-7b, full) and sequence length; five-ways: what fits and the comparison."""
    seen = set()
    for path in ("articles/vram-guide/", "articles/five-ways/"):
        page.goto(url(site_url, lang, path))
        # Nothing starts while no widget is in view (the article is read first).
        assert page.evaluate("document.documentElement.dataset.calcRuntime") == "idle"
        roots = page.locator("[data-calc-root]").all()
        assert roots
        for root in roots:
            assert_matches_python(root)  # prerendered at build time
        wait_ready(page)
        for root in roots:
            root.scroll_into_view_if_needed()
            expect(root).to_have_attribute("data-calc-state", "ready", timeout=READY_MS)
            kind, defaults, plan = widget_meta(root)
            seen.add(kind)
            change = {"estimator": ("seq_len", "1024"), "seqlen": ("micro_batch_size", "2"),
                      "fits": ("seq_len", "8192"), "compare": ("seq_len", "512")}[kind]
            arm(root)
            root.locator(f'[data-calc-field="{change[0]}"]').fill(change[1])
            wait_rendered(root)
            assert_matches_python(root, {**defaults, change[0]: int(change[1])})
    assert seen == {"estimator", "seqlen", "fits", "compare"}


def test_state_from_the_url_and_across_the_language_switch(page, guard, site_url):
    state = {"model": "qwen2.5-7b", "method": "lora", "lora_rank": 64, "seq_len": 1024, "micro_batch_size": 2,
             "grad_accum_steps": 8, "gpu": "l40s", "dpo": True}
    link = "#calc=" + quote(json.dumps({"calc-estimator-1": state}))
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(url(site_url, "en", "calculator/") + link)
    wait_ready(page, "#calc-estimator-1")
    root = page.locator("#calc-estimator-1")
    page.wait_for_function("document.querySelector('#calc-estimator-1 [data-calc-output=\"effective_batch_size\"]').dataset.value === '16'")
    _, defaults, _ = widget_meta(root)
    assert_matches_python(root, {**defaults, **state})
    assert root.locator('[data-calc-field="model"]').first.input_value() == "qwen2.5-7b"
    expect(page.locator("#calc-estimator-1 [data-calc-notice]")).to_have_text(STRINGS["en"]["notice"]["link_applied"])
    # The language switcher carries the state: the Arabic page shows the same inputs and figures.
    page.locator(".md-header__option .md-select").hover()
    page.locator('.md-select__link[hreflang="ar"]').click()
    page.wait_for_url("**/calculator/#calc=*")
    assert "/en/" not in page.url
    wait_ready(page, "#calc-estimator-1")
    root = page.locator("#calc-estimator-1")
    page.wait_for_function("document.querySelector('#calc-estimator-1 [data-calc-output=\"effective_batch_size\"]').dataset.value === '16'")
    assert_matches_python(root, {**defaults, **state})
    assert root.locator('[data-calc-field="lora_rank"]').input_value() == "64"


# ------------------------------------------------------------------------------------------------------------
# Invalid input and hostile links
# ------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["ar", "en"])
def test_invalid_input_shows_the_localized_error_and_keeps_the_last_result(page, guard, site_url, lang):
    s = STRINGS[lang]
    page.goto(url(site_url, lang, "calculator/"))
    wait_ready(page, "#calc-estimator-1")
    root = page.locator("#calc-estimator-1")
    peak = root.locator('[data-calc-output="peak_bytes_per_gpu"]')
    good = peak.get_attribute("data-value")
    seq = root.locator('[data-calc-field="seq_len"]')
    for typed, code in (("abc", "wrong_type"), ("0", "out_of_range"), ("99999999999999999999", "out_of_range")):
        seq.fill(typed)
        error = root.locator('[data-calc-error-for="seq_len"]')
        expect(error).to_be_visible()
        expect(error).to_have_text(s["errors"][code])
        assert error.get_attribute("data-code") == code
        assert seq.get_attribute("aria-invalid") == "true"
        assert error.get_attribute("id") in seq.get_attribute("aria-describedby").split()
        assert peak.get_attribute("data-value") == good  # the last valid result stays
    seq.fill("2048")
    expect(root.locator('[data-calc-error-for="seq_len"]')).to_be_hidden()
    assert seq.get_attribute("aria-invalid") is None
    # A contradiction names the field to change.
    root.locator('[data-calc-field="sharding"]').select_option("zero3")
    expect(root.locator('[data-calc-error-for="sharding"]')).to_have_text(s["errors"]["by_field"]["sharding"])
    root.locator('[data-calc-field="sharding"]').select_option("none")
    expect(root.locator('[data-calc-error-for="sharding"]')).to_be_hidden()
    # A pasted config: broken JSON, a hostile one, then a valid one. Nothing from it becomes markup.
    root.locator('[data-calc-control="model_source"][value="paste"]').check()
    area = root.locator("textarea[data-calc-field='model']")
    area.fill('{"hidden_size": 4096, "num_hidden_layers"')
    expect(root.locator('[data-calc-error-for="config"]')).to_have_text(s["errors"]["invalid_json"])
    area.fill('{"hidden_size": "<img src=x onerror=window.__pwned=1>", "num_hidden_layers": 2, '
              '"num_attention_heads": 2, "vocab_size": 10}')
    expect(root.locator('[data-calc-error-for="config"]')).to_contain_text(s["errors"]["wrong_type"])
    config = {"hidden_size": 2048, "num_hidden_layers": 16, "num_attention_heads": 16, "vocab_size": 32000,
              "intermediate_size": 5632, "_name_or_path": "<script>window.__pwned=1</script>"}
    arm(root)
    area.fill(json.dumps(config))
    wait_rendered(root)
    expect(root.locator('[data-calc-error-for="config"]')).to_be_hidden()
    _, defaults, _ = widget_meta(root)
    assert_matches_python(root, {**defaults, "model": config})
    assert page.evaluate("window.__pwned") is None
    assert root.locator("img, script:not([type='application/json'])").count() == 0
    # The page keeps working: a preset again.
    root.locator('[data-calc-control="model_source"][value="preset"]').check()
    arm(root)
    root.locator('select[data-calc-field="model"]').select_option("llama-2-7b")
    wait_rendered(root)
    assert_matches_python(root, {**defaults, "model": "llama-2-7b"})


HOSTILE = [
    json.dumps({"calc-estimator-1": {"model": "<img src=x onerror=window.__pwned=1>"}}),
    json.dumps({"calc-estimator-1": {"seq_len": 1e308, "micro_batch_size": 10**30}}),
    json.dumps({"calc-estimator-1": {"__proto__": {"polluted": 1}, "innerHTML": "<b>x</b>"}}),
    json.dumps({"calc-seqlen-9": {"seq_len": 1}, "calc-estimator-1": {"gpu": "\"><svg onload=window.__pwned=1>"}}),
    '{"calc-estimator-1": {"seq_len": ',
    "%E0%A4%A",
]


def test_hostile_links_are_inert_and_fall_back_to_defaults(page, guard, site_url):
    page.goto(url(site_url, "en", "calculator/") + "#calc=" + quote(HOSTILE[0]))
    wait_ready(page, "#calc-estimator-1")
    root = page.locator("#calc-estimator-1")
    _, defaults, _ = widget_meta(root)
    default_peak = str(py(defaults)["peak_bytes_per_gpu"])
    notice = page.locator("#calc-estimator-1 [data-calc-notice]")
    for i, link in enumerate(HOSTILE):
        if i:
            page.evaluate("h => { location.hash = h; }", "#calc=" + (link if link.startswith("%") else quote(link)))
        expect(notice).to_be_visible()
        expect(notice).to_have_text(STRINGS["en"]["notice"]["link_invalid"])
        expect(root.locator('[data-calc-output="peak_bytes_per_gpu"]')).to_have_attribute("data-value", default_peak)
        assert root.locator('select[data-calc-field="model"]').input_value() == defaults["model"]
        assert root.locator('[data-calc-field="seq_len"]').input_value() == str(defaults["seq_len"])
        assert page.evaluate("location.hash") == ""  # the bad state is dropped from the address
        page.evaluate("() => { document.querySelector('#calc-estimator-1 [data-calc-notice]').hidden = true; }")
    assert page.evaluate("window.__pwned") is None
    assert page.evaluate("({}).polluted") is None
    assert root.locator("img, svg[onload], b").count() == 0
    assert_matches_python(root)


# ------------------------------------------------------------------------------------------------------------
# Failure and no JavaScript
# ------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["ar", "en"])
def test_blocked_wasm_shows_the_localized_failure(page, context, guard, site_url, lang):
    guard.allow_console.extend(["pyodide.asm.wasm", "ERR_FAILED", "ERR_BLOCKED"])
    blocked: list[str] = []

    def block(route):
        blocked.append(route.request.url)
        route.abort("blockedbyclient")

    context.route("**/pyodide.asm.wasm", block)
    page.goto(url(site_url, lang, "calculator/"))
    root = page.locator("#calc-estimator-1")
    expect(root).to_have_attribute("data-calc-state", "error", timeout=READY_MS)
    s = STRINGS[lang]
    status = page.locator("#calc-estimator-1 [data-calc-status]")
    expect(status).to_contain_text(s["status"]["failed"])
    expect(status).to_contain_text(s["failure"]["download"])
    assert blocked
    assert page.evaluate("document.documentElement.dataset.calcRuntime") == "failed"
    assert page.locator("#calc-estimator-1 [data-calc-fieldset]").get_attribute("disabled") is not None
    assert_matches_python(root)  # the build-time figures are still there
    assert "Traceback" not in page.content()


def test_corrupt_wasm_is_reported_not_an_endless_spinner(page, context, guard, site_url):
    guard.allow_console.append("pyodide.asm.wasm")
    context.route("**/pyodide.asm.wasm", lambda route: route.fulfill(
        status=200, body=b"\0asm-not-really" * 64, headers={"Content-Type": "application/wasm"}))
    page.goto(url(site_url, "en", "calculator/"))
    expect(page.locator("#calc-estimator-1")).to_have_attribute("data-calc-state", "error", timeout=READY_MS)
    expect(page.locator("#calc-estimator-1 [data-calc-status]")).to_contain_text(STRINGS["en"]["failure"]["wasm"])


def test_without_javascript_the_build_time_figures_are_there(browser, site_url):
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        for lang in ("ar", "en"):
            for path in ("calculator/", "articles/vram-guide/", "articles/five-ways/"):
                page.goto(url(site_url, lang, path))
                roots = page.locator("[data-calc-root]").all()
                assert roots
                for root in roots:
                    expect(root.locator(".calc__noscript")).to_have_text(STRINGS[lang]["status"]["noscript"])
                    expect(root.locator('[data-calc-output="peak_bytes_per_gpu"]').first).to_be_visible()
                    assert_matches_python(root)
            # The article tables computed at build time.
            page.goto(url(site_url, lang, "articles/vram-guide/"))
            tables = page.locator("[data-calc-table]")
            assert tables.count() >= 2
            expect(tables.first).to_be_visible()
    finally:
        context.close()


# ------------------------------------------------------------------------------------------------------------
# Keyboard
# ------------------------------------------------------------------------------------------------------------
def _value(el) -> str:
    return el.evaluate("e => e.type === 'checkbox' || e.type === 'radio' ? String(e.checked) : e.value")


def test_keyboard_alone_changes_every_input(page, guard, site_url):
    page.goto(url(site_url, "en", "calculator/"))
    wait_ready(page, "#calc-estimator-1")
    root = page.locator("#calc-estimator-1")
    root.locator('[data-calc-field="method"]').focus()
    page.keyboard.press("ArrowDown")  # full -> lora: the LoRA inputs appear
    expect(root.locator("[data-calc-lora]")).to_be_visible()
    changed: set[str] = set()
    first = root.locator('[data-calc-control="model_source"]').first
    first.focus()
    visited = 0
    while visited < 80:
        el = page.locator(":focus")
        if not el.count() or not el.evaluate("(e) => !!e.closest('#calc-estimator-1')"):
            break
        visited += 1
        field = el.get_attribute("data-calc-field") or el.get_attribute("data-calc-control") or el.evaluate("e => e.tagName")
        tag = el.evaluate("e => e.tagName + ':' + (e.type || '')")
        before = _value(el)
        if tag.startswith("SELECT"):
            page.keyboard.press("ArrowDown")
            if _value(el) == before:
                page.keyboard.press("ArrowUp")
        elif tag in ("INPUT:checkbox",):
            page.keyboard.press("Space")
        elif tag in ("INPUT:text", "TEXTAREA:textarea"):
            page.keyboard.press("End")
            page.keyboard.type("2")
        elif tag == "INPUT:search":
            page.keyboard.type("qwen")
        elif tag == "INPUT:radio" or tag.startswith("SUMMARY"):
            page.keyboard.press("Tab")
            continue
        after = _value(el) if not tag.startswith("SUMMARY") else before
        if after != before:
            changed.add(field)
        # Undo toggles that would hide later inputs or make the state contradictory.
        if tag == "INPUT:checkbox":
            page.keyboard.press("Space")
        page.keyboard.press("Tab")
    expected = {"model_filter", "model", "dpo", "lora_rank", "lora_targets", "micro_batch_size", "seq_len",
                "grad_accum_steps", "gradient_checkpointing", "attention", "precision", "optimizer", "gpu",
                "num_gpus", "sharding", "cpu_offload"}
    assert expected <= changed, sorted(expected - changed)
    # Radios: the arrow keys move between the model sources.
    radio = root.locator('[data-calc-control="model_source"]').first
    radio.focus()
    page.keyboard.press("ArrowRight" if page.evaluate("document.dir") != "rtl" else "ArrowLeft")
    expect(root.locator('[data-calc-source="custom"]')).to_be_visible()
    # The "more settings" disclosure opens with Enter and its inputs are reachable.
    root.locator("summary").focus()
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    assert page.locator(":focus").get_attribute("data-calc-field") == "lora_dtype"
    page.keyboard.press("ArrowDown")
    assert page.locator(":focus").input_value() == "bf16"


# ------------------------------------------------------------------------------------------------------------
# The bundle: a valid wheel, the pinned runtime, nothing fetched before a widget starts
# ------------------------------------------------------------------------------------------------------------
def test_the_bundled_runtime_and_wheel(built_site, tmp_path):
    pinned = json.loads((ROOT / "package.json").read_text())["dependencies"]["pyodide"]
    runtime = built_site / "assets" / "pyodide" / pinned
    npm = ROOT / "node_modules" / "pyodide"
    for name in ("pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"):
        assert (runtime / name).read_bytes() == (npm / name).read_bytes(), name  # the pinned npm files, as they are
    for name in ("pyodide.mjs", "pyodide.asm.mjs"):  # the loader, with the offline edits only (hooks/widgets.py)
        text = (runtime / name).read_text(encoding="utf-8")
        assert not re.search(r"[\"'`]https?://[^\"'`\s]+", text), name
        assert abs(len(text) - len((npm / name).read_text(encoding="utf-8"))) < 100, name
    wheels = list((built_site / "assets" / "calc" / "wheel").glob("*/calculator-*-py3-none-any.whl"))
    assert len(wheels) == 1, wheels
    wheel = wheels[0]
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        sources = {p.name for p in (ROOT / "calculator").glob("*.py")}
        assert {f"calculator/{n}" for n in sources} <= names
        dist = next(n.split("/")[0] for n in names if n.endswith(".dist-info/WHEEL"))
        wheel_meta = zf.read(f"{dist}/WHEEL").decode()
        assert "Tag: py3-none-any" in wheel_meta and "Root-Is-Purelib: true" in wheel_meta
        for row in csv.reader(io.StringIO(zf.read(f"{dist}/RECORD").decode())):
            if row[0].endswith("RECORD"):
                continue
            data = zf.read(row[0])
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            assert row[1] == f"sha256={digest}" and int(row[2]) == len(data), row
        for n in sources:  # built from the same sources pytest tests
            assert zf.read(f"calculator/{n}") == (ROOT / "calculator" / n).read_bytes()
    # pip accepts it as a wheel (offline, no dependencies).
    proc = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
                           "--disable-pip-version-check", "--target", str(tmp_path / "t"), str(wheel)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "t" / "calculator" / "api.py").is_file()
    # Every page with widgets names the same versioned runtime and wheel.
    for page in (built_site / "calculator" / "index.html", built_site / "en" / "articles" / "five-ways" / "index.html"):
        html = page.read_text(encoding="utf-8")
        cfg = json.loads(re.search(r'<script type="application/json" id="calc-runtime">(.*?)</script>', html, re.S).group(1))
        assert cfg["pyodide"] == f"assets/pyodide/{pinned}/"
        assert (built_site / cfg["wheel"]).resolve() == wheel.resolve()


def test_nothing_heavy_loads_before_a_widget_is_reached(page, guard, site_url):
    requested: list[str] = []
    page.on("request", lambda r: requested.append(r.url))
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(url(site_url, "en", "articles/vram-guide/"), wait_until="networkidle")
    assert page.evaluate("document.documentElement.dataset.calcRuntime") == "idle"
    assert not [u for u in requested if "pyodide" in u or u.endswith(".whl") or "worker.mjs" in u]
    page.locator("[data-calc-root]").first.scroll_into_view_if_needed()
    page.wait_for_function("['downloading', 'starting', 'ready'].includes(document.documentElement.dataset.calcRuntime)")
    wait_ready(page)
    assert [u for u in requested if u.endswith("pyodide.asm.wasm")]


# ------------------------------------------------------------------------------------------------------------
# Markers: unknown ones fail the build
# ------------------------------------------------------------------------------------------------------------
def _hook():
    import importlib.util

    spec = importlib.util.spec_from_file_location("calc_widgets_hook", ROOT / "hooks" / "widgets.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_markers_are_checked_at_build_time():
    from mkdocs.exceptions import PluginError

    hook = _hook()
    assert hook.parse_marker("estimator", "x") == ("estimator", None, {})
    assert hook.parse_marker(" estimator model=llama-2-7b method=full dpo=true seq_len=4096 ", "x") == (
        "estimator", None, {"model": "llama-2-7b", "method": "full", "dpo": True, "seq_len": 4096})
    assert hook.parse_marker("table needs-by-size method=qlora", "x") == ("table", "needs-by-size", {"method": "qlora"})
    for bad in ("estimatr", "estimator colour=red", "fits model=llama-2-7b", "compare model", "table", "table nope",
                "table gpu-classes method=full", "seqlen model=a model=b", "estimator model=<b>", ""):
        with pytest.raises(PluginError):
            hook.parse_marker(bad, "x")
    # Values the estimator rejects fail too, with its error code.
    for attrs in ({"model": "no-such-model"}, {"seq_len": 0}, {"gpu": "no-such-gpu"}, {"method": "sft"}):
        state = hook.defaults_for("estimator", attrs)
        with pytest.raises(PluginError, match=next(iter(attrs))):
            for request in hook.requests_for("estimator", state):
                hook._checked(request, "x")

    class Page:  # what on_page_content reads from a page
        url = "articles/x/"
        meta: dict = {}

        class file:
            src_uri = "articles/x.md"

    class Config:
        theme = {"language": "en"}

    hook._STATE.update(wheel_rel="assets/calc/wheel/0/calculator-0-py3-none-any.whl", pyodide_rel="assets/pyodide/0/")
    content = hook.on_page_content("<p>text</p>\n<!-- calc:seqlen model=llama-3.1-8b method=qlora -->", Page, Config,
                                   None)
    assert "data-calc-kind" not in content  # not yet: the search index reads the content first
    html = hook.on_post_page(f"<html><head></head><body>{content}</body></html>", Page, Config)
    assert 'data-calc-kind="seqlen"' in html and 'id="calc-seqlen-1"' in html
    assert 'id="calc-runtime"' in html.split("</head>")[0]
    for bad in ("<!-- calc:nope -->", "<!--calc estimator-->", "<p><!-- calc:fits gpu=rtx-4090 extra=1 --></p>"):
        with pytest.raises(PluginError):
            hook.on_page_content(bad, Page, Config, None)
    # A marker shown as code in an article is text, not a widget.
    code = "<pre><code>&lt;!-- calc:estimator --&gt;</code></pre>"
    assert hook.on_page_content(code, Page, Config, None) == code
