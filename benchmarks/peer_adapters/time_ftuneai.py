"""ftune's training-time estimate (PyPI ``ftuneai``) on the time configurations: JSON list on stdin, JSON on stdout.

Called as its README shows::

    est = Estimator(model=..., method="qlora", quantization="4bit", lora_rank=16, batch_size=4, ...)
    t = est.estimate_time(gpu="A100-80GB", dataset_size=..., epochs=1, num_gpus=..., avg_seq_length=...)
    t.total_tokens / (t.total_hours * 3600)       # tokens per second, all GPUs

ftune's model: 6·P FLOPs per token (x 0.75 for LoRA/QLoRA) over bf16 peak x a fixed MFU (0.35, QLoRA 0.30) x a
multi-GPU scaling factor per sharding strategy. The answer is tokens per second per GPU; ``total_hours`` is rounded
to 0.01 h, so the data set is made large enough (1e10 tokens) for the rounding not to matter. The model reaches ftune
as its local config.json (the Hub download answered offline, as in run_ftuneai.py); cards outside ftune's GPU table
are "unsupported".
"""
from __future__ import annotations

import sys


from _common import Config, Unsupported, peer_sharding, run
from ftuneai import Estimator
from run_ftuneai import _CONFIGS, _OPTIMIZERS, _PRESETS, _SHARDING, targets

#: our GPU id -> ftune's GPU table (ftuneai/data/gpus.yaml)
GPUS = {"h200": "H200-141GB", "h100-80gb": "H100-80GB", "a100-80gb": "A100-80GB", "a100-40gb": "A100-40GB",
        "l4": "L4-24GB", "rtx-4090": "RTX-4090-24GB", "rtx-3090": "RTX-3090-24GB", "v100-16gb": "V100-16GB",
        "v100-32gb": "V100-32GB", "a10g": "A10G-24GB"}
TOKENS = 10**10


def estimate(cfg: Config) -> dict:
    gpu = GPUS.get(cfg.get("gpu") or "")
    if gpu is None:
        raise Unsupported(f"GPU {cfg.get('gpu')}: not in ftune's GPU table")
    method = cfg["method"]
    kwargs: dict = {}
    if method in ("lora", "qlora"):
        preset = _PRESETS.get(targets(cfg))
        if preset is None:
            raise Unsupported(f"LoRA targets {sorted(targets(cfg))}: ftune offers three presets only")
        kwargs.update(lora_rank=cfg["lora_rank"], lora_target=preset)
    if method == "qlora":
        kwargs["quantization"] = "4bit"
    optimizer = _OPTIMIZERS.get(cfg["optimizer"])
    if optimizer is None:
        raise Unsupported(f"optimizer {cfg['optimizer']}")
    sharding = peer_sharding(cfg, _SHARDING)
    name = f"offline/{cfg['id']}"
    _CONFIGS[name] = cfg["hf_config"]
    est = Estimator(model=name, method=method, batch_size=cfg["micro_batch"], seq_length=cfg["seq_len"],
                    gradient_checkpointing=cfg["grad_checkpointing"], optimizer=optimizer,
                    flash_attention=cfg["attention"] in ("sdpa", "flash"), sharding=sharding,
                    num_gpus=cfg["num_gpus"], **kwargs)
    t = est.estimate_time(gpu=gpu, dataset_size=TOKENS // cfg["seq_len"], epochs=1, num_gpus=cfg["num_gpus"],
                          avg_seq_length=cfg["seq_len"], gradient_accumulation_steps=cfg["grad_accum"])
    per_gpu = t.total_tokens / (t.total_hours * 3600) / cfg["num_gpus"]
    return {"tokens_per_second_per_gpu": per_gpu,
            "detail": {"gpu": gpu, "mfu": t.mfu, "total_tflops": t.total_tflops, "hours": t.total_hours}}


if __name__ == "__main__":
    del sys.argv[1:]
    run("ftuneai", "ftuneai", estimate, handled=frozenset({"optimizer_in_backward"}),
        value_key="tokens_per_second_per_gpu")
