"""ftune (PyPI ``ftuneai``) on the normalised configurations: JSON list on stdin, JSON document on stdout.

Called as its README shows::

    from ftuneai import Estimator
    est = Estimator(model=..., method="qlora", quantization="4bit", lora_rank=16, batch_size=4, ...)
    mem = est.estimate_memory()          # mem.total_gb

For a model that is not in its bundled list, ftune reads the model's ``config.json`` from the Hugging Face Hub
(``ftuneai.hub.fetch_model_config``) and derives the architecture and parameter count from it with its own code.
The Hub is unreachable here, so that one download is answered from the local ``config.json`` of the row; every
model goes through that path (a name that matches no bundled entry), so ftune sees exactly our architecture.

``total_gb`` is in GiB: ftune divides bytes by 1024**3 (``BYTES_TO_GB = 1 / (1024**3)``).
"""
from __future__ import annotations

import sys

import ftuneai.hub
from _common import ATTENTION, MLP, Config, Unsupported, check_no_offload, peer_sharding, run, targets
from ftuneai import Estimator

_CONFIGS: dict[str, dict] = {}


def _offline_fetch(model_name: str) -> dict:
    """Stands in for the Hub download of ``config.json`` (ftuneai.hub.fetch_model_config)."""
    return _CONFIGS[model_name]


ftuneai.hub.fetch_model_config = _offline_fetch

_PRESETS = {  # ftune's LoRATarget presets (ftuneai.core.models.LoRATarget)
    frozenset(("q_proj", "v_proj")): "attention",
    frozenset(ATTENTION): "attention_all",
    frozenset(ATTENTION + MLP): "all_linear",
}
_OPTIMIZERS = {  # normalised optimizer -> ftune OptimizerType
    "adamw": "adamw",
    "adamw_8bit": "adam_8bit",
    "sgd": "sgd",
    "sgd_momentum": "sgd",
    "adafactor": "adafactor",
}
_SHARDING = {
    "none": "none", "ddp": "none", "zero1": "zero_1", "zero2": "zero_2", "zero3": "zero_3",
    "fsdp_full": "fsdp", "fsdp_grad_op": "fsdp_shard_grad",
}


def estimate(cfg: Config) -> dict:
    method = cfg["method"]
    kwargs: dict = {}
    if method in ("lora", "qlora"):
        preset = _PRESETS.get(targets(cfg))
        if preset is None:
            raise Unsupported(
                f"LoRA targets {sorted(targets(cfg))}: ftune offers three presets only "
                "(q,v | q,k,v,o | q,k,v,o,gate,up,down)")
        kwargs.update(lora_rank=cfg["lora_rank"], lora_target=preset)
    weights = cfg["weights"]
    if method == "qlora":
        if weights not in ("nf4", "fp4"):
            raise Unsupported(f"QLoRA with {weights} base weights")
        kwargs["quantization"] = "4bit"
    elif method == "lora" and weights == "int8":
        kwargs["quantization"] = "8bit"
    elif weights not in ("bf16", "fp16", "fp32"):
        raise Unsupported(f"{method} with {weights} weights")
    optimizer = _OPTIMIZERS.get(cfg["optimizer"])
    if optimizer is None:
        raise Unsupported(f"optimizer {cfg['optimizer']} (ftune: adamw, adam, sgd, adam_8bit, adafactor)")
    check_no_offload(cfg)
    sharding = peer_sharding(cfg, _SHARDING)

    name = f"offline/{cfg['id']}"  # matches no bundled model, so ftune takes its config.json path
    _CONFIGS[name] = cfg["hf_config"]
    est = Estimator(
        model=name,
        method=method,
        batch_size=cfg["micro_batch"],
        seq_length=cfg["seq_len"],
        gradient_checkpointing=cfg["grad_checkpointing"],
        optimizer=optimizer,
        flash_attention=cfg["attention"] in ("sdpa", "flash"),
        sharding=sharding,
        num_gpus=cfg["num_gpus"],
        **kwargs,
    )
    mem = est.estimate_memory()
    return {
        "bytes": mem.total_gb * 2**30,
        "detail": {
            "unit": "GiB (ftune prints 'GB' but divides by 1024**3)",
            "parameters": est.model_spec.parameters,
            "weights_gib": mem.model_weights_gb, "adapters_gib": mem.trainable_params_gb,
            "gradients_gib": mem.gradients_gb, "optimizer_gib": mem.optimizer_states_gb,
            "activations_gib": mem.activations_gb, "overhead_gib": mem.overhead_gb,
        },
    }


if __name__ == "__main__":
    del sys.argv[1:]
    run("ftuneai", "ftuneai", estimate)
