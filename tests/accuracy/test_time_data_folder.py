"""benchmarks/time_accuracy.py --data on a copy of the time rows in a folder without gpu_peaks.csv (issue 19): a row
whose card is neither in the catalogue nor in a gpu_peaks.csv beside the data is left out with its reason, and the
benchmark prints its report instead of stopping with an AssertionError."""
from __future__ import annotations

import json
import shutil

import pytest

from benchmarks import require_data
from benchmarks.time_accuracy import DEFAULT_DATA, PEAKS_CSV_NAME, load_rows, main, score

pytestmark = pytest.mark.accuracy


def test_a_data_folder_without_gpu_peaks_leaves_the_unresolved_cards_out(tmp_path, capsys) -> None:
    copy = tmp_path / "throughput.csv"
    shutil.copy(require_data(DEFAULT_DATA), copy)
    assert not (tmp_path / PEAKS_CSV_NAME).exists()
    with_peaks = {r.id: r for r in load_rows(DEFAULT_DATA)}
    resolved_by_peaks = {i for i, r in with_peaks.items() if r.gpu is not None
                         and any("not in the catalogue" in a for a in r.assumptions)}
    assert resolved_by_peaks, "the project's time rows no longer need gpu_peaks.csv: pick another check"
    rows = {r.id: r for r in load_rows(copy)}
    for rid in resolved_by_peaks:
        assert rows[rid].gpu is None and rows[rid].setup is None
        assert "neither in the catalogue nor in gpu_peaks.csv" in rows[rid].excluded_reason
    scored = {s.row.id for s in score(list(rows.values()))}
    assert scored == {i for i, r in with_peaks.items() if r.setup is not None} - resolved_by_peaks
    assert main(["--data", str(copy), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert resolved_by_peaks <= {e["id"] for e in report["excluded"]}
