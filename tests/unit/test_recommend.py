"""Verdicts, the smallest setup, remedies in the guide's order, and the inverse solver."""
from __future__ import annotations

from dataclasses import replace

import pytest

from calculator import recommend as rec
from calculator.catalog import GPUS, MODELS
from calculator.memory import estimate
from calculator.models import Method, Optimizer, Sharding, TrainingSetup

pytestmark = pytest.mark.unit

S = TrainingSetup(model=MODELS["llama-2-7b"])
GPU = GPUS["rtx-4090"]


@pytest.mark.parametrize("share,verdict", [(0.5, "comfortable"), (0.85, "comfortable"), (0.86, "tight"),
                                           (1.0, "tight"), (1.01, "does_not_fit")])
def test_headroom_rule(share: float, verdict: str) -> None:
    assert rec.verdict(int(share * 1000), 1000) == verdict


def test_gpu_table_covers_catalogue_and_setups() -> None:
    table = rec.gpu_table(S)
    assert [r["gpu"] for r in table] == list(GPUS)
    for r in table:
        assert [x["num_gpus"] for x in r["setups"]] == [1, 2, 4, 8]
        for x in r["setups"]:
            assert x["verdict"] == rec.verdict(x["peak_bytes_per_gpu"], r["memory_bytes"])


def test_more_cards_shard_with_zero3_by_default() -> None:
    assert rec.setup_for(S, 4).sharding is Sharding.ZERO3
    zero1 = replace(S, num_gpus=2, sharding=Sharding.ZERO1)
    assert rec.setup_for(zero1, 8).sharding is Sharding.ZERO1
    assert rec.setup_for(replace(S, num_gpus=4, sharding=Sharding.ZERO3), 1).sharding is Sharding.NONE


def test_smallest_setup_is_minimal() -> None:
    out = rec.smallest_setup(S)
    best = out["fits"]
    assert best is not None
    n, gpu = best["num_gpus"], GPUS[best["gpu"]]
    assert estimate(rec.setup_for(S, n)).peak_bytes <= gpu.memory_bytes
    for m in (1, 2, 4, 8):
        if m >= n:
            break
        peak = estimate(rec.setup_for(S, m)).peak_bytes
        assert all(peak > g.memory_bytes for g in GPUS.values())   # nothing smaller in count fits
    smaller = [g for g in GPUS.values() if g.memory_bytes < gpu.memory_bytes]
    peak = estimate(rec.setup_for(S, n)).peak_bytes
    assert all(peak > g.memory_bytes for g in smaller)


def test_remedies_follow_the_guides_order() -> None:
    s = replace(S, micro_batch_size=4, seq_len=4096)
    names = [r["remedy"] for r in rec.remedies(s, GPU)]
    order = ["smaller_micro_batch", "shorter_sequences", "gradient_checkpointing", "8bit_optimizer", "lora",
             "qlora", "sharding"]
    assert names == [n for n in order if n in names]
    assert names[0] == "smaller_micro_batch" and names[-1] == "sharding"
    assert {"gradient_checkpointing", "8bit_optimizer", "lora", "qlora"} <= set(names)


def test_remedies_are_real_reestimates() -> None:
    s = replace(S, micro_batch_size=4, seq_len=4096)
    for r in rec.remedies(s, GPU):
        if r["remedy"] == "gradient_checkpointing":
            assert r["peak_bytes_alone"] == estimate(replace(s, gradient_checkpointing=True)).peak_bytes
        if r["remedy"] == "smaller_micro_batch":
            alone = replace(s, micro_batch_size=1, grad_accum_steps=4)
            assert r["peak_bytes_alone"] == estimate(alone).peak_bytes


def test_remedies_cumulative_never_increase_until_qlora() -> None:
    s = replace(S, micro_batch_size=4, seq_len=4096)
    cum = [r["peak_bytes_cumulative"] for r in rec.remedies(s, GPU) if r["remedy"] != "shorter_sequences"]
    assert cum == sorted(cum, reverse=True)


def test_no_remedies_when_it_fits() -> None:
    s = TrainingSetup(model=MODELS["qwen2.5-0.5b"], method=Method.LORA, seq_len=512)
    assert rec.remedies(s, GPUS["h100-80gb"]) == []


def test_inverse_solver_is_the_boundary() -> None:
    s = TrainingSetup(model=MODELS["llama-3.1-8b"], method=Method.QLORA, gradient_checkpointing=True)
    n = rec.max_seq_len(s, GPU)
    assert n > 0
    assert estimate(replace(s, seq_len=n)).peak_bytes <= GPU.memory_bytes
    assert estimate(replace(s, seq_len=n + 1)).peak_bytes > GPU.memory_bytes
    b = rec.max_micro_batch(replace(s, seq_len=1024), GPU)
    assert estimate(replace(s, seq_len=1024, micro_batch_size=b)).peak_bytes <= GPU.memory_bytes
    assert estimate(replace(s, seq_len=1024, micro_batch_size=b + 1)).peak_bytes > GPU.memory_bytes


def test_inverse_solver_zero_when_weights_alone_do_not_fit() -> None:
    s = TrainingSetup(model=MODELS["llama-3.1-70b"], optimizer=Optimizer.ADAMW_TORCH)
    assert rec.max_seq_len(s, GPU) == 0 and rec.max_micro_batch(s, GPU) == 0
