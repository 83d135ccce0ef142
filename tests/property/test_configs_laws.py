"""Hypothesis laws of config parsing: any JSON value as `model` is parsed or refused with a code, never raised."""
from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculator import api
from calculator.configs import ALIASES, ARCH_FIELDS, parse_model
from calculator.errors import InputError

pytestmark = pytest.mark.property

_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
_KEYS = sorted(set(ARCH_FIELDS) | {a for v in ALIASES.values() for a in v} | {
    "n_shared_experts", "decoder_sparse_step", "mlp_only_layers", "moe_layer_freq", "text_config", "vision_config",
    "layer_types", "is_encoder_decoder", "multi_query", "shared_expert_gate", "num_experts"})
_SMALL = st.one_of(st.none(), st.booleans(), st.integers(-3, 300), st.integers(), st.sampled_from(
    ["llama", "mixtral", "qwen2_moe", "qwen3_moe", "deepseek_v2", "deepseek_v3", "olmoe", "gpt_oss", "t5", "gemma",
     "head", "full", "", "bert", "x"]), st.lists(st.integers(-2, 40), max_size=5), st.just({"hidden_size": 8}))
_configs = st.fixed_dictionaries({"hidden_size": st.sampled_from([64, 128, 4096]), "num_hidden_layers":
                                  st.integers(1, 8), "num_attention_heads": st.sampled_from([1, 2, 4, 8]),
                                  "vocab_size": st.integers(1, 1000)}) \
    .flatmap(lambda base: st.dictionaries(st.sampled_from(_KEYS), _SMALL, max_size=10).map(lambda d: {**base, **d}))


def _check(value) -> None:
    try:
        parse_model(value)
    except InputError as e:
        assert e.code in api.ERROR_CODES and e.code != "internal_error"
    out = json.loads(api.answer_text(json.dumps({"model": value, "include": []})))
    if not out["ok"]:
        assert out["error"]["code"] in api.ERROR_CODES and out["error"]["code"] != "internal_error", out


@given(_json)
def test_parse_never_raises_on_arbitrary_json(value) -> None:
    _check(value)


@given(_configs)
def test_parse_never_raises_on_configs_with_mixed_fields(cfg: dict) -> None:
    _check(cfg)
