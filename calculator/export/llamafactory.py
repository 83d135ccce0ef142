"""LLaMA-Factory 0.9.5: ``llamafactory-cli train llamafactory.yaml`` (``llamafactory/hparams/``: ModelArguments,
DataArguments, FinetuningArguments over transformers 5.6 Seq2SeqTrainingArguments, parsed strictly by
``get_train_args``), with an accelerate config for several GPUs (FSDP, or DDP with ``deepspeed:`` naming the JSON).

Keys read at 0.9.5: gradient checkpointing on unless ``disable_gradient_checkpointing``; ``quantization_bit: 4`` with
``quantization_type`` nf4 and ``double_quantization`` True by default, quant storage = compute dtype
(``model/model_utils/quantization.py``, "crucial for fsdp+qlora"); full fine-tuning casts the trainable weights to
fp32 unless ``pure_bf16`` (``model/adapter.py``: ``bf16: true`` is then an fp32 master under bf16 autocast);
``flash_attn`` auto|disabled|sdpa|fa2|fa3; ``enable_liger_kernel`` (Liger's kernels, fused linear cross-entropy
included); DPO disables dropout (``train/dpo/trainer.py``) and has no ``precompute_ref_log_probs``.
"""
from __future__ import annotations

import json
from typing import Any, Mapping

from .. import frameworks
from ..models import ALL_LINEAR
from . import _yaml
from ._common import GRPO_KEYS
from ._common import (HF_OPTIM, MEASURE_FILE, MEASURE_PY, Plan, ReadState, accelerate_yaml, card_bf16, deepspeed_json,
                      header, hf_stack_rules, kbit_upcast_rule, learning_rate, optimizer_from, read_accelerate,
                      read_deepspeed, read_trainer_fsdp, render, sharding_rules, targets_from)

TARGET = "llamafactory"
CONFIG_FILE = "llamafactory.yaml"
ACCELERATE_FILE = "accelerate.yaml"
DEEPSPEED_FILE = "ds_config.json"
#: LLaMA-Factory loads a dataset by its name in ``<dataset_dir>/dataset_info.json`` (``llamafactory/data/parser.py
#: get_dataset_list``: "Undefined dataset … in dataset_info.json" otherwise): the export writes that file beside the
#: YAML, with ``dataset_dir: .``, registering the one dataset the YAML names.
DATASET_INFO_FILE = "dataset_info.json"
DATASET_NAME = "train_data"

#: Request keys these files write (the reader reads each back). Every other export key is ``LEFT_TO_DEFAULT``: the
#: files run LLaMA-Factory's default for it (``Plan.settle`` lists it where the request asked otherwise, unless a rule of
#: ``plan`` already set it). tests/unit/test_export_keys.py holds that every key is declared once.
WRITTEN: frozenset[str] = frozenset((
    "method", "dpo", "precompute_ref_log_probs", "lora_rank", "lora_targets", "lora_dtype", "lora_dropout",
    "double_quant", "qlora_backend", "micro_batch_size", "seq_len", "grad_accum_steps", "gradient_checkpointing",
    "attention", "precision", "base_fp32", "optimizer", "chunked_cross_entropy", "torch_compile",
    "fused_linear_cross_entropy", "activation_offloading", "num_gpus", "sharding", "cpu_offload", "offload_params",
    "deepspeed", "reduce_bucket_size", "no_sync_accumulation", "packing", "epochs",
    "fsdp_version", "cpu_ram_efficient_loading",
))
#: GRPO: LLaMA-Factory 0.9.5 has no GRPO stage (``FinetuningArguments.stage``: pt, sft, rm, ppo, dpo, kto): the
#: objective is refused (``Plan``) and the files train supervised, as the estimate beside them.
GRPO_REFUSAL: str | None = "llamafactory_no_grpo"
#: The keys these files leave to llamafactory's default (``Plan.settle``; a rule of ``plan`` may set one first).
LEFT_TO_DEFAULT: frozenset[str] = frozenset((
    "quantize_experts",
    "kbit_upcast",
    "quantize_lm_head", "dequant_cast", "qlora_compute_dtype", "quant_storage", "moe_layout",
    "lora_expert_params", "half_dtype", "keeps_logits", "optimizer_in_backward", "frozen_param_grads",
    "fsdp2_upcast", "shard_embeddings", "ddp_gradient_as_bucket_view", "deepspeed_bf16_master_weights",
    "deepspeed_bf16_optimizer_states", "untie_embeddings", "attention_kernel",
)) | GRPO_KEYS


def plan(p: Plan) -> None:
    k = p.keys
    zero3 = k["deepspeed"] and k["sharding"] == "zero3"      # "`pure_bf16` is incompatible with DeepSpeed ZeRO-3"
    hf_stack_rules(p, bf16_adapters=not zero3 and card_bf16(p.gpu))
    if p.is_mixed_lora() and k["base_fp32"]:
        p.cannot_express("base_fp32", False, "llamafactory_loads_compute_dtype", "use_trl_for_fp32_base")
        p.adjust("precision", "bf16", "same_regime_lora_16bit_base")
    if k["method"] == "full" and k["precision"] == "bf16" and k["deepspeed"] and k["sharding"] == "zero3":
        p.cannot_express("precision", "mixed", "pure_bf16_not_with_zero3", "use_fsdp")
    p.cannot_express("activation_offloading", False, "llamafactory_no_activation_offloading", "use_trl_or_axolotl")
    if k["fused_linear_cross_entropy"]:
        p.adjust("chunked_cross_entropy", False, "fused_replaces_chunked")
    p.cannot_express("chunked_cross_entropy", False, "llamafactory_no_chunked_loss", "enable_liger_kernel")
    if k["dpo"]:
        p.cannot_express("packing", False, "dpo_no_packing", "none")
        p.cannot_express("precompute_ref_log_probs", False, "llamafactory_no_precompute", "use_trl")
        if k["method"] != "full":
            p.cannot_express("lora_dropout", 0.0, "dpo_disables_dropout", "use_trl_disable_dropout_false")
    sharding_rules(p, sync_each_batch=False)
    kbit_upcast_rule(p)                        # no prepare_model_for_kbit_training in LLaMA-Factory


def write(p: Plan, summary: Mapping[str, Any] | None, text: Mapping[str, str] | None) -> dict[str, str]:
    k = p.keys
    d = frameworks.defaults(TARGET, request=k)
    fsdp = k["sharding"] == "zero3" and not k["deepspeed"]
    multi = k["num_gpus"] > 1 or k["sharding"] != "none"
    items: list[tuple[str, Any, str | None]] = []
    add = items.append

    def why(code: str, value: Any, default: Any) -> str | None:
        return render(code, text, value=value, default=default, framework="LLaMA-Factory") if value != default else None

    repo = p.hf_repo()
    add(("model_name_or_path", repo or "<EDIT: model>", None if repo else render("edit_model", text)))
    attn = {"eager": "disabled", "sdpa": "sdpa", "flash": "fa2"}[k["attention"]]
    add(("flash_attn", attn, why("why_attention", attn, "auto")))
    if k["method"] == "qlora":
        add(("quantization_bit", 4, None))
        add(("quantization_method", "bnb", None))
        add(("quantization_type", "nf4", None))
        add(("double_quantization", k["double_quant"], why("why_double_quant", k["double_quant"], True)))
    add(("stage", "dpo" if k["dpo"] else "sft", None))
    add(("do_train", True, None))
    add(("finetuning_type", "full" if k["method"] == "full" else "lora", None))
    if k["method"] != "full":
        add(("lora_rank", k["lora_rank"], why("why_rank", k["lora_rank"], d["lora_rank"])))
        add(("lora_alpha", 2 * k["lora_rank"], None))
        add(("lora_dropout", k["lora_dropout"], why("why_dropout", k["lora_dropout"], d["lora_dropout"])))
        targets = "all" if tuple(k["lora_targets"]) == ALL_LINEAR else ",".join(k["lora_targets"])
        add(("lora_target", targets, None))
    if k["dpo"]:
        add(("pref_beta", 0.1, None))
        add(("pref_loss", "sigmoid", None))
    add(("dataset", DATASET_NAME, render("registered", text, file=DATASET_INFO_FILE)))
    add(("dataset_dir", ".", None))
    add(("template", "default", render("edit_template", text)))
    add(("cutoff_len", k["seq_len"], why("why_seq_len", k["seq_len"], d["seq_len"])))
    if not k["dpo"]:
        add(("packing", k["packing"], why("why_packing", k["packing"], d["packing"])))
    add(("output_dir", "<EDIT: output dir>", render("edit_output", text)))
    add(("overwrite_output_dir", True, None))
    add(("per_device_train_batch_size", k["micro_batch_size"], why("why_batch", k["micro_batch_size"], 8)))
    add(("gradient_accumulation_steps", k["grad_accum_steps"], None))
    add(("learning_rate", learning_rate(p), render("why_lr", text, framework="LLaMA-Factory")))
    add(("num_train_epochs", k["epochs"], why("why_epochs", k["epochs"], d["epochs"])))
    optim, optim_args = HF_OPTIM[k["optimizer"]]
    add(("optim", optim, why("why_optimizer", optim, d["optimizer"])))
    if optim_args:
        add(("optim_args", optim_args, None))
    # pure_bf16: no fp32 upcast of the trainable weights (full: bf16 weights and states; LoRA: bf16 adapters)
    pure = k["precision"] == "bf16" and (k["method"] == "full" or k["lora_dtype"] == "bf16")
    if k["precision"] == "fp32":
        add(("bf16", False, None))
        add(("infer_dtype", "float32", render("why_precision", text, value="fp32", default="auto")))
    elif card_bf16(p.gpu):
        add(("bf16", True, None))
        if pure:
            add(("pure_bf16", True, render("why_precision", text, value="pure bf16", default="fp32 trainable weights")))
    else:
        add(("fp16", True, render("why_fp16", text)))
    gc_off = not k["gradient_checkpointing"] or fsdp
    add(("disable_gradient_checkpointing", gc_off,
         render("why_fsdp_checkpointing", text) if fsdp and k["gradient_checkpointing"]
         else why("why_checkpointing", k["gradient_checkpointing"], True)))
    if k["fused_linear_cross_entropy"]:
        add(("enable_liger_kernel", True, render("why_fused_ce", text)))
    if k["torch_compile"]:
        add(("torch_compile", True, render("why_compile", text)))
    if k["deepspeed"]:
        add(("deepspeed", DEEPSPEED_FILE, None))
    add(("report_to", "none", None))
    command = (f"accelerate launch --config_file {ACCELERATE_FILE} -m llamafactory.launcher {CONFIG_FILE}" if multi
               else f"llamafactory-cli train {CONFIG_FILE}")
    measure = (f"accelerate launch --config_file {ACCELERATE_FILE} {MEASURE_FILE} llamafactory.launcher {CONFIG_FILE}"
               if multi else f"python {MEASURE_FILE} llamafactory.launcher {CONFIG_FILE}")
    companions = ([ACCELERATE_FILE] if multi else []) + ([DEEPSPEED_FILE] if k["deepspeed"] else [])
    steps = (render("data_llamafactory", text, file=DATASET_INFO_FILE, name=DATASET_NAME),)
    head = header(p, summary, command, measure, text, companions, steps=steps,
                  extra=("liger-kernel",) if k["fused_linear_cross_entropy"] else ())
    files = {CONFIG_FILE: "\n".join(head + _yaml.dump(items)) + "\n", DATASET_INFO_FILE: dataset_info(k["dpo"])}
    if multi:
        if k["deepspeed"]:      # the YAML's `deepspeed:` runs ZeRO; accelerate only starts the processes
            amp = "no" if k["precision"] == "fp32" else "bf16" if card_bf16(p.gpu) else "fp16"
            files[ACCELERATE_FILE] = "\n".join(head[:2] + _yaml.dump([
                ("compute_environment", "LOCAL_MACHINE", None), ("distributed_type", "MULTI_GPU", None),
                ("num_machines", 1, None), ("num_processes", k["num_gpus"], None), ("machine_rank", 0, None),
                ("mixed_precision", amp, None)])) + "\n"
            files[DEEPSPEED_FILE] = deepspeed_json(p)
        else:
            files[ACCELERATE_FILE] = accelerate_yaml(p, None, head[:2], text)
    files[MEASURE_FILE] = MEASURE_PY
    return files


def dataset_info(dpo: bool) -> str:
    """The ``dataset_info.json`` entry of the dataset the YAML names (LLaMA-Factory's data/README.md): a Hub
    dataset in its ``alpaca`` format (instruction, input, output; ``ranking`` with chosen and rejected for DPO), the
    columns written out so that they can be mapped to the reader's own. JSON has no comments: the YAML's header says
    what to edit here."""
    columns = {"prompt": "instruction", "query": "input"}
    columns.update({"chosen": "chosen", "rejected": "rejected"} if dpo else {"response": "output"})
    entry: dict[str, Any] = {"hf_hub_url": "<EDIT: dataset>", "formatting": "alpaca"}
    if dpo:
        entry["ranking"] = True
    entry["columns"] = columns
    return json.dumps({DATASET_NAME: entry}, indent=2) + "\n"


# =====================================================================================================================
# Reading a LLaMA-Factory YAML (+ accelerate YAML, + DeepSpeed JSON)
# =====================================================================================================================


#: LLaMA-Factory keys that move memory in a way the estimate does not follow: set in a file, each is noted as not
#: modelled (``ReadState.note_unmodelled``), never listed as "no bearing on memory".
NOT_MODELLED: dict[str, str] = {
    "tensor_model_parallel_size": "Megatron tensor parallelism (USE_MCA)",
    "pipeline_model_parallel_size": "Megatron pipeline parallelism (USE_MCA)",
    "expert_model_parallel_size": "Megatron expert parallelism (USE_MCA)",
    "sequence_parallel": "Megatron sequence parallelism (USE_MCA)",
    "use_distributed_optimizer": "Megatron's distributed optimizer: optimizer states sharded (USE_MCA)",
    "recompute_granularity": "Megatron's activation recomputation (USE_MCA)",
    "sequence_parallel_size": "sequence parallelism: the sequence split across GPUs",
    "use_kt": "KTransformers: experts run on the CPU",
    "fp8": "FP8 training",
    "mixture_of_depths": "mixture-of-depths layers",
    "use_v1_kernels": "LLaMA-Factory's fused kernels",
    "image_max_pixels": "image inputs: vision tokens beside the text",
    "video_max_pixels": "video inputs: vision tokens beside the text",
    "use_llama_pro": "LLaMA Pro: expanded blocks trained alone",
    "additional_target": "whole modules trained beside the adapters",
    "shift_attn": "shifted sparse attention",
}


def read(state: ReadState, cfgs: Mapping[str, Mapping[str, Any]], kinds: Mapping[str, str]) -> None:
    found = state.main_file(cfgs, kinds)
    if found is None:
        return
    name, cfg = found

    def t(key: str) -> Any:
        return state.take(name, cfg, key)

    state.read_model(name, cfg, "model_name_or_path")
    stage = t("stage") or "sft"
    if stage not in ("sft", "dpo", "pt"):
        state.error("not_modelled", name, "stage")
    dpo = stage == "dpo"
    state.set("dpo", dpo)
    ft = t("finetuning_type") or "lora"
    if ft not in ("lora", "full"):
        state.error("not_modelled", name, "finetuning_type")
    qbit = t("quantization_bit")
    if qbit not in (None, 4):
        state.error("not_modelled", name, "quantization_bit")
    if qbit is not None and ft == "full":
        state.error("contradiction", name, "quantization_bit")   # "Quantization is only compatible with LoRA"
    method = "full" if ft == "full" else "qlora" if qbit == 4 else "lora"
    state.set("method", method)
    d = frameworks.defaults(TARGET, request={"method": method, "dpo": dpo})
    bf16 = state.typed(name, "bf16", t("bf16"), bool) or False
    fp16 = state.typed(name, "fp16", t("fp16"), bool) or False
    pure = state.typed(name, "pure_bf16", t("pure_bf16"), bool) or False
    if bf16 and fp16:
        state.error("contradiction", name, "fp16")
    infer = t("infer_dtype") or "auto"
    if infer not in ("auto", "float16", "bfloat16", "float32"):
        state.error("unknown_value", name, "infer_dtype")
    if method == "full":
        state.set("precision", "bf16" if pure else "mixed" if (bf16 or fp16) else "fp32")
    else:          # the base loads in the compute dtype: bf16/fp16 when set, else infer_dtype (auto: 16-bit)
        state.set("precision", "bf16" if (bf16 or fp16 or pure or infer != "float32") else "fp32")
    state.set("base_fp32", False)
    if method != "full":
        state.set("lora_rank", state.typed(name, "lora_rank", t("lora_rank"), int) if "lora_rank" in cfg
                  else d["lora_rank"])
        target = t("lora_target") or "all"
        names = targets_from(target.split(",") if isinstance(target, str) else target)
        if names is None:
            state.error("unknown_value", name, "lora_target")
        state.set("lora_targets", names)
        dropout = state.typed(name, "lora_dropout", t("lora_dropout"), float) if "lora_dropout" in cfg else 0.0
        state.set("lora_dropout", 0.0 if dpo else dropout)
        state.set("lora_dtype", "bf16" if pure else "fp32")
        if state.typed(name, "use_dora", t("use_dora"), bool):
            state.error("not_modelled", name, "use_dora")
        t("lora_alpha")
    if method == "qlora":
        state.set("double_quant", state.typed(name, "double_quantization", t("double_quantization"), bool)
                  if "double_quantization" in cfg else True)
        state.set("qlora_backend", "bitsandbytes")
        if t("quantization_method") not in (None, "bnb", "bitsandbytes"):
            state.error("not_modelled", name, "quantization_method")
        t("quantization_type")
    state.set("seq_len", state.typed(name, "cutoff_len", t("cutoff_len"), int) if "cutoff_len" in cfg else d["seq_len"])
    # LLaMA-Factory packs pre-training by default (hparams/parser.py: packing left out is ``stage == "pt"``)
    packing = state.typed(name, "packing", t("packing"), bool) if cfg.get("packing") is not None else stage == "pt"
    state.set("packing", (packing or False) and not dpo)
    state.set("micro_batch_size", state.typed(name, "per_device_train_batch_size", t("per_device_train_batch_size"),
                                              int) if "per_device_train_batch_size" in cfg else d["micro_batch_size"])
    state.set("grad_accum_steps", state.typed(name, "gradient_accumulation_steps", t("gradient_accumulation_steps"),
                                              int) if "gradient_accumulation_steps" in cfg else 1)
    state.set("epochs", state.typed(name, "num_train_epochs", t("num_train_epochs"), float)
              if "num_train_epochs" in cfg else d["epochs"])
    opt = optimizer_from(t("optim") if "optim" in cfg else d["optimizer"], t("optim_args"))
    if opt is None:
        state.error("not_modelled", name, "optim")
    state.set("optimizer", opt)
    for key in ("use_galore", "use_apollo", "use_badam", "use_adam_mini", "use_muon", "use_unsloth", "use_unsloth_gc"):
        if t(key) is True:
            state.error("not_modelled", name, key)
    attn = state.name(name, "flash_attn", t("flash_attn")) or "auto"
    amap = {"auto": "sdpa", "sdpa": "sdpa", "disabled": "eager", "fa2": "flash", "fa3": "flash"}
    if attn not in amap:
        state.error("unknown_value", name, "flash_attn")
    state.set("attention", amap.get(attn))
    off = state.typed(name, "disable_gradient_checkpointing", t("disable_gradient_checkpointing"), bool) or False
    state.set("gradient_checkpointing", not off)
    state.set("fused_linear_cross_entropy", t("enable_liger_kernel") is True)
    state.set("torch_compile", t("torch_compile") is True)
    state.note_unmodelled(name, cfg, NOT_MODELLED)
    for key in ("do_train", "dataset", "template", "output_dir", "overwrite_output_dir", "learning_rate", "pref_beta",
                "pref_loss", "report_to", "trust_remote_code", "dataset_dir", "upcast_layernorm"):
        t(key)
    state.set("num_gpus", 1)
    state.set("sharding", "none")
    ds = t("deepspeed")
    amp = "bf16" if bf16 else "fp16" if fp16 else "no"
    for acc in (n for n in cfgs if kinds[n] == "accelerate"):
        read_accelerate(state, acc, cfgs[acc], amp)
    # the training file's own FSDP: TrainingArguments builds accelerate's FSDP plugin from it, over accelerate's config
    read_trainer_fsdp(state, name, t("fsdp"), t("fsdp_config"), default_version=1, config_offload=False)
    if state.keys.pop("fsdp_activation_checkpointing", False):
        state.set("gradient_checkpointing", True)
    ds_files = [n for n in cfgs if kinds[n] == "deepspeed"]
    for n in ds_files:
        read_deepspeed(state, n, cfgs[n], {"micro_batch": state.keys.get("micro_batch_size"),
                                            "accum": state.keys.get("grad_accum_steps"), "bf16": bf16 or pure}, None)
    if ds and not ds_files:
        state.error("missing_field", name, "deepspeed")
    if state.keys.get("sharding") not in (None, "none") and not state.keys.get("deepspeed"):
        state.set("no_sync_accumulation", state.keys.get("grad_accum_steps", 1) > 1)
        state.set("frozen_param_grads", False)
    state.finish_unread(name, cfg)
