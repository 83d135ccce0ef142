"""The estimator's "Run it" section in Chromium, both languages: opening it loads the second wheel (the exporters
and their YAML library) in the worker; each tab shows, character for character, the files CPython's exporters write
for the same state in the reader's language; the tabs follow the ARIA tabs pattern (arrow keys mirrored in Arabic,
Home, End); download gives the file as shown; copy copies it or, refused, selects it; the files follow the form; a
pasted training config fills the form, and a contradictory one is refused next to its box in the reader's words.

The tests use the session's started calculator pages and leave them as they found them (section closed, defaults)."""
from __future__ import annotations

import json

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout, expect

from calculator import export
from calculator.page import WIDGET_KINDS
from calculator.page.run import read_paste, target_exports
from sitebuild.strings import calc_strings
from tests.lazy import OnFirstUse

from calc_pages import S
from test_widgets import arm, assert_shows, meta, reset, wait_rendered

pytestmark = pytest.mark.e2e

STRINGS = OnFirstUse(("ar", "en"), calc_strings)
#: The most to wait for the second load (two wheels into a started runtime, on two busy cores) and one redraw.
LATER_MS = 60_000


def open_run(root):
    section = root.locator("[data-calc-run]")
    toggle = section.locator("[data-calc-run-toggle]")
    if toggle.get_attribute("aria-expanded") != "true":
        toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(section).to_have_attribute("data-calc-run-state", "ready", timeout=LATER_MS)
    return section


def close_run(root):
    toggle = root.locator("[data-calc-run-toggle]")
    if toggle.get_attribute("aria-expanded") == "true":
        toggle.click()
    expect(root.locator("[data-calc-run-body]")).to_be_hidden()


def expected_files(lang: str, state: dict) -> dict[str, dict[str, str]]:
    """What CPython's exporters write for this state, worded for ``lang`` (refused targets have no files)."""
    return {target: (dict(e.files) if e is not None else {}) for target, e, _, _ in target_exports(S[lang], state)}


def shown_files(section) -> dict[str, dict[str, str]]:
    return section.evaluate("""s => Object.fromEntries([...s.querySelectorAll('[role="tabpanel"]')].map(p => [
        p.dataset.calcTabpanel, Object.fromEntries([...p.querySelectorAll('[data-calc-file]')].map(
          f => [f.dataset.calcFile, f.querySelector('pre').textContent]))]))""")


def expect_files(section, lang: str, state: dict) -> None:
    want = expected_files(lang, state)
    try:
        _wait_files(section, want)
    except PlaywrightTimeout:
        pass                                 # compared below, so that the difference is shown
    assert shown_files(section) == want


def _wait_files(section, want) -> None:
    section.page.wait_for_function("([s, want]) => JSON.stringify(Object.fromEntries([...s.querySelectorAll("
                                   "'[role=\"tabpanel\"]')].map(p => [p.dataset.calcTabpanel, Object.fromEntries("
                                   "[...p.querySelectorAll('[data-calc-file]')].map(f => [f.dataset.calcFile, "
                                   "f.querySelector('pre').textContent]))]))) === want",
                                   arg=[section.element_handle(), json.dumps(want)], timeout=LATER_MS)


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_each_tab_shows_cpythons_export_for_the_state(started, lang):
    page = started(lang, "calculator/").page
    root = page.locator("#calc-estimator-1")
    _, defaults, _ = meta(root)
    try:
        section = open_run(root)
        tabs = section.locator('[role="tab"]')
        expect(tabs).to_have_count(len(export.TARGETS))
        assert [t.get_attribute("data-calc-tab") for t in tabs.all()] == list(export.TARGETS)
        expect_files(section, lang, defaults)
        # Only the selected tab's panel is shown; the comments are the reader's language's.
        expect(section.locator('[role="tabpanel"]:visible')).to_have_count(1)
        sft = section.locator('[data-calc-tabpanel="trl"] [data-calc-file="sft.yaml"] pre')
        words = STRINGS[lang]["run"]["comments"]["edit_dataset"]
        expect(sft).to_contain_text(words)
        # The files follow the form.
        arm(root)
        root.locator('[data-calc-field="method"]').select_option("qlora")
        wait_rendered(root)
        expect_files(section, lang, {**defaults, "method": "qlora"})
    finally:
        close_run(root)
        reset(page)


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_the_tabs_follow_the_aria_pattern_and_the_files_download_as_shown(started, lang):
    shown = started(lang, "calculator/")
    page = shown.page
    root = page.locator("#calc-estimator-1")
    try:
        section = open_run(root)
        tabs = section.locator('[role="tab"]')
        first, second, last = tabs.nth(0), tabs.nth(1), tabs.nth(len(export.TARGETS) - 1)
        first.focus()
        page.keyboard.press("ArrowLeft" if lang == "ar" else "ArrowRight")   # the next tab, in reading order
        expect(second).to_be_focused()
        expect(second).to_have_attribute("aria-selected", "true")
        expect(first).to_have_attribute("aria-selected", "false")
        expect(first).to_have_attribute("tabindex", "-1")
        panel = section.locator(f"#{second.get_attribute('aria-controls')}")
        expect(panel).to_be_visible()
        expect(section.locator('[role="tabpanel"]:visible')).to_have_count(1)
        page.keyboard.press("End")
        expect(last).to_be_focused()
        page.keyboard.press("ArrowLeft" if lang == "en" else "ArrowRight")  # and back
        expect(tabs.nth(len(export.TARGETS) - 2)).to_have_attribute("aria-selected", "true")
        page.keyboard.press("Home")
        expect(first).to_have_attribute("aria-selected", "true")
        # Download: the file as shown, under its name.
        files = shown_files(section)["trl"]
        name = next(iter(files))
        button = section.locator(f'[data-calc-tabpanel="trl"] [data-calc-file="{name}"] [data-calc-download]')
        with page.expect_download() as info:
            button.click()
        download = info.value
        assert download.suggested_filename == name
        assert open(download.path(), encoding="utf-8").read() == files[name]
        # Copy: copied, or (the browser refusing) the text selected for the reader's own copy; said either way.
        section.locator(f'[data-calc-tabpanel="trl"] [data-calc-file="{name}"] [data-calc-copy]').click()
        status = section.locator("[data-calc-run-status]")
        copied = STRINGS[lang]["run"]["copied"].replace("{file}", name)
        refused = STRINGS[lang]["run"]["copy_failed"]
        expect(status).not_to_be_empty()
        said = status.text_content()
        assert said in (copied, refused), said
        if said == refused:
            assert page.evaluate("getSelection().toString()") == files[name]
        # On a phone: the tabs and the files scroll inside the section, the page does not scroll sideways.
        page.set_viewport_size({"width": 360, "height": 740})
        last.scroll_into_view_if_needed()
        expect(last).to_be_in_viewport()
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        pre = section.locator('[data-calc-tabpanel="trl"] pre').first
        assert pre.evaluate("p => p.getBoundingClientRect().width <= window.innerWidth")
    finally:
        shown.restore_viewport()
        close_run(root)
        page.evaluate("getSelection().removeAllRanges()")


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_a_pasted_training_config_fills_the_form(started, lang):
    page = started(lang, "calculator/").page
    root = page.locator("#calc-estimator-1")
    _, defaults, _ = meta(root)
    request = {**defaults, "method": "qlora", "seq_len": 4096, "micro_batch_size": 2}
    exported = export.export(request, "trl")
    box = root.locator("[data-calc-import-box]")
    main = box.locator('[data-calc-import="main"]')
    error = box.locator("[data-calc-import-error]")
    try:
        box.locator("summary").click()
        # A contradiction: refused next to the box, in the reader's words, the form unchanged.
        main.fill("model_name_or_path: meta-llama/Llama-3.1-8B\nbf16: true\nfp16: true\n")
        box.locator("[data-calc-import-read]").click()
        expect(error).to_be_visible(timeout=LATER_MS)
        expect(error).to_contain_text(STRINGS[lang]["run"]["errors"]["contradiction"])
        expect(main).to_have_attribute("aria-invalid", "true")
        assert error.get_attribute("id") in main.get_attribute("aria-describedby").split()
        expect(root.locator('[data-calc-field="method"]')).to_have_value(defaults["method"])
        # The export itself: the form takes its setup and shows its estimate.
        main.fill(exported.files["sft.yaml"])
        arm(root)
        box.locator("[data-calc-import-read]").click()
        wait_rendered(root)
        expect(error).to_be_hidden()
        expect(main).not_to_have_attribute("aria-invalid", "true")
        expect(box.locator("[data-calc-import-result]")).to_contain_text(
            STRINGS[lang]["run"]["import"]["done"].replace("{framework}", "TRL"))
        for key in ("method", "seq_len", "micro_batch_size"):
            expect(root.locator(f'[data-calc-field="{key}"]')).to_have_value(str(exported.request[key]))
        forget = box.locator("[data-calc-import-forget]")
        if forget.count():                      # keys beyond the form: forgotten, the form's own estimate again
            arm(root)
            forget.click()
            wait_rendered(root)
        read = read_paste(S[lang], WIDGET_KINDS["estimator"].fields, {"main": exported.files["sft.yaml"]})
        assert_shows(root, {**defaults, **read["state"]}, lang)
    finally:
        main.fill("")
        if box.get_attribute("open") is not None:
            box.locator("summary").click()
        reset(page)


def test_exporters_that_fail_to_load_are_said_and_the_estimator_keeps_working(page, context, guard, site_url):
    """The second load blocked: the section says so in the reader's language, and the estimator above it still
    recomputes (its own wheel is the first load)."""
    from calc_pages import READY_MS, url

    guard.allow_console.extend(["calculator_export", "ERR_FAILED", "ERR_BLOCKED", "Failed to load"])
    blocked: list[str] = []

    def block(route):
        blocked.append(route.request.url)
        route.abort("blockedbyclient")

    context.route("**/calculator_export-*-py3-none-any.whl", block)
    page.goto(url(site_url, "ar", "calculator/"))
    root = page.locator("#calc-estimator-1")
    expect(root).to_have_attribute("data-calc-state", "ready", timeout=READY_MS)
    section = root.locator("[data-calc-run]")
    section.locator("[data-calc-run-toggle]").click()
    expect(section).to_have_attribute("data-calc-run-state", "error", timeout=LATER_MS)
    expect(section.locator("[data-calc-run-status]")).to_have_text(STRINGS["ar"]["run"]["failed"])
    assert blocked
    assert "Traceback" not in page.content()
    _, defaults, _ = meta(root)
    arm(root)
    root.locator('[data-calc-field="method"]').select_option("qlora")
    wait_rendered(root)
    assert_shows(root, {**defaults, "method": "qlora"}, "ar")


def test_the_first_load_leaves_the_exporters_for_run_it(page, context, site_url):
    """The page's first load is the estimator's wheel alone: the exporters' wheel and its YAML library are asked for
    only when the reader opens "Run it", once each, and the section is ready after them."""
    from calc_pages import READY_MS, url

    asked: list[str] = []
    context.on("request", lambda r: asked.append(r.url.rsplit("/", 1)[-1]))
    page.goto(url(site_url, "en", "calculator/"))
    root = page.locator("#calc-estimator-1")
    expect(root).to_have_attribute("data-calc-state", "ready", timeout=READY_MS)
    wheels = [n for n in asked if n.endswith(".whl")]
    assert [n for n in wheels if n.startswith("calculator-")], wheels      # the estimator's own, so requests are seen
    assert not [n for n in wheels if n.startswith(("calculator_export-", "ruamel"))], wheels
    open_run(root)
    later = [n for n in asked if n.endswith(".whl") and n not in wheels]
    assert sorted(n.split("-")[0] for n in later) == ["calculator_export", "ruamel_yaml"], later
