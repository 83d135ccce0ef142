"""Benchmarks: the estimator against published measurements, exact traces and the public calculators.

``DATA_DIR`` is the one place every benchmark and test reads its measured data from: the project's own copy in
``benchmarks/data/`` (see its PROVENANCE.md). No code path reads a folder outside the repository.
"""
from __future__ import annotations

from pathlib import Path

__all__ = ["DATA_DIR", "require_data"]

#: The project's calibration data (peak-memory rows, published estimates, training speeds and GPU peaks), copied
#: into the repository on 2026-12-01 from the team's shared calibration folder; new rows are added here.
DATA_DIR = Path(__file__).resolve().parent / "data"


def require_data(path: str | Path) -> Path:
    """A data file, or a clear error naming where it is expected (tests fail on it rather than skip)."""
    p = Path(path)
    if not p.is_file():
        raise FileNotFoundError(
            f"calibration data not found at {p}: the accuracy benchmarks and their tests read the project's data "
            "(benchmarks/data/, see its PROVENANCE.md; --data PATH for another CSV)")
    return p
