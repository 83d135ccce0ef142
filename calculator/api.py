"""The one boundary: JSON text in, JSON text out. Errors are codes naming a field, never prose; nothing raises.

``estimate(text)`` accepts one request object (keys and defaults in ``DEFAULTS``; ``schema()`` describes them) and
returns ``{"ok": true, "result": {...}}`` or ``{"ok": false, "error": {"code": ..., "field": ...}}``.
A request ``{"describe": true}`` returns the schema (presets, GPUs, defaults, enums, limits, error codes) instead.
Standard library only; never imports a browser API.
"""
from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from . import recommend
from .catalog import GPUS, MODELS
from .memory import GB, GIB, count_params, estimate as _estimate, trainable_params
from .models import (
    ALL_LINEAR,
    LORA_MODULES,
    Attention,
    Estimate,
    Method,
    ModelArch,
    Optimizer,
    Precision,
    QloraBackend,
    Sharding,
    TrainingSetup,
)

__all__ = ["estimate", "estimate_obj", "schema", "parse_request", "ApiError", "DEFAULTS", "ERROR_CODES", "LIMITS",
           "ENUMS", "MAX_INPUT_CHARS"]

ERROR_CODES: tuple[str, ...] = (
    "invalid_json",     # not parseable JSON (also NaN/Infinity, which JSON does not have)
    "not_an_object",    # the request (or `model`) is not a JSON object
    "too_large",        # input text longer than MAX_INPUT_CHARS, nested too deep, or a model beyond LIMITS
    "unknown_key",      # a request key this API does not define
    "missing_field",    # `model`, or a required config.json field of a pasted model
    "wrong_type",       # e.g. a string, float or bool where an integer is expected
    "out_of_range",     # a number outside LIMITS
    "unknown_value",    # a string outside its enum
    "unknown_model",    # a preset id not in the catalogue
    "unknown_gpu",      # a GPU id not in the catalogue
    "contradiction",    # fields that cannot hold together (field names the one to change)
    "internal_error",   # a bug: reported, never raised
)

MAX_INPUT_CHARS = 200_000
MAX_DEPTH = 32

DEFAULTS: dict[str, Any] = {
    "method": "full",
    "dpo": False,
    "precompute_ref_log_probs": False,
    "precision": "bf16",
    "optimizer": "adamw_torch",
    "momentum": False,
    "lora_rank": 16,
    "lora_targets": "all-linear",
    "lora_dtype": "fp32",
    "lora_dropout": 0.0,
    "double_quant": True,
    "qlora_backend": "bitsandbytes",
    "micro_batch_size": 1,
    "seq_len": 2048,
    "grad_accum_steps": 1,
    "gradient_checkpointing": False,
    "attention": "sdpa",
    "chunked_cross_entropy": False,
    "torch_compile": False,
    "fused_linear_cross_entropy": False,
    "activation_offloading": False,
    "optimizer_in_backward": False,
    "packing": False,
    "num_gpus": 1,
    "sharding": "none",
    "cpu_offload": False,
    "deepspeed": False,
    "reduce_bucket_size": 500_000_000,
    "offload_params": False,
    "frozen_param_grads": False,
    "no_sync_accumulation": False,
    "untie_embeddings": False,
    "quantize_lm_head": False,
    "dequant_cast": False,
    "cuda_context_bytes": None,
    "gpu": None,
    "include": ["gpu_table", "smallest_setup", "remedies", "inverse"],
}

ENUMS: dict[str, tuple[str, ...]] = {
    "method": tuple(m.value for m in Method),
    "precision": tuple(p.value for p in Precision),
    "optimizer": tuple(o.value for o in Optimizer),
    "lora_dtype": ("fp32", "bf16"),
    "qlora_backend": tuple(q.value for q in QloraBackend),
    "attention": tuple(a.value for a in Attention),
    "sharding": tuple(x.value for x in Sharding) + ("fsdp",),
    "lora_targets": LORA_MODULES + ("all-linear",),
    "include": ("gpu_table", "smallest_setup", "remedies", "inverse"),
}

LIMITS: dict[str, tuple[float, float]] = {
    "lora_rank": (1, 65_536),
    "lora_dropout": (0.0, 0.99),
    "micro_batch_size": (1, 65_536),
    "seq_len": (1, 4_194_304),
    "grad_accum_steps": (1, 1_048_576),
    "num_gpus": (1, 4096),
    "reduce_bucket_size": (1, 100_000_000_000),
    "cuda_context_bytes": (0, 64 * GIB),
    # pasted model fields
    "hidden_size": (1, 1_000_000),
    "num_hidden_layers": (1, 10_000),
    "num_attention_heads": (1, 100_000),
    "num_key_value_heads": (1, 100_000),
    "intermediate_size": (1, 10_000_000),
    "vocab_size": (1, 100_000_000),
    "head_dim": (1, 100_000),
    "num_local_experts": (0, 100_000),
    "num_experts_per_tok": (0, 100_000),
    "params": (1, 100_000_000_000_000),     # total parameters of a pasted model (too_large beyond)
}

_BOOL_KEYS = ("dpo", "precompute_ref_log_probs", "momentum", "double_quant", "gradient_checkpointing",
              "chunked_cross_entropy", "torch_compile", "fused_linear_cross_entropy", "activation_offloading",
              "optimizer_in_backward", "packing", "cpu_offload", "deepspeed", "offload_params", "frozen_param_grads",
              "no_sync_accumulation", "untie_embeddings", "quantize_lm_head", "dequant_cast")
_INT_KEYS = ("lora_rank", "micro_batch_size", "seq_len", "grad_accum_steps", "num_gpus", "reduce_bucket_size")
_KEYS = frozenset(DEFAULTS) | {"model", "describe"}

# config.json aliases (GPT-2/NeoX/Falcon/BLOOM/T5-style names) -> HF Llama names
_ALIASES: dict[str, tuple[str, ...]] = {
    "hidden_size": ("n_embd", "d_model", "dim", "model_dim"),
    "num_hidden_layers": ("n_layer", "num_layers", "n_layers"),
    "num_attention_heads": ("n_head", "num_heads", "n_heads"),
    "num_key_value_heads": ("num_kv_heads", "n_head_kv", "n_kv_heads", "multi_query_group_num"),
    "intermediate_size": ("n_inner", "ffn_hidden_size", "ffn_dim", "d_ff"),
    "num_local_experts": ("num_experts", "n_routed_experts", "moe_num_experts"),
}
# model types whose MLP is a plain up/down (no gate)
_UNGATED_TYPES = frozenset({"gpt2", "gpt_neox", "gptj", "falcon", "RefinedWebModel", "RefinedWeb", "bloom", "phi",
                            "opt", "gpt_bigcode", "starcoder2", "mpt", "codegen"})
_BIAS_TYPES = frozenset({"qwen2", "qwen2_moe"})


class ApiError(Exception):
    def __init__(self, code: str, field: str | None = None) -> None:
        super().__init__(code, field)
        self.code = code
        self.field = field


# =====================================================================================================================
# Parsing
# =====================================================================================================================
def _reject_constant(name: str) -> Any:
    raise ValueError(name)


def _depth_ok(x: Any, depth: int = 0) -> bool:
    if depth > MAX_DEPTH:
        return False
    if isinstance(x, dict):
        return all(_depth_ok(v, depth + 1) for v in x.values())
    if isinstance(x, list):
        return all(_depth_ok(v, depth + 1) for v in x)
    return True


def _int(obj: dict, key: str, default: Any = None, *, limits_key: str | None = None, field: str | None = None) -> Any:
    v = obj.get(key, default)
    f = field or key
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int):
        raise ApiError("wrong_type", f)
    lo, hi = LIMITS[limits_key or key]
    if not lo <= v <= hi:
        raise ApiError("out_of_range", f)
    return v


def _bool(obj: dict, key: str) -> bool:
    v = obj.get(key, DEFAULTS[key])
    if not isinstance(v, bool):
        raise ApiError("wrong_type", key)
    return v


def _enum(obj: dict, key: str) -> str:
    v = obj.get(key, DEFAULTS[key])
    if not isinstance(v, str):
        raise ApiError("wrong_type", key)
    if v not in ENUMS[key]:
        raise ApiError("unknown_value", key)
    return v


def _first(cfg: dict, name: str) -> Any:
    if name in cfg:
        return cfg[name]
    for alt in _ALIASES.get(name, ()):
        if alt in cfg and cfg[alt] is not None:
            return cfg[alt]
    return None


def _cfg_int(cfg: dict, name: str, *, required: bool) -> int | None:
    v = _first(cfg, name)
    field = f"model.{name}"
    if v is None:
        if required:
            raise ApiError("missing_field", field)
        return None
    if isinstance(v, bool) or not isinstance(v, int):
        raise ApiError("wrong_type", field)
    lo, hi = LIMITS[name]
    if not lo <= v <= hi:
        raise ApiError("out_of_range", field)
    return v


def parse_model(value: Any) -> ModelArch:
    """A catalogue id, or a pasted HF config.json object (unknown keys ignored; common aliases accepted)."""
    if isinstance(value, str):
        m = MODELS.get(value)
        if m is None:
            raise ApiError("unknown_model", "model")
        return m
    if not isinstance(value, dict):
        raise ApiError("wrong_type", "model")
    cfg = value
    if "hidden_size" not in cfg and isinstance(cfg.get("text_config"), dict):
        cfg = cfg["text_config"]                      # multimodal configs nest the language model
    h = _cfg_int(cfg, "hidden_size", required=True)
    L = _cfg_int(cfg, "num_hidden_layers", required=True)
    a = _cfg_int(cfg, "num_attention_heads", required=True)
    kv = _cfg_int(cfg, "num_key_value_heads", required=False)
    if kv is None:
        kv = 1 if cfg.get("multi_query") is True else a
    i = _cfg_int(cfg, "intermediate_size", required=False)
    if i is None:
        i = 4 * h                                    # GPT-2 n_inner null / Falcon / BLOOM: 4·hidden
    V = _cfg_int(cfg, "vocab_size", required=True)
    hd = _cfg_int(cfg, "head_dim", required=False)
    E = _cfg_int(cfg, "num_local_experts", required=False) or 0
    k = _cfg_int(cfg, "num_experts_per_tok", required=False) or 0
    tie = cfg.get("tie_word_embeddings", False)
    if tie is None:
        tie = False
    if not isinstance(tie, bool):
        raise ApiError("wrong_type", "model.tie_word_embeddings")
    mt = cfg.get("model_type", "")
    if not isinstance(mt, str):
        mt = ""
    gated = cfg.get("mlp_gated", mt not in _UNGATED_TYPES)
    if not isinstance(gated, bool):
        raise ApiError("wrong_type", "model.mlp_gated")
    bias = cfg.get("attention_bias", mt in _BIAS_TYPES)
    if not isinstance(bias, bool):
        raise ApiError("wrong_type", "model.attention_bias")
    if kv > a or a % kv:
        raise ApiError("contradiction", "model.num_key_value_heads")
    if hd is None and h % a:
        raise ApiError("contradiction", "model.num_attention_heads")
    if E and not k:
        k = min(2, E)
    if k > max(E, 1) or (k and not E):
        raise ApiError("contradiction", "model.num_experts_per_tok")
    name = cfg.get("_name_or_path")
    arch = ModelArch(
        id="custom", name=name if isinstance(name, str) and name else "Custom model", family="Custom",
        hidden_size=h, num_hidden_layers=L, num_attention_heads=a, num_key_value_heads=kv, intermediate_size=i,
        vocab_size=V, tie_word_embeddings=tie, head_dim=hd, num_local_experts=E, num_experts_per_tok=k,
        mlp_gated=gated, attention_bias=bias,
    )
    if count_params(arch).total > LIMITS["params"][1]:
        raise ApiError("too_large", "model")
    return arch


def parse_request(obj: Any) -> tuple[TrainingSetup, dict[str, Any]]:
    """Validate a request object; return the setup and the non-estimate options (gpu, include)."""
    if not isinstance(obj, dict):
        raise ApiError("not_an_object", None)
    for key in obj:
        if key not in _KEYS:
            raise ApiError("unknown_key", str(key)[:100])
    if "model" not in obj:
        raise ApiError("missing_field", "model")
    model = parse_model(obj["model"])
    for key in _BOOL_KEYS:
        _bool(obj, key)
    method = Method(_enum(obj, "method"))
    precision = Precision(_enum(obj, "precision"))
    opt_name = _enum(obj, "optimizer")
    momentum = _bool(obj, "momentum")
    optimizer = Optimizer(opt_name)
    if optimizer is Optimizer.SGD and momentum:
        optimizer = Optimizer.SGD_MOMENTUM
    rank = _int(obj, "lora_rank", DEFAULTS["lora_rank"])
    targets_raw = obj.get("lora_targets", DEFAULTS["lora_targets"])
    if isinstance(targets_raw, str):
        if targets_raw == "all-linear":
            targets = ALL_LINEAR
        elif targets_raw in LORA_MODULES:
            targets = (targets_raw,)
        else:
            raise ApiError("unknown_value", "lora_targets")
    elif isinstance(targets_raw, list):
        if len(targets_raw) > 64:
            raise ApiError("too_large", "lora_targets")
        seen: list[str] = []
        for t in targets_raw:
            if not isinstance(t, str):
                raise ApiError("wrong_type", "lora_targets")
            if t == "all-linear":
                seen.extend(ALL_LINEAR)
            elif t in LORA_MODULES:
                seen.append(t)
            else:
                raise ApiError("unknown_value", "lora_targets")
        if not seen:
            raise ApiError("out_of_range", "lora_targets")
        targets = tuple(m for m in LORA_MODULES if m in seen)
    else:
        raise ApiError("wrong_type", "lora_targets")
    lora_dtype = Precision(_enum(obj, "lora_dtype"))
    dropout = obj.get("lora_dropout", DEFAULTS["lora_dropout"])
    if isinstance(dropout, bool) or not isinstance(dropout, (int, float)):
        raise ApiError("wrong_type", "lora_dropout")
    if not (LIMITS["lora_dropout"][0] <= dropout <= LIMITS["lora_dropout"][1]):   # also rejects NaN
        raise ApiError("out_of_range", "lora_dropout")
    backend = QloraBackend(_enum(obj, "qlora_backend"))
    mb = _int(obj, "micro_batch_size", DEFAULTS["micro_batch_size"])
    seq = _int(obj, "seq_len", DEFAULTS["seq_len"])
    ga = _int(obj, "grad_accum_steps", DEFAULTS["grad_accum_steps"])
    attention = Attention(_enum(obj, "attention"))
    n = _int(obj, "num_gpus", DEFAULTS["num_gpus"])
    sh_name = _enum(obj, "sharding")
    sharding = Sharding.ZERO3 if sh_name == "fsdp" else Sharding(sh_name)
    ctx = _int(obj, "cuda_context_bytes", None)
    gpu = obj.get("gpu", None)
    if gpu is not None:
        if not isinstance(gpu, str):
            raise ApiError("wrong_type", "gpu")
        if gpu not in GPUS:
            raise ApiError("unknown_gpu", "gpu")
    include = obj.get("include", DEFAULTS["include"])
    if not isinstance(include, list) or len(include) > 16:
        raise ApiError("wrong_type", "include")
    for x in include:
        if not isinstance(x, str):
            raise ApiError("wrong_type", "include")
        if x not in ENUMS["include"]:
            raise ApiError("unknown_value", "include")

    cpu_offload = obj.get("cpu_offload", False)
    offload_params = obj.get("offload_params", False)
    opt_in_bwd = obj.get("optimizer_in_backward", False)
    # --- contradictions (the field named is the one to change) ---------------------------------------------------
    if sharding is not Sharding.NONE and n == 1 and not cpu_offload:
        raise ApiError("contradiction", "sharding")       # sharding across one card (ZeRO-Offload is the exception)
    if cpu_offload and sharding is Sharding.NONE:
        raise ApiError("contradiction", "cpu_offload")    # offload is a ZeRO/FSDP feature
    if offload_params and sharding is not Sharding.ZERO3:
        raise ApiError("contradiction", "offload_params")
    if opt_in_bwd and ga > 1:
        raise ApiError("contradiction", "optimizer_in_backward")  # torchtune: no gradient accumulation with it
    setup = TrainingSetup(
        model=model, method=method, dpo=obj.get("dpo", False),
        precompute_ref_log_probs=obj.get("precompute_ref_log_probs", False), precision=precision,
        optimizer=optimizer, lora_rank=rank, lora_targets=targets,
        lora_dtype=Precision.FP32 if precision is Precision.FP32 else lora_dtype,
        lora_dropout=float(dropout), double_quant=obj.get("double_quant", True), qlora_backend=backend,
        micro_batch_size=mb, seq_len=seq, grad_accum_steps=ga,
        gradient_checkpointing=obj.get("gradient_checkpointing", False), attention=attention,
        chunked_cross_entropy=obj.get("chunked_cross_entropy", False), torch_compile=obj.get("torch_compile", False),
        fused_linear_cross_entropy=obj.get("fused_linear_cross_entropy", False),
        activation_offloading=obj.get("activation_offloading", False), optimizer_in_backward=opt_in_bwd,
        packing=obj.get("packing", False), num_gpus=n, sharding=sharding, cpu_offload=cpu_offload,
        deepspeed=obj.get("deepspeed", False),
        reduce_bucket_size=_int(obj, "reduce_bucket_size", DEFAULTS["reduce_bucket_size"]),
        offload_params=offload_params, frozen_param_grads=obj.get("frozen_param_grads", False),
        no_sync_accumulation=obj.get("no_sync_accumulation", False), untie_embeddings=obj.get("untie_embeddings", False),
        quantize_lm_head=obj.get("quantize_lm_head", False), dequant_cast=obj.get("dequant_cast", False),
        cuda_context_bytes=ctx,
    )
    if method is not Method.FULL and trainable_params(setup) == 0:
        raise ApiError("contradiction", "lora_targets")   # e.g. gate_proj on a model with a plain MLP
    return setup, {"gpu": gpu, "include": tuple(include)}


# =====================================================================================================================
# Output
# =====================================================================================================================
def _sizes(b: int) -> dict[str, float]:
    return {"gb": round(b / GB, 2), "gib": round(b / GIB, 2)}


def _model_json(m: ModelArch) -> dict[str, Any]:
    return {"id": m.id, "name": m.name, "hidden_size": m.hidden_size, "num_hidden_layers": m.num_hidden_layers,
            "num_attention_heads": m.num_attention_heads, "num_key_value_heads": m.num_key_value_heads,
            "intermediate_size": m.intermediate_size, "vocab_size": m.vocab_size,
            "tie_word_embeddings": m.tie_word_embeddings, "head_dim": m.head_dim,
            "num_local_experts": m.num_local_experts, "num_experts_per_tok": m.num_experts_per_tok,
            "mlp_gated": m.mlp_gated}


def inputs_json(s: TrainingSetup) -> dict[str, Any]:
    """The normalised inputs (defaults filled in), in request form: feeding it back gives the same estimate."""
    return {
        "method": s.method.value, "dpo": s.dpo, "precompute_ref_log_probs": s.precompute_ref_log_probs,
        "precision": s.precision.value,
        "optimizer": "sgd" if s.optimizer is Optimizer.SGD_MOMENTUM else s.optimizer.value,
        "momentum": s.optimizer is Optimizer.SGD_MOMENTUM,
        "lora_rank": s.lora_rank, "lora_targets": list(s.lora_targets), "lora_dtype": s.lora_dtype.value,
        "lora_dropout": s.lora_dropout, "double_quant": s.double_quant, "qlora_backend": s.qlora_backend.value,
        "micro_batch_size": s.micro_batch_size, "seq_len": s.seq_len, "grad_accum_steps": s.grad_accum_steps,
        "gradient_checkpointing": s.gradient_checkpointing, "attention": s.attention.value,
        "chunked_cross_entropy": s.chunked_cross_entropy, "torch_compile": s.torch_compile,
        "fused_linear_cross_entropy": s.fused_linear_cross_entropy,
        "activation_offloading": s.activation_offloading,
        "optimizer_in_backward": s.optimizer_in_backward, "packing": s.packing, "num_gpus": s.num_gpus,
        "sharding": s.sharding.value, "cpu_offload": s.cpu_offload, "deepspeed": s.deepspeed,
        "reduce_bucket_size": s.reduce_bucket_size, "offload_params": s.offload_params,
        "frozen_param_grads": s.frozen_param_grads, "no_sync_accumulation": s.no_sync_accumulation,
        "untie_embeddings": s.untie_embeddings, "quantize_lm_head": s.quantize_lm_head,
        "dequant_cast": s.dequant_cast,
        "cuda_context_bytes": s.cuda_context_bytes,
    }


def result_json(s: TrainingSetup, e: Estimate, options: dict[str, Any]) -> dict[str, Any]:
    gpu = options.get("gpu")
    include = options.get("include", ())
    r: dict[str, Any] = {
        "peak_bytes_per_gpu": e.peak_bytes,
        "peak_gb": round(e.peak_bytes / GB, 2),
        "peak_gib": round(e.peak_bytes / GIB, 2),
        "allocated_bytes": e.allocated_bytes,
        "reserved_bytes": e.reserved_bytes,
        "range": {"low_bytes": e.low_bytes, "high_bytes": e.high_bytes,
                  "low_gb": round(e.low_bytes / GB, 2), "high_gb": round(e.high_bytes / GB, 2),
                  "low_gib": round(e.low_bytes / GIB, 2), "high_gib": round(e.high_bytes / GIB, 2)},
        "phase": e.phase.value,
        "phases_allocated_bytes": e.phases,
        "breakdown_bytes": e.breakdown,
        "params": e.params,
        "trainable_params": e.trainable_params,
        "trainable_share": e.trainable_params / e.params,
        "host_ram_bytes": e.host_ram_bytes,
        "host_ram": _sizes(e.host_ram_bytes),
        "paged_optimizer_bytes": e.paged_optimizer_bytes,
        "checkpoint_bytes": e.checkpoint_bytes,
        "checkpoint": _sizes(e.checkpoint_bytes),
        "adapter_bytes": e.adapter_bytes,
        "adapter": _sizes(e.adapter_bytes),
        "optimizer_state_file_bytes": e.optimizer_state_file_bytes,
        "effective_batch_size": s.micro_batch_size * s.grad_accum_steps * s.num_gpus,
        "notes": list(e.notes),
        "model": _model_json(s.model),
        "inputs": inputs_json(s),
        "units": {"gb": 1_000_000_000, "gib": 1 << 30},
    }
    if "gpu_table" in include:
        r["gpu_table"] = recommend.gpu_table(s)
    if "smallest_setup" in include:
        r["smallest_setup"] = recommend.smallest_setup(s)
    if gpu is not None:
        spec = GPUS[gpu]
        r["gpu"] = {"id": spec.id, "name": spec.name, "memory_bytes": spec.memory_bytes,
                    "verdict": recommend.verdict(e.peak_bytes, spec.memory_bytes),
                    "share_of_memory": e.peak_bytes / spec.memory_bytes}
        if "remedies" in include:
            r["remedies"] = recommend.remedies(s, spec)
        if "inverse" in include:
            r["max_seq_len"] = recommend.max_seq_len(s, spec)
            r["max_micro_batch_size"] = recommend.max_micro_batch(s, spec)
    return r


def schema() -> dict[str, Any]:
    """Everything a form needs: presets, GPUs, defaults, enums, limits, error codes, headroom rule."""
    return {
        "models": [{"id": m.id, "name": m.name, "family": m.family, "params": count_params(m).total}
                   for m in MODELS.values()],
        "gpus": [{"id": g.id, "name": g.name, "memory_bytes": g.memory_bytes, "klass": g.klass, "nvlink": g.nvlink}
                 for g in GPUS.values()],
        "defaults": dict(DEFAULTS),
        "enums": {k: list(v) for k, v in ENUMS.items()},
        "limits": {k: list(v) for k, v in LIMITS.items()},
        "error_codes": list(ERROR_CODES),
        "headroom": {"comfortable_max_share": recommend.COMFORTABLE_SHARE, "tight_max_share": recommend.TIGHT_SHARE,
                     "setups": list(recommend.SETUP_SIZES)},
        "model_fields": {"required": ["hidden_size", "num_hidden_layers", "num_attention_heads", "vocab_size"],
                         "optional": ["num_key_value_heads", "intermediate_size", "tie_word_embeddings",
                                      "head_dim", "num_local_experts", "num_experts_per_tok", "model_type",
                                      "mlp_gated", "attention_bias"],
                         "aliases": {k: list(v) for k, v in _ALIASES.items()}},
    }


def _error(code: str, field: str | None) -> dict[str, Any]:
    return {"ok": False, "error": {"code": code, "field": field}}


def estimate_obj(obj: Any) -> dict[str, Any]:
    """The same as ``estimate`` on an already-parsed object; returns a dict. Never raises."""
    try:
        if isinstance(obj, dict) and obj.get("describe") is True:
            return {"ok": True, "schema": schema()}
        if isinstance(obj, dict) and "describe" in obj and obj["describe"] is not False:
            return _error("wrong_type", "describe")
        setup, options = parse_request(obj)
        e = _estimate(setup)
        result = result_json(setup, e, options)
        return {"ok": True, "result": result}
    except ApiError as err:
        return _error(err.code, err.field)
    except RecursionError:
        return _error("too_large", None)
    except (MemoryError, OverflowError):
        return _error("too_large", None)
    except Exception:  # noqa: BLE001 - the boundary never raises
        return _error("internal_error", None)


def estimate(text: Any) -> str:
    """JSON text in, JSON text out. Never raises."""
    try:
        if not isinstance(text, str):
            return json.dumps(_error("not_an_object", None))
        if len(text) > MAX_INPUT_CHARS:
            return json.dumps(_error("too_large", None))
        try:
            obj = json.loads(text, parse_constant=_reject_constant)
        except RecursionError:
            return json.dumps(_error("too_large", None))
        except (ValueError, TypeError):
            return json.dumps(_error("invalid_json", None))
        if not _depth_ok(obj):
            return json.dumps(_error("too_large", None))
        out = estimate_obj(obj)
        return json.dumps(out, allow_nan=False)
    except Exception:  # noqa: BLE001
        try:
            return json.dumps(_error("internal_error", None))
        except Exception:  # pragma: no cover
            return '{"ok": false, "error": {"code": "internal_error", "field": null}}'


def replace_setup(s: TrainingSetup, **changes: Any) -> TrainingSetup:
    """dataclasses.replace, re-exported for recommend.py and the CLI."""
    return replace(s, **changes)

