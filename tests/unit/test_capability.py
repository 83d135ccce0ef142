"""What a card cannot run (issue 20): bf16 on a T4, P100 or V100 becomes fp16 mixed precision with its new figures
and the reason in the answer; FlashAttention 2 before Ampere is refused on the attention field; ROCm, sm_120 and
legacy-PyTorch caveats are stated; a card that cannot run a setup is never "fits" in the GPU table."""
from __future__ import annotations

import pytest

from calculator import api
from calculator.catalog import GPUS

pytestmark = pytest.mark.unit


def ask(**kw) -> dict:
    return api.answer({"model": "llama-3.1-8b", **kw})


def test_the_issue_example_is_refused_not_comfortable() -> None:
    # issue 20: `--gpu v100-32gb --precision bf16 --attention flash` answered "comfortable"
    r = ask(gpu="v100-32gb", precision="bf16", attention="flash", method="qlora")
    assert r["ok"] is False
    assert r["error"] == {"code": "unsupported_on_gpu", "field": "attention", "reason": "flash_needs_ampere"}
    fixed = ask(gpu="v100-32gb", precision="bf16", attention="sdpa", method="qlora")
    assert fixed["ok"] and fixed["result"]["adjusted"] == ["bf16_to_fp16_mixed"]
    assert "legacy_pytorch" in fixed["result"]["card_notes"]


def test_bf16_on_a_t4_is_estimated_as_fp16_mixed_and_says_so() -> None:
    on_t4 = ask(gpu="t4", method="full", include=["remedies"])["result"]
    on_a10 = ask(gpu="a10", method="full", include=[])["result"]
    assert on_t4["adjusted"] == ["bf16_to_fp16_mixed"] and on_a10["adjusted"] == []
    assert (on_t4["inputs"]["precision"], on_t4["inputs"]["half_dtype"]) == ("mixed", "fp16")
    # the new figure: fp32 master weights and their 16-bit copies make full fine-tuning heavier than pure bf16
    assert on_t4["peak_bytes_per_gpu"] > on_a10["peak_bytes_per_gpu"]
    assert on_t4["breakdown_bytes"]["master_copy"] > 0 and on_a10["breakdown_bytes"]["master_copy"] == 0
    # the same request with the adjustment spelled out gives the same figure
    spelled = ask(gpu="t4", method="full", precision="mixed", half_dtype="fp16", include=["remedies"])["result"]
    assert spelled["peak_bytes_per_gpu"] == on_t4["peak_bytes_per_gpu"] and spelled["adjusted"] == []


def test_fp16_is_mixed_precision_only() -> None:
    assert ask(precision="bf16", half_dtype="fp16")["error"] == {"code": "contradiction", "field": "half_dtype"}
    assert ask(precision="fp32", half_dtype="fp16")["error"] == {"code": "contradiction", "field": "half_dtype"}
    assert ask(precision="mixed", half_dtype="fp16", method="qlora")["ok"]


def test_the_gpu_table_never_says_fits_for_what_a_card_cannot_run() -> None:
    r = ask(gpu="a100-80gb", attention="flash", method="qlora", include=["gpu_table", "smallest_setup"])["result"]
    rows = {row["gpu"]: row for row in r["gpu_table"]}
    for gid in ("t4", "p100", "v100-16gb", "v100-32gb"):
        assert rows[gid]["setups"] == [] and rows[gid]["unsupported"]["reason"] == "flash_needs_ampere", gid
    for best in ("fastest_setup", "cheapest_setup"):
        assert GPUS[r[best]["gpu"]].arch not in ("pascal", "volta", "turing")
    # bf16 requested: the cards without bf16 are costed and sized as fp16 mixed precision, and marked so
    r = ask(gpu="a100-80gb", method="qlora", include=["gpu_table"])["result"]
    rows = {row["gpu"]: row for row in r["gpu_table"]}
    assert rows["t4"]["adjusted"] == ["bf16_to_fp16_mixed"] and "adjusted" not in rows["a100-80gb"]
    assert [s["num_gpus"] for s in rows["t4"]["setups"]] == [1, 2, 4, 8]          # Kaggle's 2 x T4 included
    assert [s["num_gpus"] for s in rows["p100"]["setups"]] == [1]


@pytest.mark.parametrize("gpu,kw,note", [
    ("rtx-5090", {"attention": "flash"}, "flash_sm120_build"),
    ("rtx-pro-6000-blackwell", {"attention": "flash"}, "flash_sm120_build"),
    ("mi300x", {"attention": "flash"}, "flash_rocm"),
    ("mi355x", {"method": "qlora"}, "bitsandbytes_rocm"),
    ("mi325x", {"optimizer": "adamw_8bit"}, "bitsandbytes_rocm"),
    ("p100", {}, "legacy_pytorch"),
])
def test_caveats_are_stated(gpu: str, kw: dict, note: str) -> None:
    r = ask(gpu=gpu, include=[], **kw)["result"]
    assert note in r["card_notes"]


def test_the_gh200_offloads_over_nvlink_c2c() -> None:
    # the same ZeRO-Offload run on the GH200 and on an H100 SXM (same GH100 die): the C2C link and LPDDR5X
    # make the host side of the step faster
    req = dict(model="llama-3.1-70b", method="full", num_gpus=1, sharding="zero3", cpu_offload=True,
               gradient_checkpointing=True, include=[])
    gh, h100 = ask(gpu="gh200", **req)["result"], ask(gpu="h100-80gb", **req)["result"]
    assert gh["throughput"]["step_time_s"] < h100["throughput"]["step_time_s"] / 3
