"""What each fine-tuning framework does when its config leaves a key out, in request-key terms, with the source.

One table: per framework (``none``, ``peft``, ``trl``, ``axolotl``, ``llamafactory``, ``unsloth``, ``torchtune``) and pinned
version, the value each memory- or time-relevant request key (``calculator/inputs.py``) takes when the framework's
config does not set it, each read from the framework's own code at that version (``source``: file and field).
The exporters (``calculator/export/``) write explicitly every key whose framework default differs from the
estimate's value; the importers fill what a pasted config leaves out from here. The ``framework`` request key
(issue 19) sets the estimator's regime from the same table.

Two kinds of entry:

* request keys (``inputs.BY_NAME``): the framework's default in the estimator's terms, e.g. TRL's
  ``SFTConfig.gradient_checkpointing=True`` is ``gradient_checkpointing: True``;
* regime keys (``REGIME_KEYS``): framework behaviour in the framework's own words, with no request key of that
  name, e.g. ``bnb_4bit_quant_storage: "uint8"`` (``REGIME_REQUEST`` maps two of them onto request keys).

An entry may hold only ``when`` other request keys have given values (``{"dpo": True}``): ``defaults()`` resolves
them against a request. Standard library only; data plus a small lookup API, no prose for readers.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from .inputs import BY_NAME, DEFAULTS, FRAMEWORK_IDS
from .params import fsdp1_refuses_uint8

__all__ = ["Default", "Framework", "FRAMEWORKS", "LATEST", "REGIME_KEYS", "REGIME_REQUEST", "IDS", "get", "defaults",
           "default", "versions", "request_defaults", "RECOMMENDED", "recommended"]

#: Framework behaviour in the framework's own spelling, with no request key of that name: name -> what it means.
#: ``REGIME_REQUEST`` reads two of them as request keys (the ``framework`` key applies them); issue 19 made
#: ``fsdp_version``, ``fsdp2_upcast``, ``ddp_gradient_as_bucket_view`` and ``deepspeed_bf16_master_weights`` request
#: keys of the same name (calculator/inputs.py), so the table's entries for them are request-key entries now.
REGIME_KEYS: dict[str, str] = {
    "load_dtype": "dtype a model given by name is loaded in (`float32`, `bfloat16`, `auto`; the request key is "
                  "`base_fp32`)",
    "bnb_4bit_quant_type": "4-bit data type (`nf4`, `fp4`: same bytes)",
    "bnb_4bit_compute_dtype": "dtype the 4-bit weights are dequantised to for their matmul (`qlora_compute_dtype`)",
    "bnb_4bit_quant_storage": "dtype the packed 4-bit weights are stored as (`uint8`: FSDP2 leaves them unsharded; "
                              "`quant_storage`)",
    "fused_lm_head": "the trainer computes the loss from the last hidden states in tiles (no full logits)",
}


@dataclass(frozen=True, kw_only=True)
class Default:
    """One default: ``key`` (a request key or a ``REGIME_KEYS`` name) takes ``value`` when the config omits it.

    ``when`` restricts it to requests whose keys have those values (e.g. ``{"dpo": True}``); ``source`` is the file
    and field in the framework's package at the framework's version (``package/path.py Class.field``).
    """

    key: str
    value: Any
    source: str
    when: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class Framework:
    """One framework at one version: the stack it runs on (package -> version) and its defaults."""

    id: str
    version: str
    stack: Mapping[str, str]
    defaults: tuple[Default, ...]


def _d(key: str, value: Any, source: str, **when: Any) -> Default:
    return Default(key=key, value=value, source=source, when=when)



def _fused_experts(transformers: str) -> Default:
    """transformers 5 keeps a MoE layer's routed experts as 3-D ``nn.Parameter`` s, which bitsandbytes does not
    quantize and ``all-linear`` LoRA does not wrap (``moe_layout`` fused; params.experts_fused)."""
    return _d("moe_layout", "fused", f"transformers {transformers} models/qwen3_moe/modeling_qwen3_moe.py "
                                     "Qwen3MoeExperts (@use_experts_implementation: gate_up_proj (E, 2i, h) and "
                                     "down_proj (E, h, i) nn.Parameters), likewise MixtralExperts, DeepseekV3Experts")

_LORA = ("lora", "qlora")

# --- Transformers + PEFT 0.21.2 with the Hugging Face Trainer (transformers 5.24.0, accelerate 1.15.0, bitsandbytes
# 0.50.2: frameworks/trl/requirements.txt's pins): the recipe of PEFT's documentation and most notebooks,
# ``from_pretrained(..., quantization_config=BitsAndBytesConfig(load_in_4bit=True))``, then
# ``prepare_model_for_kbit_training``, ``get_peft_model(model, LoraConfig(...))`` and ``Trainer(model, TrainingArguments(...))``;
# each default is what that code does when the reader's script leaves the argument out.
_PEFT_HF = (
    _d("precision", "fp32", "transformers/training_args.py TrainingArguments.bf16=False, fp16=False (no autocast); "
                            "peft/utils/other.py prepare_model_for_kbit_training casts every parameter that is not "
                            "4-bit to fp32 and BitsAndBytesConfig computes in fp32: the step runs in fp32",
       method="qlora"),
    _d("precision", "bf16", "transformers/training_args.py TrainingArguments.bf16=False, fp16=False (no autocast) on "
                            "a model loaded in its checkpoint's dtype (transformers/modeling_utils.py from_pretrained: "
                            "dtype None -> 'auto'): pure 16-bit"),
    _d("base_fp32", False, "transformers/modeling_utils.py PreTrainedModel.from_pretrained (dtype None -> 'auto')"),
    _d("load_dtype", "auto", "transformers/modeling_utils.py PreTrainedModel.from_pretrained (dtype None -> 'auto')"),
    _d("bnb_4bit_compute_dtype", "float32", "transformers/utils/quantization_config.py BitsAndBytesConfig "
                                            "(bnb_4bit_compute_dtype None -> torch.float32)"),
    _d("bnb_4bit_quant_type", "fp4", "transformers/utils/quantization_config.py BitsAndBytesConfig "
                                     "bnb_4bit_quant_type='fp4'"),
    _d("double_quant", False, "transformers/utils/quantization_config.py BitsAndBytesConfig "
                              "bnb_4bit_use_double_quant=False"),
    _d("bnb_4bit_quant_storage", "uint8", "transformers/utils/quantization_config.py BitsAndBytesConfig "
                                          "(bnb_4bit_quant_storage None -> uint8)"),
    _d("kbit_upcast", "all", "peft/utils/other.py prepare_model_for_kbit_training (every fp16/bf16 parameter whose "
                             "class is not Params4bit: param.data = param.data.to(torch.float32))"),
    _d("gradient_checkpointing", True, "peft/utils/other.py prepare_model_for_kbit_training(use_gradient_"
                                       "checkpointing=True): model.gradient_checkpointing_enable()", method="qlora"),
    _d("gradient_checkpointing", False, "transformers/training_args.py TrainingArguments.gradient_checkpointing=None "
                                        "(activation_checkpointing off)"),
    _d("fused_linear_cross_entropy", False, "transformers/trainer.py Trainer.compute_loss (the model's own loss over "
                                            "the full logits)"),
    _d("attention", "sdpa", "transformers/modeling_utils.py attn_implementation=None (sdpa)"),
    _d("optimizer", "adamw_torch_fused", "transformers/training_args.py TrainingArguments.optim (torch >= 2.8)"),
    _d("micro_batch_size", 8, "transformers/training_args.py TrainingArguments.per_device_train_batch_size"),
    _d("grad_accum_steps", 1, "transformers/training_args.py TrainingArguments.gradient_accumulation_steps"),
    _d("packing", False, "transformers/trainer.py (no packing: the data collator pads each batch)"),
    _d("lora_rank", 8, "peft/tuners/lora/config.py LoraConfig.r=8"),
    _d("lora_dropout", 0.0, "peft/tuners/lora/config.py LoraConfig.lora_dropout=0.0"),
    _d("lora_targets", ("q_proj", "v_proj"), "peft/tuners/lora/config.py LoraConfig.target_modules=None; "
                                             "peft/utils/constants.py TRANSFORMERS_MODELS_TO_LORA_TARGET_MODULES_MAPPING "
                                             "(llama, mistral, qwen2, gemma)"),
    _d("lora_dtype", "fp32", "peft/peft_model.py autocast_adapter_dtype=True (adapters in fp32)"),
    _d("activation_offloading", False, "transformers/training_args.py (no activation offloading switch)"),
    _d("torch_compile", False, "transformers/training_args.py TrainingArguments.torch_compile"),
    _d("epochs", 3.0, "transformers/training_args.py TrainingArguments.num_train_epochs"),
    _d("no_sync_accumulation", True, "transformers/trainer.py _inner_training_loop (accelerator.no_sync on every "
                                     "micro-batch but the last unless sync_each_batch; not under DeepSpeed)",
       deepspeed=False),
    _d("fsdp_version", 1, "accelerate/commands/config/config_args.py (fsdp_config without fsdp_version is FSDP1)"),
    _d("fsdp2_upcast", "trainable", "accelerate/utils/fsdp_utils.py fsdp2_prepare_model 1.15.0"),
    _d("cpu_offload", False, "accelerate/utils/dataclasses.py FullyShardedDataParallelPlugin.cpu_offload"),
    _d("deepspeed_bf16_master_weights", False, "deepspeed/runtime/precision_config.py 0.19.8 "
                                               "bf16_master_weights_and_grads=False"),
    _d("ddp_gradient_as_bucket_view", False, "accelerate/utils/dataclasses.py DistributedDataParallelKwargs"),
    _fused_experts("5.24.0"),
    _d("quantize_experts", False, "transformers 5.24.0 integrations/bitsandbytes.py replace_with_bnb_linear (converts "
                                  "nn.Linear modules only: the fused 3-D experts stay in the load dtype; "
                                  "bitsandbytes issue #1849)"),
    _d("lora_expert_params", False, "peft/tuners/lora/config.py LoraConfig.target_parameters=None (PEFT 0.17.0 "
                                    "and later wrap 3-D expert parameters only when it names them)"),
)

_GRPO = "trl/trainer/grpo_config.py"
# --- TRL 1.16.0 (transformers 5.24.0, peft 0.21.2, accelerate 1.15.0, bitsandbytes 0.50.2, deepspeed 0.19.8) ----------
_TRL = (
    _d("precision", "mixed", "trl/trainer/model_config.py ModelConfig.dtype='float32'; trl/trainer/base_config.py "
                             "bf16=None -> True unless fp16 (fp32 weights under bf16 autocast)"),
    _d("base_fp32", True, "trl/trainer/model_config.py ModelConfig.dtype='float32' (the frozen base loads in fp32)"),
    _d("load_dtype", "float32", "trl/trainer/model_config.py ModelConfig.dtype"),
    _d("bnb_4bit_compute_dtype", "float32", "trl/trainer/utils.py get_quantization_config "
                                            "(bnb_4bit_compute_dtype=model_args.dtype)"),
    _d("bnb_4bit_quant_type", "nf4", "trl/trainer/model_config.py ModelConfig.bnb_4bit_quant_type"),
    _d("double_quant", False, "trl/trainer/model_config.py ModelConfig.use_bnb_nested_quant"),
    _d("bnb_4bit_quant_storage", "uint8", "trl/trainer/model_config.py ModelConfig.bnb_4bit_quant_storage=None; "
                                          "transformers/utils/quantization_config.py BitsAndBytesConfig (None -> uint8)"),
    _d("gradient_checkpointing", True, "trl/trainer/base_config.py _BaseConfig.gradient_checkpointing"),
    _d("fused_linear_cross_entropy", True, "trl/trainer/sft_trainer.py and dpo_trainer.py add_fused_lm_head "
                                           "(trl/trainer/utils.py: log-probs in tiles, no (batch, seq, vocab) logits)"),
    _d("fused_lm_head", True, "trl/trainer/utils.py add_fused_lm_head (always applied by SFTTrainer and DPOTrainer)"),
    _d("attention", "sdpa", "trl/trainer/model_config.py ModelConfig.attn_implementation=None (transformers' sdpa)"),
    _d("optimizer", "adamw_torch_fused", "transformers/training_args.py TrainingArguments.optim (torch >= 2.8)"),
    _d("micro_batch_size", 8, "transformers/training_args.py TrainingArguments.per_device_train_batch_size"),
    _d("grad_accum_steps", 1, "transformers/training_args.py TrainingArguments.gradient_accumulation_steps"),
    _d("seq_len", 1024, "trl/trainer/sft_config.py SFTConfig.max_length; dpo_config.py DPOConfig.max_length"),
    _d("packing", False, "trl/trainer/sft_config.py SFTConfig.packing"),
    _d("lora_rank", 16, "trl/trainer/model_config.py ModelConfig.lora_r"),
    _d("lora_dropout", 0.05, "trl/trainer/model_config.py ModelConfig.lora_dropout", dpo=False),
    _d("lora_dropout", 0.0, "trl/trainer/dpo_config.py DPOConfig.disable_dropout=True (every nn.Dropout set to 0)",
       dpo=True),
    _d("lora_targets", ("q_proj", "v_proj"), "trl/trainer/model_config.py ModelConfig.lora_target_modules=None; "
                                             "peft/utils/constants.py TRANSFORMERS_MODELS_TO_LORA_TARGET_MODULES_MAPPING "
                                             "(llama, mistral, qwen2, gemma)"),
    _d("lora_dtype", "bf16", "trl/trainer/sft_trainer.py SFTTrainer.__init__ and dpo_trainer.py DPOTrainer.__init__ "
                             "(_is_quantized_model: every trainable parameter but a DoRA magnitude cast to bf16 after "
                             "get_peft_model, 'to follow the recommendations from the original paper')", method="qlora"),
    _d("lora_dtype", "fp32", "peft/peft_model.py autocast_adapter_dtype=True (adapters in fp32)"),
    _d("kbit_upcast", "none", "trl/trainer/sft_trainer.py and dpo_trainer.py 1.16.0 (no prepare_model_for_kbit_"
                              "training: the base keeps its load dtype, fp32 by ModelConfig.dtype)"),
    _d("activation_offloading", False, "trl/trainer/sft_config.py SFTConfig.activation_offloading"),
    _d("torch_compile", False, "transformers/training_args.py TrainingArguments.torch_compile"),
    _d("precompute_ref_log_probs", False, "trl/trainer/dpo_config.py DPOConfig.precompute_ref_log_probs"),
    _d("epochs", 3.0, "transformers/training_args.py TrainingArguments.num_train_epochs"),
    _d("no_sync_accumulation", True, "transformers/trainer.py _inner_training_loop (accelerator.no_sync on every "
                                     "micro-batch but the last unless sync_each_batch; not under DeepSpeed)",
       deepspeed=False),
    _d("fsdp_version", 1, "accelerate/commands/config/config_args.py (fsdp_config without fsdp_version is FSDP1)"),
    _d("fsdp2_upcast", "trainable", "accelerate/utils/fsdp_utils.py fsdp2_prepare_model 1.15.0 (trainable params to "
                                    "fp32 when mixed_precision != 'no' and no Params4bit)"),
    _d("cpu_offload", False, "accelerate/utils/dataclasses.py FullyShardedDataParallelPlugin.cpu_offload"),
    _d("deepspeed_bf16_master_weights", False, "deepspeed/runtime/precision_config.py 0.19.8 "
                                               "bf16_master_weights_and_grads=False"),
    _d("ddp_gradient_as_bucket_view", False, "accelerate/utils/dataclasses.py DistributedDataParallelKwargs"),
    _fused_experts("5.24.0"),
    _d("quantize_experts", False, "transformers 5.24.0 integrations/bitsandbytes.py replace_with_bnb_linear (converts "
                                  "nn.Linear modules only: the fused 3-D experts stay in the load dtype; "
                                  "bitsandbytes issue #1849)"),
    _d("lora_expert_params", False, "trl/trainer/model_config.py ModelConfig.lora_target_parameters=None; "
                                    "trl/trainer/utils.py get_peft_config passes target_parameters only when set"),
    # GRPO (issue 41; calculator/rl.py): GRPOConfig's defaults, file:line in the trl 1.16.0 wheel, for GRPO requests
    _d("grpo_completion_len", 512, f"{_GRPO}:494 GRPOConfig.max_completion_length=512", grpo=True),
    _d("grpo_num_generations", 8, f"{_GRPO}:480 GRPOConfig.num_generations=8", grpo=True),
    _d("grpo_steps_per_generation", None, f"{_GRPO}:528 GRPOConfig.steps_per_generation=None (-> "
                                          "gradient_accumulation_steps in __post_init__, :1098-1100)", grpo=True),
    _d("grpo_beta", 0.0, f"{_GRPO}:681 GRPOConfig.beta=0.0 (no reference model: grpo_trainer.py:984-986)", grpo=True),
    _d("grpo_num_iterations", 1, f"{_GRPO}:689 GRPOConfig.num_iterations=1", grpo=True),
    _d("grpo_loss_type", "dapo", f"{_GRPO}:801 GRPOConfig.loss_type='dapo'", grpo=True),
    _d("grpo_generator", "transformers", f"{_GRPO}:587 GRPOConfig.use_vllm=False (model.generate with the trained "
                                         "model; vllm_mode='colocate' at :594 when use_vllm)", grpo=True),
    _d("vllm_gpu_memory_utilization", 0.3, f"{_GRPO}:656 GRPOConfig.vllm_gpu_memory_utilization=0.3", grpo=True),
    _d("vllm_enable_sleep_mode", False, f"{_GRPO}:612 GRPOConfig.vllm_enable_sleep_mode=False", grpo=True),
    _d("vllm_max_model_length", None, f"{_GRPO}:664 GRPOConfig.vllm_max_model_length=None (vLLM then takes the "
                                      "model's own context length)", grpo=True),
)

# --- Axolotl 0.21.0 (transformers 5.20.1, trl 1.14.1, peft 0.21.2, accelerate 1.15.0) ----------------------------------
_AXOLOTL = (
    _d("precision", "bf16", "axolotl/utils/schemas/config.py bf16='auto' (bf16 where the card has it); "
                            "axolotl/utils/config/__init__.py normalize_config: torch_dtype=bfloat16 (weights loaded "
                            "16-bit, no fp32 master)"),
    _d("base_fp32", False, "axolotl/utils/config/__init__.py normalize_config (torch_dtype follows bf16)"),
    _d("load_dtype", "bfloat16", "axolotl/utils/config/__init__.py normalize_config"),
    _d("bnb_4bit_compute_dtype", "bfloat16", "axolotl/loaders/model.py (bnb_4bit_compute_dtype=cfg.torch_dtype)"),
    _d("bnb_4bit_quant_type", "nf4", "axolotl/loaders/model.py (bnb_config defaults)"),
    _d("double_quant", True, "axolotl/loaders/model.py (bnb_4bit_use_double_quant=True)"),
    _d("bnb_4bit_quant_storage", "bfloat16", "axolotl/loaders/model.py (bnb_4bit_quant_storage=torch.bfloat16)"),
    _d("gradient_checkpointing", False, "axolotl/utils/schemas/config.py gradient_checkpointing=False"),
    _d("fused_linear_cross_entropy", False, "axolotl/utils/schemas/config.py (liger / cut_cross_entropy plugins off)"),
    _d("chunked_cross_entropy", False, "axolotl/utils/schemas/config.py chunked_cross_entropy=None"),
    _d("attention", "sdpa", "axolotl/utils/schemas/config.py attn_implementation=None (transformers' sdpa)"),
    _d("optimizer", "adamw_torch_fused", "axolotl/utils/schemas/training.py optimizer=None -> transformers "
                                         "TrainingArguments.optim (torch >= 2.8)"),
    _d("micro_batch_size", 1, "axolotl/utils/schemas/training.py micro_batch_size=1"),
    _d("grad_accum_steps", 1, "axolotl/utils/schemas/training.py gradient_accumulation_steps=1"),
    _d("seq_len", 2048, "axolotl/utils/schemas/config.py sequence_len=2048"),
    _d("packing", False, "axolotl/utils/schemas/config.py sample_packing=None"),
    _d("lora_dropout", 0.0, "axolotl/utils/schemas/peft.py lora_dropout=0.0"),
    _d("lora_dtype", "fp32", "peft/peft_model.py autocast_adapter_dtype=True (adapters in fp32)"),
    _d("kbit_upcast", "none", "axolotl/loaders/model.py ModelLoader._prepare_model_for_quantization (_moe_experts_"
                              "quantized: 'Parametrized expert tensors dequantize on access — would OOM', no "
                              "prepare_model_for_kbit_training) and _configure_embedding_dtypes (norms and embeddings "
                              "back to torch_dtype)", quantize_experts=True),
    *(_d("kbit_upcast", "embeddings", "axolotl/loaders/model.py ModelLoader._configure_embedding_dtypes (QLoRA under "
                                      "FSDP: should_convert_embedding_dtypes is False, so embed_tokens, lm_head and "
                                      "every 'norm' module go to fp32) and _prepare_model_for_quantization "
                                      "(is_qlora_and_fsdp_enabled: no prepare_model_for_kbit_training)",
         sharding=sh, deepspeed=False) for sh in ("zero2", "zero3", "fsdp")),
    _d("kbit_upcast", "none", "axolotl/loaders/model.py _prepare_model_for_quantization (is_deepspeed_zero3_enabled: "
                              "no prepare_model_for_kbit_training) and _configure_embedding_dtypes (norms and "
                              "embeddings back to torch_dtype)", sharding="zero3", deepspeed=True),
    _d("kbit_upcast", "all_but_embeddings", "axolotl/monkeypatch/peft/utils.py patch_peft_prep_code (applied when "
                                            "axolotl/loaders/model.py should_skip_peft_embedding_upcast: embed_tokens "
                                            "and lm_head left out of prepare_model_for_kbit_training's cast); "
                                            "axolotl/loaders/model.py _configure_embedding_dtypes (should_convert_"
                                            "embedding_dtypes: the norms and embeddings back to torch_dtype after it); "
                                            "skipped too when Axolotl quantises the experts itself "
                                            "(_moe_experts_quantized)"),
    _d("activation_offloading", False, "axolotl/utils/schemas/config.py activation_offloading=False"),
    _d("torch_compile", False, "axolotl/utils/schemas/config.py torch_compile=None"),
    _d("precompute_ref_log_probs", False, "axolotl/utils/schemas/config.py precompute_ref_log_probs=None"),
    _d("epochs", 1.0, "axolotl/utils/schemas/training.py num_epochs=1.0"),
    _d("no_sync_accumulation", True, "transformers/trainer.py _inner_training_loop (accelerator.no_sync on every "
                                     "micro-batch but the last unless sync_each_batch; not under DeepSpeed)",
       deepspeed=False),
    _d("fsdp_version", 1, "axolotl/utils/schemas/fsdp.py fsdp_version=None (accelerate FSDP1)"),
    _d("fsdp2_upcast", "none", "axolotl/loaders/patch_manager.py (any fsdp_config: patch_accelerate_fsdp2) and "
                               "axolotl/monkeypatch/accelerate/fsdp2.py patch_accelerate_fsdp2 (accelerate.accelerator."
                               "fsdp2_prepare_model replaced by Axolotl's own, which has no fp32 upcast loop: every "
                               "parameter keeps its load dtype, bf16, and accelerate's MixedPrecisionPolicy "
                               "param_dtype = reduce_dtype = bf16, accelerate/utils/dataclasses.py set_mixed_precision)"),
    _fused_experts("5.20.1"),
    _d("quantize_experts", False, "axolotl/utils/schemas/config.py quantize_moe_experts=False (when true, "
                                  "axolotl/monkeypatch/moe_quant.py patch_moe_quantization_on_load quantises every 3-D "
                                  "expert parameter with bitsandbytes replace_parameter_4bit; from 0.15.0, PR #3439)"),
    _d("lora_expert_params", False, "axolotl/utils/schemas/peft.py LoraConfig.lora_target_parameters=None"),
)

# --- LLaMA-Factory 0.9.5 (transformers 5.6.0, trl 0.24.0, peft 0.18.1, accelerate 1.11.0) -----------------------------
_LLAMAFACTORY = (
    _d("precision", "fp32", "transformers/training_args.py bf16=False; llamafactory/model/adapter.py "
                            "init_adapter (trainable params cast to fp32, no autocast)", method="full"),
    _d("precision", "bf16", "llamafactory/model/patcher.py (compute dtype inferred: a 16-bit base, fp32 adapters)",
       method="lora"),
    _d("precision", "bf16", "llamafactory/model/patcher.py (compute dtype inferred: a 16-bit base, fp32 adapters)",
       method="qlora"),
    _d("base_fp32", False, "llamafactory/model/patcher.py patch_config (compute_dtype = infer_optim_dtype)"),
    _d("load_dtype", "auto", "llamafactory/model/patcher.py patch_config (bf16 > fp16 > fp32 as the card allows)"),
    _d("bnb_4bit_compute_dtype", "bfloat16", "llamafactory/model/model_utils/quantization.py "
                                             "(bnb_4bit_compute_dtype=model_args.compute_dtype)"),
    _d("bnb_4bit_quant_type", "nf4", "llamafactory/hparams/model_args.py QuantizationArguments.quantization_type"),
    _d("double_quant", True, "llamafactory/hparams/model_args.py QuantizationArguments.double_quantization"),
    _d("bnb_4bit_quant_storage", "bfloat16", "llamafactory/model/model_utils/quantization.py "
                                             "(bnb_4bit_quant_storage=model_args.compute_dtype)"),
    _d("gradient_checkpointing", True, "llamafactory/hparams/model_args.py disable_gradient_checkpointing=False"),
    _d("fused_linear_cross_entropy", False, "llamafactory/hparams/model_args.py enable_liger_kernel=False"),
    _d("attention", "sdpa", "llamafactory/hparams/model_args.py flash_attn='auto' (transformers' sdpa)"),
    _d("optimizer", "adamw_torch_fused", "transformers/training_args.py TrainingArguments.optim 5.6.0 (torch >= 2.8)"),
    _d("micro_batch_size", 8, "transformers/training_args.py TrainingArguments.per_device_train_batch_size"),
    _d("grad_accum_steps", 1, "transformers/training_args.py TrainingArguments.gradient_accumulation_steps"),
    _d("seq_len", 2048, "llamafactory/hparams/data_args.py DataArguments.cutoff_len"),
    _d("packing", False, "llamafactory/hparams/parser.py (packing = stage == 'pt' when unset)"),
    _d("lora_rank", 8, "llamafactory/hparams/finetuning_args.py LoraArguments.lora_rank"),
    _d("lora_dropout", 0.0, "llamafactory/hparams/finetuning_args.py LoraArguments.lora_dropout"),
    _d("lora_targets", ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"),
       "llamafactory/hparams/finetuning_args.py LoraArguments.lora_target='all'"),
    _d("lora_dtype", "fp32", "llamafactory/model/adapter.py (trainable params cast to fp32 unless pure_bf16)"),
    _d("kbit_upcast", "none", "llamafactory/model/model_utils/checkpointing.py prepare_model_for_training (no "
                              "prepare_model_for_kbit_training; upcast_layernorm=False in hparams/model_args.py) and "
                              "model/adapter.py (only the trainable parameters cast to fp32)"),
    _d("activation_offloading", False, "llamafactory/hparams/model_args.py (no activation offloading switch)"),
    _d("torch_compile", False, "transformers/training_args.py TrainingArguments.torch_compile"),
    _d("precompute_ref_log_probs", False, "trl/trainer/dpo_config.py 0.24.0 DPOConfig.precompute_ref_log_probs"),
    _d("epochs", 3.0, "transformers/training_args.py TrainingArguments.num_train_epochs"),
    _d("no_sync_accumulation", True, "transformers/trainer.py _inner_training_loop (accelerator.no_sync on every "
                                     "micro-batch but the last unless sync_each_batch; not under DeepSpeed)",
       deepspeed=False),
    _d("fsdp_version", 1, "accelerate/commands/config/config_args.py 1.11.0"),
    _d("fsdp2_upcast", "all", "accelerate/utils/fsdp_utils.py fsdp2_prepare_model 1.11.0 (the whole model to fp32 "
                              "after sharding, frozen base included)"),
    _fused_experts("5.6.0"),
    _d("quantize_experts", False, "transformers 5.6.0 integrations/bitsandbytes.py replace_with_bnb_linear (converts "
                                  "nn.Linear modules only: the fused 3-D experts stay in the load dtype; "
                                  "bitsandbytes issue #1849)"),
    _d("lora_expert_params", False, "llamafactory/hparams/finetuning_args.py (no target_parameters: lora_target "
                                    "'all' is find_all_linear_modules, nn.Linear names only)"),
)

# --- Unsloth 2026.10.9 (transformers <= 5.17.0, trl <= 1.15.0) -----------------------------------------------------------
_UNSLOTH = (
    _d("method", "qlora", "unsloth/models/loader.py FastLanguageModel.from_pretrained(load_in_4bit=True)"),
    _d("precision", "bf16", "unsloth/models/loader.py from_pretrained(dtype=None: bf16 where the card has it)"),
    _d("base_fp32", False, "unsloth/models/loader.py from_pretrained(dtype=None)"),
    _d("load_dtype", "bfloat16", "unsloth/models/loader.py from_pretrained(dtype=None)"),
    _d("bnb_4bit_quant_type", "nf4", "unsloth/models/decision.py (BitsAndBytesConfig bnb_4bit_quant_type='nf4')"),
    _d("double_quant", True, "unsloth/models/decision.py (bnb_4bit_use_double_quant=True)"),
    _d("bnb_4bit_compute_dtype", "bfloat16", "unsloth/models/decision.py (bnb_4bit_compute_dtype bf16)"),
    _d("gradient_checkpointing", True, "unsloth/models/llama.py get_peft_model(use_gradient_checkpointing='unsloth')"),
    _d("activation_offloading", True, "unsloth/models/llama.py use_gradient_checkpointing='unsloth' (checkpointed "
                                      "layer inputs offloaded to host RAM)"),
    _d("fused_linear_cross_entropy", True, "unsloth_zoo/fused_losses/cross_entropy_loss.py unsloth_fused_ce_loss "
                                           "(unsloth-zoo 2026.10.9: lm_head and loss in chunks)"),
    _d("attention", "sdpa", "unsloth/models/loader.py (sdpa unless flash-attn is installed)"),
    _d("optimizer", "adamw_8bit", "studio/backend/core/training/worker.py (optim default 'adamw_8bit'); a script "
                                  "passes its own SFTConfig.optim"),
    _d("micro_batch_size", 2, "unsloth_cli/config.py TrainingConfig.batch_size"),
    _d("grad_accum_steps", 4, "unsloth_cli/config.py TrainingConfig.gradient_accumulation_steps"),
    _d("seq_len", 2048, "unsloth/models/loader.py from_pretrained(max_seq_length=2048)"),
    _d("packing", False, "unsloth_cli/config.py TrainingConfig.packing"),
    _d("lora_rank", 16, "unsloth/models/llama.py get_peft_model(r=16)"),
    _d("lora_dropout", 0.0, "unsloth/models/llama.py get_peft_model(lora_dropout=0.0)"),
    _d("lora_targets", ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"),
       "unsloth/models/llama.py _DEFAULT_TARGET_MODULES"),
    _d("lora_dtype", "fp32", "peft/peft_model.py autocast_adapter_dtype=True (adapters in fp32)"),
    _d("kbit_upcast", "none", "unsloth/models/_utils.py prepare_model_for_kbit_training -> unsloth_zoo "
                              "training_utils.py prepare_model_for_training(train_layernorms=False, "
                              "train_embedding=False, train_lm_head=False): only the trainable (LoRA) parameters are "
                              "cast, the frozen ones keep their dtype"),
    _d("torch_compile", False, "transformers/training_args.py TrainingArguments.torch_compile"),
    _d("precompute_ref_log_probs", False, "trl/trainer/dpo_config.py DPOConfig.precompute_ref_log_probs"),
    _d("epochs", 3.0, "unsloth_cli/config.py TrainingConfig.num_epochs"),
)

# --- torchtune 0.6.1 (development stopped, meta-pytorch/torchtune#2883); recipes/configs/ as shipped in the wheel --------
_TT_LORA = "recipes/configs/llama3_1/8B_qlora_single_device.yaml"
_TT_FULL = "recipes/configs/llama3_1/8B_full_single_device.yaml"
_TORCHTUNE = (
    _d("precision", "bf16", f"{_TT_LORA} dtype: bf16 (pure bf16, no AMP)"),
    _d("base_fp32", False, f"{_TT_LORA} dtype: bf16"),
    _d("qlora_backend", "torchao", "torchtune/modules/peft/lora.py (to_nf4 on the LoRA-wrapped linears only)"),
    _d("chunked_cross_entropy", True, f"{_TT_LORA} loss: torchtune.modules.loss.CEWithChunkedOutputLoss"),
    _d("gradient_checkpointing", True, f"{_TT_LORA} enable_activation_checkpointing: True"),
    _d("activation_offloading", False, f"{_TT_LORA} enable_activation_offloading: False"),
    _d("attention", "sdpa", "torchtune/modules/attention.py (k and v expanded to every query head, then SDPA)"),
    _d("optimizer", "adamw_torch_fused", f"{_TT_LORA} optimizer: torch.optim.AdamW, fused: True", method="lora"),
    _d("optimizer", "adamw_torch_fused", f"{_TT_LORA} optimizer: torch.optim.AdamW, fused: True", method="qlora"),
    _d("optimizer", "paged_adamw_8bit", f"{_TT_FULL} optimizer: bitsandbytes.optim.PagedAdamW8bit", method="full"),
    _d("optimizer_in_backward", True, f"{_TT_FULL} optimizer_in_bwd: True", method="full"),
    _d("optimizer_in_backward", False, "recipes/lora_finetune_single_device.py (no optimizer_in_bwd)", method="lora"),
    _d("optimizer_in_backward", False, "recipes/lora_finetune_single_device.py (no optimizer_in_bwd)", method="qlora"),
    _d("lora_dropout", 0.0, "torchtune/models/llama3_1/_component_builders.py lora_llama3_1(lora_dropout=0.0)"),
    _d("lora_dtype", "bf16", "recipes/lora_finetune_single_device.py (the model is built under "
                             "training.set_default_dtype(bf16): adapters too)"),
    _d("kbit_upcast", "none", "torchtune/modules/peft/lora.py (torchao NF4 on the LoRA-wrapped linears; no PEFT "
                              "preparation: the rest stays bf16)"),
    _d("micro_batch_size", 2, f"{_TT_FULL} batch_size: 2"),
    _d("epochs", 1.0, f"{_TT_LORA} epochs: 1"),
)


# --- What each framework recommends where its default is no choice for the method: the learning rate its own examples
# train with, per method (full / LoRA and QLoRA) and trainer (SFT / DPO). Every export writes it (it moves no byte of
# the estimate; issue 38 "honest instructions"). ``when`` as in the defaults: the first entry that holds is the value.
_TRL_SFT = "trl/scripts/sft.py 1.16.0 docstring"
_TRL_DPO = "trl/scripts/dpo.py 1.16.0 docstring"
_LR_TRL = (
    _d("learning_rate", 1.0e-6, f"{_GRPO}:423 GRPOConfig.learning_rate=1e-6 (TRL's GRPO default; its scripts/grpo.py "
                                "gives no other)", grpo=True),
    _d("learning_rate", 5.0e-7, f"{_TRL_DPO} '# Full training': --learning_rate 5.0e-7", dpo=True, method="full"),
    _d("learning_rate", 5.0e-6, f"{_TRL_DPO} '# LoRA:': --learning_rate 5.0e-6 --use_peft", dpo=True),
    _d("learning_rate", 2.0e-5, f"{_TRL_SFT} '# Full training': --learning_rate 2.0e-5 (SFTConfig.learning_rate "
                                "default 2e-5)", method="full"),
    _d("learning_rate", 2.0e-4, f"{_TRL_SFT} '# LoRA': --learning_rate 2.0e-4 --use_peft"),
)
_AX = "axolotl-ai-cloud/axolotl examples/ (v0.21 line, commit 067b021)"
_LR_AXOLOTL = (
    _d("learning_rate", 5.0e-7, "no full-DPO example in Axolotl, which runs TRL's DPOTrainer: trl/scripts/dpo.py "
                                "1.14.1 docstring '# Full training': --learning_rate 5.0e-7", dpo=True, method="full"),
    _d("learning_rate", 2.0e-4, f"{_AX} llama-3/instruct-dpo-lora-8b.yml, qwen2/dpo.yaml: learning_rate: 0.0002",
       dpo=True),
    _d("learning_rate", 2.0e-5, f"{_AX} llama-3/fft-8b.yaml, llama-3/fft-8b-liger-fsdp.yaml: learning_rate: 2e-5",
       method="full"),
    _d("learning_rate", 2.0e-4, f"{_AX} llama-3/lora-1b.yml, llama-3/qlora-1b.yml, mistral/qlora.yml: "
                                "learning_rate: 0.0002"),
)
_LF = "hiyouga/LLaMA-Factory examples/"
_LR_LLAMAFACTORY = (
    _d("learning_rate", 5.0e-7, "no full-DPO example in LLaMA-Factory, whose DPO trainer is TRL's DPOTrainer: "
                                "trl/scripts/dpo.py 0.24.0 docstring '# Full training': --learning_rate 5.0e-7",
       dpo=True, method="full"),
    _d("learning_rate", 5.0e-6, f"{_LF}train_lora/qwen3_lora_dpo.yaml: learning_rate: 5.0e-6", dpo=True),
    _d("learning_rate", 1.0e-5, f"{_LF}train_full/qwen3_full_sft.yaml: learning_rate: 1.0e-5", method="full"),
    _d("learning_rate", 1.0e-4, f"{_LF}train_lora/qwen3_lora_sft.yaml, train_qlora/qwen3_lora_sft_otfq.yaml: "
                                "learning_rate: 1.0e-4"),
)
_UN = "unslothai/notebooks python_scripts/"
_LR_UNSLOTH = (
    _d("learning_rate", 5.0e-7, "no full-DPO notebook; Unsloth runs TRL's DPOTrainer: trl/scripts/dpo.py 1.15.0 "
                                "docstring '# Full training': --learning_rate 5.0e-7", dpo=True, method="full"),
    _d("learning_rate", 5.0e-6, f"{_UN}Zephyr_(7B)-DPO.py: learning_rate = 5e-6", dpo=True),
    _d("learning_rate", 2.0e-5, "unslothai/unsloth studio/backend/assets/configs/full_finetune.yaml: learning_rate: "
                                "2e-5", method="full"),
    _d("learning_rate", 2.0e-4, f"{_UN}Llama3.1_(8B)-Alpaca.py, Qwen3_(14B).py: learning_rate = 2e-4; "
                                "unsloth_cli/config.py TrainingConfig.learning_rate=0.0002"),
)
#: Framework id -> its recommendations (``recommended``).
RECOMMENDED: dict[str, tuple[Default, ...]] = {"trl": _LR_TRL, "axolotl": _LR_AXOLOTL,
                                                "llamafactory": _LR_LLAMAFACTORY, "unsloth": _LR_UNSLOTH}


def recommended(framework: str, key: str, request: Mapping[str, Any]) -> Default:
    """The framework's recommended value of ``key`` (``learning_rate``) for a request like ``request`` (its method
    and trainer), with its source. KeyError when the framework recommends none."""
    for d in RECOMMENDED[framework]:
        if d.key == key and _applies(d, request):
            return d
    raise KeyError((framework, key))


def _fw(id_: str, version: str, stack: dict[str, str], table: tuple[Default, ...]) -> Framework:
    return Framework(id=id_, version=version, stack=stack, defaults=table)


FRAMEWORKS: dict[tuple[str, str], Framework] = {
    (f.id, f.version): f for f in (
        _fw("none", "", {}, tuple(_d(k, v, "calculator/inputs.py") for k, v in DEFAULTS.items() if BY_NAME[k].setup)),
        _fw("peft", "0.21.2", {"peft": "0.21.2", "transformers": "5.24.0", "accelerate": "1.15.0",
                               "bitsandbytes": "0.50.2"}, _PEFT_HF),
        _fw("trl", "1.16.0", {"trl": "1.16.0", "transformers": "5.24.0", "peft": "0.21.2", "accelerate": "1.15.0",
                              "deepspeed": "0.19.8", "bitsandbytes": "0.50.2"}, _TRL),
        _fw("axolotl", "0.21.0", {"axolotl": "0.21.0", "transformers": "5.20.1", "trl": "1.14.1", "peft": "0.21.2",
                                  "accelerate": "1.15.0", "deepspeed": "0.19.8"}, _AXOLOTL),
        _fw("llamafactory", "0.9.5", {"llamafactory": "0.9.5", "transformers": "5.6.0", "trl": "0.24.0",
                                      "peft": "0.18.1", "accelerate": "1.11.0", "deepspeed": "0.19.8"}, _LLAMAFACTORY),
        _fw("unsloth", "2026.10.9", {"unsloth": "2026.10.9", "transformers": "5.17.0", "trl": "1.15.0"}, _UNSLOTH),
        _fw("torchtune", "0.6.1", {"torchtune": "0.6.1", "torchao": "0.14.1"}, _TORCHTUNE),
    )
}

#: The framework ids, in the order the form and the exports list them (the ``framework`` request key's choices).
IDS: tuple[str, ...] = FRAMEWORK_IDS
#: The version each framework id means when none is given (the one the exports are validated against).
LATEST: dict[str, str] = {"none": "", "peft": "0.21.2", "trl": "1.16.0", "axolotl": "0.21.0", "llamafactory": "0.9.5",
                          "unsloth": "2026.10.9", "torchtune": "0.6.1"}


def versions(framework: str) -> tuple[str, ...]:
    """The versions the table holds for ``framework``."""
    return tuple(v for (f, v) in FRAMEWORKS if f == framework)


def get(framework: str, version: str | None = None) -> Framework:
    """The table's entry for ``framework`` at ``version`` (None: ``LATEST``). KeyError for an unknown pair."""
    return FRAMEWORKS[(framework, LATEST[framework] if version is None else version)]


def _applies(d: Default, request: Mapping[str, Any]) -> bool:
    return all(request.get(k, DEFAULTS.get(k)) == v for k, v in d.when.items())


def defaults(framework: str, version: str | None = None, request: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Key -> value the framework uses when its config omits the key, for a request with these keys (conditional
    entries are resolved against ``request``; entries whose condition does not hold are left out)."""
    req = request or {}
    out: dict[str, Any] = {}
    for d in get(framework, version).defaults:
        if _applies(d, req):
            out.setdefault(d.key, d.value)
    return out


def default(framework: str, key: str, version: str | None = None,
            request: Mapping[str, Any] | None = None) -> Default | None:
    """The entry (value and source) for one key, or None when the table says nothing about it."""
    req = request or {}
    for d in get(framework, version).defaults:
        if d.key == key and _applies(d, req):
            return d
    return None


#: The regime keys that are a request key under another name (issue 19): regime key -> (request key, the
#: framework's spelling -> the request key's value). The other regime keys need none: ``load_dtype`` is
#: ``base_fp32`` (also in each table), ``bnb_4bit_quant_type`` changes no byte (nf4 and fp4 are both 4 bits), and
#: ``fused_lm_head`` is ``fused_linear_cross_entropy``; ``fsdp_version``, ``fsdp2_upcast``,
#: ``ddp_gradient_as_bucket_view`` and ``deepspeed_bf16_master_weights`` are request keys of the same name.
REGIME_REQUEST: dict[str, tuple[str, dict[Any, Any]]] = {
    "bnb_4bit_compute_dtype": ("qlora_compute_dtype", {"float32": "fp32", "bfloat16": "bf16"}),
    "bnb_4bit_quant_storage": ("quant_storage", {"uint8": "uint8", "bfloat16": "bf16"}),
}


def request_defaults(framework: str, request: Mapping[str, Any] | None = None,
                     version: str | None = None) -> dict[str, Any]:
    """The request keys ``framework``'s defaults fill in a request that leaves them out, in the API's form (lists
    for module lists, regime keys under their request key, ``REGIME_REQUEST``). Conditional entries are resolved
    against the request with the framework's own unconditional defaults under it (Unsloth's ``method`` qlora is
    what its ``when`` entries see when the request gives no method). ``none`` fills nothing: the API's defaults are
    its own."""
    req = dict(request or {})
    if framework == "none":
        return {}
    first = {k: v for k, v in defaults(framework, version, req).items() if k in BY_NAME}
    out: dict[str, Any] = {}
    for key, value in defaults(framework, version, {**first, **req}).items():
        if key in REGIME_REQUEST:
            key, value = REGIME_REQUEST[key][0], REGIME_REQUEST[key][1][value]
        if key in BY_NAME and key != "framework":
            out[key] = list(value) if isinstance(value, tuple) else value
    # A framework whose config leaves the 4-bit storage at bitsandbytes' uint8 runs under FSDP1 with the bf16 storage
    # its FSDP QLoRA guide sets (params.fsdp1_refuses_uint8), as recommend.setup_for does for more cards; a reader
    # who asks for uint8 there is still refused (api: contradiction).
    if "quant_storage" in out and "quant_storage" not in req and fsdp1_refuses_uint8({**DEFAULTS, **out, **req}):
        out["quant_storage"] = "bf16"
    return out


def _check_table() -> None:
    """Every entry names a request key or a regime key; a request-key value passes that key's own check. Checked at
    import: a wrong entry fails every use at once (TypeError naming the framework, the key and the rule; not
    ``assert``, which ``python -O`` would skip)."""
    for fw in FRAMEWORKS.values():
        if fw.id not in IDS or LATEST[fw.id] not in versions(fw.id):
            raise TypeError(f"calculator/frameworks.py: {fw.id}: not in FRAMEWORK_IDS, or LATEST has no table")
        for d in fw.defaults:
            spec = BY_NAME.get(d.key)
            rules = (
                ("names a request key or a regime key", d.key in BY_NAME or d.key in REGIME_KEYS),
                ("says where the framework sets it (source)", bool(d.source)),
                ("its `when` names request keys", all(k in BY_NAME for k in d.when)),
                ("a regime's value is one of the regime's", d.key not in REGIME_REQUEST
                 or d.value in REGIME_REQUEST[d.key][1]),
                ("an enum's value is one of its choices", spec is None or not spec.choices or spec.kind != "enum"
                 or d.value in spec.choices),
            )
            for rule, ok in rules:
                if not ok:
                    raise TypeError(f"calculator/frameworks.py: {fw.id} {fw.version}: {d.key}: {rule}")
    for fid, table in RECOMMENDED.items():
        for d in table:
            if fid not in IDS or not d.source or not all(k in BY_NAME for k in d.when):
                raise TypeError(f"calculator/frameworks.py: {fid}: recommended {d.key}: an id, a source, request keys")

_check_table()
