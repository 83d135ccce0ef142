"""One count of a model's parameters, of the linears LoRA wraps and of the weights QLoRA stores in 4 bits.

Memory (``memory.py``: weights, gradients, optimizer states, activations) and time (``throughput.py``: matmuls,
dequantisation, traffic) both read these counts, so the two can never count the same model differently. Exact as
transformers builds the model (every catalogue model's total is checked against its safetensors index,
tests/unit/test_catalog.py); ESTIMATOR.md "Model configs" gives the rules. Standard library only; no I/O.

Vocabulary: ``h`` hidden size, ``a`` query heads, ``d`` head dim, ``L`` layers, ``V`` vocabulary, ``E`` experts.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from .models import (ALL_LINEAR, LORA_MODULES, Fsdp2Upcast, KbitUpcast, Method, ModelArch, MoeLayout, Precision,
                     QloraBackend,
                     QuantStorage, Sharding, TrainingSetup, VisionTower)

__all__ = ["NF4_BITS", "NF4_CONST_BITS", "NF4_CONST_BITS_DOUBLE_QUANT", "LayerKind", "ParamCounts", "head_dim", "attention_head_dims",
           "moe_layers", "attention_layers", "expert_width", "count_params", "VISION_TYPES", "vision_tower_params", "held_arch", "is_wrapped", "wrapped_of", "stack_targets",
           "experts_fused", "experts_quantized", "experts_left_16bit", "setup_targets", "expert_param_lora", "expert_tensors", "trainable_tensors", "wrapped_linears", "trainable_params", "compute_bytes", "lm_head_quantized", "quantized_params",
           "nf4_const_bits", "nf4_bytes", "base_fp32", "base_bytes", "weight_bytes", "stored_weight_bytes", "gathered_weight_bytes",
           "fsdp2_upcast", "fp32_trainable_master", "adapter_bytes", "nf4_unsharded", "fsdp1_refuses_uint8", "norm_params",
           "kbit_upcast_params"]

# =====================================================================================================================
# 4-bit storage (bitsandbytes / torchao NF4): definitions, not fitted
# =====================================================================================================================
#: The NF4 code: 4 bits per parameter (Dettmers et al. 2023, "QLoRA", §2).
NF4_BITS = 4.0
#: Its quantisation constants: one fp32 absmax per 64-weight block, 32/64 bits per parameter (QLoRA paper §3).
NF4_CONST_BITS = 0.5
#: With double quantisation the absmax are themselves 8-bit, with one fp32 constant per 256 of them:
#: 8/64 + 32/(64·256) = 0.127 bits per parameter (QLoRA paper §3).
NF4_CONST_BITS_DOUBLE_QUANT = 0.127


# =====================================================================================================================
# Parameter counting
# =====================================================================================================================
@dataclass(frozen=True)
class LayerKind:
    """Decoder layers of one shape: ``count`` of them in the stack (dense and MoE layers of one model differ)."""

    count: int
    params: int                    # all parameters of one such layer
    linear: int                    # weights of its nn.Linear modules (experts included)
    linears: tuple[tuple[str, int, int, int], ...]  # (name, d_in, d_out, copies)


@dataclass(frozen=True)
class ParamCounts:
    total: int
    embedding: int                 # V·h
    lm_head: int                   # V·h, 0 when tied
    layer: int                     # the largest decoder layer, all parameters
    layer_linear: int              # the largest decoder layer, weights of its nn.Linear modules (experts included)
    largest_linear: int            # elements of the largest single weight matrix in a layer
    linears: tuple[tuple[str, int, int, int], ...]  # (name, d_in, d_out, copies) of the largest layer
    kinds: tuple[LayerKind, ...] = ()   # every layer shape of the stack with its count (one kind for dense models)
    stack_linear: int = 0               # nn.Linear weights of the whole decoder stack
    vision: int = 0                     # the vision tower and its projector (frozen weights; in ``total``)


def head_dim(m: ModelArch) -> int:
    return m.head_dim if m.head_dim else m.hidden_size // m.num_attention_heads


def attention_head_dims(m: ModelArch) -> tuple[int, int]:
    """Per-head widths of attention's two matmuls: the scores (q·k) and the values. Multi-head latent attention
    expands k and v per head (kv_b_proj) to ``qk_nope_head_dim + qk_rope_head_dim`` and ``v_head_dim``."""
    if m.kv_lora_rank:
        return m.qk_nope_head_dim + m.qk_rope_head_dim, m.v_head_dim
    d = head_dim(m)
    return d, d


def _attention(m: ModelArch) -> tuple[list[tuple[str, int, int, int]], int]:
    """Attention linears and the other parameters of one layer (biases, q/k norms, sinks, MLA norms).
    Multi-head latent attention (transformers DeepseekV2Attention / DeepseekV3Attention): q through a rank
    ``q_lora_rank`` bottleneck with an RMSNorm (or one q_proj when it is None), k/v through one compressed
    ``kv_lora_rank`` projection (+ the shared rope key) with an RMSNorm, expanded per head by kv_b_proj."""
    h, a = m.hidden_size, m.num_attention_heads
    other = 0
    if m.kv_lora_rank:
        qk = m.qk_nope_head_dim + m.qk_rope_head_dim
        if m.q_lora_rank:
            lin = [("q_a_proj", h, m.q_lora_rank, 1), ("q_b_proj", m.q_lora_rank, a * qk, 1)]
            other += m.q_lora_rank + (m.q_lora_rank if m.attention_bias else 0)    # q_a_layernorm, q_a_proj bias
        else:
            lin = [("q_proj", h, a * qk, 1)]
        kv_a = m.kv_lora_rank + m.qk_rope_head_dim
        lin += [("kv_a_proj_with_mqa", h, kv_a, 1),
                ("kv_b_proj", m.kv_lora_rank, a * (m.qk_nope_head_dim + m.v_head_dim), 1),
                ("o_proj", a * m.v_head_dim, h, 1)]
        other += m.kv_lora_rank + (kv_a if m.attention_bias else 0)              # kv_a_layernorm, kv_a_proj bias
    else:
        d = head_dim(m)
        qd, kvd = a * d, m.num_key_value_heads * d
        gate = 2 if m.attn_output_gate else 1              # Qwen3-Next: q_proj also gives the output's gate
        lin = [("q_proj", h, gate * qd, 1), ("k_proj", h, kvd, 1), ("v_proj", h, kvd, 1), ("o_proj", qd, h, 1)]
        if m.attention_bias:
            other += gate * qd + 2 * kvd
        if m.qk_norm == "head":
            other += 2 * d                                 # Qwen3: q_norm, k_norm over one head
        elif m.qk_norm == "full":
            other += qd + kvd                              # OLMoE / OLMo 2: over all q and all k features
    if m.o_proj_bias:
        other += h
    if m.attention_sinks:
        other += a                                         # gpt-oss: one sink logit per head
    return lin, other


def linear_attention_widths(m: ModelArch) -> tuple[int, int, int]:
    """A Gated DeltaNet's widths: all key heads (``key_dim``), all value heads (``value_dim``) and the conv's channels
    (q, k and v: ``2·key_dim + value_dim``), transformers Qwen3NextGatedDeltaNet."""
    key_dim = m.linear_num_key_heads * m.linear_key_head_dim
    value_dim = m.linear_num_value_heads * m.linear_value_head_dim
    return key_dim, value_dim, 2 * key_dim + value_dim


def _linear_attention(m: ModelArch) -> tuple[list[tuple[str, int, int, int]], int]:
    """A Gated DeltaNet token mixer's linears and other parameters (transformers models/qwen3_next/
    modular_qwen3_next.py Qwen3NextGatedDeltaNet): in_proj_qkvz (h -> 2·key_dim + 2·value_dim: q, k, v and the
    output gate z), in_proj_ba (h -> 2 per value head: the delta rule's beta and the decay's a), out_proj
    (value_dim -> h), all without bias; the depthwise conv1d over q, k, v (``conv_dim × kernel``, no bias), dt_bias
    and A_log (one per value head) and the gated RMSNorm over one value head (``linear_value_head_dim``)."""
    h, nv = m.hidden_size, m.linear_num_value_heads
    key_dim, value_dim, conv_dim = linear_attention_widths(m)
    if m.model_type.startswith("qwen3_5"):           # Qwen3_5GatedDeltaNet: the same weights as four linears
        lin = [("in_proj_qkv", h, 2 * key_dim + value_dim, 1), ("in_proj_z", h, value_dim, 1),
               ("in_proj_b", h, nv, 1), ("in_proj_a", h, nv, 1)]
    else:
        lin = [("in_proj_qkvz", h, 2 * key_dim + 2 * value_dim, 1), ("in_proj_ba", h, 2 * nv, 1)]
    lin.append(("out_proj", value_dim, h, 1))
    return lin, conv_dim * m.linear_conv_kernel_dim + 2 * nv + m.linear_value_head_dim


def mamba_widths(m: ModelArch) -> tuple[int, int, int]:
    """A Mamba-2 mixer's widths (transformers BambaMixer): its inner width (``n_heads × d_head``), the conv's channels
    (the inner width plus B and C: ``2·n_groups·d_state``) and in_proj's output (the gate z, the conv's input and one dt
    per head)."""
    inner = m.mamba_n_heads * m.mamba_d_head
    conv_dim = inner + 2 * m.mamba_n_groups * m.mamba_d_state
    return inner, conv_dim, inner + conv_dim + m.mamba_n_heads


def _mamba(m: ModelArch) -> tuple[list[tuple[str, int, int, int]], int]:
    """A Mamba-2 token mixer's linears and other parameters (transformers models/bamba/modeling_bamba.py
    BambaMixer): in_proj (h -> the gate, the conv's input and dt) and out_proj (inner -> h), with biases when
    mamba_proj_bias; the depthwise conv1d (``conv_dim × d_conv``, + a bias per channel when mamba_conv_bias);
    dt_bias, A_log and D (one per head) and the gated RMSNorm over the inner width."""
    h, heads = m.hidden_size, m.mamba_n_heads
    inner, conv_dim, proj = mamba_widths(m)
    lin = [("in_proj", h, proj, 1), ("out_proj", inner, h, 1)]
    other = conv_dim * m.mamba_d_conv + (conv_dim if m.mamba_conv_bias else 0) + 3 * heads + inner
    return lin, other + ((proj + h) if m.mamba_proj_bias else 0)


def _mlp(m: ModelArch, width: int, copies: int) -> tuple[list[tuple[str, int, int, int]], int]:
    h = m.hidden_size
    lin = [("gate_proj", h, width, copies)] if m.mlp_gated else []
    lin += [("up_proj", h, width, copies), ("down_proj", width, h, copies)]
    bias = ((2 if m.mlp_gated else 1) * width + h) * copies if m.mlp_bias else 0
    return lin, bias + m.activation_params           # the activation module's own scalars (Apertus's xIELU)


def moe_layers(m: ModelArch) -> int:
    """Decoder layers whose MLP is a mixture of experts: from ``first_k_dense_replace`` on, every
    ``moe_layer_step``-th (index + 1 divisible by it: Llama 4 ``moe_layers = range(step - 1, L, step)``, Qwen-MoE
    ``(idx + 1) % decoder_sparse_step == 0``); the rest are dense."""
    if m.num_local_experts <= 0:
        return 0
    if m.mlp_blocks:                                   # blocks of one part each: the MLP blocks from the first k
        return max(0, m.mlp_blocks - m.first_k_dense_replace)    # dense ones on (configs.py writes k that way)
    step = max(1, m.moe_layer_step)
    return sum(1 for idx in range(m.first_k_dense_replace, m.num_hidden_layers) if (idx + 1) % step == 0)


def attention_layers(m: ModelArch) -> int:
    """Layers (blocks) whose token mixer is softmax attention: all but a hybrid's linear-attention and Mamba-2
    layers and, in a stack of one-part blocks (Nemotron-H), its MLP blocks."""
    return m.num_hidden_layers - m.mlp_blocks - m.linear_attention_layers - m.mamba_layers


def expert_width(m: ModelArch) -> int:
    return m.moe_intermediate_size or m.intermediate_size


@lru_cache(maxsize=256)
def count_params(m: ModelArch) -> ParamCounts:
    """Total parameters from the config, exactly as transformers builds the model (checked against each catalogue
    model's safetensors total; ESTIMATOR.md "Model configs"). A MoE layer holds every expert, the router
    (``num_local_experts × h``, + a bias), the shared expert and its gate."""
    h = m.hidden_size
    # the token mixers: softmax attention, and in a hybrid's other layers a Gated DeltaNet or a Mamba-2 mixer
    # (configs.py refuses a hybrid whose stack also mixes dense and MoE MLPs, so each mixer's layers share one MLP);
    # in a stack of one-part blocks (mlp_blocks: Nemotron-H) mixers and MLPs are blocks of their own
    n_lin, n_mamba = m.linear_attention_layers, m.mamba_layers
    mixers = [(n, *make(m)) for n, make in ((attention_layers(m), _attention),
                                            (n_lin, _linear_attention), (n_mamba, _mamba)) if n]
    kinds: list[LayerKind] = []
    n_moe = moe_layers(m)
    n_dense = (m.mlp_blocks or m.num_hidden_layers) - n_moe
    mlps = []
    if n_dense:
        mlps.append((n_dense, *_mlp(m, m.intermediate_size, 1)))
    if n_moe:
        E = m.num_local_experts
        mlp, bias = _mlp(m, expert_width(m), E)
        bias += E * h + (E if m.router_bias else 0)        # router weight (+ bias)
        if m.shared_expert_intermediate_size:
            shared, sbias = _mlp(m, m.shared_expert_intermediate_size, 1)
            mlp += shared
            bias += sbias + (h if m.shared_expert_gate else 0)
        mlps.append((n_moe, mlp, bias))
    if m.mlp_blocks:
        for n, lin_list, other in mixers + mlps:
            linear = sum(di * do * c for _, di, do, c in lin_list)
            kinds.append(LayerKind(n, linear + m.norms_per_layer * h + other, linear, tuple(lin_list)))
        mlps = []
    for n_mlp, mlp, bias in mlps:
        for n_mix, mix, mix_other in mixers:
            count = n_mlp if len(mixers) == 1 else n_mix if len(mlps) == 1 else 0
            if not count:
                continue
            lin = tuple(mix + mlp)
            linear = sum(di * do * c for _, di, do, c in lin)
            kinds.append(LayerKind(count, linear + m.norms_per_layer * h + mix_other + bias, linear, lin))
    big = max(kinds, key=lambda k: k.params)
    emb = m.vocab_size * h
    head = 0 if m.tie_word_embeddings else emb
    total = emb + head + sum(k.count * k.params for k in kinds) + h + m.vision_params   # + final norm, vision tower
    largest = max(di * do for k in kinds for _, di, do, _c in k.linears)
    return ParamCounts(total, emb, head, big.params, big.linear, largest, big.linears, tuple(kinds),
                       sum(k.count * k.linear for k in kinds), m.vision_params)


# =====================================================================================================================
# Vision towers (multimodal checkpoints): counted as weights, tensor by tensor as transformers builds them
# =====================================================================================================================
#: The vision encoders and projectors counted exactly (transformers 5.24.0 modelling code); a multimodal config of
#: another kind is refused (configs.py), never counted without its tower.
VISION_TYPES: dict[str, tuple[str, ...]] = {
    "siglip": ("gemma3",), "clip": ("llava",), "pixtral": ("mistral3",), "llama4": ("llama4",),
    "qwen2_vl": ("merger",), "qwen2_5_vl": ("merger",),
}


def _vit_layer(h: int, i: int) -> int:
    """A ViT encoder layer with LayerNorms and biases (SigLIP, CLIP, Llama 4's vision encoder): q, k, v, o (h x h +
    bias), two LayerNorms (weight + bias), fc1 h -> i and fc2 i -> h with biases."""
    return 4 * (h * h + h) + 4 * h + (h * i + i) + (i * h + h)


def vision_tower_params(v: VisionTower) -> int:
    """Parameters of a vision encoder and its projector (transformers 5.24.0: SiglipVisionModel without the pooling
    head, CLIPVisionModel, PixtralVisionModel, Llama4VisionModel, Qwen2VisionTransformerPretrainedModel,
    Qwen2_5_VisionTransformerPretrainedModel; Gemma3MultiModalProjector, LlavaMultiModalProjector,
    Mistral3MultiModalProjector, Llama4MultiModalProjector). Checked against the published multimodal totals of
    Gemma 3 4B/12B/27B, Llama 4 Scout/Maverick and Mistral Small 3.1 (tests/unit/test_catalog.py) and of LLaVA-1.5,
    Qwen2-VL and Qwen2.5-VL (tests/unit/test_configs.py)."""
    h, L, i, p, C = v.hidden_size, v.num_hidden_layers, v.intermediate_size, v.patch_size, v.num_channels
    patches = (v.image_size // p) ** 2 if v.image_size else 0
    if v.encoder == "siglip":       # patch Conv2d with bias, one position per patch, post LayerNorm
        enc = C * p * p * h + h + patches * h + L * _vit_layer(h, i) + 2 * h
    elif v.encoder == "clip":       # patch Conv2d without bias, class token, pre and post LayerNorms
        enc = C * p * p * h + h + (patches + 1) * h + 2 * h + L * _vit_layer(h, i) + 2 * h
    elif v.encoder == "llama4":     # unfold linear without bias, class token, pre/post LayerNorm, pixel-shuffle MLP
        enc = C * p * p * h + h + (patches + 1) * h + 4 * h + L * _vit_layer(h, i) \
            + i * v.projector_input_dim + v.projector_output_dim * v.projector_output_dim
    elif v.encoder == "pixtral":    # Conv2d without bias, RMSNorm ln_pre; layers: 2 RMSNorms, q/k/v/o and a gated MLP
        enc = C * p * p * h + h + L * (4 * h * h + 2 * h + 3 * h * i)
    elif v.encoder in ("qwen2_vl", "qwen2_5_vl"):
        conv = C * v.temporal_patch_size * p * p * h                         # Conv3d without bias
        attn = (h * 3 * h + 3 * h) + (h * h + h)                             # fused qkv and proj, with biases
        merged = h * v.spatial_merge_size ** 2
        if v.encoder == "qwen2_vl":  # LayerNorms, plain GELU MLP (fc1, fc2 with biases); merger LayerNorm
            layer = 4 * h + attn + (h * i + i) + (i * h + h)
            merger = 2 * h
        else:                        # RMSNorms, gated MLP with biases; merger RMSNorm
            layer = 2 * h + attn + 2 * (h * i + i) + (i * h + h)
            merger = h
        merger += merged * merged + merged + merged * v.out_hidden_size + v.out_hidden_size
        enc = conv + L * layer + merger
    else:
        raise ValueError(v.encoder)
    th = v.text_hidden_size
    if v.projector == "gemma3":     # mm_input_projection_weight [vh, th] and mm_soft_emb_norm RMSNorm(vh)
        proj = h * th + h
    elif v.projector == "llava":    # linear_1 (vh x layers -> th), GELU, linear_2 (th -> th)
        proj = h * v.feature_layers * th + th * th + (2 * th if v.projector_bias else 0)
    elif v.projector == "mistral3":  # RMSNorm(vh), patch merger (vh x m^2 -> vh), linear_1, linear_2
        m2 = v.spatial_merge_size ** 2
        proj = h + h * m2 * h + h * v.feature_layers * th + th * th + (2 * th if v.projector_bias else 0)
    elif v.projector == "llama4":   # linear_1 vision_output_dim -> th, no bias
        proj = v.vision_output_dim * th
    else:                           # Qwen: the merger is part of the encoder
        proj = 0
    return enc + proj


def held_arch(s: TrainingSetup) -> ModelArch:
    """The architecture as the framework holds it in memory. ``untie_embeddings``: litgpt's GPT has its own lm_head
    nn.Linear next to the nn.Embedding (litgpt/model.py), and its checkpoint converter copies the embedding into it
    when the checkpoint ties them (convert_hf_checkpoint: ``lm_head.weight = transformer.wte.weight``); only its
    pretraining script re-ties them (``train.tie_embeddings``). Two tensors in memory."""
    if s.untie_embeddings and s.model.tie_word_embeddings:
        return _untied(s.model)
    return s.model


@lru_cache(maxsize=256)
def _untied(m: ModelArch) -> ModelArch:
    return replace(m, tie_word_embeddings=False)


def is_wrapped(name: str, targets: tuple[str, ...]) -> bool:
    """A linear is LoRA-wrapped when its name is targeted; MLA's projections (q_a_proj, kv_b_proj, ...) carry no
    Llama name, so only "all-linear" (every Llama name targeted) reaches them, as PEFT's all-linear does."""
    if name in targets:
        return True
    return name not in LORA_MODULES and all(t in targets for t in ALL_LINEAR)


def _wrappable(x: tuple[str, int, int, int], targets: tuple[str, ...], fused: bool) -> bool:
    """A linear LoRA wraps: targeted by name, and not a routed expert's projection when the experts are fused 3-D
    parameters (PEFT's ``target_modules`` and ``all-linear`` match ``nn.Linear`` modules only: peft/tuners/tuners_utils.py
    ``_maybe_include_all_linear_layers`` keeps ``torch.nn.Linear`` and ``Conv1D``)."""
    return is_wrapped(x[0], targets) and not (fused and x[3] > 1)


@lru_cache(maxsize=1024)
def wrapped_of(m: ModelArch, targets: tuple[str, ...], fused: bool = False) -> tuple[tuple[str, int, int, int], ...]:
    """The wrapped linears of the largest decoder layer."""
    return tuple(x for x in count_params(m).linears if _wrappable(x, targets, fused))


@lru_cache(maxsize=1024)
def stack_targets(m: ModelArch, targets: tuple[str, ...], fused: bool = False
                  ) -> tuple[tuple[int, tuple[tuple[str, int, int, int], ...]], ...]:
    """(layer count, wrapped linears) for every layer kind of the stack (dense and MoE layers differ)."""
    return tuple((k.count, tuple(x for x in k.linears if _wrappable(x, targets, fused))) for k in count_params(m).kinds)


#: transformers model types whose fused experts the bitsandbytes quantizer splits into one nn.Linear per expert
#: before quantising (transformers 5.24 quantizers/base.py: ``SequentialLlama4TextExperts`` replaces
#: ``Llama4TextExperts``), so QLoRA quantises them and LoRA wraps them as in the per-expert layout.
UNFUSED_FOR_BNB = ("llama4", "llama4_text")


def experts_fused(s: TrainingSetup) -> bool:
    """The routed experts are fused 3-D ``nn.Parameter`` s (``moe_layout`` fused: transformers 5 ``MixtralExperts``,
    ``Qwen3MoeExperts``, ``DeepseekV3Experts``, ``OlmoeExperts``, ``GptOssExperts``: ``gate_up_proj`` (E, 2i, h) and
    ``down_proj`` (E, h, i)), except where the 4-bit quantizer unfuses them (``UNFUSED_FOR_BNB``)."""
    m = s.model
    if s.moe_layout is not MoeLayout.FUSED or m.num_local_experts <= 0:
        return False
    return not (s.method is Method.QLORA and s.qlora_backend is QloraBackend.BITSANDBYTES
                and m.model_type in UNFUSED_FOR_BNB)


def experts_quantized(s: TrainingSetup) -> bool:
    """QLoRA over bitsandbytes whose framework quantises the fused 3-D experts itself (``quantize_experts``): Axolotl
    0.21.0 monkeypatch/moe_quant.py ``patch_moe_quantization_on_load`` (``quantize_moe_experts: true``, from Axolotl
    0.15.0, PR #3439) calls bitsandbytes ``replace_parameter_4bit`` (nf4, double quantisation unless
    ``bnb_4bit_use_double_quant`` is false) on every 3-D expert parameter as it loads. transformers 5.24's
    bitsandbytes integration converts ``nn.Linear`` modules only, so elsewhere the fused experts stay 16-bit
    (bitsandbytes issue #1849, open; PR #1965, ``Experts4bit``, unmerged)."""
    return (s.quantize_experts and experts_fused(s) and s.method is Method.QLORA
            and s.qlora_backend is QloraBackend.BITSANDBYTES)


def experts_left_16bit(s: TrainingSetup) -> bool:
    """A QLoRA over bitsandbytes that holds its fused experts in 16 bits (the answer's note ``experts_not_quantized``:
    the setup does not do what "QLoRA" says for most of a MoE's weights)."""
    return (s.method is Method.QLORA and s.qlora_backend is QloraBackend.BITSANDBYTES and experts_fused(s)
            and not experts_quantized(s))


def setup_targets(s: TrainingSetup) -> tuple[tuple[int, tuple[tuple[str, int, int, int], ...]], ...]:
    """``stack_targets`` of the setup's model, targets and expert layout."""
    return stack_targets(s.model, s.lora_targets, experts_fused(s))


def wrapped_linears(s: TrainingSetup) -> tuple[tuple[str, int, int, int], ...]:
    """(name, d_in, d_out, copies) of the LoRA-wrapped modules of one layer (lm_head is handled apart)."""
    return wrapped_of(s.model, s.lora_targets, experts_fused(s))


def expert_tensors(m: ModelArch) -> tuple[tuple[int, int], ...]:
    """(d_in, d_out) of a fused MoE layer's two 3-D expert parameters: ``gate_up_proj`` (h -> 2i, or i without a
    gate) and ``down_proj`` (i -> h)."""
    h, i = m.hidden_size, expert_width(m)
    return (h, (2 if m.mlp_gated else 1) * i), (i, h)


def expert_param_lora(s: TrainingSetup) -> int:
    """LoRA on the fused experts through PEFT ``target_parameters`` (``lora_expert_params``): peft 0.21.2
    tuners/lora/layer.py ``ParamWrapper`` makes ``lora_A = nn.Linear(in_features, r * num_experts)`` and ``lora_B =
    nn.Linear(r * num_experts, out_features)`` per 3-D parameter: ``r·E·(in + out)`` each, every MoE layer."""
    if s.method is Method.FULL or not s.lora_expert_params or not experts_fused(s):
        return 0
    m = s.model
    return moe_layers(m) * sum(s.lora_rank * m.num_local_experts * (di + do) for di, do in expert_tensors(m))


@lru_cache(maxsize=1024)
def _trainable(m: ModelArch, method: Method, r: int, targets: tuple[str, ...], fused: bool) -> int:
    if method is Method.FULL:
        return count_params(m).total - m.vision_params     # the vision tower stays frozen
    t = sum(n * sum(r * (di + do) * c for _, di, do, c in lins) for n, lins in stack_targets(m, targets, fused))
    if "lm_head" in targets:
        t += r * (m.hidden_size + m.vocab_size)
    return t


@lru_cache(maxsize=1024)
def trainable_params(s: TrainingSetup) -> int:
    """(Kept per setup: one estimate asks it about eight times, and a setup keeps its hash.) Full: every parameter of the language model (a vision tower stays frozen). LoRA/QLoRA: r·(d_in + d_out) per wrapped linear (torchtune LoRA docs; PEFT), plus LoRA
    on fused experts (``expert_param_lora``)."""
    return _trainable(held_arch(s), s.method, s.lora_rank, s.lora_targets, experts_fused(s)) + expert_param_lora(s)


@lru_cache(maxsize=1024)
def _tensors(m: ModelArch, method: Method, r: int, targets: tuple[str, ...], fused: bool,
             expert_lora: bool) -> tuple[tuple[int, int], ...]:
    pc = count_params(m)
    h = m.hidden_size
    out: dict[int, int] = {}

    def add(n: int, times: int) -> None:
        if n > 0 and times > 0:
            out[n] = out.get(n, 0) + times

    if method is Method.FULL:
        for k in pc.kinds:
            matrices = 0
            for _name, di, do, copies in k.linears:
                if fused and copies > 1:
                    continue
                add(di * do, copies * k.count)
                matrices += di * do * copies
            if fused and any(c > 1 for *_x, c in k.linears):
                for di, do in expert_tensors(m):
                    add(m.num_local_experts * di * do, k.count)
                    matrices += m.num_local_experts * di * do
            rest = k.params - matrices           # norms, biases, routers: taken as vectors of h
            add(h, (rest // h) * k.count)
            add(rest % h, k.count)
        add(pc.embedding, 1)
        add(pc.lm_head, 1)
        add(h, 1)                                # final norm
        return tuple(sorted(out.items()))
    for n, lins in stack_targets(m, targets, fused):
        for _name, di, do, copies in lins:
            add(r * di, copies * n)
            add(r * do, copies * n)
    if "lm_head" in targets:
        add(r * h, 1)
        add(r * m.vocab_size, 1)
    if expert_lora and fused:
        for di, do in expert_tensors(m):
            add(di * r * m.num_local_experts, moe_layers(m))
            add(r * m.num_local_experts * do, moe_layers(m))
    return tuple(sorted(out.items()))


def trainable_tensors(s: TrainingSetup) -> tuple[tuple[int, int], ...]:
    """The trainable tensors as (elements, how many), for the optimizers that treat tensors by size (bitsandbytes:
    paged only from 1e5 elements, 8-bit only from 4096). Full fine-tuning: every weight matrix (a fused expert
    parameter is one tensor), the embedding and lm_head, and the vectors (norms, biases, routers taken as vectors of
    ``h``); LoRA: each adapter's A (r x d_in) and B (d_out x r). Sums to ``trainable_params``."""
    return _tensors(held_arch(s), s.method, s.lora_rank, s.lora_targets, experts_fused(s),
                    s.lora_expert_params and s.method is not Method.FULL)


# =====================================================================================================================
# Storage: what each parameter costs where it is held
# =====================================================================================================================
def compute_bytes(s: TrainingSetup) -> int:
    """Bytes of one element in the compute dtype: 4 in fp32, 2 under bf16 or 16-bit autocast."""
    return 4 if s.precision is Precision.FP32 else 2


def lm_head_quantized(s: TrainingSetup) -> bool:
    """QLoRA over bitsandbytes with lm_head in NF4 too: Lightning Fabric's BitsandbytesPrecision (litgpt --quantize)
    replaces every torch.nn.Linear, lm_head included, unless ``ignore_modules`` names it (litgpt passes none)."""
    return s.method is Method.QLORA and s.quantize_lm_head and s.qlora_backend is QloraBackend.BITSANDBYTES


def quantized_params(s: TrainingSetup) -> int:
    """Parameters stored in NF4 (QLoRA only): every decoder nn.Linear of every layer kind (bitsandbytes; lm_head
    too when ``lm_head_quantized``), or only the LoRA-wrapped ones (torchao, torchtune)."""
    if s.method is not Method.QLORA:
        return 0
    pc = count_params(held_arch(s))
    if s.qlora_backend is QloraBackend.TORCHAO:
        stack = sum(n * sum(di * do * c for _, di, do, c in lins) for n, lins in setup_targets(s))
    else:   # transformers get_keys_to_not_convert keeps lm_head 16-bit; embeddings are not nn.Linear
        stack = pc.stack_linear
        if experts_left_16bit(s):
            # replace_with_bnb_linear converts ``type(module) is nn.Linear`` only (transformers 5.24
            # integrations/bitsandbytes.py): fused 3-D experts stay 16-bit unless the framework quantises them
            stack -= sum(k.count * sum(di * do * c for _, di, do, c in k.linears if c > 1) for k in pc.kinds)
    head = s.model.vocab_size * s.model.hidden_size if lm_head_quantized(s) else 0
    return stack + head


def nf4_const_bits(s: TrainingSetup) -> float:
    """Bits of quantisation constants per NF4 parameter, with or without double quantisation."""
    return NF4_CONST_BITS_DOUBLE_QUANT if s.double_quant else NF4_CONST_BITS


def nf4_bytes(n: float, s: TrainingSetup) -> float:
    """Bytes of ``n`` NF4 parameters with their quantisation constants."""
    return n * (NF4_BITS + nf4_const_bits(s)) / 8


def fsdp2_upcast(s: TrainingSetup) -> Fsdp2Upcast:
    """What accelerate's ``fsdp2_prepare_model`` casts to fp32 for this setup (``NONE`` outside FSDP2 with mixed
    precision on). accelerate 1.15.0 utils/fsdp_utils.py: ``if accelerator.mixed_precision != "no" and not
    model_has_params4bit:`` every ``requires_grad`` parameter not in fp32 gets ``param.data = param.data.to(float32)``
    before ``fully_shard`` (``TRAINABLE``); 1.13.0 rebinds its loop variable (``param = param.to(torch.float32)``),
    which changes nothing (``NONE``); 1.11.0 runs ``model = model.to(torch.float32)`` after sharding (``ALL``), which
    the estimator applies to 16-bit models only (a 4-bit model cast so is not a run it can describe)."""
    if (s.deepspeed or s.fsdp_version != 2 or s.sharding not in (Sharding.ZERO2, Sharding.ZERO3)
            or s.precision is Precision.FP32):
        return Fsdp2Upcast.NONE
    if s.method is Method.QLORA:
        return Fsdp2Upcast.NONE          # 1.15: a model holding Params4bit is not upcast; 1.11: see above
    return s.fsdp2_upcast


def fp32_trainable_master(s: TrainingSetup) -> bool:
    """Full fine-tuning whose trainable parameters are fp32 under 16-bit compute: HF AMP on an fp32-loaded model
    (``precision: mixed``), or a 16-bit model that accelerate's FSDP2 upcasts (``fsdp2_upcast``)."""
    return s.method is Method.FULL and (s.precision is Precision.MIXED or fsdp2_upcast(s) is not Fsdp2Upcast.NONE)


def adapter_bytes(s: TrainingSetup) -> int:
    """Bytes of one LoRA parameter: ``lora_dtype``, or fp32 when accelerate's FSDP2 upcasts the trainable
    parameters (``fsdp2_upcast``)."""
    if s.lora_dtype is Precision.FP32 or fsdp2_upcast(s) is not Fsdp2Upcast.NONE:
        return 4
    return 2


def fsdp1_refuses_uint8(v: Mapping[str, Any]) -> bool:
    """QLoRA over bitsandbytes with ``uint8`` quant storage under FSDP1: FSDP1 flattens each unit's parameters into
    one tensor of one dtype, so the uint8 4-bit weights cannot join the 16-bit rest ("Must flatten tensors with
    uniform dtype"); PEFT's FSDP QLoRA recipe and TRL's FSDP docs set ``bnb_4bit_quant_storage`` to bf16. ``v``: the
    request keys' values (a request's strings or a setup's fields; the StrEnums equal their strings)."""
    return (v["sharding"] != "none" and not v["deepspeed"] and v["fsdp_version"] == 1 and v["method"] == "qlora"
            and v["qlora_backend"] == "bitsandbytes" and v["quant_storage"] == "uint8")


def nf4_unsharded(s: TrainingSetup) -> bool:
    """QLoRA over bitsandbytes under FSDP2 with ``uint8`` quant storage: accelerate 1.15.0 ``fsdp2_prepare_model``
    puts every non-floating frozen ``Params4bit`` in ``ignored_params`` ("Excluding from FSDP2 sharding to prevent
    quant_state corruption"), so the packed 4-bit weights stay whole on every GPU and are never all-gathered."""
    return (s.method is Method.QLORA and s.qlora_backend is QloraBackend.BITSANDBYTES
            and s.quant_storage is QuantStorage.UINT8 and s.sharding is Sharding.ZERO3 and not s.deepspeed
            and s.fsdp_version == 2)


def base_fp32(s: TrainingSetup) -> bool:
    """A frozen base kept in fp32 (``base_fp32``; LoRA/QLoRA with ``precision: mixed``), or a LoRA base accelerate
    1.11's FSDP2 casts to fp32 after sharding (``fsdp2_upcast`` ``all``). DeepSpeed's bf16 mode casts the module's
    parameters to bf16 whatever they were loaded in (its fp32 copies live with the optimizer), so the fp32 load does
    not stay there."""
    if s.method is Method.LORA and fsdp2_upcast(s) is Fsdp2Upcast.ALL:
        return True
    return (s.base_fp32 and s.method is not Method.FULL and s.precision is Precision.MIXED
            and not (s.deepspeed and s.sharding is not Sharding.NONE))


def base_bytes(s: TrainingSetup) -> int:
    """Bytes per frozen (non-quantised) base parameter: 4 when loaded in fp32 (``base_fp32``, or ``precision``
    fp32), else 2. transformers ``from_pretrained`` without a dtype loads fp32 (its default), and HF Trainer's
    ``bf16=True`` only wraps the forward in ``torch.autocast``, which casts per op and leaves the weights as they are
    (trace lora-llama31-8b-all-fp32base-s2048-ckpt: 8.03 B parameters x 4 B)."""
    return 4 if (base_fp32(s) or s.precision is Precision.FP32) else 2


def weight_bytes(s: TrainingSetup, dense_bytes: int) -> float:
    """Every base parameter of the model as the framework holds it (all GPUs together, adapters excluded): the
    quantised ones in NF4 with their constants, the others ``dense_bytes`` each. A quantised lm_head is its own NF4
    tensor (replacing the 16-bit head, if the model has one apart); a tied embedding stays 16-bit for the input
    lookup."""
    pc = count_params(held_arch(s))
    q = quantized_params(s)
    head = s.model.vocab_size * s.model.hidden_size if lm_head_quantized(s) else 0
    in_layers = q - head
    head_16 = pc.lm_head if head else 0
    return nf4_bytes(q, s) + (pc.total - in_layers - head_16) * dense_bytes


def stored_weight_bytes(s: TrainingSetup) -> float:
    """The base weights in their storage dtype before sharding (the frozen base's dtype, NF4 for the quantised
    ones). 0 for full fine-tuning under mixed precision: there the fp32 weights are the master copy
    (memory.master_copy_bytes) and their 16-bit copies autocast's (memory.autocast_copy_bytes); likewise for a model
    accelerate's FSDP2 upcasts (``fp32_trainable_master``)."""
    if fp32_trainable_master(s):
        return 4.0 * s.model.vision_params   # a frozen vision tower stays as loaded: fp32, outside the master copy
    return weight_bytes(s, base_bytes(s))


def gathered_weight_bytes(s: TrainingSetup) -> float:
    """The base weights as ZeRO-3 / FSDP all-gathers them, and as parameter offloading moves them: NF4 (with its
    constants) for the quantised ones, the compute dtype for the rest (FSDP MixedPrecision's ``param_dtype``,
    DeepSpeed's bf16 mode)."""
    return weight_bytes(s, compute_bytes(s))


def norm_params(m: ModelArch) -> int:
    """Weights of the model's normalisation layers: each decoder layer's ``norms_per_layer`` RMSNorms of ``h``, its
    q/k norms (Qwen3: one head wide each; OLMoE / OLMo 2: over all q and all k features), multi-head latent
    attention's q_a and kv_a layernorms, and the final norm."""
    h = m.hidden_size
    per_layer = m.norms_per_layer * h
    if m.kv_lora_rank:
        per_layer += (m.q_lora_rank or 0) + m.kv_lora_rank
    elif m.qk_norm == "head":
        per_layer += 2 * head_dim(m)
    elif m.qk_norm == "full":
        per_layer += (m.num_attention_heads + m.num_key_value_heads) * head_dim(m)
    return m.num_hidden_layers * per_layer + h


def kbit_upcast_params(s: TrainingSetup) -> int:
    """Base parameters a QLoRA run over bitsandbytes holds in fp32 because its framework cast them after loading
    (``kbit_upcast``; the bytes are memory.kbit_upcast_bytes). peft 0.21.2 utils/other.py
    ``prepare_model_for_kbit_training``: every fp16/bf16 parameter whose class is not ``Params4bit`` becomes fp32
    (``ALL``: every parameter ``weight_bytes`` holds 16-bit, so the embeddings, an untied lm_head, the norms, biases,
    routers, and the fused 3-D experts bitsandbytes does not quantise). ``EMBEDDINGS``: the embeddings, lm_head and
    norms (``norm_params``); ``ALL_BUT_EMBEDDINGS``: the rest. torchao NF4 (torchtune) is not cast: PEFT skips its
    cast for torchao-quantised models."""
    if (s.method is not Method.QLORA or s.qlora_backend is not QloraBackend.BITSANDBYTES
            or s.kbit_upcast is KbitUpcast.NONE):
        return 0
    m = held_arch(s)
    pc = count_params(m)
    head_q = s.model.vocab_size * s.model.hidden_size if lm_head_quantized(s) else 0
    dense = pc.total - (quantized_params(s) - head_q) - (pc.lm_head if head_q else 0)   # as weight_bytes counts them
    embeddings = pc.embedding + (0 if head_q else pc.lm_head) + norm_params(m)
    if s.kbit_upcast is KbitUpcast.ALL:
        return dense
    if s.kbit_upcast is KbitUpcast.EMBEDDINGS:
        return embeddings
    return dense - embeddings
