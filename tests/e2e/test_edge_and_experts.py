"""Issue 42, points 4 and 5, in Debian Chromium and both languages: a setup whose likely range spans the card's
memory reads "at the edge: measure" in the estimator's strip, with that range; a MoE QLoRA whose experts stay
unquantized says so in the strip, with what quantizing them gives. The words and figures are CPython's for the same
request (``calculator.api`` and the string tables), not a copy of the page's formatting."""
from __future__ import annotations

import json
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from calculator.page import WIDGET_KINDS, render_results
from calculator.page.form import read_form
from calculator.page.text import fmt_bytes, fmt_percent

from calc_pages import S, url, wait_ready

pytestmark = pytest.mark.e2e

WAIT_MS = 30_000
#: Qwen3-14B QLoRA at 6,144 tokens on an RTX 4090 with the form's defaults: 92 % of the card, range 82-101 %.
EDGE = {"model": "qwen3-14b", "method": "qlora", "gpu": "rtx-4090", "seq_len": 6144}
#: The review's M8: Qwen3-30B-A3B QLoRA under TRL (named: the form's default is now the plain stack, whose
#: per-expert layout quantizes the experts): 126 GB with fused 16/32-bit experts.
MOE = {"model": "qwen3-30b-a3b", "method": "qlora", "gpu": "h100-80gb", "framework": "trl"}


def _answer(lang: str, state: dict) -> dict:
    """CPython's answer for the form filled with ``state`` (the form's defaults for the rest)."""
    kind = WIDGET_KINDS["estimator"]
    filled, errors = read_form(kind.fields, kind.defaults, {k: str(v) for k, v in state.items()})
    assert not errors
    _fragment, results, errors = render_results(S[lang], "estimator", filled)
    assert not errors
    return results[0]


def _open(page, site_url: str, lang: str, state: dict):
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(url(site_url, lang, "calculator/") + "#calc=" + quote(json.dumps({"calc-estimator-1": state})))
    wait_ready(page, "#calc-estimator-1")
    return page.locator("#calc-estimator-1 [data-calc-summary]")


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_the_strip_says_at_the_edge_with_the_range(page, guard, site_url, lang):
    strip = _open(page, site_url, lang, EDGE)
    verdict = strip.locator('[data-calc-output="gpu.verdict"]')
    expect(verdict).to_have_attribute("data-value", "at_edge", timeout=WAIT_MS)
    expect(verdict).to_contain_text(S[lang].get("verdict.at_edge"))
    share = strip.locator(".calc-peak__share")
    r = _answer(lang, EDGE)
    assert r["gpu"]["verdict"] == "at_edge"
    # the range the verdict rests on, as shares of the card, beside it
    low, high = (fmt_percent(x, 0) for x in r["gpu"]["range_share"])
    expect(share).to_contain_text(low)
    expect(share).to_contain_text(high)


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_the_strip_names_the_unquantized_experts_and_their_remedy(page, guard, site_url, lang):
    strip = _open(page, site_url, lang, MOE)
    line = strip.locator('[data-note="experts_not_quantized"]')
    expect(line).to_be_visible(timeout=WAIT_MS)
    r = _answer(lang, MOE)
    fixed = r["experts_quantized"]["peak_bytes_per_gpu"]
    expect(line).to_contain_text(fmt_bytes(fixed)[0])
    expect(line).to_contain_text("quantize_experts")
    assert S[lang].get("out.experts_quantized").split("{")[0][:20] in line.inner_text()
