"""Every export of the grid run through the framework's own code, one checker process per target (its venv is made
on first use from frameworks/<target>/requirements.txt, under .cache/frameworks): the framework accepts it, the keys
and enum values are in the framework's field lists, the framework reads the values the estimate assumed, and the
file causes no warning a minimal config of the same target does not. The committed field-list snapshots are
regenerated and must not differ."""
from __future__ import annotations

import json
from typing import Any

import pytest
import yaml

from calculator.export import TARGETS, export
from calculator.export._common import card_bf16
from calculator.export.axolotl import capabilities
from export_grid import GRID, words
from frameworks import snapshots, venv

pytestmark = pytest.mark.frameworks

_RESULTS: dict[str, dict] = {}
#: A checker that failed, kept for the module's other tests of that target: each would otherwise start it again
#: and wait as long (three tests x the 1,200 s limit were an hour of a CI run).
_FAILED: dict[str, BaseException] = {}


def _exports(target: str) -> dict[str, Any]:
    """The grid's files as the CLI writes them (English comments); test_trl_runs.py runs Arabic ones."""
    english = words("en")
    return {rid: export(req, target, text=english) for rid, req in GRID}


def results(target: str) -> tuple[dict[str, Any], dict[str, dict]]:
    """One checker run per target over the whole grid (imports are slow), kept for the module's tests."""
    exports = _exports(target)
    if target not in _RESULTS:
        configs = []
        for rid, e in exports.items():
            files = {n: t for n, t in e.files.items() if n != "measure.py"}
            entry: dict[str, Any] = {"id": rid, "files": files}
            if target == "axolotl":
                entry["capabilities"] = capabilities(e.request, e.request.get("gpu"))
            configs.append(entry)
        if target in _FAILED:
            raise RuntimeError(f"{target}'s checker already failed in this run") from _FAILED[target]
        try:
            out = json.loads(venv.run(target, json.dumps({"mode": "check", "configs": configs})))
        except BaseException as exc:
            _FAILED[target] = exc
            raise
        assert "fatal" not in out, out.get("fatal")
        _RESULTS[target] = out["results"]
    return exports, _RESULTS[target]


@pytest.mark.parametrize("target", TARGETS)
def test_the_framework_accepts_every_export(target: str) -> None:
    _, res = results(target)
    failed = {rid: r["errors"] for rid, r in res.items() if not r["ok"]}
    assert not failed, dict(list(failed.items())[:5])
    assert len(res) == len(GRID)


@pytest.mark.parametrize("target", TARGETS)
def test_no_warning_beyond_a_minimal_config(target: str) -> None:
    _, res = results(target)
    warned = {rid: r["new_warnings"] for rid, r in res.items() if r["new_warnings"]}
    assert not warned, dict(list(warned.items())[:5])


def _snapshot(target: str) -> dict:
    return json.loads((venv.HERE / target / "snapshot.json").read_text())


def _fields(snap: dict, *classes: str) -> set[str]:
    out: set[str] = set()
    for cls in classes:
        for name, entry in snap["classes"][cls].items():
            out.add(name)
            if entry.get("alias"):
                out.add(entry["alias"])
    return out


def _choices(snap: dict, cls: str, field: str) -> list | None:
    return snap["classes"][cls][field].get("choices")


def _check_accelerate(snap: dict, text: str, where: str) -> list[str]:
    acc = yaml.safe_load(text)
    lists = snap["accelerate"]
    bad = [f"{where}: {k}" for k in acc if k not in lists["ClusterConfig"]]
    if acc["distributed_type"] not in lists["DistributedType"]:
        bad.append(f"{where}: distributed_type {acc['distributed_type']}")
    for section in ("fsdp_config", "deepspeed_config"):
        bad += [f"{where}: {section}.{k}" for k in acc.get(section, {}) if k not in lists["launch_args"]]
    return bad


def _check_deepspeed(snap: dict, text: str) -> list[str]:
    ds = json.loads(text)
    lists = snap["deepspeed"]
    zero = ds["zero_optimization"]
    bad = [f"zero_optimization.{k}" for k in zero if k not in lists["zero_optimization"]]
    for sub in ("offload_optimizer", "offload_param"):
        bad += [f"zero_optimization.{sub}.{k}" for k in zero.get(sub, {}) if k not in lists[sub]]
    return bad


def _diff(target: str, e) -> list[str]:
    """Emitted keys and enum values that are not in the framework's own field lists."""
    snap = _snapshot(target)
    bad: list[str] = []
    files = e.files
    if "accelerate.yaml" in files:
        bad += _check_accelerate(snap, files["accelerate.yaml"], "accelerate.yaml")
    if "ds_config.json" in files:
        bad += _check_deepspeed(snap, files["ds_config.json"])
    if target == "trl":
        name = next((n for n in ("grpo.yaml", "dpo.yaml") if n in files), "sft.yaml")
        cfg = yaml.safe_load(files[name])
        script, trainer = {"grpo.yaml": ("GRPOScriptArguments", "GRPOConfig"),
                           "dpo.yaml": ("ScriptArguments", "DPOConfig")}.get(name, ("ScriptArguments", "SFTConfig"))
        known = _fields(snap, script, trainer, "ModelConfig", "DatasetMixtureConfig")
        bad += [k for k in cfg if k not in known]
        if cfg["optim"] not in snap["enums"]["OptimizerNames"]:
            bad.append(f"optim {cfg['optim']}")
        if cfg["dtype"] not in _choices(snap, "ModelConfig", "dtype"):
            bad.append(f"dtype {cfg['dtype']}")
        if "bnb_4bit_quant_type" in cfg and cfg["bnb_4bit_quant_type"] not in _choices(snap, "ModelConfig",
                                                                                       "bnb_4bit_quant_type"):
            bad.append("bnb_4bit_quant_type")
    elif target == "axolotl":
        cfg = yaml.safe_load(files["axolotl.yaml"])
        bad += [k for k in cfg if k not in _fields(snap, "AxolotlInputConfig")]
        bad += [f"fsdp_config.{k}" for k in cfg.get("fsdp_config", {}) if k not in _fields(snap, "FSDPConfig")]
        if cfg["optimizer"] not in snap["enums"]["optimizer"]:
            bad.append(f"optimizer {cfg['optimizer']}")
    elif target == "llamafactory":
        cfg = yaml.safe_load(files["llamafactory.yaml"])
        classes = ("ModelArguments", "DataArguments", "FinetuningArguments", "TrainingArguments")
        bad += [k for k in cfg if k not in _fields(snap, *classes)]
        if cfg["optim"] not in snap["enums"]["OptimizerNames"]:
            bad.append(f"optim {cfg['optim']}")
        if cfg["flash_attn"] not in _choices(snap, "ModelArguments", "flash_attn"):
            bad.append(f"flash_attn {cfg['flash_attn']}")
        for key, cls in (("stage", "FinetuningArguments"), ("finetuning_type", "FinetuningArguments"),
                         ("quantization_type", "ModelArguments"), ("infer_dtype", "ModelArguments")):
            if key in cfg and cfg[key] not in _choices(snap, cls, key):
                bad.append(f"{key} {cfg[key]}")
    elif target == "unsloth" and "unsloth.yaml" in files:
        cfg = yaml.safe_load(files["unsloth.yaml"])
        sections = {"data": "DataConfig", "training": "TrainingConfig", "lora": "LoraConfig"}
        bad += [k for k in cfg if k not in _fields(snap, "Config")]
        for section, cls in sections.items():
            bad += [f"{section}.{k}" for k in cfg.get(section, {}) if k not in _fields(snap, cls)]
    return bad


@pytest.mark.parametrize("target", TARGETS)
def test_every_key_and_value_is_in_the_framework_field_lists(target: str) -> None:
    bad = {rid: b for rid, e in _exports(target).items() if (b := _diff(target, e))}
    assert not bad, dict(list(bad.items())[:5])


def _expect(target: str, e) -> dict[str, Any]:
    """What the framework must end up with, from the request the export realises (its view names)."""
    k = e.request
    fsdp = k["sharding"] == "zero3" and not k["deepspeed"]
    if target == "trl":
        want = {"trainer.per_device_train_batch_size": k["micro_batch_size"],
                "trainer.gradient_accumulation_steps": k["grad_accum_steps"],
                "trainer.activation_checkpointing": k["gradient_checkpointing"] and not fsdp,
                "trainer.use_peft": k["method"] != "full"}
        if k["grpo"]:           # GRPOConfig after __post_init__, in the launched group's world size
            generator = k["grpo_generator"]
            want.update({"trainer.grpo.num_generations": k["grpo_num_generations"],
                         "trainer.grpo.max_completion_length": k["grpo_completion_len"],
                         "trainer.grpo.steps_per_generation": k["grpo_steps_per_generation"] or k["grad_accum_steps"],
                         "trainer.grpo.beta": k["grpo_beta"], "trainer.grpo.num_iterations": k["grpo_num_iterations"],
                         "trainer.grpo.loss_type": k["grpo_loss_type"],
                         "trainer.grpo.use_vllm": generator != "transformers",
                         "trainer.grpo.reward_funcs": ["reward.length_reward"],
                         "trainer.activation_offloading": None})    # GRPOConfig has no such field
            if generator != "transformers":
                want["trainer.grpo.vllm_mode"] = generator.removeprefix("vllm_")
            if generator == "vllm_colocate":
                want.update({"trainer.grpo.vllm_gpu_memory_utilization": k["vllm_gpu_memory_utilization"],
                             "trainer.grpo.vllm_enable_sleep_mode": k["vllm_enable_sleep_mode"],
                             "trainer.grpo.vllm_max_model_length": k["vllm_max_model_length"]})
        else:
            want.update({"trainer.max_length": k["seq_len"],
                         "trainer.activation_offloading": k["activation_offloading"]})
        if k["method"] != "full":
            want["trainer.lora.r"] = k["lora_rank"]
        if k["precision"] != "fp32":        # the half dtype the estimate counts (half_dtype on this card)
            half = "bf16" if card_bf16(k.get("gpu")) else "fp16"
            want.update({"trainer.bf16": half == "bf16", "trainer.fp16": half == "fp16"})
        if k["method"] == "qlora":
            want["trainer.quantization.bnb_4bit_use_double_quant"] = str(k["double_quant"])
            want["trainer.quantization.bnb_4bit_quant_type"] = "nf4"
            # the request's QLoRA compute dtype and storage, as transformers' BitsAndBytesConfig holds them
            want["trainer.quantization.bnb_4bit_compute_dtype"] = str(
                {"fp32": "float32", "bf16": "bfloat16"}[k["qlora_compute_dtype"]] if card_bf16(k.get("gpu"))
                or k["qlora_compute_dtype"] == "fp32" else "float16")
            want["trainer.quantization.bnb_4bit_quant_storage"] = (
                "uint8" if k["quant_storage"] == "uint8" else "bfloat16" if card_bf16(k.get("gpu")) else "float16")
        if k["num_gpus"] > 1 or k["sharding"] != "none":
            want["accelerate.num_processes"] = k["num_gpus"]
        if fsdp or (k["sharding"] == "zero2" and not k["deepspeed"]):
            want.update({"accelerate.fsdp_version": k["fsdp_version"],
                         "accelerate.cpu_ram_efficient_loading": k["cpu_ram_efficient_loading"]})
        if fsdp:
            want.update({"accelerate.fsdp_version": 2, "accelerate.offload_params": k["cpu_offload"],
                         "accelerate.activation_checkpointing": k["gradient_checkpointing"]})
        if k["deepspeed"]:
            stage = {"zero1": 1, "zero2": 2, "zero3": 3}[k["sharding"]]
            want.update({"deepspeed.stage": stage,
                         "deepspeed.offload_optimizer": "cpu" if k["cpu_offload"] else "none",
                         # the plugin every rank builds from accelerate launch's environment (TrainingArguments)
                         "accelerate.distributed": "DEEPSPEED", "accelerate.plugin_zero_stage": stage,
                         "accelerate.plugin_offload_optimizer": "cpu" if k["cpu_offload"] else "none",
                         "accelerate.plugin_bf16": k["precision"] != "fp32" and card_bf16(k.get("gpu")),
                         "accelerate.plugin_fp16": k["precision"] != "fp32" and not card_bf16(k.get("gpu"))})
    elif target == "axolotl":
        want = {"micro_batch_size": k["micro_batch_size"], "gradient_accumulation_steps": k["grad_accum_steps"],
                "sequence_len": k["seq_len"], "gradient_checkpointing": k["gradient_checkpointing"] and not fsdp,
                "adapter": None if k["method"] == "full" else k["method"],
                # the dtype normalize_config resolves on the launch path (load_cfg), as the estimate counts it
                "launch.torch_dtype": "torch.float32" if k["precision"] == "fp32" else
                "torch.bfloat16" if card_bf16(k.get("gpu")) else "torch.float16"}
        if k["method"] != "full":
            want["lora_r"] = k["lora_rank"]
            want["lora_mlp_kernel"] = False
    elif target == "llamafactory":
        want = {"llamafactory.per_device_train_batch_size": k["micro_batch_size"],
                "llamafactory.disable_gradient_checkpointing": (not k["gradient_checkpointing"]) or fsdp,
                "llamafactory.finetuning_type": "full" if k["method"] == "full" else "lora",
                "llamafactory.deepspeed": k["deepspeed"]}
        if k["method"] == "qlora":
            want["llamafactory.double_quantization"] = k["double_quant"]
    else:
        want = {"script.from_pretrained.max_seq_length": k["seq_len"],
                "script.from_pretrained.load_in_4bit": k["method"] == "qlora",
                "script.from_pretrained.full_finetuning": k["method"] == "full"}
    return want


def _get(view: dict, path: str) -> Any:
    node: Any = view
    for part in path.split("."):
        if not isinstance(node, dict) or part not in node:
            return "<missing>"
        node = node[part]
    return node


@pytest.mark.parametrize("target", TARGETS)
def test_the_framework_reads_the_estimates_values(target: str) -> None:
    exports, res = results(target)
    wrong = {}
    for rid, e in exports.items():
        for path, value in _expect(target, e).items():
            got = _get(res[rid]["view"], path)
            if got != value:
                wrong.setdefault(rid, []).append((path, value, got))
    assert not wrong, dict(list(wrong.items())[:5])


@pytest.mark.parametrize("target", TARGETS)
def test_field_list_snapshot_is_current(target: str) -> None:
    """``make snapshots`` wrote frameworks/<target>/snapshot.json from the pinned framework; it must still hold."""
    committed = (venv.HERE / target / "snapshot.json").read_text()
    assert snapshots.text(snapshots.snapshot(target)) == committed, f"run `make snapshots` and review {target}"
