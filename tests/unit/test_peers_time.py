"""benchmarks/peers_time.py's pure parts: the configuration a peer reads, and the scoring of fixed adapter answers."""
from __future__ import annotations

import pytest

from benchmarks import league
from benchmarks import peers_time as pt
from benchmarks.time_accuracy import DEFAULT_DATA, load_rows

pytestmark = pytest.mark.unit   # it reads the project's speed rows: a missing file fails naming it, never skips


@pytest.fixture(scope="module")
def rows():
    return [r for r in load_rows(DEFAULT_DATA) if r.setup is not None]


def test_time_config_carries_what_a_time_peer_needs(rows) -> None:
    by_id = {r.id: r for r in rows}
    qw = pt.time_config(by_id["QW-13"])              # Qwen-7B LoRA, 1 x 8 x 2048, GC, A100 80GB
    assert (qw["method"], qw["micro_batch"], qw["grad_accum"], qw["seq_len"]) == ("lora", 1, 8, 2048)
    assert qw["grad_checkpointing"] and qw["gpu"] == "a100-80gb" and qw["num_gpus"] == 1
    assert qw["hf_config"]["hidden_size"] == 4096
    mpt = pt.time_config(by_id["MF-04"])             # MPT-7B: its own config format, a plain 4x MLP
    assert mpt["hf_config"]["model_type"] == "mpt" and mpt["hf_config"]["expansion_ratio"] == 4
    assert mpt["sharding"] == "zero3" and mpt["num_gpus"] == 8


def test_scoring_of_fixed_answers(rows) -> None:
    some = rows[:3]
    answers = {"ftuneai": {"results": [
        {"id": some[0].id, "status": "ok", "tokens_per_second_per_gpu": some[0].measured * 2},   # +100 %
        {"id": some[1].id, "status": "unsupported", "reason": "no"},
        {"id": some[2].id, "status": "ok", "tokens_per_second_per_gpu": -1.0},                  # nonsense
    ]}}
    every = pt.outcomes(some, answers)
    outs = [o for o in every if o.tool == "ftuneai"]
    assert [o.status for o in outs] == ["ok", "unsupported", "error"]
    assert outs[0].ape == pytest.approx(100.0) and outs[0].signed == pytest.approx(100.0)
    table = league.summarise(every, [pt.OURS, "ftuneai"], within=pt.WITHIN, references=(pt.OURS, pt.OURS_LOSO))
    overall = next(s for s in table if s.group == "all" and s.tool == "ftuneai")
    assert (overall.rows, overall.of, overall.median) == (1, 3, pytest.approx(100.0))
    ours_first = next(o for o in every if o.tool == pt.OURS and o.row_id == some[0].id)
    assert overall.same_rows["ours"] == pytest.approx(ours_first.ape)     # head-to-head on that one row
