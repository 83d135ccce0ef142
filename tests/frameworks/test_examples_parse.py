"""The whole examples folders (tests/data/framework_examples/corpus/, SOURCES.md) held to each framework's own parse:
every example the importer reads (with or without a note) is parsed in the framework's pinned venv, one checker
process per framework (frameworks/<target>/check.py), and the values the framework runs are the values read:

* Axolotl 0.21: ``validate_config`` (``parse`` mode: the schema's types, defaults, aliases and validators, on a bf16
  card); its fused LoRA kernels, which it turns on when a file sets none, are each noted;
* LLaMA-Factory 0.9.5: ``llamafactory-cli train``'s path to ``get_train_args`` (``check`` mode);
* TRL 1.16: ``TrlParser`` with ``SFTConfig``/``ModelConfig`` and accelerate's launch of each accelerate config;
* Unsloth: ``unsloth_cli.config.load_config`` for the Studio YAMLs. Its notebook scripts have no parser short of
  running them (a GPU): their values are the unit tier's (test_examples_corpus.py).

An example the framework itself refuses at its pinned version is listed in ``FRAMEWORK_REFUSES`` with the words of
its refusal; the importer reads it with a ``deprecated`` note, or its values where the refusal is not about memory.
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any

import pytest

from calculator.export import answer_read
from frameworks import venv
from frameworks.examples import CORPUS, corpus_cases, corpus_files_of

pytestmark = pytest.mark.frameworks

CASES = corpus_cases()

#: Examples the pinned framework refuses, and a phrase of its refusal.
FRAMEWORK_REFUSES = {
    # Axolotl 0.21 has no FSDP1: the importer reads the FSDP2 run they ask for, with a ``deprecated`` note
    **{f"axolotl/examples/{p}": "top-level `fsdp` list is no longer supported" for p in (
        "deepseek-v2/fft-fsdp-16b.yaml", "deepseek-v2/qlora-fsdp-2_5.yaml", "llama-2/qlora-fsdp.yml",
        "llama-3/3b-qat-fsdp2.yaml", "llama-3/fft-8b-liger-fsdp.yaml", "llama-3/qlora-fsdp-405b.yaml",
        "llama-3/qlora-fsdp-70b.yaml", "magistral/magistral-small-fsdp-qlora.yaml",
        "mistral/mixtral/mixtral-8x22b-qlora-fsdp.yml", "mistral/mixtral/mixtral-qlora-fsdp.yml",
        "phi/phi3-ft-fsdp.yml", "qwen2/qlora-fsdp.yaml", "qwen3/qlora-fsdp.yaml")},
    **{f"axolotl/examples/{p}": "sharding_strategy is an FSDP1-only option" for p in (
        "qat_nvfp4/Gemma3-12B_baseline.yml", "qat_nvfp4/Gemma3-12B_qat.yml",
        "qat_nvfp4/Math-Gemma3-12B_baseline.yml", "qat_nvfp4/Math-Gemma3-12B_qat.yml",
        "qat_nvfp4/Math-Gemma3-27B_baseline.yml", "qat_nvfp4/Math-Gemma3-27B_qat.yml",
        "qat_nvfp4/Math-Qwen2.5-72B_baseline.yml", "qat_nvfp4/Math-Qwen2.5-72B_qat.yml",
        "qat_nvfp4/Qwen2.5-72B_baseline.yml", "qat_nvfp4/Qwen2.5-72B_qat.yml", "qwen3.5/27b-fft.yaml")},
    "axolotl/examples/archived/pythia-12b/config.yml": "`max_packed_sequence_len` is no longer supported",
    "axolotl/examples/archived/stablelm-2/1.6b/fft.yml": "`flash_attn_rms_norm` is no longer supported",
    # not about memory: the importer reads their values
    "axolotl/examples/archived/mpt-7b/config.yml": "tokens\n  Input should be a valid list",
    "axolotl/examples/archived/redpajama/config-3b.yml": "tokens\n  Input should be a valid list",
    "axolotl/examples/falcon-e/falcon-e-3b-dpo.yaml": "FSDP is not supported for falcon models",
    "axolotl/examples/falcon-e/falcon-e-3b-ft.yaml": "FSDP is not supported for falcon models",
    "axolotl/examples/llama-3/diffusion/sft-1b.yaml": "save_strategy: 'best' requires metric_for_best_model",
    # the pinned venv leaves out mistral-common (tokenizer_use_mistral_common: true), not the file's fault
    **{f"axolotl/examples/{p}": "mistral-common is required" for p in (
        "devstral/devstral-small-qlora.yml", "magistral/magistral-small-qlora.yaml",
        "magistral/think/magistral-small-think-qlora.yaml", "ministral/ministral-small-qlora.yaml",
        "ministral3/ministral3-3b-qlora.yaml", "ministral3/think/ministral3-3b-think-qlora.yaml")},
    # LLaMA-Factory: KTransformers and Megatron (USE_MCA) need packages the pinned venv leaves out (kt-kernel,
    # mcore_adapter); the importer notes use_kt and the Megatron parallel sizes
    **{f"llamafactory/examples/ktransformers/train_lora/{p}": "kt-kernel" for p in (
        "deepseek_v2_lora_sft_kt.yaml", "deepseek_v3_lora_sft_kt.yaml", "qwen3_5moe_lora_sft_kt.yaml",
        "qwen3moe_lora_sft_kt.yaml")},
    **{f"llamafactory/examples/ktransformers/train_lora/qwen3moe_lora_sft_kt.yaml + {p}": "unknown keys (['kt_config'])"
       for p in ("fsdp2_kt_bf16.yaml", "fsdp2_kt_int4.yaml", "fsdp2_kt_int8.yaml", "fsdp2_kt_int8_8gpu.yaml")},
    **{f"llamafactory/examples/megatron/{p}": "Some keys are not used by the HfArgumentParser" for p in (
        "qwen2_vl_full.yaml", "qwen3_moe_full.yaml")},
    "llamafactory/examples/extras/mod/llama3_full_sft.yaml": "mixture-of-depth",    # a package the venv leaves out
    # LLaMA-Factory 0.9.5 refuses its own example (the importer notes its fp8)
    "llamafactory/examples/extras/fp8/llama3_fp8_fsdp_sft.yaml": "not used by the HfArgumentParser: "
                                                                 "['fsdp_transformer_layer_cls_to_wrap']",
}


def _read(cid: str) -> dict[str, Any]:
    answer = answer_read({"target": "auto", "files": corpus_files_of(CASES[cid])})
    assert answer["ok"], (cid, answer["errors"])
    return answer["read"]


def _read_cases(*folders: str) -> list[str]:
    return sorted(cid for cid, c in CASES.items() if cid.split("/", 1)[0] in folders and c["outcome"] != "refused")


def _diff(cid: str, want: dict[str, Any], got: dict[str, Any]) -> list[str]:
    return [f"{cid}: {k} read {got.get(k)!r}, the framework runs {v!r}" for k, v in want.items() if got.get(k) != v]


# --- Axolotl ---------------------------------------------------------------------------------------------------------

@lru_cache(maxsize=1)
def _axolotl() -> dict[str, dict]:
    configs = []
    for cid in _read_cases("axolotl"):
        files = {f.split("/", 1)[1]: (CORPUS / f).read_text(encoding="utf-8") for f in CASES[cid]["files"]}
        configs.append({"id": cid, "main": CASES[cid]["files"][0].split("/", 1)[1], "files": files})
    return json.loads(venv.run("axolotl", json.dumps({"mode": "parse", "configs": configs}), timeout=1800))["results"]


def _axolotl_runs(v: dict[str, Any]) -> dict[str, Any]:
    dpo = v["rl"] == "dpo"
    method = "full" if not v["adapter"] else "qlora" if v["adapter"] == "qlora" or v["load_in_4bit"] else "lora"
    want = {"dpo": dpo, "method": method, "micro_batch_size": v["micro_batch_size"],
            "grad_accum_steps": v["gradient_accumulation_steps"] or 1, "seq_len": v["sequence_len"],
            "epochs": float(v["num_epochs"]), "packing": bool(v["sample_packing"]) and not dpo,
            "gradient_checkpointing": v["gradient_checkpointing"] in (True, "offload", "offload_disk")}
    if method != "full":
        want["lora_rank"] = v["lora_r"]
    return want


def test_axolotl_runs_the_values_read() -> None:
    results, bad = _axolotl(), []
    for cid, r in results.items():
        if not r["ok"]:
            continue
        read = _read(cid)
        request = dict(read["request"])
        request["precision_16bit"] = request["precision"] != "fp32"
        want = {**_axolotl_runs(r["view"]),
                # 16-bit training: mixed precision (bf16/fp16), or the model loaded in a half type (float16/bfloat16)
                "precision_16bit": r["view"]["bf16"] not in (None, False) or any(
                    bool(r["view"].get(k)) for k in ("fp16", "float16", "bfloat16"))}
        bad += _diff(cid, want, request)
        noted = {u["key"] for u in read["unread"] if u["code"] == "not_modelled"}
        bad += [f"{cid}: Axolotl turns {k} on, no note" for k in ("lora_mlp_kernel", "lora_qkv_kernel", "lora_o_kernel")
                if r["view"].get(k) is True and request["method"] != "full" and k not in noted]
    assert not bad, "\n".join(bad)


def test_axolotl_refuses_only_the_listed_examples_each_with_a_note_where_it_moves_memory() -> None:
    results = _axolotl()
    refused = {cid: " ".join(r["errors"]) for cid, r in results.items() if not r["ok"]}
    listed = {cid for cid in FRAMEWORK_REFUSES if cid.startswith("axolotl/")}
    assert set(refused) == listed, (sorted(set(refused) - listed), sorted(listed - set(refused)))
    for cid, words in refused.items():
        assert FRAMEWORK_REFUSES[cid] in words, (cid, words)
    for cid in listed:
        if "no longer supported" in FRAMEWORK_REFUSES[cid] or "FSDP1-only" in FRAMEWORK_REFUSES[cid]:
            assert any(u["code"] == "deprecated" for u in _read(cid)["unread"]), cid


# --- LLaMA-Factory ---------------------------------------------------------------------------------------------------

#: Keys switched off for LLaMA-Factory's parse, each because the pinned venv leaves out what it needs and none moves
#: memory: ``plot_loss`` (matplotlib, to draw the loss curve after training).
LF_OFF = {"plot_loss": "false"}


@lru_cache(maxsize=1)
def _llamafactory() -> dict[str, dict]:
    # every DeepSpeed JSON of the folder where the YAMLs name it (examples/deepspeed/...), the YAML as the checker
    # takes it, and an accelerate config (the case's companion) as accelerate.yaml
    shared = {f.split("/", 1)[1]: (CORPUS / f).read_text(encoding="utf-8")
              for f in {f for c in CASES.values() for f in c["files"]} if f.startswith("llamafactory/examples/deepspeed/")}
    configs = []
    for cid in _read_cases("llamafactory"):
        text = (CORPUS / CASES[cid]["files"][0]).read_text(encoding="utf-8")
        for key, value in LF_OFF.items():
            text = re.sub(rf"^{key}:.*$", f"{key}: {value}", text, flags=re.M)
        files = dict(shared, **{"llamafactory.yaml": text})
        for f in CASES[cid]["files"][1:]:
            if f.endswith(".yaml"):
                files["accelerate.yaml"] = (CORPUS / f).read_text(encoding="utf-8")
        configs.append({"id": cid, "files": files})
    return json.loads(venv.run("llamafactory", json.dumps({"mode": "check", "configs": configs}),
                               timeout=1800))["results"]


def test_llamafactory_runs_the_values_read() -> None:
    results, bad = _llamafactory(), []
    for cid, r in results.items():
        v = r["view"].get("llamafactory")
        if v is None:
            if cid not in FRAMEWORK_REFUSES or FRAMEWORK_REFUSES[cid] not in " ".join(r["errors"]):
                bad.append(f"{cid}: LLaMA-Factory refuses it: {r['errors']}")
            continue
        if cid in FRAMEWORK_REFUSES:
            bad.append(f"{cid}: listed as refused, LLaMA-Factory reads it")
        request = dict(_read(cid)["request"])
        dpo = v["stage"] == "dpo"
        method = "full" if v["finetuning_type"] == "full" else "qlora" if v["quantization_bit"] == 4 else "lora"
        want = {"dpo": dpo, "method": method, "micro_batch_size": v["per_device_train_batch_size"],
                "grad_accum_steps": v["gradient_accumulation_steps"], "seq_len": v["cutoff_len"],
                "packing": bool(v["packing"]) and not dpo,
                "gradient_checkpointing": not v["disable_gradient_checkpointing"]}
        if method != "full":
            want["lora_rank"] = v["lora_rank"]
        request["precision_16bit"] = request["precision"] != "fp32"
        want["precision_16bit"] = bool(v["bf16"] or v["fp16"] or v["pure_bf16"]) or (
            method != "full" and v["compute_dtype"] != "torch.float32")
        bad += _diff(cid, want, request)
    assert not bad, "\n".join(bad)


# --- TRL ---------------------------------------------------------------------------------------------------------------

@lru_cache(maxsize=1)
def _trl() -> dict[str, dict]:
    configs = []
    for cid in _read_cases("trl", "trl-1.16.0"):
        files = {"sft.yaml": (CORPUS / CASES[cid]["files"][0]).read_text(encoding="utf-8")}
        for f in CASES[cid]["files"][1:]:
            files["accelerate.yaml"] = (CORPUS / f).read_text(encoding="utf-8")
        configs.append({"id": cid, "files": files})
    return json.loads(venv.run("trl", json.dumps({"mode": "check", "configs": configs}), timeout=1800))["results"]


def test_trl_runs_the_values_read() -> None:
    results, bad = _trl(), []
    for cid, r in results.items():
        t = r["view"].get("trainer")
        if t is None:
            bad.append(f"{cid}: TRL or accelerate refuses it: {r['errors']}")
            continue
        request = _read(cid)["request"]
        want = {"micro_batch_size": t["per_device_train_batch_size"], "grad_accum_steps": t["gradient_accumulation_steps"],
                "seq_len": t["max_length"], "packing": bool(t["packing"]), "epochs": float(t["num_train_epochs"]),
                "gradient_checkpointing": bool(t["gradient_checkpointing"]),
                "method": "full" if not t["use_peft"] else "lora"}
        a = r["view"].get("accelerate")
        if a is not None:
            want["num_gpus"] = a["num_processes"]
        bad += _diff(cid, want, request)
    assert not bad, "\n".join(bad)


# --- Unsloth Studio ---------------------------------------------------------------------------------------------------

def test_unsloth_studio_runs_the_values_read_and_refuses_what_is_refused() -> None:
    """Every Studio YAML through ``unsloth train``'s ``load_config``: the ones read run the values read; the ones
    refused (Studio's per-model defaults: ``lora.target_modules`` a YAML list, where the CLI takes a comma-separated
    string) are refused by the CLI too, over the key the refusal names."""
    ids = sorted(cid for cid in CASES if cid.startswith("unsloth/"))
    configs = [{"id": cid, "files": {"unsloth.yaml": (CORPUS / CASES[cid]["files"][0]).read_text(encoding="utf-8")}}
               for cid in ids]
    results = json.loads(venv.run("unsloth", json.dumps({"mode": "check", "configs": configs})))["results"]
    bad = []
    for cid, r in results.items():
        c = r["view"].get("cli")
        if CASES[cid]["outcome"] == "refused":
            words = " ".join(r["errors"])
            if c is not None or not all(f"{n}:" in words for n in CASES[cid]["names"]):
                bad.append(f"{cid}: refused for {CASES[cid]['names']}, unsloth train: {r['errors'] or 'reads it'}")
            continue
        if c is None:
            bad.append(f"{cid}: Unsloth refuses it: {r['errors']}")
            continue
        tr, lora = c["training"], c["lora"]
        full = tr["training_type"].lower() == "full"
        want = {"micro_batch_size": tr["batch_size"], "grad_accum_steps": tr["gradient_accumulation_steps"],
                "seq_len": tr["max_seq_length"], "epochs": float(tr["num_epochs"]), "packing": bool(tr["packing"]),
                "method": "full" if full else "qlora" if tr["load_in_4bit"] else "lora"}
        if not full:
            want["lora_rank"] = lora["lora_r"]
        bad += _diff(cid, want, _read(cid)["request"])
    assert len(ids) > 2 and not bad, "\n".join(bad)
