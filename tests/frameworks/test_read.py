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
    assert {u["key"] for u in r.unread} == {"learning_rate", "trainer"}     # trainer: no key says SFT or DPO


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


# --- issue 38: import by content, not by name --------------------------------------------------------------------

_DPO_DOC = ("model_name_or_path: meta-llama/Llama-3.1-8B\ndataset_name: trl-lib/ultrafeedback_binarized\n"
            "per_device_train_batch_size: 2\nuse_peft: true\nlora_r: 32\n")


def test_the_trainer_is_told_by_the_keys_then_the_file_name() -> None:
    """A TRL file whose keys name no trainer is DPO when its name says so (TRL's own DPO command as YAML); keys that
    only DPOConfig has make it DPO whatever the name (the page names every paste config.yaml)."""
    assert read("auto", {"converted_dpo_lora_docstring.yaml": _DPO_DOC}).request["dpo"] is True
    assert read("auto", {"config.yaml": _DPO_DOC}).request["dpo"] is False
    assert read("auto", {"config.yaml": _DPO_DOC + "rpo_alpha: 1.0\n"}).request["dpo"] is True
    assert read("auto", {"dpo.yaml": _DPO_DOC + "packing: true\n"}).request["dpo"] is False     # SFTConfig's key


@pytest.mark.parametrize("name, extra", [
    ("config.yaml", "beta: 0.04\nloss_type: dapo\ngradient_accumulation_steps: 4\n"),   # as DPO has: still GRPO
    ("config.yaml", "beta: 0.04\nnum_generations: 2\n"),
    ("grpo.yaml", "beta: 0.04\nsteps_per_generation: 4\n"),
])
def test_a_grpo_config_is_told_by_its_keys_or_name_and_read_as_grpo(name, extra) -> None:
    """Issue 41: GRPOConfig's keys (or a file named grpo.yaml) read into a GRPO setup, with ``beta``; a generation
    batch (2 x 1 x 1) that is no multiple of ``num_generations`` (8, GRPOConfig's default) is refused, as
    GRPOConfig.__post_init__ refuses it."""
    r = read("auto", {name: _DPO_DOC + extra})
    assert r.errors == () and r.request["grpo"] is True and r.request["dpo"] is False
    assert r.request["grpo_beta"] == 0.04
    r = read("auto", {name: _DPO_DOC + "beta: 0.04\nnum_generations: 8\n"})
    assert r.request is None and r.errors == ({"code": "contradiction", "file": None,
                                               "field": "grpo_num_generations"},)


@pytest.mark.parametrize("name, extra, trainer", [
    ("orpo.yaml", "beta: 0.1\n", "ORPO"),
    ("config.yaml", "desirable_weight: 1.0\n", "KTO"),
])
def test_a_trainer_the_estimator_does_not_model_is_refused_naming_it(name, extra, trainer) -> None:
    r = read("auto", {name: _DPO_DOC + extra})
    assert r.request is None and r.errors == ({"code": "unsupported_trainer", "file": name, "field": trainer},)


def test_an_unknown_format_is_refused_naming_the_file() -> None:
    r = read("auto", {"config.yaml": "foo: 1\nbar: [1, 2]\n"})
    assert r.request is None and r.errors == ({"code": "unknown_target", "file": "config.yaml", "field": None},)
    v1 = ("model: Qwen/Qwen3-4B\nmodel_class: llm\npeft_config:\n  name: lora\n  r: 16\ndist_config:\n  name: fsdp2\n"
          "micro_batch_size: 1\ncutoff_len: 2048\n")
    r = read("auto", {"config.yaml": v1})          # LLaMA-Factory's v1 format: micro_batch_size, as Axolotl has
    assert r.request is None and r.errors == ({"code": "unsupported_format", "file": "config.yaml",
                                               "field": "LLaMA-Factory v1"},)


_ACC_FSDP = "distributed_type: FSDP\nnum_processes: 2\nmixed_precision: bf16\nfsdp_config:\n"


@pytest.mark.parametrize("fsdp, version, sharding, offload", [
    ("  fsdp_version: 2\n  fsdp_offload_params: true\n", 2, "zero3", True),
    ("  fsdp_version: 2\n  fsdp_reshard_after_forward: false\n", 2, "zero2", False),
    ("  fsdp_version: 1\n  fsdp_sharding_strategy: SHARD_GRAD_OP\n", 1, "zero2", False),
    ("  fsdp_reshard_after_forward: FULL_SHARD\n  fsdp_offload_params: true\n", 1, "zero3", True),
])
def test_accelerate_fsdp_version_and_offload_are_read(fsdp, version, sharding, offload) -> None:
    r = read("auto", {"sft.yaml": _TRL, "accelerate.yaml": _ACC_FSDP + fsdp})
    q = r.request
    assert (q["fsdp_version"], q["sharding"], q["cpu_offload"], q["offload_params"]) == (version, sharding, offload,
                                                                                         offload)
    assert not [u for u in r.unread if u["code"] == "not_modelled"]      # FSDP1 is modelled


@pytest.mark.parametrize("fsdp, deprecated", [
    ("fsdp_version: 2\nfsdp_config:\n  offload_params: true\n  reshard_after_forward: true\n", []),
    ("fsdp_version: 2\nfsdp_config:\n  fsdp_offload_params: true\n  fsdp_state_dict_type: FULL_STATE_DICT\n", []),
    ("fsdp:\n  - full_shard\n  - auto_wrap\nfsdp_config:\n  fsdp_offload_params: true\n", ["fsdp"]),
    ("fsdp_version: 1\nfsdp_config:\n  offload_params: true\n", ["fsdp_version"]),
])
def test_axolotl_fsdp_is_fsdp2_with_offload_under_every_spelling(fsdp, deprecated) -> None:
    """Axolotl 0.21 has only FSDP2; it takes ``fsdp_config`` keys with and without the ``fsdp_`` prefix; the FSDP1
    list and ``fsdp_version: 1`` (which it refuses) are read as the FSDP2 run they ask for, with a note."""
    r = read("auto", {"axolotl.yaml": _AXO + fsdp})
    q = r.request
    assert (q["fsdp_version"], q["sharding"], q["cpu_offload"], q["offload_params"]) == (2, "zero3", True, True)
    assert [u["key"] for u in r.unread if u["code"] == "deprecated"] == deprecated


def test_deepspeed_numbers_are_read_as_deepspeed_reads_them() -> None:
    """LLaMA-Factory's own DeepSpeed configs write ``"reduce_bucket_size": 5e8``: DeepSpeed's integer 500000000."""
    r = read("auto", {"llamafactory.yaml": _LF + "deepspeed: ds_config.json\n",
                      "accelerate.yaml": "distributed_type: MULTI_GPU\nnum_processes: 2\n",
                      "ds_config.json": '{"zero_optimization": {"stage": 2.0, "reduce_bucket_size": 5e8}}'})
    assert not r.errors, r.errors
    assert (r.request["sharding"], r.request["reduce_bucket_size"]) == ("zero2", 500_000_000)
    r = read("auto", {"llamafactory.yaml": _LF + "deepspeed: ds_config.json\n",
                      "ds_config.json": '{"zero_optimization": {"stage": 2, "reduce_bucket_size": 5.5}}'})
    assert r.errors[0]["code"] == "wrong_type"


def test_memory_moving_keys_are_noted_not_filed_as_no_bearing() -> None:
    r = read("auto", {"llamafactory.yaml": _LF.replace("meta-llama/Llama-3.1-8B", "TechxGenus/Meta-Llama-3-8B-AWQ")})
    assert {"file": "llamafactory.yaml", "key": "model_name_or_path", "value": "TechxGenus/Meta-Llama-3-8B-AWQ",
            "code": "not_modelled"} in r.unread
    r = read("auto", {"axolotl.yaml": _AXO + "unfrozen_parameters:\n  - ^lm_head.weight$\n"})
    assert [u["code"] for u in r.unread if u["key"] == "unfrozen_parameters"] == ["not_modelled"]


_NOTEBOOK = '''from unsloth import FastLanguageModel
max_seq_length = 4096
model, tokenizer = FastLanguageModel.from_pretrained(
    model_name = "meta-llama/Llama-3.1-8B", max_seq_length = max_seq_length, load_in_4bit = True)
model = FastLanguageModel.get_peft_model(model, r = 32, lora_dropout = 0,
                                         use_gradient_checkpointing = False)
trainer = SFTTrainer(model = model, tokenizer = tokenizer, max_seq_length = max_seq_length, packing = True,
                     args = SFTConfig(per_device_train_batch_size = 2, gradient_accumulation_steps = 4,
                                      optim = "adamw_8bit", num_train_epochs = 1))
trainer.train()
if False:
    model, tokenizer = FastLanguageModel.from_pretrained(model_name = "lora_model", max_seq_length = 2048,
                                                         load_in_4bit = False)
'''


def test_the_unsloth_reader_follows_the_trained_model_and_the_trainer() -> None:
    """The trained model is the one the trainer gets (not the inference reload below it); names set above are
    followed; the trainer's own keywords count (``packing``, ``max_seq_length`` on ``SFTTrainer``)."""
    r = read("auto", {"train.py": _NOTEBOOK})
    assert not r.errors, r.errors
    q = r.request
    assert (q["model"], q["method"], q["seq_len"], q["packing"], q["lora_rank"]) == (
        "llama-3.1-8b", "qlora", 4096, True, 32)
    assert (q["gradient_checkpointing"], q["micro_batch_size"], q["grad_accum_steps"], q["epochs"]) == (
        False, 2, 4, 1.0)
    r = read("auto", {"train.py": _NOTEBOOK.replace("SFTConfig(", "DPOConfig(max_length = max_seq_length // 4, ")
                      .replace("SFTTrainer(", "DPOTrainer(").replace("packing = True, ", "")})
    assert (r.request["dpo"], r.request["seq_len"]) == (True, 1024)


@pytest.mark.parametrize("change, code, field", [
    (("SFTTrainer(", "ORPOTrainer("), "unsupported_trainer", "ORPOTrainer"),
    (("args = SFTConfig(", "args = GRPOConfig("), "unsupported_trainer", "GRPOConfig"),
    (("max_seq_length = 4096", "max_seq_length = int(input())"), "not_followed", "max_seq_length"),
    (("model = FastLanguageModel.get_peft_model(model,", "model = wrap(model,"), "not_followed", "model"),
])
def test_the_unsloth_reader_refuses_what_it_cannot_follow(change, code, field) -> None:
    r = read("auto", {"train.py": _NOTEBOOK.replace(*change)})
    assert r.request is None and {"code": code, "file": "train.py", "field": field} in r.errors, r.errors


def test_a_trl_file_that_names_no_trainer_says_sft_was_assumed() -> None:
    """The page names every paste config.yaml: a TRL file with no trainer's key is read as SFT, and says so."""
    r = read("auto", {"config.yaml": _DPO_DOC})
    assert {"file": "config.yaml", "key": "trainer", "value": "sft", "code": "trainer_assumed"} in r.unread
    assert not [u for u in read("auto", {"config.yaml": _DPO_DOC + "packing: false\n"}).unread
                if u["key"] == "trainer"]


def test_files_that_shard_without_a_gpu_count_read_as_two_gpus_and_say_so() -> None:
    """An Axolotl FSDP file alone (the count is the launcher's): 2 GPUs with a note, not a contradiction (one GPU
    when it offloads: ZeRO-Offload and FSDP's CPU offload run on one)."""
    r = read("auto", {"axolotl.yaml": _AXO + "fsdp_version: 2\nfsdp_config:\n  reshard_after_forward: true\n"})
    assert not r.errors, r.errors
    assert (r.request["num_gpus"], r.request["sharding"]) == (2, "zero3")
    assert {"file": "axolotl.yaml", "key": "num_processes", "value": 2, "code": "gpus_assumed"} in r.unread
    r = read("auto", {"axolotl.yaml": _AXO + "fsdp_version: 2\nfsdp_config:\n  offload_params: true\n"})
    assert r.request["num_gpus"] == 1
    assert {"file": "axolotl.yaml", "key": "num_processes", "value": 1, "code": "gpus_assumed"} in r.unread
    r = read("auto", {"axolotl.yaml": _AXO + "fsdp_version: 2\nfsdp_config:\n  offload_params: true\n",
                      "accelerate.yaml": "distributed_type: MULTI_GPU\nnum_processes: 4\n"})
    assert r.request["num_gpus"] == 4 and not [u for u in r.unread if u["code"] == "gpus_assumed"]


@pytest.mark.parametrize("target, text, version, sharding, offload", [
    # transformers 5.24 (TRL's pin): FSDP2 unless fsdp_config says version 1; offload as an option or cpu_offload
    ("trl", _TRL + "fsdp: full_shard offload auto_wrap\n", 2, "zero3", True),
    ("trl", _TRL + "fsdp: [shard_grad_op]\n", 2, "zero2", False),
    ("trl", _TRL + "fsdp: true\nfsdp_config:\n  fsdp_version: 1\n  fsdp_cpu_offload: true\n", 1, "zero3", True),
    # transformers 5.6 (LLaMA-Factory's pin): FSDP1 unless version 2
    ("llamafactory", _LF + "fsdp: full_shard offload\n", 1, "zero3", True),
    ("llamafactory", _LF + "fsdp: shard_grad_op\nfsdp_config:\n  version: 2\n", 2, "zero2", False),
])
def test_fsdp_set_in_the_training_file_is_read(target, text, version, sharding, offload) -> None:
    """TrainingArguments' own ``fsdp``/``fsdp_config`` move memory: read, never filed as 'no bearing'."""
    r = read(target, {"config.yaml": text, "accelerate.yaml": "distributed_type: MULTI_GPU\nnum_processes: 4\n"})
    assert not r.errors, r.errors
    q = r.request
    assert (q["fsdp_version"], q["sharding"], q["cpu_offload"], q["deepspeed"]) == (version, sharding, offload, False)
    assert not {"fsdp", "fsdp_config"} & {u["key"] for u in r.unread}


@pytest.mark.parametrize("repo, model", [
    ("meta-llama/Llama-3.1-8B", "llama-3.1-8b"),                  # the entry's own repository
    ("Qwen/Qwen3-30B-A3B-Instruct-2507", "qwen3-30b-a3b"),         # an alias of the same config
    ("mistralai/Devstral-Small-2507", "mistral-small-3-24b"),      # a derivative whose card states its shapes
    ("Qwen/Qwen3-14B-FP8", "qwen3-14b"),                           # a weight-format suffix
    ("Llama-3.3-70B-Instruct", "llama-3.3-70b"),                   # a name without its owner, one entry's
    ("someone/not-a-model", None),
    (None, None),
])
def test_a_files_model_id_resolves_as_every_model_id_does(repo, model):
    """Issue 40: a framework file's base model goes through catalog.resolve, the one resolver of model ids (the page's
    and the CLI's), not a comparison with each entry's config.json address, which knew no alias or derivative."""
    from calculator.catalog import resolve
    from calculator.export._common import model_from_repo
    assert model_from_repo(repo) == model
    if isinstance(repo, str) and model is not None:
        assert resolve(repo).model == model
