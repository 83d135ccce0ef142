"""The data catalogue: known model architectures and GPUs, as frozen module-level instances.

Model numbers are copied from each model's official Hugging Face ``config.json`` (``source``) and were
cross-checked against Lightning-AI/litgpt ``litgpt/config.py``, which mirrors those configs.
``published_params`` is the model's real total parameter count (safetensors metadata); the unit tests recount it
from the architecture, exactly for Llama-like models and within 0.5 % for the approximate ones marked below.

GPU ``memory_bytes`` is the total device memory the driver reports (``nvidia-smi``'s ``memory.total`` in MiB,
with the default ECC setting; ``rocm-smi``'s VRAM total in bytes for AMD), which is below the marketed capacity
on most cards. Each figure below was matched against published ``nvidia-smi`` / ``rocm-smi`` outputs.

Standard library only (runs in CPython and Pyodide); nothing here computes memory.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from .models import GpuSpec, ModelArch, VisionTower
from .params import vision_tower_params

__all__ = ["MODELS", "GPUS", "MODEL_IDS", "REFUSED_MODELS", "GATED", "repo_key", "hub_path", "is_hub_id", "HUB_ID_PART",
           "resolve", "Resolution", "WEIGHT_SUFFIXES", "WEIGHT_NOTES", "REFUSED_FORMATS", "PREQUANTIZED_FORMATS",
           "ALIAS_SOURCES"]

_HF = "https://huggingface.co/{}/blob/main/config.json"


def _hf(repo: str) -> str:
    return _HF.format(repo)


# The vision towers of the multimodal checkpoints (each one's vision_config; params.vision_tower_params counts them)
_SIGLIP_GEMMA3 = dict(encoder="siglip", projector="gemma3", hidden_size=1152, num_hidden_layers=27,
                      intermediate_size=4304, patch_size=14, image_size=896)
_LLAMA4_VISION = dict(encoder="llama4", projector="llama4", hidden_size=1408, num_hidden_layers=34,
                      intermediate_size=5632, patch_size=14, image_size=336, projector_input_dim=4096,
                      projector_output_dim=4096, vision_output_dim=4096)
_PIXTRAL_MISTRAL3 = dict(encoder="pixtral", projector="mistral3", hidden_size=1024, num_hidden_layers=24,
                         intermediate_size=4096, patch_size=14, image_size=1540, projector_bias=False)


def _vision(spec: dict[str, Any], text_hidden_size: int) -> VisionTower:
    return VisionTower(text_hidden_size=text_hidden_size, **spec)


# ---------------------------------------------------------------------------------------------------------------
# Models, in picker order (grouped by family; within a family by version, then size)
# ---------------------------------------------------------------------------------------------------------------
_MODEL_LIST: tuple[ModelArch, ...] = (
    # --- Llama 2 ------------------------------------------------------------------------------------------------
    ModelArch(
        id="llama-2-7b", name="Llama 2 7B", family="Llama 2",
        hidden_size=4096, num_hidden_layers=32, num_attention_heads=32, num_key_value_heads=32,
        intermediate_size=11008, vocab_size=32000,
        published_params=6_738_415_616, source=_hf("meta-llama/Llama-2-7b-hf"),
    ),
    ModelArch(
        id="llama-2-13b", name="Llama 2 13B", family="Llama 2",
        hidden_size=5120, num_hidden_layers=40, num_attention_heads=40, num_key_value_heads=40,
        intermediate_size=13824, vocab_size=32000,
        published_params=13_015_864_320, source=_hf("meta-llama/Llama-2-13b-hf"),
    ),
    ModelArch(
        id="llama-2-70b", name="Llama 2 70B", family="Llama 2",
        hidden_size=8192, num_hidden_layers=80, num_attention_heads=64, num_key_value_heads=8,
        intermediate_size=28672, vocab_size=32000,
        published_params=68_976_648_192, source=_hf("meta-llama/Llama-2-70b-hf"),
    ),
    # --- Llama 3 / 3.1 / 3.2 / 3.3 --------------------------------------------------------------------------------
    ModelArch(
        id="llama-3-8b", name="Llama 3 8B", family="Llama 3",
        hidden_size=4096, num_hidden_layers=32, num_attention_heads=32, num_key_value_heads=8,
        intermediate_size=14336, vocab_size=128256,
        published_params=8_030_261_248, source=_hf("meta-llama/Meta-Llama-3-8B"),
    ),
    ModelArch(
        id="llama-3-70b", name="Llama 3 70B", family="Llama 3",
        hidden_size=8192, num_hidden_layers=80, num_attention_heads=64, num_key_value_heads=8,
        intermediate_size=28672, vocab_size=128256,
        published_params=70_553_706_496, source=_hf("meta-llama/Meta-Llama-3-70B"),
    ),
    ModelArch(
        id="llama-3.1-8b", name="Llama 3.1 8B", family="Llama 3",
        hidden_size=4096, num_hidden_layers=32, num_attention_heads=32, num_key_value_heads=8,
        intermediate_size=14336, vocab_size=128256,
        published_params=8_030_261_248, source=_hf("meta-llama/Llama-3.1-8B"),
    ),
    ModelArch(
        id="llama-3.1-70b", name="Llama 3.1 70B", family="Llama 3",
        hidden_size=8192, num_hidden_layers=80, num_attention_heads=64, num_key_value_heads=8,
        intermediate_size=28672, vocab_size=128256,
        published_params=70_553_706_496, source=_hf("meta-llama/Llama-3.1-70B"),
    ),
    ModelArch(
        id="llama-3.1-405b", name="Llama 3.1 405B", family="Llama 3",
        hidden_size=16384, num_hidden_layers=126, num_attention_heads=128, num_key_value_heads=8,
        intermediate_size=53248, vocab_size=128256,
        published_params=405_853_388_800, source=_hf("meta-llama/Llama-3.1-405B"),
    ),
    ModelArch(
        id="llama-3.2-1b", name="Llama 3.2 1B", family="Llama 3",
        hidden_size=2048, num_hidden_layers=16, num_attention_heads=32, num_key_value_heads=8,
        intermediate_size=8192, vocab_size=128256, tie_word_embeddings=True, head_dim=64,
        published_params=1_235_814_400, source=_hf("meta-llama/Llama-3.2-1B"),
    ),
    ModelArch(
        id="llama-3.2-3b", name="Llama 3.2 3B", family="Llama 3",
        hidden_size=3072, num_hidden_layers=28, num_attention_heads=24, num_key_value_heads=8,
        intermediate_size=8192, vocab_size=128256, tie_word_embeddings=True, head_dim=128,
        published_params=3_212_749_824, source=_hf("meta-llama/Llama-3.2-3B"),
    ),
    ModelArch(
        # Only an Instruct checkpoint was released; the architecture is that of Llama 3.1 70B.
        id="llama-3.3-70b", name="Llama 3.3 70B", family="Llama 3",
        hidden_size=8192, num_hidden_layers=80, num_attention_heads=64, num_key_value_heads=8,
        intermediate_size=28672, vocab_size=128256,
        published_params=70_553_706_496, source=_hf("meta-llama/Llama-3.3-70B-Instruct"),
    ),
    # --- Llama 4 (Llama4ForConditionalGeneration): the text decoder of text_config; MoE layers hold the routed experts
    # and an always-on shared expert; Maverick alternates dense (16384) and MoE layers; the vision encoder is counted as
    # frozen weights. Chunked attention and NoPE layers change no parameter count.
    ModelArch(
        id="llama-4-scout-17b-16e", name="Llama 4 Scout 17B-16E (109B)", family="Llama 4", model_type="llama4_text",
        hidden_size=5120, num_hidden_layers=48, num_attention_heads=40, num_key_value_heads=8,
        intermediate_size=16_384, vocab_size=202_048, head_dim=128, num_local_experts=16, num_experts_per_tok=1,
        moe_intermediate_size=8192, shared_expert_intermediate_size=8192,
        vision_params=vision_tower_params(_vision(_LLAMA4_VISION, 5120)),
        published_params=108_641_793_536, source=_hf("meta-llama/Llama-4-Scout-17B-16E"),
        count_source=("Hub safetensors parameters (BF16): 108,641,793,536 = text 107,769,861,120 + vision encoder "
                      "850,960,896 + projector 20,971,520; headline 109B total, 17B active"),
        hf_id="meta-llama/Llama-4-Scout-17B-16E",
        aliases=("meta-llama/Llama-4-Scout-17B-16E-Instruct", "unsloth/Llama-4-Scout-17B-16E-Instruct",
                 "unsloth/Llama-4-Scout-17B-16E-Instruct-unsloth-bnb-4bit"),
    ),
    ModelArch(
        id="llama-4-maverick-17b-128e", name="Llama 4 Maverick 17B-128E (402B)",
        family="Llama 4", model_type="llama4_text",
        hidden_size=5120, num_hidden_layers=48, num_attention_heads=40, num_key_value_heads=8,
        intermediate_size=16_384, vocab_size=202_048, head_dim=128, num_local_experts=128, num_experts_per_tok=1,
        moe_intermediate_size=8192, shared_expert_intermediate_size=8192, moe_layer_step=2,
        vision_params=vision_tower_params(_vision(_LLAMA4_VISION, 5120)),
        published_params=401_583_781_376, source=_hf("meta-llama/Llama-4-Maverick-17B-128E"),
        count_source=("Hub safetensors parameters (BF16): 401,583,781,376 = text 400,711,848,960 (24 dense + 24 MoE "
                      "layers) + vision 850,960,896 + projector 20,971,520; headline 400B total, 17B active"),
        hf_id="meta-llama/Llama-4-Maverick-17B-128E",
        aliases=("meta-llama/Llama-4-Maverick-17B-128E-Instruct",),
    ),
    # --- Mistral / Mixtral ------------------------------------------------------------------------------------------
    ModelArch(
        id="mistral-7b-v0.1", name="Mistral 7B v0.1", family="Mistral",
        hidden_size=4096, num_hidden_layers=32, num_attention_heads=32, num_key_value_heads=8,
        intermediate_size=14336, vocab_size=32000,
        published_params=7_241_732_096, source=_hf("mistralai/Mistral-7B-v0.1"),
    ),
    ModelArch(
        # The base v0.2 weights were published outside the mistralai HF org (litgpt uses unsloth/mistral-7b-v0.2);
        # the official Instruct-v0.2 config has the same shapes (no sliding window, rope_theta 1e6).
        id="mistral-7b-v0.2", name="Mistral 7B v0.2", family="Mistral",
        hidden_size=4096, num_hidden_layers=32, num_attention_heads=32, num_key_value_heads=8,
        intermediate_size=14336, vocab_size=32000,
        published_params=7_241_732_096, source=_hf("mistralai/Mistral-7B-Instruct-v0.2"),
    ),
    ModelArch(
        id="mistral-7b-v0.3", name="Mistral 7B v0.3", family="Mistral",
        hidden_size=4096, num_hidden_layers=32, num_attention_heads=32, num_key_value_heads=8,
        intermediate_size=14336, vocab_size=32768,
        published_params=7_248_023_552, source=_hf("mistralai/Mistral-7B-v0.3"),
    ),
    ModelArch(
        id="mixtral-8x7b", name="Mixtral 8x7B", family="Mistral", model_type="mixtral",
        hidden_size=4096, num_hidden_layers=32, num_attention_heads=32, num_key_value_heads=8,
        intermediate_size=14336, vocab_size=32000, num_local_experts=8, num_experts_per_tok=2,
        published_params=46_702_792_704, source=_hf("mistralai/Mixtral-8x7B-v0.1"),
    ),
    ModelArch(
        id="mistral-small-3-24b", name="Mistral Small 3 24B (2501)", family="Mistral", model_type="mistral",
        hidden_size=5120, num_hidden_layers=40, num_attention_heads=32, num_key_value_heads=8,
        intermediate_size=32_768, vocab_size=131_072, head_dim=128,
        published_params=23_572_403_200, source=_hf("mistralai/Mistral-Small-24B-Base-2501"),
        count_source=("Hub safetensors parameters: 23,572,403,200 (MistralForCausalLM, text only); headline 24B"),
        hf_id="mistralai/Mistral-Small-24B-Base-2501",
        aliases=("mistralai/Mistral-Small-24B-Instruct-2501",
                 "unsloth/Mistral-Small-24B-Instruct-2501-unsloth-bnb-4bit"),
    ),
    ModelArch(
        # Mistral3ForConditionalGeneration: the Mistral text decoder of text_config (untied: its own
        # tie_word_embeddings, not Mistral3Config's True) and a Pixtral vision encoder, counted as frozen weights
        id="mistral-small-3.1-24b", name="Mistral Small 3.1 24B", family="Mistral", model_type="mistral",
        hidden_size=5120, num_hidden_layers=40, num_attention_heads=32, num_key_value_heads=8,
        intermediate_size=32_768, vocab_size=131_072, head_dim=128,
        vision_params=vision_tower_params(_vision(_PIXTRAL_MISTRAL3, 5120)),
        published_params=24_011_361_280, source=_hf("mistralai/Mistral-Small-3.1-24B-Instruct-2503"),
        count_source=("Hub safetensors parameters: 24,011,361,280 = text 23,572,403,200 + Pixtral vision "
                      "403,305,472 + projector 35,652,608 (3.1 and 3.2 alike); headline 24B"),
        hf_id="mistralai/Mistral-Small-3.1-24B-Instruct-2503",
        aliases=("mistralai/Mistral-Small-3.1-24B-Base-2503", "mistralai/Mistral-Small-3.2-24B-Instruct-2506",
                 "unsloth/Mistral-Small-3.1-24B-Instruct-2503-unsloth-bnb-4bit",
                 "unsloth/Mistral-Small-3.2-24B-Instruct-2506-unsloth-bnb-4bit"),
    ),
    ModelArch(
        id="mistral-nemo-12b", name="Mistral NeMo 12B", family="Mistral", model_type="mistral",
        hidden_size=5120, num_hidden_layers=40, num_attention_heads=32, num_key_value_heads=8,
        intermediate_size=14_336, vocab_size=131_072, head_dim=128,
        published_params=12_247_782_400, source=_hf("mistralai/Mistral-Nemo-Instruct-2407"),
        count_source=("Hub safetensors parameters: 12,247,782,400; headline 12B"),
        hf_id="mistralai/Mistral-Nemo-Instruct-2407",
        aliases=("mistralai/Mistral-Nemo-Base-2407", "unsloth/Mistral-Nemo-Instruct-2407",
                 "unsloth/Mistral-Nemo-Instruct-2407-bnb-4bit", "unsloth/Mistral-Nemo-Base-2407-bnb-4bit"),
    ),
    ModelArch(
        # Fields of the published config (no stored copy of it was read): 36 layers, head_dim 128; the published
        # total pins them (32 layers would give 7.25 B)
        id="ministral-8b", name="Ministral 8B", family="Mistral", model_type="mistral",
        hidden_size=4096, num_hidden_layers=36, num_attention_heads=32, num_key_value_heads=8,
        intermediate_size=12_288, vocab_size=131_072, head_dim=128,
        published_params=8_019_808_256, source=_hf("mistralai/Ministral-8B-Instruct-2410"),
        count_source=("Hub safetensors parameters: 8,019,808,256 (36 layers; 32 would give 7.25 B); headline 8B"),
        hf_id="mistralai/Ministral-8B-Instruct-2410",
    ),
    # --- Mixtures of experts and multi-head latent attention --------------------------------------------------------
    # Each count is the model as transformers builds it from its config.json (every expert resident), equal to the
    # checkpoint's tensor count: safetensors index total_size / 2 for the bf16 checkpoints, the Hub's safetensors
    # parameter count for OLMoE and gpt-oss (gpt-oss stores its experts in MXFP4, so its file size is not 2 bytes a
    # parameter). tests/data/configs/ holds the config.json files; ESTIMATOR.md "Model configs" has the sources.
    ModelArch(
        # Qwen2MoeSparseMoeBlock: 60 routed experts of 1408, a shared expert of 5632 with a sigmoid gate Linear(h, 1)
        id="qwen1.5-moe-a2.7b", name="Qwen1.5-MoE-A2.7B", family="Qwen MoE", model_type="qwen2_moe",
        hidden_size=2048, num_hidden_layers=24, num_attention_heads=16, num_key_value_heads=16,
        intermediate_size=5632, vocab_size=151936, attention_bias=True,
        num_local_experts=60, num_experts_per_tok=4, moe_intermediate_size=1408,
        shared_expert_intermediate_size=5632, shared_expert_gate=True,
        published_params=14_315_784_192, source=_hf("Qwen/Qwen1.5-MoE-A2.7B"),
    ),
    ModelArch(
        # Qwen3MoeSparseMoeBlock: 128 experts of 768, no shared expert; q_norm/k_norm over head_dim 128
        id="qwen3-30b-a3b", name="Qwen3-30B-A3B", family="Qwen MoE", model_type="qwen3_moe",
        hidden_size=2048, num_hidden_layers=48, num_attention_heads=32, num_key_value_heads=4, head_dim=128,
        intermediate_size=6144, vocab_size=151936, qk_norm="head",
        num_local_experts=128, num_experts_per_tok=8, moe_intermediate_size=768,
        published_params=30_532_122_624, source=_hf("Qwen/Qwen3-30B-A3B"),
    ),
    ModelArch(
        id="qwen3-235b-a22b", name="Qwen3-235B-A22B", family="Qwen MoE", model_type="qwen3_moe",
        hidden_size=4096, num_hidden_layers=94, num_attention_heads=64, num_key_value_heads=4,
        intermediate_size=12_288, vocab_size=151_936, head_dim=128, qk_norm="head", num_local_experts=128,
        num_experts_per_tok=8, moe_intermediate_size=1536,
        published_params=235_093_634_560, source=_hf("Qwen/Qwen3-235B-A22B"),
        count_source=("model.safetensors.index.json total_size 470,187,269,120 B / 2; headline (model card): 235B total, 22B "
                      "activated"),
        hf_id="Qwen/Qwen3-235B-A22B",
        aliases=("Qwen/Qwen3-235B-A22B-Instruct-2507", "Qwen/Qwen3-235B-A22B-Thinking-2507"),
    ),
    ModelArch(
        # MLA without a q bottleneck (q_lora_rank null); layer 0 dense (10944), 26 MoE layers: 64 experts of 1408
        # + 2 shared (one MLP of 2816)
        id="deepseek-v2-lite", name="DeepSeek-V2-Lite (16B)", family="DeepSeek", model_type="deepseek_v2",
        hidden_size=2048, num_hidden_layers=27, num_attention_heads=16, num_key_value_heads=16,
        intermediate_size=10944, vocab_size=102400,
        num_local_experts=64, num_experts_per_tok=6, moe_intermediate_size=1408, shared_expert_intermediate_size=2816,
        first_k_dense_replace=1, kv_lora_rank=512, qk_nope_head_dim=128, qk_rope_head_dim=64, v_head_dim=128,
        published_params=15_706_484_224, source=_hf("deepseek-ai/DeepSeek-V2-Lite"),
    ),
    ModelArch(
        # MLA (q_lora_rank 1536); 3 dense layers, 58 MoE layers of 256 experts + 1 shared; the router's
        # e_score_correction_bias is a checkpoint tensor (router_bias). The count is the main model: the checkpoint's
        # multi-token-prediction layer 61 (14 B, README_WEIGHTS.md) is not built by transformers.
        id="deepseek-v3", name="DeepSeek-V3 (671B)", family="DeepSeek", model_type="deepseek_v3",
        hidden_size=7168, num_hidden_layers=61, num_attention_heads=128, num_key_value_heads=128,
        intermediate_size=18432, vocab_size=129280,
        num_local_experts=256, num_experts_per_tok=8, moe_intermediate_size=2048, shared_expert_intermediate_size=2048,
        first_k_dense_replace=3, router_bias=True,
        q_lora_rank=1536, kv_lora_rank=512, qk_nope_head_dim=128, qk_rope_head_dim=64, v_head_dim=128,
        published_params=671_026_419_200, source=_hf("deepseek-ai/DeepSeek-V3"),
    ),
    ModelArch(
        # Qwen2.5-1.5B's shapes with an untied lm_head: its own entry, not an alias
        id="deepseek-r1-distill-qwen-1.5b", name="DeepSeek-R1-Distill-Qwen-1.5B",
        family="DeepSeek", model_type="qwen2",
        hidden_size=1536, num_hidden_layers=28, num_attention_heads=12, num_key_value_heads=2, intermediate_size=8960,
        vocab_size=151_936, attention_bias=True,
        published_params=1_777_088_000, source=_hf("deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B"),
        count_source=("Hub safetensors parameters: 1,777,088,000 = Qwen2.5-1.5B's 1,543,714,304 + an untied lm_head "
                      "of 233,373,696; headline 1.5B"),
        hf_id="deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B",
        aliases=("unsloth/DeepSeek-R1-Distill-Qwen-1.5B", "unsloth/DeepSeek-R1-Distill-Qwen-1.5B-unsloth-bnb-4bit",
                 "unsloth/DeepSeek-R1-Distill-Qwen-1.5B-bnb-4bit"),
    ),
    ModelArch(
        # DeepSeek-V3's layout (MLA, 1 shared expert) with 384 experts, 64 heads and 1 dense layer; model_type kimi_k2
        # (remote code): read with no class default
        id="kimi-k2", name="Kimi K2 (1T-A32B)", family="Kimi", model_type="kimi_k2",
        hidden_size=7168, num_hidden_layers=61, num_attention_heads=64, num_key_value_heads=64,
        intermediate_size=18_432, vocab_size=163_840, num_local_experts=384, num_experts_per_tok=8,
        moe_intermediate_size=2048, shared_expert_intermediate_size=2048, first_k_dense_replace=1, q_lora_rank=1536,
        kv_lora_rank=512, qk_nope_head_dim=128, qk_rope_head_dim=64, v_head_dim=128,
        published_params=1_026_408_209_408, source=_hf("moonshotai/Kimi-K2-Instruct"),
        count_source=("transformers parameters() of DeepseekV3ForCausalLM: 1,026,408,209,408 (the 60 routers' "
                      "e_score_correction_bias, 23,040 values, is a buffer; no MTP layer; the released weights are "
                      "block FP8); headline 1T total, 32B activated"),
        hf_id="moonshotai/Kimi-K2-Instruct",
        aliases=("moonshotai/Kimi-K2-Base", "moonshotai/Kimi-K2-Instruct-0905"),
    ),
    ModelArch(
        # Glm4MoeForCausalLM: 1 dense layer, 45 MoE layers of 128 experts of 1408 + 1 shared; q/k/v biases
        # (attention_bias), 96 heads of 128 over a 4096 hidden size
        id="glm-4.5-air", name="GLM-4.5-Air (106B-A12B)", family="GLM", model_type="glm4_moe",
        hidden_size=4096, num_hidden_layers=46, num_attention_heads=96, num_key_value_heads=8,
        intermediate_size=10_944, vocab_size=151_552, head_dim=128, attention_bias=True, num_local_experts=128,
        num_experts_per_tok=8, moe_intermediate_size=1408, shared_expert_intermediate_size=1408,
        first_k_dense_replace=1,
        published_params=106_852_245_504, source=_hf("zai-org/GLM-4.5-Air"),
        count_source=("the trainer's parameter count 106,852,245,504 (transformers parameters(): the 45 routers' "
                      "e_score_correction_bias, 5,760 fp32 values, is a buffer; the checkpoint's "
                      "multi-token-prediction layer 46, about 2.4 B, is not built); headline 106B total, 12B active"),
        hf_id="zai-org/GLM-4.5-Air",
        aliases=("zai-org/GLM-4.5-Air-Base",),
    ),
    ModelArch(
        # OlmoeSparseMoeBlock: 64 experts of 1024 (intermediate_size); q_norm/k_norm over all q and k features
        id="olmoe-1b-7b", name="OLMoE-1B-7B (0924)", family="OLMoE", model_type="olmoe",
        hidden_size=2048, num_hidden_layers=16, num_attention_heads=16, num_key_value_heads=16,
        intermediate_size=1024, vocab_size=50304, qk_norm="full",
        num_local_experts=64, num_experts_per_tok=8,
        published_params=6_919_161_856, source=_hf("allenai/OLMoE-1B-7B-0924"),
    ),
    # --- OLMo 2: q/k norms over all q and k features (like OLMoE), norms after attention and MLP (2 per layer) -------
    ModelArch(
        id="olmo-2-1b", name="OLMo 2 1B", family="OLMo 2", model_type="olmo2",
        hidden_size=2048, num_hidden_layers=16, num_attention_heads=16, num_key_value_heads=16,
        intermediate_size=8192, vocab_size=100_352, qk_norm="full",
        published_params=1_484_916_736, source=_hf("allenai/OLMo-2-0425-1B"),
        count_source=("Hub safetensors parameters: 1,484,916,736; headline 1B"),
        hf_id="allenai/OLMo-2-0425-1B",
        aliases=("allenai/OLMo-2-0425-1B-Instruct", "allenai/OLMo-2-0425-1B-SFT", "allenai/OLMo-2-0425-1B-DPO"),
    ),
    ModelArch(
        id="olmo-2-7b", name="OLMo 2 7B", family="OLMo 2", model_type="olmo2",
        hidden_size=4096, num_hidden_layers=32, num_attention_heads=32, num_key_value_heads=32,
        intermediate_size=11_008, vocab_size=100_352, qk_norm="full",
        published_params=7_298_617_344, source=_hf("allenai/OLMo-2-1124-7B"),
        count_source=("Hub safetensors parameters: 7,298,617,344; headline 7B"),
        hf_id="allenai/OLMo-2-1124-7B",
        aliases=("allenai/OLMo-2-1124-7B-Instruct", "allenai/OLMo-2-1124-7B-SFT", "allenai/OLMo-2-1124-7B-DPO"),
    ),
    ModelArch(
        id="olmo-2-13b", name="OLMo 2 13B", family="OLMo 2", model_type="olmo2",
        hidden_size=5120, num_hidden_layers=40, num_attention_heads=40, num_key_value_heads=40,
        intermediate_size=13_824, vocab_size=100_352, qk_norm="full",
        published_params=13_716_198_400, source=_hf("allenai/OLMo-2-1124-13B"),
        count_source=("Hub safetensors parameters: 13,716,198,400; headline 13B"),
        hf_id="allenai/OLMo-2-1124-13B",
        aliases=("allenai/OLMo-2-1124-13B-Instruct", "allenai/OLMo-2-1124-13B-SFT", "allenai/OLMo-2-1124-13B-DPO"),
    ),
    ModelArch(
        id="olmo-2-32b", name="OLMo 2 32B", family="OLMo 2", model_type="olmo2",
        hidden_size=5120, num_hidden_layers=64, num_attention_heads=40, num_key_value_heads=8,
        intermediate_size=27_648, vocab_size=100_352, qk_norm="full",
        published_params=32_234_279_936, source=_hf("allenai/OLMo-2-0325-32B"),
        count_source=("Hub safetensors parameters: 32,234,279,936; headline 32B"),
        hf_id="allenai/OLMo-2-0325-32B",
        aliases=("allenai/OLMo-2-0325-32B-Instruct", "unsloth/OLMo-2-0325-32B-Instruct",
                 "unsloth/OLMo-2-0325-32B-Instruct-unsloth-bnb-4bit"),
    ),
    ModelArch(
        # GptOssAttention: biases on q/k/v/o, one sink per head; GptOssExperts: fused gate_up with biases, router
        # with a bias. Its checkpoint stores the experts in MXFP4; fine-tuning loads them in bf16 (counted so).
        id="gpt-oss-20b", name="gpt-oss-20b", family="gpt-oss", model_type="gpt_oss",
        hidden_size=2880, num_hidden_layers=24, num_attention_heads=64, num_key_value_heads=8, head_dim=64,
        intermediate_size=2880, vocab_size=201088, attention_bias=True, o_proj_bias=True, mlp_bias=True,
        attention_sinks=True, num_local_experts=32, num_experts_per_tok=4, router_bias=True,
        published_params=20_914_757_184, source=_hf("openai/gpt-oss-20b"),
    ),
    ModelArch(
        id="gpt-oss-120b", name="gpt-oss-120b", family="gpt-oss", model_type="gpt_oss",
        hidden_size=2880, num_hidden_layers=36, num_attention_heads=64, num_key_value_heads=8, head_dim=64,
        intermediate_size=2880, vocab_size=201088, attention_bias=True, o_proj_bias=True, mlp_bias=True,
        attention_sinks=True, num_local_experts=128, num_experts_per_tok=4, router_bias=True,
        published_params=116_829_156_672, source=_hf("openai/gpt-oss-120b"),
    ),
    # --- Qwen3 (dense): q_norm/k_norm over head_dim 128; 0.6B-4B tie the embeddings ----------------------------------
    ModelArch(
        id="qwen3-0.6b", name="Qwen3 0.6B", family="Qwen3", model_type="qwen3",
        hidden_size=1024, num_hidden_layers=28, num_attention_heads=16, num_key_value_heads=8, intermediate_size=3072,
        vocab_size=151_936, tie_word_embeddings=True, head_dim=128, qk_norm="head",
        published_params=596_049_920, source=_hf("Qwen/Qwen3-0.6B"),
        count_source=("the safetensors hold 751,632,384 elements, a copy of lm_head.weight (155,582,464) included "
                      "although tie_word_embeddings is true: transformers ties it on load, so 596,049,920 are in "
                      "memory (the card's 0.44B non-embedding = 440,467,456); headline 0.6B"),
        hf_id="Qwen/Qwen3-0.6B",
        aliases=("Qwen/Qwen3-0.6B-Base", "unsloth/Qwen3-0.6B", "unsloth/Qwen3-0.6B-unsloth-bnb-4bit",
                 "unsloth/Qwen3-0.6B-bnb-4bit", "unsloth/Qwen3-0.6B-Base-unsloth-bnb-4bit"),
    ),
    ModelArch(
        id="qwen3-1.7b", name="Qwen3 1.7B", family="Qwen3", model_type="qwen3",
        hidden_size=2048, num_hidden_layers=28, num_attention_heads=16, num_key_value_heads=8, intermediate_size=6144,
        vocab_size=151_936, tie_word_embeddings=True, head_dim=128, qk_norm="head",
        published_params=1_720_574_976, source=_hf("Qwen/Qwen3-1.7B"),
        count_source=("the safetensors hold 2,031,739,904 elements, a copy of lm_head.weight (311,164,928) included "
                      "although the embeddings are tied: 1,720,574,976 in memory (card: 1.4B non-embedding); "
                      "headline 1.7B"),
        hf_id="Qwen/Qwen3-1.7B",
        aliases=("Qwen/Qwen3-1.7B-Base", "unsloth/Qwen3-1.7B", "unsloth/Qwen3-1.7B-unsloth-bnb-4bit",
                 "unsloth/Qwen3-1.7B-bnb-4bit", "unsloth/Qwen3-1.7B-Base-unsloth-bnb-4bit"),
    ),
    ModelArch(
        id="qwen3-4b", name="Qwen3 4B", family="Qwen3", model_type="qwen3",
        hidden_size=2560, num_hidden_layers=36, num_attention_heads=32, num_key_value_heads=8, intermediate_size=9728,
        vocab_size=151_936, tie_word_embeddings=True, head_dim=128, qk_norm="head",
        published_params=4_022_468_096, source=_hf("Qwen/Qwen3-4B"),
        count_source=("model.safetensors.index.json total_size 8,044,936,192 B / 2 (bf16; tied, no lm_head stored); "
                      "headline 4B"),
        hf_id="Qwen/Qwen3-4B",
        aliases=("Qwen/Qwen3-4B-Base", "Qwen/Qwen3-4B-Instruct-2507", "Qwen/Qwen3-4B-Thinking-2507",
                 "unsloth/Qwen3-4B", "unsloth/Qwen3-4B-unsloth-bnb-4bit", "unsloth/Qwen3-4B-bnb-4bit",
                 "unsloth/Qwen3-4B-Instruct-2507", "unsloth/Qwen3-4B-Instruct-2507-unsloth-bnb-4bit",
                 "unsloth/Qwen3-4B-Instruct-2507-bnb-4bit"),
    ),
    ModelArch(
        id="qwen3-8b", name="Qwen3 8B", family="Qwen3", model_type="qwen3",
        hidden_size=4096, num_hidden_layers=36, num_attention_heads=32, num_key_value_heads=8,
        intermediate_size=12_288, vocab_size=151_936, head_dim=128, qk_norm="head",
        published_params=8_190_735_360, source=_hf("Qwen/Qwen3-8B"),
        count_source=("model.safetensors.index.json total_size 16,381,470,720 B / 2; headline (model card): 8.2B, 6.95B "
                      "non-embedding"),
        hf_id="Qwen/Qwen3-8B",
        aliases=("Qwen/Qwen3-8B-Base", "unsloth/Qwen3-8B", "unsloth/Qwen3-8B-unsloth-bnb-4bit",
                 "unsloth/Qwen3-8B-bnb-4bit", "unsloth/Qwen3-8B-Base-unsloth-bnb-4bit",
                 "deepseek-ai/DeepSeek-R1-0528-Qwen3-8B"),
    ),
    ModelArch(
        id="qwen3-14b", name="Qwen3 14B", family="Qwen3", model_type="qwen3",
        hidden_size=5120, num_hidden_layers=40, num_attention_heads=40, num_key_value_heads=8,
        intermediate_size=17_408, vocab_size=151_936, head_dim=128, qk_norm="head",
        published_params=14_768_307_200, source=_hf("Qwen/Qwen3-14B"),
        count_source=("model.safetensors.index.json total_size 29,536,614,400 B / 2; headline (model card): 14.8B"),
        hf_id="Qwen/Qwen3-14B",
        aliases=("Qwen/Qwen3-14B-Base", "unsloth/Qwen3-14B", "unsloth/Qwen3-14B-unsloth-bnb-4bit",
                 "unsloth/Qwen3-14B-bnb-4bit", "unsloth/Qwen3-14B-Base-unsloth-bnb-4bit"),
    ),
    ModelArch(
        id="qwen3-32b", name="Qwen3 32B", family="Qwen3", model_type="qwen3",
        hidden_size=5120, num_hidden_layers=64, num_attention_heads=64, num_key_value_heads=8,
        intermediate_size=25_600, vocab_size=151_936, head_dim=128, qk_norm="head",
        published_params=32_762_123_264, source=_hf("Qwen/Qwen3-32B"),
        count_source=("model.safetensors.index.json total_size 65,524,246,528 B / 2; headline (model card): 32.8B"),
        hf_id="Qwen/Qwen3-32B",
        aliases=("unsloth/Qwen3-32B", "unsloth/Qwen3-32B-unsloth-bnb-4bit", "unsloth/Qwen3-32B-bnb-4bit"),
    ),
    # --- Qwen2.5 (q/k/v projections carry a bias, o_proj does not; 0.5B-3B tie the embeddings) ---------------------
    ModelArch(
        id="qwen2.5-0.5b", name="Qwen2.5 0.5B", family="Qwen2.5",
        hidden_size=896, num_hidden_layers=24, num_attention_heads=14, num_key_value_heads=2,
        intermediate_size=4864, vocab_size=151936, tie_word_embeddings=True, attention_bias=True,
        published_params=494_032_768, source=_hf("Qwen/Qwen2.5-0.5B"),
    ),
    ModelArch(
        id="qwen2.5-1.5b", name="Qwen2.5 1.5B", family="Qwen2.5",
        hidden_size=1536, num_hidden_layers=28, num_attention_heads=12, num_key_value_heads=2,
        intermediate_size=8960, vocab_size=151936, tie_word_embeddings=True, attention_bias=True,
        published_params=1_543_714_304, source=_hf("Qwen/Qwen2.5-1.5B"),
    ),
    ModelArch(
        id="qwen2.5-3b", name="Qwen2.5 3B", family="Qwen2.5",
        hidden_size=2048, num_hidden_layers=36, num_attention_heads=16, num_key_value_heads=2,
        intermediate_size=11008, vocab_size=151936, tie_word_embeddings=True, attention_bias=True,
        published_params=3_085_938_688, source=_hf("Qwen/Qwen2.5-3B"),
    ),
    ModelArch(
        id="qwen2.5-7b", name="Qwen2.5 7B", family="Qwen2.5",
        hidden_size=3584, num_hidden_layers=28, num_attention_heads=28, num_key_value_heads=4,
        intermediate_size=18944, vocab_size=152064, attention_bias=True,
        published_params=7_615_616_512, source=_hf("Qwen/Qwen2.5-7B"),
    ),
    ModelArch(
        id="qwen2.5-14b", name="Qwen2.5 14B", family="Qwen2.5",
        hidden_size=5120, num_hidden_layers=48, num_attention_heads=40, num_key_value_heads=8,
        intermediate_size=13824, vocab_size=152064, attention_bias=True,
        published_params=14_770_033_664, source=_hf("Qwen/Qwen2.5-14B"),
    ),
    ModelArch(
        id="qwen2.5-32b", name="Qwen2.5 32B", family="Qwen2.5",
        hidden_size=5120, num_hidden_layers=64, num_attention_heads=40, num_key_value_heads=8,
        intermediate_size=27648, vocab_size=152064, attention_bias=True,
        published_params=32_763_876_352, source=_hf("Qwen/Qwen2.5-32B"),
    ),
    ModelArch(
        id="qwen2.5-72b", name="Qwen2.5 72B", family="Qwen2.5",
        hidden_size=8192, num_hidden_layers=80, num_attention_heads=64, num_key_value_heads=8,
        intermediate_size=29568, vocab_size=152064, attention_bias=True,
        published_params=72_706_203_648, source=_hf("Qwen/Qwen2.5-72B"),
    ),
    # --- Gemma (v1): GeGLU MLP, tied embeddings, head_dim 256 -------------------------------------------------------
    ModelArch(
        id="gemma-2b", name="Gemma 2B", family="Gemma",
        hidden_size=2048, num_hidden_layers=18, num_attention_heads=8, num_key_value_heads=1,
        intermediate_size=16384, vocab_size=256000, tie_word_embeddings=True, head_dim=256,
        published_params=2_506_172_416, source=_hf("google/gemma-2b"),
    ),
    ModelArch(
        id="gemma-7b", name="Gemma 7B", family="Gemma",
        hidden_size=3072, num_hidden_layers=28, num_attention_heads=16, num_key_value_heads=16,
        intermediate_size=24576, vocab_size=256000, tie_word_embeddings=True, head_dim=256,
        published_params=8_537_680_896, source=_hf("google/gemma-7b"),
    ),
    # --- Gemma 2: GeGLU MLP, tied embeddings, 4 RMSNorms per layer (pre/post attention and pre/post MLP) -----------
    ModelArch(
        id="gemma-2-2b", name="Gemma 2 2B", family="Gemma 2",
        hidden_size=2304, num_hidden_layers=26, num_attention_heads=8, num_key_value_heads=4,
        intermediate_size=9216, vocab_size=256000, tie_word_embeddings=True, head_dim=256,
        norms_per_layer=4,
        published_params=2_614_341_888, source=_hf("google/gemma-2-2b"),
    ),
    ModelArch(
        id="gemma-2-9b", name="Gemma 2 9B", family="Gemma 2",
        hidden_size=3584, num_hidden_layers=42, num_attention_heads=16, num_key_value_heads=8,
        intermediate_size=14336, vocab_size=256000, tie_word_embeddings=True, head_dim=256,
        norms_per_layer=4,
        published_params=9_241_705_984, source=_hf("google/gemma-2-9b"),
    ),
    ModelArch(
        id="gemma-2-27b", name="Gemma 2 27B", family="Gemma 2",
        hidden_size=4608, num_hidden_layers=46, num_attention_heads=32, num_key_value_heads=16,
        intermediate_size=36864, vocab_size=256000, tie_word_embeddings=True, head_dim=128,
        norms_per_layer=4,
        published_params=27_227_128_320, source=_hf("google/gemma-2-27b"),
    ),
    # --- Gemma 3: GeGLU MLP, tied embeddings, 4 RMSNorms per layer and q/k norms; 5 sliding-window layers to 1 global
    # (memory-neutral: eager attention masks the full scores). 4B-27B are multimodal: the SigLIP tower counted as
    # frozen weights.
    ModelArch(
        id="gemma-3-1b", name="Gemma 3 1B", family="Gemma 3", model_type="gemma3_text",
        hidden_size=1152, num_hidden_layers=26, num_attention_heads=4, num_key_value_heads=1, intermediate_size=6912,
        vocab_size=262_144, tie_word_embeddings=True, head_dim=256, qk_norm="head", norms_per_layer=4,
        published_params=999_885_952, source=_hf("google/gemma-3-1b-it"),
        count_source=("model.safetensors metadata: 999,885,952 (text only); headline 1B"),
        hf_id="google/gemma-3-1b-it",
        aliases=("google/gemma-3-1b-pt", "unsloth/gemma-3-1b-it", "unsloth/gemma-3-1b-it-unsloth-bnb-4bit",
                 "unsloth/gemma-3-1b-it-bnb-4bit", "unsloth/gemma-3-1b-pt-unsloth-bnb-4bit"),
    ),
    ModelArch(
        id="gemma-3-4b", name="Gemma 3 4B", family="Gemma 3", model_type="gemma3_text",
        hidden_size=2560, num_hidden_layers=34, num_attention_heads=8, num_key_value_heads=4,
        intermediate_size=10_240, vocab_size=262_208, tie_word_embeddings=True, head_dim=256, qk_norm="head",
        norms_per_layer=4,
        vision_params=vision_tower_params(_vision(_SIGLIP_GEMMA3, 2560)),
        published_params=4_300_079_472, source=_hf("google/gemma-3-4b-it"),
        count_source=("safetensors metadata of the multimodal checkpoint: 4,300,079,472 = text decoder "
                      "3,880,263,168 + SigLIP vision tower 416,866,032 + projector 2,950,272; headline 4B"),
        hf_id="google/gemma-3-4b-it",
        aliases=("google/gemma-3-4b-pt", "unsloth/gemma-3-4b-it", "unsloth/gemma-3-4b-it-unsloth-bnb-4bit",
                 "unsloth/gemma-3-4b-it-bnb-4bit", "unsloth/gemma-3-4b-pt-unsloth-bnb-4bit"),
    ),
    ModelArch(
        id="gemma-3-12b", name="Gemma 3 12B", family="Gemma 3", model_type="gemma3_text",
        hidden_size=3840, num_hidden_layers=48, num_attention_heads=16, num_key_value_heads=8,
        intermediate_size=15_360, vocab_size=262_208, tie_word_embeddings=True, head_dim=256, qk_norm="head",
        norms_per_layer=4,
        vision_params=vision_tower_params(_vision(_SIGLIP_GEMMA3, 3840)),
        published_params=12_187_325_040, source=_hf("google/gemma-3-12b-it"),
        count_source=("safetensors metadata of the multimodal checkpoint: 12,187,325,040 = text decoder "
                      "11,766,034,176 + SigLIP 416,866,032 + projector 4,424,832; headline 12B"),
        hf_id="google/gemma-3-12b-it",
        aliases=("google/gemma-3-12b-pt", "unsloth/gemma-3-12b-it", "unsloth/gemma-3-12b-it-unsloth-bnb-4bit",
                 "unsloth/gemma-3-12b-it-bnb-4bit", "unsloth/gemma-3-12b-pt-unsloth-bnb-4bit"),
    ),
    ModelArch(
        id="gemma-3-27b", name="Gemma 3 27B", family="Gemma 3", model_type="gemma3_text",
        hidden_size=5376, num_hidden_layers=62, num_attention_heads=32, num_key_value_heads=16,
        intermediate_size=21_504, vocab_size=262_208, tie_word_embeddings=True, head_dim=128, qk_norm="head",
        norms_per_layer=4,
        vision_params=vision_tower_params(_vision(_SIGLIP_GEMMA3, 5376)),
        published_params=27_432_406_640, source=_hf("google/gemma-3-27b-it"),
        count_source=("safetensors metadata of the multimodal checkpoint: 27,432,406,640 = text decoder "
                      "27,009,346,304 + SigLIP 416,866,032 + projector 6,194,304; headline 27B"),
        hf_id="google/gemma-3-27b-it",
        aliases=("google/gemma-3-27b-pt", "unsloth/gemma-3-27b-it", "unsloth/gemma-3-27b-it-unsloth-bnb-4bit",
                 "unsloth/gemma-3-27b-it-bnb-4bit", "unsloth/gemma-3-27b-pt-unsloth-bnb-4bit"),
    ),
    # --- Phi ----------------------------------------------------------------------------------------------------------
    # phi-1.5 / phi-2 (PhiForCausalLM) are approximate: parallel attention+MLP sharing ONE LayerNorm per layer,
    # partial rotary (32 of 64 / 80 head dims), plain GELU MLP fc1/fc2 (mlp_gated=False), biases on q/k/v/dense,
    # fc1/fc2 and on the lm_head, LayerNorm with bias. Those biases are not representable here (~0.04 % of params).
    ModelArch(
        id="phi-1.5", name="Phi-1.5 (1.4B)", family="Phi",
        hidden_size=2048, num_hidden_layers=24, num_attention_heads=32, num_key_value_heads=32,
        intermediate_size=8192, vocab_size=51200, mlp_gated=False,
        published_params=1_418_270_720, source=_hf("microsoft/phi-1_5"),
    ),
    ModelArch(
        id="phi-2", name="Phi-2 (2.7B)", family="Phi",
        hidden_size=2560, num_hidden_layers=32, num_attention_heads=32, num_key_value_heads=32,
        intermediate_size=10240, vocab_size=51200, mlp_gated=False,
        published_params=2_779_683_840, source=_hf("microsoft/phi-2"),
    ),
    ModelArch(
        # Phi3ForCausalLM fuses q/k/v into qkv_proj and gate/up into gate_up_proj: same parameter count as Llama.
        id="phi-3-mini", name="Phi-3 mini 4k (3.8B)", family="Phi",
        hidden_size=3072, num_hidden_layers=32, num_attention_heads=32, num_key_value_heads=32,
        intermediate_size=8192, vocab_size=32064,
        published_params=3_821_079_552, source=_hf("microsoft/Phi-3-mini-4k-instruct"),
    ),
    ModelArch(
        id="phi-4", name="Phi-4 (14B)", family="Phi", model_type="phi3",
        hidden_size=5120, num_hidden_layers=40, num_attention_heads=40, num_key_value_heads=10,
        intermediate_size=17_920, vocab_size=100_352,
        published_params=14_659_507_200, source=_hf("microsoft/phi-4"),
        count_source=("Hub safetensors parameters: 14,659,507,200; headline 14B"),
        hf_id="microsoft/phi-4",
        aliases=("microsoft/Phi-4-reasoning", "microsoft/Phi-4-reasoning-plus", "unsloth/phi-4",
                 "unsloth/phi-4-unsloth-bnb-4bit", "unsloth/phi-4-bnb-4bit"),
    ),
    ModelArch(
        id="phi-4-mini", name="Phi-4-mini (3.8B)", family="Phi", model_type="phi3",
        hidden_size=3072, num_hidden_layers=32, num_attention_heads=24, num_key_value_heads=8, intermediate_size=8192,
        vocab_size=200_064, tie_word_embeddings=True,
        published_params=3_836_021_760, source=_hf("microsoft/Phi-4-mini-instruct"),
        count_source=("safetensors headers: 3,836,021,760 (tied: no lm_head stored); headline 3.8B"),
        hf_id="microsoft/Phi-4-mini-instruct",
        aliases=("microsoft/Phi-4-mini-reasoning", "unsloth/Phi-4-mini-instruct",
                 "unsloth/Phi-4-mini-instruct-unsloth-bnb-4bit", "unsloth/phi-4-mini-reasoning-unsloth-bnb-4bit"),
    ),
    # --- SmolLM3 (Llama-like; its NoPE layers have no parameters of their own) ------------------------------------
    ModelArch(
        id="smollm3-3b", name="SmolLM3 3B", family="SmolLM", model_type="smollm3",
        hidden_size=2048, num_hidden_layers=36, num_attention_heads=16, num_key_value_heads=4,
        intermediate_size=11_008, vocab_size=128_256, tie_word_embeddings=True,
        published_params=3_075_098_624, source=_hf("HuggingFaceTB/SmolLM3-3B"),
        count_source=("model.safetensors.index.json: 3,075,098,624 (tied); headline 3B"),
        hf_id="HuggingFaceTB/SmolLM3-3B",
        aliases=("HuggingFaceTB/SmolLM3-3B-Base",),
    ),
    # --- Granite 3.x (Llama-like, tied; 3.2 has 3.1's shapes) -----------------------------------------------------
    ModelArch(
        id="granite-3.1-2b", name="Granite 3.1 2B", family="Granite", model_type="granite",
        hidden_size=2048, num_hidden_layers=40, num_attention_heads=32, num_key_value_heads=8, intermediate_size=8192,
        vocab_size=49_155, tie_word_embeddings=True,
        published_params=2_533_531_648, source=_hf("ibm-granite/granite-3.1-2b-instruct"),
        count_source=("Hub safetensors parameters: 2,533,531,648 (vocab 49155; 3.2 identical); headline 2B"),
        hf_id="ibm-granite/granite-3.1-2b-instruct",
        aliases=("ibm-granite/granite-3.1-2b-base", "ibm-granite/granite-3.2-2b-instruct",
                 "ibm-granite/granite-guardian-3.1-2b", "unsloth/granite-3.2-2b-instruct-unsloth-bnb-4bit"),
    ),
    ModelArch(
        id="granite-3.1-8b", name="Granite 3.1 8B", family="Granite", model_type="granite",
        hidden_size=4096, num_hidden_layers=40, num_attention_heads=32, num_key_value_heads=8,
        intermediate_size=12_800, vocab_size=49_155, tie_word_embeddings=True,
        published_params=8_170_848_256, source=_hf("ibm-granite/granite-3.1-8b-instruct"),
        count_source=("Hub safetensors parameters: 8,170,848,256 (vocab 49155; 3.2 identical); headline 8B"),
        hf_id="ibm-granite/granite-3.1-8b-instruct",
        aliases=("ibm-granite/granite-3.1-8b-base", "ibm-granite/granite-3.2-8b-instruct",
                 "unsloth/granite-3.2-8b-instruct-unsloth-bnb-4bit"),
    ),
    ModelArch(
        id="granite-3.3-2b", name="Granite 3.3 2B", family="Granite", model_type="granite",
        hidden_size=2048, num_hidden_layers=40, num_attention_heads=32, num_key_value_heads=8, intermediate_size=8192,
        vocab_size=49_159, tie_word_embeddings=True,
        published_params=2_533_539_840, source=_hf("ibm-granite/granite-3.3-2b-instruct"),
        count_source=("Hub safetensors parameters: 2,533,539,840 (vocab 49159); headline 2B"),
        hf_id="ibm-granite/granite-3.3-2b-instruct",
        aliases=("ibm-granite/granite-3.3-2b-base",),
    ),
    ModelArch(
        id="granite-3.3-8b", name="Granite 3.3 8B", family="Granite", model_type="granite",
        hidden_size=4096, num_hidden_layers=40, num_attention_heads=32, num_key_value_heads=8,
        intermediate_size=12_800, vocab_size=49_159, tie_word_embeddings=True,
        published_params=8_170_864_640, source=_hf("ibm-granite/granite-3.3-8b-instruct"),
        count_source=("Hub safetensors parameters: 8,170,864,640 (vocab 49159); headline 8B"),
        hf_id="ibm-granite/granite-3.3-8b-instruct",
        aliases=("ibm-granite/granite-3.3-8b-base",),
    ),
    # --- Nemotron-H (NVIDIA: hybrid blocks of one part each, transformers models/nemotron_h) ----------------------
    ModelArch(
        # hybrid_override_pattern "M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M-": 24 Mamba-2 blocks (128 heads
        # of 64, 8 groups, state 128, conv 4 with bias), 4 attention blocks (32 heads, 8 kv heads of 128) and 24 relu2
        # MLP blocks of 21504, as NVIDIA's Megatron-Bridge documents the family (docs/models/llm/nemotronh.md)
        id="nemotron-h-8b", name="Nemotron-H 8B", family="Nemotron", model_type="nemotron_h",
        hidden_size=4096, num_hidden_layers=52, num_attention_heads=32, num_key_value_heads=8, head_dim=128,
        intermediate_size=21_504, vocab_size=131_072, mlp_gated=False, norms_per_layer=1, mlp_blocks=24,
        mamba_layers=24, mamba_n_heads=128, mamba_d_head=64, mamba_n_groups=8, mamba_d_state=128, mamba_d_conv=4,
        mamba_conv_bias=True, mamba_chunk_size=128,
        published_params=8_100_852_736, source=_hf("nvidia/Nemotron-H-8B-Base-8K"),
        count_source=("the released checkpoint's named_parameters, 8,100,852,736 (a public layer-by-layer analysis: "
                      "mixer.in_proj 18560 x 4096 in 24 blocks, attention in blocks 7, 18, 29, 40, 53 norms); "
                      "headline 8B"),
        hf_id="nvidia/Nemotron-H-8B-Base-8K",
    ),
    # --- TinyLlama (Llama 2 architecture) ----------------------------------------------------------------------------
    ModelArch(
        id="tinyllama-1.1b", name="TinyLlama 1.1B", family="TinyLlama",
        hidden_size=2048, num_hidden_layers=22, num_attention_heads=32, num_key_value_heads=4,
        intermediate_size=5632, vocab_size=32000,
        published_params=1_100_048_384, source=_hf("TinyLlama/TinyLlama-1.1B-intermediate-step-1431k-3T"),
    ),
    # --- StableLM alpha (GPT-NeoX architecture) -- approximate: parallel residual, partial rotary (25 %), plain
    # GELU MLP (mlp_gated=False), biases on every linear except the untied output head, LayerNorm with bias.
    ModelArch(
        id="stablelm-base-alpha-3b", name="StableLM-Base-Alpha 3B", family="StableLM",
        hidden_size=4096, num_hidden_layers=16, num_attention_heads=32, num_key_value_heads=32,
        intermediate_size=16384, vocab_size=50688, mlp_gated=False,
        published_params=3_637_321_728, source=_hf("stabilityai/stablelm-base-alpha-3b"),
    ),
    # --- Falcon (RefinedWebModel) -- approximate: multi-query attention (71 heads of 64, 1 KV head), parallel
    # attention+MLP sharing ONE LayerNorm (with bias) per layer, plain GELU MLP 4*hidden with no biases, tied
    # embeddings. The config has no intermediate_size (ffn = 4 * hidden_size = 18176).
    ModelArch(
        id="falcon-7b", name="Falcon 7B", family="Falcon",
        hidden_size=4544, num_hidden_layers=32, num_attention_heads=71, num_key_value_heads=1,
        intermediate_size=18176, vocab_size=65024, tie_word_embeddings=True, mlp_gated=False,
        published_params=6_921_720_704, source=_hf("tiiuae/falcon-7b"),
    ),
    # --- BLOOM -- approximate: ALiBi (no rotary), LayerNorm with bias (plus one after the embeddings), biases on
    # every linear, plain GELU MLP 4*hidden (config field n_inner is null), tied embeddings, fused query_key_value.
    ModelArch(
        id="bloomz-7b1", name="BLOOMZ 7B1", family="BLOOM",
        hidden_size=4096, num_hidden_layers=30, num_attention_heads=32, num_key_value_heads=32,
        intermediate_size=16384, vocab_size=250880, tie_word_embeddings=True, mlp_gated=False,
        published_params=7_069_016_064, source=_hf("bigscience/bloomz-7b1"),
    ),
)

# Other Hugging Face repos with the config fields of an entry above: instruct/base variants, distills made on its
# architecture (DeepSeek-R1 on Llama 3.1/3.3 and Qwen2.5), Unsloth's copies and pre-quantized -bnb-4bit uploads (the
# source's config plus a quantization_config: their 4-bit storage is the qlora method's). Unsloth ids: unslothai/unsloth
# unsloth/models/mapper.py @015bdef0; the others: each repo's model card names the base it shares the config with.
_MORE_ALIASES: dict[str, tuple[str, ...]] = {
    "llama-2-7b": ("meta-llama/Llama-2-7b-chat-hf",),
    "llama-2-13b": ("meta-llama/Llama-2-13b-chat-hf",),
    "llama-2-70b": ("meta-llama/Llama-2-70b-chat-hf",),
    "llama-3-8b": ("meta-llama/Meta-Llama-3-8B-Instruct", "unsloth/llama-3-8b-bnb-4bit",
                   "unsloth/llama-3-8b-Instruct-bnb-4bit"),
    "llama-3-70b": ("meta-llama/Meta-Llama-3-70B-Instruct",),
    "llama-3.1-8b": ("meta-llama/Llama-3.1-8B-Instruct", "meta-llama/Meta-Llama-3.1-8B",
                     "meta-llama/Meta-Llama-3.1-8B-Instruct", "unsloth/Meta-Llama-3.1-8B",
                     "unsloth/Meta-Llama-3.1-8B-bnb-4bit", "unsloth/Meta-Llama-3.1-8B-Instruct",
                     "unsloth/Meta-Llama-3.1-8B-Instruct-bnb-4bit", "unsloth/Llama-3.1-8B-Instruct",
                     "deepseek-ai/DeepSeek-R1-Distill-Llama-8B", "unsloth/DeepSeek-R1-Distill-Llama-8B",
                     "unsloth/DeepSeek-R1-Distill-Llama-8B-unsloth-bnb-4bit",
                     "unsloth/DeepSeek-R1-Distill-Llama-8B-bnb-4bit"),
    "llama-3.1-70b": ("meta-llama/Llama-3.1-70B-Instruct", "meta-llama/Meta-Llama-3.1-70B",
                      "meta-llama/Meta-Llama-3.1-70B-Instruct", "unsloth/Meta-Llama-3.1-70B-bnb-4bit",
                      "unsloth/Meta-Llama-3.1-70B-Instruct-bnb-4bit"),
    "llama-3.1-405b": ("meta-llama/Llama-3.1-405B-Instruct", "meta-llama/Meta-Llama-3.1-405B"),
    "llama-3.2-1b": ("meta-llama/Llama-3.2-1B-Instruct", "unsloth/Llama-3.2-1B", "unsloth/Llama-3.2-1B-Instruct",
                     "unsloth/Llama-3.2-1B-bnb-4bit", "unsloth/Llama-3.2-1B-Instruct-bnb-4bit"),
    "llama-3.2-3b": ("meta-llama/Llama-3.2-3B-Instruct", "unsloth/Llama-3.2-3B", "unsloth/Llama-3.2-3B-Instruct",
                     "unsloth/Llama-3.2-3B-bnb-4bit", "unsloth/Llama-3.2-3B-Instruct-bnb-4bit"),
    "llama-3.3-70b": ("unsloth/Llama-3.3-70B-Instruct", "unsloth/Llama-3.3-70B-Instruct-bnb-4bit",
                      "deepseek-ai/DeepSeek-R1-Distill-Llama-70B", "unsloth/DeepSeek-R1-Distill-Llama-70B",
                      "unsloth/DeepSeek-R1-Distill-Llama-70B-bnb-4bit"),
    "mistral-7b-v0.1": ("mistralai/Mistral-7B-Instruct-v0.1",),
    "mistral-7b-v0.3": ("mistralai/Mistral-7B-Instruct-v0.3", "unsloth/mistral-7b-v0.3",
                        "unsloth/mistral-7b-v0.3-bnb-4bit", "unsloth/mistral-7b-instruct-v0.3-bnb-4bit"),
    "mixtral-8x7b": ("mistralai/Mixtral-8x7B-Instruct-v0.1",),
    "qwen1.5-moe-a2.7b": ("Qwen/Qwen1.5-MoE-A2.7B-Chat",),
    "deepseek-v3": ("deepseek-ai/DeepSeek-V3-Base", "deepseek-ai/DeepSeek-V3-0324", "deepseek-ai/DeepSeek-R1",
                    "deepseek-ai/DeepSeek-R1-Zero", "deepseek-ai/DeepSeek-R1-0528"),
    "deepseek-v2-lite": ("deepseek-ai/DeepSeek-V2-Lite-Chat",),
    "olmoe-1b-7b": ("allenai/OLMoE-1B-7B-0924-Instruct",),
    "gpt-oss-20b": ("unsloth/gpt-oss-20b",),
    "gpt-oss-120b": ("unsloth/gpt-oss-120b",),
    "qwen2.5-0.5b": ("Qwen/Qwen2.5-0.5B-Instruct", "unsloth/Qwen2.5-0.5B-Instruct-bnb-4bit"),
    "qwen2.5-1.5b": ("Qwen/Qwen2.5-1.5B-Instruct", "unsloth/Qwen2.5-1.5B-Instruct-bnb-4bit"),
    "qwen2.5-3b": ("Qwen/Qwen2.5-3B-Instruct", "unsloth/Qwen2.5-3B-Instruct-bnb-4bit"),
    "qwen2.5-7b": ("Qwen/Qwen2.5-7B-Instruct", "unsloth/Qwen2.5-7B-Instruct-bnb-4bit",
                   "deepseek-ai/DeepSeek-R1-Distill-Qwen-7B", "unsloth/DeepSeek-R1-Distill-Qwen-7B",
                   "unsloth/DeepSeek-R1-Distill-Qwen-7B-unsloth-bnb-4bit",
                   "unsloth/DeepSeek-R1-Distill-Qwen-7B-bnb-4bit"),
    "qwen2.5-14b": ("Qwen/Qwen2.5-14B-Instruct", "unsloth/Qwen2.5-14B-Instruct-bnb-4bit",
                    "deepseek-ai/DeepSeek-R1-Distill-Qwen-14B", "unsloth/DeepSeek-R1-Distill-Qwen-14B",
                    "unsloth/DeepSeek-R1-Distill-Qwen-14B-unsloth-bnb-4bit",
                    "unsloth/DeepSeek-R1-Distill-Qwen-14B-bnb-4bit"),
    "qwen2.5-32b": ("Qwen/Qwen2.5-32B-Instruct", "unsloth/Qwen2.5-32B-Instruct-bnb-4bit",
                    "deepseek-ai/DeepSeek-R1-Distill-Qwen-32B", "unsloth/DeepSeek-R1-Distill-Qwen-32B",
                    "unsloth/DeepSeek-R1-Distill-Qwen-32B-unsloth-bnb-4bit",
                    "unsloth/DeepSeek-R1-Distill-Qwen-32B-bnb-4bit"),
    "qwen2.5-72b": ("Qwen/Qwen2.5-72B-Instruct",),
    "qwen3-30b-a3b": ("Qwen/Qwen3-30B-A3B-Base", "Qwen/Qwen3-30B-A3B-Instruct-2507", "Qwen/Qwen3-30B-A3B-Thinking-2507",
                      "unsloth/Qwen3-30B-A3B", "unsloth/Qwen3-30B-A3B-unsloth-bnb-4bit",
                      "unsloth/Qwen3-30B-A3B-Base-bnb-4bit"),
    "gemma-2b": ("google/gemma-2b-it",),
    "gemma-7b": ("google/gemma-7b-it",),
    "gemma-2-2b": ("google/gemma-2-2b-it", "unsloth/gemma-2-2b-it-bnb-4bit"),
    "gemma-2-9b": ("google/gemma-2-9b-it", "unsloth/gemma-2-9b-it-bnb-4bit"),
    "gemma-2-27b": ("google/gemma-2-27b-it", "unsloth/gemma-2-27b-it-bnb-4bit"),
    "phi-3-mini": ("unsloth/Phi-3-mini-4k-instruct", "unsloth/Phi-3-mini-4k-instruct-bnb-4bit"),
}

#: Fine-tunes and mirrors of an entry above published under another name (issue 40), each with where the sameness of
#: shapes is stated. Only ids whose publisher states it are here; the Magistral Small releases are not (their cards
#: say "building upon Mistral Small 3.1" without saying whether the vision tower was kept, and no config.json of them
#: was reachable to check): a name that cannot be checked stays unknown rather than guessed.
_DERIVATIVES: dict[str, tuple[tuple[str, str], ...]] = {
    "mistral-small-3-24b": tuple((repo, "the mistralai/" + repo.split("/")[1] + " model card: fine-tuned from Mistral-Small-3.1 "
                                  "with its vision encoder removed, i.e. Mistral Small 3.1's text decoder, whose config "
                                  "fields equal Mistral Small 3's") for repo in ("mistralai/Devstral-Small-2505",
                                                                                 "mistralai/Devstral-Small-2507")),
    "gpt-oss-20b": (("openai-mirror/gpt-oss-20b", "ModelScope's mirror of openai/gpt-oss-20b: ms-swift registers the "
                     "two ids as one model (its gpt_oss ModelGroup: Model('openai-mirror/gpt-oss-20b', "
                     "'openai/gpt-oss-20b'))"),),
    "gpt-oss-120b": (("openai-mirror/gpt-oss-120b", "ModelScope's mirror of openai/gpt-oss-120b: ms-swift registers "
                      "the two ids as one model (Model('openai-mirror/gpt-oss-120b', 'openai/gpt-oss-120b'))"),
                     ("axolotl-ai-co/gpt-oss-120b-dequantized", "Axolotl's gpt-oss docs: openai/gpt-oss-120b with "
                      "its MXFP4 expert weights dequantized to bf16 (the same tensors, a wider dtype)")),
}
#: Where each derivative's sameness of shapes is stated (repo_key form -> the source, in words).
ALIAS_SOURCES: dict[str, str] = {repo.lower(): src for pairs in _DERIVATIVES.values() for repo, src in pairs}
for _id, _pairs in _DERIVATIVES.items():
    _MORE_ALIASES[_id] = _MORE_ALIASES.get(_id, ()) + tuple(repo for repo, _src in _pairs)


def hub_path(text: str) -> str:
    """A model id as typed, without a huggingface.co address or a /tree/... tail (its case kept)."""
    s = text.strip()
    for prefix in ("https://", "http://"):
        if s.lower().startswith(prefix):
            s = s[len(prefix):]
    for prefix in ("www.huggingface.co/", "huggingface.co/", "hf.co/"):
        if s.lower().startswith(prefix):
            s = s[len(prefix):]
    s = s.split("?", 1)[0].split("#", 1)[0].strip("/")
    parts = s.split("/")
    return "/".join(parts[:2]) if len(parts) > 2 else s


def repo_key(text: str) -> str:
    """A model id as the catalogue looks it up: ``hub_path`` in lower case."""
    return hub_path(text).lower()


#: The longest owner or name of a Hugging Face repository id (the Hub's own limit).
HUB_ID_PART = 96
_HUB_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-")


def is_hub_id(text: Any) -> bool:
    """Whether ``text`` looks like a Hugging Face repository id, ``[owner/]name``: each part 1 to HUB_ID_PART
    characters of ``[A-Za-z0-9._-]``, neither ``.`` nor ``..``. The one rule for every id the project writes as a
    Hub id (the exports' ``model_name_or_path``, ``base_model``, ``model_name``) or looks up as one."""
    if not isinstance(text, str):
        return False
    parts = text.split("/")
    return 0 < len(parts) <= 2 and all(0 < len(p) <= HUB_ID_PART and p not in (".", "..")
                                       and _HUB_CHARS.issuperset(p) for p in parts)


def _with_repos(m: ModelArch) -> ModelArch:
    """The entry with its Hugging Face repo (from its config's address) and every alias."""
    hf_id = m.hf_id or m.source.removeprefix("https://huggingface.co/").removesuffix("/blob/main/config.json")
    return replace(m, hf_id=hf_id, aliases=tuple(dict.fromkeys(m.aliases + _MORE_ALIASES.get(m.id, ()))))


MODELS: dict[str, ModelArch] = {m.id: _with_repos(m) for m in _MODEL_LIST}
if len(MODELS) != len(_MODEL_LIST):  # pragma: no cover - guards against a duplicated id while editing
    raise RuntimeError("duplicate model id in the catalogue")

#: Every name a catalogue entry answers to, in repo_key form: its id, its Hugging Face repo and its aliases.
MODEL_IDS: dict[str, str] = {}
for _m in MODELS.values():
    for _name in (_m.id, _m.hf_id) + _m.aliases:
        if MODEL_IDS.setdefault(repo_key(_name), _m.id) != _m.id:   # pragma: no cover - an alias of two entries
            raise RuntimeError(f"{_name} names two catalogue entries")

#: Suffixes of a derivative's repo name that say how its weights are stored, and the format each names; the longest
#: first ("-GPTQ-Int4" before "-GPTQ"). What the estimate does with each: ``WEIGHT_NOTES`` (estimated, with a note
#: saying what it assumes) and ``REFUSED_FORMATS`` (refused: a number for it would be a guess).
WEIGHT_SUFFIXES: tuple[tuple[str, str], ...] = (
    ("-unsloth-bnb-4bit", "bnb_4bit"), ("-bnb-4bit", "bnb_4bit"),
    ("-gptq-int4", "gptq"), ("-gptq-int8", "gptq"), ("-gptq", "gptq"),
    ("-awq", "awq"), ("-gguf", "gguf"),
    ("-fp8-dynamic", "fp8"), ("-fp8", "fp8"),
    ("-dequantized", "dequantized"),
)
#: The note (vocab.NOTES) of a format estimated as the base's architecture: an FP8 checkpoint (Qwen's -FP8: fine-grained
#: e4m3 blocks with scales) and a dequantized copy are estimated loaded and trained at the request's precision with the
#: base's shapes; bitsandbytes 4-bit uploads hold the qlora method's storage.
WEIGHT_NOTES: dict[str, str] = {"fp8": "weights_fp8", "dequantized": "weights_dequantized",
                                "bnb_4bit": "weights_bnb_4bit"}
#: The refusal reason (vocab.UNSUPPORTED_REASONS) of a format the estimator does not model: AWQ and GPTQ pack 4- or
#: 8-bit integers with group scales that PEFT trains adapters over through their own kernels (not bitsandbytes' NF4,
#: which is what the qlora method counts); GGUF is llama.cpp's file format, not a checkpoint the frameworks train.
REFUSED_FORMATS: dict[str, str] = {"awq": "prequantized_weights", "gptq": "prequantized_weights",
                                   "gguf": "gguf_weights"}
#: Words of a Hub id that name a checkpoint quantized ahead of time by a method other than bitsandbytes (the import
#: side notes a base named so; an id typed with one of REFUSED_FORMATS' suffixes is refused above).
PREQUANTIZED_FORMATS = frozenset({"awq", "gptq", "gguf", "exl2", "hqq", "aqlm", "eetq", "marlin"})


@dataclass(frozen=True)
class Resolution:
    """What a model id names: the catalogue entry (``model``; empty when the id is ambiguous, then ``candidates``
    lists the repos it could be), the id as typed (``typed``), the weight format its suffix states (``""`` when none)
    and how it was found: ``catalogue`` (an entry's id, repo or alias), ``suffix`` (an entry's repo plus a format
    suffix) or ``name`` (a repo name without its owner, matching one entry's repos)."""

    model: str
    typed: str
    weight_format: str = ""
    via: str = "catalogue"
    candidates: tuple[str, ...] = ()


def _split_format(key: str) -> tuple[str, str]:
    """The id without its weight-format suffix, and the format (``("", key)`` when it has none)."""
    for suffix, fmt in WEIGHT_SUFFIXES:
        if key.endswith(suffix) and len(key.rsplit("/", 1)[-1]) > len(suffix):
            return fmt, key[: -len(suffix)]
    return "", key


#: Each repo name of the catalogue without its owner (lower case) -> the repos (as written) that carry it.
_BY_NAME: dict[str, tuple[str, ...]] = {}
for _m in MODELS.values():
    for _repo in (_m.hf_id,) + _m.aliases:
        if "/" in _repo:
            _name = _repo.split("/", 1)[1].lower()
            _BY_NAME[_name] = tuple(dict.fromkeys(_BY_NAME.get(_name, ()) + (_repo,)))


def resolve(text: str) -> Resolution | None:
    """The catalogue entry a model id names (``None``: none does). In order: the id, repo or alias itself; the same
    less a weight-format suffix (``Qwen/Qwen3-14B-FP8``); a name without its owner (``Llama-3.3-70B-Instruct``) when
    the repos carrying that name are all one entry's, else ambiguous (``candidates``). Only ids of the Hub's form
    (``is_hub_id``) are read past the exact lookup."""
    typed = hub_path(text)
    key = typed.lower()
    if key in MODEL_IDS:
        return Resolution(MODEL_IDS[key], typed, _split_format(key)[0])
    if not is_hub_id(typed):
        return None
    fmt, base = _split_format(key)
    if fmt and base in MODEL_IDS:
        return Resolution(MODEL_IDS[base], typed, fmt, "suffix")
    if "/" in key:
        return None
    repos = _BY_NAME.get(key) or (_BY_NAME.get(base) if fmt else None)
    if not repos:
        return None
    entries = {MODEL_IDS[r.lower()] for r in repos}
    if len(entries) == 1:
        return Resolution(entries.pop(), typed, fmt, "name")
    return Resolution("", typed, fmt, "name", candidates=repos)


#: Repos readers ask for that the estimator refuses, with the reason (configs.UNSUPPORTED_REASONS): Gemma 3n (per-layer
#: embeddings, AltUp, KV sharing; its model_type gemma3n is refused alike). (Qwen3-Next's Gated DeltaNet layers are
#: read now: its repos are not in the catalogue, so the page offers to read their config from Hugging Face.)
REFUSED_MODELS: dict[str, str] = {
    **{repo_key(r): "per_layer_embeddings" for r in ("google/gemma-3n-E4B-it", "google/gemma-3n-E2B-it",
                                                     "google/gemma-3n-E4B", "google/gemma-3n-E2B",
                                                     "unsloth/gemma-3n-E4B-it", "unsloth/gemma-3n-E2B-it")},
}

#: Catalogue models whose Hugging Face repository is gated (its files download only for an account that accepted the
#: licence or access form on the repository's page, logged in with ``hf auth login``), with where that is declared:
#: the repository's README.md front matter (``extra_gated_prompt`` / ``extra_gated_fields``, which the Hub turns into
#: the access form). The exports say the login for exactly these (calculator/export/_common.py ``header``).
_LLAMA_GATE = "README.md front matter extra_gated_prompt (the Llama Community License; access form on the Hub page)"
_GEMMA_GATE = "README.md front matter extra_gated_heading 'Access Gemma on Hugging Face' (the Gemma Terms of Use)"
_MISTRAL_GATE = ("README.md front matter extra_gated_description (Hub page: 'You need to agree to share your contact "
                 "information to access this model')")
GATED: dict[str, str] = {
    **{m: _LLAMA_GATE for m in ("llama-2-7b", "llama-2-13b", "llama-2-70b", "llama-3-8b", "llama-3-70b",
                                 "llama-3.1-8b", "llama-3.1-70b", "llama-3.1-405b", "llama-3.2-1b", "llama-3.2-3b",
                                 "llama-3.3-70b", "llama-4-scout-17b-16e", "llama-4-maverick-17b-128e")},
    **{m: _GEMMA_GATE for m in ("gemma-2b", "gemma-7b", "gemma-2-2b", "gemma-2-9b", "gemma-2-27b", "gemma-3-1b",
                                 "gemma-3-4b", "gemma-3-12b", "gemma-3-27b")},
    **{m: _MISTRAL_GATE for m in ("mistral-7b-v0.1", "mistral-7b-v0.2", "mistral-7b-v0.3", "mixtral-8x7b",
                                   "mistral-small-3-24b", "mistral-small-3.1-24b", "mistral-nemo-12b")},
    "ministral-8b": "README.md front matter extra_gated_prompt (the Mistral AI Research License)",
}
if set(GATED) - set(MODELS):  # pragma: no cover - guards against a renamed id while editing
    raise RuntimeError(f"GATED names models not in the catalogue: {sorted(set(GATED) - set(MODELS))}")

# ---------------------------------------------------------------------------------------------------------------
# GPUs, in picker order (consumer, workstation, datacenter; by marketed capacity, then generation, within a class)
# ---------------------------------------------------------------------------------------------------------------
_MIB = 1024 * 1024

# --- speed and price sources (calculator/throughput.py). Dense = without 2:4 sparsity; BF16 with FP32 accumulate
# (what PyTorch runs). Peaks of the cards in benchmarks/data/throughput/gpu_peaks.csv are that file's figures with
# its datasheet; the others are from the vendor's datasheet as quoted at a pinned commit. Link figures are per
# direction (datasheets give NVLink and PCIe bidirectional: 600 GB/s NVLink 3 -> 300; PCIe 4.0 x16 64 GB/s -> 32).
_PCIE4 = "PCIe 4.0 x16 (32 GB/s per direction)"
_AMPERE_GA102 = ("https://www.nvidia.com/content/PDF/nvidia-ampere-ga-102-gpu-architecture-whitepaper-v2.pdf "
                 "(RTX 3090: BF16 with FP32 accumulate 71 dense; 936 GB/s)")
_ADA = ("https://images.nvidia.com/aem-dam/Solutions/geforce/ada/nvidia-ada-gpu-architecture.pdf (RTX 4090: BF16 with "
        "FP32 accumulate 165.2 dense; 1,008 GB/s)")
_BLACKWELL_RTX = ("https://images.nvidia.com/aem-dam/Solutions/geforce/blackwell/nvidia-rtx-blackwell-gpu-"
                  "architecture.pdf (RTX 5090: 209.5 dense BF16; 1,792 GB/s), as quoted by pytorch/ao "
                  "torchao/testing/training/roofline_utils.py @0598012")
_V100 = ("https://images.nvidia.com/content/technologies/volta/pdf/volta-v100-datasheet-update-us-1165301-r5.pdf "
         "(SXM2: 125 TFLOPS FP16 tensor, no BF16; 900 GB/s; NVLink 300 GB/s; PCIe 3.0 x16), as quoted by "
         "mosaicml/composer callbacks/speed_monitor.py GPU_AVAILABLE_FLOPS 'v100-sxm'")
_A10 = ("https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a10/pdf/a10-datasheet.pdf (BF16 125 dense; "
        "600 GB/s)")
_A100 = ("https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/nvidia-a100-datasheet-us-nvidia-"
         "1758950-r4-web.pdf (BF16 312 dense; NVLink 600 GB/s; PCIe 4.0); network: DGX A100 datasheet, 8 x 200 Gb/s "
         "HDR InfiniBand for 8 GPUs")
_H100 = ("https://resources.nvidia.com/en-us-tensor-core/nvidia-tensor-core-gpu-datasheet (SXM5: BF16 1,979 sparse -> "
         "989.4 dense; 3.35 TB/s; NVLink 900 GB/s; PCIe 5.0 128 GB/s); network: DGX H100, 8 x 400 Gb/s ConnectX-7")
_H200 = ("https://www.nvidia.com/en-us/data-center/h200/ (the H100's GH100 die: 989 dense BF16; 4.8 TB/s; NVLink "
         "900 GB/s; PCIe 5.0), links as in mlcommons/inference_results_v4.1 NVIDIA H200-SXM-141GBx8 system JSON")
_B200 = ("https://resources.nvidia.com/en-us-blackwell-architecture (2.25 PFLOPS dense BF16; 8.0 TB/s), as quoted by "
         "pytorch/ao roofline_utils.py @0598012 (its PR #4002 measures 7.68 TB/s); NVLink 5 1.8 TB/s; PCIe 5.0")
_MI300X = ("https://www.amd.com/content/dam/amd/en/documents/instinct-tech-docs/data-sheets/amd-instinct-mi300x-data-"
           "sheet.pdf (1,307 TFLOPS dense BF16; 5.3 TB/s; Infinity Fabric 896 GB/s aggregate; PCIe 5.0 x16), as "
           "quoted by pytorch/ao roofline_utils.py @0598012")
# Reference on-demand prices of one GPU-hour, USD, from stored copies of the providers' public price pages (cloud
# list prices change: the page says so and takes the reader's own). A card with no stored price has none.
_RUNPOD_0925 = ("https://www.runpod.io/pricing (Secure Cloud), as read on 2026-09-25 in tgarg01/silybench-data "
                "derived/csv/gpu_prices.csv @045df3b")
_LAMBDA_0920 = ("https://lambda.ai/instances (per GPU), as transcribed on 2026-09-20 in api-evangelist/lambda-labs "
                "plans/lambda-labs-plans-pricing.yml @1929382")
_AWS_0817 = "https://aws.amazon.com/ec2/pricing/on-demand/ (Linux, us-east-1, AWS Price List API captured 2026-08-17)"
_INDEX_1010 = ("https://www.runpod.io/pricing and https://lambda.ai/pricing, on-demand, as collected 2026-10-10 in "
               "ewyluda/gpu-price-index data/observations/2026/2026-10-10.csv @ab49c80")

_A6000 = ("https://www.nvidia.com/content/dam/en-zz/Solutions/design-visualization/quadro-product-literature/"
          "proviz-print-nvidia-rtx-a6000-datasheet-us-nvidia-1454980-r9-web%20(1).pdf (309.7 TFLOPS sparse -> 154.8 "
          "dense; 768 GB/s)")
_RTX6000ADA = ("https://www.nvidia.com/content/dam/en-zz/Solutions/design-visualization/rtx-6000/proviz-print-"
               "rtx6000-datasheet-web-2504660.pdf (Ada whitepaper RTX 6000 column: 364.2 dense; 960 GB/s)")
_L4 = "https://www.nvidia.com/en-us/data-center/l4/ (242 TFLOPS sparse -> 121 dense; 300 GB/s)"
_L40S = "https://resources.nvidia.com/en-us-l40s/l40s-datasheet-28413 (362.05 dense BF16; 864 GB/s)"

# Issue 20's cards: every figure with its source. Memory: nvidia-smi memory.total at the default ECC setting (rocm-smi
# "VRAM Total Memory (B)" for AMD) as read in published outputs of those cards; peaks dense BF16 with FP32 accumulate
# (FP16 where the card has no BF16); "derived" peaks are SM count x boost clock x the FLOP per clock per SM of the
# card's generation that the catalogue's datasheet figures imply (GeForce: 512; professional cards: 1024).
_T4 = ("https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/tesla-t4/t4-tensor-core-datasheet-951643.pdf "
       "(FP16 tensor 65 TFLOPS, no BF16; 320 GB/s; PCIe 3.0 x16), FP16 as quoted by mosaicml/composer "
       "callbacks/speed_monitor.py GPU_AVAILABLE_FLOPS 't4' @6405188")
_P100 = ("https://images.nvidia.com/content/tesla/pdf/nvidia-tesla-p100-PCIe-datasheet.pdf (16GB PCIe: 18.7 TFLOPS "
         "half precision, no tensor cores, no BF16; 732 GB/s; PCIe 3.0 x16)")
_GEFORCE = ("derived: SM count x boost clock x 512 FLOP/clock/SM, the GeForce rate of the catalogue's RTX 3090/4090/5090 "
            "figures (their whitepapers: https://images.nvidia.com/aem-dam/Solutions/geforce/ada/nvidia-ada-gpu-"
            "architecture.pdf and the Ampere and Blackwell ones above); bandwidth = bus width x data rate from "
            "NVIDIA's product pages")
_A40 = ("https://images.nvidia.com/content/Solutions/data-center/a40/nvidia-a40-datasheet.pdf (BF16 149.7 dense; "
        "696 GB/s; NVLink bridge 112.5 GB/s for pairs; PCIe 4.0 x16)")
_L40 = "https://www.nvidia.com/en-us/data-center/l40/ (BF16 181.05 dense; 864 GB/s; PCIe 4.0 x16, no NVLink)"
_H100_PCIE = ("https://resources.nvidia.com/en-us-tensor-core/nvidia-tensor-core-gpu-datasheet (PCIe: BF16 1,513 sparse "
              "-> 756.5 dense, as composer's GPU_AVAILABLE_FLOPS 'h100-pcie'; 2 TB/s; PCIe 5.0; an NVLink bridge "
              "pairs two cards)")
_H100_NVL = ("https://resources.nvidia.com/en-us-tensor-core/nvidia-tensor-core-gpu-datasheet (H100 NVL: BF16 1,671 "
             "sparse -> 835.5 dense; 3.9 TB/s; PCIe 5.0; an NVLink bridge pairs two cards)")
_PRO6000 = ("https://www.nvidia.com/en-us/products/workstations/professional-desktop-gpus/rtx-pro-6000/ (1,792 GB/s; "
            "PCIe 5.0 x16, no NVLink); BF16 derived: 188 SM x 2.617 GHz x 1024, the professional cards' rate of the "
            "catalogue's RTX 6000 Ada (142 x 2.505 x 1024 = 364.2)")
_GH200 = ("https://www.nvidia.com/en-us/data-center/grace-hopper-superchip/ (96 GB HBM3 at 4 TB/s; BF16 1,979 sparse "
          "-> 989.4 dense, the H100 SXM's GH100; NVLink-C2C 900 GB/s both ways to the Grace CPU's 480 GB of LPDDR5X at "
          "up to 512 GB/s)")
_B300 = ("https://www.nvidia.com/en-us/data-center/dgx-b300/ (Blackwell Ultra), as quoted by pytorch/ao "
         "torchao/testing/training/roofline_utils.py @36027d8 'NVIDIA B300 SXM6 AC' (BF16 2.25 PFLOPS "
         "dense; 8 TB/s); NVIDIA ai-dynamo aiconfigurator systems/b300_sxm.yaml (NVLink 5 900 GB/s per direction, "
         "ConnectX-8 800 Gb/s per GPU); host link taken as PCIe 5.0 x16")
_MI325X = ("https://www.amd.com/en/products/accelerators/instinct/mi300/mi325x.html (256 GB HBM3E at 6 TB/s; FP16/BF16 "
           "1,307.4 dense, the MI300X's CDNA3; Infinity Fabric 896 GB/s aggregate; PCIe 5.0 x16), as quoted by "
           "docs.vultr.com inference-cookbook hardware requirements")
_MI355X = ("https://www.amd.com/en/products/accelerators/instinct/mi350/mi355x.html (288 GB HBM3E at 8 TB/s; FP16/BF16 "
           "2.5 PFLOPS dense; Infinity Fabric 7 links of 153.6 GB/s; PCIe 5.0 x16, as mlcommons inference_results_v6.0 "
           "closed/AMD/results/87xMI355X_22xEPYC_9575F lists)")
_RUNPOD_0101 = ("https://www.runpod.io/pricing (on-demand), as listed on 2026-01-01 in Malaeu/nanoGPT-RH "
                "docs/runpod_specs.md @b72ba56")
_LAMBDA_0925 = ("https://lambda.ai/instances (1x GH200), as read on 2026-09-25 in tgarg01/silybench-data "
                "derived/csv/gpu_prices.csv @045df3b")

# Where the card counts come from (GpuSpec.counts: the instance and server sizes a card is sold in)
_COUNTS_RUNPOD = ("RunPod pods of 1 to 'Max Pods' cards, as listed on 2026-01-01 in Malaeu/nanoGPT-RH "
                  "docs/runpod_specs.md @b72ba56")
_COUNTS_INDEX = ("instance sizes in ewyluda/gpu-price-index data/observations/2026/2026-10-10.csv @ab49c80 (collected "
                 "2026-10-10 from the providers' pages)")
_CONSUMER_COUNTS = "a desktop holds one or two such cards; no cloud instance of them is listed"

_GPU_LIST: tuple[GpuSpec, ...] = (
    # 12-16 GB GeForce cards: nvidia-smi memory.total as published outputs of each show it (no ECC)
    GpuSpec(id="rtx-3060-12gb", name="NVIDIA GeForce RTX 3060 12GB", memory_bytes=12288 * _MIB,
            klass="consumer", nvlink=False,
            arch="ampere", compute_capability="8.6", gpus_per_node=2, counts=(1, 2),
            counts_source=_CONSUMER_COUNTS,
            source="https://www.nvidia.com/en-us/geforce/graphics-cards/30-series/rtx-3060-3060ti/",
            peak_tflops=25.5, memory_gb_s=360.0, host_link_gb_s=32.0,
            speed_source=_GEFORCE + "; " + _PCIE4 + " (28 SM x 1.777 GHz; 192-bit x 15 Gbps)"),
    GpuSpec(id="rtx-4060-ti-16gb", name="NVIDIA GeForce RTX 4060 Ti 16GB", memory_bytes=16380 * _MIB,
            klass="consumer", nvlink=False,
            arch="ada", compute_capability="8.9", gpus_per_node=2, counts=(1, 2),
            counts_source=_CONSUMER_COUNTS,
            source="https://www.nvidia.com/en-us/geforce/graphics-cards/40-series/rtx-4060-4060ti/",
            peak_tflops=44.1, memory_gb_s=288.0, host_link_gb_s=16.0,
            speed_source=_GEFORCE + "; " + "PCIe 4.0 x8 (16 GB/s per direction)" + " (34 SM; 128-bit x 18 Gbps; the card has 8 PCIe lanes)"),
    GpuSpec(id="rtx-4070-ti-super", name="NVIDIA GeForce RTX 4070 Ti SUPER 16GB", memory_bytes=16376 * _MIB,
            klass="consumer", nvlink=False,
            arch="ada", compute_capability="8.9", gpus_per_node=2, counts=(1, 2),
            counts_source=_CONSUMER_COUNTS,
            source="https://www.nvidia.com/en-us/geforce/graphics-cards/40-series/rtx-4070-family/",
            peak_tflops=88.2, memory_gb_s=672.0, host_link_gb_s=32.0,
            speed_source=_GEFORCE + "; " + _PCIE4 + " (66 SM; 256-bit x 21 Gbps)"),
    GpuSpec(id="rtx-4080", name="NVIDIA GeForce RTX 4080 16GB", memory_bytes=16376 * _MIB,
            klass="consumer", nvlink=False,
            arch="ada", compute_capability="8.9", gpus_per_node=2, counts=(1, 2),
            counts_source=_CONSUMER_COUNTS,
            source="https://www.nvidia.com/en-us/geforce/graphics-cards/40-series/rtx-4080-family/",
            peak_tflops=97.5, memory_gb_s=716.8, host_link_gb_s=32.0,
            speed_source=_GEFORCE + "; " + _PCIE4 + " (76 SM; 256-bit x 22.4 Gbps, the Ada whitepaper)"),
    GpuSpec(id="rtx-4080-super", name="NVIDIA GeForce RTX 4080 SUPER 16GB", memory_bytes=16376 * _MIB,
            klass="consumer", nvlink=False,
            arch="ada", compute_capability="8.9", gpus_per_node=2, counts=(1, 2),
            counts_source=_CONSUMER_COUNTS,
            source="https://www.nvidia.com/en-us/geforce/graphics-cards/40-series/rtx-4080-family/",
            peak_tflops=104.4, memory_gb_s=736.0, host_link_gb_s=32.0,
            speed_source=_GEFORCE + "; " + _PCIE4 + " (80 SM; 256-bit x 23 Gbps)"),
    GpuSpec(id="rtx-5070-ti", name="NVIDIA GeForce RTX 5070 Ti 16GB", memory_bytes=16303 * _MIB,
            klass="consumer", nvlink=False,
            arch="blackwell", compute_capability="12.0", gpus_per_node=2, counts=(1, 2),
            counts_source=_CONSUMER_COUNTS,
            source="https://www.nvidia.com/en-us/geforce/graphics-cards/50-series/rtx-5070-family/",
            peak_tflops=87.9, memory_gb_s=896.0, host_link_gb_s=64.0,
            speed_source=_GEFORCE + "; " + "PCIe 5.0 x16 (64 GB/s per direction)" + " (70 SM x 2.452 GHz; 256-bit x 28 Gbps GDDR7)"),
    GpuSpec(id="rtx-5080", name="NVIDIA GeForce RTX 5080 16GB", memory_bytes=16303 * _MIB,
            klass="consumer", nvlink=False,
            arch="blackwell", compute_capability="12.0", gpus_per_node=2, counts=(1, 2),
            counts_source=_CONSUMER_COUNTS,
            source="https://www.nvidia.com/en-us/geforce/graphics-cards/50-series/rtx-5080/",
            peak_tflops=112.6, memory_gb_s=960.0, host_link_gb_s=64.0,
            speed_source=_GEFORCE + "; " + "PCIe 5.0 x16 (64 GB/s per direction)" + " (84 SM x 2.617 GHz; 256-bit x 30 Gbps GDDR7)"),
    # nvidia-smi memory.total, MiB. GeForce cards have no ECC, so this is nearly the full 24/32 GiB.
    GpuSpec(id="rtx-3090", name="NVIDIA GeForce RTX 3090 24GB", memory_bytes=24576 * _MIB,
            klass="consumer", nvlink=True,  # NVLink bridge (2-way)
            arch="ampere", compute_capability="8.6", gpus_per_node=4, counts=(1, 2, 4),
            counts_source=_COUNTS_RUNPOD + " (RTX 3090: 1-8 per pod); 2 with the NVLink bridge, 4 in PCIe workstations",
            source="https://www.nvidia.com/en-us/geforce/graphics-cards/30-series/rtx-3090-3090ti/",
            peak_tflops=71.0, memory_gb_s=936.0, host_link_gb_s=32.0,
            speed_source=_AMPERE_GA102 + "; " + _PCIE4 + " (the 2-way NVLink bridge links pairs only)"),
    GpuSpec(id="rtx-4090", name="NVIDIA GeForce RTX 4090 24GB", memory_bytes=24564 * _MIB,
            klass="consumer", nvlink=False,
            arch="ada", compute_capability="8.9", gpus_per_node=8, counts=(1, 2, 4, 8),
            counts_source=_COUNTS_RUNPOD + " (RTX 4090: up to 8 per pod; no NVLink, no peer-to-peer over PCIe)",
            source="https://www.nvidia.com/en-us/geforce/graphics-cards/40-series/rtx-4090/",
            peak_tflops=165.2, memory_gb_s=1008.0, host_link_gb_s=32.0, speed_source=_ADA + "; " + _PCIE4,
            price_per_hour=0.74, price_date="2026-09-25", price_source=_RUNPOD_0925),
    GpuSpec(id="rtx-5090", name="NVIDIA GeForce RTX 5090 32GB", memory_bytes=32607 * _MIB,
            klass="consumer", nvlink=False,
            arch="blackwell", compute_capability="12.0", gpus_per_node=8, counts=(1, 2, 4, 8),
            counts_source=_COUNTS_RUNPOD + " (RTX 5090: up to 8 per pod; no NVLink)",
            source="https://www.nvidia.com/en-us/geforce/graphics-cards/50-series/rtx-5090/",
            peak_tflops=209.5, memory_gb_s=1792.0, host_link_gb_s=64.0,
            speed_source=_BLACKWELL_RTX + "; PCIe 5.0 x16 (64 GB/s per direction)"),
    # Workstation: nvidia-smi with ECC off (the default on these cards); with ECC on both show 46068 MiB.
    GpuSpec(id="rtx-a6000", name="NVIDIA RTX A6000 48GB", memory_bytes=49140 * _MIB,
            klass="workstation", nvlink=True,  # NVLink bridge (2-way)
            arch="ampere", compute_capability="8.6", gpus_per_node=8, counts=(1, 2, 4, 8),
            counts_source="Lambda 4x A6000 (the price source); " + _COUNTS_RUNPOD,
            source="https://www.nvidia.com/en-us/design-visualization/rtx-a6000/",
            peak_tflops=154.8, memory_gb_s=768.0, host_link_gb_s=32.0,
            speed_source=_A6000 + "; " + _PCIE4 + " (the 2-way NVLink bridge links pairs only)",
            price_per_hour=1.09, price_date="2026-09-20", price_source=_LAMBDA_0920 + " (4x A6000 instance)"),
    GpuSpec(id="rtx-6000-ada", name="NVIDIA RTX 6000 Ada Generation 48GB", memory_bytes=49140 * _MIB,
            klass="workstation", nvlink=False,
            arch="ada", compute_capability="8.9", gpus_per_node=8, counts=(1, 2, 4, 8),
            counts_source=_COUNTS_RUNPOD + " (RTX 6000 Ada: up to 8 per pod)",
            source="https://www.nvidia.com/en-us/design-visualization/rtx-6000/",
            peak_tflops=364.2, memory_gb_s=960.0, host_link_gb_s=32.0, speed_source=_RTX6000ADA + "; " + _PCIE4),
    # The Workstation, Server and Max-Q editions all report 97887 MiB (the Server Edition with ECC on too)
    GpuSpec(id="rtx-pro-6000-blackwell", name="NVIDIA RTX PRO 6000 Blackwell 96GB", memory_bytes=97887 * _MIB,
            klass="workstation", nvlink=False,
            arch="blackwell", compute_capability="12.0", gpus_per_node=8, counts=(1, 2, 4, 8),
            counts_source="AWS G7e instances (Server Edition); " + _COUNTS_RUNPOD + " (up to 8 per pod)",
            source="https://www.nvidia.com/en-us/products/workstations/professional-desktop-gpus/rtx-pro-6000/",
            peak_tflops=503.8, memory_gb_s=1792.0, host_link_gb_s=64.0, speed_source=_PRO6000,
            price_per_hour=1.84, price_date="2026-01-01", price_source=_RUNPOD_0101 + " (Server Edition)"),
    # Datacenter: nvidia-smi memory.total with ECC on (the default), MiB.
    GpuSpec(id="t4", name="NVIDIA Tesla T4 16GB", memory_bytes=15360 * _MIB,
            klass="datacenter", nvlink=False,  # 16384 MiB with ECC off (some Azure images)
            arch="turing", compute_capability="7.5", bf16=False, gpus_per_node=8, counts=(1, 2, 4, 8),
            counts_source=("Colab's free tier (1); Kaggle's 'GPU T4 x2' (2); AWS g4dn.xlarge-16xlarge (1), "
                           "g4dn.12xlarge (4), g4dn.metal (8)"),
            source="https://www.nvidia.com/en-us/data-center/tesla-t4/",
            peak_tflops=65.0, memory_gb_s=320.0, host_link_gb_s=16.0, speed_source=_T4),
    GpuSpec(id="p100", name="NVIDIA Tesla P100 PCIe 16GB", memory_bytes=16280 * _MIB,
            klass="datacenter", nvlink=False,  # the PCIe card (only the SXM2 P100 has NVLink); newer drivers 16276
            arch="pascal", compute_capability="6.0", bf16=False, gpus_per_node=1, counts=(1,),
            counts_source="Kaggle's 'GPU P100' (one card)",
            source="https://www.nvidia.com/en-us/data-center/tesla-p100/",
            peak_tflops=18.7, memory_gb_s=732.0, host_link_gb_s=16.0, speed_source=_P100),
    GpuSpec(id="v100-16gb", name="NVIDIA Tesla V100 SXM2 16GB", memory_bytes=16384 * _MIB,
            klass="datacenter", nvlink=True,  # SXM2; older drivers showed 16160 MiB
            arch="volta", compute_capability="7.0", bf16=False, gpus_per_node=8, counts=(1, 4, 8),
            counts_source="AWS p3.2xlarge (1), p3.8xlarge (4), p3.16xlarge (8); Lambda 8x V100",
            source="https://www.nvidia.com/en-us/data-center/v100/",
            peak_tflops=125.0, memory_gb_s=900.0, interconnect_gb_s=150.0, host_link_gb_s=16.0, speed_source=_V100,
            price_per_hour=0.79, price_date="2026-09-20", price_source=_LAMBDA_0920 + " (8x Tesla V100 16GB)"),
    GpuSpec(id="a10", name="NVIDIA A10 24GB", memory_bytes=23028 * _MIB,
            klass="datacenter", nvlink=False,
            arch="ampere", compute_capability="8.6", gpus_per_node=1, counts=(1,),
            counts_source="Lambda 1x A10 (the price source)",
            source="https://www.nvidia.com/en-us/data-center/products/a10-gpu/",
            peak_tflops=125.0, memory_gb_s=600.0, host_link_gb_s=32.0, speed_source=_A10 + "; " + _PCIE4,
            price_per_hour=1.29, price_date="2026-09-20", price_source=_LAMBDA_0920 + " (1x A10)"),
    GpuSpec(id="a10g", name="NVIDIA A10G 24GB (AWS)", memory_bytes=23028 * _MIB,
            klass="datacenter", nvlink=False,
            arch="ampere", compute_capability="8.6", gpus_per_node=8, counts=(1, 4, 8),
            counts_source="AWS g5.xlarge-16xlarge (1), g5.12xlarge/24xlarge (4), g5.48xlarge (8)",
            source="https://aws.amazon.com/ec2/instance-types/g5/",
            peak_tflops=125.0, memory_gb_s=600.0, host_link_gb_s=32.0,
            speed_source=_A10 + " (no A10G datasheet exists; its tensor peak may be below the A10's, so its time is "
                                "a lower bound); " + _PCIE4,
            price_per_hour=1.006, price_date="2026-08-17", price_source=_AWS_0817 + " (g5.xlarge: 1 A10G)"),
    GpuSpec(id="l4", name="NVIDIA L4 24GB", memory_bytes=23034 * _MIB,
            klass="datacenter", nvlink=False,
            arch="ada", compute_capability="8.9", gpus_per_node=8, counts=(1, 2, 4, 8),
            counts_source="AWS g6.xlarge (1), g6.12xlarge (4), g6.48xlarge (8); GCP g2-standard (1, 2, 4, 8)",
            source="https://www.nvidia.com/en-us/data-center/l4/",
            peak_tflops=121.0, memory_gb_s=300.0, host_link_gb_s=32.0, speed_source=_L4 + "; " + _PCIE4,
            price_per_hour=0.8048, price_date="2026-08-17", price_source=_AWS_0817 + " (g6.xlarge: 1 L4)"),
    GpuSpec(id="v100-32gb", name="NVIDIA Tesla V100 SXM2 32GB", memory_bytes=32768 * _MIB,
            klass="datacenter", nvlink=True,  # SXM2; older drivers showed 32480 MiB
            arch="volta", compute_capability="7.0", bf16=False, gpus_per_node=8, counts=(1, 8),
            counts_source="AWS p3dn.24xlarge (8); NVIDIA DGX-1 (8)",
            source="https://www.nvidia.com/en-us/data-center/v100/",
            peak_tflops=125.0, memory_gb_s=900.0, interconnect_gb_s=150.0, host_link_gb_s=16.0, speed_source=_V100),
    GpuSpec(id="a100-40gb", name="NVIDIA A100 40GB (SXM4)", memory_bytes=40960 * _MIB,
            klass="datacenter", nvlink=True,  # the PCIe 40GB card shows 40536 MiB
            arch="ampere", compute_capability="8.0", gpus_per_node=16, counts=(1, 2, 4, 8, 16),
            counts_source=_COUNTS_INDEX + ": GCP a2-highgpu-1g/2g/4g/8g and a2-megagpu-16g (16 over NVSwitch in one node); Lambda 1x-8x",
            source="https://www.nvidia.com/en-us/data-center/a100/",
            peak_tflops=312.0, memory_gb_s=1555.0, interconnect_gb_s=300.0, host_link_gb_s=32.0, network_gb_s=25.0,
            speed_source=_A100 + " (40GB SXM4: 1,555 GB/s)",
            price_per_hour=1.99, price_date="2026-10-10", price_source=_INDEX_1010 + " (Lambda, 1x A100 SXM 40GB)"),
    GpuSpec(id="a40", name="NVIDIA A40 48GB", memory_bytes=46068 * _MIB,
            klass="datacenter", nvlink=True,  # NVLink bridge (2-way); 49140 MiB with ECC off
            arch="ampere", compute_capability="8.6", gpus_per_node=8, counts=(1, 2, 4, 8),
            counts_source=_COUNTS_RUNPOD + " (A40: up to 10 per pod); 4- and 8-card A40 servers",
            source="https://www.nvidia.com/en-us/data-center/a40/",
            peak_tflops=149.7, memory_gb_s=696.0, host_link_gb_s=32.0,
            speed_source=_A40 + " (the 2-way NVLink bridge links pairs only)",
            price_per_hour=0.40, price_date="2026-01-01", price_source=_RUNPOD_0101),
    GpuSpec(id="l40", name="NVIDIA L40 48GB", memory_bytes=46068 * _MIB,
            klass="datacenter", nvlink=False,
            arch="ada", compute_capability="8.9", gpus_per_node=8, counts=(1, 2, 4, 8),
            counts_source=_COUNTS_RUNPOD + " (L40: up to 6 per pod); 8-card L40 servers",
            source="https://www.nvidia.com/en-us/data-center/l40/",
            peak_tflops=181.05, memory_gb_s=864.0, host_link_gb_s=32.0, speed_source=_L40,
            price_per_hour=0.99, price_date="2026-01-01", price_source=_RUNPOD_0101),
    GpuSpec(id="l40s", name="NVIDIA L40S 48GB", memory_bytes=46068 * _MIB,
            klass="datacenter", nvlink=False,
            arch="ada", compute_capability="8.9", gpus_per_node=8, counts=(1, 4, 8),
            counts_source=_COUNTS_INDEX + ": AWS g6e.xlarge (1), g6e.12xlarge (4), g6e.48xlarge (8); Oracle BM.GPU.L40S.4",
            source="https://www.nvidia.com/en-us/data-center/l40s/",
            peak_tflops=362.05, memory_gb_s=864.0, host_link_gb_s=32.0, speed_source=_L40S + "; " + _PCIE4,
            price_per_hour=1.09, price_date="2026-10-10", price_source=_INDEX_1010 + " (RunPod Secure Cloud)"),
    GpuSpec(id="a100-80gb", name="NVIDIA A100 80GB (SXM4)", memory_bytes=81920 * _MIB,
            klass="datacenter", nvlink=True,
            arch="ampere", compute_capability="8.0", gpus_per_node=8, counts=(1, 2, 4, 8),
            counts_source=_COUNTS_INDEX + ": GCP a2-ultragpu-1g/2g/4g/8g; Azure ND96amsr_A100_v4 (8)",
            source="https://www.nvidia.com/en-us/data-center/a100/",
            peak_tflops=312.0, memory_gb_s=2039.0, interconnect_gb_s=300.0, host_link_gb_s=32.0, network_gb_s=25.0,
            speed_source=_A100 + " (80GB SXM4: 2,039 GB/s)",
            price_per_hour=1.79, price_date="2026-10-10",
            price_source=_INDEX_1010 + " (RunPod Secure Cloud, A100-SXM4-80GB)"),
    GpuSpec(id="h100-pcie", name="NVIDIA H100 PCIe 80GB", memory_bytes=81559 * _MIB,
            klass="datacenter", nvlink=True,  # an NVLink bridge pairs two cards; many servers have none
            arch="hopper", compute_capability="9.0", gpus_per_node=8, counts=(1, 2, 4, 8),
            counts_source=_COUNTS_INDEX + ": Lambda gpu_1x_h100_pcie, Hyperstack H100 PCIe; RunPod up to 7 per pod",
            source="https://www.nvidia.com/en-us/data-center/h100/",
            peak_tflops=756.5, memory_gb_s=2000.0, host_link_gb_s=64.0, speed_source=_H100_PCIE,
            price_per_hour=2.89, price_date="2026-10-10", price_source=_INDEX_1010 + " (RunPod Secure Cloud, H100 PCIe)"),
    GpuSpec(id="h100-80gb", name="NVIDIA H100 80GB (SXM)", memory_bytes=81559 * _MIB,
            klass="datacenter", nvlink=True,
            arch="hopper", compute_capability="9.0", gpus_per_node=8, counts=(1, 2, 4, 8),
            counts_source=_COUNTS_INDEX + ": Lambda gpu_1x/2x/4x/8x_h100_sxm; AWS p5.4xlarge (1), p5.48xlarge (8)",
            source="https://www.nvidia.com/en-us/data-center/h100/",
            peak_tflops=989.4, memory_gb_s=3350.0, interconnect_gb_s=450.0, host_link_gb_s=64.0, network_gb_s=50.0,
            speed_source=_H100,
            price_per_hour=3.99, price_date="2026-10-10",
            price_source=_INDEX_1010 + " (RunPod Secure Cloud, H100 80GB HBM3)"),
    GpuSpec(id="h100-nvl", name="NVIDIA H100 NVL 94GB", memory_bytes=95830 * _MIB,
            klass="datacenter", nvlink=True,  # an NVLink bridge pairs two cards
            arch="hopper", compute_capability="9.0", gpus_per_node=8, counts=(1, 2, 4, 8),
            counts_source=_COUNTS_INDEX + ": Azure NC40ads_H100_v5 (1), NC80adis_H100_v5 (2); RunPod up to 7 per pod",
            source="https://www.nvidia.com/en-us/data-center/h100/",
            peak_tflops=835.5, memory_gb_s=3900.0, host_link_gb_s=64.0, speed_source=_H100_NVL,
            price_per_hour=3.19, price_date="2026-10-10", price_source=_INDEX_1010 + " (RunPod Secure Cloud, H100 NVL)"),
    # The Grace Hopper superchip: its GPU sees 96 GB of HBM3; offloaded states move over NVLink-C2C to the Grace
    # CPU's 480 GB of LPDDR5X, about 7 times a PCIe 5.0 x16 link (the 144 GB HBM3e model is another card)
    GpuSpec(id="gh200", name="NVIDIA GH200 Grace Hopper 96GB (480GB LPDDR5X)", memory_bytes=97871 * _MIB,
            klass="datacenter", nvlink=False,  # one superchip per node here (NVL2 / NVL32 systems link more)
            arch="hopper", compute_capability="9.0", gpus_per_node=1, counts=(1,),
            counts_source=("Lambda and CoreWeave 1x GH200 instances (4x GH200 nodes exist, but no source here gives "
                           "the link between their superchips, so none is offered)"),
            source="https://www.nvidia.com/en-us/data-center/grace-hopper-superchip/",
            peak_tflops=989.4, memory_gb_s=4000.0, host_link_gb_s=450.0, host_link="nvlink-c2c",
            host_memory_gb_s=512.0, speed_source=_GH200,
            price_per_hour=2.29, price_date="2026-09-25", price_source=_LAMBDA_0925),
    GpuSpec(id="h200", name="NVIDIA H200 141GB (SXM)", memory_bytes=143771 * _MIB,
            klass="datacenter", nvlink=True,
            arch="hopper", compute_capability="9.0", gpus_per_node=8, counts=(1, 8),
            counts_source=_COUNTS_INDEX + ": RunPod (1); AWS p5en.48xlarge, Azure ND96isr_H200_v5, GCP a3-ultragpu-8g (8)",
            source="https://www.nvidia.com/en-us/data-center/h200/",
            peak_tflops=989.4, memory_gb_s=4800.0, interconnect_gb_s=450.0, host_link_gb_s=64.0, network_gb_s=50.0,
            speed_source=_H200,
            price_per_hour=5.29, price_date="2026-10-10", price_source=_INDEX_1010 + " (RunPod Secure Cloud)"),
    GpuSpec(id="b200", name="NVIDIA B200 180GB (SXM)", memory_bytes=183359 * _MIB,
            klass="datacenter", nvlink=True,
            arch="blackwell", compute_capability="10.0", gpus_per_node=8, counts=(1, 2, 4, 8),
            counts_source=_COUNTS_INDEX + ": Lambda gpu_1x/2x/4x/8x_b200_sxm6; AWS p6-b200.48xlarge (8)",
            source="https://www.nvidia.com/en-us/data-center/hgx/",
            peak_tflops=2250.0, memory_gb_s=8000.0, interconnect_gb_s=900.0, host_link_gb_s=64.0, network_gb_s=50.0,
            speed_source=_B200,
            price_per_hour=7.99, price_date="2026-10-10", price_source=_INDEX_1010 + " (RunPod Secure Cloud)"),
    GpuSpec(id="b300", name="NVIDIA B300 288GB (SXM)", memory_bytes=275040 * _MIB,
            klass="datacenter", nvlink=True,
            arch="blackwell", compute_capability="10.3", gpus_per_node=8, counts=(1, 8),
            counts_source=_COUNTS_INDEX + ": RunPod (1); AWS p6-b300.48xlarge, Oracle BM.GPU.B300.8, CoreWeave (8)",
            source="https://www.nvidia.com/en-us/data-center/hgx/",
            peak_tflops=2250.0, memory_gb_s=8000.0, interconnect_gb_s=900.0, host_link_gb_s=64.0, network_gb_s=100.0,
            speed_source=_B300,
            price_per_hour=8.99, price_date="2026-10-10", price_source=_INDEX_1010 + " (RunPod Secure Cloud, B300)"),
    # rocm-smi "VRAM Total Memory (B)" / torch totalGlobalMem: 205,822,885,888 B (marketed "192 GB").
    GpuSpec(id="mi300x", name="AMD Instinct MI300X 192GB", memory_bytes=205_822_885_888,
            klass="datacenter", nvlink=True,  # Infinity Fabric links between the 8 OAM modules
            arch="cdna3", compute_capability="gfx942", gpus_per_node=8, counts=(1, 8),
            counts_source=_COUNTS_INDEX + ": RunPod, Crusoe (1); Azure ND96isr_MI300X_v5, Oracle BM.GPU.MI300X.8 (8)",
            source="https://www.amd.com/en/products/accelerators/instinct/mi300/mi300x.html",
            peak_tflops=1307.4, memory_gb_s=5300.0, interconnect_gb_s=448.0, host_link_gb_s=64.0,
            speed_source=_MI300X,
            price_per_hour=2.39, price_date="2026-10-10",
            price_source=_INDEX_1010 + " (RunPod Secure Cloud, MI300X OAM)"),
    # MI325X: no published rocm-smi output was found; 256 GiB less the 320 MiB that rocm-smi withholds on the MI300X
    # (192 GiB - 320 MiB) and the MI355X (288 GiB - 320 MiB)
    GpuSpec(id="mi325x", name="AMD Instinct MI325X 256GB", memory_bytes=256 * 1024 * _MIB - 320 * _MIB,
            klass="datacenter", nvlink=True,  # Infinity Fabric between the 8 OAM modules
            arch="cdna3", compute_capability="gfx942", gpus_per_node=8, counts=(1, 8),
            counts_source="8-GPU MI325X platforms (AMD Instinct MI325X platform); DigitalOcean 1x MI325X droplets",
            source="https://www.amd.com/en/products/accelerators/instinct/mi300/mi325x.html",
            peak_tflops=1307.4, memory_gb_s=6000.0, interconnect_gb_s=448.0, host_link_gb_s=64.0,
            speed_source=_MI325X),
    GpuSpec(id="mi355x", name="AMD Instinct MI355X 288GB", memory_bytes=308_902_100_992,
            klass="datacenter", nvlink=True,  # Infinity Fabric between the 8 OAM modules
            arch="cdna4", compute_capability="gfx950", gpus_per_node=8, counts=(1, 8),
            counts_source=("8 per node (Dell PowerEdge XE9785; the MLPerf Inference v6.0 AMD systems); single-card "
                           "MI355X hosts"),
            source="https://www.amd.com/en/products/accelerators/instinct/mi350/mi355x.html",
            peak_tflops=2516.6, memory_gb_s=8000.0, interconnect_gb_s=537.6, host_link_gb_s=64.0,
            speed_source=_MI355X),
)

GPUS: dict[str, GpuSpec] = {g.id: g for g in _GPU_LIST}
if len(GPUS) != len(_GPU_LIST):  # pragma: no cover
    raise RuntimeError("duplicate GPU id in the catalogue")
