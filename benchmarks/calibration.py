"""Turn the calibration CSV (benchmarks/data/measurements.csv) into estimator requests and measured figures.

Shared by ``benchmarks/accuracy.py`` and other comparisons (e.g. a peers benchmark): ``load_rows(path)`` returns one
``Row`` per CSV row with

* ``request``: the ``calculator.api`` request dict (JSON-ready), built ONLY from the row's own fields (its columns,
  and settings its notes/quote state, e.g. "dropout 0.05", "nf4-dq", "chunked CE") plus the documented framework
  profile of its source (``FRAMEWORK_PROFILES``: what litgpt / torchtune / PEFT do by default that the row's columns
  cannot express). No row id is special-cased.
* ``measured_bytes``: the published figure in bytes (``units``: GB = 1e9, GiB = 2**30; "G" is read as GB).
* ``compare``: which estimator figure is like-for-like: ``allocated_bytes`` (max_memory_allocated, torchtune "active",
  and ``unknown``, which is compared with allocated and says so), ``reserved_bytes`` (max_memory_reserved) or
  ``peak_bytes_per_gpu`` (nvidia-smi).
* ``kind``: ``point`` (scored), ``capacity`` (UN-*: the estimate at the stated context must be <= the VRAM),
  ``bracket`` (no effective seq_len: the measurement must lie between the estimate at 1 token and at the cap).
* ``excluded_reason``: set only for SUSPECT or ESTIMATE rows and encoder / encoder-decoder models.
* ``assumptions``: every default or profile value that was filled in, in words.

Standard library only.
"""
from __future__ import annotations

import csv
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks import DATA_DIR, require_data

__all__ = ["Row", "load_rows", "require_data", "DEFAULT_DATA", "FRAMEWORK_PROFILES", "CALIBRATION_ALIASES",
           "CALIBRATION_GPU_ALIASES", "framework_of", "framework_fields", "stated_lora_dropout", "stated_double_quant",
           "row_to_request"]

DEFAULT_DATA = DATA_DIR / "measurements.csv"

GB = 10**9
GIB = 1 << 30


# The calibration CSV's model and GPU names -> catalogue ids. Only the benchmarks use these (they do not ship in
# the browser wheel, which holds calculator/ only).
# Exact `model` strings of benchmarks/data/measurements.csv (decoder-only rows) -> catalogue id.
# Encoder-decoder (T0_3B, mt0-xxl) and encoder-only (bert-large-uncased) rows are deliberately absent.
CALIBRATION_ALIASES: dict[str, str] = {
    # GaLore's configs/llama_7b.json (random-init LLaMA 7B, vocab 32000) has exactly Llama 2 7B's shapes.
    "LLaMA-7B (GaLore config)": "llama-2-7b",
    "Llama-2-7B": "llama-2-7b",
    "Llama-2-13B": "llama-2-13b",
    "Llama-2-70B": "llama-2-70b",
    "Llama-3-8B": "llama-3-8b",
    "Llama-3.1-8B": "llama-3.1-8b",
    "Llama-3.1-70B": "llama-3.1-70b",
    "Llama-3.2-1B": "llama-3.2-1b",
    "Llama-3.2-3B": "llama-3.2-3b",
    "Llama-3.3-70B": "llama-3.3-70b",
    "Mistral-7B-v0.1": "mistral-7b-v0.1",
    "Mistral-7B-v0.2": "mistral-7b-v0.2",
    "Phi-3-mini-4k-instruct": "phi-3-mini",
    "phi-1.5": "phi-1.5",
    "phi-2": "phi-2",
    "TinyLlama-1.1B": "tinyllama-1.1b",
    "gemma-2b": "gemma-2b",
    "gemma-2-2b": "gemma-2-2b",
    "stablelm-base-alpha-3b": "stablelm-base-alpha-3b",
    "falcon-7b": "falcon-7b",
    "bloomz-7b1": "bloomz-7b1",
}

# Unambiguous `gpu_model` strings of measurements.csv -> GPU id (rows naming no exact card are left out).
CALIBRATION_GPU_ALIASES: dict[str, str] = {
    "RTX 4090": "rtx-4090",
    "RTX 4090 (stated 'tested on NVIDIA RTX 4090')": "rtx-4090",
    "RTX A6000": "rtx-a6000",
    "L40S": "l40s",
    "A10G": "a10g",
    "A10G (multi-GPU FSDP)": "a10g",
    "A100 40GB": "a100-40gb",
    "A100-SXM4-40GB": "a100-40gb",
    "A100 80GB": "a100-80gb",
    "H100 80GB": "h100-80gb",
    "Tesla V100-SXM2 16GB": "v100-16gb",
}

# What a framework does by default that the CSV columns cannot say. Each entry names its evidence.
FRAMEWORK_PROFILES: dict[str, dict[str, Any]] = {
    # litgpt / lit-gpt: bf16-true keeps LoRA weights in bf16; finetune/lora.py calls model(..., lm_head_chunk_size=128)
    # and chunked_cross_entropy (since Aug 2023); bitsandbytes Linear4bit for --quantize (all linear layers).
    # Its finetune scripts accumulate inside fabric.no_backward_sync(model, enabled=is_accumulating) (FSDP no_sync:
    # unsharded gradients while accumulating). The 2023 lit-gpt finetune/lora.py (the resource tables' "lit-gpt
    # commit" rows) fixed batch_size = 128 and gradient_accumulation_iters = batch_size // micro_batch_size.
    # litgpt/model.py GPT builds lm_head (nn.Linear) apart from transformer.wte (nn.Embedding) and
    # scripts/convert_hf_checkpoint.py copies wte into lm_head.weight for tied checkpoints; only pretrain.py re-ties
    # (train.tie_embeddings), so finetuning holds two copies (untie_embeddings). --quantize bnb.* uses Lightning
    # Fabric's BitsandbytesPrecision without ignore_modules: every torch.nn.Linear, lm_head included, becomes
    # NF4 (quantize_lm_head), quantised from fp16 (_Linear4bit._quantize_weight: weight.to(torch.half)), so
    # MatMul4Bit's dequantize_4bit(...).to(bf16) holds an fp16 and a bf16 copy at once (dequant_cast). Its LoRA
    # default lora_dropout is 0.05.
    "litgpt": {"lora_dtype": "bf16", "chunked_cross_entropy": True, "qlora_backend": "bitsandbytes",
               "no_sync_accumulation": True, "lit_gpt_2023_batch_size": 128,
               "untie_embeddings": True, "quantize_lm_head": True, "dequant_cast": True, "lora_dropout": 0.05},
    # torchtune: bf16 params incl. LoRA; torchao NF4 on the LoRA-wrapped linears only (torchtune #1398), whose
    # scalers are themselves quantised (block 64, scaler block 256 = double quantisation); full-FT configs
    # instantiate torch.optim.AdamW with fused=True since #1575 (cca50f02, 2024-09-14).
    # Its single-device and distributed configs enable activation checkpointing (the CSV's own cells say "config
    # default yes" for TT-01, TT-07, TT-30), used when a torchtune row leaves it unknown without a stated default.
    # Chunked cross-entropy became the configs' loss with PR #1390 (Aug 2024): the llama3_1 configs stored at
    # 0031bfb080bd (days after the README commit 30b8519e, whose "Memory and training speed" table is unchanged there)
    # name ``loss: _component_: torchtune.modules.loss.CEWithChunkedOutputLoss`` (70B_full.yaml, 8B_lora.yaml).
    # The April-May 2024 sources (README fef3ed10 #775 and 0217d44c #955, the tutorials ff594c23 and 0914d5cf, PR
    # #961) predate two changes: every recipe then did ``logits = self._model(input_ids); logits = logits[..., :-1,
    # :].contiguous(); ... loss.backward()``, keeping the fp32 logits (the model ends in ``self.output(h).float()``)
    # bound through backward and the step, until #1046 (cb3ed29d, 2024-06-04, "del logits to save peak memory");
    # and their full-FT configs built ``torch.optim.AdamW`` without ``fused`` (foreach), until #1575.
    "torchtune": {"lora_dtype": "bf16", "qlora_backend": "torchao", "double_quant": True, "fused_adamw_full": True,
                  "gradient_checkpointing": True,
                  "chunked_ce_source_commits": ("30b8519e86d2094879576e16ab1f8d21a6f6f9f7",),
                  "early_2024_sources": ("fef3ed10dc9efe9e35b118e4397e84c680c0a737",
                                         "ff594c23113891c99050f730c6be0aeacf511b2f",
                                         "0914d5cfb5a34bf14a72e36b9ddebc64904763d1",
                                         "0217d44c2e1e372b34628767745c1f6538086a81",
                                         "pytorch/torchtune/pull/961")},
    # llama-recipes --pure_bf16: every parameter (LoRA included) in bf16; configs/peft.py lora_config at e5970e2e:
    # lora_dropout=0.05.
    "llama-recipes": {"lora_dtype": "bf16", "lora_dropout": 0.05},
    # PEFT (examples, method_comparison, docs): autocast_adapter_dtype=True keeps adapters in fp32.
    "peft": {"lora_dtype": "fp32"},
    "galore": {},
    # Unsloth (Jan 2025 README): "We worked with Apple to add Cut Cross Entropy" (the context-length tables), and
    # use_gradient_checkpointing="unsloth" offloads each layer's input to host RAM (the CSV's cpu_offload cell).
    "unsloth": {"fused_linear_cross_entropy": True},
    "transformers": {},
    # Answer.AI fsdp_qlora train.py (the speed rows AA-*): the rows' notes quote its March 2024 defaults, "LoRA r64
    # alpha16 dropout 0.1 on all linear layers, bf16": the LoRA weights are bf16 like the model. Its QLoRA builds
    # bitsandbytes.nn.Linear4bit itself (train.py ``replace_linear(model.model, Linear4bit, compute_dtype=...,
    # quant_type='nf4', quant_storage=...)`` at d7818ec, 2024-03-15) without ``compress_statistics``, whose default
    # in Linear4bit.__init__ is True: double quantisation.
    "answerdotai": {"lora_dtype": "bf16", "double_quant": True},
    # litgpt pretrain.py (the speed rows LG-T*): litgpt's model and loss, but pretraining re-ties the embeddings
    # (train.tie_embeddings), so lm_head is not held apart.
    "litgpt-pretrain": {"chunked_cross_entropy": True, "no_sync_accumulation": True},
}


def framework_fields(fw: str, method: str) -> dict[str, Any]:
    """The request keys a framework's profile sets for a method whatever the row's columns say: the adapters' dtype
    and dropout, the QLoRA backend and its double quantisation (transformers' BitsAndBytesConfig default is off),
    lm_head held apart or quantised, the dequantisation cast, the chunked loss, accumulation inside no_sync. Both
    readers apply them, the memory rows' (``row_to_request``) and the speed rows' (``benchmarks/time_accuracy.py``); what
    a row states itself (``stated_lora_dropout``, ``stated_double_quant``, its own cells) goes on top."""
    profile = FRAMEWORK_PROFILES.get(fw, {})
    out: dict[str, Any] = {}
    if method in ("lora", "qlora"):
        out.update({k: profile[k] for k in ("lora_dtype", "lora_dropout") if k in profile})
    if profile.get("untie_embeddings"):
        out["untie_embeddings"] = True
    if method == "qlora":
        out["qlora_backend"] = profile.get("qlora_backend", "bitsandbytes")
        out["double_quant"] = profile.get("double_quant", False)
        out.update({k: True for k in ("quantize_lm_head", "dequant_cast") if profile.get(k)})
    out.update({k: True for k in ("chunked_cross_entropy", "no_sync_accumulation") if profile.get(k)})
    return out


def stated_lora_dropout(notes: str) -> float | None:
    """A LoRA dropout the row's notes state ("dropout 0.05")."""
    m = re.search(r"dropout\s+(0?\.\d+)", notes)
    return float(m.group(1)) if m else None


def stated_double_quant(text: str) -> bool:
    """Double quantisation stated in the row's text ("nf4-dq", "double quant")."""
    text = text.lower()
    return "nf4-dq" in text or "double quant" in text or "double_quant" in text


# What a source states at its commit that the CSV row's columns do not carry: the statistic its figures are (when
# the measure_kind cell is unknown) and the launch command it prints. Keyed by a part of the source URL and, where
# one document shows several runs, the row's method; no row id appears here. Each entry names its evidence.
SOURCE_READINGS: tuple[tuple[str, str | None, dict[str, Any], str], ...] = (
    # torchtune README tables of April (#775) and May 2024 (#955): no statistic is named, and the recipes log all
    # three (utils.get_memory_stats: peak active, allocated, reserved). Read as max_memory_reserved because (1) the
    # #775 table's QLoRA figure, 9.29 GB, is the QLoRA tutorial's "Peak memory reserved, training" of the same
    # weeks; (2) the README text above that table until #727 (2024-04-15) said "These resource requirements are
    # based on GPU peak memory reserved during training"; (3) #955 is the same author re-measuring the same table.
    ("pytorch/torchtune/blob/fef3ed10dc9efe9e35b118e4397e84c680c0a737/README.md", None,
     {"statistic": "reserved_bytes"}, "torchtune README #775: its QLoRA figure is the tutorial's peak reserved"),
    ("pytorch/torchtune/blob/0217d44c2e1e372b34628767745c1f6538086a81/README.md", None,
     {"statistic": "reserved_bytes"}, "torchtune README #955 re-measures #775's table (peak reserved)"),
    # PEFT docs accelerate/fsdp.md, "LoRA + FSDP" (run_peft_fsdp.sh as printed there): --lora_dropout 0.1,
    # --gradient_accumulation_steps 4; examples/sft/utils.py loads the model without a torch_dtype (fp32) when it
    # is not quantised (aa2ca83c, Feb 2024, when the section was written; ``dtype = ... else torch.float32`` at
    # 5d602fdb), and accelerate's ``mixed_precision: bf16`` gives FSDP MixedPrecision(param_dtype=bf16): fp32
    # shards, 16-bit compute.
    ("huggingface/peft/blob/5d602fdbff04c33c1c4de55cda9d4ae1d7cb7e40/docs/source/accelerate/fsdp.md", "lora",
     {"lora_dropout": 0.1, "grad_accum_steps": 4, "base_fp32": True},
     "PEFT fsdp.md launch command and examples/sft/utils.py (fp32 load)"),
    # The same page, "QLoRA + FSDP" (run_peft_qlora_fsdp.sh): --lora_dropout 0.1, --gradient_accumulation_steps 2,
    # --use_nested_quant True; torch_dtype = the bf16 quant storage. Its "memory consumed per GPU is 19.6 GB while
    # CPU RAM usage is around 107 GB" pairs the GPU figure with host RAM, as a system monitor shows them (the
    # training script logs no GPU statistic: HF Trainer's skip_memory_metrics defaults to True): nvidia-smi.
    ("huggingface/peft/blob/5d602fdbff04c33c1c4de55cda9d4ae1d7cb7e40/docs/source/accelerate/fsdp.md", "qlora",
     {"lora_dropout": 0.1, "grad_accum_steps": 2, "double_quant": True, "statistic": "peak_bytes_per_gpu"},
     "PEFT fsdp.md QLoRA launch command; GPU figure next to CPU RAM (system monitor)"),
    # PEFT docs accelerate/deepspeed.md, "LoRA + ZeRO-3" (run_peft_deepspeed.sh): --lora_dropout 0.1,
    # --gradient_accumulation_steps 4. DeepSpeed's bf16 mode holds the parameters in bf16 (fp32 master copies with
    # the optimizer partition), so the fp32 load does not stay.
    ("huggingface/peft/blob/5d602fdbff04c33c1c4de55cda9d4ae1d7cb7e40/docs/source/accelerate/deepspeed.md", "lora",
     {"lora_dropout": 0.1, "grad_accum_steps": 4}, "PEFT deepspeed.md launch command"),
)


def _source_readings(raw: dict[str, str]) -> list[tuple[dict[str, Any], str]]:
    url = raw.get("source_url", "")
    method = raw.get("method", "").strip().lower()
    return [(facts, why) for part, m, facts, why in SOURCE_READINGS if part in url and m in (None, method)]


def _run_notes(raw: dict[str, str]) -> str:
    """The notes about the run: their tail says where the architecture numbers came from ("arch from
    litgpt/config.py"), which is not about the run."""
    return raw.get("notes", "").split("| arch from")[0]


#: The speed rows' ``framework`` column -> profile (first match; the memory rows have no such column).
FRAMEWORK_COLUMN: tuple[tuple[str, str], ...] = (
    ("torchtune", "torchtune"), ("pretrain.py", "litgpt-pretrain"), ("litgpt", "litgpt"), ("lit-gpt", "litgpt"),
    ("answerdotai", "answerdotai"), ("unsloth", "unsloth"), ("peft", "peft"), ("trl", "peft"),
    ("llama-factory", "peft"),
)


def framework_of(raw: dict[str, str]) -> str:
    """The framework a row ran: its ``framework`` cell where the CSV has one (the speed rows), else what its source
    URL and the notes about the run say (the memory rows)."""
    column = raw.get("framework", "").lower()
    if column:
        return next((fw for part, fw in FRAMEWORK_COLUMN if part in column), "transformers")
    url = raw.get("source_url", "").lower()
    notes = _run_notes(raw).lower()
    if "torchtune" in url or "torchtune" in notes:
        return "torchtune"
    if "lit-gpt" in url or "litgpt" in url or "lit-gpt" in notes or "litgpt" in notes:
        return "litgpt"
    if "llama-recipes" in url or "llama-recipes" in notes:
        return "llama-recipes"
    if "galore" in url or "galore" in notes:
        return "galore"
    if "unsloth" in url or "unsloth" in notes:
        return "unsloth"
    if "peft" in url or "peft" in notes:
        return "peft"
    return "transformers"


@dataclass
class Row:
    id: str
    raw: dict[str, str]
    method: str
    framework: str
    kind: str                               # point | capacity | bracket
    compare: str                            # allocated_bytes | reserved_bytes | peak_bytes_per_gpu
    measured_bytes: int
    request: dict[str, Any] | None
    excluded_reason: str | None = None
    assumptions: list[str] = field(default_factory=list)
    bracket_low_request: dict[str, Any] | None = None    # bracket rows: the same run at 1 token

    @property
    def tier(self) -> str:
        m = re.match(r"\[tier ([^\]]+)\]", self.raw.get("notes", ""))
        return m.group(1) if m else ""


# ---------------------------------------------------------------------------------------------------------------
# Field parsers
# ---------------------------------------------------------------------------------------------------------------
_DEFAULT_RE = re.compile(r"default\s+([^)]*)\)", re.I)


def _stated_default(cell: str) -> str | None:
    """'unknown (config default 8)' -> '8'; 'unknown (config default yes)' -> 'yes'."""
    m = _DEFAULT_RE.search(cell)
    return m.group(1).strip() if m else None


def _cell(raw: dict[str, str], key: str, assumptions: list[str]) -> str | None:
    """The cell's value, the stated config default for 'unknown (config default X)', or None when unknown."""
    v = (raw.get(key) or "").strip()
    if not v:
        return None
    if v.lower().startswith("unknown"):
        d = _stated_default(v)
        said = re.search(r"\b(false|true|yes|no)\b", d or "", re.I)
        if d is not None and "likely overridden" in v.lower() and said:
            flipped = "yes" if said.group(1).lower() in ("false", "no") else "no"
            assumptions.append(f"{key}: the cell says its config default was likely overridden: '{flipped}'")
            return flipped
        if d is not None:
            assumptions.append(f"{key}: stated config default '{d}'")
            return d
        return None
    return v


def _yes(v: str) -> bool:
    return v.strip().lower().startswith(("yes", "true"))


def _targets(text: str) -> list[str] | str | None:
    t = text.lower()
    if "all-linear" in t or "all linear" in t:
        return "all-linear"
    out: list[str] = []
    t = re.sub(r"\(.*?\)", "", t)                 # drop parentheticals like "(alpha 16)"
    tokens = re.split(r"[,+;\s]+", t)
    mapping = {
        "q": ["q_proj"], "q_proj": ["q_proj"], "query": ["q_proj"],
        "k": ["k_proj"], "k_proj": ["k_proj"], "key": ["k_proj"],
        "v": ["v_proj"], "v_proj": ["v_proj"], "value": ["v_proj"],
        "o": ["o_proj"], "o_proj": ["o_proj"], "output_proj": ["o_proj"], "dense": ["o_proj"],
        "query_key_value": ["q_proj", "k_proj", "v_proj"],
        "gate": ["gate_proj"], "gate_proj": ["gate_proj"], "up": ["up_proj"], "up_proj": ["up_proj"],
        "down": ["down_proj"], "down_proj": ["down_proj"],
        "mlp": ["gate_proj", "up_proj", "down_proj"],
        "lm_head": ["lm_head"],
    }
    for tok in tokens:
        for part in tok.split("/"):
            if part in mapping:
                for m in mapping[part]:
                    if m not in out:
                        out.append(m)
    return out or None


def _optimizer(text: str, method: str, profile: dict[str, Any], assumptions: list[str]) -> dict[str, Any]:
    full = text.lower()
    # the canonical token comes first (calibration README); "unknown (default ... = X)" names the config default
    t = full
    if full.startswith("unknown"):
        d = _stated_default(full)
        t = d.split("=")[-1].strip() if d else ""
        if d:
            assumptions.append(f"optimizer: stated config default '{t}'")
    t = re.sub(r"^(bnb|bitsandbytes|torch)[\s.]+(optim\.)?", "", t.strip())
    canonical = re.split(r"[\s(,+]", t, maxsplit=1)[0] if t else ""
    out: dict[str, Any] = {}
    if "optimizer_in_bwd" in t or "in backward" in t or "in_bwd" in t or "per_layer" in t or "per-layer" in t:
        out["optimizer_in_backward"] = True
    if "fused into backward" in t:
        out["optimizer_in_backward"] = True
    head = canonical
    if head.startswith(("paged_adamw_8bit", "pagedadamw8bit")):
        out["optimizer"] = "paged_adamw_8bit"
    elif head.startswith(("paged_adamw_32bit", "pagedadamw")):
        out["optimizer"] = "paged_adamw_32bit"
    elif head.startswith("adamw_8bit") or head.startswith("galore") and "8bit" in head:
        out["optimizer"] = "adamw_8bit"
    elif head.startswith("sgd"):
        out["optimizer"] = "sgd"
        if "momentum" in t:
            out["momentum"] = True
    elif head.startswith("adafactor"):
        out["optimizer"] = "adafactor"
    elif head.startswith(("adamw", "lora_fa")):
        out["optimizer"] = "adamw_torch"
        if t.startswith("lora_fa"):
            assumptions.append("optimizer: LoRA-FA modelled as AdamW on every LoRA matrix (upper bound)")
        if method == "full" and profile.get("fused_adamw_full") and "fused into backward" not in t \
                and not out.get("optimizer_in_backward"):
            out["optimizer"] = "adamw_torch_fused"
            assumptions.append("optimizer: framework profile fused AdamW (torchtune full-FT configs)")
    else:
        assumptions.append("optimizer: unknown, API default adamw_torch")
    if t.startswith("galore"):
        assumptions.append("optimizer: GaLore 8-bit per-layer modelled as 8-bit AdamW stepped in backward")
    return out


def _units(text: str, assumptions: list[str]) -> int:
    t = text.strip()
    if t.startswith("GiB"):
        return GIB
    if t.startswith("GB"):
        return GB
    assumptions.append(f"units '{t}' read as GB (1e9)")
    return GB


def _compare(kind_text: str, assumptions: list[str]) -> tuple[str, str]:
    k = kind_text.strip().lower()
    if k.startswith("capacity"):
        return "capacity", "peak_bytes_per_gpu"
    if k.startswith("nvidia-smi"):
        return "point", "peak_bytes_per_gpu"
    if k.startswith("max_memory_reserved"):
        return "point", "reserved_bytes"
    if k.startswith(("max_memory_allocated", "active_peak")):
        return "point", "allocated_bytes"
    assumptions.append("measure_kind unknown: compared with allocated_bytes")
    return "point", "allocated_bytes"


def _excluded(raw: dict[str, str]) -> str | None:
    notes = raw.get("notes", "")
    if "SUSPECT" in notes:
        caveat = re.search(r"see caveat (\d+)", notes)
        return (f"SUSPECT: the calibration data marks it so (its README caveat {caveat.group(1) if caveat else 5}: "
                + ("not a steady-state figure of the stated run)" if caveat else "below basic accounting)"))
    if "ESTIMATE" in notes:
        return "ESTIMATE: a published estimate, not a measurement"
    if "ENCODER-DECODER" in notes.upper():
        return "encoder-decoder model (T5/mT5): outside the decoder-only estimator"
    if "ENCODER-ONLY" in notes.upper():
        return "encoder-only model (BERT): outside the decoder-only estimator"
    return None


_COMPILE_RE = re.compile(r"(?<!no )(?<!\*\*=)\b(?:torch\.)?compile(?:=true| on\b| enabled\b|\s*\+)|\+\s*compile\b", re.I)


def _compiled(text: str) -> bool:
    """The row says the run used torch.compile: "torch.compile on", "compile=True", "+ compile" (not "no compile",
    nor a footnote legend such as "**=torch.compile" that marks other rows)."""
    return bool(_COMPILE_RE.search(text))


def _seq_cap(raw: dict[str, str]) -> int | None:
    text = raw.get("source_quote", "") + " " + raw.get("notes", "")
    m = re.search(r"max(?:imum)?[ _]seq(?:uence)?[ _]len(?:gth)?\s*[=:]?\s*(\d+)", text, re.I)
    return int(m.group(1)) if m else None


# ---------------------------------------------------------------------------------------------------------------
# Row -> request
# ---------------------------------------------------------------------------------------------------------------
def row_to_request(raw: dict[str, str], assumptions: list[str]) -> dict[str, Any]:
    """The API request for one CSV row: its columns, what its notes/quote state, its framework's profile and what its
    source states at its commit (``SOURCE_READINGS``). Every filled-in value is recorded in ``assumptions``."""
    fw = framework_of(raw)
    profile = FRAMEWORK_PROFILES.get(fw, {})
    method = raw["method"].strip().lower()
    req: dict[str, Any] = {"include": [], "model": _model_of(raw, assumptions), "method": method,
                           "precision": _precision_of(raw)}
    if _base_fp32_of(raw, method, req["precision"]):
        req["base_fp32"] = True
        assumptions.append("base_fp32: the weight precision is fp32 under 16-bit compute")
    req.update(_optimizer(raw.get("optimizer", "") or "", method, profile, assumptions))
    if method in ("lora", "qlora"):
        req.update(_lora_fields(raw, fw, profile, method, assumptions))
    req.update(_framework_fields(raw, fw, profile, method, req, assumptions))
    req.update(_batch_fields(raw, profile, method, assumptions))
    req["gradient_checkpointing"] = _checkpointing(raw, fw, profile, assumptions)
    if req["gradient_checkpointing"] is None:
        del req["gradient_checkpointing"]
    req["attention"] = _attention_of(raw)
    req.update(_sharding_fields(raw, assumptions))
    for facts, why in _source_readings(raw):
        for key, value in facts.items():
            if key != "statistic":
                req[key] = value
                assumptions.append(f"{key}: {value!r} ({why})")
    if req.get("optimizer_in_backward") and req.get("grad_accum_steps", 1) > 1:
        req["grad_accum_steps"] = 1
    return req


def _model_of(raw: dict[str, str], assumptions: list[str]) -> str | dict[str, Any]:
    model = CALIBRATION_ALIASES.get(raw["model"].strip())
    if model is not None:
        return model
    assumptions.append("model: built from the arch_* columns (not in the catalogue)")
    return {
        "hidden_size": int(raw["arch_hidden"]), "num_hidden_layers": int(raw["arch_layers"]),
        "num_attention_heads": int(raw["arch_heads"]), "num_key_value_heads": int(raw["arch_kv_heads"]),
        "intermediate_size": int(raw["arch_intermediate"]), "vocab_size": int(raw["arch_vocab"]),
        "tie_word_embeddings": "tied embeddings" in raw.get("notes", ""),
    }


def _precision_of(raw: dict[str, str]) -> str:
    """fp32 weights with fp32 (or unstated) compute are fp32; fp32 weights under any 16-bit compute are mixed
    precision (an fp32-loaded model under autocast: ``_base_fp32_of``); 16-bit weights under AMP are mixed too."""
    wp = raw.get("weight_precision", "").lower()
    cp = raw.get("compute_precision", "").lower()
    if wp.startswith("fp32"):
        return "fp32" if (cp.startswith("fp32") or not cp) else "mixed"
    if "mixed" in cp or "amp" in cp:
        return "mixed"
    return "bf16"


def _base_fp32_of(raw: dict[str, str], method: str, precision: str) -> bool:
    """The row's own columns say the base was loaded in fp32: its weight precision is fp32 whatever its compute
    precision says (``from_pretrained`` without a dtype, then 16-bit autocast): for LoRA/QLoRA the frozen base stays
    fp32 (``base_fp32``); full fine-tuning under ``mixed`` holds fp32 weights already."""
    return method in ("lora", "qlora") and precision == "mixed" and \
        raw.get("weight_precision", "").lower().startswith("fp32")


def _lora_fields(raw: dict[str, str], fw: str, profile: dict[str, Any], method: str,
                 assumptions: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    notes = raw.get("notes", "")
    rank = _cell(raw, "lora_rank", assumptions)
    if rank is not None and re.match(r"\d+", rank):
        out["lora_rank"] = int(re.match(r"\d+", rank).group(0))
    else:
        assumptions.append("lora_rank: unknown, API default")
    tg = _cell(raw, "lora_targets", assumptions)
    parsed = _targets(tg) if tg else None
    if parsed:
        out["lora_targets"] = parsed
    else:
        assumptions.append("lora_targets: unknown, API default")
    if "lora_dtype" in profile:
        out["lora_dtype"] = profile["lora_dtype"]
    opt = raw.get("optimizer", "").lower()
    if "fp32 adapters" in opt or "adapters autocast to fp32" in opt or opt.startswith("adamw_fp32"):
        out["lora_dtype"] = "fp32"
    dropout = stated_lora_dropout(notes)
    if dropout is not None:
        out["lora_dropout"] = dropout
    elif "lora_dropout" in profile:
        out["lora_dropout"] = profile["lora_dropout"]
        assumptions.append(f"lora_dropout: {fw} default {profile['lora_dropout']}")
    if method == "qlora":
        fields = framework_fields(fw, method)
        out["qlora_backend"] = fields["qlora_backend"]
        text = raw.get("source_quote", "") + " " + notes + " " + raw.get("weight_precision", "")
        out["double_quant"] = True if stated_double_quant(text) else fields["double_quant"]
    if "mixing frozen and lora params" in notes.lower():
        out["frozen_param_grads"] = True
    return out


def _framework_fields(raw: dict[str, str], fw: str, profile: dict[str, Any], method: str, req: dict[str, Any],
                      assumptions: list[str]) -> dict[str, Any]:
    """The loss, the loop and the quantisation details the framework's profile and the row's notes state."""
    out: dict[str, Any] = {}
    notes = raw.get("notes", "")
    quote = raw.get("source_quote", "")
    url = raw.get("source_url", "")
    out.update({k: v for k, v in framework_fields(fw, method).items()
                if k in ("untie_embeddings", "quantize_lm_head", "dequant_cast")})
    if profile.get("fused_linear_cross_entropy") and "unsloth" in (raw.get("flash_attention") or "").lower():
        # only the rows that ran Unsloth's own stack (its kernels), not its Hugging Face + FA2 baseline rows
        out["fused_linear_cross_entropy"] = True
    if profile.get("chunked_cross_entropy") or ("chunked" in notes.lower() and "ce" in notes.lower()):
        out["chunked_cross_entropy"] = True
    if any(c in url for c in profile.get("chunked_ce_source_commits", ())) and not out.get("chunked_cross_entropy"):
        out["chunked_cross_entropy"] = True
        assumptions.append(f"chunked_cross_entropy: {fw} configs at the source's commit use chunked cross-entropy")
    if _compiled(quote + " " + notes):
        out["torch_compile"] = True
    if any(c in url for c in profile.get("early_2024_sources", ())):
        out["keeps_logits"] = True
        assumptions.append(f"keeps_logits: {fw} recipes at the source's commit keep the fp32 logits through backward")
        if req.get("optimizer") == "adamw_torch_fused":
            out["optimizer"] = "adamw_torch"
            assumptions[:] = [a for a in assumptions if "fused AdamW" not in a]
            assumptions.append(f"optimizer: {fw} configs at the source's commit build AdamW without fused (foreach)")
    return out


def _batch_fields(raw: dict[str, str], profile: dict[str, Any], method: str,
                  assumptions: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    mb = _cell(raw, "micro_batch", assumptions)
    out["micro_batch_size"] = int(mb) if mb else 1
    if profile.get("no_sync_accumulation"):
        out["no_sync_accumulation"] = True
    if profile.get("lit_gpt_2023_batch_size") and method in ("lora", "qlora") \
            and re.search(r"lit-gpt commit", raw.get("notes", "")):
        ga = profile["lit_gpt_2023_batch_size"] // out["micro_batch_size"]
        if ga > 1:
            out["grad_accum_steps"] = ga
            assumptions.append(f"grad_accum_steps: lit-gpt 2023 finetune/lora.py batch_size 128 // micro-batch = {ga}")
    seq = _cell(raw, "seq_len", assumptions)
    if seq:
        out["seq_len"] = int(re.match(r"\d+", seq).group(0))
    if "packed" in (raw.get("source_quote", "") + raw.get("notes", "")).lower():
        out["packing"] = True
    return out


def _checkpointing(raw: dict[str, str], fw: str, profile: dict[str, Any], assumptions: list[str]) -> bool | None:
    gc = _cell(raw, "grad_checkpointing", assumptions)
    said_ac = re.search(r"\b(probably |likely )?AC (off|on)\b", _run_notes(raw))
    if gc is None and said_ac:
        # the cell is unknown but the row's own notes say what activation checkpointing was (e.g. a table whose two
        # GPUs ran the same method at different memory: "differs from 4090 row => ... probably AC off")
        assumptions.append(f"gradient_checkpointing: the cell is unknown, the notes say '{said_ac.group(0)}'")
        return said_ac.group(2) == "on"
    if gc is None and "gradient_checkpointing" in profile:
        assumptions.append(f"gradient_checkpointing: unknown, {fw} config default {profile['gradient_checkpointing']}")
        return bool(profile["gradient_checkpointing"])
    if gc is None:
        assumptions.append("gradient_checkpointing: unknown, API default (off)")
        return None
    return _yes(gc)


def _attention_of(raw: dict[str, str]) -> str:
    fa = (raw.get("flash_attention") or "").strip().lower()
    if fa.startswith("no") or "eager" in fa:
        return "eager"
    if fa.startswith(("fa2", "yes", "flash")):
        return "flash"
    return "sdpa"


def _sharding_fields(raw: dict[str, str], assumptions: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    n = _cell(raw, "num_gpus", assumptions)
    out["num_gpus"] = int(n) if n else 1
    sh = (raw.get("sharding") or "none").lower()
    if "zero3" in sh or "fsdp" in sh or "full_shard" in sh:
        out["sharding"] = "zero3"
    elif "zero2" in sh:
        out["sharding"] = "zero2"
    elif "zero1" in sh:
        out["sharding"] = "zero1"
    else:
        out["sharding"] = "none"
    text = raw.get("source_url", "") + " " + raw.get("source_quote", "") + " " + raw.get("notes", "")
    if out["sharding"] != "none" and "deepspeed" in text.lower():
        # ZeRO through DeepSpeed; these sources launch it from an accelerate config without a DeepSpeed JSON, so
        # DeepSpeed's own defaults apply (reduce_bucket_size 5e8 elements: the API default)
        out["deepspeed"] = True
    off = (raw.get("cpu_offload") or "none").lower()
    if off.startswith("activations"):
        out["activation_offloading"] = True
    if "params" in off and out["sharding"] == "zero3":
        out["offload_params"] = True
        out["cpu_offload"] = True
    elif "optimizer" in off and out["sharding"] != "none":
        out["cpu_offload"] = True
    return out


def _row(raw: dict[str, str]) -> Row:
    assumptions: list[str] = []
    rid = raw["id"].strip()
    method = raw["method"].strip().lower()
    fw = framework_of(raw)
    excluded = _excluded(raw)
    kind, compare = _compare(raw.get("measure_kind", ""), assumptions)
    if raw.get("measure_kind", "").strip().lower().startswith("unknown") and "nvidia-smi" in raw.get("notes", "").lower():
        # the statistic column is unknown but the row's notes say where the figure was read (e.g. the PEFT
        # accelerate docs, whose per-GPU figures come with the CPU RAM usage: a system monitor, not torch)
        compare = "peak_bytes_per_gpu"
        assumptions[:] = [a for a in assumptions if not a.startswith("measure_kind unknown")]
        assumptions.append("statistic: the measure_kind cell is unknown, the notes say nvidia-smi: compared "
                           "with peak_bytes_per_gpu")
    for facts, why in _source_readings(raw):
        if "statistic" in facts and raw.get("measure_kind", "").strip().lower().startswith("unknown"):
            compare = facts["statistic"]
            assumptions[:] = [a for a in assumptions if not a.startswith(("measure_kind unknown", "statistic:"))]
            assumptions.append(f"statistic: the measure_kind cell is unknown; {why}: compared with {compare}")
    unit = _units(raw.get("units", ""), assumptions)
    measured = int(round(float(raw["measured_peak_gb"]) * unit))
    if excluded:
        return Row(rid, raw, method, fw, kind, compare, measured, None, excluded, assumptions)
    req = row_to_request(raw, assumptions)
    if kind == "capacity" and "gradient_checkpointing" not in req:
        # the claim is that the run fit at this context; no standard stack fits it without checkpointing
        req["gradient_checkpointing"] = True
        assumptions.append("gradient_checkpointing: unknown on a capacity row; the claim that it fit implies it")
    low = None
    if "seq_len" not in req:
        cap = _seq_cap(raw)
        if cap is None:
            return Row(rid, raw, method, fw, kind, compare, measured, None,
                       "no seq_len and no stated cap: cannot be estimated", assumptions)
        kind = "bracket"
        assumptions.append(f"seq_len not stated (padded to the longest sample): bracket [1 token, cap {cap}]")
        low = dict(req, seq_len=1)
        req["seq_len"] = cap
    return Row(rid, raw, method, fw, kind, compare, measured, req, None, assumptions, low)


def _fill_from_siblings(raws: list[dict[str, str]]) -> list[dict[str, str]]:
    """Two generic rules that read the CSV's own statements across rows (no row id is named):

    * an ``unknown`` cell with no stated default takes the stated config default of another row from the same
      source document, model and method (e.g. two rows of one README table run the same default config);
    * in a table whose notes say techniques were "added cumulatively", a technique a row's notes name (chunked
      cross-entropy) carries to the rows after it in the same source document.
    """
    stated: dict[tuple[str, str, str, str], str] = {}
    for r in raws:
        for col in ("lora_rank", "lora_targets", "optimizer", "grad_checkpointing"):
            v = (r.get(col) or "").strip()
            if v.lower().startswith("unknown") and _stated_default(v) is not None:
                stated.setdefault((r.get("source_url", ""), r["model"], r["method"], col), v)
    out = []
    carried: dict[str, str] = {}
    for r in raws:
        r = dict(r)
        for col in ("lora_rank", "lora_targets", "grad_checkpointing"):
            v = (r.get(col) or "").strip()
            if v.lower() == "unknown":
                sib = stated.get((r.get("source_url", ""), r["model"], r["method"], col))
                if sib is not None:
                    r[col] = sib + " [from a sibling row of the same table]"
        src = r.get("source_url", "")
        notes = r.get("notes", "")
        if "added cumulatively" in notes:
            if src in carried and "chunked" not in notes.lower() and not _compiled(notes):
                r["notes"] = notes + "; " + carried[src] + " [carried: techniques added cumulatively]"
            named = [t for t, hit in (("chunked CE", "chunked ce" in notes.lower() or "chunked cross" in notes.lower()),
                                       ("torch.compile on", _compiled(notes))) if hit]
            if named:
                carried[src] = "; ".join(named)
        out.append(r)
    return out


def load_rows(path: str | Path = DEFAULT_DATA) -> list[Row]:
    """Every row of a measurements CSV, in file order."""
    with open(require_data(path), newline="", encoding="utf-8") as f:
        return [_row(r) for r in _fill_from_siblings(list(csv.DictReader(f)))]
