"""Hugging Face ``config.json`` -> ``ModelArch``: the one place that knows config field names, aliases, per-model_type
defaults and which model types the estimator refuses.

``parse_model(value)`` takes a catalogue id or a pasted config object and returns a ``ModelArch`` or raises
``errors.InputError(code, field)``; ``model_json(arch)`` writes an architecture back as a config object that parses to the
same estimate (every field the estimator uses, under its config name, plus the fields it ignored). A missing field
takes the default of that ``model_type``'s config class in transformers (``MODEL_TYPES``, read from the classes of
transformers 5.24.0), a config without ``model_type`` the ``PretrainedConfig`` base defaults (tied embeddings).
Fields the estimator does not read are listed in ``ModelArch.ignored_fields``, never dropped silently. Model types
whose parameters or memory the estimator cannot count (encoder-decoder, encoder-only, vision and audio towers,
state-space and linear-attention hybrids, mixture-of-experts layouts it does not read) are refused with
``unsupported_model``. ESTIMATOR.md "Model configs" documents every rule. Standard library only.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, replace
from dataclasses import field as dataclass_field
from functools import partial
from typing import Any, Callable

from .catalog import MODELS, REFUSED_FORMATS, REFUSED_MODELS, is_hub_id, repo_key, resolve
from .errors import InputError
from .params import count_params, moe_layers, vision_tower_params
from .models import ModelArch, VisionTower
from .vocab import UNSUPPORTED_REASONS

__all__ = ["parse_model", "model_json", "ModelField", "MODEL_FIELDS", "READ_ONLY_FIELDS", "MODEL_LIMITS", "MAX_PARAMS",
           "ALIASES", "MODEL_TYPES", "VLM_TYPES", "UNSUPPORTED_TYPES", "UNSUPPORTED_REASONS", "ARCH_FIELDS",
           "REQUIRED_FIELDS", "QK_NORMS", "MODEL_FIELD_KINDS", "CONFIG_LISTS", "FieldKind", "FIELD_KINDS",
           "FIELDS", "unknown_type"]


class FieldKind(ABC):
    """One kind of config field (the request values' pattern, ``values.ValueKind``): everything that depends on the
    kind lives in its class, and every reader asks the class instead of switching on a kind name. A kind says how a
    config's value is read and checked (``read``), which control of the form's custom architecture edits it
    (``control``, drawn by ``calculator/page/form.py``), how the form shows a value (``shown``), whether the form
    reads typed text as a number (``number``, checked against the field's ``high``) or keeps it as text (``text``,
    trimmed; neither: a flag, whose typed text the form reads as a number), whether null is a value (``nullable``)
    and which wrong-type message it takes (``errors.wrong_type.<message>``).
    A new kind is one class here, registered in ``FIELD_KINDS``, plus its message in both string tables; a class that
    leaves out ``read`` cannot be instantiated."""

    name: str = ""
    control: str = ""
    message: str = ""
    number: bool = False
    text: bool = False
    nullable: bool = False

    @abstractmethod
    def read(self, r: _Reader, name: str, default: Any = None, required: bool = False) -> Any:
        """The config's value of field ``name`` (or of its first alias), checked; ``default`` when it gives none (a
        callable stands for a default that reads other fields: called only then); ``missing_field`` when ``required``
        and there is neither; ``InputError(code, "model.<name>")`` when the value cannot be used."""

    def shown(self, value: Any) -> Any:
        """The value as the custom form's field holds it (empty when the config leaves it unset)."""
        return "" if value is None else str(value)


def _given(default: Any) -> Any:
    return default() if callable(default) else default


class IntField(FieldKind):
    name, control, message, number = "int", "number", "model_field", True

    def read(self, r, name, default=None, required=False):
        return r.int(name, default=_given(default) if r.raw(name) is None else None, required=required)


class IntOrNullField(IntField):
    """A whole number or null: the documented fallback (head_dim: hidden / heads; q_lora_rank: no low-rank query)."""

    name, nullable = "int_or_null", True


class BoolField(FieldKind):
    name, control, message = "bool", "checkbox", "model_bool"

    def read(self, r, name, default=None, required=False):
        return r.bool(name, _given(default) if r.raw(name) is None else False)

    def shown(self, value):
        return bool(value)


class _TextField(FieldKind):
    text = True


class EnumField(_TextField):
    """One of the field's ``choices`` (qk_norm)."""

    name, control, message = "enum", "select", "model_enum"

    def read(self, r, name, default=None, required=False):
        v = r.raw(name)
        if v is None:
            v = _given(default)
        if not isinstance(v, str):
            raise InputError("wrong_type", f"model.{name}")
        if v not in FIELDS[name].choices:
            raise InputError("unknown_value", f"model.{name}")
        return v


class StringField(_TextField):
    name, control, message = "string", "text", "model_string"

    def read(self, r, name, default=None, required=False):
        v = r.raw(name)
        if v is None:
            return _given(default)
        if not isinstance(v, str):
            raise InputError("wrong_type", f"model.{name}")
        return v


#: Every kind of config field, by name: the one registry the reader, the form, its messages and the string check read.
FIELD_KINDS: dict[str, FieldKind] = {k.name: k for k in (IntField(), IntOrNullField(), BoolField(), EnumField(),
                                                          StringField())}


@dataclass(frozen=True)
class ModelField:
    """One config.json field the estimator reads: how a config writes it and the form's custom architecture edits
    it (``kind``: a name of ``FIELD_KINDS``, whose class ``field_kind`` is), its limits (``out_of_range`` outside),
    whether a config must give it, its other names in other families' configs, an enum's choices."""

    name: str
    kind: str = "int"
    low: int | None = None
    high: int | None = None
    required: bool = False
    aliases: tuple[str, ...] = ()
    choices: tuple[str, ...] = ()

    @property
    def field_kind(self) -> FieldKind:
        return FIELD_KINDS[self.kind]


#: The fields of ModelArch a config carries (model_json writes them, parse_model reads them), in the form's order:
#: every one declared once, here; ModelArch's fields are checked against it (tests/unit/test_configs.py).
#: Aliases: GPT-2/NeoX/Falcon/BLOOM/OPT names, and Mixtral/Qwen/DeepSeek/gpt-oss expert counts.
MODEL_FIELDS: tuple[ModelField, ...] = (
    ModelField("model_type", "string"),
    ModelField("hidden_size", low=1, high=1_000_000, required=True, aliases=("n_embd", "d_model", "dim", "model_dim")),
    ModelField("num_hidden_layers", low=1, high=10_000, required=True, aliases=("n_layer", "num_layers", "n_layers")),
    ModelField("num_attention_heads", low=1, high=100_000, required=True, aliases=("n_head", "num_heads", "n_heads")),
    ModelField("num_key_value_heads", low=1, high=100_000,
               aliases=("num_kv_heads", "n_head_kv", "n_kv_heads", "multi_query_group_num")),
    ModelField("head_dim", "int_or_null", low=1, high=100_000),
    ModelField("intermediate_size", low=1, high=10_000_000,
               aliases=("n_inner", "ffn_hidden_size", "ffn_dim", "d_ff", "ff_intermediate_size")),
    ModelField("vocab_size", low=1, high=100_000_000, required=True),
    ModelField("tie_word_embeddings", "bool"),
    ModelField("mlp_gated", "bool"),
    ModelField("attention_bias", "bool", aliases=("qkv_bias",)),
    ModelField("o_proj_bias", "bool", aliases=("attention_out_bias",)),     # Seed-OSS's name
    ModelField("mlp_bias", "bool"),
    ModelField("qk_norm", "enum", choices=("", "head", "full")),
    ModelField("attention_sinks", "bool"),
    ModelField("norms_per_layer", low=0, high=64),
    ModelField("activation_params", low=0, high=1_000_000),
    ModelField("num_local_experts", low=0, high=100_000, aliases=("num_experts", "n_routed_experts", "moe_num_experts")),
    ModelField("num_experts_per_tok", low=0, high=100_000, aliases=("experts_per_token",)),
    ModelField("moe_intermediate_size", "int_or_null", low=1, high=10_000_000),
    ModelField("shared_expert_intermediate_size", low=0, high=100_000_000,
               aliases=("shared_intermediate_size", "moe_shared_expert_intermediate_size")),
    ModelField("shared_expert_gate", "bool"),
    ModelField("first_k_dense_replace", low=0, high=10_000),
    ModelField("moe_layer_step", low=1, high=10_000, aliases=("interleave_moe_layer_step", "decoder_sparse_step")),
    ModelField("router_bias", "bool"),
    ModelField("q_lora_rank", "int_or_null", low=1, high=1_000_000),
    ModelField("kv_lora_rank", "int_or_null", low=1, high=1_000_000),
    ModelField("qk_nope_head_dim", low=0, high=100_000),
    ModelField("qk_rope_head_dim", low=0, high=100_000),
    ModelField("v_head_dim", low=1, high=100_000),
    ModelField("vision_params", low=0, high=1_000_000_000_000),
    ModelField("linear_attention_layers", low=0, high=10_000),
    ModelField("linear_num_key_heads", low=0, high=100_000),
    ModelField("linear_num_value_heads", low=0, high=100_000),
    ModelField("linear_key_head_dim", low=0, high=100_000),
    ModelField("linear_value_head_dim", low=0, high=100_000),
    ModelField("linear_conv_kernel_dim", low=0, high=1_000),
    ModelField("attn_output_gate", "bool"),
    ModelField("mamba_layers", low=0, high=10_000),
    # Nemotron-H's names: NemotronHConfig (mamba_num_heads, mamba_head_dim, n_groups, ssm_state_size, conv_kernel,
    # use_conv_bias; use_bias biases its Mamba-2 in_proj and out_proj only)
    ModelField("mamba_n_heads", low=0, high=100_000, aliases=("mamba_num_heads",)),
    ModelField("mamba_d_head", low=0, high=100_000, aliases=("mamba_head_dim",)),
    ModelField("mamba_n_groups", low=0, high=100_000, aliases=("n_groups",)),
    ModelField("mamba_d_state", low=0, high=100_000, aliases=("ssm_state_size",)),
    ModelField("mamba_d_conv", low=0, high=1_000, aliases=("conv_kernel",)),
    ModelField("mamba_conv_bias", "bool", aliases=("use_conv_bias",)),
    ModelField("mamba_proj_bias", "bool", aliases=("use_bias",)),
    ModelField("mamba_chunk_size", low=0, high=1_000_000, aliases=("chunk_size",)),
    ModelField("mlp_blocks", low=0, high=10_000),
)
#: Config fields read only to compute others (the layer pattern of an MoE stack, DeepSeek's shared experts).
READ_ONLY_FIELDS: tuple[ModelField, ...] = (
    ModelField("moe_layer_freq", low=1, high=10_000),
    ModelField("n_shared_experts", low=0, high=100_000),
    ModelField("intermediate_size_mlp", low=1, high=10_000_000),     # Llama 4's dense layers
    ModelField("full_attention_interval", low=1, high=10_000),       # Qwen3-Next without layer_types
    ModelField("mamba_expand", low=1, high=1_000),                   # Mamba-2's inner width over hidden_size
    ModelField("moe_latent_size", low=1, high=1_000_000),            # Nemotron-H's latent experts (refused)
)
MAX_PARAMS = 100_000_000_000_000     # total parameters of a pasted model (too_large beyond)

# What the reader, model_json, the schema and the form use, derived from the table above.
ARCH_FIELDS: tuple[str, ...] = tuple(f.name for f in MODEL_FIELDS)
REQUIRED_FIELDS: tuple[str, ...] = tuple(f.name for f in MODEL_FIELDS if f.required)
MODEL_LIMITS: dict[str, tuple[int, int]] = {f.name: (f.low, f.high) for f in MODEL_FIELDS + READ_ONLY_FIELDS
                                            if f.low is not None and f.high is not None}
ALIASES: dict[str, tuple[str, ...]] = {**{f.name: f.aliases for f in MODEL_FIELDS if f.aliases},
                                       "name": ("_name_or_path",)}
MODEL_FIELD_KINDS: dict[str, str] = {f.name: f.kind for f in MODEL_FIELDS}
#: Every field the reader knows (the table's and the read-only ones), by name.
FIELDS: dict[str, ModelField] = {f.name: f for f in MODEL_FIELDS + READ_ONLY_FIELDS}
_unknown_kinds = sorted({f.kind for f in FIELDS.values()} - set(FIELD_KINDS))
if _unknown_kinds:
    raise TypeError(f"configs.MODEL_FIELDS: kinds {_unknown_kinds} are not in FIELD_KINDS")
QK_NORMS: tuple[str, ...] = next(f.choices for f in MODEL_FIELDS if f.name == "qk_norm")
#: Config fields read as lists (no field of ours): anything else there is ``wrong_type`` (the page asks for a list).
CONFIG_LISTS: tuple[str, ...] = ("layer_types", "mlp_only_layers", "moe_layers", "layers_block_type")
# Keys a model object may carry that describe it rather than its shape (never reported as ignored).
_META = frozenset({"id", "name", "_name_or_path", "family", "ignored_fields", "architectures", "model_type",
                   "is_encoder_decoder", "text_config", "params"})


@dataclass(frozen=True)
class TypeDefaults:
    """What a model_type's transformers config class and modelling code imply when a config omits a field."""

    tie: bool                         # the class's tie_word_embeddings default
    gated: bool = True                # gate/up/down MLP (False: plain up/down, approximate families)
    qkv_bias: bool = False            # q/k/v biases when the config has no attention_bias (Qwen2 hard-codes them)
    o_bias_follows: bool = True       # the config's attention_bias also biases o_proj (Llama-style)
    qk_norm: str = ""
    sinks: bool = False
    mlp_bias: bool = False            # MLP/expert biases when the config has no mlp_bias
    router_bias: bool = False
    shared_gate: bool = False
    moe: bool = False                 # the estimator reads this type's MoE fields
    mla: bool = False                 # multi-head latent attention with the DeepseekV2Config defaults below
    norms: int = 2                    # norms of width hidden_size per decoder layer (Gemma 2 / 3: 4)
    act_params: int = 0               # learnable scalars of each MLP's activation module (Apertus's xIELU: 2)
    ffn_4h: bool = False              # the class builds a missing MLP width as 4 x hidden_size (GPT-2 n_inner null)
    layout: str = ""                  # "llama4": experts and the shared expert of intermediate_size, dense layers of
    #                                   intermediate_size_mlp, every interleave_moe_layer_step-th layer MoE
    qk_norm_flag: bool = False        # use_qk_norm switches q/k RMSNorms over head_dim on (GLM-4.5)
    given_only: bool = False          # not a transformers class (Kimi K2): no default, a missing field is refused
    shared_counted: bool = False      # n_shared_experts counts the shared expert whose width is its own field
    #                                   (Nemotron-H): it adds no width
    #: the class defaults of the fields above's kin (our names): the MLP width, the expert layout, head_dim where the
    #: class fixes one; a nested text_config (which transformers writes sparse) also takes the required fields here
    fields: dict[str, Any] = dataclass_field(default_factory=dict)


def _fields(**kw: Any) -> dict[str, Any]:
    return kw


# Read from each config class of transformers 5.24.0 (``CONFIG_MAPPING[t]()``: tie_word_embeddings, intermediate_size,
# head_dim where fixed, every MoE default; scratch dump of the wheel, the MoE ones listed with their classes in
# ESTIMATOR.md "Model configs") and its modelling code (which linears carry biases, q/k norms, sinks, routers, norms
# per layer). Types not listed take the PretrainedConfig base defaults (tied embeddings, no biases, no MLP width)
# and are read as Llama-like dense decoders.
MODEL_TYPES: dict[str, TypeDefaults] = {
    "llama": TypeDefaults(tie=False, fields=_fields(hidden_size=4096, num_hidden_layers=32, num_attention_heads=32,
                                                    intermediate_size=11008, vocab_size=32000)),
    "mistral": TypeDefaults(tie=False, fields=_fields(hidden_size=4096, num_hidden_layers=32, num_attention_heads=32,
                                                      num_key_value_heads=8, intermediate_size=14336, vocab_size=32000)),
    "ministral": TypeDefaults(tie=False, fields=_fields(intermediate_size=14336)),
    "mixtral": TypeDefaults(tie=False, moe=True, fields=_fields(intermediate_size=14336, num_local_experts=8,
                                                                num_experts_per_tok=2)),
    "qwen2": TypeDefaults(tie=False, qkv_bias=True, o_bias_follows=False,              # Qwen2Attention: q/k/v bias
                          fields=_fields(intermediate_size=22016)),
    "qwen2_moe": TypeDefaults(tie=False, qkv_bias=True, o_bias_follows=False, shared_gate=True, moe=True,
                              fields=_fields(intermediate_size=5632, num_local_experts=60, num_experts_per_tok=4,
                                             moe_intermediate_size=1408, shared_expert_intermediate_size=5632)),
    "qwen3": TypeDefaults(tie=False, qk_norm="head", fields=_fields(intermediate_size=22016, head_dim=128)),
    # Qwen3NextConfig: Qwen3-MoE's experts with Qwen2-MoE's gated shared expert; 3 of 4 layers a Gated DeltaNet
    # (HYBRID_TYPES below), the others gated attention (q_proj twice as wide, q/k norms over head_dim)
    "qwen3_next": TypeDefaults(tie=False, qk_norm="head", shared_gate=True, moe=True,
                               fields=_fields(hidden_size=2048, num_hidden_layers=48, num_attention_heads=16,
                                              num_key_value_heads=2, head_dim=256, intermediate_size=5632,
                                              vocab_size=151936, num_local_experts=512, num_experts_per_tok=10,
                                              moe_intermediate_size=512, shared_expert_intermediate_size=512)),
    # Qwen3_5TextConfig (transformers models/qwen3_5/modular_qwen3_5.py): Qwen3NextConfig's with its own sizes, a
    # dense MLP in every layer, and the same Gated DeltaNet split into in_proj_qkv, in_proj_z, in_proj_b, in_proj_a
    "qwen3_5_text": TypeDefaults(tie=False, qk_norm="head",
                                 fields=_fields(hidden_size=4096, num_hidden_layers=32, num_attention_heads=16,
                                                num_key_value_heads=4, head_dim=256, intermediate_size=12288,
                                                vocab_size=248320)),
    # Qwen3_5MoeTextConfig (transformers models/qwen3_5_moe/modular_qwen3_5_moe.py): Qwen3NextConfig's with its own
    # sizes (Qwen3.5-35B-A3B's), Qwen3.5's split Gated DeltaNet, and Qwen3-Next's sparse block in every layer (the class
    # deletes intermediate_size, decoder_sparse_step and mlp_only_layers: no dense MLP is built; the experts' width
    # stands in for the unused intermediate_size)
    "qwen3_5_moe_text": TypeDefaults(tie=False, qk_norm="head", shared_gate=True, moe=True,
                                     fields=_fields(hidden_size=2048, num_hidden_layers=40, num_attention_heads=16,
                                                    num_key_value_heads=2, head_dim=256, intermediate_size=512,
                                                    vocab_size=248320, num_local_experts=256, num_experts_per_tok=8,
                                                    moe_intermediate_size=512, shared_expert_intermediate_size=512)),
    "qwen3_moe": TypeDefaults(tie=False, qk_norm="head", moe=True,
                              fields=_fields(intermediate_size=6144, num_local_experts=128, num_experts_per_tok=8,
                                             moe_intermediate_size=768)),
    "gemma": TypeDefaults(tie=True, fields=_fields(intermediate_size=24576, head_dim=256)),
    "gemma2": TypeDefaults(tie=True, norms=4, fields=_fields(intermediate_size=9216, head_dim=256)),
    # Gemma3TextConfig: the text decoder of every Gemma 3 (1B alone; 4B/12B/27B under gemma3's text_config, which the
    # published files write sparse: the rest are these defaults, gemma-3-4b's own)
    "gemma3_text": TypeDefaults(tie=True, norms=4, qk_norm="head",
                                fields=_fields(hidden_size=2304, num_hidden_layers=26, num_attention_heads=8,
                                               num_key_value_heads=4, head_dim=256, intermediate_size=9216,
                                               vocab_size=262208)),
    "phi3": TypeDefaults(tie=False, fields=_fields(intermediate_size=8192)),
    # GraniteMoeConfig (transformers models/granitemoe): Llama attention, Mixtral's layout in JetMoe's parallel
    # experts (input_linear E x 2i x h, output_linear E x h x i: a gated MLP of intermediate_size per expert, no
    # bias), a bias-free router; its multipliers have no parameters
    "granitemoe": TypeDefaults(tie=False, moe=True, fields=_fields(intermediate_size=11008, num_local_experts=8,
                                                                   num_experts_per_tok=2)),
    # BambaConfig (transformers models/bamba): Llama attention without biases in attn_layer_indices, Mamba-2 mixers in
    # the other layers (MAMBA_TYPES), a gated MLP of intermediate_size in every layer
    "bamba": TypeDefaults(tie=False, fields=_fields(hidden_size=4096, num_hidden_layers=32, num_attention_heads=32,
                                                    num_key_value_heads=8, intermediate_size=14336,
                                                    vocab_size=128000)),
    # GraniteMoeHybridConfig (Granite 4.0-H): layer_types "mamba" / "attention"; every layer a shared gated MLP
    # (GraniteMoeSharedMLP, shared_intermediate_size) beside, when num_local_experts > 0, GraniteMoE's experts of
    # intermediate_size; with no experts the shared MLP is the layer's only MLP (_granite_dense)
    "granitemoehybrid": TypeDefaults(tie=False, moe=True,
                                     fields=_fields(intermediate_size=11008, num_local_experts=8, num_experts_per_tok=2,
                                                    shared_expert_intermediate_size=1024)),
    # NemotronHConfig (transformers models/nemotron_h): blocks of one part each (NemotronHBlock: an RMSNorm and one
    # mixer), hybrid_override_pattern / layers_block_type (_blocks); attention with Llama's attention_bias, Mamba-2
    # (MAMBA_TYPES), an ungated relu2 MLP (up, down; mlp_bias) and DeepSeek-V3's MoE with ungated experts of
    # moe_intermediate_size, a router with its e_score_correction_bias and one shared expert of
    # moe_shared_expert_intermediate_size; the class's expert fields mean nothing without MoE blocks
    "nemotron_h": TypeDefaults(tie=False, gated=False, norms=1, moe=True, router_bias=True, shared_counted=True,
                               fields=_fields(hidden_size=4096, num_attention_heads=32, num_key_value_heads=8,
                                              head_dim=128, intermediate_size=21504, vocab_size=131072,
                                              num_local_experts=8, num_experts_per_tok=2, moe_intermediate_size=7688,
                                              shared_expert_intermediate_size=7688)),
    "olmo": TypeDefaults(tie=False, fields=_fields(intermediate_size=11008)),
    "olmo2": TypeDefaults(tie=False, qk_norm="full", fields=_fields(intermediate_size=11008)),
    "olmoe": TypeDefaults(tie=False, qk_norm="full", moe=True,
                          fields=_fields(intermediate_size=2048, num_local_experts=64, num_experts_per_tok=8)),
    "granite": TypeDefaults(tie=False, fields=_fields(intermediate_size=11008)),
    # Olmo3Config is Olmo2Config's (OLMo 2 attention; 3 of 4 layers sliding, which changes no count)
    "olmo3": TypeDefaults(tie=False, qk_norm="full", fields=_fields(intermediate_size=11008)),
    # ApertusConfig: Llama attention with q/k RMSNorms over head_dim, an ungated up/down MLP (NemotronMLP) whose xIELU
    # activation (transformers activations.py XIELUActivation, one instance per MLP) holds 2 parameters, alpha_p and
    # alpha_n (its beta and eps are buffers, not parameters)
    "apertus": TypeDefaults(tie=False, gated=False, qk_norm="head", act_params=2,
                            fields=_fields(intermediate_size=14336)),
    # SeedOssConfig: q/k/v biases (attention_bias, true by default), o_proj's own attention_out_bias (false)
    "seed_oss": TypeDefaults(tie=False, qkv_bias=True, o_bias_follows=False,
                             fields=_fields(intermediate_size=27648, head_dim=128)),
    "smollm3": TypeDefaults(tie=True, fields=_fields(intermediate_size=11008)),         # NoPE layers: no parameters
    "cohere": TypeDefaults(tie=True, fields=_fields(intermediate_size=22528)),
    "stablelm": TypeDefaults(tie=False, fields=_fields(intermediate_size=6912)),
    "deepseek_v2": TypeDefaults(tie=False, moe=True, mla=True,
                                fields=_fields(intermediate_size=11008, num_local_experts=64,
                                               moe_intermediate_size=1407, n_shared_experts=2,
                                               first_k_dense_replace=0)),    # num_experts_per_tok: None (refused)
    "deepseek_v3": TypeDefaults(tie=False, router_bias=True, moe=True, mla=True,
                                fields=_fields(intermediate_size=18432, num_local_experts=256, num_experts_per_tok=8,
                                               moe_intermediate_size=2048, n_shared_experts=1,
                                               first_k_dense_replace=3)),
    # Kimi K2: model_type kimi_k2, DeepseekV3ForCausalLM through remote code; its values differ from
    # DeepseekV3Config's (384 experts, 1 dense layer, 64 heads), so none is assumed. e_score_correction_bias is a
    # buffer in transformers (23,040 fp32 values): not counted, as in the published total.
    "kimi_k2": TypeDefaults(tie=False, moe=True, mla=True, given_only=True),
    # Glm4MoeConfig (GLM-4.5, -Air): DeepSeek-style layout (first_k dense, n_shared x moe width), q/k/v biases when
    # attention_bias (the releases set it; o_proj never), q/k norms when use_qk_norm; e_score_correction_bias is a
    # buffer (5,760 values for -Air, left out as in the published total); the MTP layer is not built by transformers.
    "glm4_moe": TypeDefaults(tie=False, o_bias_follows=False, moe=True, qk_norm_flag=True,
                             fields=_fields(intermediate_size=10944, num_local_experts=128, num_experts_per_tok=8,
                                            moe_intermediate_size=1408, n_shared_experts=1, first_k_dense_replace=1)),
    # Llama4TextConfig: experts and the always-on shared expert of intermediate_size (8192), dense layers of
    # intermediate_size_mlp (16384), MoE every interleave_moe_layer_step-th layer (1: all); use_qk_norm is an L2 norm
    # without weights; the router has no bias
    "llama4_text": TypeDefaults(tie=False, moe=True, layout="llama4",
                                fields=_fields(hidden_size=5120, num_hidden_layers=48, num_attention_heads=40,
                                               num_key_value_heads=8, head_dim=128, intermediate_size=8192,
                                               intermediate_size_mlp=16384, vocab_size=202048, num_local_experts=16,
                                               num_experts_per_tok=1, moe_layer_step=1)),
    # Qwen2-VL / Qwen2.5-VL: a Qwen2 language model (q/k/v biases) at the top level (or in text_config when
    # transformers 5 saved it), its vision tower in vision_config
    "qwen2_vl": TypeDefaults(tie=False, qkv_bias=True, o_bias_follows=False, fields=_fields(intermediate_size=29568)),
    "qwen2_5_vl": TypeDefaults(tie=False, qkv_bias=True, o_bias_follows=False, fields=_fields(intermediate_size=29568)),
    "gpt_oss": TypeDefaults(tie=False, qkv_bias=True, sinks=True, mlp_bias=True, router_bias=True, moe=True,
                            fields=_fields(intermediate_size=2880, head_dim=64, num_local_experts=128,
                                           num_experts_per_tok=4)),
    # plain (ungated) MLPs; their biases, LayerNorms and parallel blocks are approximated (ESTIMATOR.md)
    "gpt2": TypeDefaults(tie=True, gated=False, ffn_4h=True),
    "gpt_neox": TypeDefaults(tie=False, gated=False, fields=_fields(intermediate_size=24576)),
    "gptj": TypeDefaults(tie=False, gated=False, ffn_4h=True),
    "falcon": TypeDefaults(tie=True, gated=False, ffn_4h=True),
    "RefinedWebModel": TypeDefaults(tie=True, gated=False, ffn_4h=True),
    "RefinedWeb": TypeDefaults(tie=True, gated=False, ffn_4h=True),
    "bloom": TypeDefaults(tie=True, gated=False, ffn_4h=True),
    "phi": TypeDefaults(tie=False, gated=False, fields=_fields(intermediate_size=8192)),
    "opt": TypeDefaults(tie=True, gated=False, fields=_fields(intermediate_size=3072)),
    "gpt_bigcode": TypeDefaults(tie=True, gated=False, ffn_4h=True),
    "starcoder2": TypeDefaults(tie=True, gated=False, fields=_fields(intermediate_size=12288)),
    "mpt": TypeDefaults(tie=True, gated=False, ffn_4h=True),                  # expansion_ratio 4
    "codegen": TypeDefaults(tie=False, gated=False, ffn_4h=True),
}
for _text, _outer in (("qwen2_vl_text", "qwen2_vl"), ("qwen2_5_vl_text", "qwen2_5_vl")):
    MODEL_TYPES[_text] = MODEL_TYPES[_outer]
_BASE = TypeDefaults(tie=True)            # PretrainedConfig: tie_word_embeddings=True, no MLP width
#: Hybrid types read here: model_type -> (its linear-attention layer_types entry, the class defaults of the mixer's
#: fields, the layer pattern without layer_types: every full_attention_interval-th layer attention). Qwen3NextConfig
#: (transformers models/qwen3_next/configuration_qwen3_next.py): linear_* 16 key heads, 32 value heads, 128 each, conv 4.
_GATED_DELTANET = ("linear_attention", {"linear_num_key_heads": 16, "linear_num_value_heads": 32,
                                        "linear_key_head_dim": 128, "linear_value_head_dim": 128,
                                        "linear_conv_kernel_dim": 4}, 4)
HYBRID_TYPES: dict[str, tuple[str, dict[str, int], int]] = {"qwen3_next": _GATED_DELTANET,   # the Qwen3.5 classes
                                                            "qwen3_5_text": _GATED_DELTANET,  # inherit them
                                                            "qwen3_5_moe_text": _GATED_DELTANET}
#: Mamba-2 hybrids read here: model_type -> the class defaults of its mixer's fields (BambaConfig and
#: GraniteMoeHybridConfig, whose GraniteMoeHybridMambaLayer is BambaMixer); mamba_d_head "auto": expand x h / heads.
_BAMBA_MIXER = {"mamba_n_heads": 128, "mamba_n_groups": 1, "mamba_d_state": 256, "mamba_d_conv": 4, "mamba_expand": 2,
                "mamba_conv_bias": True, "mamba_proj_bias": False, "mamba_chunk_size": 256}
MAMBA_TYPES: dict[str, dict[str, Any]] = {
    "bamba": _BAMBA_MIXER, "granitemoehybrid": _BAMBA_MIXER,
    # NemotronHConfig: its NemotronHMamba2Mixer (Zamba2's) has BambaMixer's tensors, head_dim its own field
    "nemotron_h": {"mamba_n_heads": 128, "mamba_d_head": 64, "mamba_n_groups": 8, "mamba_d_state": 128,
                   "mamba_d_conv": 4, "mamba_conv_bias": True, "mamba_proj_bias": False, "mamba_chunk_size": 128}}
#: Nemotron-H's block kinds: hybrid_override_pattern's characters (NemotronHConfig._pattern_to_list) and
#: layers_block_type's names (both spellings transformers has used), as our kinds.
NEMOTRON_BLOCKS: dict[str, str] = {"M": "mamba", "*": "attention", "-": "mlp", "E": "moe",
                                   "mamba": "mamba", "linear_attention": "mamba", "attention": "attention",
                                   "full_attention": "attention", "mlp": "mlp", "moe": "moe"}
_NEMOTRON_DEFAULT = ("mamba", "moe", "attention", "mlp")      # NemotronHConfig's layers_block_type default
# DeepseekV2Config / DeepseekV3Config defaults (transformers 5.24.0) for a config that omits an MLA field
_MLA_DEFAULTS = {"q_lora_rank": 1536, "kv_lora_rank": 512, "qk_nope_head_dim": 128, "qk_rope_head_dim": 64,
                 "v_head_dim": 128}


@dataclass(frozen=True)
class VisionLayout:
    """A multimodal model_type whose vision tower is counted: its language model's type when text_config does not
    say, the vision encoder and projector (params.VISION_TYPES), the vision config class's defaults (our names ->
    (config names, default)) and the outer config's projector fields."""

    text_type: str
    encoder: str
    projector: str
    vision: dict[str, tuple[tuple[str, ...], Any]]
    outer: dict[str, tuple[tuple[str, ...], Any]] = dataclass_field(default_factory=dict)


def _v(names: str | tuple[str, ...], default: Any) -> tuple[tuple[str, ...], Any]:
    return ((names,) if isinstance(names, str) else names), default


# The vision config classes of transformers 5.24.0 (SiglipVisionConfig, CLIPVisionConfig, PixtralVisionConfig,
# Llama4VisionConfig, Qwen2VLVisionConfig, Qwen2_5_VLVisionConfig) and the projector fields of LlavaConfig /
# Mistral3Config, with their defaults (a published vision_config is written sparse against them).
_VIT = {"hidden_size": _v("hidden_size", 768), "num_hidden_layers": _v("num_hidden_layers", 12),
        "intermediate_size": _v("intermediate_size", 3072), "num_channels": _v("num_channels", 3),
        "image_size": _v("image_size", 224)}
VLM_TYPES: dict[str, VisionLayout] = {
    "gemma3": VisionLayout("gemma3_text", "siglip", "gemma3",
                           {**_VIT, "patch_size": _v("patch_size", 16), "pooling_head": _v("vision_use_head", True)}),
    "llava": VisionLayout("llama", "clip", "llava", {**_VIT, "patch_size": _v("patch_size", 32)},
                          {"projector_bias": _v("multimodal_projector_bias", True),
                           "feature_layers": _v("vision_feature_layer", -2)}),
    "mistral3": VisionLayout("mistral", "pixtral", "mistral3",
                             {"hidden_size": _v("hidden_size", 1024), "num_hidden_layers": _v("num_hidden_layers", 24),
                              "intermediate_size": _v("intermediate_size", 4096), "num_channels": _v("num_channels", 3),
                              "patch_size": _v("patch_size", 16)},
                             {"projector_bias": _v("multimodal_projector_bias", False),
                              "feature_layers": _v("vision_feature_layer", -1),
                              "spatial_merge_size": _v("spatial_merge_size", 2)}),
    "llama4": VisionLayout("llama4_text", "llama4", "llama4",
                           {"hidden_size": _v("hidden_size", 768), "num_hidden_layers": _v("num_hidden_layers", 34),
                            "intermediate_size": _v("intermediate_size", 5632), "num_channels": _v("num_channels", 3),
                            "image_size": _v("image_size", 448), "patch_size": _v("patch_size", 14),
                            "projector_input_dim": _v("projector_input_dim", 4096),
                            "projector_output_dim": _v("projector_output_dim", 4096),
                            "vision_output_dim": _v("vision_output_dim", 7680)}),
    "qwen2_vl": VisionLayout("qwen2_vl_text", "qwen2_vl", "merger",
                             {"hidden_size": _v("embed_dim", 1280), "num_hidden_layers": _v("depth", 32),
                              "mlp_ratio": _v("mlp_ratio", 4), "num_channels": _v(("in_channels", "in_chans"), 3),
                              "patch_size": _v("patch_size", 14), "temporal_patch_size": _v("temporal_patch_size", 2),
                              "spatial_merge_size": _v("spatial_merge_size", 2),
                              "out_hidden_size": _v("hidden_size", 3584)}),
    "qwen2_5_vl": VisionLayout("qwen2_5_vl_text", "qwen2_5_vl", "merger",
                               {"hidden_size": _v("hidden_size", 3584), "num_hidden_layers": _v("depth", 32),
                                "intermediate_size": _v("intermediate_size", 3420),
                                "num_channels": _v(("in_channels", "in_chans"), 3), "patch_size": _v("patch_size", 14),
                                "temporal_patch_size": _v("temporal_patch_size", 2),
                                "spatial_merge_size": _v("spatial_merge_size", 2),
                                "out_hidden_size": _v("out_hidden_size", 3584)}),
}

_ENCODER_DECODER = ("t5", "mt5", "umt5", "longt5", "t5gemma", "bart", "mbart", "marian", "pegasus", "pegasus_x",
                    "led", "blenderbot", "blenderbot-small", "m2m_100", "nllb-moe", "plbart", "fsmt", "prophetnet",
                    "switch_transformers", "bigbird_pegasus", "whisper", "speecht5", "seamless_m4t",
                    "seamless_m4t_v2", "encoder-decoder", "vision-encoder-decoder", "speech-encoder-decoder",
                    "pix2struct", "udop", "moonshine")
_ENCODER_ONLY = ("bert", "roberta", "xlm-roberta", "xlm-roberta-xl", "deberta", "deberta-v2", "distilbert", "albert",
                 "electra", "camembert", "modernbert", "mpnet", "ernie", "xlm", "longformer", "big_bird", "convbert",
                 "funnel", "layoutlm", "layoutlmv2", "layoutlmv3", "megatron-bert", "nomic_bert", "roformer",
                 "squeezebert", "mobilebert", "canine", "esm", "rembert", "xmod", "nystromformer", "ibert")
_VISION_AUDIO = ("vit", "clip", "clip_vision_model", "clip_text_model", "siglip", "siglip_vision_model", "siglip2",
                 "dinov2", "dinov3_vit", "swin", "swinv2", "convnext", "convnextv2", "beit", "deit", "sam", "detr",
                 "resnet", "wav2vec2", "hubert", "wavlm", "whisper_encoder", "blip", "blip-2", "owlvit", "yolos",
                 "mobilevit", "segformer", "vivit", "videomae", "audio-spectrogram-transformer", "clap", "pixtral",
                 "llama4_vision_model", "qwen2_vl_vision", "qwen2_5_vl_vision")
# State-space, recurrent, linear-attention and hybrid mixers (transformers 5.24.0 types and the flash-linear-attention
# ``fla`` types): their state is not a softmax KV cache and their layers are not the decoder counted here.
_NOT_ATTENTION = ("mamba", "mamba2", "falcon_mamba", "falcon_h1", "jamba", "zamba", "zamba2", "rwkv", "rwkv5",
                  "rwkv6", "rwkv7", "recurrent_gemma", "kimi_linear", "olmo_hybrid", "bailing_hybrid",
                  "lfm2", "lfm2_moe", "xlstm", "minimax", "plamo2", "hunyuan_v1_moe", "gla",
                  "retnet", "delta_net", "gated_deltanet", "hgrn", "hgrn2", "rodimus", "mesa_net", "lightnet", "gsa",
                  "abc", "samba")
_MOE_UNREAD = ("dbrx", "jetmoe", "phimoe", "granitemoeshared", "ernie4_5_moe", "deepseek",
               "qwen3_vl_moe", "minimax_m2", "arctic", "grok-1", "bailing_moe", "dots1", "exaone_moe", "flex_olmo",
               "longcat_flash", "aria_text")
# Multimodal types whose vision (or audio) tower is not counted here: refused rather than counted without it.
_TOWER_UNREAD = ("llava_next", "llava_next_video", "llava_onevision", "paligemma", "idefics", "idefics2", "idefics3",
                 "smolvlm", "mllama", "internvl", "phi4_multimodal", "qwen3_vl", "aya_vision", "gemma3n_vision",
                 "got_ocr2", "emu3", "chameleon", "janus", "fuyu", "kosmos-2", "florence2", "qwen2_audio",
                 "qwen2_5_omni", "voxtral", "molmo", "ovis2", "cohere2_vision", "glm4v", "glm4v_moe", "kimi_vl",
                 "qwen3_5", "qwen3_5_moe")   # Qwen3.5's Qwen3-VL tower (its language models alone, qwen3_5_text
#                                              and qwen3_5_moe_text, are read)
# model_type -> why it is refused (the reason is in the answer, shown with the message; ESTIMATOR.md lists them)
UNSUPPORTED_TYPES: dict[str, str] = {
    **{t: "encoder_decoder" for t in _ENCODER_DECODER},
    **{t: "encoder_only" for t in _ENCODER_ONLY},
    **{t: "vision_or_audio" for t in _VISION_AUDIO},
    **{t: "not_attention" for t in _NOT_ATTENTION},
    **{t: "moe_layout" for t in _MOE_UNREAD},
    **{t: "vision_tower" for t in _TOWER_UNREAD},
    # Gemma 3n: per-layer embeddings (a second vocabulary x layers x 256 table), AltUp and LAuReL blocks, key-value
    # sharing across layers, a list of MLP widths, audio and MobileNet towers
    "gemma3n": "per_layer_embeddings", "gemma3n_text": "per_layer_embeddings",
}
# keys that mean a mixture of experts or a non-attention mixer in a config of a type not read here
_MOE_MARKERS = ("num_local_experts", "num_experts", "n_routed_experts", "moe_num_experts", "moe_intermediate_size",
                "num_experts_per_tok", "experts_per_token", "n_shared_experts", "shared_expert_intermediate_size")
_MLA_MARKERS = ("kv_lora_rank", "q_lora_rank", "qk_rope_head_dim", "qk_nope_head_dim")
# keys of a nested block that mean experts (DBRX's ffn_config: moe_num_experts, moe_top_k), beside _MOE_MARKERS
_NESTED_MOE_MARKERS = _MOE_MARKERS + ("moe_top_k",)
# keys of an encoder-decoder's two stacks (BART, Marian, Whisper: encoder_/decoder_layers; T5: num_decoder_layers)
_ENCODER_DECODER_MARKERS = ("encoder_layers", "decoder_layers", "num_decoder_layers", "encoder_attention_heads",
                            "decoder_attention_heads", "encoder_ffn_dim", "decoder_ffn_dim")
# layer_types entries of softmax-attention layers (Gemma 2/3, gpt-oss, Qwen2/3: full or sliding window)
_ATTENTION_LAYERS = frozenset({"full_attention", "sliding_attention", "chunked_attention", "attention"})
_MIXER_MARKERS = ("ssm_cfg", "state_size", "mamba_d_state", "linear_num_key_heads", "full_attention_interval",
                  "attn_layer_indices", "hybrid_override_pattern", "attn_mode", "expand_k", "hidden_size_per_layer_input",
                  "altup_num_inputs", "laurel_rank")
_PER_LAYER_MARKERS = ("hidden_size_per_layer_input", "vocab_size_per_layer_input", "altup_num_inputs", "laurel_rank")
# keys of a second tower a pasted config may carry (a vision or audio encoder beside the language model)
_TOWER_KEYS = ("vision_config", "audio_config", "vision_tower", "visual", "vision_encoder")


class _Reader:
    """A config dict whose reads are recorded, so that what was not read can be reported."""

    def __init__(self, cfg: dict, prefix: str = "") -> None:
        self.cfg = cfg
        self.read: set[str] = set()
        self.prefix = prefix

    def raw(self, name: str) -> Any:
        """The value of ``name`` or of its first alias that is present and not null (None when none is)."""
        if name in self.cfg:
            self.read.add(name)
            v = self.cfg[name]
            if v is not None:
                return v
        for alt in ALIASES.get(name, ()):
            if alt in self.cfg:
                self.read.add(alt)
                if self.cfg[alt] is not None:
                    return self.cfg[alt]
        return None

    def has(self, name: str) -> bool:
        return name in self.cfg or any(a in self.cfg for a in ALIASES.get(name, ()))

    def int(self, name: str, *, default: int | None = None, required: bool = False) -> int | None:
        v = self.raw(name)
        field = f"model.{name}"
        if v is None:
            if required and default is None:
                raise InputError("missing_field", field)
            return default
        if isinstance(v, bool) or not isinstance(v, int):
            raise InputError("wrong_type", field)
        lo, hi = MODEL_LIMITS[name]
        if not lo <= v <= hi:
            raise InputError("out_of_range", field)
        return v

    def bool(self, name: str, default: bool) -> bool:
        v = self.raw(name)
        if v is None:
            return default
        if not isinstance(v, bool):
            raise InputError("wrong_type", f"model.{name}")
        return v

    def ignored(self) -> list[str]:
        """Keys not read; a field of ours left at its empty value (model_json of a dense model) is not news."""
        return [self.prefix + k for k in self.cfg if k not in self.read and k not in _META
                and not (k in ARCH_FIELDS and self.cfg[k] in (None, 0, "") and self.cfg[k] is not True)]


def _refuse_type(cfg: dict, mt: str, prefix: str = "") -> None:
    """unsupported_model for what the estimator cannot count (field model.model_type, or model when no type; the
    field that tells, for what a config of no known type carries), with the reason (UNSUPPORTED_REASONS).
    ``prefix``: where ``cfg`` sits in the pasted config (``text_config.``)."""
    field = "model.model_type" if mt else "model"

    def refuse(reason: str, at: str | None = None) -> None:
        raise InputError("unsupported_model", f"model.{prefix}{at}" if at else field, reason)

    if cfg.get("is_encoder_decoder") is True:
        refuse("encoder_decoder")
    if mt in UNSUPPORTED_TYPES:
        refuse(UNSUPPORTED_TYPES[mt])
    if any(k in cfg for k in _PER_LAYER_MARKERS):
        refuse("per_layer_embeddings")                        # Gemma 3n under another name
    layer_types = cfg.get("layer_types")
    if layer_types is not None and (not isinstance(layer_types, list)
                                    or any(not isinstance(t, str) for t in layer_types)):
        raise InputError("wrong_type", f"model.{prefix}layer_types")     # a list of layer kinds ("mamba" is none)
    # the one linear mixer this type's reader knows (model_json writes a hybrid with our linear_attention_layers)
    mixer = HYBRID_TYPES[mt][0] if mt in HYBRID_TYPES else "mamba" if mt in MAMBA_TYPES or cfg.get("mamba_layers") \
        else "linear_attention" if cfg.get("linear_attention_layers") else None
    if mt == "nemotron_h":
        pass                                                  # its blocks are read by _blocks, each kind checked
    elif isinstance(layer_types, list) and any(t not in _ATTENTION_LAYERS and t != mixer for t in layer_types):
        refuse("not_attention")                               # mamba / conv / linear-attention layers not read here
    if mixer is None and any(k in cfg and not (k in ARCH_FIELDS and cfg[k] in (0, None)) for k in _MIXER_MARKERS):
        refuse("not_attention")                               # (model_json's zeros of a model without them)
    if isinstance(cfg.get("intermediate_size"), list):
        refuse("per_layer_embeddings" if "altup_num_inputs" in cfg else "moe_layout")   # a width per layer
    if "vision_config" in cfg and "text_config" not in cfg and not any(
            k in cfg for k in ("hidden_size",) + ALIASES["hidden_size"]):
        refuse("vision_or_audio")                             # a vision tower with no language model to count
    if mt not in VLM_TYPES and any(k in cfg for k in _TOWER_KEYS):
        refuse("vision_tower")                                # a tower beside the language model, not counted
    if mt not in MODEL_TYPES and mt not in VLM_TYPES:
        # a config of no known type is read as a Llama-like dense decoder only when nothing says it is not one: the
        # two stacks of an encoder-decoder, or experts in a nested block (DBRX's ffn_config), named where they are
        told = next((k for k in _ENCODER_DECODER_MARKERS if cfg.get(k) not in (None, 0, False)), None)
        if told is not None:
            refuse("encoder_decoder", told)
        for key, block in cfg.items():
            if isinstance(block, dict) and key not in ("text_config",) + _TOWER_KEYS:
                told = next((k for k in _NESTED_MOE_MARKERS if block.get(k) not in (None, 0, False)), None)
                if told is not None:
                    refuse("moe_layout", f"{key}.{told}")
    if mt and mt not in MODEL_TYPES and mt not in VLM_TYPES:
        # an unknown type is read as a Llama-like dense decoder only when nothing says it is not one
        if any(cfg.get(k) not in (None, 0, False) for k in _MOE_MARKERS + _MLA_MARKERS):
            refuse("moe_layout")
    elif mt in MODEL_TYPES and not MODEL_TYPES[mt].mla and any(cfg.get(k) not in (None, 0) for k in ("kv_lora_rank",)):
        refuse("moe_layout")


def _dense_layers(r: _Reader, L: int, experts: int, td: TypeDefaults) -> tuple[int, int]:
    """(first_k_dense_replace, moe_layer_step) of the MoE stack: DeepSeek's ``first_k_dense_replace`` (our own field
    too) and ``moe_layer_freq`` (MoE when ``idx >= first_k and idx % freq == 0``), Qwen-MoE's ``mlp_only_layers`` and
    ``decoder_sparse_step``, Llama 4's ``interleave_moe_layer_step`` (MoE when ``(idx + 1) % step == 0``) or its
    explicit ``moe_layers``. A pattern that is not "the first k dense, then every step-th" is kept as its count of
    MoE layers (the first layers dense, step 1): the same parameters."""
    if not experts:
        return 0, 1
    dflt = {} if td.given_only else td.fields
    first_k = r.int("first_k_dense_replace", default=dflt.get("first_k_dense_replace", 0)) or 0
    if first_k > L:
        raise InputError("out_of_range", "model.first_k_dense_replace")
    freq = r.int("moe_layer_freq", default=1) or 1
    step = r.int("moe_layer_step", default=dflt.get("moe_layer_step", 1)) or 1
    only = r.raw("mlp_only_layers")
    listed = r.raw("moe_layers") if td.layout == "llama4" else None
    for name, value in (("mlp_only_layers", only), ("moe_layers", listed)):
        if value is not None and (not isinstance(value, list)
                                  or any(isinstance(x, bool) or not isinstance(x, int) for x in value)):
            raise InputError("wrong_type", f"model.{name}")
    if listed is not None:                                    # Llama4TextConfig: an explicit list wins
        moe = len({x for x in listed if 0 <= x < L})
        return L - moe, 1
    dense_set = set(only or [])
    moe = sum(1 for idx in range(L)
              if idx >= first_k and idx % freq == 0 and idx not in dense_set and (idx + 1) % step == 0)
    pattern = sum(1 for idx in range(first_k, L) if (idx + 1) % step == 0)
    if moe == pattern and freq == 1:
        return first_k, step
    return L - moe, 1


def _catalogue_model(value: str) -> ModelArch:
    """A catalogue id or a Hugging Face repo id (any case, with or without the huggingface.co address), a derivative
    of one (a weight-format suffix) or a repo name without its owner (``catalog.resolve``): the entry; a repo the
    estimator refuses (Gemma 3n, Qwen3-Next) or a weight format it does not model (AWQ, GPTQ, GGUF): unsupported_model
    with its reason; a name without its owner that several entries carry: ambiguous_model with the candidates."""
    m = MODELS.get(value)
    if m is not None:
        return m
    key = repo_key(value)
    if key in REFUSED_MODELS:
        raise InputError("unsupported_model", "model", REFUSED_MODELS[key])
    found = resolve(value)
    if found is None:
        if not is_hub_id(key):          # not even shaped like an id: said so (vocab.MODEL_ID_REASONS)
            raise InputError("unknown_model", "model", "not_a_hub_id")
        raise InputError("unknown_model", "model")
    if found.weight_format in REFUSED_FORMATS:
        raise InputError("unsupported_model", "model", REFUSED_FORMATS[found.weight_format])
    if not found.model:
        raise InputError("ambiguous_model", "model", candidates=found.candidates)
    return MODELS[found.model]


def _vision_params(outer: dict, layout: VisionLayout, text_hidden: int) -> int:
    """The vision tower's parameters from the config's vision_config (each missing field its class default)."""
    vc = outer.get("vision_config")
    if vc is None:
        vc = {}
    if not isinstance(vc, dict):
        raise InputError("not_an_object", "model.vision_config")

    def get(src: dict, prefix: str, names: tuple[str, ...], default: Any) -> Any:
        for n in names:
            if src.get(n) is not None:
                v = src[n]
                if isinstance(default, bool):
                    if not isinstance(v, bool):
                        raise InputError("wrong_type", f"model.{prefix}{n}")
                    return v
                if n == "vision_feature_layer":               # one layer (an int) or a list of layers concatenated
                    if isinstance(v, list) and v and all(isinstance(x, int) and not isinstance(x, bool) for x in v):
                        return len(v)
                    if isinstance(v, int) and not isinstance(v, bool):
                        return 1
                    raise InputError("wrong_type", f"model.{prefix}{n}")
                if isinstance(v, bool) or not isinstance(v, int):
                    raise InputError("wrong_type", f"model.{prefix}{n}")
                if not 1 <= v <= 1_000_000:
                    raise InputError("out_of_range", f"model.{prefix}{n}")
                return v
        return 1 if names == ("vision_feature_layer",) else default

    kw: dict[str, Any] = {name: get(vc, "vision_config.", names, d) for name, (names, d) in layout.vision.items()}
    kw.update({name: get(outer, "", names, d) for name, (names, d) in layout.outer.items()})
    if "mlp_ratio" in kw:                                     # Qwen2-VL: the MLP width is embed_dim x mlp_ratio
        kw["intermediate_size"] = kw["hidden_size"] * kw.pop("mlp_ratio")
    if kw.pop("pooling_head", False):
        raise InputError("unsupported_model", "model.vision_config", "vision_tower")   # SigLIP's pooling head
    tower = VisionTower(encoder=layout.encoder, projector=layout.projector, text_hidden_size=text_hidden, **kw)
    return vision_tower_params(tower)


@dataclass
class _Parse:
    """One pasted config being read: its top level (``outer``) and where its language model sits (``r``: the top
    level or its ``text_config``), its model_type and that type's defaults, and the ModelArch fields read so far
    (``got``; a later step may use an earlier one's)."""

    value: dict
    outer: _Reader
    r: _Reader
    nested: bool
    layout: VisionLayout | None
    mt: str
    td: TypeDefaults
    got: dict[str, Any] = dataclass_field(default_factory=dict)
    expert_width: int | None = None           # Llama 4's intermediate_size: the experts' and the shared expert's
    blocks: dict[str, int] | None = None      # Nemotron-H's blocks by kind (_blocks); None: layers of mixer + MLP

    @property
    def cls(self) -> dict[str, Any]:
        """The class defaults a missing field takes (none for a type that is not a transformers class)."""
        return {} if self.td.given_only else self.td.fields

    @property
    def generic(self) -> bool:
        """A config of no type read here: its experts and latent attention are read when given, never assumed."""
        return self.mt not in MODEL_TYPES

    @property
    def llama4(self) -> bool:
        """Llama 4's own names (model_json writes ours, with moe_intermediate_size, read as any MoE's)."""
        return self.td.layout == "llama4" and not self.r.has("moe_intermediate_size")

    def read(self, name: str, default: Any = None, required: bool = False) -> Any:
        """Field ``name`` of the language model, read and checked by its kind (``FIELD_KINDS``)."""
        return FIELDS[name].field_kind.read(self.r, name, default, required)

    def set(self, name: str, default: Any = None, required: bool = False) -> Any:
        """``read`` kept as the architecture's field ``name``."""
        self.got[name] = self.read(name, default, required)
        return self.got[name]


def _open(value: dict) -> _Parse:
    """Where the language model sits (a multimodal config nests it in text_config), its model_type, and the
    refusals of what the estimator cannot count (``_refuse_type``)."""
    outer = _Reader(value)
    outer_type = value.get("model_type") if isinstance(value.get("model_type"), str) else ""
    layout = VLM_TYPES.get(outer_type)
    r = outer
    nested = not outer.has("hidden_size") and "text_config" in value
    if nested:
        tc = value["text_config"]
        if not isinstance(tc, dict):
            raise InputError("not_an_object", "model.text_config")
        r = _Reader(tc, "text_config.")              # multimodal configs nest the language model
    if nested:
        mt_raw = r.cfg.get("model_type", layout.text_type if layout else outer_type or None)
    else:
        mt_raw = r.cfg.get("model_type")
    if mt_raw is not None and not isinstance(mt_raw, str):
        raise InputError("wrong_type", "model.model_type")
    mt = mt_raw or ""
    _refuse_type(value, outer_type)
    if nested:
        _refuse_type(r.cfg, mt, "text_config.")
    if layout is not None and not nested and mt == outer_type and outer_type not in MODEL_TYPES:
        raise InputError("missing_field", "model.text_config")   # a multimodal config without its language model
    return _Parse(value, outer, r, nested, layout, mt, MODEL_TYPES.get(mt, _BASE))


def _shape(p: _Parse) -> None:
    """The required fields (a nested text_config is written sparse against its class: they take the class defaults
    there) and the key/value heads (``multi_query``: one; else one per attention head)."""
    nested = p.cls if p.nested else {}
    for name in REQUIRED_FIELDS:
        p.set(name, default=nested.get(name), required=True)
    kv = p.read("num_key_value_heads", default=nested.get("num_key_value_heads"))
    if kv is None:
        kv = 1 if p.r.raw("multi_query") is True else p.got["num_attention_heads"]
    p.got["num_key_value_heads"] = kv


def _widths(p: _Parse) -> None:
    """The MLP width (Llama 4: its dense layers' intermediate_size_mlp; its intermediate_size is the experts') and
    head_dim."""
    if p.llama4:
        p.expert_width = p.read("intermediate_size", default=p.cls.get("intermediate_size"))
        i = p.read("intermediate_size_mlp", default=p.cls.get("intermediate_size_mlp"))
    else:
        i = p.read("intermediate_size", default=p.cls.get("intermediate_size"))
    if i is None:
        if not p.td.ffn_4h:
            raise InputError("missing_field", "model.intermediate_size")   # no class default to take
        i = 4 * p.got["hidden_size"]                 # GPT-2 n_inner null / Falcon / BLOOM / MPT: 4·hidden
    p.got["intermediate_size"] = i
    p.set("head_dim", default=p.cls.get("head_dim"))


def _qk_norm_default(p: _Parse) -> str:
    """GLM-4.5's use_qk_norm switches q/k norms over head_dim on; else the type's own."""
    return "head" if p.td.qk_norm_flag and p.r.bool("use_qk_norm", False) else p.td.qk_norm


#: Fields every decoder has, each with the default its model_type implies when the config does not say, read in this
#: order (a default may use a field read before it: o_proj's bias follows the attention bias in Llama-style code).
TYPE_DEFAULTS: tuple[tuple[str, Callable[[_Parse], Any]], ...] = (
    ("tie_word_embeddings", lambda p: p.td.tie),
    ("mlp_gated", lambda p: p.td.gated),
    ("attention_bias", lambda p: p.td.qkv_bias),
    ("o_proj_bias", lambda p: p.got["attention_bias"] if p.td.o_bias_follows else False),
    ("mlp_bias", lambda p: p.td.mlp_bias),
    ("attention_sinks", lambda p: p.td.sinks),
    ("norms_per_layer", lambda p: p.td.norms),
    ("activation_params", lambda p: p.td.act_params),
    ("qk_norm", _qk_norm_default),
)


def _type_defaults(p: _Parse) -> None:
    if p.td.layout == "llama4":
        p.r.raw("use_qk_norm")                       # Llama4TextL2Norm: no weights
    for name, default in TYPE_DEFAULTS:
        p.set(name, default=partial(default, p))


#: A model without experts (and what model_json writes for one: nothing to report as ignored).
_NO_EXPERTS: dict[str, Any] = {"num_local_experts": 0, "num_experts_per_tok": 0, "moe_intermediate_size": None,
                               "shared_expert_intermediate_size": 0, "shared_expert_gate": False, "router_bias": False,
                               "first_k_dense_replace": 0, "moe_layer_step": 1}


def _experts(p: _Parse) -> None:
    """A mixture of experts, read for MoE types and for configs without a type (a known dense type's class ignores
    expert fields, so they are reported as ignored); a missing field takes the class default (none for Kimi K2)."""
    td = p.td
    p.got.update(_NO_EXPERTS)
    if p.blocks is not None and not p.blocks["moe"]:
        _no_moe_blocks(p)
        return
    E = (p.read("num_local_experts", default=p.cls.get("num_local_experts") if td.moe else None, required=td.moe)
         or 0) if td.moe or p.generic else 0
    if td.moe and not E and p.mt != "granitemoehybrid" and not (p.mt == "nemotron_h" and p.blocks is None):
        # (Granite 4.0-H without experts: _granite_dense; Nemotron-H's own mlp_blocks without experts: dense)
        raise InputError("out_of_range", "model.num_local_experts")   # an MoE type with no experts: never dense
    if not E:
        _no_experts(p)
        return
    k = p.read("num_experts_per_tok", default=p.cls.get("num_experts_per_tok")) or 0
    if not k:
        raise InputError("missing_field", "model.num_experts_per_tok")
    if k > E:
        raise InputError("contradiction", "model.num_experts_per_tok")
    p.got.update(num_local_experts=E, num_experts_per_tok=k)
    _expert_widths(p)
    p.set("shared_expert_gate", default=td.shared_gate and p.got["shared_expert_intermediate_size"] > 0)
    p.set("router_bias", default=td.router_bias)
    if td.given_only and not p.r.has("first_k_dense_replace"):
        raise InputError("missing_field", "model.first_k_dense_replace")
    p.got["first_k_dense_replace"], p.got["moe_layer_step"] = _dense_layers(p.r, p.got["num_hidden_layers"], E, td)


def _expert_widths(p: _Parse) -> None:
    """The experts' width and the shared experts' (DeepSeek: n_shared_experts MLPs of the experts' width)."""
    if p.llama4:
        p.got["moe_intermediate_size"] = p.expert_width     # experts and the shared expert: intermediate_size
        p.got["shared_expert_intermediate_size"] = p.expert_width or 0
        p.r.read.add("shared_expert_intermediate_size")
        return
    moe_i = p.set("moe_intermediate_size", default=p.cls.get("moe_intermediate_size"), required=p.td.given_only)
    shared = p.read("shared_expert_intermediate_size", default=p.cls.get("shared_expert_intermediate_size", 0)) or 0
    ours = p.r.has("shared_expert_intermediate_size")     # model_json's own name: no class default on top
    n_shared = p.read("n_shared_experts", default=0 if ours else p.cls.get("n_shared_experts", 0),
                      required=p.td.given_only and not ours) or 0
    if n_shared and not p.td.shared_counted:
        shared += n_shared * (moe_i or p.got["intermediate_size"])   # DeepSeek: one MLP of n_shared × moe width
    p.got["shared_expert_intermediate_size"] = shared


def _no_moe_blocks(p: _Parse) -> None:
    """A block stack without MoE blocks (Nemotron-H 8B, Nano v2): its config class's expert fields build nothing;
    they are read (not news), the model is dense."""
    for name in ("num_local_experts", "num_experts_per_tok", "moe_intermediate_size",
                 "shared_expert_intermediate_size", "n_shared_experts", "router_bias", "first_k_dense_replace"):
        p.r.raw(name)


def _blocks(p: _Parse) -> None:
    """Nemotron-H's stack of one-part blocks (NemotronHBlock: one RMSNorm and one of a Mamba-2 mixer, attention, an
    MLP or a MoE), from ``layers_block_type`` (``layer_types``) or ``hybrid_override_pattern`` (its class default
    without either); the stack's length is the list's, as NemotronHConfig.num_hidden_layers is. A block kind
    this reader does not know is refused naming it; latent experts (moe_latent_size) are refused (``moe_layout``).
    ``mlp_blocks`` of our own (model_json) is read for any type: the custom form's round trip."""
    p.got["mlp_blocks"] = p.read("mlp_blocks", default=0) or 0
    if p.mt != "nemotron_h" or p.r.has("mlp_blocks"):
        return
    listed = p.r.raw("layers_block_type")
    listed = p.r.raw("layer_types") if listed is None else listed
    pattern = p.r.raw("hybrid_override_pattern")
    if listed is not None:
        field, kinds = "layers_block_type", listed
        if not isinstance(kinds, list) or any(not isinstance(k, str) for k in kinds):
            raise InputError("wrong_type", f"model.{field}")
    elif pattern is not None:
        field, kinds = "hybrid_override_pattern", pattern
        if not isinstance(kinds, str):
            raise InputError("wrong_type", f"model.{field}")
    else:
        field, kinds = "layers_block_type", list(_NEMOTRON_DEFAULT)
    if not kinds:
        raise InputError("out_of_range", f"model.{field}")
    if any(k not in NEMOTRON_BLOCKS for k in kinds):
        raise InputError("unsupported_model", f"model.{field}", "not_attention")   # a block kind not read here
    if len(kinds) > MODEL_LIMITS["num_hidden_layers"][1]:
        raise InputError("out_of_range", f"model.{field}")
    if p.read("moe_latent_size") is not None:
        raise InputError("unsupported_model", "model.moe_latent_size", "moe_layout")
    p.blocks = {kind: 0 for kind in ("mamba", "attention", "mlp", "moe")}
    for k in kinds:
        p.blocks[NEMOTRON_BLOCKS[k]] += 1
    p.got["num_hidden_layers"] = len(kinds)
    p.got["mlp_blocks"] = p.blocks["mlp"] + p.blocks["moe"]
    # the MoE blocks counted from the first (dense) MLP blocks on: moe_layers gives mlp_blocks - first_k_dense_replace
    p.r.read.add("first_k_dense_replace")


def _moe_blocks_first(p: _Parse) -> None:
    """Nemotron-H's MoE blocks as moe_layers counts them: every MLP block but the dense ones."""
    if p.blocks is not None and p.got["num_local_experts"]:
        p.got["first_k_dense_replace"], p.got["moe_layer_step"] = p.blocks["mlp"], 1


def _no_experts(p: _Parse) -> None:
    if p.td.moe or p.generic:
        if p.read("num_experts_per_tok"):
            raise InputError("contradiction", "model.num_experts_per_tok")
    for name in ("moe_layer_step", "first_k_dense_replace", "router_bias", "shared_expert_gate",
                 "shared_expert_intermediate_size", "moe_intermediate_size"):
        if p.r.cfg.get(name) in (None, 0, 1, False) and name in p.r.cfg:
            p.r.read.add(name)                       # model_json's values of a dense model: nothing to report


def _latent_attention(p: _Parse) -> None:
    """Multi-head latent attention (DeepSeek's MLA; a missing field its class's default, none for Kimi K2); without
    it, the heads must group and divide the width."""
    td = p.td
    mla: dict[str, int | None] = {name: None for name in _MLA_DEFAULTS}
    dflt = _MLA_DEFAULTS if td.mla and not td.given_only else {}
    kv_lora = p.read("kv_lora_rank", default=dflt.get("kv_lora_rank"), required=td.given_only) \
        if td.mla or p.generic else None
    if kv_lora:
        q_present = p.r.has("q_lora_rank")
        mla["q_lora_rank"] = p.read("q_lora_rank", default=None if q_present else dflt.get("q_lora_rank"),
                                    required=td.given_only and not q_present)
        mla["kv_lora_rank"] = kv_lora
        for name in ("qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim"):
            mla[name] = p.read(name, default=dflt.get(name), required=True)
        if not (mla["qk_nope_head_dim"] or 0) + (mla["qk_rope_head_dim"] or 0):
            raise InputError("out_of_range", "model.qk_rope_head_dim")
    else:
        for name in ("kv_lora_rank", "q_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim"):
            if p.r.cfg.get(name, 0) in (None, 0):
                p.r.read.add(name)                   # model_json's "no MLA" values: read, nothing to report
        h, a, kv = (p.got[n] for n in ("hidden_size", "num_attention_heads", "num_key_value_heads"))
        if kv > a or a % kv:
            raise InputError("contradiction", "model.num_key_value_heads")
        if p.got["head_dim"] is None and h % a:
            raise InputError("contradiction", "model.num_attention_heads")
    p.got.update(q_lora_rank=mla["q_lora_rank"], kv_lora_rank=mla["kv_lora_rank"],
                 **{n: mla[n] or 0 for n in ("qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim")})


def _vision(p: _Parse) -> None:
    """A vision tower: counted from vision_config for the multimodal types read here (our own vision_params field
    when model_json wrote the model back)."""
    vision = 0
    if p.layout is not None:
        vision = _vision_params(p.value, p.layout, p.got["hidden_size"])
        p.outer.read.update(k for k in ("vision_config",) + tuple(n for names, _d in p.layout.outer.values()
                                                                   for n in names) if k in p.value)
    p.got["vision_params"] = p.read("vision_params", default=vision) or 0


#: The steps of reading a pasted config, in order; each reads its fields into ``_Parse.got``. A new part of an
#: architecture is a step here (and its fields in MODEL_FIELDS); a field with a per-type default, a row of
#: TYPE_DEFAULTS.
def _hybrid(p: _Parse) -> None:
    """The linear-attention (Gated DeltaNet) or Mamba-2 layers of a hybrid: _linear_layers, _mamba_layers."""
    L, h = p.got["num_hidden_layers"], p.got["hidden_size"]
    mamba = p.blocks["mamba"] if p.blocks is not None else None
    p.got.update({**_linear_layers(p.r, p.mt, L), **_mamba_layers(p.r, p.mt, L, h, mamba)})


STEPS: tuple[Callable[[_Parse], None], ...] = (_shape, _widths, _type_defaults, _blocks, _experts, _moe_blocks_first,
                                               _latent_attention, _vision, _hybrid)


def _arch(p: _Parse) -> ModelArch:
    """The architecture read, named, checked against the largest model counted, with the keys left unread."""
    name = p.r.raw("name")
    if not isinstance(name, str) or not name:
        name = p.outer.raw("name")
    arch = ModelArch(id="custom", name=name[:200] if isinstance(name, str) and name else "Custom model",
                     family="Custom", model_type=p.mt[:100], **p.got)
    if p.mt == "granitemoehybrid" and not arch.num_local_experts:
        arch = _granite_dense(arch, p.r, p.mt)
    L = arch.num_hidden_layers
    if arch.linear_attention_layers + arch.mamba_layers > L:
        raise InputError("contradiction", "model.mamba_layers")
    if arch.mlp_blocks >= L or arch.linear_attention_layers + arch.mamba_layers + arch.mlp_blocks > L:
        raise InputError("contradiction", "model.mlp_blocks")
    if (arch.linear_attention_layers or arch.mamba_layers) and 0 < moe_layers(arch) < L and not arch.mlp_blocks:
        # which layers are linear and which MoE is not kept: a stack mixing both kinds of MLP is not counted
        raise InputError("unsupported_model", "model.mlp_only_layers", "moe_layout")
    if count_params(arch).total > MAX_PARAMS:
        raise InputError("too_large", "model")
    ignored = p.outer.ignored() + (p.r.ignored() if p.r is not p.outer else [])
    return replace(arch, ignored_fields=tuple(sorted(str(k)[:100] for k in ignored)[:500]))


def parse_model(value: Any) -> ModelArch:
    """A catalogue id (or one of its Hugging Face repo ids), or a pasted HF config.json object (common aliases
    accepted, each missing field its config class's default, unread keys reported): read by ``STEPS``."""
    if isinstance(value, str):
        return _catalogue_model(value)
    if not isinstance(value, dict):
        raise InputError("not_an_object", "model")
    p = _open(value)
    for step in STEPS:
        step(p)
    return _arch(p)


_LINEAR_FIELDS = ("linear_num_key_heads", "linear_num_value_heads", "linear_key_head_dim", "linear_value_head_dim",
                  "linear_conv_kernel_dim")


def _linear_layers(r: _Reader, mt: str, L: int) -> dict[str, Any]:
    """The linear-attention layers of a hybrid (HYBRID_TYPES, or our own ``linear_attention_layers`` as model_json
    writes it): how many (``layer_types``' entries of the mixer, else every layer but each
    ``full_attention_interval``-th), the mixer's widths (each missing one its class default) and the gated attention
    of the others. {} for a model without them."""
    mixer, dflt, interval = HYBRID_TYPES.get(mt, ("", {}, 0))
    ours = r.int("linear_attention_layers")
    if not mixer and not ours:
        for name in _LINEAR_FIELDS + ("attn_output_gate",):
            if r.cfg.get(name) in (0, False) and name in r.cfg:
                r.read.add(name)                          # model_json's values of a model without them
        return {}
    types = r.raw("layer_types")
    if ours is not None:
        n = ours
    elif isinstance(types, list):
        if len(types) != L:
            raise InputError("contradiction", "model.layer_types")
        n = types.count(mixer)
    else:
        every = r.int("full_attention_interval", default=interval) or interval
        n = sum(1 for i in range(L) if (i + 1) % every)
    if n > L:
        raise InputError("contradiction", "model.linear_attention_layers")
    out: dict[str, Any] = {"linear_attention_layers": n, "attn_output_gate": r.bool("attn_output_gate", bool(mixer))}
    for name in _LINEAR_FIELDS:
        out[name] = r.int(name, default=dflt.get(name), required=n > 0) or 0
        if n and not out[name]:
            raise InputError("out_of_range", f"model.{name}")
    if n and out["linear_num_value_heads"] % out["linear_num_key_heads"]:
        raise InputError("contradiction", "model.linear_num_value_heads")   # value heads grouped over key heads
    return out


_MAMBA_FIELDS = ("mamba_n_heads", "mamba_n_groups", "mamba_d_state", "mamba_d_conv")


def _mamba_layers(r: _Reader, mt: str, L: int, h: int, blocks: int | None = None) -> dict[str, Any]:
    """The Mamba-2 layers of a hybrid (MAMBA_TYPES, or our own ``mamba_layers`` as model_json writes it): how many
    (``layer_types`` / ``layers_block_type`` entries "mamba"; Bamba's layers outside ``attn_layer_indices``; every
    layer when neither is given, as both classes build them) and the mixer's fields, each missing one its class
    default (``mamba_d_head`` "auto": ``mamba_expand`` x hidden_size / heads, where the class has no head width of its
    own); ``blocks``: Nemotron-H's Mamba-2 blocks, counted by _blocks. {} for a model without them."""
    dflt = MAMBA_TYPES.get(mt)
    ours = r.int("mamba_layers")
    if dflt is None and not ours:
        for name in _MAMBA_FIELDS + ("mamba_d_head", "mamba_conv_bias", "mamba_proj_bias", "mamba_chunk_size"):
            if r.cfg.get(name) in (0, False) and name in r.cfg:
                r.read.add(name)                          # model_json's values of a model without them
        return {}
    dflt = dflt or {}
    if ours is not None:
        n = ours
    elif blocks is not None:
        n = blocks
    else:
        types = r.raw("layer_types")
        types = r.raw("layers_block_type") if types is None else types
        indices = r.raw("attn_layer_indices")
        if isinstance(types, list):
            if len(types) != L:
                raise InputError("contradiction", "model.layer_types")
            n = types.count("mamba")
        elif isinstance(indices, list):
            if any(isinstance(i, bool) or not isinstance(i, int) for i in indices):
                raise InputError("wrong_type", "model.attn_layer_indices")
            n = L - len({i for i in indices if 0 <= i < L})
        elif indices is None:
            n = L
        else:
            raise InputError("wrong_type", "model.attn_layer_indices")
    out: dict[str, Any] = {"mamba_layers": n}
    for name in _MAMBA_FIELDS:
        out[name] = r.int(name, default=dflt.get(name), required=n > 0) or 0
        if n and not out[name]:
            raise InputError("out_of_range", f"model.{name}")
    raw_head = r.raw("mamba_d_head")
    if raw_head is None and "mamba_d_head" in dflt:
        raw_head = dflt["mamba_d_head"]
    if raw_head in (None, "auto"):
        expand = r.int("mamba_expand", default=dflt.get("mamba_expand", 2)) or 2
        inner = expand * h
        if n and inner % out["mamba_n_heads"]:
            raise InputError("contradiction", "model.mamba_n_heads")     # the heads must divide the inner width
        out["mamba_d_head"] = inner // out["mamba_n_heads"] if n else 0
    else:
        out["mamba_d_head"] = r.int("mamba_d_head", default=dflt.get("mamba_d_head")) or 0
    if n and out["mamba_n_heads"] % out["mamba_n_groups"]:
        raise InputError("contradiction", "model.mamba_n_groups")
    out["mamba_chunk_size"] = r.int("mamba_chunk_size", default=dflt.get("mamba_chunk_size")) or 0
    out["mamba_conv_bias"] = r.bool("mamba_conv_bias", bool(dflt.get("mamba_conv_bias", False)))
    out["mamba_proj_bias"] = r.bool("mamba_proj_bias", bool(dflt.get("mamba_proj_bias", False)))
    return out


def _granite_dense(arch: ModelArch, r: _Reader, mt: str) -> ModelArch:
    """Granite 4.0's layers without experts (GraniteMoeHybridDecoderLayer with num_local_experts 0): the shared
    MLP of shared_intermediate_size is the layer's only MLP; intermediate_size is then not built."""
    if "shared_intermediate_size" not in r.cfg and "shared_expert_intermediate_size" in r.cfg:
        return arch                                   # model_json's own form: intermediate_size is that MLP already
    shared = r.int("shared_expert_intermediate_size", default=MODEL_TYPES[mt].fields.get(
        "shared_expert_intermediate_size")) or 0
    if not shared:
        raise InputError("out_of_range", "model.shared_expert_intermediate_size")
    return replace(arch, intermediate_size=shared, shared_expert_intermediate_size=0)


def unknown_type(m: ModelArch) -> bool:
    """A pasted config that names a model_type this reader does not know ("0", a typo): read as a generic decoder,
    from what it says alone; the answer's note ``model_type_unknown`` says so (issue 42, point 8). A config without
    a type, and the catalogue's entries, name none."""
    return bool(m.model_type) and m.model_type not in MODEL_TYPES


def model_json(m: ModelArch) -> dict[str, Any]:
    """The architecture as a config object: every field the estimator uses under its config name (feeding it back
    as ``model`` gives the same estimate), then ``ignored_fields``: what a pasted config had that was not read."""
    out: dict[str, Any] = {"id": m.id, "name": m.name}
    for f in ARCH_FIELDS:
        out[f] = getattr(m, f)
    out["ignored_fields"] = list(m.ignored_fields)
    return out
