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
import warnings
from typing import Any, Mapping

from .. import frameworks
from ..models import ALL_LINEAR
from . import _yaml
from ._common import GRPO_KEYS
from ._common import (HF_OPTIM, Plan, ReadState, card_bf16, header, kbit_upcast_rule, learning_rate, model_from_repo,
                      optimizer_from, prequantized, render, targets_from)
from ._quote import py_literal

TARGET = "unsloth"
SCRIPT_FILE = "train.py"
CONFIG_FILE = "unsloth.yaml"

#: Request keys these files write (the reader reads each back). Every other export key is ``LEFT_TO_DEFAULT``: the
#: files run Unsloth's default for it (``Plan.settle`` lists it where the request asked otherwise, unless a rule of
#: ``plan`` already set it). tests/unit/test_export_keys.py holds that every key is declared once.
WRITTEN: frozenset[str] = frozenset((
    "method", "dpo", "precompute_ref_log_probs", "lora_rank", "lora_targets", "lora_dtype", "lora_dropout",
    "double_quant", "qlora_backend", "micro_batch_size", "seq_len", "grad_accum_steps", "gradient_checkpointing",
    "attention", "precision", "optimizer", "chunked_cross_entropy", "torch_compile", "fused_linear_cross_entropy",
    "activation_offloading", "num_gpus", "sharding", "packing", "epochs",
))
#: GRPO: the framework runs it, these files do not write it yet: the objective is refused (``Plan``) and the
#: files train supervised, as the estimate beside them.
GRPO_REFUSAL: str | None = "grpo_not_exported_here"
#: The keys these files leave to unsloth's default (``Plan.settle``; a rule of ``plan`` may set one first).
LEFT_TO_DEFAULT: frozenset[str] = frozenset((
    "quantize_experts",
    "kbit_upcast",
    "quantize_lm_head", "dequant_cast", "qlora_compute_dtype", "quant_storage", "moe_layout",
    "lora_expert_params", "half_dtype", "base_fp32", "keeps_logits", "optimizer_in_backward", "cpu_offload",
    "offload_params", "deepspeed", "reduce_bucket_size", "frozen_param_grads", "no_sync_accumulation",
    "fsdp_version", "fsdp2_upcast", "shard_embeddings", "cpu_ram_efficient_loading",
    "ddp_gradient_as_bucket_view", "deepspeed_bf16_master_weights", "deepspeed_bf16_optimizer_states",
    "untie_embeddings", "attention_kernel",
)) | GRPO_KEYS


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
    kbit_upcast_rule(p)                        # unsloth_zoo casts only the trainable parameters
    # one nn.Linear per expert (moe_layout per_expert): bitsandbytes quantises them, nothing for a switch to do
    p.adjust("quantize_experts", False, "ignored_by_estimate")


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
    steps = (render("data_dpo" if k["dpo"] else "data_unsloth_sft", text),)
    head = header(p, summary, command, command, text, [], steps=steps)
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
            f"    gradient_accumulation_steps={py_literal(k['grad_accum_steps'])},",
            f"    learning_rate={py_literal(learning_rate(p))},  # " + render("why_lr", text, framework="Unsloth"),
            f"    max_length={py_literal(k['seq_len'])},",
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
                ("learning_rate", learning_rate(p), render("why_lr", text, framework="Unsloth")),
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
        cli_head = header(p, summary, f"unsloth train --config {CONFIG_FILE}", None, text, [], steps=steps)
        files[CONFIG_FILE] = "\n".join(cli_head + _yaml.dump(items)) + "\n"
    return files


# =====================================================================================================================
# Reading: the script (through ast) or the CLI YAML
# =====================================================================================================================


class _NotFollowed(Exception):
    """A value the reader cannot follow to a plain one (computed at run time, or from a name set nowhere above)."""


class _Script:
    """A training script as its statements run: the trainer's call, and the calls and values it was built from,
    each found by following the names it is given back to their last assignment above it (module level only: a
    cell of a notebook; an inference reload under ``if False:`` is never the trained model)."""

    def __init__(self, tree: ast.Module) -> None:
        self.assigns: list[tuple[int, str, int | None, ast.expr]] = []      # line, name, unpacked index, value
        self.calls: list[ast.Call] = []
        for stmt in tree.body:
            if isinstance(stmt, ast.Assign):
                for target in stmt.targets:
                    if isinstance(target, ast.Name):
                        self.assigns.append((stmt.lineno, target.id, None, stmt.value))
                    elif isinstance(target, ast.Tuple):
                        for i, elt in enumerate(target.elts):
                            if isinstance(elt, ast.Name):
                                self.assigns.append((stmt.lineno, elt.id, i, stmt.value))
            value = getattr(stmt, "value", None)
            if isinstance(value, ast.Call):
                self.calls.append(value)

    def assigned(self, name: str, before: int) -> tuple[int | None, ast.expr, int] | None:
        found = [(i, v, line) for line, n, i, v in self.assigns if n == name and line < before]
        return found[-1] if found else None

    def call(self, node: ast.expr | None, before: int, unpacked: bool = False) -> ast.Call | None:
        """The call ``node`` is, or the call that last set the name ``node`` is (``model, tok = f(...)``)."""
        if isinstance(node, ast.Call):
            return node
        if isinstance(node, ast.Name):
            found = self.assigned(node.id, before)
            if found is not None and isinstance(found[1], ast.Call) and (found[0] in (None, 0) or unpacked):
                return found[1]
        return None

    def value(self, node: ast.expr, before: int, depth: int = 0) -> Any:
        """A plain value: a literal, a name set above to one, arithmetic of numbers; a dotted name as its text."""
        if depth > 32:
            raise _NotFollowed
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            found = self.assigned(node.id, before)
            if found is None or found[0] is not None:
                raise _NotFollowed
            return self.value(found[1], found[2], depth + 1)
        if isinstance(node, (ast.List, ast.Tuple)):
            return [self.value(e, before, depth + 1) for e in node.elts]
        if isinstance(node, ast.Attribute):
            return ast.unparse(node)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            v = self.value(node.operand, before, depth + 1)
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                return -v if isinstance(node.op, ast.USub) else v
        if isinstance(node, ast.BinOp) and type(node.op) in _ARITHMETIC:
            a, b = self.value(node.left, before, depth + 1), self.value(node.right, before, depth + 1)
            numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) and abs(v) < 1e15 for v in (a, b))
            if numbers and not (b == 0 and isinstance(node.op, (ast.Div, ast.FloorDiv))):
                return _ARITHMETIC[type(node.op)](a, b)
        raise _NotFollowed


#: The arithmetic a setting may be written with (``max_seq_length // 2``), on numbers below 10**15.
_ARITHMETIC = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
               ast.FloorDiv: lambda a, b: a // b, ast.Div: lambda a, b: a / b}


def _fn(call: ast.Call) -> str:
    fn = call.func
    return fn.attr if isinstance(fn, ast.Attribute) else fn.id if isinstance(fn, ast.Name) else ""


def _arg(call: ast.Call, key: str, position: int | None = None) -> ast.expr | None:
    for kw in call.keywords:
        if kw.arg == key:
            return kw.value
    if position is not None and len(call.args) > position:
        return call.args[position]
    return None


#: A trainer class -> the trainer the estimator reads (TRL's and Unsloth's SFT and DPO, transformers' Trainer).
_TRAINERS = {"SFTTrainer": "sft", "UnslothTrainer": "sft", "Trainer": "sft", "DPOTrainer": "dpo"}


class _Reading:
    """The trained model's calls (``from_pretrained`` -> ``get_peft_model`` -> the trainer and its config), and
    their keywords resolved to plain values."""

    def __init__(self, state: ReadState, name: str, script: _Script) -> None:
        self.state, self.name, self.script = state, name, script
        self.trainer: ast.Call | None = next((c for c in script.calls if _fn(c).endswith("Trainer")
                                              and _arg(c, "model", 0) is not None), None)   # not PatchDPOTrainer()
        self.load = self.peft = self.config = None
        if self.trainer is None:
            return
        line = self.trainer.lineno
        built = script.call(_arg(self.trainer, "model", 0), line, unpacked=True)
        if built is not None and _fn(built) == "get_peft_model":
            self.peft = built
            built = script.call(_arg(built, "model", 0), built.lineno, unpacked=True)
        if built is not None and _fn(built) == "from_pretrained":
            self.load = built
        self.config = script.call(_arg(self.trainer, "args"), line)

    def get(self, call: ast.Call | None, key: str, default: Any = None) -> Any:
        node = _arg(call, key) if call is not None else None
        if node is None:
            return default
        try:
            return self.script.value(node, call.lineno)
        except _NotFollowed:
            self.state.error("not_followed", self.name, key)
            return None

    def setting(self, key: str, default: Any = None) -> Any:
        """A training setting: the config's keyword, else the trainer's own (older notebooks pass ``packing`` and
        ``max_seq_length`` to ``SFTTrainer``), else ``default``."""
        for call in (self.config, self.trainer):
            if call is not None and _arg(call, key) is not None:
                return self.get(call, key)
        return default

    def literal(self, call: ast.Call, node: ast.expr) -> Any:
        try:
            value = self.script.value(node, call.lineno)
        except _NotFollowed:
            return None
        return value if isinstance(value, (bool, int, float, str)) else None


#: Keywords of the script's calls (``from_pretrained``, ``get_peft_model``, the config, the trainer) and keys of the
#: Studio YAML that move memory in a way the estimate does not follow: set (truthy), each is noted as not modelled.
NOT_MODELLED: dict[str, str] = {
    "load_in_fp8": "FP8 weights",
    "fast_inference": "vLLM beside the model: it reserves gpu_memory_utilization of the card",
    "qat_scheme": "quantization-aware training",
    "unsloth_tiled_mlp": "tiled MLP: fewer saved activations",
    "padding_free": "padding-free batches: no padded tokens",
    "device_map": "the model placed across devices by the file's map",
    "ref_model": "a separate reference model",
    "loftq_config": "LoftQ initialisation",
    "use_loftq": "LoftQ initialisation",
    "gradient_checkpointing": "the trainer's own checkpointing beside Unsloth's",
    "offload_embedding": "the input embedding kept in CPU RAM",
    "finetune_vision_layers": "adapters on the vision tower's layers too",
}
#: FastModel.get_peft_model's switches that, turned off, leave layers without adapters (fewer than the targets read).
NARROWING = ("finetune_language_layers", "finetune_attention_modules", "finetune_mlp_modules")


def read_script(state: ReadState, name: str, text: str) -> None:
    try:
        with warnings.catch_warnings():     # a pasted script's invalid escapes ("\(") are the script's, not ours
            warnings.simplefilter("ignore", SyntaxWarning)
            warnings.simplefilter("ignore", DeprecationWarning)
            tree = ast.parse(text)
        script = _Script(tree)
    except SyntaxError as exc:
        state.error("invalid_python", name, f"line {exc.lineno}")
        return
    except (RecursionError, MemoryError, ValueError):
        state.error("too_large", name, None)
        return
    r = _Reading(state, name, script)
    if r.trainer is None:
        state.error("not_followed", name, "Trainer")       # no trainer: nothing says what trains
        return
    trainer = _fn(r.trainer)
    config = _fn(r.config) if r.config is not None else ""
    for cls in (trainer, config):
        kind = cls[:-len("Config")] if cls.endswith("Config") else cls[:-len("Trainer")] if cls else ""
        if cls and cls not in _TRAINERS and cls not in ("SFTConfig", "DPOConfig", "TrainingArguments") and kind:
            state.error("unsupported_trainer", name, cls)        # ORPOTrainer, GRPOConfig…: not modelled yet
            return
    if r.load is None:
        state.error("not_followed", name, "model")      # the trainer's model is not built by from_pretrained above
        return
    dpo = _TRAINERS.get(trainer) == "dpo" or config == "DPOConfig"
    d = frameworks.defaults(TARGET, request={"dpo": dpo})
    model_name = r.get(r.load, "model_name")
    state.model = model_from_repo(model_name)
    if state.model is None and model_name is not None:
        state.unread_key(name, "model_name", model_name, "unknown_model")
    if prequantized(model_name):
        state.unread_key(name, "model_name", model_name, "not_modelled")
    state.set("dpo", dpo)
    full = r.get(r.load, "full_finetuning", False) is True
    q4 = r.get(r.load, "load_in_4bit", True) is True and not full
    method = "full" if full else "qlora" if q4 else "lora"
    if not full and r.peft is None:
        state.error("missing_field", name, "get_peft_model")
    if r.get(r.load, "load_in_8bit") is True:
        state.error("not_modelled", name, "load_in_8bit")
    if r.get(r.load, "load_in_16bit") is True and q4:     # Unsloth: "can only select one" of 4/8/16-bit and fp8
        state.error("contradiction", name, "load_in_16bit")
    state.set("method", method)
    state.set("precision", "bf16")
    loaded_len = r.get(r.load, "max_seq_length", d["seq_len"])
    seq = r.setting("max_length", r.setting("max_seq_length", loaded_len))
    state.set("seq_len", state.typed(name, "max_seq_length", seq, int))
    gc = r.get(r.peft or r.load, "use_gradient_checkpointing", "unsloth")
    state.set("gradient_checkpointing", gc in (True, "unsloth"))
    state.set("activation_offloading", gc == "unsloth")
    if r.peft is not None:
        state.set("lora_rank", state.typed(name, "r", r.get(r.peft, "r", d["lora_rank"]), int))
        names = targets_from(r.get(r.peft, "target_modules", list(ALL_LINEAR)))
        if names is None:
            state.error("unknown_value", name, "target_modules")
        state.set("lora_targets", names)
        dropout = state.typed(name, "lora_dropout", r.get(r.peft, "lora_dropout", 0.0), float)
        disable = r.setting("disable_dropout", True) is True
        state.set("lora_dropout", 0.0 if dpo and disable else dropout)
    state.set("micro_batch_size", state.typed(name, "per_device_train_batch_size",
                                              r.setting("per_device_train_batch_size", 8), int))
    state.set("grad_accum_steps", state.typed(name, "gradient_accumulation_steps",
                                              r.setting("gradient_accumulation_steps", 1), int))
    opt = optimizer_from(r.setting("optim", "adamw_torch_fused"), r.setting("optim_args"))
    if opt is None:
        state.error("not_modelled", name, "optim")
    state.set("optimizer", opt)
    state.set("packing", r.setting("packing", False) is True and not dpo)
    state.set("epochs", state.typed(name, "num_train_epochs", r.setting("num_train_epochs", 3.0), float))
    if dpo:
        state.set("precompute_ref_log_probs", r.setting("precompute_ref_log_probs", False) is True)
    known = {"from_pretrained": {"model_name", "max_seq_length", "dtype", "load_in_4bit", "full_finetuning",
                                 "use_gradient_checkpointing", "load_in_8bit", "load_in_16bit"},
             "get_peft_model": {"model", "r", "target_modules", "lora_alpha", "lora_dropout", "bias",
                                "use_gradient_checkpointing", "random_state"},
             "config": {"output_dir", "per_device_train_batch_size", "gradient_accumulation_steps", "max_length",
                        "max_seq_length", "optim", "optim_args", "bf16", "fp16", "num_train_epochs", "report_to",
                        "packing", "precompute_ref_log_probs", "disable_dropout"},
             "trainer": {"model", "args", "processing_class", "tokenizer", "train_dataset", "eval_dataset",
                         "callbacks", "max_seq_length", "max_length", "packing"}}
    for label, call, keys in ((_fn(r.load), r.load, known["from_pretrained"]),
                              ("get_peft_model", r.peft, known["get_peft_model"]),
                              (config, r.config, known["config"]), (trainer, r.trainer, known["trainer"])):
        for kw in call.keywords if call is not None else ():
            if kw.arg is not None and kw.arg not in keys:
                value = r.literal(call, kw.value)
                moves = (kw.arg in NOT_MODELLED and value not in (None, False, 0, "", [], {})) or \
                    (kw.arg in NARROWING and value is False)
                state.unread_key(name, f"{label}.{kw.arg}", value, "not_modelled" if moves else "not_read")
    _fixed(state)


def read_cli(state: ReadState, name: str, cfg: Mapping[str, Any]) -> None:
    training = state.mapping(name, "training", cfg.get("training"))
    lora = state.mapping(name, "lora", cfg.get("lora"))
    if state.errors:
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
        if lora.get("vision_all_linear") is True:
            # unsloth_cli/config.py model_kwargs: a vision model's LoRA is "all-linear" (its vision tower's linear
            # layers too, which the estimate does not count: noted); a text model's is target_modules
            names = names if str(lora.get("target_modules", "")).strip() else ALL_LINEAR
            state.unread_key(name, "lora.vision_all_linear", True, "not_modelled")
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
                           "lora_r", "target_modules", "lora_dropout", "use_dora") \
                    and not (section == "lora" and key == "vision_all_linear" and value is True):
                moves = key in NOT_MODELLED and value not in (None, False, 0, "", [], {})
                state.unread_key(name, f"{section}.{key}", value if isinstance(value, (bool, int, float, str))
                                 else None, "not_modelled" if moves else "not_read")
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
    mine = [n for n in cfgs if kinds[n] == TARGET]
    scripts = [n for n in mine if "__python__" in cfgs[n]]
    if len(mine) == 2 and len(scripts) == 1:
        # The export's two ways to run one setup, the script and ``unsloth train``'s YAML: each is read, and every
        # key both set must agree (else ``contradiction``); the script's keys are the request.
        yaml_name = next(n for n in mine if n not in scripts)
        other = ReadState(TARGET)
        read_cli(other, yaml_name, cfgs[yaml_name])
        read_script(state, scripts[0], cfgs[scripts[0]]["__python__"])
        state.errors += other.errors
        state.unread += other.unread
        differ = sorted(k for k, v in other.keys.items() if k in state.keys and state.keys[k] != v)
        if differ or other.model != state.model:
            state.error("contradiction", yaml_name, differ[0] if differ else "model")
        return
    found = state.main_file(cfgs, kinds)
    if found is None:
        return
    name, cfg = found
    if "__python__" in cfg:
        read_script(state, name, cfg["__python__"])
    else:
        read_cli(state, name, cfg)
