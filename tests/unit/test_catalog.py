"""The data catalogue: architectures recount to the published parameter counts, ids, sources, GPUs."""
from __future__ import annotations

import dataclasses
import re

import pytest

from calculator.catalog import GPUS, MODELS
from calculator.models import GpuSpec, ModelArch

pytestmark = pytest.mark.unit

KEBAB = re.compile(r"^[a-z0-9]+(?:[.-][a-z0-9]+)*$")

# Architectures that ModelArch can only approximate (biases on every linear, LayerNorm with a bias, one shared
# norm per layer, ...): their recount must land within 0.5 % of the published total instead of exactly.
APPROXIMATE = {"phi-1.5", "phi-2", "stablelm-base-alpha-3b", "falcon-7b", "bloomz-7b1"}
# Gemma 2 has 4 RMSNorms per layer (pre/post attention, pre/post MLP) instead of 2; with that the count is exact.
NORMS_PER_LAYER = {"Gemma 2": 4}


def _count_params(arch: ModelArch) -> int:
    """Total parameters of a decoder from its architecture, tensor by tensor as transformers' modelling code builds
    it (test-only; memory.py has its own): Llama-like attention or DeepSeek's latent attention, dense or MoE MLPs."""
    h, a = arch.hidden_size, arch.num_attention_heads
    if arch.kv_lora_rank:                                        # DeepseekV2Attention / DeepseekV3Attention
        qk = arch.qk_nope_head_dim + arch.qk_rope_head_dim
        if arch.q_lora_rank:
            q = h * arch.q_lora_rank + arch.q_lora_rank + arch.q_lora_rank * a * qk   # q_a_proj, q_a_layernorm, q_b
        else:
            q = h * a * qk                                       # q_proj
        kv = h * (arch.kv_lora_rank + arch.qk_rope_head_dim) + arch.kv_lora_rank \
            + arch.kv_lora_rank * a * (arch.qk_nope_head_dim + arch.v_head_dim)    # kv_a_proj, kv_a_layernorm, kv_b
        attention = q + kv + a * arch.v_head_dim * h
    else:
        head_dim = arch.head_dim if arch.head_dim is not None else h // a
        q_out = a * head_dim
        kv_out = arch.num_key_value_heads * head_dim
        bias = arch.attention_bias
        attention = (h * q_out + (q_out if bias else 0)) + 2 * (h * kv_out + (kv_out if bias else 0)) + q_out * h
        attention += {"": 0, "head": 2 * head_dim, "full": q_out + kv_out}[arch.qk_norm]
    attention += (h if arch.o_proj_bias else 0) + (a if arch.attention_sinks else 0)

    def mlp(width: int) -> int:
        weights = (3 if arch.mlp_gated else 2) * h * width
        return weights + (((2 if arch.mlp_gated else 1) * width + h) if arch.mlp_bias else 0)

    norms = NORMS_PER_LAYER.get(arch.family, 2) * h
    dense_layer = attention + mlp(arch.intermediate_size) + norms
    if arch.num_local_experts:
        E = arch.num_local_experts
        moe = E * mlp(arch.moe_intermediate_size or arch.intermediate_size) + E * h   # experts + router
        moe += E if arch.router_bias else 0
        if arch.shared_expert_intermediate_size:
            moe += mlp(arch.shared_expert_intermediate_size) + (h if arch.shared_expert_gate else 0)
        moe_layer = attention + moe + norms
        n_dense = arch.first_k_dense_replace
        layers = n_dense * dense_layer + (arch.num_hidden_layers - n_dense) * moe_layer
    else:
        layers = arch.num_hidden_layers * dense_layer
    embeddings = arch.vocab_size * h * (1 if arch.tie_word_embeddings else 2)
    return layers + h + embeddings


def test_at_least_twenty_models() -> None:
    assert len(MODELS) >= 20


def test_required_models_present() -> None:
    required = {
        "llama-2-7b", "llama-2-13b", "llama-2-70b", "llama-3-8b", "llama-3-70b", "llama-3.1-8b", "llama-3.1-70b",
        "llama-3.1-405b", "llama-3.2-1b", "llama-3.2-3b", "llama-3.3-70b", "mistral-7b-v0.1", "mistral-7b-v0.3",
        "mixtral-8x7b", "qwen2.5-0.5b", "qwen2.5-1.5b", "qwen2.5-3b", "qwen2.5-7b", "qwen2.5-14b", "qwen2.5-32b",
        "qwen2.5-72b", "gemma-2-2b", "gemma-2-9b", "gemma-2-27b", "phi-3-mini",
    }
    assert required <= MODELS.keys()


@pytest.mark.parametrize("model_id", [m for m, a in MODELS.items() if a.published_params is not None])
def test_param_count_from_architecture_matches_published(model_id: str) -> None:
    arch = MODELS[model_id]
    counted = _count_params(arch)
    assert arch.published_params is not None
    if model_id in APPROXIMATE:
        assert not arch.mlp_gated
        assert counted == pytest.approx(arch.published_params, rel=0.005)
    else:
        assert counted == arch.published_params


def test_every_model_has_a_published_count_except_none_listed() -> None:
    # Every catalogue entry currently carries a verified count; a future None must be a deliberate choice.
    assert [m for m, a in MODELS.items() if a.published_params is None] == []


def test_model_ids_unique_kebab_and_keys_match() -> None:
    for key, arch in MODELS.items():
        assert isinstance(arch, ModelArch)
        assert key == arch.id
        assert KEBAB.fullmatch(arch.id), arch.id
        assert arch.name and arch.family


def test_models_grouped_by_family() -> None:
    families = [a.family for a in MODELS.values()]
    seen: list[str] = []
    for fam in families:
        if not seen or seen[-1] != fam:
            assert fam not in seen, f"family {fam!r} is split in the picker order"
            seen.append(fam)


def test_every_model_has_an_hf_config_source() -> None:
    for arch in MODELS.values():
        assert re.fullmatch(r"https://huggingface\.co/[\w.-]+/[\w.-]+/blob/main/config\.json", arch.source), arch.id


def test_model_shapes_consistent() -> None:
    for arch in MODELS.values():
        assert arch.num_attention_heads % arch.num_key_value_heads == 0, arch.id
        if arch.head_dim is None:
            assert arch.hidden_size % arch.num_attention_heads == 0, arch.id
        assert (arch.num_local_experts == 0) == (arch.num_experts_per_tok == 0), arch.id
        assert arch.num_experts_per_tok <= arch.num_local_experts


def test_catalogue_entries_are_frozen() -> None:
    arch = MODELS["llama-2-7b"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        arch.hidden_size = 1  # type: ignore[misc]


def test_selected_config_facts() -> None:
    assert MODELS["gemma-2-2b"].head_dim == 256 and MODELS["gemma-2-9b"].head_dim == 256
    assert MODELS["gemma-2-27b"].head_dim == 128
    for gemma2 in ("gemma-2-2b", "gemma-2-9b", "gemma-2-27b"):
        assert MODELS[gemma2].tie_word_embeddings and MODELS[gemma2].vocab_size == 256000
    assert MODELS["mistral-7b-v0.3"].vocab_size == 32768 and MODELS["mistral-7b-v0.1"].vocab_size == 32000
    assert all(a.attention_bias for a in MODELS.values() if a.family == "Qwen2.5")
    # q/k/v biases: Qwen2 and Qwen2-MoE (hard-coded / qkv_bias), gpt-oss (attention_bias true); nothing else
    biased = {m for m, a in MODELS.items() if a.attention_bias}
    assert biased == {m for m, a in MODELS.items() if a.family == "Qwen2.5"} | {"qwen1.5-moe-a2.7b", "gpt-oss-20b",
                                                                                 "gpt-oss-120b"}
    mixtral = MODELS["mixtral-8x7b"]
    assert (mixtral.num_local_experts, mixtral.num_experts_per_tok) == (8, 2)
    assert MODELS["deepseek-v3"].first_k_dense_replace == 3 and MODELS["deepseek-v2-lite"].q_lora_rank is None


def test_gpu_ids_unique_kebab_and_fields() -> None:
    assert len(GPUS) >= 17
    for key, gpu in GPUS.items():
        assert isinstance(gpu, GpuSpec)
        assert key == gpu.id
        assert KEBAB.fullmatch(gpu.id), gpu.id
        assert gpu.klass in {"consumer", "workstation", "datacenter"}
        assert gpu.source.startswith("https://")
        assert 8 * 2**30 < gpu.memory_bytes < 256 * 2**30, gpu.id


def test_required_gpus_present() -> None:
    required = {
        "rtx-3090", "rtx-4090", "rtx-5090", "a10", "a10g", "l4", "l40s", "rtx-a6000", "rtx-6000-ada", "a100-40gb",
        "a100-80gb", "h100-80gb", "h200", "b200", "mi300x", "v100-16gb", "v100-32gb",
    }
    assert required <= GPUS.keys()


def test_gpu_memory_plausibly_ordered() -> None:
    mem = {k: g.memory_bytes for k, g in GPUS.items()}
    assert mem["a100-80gb"] == 85_899_345_920  # 81920 MiB
    assert mem["v100-16gb"] < mem["l4"] < mem["rtx-5090"] < mem["a100-40gb"] < mem["l40s"] < mem["rtx-a6000"]
    assert mem["rtx-4090"] < mem["rtx-a6000"]
    assert mem["a10"] < mem["rtx-4090"] <= mem["rtx-3090"]
    assert mem["a100-40gb"] < mem["h100-80gb"] < mem["h200"] < mem["b200"] < mem["mi300x"]
    for gpu in GPUS.values():
        # The reported figure never exceeds the marketed size read as GiB (e.g. "80GB" -> 80 GiB).
        marketed = {"rtx-3090": 24, "rtx-4090": 24, "rtx-5090": 32, "a10": 24, "a10g": 24, "l4": 24, "l40s": 48,
                    "rtx-a6000": 48, "rtx-6000-ada": 48, "a100-40gb": 40, "a100-80gb": 80, "h100-80gb": 80,
                    "h200": 141, "b200": 180, "mi300x": 192, "v100-16gb": 16, "v100-32gb": 32}[gpu.id]
        assert 0.9 * marketed * 2**30 < gpu.memory_bytes <= marketed * 2**30, gpu.id


def test_gpu_klass_and_nvlink() -> None:
    assert {g.id for g in GPUS.values() if g.klass == "consumer"} == {"rtx-3090", "rtx-4090", "rtx-5090"}
    assert {g.id for g in GPUS.values() if g.klass == "workstation"} == {"rtx-a6000", "rtx-6000-ada"}
    linked = {g.id for g in GPUS.values() if g.nvlink}
    assert {"rtx-3090", "rtx-a6000", "a100-40gb", "a100-80gb", "h100-80gb", "h200", "b200", "mi300x"} <= linked
    assert not linked & {"rtx-4090", "rtx-5090", "rtx-6000-ada", "a10", "a10g", "l4", "l40s"}
