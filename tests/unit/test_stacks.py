"""The 2026 stacks as they run (issue 39). Point 2, MoE under transformers 5: whether a QLoRA quantises the fused 3-D
experts (bitsandbytes does not; Axolotl's ``quantize_moe_experts`` does), whether LoRA reaches them, what each
framework does by default, the answer's notes that say when a setup does not do what its name says, and the export
round trip of the switch. Point 3, Axolotl's FSDP2 without accelerate's fp32 upcast. Point 5, what one QLoRA
dequantisation moves and launches."""
from __future__ import annotations

from dataclasses import replace

import pytest

from calculator import api, frameworks
from calculator import memory as mem
from calculator import params
from calculator.export import answer_export, answer_read, export

pytestmark = pytest.mark.unit

#: Qwen3-30B-A3B (config.json): 48 layers, all MoE; 128 experts of width 768 over h = 2048, gated.
_Q3_EXPERTS = 48 * 128 * 3 * 2048 * 768


def parsed(**kw):
    return api.parse_request({"include": [], **kw})[0]


def _qlora(**kw):
    return parsed(model="qwen3-30b-a3b", method="qlora", moe_layout="fused", **kw)


def test_quantised_experts_are_counted_in_four_bits():
    """bitsandbytes leaves the fused experts 16-bit; Axolotl's replace_parameter_4bit quantises every one of them."""
    off, on = _qlora(), _qlora(quantize_experts=True)
    assert params.quantized_params(on) - params.quantized_params(off) == _Q3_EXPERTS
    assert params.experts_left_16bit(off) and not params.experts_left_16bit(on)
    # the weights drop by the experts' 16-bit bytes less their NF4 bytes (nf4 bits + double-quantised constants)
    per = 2 - (4 + params.nf4_const_bits(on)) / 8
    assert mem.weights_bytes(off) - mem.weights_bytes(on) == pytest.approx(_Q3_EXPERTS * per, rel=1e-9)


def test_quantised_experts_are_not_cast_by_the_kbit_preparation():
    """prepare_model_for_kbit_training casts what is not 4-bit: quantised experts leave that cast."""
    off, on = _qlora(kbit_upcast="all"), _qlora(kbit_upcast="all", quantize_experts=True)
    assert params.kbit_upcast_params(off) - params.kbit_upcast_params(on) == _Q3_EXPERTS


def test_the_switch_needs_qlora_fused_experts_and_bitsandbytes():
    for s in (parsed(model="qwen3-30b-a3b", method="lora", moe_layout="fused", quantize_experts=True),
              parsed(model="qwen3-30b-a3b", method="qlora", quantize_experts=True),            # per_expert
              parsed(model="llama-3.1-8b", method="qlora", moe_layout="fused", quantize_experts=True)):
        assert not params.experts_quantized(s)
        assert params.quantized_params(s) == params.quantized_params(replace(s, quantize_experts=False))


def test_dequantised_expert_stack_is_saved_per_live_layer():
    """A quantised expert is a parametrization: each MoE layer's whole (E, out, in) stack is dequantised in the
    compute dtype and saved for backward, like the merged weight of LoRA on fused experts."""
    on = _qlora(quantize_experts=True, gradient_checkpointing=False)
    per_layer = 2 * 128 * 3 * 2048 * 768
    assert mem._merged_expert_weight_bytes(on) == per_layer          # every layer of this model is MoE
    assert mem._merged_expert_weight_bytes(_qlora(gradient_checkpointing=False)) == 0


@pytest.mark.parametrize("model", ["qwen3-30b-a3b", "mixtral-8x7b", "gpt-oss-20b"])
def test_notes_say_what_a_fused_moe_setup_does_not_do(model):
    def notes(**kw):
        out = api.answer({"model": model, "moe_layout": "fused", "include": [], **kw})
        assert out["ok"], out
        return out["result"]["notes"]

    assert {"experts_not_quantized", "experts_not_adapted"} <= set(notes(method="qlora"))
    assert "experts_not_quantized" not in notes(method="qlora", quantize_experts=True)
    assert "experts_not_quantized" not in notes(method="lora")
    assert "experts_not_adapted" in notes(method="lora")
    assert "experts_not_adapted" not in notes(method="lora", lora_expert_params=True)
    assert not {"experts_not_quantized", "experts_not_adapted"} & set(notes(method="full"))
    out = api.answer({"model": model, "method": "qlora", "moe_layout": "per_expert", "include": []})
    assert not {"experts_not_quantized", "experts_not_adapted"} & set(out["result"]["notes"])


@pytest.mark.parametrize("framework", ["peft", "trl", "axolotl", "llamafactory"])
def test_every_transformers_5_framework_leaves_experts_16bit_and_unadapted_by_default(framework):
    d = frameworks.defaults(framework)
    assert (d["moe_layout"], d["quantize_experts"], d["lora_expert_params"]) == ("fused", False, False)
    out = api.answer({"model": "qwen3-30b-a3b", "method": "qlora", "framework": framework, "include": []})
    assert "experts_not_quantized" in out["result"]["notes"]


def test_axolotl_skips_the_kbit_preparation_when_it_quantises_the_experts():
    """loaders/model.py _prepare_model_for_quantization: _moe_experts_quantized skips prepare_model_for_kbit_training."""
    assert frameworks.defaults("axolotl", request={"method": "qlora"})["kbit_upcast"] == "all_but_embeddings"
    assert frameworks.defaults("axolotl", request={"method": "qlora", "quantize_experts": True})["kbit_upcast"] == "none"


def test_axolotl_writes_and_reads_quantize_moe_experts():
    """The file says quantize_moe_experts: true and names the targets (Axolotl refuses lora_target_linear beside it:
    schemas/config.py check_quantize_moe_experts); reading it back gives the switch."""
    request = {"model": "qwen3-30b-a3b", "method": "qlora", "lora_targets": "all-linear", "quantize_experts": True}
    out = answer_export({"request": request, "target": "axolotl"})
    assert out["ok"], out
    files = out["export"]["files"]
    yaml = next(text for name, text in files.items() if name.endswith((".yml", ".yaml")))
    assert "quantize_moe_experts: true" in yaml and "lora_target_linear" not in yaml
    back = answer_read({"target": "axolotl", "files": {n: v for n, v in files.items() if n != "measure.py"}})
    assert back["ok"], back
    assert back["read"]["request"]["quantize_experts"] is True


@pytest.mark.parametrize("target", ["trl", "llamafactory"])
def test_other_targets_say_they_leave_the_experts_16bit(target):
    e = export({"model": "qwen3-30b-a3b", "method": "qlora", "quantize_experts": True}, target)
    assert [(c.key, c.becomes, c.reason, c.what_to_do) for c in e.cannot_express if c.key == "quantize_experts"] == [
        ("quantize_experts", False, "bitsandbytes_skips_fused_experts", "use_axolotl_quantize_experts")]


def test_the_notes_have_words_in_both_languages():
    import json
    from pathlib import Path
    for lang in ("en", "ar"):
        table = json.loads((Path(api.__file__).parent / "strings" / f"{lang}.json").read_text(encoding="utf-8"))
        notes = table["calc"]["notes"]
        assert "0.15" in notes["experts_not_quantized"] and "quantize_moe_experts" in notes["experts_not_quantized"]
        assert "target_parameters" in notes["experts_not_adapted"]


# --- QLoRA time (issue 39, point 5): what one dequantisation moves and launches, from bitsandbytes 0.50.2 ------------
def test_a_double_quantised_dequantisation_launches_three_kernels():
    """functional.py dequantize_4bit: a nested quant state first dequantises the 8-bit absmax to fp32
    (dequantize_blockwise) and adds the offset, then kDequantizeBlockwise runs: 3 kernels instead of 1."""
    from calculator import throughput as tp
    nested = parsed(model="llama-3.1-8b", method="qlora", double_quant=True, precision="bf16")
    plain = replace(nested, double_quant=False)
    torchao = parsed(model="llama-3.1-8b", method="qlora", qlora_backend="torchao", precision="bf16")
    assert (tp.dequant_kernels(nested), tp.dequant_kernels(plain), tp.dequant_kernels(torchao)) == (3, 1, 1)
    # the host-side count: two more kernels per 4-bit linear and pass (forward and backward, no checkpointing)
    linears = sum(k.count * len(k.linears) for k in params.count_params(nested.model).kinds)
    assert tp.setup_counts(nested).kernels - tp.setup_counts(plain).kernels == 2 * linears * 2


def test_a_dequantisation_reads_its_constants_and_double_quantisation_passes_over_them():
    """functional.py dequantize_4bit: kDequantizeBlockwise reads the NF4 code (1/2 byte) and one fp32 absmax per 64
    weights and writes the compute dtype; a nested state first makes that fp32 absmax from the 8-bit one
    (dequantize_blockwise: read 1/64 and the fp32 constants per 256 of them, write 4/64) and adds the offset in place
    (read and write 4/64 each). torchao's NF4 counts the code and the written weight only."""
    from calculator import throughput as tp
    nested = parsed(model="llama-3.1-8b", method="qlora", double_quant=True, precision="bf16")
    plain = replace(nested, double_quant=False)
    torchao = parsed(model="llama-3.1-8b", method="qlora", qlora_backend="torchao", precision="bf16")
    assert tp.dequant_bytes_per_param(plain) == pytest.approx(0.5 + 0.0625 + 2)
    assert tp.dequant_bytes_per_param(nested) == pytest.approx(0.5 + (0.015625 + 4 / 16384 + 0.0625 + 0.125)
                                                               + 0.0625 + 2)
    assert tp.dequant_bytes_per_param(torchao) == pytest.approx(2.5)
    # every 4-bit weight pays it in each pass (forward and input gradient, no checkpointing here)
    n = params.quantized_params(nested)
    assert tp.setup_counts(nested).dequant_bytes - tp.setup_counts(plain).dequant_bytes == pytest.approx(
        n * 2 * (0.015625 + 4 / 16384 + 0.125 + 0.0625), rel=1e-9)


# --- Axolotl's FSDP2 (issue 39, point 3): what Axolotl 0.21 passes to accelerate and FSDP2 ------------------------------
def _gpt_oss_20b_fsdp2_offload(**kw):
    """examples/gpt-oss/gpt-oss-20b-fft-fsdp2-offload.yaml at commit 067b021 (the config, not its README): FSDP2 with
    offload_params, micro-batch 1, 4096 tokens packed, gradient accumulation 2, checkpointing and activation
    offloading, adamw_torch_fused, bf16, Cut Cross-Entropy."""
    return api.answer({"model": "gpt-oss-20b", "framework": "axolotl", "method": "full", "num_gpus": 8,
                       "sharding": "zero3", "fsdp_version": 2, "cpu_offload": True, "offload_params": True,
                       "micro_batch_size": 1, "seq_len": 4096, "grad_accum_steps": 2, "gradient_checkpointing": True,
                       "activation_offloading": True, "optimizer": "adamw_torch_fused", "packing": True,
                       "fused_linear_cross_entropy": True, "gpu": "h100-80gb", "include": [], **kw})


def test_axolotl_fsdp2_keeps_the_load_dtype():
    """Axolotl replaces accelerate's fsdp2_prepare_model (patch_accelerate_fsdp2) with one without the fp32 upcast of
    trainable parameters: a bf16 full fine-tune keeps bf16 weights and gradients; the gradients held unsharded
    across the no_sync micro-batch (transformers Trainer + accelerate no_sync -> set_requires_gradient_sync(False);
    torch FSDP2 keeps each unsharded grad) are bf16, half of what the upcast regime counted."""
    assert frameworks.defaults("axolotl")["fsdp2_upcast"] == "none"
    assert frameworks.defaults("trl")["fsdp2_upcast"] == "trainable"
    axolotl, upcast = _gpt_oss_20b_fsdp2_offload(), _gpt_oss_20b_fsdp2_offload(fsdp2_upcast="trainable")
    assert axolotl["ok"] and upcast["ok"]
    g, g32 = axolotl["result"]["breakdown_bytes"]["gradients"], upcast["result"]["breakdown_bytes"]["gradients"]
    assert g == pytest.approx(g32 / 2) and g == pytest.approx(2 * axolotl["result"]["trainable_params"], rel=1e-6)


def test_fused_experts_run_one_grouped_pass_and_dequantise_only_when_quantised():
    """transformers 5.24 grouped_mm_experts_forward: 17 forward kernels for the routed experts whatever their number
    (the dense gated MLP counts 5); a fused expert is no Linear4bit, so it launches a dequantisation only when the
    framework quantised it (Axolotl's parametrization)."""
    from calculator import throughput as tp
    from calculator.params import count_params, held_arch
    s = _qlora()
    moe = count_params(held_arch(s)).kinds[0]
    fwd, calls = tp.moe_expert_kernels(s, moe, 2048)
    assert fwd == 17 - 5
    assert [calls(x) for x in moe.linears] == [1, 1, 1, 1, 0, 0, 0]          # q, k, v, o; the three expert tensors
    _, calls_q = tp.moe_expert_kernels(_qlora(quantize_experts=True), moe, 2048)
    assert [calls_q(x) for x in moe.linears] == [1] * 7
    dense = count_params(held_arch(parsed(model="llama-3.1-8b", method="qlora"))).kinds[0]
    assert tp.moe_expert_kernels(parsed(model="llama-3.1-8b", method="qlora"), dense, 2048)[0] == 0


def test_a_dequantisation_writes_every_copy_the_memory_model_holds():
    """The bytes a dequantisation writes are the copies memory.dequant_bytes_per_weight holds (one home): Lightning
    Fabric's fp16-quantised weight cast to bf16 (dequant_cast) writes two 16-bit copies; TRL's fp32 compute dtype
    writes the 16-bit dequantised weight, its fp32 cast and, under autocast, the 16-bit cast again."""
    from calculator import throughput as tp
    base = parsed(model="llama-3.1-8b", method="qlora", double_quant=False, precision="bf16")
    const = 0.5 + 4 / 64
    assert tp.dequant_bytes_per_param(replace(base, dequant_cast=True)) == pytest.approx(const + 4)
    trl = parsed(model="llama-3.1-8b", method="qlora", double_quant=False, precision="mixed",
                 qlora_compute_dtype="fp32")
    assert tp.dequant_bytes_per_param(trl) == pytest.approx(const + mem.dequant_bytes_per_weight(trl))
    assert mem.dequant_bytes_per_weight(trl) > 2
