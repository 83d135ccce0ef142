"""Axolotl 0.21: ``axolotl train axolotl.yaml`` (``AxolotlInputConfig`` in ``axolotl/utils/schemas/``), with a
DeepSpeed JSON for ZeRO; FSDP2 is written inside the YAML (``fsdp_version``, ``fsdp_config``).

Keys read at 0.21.0: the bitsandbytes defaults of ``axolotl/loaders/model.py`` (NF4, double quantisation, bf16
storage, compute = the load dtype), ``bf16: auto`` loading the model in bf16 (``normalize_config``: no fp32 master
for full fine-tuning), ``gradient_checkpointing`` False, ``attn_implementation`` (``flash_attention: true`` is
deprecated), the LoRA kernels Axolotl turns on when unset (``lora_mlp_kernel`` etc.), ``rl: dpo``, ``rl_beta``.
Axolotl drops unknown keys silently: the CI diffs every key against the field list.
"""
from __future__ import annotations

from typing import Any, Mapping

from .. import frameworks
from . import _yaml
from ._common import GRPO_KEYS
from ._common import (HF_OPTIM, MEASURE_FILE, MEASURE_PY, Plan, ReadState, card_bf16, deepspeed_json, fsdp_key,
                      header, hf_stack_rules, kbit_upcast_rule, learning_rate, optimizer_from, read_deepspeed, render,
                      sharding_rules, targets_from)
from ..models import ALL_LINEAR

TARGET = "axolotl"
CONFIG_FILE = "axolotl.yaml"
DEEPSPEED_FILE = "ds_config.json"
ACCELERATE_FILE = "accelerate.yaml"

#: Request keys these files write (the reader reads each back). Every other export key is ``LEFT_TO_DEFAULT``: the
#: files run Axolotl's default for it (``Plan.settle`` lists it where the request asked otherwise, unless a rule of
#: ``plan`` already set it). tests/unit/test_export_keys.py holds that every key is declared once.
WRITTEN: frozenset[str] = frozenset((
    "method", "dpo", "precompute_ref_log_probs", "lora_rank", "lora_targets", "lora_dtype", "lora_dropout",
    "double_quant", "qlora_backend", "micro_batch_size", "seq_len", "grad_accum_steps", "gradient_checkpointing",
    "attention", "precision", "base_fp32", "optimizer", "chunked_cross_entropy", "torch_compile",
    "fused_linear_cross_entropy", "activation_offloading", "num_gpus", "sharding", "cpu_offload", "offload_params",
    "deepspeed", "reduce_bucket_size", "no_sync_accumulation", "packing", "epochs",
    "fsdp_version", "cpu_ram_efficient_loading", "quantize_experts",
))
#: GRPO: the framework runs it, these files do not write it yet: the objective is refused (``Plan``) and the
#: files train supervised, as the estimate beside them.
GRPO_REFUSAL: str | None = "grpo_not_exported_here"
#: The keys these files leave to axolotl's default (``Plan.settle``; a rule of ``plan`` may set one first).
LEFT_TO_DEFAULT: frozenset[str] = frozenset((
    "kbit_upcast",
    "quantize_lm_head", "dequant_cast", "qlora_compute_dtype", "quant_storage", "moe_layout",
    "lora_expert_params", "half_dtype", "keeps_logits", "optimizer_in_backward", "frozen_param_grads",
    "fsdp2_upcast", "shard_embeddings", "ddp_gradient_as_bucket_view", "deepspeed_bf16_master_weights",
    "deepspeed_bf16_optimizer_states", "untie_embeddings", "attention_kernel",
)) | GRPO_KEYS


def plan(p: Plan) -> None:
    k = p.keys
    hf_stack_rules(p, quantizes_experts=True)
    if k["precision"] == "mixed":
        # bf16 loads the weights in bf16 (normalize_config): no fp32 master copy, no fp32 base under autocast; on a
        # card without bf16, fp16 weights cannot train a full model (the gradient scaler refuses fp16 gradients)
        closest = "bf16" if card_bf16(p.gpu) or k["method"] != "full" else "fp32"
        p.cannot_express("precision", closest, "axolotl_loads_16bit", "use_trl_for_fp32_master")
        p.adjust("base_fp32", False, "ignored_by_estimate")
    p.cannot_express("fused_linear_cross_entropy", False, "needs_liger_plugin", "add_liger_plugin")
    if k["dpo"]:
        p.cannot_express("packing", False, "axolotl_dpo_no_packing", "none")
        if k["method"] != "full":     # TRL 1.14's DPOConfig.disable_dropout=True, which Axolotl leaves as it is
            p.cannot_express("lora_dropout", 0.0, "dpo_disables_dropout", "use_trl_disable_dropout_false")
    if k["activation_offloading"] and not k["gradient_checkpointing"]:
        # schemas/config.py: "activation_offloading requires gradient_checkpointing"
        p.cannot_express("activation_offloading", False, "axolotl_offloading_needs_checkpointing", "none")
    if k["sharding"] == "zero3" and k["method"] == "qlora" and k["dpo"]:
        # schemas/config.py: "FSDP2 does not support load_in_8bit or load_in_4bit with dpo. Please use DeepSpeed"
        p.cannot_express("deepspeed", True, "axolotl_fsdp2_no_4bit_dpo", "deepspeed_zero")
    sharding_rules(p, sync_each_batch=False)
    kbit_upcast_rule(p)                        # after the sharding is settled: it decides Axolotl's cast


def write(p: Plan, summary: Mapping[str, Any] | None, text: Mapping[str, str] | None) -> dict[str, str]:
    k = p.keys
    d = frameworks.defaults(TARGET, request=k)
    fsdp = k["sharding"] == "zero3" and not k["deepspeed"]
    items: list[tuple[str, Any, str | None]] = []
    add = items.append

    def why(code: str, value: Any, default: Any) -> str | None:
        return render(code, text, value=value, default=default, framework="Axolotl") if value != default else None

    repo = p.hf_repo()
    add(("base_model", repo or "<EDIT: model>", None if repo else render("edit_model", text)))
    if k["method"] != "full":
        add(("adapter", k["method"], None))
        if k["method"] == "qlora":
            add(("load_in_4bit", True, None))
            if not k["double_quant"]:
                add(("bnb_config_kwargs", [("bnb_4bit_use_double_quant", False, None)],
                     why("why_double_quant", False, True)))
        add(("lora_r", k["lora_rank"], None))       # no default: Axolotl requires it with an adapter
        add(("lora_alpha", 2 * k["lora_rank"], None))
        add(("lora_dropout", k["lora_dropout"], why("why_dropout", k["lora_dropout"], d["lora_dropout"])))
        if k["quantize_experts"]:          # schemas/config.py check_quantize_moe_experts (from 0.15.0, PR #3439)
            add(("quantize_moe_experts", True, None))
        if tuple(k["lora_targets"]) == ALL_LINEAR and not k["quantize_experts"]:
            # check_quantize_moe_experts refuses lora_target_linear beside quantize_moe_experts: the names instead
            add(("lora_target_linear", True, None))
        else:
            add(("lora_target_modules", list(k["lora_targets"]), None))
        for kernel in ("lora_mlp_kernel", "lora_qkv_kernel", "lora_o_kernel"):
            add((kernel, False, render("why_lora_kernels", text)))
    if k["dpo"]:
        add(("rl", "dpo", None))
        add(("rl_beta", 0.1, None))
        if k["precompute_ref_log_probs"]:
            add(("precompute_ref_log_probs", True, render("why_precompute", text)))
        add(("datasets", [[("path", "<EDIT: dataset>", render("edit_dataset", text)), ("split", "train", None),
                           ("type", "chatml.intel", render("edit_format", text))]], None))
    else:
        add(("datasets", [[("path", "<EDIT: dataset>", render("edit_dataset", text)),
                           ("type", "alpaca", render("edit_format", text))]], None))
    add(("output_dir", "<EDIT: output dir>", render("edit_output", text)))
    add(("sequence_len", k["seq_len"], why("why_seq_len", k["seq_len"], d["seq_len"])))
    if not k["dpo"]:
        add(("sample_packing", k["packing"], why("why_packing", k["packing"], d["packing"])))
    add(("micro_batch_size", k["micro_batch_size"], None))
    add(("gradient_accumulation_steps", k["grad_accum_steps"], None))
    add(("num_epochs", k["epochs"], None))
    add(("learning_rate", learning_rate(p), render("why_lr", text, framework="Axolotl")))
    optim, optim_args = HF_OPTIM[k["optimizer"]]
    add(("optimizer", optim, why("why_optimizer", optim, d["optimizer"])))
    if optim_args:
        add(("optim_args", optim_args, None))
    if k["precision"] == "fp32":
        add(("bf16", False, render("why_precision", text, value="fp32", default="bf16: auto")))
    elif card_bf16(p.gpu):
        add(("bf16", True, None))
    else:
        add(("bf16", False, None))
        add(("fp16", True, render("why_fp16", text)))
    attn = {"eager": "eager", "sdpa": "sdpa", "flash": "flash_attention_2"}[k["attention"]]
    add(("attn_implementation", attn, why("why_attention", attn, "sdpa")))
    add(("gradient_checkpointing", k["gradient_checkpointing"] and not fsdp,
         render("why_fsdp_checkpointing", text) if fsdp and k["gradient_checkpointing"]
         else why("why_checkpointing", k["gradient_checkpointing"], False)))
    if k["activation_offloading"]:
        add(("activation_offloading", True, render("why_offload", text)))
    if k["chunked_cross_entropy"]:
        add(("chunked_cross_entropy", True, None))
    if k["torch_compile"]:
        add(("torch_compile", True, render("why_compile", text)))
    if k["deepspeed"]:
        add(("deepspeed", DEEPSPEED_FILE, None))
    if fsdp:
        add(("fsdp_version", 2, None))
        add(("fsdp_config", [
            ("offload_params", k["cpu_offload"], None),
            ("state_dict_type", "SHARDED_STATE_DICT", None),
            ("auto_wrap_policy", "TRANSFORMER_BASED_WRAP", None),
            ("reshard_after_forward", True, None),
            ("activation_checkpointing", k["gradient_checkpointing"], None),
            ("cpu_ram_efficient_loading", k["cpu_ram_efficient_loading"], None),
        ], None))
    n = k["num_gpus"]
    multi = n > 1
    command = (f"accelerate launch --config_file {ACCELERATE_FILE} -m axolotl.cli.train {CONFIG_FILE}" if multi
               else f"axolotl train {CONFIG_FILE}")
    measure = (f"accelerate launch --config_file {ACCELERATE_FILE} {MEASURE_FILE} axolotl.cli.train {CONFIG_FILE}"
               if multi else f"python {MEASURE_FILE} axolotl.cli.train {CONFIG_FILE}")
    companions = ([ACCELERATE_FILE] if multi else []) + ([DEEPSPEED_FILE] if k["deepspeed"] else [])
    head = header(p, summary, command, measure, text, companions)
    files = {CONFIG_FILE: "\n".join(head + _yaml.dump(items)) + "\n"}
    if multi:     # the process count is the launcher's; Axolotl's file holds FSDP and names the DeepSpeed JSON
        files[ACCELERATE_FILE] = "\n".join(head[:2] + _yaml.dump([
            ("compute_environment", "LOCAL_MACHINE", None), ("distributed_type", "MULTI_GPU", None),
            ("num_machines", 1, None), ("num_processes", n, None), ("machine_rank", 0, None),
            ("mixed_precision", "no" if k["precision"] == "fp32" else "bf16" if card_bf16(p.gpu) else "fp16",
             None)])) + "\n"
    if k["deepspeed"]:
        files[DEEPSPEED_FILE] = deepspeed_json(p)
    files[MEASURE_FILE] = MEASURE_PY
    return files


def capabilities(plan_keys: Mapping[str, Any], gpu: str | None) -> dict[str, Any]:
    """What ``validate_config`` is told about the chosen card (Axolotl's capability injection)."""
    from ._common import GPU_CAPS
    cc, bf16 = GPU_CAPS[gpu] if gpu else ("sm_90", True)
    return {"bf16": bf16, "fp8": cc in ("sm_89", "sm_90", "sm_100", "sm_120"), "tf32": bf16,
            "n_gpu": plan_keys["num_gpus"], "n_node": 1, "compute_capability": cc}


# =====================================================================================================================
# Reading an Axolotl YAML (+ DeepSpeed JSON)
# =====================================================================================================================


#: Axolotl keys that move memory in a way the estimate does not follow: set in a file, each is noted as not modelled
#: (``ReadState.note_unmodelled``), never listed as "no bearing on memory".
NOT_MODELLED: dict[str, str] = {
    "tensor_parallel_size": "tensor parallelism: weights and activations split across GPUs",
    "context_parallel_size": "context parallelism: the sequence split across GPUs",
    "dp_shard_size": "an FSDP shard group smaller or larger than the GPU count",
    "dp_replicate_size": "replicated FSDP groups (HSDP): states sharded over fewer GPUs",
    "device_map": "the model placed across devices by the file's map",
    "gptq": "a GPTQ-quantized base: weights stored in 4 bits",
    "lora_target_parameters": "LoRA on expert parameters (MoE): adapters the targets do not count",
    "lora_modules_to_save": "whole modules trained beside the adapters (gradients and optimizer states)",
    "liger_rms_norm": "Liger's RMSNorm kernel: fewer saved activations",
    "liger_glu_activation": "Liger's SwiGLU/GeGLU kernel: fewer saved activations",
    "liger_rope": "Liger's RoPE kernel",
    "liger_layer_norm": "Liger's LayerNorm kernel: fewer saved activations",
    "flash_attn_cross_entropy": "flash-attn's cross-entropy kernel: no full fp32 logits",
    "flash_attn_fuse_mlp": "flash-attn's fused MLP: fewer saved activations",
    "qat": "quantization-aware training: fake-quantized weights and activations",
    "relora": "ReLoRA: adapters merged and restarted during training",
    "lisa_n_layers": "LISA: only a few layers trained at a time",
    "use_kernels": "Hub kernels replacing the model's layers",
    "use_scattermoe": "ScatterMoE expert kernels",
    "use_sonicmoe": "SonicMoE expert kernels",
    "use_dsv4_kernels": "DeepSeek-V4 kernels",
    "fused_attn_kernel": "a fused attention kernel",
    "quantize_moe_experts": "MoE experts quantized at load",
    "use_onebitllms": "one-bit weights",
    "llmcompressor": "a compression recipe applied while training",
    "nvfp4_merge_aware": "NVFP4 weights",
    "experimental_skip_move_to_device": "the model kept off the GPU until sharded",
}


#: Keys that moved memory and Axolotl 0.21 refuses ("no longer supported": axolotl/utils/schemas/deprecated.py):
#: set in a file, each is noted as ``deprecated`` (the file does not start as written).
REMOVED: dict[str, str] = {
    "max_packed_sequence_len": "the packed length (now sequence_len with sample_packing)",
    "rope_scaling": "a longer context (now under model_config)",
    "s2_attention": "shifted-sparse attention",
    "flash_attn_rms_norm": "flash-attn's RMSNorm kernel",
    "dpo_use_logits_to_keep": "DPO logits kept for the completion only",
}


def read(state: ReadState, cfgs: Mapping[str, Mapping[str, Any]], kinds: Mapping[str, str]) -> None:
    found = state.main_file(cfgs, kinds)
    if found is None:
        return
    name, cfg = found

    def t(key: str) -> Any:
        return state.take(name, cfg, key)

    state.read_model(name, cfg, "base_model")
    rl = t("rl")
    if rl not in (None, "dpo"):
        state.error("not_modelled", name, "rl")
    dpo = rl == "dpo"
    state.set("dpo", dpo)
    adapter = t("adapter")
    q4 = state.typed(name, "load_in_4bit", t("load_in_4bit"), bool) or False
    q8 = state.typed(name, "load_in_8bit", t("load_in_8bit"), bool) or False
    if q8:
        state.error("not_modelled", name, "load_in_8bit")
    if adapter not in (None, "lora", "qlora"):
        state.error("not_modelled", name, "adapter")
    if adapter == "qlora" and not q4:
        state.error("contradiction", name, "load_in_4bit")        # Axolotl: "Require cfg.load_in_4bit to be True"
    if q4 and adapter is None:
        state.error("contradiction", name, "adapter")
    method = "qlora" if adapter == "qlora" or (adapter == "lora" and q4) else "lora" if adapter == "lora" else "full"
    state.set("method", method)
    d = frameworks.defaults(TARGET, request={"method": method, "dpo": dpo})
    fp16 = state.typed(name, "fp16", t("fp16"), bool) or False
    bf16 = t("bf16")
    bf16 = True if bf16 == "auto" else state.typed(name, "bf16", bf16, bool)
    for key in ("bfloat16", "float16"):
        if state.typed(name, key, t(key), bool):
            bf16 = True
    state.set("precision", "bf16" if bf16 or fp16 else "fp32")
    state.set("base_fp32", False)
    if method != "full":
        state.set("lora_rank", state.typed(name, "lora_r", t("lora_r"), int) if cfg.get("lora_r") is not None else 8)
        if state.typed(name, "lora_target_linear", t("lora_target_linear"), bool):
            state.set("lora_targets", ALL_LINEAR)
        elif cfg.get("lora_target_modules") is not None:
            names = targets_from(t("lora_target_modules"))
            if names is None:
                state.error("unknown_value", name, "lora_target_modules")
            state.set("lora_targets", names)
        else:
            state.set("lora_targets", ("q_proj", "v_proj"))
        dropout = state.typed(name, "lora_dropout", t("lora_dropout"), float) if cfg.get("lora_dropout") is not None \
            else d["lora_dropout"]
        state.set("lora_dropout", 0.0 if dpo else dropout)      # TRL's DPOConfig.disable_dropout=True
        state.set("lora_dtype", "fp32")
        kernels = ("lora_mlp_kernel", "lora_qkv_kernel", "lora_o_kernel", "lora_embedding_kernel")
        # Axolotl 0.21 turns its fused LoRA kernels on when the file sets none of them (validation.py
        # lora_kernels_auto_enable: a LoRA/QLoRA SFT, no 8-bit LoRA, no remote code, no nvfp4_merge_aware)
        auto = all(cfg.get(k) is None for k in kernels) and not cfg.get("rl") and not cfg.get("nvfp4_merge_aware") \
            and not (adapter == "lora" and q8) and not cfg.get("trust_remote_code")
        for key in ("lora_alpha", "peft_use_rslora", *kernels):
            if (t(key) is True or (auto and key != "lora_embedding_kernel")) and key.endswith("kernel"):
                state.unread_key(name, key, True, "not_modelled")
        if state.typed(name, "peft_use_dora", t("peft_use_dora"), bool):
            state.error("not_modelled", name, "peft_use_dora")
    if method == "qlora":
        kw = state.mapping(name, "bnb_config_kwargs", t("bnb_config_kwargs"))
        state.set("double_quant", kw.get("bnb_4bit_use_double_quant", True) is True)
        state.set("qlora_backend", "bitsandbytes")
        state.set("quantize_experts", state.typed(name, "quantize_moe_experts", t("quantize_moe_experts"), bool)
                  or False)
    state.set("seq_len", state.typed(name, "sequence_len", t("sequence_len"), int) if "sequence_len" in cfg
              else d["seq_len"])
    state.set("packing", (state.typed(name, "sample_packing", t("sample_packing"), bool) or False) and not dpo)
    state.set("micro_batch_size", state.typed(name, "micro_batch_size", t("micro_batch_size"), int)
              if "micro_batch_size" in cfg else d["micro_batch_size"])
    state.set("grad_accum_steps", state.typed(name, "gradient_accumulation_steps", t("gradient_accumulation_steps"),
                                              int) if "gradient_accumulation_steps" in cfg else 1)
    state.set("epochs", state.typed(name, "num_epochs", t("num_epochs"), float) if "num_epochs" in cfg else 1.0)
    opt = optimizer_from(t("optimizer") if "optimizer" in cfg else d["optimizer"], t("optim_args"))
    if opt is None:
        state.error("not_modelled", name, "optimizer")
    state.set("optimizer", opt)
    attn = state.name(name, "attn_implementation", t("attn_implementation"))
    amap = {None: "sdpa", "sdpa": "sdpa", "eager": "eager", "flash_attention_2": "flash", "flash_attention_3": "flash"}
    if t("flash_attention") is True:
        attn = "flash_attention_2"
    if t("sdp_attention") is True:
        attn = "sdpa"
    if attn not in amap:
        state.error("not_modelled", name, "attn_implementation")
    state.set("attention", amap.get(attn))
    gc = t("gradient_checkpointing")
    state.set("gradient_checkpointing", gc in (True, "offload", "offload_disk"))
    off = t("activation_offloading")
    state.set("activation_offloading", off not in (None, False) or gc in ("offload", "offload_disk"))
    state.set("chunked_cross_entropy", state.typed(name, "chunked_cross_entropy", t("chunked_cross_entropy"), bool)
              or False)
    state.set("torch_compile", t("torch_compile") is True)
    state.set("fused_linear_cross_entropy", t("liger_fused_linear_cross_entropy") is True
              or t("cut_cross_entropy") is True)
    t("plugins")
    if dpo:
        state.set("precompute_ref_log_probs", t("precompute_ref_log_probs") is True)
    for key in ("datasets", "output_dir", "learning_rate", "rl_beta", "tf32", "lora_alpha"):
        t(key)
    if t("unfrozen_parameters"):        # trains only the parameters it names: fewer gradients and optimizer states
        state.unread_key(name, "unfrozen_parameters", None, "not_modelled")
    for key in ("reward_model", "process_reward_model"):       # a reward trainer: a score head on paired inputs
        if t(key) is True:
            state.error("not_modelled", name, key)
    state.note_unmodelled(name, cfg, NOT_MODELLED)
    state.note_unmodelled(name, cfg, REMOVED, code="deprecated")
    # --- several GPUs: the count is the launcher's; FSDP lives in this file, ZeRO in the JSON ------------------------
    state.set("num_gpus", 1)
    state.set("sharding", "none")
    ds_file = t("deepspeed")
    fsdp_cfg = state.mapping(name, "fsdp_config", t("fsdp_config"))
    version = t("fsdp_version")
    # FSDP1's top-level list (full_shard, shard_grad_op, offload, auto_wrap), and fsdp_version 1: Axolotl 0.21 has
    # only FSDP2 and refuses both; read as the FSDP2 run they ask for, with a note
    legacy = t("fsdp")
    if legacy not in (None, [], "", False):
        state.unread_key(name, "fsdp", legacy, "deprecated")
    legacy = [str(x) for x in legacy] if isinstance(legacy, list) else str(legacy or "").split()
    if fsdp_cfg or legacy:
        if version not in (2, None):
            state.unread_key(name, "fsdp_version", version, "deprecated")
        state.set("deepspeed", False)
        state.set("fsdp_version", 2)
        # fsdp_config.sharding_strategy is FSDP1's, which Axolotl 0.21 refuses ("an FSDP1-only option"): read as
        # the FSDP2 resharding it stands for when reshard_after_forward is left out, with a note
        strategy = fsdp_key(fsdp_cfg, "sharding_strategy")
        if strategy is not None:
            state.unread_key(name, "fsdp_config.sharding_strategy", strategy, "deprecated")
        reshard = fsdp_key(fsdp_cfg, "reshard_after_forward",
                           "shard_grad_op" not in legacy and strategy not in ("SHARD_GRAD_OP", 2))
        state.set("sharding", "zero3" if reshard in (True, "true", "FULL_SHARD") else "zero2")
        off = state.typed(name, "fsdp_config.offload_params", fsdp_key(fsdp_cfg, "offload_params"), bool) is True \
            or "offload" in legacy
        state.set("cpu_offload", off)
        state.set("offload_params", off)
        if state.typed(name, "fsdp_config.activation_checkpointing",
                       fsdp_key(fsdp_cfg, "activation_checkpointing"), bool) is True:
            state.set("gradient_checkpointing", True)
        state.set("cpu_ram_efficient_loading", state.typed(name, "fsdp_config.cpu_ram_efficient_loading",
                                                           fsdp_key(fsdp_cfg, "cpu_ram_efficient_loading"), bool))
        ga = state.keys.get("grad_accum_steps", 1)
        state.set("no_sync_accumulation", ga > 1)
        state.set("frozen_param_grads", False)
    for ds in (n for n in cfgs if kinds[n] == "deepspeed"):
        read_deepspeed(state, ds, cfgs[ds], {"micro_batch": state.keys.get("micro_batch_size"),
                                              "accum": state.keys.get("grad_accum_steps"), "bf16": bf16}, None)
    for acc in (n for n in cfgs if kinds[n] == "accelerate"):
        procs = state.typed(acc, "num_processes", cfgs[acc].get("num_processes", 1), int)
        state.gpus_given = state.gpus_given or "num_processes" in cfgs[acc]
        if procs is not None and procs >= 1:
            state.set("num_gpus", procs)
        if cfgs[acc].get("distributed_type") not in ("MULTI_GPU", "NO", None):
            state.unread_key(acc, "distributed_type", cfgs[acc]["distributed_type"], "not_read")
    if ds_file and not any(kinds[n] == "deepspeed" for n in cfgs):
        state.error("missing_field", name, "deepspeed")
    state.finish_unread(name, cfg)
