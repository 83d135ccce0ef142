"""untie_embeddings, quantize_lm_head, dequant_cast: defaults keep today's behaviour; each moves the terms it names."""
from __future__ import annotations

from calculator.api import answer

import pytest

pytestmark = pytest.mark.unit

BASE = {"model": "llama-3.2-1b", "method": "qlora", "micro_batch_size": 2, "seq_len": 512, "include": []}


def _r(**kw):
    out = answer(dict(BASE, **kw))
    assert out["ok"], out
    return out["result"]


def test_defaults_are_off_and_echoed() -> None:
    r = _r()
    assert r["inputs"]["untie_embeddings"] is False
    assert r["inputs"]["quantize_lm_head"] is False
    assert r["inputs"]["dequant_cast"] is False
    assert _r(untie_embeddings=False, quantize_lm_head=False, dequant_cast=False)["allocated_bytes"] == \
        r["allocated_bytes"]


def test_untie_adds_one_lm_head_copy_on_a_tied_model_only() -> None:
    v, h = 128256, 2048
    lora = dict(method="lora")
    assert _r(**lora, untie_embeddings=True)["params"] - _r(**lora)["params"] == v * h
    assert _r(**lora, untie_embeddings=True)["breakdown_bytes"]["weights"] - \
        _r(**lora)["breakdown_bytes"]["weights"] == v * h * 2
    untied = {"model": "llama-2-7b"}
    assert _r(**untied, untie_embeddings=True)["allocated_bytes"] == _r(**untied)["allocated_bytes"]


def test_quantized_lm_head_is_nf4_and_dequantised_at_backward_start() -> None:
    q = _r(untie_embeddings=True, quantize_lm_head=True)
    plain = _r(untie_embeddings=True)
    assert q["breakdown_bytes"]["weights"] < plain["breakdown_bytes"]["weights"]
    assert q["phase"] == "backward_start" and q["breakdown_bytes"]["dequant_transient"] == 128256 * 2048 * 2
    cast = _r(untie_embeddings=True, quantize_lm_head=True, dequant_cast=True)
    assert cast["breakdown_bytes"]["dequant_transient"] == 2 * q["breakdown_bytes"]["dequant_transient"]


def test_keys_are_ignored_outside_bitsandbytes_qlora() -> None:
    assert _r(method="lora", quantize_lm_head=True, dequant_cast=True)["allocated_bytes"] == \
        _r(method="lora")["allocated_bytes"]
    assert _r(qlora_backend="torchao", quantize_lm_head=True, dequant_cast=True)["allocated_bytes"] == \
        _r(qlora_backend="torchao")["allocated_bytes"]


def test_wrong_type_is_reported() -> None:
    out = answer(dict(BASE, dequant_cast="yes"))
    assert out == {"ok": False, "error": {"code": "wrong_type", "field": "dequant_cast"},
                   "errors": [{"code": "wrong_type", "field": "dequant_cast"}]}
