"""``python -m calculator``: the same estimate in a terminal.

    python -m calculator --model llama-3.1-8b --method qlora --seq-len 2048 --gpu rtx-4090
    python -m calculator --config path/to/config.json --method lora --json
    python -m calculator --model llama-3.1-8b --method qlora --gpu rtx-4090 --dataset-tokens 10000000 \
        --gpu-hour-price 0.5

One flag per request key, made from its spec in ``calculator/inputs.py`` (underscores become dashes); unset flags
take the API defaults.
Bad input prints the error code and field and exits with status 2.
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .api import estimate
from .inputs import INPUTS, InputSpec

_LABELS = {
    "weights": "weights", "master_copy": "fp32 master copy", "gradients": "gradients",
    "optimizer_states": "optimizer states", "optimizer_temp": "optimizer step temporaries",
    "activations": "activations", "logits_loss": "logits / loss", "lora_adapter": "LoRA adapter",
    "dequant_transient": "dequantization transient", "reference_model": "DPO reference model",
    "allocator_reserve": "allocator reserve", "cuda_context": "CUDA context",
}


def _add_flag(p: argparse.ArgumentParser, spec: InputSpec) -> None:
    """One flag per request key, its argument made by the key's kind of value (calculator/values.py): the flags
    cannot drift from the API."""
    default = "null" if spec.default is None else spec.default
    help_text = f"{spec.doc} (default: {str(default).lower() if isinstance(default, bool) else default})"
    p.add_argument(spec.flag, default=None, **spec.value_kind.cli_argument(spec, help_text.replace("%", "%%")))


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m calculator", description="GPU memory estimate for LLM fine-tuning.")
    src = p.add_mutually_exclusive_group()
    src.add_argument("--model", help="catalogue id, e.g. llama-3.1-8b")
    src.add_argument("--config", metavar="PATH", help="a Hugging Face config.json")
    for spec in INPUTS:
        if spec.cli:
            _add_flag(p, spec)
    p.add_argument("--json", action="store_true", help="print the API output (JSON)")
    p.add_argument("--describe", action="store_true", help="print the schema: presets, GPUs, input specs")
    return p


def request_from_args(a: argparse.Namespace) -> dict[str, Any]:
    req: dict[str, Any] = {}
    if a.config:
        with open(a.config, encoding="utf-8") as f:
            req["model"] = json.load(f)
    elif a.model is not None:
        req["model"] = a.model
    for spec in INPUTS:
        if spec.cli and getattr(a, spec.name) is not None:
            req[spec.name] = getattr(a, spec.name)
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
    out.append("(GB = 10^9 bytes, GiB = 2^30 bytes; per GPU)")
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
            amount = x["changes"].get("num_gpus") if x["remedy"] == "sharding" else x["changes"].get("seq_len") \
                if x["remedy"] == "shorter_sequences" else None
            line = (f"    remedy {x['remedy'] + (f' ({amount})' if amount else ''):<28} alone "
                    f"{x['peak_bytes_alone'] / 2**30:7.2f} GiB{' fits' if x['fits_alone'] else '     '}")
            if x["peak_bytes_cumulative"] is not None:
                line += (f"   with the steps above {x['peak_bytes_cumulative'] / 2**30:7.2f} GiB"
                         f"{' fits' if x['fits_cumulative'] else ''}")
            out.append(line)
    sm = r.get("smallest_setup")
    if sm:
        out.append("")
        for key in ("fits", "comfortable"):
            v = sm.get(key)
            out.append(f"  smallest setup ({key}): " + (f"{v['num_gpus']} x {v['gpu']}" if v else "none in catalogue"))
    out += render_time(r)
    return "\n".join(out)


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    if seconds < 172800:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} days"


def _money(x: float | None, currency: str = "USD") -> str:
    return "no price" if x is None else f"{x:,.2f} {currency}"


def render_time(r: dict[str, Any]) -> list[str]:
    """Time and cost lines (calculator/throughput.py): the chosen card's speed and run, the fastest and cheapest."""
    out: list[str] = []
    if "time_error" in r:
        out += ["", f"  time: not estimated ({r['time_error']})"]
    tp = r.get("throughput")
    if tp:
        lo, hi = tp["range"]
        out += ["", f"  speed on {tp['num_gpus']} x {tp['gpu']}: {tp['tokens_per_second_per_gpu']:,.0f} tokens/s per "
                    f"GPU (likely {lo:,.0f}-{hi:,.0f}), {tp['tokens_per_second']:,.0f} tokens/s in all; "
                    f"step {tp['step_time_s']:.3g} s, MFU {tp['mfu'] * 100:.0f} %"]
    run = r.get("run")
    if run:
        a, b = run["range_seconds"]
        price = (f" at {run['price_per_gpu_hour']:g} {run['currency']}/GPU-hour ({run['price_source']})"
                 if run["price_per_gpu_hour"] is not None else " (no price: give --gpu-hour-price)")
        out.append(f"  run: {_duration(run['seconds'])} (likely {_duration(a)}-{_duration(b)}), "
                   f"{run['gpu_hours']:.3g} GPU-hours, cost {_money(run['cost'], run['currency'])}{price}")
        if run["padding_share"]:
            out.append(f"       {run['computed_tokens']:,} tokens computed for {run['dataset_tokens']:,} in the data "
                       f"({run['padding_share'] * 100:.0f} % padding)")
    for key, label in (("fastest_setup", "fastest setup that fits"), ("cheapest_setup", "cheapest setup that fits")):
        if key in r:
            v = r[key]
            if not v:
                out.append(f"  {label}: none" + (" with a price" if key == "cheapest_setup" else ""))
                continue
            detail = f"{v['tokens_per_second']:,.0f} tokens/s"
            if v.get("seconds") is not None:
                detail += f", {_duration(v['seconds'])}"
            if v.get("cost") is not None:
                detail += f", {_money(v['cost'])}"
            elif v.get("cost_per_million_tokens") is not None:
                detail += f", {v['cost_per_million_tokens']:.3g} USD per million tokens"
            out.append(f"  {label}: {v['num_gpus']} x {v['gpu']} ({detail})")
    return out


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
