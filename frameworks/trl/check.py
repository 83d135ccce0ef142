"""TRL's own checks of the TRL exports, run inside the TRL venv (stdin JSON in, stdout JSON out).

mode ``check``: ``{"configs": [{"id", "files": {name: text}}]}`` -> per config: the framework's parse of each file
(``TrlParser.parse_args_and_config(fail_with_unknown_args=True)``, ``get_quantization_config``, ``get_peft_config``;
accelerate's ``_validate_launch_command`` + ``prepare_multi_gpu_env``/``prepare_deepspeed_cmd_env`` and the FSDP or
DeepSpeed plugin built from that environment, as ``accelerate launch`` does; ``DeepSpeedConfig`` and
``HfDeepSpeedConfig`` on the JSON), the values the framework ends up with, and the warnings the config causes beyond
those of a minimal config of the same trainer.
mode ``snapshot``: the field lists (names, types, defaults, choices) of every class the exports write keys of.
mode ``overrides``: the fields the real-run test's command-line overrides change (they must be only those allowed).
mode ``rank``: one rank of a multi-GPU export's measuring line, run on the CPU in a process group of one.
"""
from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import _checklib as lib  # noqa: E402

import transformers.training_args as _ta  # noqa: E402

# The bf16 probe asks the machine, not the config: the exports are for the chosen GPU (section 5 of the survey).
_ta.is_torch_bf16_gpu_available = lambda *a, **k: True

from trl import (DatasetMixtureConfig, DPOConfig, GRPOConfig, ModelConfig, ScriptArguments, SFTConfig,  # noqa: E402
                 TrlParser, get_peft_config, get_quantization_config)
from trl.scripts.grpo import GRPOScriptArguments  # noqa: E402

lib.deepspeed_without_shm_op()

MINIMAL = "model_name_or_path: m\ndataset_name: d\noutput_dir: o\nreport_to: none\n"
#: The dataclasses ``trl <trainer>`` parses (trl/scripts/sft.py, dpo.py, grpo.py ``make_parser``), by config file.
TYPES = {"sft.yaml": (ScriptArguments, SFTConfig, ModelConfig, DatasetMixtureConfig),
         "dpo.yaml": (ScriptArguments, DPOConfig, ModelConfig, DatasetMixtureConfig),
         "grpo.yaml": (GRPOScriptArguments, GRPOConfig, ModelConfig, DatasetMixtureConfig)}


def main_file(files) -> str:
    return next((name for name in ("grpo.yaml", "dpo.yaml") if name in files), "sft.yaml")


def _parse(path: str, name: str, args: list[str] = (), world_size: int | None = None):
    """``trl <trainer> --config path``'s parse. ``world_size``: the processes ``accelerate launch`` starts (its
    ``num_processes``): the check's rank is a group of one, but GRPOConfig.__post_init__ divides the generation batch
    by ``self.world_size`` (grpo_config.py 1.16.0), which a rank of the launched group reads as that count."""
    parser = TrlParser(TYPES[name])
    if world_size is None:
        return parser.parse_args_and_config(args=["--config", path, *args], fail_with_unknown_args=True)
    saved = _ta.TrainingArguments.world_size
    _ta.TrainingArguments.world_size = property(lambda self: world_size)
    try:
        return parser.parse_args_and_config(args=["--config", path, *args], fail_with_unknown_args=True)
    finally:
        _ta.TrainingArguments.world_size = saved


#: GRPOConfig's fields the GRPO export writes (after ``__post_init__``: ``steps_per_generation`` resolved).
GRPO_VIEW = ("num_generations", "max_completion_length", "steps_per_generation", "generation_batch_size", "beta",
             "num_iterations", "loss_type", "use_vllm", "vllm_mode", "vllm_gpu_memory_utilization",
             "vllm_enable_sleep_mode", "vllm_max_model_length", "disable_dropout")


def _train_view(script, train, model) -> dict:
    qc = get_quantization_config(model)
    pc = get_peft_config(model)
    view = {
        "dtype": model.dtype, "attn_implementation": model.attn_implementation, "use_peft": model.use_peft,
        "bf16": train.bf16, "fp16": train.fp16, "activation_checkpointing": train.activation_checkpointing,
        "gradient_checkpointing": train.gradient_checkpointing, "optim": str(getattr(train.optim, "value", train.optim)),
        "optim_args": train.optim_args, "per_device_train_batch_size": train.per_device_train_batch_size,
        "gradient_accumulation_steps": train.gradient_accumulation_steps,
        "max_length": getattr(train, "max_length", None),
        "packing": getattr(train, "packing", None),
        "activation_offloading": getattr(train, "activation_offloading", None),
        "torch_compile": train.torch_compile, "num_train_epochs": train.num_train_epochs,
        "precompute_ref_log_probs": getattr(train, "precompute_ref_log_probs", None),
        "disable_dropout": getattr(train, "disable_dropout", None),
        "sync_each_batch": (train.accelerator_config.gradient_accumulation_kwargs or {}).get("sync_each_batch")
        if train.accelerator_config is not None else None,
        "dataset_name": script.dataset_name, "output_dir": train.output_dir,
    }
    if isinstance(train, GRPOConfig):
        view["grpo"] = {key: getattr(train, key) for key in GRPO_VIEW}
        view["grpo"]["reward_funcs"] = script.reward_funcs
    if qc is not None:
        d = qc.to_dict()
        view["quantization"] = {k: str(d.get(k)) for k in ("load_in_4bit", "bnb_4bit_quant_type",
                                                           "bnb_4bit_use_double_quant", "bnb_4bit_compute_dtype",
                                                           "bnb_4bit_quant_storage")}
    if pc is not None:
        tm = pc.target_modules
        view["lora"] = {"r": pc.r, "lora_alpha": pc.lora_alpha, "lora_dropout": pc.lora_dropout,
                        "target_modules": tm if isinstance(tm, str) or tm is None else sorted(tm)}
    return view


def _one(files: dict) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in files.items():
            Path(tmp, name).write_text(text)
        main = main_file(files)
        cwd = os.getcwd()
        os.chdir(tmp)
        result: dict = {"ok": True, "errors": [], "view": {}}
        try:
            with lib.captured() as warns:
                train = None
                # Under several GPUs every rank parses the config inside the environment `accelerate launch` gave
                # it, and TrainingArguments builds the DeepSpeed plugin from that environment right there.
                launch = lib.launched("accelerate.yaml") if "accelerate.yaml" in files else contextlib.nullcontext()
                try:
                    with launch as launched:
                        try:
                            # GRPO's generation batch is divided by the launched group's size; SFT and DPO
                            # parse as before, in the group of one
                            size = launched[0].num_processes if launched is not None and main == "grpo.yaml" \
                                else None
                            script, train, model, _ = _parse(main, main, world_size=size)
                            result["view"]["trainer"] = _train_view(script, train, model)
                        except BaseException as exc:  # noqa: BLE001 - argparse exits with SystemExit
                            result["errors"].append(f"{main}: {lib.error_text(exc)}")
                            train = None
                except BaseException as exc:  # noqa: BLE001 - accelerate's own validation of its config
                    result["errors"].append(f"accelerate.yaml: {lib.error_text(exc)}")
                if "accelerate.yaml" in files and train is not None:
                    try:
                        result["view"]["accelerate"] = lib.accelerate_view("accelerate.yaml",
                                                                           train.deepspeed_plugin)
                    except BaseException as exc:  # noqa: BLE001
                        result["errors"].append(f"accelerate.yaml: {lib.error_text(exc)}")
                if "ds_config.json" in files and train is not None:
                    try:
                        result["view"]["deepspeed"] = lib.deepspeed_view("ds_config.json", train.per_device_train_batch_size,
                                                                 train.gradient_accumulation_steps)
                    except BaseException as exc:  # noqa: BLE001
                        result["errors"].append(f"ds_config.json: {lib.error_text(exc)}")
            result["warnings"] = warns
        finally:
            os.chdir(cwd)
    result["ok"] = not result["errors"]
    return result


def check(request: dict) -> dict:
    baseline = {name: set(_one({name: MINIMAL}).get("warnings", [])) for name in TYPES}

    def one(cfg: dict) -> dict:
        r = _one(cfg["files"])
        base = baseline[main_file(cfg["files"])]
        r["new_warnings"] = [w for w in r.pop("warnings", []) if w not in base]
        return r

    results = lib.each(request["configs"], one)
    return {"results": results, "baseline": {k: sorted(v) for k, v in baseline.items()}}


def snapshot(request: dict) -> dict:
    import peft
    import transformers
    import trl
    from transformers.training_args import OptimizerNames
    return {
        "versions": {m.__name__: m.__version__ for m in (trl, transformers, peft)},
        "classes": {
            "ScriptArguments": lib.dataclass_fields(ScriptArguments),
            "SFTConfig": lib.dataclass_fields(SFTConfig),
            "DPOConfig": lib.dataclass_fields(DPOConfig),
            "GRPOConfig": lib.dataclass_fields(GRPOConfig),
            "GRPOScriptArguments": lib.dataclass_fields(GRPOScriptArguments),
            "ModelConfig": lib.dataclass_fields(ModelConfig),
            "DatasetMixtureConfig": lib.dataclass_fields(DatasetMixtureConfig),
        },
        "enums": {"OptimizerNames": sorted(o.value for o in OptimizerNames)},
        "accelerate": lib.accelerate_lists(),
        "deepspeed": lib.deepspeed_lists(),
    }


def overrides(request: dict) -> dict:
    """Which parsed fields the command-line overrides change: ``{"config": text, "name": "sft.yaml" | "dpo.yaml" |
    "grpo.yaml", "args": [...]}`` (``"dpo": bool`` for the first two) -> the dotted names of every dataclass field
    whose value differs with the arguments given."""
    name = request.get("name") or ("dpo.yaml" if request.get("dpo") else "sft.yaml")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp, "config.yaml")
        path.write_text(request["config"])
        plain = _parse(str(path), name)
        given = _parse(str(path), name, request["args"])
    return {"changed": lib.changed_fields(plain, given)}


def rank(request: dict) -> dict:
    """One rank of the export's measuring line (``accelerate launch --config_file accelerate.yaml measure.py
    trl.scripts.sft --config sft.yaml ARGS``): accelerate launch's own path up to the processes (``lib.launched``),
    then ``measure.py`` run as that rank runs it, in a process group of one on this CPU (DeepSpeed's CPU
    accelerator). ``{"dir", "module", "config", "args"}`` -> how far it got: the plugin, the engine the trainer
    trained with (``deepspeed.initialize`` makes a ``DeepSpeedEngine``) and its steps, or the error."""
    import runpy
    import transformers
    got: dict = {"stage": "launch"}
    train = transformers.Trainer.train

    def recorded(self, *a, **k):
        got.update(stage="trainer", plugin_zero_stage=getattr(self.args.deepspeed_plugin, "zero_stage", None))
        out = train(self, *a, **k)
        got.update(stage="trained", engine=type(self.model_wrapped).__name__, steps=out.global_step,
                   loss=out.training_loss)
        return out

    cwd, argv = os.getcwd(), sys.argv
    os.chdir(request["dir"])
    transformers.Trainer.train = recorded
    try:
        with lib.captured(), lib.launched("accelerate.yaml"):
            got["stage"] = "launched"
            sys.argv = ["measure.py", request["module"], "--config", request["config"], *request["args"]]
            runpy.run_path("measure.py", run_name="__main__")
    except BaseException as exc:  # noqa: BLE001 - argparse exits with SystemExit
        got["error"] = lib.error_text(exc)
    finally:
        transformers.Trainer.train = train
        sys.argv = argv
        os.chdir(cwd)
    return got


if __name__ == "__main__":
    lib.main({"check": check, "snapshot": snapshot, "overrides": overrides, "rank": rank})
