"""calculator/evidence.py, the table of measured speeds the page's answers cite, is the one the project's data gives
(benchmarks/evidence.py generates it from benchmarks/data/throughput/throughput.csv)."""
from __future__ import annotations

import pytest

from benchmarks import evidence
from calculator import evidence as shipped
from calculator.catalog import GPUS

pytestmark = pytest.mark.accuracy


def test_the_shipped_table_is_the_datas() -> None:
    assert evidence.TARGET.read_text(encoding="utf-8") == evidence.source(), (
        "calculator/evidence.py differs from the data: run `python -m benchmarks.evidence --write` (or make docs)")


def test_every_card_of_the_table_is_in_the_catalogue_and_has_rows() -> None:
    assert shipped.MEASURED_SPEEDS, "no measured card: the data folder lost its speeds"
    for gpu, (rows, methods, counts) in shipped.MEASURED_SPEEDS.items():
        assert gpu in GPUS and rows >= 1 and methods and counts, gpu
        assert set(methods) <= {"full", "lora", "qlora"} and all(n >= 1 for n in counts), gpu
