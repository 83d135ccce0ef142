"""The accuracy benchmarks read the project's own data (benchmarks/data/), never a folder beside the checkout.

The repository's layout is copied into a temporary folder whose sibling ``shared/calibration/`` holds WRONG data
(every measured figure doubled, where the team's shared folder used to be found). Both accuracy tiers are run there
in a subprocess, the way a reader runs them (``python -m benchmarks.accuracy --json``, ``python -m
benchmarks.time_accuracy --json``), and their figures must be exactly those computed here from ``benchmarks/data``.
The files are copied, not linked: a module that resolves its own path would otherwise land back in this checkout.
"""
from __future__ import annotations

import csv
import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import DATA_DIR, accuracy
from benchmarks import time_accuracy as throughput

pytestmark = pytest.mark.accuracy

ROOT = Path(__file__).resolve().parents[2]
#: What the two benchmarks import and read (the code and the project's data), copied into the temporary layout.
COPIED = ("benchmarks", "calculator")
#: The numeric columns doubled in the wrong sibling copy: the measurements themselves and the GPU peaks.
CORRUPTED = {
    "measurements.csv": ("measured_peak_gb",),
    "throughput/throughput.csv": ("value", "derived_tokens_per_sec_per_gpu"),
    "throughput/gpu_peaks.csv": ("bf16_dense_tflops", "fp16_dense_tflops", "mem_bw_gbps"),
}


def _doubled(text: str, columns: tuple[str, ...]) -> str:
    rows = list(csv.DictReader(io.StringIO(text, newline="")))
    assert rows and set(columns) <= set(rows[0]), columns
    for row in rows:
        for col in columns:
            try:
                row[col] = repr(2 * float(row[col]))
            except ValueError:
                pass                       # empty or "not stated" cells stay as they are
    out = io.StringIO(newline="")
    writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


@pytest.fixture(scope="module")
def layout(tmp_path_factory) -> Path:
    """tmp/repo (the code and benchmarks/data) beside tmp/shared/calibration (the same files, figures doubled)."""
    top = tmp_path_factory.mktemp("clone")
    repo = top / "repo"
    for name in COPIED:
        shutil.copytree(ROOT / name, repo / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".cache"))
    wrong = top / "shared" / "calibration"
    shutil.copytree(DATA_DIR, wrong)
    for rel, columns in CORRUPTED.items():
        path = wrong / rel
        path.write_text(_doubled(path.read_text(encoding="utf-8"), columns), encoding="utf-8")
    return repo


def _run(repo: Path, *args: str) -> str:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run([sys.executable, *args], cwd=repo, capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def _as_json(obj) -> object:
    return json.loads(json.dumps(obj))


def test_the_copied_layout_runs_its_own_code(layout: Path) -> None:
    """The subprocess imports the copied modules (so their own paths, not this checkout's, decide what is read)."""
    out = _run(layout, "-c", "import benchmarks, calculator; print(benchmarks.DATA_DIR); print(calculator.__file__)")
    data_dir, calculator_file = out.split()
    assert Path(data_dir) == layout.resolve() / "benchmarks" / "data"
    assert Path(calculator_file).is_relative_to(layout.resolve())


def test_the_wrong_sibling_data_would_change_the_figures(layout: Path) -> None:
    """The test can fail: scored on the sibling's doubled rows, both benchmarks give other figures."""
    wrong = layout.parent / "shared" / "calibration"
    assert accuracy.to_json(accuracy.run(wrong / "measurements.csv"))["summary"] != \
        accuracy.to_json(accuracy.run(DATA_DIR / "measurements.csv"))["summary"]
    assert throughput.to_json(*throughput.run(wrong / "throughput" / "throughput.csv"))["summary"] != \
        throughput.to_json(*throughput.run(DATA_DIR / "throughput" / "throughput.csv"))["summary"]


def test_memory_accuracy_figures_are_the_projects_own(layout: Path) -> None:
    there = json.loads(_run(layout, "-m", "benchmarks.accuracy", "--json"))
    here = _as_json(accuracy.to_json(accuracy.run(DATA_DIR / "measurements.csv")))
    assert there["summary"] == here["summary"]
    assert there == here


def test_time_accuracy_figures_are_the_projects_own(layout: Path) -> None:
    there = json.loads(_run(layout, "-m", "benchmarks.time_accuracy", "--json"))
    here = _as_json(throughput.to_json(*throughput.run(DATA_DIR / "throughput" / "throughput.csv")))
    assert there["summary"] == here["summary"]
    assert there == here
