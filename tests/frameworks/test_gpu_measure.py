"""The GPU harness (benchmarks/gpu_measure.py), tested without a GPU: its grid fits the 5-minute budget by the
estimator's own figures, and its tiny run executes every setup's code path (transformers + PEFT, bitsandbytes 4-bit
and 8-bit/paged optimizers, TRL-style DPO, DDP and FSDP2 over a one-process group) on the CPU in the TRL environment,
writing one row per setup that the calibration reader takes. The figures of a tiny run are stubs, and say so."""
from __future__ import annotations

import csv
import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from benchmarks import calibration, gpu_measure
from calculator import api
from frameworks import venv

pytestmark = pytest.mark.frameworks

ROOT = Path(__file__).resolve().parents[2]


def _run(py: str, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "CUDA_VISIBLE_DEVICES": ""}
    return subprocess.run([py, "-m", "benchmarks.gpu_measure", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=900)


def test_the_grid_covers_each_regime_and_fits_the_budget():
    setups = gpu_measure.GRID
    assert len({s.id for s in setups}) == len(setups)
    kinds = {s.method for s in setups} | {s.optimizer for s in setups} | {s.wrap for s in setups}
    assert kinds >= {"full", "lora", "qlora", "adamw_torch_fused", "adamw_8bit", "paged_adamw_8bit", "paged_adamw_32bit",
                     "ddp", "fsdp2", "none"}
    assert {s.seq_len for s in setups} >= {2048, 8192} and any(s.dpo for s in setups)
    assert {s.checkpointing for s in setups} == {True, False} and {s.load_fp32 for s in setups} == {True, False}
    qlora = [s for s in setups if s.method == "qlora"]
    assert {s.double_quant for s in qlora} == {True, False} and {s.quant_storage for s in qlora} == {"uint8", "bf16"}
    # paged LoRA on both sides of bitsandbytes' 1e5-element paging line (Optimizer8bit.get_state_buffer)
    paged = [s for s in setups if s.method == "lora" and s.optimizer.startswith("paged")]
    sizes = {s.lora_rank * api.MODELS[s.model].hidden_size >= 1e5 for s in paged}
    assert sizes == {True, False}
    total, rows = gpu_measure.grid_seconds()
    assert total <= gpu_measure.BUDGET_S
    for s, r, _ in rows:     # every run stays well inside the card (paging must never be driven to eviction)
        assert r["driver_bytes"] < 0.7 * api.GPUS[gpu_measure.GPU].memory_bytes, s.id


def test_the_dry_run_prints_the_grid_and_its_time():
    out = _run(str(venv.ensure("trl")), "--dry-run")
    assert out.returncode == 0, out.stderr
    m = re.search(r"estimated GPU time of the grid: (\d+) s", out.stdout)
    assert m and int(m.group(1)) <= 300
    assert all(s.id in out.stdout for s in gpu_measure.GRID)


def test_the_tiny_run_executes_every_setup_and_writes_calibration_rows(tmp_path):
    out_csv = tmp_path / "rows.csv"
    out = _run(str(venv.ensure("trl")), "--dry-run", "--tiny", "--out", str(out_csv))
    assert out.returncode == 0, out.stderr[-3000:]
    with out_csv.open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert [r["id"] for r in rows] == [f"GM-{s.id}" for s in gpu_measure.GRID]     # none skipped on the CPU
    assert list(rows[0]) == list(gpu_measure.COLUMNS + gpu_measure.EXTRA_COLUMNS)
    by_id = {f"GM-{s.id}": s for s in gpu_measure.GRID}
    for r in rows:
        s = by_id[r["id"]]
        blank = [k for k, v in r.items() if v == "" and not (s.method == "full" and k.startswith("lora_"))]
        assert not blank, (r["id"], blank)
        assert r["figures"] == "stub" and "STUB" in r["notes"] and r["machine"] == "CPU (stub)"
        assert float(r["tokens_per_second"]) > 0
        assert json.loads(r["estimator_request"]) == gpu_measure.request(s)
        assert api.answer(json.loads(r["estimator_request"]))["ok"]
        assert "transformers 5." in r["stack"] and "bitsandbytes 0." in r["stack"]
    # the calibration reader takes every row, as the run it describes
    read = {row.id: row for row in calibration.load_rows(out_csv)}
    assert set(read) == set(by_id)
    for rid, row in read.items():
        s, req = by_id[rid], row.request
        assert row.excluded_reason is None and row.compare == "allocated_bytes", rid
        assert (req["method"], req["seq_len"], req["micro_batch_size"], req["gradient_checkpointing"],
                req["precision"]) == (s.method, s.seq_len, s.micro_batch, s.checkpointing, s.precision), rid
