"""LLaMA-Factory's own checks of the LLaMA-Factory exports, run inside its venv (stdin JSON in, stdout JSON out).

mode ``check``: per config, the path of ``llamafactory-cli train llamafactory.yaml`` on one rank (``cli.main`` ->
``launcher.launch``, which pops the command; ``tuner.run_exp``: ``read_args`` loads the YAML with OmegaConf, merged
with the command line's ``key=value`` overrides, ``get_ray_args``, then ``_training_function``'s
``get_train_args`` (strict: unknown keys raise; ~40 cross-field checks), stopped before the tokenizer and model
load) in a one-process distributed environment (its DeepSpeed checks need one), the accelerate
config through accelerate 1.11's own launcher validation and FSDP plugin, the values LLaMA-Factory ends up with,
and the warnings beyond those of a minimal config of the same stage.
mode ``snapshot``: the fields (names, types, defaults, choices) of its four argument classes and the optimizer names.
mode ``overrides``: the fields the real-run test's command-line overrides change (they must be only those allowed).
"""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import _checklib as lib  # noqa: E402


def _free_port() -> str:
    """A port no other process listens on: two checkers at once (two checkouts on one machine) each get their own
    torch.distributed store (a fixed port made the second one join the first's store and both wait for ever)."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return str(s.getsockname()[1])


os.environ.update({"LOCAL_RANK": "0", "RANK": "0", "WORLD_SIZE": "1", "MASTER_ADDR": "127.0.0.1",
                   "MASTER_PORT": _free_port(), "DISABLE_VERSION_CHECK": "0"})

import transformers.training_args as _ta  # noqa: E402

_ta.is_torch_bf16_gpu_available = lambda *a, **k: True        # the chosen card's bf16, not this machine's

import yaml  # noqa: E402

from lf_cli import audio_stand_in  # noqa: E402  (beside this file)

audio_stand_in()     # torchaudio, which the pinned venv lacks: lf_cli.py
from llamafactory import launcher as lf_launcher  # noqa: E402
from llamafactory.hparams import parser as lf_parser  # noqa: E402
from llamafactory.train import tuner as lf_tuner  # noqa: E402

for _name in ("is_torch_bf16_gpu_available",):
    if hasattr(lf_parser, _name):
        setattr(lf_parser, _name, lambda *a, **k: True)

lib.deepspeed_without_shm_op()

MINIMAL = {"model_name_or_path": "m", "stage": "sft", "do_train": True, "finetuning_type": "lora", "dataset": "d",
           "template": "default", "output_dir": "o", "report_to": "none"}


class _Stop(Exception):
    """Raised where ``_training_function`` would load the tokenizer and the model."""


def cli_train(path: str, *overrides: str, accelerate: bool = False):
    """The arguments ``llamafactory-cli train path key=value...`` trains with on a rank: the CLI's own dispatch and
    reading (module docstring), ``get_train_args`` as ``_training_function`` calls it, stopped right after. With
    ``accelerate``: a rank of the multi-GPU line ``accelerate launch --config_file accelerate.yaml -m
    llamafactory.launcher path`` (the module's ``__main__``: ``run_exp()`` on ``sys.argv``, in the environment
    accelerate's own launch path gives the rank)."""
    got: dict = {}

    def training_function(config: dict) -> None:
        got["parsed"] = lf_parser.get_train_args(config.get("args"))
        raise _Stop

    saved_argv, saved_fn = sys.argv, lf_tuner._training_function
    lf_tuner._training_function = training_function
    try:
        if accelerate:
            sys.argv = [lf_launcher.__file__, path, *overrides]
            with lib.launched("accelerate.yaml"):
                lf_tuner.run_exp()
        else:
            sys.argv = ["llamafactory-cli", "train", path, *overrides]
            lf_launcher.launch()
    except _Stop:
        pass
    finally:
        sys.argv, lf_tuner._training_function = saved_argv, saved_fn
    if "parsed" not in got:
        raise RuntimeError("llamafactory-cli train did not reach get_train_args")
    return got["parsed"]


def _args(cfg: dict | str, accelerate: bool = False):
    """The view of the arguments LLaMA-Factory trains with: from the file by the CLI's path (a path), or a dict."""
    parsed = cli_train(cfg, accelerate=accelerate) if isinstance(cfg, str) else lf_parser.get_train_args(dict(cfg))
    model, data, train, finetuning, _ = parsed
    return {
        "compute_dtype": str(model.compute_dtype), "quantization_bit": model.quantization_bit,
        "quantization_type": model.quantization_type, "double_quantization": model.double_quantization,
        "flash_attn": str(model.flash_attn), "disable_gradient_checkpointing": model.disable_gradient_checkpointing,
        "enable_liger_kernel": model.enable_liger_kernel, "stage": finetuning.stage,
        "finetuning_type": finetuning.finetuning_type, "lora_rank": finetuning.lora_rank,
        "lora_dropout": finetuning.lora_dropout, "lora_target": finetuning.lora_target,
        "pure_bf16": finetuning.pure_bf16, "cutoff_len": data.cutoff_len, "packing": data.packing,
        "per_device_train_batch_size": train.per_device_train_batch_size,
        "gradient_accumulation_steps": train.gradient_accumulation_steps, "bf16": train.bf16, "fp16": train.fp16,
        "optim": str(getattr(train.optim, "value", train.optim)), "optim_args": train.optim_args,
        "deepspeed": bool(train.deepspeed), "torch_compile": train.torch_compile,
    }


_BASELINES: dict = {}


def _baseline(stage: str, finetuning_type: str, quantization_bit, out: str) -> list:
    """Warnings of a minimal config of the same stage and method (a 4-bit one warns about upcast_layernorm too)."""
    key = (stage, finetuning_type, quantization_bit)
    if key not in _BASELINES:
        cfg = dict(MINIMAL, stage=stage, finetuning_type=finetuning_type, output_dir=out)
        if quantization_bit is not None:
            cfg["quantization_bit"] = quantization_bit
        with lib.captured() as base:
            try:
                _args(cfg)
            except BaseException:  # noqa: BLE001
                pass
        _BASELINES[key] = base
    return _BASELINES[key]


def _one(files: dict) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in files.items():       # a name may be a path (a DeepSpeed JSON where the YAML names it)
            Path(tmp, name).parent.mkdir(parents=True, exist_ok=True)
            Path(tmp, name).write_text(text)
        cwd = os.getcwd()
        os.chdir(tmp)
        result: dict = {"errors": [], "view": {}}
        try:
            cfg = yaml.safe_load(files["llamafactory.yaml"])
            with lib.captured() as warns:
                try:
                    result["view"]["llamafactory"] = _args("llamafactory.yaml", accelerate="accelerate.yaml" in files)
                except BaseException as exc:  # noqa: BLE001 - the parser exits on unknown keys
                    result["errors"].append(f"llamafactory.yaml: {lib.error_text(exc)}")
                if "accelerate.yaml" in files:
                    try:
                        result["view"]["accelerate"] = lib.accelerate_view("accelerate.yaml")
                    except BaseException as exc:  # noqa: BLE001
                        result["errors"].append(f"accelerate.yaml: {lib.error_text(exc)}")
            base = _baseline(cfg.get("stage", "sft"), cfg.get("finetuning_type", "lora"),
                             cfg.get("quantization_bit"), str(Path(tmp, "base")))
        finally:
            os.chdir(cwd)
    result["ok"] = not result["errors"]
    result["new_warnings"] = [w for w in warns if w not in base]
    return result


def check(request: dict) -> dict:
    import importlib.util
    # the module the Run and Measure lines start (its file: importing it needs the CLI's runtime packages)
    package = importlib.util.find_spec("llamafactory")
    launcher = package is not None and (Path(package.origin).parent / "launcher.py").is_file()
    results = lib.each(request["configs"], lambda c: _one(c["files"]))
    for r in results.values():
        if not launcher:
            r["errors"].append("llamafactory.launcher is missing")
            r["ok"] = False
    return {"results": results}


def snapshot(request: dict) -> dict:
    import llamafactory
    import transformers
    from llamafactory.hparams import DataArguments, FinetuningArguments, ModelArguments, TrainingArguments
    from transformers.training_args import OptimizerNames
    return {"versions": {"llamafactory": llamafactory.__version__, "transformers": transformers.__version__},
            "classes": {c.__name__: lib.dataclass_fields(c) for c in (ModelArguments, DataArguments,
                                                                       FinetuningArguments, TrainingArguments)},
            "enums": {"OptimizerNames": sorted(o.value for o in OptimizerNames)},
            "accelerate": lib.accelerate_lists(), "deepspeed": lib.deepspeed_lists()}


def overrides(request: dict) -> dict:
    """Which parsed fields the command line's ``key=value`` overrides change: ``{"dir", "config", "args"}`` (the file
    in ``dir``) -> the dotted names of every argument-class field whose value differs with the overrides given, each
    parse through ``llamafactory-cli train``'s own path (``cli_train``)."""
    cwd = os.getcwd()
    os.chdir(request["dir"])
    try:
        plain = cli_train(request["config"])
        given = cli_train(request["config"], *request["args"])
    finally:
        os.chdir(cwd)
    return {"changed": lib.changed_fields(plain, given)}


if __name__ == "__main__":
    lib.main({"check": check, "snapshot": snapshot, "overrides": overrides})
