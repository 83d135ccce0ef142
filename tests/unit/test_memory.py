"""memory.py term by term, against first principles (dtype sizes, the ZeRO paper's divisions, published counts)."""
from __future__ import annotations

from dataclasses import replace

import pytest

from calculator import memory as mem
from calculator import params
from calculator.catalog import MODELS
from calculator.models import (
    Attention,
    Method,
    ModelArch,
    Optimizer,
    Phase,
    Precision,
    QloraBackend,
    Sharding,
    TrainingSetup,
)

pytestmark = pytest.mark.unit

L7 = MODELS["llama-2-7b"]
L8 = MODELS["llama-3.1-8b"]


def setup(**kw) -> TrainingSetup:
    kw.setdefault("model", L7)
    return TrainingSetup(**kw)


_EXACT = ("Llama 2", "Llama 3", "Mistral", "Qwen2.5", "TinyLlama", "Gemma")


@pytest.mark.parametrize("mid", [m for m in MODELS if MODELS[m].published_params])
def test_param_count_matches_published(mid: str) -> None:
    """Exact for Llama-like families; within 0.5 % where norms/biases differ (Gemma 2's four norms per layer,
    Phi/NeoX/Falcon/BLOOM biases and LayerNorms, as catalog.py documents)."""
    m = MODELS[mid]
    total = params.count_params(m).total
    if m.family in _EXACT:
        assert total == m.published_params
    else:
        assert total == pytest.approx(m.published_params, rel=0.005)


def test_param_count_by_hand_llama2_7b() -> None:
    h, i, L, V = 4096, 11008, 32, 32000
    per_layer = 4 * h * h + 3 * h * i + 2 * h
    assert params.count_params(L7).total == 2 * V * h + L * per_layer + h


def test_gqa_shapes_in_lora_count() -> None:
    # Llama 3.1 8B: k/v project 4096 -> 8 heads x 128 = 1024
    s = setup(model=L8, method=Method.LORA, lora_rank=16, lora_targets=("k_proj",))
    assert params.trainable_params(s) == 32 * 16 * (4096 + 1024)


def test_lora_all_linear_count() -> None:
    r, h, i = 8, 4096, 11008
    s = setup(method=Method.LORA, lora_rank=r, lora_targets=("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj",
                                                             "up_proj", "down_proj"))
    assert params.trainable_params(s) == 32 * r * (4 * 2 * h + 3 * (h + i))


def test_lora_on_moe_experts_multiplies_by_expert_count() -> None:
    m = MODELS["mixtral-8x7b"]
    one = params.trainable_params(setup(model=m, method=Method.LORA, lora_rank=8, lora_targets=("up_proj",)))
    assert one == 32 * 8 * 8 * (4096 + 14336)


def test_weights_bf16_fp32() -> None:
    p = params.count_params(L7).total
    assert mem.weights_bytes(setup(precision=Precision.BF16)) == p * 2
    assert mem.weights_bytes(setup(precision=Precision.FP32)) == p * 4


def test_mixed_precision_master_and_autocast_copies() -> None:
    s = setup(precision=Precision.MIXED)
    p = params.count_params(L7).total
    assert mem.master_copy_bytes(s) == 4 * p          # fp32 master weights
    assert mem.autocast_copy_bytes(s) == 2 * p        # 16-bit copies autocast keeps: ~12.5 GiB for 7B
    assert 12.4 < mem.autocast_copy_bytes(s) / 2**30 < 12.7
    assert mem.gradient_bytes(s) == 4 * p
    assert mem.optimizer_state_bytes(s) == 8 * p


@pytest.mark.parametrize("dq,bits", [(False, 4.5), (True, 4.127)])
def test_qlora_weights_nf4_on_linears_only(dq: bool, bits: float) -> None:
    pc = params.count_params(L7)
    q = pc.layer_linear * 32
    s = setup(method=Method.QLORA, double_quant=dq)
    assert mem.weights_bytes(s) == pytest.approx(q * bits / 8 + (pc.total - q) * 2)


def test_qlora_torchao_quantizes_only_targets() -> None:
    s = setup(method=Method.QLORA, qlora_backend=QloraBackend.TORCHAO, lora_targets=("q_proj", "v_proj"))
    pc = params.count_params(L7)
    q = 32 * 2 * 4096 * 4096
    assert mem.weights_bytes(s) == pytest.approx(q * (4 + 0.127) / 8 + (pc.total - q) * 2)


@pytest.mark.parametrize("opt,per_param", [
    (Optimizer.ADAMW_TORCH, 4), (Optimizer.ADAMW_TORCH_FUSED, 4), (Optimizer.SGD, 0), (Optimizer.SGD_MOMENTUM, 2)])
def test_optimizer_state_bytes_bf16_params(opt: Optimizer, per_param: int) -> None:
    s = setup(optimizer=opt)
    assert mem.optimizer_state_bytes(s) == params.count_params(L7).total * per_param


def test_8bit_adamw_states_per_tensor() -> None:
    """bitsandbytes Optimizer2State.init_state: two uint8 states and two fp32 absmax per 256-element block for a tensor
    of at least 4096 elements, fp32 states below. Llama 2 7B: every matrix is 8-bit; the 65 RMSNorm weights (4096
    elements each) too: 2 B + 8 B per 256."""
    p = params.count_params(L7).total
    blocks = sum(-(-n // 256) * times for n, times in params.trainable_tensors(setup()))
    assert mem.optimizer_state_bytes(setup(optimizer=Optimizer.ADAMW_8BIT)) == 2 * p + 8 * blocks
    assert 2 * p < 2 * p + 8 * blocks < 2.04 * p


def test_adamw_states_follow_adapter_dtype() -> None:
    s = setup(method=Method.LORA, lora_dtype=Precision.FP32)
    assert mem.optimizer_state_bytes(s) == params.trainable_params(s) * 8
    s = replace(s, lora_dtype=Precision.BF16)
    assert mem.optimizer_state_bytes(s) == params.trainable_params(s) * 4


def test_paged_and_offloaded_states_leave_the_gpu() -> None:
    p = params.count_params(L7).total
    s = setup(optimizer=Optimizer.PAGED_ADAMW_32BIT)
    # every tensor of Llama 2 7B is paged (>= 1e5 elements) but the 65 RMSNorm weights of 4096 (fp32 states)
    assert mem.optimizer_state_bytes(s) == 65 * 4096 * 8
    e = mem.estimate(s)
    assert e.paged_optimizer_bytes == 8 * (p - 65 * 4096) and e.host_ram_bytes >= e.paged_optimizer_bytes
    assert e.driver_bytes == e.peak_bytes + e.paged_optimizer_bytes
    off = setup(num_gpus=2, sharding=Sharding.ZERO2, cpu_offload=True)
    assert mem.optimizer_state_bytes(off) == 0
    assert mem.estimate(off).host_ram_bytes >= 4 * p


def test_adafactor_is_far_smaller_than_adam() -> None:
    s = setup(optimizer=Optimizer.ADAFACTOR)
    assert 0 < mem.optimizer_state_bytes(s) < 0.05 * mem.optimizer_state_bytes(setup())


@pytest.mark.parametrize("stage,w,g,o", [(Sharding.ZERO1, 1, 1, 4), (Sharding.ZERO2, 1, 4, 4),
                                        (Sharding.ZERO3, 4, 4, 4)])
def test_zero_stages_divide_the_right_terms(stage: Sharding, w: int, g: int, o: int) -> None:
    one = setup()
    four = setup(num_gpus=4, sharding=stage)
    p = params.count_params(L7).total
    assert mem.optimizer_state_bytes(four) == pytest.approx(mem.optimizer_state_bytes(one) / o)
    assert mem.weights_bytes(four) >= mem.weights_bytes(one) / w
    if w == 1:
        assert mem.weights_bytes(four) == 2 * p
    # gradients: shard plus at most one unsharded layer bucket
    layer = params.count_params(L7).layer * 2
    assert mem.gradient_bytes(one) / g <= mem.gradient_bytes(four) <= mem.gradient_bytes(one) / g + layer


def test_activations_not_divided_by_data_parallel() -> None:
    assert mem.activation_bytes(setup(num_gpus=8, sharding=Sharding.ZERO3)) == mem.activation_bytes(setup())


def test_checkpointing_keeps_layer_inputs_only() -> None:
    s = setup(gradient_checkpointing=True, micro_batch_size=2, seq_len=1024)
    tokens = 2 * 1024
    head = mem.activation_bytes(s) - 32 * tokens * 4096 * 2
    assert 0 <= head <= tokens * 4096 * 8              # only the final norm / lm_head input besides the 2sbh·L
    assert mem.recompute_bytes(s) > 0


def test_activations_linear_in_tokens_with_flash() -> None:
    a1 = mem.activation_bytes(setup(seq_len=1024))
    a2 = mem.activation_bytes(setup(seq_len=2048))
    assert a2 == pytest.approx(2 * a1)


def test_eager_adds_quadratic_scores() -> None:
    sdpa = mem.activation_bytes(setup(seq_len=4096))
    eager = mem.activation_bytes(setup(seq_len=4096, attention=Attention.EAGER))
    # at least one 16-bit s x s probability tensor per head per layer
    assert eager - sdpa >= 32 * 32 * 4096 * 4096 * 2


def test_logits_scale_with_batch_seq_vocab() -> None:
    s = setup(model=L8, micro_batch_size=2, seq_len=1000)
    n = 2 * 1000 * 128256
    assert mem.logits_loss_bytes(s) >= n * (2 + 4 * 2)   # 16-bit logits plus at least two fp32 buffers
    assert mem.logits_loss_bytes(replace(s, chunked_cross_entropy=True)) < mem.logits_loss_bytes(s)


def test_compiled_chunked_loss_keeps_only_16bit_logits() -> None:
    """Compiled per-chunk loss: no fp32 buffer outlives its chunk, so what stays is one 16-bit value per logit
    (each chunk's logits, then its gradient)."""
    s = setup(model=L8, micro_batch_size=2, seq_len=1000, chunked_cross_entropy=True)
    n = 2 * 1000 * 128256
    assert mem.logits_loss_bytes(replace(s, torch_compile=True)) == n * 2
    assert mem.logits_loss_bytes(s) > n * 2


def test_compile_drops_norm_upcasts_and_mlp_pointwise_outputs() -> None:
    """Without checkpointing, compile saves fewer bytes per token-layer: the two RMSNorms keep a 16-bit input
    instead of an fp32 upcast (2 x 2h bytes less) and the gated MLP recomputes act(gate) and the product
    (2 x 2i bytes less), before the fitted scale."""
    s = setup(model=L8, method=Method.FULL, seq_len=1024)
    h, i = 4096, 14336
    drop = (mem.activation_bytes(s) - mem.activation_bytes(replace(s, torch_compile=True))) / (32 * 1024)
    assert drop == pytest.approx((2 * 2 * h + 2 * 2 * i) * mem.COEFFICIENTS.act_scale_full)


def test_qk_norms_save_their_fp32_inputs_like_the_layer_norms() -> None:
    """Qwen3's q_norm/k_norm are RMSNorms over every query and key feature (16 + 8 heads x 128 for Qwen3-0.6B):
    each saves its fp32 upcast (4 B) and, when its weight trains, the normalised 16-bit copy (2 B), like the
    layer's own norms; a frozen weight needs only the upcast."""
    q3 = MODELS["qwen3-0.6b"]
    width = (16 + 8) * 128
    per_token_layer = 28 * 1024
    for method, saved, scale in ((Method.FULL, 4 + 2, mem.COEFFICIENTS.act_scale_full),
                                 (Method.LORA, 4, mem.COEFFICIENTS.act_scale_frozen)):
        s = setup(model=q3, method=method, seq_len=1024)
        extra = mem.activation_bytes(s) - mem.activation_bytes(replace(s, model=replace(q3, qk_norm="")))
        assert extra == pytest.approx(per_token_layer * width * saved * scale)


def test_first_layer_backward_holds_the_mlp_gradients_and_lm_heads() -> None:
    """Checkpointed full fine-tuning whose loss head is small (TRL's chunked lm_head): the start of the backward is
    the last layer, recomputed, at its MLP's widest point: the saved layer plus gate/up's two gradients beside the
    product's one in its place (2·i), the layer's output gradient (h), and lm_head's gradient (V·h, tied here)
    already made by the head's backward, less the head's own saved tensors, freed by then."""
    q3 = MODELS["qwen3-0.6b"]
    s = setup(model=q3, method=Method.FULL, gradient_checkpointing=True, micro_batch_size=8, seq_len=4608)
    t = 8 * 4608
    expected = t * 2 * (2 * 3072 + 1024) - t * (4 * 1024 + 2 * 1024) + 151_936 * 1024 * 2
    assert mem.layer_backward_transient_bytes(s) == pytest.approx(expected)
    est = mem.estimate(s, logits=(0.0, 0.0))
    assert est.phase is Phase.BACKWARD_START
    assert est.phases["backward_start"] == pytest.approx(
        mem.weights_bytes(s) + mem.optimizer_state_bytes(s) + mem.activation_bytes(s) + mem.recompute_bytes(s)
        + expected, abs=8)
    # an accumulating step's gradient buffer already holds lm_head's gradient: not counted twice
    ga = replace(s, grad_accum_steps=2)
    assert mem.layer_backward_transient_bytes(ga) == pytest.approx(expected - 151_936 * 1024 * 2)


def test_compile_reproduces_torchtune_ablation_step() -> None:
    """torchtune README "Optimization flags" (Llama 3.2 3B, full_finetune_single_device, bf16, batch 2, packed
    4096, no checkpointing): packed 60.0 GiB -> + compile 51.0 GiB (peak active). Both within 10 %."""
    s = TrainingSetup(model=MODELS["llama-3.2-3b"], method=Method.FULL, precision=Precision.BF16,
                      optimizer=Optimizer.ADAMW_TORCH_FUSED, micro_batch_size=2, seq_len=4096, packing=True)
    eager = mem.estimate(s).allocated_bytes / mem.GIB
    compiled = mem.estimate(replace(s, torch_compile=True)).allocated_bytes / mem.GIB
    assert eager == pytest.approx(60.0, rel=0.10)
    assert compiled == pytest.approx(51.0, rel=0.10)
    assert compiled < eager


def test_fused_linear_cross_entropy_never_builds_the_logits() -> None:
    """Liger / Cut Cross-Entropy: with a frozen lm_head the loss keeps hidden-state-sized buffers only, so its
    memory does not grow with the vocabulary, and at 128k vocabulary it is a small fraction of the chunked loss."""
    s = setup(model=L8, method=Method.LORA, micro_batch_size=2, seq_len=4096, fused_linear_cross_entropy=True)
    big_vocab = replace(s, model=replace(L8, vocab_size=4 * 128256))
    assert mem.logits_loss_bytes(big_vocab) == mem.logits_loss_bytes(s)
    assert mem.logits_loss_bytes(s) <= 2 * 4096 * 4096 * (2 + 4)          # hidden grad + one fp32 chunk, per token
    chunked = replace(s, fused_linear_cross_entropy=False, chunked_cross_entropy=True)
    assert mem.logits_loss_bytes(s) < mem.logits_loss_bytes(chunked) / 5
    # full fine-tuning: the lm_head's gradient is made in the forward and held until the backward
    full = replace(s, method=Method.FULL)
    assert mem.logits_loss_bytes(full) - mem.logits_loss_bytes(s) == 128256 * 4096 * 2


def test_torchtune_ablation_rows_outside_the_calibration_csv() -> None:
    """The same README table's other steps (Peak Memory Active, GiB), each from the published flags: "+ fuse optimizer
    step into backward" 23.1 (full FT, compile, chunked CE, AC) and "LoRA" 8.5 (3B_lora_single_device: r64 on q, v,
    output_proj and the MLP; compile, chunked CE, AC, activation offloading, torch AdamW). Within 10 %."""
    base = dict(model=MODELS["llama-3.2-3b"], precision=Precision.BF16, micro_batch_size=2, seq_len=4096,
                packing=True, torch_compile=True, chunked_cross_entropy=True, gradient_checkpointing=True)
    in_bwd = TrainingSetup(method=Method.FULL, optimizer=Optimizer.ADAMW_TORCH_FUSED, optimizer_in_backward=True,
                           **base)
    lora = TrainingSetup(method=Method.LORA, optimizer=Optimizer.ADAMW_TORCH, lora_rank=64, lora_dtype=Precision.BF16,
                         lora_targets=("q_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"),
                         activation_offloading=True, **base)
    assert mem.estimate(in_bwd).allocated_bytes / mem.GIB == pytest.approx(23.1, rel=0.10)
    assert mem.estimate(lora).allocated_bytes / mem.GIB == pytest.approx(8.5, rel=0.10)


def test_deepspeed_zero3_holds_its_gradient_bucket() -> None:
    """DeepSpeed allocates reduce_bucket_size elements in the parameter dtype (stage3.py once; stage_1_and_2.py
    setup_buckets each backward, one buffer without overlap_comm); FSDP has none."""
    s = setup(num_gpus=8, sharding=Sharding.ZERO3, method=Method.LORA)
    ds = replace(s, deepspeed=True)
    small = replace(ds, reduce_bucket_size=1)
    assert mem.estimate(ds).allocated_bytes - mem.estimate(small).allocated_bytes == (500_000_000 - 1) * 2
    assert mem.grad_bucket_bytes(s) == 0
    assert mem.grad_bucket_bytes(replace(ds, precision=Precision.FP32)) == 500_000_000 * 4
    assert mem.grad_bucket_bytes(replace(ds, reduce_bucket_size=4096 * 4096)) == 4096 * 4096 * 2   # HF "auto"
    assert mem.grad_bucket_bytes(replace(ds, sharding=Sharding.ZERO2)) == 500_000_000 * 2
    assert mem.grad_bucket_bytes(replace(ds, sharding=Sharding.ZERO1)) == 500_000_000 * 2
    assert mem.grad_bucket_bytes(replace(ds, sharding=Sharding.NONE, num_gpus=1)) == 0


def test_dpo_doubles_tokens_and_adds_reference_for_full_only() -> None:
    base = setup(seq_len=512)
    dpo = replace(base, dpo=True)
    assert mem.activation_bytes(dpo) == pytest.approx(2 * mem.activation_bytes(base), rel=0.01)
    assert mem.reference_model_bytes(dpo) == params.count_params(L7).total * 2
    assert mem.reference_model_bytes(replace(dpo, precompute_ref_log_probs=True)) == 0
    assert mem.reference_model_bytes(replace(dpo, method=Method.LORA)) == 0


def test_dequant_transient_is_largest_linear_in_16bit() -> None:
    s = setup(method=Method.QLORA)
    assert mem.dequant_transient_bytes(s) == 4096 * 11008 * 2


def test_breakdown_sums_and_statistics_nest() -> None:
    for s in (setup(), setup(method=Method.LORA), setup(method=Method.QLORA, dpo=True),
              setup(num_gpus=4, sharding=Sharding.ZERO3, precision=Precision.MIXED)):
        e = mem.estimate(s)
        assert sum(e.breakdown.values()) == e.peak_bytes
        assert e.allocated_bytes < e.reserved_bytes < e.peak_bytes
        assert e.peak_bytes - e.reserved_bytes == e.breakdown["cuda_context"]
        assert e.reserved_bytes - e.allocated_bytes == e.breakdown["allocator_reserve"]
        assert e.allocated_bytes == max(e.phases.values())
        assert e.low_bytes < e.peak_bytes < e.high_bytes


def test_lora_peaks_at_start_of_backward() -> None:
    e = mem.estimate(setup(method=Method.LORA, model=L8, seq_len=2048, micro_batch_size=2))
    assert e.phase is Phase.BACKWARD_START


def test_full_ft_with_small_activations_peaks_after_backward() -> None:
    # tiny batch: gradients (2P) outweigh activations + logits, so the peak is at the end of backward / step
    e = mem.estimate(setup(seq_len=64, optimizer=Optimizer.ADAMW_TORCH_FUSED))
    assert e.phase in (Phase.BACKWARD_END, Phase.OPTIMIZER_STEP)
    p = params.count_params(L7).total
    assert e.allocated_bytes == pytest.approx(8 * p, rel=0.01)       # w + g + m + v, all bf16


def test_foreach_adamw_adds_one_state_copy_at_step() -> None:
    p = params.count_params(L7).total
    fused = mem.estimate(setup(seq_len=64, optimizer=Optimizer.ADAMW_TORCH_FUSED))
    foreach = mem.estimate(setup(seq_len=64, optimizer=Optimizer.ADAMW_TORCH))
    assert foreach.phase is Phase.OPTIMIZER_STEP
    assert foreach.allocated_bytes - fused.allocated_bytes == pytest.approx(2 * p, rel=0.01)


def test_optimizer_in_backward_drops_the_gradient_buffer() -> None:
    s = setup(optimizer_in_backward=True, optimizer=Optimizer.ADAMW_TORCH_FUSED, seq_len=64)
    assert mem.gradient_bytes(s) == params.count_params(L7).embedding * 2
    assert Phase.OPTIMIZER_STEP.value not in mem.estimate(s).phases


def test_grad_accumulation_keeps_gradients_through_forward() -> None:
    one = mem.estimate(setup(method=Method.FULL, seq_len=2048))
    acc = mem.estimate(setup(method=Method.FULL, seq_len=2048, grad_accum_steps=4))
    assert acc.phases["forward"] - one.phases["forward"] == pytest.approx(mem.gradient_bytes(setup()), rel=1e-6)


def test_custom_arch_without_experts() -> None:
    m = ModelArch(id="custom", name="x", family="x", hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
                  num_key_value_heads=2, intermediate_size=128, vocab_size=1000)
    assert params.count_params(m).total == 2 * 1000 * 64 + 2 * (64 * 64 * 2 + 64 * 32 * 2 + 3 * 64 * 128 + 128) + 64


def test_checkpoint_and_adapter_sizes() -> None:
    e = mem.estimate(setup(method=Method.LORA, lora_rank=8, lora_targets=("q_proj", "v_proj")))
    assert e.checkpoint_bytes == params.count_params(L7).total * 2
    assert e.adapter_bytes == 32 * 8 * (2 * 4096) * 2 * 4   # fp32 adapters (PEFT default)


def test_no_sync_accumulation_keeps_unsharded_gradients() -> None:
    """FSDP no_sync(): accumulating micro-batches skip the reduce-scatter, so the gradients stay unsharded
    (PyTorch FSDP no_sync docs; pytorch#126166); it changes nothing without accumulation or gradient sharding."""
    base = setup(method=Method.FULL, num_gpus=4, sharding=Sharding.ZERO3, grad_accum_steps=4)
    t = params.trainable_params(base)
    assert mem.gradient_bytes(replace(base, no_sync_accumulation=True)) == t * 2
    assert mem.gradient_bytes(base) < t * 2 / 4 * 1.1
    assert mem.gradient_bytes(replace(base, no_sync_accumulation=True, grad_accum_steps=1)) == \
        mem.gradient_bytes(replace(base, grad_accum_steps=1))
    ddp = replace(base, sharding=Sharding.ZERO1)
    assert mem.gradient_bytes(replace(ddp, no_sync_accumulation=True)) == mem.gradient_bytes(ddp)


# --- terms the exact traces pin down (benchmarks/traces.py; the trace named in each docstring) --------------------
def _logit_elements(s: TrainingSetup) -> int:
    return s.micro_batch_size * (2 if s.dpo else 1) * s.seq_len * s.model.vocab_size


def test_loss_backward_holds_three_fp32_logit_buffers() -> None:
    """full-llama32-3b-bf16-s32768-ckpt: at the peak, inside _log_softmax_backward_data, exactly three fp32
    logit-sized tensors are alive (log-softmax output, nll gradient, log-softmax gradient); the 16-bit logits and
    the fp32 upcast are gone. The end of the forward holds 16-bit logits + upcast + log-softmax."""
    s = setup(model=L8, seq_len=4096)
    n = _logit_elements(s)
    assert mem.logits_loss_bytes(s) == n * 12
    assert mem.logits_forward_bytes(s) == n * 10
    assert mem.logits_loss_bytes(replace(s, precision=Precision.FP32)) == n * 12
    assert mem.logits_forward_bytes(replace(s, precision=Precision.FP32)) == n * 8


def test_kept_logits_stay_alive_after_the_forward() -> None:
    """torchtune's recipes before #1046 kept ``logits`` bound through backward and the optimizer step: one more fp32
    copy at the start of backward, at its end and at the step; the end of the forward is unchanged."""
    s = setup(seq_len=2048, micro_batch_size=4)
    kept = replace(s, keeps_logits=True)
    extra = _logit_elements(s) * 4
    a, b = mem.estimate(s).phases, mem.estimate(kept).phases
    assert b["forward"] == a["forward"]
    for phase in ("backward_start", "backward_end", "optimizer_step"):
        assert b[phase] - a[phase] == pytest.approx(extra, abs=8)


def test_eager_softmax_backward_transient() -> None:
    """lora-llama2-7b-qv-eager-mb4-s2048-ckpt: the softmax backward holds 12 B per score (saved fp32 softmax, fp32
    gradient of the probabilities, softmax gradient) where the forward saved 6 (4 in fp32)."""
    s = setup(method=Method.LORA, attention=Attention.EAGER, micro_batch_size=4, seq_len=2048)
    scores = 4 * 32 * 2048 * 2048
    assert mem.attention_backward_bytes(s) == scores * 6
    assert mem.attention_backward_bytes(replace(s, precision=Precision.FP32)) == scores * 8
    assert mem.attention_backward_bytes(replace(s, attention=Attention.SDPA)) == 0
    ckpt = mem.estimate(replace(s, gradient_checkpointing=True))
    assert ckpt.phase is Phase.BACKWARD_START
    assert ckpt.breakdown["activations"] >= mem.recompute_bytes(replace(s, gradient_checkpointing=True)) + scores * 6


def test_tied_embeddings_sum_two_gradients_at_the_end_of_backward() -> None:
    """full-gemma-7b-bf16-s2048-ckpt: lm_head's and the embedding lookup's gradients of the shared weight and their
    sum are alive at once (3 x V·h)."""
    gemma = MODELS["gemma-7b"]
    s = setup(model=gemma, gradient_checkpointing=True, optimizer=Optimizer.ADAMW_TORCH_FUSED)
    vh = gemma.vocab_size * gemma.hidden_size
    assert mem.tied_grad_sum_bytes(s) == 2 * vh * 2
    assert mem.tied_grad_sum_bytes(setup(gradient_checkpointing=True)) == 0          # Llama 2: untied
    assert mem.tied_grad_sum_bytes(replace(s, method=Method.LORA)) == 0
    e = mem.estimate(s)
    assert e.phase is Phase.BACKWARD_END
    assert e.phases["backward_end"] - e.phases["optimizer_step"] == pytest.approx(2 * vh * 2, rel=1e-6)


def test_o_proj_adapter_reads_the_saved_attention_output() -> None:
    """lora-llama32-3b-all-bf16adapters-s4096: with 16-bit adapters and no dropout, o_proj's lora_A input is the SDPA
    output the attention already saved; eager attention's output is a new tensor, saved again."""
    s = setup(method=Method.LORA, lora_dtype=Precision.BF16, lora_targets=("o_proj",), lora_rank=16)
    assert mem._lora_act_per_token_layer(s) == 2 * 16                          # lora_A's output only
    eager = replace(s, attention=Attention.EAGER)
    assert mem._lora_act_per_token_layer(eager) == 2 * 4096 + 2 * 16


def test_fp32_base_under_autocast() -> None:
    """lora-llama2-7b-qv-fp32base-s1024 / lora-llama31-8b-all-fp32base-s2048-ckpt: an fp32-loaded base keeps 4 B
    weights, autocast saves a 16-bit cast of every frozen linear weight of a live layer (and of lm_head), the
    residual stream (the checkpointed inputs) is fp32; under FSDP MixedPrecision only the shards stay fp32."""
    lora = setup(method=Method.LORA, precision=Precision.MIXED, lora_targets=("q_proj", "v_proj"))
    fp32 = replace(lora, base_fp32=True)
    pc = params.count_params(L7)
    assert mem.weights_bytes(fp32) == 2 * mem.weights_bytes(lora) == pc.total * 4
    assert mem._autocast_weight_casts_per_layer(fp32) == 2 * pc.layer_linear
    assert mem._autocast_weight_casts_per_layer(lora) == 0
    ckpt = replace(fp32, gradient_checkpointing=True)
    assert mem._checkpoint_bytes_per_token(ckpt) == 4 * 4096
    assert mem.weights_bytes(replace(fp32, precision=Precision.BF16)) == pc.total * 2    # needs mixed precision
    fsdp = replace(fp32, num_gpus=8, sharding=Sharding.ZERO3)
    assert mem._autocast_weight_casts_per_layer(fsdp) == 0 and mem._checkpoint_bytes_per_token(fsdp) == 2 * 4096
    resident = mem.weights_bytes(fsdp) - mem._live_gathered_bytes(fsdp)
    assert resident == pytest.approx(pc.total * 4 / 8, rel=1e-9)
    assert mem._live_gathered_bytes(fsdp) == mem._live_gathered_bytes(replace(fsdp, base_fp32=False))   # 16-bit
    assert not params.base_fp32(replace(fsdp, deepspeed=True))       # DeepSpeed's bf16 mode casts the parameters


def test_dpo_loss_as_trl_computes_it() -> None:
    """dpo-lora-llama31-8b-all-s2048-ckpt: before backward, 2 B each for the policy logits, their saved per-row
    log-softmax, the reference logits and the entropy metric's copy; 4 B in backward; no reference logits when they
    were precomputed."""
    s = setup(model=L8, method=Method.LORA, dpo=True, seq_len=2048, gradient_checkpointing=True)
    n = _logit_elements(s)
    assert mem.logits_forward_bytes(s) == n * 8
    assert mem.logits_loss_bytes(s) == n * 4
    assert mem.logits_forward_bytes(replace(s, precompute_ref_log_probs=True)) == n * 6
    assert mem.estimate(s).phase is Phase.FORWARD


def test_adafactor_step_holds_fp32_copies_of_the_largest_tensor() -> None:
    """full-llama31-8b-adafactor-s1024-ckpt: transformers Adafactor.step holds grad.float(), p.float(), the update
    and -update of one parameter at a time: 4 fp32 copies of the 525M-element embedding; 2 for fp32 parameters."""
    s = setup(model=L8, optimizer=Optimizer.ADAFACTOR)
    emb = 128256 * 4096
    assert mem.optimizer_step_temp_bytes(s) == emb * 4 * 4
    assert mem.optimizer_step_temp_bytes(replace(s, precision=Precision.FP32)) == emb * 4 * 2


def test_fsdp_gathered_units_are_their_own_storage() -> None:
    """fsdp2-full-llama2-7b-mb4-s2048-ckpt-n4: the root unit (embeddings, final norm, lm_head) and two layers are
    gathered next to the whole shard, and released before the optimizer step."""
    s = setup(num_gpus=4, sharding=Sharding.ZERO3, gradient_checkpointing=True, optimizer=Optimizer.ADAMW_TORCH_FUSED)
    pc = params.count_params(L7)
    gathered = (2 * pc.layer + pc.embedding + pc.lm_head + 4096) * 2
    assert mem._live_gathered_bytes(s) == gathered
    assert mem.weights_bytes(s) == pytest.approx(pc.total * 2 / 4 + gathered, rel=1e-9)
    e = mem.estimate(s)
    assert e.phases["optimizer_step"] == pytest.approx(pc.total * (2 + 2 + 4) / 4 + mem._unsharded_unit_grad_bytes(s),
                                                       rel=1e-6)


def test_late_layer_backward_sits_on_the_gradient_shards() -> None:
    """Sharded gradients: a late layer's activations, its unsharded gradients and their reduce-scatter copy, and
    the root's lm_head gradient, on top of the shards (fsdp2-full-llama31-8b-s2048-ckpt-n8); nothing of the kind
    without gradient sharding, where the end of the backward (every gradient whole) is larger."""
    s = setup(model=L8, num_gpus=8, sharding=Sharding.ZERO3, gradient_checkpointing=True)
    pc = params.count_params(L8)
    expected = mem.recompute_bytes(s) + 2 * pc.layer * 2 + pc.lm_head * 2 - mem._unsharded_unit_grad_bytes(s)
    assert mem.layer_backward_bytes(s) == pytest.approx(expected, rel=1e-9)
    assert mem.estimate(s).phase is Phase.BACKWARD_END
    assert mem.layer_backward_bytes(replace(s, num_gpus=1, sharding=Sharding.NONE)) == 0
    assert mem.layer_backward_bytes(replace(s, sharding=Sharding.ZERO1)) == 0


def test_fsdp_reserve_is_the_sum_of_its_stream_pools() -> None:
    """FSDP allocates the gathered parameters and the gradient shards on their own streams, whose cached blocks the
    compute stream cannot reuse: the reserve covers the compute stream's own peak plus both pools; DeepSpeed and
    unsharded runs keep the single-pool fragmentation share."""
    s = setup(num_gpus=4, sharding=Sharding.ZERO3, gradient_checkpointing=True, micro_batch_size=4, keeps_logits=True)
    e = mem.estimate(s)
    t = mem._terms(s)
    comps = mem._phase_components(s, t)
    compute_peak = max(sum(v.values()) - (t.gathered if ph is not Phase.OPTIMIZER_STEP else 0.0)
                       - v.get("gradients", 0.0) for ph, v in comps.items())
    assert e.reserved_bytes >= compute_peak + t.gathered + t.grads - 1
    ds = replace(s, deepspeed=True)
    assert mem.estimate(ds).reserved_bytes - mem.estimate(ds).allocated_bytes < e.reserved_bytes - e.allocated_bytes


def test_quant_constants_stay_whole_under_fsdp() -> None:
    """bitsandbytes keeps the NF4 constants in a QuantState on the module, outside FSDP's flat parameters: every GPU
    holds all of them, also with parameter offload."""
    s = setup(model=MODELS["llama-2-70b"], method=Method.QLORA, num_gpus=2, sharding=Sharding.ZERO3)
    consts = params.quantized_params(s) * 0.127 / 8
    assert mem._unsharded_quant_state_bytes(s) == pytest.approx(consts)
    off = replace(s, offload_params=True, cpu_offload=True)
    assert mem.weights_bytes(off) == pytest.approx(consts + mem._live_gathered_bytes(off))
    assert mem._unsharded_quant_state_bytes(replace(s, sharding=Sharding.NONE, num_gpus=1)) == 0


def test_deepspeed_zero3_working_set_is_its_live_budget_not_fsdp_units() -> None:
    """DeepSpeed ZeRO-3 keeps the layer in use, the largest module and at most stage3_prefetch_bucket_size elements
    ahead (partitioned_param_coordinator.py); FSDP gathers whole units: two layers and the root."""
    s = setup(num_gpus=8, sharding=Sharding.ZERO3, method=Method.LORA)
    pc = params.count_params(L7)
    ds = replace(s, deepspeed=True)
    assert mem._live_gathered_bytes(ds) == pytest.approx((pc.layer + pc.embedding + 50_000_000) * 2)
    assert mem._live_gathered_bytes(s) == pytest.approx((2 * pc.layer + pc.embedding + pc.lm_head + 4096) * 2)
    big = replace(ds, model=MODELS["llama-2-70b"])        # layer + lm_head beyond the 1e9 live budget: no prefetch
    pc70 = params.count_params(big.model)
    assert mem._live_gathered_bytes(big) == pytest.approx((pc70.layer + pc70.embedding) * 2)
