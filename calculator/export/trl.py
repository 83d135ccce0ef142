"""TRL 1.16 CLI: ``trl sft|dpo|grpo --config {sft,dpo,grpo}.yaml`` (``TrlParser`` over ScriptArguments,
SFTConfig|DPOConfig, ModelConfig, DatasetMixtureConfig: ``trl/scripts/sft.py``, ``dpo.py``; GRPOScriptArguments and
GRPOConfig for ``grpo.py``, whose ``reward_funcs`` take a dotted import path: the export's ``reward.py``, a fixed
placeholder reward), with an accelerate config (DDP, FSDP2, or DeepSpeed with its JSON) for more than one GPU.

Keys, read at the pinned versions: ModelConfig (``trl/trainer/model_config.py``: ``dtype`` default float32,
``use_bnb_nested_quant`` False, ``bnb_4bit_quant_storage`` None = uint8, ``lora_dropout`` 0.05), TRL's
``_BaseConfig`` (``gradient_checkpointing`` True, ``bf16`` True unless fp16), transformers 5.24 TrainingArguments
(``activation_checkpointing``, its deprecated alias ``gradient_checkpointing``; ``optim`` default
``adamw_torch_fused``), SFTConfig (``max_length`` 1024, ``packing``), DPOConfig (no ``packing``; ``disable_dropout``
True; ``precompute_ref_log_probs``). TRL 1.16 computes the loss through a fused LM head in tiles
(``trl/trainer/utils.py add_fused_lm_head``) in both trainers, with no switch.
"""
from __future__ import annotations

from typing import Any, Mapping

from .. import api, frameworks
from . import _yaml
from ._common import (GRPO_KEYS, HF_OPTIM, MEASURE_FILE, MEASURE_PY, Plan, ReadState, accelerate_yaml, card_bf16, defaults_for,
                      deepspeed_json, header, hf_stack_rules, kbit_upcast_rule, learning_rate, name_words,
                      optimizer_from,
                      read_accelerate, read_deepspeed, read_trainer_fsdp, render, sharding_rules, targets_from,
                      targets_list)

TARGET = "trl"
ACCELERATE_FILE = "accelerate.yaml"
DEEPSPEED_FILE = "ds_config.json"
#: GRPO's reward: a fixed file (nothing of the request or of a pasted config goes into it), named in ``grpo.yaml`` by
#: its dotted path (trl/scripts/grpo.py 1.16.0 imports ``reward.length_reward`` from the working directory).
REWARD_FILE = "reward.py"
REWARD_FUNC = "reward.length_reward"
REWARD_PY = '''"""A placeholder reward for the GRPO export: replace it with yours. TRL calls each reward function with the
batch's prompts and completions (and the dataset's other columns as keyword arguments) and takes one float per
completion (trl/trainer/grpo_trainer.py _calculate_rewards). This one prefers shorter completions: it only makes the
run start, it teaches nothing useful.
"""


def length_reward(completions, **kwargs):
    """Minus the length of each completion, in characters (a conversational completion: its last message's text)."""
    rewards = []
    for completion in completions:
        if isinstance(completion, list) and completion and isinstance(completion[-1], dict):
            completion = completion[-1].get("content", "")
        rewards.append(-float(len(str(completion))))
    return rewards
'''

#: Request keys these files write (the reader reads each back). Every other export key is ``LEFT_TO_DEFAULT``: the
#: files run TRL's default for it (``Plan.settle`` lists it where the request asked otherwise, unless a rule of
#: ``plan`` already set it). tests/unit/test_export_keys.py holds that every key is declared once.
WRITTEN: frozenset[str] = frozenset((
    "method", "dpo", "precompute_ref_log_probs", "lora_rank", "lora_targets", "lora_dtype", "lora_dropout",
    "double_quant", "qlora_backend", "micro_batch_size", "seq_len", "grad_accum_steps", "gradient_checkpointing",
    "attention", "precision", "base_fp32", "optimizer", "chunked_cross_entropy", "torch_compile",
    "fused_linear_cross_entropy", "activation_offloading", "num_gpus", "sharding", "cpu_offload", "offload_params",
    "deepspeed", "reduce_bucket_size", "no_sync_accumulation", "packing", "epochs",
    "fsdp_version", "cpu_ram_efficient_loading", "qlora_compute_dtype",
    "quant_storage",
)) | GRPO_KEYS
#: GRPO: these files write it (``trl grpo``), so nothing is refused.
GRPO_REFUSAL: str | None = None
#: The keys these files leave to trl's default (``Plan.settle``; a rule of ``plan`` may set one first).
LEFT_TO_DEFAULT: frozenset[str] = frozenset((
    "quantize_experts",
    "kbit_upcast",
    "quantize_lm_head", "dequant_cast", "moe_layout", "lora_expert_params", "half_dtype", "keeps_logits",
    "optimizer_in_backward", "frozen_param_grads", "fsdp2_upcast", "shard_embeddings",
    "ddp_gradient_as_bucket_view", "deepspeed_bf16_master_weights", "deepspeed_bf16_optimizer_states",
    "untie_embeddings", "attention_kernel",
))


def trainer_name(plan: Plan) -> str:
    """The TRL command (``trl sft|dpo|grpo``) the files run."""
    return "grpo" if plan["grpo"] else "dpo" if plan["dpo"] else "sft"


def config_file(plan: Plan) -> str:
    return f"{trainer_name(plan)}.yaml"


def plan(p: Plan) -> None:
    """What TRL cannot write, and the closest setting it runs instead."""
    k = p.keys
    hf_stack_rules(p)
    if k["method"] == "qlora" and k["precision"] != "fp32":     # SFTTrainer / DPOTrainer cast a 4-bit model's adapters
        p.cannot_express("lora_dtype", "bf16", "trl_casts_4bit_adapters_bf16", "none")
    p.cannot_express("fused_linear_cross_entropy", True, "trl_fused_lm_head_always", "none")
    if k["chunked_cross_entropy"]:
        p.adjust("chunked_cross_entropy", False, "fused_replaces_chunked")
    if k["dpo"]:
        p.cannot_express("packing", False, "dpo_config_no_packing", "none")
    if k["grpo"]:           # GRPOConfig 1.16 has no activation_offloading field (SFTConfig and DPOConfig have)
        p.cannot_express("activation_offloading", False, "grpo_config_no_activation_offloading", "none")
    sharding_rules(p, sync_each_batch=True)
    if k["method"] == "qlora":
        # get_quantization_config: bnb_4bit_compute_dtype is ModelConfig.dtype, the dtype the file loads in
        p.cannot_express("qlora_compute_dtype", "fp32" if _dtype(p) == "float32" else "bf16",
                         "trl_compute_follows_dtype", "none")
        # bnb_4bit_quant_storage is written (the card's 16-bit dtype) only where the 4-bit weights are sharded
        p.cannot_express("quant_storage", "bf16" if p.sharded_4bit() else "uint8", "files_keep_framework_default",
                         "none")
    else:                           # no 4-bit layers: what the reader fills in
        fill = defaults_for(TARGET, k)
        p.adjust("qlora_compute_dtype", fill["qlora_compute_dtype"], "ignored_by_estimate")
        p.adjust("quant_storage", fill["quant_storage"], "ignored_by_estimate")
    kbit_upcast_rule(p)                        # TRL 1.16 calls no prepare_model_for_kbit_training


def _dtype(p: Plan) -> str:
    if p["precision"] == "fp32" or (p["precision"] == "mixed" and (p["method"] == "full" or p["base_fp32"])):
        return "float32"
    return p.half()


def write(p: Plan, summary: Mapping[str, Any] | None, text: Mapping[str, str] | None) -> dict[str, str]:
    k = p.keys
    d = frameworks.defaults(TARGET, request=k)
    fsdp = k["sharding"] != "none" and not k["deepspeed"]
    multi = k["num_gpus"] > 1 or k["sharding"] != "none"
    cfg_name = config_file(p)
    files: dict[str, str] = {}
    items: list[tuple[str, Any, str | None]] = []
    add = items.append

    def why(code: str, value: Any, default: Any, differs: bool | None = None) -> str | None:
        if differs is None:
            differs = value != default
        return render(code, text, value=value, default=default, framework="TRL") if differs else None

    repo = p.hf_repo()
    add(("model_name_or_path", repo or "<EDIT: model>", None if repo else render("edit_model", text)))
    dtype = _dtype(p)
    add(("dtype", dtype, why("why_dtype", dtype, d["load_dtype"])))
    attn = {"eager": "eager", "sdpa": "sdpa", "flash": "flash_attention_2"}[k["attention"]]
    add(("attn_implementation", attn, why("why_attention", attn, "sdpa")))
    if k["method"] != "full":
        add(("use_peft", True, None))
        add(("lora_r", k["lora_rank"], why("why_rank", k["lora_rank"], d["lora_rank"])))
        add(("lora_alpha", 2 * k["lora_rank"], None))
        add(("lora_dropout", k["lora_dropout"], why("why_dropout", k["lora_dropout"], 0.05)))
        add(("lora_target_modules", targets_list(k["lora_targets"]), render("why_targets", text, default="q_proj, v_proj")))
    if k["method"] == "qlora":
        add(("load_in_4bit", True, None))
        add(("bnb_4bit_quant_type", "nf4", None))
        add(("use_bnb_nested_quant", k["double_quant"], why("why_double_quant", k["double_quant"], False)))
        if p.sharded_4bit():
            add(("bnb_4bit_quant_storage", p.half(), render("why_quant_storage", text)))
    add(("dataset_name", "<EDIT: dataset>", render("edit_dataset", text)))
    add(("output_dir", "<EDIT: output dir>", render("edit_output", text)))
    add(("per_device_train_batch_size", k["micro_batch_size"], why("why_batch", k["micro_batch_size"], 8)))
    add(("gradient_accumulation_steps", k["grad_accum_steps"], None))
    add(("learning_rate", learning_rate(p), render("why_lr", text, framework="TRL")))
    if k["grpo"]:
        items.extend(_grpo_items(p, text))
    else:
        add(("max_length", k["seq_len"], why("why_seq_len", k["seq_len"], 1024)))
    if not k["dpo"] and not k["grpo"]:
        add(("packing", k["packing"], why("why_packing", k["packing"], False)))
    if k["precision"] == "fp32":
        add(("bf16", False, None))
    elif card_bf16(p.gpu):
        add(("bf16", True, None))
    else:
        add(("bf16", False, None))
        add(("fp16", True, render("why_fp16", text)))
    ac = k["gradient_checkpointing"] and not fsdp
    add(("activation_checkpointing", ac, render("why_fsdp_checkpointing", text) if fsdp and k["gradient_checkpointing"]
         else why("why_checkpointing", ac, True)))
    if k["activation_offloading"]:
        add(("activation_offloading", True, render("why_offload", text)))
    if k["torch_compile"]:
        add(("torch_compile", True, render("why_compile", text)))
    optim, optim_args = HF_OPTIM[k["optimizer"]]
    add(("optim", optim, why("why_optimizer", optim, d["optimizer"])))
    if optim_args:
        add(("optim_args", optim_args, None))
    if k["dpo"]:
        if k["precompute_ref_log_probs"]:
            add(("precompute_ref_log_probs", True, render("why_precompute", text)))
        if k["method"] != "full" and k["lora_dropout"] > 0:
            add(("disable_dropout", False, render("why_disable_dropout", text)))
    if fsdp and k["grad_accum_steps"] > 1 and not k["no_sync_accumulation"]:
        add(("accelerator_config", [("gradient_accumulation_kwargs", [("sync_each_batch", True, None)], None)],
             render("why_sync", text)))
    add(("num_train_epochs", k["epochs"], why("why_epochs", k["epochs"], d["epochs"])))
    add(("report_to", "none", None))

    command = f"trl {trainer_name(p)} --config {cfg_name}"
    module = f"trl.scripts.{trainer_name(p)}"
    measure = f"python {MEASURE_FILE} {module} --config {cfg_name}"
    companions = []
    if multi:
        command += f" --accelerate_config {ACCELERATE_FILE}"
        measure = f"accelerate launch --config_file {ACCELERATE_FILE} {MEASURE_FILE} {module} --config {cfg_name}"
        companions.append(ACCELERATE_FILE)
        if k["deepspeed"]:
            companions.append(DEEPSPEED_FILE)
    if k["grpo"]:
        steps: tuple[str, ...] = (render("data_grpo", text, prompt_len=p.passthrough.get(
            "grpo_prompt_len", api.DEFAULTS["grpo_prompt_len"]), file=REWARD_FILE),)
        if k["grpo_generator"] == "vllm_server":
            steps += (render("grpo_server", text, command=_server_command(p)),)
        companions.insert(0, REWARD_FILE)
    else:
        steps = (render("data_dpo" if k["dpo"] else "data_trl_sft", text),)
    head = header(p, summary, command, measure, text, companions, steps=steps)
    files[cfg_name] = "\n".join(head + _yaml.dump(items)) + "\n"
    if multi:
        files[ACCELERATE_FILE] = accelerate_yaml(p, DEEPSPEED_FILE if k["deepspeed"] else None, head[:2], text)
        if k["deepspeed"]:
            files[DEEPSPEED_FILE] = deepspeed_json(p)
    if k["grpo"]:
        files[REWARD_FILE] = REWARD_PY
    files[MEASURE_FILE] = MEASURE_PY
    return files


def _grpo_items(p: Plan, text: Mapping[str, str] | None) -> list[tuple[str, Any, str | None]]:
    """GRPOConfig's fields for the GRPO keys (trl/trainer/grpo_config.py 1.16.0), TRL's default left out."""
    k = p.keys
    items: list[tuple[str, Any, str | None]] = [("reward_funcs", [REWARD_FUNC], render("why_reward", text,
                                                                                         file=REWARD_FILE))]
    add = items.append
    add(("max_completion_length", k["grpo_completion_len"], None))
    add(("num_generations", k["grpo_num_generations"], None))
    if k["grpo_steps_per_generation"] is not None:
        add(("steps_per_generation", k["grpo_steps_per_generation"], None))
    add(("beta", k["grpo_beta"], None))
    add(("num_iterations", k["grpo_num_iterations"], None))
    add(("loss_type", k["grpo_loss_type"], None))
    generator = k["grpo_generator"]
    add(("use_vllm", generator != "transformers", None))
    if generator != "transformers":
        add(("vllm_mode", "colocate" if generator == "vllm_colocate" else "server", None))
    if generator == "vllm_colocate":
        add(("vllm_gpu_memory_utilization", k["vllm_gpu_memory_utilization"], None))
        add(("vllm_enable_sleep_mode", k["vllm_enable_sleep_mode"], None))
        if k["vllm_max_model_length"] is not None:
            add(("vllm_max_model_length", k["vllm_max_model_length"], None))
    return items


def _server_command(p: Plan) -> str:
    """``trl vllm-serve`` for the server mode, on GPUs of its own (trl/scripts/vllm_serve.py 1.16.0: ``--model``,
    ``--max_model_len``; its ``gpu_memory_utilization`` stays 0.9, the estimate's ``VLLM_SERVE_UTILIZATION``)."""
    repo = p.hf_repo() or "<EDIT: model>"
    length = p.original["vllm_max_model_length"]       # the keys say None: the trainer's files do not read it
    return f"trl vllm-serve --model {repo}" + (f" --max_model_len {length}" if length is not None else "")


# =====================================================================================================================
# Reading a TRL config (+ accelerate YAML, + DeepSpeed JSON)
# =====================================================================================================================


#: Keys only one TRL trainer's config has (TRL 1.16 ``trl/trainer/*_config.py``), the trainers the estimator does
#: not model first: a GRPO config has ``beta`` and ``loss_type`` too, so those two alone do not make it DPO.
_TRAINER_KEYS: tuple[tuple[str, frozenset[str]], ...] = (
    ("grpo", frozenset({"num_generations", "reward_funcs", "reward_weights", "use_vllm", "vllm_mode",
                        "vllm_gpu_memory_utilization", "num_iterations", "scale_rewards", "generation_batch_size",
                        "steps_per_generation", "mask_truncated_completions", "top_entropy_quantile",
                        "importance_sampling_level", "epsilon_high"})),
    ("kto", frozenset({"desirable_weight", "undesirable_weight"})),
    ("cpo", frozenset({"cpo_alpha", "simpo_gamma"})),
    ("reward", frozenset({"center_rewards_coefficient"})),
    ("ppo", frozenset({"num_ppo_epochs", "vf_coef", "cliprange_value", "whiten_rewards", "kl_estimator",
                       "missing_eos_penalty"})),
    ("rloo", frozenset({"rloo_k"})),
    ("dpo", frozenset({"precompute_ref_log_probs", "rpo_alpha", "ref_model_init_kwargs", "ref_adapter_name",
                       "sync_ref_model", "ref_model_mixup_alpha", "ref_model_sync_steps", "reference_free",
                       "f_divergence_type", "use_weighting", "ld_alpha", "discopop_tau"})),
    ("sft", frozenset({"packing", "packing_strategy", "dataset_text_field", "completion_only_loss",
                       "assistant_only_loss", "eos_token", "dataset_kwargs"})),
)
#: Keys every preference trainer's config has (DPO, ORPO, CPO, KTO, GRPO): a preference trainer, named by the file
#: name when it says which, else DPO's (``trl dpo``).
_PREFERENCE_KEYS = frozenset({"beta", "loss_type", "disable_dropout", "max_prompt_length", "max_completion_length",
                              "label_smoothing", "generate_during_eval"})
_SFT_KEYS = dict(_TRAINER_KEYS)["sft"]
#: ``loss_type`` values of GRPOConfig (TRL 1.16): a config with one of them is GRPO's whatever else it holds.
_GRPO_LOSSES = frozenset({"grpo", "bnpo", "dr_grpo", "dapo", "cispo", "sapo", "gspo"})
#: Words of a file name that name a trainer (the tie-breaker when the keys name none: ``dpo.yaml``).
_TRAINER_NAMES = ("grpo", "kto", "orpo", "cpo", "ppo", "rloo", "reward", "dpo", "sft")


def trainer_of(cfg: Mapping[str, Any], name: str = "") -> str:
    """Which TRL trainer a config is for (``sft``, ``dpo``, or another one the estimator does not model: ``grpo``,
    ``kto``, ``orpo``…): from the keys only that trainer's config has, then a word of the file name, else SFT
    (``trl sft``)."""
    if cfg.get("loss_type") in _GRPO_LOSSES:
        return "grpo"
    for trainer, keys in _TRAINER_KEYS:
        if keys & set(cfg):
            return trainer
    named = [trainer for trainer in _TRAINER_NAMES if trainer in name_words(name)]
    if _PREFERENCE_KEYS & set(cfg):
        return next((trainer for trainer in named if trainer != "sft"), "dpo")
    return named[0] if named else "sft"


def read(state: ReadState, cfgs: Mapping[str, Mapping[str, Any]], kinds: Mapping[str, str]) -> None:
    found = state.main_file(cfgs, kinds)
    if found is None:
        return
    name, cfg = found
    t = lambda key: state.take(name, cfg, key)  # noqa: E731
    trainer = trainer_of(cfg, name)
    if trainer not in ("sft", "dpo", "grpo"):
        state.error("unsupported_trainer", name, trainer.upper())
        return
    dpo, grpo = trainer == "dpo", trainer == "grpo"
    state.set("dpo", dpo)
    state.set("grpo", grpo)
    state.read_model(name, cfg, "model_name_or_path")
    req = {"dpo": dpo, "grpo": grpo}
    use_peft = state.typed(name, "use_peft", t("use_peft"), bool) or False
    q4 = state.typed(name, "load_in_4bit", t("load_in_4bit"), bool) or False
    q8 = state.typed(name, "load_in_8bit", t("load_in_8bit"), bool) or False
    if q8:
        state.error("not_modelled", name, "load_in_8bit")
    if (q4 or q8) and not use_peft:
        state.error("contradiction", name, "load_in_4bit" if q4 else "load_in_8bit")
    method = "qlora" if use_peft and q4 else "lora" if use_peft else "full"
    state.set("method", method)
    req["method"] = method
    d = frameworks.defaults(TARGET, request=req)
    # --- precision -----------------------------------------------------------------------------------------------
    dtype = t("dtype") if "dtype" in cfg else d["load_dtype"]
    if dtype not in ("auto", "bfloat16", "float16", "float32"):
        state.error("unknown_value", name, "dtype")
        dtype = "float32"
    fp16 = state.typed(name, "fp16", t("fp16"), bool) or False
    bf16 = state.typed(name, "bf16", t("bf16"), bool)
    bf16 = (not fp16) if bf16 is None else bf16
    if bf16 and fp16:
        state.error("contradiction", name, "fp16")
    amp = bf16 or fp16
    if dtype == "float32":
        precision = "mixed" if amp else "fp32"
    else:
        precision = "bf16"
    state.set("precision", precision)
    state.set("base_fp32", precision == "mixed" and method != "full")
    # --- LoRA ------------------------------------------------------------------------------------------------------
    if method != "full":
        state.set("lora_rank", state.typed(name, "lora_r", t("lora_r"), int) if "lora_r" in cfg else d["lora_rank"])
        targets = t("lora_target_modules")
        if targets is None:
            state.set("lora_targets", d["lora_targets"])
        else:
            names = targets_from(targets)
            if names is None:
                state.error("unknown_value", name, "lora_target_modules")
            state.set("lora_targets", names)
        dropout = state.typed(name, "lora_dropout", t("lora_dropout"), float) if "lora_dropout" in cfg else 0.05
        disable = state.typed(name, "disable_dropout", t("disable_dropout"), bool) if "disable_dropout" in cfg \
            else True
        disable = disable if "disable_dropout" in cfg or not grpo else False     # GRPOConfig: False
        state.set("lora_dropout", 0.0 if (dpo or grpo) and disable else dropout)
        state.set("lora_dtype", d["lora_dtype"])     # fp32 (PEFT's autocast), bf16 for a 4-bit model (SFTTrainer)
        for key in ("use_dora",):
            if state.typed(name, key, t(key), bool):
                state.error("not_modelled", name, key)
        for key in ("lora_alpha", "use_rslora", "lora_task_type", "lora_modules_to_save", "lora_target_parameters"):
            if key in cfg:
                t(key)
                if key in ("lora_modules_to_save", "lora_target_parameters") and cfg[key]:
                    state.unread_key(name, key, None, "not_modelled")
    if method == "qlora":
        state.set("double_quant", state.typed(name, "use_bnb_nested_quant", t("use_bnb_nested_quant"), bool)
                  if "use_bnb_nested_quant" in cfg else d["double_quant"])
        state.set("qlora_backend", "bitsandbytes")
        qt = t("bnb_4bit_quant_type")
        if qt is not None and qt not in ("nf4", "fp4"):
            state.error("unknown_value", name, "bnb_4bit_quant_type")
        # ModelConfig -> BitsAndBytesConfig: the storage as written (None: bitsandbytes' uint8), the compute dtype
        # is the model's ``dtype`` (trl/trainer/utils.py get_quantization_config)
        storage = {None: "uint8", "uint8": "uint8", "bfloat16": "bf16", "float16": "bf16"}.get(
            state.name(name, "bnb_4bit_quant_storage", t("bnb_4bit_quant_storage")), "")
        if storage:
            state.set("quant_storage", storage)
        else:
            state.unread_key(name, "bnb_4bit_quant_storage", cfg.get("bnb_4bit_quant_storage"), "not_modelled")
        state.set("qlora_compute_dtype", "fp32" if dtype == "float32" else "bf16")
    # --- batch, length, checkpointing, kernels ------------------------------------------------------------------
    state.set("micro_batch_size", state.typed(name, "per_device_train_batch_size", t("per_device_train_batch_size"),
                                              int) if "per_device_train_batch_size" in cfg else d["micro_batch_size"])
    state.set("grad_accum_steps", state.typed(name, "gradient_accumulation_steps", t("gradient_accumulation_steps"),
                                              int) if "gradient_accumulation_steps" in cfg else 1)
    if grpo:
        _read_grpo(state, name, cfg)
    else:
        if "max_length" in cfg and t("max_length") is None:
            state.error("not_modelled", name, "max_length")
        state.set("seq_len", state.typed(name, "max_length", cfg.get("max_length"), int) if "max_length" in cfg
                  else d["seq_len"])
        state.set("packing", (state.typed(name, "packing", t("packing"), bool) or False) if not dpo else False)
    ac, gc = t("activation_checkpointing"), t("gradient_checkpointing")
    ac = state.typed(name, "activation_checkpointing", ac, bool)
    gc = state.typed(name, "gradient_checkpointing", gc, bool)
    if ac is not None and gc is not None and ac != gc:
        state.error("contradiction", name, "gradient_checkpointing")
    state.set("gradient_checkpointing", ac if ac is not None else gc if gc is not None else d["gradient_checkpointing"])
    kwargs = t("activation_checkpointing_kwargs") or t("gradient_checkpointing_kwargs") or {}
    offload = state.typed(name, "activation_offloading", t("activation_offloading"), bool) or False
    state.set("activation_offloading", offload or (isinstance(kwargs, dict) and kwargs.get("offload") is True))
    state.set("torch_compile", state.typed(name, "torch_compile", t("torch_compile"), bool) or False)
    attn = state.name(name, "attn_implementation", t("attn_implementation"))
    amap = {None: "sdpa", "sdpa": "sdpa", "eager": "eager", "flash_attention_2": "flash", "flash_attention_3": "flash"}
    if attn not in amap:
        state.error("unknown_value", name, "attn_implementation")
    state.set("attention", amap.get(attn))
    optim = t("optim") if "optim" in cfg else d["optimizer"]
    opt = optimizer_from(optim, t("optim_args"))
    if opt is None:
        state.error("not_modelled", name, "optim")
    state.set("optimizer", opt)
    state.set("fused_linear_cross_entropy", True)
    state.set("chunked_cross_entropy", False)
    for key in ("use_liger_kernel", "loss_type", "padding_free", "beta", "disable_dropout", "max_prompt_length",
                "packing_strategy", "pad_to_multiple_of", "dataset_name", "output_dir", "report_to"):
        t(key)
    if dpo:
        state.set("precompute_ref_log_probs",
                  state.typed(name, "precompute_ref_log_probs", t("precompute_ref_log_probs"), bool) or False)
    epochs = state.typed(name, "num_train_epochs", t("num_train_epochs"), float) if "num_train_epochs" in cfg \
        else d["epochs"]
    state.set("epochs", epochs)
    # --- several GPUs -----------------------------------------------------------------------------------------------
    state.set("num_gpus", 1)
    state.set("sharding", "none")
    acc_files = [n for n in cfgs if kinds[n] == "accelerate"]
    if "deepspeed" in cfg:
        t("deepspeed")
    amp_name = "no" if not amp else "bf16" if bf16 else "fp16"
    for acc in acc_files:
        read_accelerate(state, acc, cfgs[acc], amp_name)
    # the training file's own FSDP: TrainingArguments builds accelerate's FSDP plugin from it, over accelerate's config
    read_trainer_fsdp(state, name, t("fsdp"), t("fsdp_config"), default_version=2, config_offload=True)
    for ds in (n for n in cfgs if kinds[n] == "deepspeed"):
        read_deepspeed(state, ds, cfgs[ds], {"micro_batch": state.keys.get("micro_batch_size"),
                                              "accum": state.keys.get("grad_accum_steps"), "bf16": bf16},
                       _hidden(state))
    if state.keys.pop("fsdp_activation_checkpointing", False):
        state.set("gradient_checkpointing", True)
    if state.keys.get("sharding") not in (None, "none") and not state.keys.get("deepspeed"):
        ga = state.keys.get("grad_accum_steps", 1)
        acc_cfg = state.mapping(name, "accelerator_config", t("accelerator_config"))
        sync = state.typed(name, "accelerator_config.gradient_accumulation_kwargs.sync_each_batch", state.mapping(
            name, "accelerator_config.gradient_accumulation_kwargs", acc_cfg.get("gradient_accumulation_kwargs")).get(
                "sync_each_batch"), bool) is True
        state.set("no_sync_accumulation", ga > 1 and not sync)
        state.set("frozen_param_grads", False)
    if "grpo_generation_batch_size" in state.keys:       # GRPOConfig.__post_init__: over every process's batch
        batch = state.keys.pop("grpo_generation_batch_size")
        per_step = state.keys.get("micro_batch_size", 1) * state.keys.get("num_gpus", 1)
        if batch is not None and batch % per_step:
            state.error("contradiction", name, "generation_batch_size")
        elif batch is not None:
            state.set("grpo_steps_per_generation", batch // per_step)
    if state.keys.get("quant_storage") == "uint8" and method == "qlora" and state.keys.get("sharding") == "zero3":
        state.unread_key(name, "bnb_4bit_quant_storage", "uint8", "not_modelled")     # uint8 4-bit shards: not modelled
    state.finish_unread(name, cfg)
    if trainer == "sft" and not (_SFT_KEYS & set(cfg)) and "sft" not in name_words(name):
        state.unread_key(name, "trainer", "sft", "trainer_assumed")     # no key, no name says SFT or DPO


#: GRPOConfig keys that move memory in a way the estimate does not follow (trl/trainer/grpo_config.py 1.16.0): a
#: reward model loaded beside the policy, vLLM's tensor parallelism, TRL's continuous batching for ``generate``.
_GRPO_UNMODELLED = {"reward_model_name_or_path": "a reward model on the trainer's GPU",
                    "vllm_tensor_parallel_size": "vLLM sharded over several GPUs",
                    "use_transformers_continuous_batching": "a paged KV cache for generate",
                    "use_transformers_paged": "a paged KV cache for generate",
                    "cache_implementation": "another KV cache for generate",
                    "ds3_gather_for_generation": "ZeRO-3's gather (GRPO under ZeRO is refused)"}


def _read_grpo(state: ReadState, name: str, cfg: Mapping[str, Any]) -> None:
    """GRPOConfig's fields into the GRPO keys, TRL 1.16's defaults where the file leaves them
    (``calculator.frameworks``, filled by ``_fill``)."""
    t = lambda key: state.take(name, cfg, key)  # noqa: E731
    for key, request_key, kind in (("max_completion_length", "grpo_completion_len", int),
                                   ("num_generations", "grpo_num_generations", int),
                                   ("beta", "grpo_beta", float), ("num_iterations", "grpo_num_iterations", int)):
        if key in cfg:
            value = state.typed(name, key, t(key), kind)
            if value is None and cfg.get(key) is None:
                state.error("not_modelled", name, key)      # None: no cap (max_completion_length), not a size
            state.set(request_key, value)
    steps, batch = t("steps_per_generation"), t("generation_batch_size")
    if steps is not None and batch is not None:
        state.error("contradiction", name, "generation_batch_size")     # GRPOConfig.__post_init__ refuses both
    elif steps is not None:
        state.set("grpo_steps_per_generation", state.typed(name, "steps_per_generation", steps, int))
    elif batch is not None:
        batch = state.typed(name, "generation_batch_size", batch, int)
        state.keys["grpo_generation_batch_size"] = batch           # per process count, resolved after the launcher
    loss = state.name(name, "loss_type", t("loss_type"))
    if loss is not None and loss not in _GRPO_LOSSES:
        state.error("unknown_value", name, "loss_type")
    state.set("grpo_loss_type", loss)
    use_vllm = state.typed(name, "use_vllm", t("use_vllm"), bool) or False
    mode = state.name(name, "vllm_mode", t("vllm_mode")) or "colocate"
    if mode not in ("colocate", "server"):
        state.error("unknown_value", name, "vllm_mode")
    state.set("grpo_generator", "transformers" if not use_vllm else "vllm_" + mode if mode in ("colocate", "server")
              else None)
    if "vllm_gpu_memory_utilization" in cfg:
        state.set("vllm_gpu_memory_utilization", state.typed(name, "vllm_gpu_memory_utilization",
                                                             t("vllm_gpu_memory_utilization"), float))
    if "vllm_enable_sleep_mode" in cfg:
        state.set("vllm_enable_sleep_mode", state.typed(name, "vllm_enable_sleep_mode", t("vllm_enable_sleep_mode"),
                                                        bool))
    if t("vllm_max_model_length") is not None:
        state.set("vllm_max_model_length", state.typed(name, "vllm_max_model_length", cfg["vllm_max_model_length"],
                                                       int))
    state.note_unmodelled(name, cfg, _GRPO_UNMODELLED)
    for key in ("reward_funcs", "reward_weights", "temperature", "top_p", "top_k", "min_p", "repetition_penalty",
                "epsilon", "epsilon_high", "delta", "scale_rewards", "mask_truncated_completions", "vllm_server_host",
                "vllm_server_port", "vllm_server_base_url", "vllm_server_timeout", "log_completions",
                "num_completions_to_print", "importance_sampling_level", "max_prompt_length"):
        if key in cfg:
            t(key)
            if key == "max_prompt_length":          # TRL 1.16 has no such field: an older GRPOConfig's
                state.unread_key(name, key, cfg[key], "deprecated")


def _hidden(state: ReadState) -> int | None:
    from ..catalog import MODELS
    return MODELS[state.model].hidden_size if state.model in MODELS else None
