"""benchmarks/accuracy.py --fit and --loso: the memory model's three fitted coefficients refitted from neutral values,
and each source scored with the coefficients fitted without it (the proxy for runs the calibration has not seen)."""
from __future__ import annotations

import pytest

from benchmarks.accuracy import FIT_GRID, FIT_START, TARGETS, _fast_objective, _point_rows, fit, loso, source_of
from benchmarks.calibration import DEFAULT_DATA, load_rows
from calculator import memory

pytestmark = pytest.mark.accuracy


@pytest.fixture(scope="module")
def rows():
    return load_rows(DEFAULT_DATA)


@pytest.fixture(scope="module")
def held_out(rows):
    return loso(rows)


def test_every_usable_point_row_is_scored_once_out_of_sample(rows, held_out) -> None:
    rep, fitted = held_out
    usable = _point_rows(rows)
    assert sorted(s.row.id for s in rep.scored) == sorted(r.id for r in usable)
    assert set(fitted) == {source_of(r) for r in usable}
    for k in fitted.values():
        assert all(k[name] in FIT_GRID[name] for name in FIT_GRID), k


def test_out_of_sample_memory_meets_the_in_sample_targets(held_out) -> None:
    rep, _ = held_out
    assert rep.summary["overall"]["median_abs"] <= TARGETS["median_overall"]
    for method in ("full", "lora", "qlora"):
        assert rep.summary[method]["median_abs"] <= TARGETS["median_per_method"], method
    assert rep.summary["overall"]["worst_abs"] <= TARGETS["worst"]


def test_the_fit_never_ends_worse_than_where_it_started(rows) -> None:
    from dataclasses import replace
    usable = _point_rows(rows)
    obj = _fast_objective(usable)
    start = replace(memory.COEFFICIENTS, **FIT_START)
    assert obj(fit(rows)) <= obj(start)
