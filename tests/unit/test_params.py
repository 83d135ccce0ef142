"""The one count of parameters, LoRA targets and 4-bit storage (calculator/params.py), against values derived by hand
from the configs, and read by memory AND time: the two can no longer count the same model differently (they did for
DeepSeek: time took the largest layer times L, missed the MLA projections all-linear LoRA wraps, and ignored
untie_embeddings)."""
from __future__ import annotations

from dataclasses import replace

import pytest

from calculator import memory, params, throughput
from calculator.catalog import GPUS, MODELS
from calculator.models import ALL_LINEAR, Method, ModelArch, Sharding, TrainingSetup

pytestmark = pytest.mark.unit

#: A dense-first MoE with Llama attention (no MLA): 1 dense layer, then 3 MoE layers of 8 experts (2 routed).
TOY = ModelArch(id="toy", name="toy", family="toy", hidden_size=64, num_hidden_layers=4, num_attention_heads=4,
                num_key_value_heads=2, intermediate_size=256, vocab_size=1000, num_local_experts=8,
                num_experts_per_tok=2, moe_intermediate_size=48, first_k_dense_replace=1)

MLA = ["kv_a_proj_with_mqa", "kv_b_proj", "o_proj"]
MLP = ["gate_proj", "up_proj", "down_proj"]
#: (model, {layer count: wrapped module names under all-linear}, NF4 parameters of the stack), by hand:
HAND = {
    # DeepSeek-V2-Lite: h 2048, 16 heads, no q bottleneck (q_proj 2048 -> 16·(128+64)), kv_a 2048 -> 512+64,
    # kv_b 512 -> 16·(128+128), o 16·128 -> 2048: 6,291,456 + 1,179,648 + 2,097,152 + 4,194,304 = 13,762,560.
    # Layer 0 is dense (3 x 2048 x 10,944 = 67,239,936); 26 MoE layers hold 64 experts of 3 x 2048 x 1408 and a
    # shared expert of 3 x 2048 x 2816: 553,648,128 + 17,301,504. Stack: 81,002,496 + 26 x 584,712,192.
    "deepseek-v2-lite": ({1: ["q_proj", *MLA, *MLP], 26: ["q_proj", *MLA, *MLP, *MLP]},
                         1 * (13_762_560 + 67_239_936) + 26 * (13_762_560 + 553_648_128 + 17_301_504)),
    # DeepSeek-V3: h 7168, 128 heads, q_a 7168 -> 1536, q_b 1536 -> 128·192, kv_a 7168 -> 576, kv_b 512 -> 128·256,
    # o 128·128 -> 7168: 11,010,048 + 37,748,736 + 4,128,768 + 16,777,216 + 117,440,512 = 187,105,280.
    # 3 dense layers (3 x 7168 x 18,432 = 396,361,728); 58 MoE layers of 256 experts of 3 x 7168 x 2048 and a shared
    # expert of the same width: 11,274,289,152 + 44,040,192.
    "deepseek-v3": ({3: ["q_a_proj", "q_b_proj", *MLA, *MLP], 58: ["q_a_proj", "q_b_proj", *MLA, *MLP, *MLP]},
                    3 * (187_105_280 + 396_361_728) + 58 * (187_105_280 + 11_274_289_152 + 44_040_192)),
    # The toy: attention q 64 -> 64, k and v 64 -> 32 (2 kv heads of 16), o 64 -> 64: 12,288; dense MLP 3 x 64 x 256
    # = 49,152; each MoE layer 8 experts of 3 x 64 x 48 = 73,728.
    "toy": ({1: ["q_proj", "k_proj", "v_proj", "o_proj", *MLP], 3: ["q_proj", "k_proj", "v_proj", "o_proj", *MLP]},
            1 * (12_288 + 49_152) + 3 * (12_288 + 73_728)),
}


def _model(name: str) -> ModelArch:
    return TOY if name == "toy" else MODELS[name]


@pytest.mark.parametrize("name", list(HAND))
def test_lora_wraps_every_linear_of_every_layer_kind(name):
    wrapped, _nf4 = HAND[name]
    got = {n: [x[0] for x in lins] for n, lins in params.stack_targets(_model(name), ALL_LINEAR)}
    assert got == wrapped


@pytest.mark.parametrize("name", list(HAND))
def test_nf4_parameters_are_every_decoder_linear(name):
    _wrapped, nf4 = HAND[name]
    s = TrainingSetup(model=_model(name), method=Method.QLORA)
    assert params.quantized_params(s) == nf4
    assert params.count_params(s.model).stack_linear == nf4


@pytest.mark.parametrize("name", list(HAND))
def test_memory_holds_the_one_count_of_4bit_weights(name):
    _wrapped, nf4 = HAND[name]
    s = TrainingSetup(model=_model(name), method=Method.QLORA)
    rest = params.count_params(s.model).total - nf4                 # embeddings, lm_head, norms, routers: 16-bit
    assert memory.weights_bytes(s) == pytest.approx(nf4 * (4 + 0.127) / 8 + rest * 2, rel=1e-12)


@pytest.mark.parametrize("name", list(HAND))
def test_time_dequantises_the_one_count_of_4bit_weights(name):
    _wrapped, nf4 = HAND[name]
    s = TrainingSetup(model=_model(name), method=Method.QLORA)
    # each forward and backward reads every NF4 code (half a byte) and its constants (double quantisation, the
    # default: 8-bit absmax, their fp32 constants, the fp32 absmax written, offset-added and read) and writes the
    # 16-bit weight (2 bytes)
    per = 0.5 + (1 / 64 + 4 / (64 * 256) + 4 / 64 + 8 / 64 + 4 / 64) + 2
    assert throughput.step_counts(s, GPUS["h100-80gb"]).dequant_bytes == pytest.approx(nf4 * per * 2, rel=1e-12)


@pytest.mark.parametrize("name", list(HAND))
def test_time_launches_the_adapters_of_the_one_list_of_wrapped_modules(name):
    wrapped, _nf4 = HAND[name]
    one = TrainingSetup(model=_model(name), method=Method.LORA, lora_targets=("o_proj",))
    every = replace(one, lora_targets=ALL_LINEAR)
    gpu = GPUS["h100-80gb"]
    # PEFT launches 5 kernels per wrapped module forward and 7 backward (no checkpointing: one forward)
    expected = sum((len(mods) - 1) * 12 * n for n, mods in wrapped.items())
    assert throughput.step_counts(every, gpu).kernels - throughput.step_counts(one, gpu).kernels == expected


def test_untied_embeddings_are_two_tensors_for_memory_and_for_time():
    m = MODELS["gemma-2-2b"]                                       # ties lm_head to the embedding
    s = TrainingSetup(model=m, method=Method.FULL, num_gpus=8, sharding=Sharding.ZERO3, untie_embeddings=True)
    # litgpt holds lm_head apart: one more V x h matrix (256,000 x 2,304) than the tied model counts
    held = params.count_params(m).total + 256_000 * 2_304
    assert held == params.count_params(params.held_arch(s)).total
    assert params.stored_weight_bytes(s) == held * 2
    assert params.trainable_params(s) == held
    # ZeRO-3 all-gathers the bf16 weights twice (forward, backward) and reduce-scatters bf16 gradients: 7/8 each
    assert throughput.step_counts(s, GPUS["h100-80gb"]).comm_bytes == pytest.approx(held * 2 * 7 / 8 * 3, rel=1e-12)
