"""Issue 40, hybrid layers: Qwen3-Next's Gated DeltaNet layers (3 of every 4) beside gated softmax attention, read from
the config and counted, saved and differentiated as transformers builds them (models/qwen3_next/modular_qwen3_next.py:
Qwen3NextGatedDeltaNet, Qwen3NextAttention, Qwen3NextDecoderLayer; configuration_qwen3_next.py for the defaults).
Every expected figure below is derived by hand from those files, not from the estimator."""
from __future__ import annotations

from dataclasses import replace

import pytest

from calculator.api import answer
from calculator.configs import model_json, parse_model
from calculator.memory import (_linear_attn_saved, _lora_act_per_token_layer, _mamba_saved, activation_bytes,
                               linear_state_backward)
from calculator.models import Method, TrainingSetup
from calculator.params import count_params

pytestmark = pytest.mark.unit

# Qwen3NextConfig() as a config.json would write it (the class defaults; layer_types left to full_attention_interval)
NEXT = {"model_type": "qwen3_next", "hidden_size": 2048, "num_hidden_layers": 48, "num_attention_heads": 16,
        "num_key_value_heads": 2, "head_dim": 256, "intermediate_size": 5632, "vocab_size": 151936,
        "num_experts": 512, "num_experts_per_tok": 10, "moe_intermediate_size": 512,
        "shared_expert_intermediate_size": 512, "linear_num_key_heads": 16, "linear_num_value_heads": 32,
        "linear_key_head_dim": 128, "linear_value_head_dim": 128, "linear_conv_kernel_dim": 4,
        "full_attention_interval": 4, "decoder_sparse_step": 1, "tie_word_embeddings": False}


def _hand_total() -> int:
    h, d, a, kv, V = 2048, 256, 16, 2, 151936
    # Qwen3NextAttention: q_proj h -> 2·a·d (query and its output gate), k/v h -> kv·d, o_proj a·d -> h, q/k norms (d)
    attention = h * 2 * a * d + 2 * h * kv * d + a * d * h + 2 * d
    # Qwen3NextGatedDeltaNet: key_dim 16·128, value_dim 32·128; in_proj_qkvz h -> 2·key+2·value, in_proj_ba h -> 2·32,
    # conv1d (2·key + value) channels x kernel 4, dt_bias and A_log (32 each), RMSNormGated(128), out_proj value -> h
    key, value = 16 * 128, 32 * 128
    deltanet = h * (2 * key + 2 * value) + h * 2 * 32 + (2 * key + value) * 4 + 2 * 32 + 128 + value * h
    # Qwen2MoeSparseMoeBlock: 512 experts of gate/up/down at 512, router h -> 512, shared expert (512) and its gate
    moe = 512 * 3 * h * 512 + h * 512 + 3 * h * 512 + h
    norms = 2 * h
    full, linear = 48 // 4, 48 - 48 // 4          # every 4th layer attention (full_attention_interval 4)
    return full * (attention + moe + norms) + linear * (deltanet + moe + norms) + 2 * V * h + h


def test_qwen3_next_is_counted_as_transformers_builds_it():
    m = parse_model(NEXT)
    assert (m.linear_attention_layers, m.attn_output_gate) == (36, True)
    assert count_params(m).total == _hand_total() == 79_674_391_296
    # the class defaults fill what a config leaves out, and an explicit layer_types list says the same
    sparse = {k: v for k, v in NEXT.items() if not k.startswith(("linear_", "full_attention"))}
    assert count_params(parse_model(sparse)).total == _hand_total()
    types = ["linear_attention" if (i + 1) % 4 else "full_attention" for i in range(48)]
    listed = {**{k: v for k, v in NEXT.items() if k != "full_attention_interval"}, "layer_types": types}
    assert parse_model(listed).linear_attention_layers == 36 and "layer_types" not in parse_model(listed).ignored_fields


def test_a_hybrid_round_trips_through_the_custom_form_and_is_estimated():
    m = parse_model(NEXT)
    again = parse_model(model_json(m))
    assert count_params(again) == count_params(m) and again.linear_attention_layers == 36
    custom = {**model_json(m), "model_type": ""}           # the custom form without a type: the fields say it all
    assert count_params(parse_model(custom)).total == _hand_total()
    for method in ("full", "lora", "qlora"):
        r = answer({"model": NEXT, "method": method, "gpu": "h100-80gb"})
        assert r["ok"], r
        assert r["result"]["params"] == _hand_total()


def test_the_deltanet_state_is_a_backward_transient_of_fixed_size_per_chunk():
    m = parse_model(NEXT)
    s = TrainingSetup(model=m, method=Method.LORA, seq_len=2048, micro_batch_size=1)
    # 32 chunks of 64 tokens, a 32 x 128 x 128 state per chunk, and its gradient, in bf16
    assert linear_state_backward(s) == 2 * 1 * (2048 // 64) * 32 * 128 * 128 * 2 == 67_108_864
    longer = TrainingSetup(model=m, method=Method.LORA, seq_len=4096, micro_batch_size=1)
    assert linear_state_backward(longer) == 2 * linear_state_backward(s)          # linear in length, not quadratic
    dense = TrainingSetup(model=parse_model("qwen3-8b"), method=Method.LORA, seq_len=2048, micro_batch_size=1)
    assert linear_state_backward(dense) == 0


def test_the_hybrids_activations_are_its_own_not_an_attention_stacks():
    """A DeltaNet layer saves per token (LoRA, bf16): the conv's input (2·2048 + 4096), the delta rule's q and k
    repeated to the 32 value heads (2·32·128) and v (4096), the chunk matrix A (64 per value head), the gated norm's
    input and gate (2·4096), all 2 bytes; g and beta in fp32 (2·32·4 bytes). The same stack with every layer
    attention saves other tensors."""
    hybrid = parse_model(NEXT)
    lora = TrainingSetup(model=hybrid, method=Method.LORA, seq_len=2048, micro_batch_size=1,
                         gradient_checkpointing=False)
    assert _linear_attn_saved(lora) == 2 * (2 * 2048 + 4096 + 2 * 32 * 128 + 4096 + 64 * 32 + 2 * 4096) + 2 * 32 * 4
    all_attention = parse_model({**model_json(hybrid), "model_type": "qwen3_moe", "attn_output_gate": True,
                                 **{k: 0 for k in model_json(hybrid) if k.startswith("linear_")}})
    assert activation_bytes(lora) != activation_bytes(replace(lora, model=all_attention))


@pytest.mark.parametrize("cfg", [
    {**NEXT, "layer_types": ["mamba"] * 48},                     # a mixer this reader does not know
    {**NEXT, "layer_types": ["linear_attention"] * 47},          # a list that is not one entry per layer
    {**NEXT, "mlp_only_layers": [0]},                            # dense and MoE MLPs mixed with linear layers
    {**NEXT, "linear_num_value_heads": 24},                      # value heads not grouped over the key heads
])
def test_what_the_hybrid_reader_cannot_read_is_refused_with_a_code(cfg):
    r = answer({"model": cfg})
    assert r["ok"] is False and r["error"]["code"] in ("unsupported_model", "contradiction")


def test_granitemoe_is_read_as_the_mixtral_layout_its_parallel_experts_are():
    """GraniteMoeConfig's defaults (transformers models/granitemoe/configuration_granitemoe.py), counted by hand from
    modular_granitemoe.py: Llama attention (4 h x h, no bias), per layer 8 experts of input_linear (2·11008 x 4096) and
    output_linear (4096 x 11008), a router 4096 -> 8 without bias, two RMSNorms; untied embeddings and a final norm."""
    h, i, E, L, V = 4096, 11008, 8, 32, 32000
    layer = 4 * h * h + E * (2 * i * h + h * i) + h * E + 2 * h
    cfg = {"model_type": "granitemoe", "hidden_size": h, "num_hidden_layers": L, "num_attention_heads": 32,
           "vocab_size": V, "intermediate_size": i, "num_local_experts": E, "num_experts_per_tok": 2,
           "embedding_multiplier": 12.0, "residual_multiplier": 0.22, "attention_multiplier": 0.0078125,
           "logits_scaling": 6.0}
    m = parse_model(cfg)
    assert count_params(m).total == L * layer + 2 * V * h + h == 37_039_116_288
    assert answer({"model": cfg, "method": "lora"})["ok"]


# The 2025 families whose types the fetch button now reads with their own class defaults instead of as Llama:
# each count derived by hand from the class's defaults and its modelling file in transformers
# (models/<type>/modular_<type>.py).
@pytest.mark.parametrize("cfg, total", [
    # ApertusConfig: h 4096, 32 layers, 32 heads (kv = heads), MLP up/down of 14336 (ungated) whose xIELU activation
    # has 2 parameters (alpha_p, alpha_n), q/k norms over 128
    ({"model_type": "apertus", "hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32,
      "vocab_size": 131072},
     32 * (4 * 4096 * 4096 + 2 * 128 + 2 * 4096 * 14336 + 2 + 2 * 4096) + 2 * 131072 * 4096 + 4096),
    # SeedOssConfig: 80 heads of 128, 8 kv heads, q/k/v biases, no o_proj bias, gated MLP of 27648
    ({"model_type": "seed_oss", "hidden_size": 4096, "num_hidden_layers": 64, "num_attention_heads": 80,
      "num_key_value_heads": 8, "vocab_size": 155136},
     64 * (4096 * 10240 + 2 * 4096 * 1024 + 10240 * 4096 + 10240 + 2 * 1024 + 3 * 4096 * 27648 + 2 * 4096)
     + 2 * 155136 * 4096 + 4096),
    ({"model_type": "seed_oss", "hidden_size": 4096, "num_hidden_layers": 64, "num_attention_heads": 80,
      "num_key_value_heads": 8, "vocab_size": 155136, "attention_out_bias": True},     # its own o_proj flag
     64 * (4096 * 10240 + 2 * 4096 * 1024 + 10240 * 4096 + 10240 + 2 * 1024 + 4096 + 3 * 4096 * 27648 + 2 * 4096)
     + 2 * 155136 * 4096 + 4096),
    # Olmo3Config = Olmo2Config: q/k norms over all q and k features, MLP 11008, untied
    ({"model_type": "olmo3", "hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32,
      "vocab_size": 100278},
     32 * (4 * 4096 * 4096 + 2 * 4096 + 3 * 4096 * 11008 + 2 * 4096) + 2 * 100278 * 4096 + 4096),
])
def test_new_families_are_read_with_their_own_class_defaults(cfg, total):
    assert count_params(parse_model(cfg)).total == total


def test_qwen3_5s_text_model_is_the_same_deltanet_split_into_four_linears():
    """Qwen3_5TextConfig's defaults (h 4096, 32 layers, 16 heads of 256, 4 kv heads, MLP 12288, vocabulary 248320,
    Qwen3-Next's linear widths), a dense MLP in every layer; Qwen3_5GatedDeltaNet: in_proj_qkv (h -> 2·2048 + 4096),
    in_proj_z (h -> 4096), in_proj_b and in_proj_a (h -> 32 each). A Qwen3.5 checkpoint with its vision tower is
    refused for the tower, not for its layers."""
    h, d = 4096, 256
    attention = h * 2 * 16 * d + 2 * h * 4 * d + 16 * d * h + 2 * d
    deltanet = h * (2 * 2048 + 4096) + h * 4096 + 2 * h * 32 + (2 * 2048 + 4096) * 4 + 2 * 32 + 128 + 4096 * h
    mlp, norms = 3 * h * 12288, 2 * h
    cfg = {"model_type": "qwen3_5_text", "hidden_size": h, "num_hidden_layers": 32, "num_attention_heads": 16,
           "num_key_value_heads": 4, "vocab_size": 248320}
    m = parse_model(cfg)
    assert m.linear_attention_layers == 24
    assert count_params(m).total == 8 * (attention + mlp + norms) + 24 * (deltanet + mlp + norms) + 2 * 248320 * h + h
    names = {name for kind in count_params(m).kinds for name, *_ in kind.linears}
    assert {"in_proj_qkv", "in_proj_z", "in_proj_b", "in_proj_a", "out_proj"} <= names and "in_proj_qkvz" not in names
    vlm = answer({"model": {"model_type": "qwen3_5", "text_config": cfg, "vision_config": {"depth": 27}}})
    assert vlm["error"]["code"] == "unsupported_model" and vlm["error"]["reason"] == "vision_tower"


# Mamba-2 hybrids: BambaMixer (transformers models/bamba/modeling_bamba.py), which Granite 4.0-H's
# GraniteMoeHybridMambaLayer is. With the classes' defaults (128 heads, mamba_expand 2, 1 group, d_state 256, conv 4
# with a bias, projections without): inner width 2·4096 = 8192 (d_head 64), conv channels 8192 + 2·256 = 8704,
# in_proj 4096 -> 8192 + 8704 + 128.
MAMBA = 4096 * (8192 + 8704 + 128) + 8192 * 4096 + 8704 * 4 + 8704 + 3 * 128 + 8192


def test_bamba_counts_its_mamba2_mixers_and_attention_layers_as_transformers_builds_them():
    attention = 4096 * 4096 + 2 * 4096 * 1024 + 4096 * 4096          # 32 heads, 8 kv heads of 128, no biases
    mlp, norms = 3 * 4096 * 14336, 2 * 4096
    cfg = {"model_type": "bamba", "hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32,
           "num_key_value_heads": 8, "vocab_size": 128000, "attn_layer_indices": [9, 18, 27]}
    m = parse_model(cfg)
    assert (m.mamba_layers, m.mamba_d_head) == (29, 64)
    assert count_params(m).total == 3 * (attention + mlp + norms) + 29 * (MAMBA + mlp + norms) + 2 * 128000 * 4096 + 4096
    assert count_params(parse_model(model_json(m))) == count_params(m)             # the custom form round trip
    lora = TrainingSetup(model=m, method=Method.LORA, seq_len=2048, micro_batch_size=1, gradient_checkpointing=False)
    # 8 chunks of 256 tokens, a 128 x 64 x 256 fp32 state per chunk, and its gradient
    assert linear_state_backward(lora) == 2 * 8 * 128 * 64 * 256 * 4
    # per token: in_proj's output and the scan's output in bf16, the norm's fp32 reciprocal root (1 group)
    assert _mamba_saved(lora) == 2 * ((8192 + 8704 + 128) + 8192) + 4
    assert answer({"model": cfg, "method": "qlora", "gpu": "rtx-4090"})["ok"]


def test_granite_4_hybrids_with_and_without_experts():
    """GraniteMoeHybridDecoderLayer: a Mamba-2 or attention mixer, a shared gated MLP (input_linear 2·s x h,
    output_linear h x s) and, with experts, GraniteMoE's experts of intermediate_size and a bias-free router."""
    attention, norms = 4 * 4096 * 4096, 2 * 4096
    moe = 8 * 3 * 4096 * 11008 + 8 * 4096 + 3 * 4096 * 1024
    types = ["attention" if i % 8 == 5 else "mamba" for i in range(32)]
    cfg = {"model_type": "granitemoehybrid", "hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32,
           "vocab_size": 32000, "layer_types": types, "position_embedding_type": "nope", "mamba_d_head": "auto"}
    m = parse_model(cfg)
    assert m.mamba_layers == 28
    assert count_params(m).total == 4 * (attention + moe + norms) + 28 * (MAMBA + moe + norms) + 2 * 32000 * 4096 + 4096
    dense = {**cfg, "num_local_experts": 0, "shared_intermediate_size": 8192}
    mlp = 3 * 4096 * 8192
    d = parse_model(dense)
    assert count_params(d).total == 4 * (attention + mlp + norms) + 28 * (MAMBA + mlp + norms) + 2 * 32000 * 4096 + 4096
    assert count_params(parse_model(model_json(d))) == count_params(d)
    assert answer({"model": dense, "method": "lora"})["ok"]


@pytest.mark.parametrize("cfg", [
    {"model_type": "bamba", "hidden_size": 4096, "num_hidden_layers": 4, "num_attention_heads": 32, "vocab_size": 100,
     "mamba_n_heads": 100},                                    # heads that do not divide the inner width
    {"model_type": "bamba", "hidden_size": 4096, "num_hidden_layers": 4, "num_attention_heads": 32, "vocab_size": 100,
     "attn_layer_indices": "0"},
    {"model_type": "granitemoehybrid", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4,
     "vocab_size": 100, "layer_types": ["mamba", "rwkv"]},     # a mixer this reader does not know
    {"model_type": "nemotron_h", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4,
     "vocab_size": 100, "hybrid_override_pattern": "M*X"},    # a block kind this reader does not know
    {"model_type": "nemotron_h", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4,
     "vocab_size": 100, "hybrid_override_pattern": "ME", "moe_latent_size": 32},   # latent experts: not counted
    {"model_type": "nemotron_h", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4,
     "vocab_size": 100, "hybrid_override_pattern": ["M", "*"]},    # the pattern is a string
    {"model_type": "nemotron_h", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4,
     "vocab_size": 100, "hybrid_override_pattern": "MEE", "n_routed_experts": 0},   # MoE blocks without experts
    {"model_type": "nemotron_h", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4,
     "vocab_size": 100, "hybrid_override_pattern": "---"},      # no mixer at all
])
def test_what_the_mamba_reader_cannot_read_is_refused_with_a_code(cfg):
    r = answer({"model": cfg})
    assert r["ok"] is False and r["error"]["code"] in ("unsupported_model", "contradiction", "wrong_type",
                                                       "out_of_range")


def test_qwen3_5s_moe_text_model_is_qwen3_5s_deltanet_with_qwen3_nexts_sparse_block_in_every_layer():
    """Qwen3_5MoeTextConfig's defaults (transformers models/qwen3_5_moe/modular_qwen3_5_moe.py, the Qwen3.5-35B-A3B
    style: h 2048, 40 layers, 16 heads of 256, 2 kv heads, vocabulary 248320, 256 experts of 512 with 8 routed, a
    shared expert of 512) and Qwen3_5MoeDecoderLayer: a Qwen3_5GatedDeltaNet or gated attention (every 4th layer),
    then Qwen3NextSparseMoeBlock (router h -> 256 without bias, the shared expert and its gate h -> 1) in every
    layer. Its checkpoint with the vision tower (qwen3_5_moe) is refused for the tower."""
    h, d = 2048, 256
    attention = h * 2 * 16 * d + 2 * h * 2 * d + 16 * d * h + 2 * d
    key, value = 16 * 128, 32 * 128
    deltanet = h * (2 * key + value) + h * value + 2 * h * 32 + (2 * key + value) * 4 + 2 * 32 + 128 + value * h
    moe = 256 * 3 * h * 512 + h * 256 + 3 * h * 512 + h
    norms = 2 * h
    cfg = {"model_type": "qwen3_5_moe_text", "hidden_size": h, "num_hidden_layers": 40, "num_attention_heads": 16,
           "num_key_value_heads": 2, "head_dim": 256, "vocab_size": 248320, "num_experts": 256,
           "num_experts_per_tok": 8, "moe_intermediate_size": 512, "shared_expert_intermediate_size": 512}
    m = parse_model(cfg)
    total = 10 * (attention + moe + norms) + 30 * (deltanet + moe + norms) + 2 * 248320 * h + h
    assert (m.linear_attention_layers, m.num_local_experts) == (30, 256)
    assert count_params(m).total == total == 34_660_610_688
    sparse = {"model_type": "qwen3_5_moe_text"} | {k: cfg[k] for k in ("hidden_size", "num_hidden_layers",
                                                                       "num_attention_heads", "num_key_value_heads",
                                                                       "vocab_size")}
    assert count_params(parse_model(sparse)).total == total      # the class defaults fill the rest
    assert count_params(parse_model(model_json(m))) == count_params(m)
    assert answer({"model": cfg, "method": "lora", "gpu": "h100-80gb"})["ok"]
    vlm = answer({"model": {"model_type": "qwen3_5_moe", "text_config": cfg, "vision_config": {"depth": 27}}})
    assert vlm["error"]["code"] == "unsupported_model" and vlm["error"]["reason"] == "vision_tower"


# Nemotron-H (transformers models/nemotron_h/modular_nemotron_h.py): a stack of NemotronHBlock, each one RMSNorm and
# one part: a Mamba-2 mixer (M: NemotronHMamba2Mixer, BambaMixer's tensors with heads x head_dim its own fields),
# attention (*: q/k/v/o without biases), an ungated relu2 MLP (-: up_proj, down_proj) or a MoE (E: NemotronHMoE).
# Nemotron-H-8B-Base-8K's config.json as NVIDIA's Megatron-Bridge documents it (docs/models/llm/nemotronh.md: 52
# layers of this pattern, hidden 4096, FFN 21504, 32 heads and 8 kv groups of 128, Mamba-2 128 heads of 64, state 128).
NEMOTRON_8B = {"model_type": "nemotron_h", "architectures": ["NemotronHForCausalLM"], "hidden_size": 4096,
               "num_hidden_layers": 52, "hybrid_override_pattern": "M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M-",
               "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 128, "intermediate_size": 21504,
               "vocab_size": 131072, "mamba_num_heads": 128, "mamba_head_dim": 64, "ssm_state_size": 128,
               "n_groups": 8, "conv_kernel": 4, "use_conv_bias": True, "use_bias": False, "mlp_bias": False,
               "attention_bias": False, "tie_word_embeddings": False, "mlp_hidden_act": "relu2", "expand": 2}


def test_nemotron_h_counts_each_block_as_its_one_part():
    h = 4096
    inner, conv = 128 * 64, 128 * 64 + 2 * 8 * 128
    mamba = h * (inner + conv + 128) + inner * h + conv * 4 + conv + 3 * 128 + inner   # in/out_proj, conv+bias, dt/A/D, norm
    attention = h * 4096 + 2 * h * 1024 + 4096 * h
    mlp = 2 * h * 21504
    m = parse_model(NEMOTRON_8B)
    assert (m.mamba_layers, m.mlp_blocks, m.num_local_experts) == (24, 24, 0)
    total = 24 * (mamba + h) + 4 * (attention + h) + 24 * (mlp + h) + 2 * 131072 * h + h
    # 8,100,852,736: the same total a layer-by-layer count of the released checkpoint's tensors gives
    assert count_params(m).total == total == 8_100_852_736
    assert count_params(parse_model(model_json(m))) == count_params(m)            # the custom form round trip
    listed = {k: v for k, v in NEMOTRON_8B.items() if k != "hybrid_override_pattern"}
    names = {"M": "mamba", "*": "attention", "-": "mlp"}
    listed["layers_block_type"] = [names[c] for c in NEMOTRON_8B["hybrid_override_pattern"]]
    assert count_params(parse_model(listed)).total == total                    # the list form says the same
    for method in ("full", "lora", "qlora"):
        r = answer({"model": NEMOTRON_8B, "method": method, "gpu": "h100-80gb"})
        assert r["ok"] and r["result"]["params"] == total


def test_nemotron_h_activations_and_state_are_its_blocks_own():
    """Per block and token (LoRA, bf16, no checkpointing) the stack saves its 24 Mamba-2 blocks' tensors, its 4
    attention blocks' and its 24 MLP blocks' inputs, one normalised input per block; its backward recomputes the
    Mamba-2 state (128 heads x 64 x 128, fp32, per chunk of NemotronHConfig's chunk_size, 128 tokens) with its
    gradient."""
    m = parse_model(NEMOTRON_8B)
    s = TrainingSetup(model=m, method=Method.LORA, seq_len=2048, micro_batch_size=1, gradient_checkpointing=False)
    assert linear_state_backward(s) == 2 * 16 * 128 * 64 * 128 * 4
    wider = replace(s, model=parse_model({**NEMOTRON_8B, "chunk_size": 256}))
    assert linear_state_backward(wider) == linear_state_backward(s) / 2
    # LoRA on up_proj and down_proj wraps the 24 MLP blocks only: per block on average 24/52 of an MLP block's
    # branch (fp32 adapters, PEFT's default: lora_A's input cast to fp32, up_proj's 4096 and down_proj's 21504
    # features, and its r = 16 fp32 outputs each)
    mlp_only = replace(s, lora_targets=("up_proj", "down_proj"), lora_dropout=0.0, lora_rank=16)
    assert _lora_act_per_token_layer(mlp_only) == 24 * (4 * (4096 + 21504) + 4 * 2 * 16) / 52


def test_nemotron_h_moe_blocks_are_deepseek_v3s_router_with_ungated_experts():
    """NemotronHMoE (DeepseekV3MoE): a router h -> E with its e_score_correction_bias, E ungated experts (up i x h,
    down h x i) and one shared NemotronHMLP of moe_shared_expert_intermediate_size (n_shared_experts counts it);
    a dense MLP block beside MoE blocks keeps intermediate_size."""
    h, E, i, shared, dense = 64, 4, 32, 48, 96
    cfg = {"model_type": "nemotron_h", "hidden_size": h, "num_hidden_layers": 6, "num_attention_heads": 4,
           "num_key_value_heads": 2, "head_dim": 16, "vocab_size": 100, "hybrid_override_pattern": "ME*E-M",
           "mamba_num_heads": 8, "mamba_head_dim": 16, "ssm_state_size": 8, "n_groups": 2, "n_routed_experts": E,
           "num_experts_per_tok": 2, "moe_intermediate_size": i, "moe_shared_expert_intermediate_size": shared,
           "n_shared_experts": 1, "intermediate_size": dense}
    inner, conv = 8 * 16, 8 * 16 + 2 * 2 * 8
    mamba = h * (inner + conv + 8) + inner * h + conv * 4 + conv + 3 * 8 + inner
    attention = h * 64 + 2 * h * 32 + 64 * h
    moe = E * 2 * h * i + E * h + E + 2 * h * shared
    m = parse_model(cfg)
    assert (m.mlp_blocks, m.num_local_experts) == (3, E)
    total = 2 * (mamba + h) + (attention + h) + 2 * (moe + h) + (2 * h * dense + h) + 2 * 100 * h + h
    assert count_params(m).total == total
    assert count_params(parse_model(model_json(m))) == count_params(m)
    assert answer({"model": cfg, "method": "lora"})["ok"]
    no_mlp = parse_model({**cfg, "hybrid_override_pattern": "MM*M"})      # blocks of mixers alone: no MLP at all
    assert no_mlp.mlp_blocks == 0 and count_params(parse_model(model_json(no_mlp))) == count_params(no_mlp)


def test_only_a_hybrids_attention_layers_hold_attention_scores():
    """Eager attention saves an s x s score matrix per head in each softmax-attention layer; Qwen3-Next's 36 Gated
    DeltaNet layers have none, so its stack (12 attention layers of 48) saves a quarter of what the same stack with
    every layer attention would."""
    from calculator.memory import _eager_per_layer
    from calculator.models import Attention
    m = parse_model(NEXT)
    s = TrainingSetup(model=m, method=Method.LORA, seq_len=1024, micro_batch_size=1, attention=Attention.EAGER)
    all_attention = replace(s, model=replace(m, linear_attention_layers=0))
    assert _eager_per_layer(s) > 0 and 4 * _eager_per_layer(s) == _eager_per_layer(all_attention)


def test_only_a_hybrids_attention_layers_cost_attention_flops():
    """The time model's attention FLOPs (scores and values, 2·s·a·d per token each) are those of the 12 attention
    layers of Qwen3-Next's 48, not of every layer."""
    from calculator.throughput import _attention_flops, _passes
    m = parse_model(NEXT)
    s = TrainingSetup(model=m, method=Method.LORA, seq_len=1024, micro_batch_size=1)
    all_attention = replace(s, model=replace(m, linear_attention_layers=0))
    hybrid, dense = _attention_flops(s, _passes(s)), _attention_flops(all_attention, _passes(all_attention))
    assert hybrid[0] > 0 and 4 * hybrid[0] == dense[0] and 4 * hybrid[1] == dense[1]
