"""Advice on top of the estimate: fit verdicts, the smallest setup that fits, remedies, and the inverse solver.

Headroom rule (documented in ESTIMATOR.md): usable memory is the memory the driver reports (``GpuSpec.memory_bytes``,
nvidia-smi ``memory.total``); the compared figure is the nvidia-smi-like peak (allocated + allocator reserve + CUDA
context, plus a paged optimizer's states while they are resident: ``Estimate.driver_bytes``). ``comfortable`` if it
is <= 85 % of usable, ``tight`` if <= 100 %; above that, ``fits_by_paging`` when the peak without the paged states
fits (the driver evicts paged states to host RAM and brings them back every step: it trains, slower), else
``does_not_fit``. The 15 % margin covers the run-to-run spread of the measurements (about +-10 %, calibration README
caveat 2) and memory other processes (a desktop, a second job) hold.
"""
from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import Any

from .catalog import GPUS
from .inputs import LIMITS
from .memory import estimate as _estimate
from .models import Estimate, GpuSpec, Method, Optimizer, QuantStorage, Sharding, TrainingSetup

__all__ = ["COMFORTABLE_SHARE", "TIGHT_SHARE", "SETUP_SIZES", "verdict", "setup_for", "gpu_table",
           "smallest_setup", "remedies", "max_seq_len", "max_micro_batch", "SEQ_LEN_CAP", "MICRO_BATCH_CAP"]

COMFORTABLE_SHARE = 0.85
TIGHT_SHARE = 1.0
SETUP_SIZES = (1, 2, 4, 8)
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
    (None: no paged states)."""
    used = peak_bytes if driver_bytes is None else max(driver_bytes, peak_bytes)
    if used <= COMFORTABLE_SHARE * memory_bytes:
        return "comfortable"
    if used <= TIGHT_SHARE * memory_bytes:
        return "tight"
    if peak_bytes <= TIGHT_SHARE * memory_bytes:
        return "fits_by_paging"
    return "does_not_fit"


def setup_for(s: TrainingSetup, n: int) -> TrainingSetup:
    """The same training on n cards. More than one card shards with the chosen ZeRO stage, or ZeRO-3/FSDP when
    none was chosen (plain data parallelism would not lower per-card memory); one card drops sharding unless
    it offloads (ZeRO-Offload)."""
    if n == s.num_gpus:
        return s
    if n == 1:
        if s.cpu_offload:
            return replace(s, num_gpus=1)
        return replace(s, num_gpus=1, sharding=Sharding.NONE, offload_params=False)
    sharding = s.sharding if s.sharding is not Sharding.NONE else Sharding.ZERO3
    out = replace(s, num_gpus=n, sharding=sharding)
    if (s.method is Method.QLORA and s.quant_storage is QuantStorage.UINT8 and not s.deepspeed
            and s.fsdp_version == 1):
        # FSDP1 cannot flatten uint8 4-bit weights with the 16-bit rest (api: contradiction): a sharded QLoRA run
        # stores them in bf16, as PEFT's FSDP QLoRA recipe and TRL's FSDP docs set bnb_4bit_quant_storage
        out = replace(out, quant_storage=QuantStorage.BF16)
    return out


@lru_cache(maxsize=64)
def _peaks_by_size(s: TrainingSetup) -> dict[int, tuple[int, int]]:
    """(peak, driver) bytes per GPU for each setup size."""
    out = {}
    for n in SETUP_SIZES:
        e = cached_estimate(setup_for(s, n))
        out[n] = (e.peak_bytes, e.driver_bytes)
    return out


def gpu_table(s: TrainingSetup) -> list[dict[str, Any]]:
    """Verdict for every catalogue GPU in setups of 1/2/4/8 cards (per-card peak depends on n, not on the card)."""
    peaks = dict(_peaks_by_size(s))
    rows = []
    for g in GPUS.values():
        rows.append({
            "gpu": g.id, "name": g.name, "memory_bytes": g.memory_bytes,
            "setups": [{"num_gpus": n, "peak_bytes_per_gpu": peaks[n][0], "driver_bytes_per_gpu": peaks[n][1],
                        "verdict": verdict(peaks[n][0], g.memory_bytes, peaks[n][1]),
                        "share_of_memory": round(peaks[n][0] / g.memory_bytes, 4)} for n in SETUP_SIZES],
        })
    return rows


def smallest_setup(s: TrainingSetup) -> dict[str, Any] | None:
    """Fewest cards first, then the card with the least memory, that fits (tight allowed); and the same for
    comfortable. None when nothing in the catalogue fits even 8 cards."""
    peaks = dict(_peaks_by_size(s))
    by_memory = sorted(GPUS.values(), key=lambda g: (g.memory_bytes, g.id))
    out: dict[str, Any] = {"fits": None, "comfortable": None}
    # fits: the peak fits (paging allowed, slower); comfortable: with the paged states resident too
    for key, limit, which in (("fits", TIGHT_SHARE, 0), ("comfortable", COMFORTABLE_SHARE, 1)):
        for n in SETUP_SIZES:
            hit = next((g for g in by_memory if peaks[n][which] <= limit * g.memory_bytes), None)
            if hit is not None:
                out[key] = {"gpu": hit.id, "num_gpus": n, "peak_bytes_per_gpu": peaks[n][0],
                            "verdict": verdict(peaks[n][0], hit.memory_bytes, peaks[n][1])}
                break
    return out


def _fits(s: TrainingSetup, gpu: GpuSpec) -> bool:
    return cached_estimate(s).peak_bytes <= TIGHT_SHARE * gpu.memory_bytes


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
    return _largest(1, SEQ_LEN_CAP, lambda x: _fits(replace(s, seq_len=x), gpu), start=s.seq_len)


@lru_cache(maxsize=1024)
def max_micro_batch(s: TrainingSetup, gpu: GpuSpec) -> int:
    """Largest micro-batch (at the chosen seq_len) whose peak fits the card; 0 when even 1 does not."""
    return _largest(1, MICRO_BATCH_CAP, lambda x: _fits(replace(s, micro_batch_size=x), gpu),
                    start=s.micro_batch_size)


def remedies(s: TrainingSetup, gpu: GpuSpec) -> list[dict[str, Any]]:
    """_remedies, remembered per setup and card (a page asks again after each change); each call gets its own copy."""
    return [{**x, "changes": dict(x["changes"])} for x in _remedies(s, gpu)]


@lru_cache(maxsize=1024)
def _remedies(s: TrainingSetup, gpu: GpuSpec) -> tuple[dict[str, Any], ...]:
    """The guide's remedies in its order, each re-estimated: alone (on the user's setup) and cumulative (on top of the
    steps listed before it). Empty when the setup already fits the card.

    1 micro-batch 1 with gradient accumulation restoring the effective batch; 2 gradient checkpointing; 3 an 8-bit
    optimizer; 4 LoRA; 5 QLoRA: a step that lowers the peak neither alone nor on top of the steps before it (gradient
    checkpointing when the peak is the optimizer step) is not offered, and the chain stops at the first step with
    which everything fits. Then two alternatives that change the training itself, each alone, outside the running
    total (``peak_bytes_cumulative`` None): 6 sharding across the fewest cards of this GPU that fit (ZeRO-3), with the
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
    if s.optimizer not in (Optimizer.ADAMW_8BIT, Optimizer.PAGED_ADAMW_8BIT, Optimizer.SGD):
        steps.append(("8bit_optimizer", {"optimizer": Optimizer.ADAMW_8BIT}))
    if s.method is Method.FULL:
        steps.append(("lora", {"method": Method.LORA}))
    if s.method is not Method.QLORA:
        steps.append(("qlora", {"method": Method.QLORA}))
    limit = TIGHT_SHARE * gpu.memory_bytes
    base_peak = cached_estimate(s).peak_bytes
    out: list[dict[str, Any]] = []
    cumulative, cum_peak = s, base_peak
    for name, change in steps:
        alone = replace(s, **change)
        stacked = replace(cumulative, **change)
        e_alone, e_stacked = cached_estimate(alone).peak_bytes, cached_estimate(stacked).peak_bytes
        if e_alone >= base_peak and e_stacked >= cum_peak:
            continue                                   # changes nothing for this setup
        if e_stacked < cum_peak:
            cumulative, cum_peak = stacked, e_stacked
        out.append({"remedy": name, "changes": {k: getattr(v, "value", v) for k, v in change.items()},
                    "peak_bytes_alone": e_alone, "peak_bytes_cumulative": cum_peak,
                    "fits_alone": e_alone <= limit, "fits_cumulative": cum_peak <= limit})
        if cum_peak <= limit:
            break
    # 6 sharding, alone: the fewest cards of this GPU that fit with ZeRO-3; and how many the chain above would need
    shard_alone = next((n for n in SETUP_SIZES[1:] if _fits(setup_for(s, n), gpu)), None)
    shard_cum = next((n for n in SETUP_SIZES if _fits(setup_for(cumulative, n), gpu)), None)
    n_alone = shard_alone or SETUP_SIZES[-1]
    out.append({"remedy": "sharding",
                "changes": {"num_gpus": n_alone, "sharding": setup_for(s, n_alone).sharding.value},
                "peak_bytes_alone": cached_estimate(setup_for(s, n_alone)).peak_bytes, "fits_alone": shard_alone is not None,
                "peak_bytes_cumulative": None, "fits_cumulative": None, "num_gpus_cumulative": shard_cum})
    # shorter sequences, alone: the longest that fits at micro-batch 1 (with accumulation keeping the batch)
    base1 = replace(s, micro_batch_size=1, grad_accum_steps=s.grad_accum_steps * s.micro_batch_size,
                    optimizer_in_backward=False if s.micro_batch_size > 1 else s.optimizer_in_backward)
    longest = max_seq_len(base1, gpu)
    if 0 < longest < s.seq_len:
        out.append({"remedy": "shorter_sequences", "changes": {"seq_len": longest, "micro_batch_size": 1},
                    "peak_bytes_alone": cached_estimate(replace(base1, seq_len=longest)).peak_bytes, "fits_alone": True,
                    "peak_bytes_cumulative": None, "fits_cumulative": None})
    return tuple(out)
