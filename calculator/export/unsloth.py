"""Unsloth 2026.10.9: a Python script (``FastLanguageModel.from_pretrained`` -> ``get_peft_model`` -> TRL's
``SFTTrainer``/``DPOTrainer``, as Unsloth's notebooks do; ``unsloth/models/loader.py``, ``llama.py``; Unsloth pins
TRL <= 1.15 and transformers <= 5.17), and ``unsloth train``'s YAML (``unsloth_cli/config.py``, pydantic,
``extra="forbid"``) when the setup fits that smaller subset (SFT on one GPU with the Studio's ``adamw_8bit``).

Read at 2026.10.9: ``from_pretrained(load_in_4bit=True, dtype=None, max_seq_length=2048,
use_gradient_checkpointing="unsloth")`` with NF4 and double quantisation (``models/decision.py``),
``get_peft_model(r=16, lora_alpha=16, lora_dropout=0.0)``; Unsloth trains on one GPU, computes the loss with its
fused cross-entropy, and its ``"unsloth"`` checkpointing offloads the checkpointed inputs to host RAM.
The script is read back with ``ast`` (keyword arguments of those calls), so the reader needs no Unsloth.
"""
from __future__ import annotations

import ast
from typing import Any, Mapping

from .. import frameworks
from ..models import ALL_LINEAR
from . import _yaml
from ._common import HF_OPTIM, Plan, ReadState, card_bf16, header, model_from_repo, optimizer_from, render, targets_from
from ._quote import py_literal

TARGET = "unsloth"
SCRIPT_FILE = "train.py"
CONFIG_FILE = "unsloth.yaml"


def plan(p: Plan) -> None:
    k = p.keys
    if k["num_gpus"] > 1 or k["sharding"] != "none":
        p.cannot_express("num_gpus", 1, "unsloth_single_gpu", "use_trl_or_axolotl")
        p.cannot_express("sharding", "none", "unsloth_single_gpu", "use_trl_or_axolotl")
        p.cannot_express("cpu_offload", False, "unsloth_single_gpu", "use_trl_or_axolotl")
        p.cannot_express("offload_params", False, "unsloth_single_gpu", "use_trl_or_axolotl")
        p.adjust("deepspeed", False, "ignored_by_estimate")
        p.adjust("no_sync_accumulation", False, "ignored_by_estimate")
        p.adjust("frozen_param_grads", False, "ignored_by_estimate")
        p.adjust("reduce_bucket_size", 500_000_000, "ignored_by_estimate")
    if k["precision"] != "bf16":
        p.cannot_express("precision", "bf16", "unsloth_16bit_only", "use_trl")
        p.adjust("base_fp32", False, "ignored_by_estimate")
    p.cannot_express("qlora_backend", "bitsandbytes", "unsloth_bitsandbytes_only", "use_bitsandbytes")
    p.cannot_express("quantize_lm_head", False, "transformers_skips_lm_head", "lm_head_stays_16bit")
    p.cannot_express("dequant_cast", False, "not_an_unsloth_regime", "none")
    p.cannot_express("lora_dtype", "fp32", "peft_autocasts_adapters", "none")
    p.cannot_express("keeps_logits", False, "not_an_unsloth_regime", "none")
    p.cannot_express("optimizer_in_backward", False, "unsloth_no_optimizer_in_backward", "use_torchtune")
    p.cannot_express("untie_embeddings", False, "transformers_keeps_ties", "none")
    p.cannot_express("fused_linear_cross_entropy", True, "unsloth_fused_loss_always", "none")
    p.adjust("chunked_cross_entropy", False, "fused_replaces_chunked")
    p.cannot_express("torch_compile", False, "unsloth_compiles_itself", "none")
    if k["method"] == "qlora":
        p.cannot_express("double_quant", True, "unsloth_double_quant_always", "none")
    if not k["gradient_checkpointing"]:
        p.cannot_express("activation_offloading", False, "unsloth_offload_is_checkpointing", "use_trl")
    if k["attention"] != "sdpa":
        p.cannot_express("attention", "sdpa", "unsloth_picks_attention", "install_flash_attn")
    if k["dpo"]:       # LoRA dropout under DPO is kept by the script: DPOConfig(disable_dropout=False)
        p.cannot_express("packing", False, "dpo_config_no_packing", "none")


def _gc(k: Mapping[str, Any]) -> Any:
    if not k["gradient_checkpointing"]:
        return False
    return "unsloth" if k["activation_offloading"] else True


def fits_cli(k: Mapping[str, Any]) -> bool:
    """``unsloth train``'s YAML has no optimizer, DPO, double-quantisation or multi-GPU keys and whole epochs."""
    return (not k["dpo"] and k["optimizer"] == "adamw_8bit" and float(k["epochs"]).is_integer()
            and k["num_gpus"] == 1)


def write(p: Plan, summary: Mapping[str, Any] | None, text: Mapping[str, str] | None) -> dict[str, str]:
    k = p.keys
    repo = p.hf_repo()
    model = repo or "<EDIT: model>"
    dtype = "None" if card_bf16(p.gpu) else "torch.float16"
    trainer = "DPO" if k["dpo"] else "SFT"
    command = f"python {SCRIPT_FILE}"
    head = header(p, summary, command, command, text, [])
    lines = head + [
        "from unsloth import FastLanguageModel  # " + render("unsloth_import_first", text),
        "import json",
        "import torch",
        "import transformers",
        "from datasets import load_dataset",
        f"from trl import {trainer}Config, {trainer}Trainer",
        "",
        f"DATASET = {py_literal('<EDIT: dataset>')}  # " + render("edit_dataset", text),
        f"OUTPUT_DIR = {py_literal('<EDIT: output dir>')}  # " + render("edit_output", text),
        "",
        "",
        "class MeasureMemory(transformers.TrainerCallback):",
        "    def on_step_end(self, args, state, control, **kwargs):",
        "        if state.global_step == 3 and torch.cuda.is_available():",
        "            free, total = torch.cuda.mem_get_info()",
        '            print("measure " + json.dumps({"allocated_bytes": torch.cuda.max_memory_allocated(),',
        '                                          "reserved_bytes": torch.cuda.max_memory_reserved(),',
        '                                          "peak_bytes_per_gpu": total - free}), flush=True)',
        "",
        "",
        "model, tokenizer = FastLanguageModel.from_pretrained(",
        f"    model_name={py_literal(model)},",
        f"    max_seq_length={py_literal(k['seq_len'])},",
        f"    dtype={dtype},",
        f"    load_in_4bit={py_literal(k['method'] == 'qlora')},",
        f"    full_finetuning={py_literal(k['method'] == 'full')},",
        f"    use_gradient_checkpointing={py_literal(_gc(k))},",
        ")",
    ]
    if k["method"] != "full":
        targets = list(k["lora_targets"])
        lines += [
            "model = FastLanguageModel.get_peft_model(",
            "    model,",
            f"    r={py_literal(k['lora_rank'])},",
            f"    target_modules={py_literal(targets)},",
            f"    lora_alpha={py_literal(2 * k['lora_rank'])},",
            f"    lora_dropout={py_literal(k['lora_dropout'])},",
            '    bias="none",',
            f"    use_gradient_checkpointing={py_literal(_gc(k))},",
            "    random_state=3407,",
            ")",
        ]
    optim, optim_args = HF_OPTIM[k["optimizer"]]
    half = "bf16=True" if card_bf16(p.gpu) else "fp16=True"
    args = ["    output_dir=OUTPUT_DIR,", f"    per_device_train_batch_size={py_literal(k['micro_batch_size'])},",
            f"    gradient_accumulation_steps={py_literal(k['grad_accum_steps'])},", f"    max_length={py_literal(k['seq_len'])},",
            f"    optim={py_literal(optim)},", f"    {half},", f"    num_train_epochs={py_literal(k['epochs'])},", '    report_to="none",']
    if optim_args:
        args.append(f"    optim_args={py_literal(optim_args)},")
    if not k["dpo"]:
        args.append(f"    packing={py_literal(k['packing'])},")
    else:
        if k["precompute_ref_log_probs"]:
            args.append("    precompute_ref_log_probs=True,")
        if k["method"] != "full" and k["lora_dropout"] > 0:
            args.append("    disable_dropout=False,")
    lines += [
        'dataset = load_dataset(DATASET, split="train")',
        f"args = {trainer}Config(",
        *args,
        ")",
        f"trainer = {trainer}Trainer(model=model, processing_class=tokenizer, train_dataset=dataset, args=args,",
        "                  callbacks=[MeasureMemory()])",
        "trainer.train()",
    ]
    files = {SCRIPT_FILE: "\n".join(lines) + "\n"}
    if fits_cli(k):
        gc = {False: "none", True: "true", "unsloth": "unsloth"}[_gc(k)]
        items: list[tuple[str, Any, str | None]] = [
            ("model", model, None),
            ("data", [("dataset", "<EDIT: dataset>", render("edit_dataset", text))], None),
            ("training", [
                ("training_type", "full" if k["method"] == "full" else "lora", None),
                ("max_seq_length", k["seq_len"], None),
                ("load_in_4bit", k["method"] == "qlora", None),
                ("output_dir", "<EDIT: output dir>", render("edit_output", text)),
                ("num_epochs", int(k["epochs"]), None),
                ("batch_size", k["micro_batch_size"], None),
                ("gradient_accumulation_steps", k["grad_accum_steps"], None),
                ("packing", k["packing"], None),
                ("gradient_checkpointing", gc, None),
            ], None),
        ]
        if k["method"] != "full":
            items.append(("lora", [("lora_r", k["lora_rank"], None), ("lora_alpha", 2 * k["lora_rank"], None),
                                   ("lora_dropout", k["lora_dropout"], None),
                                   ("target_modules", ",".join(k["lora_targets"]), None)], None))
        cli_head = header(p, summary, f"unsloth train --config {CONFIG_FILE}", None, text, [])
        files[CONFIG_FILE] = "\n".join(cli_head + _yaml.dump(items)) + "\n"
    return files


# =====================================================================================================================
# Reading: the script (through ast) or the CLI YAML
# =====================================================================================================================


def _calls(tree: ast.AST) -> dict[str, dict[str, Any]]:
    """Keyword arguments (literal values, or dotted names as strings) of the calls the export makes."""
    out: dict[str, dict[str, Any]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            fn = node.func
            name = fn.attr if isinstance(fn, ast.Attribute) else fn.id if isinstance(fn, ast.Name) else None
            if name in ("from_pretrained", "get_peft_model", "SFTConfig", "DPOConfig"):
                kwargs = {}
                for kw in node.keywords:
                    if kw.arg is None:
                        continue
                    try:
                        kwargs[kw.arg] = ast.literal_eval(kw.value)
                    except ValueError:
                        kwargs[kw.arg] = ast.unparse(kw.value)
                out[name] = kwargs
    return out


def read_script(state: ReadState, name: str, text: str) -> None:
    try:
        tree = ast.parse(text)
        calls = _calls(tree)
    except SyntaxError as exc:
        state.error("invalid_python", name, f"line {exc.lineno}")
        return
    except (RecursionError, MemoryError, ValueError):
        state.error("too_large", name, None)
        return
    load = calls.get("from_pretrained", {})
    peft = calls.get("get_peft_model")
    dpo = "DPOConfig" in calls
    cfg = calls.get("DPOConfig" if dpo else "SFTConfig", {})
    d = frameworks.defaults(TARGET, request={"dpo": dpo})
    state.model = model_from_repo(load.get("model_name"))
    if state.model is None and load.get("model_name") is not None:
        state.unread_key(name, "model_name", load.get("model_name"), "unknown_model")
    state.set("dpo", dpo)
    full = load.get("full_finetuning", False) is True
    q4 = load.get("load_in_4bit", True) is True and not full
    method = "full" if full else "qlora" if q4 else "lora"
    if not full and peft is None:
        state.error("missing_field", name, "get_peft_model")
    if load.get("load_in_8bit") is True:
        state.error("not_modelled", name, "load_in_8bit")
    state.set("method", method)
    state.set("precision", "bf16")
    state.set("seq_len", state.typed(name, "max_seq_length", load.get("max_seq_length", d["seq_len"]), int))
    gc = (peft or load).get("use_gradient_checkpointing", "unsloth")
    state.set("gradient_checkpointing", gc in (True, "unsloth"))
    state.set("activation_offloading", gc == "unsloth")
    if peft is not None:
        state.set("lora_rank", state.typed(name, "r", peft.get("r", d["lora_rank"]), int))
        names = targets_from(peft.get("target_modules", list(ALL_LINEAR)))
        if names is None:
            state.error("unknown_value", name, "target_modules")
        state.set("lora_targets", names)
        dropout = state.typed(name, "lora_dropout", peft.get("lora_dropout", 0.0), float)
        disable = cfg.get("disable_dropout", True) is True
        state.set("lora_dropout", 0.0 if dpo and disable else dropout)
    state.set("micro_batch_size", state.typed(name, "per_device_train_batch_size",
                                              cfg.get("per_device_train_batch_size", 8), int))
    state.set("grad_accum_steps", state.typed(name, "gradient_accumulation_steps",
                                              cfg.get("gradient_accumulation_steps", 1), int))
    opt = optimizer_from(cfg.get("optim", "adamw_torch_fused"), cfg.get("optim_args"))
    if opt is None:
        state.error("not_modelled", name, "optim")
    state.set("optimizer", opt)
    state.set("packing", cfg.get("packing", False) is True and not dpo)
    state.set("epochs", state.typed(name, "num_train_epochs", cfg.get("num_train_epochs", 3.0), float))
    if dpo:
        state.set("precompute_ref_log_probs", cfg.get("precompute_ref_log_probs", False) is True)
    known = {"from_pretrained": {"model_name", "max_seq_length", "dtype", "load_in_4bit", "full_finetuning",
                                 "use_gradient_checkpointing", "load_in_8bit"},
             "get_peft_model": {"r", "target_modules", "lora_alpha", "lora_dropout", "bias",
                                "use_gradient_checkpointing", "random_state"},
             "SFTConfig": {"output_dir", "per_device_train_batch_size", "gradient_accumulation_steps", "max_length",
                           "optim", "optim_args", "bf16", "fp16", "num_train_epochs", "report_to", "packing"},
             "DPOConfig": {"output_dir", "per_device_train_batch_size", "gradient_accumulation_steps", "max_length",
                           "optim", "optim_args", "bf16", "fp16", "num_train_epochs", "report_to",
                           "precompute_ref_log_probs", "disable_dropout"}}
    for call, kwargs in calls.items():
        for key, value in kwargs.items():
            if key not in known[call]:
                state.unread_key(name, f"{call}.{key}", value if isinstance(value, (bool, int, float, str)) else None)
    _fixed(state)


def read_cli(state: ReadState, name: str, cfg: Mapping[str, Any]) -> None:
    training = cfg.get("training") or {}
    lora = cfg.get("lora") or {}
    if not isinstance(training, dict) or not isinstance(lora, dict):
        state.error("wrong_type", name, "training" if not isinstance(training, dict) else "lora")
        return
    state.read_model(name, cfg, "model")
    state.set("dpo", False)
    full = training.get("training_type", "lora") == "full"
    q4 = training.get("load_in_4bit", True) is True and not full
    state.set("method", "full" if full else "qlora" if q4 else "lora")
    state.set("precision", "bf16")
    state.set("seq_len", state.typed(name, "training.max_seq_length", training.get("max_seq_length", 2048), int))
    state.set("micro_batch_size", state.typed(name, "training.batch_size", training.get("batch_size", 2), int))
    state.set("grad_accum_steps", state.typed(name, "training.gradient_accumulation_steps",
                                              training.get("gradient_accumulation_steps", 4), int))
    state.set("epochs", state.typed(name, "training.num_epochs", training.get("num_epochs", 3), float))
    state.set("packing", training.get("packing", False) is True)
    gc = training.get("gradient_checkpointing", "unsloth")
    gc = {True: "true", False: "none"}.get(gc, gc) if isinstance(gc, bool) else str(gc).lower()
    if gc not in ("unsloth", "true", "none"):
        state.error("unknown_value", name, "training.gradient_checkpointing")
    state.set("gradient_checkpointing", gc in ("unsloth", "true"))
    state.set("activation_offloading", gc == "unsloth")
    state.set("optimizer", "adamw_8bit")
    if not full:
        state.set("lora_rank", state.typed(name, "lora.lora_r", lora.get("lora_r", 64), int))
        names = targets_from(str(lora.get("target_modules", ",".join(ALL_LINEAR))).split(","))
        if names is None:
            state.error("unknown_value", name, "lora.target_modules")
        state.set("lora_targets", names)
        state.set("lora_dropout", state.typed(name, "lora.lora_dropout", lora.get("lora_dropout", 0.0), float))
        if lora.get("use_dora") is True:
            state.error("not_modelled", name, "lora.use_dora")
    for section, keys in (("training", training), ("lora", lora)):
        for key, value in keys.items():
            if key not in ("training_type", "max_seq_length", "load_in_4bit", "batch_size",
                           "gradient_accumulation_steps", "num_epochs", "packing", "gradient_checkpointing",
                           "lora_r", "target_modules", "lora_dropout", "use_dora"):
                state.unread_key(name, f"{section}.{key}", value if isinstance(value, (bool, int, float, str))
                                 else None)
    _fixed(state)


def _fixed(state: ReadState) -> None:
    """What Unsloth always does (no switch): one GPU, its fused loss, NF4 with double quantisation, fp32 adapters."""
    state.set("num_gpus", 1)
    state.set("sharding", "none")
    state.set("fused_linear_cross_entropy", True)
    state.set("chunked_cross_entropy", False)
    state.set("attention", "sdpa")
    state.set("lora_dtype", "fp32")
    state.set("torch_compile", False)
    if state.keys.get("method") == "qlora":
        state.set("double_quant", True)
        state.set("qlora_backend", "bitsandbytes")


def read(state: ReadState, cfgs: Mapping[str, Mapping[str, Any]], kinds: Mapping[str, str]) -> None:
    found = state.main_file(cfgs, kinds)
    if found is None:
        return
    name, cfg = found
    if "__python__" in cfg:
        read_script(state, name, cfg["__python__"])
    else:
        read_cli(state, name, cfg)
