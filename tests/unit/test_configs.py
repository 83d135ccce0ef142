"""config.json parsing (calculator/configs.py) on real configs: exact parameter counts of the MoE and latent-attention
families, per-model_type defaults, ignored fields reported, refusals, MoE memory, and the custom round trip."""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from calculator import api
from calculator import memory as mem
from calculator.catalog import MODELS
from calculator.configs import parse_model
from calculator.errors import InputError
from calculator.models import Method, Precision, TrainingSetup

pytestmark = pytest.mark.unit

DATA = Path(__file__).resolve().parents[1] / "data" / "configs"

# file -> (published total, catalogue id); the totals and their sources are in tests/data/configs/README.md
PUBLISHED = {
    "mixtral-8x7b-v0.1": (46_702_792_704, "mixtral-8x7b"),
    "qwen1.5-moe-a2.7b": (14_315_784_192, "qwen1.5-moe-a2.7b"),
    "qwen3-30b-a3b": (30_532_122_624, "qwen3-30b-a3b"),
    "deepseek-v2-lite": (15_706_484_224, "deepseek-v2-lite"),
    "deepseek-v3": (671_026_419_200, "deepseek-v3"),
    "olmoe-1b-7b-0924": (6_919_161_856, "olmoe-1b-7b"),
    "gpt-oss-20b": (20_914_757_184, "gpt-oss-20b"),
    "gpt-oss-120b": (116_829_156_672, "gpt-oss-120b"),
    "gemma-2b": (2_506_172_416, "gemma-2b"),
}


def config(name: str) -> dict:
    return json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))


def call(obj) -> dict:
    return json.loads(api.answer_text(json.dumps(obj)))


def error(obj) -> tuple[str, str | None]:
    out = call(obj)
    assert out["ok"] is False, out
    return out["error"]["code"], out["error"]["field"]


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_real_config_counts_exactly_the_published_total(name: str) -> None:
    published, _ = PUBLISHED[name]
    r = call({"model": config(name), "include": []})["result"]
    assert r["params"] == published


def test_the_issue_figures_are_gone() -> None:
    # issue 10: the real Qwen3-30B-A3B config gave 233.5 B and Qwen1.5-MoE-A2.7B 50.9 B
    assert round(call({"model": config("qwen3-30b-a3b"), "include": []})["result"]["params"] / 1e9, 1) == 30.5
    assert round(call({"model": config("qwen1.5-moe-a2.7b"), "include": []})["result"]["params"] / 1e9, 1) == 14.3


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_pasted_config_estimates_like_its_catalogue_entry(name: str) -> None:
    _, model_id = PUBLISHED[name]
    for req in ({"method": "full", "precision": "mixed"}, {"method": "qlora", "seq_len": 4096},
                {"method": "lora", "micro_batch_size": 2, "gradient_checkpointing": True}):
        pasted = call({"model": config(name), "include": [], **req})["result"]
        preset = call({"model": model_id, "include": [], **req})["result"]
        assert pasted["peak_bytes_per_gpu"] == preset["peak_bytes_per_gpu"], req
        assert pasted["trainable_params"] == preset["trainable_params"], req


def test_fields_read_from_each_family() -> None:
    q = parse_model(config("qwen1.5-moe-a2.7b"))
    assert (q.num_local_experts, q.num_experts_per_tok, q.moe_intermediate_size) == (60, 4, 1408)
    assert (q.shared_expert_intermediate_size, q.shared_expert_gate, q.attention_bias, q.o_proj_bias) == \
        (5632, True, True, False)
    q3 = parse_model(config("qwen3-30b-a3b"))
    assert (q3.num_local_experts, q3.qk_norm, q3.shared_expert_intermediate_size) == (128, "head", 0)
    ds = parse_model(config("deepseek-v2-lite"))
    assert (ds.first_k_dense_replace, ds.shared_expert_intermediate_size, ds.q_lora_rank, ds.kv_lora_rank) == \
        (1, 2 * 1408, None, 512)
    v3 = parse_model(config("deepseek-v3"))
    assert (v3.first_k_dense_replace, v3.q_lora_rank, v3.router_bias) == (3, 1536, True)
    oss = parse_model(config("gpt-oss-20b"))
    assert (oss.attention_sinks, oss.mlp_bias, oss.router_bias, oss.o_proj_bias) == (True, True, True, True)
    assert parse_model(config("olmoe-1b-7b-0924")).qk_norm == "full"


def test_qwen_sparse_step_and_mlp_only_layers_make_dense_layers() -> None:
    cfg = config("qwen1.5-moe-a2.7b")
    every_other = parse_model(dict(cfg, decoder_sparse_step=2))          # MoE where (idx + 1) % 2 == 0
    assert (every_other.first_k_dense_replace, every_other.moe_layer_step) == (0, 2)
    assert mem.moe_layers(every_other) == 12
    listed = parse_model(dict(cfg, mlp_only_layers=[0, 5, 23, 99]))      # 99 is past the last layer
    assert listed.first_k_dense_replace == 3
    # a dense layer holds one MLP of intermediate_size instead of 60 experts + shared expert + gates
    full = mem.count_params(parse_model(cfg)).total
    moe_layer = 60 * 3 * 2048 * 1408 + 60 * 2048 + 3 * 2048 * 5632 + 2048
    assert mem.count_params(listed).total == full - 3 * (moe_layer - 3 * 2048 * 5632)


def test_deepseek_moe_layer_freq() -> None:
    cfg = dict(config("deepseek-v2-lite"), moe_layer_freq=2)   # MoE where idx >= 1 and idx % 2 == 0
    assert parse_model(cfg).first_k_dense_replace == 27 - 13


# --- tie_word_embeddings: the default of the model_type's config class ------------------------------------------
def test_missing_tie_takes_the_class_default() -> None:
    gemma = parse_model(config("gemma-2b"))                   # the file has no tie_word_embeddings
    assert gemma.tie_word_embeddings is True                  # GemmaConfig(tie_word_embeddings=True)
    assert mem.count_params(gemma).total == MODELS["gemma-2b"].published_params
    base = {"hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "vocab_size": 100,
            "intermediate_size": 128}
    for model_type, tied in (("llama", False), ("mistral", False), ("qwen2", False), ("gemma", True),
                             ("gpt2", True), ("falcon", True), ("gpt_neox", False), ("phi3", False)):
        assert parse_model(dict(base, model_type=model_type)).tie_word_embeddings is tied, model_type
    assert parse_model(base).tie_word_embeddings is True      # no model_type: PretrainedConfig says tied
    assert parse_model(dict(base, model_type="llama", tie_word_embeddings=True)).tie_word_embeddings is True


def test_unused_fields_are_reported() -> None:
    r = call({"model": config("deepseek-v3"), "include": []})["result"]
    ignored = set(r["model"]["ignored_fields"])
    # the multi-token-prediction layer and the FP8 storage are not counted, and the result says so
    assert {"num_nextn_predict_layers", "quantization_config", "rope_theta", "torch_dtype"} <= ignored
    assert not ignored & {"hidden_size", "n_routed_experts", "kv_lora_rank", "first_k_dense_replace",
                          "moe_intermediate_size", "n_shared_experts", "q_lora_rank", "num_experts_per_tok"}
    # a known dense type builds no experts from expert fields: they are reported, not counted
    qwen3 = {"model_type": "qwen3", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4,
             "vocab_size": 100, "num_experts": 8, "num_experts_per_tok": 2}
    m = parse_model(qwen3)
    assert m.num_local_experts == 0 and {"num_experts", "num_experts_per_tok"} <= set(m.ignored_fields)


def test_a_sparse_text_config_takes_its_class_defaults_and_the_vision_tower_is_counted() -> None:
    # google/gemma-3-4b-it: text_config names 5 fields, Gemma3TextConfig gives the heads, head_dim and vocabulary;
    # the SigLIP tower and the projector are counted (the published multimodal total, exactly)
    gemma = parse_model(config("gemma-3-4b-it"))
    assert (gemma.num_attention_heads, gemma.num_key_value_heads, gemma.head_dim, gemma.vocab_size) == (8, 4, 256, 262_208)
    assert mem.count_params(gemma).total == MODELS["gemma-3-4b"].published_params == 4_300_079_472
    assert gemma.vision_params == MODELS["gemma-3-4b"].vision_params
    # llava-hf/llava-1.5-7b-hf: LlamaConfig's defaults under text_config (vocabulary 32064), CLIP ViT-L/14-336 and the
    # two-layer projector: 7,063,427,072 (the tower 303,507,456 + projector 20,979,712 = 4.6 %, no longer dropped)
    llava = parse_model(config("llava-1.5-7b-hf"))
    assert mem.count_params(llava).total == 7_063_427_072
    assert llava.vision_params == 303_507_456 + 20_979_712
    assert not llava.tie_word_embeddings            # the llama text type, not the PretrainedConfig base
    # the frozen tower: weights only (full fine-tuning trains the language model)
    r = call({"model": config("gemma-3-4b-it"), "method": "full", "include": []})["result"]
    assert r["trainable_params"] == r["params"] - gemma.vision_params
    assert "vision_tower_frozen" in r["notes"]


@pytest.mark.parametrize("cfg,total", [
    # Qwen/Qwen2-VL-7B-Instruct: the language model at the top level (Qwen2, q/k/v biases), its visual with the merger
    ({"model_type": "qwen2_vl", "hidden_size": 3584, "num_hidden_layers": 28, "num_attention_heads": 28,
      "num_key_value_heads": 4, "intermediate_size": 18944, "vocab_size": 152064, "tie_word_embeddings": False,
      "vision_config": {"depth": 32, "embed_dim": 1280, "mlp_ratio": 4, "num_heads": 16, "in_chans": 3,
                        "hidden_size": 3584, "patch_size": 14, "spatial_merge_size": 2, "temporal_patch_size": 2}},
     8_291_375_616),
    # Qwen/Qwen2.5-VL-7B-Instruct
    ({"model_type": "qwen2_5_vl", "hidden_size": 3584, "num_hidden_layers": 28, "num_attention_heads": 28,
      "num_key_value_heads": 4, "intermediate_size": 18944, "vocab_size": 152064, "tie_word_embeddings": False,
      "vision_config": {"depth": 32, "hidden_act": "silu", "hidden_size": 1280, "intermediate_size": 3420,
                        "num_heads": 16, "in_chans": 3, "out_hidden_size": 3584, "patch_size": 14,
                        "spatial_merge_size": 2, "temporal_patch_size": 2}},
     8_292_166_656),
])
def test_qwen_vision_towers_are_counted(cfg: dict, total: int) -> None:
    # the totals: transformers 5.24.0 on the meta device (visual 675,759,104 and 676,550,144 = 8.2 %)
    assert mem.count_params(parse_model(cfg)).total == total


def test_each_missing_moe_field_takes_its_class_default() -> None:
    """A field a config leaves out is what its transformers 5.24.0 config class builds (issue 20; reliability F4):
    Qwen1.5-MoE without moe_intermediate_size 14.3 B (not 51.7 B), DeepSeek-V3 without first_k_dense_replace 671 B
    (not 703.8 B); one check per model type, each default read from its class."""
    qwen = {k: v for k, v in config("qwen1.5-moe-a2.7b").items() if k != "moe_intermediate_size"}
    assert mem.count_params(parse_model(qwen)).total == 14_315_784_192            # Qwen2MoeConfig: 1408
    v3 = {k: v for k, v in config("deepseek-v3").items() if k != "first_k_dense_replace"}
    assert mem.count_params(parse_model(v3)).total == 671_026_419_200             # DeepseekV3Config: 3
    base = {"hidden_size": 64, "num_hidden_layers": 4, "num_attention_heads": 4, "vocab_size": 100,
            "intermediate_size": 96}
    # model_type -> {field: the class default}, each read when the field is left out
    expected = {
        "qwen2_moe": {"num_local_experts": 60, "num_experts_per_tok": 4, "moe_intermediate_size": 1408,
                      "shared_expert_intermediate_size": 5632},
        "qwen3_moe": {"num_local_experts": 128, "num_experts_per_tok": 8, "moe_intermediate_size": 768},
        "mixtral": {"num_local_experts": 8, "num_experts_per_tok": 2, "moe_intermediate_size": None},
        "olmoe": {"num_local_experts": 64, "num_experts_per_tok": 8},
        "gpt_oss": {"num_local_experts": 128, "num_experts_per_tok": 4},
        "deepseek_v3": {"num_local_experts": 256, "num_experts_per_tok": 8, "moe_intermediate_size": 2048,
                        "shared_expert_intermediate_size": 2048, "first_k_dense_replace": 3},
        "glm4_moe": {"num_local_experts": 128, "num_experts_per_tok": 8, "moe_intermediate_size": 1408,
                     "shared_expert_intermediate_size": 1408, "first_k_dense_replace": 1},
        "llama4_text": {"num_local_experts": 16, "num_experts_per_tok": 1, "moe_intermediate_size": 96,
                        "shared_expert_intermediate_size": 96, "intermediate_size": 16384, "moe_layer_step": 1},
    }
    for model_type, fields in expected.items():
        m = parse_model(dict(base, model_type=model_type))
        got = {f: getattr(m, f) for f in fields}
        assert got == fields, model_type
    # DeepseekV2Config: num_experts_per_tok defaults to None, so there is nothing to take: refused
    assert error({"model": dict(base, model_type="deepseek_v2", first_k_dense_replace=0)}) == \
        ("missing_field", "model.num_experts_per_tok")
    # Kimi K2 is no transformers class: its DeepSeek-V3 values differ, so a missing one is refused, never assumed
    assert error({"model": dict(base, model_type="kimi_k2", n_routed_experts=8, num_experts_per_tok=2)})[0] == \
        "missing_field"


def test_a_missing_mlp_width_is_the_class_default_or_refused() -> None:
    base = {"hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "vocab_size": 100}
    assert parse_model(dict(base, model_type="llama")).intermediate_size == 11008     # LlamaConfig
    assert parse_model(dict(base, model_type="gpt2")).intermediate_size == 256        # n_inner None: 4 x hidden
    assert parse_model(dict(base, model_type="phi3small", ff_intermediate_size=96)).intermediate_size == 96
    # no class default to take (no model_type, or one the estimator does not know): refused, not 4 x hidden
    assert error({"model": base}) == ("missing_field", "model.intermediate_size")
    assert error({"model": dict(base, model_type="phi3small")}) == ("missing_field", "model.intermediate_size")


def test_llama4_layouts_and_the_catalogue_round_trip() -> None:
    # Maverick's config as transformers writes it: intermediate_size is the experts' width, intermediate_size_mlp the
    # dense layers', interleave_moe_layer_step 2 makes layers 1, 3, ..., 47 MoE
    text = {"model_type": "llama4_text", "hidden_size": 5120, "num_hidden_layers": 48, "num_attention_heads": 40,
            "num_key_value_heads": 8, "head_dim": 128, "intermediate_size": 8192, "intermediate_size_mlp": 16384,
            "vocab_size": 202048, "num_local_experts": 128, "num_experts_per_tok": 1,
            "interleave_moe_layer_step": 2, "use_qk_norm": False, "tie_word_embeddings": False}
    m = parse_model({"model_type": "llama4", "text_config": text, "vision_config": {
        "hidden_size": 1408, "image_size": 336, "intermediate_size": 5632, "num_hidden_layers": 34, "patch_size": 14,
        "projector_input_dim": 4096, "projector_output_dim": 4096, "vision_output_dim": 4096,
        "model_type": "llama4_vision_model"}})
    assert mem.count_params(m).total == MODELS["llama-4-maverick-17b-128e"].published_params
    assert (m.intermediate_size, m.moe_intermediate_size, m.moe_layer_step, mem.moe_layers(m)) == (16384, 8192, 2, 24)


# --- refusals ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["t5-small", "bert-base-uncased"])
def test_encoder_models_are_refused(name: str) -> None:
    assert error({"model": config(name)}) == ("unsupported_model", "model.model_type")


@pytest.mark.parametrize("cfg,field", [
    ({"model_type": "vit", "hidden_size": 768, "num_hidden_layers": 12, "num_attention_heads": 12,
      "intermediate_size": 3072}, "model.model_type"),
    ({"model_type": "my_vlm", "vision_config": {"hidden_size": 1024}}, "model.model_type"),
    ({"model_type": "mamba", "hidden_size": 768, "num_hidden_layers": 24, "vocab_size": 50280,
      "state_size": 16}, "model.model_type"),
    ({"model_type": "my_hybrid", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4,
      "vocab_size": 100, "layer_types": ["linear_attention", "full_attention"]}, "model.model_type"),
    # an MoE or latent-attention layout the estimator does not read is not guessed as dense
    ({"model_type": "dbrx", "d_model": 6144, "n_layers": 40, "n_heads": 48, "vocab_size": 100352}, "model.model_type"),
    ({"model_type": "my_moe", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4,
      "vocab_size": 100, "num_experts": 8, "num_experts_per_tok": 2}, "model.model_type"),
    ({"model_type": "llama", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4,
      "vocab_size": 100, "kv_lora_rank": 32}, "model.model_type"),
    ({"is_encoder_decoder": True, "d_model": 512, "num_layers": 6, "num_heads": 8, "vocab_size": 32128}, "model"),
])
def test_models_the_estimator_cannot_count_are_refused(cfg: dict, field: str) -> None:
    assert error({"model": cfg}) == ("unsupported_model", field)


@pytest.mark.parametrize("cfg,code,field", [
    ({"model_type": "mixtral", "num_local_experts": 8, "num_experts_per_tok": 9}, "contradiction",
     "model.num_experts_per_tok"),
    ({"num_local_experts": 8}, "missing_field", "model.num_experts_per_tok"),   # no type, so no class default
    ({"model_type": "qwen2_moe", "num_experts": 8, "num_experts_per_tok": 2, "mlp_only_layers": "0"},
     "wrong_type", "model.mlp_only_layers"),
    ({"model_type": "qwen2_moe", "num_experts": 8, "num_experts_per_tok": 2, "decoder_sparse_step": 0},
     "out_of_range", "model.moe_layer_step"),
    ({"model_type": "deepseek_v3", "n_routed_experts": 8, "first_k_dense_replace": 3}, "out_of_range",
     "model.first_k_dense_replace"),
    ({"model_type": "deepseek_v3", "n_routed_experts": None, "first_k_dense_replace": 0, "qk_nope_head_dim": 0,
      "qk_rope_head_dim": 0}, "out_of_range", "model.qk_rope_head_dim"),
    ({"model_type": "kimi_k2", "num_experts_per_tok": 8}, "missing_field", "model.num_local_experts"),
    ({"qk_norm": "sometimes"}, "unknown_value", "model.qk_norm"),
    ({"mlp_bias": "yes"}, "wrong_type", "model.mlp_bias"),
    ({"hidden_size": 10**400}, "out_of_range", "model.hidden_size"),
])
def test_bad_moe_and_mla_fields(cfg: dict, code: str, field: str) -> None:
    base = {"hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "vocab_size": 100,
            "intermediate_size": 128}
    assert error({"model": {**base, **cfg}}) == (code, field)


# --- R13: what a config of no known type carries that says it is not a dense decoder -------------------------------
_DENSE = {"hidden_size": 1024, "num_hidden_layers": 12, "num_attention_heads": 16, "vocab_size": 50265,
          "intermediate_size": 4096}


@pytest.mark.parametrize("cfg,code,field,reason", [
    # BART-like: two stacks; the fields used to be only in ignored_fields (252,823,552 parameters, as a decoder)
    ({"encoder_layers": 12, "decoder_layers": 12}, "unsupported_model", "model.encoder_layers", "encoder_decoder"),
    ({"num_decoder_layers": 6}, "unsupported_model", "model.num_decoder_layers", "encoder_decoder"),
    ({"model_type": "my_seq2seq", "decoder_layers": 6}, "unsupported_model", "model.decoder_layers",
     "encoder_decoder"),
    # DBRX-like: experts in a nested block (14,584,092,672 parameters, as a dense decoder)
    ({"ffn_config": {"ffn_hidden_size": 10752, "moe_num_experts": 16, "moe_top_k": 4}}, "unsupported_model",
     "model.ffn_config.moe_num_experts", "moe_layout"),
    ({"ffn_config": {"moe_top_k": 4}}, "unsupported_model", "model.ffn_config.moe_top_k", "moe_layout"),
    # an MoE type with no experts is not read as its dense cousin (Mistral 7B's 7,241,732,096)
    ({"model_type": "mixtral", "num_key_value_heads": 8, "num_local_experts": 0}, "out_of_range",
     "model.num_local_experts", None),
    ({"model_type": "qwen3_moe", "num_experts": 0}, "out_of_range", "model.num_local_experts", None),
    # layer_types is a list of layer kinds: a string or a list of objects is no list of kinds
    ({"layer_types": "mamba"}, "wrong_type", "model.layer_types", None),
    ({"model_type": "qwen2", "layer_types": "full_attention"}, "wrong_type", "model.layer_types", None),
    ({"layer_types": [{"kind": "attention"}]}, "wrong_type", "model.layer_types", None),
    ({"model_type": "llava", "text_config": {**_DENSE, "layer_types": 3}}, "wrong_type",
     "model.text_config.layer_types", None),
])
def test_a_config_that_is_not_a_dense_decoder_is_refused_naming_the_field(cfg, code, field, reason) -> None:
    model = cfg if "text_config" in cfg else {**_DENSE, **cfg}     # a nested language model stands alone
    out = call({"model": model, "include": []})
    assert out["ok"] is False
    assert out["error"] == {"code": code, "field": field, **({"reason": reason} if reason else {})}


@pytest.mark.parametrize("cfg", [{}, {"rope_scaling": {"type": "linear", "factor": 2.0}},
                                 {"layer_types": ["full_attention", "sliding_attention"]}, {"layer_types": None},
                                 {"encoder_layers": 0, "attn_config": {"kv_n_heads": 8}}])
def test_a_plain_type_less_config_stays_readable(cfg) -> None:
    """ESTIMATOR.md: a config without model_type is a Llama-like dense decoder when nothing says otherwise."""
    out = call({"model": {**_DENSE, **cfg}, "include": []})
    assert out["ok"], out
    plain = call({"model": _DENSE, "include": []})["result"]
    assert out["result"]["params"] == plain["params"]


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_new_refusals_have_their_words_in_both_languages(lang) -> None:
    """Each refusal above is shown with its message and the field it names, in the reader's language."""
    from calculator.page import Page
    from calculator.page.text import plain_text
    from sitebuild.strings import calc_strings

    strings = calc_strings(lang)
    page = Page(json.dumps(strings), lang)
    for cfg, words, shown in (({"layer_types": "mamba"}, strings["errors"]["wrong_type"]["model_list"], "layer_types"),
                              ({"ffn_config": {"moe_num_experts": 16}}, strings["errors"]["reasons"]["moe_layout"],
                               "ffn_config.moe_num_experts"),
                              ({"encoder_layers": 12}, strings["errors"]["reasons"]["encoder_decoder"],
                               "encoder_layers")):
        raw = {"model": {"source": "paste", "value": json.dumps({**_DENSE, **cfg})}, "gpu": "h100-80gb"}
        answer = json.loads(page.render(json.dumps({"kind": "estimator", "raw": raw, "fixed": {}})))
        assert answer["ok"] is False, cfg
        message = plain_text(answer["errors"][0]["message"])
        assert words in message and shown in message, (cfg, message)


@pytest.mark.parametrize("text", ['{"model": [1,2,3]}', '{"model": 42}', '{"model": null}', '{"model": true}'])
def test_a_model_that_is_not_an_object_or_id(text: str) -> None:
    assert json.loads(api.answer_text(text))["error"] == {"code": "not_an_object", "field": "model"}


@pytest.mark.parametrize("digits", [400, 4301, 20_000])
def test_integers_of_any_size_are_out_of_range(digits: int) -> None:
    big = "9" * digits
    assert json.loads(api.answer_text('{"model": "llama-2-7b", "seq_len": %s}' % big))["error"] == \
        {"code": "out_of_range", "field": "seq_len"}
    assert json.loads(api.answer_text('{"model": "llama-2-7b", "seq_len": -%s}' % big))["error"] == \
        {"code": "out_of_range", "field": "seq_len"}
    cfg = '{"hidden_size": %s, "num_hidden_layers": 2, "num_attention_heads": 4, "vocab_size": 10}' % big
    assert json.loads(api.answer_text('{"model": %s}' % cfg))["error"] == \
        {"code": "out_of_range", "field": "model.hidden_size"}


def test_every_error_code_has_a_message_in_both_languages() -> None:
    from calculator.page.text import STRING_TABLES as root
    for lang in ("ar", "en"):
        errors = json.loads((root / f"{lang}.json").read_text(encoding="utf-8"))["calc"]["errors"]
        missing = [c for c in api.ERROR_CODES if not errors.get(c)]
        assert missing == [], (lang, missing)


# --- memory of a mixture of experts ---------------------------------------------------------------------------------
def _setup(model, **kw) -> TrainingSetup:
    return TrainingSetup(model=model, **{"method": Method.FULL, "precision": Precision.BF16, "seq_len": 2048, **kw})


def test_moe_activations_grow_with_routed_experts_not_with_all_experts() -> None:
    q3 = MODELS["qwen3-30b-a3b"]
    base = mem.activation_bytes(_setup(q3))
    more_routed = mem.activation_bytes(_setup(replace(q3, num_experts_per_tok=16)))
    more_experts = mem.activation_bytes(_setup(replace(q3, num_local_experts=256)))
    assert more_routed > 1.3 * base          # twice the routed experts: a much larger MLP term
    assert base < more_experts < 1.01 * base  # twice the experts: only the router's probabilities grow
    # ... while every expert's weights are resident: twice the experts nearly doubles the weights
    w = mem.weights_bytes(_setup(q3))
    assert w == 2 * mem.count_params(q3).total
    assert mem.weights_bytes(_setup(replace(q3, num_local_experts=256))) > 1.9 * w


def test_moe_frozen_activations_also_follow_k() -> None:
    mixtral = MODELS["mixtral-8x7b"]
    lora = {"method": Method.LORA}
    a2 = mem.activation_bytes(_setup(mixtral, **lora))
    a1 = mem.activation_bytes(_setup(replace(mixtral, num_experts_per_tok=1), **lora))
    a16 = mem.activation_bytes(_setup(replace(mixtral, num_local_experts=16), **lora))
    assert a1 < a2 and abs(a16 - a2) < 0.01 * a2


def test_lora_all_linear_on_latent_attention_wraps_every_projection() -> None:
    ds = MODELS["deepseek-v2-lite"]
    r = 16
    attn = (2048 + 16 * 192) + (2048 + 576) + (512 + 16 * 256) + (16 * 128 + 2048)   # q, kv_a, kv_b, o
    dense_mlp = 2 * (2048 + 10944) + (10944 + 2048)
    moe_mlp = 64 * (2 * (2048 + 1408) + (1408 + 2048)) + 2 * (2048 + 2816) + (2816 + 2048)
    expected = r * (27 * attn + 1 * dense_mlp + 26 * moe_mlp)
    assert mem.trainable_params(_setup(ds, method=Method.LORA, lora_rank=r)) == expected
    # naming only q_proj reaches DeepSeek-V2-Lite's single q_proj, not the compressed kv projections
    only_q = mem.trainable_params(_setup(ds, method=Method.LORA, lora_rank=r, lora_targets=("q_proj",)))
    assert only_q == r * 27 * (2048 + 16 * 192)


def test_latent_attention_saves_per_head_keys_and_values() -> None:
    # MLA expands k and v to every head before attention: flash does not shrink them as it does GQA's
    ds = MODELS["deepseek-v2-lite"]
    from calculator.models import Attention
    sdpa = mem.activation_bytes(_setup(ds, attention=Attention.SDPA))
    flash = mem.activation_bytes(_setup(ds, attention=Attention.FLASH))
    assert sdpa == flash
    q3 = MODELS["qwen3-30b-a3b"]
    assert mem.activation_bytes(_setup(q3, attention=Attention.FLASH)) < \
        mem.activation_bytes(_setup(q3, attention=Attention.SDPA))


# --- the custom round trip ------------------------------------------------------------------------------------------
_SETUPS = ({}, {"method": "lora", "lora_targets": "all-linear"}, {"method": "qlora", "seq_len": 4096},
           {"method": "full", "precision": "mixed", "optimizer": "adafactor", "num_gpus": 2, "sharding": "zero3"})


@pytest.mark.parametrize("model_id", sorted(MODELS))
def test_result_model_object_round_trips_as_a_pasted_config(model_id: str) -> None:
    for extra in _SETUPS:
        first = call({"model": model_id, "include": [], **extra})
        assert first["ok"], (model_id, extra, first)
        pasted = call({"model": first["result"]["model"], "include": [], **extra})
        assert pasted["ok"], (model_id, extra, pasted)
        a, b = first["result"], pasted["result"]
        assert b["model"]["ignored_fields"] == []
        for key in a:
            if key != "model":
                assert a[key] == b[key], (model_id, extra, key)
        assert {k: v for k, v in a["model"].items() if k != "id"} == {k: v for k, v in b["model"].items() if k != "id"}


def test_parse_errors_are_api_errors() -> None:
    with pytest.raises(InputError) as info:
        parse_model({"hidden_size": 64})
    assert (info.value.code, info.value.field) == ("missing_field", "model.num_hidden_layers")


def test_schema_lists_every_field_of_the_model_object() -> None:
    fields = api.schema()["model_fields"]
    listed = set(fields["required"]) | set(fields["optional"])
    out = api.answer({"model": "deepseek-v3", "include": []})["result"]["model"]
    assert listed == set(out) - {"id", "name", "ignored_fields"}
    assert set(fields["kinds"]) == listed
