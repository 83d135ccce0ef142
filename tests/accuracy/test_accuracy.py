"""The estimator against the published measurements, through benchmarks/accuracy.py's own scoring function.

Targets (the issue): median |error| <= 10 % over usable rows and <= 15 % within each method; no usable row off by
more than 35 %. Rows the calibration data marks SUSPECT (its README caveats 5 and 11) are left out by the benchmark.
"""
from __future__ import annotations

import csv
import re

import pytest

from benchmarks.accuracy import TARGETS, run
from benchmarks.calibration import DEFAULT_DATA, require_data

pytestmark = pytest.mark.accuracy

@pytest.fixture(scope="module")
def report():
    return run(DEFAULT_DATA)


def test_median_overall_within_10_percent(report) -> None:
    assert report.summary["overall"]["n"] >= 60
    assert report.summary["overall"]["median_abs"] <= TARGETS["median_overall"] == 0.10


@pytest.mark.parametrize("method", ["full", "lora", "qlora"])
def test_median_per_method_within_15_percent(report, method: str) -> None:
    assert report.summary[method]["n"] >= 10
    assert report.summary[method]["median_abs"] <= TARGETS["median_per_method"] == 0.15


def test_no_usable_row_beyond_35_percent(report) -> None:
    beyond = {s.row.id: round(s.error, 3) for s in report.points() if abs(s.error) > TARGETS["worst"]}
    assert report.summary["overall"]["worst_abs"] <= TARGETS["worst"] == 0.35, beyond


def test_most_rows_within_25_percent(report) -> None:
    pts = report.points()
    assert sum(abs(s.error) <= 0.25 for s in pts) >= 0.75 * len(pts)


def test_standard_stack_capacity_rows_hold(report) -> None:
    """UN-H (transformers + FA2 baseline): the estimate at the published max context is below the VRAM."""
    hf = [s for s in report.scored if s.row.kind == "capacity"
          and re.search(r"Hugging Face \+ FA2: [\d,]+", s.row.raw["source_quote"])]
    assert hf and all(s.passed for s in hf)


def test_bracket_rows_hold(report) -> None:
    br = [s for s in report.scored if s.row.kind == "bracket"]
    assert all(s.passed for s in br)


def test_only_suspect_estimate_and_encoder_rows_are_left_out(report) -> None:
    with open(require_data(DEFAULT_DATA), newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    expected = {r["id"] for r in rows if "SUSPECT" in r["notes"] or "ESTIMATE" in r["notes"]
                or "ENCODER" in r["notes"].upper()}
    assert {r.id for r in report.excluded} == expected
    assert not report.summary["errors"]


def test_sharded_rows_have_no_systematic_bias(report) -> None:
    """FSDP / ZeRO-3 rows (issue 13): signed median within +-3 % (main before this round: -4.3 %)."""
    sharded = report.summary["sharded"]
    assert sharded["n"] >= 15
    assert abs(sharded["median_signed"]) <= 0.03


@pytest.mark.parametrize("rid", ["TT-31", "TT-33", "PD-03", "LR-01"])
def test_named_sharded_rows_within_15_percent(report, rid: str) -> None:
    """The multi-GPU rows issue 13 names, with no per-row coefficient: each statistic read as its source states it
    (calibration.SOURCE_READINGS). PD-04, the fifth, is not explained (ESTIMATOR.md) and only meets the 35 % bound."""
    (s,) = [s for s in report.points() if s.row.id == rid]
    assert abs(s.error) <= 0.15, (rid, s.error)
