"""Hypothesis strategies the property tests share, built from the input table (attrs' tests/strategies.py habit).

``setups()`` draws every ``TrainingSetup`` field from its entry in ``calculator.inputs.INPUTS``: a key declared
there with ``setup=True`` is drawn here with no edit, over the whole range the API accepts (``low``..``high``, every
choice, ``None`` when nullable). Only the table's public description of a key is read (``name``, ``kind``, ``low``,
``high``, ``choices``, ``nullable``, ``setup``), so the strategy does not depend on how the estimator checks it.

The drawn request goes through ``api.parse_request``, the estimator's own parser, so the setups are those a reader
can ask for: enum values, module lists and the normalisations (sgd + momentum, adapters in fp32 under fp32) are the
API's. When a drawn request breaks a rule that spans several keys, the API names the key to change
(``contradiction``) and that key is put back to its default, so the cross-key rules live in one place. The model is
drawn apart (``archs()``: a catalogue entry or a random shape), as the API's ``model`` key is.

A law that needs a realistic range narrows one key with ``setups(narrow={"seq_len": st.integers(1, 4096)})``.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from hypothesis import strategies as st

from calculator import api
from calculator.errors import InputError
from calculator.catalog import GPUS, MODELS
from calculator.inputs import INPUTS
from calculator.models import ModelArch, TrainingSetup

__all__ = ["SETUP_KEYS", "archs", "setups", "requests", "value_of"]

#: The request keys that are TrainingSetup fields (the model aside): every one is drawn.
SETUP_KEYS: tuple[str, ...] = tuple(spec.name for spec in INPUTS if spec.setup and spec.name != "model")
_SPECS = {spec.name: spec for spec in INPUTS}
#: A catalogue model every LoRA target exists in, parsed with the request before the drawn model replaces it.
_PARSE_MODEL = "llama-3.1-8b"


def _kind(spec: Any) -> str:
    """The kind's name (a string today; an object with a ``name`` if the kinds become objects)."""
    return spec.kind if isinstance(spec.kind, str) else spec.kind.name


def value_of(spec: Any) -> st.SearchStrategy[Any]:
    """Any JSON value the API accepts for one key, from its entry in the table."""
    kind = _kind(spec)
    if kind == "bool":
        base: st.SearchStrategy[Any] = st.booleans()
    elif kind == "int":      # the default as often as anything else: most setups keep it, and cross-key rules hold
        base = st.just(spec.default) | st.integers(int(spec.low), int(spec.high))
    elif kind == "float":
        base = st.just(spec.default) | st.floats(spec.low, spec.high, allow_nan=False, allow_infinity=False)
    elif kind == "enum":
        base = st.sampled_from(spec.choices)
    elif kind == "modules":
        base = st.lists(st.sampled_from(spec.choices), min_size=1, max_size=len(spec.choices), unique=True)
    else:
        raise NotImplementedError(f"tests/strategies.py draws no {kind!r} value (input {spec.name!r}): add the kind "
                                  "here")
    return st.none() | base if spec.nullable else base


#: One strategy per key, made once: Hypothesis validates and wraps each strategy object on its first draw, and a
#: new one per key per example was most of the drawing time (17 of the fast tiers' 47 s under the profiler).
_VALUES = {name: value_of(_SPECS[name]) for name in SETUP_KEYS}


@st.composite
def archs(draw, catalogue_only: bool = False) -> ModelArch:
    """A catalogue model, or (half the time) a random decoder shape, dense or MoE."""
    if catalogue_only or draw(st.booleans()):
        return MODELS[draw(st.sampled_from(sorted(MODELS)))]
    kv = draw(st.integers(1, 16))
    a = kv * draw(st.integers(1, 8))
    d = draw(st.sampled_from([16, 32, 64, 128]))
    experts = draw(st.sampled_from([0, 0, 4, 8]))
    return ModelArch(id="custom", name="c", family="c", hidden_size=a * d, num_hidden_layers=draw(st.integers(1, 96)),
                     num_attention_heads=a, num_key_value_heads=kv, intermediate_size=draw(st.integers(1, 30000)),
                     vocab_size=draw(st.integers(1, 260000)), tie_word_embeddings=draw(st.booleans()),
                     num_local_experts=experts, num_experts_per_tok=min(2, experts), mlp_gated=draw(st.booleans()),
                     attention_bias=draw(st.booleans()))


def _parse(request: dict[str, Any]) -> TrainingSetup:
    """The API's setup for a drawn request; a key the API names in a contradiction goes back to its default."""
    for _ in range(len(request) + 1):
        try:
            return api.parse_request({**request, "model": _PARSE_MODEL, "include": []})[0]
        except InputError as e:
            if e.code != "contradiction" or e.field not in request:
                raise AssertionError(f"tests/strategies.py drew a request the API refuses: {e.code} {e.field} "
                                     f"{request}") from e
            if request[e.field] == _SPECS[e.field].default and e.field.startswith("grpo_"):
                request["grpo"] = False       # a GRPO rule its default cannot meet (TRL's batch divisibility)
            request[e.field] = _SPECS[e.field].default
    raise AssertionError(f"no consistent request from {request}")


@st.composite
def setups(draw, catalogue_only: bool = False, narrow: dict[str, st.SearchStrategy[Any]] | None = None
           ) -> TrainingSetup:
    """A TrainingSetup with every field drawn from the input table (``narrow``: a law's own range for a key)."""
    narrow = narrow or {}
    unknown = set(narrow) - set(SETUP_KEYS)
    assert not unknown, f"narrow names no setup key: {sorted(unknown)}"
    request = {name: draw(narrow[name] if name in narrow else _VALUES[name], label=name) for name in SETUP_KEYS}
    return replace(_parse(request), model=draw(archs(catalogue_only), label="model"))


@st.composite
def requests(draw, narrow: dict[str, st.SearchStrategy[Any]] | None = None) -> dict[str, Any]:
    """A request as a caller sends it (JSON keys): every setup key drawn from the input table as ``setups`` draws
    it (a key the API names in a contradiction back at its default), a catalogue model and a catalogue card."""
    narrow = narrow or {}
    request = {name: draw(narrow[name] if name in narrow else _VALUES[name], label=name) for name in SETUP_KEYS}
    _parse(request)
    request["model"] = draw(st.sampled_from(sorted(MODELS)), label="model")
    request["gpu"] = draw(st.sampled_from(sorted(GPUS)), label="gpu")
    return request
