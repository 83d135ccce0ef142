"""Online RL post-training (GRPO, TRL 1.16 ``GRPOTrainer``): per-GPU memory phase by phase.

One GRPO cycle (trl/trainer/grpo_trainer.py 1.16.0 ``_generate_and_score_completions``, ``_compute_loss``) has three
phases on the trainer's GPU, and what stays resident across them decides the peak:

* **generation** of the whole generation batch (``R`` = ``micro_batch_size`` x ``steps_per_generation`` rows, one
  per completion: unique prompts x ``num_generations``), every ``steps_per_generation`` x ``num_iterations``
  micro-steps. With TRL's default generator (``use_vllm=False``: transformers' ``generate`` with the trained model)
  the KV cache of all ``R`` rows at ``prompt_len + completion_len`` tokens lives on top of the resident weights and
  the AdamW state (which exists from the first optimizer step on: TRL issue #2972, "40 GB at step 1, out of memory
  at step 2"). A colocated vLLM (``vllm_mode="colocate"``) instead claims ``vllm_gpu_memory_utilization`` x the
  card's memory when it starts and keeps it in every phase unless sleep mode frees it; a vLLM server runs on other
  GPUs and costs the trainer's GPU nothing.
* **scoring**: old per-token log-probs (only when a rollout is reused: ``num_iterations`` > 1 or
  ``steps_per_generation`` > ``grad_accum_steps``) and reference log-probs (``beta`` != 0: a frozen copy of the
  policy for full fine-tuning, the policy with its adapter disabled for LoRA), no-grad forwards in chunks of
  ``micro_batch_size`` rows.
* **training**: per micro-step the policy forward over prompt + completion, TRL's fused chunked lm_head (the
  ``[B, S, V]`` logits never exist: trl/trainer/utils.py ``add_fused_lm_head``), the loss, backward and the optimizer
  step: the estimator's training model (``memory.estimate``) on that micro-step, plus what GRPO keeps beside it.

``step_time`` gives the seconds of each phase per optimizer step on a card, from the time model's efficiencies.

Scope (ESTIMATOR.md, "GRPO"): one GPU's memory, the trainer's DDP ranks alike; ZeRO/FSDP sharding is refused
(ZeRO-3 gathers the whole model for generation, not modelled yet). Every completion reaches ``completion_len`` (no
EOS: the memory worst case). Sliding-window layers are counted at the full length (``ModelArch`` carries no window:
an upper bound for Gemma 2/3, gpt-oss). Standard library only.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import memory, throughput
from .memory import (kbit_upcast_bytes, lora_adapter_bytes, master_copy_bytes, optimizer_state_bytes, weights_bytes)
from .models import Estimate, GpuSpec, GrpoGenerator, Method, ModelArch, Precision, TrainingSetup, replaced
from .params import base_fp32, count_params, head_dim, wrapped_linears

__all__ = ["GrpoEstimate", "training_setup", "kv_bytes_per_token", "generation_rows", "steps_per_generation",
           "estimate", "estimate_json", "vllm_pool", "step_time", "training_estimate", "VLLM_PROFILE_TOKENS",
           "VLLM_SERVE_UTILIZATION"]

#: vLLM's profile run at start-up: TRL passes ``max_num_batched_tokens=4096`` to the colocated ``LLM``
#: (trl/generation/vllm_generation.py 1.16.0, ``LLM(..., max_num_batched_tokens=4096)``), so vLLM profiles one
#: forward of 4096 tokens to size its activation share.
VLLM_PROFILE_TOKENS = 4096
#: ``trl vllm-serve``'s own ``gpu_memory_utilization`` default (trl/scripts/vllm_serve.py 1.16.0 ScriptArguments)
VLLM_SERVE_UTILIZATION = 0.9
_INT64 = 8
_FP32 = 4


@dataclass(frozen=True, kw_only=True)
class GrpoEstimate:
    """Per-GPU allocated bytes of each phase on the trainer's GPU (``phases``, with their terms), the peak and its
    phase, the resident part, and the vLLM pool when there is one."""

    phases: dict[str, dict[str, int]]
    peak_phase: str
    peak_allocated_bytes: int
    resident_bytes: int
    generation_rows: int
    old_logps: bool
    vllm: dict[str, Any] | None


def steps_per_generation(s: TrainingSetup) -> int:
    """Micro-steps one generation feeds: ``grpo_steps_per_generation``, else TRL's default ``grad_accum_steps``."""
    return s.grpo_steps_per_generation if s.grpo_steps_per_generation is not None else s.grad_accum_steps


def generation_rows(s: TrainingSetup) -> int:
    """Rows one generation makes on this GPU: ``per_device_train_batch_size`` x ``steps_per_generation``
    (grpo_config.py ``generation_batch_size`` over ``num_processes``)."""
    return s.micro_batch_size * steps_per_generation(s)


def training_setup(s: TrainingSetup) -> TrainingSetup:
    """The micro-step TRL trains: ``micro_batch_size`` completions of ``prompt_len + completion_len`` tokens
    through the fused chunked lm_head (trl/trainer/grpo_trainer.py 1.16.0 ``add_fused_lm_head``, applied in
    ``__init__``: no [B, S, V] logits), attention without a mask (unpadded rows: transformers' SDPA runs the flash
    backend with GQA, which the estimator calls ``flash``)."""
    return replaced(s, seq_len=s.grpo_prompt_len + s.grpo_completion_len, fused_linear_cross_entropy=True,
                    chunked_cross_entropy=False, dpo=False, precompute_ref_log_probs=False)


def kv_bytes_per_token(m: ModelArch, *, latent: bool, dtype_bytes: int = 2) -> int:
    """KV-cache bytes of one token over every layer. Grouped-query attention: 2 x kv heads x head_dim per layer.
    Multi-head latent attention: transformers' DeepseekV3Attention caches the expanded per-head key
    (``qk_nope + qk_rope``) and value (``v_head_dim``) of every head; vLLM's MLA backend caches the compressed latent
    (``kv_lora_rank + qk_rope_head_dim``, one tensor) (``latent=True``)."""
    if m.kv_lora_rank:
        if latent:
            per_layer = m.kv_lora_rank + m.qk_rope_head_dim
        else:
            per_layer = m.num_attention_heads * (m.qk_nope_head_dim + m.qk_rope_head_dim + m.v_head_dim)
    else:
        per_layer = 2 * m.num_key_value_heads * head_dim(m)
    return per_layer * m.num_hidden_layers * dtype_bytes


def _ref_copy_bytes(s: TrainingSetup) -> float:
    """``beta`` != 0 with full fine-tuning: a frozen copy of the policy in its load dtype (grpo_trainer.py 1.16.0
    ``__init__``: ``self.ref_model = create_model_from_path(...)`` when ``beta != 0`` and the model is not a PEFT
    model); LoRA/QLoRA use the policy with the adapter disabled (``use_adapter(model, None)``): no copy."""
    if s.grpo_beta == 0.0 or s.method is not Method.FULL:
        return 0.0
    p = count_params(s.model).total
    return float(p * (4 if s.precision in (Precision.FP32, Precision.MIXED) else 2))


def _resident(s: TrainingSetup) -> dict[str, int]:
    """What every phase holds from the first optimizer step on: the policy's weights (and adapters, fp32 master,
    QLoRA's upcasts), the AdamW state, the reference copy. ``zero_grad(set_to_none=True)`` leaves no gradient."""
    return {"weights": int(weights_bytes(s) + kbit_upcast_bytes(s) + lora_adapter_bytes(s)),
            "master_copy": int(master_copy_bytes(s)),
            "optimizer_states": int(optimizer_state_bytes(s)),
            "reference_model": int(_ref_copy_bytes(s))}


def _rollout_bytes(s: TrainingSetup, old: bool) -> int:
    """The rollout buffer kept from generation to the last micro-step that uses it: prompt and completion ids and
    masks (int64 [R, P] and [R, C] each), and the fp32 [R, C] per-token log-probs (old, reference) and [R]
    advantages."""
    r = generation_rows(s)
    logps = (1 if old else 0) + (1 if s.grpo_beta != 0.0 else 0)
    ids_and_masks = r * (s.grpo_prompt_len + s.grpo_completion_len) * 2 * _INT64
    return ids_and_masks + r * s.grpo_completion_len * _FP32 * logps + r * _FP32


def _hf_generation(s: TrainingSetup) -> dict[str, int]:
    """transformers ``generate`` of the whole generation batch (trl/trainer/grpo_trainer.py 1.16.0
    ``_generate_single_turn``, ``use_vllm=False``) at the larger of its prefill (``_prefill_transient`` beside the
    prompts' cache) and its last decode step, where the cache is longest:

    * the ``DynamicCache`` of R rows at P + C tokens (transformers ``DynamicLayer.update``: ``torch.cat`` per
      layer, so the layer being updated holds its old key next to the new one for a moment);
    * the decoding layer's attention: SDPA with a mask expands the cached key and value to every query head
      (transformers ``repeat_kv``, none when kv heads = heads);
    * the last position's logits and the sampler's fp32 copies (``logits_to_keep=1``: R x V x (4 + 4) bytes);
    * full fine-tuning under ``mixed`` precision: accelerate's autocast wraps the forward, and its cache holds a
      16-bit copy of every fp32 weight during each decode forward (``memory.autocast_copy_bytes``).

    The cache's dtype is the forward's: 16-bit for a 16-bit model (the key fp32 under autocast over fp32 weights, see
    below); fp32 for an fp32 model, and for an fp32 LoRA base, whose ``generate`` PEFT runs through the base model's own forward, outside accelerate's autocast
    (the oracle's README, "What one GRPO cycle allocates")."""
    m = s.model
    r = generation_rows(s)
    tokens = s.grpo_prompt_len + s.grpo_completion_len
    cb = 4 if s.precision is Precision.FP32 or base_fp32(s) else 2
    # fp32 weights under autocast: the residual stream is fp32, so the rotary cos/sin are too
    # (``cos.to(dtype=x.dtype)``) and ``q * cos`` promotes the 16-bit key to fp32: an fp32 key, a 16-bit value
    kb = 4 if s.method is Method.FULL and s.precision is Precision.MIXED else cb
    if m.kv_lora_rank:
        key_w, value_w, heads_w = (m.num_attention_heads * (m.qk_nope_head_dim + m.qk_rope_head_dim),
                                   m.num_attention_heads * m.v_head_dim, 0)
    else:
        d = head_dim(m)
        key_w = value_w = m.num_key_value_heads * d
        heads_w = m.num_attention_heads * d if m.num_attention_heads != m.num_key_value_heads else 0
    per_token = m.num_hidden_layers * (key_w * kb + value_w * cb)
    kv = r * tokens * per_token
    one_key = r * tokens * key_w * kb
    repeat = r * tokens * heads_w * (kb + cb)
    logits = r * m.vocab_size * (_FP32 + _FP32)
    casts = memory.autocast_copy_bytes(s) if s.method is Method.FULL else 0.0
    decode = {"kv_cache": int(kv + one_key), "decode_transients": int(repeat + logits + casts)}
    prefill = {"kv_cache": int(r * s.grpo_prompt_len * per_token),
               "prefill_transients": int(_prefill_transient(s, cb) + casts)}
    return decode if sum(decode.values()) >= sum(prefill.values()) else prefill


def _prefill_transient(s: TrainingSetup, cb: int) -> float:
    """The prefill forward of the R prompts (no grad, ``T = R x P`` tokens) at its widest point, the MLP: transformers'
    ``down_proj(act_fn(gate_proj(x)) * up_proj(x))`` holds ``act(gate)``, ``up`` and their product (3 x [T, i]);
    with a LoRA adapter on ``up_proj`` PEFT's ``LoraLayer.forward`` adds ``lora_B(lora_A(x)) * scaling`` to the base
    output, so ``act(gate)``, the base output, ``lora_B``'s output and its scaled copy are alive at once (4 x [T, i]);
    plus the residual stream and the normalised input ([T, h] each)."""
    m = s.model
    t = generation_rows(s) * s.grpo_prompt_len
    width = max(m.intermediate_size, (m.moe_intermediate_size or 0) * m.num_experts_per_tok)
    lora_mlp = s.method is not Method.FULL and "up_proj" in s.lora_targets
    return t * width * cb * (4 if lora_mlp else 3) + 2 * t * m.hidden_size * cb


def vllm_pool(s: TrainingSetup, card_bytes: int | None) -> dict[str, Any] | None:
    """A vLLM engine's claim on its GPU and what its KV pool holds (vLLM v1 ``Worker.determine_available_memory``:
    requested memory = ``gpu_memory_utilization`` x the card's total memory; the KV cache gets what the weights and
    the profile run's peak leave of it; ``kv_cache_utils.check_enough_kv_cache_memory`` refuses to start when the
    pool cannot hold one ``max_model_len`` sequence: ``vllm_max_model_length``, else prompt + completion). The weights are vLLM's own 16-bit copy (TRL syncs the merged
    policy into it), the profile run one forward of ``VLLM_PROFILE_TOKENS`` tokens: its largest layer working set
    (the MLP's gate, up and product) and the hidden states. ``max_num_seqs`` is TRL's
    ``per_device_train_batch_size x vllm_tensor_parallel_size x steps_per_generation`` (grpo_trainer.py 1.16.0)."""
    if s.grpo_generator is GrpoGenerator.TRANSFORMERS or card_bytes is None:
        return None
    m = s.model
    colocated = s.grpo_generator is GrpoGenerator.VLLM_COLOCATE
    claim = int((s.vllm_gpu_memory_utilization if colocated else VLLM_SERVE_UTILIZATION) * card_bytes)
    weights = count_params(m).total * 2
    rows = generation_rows(s)
    width = max(m.intermediate_size, (m.moe_intermediate_size or 0) * m.num_experts_per_tok)
    # the profile forward: gate, up and their product of one layer and the hidden states (16-bit), and the fp32
    # logits of max_num_seqs sampled rows (vLLM v1 GPUModelRunner.profile_run: _dummy_run + _dummy_sampler_run)
    profile = VLLM_PROFILE_TOKENS * (3 * width + 4 * m.hidden_size) * 2 + rows * m.vocab_size * _FP32
    pool = max(0, claim - weights - profile)
    per_token = kv_bytes_per_token(m, latent=True)
    per_seq = (s.grpo_prompt_len + s.grpo_completion_len) * per_token
    longest = (s.vllm_max_model_length or s.grpo_prompt_len + s.grpo_completion_len) * per_token
    at_once = pool // per_seq
    return {"claim_bytes": claim, "weights_bytes": weights, "profile_bytes": profile, "kv_pool_bytes": pool,
            "kv_bytes_per_sequence": per_seq, "sequences_at_once": int(at_once), "max_num_seqs": rows,
            "max_model_len_bytes": longest, "holds_one_sequence": pool >= longest,
            "holds_generation_batch": at_once >= rows,
            "on_trainer_gpu": colocated}


def _trl_head_bytes(ts: TrainingSetup) -> tuple[float, float]:
    """TRL's fused chunked lm_head on the ``N = micro_batch_size x completion_len`` completion positions
    (trl/trainer/utils.py 1.16.0 ``add_fused_lm_head``: ``hidden_states[mask]`` gathered, then
    trl/kernels/chunked_logprob.py ``ChunkedLogProbFunction``), in place of a plain loss's logits: (forward end,
    backward start). The forward leaves the gathered hidden states ([N, h], saved for backward), five fp32 [N]
    statistics and the fp32 per-token log-probs and entropies scattered back to [B, S]. Its backward
    (chunked_logprob.py:394-458) allocates an fp32 ``grad_hidden`` [N, h], an fp32 ``grad_weight`` [V, h] when the
    lm_head trains (full fine-tuning), one ``[min(N, TOKEN_CHUNK_SIZE=4096), _CHUNKED_LOGPROB_CHUNK_SIZE=32768]``
    tile in the compute dtype (utils.py:1506, chunked_logprob.py:31, 413), and at its end casts both gradients to
    their inputs' dtype while the fp32 ones are still alive."""
    m = ts.model
    h, v = m.hidden_size, m.vocab_size
    cb = 4 if ts.precision is Precision.FP32 else 2
    n = ts.micro_batch_size * ts.grpo_completion_len
    rows = ts.micro_batch_size * ts.seq_len
    fwd = n * h * cb + 5 * n * _FP32 + 2 * rows * _FP32
    bwd = fwd + n * h * (_FP32 + cb) + min(n, 4096) * 32768 * cb
    if ts.method is Method.FULL:
        bwd += v * h * (_FP32 + cb)
    return float(fwd), float(bwd)


def training_estimate(s: TrainingSetup) -> Estimate:
    """The GRPO training micro-step (``training_setup``): the estimator's training model (calculator/memory.py) with
    TRL's fused head in place of the logits (``_trl_head_bytes``). The answer's headline figures are this estimate's,
    and the ``training`` phase's ``training_step`` term is its allocated peak."""
    ts = training_setup(s)
    return memory.estimate(ts, logits=_trl_head_bytes(ts))


def estimate(s: TrainingSetup, card_bytes: int | None = None) -> GrpoEstimate:
    """Every phase's allocated bytes on the trainer's GPU, its terms, and the peak."""
    train_s = training_setup(s)
    old = s.grpo_num_iterations > 1 or steps_per_generation(s) > s.grad_accum_steps
    resident = _resident(s)
    rollout = _rollout_bytes(s, old)
    vllm = vllm_pool(s, card_bytes)
    held_vllm = vllm["claim_bytes"] if vllm and vllm["on_trainer_gpu"] else 0
    awake = 0 if s.vllm_enable_sleep_mode else held_vllm      # sleep(level=2) outside generation frees the claim
    base = {**resident, "rollout_data": rollout}
    phases: dict[str, dict[str, int]] = {}
    if s.grpo_generator is GrpoGenerator.TRANSFORMERS:
        phases["generation"] = {**base, **_hf_generation(s)}
    else:
        phases["generation"] = {**base, "vllm": held_vllm}
    if old or s.grpo_beta != 0.0:
        # a no-grad forward of micro_batch_size rows (checkpointing disabled): one layer's working set and the
        # gathered hidden states of the fused head, no saved activations
        work = memory.recompute_bytes(replaced(train_s, gradient_checkpointing=True)) + _trl_head_bytes(train_s)[0]
        phases["scoring"] = {**base, "forward": int(work), "vllm": awake}
    phases["training"] = {"reference_model": resident["reference_model"], "rollout_data": rollout,
                          "training_step": training_estimate(s).allocated_bytes, "vllm": awake}
    totals = {name: sum(t.values()) for name, t in phases.items()}
    peak_phase = max(phases, key=lambda k: (totals[k], k == "training"))
    return GrpoEstimate(phases=phases, peak_phase=peak_phase, peak_allocated_bytes=totals[peak_phase],
                        resident_bytes=sum(resident.values()) + rollout, generation_rows=generation_rows(s),
                        old_logps=old, vllm=vllm)


def estimate_json(s: TrainingSetup, card_bytes: int | None = None) -> dict[str, Any]:
    """The answer's ``grpo`` block: each phase's allocated bytes and terms (trainer's GPU), the peak and its phase,
    what stays resident, the generation batch, and the vLLM engine's claim and pool when there is one."""
    e = estimate(s, card_bytes)
    return {"peak_allocated_bytes": e.peak_allocated_bytes, "peak_phase": e.peak_phase,
            "resident_bytes": e.resident_bytes, "generation_rows": e.generation_rows,
            "steps_per_generation": steps_per_generation(s), "old_log_probs": e.old_logps,
            "reference": ("frozen_copy" if s.method is Method.FULL else "adapter_disabled") if s.grpo_beta else "none",
            "training_seq_len": s.grpo_prompt_len + s.grpo_completion_len,
            "phases": [{"phase": name, "allocated_bytes": sum(terms.values()), "terms": dict(terms)}
                       for name, terms in e.phases.items()],
            "vllm": e.vllm}


#: Kernels of one decode step outside the decoder layers: the embedding lookup (1), the final RMSNorm (8, as a
#: layer's), lm_head on the last position (1), and the sampler (fp32 cast, temperature, softmax, multinomial, the
#: stop checks and the concatenation of the new token: about 10). A count, for host time only.
_DECODE_KERNELS_OUTSIDE = 20


def step_time(s: TrainingSetup, gpu: GpuSpec, k: throughput.TimeCoefficients = throughput.COEFFICIENTS
              ) -> dict[str, Any]:
    """Seconds of one optimizer step by phase on ``gpu``, from the time model's own efficiencies (throughput.py:
    the sustained matmul share and bandwidth of the card, the host time per kernel, their combination), none fitted
    here. ``TimeNotModelled`` where throughput.check refuses.

    * generation: the prefill of the R prompts (its matmuls at the sustained peak, or the weights at the bandwidth),
      then ``C`` decode steps, each reading every weight once (or its FLOPs, ``2 x params x R``, at the peak, if
      slower) and the KV cache of the rows at their length then, at the sustained bandwidth; host time per decode
      step: the forward's kernels (``throughput._KERNELS_FWD_BASE`` per layer, PEFT's 5 per adapter) with
      transformers ``generate``, none with vLLM (CUDA graphs);
    * scoring: the no-grad forwards of the R rows (a third of the training FLOPs);
    * training: ``throughput.step_time`` of the GRPO micro-step (prompt + completion), the existing model.

    A generation feeds ``steps_per_generation x num_iterations`` micro-steps: per optimizer step of
    ``grad_accum_steps`` micro-steps, generation and scoring run ``grad_accum_steps / that`` times. A vLLM server
    generates on its own GPUs while the trainer waits (TRL 1.16 does not overlap them)."""
    throughput.check(s, gpu)
    m = s.model
    mm = gpu.peak_tflops * 1e12 * throughput.matmul_share(gpu, k)
    bw = gpu.memory_gb_s * 1e9 * k.bandwidth_efficiency
    r, p, c = generation_rows(s), s.grpo_prompt_len, s.grpo_completion_len
    params = count_params(m).total
    cb = 4 if base_fp32(s) else 2
    weights = params * cb
    kv_token = kv_bytes_per_token(m, latent=s.grpo_generator is not GrpoGenerator.TRANSFORMERS, dtype_bytes=cb)
    hf = s.grpo_generator is GrpoGenerator.TRANSFORMERS
    kernels = (m.num_hidden_layers * throughput._KERNELS_FWD_BASE + _DECODE_KERNELS_OUTSIDE
               + throughput._KERNELS_LORA_FWD * sum(copies for _n, _i, _o, copies in wrapped_linears(s))
               * (s.method is not Method.FULL)) if hf else 0
    host = kernels * k.kernel_launch_s
    prefill = max(2.0 * params * r * p / mm, weights / bw) + r * p * kv_token / bw
    per_step = max(2.0 * params * r / mm, weights / bw)
    kv_read = r * kv_token * (c * p + c * (c + 1) / 2) / bw          # the cache at P + 1 ... P + C tokens
    decode_gpu = c * per_step + kv_read
    generation = throughput._combine(prefill, host, k.overlap_p) + c * throughput._combine(decode_gpu / c, host,
                                                                                           k.overlap_p)
    train_s = training_setup(s)
    t = throughput.step_time(throughput.step_counts(train_s, gpu), gpu, k)
    old = s.grpo_num_iterations > 1 or steps_per_generation(s) > s.grad_accum_steps
    passes = (1 if old else 0) + (1 if s.grpo_beta else 0)
    scoring = passes * (t.step_s - t.optimizer_s) / s.grad_accum_steps * steps_per_generation(s) / 3.0
    per_step = s.grad_accum_steps / (steps_per_generation(s) * s.grpo_num_iterations)
    phases = {"generation": generation * per_step, "scoring": scoring * per_step, "training": t.step_s}
    return {"seconds": phases, "step_s": sum(phases.values()), "dominant": max(phases, key=phases.__getitem__),
            "generation_bound": "host" if hf and host > decode_gpu / c else
            "bandwidth" if max(2.0 * params * r / mm, weights / bw) == weights / bw else "compute",
            "generations_per_step": per_step}
