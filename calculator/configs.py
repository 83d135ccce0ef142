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

from dataclasses import dataclass, replace
from typing import Any

from .catalog import MODELS
from .errors import InputError
from .params import count_params
from .models import ModelArch

__all__ = ["parse_model", "model_json", "ModelField", "MODEL_FIELDS", "READ_ONLY_FIELDS", "MODEL_LIMITS", "MAX_PARAMS",
           "ALIASES", "MODEL_TYPES", "UNSUPPORTED_TYPES", "ARCH_FIELDS", "REQUIRED_FIELDS", "QK_NORMS",
           "MODEL_FIELD_KINDS"]


@dataclass(frozen=True)
class ModelField:
    """One config.json field the estimator reads: how a config writes it and the form's custom architecture edits
    it (``kind``: int, int_or_null (null: the documented fallback), bool, enum, string), its limits (``out_of_range``
    outside), whether a config must give it, its other names in other families' configs, an enum's choices."""

    name: str
    kind: str = "int"
    low: int | None = None
    high: int | None = None
    required: bool = False
    aliases: tuple[str, ...] = ()
    choices: tuple[str, ...] = ()


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
    ModelField("intermediate_size", low=1, high=10_000_000, aliases=("n_inner", "ffn_hidden_size", "ffn_dim", "d_ff")),
    ModelField("vocab_size", low=1, high=100_000_000, required=True),
    ModelField("tie_word_embeddings", "bool"),
    ModelField("mlp_gated", "bool"),
    ModelField("attention_bias", "bool", aliases=("qkv_bias",)),
    ModelField("o_proj_bias", "bool"),
    ModelField("mlp_bias", "bool"),
    ModelField("qk_norm", "enum", choices=("", "head", "full")),
    ModelField("attention_sinks", "bool"),
    ModelField("num_local_experts", low=0, high=100_000, aliases=("num_experts", "n_routed_experts", "moe_num_experts")),
    ModelField("num_experts_per_tok", low=0, high=100_000, aliases=("experts_per_token",)),
    ModelField("moe_intermediate_size", "int_or_null", low=1, high=10_000_000),
    ModelField("shared_expert_intermediate_size", low=0, high=100_000_000),
    ModelField("shared_expert_gate", "bool"),
    ModelField("first_k_dense_replace", low=0, high=10_000),
    ModelField("router_bias", "bool"),
    ModelField("q_lora_rank", "int_or_null", low=1, high=1_000_000),
    ModelField("kv_lora_rank", "int_or_null", low=1, high=1_000_000),
    ModelField("qk_nope_head_dim", low=0, high=100_000),
    ModelField("qk_rope_head_dim", low=0, high=100_000),
    ModelField("v_head_dim", low=1, high=100_000),
)
#: Config fields read only to compute others (the layer pattern of an MoE stack, DeepSeek's shared experts).
READ_ONLY_FIELDS: tuple[ModelField, ...] = (
    ModelField("decoder_sparse_step", low=1, high=10_000),
    ModelField("moe_layer_freq", low=1, high=10_000),
    ModelField("n_shared_experts", low=0, high=100_000),
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
QK_NORMS: tuple[str, ...] = next(f.choices for f in MODEL_FIELDS if f.name == "qk_norm")
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
    experts_per_tok: int | None = None   # the class's num_experts_per_tok default (MoE types)
    moe: bool = False                 # the estimator reads this type's MoE fields
    mla: bool = False                 # multi-head latent attention with the DeepseekV2Config defaults below


# Read from each config class of transformers 5.24.0 (``CONFIG_MAPPING[t]().tie_word_embeddings`` etc.) and its
# modelling code (which linears carry biases, q/k norms, sinks, routers). Types not listed take the
# PretrainedConfig base defaults (tied embeddings, no biases) and are read as Llama-like dense decoders.
MODEL_TYPES: dict[str, TypeDefaults] = {
    "llama": TypeDefaults(tie=False),
    "mistral": TypeDefaults(tie=False),
    "ministral": TypeDefaults(tie=False),
    "mixtral": TypeDefaults(tie=False, experts_per_tok=2, moe=True),
    "qwen2": TypeDefaults(tie=False, qkv_bias=True, o_bias_follows=False),            # Qwen2Attention: q/k/v bias
    "qwen2_moe": TypeDefaults(tie=False, qkv_bias=True, o_bias_follows=False, shared_gate=True, experts_per_tok=4,
                              moe=True),
    "qwen3": TypeDefaults(tie=False, qk_norm="head"),
    "qwen3_moe": TypeDefaults(tie=False, qk_norm="head", experts_per_tok=8, moe=True),
    "gemma": TypeDefaults(tie=True),
    "gemma2": TypeDefaults(tie=True),
    "phi3": TypeDefaults(tie=False),
    "olmo": TypeDefaults(tie=False),
    "olmo2": TypeDefaults(tie=False, qk_norm="full"),
    "olmoe": TypeDefaults(tie=False, qk_norm="full", experts_per_tok=8, moe=True),
    "granite": TypeDefaults(tie=False),
    "cohere": TypeDefaults(tie=True),
    "stablelm": TypeDefaults(tie=False),
    "deepseek_v2": TypeDefaults(tie=False, moe=True, mla=True),
    "deepseek_v3": TypeDefaults(tie=False, router_bias=True, experts_per_tok=8, moe=True, mla=True),
    "gpt_oss": TypeDefaults(tie=False, qkv_bias=True, sinks=True, mlp_bias=True, router_bias=True, experts_per_tok=4,
                            moe=True),
    # plain (ungated) MLPs; their biases, LayerNorms and parallel blocks are approximated (ESTIMATOR.md)
    "gpt2": TypeDefaults(tie=True, gated=False),
    "gpt_neox": TypeDefaults(tie=False, gated=False),
    "gptj": TypeDefaults(tie=False, gated=False),
    "falcon": TypeDefaults(tie=True, gated=False),
    "RefinedWebModel": TypeDefaults(tie=True, gated=False),
    "RefinedWeb": TypeDefaults(tie=True, gated=False),
    "bloom": TypeDefaults(tie=True, gated=False),
    "phi": TypeDefaults(tie=False, gated=False),
    "opt": TypeDefaults(tie=True, gated=False),
    "gpt_bigcode": TypeDefaults(tie=True, gated=False),
    "starcoder2": TypeDefaults(tie=True, gated=False),
    "mpt": TypeDefaults(tie=True, gated=False),
    "codegen": TypeDefaults(tie=False, gated=False),
}
_BASE = TypeDefaults(tie=True)            # PretrainedConfig: tie_word_embeddings=True
# DeepseekV2Config / DeepseekV3Config defaults (transformers 5.24.0) for a config that omits an MLA field
_MLA_DEFAULTS = {"q_lora_rank": 1536, "kv_lora_rank": 512, "qk_nope_head_dim": 128, "qk_rope_head_dim": 64,
                 "v_head_dim": 128}

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
                 "mobilevit", "segformer", "vivit", "videomae", "audio-spectrogram-transformer", "clap")
_NOT_ATTENTION = ("mamba", "mamba2", "falcon_mamba", "falcon_h1", "jamba", "zamba", "zamba2", "rwkv", "rwkv5",
                  "rwkv6", "recurrent_gemma", "qwen3_next", "nemotron_h", "bamba", "granitemoehybrid", "lfm2",
                  "lfm2_moe", "xlstm", "minimax", "plamo2", "hunyuan_v1_moe")
_MOE_UNREAD = ("dbrx", "jetmoe", "phimoe", "granitemoe", "granitemoeshared", "llama4", "llama4_text", "glm4_moe",
               "ernie4_5_moe", "deepseek", "qwen3_vl_moe", "minimax_m2", "arctic", "grok-1", "bailing_moe", "dots1",
               "hunyuan_v1_moe", "exaone_moe", "flex_olmo", "longcat_flash", "aria_text")
# model_type -> why it is refused (the reason is documented in ESTIMATOR.md; the code is unsupported_model)
UNSUPPORTED_TYPES: dict[str, str] = {
    **{t: "encoder_decoder" for t in _ENCODER_DECODER},
    **{t: "encoder_only" for t in _ENCODER_ONLY},
    **{t: "vision_or_audio" for t in _VISION_AUDIO},
    **{t: "not_attention" for t in _NOT_ATTENTION},
    **{t: "moe_layout" for t in _MOE_UNREAD},
}
# keys that mean a mixture of experts or a non-attention mixer in a config of a type not read here
_MOE_MARKERS = ("num_local_experts", "num_experts", "n_routed_experts", "moe_num_experts", "moe_intermediate_size",
                "num_experts_per_tok", "experts_per_token", "n_shared_experts", "shared_expert_intermediate_size")
_MLA_MARKERS = ("kv_lora_rank", "q_lora_rank", "qk_rope_head_dim", "qk_nope_head_dim")
# layer_types entries of softmax-attention layers (Gemma 2/3, gpt-oss, Qwen2/3: full or sliding window)
_ATTENTION_LAYERS = frozenset({"full_attention", "sliding_attention", "chunked_attention", "attention"})
_MIXER_MARKERS = ("ssm_cfg", "state_size", "mamba_d_state", "linear_num_key_heads", "full_attention_interval",
                  "attn_layer_indices", "hybrid_override_pattern")


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


def _refuse_type(cfg: dict, mt: str) -> None:
    """unsupported_model for what the estimator cannot count (field model.model_type, or model when no type)."""
    field = "model.model_type" if mt else "model"
    if mt in UNSUPPORTED_TYPES or cfg.get("is_encoder_decoder") is True:
        raise InputError("unsupported_model", field)
    layer_types = cfg.get("layer_types")
    if isinstance(layer_types, list) and any(t not in _ATTENTION_LAYERS for t in layer_types):
        raise InputError("unsupported_model", field)         # mamba / conv / linear-attention layers
    if any(k in cfg for k in _MIXER_MARKERS):
        raise InputError("unsupported_model", field)
    if "vision_config" in cfg and "text_config" not in cfg and not any(
            k in cfg for k in ("hidden_size",) + ALIASES["hidden_size"]):
        raise InputError("unsupported_model", field)         # a vision tower with no language model to count
    if mt and mt not in MODEL_TYPES:
        # an unknown type is read as a Llama-like dense decoder only when nothing says it is not one
        if any(cfg.get(k) not in (None, 0, False) for k in _MOE_MARKERS + _MLA_MARKERS):
            raise InputError("unsupported_model", field)
    elif mt and not MODEL_TYPES[mt].mla and any(cfg.get(k) not in (None, 0) for k in ("kv_lora_rank",)):
        raise InputError("unsupported_model", field)


def _dense_layers(r: _Reader, L: int, experts: int) -> int:
    """How many layers have a dense MLP: ``first_k_dense_replace`` (DeepSeek; our own field), DeepSeek's
    ``moe_layer_freq`` (MoE when ``idx >= first_k and idx % freq == 0``), Qwen-MoE's ``mlp_only_layers`` and
    ``decoder_sparse_step`` (MoE when ``idx not in mlp_only_layers and (idx + 1) % step == 0``)."""
    if not experts:
        return L
    first_k = r.int("first_k_dense_replace", default=0) or 0
    if first_k > L:
        raise InputError("out_of_range", "model.first_k_dense_replace")
    freq = r.int("moe_layer_freq", default=1) or 1
    step = r.int("decoder_sparse_step", default=1) or 1
    only = r.raw("mlp_only_layers")
    if only is None:
        only = []
    if not isinstance(only, list) or any(isinstance(x, bool) or not isinstance(x, int) for x in only):
        raise InputError("wrong_type", "model.mlp_only_layers")
    dense_set = set(only)
    moe = sum(1 for idx in range(L)
              if idx >= first_k and idx % freq == 0 and idx not in dense_set and (idx + 1) % step == 0)
    return L - moe


def parse_model(value: Any) -> ModelArch:
    """A catalogue id, or a pasted HF config.json object (common aliases accepted, unread keys reported)."""
    if isinstance(value, str):
        m = MODELS.get(value)
        if m is None:
            raise InputError("unknown_model", "model")
        return m
    if not isinstance(value, dict):
        raise InputError("not_an_object", "model")
    outer = _Reader(value)
    r = outer
    if not outer.has("hidden_size") and "text_config" in value:
        tc = value["text_config"]
        if not isinstance(tc, dict):
            raise InputError("not_an_object", "model.text_config")
        r = _Reader(tc, "text_config.")              # multimodal configs nest the language model
    cfg = r.cfg
    mt_raw = cfg.get("model_type", value.get("model_type") if r is not outer else None)
    if mt_raw is not None and not isinstance(mt_raw, str):
        raise InputError("wrong_type", "model.model_type")
    mt = mt_raw or ""
    _refuse_type(value, value.get("model_type") if isinstance(value.get("model_type"), str) else "")
    if r is not outer:
        _refuse_type(cfg, mt)
    td = MODEL_TYPES.get(mt, _BASE)

    h = r.int("hidden_size", required=True)
    L = r.int("num_hidden_layers", required=True)
    a = r.int("num_attention_heads", required=True)
    V = r.int("vocab_size", required=True)
    assert h is not None and L is not None and a is not None and V is not None
    kv = r.int("num_key_value_heads")
    if kv is None:
        mq = r.raw("multi_query")
        kv = 1 if mq is True else a
    i = r.int("intermediate_size")
    if i is None:
        i = 4 * h                                    # GPT-2 n_inner null / Falcon / BLOOM: 4·hidden
    hd = r.int("head_dim")
    tie = r.bool("tie_word_embeddings", td.tie)
    gated = r.bool("mlp_gated", td.gated)
    attn_bias = r.bool("attention_bias", td.qkv_bias)
    o_bias = r.bool("o_proj_bias", attn_bias if td.o_bias_follows else False)
    mlp_bias = r.bool("mlp_bias", td.mlp_bias)
    sinks = r.bool("attention_sinks", td.sinks)
    qk_norm = r.raw("qk_norm")
    if qk_norm is None:
        qk_norm = td.qk_norm
    if not isinstance(qk_norm, str):
        raise InputError("wrong_type", "model.qk_norm")
    if qk_norm not in QK_NORMS:
        raise InputError("unknown_value", "model.qk_norm")

    # --- mixture of experts (read for MoE types and for configs without a type: a known dense type's class ignores
    # expert fields, so they are reported as ignored) ---------------------------------------------------------------
    generic = mt not in MODEL_TYPES
    if td.moe and not r.has("num_local_experts"):
        raise InputError("missing_field", "model.num_local_experts")   # never a dense guess for an MoE type
    E = (r.int("num_local_experts", default=0) or 0) if td.moe or generic else 0
    k = 0
    moe_i: int | None = None
    shared = 0
    shared_gate = False
    router_bias = False
    first_k = 0
    if E:
        k_raw = r.int("num_experts_per_tok")
        k = k_raw if k_raw is not None else (td.experts_per_tok or 0)
        if not k:
            raise InputError("missing_field", "model.num_experts_per_tok")
        if k > E:
            raise InputError("contradiction", "model.num_experts_per_tok")
        moe_i = r.int("moe_intermediate_size")
        shared = r.int("shared_expert_intermediate_size", default=0) or 0
        n_shared = r.int("n_shared_experts", default=0) or 0
        if n_shared:
            shared += n_shared * (moe_i or i)        # DeepSeek: one MLP of n_shared × moe_intermediate_size
        shared_gate = r.bool("shared_expert_gate", td.shared_gate and shared > 0)
        router_bias = r.bool("router_bias", td.router_bias)
        first_k = _dense_layers(r, L, E)
    elif td.moe or generic:
        k_raw = r.int("num_experts_per_tok")
        if k_raw:
            raise InputError("contradiction", "model.num_experts_per_tok")

    # --- multi-head latent attention ---------------------------------------------------------------------------
    mla = {name: None for name in _MLA_DEFAULTS}
    kv_lora = r.int("kv_lora_rank", default=_MLA_DEFAULTS["kv_lora_rank"] if td.mla else None) \
        if td.mla or generic else None
    if kv_lora:
        dflt = _MLA_DEFAULTS if td.mla else {}
        q_present = r.has("q_lora_rank")
        mla["q_lora_rank"] = r.int("q_lora_rank", default=None if q_present else dflt.get("q_lora_rank"))
        mla["kv_lora_rank"] = kv_lora
        for name in ("qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim"):
            mla[name] = r.int(name, default=dflt.get(name), required=True)
        if not (mla["qk_nope_head_dim"] or 0) + (mla["qk_rope_head_dim"] or 0):
            raise InputError("out_of_range", "model.qk_rope_head_dim")
    else:
        for name in ("kv_lora_rank", "q_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim"):
            if cfg.get(name, 0) in (None, 0):
                r.read.add(name)                     # model_json's "no MLA" values: read, nothing to report
        if kv > a or a % kv:
            raise InputError("contradiction", "model.num_key_value_heads")
        if hd is None and h % a:
            raise InputError("contradiction", "model.num_attention_heads")

    name = r.raw("name")
    if not isinstance(name, str) or not name:
        name = outer.raw("name")
    arch = ModelArch(
        id="custom", name=name[:200] if isinstance(name, str) and name else "Custom model", family="Custom",
        hidden_size=h, num_hidden_layers=L, num_attention_heads=a, num_key_value_heads=kv, intermediate_size=i,
        vocab_size=V, tie_word_embeddings=tie, head_dim=hd, num_local_experts=E, num_experts_per_tok=k,
        mlp_gated=gated, attention_bias=attn_bias, o_proj_bias=o_bias, mlp_bias=mlp_bias, qk_norm=qk_norm,
        attention_sinks=sinks, moe_intermediate_size=moe_i, shared_expert_intermediate_size=shared,
        shared_expert_gate=shared_gate, first_k_dense_replace=first_k, router_bias=router_bias,
        q_lora_rank=mla["q_lora_rank"], kv_lora_rank=mla["kv_lora_rank"],
        qk_nope_head_dim=mla["qk_nope_head_dim"] or 0, qk_rope_head_dim=mla["qk_rope_head_dim"] or 0,
        v_head_dim=mla["v_head_dim"] or 0, model_type=mt[:100],
    )
    if count_params(arch).total > MAX_PARAMS:
        raise InputError("too_large", "model")
    ignored = outer.ignored() + (r.ignored() if r is not outer else [])
    return replace(arch, ignored_fields=tuple(sorted(str(k)[:100] for k in ignored)[:500]))


def model_json(m: ModelArch) -> dict[str, Any]:
    """The architecture as a config object: every field the estimator uses under its config name (feeding it back
    as ``model`` gives the same estimate), then ``ignored_fields``: what a pasted config had that was not read."""
    out: dict[str, Any] = {"id": m.id, "name": m.name}
    for f in ARCH_FIELDS:
        out[f] = getattr(m, f)
    out["ignored_fields"] = list(m.ignored_fields)
    return out
