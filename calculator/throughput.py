"""Time and cost of a fine-tuning run: FLOPs and bytes of one training step from the architecture, divided by what
the card sustains.

Two layers, so that the calibration can refit the few efficiencies without recounting the physics:

* ``step_counts(setup, gpu)`` counts, per GPU, what one optimizer step does: the FLOPs of every matmul (with the
  bytes it moves), attention, the recomputed forward of gradient checkpointing, QLoRA's dequantisation, the
  element-wise traffic, the optimizer's sweep over its states, the kernels the host has to launch, the bytes sent
  to the other GPUs and to the host. Pure counting: no efficiency in it.
* ``step_time(counts, gpu, coefficients)`` turns the counts into seconds with the card's dense 16-bit tensor peak,
  its memory bandwidth and its links, and the efficiencies in ``COEFFICIENTS`` (fitted on the published
  measurements in ``benchmarks/data/throughput/throughput.csv``; each names its source rows).

``throughput(setup, gpu)`` and ``run_time(setup, gpu, workload)`` give the figures the API returns;
``result_json(setup, options, result)`` adds them to an API result.
Standard library only (CPython and Pyodide); nothing here does I/O. Formulas and sources: ESTIMATOR.md "Time and
cost".

Vocabulary: ``M`` tokens of one micro-batch on one GPU (all its sequences), ``s`` tokens per sequence, ``b``
sequences per micro-batch, ``h`` hidden size, ``a`` query heads, ``d`` head dim, ``L`` layers, ``V`` vocabulary,
``N`` GPUs, ``GA`` gradient-accumulation steps.
"""
from __future__ import annotations

import math
from bisect import bisect_left
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from .memory import (
    activation_bytes,
    activation_host_bytes,
    count_params,
    estimate as memory_estimate,
    trainable_params,
)
from .models import (
    Attention,
    GpuSpec,
    Method,
    ModelArch,
    Optimizer,
    Precision,
    QloraBackend,
    Sharding,
    TrainingSetup,
)

__all__ = [
    "effective_setup",
    "COEFFICIENTS",
    "Coefficients",
    "Workload",
    "StepCounts",
    "StepTime",
    "ThroughputError",
    "step_counts",
    "step_time",
    "throughput",
    "computed_tokens_per_example",
    "run_time",
    "flops_per_token",
    "result_json",
    "time_table",
]


# =====================================================================================================================
# Coefficients: every efficiency, with the rows it was fitted on (benchmarks/throughput.py --fit reproduces them)
# =====================================================================================================================
@dataclass(frozen=True)
class Coefficients:
    """Every efficiency of the time model. "Fitted": by ``python benchmarks/throughput.py --fit`` (a coordinate
    search over the usable rows of benchmarks/data/throughput/throughput.csv, from neutral starting values; it
    reproduces these figures and lists the rows each one moves by more than 5 % when scaled by 1.25 -- the rows named
    below). Everything else is a count or a sourced constant."""

    # --- the GPU -------------------------------------------------------------------------------------------------
    # Share of the dense 16-bit tensor peak that large GEMMs sustain: 0.78, measured by PyTorch on H100 with large
    # inputs (pytorch/ao torchao/testing/training/roofline_utils.py @0598012, "pct_achievable_gemm_tops"). Not
    # fitted (a free fit on every usable row lands at 0.76-0.80).
    matmul_efficiency: float = 0.78
    # Share of the datasheet memory bandwidth that streaming kernels reach: 0.92 (same file, "pct_achievable_mem_bw",
    # point-wise Triton kernels with large inputs). Not fitted: it trades off exactly with elementwise_traffic.
    bandwidth_efficiency: float = 0.92
    # Share of the peak that attention kernels sustain, causal half counted (FlashAttention-2 reports 50-73 % of an
    # A100's peak forward). Fitted; moves only the long-context rows MF-10, MF-11, MF-28 (32k-65k tokens), so it
    # is the least certain figure here.
    attention_efficiency: float = 0.75
    # Element-wise traffic (norms, activations, rotary, residuals, casts, dropout) as a multiple of the bytes the
    # layers save for backward (memory.activation_bytes): eager PyTorch reads and writes each saved tensor several
    # times in the forward and the backward. Fitted; moves 43 rows, mostly bandwidth-poor cards and small models:
    # PF-*, MF-01/02/04/07/08/19/20/31/34, QW-02/05/06/13/14/16/19/21/22/31/32/34, AA-17/19/23/31/32, UN-*,
    # LG-T*, PS-*.
    elementwise_traffic: float = 11.0
    # --- the host ------------------------------------------------------------------------------------------------
    # Host time per launched kernel in eager PyTorch (Python dispatch, autograd, launch), kernels counted below.
    # Fitted on the small-batch rows PF-04/05/07/08/10/11 and QW-01/02/05/07/10/11/18/19/29/38.
    kernel_launch_s: float = 1.8e-05
    # DeepSpeed ZeRO-3 host time per decoder layer per pass (parameter fetch/release hooks). Fitted on QW-07, QW-08,
    # QW-23, QW-24 (Qwen full fine-tuning under ZeRO-3, 256-2048 tokens).
    zero3_layer_s: float = 0.0025
    # How GPU and host time combine per micro-batch: (gpu^p + host^p)^(1/p); p = 1 adds them, a large p takes the
    # slower. Fitted on the same small-batch rows (PF-*, QW-02/05/08/10/11/18/19/24/29/38).
    overlap_p: float = 1.5
    # --- links ---------------------------------------------------------------------------------------------------
    # Share of the per-direction link bandwidth that collectives reach. PCIe (through the host bridge; GeForce cards
    # have no peer-to-peer): fitted on TT-03/05, AA-02/03/04/15/16/20/22/25/26/28/29 (FSDP over PCIe on RTX 3090,
    # 4090, A5000, 6000 Ada; the rigs differ by 3x, see ESTIMATOR.md). NVLink: fitted on MF-05, QW-23, QW-24.
    # Network (more than 8 GPUs): fitted on MF-14, MF-16, MF-37.
    pcie_efficiency: float = 0.1
    nvlink_efficiency: float = 0.5
    network_efficiency: float = 1.0
    # Share of the communication that hides behind compute (FSDP prefetches gathers, DDP overlaps reductions with
    # the backward): exposed = max(0, comm - overlap * compute) + (1 - overlap) * min(comm, overlap * compute).
    # Fitted on MF-05/14/16, AA-02/15/16/20/22/25.
    comm_overlap: float = 0.4
    # Share of the PCIe link that host<->GPU copies reach when paged optimizer states are evicted and brought back,
    # weights or activations are offloaded. Fitted on TT-04 and TT-09 (paged AdamW on a 24/48 GB card).
    host_link_efficiency: float = 0.3
    # Beyond one node (more than gpus_per_node GPUs) collectives cross the network: the card's ``network_gb_s`` (its
    # reference server's InfiniBand adapters per GPU), or this for cards without one (100 Gb/s Ethernet).
    internode_gb_s: float = 12.5
    gpus_per_node: int = 8
    # --- offloaded optimizer ---------------------------------------------------------------------------------------
    # A CPU AdamW step (DeepSpeed cpu_adam) streams per parameter the fp32 weight, gradient and two moments in and the
    # weight, moments and a 16-bit copy out: 30 bytes, over the host's memory bandwidth, taken as dual-channel
    # DDR4-3200 (2 x 25.6 GB/s, JEDEC). No calibration row offloads a full fine-tune's optimizer: not checked.
    cpu_adam_bytes_per_param: float = 30.0
    host_memory_gb_s: float = 51.2
    # Kernels a torch.compile'd layer launches, as a share of the eager count: Inductor fuses the point-wise ops of
    # a layer into a few kernels, the matmuls and attention stay. A count, not fitted.
    compile_kernel_share: float = 0.35
    # --- range ---------------------------------------------------------------------------------------------------
    # Low-high range of tokens per second: the 10th and 90th percentiles of the signed error over the usable rows
    # (-23.8 % and +35.9 %: measured = estimate / (1 + error); printed by --fit), so 8 rows in 10 lie inside it.
    # Times scale the other way.
    range_low: float = 0.74
    range_high: float = 1.31


COEFFICIENTS = Coefficients()


# =====================================================================================================================
# Kernel counts per decoder layer (eager PyTorch, transformers' LlamaDecoderLayer), used for host time only.
# Forward: two RMSNorms (8 kernels each: upcast, pow, mean, add, rsqrt, mul, downcast, weight), 4 attention
# projections, rotary embedding on q and k (10), repeat_kv, attention and the output reshape (4), two residual
# adds, a gated MLP (gate, up, act, mul, down: 5; a plain MLP 3) = 40. Backward: about two kernels per forward
# kernel, less the weight-gradient matmuls of frozen weights. LoRA per wrapped module (PEFT LoraLayer.forward):
# input cast, lora_A, lora_B, scaling, add (5) forward; scaling, two input and two weight gradients, cast, add
# (7) backward.
# bitsandbytes QLoRA: one dequantisation kernel per quantised linear in each forward and backward.
# =====================================================================================================================
_KERNELS_FWD_BASE = 40
_KERNELS_BWD_PER_FWD = 2.0
_KERNELS_LORA_FWD = 5
_KERNELS_LORA_BWD = 7


class ThroughputError(ValueError):
    """A time the estimator cannot compute honestly; ``code`` says why."""

    def __init__(self, code: str, field: str | None = None) -> None:
        super().__init__(code, field)
        self.code = code
        self.field = field


@dataclass(frozen=True, kw_only=True)
class Workload:
    """The training data: ``dataset_tokens``, or ``dataset_examples`` with ``mean_tokens_per_example``; ``epochs``.
    DPO: an example is one preference pair, ``mean_tokens_per_example`` the tokens of one of its two sequences
    (prompt + completion); ``dataset_tokens`` counts both sequences of every pair."""

    dataset_tokens: int | None = None
    dataset_examples: int | None = None
    mean_tokens_per_example: float | None = None
    epochs: float = 1.0


# =====================================================================================================================
# Counting (physics)
# =====================================================================================================================
@dataclass(frozen=True)
class StepCounts:
    """What one optimizer step does on one GPU. Per micro-batch unless named per step."""

    tokens: float                 # computed tokens per micro-batch (every sequence, DPO's two per pair)
    micro_batches: int            # GA
    matmuls: tuple[tuple[float, float], ...]   # (FLOPs, bytes) of each matmul group, per micro-batch
    attention_flops: float        # score and value matmuls, forward + backward (+ recompute)
    elementwise_bytes: float      # activations saved for backward (memory.py's count): scaled by elementwise_traffic
    loss_bytes: float             # cross-entropy's fp32 logits, log-softmax and gradient, written and read
    dequant_bytes: float          # QLoRA: NF4 read + 16-bit write per dequantised weight, per micro-batch
    kernels: float                # kernels launched per micro-batch (host time)
    zero3_layer_passes: float     # DeepSpeed ZeRO-3: decoder layers fetched per micro-batch
    comm_bytes: float             # bytes each GPU sends over the GPU links per micro-batch (gathers, reductions)
    comm_step_bytes: float        # ... per optimizer step (DDP all-reduce, ZeRO-1/2 reduction at the step)
    link_gb_s: float              # per-direction GPU-to-GPU bandwidth of this setup (GB/s)
    link_kind: str                # "nvlink" | "pcie" | "network" | "none"
    host_bytes: float             # bytes over the host link per micro-batch (offloaded parameters, activations)
    host_step_bytes: float        # ... per optimizer step (offloaded optimizer: gradients out, weights back in)
    paging_bytes: float           # paged optimizer states evicted and brought back per step (overlaps the compute)
    host_gb_s: float              # per-direction host link (PCIe) bandwidth
    optimizer_bytes: float        # the GPU optimizer's sweep over parameters, gradients and states, per step
    cpu_optimizer_params: float   # parameters stepped on the host per step (CPU offload), node total
    model_flops: float            # forward + backward FLOPs per micro-batch, no recompute (for MFU)
    total_flops: float            # everything computed per micro-batch (recompute, DPO reference included)
    peak_bytes: float = 0.0       # memory.py's peak, when paged optimizer states may have to be evicted
    paged_bytes: float = 0.0      # paged optimizer states (bytes) that live in unified memory
    # The matmul groups sorted by arithmetic intensity (FLOPs per byte), with the FLOPs of the groups from each
    # position on and the bytes of the groups before it (``_roofline``): a card times them with one bisection.
    roofline: tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]] = ((), (0.0,), (0.0,))


def _roofline(matmuls: tuple[tuple[float, float], ...]) -> tuple[tuple[float, ...], tuple[float, ...],
                                                                 tuple[float, ...]]:
    """Sum over groups of max(FLOPs / c, bytes / b) = FLOPs of the groups whose intensity is at least c / b, over c,
    plus bytes of the others, over b. Returns (intensities ascending, FLOPs from position i on, bytes before i)."""
    groups = sorted(((f / by if by > 0 else math.inf), f, by) for f, by in matmuls)
    flops_from = [0.0] * (len(groups) + 1)
    bytes_before = [0.0] * (len(groups) + 1)
    for i in range(len(groups) - 1, -1, -1):
        flops_from[i] = flops_from[i + 1] + groups[i][1]
    for i, g in enumerate(groups):
        bytes_before[i + 1] = bytes_before[i] + g[2]
    return tuple(g[0] for g in groups), tuple(flops_from), tuple(bytes_before)


def _head_dim(m: ModelArch) -> int:
    return m.head_dim if m.head_dim else m.hidden_size // m.num_attention_heads


def _wrapped(s: TrainingSetup) -> tuple[tuple[str, int, int, int], ...]:
    if s.method is Method.FULL:
        return ()
    return tuple(x for x in count_params(s.model).linears if x[0] in s.lora_targets)


def _quantized_linear_params(s: TrainingSetup) -> float:
    """Weights stored in 4 bits (per GPU before sharding): every decoder linear (bitsandbytes) or the LoRA-wrapped
    ones (torchao, torchtune); lm_head too when ``quantize_lm_head``."""
    if s.method is not Method.QLORA:
        return 0.0
    pc = count_params(s.model)
    if s.qlora_backend is QloraBackend.TORCHAO:
        per = sum(di * do * c for _, di, do, c in _wrapped(s))
    else:
        per = pc.layer_linear
    head = s.model.vocab_size * s.model.hidden_size if (s.quantize_lm_head and s.qlora_backend is
                                                         QloraBackend.BITSANDBYTES) else 0
    return float(per * s.model.num_hidden_layers + head)


def _optimizer_sweep_bytes_per_param(s: TrainingSetup) -> float:
    """Bytes the optimizer step reads and writes per trainable parameter, counted from the implementations
    (gradient-norm clipping's read of the gradients included):

    * foreach AdamW (torch/optim/adamw.py ``_multi_tensor_adamw``): lerp m (3 accesses), mul v (2), addcmul v (3),
      sqrt v (2), div (2), add eps (2), addcdiv p (4), weight decay mul p (2) = 20 accesses of the parameter dtype;
    * fused AdamW (one kernel): read p, g, m, v, write p, m, v = 7 accesses;
    * bitsandbytes 8-bit AdamW: 16-bit p and g, 1-byte m and v, read and write = 10 bytes;
    * paged 32-bit AdamW: 16-bit p and g, fp32 m and v = 22 bytes;
    * SGD: read p and g, write p (3 accesses); with momentum 5; Adafactor about 12.
    Mixed precision keeps fp32 master weights and states (4-byte accesses) and writes the 16-bit copy (+2)."""
    if s.method is Method.FULL:
        b = 4 if s.precision is not Precision.BF16 else 2
    else:
        b = 4 if s.lora_dtype is Precision.FP32 else 2
    o = s.optimizer
    if o is Optimizer.ADAMW_TORCH:
        n = 20 * b
    elif o is Optimizer.ADAMW_TORCH_FUSED:
        n = 7 * b
    elif o in (Optimizer.ADAMW_8BIT, Optimizer.PAGED_ADAMW_8BIT):
        n = 10.0
    elif o is Optimizer.PAGED_ADAMW_32BIT:
        n = 22.0
    elif o is Optimizer.SGD:
        n = 3 * b
    elif o is Optimizer.SGD_MOMENTUM:
        n = 5 * b
    else:   # Adafactor: factored second moment, a few sweeps over p and g
        n = 6 * b
    if s.method is Method.FULL and s.precision is Precision.MIXED:
        n += 2
    return float(n + b)   # + gradient-norm clipping's read of the gradients


def _sequence(s: TrainingSetup) -> tuple[float, float]:
    """(sequences per micro-batch, tokens per sequence) of what the GPU computes."""
    seqs = s.micro_batch_size * (2 if s.dpo else 1)
    return float(seqs), float(s.seq_len)


def _link(s: TrainingSetup, gpu: GpuSpec) -> tuple[float, str]:
    c = COEFFICIENTS
    if s.num_gpus <= 1:
        return 0.0, "none"
    if s.num_gpus > c.gpus_per_node:
        return gpu.network_gb_s or c.internode_gb_s, "network"
    if gpu.nvlink and gpu.interconnect_gb_s:
        return gpu.interconnect_gb_s, "nvlink"
    return gpu.host_link_gb_s or 16.0, "pcie"


@lru_cache(maxsize=512)
def step_counts(s: TrainingSetup, gpu: GpuSpec) -> StepCounts:
    """Count the work of one optimizer step on one GPU (no efficiencies; see module docstring). The card only
    decides the links (NVLink, PCIe, network) and whether paged optimizer states fit; the rest is counted once per
    setup."""
    w = _work(s)
    link, kind, paging, host_gb_s = _card_terms(w, s, gpu)
    return replace(w, link_gb_s=link, link_kind=kind, paging_bytes=paging, host_gb_s=host_gb_s)


def _card_terms(w: StepCounts, s: TrainingSetup, gpu: GpuSpec) -> tuple[float, str, float, float]:
    """What the card changes in a setup's counts: its GPU link (bandwidth, kind), the paged optimizer bytes that do
    not fit beside the peak, and its host link."""
    link, kind = _link(s, gpu)
    paging = 0.0
    if w.paged_bytes:
        over = w.peak_bytes + w.paged_bytes - gpu.memory_bytes
        if over > 0:
            paging = 2.0 * min(over, w.paged_bytes)
    return link, kind, paging, gpu.host_link_gb_s or 16.0


@lru_cache(maxsize=64)
def _work(s: TrainingSetup) -> StepCounts:
    m = s.model
    pc = count_params(m)
    L = m.num_hidden_layers
    h, V = m.hidden_size, m.vocab_size
    d = _head_dim(m)
    a = m.num_attention_heads
    seqs, sl = _sequence(s)
    M = seqs * sl
    full = s.method is Method.FULL
    gc = s.gradient_checkpointing
    cb = 4 if s.precision is Precision.FP32 else 2
    experts_active = m.num_experts_per_tok if m.num_local_experts > 0 else 1
    fwd_passes = 1 + (1 if gc else 0)                      # forward, and the recomputed forward
    ref = 1 if (s.dpo and not s.precompute_ref_log_probs) else 0   # DPO reference forward (no grad)

    # --- matmuls of the decoder layers: forward 2·M·din·dout; backward: input gradient 2·M·din·dout, and the
    # weight gradient 2·M·din·dout when the weight trains. Bytes: the weight (16-bit) and the activations in/out.
    matmuls: list[tuple[float, float]] = []
    model_flops = 0.0
    for name, di, do, copies in pc.linears:
        active = experts_active if copies > 1 else 1
        f1 = 2.0 * M * di * do * active                     # one pass over all tokens
        wbytes = 2.0 * di * do * copies                     # the weights are read whatever the routing
        abytes = cb * M * (di + do) * active
        passes = fwd_passes + 1 + (1 if full else 0) + ref  # fwd (+recompute) + input grad (+ weight grad) (+ref)
        matmuls.append((f1 * passes * L, (wbytes + abytes) * passes * L))
        model_flops += f1 * (2 + (1 if full else 0)) * L
    # router of a MoE layer (tiny)
    if m.num_local_experts > 0:
        f1 = 2.0 * M * h * m.num_local_experts
        matmuls.append((f1 * (fwd_passes + 2 + ref) * L, 0.0))
    # LoRA adapters: A (din x r) and B (r x dout): forward, input and weight gradients = 3 passes (+recompute).
    # Rank-r matmuls are bandwidth-bound: each pass reads the input, writes and reads the r-wide middle, and
    # updates the output.
    r = s.lora_rank
    lora_passes = 3 + (1 if gc else 0)
    for _name, di, do, copies in _wrapped(s):
        active = experts_active if copies > 1 else 1
        f1 = 2.0 * M * r * (di + do) * active
        matmuls.append((f1 * lora_passes * L, cb * M * (di + 2 * r + 2 * do) * active * lora_passes * L))
        model_flops += f1 * 3 * L
    # lm_head (tied or not): forward, input gradient, weight gradient when it trains; DPO reference forward
    f1 = 2.0 * M * h * V
    head_passes = 2 + (1 if full else 0) + ref
    matmuls.append((f1 * head_passes, (2.0 * h * V + cb * M * (h + V)) * head_passes))
    model_flops += f1 * (2 + (1 if full else 0))
    if "lm_head" in s.lora_targets and not full:
        f1r = 2.0 * M * r * (h + V)
        matmuls.append((f1r * 3, 0.0))
        model_flops += f1r * 3

    # --- attention scores and values: 2 matmuls of 2·s_ctx·a·d FLOPs per token. Flash/SDPA kernels skip the
    # masked half of a causal sequence (s_ctx = s/2) and their backward recomputes the scores: 2.5 x forward
    # (FlashAttention-2 paper, §3.1); eager computes the full s x s matrix and its backward is 2 x forward.
    if s.attention is Attention.EAGER:
        att_fwd = 4.0 * M * sl * a * d
        att_bwd = 2.0 * att_fwd
    else:
        att_fwd = 4.0 * M * (sl / 2.0) * a * d
        att_bwd = 2.5 * att_fwd
    attention = (att_fwd * (fwd_passes + ref) + att_bwd) * L
    model_flops += (att_fwd + att_bwd) * L

    # --- element-wise traffic: a multiple of the activations the layers save (memory.py counts them per token);
    # gradient checkpointing replays the forward's share (half) once more; eager attention adds its fp32 s x s
    # scores, which memory.activation_bytes already counts.
    s_act = replace(s, gradient_checkpointing=False, activation_offloading=False, dpo=False,
                    precompute_ref_log_probs=False, micro_batch_size=max(1, int(seqs)))
    acts = activation_bytes(s_act)
    elementwise = acts * (1.0 + (0.5 if gc else 0.0) + 0.5 * ref)
    # loss: the fp32 logits, their log-softmax and gradient, each written and read once (3 fp32 tensors)
    loss = 0.0 if s.fused_linear_cross_entropy else M * V * 4.0 * 3 * 2

    # --- QLoRA: each forward and backward dequantises every quantised weight (read 4-bit + constants, write
    # 16-bit); bitsandbytes MatMul4Bit.forward and .backward call dequantize_4bit; torchao NF4 likewise.
    q = _quantized_linear_params(s)
    dequant = q * (0.5 + 2.0) * (fwd_passes + 1 + ref)

    # --- host side: kernels launched per micro-batch
    per_layer_fwd = _KERNELS_FWD_BASE + (0 if m.mlp_gated else -2)
    per_layer = per_layer_fwd * (fwd_passes + ref) + per_layer_fwd * _KERNELS_BWD_PER_FWD - (
        0 if full else len(pc.linears))
    n_wrapped = len(_wrapped(s))
    per_layer += n_wrapped * (_KERNELS_LORA_FWD * fwd_passes + _KERNELS_LORA_BWD)
    if s.method is Method.QLORA:
        n_q = len(pc.linears) if s.qlora_backend is QloraBackend.BITSANDBYTES else n_wrapped
        per_layer += n_q * (fwd_passes + 1 + ref)
    kernels = per_layer * L + 40.0                         # embedding, final norm, lm_head, loss
    if s.torch_compile:
        kernels *= COEFFICIENTS.compile_kernel_share

    zero3_passes = 0.0
    if s.deepspeed and s.sharding is Sharding.ZERO3:
        zero3_passes = float(L * (fwd_passes + 1 + ref))

    # --- GPU-to-GPU traffic (ring collectives: all-gather / reduce-scatter move (N-1)/N of the tensor per GPU,
    # all-reduce twice that)
    n = s.num_gpus
    t_params = trainable_params(s)
    gbytes = (2 if (full and s.precision is Precision.BF16) else 4) if full else (
        4 if s.lora_dtype is Precision.FP32 else 2)
    if full and s.precision is Precision.MIXED:
        gbytes = 2                                          # gradients are reduced in 16-bit (FSDP/DeepSpeed bf16)
    comm = 0.0
    comm_step = 0.0
    if n > 1:
        frac = (n - 1) / n
        stored = _stored_weight_bytes(s)
        if s.sharding is Sharding.ZERO3:
            # all-gather the weights for the forward, again for the backward (and for a DPO reference forward);
            # reduce-scatter the gradients of every micro-batch
            comm += stored * frac * (2 + ref)
            comm += t_params * gbytes * frac
        elif s.sharding is Sharding.ZERO2:
            comm += t_params * gbytes * frac                # reduce-scatter in every backward
            comm_step += t_params * 2 * frac                # all-gather the updated 16-bit weights
        elif s.sharding is Sharding.ZERO1:
            comm_step += t_params * gbytes * frac + t_params * 2 * frac
        else:
            comm_step += 2 * t_params * gbytes * frac       # DDP all-reduce once per step (no_sync accumulation)

    # --- host link: offloaded parameters travel in for every forward and backward; an offloaded optimizer sends
    # the gradients out and the weights back every step; paged optimizer states that do not fit are evicted and
    # brought back every step; offloaded activations go out in the forward and back in the backward.
    host = 0.0
    host_step = 0.0
    peak = paged = 0.0
    cpu_params = 0.0
    shard = n if s.sharding is not Sharding.NONE else 1
    if s.offload_params and s.sharding is Sharding.ZERO3:
        host += _stored_weight_bytes(s) / shard * (2 + ref)
    if s.cpu_offload:
        host_step += t_params / shard * (gbytes + 2)
        cpu_params = float(t_params)
    if s.activation_offloading:
        host += activation_host_bytes(s) * 2
    if s.optimizer in (Optimizer.PAGED_ADAMW_8BIT, Optimizer.PAGED_ADAMW_32BIT) and not s.cpu_offload:
        e = memory_estimate(s)
        peak, paged = float(e.peak_bytes), float(e.paged_optimizer_bytes)

    opt_bytes = 0.0
    if not s.cpu_offload:
        o_shard = n if s.sharding is not Sharding.NONE else 1
        opt_bytes = t_params / o_shard * _optimizer_sweep_bytes_per_param(s)

    total = sum(f for f, _ in matmuls) + attention
    return StepCounts(
        tokens=M, micro_batches=s.grad_accum_steps, matmuls=tuple(matmuls), attention_flops=attention,
        elementwise_bytes=elementwise, loss_bytes=loss, dequant_bytes=dequant, kernels=kernels,
        zero3_layer_passes=zero3_passes,
        comm_bytes=comm, comm_step_bytes=comm_step, link_gb_s=0.0, link_kind="none", host_bytes=host,
        host_step_bytes=host_step, paging_bytes=0.0, host_gb_s=16.0, optimizer_bytes=opt_bytes,
        cpu_optimizer_params=cpu_params, model_flops=model_flops, total_flops=total, peak_bytes=peak,
        paged_bytes=paged, roofline=_roofline(tuple(matmuls)),
    )


def _stored_weight_bytes(s: TrainingSetup) -> float:
    """The base weights in their storage dtype (all GPUs together): NF4 + constants for the quantised ones."""
    pc = count_params(s.model)
    q = _quantized_linear_params(s)
    const = 0.127 if s.double_quant else 0.5
    per = 4.0 if s.precision is Precision.FP32 else 2.0
    return q * (4.0 + const) / 8.0 + (pc.total - q) * per


# =====================================================================================================================
# Time (efficiencies)
# =====================================================================================================================
@dataclass(frozen=True)
class StepTime:
    step_s: float           # one optimizer step
    micro_s: float          # one micro-batch (compute and host combined, communication included)
    compute_s: float        # GPU time of one micro-batch
    host_s: float           # host (launch, hooks) time of one micro-batch
    comm_s: float           # exposed communication per micro-batch
    optimizer_s: float      # the optimizer step (GPU sweep, host transfers, CPU step), per optimizer step


def _combine(x: float, y: float, p: float) -> float:
    if x <= 0 or y <= 0:
        return x + y
    hi = max(x, y)
    return hi * ((x / hi) ** p + (y / hi) ** p) ** (1.0 / p)


def _link_efficiency(kind: str, k: Coefficients) -> float:
    return {"nvlink": k.nvlink_efficiency, "network": k.network_efficiency}.get(kind, k.pcie_efficiency)


def step_time(c: StepCounts, gpu: GpuSpec, k: Coefficients = COEFFICIENTS) -> StepTime:
    """Seconds of one step from the counts: a roofline per matmul group (FLOPs at the sustained peak, or its bytes
    at the sustained bandwidth, whichever is slower), attention at its own efficiency, streaming traffic at the
    bandwidth; host time combined with GPU time by ``overlap_p``; communication exposed beyond what overlaps with
    compute; host-link transfers in parallel with compute; the optimizer after the last micro-batch."""
    return _step_time(c, gpu, k, c.link_gb_s, c.link_kind, c.paging_bytes, c.host_gb_s)


def _step_time(c: StepCounts, gpu: GpuSpec, k: Coefficients, link_gb_s: float, link_kind: str,
               paging_bytes: float, host_gb_s: float) -> StepTime:
    """``step_time`` with the card's terms (``_card_terms``) given apart from the counts, so that the GPU table
    times one setup's counts on every card without copying them."""
    peak = gpu.peak_tflops * 1e12
    mm = peak * k.matmul_efficiency
    bw = gpu.memory_gb_s * 1e9 * k.bandwidth_efficiency
    intensity, flops_from, bytes_before = c.roofline
    i = bisect_left(intensity, mm / bw)                   # groups from i on are compute-bound on this card
    t_mm = flops_from[i] / mm + bytes_before[i] / bw
    t_att = c.attention_flops / (peak * k.attention_efficiency)
    t_elem = (c.elementwise_bytes * k.elementwise_traffic + c.loss_bytes + c.dequant_bytes) / bw
    compute = t_mm + t_att + t_elem
    host = c.kernels * k.kernel_launch_s + c.zero3_layer_passes * k.zero3_layer_s
    micro = _combine(compute, host, k.overlap_p)
    comm = 0.0
    link = link_gb_s * 1e9 * _link_efficiency(link_kind, k) if link_gb_s > 0 else 0.0
    if link:
        total = c.comm_bytes / link
        hidden = k.comm_overlap * compute
        comm = max(0.0, total - hidden) + (1.0 - k.comm_overlap) * min(total, hidden)
    host_link = host_gb_s * 1e9 * k.host_link_efficiency
    micro_total = max(micro + comm, c.host_bytes / host_link)
    steps = max(micro_total * c.micro_batches, paging_bytes / host_link)
    opt = (c.optimizer_bytes / bw + c.host_step_bytes / host_link
           + c.cpu_optimizer_params * k.cpu_adam_bytes_per_param / (k.host_memory_gb_s * 1e9))
    if link and c.comm_step_bytes:
        opt += c.comm_step_bytes / link
    step = steps + opt
    return StepTime(step_s=step, micro_s=micro_total, compute_s=compute, host_s=host, comm_s=comm, optimizer_s=opt)


# =====================================================================================================================
# The figures the API returns
# =====================================================================================================================
def _check(s: TrainingSetup, gpu: GpuSpec) -> None:
    if s.precision is Precision.FP32:
        raise ThroughputError("fp32_not_modelled", "precision")
    if not gpu.peak_tflops or not gpu.memory_gb_s:
        raise ThroughputError("no_peak", "gpu")


def throughput(s: TrainingSetup, gpu: GpuSpec, k: Coefficients = COEFFICIENTS) -> dict[str, Any]:
    """Tokens per second (computed tokens: padding included), step time, MFU, and the low-high range."""
    _check(s, gpu)
    counts = step_counts(s, gpu)
    t = step_time(counts, gpu, k)
    tokens_step = counts.tokens * counts.micro_batches
    per_gpu = tokens_step / t.step_s
    mfu = counts.model_flops * counts.micro_batches / t.step_s / (gpu.peak_tflops * 1e12)
    return {
        "tokens_per_second_per_gpu": per_gpu,
        "tokens_per_second": per_gpu * s.num_gpus,
        "step_time_s": t.step_s,
        "mfu": mfu,
        "range": [per_gpu * k.range_low, per_gpu * k.range_high],
        "tokens_per_step": tokens_step * s.num_gpus,
        "breakdown_s": {"compute": t.compute_s * counts.micro_batches, "host": t.host_s * counts.micro_batches,
                        "communication": t.comm_s * counts.micro_batches, "optimizer": t.optimizer_s},
    }


def flops_per_token(s: TrainingSetup, gpu: GpuSpec) -> float:
    c = step_counts(s, gpu)
    return c.total_flops / c.tokens


@lru_cache(maxsize=256)
def _expected_padded_length(mean: float, cap: int, b: int) -> float:
    """Expected length of a batch padded to its longest example, E[min(max of b lengths, cap)], for example lengths
    exponential with the given mean (coefficient of variation 1), truncated at ``cap``: the integral of
    P(max > x) = 1 - (1 - exp(-x/mean))^b over [0, cap], by Simpson's rule. Beyond mean·(ln b + 40) the integrand is
    below e^-40, so the integral stops there (the mean of the longest is mean·H_b, H_b < ln b + 1)."""
    if mean <= 0:
        return 0.0
    upper = min(float(cap), mean * (math.log(b) + 40.0))
    n = 1000
    step = upper / n
    total = 0.0
    for j in range(n + 1):
        f = 1.0 - (1.0 - math.exp(-j * step / mean)) ** b
        total += f * (1 if j in (0, n) else (4 if j % 2 else 2))
    return total * step / 3.0


def computed_tokens_per_example(s: TrainingSetup, mean_tokens: float) -> float:
    """Tokens the GPU computes per sequence of ``mean_tokens`` tokens on average. Packed: its own tokens (packs are
    full). Unpacked: each batch is padded to its longest sequence (the default collators of transformers/TRL and
    torchtune), so a sequence costs the expected longest of the batch's ``micro_batch_size`` sequences (twice that
    many for DPO: chosen and rejected are padded together), capped at ``seq_len`` (longer ones are truncated).
    Sequence lengths are taken as exponential around their mean (coefficient of variation 1): see
    ``_expected_padded_length``."""
    if s.packing:
        return min(mean_tokens, float(s.seq_len))
    seqs = s.micro_batch_size * (2 if s.dpo else 1)
    if seqs == 1:
        return min(mean_tokens, float(s.seq_len))
    return _expected_padded_length(mean_tokens, s.seq_len, seqs)


def _sequences(s: TrainingSetup, w: Workload) -> float | None:
    """Sequences in one epoch (DPO: two per preference pair), or None when only a token count is known."""
    if w.dataset_examples is not None:
        return float(w.dataset_examples) * (2 if s.dpo else 1)
    if w.dataset_tokens is not None and w.mean_tokens_per_example:
        return w.dataset_tokens / w.mean_tokens_per_example
    return None


def effective_setup(s: TrainingSetup, w: Workload | None) -> TrainingSetup:
    """The setup the GPU runs on average: unpacked batches of the padded length when the mean example length is
    known (the memory peak still comes from ``seq_len``, the longest batch); otherwise ``s`` itself."""
    if w is None or s.packing or not w.mean_tokens_per_example:
        return s
    length = max(1, int(round(computed_tokens_per_example(s, w.mean_tokens_per_example))))
    return s if length == s.seq_len else replace(s, seq_len=length)


def run_time(s: TrainingSetup, gpu: GpuSpec, w: Workload, k: Coefficients = COEFFICIENTS,
             tp: dict[str, Any] | None = None) -> dict[str, Any]:
    """Seconds and GPU-hours of the whole run (``epochs`` passes over the data). ``dataset_tokens`` counts every
    token of the data (DPO: both sequences of every pair); without a mean example length, unpacked data is taken as
    ``seq_len``-long examples (no padding). ``tp``: the throughput of ``effective_setup(s, w)`` if already known."""
    _check(s, gpu)
    if w.dataset_examples is not None and not w.mean_tokens_per_example:
        raise ThroughputError("missing_field", "mean_tokens_per_example")
    if w.dataset_examples is None and w.dataset_tokens is None:
        raise ThroughputError("missing_field", "dataset_tokens")
    seqs = _sequences(s, w)
    if seqs is None:
        real = computed = float(w.dataset_tokens or 0)
    else:
        mean = float(w.mean_tokens_per_example or 0.0)
        real = seqs * min(mean, float(s.seq_len))
        computed = seqs * computed_tokens_per_example(s, mean)
    if tp is None:
        tp = throughput(effective_setup(s, w), gpu, k)
    seconds = computed * w.epochs / tp["tokens_per_second"]
    return {
        "seconds": seconds,
        "hours": seconds / 3600.0,
        "gpu_hours": seconds * s.num_gpus / 3600.0,
        "dataset_tokens": real,
        "computed_tokens": computed * w.epochs,
        "padding_share": 0.0 if computed <= 0 else max(0.0, 1.0 - real / computed),
        "range_seconds": [seconds / k.range_high, seconds / k.range_low],
    }


# =====================================================================================================================
# JSON shaping (what api.py returns): throughput and run for the chosen card, time and cost in the GPU table, and
# the fastest and cheapest setups that fit
# =====================================================================================================================
CURRENCY = "USD"


def _price(gpu: GpuSpec, chosen: str | None, reader_price: float | None) -> tuple[float | None, str | None]:
    """The price of one GPU-hour of ``gpu``: the reader's for the chosen card, else the catalogue's reference."""
    if reader_price is not None and gpu.id == chosen:
        return reader_price, "reader"
    if gpu.price_per_hour is not None:
        return gpu.price_per_hour, "catalogue"
    return None, None


def _round(x: float, digits: int = 4) -> float:
    return float(f"{x:.{digits}g}")


def throughput_json(s: TrainingSetup, gpu: GpuSpec) -> dict[str, Any]:
    tp = throughput(s, gpu)
    return {
        "tokens_per_second_per_gpu": _round(tp["tokens_per_second_per_gpu"]),
        "tokens_per_second": _round(tp["tokens_per_second"]),
        "step_time_s": _round(tp["step_time_s"]),
        "mfu": round(tp["mfu"], 4),
        "range": [_round(tp["range"][0]), _round(tp["range"][1])],
        "tokens_per_step": int(tp["tokens_per_step"]),
        "breakdown_s": {k: _round(v) for k, v in tp["breakdown_s"].items()},
        "gpu": gpu.id,
        "num_gpus": s.num_gpus,
        "seq_len": s.seq_len,            # the length the GPU computes on average (padded, or packed seq_len)
    }


def run_json(s: TrainingSetup, gpu: GpuSpec, w: Workload, price: float | None,
             price_source: str | None) -> dict[str, Any]:
    rt = run_time(s, gpu, w)
    cost = None if price is None else rt["gpu_hours"] * price
    return {
        "seconds": _round(rt["seconds"]),
        "hours": _round(rt["hours"]),
        "gpu_hours": _round(rt["gpu_hours"]),
        "range_seconds": [_round(x) for x in rt["range_seconds"]],
        "cost": None if cost is None else round(cost, 2),
        "cost_range": None if price is None else [round(x * s.num_gpus / 3600.0 * price, 2)
                                                  for x in rt["range_seconds"]],
        "currency": CURRENCY,
        "price_per_gpu_hour": price,
        "price_source": price_source,
        "dataset_tokens": int(round(rt["dataset_tokens"])),
        "computed_tokens": int(round(rt["computed_tokens"])),
        "padding_share": round(rt["padding_share"], 4),
        "epochs": w.epochs,
    }


def _setup_times(s: TrainingSetup, s_eff: TrainingSetup, work: StepCounts, gpu: GpuSpec, w: Workload | None,
                 price: float | None) -> dict[str, Any]:
    """Time and cost of one card and count (``s`` built by recommend.setup_for; ``s_eff`` its effective_setup,
    ``work`` the counts of ``s_eff``)."""
    try:
        _check(s_eff, gpu)
    except ThroughputError as err:
        return {"tokens_per_second": None, "time_error": err.code}
    t = _step_time(work, gpu, COEFFICIENTS, *_card_terms(work, s_eff, gpu))
    tokens_per_second = work.tokens * work.micro_batches / t.step_s * s.num_gpus
    out: dict[str, Any] = {"tokens_per_second": _round(tokens_per_second)}
    per_million = 1e6 / tokens_per_second / 3600.0 * s.num_gpus   # GPU-hours per million computed tokens
    out["cost_per_million_tokens"] = None if price is None else round(per_million * price, 4)
    if w is not None:
        rt = run_time(s, gpu, w, tp={"tokens_per_second": tokens_per_second})
        out["seconds"] = _round(rt["seconds"])
        out["gpu_hours"] = _round(rt["gpu_hours"])
        out["cost"] = None if price is None else round(rt["gpu_hours"] * price, 2)
    out["price_per_gpu_hour"] = price
    return out


def annotate_gpu_table(table: list[dict[str, Any]], s: TrainingSetup, w: Workload | None, chosen: str | None,
                       reader_price: float | None) -> None:
    """Add time and cost to every card and count of ``recommend.gpu_table`` (same setups: ``setup_for``). Each
    count's setup is counted once (``_work``) and timed on every card."""
    from .catalog import GPUS
    from .recommend import setup_for
    setups: dict[int, TrainingSetup] = {}
    for row in table:
        gpu = GPUS[row["gpu"]]
        price, source = _price(gpu, chosen, reader_price)
        row["price_per_gpu_hour"] = price
        row["price_source"] = source
        for setup in row["setups"]:
            n = setup["num_gpus"]
            if n not in setups:
                setups[n] = setup_for(s, n)
            setup.update(_card_times(setups[n], gpu, w, price))


@lru_cache(maxsize=4096)
def _card_times(sn: TrainingSetup, gpu: GpuSpec, w: Workload | None, price: float | None) -> dict[str, Any]:
    """_setup_times of one card and count, remembered: a page recomputing after each change asks for the same cards
    and counts again (setups, cards and workloads are frozen, so they are their own key). Read-only: callers copy."""
    s_eff = effective_setup(sn, w)
    return _setup_times(sn, s_eff, _work(s_eff), gpu, w, price)


def fastest_and_cheapest(table: list[dict[str, Any]]) -> dict[str, Any]:
    """Among the setups of an annotated GPU table that fit (recommend's rule: tight allowed), the fastest (most
    tokens per second, the shortest run) and the cheapest (lowest cost, or cost per million tokens without a
    workload); ties go to fewer cards, then the table's order."""
    fits = [(row, st) for row in table for st in row["setups"]
            if st["verdict"] != "does_not_fit" and st.get("tokens_per_second")]

    def entry(row: dict[str, Any], st: dict[str, Any]) -> dict[str, Any]:
        keys = ("tokens_per_second", "seconds", "gpu_hours", "cost", "cost_per_million_tokens", "price_per_gpu_hour",
                "verdict")
        return {"gpu": row["gpu"], "name": row["name"], "num_gpus": st["num_gpus"],
                **{k: st.get(k) for k in keys if k in st}}

    fastest = max(fits, key=lambda x: (x[1]["tokens_per_second"], -x[1]["num_gpus"]), default=None)
    priced = [x for x in fits if x[1].get("cost_per_million_tokens") is not None]
    cost_key = "cost" if priced and "cost" in priced[0][1] else "cost_per_million_tokens"
    cheapest = min(priced, key=lambda x: (x[1][cost_key], x[1]["num_gpus"]), default=None)
    return {"fastest_setup": entry(*fastest) if fastest else None,
            "cheapest_setup": entry(*cheapest) if cheapest else None}


def result_json(s: TrainingSetup, options: dict[str, Any], r: dict[str, Any]) -> None:
    """Add the time and cost fields to an API result ``r`` in place (api.result_json calls this last).

    * ``throughput`` (with a ``gpu``): tokens per second per GPU and in all, step time, MFU, range.
    * ``run`` (with a ``gpu`` and a workload): seconds, GPU-hours, cost and currency, at the reader's price
      (``gpu_hour_price``) or the catalogue's reference price of that card; ``cost`` is null without either.
    * the GPU table's setups get ``tokens_per_second``, ``cost_per_million_tokens`` and, with a workload,
      ``seconds``, ``gpu_hours``, ``cost``; ``fastest_setup`` and ``cheapest_setup`` sit beside
      ``smallest_setup``.
    * ``time_error``: the code of a time that is refused (``fp32_not_modelled``, ``no_peak``)."""
    from .catalog import GPUS
    w: Workload | None = options.get("workload")
    reader_price = options.get("gpu_hour_price")
    chosen = options.get("gpu")
    if "inputs" in r:   # echo the time keys in request form (feeding the inputs back gives the same result)
        r["inputs"].update({
            "dataset_tokens": w.dataset_tokens if w else None, "dataset_examples": w.dataset_examples if w else None,
            "mean_tokens_per_example": w.mean_tokens_per_example if w else None, "epochs": w.epochs if w else 1.0,
            "gpu_hour_price": reader_price})
    if chosen is not None:
        gpu = GPUS[chosen]
        try:
            _check(s, gpu)
            r["throughput"] = throughput_json(effective_setup(s, w), gpu)
            if w is not None:
                price, source = _price(gpu, chosen, reader_price)
                r["run"] = run_json(s, gpu, w, price, source)
        except ThroughputError as err:
            r["time_error"] = err.code
    if "gpu_table" in r:
        annotate_gpu_table(r["gpu_table"], s, w, chosen, reader_price)
        if "smallest_setup" in r:
            r.update(fastest_and_cheapest(r["gpu_table"]))


def gpu_speed_json(g: GpuSpec) -> dict[str, Any]:
    """The catalogue's speed and price fields of one card, for the API schema (the form's price placeholder)."""
    return {"peak_tflops": g.peak_tflops, "memory_gb_s": g.memory_gb_s, "interconnect_gb_s": g.interconnect_gb_s,
            "host_link_gb_s": g.host_link_gb_s, "price_per_hour": g.price_per_hour,
            "price_source": g.price_source or None, "price_date": g.price_date or None, "currency": CURRENCY}


def time_table(s: TrainingSetup, w: Workload | None = None, chosen: str | None = None,
               reader_price: float | None = None) -> list[dict[str, Any]]:
    """The GPU table (recommend.gpu_table) with time and cost added (for callers outside the API)."""
    from .recommend import gpu_table
    table = gpu_table(s)
    annotate_gpu_table(table, s, w, chosen, reader_price)
    return table
