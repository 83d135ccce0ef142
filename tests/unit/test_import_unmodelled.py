"""Keys of the frameworks' own examples that move memory and are not modelled are read with a note naming them, never
listed as "no bearing on memory" (``not_read``); spellings the pinned version refuses are noted as ``deprecated``;
the rules that span keys hold for a model the catalogue lacks. Found by importing the whole examples folders
(tests/data/framework_examples/corpus/)."""
from __future__ import annotations

import pytest

from calculator.export import answer_read

pytestmark = pytest.mark.unit

AXOLOTL = """base_model: NousResearch/Llama-3.2-1B
datasets:
  - path: teknium/GPT4-LLM-Cleaned
    type: alpaca
output_dir: ./outputs/lora-out
adapter: lora
sequence_len: 2048
lora_r: 16
lora_target_linear: true
gradient_accumulation_steps: 2
micro_batch_size: 2
optimizer: adamw_torch_fused
bf16: auto
gradient_checkpointing: true
"""
LLAMAFACTORY = """model_name_or_path: Qwen/Qwen3-4B-Instruct-2507
stage: sft
do_train: true
finetuning_type: lora
lora_target: all
dataset: identity
template: qwen3
cutoff_len: 2048
output_dir: saves/x
per_device_train_batch_size: 1
gradient_accumulation_steps: 8
bf16: true
"""
TRL = """model_name_or_path: Qwen/Qwen2.5-0.5B
dataset_name: trl-lib/Capybara
output_dir: out
per_device_train_batch_size: 2
max_length: 1024
bf16: true
"""
ACCELERATE = """compute_environment: LOCAL_MACHINE
distributed_type: FSDP
fsdp_config:
  fsdp_version: 2
  fsdp_reshard_after_forward: true
mixed_precision: bf16
num_processes: {procs}
parallelism_config:
  parallelism_config_dp_shard_size: {shard}
  parallelism_config_cp_size: {cp}
"""
UNSLOTH = """from unsloth import FastLanguageModel
from trl import SFTTrainer, SFTConfig
model, tokenizer = FastLanguageModel.from_pretrained(
    model_name = "unsloth/Qwen3-14B", max_seq_length = 2048, load_in_4bit = True, {extra}
)
model = FastLanguageModel.get_peft_model(model, r = 16, use_gradient_checkpointing = "unsloth")
trainer = SFTTrainer(model = model, tokenizer = tokenizer, train_dataset = None,
    args = SFTConfig(per_device_train_batch_size = 2, gradient_accumulation_steps = 4, optim = "adamw_8bit"))
trainer.train()
"""


def _read(files: dict[str, str]) -> dict:
    return answer_read({"target": "auto", "files": files})


def _codes(answer: dict) -> dict[str, str]:
    assert answer["ok"], answer.get("errors")
    return {u["key"]: u["code"] for u in answer["read"]["unread"]}


@pytest.mark.parametrize("extra,key", [
    ("tensor_parallel_size: 2", "tensor_parallel_size"),
    ("context_parallel_size: 2", "context_parallel_size"),
    ("liger_rms_norm: true", "liger_rms_norm"),
    ("liger_glu_activation: true", "liger_glu_activation"),
    ("qat:\n  weight_dtype: int4", "qat"),
    ("lora_target_parameters:\n  - mlp.experts.down_proj", "lora_target_parameters"),
    ("lora_modules_to_save:\n  - lm_head", "lora_modules_to_save"),
    ("gptq: true", "gptq"),
    ("device_map: auto", "device_map"),
    ("use_scattermoe: true", "use_scattermoe"),
])
def test_an_axolotl_key_that_moves_memory_is_noted(extra: str, key: str) -> None:
    assert _codes(_read({"lora.yml": AXOLOTL + extra + "\n"})).get(key) == "not_modelled"


@pytest.mark.parametrize("extra", ["tensor_parallel_size: 1", "gptq: false", "liger_rms_norm: false"])
def test_a_degree_of_one_or_a_switch_off_is_no_note(extra: str) -> None:
    key = extra.split(":")[0]
    assert _codes(_read({"lora.yml": AXOLOTL + extra + "\n"})).get(key) != "not_modelled"


@pytest.mark.parametrize("key", ["reward_model", "process_reward_model"])
def test_an_axolotl_reward_trainer_is_refused_naming_it(key: str) -> None:
    answer = _read({"rm.yml": AXOLOTL + f"{key}: true\n"})
    assert not answer["ok"]
    assert {"code": "not_modelled", "file": "rm.yml", "field": key} in answer["errors"]


@pytest.mark.parametrize("extra,key", [("max_packed_sequence_len: 2048", "max_packed_sequence_len"),
                                       ("flash_attn_rms_norm: true", "flash_attn_rms_norm"),
                                       ("s2_attention: true", "s2_attention")])
def test_a_key_axolotl_no_longer_takes_is_noted_deprecated(extra: str, key: str) -> None:
    assert _codes(_read({"lora.yml": AXOLOTL + extra + "\n"})).get(key) == "deprecated"


def test_fsdp1_sharding_strategy_is_read_as_the_resharding_it_stands_for_with_a_note() -> None:
    text = AXOLOTL + "fsdp_version: 2\nfsdp_config:\n  sharding_strategy: SHARD_GRAD_OP\n"
    answer = _read({"lora.yml": text})
    assert _codes(answer).get("fsdp_config.sharding_strategy") == "deprecated"
    assert answer["read"]["request"]["sharding"] == "zero2"


def test_the_rules_across_keys_hold_for_a_model_the_catalogue_lacks() -> None:
    # Axolotl 0.21: "FSDP2 not compatible with adamw_bnb_8bit" (its mistral4 examples): refused, as for a known model
    text = AXOLOTL.replace("NousResearch/Llama-3.2-1B", "some-org/not-in-the-catalogue").replace(
        "adamw_torch_fused", "adamw_bnb_8bit") + "fsdp_version: 2\nfsdp_config:\n  reshard_after_forward: true\n"
    answer = _read({"lora.yml": text})
    assert not answer["ok"]
    assert answer["errors"][0]["code"] == "contradiction" and answer["errors"][0]["field"] == "optimizer"


def test_a_parameter_offload_alone_is_assumed_on_the_fewest_gpus_that_shard() -> None:
    # ZeRO-3 with the parameters on the CPU and the optimizer on the GPU (Axolotl's zero3_bf16_cpuoffload_params)
    ds = ('{"zero_optimization": {"stage": 3, "offload_param": {"device": "cpu"}}, "bf16": {"enabled": true},'
          ' "train_micro_batch_size_per_gpu": "auto", "gradient_accumulation_steps": "auto"}')
    text = AXOLOTL.replace("NousResearch/Llama-3.2-1B", "some-org/not-in-the-catalogue") + \
        "deepspeed: deepspeed_configs/zero3_bf16_cpuoffload_params.json\n"
    answer = _read({"lora.yml": text, "zero3_bf16_cpuoffload_params.json": ds})
    assert _codes(answer).get("num_processes") == "gpus_assumed"
    assert answer["read"]["request"]["num_gpus"] == 2


@pytest.mark.parametrize("extra,key", [("use_kt: true", "use_kt"), ("pipeline_model_parallel_size: 4",
                                                                      "pipeline_model_parallel_size"),
                                       ("fp8: true", "fp8"), ("mixture_of_depths: convert", "mixture_of_depths"),
                                       ("image_max_pixels: 262144", "image_max_pixels")])
def test_a_llamafactory_key_that_moves_memory_is_noted(extra: str, key: str) -> None:
    assert _codes(_read({"sft.yaml": LLAMAFACTORY + extra + "\n"})).get(key) == "not_modelled"


def test_accelerate_context_parallelism_is_noted_and_a_full_shard_group_is_not() -> None:
    codes = _codes(_read({"sft.yaml": TRL, "accelerate.yaml": ACCELERATE.format(procs=2, shard=2, cp=2)}))
    assert codes.get("parallelism_config.parallelism_config_cp_size") == "not_modelled"
    assert "parallelism_config.parallelism_config_dp_shard_size" not in codes


def test_accelerate_a_shard_group_smaller_than_the_processes_is_noted() -> None:
    codes = _codes(_read({"sft.yaml": TRL, "accelerate.yaml": ACCELERATE.format(procs=4, shard=2, cp=2)}))
    assert codes.get("parallelism_config.parallelism_config_dp_shard_size") == "not_modelled"


@pytest.mark.parametrize("extra,key", [("offload_embedding = True,", "from_pretrained.offload_embedding"),
                                       ("fast_inference = True,", "from_pretrained.fast_inference"),
                                       ("load_in_fp8 = True,", "from_pretrained.load_in_fp8"),
                                       ("unsloth_tiled_mlp = True,", "from_pretrained.unsloth_tiled_mlp")])
def test_an_unsloth_keyword_that_moves_memory_is_noted(extra: str, key: str) -> None:
    assert _codes(_read({"train.py": UNSLOTH.format(extra=extra)})).get(key) == "not_modelled"


def test_unsloth_fast_inference_off_is_no_note() -> None:
    assert _codes(_read({"train.py": UNSLOTH.format(extra="fast_inference = False,")})).get(
        "from_pretrained.fast_inference") == "not_read"


def test_unsloth_16bit_lora_with_4bit_left_on_is_a_contradiction() -> None:
    # unsloth/models/loader.py: one of load_in_4bit / 8bit / 16bit / fp8 only (load_in_4bit defaults to True)
    answer = _read({"train.py": UNSLOTH.format(extra="load_in_16bit = True,")})
    assert {"code": "contradiction", "file": "train.py", "field": "load_in_16bit"} in answer["errors"]
    ok = _read({"train.py": UNSLOTH.format(extra="load_in_16bit = True,").replace("load_in_4bit = True",
                                                                                  "load_in_4bit = False")})
    assert ok["ok"] and ok["read"]["request"]["method"] == "lora"


def test_llamafactory_packs_pretraining_by_default() -> None:
    # LLaMA-Factory 0.9.5 hparams/parser.py: "packing" left out is stage == "pt" (its qwen3_lora_pretrain example)
    pt = _read({"pt.yaml": LLAMAFACTORY.replace("stage: sft", "stage: pt")})
    assert pt["read"]["request"]["packing"] is True
    off = _read({"pt.yaml": LLAMAFACTORY.replace("stage: sft", "stage: pt") + "packing: false\n"})
    assert off["read"]["request"]["packing"] is False
    assert _read({"sft.yaml": LLAMAFACTORY})["read"]["request"]["packing"] is False


STUDIO = """model: unsloth/Qwen2.5-0.5B
training:
  training_type: lora
  max_seq_length: 2048
  load_in_4bit: true
  batch_size: 1
  gradient_accumulation_steps: 4
lora:
  lora_r: 64
  target_modules: ""
  vision_all_linear: true
"""


def test_unsloth_studio_vision_all_linear_is_all_linear_with_a_note() -> None:
    # unsloth_cli/config.py: a vision model's LoRA targets "all-linear" when vision_all_linear (Studio's
    # vision_lora.yaml, target_modules ""), its vision tower included
    answer = _read({"unsloth.yaml": STUDIO})
    assert _codes(answer).get("lora.vision_all_linear") == "not_modelled"
    assert answer["read"]["request"]["lora_targets"] == ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj",
                                                        "up_proj", "down_proj"]
    refused = _read({"unsloth.yaml": STUDIO.replace("vision_all_linear: true", "vision_all_linear: false")})
    assert {"code": "unknown_value", "file": "unsloth.yaml", "field": "lora.target_modules"} in refused["errors"]


@pytest.mark.parametrize("flag,value,noted", [("finetune_vision_layers", "True", True),
                                              ("finetune_vision_layers", "False", False),
                                              ("finetune_mlp_modules", "False", True),
                                              ("finetune_mlp_modules", "True", False)])
def test_fastmodel_layer_switches_that_move_memory_are_noted(flag: str, value: str, noted: bool) -> None:
    # FastModel.get_peft_model (Unsloth's Gemma 3/4 notebooks): vision layers on, or MLP/attention/language layers
    # off, train other layers than the targets read
    text = UNSLOTH.format(extra="").replace('r = 16,', f'r = 16, {flag} = {value},')
    assert (_codes(_read({"train.py": text})).get(f"get_peft_model.{flag}") == "not_modelled") is noted
