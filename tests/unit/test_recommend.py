"""Verdicts, the smallest setup, remedies in the guide's order, and the inverse solver."""
from __future__ import annotations

from dataclasses import replace

import pytest

from calculator import api
from calculator import recommend as rec
from calculator.catalog import GPUS, MODELS
from calculator.memory import estimate
from calculator.models import Attention, Method, Optimizer, Precision, Sharding, TrainingSetup

pytestmark = pytest.mark.unit

S = TrainingSetup(model=MODELS["llama-2-7b"])
GPU = GPUS["rtx-4090"]


@pytest.mark.parametrize("share,verdict", [(0.5, "comfortable"), (0.85, "comfortable"), (0.86, "tight"),
                                           (0.9, "tight"), (0.95, "at_edge"), (1.0, "at_edge"), (1.01, "at_edge"),
                                           (1.11, "at_edge"), (1.12, "does_not_fit")])
def test_headroom_rule(share: float, verdict: str) -> None:
    """Issue 42, point 5: the card's memory inside the peak's likely range (+-10 %) is "at the edge", not "tight" at
    100 % and "does not fit" at 101 %."""
    assert rec.verdict(int(share * 1_000_000), 1_000_000) == verdict


def test_the_edge_is_the_answers_own_range() -> None:
    """One rule: a card whose memory lies between the answer's range low and high gets ``at_edge``, and the verdict
    carries that range as shares of the card; just outside it, tight or does not fit."""
    r = api.answer({"model": "llama-2-7b", "method": "lora", "gpu": "rtx-4090"})["result"]
    low, high = r["range"]["low_bytes"], r["range"]["high_bytes"]
    for memory, expected in ((low, "at_edge"), (high, "at_edge"), (high + 1, "tight"), (low - 1, "does_not_fit")):
        assert rec.verdict(r["peak_bytes_per_gpu"], memory) == expected, memory
    g = r["gpu"]
    assert g["range_share"] == [round(low / g["memory_bytes"], 4), round(high / g["memory_bytes"], 4)]


def test_what_fits_never_lands_at_the_edge() -> None:
    """The remedies, the inverse solver and the smallest setup promise "fits" only when the whole range fits (the
    review's "Shorter sequences (5,808 tokens) ... fits" at 100 % of the card)."""
    s = replace(S, method=Method.QLORA, seq_len=32768)
    n = rec.max_seq_len(s, GPU)
    assert rec.verdict(estimate(replace(s, seq_len=n)).peak_bytes, GPU.memory_bytes) == "tight"
    assert rec.verdict(estimate(replace(s, seq_len=n + 1)).peak_bytes, GPU.memory_bytes) == "at_edge"
    for x in rec.remedies(S, GPU):
        if x["fits_alone"]:
            assert rec.verdict(x["peak_bytes_alone"], GPU.memory_bytes) in ("comfortable", "tight"), x["remedy"]
    sm = rec.smallest_setup(S)["fits"]
    assert sm["verdict"] != "at_edge"


def test_gpu_table_covers_catalogue_and_the_counts_each_card_comes_in() -> None:
    table = rec.gpu_table(S)
    assert [r["gpu"] for r in table] == list(GPUS)
    for r in table:
        g = GPUS[r["gpu"]]
        assert [x["num_gpus"] for x in r["setups"]] == list(g.counts)
        run = rec.runnable(S, g)[0]
        for x in r["setups"]:
            assert x["verdict"] == rec.verdict(x["peak_bytes_per_gpu"], r["memory_bytes"])
            assert x["peak_bytes_per_gpu"] == estimate(rec.table_setup(run, g, x["num_gpus"])).peak_bytes
    # the counts that exist: Kaggle's two T4s, one P100, 8-card nodes of the data-centre cards
    assert GPUS["t4"].counts == (1, 2, 4, 8) and GPUS["p100"].counts == (1,)
    assert all(8 in g.counts for g in GPUS.values() if g.klass == "datacenter" and g.gpus_per_node >= 8)
    assert rec.SETUP_SIZES == (1, 2, 4, 8, 16)


def test_more_cards_shard_with_zero3_by_default() -> None:
    assert rec.setup_for(S, 4).sharding is Sharding.ZERO3
    zero1 = replace(S, num_gpus=2, sharding=Sharding.ZERO1)
    assert rec.setup_for(zero1, 8).sharding is Sharding.ZERO1
    assert rec.setup_for(replace(S, num_gpus=4, sharding=Sharding.ZERO3), 1).sharding is Sharding.NONE


def test_the_gpu_table_has_the_captions_regime_at_every_count_whatever_count_the_reader_typed() -> None:
    """The caption: "with more than one card the training is sharded (ZeRO-3 unless you chose a stage)". Several
    cards typed with sharding left at none (DDP) must not put DDP's full copies into that count's column while every
    other count is ZeRO-3 (issue 42, H1: 8 x "does not fit" between 4 x and 16 x that fit)."""
    h100 = GPUS["h100-80gb"]
    for typed in (1, 2, 8):
        reader = replace(S, num_gpus=typed)
        row = next(r for r in rec.gpu_table(reader) if r["gpu"] == h100.id)
        for st in row["setups"]:
            n = st["num_gpus"]
            regime = S if n == 1 else replace(S, num_gpus=n, sharding=Sharding.ZERO3)
            assert st["peak_bytes_per_gpu"] == estimate(regime).peak_bytes, (typed, n)
    # and the sharding remedy names the same count whatever count was typed (it said 4 cards at 2, 2 at 1 or 4)
    big = TrainingSetup(model=MODELS["llama-3.1-8b"], method=Method.FULL)
    named = {typed: [x["changes"] for x in rec.remedies(replace(big, num_gpus=typed), GPUS["a100-40gb"])
                     if x["remedy"] == "sharding"] for typed in (1, 2, 4)}
    assert named[1] and named[1] == named[2] == named[4]


def test_several_cards_without_sharding_are_said_to_be_ddp_with_what_zero3_gives() -> None:
    """DDP's full copy per card raises the per-card peak above one card's; the answer says so and gives ZeRO-3's
    figure on the same cards, as a change the reader can make; one card or a sharded setup has no such note."""
    base = {"model": "llama-3.1-8b", "method": "full", "gpu": "h100-80gb"}
    r8 = api.answer({**base, "num_gpus": 8})["result"]
    dp = r8["data_parallel"]
    zero3 = estimate(TrainingSetup(model=MODELS["llama-3.1-8b"], method=Method.FULL, num_gpus=8,
                                   sharding=Sharding.ZERO3)).peak_bytes
    assert dp["num_gpus"] == 8 and dp["changes"] == {"sharding": "zero3"}
    assert dp["sharded_peak_bytes_per_gpu"] == zero3 < r8["peak_bytes_per_gpu"]
    assert api.answer({**base, "num_gpus": 8, **dp["changes"]})["result"]["peak_bytes_per_gpu"] == zero3
    assert "data_parallel" not in api.answer({**base, "num_gpus": 1})["result"]
    assert "data_parallel" not in api.answer({**base, "num_gpus": 8, "sharding": "zero2"})["result"]


def test_smallest_setup_is_minimal() -> None:
    out = rec.smallest_setup(S)
    best = out["fits"]
    assert best is not None
    n, gpu = best["num_gpus"], GPUS[best["gpu"]]
    assert n in gpu.counts

    def peak(g, m):
        return estimate(rec.setup_for(rec.runnable(S, g)[0], m)).peak_bytes

    assert peak(gpu, n) <= gpu.memory_bytes
    for m in rec.SETUP_SIZES:
        if m >= n:
            break
        # nothing smaller in count fits, among the counts each card is offered in
        assert all(peak(g, m) > g.memory_bytes for g in GPUS.values() if m in g.counts)
    smaller = [g for g in GPUS.values() if g.memory_bytes < gpu.memory_bytes and n in g.counts]
    assert all(peak(g, n) > g.memory_bytes for g in smaller)


# --- what a card cannot run (issue 20) -----------------------------------------------------------------------------
def test_no_bf16_on_t4_p100_v100_is_fp16_mixed_with_fp32_master_weights() -> None:
    for gid in ("t4", "p100", "v100-16gb", "v100-32gb"):
        run, adjusted, _ = rec.runnable(S, GPUS[gid])
        assert (run.precision, run.half_dtype, adjusted) == (Precision.MIXED, Precision.FP16,
                                                             ("bf16_to_fp16_mixed",)), gid
    # the figure changes: full fine-tuning in mixed precision keeps fp32 master weights and their 16-bit copies
    run = rec.runnable(S, GPUS["t4"])[0]
    assert estimate(run).peak_bytes > estimate(S).peak_bytes
    # QLoRA computes in fp16 there; bf16 adapters become fp32; cards with bf16 change nothing
    q = replace(S, method=Method.QLORA, precision=Precision.MIXED, lora_dtype=Precision.BF16)
    run, adjusted, _ = rec.runnable(q, GPUS["t4"])
    assert (run.half_dtype, run.lora_dtype, adjusted) == (Precision.FP16, Precision.FP32,
                                                          ("autocast_fp16", "adapters_fp32"))
    assert rec.runnable(S, GPUS["a100-80gb"]) == (S, (), ())


def test_flash_attention_before_ampere_is_refused_and_the_table_says_so() -> None:
    from calculator.errors import InputError
    flash = replace(S, attention=Attention.FLASH)
    for gid in ("t4", "v100-32gb", "p100"):
        with pytest.raises(InputError) as info:
            rec.runnable(flash, GPUS[gid])
        assert (info.value.code, info.value.field, info.value.reason) == ("unsupported_on_gpu", "attention",
                                                                          "flash_needs_ampere")
    rows = {r["gpu"]: r for r in rec.gpu_table(flash)}
    assert rows["v100-32gb"]["setups"] == [] and rows["v100-32gb"]["unsupported"] == {
        "field": "attention", "reason": "flash_needs_ampere"}
    assert rows["a100-80gb"]["setups"] and "unsupported" not in rows["a100-80gb"]
    assert all(GPUS[s["gpu"]].arch not in ("pascal", "volta", "turing")
               for s in rec.smallest_setup(flash).values() if s)
    # FlashAttention on sm_120 and on ROCm, bitsandbytes on ROCm, legacy PyTorch for Pascal/Volta: runs, with a note
    assert rec.runnable(flash, GPUS["rtx-5090"])[2] == ("flash_sm120_build",)
    assert rec.runnable(replace(flash, method=Method.QLORA), GPUS["mi355x"])[2] == ("flash_rocm", "bitsandbytes_rocm")
    assert "legacy_pytorch" in rec.runnable(S, GPUS["p100"])[2]
    assert "fp16_overflow_family" in rec.runnable(replace(S, model=MODELS["gemma-3-4b"]), GPUS["t4"])[2]


def test_a_card_offered_alone_offers_no_sharding_remedy() -> None:
    big = replace(S, model=MODELS["llama-3.1-70b"])
    assert "sharding" not in [r["remedy"] for r in rec.remedies(big, GPUS["p100"])]
    shard = next(r for r in rec.remedies(big, GPUS["t4"]) if r["remedy"] == "sharding")
    assert shard["changes"]["num_gpus"] in GPUS["t4"].counts


def test_remedies_rank_by_what_they_save() -> None:
    """Issue 42, point 5 (the review's M7: "An 8-bit optimizer" first, saving 63 MB of 29.2 GB): the steps of the
    chain come in the order of what each saves alone, the most first; the alternatives (sharding, shorter sequences)
    follow. Activation offloading is one of them where it helps."""
    for s, gpu in ((replace(S, micro_batch_size=4, seq_len=4096), GPU),
                   (TrainingSetup(model=MODELS["qwen3-14b"], method=Method.QLORA, seq_len=8192), GPU)):
        out = rec.remedies(s, gpu)
        chain = [r for r in out if r["peak_bytes_cumulative"] is not None]
        alone = [r["peak_bytes_alone"] for r in chain]
        assert alone == sorted(alone), [(r["remedy"], r["peak_bytes_alone"]) for r in chain]
        assert [r["remedy"] for r in out[len(chain):]] == [n for n in ("sharding", "shorter_sequences")
                                                          if n in [r["remedy"] for r in out]]
    s = replace(S, micro_batch_size=4, seq_len=4096)
    offloading = estimate(replace(s, activation_offloading=True)).peak_bytes
    assert offloading < estimate(s).peak_bytes
    steps = rec.remedies(s, GPU)
    first = steps[0]
    assert first["peak_bytes_alone"] == min(r["peak_bytes_alone"] for r in steps if r["peak_bytes_cumulative"])
    assert rec.remedies(TrainingSetup(model=MODELS["qwen3-14b"], method=Method.QLORA, seq_len=8192),
                        GPU)[0]["remedy"] != "8bit_optimizer"


def test_remedies_are_real_reestimates() -> None:
    s = replace(S, micro_batch_size=4, seq_len=4096)
    seen = set()
    for r in rec.remedies(s, GPU):
        seen.add(r["remedy"])
        if r["remedy"] == "gradient_checkpointing":
            assert r["peak_bytes_alone"] == estimate(replace(s, gradient_checkpointing=True)).peak_bytes
        if r["remedy"] == "smaller_micro_batch":
            alone = replace(s, micro_batch_size=1, grad_accum_steps=4)
            assert r["peak_bytes_alone"] == estimate(alone).peak_bytes
        if r["remedy"] == "sharding":
            n = r["changes"]["num_gpus"]
            assert r["peak_bytes_alone"] == estimate(rec.setup_for(s, n)).peak_bytes   # the figure of its own count
    assert {"gradient_checkpointing", "smaller_micro_batch", "sharding"} <= seen


def test_the_running_total_never_contradicts_itself() -> None:
    """Each step's cumulative figure is the one before it or lower; the chain stops at the first step that fits;
    the alternatives (sharding, shorter sequences) stand outside the running total."""
    for s in (replace(S, micro_batch_size=4, seq_len=4096), replace(S, micro_batch_size=2, seq_len=16384),
              TrainingSetup(model=MODELS["llama-3.1-8b"], method=Method.QLORA, seq_len=65536)):
        out = rec.remedies(s, GPU)
        chain = [r for r in out if r["peak_bytes_cumulative"] is not None]
        alternatives = [r["remedy"] for r in out if r["peak_bytes_cumulative"] is None]
        cum = [r["peak_bytes_cumulative"] for r in chain]
        assert cum == sorted(cum, reverse=True)
        assert all(not r["fits_cumulative"] for r in chain[:-1])
        assert set(alternatives) <= {"sharding", "shorter_sequences"}
        for r in out:
            # "fits": the whole likely range (the peak + 10 %) below the card
            assert r["fits_alone"] == (int(r["peak_bytes_alone"] * 1.1) < GPU.memory_bytes)


def test_a_step_that_changes_nothing_is_not_offered() -> None:
    """Full fine-tuning of a 7B model at a short sequence peaks at the optimizer step: checkpointing changes nothing."""
    s = TrainingSetup(model=MODELS["llama-2-7b"], seq_len=256)
    assert estimate(replace(s, gradient_checkpointing=True)).peak_bytes >= estimate(s).peak_bytes
    names = [r["remedy"] for r in rec.remedies(s, GPU)]
    assert "gradient_checkpointing" not in names and names


def test_no_remedies_when_it_fits() -> None:
    s = TrainingSetup(model=MODELS["qwen2.5-0.5b"], method=Method.LORA, seq_len=512)
    assert rec.remedies(s, GPUS["h100-80gb"]) == []


def test_inverse_solver_is_the_boundary() -> None:
    s = TrainingSetup(model=MODELS["llama-3.1-8b"], method=Method.QLORA, gradient_checkpointing=True)
    n = rec.max_seq_len(s, GPU)
    assert n > 0
    # the boundary of a sure fit: the top of the likely range below the card (issue 42, point 5: not at the edge)
    assert estimate(replace(s, seq_len=n)).high_bytes < GPU.memory_bytes
    assert estimate(replace(s, seq_len=n + 1)).high_bytes >= GPU.memory_bytes
    b = rec.max_micro_batch(replace(s, seq_len=1024), GPU)
    assert estimate(replace(s, seq_len=1024, micro_batch_size=b)).high_bytes < GPU.memory_bytes
    assert estimate(replace(s, seq_len=1024, micro_batch_size=b + 1)).high_bytes >= GPU.memory_bytes


def test_inverse_solver_zero_when_weights_alone_do_not_fit() -> None:
    s = TrainingSetup(model=MODELS["llama-3.1-70b"], optimizer=Optimizer.ADAMW_TORCH)
    assert rec.max_seq_len(s, GPU) == 0 and rec.max_micro_batch(s, GPU) == 0


def _near(x: int) -> set[int]:
    """x and the points where a doubling or halving step from x changes bracket: x ± (2^k - 1, 2^k, 2^k + 1)."""
    return {x} | {x + sign * (2**k + d) for sign in (-1, 1) for k in range(0, 22) for d in (-1, 0, 1)}


def test_the_inverse_search_finds_the_boundary_from_any_start() -> None:
    """The galloping search returns what a plain scan would, wherever it starts: every boundary and every start on
    small ranges; on large ones every answer near the edges, the middle and the start (where each doubling or halving
    step lands, one before and one after), from starts at the edges, the middle and around the answer."""
    for hi in (1, 2, 3, 10, 33):
        for answer in range(0, hi + 1):
            for start in (None, *range(1, hi + 1)):
                assert rec._largest(1, hi, lambda x: x <= answer, start) == answer, (hi, answer, start)
    for hi in (100, 1000, 1 << 20, 10**6 + 7):
        edges = {0, 1, 2, 3, hi // 2 - 1, hi // 2, hi // 2 + 1, hi - 2, hi - 1, hi}
        starts = {s for s in edges | _near(hi // 3) if 1 <= s <= hi}
        for start in (None, *sorted(starts)):
            near = _near(start) if start is not None else set()
            for answer in sorted(a for a in edges | near | _near(hi // 3) if 0 <= a <= hi):
                assert rec._largest(1, hi, lambda x: x <= answer, start) == answer, (hi, answer, start)


def test_a_long_sequence_is_offered_the_fused_loss_that_makes_it_fit() -> None:
    """content review O1: Llama 3.1 8B with QLoRA at 16k tokens on an RTX 4090 was offered an 8-bit optimizer first
    (41.3 of 41.5 GB: nothing) and never the fused loss, which removes the full logits that are most of the peak."""
    s = replace(S, model=MODELS["llama-3.1-8b"], method=Method.QLORA, seq_len=16384, gradient_checkpointing=True)
    gpu = GPUS["rtx-4090"]
    steps = rec.remedies(s, gpu)
    fused = next(r for r in steps if r["remedy"] == "fused_loss")
    assert fused["changes"] == {"fused_linear_cross_entropy": True} and fused["fits_alone"]
    assert fused["peak_bytes_alone"] == estimate(replace(s, fused_linear_cross_entropy=True)).peak_bytes
    assert "fused_loss" not in [r["remedy"] for r in rec.remedies(replace(s, fused_linear_cross_entropy=True), gpu)]


def test_a_remedys_changes_hold_every_key_its_figure_assumes() -> None:
    """The review's R10 (ministral-8b at micro-batch 90 on an L40S), and LoRA under LLaMA-Factory, whose precision
    default follows ``method`` (fp32 full fine-tuning, bf16 LoRA): the remedy keeps the precision it was estimated
    with."""
    for req in ({"model": "ministral-8b", "micro_batch_size": 90, "optimizer": "paged_adamw_8bit", "gpu": "l40s"},
                {"model": "gemma-3-27b", "gpu": "rtx-3060-12gb", "method": "full", "micro_batch_size": 2,
                 "seq_len": 32768, "optimizer": "adamw_8bit", "grad_accum_steps": 3, "framework": "llamafactory"}):
        remedies = api.answer({**req, "include": ["remedies"]})["result"]["remedies"]
        kinds = {x["remedy"]: x["changes"] for x in remedies}
        assert {"shorter_sequences", "lora"} & set(kinds)
        if "shorter_sequences" in kinds:                  # micro-batch 1, the accumulation keeping the batch
            assert kinds["shorter_sequences"]["grad_accum_steps"] == 90
        if "lora" in kinds:
            assert kinds["lora"]["precision"] == "fp32"
        for x in remedies:
            again = api.answer({**req, **x["changes"], "include": []})["result"]
            assert again["peak_bytes_per_gpu"] == x["peak_bytes_alone"], x


def test_no_adapter_remedy_on_targets_the_model_lacks() -> None:
    """TRL's default targets (q_proj, v_proj) are not in DeepSeek-V3's latent attention: LoRA there trains nothing
    and the API refuses it (contradiction, lora_targets), so it is no remedy either."""
    req = {"model": "deepseek-v3", "gpu": "l4", "method": "full", "num_gpus": 4, "framework": "trl"}
    assert api.answer({**req, "method": "lora", "include": []})["error"]["field"] == "lora_targets"
    remedies = api.answer({**req, "include": ["remedies"]})["result"]["remedies"]
    assert remedies and not {"lora", "qlora"} & {x["remedy"] for x in remedies}


def test_the_qlora_remedy_of_a_sharded_fsdp1_run_sets_the_storage_fsdp1_needs_and_the_api_takes_it():
    """Hypothesis's CI profile found it (tests/frameworks/test_remedy_laws.py): full fine-tuning under PEFT's FSDP1
    over two A10s; its QLoRA remedy kept bitsandbytes' uint8 storage, which FSDP1 cannot flatten and the API refuses
    (``contradiction`` on ``quant_storage``), so the remedy named a setup no request can ask for."""
    req = {"model": "bloomz-7b1", "gpu": "a10", "method": "full", "micro_batch_size": 1, "seq_len": 256,
           "grad_accum_steps": 1, "num_gpus": 2, "framework": "peft", "sharding": "zero2"}
    r = api.answer(req)
    r = r.get("result", r)
    qlora = [x for x in r["remedies"] if x["remedy"] == "qlora"]
    assert qlora and qlora[0]["changes"]["quant_storage"] == "bf16"
    again = api.answer({**req, **qlora[0]["changes"]})
    assert again.get("ok", True) is not False and "errors" not in again, again
