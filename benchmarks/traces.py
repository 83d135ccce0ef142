"""Score the estimator against exact traces of real training steps (recorded by the memory oracle, a developer tool).

    python benchmarks/traces.py                 # score every committed trace (no torch needed)
    python benchmarks/traces.py --rows          # plus one line per trace
    python benchmarks/traces.py --json          # machine output
    ORACLE_DIR=/path/to/oracle ORACLE_VENV=/path/to/venv python benchmarks/traces.py --generate [NAME ...]  # (re)run it

The oracle (``oracle.py`` and ``fsdp_oracle.py``; its README says how it works and what it does not capture) runs a
real Hugging Face transformers/peft training step (a TRL-style DPO step with ``--dpo``; one rank of PyTorch FSDP2
with ``fsdp_oracle.py``) on fake CUDA tensors and reports the exact ``torch.cuda.max_memory_allocated()`` of the
step. It is a developer tool that stays outside this repository: ``$ORACLE_DIR`` names its folder (there is no default
place) and ``$ORACLE_VENV`` its own virtualenv with the CPU build of torch. ``--generate`` runs it for the
configurations in ``TRACE_SET`` and writes one JSON file per configuration to ``tests/data/traces/``: the exact
command, the oracle's record (peak, its phase and breakdown, the phase peaks, the live tensors at the peak, versions)
and nothing else. Scoring reads only those committed files, so neither the tests nor CI need the oracle or torch.
Every trace's command starts ``cd $ORACLE_DIR && `` (``ORACLE_PREFIX``): the traces recorded before the variable
existed name the oracle's folder through it too, the same command with the folder they ran in.

Each trace is compared with the estimate's ``allocated_bytes`` (the oracle counts allocated memory, not the
allocator's reserve nor the CUDA context). The request comes from the trace's own recorded configuration
(``trace_to_request``); no trace is special-cased. Targets (issue 13, pinned by ``tests/accuracy/test_traces.py``):
median |error| <= 3 %, worst <= 10 %.
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from calculator.api import answer
from calculator.catalog import MODELS

ROOT = Path(__file__).resolve().parents[1]

__all__ = ["TRACE_SET", "TRACE_DIR", "ORACLE_ENV", "ORACLE_PREFIX", "TARGETS", "Trace", "load_traces", "trace_to_request", "score",
           "main"]

TRACE_DIR = ROOT / "tests" / "data" / "traces"
#: The environment variable that names the oracle's folder (outside the repository; no default: --generate stops).
ORACLE_ENV = "ORACLE_DIR"
#: How a trace's ``command`` starts: in the oracle's folder, named by ``$ORACLE_DIR``.
ORACLE_PREFIX = f"cd ${ORACLE_ENV} && "
TARGETS = {"median": 0.03, "worst": 0.10}

# transformers model_type of each catalogue model used below (the oracle builds the model from it and the shape)
_MODEL_TYPE = {
    "llama-2-7b": "llama", "llama-3.1-8b": "llama", "llama-3.2-1b": "llama", "llama-3.2-3b": "llama",
    "qwen2.5-1.5b": "qwen2", "qwen2.5-7b": "qwen2", "mistral-7b-v0.3": "mistral", "gemma-7b": "gemma",
    "llama-2-70b": "llama",
}


def _shape_flags(model_id: str) -> list[str]:
    """The oracle's model flags, from the catalogue entry (one source for the shape the trace and the estimate use)."""
    m = MODELS[model_id]
    flags = ["--arch", _MODEL_TYPE[model_id], "--hidden", str(m.hidden_size), "--layers", str(m.num_hidden_layers),
             "--heads", str(m.num_attention_heads), "--kv-heads", str(m.num_key_value_heads),
             "--intermediate", str(m.intermediate_size), "--vocab", str(m.vocab_size),
             "--tie-embeddings", "yes" if m.tie_word_embeddings else "no"]
    if m.head_dim:
        flags += ["--head-dim", str(m.head_dim)]
    if _MODEL_TYPE[model_id] == "mistral":
        flags += ["--extra", "sliding_window=null"]      # Mistral 7B v0.3's config.json: no sliding window
    return flags


# name -> (script, catalogue model, training flags). Chosen to cover the regimes of issue 13: several families
# (Llama 2/3, Qwen2, Mistral, Gemma), full / LoRA, pure bf16 / fp32 / autocast over an fp32-loaded model,
# checkpointing on and off, 512 to 32k tokens, DPO, AdamW fused / foreach, Adafactor, SGD, FSDP2 world sizes.
TRACE_SET: dict[str, tuple[str, str, str]] = {
    # --- full fine-tuning ---------------------------------------------------------------------------------------
    "full-llama2-7b-bf16-fused-s512": ("oracle.py", "llama-2-7b", "--method full --dtype bf16 --seq-len 512"),
    "full-llama2-7b-bf16-foreach-s2048-ckpt": (
        "oracle.py", "llama-2-7b", "--method full --dtype bf16 --adam-impl foreach --seq-len 2048 --grad-ckpt yes"),
    "full-llama2-7b-fp32-s512": ("oracle.py", "llama-2-7b", "--method full --dtype fp32 --seq-len 512"),
    "full-llama2-7b-sgd-momentum-s512": (
        "oracle.py", "llama-2-7b", "--method full --dtype bf16 --optimizer sgd --momentum 0.9 --seq-len 512"),
    "full-llama31-8b-bf16-s2048-ckpt": (
        "oracle.py", "llama-3.1-8b", "--method full --dtype bf16 --seq-len 2048 --grad-ckpt yes"),
    "full-llama31-8b-amp-s1024-ckpt": (
        "oracle.py", "llama-3.1-8b", "--method full --dtype amp-bf16 --seq-len 1024 --grad-ckpt yes"),
    "full-llama31-8b-adafactor-s1024-ckpt": (
        "oracle.py", "llama-3.1-8b", "--method full --dtype bf16 --optimizer adafactor --seq-len 1024 --grad-ckpt yes"),
    "full-qwen25-7b-bf16-s4096-ckpt": (
        "oracle.py", "qwen2.5-7b", "--method full --dtype bf16 --seq-len 4096 --grad-ckpt yes"),
    "full-mistral-7b-bf16-s2048": ("oracle.py", "mistral-7b-v0.3", "--method full --dtype bf16 --seq-len 2048"),
    "full-gemma-7b-bf16-s2048-ckpt": (
        "oracle.py", "gemma-7b", "--method full --dtype bf16 --seq-len 2048 --grad-ckpt yes"),
    "full-llama32-1b-bf16-s4096-mb2": (
        "oracle.py", "llama-3.2-1b", "--method full --dtype bf16 --seq-len 4096 --micro-batch 2"),
    "full-qwen25-1.5b-bf16-s16384-ckpt": (
        "oracle.py", "qwen2.5-1.5b", "--method full --dtype bf16 --seq-len 16384 --grad-ckpt yes"),
    "full-llama32-3b-bf16-s32768-ckpt": (
        "oracle.py", "llama-3.2-3b", "--method full --dtype bf16 --seq-len 32768 --grad-ckpt yes"),
    # --- LoRA ---------------------------------------------------------------------------------------------------
    "lora-llama31-8b-qv-s2048": (
        "oracle.py", "llama-3.1-8b", "--method lora --lora-rank 16 --lora-targets q,v --dtype bf16 --seq-len 2048"),
    "lora-llama31-8b-all-s2048": (
        "oracle.py", "llama-3.1-8b",
        "--method lora --lora-rank 16 --lora-targets all-linear --dtype bf16 --seq-len 2048"),
    "lora-llama2-7b-qkvo-s4096": (
        "oracle.py", "llama-2-7b", "--method lora --lora-rank 8 --lora-targets q,k,v,o --dtype bf16 --seq-len 4096"),
    "lora-mistral-7b-qv-dropout-s2048": (
        "oracle.py", "mistral-7b-v0.3",
        "--method lora --lora-rank 32 --lora-targets q,v --lora-dropout 0.05 --dtype bf16 --seq-len 2048"),
    "lora-qwen25-7b-all-s2048-ckpt": (
        "oracle.py", "qwen2.5-7b",
        "--method lora --lora-rank 16 --lora-targets all-linear --dtype bf16 --seq-len 2048 --grad-ckpt yes"),
    "lora-gemma-7b-all-s2048-ckpt": (
        "oracle.py", "gemma-7b",
        "--method lora --lora-rank 16 --lora-targets all-linear --dtype bf16 --seq-len 2048 --grad-ckpt yes"),
    "lora-llama32-3b-all-bf16adapters-s4096": (
        "oracle.py", "llama-3.2-3b",
        "--method lora --lora-rank 16 --lora-targets all-linear --lora-dtype bf16 --dtype bf16 --seq-len 4096"),
    "lora-llama2-7b-qv-eager-mb4-s2048-ckpt": (
        "oracle.py", "llama-2-7b",
        "--method lora --lora-rank 8 --lora-targets q,v --dtype bf16 --attn eager --micro-batch 4 --seq-len 2048 "
        "--grad-ckpt yes"),
    "lora-llama31-8b-qv-autocast-s2048-ckpt": (
        "oracle.py", "llama-3.1-8b",
        "--method lora --lora-rank 16 --lora-targets q,v --dtype bf16 --autocast bf16 --seq-len 2048 --grad-ckpt yes"),
    "lora-llama31-8b-all-fp32base-s2048-ckpt": (
        "oracle.py", "llama-3.1-8b",
        "--method lora --lora-rank 16 --lora-targets all-linear --dtype amp-bf16 --seq-len 2048 --grad-ckpt yes"),
    "lora-llama2-7b-qv-fp32base-s1024": (
        "oracle.py", "llama-2-7b", "--method lora --lora-rank 8 --lora-targets q,v --dtype amp-bf16 --seq-len 1024"),
    "lora-llama31-8b-all-s32768-ckpt": (
        "oracle.py", "llama-3.1-8b",
        "--method lora --lora-rank 16 --lora-targets all-linear --dtype bf16 --seq-len 32768 --grad-ckpt yes"),
    "lora-llama31-8b-qv-s16384-ckpt": (
        "oracle.py", "llama-3.1-8b",
        "--method lora --lora-rank 16 --lora-targets q,v --dtype bf16 --seq-len 16384 --grad-ckpt yes"),
    "lora-qwen25-1.5b-all-s16384-ckpt": (
        "oracle.py", "qwen2.5-1.5b",
        "--method lora --lora-rank 16 --lora-targets all-linear --dtype bf16 --seq-len 16384 --grad-ckpt yes"),
    # --- DPO (TRL 1.13 DPOTrainer step, dpo_step.py) ------------------------------------------------------------
    "dpo-full-llama32-1b-s1024": ("oracle.py", "llama-3.2-1b", "--method full --dtype bf16 --seq-len 1024 --dpo"),
    "dpo-full-llama31-8b-s1024-ckpt": (
        "oracle.py", "llama-3.1-8b", "--method full --dtype bf16 --seq-len 1024 --grad-ckpt yes --dpo"),
    "dpo-full-llama2-7b-s512": ("oracle.py", "llama-2-7b", "--method full --dtype bf16 --seq-len 512 --dpo"),
    "dpo-full-llama32-1b-fp32-s512": ("oracle.py", "llama-3.2-1b", "--method full --dtype fp32 --seq-len 512 --dpo"),
    "dpo-lora-llama32-3b-all-mb2-s1024": (
        "oracle.py", "llama-3.2-3b",
        "--method lora --lora-rank 16 --lora-targets all-linear --dtype bf16 --micro-batch 2 --seq-len 1024 --dpo"),
    "dpo-lora-llama31-8b-all-s2048-ckpt": (
        "oracle.py", "llama-3.1-8b",
        "--method lora --lora-rank 16 --lora-targets all-linear --dtype bf16 --seq-len 2048 --grad-ckpt yes --dpo"),
    "dpo-lora-qwen25-7b-qv-s1024": (
        "oracle.py", "qwen2.5-7b", "--method lora --lora-rank 16 --lora-targets q,v --dtype bf16 --seq-len 1024 --dpo"),
    # --- FSDP2, one rank ------------------------------------------------------------------------------------------
    "fsdp2-full-llama31-8b-s2048-ckpt-n8": (
        "fsdp_oracle.py", "llama-3.1-8b", "--method full --dtype bf16 --seq-len 2048 --grad-ckpt yes --world-size 8"),
    "fsdp2-full-llama2-7b-mb4-s2048-ckpt-n4": (
        "fsdp_oracle.py", "llama-2-7b",
        "--method full --dtype bf16 --micro-batch 4 --seq-len 2048 --grad-ckpt yes --world-size 4"),
    "fsdp2-lora-llama2-7b-qv-mb4-s2048-ckpt-n2": (
        "fsdp_oracle.py", "llama-2-7b",
        "--method lora --lora-rank 8 --lora-targets q,v --lora-dtype bf16 --dtype bf16 --micro-batch 4 --seq-len 2048 "
        "--grad-ckpt yes --world-size 2"),
    "fsdp2-lora-llama31-8b-all-s2048-ckpt-n4": (
        "fsdp_oracle.py", "llama-3.1-8b",
        "--method lora --lora-rank 16 --lora-targets all-linear --dtype bf16 --seq-len 2048 --grad-ckpt yes "
        "--world-size 4"),
    "fsdp2-full-qwen25-7b-s1024-ckpt-n2": (
        "fsdp_oracle.py", "qwen2.5-7b", "--method full --dtype bf16 --seq-len 1024 --grad-ckpt yes --world-size 2"),
    "fsdp2-full-llama31-8b-amp-s1024-ckpt-n4": (
        "fsdp_oracle.py", "llama-3.1-8b",
        "--method full --dtype amp-bf16 --mp bf16 --seq-len 1024 --grad-ckpt yes --world-size 4"),
    "fsdp2-lora-llama2-70b-all-s2048-ckpt-n8": (
        "fsdp_oracle.py", "llama-2-70b",
        "--method lora --lora-rank 8 --lora-targets all-linear --dtype bf16 --seq-len 2048 --grad-ckpt yes "
        "--world-size 8"),
}

_KEEP = ("oracle", "fsdp", "world_size", "rank", "config", "model_type", "num_params", "trainable_params",
         "ref_model_params", "peak_bytes", "peak_phase", "peak_during_op", "peak_breakdown", "end_of_run_bytes",
         "end_of_run_breakdown", "phase_peaks_gib", "top_live_at_peak", "versions", "sdpa_backend_calls",
         "caching_allocator_sim")


def command_of(name: str) -> list[str]:
    """The oracle command of one configuration, as run from ``$ORACLE_DIR`` with ``$ORACLE_VENV/bin/python``."""
    script, model, flags = TRACE_SET[name]
    return ["$ORACLE_VENV/bin/python", script, *_shape_flags(model), *shlex.split(flags)]


def generate(names: list[str], venv: str, oracle_dir: Path, out_dir: Path = TRACE_DIR) -> None:
    """Run the oracle for each configuration and write its trace file (needs the oracle venv; minutes per trace)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    python = str(Path(venv) / "bin" / "python")
    for name in names:
        cmd = command_of(name)
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "out.json"
            proc = subprocess.run([python, *cmd[1:], "--out", str(out)], cwd=oracle_dir, capture_output=True,
                                  text=True)
            if proc.returncode != 0 or not out.exists():
                print(f"{name}: oracle failed ({proc.returncode})\n{proc.stderr[-3000:]}", file=sys.stderr)
                continue
            rec = json.loads(out.read_text(encoding="utf-8"))
        record = {
            "name": name,
            "model": TRACE_SET[name][1],
            "command": ORACLE_PREFIX + " ".join(shlex.quote(c) if not c.startswith("$") else c
                                                             for c in cmd),
            "oracle_record": {k: rec[k] for k in _KEEP if k in rec},
        }
        (out_dir / f"{name}.json").write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
        print(f"{name}: peak {rec['peak_bytes'] / 2**30:.3f} GiB at {rec['peak_phase']}", flush=True)


# ---------------------------------------------------------------------------------------------------------------
# Trace -> request
# ---------------------------------------------------------------------------------------------------------------
_TARGETS = {"q": "q_proj", "k": "k_proj", "v": "v_proj", "o": "o_proj", "gate": "gate_proj", "up": "up_proj",
            "down": "down_proj"}


@dataclass
class Trace:
    name: str
    model: str
    command: str
    record: dict[str, Any]

    @property
    def config(self) -> dict[str, Any]:
        return self.record["config"]

    def flag(self, name: str) -> str | None:
        """A flag of the command that the oracle does not echo in its config (e.g. ``--momentum``)."""
        words = shlex.split(self.command.split("&&", 1)[-1])
        return words[words.index(name) + 1] if name in words else None

    @property
    def peak_bytes(self) -> int:
        return int(self.record["peak_bytes"])


def load_traces(directory: Path = TRACE_DIR) -> list[Trace]:
    out = []
    for p in sorted(directory.glob("*.json")):
        d = json.loads(p.read_text(encoding="utf-8"))
        out.append(Trace(d["name"], d["model"], d["command"], d["oracle_record"]))
    return out


def trace_to_request(t: Trace) -> dict[str, Any]:
    """The API request for the run the trace recorded, read from the trace's own configuration.

    * ``--dtype bf16|fp32``: pure 16-bit / fp32 (``precision`` bf16 / fp32). ``--dtype amp-bf16`` (fp32-loaded
      model, ``torch.autocast`` around forward and loss: HF Trainer ``bf16=True`` without a load dtype) is
      ``precision: mixed``; for LoRA the frozen base stays fp32 then (``base_fp32``). ``--dtype bf16 --autocast
      bf16`` (a bf16-loaded model under autocast) is ``precision: mixed`` with the 16-bit base of today's default.
    * attention: transformers 5's SDPA path passes ``enable_gqa=True`` when no mask is given
      (``integrations/sdpa_attention.py``, ``use_gqa_in_sdpa``), so k/v are not repeated to every query head: that
      is the estimator's ``flash`` memory (``sdpa`` there means repeated k/v, as torchtune, litgpt and older
      transformers do). ``eager`` is eager.
    * AdamW ``fused`` / ``foreach`` are ``adamw_torch_fused`` / ``adamw_torch``; SGD with momentum is
      ``sgd_momentum``; ``adafactor`` is transformers' Adafactor.
    * ``fsdp_oracle.py`` is FSDP2 over ``world_size`` GPUs: ``sharding: zero3`` on ``num_gpus`` GPUs, ``fsdp_version``
      2, and no accelerate upcast (``fsdp2_upcast: none``: the oracle calls ``fully_shard`` itself).
    """
    c = t.config
    req: dict[str, Any] = {"model": t.model, "include": [], "method": c["method"],
                           "micro_batch_size": int(c["micro_batch"]), "seq_len": int(c["seq_len"]),
                           "grad_accum_steps": int(c.get("grad_accum", 1)),
                           "gradient_checkpointing": c["grad_ckpt"] == "yes"}
    dtype, autocast = c["dtype"], c.get("autocast", "auto")
    if dtype == "fp32":
        req["precision"] = "fp32"
    elif dtype.startswith("amp-"):
        req["precision"] = "mixed"
        if c["method"] != "full":
            req["base_fp32"] = True
    elif autocast not in ("auto", "no"):
        req["precision"] = "mixed"
    else:
        req["precision"] = "bf16"
    if c["method"] != "full":
        req["lora_rank"] = int(c["lora_rank"])
        tg = c["lora_targets"]
        req["lora_targets"] = "all-linear" if tg in ("all-linear", "all_linear") else \
            [_TARGETS.get(x.strip(), x.strip()) for x in tg.split(",")]
        req["lora_dtype"] = c.get("lora_dtype", "fp32")
        req["lora_dropout"] = float(c.get("lora_dropout") or 0.0)
    req["attention"] = {"eager": "eager"}.get(c["attn"], "flash")
    opt = c["optimizer"]
    if opt == "adamw":
        req["optimizer"] = "adamw_torch_fused" if c.get("adam_impl", "fused") == "fused" else "adamw_torch"
    elif opt == "sgd":
        req["optimizer"] = "sgd_momentum" if float(t.flag("--momentum") or 0) > 0 else "sgd"
    elif opt == "adafactor":
        req["optimizer"] = "adafactor"
    elif opt == "adamw8bit":
        req["optimizer"] = "adamw_8bit"
    if c.get("dpo"):
        req["dpo"] = True
    if "world_size" in t.record:
        # fsdp_oracle.py calls fully_shard itself, casting nothing (accelerate's FSDP2 upcast is not in its path)
        req["num_gpus"] = int(t.record["world_size"])
        req["sharding"] = "zero3"
        req["fsdp_version"] = 2
        req["fsdp2_upcast"] = "none"
    return req


# ---------------------------------------------------------------------------------------------------------------
# Scoring
# ---------------------------------------------------------------------------------------------------------------
@dataclass
class Scored:
    trace: Trace
    request: dict[str, Any]
    estimate_bytes: int | None
    error: float | None
    detail: str = ""


def score(traces: list[Trace]) -> tuple[list[Scored], dict[str, Any]]:
    rows = []
    for t in traces:
        req = trace_to_request(t)
        out = answer(req)
        if not out.get("ok"):
            rows.append(Scored(t, req, None, None, f"refused: {out.get('error')}"))
            continue
        est = int(out["result"]["allocated_bytes"])
        rows.append(Scored(t, req, est, (est - t.peak_bytes) / t.peak_bytes, out["result"]["phase"]))
    errs = [r.error for r in rows if r.error is not None]
    groups: dict[str, list[float]] = {}
    for r in rows:
        if r.error is None:
            continue
        key = "fsdp2" if "world_size" in r.trace.record else ("dpo" if r.trace.config.get("dpo") else
                                                             r.trace.config["method"])
        groups.setdefault(key, []).append(r.error)

    def stats(xs: list[float]) -> dict[str, Any]:
        if not xs:
            return {"n": 0, "median_abs": None, "worst_abs": None, "median_signed": None}
        return {"n": len(xs), "median_abs": statistics.median(abs(x) for x in xs), "worst_abs": max(abs(x) for x in xs),
                "median_signed": statistics.median(xs)}

    summary = {"overall": stats(errs), "groups": {k: stats(v) for k, v in sorted(groups.items())},
               "refused": [r.trace.name for r in rows if r.error is None], "targets": dict(TARGETS)}
    ov = summary["overall"]
    summary["meets_targets"] = bool(ov["n"] and not summary["refused"] and ov["median_abs"] <= TARGETS["median"]
                                    and ov["worst_abs"] <= TARGETS["worst"])
    return rows, summary


def check_model_counts(traces: list[Trace]) -> list[str]:
    """Traces whose model the estimate does not count as the oracle did: its parameters (base + adapters for LoRA,
    as PEFT's model holds them) and trainable parameters. A mismatch means the request does not describe the run."""
    bad = []
    for t in traces:
        out = answer(trace_to_request(t))
        if not out.get("ok"):
            bad.append(f"{t.name}: refused")
            continue
        r = out["result"]
        lora = t.config["method"] != "full"
        ours = (r["params"] + (r["trainable_params"] if lora else 0), r["trainable_params"])
        theirs = (int(t.record["num_params"]), int(t.record["trainable_params"]))
        if ours != theirs:
            bad.append(f"{t.name}: estimator (params, trainable) {ours} vs oracle {theirs}")
    return bad


def render(rows: list[Scored], summary: dict[str, Any], show_rows: bool) -> str:
    lines = []
    if show_rows:
        lines.append(f"{'trace':<46} {'oracle GiB':>10} {'est GiB':>8} {'error':>7}  oracle phase -> est phase")
        for r in rows:
            est = "-" if r.estimate_bytes is None else f"{r.estimate_bytes / 2**30:8.2f}"
            err = "   n/a" if r.error is None else f"{r.error * 100:+6.1f}%"
            lines.append(f"{r.trace.name:<46} {r.trace.peak_bytes / 2**30:10.2f} {est:>8} {err:>7}  "
                         f"{r.trace.record['peak_phase']} -> {r.detail}")
        lines.append("")
    lines.append("Summary (allocated bytes vs the oracle's exact peak):")
    for k, st in [*summary["groups"].items(), ("overall", summary["overall"])]:
        if st["n"]:
            lines.append(f"  {k:<8} n={st['n']:<3} median {st['median_abs'] * 100:5.1f}%  worst "
                         f"{st['worst_abs'] * 100:5.1f}%  (median signed {st['median_signed'] * 100:+.1f}%)")
    if summary["refused"]:
        lines.append(f"  refused by the estimator: {', '.join(summary['refused'])}")
    lines.append(f"  targets: median <= {TARGETS['median']:.0%}, worst <= {TARGETS['worst']:.0%}: "
                 f"{'MET' if summary['meets_targets'] else 'NOT MET'}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rows", action="store_true", help="one line per trace")
    p.add_argument("--json", action="store_true", help="print the scores as JSON")
    p.add_argument("--generate", nargs="*", metavar="NAME",
                   help="run the oracle for these configurations (all when none is named); needs $ORACLE_VENV")
    p.add_argument("--missing", action="store_true", help="with --generate: only configurations without a trace file")
    a = p.parse_args(argv)
    if a.generate is not None:
        oracle_dir = os.environ.get(ORACLE_ENV)
        if not oracle_dir:
            p.error(f"--generate needs {ORACLE_ENV}: the folder of the memory oracle (oracle.py, fsdp_oracle.py and "
                    "their README), a developer tool kept outside this repository; the committed traces in "
                    "tests/data/traces/ are scored without it")
        if not (Path(oracle_dir) / "oracle.py").is_file():
            p.error(f"{ORACLE_ENV}={oracle_dir} holds no oracle.py: point it at the memory oracle's folder")
        venv = os.environ.get("ORACLE_VENV")
        if not venv:
            p.error("--generate needs ORACLE_VENV: the oracle's own virtualenv (its README in $ORACLE_DIR says how "
                    "to make it; never this project's environment)")
        names = a.generate or list(TRACE_SET)
        unknown = [n for n in names if n not in TRACE_SET]
        if unknown:
            p.error(f"unknown configuration(s): {', '.join(unknown)}")
        if a.missing:
            names = [n for n in names if not (TRACE_DIR / f"{n}.json").exists()]
        generate(names, venv, Path(oracle_dir))
        return 0
    traces = load_traces()
    rows, summary = score(traces)
    if a.json:
        print(json.dumps({"rows": [{"name": r.trace.name, "oracle_bytes": r.trace.peak_bytes,
                                    "estimate_bytes": r.estimate_bytes, "error": r.error, "request": r.request}
                                   for r in rows], "summary": summary}, indent=1))
    else:
        print(render(rows, summary, a.rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
