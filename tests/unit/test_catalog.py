"""The data catalogue: architectures recount to the published parameter counts, ids, sources, GPUs."""
from __future__ import annotations

import dataclasses
import re

import pytest

from calculator.catalog import GPUS, MODELS
from calculator.models import GpuSpec, ModelArch
from calculator.params import count_params

pytestmark = pytest.mark.unit

KEBAB = re.compile(r"^[a-z0-9]+(?:[.-][a-z0-9]+)*$")

# Architectures that ModelArch can only approximate (biases on every linear, LayerNorm with a bias, one shared
# norm per layer, ...): their recount must land within 0.5 % of the published total instead of exactly.
APPROXIMATE = {"phi-1.5", "phi-2", "stablelm-base-alpha-3b", "falcon-7b", "bloomz-7b1"}
# Gemma 2 and Gemma 3 have 4 RMSNorms per layer (pre/post attention, pre/post MLP) instead of 2.
NORMS_PER_LAYER = {"Gemma 2": 4, "Gemma 3": 4}
# The vision tower + projector of each multimodal checkpoint, as transformers 5.24.0 builds them on the meta device
# (named_parameters under model.vision_tower / vision_model and multi_modal_projector): the published multimodal total
# minus the text decoder. Not computed here from the architecture: the entry's vision_params must equal them.
VISION_PARAMS = {
    "gemma-3-4b": 416_866_032 + 2_950_272, "gemma-3-12b": 416_866_032 + 4_424_832,
    "gemma-3-27b": 416_866_032 + 6_194_304,
    "llama-4-scout-17b-16e": 850_960_896 + 20_971_520, "llama-4-maverick-17b-128e": 850_960_896 + 20_971_520,
    "mistral-small-3.1-24b": 403_305_472 + 35_652_608,
}


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
        # DeepSeek: the first k layers dense; Llama 4 Maverick: every other layer (index 1, 3, ...) MoE
        kinds = ["dense" if i < arch.first_k_dense_replace or (i + 1) % arch.moe_layer_step else "moe"
                 for i in range(arch.num_hidden_layers)]
        layers = kinds.count("dense") * dense_layer + kinds.count("moe") * moe_layer
    else:
        layers = arch.num_hidden_layers * dense_layer
    if arch.mlp_blocks:     # Nemotron-H's NemotronHBlock: one RMSNorm and one part (Mamba-2, attention or MLP)
        inner = arch.mamba_n_heads * arch.mamba_d_head
        conv = inner + 2 * arch.mamba_n_groups * arch.mamba_d_state     # x, B and C through the depthwise conv
        mamba = (h * (inner + conv + arch.mamba_n_heads) + inner * h                     # in_proj (z, xBC, dt), out_proj
                 + conv * arch.mamba_d_conv + (conv if arch.mamba_conv_bias else 0)     # conv1d
                 + 3 * arch.mamba_n_heads + inner)                                      # dt_bias, A_log, D, gated norm
        n_attention = arch.num_hidden_layers - arch.mlp_blocks - arch.mamba_layers
        layers = (arch.mamba_layers * (mamba + h) + n_attention * (attention + h)
                  + arch.mlp_blocks * (mlp(arch.intermediate_size) + h))
    embeddings = arch.vocab_size * h * (1 if arch.tie_word_embeddings else 2)
    return layers + h + embeddings + VISION_PARAMS.get(arch.id, 0)


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


@pytest.mark.parametrize("model_id", sorted(set(MODELS) - APPROXIMATE))
def test_the_estimators_one_count_equals_the_published_total(model_id: str) -> None:
    """params.count_params (what memory and time read) gives the published total of every exact entry, and a vision
    tower exactly as transformers builds it; each entry says where its total comes from."""
    arch = MODELS[model_id]
    assert count_params(arch).total == arch.published_params
    assert arch.vision_params == VISION_PARAMS.get(model_id, 0)
    assert count_params(arch).vision == arch.vision_params


def test_every_new_entry_states_where_its_total_comes_from() -> None:
    # the entries of issue 20 carry their count's source and its difference to the headline figure
    for arch in MODELS.values():
        if arch.count_source:
            assert "headline" in arch.count_source or "=" in arch.count_source, arch.id
    stated = {m for m, a in MODELS.items() if a.count_source}
    assert {"qwen3-8b", "gemma-3-27b", "llama-4-maverick-17b-128e", "kimi-k2", "glm-4.5-air",
            "deepseek-r1-distill-qwen-1.5b", "mistral-small-3-24b"} <= stated


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
    assert biased == {m for m, a in MODELS.items() if a.family == "Qwen2.5"} | {
        "qwen1.5-moe-a2.7b", "gpt-oss-20b", "gpt-oss-120b", "deepseek-r1-distill-qwen-1.5b", "glm-4.5-air"}
    # issue 20's fields: Gemma 3's four norms, Maverick's alternating layers, Qwen3-32B's 64 x 128 heads over 5120,
    # the Gemma 3 vocabulary of the checkpoints (262208; MaxText and litgpt copy 262144 for 4B-27B)
    assert all(a.norms_per_layer == 4 for a in MODELS.values() if a.family in ("Gemma 2", "Gemma 3"))
    assert MODELS["llama-4-maverick-17b-128e"].moe_layer_step == 2
    assert MODELS["llama-4-scout-17b-16e"].moe_layer_step == 1
    assert MODELS["qwen3-32b"].head_dim * MODELS["qwen3-32b"].num_attention_heads == 8192
    assert {MODELS[f"gemma-3-{s}"].vocab_size for s in ("4b", "12b", "27b")} == {262_208}
    assert MODELS["gemma-3-1b"].vocab_size == 262_144
    assert MODELS["qwen3-0.6b"].intermediate_size == 3072     # a stored "Qwen3 0.6B" copy says 2816: wrong
    r1 = MODELS["deepseek-r1-distill-qwen-1.5b"]
    assert not r1.tie_word_embeddings and MODELS["qwen2.5-1.5b"].tie_word_embeddings
    mixtral = MODELS["mixtral-8x7b"]
    assert (mixtral.num_local_experts, mixtral.num_experts_per_tok) == (8, 2)
    assert MODELS["deepseek-v3"].first_k_dense_replace == 3 and MODELS["deepseek-v2-lite"].q_lora_rank is None


def test_gpu_ids_unique_kebab_and_fields() -> None:
    assert len(GPUS) >= 35
    for key, gpu in GPUS.items():
        assert isinstance(gpu, GpuSpec)
        assert key == gpu.id
        assert KEBAB.fullmatch(gpu.id), gpu.id
        assert gpu.klass in {"consumer", "workstation", "datacenter"}
        assert gpu.source.startswith("https://")
        assert 8 * 2**30 < gpu.memory_bytes < 320 * 2**30, gpu.id
        assert gpu.arch in ARCHS and gpu.compute_capability, gpu.id
        assert gpu.counts and gpu.counts == tuple(sorted(set(gpu.counts))) and gpu.counts[0] == 1, gpu.id
        assert gpu.counts_source and max(gpu.counts) <= max(gpu.gpus_per_node, 1) * 8, gpu.id
        assert gpu.bf16 == (gpu.arch not in ("pascal", "volta", "turing")), gpu.id


# Lower-case architectures (the regimes branch names them alike), each card's compute capability or ROCm target
ARCHS = {"pascal": "6.0", "volta": "7.0", "turing": "7.5", "ampere": "8.", "ada": "8.9", "hopper": "9.0",
         "blackwell": ("10.", "12."), "cdna3": "gfx942", "cdna4": "gfx950"}


def test_gpu_architectures_and_capabilities() -> None:
    for g in GPUS.values():
        assert g.compute_capability.startswith(ARCHS[g.arch]), g.id
    # the capability facts the advice rests on (capabilities of issue 20): no BF16 before Ampere
    assert {g.id for g in GPUS.values() if not g.bf16} == {"t4", "p100", "v100-16gb", "v100-32gb"}
    assert GPUS["gh200"].host_link == "nvlink-c2c" and GPUS["gh200"].host_link_gb_s == 450.0
    assert GPUS["gh200"].host_memory_gb_s == 512.0
    assert GPUS["rtx-4060-ti-16gb"].host_link_gb_s == 16.0       # 8 PCIe 4.0 lanes


def test_required_gpus_present() -> None:
    required = {
        "rtx-3090", "rtx-4090", "rtx-5090", "a10", "a10g", "l4", "l40s", "rtx-a6000", "rtx-6000-ada", "a100-40gb",
        "a100-80gb", "h100-80gb", "h200", "b200", "mi300x", "v100-16gb", "v100-32gb",
        # issue 20
        "t4", "p100", "rtx-3060-12gb", "rtx-4060-ti-16gb", "rtx-4070-ti-super", "rtx-4080", "rtx-4080-super",
        "rtx-5080", "rtx-5070-ti", "a40", "l40", "h100-pcie", "h100-nvl", "rtx-pro-6000-blackwell", "gh200", "b300",
        "mi325x", "mi355x",
    }
    assert required <= GPUS.keys()


def marketed_gb(name: str) -> int:
    """The marketed size a card's name says, in GB ("NVIDIA L4 24GB" -> 24; GH200's first size, not its LPDDR5X)."""
    found = re.search(r"\b(\d+)GB\b", name)
    assert found, f"{name}: a card's name says its memory size"
    return int(found.group(1))


def test_gpu_memory_plausibly_ordered() -> None:
    mem = {k: g.memory_bytes for k, g in GPUS.items()}
    assert mem["a100-80gb"] == 85_899_345_920  # 81920 MiB
    assert mem["v100-16gb"] < mem["l4"] < mem["rtx-5090"] < mem["a100-40gb"] < mem["l40s"] < mem["rtx-a6000"]
    assert mem["rtx-4090"] < mem["rtx-a6000"]
    assert mem["a10"] < mem["rtx-4090"] <= mem["rtx-3090"]
    assert mem["a100-40gb"] < mem["h100-80gb"] < mem["h200"] < mem["b200"] < mem["mi300x"]
    assert mem["t4"] < mem["p100"] < mem["rtx-4060-ti-16gb"] and mem["h100-nvl"] < mem["gh200"] < mem["h200"]
    assert mem["b200"] < mem["mi325x"] < mem["b300"] < mem["mi355x"]
    assert mem["t4"] == 15360 * 2**20 and mem["mi355x"] == 308_902_100_992
    for gpu in GPUS.values():           # the marketed size, in GB read as GiB: the driver's figure never exceeds it
        marketed = marketed_gb(gpu.name)
        assert 0.9 * marketed * 2**30 < gpu.memory_bytes <= marketed * 2**30, gpu.id


def test_gpu_klass_and_nvlink() -> None:
    """A card's class is its line's: GeForce is consumer, NVIDIA's other RTX cards workstation, the rest data centre."""
    for g in GPUS.values():
        line = "consumer" if "GeForce" in g.name else "workstation" if " RTX " in g.name else "datacenter"
        assert g.klass == line, (g.id, g.klass)
    assert {g.klass for g in GPUS.values()} == {"consumer", "workstation", "datacenter"}
    linked = {g.id for g in GPUS.values() if g.nvlink}
    assert {"rtx-3090", "rtx-a6000", "a100-40gb", "a100-80gb", "h100-80gb", "h200", "b200", "mi300x", "b300",
            "mi325x", "mi355x"} <= linked
    assert not linked & {"rtx-4090", "rtx-5090", "rtx-6000-ada", "a10", "a10g", "l4", "l40s", "t4", "p100", "l40",
                         "rtx-pro-6000-blackwell", "rtx-5080", "rtx-4080"}
