"""llm-analysis (PyPI ``llm-analysis``) on the normalised configurations: JSON list on stdin, JSON on stdout.

Called through its documented training entry point, the function behind ``python -m llm_analysis.analysis train``::

    from llm_analysis.analysis import train
    summary = train(model_name=..., gpu_name=..., dtype_name="w16a16e16", batch_size_per_gpu=..., seq_len=...,
                    activation_recomputation=..., ds_zero=..., dp_size=..., flash_attn=...,
                    master_weights_dtype_bytes=..., other_op_bytes=...)
    summary["(weight+op_state+grad+act)_memory_per_gpu"]     # bytes

``model_name`` is "a model config name, or model config json file path; if not found, query Hugging Face to
construct ModelConfig" — we pass a local folder holding the row's ``config.json``, which llm-analysis reads with
``transformers.AutoConfig`` exactly as it would a Hub model (``get_model_config_from_hf``). It takes layers, heads,
KV heads, hidden size, vocabulary and max positions from it, and assumes an FFN of 4 x hidden with two matrices and
a shared input/output embedding — its own modelling, kept as is.

The GPU only decides the fit check (and latency): llm-analysis asserts that the requested micro-batch fits in the
GPU's memory and aborts otherwise. To read its memory estimate for every row we register one extra GPU config, a
copy of its ``a100-sxm-80gb`` with an unbounded memory size; no memory term reads any GPU field.

Not expressible, so reported "unsupported": LoRA and QLoRA (every parameter gets gradients and optimizer states),
pure fp32 training (its dtype configs have 4, 8 or 16-bit weights only, and its latency model asserts that; mixed
precision is its default: 16-bit weights plus an fp32 master copy in the optimizer state), CPU
offload, optimizers whose state size is not a per-parameter byte count (Adafactor, GaLore, LoRA-FA).
"""
from __future__ import annotations

import dataclasses
import sys

import llm_analysis.config as la_config
from _common import Config, Unsupported, check_no_offload, config_dir, peer_sharding, run
from llm_analysis.analysis import train

_UNBOUNDED_GPU = "peers-unbounded-a100-sxm-80gb"
la_config.gpu_configs[_UNBOUNDED_GPU] = dataclasses.replace(
    la_config.gpu_configs["a100-sxm-80gb"], name=_UNBOUNDED_GPU, mem_per_GPU_in_GB=1e9)

_ZERO = {"none": 0, "ddp": 0, "zero1": 1, "zero2": 2, "zero3": 3,
         # its docstrings equate FSDP SHARD_GRAD_OP / FULL_SHARD with ZeRO-2 / ZeRO-3
         "fsdp_grad_op": 2, "fsdp_full": 3}


def _optimizer_bytes(cfg: Config) -> tuple[int, int]:
    """(master_weights_dtype_bytes, other_op_bytes) in llm-analysis's terms: the copy of the weights the optimizer
    updates, and the optimizer's own state per parameter."""
    # mixed precision (fp32 weights, 16-bit compute) is llm-analysis's default: 16-bit weights + fp32 master
    # copy; pure bf16 training updates the bf16 weights themselves, so the "master" copy is 2 bytes
    master = 4 if cfg["weights"] == "fp32" else 2
    opt, states = cfg["optimizer"], cfg.get("optimizer_states") or "fp32"
    if opt == "adamw":
        other = {"fp32": 8, "bf16": 4, "8bit": 2}[states]
    elif opt == "adamw_8bit":
        other = 2
    elif opt == "sgd_momentum":
        other = {"fp32": 4, "bf16": 2}.get(states, 4)
    elif opt == "sgd":
        other = 0
    else:
        raise Unsupported(f"optimizer {opt}: llm-analysis takes a fixed byte count per parameter")
    return master, other


def estimate(cfg: Config) -> dict:
    if cfg["method"] != "full":
        raise Unsupported(f"{cfg['method']}: llm-analysis has no LoRA/QLoRA (all parameters are trained)")
    if cfg["compute"] == "fp32" or cfg["weights"] not in ("bf16", "fp16", "fp32"):
        raise Unsupported(f"{cfg['weights']} weights, {cfg['compute']} compute: llm-analysis dtype configs "
                          "are 4/8/16-bit (mixed precision = 16-bit weights + fp32 master copy)")
    check_no_offload(cfg)
    zero = peer_sharding(cfg, _ZERO)
    master, other = _optimizer_bytes(cfg)
    with config_dir(cfg) as folder:
        summary = train(
            model_name=str(folder),
            gpu_name=_UNBOUNDED_GPU,
            dtype_name="w16a16e16",
            log_level="ERROR",
            batch_size_per_gpu=cfg["micro_batch"],
            seq_len=cfg["seq_len"],
            activation_recomputation=2 if cfg["grad_checkpointing"] else 0,   # FULL = per-layer checkpoints
            ds_zero=zero,
            dp_size=cfg["num_gpus"],
            flash_attn=cfg["attention"] in ("sdpa", "flash"),
            master_weights_dtype_bytes=master,
            other_op_bytes=other,
            mlp_gated_linear_units=bool(cfg.get("mlp_gated")),
        )
    return {
        "bytes": summary["(weight+op_state+grad+act)_memory_per_gpu"],
        "detail": {
            "unit": "bytes",
            "parameters": summary["num_params_total"],
            "weights": summary["weight_memory_per_gpu"],
            "gradients": summary["gradient_memory_per_gpu"],
            "optimizer": summary["optimizer_state_memory_per_gpu"],
            "activations": summary["activation_memory_per_gpu"],
            "master_weights_dtype_bytes": master, "other_op_bytes": other,
        },
    }


if __name__ == "__main__":
    del sys.argv[1:]
    run("llm-analysis", "llm-analysis", estimate)
