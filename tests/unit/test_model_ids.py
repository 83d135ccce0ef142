"""Hugging Face repo ids wherever a model id is (issue 20): the API, the CLI, any case, with or without the Hub's
address; aliases carry their target's config fields; the repos and model types the estimator refuses say why."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from calculator import api, vocab
from calculator.catalog import MODEL_IDS, MODELS, REFUSED_MODELS, repo_key
from calculator.configs import ARCH_FIELDS, UNSUPPORTED_TYPES, model_json, parse_model
from calculator.params import count_params

pytestmark = pytest.mark.unit


def answer(model) -> dict:
    return api.answer({"model": model, "include": []})


@pytest.mark.parametrize("text,expected", [
    ("qwen3-8b", "qwen3-8b"),
    ("Qwen/Qwen3-8B", "qwen3-8b"),
    ("qwen/QWEN3-8b", "qwen3-8b"),
    ("  Qwen/Qwen3-8B-Base ", "qwen3-8b"),
    ("https://huggingface.co/Qwen/Qwen3-8B", "qwen3-8b"),
    ("huggingface.co/Qwen/Qwen3-8B/tree/main", "qwen3-8b"),
    ("unsloth/Qwen3-8B-unsloth-bnb-4bit", "qwen3-8b"),
    ("deepseek-ai/DeepSeek-R1-0528-Qwen3-8B", "qwen3-8b"),
    ("deepseek-ai/DeepSeek-R1-Distill-Qwen-7B", "qwen2.5-7b"),
    ("deepseek-ai/DeepSeek-R1-Distill-Llama-8B", "llama-3.1-8b"),
    ("deepseek-ai/DeepSeek-R1-Distill-Llama-70B", "llama-3.3-70b"),
    ("deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B", "deepseek-r1-distill-qwen-1.5b"),
    ("meta-llama/Llama-3.1-8B-Instruct", "llama-3.1-8b"),
    ("Llama-3.1-8B", "llama-3.1-8b"),
    ("google/gemma-3-12b-pt", "gemma-3-12b"),
    ("mistralai/Mistral-Small-3.2-24B-Instruct-2506", "mistral-small-3.1-24b"),
    ("mistralai/Mistral-Small-24B-Instruct-2501", "mistral-small-3-24b"),
])
def test_repo_ids_and_aliases_name_their_entry(text: str, expected: str) -> None:
    assert parse_model(text) is MODELS[expected]
    r = answer(text)
    assert r["ok"] and r["result"]["params"] == MODELS[expected].published_params


def test_every_name_of_every_entry_resolves_to_it() -> None:
    for m in MODELS.values():
        for name in (m.id, m.hf_id, *m.aliases, m.hf_id.upper(), f"https://huggingface.co/{m.hf_id}"):
            assert parse_model(name) is m, (m.id, name)
    assert len(MODEL_IDS) == len({repo_key(n) for m in MODELS.values() for n in (m.id, m.hf_id, *m.aliases)})


def test_an_alias_has_its_targets_config_fields() -> None:
    """The alias is its target's architecture: the same fields, the same config object, the same estimate."""
    for m in MODELS.values():
        target = model_json(m)
        for alias in m.aliases:
            got = parse_model(alias)
            assert {f: getattr(got, f) for f in ARCH_FIELDS} == {f: target[f] for f in ARCH_FIELDS}, alias
    # R1-Distill-Qwen-1.5B unties its embeddings: its own entry, one lm_head (151936 x 1536) more than Qwen2.5-1.5B
    distill, base = MODELS["deepseek-r1-distill-qwen-1.5b"], MODELS["qwen2.5-1.5b"]
    assert "deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B" not in base.aliases
    assert count_params(distill).total - count_params(base).total == 151_936 * 1536


@pytest.mark.parametrize("repo,reason", [
    ("google/gemma-3n-E4B-it", "per_layer_embeddings"),
    ("Google/Gemma-3n-E2B", "per_layer_embeddings"),
])
def test_refused_repos_say_why(repo: str, reason: str) -> None:
    r = answer(repo)
    assert r["error"] == {"code": "unsupported_model", "field": "model", "reason": reason}


def test_an_unknown_repo_is_unknown() -> None:
    assert answer("someone/not-a-model")["error"] == {"code": "unknown_model", "field": "model"}


@pytest.mark.parametrize("cfg,reason", [
    # linear-attention / recurrent / hybrid mixers: estimated as Llama-like decoders before issue 20
    ({"model_type": "gla"}, "not_attention"),
    ({"model_type": "retnet"}, "not_attention"),
    ({"model_type": "rwkv7"}, "not_attention"),
    ({"model_type": "delta_net"}, "not_attention"),
    ({"model_type": "qwen3_5"}, "vision_tower"),          # its Gated DeltaNet text model is read, its tower is not
    ({"model_type": "qwen3_5_moe"}, "vision_tower"),      # so is its MoE text model (qwen3_5_moe_text)
    ({"model_type": "kimi_linear"}, "not_attention"),
    ({"model_type": "qwen3_next", "layer_types": ["linear_attention", "mamba"]}, "not_attention"),   # a mixer not read
    ({"model_type": "llama", "layer_types": ["linear_attention", "full_attention"]}, "not_attention"),   # nor here
    ({"model_type": "my_mixer", "attn_mode": "chunk"}, "not_attention"),
    # Gemma 3n, by type and by its per-layer-embedding keys under another name
    ({"model_type": "gemma3n"}, "per_layer_embeddings"),
    ({"model_type": "my_gemma", "hidden_size_per_layer_input": 256}, "per_layer_embeddings"),
    ({"model_type": "gemma3n", "text_config": {"model_type": "gemma3n_text"}}, "per_layer_embeddings"),
    # a vision tower the estimator does not count: refused, never dropped silently
    ({"model_type": "llava_next", "text_config": {"model_type": "llama"}, "vision_config": {}}, "vision_tower"),
    ({"model_type": "paligemma", "text_config": {"model_type": "gemma"}}, "vision_tower"),
    ({"model_type": "my_vlm", "vision_config": {"hidden_size": 64}}, "vision_tower"),
    ({"model_type": "gemma3", "vision_config": {"vision_use_head": True}, "text_config": {}}, "vision_tower"),
])
def test_models_the_estimator_cannot_count_are_refused_with_their_reason(cfg: dict, reason: str) -> None:
    base = {"hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "vocab_size": 100,
            "intermediate_size": 128}
    nested = "text_config" in cfg            # a multimodal config nests its language model
    r = answer({**cfg, "text_config": {**base, **cfg["text_config"]}} if nested else {**base, **cfg})
    assert r["ok"] is False
    assert r["error"]["code"] == "unsupported_model" and r["error"]["reason"] == reason, r


def test_every_reason_is_in_the_vocabulary() -> None:
    assert set(UNSUPPORTED_TYPES.values()) | set(REFUSED_MODELS.values()) <= set(vocab.UNSUPPORTED_REASONS)


def test_the_cli_takes_a_repo_id_and_says_why_it_refuses() -> None:
    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "calculator", *args], capture_output=True, text=True,
                              timeout=120)
    ok = run("--model", "Qwen/Qwen3-8B", "--json")
    assert ok.returncode == 0 and json.loads(ok.stdout)["result"]["params"] == 8_190_735_360
    refused = run("--model", "google/gemma-3n-E4B-it")
    assert refused.returncode == 2 and "unsupported_model (model): " in refused.stderr
    assert "embeddings for every layer" in refused.stderr
