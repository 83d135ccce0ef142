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

``throughput(setup, gpu)`` and ``run_time(setup, gpu, workload)`` give the figures the API returns (laid out by
``answer.py``: this module is physics only). Standard library only (CPython and Pyodide); nothing here does I/O. Formulas and sources: ESTIMATOR.md "Time and
cost".

Vocabulary: ``M`` tokens of one micro-batch on one GPU (all its sequences), ``s`` tokens per sequence, ``b``
sequences per micro-batch, ``h`` hidden size, ``a`` query heads, ``d`` head dim, ``L`` layers, ``V`` vocabulary,
``N`` GPUs, ``GA`` gradient-accumulation steps.
"""
from __future__ import annotations

import math
from bisect import bisect_left
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from .errors import TimeNotModelled
from .memory import activation_bytes, activation_host_bytes, dequant_bytes_per_weight, estimate as memory_estimate
from .models import (Attention, GpuSpec, Method, Optimizer, Precision, QloraBackend, Sharding, TrainingSetup,
                     hashed_once, replaced)
from .params import (
    NF4_BITS,
    attention_head_dims,
    attention_layers,
    compute_bytes,
    experts_fused,
    experts_quantized,
    count_params,
    gathered_weight_bytes,
    held_arch,
    moe_layers,
    quantized_params,
    setup_targets,
    trainable_params,
)

__all__ = [
    "effective_setup",
    "COEFFICIENTS",
    "TimeCoefficients",
    "PCIE_FALLBACK_GB_S",
    "Workload",
    "StepCounts",
    "StepTime",
    "check",
    "setup_counts",
    "step_counts",
    "step_time",
    "throughput",
    "setup_tokens_per_second",
    "computed_tokens_per_example",
    "run_time",
    "paging",
    "host_link_gb_s",
    "matmul_share",
]


# =====================================================================================================================
# TimeCoefficients: every efficiency, with the rows it was fitted on (benchmarks/time_accuracy.py --fit reproduces them)
# =====================================================================================================================
@dataclass(frozen=True)
class TimeCoefficients:
    """Every efficiency of the time model. "Fitted": by ``python benchmarks/time_accuracy.py --fit`` (a coordinate
    search over the usable rows of benchmarks/data/throughput/throughput.csv, from neutral starting values; it
    reproduces these figures and lists the rows each one moves by more than 5 % when scaled by 1.25 -- the rows named
    below). Everything else is a count or a sourced constant."""

    # --- the GPU -------------------------------------------------------------------------------------------------
    # Share of the dense 16-bit tensor peak that large GEMMs sustain: 0.78, measured by PyTorch on H100 with large
    # inputs (pytorch/ao torchao/testing/training/roofline_utils.py @0598012, "pct_achievable_gemm_tops"). Not
    # fitted (a free fit on every usable row lands at 0.76-0.80).
    matmul_efficiency: float = 0.78
    # The same share on a GeForce card (klass "consumer"): its whitepaper peak (bf16 with fp32 accumulate, which
    # GeForce runs at half the rate of the pro cards) is quoted at the rated boost clock, and the cards sustain
    # more than that clock in a GEMM. One benchmark run the same way on many cards (zzc0721/torch-performance-
    # test-data, torch.matmul bf16, square 1024-10240, best size; issues #78, #131, #171, #114, #96/#124/#200,
    # #79, #108, #185) measures 164.8 TFLOPS on an RTX 4090 (165.2 peak: 1.00), 25.5 on a 3060 (25.5: 1.00),
    # 38.4 on a 3070 (40.6: 0.94), 64.7 on a 3080 (59.5: 1.09), 237 on a 5090 (209.5: 1.13; median of three):
    # median 1.00 of the peak, where the same benchmark gives an H100 SXM 797.5 of 989.4 (0.81). The class ratio
    # 1.00 / 0.81 applied to pytorch/ao's 0.78: 0.97. Not fitted. The rows it moves are the RTX 4090 and RTX 3090
    # rows (TT, AA): the RTX 4090 rows without collectives TT-01/08/12 and AA-17 went from -30/+2/-19/-22 % to
    # -15/+11/-2/-3 %.
    consumer_matmul_efficiency: float = 0.97
    # Share of the datasheet memory bandwidth that streaming kernels reach: 0.92 (same file, "pct_achievable_mem_bw",
    # point-wise Triton kernels with large inputs). Not fitted: it trades off exactly with elementwise_traffic.
    bandwidth_efficiency: float = 0.92
    # Share of the peak that attention kernels sustain on cards before Hopper, causal half counted (FlashAttention-2
    # reports 50-73 % of an A100's peak forward). Fitted; moves only the long-context rows MF-10, MF-11, MF-13, MF-28
    # (16k-65k tokens) and QW-06, so it is the least certain figure here.
    attention_efficiency: float = 0.45
    # What the FlashAttention-2 kernels (flash-attn, and PyTorch SDPA's flash backend, which vendors them) sustain on
    # a Hopper card, as a share of what they sustain on an Ampere one, each against its own dense peak: the
    # FlashAttention-2 paper (Dao 2023, arXiv:2307.08691, sec. 4.1) measures forward + backward at up to 230 TFLOPs/s
    # on an A100 (312 peak: 0.737) and, with the same code (no TMA or wgmma, the Hopper instructions), up to 335
    # TFLOPs/s on an H100 SXM5 (989 peak: 0.339); 0.339 / 0.737 = 0.46 (FlashAttention-3, arXiv:2407.08608: "only
    # 35 % utilization" on H100). Not fitted. The H100 rows it moves are MF-10, MF-11, MF-13 (16k-65k tokens, the
    # only Hopper rows where attention is a large share of the step: +80/+115/+44 % -> +6/+8/+3 %). FlashAttention-3
    # (Hopper-only, opt-in) is not modelled, and Blackwell cards keep the Ampere share: no row checks either.
    attention_hopper_share: float = 0.46
    # Element-wise traffic (norms, activations, rotary, residuals, casts, dropout) as a multiple of the bytes the
    # layers save for backward (memory.activation_bytes): eager PyTorch reads and writes each saved tensor several
    # times in the forward and the backward. Fitted; moves 34 rows, mostly bandwidth-poor cards, small models and
    # LoRA/QLoRA steps: PF-04/05/07/08/10/11, MF-01/02/07/19/20, QW-05/06/13/14/16/21/22/34, AA-17/19/23/31/32,
    # UN-01/02/04/05, LG-T01/02/04, PS-10/12/13.
    elementwise_traffic: float = 9.0
    # --- the host ------------------------------------------------------------------------------------------------
    # Host time per launched kernel in eager PyTorch (Python dispatch, autograd, launch), kernels counted below.
    # Fitted on the small-batch rows PF-04/05/07/08/10/11 and QW-01/02/05/07/10/11/18/19/29/38.
    kernel_launch_s: float = 1.8e-05
    # DeepSpeed ZeRO-3 host time per decoder layer per pass (parameter fetch/release hooks). Fitted on QW-07, QW-08,
    # QW-23, QW-24 (Qwen full fine-tuning under ZeRO-3, 256-2048 tokens).
    zero3_layer_s: float = 0.0025
    # How GPU and host time combine per micro-batch: (gpu^p + host^p)^(1/p); p = 1 adds them, a large p takes the
    # slower. Fitted on the same small-batch rows (PF-04/05/07/08/10/11, QW-02/05/08/10/11/18/19/24/29/38).
    overlap_p: float = 1.5
    # --- links ---------------------------------------------------------------------------------------------------
    # Share of the per-direction link bandwidth that collectives reach. PCIe (through the host bridge; GeForce cards
    # have no peer-to-peer): fitted on TT-03/05, AA-02/03/04/08/11/13/15/16/20/22/25/26/28/29, PS-13 (FSDP over
    # PCIe on RTX 3090, 4090, A5000, 6000 Ada, L4; the rigs differ by 3x, see ESTIMATOR.md). NVLink: fitted on
    # MF-05. Network (beyond one node): of the node's adapters together on NVLink nodes (``_link``); fitted on the
    # rows beyond one node, MF-14, MF-16, MF-29, MF-37 (64-128 GPUs), none of which it moves by more than 5 % when
    # scaled by 1.25: a weakly determined figure (0.5 of the adapters' sum also absorbs what 64-128-rank rings pay
    # in latency).
    pcie_efficiency: float = 0.1
    nvlink_efficiency: float = 0.7
    network_efficiency: float = 0.5
    # Share of the communication that hides behind compute (FSDP prefetches gathers, DDP overlaps reductions with
    # the backward): exposed = max(0, comm - overlap * compute) + (1 - overlap) * min(comm, overlap * compute).
    # Fitted (0.2), but weakly determined: no row moves by more than 5 % when it is scaled by 1.25.
    comm_overlap: float = 0.2
    # Share of the PCIe link that host<->GPU copies reach when paged optimizer states are evicted and brought back,
    # weights or activations are offloaded. Fitted on TT-04, TT-08 and TT-09 (paged AdamW on a 24/48 GB card).
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
    # (-18.8 % and +22.0 %: measured = estimate / (1 + error); printed by --fit), so 8 rows in 10 lie inside it.
    # Times scale the other way.
    range_low: float = 0.82
    range_high: float = 1.23


COEFFICIENTS = TimeCoefficients()


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
#: Kernels outside the decoder layers, per micro-batch: the embedding lookup and its backward (2), the final RMSNorm
#: (8 forward, 16 backward, as a layer's), lm_head's forward and two backward matmuls (3), the cross-entropy's
#: upcast, log-softmax, loss, mean and their backward (about 11): 40. A count, for host time only.
_KERNELS_OUTSIDE_LAYERS = 40.0
#: Per-direction host link of a card whose datasheet gives none: PCIe 3.0 x16, 8 GT/s x 16 lanes x 128/130 encoding
#: = 15.75 GB/s (PCI-SIG, PCI Express Base Specification 3.0), rounded to 16.
PCIE_FALLBACK_GB_S = 16.0


@hashed_once
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
    link_kind: str                # "nvlink" | "pcie" | "none": the link inside a node
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
    inter_gb_s: float = 0.0       # the inter-node bound per GPU (GB/s) when the setup spans nodes, else 0 (_link)
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


def _link(s: TrainingSetup, gpu: GpuSpec) -> tuple[float, str, float]:
    """(intra-node bandwidth, its kind, inter-node bandwidth or 0), GB/s per direction. The node model (issue 19):
    a setup of more than ``gpus_per_node`` cards (the request's, else the card's reference server's) spans nodes, and
    every ring collective then crosses the inter-node link as well as the links inside each node, so the slower of
    the two (each at its own efficiency, ``_step_time``) bounds it: a second node never makes the collectives faster.
    The inter-node link per GPU is ``internode_gb_s``, else the card's ``network_gb_s`` (its reference server's
    adapters per GPU), else ``internode_gb_s`` of the coefficients (100 Gb/s Ethernet).

    Across NVLink nodes a ring collective's bytes leave each node once, spread over all of the node's adapters, not
    once per GPU: a ring of N GPUs in nodes of G crosses a node boundary on 1 of every G of its hops, so a node sends
    (N-1)/N of the tensor per ring -- what each of its GPUs sends in all -- and NCCL builds one ring per adapter ("it
    creates 4 rings, each using a different NIC"; "multi-NIC aggregation works well when GPUs are connected through
    NVLink (because we can use NVLink to split the operations in N parts then balance the traffic onto the N NICs)",
    the NCCL maintainer in NVIDIA/nccl#601). So the inter-node bound per GPU is the node's adapters together, G times
    the per-GPU figure (nccl-tests on two 8 x 400 Gb/s HGX nodes: 360 GB/s of bus bandwidth, NVIDIA/nccl#1277).
    Without NVLink the maintainer's answer is that aggregation "would not help much": the per-GPU figure stays."""
    c = COEFFICIENTS
    if s.num_gpus <= 1:
        return 0.0, "none", 0.0
    if gpu.nvlink and gpu.interconnect_gb_s:
        intra, kind = gpu.interconnect_gb_s, "nvlink"
    else:
        intra, kind = gpu.host_link_gb_s or PCIE_FALLBACK_GB_S, "pcie"
    node = s.gpus_per_node or gpu.gpus_per_node or c.gpus_per_node
    if s.num_gpus > node:
        per_gpu = s.internode_gb_s or gpu.network_gb_s or c.internode_gb_s
        return intra, kind, per_gpu * (node if kind == "nvlink" else 1)
    return intra, kind, 0.0


@lru_cache(maxsize=512)
def step_counts(s: TrainingSetup, gpu: GpuSpec) -> StepCounts:
    """Count the work of one optimizer step on one GPU (no efficiencies; see module docstring). The card only
    decides the links (NVLink, PCIe, network) and whether paged optimizer states fit; the rest is counted once per
    setup."""
    w = setup_counts(s)
    link, kind, paging, host_gb_s, inter = _card_terms(w, s, gpu)
    return replaced(w, link_gb_s=link, link_kind=kind, paging_bytes=paging, host_gb_s=host_gb_s, inter_gb_s=inter)


def _card_terms(w: StepCounts, s: TrainingSetup, gpu: GpuSpec) -> tuple[float, str, float, float, float]:
    """What the card changes in a setup's counts: its GPU link (bandwidth, kind), the paged optimizer bytes that do
    not fit beside the peak, and its host link."""
    link, kind, inter = _link(s, gpu)
    paging = 0.0
    if w.paged_bytes:
        over = w.peak_bytes + w.paged_bytes - gpu.memory_bytes
        if over > 0:
            paging = 2.0 * min(over, w.paged_bytes)
    return link, kind, paging, gpu.host_link_gb_s or PCIE_FALLBACK_GB_S, inter


def dequant_kernels(s: TrainingSetup) -> int:
    """Kernels one dequantisation of a 4-bit weight launches: ``kDequantizeBlockwise``, and over bitsandbytes with
    double quantisation the 8-bit absmax's ``dequantize_blockwise`` and the offset add before it (bitsandbytes 0.50.2
    functional.py ``dequantize_4bit``, ``if quant_state.nested``): 3."""
    return 3 if s.qlora_backend is QloraBackend.BITSANDBYTES and s.double_quant else 1


#: bitsandbytes' 4-bit blocks: one absmax per 64 weights (``quantize_4bit(..., blocksize=64)``, Linear4bit's
#: Params4bit default), and with double quantisation one fp32 constant per 256 of those 8-bit absmax
#: (``quantize_blockwise(absmax, blocksize=256)`` in ``quantize_4bit`` when ``compress_statistics``).
_NF4_BLOCK = 64
_NESTED_BLOCK = 256


def dequant_bytes_per_param(s: TrainingSetup) -> float:
    """Bytes one dequantisation of a 4-bit weight moves per parameter: the NF4 code read (half a byte), the
    quantisation constants, and the weight written in each dtype it passes through (bitsandbytes 0.50.2 functional.py
    ``dequantize_4bit`` and MatMul4Bit's ``.to(A.dtype)``: memory.dequant_bytes_per_weight, the copies the memory
    model holds; the casts' reads of the copy before them are left out). Constants: the fp32 absmax read by
    ``kDequantizeBlockwise`` (4/64 byte); with double quantisation (``if quant_state.nested``) ``dequantize_blockwise``
    first reads the 8-bit absmax (1/64) and their fp32 constants (4/(64·256)) and writes the fp32 absmax (4/64),
    ``absmax += quant_state.offset`` reads and writes it (8/64), and the 4-bit kernel reads it (4/64): 0.27 byte
    instead of 0.06. torchao's NF4 (torchtune) dequantises with PyTorch ops whose traffic is not counted here: its
    code and the weight written in the compute dtype only."""
    if s.qlora_backend is not QloraBackend.BITSANDBYTES:
        return NF4_BITS / 8 + compute_bytes(s)
    code_and_out = NF4_BITS / 8 + dequant_bytes_per_weight(s)
    if not s.double_quant:
        return code_and_out + 4 / _NF4_BLOCK
    nested = 1 / _NF4_BLOCK + 4 / (_NF4_BLOCK * _NESTED_BLOCK) + 4 / _NF4_BLOCK + 8 / _NF4_BLOCK
    return code_and_out + nested + 4 / _NF4_BLOCK


#: Forward kernels of a MoE layer's routed experts beyond the dense layer's gated MLP (5), per layout.
#: Fused (transformers 5.24 integrations/moe.py ``grouped_mm_experts_forward``, the default ``experts_implementation``
#: where ``_grouped_mm_can_dispatch``: modeling_utils.py ``get_correct_experts_implementation``): sort, two gathers,
#: histc and its cast, cumsum, two grouped_mm, the gate (chunk, act, mul), the routing-weight mul, the inverse
#: permutation (empty, arange, scatter, gather) and the top-k sum: 17, whatever the number of experts.
_KERNELS_MOE_GROUPED = 17


def moe_expert_kernels(s: TrainingSetup, kind: Any, tokens: float) -> tuple[float, Any]:
    """(forward kernels a layer of ``kind`` adds for its routed experts over the dense layer's gated MLP; and how many
    dequantisations one of its linears makes in a pass). Fused experts: one grouped-GEMM pass
    (``_KERNELS_MOE_GROUPED``), and no dequantisation kernel unless the framework quantised them
    (``experts_quantized``): they are no Linear4bit. Per-expert linears keep the dense count (the estimator does not
    model the loop over experts of transformers 4's sparse MoE blocks: Unsloth, the other per-expert regime, runs its
    own kernels, whose source is not read here)."""
    if not any(c > 1 for *_x, c in kind.linears) or not experts_fused(s):
        return 0.0, lambda x: 1
    quantised = experts_quantized(s)
    return float(_KERNELS_MOE_GROUPED - 5), lambda x: 0 if x[3] > 1 and not quantised else 1


@lru_cache(maxsize=64)
@dataclass(frozen=True)
class _Passes:
    """What every part of ``setup_counts`` reads: the micro-batch's tokens and how often each pass runs over them."""

    tokens: float          # M: every sequence of the micro-batch on one GPU
    seqs: float            # sequences per micro-batch (DPO's two per pair)
    seq_len: float         # tokens per sequence
    full: bool             # full fine-tuning: the weights train (a weight-gradient pass)
    gc: bool               # gradient checkpointing
    fwd: int               # forward passes: the forward, and the recomputed one under gradient checkpointing
    ref: int               # a DPO reference forward (no grad), unless its log-probs are precomputed
    cb: float              # bytes of the compute dtype
    experts_active: int    # experts a token goes through (1 for a dense model)


def _passes(s: TrainingSetup) -> _Passes:
    m = s.model
    seqs, sl = _sequence(s)
    gc = s.gradient_checkpointing
    return _Passes(tokens=seqs * sl, seqs=seqs, seq_len=sl, full=s.method is Method.FULL, gc=gc,
                   fwd=1 + (1 if gc else 0), ref=1 if (s.dpo and not s.precompute_ref_log_probs) else 0,
                   cb=compute_bytes(s), experts_active=m.num_experts_per_tok if m.num_local_experts > 0 else 1)


def _layer_matmuls(s: TrainingSetup, p: _Passes, kinds: tuple, wrapped: tuple) -> tuple[list, list]:
    """(FLOPs, bytes) of each matmul group per micro-batch, and the terms of the model FLOPs (no recompute), in the
    order they are summed. Matmuls of the decoder layers: forward 2·M·din·dout; backward: input gradient
    2·M·din·dout, and the weight gradient 2·M·din·dout when the weight trains. Bytes: the weight (16-bit) and the
    activations in/out. Every layer kind of the stack (dense and MoE layers differ: DeepSeek's first layers are
    dense) with its count."""
    m, M, full, ref = s.model, p.tokens, p.full, p.ref
    h, V = m.hidden_size, m.vocab_size
    matmuls: list[tuple[float, float]] = []
    flops: list[float] = []
    for kind in kinds:
        for _name, di, do, copies in kind.linears:
            active = p.experts_active if copies > 1 else 1
            f1 = 2.0 * M * di * do * active                     # one pass over all tokens
            wbytes = 2.0 * di * do * copies                     # the weights are read whatever the routing
            abytes = p.cb * M * (di + do) * active
            passes = p.fwd + 1 + (1 if full else 0) + ref       # fwd (+recompute) + input grad (+ weight grad) (+ref)
            matmuls.append((f1 * passes * kind.count, (wbytes + abytes) * passes * kind.count))
            flops.append(f1 * (2 + (1 if full else 0)) * kind.count)
    # router of a MoE layer (tiny)
    if m.num_local_experts > 0:
        f1 = 2.0 * M * h * m.num_local_experts
        matmuls.append((f1 * (p.fwd + 2 + ref) * moe_layers(m), 0.0))
    # LoRA adapters: A (din x r) and B (r x dout): forward, input and weight gradients = 3 passes (+recompute).
    # Rank-r matmuls are bandwidth-bound: each pass reads the input, writes and reads the r-wide middle, and
    # updates the output.
    r = s.lora_rank
    lora_passes = 3 + (1 if p.gc else 0)
    for count, lins in wrapped:
        for _name, di, do, copies in lins:
            active = p.experts_active if copies > 1 else 1
            f1 = 2.0 * M * r * (di + do) * active
            matmuls.append((f1 * lora_passes * count,
                            p.cb * M * (di + 2 * r + 2 * do) * active * lora_passes * count))
            flops.append(f1 * 3 * count)
    # lm_head (tied or not): forward, input gradient, weight gradient when it trains; DPO reference forward
    f1 = 2.0 * M * h * V
    head_passes = 2 + (1 if full else 0) + ref
    matmuls.append((f1 * head_passes, (2.0 * h * V + p.cb * M * (h + V)) * head_passes))
    flops.append(f1 * (2 + (1 if full else 0)))
    if "lm_head" in s.lora_targets and not full:
        f1r = 2.0 * M * r * (h + V)
        matmuls.append((f1r * 3, 0.0))
        flops.append(f1r * 3)
    return matmuls, flops


def _attention_flops(s: TrainingSetup, p: _Passes) -> tuple[float, float]:
    """(FLOPs computed, model FLOPs) of attention's scores and values per micro-batch: 2·s_ctx·a·d FLOPs per token
    each (d: the q·k width, then the value width; MLA's are qk_nope + qk_rope and v_head_dim). Flash/SDPA kernels
    skip the masked half of a causal sequence (s_ctx = s/2) and their backward recomputes the scores: 2.5 x forward
    (FlashAttention-2 paper, §3.1); eager computes the full s x s matrix and its backward is 2 x forward."""
    m = s.model
    qk_d, v_d = attention_head_dims(m)
    a, L = m.num_attention_heads, attention_layers(m)     # a hybrid's other layers have no s x s scores
    if s.attention is Attention.EAGER:
        att_fwd = 2.0 * p.tokens * p.seq_len * a * (qk_d + v_d)
        att_bwd = 2.0 * att_fwd
    else:
        att_fwd = 2.0 * p.tokens * (p.seq_len / 2.0) * a * (qk_d + v_d)
        att_bwd = 2.5 * att_fwd
    return (att_fwd * (p.fwd + p.ref) + att_bwd) * L, (att_fwd + att_bwd) * L


def _elementwise_bytes(s: TrainingSetup, p: _Passes) -> tuple[float, float]:
    """(element-wise traffic, loss traffic) per micro-batch. Element-wise: a multiple of the activations the layers
    save (memory.py counts them per token); gradient checkpointing replays the forward's share (half) once more;
    eager attention adds its fp32 s x s scores, which memory.activation_bytes already counts. Loss: the fp32 logits,
    their log-softmax and gradient, each written and read once (3 fp32 tensors)."""
    s_act = replaced(s, gradient_checkpointing=False, activation_offloading=False, dpo=False,
                     precompute_ref_log_probs=False, micro_batch_size=max(1, int(p.seqs)))
    elementwise = activation_bytes(s_act) * (1.0 + (0.5 if p.gc else 0.0) + 0.5 * p.ref)
    loss = 0.0 if s.fused_linear_cross_entropy else p.tokens * s.model.vocab_size * 4.0 * 3 * 2
    return elementwise, loss


def _kernels(s: TrainingSetup, p: _Passes, kinds: tuple, wrapped: tuple) -> float:
    """Kernels the host launches per micro-batch (a MoE layer's experts: moe_expert_kernels)."""
    per_layer_fwd = _KERNELS_FWD_BASE + (0 if s.model.mlp_gated else -2)
    layer_kernels = []
    for i, kind in enumerate(kinds):
        fwd, calls = moe_expert_kernels(s, kind, p.tokens)
        per_layer = (per_layer_fwd + fwd) * (p.fwd + p.ref) + (per_layer_fwd + fwd) * _KERNELS_BWD_PER_FWD - (
            0 if p.full else len(kind.linears))
        n_wrapped = sum(calls(x) for x in wrapped[i][1]) if wrapped else 0
        per_layer += n_wrapped * (_KERNELS_LORA_FWD * p.fwd + _KERNELS_LORA_BWD)
        if s.method is Method.QLORA:
            n_q = sum(calls(x) for x in kind.linears) if s.qlora_backend is QloraBackend.BITSANDBYTES else n_wrapped
            per_layer += n_q * dequant_kernels(s) * (p.fwd + 1 + p.ref)
        layer_kernels.append(per_layer * kind.count)
    kernels = sum(layer_kernels) + _KERNELS_OUTSIDE_LAYERS
    if s.torch_compile:
        kernels *= COEFFICIENTS.compile_kernel_share
    return kernels


def _gradient_bytes(s: TrainingSetup) -> int:
    """Bytes of one gradient element as the GPUs reduce it (FSDP/DeepSpeed reduce mixed precision's in 16-bit)."""
    if s.method is Method.FULL:
        return 2 if s.precision in (Precision.BF16, Precision.MIXED) else 4
    return 4 if s.lora_dtype is Precision.FP32 else 2


def _gpu_traffic(s: TrainingSetup, p: _Passes, t_params: float) -> tuple[float, float]:
    """(bytes per micro-batch, bytes per step) each GPU sends to the others. Ring collectives: all-gather /
    reduce-scatter move (N-1)/N of the tensor per GPU, all-reduce twice that."""
    n = s.num_gpus
    comm = 0.0
    comm_step = 0.0
    if n <= 1:
        return comm, comm_step
    gbytes = _gradient_bytes(s)
    frac = (n - 1) / n
    if s.sharding is Sharding.ZERO3:
        # all-gather the weights for the forward, again for the backward (and for a DPO reference forward);
        # reduce-scatter the gradients of every micro-batch
        comm += gathered_weight_bytes(s) * frac * (2 + p.ref)
        comm += t_params * gbytes * frac
    elif s.sharding is Sharding.ZERO2:
        comm += t_params * gbytes * frac                # reduce-scatter in every backward
        comm_step += t_params * 2 * frac                # all-gather the updated 16-bit weights
    elif s.sharding is Sharding.ZERO1:
        comm_step += t_params * gbytes * frac + t_params * 2 * frac
    else:
        comm_step += 2 * t_params * gbytes * frac       # DDP all-reduce once per step (no_sync accumulation)
    return comm, comm_step


def _host_traffic(s: TrainingSetup, p: _Passes, t_params: float) -> tuple[float, float, float, float, float]:
    """(bytes per micro-batch, bytes per step, parameters stepped on the host, peak, paged optimizer bytes) over the
    host link. Offloaded parameters travel in for every forward and backward; an offloaded optimizer sends the
    gradients out and the weights back every step; paged optimizer states that do not fit are evicted and brought
    back every step (``_card_terms``, from the peak and the paged bytes); offloaded activations go out in the forward
    and back in the backward."""
    host = 0.0
    host_step = 0.0
    peak = paged = 0.0
    cpu_params = 0.0
    shard = s.num_gpus if s.sharding is not Sharding.NONE else 1
    if s.offload_params and s.sharding is Sharding.ZERO3:
        host += gathered_weight_bytes(s) / shard * (2 + p.ref)
    if s.cpu_offload:
        host_step += t_params / shard * (_gradient_bytes(s) + 2)
        cpu_params = float(t_params)
    if s.activation_offloading:
        host += activation_host_bytes(s) * 2
    if s.optimizer in (Optimizer.PAGED_ADAMW_8BIT, Optimizer.PAGED_ADAMW_32BIT) and not s.cpu_offload:
        e = memory_estimate(s)
        peak, paged = float(e.peak_bytes), float(e.paged_optimizer_bytes)
    return host, host_step, cpu_params, peak, paged


def setup_counts(s: TrainingSetup) -> StepCounts:
    """What one optimizer step of ``s`` does on one GPU, before a card is chosen (``step_counts`` adds the card's
    links): counted once per setup, one part per helper above."""
    p = _passes(s)
    kinds = count_params(held_arch(s)).kinds
    # the wrapped linears of each layer kind: params.setup_targets, the one count memory uses too (the expert layout
    # included: fused 3-D experts are not nn.Linear and get no adapter), none for full fine-tuning
    wrapped = () if p.full else setup_targets(s)
    matmuls, flop_terms = _layer_matmuls(s, p, kinds, wrapped)
    attention, attention_model_flops = _attention_flops(s, p)
    model_flops = 0.0
    for f in (*flop_terms, attention_model_flops):
        model_flops += f
    elementwise, loss = _elementwise_bytes(s, p)
    # QLoRA: each forward and backward dequantises every quantised weight (read 4-bit + constants, write 16-bit);
    # bitsandbytes MatMul4Bit.forward and .backward call dequantize_4bit; torchao NF4 likewise. Per quantised
    # weight: dequant_bytes_per_param (the code, the constants, double quantisation's passes over them, the write).
    dequant = quantized_params(s) * dequant_bytes_per_param(s) * (p.fwd + 1 + p.ref)
    zero3_passes = 0.0
    if s.deepspeed and s.sharding is Sharding.ZERO3:
        zero3_passes = float(s.model.num_hidden_layers * (p.fwd + 1 + p.ref))
    t_params = trainable_params(s)
    comm, comm_step = _gpu_traffic(s, p, t_params)
    host, host_step, cpu_params, peak, paged = _host_traffic(s, p, t_params)
    opt_bytes = 0.0
    if not s.cpu_offload:
        o_shard = s.num_gpus if s.sharding is not Sharding.NONE else 1
        opt_bytes = t_params / o_shard * _optimizer_sweep_bytes_per_param(s)
    total = sum(f for f, _ in matmuls) + attention
    return StepCounts(
        tokens=p.tokens, micro_batches=s.grad_accum_steps, matmuls=tuple(matmuls), attention_flops=attention,
        elementwise_bytes=elementwise, loss_bytes=loss, dequant_bytes=dequant, kernels=_kernels(s, p, kinds, wrapped),
        zero3_layer_passes=zero3_passes,
        comm_bytes=comm, comm_step_bytes=comm_step, link_gb_s=0.0, link_kind="none", host_bytes=host,
        host_step_bytes=host_step, paging_bytes=0.0, host_gb_s=PCIE_FALLBACK_GB_S, optimizer_bytes=opt_bytes,
        cpu_optimizer_params=cpu_params, model_flops=model_flops, total_flops=total, peak_bytes=peak,
        paged_bytes=paged, roofline=_roofline(tuple(matmuls)),
    )


# =====================================================================================================================
# Time (efficiencies)
# =====================================================================================================================
@dataclass(frozen=True)
class StepTime:
    step_s: float           # one optimizer step
    compute_s: float        # GPU time of one micro-batch
    host_s: float           # host (launch, hooks) time of one micro-batch
    comm_s: float           # exposed communication per micro-batch
    optimizer_s: float      # the optimizer step (GPU sweep, host transfers, CPU step), per optimizer step


def _combine(x: float, y: float, p: float) -> float:
    if x <= 0 or y <= 0:
        return x + y
    hi = max(x, y)
    return hi * ((x / hi) ** p + (y / hi) ** p) ** (1.0 / p)


def matmul_share(gpu: GpuSpec, k: TimeCoefficients = COEFFICIENTS) -> float:
    """The share of ``gpu``'s dense 16-bit peak that large GEMMs sustain: GeForce cards their own (above)."""
    return k.consumer_matmul_efficiency if gpu.klass == "consumer" else k.matmul_efficiency


def _link_efficiency(kind: str, k: TimeCoefficients) -> float:
    return {"nvlink": k.nvlink_efficiency, "network": k.network_efficiency}.get(kind, k.pcie_efficiency)


def step_time(c: StepCounts, gpu: GpuSpec, k: TimeCoefficients = COEFFICIENTS) -> StepTime:
    """Seconds of one step from the counts: a roofline per matmul group (FLOPs at the sustained peak, or its bytes
    at the sustained bandwidth, whichever is slower), attention at its own efficiency, streaming traffic at the
    bandwidth; host time combined with GPU time by ``overlap_p``; communication exposed beyond what overlaps with
    compute; host-link transfers in parallel with compute; the optimizer after the last micro-batch."""
    return _step_time(c, gpu, k, c.link_gb_s, c.link_kind, c.paging_bytes, c.host_gb_s, c.inter_gb_s)


def _step_time(c: StepCounts, gpu: GpuSpec, k: TimeCoefficients, link_gb_s: float, link_kind: str,
               paging_bytes: float, host_gb_s: float, inter_gb_s: float = 0.0) -> StepTime:
    """``step_time`` with the card's terms (``_card_terms``) given apart from the counts, so that the GPU table
    times one setup's counts on every card without copying them."""
    peak = gpu.peak_tflops * 1e12
    mm = peak * matmul_share(gpu, k)
    bw = gpu.memory_gb_s * 1e9 * k.bandwidth_efficiency
    intensity, flops_from, bytes_before = c.roofline
    i = bisect_left(intensity, mm / bw)                   # groups from i on are compute-bound on this card
    t_mm = flops_from[i] / mm + bytes_before[i] / bw
    t_att = c.attention_flops / (peak * k.attention_efficiency
                                 * (k.attention_hopper_share if gpu.arch == "hopper" else 1.0))
    t_elem = (c.elementwise_bytes * k.elementwise_traffic + c.loss_bytes + c.dequant_bytes) / bw
    compute = t_mm + t_att + t_elem
    host = c.kernels * k.kernel_launch_s + c.zero3_layer_passes * k.zero3_layer_s
    micro = _combine(compute, host, k.overlap_p)
    comm = 0.0
    link = link_gb_s * 1e9 * _link_efficiency(link_kind, k) if link_gb_s > 0 else 0.0
    if link and inter_gb_s > 0:      # across nodes: the slower of the node's links and the network bounds it
        link = min(link, inter_gb_s * 1e9 * k.network_efficiency)
    if link:
        total = c.comm_bytes / link
        hidden = k.comm_overlap * compute
        comm = max(0.0, total - hidden) + (1.0 - k.comm_overlap) * min(total, hidden)
    host_link = host_gb_s * 1e9 * k.host_link_efficiency
    micro_total = max(micro + comm, c.host_bytes / host_link)
    steps = max(micro_total * c.micro_batches, paging_bytes / host_link)
    host_memory = (gpu.host_memory_gb_s or k.host_memory_gb_s) * 1e9      # the GH200's LPDDR5X, else a server's
    opt = (c.optimizer_bytes / bw + c.host_step_bytes / host_link
           + c.cpu_optimizer_params * k.cpu_adam_bytes_per_param / host_memory)
    if link and c.comm_step_bytes:
        opt += c.comm_step_bytes / link
    step = steps + opt
    return StepTime(step_s=step, compute_s=compute, host_s=host, comm_s=comm, optimizer_s=opt)


# =====================================================================================================================
# The figures the API returns
# =====================================================================================================================
def check(s: TrainingSetup, gpu: GpuSpec) -> None:
    """``TimeNotModelled`` for a time the model cannot give honestly (vocab.TIME_ERRORS)."""
    if s.precision is Precision.FP32:
        raise TimeNotModelled("fp32_not_modelled", "precision")
    if not gpu.peak_tflops or not gpu.memory_gb_s:
        raise TimeNotModelled("no_peak", "gpu")


def throughput(s: TrainingSetup, gpu: GpuSpec, k: TimeCoefficients = COEFFICIENTS) -> dict[str, Any]:
    """Tokens per second (computed tokens: padding included), step time, MFU, and the low-high range."""
    check(s, gpu)
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


def host_link_gb_s(gpu: GpuSpec) -> float:
    """The card's host link per direction, GB/s (PCIe; the fallback for a card whose datasheet gives none)."""
    return gpu.host_link_gb_s or PCIE_FALLBACK_GB_S


def paging(s: TrainingSetup, gpu: GpuSpec, k: TimeCoefficients = COEFFICIENTS) -> tuple[float, float]:
    """A paged optimizer whose states do not all fit on ``gpu``: the seconds per step its evicted states take over
    the host link (out and back: ``paging_bytes``) and the step's slowdown against the same step with every state
    resident (the transfer overlaps the compute, so the slowdown is 1 until it is longer than the step)."""
    check(s, gpu)
    c = step_counts(s, gpu)
    with_paging = step_time(c, gpu, k).step_s
    without = step_time(replaced(c, paging_bytes=0.0), gpu, k).step_s
    return c.paging_bytes / (host_link_gb_s(gpu) * 1e9 * k.host_link_efficiency), with_paging / without


def setup_tokens_per_second(s: TrainingSetup, gpu: GpuSpec, counts: StepCounts | None = None,
                            k: TimeCoefficients = COEFFICIENTS) -> float:
    """Tokens per second of the whole setup (all its GPUs) on ``gpu``, from the setup's counts (``setup_counts(s)``,
    counted once per setup: the GPU table times one count's counts on every card)."""
    check(s, gpu)
    counts = counts or setup_counts(s)
    t = _step_time(counts, gpu, k, *_card_terms(counts, s, gpu))
    return counts.tokens * counts.micro_batches / t.step_s * s.num_gpus


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
    return s if length == s.seq_len else replaced(s, seq_len=length)


def run_time(s: TrainingSetup, gpu: GpuSpec, w: Workload, k: TimeCoefficients = COEFFICIENTS,
             tp: dict[str, Any] | None = None) -> dict[str, Any]:
    """Seconds and GPU-hours of the whole run (``epochs`` passes over the data). ``dataset_tokens`` counts every
    token of the data (DPO: both sequences of every pair); without a mean example length, unpacked data is taken as
    ``seq_len``-long examples (no padding). ``tp``: the throughput of ``effective_setup(s, w)`` if already known."""
    check(s, gpu)
    if w.dataset_examples is not None and not w.mean_tokens_per_example:
        raise TimeNotModelled("missing_field", "mean_tokens_per_example")
    if w.dataset_examples is None and w.dataset_tokens is None:
        raise TimeNotModelled("missing_field", "dataset_tokens")
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
