"""Hugging Face ``accelerate estimate-memory`` on the normalised configurations: JSON list on stdin, JSON on stdout.

The command (``accelerate estimate-memory MODEL --dtypes float32 float16``, also the "Model Memory Utility" Space)
builds the model from its ``config.json`` on the meta device (``init_empty_weights`` + ``AutoModel.from_config``),
sums the parameter sizes and prints, per dtype, a "Training using Adam" column: the largest of the model, gradient,
optimizer-state and step sizes (``estimate_training_usage``), i.e. 16 bytes/parameter at float32 and 8 at float16
(mixed precision). We run its own ``gather_data(args)``; the only replaced piece is the Hub metadata call
(``verify_on_hub``), answered with "this is a transformers model", and the model name is a local folder holding
the row's ``config.json`` (``AutoConfig.from_pretrained`` reads folders as well as Hub ids). torch is the CPU build;
nothing is allocated (meta tensors).

What the figure covers: weights, gradients and Adam states for a batch of one, full fine-tuning on one GPU. No
activations (no batch, no sequence length), no LoRA/QLoRA, no sharding: rows that need those are "unsupported".
Note that ``AutoModel`` is the bare backbone: an untied LM head is not counted, as in the command itself.
"""
from __future__ import annotations

import argparse
import sys
import types

import accelerate.commands.estimate as acc_estimate
from _common import Config, Unsupported, check_no_offload, config_dir, run


def _offline_verify_on_hub(repo: str, token=None):  # noqa: ANN001 - mirrors accelerate's signature
    """Stands in for the Hub's model-info call: a transformers model with no remote code."""
    return types.SimpleNamespace(config={}, library_name="transformers")


acc_estimate.verify_on_hub = _offline_verify_on_hub


def estimate(cfg: Config) -> dict:
    if cfg["method"] != "full":
        raise Unsupported(f"{cfg['method']}: accelerate estimates full training with Adam only")
    if cfg["num_gpus"] != 1 or cfg["sharding"] not in ("none", "ddp"):
        raise Unsupported(f"{cfg['num_gpus']} GPUs / {cfg['sharding']}: accelerate has no sharding")
    check_no_offload(cfg)
    if cfg["weights"] == "fp32" and cfg["compute"] == "fp32":
        dtype = "float32"
    elif cfg["weights"] in ("bf16", "fp16", "fp32"):
        dtype = "float16"   # the command's 16-bit row (mixed precision); bf16 has the same size
    else:
        raise Unsupported(f"{cfg['weights']} weights")
    with config_dir(cfg) as folder:
        args = argparse.Namespace(model_name=str(folder), library_name="transformers", dtypes=[dtype],
                                  trust_remote_code=False)
        ((_dtype, largest_layer, total_size, training),) = acc_estimate.gather_data(args)
    peak = max(training.values())          # what estimate_command prints as "Training using Adam"
    if peak == -1:
        raise Unsupported(f"no training estimate for {dtype}")
    return {
        "bytes": peak,
        "detail": {"unit": "bytes", "dtype": dtype, "model_bytes_at_dtype": total_size,
                   "largest_layer_bytes": largest_layer, "components": training,
                   "ignores": "batch size, sequence length (no activations)"},
    }


if __name__ == "__main__":
    del sys.argv[1:]
    run("accelerate", "accelerate", estimate)
