"""Reading configs people paste: the frameworks' YAML dialect, their defaults for what a file leaves out, unread keys,
and contradictions answered as codes naming the field."""
from __future__ import annotations

import json

import pytest
import yaml

from calculator import frameworks
from calculator.export import read
from calculator.export._yaml import dump, load, scalar

pytestmark = pytest.mark.unit


def test_yaml_dialect_is_pyyamls() -> None:
    """The frameworks read YAML 1.1 through PyYAML: yes/no/on/off are booleans, 017 is octal, 2e-4 is a string."""
    text = "a: yes\nb: no\nc: on\nd: off\ne: 017\nf: 2e-4\ng: 2.0e-4\nh: y\ni: 0x1f\nj: 1_000\nk: ~\nl: 12:30\n"
    assert load(text) == yaml.safe_load(text)
    assert load(text)["e"] == 15 and load(text)["f"] == "2e-4" and load(text)["a"] is True


@pytest.mark.parametrize("value", [True, False, 0, 17, -3, 0.0002, 1e-05, 2.5e20, 1.0, "yes", "no", "on", "017",
                                   "2e-4", "null", "all-linear", "<EDIT: dataset>", "a: b", "q_proj", "x#y", ""])
def test_written_scalars_read_back_the_same(value) -> None:
    text = "\n".join(dump([("k", value, "why")])) + "\n"
    assert yaml.safe_load(text)["k"] == value
    assert load(text)["k"] == value
    assert scalar(value) in text


def _read(target: str, text: str, **more: str) -> object:
    return read(target, {"config.yaml": text, **more})


def test_a_minimal_trl_file_gets_trls_defaults() -> None:
    r = _read("trl", "model_name_or_path: meta-llama/Llama-3.1-8B\nuse_peft: on\nload_in_4bit: yes\n"
                     "dataset_name: x\noutput_dir: o\nlearning_rate: 2e-4\n")
    assert not r.errors, r.errors
    q = r.request
    d = frameworks.defaults("trl", request={"method": "qlora"})
    assert q["model"] == "llama-3.1-8b" and q["method"] == "qlora"
    assert q["precision"] == "mixed" and q["base_fp32"] is True                 # ModelConfig.dtype float32
    assert q["gradient_checkpointing"] is True and q["double_quant"] is False
    assert q["micro_batch_size"] == d["micro_batch_size"] == 8 and q["seq_len"] == 1024
    assert q["optimizer"] == "adamw_torch_fused" and q["lora_dropout"] == 0.05
    assert q["lora_targets"] == ["q_proj", "v_proj"] and q["fused_linear_cross_entropy"] is True
    assert {u["key"] for u in r.unread} == {"learning_rate"}


def test_other_frameworks_defaults() -> None:
    lf = _read("llamafactory", "model_name_or_path: meta-llama/Llama-3.1-8B\nstage: sft\nfinetuning_type: lora\n"
                               "quantization_bit: 4\n").request
    assert lf["gradient_checkpointing"] is True and lf["lora_rank"] == 8 and lf["double_quant"] is True
    ax = _read("axolotl", "base_model: meta-llama/Llama-3.1-8B\nadapter: qlora\nload_in_4bit: true\n").request
    assert ax["double_quant"] is True and ax["gradient_checkpointing"] is False and ax["micro_batch_size"] == 1
    un = _read("unsloth", "model: meta-llama/Llama-3.1-8B\ntraining: {max_seq_length: 4096}\n").request
    assert un["method"] == "qlora" and un["lora_rank"] == 64 and un["optimizer"] == "adamw_8bit"
    assert un["gradient_checkpointing"] is True and un["activation_offloading"] is True


def test_target_is_told_from_the_keys() -> None:
    assert read("auto", {"a.yaml": "base_model: x\n"}).target == "axolotl"
    assert read("auto", {"a.yaml": "stage: sft\n"}).target == "llamafactory"
    assert read("auto", {"a.yaml": "model_name_or_path: x\n"}).target == "trl"
    assert read("auto", {"a.yaml": "training: {}\n"}).target == "unsloth"
    assert read("auto", {"a.yaml": "base_model: x\n", "b.yaml": "stage: sft\n"}).errors[0]["code"] == \
        "unknown_target"


@pytest.mark.parametrize("target, text, more, field", [
    ("trl", "bf16: true\nfp16: true\n", {}, "fp16"),
    ("trl", "activation_checkpointing: true\ngradient_checkpointing: false\n", {}, "gradient_checkpointing"),
    ("trl", "load_in_4bit: true\n", {}, "load_in_4bit"),
    ("trl", "bf16: true\nper_device_train_batch_size: 2\n",
     {"accelerate.yaml": "distributed_type: MULTI_GPU\nnum_processes: 2\nmixed_precision: fp16\n"}, "mixed_precision"),
    ("trl", "per_device_train_batch_size: 2\n",
     {"ds.json": json.dumps({"train_micro_batch_size_per_gpu": 4, "zero_optimization": {"stage": 3}})},
     "train_micro_batch_size_per_gpu"),
    ("axolotl", "base_model: x\nadapter: qlora\n", {}, "load_in_4bit"),
    ("llamafactory", "stage: sft\nfinetuning_type: full\nquantization_bit: 4\n", {}, "quantization_bit"),
])
def test_contradictions_name_the_field(target, text, more, field) -> None:
    r = read(target, {"config.yaml": "model_name_or_path: meta-llama/Llama-3.1-8B\n" + text
                      if target == "trl" else text, **more})
    assert r.request is None
    assert {"contradiction"} == {e["code"] for e in r.errors}, r.errors
    assert field in {e["field"] for e in r.errors}


def test_bad_text_and_values_are_codes() -> None:
    r = read("trl", {"run.yaml": "a: [1, 2\n"})
    assert r.errors[0]["code"] == "invalid_yaml" and r.errors[0]["field"] == "line 2" and r.request is None
    r = read("trl", {"ds.json": "{bad"})
    assert r.errors[0]["code"] == "invalid_json"
    r = _read("trl", "model_name_or_path: meta-llama/Llama-3.1-8B\noptim: lion_32bit\n")
    assert r.errors == ({"code": "not_modelled", "file": "config.yaml", "field": "optim"},)
    r = _read("trl", "model_name_or_path: meta-llama/Llama-3.1-8B\nper_device_train_batch_size: many\n")
    assert r.errors[0]["code"] == "wrong_type" and r.errors[0]["field"] == "per_device_train_batch_size"
    r = _read("trl", "model_name_or_path: someone/unknown-model\n")
    assert not r.errors and "model" not in r.request
    assert r.unread[0]["code"] == "unknown_model"


def test_companions_set_the_gpus_and_the_sharding() -> None:
    r = read("trl", {"sft.yaml": "model_name_or_path: meta-llama/Llama-3.1-8B\nuse_peft: true\n"
                                 "dtype: bfloat16\ngradient_accumulation_steps: 4\n",
                     "accelerate.yaml": "distributed_type: FSDP\nnum_processes: 4\nmixed_precision: bf16\n"
                                        "fsdp_config:\n  fsdp_version: 2\n  fsdp_offload_params: true\n"})
    q = r.request
    assert (q["num_gpus"], q["sharding"], q["cpu_offload"], q["offload_params"], q["deepspeed"]) == (
        4, "zero3", True, True, False)
    assert q["no_sync_accumulation"] is True        # HF Trainer accumulates under no_sync unless sync_each_batch
    r = read("trl", {"sft.yaml": "model_name_or_path: meta-llama/Llama-3.1-8B\n",
                     "ds.json": json.dumps({"zero_optimization": {"stage": 2, "offload_optimizer": {"device": "cpu"},
                                                                  "reduce_bucket_size": "auto"}}),
                     "accelerate.yaml": "distributed_type: DEEPSPEED\nnum_processes: 8\n"})
    q = r.request
    assert (q["sharding"], q["deepspeed"], q["cpu_offload"], q["reduce_bucket_size"]) == ("zero2", True, True,
                                                                                          4096 * 4096)


_AXO = ("base_model: meta-llama/Llama-3.1-8B\nadapter: qlora\nload_in_4bit: true\nlora_r: 16\n"
        "lora_target_linear: true\nmicro_batch_size: 2\nbf16: true\n")
_TRL = "model_name_or_path: meta-llama/Llama-3.1-8B\nuse_peft: true\nper_device_train_batch_size: 2\n"
_LF = "model_name_or_path: meta-llama/Llama-3.1-8B\nstage: sft\nfinetuning_type: lora\nlora_target: all\n"
_FSDP = "distributed_type: FSDP\nnum_processes: 2\nmixed_precision: bf16\n"
_DS = {"zero_optimization": {"stage": 2}, "bf16": {"enabled": "auto"}}


def _ds_with(**changes: object) -> str:
    ds = json.loads(json.dumps(_DS))
    for path, value in changes.items():
        *outer, last = path.split("__")
        cur = ds
        for key in outer:
            cur = cur.setdefault(key, {})
        cur[last] = value
    return json.dumps(ds)


@pytest.mark.parametrize("files, file, field", [
    # DeepSpeed sections that are not mappings (reliability review R5)
    ({"axolotl.yaml": _AXO + "deepspeed: ds_config.json\n", "ds_config.json": _ds_with(bf16=True)},
     "ds_config.json", "bf16"),
    ({"axolotl.yaml": _AXO + "deepspeed: ds_config.json\n", "ds_config.json": _ds_with(bf16="auto")},
     "ds_config.json", "bf16"),
    ({"axolotl.yaml": _AXO + "deepspeed: ds_config.json\n",
      "ds_config.json": _ds_with(zero_optimization__offload_optimizer="cpu")},
     "ds_config.json", "zero_optimization.offload_optimizer"),
    ({"axolotl.yaml": _AXO + "deepspeed: ds_config.json\n",
      "ds_config.json": _ds_with(zero_optimization__offload_param=[1])},
     "ds_config.json", "zero_optimization.offload_param"),
    # accelerate sections
    ({"sft.yaml": _TRL, "accelerate.yaml": _FSDP + "fsdp_config: [a, b]\n"}, "accelerate.yaml", "fsdp_config"),
    ({"sft.yaml": _TRL, "accelerate.yaml": _FSDP + "fsdp_config: full\n"}, "accelerate.yaml", "fsdp_config"),
    ({"sft.yaml": _TRL, "accelerate.yaml": "distributed_type: DEEPSPEED\nnum_processes: 2\ndeepspeed_config: 3\n"},
     "accelerate.yaml", "deepspeed_config"),
    ({"sft.yaml": _TRL, "accelerate.yaml": "distributed_type: DEEPSPEED\nnum_processes: 2\ndeepspeed_config: true\n"},
     "accelerate.yaml", "deepspeed_config"),
    # names that are lists or mappings
    ({"sft.yaml": _TRL + "attn_implementation: [sdpa]\n"}, "sft.yaml", "attn_implementation"),
    ({"axolotl.yaml": _AXO + "attn_implementation: {a: 1}\n"}, "axolotl.yaml", "attn_implementation"),
    ({"llamafactory.yaml": _LF + "flash_attn: [fa2]\n"}, "llamafactory.yaml", "flash_attn"),
    ({"llamafactory.yaml": _LF + "flash_attn: {a: 1}\n"}, "llamafactory.yaml", "flash_attn"),
    # Axolotl's bitsandbytes keywords, TRL's accelerator_config under FSDP
    ({"axolotl.yaml": _AXO + "bnb_config_kwargs: [1, 2]\n"}, "axolotl.yaml", "bnb_config_kwargs"),
    ({"axolotl.yaml": _AXO + "bnb_config_kwargs: text\n"}, "axolotl.yaml", "bnb_config_kwargs"),
    ({"sft.yaml": _TRL + "gradient_accumulation_steps: 4\naccelerator_config:\n  gradient_accumulation_kwargs: 3\n",
      "accelerate.yaml": _FSDP + "fsdp_config:\n  fsdp_version: 2\n"},
     "sft.yaml", "accelerator_config.gradient_accumulation_kwargs"),
    ({"sft.yaml": _TRL + "gradient_accumulation_steps: 4\naccelerator_config: [1]\n",
      "accelerate.yaml": _FSDP + "fsdp_config:\n  fsdp_version: 2\n"}, "sft.yaml", "accelerator_config"),
])
def test_a_value_of_the_wrong_kind_is_wrong_type_naming_file_and_key(files, file, field) -> None:
    """Reliability review R5: a section or a name of the wrong type is ``wrong_type`` naming the file and the key,
    never ``internal_error``."""
    from calculator.export import answer_read
    out = answer_read({"target": "auto", "files": files})
    assert not out["ok"]
    assert {"code": "wrong_type", "file": file, "field": field} in out["errors"], out["errors"]


@pytest.mark.parametrize("text", [".inf", "-.inf", ".nan"])
def test_non_finite_numbers_never_reach_an_answer(text) -> None:
    """Reliability review R8: an unread key's non-finite value is listed as None, a read one is ``out_of_range``,
    and every answer is strict JSON."""
    from calculator.export import answer_read
    out = answer_read({"target": "auto", "files": {"sft.yaml": _TRL + f"warmup_ratio: {text}\n"}})
    assert out["ok"]
    json.dumps(out, allow_nan=False)
    assert [u["value"] for u in out["read"]["unread"] if u["key"] == "warmup_ratio"] == [None]
    out = answer_read({"target": "auto", "files": {"sft.yaml": _TRL + f"num_train_epochs: {text}\n"}})
    json.dumps(out, allow_nan=False)
    assert {"code": "out_of_range", "file": "sft.yaml", "field": "num_train_epochs"} in out["errors"]


def test_cli_import_json_is_strict_json(tmp_path, capsys) -> None:
    """Reliability review R8: ``--import x.yaml --json`` with an unread ``.inf`` prints JSON every parser takes."""
    from calculator.__main__ import main
    path = tmp_path / "sft.yaml"
    path.write_text(_TRL + "warmup_ratio: .inf\nmax_grad_norm: .nan\n", encoding="utf-8")
    assert main(["--import", str(path), "--gpu", "h100-80gb", "--json"]) == 0

    def refuse(constant: str) -> None:
        raise AssertionError(f"not strict JSON: {constant}")

    out = json.loads(capsys.readouterr().out, parse_constant=refuse)
    assert {u["key"]: u["value"] for u in out["imported"]["unread"]}["warmup_ratio"] is None
