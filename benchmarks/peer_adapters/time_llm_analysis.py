"""llm-analysis's training latency (PyPI ``llm-analysis``) on the time configurations: JSON list on stdin, JSON out.

Called through its documented entry point ``llm_analysis.analysis.train(...)``; ``summary["latency_per_iter"]`` is
the time of one optimizer step (FLOPs of forward, backward and recompute over peak x ``flops_efficiency``; no
communication, no host time). ``flops_efficiency=0.5``: its README ("How to Set FLOPS and Memory Efficiency") says the
default 1 is a lower bound on latency and that "literature reports up to 0.5 for large scale model training".
Tokens per second per GPU = micro-batch x sequence x accumulation steps / latency_per_iter.

Full fine-tuning only (llm-analysis trains every parameter); cards outside its gpu_configs are "unsupported". As in
run_llm_analysis.py, each card is registered again with unbounded memory so that its fit check never aborts a time.
"""
from __future__ import annotations

import dataclasses
import sys

import llm_analysis.config as la_config
from _common import Config, Unsupported, check_no_offload, config_dir, peer_sharding, run
from llm_analysis.analysis import train
from run_llm_analysis import _ZERO, _optimizer_bytes

#: our GPU id -> llm-analysis gpu_configs name
GPUS = {"a100-40gb": "a100-sxm-40gb", "a100-80gb": "a100-sxm-80gb", "h100-80gb": "h100-sxm-80gb",
        "a10g": "a10g-pcie-24gb", "rtx-a6000": "a6000-48gb", "v100-16gb": "v100-sxm-16gb",
        "v100-32gb": "v100-sxm-32gb"}
FLOPS_EFFICIENCY = 0.5


def _unbounded(name: str) -> str:
    key = f"peers-unbounded-{name}"
    if key not in la_config.gpu_configs:
        la_config.gpu_configs[key] = dataclasses.replace(la_config.gpu_configs[name], name=key,
                                                         mem_per_GPU_in_GB=1e9)
    return key


def estimate(cfg: Config) -> dict:
    if cfg["method"] != "full":
        raise Unsupported(f"{cfg['method']}: llm-analysis has no LoRA/QLoRA (all parameters are trained)")
    gpu = GPUS.get(cfg.get("gpu") or "")
    if gpu is None:
        raise Unsupported(f"GPU {cfg.get('gpu')}: not in llm-analysis's gpu_configs")
    zero = peer_sharding(cfg, _ZERO)
    check_no_offload(cfg)
    master, other = _optimizer_bytes(cfg)
    with config_dir(cfg) as folder:
        summary = train(model_name=str(folder), gpu_name=_unbounded(gpu), dtype_name="w16a16e16", log_level="ERROR",
                        batch_size_per_gpu=cfg["micro_batch"], gradient_accumulation_steps=cfg["grad_accum"],
                        seq_len=cfg["seq_len"], activation_recomputation=2 if cfg["grad_checkpointing"] else 0,
                        ds_zero=zero, dp_size=cfg["num_gpus"], flash_attn=cfg["attention"] in ("sdpa", "flash"),
                        master_weights_dtype_bytes=master, other_op_bytes=other,
                        mlp_gated_linear_units=bool(cfg.get("mlp_gated")), flops_efficiency=FLOPS_EFFICIENCY)
    tokens = cfg["micro_batch"] * cfg["seq_len"] * cfg["grad_accum"]
    return {"tokens_per_second_per_gpu": tokens / summary["latency_per_iter"],
            "detail": {"gpu": gpu, "latency_per_iter_s": summary["latency_per_iter"],
                       "flops_efficiency": FLOPS_EFFICIENCY}}


if __name__ == "__main__":
    del sys.argv[1:]
    run("llm-analysis", "llm-analysis", estimate, handled=frozenset({"optimizer_in_backward"}),
        value_key="tokens_per_second_per_gpu")
