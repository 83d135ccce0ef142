"""The time model's counts against hand-derivable cases, and its JSON/CLI boundary.

Counts (calculator/throughput.step_counts) are checked with the textbook formulas written out here, never with the
module's own helpers: a decoder layer's linear weights come from the config (4·h² + 3·h·i for a Llama layer without
GQA), 2 FLOPs per weight per token per matmul pass.
"""
from __future__ import annotations

import math
import statistics
from bisect import bisect_left
from dataclasses import replace

import pytest

from calculator.catalog import GPUS, MODELS
from calculator.models import ALL_LINEAR, Attention, Method, ModelArch, Optimizer, Precision, Sharding, TrainingSetup
from calculator.throughput import (
    COEFFICIENTS,
    Workload,
    computed_tokens_per_example,
    matmul_share,
    run_time,
    step_counts,
    step_time,
    throughput,
)

pytestmark = pytest.mark.unit

A100 = GPUS["a100-80gb"]
# A small Llama-shaped model: MHA, gated MLP, tied embeddings -> every weight of a layer is in one of 7 matmuls.
TOY = ModelArch(id="custom", name="toy", family="toy", hidden_size=512, num_hidden_layers=4, num_attention_heads=8,
                num_key_value_heads=8, intermediate_size=1536, vocab_size=1000, tie_word_embeddings=True)
H, I, L, V = 512, 1536, 4, 1000
LAYER_LINEAR = 4 * H * H + 3 * H * I          # q, k, v, o (h x h each) + gate, up, down (h x i each)
HEAD = H * V


def _setup(**kw) -> TrainingSetup:
    base = dict(model=TOY, method=Method.FULL, precision=Precision.BF16, micro_batch_size=2, seq_len=256)
    base.update(kw)
    return TrainingSetup(**base)


def _matmul_flops(s: TrainingSetup) -> float:
    return sum(f for f, _ in step_counts(s, A100).matmuls)


def test_full_finetune_linear_flops_are_six_n_tokens() -> None:
    """Forward 2·N, backward 4·N (input and weight gradients) per token, N = every matmul weight."""
    s = _setup()
    tokens = 2 * 256
    assert _matmul_flops(s) == pytest.approx(6 * (L * LAYER_LINEAR + HEAD) * tokens, rel=1e-12)


def test_checkpointing_adds_exactly_one_forward_of_the_layers() -> None:
    s = _setup()
    gc = replace(s, gradient_checkpointing=True)
    tokens = 2 * 256
    assert _matmul_flops(gc) - _matmul_flops(s) == pytest.approx(2 * L * LAYER_LINEAR * tokens, rel=1e-12)
    # layers alone: 8·N with recompute against 6·N without (the head is not recomputed)
    layers = 6 * L * LAYER_LINEAR * tokens
    assert (_matmul_flops(gc) - 6 * HEAD * tokens) / layers == pytest.approx(8 / 6, rel=1e-12)


def test_lora_saves_the_weight_gradients_of_the_frozen_base() -> None:
    """Frozen weights need forward and input gradient only: 4·N instead of 6·N; the adapters add 6·r·(din+dout)."""
    r = 8
    lora = _setup(method=Method.LORA, lora_rank=r, lora_targets=ALL_LINEAR)
    tokens = 2 * 256
    adapters = L * r * (4 * (H + H) + 2 * (H + I) + (I + H))
    expected = 4 * (L * LAYER_LINEAR + HEAD) * tokens + 6 * adapters * tokens
    assert _matmul_flops(lora) == pytest.approx(expected, rel=1e-12)
    full = _setup()
    base_share = (_matmul_flops(lora) - 6 * adapters * tokens) / _matmul_flops(full)
    assert base_share == pytest.approx(4 / 6, rel=1e-12)


def test_lora_with_checkpointing_is_one_and_a_half_times_the_frozen_count() -> None:
    lora = _setup(method=Method.LORA, lora_rank=1, lora_targets=("q_proj",))
    gc = replace(lora, gradient_checkpointing=True)
    tokens = 2 * 256
    frozen_layers = 4 * L * LAYER_LINEAR * tokens
    adapters_fwd = 2 * L * 1 * (H + H) * tokens
    assert _matmul_flops(gc) - _matmul_flops(lora) == pytest.approx(frozen_layers / 2 + adapters_fwd, rel=1e-12)


def test_attention_flops_follow_the_kernel() -> None:
    """Flash/SDPA: 4·s/2·a·d per token forward (causal half), backward 2.5x; eager: 4·s·a·d, backward 2x."""
    s_len, b = 1024, 2
    flash = _setup(seq_len=s_len, micro_batch_size=b, attention=Attention.FLASH)
    eager = replace(flash, attention=Attention.EAGER)
    tokens = b * s_len
    fwd_flash = 4 * tokens * (s_len / 2) * H * L          # a·d = h for this model
    assert step_counts(flash, A100).attention_flops == pytest.approx(fwd_flash * 3.5, rel=1e-12)
    assert step_counts(eager, A100).attention_flops == pytest.approx(2 * fwd_flash * 3.0, rel=1e-12)
    # per token, attention grows with the sequence: doubling it doubles the attention FLOPs per token
    longer = replace(flash, seq_len=2 * s_len, micro_batch_size=1)
    assert step_counts(longer, A100).attention_flops == pytest.approx(2 * step_counts(flash, A100).attention_flops)


def test_logits_layer_scales_with_the_vocabulary() -> None:
    big = replace(TOY, vocab_size=128_000)
    s, t = _setup(), _setup(model=big)
    tokens = 2 * 256
    assert _matmul_flops(t) - _matmul_flops(s) == pytest.approx(6 * H * (128_000 - V) * tokens, rel=1e-12)
    # frozen head (LoRA): forward and input gradient only
    sl, tl = replace(s, method=Method.LORA), replace(t, method=Method.LORA)
    assert _matmul_flops(tl) - _matmul_flops(sl) == pytest.approx(4 * H * (128_000 - V) * tokens, rel=1e-12)


def test_dpo_doubles_the_sequences_and_adds_a_reference_forward() -> None:
    s = _setup(method=Method.LORA, lora_rank=4, lora_targets=("q_proj",))
    dpo = replace(s, dpo=True)
    pre = replace(dpo, precompute_ref_log_probs=True)
    base = step_counts(s, A100)
    assert step_counts(dpo, A100).tokens == 2 * base.tokens
    # precomputed reference log-probs: exactly twice the work of SFT on the same pairs
    assert step_counts(pre, A100).total_flops == pytest.approx(2 * base.total_flops, rel=1e-12)
    # the reference forward of a LoRA policy is the base model (adapters off): 2·N per token
    ref = 2 * (L * LAYER_LINEAR + HEAD) * 2 * base.tokens
    ref_att = 4 * (2 * base.tokens) * (256 / 2) * H * L
    assert step_counts(dpo, A100).total_flops - step_counts(pre, A100).total_flops == pytest.approx(
        ref + ref_att, rel=1e-12)


def test_qlora_dequantises_every_decoder_linear_in_each_pass() -> None:
    s = _setup(method=Method.QLORA, lora_rank=4, double_quant=False)
    per_pass = L * LAYER_LINEAR * (0.5 + 4 / 64 + 2.0)      # read NF4 and the fp32 absmax (one per 64), write 16-bit
    assert step_counts(s, A100).dequant_bytes == pytest.approx(2 * per_pass)
    assert step_counts(replace(s, gradient_checkpointing=True), A100).dequant_bytes == pytest.approx(3 * per_pass)
    assert step_counts(replace(s, method=Method.LORA), A100).dequant_bytes == 0


def test_optimizer_sweep_counts_the_foreach_passes() -> None:
    """foreach AdamW on bf16 parameters: 20 two-byte accesses per parameter, plus reading the gradients to clip."""
    s = _setup()
    n = L * (LAYER_LINEAR + 2 * H) + V * H + H              # every parameter (two norms a layer, tied embedding)
    assert step_counts(s, A100).optimizer_bytes == pytest.approx(n * (20 * 2 + 2))
    fused = replace(s, optimizer=Optimizer.ADAMW_TORCH_FUSED)
    assert step_counts(fused, A100).optimizer_bytes == pytest.approx(n * (7 * 2 + 2))


def test_communication_of_ddp_and_zero3() -> None:
    n = L * (LAYER_LINEAR + 2 * H) + V * H + H
    ddp = _setup(num_gpus=4)
    c = step_counts(ddp, A100)
    assert c.comm_step_bytes == pytest.approx(2 * 3 / 4 * n * 2)          # ring all-reduce of bf16 gradients
    assert c.link_kind == "nvlink" and c.link_gb_s == A100.interconnect_gb_s
    z3 = replace(ddp, sharding=Sharding.ZERO3)
    # all-gather the bf16 weights for forward and backward, reduce-scatter the bf16 gradients
    assert step_counts(z3, A100).comm_bytes == pytest.approx(3 / 4 * n * 2 * 3)
    assert step_counts(z3, GPUS["rtx-4090"]).link_kind == "pcie"
    c16 = step_counts(replace(z3, num_gpus=16), A100)     # two nodes: NVLink inside each, the network between
    # a ring leaves each node once, over all 8 of its adapters (one ring per adapter): 8 x the per-GPU figure
    assert c16.link_kind == "nvlink" and c16.inter_gb_s == 8 * A100.network_gb_s
    assert step_counts(replace(z3, num_gpus=8), A100).inter_gb_s == 0.0
    assert step_counts(replace(z3, num_gpus=8, gpus_per_node=4, internode_gb_s=3.0), A100).inter_gb_s == 4 * 3.0


def test_a_second_node_never_makes_the_collectives_faster() -> None:
    """The node model (issue 19, reliability review F2): 70B full ZeRO-3 on PCIe cards went 3.3x faster per GPU from 8
    to 16 cards when beyond 8 the network link replaced PCIe at full efficiency; the slower of the node's PCIe and
    the network now bounds every collective, so per-GPU speed does not rise (but for the optimizer's 1/N share)."""
    from calculator.throughput import setup_tokens_per_second
    s = TrainingSetup(model=MODELS["llama-3.1-70b"], method=Method.FULL, precision=Precision.BF16, seq_len=2048,
                      micro_batch_size=1, gradient_checkpointing=True, sharding=Sharding.ZERO3, num_gpus=8)
    card = GPUS["rtx-6000-ada"]
    per_gpu = {n: setup_tokens_per_second(replace(s, num_gpus=n), card) / n for n in (8, 16, 32)}
    assert per_gpu[16] <= per_gpu[8] * 1.05 and per_gpu[32] <= per_gpu[16] * 1.05, per_gpu
    # a slower network between nodes of 4 makes 8 cards slower than one node of 8
    slow = setup_tokens_per_second(replace(s, gpus_per_node=4, internode_gb_s=1.0), card) / 8
    assert slow < per_gpu[8]


def test_padding_model() -> None:
    s = _setup(seq_len=1_000_000, micro_batch_size=1)
    assert computed_tokens_per_example(s, 300) == 300                          # one example: no padding
    assert computed_tokens_per_example(replace(s, packing=True, micro_batch_size=8), 300) == 300
    # the longest of b exponential lengths has mean mean * H_b (harmonic number)
    for b, harmonic in ((2, 1.5), (4, 1 + 1 / 2 + 1 / 3 + 1 / 4)):
        got = computed_tokens_per_example(replace(s, micro_batch_size=b), 300)
        assert got == pytest.approx(300 * harmonic, rel=1e-3)
    # truncation at seq_len
    assert computed_tokens_per_example(_setup(seq_len=256, micro_batch_size=4), 5000) <= 256


def test_time_grows_with_work_and_falls_with_a_faster_card() -> None:
    s = _setup(model=MODELS["llama-3.1-8b"], method=Method.QLORA, gradient_checkpointing=True, seq_len=2048)
    slow, fast = throughput(s, GPUS["rtx-3090"]), throughput(s, GPUS["h100-80gb"])
    assert fast["tokens_per_second_per_gpu"] > slow["tokens_per_second_per_gpu"] > 0
    assert 0 < slow["mfu"] < 1 and 0 < fast["mfu"] < 1
    lo, hi = slow["range"]
    assert lo < slow["tokens_per_second_per_gpu"] < hi
    w1, w2 = Workload(dataset_tokens=10**6), Workload(dataset_tokens=3 * 10**6, epochs=2)
    r1, r2 = run_time(s, GPUS["rtx-4090"], w1), run_time(s, GPUS["rtx-4090"], w2)
    assert r2["seconds"] == pytest.approx(6 * r1["seconds"])
    assert r1["gpu_hours"] == pytest.approx(r1["seconds"] / 3600)


def test_step_time_is_the_sum_of_its_parts_on_one_card() -> None:
    s = _setup(model=MODELS["llama-3.2-1b"], seq_len=4096)
    c = step_counts(s, A100)
    t = step_time(c, A100)
    host_and_gpu = (t.compute_s ** COEFFICIENTS.overlap_p + t.host_s ** COEFFICIENTS.overlap_p) ** (
        1 / COEFFICIENTS.overlap_p)
    assert t.comm_s == 0
    assert t.step_s == pytest.approx(host_and_gpu * c.micro_batches + t.optimizer_s, rel=1e-9)


def test_catalogue_speed_and_price_fields() -> None:
    for g in GPUS.values():
        assert g.peak_tflops and g.memory_gb_s and g.host_link_gb_s, g.id
        assert "https://" in g.speed_source, g.id
        if g.price_per_hour is None:
            assert not g.price_source and not g.price_date, g.id
        else:
            assert 0 < g.price_per_hour < 20 and "https://" in g.price_source, g.id
            assert len(g.price_date) == 10 and g.price_date[4] == g.price_date[7] == "-", g.id
        if g.interconnect_gb_s is not None:
            assert g.nvlink, g.id
    # the consumer card is slower than the data-centre flagship on every speed figure
    assert GPUS["rtx-4090"].peak_tflops < GPUS["h100-80gb"].peak_tflops
    assert math.isclose(GPUS["h200"].peak_tflops, GPUS["h100-80gb"].peak_tflops)   # same GH100 die


def test_roofline_by_bisection_equals_the_sum_of_maxima() -> None:
    """step_time times the matmul groups from their intensity-sorted sums; it must equal the plain roofline sum."""
    setups = [_setup(model=MODELS[m], method=meth) for m, meth in
              (("llama-3.1-8b", Method.QLORA), ("llama-2-7b", Method.FULL), ("llama-3.1-8b", Method.LORA))]
    setups.append(_setup(method=Method.LORA, micro_batch_size=1, seq_len=64))   # toy model: mostly memory-bound
    for s in setups:
        c = step_counts(s, A100)
        for gpu in GPUS.values():
            if not gpu.peak_tflops:
                continue
            mm = gpu.peak_tflops * 1e12 * matmul_share(gpu)
            bw = gpu.memory_gb_s * 1e9 * COEFFICIENTS.bandwidth_efficiency
            plain = sum(max(f / mm, b / bw) for f, b in c.matmuls)
            intensity, flops_from, bytes_before = c.roofline
            i = bisect_left(intensity, mm / bw)
            assert flops_from[i] / mm + bytes_before[i] / bw == pytest.approx(plain, rel=1e-12)


def test_flash_attention_2_sustains_less_of_a_hopper_cards_peak() -> None:
    """FlashAttention-2 paper (arXiv:2307.08691, sec. 4.1): forward + backward up to 230 TFLOPs/s on an A100 (312
    peak) and, with the same code, up to 335 TFLOPs/s on an H100 SXM5 (989 peak). The Hopper share is the ratio of
    the two utilisations; the attention seconds of a long sequence scale by its inverse, nothing else moves."""
    assert COEFFICIENTS.attention_hopper_share == pytest.approx((335 / 989) / (230 / 312), abs=0.005)
    s = _setup(model=MODELS["llama-3.2-1b"], attention=Attention.FLASH, seq_len=32768, micro_batch_size=1)
    h100 = GPUS["h100-80gb"]
    as_ampere = replace(h100, arch="ampere")          # the same card's figures, without the Hopper kernel penalty
    c = step_counts(s, h100)
    hopper, ampere = step_time(c, h100), step_time(c, as_ampere)
    t_att = c.attention_flops / (h100.peak_tflops * 1e12 * COEFFICIENTS.attention_efficiency)
    assert hopper.compute_s - ampere.compute_s == pytest.approx(
        t_att / COEFFICIENTS.attention_hopper_share - t_att, rel=1e-9)
    # at 32k tokens attention is most of a 1B model's step: the H100 is slower per attention FLOP than its peak says
    assert hopper.step_s > 1.5 * ampere.step_s
    # every Hopper card of the catalogue takes the share, no other card does
    assert {g.id for g in GPUS.values() if g.arch == "hopper"} >= {"h100-80gb", "h200"}
    assert step_time(step_counts(s, A100), A100).compute_s < step_time(
        step_counts(s, A100), replace(A100, arch="hopper")).compute_s


def test_a_ring_leaves_an_nvlink_node_once_over_all_its_adapters() -> None:
    """Ring all-gather of a tensor of S bytes over N = 16 GPUs in two nodes of 8: each GPU sends (N-1)/N x S to its
    ring neighbour; 2 of the ring's 16 hops cross a node boundary, so a node sends 8 x (N-1)/N x S x 2/16 = (N-1)/N x S
    across, split over its 8 adapters (NCCL builds one ring per adapter, NVIDIA/nccl#601). The network bounds a
    GPU's collective at 8 x its adapter share, whichever of that and NVLink (each at its efficiency) is slower. PCIe
    nodes keep the per-GPU adapter figure (no NVLink to spread the traffic over the node's adapters)."""
    n, g = 16, 8
    hops_across = 2 / n                                 # of the ring's n hops, one per node boundary
    node_sends = g * (n - 1) / n * hops_across          # node's outbound bytes per ring, in units of S
    assert node_sends == pytest.approx((n - 1) / n)     # = what one GPU sends in all: the per-GPU bound x g
    s = TrainingSetup(model=MODELS["llama-3.1-70b"], method=Method.FULL, precision=Precision.BF16, seq_len=2048,
                      micro_batch_size=1, gradient_checkpointing=True, sharding=Sharding.ZERO3, num_gpus=n)
    h100 = GPUS["h100-80gb"]
    c = step_counts(s, h100)
    assert c.inter_gb_s == pytest.approx(g * h100.network_gb_s)
    k = COEFFICIENTS
    link = min(h100.interconnect_gb_s * k.nvlink_efficiency, g * h100.network_gb_s * k.network_efficiency) * 1e9
    t = step_time(c, h100)
    total = c.comm_bytes / link
    hidden = k.comm_overlap * t.compute_s
    assert t.comm_s == pytest.approx(max(0.0, total - hidden) + (1 - k.comm_overlap) * min(total, hidden), rel=1e-9)
    pcie = GPUS["rtx-6000-ada"]
    assert step_counts(s, pcie).inter_gb_s == (pcie.network_gb_s or COEFFICIENTS.internode_gb_s)


def test_geforce_cards_sustain_their_whitepaper_peak_in_a_gemm() -> None:
    """zzc0721/torch-performance-test-data (torch.matmul bf16, best of 1024-10240 squares): GeForce cards reach their
    whitepaper bf16 (fp32-accumulate) peak -- RTX 4090 164.81 of 165.2 (#78), 3060 25.47 of 25.5 (#131), 3070 38.36
    of 40.6 (#171), 3080 64.68 of 59.5 (#114), 5090 median of 240.05/236.99/178.86 of 209.5 (#96/#124/#200) -- where
    the same benchmark gives an H100 SXM 797.51 of 989.4 (#79). The class ratio times pytorch/ao's 0.78 is the GeForce
    share; a compute-bound step's matmul seconds on a GeForce card scale by 0.78 / that share, a pro card keeps 0.78."""
    geforce = statistics.median([164.81 / 165.2, 25.47 / 25.5, 38.36 / 40.6, 64.68 / 59.5,
                                 statistics.median([240.05, 236.99, 178.86]) / 209.5])
    share = COEFFICIENTS.matmul_efficiency * geforce / (797.51 / 989.4)
    assert COEFFICIENTS.consumer_matmul_efficiency == pytest.approx(share, abs=0.005)
    assert matmul_share(GPUS["rtx-4090"]) == COEFFICIENTS.consumer_matmul_efficiency
    for pro in ("rtx-6000-ada", "l40s", "a100-80gb", "h100-80gb"):          # Ada pro cards and data-centre cards
        assert matmul_share(GPUS[pro]) == COEFFICIENTS.matmul_efficiency
    # a large compute-bound micro-batch: the matmul seconds scale by exactly the share ratio
    s = _setup(model=MODELS["llama-3.1-8b"], method=Method.FULL, micro_batch_size=8, seq_len=2048)
    gpu = GPUS["rtx-4090"]
    c = replace(step_counts(s, gpu), attention_flops=0.0, elementwise_bytes=0.0, loss_bytes=0.0, dequant_bytes=0.0,
                kernels=0.0, optimizer_bytes=0.0)
    as_pro = replace(COEFFICIENTS, consumer_matmul_efficiency=COEFFICIENTS.matmul_efficiency)
    ratio = step_time(c, gpu, as_pro).compute_s / step_time(c, gpu).compute_s
    assert ratio == pytest.approx(COEFFICIENTS.consumer_matmul_efficiency / COEFFICIENTS.matmul_efficiency, rel=1e-6)


# --- one count of LoRA-wrapped modules for memory and time (issue 39, point 6) ---------------------------------------
_MOE = sorted(k for k, m in MODELS.items() if m.num_local_experts > 0)


def _wrapped_modules(s: TrainingSetup) -> int:
    """nn.Linear modules PEFT wraps in the whole stack (every expert copy its own module), by memory's count."""
    from calculator.params import setup_targets
    return sum(n * sum(c for *_x, c in lins) for n, lins in setup_targets(s))


@pytest.mark.parametrize("name", _MOE)
@pytest.mark.parametrize("layout", ["per_expert", "fused"])
@pytest.mark.parametrize("method", [Method.LORA, Method.QLORA])
def test_time_wraps_the_modules_memory_wraps_under_every_expert_layout(name, layout, method):
    """Time's adapter matmuls come from the linears memory's trainable count wraps (params.setup_targets), expert
    layout included: under transformers 5's fused experts (3-D nn.Parameters) all-linear LoRA wraps no expert, so
    time must not count adapters on them. Time's LoRA FLOPs are linear in the rank: the difference between two ranks
    is 2 FLOPs x tokens x Δr x (d_in + d_out) x 3 passes per wrapped linear (a routed expert's copies weighted by the
    experts each token visits)."""
    from calculator.models import MoeLayout
    from calculator.params import setup_targets, trainable_params
    m = MODELS[name]
    s1 = TrainingSetup(model=m, method=method, moe_layout=MoeLayout(layout), lora_targets=ALL_LINEAR, lora_rank=8)
    s2 = replace(s1, lora_rank=16)
    M = step_counts(s1, A100).tokens
    per_rank = sum(n * sum((di + do) * (m.num_experts_per_tok if c > 1 else 1) for _x, di, do, c in lins)
                   for n, lins in setup_targets(s1))
    got = step_counts(s2, A100).total_flops - step_counts(s1, A100).total_flops
    assert got == pytest.approx(2.0 * M * 8 * per_rank * 3, rel=1e-9)
    # and memory's trainable count is r·(d_in + d_out) over the same modules
    assert trainable_params(s1) == sum(n * sum(8 * (di + do) * c for _x, di, do, c in lins)
                                       for n, lins in setup_targets(s1))
    assert _wrapped_modules(s1) > 0
