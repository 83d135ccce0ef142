"""``python -m calculator``: the same estimate in a terminal.

    python -m calculator --model llama-3.1-8b --method qlora --seq-len 2048 --gpu rtx-4090
    python -m calculator --config path/to/config.json --method lora --json

Flags mirror the request keys of ``calculator.api`` (underscores become dashes). Unset flags take the API defaults.
Bad input prints the error code and field and exits with status 2.
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .api import DEFAULTS, ENUMS, estimate

_BOOLS = ("dpo", "precompute_ref_log_probs", "momentum", "double_quant", "gradient_checkpointing",
          "chunked_cross_entropy", "torch_compile", "fused_linear_cross_entropy", "activation_offloading",
          "optimizer_in_backward", "packing", "cpu_offload", "deepspeed",
          "offload_params", "frozen_param_grads", "no_sync_accumulation")
_INTS = ("lora_rank", "micro_batch_size", "seq_len", "grad_accum_steps", "num_gpus", "reduce_bucket_size")
_CHOICES = ("method", "precision", "optimizer", "lora_dtype", "qlora_backend", "attention", "sharding")
_LABELS = {
    "weights": "weights", "master_copy": "fp32 master copy", "gradients": "gradients",
    "optimizer_states": "optimizer states", "optimizer_temp": "optimizer step temporaries",
    "activations": "activations", "logits_loss": "logits / loss", "lora_adapter": "LoRA adapter",
    "dequant_transient": "dequantization transient", "reference_model": "DPO reference model",
    "allocator_reserve": "allocator reserve", "cuda_context": "CUDA context",
}


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m calculator", description="GPU memory estimate for LLM fine-tuning.")
    src = p.add_mutually_exclusive_group()
    src.add_argument("--model", help="catalogue id, e.g. llama-3.1-8b")
    src.add_argument("--config", metavar="PATH", help="a Hugging Face config.json")
    for key in _CHOICES:
        p.add_argument("--" + key.replace("_", "-"), choices=ENUMS[key], default=None,
                       help=f"default: {DEFAULTS[key]}")
    for key in _INTS:
        p.add_argument("--" + key.replace("_", "-"), type=int, default=None, help=f"default: {DEFAULTS[key]}")
    p.add_argument("--lora-targets", default=None,
                   help="comma-separated modules (q_proj,...,lm_head) or all-linear; default: all-linear")
    p.add_argument("--lora-dropout", type=float, default=None, help="default: 0.0")
    for key in _BOOLS:
        p.add_argument("--" + key.replace("_", "-"), action=argparse.BooleanOptionalAction, default=None,
                       help=f"default: {'on' if DEFAULTS[key] else 'off'}")
    p.add_argument("--cuda-context-bytes", type=int, default=None, help="default: 1 GiB")
    p.add_argument("--gpu", default=None, help="GPU id for the verdict, remedies and inverse solver")
    p.add_argument("--json", action="store_true", help="print the API output (JSON)")
    p.add_argument("--describe", action="store_true", help="print the schema: presets, GPUs, defaults, limits")
    return p


def request_from_args(a: argparse.Namespace) -> dict[str, Any]:
    req: dict[str, Any] = {}
    if a.config:
        with open(a.config, encoding="utf-8") as f:
            req["model"] = json.load(f)
    elif a.model is not None:
        req["model"] = a.model
    for key in _CHOICES + _INTS + _BOOLS + ("cuda_context_bytes", "gpu", "lora_dropout"):
        v = getattr(a, key)
        if v is not None:
            req[key] = v
    if a.lora_targets is not None:
        t = a.lora_targets.strip()
        req["lora_targets"] = t if t == "all-linear" else [x.strip() for x in t.split(",") if x.strip()]
    return req


def _fmt(b: int) -> str:
    return f"{b / 1e9:8.2f} GB {b / 2**30:8.2f} GiB"


def render(r: dict[str, Any]) -> str:
    out = []
    m = r["model"]
    i = r["inputs"]
    out.append(f"{m['name']} — {i['method']}{' + DPO' if i['dpo'] else ''}, {i['precision']}, {i['optimizer']}, "
               f"micro-batch {i['micro_batch_size']} x seq {i['seq_len']}, {i['num_gpus']} GPU(s), "
               f"sharding {i['sharding']}")
    out.append(f"(GB = 10^9 bytes, GiB = 2^30 bytes; per GPU)")
    out.append("")
    for k, v in r["breakdown_bytes"].items():
        if v:
            out.append(f"  {_LABELS.get(k, k):<28}{_fmt(v)}")
    out.append(f"  {'-' * 28}{'-' * 25}")
    out.append(f"  {'peak (nvidia-smi)':<28}{_fmt(r['peak_bytes_per_gpu'])}   at {r['phase']}")
    out.append(f"  {'  max_memory_reserved':<28}{_fmt(r['reserved_bytes'])}")
    out.append(f"  {'  max_memory_allocated':<28}{_fmt(r['allocated_bytes'])}")
    rg = r["range"]
    out.append(f"  {'likely range':<28}{rg['low_gb']:.2f}-{rg['high_gb']:.2f} GB  "
               f"({rg['low_gib']:.2f}-{rg['high_gib']:.2f} GiB)")
    out.append("")
    out.append(f"  parameters {r['params']:,}; trainable {r['trainable_params']:,} "
               f"({r['trainable_share'] * 100:.3g} %)")
    if r["host_ram_bytes"]:
        out.append(f"  host RAM (offload / paging): {_fmt(r['host_ram_bytes'])}")
    out.append(f"  full checkpoint: {_fmt(r['checkpoint_bytes'])}")
    if r["adapter_bytes"]:
        out.append(f"  LoRA adapter file: {_fmt(r['adapter_bytes'])}")
    if "gpu" in r:
        g = r["gpu"]
        out.append("")
        out.append(f"  {g['name']}: {g['verdict']} ({g['share_of_memory'] * 100:.0f} % of "
                   f"{g['memory_bytes'] / 2**30:.1f} GiB)")
        if "max_seq_len" in r:
            out.append(f"  longest seq_len that fits: {r['max_seq_len']}; largest micro-batch: "
                       f"{r['max_micro_batch_size']}")
        for x in r.get("remedies", []):
            out.append(f"    remedy {x['remedy']:<24} alone {x['peak_bytes_alone'] / 2**30:7.2f} GiB"
                       f"{' fits' if x['fits_alone'] else '     '}   cumulative "
                       f"{x['peak_bytes_cumulative'] / 2**30:7.2f} GiB{' fits' if x['fits_cumulative'] else ''}")
    sm = r.get("smallest_setup")
    if sm:
        out.append("")
        for key in ("fits", "comfortable"):
            v = sm.get(key)
            out.append(f"  smallest setup ({key}): " + (f"{v['num_gpus']} x {v['gpu']}" if v else "none in catalogue"))
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    p = build_parser()
    a = p.parse_args(argv)
    if a.describe:
        print(estimate(json.dumps({"describe": True})))
        return 0
    try:
        req = request_from_args(a)
    except (OSError, ValueError) as exc:
        print(f"error: cannot read --config: {exc}", file=sys.stderr)
        return 2
    if "model" not in req:
        print("error: missing_field (model): give --model ID or --config PATH", file=sys.stderr)
        return 2
    if a.json:
        req["include"] = list(ENUMS["include"])
    out = json.loads(estimate(json.dumps(req)))
    if not out["ok"]:
        e = out["error"]
        print(f"error: {e['code']} ({e['field']})", file=sys.stderr)
        if a.json:
            print(json.dumps(out))
        return 2
    print(json.dumps(out, indent=1) if a.json else render(out["result"]))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
