"""GRPO (issue 41, calculator/rl.py): the request keys and their checks, the phases' terms from TRL 1.16's and
transformers' source computed by hand here, the colocated vLLM's claim (vLLM's accounting), the exports that cannot
write GRPO yet, and the CLI. The phases against the oracle's traces are tests/accuracy/test_grpo_traces.py."""
from __future__ import annotations

from typing import Any

import pytest

from calculator import api, rl
from calculator.__main__ import main
from calculator.catalog import GPUS, MODELS
from calculator.export import TARGETS, answer_export, answer_read

pytestmark = pytest.mark.unit


def grpo(**request: Any) -> dict[str, Any]:
    out = api.answer({"model": "llama-3.1-8b", "grpo": True, "micro_batch_size": 8, "include": [], **request})
    assert out["ok"], out
    return out["result"]


def phases(result: dict[str, Any]) -> dict[str, dict[str, int]]:
    return {p["phase"]: p["terms"] for p in result["grpo"]["phases"]}


def errors(request: dict[str, Any]) -> list[tuple[str, str | None]]:
    out = api.answer({"model": "llama-3.1-8b", "include": [], **request})
    assert out["ok"] is False, out
    return [(e["code"], e["field"]) for e in out["errors"]]


# --- the request keys ------------------------------------------------------------------------------------------------
def test_a_request_without_grpo_reads_as_before() -> None:
    """Old links, exports and imports carry no GRPO key: the objective stays SFT (or DPO), no ``grpo`` block, and
    the GRPO keys' defaults change nothing."""
    plain = api.answer({"model": "llama-3.1-8b", "method": "lora", "include": []})["result"]
    with_defaults = api.answer({"model": "llama-3.1-8b", "method": "lora", "include": [], "grpo": False,
                                "grpo_completion_len": 4096, "grpo_beta": 0.5})["result"]
    assert "grpo" not in plain and "grpo" not in with_defaults
    assert plain["peak_bytes_per_gpu"] == with_defaults["peak_bytes_per_gpu"]
    assert plain["inputs"]["grpo"] is False and plain["inputs"]["grpo_generator"] == "transformers"


@pytest.mark.parametrize(("request_", "expected"), [
    ({"grpo": True, "dpo": True, "micro_batch_size": 8}, ("contradiction", "grpo")),
    ({"grpo": True, "micro_batch_size": 8, "num_gpus": 2, "sharding": "zero3"}, ("contradiction", "grpo")),
    # TRL grpo_config.py __post_init__: the generation batch (8 x 1 x 1 rows) must be a multiple of num_generations
    ({"grpo": True, "micro_batch_size": 8, "grpo_num_generations": 3}, ("contradiction", "grpo_num_generations")),
    ({"grpo": True, "micro_batch_size": 8, "grpo_generator": "vllm_colocate"}, ("contradiction", "grpo_generator")),
])
def test_rules_that_span_keys_name_the_field(request_: dict[str, Any], expected: tuple[str, str]) -> None:
    assert errors(request_)[0] == expected


def test_bad_values_are_codes_with_their_field() -> None:
    found = errors({"grpo": True, "micro_batch_size": 8, "grpo_beta": -1, "grpo_loss_type": "ppo",
                    "grpo_num_generations": 1, "vllm_gpu_memory_utilization": 1.5, "grpo_completion_len": "long",
                    "grpo_generator": "sglang", "grpo_steps_per_generation": 0})
    assert set(found) == {("out_of_range", "grpo_beta"), ("unknown_value", "grpo_loss_type"),
                          ("out_of_range", "grpo_num_generations"),
                          ("out_of_range", "vllm_gpu_memory_utilization"), ("wrong_type", "grpo_completion_len"),
                          ("unknown_value", "grpo_generator"), ("out_of_range", "grpo_steps_per_generation")}


def test_the_generation_batch_counts_every_gpu() -> None:
    """4 per device x 2 GPUs x 1 step = 8 rows: a multiple of 8 generations, though one GPU's 4 rows are not."""
    assert api.answer({"model": "llama-3.1-8b", "grpo": True, "micro_batch_size": 4, "num_gpus": 2,
                       "include": []})["ok"]


def test_trl_framework_fills_grpoconfig_defaults_with_their_source() -> None:
    out = api.answer({"model": "llama-3.1-8b", "framework": "trl", "grpo": True, "include": []})
    assert out["ok"], out
    filled = {d["key"]: d for d in out["result"]["framework"]["defaults"]}
    assert filled["grpo_completion_len"]["value"] == 512
    assert "grpo_config.py:494" in filled["grpo_completion_len"]["source"]
    assert filled["gradient_checkpointing"]["value"] is True        # GRPOConfig: on by default
    assert filled["grpo_generator"]["value"] == "transformers"      # use_vllm=False
    sft = api.answer({"model": "llama-3.1-8b", "framework": "trl", "include": []})["result"]["framework"]
    assert not [d for d in sft["defaults"] if d["key"].startswith(("grpo", "vllm_"))]   # only GRPO requests


# --- the phases' terms ----------------------------------------------------------------------------------------------
def test_kv_cache_of_the_whole_generation_batch_gqa() -> None:
    """Llama 3.1 8B (32 layers, 8 kv heads of 128), 4 completions per micro-step x 4 steps per generation = 16 rows
    of 512 + 4096 tokens, bf16: K and V of every layer, plus the updated layer's old key during ``torch.cat``."""
    r = grpo(micro_batch_size=4, grad_accum_steps=4, grpo_prompt_len=512, grpo_completion_len=4096)
    assert r["grpo"]["generation_rows"] == 16
    cache = 16 * 4608 * (32 * 2 * 8 * 128 * 2)
    one_key = 16 * 4608 * 8 * 128 * 2
    assert phases(r)["generation"]["kv_cache"] == cache + one_key
    # SDPA's repeat_kv expands the decoding layer's K and V to all 32 query heads; the sampler's fp32 logits
    assert phases(r)["generation"]["decode_transients"] == 2 * 16 * 4608 * 32 * 128 * 2 + 16 * 128256 * 8


def test_kv_per_token_mla_hf_expands_vllm_keeps_the_latent() -> None:
    """DeepSeek-V2-Lite (27 layers, 16 heads, nope 128 + rope 64, v 128, kv_lora_rank 512): transformers caches
    every head's expanded key and value, vLLM's MLA backend the 512 + 64 latent."""
    m = MODELS["deepseek-v2-lite"]
    assert rl.kv_bytes_per_token(m, latent=False) == 27 * 16 * (128 + 64 + 128) * 2
    assert rl.kv_bytes_per_token(m, latent=True) == 27 * (512 + 64) * 2


def test_reference_model_full_copy_only_for_full_fine_tuning_with_beta() -> None:
    params = api.answer({"model": "llama-3.1-8b", "include": []})["result"]["params"]
    full = phases(grpo(grpo_beta=0.04))
    assert full["training"]["reference_model"] == full["generation"]["reference_model"] == params * 2   # bf16 copy
    assert phases(grpo(grpo_beta=0.0))["training"]["reference_model"] == 0
    lora = grpo(method="lora", grpo_beta=0.04)
    assert phases(lora)["training"]["reference_model"] == 0 and lora["grpo"]["reference"] == "adapter_disabled"


def test_scoring_only_when_a_rollout_is_reused_or_beta() -> None:
    assert "scoring" not in phases(grpo())
    reused = grpo(grpo_num_iterations=2)
    assert "scoring" in phases(reused) and reused["grpo"]["old_log_probs"] is True
    more_steps = grpo(micro_batch_size=4, grad_accum_steps=2, grpo_steps_per_generation=4)
    assert more_steps["grpo"]["old_log_probs"] is True and more_steps["grpo"]["generation_rows"] == 16
    assert "scoring" in phases(grpo(grpo_beta=0.1))


def test_the_optimizer_state_is_resident_at_generation() -> None:
    """TRL issue #2972 ("40 GB at step 1, out of memory at step 2"): from the first optimizer step on, generation
    runs beside the AdamW state; the peak is the largest phase."""
    r = grpo(grpo_completion_len=4096)
    gen = phases(r)["generation"]
    assert gen["optimizer_states"] == r["breakdown_bytes"]["optimizer_states"] > 0
    totals = {p["phase"]: p["allocated_bytes"] for p in r["grpo"]["phases"]}
    assert r["grpo"]["peak_allocated_bytes"] == max(totals.values()) == totals[r["grpo"]["peak_phase"]]


def test_the_training_step_is_the_prompt_plus_completion() -> None:
    a = grpo(grpo_prompt_len=256, grpo_completion_len=768, seq_len=100)
    b = grpo(grpo_prompt_len=256, grpo_completion_len=768, seq_len=9000)
    assert a["grpo"]["training_seq_len"] == 1024
    assert a["grpo"]["phases"] == b["grpo"]["phases"]          # seq_len is not used by GRPO


# --- vLLM -----------------------------------------------------------------------------------------------------------
def test_colocated_vllm_claims_its_share_of_the_card_in_every_phase() -> None:
    """vLLM v1 Worker.determine_available_memory: requested memory = gpu_memory_utilization x total memory."""
    card = GPUS["h100-80gb"].memory_bytes
    r = grpo(method="lora", gpu="h100-80gb", grpo_generator="vllm_colocate", vllm_gpu_memory_utilization=0.4)
    claim = int(0.4 * card)
    assert r["grpo"]["vllm"]["claim_bytes"] == claim
    assert all(terms["vllm"] == claim for terms in phases(r).values())
    assert "kv_cache" not in phases(r)["generation"]             # vLLM generates, not transformers
    assert r["grpo"]["vllm"]["sequences_at_once"] >= 1
    asleep = grpo(method="lora", gpu="h100-80gb", grpo_generator="vllm_colocate", vllm_gpu_memory_utilization=0.4,
                  vllm_enable_sleep_mode=True)
    assert phases(asleep)["training"]["vllm"] == 0 and phases(asleep)["generation"]["vllm"] == claim


def test_vllm_pool_that_cannot_hold_one_sequence_is_refused_with_its_reason() -> None:
    """0.1 x 80 GB cannot hold Llama 3.1 8B's 16 GB of weights: vLLM's check_enough_kv_cache_memory refuses."""
    out = api.answer({"model": "llama-3.1-8b", "grpo": True, "micro_batch_size": 8, "gpu": "h100-80gb",
                      "grpo_generator": "vllm_colocate", "vllm_gpu_memory_utilization": 0.1, "include": []})
    assert out["ok"] is False
    assert out["error"] == {"code": "unsupported_on_gpu", "field": "vllm_gpu_memory_utilization",
                            "reason": "vllm_pool_below_one_sequence"}


def test_vllm_server_costs_the_trainer_gpu_nothing() -> None:
    r = grpo(method="lora", gpu="h100-80gb", grpo_generator="vllm_server")
    assert all(terms.get("vllm", 0) == 0 for terms in phases(r).values())
    assert r["grpo"]["vllm"]["on_trainer_gpu"] is False


def test_the_card_verdict_is_the_grpo_peak() -> None:
    r = grpo(gpu="h100-80gb", grpo_completion_len=4096)
    assert r["gpu"]["share_of_memory"] == r["grpo"]["peak_bytes_per_gpu"] / GPUS["h100-80gb"].memory_bytes
    assert "throughput" not in r and "run" not in r          # the supervised time is not GRPO's
    assert r["grpo"]["time"]["step_s"] == sum(r["grpo"]["time"]["seconds"].values())


# --- exports, imports, CLI --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("target", [t for t in TARGETS if t != "trl"])
def test_the_targets_without_a_grpo_export_say_so(target: str) -> None:
    out = answer_export({"request": {"model": "llama-3.1-8b", "method": "lora", "grpo": True, "micro_batch_size": 8},
                         "target": target})
    assert out["ok"], out
    assert any(c["key"] == "grpo" and c["becomes"] is False for c in out["export"]["cannot_express"])


def test_a_grpo_config_reads_as_grpo_not_as_dpo() -> None:
    out = answer_read({"target": "trl", "files": {"config.yaml": "model_name_or_path: Qwen/Qwen2.5-0.5B\nbeta: 0.04\n"
                                                                  "loss_type: dapo\nnum_generations: 8\n"}})
    assert out["ok"], out
    req = out["read"]["request"]
    assert req.get("grpo") is True and req.get("dpo") in (None, False)
    assert req["grpo_num_generations"] == 8 and req["grpo_beta"] == 0.04 and req["grpo_loss_type"] == "dapo"


def test_cli_prints_the_phases(capsys) -> None:
    assert main(["--model", "llama-3.1-8b", "--method", "lora", "--grpo", "--micro-batch-size", "8",
                 "--grpo-completion-len", "2048", "--gpu", "h100-80gb", "--grpo-generator", "vllm_colocate"]) == 0
    out = capsys.readouterr().out
    assert "+ GRPO" in out and "GRPO, phase by phase" in out and "Generation" in out and "vLLM's key-value pool" in out


def test_generation_dtype_follows_the_forward() -> None:
    """An fp32 LoRA base (TRL's default load dtype) generates outside autocast (PEFT's generate calls the base
    model's forward): an fp32 cache, twice the 16-bit one; full fine-tuning under autocast keeps a 16-bit cache and
    adds the autocast cache's 16-bit copy of every fp32 weight (2 B per parameter)."""
    bf16 = phases(grpo(method="lora"))["generation"]["kv_cache"]
    fp32_base = phases(grpo(method="lora", precision="mixed", base_fp32=True))["generation"]["kv_cache"]
    assert fp32_base == 2 * bf16
    # full fine-tuning with fp32 weights under autocast: the fp32 residual stream makes RoPE promote the key to fp32
    # (K 4 B, V 2 B, as the oracle's grpo_extra X02 trace counts), and repeat_kv copies both
    mixed, pure = grpo(precision="mixed", micro_batch_size=8, grpo_completion_len=4096), grpo(grpo_completion_len=4096)
    rows, tokens = 8, 512 + 4096
    assert phases(mixed)["generation"]["kv_cache"] == rows * tokens * (32 * 8 * 128 * (4 + 2) + 8 * 128 * 4)
    extra = phases(mixed)["generation"]["decode_transients"] - phases(pure)["generation"]["decode_transients"]
    assert extra == 2 * mixed["params"] + rows * tokens * 32 * 128 * 2     # the weights' 16-bit copies; the fp32 K


def test_a_short_completion_peaks_at_the_prefill() -> None:
    """64 rows of 2048-token prompts and 16-token completions: the prefill's MLP (act(gate), up and their product,
    3 x [T, i] with T = 64 x 2048, Llama 3.1 8B's i = 14336, bf16) beside the prompts' cache outweighs the last
    decode step."""
    r = grpo(micro_batch_size=8, grad_accum_steps=8, grpo_prompt_len=2048, grpo_completion_len=16)
    gen = phases(r)["generation"]
    t = 64 * 2048
    assert gen["prefill_transients"] == t * 14336 * 2 * 3 + 2 * t * 4096 * 2
    assert gen["kv_cache"] == t * 32 * 2 * 8 * 128 * 2


# --- time by phase --------------------------------------------------------------------------------------------------
def test_vllm_decode_reads_the_weights_and_the_cache_each_step() -> None:
    """Llama 3.1 8B on an H100 SXM (989.4 TFLOPS, 3,350 GB/s; the time model's sustained shares 0.78 and 0.92), a
    vLLM server, 8 rows of 512 + 1024 tokens: every decode step reads the 16-bit weights once (2 x 8 rows x params
    FLOPs take far less at the peak) and the cache of the 8 rows at its length then; no host term (CUDA graphs)."""
    params = api.answer({"model": "llama-3.1-8b", "include": []})["result"]["params"]
    r = grpo(gpu="h100-80gb", grpo_generator="vllm_server", grpo_prompt_len=512, grpo_completion_len=1024)
    bw, mm = 3350e9 * 0.92, 989.4e12 * 0.78
    kv = 32 * 2 * 8 * 128 * 2
    prefill = max(2 * params * 8 * 512 / mm, 2 * params / bw) + 8 * 512 * kv / bw
    decode = 1024 * 2 * params / bw + 8 * kv * (1024 * 512 + 1024 * 1025 / 2) / bw
    t = r["grpo"]["time"]
    assert t["seconds"]["generation"] == pytest.approx(prefill + decode, rel=1e-9)
    assert t["generation_bound"] == "bandwidth" and t["dominant"] == "generation"


def test_transformers_generate_pays_the_host_per_decode_step() -> None:
    hf = grpo(method="lora", gpu="h100-80gb", grpo_completion_len=1024)["grpo"]["time"]
    vllm = grpo(method="lora", gpu="h100-80gb", grpo_completion_len=1024, grpo_generator="vllm_server")["grpo"]["time"]
    assert hf["seconds"]["generation"] > vllm["seconds"]["generation"]
    assert hf["seconds"]["training"] == vllm["seconds"]["training"]


def test_one_generation_feeds_steps_per_generation_times_num_iterations_micro_steps() -> None:
    once = grpo(micro_batch_size=4, grad_accum_steps=2, grpo_steps_per_generation=4, gpu="h100-80gb")["grpo"]["time"]
    assert once["generations_per_step"] == 0.5
    reused = grpo(micro_batch_size=8, grad_accum_steps=1, grpo_num_iterations=2, gpu="h100-80gb")["grpo"]["time"]
    assert reused["generations_per_step"] == 0.5 and reused["seconds"]["scoring"] > 0


def test_the_headline_is_the_grpo_training_step() -> None:
    """One figure for the training micro-step: the answer's allocated peak is the training phase's step (the TRL
    fused head in place of the logits), not a supervised step of the same length."""
    r = grpo(model="llama-3.2-1b", grpo_prompt_len=256, grpo_completion_len=2048, gradient_checkpointing=True)
    assert r["allocated_bytes"] == phases(r)["training"]["training_step"]
    sft = api.answer({"model": "llama-3.2-1b", "micro_batch_size": 8, "seq_len": 2304,
                      "gradient_checkpointing": True, "fused_linear_cross_entropy": True, "include": []})["result"]
    # at the end of the forward: a Liger-style fused loss keeps tokens x h x (2 + 4) and lm_head's bf16 gradient
    # (8 x 2304 x 2048 x 6 + 128256 x 2048 x 2); TRL's keeps the gathered completion states, five fp32 statistics per
    # completion token and the [B, S] fp32 log-probs and entropies (16384 x 2048 x 2 + 5 x 16384 x 4 + 2 x 18432 x 4)
    liger = 8 * 2304 * 2048 * 6 + 128256 * 2048 * 2
    trl = 16384 * 2048 * 2 + 5 * 16384 * 4 + 2 * 18432 * 4
    assert sft["phases_allocated_bytes"]["forward"] - r["phases_allocated_bytes"]["forward"] == liger - trl


def test_vllm_must_hold_its_max_model_length_once() -> None:
    """TRL passes ``vllm_max_model_length`` to vLLM, which refuses to start when its pool cannot hold one sequence of
    that length: Llama 3.1 8B at 0.35 x 80 GiB (29.9 GB) less its 16.1 GB of weights leaves a pool of about 13 GB,
    less than one 131,072-token sequence (131,072 x 128 KiB = 17.2 GB), though it holds many of 512 + 512."""
    ok = grpo(gpu="h100-80gb", grpo_generator="vllm_colocate", vllm_gpu_memory_utilization=0.35)
    assert ok["grpo"]["vllm"]["holds_one_sequence"] and ok["grpo"]["vllm"]["sequences_at_once"] > 8
    assert errors({"grpo": True, "micro_batch_size": 8, "gpu": "h100-80gb", "grpo_generator": "vllm_colocate",
                   "vllm_gpu_memory_utilization": 0.35, "vllm_max_model_length": 131072}) == [
        ("unsupported_on_gpu", "vllm_gpu_memory_utilization")]
    assert errors({"grpo": True, "micro_batch_size": 8, "vllm_max_model_length": 1000}) == [
        ("contradiction", "vllm_max_model_length")]
