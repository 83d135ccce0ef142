"""Advice on top of the estimate: fit verdicts, the smallest setup that fits, remedies, and the inverse solver.

Headroom rule (documented in ESTIMATOR.md): usable memory is the memory the driver reports (``GpuSpec.memory_bytes``,
nvidia-smi ``memory.total``); the compared figure is the nvidia-smi-like peak (allocated + allocator reserve + CUDA
context, plus a paged optimizer's states while they are resident: ``Estimate.driver_bytes``). ``comfortable`` if it
is <= 85 % of usable, ``tight`` if the top of its likely range (memory.likely_range, +-10 %) is below usable,
``at_edge`` (measure) while usable lies inside that range; above that, ``fits_by_paging`` when the peak without the paged states
fits (the driver evicts paged states to host RAM and brings them back every step: it trains, slower), else
``does_not_fit``. The 15 % margin covers the run-to-run spread of the measurements (about +-10 %, calibration README
caveat 2) and memory other processes (a desktop, a second job) hold.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from .catalog import GPUS
from .errors import InputError
from .inputs import BY_NAME, DEFAULTS, LIMITS, inputs_json
from .memory import COEFFICIENTS, estimate as _estimate, likely_range
from .params import fsdp1_refuses_uint8, trainable_params
from .models import (Attention, Estimate, GpuSpec, Method, Optimizer, Precision, QuantStorage, Sharding, TrainingSetup,
                     replaced)
from .vocab import ADJUSTMENTS, CAPABILITY_REASONS, CARD_NOTES

__all__ = ["COMFORTABLE_SHARE", "TIGHT_SHARE", "SETUP_SIZES", "verdict", "fits", "surely_fits", "range_share", "setup_for",
           "data_parallel", "gpu_table",
           "smallest_setup", "remedies", "max_seq_len", "max_micro_batch", "SEQ_LEN_CAP", "MICRO_BATCH_CAP",
           "runnable", "CAPABILITY_REASONS", "ADJUSTMENTS", "CARD_NOTES", "table_setup", "STACK_KEYS", "STACK_LARGE_SHARE", "stack"]

COMFORTABLE_SHARE = 0.85
#: The largest share of the card whose whole likely range is still below it: "tight" ends here, "at the edge" begins.
TIGHT_SHARE = round(1 / COEFFICIENTS.range_high, 4)
#: Every card count some catalogue card is offered in (GpuSpec.counts): the GPU table's columns.
SETUP_SIZES = tuple(sorted({n for g in GPUS.values() for n in g.counts}))

# =====================================================================================================================
# What a card can run (issue 20): a setup it cannot run is refused or adjusted, with the reason, never "fits"
# =====================================================================================================================
#: Architectures without BF16 arithmetic or FlashAttention 2 (compute capability below 8.0). FlashAttention 2's kernels
#: check ``cc_major >= 8`` ("FlashAttention only supports Ampere GPUs or newer", csrc/flash_attn/flash_api.cpp); BF16
#: tensor math starts with Ampere (torch.cuda.is_bf16_supported() answers True below it only by emulation).
_PRE_AMPERE = ("pascal", "volta", "turing")
#: Model types that overflow in fp16 (huggingface/transformers#36822 for Gemma 3; Unsloth's FORCE_FLOAT32 list,
#: unsloth/models/loader.py @015bdef0, runs them in float32 mixed precision on cards without bf16).
_FP16_OVERFLOW = ("gemma3", "gemma3_text", "gemma2", "qwen3_moe", "glm4_moe", "gpt_oss")


def _bitsandbytes(s: TrainingSetup) -> bool:
    return s.method is Method.QLORA or s.optimizer in (Optimizer.ADAMW_8BIT, Optimizer.PAGED_ADAMW_8BIT,
                                                        Optimizer.PAGED_ADAMW_32BIT)


@lru_cache(maxsize=4096)
def runnable(s: TrainingSetup, gpu: GpuSpec) -> tuple[TrainingSetup, tuple[str, ...], tuple[str, ...]]:
    """The setup as the card runs it: (setup, adjustments made, notes). Raises ``InputError("unsupported_on_gpu",
    field, reason)`` for what the card cannot run at all.

    * No bf16 (P100, V100, T4): ``bf16`` becomes ``mixed`` with fp16 autocast and fp32 master weights (HF Trainer
      ``fp16=True``, GradScaler), ``mixed`` autocasts in fp16, QLoRA computes in fp16 (``bnb_4bit_compute_dtype``),
      bf16 adapters become fp32 (capabilities: transformers accepts ``bf16=True`` there through emulation only).
    * FlashAttention 2 below Ampere: refused on ``attention`` (SDPA's memory-efficient kernel runs there).
    * Notes: fp16 overflow of some families on those cards, FlashAttention 2 on sm_120 (a source build of
      flash-attn >= 2.8.3.post1 with CUDA >= 12.8), on ROCm (the CK backend), bitsandbytes on ROCm (official from
      0.50.0; gfx950 in its ROCm 7 wheels), and the PyTorch builds that still run Pascal and Volta (cu126, torch <=
      2.14: RFC pytorch/pytorch#190385)."""
    if s.attention is Attention.FLASH and gpu.arch in _PRE_AMPERE:
        raise InputError("unsupported_on_gpu", "attention", "flash_needs_ampere")
    adjusted: list[str] = []
    notes: list[str] = []
    if not gpu.bf16:
        if s.precision is Precision.BF16:
            s = replaced(s, precision=Precision.MIXED, half_dtype=Precision.FP16)
            adjusted.append("bf16_to_fp16_mixed")
        elif s.precision is Precision.MIXED and s.half_dtype is not Precision.FP16:
            s = replaced(s, half_dtype=Precision.FP16)
            adjusted.append("autocast_fp16")
        if s.lora_dtype is Precision.BF16 and s.method is not Method.FULL:
            s = replaced(s, lora_dtype=Precision.FP32)
            adjusted.append("adapters_fp32")
        if s.precision is not Precision.FP32 and s.model.model_type in _FP16_OVERFLOW:
            notes.append("fp16_overflow_family")
    if s.attention is Attention.FLASH and gpu.compute_capability.startswith("12."):
        notes.append("flash_sm120_build")
    if gpu.arch.startswith("cdna"):
        if s.attention is Attention.FLASH:
            notes.append("flash_rocm")
        if _bitsandbytes(s):
            notes.append("bitsandbytes_rocm")
    if gpu.arch in ("pascal", "volta"):
        notes.append("legacy_pytorch")
    return s, tuple(adjusted), tuple(notes)
#: The inverse solver searches the whole range the API accepts, so its answers can always be fed back.
SEQ_LEN_CAP = int(LIMITS["seq_len"][1])
MICRO_BATCH_CAP = int(LIMITS["micro_batch_size"][1])


@lru_cache(maxsize=4096)
def cached_estimate(s: TrainingSetup) -> Estimate:
    """memory.estimate, remembered: the advice asks for the same setups again and again (the GPU table, each remedy
    alone and stacked, every probe of the inverse solver), and a page recomputing after each keystroke asks for most of
    them again. Setups are frozen, so a setup is its own key."""
    return _estimate(s)


def verdict(peak_bytes: int, memory_bytes: int, driver_bytes: int | None = None) -> str:
    """The verdict of a per-GPU peak on a card; ``driver_bytes``: the same with every paged optimizer state resident
    (None: no paged states). The one edge rule (issue 42, point 5): when the card's memory lies inside the peak's
    likely range (memory.likely_range, the spread of measured runs), the answer is ``at_edge`` -- measure -- rather
    than "tight" at 100 % and "does not fit" at 101 %."""
    used = peak_bytes if driver_bytes is None else max(driver_bytes, peak_bytes)
    if used <= COMFORTABLE_SHARE * memory_bytes:
        return "comfortable"
    low, high = likely_range(used)
    if high < memory_bytes:
        return "tight"
    if low <= memory_bytes:
        return "at_edge"
    if fits(peak_bytes, memory_bytes):
        return "fits_by_paging"
    return "at_edge" if likely_range(peak_bytes)[0] <= memory_bytes else "does_not_fit"


def fits(peak_bytes: int, memory_bytes: int) -> bool:
    """Whether a peak surely fits a card: its whole likely range is below the card's memory (the verdict is
    comfortable, tight or fits by paging). The smallest setup, the remedies and the inverse solver promise "fits" by
    this rule, so that none of them lands at the edge."""
    return likely_range(peak_bytes)[1] < memory_bytes


def surely_fits(verdict_: str) -> bool:
    """Whether a verdict promises the setup fits (``fits``' rule read off the verdict): not at the edge, not over."""
    return verdict_ not in ("at_edge", "does_not_fit")


def range_share(peak_bytes: int, memory_bytes: int) -> list[float]:
    """The peak's likely range as shares of the card's memory: what ``at_edge`` shows beside the verdict."""
    return [round(b / memory_bytes, 4) for b in likely_range(peak_bytes)]


def setup_for(s: TrainingSetup, n: int) -> TrainingSetup:
    """The same training on n cards. More than one card shards with the chosen ZeRO stage, or ZeRO-3/FSDP when
    none was chosen (plain data parallelism would not lower per-card memory); one card drops sharding unless
    it offloads (ZeRO-Offload). One rule for every count, the reader's own included: the reader's several cards
    without sharding (DDP) are ZeRO-3 here too, so the GPU table, the smallest setup and the sharding remedy never
    mix DDP at one count with ZeRO-3 at the others (issue 42, H1); the answer's ``data_parallel`` says what the
    reader's DDP costs against this."""
    if n == s.num_gpus and (n == 1 or s.sharding is not Sharding.NONE):
        return s
    if n == 1:
        if s.cpu_offload:
            return replaced(s, num_gpus=1)
        return replaced(s, num_gpus=1, sharding=Sharding.NONE, offload_params=False)
    sharding = s.sharding if s.sharding is not Sharding.NONE else Sharding.ZERO3
    out = replaced(s, num_gpus=n, sharding=sharding)
    if fsdp1_refuses_uint8(out.__dict__):
        out = replaced(out, quant_storage=QuantStorage.BF16)   # the storage a sharded QLoRA run sets (params)
    return out


#: The keys of a training stack that move a figure away from the plain stack (``framework`` none: the input table's
#: defaults), issue 42 (H2): the load dtype and precision, the 4-bit compute dtype, checkpointing, the loss, the
#: adapters' dtype, and the experts' layout and storage, in the order the answer lists them.
STACK_KEYS = ("base_fp32", "precision", "qlora_compute_dtype", "gradient_checkpointing", "fused_linear_cross_entropy",
              "lora_dtype", "moe_layout", "quantize_experts")
#: A key's delta is large, said with its figure and offered as a remedy when it adds memory, from this share of the
#: peak (5 %: under the estimate's own spread, calibration README caveat 2, it would not change a verdict alone).
STACK_LARGE_SHARE = 0.05


def _plain(key: str) -> Any:
    spec = BY_NAME[key]
    return spec.enum(DEFAULTS[key]) if spec.enum else DEFAULTS[key]


def stack(s: TrainingSetup) -> list[dict[str, Any]]:
    """Each ``STACK_KEYS`` key whose value moves the peak away from the plain stack's, with that value, the plain
    one, ``delta_bytes`` (this peak minus the peak re-estimated with that key alone at the plain stack's value:
    positive when the key adds memory) and ``large``; ``changes``, the request that takes the plain value. A key that
    moves nothing (the experts' layout of a dense model) is left out."""
    peak = cached_estimate(s).peak_bytes
    shown = inputs_json(s)
    out = []
    for key in STACK_KEYS:
        if shown[key] == DEFAULTS[key]:
            continue
        plain = replaced(s, **{key: _plain(key)})
        if plain.precision is Precision.FP32:
            plain = replaced(plain, lora_dtype=Precision.FP32)          # adapters follow an fp32 model (api)
        delta = peak - cached_estimate(plain).peak_bytes
        if delta:
            out.append({"key": key, "value": shown[key], "plain": DEFAULTS[key], "delta_bytes": delta,
                        "large": abs(delta) >= STACK_LARGE_SHARE * peak, "changes": {key: DEFAULTS[key]}})
    return out


def data_parallel(s: TrainingSetup, gpu: GpuSpec | None) -> dict[str, Any] | None:
    """Several cards without sharding (DDP): every card holds a full copy of the weights, gradients and optimizer
    states, so more cards buy speed, not memory per card. What sharding them by ``setup_for``'s rule (ZeRO-3) would
    give, with the request ``changes`` that ask for it and, with a card, its verdict; None for one card or a sharded
    setup."""
    if s.num_gpus == 1 or s.sharding is not Sharding.NONE:
        return None
    sharded = setup_for(s, s.num_gpus)
    e = cached_estimate(sharded)
    out: dict[str, Any] = {"num_gpus": s.num_gpus, "changes": _changes(s, sharded, {"sharding": sharded.sharding}),
                           "sharded_peak_bytes_per_gpu": e.peak_bytes}
    if gpu is not None:
        out["sharded_verdict"] = verdict(e.peak_bytes, gpu.memory_bytes, e.driver_bytes)
    return out


@lru_cache(maxsize=256)
def _peak(s: TrainingSetup, n: int) -> tuple[int, int]:
    """(peak, driver) bytes per GPU of ``s`` over ``n`` cards (the driver's figure counts paged states resident)."""
    e = cached_estimate(setup_for(s, n))
    return e.peak_bytes, e.driver_bytes


def table_setup(s: TrainingSetup, g: GpuSpec, n: int) -> TrainingSetup:
    """The setup of ``n`` cards ``g`` in the GPU table (issue 42, point 3): where the reader chose no sharding and
    the setup runs on one such card, several of them are data parallelism (DDP: each holds the whole setup and they
    share the batches), which buys speed where sharding would only trade memory for traffic; where DDP's copies do
    not fit, or the reader chose a stage, ``setup_for``'s sharding (ZeRO-3 unless chosen)."""
    if n > 1 and s.sharding is Sharding.NONE and not s.cpu_offload:
        one = setup_for(s, 1)
        ddp = replaced(one, num_gpus=n)
        if _peak_fits(one, g) and _peak_fits(ddp, g):
            return ddp
    return setup_for(s, n)


def _peak_fits(s: TrainingSetup, g: GpuSpec) -> bool:
    e = cached_estimate(s)
    return verdict(e.peak_bytes, g.memory_bytes, e.driver_bytes) in ("comfortable", "tight")


def _card_setup(s: TrainingSetup, g: GpuSpec) -> tuple[TrainingSetup | None, tuple[str, ...], dict[str, str] | None]:
    """(the setup as the card runs it or None, its adjustments, the refusal {field, reason} or None)."""
    try:
        run, adjusted, _notes = runnable(s, g)
    except InputError as err:
        return None, (), {"field": err.field or "", "reason": err.reason or ""}
    return run, adjusted, None


def gpu_table(s: TrainingSetup) -> list[dict[str, Any]]:
    """Verdict for every catalogue GPU in each card count it is offered in (``GpuSpec.counts``), each count's setup
    by ``table_setup`` (data parallelism where the card holds the whole setup, else sharding: ``parallelism``). A card that cannot run the setup has no setups and says why
    (``unsupported``); one that runs it adjusted (fp16 on a card without bf16) has that setup's peaks and says so
    (``adjusted``)."""
    rows = []
    for g in GPUS.values():
        run, adjusted, refused = _card_setup(s, g)
        row: dict[str, Any] = {"gpu": g.id, "name": g.name, "memory_bytes": g.memory_bytes, "klass": g.klass,
                               "setups": []}
        if run is None:
            row["unsupported"] = refused
        else:
            if adjusted:
                row["adjusted"] = list(adjusted)
            for n in g.counts:
                setup = table_setup(run, g, n)
                e = cached_estimate(setup)
                peak, driver = e.peak_bytes, e.driver_bytes
                row["setups"].append({"num_gpus": n, "peak_bytes_per_gpu": peak, "driver_bytes_per_gpu": driver,
                                      "verdict": verdict(peak, g.memory_bytes, driver),
                                      "share_of_memory": round(peak / g.memory_bytes, 4),
                                      "parallelism": "ddp" if n > 1 and setup.sharding is Sharding.NONE
                                      else setup.sharding.value if n > 1 else "none"})
        rows.append(row)
    return rows


def smallest_setup(s: TrainingSetup, cards: tuple[GpuSpec, ...] | None = None,
                   counts: tuple[int, ...] | None = None) -> dict[str, Any] | None:
    """Fewest cards first, then the card with the least memory, that fits (tight allowed), among the counts each
    card is offered in and the setups it can run; and the same for comfortable. ``cards``: search these cards only
    (default: the catalogue), each in ``counts`` (default: the counts it is offered in): an article's chart of card
    classes searches each class's smallest card in the counts it shows."""
    by_memory = sorted(GPUS.values() if cards is None else cards, key=lambda g: (g.memory_bytes, g.id))
    runs = {g.id: _card_setup(s, g)[0] for g in by_memory}
    out: dict[str, Any] = {"fits": None, "comfortable": None}
    # fits: the peak fits (paging allowed, slower); comfortable: with the paged states resident too
    for key, which in (("fits", 0), ("comfortable", 1)):
        for n in SETUP_SIZES if counts is None else sorted(counts):
            for g in by_memory:
                run = runs[g.id]
                if run is None or n not in (g.counts if counts is None else counts):
                    continue
                peaks = _peak(run, n)
                if (fits(peaks[0], g.memory_bytes) if key == "fits"
                        else peaks[1] <= COMFORTABLE_SHARE * g.memory_bytes):
                    out[key] = {"gpu": g.id, "num_gpus": n, "peak_bytes_per_gpu": peaks[0],
                                "verdict": verdict(peaks[0], g.memory_bytes, peaks[1])}
                    break
            if out[key] is not None:
                break
    return out


def _fits(s: TrainingSetup, gpu: GpuSpec) -> bool:
    return fits(cached_estimate(s).peak_bytes, gpu.memory_bytes)


def _largest(lo: int, hi: int, ok: Any, start: int | None = None) -> int:
    """Largest x in [lo, hi] with ok(x), for a monotone predicate (True then False); lo-1 if none. From ``start`` (the
    reader's own value, usually near the answer) the bracket is found by doubling or halving before the bisection, so
    an answer close to it costs a few probes instead of log2(hi) of them."""
    if start is not None and lo < start < hi:
        if ok(start):
            lo, step = start, 1
            while lo + step < hi and ok(lo + step):
                lo, step = lo + step, step * 2
            hi = min(lo + step, hi)
            if hi == lo or ok(hi):
                return hi
        else:
            hi, step = start, 1
            while hi - step > lo and not ok(hi - step):
                hi, step = hi - step, step * 2
            lo = max(hi - step, lo)
    if not ok(lo):
        return lo - 1
    if ok(hi):
        return hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if ok(mid):
            lo = mid
        else:
            hi = mid
    return lo


@lru_cache(maxsize=1024)
def max_seq_len(s: TrainingSetup, gpu: GpuSpec) -> int:
    """Longest seq_len (at the chosen micro-batch) whose peak fits the card; 0 when even 1 token does not."""
    return _largest(1, SEQ_LEN_CAP, lambda x: _fits(replaced(s, seq_len=x), gpu), start=s.seq_len)


@lru_cache(maxsize=1024)
def max_micro_batch(s: TrainingSetup, gpu: GpuSpec) -> int:
    """Largest micro-batch (at the chosen seq_len) whose peak fits the card; 0 when even 1 does not."""
    return _largest(1, MICRO_BATCH_CAP, lambda x: _fits(replaced(s, micro_batch_size=x), gpu),
                    start=s.micro_batch_size)


def remedies(s: TrainingSetup, gpu: GpuSpec) -> list[dict[str, Any]]:
    """_remedies, remembered per setup and card (a page asks again after each change); each call gets its own copy."""
    return [{**x, "changes": dict(x["changes"])} for x in _remedies(s, gpu)]


@lru_cache(maxsize=1024)
def _remedies(s: TrainingSetup, gpu: GpuSpec) -> tuple[dict[str, Any], ...]:
    """The guide's remedies ranked by what each saves alone (the most first), each re-estimated: alone (on the user's
    setup) and cumulative (on top of the steps listed before it). Empty when the setup already fits the card.

    Micro-batch 1 with gradient accumulation restoring the effective batch; gradient checkpointing; a fused
    loss (the output layer and the loss in one kernel); an 8-bit optimizer; LoRA; QLoRA; activation offloading: a step that lowers the peak neither alone nor on top of the steps before it (gradient
    checkpointing when the peak is the optimizer step) is not offered, nor adapters on targets the model lacks (the
    API refuses such a LoRA: it trains nothing), and the chain stops at the first step with
    which everything fits. A step may raise the peak alone and still lower it on top of the steps before it (LoRA and
    QLoRA without checkpointing keep activations for their adapters): its ``peak_bytes_alone`` is then above the
    setup's own peak, and the page says why. Then two alternatives that change the training itself, each alone, outside the running
    total (``peak_bytes_cumulative`` None): 7 sharding across the fewest cards of this GPU that fit (ZeRO-3), with the
    fewest cards for the chain above in ``num_gpus_cumulative``; and shorter sequences (the longest that fits at
    micro-batch 1).
    """
    if _fits(s, gpu):
        return ()
    steps: list[tuple[str, dict[str, Any]]] = []
    if s.micro_batch_size > 1:
        steps.append(("smaller_micro_batch", {"micro_batch_size": 1,
                                              "grad_accum_steps": s.grad_accum_steps * s.micro_batch_size,
                                              "optimizer_in_backward": False}))
    steps.append(("gradient_checkpointing", {"gradient_checkpointing": True}))
    # the output layer and the loss as one kernel (Liger, Cut Cross-Entropy, Unsloth, TRL's fused head): the full
    # logits never exist, which is most of a long sequence's growth with a large vocabulary (content review, O1)
    if not s.fused_linear_cross_entropy:
        steps.append(("fused_loss", {"fused_linear_cross_entropy": True}))
    if s.optimizer not in (Optimizer.ADAMW_8BIT, Optimizer.PAGED_ADAMW_8BIT, Optimizer.SGD):
        steps.append(("8bit_optimizer", {"optimizer": Optimizer.ADAMW_8BIT}))
    if s.method is Method.FULL:
        steps.append(("lora", {"method": Method.LORA}))
    if s.method is not Method.QLORA:
        qlora: dict[str, Any] = {"method": Method.QLORA}
        if fsdp1_refuses_uint8(replaced(s, **qlora).__dict__):
            qlora["quant_storage"] = QuantStorage.BF16   # the storage a sharded QLoRA run sets (as setup_for does)
        steps.append(("qlora", qlora))
    if not s.activation_offloading:
        # activations streamed to host RAM after each layer (torchtune/TRL's activation offloading): issue 42, point 5
        steps.append(("activation_offloading", {"activation_offloading": True}))
    # ranked by what each saves alone, the most first (issue 42, point 5: "an 8-bit optimizer" saving 63 MB of
    # 29.2 GB was listed first); ties keep the guide's order
    steps.sort(key=lambda step: cached_estimate(replaced(s, **step[1])).peak_bytes)
    base_peak = cached_estimate(s).peak_bytes
    out: list[dict[str, Any]] = []
    cumulative, cum_peak = s, base_peak
    for name, change in steps:
        alone = replaced(s, **change)
        stacked = replaced(cumulative, **change)
        if alone.method is not Method.FULL and trainable_params(alone) == 0:
            continue                                   # adapters on targets the model lacks: nothing to train
        e_alone, e_stacked = cached_estimate(alone).peak_bytes, cached_estimate(stacked).peak_bytes
        if e_alone >= base_peak and e_stacked >= cum_peak:
            continue                                   # changes nothing for this setup
        if e_stacked < cum_peak:
            cumulative, cum_peak = stacked, e_stacked
        out.append({"remedy": name, "changes": _changes(s, alone, change),
                    "peak_bytes_alone": e_alone, "peak_bytes_cumulative": cum_peak,
                    "fits_alone": fits(e_alone, gpu.memory_bytes), "fits_cumulative": fits(cum_peak, gpu.memory_bytes)})
        if fits(cum_peak, gpu.memory_bytes):
            break
    # 7 sharding, alone: the fewest cards of this GPU that fit with ZeRO-3, among the counts it is offered in; and
    # how many the chain above would need. A card offered alone (the P100 on Kaggle, the A10) offers no sharding.
    counts = tuple(n for n in gpu.counts if n > 1)
    if not counts:
        return tuple(out) + _shorter(s, gpu)
    shard_alone = next((n for n in counts if _fits(setup_for(s, n), gpu)), None)
    shard_cum = next((n for n in (1,) + counts if _fits(setup_for(cumulative, n), gpu)), None)
    n_alone = shard_alone or counts[-1]
    sharded = setup_for(s, n_alone)
    out.append({"remedy": "sharding",
                "changes": _changes(s, sharded, {"num_gpus": n_alone, "sharding": sharded.sharding}),
                "peak_bytes_alone": cached_estimate(setup_for(s, n_alone)).peak_bytes, "fits_alone": shard_alone is not None,
                "peak_bytes_cumulative": None, "fits_cumulative": None, "num_gpus_cumulative": shard_cum})
    return tuple(out) + _shorter(s, gpu)


def _shorter(s: TrainingSetup, gpu: GpuSpec) -> tuple[dict[str, Any], ...]:
    """Shorter sequences, alone: the longest that fits at micro-batch 1 (with accumulation keeping the batch)."""
    base1 = replaced(s, micro_batch_size=1, grad_accum_steps=s.grad_accum_steps * s.micro_batch_size,
                    optimizer_in_backward=False if s.micro_batch_size > 1 else s.optimizer_in_backward)
    longest = max_seq_len(base1, gpu)
    if 0 < longest < s.seq_len:
        shorter = replaced(base1, seq_len=longest)
        return ({"remedy": "shorter_sequences", "changes": _changes(s, shorter, {"seq_len": longest,
                                                                                "micro_batch_size": 1}),
                 "peak_bytes_alone": cached_estimate(shorter).peak_bytes, "fits_alone": True,
                 "peak_bytes_cumulative": None, "fits_cumulative": None},)
    return ()


def _changes(s: TrainingSetup, t: TrainingSetup, named: dict[str, Any]) -> dict[str, Any]:
    """A remedy's ``changes``: the keys it is named by, then every other request key in which its setup ``t``
    differs from ``s`` (the accumulation that keeps the batch, an optimizer in backward turned off, the 4-bit
    storage sharding needs), in request form, so that a request with exactly these changes is the setup its
    figure was estimated for."""
    before, after = inputs_json(s), inputs_json(t)
    out = {k: getattr(v, "value", v) for k, v in named.items()}
    out.update((k, v) for k, v in after.items() if k not in out and v != before[k])
    return out
