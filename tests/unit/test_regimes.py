"""The frameworks' regimes (issue 19), each term against the arithmetic of the source it comes from: DDP's bucket copy
(torch reducer), DeepSpeed bf16's fp32 master partition, what FSDP has and has not (no ZeRO-1, CPU offload of the
parameters), accelerate's FSDP2 upcast by version and its unsharded uint8 4-bit weights, bitsandbytes' paged states
by tensor size, TRL's fp32 QLoRA compute, MoE experts fused under transformers 5, torchtune's separately sharded
embeddings, and the host RAM of loading."""
from __future__ import annotations

from dataclasses import replace

import pytest

from calculator import api
from calculator import memory as mem
from calculator import params
from calculator.catalog import GPUS, MODELS
from calculator.models import (
    Fsdp2Upcast,
    KbitUpcast,
    Method,
    MoeLayout,
    Optimizer,
    Precision,
    QuantStorage,
    Sharding,
    TrainingSetup,
)
from calculator.recommend import verdict

pytestmark = pytest.mark.unit

L1 = MODELS["llama-3.2-1b"]
L7 = MODELS["llama-2-7b"]
L8 = MODELS["llama-3.1-8b"]
L13 = MODELS["llama-2-13b"]
L70 = MODELS["llama-3.1-70b"]
Q30 = MODELS["qwen3-30b-a3b"]


def parsed(**kw) -> TrainingSetup:
    return api.parse_request({"include": [], **kw})[0]


def refused(**kw) -> tuple[str, str | None]:
    out = api.answer({"include": [], **kw})
    assert not out["ok"], kw
    return out["error"]["code"], out["error"]["field"]


# --- DDP -----------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("kw,oracle_difference", [
    # benchmarks/proto19/ddp_oracle.py on the regimes branch: the oracle's step with the model wrapped in torch DDP
    # (fake process group, world size 2) minus the same step unwrapped, exact bytes
    (dict(model="llama-3.2-1b", precision="bf16", seq_len=1024), 2_471_628_800),
    (dict(model="llama-3.2-1b", precision="mixed", seq_len=1024), 4_943_257_600),
    (dict(model="llama-3.1-8b", method="lora", lora_rank=16, lora_targets="all-linear", gradient_checkpointing=True),
     167_772_160),
])
def test_ddp_holds_a_bucket_copy_of_every_trainable_gradient(kw, oracle_difference):
    one = mem.estimate(parsed(**kw))
    ddp = mem.estimate(parsed(**kw, num_gpus=2))
    t = one.trainable_params
    g = 2 if kw.get("precision") == "bf16" else 4
    assert oracle_difference == t * g
    assert ddp.allocated_bytes - one.allocated_bytes == oracle_difference
    # gradient_as_bucket_view=True: the gradients are the buckets (the oracle: exactly the unwrapped peak)
    view = mem.estimate(parsed(**kw, num_gpus=2, ddp_gradient_as_bucket_view=True))
    assert view.allocated_bytes == one.allocated_bytes
    # sharded runs do not use DDP's buckets
    assert mem.ddp_bucket_bytes(parsed(**kw, num_gpus=2, sharding="zero3")) == 0


# --- DeepSpeed bf16 and what FSDP has --------------------------------------------------------------------------------
def test_deepspeed_bf16_keeps_fp32_master_weights_gradients_and_states():
    """deepspeed 0.19.8 DeepSpeedBF16Config: bf16_master_weights_and_grads and bf16_optimizer_states default False:
    the bf16 module partition next to an fp32 master partition, fp32 gradient partition and fp32 Adam states."""
    s = parsed(model="llama-2-13b", num_gpus=2, sharding="zero3", deepspeed=True)
    t, n = params.trainable_params(s), 2
    assert mem.master_copy_bytes(s) == 4 * t / n
    assert mem.optimizer_state_bytes(s) == 8 * t / n
    assert mem.gradient_bytes(s) >= 4 * t / n
    both = replace(s, deepspeed_bf16_master_weights=True, deepspeed_bf16_optimizer_states=True)
    assert mem.master_copy_bytes(both) == 2 * t / n
    assert mem.optimizer_state_bytes(both) == 4 * t / n
    # FSDP's pure bf16 (torchtune, litgpt bf16-true) has no master at all
    assert mem.master_copy_bytes(replace(s, deepspeed=False)) == 0
    # against FSDP's pure bf16 of the same run: at least the master (4 B) and the fp32 half of the states (4 B) more
    assert mem.estimate(s).peak_bytes - mem.estimate(replace(s, deepspeed=False)).peak_bytes > 8 * t / n


def test_fsdp_has_no_zero1_and_its_cpu_offload_moves_the_parameters():
    """torch 2.13 ShardingStrategy has no optimizer-only stage: ZeRO-1 and an optimizer-only offload are DeepSpeed's;
    FSDP's CPUOffload offloads parameters and gradients together (the step runs on the CPU)."""
    assert parsed(model="llama-2-7b", num_gpus=2, sharding="zero1").deepspeed
    assert parsed(model="llama-2-7b", num_gpus=2, sharding="zero2", cpu_offload=True).deepspeed
    fsdp_off = parsed(model="llama-2-7b", num_gpus=2, sharding="zero3", cpu_offload=True)
    assert fsdp_off.offload_params and not fsdp_off.deepspeed
    ds_off = parsed(model="llama-2-7b", num_gpus=2, sharding="zero3", cpu_offload=True, deepspeed=True)
    assert not ds_off.offload_params
    echo = api.answer({"model": "llama-2-7b", "num_gpus": 2, "sharding": "zero1", "include": []})
    assert echo["result"]["inputs"]["deepspeed"] is True


# --- accelerate FSDP2 -------------------------------------------------------------------------------------------------
def test_fsdp2_upcast_by_accelerate_version():
    """accelerate 1.15 casts the trainable parameters to fp32 before fully_shard (mixed precision on, no 4-bit
    parameter); 1.13 rebinds its loop variable (nothing changes); 1.11 casts the whole model after sharding."""
    base = parsed(model="llama-3.1-8b", num_gpus=4, sharding="zero3", fsdp_version=2, gradient_checkpointing=True)
    t, n = params.trainable_params(base), 4
    v115 = replace(base, fsdp2_upcast=Fsdp2Upcast.TRAINABLE)
    v113 = replace(base, fsdp2_upcast=Fsdp2Upcast.NONE)
    assert mem.master_copy_bytes(v115) == 4 * t / n and mem.optimizer_state_bytes(v115) == 8 * t / n
    assert mem.autocast_copy_bytes(v115) == 0           # MixedPrecisionPolicy casts per all-gather
    assert mem.master_copy_bytes(v113) == 0 and mem.optimizer_state_bytes(v113) == 4 * t / n
    assert mem.estimate(v113) == mem.estimate(replace(base, fsdp_version=1))   # as FSDP1's pure bf16
    lora = replace(base, method=Method.LORA, lora_dtype=Precision.BF16)
    assert params.adapter_bytes(replace(lora, fsdp2_upcast=Fsdp2Upcast.TRAINABLE)) == 4
    assert params.adapter_bytes(replace(lora, fsdp2_upcast=Fsdp2Upcast.NONE)) == 2
    v111 = replace(lora, fsdp2_upcast=Fsdp2Upcast.ALL)
    assert params.base_bytes(v111) == 4 and params.base_bytes(lora) == 2    # the frozen base's shards in fp32
    # a 4-bit model is not upcast (model_has_params4bit)
    q = replace(lora, method=Method.QLORA)
    assert params.adapter_bytes(q) == 2


def test_uint8_quant_storage_leaves_4bit_weights_whole_under_fsdp2():
    """accelerate 1.15 fsdp2_prepare_model puts non-floating frozen Params4bit in ignored_params: the packed NF4
    weights (half a byte each) stay whole on every rank; with bf16 storage they are sharded."""
    bf16 = parsed(model="llama-3.1-70b", method="qlora", num_gpus=2, sharding="zero3", fsdp_version=2,
                  gradient_checkpointing=True)
    u8 = replace(bf16, quant_storage=QuantStorage.UINT8)
    q, n, L = params.quantized_params(bf16), 2, L70.num_hidden_layers
    gathered_nf4 = 2 * (q / L) * 0.5            # two gathered layers' NF4 payload no longer gathered
    assert mem.weights_bytes(u8) - mem.weights_bytes(bf16) == pytest.approx(q * 0.5 * (1 - 1 / n) - gathered_nf4)
    # the research's figures: 34.9 GB per GPU with bf16 storage, 52.0 GB with uint8 (+17.1 GB)
    assert 15e9 < mem.estimate(u8).peak_bytes - mem.estimate(bf16).peak_bytes < 19e9
    # FSDP1 cannot flatten uint8 4-bit weights with the 16-bit rest
    assert refused(model="llama-3.1-70b", method="qlora", num_gpus=2, sharding="zero3",
                   quant_storage="uint8") == ("contradiction", "quant_storage")
    # a bitsandbytes optimizer has no DTensor handling
    assert refused(model="llama-3.1-8b", num_gpus=2, sharding="zero3", fsdp_version=2,
                   optimizer="paged_adamw_8bit") == ("contradiction", "optimizer")


# --- paged optimizers -------------------------------------------------------------------------------------------------
def test_paged_states_by_tensor_size_and_what_each_statistic_sees():
    """bitsandbytes 0.50.2 get_state_buffer pages a state only for tensors of >= 1e5 elements; init_state makes 8-bit
    states with two fp32 absmax per 256 elements, in ordinary CUDA memory. max_memory_allocated sees the ordinary
    part; the driver (nvidia-smi) also sees the paged part while it is resident."""
    s = TrainingSetup(model=L7, optimizer=Optimizer.PAGED_ADAMW_32BIT, gradient_checkpointing=True)
    p = params.count_params(L7).total
    norms = 2 * 32 + 1                               # 65 RMSNorm weights of 4096 elements, < 1e5: ordinary CUDA
    e = mem.estimate(s)
    assert e.paged_optimizer_bytes == 8 * (p - norms * 4096) == 53_905_195_008
    assert mem.optimizer_state_bytes(s) == 8 * norms * 4096
    assert e.driver_bytes == e.peak_bytes + e.paged_optimizer_bytes
    eight = replace(s, optimizer=Optimizer.PAGED_ADAMW_8BIT)
    blocks = sum(-(-n // 256) * k for n, k in params.trainable_tensors(eight) if n >= 100_000)
    assert mem.paged_optimizer_state_bytes(eight) == 2 * (p - norms * 4096)
    assert mem.optimizer_state_bytes(eight) == 8 * blocks + (2 * 4096 + 8 * 16) * norms
    # LoRA on Llama 3.1 8B, all linear layers: r=4 pages nothing (every A/B < 1e5); r=64 pages nearly all
    lora = TrainingSetup(model=L8, method=Method.LORA, optimizer=Optimizer.PAGED_ADAMW_32BIT)
    assert mem.paged_optimizer_state_bytes(replace(lora, lora_rank=4)) == 0
    r64 = replace(lora, lora_rank=64)
    assert mem.optimizer_state_bytes(r64) < 0.03 * mem.paged_optimizer_state_bytes(r64)


def test_fits_only_by_paging():
    """A paged run whose driver figure exceeds the card but whose peak without the paged states fits trains, with its
    evicted states crossing the host link: 'fits_by_paging', with the slowdown."""
    s = TrainingSetup(model=L7, optimizer=Optimizer.PAGED_ADAMW_32BIT, gradient_checkpointing=True)
    e = mem.estimate(s)
    # the driver's figure at 98 % of an H100: inside its likely range, so at the edge (issue 42, point 5)
    assert verdict(e.peak_bytes, GPUS["h100-80gb"].memory_bytes, e.driver_bytes) == "at_edge"
    assert verdict(e.peak_bytes, GPUS["rtx-a6000"].memory_bytes, e.driver_bytes) == "fits_by_paging"
    assert verdict(e.peak_bytes, GPUS["rtx-4090"].memory_bytes, e.driver_bytes) == "does_not_fit"
    r = api.answer({"model": "llama-2-7b", "optimizer": "paged_adamw_32bit", "gradient_checkpointing": True,
                    "gpu": "rtx-a6000", "include": []})["result"]
    paging = r["gpu"]["paging"]
    assert r["gpu"]["verdict"] == "fits_by_paging"
    assert paging["evicted_bytes"] == e.driver_bytes - GPUS["rtx-a6000"].memory_bytes
    # out and back over PCIe 4.0 at the fitted host-link efficiency
    from calculator.throughput import COEFFICIENTS as K
    assert paging["seconds_per_step"] == pytest.approx(2 * paging["evicted_bytes"] / (32e9 * K.host_link_efficiency),
                                                       rel=1e-3)
    assert paging["slowdown"] > 1


# --- TRL's fp32 QLoRA compute ---------------------------------------------------------------------------------------
def test_qlora_fp32_compute_saves_fp32_inputs_and_dequantises_to_fp32():
    """TRL passes ModelConfig.dtype (float32) as bnb_4bit_compute_dtype: Linear4bit casts its input to fp32, which
    MatMul4Bit saves; dequantize_4bit gives the load dtype (fp32) and autocast's F.linear casts it to bf16 again."""
    s = TrainingSetup(model=L8, method=Method.QLORA, precision=Precision.MIXED, base_fp32=True)
    fp32 = replace(s, qlora_compute_dtype=Precision.FP32)
    h, i = L8.hidden_size, L8.intermediate_size
    o_in = L8.num_attention_heads * (h // L8.num_attention_heads)
    saved_16 = 2 * (2 * h + o_in + i) * mem.COEFFICIENTS.qlora_saved_input_scale
    assert mem._act_per_token_layer(fp32) - mem._act_per_token_layer(s) == pytest.approx(saved_16)
    biggest = params.count_params(L8).largest_linear
    assert mem.dequant_transient_bytes(fp32) == biggest * (4 + 2)
    assert mem.dequant_transient_bytes(replace(fp32, base_fp32=False)) == biggest * (2 + 4 + 2)
    assert mem.dequant_transient_bytes(s) == biggest * 2


# --- MoE under transformers 5 ----------------------------------------------------------------------------------------
def test_fused_experts_are_neither_quantised_nor_wrapped():
    """transformers 5.24 replace_with_bnb_linear converts `type(module) is nn.Linear` only, and PEFT's all-linear
    wraps nn.Linear only: Qwen3-MoE's fused expert parameters stay 16-bit and get no adapter."""
    per = TrainingSetup(model=Q30, method=Method.QLORA)
    fused = replace(per, moe_layout=MoeLayout.FUSED)
    pc = params.count_params(Q30)
    experts = sum(k.count * sum(di * do * c for _, di, do, c in k.linears if c > 1) for k in pc.kinds)
    assert params.quantized_params(per) - params.quantized_params(fused) == experts
    assert params.stored_weight_bytes(fused) - params.stored_weight_bytes(per) == pytest.approx(
        experts * (2 - (4 + 0.127) / 8))
    assert params.trainable_params(fused) < 0.05 * params.trainable_params(per)
    # PEFT target_parameters: lora_A (in, r·E), lora_B (r·E, out) per 3-D parameter
    target = replace(fused, lora_expert_params=True)
    r, E, h, e_i = 16, Q30.num_local_experts, Q30.hidden_size, Q30.moe_intermediate_size
    assert params.trainable_params(target) - params.trainable_params(fused) == \
        Q30.num_hidden_layers * r * E * ((h + 2 * e_i) + (e_i + h))
    assert sum(n * k for n, k in params.trainable_tensors(target)) == params.trainable_params(target)
    # ... and each layer's merged expert weight (W + delta, 16-bit) is saved until its backward
    assert mem._merged_expert_weight_bytes(target) == 2 * E * (h * 2 * e_i + e_i * h)



@pytest.mark.parametrize("framework, layout", [("trl", "fused"), ("axolotl", "fused"), ("llamafactory", "fused"),
                                               ("unsloth", "per_expert"), ("none", "per_expert")])
def test_the_frameworks_on_transformers_5_fuse_the_experts(framework, layout):
    """TRL, Axolotl and LLaMA-Factory pin transformers 5 (frameworks/*/requirements.txt), whose Qwen3-MoE keeps its
    experts as 3-D parameters: their QLoRA of Qwen3-30B-A3B holds the experts in 16 bits. A dense model is the same
    either way, and an export to such a target says it cannot keep one linear per expert."""
    s = parsed(model="qwen3-30b-a3b", method="qlora", framework=framework)
    assert s.moe_layout is MoeLayout(layout)
    experts = sum(k.count * sum(di * do * c for _, di, do, c in k.linears if c > 1)
                  for k in params.count_params(Q30).kinds)
    if layout == "fused":
        assert params.stored_weight_bytes(s) > 2 * experts        # 16-bit experts, beside the 4-bit rest
    else:
        assert params.stored_weight_bytes(s) < 0.6 * params.count_params(Q30).total
    dense = parsed(model="llama-3.1-8b", method="qlora", framework=framework)
    assert mem.estimate(dense) == mem.estimate(replace(dense, moe_layout=MoeLayout.PER_EXPERT))


def test_an_export_to_transformers_5_cannot_keep_one_linear_per_expert():
    from calculator.export import export
    e = export({"model": "qwen3-30b-a3b", "method": "qlora", "moe_layout": "per_expert"}, "trl")
    assert [(c.key, c.value, c.becomes, c.reason) for c in e.cannot_express if c.key == "moe_layout"] == [
        ("moe_layout", "per_expert", "fused", "transformers_fuses_experts")]
    dense = export({"model": "llama-3.1-8b", "method": "qlora", "moe_layout": "per_expert"}, "trl")
    assert not [c for c in dense.cannot_express if c.key == "moe_layout"]

# --- torchtune's separately sharded embeddings ----------------------------------------------------------------------
def test_shard_embeddings_holds_one_of_embedding_and_output_at_a_time():
    """torchtune's distributed full recipe shards tok_embeddings and output as FSDP units of their own
    (custom_sharded_layers): the root no longer holds both whole."""
    s = TrainingSetup(model=L8, num_gpus=8, sharding=Sharding.ZERO3, gradient_checkpointing=True)
    sharded = replace(s, shard_embeddings=True)
    v_h = L8.vocab_size * L8.hidden_size
    assert mem._live_gathered_bytes(s) - mem._live_gathered_bytes(sharded) == 2 * v_h
    assert mem.layer_backward_bytes(s) - mem.layer_backward_bytes(sharded) == pytest.approx(2 * v_h)


# --- host RAM ---------------------------------------------------------------------------------------------------------
def test_host_ram_while_loading_and_in_the_steady_state():
    """Every rank of a node builds the model on the CPU unless fsdp_cpu_ram_efficient_loading (one rank), which FSDP2
    ignores for a 4-bit model; the steady state is the node's share of what is offloaded."""
    s = TrainingSetup(model=L8, num_gpus=8, sharding=Sharding.ZERO3)
    p = params.count_params(L8).total
    assert mem.estimate(s).host_ram_load_bytes == 8 * 2 * p
    assert mem.estimate(replace(s, cpu_ram_efficient_loading=True)).host_ram_load_bytes == 2 * p
    q = TrainingSetup(model=L70, method=Method.QLORA, num_gpus=2, sharding=Sharding.ZERO3, fsdp_version=2,
                      cpu_ram_efficient_loading=True)
    assert mem.estimate(q).host_ram_load_bytes == 2 * mem.estimate(replace(q, num_gpus=1)).host_ram_load_bytes
    # one GPU, QLoRA: bitsandbytes quantises onto the GPU as it loads
    assert mem.estimate(TrainingSetup(model=L8, method=Method.QLORA)).host_ram_load_bytes == 0
    # 16 GPUs on two nodes: each node holds half of the offloaded states
    off = TrainingSetup(model=L8, num_gpus=16, sharding=Sharding.ZERO3, cpu_offload=True, offload_params=True)
    assert mem.estimate(off).host_ram_bytes == pytest.approx(mem.estimate(replace(off, gpus_per_node=16))
                                                             .host_ram_bytes / 2)


# --- kbit preparation: the fp32 cast of what is not 4-bit (issue 39, point 1) ----------------------------------------
# Parameter counts written out from each model's config.json (catalogue numbers), not from params.py.
_L8_EMB = 128_256 * 4_096                         # embed_tokens; lm_head is untied, the same size
_L8_NORMS = 32 * 2 * 4_096 + 4_096                # input + post-attention RMSNorm per layer, the final norm


def test_prepare_model_for_kbit_training_casts_embeddings_lm_head_and_norms_to_fp32():
    """peft 0.21.2 prepare_model_for_kbit_training: every bf16 parameter that is not Params4bit becomes fp32. On
    Llama 3.1 8B (no biases) that is the embeddings, lm_head and the 65 RMSNorms: 2 bytes more each over the 16-bit
    base, held in every phase; under autocast the fp32 lm_head's bf16 cast is saved for backward too (no
    checkpointing here: the residual stream is counted at the norms' fp32 inputs already)."""
    s = parsed(model="llama-3.1-8b", method="qlora", precision="mixed", kbit_upcast="all")
    extra = 2 * (2 * _L8_EMB + _L8_NORMS)
    assert mem.kbit_upcast_bytes(s) == extra == 2_101_878_784
    off = replace(s, kbit_upcast=KbitUpcast.NONE)
    assert mem.estimate(s).allocated_bytes - mem.estimate(off).allocated_bytes == extra + 2 * _L8_EMB
    assert mem.estimate(s).breakdown["kbit_upcast"] == extra and mem.estimate(off).breakdown["kbit_upcast"] == 0
    # the same parameters are "embeddings"; nothing is left for "all_but_embeddings" on a model without biases
    assert mem.kbit_upcast_bytes(replace(s, kbit_upcast=KbitUpcast.EMBEDDINGS)) == extra
    assert mem.kbit_upcast_bytes(replace(s, kbit_upcast=KbitUpcast.ALL_BUT_EMBEDDINGS)) == 0


def test_the_cast_adds_nothing_to_an_fp32_base_and_shards_with_the_weights():
    """A base already held in fp32 (TRL's load, or fp32 compute) has nothing to cast; ZeRO-3 shards the fp32
    parameters with the rest, and parameter offload moves them off the GPU; LoRA without 4 bits and torchao's NF4
    (PEFT skips the cast for torchao models) have none."""
    base = dict(model="llama-3.1-8b", method="qlora", kbit_upcast="all")
    assert mem.kbit_upcast_bytes(parsed(**base, precision="mixed", base_fp32=True)) == 0
    assert mem.kbit_upcast_bytes(parsed(**base, precision="fp32")) == 0
    sharded = parsed(**base, precision="mixed", num_gpus=4, sharding="zero3", quant_storage="bf16")
    assert mem.kbit_upcast_bytes(sharded) == 2 * (2 * _L8_EMB + _L8_NORMS) / 4
    assert mem.kbit_upcast_bytes(replace(sharded, offload_params=True, deepspeed=True)) == 0
    assert mem.kbit_upcast_bytes(parsed(model="llama-3.1-8b", method="lora", kbit_upcast="all")) == 0
    assert mem.kbit_upcast_bytes(parsed(**base, qlora_backend="torchao")) == 0


def test_the_cast_reaches_biases_and_the_experts_bitsandbytes_leaves_16bit():
    """Qwen2.5-7B's q/k/v biases are neither embeddings nor norms: Axolotl's patched copy still casts them. Under
    transformers 5 Qwen3-30B-A3B's fused experts are bf16 nn.Parameters, not Params4bit: PEFT's cast takes them to
    fp32 too, with the routers (128 x 2048 per layer)."""
    q = parsed(model="qwen2.5-7b", method="qlora", kbit_upcast="all_but_embeddings")
    assert mem.kbit_upcast_bytes(q) == 2 * 28 * (3_584 + 2 * 4 * 128)
    fused = parsed(model="qwen3-30b-a3b", method="qlora", moe_layout="fused", kbit_upcast="all")
    emb = replace(fused, kbit_upcast=KbitUpcast.EMBEDDINGS)
    experts = 48 * 128 * (2_048 * 2 * 768 + 768 * 2_048)
    routers = 48 * 128 * 2_048
    assert mem.kbit_upcast_bytes(fused) - mem.kbit_upcast_bytes(emb) == 2 * (experts + routers)
    norms = 48 * (2 * 2_048 + 2 * 128) + 2_048                  # two RMSNorms and the q/k head norms per layer, final
    assert mem.kbit_upcast_bytes(emb) == 2 * (2 * 151_936 * 2_048 + norms)
    per_expert = replace(fused, moe_layout=MoeLayout.PER_EXPERT)  # quantised experts: only the routers stay 16-bit
    assert mem.kbit_upcast_bytes(per_expert) == mem.kbit_upcast_bytes(emb) + 2 * routers


@pytest.mark.parametrize("framework, extra, want", [
    ("peft", {}, "all"),
    ("trl", {}, "none"),
    ("axolotl", {}, "all_but_embeddings"),
    ("axolotl", {"num_gpus": 2, "sharding": "fsdp", "quant_storage": "bf16"}, "embeddings"),
    ("axolotl", {"num_gpus": 2, "sharding": "zero3", "deepspeed": True}, "none"),
    ("llamafactory", {}, "none"),
    ("unsloth", {}, "none"),
    ("torchtune", {}, "none"),
    ("none", {}, "none"),
])
def test_each_framework_has_its_own_kbit_default(framework, extra, want):
    s = parsed(model="llama-3.1-8b", method="qlora", framework=framework, **extra)
    assert s.kbit_upcast.value == want


def test_plain_transformers_peft_recipe_defaults_from_source():
    """The recipe most readers copy: BitsAndBytesConfig(load_in_4bit=True) (fp4, fp32 compute, uint8 storage, no
    double quantisation), prepare_model_for_kbit_training (fp32 cast, gradient checkpointing on), LoraConfig (r 8,
    q_proj and v_proj), TrainingArguments (batch 8, bf16=False: the QLoRA step runs in fp32). TRL instead casts a
    4-bit model's adapters to bf16."""
    s = parsed(model="llama-3.1-8b", method="qlora", framework="peft")
    assert (s.precision, s.qlora_compute_dtype, s.quant_storage.value, s.double_quant) == (
        Precision.FP32, Precision.FP32, "uint8", False)
    assert (s.gradient_checkpointing, s.lora_rank, s.lora_targets, s.micro_batch_size) == (
        True, 8, ("q_proj", "v_proj"), 8)
    lora = parsed(model="llama-3.1-8b", method="lora", framework="peft")
    assert (lora.precision, lora.gradient_checkpointing) == (Precision.BF16, False)
    with_bf16 = parsed(model="llama-3.1-8b", method="qlora", framework="peft", precision="mixed")
    assert mem.kbit_upcast_bytes(with_bf16) == 2 * (2 * _L8_EMB + _L8_NORMS)
    assert parsed(model="llama-3.1-8b", method="qlora", framework="trl").lora_dtype is Precision.BF16
    assert parsed(model="llama-3.1-8b", method="lora", framework="trl").lora_dtype is Precision.FP32


@pytest.mark.parametrize("target, extra, becomes", [
    ("trl", {}, "none"), ("axolotl", {}, "all_but_embeddings"),
    ("axolotl", {"num_gpus": 2, "sharding": "zero3"}, "embeddings"), ("llamafactory", {}, "none"),
    ("unsloth", {}, "none"),
])
def test_every_export_target_says_what_it_casts(target, extra, becomes):
    """No target has a switch for the cast in its files: each export gives its framework's own and says so."""
    from calculator.export import export
    e = export({"model": "llama-3.1-8b", "method": "qlora", "kbit_upcast": "all", **extra}, target)
    assert [(c.key, c.value, c.becomes, c.reason) for c in e.cannot_express if c.key == "kbit_upcast"] == [
        ("kbit_upcast", "all", becomes, "framework_sets_kbit_cast")]
    assert e.request["kbit_upcast"] == becomes


def test_the_kbit_cast_against_the_oracle_pair():
    """tests/data/kbit/: the oracle's step of a bf16 Llama 3.1 8B under autocast, without and with
    prepare_model_for_kbit_training's cast of the embeddings, lm_head and norms (no 4-bit layers: the oracle has no
    bitsandbytes). The parameters grow by exactly the term; the peak by the term, lm_head's saved 16-bit cast
    (one `_to_copy` of V·h) and the fp32 residual stream the checkpoints keep. The estimate of the QLoRA step with the
    same shape grows by the same within 1 %."""
    import json
    from pathlib import Path
    folder = Path(__file__).resolve().parents[1] / "data" / "kbit"
    off, on = (json.loads((folder / f"lora-llama31-8b-qv-bf16-autocast-s1024-ckpt{x}.json").read_text())["oracle_record"]
               for x in ("", "-kbitcast"))
    req = dict(model="llama-3.1-8b", method="qlora", lora_rank=16, lora_targets=["q_proj", "v_proj"], seq_len=1024,
               micro_batch_size=1, gradient_checkpointing=True, precision="mixed")
    s = parsed(**req, kbit_upcast="all")
    assert on["peak_breakdown"]["params"] - off["peak_breakdown"]["params"] == mem.kbit_upcast_bytes(s)
    cast = [t for t in on["top_live_at_peak"] if t["created_by"] == "_to_copy"]
    assert [t["bytes"] for t in cast] == [2 * 128_256 * 4_096]                  # lm_head's bf16 cast, saved
    est = {k: api.answer({**req, "kbit_upcast": k, "include": []})["result"]["allocated_bytes"] for k in ("none", "all")}
    oracle_delta = on["peak_bytes"] - off["peak_bytes"]
    assert est["all"] - est["none"] == pytest.approx(oracle_delta, rel=0.01)
