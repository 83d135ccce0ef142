"""Typed inputs and outputs of the estimator: frozen, keyword-only dataclasses and Enums.

Nothing here computes memory; see ``memory.py``. Nothing here imports a browser API.
"""
from __future__ import annotations

import math
from dataclasses import MISSING, Field, dataclass, field, fields
from enum import StrEnum
from typing import Any, Callable, TypeVar

from .errors import InputError

_T = TypeVar("_T")


def hashed_once(cls: type[_T]) -> type[_T]:
    """A frozen dataclass whose hash is computed on first use and kept (in ``__dict__["_hash"]``, not a field: equality,
    ``replace``, ``fields`` and the JSON never see it). The estimator's lru caches key on setups, models, cards and
    workloads, and a dataclass's own ``__hash__`` hashes every field again on each lookup (each StrEnum field through
    a Python-level ``Enum.__hash__``): one page answer looked up ~1,500 of them. Pickling leaves the kept hash out
    (a string's hash differs between processes)."""
    names = tuple(f.name for f in fields(cls) if (f.compare if f.hash is None else f.hash))

    def __hash__(self: Any) -> int:
        d = self.__dict__
        h = d.get("_hash")
        if h is None:
            h = hash(tuple([d[n] for n in names]))
            object.__setattr__(self, "_hash", h)
        return h

    def __getstate__(self: Any) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "_hash"}

    cls.__hash__ = __hash__            # type: ignore[assignment]
    cls.__getstate__ = __getstate__    # type: ignore[attr-defined]
    return cls


_INIT_FIELDS: dict[type, frozenset[str]] = {}


def replaced(obj: _T, /, **changes: Any) -> _T:
    """``dataclasses.replace(obj, **changes)`` for this module's frozen dataclasses, without its call per field: the
    same fields with ``changes`` applied, the same check (``__post_init__``), no kept hash (``hashed_once``). A
    TrainingSetup has 52 fields, and the advice replaces one ~70 times per answer (the longest sequence and
    micro-batch are found by bisection, the remedies one change at a time); replace spent a quarter of an
    estimator widget's change re-reading every field. tests/unit/test_api.py holds it equal to ``replace``."""
    cls = type(obj)
    names = _INIT_FIELDS.get(cls)
    if names is None:
        names = _INIT_FIELDS[cls] = frozenset(f.name for f in fields(cls) if f.init)   # type: ignore[arg-type]
    unknown = changes.keys() - names
    if unknown:
        raise TypeError(f"{cls.__name__} has no field {sorted(unknown)[0]!r}")
    other = object.__new__(cls)
    d = other.__dict__
    d.update(obj.__dict__)
    d.pop("_hash", None)
    d.update(changes)
    rules = _FIELD_RULES.get(cls)
    if rules is not None:          # the fields it keeps were checked when ``obj`` was made: the changes alone
        for name in changes:
            default, rule = rules[name]
            value = d[name]
            if value is not default:
                code = rule(value)
                if code is not None:
                    raise InputError(code, name)
    else:
        post = getattr(other, "__post_init__", None)
        if post is not None:
            post()
    return other


def at_least(low: float, *, default: Any) -> Any:
    """A number field of a ``TrainingSetup``: its default and its lowest value, in one place (``metadata["lowest"]``).
    The setup refuses a value below it; the input table reads it as its key's ``low`` (``calculator/inputs.py``)."""
    return field(default=default, metadata={"lowest": low})


#: The check of each field of a class that checks itself: ``{class: {field: (default, rule)}}``, made once when the
#: class is (``_field_rules``); a rule answers a field's value with None or an error code.
_FIELD_RULES: dict[type, dict[str, tuple[Any, Callable[[Any], str | None]]]] = {}


def _field_rule(f: Field, scope: dict[str, Any]) -> Callable[[Any], str | None]:
    """A field's rule, from its annotation and metadata: ``bool`` is a bool; ``int``/``float`` a number of that type
    (a bool is not one), finite and not below its ``lowest``; ``tuple[str, ...]`` a non-empty tuple of its
    ``members``; a class (an Enum, ``ModelArch``) an instance of it; ``| None`` lets None through."""
    kinds = [k.strip() for k in str(f.type).split("|")]
    optional = "None" in kinds
    (kind,) = [k for k in kinds if k != "None"]
    if kind == "bool":
        def rule(v: Any) -> str | None:
            return None if v.__class__ is bool else "wrong_type"
    elif kind in ("int", "float"):
        low = f.metadata["lowest"]           # a number field states its lowest value (``at_least``)
        integer = kind == "int"

        def rule(v: Any) -> str | None:
            if v.__class__ is bool or not isinstance(v, int if integer else (int, float)):
                return "wrong_type"
            if not low <= v or (v.__class__ is not int and not math.isfinite(v)):   # NaN is below every low
                return "out_of_range"
            return None
    elif kind == "tuple[str, ...]":
        members = frozenset(f.metadata["members"])

        def rule(v: Any) -> str | None:
            if v.__class__ is not tuple or not all(m.__class__ is str for m in v):
                return "wrong_type"
            if not v:
                return "out_of_range"
            return None if members.issuperset(v) else "unknown_value"
    else:
        cls = scope[kind]

        def rule(v: Any) -> str | None:
            return None if isinstance(v, cls) else "wrong_type"
    if not optional:
        return rule
    return lambda v: None if v is None else rule(v)


def _field_checks(cls: type) -> tuple[tuple[str, Any, Callable[[Any], str | None]], ...]:
    """Each field's (name, default, rule) of a frozen dataclass that checks itself, made once after the class is
    (``_field_rule``), and kept in ``_FIELD_RULES`` for ``replaced``."""
    rules = _FIELD_RULES[cls] = {f.name: (f.default, _field_rule(f, globals())) for f in fields(cls)}
    return tuple((name, default, rule) for name, (default, rule) in rules.items())


@hashed_once
@dataclass(frozen=True, kw_only=True)
class ModelArch:
    """A decoder-only transformer's architecture, with Hugging Face ``config.json`` field names.

    ``head_dim`` is ``None`` when the config does not set it (then ``hidden_size // num_attention_heads``).
    Dense models have ``num_local_experts == 0``; MoE models give the expert count and the number routed per token.
    ``mlp_gated`` is True for SwiGLU/GeGLU MLPs (gate, up, down projections), False for a plain up/down MLP.
    Every field is one a pasted config can carry under the same name (``calculator/configs.py`` reads them and
    ``configs.model_json`` writes them back), so a catalogue model round-trips through "custom" unchanged.
    ESTIMATOR.md ("Model configs") says which transformers class each field and default comes from.
    ``hf_id`` and ``aliases`` are the catalogue's Hugging Face repo ids for the entry (the instruct/base variants,
    the pre-quantized copies that carry the same config): the API accepts any of them for the id, in any case.
    """

    id: str                      # catalogue id, e.g. "llama-3.1-8b" ("custom" for a pasted config)
    name: str                    # display name, e.g. "Llama 3.1 8B"
    family: str                  # group label for the picker, e.g. "Llama 3"
    hidden_size: int
    num_hidden_layers: int
    num_attention_heads: int
    num_key_value_heads: int
    intermediate_size: int
    vocab_size: int
    tie_word_embeddings: bool = False
    head_dim: int | None = None
    num_local_experts: int = 0
    num_experts_per_tok: int = 0
    mlp_gated: bool = True
    attention_bias: bool = False       # q/k/v projections carry a bias (Qwen2; MLA: q_a_proj and kv_a_proj)
    o_proj_bias: bool = False          # the attention output projection carries a bias (Llama-style attention_bias)
    mlp_bias: bool = False             # every MLP linear carries a bias (Llama mlp_bias; gpt-oss experts)
    qk_norm: str = ""                  # "" | "head" (RMSNorm over head_dim on q and k: Qwen3) | "full" (OLMoE, OLMo 2)
    attention_sinks: bool = False      # one learned sink logit per head and layer (gpt-oss)
    activation_params: int = 0         # learnable scalars of each MLP's activation (Apertus's xIELU: alpha_p, alpha_n)
    norms_per_layer: int = 2           # RMSNorm/LayerNorm weights of width hidden_size per decoder layer: 2 (input,
    #                                    post-attention), 4 in Gemma 2 / Gemma 3 (pre/post attention and pre/post MLP)
    # --- mixture of experts (num_local_experts > 0) ------------------------------------------------------------------
    moe_intermediate_size: int | None = None   # width of one routed expert (None: intermediate_size, as in Mixtral)
    shared_expert_intermediate_size: int = 0   # width of the always-on shared expert MLP (DeepSeek: n_shared x moe)
    shared_expert_gate: bool = False           # sigmoid gate Linear(h, 1) on the shared expert (Qwen2-MoE)
    first_k_dense_replace: int = 0             # layers whose MLP is dense (intermediate_size) instead of MoE
    moe_layer_step: int = 1                    # of the other layers, MoE where (index + 1) % step == 0, dense
    #                                            otherwise (Llama 4 interleave_moe_layer_step, Qwen decoder_sparse_step:
    #                                            Maverick's 2 alternates dense and MoE layers)
    router_bias: bool = False                  # a bias of num_local_experts per router (gpt-oss; DeepSeek-V3's
    #                                            e_score_correction_bias)
    # --- multi-head latent attention (DeepSeek-V2/V3: kv_lora_rank set) ------------------------------------------
    q_lora_rank: int | None = None             # None: q_proj is one matrix (DeepSeek-V2-Lite)
    kv_lora_rank: int | None = None
    qk_nope_head_dim: int = 0
    qk_rope_head_dim: int = 0
    v_head_dim: int = 0
    # --- a vision tower (multimodal checkpoints: Gemma 3, Llama 4, Mistral Small 3.1, LLaVA, Qwen2-VL) -------------
    vision_params: int = 0                     # parameters of the vision encoder and its projector, held as frozen
    #                                            16-bit weights (params.vision_tower_params counts them from the
    #                                            config's vision_config); no gradients, no adapters, no activations
    # --- linear-attention layers (Qwen3-Next: Gated DeltaNet in the layer_types "linear_attention"; transformers
    # models/qwen3_next/modular_qwen3_next.py Qwen3NextGatedDeltaNet) ---------------------------------------------
    linear_attention_layers: int = 0           # layers whose token mixer is a Gated DeltaNet (the rest: attention)
    linear_num_key_heads: int = 0
    linear_num_value_heads: int = 0
    linear_key_head_dim: int = 0
    linear_value_head_dim: int = 0
    linear_conv_kernel_dim: int = 0            # the depthwise causal conv over q, k, v (no bias)
    attn_output_gate: bool = False             # the attention layers' q_proj also gives a sigmoid gate on their output
    # --- Mamba-2 layers (Bamba, Granite 4.0-H: transformers models/bamba/modeling_bamba.py BambaMixer) ---------------
    mamba_layers: int = 0                      # layers whose token mixer is a Mamba-2 mixer (the rest: attention)
    mamba_n_heads: int = 0
    mamba_d_head: int = 0                      # n_heads x d_head is the mixer's inner width (mamba_expand x hidden)
    mamba_n_groups: int = 0
    mamba_d_state: int = 0
    mamba_d_conv: int = 0
    mamba_conv_bias: bool = False
    mamba_proj_bias: bool = False
    mamba_chunk_size: int = 0                  # tokens per chunk of the chunked scan (0: memory.MAMBA_CHUNK)
    # --- blocks of one part each (Nemotron-H: transformers models/nemotron_h NemotronHBlock, one norm and one mixer,
    # attention, Mamba-2, MLP or MoE, per block) --------------------------------------------------------------------
    mlp_blocks: int = 0                        # blocks whose only part is an MLP (dense or MoE: moe_layers counts the
    #                                            MoE ones); when > 0 every other block holds a token mixer alone
    model_type: str = ""                       # the config's model_type ("" when none was given)
    published_params: int | None = None  # the count the model card / safetensors index states, for tests
    source: str = ""                     # where the numbers come from (official config.json URL)
    count_source: str = ""               # where published_params comes from, and how it differs from the headline
    hf_id: str = field(default="", compare=False)                  # the Hugging Face repo of ``source``
    aliases: tuple[str, ...] = field(default=(), compare=False)    # other repo ids with the same config fields
    # config.json fields the estimator did not read (reported back; not part of equality or hashing)
    ignored_fields: tuple[str, ...] = field(default=(), compare=False)


@dataclass(frozen=True, kw_only=True)
class VisionTower:
    """The vision encoder and projector of a multimodal checkpoint, as its ``vision_config`` (and the outer config's
    projector fields) describe them; ``params.vision_tower_params`` counts it, and ``ModelArch.vision_params`` holds
    the count. ``encoder``: "siglip" (Gemma 3), "clip" (LLaVA), "pixtral" (Mistral 3), "llama4" (Llama 4),
    "qwen2_vl", "qwen2_5_vl" (their ``visual`` with its patch merger); ``projector``: "gemma3", "llava", "mistral3",
    "llama4", or "merger" (Qwen: inside the encoder)."""

    encoder: str
    projector: str
    hidden_size: int
    num_hidden_layers: int
    intermediate_size: int
    patch_size: int
    text_hidden_size: int              # the language model's width that the projector maps to
    image_size: int = 0                # siglip / clip / llama4: one position embedding per patch of this image
    num_channels: int = 3
    temporal_patch_size: int = 2       # Qwen2-VL: Conv3d over 2 frames
    spatial_merge_size: int = 2        # Qwen's patch merger, Mistral 3's patch merger (2 x 2 patches into one)
    out_hidden_size: int = 0           # Qwen's merger output width
    projector_bias: bool = True        # LLaVA / Mistral 3 multimodal_projector_bias
    feature_layers: int = 1            # LLaVA / Mistral 3: vision_feature_layer as a list of layers concatenated
    projector_input_dim: int = 0       # Llama 4's pixel-shuffle MLP
    projector_output_dim: int = 0
    vision_output_dim: int = 0


@hashed_once
@dataclass(frozen=True, kw_only=True)
class GpuSpec:
    """One GPU model. ``memory_bytes`` is the memory the driver reports (nvidia-smi ``memory.total``), which can differ
    from the marketed size (an "80 GB" A100 exposes 85,899,345,920 bytes = 80 GiB)."""

    id: str                # e.g. "a100-80gb"
    name: str              # e.g. "NVIDIA A100 80GB"
    memory_bytes: int      # total device memory in bytes, as the driver reports it
    klass: str             # "consumer" | "workstation" | "datacenter"
    nvlink: bool           # NVLink / Infinity Fabric between cards of a node
    source: str = ""
    # --- what the card is and what it can run (recommend.capability) -----------------------------------------------
    arch: str = ""                         # lower-case architecture: "pascal", "volta", "turing", "ampere", "ada",
    #                                        "hopper", "blackwell", "cdna3", "cdna4"
    compute_capability: str = ""           # CUDA compute capability ("8.6"), or the ROCm target ("gfx942")
    bf16: bool = True                      # BF16 arithmetic in hardware (none before Ampere: P100, V100, T4)
    gpus_per_node: int = 8                 # cards in the reference server node (the time model's node size)
    counts: tuple[int, ...] = (1,)         # the card counts it is offered in (cloud instances, vendor systems)
    counts_source: str = ""                # where those counts come from
    # --- speed (calculator/throughput.py); None when no source gives the figure ----------------------------------
    peak_tflops: float | None = None       # dense (no sparsity) 16-bit tensor peak: BF16 with FP32 accumulate
    #                                        (FP16 on cards without BF16), TFLOPS
    memory_gb_s: float | None = None       # memory bandwidth, GB/s (10^9 bytes)
    interconnect_gb_s: float | None = None  # GPU-to-GPU bandwidth per direction over NVLink / Infinity Fabric, GB/s
    host_link_gb_s: float | None = None    # PCIe link to the host (and, without NVLink, to the other cards), per
    #                                        direction, GB/s; the GH200's NVLink-C2C to its Grace CPU's memory
    host_link: str = "pcie"                # "pcie", or "nvlink-c2c" (GH200: coherent link to LPDDR5X)
    host_memory_gb_s: float | None = None  # the host memory's bandwidth where the card defines it (GH200's
    #                                        LPDDR5X); None: a common server's (throughput.COEFFICIENTS)
    network_gb_s: float | None = None      # per GPU, to other nodes: the reference server's InfiniBand/Ethernet
    #                                        adapters divided among its GPUs, per direction, GB/s
    speed_source: str = ""                 # datasheet(s) of the figures above
    # --- price ------------------------------------------------------------------------------------------------------
    price_per_hour: float | None = None    # reference on-demand price of one GPU-hour, USD
    price_source: str = ""                 # the public price page it was read from
    price_date: str = ""                   # when that page was captured (YYYY-MM-DD)


# ---------------------------------------------------------------------------------------------------------------
# Inputs of one estimate (added for memory.py / recommend.py / api.py). Enum values are the JSON strings
# (enum.StrEnum: Python 3.11 here, 3.14 in Pyodide).
# ---------------------------------------------------------------------------------------------------------------

class Method(StrEnum):
    FULL = "full"
    LORA = "lora"
    QLORA = "qlora"


class Precision(StrEnum):
    FP32 = "fp32"      # everything fp32: weights, gradients, optimizer states, activations
    MIXED = "mixed"    # HF Trainer AMP on an fp32-loaded model: fp32 master weights + 16-bit autocast copies
    BF16 = "bf16"      # pure bf16: weights, gradients and (torch AdamW) states in bf16
    FP16 = "fp16"      # a 16-bit dtype only (``half_dtype``): fp16 autocast and QLoRA compute on cards without bf16


class Optimizer(StrEnum):
    ADAMW_TORCH = "adamw_torch"              # torch.optim.AdamW, foreach (the CUDA default)
    ADAMW_TORCH_FUSED = "adamw_torch_fused"  # torch.optim.AdamW(fused=True)
    ADAMW_8BIT = "adamw_8bit"                # bitsandbytes AdamW8bit
    PAGED_ADAMW_8BIT = "paged_adamw_8bit"    # bitsandbytes PagedAdamW8bit (states in CUDA unified memory)
    PAGED_ADAMW_32BIT = "paged_adamw_32bit"  # bitsandbytes PagedAdamW32bit (fp32 states in unified memory)
    ADAFACTOR = "adafactor"                  # transformers Adafactor (factored 2nd moment, no 1st moment)
    SGD = "sgd"
    SGD_MOMENTUM = "sgd_momentum"


class Attention(StrEnum):
    EAGER = "eager"   # stores the s x s scores / probabilities of every layer
    SDPA = "sdpa"     # picks the flash / memory-efficient kernel for 16-bit inputs: no s^2 memory
    FLASH = "flash"   # flash_attention_2


class Sharding(StrEnum):
    NONE = "none"
    ZERO1 = "zero1"   # optimizer states sharded
    ZERO2 = "zero2"   # + gradients
    ZERO3 = "zero3"   # + parameters ("fsdp" FULL_SHARD is accepted as zero3)


class QuantStorage(StrEnum):
    """The dtype bitsandbytes packs 4-bit weights into (``bnb_4bit_quant_storage``): FSDP shards only floating
    parameters, so with ``uint8`` (bitsandbytes' default) FSDP2 leaves the 4-bit weights whole on every GPU and FSDP1
    cannot flatten them with the 16-bit rest."""
    BF16 = "bf16"
    UINT8 = "uint8"


class Fsdp2Upcast(StrEnum):
    """What accelerate's ``fsdp2_prepare_model`` casts to fp32 under mixed precision, by accelerate version."""
    TRAINABLE = "trainable"   # 1.15: every trainable parameter not in fp32, when the model holds no 4-bit parameter
    NONE = "none"             # 1.13: the loop rebinds its variable (no effect); also accelerate mixed precision "no"
    ALL = "all"               # 1.11: the whole model after sharding, frozen base included


class MoeLayout(StrEnum):
    """How a mixture-of-experts layer holds its experts."""
    PER_EXPERT = "per_expert"  # one nn.Linear per expert projection (transformers 4, Unsloth): quantised and LoRA-
    #                            wrapped like any linear
    FUSED = "fused"            # 3-D nn.Parameters per layer (transformers 5 MixtralExperts, Qwen3MoeExperts, ...):
    #                            bitsandbytes and all-linear LoRA skip them


class KbitUpcast(StrEnum):
    """Which non-4-bit base parameters a QLoRA (bitsandbytes) run holds in fp32 after its framework prepared the
    model (``peft.prepare_model_for_kbit_training`` or the framework's own cast); each framework's default with its
    source is in calculator/frameworks.py."""
    NONE = "none"                    # every non-4-bit parameter keeps its loaded dtype (TRL 1.16, LLaMA-Factory, Unsloth)
    ALL = "all"                      # every non-4-bit parameter (PEFT prepare_model_for_kbit_training): embeddings,
    #                                  lm_head, norms, biases, routers, unquantised experts
    EMBEDDINGS = "embeddings"        # embeddings, lm_head and norms only (Axolotl's own pass under FSDP QLoRA)
    ALL_BUT_EMBEDDINGS = "all_but_embeddings"   # the rest: Axolotl's patched prepare leaves embeddings alone and casts
    #                                  the norms back to 16-bit afterwards


class AttentionKernel(StrEnum):
    """The generation of the attention kernel a run used (its speed only)."""
    CURRENT = "current"       # what the current stack picks (FlashAttention 2 on Ampere/Ada, cuDNN / FA3 on Hopper)
    FA2 = "fa2"               # a FlashAttention-2-generation kernel on Hopper (2023-24 stacks)


class QloraBackend(StrEnum):
    BITSANDBYTES = "bitsandbytes"  # transformers/PEFT/litgpt: every decoder nn.Linear is NF4; lm_head, embeddings 16-bit
    #                                (litgpt/Fabric quantise lm_head too: TrainingSetup.quantize_lm_head)
    TORCHAO = "torchao"            # torchtune: only the LoRA-wrapped linears are NF4


class GrpoLoss(StrEnum):
    """trl/trainer/grpo_config.py 1.16.0 ``GRPOConfig.loss_type`` (default ``dapo``): the same per-token [B, C] fp32
    tensors for each, so the same memory."""
    DAPO = "dapo"
    GRPO = "grpo"
    BNPO = "bnpo"
    DR_GRPO = "dr_grpo"
    CISPO = "cispo"
    SAPO = "sapo"
    LUSPO = "luspo"


class GrpoGenerator(StrEnum):
    """Who generates GRPO's completions (calculator/rl.py): transformers ``generate`` with the trained model (TRL's
    ``use_vllm=False`` default), vLLM in the trainer's process (``vllm_mode="colocate"``) or a vLLM server on other
    GPUs (``vllm_mode="server"``)."""
    TRANSFORMERS = "transformers"
    VLLM_COLOCATE = "vllm_colocate"
    VLLM_SERVER = "vllm_server"


class Phase(StrEnum):
    REFERENCE_FORWARD = "reference_forward"  # DPO: the frozen reference pass (no_grad)
    FORWARD = "forward"                      # end of the forward pass, loss computed
    BACKWARD_START = "backward_start"        # logits/loss gradients alive on top of every saved activation
    BACKWARD_END = "backward_end"            # every gradient alive, activations freed
    OPTIMIZER_STEP = "optimizer_step"        # gradients + optimizer temporaries


LORA_MODULES: tuple[str, ...] = (
    "q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj", "lm_head",
)
ALL_LINEAR: tuple[str, ...] = LORA_MODULES[:-1]   # PEFT "all-linear" excludes the output head


@hashed_once
@dataclass(frozen=True, kw_only=True)
class TrainingSetup:
    """Everything one estimate depends on. Defaults are those documented in ESTIMATOR.md (the common HF stack).

    A setup checks itself when it is made (``__post_init__``, so ``dataclasses.replace`` and ``replaced`` too),
    against rules declared here, on the fields, once: each field holds its annotated type (an enum field its Enum, a
    number of its type and not a bool, ``lora_targets`` a non-empty tuple of ``LORA_MODULES``, ``model`` a
    ``ModelArch``), and a number is finite and not below its lowest value (``at_least``, which the input table reads
    as the key's ``low``). What it refuses raises ``errors.InputError(code, field)``, so no caller of the typed layer
    gets a negative or undefined figure from a setup field. A field holding its default object is not checked again
    (the estimator makes thousands of setups by replacing one field). The keys' highest values are the API's own
    bound on what it reads, not the setup's: the estimator derives setups beyond them (DPO's two sequences per
    example, a remedy's accumulation). What a setup cannot know without the tables above it, an enum key's choices
    (``lora_dtype`` is fp32 or bf16) and a hand-made model read as a pasted config would be (a negative width), is
    checked by ``inputs.check_setup``, which the API runs on every setup it reads."""

    model: ModelArch
    method: Method = Method.FULL
    dpo: bool = False
    precompute_ref_log_probs: bool = False
    precision: Precision = Precision.BF16
    half_dtype: Precision = Precision.BF16       # the 16-bit dtype of autocast (``mixed``) and of QLoRA's compute
    #                                              (bnb_4bit_compute_dtype): fp16 on cards without bf16, with a loss
    #                                              scaler (HF Trainer fp16=True); 2 bytes either way
    base_fp32: bool = False                      # LoRA/QLoRA under mixed precision: the frozen base loaded in fp32
    optimizer: Optimizer = Optimizer.ADAMW_TORCH
    lora_rank: int = at_least(1, default=16)
    lora_targets: tuple[str, ...] = field(default=ALL_LINEAR, metadata={"members": LORA_MODULES})
    lora_dtype: Precision = Precision.FP32       # only FP32 or BF16 are meaningful (PEFT autocasts adapters to fp32)
    lora_dropout: float = at_least(0.0, default=0.0)  # PEFT LoraConfig default
    double_quant: bool = True
    qlora_backend: QloraBackend = QloraBackend.BITSANDBYTES
    micro_batch_size: int = at_least(1, default=1)
    seq_len: int = at_least(1, default=2048)
    grad_accum_steps: int = at_least(1, default=1)
    gradient_checkpointing: bool = False
    attention: Attention = Attention.SDPA
    chunked_cross_entropy: bool = False
    torch_compile: bool = False                  # torch.compile of the model (and of torchtune's chunked loss)
    fused_linear_cross_entropy: bool = False     # lm_head + loss in one kernel (Liger, Cut Cross-Entropy, Unsloth)
    keeps_logits: bool = False                   # the loop holds the fp32 logits through backward and the step
    activation_offloading: bool = False
    optimizer_in_backward: bool = False
    packing: bool = False
    num_gpus: int = at_least(1, default=1)
    sharding: Sharding = Sharding.NONE
    cpu_offload: bool = False                    # optimizer states (and fp32 master, gradients) in host RAM
    deepspeed: bool = False                      # ZeRO through DeepSpeed (not FSDP): its ZeRO-3 gradient bucket
    reduce_bucket_size: int = at_least(1, default=500_000_000)  # zero_optimization.reduce_bucket_size, in elements
    offload_params: bool = False                 # zero3 / FSDP CPUOffload(offload_params=True): weights in host RAM
    frozen_param_grads: bool = False             # FSDP1 flat params mixing frozen + LoRA: grads for frozen ones too
    no_sync_accumulation: bool = False           # grad accumulation inside no_sync(): ZeRO-2/3 grads stay unsharded
    untie_embeddings: bool = False               # the framework holds lm_head apart from the embedding (litgpt)
    quantize_lm_head: bool = False               # QLoRA over bitsandbytes: lm_head is NF4 too (Lightning Fabric)
    dequant_cast: bool = False                   # NF4 quantised from fp16, computed in bf16: dequantise + cast (2 copies)
    cuda_context_bytes: int | None = at_least(0, default=None)  # None: COEFFICIENTS.cuda_context_bytes
    # --- the frameworks' regimes (issue 19; ESTIMATOR.md "Framework regimes") --------------------------------------
    qlora_compute_dtype: Precision = Precision.BF16  # bnb_4bit_compute_dtype: fp32 under TRL (its fp32 ModelConfig.dtype)
    quant_storage: QuantStorage = QuantStorage.BF16  # bnb_4bit_quant_storage (bf16: FSDP shards the 4-bit weights)
    fsdp_version: int = at_least(1, default=1)   # FSDP1 (FullyShardedDataParallel) or FSDP2 (fully_shard)
    fsdp2_upcast: Fsdp2Upcast = Fsdp2Upcast.TRAINABLE   # accelerate's FSDP2 upcast under mixed precision
    ddp_gradient_as_bucket_view: bool = False    # DDP's gradients are views of its buckets (no bucket copy)
    deepspeed_bf16_master_weights: bool = False  # DeepSpeed bf16_master_weights_and_grads
    deepspeed_bf16_optimizer_states: bool = False  # DeepSpeed bf16_optimizer_states
    moe_layout: MoeLayout = MoeLayout.PER_EXPERT   # experts as linears (transformers 4, Unsloth) or fused 3-D params
    lora_expert_params: bool = False             # PEFT target_parameters on the fused experts (LoRA on 3-D params)
    quantize_experts: bool = False               # QLoRA: the framework quantises the fused 3-D experts itself (Axolotl)
    kbit_upcast: KbitUpcast = KbitUpcast.NONE     # QLoRA: non-4-bit parameters cast to fp32 (prepare_model_for_kbit_training)
    shard_embeddings: bool = False               # embeddings and lm_head their own FSDP units (torchtune)
    cpu_ram_efficient_loading: bool = False      # FSDP: only the first rank of a node loads the checkpoint on the CPU
    attention_kernel: AttentionKernel = AttentionKernel.CURRENT   # speed only
    gpus_per_node: int | None = at_least(1, default=None)  # None: the card's reference server (GpuSpec.gpus_per_node)
    internode_gb_s: float | None = at_least(0.1, default=None)  # None: GpuSpec.network_gb_s, else TimeCoefficients'
    # --- online RL (GRPO, TRL 1.16 GRPOTrainer; calculator/rl.py, issue 41) ------------------------------------
    grpo: bool = False                           # GRPO instead of SFT (DPO is the other objective: not both)
    grpo_prompt_len: int = at_least(1, default=512)  # tokens of each prompt
    grpo_completion_len: int = at_least(1, default=512)  # GRPOConfig.max_completion_length (each completion's)
    grpo_num_generations: int = at_least(2, default=8)  # GRPOConfig.num_generations (completions per prompt)
    grpo_steps_per_generation: int | None = at_least(1, default=None)  # None: grad_accum_steps (as GRPOConfig)
    grpo_beta: float = at_least(0.0, default=0.0)  # KL coefficient: != 0 adds the reference log-probs
    grpo_num_iterations: int = at_least(1, default=1)  # mu: optimizer steps per rollout (old log-probs when > 1)
    grpo_loss_type: GrpoLoss = GrpoLoss.DAPO
    grpo_generator: GrpoGenerator = GrpoGenerator.TRANSFORMERS
    vllm_gpu_memory_utilization: float = at_least(0.01, default=0.3)  # GRPOConfig's, colocated
    vllm_enable_sleep_mode: bool = False         # GRPOConfig.vllm_enable_sleep_mode
    vllm_max_model_length: int | None = at_least(1, default=None)  # GRPOConfig's (None: prompt + completion here)

    def __post_init__(self) -> None:
        d = self.__dict__
        for name, default, rule in _SETUP_RULES:
            value = d[name]
            if value is not default:           # a default was checked once, here, when the class was made
                code = rule(value)
                if code is not None:
                    raise InputError(code, name)


#: Every field of a ``TrainingSetup``: its name, default and rule (``__post_init__``; ``replaced`` checks the changes).
_SETUP_RULES = _field_checks(TrainingSetup)
for _name, _default, _rule in _SETUP_RULES:   # the defaults keep their own rules (so skipping them is sound)
    if _default is not MISSING and _rule(_default) is not None:
        raise TypeError(f"calculator/models.py: TrainingSetup.{_name}: its default breaks its own rule")



@dataclass(frozen=True, kw_only=True)
class Estimate:
    """One estimate, per GPU. Every byte figure is an int; ``breakdown`` is at the peak phase."""

    peak_bytes: int                  # what nvidia-smi would show for the process (context + reserved)
    allocated_bytes: int             # comparable with torch.cuda.max_memory_allocated()
    reserved_bytes: int              # comparable with torch.cuda.max_memory_reserved()
    low_bytes: int
    high_bytes: int
    phase: Phase
    phases: dict[str, int]           # allocated bytes at each phase
    breakdown: dict[str, int]        # components at the peak phase; sums to peak_bytes
    params: int
    trainable_params: int
    host_ram_bytes: int              # steady state, node total: offloaded states and weights, paged states evicted
    host_ram_load_bytes: int         # while the model loads, node total (each loading rank's CPU copy)
    paged_optimizer_bytes: int       # paged (unified-memory) optimizer states: may sit on the GPU, evicted on demand
    driver_bytes: int                # nvidia-smi's used memory with every paged state resident (peak + paged)
    checkpoint_bytes: int            # full model file in its save dtype
    adapter_bytes: int               # LoRA adapter file (0 for full fine-tuning)
    optimizer_state_file_bytes: int  # optimizer.pt written next to a resumable checkpoint
    notes: tuple[str, ...] = ()      # codes of assumptions that applied (e.g. "paged_states_excluded")
