"""FitCheck (PyPI ``fitcheck-llm``) on the normalised configurations: JSON list on stdin, JSON on stdout.

Called as its README and CLI do (``fitcheck MODEL --lora-r 8 --lora-targets q,v --batch-size 2 --seq-len 512
--optimizer adamw --flash-attn --gpu a100-80 --json``), through the same Python functions the CLI uses::

    model = fitcheck.config_parser.fetch_model_config(model_id)
    report = fitcheck.estimator.estimate(model, TrainingConfig(...), fitcheck.gpu_db.get_gpu(...))
    report.total_mib

``fetch_model_config`` downloads ``config.json`` from the Hub and reads the Hub's parameter count (safetensors
metadata), refusing models whose config-derived count is more than 2 % off it. Both Hub calls are answered locally:
the row's ``config.json`` and the published parameter count from our catalogue (the figure the Hub shows), so
FitCheck accepts and refuses the same models it would online.

The GPU only picks FitCheck's overhead profile (fitted profiles exist for the Tesla T4 only; every other card gets
its default) and the fit verdict: the row's GPU is used when FitCheck knows it, else the A100 80GB.
Refused by FitCheck itself (reported "unsupported"): multi-GPU runs, MoE, non-LLaMA-shaped models, LoRA on modules
other than q,k,v,o,gate,up,down, FP4, optimizers other than AdamW/8-bit Adam/SGD.
"""
from __future__ import annotations

import re
import sys
from dataclasses import replace
from pathlib import Path

import fitcheck.config_parser as fc_parser
from _common import Config, Unsupported, check_no_offload, config_dir, run
from fitcheck.estimator import TrainingConfig
from fitcheck.estimator import estimate as fitcheck_estimate
from fitcheck.gpu_db import GPU_DB, get_gpu

_LOCAL: dict[str, tuple[Path, int | None]] = {}


def _offline_download(repo_id: str, filename: str, token=None, **_kw) -> str:  # noqa: ANN001
    """Stands in for huggingface_hub.hf_hub_download(repo_id, "config.json")."""
    return str(_LOCAL[repo_id][0] / filename)


def _offline_param_count(model_id: str, token) -> int | None:  # noqa: ANN001
    """Stands in for the Hub's safetensors parameter total."""
    return _LOCAL[model_id][1]


fc_parser.hf_hub_download = _offline_download
fc_parser._reported_param_count = _offline_param_count

_GPUS = {  # our catalogue id -> FitCheck GPU key
    "rtx-3090": "3090", "rtx-4090": "4090", "rtx-5090": "5090", "rtx-a6000": "a6000",
    "rtx-6000-ada": "rtx6000-ada", "v100-16gb": "v100-16", "a10": "a10", "a10g": "a10", "l4": "l4",
    "l40s": "l40s", "a100-40gb": "a100-40", "a100-80gb": "a100-80", "h100-80gb": "h100-80", "h200": "h200",
    "b200": "b200",
}
_OPTIMIZERS = {"adamw": "adamw", "adamw_8bit": "adam8bit", "sgd": "sgd", "sgd_momentum": "sgd-momentum"}
_TARGETS = {"q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"}


def estimate(cfg: Config) -> dict:
    if cfg["num_gpus"] != 1:
        raise Unsupported(f"{cfg['num_gpus']} GPUs: FitCheck models single-GPU training only")
    check_no_offload(cfg)
    method, weights = cfg["method"], cfg["weights"]
    lora: dict = {}
    if method == "full":
        if weights not in ("bf16", "fp16", "fp32"):
            raise Unsupported(f"full fine-tuning of {weights} weights")
        lora = {"lora_rank": None}
        quant = "none"
    else:
        extra = set(cfg["lora_targets"]) - _TARGETS
        if extra:
            raise Unsupported(f"LoRA on {sorted(extra)}: FitCheck targets q,k,v,o,gate,up,down only")
        lora = {"lora_rank": cfg["lora_rank"], "lora_targets": list(cfg["lora_targets"])}
        quant = {"bf16": "none", "fp16": "none", "fp32": "none", "nf4": "nf4", "int8": "int8"}.get(weights)
        if quant is None:
            raise Unsupported(f"{weights} base weights (FitCheck: none, nf4, int8)")
    optimizer = _OPTIMIZERS.get(cfg["optimizer"])
    if optimizer is None:
        raise Unsupported(f"optimizer {cfg['optimizer']} (FitCheck: adamw, adam8bit, sgd, sgd-momentum)")
    states = cfg.get("optimizer_states") or "fp32"
    opt_dtype = "bf16" if (optimizer == "adamw" and states == "bf16") else "fp32"

    model_id = f"offline/{cfg['id']}"
    with config_dir(cfg) as folder:
        _LOCAL[model_id] = (folder, cfg.get("published_params"))
        try:
            model = fc_parser.fetch_model_config(model_id)
        except fc_parser.UnsupportedModelError as exc:
            gap = re.search(r"disagreement of ([+-][\d.]+%)", str(exc))
            why = (f"its config.json parameter formula is {gap.group(1)} off the published count (tolerance 2 %)"
                   if gap else str(exc).split(". ")[0])
            raise Unsupported(f"FitCheck refuses {cfg.get('model', 'the model')}: {why}") from exc
        except ValueError as exc:   # e.g. BLOOM's config.json names its fields n_layer / n_head
            raise Unsupported(f"FitCheck cannot read this config.json: {exc}") from exc
    training = replace(
        TrainingConfig(),
        precision=cfg["compute"], quantization=quant, double_quant=bool(cfg.get("double_quant")) and quant == "nf4",
        optimizer=optimizer, optimizer_dtype=opt_dtype, batch_size=cfg["micro_batch"], seq_len=cfg["seq_len"],
        grad_checkpoint=bool(cfg["grad_checkpointing"]), flash_attn=cfg["attention"] in ("sdpa", "flash"), **lora,
    )
    gpu_key = _GPUS.get(cfg.get("gpu") or "", "a100-80")
    report = fitcheck_estimate(model, training, get_gpu(gpu_key))
    return {
        "bytes": report.total_mib * 2**20,
        "detail": {"unit": "MiB", "gpu": GPU_DB[gpu_key].name, "parameters": model.num_params,
                   "weights_mib": report.weight_mib, "lora_mib": report.lora_mib,
                   "optimizer_mib": report.optimizer_mib, "gradients_mib": report.gradient_mib,
                   "activations_mib": report.activation_mib, "overhead_mib": report.overhead_mib},
    }


if __name__ == "__main__":
    del sys.argv[1:]
    run("fitcheck-llm", "fitcheck-llm", estimate)
