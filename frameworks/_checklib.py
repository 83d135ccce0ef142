"""Helpers every checker shares (copied into nothing: each checker imports this file by path from its venv).

Standard library only, so it runs in any target's venv: capture of warnings and framework log records, a dataclass
field snapshot, JSON in and out.
"""
from __future__ import annotations

import contextlib
import dataclasses
import enum
import faulthandler
import io
import json
import logging
import re
import sys
import traceback
import typing
import warnings

#: The answer goes to the real stdout; everything the frameworks print (at import too) goes to stderr.
REAL_STDOUT = sys.stdout
sys.stdout = sys.stderr

LOGGERS = ("transformers", "trl", "accelerate", "peft", "DeepSpeed", "deepspeed", "bitsandbytes", "axolotl",
           "llamafactory", "datasets", "torch")


#: Warnings about this CPU machine and the check's one-rank group, not about a config (the exports are for the
#: chosen GPU): not counted.
MACHINE_WARNINGS = (
    "mostly come with GPU Ampere or higher and which is not detected here",   # transformers, torch_compile on CPU
    "Setting accelerator to CPU",                                             # DeepSpeed without a GPU
    # transformers, when a rank's process group has one process (``launch`` stands one rank in for the config's
    # N, whose group would wait for the others): parallel_mode is DISTRIBUTED only above one process
    "process group is initialized, but parallel_mode != ParallelMode.DISTRIBUTED",
)


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.records.append(f"log:{record.name.split('.')[0]}:{record.getMessage()}")
        except Exception:  # noqa: BLE001
            self.records.append(f"log:{record.name}:{record.msg}")


def _normal(message: str) -> str:
    """A warning without the parts that change from one config to another (paths, numbers)."""
    message = re.sub(r"/tmp/[^\s'\"]+", "<path>", message)
    return re.sub(r"\d+", "N", message)[:300]


@contextlib.contextmanager
def captured():
    """Collect every warning and every WARNING+ log record of the frameworks' loggers (and stderr) inside."""
    handler = _Collect()
    loggers = [logging.getLogger(name) for name in LOGGERS] + [logging.getLogger()]
    for lg in loggers:
        lg.addHandler(handler)
    try:
        import transformers.utils.logging as tl  # warning_once is an lru_cache: clear it so each config warns anew
        tl.warning_once.cache_clear() if hasattr(tl.warning_once, "cache_clear") else None
        tl.disable_default_handler()
        tl.enable_propagation()
    except Exception:  # noqa: BLE001 - not every venv has transformers
        pass
    out: list[str] = []
    err = io.StringIO()
    with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stderr(err):
        warnings.simplefilter("always")
        try:
            yield out
        finally:
            for lg in loggers:
                lg.removeHandler(handler)
            seen = set()
            for w in caught:
                text = f"warning:{w.category.__name__}:{_normal(str(w.message))}"
                if any(m in text for m in MACHINE_WARNINGS):
                    continue
                if text not in seen:
                    seen.add(text)
                    out.append(text)
            for rec in handler.records:
                text = _normal(rec)
                if any(m in text for m in MACHINE_WARNINGS):
                    continue
                if text not in seen:
                    seen.add(text)
                    out.append(text)


def type_name(tp: typing.Any) -> str:
    if isinstance(tp, str):
        return tp
    return getattr(tp, "__name__", None) or str(tp).replace("typing.", "")


def _default(f: dataclasses.Field) -> typing.Any:
    if f.default is not dataclasses.MISSING:
        value = f.default
    elif f.default_factory is not dataclasses.MISSING:  # type: ignore[misc]
        try:
            value = f.default_factory()  # type: ignore[misc]
        except Exception:  # noqa: BLE001
            return "<factory>"
    else:
        return "<required>"
    return jsonable(value)


def jsonable(value: typing.Any) -> typing.Any:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    return repr(value)


def type_choices(tp: typing.Any) -> list | None:
    """The values a Literal or an Enum type (also inside Optional/Union) admits, or None."""
    if typing.get_origin(tp) is typing.Literal:
        return [jsonable(a) for a in typing.get_args(tp)]
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return [m.value for m in tp]
    for arg in typing.get_args(tp) if typing.get_origin(tp) in (typing.Union, getattr(__import__("types"),
                                                                                     "UnionType", None)) else ():
        found = type_choices(arg)
        if found:
            return found
    return None


def dataclass_fields(cls: type) -> dict[str, dict[str, typing.Any]]:
    """name -> {type, default, choices} of a dataclass (HfArgumentParser's view of a config class)."""
    out: dict[str, dict[str, typing.Any]] = {}
    hints = {}
    try:
        hints = typing.get_type_hints(cls)
    except Exception:  # noqa: BLE001
        pass
    for f in dataclasses.fields(cls):
        if not f.init:
            continue
        tp = hints.get(f.name, f.type)
        entry = {"type": type_name(tp), "default": _default(f)}
        choices = (f.metadata.get("choices") if f.metadata else None) or type_choices(tp)
        if choices:
            entry["choices"] = [jsonable(c) for c in choices]
        out[f.name] = entry
    return dict(sorted(out.items()))


def changed_fields(plain: typing.Sequence[typing.Any], given: typing.Sequence[typing.Any]) -> list[str]:
    """The dotted names (``Class.field``) of every dataclass field whose value differs between two parses of the
    same argument classes, sorted: what a command line's overrides change (TRL's and LLaMA-Factory's checkers)."""
    changed = []
    for a, b in zip(plain, given):
        for f in dataclasses.fields(a):
            if f.name in ("logging_dir",):          # derived from output_dir by TrainingArguments
                continue
            if repr(getattr(a, f.name)) != repr(getattr(b, f.name)):
                changed.append(f"{type(a).__name__}.{f.name}")
    return sorted(changed)


#: Seconds one config may take: the imports come before the first, and LLaMA-Factory's 160 configs then take 6.5 s
#: in all here (0.13 s the slowest). A config past it ends the checker with every thread's stack on stderr below
#: the config's id, instead of a silent wait until the test's subprocess limit.
DEADLINE = 300


@contextlib.contextmanager
def deadline(config_id: str, seconds: float = DEADLINE):
    """Name the config on the real stderr, and end the process (exit 1, stacks dumped) if it is not done in time.
    faulthandler's watchdog is a C thread: it fires even when the main thread is stuck in native code holding the
    GIL (a compiler run, a socket wait)."""
    sys.__stderr__.write(f"checking {config_id}\n")
    sys.__stderr__.flush()
    faulthandler.dump_traceback_later(seconds, exit=True, file=sys.__stderr__)
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()


def deepspeed_without_shm_op() -> None:
    """DeepSpeed says once which accelerator it found (said before any config is checked); and its ``deepspeed.comm``
    torch backend, when the first DeepSpeed config starts a group on this CPU, compiles (g++ through ninja, into
    ~/.cache/torch_extensions: 60 s here) and initializes a shared-memory all-reduce op, a step that never finished on
    CI (the checker waited out its limit). Checking a config runs no collective: no op. (``import_module``, not
    ``import deepspeed.comm.torch as``: that name is torch itself, star-imported by the package.)"""
    try:
        from deepspeed.accelerator import get_accelerator
    except ImportError:  # pragma: no cover
        return
    get_accelerator()
    import importlib
    importlib.import_module("deepspeed.comm.torch").build_shm_op = lambda: None


def each(configs: list[dict], one: typing.Callable[[dict], dict]) -> dict[str, dict]:
    """``{id: one(config)}`` over a check request's configs, each under its ``deadline``."""
    results = {}
    for config in configs:
        with deadline(config["id"]):
            results[config["id"]] = one(config)
    return results


def main(handlers: dict[str, typing.Callable[[dict], typing.Any]]) -> None:
    """Read ``{"mode": ..., ...}`` from stdin, answer the handler's result as JSON on stdout (one line)."""
    request = json.load(sys.stdin)
    try:
        result = handlers[request["mode"]](request)
    except Exception:  # noqa: BLE001
        result = {"fatal": traceback.format_exc()[-4000:]}
    json.dump(result, REAL_STDOUT, default=repr)
    REAL_STDOUT.write("\n")
    REAL_STDOUT.flush()


def error_text(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"[:2000]


def _rank_env() -> dict:
    """What torchrun adds for rank 0 (``torch.distributed.run``), in a group of one: the trainer's arguments make
    the process group right away (``TrainingArguments.__post_init__`` reads ``self.device``), and a group of the
    config's size would wait for ranks that are not started here. A free port, so that parallel checks do not meet."""
    import socket
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return {"RANK": "0", "LOCAL_RANK": "0", "WORLD_SIZE": "1", "LOCAL_WORLD_SIZE": "1", "GROUP_RANK": "0",
            "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": str(port)}


def launch(path: str, script: str = "train.py") -> tuple[typing.Any, dict]:
    """``accelerate launch --config_file path script`` run by accelerate's own ``launch_command`` (its argument
    parser, ``_validate_launch_command``, the choice of launcher and the launcher's ``prepare_*_env``), stopped where
    the launcher would start the processes: the launcher's arguments and the environment one rank starts with."""
    import accelerate.commands.launch as launch_module
    from accelerate.utils import launch as launch_utils
    captured: dict = {}

    def stop(prepare):
        def launcher(args, *rest):
            env = prepare(args)
            captured.update(args=args, env=env[1] if isinstance(env, tuple) else env)
        return launcher

    saved = {name: getattr(launch_module, name) for name in ("deepspeed_launcher", "multi_gpu_launcher",
                                                             "simple_launcher")}
    launch_module.deepspeed_launcher = stop(launch_utils.prepare_deepspeed_cmd_env)
    launch_module.multi_gpu_launcher = stop(launch_utils.prepare_multi_gpu_env)
    launch_module.simple_launcher = stop(launch_utils.prepare_simple_launcher_cmd_env)
    try:
        args = launch_module.launch_command_parser().parse_args(["--config_file", path, script])
        launch_module.launch_command(args)
    finally:
        for name, fn in saved.items():
            setattr(launch_module, name, fn)
    if "env" not in captured:
        raise RuntimeError("accelerate launch chose a launcher the check does not stop at")
    args = captured["args"]
    env = dict(captured["env"], **_rank_env())
    return args, env


@contextlib.contextmanager
def launched(path: str | None):
    """Inside: ``os.environ`` is the environment a rank of ``accelerate launch --config_file path`` starts with
    (``launch``), or with no path the process's own plus what torchrun gives rank 0 of a group of one; after, the
    process's own again (whatever the code inside set), no process group and no DeepSpeed config left registered
    for later configs."""
    import os
    args, env = launch(path) if path is not None else (None, dict(os.environ, **_rank_env()))
    saved = dict(os.environ)
    os.environ.clear()
    os.environ.update(env)
    try:
        yield args, env
    finally:
        os.environ.clear()
        os.environ.update(saved)
        try:
            from transformers.integrations.deepspeed import unset_hf_deepspeed_config
            unset_hf_deepspeed_config()
        except ImportError:
            pass
        from accelerate.state import AcceleratorState
        AcceleratorState._reset_state(reset_partial_state=True)
        import torch.distributed as dist
        if dist.is_available() and dist.is_initialized():
            dist.destroy_process_group()


def accelerate_view(path: str, deepspeed_plugin: typing.Any = None) -> dict:
    """What ``accelerate launch --config_file path`` makes of the file on each rank: accelerate's own launch path
    (``launch``) and the plugin built from that environment as a rank builds it: ``FullyShardedDataParallelPlugin()``
    (what ``Accelerator`` makes when the trainer passes none), and for DeepSpeed the ``DeepSpeedPlugin`` the caller
    built inside ``launched`` (the trainer's arguments build it: ``TrainingArguments.__post_init__``), else
    ``DeepSpeedPlugin()`` built here from the environment."""
    with launched(path) as (args, env):
        view = {"num_processes": args.num_processes, "mixed_precision": env.get("ACCELERATE_MIXED_PRECISION")}
        if env.get("ACCELERATE_USE_FSDP") == "true":
            from accelerate.utils import FullyShardedDataParallelPlugin
            plugin = FullyShardedDataParallelPlugin()
            view.update(distributed="FSDP", fsdp_version=plugin.fsdp_version,
                        reshard_after_forward=plugin.reshard_after_forward,
                        # FSDP1: CPUOffload(offload_params=...); FSDP2: a CPUOffloadPolicy, or OffloadPolicy() for none
                        offload_params=bool(getattr(plugin.cpu_offload, "offload_params",
                                                    type(plugin.cpu_offload).__name__ == "CPUOffloadPolicy")),
                        activation_checkpointing=plugin.activation_checkpointing,
                        auto_wrap_policy=str(plugin.auto_wrap_policy), state_dict_type=str(plugin.state_dict_type),
                        cpu_ram_efficient_loading=plugin.cpu_ram_efficient_loading)
        elif env.get("ACCELERATE_USE_DEEPSPEED") == "true":
            if deepspeed_plugin is None:
                from accelerate.utils import DeepSpeedPlugin
                deepspeed_plugin = DeepSpeedPlugin()
            view.update(distributed="DEEPSPEED", deepspeed_config_file=env.get("ACCELERATE_DEEPSPEED_CONFIG_FILE"),
                        zero3_init=env.get("ACCELERATE_DEEPSPEED_ZERO3_INIT"),
                        **deepspeed_plugin_view(deepspeed_plugin))
        else:
            view.update(distributed="MULTI_GPU" if args.multi_gpu else "NO")
    return view


def deepspeed_plugin_view(plugin: typing.Any) -> dict:
    """The built ``DeepSpeedPlugin``: its ZeRO stage, offload and the precision its config ends up with."""
    cfg = plugin.deepspeed_config
    return {"plugin_zero_stage": plugin.zero_stage, "plugin_offload_optimizer": plugin.offload_optimizer_device,
            "plugin_bf16": (cfg.get("bf16") or {}).get("enabled"), "plugin_fp16": (cfg.get("fp16") or {}).get("enabled")}


def fill_auto(ds: dict, micro: int, accum: int) -> dict:
    import copy

    """What the HF integration puts for "auto" (transformers/integrations/deepspeed.py trainer_config_process)."""
    out = copy.deepcopy(ds)
    for key, value in (("train_micro_batch_size_per_gpu", micro), ("gradient_accumulation_steps", accum),
                       ("gradient_clipping", 1.0)):
        if out.get(key) == "auto":
            out[key] = value
    out["train_batch_size"] = micro * accum
    for half in ("bf16", "fp16"):
        if isinstance(out.get(half), dict) and out[half].get("enabled") == "auto":
            out[half]["enabled"] = True
    zero = out.get("zero_optimization", {})
    for key in ("reduce_bucket_size", "stage3_prefetch_bucket_size", "stage3_param_persistence_threshold"):
        if zero.get(key) == "auto":
            zero[key] = 4096 * 4096
    return out


def deepspeed_view(path: str, micro: int, accum: int) -> dict:
    """``HfDeepSpeedConfig`` on the file as written and ``DeepSpeedConfig`` after the HF integration's "auto" fill."""
    import copy
    from pathlib import Path
    from deepspeed.runtime.config import DeepSpeedConfig
    from transformers.integrations.deepspeed import HfDeepSpeedConfig
    raw = json.loads(Path(path).read_text())
    HfDeepSpeedConfig(copy.deepcopy(raw))
    cfg = DeepSpeedConfig(fill_auto(raw, micro, accum))
    zero = cfg.zero_config
    return {"stage": int(zero.stage), "offload_optimizer": str(getattr(zero.offload_optimizer, "device", None)),
            "offload_param": str(getattr(zero.offload_param, "device", None)),
            "reduce_bucket_size": int(zero.reduce_bucket_size), "bf16": cfg.bfloat16_config.enabled
            if hasattr(cfg, "bfloat16_config") else None}


def accelerate_lists() -> dict:
    """accelerate's config fields, the launcher's ``--fsdp_*``/``--deepspeed_*`` options (the inner keys of an
    accelerate config, which accelerate itself does not check) and its distributed types."""
    import accelerate
    from accelerate.commands.config.config_args import ClusterConfig
    from accelerate.commands.launch import launch_command_parser
    parser = launch_command_parser()
    launch = sorted(a.dest for a in parser._actions if a.dest.startswith(("fsdp_", "deepspeed_", "zero3_", "offload_",
                                                                          "zero_")))
    return {"version": accelerate.__version__, "ClusterConfig": dataclass_fields(ClusterConfig),
            "launch_args": launch, "DistributedType": sorted(d.value for d in accelerate.DistributedType)}


def deepspeed_lists() -> dict:
    """DeepSpeed's ZeRO config fields with their JSON aliases (``stage3_*``), and its offload configs'."""
    import deepspeed
    from deepspeed.runtime.zero.config import DeepSpeedZeroConfig
    from deepspeed.runtime.zero.offload_config import DeepSpeedZeroOffloadOptimizerConfig, DeepSpeedZeroOffloadParamConfig

    def names(model) -> list:
        return sorted({n for n in model.model_fields} | {f.alias for f in model.model_fields.values() if f.alias})

    return {"version": deepspeed.__version__, "zero_optimization": names(DeepSpeedZeroConfig),
            "offload_optimizer": names(DeepSpeedZeroOffloadOptimizerConfig),
            "offload_param": names(DeepSpeedZeroOffloadParamConfig)}
