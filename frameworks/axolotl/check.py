"""Axolotl's own checks of the Axolotl exports, run inside the Axolotl venv (stdin JSON in, stdout JSON out).

mode ``check``: ``{"configs": [{"id", "files", "capabilities"}]}`` -> per config: ``validate_config`` with the
chosen card's capabilities (``{bf16, fp8, tf32, n_gpu, n_node, compute_capability}``) and the torch version, the
values Axolotl ends up with, and the warnings beyond those of a minimal config on the same card.
mode ``snapshot``: ``AxolotlInputConfig`` fields (names, types, defaults, aliases), the FSDP config's fields and the
optimizer names Axolotl accepts (transformers ``OptimizerNames`` and its own ``CustomSupportedOptimizers``).
"""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import _checklib as lib  # noqa: E402

import torch  # noqa: E402
import yaml  # noqa: E402  (Axolotl reads its config with PyYAML: the check does too)

try:   # DeepSpeed says once which accelerator it found: say it before any config is checked
    from deepspeed.accelerator import get_accelerator
    get_accelerator()
except ImportError:  # pragma: no cover
    pass
from axolotl.utils.config import validate_config  # noqa: E402
from axolotl.utils.dict import DictDefault  # noqa: E402

MINIMAL = {"base_model": "m", "datasets": [{"path": "d", "type": "alpaca"}], "output_dir": "o",
           "learning_rate": 0.0002, "micro_batch_size": 1, "gradient_accumulation_steps": 1}
ENV = {"torch_version": torch.__version__.split("+")[0]}
VIEW = ("adapter", "load_in_4bit", "bnb_config_kwargs", "lora_r", "lora_dropout", "lora_target_linear",
        "lora_target_modules", "lora_mlp_kernel", "lora_qkv_kernel", "lora_o_kernel", "rl", "sequence_len",
        "sample_packing", "micro_batch_size", "gradient_accumulation_steps", "num_epochs", "optimizer", "optim_args",
        "bf16", "fp16", "attn_implementation", "gradient_checkpointing", "activation_offloading",
        "chunked_cross_entropy", "torch_compile", "deepspeed", "fsdp_version", "fsdp_config",
        "precompute_ref_log_probs")


def _validate(cfg: dict, caps: dict) -> tuple[dict | None, list[str], list[str]]:
    errors: list[str] = []
    out = None
    with lib.captured() as warns:
        try:
            out = validate_config(DictDefault(cfg), capabilities=caps, env_capabilities=ENV)
        except Exception as exc:  # noqa: BLE001
            errors.append(lib.error_text(exc))
    return out, errors, warns


_BASELINES: dict = {}


def _baseline(dpo: bool, adapter, caps: dict) -> list[str]:
    """Warnings of a minimal config of the same trainer and adapter on the same card (computed once)."""
    key = (dpo, adapter, tuple(sorted(caps.items())))
    if key not in _BASELINES:
        cfg = dict(MINIMAL)
        if dpo:
            cfg.update(rl="dpo", datasets=[{"path": "d", "split": "train", "type": "chatml.intel"}])
        if adapter:
            cfg.update(adapter=adapter, load_in_4bit=adapter == "qlora")
        _BASELINES[key] = _validate(cfg, caps)[2]
    return _BASELINES[key]


def _one(cfg_entry: dict) -> dict:
    files = cfg_entry["files"]
    caps = cfg_entry["capabilities"]
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in files.items():
            Path(tmp, name).write_text(text)
        cwd = os.getcwd()
        os.chdir(tmp)
        try:
            cfg = yaml.safe_load(files["axolotl.yaml"])
            out, errors, warns = _validate(cfg, caps)
            if "ds_config.json" in files:
                try:
                    view_ds = lib.deepspeed_view("ds_config.json", cfg.get("micro_batch_size", 1),
                                                 cfg.get("gradient_accumulation_steps", 1))
                except Exception as exc:  # noqa: BLE001
                    errors.append(f"ds_config.json: {lib.error_text(exc)}")
                    view_ds = None
            else:
                view_ds = None
            if "accelerate.yaml" in files:
                try:
                    view_acc = lib.accelerate_view("accelerate.yaml")
                except BaseException as exc:  # noqa: BLE001
                    errors.append(f"accelerate.yaml: {lib.error_text(exc)}")
                    view_acc = None
            else:
                view_acc = None
            base = _baseline(cfg.get("rl") == "dpo", cfg.get("adapter"), caps)
        finally:
            os.chdir(cwd)
    view = {}
    if out is not None:
        for key in VIEW:
            v = out.get(key)
            view[key] = lib.jsonable(dict(v) if hasattr(v, "items") else v)
    view["deepspeed"], view["accelerate"] = view_ds, view_acc
    return {"ok": not errors, "errors": errors, "view": view, "new_warnings": [w for w in warns if w not in base]}


def check(request: dict) -> dict:
    import importlib.util
    # the module the Run and Measure lines start (its file: importing it needs the CLI's runtime packages)
    package = importlib.util.find_spec("axolotl")
    launcher = package is not None and (Path(package.origin).parent / "cli" / "train.py").is_file()
    results = lib.each(request["configs"], _one)
    for r in results.values():
        if not launcher:
            r["errors"].append("axolotl.cli.train is missing")
            r["ok"] = False
    return {"results": results}


def snapshot(request: dict) -> dict:
    import axolotl
    import transformers
    from axolotl.utils.schemas.config import AxolotlInputConfig
    from axolotl.utils.schemas.enums import CustomSupportedOptimizers
    from axolotl.utils.schemas.fsdp import FSDPConfig
    from transformers.training_args import OptimizerNames

    def fields(model) -> dict:
        out = {}
        for name, f in model.model_fields.items():
            entry = {"type": lib.type_name(f.annotation), "default": lib.jsonable(f.default)}
            if f.alias and f.alias != name:
                entry["alias"] = f.alias
            out[name] = entry
        return dict(sorted(out.items()))

    return {"versions": {"axolotl": axolotl.__version__, "transformers": transformers.__version__},
            "classes": {"AxolotlInputConfig": fields(AxolotlInputConfig), "FSDPConfig": fields(FSDPConfig)},
            "enums": {"optimizer": sorted({o.value for o in OptimizerNames} | {o.value for o in
                                                                              CustomSupportedOptimizers})},
            "accelerate": lib.accelerate_lists(), "deepspeed": lib.deepspeed_lists()}


if __name__ == "__main__":
    lib.main({"check": check, "snapshot": snapshot})
