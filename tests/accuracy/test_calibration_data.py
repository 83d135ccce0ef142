"""The project's measured peak-memory rows (benchmarks/data/measurements.csv) against the catalogue and the request
parser: every row becomes a valid request, every decoder-only model and GPU of the data has its alias, and the data's
architecture columns are the catalogue's shapes. They read the data, so they are accuracy tests (a missing file fails
naming it)."""
from __future__ import annotations

import csv
import json

import pytest

from benchmarks.calibration import (
    CALIBRATION_ALIASES,
    CALIBRATION_GPU_ALIASES,
    DEFAULT_DATA,
    load_rows,
    require_data,
)
from calculator import api
from calculator.catalog import MODELS

pytestmark = pytest.mark.accuracy


def json_ok(req: dict) -> bool:
    return json.loads(api.answer_text(json.dumps(req)))["ok"]


def test_real_csv_rows_all_become_valid_requests() -> None:
    for r in load_rows(DEFAULT_DATA):
        if r.request is not None:
            assert json_ok(r.request), r.id


def _calibration_rows() -> list[dict[str, str]]:
    with require_data(DEFAULT_DATA).open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def test_calibration_aliases_cover_every_decoder_only_model() -> None:
    rows = _calibration_rows()
    non_decoder = {"T0_3B", "mt0-xxl", "bert-large-uncased"}
    models = {r["model"] for r in rows} - non_decoder
    assert models == set(CALIBRATION_ALIASES)


def test_calibration_arch_columns_agree_with_catalogue() -> None:
    for row in _calibration_rows():
        target = CALIBRATION_ALIASES.get(row["model"])
        if target is None:
            continue
        arch = MODELS[target]
        expected = {
            "arch_hidden": arch.hidden_size, "arch_layers": arch.num_hidden_layers,
            "arch_heads": arch.num_attention_heads, "arch_kv_heads": arch.num_key_value_heads,
            "arch_intermediate": arch.intermediate_size, "arch_vocab": arch.vocab_size,
        }
        for col, value in expected.items():
            if row[col]:
                assert int(row[col]) == value, (row["id"], col)
        if row["params_b"] and arch.published_params:
            assert float(row["params_b"]) == pytest.approx(arch.published_params / 1e9, abs=0.01), row["id"]


def test_calibration_gpu_aliases_are_csv_values() -> None:
    gpus = {r["gpu_model"] for r in _calibration_rows()}
    assert set(CALIBRATION_GPU_ALIASES) <= gpus
