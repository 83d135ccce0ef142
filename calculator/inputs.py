"""Every request key of the estimator, declared once.

One ``InputSpec`` per key: its kind, default, limits or choices, unit, whether the estimator form shows it (and
where), and what it means. Everything else is derived from this table: request parsing and validation
(``api.parse_request`` is a loop over it plus the few rules that span several keys), ``api.schema()``, the CLI flags
(``__main__``), the estimator form and its range hints (``page.form``), and the key table of ESTIMATOR.md (checked
against ``markdown_table()`` by tests/unit/test_inputs.py), and what the API checks of a setup beyond what the
setup checks itself (``check_setup``: an enum key's choices, the model as a pasted config would be read). A key that
is a ``TrainingSetup`` field states neither its default nor its lowest value here: their one home is the field's
(``models.at_least``), which the spec reads (the default in request form, ``ValueKind.request_value``). The kinds
of value are made here (``VALUE_KINDS``), the two that look a value up with the catalogue and the config reader.

A new input is one entry here, its ``TrainingSetup`` field with its default (when it is an estimate input; a number
with its lowest value, ``at_least``), and its
label and help in both string tables (``calculator/strings/<lang>.json``, ``calc.fields.<name>``) when the form shows it.
Standard library only; no prose for readers here (the page's words live in the string tables).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .models import (LORA_MODULES, Attention, AttentionKernel, Fsdp2Upcast, GrpoGenerator, GrpoLoss, KbitUpcast,
                     Method, MoeLayout, Optimizer, Precision, QloraBackend, QuantStorage, Sharding, TrainingSetup)
from .catalog import GPUS, MODELS
from .configs import model_json, parse_model
from .values import (BoolKind, EnumKind, FloatKind, GpuKind, IncludeKind, IntKind, ModelKind, ModulesKind,
                     ValueKind)

__all__ = ["VALUE_KINDS", "InputSpec", "INPUTS", "BY_NAME", "DEFAULTS", "ENUMS", "LIMITS", "CONTROLS", "GROUPS",
           "GROUP_SHOWN_WHEN", "LORA_KEYS", "INCLUDE",
           "FRAMEWORK_IDS", "markdown_table", "inputs_json"]

#: Every kind of value, by name: the one registry that the input table, the API, the CLI, the form, the CMS fields
#: and the string check read. The two kinds that look a value up are given the catalogue and the config reader here.
VALUE_KINDS: dict[str, ValueKind] = {k.name: k for k in (
    BoolKind(), IntKind(), FloatKind(), EnumKind(), ModulesKind(), ModelKind(MODELS, parse_model, model_json),
    GpuKind(GPUS), IncludeKind())}
#: Form controls (calculator/page/form.py draws each): a checkbox, a typed number, a drop-down, a checkbox per LoRA
#: module. A key's kind of value (``VALUE_KINDS``) names the control that edits it.
CONTROLS = ("checkbox", "number", "select", "modules")
#: The estimator form's groups, in the order they appear (``model`` is drawn by the form itself).
GROUPS = ("method", "rl", "vllm", "lora", "batch", "memory", "hardware", "workload")
#: When a group of the form is shown: ``{key: the values that show it}`` (the page hides it at any other value, as
#: it changes). LoRA's settings mean nothing to full fine-tuning; GRPO's to supervised training; vLLM's to a
#: generation by the trained model itself.
GROUP_SHOWN_WHEN: dict[str, dict[str, tuple[Any, ...]]] = {
    "lora": {"method": tuple(m.value for m in Method if m is not Method.FULL)},
    "rl": {"grpo": (True,)},
    "vllm": {"grpo": (True,), "grpo_generator": tuple(g.value for g in GrpoGenerator
                                                      if g is not GrpoGenerator.TRANSFORMERS)},
}
#: The keys that mean nothing to full fine-tuning: the LoRA group's, and the dropout it carries without a control.
LORA_KEYS: tuple[str, ...] = ("lora_rank", "lora_targets", "lora_dtype", "lora_dropout")
#: What a request may ask for beyond the estimate (each costs time; the CLI's --json asks for all).
INCLUDE = ("gpu_table", "smallest_setup", "remedies", "inverse")


#: Every ``TrainingSetup`` field's default: the one home of a setup key's default (an ``InputSpec`` of a setup key
#: states none; it reads its own here, in request form).
_SETUP_DEFAULTS: dict[str, Any] = {f.name: f.default for f in dataclasses.fields(TrainingSetup)}
#: Every number field's lowest value (``models.at_least``): the one home of a setup key's ``low`` (a ``TrainingSetup``
#: refuses a value below it when it is made; an ``InputSpec`` of a setup key states none, it reads its own here).
_SETUP_LOWEST: dict[str, Any] = {f.name: f.metadata["lowest"] for f in dataclasses.fields(TrainingSetup)
                                 if "lowest" in f.metadata}
#: An ``InputSpec`` that states no default: its ``TrainingSetup`` field's.
_FROM_SETUP: Any = object()


@dataclass(frozen=True, kw_only=True)
class InputSpec:
    """One request key. ``low``/``high`` bound numbers (inclusive); ``choices`` are an enum's JSON strings.

    ``control`` and ``group`` place the key in the estimator form (``None``: API and CLI only); ``advanced`` puts it
    under "More settings". ``setup`` is True when the key is a ``TrainingSetup`` field of the same name (``gpu`` and
    ``include`` are options of the answer, not of the training). ``unit`` names what a number counts, for the CLI, the
    docs and the form's range hint (``calc.units.<unit>`` in the string tables).
    """

    name: str
    kind: str
    doc: str
    default: Any = _FROM_SETUP   # a setup key's is its TrainingSetup field's default (``request_value`` of it)
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()
    unit: str = ""
    control: str | None = None
    group: str | None = None
    advanced: bool = False
    setup: bool = True
    cli: bool = True
    nullable: bool = False     # ``null`` means "use the estimator's own default" (documented in ``doc``)
    enum: type | None = None   # the Enum an ``enum`` value becomes in ``TrainingSetup``
    aliases: tuple[tuple[str, str], ...] = ()   # accepted spellings of a choice, e.g. ("fsdp", "zero3")

    def __post_init__(self) -> None:
        if self.default is _FROM_SETUP:
            default = _SETUP_DEFAULTS.get(self.name, dataclasses.MISSING) if self.setup else dataclasses.MISSING
            if default is dataclasses.MISSING:
                raise TypeError(f"calculator/inputs.py: {self.name}: a key that is no TrainingSetup field with a "
                                "default states its default")
            object.__setattr__(self, "default", self.value_kind.request_value(self, default))
        if self.setup and self.name in _SETUP_LOWEST:
            if self.low is not None:
                raise TypeError(f"calculator/inputs.py: {self.name}: a setup key's lowest value is its TrainingSetup "
                                "field's (models.at_least), not stated again")
            object.__setattr__(self, "low", _SETUP_LOWEST[self.name])

    @property
    def value_kind(self) -> ValueKind:
        """The kind's object (``VALUE_KINDS``): its check, text, CLI argument, control, CMS field, description."""
        return VALUE_KINDS[self.kind]

    @property
    def flag(self) -> str:
        """The CLI flag: the key with dashes."""
        return "--" + self.name.replace("_", "-")

    def as_json(self) -> dict[str, Any]:
        """The spec as ``api.schema()`` publishes it."""
        out: dict[str, Any] = {"name": self.name, "kind": self.kind, "default": self.default, "doc": self.doc}
        if self.low is not None:
            out["min"], out["max"] = self.low, self.high
        if self.choices:
            out["choices"] = list(self.choices)
        for key in ("unit", "control", "group"):
            if getattr(self, key):
                out[key] = getattr(self, key)
        if self.advanced:
            out["advanced"] = True
        if self.nullable:
            out["nullable"] = True
        return out


def _values(enum: type) -> tuple[str, ...]:
    return tuple(member.value for member in enum)


_GIB = 1 << 30
#: The frameworks calculator/frameworks.py describes, in the form's order (that module checks it holds these ids).
FRAMEWORK_IDS: tuple[str, ...] = ("none", "peft", "trl", "axolotl", "llamafactory", "unsloth", "torchtune")

INPUTS: tuple[InputSpec, ...] = (
    InputSpec(name="model", kind="model", default=None, setup=True, cli=False,
              doc="a catalogue id, or a Hugging Face `config.json` object (required; the CLI takes `--model ID` or "
                  "`--config PATH`)"),
    # --- method -----------------------------------------------------------------------------------------------
    InputSpec(name="framework", kind="enum", default="none", choices=FRAMEWORK_IDS, setup=False, control="select",
              group="method",
              doc="the training framework whose defaults fill every key the request leaves out (calculator/"
                  "frameworks.py: each default with its source, at the version it names): `trl` 1.16, `axolotl` "
                  "0.21, `llamafactory` 0.9.5, `unsloth` 2026.10, `torchtune` 0.6.1, `peft` 0.21 (plain transformers + PEFT "
                  "with the Hugging Face Trainer: `prepare_model_for_kbit_training`, `get_peft_model`, `Trainer`); "
                  "`none`: the estimator's own "
                  "defaults. A key the request gives wins"),
    InputSpec(name="method", kind="enum", choices=_values(Method), enum=Method, control="select", group="method",
              doc="full fine-tuning, LoRA, or QLoRA (4-bit base)"),
    InputSpec(name="dpo", kind="bool", control="checkbox", group="method",
              doc="preference training (DPO) on top of the method: chosen + rejected sequences, a reference model"),
    InputSpec(name="precompute_ref_log_probs", kind="bool",
              doc="DPO with the reference log-probabilities computed beforehand: no reference model in memory"),
    # --- online RL: GRPO (calculator/rl.py) ---------------------------------------------------------------
    InputSpec(name="grpo", kind="bool", control="checkbox", group="method",
              doc="online RL with GRPO (TRL `GRPOTrainer`) instead of supervised training: memory phase by phase "
                  "(generation, scoring, training) in the answer's `grpo`; `micro_batch_size` is "
                  "`per_device_train_batch_size` (completions per micro-step) and the trained sequence is "
                  "`grpo_prompt_len` + `grpo_completion_len` (`seq_len` is not used); not with `dpo`"),
    InputSpec(name="grpo_prompt_len", kind="int", control="number", group="rl", high=4_194_304, unit="tokens",
              doc="GRPO: tokens of each prompt (TRL 1.16 has no prompt truncation: the data's own length)"),
    InputSpec(name="grpo_completion_len", kind="int", control="number", group="rl", high=4_194_304,
              unit="tokens",
              doc="GRPO: `max_completion_length`; every completion is taken to reach it (no early end: the "
                  "memory's worst case)"),
    InputSpec(name="grpo_num_generations", kind="int", control="number", group="rl", high=65_536,
              unit="sequences",
              doc="GRPO: `num_generations`, completions per prompt; the generation batch (`micro_batch_size` x "
                  "`num_gpus` x steps per generation) must be a multiple of it"),
    InputSpec(name="grpo_steps_per_generation", kind="int", control="number", group="rl", high=1_048_576,
              unit="micro_batches", nullable=True,
              doc="GRPO: `steps_per_generation`, micro-steps fed by one generation (its batch is `micro_batch_size` x "
                  "this rows per GPU); `null`: `grad_accum_steps` (TRL's default)"),
    InputSpec(name="grpo_beta", kind="float", control="number", group="rl", high=1_000.0,
              doc="GRPO: the KL coefficient `beta`; above 0 TRL computes reference log-probs: a frozen copy of the "
                  "model with full fine-tuning, the adapter disabled with LoRA"),
    InputSpec(name="grpo_num_iterations", kind="int", control="number", group="rl", high=1_024,
              doc="GRPO: `num_iterations` (mu), optimizer steps per rollout; above 1 TRL computes old log-probs"),
    InputSpec(name="grpo_loss_type", kind="enum", control="select", group="rl", choices=_values(GrpoLoss),
              enum=GrpoLoss,
              doc="GRPO: `loss_type` (the same memory for each)"),
    InputSpec(name="grpo_generator", kind="enum", control="select", group="rl", choices=_values(GrpoGenerator),
              enum=GrpoGenerator,
              doc="GRPO: who generates: `transformers` (`use_vllm=False`, TRL's default: `generate` with the trained "
                  "model), `vllm_colocate` (vLLM in the trainer's process; needs `gpu`), `vllm_server` (a vLLM "
                  "server on other GPUs)"),
    InputSpec(name="vllm_gpu_memory_utilization", kind="float", control="number", group="vllm", high=1.0,
              doc="GRPO with `vllm_colocate`: the share of the card's memory vLLM claims when it starts (weights "
                  "inside, the KV pool is the remainder)"),
    InputSpec(name="vllm_max_model_length", kind="int", control="number", group="vllm", high=4_194_304,
              unit="tokens",
              nullable=True,
              doc="GRPO with vLLM: `vllm_max_model_length`, the sequence vLLM's KV pool must hold at least once to "
                  "start; `null`: `grpo_prompt_len` + `grpo_completion_len` (TRL's `None` passes the model's own "
                  "context length, which the estimator does not read: set it)"),
    InputSpec(name="vllm_enable_sleep_mode", kind="bool", control="checkbox", group="vllm",
              doc="GRPO with `vllm_colocate`: vLLM frees its weights and KV pool outside generation (sleep level 2)"),
    # --- LoRA -------------------------------------------------------------------------------------------------
    InputSpec(name="lora_rank", kind="int", high=65_536, control="number", group="lora",
              doc="LoRA rank r"),
    InputSpec(name="lora_targets", kind="modules", choices=LORA_MODULES + ("all-linear",),
              control="modules", group="lora",
              doc="modules that get adapters: a list of module names, or `all-linear` (PEFT: every linear layer "
                  "but `lm_head`); MoE expert MLPs are wrapped per expert"),
    InputSpec(name="lora_dtype", kind="enum", choices=("fp32", "bf16"), enum=Precision,
              control="select",
              group="lora", advanced=True,
              doc="adapter weights' dtype: `fp32` (PEFT's autocast default) or `bf16`; fp32 when `precision` is fp32"),
    InputSpec(name="lora_dropout", kind="float", high=0.99,
              doc="PEFT `lora_dropout`; above 0 each wrapped module keeps a dropout copy and mask"),
    InputSpec(name="double_quant", kind="bool",
              doc="QLoRA double quantisation: 0.127 instead of 0.5 bit of constants per parameter"),
    InputSpec(name="qlora_backend", kind="enum", choices=_values(QloraBackend), enum=QloraBackend,
              doc="`bitsandbytes` (every decoder linear in NF4, inputs saved) or `torchao` (torchtune: only the "
                  "LoRA-wrapped linears)"),
    InputSpec(name="quantize_lm_head", kind="bool",
              doc="QLoRA over bitsandbytes with `lm_head` in NF4 too (Lightning Fabric, litgpt `--quantize bnb.*`)"),
    InputSpec(name="dequant_cast", kind="bool",
              doc="QLoRA over bitsandbytes quantised from fp16 but computed in bf16 (Lightning Fabric): two copies "
                  "of each dequantised weight in flight"),
    InputSpec(name="qlora_compute_dtype", kind="enum", choices=("bf16", "fp32"), enum=Precision,
              doc="QLoRA over bitsandbytes: `bnb_4bit_compute_dtype`, the dtype each quantised linear casts its input "
                  "to and dequantises its weight to; `fp32` is TRL's (its `ModelConfig.dtype` float32 is passed on): "
                  "fp32 saved inputs and an fp32 dequantised weight cast again under autocast"),
    InputSpec(name="quant_storage", kind="enum", choices=_values(QuantStorage), enum=QuantStorage,
              doc="QLoRA over bitsandbytes: `bnb_4bit_quant_storage`; `uint8` (bitsandbytes' default) is not a floating "
                  "dtype, so FSDP2 leaves the 4-bit weights whole on every GPU and FSDP1 cannot shard them; `bf16` "
                  "(Axolotl, LLaMA-Factory, PEFT's FSDP recipe) shards them"),
    InputSpec(name="moe_layout", kind="enum", choices=_values(MoeLayout), enum=MoeLayout,
              doc="MoE experts as one linear per expert (`per_expert`: transformers 4, Unsloth) or fused 3-D "
                  "parameters (`fused`: transformers 5), which bitsandbytes does not quantise and `all-linear` LoRA "
                  "does not wrap"),
    InputSpec(name="kbit_upcast", kind="enum", choices=_values(KbitUpcast), enum=KbitUpcast,
              doc="QLoRA over bitsandbytes: which parameters that are not 4-bit the framework casts to fp32 after "
                  "loading (no effect on a base already held in fp32): `all` (PEFT `prepare_model_for_kbit_training`: "
                  "embeddings, `lm_head`, norms, biases, routers, unquantised experts), `embeddings` (the embeddings, "
                  "`lm_head` and the norms: Axolotl under FSDP), `all_but_embeddings` (the rest: Axolotl's patched "
                  "copy, its norms cast back), `none` (TRL 1.16, LLaMA-Factory, Unsloth)"),
    InputSpec(name="lora_expert_params", kind="bool",
              doc="MoE with `moe_layout` `fused`: LoRA on the experts' 3-D parameters through PEFT "
                  "`target_parameters` (r·E·(in + out) per expert tensor, each layer's merged expert weight alive "
                  "until its backward)"),
    InputSpec(name="quantize_experts", kind="bool",
              doc="QLoRA of a MoE with `moe_layout` `fused`: the framework quantises the experts' 3-D parameters to "
                  "4 bits itself (Axolotl 0.15 and later, `quantize_moe_experts: true`: bitsandbytes "
                  "`replace_parameter_4bit`, NF4), each MoE layer's experts dequantised whole for its forward and "
                  "kept until its backward. Without it bitsandbytes leaves them 16-bit: it converts `nn.Linear` "
                  "modules only (bitsandbytes issue #1849)"),
    # --- batch ------------------------------------------------------------------------------------------------
    InputSpec(name="micro_batch_size", kind="int", high=65_536, unit="sequences",
              control="number", group="batch", doc="sequences per GPU in one forward/backward pass"),
    InputSpec(name="seq_len", kind="int", high=4_194_304, unit="tokens", control="number",
              group="batch", doc="tokens per sequence (the padded or packed length)"),
    InputSpec(name="grad_accum_steps", kind="int", high=1_048_576, unit="micro_batches",
              control="number", group="batch",
              doc="micro-batches per optimizer step (changes the batch per step, not the memory of one micro-batch, "
                  "except that the gradients stay alive across them)"),
    # --- memory savers and precision --------------------------------------------------------------------------
    InputSpec(name="gradient_checkpointing", kind="bool", control="checkbox", group="memory",
              doc="keep each layer's input only and recompute the layer in backward (HF Trainer default: off)"),
    InputSpec(name="attention", kind="enum", choices=_values(Attention), enum=Attention,
              control="select",
              group="memory", doc="`eager` (stores s² scores), `sdpa` (k/v repeated to every query head: torchtune, "
                                  "litgpt, transformers before 4.48 or with a padding mask), `flash` (FlashAttention 2, "
                                  "or SDPA with GQA as current transformers runs it without a mask)"),
    InputSpec(name="precision", kind="enum", choices=("fp32", "mixed", "bf16"), enum=Precision,
              control="select",
              group="memory",
              doc="`bf16` (pure bf16: torchtune, litgpt bf16-true), `mixed` (fp32 weights, 16-bit autocast: HF "
                  "Trainer AMP), `fp32`"),
    InputSpec(name="half_dtype", kind="enum", choices=("bf16", "fp16"), enum=Precision,
              doc="the 16-bit dtype of `mixed` precision's autocast and of QLoRA's compute (`bnb_4bit_compute_dtype`): "
                  "`fp16` (HF Trainer `fp16=True`, with a loss scaler) needs `precision` `mixed`; the answer switches "
                  "to it on a card without bf16 (T4, V100, P100) and says so"),
    InputSpec(name="base_fp32", kind="bool",
              doc="LoRA/QLoRA with `precision` `mixed` on a base model loaded in fp32 (`from_pretrained` without a "
                  "dtype and `bf16=True`, litgpt `bf16-mixed`): the frozen weights stay fp32 and autocast saves a "
                  "16-bit cast of each for backward; off: the base is 16-bit"),
    InputSpec(name="optimizer", kind="enum", choices=_values(Optimizer), enum=Optimizer,
              control="select",
              group="memory",
              doc="`adamw_torch` (foreach, the CUDA default), `adamw_torch_fused`, `adamw_8bit`, `paged_adamw_8bit`, "
                  "`paged_adamw_32bit`, `adafactor`, `sgd`, `sgd_momentum`"),
    InputSpec(name="momentum", kind="bool", default=False, setup=False, doc="with `sgd`: the same as `sgd_momentum`"),
    InputSpec(name="chunked_cross_entropy", kind="bool", control="checkbox", group="memory",
              advanced=True, doc="the loss over chunks of the logits (torchtune, litgpt)"),
    InputSpec(name="torch_compile", kind="bool", control="checkbox", group="memory", advanced=True,
              doc="`torch.compile` of the model (and, in torchtune, of the per-chunk loss)"),
    InputSpec(name="fused_linear_cross_entropy", kind="bool", control="checkbox", group="memory",
              advanced=True,
              doc="lm_head and loss in one kernel (Liger, Cut Cross-Entropy, Unsloth); replaces the chunked loss"),
    InputSpec(name="keeps_logits", kind="bool",
              doc="the training loop keeps a reference to the fp32 logits through backward and the optimizer step "
                  "(torchtune recipes before June 2024; a loop that keeps the model outputs)"),
    InputSpec(name="activation_offloading", kind="bool", control="checkbox", group="memory",
              advanced=True, doc="saved activations stream to host RAM (torchtune)"),
    InputSpec(name="optimizer_in_backward", kind="bool", control="checkbox", group="memory",
              advanced=True, doc="the optimizer steps each parameter during backward (torchtune); no accumulation"),
    # --- hardware and sharding --------------------------------------------------------------------------------
    InputSpec(name="gpu", kind="gpu", default=None, setup=False, control="select", group="hardware",
              doc="a GPU id: the verdict, the remedies and the longest sequence / largest micro-batch on that card"),
    InputSpec(name="num_gpus", kind="int", high=4096, unit="cards", control="number",
              group="hardware", doc="data-parallel GPUs"),
    InputSpec(name="sharding", kind="enum", choices=_values(Sharding) + ("fsdp",),
              enum=Sharding, aliases=(("fsdp", "zero3"),), control="select", group="hardware",
              doc="`none`, `zero1` (optimizer states), `zero2` (+ gradients), `zero3` (+ parameters); `fsdp` is "
                  "`zero3`"),
    InputSpec(name="cpu_offload", kind="bool", control="checkbox", group="hardware",
              doc="optimizer states, fp32 master and gradients in host RAM (needs sharding)"),
    InputSpec(name="offload_params", kind="bool",
              doc="ZeRO-3 / FSDP parameter offload: weights in host RAM"),
    InputSpec(name="deepspeed", kind="bool",
              doc="ZeRO through DeepSpeed rather than FSDP: ZeRO-3 holds DeepSpeed's gradient bucket"),
    InputSpec(name="reduce_bucket_size", kind="int", high=100_000_000_000,
              unit="elements",
              doc="DeepSpeed `zero_optimization.reduce_bucket_size`; Hugging Face's `\"auto\"` is hidden_size²"),
    InputSpec(name="frozen_param_grads", kind="bool",
              doc="FSDP1 flat parameters mixing frozen and LoRA weights (ZeRO-3 only): frozen ones get gradients"),
    InputSpec(name="no_sync_accumulation", kind="bool",
              doc="gradient accumulation inside `no_sync()`: unsharded gradients under ZeRO-2/3 (no effect without "
                  "accumulation)"),
    InputSpec(name="fsdp_version", kind="int", high=2,
              doc="FSDP generation under `sharding` (not DeepSpeed): 1 (`FullyShardedDataParallel`, accelerate's "
                  "default) or 2 (`fully_shard`)"),
    InputSpec(name="fsdp2_upcast", kind="enum", choices=_values(Fsdp2Upcast), enum=Fsdp2Upcast,
              doc="FSDP2 through accelerate with mixed precision: what `fsdp2_prepare_model` casts to fp32 "
                  "(`trainable`: 1.15, the trainable parameters unless the model holds 4-bit ones; `none`: 1.13, or "
                  "mixed precision off; `all`: 1.11, the whole model after sharding)"),
    InputSpec(name="shard_embeddings", kind="bool",
              doc="FSDP: the embeddings and lm_head are units of their own (torchtune `custom_sharded_layers`), "
                  "gathered only around their use instead of staying whole in the root unit"),
    InputSpec(name="cpu_ram_efficient_loading", kind="bool",
              doc="FSDP: only one rank per node loads the checkpoint on the CPU (accelerate "
                  "`fsdp_cpu_ram_efficient_loading`; FSDP2 ignores it for 4-bit models); off: every rank does"),
    InputSpec(name="ddp_gradient_as_bucket_view", kind="bool",
              doc="DDP (several GPUs, no sharding): gradients are views of DDP's reduction buckets; off (the default of "
                  "torch, accelerate and the HF Trainer) DDP holds a bucket copy of every trainable gradient"),
    InputSpec(name="deepspeed_bf16_master_weights", kind="bool",
              doc="DeepSpeed bf16 `bf16_master_weights_and_grads`: master weights and gradient partitions in bf16; "
                  "off (DeepSpeed's default) they are fp32"),
    InputSpec(name="deepspeed_bf16_optimizer_states", kind="bool",
              doc="DeepSpeed bf16 `bf16_optimizer_states`: Adam states in bf16; off (DeepSpeed's default) fp32"),
    InputSpec(name="untie_embeddings", kind="bool",
              doc="the framework keeps `lm_head` apart from a tied embedding (litgpt): V·h more parameters (no "
                  "effect on untied models)"),
    InputSpec(name="cuda_context_bytes", kind="int", high=64 * _GIB, unit="bytes",
              nullable=True, doc="CUDA context and kernels outside PyTorch's allocator; `null`: 1 GiB"),
    # --- the run: time and cost (calculator/throughput.py) --------------------------------------------------------
    InputSpec(name="attention_kernel", kind="enum", choices=_values(AttentionKernel),
              enum=AttentionKernel,
              doc="speed only: `current` (today's kernels), or `fa2`, a FlashAttention-2-generation kernel, which "
                  "reaches 35 % of a Hopper card's peak (2023-24 stacks on H100/H200)"),
    InputSpec(name="gpus_per_node", kind="int", high=4096, unit="cards", nullable=True,
              doc="cards per node (speed only): collectives of more cards also cross the inter-node link; `null`: the "
                  "card's reference server (8)"),
    InputSpec(name="internode_gb_s", kind="float", high=10_000, unit="gb_per_s",
              nullable=True,
              doc="inter-node bandwidth per GPU per direction, GB/s (speed only); `null`: the card's reference "
                  "server's network adapters per GPU, else 12.5 (100 Gb/s Ethernet)"),
    InputSpec(name="dataset_tokens", kind="int", default=None, low=1, high=10**13, unit="tokens", setup=False,
              nullable=True, control="number", group="workload",
              doc="tokens in the training data (DPO: both sequences of every pair); with `mean_tokens_per_example`, "
                  "unpacked data is costed with its padding; `null`: no run time"),
    InputSpec(name="dataset_examples", kind="int", default=None, low=1, high=10**11, unit="examples", setup=False,
              nullable=True, control="number", group="workload",
              doc="examples in the training data (DPO: preference pairs), with `mean_tokens_per_example`; instead of "
                  "`dataset_tokens`"),
    InputSpec(name="mean_tokens_per_example", kind="float", default=None, low=1, high=4_194_304, unit="tokens",
              setup=False, nullable=True, control="number", group="workload",
              doc="mean tokens of one example (one sequence of a DPO pair): unpacked batches are padded to their "
                  "longest example (lengths taken as exponential around this mean)"),
    InputSpec(name="epochs", kind="float", default=1.0, low=0.001, high=10_000, unit="epochs", setup=False,
              control="number", group="workload", doc="passes over the data"),
    InputSpec(name="gpu_hour_price", kind="float", default=None, low=0, high=10_000, unit="usd_per_gpu_hour",
              setup=False, nullable=True, control="number", group="workload",
              doc="your price of one GPU-hour of `gpu`, in USD; `null`: the catalogue's reference price (the GPU "
                  "table prices the other cards from the catalogue)"),
    InputSpec(name="packing", kind="bool", control="checkbox", group="workload",
              doc="sequences packed to `seq_len` rather than padded: no memory figure changes (a step's memory depends "
                  "on `seq_len` only), but unpacked data pays for its padding in time and cost"),
    # --- what to answer ---------------------------------------------------------------------------------------
    InputSpec(name="include", kind="include", default=list(INCLUDE), choices=INCLUDE, setup=False, cli=False,
              doc="which of `gpu_table`, `smallest_setup`, `remedies`, `inverse` to compute (each costs time; "
                  "the CLI's `--json` asks for all)"),
)

BY_NAME: dict[str, InputSpec] = {spec.name: spec for spec in INPUTS}
DEFAULTS: dict[str, Any] = {spec.name: spec.default for spec in INPUTS if spec.name != "model"}
ENUMS: dict[str, tuple[str, ...]] = {spec.name: spec.choices for spec in INPUTS if spec.choices}
LIMITS: dict[str, tuple[float, float]] = {spec.name: (spec.low, spec.high) for spec in INPUTS
                                          if spec.low is not None and spec.high is not None}


def _check_table() -> None:
    """The table's own consistency, checked at import: a wrong entry fails every use at once (TypeError naming the
    key and the rule; not ``assert``, which ``python -O`` would skip)."""
    rules = (
        ("its kind is one of VALUE_KINDS", lambda s: s.kind in VALUE_KINDS),
        ("its control is the one its kind is drawn with", lambda s: s.control in (None, s.value_kind.control)),
        ("its control is one of CONTROLS", lambda s: s.control is None or s.control in CONTROLS),
        ("a key on the form has a group, and only then", lambda s: (s.group is None) == (s.control is None)),
        ("its group is one of GROUPS", lambda s: s.group is None or s.group in GROUPS),
        ("low and high come together", lambda s: (s.low is None) == (s.high is None)),
        ("a kind with bounds has low and high", lambda s: (s.value_kind.bounds(s) is not None) == (s.low is not None)),
        ("choices exactly for enum, modules, include", lambda s: (s.kind in ("enum", "modules", "include"))
         == bool(s.choices)),
        ("an Enum exactly for the setup's enums", lambda s: (s.kind == "enum" and s.setup) == (s.enum is not None)),
        ("aliases name two choices", lambda s: all(a in s.choices and b in s.choices for a, b in s.aliases)),
    )
    for spec in INPUTS:
        for rule, ok in rules:
            if not ok(spec):
                raise TypeError(f"calculator/inputs.py: {spec.name}: {rule}")
    if len(BY_NAME) != len(INPUTS):
        raise TypeError("calculator/inputs.py: a key is declared twice")


_check_table()

#: (field, its default in TrainingSetup, its spec) for every TrainingSetup field that is a request key whose kind
#: checks more than the setup checks itself (an enum's choices, the model). A field holding its default object is not
#: checked again: most fields of most setups do.
_SETUP_FIELDS = tuple((spec.name, _SETUP_DEFAULTS.get(spec.name, dataclasses.MISSING), spec)
                      for spec in INPUTS
                      if spec.setup and type(spec.value_kind).check_typed is not ValueKind.check_typed)


def check_setup(setup: TrainingSetup) -> None:
    """A setup made from outside data, checked for what it does not check itself when it is made (each field's type,
    lowest value and finiteness: ``models.TrainingSetup``): each field that is a request key by its kind of value
    (``ValueKind.check_typed``: an enum key's choices, the model as a pasted config of its fields would be read);
    ``InputError(code, field)``. The API runs it on every setup it reads (``api.parse_request``); a Python caller
    who makes a setup with a hand-made model runs it too."""
    fields = setup.__dict__
    for name, default, spec in _SETUP_FIELDS:
        value = fields[name]
        if value is not default and (value.__class__ is not default.__class__ or value != default):
            spec.value_kind.check_typed(spec, value)



def _doc_default(spec: InputSpec) -> str:
    if spec.name == "model":
        return "—"
    if spec.name == "include":
        return "all four"
    return "`" + ("null" if spec.default is None else str(spec.default).lower() if isinstance(spec.default, bool)
                  else f'"{spec.default}"' if isinstance(spec.default, str) else f"{spec.default}") + "`"


def markdown_table() -> str:
    """The request-key table of ESTIMATOR.md (between its ``inputs:begin`` / ``inputs:end`` markers)."""
    lines = ["| key | default | values | CLI flag | form | meaning |", "|---|---|---|---|---|---|"]
    for spec in INPUTS:
        form = "—" if spec.control is None else ("more settings" if spec.advanced else spec.group or "")
        flag = f"`{spec.flag}`" if spec.cli else ("`--model` / `--config`" if spec.name == "model" else "—")
        lines.append(f"| `{spec.name}` | {_doc_default(spec)} | {spec.value_kind.doc_values(spec)} | {flag} | {form} | {spec.doc} |")
    return "\n".join(lines)


#: The setup's fields the answer echoes, in the input table's order.
_ECHOED = tuple(spec.name for spec in INPUTS if spec.setup and spec.name != "model")


def inputs_json(s: TrainingSetup) -> dict[str, Any]:
    """A ``TrainingSetup``'s inputs (defaults filled in), in request form: feeding it back gives the same estimate
    (the answer's ``inputs``; a remedy's ``changes`` are its differences). (Every answer echoes ~50 fields, the "what
    fits" widget 216 answers per change: one loop, no call per field.)"""
    fields = vars(s)
    out: dict[str, Any] = {}
    for name in _ECHOED:
        x = fields[name]
        out[name] = x._value_ if isinstance(x, Enum) else list(x) if x.__class__ is tuple else x
    out["momentum"] = False          # folded into the optimizer (sgd + momentum = sgd_momentum)
    return out
