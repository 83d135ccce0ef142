"""Axolotl's own checks of the Axolotl exports, run inside the Axolotl venv (stdin JSON in, stdout JSON out).

mode ``check``: ``{"configs": [{"id", "files", "capabilities"}]}`` -> per config: ``validate_config`` with the
chosen card's capabilities (``{bf16, fp8, tf32, n_gpu, n_node, compute_capability}``) and the torch version, the
values Axolotl ends up with, and the warnings beyond those of a minimal config on the same card; then the launch
path a rank of ``axolotl train axolotl.yaml`` runs (``axolotl.cli.train.do_cli`` -> ``axolotl.cli.config.load_cfg``:
the YAML read from the file, plugins, ``validate_config`` with the card's capabilities where the CLI probes the
machine's GPU, ``prepare_optim_env``, ``normalize_config`` (which reads the model's ``config.json``: a stand-in of
the same ``model_type`` in a local folder, the Hub being out of reach) and ``normalize_cfg_datasets``), inside the
environment ``accelerate launch`` gives a rank when the export has an ``accelerate.yaml``.
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

lib.deepspeed_without_shm_op()
import deepspeed.comm as ds_comm  # noqa: E402  (the launch path's process group: launch_path)


def _cli_config():
    """``axolotl/cli/config.py`` (``load_cfg``), the module ``axolotl train`` reads its config with, run from its file
    with ``axolotl.cli`` registered bare: the package's ``__init__`` only sets three environment defaults (set here
    alike) and colours the log (``colorama``). The venv holds the runtime packages ``load_cfg``'s imports need
    (``posthog``: telemetry, which ``AXOLOTL_DO_NOT_TRACK`` turns off before it is touched; ``numba``)."""
    import importlib.util
    import types
    for key, value in (("TOKENIZERS_PARALLELISM", "false"), ("HF_XET_HIGH_PERFORMANCE", "1"),
                       ("TRL_EXPERIMENTAL_SILENCE", "1"), ("AXOLOTL_DO_NOT_TRACK", "1")):  # no telemetry sent
        os.environ.setdefault(key, value)
    root = Path(importlib.util.find_spec("axolotl").origin).parent / "cli"
    if "axolotl.cli" not in sys.modules:
        package = types.ModuleType("axolotl.cli")
        package.__path__ = [str(root)]
        sys.modules["axolotl.cli"] = package
    spec = importlib.util.spec_from_file_location("axolotl.cli.config", root / "config.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["axolotl.cli.config"] = module
    spec.loader.exec_module(module)
    return module


cli_config = _cli_config()
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


#: The Hub id's family -> the ``model_type`` of the stand-in ``config.json`` (``normalize_config`` reads the model's
#: config; a tiny one of the same type answers for it offline).
FAMILIES = (("qwen3", "qwen3"), ("qwen", "qwen2"), ("mistral", "mistral"), ("gemma", "gemma2"), ("phi", "phi3"))


def _stand_in(base_model: str, where: Path) -> str:
    """A local folder whose ``config.json`` is a small config of the base model's type (what ``load_model_config``
    reads), the only key the launch path is given differently (``base_model``)."""
    from transformers import AutoConfig
    kind = next((t for k, t in FAMILIES if k in str(base_model).lower()), "llama")
    folder = where / f"stand-in-{kind}"
    if not folder.is_dir():
        AutoConfig.for_model(kind, hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4,
                             num_key_value_heads=2, vocab_size=256).save_pretrained(folder)
    return str(folder)


LAUNCH_VIEW = ("world_size", "batch_size", "model_config_type", "torch_dtype", "bf16", "fp16", "tf32",
               "gradient_checkpointing", "sample_packing", "is_llama_derived_model", "lora_mlp_kernel")


def launch_path(text: str, caps: dict, files: dict, where: Path) -> dict:
    """``load_cfg`` on the file as ``axolotl train`` runs it on a rank (the module docstring); the card's
    capabilities stand in for the CLI's probe of the machine's GPU, a local ``config.json`` for the Hub's."""
    cfg = yaml.safe_load(text)
    cfg["base_model"] = _stand_in(cfg.get("base_model", ""), where)
    path = Path("axolotl.launch.yaml")
    path.write_text(yaml.safe_dump(cfg, sort_keys=False))
    saved = cli_config.gpu_capabilities
    cli_config.gpu_capabilities = lambda: (dict(caps), dict(ENV))
    saved_init = ds_comm.init_distributed
    # DeepSpeed exports: prepare_optim_env starts DeepSpeed's process group with NCCL, a GPU's backend; the
    # group of one is started with the CPU's (gloo) instead: the point where a GPU is needed.
    ds_comm.init_distributed = lambda *a, dist_backend=None, **k: saved_init(*a, dist_backend="gloo", **k)
    try:
        with lib.launched("accelerate.yaml" if "accelerate.yaml" in files else None):
            out = cli_config.load_cfg(str(path))
    finally:
        cli_config.gpu_capabilities = saved
        ds_comm.init_distributed = saved_init
        # a fresh process per rank: Axolotl's PartialState of this config (whose shared state ``launched`` resets)
        # must not answer for the next config's
        import axolotl.utils.distributed as axolotl_distributed
        axolotl_distributed.distributed_state = None
    return {k: lib.jsonable(out.get(k)) for k in LAUNCH_VIEW}


_STAND_INS = Path(tempfile.mkdtemp(prefix="axolotl-stand-in-"))
__import__("atexit").register(__import__("shutil").rmtree, _STAND_INS, True)


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
            try:
                view_launch = launch_path(files["axolotl.yaml"], caps, files, _STAND_INS)
            except BaseException as exc:  # noqa: BLE001
                errors.append(f"axolotl train (load_cfg): {lib.error_text(exc)}")
                view_launch = None
            base = _baseline(cfg.get("rl") == "dpo", cfg.get("adapter"), caps)
        finally:
            os.chdir(cwd)
    view = {}
    if out is not None:
        for key in VIEW:
            v = out.get(key)
            view[key] = lib.jsonable(dict(v) if hasattr(v, "items") else v)
    view["deepspeed"], view["accelerate"], view["launch"] = view_ds, view_acc, view_launch
    return {"ok": not errors, "errors": errors, "view": view, "new_warnings": [w for w in warns if w not in base]}


#: The card ``parse`` validates with: a bf16 card (``bf16: auto`` resolves to true), no FP8.
PARSE_CAPS = {"bf16": True, "fp8": False, "tf32": True, "n_gpu": 8, "n_node": 1, "compute_capability": "sm_90"}


def parse(request: dict) -> dict:
    """mode ``parse``: ``{"configs": [{"id", "main", "files": {path: text}}]}`` -> per config, the values Axolotl's
    ``validate_config`` gives the main file (``VIEW``), each file written at its path (a ``deepspeed:`` path as the
    example names it), on ``PARSE_CAPS``."""
    def one(entry: dict) -> dict:
        with tempfile.TemporaryDirectory() as tmp:
            for name, text in entry["files"].items():
                Path(tmp, name).parent.mkdir(parents=True, exist_ok=True)
                Path(tmp, name).write_text(text)
            cwd = os.getcwd()
            os.chdir(tmp)
            try:
                out, errors, _ = _validate(yaml.safe_load(entry["files"][entry["main"]]), PARSE_CAPS)
            finally:
                os.chdir(cwd)
        view = {}
        for key in (*VIEW, "float16", "bfloat16") if out is not None else ():   # the model's dtype switches too
            v = out.get(key)
            view[key] = lib.jsonable(dict(v) if hasattr(v, "items") else v)
        return {"ok": not errors, "errors": errors, "view": view}
    return {"results": lib.each(request["configs"], one)}


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
    lib.main({"check": check, "snapshot": snapshot, "parse": parse})
