"""The GRPO phase model (calculator/rl.py) against the memory oracle's GRPO traces (tests/data/grpo/grpo_dev.json and
two more runs in grpo_extra.json: TRL 1.16.0 GRPOTrainer with use_vllm=False run op for op), through
benchmarks/rl.py's own scoring.

Targets (issue 41): the training and generation phases' allocated bytes, median |error| <= 3 %, worst <= 10 %.
The generation phase meets them. The training phase does not yet: its micro-step is the estimator's training model
(calculator/memory.py) with TRL's fused chunked lm_head, and that model's checkpointed layer misses the recompute's
backward transients the traces show at the peak (SwiGLU's sigmoid/mul temporaries, the fp32 RMSNorm and q/k-norm
upcasts, PEFT's fp32 input casts: GRPO-T03, T16, T21, T33, 14-17 % under). ``test_training_phase_meets_the_targets``
is a strict xfail that turns red when that is fixed; the guard holds today's figures from getting worse.
"""
from __future__ import annotations

import pytest

from benchmarks.rl import TARGETS, load, score, summary, trace_to_request

pytestmark = pytest.mark.accuracy


@pytest.fixture(scope="module")
def scored():
    return summary(score(load()))


def test_every_trace_is_a_valid_request_of_its_phase() -> None:
    records = load()
    assert {r["payload"]["phase"] for r in records} == {"training", "generation"}
    assert len(records) == 27
    for r in records:
        assert trace_to_request(r)["grpo"] is True


def test_generation_phase_meets_the_targets(scored) -> None:
    g = scored["generation"]
    assert g["n"] == 8
    assert g["median"] <= TARGETS["median"] and g["worst"] <= TARGETS["worst"], g


@pytest.mark.xfail(strict=True, reason="the shared training model's checkpointed layer misses the recompute's "
                                       "backward transients (see the module docstring)")
def test_training_phase_meets_the_targets(scored) -> None:
    t = scored["training"]
    assert t["median"] <= TARGETS["median"] and t["worst"] <= TARGETS["worst"], t


def test_training_phase_guard(scored) -> None:
    """Today: median 5.7 %, worst 16.9 % (GRPO-T16). Any change that makes it worse fails here."""
    t = scored["training"]
    assert t["n"] == 19
    assert t["median"] <= 0.06 and t["worst"] <= 0.17, t
