"""The JSON boundary: contract keys, defaults, error codes naming the field, never raising."""
from __future__ import annotations

import json

import pytest

from calculator import api
from calculator.catalog import GPUS, MODELS

pytestmark = pytest.mark.unit


def call(obj) -> dict:
    text = obj if isinstance(obj, str) else json.dumps(obj)
    out = json.loads(api.answer_text(text))
    assert isinstance(out, dict) and isinstance(out["ok"], bool)
    return out


def err(obj) -> tuple[str, str | None]:
    out = call(obj)
    assert out["ok"] is False, out
    assert set(out["error"]) == {"code", "field"}
    assert out["error"]["code"] in api.ERROR_CODES
    return out["error"]["code"], out["error"]["field"]


def test_minimal_request_uses_documented_defaults() -> None:
    out = call({"model": "llama-3.1-8b"})
    assert out["ok"]
    inputs = out["result"]["inputs"]
    for key, value in api.DEFAULTS.items():
        if key in ("gpu", "include", "lora_targets"):
            continue
        assert inputs[key] == value, key
    assert inputs["lora_targets"] == ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]


def test_contract_keys_present() -> None:
    r = call({"model": "llama-2-7b", "gpu": "a100-80gb"})["result"]
    for key in ("peak_bytes_per_gpu", "breakdown_bytes", "params", "trainable_params", "allocated_bytes",
                "reserved_bytes", "range", "peak_gb", "peak_gib", "phase", "host_ram_bytes", "checkpoint_bytes",
                "adapter_bytes", "gpu_table", "smallest_setup", "remedies", "max_seq_len", "max_micro_batch_size"):
        assert key in r, key
    assert isinstance(r["peak_bytes_per_gpu"], int)
    for key in ("weights", "master_copy", "gradients", "optimizer_states", "activations", "logits_loss",
                "lora_adapter", "dequant_transient", "reference_model", "cuda_context", "allocator_reserve"):
        assert isinstance(r["breakdown_bytes"][key], int), key
    assert r["peak_gb"] == round(r["peak_bytes_per_gpu"] / 1e9, 2)
    assert r["peak_gib"] == round(r["peak_bytes_per_gpu"] / 2**30, 2)
    assert r["params"] == MODELS["llama-2-7b"].published_params
    assert r["peak_bytes_per_gpu"] - r["breakdown_bytes"]["cuda_context"] == r["reserved_bytes"]


def test_pasted_config_equals_preset() -> None:
    cfg = {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 4096,
           "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8,
           "intermediate_size": 14336, "vocab_size": 128256, "tie_word_embeddings": False, "rope_theta": 500000.0,
           "rope_scaling": {"factor": 8.0, "rope_type": "llama3"}, "torch_dtype": "bfloat16"}
    a = call({"model": cfg, "method": "lora"})["result"]
    b = call({"model": "llama-3.1-8b", "method": "lora"})["result"]
    assert a["peak_bytes_per_gpu"] == b["peak_bytes_per_gpu"]
    assert a["params"] == MODELS["llama-3.1-8b"].published_params


def test_config_aliases_and_ungated_model_type() -> None:
    gpt2 = {"model_type": "gpt2", "n_embd": 768, "n_layer": 12, "n_head": 12, "vocab_size": 50257, "n_inner": None,
            "tie_word_embeddings": True}
    r = call({"model": gpt2})["result"]
    assert r["model"]["intermediate_size"] == 4 * 768 and r["model"]["mlp_gated"] is False
    h = 768
    expected = 50257 * h + 12 * (4 * h * h + 2 * h * 4 * h + 2 * h) + h
    assert r["params"] == expected


def test_moe_config_fields() -> None:
    # no tie_word_embeddings: MixtralConfig's default (False) applies, as transformers would build it
    cfg = {"model_type": "mixtral", "hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8,
           "intermediate_size": 14336, "vocab_size": 32000, "num_local_experts": 8, "num_experts_per_tok": 2}
    r = call({"model": cfg})["result"]
    assert r["params"] == MODELS["mixtral-8x7b"].published_params


@pytest.mark.parametrize("obj,code,field", [
    ({"model": "no-such-model"}, "unknown_model", "model"),
    ({}, "missing_field", "model"),
    ({"model": 7}, "not_an_object", "model"),
    ({"model": [1, 2, 3]}, "not_an_object", "model"),
    ({"model": None}, "not_an_object", "model"),
    ({"model": {"text_config": [1]}}, "not_an_object", "model.text_config"),
    ({"model": {"hidden_size": 64}}, "missing_field", "model.num_hidden_layers"),
    ({"model": {"hidden_size": "64", "num_hidden_layers": 2, "num_attention_heads": 4, "vocab_size": 10}},
     "wrong_type", "model.hidden_size"),
    ({"model": {"hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "vocab_size": -1}},
     "out_of_range", "model.vocab_size"),
    ({"model": {"hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "vocab_size": 10, "intermediate_size": 128,
                "num_key_value_heads": 3}}, "contradiction", "model.num_key_value_heads"),
    ({"model": {"hidden_size": 10**6, "num_hidden_layers": 10**4, "num_attention_heads": 1, "vocab_size": 10,
                "intermediate_size": 10**7}}, "too_large", "model"),
    ({"model": "llama-2-7b", "method": "prefix"}, "unknown_value", "method"),
    ({"model": "llama-2-7b", "method": 1}, "wrong_type", "method"),
    ({"model": "llama-2-7b", "seq_len": -1}, "out_of_range", "seq_len"),
    ({"model": "llama-2-7b", "seq_len": 0}, "out_of_range", "seq_len"),
    ({"model": "llama-2-7b", "seq_len": 10**12}, "out_of_range", "seq_len"),
    ({"model": "llama-2-7b", "seq_len": 2048.0}, "wrong_type", "seq_len"),
    ({"model": "llama-2-7b", "seq_len": "2048"}, "wrong_type", "seq_len"),
    ({"model": "llama-2-7b", "micro_batch_size": True}, "wrong_type", "micro_batch_size"),
    ({"model": "llama-2-7b", "num_gpus": False}, "wrong_type", "num_gpus"),
    ({"model": "llama-2-7b", "dpo": 1}, "wrong_type", "dpo"),
    ({"model": "llama-2-7b", "torch_compile": "yes"}, "wrong_type", "torch_compile"),
    ({"model": "llama-2-7b", "deepspeed": None}, "wrong_type", "deepspeed"),
    ({"model": "llama-2-7b", "reduce_bucket_size": 0}, "out_of_range", "reduce_bucket_size"),
    ({"model": "llama-2-7b", "reduce_bucket_size": 5e8}, "wrong_type", "reduce_bucket_size"),
    ({"model": "llama-2-7b", "dpo": "true"}, "wrong_type", "dpo"),
    ({"model": "llama-2-7b", "lora_targets": ["q_proj", "wq"]}, "unknown_value", "lora_targets"),
    ({"model": "llama-2-7b", "lora_targets": []}, "out_of_range", "lora_targets"),
    ({"model": "llama-2-7b", "lora_targets": 3}, "wrong_type", "lora_targets"),
    ({"model": "llama-2-7b", "lora_dropout": 1.5}, "out_of_range", "lora_dropout"),
    ({"model": "llama-2-7b", "optimizer": "adam"}, "unknown_value", "optimizer"),
    ({"model": "llama-2-7b", "gpu": "tpu-v5"}, "unknown_gpu", "gpu"),
    ({"model": "llama-2-7b", "sharding": "zero3"}, "contradiction", "sharding"),
    ({"model": "llama-2-7b", "num_gpus": 2, "cpu_offload": True}, "contradiction", "cpu_offload"),
    ({"model": "llama-2-7b", "num_gpus": 2, "sharding": "zero2", "offload_params": True}, "contradiction",
     "offload_params"),
    ({"model": "llama-2-7b", "optimizer_in_backward": True, "grad_accum_steps": 4}, "contradiction",
     "optimizer_in_backward"),
    ({"model": "llama-2-7b", "colour": "red"}, "unknown_key", "colour"),
    ({"model": "phi-2", "method": "lora", "lora_targets": ["gate_proj"]}, "contradiction", "lora_targets"),
    ({"model": "llama-2-7b", "include": ["everything"]}, "unknown_value", "include"),
    ([1, 2], "not_an_object", None),
    ("null", "not_an_object", None),
    ('"llama-2-7b"', "not_an_object", None),
])
def test_bad_input_gives_code_and_field(obj, code: str, field: str | None) -> None:
    assert err(obj) == (code, field)


@pytest.mark.parametrize("text", ["", "{", "{'model': 'x'}", '{"model": NaN}', '{"model": "llama-2-7b",'
                                  ' "lora_dropout": Infinity}', "\x00", "[" * 5])
def test_broken_json(text: str) -> None:
    assert err(text)[0] == "invalid_json"


def test_deep_and_huge_inputs_never_raise() -> None:
    assert err("[" * 100_000 + "]" * 100_000)[0] == "too_large"
    assert err('{"model": ' + "[" * 50 + "]" * 50 + "}")[0] == "too_large"
    assert err('{"model": "' + "x" * 300_000 + '"}')[0] == "too_large"
    assert api.answer_text(None) and json.loads(api.answer_text(None))["ok"] is False  # type: ignore[arg-type]


def test_lora_fields_with_full_are_ignored() -> None:
    a = call({"model": "llama-2-7b", "method": "full", "lora_rank": 64, "lora_targets": ["q_proj"]})["result"]
    b = call({"model": "llama-2-7b", "method": "full"})["result"]
    assert a["peak_bytes_per_gpu"] == b["peak_bytes_per_gpu"]


def test_fsdp_is_zero3_and_sgd_momentum_alias() -> None:
    a = call({"model": "llama-2-7b", "num_gpus": 4, "sharding": "fsdp"})["result"]
    b = call({"model": "llama-2-7b", "num_gpus": 4, "sharding": "zero3"})["result"]
    assert a["peak_bytes_per_gpu"] == b["peak_bytes_per_gpu"] and a["inputs"]["sharding"] == "zero3"
    c = call({"model": "llama-2-7b", "optimizer": "sgd", "momentum": True})["result"]
    d = call({"model": "llama-2-7b", "optimizer": "sgd_momentum"})["result"]
    assert c["breakdown_bytes"]["optimizer_states"] == d["breakdown_bytes"]["optimizer_states"] > 0


def test_inputs_round_trip() -> None:
    first = call({"model": "qwen2.5-7b", "method": "qlora", "dpo": True, "seq_len": 4096, "num_gpus": 2,
                  "sharding": "zero2", "gpu": "l40s"})["result"]
    again = call(dict(first["inputs"], model="qwen2.5-7b", gpu="l40s"))["result"]
    assert again == first


def test_include_controls_expensive_parts() -> None:
    r = call({"model": "llama-2-7b", "gpu": "rtx-4090", "include": []})["result"]
    assert "gpu_table" not in r and "remedies" not in r and "max_seq_len" not in r
    assert r["gpu"]["verdict"] in ("comfortable", "tight", "does_not_fit")


def test_describe_and_schema() -> None:
    out = call({"describe": True})
    sch = out["schema"]
    assert sch == api.schema()
    assert {m["id"] for m in sch["models"]} == set(MODELS)
    assert {g["id"] for g in sch["gpus"]} == set(GPUS)
    assert set(sch["error_codes"]) == set(api.ERROR_CODES)
    assert sch["defaults"]["method"] == "full" and sch["enums"]["sharding"][-1] == "fsdp"
    json.dumps(sch)   # serialisable


def test_output_is_strict_json() -> None:
    text = api.answer_text(json.dumps({"model": "llama-2-7b", "gpu": "h100-80gb"}))
    json.loads(text, parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))


def test_every_key_that_fails_on_its_own_is_reported_at_once() -> None:
    """Three bad keys give three errors, in the input table's order (the first is ``error``, as before); the rules
    that span several keys come only once every key is good on its own."""
    out = call({"model": "llama-3.1-8b", "seq_len": 0, "micro_batch_size": "abc", "lora_rank": -1, "bogus": 1})
    assert out["errors"] == [{"code": "unknown_key", "field": "bogus"}, {"code": "out_of_range", "field": "lora_rank"},
                             {"code": "wrong_type", "field": "micro_batch_size"},
                             {"code": "out_of_range", "field": "seq_len"}]
    assert out["error"] == out["errors"][0]
    both = call({"model": "llama-3.1-8b", "sharding": "zero3", "seq_len": 0})      # sharding on one card, and s = 0
    assert both["errors"] == [{"code": "out_of_range", "field": "seq_len"}]
    assert call({"model": "llama-3.1-8b", "sharding": "zero3"})["errors"] == [{"code": "contradiction",
                                                                              "field": "sharding"}]


@pytest.mark.parametrize("framework", ["none", "trl", "axolotl"])
def test_a_key_left_out_is_answered_as_its_default_given(framework: str) -> None:
    """The parser uses each default's checked value when a key is left out (api._CHECKED_DEFAULTS): the answer is
    the one that giving every default explicitly gets, the framework's fill-ins included."""
    base = {"model": "llama-3.1-8b", "gpu": "rtx-4090", "framework": framework, "dataset_tokens": 10**6}
    explicit = {**api.framework_defaults(framework, base), **base}
    explicit.pop("describe", None)
    left_out, given = call(base), call(explicit)
    assert left_out["ok"] and given["ok"], (left_out, given)
    assert left_out["result"]["inputs"] == given["result"]["inputs"]
    assert left_out["result"]["peak_bytes_per_gpu"] == given["result"]["peak_bytes_per_gpu"]


def test_setups_models_and_cards_keep_their_hash_out_of_their_fields() -> None:
    """models.hashed_once: equal setups hash alike however they were made, the kept hash is no field (replace,
    fields, pickling and the JSON never carry it), and a changed field gives another key."""
    import dataclasses
    import pickle

    a, _ = api.parse_request({"model": "llama-3.1-8b", "method": "qlora"})
    b = dataclasses.replace(a, seq_len=a.seq_len)
    assert a == b and hash(a) == hash(b) and {a: 1}[b] == 1
    assert "_hash" not in {f.name for f in dataclasses.fields(a)} and "_hash" in a.__dict__
    c = dataclasses.replace(a, seq_len=4096)
    assert c != a and "_hash" not in c.__dict__ and hash(c) != hash(a)
    back = pickle.loads(pickle.dumps(a))
    assert back == a and "_hash" not in back.__dict__ and hash(back) == hash(a)
    assert api.inputs_json(a) == api.inputs_json(b) and "_hash" not in api.inputs_json(a)
    for obj in (MODELS["llama-3.1-8b"], GPUS["rtx-4090"]):
        assert hash(obj) == hash(dataclasses.replace(obj)) and "_hash" not in {f.name for f in dataclasses.fields(obj)}


#: Requests that share every key but the model, as the "what fits" widget sends them, over states that exercise
#: each kind of key the shared reading reuses: a framework's conditional defaults (method, dpo), sharding, a paged
#: optimizer, adapters that some models cannot wrap (gate_proj on a plain MLP), a workload and a price, a refused key.
_SHARED_STATES = [
    {"gpu": "rtx-4090", "include": []},
    {"framework": "trl", "gpu": "a100-80gb", "seq_len": 4096, "include": []},
    {"framework": "torchtune", "dpo": True, "include": []},
    {"framework": "unsloth", "sharding": "zero3", "num_gpus": 2, "gpu": "rtx-3090", "include": []},
    {"lora_targets": ["gate_proj"], "optimizer": "paged_adamw_32bit", "dataset_tokens": 10_000_000,
     "gpu": "h100-80gb", "gpu_hour_price": 2.5, "include": []},
    {"seq_len": "many", "include": []},
]


@pytest.mark.parametrize("state", _SHARED_STATES, ids=lambda s: ",".join(s)[:40])
def test_answers_of_a_run_of_requests_equal_each_answer_alone(state) -> None:
    """api.answer_each reads the keys a run of requests shares once; its answers are those of api.answer, request by
    request, for every catalogue model by every method (an alias, an unknown id, a config object, a tuple and a
    describe among them, which it reads in full)."""
    requests = [{**state, "model": model, "method": method} for model in MODELS for method in ("qlora", "lora", "full")]
    requests[5:5] = [{**state, "model": "no-such-model"}, {**state, "model": "QWEN/Qwen3-8B"},
                     {**state, "model": dict(MODELS["llama-3.2-1b"].__dict__)}, {"describe": True},
                     {**state, "model": "qwen3-8b", "lora_targets": ("q_proj",)}, ["not", "an", "object"]]
    together = list(api.answer_each(requests))
    alone = [api.answer(r) for r in requests]
    assert len(together) == len(alone) == len(requests)
    for r, a, b in zip(requests, together, alone):
        assert a == b, r
    assert sum(a["ok"] for a in alone) > (0 if "many" in state.values() else len(MODELS))  # answered, not refused


def test_replaced_is_dataclasses_replace_with_its_check() -> None:
    """models.replaced (answer_each's copy of a setup for the next catalogue model, and the advice's bisections and
    remedies) makes what dataclasses.replace makes: equal, hashed alike, not carrying the old kept hash, checked the
    same way, and refusing a name that is no field."""
    import dataclasses

    from calculator.errors import InputError
    from calculator.inputs import check_setup
    from calculator.models import Method, TrainingSetup, replaced

    base, _ = api.parse_request({"model": "qwen3-8b", "method": "lora", "seq_len": 4096})
    hash(base)                                                   # the kept hash, which the copy must not inherit
    changes = [{"model": MODELS[m]} for m in ("llama-3.2-1b", "mixtral-8x7b", "deepseek-v3", "gemma-3-27b")]
    changes += [{"seq_len": 123}, {"micro_batch_size": 3, "grad_accum_steps": 5}, {"method": Method.QLORA}, {}]
    for change in changes:
        other, made = replaced(base, **change), dataclasses.replace(base, **change)
        assert type(other) is TrainingSetup and other == made and hash(other) == hash(made)
        assert (hash(other) != hash(base)) == bool(change) and vars(other).keys() - {"_hash"} == vars(made).keys() - {"_hash"}
        assert base.model is MODELS["qwen3-8b"] and base.seq_len == 4096
    arch = MODELS["qwen3-8b"]
    assert replaced(arch, name="X") == dataclasses.replace(arch, name="X")          # a model too
    bad = dataclasses.replace(arch, num_hidden_layers=0)        # a model read as a config is the API's check
    assert replaced(base, model=bad) == dataclasses.replace(base, model=bad)
    with pytest.raises(InputError):
        check_setup(replaced(base, model=bad))
    for change in ({"seq_len": 0}, {"method": "qlora"}, {"micro_batch_size": 2, "lora_dropout": -0.5}):
        with pytest.raises(InputError) as by_replace:           # the setup's own check, on the changed fields
            dataclasses.replace(base, **change)
        with pytest.raises(InputError) as by_replaced:
            replaced(base, **change)
        assert (by_replaced.value.code, by_replaced.value.field) == (by_replace.value.code, by_replace.value.field)
    with pytest.raises(TypeError):
        replaced(base, no_such_field=1)
