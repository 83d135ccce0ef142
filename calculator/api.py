"""The one boundary: JSON text in, JSON text out. Errors are codes naming a field, never prose; nothing raises.

``answer_text(text)`` accepts one request object (keys and defaults in ``DEFAULTS``; ``schema()`` describes them) and
returns ``{"ok": true, "result": {...}}`` (laid out by ``answer.py``) or ``{"ok": false, "error": {"code": ...,
"field": ...}, "errors": [...]}`` (``errors``: every key that fails on its own; ``error``: the first).
A request ``{"describe": true}`` returns the schema (presets, GPUs, the input specs, error codes) instead.
Every request key is declared once, in ``inputs.py``, and checked by its kind of value (``values.py``); parsing is a
loop over those specs plus the rules that span several keys. The page (``calculator/page/``) reads the estimator
through this module only: it also publishes the catalogue (``MODELS``, ``GPUS``), the model-config fields
(``MODEL_FIELDS``) the page draws, and the fit rule (``verdict``, for a widget that asks for memory alone;
``surely_fits``: whether a verdict promises the setup fits, neither at the edge nor over).
Standard library only; never imports a browser API.
"""
from __future__ import annotations

import json
import re
from itertools import accumulate
from typing import Any, Callable, Iterable, Iterator

from . import frameworks, models, recommend, rl, throughput
from .answer import gpu_json, resolution_json, result_json
from .catalog import GPUS, MODELS, resolve
from .configs import (ALIASES, ARCH_FIELDS, CONFIG_LISTS, FIELD_KINDS, MAX_PARAMS, MODEL_FIELD_KINDS, MODEL_FIELDS,
                      MODEL_LIMITS, QK_NORMS, REQUIRED_FIELDS, parse_model)
from .errors import EstimatorError, InputError, InputErrors
from .inputs import BY_NAME, DEFAULTS, ENUMS, INPUTS, LIMITS, InputSpec, check_setup, inputs_json
from .memory import COEFFICIENTS, estimate as _estimate
from .params import count_params, fsdp1_refuses_uint8, trainable_params
from .recommend import surely_fits, verdict
from .models import Method, Optimizer, Precision, TrainingSetup
from .values import MAX_DIGITS, whole_number

__all__ = ["answer_text", "answer", "answer_each", "resolve", "schema", "parse_request", "framework_defaults", "framework_json", "parse_model",
           "read_json", "read_text", "check_text", "check_depth", "check_tree", "inputs_json", "result_json",
           "DEFAULTS", "ERROR_CODES", "LIMITS", "ENUMS", "MAX_INPUT_CHARS", "MAX_DEPTH", "MODELS", "GPUS",
           "MODEL_FIELDS", "FIELD_KINDS", "CONFIG_LISTS", "verdict", "surely_fits",
           "smallest_setup"]

ERROR_CODES: tuple[str, ...] = (
    "invalid_json",     # not parseable JSON (also NaN/Infinity, which JSON does not have)
    "not_an_object",    # the request (or `model`) is not a JSON object
    "too_large",        # input text longer than MAX_INPUT_CHARS, nested too deep, a list too long, a model beyond limits
    "unknown_key",      # a request key this API does not define
    "missing_field",    # `model`, or a required config.json field of a pasted model
    "wrong_type",       # a value of the wrong kind (the field's kind is in schema()["inputs"])
    "out_of_range",     # a number outside its limits
    "unknown_value",    # a string outside its enum
    "unknown_model",    # a preset id not in the catalogue (``reason`` not_a_hub_id: not even shaped like an id)
    "ambiguous_model",  # a repo name without its owner that several catalogue entries carry (``candidates``)
    "unknown_gpu",      # a GPU id not in the catalogue
    "unsupported_model",  # a model the estimator cannot count (its ``reason``: configs.UNSUPPORTED_REASONS)
    "unsupported_on_gpu",  # a setup the chosen card cannot run (its ``reason``: recommend.CAPABILITY_REASONS)
    "contradiction",    # fields that cannot hold together (field names the one to change)
    "internal_error",   # a bug: reported, never raised
)

#: Longest request text (and pasted config.json) read: the largest real configs are about 10 kB, so 200,000
#: characters leave room for any config while keeping a hostile paste from stalling the page's worker.
MAX_INPUT_CHARS = 200_000
#: Deepest nesting of lists and objects read: a config.json nests 3 levels (text_config, rope_scaling), so 32 is
#: generous, and far below the recursion limit the JSON decoder and the checks would otherwise hit.
MAX_DEPTH = 32

_KEYS = frozenset(BY_NAME) | {"describe"}
#: The run's keys beside the data size: echoed in ``result.inputs`` as given, even when no data size uses them yet.
WORKLOAD_KEYS = ("dataset_tokens", "dataset_examples", "mean_tokens_per_example", "epochs")

# =====================================================================================================================
# Parsing
# =====================================================================================================================
def _reject_constant(name: str) -> Any:
    raise ValueError(name)


def _parse_int(digits: str) -> int:
    """JSON integers of any length: beyond 40 digits every limit is exceeded, so ±10^40 stands for them (out_of_range,
    never Python's 4300-digit conversion error)."""
    return whole_number(digits)


#: A run of digits longer than MAX_DIGITS somewhere in a text: only then does the JSON reader need the slow hook
#: that reads each integer itself (the C decoder's own conversion is fast, and exact up to 4,300 digits).
_LONG_DIGITS = re.compile(r"\d{%d}" % (MAX_DIGITS + 1))
#: The kinds of value JSON has: anything a reader of another format returns beyond these is refused.
_SCALARS = frozenset({str, int, float, bool, type(None)})
_CONTAINERS = (dict, list)
_CONTAINER_KINDS = frozenset(_CONTAINERS)


def _tree_fault(obj: Any) -> str | None:
    """Why a parsed tree cannot be read (``too_large``: nested deeper than MAX_DEPTH; ``invalid_json``: a value or a
    key of a kind JSON does not have), or None. Walked level by level, each level's kinds of value gathered by C
    loops (``set(map(type, ...))``), so a flat list of 100,000 numbers costs one pass, not 100,000 calls."""
    level = [obj] if type(obj) in _CONTAINERS else []
    if not level and type(obj) not in _SCALARS:
        return "invalid_json"
    depth = 0
    while level:
        below: list[Any] = []
        for node in level:
            if type(node) is dict:
                if node and set(map(type, node)) != {str}:
                    return "invalid_json"
                values: Any = node.values()
            else:
                values = node
            if not values:
                continue
            if depth >= MAX_DEPTH:
                return "too_large"             # a value below the deepest level allowed
            kinds = set(map(type, values))
            if kinds - _SCALARS - {dict, list}:
                return "invalid_json"
            if kinds <= _CONTAINER_KINDS:
                if any(values):                # only empty containers (any() runs in C): nothing below them
                    below.extend(v for v in values if v)
            elif dict in kinds or list in kinds:
                below.extend(v for v in values if v and type(v) in _CONTAINERS)
        level = below
        depth += 1
    return None


def check_value(spec: InputSpec, value: Any) -> Any:
    """The value of one key, checked and normalised by its kind (values.py: enum aliases resolved, module lists
    expanded); ``InputError`` naming the key."""
    if value is None and spec.nullable:
        return None
    return spec.value_kind.check(spec, value)


def check_text(text: Any, field: str | None = None, max_chars: int = MAX_INPUT_CHARS) -> str:
    """The first guard of every text read: a string (else ``not_an_object``) of at most ``max_chars`` characters
    (else ``too_large``)."""
    if not isinstance(text, str):
        raise InputError("not_an_object", field)
    if len(text) > max_chars:
        raise InputError("too_large", field)
    return text


def check_tree(obj: Any, field: str | None = None) -> Any:
    """The guard of every parsed value, whatever its text was: nested at most MAX_DEPTH deep (else ``too_large``),
    only JSON's kinds of value with string keys (else ``invalid_json``). Returns ``obj``."""
    fault = _tree_fault(obj)
    if fault is not None:
        raise InputError(fault, field)
    return obj


def read_text(text: Any, parse: Callable[[str], Any], field: str | None = None,
              max_chars: int = MAX_INPUT_CHARS) -> Any:
    """A text of any format (``parse``: its reader, e.g. a YAML loader) behind the guards the JSON reader has:
    ``check_text``, then ``parse`` (any error it raises is ``invalid_json``; a recursion or memory error is
    ``too_large``), then ``check_tree``. ``InputError`` names ``field``."""
    check_text(text, field, max_chars)
    try:
        obj = parse(text)
    except (RecursionError, MemoryError):
        raise InputError("too_large", field) from None
    except Exception:  # noqa: BLE001 - whatever a parser raises, the text is not readable
        raise InputError("invalid_json", field) from None
    return check_tree(obj, field)


#: A JSON string (its escapes included) and a run of characters that are not brackets: what ``check_depth`` drops. A
#: string left open runs to the end of the text (the decoder reads nothing after it), so every quote starts a match
#: that succeeds: the scan stays linear whatever the quotes and backslashes.
_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\\?\Z)', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_BRACKET_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def check_depth(text: str, field: str | None = None) -> str:
    """The guard before the JSON decoder, which recurses once per level in C: the page's Python (WebAssembly) has a
    JavaScript stack that overflows near 8,000 levels before Python's recursion limit can raise, and the runtime is
    then dead for every later call. ``too_large`` naming ``field`` when the text's brackets outside strings nest
    deeper than ``check_tree`` could accept (MAX_DEPTH + 1: an empty list or object may sit one level below the
    deepest value), so the decoder never sees such a text; ``check_tree`` still decides at the boundary. The count
    is exact for JSON; for a text that is not JSON it may only be higher (an unterminated string's brackets are
    counted), never lower: the decoder stops at the first fault, before anything it would not count. Linear, in C
    loops: a text with few brackets costs two counts. Returns ``text``."""
    if text.count("[") + text.count("{") > MAX_DEPTH + 1:
        brackets = _NOT_BRACKET.sub("", _JSON_STRING.sub("", text))
        levels = accumulate(map(_BRACKET_STEP.__getitem__, brackets))
        if next(filter((MAX_DEPTH + 1).__lt__, levels), None) is not None:     # the first level beyond the limit
            raise InputError("too_large", field)
    return text


def _loads(text: str) -> Any:
    if _LONG_DIGITS.search(text):
        return json.loads(text, parse_constant=_reject_constant, parse_int=_parse_int)
    return json.loads(text, parse_constant=_reject_constant)


def read_json(text: Any, field: str | None = None, max_chars: int = MAX_INPUT_CHARS) -> Any:
    """JSON text as Python values, or ``InputError`` naming ``field``: ``too_large`` (longer than ``max_chars``,
    nested deeper than MAX_DEPTH), ``invalid_json`` (not JSON; NaN and Infinity are not JSON either),
    ``not_an_object`` (not a text); integers longer than 40 digits are read as ±10^40 (``out_of_range`` later).
    Its depth is counted before the decoder runs (``check_depth``). Every JSON text the estimator reads goes through
    here: the request, a pasted config.json, a DeepSpeed JSON beside an imported config, the CLI's ``--config``, the
    page's messages."""
    check_depth(check_text(text, field, max_chars), field)
    return read_text(text, _loads, field, max_chars)


def _checked_defaults() -> dict[str, Any]:
    """Each key's default as its check returns it, for the keys whose checked default is immutable (a request names
    a few keys and leaves the other fifty-odd at their defaults: checking those again was a third of a small
    request's time). A default its own check refuses is a bug of the input table and fails here, at import."""
    out = {}
    for spec in INPUTS:
        if spec.name == "model":
            continue
        value = check_value(spec, spec.default)
        if value is None or isinstance(value, (str, int, float, bool, tuple, frozenset)):
            out[spec.name] = value
    return out


_CHECKED_DEFAULTS = _checked_defaults()
_ABSENT = object()


def _values(obj: dict[str, Any]) -> dict[str, Any]:
    """Every key's value checked on its own (i18n's validate() habit): all the keys that fail are reported at
    once, unknown keys first, then in the input table's order."""
    failed = [InputError("unknown_key", str(key)[:100]) for key in obj if key not in _KEYS]
    if "model" not in obj:
        failed.append(InputError("missing_field", "model"))
    filled = _framework_defaults(obj)
    v: dict[str, Any] = {}
    for spec in INPUTS:
        name = spec.name
        given = obj.get(name, filled.get(name, _ABSENT))
        if given is _ABSENT:
            if name == "model":
                continue
            if name in _CHECKED_DEFAULTS:
                v[name] = _CHECKED_DEFAULTS[name]
                continue
            given = spec.default
        try:
            v[name] = check_value(spec, given)
        except InputError as err:
            failed.append(err)
    if failed:
        raise InputErrors(failed)
    return v


def _framework_defaults(obj: dict[str, Any]) -> dict[str, Any]:
    """The keys the request leaves out, filled by its ``framework``'s defaults (calculator/frameworks.py); none for
    ``framework`` none, or one the key's own check refuses (reported with the other keys)."""
    try:
        framework = check_value(BY_NAME["framework"], obj.get("framework", BY_NAME["framework"].default))
    except InputError:
        return {}
    return frameworks.request_defaults(framework, obj)


def framework_defaults(framework: str, request: dict[str, Any] | None = None) -> dict[str, Any]:
    """Every request key's value under ``framework`` for a request with these keys (``frameworks.request_defaults``
    over the API's defaults): what a form shows when the reader picks that framework."""
    return {**DEFAULTS, **frameworks.request_defaults(framework, request)}


def framework_json(obj: dict[str, Any]) -> dict[str, Any]:
    """What a request's ``framework`` filled in, for the answer: its id and version, and each key the request left
    out that the framework's defaults set, with its value and source (``frameworks.default``)."""
    framework = obj.get("framework", BY_NAME["framework"].default)
    fw = frameworks.get(framework)
    filled = frameworks.request_defaults(framework, obj)
    req = {**filled, **obj}
    regime_of = {key: regime for regime, (key, _spelling) in frameworks.REGIME_REQUEST.items()}
    out = []
    for key, value in filled.items():
        if key in obj:
            continue
        d = frameworks.default(framework, key, request=req) or frameworks.default(framework, regime_of.get(key, ""),
                                                                                   request=req)
        out.append({"key": key, "value": value, "source": d.source if d else ""})
    return {"id": fw.id, "version": fw.version, "defaults": out}


def parse_request(obj: Any) -> tuple[TrainingSetup, dict[str, Any]]:
    """Validate a request object; return the setup and the answer's options (gpu, include). Raises InputErrors with
    every key that fails on its own; then the rules that span several keys, first failure only."""
    if not isinstance(obj, dict):
        raise InputError("not_an_object", None)
    v = _read_regimes(_values(obj))
    _check_contradictions(v)
    fields: dict[str, Any] = {spec.name: spec.enum(v[spec.name]) if spec.enum else v[spec.name]
                              for spec in INPUTS if spec.setup}
    if fields["optimizer"] is Optimizer.SGD and v["momentum"]:
        fields["optimizer"] = Optimizer.SGD_MOMENTUM
    if fields["precision"] is Precision.FP32:
        fields["lora_dtype"] = Precision.FP32          # adapters follow an fp32 model
    setup = _counted(TrainingSetup(**fields))
    workload = None
    if v["dataset_tokens"] is not None or v["dataset_examples"] is not None:
        workload = throughput.Workload(dataset_tokens=v["dataset_tokens"], dataset_examples=v["dataset_examples"],
                                       mean_tokens_per_example=v["mean_tokens_per_example"], epochs=v["epochs"])
    return setup, {"gpu": v["gpu"], "include": v["include"], "workload": workload,
                   "gpu_hour_price": v["gpu_hour_price"],
                   # echoed as given, with or without a data size to use them on (an accepted input is echoed)
                   "workload_inputs": {k: v[k] for k in WORKLOAD_KEYS}, "epochs": v["epochs"],
                   "framework": framework_json({**obj, "framework": v["framework"]}),
                   "request": obj,       # as given: a remedy's changes are applied to it (answer.remedies_json)
                   "resolved": resolution_json(obj["model"])}


def _counted(setup: TrainingSetup) -> TrainingSetup:
    """The setup, checked (``inputs.check_setup``: the enum keys' choices and the model, which the record does not
    check itself), if it trains something: adapters with no module to wrap are refused."""
    check_setup(setup)
    if setup.method is not Method.FULL and trainable_params(setup) == 0:
        # e.g. gate_proj on a model with a plain MLP; q_proj/v_proj on a model with latent attention, said with why
        raise InputError("contradiction", "lora_targets", "mla_attention" if setup.model.kv_lora_rank else None)
    return setup


def _shared_key(obj: Any) -> str | None:
    """What a request says besides its catalogue ``model``, as exact text, or None when it has no such part:
    values of JSON's own types only (a tuple or an int subclass would print like a list or an int and might be
    checked otherwise), and no ``describe``."""
    def plain(x: Any, depth: int) -> bool:
        t = type(x)
        if t in (str, int, float, bool) or x is None:
            return True
        if depth == 0:
            return False
        if t is list:
            return all(plain(y, depth - 1) for y in x)
        return t is dict and all(type(k) is str and plain(y, depth - 1) for k, y in x.items())
    if type(obj) is not dict or "describe" in obj or type(obj.get("model")) is not str:
        return None
    rest = {k: v for k, v in obj.items() if k != "model"}
    if not plain(rest, 4):
        return None
    return json.dumps(rest, sort_keys=True)


def smallest_setup(obj: Any, cards: Iterable[str], counts: Iterable[int]) -> dict[str, Any]:
    """The answer's ``smallest_setup`` (``recommend.smallest_setup``) of a request among the catalogue cards ``cards``
    only, each in ``counts``: an article's chart of card classes asks it of each class's smallest card in the counts
    the chart shows. Raises ``InputErrors`` where ``answer`` would refuse the request."""
    setup, _options = parse_request(obj)
    return recommend.smallest_setup(setup, tuple(GPUS[c] for c in cards), tuple(counts))


def answer_each(objs: Iterable[Any]) -> Iterator[dict[str, Any]]:
    """``answer(o) for o in objs``, with the keys a run of requests shares read once: a request that differs from an
    earlier accepted one in its catalogue ``model`` alone takes that one's checked keys and options, and only its
    model is checked and its adapters counted. No key's check, default or cross-key rule reads the model (the
    frameworks' conditional defaults read ``method``, ``dpo`` and ``deepspeed``), so the answers are the same;
    tests/unit/test_api.py holds them equal over the catalogue. The "what fits" widget asks every catalogue model
    by three methods on each change: this reads 3 requests instead of 216."""
    read: dict[str, tuple[TrainingSetup, dict[str, Any]]] = {}
    for obj in objs:
        key = _shared_key(obj)
        base = read.get(key) if key is not None else None
        if base is None:
            def parsed(obj: Any = obj, key: str | None = key) -> tuple[TrainingSetup, dict[str, Any]]:
                setup, options = parse_request(obj)
                if key is not None:
                    read[key] = (setup, options)
                return setup, options
            yield _guarded(obj, parsed)
        else:
            yield _guarded(obj, lambda obj=obj, base=base: _with_model(base, obj["model"]))


def _with_model(base: tuple[TrainingSetup, dict[str, Any]], model: str) -> tuple[TrainingSetup, dict[str, Any]]:
    """An accepted request's setup and options for another catalogue model (``answer_each``)."""
    try:
        arch = check_value(BY_NAME["model"], model)
    except InputError as err:
        raise InputErrors([err]) from None          # as parse_request reports a key that fails on its own
    return _counted(models.replaced(base[0], model=arch)), {**base[1], "resolved": resolution_json(model)}


def _read_regimes(v: dict[str, Any]) -> dict[str, Any]:
    """What a combination of keys can only mean, made explicit (the answer's ``inputs`` echo it):

    * ZeRO-1, and an optimizer-only CPU offload with ZeRO-2, exist in DeepSpeed only: FSDP has no optimizer-only
      stage (torch 2.13 torch/distributed/fsdp/api.py ``ShardingStrategy``: FULL_SHARD, SHARD_GRAD_OP, NO_SHARD,
      HYBRID_SHARD, _HYBRID_SHARD_ZERO2) and its CPU offload moves the parameters too (FSDP1 ``CPUOffload``:
      "offloads gradients to CPU as well, meaning that the optimizer step runs on CPU"; FSDP2 ``CPUOffloadPolicy``),
      so they are read as DeepSpeed (``deepspeed: true``);
    * FSDP's CPU offload with FULL_SHARD (ZeRO-3) offloads the parameters (``offload_params: true``)."""
    if v["sharding"] == "zero1" or (v["sharding"] == "zero2" and v["cpu_offload"]):
        v = {**v, "deepspeed": True}
    if v["cpu_offload"] and v["sharding"] == "zero3" and not v["deepspeed"]:
        v = {**v, "offload_params": True}
    return v


def _check_contradictions(v: dict[str, Any]) -> None:
    """The rules that span several keys; the field named is the one to change."""
    if v["sharding"] != "none" and v["num_gpus"] == 1 and not v["cpu_offload"]:
        raise InputError("contradiction", "sharding")        # sharding across one card (ZeRO-Offload is the exception)
    if v["cpu_offload"] and v["sharding"] == "none":
        raise InputError("contradiction", "cpu_offload")     # offload is a ZeRO/FSDP feature
    if v["offload_params"] and v["sharding"] != "zero3":
        raise InputError("contradiction", "offload_params")
    fsdp = v["sharding"] != "none" and not v["deepspeed"]
    if fsdp and v["fsdp_version"] == 2 and v["optimizer"] in ("adamw_8bit", "paged_adamw_8bit", "paged_adamw_32bit"):
        # bitsandbytes 0.50.2 optimizers have no DTensor handling (FSDP2's parameters are DTensors): a paged state
        # would take the global shape (F.get_paged(*p.shape))
        raise InputError("contradiction", "optimizer")
    if fsdp1_refuses_uint8(v):
        raise InputError("contradiction", "quant_storage")
    if v["optimizer_in_backward"] and v["grad_accum_steps"] > 1:
        raise InputError("contradiction", "optimizer_in_backward")  # torchtune: no gradient accumulation with it
    if v["dataset_tokens"] is not None and v["dataset_examples"] is not None:
        raise InputError("contradiction", "dataset_examples")        # the data's size once: in tokens or in examples
    if v["dataset_examples"] is not None and v["mean_tokens_per_example"] is None:
        raise InputError("missing_field", "mean_tokens_per_example")
    if v["gpu_hour_price"] is not None and v["gpu"] is None:
        raise InputError("contradiction", "gpu_hour_price")   # the price of one hour of `gpu`: no card, nothing to price
    if v["half_dtype"] == "fp16" and v["precision"] != "mixed":
        raise InputError("contradiction", "half_dtype")   # fp16 is autocast over fp32 master weights (a loss scaler)
    if v["grpo"]:
        _check_grpo(v)


def _check_grpo(v: dict[str, Any]) -> None:
    """GRPO's rules (calculator/rl.py): one objective at a time; TRL's own checks (trl/trainer/grpo_config.py
    1.16.0 ``__post_init__``: the generation batch, ``per_device_train_batch_size x num_processes x
    steps_per_generation``, is a multiple of ``num_generations``); what the model does not cover yet (ZeRO/FSDP,
    which gathers the whole model for generation); a colocated vLLM needs the card whose memory it claims a share of."""
    if v["dpo"]:
        raise InputError("contradiction", "grpo")            # DPO or GRPO: one objective
    if v["sharding"] != "none":
        raise InputError("contradiction", "grpo")            # GRPO under ZeRO/FSDP is not modelled
    steps = v["grpo_steps_per_generation"] or v["grad_accum_steps"]
    if (v["micro_batch_size"] * v["num_gpus"] * steps) % v["grpo_num_generations"]:
        raise InputError("contradiction", "grpo_num_generations")
    if v["vllm_max_model_length"] is not None and \
            v["vllm_max_model_length"] < v["grpo_prompt_len"] + v["grpo_completion_len"]:
        raise InputError("contradiction", "vllm_max_model_length")   # vLLM could not take a whole sequence
    if v["grpo_generator"] == "vllm_colocate" and v["gpu"] is None:
        raise InputError("contradiction", "grpo_generator")  # its claim is a share of the chosen card's memory


def _check_vllm_pool(setup: TrainingSetup, gpu: str | None) -> None:
    """vLLM refuses to start when its KV pool cannot hold one whole sequence (vllm/v1/core/kv_cache_utils.py
    ``check_enough_kv_cache_memory``, "To serve at least one request with the model's max seq len ... KV cache is
    needed, which is larger than the available KV cache memory"): so is the request."""
    if setup.grpo and gpu is not None:
        pool = rl.vllm_pool(setup, GPUS[gpu].memory_bytes)
        if pool is not None and not pool["holds_one_sequence"]:
            raise InputError("unsupported_on_gpu", "vllm_gpu_memory_utilization", "vllm_pool_below_one_sequence")


# =====================================================================================================================
# Output
# =====================================================================================================================
def schema() -> dict[str, Any]:
    """Everything a form needs: presets, GPUs, the input specs (with defaults, enums, limits), error codes, headroom."""
    return {
        "models": [{"id": m.id, "name": m.name, "family": m.family, "params": count_params(m).total}
                   for m in MODELS.values()],
        "gpus": [gpu_json(g) for g in GPUS.values()],
        "inputs": [spec.as_json() for spec in INPUTS],
        "defaults": dict(DEFAULTS),
        "enums": {k: list(v) for k, v in ENUMS.items()},
        "limits": {k: list(v) for k, v in LIMITS.items()},
        "error_codes": list(ERROR_CODES),
        "headroom": {"comfortable_max_share": recommend.COMFORTABLE_SHARE, "tight_max_share": recommend.TIGHT_SHARE,
                     "edge_range": [COEFFICIENTS.range_low, COEFFICIENTS.range_high],
                     "setups": list(recommend.SETUP_SIZES)},
        "model_fields": {"required": list(REQUIRED_FIELDS),
                         "optional": [f for f in ARCH_FIELDS if f not in REQUIRED_FIELDS],
                         "kinds": dict(MODEL_FIELD_KINDS), "enums": {"qk_norm": list(QK_NORMS)},
                         "limits": {k: list(v) for k, v in MODEL_LIMITS.items()},
                         "max_params": MAX_PARAMS,
                         "aliases": {k: list(v) for k, v in ALIASES.items()}},
    }


def _error(code: str, field: str | None, more: list[EstimatorError] | None = None,
           reason: str | None = None, candidates: tuple[str, ...] = ()) -> dict[str, Any]:
    """The answer to a refused request: ``error`` (the first reason) and ``errors`` (every key that failed); a
    refusal with a cause of its own (``unsupported_model``, ``unsupported_on_gpu``) carries it as ``reason``, an
    ambiguous model name the ids it could be as ``candidates``."""
    def one(c: str, f: str | None, r: str | None, cands: tuple[str, ...]) -> dict[str, Any]:
        return {"code": c, "field": f, **({"reason": r} if r else {}), **({"candidates": list(cands)} if cands else {})}
    errors = ([one(e.code, e.field, e.reason, e.candidates) for e in more] if more
              else [one(code, field, reason, candidates)])
    return {"ok": False, "error": errors[0], "errors": errors}


def answer(obj: Any) -> dict[str, Any]:
    """The answer to an already-parsed request object, as a dict (``answer_text`` is the same in JSON text).
    Never raises."""
    return _guarded(obj, lambda: parse_request(obj))


def _guarded(obj: Any, parse: Callable[[], tuple[TrainingSetup, dict[str, Any]]]) -> dict[str, Any]:
    """The answer to ``obj``, its setup and options read by ``parse``; every failure is an error answer."""
    try:
        if isinstance(obj, dict) and obj.get("describe") is True:
            return {"ok": True, "schema": schema()}
        if isinstance(obj, dict) and "describe" in obj and obj["describe"] is not False:
            return _error("wrong_type", "describe")
        setup, options = parse()
        if options["gpu"] is not None:                 # what the chosen card cannot run: refused or adjusted
            run, adjusted, notes = recommend.runnable(setup, GPUS[options["gpu"]])
            options = {**options, "requested": setup, "adjusted": adjusted, "card_notes": notes}
            setup = run
        # GRPO: the headline is its training micro-step (prompt + completion tokens); answer.py adds the phases
        e = rl.training_estimate(setup) if setup.grpo else _estimate(setup)
        _check_vllm_pool(setup, options["gpu"])
        result = result_json(setup, e, options)
        return {"ok": True, "result": result}
    except InputErrors as err:
        return _error(err.code, err.field, err.errors)
    except EstimatorError as err:
        return _error(err.code, err.field, reason=err.reason, candidates=err.candidates)
    except RecursionError:
        return _error("too_large", None)
    except (MemoryError, OverflowError):
        return _error("too_large", None)
    except Exception:  # noqa: BLE001 - the boundary never raises
        return _error("internal_error", None)


def answer_text(text: Any) -> str:
    """JSON text in, JSON text out. Never raises."""
    try:
        if not isinstance(text, str):
            return json.dumps(_error("not_an_object", None))
        try:
            obj = read_json(text)
        except InputError as err:
            return json.dumps(_error(err.code, err.field))
        out = answer(obj)
        return json.dumps(out, allow_nan=False)
    except Exception:  # noqa: BLE001
        try:
            return json.dumps(_error("internal_error", None))
        except Exception:  # pragma: no cover
            return ('{"ok": false, "error": {"code": "internal_error", "field": null}, '
                    '"errors": [{"code": "internal_error", "field": null}]}')
