"""Per-GPU memory of one fine-tuning step: one pure function per component, then the phases and the peak.

Every constant the model uses is in ``COEFFICIENTS`` (a frozen dataclass) with the source it comes from and, where it
was fitted, the ids of the calibration rows (``benchmarks/data/measurements.csv``, read by ``benchmarks/calibration.py``) it was fitted on.
What a model holds (parameters, LoRA targets, 4-bit storage) is counted once, in ``params.py``, for memory and time.
The derivation of each term is in ESTIMATOR.md. All figures are bytes, per GPU, as Python ints; nothing here does I/O.

Vocabulary used below: ``P`` all parameters, ``T`` trainable parameters, ``h`` hidden size, ``i`` MLP width,
``a``/``kv`` query/key-value heads, ``d`` head dim, ``L`` layers, ``V`` vocabulary, ``b`` micro-batch, ``s`` sequence.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from . import vocab
from .models import (
    Attention,
    Estimate,
    KbitUpcast,
    Method,
    ModelArch,
    Optimizer,
    Phase,
    Precision,
    QloraBackend,
    Sharding,
    TrainingSetup,
)
from .params import (
    NF4_BITS,
    linear_attention_widths,
    mamba_widths,
    adapter_bytes,
    attention_layers,
    base_bytes,
    base_fp32,
    compute_bytes,
    count_params,
    expert_param_lora,
    experts_fused,
    experts_left_16bit,
    experts_quantized,
    expert_width,
    expert_tensors as _expert_tensors,
    fp32_trainable_master,
    head_dim,
    held_arch,
    kbit_upcast_params,
    lm_head_quantized,
    moe_layers,
    nf4_bytes,
    nf4_const_bits,
    nf4_unsharded,
    quantized_params,
    setup_targets,
    stored_weight_bytes,
    trainable_params,
    trainable_tensors,
    wrapped_linears,
)

__all__ = [
    "COEFFICIENTS",
    "likely_range",
    "Coefficients",
    "weights_bytes",
    "kbit_upcast_bytes",
    "dequant_bytes_per_weight",
    "master_copy_bytes",
    "autocast_copy_bytes",
    "gradient_bytes",
    "grad_bucket_bytes",
    "layer_backward_bytes",
    "tied_grad_sum_bytes",
    "optimizer_state_bytes",
    "optimizer_step_temp_bytes",
    "activation_bytes",
    "recompute_bytes",
    "attention_backward_bytes",
    "logits_loss_bytes",
    "logits_forward_bytes",
    "kept_logits_bytes",
    "lora_adapter_bytes",
    "dequant_transient_bytes",
    "moe_notes",
    "reference_model_bytes",
    "allocator_reserve_bytes",
    "estimate",
    "GIB",
    "GB",
]

GIB = 1 << 30
GB = 10**9


# =====================================================================================================================
# COEFFICIENTS: the one place every constant lives
# Fitting procedure: benchmarks/accuracy.py's rows; coordinate search over the grids named below minimising
# mean(min(|error|, 35 %)) + median |error| overall + the largest per-method median. Everything else is physics.
# =====================================================================================================================
@dataclass(frozen=True)
class Coefficients:
    # --- dtype sizes (IEEE / bitsandbytes definitions) ------------------------------------------------------------
    # (the NF4 storage sizes are definitions, in params.py: NF4_BITS, NF4_CONST_BITS, NF4_CONST_BITS_DOUBLE_QUANT)
    adamw_8bit_state_bytes: float = 2.0      # bitsandbytes 8-bit Adam: 1 byte each for m and v (HF perf_train_gpu_one)
    adamw_32bit_state_bytes: float = 8.0     # bitsandbytes (Paged)AdamW32bit: fp32 m and v whatever the param dtype
    #                                          (bitsandbytes optim/optimizer.py Optimizer2State.init_state: float32
    #                                          state1/state2 when optim_bits == 32)
    adafactor_extra_bytes: float = 4.0       # fp32 row+col factors per matrix, fp32 full state for vectors (Shazeer &
    #                                          Stern 2018; transformers Adafactor, beta1=None default)
    # transformers Adafactor.step (optimization.py) works on one parameter at a time in fp32: for a 16-bit parameter
    # it holds grad.float(), p.float(), the update (grad**2 + eps, then the factored approximation, made while the
    # previous update is alive) and -update in p_data_fp32.add_(-update): 4 fp32 copies of the largest trainable
    # tensor at once; an fp32 parameter and gradient are used in place, leaving 2. Exact on the trace
    # full-llama31-8b-adafactor-s1024-ckpt (8.42 GB of step temporaries = 4 x 4 B x the 525M-element embedding).
    adafactor_step_copies_16bit: float = 4.0
    adafactor_step_copies_fp32: float = 2.0

    # --- activations, bytes per token per layer at 16-bit compute (physics count in ESTIMATOR.md §Activations) ------
    # Full fine-tuning saves: two RMSNorms (fp32 input 4h + normalised 16-bit 2h each), the q/k/v input 2h,
    # q, k, v, attention output (2·a·d each, k/v repeated to a heads unless flash), the MLP input 2h and 4 tensors of
    # 2i in a gated MLP (2 in a plain one); o_proj's input is the saved attention output (a new 2·a·d only under
    # eager attention). The scale below multiplies that count: 1.0, the count itself, exact on the trace
    # full-llama32-1b-bf16-s4096-mb2 (13.39 GiB) and, re-checked on the full-FT point rows (grid 0.9-1.05: TT-10,
    # TT-12/13/15/16, PF-01, LG-C36/C37, TT-33/36/37), the calibration optimum too. It was 0.9 while the o_proj
    # input was counted twice and the loss backward at 14 B per logit.
    act_scale_full: float = 1.0
    # Frozen base (LoRA / QLoRA): only what input-gradients need: norm fp32 inputs (4h each), q/k/v/out for SDPA,
    # gate, act and up outputs of the MLP (6i gated, 2i plain); the frozen linears' inputs are not saved.
    # Fitted (grid 0.9-1.3) on the LoRA point rows: LG-R01/R04/R05/R10/R11/R14, RS-01, LG-C01/C09/C13/C19/C21/
    # C25/C28/C30/C33, LG-L02/L03, PF-03/PF-04/PF-06, TT-24/TT-25/TT-27/TT-30. The traces count a transformers 5
    # frozen layer exactly at 1.0 (lora-llama31-8b-all-s2048: 18.04 GiB); re-checked after this round's terms (grid
    # 1.0-1.15): the published rows still need 1.1 (LoRA median 4.9 % at 1.0, 4.1 % at 1.1; QLoRA 6.5 / 4.0 %), and
    # a measurement is the final word, so LoRA steps without checkpointing come out 2-4 % high on the traces.
    act_scale_frozen: float = 1.1
    # bitsandbytes MatMul4Bit saves its input A for backward (ctx.tensors = (A, B)), so QLoRA over bnb re-saves the
    # inputs of the quantised linears: 2h (q/k/v) + 2·a·d (o) + 2h (gate/up) + 2i (down) per token per layer.
    # Fitted (grid 1.0-3.0) on the bitsandbytes QLoRA rows: LG-C04/C07/C10/C12/C22/C24/C31/C34, LG-R02/R07/R08/
    # R13/R16/R17, RS-03/RS-04/RS-06 (each against its LoRA twin where one exists, e.g. LG-C09 vs LG-C10).
    # Re-checked after litgpt's quantised lm_head and fp16->bf16 dequant cast were modelled (grid 1.0-1.7, step
    # 0.05-0.1): 1.2-1.5 are within 0.3 points of the objective; 1.5 is kept (best QLoRA median).
    qlora_saved_input_scale: float = 1.5
    # Eager attention stores, per layer, softmax output in fp32 (4 B) and the 16-bit probabilities (2 B) per score
    # (transformers eager_attention_forward: softmax(dtype=float32).to(dtype)). Physics, not fitted.
    eager_score_bytes_16bit: float = 6.0
    eager_score_bytes_fp32: float = 4.0
    # Its backward holds, per score of the layer being differentiated, the saved fp32 softmax output, the fp32
    # gradient of the probabilities (the backward of .to(dtype)) and the softmax backward's fp32 output at once
    # (the 16-bit probabilities are freed by then): 12 B, whatever the compute dtype. Exact on the trace
    # lora-llama2-7b-qv-eager-mb4-s2048-ckpt (peak inside _softmax_backward_data: 3 x 2.0 GiB).
    eager_backward_score_bytes: float = 12.0
    # Gradient checkpointing keeps each decoder layer's input (2·h bytes/token at 16-bit) -- Korthikanti et al. 2022
    # "full recompute" 2sbh -- and recomputes one layer during backward. Physics, not fitted.
    # Activation offloading (torchtune OffloadActivations) keeps this many layers' saved tensors on the GPU while the
    # rest stream to host RAM: the layer being computed and the one being copied (torchtune docs). Not fitted
    # (TT-15/TT-16 agree within 5 %).
    offload_layers_on_gpu: float = 2.0

    # --- logits and loss, bytes per logit element (b·s·V) at the start of backward -------------------------------
    # Standard cross-entropy on 16-bit logits upcast to fp32 (transformers ForCausalLMLoss; older transformers upcast
    # in the model and copy the shifted logits): at the start of backward three fp32 buffers are alive: the saved
    # log-softmax output, the nll_loss gradient and the log-softmax gradient (4 B each) = 12. The 16-bit logits and
    # the upcast are already freed when the loop keeps only the loss (HF Trainer's compute_loss; the oracle's
    # `del out`). Exact on every trace whose peak is the loss backward (e.g. full-llama32-3b-bf16-s32768-ckpt:
    # 3 x 15.66 GiB); it was 14 (the 16-bit logits counted alive), +10 % on 16k-32k token traces.
    ce_bytes_16bit: float = 12.0
    # At the end of the forward (inside the loss): the 16-bit logits, their fp32 upcast and the log-softmax output
    # (2 + 4 + 4). Physics; the forward peak on the same traces.
    ce_forward_bytes_16bit: float = 10.0
    # A training loop that keeps a reference to the logits (torchtune's recipes before June 2024: `logits =
    # logits[..., :-1, :].contiguous()` stays bound through loss.backward() and optimizer.step() until the next
    # forward returns, removed by torchtune #1046 "del logits to save peak memory"; a loop that keeps the model's
    # outputs) holds one more fp32 copy of them: 4 B per logit in every phase after the first forward.
    kept_logits_bytes: float = 4.0
    # DPO (TRL DPOTrainer._compute_loss, 1.13): no fp32 upcast; selective_log_softmax runs one row at a time in the
    # model dtype and every row's log-softmax is saved for backward. Before backward (TRL computes its metrics while
    # the outputs are alive), per logit of the 2·b sequences: the policy logits, their saved log-softmax, the
    # reference logits and the entropy metric's reshape copy of the shifted logits, 2 B each = 8; in backward the
    # saved log-softmax and the logits' gradient, 4. Exact on the traces dpo-lora-llama31-8b-all-s2048-ckpt (mm 2 x
    # 0.98 GiB, _log_softmax 0.98, clone 0.98 at the peak in loss_and_metrics) and dpo-full-llama32-1b-s1024.
    # Precomputed reference log-probs remove the reference logits (-2).
    dpo_forward_bytes_16bit: float = 8.0
    dpo_backward_bytes_16bit: float = 4.0
    ce_bytes_fp32: float = 12.0              # fp32 logits + log-softmax + gradient (PR-06); physics
    # Chunked cross-entropy (torchtune CEWithChunkedOutputLoss, litgpt chunked_cross_entropy): all 16-bit logit chunks
    # plus the saved log-softmax of every chunk stay alive; the fp32 upcast/gradient is one chunk at a time.
    # 2 + 2 = 4 (litgpt saves bf16 log-softmax; lm_head_chunk_size=128). Physics; checked on TT-12/TT-13 and the
    # litgpt rows (LG-*, RS-*); a free fit would go lower (2-4), so the count is kept.
    chunked_ce_bytes: float = 4.0
    # Chunked cross-entropy under torch.compile (torchtune compiles the per-chunk loss): the upcast, log-softmax and
    # its gradient fuse into one kernel per chunk, so only 16-bit tensors live across chunks: each chunk's logits
    # until its loss backward, then its gradient until the lm_head backward (all loss nodes run first) = 2.
    chunked_ce_bytes_compiled: float = 2.0
    # Fused linear cross-entropy (Liger): an fp32 chunk of logits about the size of the hidden states, 4 bytes per
    # token per hidden unit, next to the 16-bit gradient of the hidden states. Physics (Liger's chunk rule); Cut
    # Cross-Entropy needs less (no chunk), so this is the upper one of the two.
    fused_ce_chunk_bytes: float = 4.0

    # --- multi-GPU ------------------------------------------------------------------------------------------------
    # ZeRO-3 / FSDP FULL_SHARD gathers the current decoder layer and prefetches the next one; the root unit
    # (embeddings, final norm, lm_head) stays unsharded during the step (PyTorch FSDP docs; llm-analysis).
    zero3_live_layers: float = 2.0
    # DeepSpeed ZeRO-3 fetches parameters per leaf module, keeps a fetched module only while its next use is near
    # (stage3_max_reuse_distance), prefetches at most stage3_prefetch_bucket_size elements ahead and never holds more
    # than stage3_max_live_parameters (deepspeed/runtime/zero/partitioned_param_coordinator.py
    # ``max_params_to_prefetch = min(max_n_available - n_available, prefetch_bucket_sz)``; defaults in
    # zero/config.py): the layer being recomputed and differentiated, the largest module (embedding or lm_head) and
    # the prefetch bucket.
    deepspeed_prefetch_bucket_elements: int = 50_000_000
    deepspeed_max_live_elements: int = 1_000_000_000

    # --- framework overhead ---------------------------------------------------------------------------------------
    # CUDA context + kernels as nvidia-smi shows it: 1.0 GiB default (vram.asmirnov.xyz uses 1000 MiB; HF docs
    # measured ~1.3 GB on a V100; research/calculators.md §19.10). Not fitted.
    cuda_context_bytes: int = 1 * GIB
    # Caching-allocator reserve (max_memory_reserved - max_memory_allocated) as a fraction of the allocated peak
    # above the memory held from load time to the end (weights, master copy, optimizer states, adapters).
    # Fitted (grid 0.10-0.25) on the max_memory_reserved rows: TT-19/TT-24/TT-25/TT-27/TT-28, PF-01/PF-03/PF-04/
    # PF-06 (flat optimum); re-checked after this round's terms (grid 0.12-0.2): unchanged. Under FSDP the
    # per-stream pools come on top (allocator_reserve_bytes).
    allocator_reserve_fraction: float = 0.15

    # --- run-to-run spread (the low-high range) ---------------------------------------------------------------------
    # calibration/README caveat 2: TT-36 vs TT-37 (20.2 vs 22.3 GB, same command), PEFT full FT 34.7 -> 36.2 GiB across
    # versions: about +-10 %.
    range_low: float = 0.90
    range_high: float = 1.10


COEFFICIENTS = Coefficients()


def likely_range(peak_bytes: int) -> tuple[int, int]:
    """The likely low and high of a peak (the run-to-run spread, ``Coefficients.range_low/high``): the answer's
    ``range`` and the band of the fit verdict's ``at_edge`` (recommend.verdict)."""
    return int(peak_bytes * COEFFICIENTS.range_low), int(peak_bytes * COEFFICIENTS.range_high)


# =====================================================================================================================
# Helpers: dtypes and sharding
# =====================================================================================================================


def _adapter_bytes_per(s: TrainingSetup) -> int:
    return adapter_bytes(s)


def _shards(s: TrainingSetup) -> tuple[int, int, int]:
    """Divisors for (weights, gradients, optimizer states) -- ZeRO paper stages (Rajbhandari et al. 2020)."""
    n = s.num_gpus
    sh = s.sharding
    if sh is Sharding.NONE:
        return 1, 1, 1
    if sh is Sharding.ZERO1:
        return 1, 1, n
    if sh is Sharding.ZERO2:
        return 1, n, n
    return n, n, n


def _fsdp(s: TrainingSetup) -> bool:
    """Sharding through PyTorch FSDP (not DeepSpeed)."""
    return s.sharding is not Sharding.NONE and not s.deepspeed


def _ddp(s: TrainingSetup) -> bool:
    """Plain data parallelism: several GPUs, nothing sharded (torch DistributedDataParallel)."""
    return s.num_gpus > 1 and s.sharding is Sharding.NONE


def _deepspeed_bf16(s: TrainingSetup) -> bool:
    """DeepSpeed's bf16 mode on a sharded full fine-tune: the module's parameters are bf16 and the optimizer keeps
    its own master weights, gradient partitions and states, in fp32 unless ``bf16_master_weights_and_grads`` /
    ``bf16_optimizer_states`` (both False by default: deepspeed 0.19.8 runtime/precision_config.py
    ``DeepSpeedBF16Config``; runtime/zero/stage3.py ``fp32_partitioned_groups_flat`` is made in
    ``master_weights_and_grads_dtype``, stage_1_and_2.py ``single_partition_of_fp32_groups`` likewise)."""
    return s.deepspeed and s.sharding is not Sharding.NONE and s.method is Method.FULL and s.precision is Precision.BF16


def _autocast_casts(s: TrainingSetup) -> bool:
    """An fp32 base computed through per-op autocast casts. Under FSDP its MixedPrecision policy casts each shard to
    16-bit before the all-gather instead (accelerate's ``mixed_precision: bf16``), so the gathered weights, the
    layer inputs and the residual stream are 16-bit and nothing is cast per op."""
    return base_fp32(s) and s.sharding is Sharding.NONE




def _live_gathered_bytes(s: TrainingSetup) -> float:
    """ZeRO-3/FSDP: the unsharded working set (current + prefetched layer, root unit; DeepSpeed: see
    ``deepspeed_prefetch_bucket_elements``) on top of the shard. The
    gathered parameters are their own storage next to the local shard (FSDP1's padded unsharded flat parameter,
    FSDP2's all-gather output and per-parameter unsharded tensors, DeepSpeed's gathered ``param.data``), so the
    whole working set counts: trace fsdp2-full-llama2-7b-mb4-s2048-ckpt-n4 holds 0.87 GiB unsharded parameters
    (root + one layer) and a 0.38 GiB all-gather buffer (the prefetched layer) next to the 3.1 GiB shard."""
    if s.sharding is not Sharding.ZERO3 or (s.num_gpus <= 1 and not s.offload_params):
        return 0.0
    pc = count_params(held_arch(s))
    c = COEFFICIENTS
    dense = compute_bytes(s)       # FSDP MixedPrecision gathers 16-bit (an fp32 base too)
    L = s.model.num_hidden_layers
    if s.method is Method.QLORA:
        # NF4 layers next to a 16-bit root (embeddings, final norm, lm_head unless it is quantised too); NF4 weights
        # FSDP2 leaves unsharded (uint8 storage) are not gathered
        # (bitsandbytes' quantisation constants are a QuantState, not a parameter: whole on every GPU, never gathered)
        q_layer = (quantized_params(s) - (s.model.vocab_size * s.model.hidden_size if lm_head_quantized(s) else 0)) / L
        gathered_q = 0.0 if nf4_unsharded(s) else (
            q_layer * NF4_BITS / 8 if s.qlora_backend is QloraBackend.BITSANDBYTES else nf4_bytes(q_layer, s))
        layer = gathered_q + (pc.layer - q_layer) * dense
        head = nf4_bytes(s.model.vocab_size * s.model.hidden_size, s) if lm_head_quantized(s) \
            else pc.lm_head * dense
        embedding = pc.embedding * dense
    else:
        layer = pc.layer * dense
        head, embedding = pc.lm_head * dense, pc.embedding * dense
    if s.shard_embeddings and not s.deepspeed:
        # torchtune custom_sharded_layers: the embedding and the output projection are FSDP units of their own,
        # gathered around their use and resharded after it (recipes/full_finetune_distributed.py shards
        # ``tok_embeddings`` and ``output`` before the model), so at most one of them is whole at a time
        root = s.model.hidden_size * dense + max(embedding, head)
    else:
        root = s.model.hidden_size * dense + embedding + head
    if s.deepspeed:
        per = layer / max(pc.layer, 1)
        head = max(pc.embedding, pc.lm_head) * dense
        live = layer + head + min(c.deepspeed_prefetch_bucket_elements * per,
                                  max(0.0, c.deepspeed_max_live_elements * per - layer - head))
    else:
        live = min(c.zero3_live_layers, L) * layer + root
    return min(live, stored_weight_bytes(s) or pc.total * 2.0)     # never more than the model


# =====================================================================================================================
# Components (one pure function each)
# =====================================================================================================================
def weights_bytes(s: TrainingSetup) -> float:
    """Base-model weights resident on one GPU (frozen or trainable), sharded by ZeRO-3, plus the gathered set."""
    w_shard, _, _ = _shards(s)
    consts = _unsharded_quant_state_bytes(s)
    whole = _unsharded_nf4_payload_bytes(s)
    stored = stored_weight_bytes(s) - consts - whole
    if s.offload_params and s.sharding is Sharding.ZERO3:
        resident = 0.0
    else:
        resident = stored / w_shard
    return resident + consts + whole + _live_gathered_bytes(s)


def kbit_upcast_bytes(s: TrainingSetup) -> float:
    """QLoRA: what the framework's fp32 cast of the parameters that are not 4-bit adds to their 16-bit storage
    (``kbit_upcast``; which parameters: params.kbit_upcast_params). peft 0.21.2 utils/other.py
    ``prepare_model_for_kbit_training`` does ``param.data = param.data.to(torch.float32)`` for every fp16/bf16
    parameter that is not ``Params4bit``: 4 bytes where ``weights_bytes`` counts the loaded dtype, so 2 more per
    parameter of a 16-bit base and none for a base already held in fp32 (``base_fp32``, ``precision`` fp32). The
    parameters stay sharded with the rest under ZeRO-3 (FSDP's MixedPrecision still gathers them in 16-bit) and
    leave the GPU with parameter offloading."""
    n = kbit_upcast_params(s)
    if not n or (s.offload_params and s.sharding is Sharding.ZERO3):
        return 0.0
    w_shard, _, _ = _shards(s)
    return n * (4 - base_bytes(s)) / w_shard


def _unsharded_nf4_payload_bytes(s: TrainingSetup) -> float:
    """The packed 4-bit weights FSDP2 ignores (``uint8`` quant storage, params.nf4_unsharded): whole on every GPU,
    neither sharded nor offloaded."""
    return quantized_params(s) * 4 / 8 if nf4_unsharded(s) else 0.0


def _unsharded_quant_state_bytes(s: TrainingSetup) -> float:
    """QLoRA over bitsandbytes under ZeRO-3/FSDP: the NF4 quantisation constants (absmax and, with double
    quantisation, its own constants) are a ``QuantState`` held by each Linear4bit module, not parameters, so FSDP
    neither shards nor offloads them (bitsandbytes nn/modules.py ``fix_4bit_weight_quant_state_from_module``: "the
    quant state got lost when the parameter got converted. This happens for example for fsdp"); the dequantisation
    kernel reads them on the GPU, so every GPU holds all of them."""
    if s.method is not Method.QLORA or s.qlora_backend is not QloraBackend.BITSANDBYTES \
            or s.sharding is not Sharding.ZERO3:
        return 0.0
    return quantized_params(s) * nf4_const_bits(s) / 8


def master_copy_bytes(s: TrainingSetup) -> float:
    """fp32 master weights of the trainable parameters (full fine-tuning): 4·T under mixed precision (HF anatomy), the
    fp32 shards of a model accelerate's FSDP2 upcasts, and DeepSpeed bf16's own master partition (fp32, or bf16 with
    ``deepspeed_bf16_master_weights``); ``/N`` with the optimizer shard."""
    if s.cpu_offload or s.method is not Method.FULL:
        return 0.0
    if fp32_trainable_master(s):
        per = 4.0
    elif _deepspeed_bf16(s):
        per = 2.0 if s.deepspeed_bf16_master_weights else 4.0
    else:
        return 0.0
    t = trainable_params(s)
    _, _, o_shard = _shards(s)
    # sharded: 16-bit parameters on the GPU, the master lives with the optimizer shard
    return per * t / o_shard


def autocast_copy_bytes(s: TrainingSetup) -> float:
    """16-bit copies of the fp32 trainable weights that autocast caches for the forward (mixed, full FT): 2·T; DeepSpeed's
    16-bit module parameters (``/N``). FSDP keeps none: its MixedPrecision casts each shard just before the all-gather and
    frees the cast after it (FSDP1 torch/distributed/fsdp/_flat_param.py ``_use_low_precision_shard`` then
    ``_free_low_precision_sharded_param`` in ``post_unshard``; FSDP2 casts inside ``foreach_all_gather``), so under
    FULL_SHARD only the gathered units are 16-bit, counted with the gathered working set; SHARD_GRAD_OP (ZeRO-2) keeps
    the whole 16-bit model gathered from the forward to the end of the backward, which this term stands for."""
    if not fp32_trainable_master(s) or (_fsdp(s) and s.sharding is Sharding.ZERO3):
        return 0.0
    if s.offload_params and s.sharding is Sharding.ZERO3:
        return 0.0                       # DeepSpeed's 16-bit partitions offloaded with the parameters
    t = trainable_params(s)
    w_shard, _, _ = _shards(s)
    return 2.0 * t / w_shard


def _grad_dtype_bytes(s: TrainingSetup) -> int:
    if s.method is Method.FULL:
        if _deepspeed_bf16(s):
            return 2 if s.deepspeed_bf16_master_weights else 4   # the partition's .grad is in the master dtype
        return 2 if (s.precision is Precision.BF16 and not fp32_trainable_master(s)) else 4
    return _adapter_bytes_per(s)


def gradient_bytes(s: TrainingSetup) -> float:
    """The full gradient buffer at the end of backward, per GPU (ZeRO-2/3 shard it; offload moves it to the host)."""
    pc = count_params(held_arch(s))
    t = trainable_params(s)
    g = _grad_dtype_bytes(s)
    if s.optimizer_in_backward:
        # torchtune optimizer_in_bwd / per-parameter hooks: only the parameter being stepped has a gradient
        biggest = pc.embedding if s.method is Method.FULL else 0
        return float(biggest * g)
    _, g_shard, _ = _shards(s)
    total = t * g
    if s.frozen_param_grads and s.method is not Method.FULL and s.sharding is Sharding.ZERO3:
        total += pc.total * compute_bytes(s)   # FSDP1 flat params: the frozen base shards get gradients too
    if _unsharded_accumulation(s):
        # no_sync(): FSDP skips the reduce-scatter on accumulating micro-batches and keeps the unsharded gradients
        # (PyTorch FSDP no_sync docs; pytorch#126166); the last micro-batch reduce-scatters into the shard
        return float(total)
    bucket = _unsharded_unit_grad_bytes(s)
    if s.cpu_offload:
        # the gradient shards live on the host: one unit's unsharded gradients are whole on the GPU before their
        # reduce-scatter and copy out (the (1 - 1/N) of _unsharded_unit_grad_bytes counts on the shard being on the
        # GPU, which it is not here); so more GPUs never raise the offloaded per-GPU peak
        return _unit_grad_bytes(s) if s.sharding in (Sharding.ZERO2, Sharding.ZERO3) else bucket
    return total / g_shard + bucket


def _unit_grad_bytes(s: TrainingSetup) -> float:
    """One wrapped unit's (a decoder layer's) gradients, unsharded."""
    pc = count_params(held_arch(s))
    t = trainable_params(s)
    return min(pc.layer * (t / pc.total), t) * _grad_dtype_bytes(s)


def _unsharded_unit_grad_bytes(s: TrainingSetup) -> float:
    """ZeRO-2/3: one unit's unsharded gradients before their reduce-scatter (the rest of it is already in the
    shard); 0 when gradients are not sharded or stay unsharded (no_sync accumulation)."""
    if s.sharding not in (Sharding.ZERO2, Sharding.ZERO3) or s.optimizer_in_backward or _unsharded_accumulation(s):
        return 0.0
    pc = count_params(held_arch(s))
    t = trainable_params(s)
    g = _grad_dtype_bytes(s)
    return min(pc.layer * g * (t / pc.total), t * g) * (1 - 1 / s.num_gpus)


def layer_backward_bytes(s: TrainingSetup) -> float:
    """Sharded gradients (ZeRO-2/3 through FSDP): while a decoder layer is differentiated late in the backward, most
    gradients already sit in their 1/N shards, and on top of them are that layer's rebuilt activations (checkpointing)
    or its saved ones, its unsharded weight gradients and their copy into the reduce-scatter input, and the root
    unit's unsharded lm_head gradient, which FSDP reduce-scatters only with the embedding's at the very end of the
    backward (the root unit holds embeddings, final norm and lm_head). With unsharded gradients the end of the
    backward (every gradient whole) is larger, so this applies to sharded gradients only. Traces
    fsdp2-full-llama2-7b-mb4-s2048-ckpt-n4 (Sharded Grad 2.8 of 3.1 GiB, a layer's Temp 2.6 GiB, Reduce Scatter
    0.38 GiB at the peak) and fsdp2-full-llama31-8b-s2048-ckpt-n8."""
    if s.sharding not in (Sharding.ZERO2, Sharding.ZERO3) or s.optimizer_in_backward or s.cpu_offload:
        return 0.0
    pc = count_params(held_arch(s))
    t = trainable_params(s)
    g = compute_bytes(s)     # unsharded gradients come in the compute dtype (FSDP MixedPrecision's param_dtype)
    layer_grads = min(pc.layer * t / pc.total, t) * g
    acts = recompute_bytes(s) if s.gradient_checkpointing else _layer_activation_bytes(s)
    # FSDP reduce-scatters the root's lm_head gradient with the embedding's at the end, unless they are units of their
    # own (shard_embeddings)
    root = pc.lm_head * g if (s.method is Method.FULL and not s.deepspeed and not s.shard_embeddings) else 0.0
    # the gradient buffer already holds one unit's unsharded gradients (gradient_bytes); this replaces them
    return max(0.0, acts + 2.0 * layer_grads + root - _unsharded_unit_grad_bytes(s))


def grad_bucket_bytes(s: TrainingSetup) -> float:
    """Gradient copies a framework holds in every phase: DeepSpeed's reduction bucket, or DDP's bucket copy of the
    gradients (``ddp_bucket_bytes``)."""
    return _deepspeed_bucket_bytes(s) + ddp_bucket_bytes(s)


def ddp_bucket_bytes(s: TrainingSetup) -> float:
    """DDP (several GPUs, nothing sharded) holds its reduction buckets as tensors of their own, the size of every
    trainable gradient in its dtype, allocated when the model is wrapped (torch 2.13 c10d reducer.cpp
    ``initialize_buckets``: ``bucket.gradients = at::empty({offset}, options)``, then ``copy_bucket_to_grad`` unless
    ``gradient_as_bucket_view``; torch/nn/parallel/distributed.py: ``gradient_as_bucket_view`` defaults to False and,
    when True, "saved memory size will be equal to the total gradients size"). accelerate's
    ``DistributedDataParallelKwargs``, the HF Trainer and Lightning keep that default. The oracle's DDP step adds
    exactly ``T × g`` (2,471,628,800 bytes for a Llama-3.2-1B-shaped full bf16 step)."""
    if not _ddp(s) or s.ddp_gradient_as_bucket_view:
        return 0.0
    return float(trainable_params(s) * _grad_dtype_bytes(s))


def _deepspeed_bucket_bytes(s: TrainingSetup) -> float:
    """DeepSpeed's contiguous gradient-reduction bucket, ``reduce_bucket_size`` elements in the parameters' 16-bit
    dtype (``contiguous_gradients`` is on by default): ZeRO-3 allocates it once with the optimizer
    (deepspeed/runtime/zero/stage3.py ``bucket.buffer = torch.empty(self.reduce_bucket_size, ...)``), ZeRO-1/2 at the
    start of each backward (stage_1_and_2.py ``setup_buckets``: ``buf_0 = torch.empty(int(self.reduce_bucket_size),
    dtype=self.dtype, ...)``; a second one only with ``overlap_comm``, whose default is off below stage 3,
    zero/config.py ``overlap_comm_valid``). DeepSpeed's default is 5e8 elements; Hugging Face's ``"auto"`` sets
    hidden_size². FSDP has no such buffer."""
    if not s.deepspeed or s.sharding is Sharding.NONE:
        return 0.0
    return float(s.reduce_bucket_size * compute_bytes(s))


def _unsharded_accumulation(s: TrainingSetup) -> bool:
    """Gradient accumulation inside no_sync() (Fabric no_backward_sync, FSDP2 set_requires_gradient_sync(False),
    accelerate accumulate without sync_each_batch) on a gradient-sharding stage: the gradients stay unsharded."""
    return (s.no_sync_accumulation and s.grad_accum_steps > 1 and not s.optimizer_in_backward
            and s.sharding in (Sharding.ZERO2, Sharding.ZERO3))


def _state_dtype_bytes(s: TrainingSetup) -> int:
    """Bytes of one element of a torch optimizer's state: the dtype of the parameters it steps (the fp32 master under
    mixed precision or accelerate's FSDP2 upcast; DeepSpeed bf16's states are fp32 unless
    ``deepspeed_bf16_optimizer_states``)."""
    if fp32_trainable_master(s):
        return 4
    if _deepspeed_bf16(s):
        return 2 if s.deepspeed_bf16_optimizer_states else 4
    return _grad_dtype_bytes(s)


def _optimizer_state_bytes_per_param(s: TrainingSetup) -> float:
    o = s.optimizer
    dtype = _state_dtype_bytes(s)
    if o in (Optimizer.ADAMW_TORCH, Optimizer.ADAMW_TORCH_FUSED):
        return 2.0 * dtype
    if o in (Optimizer.ADAMW_8BIT, Optimizer.PAGED_ADAMW_8BIT):
        return COEFFICIENTS.adamw_8bit_state_bytes
    if o is Optimizer.PAGED_ADAMW_32BIT:
        return COEFFICIENTS.adamw_32bit_state_bytes
    if o is Optimizer.SGD_MOMENTUM:
        return float(dtype)
    return 0.0


def _adafactor_state_bytes(s: TrainingSetup) -> float:
    """Factored second moment: (rows + cols) fp32 per matrix; vectors keep a full fp32 state."""
    m = held_arch(s)
    pc = count_params(m)
    if s.method is Method.FULL:
        stack = sum(k.count * (sum((di + do) * c for _, di, do, c in k.linears) + (k.params - k.linear))
                    for k in pc.kinds)
        total = stack + (m.vocab_size + m.hidden_size) * (2 if pc.lm_head else 1) + m.hidden_size
    else:
        r = s.lora_rank
        stack = sum(n * sum(((r + di) + (do + r)) * c for _, di, do, c in lins)
                    for n, lins in setup_targets(s))
        total = stack + ((r + m.hidden_size) + (m.vocab_size + r) if "lm_head" in s.lora_targets else 0)
    return total * COEFFICIENTS.adafactor_extra_bytes


def optimizer_state_total_bytes(s: TrainingSetup) -> float:
    """All optimizer states of the model (not sharded), wherever they live."""
    if s.optimizer is Optimizer.ADAFACTOR:
        return _adafactor_state_bytes(s)
    if _bnb(s):
        return sum(_bnb_tensor_bytes(s, n) * times for n, times in trainable_tensors(s))
    return trainable_params(s) * _optimizer_state_bytes_per_param(s)


#: bitsandbytes 0.50.2 optim/optimizer.py ``get_state_buffer``: ``if not self.is_paged or p.numel() < 1e5: return
#: torch.zeros_like(p, ...)``: a paged optimizer pages only the states of tensors of at least 1e5 elements (``F.get_paged``:
#: ``cudaMallocManaged(..., cudaMemAttachHost)`` wrapped as a CPU tensor); the others are ordinary CUDA allocations.
BNB_PAGED_MIN_ELEMENTS = 100_000
#: ``Optimizer2State.init_state``: ``if p.numel() < config["min_8bit_size"]: dtype = torch.float32`` (4096 by default).
BNB_MIN_8BIT_SIZE = 4096
#: ``Optimizer2State.init_state`` for 8-bit states: ``blocks = n // 256 + bool(n % 256)`` fp32 ``absmax1`` and
#: ``absmax2``, made with ``torch.zeros(..., device=p.device)`` (ordinary CUDA, also for a paged optimizer).
BNB_BLOCKSIZE = 256


def _paged(s: TrainingSetup) -> bool:
    return s.optimizer in (Optimizer.PAGED_ADAMW_8BIT, Optimizer.PAGED_ADAMW_32BIT)


def _bnb(s: TrainingSetup) -> bool:
    """A bitsandbytes optimizer (8-bit or paged): its states are made per tensor, by size."""
    return s.optimizer in (Optimizer.ADAMW_8BIT, Optimizer.PAGED_ADAMW_8BIT, Optimizer.PAGED_ADAMW_32BIT)


def _bnb_tensor_bytes(s: TrainingSetup, n: int) -> float:
    """Both states of one tensor of ``n`` elements and, for 8-bit ones, their block constants."""
    c = COEFFICIENTS
    if s.optimizer is Optimizer.PAGED_ADAMW_32BIT or n < BNB_MIN_8BIT_SIZE:
        return c.adamw_32bit_state_bytes * n
    return c.adamw_8bit_state_bytes * n + 8.0 * -(-n // BNB_BLOCKSIZE)


def _bnb_split(s: TrainingSetup) -> tuple[float, float]:
    """(ordinary CUDA bytes, paged bytes) of a bitsandbytes optimizer's states on one GPU. The threshold is applied per
    tensor as the optimizer sees it: whole tensors without sharding, each parameter's 1/N shard under FSDP (accelerate's
    ``use_orig_params``), one flat fp32 partition per parameter group under DeepSpeed."""
    _, _, o = _shards(s)
    if o > 1 and s.deepspeed:
        tensors: tuple[tuple[int, int], ...] = ((-(-trainable_params(s) // o), 1),)
    elif o > 1:
        tensors = tuple((-(-n // o), times) for n, times in trainable_tensors(s))
    else:
        tensors = trainable_tensors(s)
    plain = paged = 0.0
    for n, times in tensors:
        total = _bnb_tensor_bytes(s, n) * times
        if _paged(s) and n >= BNB_PAGED_MIN_ELEMENTS:
            absmax = 8.0 * -(-n // BNB_BLOCKSIZE) * times if s.optimizer is Optimizer.PAGED_ADAMW_8BIT else 0.0
            paged += total - absmax
            plain += absmax
        else:
            plain += total
    return plain, paged


def optimizer_state_bytes(s: TrainingSetup) -> float:
    """Optimizer states in PyTorch's allocator on one GPU (what ``max_memory_allocated`` sees). CPU-offloaded states
    are 0 here; a paged optimizer's paged states are not counted (``paged_optimizer_state_bytes``)."""
    if s.cpu_offload:
        return 0.0
    if _bnb(s):
        return _bnb_split(s)[0]
    _, _, o_shard = _shards(s)
    return optimizer_state_total_bytes(s) / o_shard


def paged_optimizer_state_bytes(s: TrainingSetup) -> float:
    """A paged optimizer's states in CUDA managed memory on one GPU: outside PyTorch's allocator, resident on the GPU
    once prefetched (``prefetch_state`` before each update, ``cudaMemPrefetchAsync``) until the driver evicts them."""
    if s.cpu_offload or not _paged(s):
        return 0.0
    return _bnb_split(s)[1]


def optimizer_step_temp_bytes(s: TrainingSetup) -> float:
    """Temporaries of optimizer.step(): foreach AdamW materialises sqrt(v) for the whole group (one state-sized
    tensor, torch/optim/adamw.py _multi_tensor_adamw); fused AdamW, bitsandbytes and SGD update in place."""
    if s.cpu_offload or s.optimizer_in_backward:
        return 0.0
    _, _, o_shard = _shards(s)
    if s.optimizer is Optimizer.ADAMW_TORCH:
        return trainable_params(s) * _state_dtype_bytes(s) / o_shard
    if s.optimizer is Optimizer.ADAFACTOR:
        c = COEFFICIENTS
        copies = c.adafactor_step_copies_fp32 if _grad_dtype_bytes(s) == 4 else c.adafactor_step_copies_16bit
        return _largest_trainable_tensor(s) * 4.0 * copies
    return 0.0


def _largest_trainable_tensor(s: TrainingSetup) -> int:
    """Elements of the largest trainable parameter: the embedding (or an untied lm_head) or the widest linear in full
    fine-tuning; the widest LoRA matrix (r x the larger side of its module) otherwise."""
    m = held_arch(s)
    pc = count_params(m)
    if s.method is Method.FULL:
        return max(pc.embedding, pc.lm_head, pc.largest_linear)
    sides = [max(di, do) for _, di, do, _c in wrapped_linears(s)]
    if "lm_head" in s.lora_targets:
        sides.append(max(m.hidden_size, m.vocab_size))
    return s.lora_rank * max(sides, default=0)


def _tokens(s: TrainingSetup) -> int:
    """Sequences in one forward: DPO runs chosen + rejected together (TRL concatenated_forward): 2·b."""
    return s.micro_batch_size * (2 if s.dpo else 1) * s.seq_len


def _attn_widths(m: ModelArch, attention: Attention) -> tuple[int, int, int, int, int]:
    """Per-token widths saved by attention: q, k, v, attention output (= o_proj input) and the MLA latents (the
    normalised q_lora/kv_lora bottlenecks, 0 without MLA). SDPA/eager repeat k/v to every head; flash does not.
    MLA expands k and v per head (kv_b_proj) before attention, so they are full width under every kernel."""
    a = m.num_attention_heads
    if m.kv_lora_rank:
        qk = m.qk_nope_head_dim + m.qk_rope_head_dim
        return a * qk, a * qk, a * m.v_head_dim, a * m.v_head_dim, m.kv_lora_rank + (m.q_lora_rank or 0)
    d = head_dim(m)
    qd = a * d
    kvd = qd if attention is not Attention.FLASH else m.num_key_value_heads * d
    return qd, kvd, kvd, qd, 0


def _mlp_act_widths(m: ModelArch) -> tuple[float, float, float]:
    """MLP widths per token averaged over the stack's layers (so L × the average is the exact sum): the MLP width
    (dense ``i``; MoE: ``k`` routed experts of ``moe_intermediate_size`` + the shared expert), the routed tokens'
    gathered inputs (``k·h`` per MoE layer) and the router's fp32 probabilities (``E`` per MoE layer)."""
    L = m.num_hidden_layers
    n_moe = moe_layers(m)
    n_mlp = m.mlp_blocks or L                        # Nemotron-H: only its MLP blocks have one
    if not n_moe:
        return n_mlp * m.intermediate_size / L, 0.0, 0.0
    k = m.num_experts_per_tok
    moe_width = k * expert_width(m) + m.shared_expert_intermediate_size
    width = ((n_mlp - n_moe) * m.intermediate_size + n_moe * moe_width) / L
    return width, n_moe * k * m.hidden_size / L, n_moe * m.num_local_experts / L


def qk_norm_width(m: ModelArch) -> float:
    """Per-token width the q/k norms normalise in one attention layer: every query and key feature
    (``a·d + kv·d``, averaged over a hybrid's stack), whether the norm runs per head (Qwen3 ``q_norm``/``k_norm``
    over ``head_dim``) or over the whole projection (OLMo 2, OLMoE); 0 without them. Each is an RMSNorm like the
    layer's own (transformers Qwen3RMSNorm: ``hidden_states.to(torch.float32)`` saved for the backward,
    ``weight * hidden.to(input_dtype)`` saving the normalised 16-bit copy when the weight trains), so
    ``_act_per_token_layer`` counts it with them. Oracle run of a 4-layer Qwen3-0.6B, full fine-tuning: the
    recomputed layer's fp32 and 16-bit ``_to_copy`` tensors are 15,392 B per token, 9,216 x 2 B of them the q/k
    norms' (ESTIMATOR.md, "GRPO")."""
    if not m.qk_norm or m.kv_lora_rank:
        return 0.0
    # a hybrid's linear-attention and Mamba layers have no q/k norm: the average over the stack
    return (m.num_attention_heads + m.num_key_value_heads) * head_dim(m) * attention_layers(m) / m.num_hidden_layers


def _act_per_token_layer(s: TrainingSetup) -> float:
    """Bytes saved for backward by one decoder layer per token, no checkpointing (physics count × fitted scale).
    For a stack with dense and MoE layers this is the average layer. MoE (transformers MixtralSparseMoeBlock and
    its descendants): each token's k experts see a gathered copy of its input, and the routing weight multiplies
    each expert's output (full fine-tuning saves both, ``2·h`` per routed expert); the router's softmax keeps its
    fp32 output (``4·E``); every resident expert's weights are in ``weights``, only the routed ones' activations
    are here."""
    m = s.model
    c = COEFFICIENTS
    h = m.hidden_size
    q_w, k_w, v_w, o_in, latent = _attn_widths(m, s.attention)
    i, gathered, router = _mlp_act_widths(m)
    cb = compute_bytes(s)
    frozen = s.method is not Method.FULL
    attn = cb * (q_w + k_w + v_w + o_in)                 # q, k, v, attention output (SDPA/flash save them)
    if m.attn_output_gate:
        attn += cb * 2 * q_w                             # Qwen3-Next: the gate's sigmoid and the gated output
    if m.linear_attention_layers or m.mamba_layers or m.mlp_blocks:   # the average of the mixers' saved tensors
        n, n_m, L = m.linear_attention_layers, m.mamba_layers, m.num_hidden_layers
        attn = ((L - m.mlp_blocks - n - n_m) * attn + (n * _linear_attn_saved(s) if n else 0)
                + (n_m * _mamba_saved(s) if n_m else 0)) / L
    # the inputs each layer normalises (and, under full fine-tuning, feeds to a linear): the mixer's and the MLP's;
    # a stack of one-part blocks (Nemotron-H) has one per block
    inputs_per_layer = 1 if m.mlp_blocks else 2
    # torch.compile (AOTAutograd's min-cut partitioner) recomputes cheap pointwise ops in the backward instead of
    # saving their outputs: an RMSNorm keeps its 16-bit input (and a per-token rstd) instead of the fp32 upcast, and
    # a gated MLP keeps gate and up but recomputes act(gate) and the product (act(fc) in a plain one).
    norm_in = cb if s.torch_compile else 4
    # the normalised widths: the layer's two RMSNorms, MLA's latent norms and the q/k norms (``qk_norm_width``)
    normed = inputs_per_layer * h + latent + qk_norm_width(m)
    if frozen:
        norms = norm_in * normed                         # inputs of the RMSNorms (fp32 upcast when eager)
        mlp_saved = (2 if s.torch_compile else 3) if m.mlp_gated else 1
        mlp = cb * mlp_saved * i + 4 * router            # gate, act(gate), up  | act input; router probabilities
        base = (norms + attn + mlp) * c.act_scale_frozen
    else:
        norms = (norm_in + cb) * normed                  # norm input + normalised output (for the weight grad)
        # q/k/v input, MLP input, and o_proj's input, which is the attention output SDPA / flash attention already
        # save (see _lora_act_per_token_layer); eager attention's output is a fresh tensor
        inputs = cb * (inputs_per_layer * h + (o_in if s.attention is Attention.EAGER else 0))
        mlp_saved = (2 if s.torch_compile else 4) if m.mlp_gated else 1 if s.torch_compile else 2
        mlp = cb * (mlp_saved * i + 2 * gathered) + 4 * router   # gate, act, up, product | fc out, act out
        base = (norms + attn + inputs + mlp) * c.act_scale_full
    extra = 0.0
    if frozen:
        extra += _lora_act_per_token_layer(s)
        routed = _routed_width(m)
        if s.method is Method.QLORA and s.qlora_backend is QloraBackend.BITSANDBYTES:
            # MatMul4Bit's saved inputs: q/k/v (or q_a/kv_a), o_proj, MLA's q_b/kv_b, gate/up (+ each routed
            # expert's gathered copy), down; fused experts are not quantised (16-bit matmuls of frozen weights save
            # only the weight, which is resident). The input is saved after Linear4bit's ``x.to(compute_dtype)``:
            # in fp32 under ``qlora_compute_dtype`` fp32.
            q_i, q_gathered = (i - routed, 0.0) if experts_fused(s) else (i, gathered)
            saved = 4 if s.qlora_compute_dtype is Precision.FP32 else cb
            extra += saved * (inputs_per_layer * h + o_in + latent + q_gathered + q_i) * c.qlora_saved_input_scale
        if expert_param_lora(s):
            # LoRA on the fused expert weights makes them require grad, so each expert matmul saves its input for the
            # weight gradient: the routed tokens' gathered inputs (k·h) and the down projection's inputs (k·i)
            extra += cb * (gathered + routed)
    return base + extra


#: Rows of the chunked delta rule's per-chunk matrix A (flash-linear-attention's chunk size: 64 tokens).
GDN_CHUNK = 64


def _linear_attn_saved(s: TrainingSetup) -> float:
    """Bytes one Gated DeltaNet layer saves for backward per token (transformers Qwen3NextGatedDeltaNet.forward on its
    fast path, causal_conv1d and fla's chunk_gated_delta_rule): the conv's input (q, k, v before it: ``conv_dim``),
    the delta rule's q and k (each repeated to every value head: ``nv·dk``) and v, its fp32 decay ``g`` and ``beta``
    (one each per value head), its per-chunk matrix A (``GDN_CHUNK`` per value head), the gated RMSNorm's input and
    gate z (``value_dim`` each), and under full fine-tuning out_proj's input (the norm's output, for its weight
    gradient). No key-value cache: its fixed-size state is a transient of the backward (``linear_state_backward``)."""
    m = s.model
    cb = compute_bytes(s)
    key_dim, value_dim, conv_dim = linear_attention_widths(m)
    nv = m.linear_num_value_heads
    saved = conv_dim + 2 * nv * m.linear_key_head_dim + value_dim + GDN_CHUNK * nv + 2 * value_dim
    if s.method is Method.FULL:
        saved += value_dim
    return cb * saved + 4 * 2 * nv


#: Tokens per chunk of Mamba-2's chunked scan when the model gives none (BambaConfig / GraniteMoeHybridConfig
#: mamba_chunk_size default; NemotronHConfig's chunk_size is 128).
MAMBA_CHUNK = 256


def _mamba_saved(s: TrainingSetup) -> float:
    """Bytes one Mamba-2 layer saves for backward per token (transformers BambaMixer in training: mamba_ssm's fused
    ``mamba_split_conv1d_scan_combined``): in_proj's output (the gate, the conv's input and dt: ``mamba_widths``'
    last) and the scan's output (the inner width) in the compute dtype, and the gated norm's fp32 reciprocal
    root per group; the conv's output and the norm's are recomputed in the backward."""
    m = s.model
    inner, _conv, proj = mamba_widths(m)
    return compute_bytes(s) * (proj + inner) + 4 * m.mamba_n_groups


def linear_state_backward(s: TrainingSetup) -> float:
    """A linear layer's recurrent state in its backward, the fixed-size state it has instead of a key-value cache,
    recomputed at every chunk boundary with its gradient of the same shape, for the layer being differentiated (the
    larger of a hybrid's two kinds): a Gated DeltaNet's ``nv × dk × dv`` per sequence and 64-token chunk in the compute
    dtype, a Mamba-2 mixer's ``n_heads × d_head × d_state`` per sequence and chunk (``mamba_chunk_size`` tokens) in
    fp32. 0 without them."""
    m = s.model
    seqs = s.micro_batch_size * (2 if s.dpo else 1)
    out = 0.0
    if m.linear_attention_layers:
        state = m.linear_num_value_heads * m.linear_key_head_dim * m.linear_value_head_dim
        out = 2 * seqs * -(-s.seq_len // GDN_CHUNK) * state * compute_bytes(s)
    if m.mamba_layers:
        state = m.mamba_n_heads * m.mamba_d_head * m.mamba_d_state
        chunk = m.mamba_chunk_size or MAMBA_CHUNK
        out = max(out, 2 * seqs * -(-s.seq_len // chunk) * state * 4)
    return out


def _routed_width(m: ModelArch) -> float:
    """The routed experts' share of ``_mlp_act_widths``' MLP width, averaged over the stack (``k·moe_i`` per MoE
    layer)."""
    n_moe = moe_layers(m)
    return n_moe * m.num_experts_per_tok * expert_width(m) / m.num_hidden_layers if n_moe else 0.0


def _autocast_weight_casts_per_layer(s: TrainingSetup) -> float:
    """An fp32 frozen base under autocast: each frozen nn.Linear's weight is cast to 16-bit for its matmul, and the
    matmul saves that cast for the input gradient (autocast's cast cache keeps only leaf tensors that require grad,
    so frozen weights are cast again, not shared): 2 B per frozen (non-quantised) linear parameter of every layer
    whose activations are alive. Trace lora-llama2-7b-qv-fp32base-s1024: 12.1 GiB of _to_copy weight casts for the
    32 layers of Llama-2-7B."""
    if not _autocast_casts(s):
        return 0.0
    pc = count_params(held_arch(s))
    if s.method is Method.QLORA:
        frozen = 0 if s.qlora_backend is QloraBackend.BITSANDBYTES else \
            pc.layer_linear - sum(di * do * c for _, di, do, c in wrapped_linears(s))
    else:
        frozen = pc.layer_linear
    return 2.0 * frozen


def _lora_act_per_token_layer(s: TrainingSetup) -> float:
    """LoRA branch: lora_A's input (a dropout output + mask, an fp32 cast, or the shared 16-bit input) and
    lora_A's output (r values) per wrapped module (PEFT LoraLayer.forward; IBM fm-training-estimator lora.py), of
    the largest layer; in a stack of one-part blocks (Nemotron-H), whose blocks wrap different linears, the average
    block's."""
    m = s.model
    if m.mlp_blocks:
        return sum(n * _lora_act_of(s, lins) for n, lins in setup_targets(s)) / m.num_hidden_layers
    return _lora_act_of(s, wrapped_linears(s))


def _lora_act_of(s: TrainingSetup, wrapped: tuple[tuple[str, int, int, int], ...]) -> float:
    """``_lora_act_per_token_layer`` of one layer whose wrapped linears are ``wrapped``."""
    m = s.model
    ab = _adapter_bytes_per(s)
    cb = compute_bytes(s)
    k = m.num_experts_per_tok if m.num_local_experts > 0 else 1
    total = 0.0
    shared_seen: set[object] = set()
    # Without a cast or a dropout, o_proj's adapter reads the attention output that SDPA / flash attention already
    # save (transformers' ``attn_output.transpose(1, 2).contiguous()`` is a no-op on their (b, s, heads, d) output):
    # nothing more is kept. Eager attention's output is a fresh matmul result. Trace
    # lora-llama32-3b-all-bf16adapters-s4096.
    attention_out_saved = s.attention is not Attention.EAGER
    for name, di, _do, copies in wrapped:
        fan = k if copies > 1 else 1
        if _autocast_casts(s):
            # autocast casts the fp32 input to 16-bit for lora_A's matmul, which saves the cast (one per module);
            # a dropout first keeps its mask (its fp32 output is not saved)
            total += ((1 if s.lora_dropout > 0 else 0) + cb) * di * fan
        elif s.lora_dropout > 0:
            total += (ab + 1) * di * fan                 # dropout output + bool mask, per module
        elif ab != cb:
            total += ab * di * fan                       # cast copy of the input, per module
        elif name == "o_proj" and attention_out_saved:
            pass
        else:
            key = 0 if name in ("q_proj", "k_proj", "v_proj") else 1 if name in ("gate_proj", "up_proj") else name
            if key not in shared_seen:
                shared_seen.add(key)
                total += cb * di * fan                   # the base input itself, once per distinct tensor
        total += (cb if _autocast_casts(s) else ab) * s.lora_rank * fan    # lora_A output (16-bit under autocast)
    return total


def _head_act_per_token(s: TrainingSetup) -> float:
    """Final norm (fp32 input) and the lm_head input."""
    h = s.model.hidden_size
    cb = compute_bytes(s)
    lm_trainable = s.method is Method.FULL or "lm_head" in s.lora_targets
    saved = lm_trainable or lm_head_quantized(s)      # MatMul4Bit saves its input as well
    return 4 * h + (cb * h if saved else 0)


def _kbit_fp32_embeddings(s: TrainingSetup) -> bool:
    """QLoRA whose framework cast the embeddings and lm_head of a 16-bit base to fp32 (``kbit_upcast`` ``all`` or
    ``embeddings``): the embedding lookup returns fp32, so the residual stream (each residual add of an fp32 and a
    16-bit tensor) stays fp32, and under autocast the fp32 lm_head is cast to 16-bit for its matmul, which saves the
    cast for the input gradient. Oracle pair tests/data/kbit/ (a bf16 Llama 3.1 8B under autocast with its
    embeddings, norms and lm_head cast as prepare_model_for_kbit_training does): the cast adds the 2.10 GB of
    parameters, a 1.05 GB ``_to_copy`` of lm_head and fp32 ``add`` outputs (the checkpointed layer inputs)."""
    return (kbit_upcast_params(s) > 0 and s.kbit_upcast in (KbitUpcast.ALL, KbitUpcast.EMBEDDINGS)
            and base_bytes(s) < 4)


def _head_weight_cast_bytes(s: TrainingSetup) -> float:
    """An fp32 frozen lm_head under autocast: its 16-bit cast, saved for the input gradient (see
    _autocast_weight_casts_per_layer); an fp32 base, or the kbit cast of a 16-bit one (``_kbit_fp32_embeddings``);
    a quantised lm_head is dequantised instead."""
    kbit = _kbit_fp32_embeddings(s) and s.precision is Precision.MIXED
    if not (_autocast_casts(s) or kbit) or lm_head_quantized(s):
        return 0.0
    return 2.0 * s.model.vocab_size * s.model.hidden_size


def _scores_per_layer(s: TrainingSetup) -> int:
    """Attention scores of one layer: sequences x query heads x s²."""
    seqs = s.micro_batch_size * (2 if s.dpo else 1)
    return seqs * s.model.num_attention_heads * s.seq_len * s.seq_len


def _eager_per_layer(s: TrainingSetup) -> float:
    """Eager attention's saved scores, per layer averaged over the stack (a hybrid's other layers have none)."""
    if s.attention is not Attention.EAGER:
        return 0.0
    c = COEFFICIENTS
    per = c.eager_score_bytes_fp32 if s.precision is Precision.FP32 else c.eager_score_bytes_16bit
    m = s.model
    return _scores_per_layer(s) * per * attention_layers(m) / m.num_hidden_layers


def attention_backward_bytes(s: TrainingSetup) -> float:
    """Eager attention's softmax backward: per score of the layer being differentiated, 12 B are alive at once (the
    saved fp32 softmax output, the fp32 gradient of the probabilities and the softmax backward's output) where the
    forward saved 6 B (4 B in fp32): the rest is a transient on top of the saved activations
    (transformers eager_attention_forward; trace lora-llama2-7b-qv-eager-mb4-s2048-ckpt). A hybrid's linear layers
    have theirs instead (``linear_state_backward``): one layer is differentiated at a time, so the larger counts."""
    if s.attention is not Attention.EAGER:
        return linear_state_backward(s)
    c = COEFFICIENTS
    saved = c.eager_score_bytes_fp32 if s.precision is Precision.FP32 else c.eager_score_bytes_16bit
    return max(_scores_per_layer(s) * max(0.0, c.eager_backward_score_bytes - saved), linear_state_backward(s))


def _layer_activation_bytes(s: TrainingSetup) -> float:
    return (_tokens(s) * _act_per_token_layer(s) + _eager_per_layer(s) + _autocast_weight_casts_per_layer(s)
            + _merged_expert_weight_bytes(s))


def moe_notes(s: TrainingSetup) -> tuple[str, ...]:
    """What a MoE setup under the fused layout silently does not do (the answer's ``notes``, shown at the result):
    ``experts_not_quantized``, a QLoRA whose experts stay 16-bit (params.experts_left_16bit; Axolotl 0.15 and later
    quantises them with ``quantize_moe_experts``); ``experts_not_adapted``, LoRA that reaches the attention (and any
    shared expert) but no routed expert (PEFT 0.17 and later reaches them with ``target_parameters``)."""
    out: tuple[str, ...] = ()
    if experts_left_16bit(s):
        out += ("experts_not_quantized",)
    if s.method is not Method.FULL and experts_fused(s) and not s.lora_expert_params:
        out += ("experts_not_adapted",)
    return out


def _merged_expert_weight_bytes(s: TrainingSetup) -> float:
    """LoRA on fused experts (``lora_expert_params``), per layer averaged over the stack: PEFT 0.21.2 ParamWrapper
    (tuners/lora/layer.py ``_activate_lora``) folds the update into the weight through a parametrization, so each
    forward materialises ``W + delta`` for the whole (E, out, in) expert stack in the compute dtype, and the expert
    matmul saves that merged weight for the input gradient until the layer's backward: ``cb·E·Σ in·out`` per MoE
    layer whose activations are alive. Experts the framework quantised (``experts_quantized``) cost the same: they
    are a parametrization too (bitsandbytes 0.50.2 nn/parametrize.py ``replace_parameter_4bit``: ``Bnb4bitParametrization``
    dequantises the whole (E, out, in) tensor on access, cached for the module's forward by
    ``_enable_parametrization_cache``), and the expert matmuls save views of that dequantised stack for backward."""
    if not (expert_param_lora(s) or experts_quantized(s)):
        return 0.0
    m = s.model
    per_layer = compute_bytes(s) * m.num_local_experts * sum(di * do for di, do in _expert_tensors(m))
    return per_layer * moe_layers(m) / m.num_hidden_layers


def _checkpoint_bytes_per_token(s: TrainingSetup) -> int:
    """A checkpointed layer's input: the residual stream, fp32 when an fp32 base runs under autocast (its
    embeddings and residual adds stay fp32: trace lora-llama31-8b-all-fp32base-s2048-ckpt) or when the kbit cast
    made the embeddings fp32 (``_kbit_fp32_embeddings``), else compute dtype."""
    fp32 = _autocast_casts(s) or _kbit_fp32_embeddings(s)
    return s.model.hidden_size * (4 if fp32 else compute_bytes(s))


def activation_bytes(s: TrainingSetup) -> float:
    """Activations saved at the end of the forward pass, on the GPU. Not divided by data-parallel N (asmirnov
    "activations are not sharded"; ftune). Checkpointing keeps each layer's input only (Korthikanti 2022: 2sbh)."""
    L = s.model.num_hidden_layers
    tok = _tokens(s)
    head = tok * _head_act_per_token(s) + _head_weight_cast_bytes(s)
    if s.gradient_checkpointing:
        per_layer = tok * _checkpoint_bytes_per_token(s)
    else:
        per_layer = _layer_activation_bytes(s)
    if s.activation_offloading:
        kept = min(L, COEFFICIENTS.offload_layers_on_gpu)
        return kept * per_layer + head
    return L * per_layer + head


def activation_host_bytes(s: TrainingSetup) -> float:
    """Activations streamed to host RAM by activation offloading."""
    if not s.activation_offloading:
        return 0.0
    L = s.model.num_hidden_layers
    tok = _tokens(s)
    per_layer = tok * _checkpoint_bytes_per_token(s) if s.gradient_checkpointing else _layer_activation_bytes(s)
    return max(0.0, L - COEFFICIENTS.offload_layers_on_gpu) * per_layer


def recompute_bytes(s: TrainingSetup) -> float:
    """Gradient checkpointing: one layer's full activations, rebuilt during its backward."""
    if not s.gradient_checkpointing:
        return 0.0
    return _layer_activation_bytes(s)


def layer_backward_transient_bytes(s: TrainingSetup) -> float:
    """The first layer's backward beyond its saved activations (the last decoder layer: recomputed first under
    checkpointing, or holding its saved tensors without it), at the MLP's widest point, the backward of
    ``act(gate) * up`` (transformers LlamaMLP ``down_proj(act_fn(gate_proj(x)) * up_proj(x))``): down_proj's
    backward has turned the layer's output gradient (``h``, still alive) into the product's gradient (``i``) and
    released the product; the mul's backward then makes ``grad * up`` and ``grad * act(gate)`` while its saved
    ``act(gate)`` and ``up`` are held: ``2·i`` more than the saved count in a gated MLP, ``i`` in a plain one
    (``grad * act'`` beside the saved fc output). The head's saved tensors (final norm, lm_head input) were released
    by its own backward; when lm_head trains its gradient already exists (the engine holds a tied embedding's share
    until the embedding's backward adds the other): ``V·h`` in the gradient dtype, unless an accumulating step's
    gradient buffer already counts it. CUDA runs SiLU's backward as one fused kernel (``silu_backward``); a
    fake-tensor trace on a CPU-only build takes autograd's composite formula instead (five more ``[T, i]``
    temporaries: ESTIMATOR.md, "GRPO"). Oracle run of a 4-layer Qwen3-0.6B, full fine-tuning, 8 x 4,608 tokens,
    checkpointing, fused SiLU backward: 5.111 GB at the mul's backward; this model gives 5.096 GB."""
    m = s.model
    cb = compute_bytes(s)
    i, _gathered, _router = _mlp_act_widths(m)
    out = _tokens(s) * (cb * ((2 if m.mlp_gated else 1) * i + m.hidden_size) - _head_act_per_token(s))
    head_trains = s.method is Method.FULL or "lm_head" in s.lora_targets
    if (head_trains and s.grad_accum_steps == 1 and not s.optimizer_in_backward
            and s.sharding in (Sharding.NONE, Sharding.ZERO1)):
        out += m.vocab_size * m.hidden_size * _grad_dtype_bytes(s)
    return max(0.0, out)


def logits_loss_bytes(s: TrainingSetup) -> float:
    """Logits and cross-entropy buffers alive at the start of backward: b·s·V × bytes per element; or, with a fused
    linear cross-entropy, no logits at all (see _fused_ce_bytes)."""
    c = COEFFICIENTS
    if s.fused_linear_cross_entropy:
        return _fused_ce_bytes(s)
    n = _tokens(s) * s.model.vocab_size
    if s.chunked_cross_entropy:
        per = c.chunked_ce_bytes_compiled if s.torch_compile else c.chunked_ce_bytes
        return n * per * (2 if s.precision is Precision.FP32 else 1)
    if s.dpo:
        return n * c.dpo_backward_bytes_16bit * (2 if s.precision is Precision.FP32 else 1)
    return n * (c.ce_bytes_fp32 if s.precision is Precision.FP32 else c.ce_bytes_16bit)


def logits_forward_bytes(s: TrainingSetup) -> float:
    """Logits and loss buffers at the end of the forward, before the loss backward makes the logit gradients: the
    16-bit logits, their fp32 upcast and the log-softmax output (10 B; fp32 compute: logits + log-softmax, 8 B). A
    chunked or fused loss holds what logits_loss_bytes says already."""
    c = COEFFICIENTS
    if s.fused_linear_cross_entropy or s.chunked_cross_entropy:
        return logits_loss_bytes(s)
    n = _tokens(s) * s.model.vocab_size
    if s.dpo:
        per = c.dpo_forward_bytes_16bit - (2 if s.precompute_ref_log_probs else 0)
        return n * per * (2 if s.precision is Precision.FP32 else 1)
    return n * (c.ce_bytes_fp32 - 4 if s.precision is Precision.FP32 else c.ce_forward_bytes_16bit)


def kept_logits_bytes(s: TrainingSetup) -> float:
    """``keeps_logits``: the loop's own reference to the fp32 logits, alive from the first forward on."""
    if not s.keeps_logits or s.fused_linear_cross_entropy:
        return 0.0
    return _tokens(s) * s.model.vocab_size * COEFFICIENTS.kept_logits_bytes


def tied_grad_sum_bytes(s: TrainingSetup) -> float:
    """Full fine-tuning of a model with tied embeddings: the shared weight gets two gradients (from lm_head and from
    the embedding lookup) that autograd adds into a third tensor before accumulating it, at the very end of the
    backward: two V·h gradients more than the finished buffer holds (trace full-gemma-7b-bf16-s2048-ckpt: mm,
    embedding_dense_backward and add outputs, 3 x 1.46 GiB, at the peak)."""
    if s.method is not Method.FULL or not held_arch(s).tie_word_embeddings or s.optimizer_in_backward:
        return 0.0
    return 2.0 * s.model.vocab_size * s.model.hidden_size * _grad_dtype_bytes(s)


def _fused_ce_bytes(s: TrainingSetup) -> float:
    """lm_head and loss fused (Liger FusedLinearCrossEntropy, Apple Cut Cross-Entropy, Unsloth): the logits never
    exist whole. What the forward leaves for the backward: the gradient of the final hidden states (tokens·h, compute
    dtype), Liger's fp32 working chunk of logits (sized so that chunk·V ≈ tokens·h: ``chunk_size =
    next_power_of_2(ceil(BT / ceil(V / H)))``; Cut Cross-Entropy keeps only one fp32 log-sum-exp per token), and,
    when the lm_head trains, its gradient (V·h), computed in the forward by Liger."""
    c = COEFFICIENTS
    tok = _tokens(s)
    h = s.model.hidden_size
    cb = compute_bytes(s)
    total = tok * h * (cb + c.fused_ce_chunk_bytes)
    if s.method is Method.FULL or "lm_head" in s.lora_targets:
        total += s.model.vocab_size * h * (_grad_dtype_bytes(s) if s.method is Method.FULL else cb)
    return float(total)


def lora_adapter_bytes(s: TrainingSetup) -> float:
    """LoRA A/B matrices in the adapter dtype (sharded with the parameters under ZeRO-3)."""
    if s.method is Method.FULL:
        return 0.0
    w_shard, _, _ = _shards(s)
    return trainable_params(s) * _adapter_bytes_per(s) / w_shard


def dequant_transient_bytes(s: TrainingSetup) -> float:
    """QLoRA: the largest quantised weight dequantised to 16-bit for its matmul (bitsandbytes dequantize_4bit)."""
    if s.method is not Method.QLORA:
        return 0.0
    pc = count_params(held_arch(s))
    if s.qlora_backend is QloraBackend.TORCHAO:
        sizes = [di * do for _, di, do, _c in wrapped_linears(s)]
        biggest = max(sizes) if sizes else 0
    else:
        biggest = pc.largest_linear
    if lm_head_quantized(s):
        biggest = max(biggest, s.model.vocab_size * s.model.hidden_size)
    return biggest * dequant_bytes_per_weight(s)


def dequant_bytes_per_weight(s: TrainingSetup) -> int:
    """Bytes alive per element of a weight while MatMul4Bit dequantises it for its matmul (bitsandbytes 0.50.2
    autograd/_functions.py ``F.dequantize_4bit(B, quant_state).to(A.dtype)``, ``A`` the input after Linear4bit's
    ``x.to(self.compute_dtype)``): the dequantised weight in the dtype it was quantised from (the load dtype),
    its cast to the compute dtype, and, under autocast, ``F.linear``'s 16-bit cast of it. ``qlora_compute_dtype``
    fp32 (TRL): 4 + 2 from an fp32-loaded model, 2 + 4 + 2 from a 16-bit one; 2 at bf16 (``dequant_cast``: 2 + 2)."""
    if s.precision is Precision.FP32:
        return 4
    if s.qlora_compute_dtype is Precision.FP32:
        loaded = 4 if base_fp32(s) else 2
        autocast = 2 if s.precision is Precision.MIXED else 0
        return loaded + (4 if loaded != 4 else 0) + autocast
    return 2 * _dequant_copies(s)


def _dequant_copies(s: TrainingSetup) -> int:
    """bitsandbytes dequantises to the dtype the weight was quantised from (QuantState.dtype) and MatMul4Bit casts
    it to the compute dtype (``dequantize_4bit(B, state).to(A.dtype)``). Lightning Fabric quantises from fp16
    (``_Linear4bit._quantize_weight``: ``weight.to(dtype=torch.half)``), so under bf16 compute the fp16 and bf16
    copies are both alive during the cast: 2 weight-sized transients instead of 1."""
    if s.method is Method.QLORA and s.dequant_cast and s.qlora_backend is QloraBackend.BITSANDBYTES \
            and s.precision is not Precision.FP32:
        return 2
    return 1


def _head_dequant_bytes(s: TrainingSetup) -> float:
    """A quantised lm_head is dequantised again by its backward (MatMul4Bit.backward: dequantize_4bit(B) for the
    input gradient), the first op of the backward: its 16-bit weight is alive next to the logits and their
    gradient chunk."""
    if not lm_head_quantized(s):
        return 0.0
    return s.model.vocab_size * s.model.hidden_size * dequant_bytes_per_weight(s)


def reference_model_bytes(s: TrainingSetup) -> float:
    """DPO reference model: a frozen copy for full FT (TRL create_reference_model); none for LoRA/QLoRA (adapter
    disabled, TRL "Reference model considerations with PEFT") or with precompute_ref_log_probs."""
    if not s.dpo or s.precompute_ref_log_probs or s.method is not Method.FULL:
        return 0.0
    pc = count_params(held_arch(s))
    stored = pc.total * (2 if s.precision is Precision.BF16 else 4)
    w_shard, _, _ = _shards(s)
    if s.offload_params and s.sharding is Sharding.ZERO3:
        return 0.0
    return stored / w_shard


def _reference_forward_transient(s: TrainingSetup) -> float:
    """DPO's no_grad reference pass, on top of the policy's saved activations: the policy logits and their saved
    log-softmax (still alive), the reference model's own logits, and one layer of the reference forward at a time
    (its input, gate and up outputs: tokens·(h + 2i) in the compute dtype; nothing is saved without grad)."""
    if not s.dpo or s.precompute_ref_log_probs:
        return 0.0
    n = _tokens(s)
    m = s.model
    dense = m.intermediate_size if moe_layers(m) < m.num_hidden_layers else 0
    routed = m.num_experts_per_tok * expert_width(m) + m.shared_expert_intermediate_size if moe_layers(m) else 0
    cb = compute_bytes(s)
    layer = n * (m.hidden_size + 2 * max(dense, routed)) * cb
    return layer + n * m.vocab_size * cb * 3


# =====================================================================================================================
# Phases and the peak
# =====================================================================================================================
def _ranks_per_node(s: TrainingSetup) -> int:
    """GPUs (processes) on one node: ``gpus_per_node`` (None: 8, the reference servers' count)."""
    return min(s.num_gpus, s.gpus_per_node or 8)


def _host_ram_bytes(s: TrainingSetup) -> float:
    """Host RAM of one node in the steady state of training: offloaded optimizer states, master weights, gradients
    and parameters (each rank its 1/N share, so a node holds ranks/N of them), paged optimizer states at most all
    evicted, offloaded activations. DeepSpeed's ZeRO-Offload steps on the CPU with fp32 master weights, gradients and
    Adam states; FSDP's CPU offload (FSDP1 ``CPUOffload(offload_params=True)``: "offloads gradients to CPU as well,
    meaning that the optimizer step runs on CPU"; FSDP2 ``CPUOffloadPolicy``, pinned) keeps the parameters,
    gradients and states in the parameters' own dtype. Each process's own runtime footprint is not counted."""
    ranks = _ranks_per_node(s)
    share = ranks / s.num_gpus
    t = trainable_params(s)
    sharded = 0.0
    if s.cpu_offload:
        sharded += optimizer_state_total_bytes(s)
        if s.deepspeed or s.sharding is Sharding.NONE:
            if s.method is Method.FULL and s.precision is not Precision.FP32:
                sharded += 4.0 * t                       # fp32 master copy on the CPU (ZeRO-Offload)
            sharded += t * 4.0                           # fp32 gradients for the CPU optimizer step
        else:
            sharded += t * _grad_dtype_bytes(s) + (4.0 * t if fp32_trainable_master(s) else 0.0)
    if s.offload_params and s.sharding is Sharding.ZERO3:
        sharded += (stored_weight_bytes(s) or count_params(held_arch(s)).total * 2.0) - _unsharded_nf4_payload_bytes(s)
    return (sharded * share + paged_optimizer_state_bytes(s) * ranks + activation_host_bytes(s) * ranks)


def _host_ram_load_bytes(s: TrainingSetup) -> float:
    """Host RAM of one node while the model loads: each loading process builds the whole model on the CPU before it
    is moved or sharded onto its GPU (``from_pretrained`` without a device map; accelerate's FSDP wraps a CPU model).
    Under FSDP with ``cpu_ram_efficient_loading`` only the first rank of a node loads (accelerate 1.15.0
    utils/dataclasses.py ``FullyShardedDataParallelPlugin.cpu_ram_efficient_loading``, the others on the meta device),
    except FSDP2 with 4-bit parameters, which skips it (utils/fsdp_utils.py ``if
    fsdp2_plugin.cpu_ram_efficient_loading and not model_has_params4bit``). The model is held in its load dtype (fp32
    for an fp32 load or accelerate's FSDP2 upcast, which runs on the CPU copy before ``fully_shard``), QLoRA in its
    4-bit storage. Not modelled: QLoRA without FSDP, which bitsandbytes quantises straight onto the GPU (a device map),
    and DeepSpeed ZeRO-3, which partitions the model as it is built (``zero.Init``): each loads one checkpoint shard at
    a time. The data has no load-time figure: reasoned from the code, not checked."""
    quantized = s.method is Method.QLORA
    if s.deepspeed and s.sharding is Sharding.ZERO3:
        return 0.0
    if quantized and not _fsdp(s):
        return 0.0
    loaders = _ranks_per_node(s)
    if _fsdp(s) and s.cpu_ram_efficient_loading and not (s.fsdp_version == 2 and quantized):
        loaders = 1
    pc = count_params(held_arch(s))
    if s.method is Method.FULL:
        per = 4 if (fp32_trainable_master(s) or s.precision is Precision.FP32) else 2
        model = pc.total * per
    else:
        model = stored_weight_bytes(s) + trainable_params(s) * _adapter_bytes_per(s)
    return float(loaders * model)


@dataclass(frozen=True)
class _Terms:
    """Every component of one step, in bytes per GPU, before they are placed in phases."""

    weights: float            # resident base weights (+ the gathered ZeRO-3 working set)
    kbit: float               # QLoRA: the framework's fp32 cast of the parameters that are not 4-bit
    gathered: float           # the gathered ZeRO-3 working set alone (part of weights, not at the optimizer step)
    autocast: float           # 16-bit autocast copies of fp32 trainable weights (mixed full FT), forward to backward
    master: float
    grads: float              # the gradient buffer at the end of backward
    bucket: float             # DeepSpeed's ZeRO-3 gradient bucket, held in every phase
    states: float
    step_temp: float
    acts: float               # saved activations at the end of the forward
    recompute: float          # checkpointing: one layer rebuilt in backward
    layer_bwd_first: float    # the first layer's backward working set beyond its saved activations
    attn_bwd: float           # eager attention's softmax backward transient
    layer_bwd: float          # sharded gradients: a late layer's backward working set on top of the shards
    logits: float             # logits/loss buffers at the start of backward
    logits_fwd: float         # the same at the end of the forward
    kept_logits: float        # the loop's own reference to the logits
    tied_sum: float           # tied embeddings: the two gradients and their sum at the end of backward
    adapter: float
    deq: float                # QLoRA dequantisation transient
    head_deq: float           # a quantised lm_head dequantised again next to the logits
    ref: float                # DPO reference model
    ref_fwd: float            # DPO reference forward transient


def _terms(s: TrainingSetup) -> _Terms:
    return _Terms(
        weights=weights_bytes(s), kbit=kbit_upcast_bytes(s), gathered=_live_gathered_bytes(s), autocast=autocast_copy_bytes(s), master=master_copy_bytes(s),
        grads=gradient_bytes(s), bucket=grad_bucket_bytes(s), states=optimizer_state_bytes(s),
        step_temp=optimizer_step_temp_bytes(s), acts=activation_bytes(s), recompute=recompute_bytes(s),
        layer_bwd_first=layer_backward_transient_bytes(s),
        attn_bwd=attention_backward_bytes(s), layer_bwd=layer_backward_bytes(s), logits=logits_loss_bytes(s), logits_fwd=logits_forward_bytes(s),
        kept_logits=kept_logits_bytes(s), tied_sum=tied_grad_sum_bytes(s), adapter=lora_adapter_bytes(s),
        deq=dequant_transient_bytes(s), head_deq=_head_dequant_bytes(s), ref=reference_model_bytes(s),
        ref_fwd=_reference_forward_transient(s),
    )


def _phase_components(s: TrainingSetup, t: _Terms) -> dict[Phase, dict[str, float]]:
    """What is alive at each phase of a steady-state step, by breakdown key."""
    g_end = t.grads + t.bucket
    # gradients of earlier micro-batches stay alive through the next forward/backward (gradient accumulation)
    g_early = (t.grads if (s.grad_accum_steps > 1 and not s.optimizer_in_backward) else 0.0) + t.bucket
    held = {"weights": t.weights, "kbit_upcast": t.kbit, "master_copy": t.master, "optimizer_states": t.states, "lora_adapter": t.adapter,
            "reference_model": t.ref}
    comps: dict[Phase, dict[str, float]] = {}
    comps[Phase.FORWARD] = {**held, "weights": t.weights + t.autocast, "gradients": g_early,
                            "activations": t.acts, "logits_loss": t.logits_fwd, "dequant_transient": t.deq}
    # the start of backward is the largest of: the loss backward (logit gradients, a quantised lm_head dequantised
    # again) and the first layer's backward (recomputed under checkpointing, with its MLP's gradients and, when
    # lm_head trains, lm_head's gradient: layer_backward_transient_bytes) with eager attention's softmax backward
    loss_first = t.logits + t.head_deq
    layer_first = t.recompute + t.deq + t.attn_bwd + t.layer_bwd_first
    logits_first = loss_first >= layer_first
    comps[Phase.BACKWARD_START] = {
        **held, "weights": t.weights + t.autocast, "gradients": g_early,
        "activations": t.acts + (0.0 if logits_first else layer_first),
        "logits_loss": (t.logits if logits_first else 0.0) + t.kept_logits,
        "dequant_transient": t.head_deq if logits_first else 0.0,
    }
    # the end of the backward: every gradient (a tied embedding's two parts and their sum), or, with sharded
    # gradients, a late layer's backward on top of the shards
    late_layer = t.layer_bwd > t.tied_sum
    comps[Phase.BACKWARD_END] = {**held, "gradients": g_end + (0.0 if late_layer else t.tied_sum),
                                 "activations": t.layer_bwd if late_layer else 0.0, "logits_loss": t.kept_logits}
    if not s.optimizer_in_backward:
        # the gathered ZeRO-3 working set is released (resharded) when the backward ends
        comps[Phase.OPTIMIZER_STEP] = {**held, "weights": t.weights - t.gathered, "gradients": g_end,
                                       "optimizer_temp": t.step_temp, "logits_loss": t.kept_logits}
    if t.ref_fwd:
        comps[Phase.REFERENCE_FORWARD] = {**held, "gradients": g_early, "activations": t.acts,
                                          "logits_loss": t.ref_fwd, "dequant_transient": t.deq}
    return comps


#: ties resolve to the later phase in the step (a full FT peak at the end of backward, then the optimizer)
_PHASE_ORDER = (Phase.REFERENCE_FORWARD, Phase.FORWARD, Phase.BACKWARD_START, Phase.BACKWARD_END,
                Phase.OPTIMIZER_STEP)


def _allocated_components() -> tuple[str, ...]:
    """The components inside PyTorch's allocated memory (vocab.COMPONENTS less the reserve and the context)."""
    return tuple(c for c in vocab.COMPONENTS if c not in vocab.OUTSIDE_ALLOCATOR)


def _peak(comps: dict[Phase, dict[str, float]]) -> tuple[Phase, int, dict[str, int]]:
    """The peak phase, its allocated bytes and its breakdown (integers that sum exactly to the peak)."""
    phases = {ph: int(sum(v.values())) for ph, v in comps.items()}
    peak_phase, allocated = Phase.FORWARD, -1
    for ph in _PHASE_ORDER:
        v = phases.get(ph)
        if v is not None and v >= allocated:
            allocated, peak_phase = v, ph
    breakdown = {k: int(comps[peak_phase].get(k, 0.0)) for k in _allocated_components()}
    breakdown["activations"] += allocated - sum(breakdown.values())     # int() rounding: keep the sum exact
    return peak_phase, allocated, breakdown


def _fsdp_stream_pools(s: TrainingSetup) -> bool:
    """FSDP (not DeepSpeed) with parameters or gradients sharded over several GPUs: its collectives allocate on their
    own CUDA streams."""
    return s.sharding in (Sharding.ZERO2, Sharding.ZERO3) and s.num_gpus > 1 and not s.deepspeed


def allocator_reserve_bytes(s: TrainingSetup, t: _Terms, comps: dict[Phase, dict[str, float]],
                            allocated: int) -> int:
    """The caching allocator's reserve above the allocated peak.

    Fragmentation comes from the allocations that churn (activations, logits, gradients, temporaries), not from
    tensors allocated once at load time: a fitted share of the churn (``allocator_reserve_fraction``).

    Under FSDP the allocator also keeps one pool of cached blocks per CUDA stream: a freed block is reused only by
    an allocation on the stream it was made on (c10/cuda/CUDACachingAllocator.cpp ``get_free_block``: a cached block
    of another stream does not match). FSDP allocates the all-gathered parameters on its unshard / all-gather stream
    and the reduce-scatter outputs, which become the sharded gradients, on its post-backward / reduce-scatter stream
    (FSDP1 torch/distributed/fsdp/_runtime_utils.py ``_unshard`` under ``state._unshard_stream`` and
    ``_post_backward_hook`` under ``state._post_backward_stream``; FSDP2 ``foreach_all_gather`` /
    ``foreach_reduce`` on their streams). Those pools never lend their blocks to the compute stream, so the reserve
    is the sum of the three pools' own peaks, not the peak of their sum: the compute stream's peak (every phase
    without the gathered parameters and the sharded gradients), plus the gathered working set, plus the gradient
    shards with one unit's unsharded gradients."""
    c = COEFFICIENTS
    static = t.weights - t.gathered + t.kbit + t.master + t.states + t.adapter + t.ref + t.bucket
    if not _fsdp_stream_pools(s):
        return int(max(0.0, allocated - static - t.gathered) * c.allocator_reserve_fraction)
    sharded_grads = s.sharding in (Sharding.ZERO2, Sharding.ZERO3)
    compute_peak = 0.0
    for ph, parts in comps.items():
        on_compute = sum(parts.values()) - (t.gathered if ph is not Phase.OPTIMIZER_STEP else 0.0)
        if sharded_grads:
            on_compute -= parts.get("gradients", 0.0)
        compute_peak = max(compute_peak, on_compute)
    pools = compute_peak + t.gathered + (t.grads + t.bucket if sharded_grads else 0.0)
    fragmentation = max(0.0, compute_peak - static) * c.allocator_reserve_fraction
    return int(max(0.0, pools - allocated) + fragmentation)


def estimate(s: TrainingSetup, logits: tuple[float, float] | None = None) -> Estimate:
    """Peak per-GPU memory and its breakdown at the peak phase. ``logits``: a trainer's own loss head in place of the
    logits/loss terms, as (end of forward, start of backward) bytes (GRPO's fused chunked lm_head, calculator/rl.py)."""
    c = COEFFICIENTS
    pc = count_params(held_arch(s))
    t = _terms(s)
    if logits is not None:
        t = replace(t, logits_fwd=logits[0], logits=logits[1])
    comps = _phase_components(s, t)
    peak_phase, allocated, breakdown = _peak(comps)
    reserve = allocator_reserve_bytes(s, t, comps, allocated)
    context = c.cuda_context_bytes if s.cuda_context_bytes is None else s.cuda_context_bytes
    outside = {"allocator_reserve": reserve, "cuda_context": context}
    breakdown = {k: outside[k] if k in outside else breakdown[k] for k in vocab.COMPONENTS}   # the vocabulary's order
    reserved = allocated + reserve
    peak = reserved + context
    trainable = trainable_params(s)
    stored_ckpt = pc.total * (4 if s.precision in (Precision.FP32, Precision.MIXED) and s.method is Method.FULL
                              else 2)
    notes = (("paged_states_excluded",) if _paged(s) and not s.cpu_offload else ()) + moe_notes(s)
    paged = int(paged_optimizer_state_bytes(s))
    return Estimate(
        peak_bytes=peak,
        allocated_bytes=allocated,
        reserved_bytes=reserved,
        low_bytes=likely_range(peak)[0],
        high_bytes=likely_range(peak)[1],
        phase=peak_phase,
        phases={ph.value: int(sum(v.values())) for ph, v in comps.items()},
        breakdown=breakdown,
        params=pc.total,
        trainable_params=trainable,
        host_ram_bytes=int(_host_ram_bytes(s)),
        host_ram_load_bytes=int(_host_ram_load_bytes(s)),
        paged_optimizer_bytes=paged,
        driver_bytes=peak + paged,
        checkpoint_bytes=int(stored_ckpt),
        adapter_bytes=int(0 if s.method is Method.FULL else trainable * _adapter_bytes_per(s)),
        optimizer_state_file_bytes=int(optimizer_state_total_bytes(s)),
        notes=notes,
    )
