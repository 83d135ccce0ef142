"""Issue 42, points 4 and 5: one verdict for the edge (the card's memory inside the answer's likely range), shown
alike by the strip, the CLI and the article figures; a MoE QLoRA whose experts stay unquantized says so at the result
with its remedy; a model with latent attention says why q_proj/v_proj wrap nothing."""
from __future__ import annotations

import re

import pytest

from calculator import api
from calculator.__main__ import main
from calculator.page import render_results
from calculator.page.figures import figure_html
from calculator.page.form import read_form
from calculator.page.kinds import WIDGET_KINDS
from calculator.page.messages import message_for
from calculator.page.text import Strings, fmt_bytes, plain_text
from sitebuild.strings import LANGUAGES, calc_strings

pytestmark = pytest.mark.unit

S = {lang: Strings(calc_strings(lang), lang) for lang in LANGUAGES}
#: QLoRA of Llama 3.1 8B at 1,024 tokens on an RTX 4090: 94 % of the card, whose memory lies inside the range.
EDGE = {"model": "llama-3.1-8b", "method": "qlora", "gpu": "rtx-4090", "seq_len": 1024}
#: The same at the estimator form's defaults (TRL, checkpointing, a fused loss): Qwen3-14B QLoRA at 6,144 tokens.
PAGE_EDGE = {"model": "qwen3-14b", "method": "qlora", "gpu": "rtx-4090", "seq_len": 6144}
#: The review's M8: Qwen3-30B-A3B QLoRA under TRL's defaults (experts fused, left in the load dtype).
MOE = {"model": "qwen3-30b-a3b", "method": "qlora", "gpu": "h100-80gb", "framework": "trl"}


def _strip(s: Strings, request: dict) -> tuple[str, dict]:
    """The estimator's sticky strip (its ``summary`` slot) for a form filled with ``request``, and the answer."""
    kind = WIDGET_KINDS["estimator"]
    state, errors = read_form(kind.fields, kind.defaults, {k: str(v) for k, v in request.items()})
    assert not errors
    _fragment, results, errors = render_results(s, "estimator", state)
    assert not errors
    return str(kind.slots(s, results)["summary"]), results[0]


def _answer(request: dict) -> dict:
    out = api.answer(request)
    assert out["ok"], out
    return out["result"]


def test_the_edge_request_lies_in_its_own_range() -> None:
    r = _answer(EDGE)
    memory = r["gpu"]["memory_bytes"]
    assert r["range"]["low_bytes"] <= memory <= r["range"]["high_bytes"] and r["peak_bytes_per_gpu"] < memory
    assert r["gpu"]["verdict"] == "at_edge"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_strip_says_at_the_edge_with_the_range(lang) -> None:
    s = S[lang]
    html, r = _strip(s, PAGE_EDGE)
    assert r["gpu"]["verdict"] == "at_edge"
    assert 'data-verdict="at_edge"' in html
    strip = plain_text(html)
    assert s.get("verdict.at_edge") in strip
    low, high = (f"{round(x * 100)}%" for x in r["gpu"]["range_share"])
    assert low in strip and high in strip, strip


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_article_fit_phrase_says_at_the_edge_with_the_range(lang) -> None:
    r = _answer({**EDGE, "include": []})
    t = plain_text(figure_html(S[lang], "fit", r))
    low, high = (round(x * 100) for x in r["gpu"]["range_share"])
    shares = [int(x) for x in re.findall(r"(\d+)\s*%", t)]
    assert shares == [low, high], t
    assert plain_text(figure_html(S[lang], "verdict", r)) == S[lang].get("verdict.at_edge")


def test_the_cli_says_at_the_edge_with_the_range(capsys) -> None:
    r = _answer(EDGE)
    assert main(["--model", "llama-3.1-8b", "--method", "qlora", "--gpu", "rtx-4090", "--seq-len", "1024"]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if "RTX 4090" in x and "%" in x)
    assert "at the edge: measure" in line
    low, high = (f"{round(x * 100)}%" for x in r["gpu"]["range_share"])
    assert low in line and high in line, line


def test_a_moe_qlora_with_unquantized_experts_carries_its_remedy() -> None:
    r = _answer(MOE)
    assert "experts_not_quantized" in r["notes"]
    fixed = _answer({**MOE, "quantize_experts": True})
    assert "experts_not_quantized" not in fixed["notes"]
    assert r["experts_quantized"] == {"changes": {"quantize_experts": True},
                                      "peak_bytes_per_gpu": fixed["peak_bytes_per_gpu"]}
    assert fixed["peak_bytes_per_gpu"] < r["peak_bytes_per_gpu"] / 3          # 126 GB -> 28 GB
    assert "experts_quantized" not in _answer({**MOE, "model": "llama-3.1-8b"})


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_strip_names_the_experts_and_their_remedy(lang) -> None:
    html, r = _strip(S[lang], MOE)
    assert "experts_not_quantized" in r["notes"]
    assert 'data-note="experts_not_quantized"' in html
    assert fmt_bytes(r["experts_quantized"]["peak_bytes_per_gpu"])[0] in plain_text(html)
    assert "quantize_experts" in html


def test_the_cli_names_the_experts_remedy(capsys) -> None:
    fixed = _answer({**MOE, "quantize_experts": True})
    assert main(["--model", "qwen3-30b-a3b", "--method", "qlora", "--framework", "trl", "--gpu", "h100-80gb"]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if "quantize_experts" in x and "brings the peak" in x)
    assert fmt_bytes(fixed["peak_bytes_per_gpu"])[0] in line


@pytest.mark.parametrize("model", ["deepseek-v3", "kimi-k2"])
def test_latent_attention_says_why_q_and_v_proj_wrap_nothing(model) -> None:
    out = api.answer({"model": model, "method": "qlora", "lora_targets": ["q_proj", "v_proj"]})
    assert out["error"] == {"code": "contradiction", "field": "lora_targets", "reason": "mla_attention"}
    for lang in LANGUAGES:
        text = plain_text(message_for(S[lang], "contradiction", "lora_targets", "mla_attention"))
        assert "MLA" in text and "o_proj" in text and "kv_b_proj" in text
    assert api.answer({"model": model, "method": "qlora", "lora_targets": ["o_proj"]})["ok"]


def test_a_plain_model_without_the_targets_gives_no_latent_attention_reason() -> None:
    out = api.answer({"model": "phi-2", "method": "lora", "lora_targets": ["gate_proj"]})
    assert out["error"] == {"code": "contradiction", "field": "lora_targets"}
