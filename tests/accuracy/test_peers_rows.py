"""The peers league reads the memory rows exactly as the accuracy benchmark does, on the project's data
(benchmarks/data/measurements.csv): an accuracy test, since it reads the data."""
from __future__ import annotations

import json

import pytest

from benchmarks import peers

pytestmark = pytest.mark.accuracy


def test_rows_and_our_figures_are_those_of_the_accuracy_benchmark():
    from benchmarks.accuracy import run

    rows, left = peers.load_rows(peers.DEFAULT_DATA)
    rep = run(peers.DEFAULT_DATA)
    point = {s.row.id: s.estimate_bytes for s in rep.scored if s.row.kind == "point"}
    assert {r.id: r.ours_bytes for r in rows} == point
    assert {x.id for x in left} == {r.id for r in rep.excluded} | {s.row.id for s in rep.scored
                                                                   if s.row.kind != "point"}
    for r in rows[:10]:
        json.dumps(peers.peer_config(r.id, r.request, r.gpu))
