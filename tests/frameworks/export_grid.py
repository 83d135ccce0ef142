"""The export grid: every value of every axis at least once, and every (method, sharding, offload, GPU count) the
estimator accepts — full / LoRA / QLoRA, each with and without DPO, x 1 / 2 / 8 GPUs x none / FSDP2 / ZeRO-2 /
ZeRO-3 x CPU offload — plus one request per optimizer, attention kind, precision and switch. Requests the estimator
refuses are kept apart (``REFUSED``): the exporter must refuse them too.
"""
from __future__ import annotations

import itertools
from typing import Any

from calculator import api
from calculator.errors import InputError
from calculator.models import Attention, Optimizer, Precision
from calculator.page.text import STRING_TABLES

MODELS = ("llama-3.1-8b", "qwen2.5-7b", "mistral-7b-v0.3")
GPUS = ("h100-80gb", "a100-80gb", "rtx-4090", "v100-32gb", "mi300x", "l4", "rtx-a6000")
METHODS = (("full", False), ("lora", False), ("qlora", False), ("full", True), ("lora", True), ("qlora", True))
SHARDINGS = {"none": {}, "fsdp2": {"sharding": "zero3"}, "zero2": {"sharding": "zero2", "deepspeed": True},
             "zero3": {"sharding": "zero3", "deepspeed": True}}
CUSTOM_MODEL = {"model_type": "llama", "hidden_size": 1024, "num_hidden_layers": 4, "num_attention_heads": 8,
                "num_key_value_heads": 4, "intermediate_size": 2816, "vocab_size": 32000}


def _accepted(req: dict[str, Any]) -> bool:
    try:
        api.parse_request(req)
    except InputError:
        return False
    return True


def _build() -> tuple[list[tuple[str, dict[str, Any]]], list[tuple[str, dict[str, Any]]]]:
    grid: list[tuple[str, dict[str, Any]]] = []
    refused: list[tuple[str, dict[str, Any]]] = []
    for i, ((method, dpo), gpus, (sname, shard), offload) in enumerate(
            itertools.product(METHODS, (1, 2, 8), SHARDINGS.items(), (False, True))):
        req: dict[str, Any] = {"model": MODELS[i % len(MODELS)], "method": method, "dpo": dpo, "num_gpus": gpus,
                               "gpu": GPUS[i % len(GPUS)], "gradient_checkpointing": i % 2 == 0,
                               "grad_accum_steps": 1 + (i % 3) * 3, **shard}
        if offload:
            req["cpu_offload"] = True
            if sname == "zero3" and gpus == 8:
                req["offload_params"] = True
        rid = f"{method}{'-dpo' if dpo else ''}-{gpus}gpu-{sname}{'-offload' if offload else ''}"
        (grid if _accepted(req) else refused).append((rid, req))
    base = {"model": "llama-3.1-8b", "method": "lora", "gpu": "h100-80gb"}
    extras: list[tuple[str, dict[str, Any]]] = []
    extras += [(f"optimizer-{o.value}", dict(base, optimizer=o.value)) for o in Optimizer]
    extras += [(f"attention-{a.value}", dict(base, attention=a.value)) for a in Attention]
    for p in Precision:
        for m in ("full", "lora", "qlora"):
            extras.append((f"precision-{p.value}-{m}", dict(base, method=m, precision=p.value)))
    extras += [
        ("base-fp32-lora", dict(base, precision="mixed", base_fp32=True)),
        ("base-fp32-qlora", dict(base, method="qlora", precision="mixed", base_fp32=True)),
        ("activation-offloading", dict(base, gradient_checkpointing=True, activation_offloading=True)),
        ("offloading-without-checkpointing", dict(base, activation_offloading=True)),
        ("packing", dict(base, packing=True, seq_len=4096, micro_batch_size=4)),
        ("torch-compile", dict(base, torch_compile=True)),
        ("chunked-ce", dict(base, chunked_cross_entropy=True)),
        ("fused-ce", dict(base, fused_linear_cross_entropy=True)),
        ("lora-dropout", dict(base, lora_dropout=0.1, lora_rank=64)),
        ("lora-dropout-dpo", dict(base, lora_dropout=0.1, dpo=True)),
        ("qlora-no-double-quant", dict(base, method="qlora", double_quant=False)),
        ("lora-attention-only", dict(base, lora_targets=["q_proj", "v_proj"])),
        ("lora-with-lm-head", dict(base, lora_targets=["all-linear", "lm_head"])),
        ("dpo-precompute", dict(base, dpo=True, precompute_ref_log_probs=True, method="full")),
        ("fsdp-accumulate-no-sync", dict(base, num_gpus=4, sharding="zero3", grad_accum_steps=8,
                                         no_sync_accumulation=True)),
        ("fsdp-accumulate-sync", dict(base, num_gpus=4, sharding="zero3", grad_accum_steps=8)),
        ("zero1", dict(base, num_gpus=2, sharding="zero1", deepspeed=True)),
        ("zero3-bucket", dict(base, num_gpus=2, sharding="zero3", deepspeed=True, reduce_bucket_size=16_777_216)),
        ("fsdp-frozen-grads", dict(base, num_gpus=2, sharding="zero3", frozen_param_grads=True)),
        ("keeps-logits", dict(base, keeps_logits=True)),
        ("optimizer-in-backward", dict(base, method="full", optimizer_in_backward=True)),
        ("torchao-qlora", dict(base, method="qlora", qlora_backend="torchao")),
        ("quantized-lm-head", dict(base, method="qlora", quantize_lm_head=True)),
        ("dequant-cast", dict(base, method="qlora", dequant_cast=True)),
        ("untie-embeddings", dict(base, untie_embeddings=True, model="llama-3.2-1b")),
        ("fractional-epochs", dict(base, epochs=0.5)),
        ("lora-bf16-adapters", dict(base, lora_dtype="bf16")),
        ("dpo-packing", dict(base, dpo=True, packing=True)),
        ("long-sequence", dict(base, seq_len=32768, gradient_checkpointing=True, attention="flash")),
        ("custom-model", dict(base, model=CUSTOM_MODEL)),
        ("unsloth-cli-subset", dict(base, method="qlora", optimizer="adamw_8bit", gradient_checkpointing=True,
                                    activation_offloading=True, epochs=2.0)),
        ("no-gpu-chosen", {"model": "qwen2.5-7b", "method": "qlora"}),
        # GRPO (issue 41): TRL writes GRPOConfig, each generator; the other targets refuse the objective
        ("grpo-lora-offloading", dict(base, grpo=True, micro_batch_size=2, grad_accum_steps=4,
                                      gradient_checkpointing=True, activation_offloading=True)),
        ("grpo-full-beta-iterations", dict(base, method="full", grpo=True, micro_batch_size=4, grad_accum_steps=2,
                                           grpo_beta=0.04, grpo_num_iterations=2, grpo_loss_type="grpo")),
        ("grpo-qlora-colocate", dict(base, method="qlora", grpo=True, micro_batch_size=8,
                                     grpo_generator="vllm_colocate", vllm_gpu_memory_utilization=0.5,
                                     vllm_enable_sleep_mode=True, vllm_max_model_length=2048,
                                     grpo_steps_per_generation=2, grpo_completion_len=1024)),
        ("grpo-lora-server-2gpu", dict(base, grpo=True, num_gpus=2, micro_batch_size=4,
                                       grpo_generator="vllm_server", vllm_max_model_length=4096)),
    ]
    for rid, req in extras:
        (grid if _accepted(req) else refused).append((rid, req))
    return grid, refused


GRID, REFUSED = _build()


def words(lang: str) -> dict[str, str]:
    """The comment words of the files in one language, as the page and the CLI pass them (the string table's
    ``calc.run.comments``)."""
    import json
    table = json.loads((STRING_TABLES / f"{lang}.json").read_text(encoding="utf-8"))
    return dict(table["calc"]["run"]["comments"])
