#!/usr/bin/env python3
"""Accuracy league table: our estimator against the public calculators, on the same measured runs, in one command.

    python benchmarks/peers.py                      # the table: our figures now against the peers' committed answers
    python benchmarks/peers.py --rows               # plus one line per measured run
    python benchmarks/peers.py --json               # machine output
    python benchmarks/peers.py --markdown [--lang ar]   # the tables of docs/accuracy*.md and benchmarks/README.md
    python benchmarks/peers.py --run-peers          # run the peers again (in their venv) and rewrite their answers

What it does:

1. Reads the measured runs with ``benchmarks/calibration.py`` (the same rows, exclusions, statistic and unit
   normalisation as ``benchmarks/accuracy.py``: GB = 1e9 bytes, GiB = 2**30) and takes our figure for each row
   from the function ``accuracy.py`` uses, so the two scripts agree.
2. Turns each row's request (the JSON our ``calculator.api`` takes) into one peer-neutral *normalised
   configuration* (below) and reads each peer's answer for it from ``benchmarks/peer_adapters/results/memory.json``:
   what the peer's adapter answered the last time the peers were run, with a digest of the configuration it read.
   An answer given for another configuration than today's is refused (run ``--run-peers``), never reused.
3. With ``--run-peers``: installs the peers that are on PyPI into a virtual environment of its own
   (``.cache/peers-venv`` by default; never the project's environment), pinned in
   ``benchmarks/peer_adapters/requirements*.txt`` (an existing venv built from the same pinned files is reused), feeds
   the whole list to one adapter per peer (``benchmarks/peer_adapters/run_*.py``, run with the venv's Python) and
   rewrites the answers file. Each adapter calls its peer the way the peer's documentation shows and answers, per
   row, the peer's total in bytes, or "unsupported" with the reason when the peer cannot express the row (no
   LoRA, no QLoRA, no batch or sequence length, no sharding, ...). Nothing is guessed on a peer's behalf.
4. Scores every tool on the rows it supports (``benchmarks/league.py``): absolute percentage error against the
   measured peak; per method (full, LoRA, QLoRA) and overall, the rows supported, median and worst error, rows
   within 10 % and 20 %, and our median on exactly that tool's rows (the fair head-to-head).

The normalised configuration (one JSON object per row, what every adapter reads)::

    id, method ("full" | "lora" | "qlora"), published_params, mlp_gated,
    hf_config          the model's config.json, rebuilt offline from calculator/catalog.py (model_type, hidden_size,
                       num_hidden_layers, num_attention_heads, num_key_value_heads, intermediate_size, vocab_size,
                       tie_word_embeddings, head_dim, ...): each peer reads it with its own code
    weights            "fp32" | "bf16" | "nf4"        storage of the base weights
    compute            "fp32" | "bf16"                 matmul / activation dtype
    double_quant, qlora_backend ("bitsandbytes" | "torchao")
    optimizer          "adamw" | "adamw_8bit" | "adafactor" | "sgd" | "sgd_momentum"
    optimizer_states   "fp32" | "bf16" | "8bit";  paged (bool)
    lora_rank, lora_targets (q_proj, k_proj, v_proj, o_proj, gate_proj, up_proj, down_proj, lm_head)
    micro_batch, seq_len, grad_checkpointing (bool), attention ("eager" | "sdpa" | "flash")
    num_gpus, sharding ("none" | "ddp" | "zero1" | "zero2" | "zero3"), offload (list: "optimizer", "params",
    "activations"), special (techniques that remove or add whole tensors and that a peer must be able to take:
    "optimizer_in_backward", "dpo"), chunked_cross_entropy (bool; no peer has the knob, so it is information
    only: peers are scored on such runs with what their model leaves out), gpu (our catalogue id or null)
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks import DATA_DIR, league
from benchmarks.league import ADAPTER_DIR, DEFAULT_VENV, OURS, RESULTS_DIR, Measured, Peer, StaleAnswers

ROOT = Path(__file__).resolve().parents[1]

DEFAULT_DATA = DATA_DIR / "measurements.csv"
ANSWERS = RESULTS_DIR / "memory.json"
COMMAND = "python benchmarks/peers.py"
GB, GIB = 1_000_000_000, 1 << 30


# =====================================================================================================================
# The peers
# =====================================================================================================================
PEERS: tuple[Peer, ...] = (
    Peer("ftuneai", "ftune", "ftuneai", "run_ftuneai.py", "https://github.com/ritikmahy5/ftune",
         "weights, LoRA adapters, gradients, optimizer states, activations, +20 % 'CUDA overhead'; full, LoRA, "
         "QLoRA; ZeRO/FSDP",
         "activations are one fitted multiple of batch x sequence x hidden x layers (no attention scores, no "
         "logits, no vocabulary term); QLoRA doubles activations; LoRA targets are three presets (no lm_head, no "
         "MLP-only); fp32 optimizer states always; the parameter count comes from its own formula"),
    Peer("fitcheck", "FitCheck", "fitcheck-llm", "run_fitcheck.py", "https://github.com/Anassbzdd/fitcheck",
         "weights (NF4 with its constants), LoRA adapters, optimizer states (+ fp32 master copy in full "
         "fine-tuning), gradients, activations incl. logits, overhead profile; single GPU",
         "no multi-GPU, no MoE; refuses models whose parameter count is not LLaMA-shaped (Phi, Falcon, StableLM "
         "alpha, BLOOM); LoRA only on q,k,v,o,gate,up,down (no lm_head); fitted on one Tesla T4 only"),
    Peer("llm-analysis", "llm-analysis", "llm-analysis", "run_llm_analysis.py",
         "https://github.com/cli99/llm-analysis",
         "weights, gradients, optimizer states with master weights, activations (Korthikanti) incl. logits; "
         "ZeRO and tensor/pipeline parallelism",
         "no LoRA and no QLoRA (every parameter trained); no fp32 weights; reads the FFN as 4 x hidden with two "
         "matrices and counts the embedding once, whatever the config says; no allocator or CUDA context"),
    Peer("accelerate", "accelerate", "accelerate", "run_accelerate.py",
         "https://huggingface.co/docs/accelerate/usage_guides/model_size_estimator",
         "the largest of model, gradients, Adam states and step (8 bytes/parameter at 16-bit, 16 at fp32) for "
         "the bare backbone",
         "no activations (no batch size, no sequence length), no logits, no LoRA/QLoRA, no sharding; the LM head "
         "is not counted (AutoModel); 'training' is one component, not a sum"),
)
PEER_KEYS = tuple(p.key for p in PEERS)

#: Public calculators that cannot be run from a package registry here, with why (listed, never re-implemented)
NOT_RUN: tuple[tuple[str, str, str], ...] = (
    ("gpu_poor", "https://github.com/RahulSChand/gpu_poor",
     "a React web page; its formula ships in the page's JavaScript, not as a PyPI or npm package"),
    ("vram.asmirnov.xyz", "https://vram.asmirnov.xyz",
     "a browser app (TypeScript); not published to npm"),
    ("ApX VRAM calculator", "https://apxml.com/tools/vram-calculator",
     "a closed web app with a token-only API on its own host; no package"),
    ("How_Much_VRAM", "https://github.com/AlexBodner/How_Much_VRAM",
     "a Vite/JavaScript web page (howmuchvram.com); not published to npm"),
    ("Hugging Face 'Model Memory Usage' Space", "https://huggingface.co/spaces/hf-accelerate/model-memory-usage",
     "the web front of accelerate estimate-memory, which is run above from PyPI"),
    ("IBM fm-training-estimator", "https://pypi.org/project/fm-training-estimator/",
     "on PyPI (0.1.3), but its memory estimators import its whole regression stack at import time (xgboost, "
     "scikit-learn<1.6, ado-core, gradio, datasets) and its full-fine-tuning estimator needs a tokenizer from the "
     "Hub; not run yet"),
    ("DeepSpeed estimate_zero*_model_states_mem_needs", "https://pypi.org/project/deepspeed/",
     "on PyPI as a source package whose build imports torch (pip's isolated build would fetch the CUDA torch); "
     "it estimates model states only (no activations), like accelerate"),
)


# =====================================================================================================================
# Rows: read with benchmarks/calibration.py (never a second CSV parser)
# =====================================================================================================================
@dataclass(frozen=True)
class ScoredRow:
    """One measured run as ``benchmarks/calibration.py`` reads it, with our figure from ``benchmarks/accuracy.py``."""

    id: str
    method: str
    model: str
    measured_bytes: int
    compare: str                    # the statistic our figure is taken as (allocated / reserved / nvidia-smi)
    ours_bytes: int | None          # None: our estimator refused the request (an error, counted against us)
    request: dict[str, Any]
    gpu: str | None = None
    ours_error: str = ""


@dataclass(frozen=True)
class Left:
    """A row that is not in the league table, and why."""

    id: str
    reason: str


def load_rows(path: Path) -> tuple[list[ScoredRow], list[Left]]:
    """The point rows of the CSV with our figure, and the rows left out (with the reason).

    Rows, requests, exclusions and the like-for-like statistic come from ``benchmarks.calibration.load_rows``; our
    figure from ``benchmarks.accuracy.score_rows``, the function ``accuracy.py`` reports, so both scripts print the
    same number for a row. Capacity rows (an upper bound: "the run fits in this VRAM") and bracket rows (no effective
    sequence length) have no point value to take a percentage error against; they are listed as left out."""
    from benchmarks.accuracy import score_rows
    from benchmarks.calibration import CALIBRATION_GPU_ALIASES
    from benchmarks.calibration import load_rows as calibration_rows

    report = score_rows(calibration_rows(path))
    left = [Left(r.id, str(r.excluded_reason or "no request")) for r in report.excluded]
    rows: list[ScoredRow] = []
    for s in report.scored:
        r = s.row
        if r.kind != "point":
            left.append(Left(r.id, f"{r.kind} row: a bound, not a point measurement (scored pass/fail by "
                                   "accuracy.py)"))
            continue
        rows.append(ScoredRow(
            id=r.id, method=r.method, model=r.raw.get("model", "").strip(), measured_bytes=r.measured_bytes,
            compare=r.compare, ours_bytes=s.estimate_bytes, request=dict(r.request or {}),
            gpu=CALIBRATION_GPU_ALIASES.get(r.raw.get("gpu_model", "").strip()), ours_error=s.detail,
        ))
    return rows, left


# =====================================================================================================================
# Normalised configuration (peer-neutral), from a row's request
# =====================================================================================================================
def hf_config(arch: Any, *, min_positions: int = 4096) -> dict[str, Any]:
    """The model's config.json rebuilt from a catalogue ``ModelArch`` (what a peer would download from the Hub).

    model_type follows the real checkpoint so that peers building the model (accelerate) get its exact modules:
    Phi-1.5/2 -> phi, StableLM-alpha -> gpt_neox, Falcon -> falcon (RW: multi-query, parallel attention), BLOOM ->
    bloom; LLaMA-shaped families keep their own type. ``--check-configs`` (``benchmarks/peer_adapters/check_configs.py`` in the
    venv) builds every catalogue model from its rebuilt config and checks the published parameter count."""
    mid = arch.id
    positions = max(min_positions, 4096)
    base = {"vocab_size": arch.vocab_size, "hidden_size": arch.hidden_size,
            "num_hidden_layers": arch.num_hidden_layers, "num_attention_heads": arch.num_attention_heads,
            "tie_word_embeddings": arch.tie_word_embeddings, "max_position_embeddings": positions,
            "torch_dtype": "bfloat16"}
    if mid.startswith("falcon"):
        return {"model_type": "falcon", "architectures": ["FalconForCausalLM"], **base,
                "multi_query": arch.num_key_value_heads == 1, "num_kv_heads": arch.num_key_value_heads,
                "new_decoder_architecture": False, "parallel_attn": True, "bias": False, "alibi": False}
    if mid.startswith("bloom"):
        return {"model_type": "bloom", "architectures": ["BloomForCausalLM"], "vocab_size": arch.vocab_size,
                "hidden_size": arch.hidden_size, "n_layer": arch.num_hidden_layers,
                "n_head": arch.num_attention_heads, "tie_word_embeddings": arch.tie_word_embeddings,
                "torch_dtype": "bfloat16"}
    if mid.startswith("stablelm-base-alpha"):
        return {"model_type": "gpt_neox", "architectures": ["GPTNeoXForCausalLM"], **base,
                "intermediate_size": arch.intermediate_size, "hidden_act": "gelu", "rotary_pct": 0.25,
                "use_parallel_residual": True}
    if mid in ("phi-1.5", "phi-2"):
        return {"model_type": "phi", "architectures": ["PhiForCausalLM"], **base,
                "intermediate_size": arch.intermediate_size, "num_key_value_heads": arch.num_key_value_heads,
                "hidden_act": "gelu_new", "partial_rotary_factor": 0.5 if mid == "phi-1.5" else 0.4}
    model_type = ("phi3" if mid.startswith("phi-3") else "gemma2" if mid.startswith("gemma-2-") else
                  "gemma" if mid.startswith("gemma") else "qwen2" if mid.startswith("qwen2") else
                  "mixtral" if mid.startswith("mixtral") else "mistral" if mid.startswith("mistral") else "llama")
    architecture = {"llama": "LlamaForCausalLM", "mistral": "MistralForCausalLM", "mixtral": "MixtralForCausalLM",
                    "qwen2": "Qwen2ForCausalLM", "gemma": "GemmaForCausalLM", "gemma2": "Gemma2ForCausalLM",
                    "phi3": "Phi3ForCausalLM"}[model_type]
    cfg: dict[str, Any] = {
        "model_type": model_type, "architectures": [architecture], **base,
        "intermediate_size": arch.intermediate_size, "num_key_value_heads": arch.num_key_value_heads,
        "hidden_act": "gelu_pytorch_tanh" if model_type.startswith("gemma") else "silu",
    }
    if arch.head_dim is not None:
        cfg["head_dim"] = arch.head_dim
    if model_type.startswith("gemma"):
        cfg["hidden_activation"] = "gelu_pytorch_tanh"
    if arch.num_local_experts:
        cfg.update(num_local_experts=arch.num_local_experts, num_experts_per_tok=arch.num_experts_per_tok)
    return cfg


def peer_config(row_id: str, request: dict[str, Any], gpu: str | None = None) -> dict[str, Any]:
    """The normalised configuration of one row (schema in the module docstring), read through our own request
    parser so that defaults and aliases are exactly those our estimator applied."""
    from calculator.api import parse_request
    from calculator.memory import count_params

    setup, options = parse_request(request)
    arch = setup.model
    method = setup.method.value
    precision = setup.precision.value                   # fp32 | mixed | bf16
    weights = "nf4" if method == "qlora" else ("bf16" if precision == "bf16" else "fp32")
    compute = "fp32" if precision == "fp32" else "bf16"
    opt = setup.optimizer.value
    optimizer = {"adamw_torch": "adamw", "adamw_torch_fused": "adamw", "paged_adamw_32bit": "adamw",
                 "adamw_8bit": "adamw_8bit", "paged_adamw_8bit": "adamw_8bit"}.get(opt, opt)
    if optimizer == "adamw_8bit":
        states = "8bit"
    elif opt == "paged_adamw_32bit" or precision != "bf16":
        states = "fp32"
    elif method == "full":
        states = "bf16"                                  # torch AdamW on bf16 parameters keeps bf16 states
    else:
        states = setup.lora_dtype.value                  # the adapters' dtype (PEFT default fp32)
    offload = [name for flag, name in ((setup.cpu_offload, "optimizer"), (setup.offload_params, "params"),
                                       (setup.activation_offloading, "activations")) if flag]
    # Techniques that change which tensors exist (no gradient buffers; a second model): a peer that cannot take
    # them cannot express the run. Framework details that only shrink a transient (chunked cross-entropy), or that
    # no peer has a knob for (adapter dtype, NF4 backend, FSDP frozen-parameter gradients), stay in: the peer is
    # scored on what its model leaves out, as a user of it would be.
    special = [name for flag, name in ((setup.optimizer_in_backward, "optimizer_in_backward"),
                                       (setup.dpo, "dpo")) if flag]
    sharding = setup.sharding.value
    if sharding == "none" and setup.num_gpus > 1:
        sharding = "ddp"
    published = getattr(arch, "published_params", None) or count_params(arch).total
    return {
        "id": row_id, "method": method, "model": arch.id, "published_params": published,
        "mlp_gated": arch.mlp_gated, "hf_config": hf_config(arch, min_positions=setup.seq_len),
        "weights": weights, "compute": compute, "double_quant": setup.double_quant if method == "qlora" else False,
        "qlora_backend": setup.qlora_backend.value, "optimizer": optimizer, "optimizer_states": states,
        "paged": opt.startswith("paged"),
        "lora_rank": setup.lora_rank if method != "full" else None,
        "lora_targets": list(setup.lora_targets) if method != "full" else [],
        "micro_batch": setup.micro_batch_size, "seq_len": setup.seq_len,
        "grad_checkpointing": setup.gradient_checkpointing, "attention": setup.attention.value,
        "num_gpus": setup.num_gpus, "sharding": sharding, "offload": offload, "special": special,
        "chunked_cross_entropy": setup.chunked_cross_entropy,
        "gpu": options.get("gpu") or gpu,
    }



# =====================================================================================================================
# Scoring and the report
# =====================================================================================================================
WITHIN = (10.0, 20.0)


def measured_rows(rows: Sequence[ScoredRow]) -> list[Measured]:
    return [Measured(r.id, r.method, r.measured_bytes) for r in rows]


def ours_outcomes(rows: Sequence[ScoredRow]) -> list[league.Outcome]:
    return [league.Outcome(r.id, r.method, OURS, "ok", r.ours_bytes, r.measured_bytes) if r.ours_bytes
            else league.Outcome(r.id, r.method, OURS, "error", None, r.measured_bytes, r.ours_error or "no estimate")
            for r in rows]


def outcomes_from_results(rows: Sequence[ScoredRow], tool: str,
                          results: Sequence[dict[str, Any]]) -> list[league.Outcome]:
    """Join one adapter's answers (bytes) to the rows (a row the adapter did not answer is an error)."""
    return league.answer_outcomes(measured_rows(rows), tool, results, "bytes", integral=True)


def build_report(rows: Sequence[ScoredRow], excluded: Sequence[Left],
                 peer_docs: dict[str, dict[str, Any]], *, data: str, command: str,
                 versions: dict[str, str], answers: dict[str, str] | None = None) -> dict[str, Any]:
    """Everything printed, as one JSON-able dict (pure: the tests build one from fixed adapter answers).
    ``answers`` says where the peers' answers come from (``path``, ``date``)."""
    outcomes = ours_outcomes(rows)
    peers_run = [p for p in PEERS if p.key in peer_docs]
    for p in peers_run:
        outcomes += outcomes_from_results(rows, p.key, peer_docs[p.key].get("results", []))
    tools = [OURS, *[p.key for p in peers_run]]
    by_row = league.per_row(outcomes, "bytes")
    return {
        "command": command, "data": data, "answers": answers or {},
        "units": {"gb": GB, "gib": GIB},
        "counts": {"scored": len(rows), "excluded": len(excluded)},
        "versions": versions,
        "peers": [{"key": p.key, "label": p.label, "distribution": p.distribution,
                   "version": versions.get(p.distribution), "docs": p.docs, "covers": p.covers,
                   "leaves_out": p.leaves_out} for p in peers_run],
        "not_run": [{"name": n, "url": u, "why": w} for n, u, w in NOT_RUN],
        "summary": league.summary_json(league.summarise(outcomes, tools, within=WITHIN)),
        "rows": [{"id": r.id, "method": r.method, "model": r.model, "measured_bytes": r.measured_bytes,
                  "compare": r.compare, "tools": by_row.get(r.id, {})} for r in rows],
        "excluded": [{"id": x.id, "reason": x.reason} for x in excluded],
    }


def report(data: Path = DEFAULT_DATA, *, peers: Sequence[Peer] = PEERS, command: str = COMMAND) -> dict[str, Any]:
    """The league table from our figures now and the peers' committed answers (no venv, no network; raises
    ``StaleAnswers`` when a run's configuration changed since the peers answered)."""
    rows, excluded = load_rows(data)
    configs = [peer_config(r.id, r.request, r.gpu) for r in rows]
    ans = league.load_answers(ANSWERS, configs, [p.key for p in peers], refresh=f"{COMMAND} --run-peers")
    return build_report(rows, excluded, ans.docs, data=league.shown_path(data), command=command,
                        versions=ans.versions, answers={"path": league.shown_path(ANSWERS), "date": ans.date})


# =====================================================================================================================
# Rendering
# =====================================================================================================================
TABLE = league.Table(
    within=WITHIN, references=(OURS,),
    labels={"en": {OURS: "ours (calculator)"}, "ar": {OURS: "حاسبتنا"}},
    text_head=("method", "tool", "rows", "median", "worst", "≤10 %", "≤20 %", "ours, same rows"),
    md_head={
        "en": ("Method", "Tool", "Rows", "Median error", "Worst error", "Within 10%", "Within 20%",
               "Ours on the same rows (median)"),
        "ar": ("الطريقة", "الأداة", "الصفوف", "الخطأ الوسيط", "أسوأ خطأ", 'ضمن <bdi dir="ltr">10%</bdi>',
               'ضمن <bdi dir="ltr">20%</bdi>', "حاسبتنا على صفوفها (الوسيط)"),
    },
    stamp={
        "en": "Printed by `{command}` from `{data}` ({scored} measured runs; {left} left out) and the peers' answers "
              "of {answered} (`{answers}`). Absolute percentage error against the measured peak; “Rows” = runs the "
              "tool can express / runs in the group; GB = 10<sup>9</sup> bytes.",
        "ar": 'طبعه الأمر <bdi>`{command}`</bdi> من الملف <bdi>`{data}`</bdi> (<bdi dir="ltr">{scored}</bdi> قياسًا '
              'منشورًا، واستُبعد <bdi dir="ltr">{left}</bdi>) ومن أجوبة الحاسبات الأخرى المحفوظة في '
              '<bdi>`{answers}`</bdi> (شُغّلت في <bdi dir="ltr">{answered}</bdi>). النسب هي الخطأ المطلق بالنسبة '
              "المئوية مقارنة بالذروة المقيسة؛ و«الصفوف» عدد القياسات التي تستطيع الأداة التعبير عنها من قياسات "
              'المجموعة؛ و<bdi>GB</bdi> تساوي <bdi dir="ltr">10<sup>9</sup></bdi> بايت.',
    },
)
_RUNS = {
    "en": {"head": ("Run", "Method", "Model", "Measured", "Ours"), "ns": "n/s", "err": "error"},
    "ar": {"head": ("القياس", "الطريقة", "النموذج", "المقيس", "حاسبتنا"), "ns": "لا يدعمه", "err": "خطأ"},
}


def render_text(report: dict[str, Any], *, rows: bool = False) -> str:
    ans = report.get("answers") or {}
    lines = [f"Accuracy league table: {report['command']}"
             + (f" (the peers' answers of {ans['date']}, {ans['path']})" if ans.get("date") else ""),
             f"data: {report['data']} ({report['counts']['scored']} runs scored, "
             f"{report['counts']['excluded']} left out: excluded by calibration.py, or a bound rather than a point); "
             "absolute % error against the measured peak; 'rows' = rows the tool could express / rows in the group",
             ""]
    lines += league.text_table(report, TABLE)
    if rows:
        lines += ["", *render_rows_text(report)]
    return "\n".join(lines) + "\n"


def _row_cells(report: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    tools = [OURS, *[p["key"] for p in report["peers"]]]
    labels = {p["key"]: p["label"] for p in report["peers"]}
    head = ["row", "method", "model", "measured", *(labels.get(t, "ours") for t in tools)]
    body = []
    for r in report["rows"]:
        cells = [r["id"], r["method"], r["model"], f"{r['measured_bytes'] / GB:.2f} GB"]
        for t in tools:
            o = r["tools"].get(t)
            if o is None or o["status"] == "unsupported":
                cells.append("n/s")
            elif o["status"] == "error":
                cells.append("error")
            else:
                cells.append(f"{o['bytes'] / GB:.2f} ({o['signed']:+.0f} %)")
        body.append(cells)
    return head, body


def render_rows_text(report: dict[str, Any]) -> list[str]:
    head, body = _row_cells(report)
    widths = [max(len(x[i]) for x in [head, *body]) for i in range(len(head))]
    fmt = "  ".join(f"{{:<{w}}}" for w in widths)
    lines = ["Per run (GB = 1e9 bytes; signed % error; n/s = the tool cannot express the run):",
             fmt.format(*head), fmt.format(*("-" * w for w in widths))]
    lines += [fmt.format(*b) for b in body]
    reasons = _unsupported_reasons(report)
    if reasons:
        lines += ["", "Why rows are not supported (count per reason):"]
        for tool, items in reasons.items():
            for reason, n in items:
                lines.append(f"  {tool}: {n} x {reason}")
    return lines


def _unsupported_reasons(report: dict[str, Any]) -> dict[str, list[tuple[str, int]]]:
    out: dict[str, dict[str, int]] = {}
    for r in report["rows"]:
        for tool, o in r["tools"].items():
            if o["status"] in ("unsupported", "error"):
                key = o["reason"] if o["status"] == "unsupported" else f"ERROR {o['reason']}"
                out.setdefault(tool, {}).setdefault(key, 0)
                out[tool][key] += 1
    return {t: sorted(d.items(), key=lambda kv: -kv[1]) for t, d in out.items()}


def render_runs_markdown(report: dict[str, Any], lang: str = "en") -> str:
    """One line per measured run: the measured peak and every tool's figure with its signed error."""
    t = _RUNS[lang]
    head, body = _row_cells(report)
    head = [*t["head"], *(league.bdi(h, lang) for h in head[5:])]
    lines = ["| " + " | ".join(head) + " |", "| " + " | ".join(["---"] * 3 + ["---:"] * (len(head) - 3)) + " |"]
    for b in body:
        cells = [league.bdi(b[0], lang), league.GROUP_NAMES[lang].get(b[1], b[1]), league.bdi(b[2], lang)]
        for x in b[3:]:
            cells.append(t["ns"] if x == "n/s" else t["err"] if x == "error" else league.bdi(league.page_style(x), lang))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def render_markdown(report: dict[str, Any], *, rows: bool = False, lang: str = "en") -> str:
    """The league table (and with ``rows`` the per-run table) as Markdown, in English or Arabic; the numbers are
    the same as the text output's."""
    out = league.markdown_table(report, TABLE, lang)
    return out + ("\n" + render_runs_markdown(report, lang) if rows else "")


# =====================================================================================================================
# Command line
# =====================================================================================================================
def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA, help="measurements CSV (default: %(default)s)")
    ap.add_argument("--rows", action="store_true", help="also print one line per measured run")
    ap.add_argument("--json", action="store_true", help="machine output (everything, one JSON document)")
    ap.add_argument("--markdown", action="store_true",
                    help="Markdown tables (what the documents' generated blocks hold)")
    ap.add_argument("--lang", choices=("en", "ar"), default="en", help="language of --markdown (default: en)")
    ap.add_argument("--run-peers", action="store_true",
                    help=f"run the peers in their venv (installed on first use) instead of reading their committed "
                         f"answers, and rewrite {ANSWERS.relative_to(ROOT)} (when every peer runs on the default "
                         "data)")
    ap.add_argument("--peers", default=",".join(PEER_KEYS),
                    help=f"comma-separated subset of {','.join(PEER_KEYS)} (default: all)")
    ap.add_argument("--venv", type=Path, default=DEFAULT_VENV, help="the peers' venv (default: %(default)s)")
    ap.add_argument("--rebuild-venv", action="store_true", help="recreate the venv even if it matches")
    ap.add_argument("--dump-configs", type=Path, help="write the normalised configurations to this JSON file")
    ap.add_argument("--check-configs", action="store_true",
                    help="check in the venv that every rebuilt config.json has the model's published parameter "
                         "count, then exit")
    args = ap.parse_args(argv)

    wanted = [k.strip() for k in args.peers.split(",") if k.strip()]
    unknown = sorted(set(wanted) - set(PEER_KEYS))
    if unknown:
        ap.error(f"unknown peer(s): {', '.join(unknown)}")
    peers = [p for p in PEERS if p.key in wanted]

    if args.check_configs:
        from calculator.catalog import MODELS
        from calculator.memory import count_params

        py = league.ensure_venv(args.venv, rebuild=args.rebuild_venv)
        models = {m.id: [hf_config(m), m.published_params or count_params(m).total] for m in MODELS.values()}
        return subprocess.run([str(py), str(ADAPTER_DIR / "check_configs.py")], input=json.dumps(models),
                              text=True, cwd=str(ADAPTER_DIR)).returncode

    argv_shown = " ".join(a for a in (argv if argv is not None else sys.argv[1:]))
    command = COMMAND + (f" {argv_shown}" if argv_shown else "")
    rows, excluded = load_rows(args.data)
    configs = [peer_config(r.id, r.request, r.gpu) for r in rows]
    if args.dump_configs:
        args.dump_configs.write_text(json.dumps(configs, indent=1) + "\n")

    try:
        docs, versions, answers = league.answers_for(
            peers, configs, path=ANSWERS, league="memory", value_key="bytes", command=command,
            refresh=f"{COMMAND} --run-peers", run=args.run_peers,
            save=len(peers) == len(PEERS) and args.data == DEFAULT_DATA, venv_dir=args.venv, rebuild=args.rebuild_venv)
    except StaleAnswers as exc:
        print(f"peers: {exc}", file=sys.stderr)
        return 2
    rep = build_report(rows, excluded, docs, data=league.shown_path(args.data), command=command,
                       versions=versions, answers=answers)
    if args.json:
        json.dump(rep, sys.stdout, indent=1)
        sys.stdout.write("\n")
    elif args.markdown:
        sys.stdout.write(render_markdown(rep, rows=args.rows, lang=args.lang))
    else:
        sys.stdout.write(render_text(rep, rows=args.rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
