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

from .models import GpuSpec, ModelArch

__all__ = ["MODELS", "GPUS"]

_HF = "https://huggingface.co/{}/blob/main/config.json"


def _hf(repo: str) -> str:
    return _HF.format(repo)


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
        # OlmoeSparseMoeBlock: 64 experts of 1024 (intermediate_size); q_norm/k_norm over all q and k features
        id="olmoe-1b-7b", name="OLMoE-1B-7B (0924)", family="OLMoE", model_type="olmoe",
        hidden_size=2048, num_hidden_layers=16, num_attention_heads=16, num_key_value_heads=16,
        intermediate_size=1024, vocab_size=50304, qk_norm="full",
        num_local_experts=64, num_experts_per_tok=8,
        published_params=6_919_161_856, source=_hf("allenai/OLMoE-1B-7B-0924"),
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
    # --- Gemma 2: GeGLU MLP, tied embeddings. Approximate: each layer has 4 RMSNorms (pre/post attention and
    # pre/post MLP), not 2 -- an extra 2*hidden_size weights per layer (< 0.01 % of the total); no field for it.
    ModelArch(
        id="gemma-2-2b", name="Gemma 2 2B", family="Gemma 2",
        hidden_size=2304, num_hidden_layers=26, num_attention_heads=8, num_key_value_heads=4,
        intermediate_size=9216, vocab_size=256000, tie_word_embeddings=True, head_dim=256,
        published_params=2_614_341_888, source=_hf("google/gemma-2-2b"),
    ),
    ModelArch(
        id="gemma-2-9b", name="Gemma 2 9B", family="Gemma 2",
        hidden_size=3584, num_hidden_layers=42, num_attention_heads=16, num_key_value_heads=8,
        intermediate_size=14336, vocab_size=256000, tie_word_embeddings=True, head_dim=256,
        published_params=9_241_705_984, source=_hf("google/gemma-2-9b"),
    ),
    ModelArch(
        id="gemma-2-27b", name="Gemma 2 27B", family="Gemma 2",
        hidden_size=4608, num_hidden_layers=46, num_attention_heads=32, num_key_value_heads=16,
        intermediate_size=36864, vocab_size=256000, tie_word_embeddings=True, head_dim=128,
        published_params=27_227_128_320, source=_hf("google/gemma-2-27b"),
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

MODELS: dict[str, ModelArch] = {m.id: m for m in _MODEL_LIST}
if len(MODELS) != len(_MODEL_LIST):  # pragma: no cover - guards against a duplicated id while editing
    raise RuntimeError("duplicate model id in the catalogue")

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

_GPU_LIST: tuple[GpuSpec, ...] = (
    # nvidia-smi memory.total, MiB. GeForce cards have no ECC, so this is nearly the full 24/32 GiB.
    GpuSpec(id="rtx-3090", name="NVIDIA GeForce RTX 3090", memory_bytes=24576 * _MIB,
            klass="consumer", nvlink=True,  # NVLink bridge (2-way)
            source="https://www.nvidia.com/en-us/geforce/graphics-cards/30-series/rtx-3090-3090ti/",
            peak_tflops=71.0, memory_gb_s=936.0, host_link_gb_s=32.0,
            speed_source=_AMPERE_GA102 + "; " + _PCIE4 + " (the 2-way NVLink bridge links pairs only)"),
    GpuSpec(id="rtx-4090", name="NVIDIA GeForce RTX 4090", memory_bytes=24564 * _MIB,
            klass="consumer", nvlink=False,
            source="https://www.nvidia.com/en-us/geforce/graphics-cards/40-series/rtx-4090/",
            peak_tflops=165.2, memory_gb_s=1008.0, host_link_gb_s=32.0, speed_source=_ADA + "; " + _PCIE4,
            price_per_hour=0.74, price_date="2026-09-25", price_source=_RUNPOD_0925),
    GpuSpec(id="rtx-5090", name="NVIDIA GeForce RTX 5090", memory_bytes=32607 * _MIB,
            klass="consumer", nvlink=False,
            source="https://www.nvidia.com/en-us/geforce/graphics-cards/50-series/rtx-5090/",
            peak_tflops=209.5, memory_gb_s=1792.0, host_link_gb_s=64.0,
            speed_source=_BLACKWELL_RTX + "; PCIe 5.0 x16 (64 GB/s per direction)"),
    # Workstation: nvidia-smi with ECC off (the default on these cards); with ECC on both show 46068 MiB.
    GpuSpec(id="rtx-a6000", name="NVIDIA RTX A6000", memory_bytes=49140 * _MIB,
            klass="workstation", nvlink=True,  # NVLink bridge (2-way)
            source="https://www.nvidia.com/en-us/design-visualization/rtx-a6000/",
            peak_tflops=154.8, memory_gb_s=768.0, host_link_gb_s=32.0,
            speed_source=_A6000 + "; " + _PCIE4 + " (the 2-way NVLink bridge links pairs only)",
            price_per_hour=1.09, price_date="2026-09-20", price_source=_LAMBDA_0920 + " (4x A6000 instance)"),
    GpuSpec(id="rtx-6000-ada", name="NVIDIA RTX 6000 Ada Generation", memory_bytes=49140 * _MIB,
            klass="workstation", nvlink=False,
            source="https://www.nvidia.com/en-us/design-visualization/rtx-6000/",
            peak_tflops=364.2, memory_gb_s=960.0, host_link_gb_s=32.0, speed_source=_RTX6000ADA + "; " + _PCIE4),
    # Datacenter: nvidia-smi memory.total with ECC on (the default), MiB.
    GpuSpec(id="v100-16gb", name="NVIDIA Tesla V100 SXM2 16GB", memory_bytes=16384 * _MIB,
            klass="datacenter", nvlink=True,  # SXM2; older drivers showed 16160 MiB
            source="https://www.nvidia.com/en-us/data-center/v100/",
            peak_tflops=125.0, memory_gb_s=900.0, interconnect_gb_s=150.0, host_link_gb_s=16.0, speed_source=_V100,
            price_per_hour=0.79, price_date="2026-09-20", price_source=_LAMBDA_0920 + " (8x Tesla V100 16GB)"),
    GpuSpec(id="a10", name="NVIDIA A10 24GB", memory_bytes=23028 * _MIB,
            klass="datacenter", nvlink=False,
            source="https://www.nvidia.com/en-us/data-center/products/a10-gpu/",
            peak_tflops=125.0, memory_gb_s=600.0, host_link_gb_s=32.0, speed_source=_A10 + "; " + _PCIE4,
            price_per_hour=1.29, price_date="2026-09-20", price_source=_LAMBDA_0920 + " (1x A10)"),
    GpuSpec(id="a10g", name="NVIDIA A10G 24GB (AWS)", memory_bytes=23028 * _MIB,
            klass="datacenter", nvlink=False,
            source="https://aws.amazon.com/ec2/instance-types/g5/",
            peak_tflops=125.0, memory_gb_s=600.0, host_link_gb_s=32.0,
            speed_source=_A10 + " (no A10G datasheet exists; its tensor peak may be below the A10's, so its time is "
                                "a lower bound); " + _PCIE4,
            price_per_hour=1.006, price_date="2026-08-17", price_source=_AWS_0817 + " (g5.xlarge: 1 A10G)"),
    GpuSpec(id="l4", name="NVIDIA L4 24GB", memory_bytes=23034 * _MIB,
            klass="datacenter", nvlink=False,
            source="https://www.nvidia.com/en-us/data-center/l4/",
            peak_tflops=121.0, memory_gb_s=300.0, host_link_gb_s=32.0, speed_source=_L4 + "; " + _PCIE4,
            price_per_hour=0.8048, price_date="2026-08-17", price_source=_AWS_0817 + " (g6.xlarge: 1 L4)"),
    GpuSpec(id="v100-32gb", name="NVIDIA Tesla V100 SXM2 32GB", memory_bytes=32768 * _MIB,
            klass="datacenter", nvlink=True,  # SXM2; older drivers showed 32480 MiB
            source="https://www.nvidia.com/en-us/data-center/v100/",
            peak_tflops=125.0, memory_gb_s=900.0, interconnect_gb_s=150.0, host_link_gb_s=16.0, speed_source=_V100),
    GpuSpec(id="a100-40gb", name="NVIDIA A100 40GB (SXM4)", memory_bytes=40960 * _MIB,
            klass="datacenter", nvlink=True,  # the PCIe 40GB card shows 40536 MiB
            source="https://www.nvidia.com/en-us/data-center/a100/",
            peak_tflops=312.0, memory_gb_s=1555.0, interconnect_gb_s=300.0, host_link_gb_s=32.0, network_gb_s=25.0,
            speed_source=_A100 + " (40GB SXM4: 1,555 GB/s)",
            price_per_hour=1.99, price_date="2026-10-10", price_source=_INDEX_1010 + " (Lambda, 1x A100 SXM 40GB)"),
    GpuSpec(id="l40s", name="NVIDIA L40S 48GB", memory_bytes=46068 * _MIB,
            klass="datacenter", nvlink=False,
            source="https://www.nvidia.com/en-us/data-center/l40s/",
            peak_tflops=362.05, memory_gb_s=864.0, host_link_gb_s=32.0, speed_source=_L40S + "; " + _PCIE4,
            price_per_hour=1.09, price_date="2026-10-10", price_source=_INDEX_1010 + " (RunPod Secure Cloud)"),
    GpuSpec(id="a100-80gb", name="NVIDIA A100 80GB (SXM4)", memory_bytes=81920 * _MIB,
            klass="datacenter", nvlink=True,
            source="https://www.nvidia.com/en-us/data-center/a100/",
            peak_tflops=312.0, memory_gb_s=2039.0, interconnect_gb_s=300.0, host_link_gb_s=32.0, network_gb_s=25.0,
            speed_source=_A100 + " (80GB SXM4: 2,039 GB/s)",
            price_per_hour=1.79, price_date="2026-10-10",
            price_source=_INDEX_1010 + " (RunPod Secure Cloud, A100-SXM4-80GB)"),
    GpuSpec(id="h100-80gb", name="NVIDIA H100 80GB (SXM)", memory_bytes=81559 * _MIB,
            klass="datacenter", nvlink=True,
            source="https://www.nvidia.com/en-us/data-center/h100/",
            peak_tflops=989.4, memory_gb_s=3350.0, interconnect_gb_s=450.0, host_link_gb_s=64.0, network_gb_s=50.0,
            speed_source=_H100,
            price_per_hour=3.99, price_date="2026-10-10",
            price_source=_INDEX_1010 + " (RunPod Secure Cloud, H100 80GB HBM3)"),
    GpuSpec(id="h200", name="NVIDIA H200 141GB (SXM)", memory_bytes=143771 * _MIB,
            klass="datacenter", nvlink=True,
            source="https://www.nvidia.com/en-us/data-center/h200/",
            peak_tflops=989.4, memory_gb_s=4800.0, interconnect_gb_s=450.0, host_link_gb_s=64.0, network_gb_s=50.0,
            speed_source=_H200,
            price_per_hour=5.29, price_date="2026-10-10", price_source=_INDEX_1010 + " (RunPod Secure Cloud)"),
    GpuSpec(id="b200", name="NVIDIA B200 180GB (SXM)", memory_bytes=183359 * _MIB,
            klass="datacenter", nvlink=True,
            source="https://www.nvidia.com/en-us/data-center/hgx/",
            peak_tflops=2250.0, memory_gb_s=8000.0, interconnect_gb_s=900.0, host_link_gb_s=64.0, network_gb_s=50.0,
            speed_source=_B200,
            price_per_hour=7.99, price_date="2026-10-10", price_source=_INDEX_1010 + " (RunPod Secure Cloud)"),
    # rocm-smi "VRAM Total Memory (B)" / torch totalGlobalMem: 205,822,885,888 B (marketed "192 GB").
    GpuSpec(id="mi300x", name="AMD Instinct MI300X 192GB", memory_bytes=205_822_885_888,
            klass="datacenter", nvlink=True,  # Infinity Fabric links between the 8 OAM modules
            source="https://www.amd.com/en/products/accelerators/instinct/mi300/mi300x.html",
            peak_tflops=1307.4, memory_gb_s=5300.0, interconnect_gb_s=448.0, host_link_gb_s=64.0,
            speed_source=_MI300X,
            price_per_hour=2.39, price_date="2026-10-10",
            price_source=_INDEX_1010 + " (RunPod Secure Cloud, MI300X OAM)"),
)

GPUS: dict[str, GpuSpec] = {g.id: g for g in _GPU_LIST}
if len(GPUS) != len(_GPU_LIST):  # pragma: no cover
    raise RuntimeError("duplicate GPU id in the catalogue")
