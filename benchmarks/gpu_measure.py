"""Measure the memory and speed of real training steps on one GPU: the grid of regimes one card can show, one CSV row
per setup in the calibration format (``benchmarks/data/measurements.csv``'s columns, then the figures that format has
no column for). Prints figures; not a test.

    python -m benchmarks.gpu_measure --dry-run             # the grid, the estimator's figures, its GPU time (no torch)
    python -m benchmarks.gpu_measure --out rows.csv        # on a CUDA machine: measure every setup
    python -m benchmarks.gpu_measure --dry-run --tiny --out rows.csv   # every code path on a tiny model, on the CPU

Run it from the repository root (``-m`` puts the root on the path: ``calculator`` is standard library only and imports
anywhere). It needs torch, transformers, peft, accelerate and bitsandbytes, and nothing from the network: the models
are built from the catalogue's architectures (``calculator.catalog``) with random weights, on the card, and the data
is random token ids. The TRL environment of the export checks (``frameworks/trl/requirements.txt``) has every package
it imports; on a GPU machine install those pins from local wheels (benchmarks/README.md says how).

One process runs the whole grid (imports once). For each setup: build the model, wrap it as the setup says (PEFT
``get_peft_model`` for LoRA; bitsandbytes ``Linear4bit``/``Params4bit`` for the 4-bit base, the classes transformers'
``replace_with_bnb_linear`` makes; torch DDP or FSDP2 ``fully_shard`` over a one-process group), then one warm-up step
and two timed steps. Around each phase of a step (forward with the loss, backward, optimizer step) the peak
statistics are reset and read: ``max_memory_allocated``, ``max_memory_reserved``, and the driver's used memory
(``mem_get_info``: total - free) as a delta from the baseline taken before the first setup, sampled at the end of each
phase (the driver has no peak counter). Between setups everything is freed and ``empty_cache`` runs.

DPO is computed as TRL's ``DPOTrainer`` does it for a LoRA policy: chosen and rejected concatenated in one forward,
the reference log-probabilities from the same model with its adapters disabled, under ``no_grad``, and the sigmoid
loss. Paged optimizers (bitsandbytes ``PagedAdamW*``) page only tensors of >= 1e5 elements
(``Optimizer8bit.get_state_buffer``): the grid has LoRA ranks on both sides of that line. Their paged state is managed
memory, outside ``max_memory_allocated`` and inside the driver's figure while it is resident. Every paged run stays
well inside the card: over-asking managed memory can hang a GPU, so "paging turns an out-of-memory error into a
slowdown" is reasoned from bitsandbytes' source (ESTIMATOR.md), never measured here.

``--dry-run`` prints each setup's estimator request and the estimator's peak (allocated, as measured here) and step time on
an H200, and the grid's GPU time: per setup its build (parameters x 4 bytes at 100 GB/s, plus 3 s) and three steps at
the estimated step time (x 2 for the unknown), plus 20 s to start CUDA. It exits 1 when that exceeds 300 s.
``--tiny`` runs the grid's code paths on a 2-layer model on the CPU with the CUDA statistics stubbed (every figure
is 0 and the row says ``stub``): the harness is tested, the figures are not.
"""
from __future__ import annotations

import argparse
import csv
import json
import math
import platform
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Iterator

from calculator import api
from calculator.params import count_params

__all__ = ["Setup", "GRID", "COLUMNS", "EXTRA_COLUMNS", "request", "grid_seconds", "main"]

GPU = "h200"
BUDGET_S = 300.0
SOURCE = "measured by this project"
#: Token ids are drawn below this (every catalogue vocabulary is larger).
DATA_VOCAB = 32_000


@dataclass(frozen=True)
class Setup:
    """One measured run: the catalogue model and the knobs of the regime it shows. ``calibrates`` says which estimator
    terms its row can check (a world-size-1 process group shows what the wrapper allocates, not what communication
    costs)."""

    id: str
    model: str
    method: str = "lora"                       # full | lora | qlora
    seq_len: int = 2048
    micro_batch: int = 1
    checkpointing: bool = True
    load_fp32: bool = False                    # load the model in fp32 and train under bf16 autocast ("mixed")
    optimizer: str = "adamw_torch_fused"       # adamw_torch_fused | adamw_8bit | paged_adamw_8bit | paged_adamw_32bit
    lora_rank: int = 16
    double_quant: bool = True
    quant_storage: str = "uint8"               # uint8 | bf16
    qlora_compute_fp32: bool = False
    dpo: bool = False
    wrap: str = "none"                         # none | ddp | fsdp2 (a one-process group)
    calibrates: str = "peak"

    @property
    def precision(self) -> str:
        return "mixed" if self.load_fp32 else "bf16"


L1, Q15, L3, L8 = "llama-3.2-1b", "qwen2.5-1.5b", "llama-3.2-3b", "llama-3.1-8b"

#: Each regime one GPU can show, small enough to measure in a few minutes on an H200.
GRID: tuple[Setup, ...] = (
    Setup("full-1b-bf16", L1, "full", checkpointing=False),
    Setup("full-1b-bf16-ckpt", L1, "full"),
    Setup("full-1b-bf16-ckpt-8k", L1, "full", seq_len=8192),
    Setup("full-1b-mixed", L1, "full", load_fp32=True, calibrates="fp32 master weights and states under autocast"),
    Setup("full-1b-adamw8bit", L1, "full", optimizer="adamw_8bit"),
    Setup("full-1b-paged8bit", L1, "full", optimizer="paged_adamw_8bit",
          calibrates="paged states outside the allocator (tensors >= 1e5 elements); driver figure with them resident"),
    Setup("full-1b-paged32bit", L1, "full", optimizer="paged_adamw_32bit", calibrates="paged 32-bit states"),
    Setup("full-3b-bf16-ckpt", L3, "full"),
    Setup("full-8b-bf16-ckpt", L8, "full"),
    Setup("lora-qwen1.5b-bf16", Q15, "lora", calibrates="peak (attention bias, tied embeddings)"),
    Setup("lora-8b-bf16", L8, "lora"),
    Setup("lora-8b-bf16-nockpt", L8, "lora", checkpointing=False),
    Setup("lora-8b-bf16-8k", L8, "lora", seq_len=8192),
    Setup("lora-8b-fp32-load", L8, "lora", load_fp32=True, calibrates="fp32-loaded frozen base (base_fp32)"),
    Setup("lora-8b-r16-paged8bit", L8, "lora", optimizer="paged_adamw_8bit",
          calibrates="paged optimizer whose adapter tensors are all below 1e5 elements (none paged)"),
    Setup("lora-8b-r64-paged8bit", L8, "lora", optimizer="paged_adamw_8bit", lora_rank=64,
          calibrates="paged optimizer with adapter tensors above 1e5 elements (paged)"),
    Setup("qlora-8b-nf4-dq", L8, "qlora"),
    Setup("qlora-8b-nf4-nodq", L8, "qlora", double_quant=False, calibrates="quantization constants without double quant"),
    Setup("qlora-8b-bf16-storage", L8, "qlora", quant_storage="bf16", calibrates="bf16 quant storage (FSDP's)"),
    Setup("qlora-8b-fp32-compute", L8, "qlora", load_fp32=True, qlora_compute_fp32=True,
          calibrates="TRL's defaults: fp32 load, fp32 4-bit compute"),
    Setup("dpo-lora-1b", L1, "lora", seq_len=1024, dpo=True, calibrates="DPO: doubled sequences, reference pass"),
    Setup("dpo-lora-8b", L8, "lora", seq_len=1024, dpo=True),
    Setup("ddp1-lora-8b", L8, "lora", wrap="ddp",
          calibrates="DDP's bucket copy of the trainable gradients (gradient_as_bucket_view=False), at world size 1"),
    Setup("fsdp2-1-lora-1b", L1, "lora", wrap="fsdp2",
          calibrates="FSDP2's unsharded parameters and buffers at world size 1, not its communication"),
)

#: The calibration CSV's own columns (benchmarks/data/measurements.csv), then the figures it has no column for.
COLUMNS = ("id", "source_url", "source_quote", "model", "params_b", "arch_hidden", "arch_layers", "arch_heads",
           "arch_kv_heads", "arch_intermediate", "arch_vocab", "method", "weight_precision", "compute_precision",
           "optimizer", "lora_rank", "lora_targets", "micro_batch", "seq_len", "grad_checkpointing", "flash_attention",
           "num_gpus", "sharding", "cpu_offload", "gpu_model", "measured_peak_gb", "measure_kind", "units", "notes")
EXTRA_COLUMNS = ("reserved_gib", "driver_used_gib", "forward_gib", "backward_gib", "optimizer_step_gib",
                 "tokens_per_second", "estimator_request", "stack", "machine", "figures")
_TARGETS = ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj")


def request(s: Setup) -> dict[str, Any]:
    """The estimator's request for the same run (what the row is scored against)."""
    r: dict[str, Any] = {"model": s.model, "method": s.method, "gpu": GPU, "num_gpus": 1, "seq_len": s.seq_len,
                         "micro_batch_size": s.micro_batch, "gradient_checkpointing": s.checkpointing,
                         "attention": "sdpa", "precision": s.precision, "optimizer": s.optimizer,
                         "dpo": s.dpo, "include": []}
    if s.method != "full":
        # PEFT's get_peft_model(autocast_adapter_dtype=True) keeps the adapters of a 16-bit base in fp32
        r.update(lora_rank=s.lora_rank, lora_targets=list(_TARGETS), lora_dropout=0.0, lora_dtype="fp32",
                 base_fp32=s.load_fp32)
    if s.method == "qlora":
        r.update(double_quant=s.double_quant, quant_storage=s.quant_storage,
                 qlora_compute_dtype="fp32" if s.qlora_compute_fp32 else "bf16")
    return r


def _estimate(s: Setup) -> dict[str, Any]:
    out = api.answer({**request(s), "include": []})
    if not out["ok"]:
        raise SystemExit(f"{s.id}: the estimator refuses the grid's request: {out['errors']}")
    return out["result"]


def grid_seconds(grid: tuple[Setup, ...] = GRID) -> tuple[float, list[tuple[Setup, dict[str, Any], float]]]:
    """The grid's estimated GPU time (module docstring: the assumption) and, per setup, its answer and seconds."""
    rows = []
    total = 20.0
    for s in grid:
        r = _estimate(s)
        step = r["throughput"]["step_time_s"] if r.get("throughput") else 1.0
        seconds = r["params"] * 4 / 100e9 + 3.0 + 3 * step * 2
        rows.append((s, r, seconds))
        total += seconds
    return total, rows


def dry_run() -> int:
    total, rows = grid_seconds()
    print(f"{len(rows)} setups on 1 x {api.GPUS[GPU].name} (estimator's figures):")
    for s, r, seconds in rows:
        step = r["throughput"]["step_time_s"] if r.get("throughput") else float("nan")
        print(f"  {s.id:<24} allocated {r['allocated_bytes'] / 2**30:6.1f} GiB  peak {r['peak_gib']:6.1f} GiB  "
              f"{r['gpu']['verdict']:<14} step {step:6.3f} s  budget {seconds:5.1f} s")
    print(f"estimated GPU time of the grid: {total:.0f} s (limit {BUDGET_S:.0f} s)")
    return 0 if total <= BUDGET_S else 1


# =====================================================================================================================
# Measuring (imports torch and the frameworks only here)
# =====================================================================================================================
@dataclass
class Stats:
    """The CUDA statistics, or (``stub``) zeros on the CPU."""

    torch: Any
    stub: bool
    baseline: int = 0
    phases: dict[str, dict[str, int]] = field(default_factory=dict)

    def start(self) -> None:
        self.phases = {}
        if not self.stub:
            self.torch.cuda.synchronize()
            self.torch.cuda.reset_peak_memory_stats()

    def driver_used(self) -> int:
        if self.stub:
            return 0
        free, total = self.torch.cuda.mem_get_info()
        return total - free

    def mark(self, phase: str) -> None:
        """The phase's peaks (kept as the largest over the steps), then a reset for the next phase."""
        if self.stub:
            now = {"allocated": 0, "reserved": 0, "driver": 0}
        else:
            c = self.torch.cuda
            c.synchronize()
            now = {"allocated": c.max_memory_allocated(), "reserved": c.max_memory_reserved(),
                   "driver": self.driver_used() - self.baseline}
            c.reset_peak_memory_stats()
        old = self.phases.get(phase, now)
        self.phases[phase] = {k: max(old[k], now[k]) for k in now}

    def peak(self, key: str) -> int:
        return max(p[key] for p in self.phases.values())


def _config(arch: Any, tiny: bool, transformers: Any) -> Any:
    qwen = arch.attention_bias
    cls = transformers.Qwen2Config if qwen else transformers.LlamaConfig
    if tiny:
        dims = dict(hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4,
                    num_key_value_heads=2, vocab_size=DATA_VOCAB + 64)
    else:
        dims = dict(hidden_size=arch.hidden_size, intermediate_size=arch.intermediate_size,
                    num_hidden_layers=arch.num_hidden_layers, num_attention_heads=arch.num_attention_heads,
                    num_key_value_heads=arch.num_key_value_heads, vocab_size=arch.vocab_size)
        if arch.head_dim:
            dims["head_dim"] = arch.head_dim
    return cls(**dims, tie_word_embeddings=arch.tie_word_embeddings, max_position_embeddings=32_768,
               attn_implementation="sdpa")


def _quantize(model: Any, s: Setup, torch: Any, bnb: Any, device: Any) -> None:
    """Every linear layer of the decoder (not the output layer) as bitsandbytes' NF4 Linear4bit, its weight a
    Params4bit that quantizes as it moves to the device."""
    compute = torch.float32 if s.qlora_compute_fp32 else torch.bfloat16
    storage = torch.bfloat16 if s.quant_storage == "bf16" else torch.uint8
    for name, module in list(model.named_modules()):
        for child_name, child in list(module.named_children()):
            if type(child) is not torch.nn.Linear or child_name == "lm_head":
                continue
            new = bnb.nn.Linear4bit(child.in_features, child.out_features, bias=child.bias is not None,
                                    compute_dtype=compute, compress_statistics=s.double_quant, quant_type="nf4",
                                    quant_storage=storage, device="meta")
            new.weight = bnb.nn.Params4bit(child.weight.data, requires_grad=False, compress_statistics=s.double_quant,
                                           quant_type="nf4", quant_storage=storage, module=new).to(device)
            if child.bias is not None:
                new.bias = torch.nn.Parameter(child.bias.data, requires_grad=False)
            setattr(module, child_name, new)


def _optimizer(s: Setup, params: list[Any], torch: Any, bnb: Any, cpu: bool) -> Any:
    if s.optimizer == "adamw_torch_fused":
        return torch.optim.AdamW(params, lr=1e-5, fused=not cpu)
    return {"adamw_8bit": bnb.optim.AdamW8bit, "paged_adamw_8bit": bnb.optim.PagedAdamW8bit,
            "paged_adamw_32bit": bnb.optim.PagedAdamW32bit}[s.optimizer](params, lr=1e-5)


def _logps(logits: Any, labels: Any, torch: Any) -> Any:
    """Per-sequence log-probability of the labels (TRL's selective log-softmax, summed over the completion)."""
    logp = torch.log_softmax(logits[:, :-1].float(), dim=-1)
    return logp.gather(-1, labels[:, 1:, None]).squeeze(-1).sum(-1)


def _step(model: Any, opt: Any, s: Setup, batch: Any, stats: Stats, torch: Any, device: Any) -> None:
    autocast = torch.autocast(device.type, dtype=torch.bfloat16, enabled=s.load_fp32)
    with autocast:
        if s.dpo:      # chosen and rejected in one forward, the reference with the adapters off (TRL DPOTrainer)
            logits = model(input_ids=batch).logits
            policy = _logps(logits, batch, torch)
            with torch.no_grad(), model.disable_adapter():
                ref = _logps(model(input_ids=batch).logits, batch, torch)
            n = batch.shape[0] // 2
            margin = (policy[:n] - ref[:n]) - (policy[n:] - ref[n:])
            loss = -torch.nn.functional.logsigmoid(0.1 * margin).mean()
        else:
            loss = model(input_ids=batch, labels=batch).loss
    stats.mark("forward")
    loss.backward()
    stats.mark("backward")
    opt.step()
    opt.zero_grad(set_to_none=True)
    stats.mark("optimizer_step")
    if not math.isfinite(float(loss.detach())):
        raise RuntimeError(f"{s.id}: loss is not finite")


def _build(s: Setup, tiny: bool, torch: Any, transformers: Any, peft: Any, bnb: Any, device: Any) -> tuple[Any, Any]:
    arch = api.MODELS[s.model]
    cfg = _config(arch, tiny, transformers)
    dtype = torch.float32 if s.load_fp32 else torch.bfloat16
    with torch.device(device):
        model = transformers.AutoModelForCausalLM.from_config(cfg, dtype=dtype)
    if s.method == "qlora":
        _quantize(model, s, torch, bnb, device)
    if s.checkpointing:
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
        model.enable_input_require_grads()
    if s.method == "full":
        trainable = model
    else:
        lora = peft.LoraConfig(r=s.lora_rank, lora_alpha=2 * s.lora_rank, lora_dropout=0.0,
                               target_modules=list(_TARGETS), task_type="CAUSAL_LM")
        model = trainable = peft.get_peft_model(model, lora)        # autocast_adapter_dtype=True: fp32 adapters
    if s.wrap == "ddp":
        model = torch.nn.parallel.DistributedDataParallel(model)     # gradient_as_bucket_view=False, the default
        model.disable_adapter = trainable.disable_adapter
    elif s.wrap == "fsdp2":
        from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard
        policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16)
        for layer in trainable.base_model.model.model.layers if s.method != "full" else model.model.layers:
            fully_shard(layer, mp_policy=policy)
        fully_shard(model, mp_policy=policy)
    params = [p for p in model.parameters() if p.requires_grad]
    return model, _optimizer(s, params, torch, bnb, device.type == "cpu")


def _versions() -> str:
    import importlib.metadata as md
    names = ("torch", "transformers", "peft", "accelerate", "bitsandbytes", "trl")
    out = []
    for n in names:
        try:
            out.append(f"{n} {md.version(n)}")
        except md.PackageNotFoundError:
            out.append(f"{n} -")
    return "; ".join(out)


def _row(s: Setup, stats: Stats, tokens_per_s: float, machine: str, stack: str, stub: bool) -> dict[str, Any]:
    arch = api.MODELS[s.model]
    gib = 2 ** 30
    r = request(s)
    return {
        "id": f"GM-{s.id}", "source_url": "benchmarks/gpu_measure.py", "source_quote": f"{SOURCE}: {s.id}",
        "model": arch.name, "params_b": round(count_params(arch).total / 1e9, 4),
        "arch_hidden": arch.hidden_size, "arch_layers": arch.num_hidden_layers, "arch_heads": arch.num_attention_heads,
        "arch_kv_heads": arch.num_key_value_heads, "arch_intermediate": arch.intermediate_size,
        "arch_vocab": arch.vocab_size, "method": s.method,
        "weight_precision": ("fp32" if s.load_fp32 else "bf16")
                            + (" (decoder linears NF4 4-bit, bitsandbytes)" if s.method == "qlora" else ""),
        "compute_precision": ("bf16 (autocast)" if s.load_fp32 else "bf16")
                             + ("; bnb_4bit_compute_dtype fp32" if s.qlora_compute_fp32 else ""),
        "optimizer": {"adamw_torch_fused": "adamw_bf16" if not s.load_fp32 else "adamw_fp32",
                      "adamw_8bit": "adamw_8bit", "paged_adamw_8bit": "paged_adamw_8bit",
                      "paged_adamw_32bit": "paged_adamw_32bit"}[s.optimizer]
                     + (" (torch.optim.AdamW fused=True)" if s.optimizer == "adamw_torch_fused" else " (bitsandbytes)"),
        "lora_rank": s.lora_rank if s.method != "full" else "", "lora_targets": ",".join(_TARGETS)
        if s.method != "full" else "", "micro_batch": s.micro_batch, "seq_len": s.seq_len,
        "grad_checkpointing": "yes" if s.checkpointing else "no", "flash_attention": "sdpa", "num_gpus": 1,
        "sharding": {"none": "none", "ddp": "DDP (world size 1)", "fsdp2": "FSDP2 (world size 1)"}[s.wrap],
        "cpu_offload": "no", "gpu_model": machine,
        "measured_peak_gb": round(stats.peak("allocated") / gib, 3), "measure_kind": "max_memory_allocated",
        "units": "GiB",
        "notes": (f"[tier A] {SOURCE}, benchmarks/gpu_measure.py (random weights, random token ids, one warm-up and two "
                  f"timed steps; peaks per phase). DPO: {'yes (TRL-style, beta 0.1)' if s.dpo else 'no'}. "
                  f"Double quant: {s.double_quant if s.method == 'qlora' else 'n/a'}; quant storage: "
                  f"{s.quant_storage if s.method == 'qlora' else 'n/a'}. Calibrates: {s.calibrates}."
                  + (" STUB: CPU run, CUDA statistics stubbed, not a measurement." if stub else "")),
        "reserved_gib": round(stats.peak("reserved") / gib, 3),
        "driver_used_gib": round(stats.peak("driver") / gib, 3),
        **{f"{p}_gib": round(stats.phases[p]["allocated"] / gib, 3) for p in ("forward", "backward", "optimizer_step")},
        "tokens_per_second": round(tokens_per_s, 1),
        "estimator_request": json.dumps(r, sort_keys=True), "stack": stack, "machine": machine,
        "figures": "stub" if stub else "measured",
    }


def measure(grid: tuple[Setup, ...], tiny: bool) -> Iterator[dict[str, Any]]:
    import bitsandbytes as bnb
    import peft
    import torch
    import torch.distributed as dist
    import transformers

    cpu = tiny or not torch.cuda.is_available()
    device = torch.device("cpu" if cpu else "cuda")
    stats = Stats(torch, stub=cpu)
    machine = "CPU (stub)" if cpu else torch.cuda.get_device_name()
    stack = _versions() + ("" if cpu else f"; CUDA {torch.version.cuda}; {platform.node()}")
    if not cpu:
        torch.cuda.empty_cache()
        stats.baseline = stats.driver_used()
    if not dist.is_initialized() and any(s.wrap != "none" for s in grid):
        dist.init_process_group("gloo" if cpu else "nccl", init_method="tcp://127.0.0.1:29517", rank=0, world_size=1)
    torch.manual_seed(0)
    for s in grid:
        model, opt = _build(s, tiny, torch, transformers, peft, bnb, device)
        rows = 2 * s.micro_batch if s.dpo else s.micro_batch
        seq = 64 if tiny else s.seq_len
        batch = torch.randint(0, DATA_VOCAB, (rows, seq), device=device)
        stats.start()
        _step(model, opt, s, batch, stats, torch, device)             # warm-up: the optimizer allocates its states
        if not cpu:
            torch.cuda.synchronize()
        t = time.perf_counter()
        for _ in range(2):
            _step(model, opt, s, batch, stats, torch, device)
        if not cpu:
            torch.cuda.synchronize()
        elapsed = time.perf_counter() - t
        yield _row(s, stats, 2 * rows * seq / elapsed, machine, stack, cpu)
        del model, opt, batch
        if not cpu:
            torch.cuda.empty_cache()
    if dist.is_initialized():
        dist.destroy_process_group()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--dry-run", action="store_true", help="print the grid, the estimator's figures and its GPU time")
    p.add_argument("--tiny", action="store_true", help="with --dry-run: run every setup on a tiny model on the CPU")
    p.add_argument("--out", help="CSV to write the rows to")
    p.add_argument("--only", nargs="*", help="setup ids to run (default: the whole grid)")
    a = p.parse_args(argv)
    if a.tiny and not a.dry_run:
        p.error("--tiny is a dry run: add --dry-run")
    grid = tuple(s for s in GRID if not a.only or s.id in a.only)
    if a.dry_run and not a.tiny:
        return dry_run()
    if not a.out:
        p.error("--out is required to measure")
    with open(a.out, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS + EXTRA_COLUMNS)
        w.writeheader()
        for row in measure(grid, tiny=a.tiny):
            w.writerow(row)
            f.flush()
            print(f"  {row['id']:<26} allocated {row['measured_peak_gb']:7.2f} GiB  reserved {row['reserved_gib']:7.2f}  "
                  f"driver {row['driver_used_gib']:7.2f}  {row['tokens_per_second']:9.1f} tokens/s  ({row['figures']})",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
