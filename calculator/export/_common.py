"""What every target shares: the plan (request keys after the export's adjustments), the cards' capabilities, the
files' headers and comments (codes rendered through one template table), and the companion readers and writers
(accelerate YAML, DeepSpeed JSON) several targets use.

Everything goes through ``calculator.api``'s public functions: ``parse_request`` validates a request and
``inputs_json`` gives its keys back normalised; ``answer`` gives the estimate a file's header names.
"""
from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any, Mapping

from .. import api, frameworks
from ..errors import InputError
from ..inputs import LORA_KEYS
from ..catalog import GATED, GPUS, PREQUANTIZED_FORMATS, is_hub_id, resolve
from ..models import ALL_LINEAR, LORA_MODULES
from ..params import count_params
from . import _yaml
from ._quote import comment, name_ok

__all__ = ["Export", "Read", "CannotExpress", "Plan", "ReadState", "GPU_CAPS", "COMMENT_CODES", "relevant",
           "MEASURE_FILE"]

# =====================================================================================================================
# Results
# =====================================================================================================================


#: Why a target cannot write a key (``CannotExpress.reason``): the page words each one (``calc.run.reasons.<code>``).
CANNOT_REASONS: tuple[str, ...] = (
    "card_without_bf16", "card_without_flash_attention", "bitsandbytes_only", "transformers_skips_lm_head",
    "not_this_frameworks_regime", "peft_autocasts_adapters", "no_optimizer_in_backward", "transformers_keeps_ties",
    "fsdp_has_no_zero1_2", "fsdp_offloads_together", "fsdp2_per_parameter", "trainer_no_sync_default",
    "deepspeed_no_no_sync", "trl_fused_lm_head_always", "dpo_config_no_packing", "axolotl_loads_16bit",
    "needs_liger_plugin", "axolotl_dpo_no_packing", "dpo_disables_dropout", "axolotl_offloading_needs_checkpointing",
    "axolotl_fsdp2_no_4bit_dpo", "llamafactory_loads_compute_dtype", "pure_bf16_not_with_zero3",
    "llamafactory_no_activation_offloading", "llamafactory_no_chunked_loss", "dpo_no_packing",
    "llamafactory_no_precompute", "unsloth_single_gpu", "unsloth_16bit_only", "unsloth_bitsandbytes_only",
    "not_an_unsloth_regime", "unsloth_no_optimizer_in_backward", "unsloth_fused_loss_always",
    "unsloth_compiles_itself", "unsloth_double_quant_always", "unsloth_offload_is_checkpointing",
    "unsloth_picks_attention", "transformers_fuses_experts", "files_keep_framework_default",
    "exports_write_fsdp2", "trl_compute_follows_dtype", "fsdp2_no_bnb_optimizer", "framework_sets_kbit_cast",
    "trl_casts_4bit_adapters_bf16", "bitsandbytes_skips_fused_experts", "grpo_not_exported_here",
    "llamafactory_no_grpo", "grpo_config_no_activation_offloading",
)
#: What the reader can do instead (``CannotExpress.what_to_do``; ``none``: nothing needed, the estimate follows the
#: file): ``calc.run.todo.<code>``.
WHAT_TO_DO: tuple[str, ...] = (
    "none", "fp16_needs_fp32_master", "use_sdpa", "use_bitsandbytes", "lm_head_stays_16bit", "use_torchtune",
    "deepspeed_zero", "deepspeed_for_split_offload", "use_trl_sync_each_batch", "use_trl_for_fp32_master",
    "add_liger_plugin", "use_trl_disable_dropout_false", "use_trl_for_fp32_base", "use_fsdp", "use_trl_or_axolotl",
    "enable_liger_kernel", "use_trl", "install_flash_attn", "use_unsloth",
    "use_axolotl_quantize_experts",
)
#: Why a key was rewritten without changing the estimate (``Export.adjustments``): ``calc.run.adjusted.<code>``.
ADJUST_REASONS: tuple[str, ...] = ("same_regime_lora_16bit_base", "ignored_by_estimate", "fused_replaces_chunked")
#: Why a key of a pasted file was not read (``Read.unread``): ``calc.run.unread.<code>``.
UNREAD_CODES: tuple[str, ...] = ("not_read", "not_modelled", "unknown_model", "deprecated", "trainer_assumed",
                                 "gpus_assumed")


@dataclass(frozen=True, kw_only=True)
class CannotExpress:
    """A request key the target cannot write: the value asked, the value the file gives instead (``becomes``, which
    the estimate beside the export is recomputed for), why (a code) and what to do instead (a code)."""

    key: str
    value: Any
    becomes: Any
    reason: str
    what_to_do: str

    def as_json(self) -> dict[str, Any]:
        return {"key": self.key, "value": _jsonable(self.value), "becomes": _jsonable(self.becomes),
                "reason": self.reason, "what_to_do": self.what_to_do}


@dataclass(frozen=True, kw_only=True)
class Export:
    """A target's files ({file name: text}) for one request, what it cannot express, and the request they realise
    (``request``: the input after the export's adjustments; ``adjustments``: ``(key, from, to, reason)``)."""

    target: str
    framework_version: str
    stack: dict[str, str]
    files: dict[str, str]
    cannot_express: tuple[CannotExpress, ...]
    request: dict[str, Any]
    adjustments: tuple[tuple[str, Any, Any, str], ...]

    def as_json(self) -> dict[str, Any]:
        return {"target": self.target, "framework_version": self.framework_version, "stack": dict(self.stack),
                "files": dict(self.files),
                "cannot_express": [c.as_json() for c in self.cannot_express],
                "request": {k: _jsonable(v) for k, v in self.request.items()},
                "adjustments": [{"key": k, "from": _jsonable(a), "to": _jsonable(b), "reason": r}
                                for k, a, b, r in self.adjustments]}


@dataclass(frozen=True, kw_only=True)
class Read:
    """A pasted config read into a request. ``unread``: ``{file, key, value, code}`` for every key the estimator did
    not take (``not_read``: no bearing on memory or time as modelled; ``not_modelled``: it changes memory in a way
    the estimator does not model); ``errors``: ``{code, file, field}`` (``contradiction``, ``wrong_type``,
    ``unknown_value``, ``invalid_yaml``, ``invalid_json``, ``unknown_target``, ``not_modelled``) — the page words them
    from the code. ``request`` is None when an error stops the reading."""

    target: str | None
    request: dict[str, Any] | None
    unread: tuple[dict[str, Any], ...]
    errors: tuple[dict[str, Any], ...]

    def as_json(self) -> dict[str, Any]:
        return {"target": self.target, "request": self.request, "unread": list(self.unread),
                "errors": list(self.errors)}


def _jsonable(v: Any) -> Any:
    return list(v) if isinstance(v, tuple) else v


# =====================================================================================================================
# The cards (for bf16, FlashAttention 2 and Axolotl's capability check)
# =====================================================================================================================

def _target(compute_capability: str) -> str:
    """The catalogue's compute capability as the frameworks write it: "8.6" -> "sm_86"; a ROCm target stays."""
    return "sm_" + compute_capability.replace(".", "") if compute_capability[:1].isdigit() else compute_capability


#: Per catalogue GPU, read from the catalogue (its ``compute_capability`` and ``bf16``, with their sources there): the
#: target as the frameworks write it and whether it computes in bf16. FlashAttention 2 needs sm_80+ (flash-attn
#: README) or ROCm CDNA 3 (its composable-kernel backend).
GPU_CAPS: dict[str, tuple[str, bool]] = {g.id: (_target(g.compute_capability), g.bf16) for g in GPUS.values()}


def flash_capable(gpu: str) -> bool:
    target = GPU_CAPS[gpu][0]
    return not target.startswith("sm_") or int(target[3:]) >= 80


def card_bf16(gpu: str | None) -> bool:
    return gpu is None or GPU_CAPS[gpu][1]


# =====================================================================================================================
# Which keys matter for a request (the round trip compares these)
# =====================================================================================================================
_QLORA_KEYS = ("double_quant", "qlora_backend", "quantize_lm_head", "dequant_cast", "kbit_upcast", "quantize_experts")
#: Request keys of the machine, not of the training files (the CUDA context, the cluster's nodes and links): carried
#: over as given, as the card is.
MACHINE_KEYS: tuple[str, ...] = ("cuda_context_bytes", "gpus_per_node", "internode_gb_s")
#: Request keys an export writes or lists (every estimate input, the run's size; not the answer's options). Each
#: target declares every one: written by its files (``WRITTEN``), or left to the framework's default
#: (``LEFT_TO_DEFAULT``), which ``Plan.settle`` lists in ``cannot_express`` when the request asked otherwise.
#: Request keys of the reader's data, not of the training files: GRPO's prompt length (TRL 1.16's GRPOConfig has no
#: prompt truncation, trl/trainer/grpo_config.py: the prompts are as long as the data makes them). Carried over as
#: given, as the card is; the GRPO files' header names it beside the dataset they need.
DATA_KEYS: tuple[str, ...] = ("grpo_prompt_len",)
EXPORT_KEYS: tuple[str, ...] = tuple(s.name for s in api.INPUTS if s.setup and s.name not in (
    "model", "momentum") + MACHINE_KEYS + DATA_KEYS) + ("epochs",)
#: The GRPO keys (issue 41, calculator/rl.py) a target writes or declares: TRL writes them (``trl grpo``); a target
#: without a GRPO export declares them ``LEFT_TO_DEFAULT`` and refuses the objective (``grpo``, listed in
#: ``cannot_express`` with the reason): its files and the estimate beside them are the supervised run's.
GRPO_KEYS: frozenset[str] = frozenset(s.name for s in api.INPUTS if (s.name == "grpo"
                                      or s.name.startswith(("grpo_", "vllm_"))) and s.name not in DATA_KEYS)
#: The GRPO keys that only a vLLM generator reads, and those of a colocated vLLM only (calculator/rl.py vllm_pool:
#: a server's claim is ``trl vllm-serve``'s own, on its own GPUs).
VLLM_KEYS = frozenset({"vllm_gpu_memory_utilization", "vllm_max_model_length", "vllm_enable_sleep_mode"})


def defaults_for(target: str, keys: Mapping[str, Any]) -> dict[str, Any]:
    """What a target's files give each key they leave out: the framework's default for a request like ``keys``, as
    the estimator fills it for a request naming the framework (``api.framework_defaults``: the framework's, else the
    estimator's own, for a regime the framework has no switch for). The reader fills the keys a file leaves out with
    it, and the export lists it for the keys its files never write."""
    fw = api.framework_defaults(target, {k: list(v) if isinstance(v, tuple) else v for k, v in keys.items()})
    fw.update((k, v) for k, v in frameworks.defaults(target, request=keys).items() if k in ("epochs",))
    return {key: fw[key] for key in EXPORT_KEYS}


def relevant(keys: Mapping[str, Any]) -> dict[str, Any]:
    """The keys whose value changes the estimate of this request (others are ignored by the estimator: LoRA keys of
    full fine-tuning, QLoRA keys without 4-bit, DeepSpeed keys without it, ...)."""
    out = {k: keys[k] for k in EXPORT_KEYS if k in keys}
    if keys.get("method") == "full":
        for k in LORA_KEYS:
            out.pop(k, None)
    if keys.get("method") != "qlora":
        for k in _QLORA_KEYS:
            out.pop(k, None)
    if not keys.get("dpo"):
        out.pop("precompute_ref_log_probs", None)
    if keys.get("method") == "full" or keys.get("precision") != "mixed":
        out.pop("base_fp32", None)
    if keys.get("precision") == "fp32":
        out.pop("lora_dtype", None)
    if keys.get("sharding") == "none":
        for k in ("deepspeed", "reduce_bucket_size", "frozen_param_grads", "no_sync_accumulation"):
            out.pop(k, None)
    if not keys.get("deepspeed"):
        out.pop("reduce_bucket_size", None)
    if keys.get("grad_accum_steps", 1) == 1:
        out.pop("no_sync_accumulation", None)
    if keys.get("sharding") != "zero3":
        out.pop("frozen_param_grads", None)
    if keys.get("sharding") == "none" or keys.get("deepspeed") or keys.get("fsdp_version", 1) != 2:
        out.pop("fsdp2_upcast", None)         # accelerate's FSDP2 cast (issue 19): FSDP2 only
    for k in ignored_grpo_keys(keys):
        out.pop(k, None)
    return out


def ignored_grpo_keys(keys: Mapping[str, Any]) -> tuple[str, ...]:
    """The keys the estimate ignores for the request's objective (calculator/rl.py): every GRPO key of a supervised
    run; the trained sequence of SFT (``seq_len``, ``packing``) under GRPO, whose sequence is prompt + completion;
    the vLLM keys without vLLM; a colocated engine's keys beside a server (whose claim is ``trl vllm-serve``'s)."""
    if not keys.get("grpo"):
        return tuple(sorted(GRPO_KEYS - {"grpo"}))
    out = ["seq_len", "packing"]
    generator = keys.get("grpo_generator", "transformers")
    if generator == "transformers":
        out.extend(sorted(VLLM_KEYS))
    elif generator == "vllm_server":
        out.extend(sorted(VLLM_KEYS))       # the server's own command carries its length (the files' header)
    return tuple(out)


# =====================================================================================================================
# The plan: the request as the export realises it
# =====================================================================================================================


class Plan:
    """The request's keys, adjusted by the export as it goes (each change recorded with a reason code)."""

    def __init__(self, target: str, request: Mapping[str, Any], grpo_refusal: str | None = None) -> None:
        setup, options = api.parse_request(dict(request))
        keys: dict[str, Any] = dict(api.inputs_json(setup))
        keys.pop("momentum", None)
        for key in MACHINE_KEYS + DATA_KEYS:     # the machine's and the data's, not the framework's: as given
            keys.pop(key, None)
        keys["lora_targets"] = tuple(keys["lora_targets"])
        keys["epochs"] = float(request.get("epochs", api.DEFAULTS["epochs"]))
        self.target = target
        self.framework = frameworks.get(target)
        self.model_value = request["model"]
        self.arch = setup.model
        self.gpu: str | None = options["gpu"]
        self.passthrough = {k: request[k] for k in ("gpu", "dataset_tokens", "dataset_examples",
                                                    "mean_tokens_per_example", "gpu_hour_price") + MACHINE_KEYS
                            + DATA_KEYS
                            if k in request}
        self.original = dict(keys)
        self.keys = keys
        self.cannot: list[CannotExpress] = []
        self.adjustments: list[tuple[str, Any, Any, str]] = []
        #: Keys a rule has set to what the files do (``adjust``, ``cannot_express``): ``settle`` leaves them.
        self.pinned: set[str] = set()
        if keys["grpo"] and grpo_refusal is not None:       # a target without GRPO files: the supervised run's
            self.cannot_express("grpo", False, grpo_refusal, "use_trl")
        self._canonical()

    # --- recording ---------------------------------------------------------------------------------------------
    def __getitem__(self, key: str) -> Any:
        return self.keys[key]

    def adjust(self, key: str, to: Any, reason: str) -> None:
        """The same regime written another way (no change to the estimate), or a key the estimator ignores here."""
        if reason not in ADJUST_REASONS:
            raise ValueError(f"adjustment reason {reason!r} is not in ADJUST_REASONS")
        self.pinned.add(key)
        if self.keys[key] != to:
            self.adjustments.append((key, self.keys[key], to, reason))
            self.keys[key] = to

    def cannot_express(self, key: str, becomes: Any, reason: str, what_to_do: str) -> None:
        """The target has no way to write ``key``'s value: the file gives ``becomes`` (the estimate is recomputed for
        it) and the reader is told what to do instead."""
        if reason not in CANNOT_REASONS or what_to_do not in WHAT_TO_DO:
            raise ValueError(f"cannot-express codes {reason!r}, {what_to_do!r}: not in CANNOT_REASONS / WHAT_TO_DO")
        self.pinned.add(key)
        if self.keys[key] == becomes:
            return
        asked = self.original[key]
        self.cannot = [c for c in self.cannot if c.key != key]     # a later rule restates an earlier one
        if becomes != asked:
            self.cannot.append(CannotExpress(key=key, value=asked, becomes=becomes, reason=reason,
                                             what_to_do=what_to_do))
        self.keys[key] = becomes

    def _canonical(self) -> None:
        """One spelling per regime, so that reading a file back can give exactly these keys."""
        k = self.keys
        if k["method"] != "full" and k["precision"] == "mixed" and not k["base_fp32"]:
            self.adjust("precision", "bf16", "same_regime_lora_16bit_base")
        if not self.is_mixed_lora():
            self.adjust("base_fp32", False, "ignored_by_estimate")
        if k["sharding"] == "none":
            self.adjust("deepspeed", False, "ignored_by_estimate")
            self.adjust("no_sync_accumulation", False, "ignored_by_estimate")
            self.adjust("frozen_param_grads", False, "ignored_by_estimate")
        if not k["deepspeed"]:
            self.adjust("reduce_bucket_size", api.DEFAULTS["reduce_bucket_size"], "ignored_by_estimate")
        if not k["dpo"]:
            self.adjust("precompute_ref_log_probs", False, "ignored_by_estimate")
        if k["method"] != "qlora":
            self.adjust("double_quant", api.DEFAULTS["double_quant"], "ignored_by_estimate")
            self.adjust("kbit_upcast", api.DEFAULTS["kbit_upcast"], "ignored_by_estimate")
        if k["method"] != "qlora" or self.arch.num_local_experts <= 0:
            self.adjust("quantize_experts", False, "ignored_by_estimate")
        if k["chunked_cross_entropy"] and k["fused_linear_cross_entropy"]:
            self.adjust("chunked_cross_entropy", False, "fused_replaces_chunked")
        fill = defaults_for(self.target, k)
        for key in ignored_grpo_keys(k):         # what the objective does not read: as the reader fills it
            self.adjust(key, tuple(fill[key]) if isinstance(fill[key], list) else fill[key], "ignored_by_estimate")
        if not card_bf16(self.gpu) and k["precision"] == "bf16" and k["method"] == "full":
            self.cannot_express("precision", "mixed", "card_without_bf16", "fp16_needs_fp32_master")
        if self.gpu is not None and not flash_capable(self.gpu) and k["attention"] == "flash":
            self.cannot_express("attention", "sdpa", "card_without_flash_attention", "use_sdpa")

    def settle(self, written: frozenset[str]) -> None:
        """After the target's rules: every key its files do not write (``written``) and no rule set is what the files
        run, the framework's default (the value its reader fills in: ``calculator.frameworks``, else the
        estimator's), listed in ``cannot_express`` where the request asked otherwise and the estimate counts it."""
        fill = defaults_for(self.target, self.keys)
        counted = relevant(self.keys)
        for key in EXPORT_KEYS:
            if key in written or key in self.pinned:
                continue
            becomes = fill[key]
            becomes = tuple(becomes) if isinstance(becomes, list) else becomes
            if key in counted:
                self.cannot_express(key, becomes, "files_keep_framework_default", "none")
            else:
                self.adjust(key, becomes, "ignored_by_estimate")

    # --- questions the targets ask --------------------------------------------------------------------------------
    def is_mixed_lora(self) -> bool:
        return self.keys["method"] != "full" and self.keys["precision"] == "mixed"

    def half(self) -> str:
        """The 16-bit dtype of this card: bfloat16, or float16 on a card without bf16."""
        return "bfloat16" if card_bf16(self.gpu) else "float16"

    def sharded_4bit(self) -> bool:
        return self.keys["method"] == "qlora" and self.keys["sharding"] == "zero3"

    def hf_repo(self) -> str | None:
        """The Hugging Face repository of a catalogue model (from its ``source``), else None."""
        src = self.arch.source
        prefix = "https://huggingface.co/"
        if isinstance(self.model_value, str) and src.startswith(prefix) and src.endswith("/blob/main/config.json"):
            repo = src[len(prefix):-len("/blob/main/config.json")]
            if not is_hub_id(repo):        # every id a file names as a Hub id passes the one rule
                raise InputError("unknown_model", "model", "not_a_hub_id")
            return repo
        return None

    def request(self) -> dict[str, Any]:
        """The adjusted request (what the files realise), in request form."""
        out: dict[str, Any] = {"model": self.model_value, **self.passthrough}
        for key, value in self.keys.items():
            out[key] = list(value) if isinstance(value, tuple) else value
        # The files run under the target framework: its answer names it and its version. Every key is explicit here,
        # so the framework's defaults fill nothing and the figures are those of the keys (tests/frameworks).
        out["framework"] = self.target
        return out


def hf_stack_rules(p: Plan, *, bf16_adapters: bool = False, quantizes_experts: bool = False) -> None:
    """What every transformers + PEFT + bitsandbytes + accelerate/DeepSpeed target (TRL, Axolotl, LLaMA-Factory)
    cannot write, and the closest setting it runs. ``bf16_adapters``: the target can keep LoRA adapters in bf16
    (LLaMA-Factory's ``pure_bf16``); elsewhere PEFT autocasts them to fp32. ``quantizes_experts``: the target can
    quantise fused MoE experts itself (Axolotl's ``quantize_moe_experts``); elsewhere bitsandbytes leaves them 16-bit
    (params.experts_quantized)."""
    k = p.keys
    if not quantizes_experts:
        p.cannot_express("quantize_experts", False, "bitsandbytes_skips_fused_experts", "use_axolotl_quantize_experts")
    p.cannot_express("qlora_backend", "bitsandbytes", "bitsandbytes_only", "use_bitsandbytes")
    p.cannot_express("quantize_lm_head", False, "transformers_skips_lm_head", "lm_head_stays_16bit")
    p.cannot_express("dequant_cast", False, "not_this_frameworks_regime", "none")
    if k["precision"] != "fp32" and not bf16_adapters:
        p.cannot_express("lora_dtype", "fp32", "peft_autocasts_adapters", "none")
    p.cannot_express("keeps_logits", False, "not_this_frameworks_regime", "none")
    p.cannot_express("optimizer_in_backward", False, "no_optimizer_in_backward", "use_torchtune")
    p.cannot_express("untie_embeddings", False, "transformers_keeps_ties", "none")
    if p.arch.num_local_experts > 0:              # the pinned transformers 5 fuses the routed experts (frameworks.py)
        p.cannot_express("moe_layout", "fused", "transformers_fuses_experts", "use_unsloth")
    else:
        p.adjust("moe_layout", "fused", "ignored_by_estimate")
    if k["sharding"] in ("zero1", "zero2"):        # FSDP has no ZeRO-1, and ZeRO-2 only in the deprecated FSDP1
        p.cannot_express("deepspeed", True, "fsdp_has_no_zero1_2", "deepspeed_zero")


def kbit_upcast_rule(p: Plan) -> None:
    """QLoRA: which weights that are not 4-bit the target casts to fp32 is its own code's choice, with no switch in its
    files (``kbit_upcast``; each target's value and source in calculator/frameworks.py); the file gives that."""
    if p["method"] == "qlora":
        fixed = frameworks.default(p.target, "kbit_upcast", request=p.keys)
        p.cannot_express("kbit_upcast", fixed.value if fixed else "none", "framework_sets_kbit_cast", "none")


def sharding_rules(p: Plan, *, sync_each_batch: bool) -> None:
    """FSDP2 and DeepSpeed as the HF Trainer runs them (after the target's own rules chose between them).
    ``sync_each_batch``: the target can pass accelerate's ``gradient_accumulation_kwargs`` (TRL's
    ``accelerator_config``), so FSDP can reduce-scatter every micro-batch instead of accumulating under no_sync."""
    k = p.keys
    if k["sharding"] != "none" and not k["deepspeed"]:      # the files write FSDP2 (fsdp_version: 2)
        p.cannot_express("fsdp_version", 2, "exports_write_fsdp2", "none")
        if k["optimizer"] in ("adamw_8bit", "paged_adamw_8bit", "paged_adamw_32bit"):   # api: no DTensor handling
            p.cannot_express("optimizer", "adamw_torch", "fsdp2_no_bnb_optimizer", "deepspeed_zero")
    else:
        p.adjust("fsdp_version", defaults_for(p.target, k)["fsdp_version"], "ignored_by_estimate")
    if k["sharding"] == "zero3" and not k["deepspeed"]:
        if k["cpu_offload"] or k["offload_params"]:   # FSDP's CPUOffload moves parameters, gradients and the step
            p.cannot_express("cpu_offload", True, "fsdp_offloads_together", "deepspeed_for_split_offload")
            p.cannot_express("offload_params", True, "fsdp_offloads_together", "deepspeed_for_split_offload")
        p.cannot_express("frozen_param_grads", False, "fsdp2_per_parameter", "none")
        if k["grad_accum_steps"] > 1 and not sync_each_batch:     # transformers/trainer.py: no_sync unless told
            p.cannot_express("no_sync_accumulation", True, "trainer_no_sync_default", "use_trl_sync_each_batch")
    if k["deepspeed"]:
        p.cannot_express("no_sync_accumulation", False, "deepspeed_no_no_sync", "none")
    if k["sharding"] != "none" and k["grad_accum_steps"] == 1:
        p.adjust("no_sync_accumulation", False, "ignored_by_estimate")


# =====================================================================================================================
# Headers, comments and the measuring lines
# =====================================================================================================================

#: Every comment a file carries, by code: the header's lines, the EDIT placeholders and the one-line reason beside
#: each key whose framework default differs from the estimate's value. The words are the string tables'
#: (``calc.run.comments.<code>`` in calculator/strings/<lang>.json, ``{placeholders}`` filled with the values): the
#: CLI passes the English table, the page the reader's. Without a table a comment is its code and its values.
COMMENT_CODES: tuple[str, ...] = (
    "validated", "estimate", "estimate_none", "run", "measure", "placeholders", "edit_dataset", "edit_output",
    "edit_model", "companion", "why_dtype", "why_double_quant", "why_quant_storage", "why_checkpointing",
    "why_fsdp_checkpointing", "why_optimizer", "why_attention", "why_batch", "why_seq_len", "why_packing",
    "why_dropout", "why_rank", "why_targets", "why_precision", "why_disable_dropout", "why_lora_kernels",
    "why_offload", "why_compile", "why_sync", "why_epochs", "why_fp16", "why_fused_ce", "why_precompute",
    "why_wrap", "unsloth_import_first", "custom_model", "install", "login", "data_trl_sft", "data_dpo",
    "data_unsloth_sft", "data_llamafactory", "edit_template", "edit_format", "registered", "why_lr",
    "data_grpo", "grpo_server", "why_reward",
)


#: A ``{name}`` placeholder of a comment's template: filled by name from the values, never by ``str.format`` (a
#: caller's template such as ``{0}``, ``{stack.__init__}`` or ``{command:>99999999}`` stays as written).
_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")


def render(code: str, text: Mapping[str, str] | None = None, **params: Any) -> str:
    """One comment in the table's language, as the body of one comment line (``_quote.comment``); values are shown
    as the file writes them (``true``, ``0.05``). Without a table (or without this code in it):
    ``code(name=value, ...)``."""
    if code not in COMMENT_CODES:
        raise ValueError(f"comment code {code!r} is not in COMMENT_CODES")
    shown = {k: (_yaml.scalar(v).strip('"') if isinstance(v, (bool, int, float)) or v is None else str(v))
             for k, v in params.items()}
    template = (text or {}).get(code)
    if template is None:
        used = [k for k in shown if "{" + k + "}" in _PARAMS.get(code, "")]
        return comment(code + (f"({', '.join(f'{k}={shown[k]}' for k in used)})" if used else ""))
    return comment(_PLACEHOLDER.sub(lambda m: shown.get(m.group(1), m.group(0)), template))


#: The values each comment names (a comment without a table shows these, not every value the caller passed).
_PARAMS: dict[str, str] = {
    "validated": "{stack}", "estimate": "{model} {method} {peak} {statistic} {count} {gpu}", "run": "{command}",
    "measure": "{command}", "companion": "{files}", "why_dtype": "{framework} {default} {value}",
    "why_double_quant": "{value} {default}", "why_checkpointing": "{value} {default}", "why_optimizer": "{default}",
    "why_attention": "{default}", "why_batch": "{default}", "why_seq_len": "{default}", "why_packing": "{default}",
    "why_dropout": "{default}", "why_rank": "{default}", "why_targets": "{default}",
    "why_precision": "{value} {default}", "why_epochs": "{default}", "custom_model": "{params}",
    "install": "{command}", "login": "{repo}", "data_llamafactory": "{file} {name}", "registered": "{file}",
    "why_lr": "{framework}", "data_grpo": "{prompt_len} {file}", "grpo_server": "{command}", "why_reward": "{file}",
}


#: The summary's values the header's estimate line names (a caller's other keys are not passed on).
_SUMMARY_KEYS = frozenset(_PLACEHOLDER.findall(_PARAMS["estimate"]))


def summary_of(plan: Plan) -> dict[str, Any] | None:
    """The estimate the files belong to, for their header: model, method, peak per GPU with its statistic, card and
    count. Computed with ``api.answer`` for the adjusted request."""
    req = plan.request()
    req["include"] = []
    answer = api.answer(req)
    if not answer.get("ok"):
        return None
    r = answer["result"]
    method = plan["method"] + ("+dpo" if plan["dpo"] else "")
    gpu = GPUS[plan.gpu].name if plan.gpu else "-"
    return {"model": plan.arch.name, "method": method, "peak": f"{r['peak_gb']} GB",
            "statistic": "peak_bytes_per_gpu", "count": plan["num_gpus"], "gpu": gpu,
            "allocated_bytes": r["allocated_bytes"], "reserved_bytes": r["reserved_bytes"],
            "peak_bytes_per_gpu": r["peak_bytes_per_gpu"]}


#: Optimizers that come from bitsandbytes (transformers ``optim`` names ``*_bnb_*``/``paged_*``): the install needs it.
_BNB_OPTIMIZERS = frozenset({"adamw_8bit", "paged_adamw_8bit", "paged_adamw_32bit"})
#: Packages of a stack installed only when the files use them (``install_command``).
_WHEN_USED = ("deepspeed", "bitsandbytes")


def install_command(plan: Plan, extra: tuple[str, ...] = ()) -> str:
    """The pip line for these files: every package of the framework's validated stack (``calculator.frameworks``,
    pinned to its version), DeepSpeed only when the files run ZeRO and bitsandbytes only for 4-bit weights or an
    8-bit optimizer. ``extra``: what the files need beyond the stack (a bitsandbytes the stack does not pin, Liger),
    unpinned; FlashAttention 2 is its own line, as flash-attn's README installs it (``--no-build-isolation``)."""
    k = plan.keys
    used = {"deepspeed": bool(k["deepspeed"]),
            "bitsandbytes": k["method"] == "qlora" or k["optimizer"] in _BNB_OPTIMIZERS}
    stack = plan.framework.stack
    pins = [f"{p}=={v}" for p, v in stack.items() if p not in _WHEN_USED or used[p]]
    more = [p for p in extra if p not in stack]
    if used["bitsandbytes"] and "bitsandbytes" not in stack and plan.target != "unsloth":   # Unsloth requires it
        more.append("bitsandbytes")
    command = "pip install " + " ".join(pins + more)
    if k["attention"] == "flash":
        command += " && pip install flash-attn --no-build-isolation"
    return command


def learning_rate(plan: Plan) -> float:
    """The learning rate the target's framework recommends for this method and trainer (``frameworks.recommended``,
    each value with its source there): every export writes it."""
    return float(frameworks.recommended(plan.target, "learning_rate", plan.keys).value)


def header(plan: Plan, summary: Mapping[str, Any] | None, run: str, measure: str | None,
           text: Mapping[str, str] | None, companions: list[str] = (), *, steps: tuple[str, ...] = (),
           extra: tuple[str, ...] = ()) -> list[str]:
    """The comment lines a file begins with: the versions, the estimate, what to do before the run (the install,
    the Hub login for a gated model, the target's data ``steps``, already rendered), the commands. The summary's
    values come from outside the project (a pasted config's name, a caller's summary): each stands in the comment
    only when ``_quote.name_ok`` holds for it; a model name that does not is said as the project's neutral words (a
    custom model and its parameter count), any other value as ``-``."""
    stack = ", ".join(f"{p} {v}" for p, v in plan.framework.stack.items())
    lines = [render("validated", text, stack=stack)]
    if summary:
        shown = {k: v if isinstance(v, (bool, int, float)) or v is None or name_ok(v) else "-"
                 for k, v in summary.items() if k in _SUMMARY_KEYS}
        if not name_ok(summary.get("model")):
            shown["model"] = render("custom_model", text, params=count_params(plan.arch).total)
        lines.append(render("estimate", text, **shown))
    else:
        lines.append(render("estimate_none", text))
    lines.append(render("install", text, command=install_command(plan, extra)))
    repo = plan.hf_repo()
    if repo is not None and plan.arch.id in GATED:
        lines.append(render("login", text, repo=repo))
    lines.extend(steps)
    lines.append(render("placeholders", text))
    lines.append(render("run", text, command=run))
    if measure:
        lines.append(render("measure", text, command=measure))
    if companions:
        lines.append(render("companion", text, files=", ".join(companions)))
    return ["# " + line for line in lines]


#: The measuring file every export carries (same names as the estimator's result).
MEASURE_FILE = "measure.py"

MEASURE_PY = '''"""Peak GPU memory of a run, under the estimator's names: allocated_bytes (torch.cuda.max_memory_allocated),
reserved_bytes (torch.cuda.max_memory_reserved) and peak_bytes_per_gpu (the device's used memory, as nvidia-smi
shows it, after the first steps). Runs a framework's training module with a callback added to every Trainer:

    python measure.py MODULE ARGS...        e.g. python measure.py trl.scripts.sft --config run.yaml
    accelerate launch --config_file accelerate.yaml measure.py MODULE ARGS...
"""
import json
import os
import runpy
import sys

import torch
import transformers

MEASURE_AT_STEP = 3


class MeasureMemory(transformers.TrainerCallback):
    done = False

    def on_step_end(self, args, state, control, **kwargs):
        if state.global_step == MEASURE_AT_STEP:
            self.report(state)

    def on_train_end(self, args, state, control, **kwargs):
        if not self.done:            # a run shorter than MEASURE_AT_STEP steps
            self.report(state)

    def report(self, state):
        self.done = True
        row = {"step": state.global_step, "rank": int(os.environ.get("RANK", "0"))}
        if torch.cuda.is_available():
            free, total = torch.cuda.mem_get_info()
            row.update(allocated_bytes=torch.cuda.max_memory_allocated(),
                       reserved_bytes=torch.cuda.max_memory_reserved(), peak_bytes_per_gpu=total - free)
        else:
            row.update(allocated_bytes=None, reserved_bytes=None, peak_bytes_per_gpu=None)
        print("measure " + json.dumps(row), flush=True)


_init = transformers.Trainer.__init__


def _with_measure(self, *args, **kwargs):
    _init(self, *args, **kwargs)
    self.add_callback(MeasureMemory())


transformers.Trainer.__init__ = _with_measure

if __name__ == "__main__":
    module, sys.argv = sys.argv[1], [sys.argv[1]] + sys.argv[2:]
    runpy.run_module(module, run_name="__main__", alter_sys=True)
'''


# =====================================================================================================================
# Optimizer names (transformers OptimizerNames) and module lists
# =====================================================================================================================

#: The estimate's optimizer -> transformers ``optim`` (and ``optim_args``), 5.x ``OptimizerNames``.
HF_OPTIM: dict[str, tuple[str, str | None]] = {
    "adamw_torch": ("adamw_torch", None), "adamw_torch_fused": ("adamw_torch_fused", None),
    "adamw_8bit": ("adamw_bnb_8bit", None), "paged_adamw_8bit": ("paged_adamw_8bit", None),
    "paged_adamw_32bit": ("paged_adamw_32bit", None), "adafactor": ("adafactor", None), "sgd": ("sgd", None),
    "sgd_momentum": ("sgd", "momentum=0.9"),
}
#: transformers ``optim`` -> the estimate's optimizer (aliases included).
FROM_HF_OPTIM: dict[str, str] = {"adamw_torch": "adamw_torch", "adamw_torch_fused": "adamw_torch_fused",
                                 "adamw_bnb_8bit": "adamw_8bit", "adamw_8bit": "adamw_8bit",
                                 "paged_adamw_8bit": "paged_adamw_8bit", "paged_adamw_32bit": "paged_adamw_32bit",
                                 "adafactor": "adafactor", "sgd": "sgd"}


def optimizer_from(name: Any, optim_args: Any) -> str | None:
    if not isinstance(name, str) or name not in FROM_HF_OPTIM:
        return None
    opt = FROM_HF_OPTIM[name]
    if opt == "sgd" and isinstance(optim_args, str):
        args = dict(p.split("=", 1) for p in optim_args.replace(" ", "").split(",") if "=" in p)
        try:
            if float(args.get("momentum", "0")) > 0:
                return "sgd_momentum"
        except ValueError:
            return None
    return opt


def targets_list(targets: tuple[str, ...]) -> str | list[str]:
    """PEFT ``target_modules``: ``all-linear`` for the seven decoder linears, else the list."""
    return "all-linear" if tuple(targets) == ALL_LINEAR else list(targets)


def targets_from(value: Any) -> tuple[str, ...] | None:
    """PEFT ``target_modules`` (a list, ``all-linear``, or one name) -> the estimate's names, None if unknown."""
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or not items:
        return None
    names: set[str] = set()
    for item in items:
        if item in ("all-linear", "all"):
            names.update(ALL_LINEAR)
        elif isinstance(item, str) and item in LORA_MODULES:
            names.add(item)
        else:
            return None
    return tuple(m for m in LORA_MODULES if m in names)


# =====================================================================================================================
# Reading: the state a reader builds, companions shared by several targets
# =====================================================================================================================


class ReadState:
    """What a reader collects: request keys, unread keys, errors. ``take`` marks a file key as read."""

    def __init__(self, target: str) -> None:
        self.target = target
        self.keys: dict[str, Any] = {}
        self.unread: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []
        self._seen: dict[str, set[str]] = {}
        self.model: Any = None
        self.main = ""                  # the training file's name (main_file)
        self.gpus_given = False         # a file said the process count (an accelerate config)

    def error(self, code: str, file: str, field_: str | None) -> None:
        self.errors.append({"code": code, "file": file, "field": field_})

    def unread_key(self, file: str, key: str, value: Any, code: str = "not_read") -> None:
        """A key the estimate does not follow, with its value when that is a finite scalar (the answer is strict
        JSON: an ``.inf``/``.nan`` or a nested value is listed as None)."""
        if code not in UNREAD_CODES:
            raise ValueError(f"unread code {code!r} is not in UNREAD_CODES")
        self.unread.append({"file": file, "key": key, "value": value if _scalar_like(value) else None, "code": code})

    def take(self, file: str, cfg: Mapping[str, Any], key: str) -> Any:
        self._seen.setdefault(file, set()).add(key)
        return cfg.get(key)

    def note_unmodelled(self, file: str, cfg: Mapping[str, Any], keys: Mapping[str, str], prefix: str = "",
                        code: str = "not_modelled") -> None:
        """Each of ``keys`` (a reader's table: file key -> what it changes in memory) that the file sets is noted as
        ``code``: ``not_modelled``, it moves memory in a way the estimate does not follow (``deprecated``: a key the
        pinned version refuses). A key is set when its value is truthy, and a size (an int that is not a bool) only
        when it is above 1 (a parallel degree of 1 is none)."""
        for key in keys:
            value = cfg.get(key)
            if isinstance(value, int) and not isinstance(value, bool):
                on = value > 1
            else:
                on = value not in (None, False, "", "none", "None", [], {})
            self._seen.setdefault(file, set()).add(prefix + key)
            if on:
                self.unread_key(file, prefix + key, value, code)

    def finish_unread(self, file: str, cfg: Mapping[str, Any], prefix: str = "") -> None:
        seen = self._seen.get(file, set())
        for key, value in cfg.items():
            if prefix + str(key) not in seen:
                self.unread_key(file, prefix + str(key), value)

    def typed(self, file: str, key: str, value: Any, kind: type | tuple[type, ...]) -> Any:
        """``value`` of the given type, as the framework's typed parser reads it (``"2e-4"`` is a float for a float
        field); None after recording ``wrong_type`` when it cannot be (``out_of_range`` for a non-finite float)."""
        if value is None:
            return None
        if kind is bool:
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in ("true", "false"):
                return value.lower() == "true"
        elif kind is int:
            if isinstance(value, int) and not isinstance(value, bool):
                return value
            if isinstance(value, str):
                try:
                    return int(value)
                except ValueError:
                    pass
        elif kind is float:
            number = None
            if isinstance(value, (int, float, str)) and not isinstance(value, bool):
                try:
                    number = float(value)
                except ValueError:
                    pass
                except OverflowError:           # an integer beyond any float
                    number = math.inf
            if number is not None:
                if math.isfinite(number):
                    return number
                self.error("out_of_range", file, key)        # .inf / .nan: no answer carries a non-finite number
                return None
        elif isinstance(value, kind):
            return value
        self.error("wrong_type", file, key)
        return None

    def mapping(self, file: str, key: str, value: Any) -> Mapping[str, Any]:
        """A section of a file (``fsdp_config``, ``bf16``, ``zero_optimization.offload_optimizer``…): the mapping
        itself, ``{}`` when absent or null, else ``{}`` after recording ``wrong_type`` naming the file and the key."""
        if value is None:
            return {}
        if isinstance(value, dict):
            return value
        self.error("wrong_type", file, key)
        return {}

    def name(self, file: str, key: str, value: Any) -> str | None:
        """A setting whose value is one of a framework's names (``attn_implementation``, ``flash_attn``…): the
        string, None when absent, else None after recording ``wrong_type`` (a list or a mapping is no name)."""
        if value is None or isinstance(value, str):
            return value
        self.error("wrong_type", file, key)
        return None

    def set(self, key: str, value: Any) -> None:
        if value is not None:
            self.keys[key] = value

    def main_file(self, cfgs: Mapping[str, Mapping[str, Any]],
                  kinds: Mapping[str, str]) -> tuple[str, Mapping[str, Any]] | None:
        """The one training file among the pasted ones (companions aside); None after an error otherwise."""
        main = [n for n in cfgs if kinds[n] == self.target]
        if len(main) != 1:
            self.error("missing_field" if not main else "contradiction", main[1] if main else "", "config")
            return None
        self.main = main[0]
        return main[0], cfgs[main[0]]

    def read_model(self, file: str, cfg: Mapping[str, Any], key: str) -> None:
        """The catalogue model a file's Hub id names; an id the catalogue lacks is listed (``unknown_model``), and a
        checkpoint quantised ahead of time (AWQ, GPTQ…: its weights load in 4 or 8 bits whatever the file says) is
        noted as ``not_modelled``."""
        repo = self.take(file, cfg, key)
        self.model = model_from_repo(repo)
        if self.model is None and repo is not None:
            self.unread_key(file, key, repo, "unknown_model")
        if prequantized(repo):
            self.unread_key(file, key, repo, "not_modelled")


def _scalar_like(v: Any) -> bool:
    """A value an answer may carry as it is: None, a bool, an int, a finite float or a string."""
    if isinstance(v, float):
        return math.isfinite(v)
    return v is None or isinstance(v, (bool, int, str))


def prequantized(repo: Any) -> bool:
    """Whether a Hub id names an AWQ/GPTQ/… checkpoint (``TechxGenus/Meta-Llama-3-8B-Instruct-AWQ``)."""
    return isinstance(repo, str) and bool(name_words(repo) & PREQUANTIZED_FORMATS)


def model_from_repo(repo: Any) -> str | None:
    """The catalogue id a file's Hugging Face id names, as every model id is read (``catalog.resolve``: the entry's
    repository, an alias or derivative, the same with a weight-format suffix, a name without its owner that only one
    entry carries), else None (unknown or ambiguous)."""
    if not isinstance(repo, str):
        return None
    found = resolve(repo)
    return found.model or None if found is not None else None


#: An import at the start of a line: every Python script that uses FastLanguageModel has one, and no YAML mapping
#: can hold one (a line that starts at the first column is a key, a comment or a document marker in YAML; the text
#: of a block scalar or a multi-line value is indented).
_IMPORT_LINE = re.compile(r"^(?:import|from[ \t]+[\w.]+[ \t]+import)[ \t(]", re.M)


def is_script(name: str, text: str) -> bool:
    """Whether a pasted file is an Unsloth script (read with ``ast``): a ``.py`` file, or a text that uses
    FastLanguageModel and has an import at the start of a line. A YAML config that only mentions FastLanguageModel,
    in a comment or a value, stays YAML."""
    return name.endswith(".py") or ("FastLanguageModel" in text and _IMPORT_LINE.search(text) is not None)


def parse_texts(files: Mapping[str, str], state: ReadState) -> dict[str, dict[str, Any]]:
    """Each pasted file parsed: a script (``is_script``) kept for the Unsloth reader, JSON for ``*.json`` (and text
    starting with ``{``), YAML otherwise; every one within the limits of a pasted request (``api.read_json``'s size
    and depth; ``_yaml.load`` the same for YAML; ``_yaml.nesting`` for a script, whose parser recurses per level
    too)."""
    out: dict[str, dict[str, Any]] = {}
    for name, text in files.items():
        if not isinstance(text, str):
            state.error("wrong_type", name, None)
            continue
        if len(text) > api.MAX_INPUT_CHARS:
            state.error("too_large", name, None)
            continue
        if is_script(name, text):
            if _yaml.nesting(text, python=True, limit=api.MAX_DEPTH) > api.MAX_DEPTH:
                state.error("too_large", name, None)
                continue
            out[name] = {"__python__": text}        # a script: read with ast by the Unsloth reader
            continue
        if name.endswith(".json") or text.lstrip().startswith("{"):
            try:
                data = api.read_json(text, name)
            except InputError as err:
                state.error(err.code, name, None)
                continue
            if not isinstance(data, dict):
                state.error("not_an_object", name, None)
                continue
        else:
            try:
                data = _yaml.load(text)
            except _yaml.YamlError as exc:
                state.error(exc.code, name, None if exc.line is None else f"line {exc.line}")
                continue
        out[name] = data
    return out


#: Keys that say which framework's training file a mapping is, each key only under the framework whose own
#: parser defines it (LLaMA-Factory's ``model_name_or_path`` is TRL's too, so it counts for TRL alone).
_SIGNS: dict[str, frozenset[str]] = {
    "axolotl": frozenset({"base_model", "base_model_config", "micro_batch_size", "sequence_len", "adapter", "datasets",
                          "num_epochs", "lora_target_linear", "sample_packing", "flash_attention", "rl", "rl_beta",
                          "optimizer", "val_set_size", "special_tokens", "tokenizer_type", "wandb_project",
                          "bnb_config_kwargs", "fsdp", "unfrozen_parameters", "pad_to_sequence_len", "plugins",
                          "chat_template", "eval_sample_packing", "peft_use_dora", "peft_use_rslora"}),
    "llamafactory": frozenset({"stage", "finetuning_type", "cutoff_len", "template", "dataset", "lora_target",
                               "quantization_bit", "quantization_method", "flash_attn", "do_train", "pref_beta",
                               "pref_loss", "disable_gradient_checkpointing", "dataset_dir", "overwrite_cache",
                               "preprocessing_num_workers", "val_size", "pure_bf16", "infer_dtype", "enable_liger_kernel",
                               "plot_loss", "overwrite_output_dir", "double_quantization", "use_galore"}),
    "trl": frozenset({"model_name_or_path", "dataset_name", "use_peft", "lora_target_modules", "max_length", "dtype",
                      "activation_checkpointing", "use_bnb_nested_quant", "load_in_4bit", "bnb_4bit_quant_type",
                      "per_device_train_batch_size", "num_train_epochs", "lora_r", "lora_alpha", "packing", "beta",
                      "loss_type", "precompute_ref_log_probs", "dataset_text_field", "attn_implementation",
                      "num_generations", "reward_funcs", "use_liger_kernel", "disable_dropout"}),
    # LLaMA-Factory's v1 format (examples/v1 on its main branch): sections the 0.9.5 parser has no field for
    "llamafactory_v1": frozenset({"model_class", "peft_config", "dist_config", "kernel_config", "train_dataset",
                                  "sample_backend", "quant_config"}),
}
#: Words of a file name that break a tie between frameworks (the page names every paste ``config.yaml``).
_NAME_HINTS = {"axolotl": "axolotl", "llamafactory": "llamafactory", "llama_factory": "llamafactory",
               "lf": "llamafactory", "trl": "trl", "sft": "trl", "dpo": "trl", "unsloth": "unsloth"}


def name_words(name: str) -> set[str]:
    """The lower-case words of a file name (``examples/qwen3_lora_dpo.yaml`` -> qwen3, lora, dpo, yaml)."""
    word, words = "", set()
    for ch in name.lower() + " ":
        if ch.isalnum():
            word += ch
        elif word:
            words.add(word)
            word = ""
    return words


#: The keys of a LLaMA-Factory ``dataset_info.json`` entry that say where its data is (``llamafactory/data/parser.py
#: get_dataset_list``): a file whose every entry has one is that registry (the LLaMA-Factory export writes one).
_DATASET_SOURCES = frozenset({"hf_hub_url", "ms_hub_url", "om_hub_url", "script_url", "cloud_file_name",
                              "file_name"})


def kind_of(cfg: Mapping[str, Any], name: str = "") -> str:
    """What a parsed file is, from its keys and structure: ``deepspeed``, ``accelerate``, ``dataset_info`` (a
    LLaMA-Factory dataset registry: no bearing on memory), ``unsloth``, ``axolotl``, ``llamafactory``, ``trl``,
    ``llamafactory_v1`` (recognised, not read), or ``unknown``. The file name only breaks
    a tie between frameworks whose keys fit equally."""
    if "__python__" in cfg:
        return "unsloth"
    if "zero_optimization" in cfg or "train_micro_batch_size_per_gpu" in cfg:
        return "deepspeed"
    if "distributed_type" in cfg or "compute_environment" in cfg:
        return "accelerate"
    if isinstance(cfg.get("training"), dict) or isinstance(cfg.get("lora"), dict):
        return "unsloth"
    if cfg and all(isinstance(v, dict) and _DATASET_SOURCES & set(v) for v in cfg.values()):
        return "dataset_info"
    keys = {k for k in cfg if isinstance(k, str)}
    if len(keys & _SIGNS["llamafactory_v1"]) >= 2:
        return "llamafactory_v1"
    scores = {kind: len(keys & signs) for kind, signs in _SIGNS.items() if kind != "llamafactory_v1"}
    best = max(scores.values())
    top = [kind for kind, n in scores.items() if n == best]
    if best == 0:
        return "unknown"
    if len(top) == 1:
        return top[0]
    hinted = {_NAME_HINTS[w] for w in name_words(name) if w in _NAME_HINTS} & set(top)
    return hinted.pop() if len(hinted) == 1 else "unknown"


def _ds_int(state: ReadState, name: str, key: str, value: Any) -> int | None:
    """An integer of a DeepSpeed config as DeepSpeed's pydantic config takes it: ``5e8`` (a JSON float with no
    fraction, as LLaMA-Factory's own configs write it) is the integer 500000000."""
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    return state.typed(name, key, value, int)


def read_deepspeed(state: ReadState, name: str, ds: Mapping[str, Any], batch: Mapping[str, Any],
                   hidden_size: int | None) -> None:
    """A DeepSpeed JSON: ZeRO stage, offload, the gradient bucket; its batch keys checked against the YAML's."""
    zero = state.mapping(name, "zero_optimization", ds.get("zero_optimization"))
    stage = _ds_int(state, name, "zero_optimization.stage", zero.get("stage", 0))
    if stage is not None:
        if stage not in (0, 1, 2, 3):
            state.error("unknown_value", name, "zero_optimization.stage")
        else:
            state.set("sharding", ("none", "zero1", "zero2", "zero3")[stage])
    state.set("deepspeed", True)
    devices = {}
    for key in ("offload_optimizer", "offload_param"):
        dev = state.mapping(name, f"zero_optimization.{key}", zero.get(key)).get("device", "none")
        if dev not in ("none", "cpu", "nvme", None):
            state.error("unknown_value", name, f"zero_optimization.{key}.device")
        if dev == "nvme":
            state.error("not_modelled", name, f"zero_optimization.{key}.device")
        devices[key] = dev
    state.set("cpu_offload", devices["offload_optimizer"] == "cpu")
    state.set("offload_params", devices["offload_param"] == "cpu")
    bucket = zero.get("reduce_bucket_size", 500_000_000)
    if bucket == "auto":
        if hidden_size is not None:
            state.set("reduce_bucket_size", hidden_size * hidden_size)
    else:
        state.set("reduce_bucket_size", _ds_int(state, name, "zero_optimization.reduce_bucket_size", bucket))
    for ds_key, yaml_key in (("train_micro_batch_size_per_gpu", "micro_batch"),
                             ("gradient_accumulation_steps", "accum")):
        v = ds.get(ds_key, "auto")
        if v != "auto" and batch.get(yaml_key) is not None and v != batch[yaml_key]:
            state.error("contradiction", name, ds_key)
    bf16_section = state.mapping(name, "bf16", ds.get("bf16"))
    bf16 = bf16_section.get("enabled", "auto")
    if bf16 not in ("auto", None) and batch.get("bf16") is not None and bool(bf16) != bool(batch["bf16"]):
        state.error("contradiction", name, "bf16.enabled")
    if bf16_section.get("bf16_master_weights_and_grads") or bf16_section.get("bf16_optimizer_states"):
        state.unread_key(name, "bf16.bf16_master_weights_and_grads", True, "not_modelled")


def fsdp_key(fsdp: Mapping[str, Any], key: str, default: Any = None) -> Any:
    """An FSDP setting under either spelling a framework takes: ``fsdp_<key>`` (accelerate's, and Axolotl's
    deprecated one) or ``<key>`` (Axolotl 0.21's)."""
    if f"fsdp_{key}" in fsdp:
        return fsdp[f"fsdp_{key}"]
    return fsdp.get(key, default)


def read_trainer_fsdp(state: ReadState, name: str, fsdp: Any, fsdp_config: Any, *, default_version: int,
                      config_offload: bool) -> None:
    """FSDP set in the training file itself (transformers' ``TrainingArguments.fsdp``: ``true``, or the deprecated
    string/list of options ``full_shard shard_grad_op no_shard hybrid_shard offload auto_wrap``; ``fsdp_config``
    with or without the ``fsdp_`` prefix). ``default_version``: the pinned transformers' FSDP when ``version`` is
    left out (5.24: 2; 5.6: 1); ``config_offload``: it also reads ``fsdp_config.cpu_offload`` (5.24)."""
    if fsdp in (None, False, "", []):
        return
    items = fsdp.split() if isinstance(fsdp, str) else [str(x) for x in fsdp] if isinstance(fsdp, list) else []
    if not isinstance(fsdp, (bool, str, list)):
        state.error("wrong_type", name, "fsdp")
        return
    cfg = state.mapping(name, "fsdp_config", fsdp_config)
    version = state.typed(name, "fsdp_config.version", fsdp_key(cfg, "version", default_version), int)
    if version not in (1, 2, None):
        state.error("unknown_value", name, "fsdp_config.version")
    strategy = next((i for i in items if i in ("full_shard", "shard_grad_op", "no_shard", "hybrid_shard",
                                                "hybrid_shard_zero2")), "full_shard")
    reshard = fsdp_key(cfg, "reshard_after_forward", strategy if version == 1 else strategy != "shard_grad_op")
    if version == 1:
        state.set("sharding", {"full_shard": "zero3", "shard_grad_op": "zero2", "no_shard": "none",
                               "hybrid_shard": "zero3", "hybrid_shard_zero2": "zero2"}.get(str(reshard).lower(),
                                                                                           "zero3"))
    else:
        state.set("sharding", "zero3" if str(reshard).lower() in ("true", "1", "yes") else "zero2")
    offload = "offload" in items or (config_offload and state.typed(
        name, "fsdp_config.cpu_offload", fsdp_key(cfg, "cpu_offload"), bool) is True)
    state.set("fsdp_version", version)
    state.set("deepspeed", False)
    state.set("cpu_offload", offload)
    state.set("offload_params", offload)
    if state.typed(name, "fsdp_config.activation_checkpointing", fsdp_key(cfg, "activation_checkpointing"),
                   bool) is True:
        state.keys["fsdp_activation_checkpointing"] = True
    state.set("cpu_ram_efficient_loading", state.typed(name, "fsdp_config.cpu_ram_efficient_loading",
                                                       fsdp_key(cfg, "cpu_ram_efficient_loading"), bool))


def read_accelerate(state: ReadState, name: str, acc: Mapping[str, Any], amp: str | None) -> None:
    """An accelerate config: processes, the distributed type (DDP, FSDP1/FSDP2, DeepSpeed), FSDP's offload and
    checkpointing; its mixed precision checked against the training file's (``amp``: ``bf16``/``fp16``/``no``)."""
    procs = state.typed(name, "num_processes", acc.get("num_processes", 1), int)
    state.gpus_given = state.gpus_given or "num_processes" in acc
    if procs is not None:
        if procs < 1:
            state.error("out_of_range", name, "num_processes")
        else:
            state.set("num_gpus", procs)
    dist = acc.get("distributed_type", "NO")
    # accelerate's ParallelismConfig: tensor, context and sequence parallel groups and replicated shard groups split
    # weights, activations or states in ways the estimate does not follow (a shard group of all the processes is
    # the FSDP/ZeRO sharding read below)
    parallel = state.mapping(name, "parallelism_config", acc.get("parallelism_config"))
    for key, value in parallel.items():
        size = value if isinstance(value, int) and not isinstance(value, bool) else 1
        if str(key).endswith("_size") and size > 1 and not (str(key).endswith("dp_shard_size") and size == procs):
            state.unread_key(name, f"parallelism_config.{key}", value, "not_modelled")
    mp = acc.get("mixed_precision")
    if mp is not None and amp is not None and mp != amp:
        state.error("contradiction", name, "mixed_precision")
    if dist == "FSDP":
        fsdp = state.mapping(name, "fsdp_config", acc.get("fsdp_config"))
        version = state.typed(name, "fsdp_config.fsdp_version", fsdp_key(fsdp, "version", 1), int)
        if version not in (1, 2, None):
            state.error("unknown_value", name, "fsdp_config.fsdp_version")
        state.set("fsdp_version", version)
        reshard = fsdp_key(fsdp, "reshard_after_forward")
        if version == 2:
            state.set("sharding", "zero3" if reshard in (True, "true", None) else "zero2")
        else:      # FSDP1: the strategy, under its current name or the deprecated one
            strategy = fsdp_key(fsdp, "sharding_strategy", "FULL_SHARD" if reshard is None else reshard)
            state.set("sharding", {"FULL_SHARD": "zero3", "SHARD_GRAD_OP": "zero2", "NO_SHARD": "none", 1: "zero3",
                                   2: "zero2", 3: "none", True: "zero3", False: "zero2"}.get(
                                       strategy if isinstance(strategy, (str, int)) else "", "zero3"))
        offload = state.typed(name, "fsdp_config.fsdp_offload_params", fsdp_key(fsdp, "offload_params"), bool)
        state.set("cpu_offload", offload is True)
        state.set("offload_params", offload is True)
        if state.typed(name, "fsdp_config.fsdp_activation_checkpointing",
                       fsdp_key(fsdp, "activation_checkpointing"), bool) is True:
            state.keys["fsdp_activation_checkpointing"] = True
        state.set("cpu_ram_efficient_loading", state.typed(name, "fsdp_config.fsdp_cpu_ram_efficient_loading",
                                                           fsdp_key(fsdp, "cpu_ram_efficient_loading"), bool))
        state.set("deepspeed", False)
    elif dist == "DEEPSPEED":
        state.set("deepspeed", True)
        inline = state.mapping(name, "deepspeed_config", acc.get("deepspeed_config"))
        if "zero_stage" in inline:
            stage = inline["zero_stage"]
            if stage in (0, 1, 2, 3) and not isinstance(stage, bool):
                state.set("sharding", ("none", "zero1", "zero2", "zero3")[stage])
            else:
                state.error("unknown_value", name, "deepspeed_config.zero_stage")
            state.set("cpu_offload", inline.get("offload_optimizer_device", "none") == "cpu")
            state.set("offload_params", inline.get("offload_param_device", "none") == "cpu")
    elif dist in ("MULTI_GPU", "NO"):
        state.set("sharding", "none")
    else:
        state.error("unknown_value", name, "distributed_type")


def accelerate_yaml(plan: Plan, ds_file: str | None, header_lines: list[str],
                    text: Mapping[str, str] | None = None) -> str:
    """An accelerate config for the plan: DDP, FSDP2 (``sharding`` zero3, or zero2 as ``reshard_after_forward:
    false``) or DeepSpeed with its JSON. Checkpointing under FSDP is FSDP's own (the caller turns the trainer's off)."""
    k = plan.keys
    amp = "bf16" if plan.half() == "bfloat16" else "fp16"
    if k["precision"] == "fp32":
        amp = "no"
    items: list[tuple[str, Any, str | None]] = [
        ("compute_environment", "LOCAL_MACHINE", None),
        ("distributed_type", "MULTI_GPU" if k["sharding"] == "none" else "DEEPSPEED" if k["deepspeed"] else "FSDP",
         None),
    ]
    if not k["deepspeed"]:
        # With a DeepSpeed JSON, accelerate refuses a mixed_precision key beside it (DeepSpeedPlugin's
        # _deepspeed_config_checks, in every rank): the precision is the trainer's bf16/fp16, filled into the JSON's
        # "auto" by the HF integration.
        items.append(("mixed_precision", amp, None))
    items += [
        ("num_machines", 1, None),
        ("num_processes", k["num_gpus"], None),
        ("machine_rank", 0, None),
        ("rdzv_backend", "static", None),
        ("same_network", True, None),
        ("use_cpu", False, None),
    ]
    if k["sharding"] != "none" and not k["deepspeed"]:
        items.append(("fsdp_config", [
            ("fsdp_version", 2, None),
            ("fsdp_auto_wrap_policy", "TRANSFORMER_BASED_WRAP", render("why_wrap", text)),
            ("fsdp_reshard_after_forward", k["sharding"] == "zero3", None),
            ("fsdp_offload_params", k["cpu_offload"], None),
            ("fsdp_activation_checkpointing", k["gradient_checkpointing"], render("why_fsdp_checkpointing", text)
             if k["gradient_checkpointing"] else None),
            ("fsdp_cpu_ram_efficient_loading", k["cpu_ram_efficient_loading"], None),
            ("fsdp_state_dict_type", "SHARDED_STATE_DICT", None),
        ], None))
    elif k["deepspeed"]:
        items.append(("deepspeed_config", [
            ("deepspeed_config_file", ds_file, None),
            ("zero3_init_flag", k["sharding"] == "zero3", None),
        ], None))
    return "\n".join(header_lines + _yaml.dump(items)) + "\n"


def deepspeed_json(plan: Plan) -> str:
    """A DeepSpeed config (no comments: accelerate reads it with json.load); ``auto`` where the HF integration fills
    the trainer's own values."""
    k = plan.keys
    stage = {"zero1": 1, "zero2": 2, "zero3": 3}[k["sharding"]]
    zero: dict[str, Any] = {"stage": stage}
    zero["offload_optimizer"] = {"device": "cpu" if k["cpu_offload"] else "none", "pin_memory": True}
    if stage == 3:
        zero["offload_param"] = {"device": "cpu" if k["offload_params"] else "none", "pin_memory": True}
    zero.update({"overlap_comm": stage == 3, "contiguous_gradients": True,
                 "reduce_bucket_size": k["reduce_bucket_size"]})
    if stage == 3:
        zero.update({"stage3_prefetch_bucket_size": "auto", "stage3_param_persistence_threshold": "auto",
                     "stage3_gather_16bit_weights_on_model_save": True})
    half = "bf16" if plan.half() == "bfloat16" else "fp16"
    cfg: dict[str, Any] = {
        half: {"enabled": "auto"},
        "train_micro_batch_size_per_gpu": "auto",
        "gradient_accumulation_steps": "auto",
        "gradient_clipping": "auto",
        "zero_optimization": zero,
    }
    return json.dumps(cfg, indent=2) + "\n"

